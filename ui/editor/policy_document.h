#pragma once
// One open policy: its `.json.tmpl` source (a QTextDocument, the single source of truth), its
// variables, and what they render to (schema + state) with diagnostics placed in the source.
// The form and the source editor are two views of this object; every change of either goes
// through the QTextDocument, whose undo steps are mirrored on one QUndoStack, so undo walks
// form and source edits alike. Form edits are mapped back into the source by
// core/policy/policy_source_edit.h (only schema.instructions and schema.questions are rewritten).

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/policy/schema.h"

class QTextDocument;

namespace ui {

struct Diagnostic {
    int position = 0;  // character offset in the source (QString units)
    int length = 1;
    QString message;  // one line, "file:line:col: ..." as the renderer wrote it
};

class PolicyDocument : public QObject {
    Q_OBJECT
  public:
    explicit PolicyDocument(QObject* parent = nullptr);

    QTextDocument* textDocument() const { return text_; }
    QUndoStack* undoStack() const { return undo_; }

    // Replaces everything (undo history is cleared). `name` names the policy in messages.
    void load(const QString& name, const QString& path, const QString& source,
              const nlohmann::json& variables);
    QString name() const { return name_; }
    QString path() const { return path_; }
    QString source() const;
    bool isModified() const;
    void setClean();

    // The variables the template renders with (an object); re-renders.
    const nlohmann::json& variables() const { return variables_; }
    void setVariables(const nlohmann::json& variables);
    const nlohmann::json& sampleVariables() const { return sample_variables_; }

    // Form edits: each becomes one undoable step in the source.
    bool setInstructions(const QString& instructions);
    bool setQuestions(const std::vector<core::Question>& questions, const QString& what);
    // One schema member ("temperature", "cascade_mode", "cascade_threshold") set to JSON text
    // (core::replace_schema_member): one undoable step; false when the source refuses it.
    bool setSchemaMember(const std::string& key, const std::string& json_text, const QString& what);
    bool instructionsEditable() const { return instructions_editable_; }
    bool questionsEditable() const { return questions_editable_; }

    // The last successful render (kept while the source has errors, so views do not blank).
    const std::optional<core::Schema>& schema() const { return schema_; }
    const nlohmann::ordered_json& state() const { return state_; }
    bool valid() const { return diagnostics_.empty(); }
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    QString firstError() const;

  Q_SIGNALS:
    void loaded();
    // After every re-render: schema/state may have changed, diagnostics are current.
    void rendered();
    void diagnosticsChanged();

  private:
    void onContentsChanged();
    void rerender();
    bool applySource(const QString& new_source, const QString& what);
    void addDiagnostic(const std::string& message, size_t byte_offset, const std::string& utf8);

    QTextDocument* text_;
    QUndoStack* undo_;
    QString name_, path_;
    nlohmann::json variables_ = nlohmann::json::object();
    nlohmann::json sample_variables_ = nlohmann::json::object();
    std::optional<core::Schema> schema_;
    nlohmann::ordered_json state_;
    std::vector<Diagnostic> diagnostics_;
    bool instructions_editable_ = false;
    bool questions_editable_ = false;
    QString rendered_source_;  // the text of the last render
    QString pending_label_;    // names the undo step a form edit is about to create
    bool loading_ = false;
};

}  // namespace ui
