#include "charts/qt_chart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace charts {

namespace {

using core::report::ReportChart;

// What a chart's own text items are (QGraphicsItem::data keys and values).
constexpr int kRoleKey = 0, kSeriesKey = 1, kPointKey = 2;
const QString kNoDataRole = QStringLiteral("no-data");
const QString kPointLabelRole = QStringLiteral("point-label");
constexpr double kAnnotationZ = 1000;  // above the series
// Marks in orange on either scheme: the series colours start with blue, a palette's highlight
// is often blue too.
const QColor kMarkColor(230, 120, 20);

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

// Axis text, lines and grid in the look's colours and font (after the chart's theme decorated
// the axis, which would otherwise set its own).
void styleAxis(QAbstractAxis* axis, const ChartLook& look) {
    axis->setLabelsFont(look.label_font);
    axis->setTitleFont(look.label_font);
    axis->setLabelsColor(look.text);
    axis->setTitleBrush(look.text);
    axis->setLinePenColor(look.axis);
    axis->setGridLineColor(look.grid);
}

void addAxis(QChart* chart, QAbstractAxis* axis, Qt::Alignment at, const std::string& title,
             const ChartLook& look) {
    axis->setTitleText(qstr(title));
    chart->addAxis(axis, at);
    styleAxis(axis, look);
    for (QAbstractSeries* s : chart->series()) s->attachAxis(axis);
}

// Ticks at round values (1, 2, 2.5 or 5 times a power of ten, four or five of them) whatever the
// range, kept round as the range changes (zoom, pan).
void setRoundTicks(QValueAxis* axis, double lo, double hi) {
    if (!(hi > lo)) return;
    const double raw = (hi - lo) / 4;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * magnitude >= raw * 0.999) {
            step = m * magnitude;
            break;
        }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
}

QValueAxis* valueAxis(double lo, double hi, const QString& format) {
    auto* axis = new QValueAxis;
    axis->setRange(lo, hi);
    axis->setLabelFormat(format);
    setRoundTicks(axis, lo, hi);
    QObject::connect(axis, &QValueAxis::rangeChanged, axis,
                     [axis](qreal from, qreal to) { setRoundTicks(axis, from, to); });
    return axis;
}

QString numberFormat(const ReportChart& c) {
    return QStringLiteral("%.%1f").arg(std::max(0, c.value_decimals));
}

void hideFromLegend(QChart* chart, QAbstractSeries* series) {
    for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

bool isHighlighted(const ReportChart& c, int k) {
    return std::find(c.highlighted.begin(), c.highlighted.end(), k) != c.highlighted.end();
}

// Labels shown at the bars' ends: the chart's decimals and suffix, in the look's text colour.
void labelBars(QAbstractBarSeries* series, const ReportChart& c, const ChartLook& look) {
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsPrecision(c.value_decimals + 2);
    series->setLabelsFormat(QStringLiteral("@value") + qstr(c.value_suffix));
    series->setLabelsVisible(c.show_values);
    for (QBarSet* set : series->barSets()) {
        set->setLabelColor(look.text);
        set->setLabelFont(look.label_font);
    }
}

// Bars with one colour per category (a question's labels, as in its draw strip): stacked sets,
// one per category, each with its value at its own category only; highlighted ones outlined.
QAbstractBarSeries* perCategoryBars(const ReportChart& c, int n, bool flip) {
    QAbstractBarSeries* series =
        c.horizontal ? static_cast<QAbstractBarSeries*>(new QHorizontalStackedBarSeries)
                     : static_cast<QAbstractBarSeries*>(new QStackedBarSeries);
    const auto& values = c.sets.front().values;
    for (int from = 0; from < n; ++from) {
        const int at = flip ? n - 1 - from : from;
        auto* bars = new QBarSet(qstr(c.categories[static_cast<size_t>(from)]));
        for (int k = 0; k < n; ++k)
            *bars << (k == at && static_cast<size_t>(from) < values.size()
                          ? values[static_cast<size_t>(from)]
                          : 0.0);
        series->append(bars);
    }
    return series;
}

QAbstractBarSeries* setBars(const ReportChart& c, int n, bool flip, const ChartLook& look) {
    QAbstractBarSeries* series = c.horizontal
                                     ? static_cast<QAbstractBarSeries*>(new QHorizontalBarSeries)
                                     : static_cast<QAbstractBarSeries*>(new QBarSeries);
    for (size_t i = 0; i < c.sets.size(); ++i) {
        const auto& set = c.sets[i];
        auto* bars = new QBarSet(qstr(set.name));
        for (int k = 0; k < n; ++k) {
            const int from = flip ? n - 1 - k : k;
            *bars << (static_cast<size_t>(from) < set.values.size()
                          ? set.values[static_cast<size_t>(from)]
                          : 0.0);
        }
        bars->setSelectedColor(look.highlight);
        for (int h : c.highlighted)
            if (h >= 0 && h < n) bars->selectBar(flip ? n - 1 - h : h);
        series->append(bars);
    }
    return series;
}

// An error whisker per value of a one-set chart: a line from value - error to value + error
// across its bar.
void addWhiskers(QChart* chart, const ReportChart& c, int n, bool flip, const ChartLook& look) {
    if (c.sets.size() != 1) return;
    const auto& set = c.sets.front();
    for (int k = 0; k < n && static_cast<size_t>(k) < set.errors.size(); ++k) {
        const double e = set.errors[static_cast<size_t>(k)];
        if (!(e > 0) || static_cast<size_t>(k) >= set.values.size()) continue;
        const double v = set.values[static_cast<size_t>(k)];
        const double at = flip ? n - 1 - k : k;
        auto* whisker = new QLineSeries;
        if (c.horizontal) {
            whisker->append(v - e, at);
            whisker->append(v + e, at);
        } else {
            whisker->append(at, v - e);
            whisker->append(at, v + e);
        }
        chart->addSeries(whisker);
        whisker->setPen(QPen(look.text, 1.2));
        hideFromLegend(chart, whisker);
    }
}

void buildCategory(QChart* chart, const ReportChart& c, const ChartLook& look) {
    // Horizontal bars run bottom-up in Qt Charts; the categories are reversed so that the first
    // one is on top.
    const bool flip = c.horizontal;
    const int n = static_cast<int>(c.categories.size());
    const bool per_category = c.color_per_category && c.sets.size() == 1;
    QAbstractBarSeries* series =
        per_category ? perCategoryBars(c, n, flip) : setBars(c, n, flip, look);
    if (per_category) series->setBarWidth(0.7);
    chart->addSeries(series);
    // Colours and labels once the chart's theme has decorated the sets (it sets its own).
    for (int i = 0; i < series->count(); ++i) {
        QBarSet* bars = series->barSets().at(i);
        const QColor color = series_color(static_cast<size_t>(i));
        bars->setColor(color);
        bars->setPen(per_category && isHighlighted(c, i) ? QPen(look.text, 1.5) : QPen(color));
    }
    labelBars(series, c, look);
    addWhiskers(chart, c, n, flip, look);
    QStringList names;
    for (int k = 0; k < n; ++k)
        names << qstr(c.categories[static_cast<size_t>(flip ? n - 1 - k : k)]);
    auto* categories = new QBarCategoryAxis;
    categories->append(names);
    auto* values =
        valueAxis(c.min, c.max, numberFormat(c) + qstr(c.value_suffix).replace('%', "%%"));
    addAxis(chart, categories, c.horizontal ? Qt::AlignLeft : Qt::AlignBottom,
            c.horizontal ? c.y_title : c.x_title, look);
    addAxis(chart, values, c.horizontal ? Qt::AlignBottom : Qt::AlignLeft,
            c.horizontal ? c.x_title : c.y_title, look);
    chart->legend()->setVisible(!per_category && c.sets.size() > 1);
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
    return valueAxis(c.x_min, c.x_max, QStringLiteral("%.4g"));
}

// A text item of the chart's own, placed by place_annotations.
QGraphicsSimpleTextItem* annotation(QChart* chart, const QString& text, const QFont& font,
                                    const QColor& color, const QString& role) {
    auto* item = new QGraphicsSimpleTextItem(text, chart);
    item->setFont(font);
    item->setBrush(color);
    item->setPen(Qt::NoPen);
    item->setZValue(kAnnotationZ);
    item->setData(kRoleKey, role);
    return item;
}

void addXySeries(QChart* chart, const ReportChart& c, const ChartLook& look) {
    for (size_t i = 0; i < c.series.size(); ++i) {
        const auto& s = c.series[i];
        QXYSeries* xy = s.line ? static_cast<QXYSeries*>(new QLineSeries)
                               : static_cast<QXYSeries*>(new QScatterSeries);
        xy->setName(qstr(s.name));
        for (const auto& [x, y] : s.points) xy->append(x, y);
        // Points where each one means something (a reliability bin, an item); a histogram's
        // step outline is a line only.
        if (s.line) xy->setPointsVisible(!s.point_labels.empty() || !c.x_labels.empty());
        chart->addSeries(xy);
        // The ideal line of a reliability diagram is a reference, not data: dashed, muted.
        const bool reference = s.name == "ideal";
        QPen pen(reference ? look.axis : series_color(i), reference ? 1.0 : 2.0);
        if (reference) pen.setStyle(Qt::DashLine);
        xy->setPen(pen);
        xy->setColor(pen.color());
        if (auto* scatter = qobject_cast<QScatterSeries*>(xy)) {
            scatter->setMarkerSize(7);
            scatter->setBorderColor(pen.color());
        }
        const int at = static_cast<int>(chart->series().size()) - 1;
        for (size_t k = 0; k < s.point_labels.size() && k < s.points.size(); ++k) {
            if (s.point_labels[k].empty()) continue;
            auto* label = annotation(chart, qstr(s.point_labels[k]), look.label_font, look.text,
                                     kPointLabelRole);
            label->setData(kSeriesKey, at);
            label->setData(kPointKey, static_cast<int>(k));
        }
    }
}

void buildXy(QChart* chart, const ReportChart& c, const ChartLook& look) {
    addXySeries(chart, c, look);
    for (const auto& mark : c.marks) {
        auto* line = new QLineSeries;
        line->setName(qstr(mark.label));
        line->append(mark.x, c.min);
        line->append(mark.x, c.max);
        chart->addSeries(line);
        line->setPen(QPen(look.mark, 1.2, Qt::DashLine));
    }
    addAxis(chart, xAxis(c), Qt::AlignBottom, c.x_title, look);
    if (c.log_y) {
        auto* y = new QLogValueAxis;
        y->setBase(10);
        y->setRange(std::max(c.min, 1e-9), c.max);
        y->setLabelFormat(QStringLiteral("%g"));
        addAxis(chart, y, Qt::AlignLeft, c.y_title, look);
    } else {
        addAxis(chart, valueAxis(c.min, c.max, QStringLiteral("%.4g")), Qt::AlignLeft, c.y_title,
                look);
    }
    chart->legend()->setVisible(c.series.size() + c.marks.size() > 1);
}

}  // namespace

ChartLook look_from_palette(const QPalette& palette, const QFont& font, QString no_data_text) {
    ChartLook look;
    look.text = palette.color(QPalette::Text);
    look.axis = palette.color(QPalette::Mid);
    // Grid lines in the text colour, faint: as quiet on a dark ground as on a light one.
    look.grid = look.text;
    look.grid.setAlphaF(0.18f);
    look.background = palette.color(QPalette::Base);
    look.highlight = palette.color(QPalette::Highlight);
    look.mark = kMarkColor;
    look.title_font = font;
    look.title_font.setBold(true);
    look.label_font = font;
    look.no_data_text = std::move(no_data_text);
    return look;
}

QColor series_color(size_t i) {
    static const QColor colors[] = {
        QColor(45, 110, 190), QColor(215, 95, 40),  QColor(60, 150, 80),  QColor(150, 80, 170),
        QColor(190, 160, 30), QColor(40, 160, 170), QColor(200, 70, 120), QColor(120, 120, 120)};
    return colors[i % (sizeof colors / sizeof colors[0])];
}

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

QChart* build_qchart(const ReportChart& c, const ChartLook& look) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundVisible(look.background.alpha() > 0);
    chart->setBackgroundBrush(look.background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setTitle(qstr(c.title));
    chart->setTitleFont(look.title_font);
    chart->setTitleBrush(look.text);
    chart->legend()->setFont(look.label_font);
    chart->legend()->setLabelColor(look.text);
    chart->legend()->setAlignment(Qt::AlignBottom);
    if (!chart_has_data(c)) {
        chart->legend()->setVisible(false);
        QFont font = look.title_font;
        font.setBold(false);
        annotation(chart, look.no_data_text, font, look.text, kNoDataRole);
    } else if (c.kind == ReportChart::Kind::Category) {
        buildCategory(chart, c, look);
    } else {
        buildXy(chart, c, look);
    }
    QObject::connect(
        chart, &QChart::plotAreaChanged, chart, [chart] { place_annotations(chart); },
        Qt::QueuedConnection);
    place_annotations(chart);
    return chart;
}

void place_annotations(QChart* chart) {
    const QRectF area = chart->rect();
    const auto all = chart->series();
    for (QGraphicsItem* child : chart->childItems()) {
        auto* item = dynamic_cast<QGraphicsSimpleTextItem*>(child);
        if (!item) continue;
        const QString role = item->data(kRoleKey).toString();
        const QRectF box = item->boundingRect();
        if (role == kNoDataRole) {
            item->setPos(area.center() - box.center());
            continue;
        }
        if (role != kPointLabelRole) continue;
        const int s = item->data(kSeriesKey).toInt(), k = item->data(kPointKey).toInt();
        auto* xy = s >= 0 && s < all.size() ? qobject_cast<QXYSeries*>(all.at(s)) : nullptr;
        if (!xy || k < 0 || k >= xy->count()) continue;
        // Beside its point, turned to the left of points near the right edge.
        const QPointF at = chart->mapToPosition(xy->at(k), xy);
        double x = at.x() + 4;
        if (x + box.width() > area.right()) x = at.x() - 4 - box.width();
        const double y = std::max(area.top(), at.y() - 4 - box.height());
        item->setPos(x, y);
    }
}

QGraphicsSimpleTextItem* no_data_item(QChart* chart) {
    for (QGraphicsItem* child : chart->childItems())
        if (child->data(kRoleKey).toString() == kNoDataRole)
            return dynamic_cast<QGraphicsSimpleTextItem*>(child);
    return nullptr;
}

QAbstractSeries* anchor_series(QChart* chart) {
    const auto all = chart->series();
    return all.isEmpty() ? nullptr : all.front();
}

}  // namespace charts
