#pragma once
// The Models view: every DiffusionGemma checkpoint on this machine (core::models::scan_models:
// the Hugging Face cache and the folders a person added, remembered in the settings), with its
// format, size on disk, whether its files are complete and whether the engine's memory plan fits
// this machine; the active one (the chosen local profile's folder) marked. A complete model can
// be chosen for a local profile; an incomplete or foreign one shows why and cannot.

#include <QWidget>
#include <filesystem>
#include <vector>

#include "core/endpoints/endpoint_profiles.h"
#include "core/models/model_catalog.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace ui {

struct ModelsViewOptions {
    std::vector<std::filesystem::path> hub_dirs;  // empty: core::models::default_hub_dir()
    bool machine_from_system = true;              // false: use `machine` (tests)
    core::models::MachineMemory machine;
};

class ModelsView : public QWidget {
    Q_OBJECT
  public:
    enum Column { Name, Status, Format, Size, Memory, Folder, Columns };

    explicit ModelsView(ModelsViewOptions options = {}, QWidget* parent = nullptr);

    // The local profiles a model can be chosen for; the chosen one's folder is the active model.
    void setProfiles(const core::EndpointProfileStore& store);
    // Scans again (the cache, the added folders).
    void refresh();
    // Adds a folder (a model folder or a folder of them), remembered in the settings.
    void addFolder(const QString& path);
    void removeFolder(const QString& path);
    QStringList folders() const;

    const std::vector<core::models::ModelEntry>& entries() const { return entries_; }
    QTableWidget* table() const { return table_; }
    QPushButton* useButton() const { return use_; }
    QString detailsText() const;
    void selectRow(int row);
    // Chooses the selected model for the profile in the box (as the button does); false when
    // it cannot be chosen.
    bool useSelected();

  Q_SIGNALS:
    // The person chose `model_dir` for the local profile `profile`.
    void modelChosen(const QString& profile, const QString& model_dir);

  private:
    void fill();
    void showDetails();
    QString activeDir() const;

    ModelsViewOptions options_;
    core::EndpointProfileStore profiles_;
    std::vector<core::models::ModelEntry> entries_;
    QTableWidget* table_ = nullptr;
    QLabel* machine_ = nullptr;
    QLabel* details_ = nullptr;
    QComboBox* profile_box_ = nullptr;
    QPushButton* use_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
};

}  // namespace ui
