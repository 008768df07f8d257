#pragma once
// A core::report::ReportChart as a Qt Charts chart: bars (vertical or horizontal, the highlighted
// ones in the selection colour, value labels with the chart's suffix and decimals), lines and
// points on value axes (a log Y axis, item labels on X), marks as dashed vertical lines. Colours
// follow the palette (the view's light or dark scheme). The view (ChartWidget) is the only caller;
// the chart value itself is built once, by core::report, for the views and the report files.

#include <QPalette>

#include "core/reports/report.h"

class QChart;
class QAbstractSeries;

namespace ui {

// A new chart (the caller owns it). Returns a chart with only the title when `chart` has no data.
QChart* build_qchart(const core::report::ReportChart& chart, const QPalette& palette);

// The series the chart's value axes are read through (mapToValue/mapToPosition), or nullptr.
QAbstractSeries* anchor_series(QChart* chart);

// Whether `chart` has anything to draw: categories with values, points, or bins with a count.
bool chart_has_data(const core::report::ReportChart& chart);

}  // namespace ui
