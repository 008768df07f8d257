#include "ui/bench/bench_charts.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPalette>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ui::charts {

namespace {

QChart* newChart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    applyPaletteTheme(chart);
    return chart;
}

QValueAxis* valueAxis(double lo, double hi, const QString& title, const char* format = "%.1f") {
    auto* axis = new QValueAxis;
    axis->setRange(lo, hi);
    axis->setTitleText(title);
    axis->setLabelFormat(QString::fromLatin1(format));
    return axis;
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    if (!chart->axes(Qt::Horizontal).contains(x)) chart->addAxis(x, Qt::AlignBottom);
    if (!chart->axes(Qt::Vertical).contains(y)) chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

void applyPaletteTheme(QChart* chart) {
    const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
}

QChart* reliability(const core::eval::Ece& ece, const QString& title) {
    QChart* chart = newChart(title);
    auto* x = valueAxis(0, 1, QObject::tr("confidence"), "%.1f");
    auto* y = valueAxis(0, 1, QObject::tr("accuracy"), "%.1f");
    auto* ideal = new QLineSeries;
    ideal->setName(QObject::tr("ideal"));
    ideal->append(0, 0);
    ideal->append(1, 1);
    QPen dashed = ideal->pen();
    dashed.setStyle(Qt::DashLine);
    ideal->setPen(dashed);
    attach(chart, ideal, x, y);
    auto* line = new QLineSeries;
    line->setName(QObject::tr("accuracy"));
    line->setPointsVisible(true);
    line->setPointLabelsVisible(true);
    line->setPointLabelsFormat(QStringLiteral("@yPoint"));
    line->setPointLabelsClipping(false);
    // Bin counts on a second axis (right): how much each point is worth.
    auto* counts = new QScatterSeries;
    counts->setName(QObject::tr("items per bin (right axis)"));
    counts->setMarkerSize(7);
    int most = 1;
    for (const auto& bin : ece.bins) {
        if (bin.n <= 0) continue;
        line->append(bin.confidence, bin.accuracy);
        counts->append(bin.confidence, bin.n);
        most = std::max(most, bin.n);
    }
    attach(chart, line, x, y);
    auto* n_axis = valueAxis(0, most * 1.1, QObject::tr("items"), "%.0f");
    chart->addSeries(counts);
    chart->addAxis(n_axis, Qt::AlignRight);
    counts->attachAxis(x);
    counts->attachAxis(n_axis);
    chart->setTitle(title + QObject::tr(" (ECE %1, %2 items)").arg(ece.ece, 0, 'f', 3).arg(ece.n));
    return chart;
}

QChart* latency(const std::vector<double>& latencies_s) {
    QChart* chart = newChart(QObject::tr("Latency"));
    if (latencies_s.empty()) return chart;
    std::vector<double> ms;
    for (double s : latencies_s) ms.push_back(s * 1000.0);
    const double lo = *std::min_element(ms.begin(), ms.end());
    const double hi = std::max(lo + 1e-3, *std::max_element(ms.begin(), ms.end()));
    constexpr int kBins = 16;
    const double width = (hi - lo) / kBins;
    std::vector<int> counts(kBins, 0);
    for (double v : ms)
        ++counts[static_cast<size_t>(std::clamp(static_cast<int>((v - lo) / width), 0, kBins - 1))];
    // A step outline: one flat segment per bin.
    auto* hist = new QLineSeries;
    hist->setName(QObject::tr("items"));
    hist->append(lo, 0);
    for (int b = 0; b < kBins; ++b) {
        hist->append(lo + b * width, counts[static_cast<size_t>(b)]);
        hist->append(lo + (b + 1) * width, counts[static_cast<size_t>(b)]);
    }
    hist->append(hi, 0);
    const int top = *std::max_element(counts.begin(), counts.end());
    auto* x = valueAxis(lo, hi, QObject::tr("milliseconds"), "%.0f");
    auto* y = valueAxis(0, top + 1, QObject::tr("items"), "%.0f");
    attach(chart, hist, x, y);
    for (auto [q, name] : {std::pair{0.5, "p50"}, std::pair{0.95, "p95"}}) {
        const double at = quantile(ms, q);
        auto* mark = new QLineSeries;
        mark->setName(QStringLiteral("%1 %2 ms").arg(QLatin1String(name)).arg(at, 0, 'f', 1));
        mark->append(at, 0);
        mark->append(at, top + 1);
        QPen pen = mark->pen();
        pen.setStyle(Qt::DashLine);
        mark->setPen(pen);
        attach(chart, mark, x, y);
    }
    return chart;
}

QChart* accuracyBy(const std::map<std::string, core::eval::GroupStats>& groups,
                   const QString& title) {
    QChart* chart = newChart(title);
    auto* set = new QBarSet(QObject::tr("accuracy"));
    QStringList names;
    for (const auto& [key, g] : groups) {
        names << QStringLiteral("%1 (%2)").arg(QString::fromStdString(key)).arg(g.n);
        *set << g.accuracy * 100.0;
    }
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    auto* x = new QBarCategoryAxis;
    x->append(names);
    attach(chart, series, x, valueAxis(0, 100, QObject::tr("% correct"), "%.0f"));
    chart->legend()->setVisible(false);
    return chart;
}

QChart* axes(const core::eval::Axes& a) {
    QChart* chart = newChart(QObject::tr("Scorecard axes"));
    auto* set = new QBarSet(QObject::tr("axis"));
    QStringList names;
    const std::pair<QString, std::optional<double>> rows[] = {
        {QObject::tr("Intelligence"), a.intelligence},
        {QObject::tr("Calibration"), a.calibration},
        {QObject::tr("Speed"), a.speed},
        {QObject::tr("Cost"), a.cost}};
    for (const auto& [name, value] : rows) {
        names << (value ? name : name + QObject::tr(" (n/a)"));
        *set << value.value_or(0.0);
    }
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPrecision(3);
    auto* x = new QBarCategoryAxis;
    x->append(names);
    attach(chart, series, x, valueAxis(0, 100, QObject::tr("points"), "%.0f"));
    chart->legend()->setVisible(false);
    return chart;
}

QChart* leaderboard(const core::eval::Leaderboard& board, std::optional<double> this_run) {
    QChart* chart = newChart(
        QObject::tr("Leaderboard (JevBench %1)").arg(QString::fromStdString(board.revision)));
    struct Entry {
        QString name;
        double score;
        bool mine;
    };
    std::vector<Entry> entries;
    for (const auto& row : board.rows)
        entries.push_back({QString::fromStdString(row.display.empty() ? row.key : row.display),
                           row.score, false});
    if (this_run) entries.push_back({QObject::tr("THIS RUN (estimate)"), *this_run, true});
    // Best on top: a horizontal bar chart draws its first category at the bottom.
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.score < b.score; });
    auto* others = new QBarSet(QObject::tr("published"));
    auto* mine = new QBarSet(QObject::tr("this run"));
    QStringList names;
    for (const auto& e : entries) {
        names << e.name;
        *others << (e.mine ? 0.0 : e.score);
        *mine << (e.mine ? e.score : 0.0);
    }
    mine->setColor(QColor(0xe6, 0x51, 0x00));
    auto* series = new QHorizontalStackedBarSeries;
    series->append(others);
    series->append(mine);
    auto* y = new QBarCategoryAxis;
    y->append(names);
    chart->addSeries(series);
    auto* x = valueAxis(0, 100, QObject::tr("JevBench score"), "%.0f");
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    return chart;
}

QChart* latencyPerItem(const std::vector<core::compare::ItemComparisonRow>& rows) {
    QChart* chart = newChart(QObject::tr("Latency per item"));
    auto* slot = new QLineSeries;
    slot->setName(QObject::tr("slot"));
    auto* gen = new QLineSeries;
    gen->setName(QObject::tr("generative"));
    QStringList ids;
    double lo = 0, hi = 0;
    auto extend = [&](double ms) {
        lo = lo > 0 ? std::min(lo, ms) : ms;
        hi = std::max(hi, ms);
    };
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        ids << QString::fromStdString(r.id);
        const double x = static_cast<double>(i);
        if (r.slot_latency_s && *r.slot_latency_s > 0) {
            slot->append(x, *r.slot_latency_s * 1000.0);
            extend(*r.slot_latency_s * 1000.0);
        }
        if (r.generative_latency_s && *r.generative_latency_s > 0) {
            gen->append(x, *r.generative_latency_s * 1000.0);
            extend(*r.generative_latency_s * 1000.0);
        }
    }
    if (ids.isEmpty() || hi <= 0) return chart;
    auto* x = new QBarCategoryAxis;
    x->append(ids);
    if (ids.size() > 6) x->setLabelsAngle(-60);
    auto* y = new QLogValueAxis;
    y->setBase(10);
    y->setLabelFormat(QStringLiteral("%g"));
    y->setTitleText(QObject::tr("milliseconds (log)"));
    // Whole decades around the values (with a margin), so both sides' points sit inside the plot.
    y->setRange(std::pow(10.0, std::floor(std::log10(lo / 1.5))),
                std::pow(10.0, std::ceil(std::log10(hi * 1.5))));
    y->setMinorTickCount(8);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries* s : {slot, gen}) {
        chart->addSeries(s);  // takes the theme's next colour
        s->attachAxis(x);
        s->attachAxis(y);
        s->setPointsVisible(true);
        QPen pen = s->pen();
        pen.setWidth(2);
        s->setPen(pen);
    }
    return chart;
}

QChart* agreementValidity(const core::compare::SuiteComparison& c) {
    QChart* chart = newChart(QObject::tr("Generative validity and agreement"));
    auto* set = new QBarSet(QObject::tr("rate"));
    *set << c.valid_share * 100.0 << c.agreement * 100.0;
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value%"));
    series->setLabelsPrecision(3);
    auto* x = new QBarCategoryAxis;
    x->append({QObject::tr("valid JSON (%1/%2)").arg(c.generative_valid).arg(c.generative_replies),
               QObject::tr("agreement (%1/%2)").arg(c.agreeing).arg(c.compared)});
    chart->setTitle(QObject::tr("Generative validity (of %1 replies) and agreement (of %2 answers "
                                "both gave)")
                        .arg(c.generative_replies)
                        .arg(c.compared));
    attach(chart, series, x, valueAxis(0, 100, QObject::tr("%"), "%.0f"));
    chart->legend()->setVisible(false);
    return chart;
}

QChart* accuracyByMode(const core::compare::SuiteComparison& c) {
    QChart* chart = newChart(QObject::tr("Accuracy of each mode"));
    auto* slot = new QBarSet(QObject::tr("slot"));
    *slot << c.slot.accuracy * 100.0;
    auto* gen = new QBarSet(QObject::tr("generative"));
    *gen << c.generative.accuracy * 100.0;
    auto* series = new QBarSeries;
    series->append(slot);
    series->append(gen);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value%"));
    series->setLabelsPrecision(3);
    auto* x = new QBarCategoryAxis;
    x->append(QObject::tr("answers correct"));
    chart->setTitle(QObject::tr("Accuracy of each mode (slot %1/%2, generative %3/%4 answers)")
                        .arg(c.slot.correct)
                        .arg(c.slot.answers)
                        .arg(c.generative.correct)
                        .arg(c.generative.answers));
    attach(chart, series, x, valueAxis(0, 100, QObject::tr("% correct"), "%.0f"));
    return chart;
}

}  // namespace ui::charts
