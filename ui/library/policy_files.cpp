// The main window's policy file use cases (see policy_files.h). Their texts keep the main
// window's translation context, where they were written first.
#include "ui/library/policy_files.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>

#include "ui/editor/policy_document.h"
#include "ui/editor/policy_form.h"
#include "ui/library/policy_library.h"

namespace ui {

PolicyFiles::PolicyFiles(PolicyLibrary* library, PolicyDocument* document, QWidget* window,
                         QString initial_policy)
    : QObject(window),
      library_(library),
      document_(document),
      window_(window),
      initial_policy_(std::move(initial_policy)) {}

bool PolicyFiles::askName(const QString& title, const QString& label, const QString& proposal,
                          QString* name) {
    bool ok = false;
    *name = QInputDialog::getText(window_, title, label, QLineEdit::Normal, proposal, &ok);
    return ok;
}

void PolicyFiles::warn(const QString& title, const std::string& message) {
    QMessageBox::warning(window_, title, QString::fromStdString(message));
}

bool PolicyFiles::open(int row) {
    const PolicyEntry* entry = library_->entry(row);
    if (!entry) return false;
    const PolicyEntry e = *entry;
    auto source = PolicyLibrary::readSource(e);
    if (!source) {
        Q_EMIT statusMessage(QString::fromStdString(source.error().message), 0);
        return false;
    }
    auto vars_text = PolicyLibrary::readVariables(e);
    nlohmann::json vars = nlohmann::json::object();
    if (vars_text) {
        vars = nlohmann::json::parse(vars_text->toStdString(), nullptr, false);
        if (vars.is_discarded() || !vars.is_object()) {
            Q_EMIT statusMessage(
                QCoreApplication::translate(
                    "ui::MainWindow", "%1: not a JSON object of variables; starting with none")
                    .arg(e.vars_path),
                0);
            vars = nlohmann::json::object();
        }
    }
    document_->load(e.name, e.path, *source, vars);
    Q_EMIT opened(row);
    return true;
}

bool PolicyFiles::openByName(const QString& name) {
    return open(library_->indexOfName(name, false));
}

void PolicyFiles::openUnsaved(const QString& name, const QString& source) {
    if (!maybeSave()) return;
    document_->load(name, QString(), source, nlohmann::json::object());
    Q_EMIT opened(-1);
}

void PolicyFiles::reloadFromDisk() {
    const int row = library_->indexOfPath(document_->path());
    const nlohmann::json variables = document_->variables();
    if (row >= 0 && open(row)) document_->setVariables(variables);
}

bool PolicyFiles::saveInto(const QString& path) {
    if (!library_->save(path, document_->source())) return false;
    const nlohmann::json variables = document_->variables();
    open(library_->indexOfPath(path));
    document_->setVariables(variables);
    return true;
}

bool PolicyFiles::save() {
    if (form_) form_->commitInstructions();
    const int row = library_->indexOfPath(document_->path());
    const PolicyEntry* e = library_->entry(row);
    const QString title = QCoreApplication::translate("ui::MainWindow", "Save");
    QString name;
    if (!e && document_->path().isEmpty()) {
        // An unsaved document (a bench item): Save names it and puts it in the user folder.
        if (!askName(QCoreApplication::translate("ui::MainWindow", "Save policy"),
                     QCoreApplication::translate("ui::MainWindow", "Save this policy as:"),
                     library_->freeName(QStringLiteral("bench_item")), &name))
            return false;
        auto created = library_->createNew(name.trimmed());
        if (!created) {
            warn(title, created.error().message);
            return false;
        }
        return saveInto(*created);
    }
    if (!e) return false;
    if (e->shipped) {
        // Shipped policies are read-only: the edits go into a copy in the user folder.
        if (!askName(QCoreApplication::translate("ui::MainWindow", "Save a copy"),
                     QCoreApplication::translate(
                         "ui::MainWindow", "Shipped policies are read-only. Save your edits as:"),
                     library_->freeName(e->name), &name))
            return false;
        auto copied = library_->duplicate(row, name.trimmed());
        if (!copied) {
            warn(title, copied.error().message);
            return false;
        }
        return saveInto(*copied);
    }
    auto saved = library_->save(e->path, document_->source());
    if (!saved) {
        warn(title, saved.error().message);
        return false;
    }
    document_->setClean();
    Q_EMIT statusMessage(QCoreApplication::translate("ui::MainWindow", "Saved %1")
                             .arg(QDir::toNativeSeparators(document_->path())),
                         3000);
    return true;
}

bool PolicyFiles::maybeSave() {
    if (form_) form_->commitInstructions();
    if (!document_->isModified()) return true;
    const auto answer = QMessageBox::question(
        window_, QCoreApplication::translate("ui::MainWindow", "Unsaved edits"),
        QCoreApplication::translate("ui::MainWindow", "Save your edits to %1?")
            .arg(document_->name()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void PolicyFiles::createNew() {
    if (!maybeSave()) return;
    QString name;
    if (!askName(QCoreApplication::translate("ui::MainWindow", "New policy"),
                 QCoreApplication::translate("ui::MainWindow", "Name:"),
                 library_->freeName(QStringLiteral("my_policy")), &name))
        return;
    auto created = library_->createNew(name.trimmed());
    if (!created)
        return warn(QCoreApplication::translate("ui::MainWindow", "New policy"),
                    created.error().message);
    open(library_->indexOfPath(*created));
}

void PolicyFiles::duplicate() {
    const int row = library_->indexOfPath(document_->path());
    if (row < 0) return;
    const QString title = QCoreApplication::translate("ui::MainWindow", "Duplicate policy");
    QString name;
    if (!askName(title, QCoreApplication::translate("ui::MainWindow", "Name of the copy:"),
                 library_->freeName(document_->name()), &name))
        return;
    auto copied = library_->duplicate(row, name.trimmed());
    if (!copied) return warn(title, copied.error().message);
    // The copy carries the edits made so far.
    const QString source = document_->source();
    const nlohmann::json variables = document_->variables();
    open(library_->indexOfPath(*copied));
    if (source != document_->source() && library_->save(*copied, source).ok()) {
        document_->load(document_->name(), *copied, source, document_->sampleVariables());
    }
    document_->setVariables(variables);
}

void PolicyFiles::rename() {
    const int row = library_->indexOfPath(document_->path());
    if (row < 0) return;
    const QString title = QCoreApplication::translate("ui::MainWindow", "Rename policy");
    QString name;
    if (!askName(title, QCoreApplication::translate("ui::MainWindow", "New name:"),
                 document_->name(), &name) ||
        name.trimmed() == document_->name())
        return;
    if (document_->isModified() && !save()) return;
    auto renamed = library_->rename(row, name.trimmed());
    if (!renamed) return warn(title, renamed.error().message);
    open(library_->indexOfPath(*renamed));
}

void PolicyFiles::remove() {
    const int row = library_->indexOfPath(document_->path());
    if (row < 0) return;
    const QString title = QCoreApplication::translate("ui::MainWindow", "Delete policy");
    if (QMessageBox::question(
            window_, title,
            QCoreApplication::translate("ui::MainWindow", "Delete %1 from your policy folder?")
                .arg(document_->name())) != QMessageBox::Yes)
        return;
    auto removed = library_->remove(row);
    if (!removed) return warn(title, removed.error().message);
    document_->setClean();
    openByName(initial_policy_);
}

void PolicyFiles::importFile() {
    const QString title = QCoreApplication::translate("ui::MainWindow", "Import policy");
    const QString file = QFileDialog::getOpenFileName(
        window_, title, {},
        QCoreApplication::translate("ui::MainWindow", "Policy templates (*.json.tmpl)"));
    if (file.isEmpty()) return;
    auto imported = library_->importFile(file);
    if (!imported) return warn(title, imported.error().message);
    if (maybeSave()) open(library_->indexOfPath(*imported));
}

void PolicyFiles::exportFile() {
    const int row = library_->indexOfPath(document_->path());
    if (row < 0) return;
    const QString title = QCoreApplication::translate("ui::MainWindow", "Export policy");
    const QString file = QFileDialog::getSaveFileName(
        window_, title, document_->name() + QStringLiteral(".json.tmpl"),
        QCoreApplication::translate("ui::MainWindow", "Policy templates (*.json.tmpl)"));
    if (file.isEmpty()) return;
    auto exported = library_->exportTo(row, file);
    if (!exported) warn(title, exported.error().message);
}

}  // namespace ui
