// The bench-run use case: run, score, the result document, the report input, the run folder.
#include "core/evaluation/bench_run.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include "base/time.h"

namespace core::eval {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

using base::utc_now;

// yyyyMMdd-HHmmss-zzz in local time.
std::string local_stamp() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    char out[40];
    std::snprintf(out, sizeof out, "%s-%03d", buf, static_cast<int>(ms));
    return out;
}

json dgem_document(const BenchResult& r, const std::string& program) {
    json doc = {
        {"program", program},
        {"version", DS_VERSION},
        {"mode", std::string(to_string(r.mode))},
        {"dataset",
         {{"path", r.dataset_path}, {"sha256", r.suite.sha256}, {"cases", r.suite.items.size()}}},
        {"backend", r.backend()},
        {"run", r.run.header},
        {"wall_s", r.run.wall_s},
        {"cases", suite_items_json(r.suite, r.run.records)},
        {"score", r.suite_score ? to_json(*r.suite_score) : json(nullptr)}};
    if (r.comparison) doc["comparison"] = r.comparison->to_json();
    return doc;
}

json jev_document(const BenchResult& r, const std::string& program) {
    json doc = {
        {"program", program},
        {"version", DS_VERSION},
        {"protocol", "jevbench::v1.4 (public items; scorer after fstandhartinger/jevbench)"},
        {"dataset",
         {{"path", r.dataset_path},
          {"sha256", r.suite.sha256},
          {"items_in_file", r.suite.total_in_file},
          {"items_run", r.suite.items.size()}}},
        {"backend", r.backend()},
        {"run", r.run.header},
        {"wall_s", r.run.wall_s},
        {"resumed_items", r.run.resumed},
        {"items", jev_items_json(scored_items(r.suite, r.run.records), r.run.records)},
        {"score", r.run_score ? to_json(*r.run_score) : json(nullptr)},
    };
    if (r.leaderboard) {
        json rows = json::array();
        for (const auto& row : r.leaderboard->rows)
            rows.push_back({{"key", row.key}, {"rank", row.rank}, {"score", row.score}});
        doc["leaderboard"] = {{"revision", r.leaderboard->revision}, {"rows", rows}};
    }
    return doc;
}

json read_json_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return json();
    std::ostringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str(), nullptr, false);
}

std::optional<SuiteKind> sniff_kind(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const json j = json::parse(line, nullptr, false);
        if (!j.is_object()) return std::nullopt;
        if (j.contains("question") && j.contains("labels")) return SuiteKind::JevBench;
        if (j.contains("template")) return SuiteKind::Dgem;
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

Result<Suite> load_suite_file(const fs::path& path, const fs::path& working_dir) {
    const auto kind = sniff_kind(path);
    if (kind == SuiteKind::JevBench) return load_jevbench(path);
    if (kind == SuiteKind::Dgem) return load_dgem_suite(path, working_dir);
    return engine::bad_input(
        path.string() +
        ": not a suite (expected JevBench JSONL items or dgem suite lines naming a template)");
}

bool BenchResult::has_generative() const {
    return std::any_of(run.records.begin(), run.records.end(),
                       [](const ItemRecord& r) { return r.generative.has_value(); });
}

std::string BenchResult::backend() const {
    return run.header.is_object() ? run.header.value("backend", std::string()) : std::string();
}

void score_bench(BenchResult& result, const RunScoreOptions& options) {
    result.run_score.reset();
    result.suite_score.reset();
    result.comparison.reset();
    if (result.has_generative())
        result.comparison = compare::compare_suite(result.suite, result.run.records);
    if (result.suite.kind == SuiteKind::JevBench)
        result.run_score = score_run(scored_items(result.suite, result.run.records), options);
    else
        result.suite_score = score_suite(result.suite, result.run.records);
}

Result<BenchResult> run_bench(std::shared_ptr<Backend> backend, BenchRunInput input,
                              const RunProgressFn& progress, const CancelToken& cancel) {
    EvalRunner runner(std::move(backend), input.settings);
    auto ran = runner.run(input.suite, progress, cancel);
    if (!ran) return ran.error();
    BenchResult result;
    result.suite = std::move(input.suite);
    result.dataset_path = std::move(input.dataset_path);
    result.mode = input.settings.mode;
    result.run = std::move(*ran);
    result.leaderboard = std::move(input.leaderboard);
    score_bench(result, input.scoring);
    return result;
}

json result_document(const BenchResult& result, const std::string& program) {
    return result.suite.kind == SuiteKind::JevBench ? jev_document(result, program)
                                                    : dgem_document(result, program);
}

report::BenchInput report_input(const BenchResult& result) {
    report::BenchInput in;
    in.suite = result.suite;
    in.dataset_path = result.dataset_path;
    in.records = result.run.records;
    in.settings = result.run.header;
    in.wall_s = result.run.wall_s;
    in.run_score = result.run_score;
    in.suite_score = result.suite_score;
    if (result.run_score) in.leaderboard = result.leaderboard;
    in.with_comparison = result.has_generative();
    return in;
}

// ---- the run folder ----------------------------------------------------------------------

RunStore::RunStore(fs::path runs_dir) : dir_(std::move(runs_dir)) {}

Result<fs::path> RunStore::create(const std::string& suite_path) const {
    const fs::path dir = dir_ / (local_stamp() + "-" + fs::path(suite_path).stem().string());
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir)) return engine::bad_input(dir.string());
    return dir;
}

std::vector<fs::path> RunStore::kept() const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        std::error_code entry_ec;  // an unreadable entry is not a kept run, not an error
        if (entry.is_directory(entry_ec) && fs::exists(entry.path() / "run.json", entry_ec))
            out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename() > b.filename(); });
    return out;
}

fs::path RunStore::journal_path(const fs::path& run_dir) {
    return run_dir / "journal.jsonl";
}

Result<RunMeta> RunStore::read_meta(const fs::path& run_dir) {
    const json j = read_json_file(run_dir / "run.json");
    if (!j.is_object()) return engine::bad_input(run_dir.string() + ": no run.json");
    RunMeta m;
    auto text = [&](const char* key, const char* fallback) {
        return j.contains(key) && j[key].is_string() ? j[key].get<std::string>()
                                                     : std::string(fallback);
    };
    auto number = [&](const char* key, int fallback) {
        return j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : fallback;
    };
    m.suite = text("suite", "");
    m.status = text("status", "?");
    m.profile = text("profile", "");
    m.endpoint = text("endpoint", "");
    m.workers = number("workers", 1);
    m.limit = number("limit", 0);
    m.mode = parse_run_mode(text("mode", "slot")).value_or(RunMode::Slot);
    m.generative_max_tokens = number("generative_max_tokens", 0);
    m.updated = text("updated", "");
    return m;
}

Result<void> RunStore::write_meta(const fs::path& run_dir, RunMeta meta,
                                  const BenchResult* scored) {
    meta.updated = utc_now();
    json j{{"suite", meta.suite},
           {"status", meta.status},
           {"profile", meta.profile},
           {"endpoint", meta.endpoint},
           {"workers", meta.workers},
           {"limit", meta.limit},
           {"mode", std::string(to_string(meta.mode))},
           {"generative_max_tokens", meta.generative_max_tokens},
           {"updated", meta.updated}};
    if (scored && scored->run_score) j["score"] = to_json(*scored->run_score);
    if (scored && scored->suite_score) j["score"] = to_json(*scored->suite_score);
    if (scored && scored->comparison) j["comparison"] = scored->comparison->to_json();
    return write_file_atomic((run_dir / "run.json").string(), j.dump(2));
}

json meta_settings(const RunMeta& meta, std::optional<uint64_t> seed, bool with_status) {
    json s = {{"suite", meta.suite},
              {"mode", std::string(to_string(meta.mode))},
              {"workers", meta.workers},
              {"limit", meta.limit},
              {"generative_max_tokens", meta.generative_max_tokens},
              {"profile", meta.profile},
              {"endpoint", meta.endpoint}};
    if (with_status) s["status"] = meta.status;
    if (seed) s["seed"] = *seed;
    return s;
}

}  // namespace core::eval
