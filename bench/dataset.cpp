// bench-dataset: a dataset through a policy on the tiny model, three ways, and the dataset
// run's memory at two sizes. Prints rows/s and the ratios the dataset issue aims at:
//
//   A  `dgem bench -t POLICY -d DATA.csv` (workers 1 and 2): the streamed, journaled run
//   B  a shell loop of `dgem decide` (one process per row; --loop-rows of them, timed, so
//      the 2,000 would take an hour)
//   C  the same rows decided one by one in this process (one backend, render + decide, no
//      runner, no journal)
//   M  peak RSS of the dataset run (this program re-run as a child, an instant backend, files
//      on /dev/shm) at --memory-rows sizes: what streaming holds as the file grows
//
// The CSV has a `layout` column (schema_first by default, --layout): the support_triage policy
// puts its static schema before the row's state, so every row can reuse the policy's prefix
// from the engine's prompt-prefix cache; A prints the cached-token share it got.
//
//   build/bin/bench-dataset [--rows 2000] [--loop-rows 20] [--memory-rows 1000,100000]
//                           [--layout schema_first|document_first] [--model DIR]
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
#include "core/endpoints/endpoint_profiles.h"

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

int memory_child(size_t rows) {
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
    auto r = ds::run_dataset(std::make_shared<InstantBackend>(), in, {}, {});
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
    core::EndpointProfile p;
    p.name = "bench";
    p.model_dir = model;
    p.device = "cpu";
    auto backend = core::make_profile_backend(p, {});
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

}  // namespace

int main(int argc, char** argv) {
    size_t rows = 2000, loop_rows = 20;
    std::string memory_rows = "1000,100000", layout = "schema_first";
    std::string model = DS_BINARY_DIR "/models/tiny";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--memory-child") return memory_child(std::stoul(v));
        if (a == "--rows")
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
    const std::string dir =
        fs::temp_directory_path() / ("bench-dataset-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string data = dir + "/rows.csv";
    write_csv(data, rows, layout);
    std::cout << "bench-dataset: " << rows << " rows through support_triage (layout " << layout
              << ") on " << model << "\n";

    double best_a = 0;
    for (int w : {1, 2}) {
        std::vector<std::string> cmd = {
            kDgem, "bench",           "-t", kPolicy,          "-d",        data,
            "-w",  std::to_string(w), "-o", dir + "/out.csv", "--journal", dir + "/journal.jsonl"};
        for (const auto& f : local_flags(model)) cmd.push_back(f);
        const Ran r = run_process(cmd, dir + "/a.txt");
        const std::string out = slurp(dir + "/a.txt");
        const auto at = out.find("layout ");
        const double rate = rows / r.wall_s;
        best_a = std::max(best_a, rate);
        std::cout << "A  dgem bench -t -d, -w " << w << ": " << r.wall_s << " s, " << rate
                  << " rows/s (exit " << r.code << ", peak RSS (ru_maxrss) " << r.max_rss_kb / 1024
                  << " MiB); "
                  << (at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at))
                  << "\n";
    }

    double loop_s = 0;
    for (size_t i = 0; i < loop_rows; ++i) {
        std::vector<std::string> cmd = {
            kDgem, "decide", "-t", kPolicy, "-v", "ticket=" + ticket(i), "-v", "layout=" + layout};
        for (const auto& f : local_flags(model)) cmd.push_back(f);
        loop_s += run_process(cmd, dir + "/b.txt").wall_s;
    }
    const double rate_b = loop_rows / loop_s;
    std::cout << "B  a loop of dgem decide (" << loop_rows << " rows timed): " << rate_b
              << " rows/s\n";

    size_t decided = 0;
    const double rate_c = in_process_rows_per_s(data, model, decided);
    std::cout << "C  one by one in process: " << decided << " rows, " << rate_c << " rows/s\n";

    std::vector<long> rss;
    for (size_t n : sizes(memory_rows)) {
        const Ran r = run_process({argv[0], "--memory-child", std::to_string(n)}, dir + "/m.txt");
        const long kb = std::atol(slurp(dir + "/m.txt").c_str());
        rss.push_back(kb);
        std::cout << "M  dataset run, " << n << " rows (instant backend): peak RSS (VmHWM) "
                  << kb / 1024.0 << " MiB in " << r.wall_s << " s (exit " << r.code << ")\n";
    }
    std::cout << "\nratios: A/B " << best_a / rate_b << "x (aim >= 3), A/C " << best_a / rate_c
              << "x (aim >= 1.2)";
    if (rss.size() >= 2)
        std::cout << ", peak RSS " << rss.back() << " / " << rss.front()
                  << " kB = " << static_cast<double>(rss.back()) / rss.front() << " (aim <= 1.10)";
    std::cout << "\n";
    fs::remove_all(dir);
    return 0;
}
