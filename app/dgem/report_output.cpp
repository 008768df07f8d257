#include "report_output.h"

#include <iostream>

namespace dgem {

std::vector<cli::OptionSpec> report_options(const std::string& what) {
    return {{"output", 'o', "FILE",
             "write " + what +
                 " as a report to FILE; the format comes from the extension: .html, "
                 ".pdf, .csv or .json"},
            {"report-format", 0, "FORMAT",
             "the report's format whatever FILE's extension: html, pdf, csv, json"},
            {"page-size", 0, "SIZE", "PDF page size: a4 (default) or letter"}};
}

engine::Result<std::optional<ReportTarget>> report_target(const cli::Args& args) {
    auto path = args.find("output");
    if (!path) {
        if (args.has("report-format") || args.has("page-size"))
            return engine::bad_input("--report-format and --page-size need -o FILE");
        return std::optional<ReportTarget>();
    }
    if (path->empty()) return engine::bad_input("-o needs a file name");
    ReportTarget t;
    t.path = *path;
    const auto override_format = args.find("report-format");
    if (override_format && !core::report::parse_format(*override_format))
        return engine::bad_input("--report-format " + *override_format +
                                 ": not a report format; accepted: html, pdf, csv, json");
    auto format = core::report::format_for_path(*path, override_format);
    if (!format) {
        engine::Error e = format.error();
        if (!args.has("report-format")) e.message += " (or --report-format)";
        return e;
    }
    t.format = *format;
    if (auto size = args.find("page-size")) {
        auto parsed = core::report::parse_page_size(*size);
        if (!parsed) return engine::bad_input("--page-size " + *size + ": accepted: a4, letter");
        t.page_size = *parsed;
    }
    return std::optional<ReportTarget>(t);
}

void prepare_report_application(const cli::Args& args) {
    auto target = report_target(args);
    if (!target || !*target) return;
    const auto f = (*target)->format;
    if (f == core::report::Format::Html || f == core::report::Format::Pdf)
        core::report::ensure_gui_application();
}

engine::Result<void> write_report(const ReportTarget& target, const core::report::Report& report) {
    auto w = core::report::write_report(report, target.path, target.format, target.page_size);
    if (!w) return w.error();
    std::cerr << "report written to " << target.path << " ("
              << core::report::to_string(target.format) << ")\n";
    return {};
}

}  // namespace dgem
