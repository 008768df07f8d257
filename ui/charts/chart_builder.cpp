#include "ui/charts/chart_builder.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

namespace ui {

namespace {

using core::report::ReportChart;

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

// Axis text, lines and grid in the palette's colours (the chart's own ground is the view's).
void styleAxis(QAbstractAxis* axis, const QPalette& palette) {
    axis->setLabelsBrush(palette.color(QPalette::Text));
    axis->setTitleBrush(palette.color(QPalette::Text));
    axis->setLinePenColor(palette.color(QPalette::Mid));
    axis->setGridLineColor(palette.color(QPalette::Midlight));
}

void addAxis(QChart* chart, QAbstractAxis* axis, Qt::Alignment at, const std::string& title,
             const QPalette& palette) {
    axis->setTitleText(qstr(title));
    styleAxis(axis, palette);
    chart->addAxis(axis, at);
    for (QAbstractSeries* s : chart->series()) s->attachAxis(axis);
}

QString numberFormat(const ReportChart& c) {
    return QStringLiteral("%.%1f").arg(std::max(0, c.value_decimals));
}

void buildCategory(QChart* chart, const ReportChart& c, const QPalette& palette) {
    // Horizontal bars run bottom-up in Qt Charts; the categories are reversed so that the first
    // one is on top, as in the reports.
    const bool flip = c.horizontal;
    const int n = static_cast<int>(c.categories.size());
    QAbstractBarSeries* series = c.horizontal
                                     ? static_cast<QAbstractBarSeries*>(new QHorizontalBarSeries)
                                     : static_cast<QAbstractBarSeries*>(new QBarSeries);
    for (const auto& set : c.sets) {
        auto* bars = new QBarSet(qstr(set.name));
        for (int k = 0; k < n; ++k) {
            const int from = flip ? n - 1 - k : k;
            *bars << (static_cast<size_t>(from) < set.values.size()
                          ? set.values[static_cast<size_t>(from)]
                          : 0.0);
        }
        bars->setSelectedColor(palette.color(QPalette::Highlight));
        for (int h : c.highlighted)
            if (h >= 0 && h < n) bars->selectBar(flip ? n - 1 - h : h);
        series->append(bars);
    }
    series->setLabelsVisible(c.show_values);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsPrecision(c.value_decimals + 2);
    series->setLabelsFormat(QStringLiteral("@value") + qstr(c.value_suffix));
    chart->addSeries(series);
    series->setLabelsVisible(c.show_values);  // again once the chart's theme decorated it
    QStringList names;
    for (int k = 0; k < n; ++k)
        names << qstr(c.categories[static_cast<size_t>(flip ? n - 1 - k : k)]);
    auto* categories = new QBarCategoryAxis;
    categories->append(names);
    auto* values = new QValueAxis;
    values->setRange(c.min, c.max);
    values->setLabelFormat(numberFormat(c) + qstr(c.value_suffix).replace('%', "%%"));
    addAxis(chart, categories, c.horizontal ? Qt::AlignLeft : Qt::AlignBottom,
            c.horizontal ? c.y_title : c.x_title, palette);
    addAxis(chart, values, c.horizontal ? Qt::AlignBottom : Qt::AlignLeft,
            c.horizontal ? c.x_title : c.y_title, palette);
    chart->legend()->setVisible(c.sets.size() > 1);
}

QAbstractAxis* xAxis(const ReportChart& c) {
    // Item ids under the points when there are few enough to read.
    if (!c.x_labels.empty() && c.x_labels.size() <= 24) {
        auto* axis = new QCategoryAxis;
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (size_t i = 0; i < c.x_labels.size(); ++i)
            axis->append(qstr(c.x_labels[i]), static_cast<double>(i));
        axis->setRange(c.x_min, c.x_max);
        axis->setLabelsAngle(c.x_labels.size() > 6 ? -45 : 0);
        return axis;
    }
    auto* axis = new QValueAxis;
    axis->setRange(c.x_min, c.x_max);
    axis->setLabelFormat(QStringLiteral("%.4g"));
    return axis;
}

void buildXy(QChart* chart, const ReportChart& c, const QPalette& palette) {
    for (const auto& s : c.series) {
        QXYSeries* xy = s.line ? static_cast<QXYSeries*>(new QLineSeries)
                               : static_cast<QXYSeries*>(new QScatterSeries);
        xy->setName(qstr(s.name));
        for (const auto& [x, y] : s.points) xy->append(x, y);
        // Points where each one means something (a reliability bin, an item); a histogram's
        // step outline is a line only.
        if (s.line) xy->setPointsVisible(!s.point_labels.empty() || !c.x_labels.empty());
        chart->addSeries(xy);
    }
    for (const auto& mark : c.marks) {
        auto* line = new QLineSeries;
        line->setName(qstr(mark.label));
        line->append(mark.x, c.min);
        line->append(mark.x, c.max);
        QPen pen(palette.color(QPalette::Text), 1, Qt::DashLine);
        line->setPen(pen);
        chart->addSeries(line);
    }
    addAxis(chart, xAxis(c), Qt::AlignBottom, c.x_title, palette);
    if (c.log_y) {
        auto* y = new QLogValueAxis;
        y->setBase(10);
        y->setRange(std::max(c.min, 1e-9), c.max);
        y->setLabelFormat(QStringLiteral("%g"));
        addAxis(chart, y, Qt::AlignLeft, c.y_title, palette);
    } else {
        auto* y = new QValueAxis;
        y->setRange(c.min, c.max);
        y->setLabelFormat(QStringLiteral("%.4g"));
        addAxis(chart, y, Qt::AlignLeft, c.y_title, palette);
    }
    chart->legend()->setVisible(c.series.size() + c.marks.size() > 1);
}

}  // namespace

bool chart_has_data(const ReportChart& c) {
    if (!c.bins.empty())
        return std::any_of(c.bins.begin(), c.bins.end(), [](const auto& b) { return b.count > 0; });
    if (c.kind == ReportChart::Kind::Category)
        return !c.categories.empty() &&
               std::any_of(c.sets.begin(), c.sets.end(),
                           [](const auto& s) { return !s.values.empty(); });
    return std::any_of(c.series.begin(), c.series.end(),
                       [](const auto& s) { return !s.points.empty(); });
}

QChart* build_qchart(const ReportChart& c, const QPalette& palette) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setTitle(qstr(c.title));
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
    chart->legend()->setAlignment(Qt::AlignBottom);
    if (!chart_has_data(c)) {
        chart->legend()->setVisible(false);
        return chart;
    }
    if (c.kind == ReportChart::Kind::Category)
        buildCategory(chart, c, palette);
    else
        buildXy(chart, c, palette);
    return chart;
}

QAbstractSeries* anchor_series(QChart* chart) {
    const auto all = chart->series();
    return all.isEmpty() ? nullptr : all.front();
}

}  // namespace ui
