#pragma once
// A QPlainTextEdit whose Undo/Redo keys (and context-menu entries) act on the policy's shared
// QUndoStack instead of the widget's private history, so Ctrl+Z walks form and source edits in
// one order whichever view has focus.

#include <QPlainTextEdit>
#include <functional>

class QUndoStack;

namespace ui {

class UndoRoutingEdit : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit UndoRoutingEdit(QWidget* parent = nullptr);
    void setUndoStack(QUndoStack* stack) { stack_ = stack; }
    // Called before an undo/redo is routed (the form commits a pending edit first).
    void setBeforeUndo(std::function<void()> fn) { before_undo_ = std::move(fn); }

  protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

  private:
    bool route(QKeyEvent* event);
    QUndoStack* stack_ = nullptr;
    std::function<void()> before_undo_;
};

}  // namespace ui
