#pragma once
// The Bench view: pick a suite (JevBench, a shipped suite, any file) and an endpoint profile,
// run it with progress, ETA and cancel, resume an interrupted run, watch the items fill a
// sortable, filterable table, and read the charts: reliability, latency, accuracy by tier and
// family, the four axes and the leaderboard with this run (the chart values of the run's report,
// built by core::report, shown as Qt Charts in ChartWidgets: a click on a bin or bar filters the
// Items page to its items). Runs live in a runs folder
// (one subfolder each: journal.jsonl, the source of truth, and run.json) and reopen with their
// charts, rescored from the journal. The mode choice asks each item by the slot readout, by
// generative JSON or both; a run with generative records (RunMode Both, or a kept run holding
// them) gets a Slot vs generative tab: a table per item and charts (latency of each mode per
// item, validity and agreement, accuracy of each mode) from core::compare's values. The run is
// the core's bench-run use case (core/evaluation/bench_run.h: run_bench on a worker thread, the run
// folder through RunStore); this window turns its widgets into the use case's inputs and shows
// values.

#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include "core/endpoints/worker_runner.h"

#include "core/endpoints/endpoint_profiles.h"
#include "core/evaluation/bench_run.h"
#include "core/evaluation/calibration.h"
#include "ui/bench/bench_panels.h"

class QAction;
class QLabel;
class QListWidget;
class QProgressBar;
class QTabWidget;

namespace ui {

class ExportReportDialog;

struct BenchWindowOptions {
    QString jevbench_dir;  // holds jevbench_public.jsonl and leaderboard_v14.json
    QString suites_dir;    // shipped dgem-format suites (*.jsonl)
    QString runs_dir;      // empty: <AppDataLocation>/runs
    // Called on the run's worker thread after each item is journaled, with the items done so far,
    // before that worker takes its next item (with one worker the run waits for it). For an
    // embedding application's own bookkeeping, and for tests that must cancel at an exact item.
    std::function<void(size_t done)> after_item;
};

class BenchWindow : public QWidget {
    Q_OBJECT
  public:
    explicit BenchWindow(const BenchWindowOptions& options, QWidget* parent = nullptr);
    ~BenchWindow() override;  // cancels a run and waits for it

    void setEndpoints(const core::EndpointProfileStore& store);
    // Selects a suite file (adds it to the list when new); false with a message when it does
    // not load.
    bool selectSuite(const QString& path);
    void setWorkers(int workers);
    void setLimit(int items);  // 0: all
    void setMode(core::eval::RunMode mode);
    core::eval::RunMode mode() const;
    void setGenerativeMaxTokens(int tokens);  // 0: core::compare's budget per item
    // Starts a new run (false when one runs or nothing is selected).
    bool run();
    bool resume(const QString& run_dir);
    void cancel();
    bool busy() const;
    // Reopens a kept run (its charts and items, rescored from its journal).
    bool openRun(const QString& run_dir);
    QStringList keptRuns() const;  // run folders, newest first

    // What the view shows, for tests and the report: the last scored values.
    const std::vector<core::eval::ItemRecord>& records() const;
    const std::optional<core::eval::RunScore>& runScore() const;
    BenchItemsModel* itemsModel() const { return items_page_->model(); }
    // The charts shown, in order: the values core::report's builders made from the scores (the
    // report of this run holds the same ones), each shown by a ChartWidget.
    std::vector<core::report::ReportChart> charts() const { return charts_page_->charts(); }
    // The slot-vs-generative comparison of the shown run (when it has generative records).
    const std::optional<core::compare::SuiteComparison>& suiteComparison() const;
    ComparisonItemsModel* comparisonModel() const { return comparison_page_->model(); }
    std::vector<core::report::ReportChart> comparisonCharts() const {
        return comparison_page_->charts();
    }
    QWidget* comparisonPage() const { return comparison_page_; }
    void showComparisonPage();
    QString statusText() const;
    QString runDir() const { return run_dir_; }

    // Export report… (Ctrl+Shift+E): the shown run as a report (nullopt without a finished or
    // reopened run with records). exportReport opens the export dialog on it (window-modal,
    // deleted on close).
    QAction* exportReportAction() const { return export_report_; }
    std::optional<core::report::Report> benchReport() const;
    ExportReportDialog* exportReport();
    // The shown run's labelled questions (its records against the suite's expected answers),
    // what Calibrate… fits; empty without a finished or reopened run.
    std::vector<core::eval::CalibrationItem> calibrationItems() const;

  Q_SIGNALS:
    void runFinished(bool ok);
    // A double-clicked item as a policy source ({"schema", "state"}) to open in the editor.
    void openItemRequested(const QString& name, const QString& source);
    // Calibrate… was pressed: the Studio fits the open policy from calibrationItems().
    void calibrateRequested();

  private:
    void buildLayout();
    void connectControls();
    // A kept run's run.json, with its suite selected; nullopt (and a message) when it is not one.
    std::optional<core::eval::RunMeta> loadRun(const QString& run_dir);
    void refreshRuns();
    void startRun(const QString& run_dir, bool resume);
    void onProgress(const core::eval::RunProgress& progress,
                    std::optional<core::eval::ItemRecord> last);
    void onFinished(engine::Result<core::eval::BenchResult> result);
    void rescore();
    void showComparison();
    void showError(const QString& message);
    void updateActions();
    void writeRunMeta(const QString& status);
    core::eval::RunScoreOptions scoreOptions() const;

    BenchWindowOptions options_;
    core::EndpointProfileStore endpoints_;
    std::map<std::string, std::shared_ptr<core::Backend>> backends_;  // built per profile

    std::optional<core::eval::Suite> suite_;  // the selected suite, as loaded
    QString suite_path_;
    // The shown run: what it covers (limit applied), its records and scores.
    std::optional<core::eval::BenchResult> shown_;
    std::optional<core::eval::Leaderboard> leaderboard_;
    QString run_dir_;
    core::eval::RunMeta run_meta_;  // what run.json of the running run keeps
    // The shown run's settings (mode, workers, limit, endpoint, suite: what run.json keeps), the
    // backend's description and the model, for the report.
    nlohmann::json run_settings_ = nlohmann::json::object();
    std::string run_endpoint_;
    std::string run_model_;
    QString status_;
    core::CancelToken cancel_;
    core::WorkerRunner runner_;  // builds the backend and runs, one job at a time

    BenchControls controls_;
    QAction* export_report_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_label_ = nullptr;
    BenchScorecard* scorecard_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    BenchItemsPage* items_page_ = nullptr;
    BenchChartsPage* charts_page_ = nullptr;
    BenchComparisonPage* comparison_page_ = nullptr;
    QListWidget* runs_list_ = nullptr;
};

}  // namespace ui
