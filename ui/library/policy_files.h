#pragma once
// The policy file use cases of the main window: open (from the library, or unsaved from a bench
// item), reload from disk, save (a shipped policy into a copy, an unsaved one under a new name),
// ask before dropping edits, and the library's new, duplicate, rename, delete, import and export
// with the dialogs that name things and say what failed. The window shows what it opened
// (opened()) and the messages (statusMessage()).

#include <QObject>
#include <QString>

class QWidget;

namespace ui {

class PolicyDocument;
class PolicyForm;
class PolicyLibrary;

class PolicyFiles : public QObject {
    Q_OBJECT
  public:
    // `window` parents the dialogs; `initial_policy` is opened after a delete.
    PolicyFiles(PolicyLibrary* library, PolicyDocument* document, QWidget* window,
                QString initial_policy);
    // The form whose instructions field is committed before saving.
    void setForm(PolicyForm* form) { form_ = form; }

    bool open(int row);
    bool openByName(const QString& name);
    // A policy source that has no file yet (a bench item), as an unsaved document.
    void openUnsaved(const QString& name, const QString& source);
    // Opens the document's file again, keeping the variables.
    void reloadFromDisk();
    bool save();
    // Asks whether to save edits; false when the person cancelled.
    bool maybeSave();

    void createNew();
    void duplicate();
    void rename();
    void remove();
    void importFile();
    void exportFile();

  Q_SIGNALS:
    // A document was loaded: from library row `row`, or unsaved (-1).
    void opened(int row);
    void statusMessage(const QString& text, int timeout_ms);

  private:
    // The name a dialog asks for (nullopt-like: empty when cancelled).
    bool askName(const QString& title, const QString& label, const QString& proposal,
                 QString* name);
    // Shows `message` as a warning titled `title`.
    void warn(const QString& title, const std::string& message);
    // Writes the document's source to a new entry at `path` and opens it with its variables.
    bool saveInto(const QString& path);

    PolicyLibrary* library_;
    PolicyDocument* document_;
    PolicyForm* form_ = nullptr;
    QWidget* window_;
    QString initial_policy_;
};

}  // namespace ui
