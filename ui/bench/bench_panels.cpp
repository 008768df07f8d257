#include "ui/bench/bench_panels.h"

#include <QAction>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <map>

#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_table.h"
#include "core/reports/escalation_chart.h"
#include "ui/bench/bench_items_model.h"
#include "ui/bench/bench_window.h"
#include "ui/bench/comparison_items_model.h"
#include "ui/charts/chart_widget.h"
#include "ui/charts/item_id_filter.h"
#include "ui/i18n/format.h"

namespace ui {

namespace {

namespace eval = core::eval;

// A read-only, sortable table of whole rows with an interactive header.
void setUpTable(QTableView* table, QSortFilterProxyModel* proxy) {
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
}

// A scroll area holding a grid, each chart at its own height as a report's page has it.
QGridLayout* addChartGrid(QScrollArea* scroll) {
    scroll->setWidgetResizable(true);
    auto* host = new QWidget(scroll);
    auto* column = new QVBoxLayout(host);
    auto* grid = new QGridLayout;
    column->addLayout(grid);
    column->addStretch(1);
    scroll->setWidget(host);
    return grid;
}

QString points(const std::optional<double>& v) {
    return v ? formatNumber(*v, 1) : QObject::tr("n/a");
}

}  // namespace

void BenchControls::build(QWidget* owner, QVBoxLayout* top, QAction* export_report) {
    auto* controls = new QHBoxLayout;
    suite_box = new QComboBox(owner);
    suite_box->setMinimumContentsLength(28);
    suite_box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    open = new QPushButton(BenchWindow::tr("Open suite…"), owner);
    profile_box = new QComboBox(owner);
    profile_box->setMinimumContentsLength(20);
    kind_box = new QComboBox(owner);
    for (const char* k : {"gpu", "cpu", "api"}) kind_box->addItem(QString::fromLatin1(k));
    kind_box->setToolTip(BenchWindow::tr("How Speed is scored (JevBench endpoint kinds)"));
    workers = new QSpinBox(owner);
    workers->setRange(1, 64);
    workers->setValue(2);
    limit = new QSpinBox(owner);
    limit->setRange(0, 100000);
    limit->setSpecialValueText(BenchWindow::tr("all"));
    mode_box = new QComboBox(owner);
    mode_box->addItem(BenchWindow::tr("slot"), static_cast<int>(eval::RunMode::Slot));
    mode_box->addItem(BenchWindow::tr("generative"), static_cast<int>(eval::RunMode::Generative));
    mode_box->addItem(BenchWindow::tr("both"), static_cast<int>(eval::RunMode::Both));
    mode_box->setToolTip(BenchWindow::tr(
        "How each item is asked: the slot readout (one pass), generative JSON (parsed "
        "strictly), or both one after the other on the same endpoint"));
    gen_tokens = new QSpinBox(owner);
    gen_tokens->setRange(0, 4096);
    gen_tokens->setSpecialValueText(BenchWindow::tr("auto"));
    gen_tokens->setToolTip(
        BenchWindow::tr("Completion tokens a generative answer may use (auto: what the item's "
                        "questions need)"));
    run = new QPushButton(BenchWindow::tr("Run"), owner);
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    cancel = new QPushButton(BenchWindow::tr("Cancel"), owner);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    resume = new QPushButton(BenchWindow::tr("Resume"), owner);
    resume->setToolTip(BenchWindow::tr("Continue the selected interrupted run from its journal"));
    export_button = new QPushButton(BenchWindow::tr("Export report…"), owner);
    export_button->setObjectName(QStringLiteral("exportReportButton"));
    export_button->setToolTip(export_report->toolTip());
    QObject::connect(export_button, &QPushButton::clicked, export_report, &QAction::trigger);
    calibrate = new QPushButton(BenchWindow::tr("Calibrate…"), owner);
    calibrate->setObjectName(QStringLiteral("calibrateButton"));
    calibrate->setToolTip(
        BenchWindow::tr("Fit the open policy's temperature from this run's labelled questions"));
    controls->addWidget(new QLabel(BenchWindow::tr("Suite:"), owner));
    controls->addWidget(suite_box, 2);
    controls->addWidget(open);
    controls->addWidget(new QLabel(BenchWindow::tr("Endpoint:"), owner));
    controls->addWidget(profile_box, 1);
    controls->addWidget(kind_box);
    top->addLayout(controls);
    // The run's settings and actions on a line of their own.
    auto* settings_row = new QHBoxLayout;
    settings_row->addWidget(new QLabel(BenchWindow::tr("Workers:"), owner));
    settings_row->addWidget(workers);
    settings_row->addWidget(new QLabel(BenchWindow::tr("Items:"), owner));
    settings_row->addWidget(limit);
    settings_row->addWidget(new QLabel(BenchWindow::tr("Mode:"), owner));
    settings_row->addWidget(mode_box);
    settings_row->addWidget(new QLabel(BenchWindow::tr("Max tokens:"), owner));
    settings_row->addWidget(gen_tokens);
    settings_row->addStretch(1);
    settings_row->addWidget(run);
    settings_row->addWidget(cancel);
    settings_row->addWidget(resume);
    settings_row->addWidget(export_button);
    settings_row->addWidget(calibrate);
    top->addLayout(settings_row);
}

BenchItemsPage::BenchItemsPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(BenchWindow::tr("Filter items (id, tier, family, labels…)"));
    filter_->setClearButtonEnabled(true);
    items_ = new BenchItemsModel(this);
    proxy_ = new ItemIdFilter(BenchItemsModel::Id, this);
    proxy_->setSourceModel(items_);
    proxy_->setSortRole(BenchItemsModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("itemsTable"));
    setUpTable(table_, proxy_);
    table_->setColumnWidth(BenchItemsModel::Id, 200);
    chosen_line_ = new QWidget(this);
    chosen_line_->setObjectName(QStringLiteral("chartChoiceLine"));
    auto* chosen_row = new QHBoxLayout(chosen_line_);
    chosen_row->setContentsMargins(0, 0, 0, 0);
    chosen_text_ = new QLabel(chosen_line_);
    chosen_text_->setObjectName(QStringLiteral("chartChoiceText"));
    auto* clear = new QPushButton(BenchWindow::tr("Show all items"), chosen_line_);
    clear->setObjectName(QStringLiteral("chartChoiceClear"));
    chosen_row->addWidget(chosen_text_, 1);
    chosen_row->addWidget(clear);
    chosen_line_->hide();
    layout->addWidget(filter_);
    layout->addWidget(chosen_line_);
    layout->addWidget(table_, 1);
    connect(filter_, &QLineEdit::textChanged, proxy_,
            [this](const QString& text) { proxy_->setFilterFixedString(text); });
    const auto clearHere = [this] {
        if (!filtered()) return;
        showAll();
        if (on_cleared) on_cleared();
    };
    connect(clear, &QPushButton::clicked, this, clearHere);
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    esc->setContext(Qt::WidgetWithChildrenShortcut);
    connect(esc, &QShortcut::activated, this, clearHere);
}

int BenchItemsPage::sourceRow(const QModelIndex& index) const {
    return proxy_->mapToSource(index).row();
}

void BenchItemsPage::showOnly(const QStringList& items, const QString& what) {
    proxy_->setItems(items);
    chosen_text_->setText(
        BenchWindow::tr("Showing %n item(s) of %1", nullptr, static_cast<int>(items.size()))
            .arg(what));
    chosen_line_->show();
}

void BenchItemsPage::showAll() {
    proxy_->clearItems();
    chosen_line_->hide();
}

bool BenchItemsPage::filtered() const {
    return proxy_->filtering();
}

BenchChartsPage::BenchChartsPage(QWidget* parent) : QScrollArea(parent) {
    grid_ = addChartGrid(this);
}

void BenchChartsPage::setCharts(std::vector<core::report::ReportChart> made,
                                std::optional<size_t> wide_at) {
    qDeleteAll(views_);
    views_.clear();
    // Two charts a row; the wide one has a row of its own, and the charts after it continue
    // below it (never in its row, where they would lie on top of it).
    int row = 0, column = 0;
    for (size_t i = 0; i < made.size(); ++i) {
        const bool wide = wide_at && *wide_at == i;
        auto* view = new ChartWidget(std::move(made[i]));
        // The latency histogram is the chart worth zooming into (a long tail).
        view->setZoomable(view->chart().y_title == "items");
        if (wide && column != 0) {
            ++row;
            column = 0;
        }
        grid_->addWidget(view, row, column, 1, wide ? 2 : 1);
        if (wide || column == 1) {
            ++row;
            column = 0;
        } else {
            column = 1;
        }
        views_.push_back(view);
        QObject::connect(view, &ChartWidget::itemsChosen, this,
                         [this, view](const QStringList& items, const QString& what) {
                             for (ChartWidget* other : views_)
                                 if (other != view && other->chosenBin() >= 0) {
                                     QSignalBlocker quiet(other);
                                     other->clearChoice();
                                 }
                             if (on_choice.chosen) on_choice.chosen(items, what);
                         });
        QObject::connect(view, &ChartWidget::choiceCleared, this, [this] {
            if (on_choice.cleared) on_choice.cleared();
        });
    }
}

void BenchChartsPage::clearChoice() {
    for (ChartWidget* v : views_) {
        QSignalBlocker quiet(v);
        v->clearChoice();
    }
}

std::vector<core::report::ReportChart> BenchChartsPage::charts() const {
    std::vector<core::report::ReportChart> out;
    for (const ChartWidget* v : views_) out.push_back(v->chart());
    return out;
}

BenchScorecard::BenchScorecard(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::RichText);
}

void BenchScorecard::showResult(const core::eval::BenchResult& result) {
    if (result.run_score) {
        const auto& s = *result.run_score;
        setText(BenchWindow::tr(
                    "<b>Accuracy</b> %1% (%2/%3, %4 failed) · <b>Intelligence</b> %5 · "
                    "<b>Calibration</b> %6 · <b>Speed</b> %7 (p50 %8 s) · <b>Cost</b> %9%10 · "
                    "<b>Composite</b> %11 <i>(public items only: an estimate, not a rank)</i>")
                    .arg(formatNumber(s.accuracy * 100, 1))
                    .arg(s.correct)
                    .arg(s.n)
                    .arg(s.failed)
                    .arg(points(s.public_axes.intelligence))
                    .arg(points(s.public_axes.calibration))
                    .arg(points(s.public_axes.speed))
                    .arg(s.p50_s ? formatNumber(*s.p50_s, 3) : BenchWindow::tr("n/a"))
                    .arg(points(s.public_axes.cost))
                    .arg(s.cost_is_estimate ? BenchWindow::tr(" (estimate)") : QString())
                    .arg(points(s.public_estimate)));
    } else if (result.suite_score) {
        const auto& s = *result.suite_score;
        setText(BenchWindow::tr("<b>Cases correct</b> %1% (%2/%3, %4 failed) · <b>Answers "
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
                    .arg(s.p50_s ? formatNumber(*s.p50_s, 3) : BenchWindow::tr("n/a")));
    }
}

void BenchChartsPage::showResult(const core::eval::BenchResult& result,
                                 const std::optional<core::eval::Leaderboard>& leaderboard) {
    namespace report = core::report;
    // The charts of this run's report, built by the same functions from the same values.
    std::vector<report::ReportChart> made;
    std::vector<double> latencies;
    std::vector<std::string> latency_ids;
    for (const auto& r : result.run.records)
        if (r.ok) {
            latencies.push_back(r.latency_s);
            latency_ids.push_back(r.id);
        }
    // Who sits where: each item's confidence and groups, from the rows the Items page shows.
    const std::vector<core::eval::ItemRow> rows =
        core::eval::item_rows(result.suite, result.run.records);
    std::vector<report::ChartItem> confidences;
    std::map<std::string, std::vector<std::string>> by_tier, by_family;
    for (const auto& row : rows) {
        if (row.p >= 0) confidences.push_back({row.id, row.p});
        by_tier[row.tier].push_back(row.id);
        by_family[row.family].push_back(row.id);
    }
    std::optional<size_t> wide;
    if (result.run_score) {
        const auto& s = *result.run_score;
        made.push_back(report::reliability_chart(
            s.reliability_all, BenchWindow::tr("Reliability (all items)").toStdString(),
            confidences));
        made.push_back(report::latency_chart(latencies, latency_ids));
        made.push_back(report::accuracy_chart(
            s.by_tier, BenchWindow::tr("Accuracy by tier").toStdString(), by_tier));
        made.push_back(report::accuracy_chart(
            s.by_family, BenchWindow::tr("Accuracy by family").toStdString(), by_family));
        made.push_back(report::axes_chart(s.public_axes));
        if (leaderboard) {
            // The leaderboard's long model names get the whole width and a row of their own.
            wide = made.size();
            made.push_back(report::leaderboard_chart(*leaderboard, s.public_estimate));
        }
    } else if (result.suite_score) {
        const auto& s = *result.suite_score;
        // Every answer is a point of this diagram: an item with two answers can sit in two bins.
        std::vector<report::ChartItem> answers;
        for (const auto& r : result.run.records)
            if (r.ok)
                for (const auto& q : r.questions)
                    if (!q.probs.empty())
                        answers.push_back(
                            {r.id, *std::max_element(q.probs.begin(), q.probs.end())});
        made.push_back(report::reliability_chart(
            s.reliability, BenchWindow::tr("Reliability (every answer)").toStdString(), answers));
        made.push_back(report::latency_chart(latencies, latency_ids));
        made.push_back(report::accuracy_chart(
            s.by_tier, BenchWindow::tr("Accuracy by tier").toStdString(), by_tier));
        made.push_back(report::accuracy_chart(
            s.by_domain, BenchWindow::tr("Accuracy by domain").toStdString(), by_family));
    }
    // The stage-2 escalation curve of a labelled run (the report's, from the same values).
    if (auto e = report::bench_escalation_chart(result.suite, result.run.records))
        made.push_back(std::move(*e));
    setCharts(std::move(made), wide);
}

BenchComparisonPage::BenchComparisonPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("comparisonPage"));
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("comparisonSummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    items_ = new ComparisonItemsModel(this);
    proxy_ = new ItemIdFilter(ComparisonItemsModel::Id, this);
    proxy_->setSourceModel(items_);
    proxy_->setSortRole(ComparisonItemsModel::SortRole);
    split_ = new QSplitter(Qt::Vertical, this);
    split_->setChildrenCollapsible(false);
    table_ = new QTableView(split_);
    table_->setObjectName(QStringLiteral("comparisonTable"));
    setUpTable(table_, proxy_);
    table_->sortByColumn(-1, Qt::AscendingOrder);
    table_->setColumnWidth(ComparisonItemsModel::Id, 160);
    for (int c = ComparisonItemsModel::Tier; c < ComparisonItemsModel::Reason; ++c)
        table_->setColumnWidth(c, 118);
    auto* charts = new QScrollArea(split_);
    grid_ = addChartGrid(charts);
    split_->addWidget(table_);
    split_->addWidget(charts);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 3);
    layout->addWidget(summary_);
    layout->addWidget(split_, 1);
}

void BenchComparisonPage::clearCharts() {
    qDeleteAll(views_);
    views_.clear();
}

void BenchComparisonPage::clear() {
    clearCharts();
    items_->setRows({});
    summary_->clear();
}

void BenchComparisonPage::showComparison(const core::compare::SuiteComparison& c,
                                         std::vector<core::compare::ItemComparisonRow> rows) {
    clearCharts();
    const auto secs = [](const std::optional<double>& v) {
        return v ? formatNumber(*v, 3) + QStringLiteral(" s") : BenchWindow::tr("n/a");
    };
    summary_->setText(
        BenchWindow::tr(
            "<b>Slot</b>: accuracy %1% (%2/%3) · p50 %4 · p95 %5 · %6 pass(es) &nbsp;&nbsp; "
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
        grid_->addWidget(view, at[0], at[1], at[2], at[3]);
        views_.push_back(view);
        // A point of the per-item chart narrows the table above to its item.
        QObject::connect(
            view, &ChartWidget::itemsChosen, this,
            [this](const QStringList& items, const QString&) { proxy_->setItems(items); });
        QObject::connect(view, &ChartWidget::choiceCleared, this, [this] { proxy_->clearItems(); });
    }
    views_.front()->setZoomable(true);
    items_->setRows(std::move(rows));
    // The table as tall as its rows (up to a third of the page), the charts the rest.
    const int row_h = table_->verticalHeader()->defaultSectionSize();
    const int table_h = std::min(table_->horizontalHeader()->sizeHint().height() +
                                     row_h * items_->rowCount() + 2 * table_->frameWidth() + 4,
                                 std::max(row_h * 4, split_->height() / 3));
    split_->setSizes({table_h, std::max(600, split_->height() - table_h)});
}

std::vector<core::report::ReportChart> BenchComparisonPage::charts() const {
    std::vector<core::report::ReportChart> out;
    for (const ChartWidget* v : views_) out.push_back(v->chart());
    return out;
}

}  // namespace ui
