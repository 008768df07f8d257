// Runner flags, progress display and Ctrl+C handling for the bench commands.
#include "bench_common.h"

#include "report_output.h"

#include "backend_factory.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>

namespace dgem::bench {

namespace {

engine::CancelToken* g_cancel = nullptr;

extern "C" void on_signal(int) {
    if (g_cancel) g_cancel->cancel();
}

std::string eta_text(double s) {
    if (s < 0) return "?";
    const long t = static_cast<long>(s + 0.5);
    char buf[32];
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
    return buf;
}

}  // namespace

std::string pct(double v) {
    return fixed(100 * v, 1) + "%";
}

engine::Result<long long> int_flag(const cli::Args& args, const std::string& name,
                                   long long fallback, long long lo, long long hi) {
    auto v = args.find(name);
    if (!v) return fallback;
    bool digits =
        !v->empty() && v->size() <= 12 && v->find_first_not_of("0123456789") == std::string::npos;
    long long n = digits ? std::stoll(*v) : -1;
    if (!digits || n < lo || n > hi)
        return engine::bad_input("--" + name + " " + *v + ": accepted: a whole number from " +
                                 std::to_string(lo) + " to " + std::to_string(hi));
    return n;
}

engine::Result<double> real_flag(const cli::Args& args, const std::string& name, double fallback,
                                 double lo, double hi) {
    auto v = args.find(name);
    if (!v) return fallback;
    try {
        size_t used = 0;
        double d = std::stod(*v, &used);
        if (used != v->size() || !(d >= lo) || !(d <= hi)) throw std::invalid_argument("");
        return d;
    } catch (const std::exception&) {
        return engine::bad_input("--" + name + " " + *v + ": accepted: a number from " +
                                 fixed(lo, 3) + " to " + fixed(hi, 0));
    }
}

std::vector<cli::OptionSpec> runner_options() {
    std::vector<cli::OptionSpec> options = {
        {"workers", 'w', "N",
         "concurrent evaluation workers (default 1; a dataset on the local engine 8, so that "
         "the engine batches its rows' reads)"},
        {"samples", 0, "N|auto", "reads per question for every item (default 1)"},
        {"seed", 0, "N", "run seed; each item's seed derives from it and the item id (default 42)"},
        {"item-timeout", 0, "SECONDS",
         "per-item time limit, retried as a transient failure (default none)"},
        {"retries", 0, "N", "extra attempts after a transient failure (default 2)"},
        {"resume", 0, "", "continue the run recorded in the journal"},
        {"journal", 0, "FILE", "the run's journal (default: OUTPUT.journal.jsonl beside -o)"},
        {"json", 0, "", "print the run as JSON on stdout (tables go to stderr)"},
    };
    for (auto& o : report_options("the run (settings, scorecard, charts, per-item table)"))
        options.push_back(o);
    return options;
}

engine::Result<core::eval::RunSettings> run_settings(const cli::Args& args,
                                                     const std::string& default_journal) {
    core::eval::RunSettings s;
    auto w = int_flag(args, "workers", 1, 1, 256);
    if (!w) return w.error();
    s.workers = static_cast<int>(*w);
    auto r = int_flag(args, "retries", 2, 0, 20);
    if (!r) return r.error();
    s.retries = static_cast<int>(*r);
    auto t = real_flag(args, "item-timeout", 0, 0, 86400);
    if (!t) return t.error();
    s.item_timeout_s = *t;
    if (auto seed = args.find("seed")) {
        bool digits = !seed->empty() && seed->size() <= 19 &&
                      seed->find_first_not_of("0123456789") == std::string::npos;
        if (!digits)
            return engine::bad_input("--seed " + *seed + ": accepted: a whole number 0 or more");
        s.seed = std::stoull(*seed);
    }
    const std::string samples = args.get("samples", "1");
    if (samples == "auto") {
        s.samples = core::Samples{true, 1};
    } else {
        bool digits = !samples.empty() && samples.size() < 4 &&
                      samples.find_first_not_of("0123456789") == std::string::npos;
        int n = digits ? std::stoi(samples) : 0;
        if (n < 1 || n > core::kMaxSamples)
            return engine::bad_input("--samples " + samples + ": accepted: auto or 1 to " +
                                     std::to_string(core::kMaxSamples));
        s.samples = core::Samples{false, n};
    }
    if (auto j = args.find("journal"))
        s.journal_path = *j;
    else if (auto o = args.find("output"))
        s.journal_path = *o + ".journal.jsonl";
    else
        s.journal_path = default_journal;
    s.resume = args.has("resume");
    s.program_version = "dgem " DS_VERSION;
    return s;
}

void with_progress(
    const std::string& journal,
    const std::function<void(const core::eval::RunProgressFn&, const engine::CancelToken&)>& body) {
    engine::CancelToken cancel;
    g_cancel = &cancel;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int {
    }, old_term{};
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    const bool tty = ::isatty(STDERR_FILENO) == 1;
    std::mutex out;
    bool first = true;
    auto progress = [&](const core::eval::RunProgress& p) {
        std::lock_guard<std::mutex> lock(out);
        if (first) {
            first = false;
            std::cerr << "dgem: " << p.total << " items";
            if (p.resumed) std::cerr << ", " << p.resumed << " already in the journal";
            std::cerr << ", journal " << journal << "\n";
        }
        if (!p.last) return;
        const std::string rate = fixed(p.items_per_s, 2) + " items/s";
        if (tty) {
            const int width = 30;
            const int filled = p.total ? static_cast<int>(width * p.done / p.total) : width;
            std::string bar(static_cast<size_t>(filled), '#');
            bar.resize(width, '.');
            std::cerr << "\r[" << bar << "] " << p.done << "/" << p.total << "  errors " << p.failed
                      << "  " << rate << "  ETA " << eta_text(p.eta_s) << "   " << std::flush;
            if (p.done == p.total) std::cerr << "\n";
        } else {
            std::cerr << "[" << p.done << "/" << p.total << "] " << p.last->id << " "
                      << (p.last->ok ? "ok" : "FAILED: " + p.last->error) << " "
                      << fixed(p.last->latency_s, 3) << " s (" << rate << ", ETA "
                      << eta_text(p.eta_s) << ")\n";
        }
    };
    body(progress, cancel);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    g_cancel = nullptr;
    if (tty && cancel.cancelled()) std::cerr << "\n";
}

engine::Result<core::eval::BenchResult> run_with_progress(std::shared_ptr<core::Backend> backend,
                                                          core::eval::BenchRunInput input) {
    const std::string journal = input.settings.journal_path;
    std::optional<engine::Result<core::eval::BenchResult>> result;
    with_progress(
        journal, [&](const core::eval::RunProgressFn& progress, const engine::CancelToken& cancel) {
            result = core::eval::run_bench(std::move(backend), std::move(input), progress, cancel);
        });
    return std::move(*result);
}

std::variant<core::eval::BenchResult, int> run_on_endpoint(const cli::Args& args,
                                                           core::eval::BenchRunInput input,
                                                           const char* noun) {
    auto backend = dgem::make_backend(args);
    if (!backend) return cli::fail(backend.error());
    std::shared_ptr<core::Backend> shared(std::move(backend.value()));
    const std::string journal = input.settings.journal_path;
    auto result = run_with_progress(shared, std::move(input));
    if (!result) return cli::fail(result.error());
    if (result->run.cancelled) {
        std::cerr << "dgem: interrupted: " << result->run.records.size() << " of "
                  << result->suite.items.size() << " " << noun << " are in " << journal
                  << "; run the same command with --resume to continue\n";
        return cli::kExitCancelled;
    }
    return std::move(result.value());
}

}  // namespace dgem::bench
