#include "ui/bench/bench_window.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <array>
#include <fstream>

#include "core/eval_report.h"
#include "core/eval_table.h"
#include "ui/bench/bench_items_model.h"
#include "ui/bench/comparison_items_model.h"
#include "ui/charts/chart_widget.h"
#include "ui/i18n/format.h"
#include "ui/reports/export_report_dialog.h"

namespace ui {

namespace {

using nlohmann::json;
namespace eval = core::eval;

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

// JevBench lines carry a question with labels; dgem suite lines name a template (a dgem suite
// may open with '#' comment lines, as the shipped policies suite does).
std::optional<eval::SuiteKind> sniff_kind(const QString& path) {
    std::ifstream in(path.toStdString());
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const json j = json::parse(line, nullptr, false);
        if (!j.is_object()) return std::nullopt;
        if (j.contains("question") && j.contains("labels")) return eval::SuiteKind::JevBench;
        if (j.contains("template")) return eval::SuiteKind::Dgem;
        return std::nullopt;
    }
    return std::nullopt;
}

QString format_duration(double seconds) {
    if (seconds < 0) return QObject::tr("…");
    const int s = static_cast<int>(seconds + 0.5);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString points(const std::optional<double>& v) {
    return v ? formatNumber(*v, 1) : QObject::tr("n/a");
}

// The model a profile runs: the local model's folder name, or the remote profile's model.
std::string profile_model(const core::EndpointProfile& p) {
    if (p.kind == core::EndpointKind::Local)
        return QFileInfo(qstr(p.model_dir)).fileName().toStdString();
    return p.model;
}

json read_json_file(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return json();
    return json::parse(f.readAll().toStdString(), nullptr, false);
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
    if (QFileInfo::exists(jev)) suite_box_->addItem(tr("JevBench v1.4 public items"), jev);
    for (const QFileInfo& f :
         QDir(options_.suites_dir).entryInfoList({QStringLiteral("*.jsonl")}, QDir::Files))
        suite_box_->addItem(tr("Shipped suite: %1").arg(f.completeBaseName()),
                            f.absoluteFilePath());
    if (auto board =
            eval::load_leaderboard((options_.jevbench_dir + "/leaderboard_v14.json").toStdString()))
        leaderboard_ = *board;
    connect(&watcher_, &QFutureWatcherBase::finished, this, &BenchWindow::onFinished);
    refreshRuns();
    updateActions();
}

BenchWindow::~BenchWindow() {
    cancel_.cancel();
    watcher_.waitForFinished();
}

void BenchWindow::buildLayout() {
    auto* top = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    suite_box_ = new QComboBox(this);
    suite_box_->setMinimumContentsLength(28);
    suite_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto* open = new QPushButton(tr("Open suite…"), this);
    profile_box_ = new QComboBox(this);
    profile_box_->setMinimumContentsLength(20);
    kind_box_ = new QComboBox(this);
    for (const char* k : {"gpu", "cpu", "api"}) kind_box_->addItem(QString::fromLatin1(k));
    kind_box_->setToolTip(tr("How Speed is scored (JevBench endpoint kinds)"));
    workers_ = new QSpinBox(this);
    workers_->setRange(1, 64);
    workers_->setValue(2);
    limit_ = new QSpinBox(this);
    limit_->setRange(0, 100000);
    limit_->setSpecialValueText(tr("all"));
    mode_box_ = new QComboBox(this);
    mode_box_->addItem(tr("slot"), static_cast<int>(eval::RunMode::Slot));
    mode_box_->addItem(tr("generative"), static_cast<int>(eval::RunMode::Generative));
    mode_box_->addItem(tr("both"), static_cast<int>(eval::RunMode::Both));
    mode_box_->setToolTip(
        tr("How each item is asked: the slot readout (one pass), generative JSON (parsed "
           "strictly), or both one after the other on the same endpoint"));
    gen_tokens_ = new QSpinBox(this);
    gen_tokens_->setRange(0, 4096);
    gen_tokens_->setSpecialValueText(tr("auto"));
    gen_tokens_->setToolTip(
        tr("Completion tokens a generative answer may use (auto: what the item's questions "
           "need)"));
    run_button_ = new QPushButton(tr("Run"), this);
    run_button_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    cancel_button_ = new QPushButton(tr("Cancel"), this);
    cancel_button_->setShortcut(QKeySequence(Qt::Key_Escape));
    resume_button_ = new QPushButton(tr("Resume"), this);
    resume_button_->setToolTip(tr("Continue the selected interrupted run from its journal"));
    // Export report…: an action of the window (Ctrl+Shift+E) and a button for it.
    export_report_ = new QAction(tr("Export re&port…"), this);
    export_report_->setObjectName(QStringLiteral("exportReportAction"));
    export_report_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    export_report_->setShortcutContext(Qt::WindowShortcut);
    export_report_->setToolTip(
        tr("The shown run as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)"));
    addAction(export_report_);
    export_button_ = new QPushButton(tr("Export report…"), this);
    export_button_->setObjectName(QStringLiteral("exportReportButton"));
    export_button_->setToolTip(export_report_->toolTip());
    controls->addWidget(new QLabel(tr("Suite:"), this));
    controls->addWidget(suite_box_, 2);
    controls->addWidget(open);
    controls->addWidget(new QLabel(tr("Endpoint:"), this));
    controls->addWidget(profile_box_, 1);
    controls->addWidget(kind_box_);
    top->addLayout(controls);
    // The run's settings and actions on a line of their own.
    auto* settings_row = new QHBoxLayout;
    settings_row->addWidget(new QLabel(tr("Workers:"), this));
    settings_row->addWidget(workers_);
    settings_row->addWidget(new QLabel(tr("Items:"), this));
    settings_row->addWidget(limit_);
    settings_row->addWidget(new QLabel(tr("Mode:"), this));
    settings_row->addWidget(mode_box_);
    settings_row->addWidget(new QLabel(tr("Max tokens:"), this));
    settings_row->addWidget(gen_tokens_);
    settings_row->addStretch(1);
    settings_row->addWidget(run_button_);
    settings_row->addWidget(cancel_button_);
    settings_row->addWidget(resume_button_);
    settings_row->addWidget(export_button_);
    top->addLayout(settings_row);

    auto* progress_row = new QHBoxLayout;
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_label_ = new QLabel(tr("Pick a suite and an endpoint, then Run."), this);
    status_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_row->addWidget(progress_, 1);
    progress_row->addWidget(status_label_, 2);
    top->addLayout(progress_row);

    scorecard_ = new QLabel(this);
    scorecard_->setWordWrap(true);
    scorecard_->setTextFormat(Qt::RichText);
    top->addWidget(scorecard_);

    tabs_ = new QTabWidget(this);
    // Items: a filter over every column and the sortable table.
    auto* items_page = new QWidget(tabs_);
    auto* items_layout = new QVBoxLayout(items_page);
    filter_ = new QLineEdit(items_page);
    filter_->setPlaceholderText(tr("Filter items (id, tier, family, labels…)"));
    filter_->setClearButtonEnabled(true);
    items_ = new BenchItemsModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(items_);
    proxy_->setSortRole(BenchItemsModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_ = new QTableView(items_page);
    table_->setObjectName(QStringLiteral("itemsTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(BenchItemsModel::Id, 200);
    items_layout->addWidget(filter_);
    items_layout->addWidget(table_, 1);
    tabs_->addTab(items_page, tr("Items"));
    // Charts: a grid that scrolls when the window is small.
    auto* scroll = new QScrollArea(tabs_);
    scroll->setWidgetResizable(true);
    auto* grid_host = new QWidget(scroll);
    auto* grid_column = new QVBoxLayout(grid_host);
    chart_grid_ = new QGridLayout;
    grid_column->addLayout(chart_grid_);
    grid_column->addStretch(1);  // each chart at its own height, as a report's page has it
    scroll->setWidget(grid_host);
    tabs_->addTab(scroll, tr("Charts"));
    // Slot vs generative: the summary, the per-item table and the charts (runs with generative
    // records only).
    comparison_page_ = new QWidget(tabs_);
    comparison_page_->setObjectName(QStringLiteral("comparisonPage"));
    auto* cmp_layout = new QVBoxLayout(comparison_page_);
    comparison_summary_ = new QLabel(comparison_page_);
    comparison_summary_->setObjectName(QStringLiteral("comparisonSummary"));
    comparison_summary_->setWordWrap(true);
    comparison_summary_->setTextFormat(Qt::RichText);
    comparison_summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    comparison_items_ = new ComparisonItemsModel(this);
    comparison_proxy_ = new QSortFilterProxyModel(this);
    comparison_proxy_->setSourceModel(comparison_items_);
    comparison_proxy_->setSortRole(ComparisonItemsModel::SortRole);
    auto* cmp_split = comparison_split_ = new QSplitter(Qt::Vertical, comparison_page_);
    cmp_split->setChildrenCollapsible(false);
    auto* cmp_table = comparison_table_ = new QTableView(cmp_split);
    cmp_table->setObjectName(QStringLiteral("comparisonTable"));
    cmp_table->setModel(comparison_proxy_);
    cmp_table->setSortingEnabled(true);
    cmp_table->sortByColumn(-1, Qt::AscendingOrder);
    cmp_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    cmp_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    cmp_table->verticalHeader()->hide();
    cmp_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    cmp_table->horizontalHeader()->setStretchLastSection(true);
    cmp_table->setColumnWidth(ComparisonItemsModel::Id, 160);
    for (int c = ComparisonItemsModel::Tier; c < ComparisonItemsModel::Reason; ++c)
        cmp_table->setColumnWidth(c, 118);
    auto* cmp_charts = new QScrollArea(cmp_split);
    cmp_charts->setWidgetResizable(true);
    auto* cmp_host = new QWidget(cmp_charts);
    auto* cmp_column = new QVBoxLayout(cmp_host);
    comparison_grid_ = new QGridLayout;
    cmp_column->addLayout(comparison_grid_);
    cmp_column->addStretch(1);
    cmp_charts->setWidget(cmp_host);
    cmp_split->addWidget(cmp_table);
    cmp_split->addWidget(cmp_charts);
    cmp_split->setStretchFactor(0, 1);
    cmp_split->setStretchFactor(1, 3);
    cmp_layout->addWidget(comparison_summary_);
    cmp_layout->addWidget(cmp_split, 1);
    tabs_->addTab(comparison_page_, tr("Slot vs generative"));
    tabs_->setTabVisible(tabs_->indexOf(comparison_page_), false);
    // Kept runs.
    runs_list_ = new QListWidget(tabs_);
    tabs_->addTab(runs_list_, tr("Runs"));
    top->addWidget(tabs_, 1);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a suite"), QString(), tr("Suites (*.jsonl *.json);;All files (*)"));
        if (!path.isEmpty()) selectSuite(path);
    });
    connect(suite_box_, &QComboBox::currentIndexChanged, this, [this] {
        if (!busy()) selectSuite(suite_box_->currentData().toString());
    });
    connect(mode_box_, &QComboBox::currentIndexChanged, this, [this] { updateActions(); });
    connect(run_button_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancel_button_, &QPushButton::clicked, this, &BenchWindow::cancel);
    connect(export_report_, &QAction::triggered, this, [this] { exportReport(); });
    connect(export_button_, &QPushButton::clicked, export_report_, &QAction::trigger);
    connect(resume_button_, &QPushButton::clicked, this, [this] {
        if (auto* item = runs_list_->currentItem()) resume(item->data(Qt::UserRole).toString());
    });
    connect(runs_list_, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { openRun(item->data(Qt::UserRole).toString()); });
    connect(runs_list_, &QListWidget::currentItemChanged, this, [this] { updateActions(); });
    connect(filter_, &QLineEdit::textChanged, proxy_,
            [this](const QString& text) { proxy_->setFilterFixedString(text); });
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const eval::ItemRow* row = items_->row(proxy_->mapToSource(index).row());
        if (!row || !run_suite_) return;
        for (const auto& item : run_suite_->items)
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
    const QString current = profile_box_->currentData().toString();
    profile_box_->clear();
    for (const auto& p : endpoints_.profiles)
        profile_box_->addItem(qstr(p.summary()), qstr(p.name));
    int at = profile_box_->findData(current.isEmpty() ? qstr(endpoints_.active) : current);
    if (at >= 0) profile_box_->setCurrentIndex(at);
    backends_.clear();  // a profile may have changed under the same name
    updateActions();
}

void BenchWindow::setWorkers(int workers) {
    workers_->setValue(workers);
}

void BenchWindow::setLimit(int items) {
    limit_->setValue(items);
}

void BenchWindow::setMode(eval::RunMode mode) {
    mode_box_->setCurrentIndex(std::max(0, mode_box_->findData(static_cast<int>(mode))));
}

eval::RunMode BenchWindow::mode() const {
    return static_cast<eval::RunMode>(mode_box_->currentData().toInt());
}

void BenchWindow::setGenerativeMaxTokens(int tokens) {
    gen_tokens_->setValue(tokens);
}

bool BenchWindow::selectSuite(const QString& path) {
    if (path.isEmpty()) return false;
    const auto kind = sniff_kind(path);
    engine::Result<eval::Suite> loaded = engine::bad_input(
        path.toStdString() +
        ": not a suite (expected JevBench JSONL items or dgem suite lines naming a template)");
    if (kind == eval::SuiteKind::JevBench)
        loaded = eval::load_jevbench(path.toStdString());
    else if (kind == eval::SuiteKind::Dgem)
        loaded = eval::load_dgem_suite(path.toStdString(), QDir::currentPath().toStdString());
    if (!loaded) {
        showError(qstr(loaded.error().message));
        return false;
    }
    suite_ = std::move(loaded.value());
    suite_path_ = QFileInfo(path).absoluteFilePath();
    int at = suite_box_->findData(suite_path_);
    if (at < 0) {
        suite_box_->addItem(QFileInfo(path).fileName(), suite_path_);
        at = suite_box_->count() - 1;
    }
    const QSignalBlocker block(suite_box_);
    suite_box_->setCurrentIndex(at);
    status_ = tr("%1: %2 items").arg(QFileInfo(path).fileName()).arg(suite_->items.size());
    status_label_->setText(status_);
    updateActions();
    return true;
}

core::eval::EndpointKind BenchWindow::endpointKind() const {
    return eval::parse_endpoint_kind(kind_box_->currentText().toStdString())
        .value_or(eval::EndpointKind::Gpu);
}

bool BenchWindow::busy() const {
    return watcher_.isRunning();
}

bool BenchWindow::run() {
    if (busy() || !suite_) return false;
    const QString dir =
        options_.runs_dir + "/" +
        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) + "-" +
        QFileInfo(suite_path_).completeBaseName();
    if (!QDir().mkpath(dir)) {
        showError(tr("Cannot create the run folder %1").arg(dir));
        return false;
    }
    startRun(dir, false);
    return busy();
}

std::optional<nlohmann::json> BenchWindow::loadRun(const QString& run_dir) {
    if (busy()) return std::nullopt;
    json meta = read_json_file(run_dir + "/run.json");
    if (!meta.is_object()) {
        showError(tr("%1: no run.json; not a kept run").arg(run_dir));
        return std::nullopt;
    }
    if (!selectSuite(qstr(meta.value("suite", std::string())))) return std::nullopt;
    return meta;
}

bool BenchWindow::resume(const QString& run_dir) {
    const auto loaded = loadRun(run_dir);
    if (!loaded) return false;
    const json& meta = *loaded;
    limit_->setValue(meta.value("limit", 0));
    workers_->setValue(meta.value("workers", workers_->value()));
    if (auto m = eval::parse_run_mode(meta.value("mode", std::string("slot")))) setMode(*m);
    gen_tokens_->setValue(meta.value("generative_max_tokens", 0));
    const int at = profile_box_->findData(qstr(meta.value("profile", std::string())));
    if (at >= 0) profile_box_->setCurrentIndex(at);
    startRun(run_dir, true);
    return busy();
}

void BenchWindow::startRun(const QString& run_dir, bool resume) {
    const core::EndpointProfile* profile =
        endpoints_.find(profile_box_->currentData().toString().toStdString());
    if (!profile) return showError(tr("No endpoint: add one in Endpoints (Ctrl+E)."));
    auto secrets = core::read_profile_secrets(*profile, core::process_environment());
    if (!secrets) return showError(qstr(secrets.error().message));

    eval::Suite suite = *suite_;
    eval::SuiteFilter filter;
    filter.limit = static_cast<size_t>(limit_->value());
    eval::apply_filter(suite, filter);
    run_suite_ = suite;

    run_dir_ = run_dir;
    eval::RunSettings settings;
    settings.workers = workers_->value();
    settings.mode = mode();
    settings.generative_max_tokens = gen_tokens_->value();
    settings.journal_path = (run_dir + "/journal.jsonl").toStdString();
    settings.resume = resume;
    settings.program_version = QCoreApplication::applicationVersion().toStdString();
    settings.extra = {{"endpoint", profile->summary()}, {"limit", limit_->value()}};
    run_settings_ = {{"suite", suite_path_.toStdString()},
                     {"mode", std::string(eval::to_string(settings.mode))},
                     {"workers", settings.workers},
                     {"limit", limit_->value()},
                     {"generative_max_tokens", settings.generative_max_tokens},
                     {"seed", settings.seed},
                     {"profile", profile->name},
                     {"endpoint", profile->summary()}};
    run_wall_s_ = 0;
    run_endpoint_ = profile->summary();
    run_model_ = profile_model(*profile);
    records_.clear();
    items_->setRows({});
    comparison_items_->setRows({});
    run_score_.reset();
    suite_score_.reset();
    suite_comparison_.reset();
    tabs_->setTabVisible(tabs_->indexOf(comparison_page_), settings.mode != eval::RunMode::Slot);
    writeRunMeta(QStringLiteral("running"));

    cancel_ = core::CancelToken{};
    progress_->setRange(0, static_cast<int>(suite.items.size()));
    progress_->setValue(0);
    status_label_->setText(resume ? tr("Resuming…") : tr("Starting…"));
    std::shared_ptr<core::Backend> cached =
        backends_.count(profile->name) ? backends_[profile->name] : nullptr;
    const std::string profile_name = profile->name;
    watcher_.setFuture(QtConcurrent::run(
        [this, cached, p = *profile, s = secrets.value(), suite, settings, cancel = cancel_,
         profile_name, after_item = options_.after_item]() -> engine::Result<eval::RunResult> {
            std::shared_ptr<core::Backend> backend = cached;
            if (!backend) {
                auto made = core::make_profile_backend(p, s);
                if (!made) return made.error();
                backend = *made;
                QMetaObject::invokeMethod(
                    this, [this, backend, profile_name] { backends_[profile_name] = backend; },
                    Qt::QueuedConnection);
            }
            eval::EvalRunner runner(backend, settings);
            return runner.run(
                suite,
                [this, &after_item](const eval::RunProgress& progress) {
                    std::optional<eval::ItemRecord> last;
                    if (progress.last) last = *progress.last;
                    eval::RunProgress copy = progress;
                    copy.last = nullptr;
                    QMetaObject::invokeMethod(
                        this, [this, copy, last] { onProgress(copy, last); }, Qt::QueuedConnection);
                    if (progress.last && after_item) after_item(progress.done);
                },
                cancel);
        }));
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
    if (last && run_suite_) {
        records_.push_back(*last);
        for (const auto& row : eval::item_rows(*run_suite_, {*last})) items_->upsert(row);
        if (last->generative)
            for (const auto& row : core::compare::comparison_rows(*run_suite_, {*last}))
                comparison_items_->upsert(row);
    }
}

void BenchWindow::onFinished() {
    auto result = watcher_.result();
    if (!result) {
        showError(qstr(result.error().message));
        writeRunMeta(QStringLiteral("failed"));
        updateActions();
        Q_EMIT runFinished(false);
        return;
    }
    records_ = result->records;
    run_wall_s_ = result->wall_s;
    if (result->header.is_object() && result->header.value("backend", json()).is_string())
        run_endpoint_ = result->header["backend"].get<std::string>();
    items_->setRows(eval::item_rows(*run_suite_, records_));
    rescore();
    writeRunMeta(result->cancelled ? QStringLiteral("cancelled") : QStringLiteral("finished"));
    status_ = result->cancelled ? tr("Cancelled after %1 of %2 items; Resume continues it")
                                      .arg(records_.size())
                                      .arg(run_suite_->items.size())
                                : tr("Finished %1 items in %2 s")
                                      .arg(records_.size())
                                      .arg(formatNumber(result->wall_s, 1));
    status_label_->setText(status_);
    refreshRuns();
    updateActions();
    Q_EMIT runFinished(!result->cancelled);
}

void BenchWindow::rescore() {
    run_score_.reset();
    suite_score_.reset();
    suite_comparison_.reset();
    if (!run_suite_) return;
    showComparison();
    if (run_suite_->kind == eval::SuiteKind::JevBench) {
        eval::RunScoreOptions o;
        o.endpoint_kind = endpointKind();
        o.cost_estimate = true;  // labelled as the DiffusionGemma estimate
        run_score_ = eval::score_run(eval::scored_items(*run_suite_, records_), o);
        const auto& s = *run_score_;
        scorecard_->setText(
            tr("<b>Accuracy</b> %1% (%2/%3, %4 failed) · <b>Intelligence</b> %5 · "
               "<b>Calibration</b> %6 · <b>Speed</b> %7 (p50 %8 s) · <b>Cost</b> %9%10 · "
               "<b>Composite</b> %11 <i>(public items only: an estimate, not a rank)</i>")
                .arg(formatNumber(s.accuracy * 100, 1))
                .arg(s.correct)
                .arg(s.n)
                .arg(s.failed)
                .arg(points(s.public_axes.intelligence))
                .arg(points(s.public_axes.calibration))
                .arg(points(s.public_axes.speed))
                .arg(s.p50_s ? formatNumber(*s.p50_s, 3) : tr("n/a"))
                .arg(points(s.public_axes.cost))
                .arg(s.cost_is_estimate ? tr(" (estimate)") : QString())
                .arg(points(s.public_estimate)));
    } else {
        suite_score_ = eval::score_suite(*run_suite_, records_);
        const auto& s = *suite_score_;
        scorecard_->setText(tr("<b>Cases correct</b> %1% (%2/%3, %4 failed) · <b>Answers "
                               "correct</b> %5% · <b>Mean confidence</b> %6 · <b>ECE</b> %7 · "
                               "<b>Brier</b> %8 · <b>p50</b> %9 s")
                                .arg(formatNumber(s.case_accuracy * 100, 1))
                                .arg(s.cases_correct)
                                .arg(s.cases)
                                .arg(s.failed)
                                .arg(formatNumber(s.answer_accuracy * 100, 1))
                                .arg(formatNumber(s.mean_confidence, 3))
                                .arg(formatNumber(s.reliability.ece, 3))
                                .arg(formatNumber(s.brier, 3))
                                .arg(s.p50_s ? formatNumber(*s.p50_s, 3) : tr("n/a")));
    }
    showCharts();
}

void BenchWindow::showCharts() {
    qDeleteAll(chart_views_);
    chart_views_.clear();
    namespace report = core::report;
    // The charts of this run's report, built by the same functions from the same values.
    std::vector<report::ReportChart> made;
    std::vector<double> latencies;
    for (const auto& r : records_)
        if (r.ok) latencies.push_back(r.latency_s);
    if (run_score_) {
        const auto& s = *run_score_;
        made.push_back(report::reliability_chart(s.reliability_all,
                                                 tr("Reliability (all items)").toStdString()));
        made.push_back(report::latency_chart(latencies));
        made.push_back(report::accuracy_chart(s.by_tier, tr("Accuracy by tier").toStdString()));
        made.push_back(report::accuracy_chart(s.by_family, tr("Accuracy by family").toStdString()));
        made.push_back(report::axes_chart(s.public_axes));
        if (leaderboard_)
            made.push_back(report::leaderboard_chart(*leaderboard_, s.public_estimate));
    } else if (suite_score_) {
        const auto& s = *suite_score_;
        made.push_back(report::reliability_chart(s.reliability,
                                                 tr("Reliability (every answer)").toStdString()));
        made.push_back(report::latency_chart(latencies));
        made.push_back(report::accuracy_chart(s.by_tier, tr("Accuracy by tier").toStdString()));
        made.push_back(report::accuracy_chart(s.by_domain, tr("Accuracy by domain").toStdString()));
    }
    for (size_t i = 0; i < made.size(); ++i) {
        // The leaderboard's long model names get the whole width and a row of their own.
        const bool wide = run_score_ && leaderboard_ && i == 5;
        auto* view = new ChartWidget(std::move(made[i]));
        const int row = static_cast<int>(wide ? (i + 1) / 2 : i / 2);
        chart_grid_->addWidget(view, row, wide ? 0 : static_cast<int>(i % 2), 1, wide ? 2 : 1);
        chart_views_.push_back(view);
    }
}

void BenchWindow::showComparison() {
    qDeleteAll(comparison_views_);
    comparison_views_.clear();
    const bool generative = std::any_of(records_.begin(), records_.end(),
                                        [](const eval::ItemRecord& r) { return r.generative; });
    tabs_->setTabVisible(tabs_->indexOf(comparison_page_), generative);
    if (!generative || !run_suite_) {
        comparison_items_->setRows({});
        comparison_summary_->clear();
        return;
    }
    suite_comparison_ = core::compare::compare_suite(*run_suite_, records_);
    auto rows = core::compare::comparison_rows(*run_suite_, records_);
    const auto& c = *suite_comparison_;
    const auto secs = [](const std::optional<double>& v) {
        return v ? formatNumber(*v, 3) + QStringLiteral(" s") : tr("n/a");
    };
    comparison_summary_->setText(
        tr("<b>Slot</b>: accuracy %1% (%2/%3) · p50 %4 · p95 %5 · %6 pass(es) &nbsp;&nbsp; "
           "<b>Generative</b>: accuracy %7% (%8/%9) · valid JSON %10% (%11/%12) · p50 %13 · "
           "p95 %14 · %15 passes · %16 completion tokens (means) &nbsp;&nbsp; <b>Agreement</b> "
           "%17% (%18 of %19 answers) · <b>latency ratio</b> %20× (generative p50 / slot p50) "
           "· %21 items")
            .arg(formatNumber(c.slot.accuracy * 100, 1))
            .arg(c.slot.correct)
            .arg(c.slot.answers)
            .arg(secs(c.slot.p50_s), secs(c.slot.p95_s))
            .arg(formatNumber(c.slot.mean_passes, 1))
            .arg(formatNumber(c.generative.accuracy * 100, 1))
            .arg(c.generative.correct)
            .arg(c.generative.answers)
            .arg(formatNumber(c.valid_share * 100, 1))
            .arg(c.generative_valid)
            .arg(c.generative_replies)
            .arg(secs(c.generative.p50_s), secs(c.generative.p95_s))
            .arg(formatNumber(c.generative.mean_passes, 1))
            .arg(formatNumber(c.mean_completion_tokens, 1))
            .arg(formatNumber(c.agreement * 100, 1))
            .arg(c.agreeing)
            .arg(c.compared)
            .arg(formatNumber(c.latency_ratio, 1))
            .arg(c.items));
    // The charts of the report's comparison section, from the same values.
    std::pair<core::report::ReportChart, std::array<int, 4>> made[] = {
        {core::report::latency_per_item_chart(rows), {0, 0, 1, 2}},
        {core::report::validity_chart(c), {1, 0, 1, 1}},
        {core::report::mode_accuracy_chart(c), {1, 1, 1, 1}}};
    for (auto& [chart, at] : made) {
        auto* view = new ChartWidget(std::move(chart));
        comparison_grid_->addWidget(view, at[0], at[1], at[2], at[3]);
        comparison_views_.push_back(view);
    }
    comparison_items_->setRows(std::move(rows));
    // The table as tall as its rows (up to a third of the page), the charts the rest.
    const int row_h = comparison_table_->verticalHeader()->defaultSectionSize();
    const int table_h = std::min(comparison_table_->horizontalHeader()->sizeHint().height() +
                                     row_h * comparison_items_->rowCount() +
                                     2 * comparison_table_->frameWidth() + 4,
                                 std::max(row_h * 4, comparison_split_->height() / 3));
    comparison_split_->setSizes({table_h, std::max(600, comparison_split_->height() - table_h)});
}

std::vector<core::report::ReportChart> BenchWindow::comparisonCharts() const {
    std::vector<core::report::ReportChart> out;
    for (const ChartWidget* v : comparison_views_) out.push_back(v->chart());
    return out;
}

void BenchWindow::showComparisonPage() {
    if (tabs_->isTabVisible(tabs_->indexOf(comparison_page_)))
        tabs_->setCurrentWidget(comparison_page_);
}

std::vector<core::report::ReportChart> BenchWindow::charts() const {
    std::vector<core::report::ReportChart> out;
    for (const ChartWidget* v : chart_views_) out.push_back(v->chart());
    return out;
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
    run_button_->setEnabled(!running && suite_ && profile_box_->count() > 0);
    cancel_button_->setEnabled(running);
    const QListWidgetItem* item = runs_list_->currentItem();
    resume_button_->setEnabled(!running && item &&
                               item->data(Qt::UserRole + 1).toString() != "finished");
    suite_box_->setEnabled(!running);
    profile_box_->setEnabled(!running);
    workers_->setEnabled(!running);
    limit_->setEnabled(!running);
    mode_box_->setEnabled(!running);
    gen_tokens_->setEnabled(!running && mode() != eval::RunMode::Slot);
    const bool exportable = !running && run_suite_ && !records_.empty();
    export_report_->setEnabled(exportable);
    export_button_->setEnabled(exportable);
}

std::optional<core::report::Report> BenchWindow::benchReport() const {
    if (busy() || !run_suite_ || records_.empty()) return std::nullopt;
    core::report::BenchInput input;
    input.suite = *run_suite_;
    input.dataset_path = suite_path_.toStdString();
    input.records = records_;
    input.settings = run_settings_;
    input.wall_s = run_wall_s_;
    input.run_score = run_score_;
    input.suite_score = suite_score_;
    if (run_score_) input.leaderboard = leaderboard_;  // JevBench runs are placed on it
    input.with_comparison = std::any_of(records_.begin(), records_.end(),
                                        [](const eval::ItemRecord& r) { return r.generative; });
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
    json meta{{"suite", suite_path_.toStdString()},
              {"status", status.toStdString()},
              {"profile", profile_box_->currentData().toString().toStdString()},
              {"endpoint", profile_box_->currentText().toStdString()},
              {"workers", workers_->value()},
              {"limit", limit_->value()},
              {"mode", std::string(eval::to_string(mode()))},
              {"generative_max_tokens", gen_tokens_->value()},
              {"updated", QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString()}};
    if (run_score_) meta["score"] = eval::to_json(*run_score_);
    if (suite_score_) meta["score"] = eval::to_json(*suite_score_);
    if (suite_comparison_) meta["comparison"] = suite_comparison_->to_json();
    if (auto w = eval::write_file_atomic((run_dir_ + "/run.json").toStdString(), meta.dump(2)); !w)
        showError(qstr(w.error().message));
}

QStringList BenchWindow::keptRuns() const {
    QStringList out;
    for (const QFileInfo& d :
         QDir(options_.runs_dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo::exists(d.absoluteFilePath() + "/run.json"))
            out.prepend(d.absoluteFilePath());
    return out;
}

void BenchWindow::refreshRuns() {
    runs_list_->clear();
    for (const QString& dir : keptRuns()) {
        const json meta = read_json_file(dir + "/run.json");
        if (!meta.is_object()) continue;
        const QString status = qstr(meta.value("status", std::string("?")));
        auto* item = new QListWidgetItem(
            tr("%1 · %2 · %3 · %4")
                .arg(QFileInfo(dir).fileName())
                .arg(QFileInfo(qstr(meta.value("suite", std::string()))).fileName())
                .arg(qstr(meta.value("endpoint", std::string())))
                .arg(status),
            runs_list_);
        item->setData(Qt::UserRole, dir);
        item->setData(Qt::UserRole + 1, status);
    }
}

bool BenchWindow::openRun(const QString& run_dir) {
    const auto loaded = loadRun(run_dir);
    if (!loaded) return false;
    const json& meta = *loaded;
    auto journal = eval::read_journal((run_dir + "/journal.jsonl").toStdString());
    if (!journal) {
        showError(qstr(journal.error().message));
        return false;
    }
    eval::SuiteFilter filter;
    filter.limit = static_cast<size_t>(meta.value("limit", 0));
    run_suite_ = *suite_;
    eval::apply_filter(*run_suite_, filter);
    run_dir_ = run_dir;
    records_ = journal->records;
    run_settings_ = json::object();
    for (const char* key : {"suite", "mode", "workers", "limit", "generative_max_tokens", "profile",
                            "endpoint", "status"})
        if (meta.contains(key)) run_settings_[key] = meta[key];
    const json& header = journal->header;
    if (header.is_object() && header.contains("settings") && header["settings"].is_object() &&
        header["settings"].contains("seed"))
        run_settings_["seed"] = header["settings"]["seed"];
    run_wall_s_ = 0;
    run_endpoint_ = header.is_object() && header.value("backend", json()).is_string()
                        ? header["backend"].get<std::string>()
                        : meta.value("endpoint", std::string());
    run_model_.clear();
    if (const core::EndpointProfile* p = endpoints_.find(meta.value("profile", std::string())))
        run_model_ = profile_model(*p);
    if (auto m = eval::parse_run_mode(meta.value("mode", std::string("slot")))) setMode(*m);
    gen_tokens_->setValue(meta.value("generative_max_tokens", 0));
    items_->setRows(eval::item_rows(*run_suite_, records_));
    rescore();
    status_ = tr("Run %1 (%2): %3 of %4 items")
                  .arg(QFileInfo(run_dir).fileName())
                  .arg(qstr(meta.value("status", std::string())))
                  .arg(records_.size())
                  .arg(run_suite_->items.size());
    status_label_->setText(status_);
    progress_->setRange(0, static_cast<int>(run_suite_->items.size()));
    progress_->setValue(static_cast<int>(records_.size()));
    tabs_->setCurrentIndex(1);
    showComparisonPage();  // a run with generative records opens on its comparison
    updateActions();
    return true;
}

}  // namespace ui
