#pragma once
// Endpoint profiles: the local engine (model folder, CPU or CUDA) and remote servers (URL,
// protocol chosen or detected, auth: a keychain token, gcloud identity/access token, server
// key), with a test-connection button. Edits a copy of the store; OK hands it back.

#include <QAbstractListModel>
#include <QDialog>

#include "core/endpoints/endpoint_profiles.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QFormLayout;
class QLineEdit;
class QListView;
class QPushButton;
class QStackedWidget;
class QVBoxLayout;

namespace core {
class WorkerRunner;
}

namespace ui {

class EndpointListModel : public QAbstractListModel {
    Q_OBJECT
  public:
    explicit EndpointListModel(core::EndpointProfileStore* store, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    void reset();
    void changed(int row);

  private:
    core::EndpointProfileStore* store_;
};

class EndpointsDialog : public QDialog {
    Q_OBJECT
  public:
    EndpointsDialog(const core::EndpointProfileStore& store, QWidget* parent = nullptr);
    ~EndpointsDialog() override;
    const core::EndpointProfileStore& store() const { return store_; }
    void select(int row);
    // Starts the connection test of the selected profile; the status label tells the result.
    void testConnection();
    QString statusText() const;
    bool testRunning() const;

  private:
    // The parts of the dialog: the profile list with its buttons, the local engine's page, the
    // server's page, and the form's edits saved into the profile.
    QVBoxLayout* buildList();
    QWidget* buildLocalPage();
    QWidget* buildRemotePage();
    void connectForm();
    void loadForm();
    void saveForm();
    void updateVisibility();
    void saveSecret(bool server_key);
    void saveProxyPassword();
    void addNetworkRows(QWidget* page, QFormLayout* form);
    int currentRow() const;

    core::EndpointProfileStore store_;
    EndpointListModel* model_;
    QListView* list_;
    QLineEdit* name_;
    QComboBox* kind_;
    QStackedWidget* pages_;
    QLineEdit* model_dir_;
    QComboBox* device_;
    QLineEdit* url_;
    QLineEdit* model_name_;
    QDoubleSpinBox* timeout_;
    QComboBox* auth_;
    QLineEdit* token_;
    QPushButton* save_token_;
    QCheckBox* server_key_;
    QLineEdit* server_key_value_;
    QPushButton* save_server_key_;
    QLineEdit* tokenizer_dir_;
    QLineEdit* ca_file_;
    QLineEdit* client_cert_;
    QLineEdit* client_key_;
    QLineEdit* proxy_;
    QLineEdit* proxy_password_;
    QPushButton* save_proxy_password_;
    QPushButton* test_;
    QLabel* status_;
    bool loading_ = false;
    int current_row_ = -1;
    core::WorkerRunner* tester_;  // the connection test
};

}  // namespace ui
