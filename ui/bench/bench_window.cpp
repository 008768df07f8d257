#include "ui/bench/bench_window.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "core/evaluation/calibration_input.h"
#include "core/evaluation/eval_table.h"
#include "ui/bench/bench_items_model.h"
#include "ui/bench/comparison_items_model.h"
#include "ui/i18n/format.h"
#include "ui/reports/export_report_dialog.h"

namespace ui {

namespace {

using nlohmann::json;
namespace eval = core::eval;

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

QString format_duration(double seconds) {
    if (seconds < 0) return QObject::tr("…");
    const int s = static_cast<int>(seconds + 0.5);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// The model a profile runs: the local model's folder name, or the remote profile's model.
std::string profile_model(const core::EndpointProfile& p) {
    if (p.kind == core::EndpointKind::Local)
        return QFileInfo(qstr(p.model_dir)).fileName().toStdString();
    return p.model;
}

}  // namespace

BenchWindow::BenchWindow(const BenchWindowOptions& options, QWidget* parent)
    : QWidget(parent), options_(options) {
    if (options_.runs_dir.isEmpty())
        options_.runs_dir =
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/runs";
    setWindowTitle(tr("Bench — Decision Studio"));
    buildLayout();
    const QString jev = options_.jevbench_dir + "/jevbench_public.jsonl";
    if (QFileInfo::exists(jev)) controls_.suite_box->addItem(tr("JevBench v1.4 public items"), jev);
    for (const QFileInfo& f :
         QDir(options_.suites_dir).entryInfoList({QStringLiteral("*.jsonl")}, QDir::Files))
        controls_.suite_box->addItem(tr("Shipped suite: %1").arg(f.completeBaseName()),
                                     f.absoluteFilePath());
    if (auto board =
            eval::load_leaderboard((options_.jevbench_dir + "/leaderboard_v14.json").toStdString()))
        leaderboard_ = *board;
    refreshRuns();
    updateActions();
}

BenchWindow::~BenchWindow() {
    cancel_.cancel();
    runner_.waitForIdle(-1);
}

void BenchWindow::buildLayout() {
    auto* top = new QVBoxLayout(this);
    // Export report…: an action of the window (Ctrl+Shift+E) and a button for it.
    export_report_ = new QAction(tr("Export re&port…"), this);
    export_report_->setObjectName(QStringLiteral("exportReportAction"));
    export_report_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    export_report_->setShortcutContext(Qt::WindowShortcut);
    export_report_->setToolTip(
        tr("The shown run as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)"));
    addAction(export_report_);
    controls_.build(this, top, export_report_);

    auto* progress_row = new QHBoxLayout;
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_label_ = new QLabel(tr("Pick a suite and an endpoint, then Run."), this);
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_row->addWidget(progress_, 1);
    progress_row->addWidget(status_label_, 2);
    top->addLayout(progress_row);

    scorecard_ = new BenchScorecard(this);
    top->addWidget(scorecard_);

    tabs_ = new QTabWidget(this);
    items_page_ = new BenchItemsPage(tabs_);
    tabs_->addTab(items_page_, tr("Items"));
    charts_page_ = new BenchChartsPage(tabs_);
    tabs_->addTab(charts_page_, tr("Charts"));
    // A chart's bin, bar or point clicked: the Items page shows its items (and the whole table
    // again on a second click, Esc or its Clear button).
    charts_page_->on_choice.chosen = [this](const QStringList& items, const QString& what) {
        items_page_->showOnly(items, what);
        tabs_->setCurrentWidget(items_page_);
    };
    charts_page_->on_choice.cleared = [this] { items_page_->showAll(); };
    items_page_->on_cleared = [this] { charts_page_->clearChoice(); };
    // Slot vs generative (runs with generative records only).
    comparison_page_ = new BenchComparisonPage(tabs_);
    tabs_->addTab(comparison_page_, tr("Slot vs generative"));
    tabs_->setTabVisible(tabs_->indexOf(comparison_page_), false);
    // Kept runs.
    runs_list_ = new QListWidget(tabs_);
    tabs_->addTab(runs_list_, tr("Runs"));
    top->addWidget(tabs_, 1);
    connectControls();
}

void BenchWindow::connectControls() {
    connect(controls_.open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a suite"), QString(), tr("Suites (*.jsonl *.json);;All files (*)"));
        if (!path.isEmpty()) selectSuite(path);
    });
    connect(controls_.suite_box, &QComboBox::currentIndexChanged, this, [this] {
        if (!busy()) selectSuite(controls_.suite_box->currentData().toString());
    });
    connect(controls_.mode_box, &QComboBox::currentIndexChanged, this, [this] { updateActions(); });
    connect(controls_.run, &QPushButton::clicked, this, [this] { run(); });
    connect(controls_.cancel, &QPushButton::clicked, this, &BenchWindow::cancel);
    connect(export_report_, &QAction::triggered, this, [this] { exportReport(); });
    connect(controls_.calibrate, &QPushButton::clicked, this, &BenchWindow::calibrateRequested);
    connect(controls_.resume, &QPushButton::clicked, this, [this] {
        if (auto* item = runs_list_->currentItem()) resume(item->data(Qt::UserRole).toString());
    });
    connect(runs_list_, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { openRun(item->data(Qt::UserRole).toString()); });
    connect(runs_list_, &QListWidget::currentItemChanged, this, [this] { updateActions(); });
    connect(items_page_->table(), &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) {
                const eval::ItemRow* row = items_page_->model()->row(items_page_->sourceRow(index));
                if (!row || !shown_) return;
                for (const auto& item : shown_->suite.items)
                    if (item.id == row->id) {
                        const json policy{{"schema", core::schema_to_json(item.schema)},
                                          {"state", item.state}};
                        Q_EMIT openItemRequested(tr("bench item %1").arg(qstr(item.id)),
                                                 qstr(policy.dump(2)));
                        return;
                    }
            });
}

void BenchWindow::setEndpoints(const core::EndpointProfileStore& store) {
    endpoints_ = store;
    QComboBox* box = controls_.profile_box;
    const QString current = box->currentData().toString();
    box->clear();
    for (const auto& p : endpoints_.profiles) box->addItem(qstr(p.summary()), qstr(p.name));
    int at = box->findData(current.isEmpty() ? qstr(endpoints_.active) : current);
    if (at >= 0) box->setCurrentIndex(at);
    backends_.clear();  // a profile may have changed under the same name
    updateActions();
}

void BenchWindow::setWorkers(int workers) {
    controls_.workers->setValue(workers);
}

void BenchWindow::setLimit(int items) {
    controls_.limit->setValue(items);
}

void BenchWindow::setMode(eval::RunMode mode) {
    controls_.mode_box->setCurrentIndex(
        std::max(0, controls_.mode_box->findData(static_cast<int>(mode))));
}

eval::RunMode BenchWindow::mode() const {
    return static_cast<eval::RunMode>(controls_.mode_box->currentData().toInt());
}

void BenchWindow::setGenerativeMaxTokens(int tokens) {
    controls_.gen_tokens->setValue(tokens);
}

const std::vector<eval::ItemRecord>& BenchWindow::records() const {
    static const std::vector<eval::ItemRecord> none;
    return shown_ ? shown_->run.records : none;
}

const std::optional<eval::RunScore>& BenchWindow::runScore() const {
    static const std::optional<eval::RunScore> none;
    return shown_ ? shown_->run_score : none;
}

const std::optional<core::compare::SuiteComparison>& BenchWindow::suiteComparison() const {
    static const std::optional<core::compare::SuiteComparison> none;
    return shown_ ? shown_->comparison : none;
}

bool BenchWindow::selectSuite(const QString& path) {
    if (path.isEmpty()) return false;
    auto loaded = eval::load_suite_file(path.toStdString(), QDir::currentPath().toStdString());
    if (!loaded) {
        showError(qstr(loaded.error().message));
        return false;
    }
    suite_ = std::move(loaded.value());
    suite_path_ = QFileInfo(path).absoluteFilePath();
    QComboBox* box = controls_.suite_box;
    int at = box->findData(suite_path_);
    if (at < 0) {
        box->addItem(QFileInfo(path).fileName(), suite_path_);
        at = box->count() - 1;
    }
    const QSignalBlocker block(box);
    box->setCurrentIndex(at);
    status_ = tr("%1: %2 items").arg(QFileInfo(path).fileName()).arg(suite_->items.size());
    status_label_->setText(status_);
    updateActions();
    return true;
}

eval::RunScoreOptions BenchWindow::scoreOptions() const {
    eval::RunScoreOptions o;
    o.endpoint_kind = eval::parse_endpoint_kind(controls_.kind_box->currentText().toStdString())
                          .value_or(eval::EndpointKind::Gpu);
    o.cost_estimate = true;  // labelled as the DiffusionGemma estimate
    return o;
}

bool BenchWindow::busy() const {
    return runner_.busy();
}

bool BenchWindow::run() {
    if (busy() || !suite_) return false;
    auto dir = eval::RunStore(options_.runs_dir.toStdString()).create(suite_path_.toStdString());
    if (!dir) {
        showError(tr("Cannot create the run folder %1").arg(qstr(dir.error().message)));
        return false;
    }
    startRun(qstr(dir->string()), false);
    return busy();
}

std::optional<eval::RunMeta> BenchWindow::loadRun(const QString& run_dir) {
    if (busy()) return std::nullopt;
    auto meta = eval::RunStore::read_meta(run_dir.toStdString());
    if (!meta) {
        showError(tr("%1: no run.json; not a kept run").arg(run_dir));
        return std::nullopt;
    }
    if (!selectSuite(qstr(meta->suite))) return std::nullopt;
    return std::move(*meta);
}

bool BenchWindow::resume(const QString& run_dir) {
    const auto meta = loadRun(run_dir);
    if (!meta) return false;
    controls_.limit->setValue(meta->limit);
    controls_.workers->setValue(meta->workers);
    setMode(meta->mode);
    controls_.gen_tokens->setValue(meta->generative_max_tokens);
    const int at = controls_.profile_box->findData(qstr(meta->profile));
    if (at >= 0) controls_.profile_box->setCurrentIndex(at);
    startRun(run_dir, true);
    return busy();
}

void BenchWindow::startRun(const QString& run_dir, bool resume) {
    const core::EndpointProfile* profile =
        endpoints_.find(controls_.profile_box->currentData().toString().toStdString());
    if (!profile) return showError(tr("No endpoint: add one in Endpoints (Ctrl+E)."));
    auto secrets = core::read_profile_secrets(*profile, core::process_environment());
    if (!secrets) return showError(qstr(secrets.error().message));

    eval::BenchRunInput input;
    input.suite = *suite_;
    eval::SuiteFilter filter;
    filter.limit = static_cast<size_t>(controls_.limit->value());
    eval::apply_filter(input.suite, filter);
    input.dataset_path = suite_path_.toStdString();
    input.scoring = scoreOptions();
    input.leaderboard = leaderboard_;

    run_dir_ = run_dir;
    run_meta_ = {suite_path_.toStdString(),
                 "",
                 profile->name,
                 profile->summary(),
                 controls_.workers->value(),
                 controls_.limit->value(),
                 mode(),
                 controls_.gen_tokens->value(),
                 ""};
    eval::RunSettings& settings = input.settings;
    settings.workers = run_meta_.workers;
    settings.mode = run_meta_.mode;
    settings.generative_max_tokens = run_meta_.generative_max_tokens;
    settings.journal_path = eval::RunStore::journal_path(run_dir.toStdString()).string();
    settings.resume = resume;
    settings.program_version = QCoreApplication::applicationVersion().toStdString();
    settings.extra = {{"endpoint", profile->summary()}, {"limit", run_meta_.limit}};
    run_settings_ = eval::meta_settings(run_meta_, settings.seed, false);
    run_endpoint_ = profile->summary();
    run_model_ = profile_model(*profile);
    shown_ = eval::BenchResult{};
    shown_->suite = input.suite;
    shown_->dataset_path = input.dataset_path;
    shown_->mode = settings.mode;
    shown_->leaderboard = leaderboard_;
    items_page_->model()->setRows({});
    comparison_page_->model()->setRows({});
    tabs_->setTabVisible(tabs_->indexOf(comparison_page_), settings.mode != eval::RunMode::Slot);
    writeRunMeta(QStringLiteral("running"));

    cancel_ = core::CancelToken{};
    progress_->setRange(0, static_cast<int>(input.suite.items.size()));
    progress_->setValue(0);
    status_label_->setText(resume ? tr("Resuming…") : tr("Starting…"));
    std::shared_ptr<core::Backend> cached =
        backends_.count(profile->name) ? backends_[profile->name] : nullptr;
    // The backend (built through the one factory, kept per profile) and the run, on the one
    // worker-thread runner; the run's own cancel token stops it, and the result comes back here.
    runner_.start([this, cached, p = *profile, s = secrets.value(), input = std::move(input),
                   cancel = cancel_,
                   after_item = options_.after_item](const core::WorkerRunner::Job& job) mutable {
        std::shared_ptr<core::Backend> backend = cached;
        if (!backend) {
            auto made = core::make_profile_backend(p, s);
            if (!made) return job.finish([this, e = made.error()] { onFinished(e); });
            backend = *made;
            job.post([this, backend, name = p.name] { backends_[name] = backend; });
        }
        auto report = [this, &job, &after_item](const eval::RunProgress& progress) {
            std::optional<eval::ItemRecord> last;
            if (progress.last) last = *progress.last;
            eval::RunProgress copy = progress;
            copy.last = nullptr;
            job.post([this, copy, last] { onProgress(copy, last); });
            if (progress.last && after_item) after_item(progress.done);
        };
        auto result = eval::run_bench(backend, std::move(input), report, cancel);
        job.finish([this, result = std::move(result)]() mutable { onFinished(std::move(result)); });
    });
    updateActions();
}

void BenchWindow::onProgress(const eval::RunProgress& p, std::optional<eval::ItemRecord> last) {
    progress_->setMaximum(static_cast<int>(p.total));
    progress_->setValue(static_cast<int>(p.done));
    status_ = tr("%1 / %2 items · %3 failed · %4 items/s · ETA %5")
                  .arg(p.done)
                  .arg(p.total)
                  .arg(p.failed)
                  .arg(formatNumber(p.items_per_s, 1))
                  .arg(format_duration(p.eta_s));
    if (p.resumed) status_ += tr(" · %1 from the journal").arg(p.resumed);
    status_label_->setText(status_);
    if (last && shown_) {
        shown_->run.records.push_back(*last);
        for (const auto& row : eval::item_rows(shown_->suite, {*last}))
            items_page_->model()->upsert(row);
        if (last->generative)
            for (const auto& row : core::compare::comparison_rows(shown_->suite, {*last}))
                comparison_page_->model()->upsert(row);
    }
}

void BenchWindow::onFinished(engine::Result<eval::BenchResult> result) {
    if (!result) {
        showError(qstr(result.error().message));
        writeRunMeta(QStringLiteral("failed"));
        updateActions();
        Q_EMIT runFinished(false);
        return;
    }
    shown_ = std::move(result.value());
    const eval::RunResult& ran = shown_->run;
    if (ran.header.is_object() && ran.header.value("backend", json()).is_string())
        run_endpoint_ = ran.header["backend"].get<std::string>();
    items_page_->model()->setRows(eval::item_rows(shown_->suite, ran.records));
    rescore();
    writeRunMeta(ran.cancelled ? QStringLiteral("cancelled") : QStringLiteral("finished"));
    status_ = ran.cancelled ? tr("Cancelled after %1 of %2 items; Resume continues it")
                                  .arg(ran.records.size())
                                  .arg(shown_->suite.items.size())
                            : tr("Finished %1 items in %2 s")
                                  .arg(ran.records.size())
                                  .arg(formatNumber(ran.wall_s, 1));
    status_label_->setText(status_);
    refreshRuns();
    updateActions();
    Q_EMIT runFinished(!ran.cancelled);
}

void BenchWindow::rescore() {
    if (!shown_) return;
    eval::score_bench(*shown_, scoreOptions());
    showComparison();
    scorecard_->showResult(*shown_);
    items_page_->showAll();
    charts_page_->showResult(*shown_, leaderboard_);
}

void BenchWindow::showComparison() {
    const bool generative = shown_->comparison.has_value();
    tabs_->setTabVisible(tabs_->indexOf(comparison_page_), generative);
    if (!generative) return comparison_page_->clear();
    comparison_page_->showComparison(
        *shown_->comparison, core::compare::comparison_rows(shown_->suite, shown_->run.records));
}

void BenchWindow::showComparisonPage() {
    if (tabs_->isTabVisible(tabs_->indexOf(comparison_page_)))
        tabs_->setCurrentWidget(comparison_page_);
}

QString BenchWindow::statusText() const {
    return status_;
}

void BenchWindow::cancel() {
    cancel_.cancel();
}

void BenchWindow::showError(const QString& message) {
    status_ = message;
    status_label_->setText(
        QStringLiteral("<span style='color:#c62828'>%1</span>").arg(message.toHtmlEscaped()));
}

void BenchWindow::updateActions() {
    const bool running = busy();
    BenchControls& c = controls_;
    c.run->setEnabled(!running && suite_ && c.profile_box->count() > 0);
    c.cancel->setEnabled(running);
    const QListWidgetItem* item = runs_list_->currentItem();
    c.resume->setEnabled(!running && item && item->data(Qt::UserRole + 1).toString() != "finished");
    c.suite_box->setEnabled(!running);
    c.profile_box->setEnabled(!running);
    c.workers->setEnabled(!running);
    c.limit->setEnabled(!running);
    c.mode_box->setEnabled(!running);
    c.gen_tokens->setEnabled(!running && mode() != eval::RunMode::Slot);
    const bool exportable = !running && shown_ && !shown_->run.records.empty();
    export_report_->setEnabled(exportable);
    c.export_button->setEnabled(exportable);
    c.calibrate->setEnabled(exportable && suite_);
}

std::vector<eval::CalibrationItem> BenchWindow::calibrationItems() const {
    if (busy() || !shown_ || !suite_) return {};
    return eval::calibration_items(*suite_, shown_->run.records);
}

std::optional<core::report::Report> BenchWindow::benchReport() const {
    if (busy() || !shown_ || shown_->run.records.empty()) return std::nullopt;
    core::report::BenchInput input = eval::report_input(*shown_);
    input.settings = run_settings_;
    if (!run_dir_.isEmpty()) input.extra = {{"run", QFileInfo(run_dir_).fileName().toStdString()}};
    // The endpoint as the backend describes itself (the journal's header): never a secret.
    input.provenance = core::report::make_provenance("Decision Studio", run_endpoint_, run_model_);
    return core::report::bench_report(input);
}

ExportReportDialog* BenchWindow::exportReport() {
    auto made = benchReport();
    if (!made) return nullptr;
    auto* dialog = new ExportReportDialog(std::move(*made), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void BenchWindow::writeRunMeta(const QString& status) {
    run_meta_.status = status.toStdString();
    if (auto w = eval::RunStore::write_meta(run_dir_.toStdString(), run_meta_,
                                            shown_ ? &*shown_ : nullptr);
        !w)
        showError(qstr(w.error().message));
}

QStringList BenchWindow::keptRuns() const {
    QStringList out;
    for (const auto& dir : eval::RunStore(options_.runs_dir.toStdString()).kept())
        out.push_back(QFileInfo(qstr(dir.string())).absoluteFilePath());
    return out;
}

void BenchWindow::refreshRuns() {
    runs_list_->clear();
    for (const QString& dir : keptRuns()) {
        const auto meta = eval::RunStore::read_meta(dir.toStdString());
        if (!meta) continue;
        const QString status = qstr(meta->status);
        auto* item = new QListWidgetItem(tr("%1 · %2 · %3 · %4")
                                             .arg(QFileInfo(dir).fileName())
                                             .arg(QFileInfo(qstr(meta->suite)).fileName())
                                             .arg(qstr(meta->endpoint))
                                             .arg(status),
                                         runs_list_);
        item->setData(Qt::UserRole, dir);
        item->setData(Qt::UserRole + 1, status);
    }
}

bool BenchWindow::openRun(const QString& run_dir) {
    const auto meta = loadRun(run_dir);
    if (!meta) return false;
    auto journal = eval::read_journal(eval::RunStore::journal_path(run_dir.toStdString()));
    if (!journal) {
        showError(qstr(journal.error().message));
        return false;
    }
    shown_ = eval::BenchResult{};
    shown_->suite = *suite_;
    eval::SuiteFilter filter;
    filter.limit = static_cast<size_t>(meta->limit);
    eval::apply_filter(shown_->suite, filter);
    shown_->dataset_path = suite_path_.toStdString();
    shown_->mode = meta->mode;
    shown_->leaderboard = leaderboard_;
    shown_->run.records = journal->records;
    shown_->run.header = journal->header;
    run_dir_ = run_dir;
    const json& header = journal->header;
    std::optional<uint64_t> seed;
    if (header.is_object() && header.contains("settings") && header["settings"].is_object() &&
        header["settings"].contains("seed"))
        seed = header["settings"]["seed"].get<uint64_t>();
    run_settings_ = eval::meta_settings(*meta, seed, true);
    run_endpoint_ = header.is_object() && header.value("backend", json()).is_string()
                        ? header["backend"].get<std::string>()
                        : meta->endpoint;
    run_model_.clear();
    if (const core::EndpointProfile* p = endpoints_.find(meta->profile))
        run_model_ = profile_model(*p);
    setMode(meta->mode);
    controls_.gen_tokens->setValue(meta->generative_max_tokens);
    items_page_->model()->setRows(eval::item_rows(shown_->suite, shown_->run.records));
    rescore();
    status_ = tr("Run %1 (%2): %3 of %4 items")
                  .arg(QFileInfo(run_dir).fileName())
                  .arg(qstr(meta->status))
                  .arg(shown_->run.records.size())
                  .arg(shown_->suite.items.size());
    status_label_->setText(status_);
    progress_->setRange(0, static_cast<int>(shown_->suite.items.size()));
    progress_->setValue(static_cast<int>(shown_->run.records.size()));
    tabs_->setCurrentIndex(1);
    showComparisonPage();  // a run with generative records opens on its comparison
    updateActions();
    return true;
}

}  // namespace ui
