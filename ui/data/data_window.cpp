// The Data view: a dataset through the open policy, presented.
#include "ui/data/data_window.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <fstream>

#include "core/dataset/dataset_report.h"
#include "core/dataset/dataset_run.h"
#include "core/endpoints/cascade_judge.h"
#include "core/evaluation/bench_run.h"
#include "core/policy/policy.h"
#include "core/reports/report.h"
#include "core/template/template.h"
#include "ui/charts/chart_widget.h"
#include "ui/data/data_rows_model.h"
#include "ui/i18n/format.h"

namespace ui {

namespace {

namespace ds = core::dataset;
namespace ev = core::eval;
using nlohmann::json;

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

constexpr int kPreviewRows = 20;
const char* kDatasetFile = "dataset.json";

QString eta_text(double s) {
    if (s < 0) return QStringLiteral("?");
    const long t = static_cast<long>(s + 0.5);
    return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

DataWindow::DataWindow(const QString& runs_dir, QWidget* parent)
    : QWidget(parent), runs_dir_(runs_dir) {
    setAcceptDrops(true);
    buildLayout();
    connect(&runner_, &core::WorkerRunner::busyChanged, this, [this] { updateActions(); });
    updateActions();
}

DataWindow::~DataWindow() {
    runner_.cancel();
    runner_.waitForIdle(30000);
}

void DataWindow::buildLayout() {
    auto* root = new QVBoxLayout(this);
    files_label_ = new QLabel(tr("Open a CSV or JSONL file, or drop one here."), this);
    files_label_->setWordWrap(true);
    root->addWidget(files_label_);

    auto* bar = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open data…"), this);
    run_button_ = new QPushButton(tr("Run"), this);
    resume_button_ = new QPushButton(tr("Resume"), this);
    cancel_button_ = new QPushButton(tr("Cancel"), this);
    export_button_ = new QPushButton(tr("Export…"), this);
    calibrate_button_ = new QPushButton(tr("Calibrate…"), this);
    calibrate_button_->setObjectName(QStringLiteral("calibrateButton"));
    calibrate_button_->setToolTip(
        tr("Fit the open policy's temperature from this run's labelled rows"));
    progress_ = new QProgressBar(this);
    status_label_ = new QLabel(this);
    for (QWidget* w : {static_cast<QWidget*>(open), static_cast<QWidget*>(run_button_),
                       static_cast<QWidget*>(resume_button_), static_cast<QWidget*>(cancel_button_),
                       static_cast<QWidget*>(export_button_),
                       static_cast<QWidget*>(calibrate_button_), static_cast<QWidget*>(progress_)})
        bar->addWidget(w);
    bar->addWidget(status_label_, 1);
    root->addLayout(bar);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open data"), QString(),
                                                          tr("Data (*.csv *.jsonl *.ndjson)"));
        if (!path.isEmpty()) openData(path);
    });
    connect(run_button_, &QPushButton::clicked, this, [this] { run(); });
    connect(resume_button_, &QPushButton::clicked, this, [this] { resume(); });
    connect(cancel_button_, &QPushButton::clicked, this, [this] { cancel(); });
    connect(calibrate_button_, &QPushButton::clicked, this, &DataWindow::calibrateRequested);
    connect(export_button_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export"), QString(), tr("Rows or report (*.csv *.jsonl *.html *.pdf)"));
        if (!path.isEmpty()) exportTo(path);
    });

    tabs_ = new QTabWidget(this);
    auto* setup = new QSplitter(Qt::Vertical, this);
    preview_ = new QTableWidget(setup);
    mapping_ = new QTableWidget(setup);
    mapping_->setColumnCount(2);
    mapping_->setHorizontalHeaderLabels({tr("Variable"), tr("Column")});
    mapping_->horizontalHeader()->setStretchLastSection(true);
    tabs_->addTab(setup, tr("Data and mapping"));

    auto* rows_page = rows_page_ = new QWidget(this);
    auto* rows_layout = new QVBoxLayout(rows_page);
    show_box_ = new QComboBox(rows_page);
    rows_layout->addWidget(show_box_);
    model_ = new DataRowsModel(this);
    filter_ = new DataRowsFilter(this);
    filter_->setSourceModel(model_);
    table_ = new QTableView(rows_page);
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    rows_layout->addWidget(table_);
    tabs_->addTab(rows_page, tr("Rows"));
    connect(show_box_, &QComboBox::currentIndexChanged, this, [this] { applyFilter(); });
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = filter_->mapToSource(index);
        if (!source.isValid()) return;
        Q_EMIT openRowRequested(policy_path_, qstr(model_->rowAt(source.row()).variables));
    });

    auto* scroll = new QScrollArea(this);
    charts_ = new QWidget(scroll);
    charts_layout_ = new QVBoxLayout(charts_);
    scroll->setWidget(charts_);
    scroll->setWidgetResizable(true);
    tabs_->addTab(scroll, tr("Questions"));
    root->addWidget(tabs_, 1);
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), tabs_);
    esc->setContext(Qt::WidgetWithChildrenShortcut);
    connect(esc, &QShortcut::activated, this, [this] { clearChosenRows(); });
}

bool DataWindow::openPolicy(const QString& path) {
    policy_path_ = path;
    column_map_.clear();
    return data_path_.isEmpty() || replan();
}

bool DataWindow::openData(const QString& path) {
    if (busy()) return false;
    if (auto f = ds::data_format_for(path.toStdString()); !f) {
        showError(qstr(f.error().message));
        return false;
    }
    data_path_ = path;
    column_map_.clear();
    run_dir_.clear();
    summary_.reset();
    model_->clear();
    replan();
    // Opened even when the plan has a problem (a variable to map): preview and mapping show.
    return preview_->columnCount() > 0;
}

bool DataWindow::setMapping(const QString& variable, const QString& column) {
    if (column.isEmpty())
        column_map_.erase(variable.toStdString());
    else
        column_map_[variable.toStdString()] = column.toStdString();
    return replan();
}

void DataWindow::setBackend(std::shared_ptr<core::Backend> backend) {
    backend_ = std::move(backend);
    updateActions();
}

// Checks the file against the policy with the current mapping; the preview and mapping show
// what was found either way.
bool DataWindow::replan() {
    plan_.reset();
    if (policy_path_.isEmpty() || data_path_.isEmpty()) {
        if (!data_path_.isEmpty()) showPreview();
        updateActions();
        return false;
    }
    auto plan = ds::plan_dataset(policy_path_.toStdString(), data_path_.toStdString(), column_map_);
    if (!plan) {
        showPreview();
        showDraftMapping();
        showError(qstr(plan.error().message));
        updateActions();
        return false;
    }
    plan_ = std::move(*plan);
    files_label_->setText(tr("%1 (%2 rows) through %3")
                              .arg(QFileInfo(data_path_).fileName())
                              .arg(plan_->shape.rows)
                              .arg(qstr(plan_->policy.name)));
    status_.clear();
    status_label_->clear();
    model_->setPlan(*plan_);
    updateFilterChoices();
    showPreview();
    showMapping();
    updateActions();
    return true;
}

void DataWindow::showPreview() {
    preview_->clear();
    preview_->setRowCount(0);
    preview_->setColumnCount(0);
    auto reader = ds::DataReader::open(data_path_.toStdString());
    if (!reader) return;
    std::vector<std::string> columns = plan_ ? plan_->shape.columns : (*reader)->header();
    preview_->setColumnCount(static_cast<int>(columns.size()));
    QStringList labels;
    for (const auto& c : columns) labels << qstr(c);
    preview_->setHorizontalHeaderLabels(labels);
    preview_->setRowCount(0);
    ds::DataRow row;
    for (int r = 0; r < kPreviewRows && (*reader)->next(row); ++r) {
        preview_->insertRow(r);
        for (size_t c = 0; c < columns.size(); ++c) {
            auto it = row.columns.find(columns[c]);
            QString text;
            if (it != row.columns.end())
                text = it->is_string() ? qstr(it->get<std::string>()) : qstr(it->dump());
            preview_->setItem(r, static_cast<int>(c), new QTableWidgetItem(text));
        }
    }
}

// The mapping while the plan fails: the policy's variables and the file's columns as read.
void DataWindow::showDraftMapping() {
    mapping_->setRowCount(0);
    auto policy = core::load_policy_file(policy_path_.toStdString());
    auto shape = ds::scan_data(data_path_.toStdString());
    if (!policy || !shape) return;
    auto vars = core::template_variables_in_order(policy->source, policy->name);
    if (!vars) return;
    std::map<std::string, std::string> sources = column_map_;
    for (const auto& v : *vars)
        if (std::find(shape->columns.begin(), shape->columns.end(), v) != shape->columns.end())
            sources.emplace(v, v);
    fillMapping(*vars, shape->columns, sources);
}

void DataWindow::showMapping() {
    mapping_->setRowCount(0);
    if (plan_) fillMapping(plan_->variables, plan_->shape.columns, plan_->sources);
}

void DataWindow::fillMapping(const std::vector<std::string>& variables,
                             const std::vector<std::string>& columns,
                             const std::map<std::string, std::string>& sources) {
    int r = 0;
    for (const auto& v : variables) {
        mapping_->insertRow(r);
        mapping_->setItem(r, 0, new QTableWidgetItem(qstr(v)));
        auto* box = new QComboBox(mapping_);
        box->addItem(tr("(the template's default)"), QString());
        for (const auto& c : columns) box->addItem(qstr(c), qstr(c));
        auto src = sources.find(v);
        box->setCurrentIndex(src == sources.end() ? 0
                                                  : std::max(0, box->findData(qstr(src->second))));
        connect(box, &QComboBox::activated, this,
                [this, box, v](int) { setMapping(qstr(v), box->currentData().toString()); });
        mapping_->setCellWidget(r, 1, box);
        ++r;
    }
}

bool DataWindow::busy() const {
    return runner_.busy();
}

bool DataWindow::waitForIdle(int timeout_ms) {
    return runner_.waitForIdle(timeout_ms);
}

bool DataWindow::run() {
    if (busy() || !plan_ || !backend_) return false;
    auto dir = ev::RunStore(runs_dir_.toStdString()).create(data_path_.toStdString());
    if (!dir) {
        showError(qstr(dir.error().message));
        return false;
    }
    run_dir_ = qstr(dir->string());
    startRun(false);
    return busy();
}

bool DataWindow::resume() {
    if (busy() || !plan_ || !backend_ || run_dir_.isEmpty()) return false;
    startRun(true);
    return busy();
}

void DataWindow::cancel() {
    runner_.interrupt();
}

void DataWindow::startRun(bool resume) {
    const std::filesystem::path dir = run_dir_.toStdString();
    ev::RunMeta meta;
    meta.suite = data_path_.toStdString();
    meta.status = "running";
    meta.endpoint = backend_->describe();
    auto kept = ev::RunStore::write_meta(dir, meta, nullptr);
    if (kept)
        kept = ev::write_file_atomic((dir / kDatasetFile).string(),
                                     json{{"policy", policy_path_.toStdString()},
                                          {"data", data_path_.toStdString()},
                                          {"map", column_map_}}
                                         .dump(2));
    if (!kept) return showError(qstr(kept.error().message));
    // The policy's stage-2 cascade (on_miss: what a labelled row's stage 1 missed); its judge's
    // profile secrets are read here, on the GUI thread.
    auto judge = core::make_cascade_judge(plan_->policy_cascade, endpoints_);
    if (!judge) return showError(qstr(judge.error().message));
    ds::DatasetRunInput input{*plan_, {}, {}, {}};
    if (*judge) {
        input.settings.judge = std::shared_ptr<core::Backend>(std::move(*judge));
        input.plan.cascade = true;
    }
    input.settings.journal_path = ev::RunStore::journal_path(dir).string();
    input.settings.resume = resume;
    input.settings.workers = ds::default_rows_in_flight(*backend_);
    input.settings.program_version = QCoreApplication::applicationVersion().toStdString();
    summary_.reset();
    if (!resume) model_->clear();
    progress_->setRange(0, static_cast<int>(plan_->shape.rows));
    progress_->setValue(0);
    status_label_->setText(resume ? tr("Resuming…") : tr("Starting…"));
    runner_.start([this, input = std::move(input),
                   backend = backend_](const core::WorkerRunner::Job& job) mutable {
        const auto& plan = input.plan;
        input.on_row = [&job, &plan, this](const ds::DataRow& row, const ds::RowOutcome& outcome) {
            auto v = DataRowsModel::view(plan, row, outcome);
            job.post([this, v = std::move(v)]() mutable { model_->upsert(std::move(v)); });
        };
        auto progress = [&job, this](const ev::RunProgress& p) {
            const std::size_t done = p.done, total = p.total, failed = p.failed;
            const double rate = p.items_per_s, eta = p.eta_s;
            job.post([this, done, total, failed, rate, eta] {
                progress_->setValue(static_cast<int>(done));
                status_ = tr("%1 / %2 rows · %3 failed · %4 rows/s · ETA %5")
                              .arg(done)
                              .arg(total)
                              .arg(failed)
                              .arg(formatNumber(rate, 1))
                              .arg(eta_text(eta));
                status_label_->setText(status_);
            });
        };
        auto result = ds::run_dataset(backend, input, progress, job.cancel());
        engine::Result<bool> finished = result ? engine::Result<bool>(!result->cancelled)
                                               : engine::Result<bool>(result.error());
        job.finish([this, finished]() mutable { onFinished(std::move(finished)); });
    });
    updateActions();
}

void DataWindow::onFinished(engine::Result<bool> finished) {
    const std::filesystem::path dir = run_dir_.toStdString();
    ev::RunMeta meta;
    meta.suite = data_path_.toStdString();
    meta.endpoint = backend_ ? backend_->describe() : std::string();
    if (!finished) {
        meta.status = "failed";
        (void)ev::RunStore::write_meta(dir, meta, nullptr);  // the error shown is the run's
        showError(qstr(finished.error().message));
        Q_EMIT runFinished(false);
        return;
    }
    meta.status = *finished ? "finished" : "cancelled";
    if (auto w = ev::RunStore::write_meta(dir, meta, nullptr); !w)
        showError(qstr(w.error().message));
    reloadRows();
    if (!*finished)
        status_label_->setText(
            tr("Cancelled: %1 rows kept; Resume continues.").arg(model_->rowCount()));
    updateActions();
    Q_EMIT runFinished(*finished);
}

// The table and (for a complete run) the summary, from the run's journal beside its file.
void DataWindow::reloadRows() {
    if (!plan_ || run_dir_.isEmpty()) return;
    const std::string journal = ev::RunStore::journal_path(run_dir_.toStdString()).string();
    model_->clear();
    ds::DatasetSummary summary = ds::empty_summary(*plan_);
    auto visited = ds::visit_journal_rows(
        *plan_, journal,
        [&](const ds::DataRow& row, const ds::RowOutcome& o) -> engine::Result<void> {
            model_->upsert(DataRowsModel::view(*plan_, row, o));
            ds::tally(summary, row, o);
            return {};
        });
    if (!visited) return showError(qstr(visited.error().message));
    if (*visited == plan_->shape.rows) {
        summary_ = std::move(summary);
        status_ = summary_->labelled
                      ? tr("%1 rows · %2 failed · accuracy %3")
                            .arg(summary_->rows)
                            .arg(summary_->failed)
                            .arg(qstr(core::report::percent(summary_->accuracy())))
                      : tr("%1 rows · %2 failed").arg(summary_->rows).arg(summary_->failed);
        status_label_->setText(status_);
    }
    table_->resizeColumnsToContents();  // the header's names and the first rows' cells
    showCharts();
}

void DataWindow::showCharts() {
    while (QLayoutItem* item = charts_layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (!summary_) return;
    for (const auto& q : summary_->questions) addQuestionCharts(q);
    charts_layout_->addStretch(1);
}

void DataWindow::addQuestionCharts(const core::dataset::QuestionTally& q) {
    charts_layout_->addWidget(new QLabel(
        q.labelled ? tr("<b>%1</b>: %2 answered, accuracy %3 · confusion: rows expected, "
                        "columns answered")
                         .arg(qstr(q.id))
                         .arg(q.answered)
                         .arg(qstr(core::report::percent(q.accuracy())))
                   : tr("<b>%1</b>: %2 answered").arg(qstr(q.id)).arg(q.answered),
        charts_));
    if (!q.labelled || !plan_) return;
    size_t qi = 0;
    while (qi < plan_->questions.size() && plan_->questions[qi].id != q.id) ++qi;
    const int n = static_cast<int>(q.names.size());
    auto* matrix = new QTableWidget(n, n, charts_);
    matrix->setObjectName(QStringLiteral("confusion_") + qstr(q.id));
    matrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    QStringList names;
    for (const auto& name : q.names) names << qstr(name);
    matrix->setHorizontalHeaderLabels(names);
    matrix->setVerticalHeaderLabels(names);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            matrix->setItem(i, j,
                            new QTableWidgetItem(QString::number(
                                q.confusion[static_cast<size_t>(i)][static_cast<size_t>(j)])));
    matrix->setToolTip(tr("rows: expected, columns: answered; click a cell for its rows"));
    matrix->setMinimumHeight(40 + 30 * n);
    charts_layout_->addWidget(matrix);
    // A cell: the rows expecting its row's name that answered its column's.
    connect(matrix, &QTableWidget::cellClicked, this, [this, qi, names](int i, int j) {
        std::set<std::size_t> rows;
        for (int r = 0; r < model_->rowCount(); ++r) {
            const DataRowView& v = model_->rowAt(r);
            if (qi < v.answers.size() && v.correct[qi] >= 0 && v.expected[qi] == names[i] &&
                v.answers[qi] == names[j])
                rows.insert(v.row);
        }
        const QString id = qstr(plan_->questions[qi].id);
        chooseRows(std::move(rows), tr("%1 expected %2, answered %3").arg(id, names[i], names[j]),
                   QStringLiteral("cell/%1/%2/%3").arg(id).arg(i).arg(j));
    });
    // The reliability bins hold the scored rows (their numbers) by the answer's probability.
    std::vector<core::report::ChartItem> scored;
    for (int r = 0; r < model_->rowCount(); ++r) {
        const DataRowView& v = model_->rowAt(r);
        if (qi < v.correct.size() && v.correct[qi] >= 0)
            scored.push_back({std::to_string(v.row), v.p[qi]});
    }
    auto* chart = new ChartWidget(
        core::report::reliability_chart(q.reliability(), "Reliability: " + q.id, scored), charts_);
    charts_layout_->addWidget(chart);
    connect(chart, &ChartWidget::itemsChosen, this,
            [this, chart](const QStringList& items, const QString& what) {
                std::set<std::size_t> rows;
                for (const QString& item : items) rows.insert(item.toULongLong());
                chooseRows(std::move(rows), what,
                           QStringLiteral("chart/%1").arg(reinterpret_cast<quintptr>(chart)));
            });
    connect(chart, &ChartWidget::choiceCleared, this, [this] { clearChosenRows(); });
}

void DataWindow::chooseRows(std::set<std::size_t> rows, const QString& what, const QString& key) {
    if (key == chosen_key_ && !key.startsWith(QStringLiteral("chart/"))) return clearChosenRows();
    // Another chart's chosen bin is forgotten, quietly.
    for (ChartWidget* chart : charts_->findChildren<ChartWidget*>())
        if (!key.endsWith(QString::number(reinterpret_cast<quintptr>(chart)))) {
            QSignalBlocker quiet(chart);
            chart->clearChoice();
        }
    chosen_key_ = key;
    chosen_rows_ = std::move(rows);
    QSignalBlocker quiet(show_box_);
    const int at = show_box_->findData(QStringLiteral("chosen"));
    if (at >= 0) show_box_->removeItem(at);
    show_box_->addItem(
        tr("Chosen in a chart: %1 (%n row(s))", nullptr, static_cast<int>(chosen_rows_.size()))
            .arg(what),
        QStringLiteral("chosen"));
    show_box_->setCurrentIndex(show_box_->count() - 1);
    filter_->setRows(chosen_rows_);
    tabs_->setCurrentWidget(rows_page_);
}

void DataWindow::clearChosenRows() {
    if (chosen_key_.isEmpty()) return;
    chosen_key_.clear();
    chosen_rows_.clear();
    for (ChartWidget* chart : charts_->findChildren<ChartWidget*>()) {
        QSignalBlocker quiet(chart);
        chart->clearChoice();
    }
    {
        QSignalBlocker quiet(show_box_);
        const int at = show_box_->findData(QStringLiteral("chosen"));
        if (at >= 0) show_box_->removeItem(at);
        show_box_->setCurrentIndex(0);
    }
    applyFilter();
}

void DataWindow::updateFilterChoices() {
    show_box_->blockSignals(true);
    show_box_->clear();
    show_box_->addItem(tr("All rows"));
    show_box_->addItem(tr("Wrong"));
    show_box_->addItem(tr("Uncertain (hesitation over 0.5)"));
    if (plan_)
        for (size_t qi = 0; qi < plan_->questions.size(); ++qi)
            for (const auto& n : plan_->questions[qi].names)
                show_box_->addItem(tr("%1 = %2").arg(qstr(plan_->questions[qi].id), qstr(n)),
                                   QVariantList{static_cast<int>(qi), qstr(n)});
    show_box_->blockSignals(false);
    applyFilter();
}

void DataWindow::applyFilter() {
    const int i = show_box_->currentIndex();
    if (show_box_->currentData() == QStringLiteral("chosen")) return filter_->setRows(chosen_rows_);
    if (!chosen_key_.isEmpty()) {
        // Another entry chosen in the box: the chart's choice is over.
        chosen_key_.clear();
        const int at = show_box_->findData(QStringLiteral("chosen"));
        QSignalBlocker quiet(show_box_);
        if (at >= 0) show_box_->removeItem(at);
        for (ChartWidget* chart : charts_->findChildren<ChartWidget*>()) {
            QSignalBlocker quiet_chart(chart);
            chart->clearChoice();
        }
    }
    if (i <= 0) return filter_->setShow(DataRowsFilter::Show::All);
    if (i == 1) return filter_->setShow(DataRowsFilter::Show::Wrong);
    if (i == 2) return filter_->setShow(DataRowsFilter::Show::Uncertain);
    const QVariantList d = show_box_->currentData().toList();
    filter_->setShow(DataRowsFilter::Show::Answer, d.value(0).toInt(), d.value(1).toString());
}

QStringList DataWindow::keptRuns() const {
    QStringList out;
    for (const auto& dir : ev::RunStore(runs_dir_.toStdString()).kept())
        if (std::filesystem::exists(dir / kDatasetFile)) out << qstr(dir.string());
    return out;
}

bool DataWindow::openRun(const QString& run_dir) {
    if (busy()) return false;
    std::ifstream in((std::filesystem::path(run_dir.toStdString()) / kDatasetFile).string());
    const json d = json::parse(in, nullptr, false);
    if (!d.is_object()) {
        showError(tr("%1: no dataset.json; not a kept dataset run").arg(run_dir));
        return false;
    }
    policy_path_ = qstr(d.value("policy", ""));
    data_path_ = qstr(d.value("data", ""));
    column_map_ = d.value("map", std::map<std::string, std::string>{});
    if (!replan()) return false;
    run_dir_ = run_dir;
    reloadRows();
    updateActions();
    return true;
}

bool DataWindow::exportTo(const QString& path) {
    if (!plan_ || run_dir_.isEmpty()) return false;
    const std::string p = path.toStdString();
    const std::string journal = ev::RunStore::journal_path(run_dir_.toStdString()).string();
    if (ds::data_format_for(p)) {
        auto s = ds::summarize_dataset(*plan_, journal, p);
        if (!s) showError(qstr(s.error().message));
        return static_cast<bool>(s);
    }
    auto format = core::report::format_for_path(p, std::nullopt);
    if (!format || !summary_) {
        showError(format ? tr("The run is not complete; resume it first.")
                         : qstr(format.error().message));
        return false;
    }
    ds::DatasetReportInput in{
        &*plan_, &*summary_, json::object(), 0,
        core::report::make_provenance("Decision Studio", backend_ ? backend_->describe() : "",
                                      std::string())};
    auto w = core::report::write_report(ds::dataset_report(in), p, *format);
    if (!w) showError(qstr(w.error().message));
    return static_cast<bool>(w);
}

QString DataWindow::statusText() const {
    return status_;
}

void DataWindow::showError(const QString& message) {
    status_ = message;
    status_label_->setText(message);
}

void DataWindow::updateActions() {
    const bool b = busy();
    run_button_->setEnabled(!b && plan_ && backend_);
    resume_button_->setEnabled(!b && plan_ && backend_ && !run_dir_.isEmpty() && !summary_);
    cancel_button_->setEnabled(b);
    export_button_->setEnabled(!b && !run_dir_.isEmpty());
    calibrate_button_->setEnabled(!b && summary_.has_value() && plan_ && plan_->labelled());
}

engine::Result<core::eval::CalibrationInput> DataWindow::calibrationInput(
    const core::Schema* policy) const {
    if (busy() || run_dir_.isEmpty())
        return engine::bad_input("no finished dataset run is shown to calibrate from");
    // The journal itself: the folder's run.json names the data file, not a suite.
    return core::eval::read_calibration_input(
        (std::filesystem::path(run_dir_.toStdString()) / "journal.jsonl"), policy, std::nullopt);
}

void DataWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && ds::data_format_for(urls[0].toLocalFile().toStdString()))
        event->acceptProposedAction();
}

void DataWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1) openData(urls[0].toLocalFile());
}

}  // namespace ui
