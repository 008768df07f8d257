// bench-dataset: a dataset through a policy on the tiny model, three ways, and the dataset
// run's memory at two sizes. Prints rows/s and the ratios the dataset issue aims at:
//
//   A  `dgem bench -t POLICY -d DATA.csv`: the streamed, journaled run, as it runs by default
//      (on the local engine 8 rows in flight, so the engine batches their reads) and with -w 1
//      (one row at a time). Rows/s over the process's whole wall time (model load included);
//      the run's own rate (what dgem prints) beside it
//   B  a shell loop of `dgem decide` (one process per row; --loop-rows of them, timed, so
//      the 2,000 would take an hour)
//   C  the same rows decided one by one in this process (one backend, render + decide, no
//      runner, no journal)
//   M  peak RSS of the dataset run (this program re-run as a child, files on /dev/shm) at
//      --memory-rows sizes: what the run holds as the file grows. --memory-backend tiny
//      (default: the real tiny model, 8 rows in flight, its prompt-prefix cache at the CPU's
//      default budget of 256 MiB, --prefix-cache-mb sets it; 100,000 rows take minutes) or
//      instant (decisions cost nothing: the dataset pipeline alone, 100,000 rows in seconds)
//
// The CSV has a `layout` column (schema_first by default, --layout): the support_triage policy
// puts its static schema before the row's state, so every row can reuse the policy's prefix
// from the engine's prompt-prefix cache; A prints the cached-token share it got.
//
//   build/bin/bench-dataset [--rows 2000] [--loop-rows 20] [--memory-rows 1000,100000]
//                           [--memory-backend instant|tiny] [--prefix-cache-mb N] [--layout
//                           schema_first|document_first]
//                           [--model DIR]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/dataset.h"
#include "core/decide/local_backend.h"
#include "engine/engine.h"

namespace {

namespace ds = core::dataset;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string kPolicy = DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl";
const std::string kDgem = DS_BINARY_DIR "/bin/dgem";

const char* kTickets[] = {
    "Production is down and nobody can log in; we lose orders every minute.",
    "How do I change the e-mail address on my account?",
    "I was charged twice for the March invoice, please refund one of them.",
    "The export button crashes the desktop app since the last update.",
    "Can I switch from the monthly to the yearly plan without losing my data?",
    "Your API returns 502 for every request from our region.",
};
const char* kUrgent[] = {"yes", "no", "no", "yes", "no", "yes"};
const char* kTeam[] = {"engineering", "support", "billing",
                       "engineering", "billing", "engineering"};

std::string ticket(size_t i) {
    return std::string(kTickets[i % 6]) + " (ref " + std::to_string(1000 + i) + ")";
}

void write_csv(const std::string& path, size_t rows, const std::string& layout) {
    std::ofstream out(path, std::ios::binary);
    out << "id,ticket,layout,expected_urgent,expected_team\r\n";
    for (size_t i = 0; i < rows; ++i)
        out << ds::csv_line(
            {"t" + std::to_string(i), ticket(i), layout, kUrgent[i % 6], kTeam[i % 6]});
}

struct Ran {
    int code = -1;
    double wall_s = 0;
    long max_rss_kb = 0;
};

// Runs argv with stdout to `out_path` (stderr discarded), timing it and reading its peak RSS.
Ran run_process(const std::vector<std::string>& argv, const std::string& out_path) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(out, 1);
        ::dup2(null, 2);
        ::execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    Ran r;
    r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.max_rss_kb = usage.ru_maxrss;
    return r;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> local_flags(const std::string& model) {
    return {"--local", "--model", model, "--device", "cpu", "--samples", "1"};
}

// An instant backend: the memory run measures the dataset pipeline, not the engine.
class InstantBackend final : public core::Backend {
  public:
    std::string describe() const override { return "instant"; }
    core::Result<core::Decision> decide(const core::DecideRequest& r, const core::ProgressFn&,
                                        const core::CancelToken&) override {
        core::Decision d;
        for (const auto& q : r.schema.questions) {
            core::QuestionOutcome o;
            o.id = q.id;
            o.labels = q.labels();
            o.alternatives = q.alternatives();
            o.mean.assign(o.labels.size(), 1.0 / static_cast<double>(o.labels.size()));
            d.questions.push_back(o);
        }
        return d;
    }
    core::Result<core::Generation> generate(const core::GenerateRequest&, const core::ProgressFn&,
                                            const core::CancelToken&) override {
        return engine::bad_input("not asked");
    }
    core::Result<core::HealthInfo> health(const core::CancelToken&) override {
        return core::HealthInfo{};
    }
};

// The local engine on the tiny model, as `dgem --local --device cpu` opens it; its prompt-prefix
// cache at the device's default budget (-1) or `prefix_cache_mb`.
core::Result<std::shared_ptr<core::Backend>> tiny_backend(const std::string& model,
                                                          int64_t prefix_cache_mb = -1) {
    engine::EngineOptions o;
    o.model_dir = model;
    o.device = engine::Device::Cpu;
    o.prefix_cache_bytes = prefix_cache_mb < 0 ? -1 : prefix_cache_mb << 20;
    auto b = core::LocalBackend::open(o);
    if (!b) return b.error();
    return std::shared_ptr<core::Backend>(std::move(*b));
}

int memory_child(size_t rows, const std::string& kind, const std::string& model,
                 int64_t prefix_cache_mb) {
    std::shared_ptr<core::Backend> backend;
    if (kind == "tiny") {
        auto b = tiny_backend(model, prefix_cache_mb);
        if (!b) return std::fprintf(stderr, "local engine: %s\n", b.error().message.c_str()), 1;
        backend = std::move(*b);
    } else {
        backend = std::make_shared<InstantBackend>();
    }
    const std::string dir = "/dev/shm/bench-dataset-" + std::to_string(::getpid());
    fs::create_directories(dir);
    const std::string data = dir + "/rows.csv";
    write_csv(data, rows, "schema_first");
    auto plan = ds::plan_dataset(kPolicy, data, {});
    if (!plan) return std::fprintf(stderr, "%s\n", plan.error().message.c_str()), 1;
    ds::DatasetRunInput in;
    in.plan = std::move(*plan);
    in.output_path = dir + "/out.csv";
    in.settings.journal_path = dir + "/journal.jsonl";
    in.settings.samples = core::Samples{false, 1};
    in.settings.workers = ds::default_rows_in_flight(*backend);
    auto r = ds::run_dataset(backend, in, {}, {});
    fs::remove_all(dir);
    if (!r || r->summary.rows != rows) return 1;
    // This process's own peak (VmHWM of its address space): wait4's ru_maxrss would carry the
    // parent's peak across fork and exec.
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) std::cout << line.substr(6) << "\n";
    return 0;
}

// C: the rows decided one by one on one backend in this process.
double in_process_rows_per_s(const std::string& data, const std::string& model, size_t& rows) {
    auto backend = tiny_backend(model);
    if (!backend) {
        std::fprintf(stderr, "local engine: %s\n", backend.error().message.c_str());
        return 0;
    }
    auto plan = ds::plan_dataset(kPolicy, data, {});
    if (!plan) return 0;
    auto reader = ds::DataReader::open(data);
    if (!reader) return 0;
    rows = 0;
    const auto t0 = Clock::now();
    ds::DataRow row;
    while ((*reader)->next(row)) {
        auto item = ds::row_item(*plan, row);
        if (item.failed) continue;
        core::DecideRequest req;
        req.schema = item.item.schema;
        req.schema.samples = core::Samples{false, 1};
        req.state = item.item.state;
        req.seed = core::eval::item_seed(42, row.id);
        auto d = (*backend)->decide(req, {}, {});
        if (d) ++rows;
    }
    return rows / std::chrono::duration<double>(Clock::now() - t0).count();
}

std::vector<size_t> sizes(const std::string& text) {
    std::vector<size_t> out;
    std::stringstream ss(text);
    for (std::string part; std::getline(ss, part, ',');) out.push_back(std::stoul(part));
    return out;
}

// A: `dgem bench -t -d` as a child process; `workers` empty for dgem's default.
double dataset_run_rows_per_s(const std::string& data, const std::string& dir, size_t rows,
                              const std::string& model, const std::string& workers) {
    std::vector<std::string> cmd = {kDgem,       "bench",
                                    "-t",        kPolicy,
                                    "-d",        data,
                                    "-o",        dir + "/out.csv",
                                    "--journal", dir + "/journal.jsonl"};
    if (!workers.empty()) cmd.insert(cmd.end(), {"-w", workers});
    for (const auto& f : local_flags(model)) cmd.push_back(f);
    fs::remove(dir + "/journal.jsonl");
    const Ran r = run_process(cmd, dir + "/a.txt");
    const std::string out = slurp(dir + "/a.txt");
    const auto line = [&](const std::string& start) {
        const auto at = out.find(start);
        return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
    };
    const double rate = rows / r.wall_s;
    std::cout << "A  dgem bench -t -d" << (workers.empty() ? "" : ", -w " + workers) << ": "
              << r.wall_s << " s, " << rate << " rows/s with the model load (exit " << r.code
              << ", peak RSS (ru_maxrss) " << r.max_rss_kb / 1024 << " MiB)\n   "
              << line(std::to_string(rows) + " rows in ") << "\n   " << line("layout ") << "\n";
    return r.code == 0 ? rate : 0;
}

}  // namespace

int main(int argc, char** argv) {
    size_t rows = 2000, loop_rows = 20, memory_child_rows = 0;
    int64_t prefix_cache_mb = -1;
    std::string memory_rows = "1000,100000", layout = "schema_first", memory_backend = "tiny";
    std::string model = DS_BINARY_DIR "/models/tiny";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--memory-child")
            memory_child_rows = std::stoul(v);
        else if (a == "--memory-backend")
            memory_backend = v;
        else if (a == "--prefix-cache-mb")
            prefix_cache_mb = std::stoll(v);
        else if (a == "--rows")
            rows = std::stoul(v);
        else if (a == "--loop-rows")
            loop_rows = std::stoul(v);
        else if (a == "--memory-rows")
            memory_rows = v;
        else if (a == "--layout")
            layout = v;
        else if (a == "--model")
            model = v;
    }
    if (memory_child_rows > 0)
        return memory_child(memory_child_rows, memory_backend, model, prefix_cache_mb);
    const std::string dir =
        fs::temp_directory_path() / ("bench-dataset-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string data = dir + "/rows.csv";
    std::cout << "bench-dataset: " << rows << " rows through support_triage (layout " << layout
              << ") on " << model << "\n";
    double rate_a = 0, rate_a1 = 0, rate_b = 0, rate_c = 0;
    if (rows > 0) {
        write_csv(data, rows, layout);
        rate_a = dataset_run_rows_per_s(data, dir, rows, model, "");
        rate_a1 = dataset_run_rows_per_s(data, dir, rows, model, "1");
        size_t decided = 0;
        rate_c = in_process_rows_per_s(data, model, decided);
        std::cout << "C  one by one in process: " << decided << " rows, " << rate_c << " rows/s\n";
    }
    if (loop_rows > 0) {
        double loop_s = 0;
        for (size_t i = 0; i < loop_rows; ++i) {
            std::vector<std::string> cmd = {
                kDgem, "decide",          "-t", kPolicy, "-v", "ticket=" + ticket(i),
                "-v",  "layout=" + layout};
            for (const auto& f : local_flags(model)) cmd.push_back(f);
            loop_s += run_process(cmd, dir + "/b.txt").wall_s;
        }
        rate_b = loop_rows / loop_s;
        std::cout << "B  a loop of dgem decide (" << loop_rows << " rows timed): " << rate_b
                  << " rows/s\n";
    }

    std::vector<long> rss;
    for (size_t n : sizes(memory_rows)) {
        const Ran r = run_process(
            {argv[0], "--memory-child", std::to_string(n), "--memory-backend", memory_backend,
             "--model", model, "--prefix-cache-mb", std::to_string(prefix_cache_mb)},
            dir + "/m.txt");
        const long kb = std::atol(slurp(dir + "/m.txt").c_str());
        rss.push_back(kb);
        std::cout << "M  dataset run, " << n << " rows (" << memory_backend
                  << " backend): peak RSS (VmHWM) " << kb / 1024.0 << " MiB in " << r.wall_s
                  << " s (exit " << r.code << ")\n";
    }
    std::cout << "\nratios:";
    if (rate_b > 0 && rate_a > 0) std::cout << " A/B " << rate_a / rate_b << "x (aim >= 3),";
    if (rate_c > 0)
        std::cout << " A/C " << rate_a / rate_c << "x (aim >= 1.2; -w 1: " << rate_a1 / rate_c
                  << "x),";
    if (rss.size() >= 2)
        std::cout << " peak RSS " << rss.back() << " / " << rss.front()
                  << " kB = " << static_cast<double>(rss.back()) / rss.front() << " (aim <= 1.10)";
    std::cout << "\n";
    fs::remove_all(dir);
    return 0;
}
