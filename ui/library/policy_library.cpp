// The policy library (see policy_library.h).
#include "ui/library/policy_library.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QFont>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>

#include "core/policy/policy.h"

namespace ui {
namespace {
const QString kSuffix = QStringLiteral(".json.tmpl");
const QString kVarsSuffix = QStringLiteral(".vars.json");

QString base_name(const QString& path) {
    QString name = QFileInfo(path).fileName();
    name.chop(kSuffix.size());
    return name;
}

QString vars_path_for(const QString& template_path) {
    QString p = template_path;
    p.chop(kSuffix.size());
    p += kVarsSuffix;
    return QFile::exists(p) ? p : QString();
}

QByteArray content_hash(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha1);
}

engine::Error file_error(const QString& path, const QString& what) {
    return engine::bad_input((path + QStringLiteral(": ") + what).toStdString());
}

constexpr auto kNewPolicy = R"({{- /* %1: describe what this policy decides. */ -}}
{
  "schema": {
    "instructions": "Read the document and answer each question about it.",
    "questions": [
      {
        "id": "relevant",
        "type": "noul",
        "instructions": "Is the document relevant?"
      }
    ],
    "samples": {{ default "auto" .samples | toJson }}
  },
  "state": {
    "document": {{ default "No document provided" .document | toJson }}
  }
}
)";
}  // namespace

PolicyLibrary::PolicyLibrary(const QString& user_dir, QObject* parent)
    : QAbstractListModel(parent), user_dir_(user_dir.isEmpty() ? defaultUserDir() : user_dir) {
    QDir().mkpath(user_dir_);
    // Editors save in several steps (write temp, rename); one rescan after they settle.
    rescan_timer_.setSingleShot(true);
    rescan_timer_.setInterval(150);
    connect(&rescan_timer_, &QTimer::timeout, this, [this] {
        rescan();
        const QStringList changed = std::exchange(pending_changes_, {});
        for (const QString& path : changed) {
            // Only a real change of content counts (watchers also fire for renames, touches
            // and our own saves).
            const QByteArray hash = content_hash(path);
            if (known_.value(path) == hash) continue;
            known_[path] = hash;
            Q_EMIT policyFileChanged(path);
        }
    });
    auto on_change = [this](const QString& path) {
        if (!pending_changes_.contains(path)) pending_changes_ << path;
        rescan_timer_.start();
    };
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, on_change);
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this,
            [this](const QString&) { rescan_timer_.start(); });
    rescan();
}

QString PolicyLibrary::defaultUserDir() {
    // GenericDataLocation honours XDG_DATA_HOME.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/decision-studio/policies");
}

bool PolicyLibrary::validName(const QString& name) {
    if (name.isEmpty() || name.size() > 100 || name.startsWith(QLatin1Char('.'))) return false;
    for (QChar c : name)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-') ||
              c == QLatin1Char('.') || c == QLatin1Char(' ')))
            return false;
    return true;
}

QString PolicyLibrary::userPath(const QString& name) const {
    return user_dir_ + QLatin1Char('/') + name + kSuffix;
}

void PolicyLibrary::rescan() {
    std::vector<PolicyEntry> found;
    for (const core::PolicyFile& shipped : core::shipped_policies()) {
        const QString path = QString::fromStdString(shipped.path.string());
        found.push_back({QString::fromStdString(shipped.name), path, vars_path_for(path), true});
    }
    QDirIterator user(user_dir_, {QStringLiteral("*.json.tmpl")}, QDir::Files);
    while (user.hasNext()) {
        const QString path = user.next();
        found.push_back({base_name(path), path, vars_path_for(path), false});
    }
    std::sort(found.begin(), found.end(), [](const PolicyEntry& a, const PolicyEntry& b) {
        if (a.shipped != b.shipped) return a.shipped;  // shipped first
        return a.name.localeAwareCompare(b.name) < 0;
    });
    const bool same = found.size() == entries_.size() &&
                      std::equal(found.begin(), found.end(), entries_.begin(),
                                 [](const PolicyEntry& a, const PolicyEntry& b) {
                                     return a.path == b.path && a.vars_path == b.vars_path;
                                 });
    if (!same) {
        beginResetModel();
        entries_ = std::move(found);
        endResetModel();
    }
    watch();
}

void PolicyLibrary::watch() {
    if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    watcher_.addPath(user_dir_);
    for (const auto& e : entries_) {
        if (e.shipped) continue;
        if (!known_.contains(e.path)) known_[e.path] = content_hash(e.path);
        if (!e.vars_path.isEmpty() && !known_.contains(e.vars_path))
            known_[e.vars_path] = content_hash(e.vars_path);
        watcher_.addPath(e.path);
        if (!e.vars_path.isEmpty()) watcher_.addPath(e.vars_path);
    }
}

int PolicyLibrary::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

QVariant PolicyLibrary::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const PolicyEntry& e = entries_[static_cast<size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
        case NameRole:
            return e.name;
        case Qt::ToolTipRole:
            return e.shipped ? tr("%1 (shipped, read-only: duplicate it to edit)").arg(e.name)
                             : QDir::toNativeSeparators(e.path);
        case Qt::FontRole: {
            if (!e.shipped) return {};
            QFont f;
            f.setItalic(true);
            return f;
        }
        case PathRole:
            return e.path;
        case ShippedRole:
            return e.shipped;
    }
    return {};
}

int PolicyLibrary::indexOfName(const QString& name, bool prefer_user) const {
    int found = -1;
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].name != name) continue;
        if (found < 0 || (prefer_user && !entries_[i].shipped)) found = static_cast<int>(i);
    }
    return found;
}

int PolicyLibrary::indexOfPath(const QString& path) const {
    for (size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].path == path) return static_cast<int>(i);
    return -1;
}

const PolicyEntry* PolicyLibrary::entry(int row) const {
    return row >= 0 && row < rowCount() ? &entries_[static_cast<size_t>(row)] : nullptr;
}

engine::Result<QString> PolicyLibrary::readSource(const PolicyEntry& entry) {
    QFile file(entry.path);
    if (!file.open(QIODevice::ReadOnly))
        return file_error(entry.path, tr("cannot read: %1").arg(file.errorString()));
    return QString::fromUtf8(file.readAll());
}

engine::Result<QByteArray> PolicyLibrary::readVariables(const PolicyEntry& entry) {
    if (entry.vars_path.isEmpty()) return QByteArray("{}");
    QFile file(entry.vars_path);
    if (!file.open(QIODevice::ReadOnly))
        return file_error(entry.vars_path, tr("cannot read: %1").arg(file.errorString()));
    return file.readAll();
}

QString PolicyLibrary::freeName(const QString& stem) const {
    for (int n = 1;; ++n) {
        const QString name = n == 1 ? stem : stem + QStringLiteral("-") + QString::number(n);
        if (!QFile::exists(userPath(name))) return name;
    }
}

engine::Result<void> PolicyLibrary::save(const QString& path, const QString& source) {
    if (path.startsWith(QLatin1Char(':')))
        return file_error(path, tr("shipped policies are read-only; duplicate it"));
    // Our own write is not an outside change: stop watching the file while writing it (the
    // rescan below watches it again).
    if (watcher_.files().contains(path)) watcher_.removePath(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file_error(path, tr("cannot write: %1").arg(file.errorString()));
    file.write(source.toUtf8());
    known_[path] = QCryptographicHash::hash(source.toUtf8(), QCryptographicHash::Sha1);
    if (!file.commit()) return file_error(path, tr("cannot write: %1").arg(file.errorString()));
    rescan();
    return {};
}

engine::Result<QString> PolicyLibrary::createNew(const QString& name) {
    if (!validName(name))
        return file_error(name, tr("a policy name uses letters, digits, _ - . and spaces"));
    const QString path = userPath(name);
    if (QFile::exists(path)) return file_error(path, tr("already exists"));
    auto saved = save(path, QString::fromUtf8(kNewPolicy).arg(name));
    if (!saved) return saved.error();
    {
        QFile vars(user_dir_ + QLatin1Char('/') + name + kVarsSuffix);
        if (vars.open(QIODevice::WriteOnly)) vars.write("{\n  \"document\": \"\"\n}\n");
    }  // closed (and written) before the rescan reads it
    rescan();
    return path;
}

engine::Result<QString> PolicyLibrary::duplicate(int row, const QString& new_name) {
    const PolicyEntry* e = entry(row);
    if (!e) return engine::bad_input(tr("duplicate: no policy selected").toStdString());
    if (!validName(new_name))
        return file_error(new_name, tr("a policy name uses letters, digits, _ - . and spaces"));
    const QString path = userPath(new_name);
    if (QFile::exists(path)) return file_error(path, tr("already exists"));
    const PolicyEntry source = *e;
    if (!QFile::copy(source.path, path))
        return file_error(path, tr("cannot copy %1").arg(source.path));
    QFile::setPermissions(
        path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    if (!source.vars_path.isEmpty()) {
        const QString vars = user_dir_ + QLatin1Char('/') + new_name + kVarsSuffix;
        QFile::copy(source.vars_path, vars);
        QFile::setPermissions(
            vars, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    rescan();
    return path;
}

engine::Result<QString> PolicyLibrary::rename(int row, const QString& new_name) {
    const PolicyEntry* e = entry(row);
    if (!e) return engine::bad_input(tr("rename: no policy selected").toStdString());
    if (e->shipped) return file_error(e->name, tr("shipped policies cannot be renamed"));
    if (!validName(new_name))
        return file_error(new_name, tr("a policy name uses letters, digits, _ - . and spaces"));
    const QString path = userPath(new_name);
    if (QFile::exists(path)) return file_error(path, tr("already exists"));
    const PolicyEntry old = *e;
    if (!QFile::rename(old.path, path)) return file_error(old.path, tr("cannot rename"));
    if (!old.vars_path.isEmpty())
        QFile::rename(old.vars_path, user_dir_ + QLatin1Char('/') + new_name + kVarsSuffix);
    rescan();
    return path;
}

engine::Result<void> PolicyLibrary::remove(int row) {
    const PolicyEntry* e = entry(row);
    if (!e) return engine::bad_input(tr("delete: no policy selected").toStdString());
    if (e->shipped) return file_error(e->name, tr("shipped policies cannot be deleted"));
    const PolicyEntry old = *e;
    if (!QFile::remove(old.path)) return file_error(old.path, tr("cannot delete"));
    if (!old.vars_path.isEmpty()) QFile::remove(old.vars_path);
    rescan();
    return {};
}

engine::Result<QString> PolicyLibrary::importFile(const QString& file) {
    if (!file.endsWith(kSuffix)) return file_error(file, tr("a policy file ends in .json.tmpl"));
    if (!QFileInfo(file).isReadable()) return file_error(file, tr("cannot read"));
    const QString name = freeName(base_name(file));
    const QString path = userPath(name);
    if (!QFile::copy(file, path)) return file_error(path, tr("cannot copy %1").arg(file));
    const QString vars = vars_path_for(file);
    if (!vars.isEmpty()) QFile::copy(vars, user_dir_ + QLatin1Char('/') + name + kVarsSuffix);
    rescan();
    return path;
}

engine::Result<void> PolicyLibrary::exportTo(int row, const QString& file) {
    const PolicyEntry* e = entry(row);
    if (!e) return engine::bad_input(tr("export: no policy selected").toStdString());
    QString target = file;
    if (!target.endsWith(kSuffix)) target += kSuffix;
    if (QFile::exists(target)) QFile::remove(target);
    if (!QFile::copy(e->path, target)) return file_error(target, tr("cannot write"));
    QFile::setPermissions(
        target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    if (!e->vars_path.isEmpty()) {
        QString vars = target;
        vars.chop(kSuffix.size());
        vars += kVarsSuffix;
        if (QFile::exists(vars)) QFile::remove(vars);
        QFile::copy(e->vars_path, vars);
        QFile::setPermissions(
            vars, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    return {};
}

}  // namespace ui
