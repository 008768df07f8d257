// The main window's runs (see main_window.h): decisions and comparisons of the open policy on
// the active endpoint, whose backend the endpoint session (core/endpoints/endpoint_session.h)
// builds and keeps; the model-loading status; the results, history and report of the latest
// decision.
#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QImageReader>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>

#include "core/endpoints/cascade_judge.h"
#include "ui/calibration/calibrate_dialog.h"
#include "ui/canvas/canvas_model.h"
#include "ui/compare/compare_window.h"
#include "ui/editor/policy_document.h"
#include "ui/editor/policy_form.h"
#include "ui/images/images_model.h"
#include "ui/main_window.h"
#include "ui/reports/export_report_dialog.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

namespace ui {

uint64_t MainWindow::runSeed() const {
    return canvas_model_->seed();
}

bool MainWindow::run() {
    form_->commitInstructions();
    if (!document_->valid() || !document_->schema()) {
        results_view_->showError(tr("The policy does not render: %1").arg(document_->firstError()));
        return false;
    }
    if (busy()) return false;
    const core::EndpointProfile* profile = endpoints_.activeProfile();
    if (!profile) {
        results_view_->showError(tr("No endpoint: add one in Endpoints (Ctrl+E)."));
        return false;
    }
    side_tabs_->setCurrentWidget(results_view_);
    run_policy_ = document_->name();
    if (session_->readyFor(*profile)) {
        startDecide();
        return true;
    }
    // The backend is being built (the model loading since the window opened): run when ready.
    if (session_->buildingFor(*profile)) {
        run_pending_ = true;
        results_view_->showProgress(tr("Waiting for the model: %1").arg(loadText()),
                                    session_->fraction());
        updateActions();
        return true;
    }
    QString error;
    if (!startBackend(*profile, &error)) {
        results_view_->showError(error);
        return false;
    }
    run_pending_ = true;
    results_view_->showProgress(profile->remote() ? tr("Connecting") : tr("Loading the model"), -1);
    updateActions();
    return true;
}

bool MainWindow::backendLoading() const {
    return session_->building();
}

bool MainWindow::backendReady() const {
    return session_->backend() != nullptr;
}

bool MainWindow::startBackend(const core::EndpointProfile& profile, QString* error) {
    auto started = session_->build(profile);
    if (!started) {
        *error = QString::fromStdString(started.error().message);
        return false;
    }
    runner_->setBackend(nullptr);
    updateImageChips();
    return true;
}

QString MainWindow::loadText() const {
    const QString& load_stage = session_->stage();
    const double fraction = session_->fraction();
    QString stage;
    if (load_stage == QLatin1String("reading"))
        stage = tr("reading the weights");
    else if (load_stage == QLatin1String("binding"))
        stage = tr("binding the weights");
    else if (load_stage == QLatin1String("warming"))
        stage = tr("warming up");
    else
        stage = tr("connecting");
    if (fraction < 0) return stage;
    return tr("%1 %2%").arg(stage).arg(QLocale().toString(int(fraction * 100)));
}

void MainWindow::onBackendProgress(const QString& stage, double fraction) {
    const bool local = stage != QLatin1String("connecting");
    load_label_->setText(local ? tr("Loading the model: %1").arg(loadText()) : tr("Connecting…"));
    if (fraction < 0) {
        load_bar_->setRange(0, 0);  // busy: no size known
    } else {
        load_bar_->setRange(0, 100);
        load_bar_->setValue(int(fraction * 100));
    }
    load_status_->show();
    if (run_pending_)
        results_view_->showProgress(tr("Waiting for the model: %1").arg(loadText()), fraction);
    updateActions();
    Q_EMIT loadProgress(stage, fraction);
}

void MainWindow::onBackendFailed(const engine::Error& error) {
    load_status_->hide();
    const bool cancelled = error.kind == engine::ErrorKind::Cancelled;
    const QString message = QString::fromStdString(error.message);
    if (compare_pending_) {
        compare_pending_ = false;
        compare_view_->showError(cancelled ? tr("Cancelled.") : message);
    }
    if (run_pending_) {
        run_pending_ = false;
        onFailed(error);
    } else if (cancelled) {
        statusBar()->showMessage(tr("Model loading cancelled; the next run loads it."), 8000);
    } else {
        statusBar()->showMessage(tr("The model did not load: %1").arg(message), 15000);
    }
    updateActions();
    Q_EMIT backendBuilt(false);
}

void MainWindow::onBackendBuilt(const std::shared_ptr<core::Backend>& backend) {
    load_status_->hide();
    runner_->setBackend(backend);
    if (data_) data_->setBackend(backend);
    updateImageChips();
    statusBar()->showMessage(tr("Ready: %1").arg(QString::fromStdString(backend->describe())),
                             5000);
    Q_EMIT backendBuilt(true);
    if (run_pending_) startDecide();
    if (compare_pending_) startCompare();
    updateActions();
}

void MainWindow::updateImageChips() {
    QStringList sources;
    std::vector<int> soft_tokens;
    for (const auto& image : images_->images()) {
        sources << QString::fromStdString(image.source);
        // The image's size from its header; the model that reads it says how many tokens.
        QByteArray bytes = QByteArray::fromStdString(image.bytes);
        QBuffer buffer(&bytes);
        QImageReader reader(&buffer);
        const QSize size = reader.size();
        std::optional<int> n;
        if (const auto& backend = session_->backend(); backend && size.isValid())
            n = backend->image_soft_tokens(size.width(), size.height());
        soft_tokens.push_back(n.value_or(0));
    }
    canvas_model_->setImages(sources, std::move(soft_tokens));
}

core::DecideRequest MainWindow::currentRequest() const {
    core::DecideRequest request;
    request.schema = *document_->schema();
    // The run reads the canvas the canvas view shows: its layout and seed.
    request.schema.layout = canvas_model_->layout();
    request.state = document_->state();
    request.seed = runSeed();
    request.images = images_->images();
    return request;
}

void MainWindow::startDecide() {
    run_pending_ = false;
    const core::DecideRequest request = currentRequest();
    // The policy's stage-2 cascade: its judge is resolved here (a profile's keychain token is
    // read on this thread) and asked on the runner's worker after stage 1.
    if (request.schema.cascade.mode == core::CascadeMode::OnMiss)
        return onFailed(engine::bad_input(
            tr("cascade_mode on_miss escalates the questions a labelled run missed, and a single "
               "decision has no expected answers: use entropy here, on_miss in a Bench or Data "
               "run.")
                .toStdString()));
    auto judge = core::make_cascade_judge(request.schema.cascade, endpoints_);
    if (!judge) return onFailed(judge.error());
    results_view_->showProgress(tr("Starting"), -1);
    // What the report of this run says it answered: the policy, its variables, the schema read
    // and the canvas the canvas view shows for it.
    core::report::DecisionInput input;
    input.policy = {run_policy_.toStdString(), document_->path().toStdString()};
    input.schema = request.schema;
    input.variables = document_->variables();
    input.canvas = canvasSummary(request);
    input.images = request.images;
    pending_decision_ = std::move(input);
    if (!runner_->decide(request, std::shared_ptr<core::Backend>(std::move(*judge)))) {
        pending_decision_.reset();
        results_view_->showError(tr("No backend for the active endpoint."));
    }
    updateActions();
}

std::optional<core::report::CanvasSummary> MainWindow::canvasSummary(
    const core::DecideRequest& request) const {
    const auto& plan = canvas_model_->plan();
    if (!plan || canvas_model_->building() || plan->groups.empty()) return std::nullopt;
    // Only the plan of this very request: same layout, seed, document and questions.
    int slots = 0, width = 0, prompt = 0;
    for (const core::ReadGroup& g : plan->groups) {
        slots += static_cast<int>(g.answer_slots.size());
        width = std::max(width, g.width);
        prompt = std::max(prompt, static_cast<int>(g.prompt_ids.size()));
    }
    if (plan->layout != request.schema.layout || plan->seed != request.seed ||
        plan->state_text != core::state_text(request.state) ||
        slots != static_cast<int>(request.schema.questions.size()))
        return std::nullopt;
    core::report::CanvasSummary s;
    s.layout = std::string(core::to_string(plan->layout));
    s.prompt_tokens = prompt;  // the longest group's prompt, as the backends count it
    s.width = width;
    s.answer_slots = slots;
    s.groups = static_cast<int>(plan->groups.size());
    // The first reads; onDecided puts the decision's count (the "auto" policy may read more).
    s.reads = static_cast<int>(plan->rows.size());
    return s;
}

std::optional<core::report::Report> MainWindow::decisionReport() const {
    if (!last_decision_ || !results_model_->hasDecision()) return std::nullopt;
    core::report::DecisionInput input = *last_decision_;
    input.provenance = core::report::make_provenance(
        "Decision Studio", last_decision_->provenance.endpoint, input.decision.model);
    return core::report::decision_report(input);
}

ExportReportDialog* MainWindow::exportReport() {
    auto made = decisionReport();
    if (!made) {
        statusBar()->showMessage(tr("No result to export yet: run the policy first (Ctrl+Return)."),
                                 5000);
        return nullptr;
    }
    auto* dialog = new ExportReportDialog(std::move(*made), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportReportDialog::exported, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)),
                                 5000);
    });
    dialog->open();
    return dialog;
}

bool MainWindow::compare() {
    form_->commitInstructions();
    CompareWindow* view = showCompare();
    if (!document_->valid() || !document_->schema()) {
        view->showError(tr("The policy does not render: %1").arg(document_->firstError()));
        return false;
    }
    if (busy()) return false;
    const core::EndpointProfile* profile = endpoints_.activeProfile();
    if (!profile) {
        view->showError(tr("No endpoint: add one in Endpoints (Ctrl+E)."));
        return false;
    }
    run_policy_ = document_->name();
    if (session_->readyFor(*profile)) {
        startCompare();
        return view->busy();
    }
    // The same backend a run uses, built off the UI thread (or already loading).
    if (!session_->buildingFor(*profile)) {
        QString error;
        if (!startBackend(*profile, &error)) {
            view->showError(error);
            return false;
        }
    }
    compare_pending_ = true;
    view->showPreparing(profile->remote() ? tr("Connecting") : tr("Loading the model"));
    updateActions();
    return true;
}

void MainWindow::startCompare() {
    compare_pending_ = false;
    const core::EndpointProfile* p = endpoints_.activeProfile();
    CompareWindow* view = showCompare();
    view->start(session_->backend(), currentRequest(), options_.compare, run_policy_,
                p ? QString::fromStdString(p->summary()) : QString(), document_->path(),
                document_->variables());
    updateActions();
}

void MainWindow::cancelRun() {
    if (compare_view_ && (compare_view_->busy() || compare_pending_)) {
        // A comparison (or the backend it waits for): the backend build goes on, unused.
        compare_pending_ = false;
        if (compare_view_->busy())
            compare_view_->cancel();
        else
            compare_view_->showError(tr("Cancelled."));
        updateActions();
        return;
    }
    // Esc stops a run, or one waiting for the model; with nothing else to stop, the loading.
    if (!runner_->busy() && !run_pending_) {
        if (backendLoading()) session_->cancelBuild();
        return;
    }
    run_pending_ = false;
    pending_decision_.reset();
    runner_->cancel();
    results_view_->showError(tr("Cancelled."));
    updateActions();
    Q_EMIT runFinished(false);
}

void MainWindow::onDecided(const core::Decision& decision) {
    if (pending_decision_) {
        last_decision_ = std::move(pending_decision_);
        pending_decision_.reset();
        last_decision_->decision = decision;
        if (last_decision_->canvas) last_decision_->canvas->reads = decision.reads;
        // The endpoint as the backend describes itself: never a token or a key.
        last_decision_->provenance.endpoint = session_->backend()
                                                  ? session_->backend()->describe()
                                                  : endpointStatusText().toStdString();
    }
    results_view_->clearStatus();
    results_model_->setDecision(decision);
    // The canvas view shows the read after the thought the model wrote (a remote server sends
    // the thought as text only: its tokens, as our tokenizer reads them).
    if (decision.thought) {
        std::vector<int32_t> ids = decision.thought->ids;
        if (ids.empty() && tokenizer_watcher_.isFinished() && tokenizer_watcher_.result())
            for (auto id : tokenizer_watcher_.result()->encode(decision.thought->text))
                ids.push_back(id);
        canvas_model_->setThought(std::move(ids));
    }
    // A tournament's final reads the finalists this run chose: the canvas view shows it.
    std::map<std::string, std::vector<std::string>> finalists;
    for (const auto& [id, wide] : decision.diagnostics.wide)
        if (!wide.finalists.empty()) finalists[id] = wide.finalists;
    if (!finalists.empty()) canvas_model_->setFinalists(std::move(finalists));
    const core::EndpointProfile* p = endpoints_.activeProfile();
    history_->add({QDateTime::currentDateTime(), run_policy_,
                   p ? QString::fromStdString(p->summary()) : QString(), decision});
    updateActions();
    Q_EMIT runFinished(true);
}

void MainWindow::onFailed(const engine::Error& error) {
    pending_decision_.reset();
    if (error.kind == engine::ErrorKind::Cancelled) {
        results_view_->showError(tr("Cancelled."));
    } else {
        // A backend that failed to build or connect is rebuilt on the next run.
        if (error.kind == engine::ErrorKind::Remote || !session_->backend()) session_->forget();
        results_view_->showError(QString::fromStdString(error.message));
    }
    updateActions();
    Q_EMIT runFinished(false);
}

CalibrateDialog* MainWindow::calibrateDialog() const {
    return calibrate_dialog_.data();
}

CalibrateDialog* MainWindow::calibrate(std::vector<core::eval::CalibrationItem> items,
                                       const QString& source) {
    if (items.empty()) {
        statusBar()->showMessage(
            tr("Calibrate: %1 has no labelled questions (an expected answer the run answered)")
                .arg(source));
        return nullptr;
    }
    if (calibrate_dialog_) calibrate_dialog_->close();
    calibrate_dialog_ = new CalibrateDialog(std::move(items), source, document_, this);
    calibrate_dialog_->setAttribute(Qt::WA_DeleteOnClose);
    calibrate_dialog_->resize(900, 700);
    connect(calibrate_dialog_, &CalibrateDialog::written, this, [this] {
        statusBar()->showMessage(
            tr("The fitted temperature was written into %1 (Undo takes it back)")
                .arg(document_->name()));
    });
    calibrate_dialog_->show();
    return calibrate_dialog_;
}

}  // namespace ui
