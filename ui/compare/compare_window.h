#pragma once
// The Compare view: the policy in the editor answered both ways on the active endpoint. Left,
// the slot readout's cards (ResultCard over a ResultsModel); right, the generative answer as it
// streams (one mark per denoising pass as the backend reports it, the streamed text), then the
// raw reply, the parsed answers next to the slot's (CompareModel) and the reply's validity with
// its reasons; above both, a strip with passes (1 vs N), the latency of each side and their
// ratio, agreement and validity. Every shown number comes from the core::compare::Comparison
// that run_comparison builds (what `dgem compare` prints). The work runs on a worker thread
// (CompareRunner); a generative failure (no chat route, a policy longer than the context) is
// shown in the right pane with the slot side kept.

#include <QWidget>
#include <memory>
#include <optional>

#include "core/comparison/compare.h"
#include "core/decide/backend.h"
#include "core/reports/report.h"

class QAction;
class QFrame;
class QHBoxLayout;
class QLabel;
class QListView;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace ui {

class CompareModel;
class CompareRunner;
class ExportReportDialog;
class GenerationStepsModel;
class ResultCard;
class ResultsModel;
struct CompareStrip;

class CompareWindow : public QWidget {
    Q_OBJECT
  public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    // Starts a comparison of `request` on `backend` (cancelling a running one); false without a
    // backend. `policy` and `endpoint` are for the header; `policy_file` and `variables` (what
    // the request was rendered from) for the report.
    bool start(std::shared_ptr<core::Backend> backend, core::DecideRequest request,
               core::compare::CompareOptions options, const QString& policy,
               const QString& endpoint, const QString& policy_file = {},
               const nlohmann::json& variables = nlohmann::json::object());
    void cancel();
    bool busy() const;
    // Before a run can start (the endpoint's backend is being built) and when it cannot.
    void showPreparing(const QString& stage);
    void showError(const QString& message);

    CompareModel* model() const { return model_; }
    ResultsModel* slotModel() const { return slot_model_; }
    GenerationStepsModel* stepsModel() const { return steps_; }
    CompareRunner* runner() const { return runner_; }
    QList<ResultCard*> cards() const;
    // What the view shows, as text (tests).
    CompareStrip stripTexts() const;
    QString statusText() const;
    QString rawText() const;
    QString validityText() const;
    QString generativeErrorText() const;  // empty when the generative side ran
    QString slotErrorText() const;        // empty when the slot side ran
    QTableView* answersTable() const { return answers_; }

    // Export report… (Ctrl+Shift+E): the shown comparison as a report (nullopt before one
    // finished). exportReport opens the export dialog on it (window-modal, deleted on close).
    QAction* exportReportAction() const { return export_report_; }
    std::optional<core::report::Report> comparisonReport() const;
    ExportReportDialog* exportReport();

  Q_SIGNALS:
    // The comparison finished (true; either side may have failed, see the model) or was
    // cancelled or could not start (false).
    void finished(bool ok);
    void busyChanged(bool busy);
    void rerunRequested();

  private:
    void buildLayout();
    // The parts buildLayout puts together: the header (title, Run again, Cancel, Export), the
    // strip of numbers above both sides, and the two sides.
    QHBoxLayout* buildHeader();
    QFrame* buildStrip();
    QWidget* buildSlotSide();
    QWidget* buildGenerativeSide();
    void rebuildCards();
    void resetView();
    void onSlotDecided(const core::Decision& decision, double latency_ms);
    void onSlotFailed(const QString& message);
    void onProgress(int side, const QString& stage, double fraction, const QString& delta);
    void onFinished(const core::compare::Comparison& comparison);
    void showStatus(const QString& text, double fraction, bool error = false);
    void showStrip(const CompareStrip& strip, bool final_values);
    void setLabelError(QLabel* label, const QString& message);
    void updateExport();

    // What the running comparison was asked about, then what the shown one was (the report's
    // policy, schema, variables and endpoint; the comparison itself is the model's).
    struct ReportSource {
        core::report::PolicyInfo policy;
        core::Schema schema;
        nlohmann::json variables = nlohmann::json::object();
        std::string endpoint;  // Backend::describe()
        std::vector<core::ImageInput> images;
    };
    ReportSource running_source_;
    std::optional<ReportSource> shown_source_;

    CompareModel* model_;
    ResultsModel* slot_model_;
    GenerationStepsModel* steps_;
    CompareRunner* runner_;

    QLabel* title_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* rerun_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* export_button_ = nullptr;
    QAction* export_report_ = nullptr;
    QLabel* passes_ = nullptr;
    QLabel* latency_ = nullptr;
    QLabel* ratio_ = nullptr;
    QLabel* agreement_ = nullptr;
    QLabel* validity_tile_ = nullptr;
    QSplitter* split_ = nullptr;
    QLabel* slot_header_ = nullptr;
    QVBoxLayout* cards_layout_ = nullptr;
    QLabel* cards_placeholder_ = nullptr;
    QLabel* slot_error_ = nullptr;
    QLabel* slot_timings_ = nullptr;
    QLabel* gen_header_ = nullptr;
    QWidget* pass_strip_ = nullptr;
    QLabel* gen_stage_ = nullptr;
    QListView* steps_view_ = nullptr;
    QPlainTextEdit* raw_ = nullptr;
    QLabel* validity_ = nullptr;
    QLabel* gen_error_ = nullptr;
    QTableView* answers_ = nullptr;
};

}  // namespace ui
