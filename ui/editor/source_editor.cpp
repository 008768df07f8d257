// The source view (see source_editor.h).
#include "ui/editor/source_editor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/editor/policy_document.h"
#include "ui/editor/template_highlighter.h"
#include "ui/editor/undo_routing_edit.h"

namespace ui {

SourceEditor::SourceEditor(PolicyDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), document_guard_(document) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    edit_ = new UndoRoutingEdit(this);
    edit_->setObjectName(QStringLiteral("sourceEdit"));
    edit_->setDocument(document->textDocument());
    edit_->setUndoStack(document->undoStack());
    edit_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit_->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit_->setTabStopDistance(edit_->fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    edit_->viewport()->installEventFilter(this);
    edit_->viewport()->setMouseTracking(true);
    layout->addWidget(edit_, 1);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("sourceStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    highlighter_ = new TemplateHighlighter(document->textDocument());
    highlighter_->setParent(this);
    connect(document_, &PolicyDocument::diagnosticsChanged, this, &SourceEditor::showDiagnostics);
    showDiagnostics();
}

SourceEditor::~SourceEditor() {
    // Detach first: removing the highlighter re-lays the shared document, which must not call
    // back into this half-destroyed view.
    // The document may already be gone (a window deletes its children in creation order).
    if (document_guard_) disconnect(document_guard_, nullptr, this, nullptr);
    delete highlighter_;
}

QString SourceEditor::messageAt(int position) const {
    for (const auto& d : document_->diagnostics())
        if (position >= d.position && position < d.position + std::max(1, d.length))
            return d.message;
    return {};
}

void SourceEditor::showDiagnostics() {
    highlighter_->setDiagnostics(document_->diagnostics());
    if (document_->diagnostics().empty()) {
        status_->setText(tr("Valid: renders to a schema with %n question(s).", nullptr,
                            document_->schema() ? int(document_->schema()->questions.size()) : 0));
        status_->setForegroundRole(QPalette::PlaceholderText);
    } else {
        status_->setText(QStringLiteral("⚠ ") + document_->firstError());
        status_->setForegroundRole(QPalette::BrightText);
        QPalette p = status_->palette();
        const bool dark = p.color(QPalette::Window).lightness() < 128;
        p.setColor(QPalette::BrightText,
                   dark ? QColor(0xff, 0x8a, 0x8a) : QColor(0xb0, 0x00, 0x20));
        status_->setPalette(p);
    }
}

bool SourceEditor::eventFilter(QObject* watched, QEvent* event) {
    if (watched == edit_->viewport() && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString message = messageAt(edit_->cursorForPosition(help->pos()).position());
        if (message.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), message, edit_->viewport());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void SourceEditor::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) highlighter_->updatePalette(palette());
    QWidget::changeEvent(event);
}

}  // namespace ui
