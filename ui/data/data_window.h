#pragma once
// The Data view: a CSV or JSONL file through the open policy. Open a file (or drop it on the
// view), see its first rows and how its columns feed the policy's variables (each variable's
// column editable), run it on the endpoint with progress, ETA, cancel and resume, watch the
// rows fill a sortable table filtered to the wrong, the uncertain or one answer, double-click a
// row to open the policy with its variables in the editor, read the confusion matrix and the
// reliability chart of each labelled question, and export the rows (CSV, JSONL) or a report.
//
// The run is the core's dataset-run use case (core/dataset/dataset_run.h) on the one
// worker-thread runner (core::WorkerRunner); its journal lives in a run folder of the runs
// folder (core::eval::RunStore: journal.jsonl, run.json, and dataset.json saying which policy,
// file and mapping), so runs are kept and reopen as bench runs do.

#include <QWidget>
#include <memory>
#include <optional>
#include <set>

#include "core/dataset/dataset_plan.h"
#include "core/dataset/dataset_results.h"
#include "core/decide/backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/endpoints/worker_runner.h"
#include "core/evaluation/calibration_input.h"
#include "core/evaluation/eval_runner.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;
class QTabWidget;
class QVBoxLayout;

namespace ui {

class DataRowsFilter;
class DataRowsModel;

class DataWindow : public QWidget {
    Q_OBJECT
  public:
    explicit DataWindow(const QString& runs_dir, QWidget* parent = nullptr);
    ~DataWindow() override;  // cancels a run and waits for it

    // The policy rows go through (the editor's open policy file).
    bool openPolicy(const QString& path);
    // A .csv or .jsonl file: its preview and the mapping. False with a message otherwise.
    bool openData(const QString& path);
    // The column that feeds `variable` (empty: the column of the same name, or the default).
    bool setMapping(const QString& variable, const QString& column);
    // Where rows are decided (the active endpoint's backend).
    void setBackend(std::shared_ptr<core::Backend> backend);
    // The profiles a policy's cascade_endpoint may name (its stage-2 judge; never secrets).
    void setEndpoints(const core::EndpointProfileStore& store) { endpoints_ = store; }

    bool run();     // a new run in a new run folder
    bool resume();  // continues the shown run's journal
    void cancel();
    bool busy() const;
    bool waitForIdle(int timeout_ms);

    QStringList keptRuns() const;  // run folders holding a dataset run, newest first
    bool openRun(const QString& run_dir);
    QString runDir() const { return run_dir_; }

    // .csv/.jsonl: the rows; .html/.pdf/.json: the report. False with a message otherwise.
    bool exportTo(const QString& path);

    DataRowsModel* model() const { return model_; }
    DataRowsFilter* filter() const { return filter_; }
    QTableView* table() const { return table_; }
    QTabWidget* tabs() const { return tabs_; }  // data and mapping, rows, questions
    const std::optional<core::dataset::DatasetPlan>& plan() const { return plan_; }
    const std::optional<core::dataset::DatasetSummary>& summary() const { return summary_; }
    QString statusText() const;
    // The shown run's labelled questions (its journal's rows against their expected answers),
    // what Calibrate… fits; `policy` gives the questions' types (null: from their answers).
    engine::Result<core::eval::CalibrationInput> calibrationInput(const core::Schema* policy) const;
    QPushButton* calibrateButton() const { return calibrate_button_; }

  Q_SIGNALS:
    void runFinished(bool ok);
    // A double-clicked row: the policy file and the row's variables (a JSON object).
    void openRowRequested(const QString& policy_path, const QString& variables_json);
    // Calibrate… was pressed: the Studio fits the open policy from calibrationInput().
    void calibrateRequested();

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildLayout();
    bool replan();
    void showPreview();
    void showMapping();
    void showDraftMapping();
    void fillMapping(const std::vector<std::string>& variables,
                     const std::vector<std::string>& columns,
                     const std::map<std::string, std::string>& sources);
    void startRun(bool resume);
    void onFinished(engine::Result<bool> finished);
    void reloadRows();
    void showCharts();
    void updateFilterChoices();
    void applyFilter();
    void addQuestionCharts(const core::dataset::QuestionTally& q);
    // A reliability bin or a confusion cell clicked: the Rows tab shows those rows, under a
    // "Chosen" entry of the filter box; `key` names what was clicked (clicking it again clears).
    void chooseRows(std::set<std::size_t> rows, const QString& what, const QString& key);
    void clearChosenRows();
    void showError(const QString& message);
    void updateActions();

    QString runs_dir_;
    QString policy_path_, data_path_;
    std::map<std::string, std::string> column_map_;
    std::optional<core::dataset::DatasetPlan> plan_;
    std::optional<core::dataset::DatasetSummary> summary_;
    std::shared_ptr<core::Backend> backend_;
    core::EndpointProfileStore endpoints_;
    QString run_dir_;
    QString status_;
    core::WorkerRunner runner_;

    QLabel* files_label_ = nullptr;
    QTableWidget* preview_ = nullptr;
    QTableWidget* mapping_ = nullptr;
    QPushButton* run_button_ = nullptr;
    QPushButton* resume_button_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    QPushButton* export_button_ = nullptr;
    QPushButton* calibrate_button_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_label_ = nullptr;
    QComboBox* show_box_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    DataRowsModel* model_ = nullptr;
    DataRowsFilter* filter_ = nullptr;
    QTableView* table_ = nullptr;
    QWidget* charts_ = nullptr;
    QVBoxLayout* charts_layout_ = nullptr;
    QWidget* rows_page_ = nullptr;
    std::set<std::size_t> chosen_rows_;
    QString chosen_key_;  // empty: no chart choice
};

}  // namespace ui
