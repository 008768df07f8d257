// The HTML format: one self-contained file (styles and SVG charts inline, no script, no network),
// light and dark colour schemes, printable. It is also well-formed XML, and every number taken
// from the data carries data-ptr (its JSON Pointer in the JSON format) and data-value.

#include <QString>

#include "base/text.h"
#include "core/images/images.h"
#include "core/policy/json_input.h"
#include "report_internal.h"

namespace core::report {

namespace {

std::string esc(const std::string& raw) {
    // Model and server text may hold invalid UTF-8.
    return base::html_escape(valid_utf8(raw), base::HtmlEscaping::Xml);
}

// data-ptr and data-value of a number in the data, or "" when the pointer names no number.
std::string number_attrs(const Report& r, const std::string& ptr) {
    if (ptr.empty()) return "";
    try {
        const auto& v = r.data.at(nlohmann::ordered_json::json_pointer(ptr));
        if (!v.is_number()) return "";
        return " data-ptr=\"" + esc(ptr) + "\" data-value=\"" + v.dump() + "\"";
    } catch (const nlohmann::json::exception&) {
        return "";
    }
}

const char* kStyle = R"(
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1e1e1e; --muted: #666; --line: #ddd;
        --card: #f6f7f9; --accent: #e67814; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #17191c; --fg: #e6e6e6; --muted: #a0a0a0; --line: #3a3d42; --card: #202328; }
}
body { background: var(--bg); color: var(--fg); font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif;
       max-width: 1000px; margin: 2em auto; padding: 0 1.5em; }
header { border-bottom: 2px solid var(--accent); margin-bottom: 1em; }
h1 { font-size: 1.6em; margin: 0 0 .3em; } h2 { font-size: 1.25em; margin: 1.6em 0 .5em; }
h3 { font-size: 1em; margin: 1em 0 .3em; }
.meta { color: var(--muted); font-size: .9em; margin: 0 0 .8em; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1.2em; margin: .5em 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: .5em 0 1em; font-size: .92em; }
th, td { border-bottom: 1px solid var(--line); padding: .25em .5em; text-align: left;
         vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--card); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart, .question { background: var(--card); border-radius: 6px; padding: .6em; margin: .6em 0; }
.chart svg, .question svg { width: 100%; height: auto; display: block; }
.question table { margin: .4em 0 0; }
.images { display: flex; flex-wrap: wrap; gap: .6em; margin: .6em 0; }
.images figure { margin: 0; background: var(--card); border-radius: 6px; padding: .4em; }
.images img { display: block; max-width: 300px; max-height: 240px; width: auto; height: auto; }
.images figcaption { color: var(--muted); font-size: .85em; margin-top: .3em; }
pre { white-space: pre-wrap; background: var(--card); padding: .6em; border-radius: 6px; }
footer { color: var(--muted); font-size: .85em; border-top: 1px solid var(--line); margin-top: 2em;
         padding-top: .5em; }
@media print {
  body { max-width: none; margin: 0; background: #fff; color: #000; }
  .chart, .question, table { break-inside: avoid; } thead { display: table-header-group; }
}
)";

void facts_html(std::string& out, const Report& r, const std::vector<Fact>& facts) {
    if (facts.empty()) return;
    out += "<dl class=\"facts\">\n";
    for (const auto& f : facts)
        out += "<dt>" + esc(f.name) + "</dt><dd" + number_attrs(r, f.ptr) + ">" + esc(f.value) +
               "</dd>\n";
    out += "</dl>\n";
}

void table_html(std::string& out, const Report& r, const Table& t) {
    if (!t.title.empty()) out += "<h3>" + esc(t.title) + "</h3>\n";
    if (t.rows.empty()) return;
    auto numeric = [&](size_t c) {
        return std::find(t.numeric_columns.begin(), t.numeric_columns.end(), static_cast<int>(c)) !=
               t.numeric_columns.end();
    };
    out += "<table>\n<thead><tr>";
    for (size_t c = 0; c < t.columns.size(); ++c)
        out +=
            std::string(numeric(c) ? "<th class=\"num\">" : "<th>") + esc(t.columns[c]) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (size_t i = 0; i < t.rows.size(); ++i) {
        out += "<tr>";
        for (size_t c = 0; c < t.rows[i].size(); ++c) {
            const std::string ptr =
                i < t.cell_ptrs.size() && c < t.cell_ptrs[i].size() ? t.cell_ptrs[i][c] : "";
            out += std::string("<td") + (numeric(c) ? " class=\"num\"" : "") +
                   number_attrs(r, ptr) + ">" + esc(t.rows[i][c]) + "</td>";
        }
        out += "</tr>\n";
    }
    out += "</tbody>\n</table>\n";
}

void question_html(std::string& out, const Report& r, const QuestionBlock& b) {
    out += "<div class=\"question\" id=\"q-" + esc(b.id) + "\">\n";
    out += question_svg(b, 900) + "\n";
    if (!b.skipped.empty()) {
        out += "<p class=\"meta\">" + esc(b.skipped) + "</p>\n</div>\n";
        return;
    }
    out +=
        "<table>\n<thead><tr><th>Label</th><th>Means</th><th class=\"num\">Probability</th>"
        "<th class=\"num\">Std. error</th></tr></thead>\n<tbody>\n";
    for (size_t k = 0; k < b.labels.size(); ++k) {
        const std::string p = b.ptr + "/probabilities/" + std::to_string(k);
        const std::string e = b.ptr + "/stderr/" + std::to_string(k);
        const bool win = static_cast<int>(k) == b.winner;
        out += std::string("<tr") + (win ? " class=\"winner\"" : "") + "><td>" +
               (win ? "<b>" + esc(b.labels[k]) + "</b>" : esc(b.labels[k])) + "</td><td>" +
               esc(k < b.alternatives.size() ? b.alternatives[k] : "") + "</td><td class=\"num\"" +
               number_attrs(r, p) + ">" +
               esc(k < b.probabilities.size() ? percent(b.probabilities[k]) : "") +
               "</td><td class=\"num\"" + (k < b.errors.size() ? number_attrs(r, e) : "") + ">" +
               esc(k < b.errors.size() ? "\u00b1" + percent(b.errors[k]) : "-") + "</td></tr>\n";
    }
    out += "</tbody>\n</table>\n";
    out += "<p class=\"meta\">Confidence <span" + number_attrs(r, b.ptr + "/confidence") + ">" +
           esc(percent(b.confidence)) + "</span>, entropy <span" +
           number_attrs(r, b.ptr + "/entropy") + ">" + esc(detail::fixed(b.entropy, 3)) +
           "</span> nats, " + esc(b.hesitation_class) + ", agreement <span" +
           number_attrs(r, b.ptr + "/agreement") + ">" + esc(percent(b.agreement, 0)) +
           "</span> over " + std::to_string(b.draws.size()) + " draws.</p>\n</div>\n";
}

// The images inline, as data: URIs, so the file stays self-contained.
void images_html(std::string& out, const std::vector<ReportImage>& images) {
    if (images.empty()) return;
    out += "<div class=\"images\">\n";
    for (const auto& img : images) {
        const std::string size = img.width > 0
                                     ? " width=\"" + std::to_string(img.width) + "\" height=\"" +
                                           std::to_string(img.height) + "\""
                                     : "";
        out += "<figure><img src=\"data:" + esc(img.mime) + ";base64," + base64_encode(img.bytes) +
               "\" alt=\"" + esc(img.name) + "\"" + size + "/><figcaption>" + esc(img.name) +
               (img.width > 0 ? ", " + std::to_string(img.width) + " \u00d7 " +
                                    std::to_string(img.height) + " px"
                              : "") +
               "</figcaption></figure>\n";
    }
    out += "</div>\n";
}

}  // namespace

std::string to_html(const Report& r) {
    const Provenance& pv = r.provenance;
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\">\n"
        "<head>\n<meta charset=\"utf-8\"/>\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        "<meta name=\"generator\" content=\"" +
        esc(pv.program + " " + pv.version) + "\"/>\n<title>" + esc(r.title) + "</title>\n<style>" +
        kStyle + "</style>\n</head>\n<body>\n<header>\n<h1>" + esc(r.title) +
        "</h1>\n<p class=\"meta\">Made " + esc(pv.created_at) + " with " + esc(pv.program) + " " +
        esc(pv.version) + " on " + esc(pv.endpoint.empty() ? "an unnamed endpoint" : pv.endpoint) +
        (pv.model.empty() ? "" : ", model " + esc(pv.model)) + "</p>\n</header>\n";
    for (const auto& s : r.sections) {
        out += "<section>\n<h2>" + esc(s.title) + "</h2>\n";
        if (!s.text.empty()) {
            const bool pre =
                s.text.find('\n') != std::string::npos || s.title.find("raw") != std::string::npos;
            out += pre ? "<pre>" + esc(s.text) + "</pre>\n" : "<p>" + esc(s.text) + "</p>\n";
        }
        facts_html(out, r, s.facts);
        images_html(out, s.images);
        for (const auto& c : s.charts) {
            const int h = static_cast<int>(detail::chart_height(c, 900));
            out += "<div class=\"chart\">" + chart_svg(c, 900, h) + "</div>\n";
        }
        for (const auto& b : s.questions) question_html(out, r, b);
        for (const auto& t : s.tables) table_html(out, r, t);
        out += "</section>\n";
    }
    out += "<footer>report_version " + std::to_string(kReportVersion) + " \u00b7 " +
           esc(std::string(to_string(r.kind))) + " \u00b7 " + esc(pv.created_at) +
           "</footer>\n</body>\n</html>\n";
    return out;
}

}  // namespace core::report
