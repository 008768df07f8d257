#pragma once
// What `dgem bench-jev` and `dgem bench` share: runner flags (-w, --samples, --seed,
// --item-timeout, --retries, --resume, --journal, -o, --json), the progress display (a bar on a
// terminal, plain lines otherwise), Ctrl+C as cancel, and table formatting.

#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cli.h"
#include "core/evaluation/bench_run.h"

namespace dgem::bench {

std::vector<cli::OptionSpec> runner_options();

// Settings from the runner flags; `default_journal` is used without --journal and -o.
engine::Result<core::eval::RunSettings> run_settings(const cli::Args& args,
                                                     const std::string& default_journal);

// Runs `body` with the progress display on stderr (a bar on a terminal, plain lines otherwise;
// `journal` is named in its first line); Ctrl+C (SIGINT) and SIGTERM fire the cancel token.
void with_progress(
    const std::string& journal,
    const std::function<void(const core::eval::RunProgressFn&, const engine::CancelToken&)>& body);

// Runs the bench on `backend` with the progress display on stderr; Ctrl+C (SIGINT) and SIGTERM
// cancel the run.
engine::Result<core::eval::BenchResult> run_with_progress(std::shared_ptr<core::Backend> backend,
                                                          core::eval::BenchRunInput input);

// Runs the bench on the endpoint the flags name (--local, -u, ...). A run interrupted by Ctrl+C
// says where its journal is and how to continue ("items"/"cases" is `noun`) and gives
// kExitCancelled; other failures give their exit code. Otherwise the finished, scored run.
std::variant<core::eval::BenchResult, int> run_on_endpoint(const cli::Args& args,
                                                           core::eval::BenchRunInput input,
                                                           const char* noun);

// Parses a whole number / a real number flag; errors name the flag and what is accepted.
engine::Result<long long> int_flag(const cli::Args& args, const std::string& name,
                                   long long fallback, long long lo, long long hi);
engine::Result<double> real_flag(const cli::Args& args, const std::string& name, double fallback,
                                 double lo, double hi);

using cli::fixed;  // table cells, shared with decide --stats
using cli::pad;
std::string pct(double v);  // "63.4%"

}  // namespace dgem::bench
