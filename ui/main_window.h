#pragma once
// Decision Studio's main window: the policy library, the policy editor (form and source views
// of one document, the variables panel), results and the canvas view; the active endpoint in the
// status bar. The window delegates: the endpoint session (core/endpoints/endpoint_session.h) builds
// and keeps the active profile's backend, runs go through a BackendRunner (so the UI thread never
// waits on the engine or the network), PolicyFiles opens and saves the policy, and the menus
// (main_window_actions.cpp) and the runs (main_window_runs.cpp) have files of their own; Compare
// (Ctrl+Shift+Return) answers the same policy both ways, slot readout and generative JSON, in the
// Compare view. Geometry, splitters, the last policy and the endpoint profiles (never secrets) are
// kept in QSettings.

#include <QFutureWatcher>
#include <QMainWindow>
#include <QPointer>
#include <memory>
#include <optional>

#include "core/comparison/compare.h"
#include "core/endpoints/backend_runner.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/endpoints/endpoint_session.h"
#include "core/reports/report.h"
#include "engine/tokenizer.h"
#include "ui/bench/bench_window.h"
#include "ui/data/data_window.h"

class QAction;
class QLabel;
class QProgressBar;
class QListView;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace ui {

class CalibrateDialog;
class CanvasModel;
class CanvasView;
class CompareWindow;
class ExportReportDialog;
class HistoryModel;
class ModelsView;
class PolicyDocument;
class PolicyFiles;
class PolicyForm;
class PolicyLibrary;
class ResultsModel;
class ResultsView;
class SourceEditor;
class VariablesPanel;
class ImagesModel;
class ImagesPanel;

struct MainWindowOptions {
    QString user_policy_dir;          // empty: the standard location
    QString default_model_dir;        // the local engine's model folder on first use
    QString fallback_tokenizer_json;  // used when the active profile has no tokenizer
    QString initial_policy = QStringLiteral("support_triage");
    BenchWindowOptions bench;  // where the Bench view finds JevBench, suites and its runs
    core::compare::CompareOptions compare;  // the Compare view's generation (max tokens)
    // Load a local profile's model in the background as soon as the window opens (and when
    // the active profile changes), so the first run does not wait for it.
    bool preload_model = true;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(const MainWindowOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    PolicyDocument* document() const { return document_; }
    PolicyLibrary* library() const { return library_; }
    PolicyForm* form() const { return form_; }
    SourceEditor* sourceEditor() const { return source_; }
    VariablesPanel* variablesPanel() const { return variables_; }
    ImagesModel* imagesModel() const { return images_; }
    ImagesPanel* imagesPanel() const { return images_panel_; }
    CanvasModel* canvasModel() const { return canvas_model_; }
    CanvasView* canvasView() const { return canvas_view_; }
    ResultsModel* resultsModel() const { return results_model_; }
    ResultsView* resultsView() const { return results_view_; }
    core::BackendRunner* runner() const { return runner_; }
    QTabWidget* sideTabs() const { return side_tabs_; }
    QString endpointStatusText() const;
    const core::EndpointProfileStore& endpoints() const { return endpoints_; }
    void setEndpoints(const core::EndpointProfileStore& store);

    bool openPolicy(int row);
    bool openPolicyByName(const QString& name);
    // Starts a run of the open policy on the active endpoint (false when it cannot start).
    bool run();
    void cancelRun();
    uint64_t runSeed() const;
    // Compares the open policy's slot readout with its generative JSON on the active endpoint,
    // in the Compare view (false when it cannot start).
    bool compare();
    // The Compare view (created on first use, a window of its own); null before.
    CompareWindow* showCompare();
    CompareWindow* compareView() const { return compare_view_; }
    void showEndpoints();
    // The Bench view (created on first use, a window of its own).
    BenchWindow* showBench();
    // The Data view (created on first use, a window of its own): a CSV/JSONL file through the
    // open policy on the active endpoint. A .csv/.jsonl dropped on this window opens there.
    DataWindow* showData();
    // The Models view: models found on this machine; one chosen becomes a local profile's.
    ModelsView* showModels();
    // Calibrate… in the Bench or Data view: a dialog fitting the open policy's temperature from
    // the run's labelled questions (`source` names the run), or a message (and null) when the
    // run has none. The dialog writes into the open policy as one undo step.
    CalibrateDialog* calibrate(std::vector<core::eval::CalibrationItem> items,
                               const QString& source);
    CalibrateDialog* calibrateDialog() const;
    // Opens a policy source that has no file yet (a bench item) as an unsaved document.
    void openUnsaved(const QString& name, const QString& source);

    // The active profile's backend being built (a local model loading, a remote one asked for
    // /health); the status bar shows the stage and a percentage, Esc or its button cancels.
    bool backendLoading() const;
    bool backendReady() const;
    QProgressBar* loadProgressBar() const { return load_bar_; }
    QLabel* loadLabel() const { return load_label_; }
    QAction* runAction() const { return run_; }

    // Policy > Export report… (Ctrl+Shift+E): the latest decision as a report (nullopt before
    // the first result, or when the results were cleared by opening another policy).
    QAction* exportReportAction() const { return export_report_; }
    std::optional<core::report::Report> decisionReport() const;
    // Opens the export dialog on the latest decision (window-modal; it deletes itself when
    // closed); null when there is nothing to export.
    ExportReportDialog* exportReport();

  Q_SIGNALS:
    void runFinished(bool ok);
    // While the backend is built: stage "reading", "binding", "warming" (a local model) or
    // "connecting", fraction 0..1 (-1: unknown); then backendBuilt(ok).
    void loadProgress(const QString& stage, double fraction);
    void backendBuilt(bool ok);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    // main_window_actions.cpp: the menus and the toolbar.
    void buildActions();
    void buildPolicyMenu();
    std::pair<QAction*, QAction*> buildEditMenu();  // undo, redo
    void buildRunMenu();
    void buildViewMenu();
    void buildToolBar(QAction* undo, QAction* redo);
    void buildLayout();
    void restoreSettings();
    void saveSettings();
    void activeProfileChanged();
    void loadTokenizer();
    // A policy was opened (library row, or -1: unsaved): the views start over.
    void onPolicyOpened(int row);
    void updateTitle();
    void updateActions();
    void startDecide();
    void startCompare();
    bool busy() const;
    // The request a run or a comparison sends for the open policy.
    core::DecideRequest currentRequest() const;
    // The canvas view's image chips: one per attached image, with the soft tokens the loaded
    // local model reads for it (unknown for a server or before the model is loaded).
    void updateImageChips();
    void onDecided(const core::Decision& decision);
    // What the canvas view shows of the plan `request` reads (nullopt when that plan is not
    // built: no tokenizer, or another input).
    std::optional<core::report::CanvasSummary> canvasSummary(
        const core::DecideRequest& request) const;
    void onFailed(const engine::Error& error);
    // Builds the active profile's backend off the UI thread (false: no secrets for it).
    bool startBackend(const core::EndpointProfile& profile, QString* error);
    void onBackendProgress(const QString& stage, double fraction);
    void onBackendBuilt(const std::shared_ptr<core::Backend>& backend);
    void onBackendFailed(const engine::Error& error);
    QString loadText() const;  // "reading the weights 43%"

    MainWindowOptions options_;
    PolicyLibrary* library_;
    PolicyDocument* document_;
    PolicyForm* form_ = nullptr;
    SourceEditor* source_ = nullptr;
    VariablesPanel* variables_ = nullptr;
    CanvasModel* canvas_model_;
    CanvasView* canvas_view_ = nullptr;
    ResultsModel* results_model_;
    HistoryModel* history_;
    ImagesModel* images_;
    ImagesPanel* images_panel_ = nullptr;
    ResultsView* results_view_ = nullptr;
    core::BackendRunner* runner_;
    core::EndpointSession* session_;  // the active profile's backend, built and kept
    PolicyFiles* files_;              // open, save, and the library's file operations
    QListView* library_view_ = nullptr;
    QTabWidget* side_tabs_ = nullptr;
    QSplitter* main_split_ = nullptr;
    QSplitter* editor_split_ = nullptr;
    QSplitter* views_split_ = nullptr;
    QLabel* endpoint_label_ = nullptr;
    QWidget* reload_bar_ = nullptr;
    BenchWindow* bench_ = nullptr;
    DataWindow* data_ = nullptr;
    ModelsView* models_ = nullptr;
    CompareWindow* compare_view_ = nullptr;
    QPointer<CalibrateDialog> calibrate_dialog_;
    QLabel* reload_label_ = nullptr;

    QAction* run_ = nullptr;
    QAction* cancel_ = nullptr;
    QAction* compare_ = nullptr;
    QAction* save_ = nullptr;
    QAction* duplicate_ = nullptr;
    QAction* rename_ = nullptr;
    QAction* delete_ = nullptr;
    QAction* export_report_ = nullptr;

    core::EndpointProfileStore endpoints_;
    QFutureWatcher<std::shared_ptr<const engine::Tokenizer>> tokenizer_watcher_;
    QWidget* load_status_ = nullptr;  // the status bar's label, bar and cancel button
    QLabel* load_label_ = nullptr;
    QProgressBar* load_bar_ = nullptr;
    QString tokenizer_path_;
    bool run_pending_ = false;
    bool compare_pending_ = false;
    QString run_policy_;
    // The decision a run is waiting for (filled when it starts), then the latest decision with
    // what it answered: the export's input (its provenance is made when exporting).
    std::optional<core::report::DecisionInput> pending_decision_;
    std::optional<core::report::DecisionInput> last_decision_;
};

}  // namespace ui
