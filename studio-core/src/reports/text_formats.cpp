// The JSON and CSV formats: the data as it is, and one row per item and question.

#include <iomanip>
#include <locale>
#include <sstream>

#include "core/policy/json_input.h"
#include "report_internal.h"

namespace core::report {

std::string to_json_text(const Report& report) {
    return report.data.dump(2) + "\n";
}

namespace {

// RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes. A field
// a spreadsheet would run as a formula (=, +, @, tab, CR first) gets a leading apostrophe.
std::string csv_field(const std::string& value) {
    std::string v = valid_utf8(value);
    if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '@' || v[0] == '\t' || v[0] == '\r'))
        v.insert(v.begin(), '\'');
    if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
    std::string out = "\"";
    for (char c : v) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

void csv_row(std::string& out, const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ',';
        out += csv_field(fields[i]);
    }
    out += "\r\n";
}

std::string number(double v) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << std::setprecision(10) << v;
    return out.str();
}

}  // namespace

std::string chart_csv(const ReportChart& chart) {
    std::string out;
    if (chart.kind == ReportChart::Kind::Category) {
        std::vector<std::string> head{"category"};
        for (const auto& set : chart.sets) head.push_back(set.name);
        csv_row(out, head);
        for (size_t k = 0; k < chart.categories.size(); ++k) {
            std::vector<std::string> row{chart.categories[k]};
            for (const auto& set : chart.sets)
                row.push_back(k < set.values.size() ? number(set.values[k]) : "");
            csv_row(out, row);
        }
    } else {
        csv_row(out, {"series", chart.x_title.empty() ? "x" : chart.x_title,
                      chart.y_title.empty() ? "y" : chart.y_title});
        for (const auto& series : chart.series)
            for (const auto& [x, y] : series.points)
                csv_row(out, {series.name, number(x), number(y)});
    }
    if (chart.bins.empty()) return out;
    out += "\r\n";
    csv_row(out, {"bin", "from", "to", "value", "count", "items"});
    for (const auto& bin : chart.bins) {
        std::string ids;
        for (const auto& id : bin.items) ids += (ids.empty() ? "" : " ") + id;
        csv_row(out, {bin.label, number(bin.lo), number(bin.hi), number(bin.value),
                      std::to_string(bin.count), ids});
    }
    return out;
}

std::string to_csv(const Report& report) {
    // The byte-order mark makes spreadsheets read the file as UTF-8.
    std::string out = "\xEF\xBB\xBF";
    csv_row(out, report.csv.columns);
    for (const auto& row : report.csv.rows) csv_row(out, row);
    return out;
}

}  // namespace core::report
