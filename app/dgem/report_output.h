#pragma once
// What every dgem command that produces a result shares for reports: -o FILE (the format from
// its extension), --report-format and --page-size, checked before any work starts, and the
// atomic write. (--report-format, not --format: on decide -f/--format is the stdout format.)

#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "core/reports/report.h"

namespace dgem {

struct ReportTarget {
    std::string path;
    core::report::Format format = core::report::Format::Json;
    core::report::PageSize page_size = core::report::PageSize::A4;
};

// `what` says what the report holds ("the decision", "the run").
std::vector<cli::OptionSpec> report_options(const std::string& what);
// nullopt without -o; errors name the path or flag and what is accepted.
engine::Result<std::optional<ReportTarget>> report_target(const cli::Args& args);
// HTML and PDF paint text and Qt Charts: the QApplication (offscreen) must exist before anything
// else makes a QCoreApplication. main() calls this for every command; only a command writing an
// HTML or PDF report makes one.
void prepare_report_application(const cli::Args& args);
// Writes the report; prints "report written to PATH (format)" on stderr.
engine::Result<void> write_report(const ReportTarget& target, const core::report::Report& report);

}  // namespace dgem
