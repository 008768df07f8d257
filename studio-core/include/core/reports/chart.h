#pragma once
// A chart as a value: what reports and the Studio's views chart, built once by core::report from
// the scored results. Drawing it is the charts library's job (charts/qt_chart.h, Qt Charts), for
// the Studio's interactive views and the report files alike. Plain data: no Qt here.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace core::report {

// What a report's chart without data says, where its axes would be.
inline constexpr std::string_view kNoDataText = "No data to chart";

// A chart as values. Category charts draw one bar per category and set (vertical, or horizontal
// with the first category on top), optionally with an error bar per value; XY charts draw
// lines or points on linear axes (or a log Y axis). Marks are labelled vertical lines.
struct ChartSet {
    std::string name;
    std::vector<double> values;  // one per category
    std::vector<double> errors;  // empty, or one per category (half-width of the error bar)
};
struct ChartSeries {
    std::string name;
    bool line = true;  // false: points only
    std::vector<std::pair<double, double>> points;
    std::vector<std::string> point_labels;  // empty, or one per point (drawn beside it)
};
struct ChartMark {
    double x = 0;  // an X value, or a fractional category index
    std::string label;
};
// One part of a chart a reader can point at: a category's bar, a histogram's or a reliability
// diagram's bin, an item's point. The Studio's interactive charts show it on hover (its label,
// value and count, and the items it holds) and filter their table to `items` on a click; the
// files ignore it (their bytes do not depend on it).
struct ChartBin {
    std::string label;               // "0.8–0.9", "hard (41)", "120–135 ms", an item id
    double lo = 0, hi = 0;           // the X range it covers; a category index (lo == hi) for bars
    double value = 0;                // the bar's height, the bin's accuracy, the point's Y
    int count = 0;                   // how many items the value stands for
    std::vector<std::string> items;  // their ids (empty when the chart was built without them)
};
// An item placed on a chart's X axis: its confidence on a reliability diagram, its latency in
// seconds on a latency histogram.
struct ChartItem {
    std::string id;
    double x = 0;
};
struct ReportChart {
    enum class Kind { Category, Xy } kind = Kind::Category;
    std::string title;
    std::string x_title, y_title;
    std::string value_suffix;  // appended to value labels: "%", " ms"
    int value_decimals = 1;
    // category charts
    std::vector<std::string> categories;
    std::vector<ChartSet> sets;
    std::vector<int> highlighted;  // categories drawn in the highlight colour (or outlined)
    // One colour per category (a question's labels: the same colours as its draw strip); the
    // highlighted categories are then outlined and their names set in bold.
    bool color_per_category = false;
    bool horizontal = false;
    bool show_values = true;
    // XY charts
    std::vector<ChartSeries> series;
    bool log_y = false;
    std::vector<std::string> x_labels;  // optional: a label per integer X from 0
    // both
    double min = 0, max = 1;  // the value axis (Y; X of a horizontal chart)
    double x_min = 0, x_max = 1;
    std::vector<ChartMark> marks;
    std::vector<ChartBin> bins;  // what hover and click find (see ChartBin)
};

}  // namespace core::report
