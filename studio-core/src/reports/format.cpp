// Formats, provenance and the atomic write every report goes through.

#include <QDateTime>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "base/text.h"
#include "charts/qt_chart.h"
#include "core/evaluation/eval_runner.h"
#include "report_internal.h"

#ifndef DS_VERSION
#define DS_VERSION "dev"
#endif

namespace core::report {

namespace {

using base::lower;

}  // namespace

std::string_view to_string(Format format) {
    switch (format) {
        case Format::Html:
            return "html";
        case Format::Pdf:
            return "pdf";
        case Format::Csv:
            return "csv";
        case Format::Json:
            return "json";
    }
    return "json";
}

std::optional<Format> parse_format(std::string_view text) {
    const std::string t = lower(std::string(text));
    if (t == "html" || t == "htm") return Format::Html;
    if (t == "pdf") return Format::Pdf;
    if (t == "csv") return Format::Csv;
    if (t == "json") return Format::Json;
    return std::nullopt;
}

Result<Format> format_for_path(const std::string& path,
                               const std::optional<std::string>& override_format) {
    if (override_format) {
        if (auto f = parse_format(*override_format)) return *f;
        return engine::bad_input("--format '" + *override_format +
                                 "' is not a report format; accepted: html, pdf, csv, json");
    }
    std::string ext = std::filesystem::path(path).extension().string();
    if (!ext.empty()) ext.erase(0, 1);
    if (auto f = parse_format(ext)) return *f;
    return engine::bad_input(
        path + ": " +
        (ext.empty() ? std::string("no extension") : "'." + ext + "' is not a report format") +
        "; accepted: " + std::string(kAcceptedFormats));
}

std::optional<PageSize> parse_page_size(std::string_view text) {
    const std::string t = lower(std::string(text));
    if (t == "a4") return PageSize::A4;
    if (t == "letter") return PageSize::Letter;
    return std::nullopt;
}

std::string_view to_string(Kind kind) {
    switch (kind) {
        case Kind::Decision:
            return "decision";
        case Kind::Comparison:
            return "comparison";
        case Kind::Bench:
            return "bench";
    }
    return "decision";
}

Provenance make_provenance(std::string program, std::string endpoint, std::string model) {
    Provenance p;
    p.created_at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    p.program = std::move(program);
    p.version = DS_VERSION;
    p.endpoint = std::move(endpoint);
    p.model = std::move(model);
    return p;
}

std::string percent(double p, int decimals) {
    return detail::fixed(p * 100.0, decimals) + "%";
}

bool ensure_gui_application() {
    return charts::ensure_application();  // charts are Qt Charts: a QApplication
}

Result<void> write_report(const Report& report, const std::string& path, Format format,
                          PageSize page_size) {
    std::string text;
    switch (format) {
        case Format::Json:
            text = to_json_text(report);
            break;
        case Format::Csv:
            text = to_csv(report);
            break;
        case Format::Html:
            text = to_html(report);
            break;
        case Format::Pdf: {
            auto pdf = to_pdf(report, page_size);
            if (!pdf) return pdf.error();
            text = std::move(*pdf);
            break;
        }
    }
    auto written = eval::write_file_atomic(path, text);
    if (!written) {
        engine::Error e = written.error();
        e.message +=
            " (the report was not written; accepted formats: " + std::string(kAcceptedFormats) +
            ")";
        return e;
    }
    return {};
}

namespace detail {

std::string fixed(double value, int decimals) {
    if (!std::isfinite(value)) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s = buf;
    if (s == "-0" || s.rfind("-0.", 0) == 0) {
        // "-0.0" reads as a sign error in a table.
        bool zero = s.find_first_not_of("-0.") == std::string::npos;
        if (zero) s.erase(0, 1);
    }
    return s;
}

std::string fixed(const std::optional<double>& value, int decimals) {
    return value ? fixed(*value, decimals) : "n/a";
}

std::string exact(double value) {
    if (!std::isfinite(value)) return "";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string pointer_segment(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

ojson base_data(Kind kind, const std::string& title, const Provenance& provenance) {
    return ojson{{"report_version", kReportVersion},
                 {"kind", std::string(to_string(kind))},
                 {"title", title},
                 {"created_at", provenance.created_at},
                 {"program", provenance.program},
                 {"version", provenance.version},
                 {"endpoint", provenance.endpoint},
                 {"model", provenance.model}};
}

}  // namespace detail

}  // namespace core::report
