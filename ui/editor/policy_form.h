#pragma once
// The form view of a policy: schema instructions and the question table. It shows the
// document's last render and turns edits into document requests (one undo step each).

#include <QTimer>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace core {
struct PolicyTemperature;
}

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
    // The calibration row: the policy's "temperature" (one number, or per type as JSON), its
    // stage-2 cascade mode and threshold. Each edit is one undo step in the source.
    QLineEdit* temperatureEdit() const { return temperature_; }
    QComboBox* cascadeModeBox() const { return cascade_mode_; }
    QDoubleSpinBox* cascadeThresholdBox() const { return cascade_threshold_; }
    // Writes the temperature field into the source; the error (naming the field), or empty.
    QString commitTemperature();

  private:
    void refresh();
    void updateButtons();
    QWidget* makeCalibrationRow();
    void commitCascade();
    // The first per-question temperature naming no question of the open policy ("": none).
    QString unknownQuestion(const core::PolicyTemperature& t) const;
    QString questionIds() const;  // the open policy's question ids, comma-separated

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
    QLineEdit* temperature_ = nullptr;
    QComboBox* cascade_mode_ = nullptr;
    QDoubleSpinBox* cascade_threshold_ = nullptr;
    QLabel* calibration_error_ = nullptr;
    QTimer instructions_timer_;
    bool refreshing_ = false;
};

}  // namespace ui
