#pragma once
// The form view of a policy: schema instructions and the question table. It shows the
// document's last render and turns edits into document requests (one undo step each).

#include <QTimer>
#include <QWidget>

class QLabel;
class QTableView;
class QToolButton;

namespace ui {

class PolicyDocument;
class QuestionTableModel;
class UndoRoutingEdit;

class PolicyForm : public QWidget {
    Q_OBJECT
  public:
    explicit PolicyForm(PolicyDocument* document, QWidget* parent = nullptr);

    QuestionTableModel* questionModel() const { return model_; }
    QTableView* questionView() const { return table_; }
    UndoRoutingEdit* instructionsEdit() const { return instructions_; }
    // Writes a pending instructions edit now (it is otherwise written after a short pause).
    void commitInstructions();
    // Replaces the current choice question's options with those of a CSV file (name, then an
    // optional description, per row): one undo step. Returns the error, or an empty string.
    QString importOptions(const QString& csv_path);
    QToolButton* importButton() const { return import_; }

  private:
    void refresh();
    void updateButtons();

    PolicyDocument* document_;
    QuestionTableModel* model_;
    UndoRoutingEdit* instructions_;
    QTableView* table_;
    QLabel* notice_;
    QToolButton* add_;
    QToolButton* remove_;
    QToolButton* up_;
    QToolButton* down_;
    QToolButton* import_;
    QTimer instructions_timer_;
    bool refreshing_ = false;
};

}  // namespace ui
