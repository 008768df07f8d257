#pragma once
// Helpers the report builders and writers share (not part of the public API).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/reports/report.h"

namespace core::report::detail {

using ojson = nlohmann::ordered_json;

// Fixed-point text of a number ("0.734" with 3 decimals); "n/a" for a missing one.
std::string fixed(double value, int decimals);
std::string fixed(const std::optional<double>& value, int decimals);
// The shortest text that reads back as the same double (what JSON writes).
std::string exact(double value);
// A JSON Pointer path segment (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointer_segment(const std::string& key);

// The report's when/what/where, as the data's leading keys.
ojson base_data(Kind kind, const std::string& title, const Provenance& provenance);

}  // namespace core::report::detail

namespace core::report::detail {
// The height a chart or a question block takes at `width` (points), for page layout and SVG.
double chart_height(const ReportChart& chart, double width);
double bars_height(size_t categories, bool titled);  // a horizontal bar chart's
double question_height(const QuestionBlock& question);
}  // namespace core::report::detail

class QFont;
namespace core::report::detail {
QFont font_of(double point_size, bool bold = false);  // the reports' one typeface
}  // namespace core::report::detail
