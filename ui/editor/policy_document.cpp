// The open policy: source text, undo, render and diagnostics (see policy_document.h).
#include "ui/editor/policy_document.h"

#include <QPlainTextDocumentLayout>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include "core/policy/policy_source_edit.h"
#include "core/template/template.h"

namespace ui {
namespace {

// Mirrors one QTextDocument undo step on the QUndoStack. The step has already happened when
// the command is pushed, so its first redo() does nothing.
class DocumentStepCommand : public QUndoCommand {
  public:
    DocumentStepCommand(QTextDocument* document, const QString& text)
        : QUndoCommand(text), document_(document) {}
    void undo() override { document_->undo(); }
    void redo() override {
        if (first_) {
            first_ = false;
            return;
        }
        document_->redo();
    }

  private:
    QTextDocument* document_;
    bool first_ = true;
};

// Character offset (QString units) of a UTF-8 byte offset.
int char_offset(const std::string& utf8, size_t byte_offset) {
    byte_offset = std::min(byte_offset, utf8.size());
    return static_cast<int>(
        QString::fromUtf8(utf8.data(), static_cast<qsizetype>(byte_offset)).size());
}

}  // namespace

PolicyDocument::PolicyDocument(QObject* parent)
    : QObject(parent), text_(new QTextDocument(this)), undo_(new QUndoStack(this)) {
    // QPlainTextEdit shows only documents with a plain-text layout.
    text_->setDocumentLayout(new QPlainTextDocumentLayout(text_));
    connect(text_, &QTextDocument::undoCommandAdded, this, [this] {
        if (loading_) return;
        undo_->push(new DocumentStepCommand(
            text_, pending_label_.isEmpty() ? tr("Edit source") : pending_label_));
    });
    connect(text_, &QTextDocument::contentsChanged, this, &PolicyDocument::onContentsChanged);
}

void PolicyDocument::load(const QString& name, const QString& path, const QString& source,
                          const nlohmann::json& variables) {
    loading_ = true;
    name_ = name;
    path_ = path;
    sample_variables_ = variables.is_object() ? variables : nlohmann::json::object();
    variables_ = sample_variables_;
    text_->setPlainText(source);  // also clears the document's own undo history
    text_->setModified(false);
    undo_->clear();
    loading_ = false;
    rerender();
    Q_EMIT loaded();
}

QString PolicyDocument::source() const {
    return text_->toPlainText();
}
bool PolicyDocument::isModified() const {
    return !undo_->isClean();
}
void PolicyDocument::setClean() {
    undo_->setClean();
}

void PolicyDocument::setVariables(const nlohmann::json& variables) {
    variables_ = variables.is_object() ? variables : nlohmann::json::object();
    rerender();
}

void PolicyDocument::onContentsChanged() {
    // Formatting (highlighting) also reports a change; only a change of text re-renders.
    if (loading_) return;
    const QString text = source();
    if (text == rendered_source_) return;
    rerender();
}

bool PolicyDocument::applySource(const QString& new_source, const QString& what) {
    const QString old_source = source();
    if (new_source == old_source) return false;
    // Replace only the changed middle, so the cursor and the view stay where they were.
    qsizetype prefix = 0;
    const qsizetype limit = std::min(old_source.size(), new_source.size());
    while (prefix < limit && old_source[prefix] == new_source[prefix]) ++prefix;
    qsizetype suffix = 0;
    while (suffix < limit - prefix &&
           old_source[old_source.size() - 1 - suffix] == new_source[new_source.size() - 1 - suffix])
        ++suffix;
    QTextCursor cursor(text_);
    cursor.beginEditBlock();
    cursor.setPosition(static_cast<int>(prefix));
    cursor.setPosition(static_cast<int>(old_source.size() - suffix), QTextCursor::KeepAnchor);
    pending_label_ = what;
    cursor.insertText(new_source.mid(prefix, new_source.size() - suffix - prefix));
    cursor.endEditBlock();
    pending_label_.clear();
    return true;
}

bool PolicyDocument::setInstructions(const QString& instructions) {
    if (!instructions_editable_) return false;
    if (schema_ && QString::fromStdString(schema_->instructions) == instructions) return false;
    auto edited =
        core::replace_schema_instructions(source().toStdString(), instructions.toStdString());
    if (!edited) return false;
    return applySource(QString::fromStdString(*edited), tr("Edit instructions"));
}

bool PolicyDocument::setSchemaMember(const std::string& key, const std::string& json_text,
                                     const QString& what) {
    auto edited = core::replace_schema_member(source().toStdString(), key, json_text);
    if (!edited || *edited == source().toStdString()) return false;
    return applySource(QString::fromStdString(*edited), what);
}

bool PolicyDocument::setQuestions(const std::vector<core::Question>& questions,
                                  const QString& what) {
    if (!questions_editable_) return false;
    auto edited = core::replace_schema_questions(source().toStdString(), questions);
    if (!edited) return false;
    return applySource(QString::fromStdString(*edited), what);
}

QString PolicyDocument::firstError() const {
    return diagnostics_.empty() ? QString() : diagnostics_.front().message;
}

void PolicyDocument::addDiagnostic(const std::string& message, size_t byte_offset,
                                   const std::string& utf8) {
    Diagnostic d;
    d.message = QString::fromStdString(message);
    d.position = char_offset(utf8, byte_offset);
    // Underline to the end of the word (or one character).
    const QString text = source();
    int end = d.position;
    while (end < text.size() && !text[end].isSpace() && end - d.position < 40) ++end;
    d.length = std::max(1, end - d.position);
    diagnostics_.push_back(d);
}

void PolicyDocument::rerender() {
    rendered_source_ = source();
    diagnostics_.clear();
    const std::string utf8 = source().toStdString();
    const std::string file = (path_.isEmpty() ? name_ : path_).toStdString();

    auto spans = core::locate_form_spans(utf8);
    instructions_editable_ = spans && !spans->instructions_templated;
    questions_editable_ = spans && !spans->questions_templated;

    auto traced = core::render_template_traced(utf8, variables_, file);
    if (!traced) {
        // "file:line:col: message": place it at line:col.
        const std::string& message = traced.error().message;
        static const QRegularExpression where(QStringLiteral(":(\\d+):(\\d+): "));
        const auto match = where.match(QString::fromStdString(message));
        int position = 0;
        if (match.hasMatch()) {
            const QTextBlock block = text_->findBlockByNumber(match.captured(1).toInt() - 1);
            if (block.isValid())
                position = block.position() +
                           std::min(match.captured(2).toInt() - 1, std::max(0, block.length() - 1));
        }
        Diagnostic d{position, 2, QString::fromStdString(message)};
        diagnostics_.push_back(d);
        Q_EMIT diagnosticsChanged();
        Q_EMIT rendered();
        return;
    }

    nlohmann::ordered_json output;
    try {
        output = nlohmann::ordered_json::parse(traced->text);
    } catch (const nlohmann::json::parse_error& e) {
        const size_t out_offset = e.byte > 0 ? e.byte - 1 : 0;
        const size_t src_offset = traced->source_offset_of(out_offset);
        std::string what = e.what();
        if (auto colon = what.find("syntax error"); colon != std::string::npos)
            what = what.substr(colon);
        addDiagnostic(file + ":" + core::text_position(utf8, src_offset) + ": " +
                          tr("the rendered policy is not valid JSON: %1")
                              .arg(QString::fromStdString(what))
                              .toStdString(),
                      src_offset, utf8);
        Q_EMIT diagnosticsChanged();
        Q_EMIT rendered();
        return;
    } catch (const nlohmann::json::exception& e) {
        // Valid syntax the parser still refuses: a number too large for a double (1e999).
        addDiagnostic(file + ": " +
                          tr("the rendered policy is not valid JSON: %1")
                              .arg(QString::fromStdString(e.what()))
                              .toStdString(),
                      0, utf8);
        Q_EMIT diagnosticsChanged();
        Q_EMIT rendered();
        return;
    }
    if (!output.is_object() || !output.contains("schema")) {
        addDiagnostic(file + ": " +
                          tr("the rendered policy must be an object {\"schema\": {...}, "
                             "\"state\": {...}}")
                              .toStdString(),
                      0, utf8);
        Q_EMIT diagnosticsChanged();
        Q_EMIT rendered();
        return;
    }
    auto schema = core::parse_schema(output["schema"], file);
    if (!schema) {
        // Schema errors name a question or a field; underline its first quoted mention.
        const std::string& message = schema.error().message;
        size_t offset = spans ? spans->schema.begin : 0;
        static const QRegularExpression quoted(QStringLiteral("[\"'“]([^\"'”]+)[\"'”]"));
        auto it = quoted.globalMatch(QString::fromStdString(message));
        while (it.hasNext()) {
            const std::string needle = "\"" + it.next().captured(1).toStdString() + "\"";
            if (auto at = utf8.find(needle, spans ? spans->schema.begin : 0);
                at != std::string::npos) {
                offset = at;
                break;
            }
        }
        addDiagnostic(message, offset, utf8);
        Q_EMIT diagnosticsChanged();
        Q_EMIT rendered();
        return;
    }
    schema_ = std::move(schema.value());
    state_ = output.contains("state") ? output["state"] : nlohmann::ordered_json::object();
    Q_EMIT diagnosticsChanged();
    Q_EMIT rendered();
}

}  // namespace ui
