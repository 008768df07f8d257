// Routes undo keys of a text edit to a shared QUndoStack (see undo_routing_edit.h).
#include "ui/editor/undo_routing_edit.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QUndoStack>

namespace ui {

UndoRoutingEdit::UndoRoutingEdit(QWidget* parent) : QPlainTextEdit(parent) {}

bool UndoRoutingEdit::route(QKeyEvent* event) {
    if (!stack_) return false;
    const bool undo = event->matches(QKeySequence::Undo);
    const bool redo = event->matches(QKeySequence::Redo) ||
                      (event->key() == Qt::Key_Y && event->modifiers() == Qt::ControlModifier);
    if (!undo && !redo) return false;
    if (before_undo_) before_undo_();
    if (undo)
        stack_->undo();
    else
        stack_->redo();
    return true;
}

bool UndoRoutingEdit::event(QEvent* event) {
    // Claim the keys before any window-level shortcut does, then handle them in keyPressEvent.
    if (event->type() == QEvent::ShortcutOverride && stack_) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo) ||
            (key->key() == Qt::Key_Y && key->modifiers() == Qt::ControlModifier)) {
            event->accept();
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

void UndoRoutingEdit::keyPressEvent(QKeyEvent* event) {
    if (route(event)) {
        event->accept();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void UndoRoutingEdit::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createStandardContextMenu(event->pos());
    if (stack_) {
        // Swap the widget's own Undo/Redo entries for the shared stack's.
        const auto actions = menu->actions();
        for (QAction* action : actions) {
            if (action->objectName() == QLatin1String("edit-undo") ||
                action->objectName() == QLatin1String("edit-redo")) {
                const bool undo = action->objectName() == QLatin1String("edit-undo");
                QAction* shared = undo ? stack_->createUndoAction(menu, tr("&Undo"))
                                       : stack_->createRedoAction(menu, tr("&Redo"));
                shared->setShortcut(undo ? QKeySequence::Undo : QKeySequence::Redo);
                menu->insertAction(action, shared);
                menu->removeAction(action);
            }
        }
    }
    menu->exec(event->globalPos());
    delete menu;
}

}  // namespace ui
