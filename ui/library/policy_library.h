#pragma once
// The policies a person can open: the shipped ones (compiled into the Qt resources, read-only)
// and the user's folder ($XDG_DATA_HOME/decision-studio/policies, by default
// ~/.local/share/decision-studio/policies). A list model over both, with the file operations
// of the library (new, duplicate, rename, delete, import, export). The user folder is watched:
// files changed by another program are re-listed and reported through policyFileChanged().

#include <QAbstractListModel>
#include <QFileSystemWatcher>
#include <QHash>
#include <QString>
#include <QTimer>
#include <vector>

#include "engine/result.h"

namespace ui {

struct PolicyEntry {
    QString name;       // file name without .json.tmpl
    QString path;       // ":/..." for shipped policies
    QString vars_path;  // <name>.vars.json beside it, or empty
    bool shipped = false;
};

class PolicyLibrary : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Roles { PathRole = Qt::UserRole + 1, ShippedRole, NameRole };

    // `user_dir` empty: the standard location.
    explicit PolicyLibrary(const QString& user_dir = {}, QObject* parent = nullptr);
    static QString defaultUserDir();
    QString userDir() const { return user_dir_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    const std::vector<PolicyEntry>& entries() const { return entries_; }
    int indexOfName(const QString& name, bool prefer_user = true) const;
    int indexOfPath(const QString& path) const;
    const PolicyEntry* entry(int row) const;

    // Reads a policy's template text and sample variables (an empty object when none).
    static engine::Result<QString> readSource(const PolicyEntry& entry);
    static engine::Result<QByteArray> readVariables(const PolicyEntry& entry);

    // File operations; each returns the new entry's path (or an error naming the file).
    engine::Result<QString> createNew(const QString& name);
    engine::Result<QString> duplicate(int row, const QString& new_name);
    engine::Result<QString> rename(int row, const QString& new_name);
    engine::Result<void> remove(int row);
    engine::Result<QString> importFile(const QString& file);
    engine::Result<void> exportTo(int row, const QString& file);
    engine::Result<void> save(const QString& path, const QString& source);
    // A name not yet used in the user folder ("name", "name-2", ...).
    QString freeName(const QString& stem) const;
    static bool validName(const QString& name);

    void rescan();

  Q_SIGNALS:
    void policyFileChanged(const QString& path);

  private:
    void watch();
    QString userPath(const QString& name) const;

    QString user_dir_;
    std::vector<PolicyEntry> entries_;
    QFileSystemWatcher watcher_;
    QTimer rescan_timer_;
    QStringList pending_changes_;
    QHash<QString, QByteArray> known_;  // content hash of each watched file as last seen
};

}  // namespace ui
