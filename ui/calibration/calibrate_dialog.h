#pragma once
// Calibrate…: fits the open policy's temperature from a labelled run shown in the Studio (a bench
// run or a dataset run) with the core's calibrate use case (core/evaluation/calibration_run.h,
// what dgem calibrate runs), off the GUI thread. It shows the fitted T per question type, NLL,
// Brier and ECE before and after on the held-out folds, the reliability diagrams before and after
// (the report's chart values in ChartWidgets), and whether every fit landed inside its search
// range. "Write into policy" puts the temperature into the open policy as one undo step of the
// policy editor (PolicyDocument::setSchemaMember): the whole value or nothing.

#include <QDialog>
#include <QFutureWatcher>
#include <optional>
#include <vector>

#include "core/evaluation/calibration_run.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace ui {

class ChartWidget;
class PolicyDocument;

class CalibrateDialog : public QDialog {
    Q_OBJECT
  public:
    // `items`: the run's labelled questions; `source` says which run in the dialog. The fit starts
    // at once. `document` takes the fit (it must outlive the dialog, or be null: nothing to write).
    CalibrateDialog(std::vector<core::eval::CalibrationItem> items, const QString& source,
                    PolicyDocument* document, QWidget* parent = nullptr);
    ~CalibrateDialog() override;  // a running fit is waited for (its result is dropped)

    bool fitting() const;  // the fit runs and the dialog waits for it
    // The fit's result once it finished (nullopt while fitting, after a failure or a cancel).
    const std::optional<core::eval::CalibrateResult>& result() const { return result_; }
    QString statusText() const;
    QString rangeText() const;  // whether the fit landed inside its search range
    QTableWidget* table() const { return table_; }
    ChartWidget* beforeChart() const { return before_chart_; }
    ChartWidget* afterChart() const { return after_chart_; }
    QPushButton* writeButton() const { return write_button_; }
    QPushButton* cancelButton() const { return cancel_button_; }

    // Writes the fitted temperature into the document (one undo step); the error, or empty.
    QString writeIntoPolicy();
    // Stops waiting for a running fit: the dialog says it was cancelled and drops its result.
    void cancelFit();

  Q_SIGNALS:
    void fitFinished(bool ok);
    void written();

  private:
    void onFinished();
    void showResult();
    void updateButtons();

    PolicyDocument* document_;
    QFutureWatcher<engine::Result<core::eval::CalibrateResult>> watcher_;
    std::optional<core::eval::CalibrateResult> result_;
    bool awaiting_ = true;  // the fit's result has not arrived
    bool cancelled_ = false;
    QLabel* status_ = nullptr;
    QLabel* range_ = nullptr;
    QTableWidget* table_ = nullptr;
    ChartWidget* before_chart_ = nullptr;
    ChartWidget* after_chart_ = nullptr;
    QPushButton* write_button_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
};

}  // namespace ui
