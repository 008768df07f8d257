#pragma once
// A chart value (core::report::ReportChart) as a Qt Charts chart: the one definition of how a
// chart looks, wherever it is shown. Bars (vertical or horizontal, the highlighted ones in the
// highlight colour, value labels with the chart's suffix and decimals, error whiskers), lines and
// points on value axes (a log Y axis, item labels on X) with their point labels, marks as dashed
// vertical lines; a chart without data shows only its title and a line saying so.
//
// The Studio's ChartWidget shows build_qchart's chart in a QChartView (hover, click, zoom); the
// report files paint the same chart with render_chart into an SVG generator, a PDF writer or a
// page image. QChart is a QGraphicsWidget: both need a QApplication (ensure_application).

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

#include "core/reports/chart.h"

class QAbstractSeries;
class QChart;
class QGraphicsSimpleTextItem;
class QPainter;
class QRectF;

namespace charts {

// Colours and fonts: the Studio's come from its palette and font, a report's from its page.
struct ChartLook {
    QColor text;        // title, labels, legend, value labels, error whiskers
    QColor axis;        // axis lines
    QColor grid;        // grid lines
    QColor background;  // the chart's ground; transparent: none (an SVG on an HTML page)
    QColor highlight;   // highlighted bars
    QColor mark;        // marks (p50, p95, a suggested threshold): apart from every series
    QFont title_font;
    QFont label_font;
    QString no_data_text;  // what a chart without data says
};

// The Studio's look: the palette's text, mid and base colours and `font`.
ChartLook look_from_palette(const QPalette& palette, const QFont& font, QString no_data_text);

// The colour of series, set or label `i`: the same in bars, lines, legends and a question's draw
// strip.
QColor series_color(size_t i);

// A new chart (the caller owns it); with no data only the title and look.no_data_text.
QChart* build_qchart(const core::report::ReportChart& chart, const ChartLook& look);

// Places what the chart's layout does not: point labels beside their points and the no-data
// text in the middle. build_qchart connects it to the plot area's changes; call it after a
// geometry change that the event loop has not yet seen.
void place_annotations(QChart* chart);

// The no-data text of a chart built without data, or nullptr.
QGraphicsSimpleTextItem* no_data_item(QChart* chart);

// The series the chart's value axes are read through (mapToValue/mapToPosition), or nullptr.
QAbstractSeries* anchor_series(QChart* chart);

// Whether `chart` has anything to draw: categories with values, points, or bins with a count.
bool chart_has_data(const core::report::ReportChart& chart);

// Paints `chart` as build_qchart builds it into `target` (in the painter's units). The chart is
// laid out in pixels at 96 dpi, so text sized in pixels (a report's look) keeps its size on any
// device: an SVG (96 dpi), a PDF or a page image measured in points (72 dpi).
void render_chart(QPainter& painter, const QRectF& target, const core::report::ReportChart& chart,
                  const ChartLook& look);

// Creates a QApplication on the offscreen platform when no application exists yet (dgem writing
// an HTML or PDF report: no window, no display needed). False when a QCoreApplication or
// QGuiApplication already exists (charts cannot be drawn without widgets).
bool ensure_application();

}  // namespace charts
