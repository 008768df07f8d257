// The JSON and CSV formats: the data as it is, and one row per item and question.

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

}  // namespace

std::string to_csv(const Report& report) {
    // The byte-order mark makes spreadsheets read the file as UTF-8.
    std::string out = "\xEF\xBB\xBF";
    csv_row(out, report.csv.columns);
    for (const auto& row : report.csv.rows) csv_row(out, row);
    return out;
}

}  // namespace core::report
