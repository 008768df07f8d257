// dgem bench-jev: JevBench v1.4 on any backend, scored as upstream scores it
// (core/evaluation/eval_score.h), resumable from its journal; dgem's variants (temperature, tables,
// sweep, leaderboard) as flags.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "backend_factory.h"
#include "bench_common.h"
#include "cli.h"
#include "core/evaluation/eval_report.h"
#include "core/policy/json_input.h"
#include "data_paths.h"
#include "report_output.h"

namespace {

using nlohmann::json;
namespace ev = core::eval;
using dgem::bench::fixed;
using dgem::bench::pad;
using dgem::bench::pct;

std::string opt(const std::optional<double>& v, int digits = 2) {
    return v ? fixed(*v, digits) : "-";
}

engine::Result<json> read_json_file(const std::string& path, const char* what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path + ": cannot read the " + std::string(what));
    std::ostringstream ss;
    ss << in.rdbuf();
    return core::parse_json_input(ss.str(), path);
}

// The lock's unified sha256 against the dataset's; the error names the lock file and field.
engine::Result<json> check_lock(const std::string& lock_path, const std::string& dataset,
                                const std::string& dataset_sha) {
    auto lock = read_json_file(lock_path, "lock file");
    if (!lock) return lock.error();
    if (!lock->is_object() || !(*lock)["unified_dataset_sha256"].is_string())
        return engine::bad_input(lock_path +
                                 ": field unified_dataset_sha256: missing or not a string");
    const std::string want = (*lock)["unified_dataset_sha256"].get<std::string>();
    if (want != dataset_sha)
        return engine::bad_input(lock_path + ": field unified_dataset_sha256: " + want +
                                 " differs from the sha256 of " + dataset + " (" + dataset_sha +
                                 "); the dataset is not the locked one");
    return *lock;
}

void print_groups(const std::string& title, const std::map<std::string, ev::GroupStats>& groups,
                  std::ostream& out) {
    out << "\n"
        << pad(title, 20) << pad("n", 6) << pad("accuracy", 10) << pad("chance", 9)
        << pad("valid", 7) << pad("mean p", 8) << "p50 s\n";
    for (const auto& [k, g] : groups)
        out << pad(k.empty() ? "(none)" : k, 20) << pad(std::to_string(g.n), 6)
            << pad(pct(g.accuracy), 10) << pad(pct(g.chance), 9) << pad(std::to_string(g.valid), 7)
            << pad(fixed(g.mean_confidence, 3), 8) << fixed(g.p50_latency_s, 3) << "\n";
}

void print_scorecard(const ev::RunScore& s, std::ostream& out) {
    out << "\nJevBench v1.4 scorecard (public items; upstream's scorer)\n";
    out << "  items " << s.n << ", correct " << s.correct << " (" << pct(s.accuracy) << "), valid "
        << s.valid << ", failed " << s.failed << ", renormalised " << s.renormalized << "\n";
    out << "  Intelligence (I13, public tiers)   " << opt(s.public_axes.intelligence) << "\n";
    if (s.intelligence_v14)
        out << "  Intelligence v1.4 (with --sealed-acc) " << opt(s.intelligence_v14) << "\n";
    out << "  Calibration  (C13)                 " << opt(s.public_axes.calibration)
        << "   ECE(hard) " << opt(s.ece_hard, 4) << ", soft TVD " << opt(s.soft_tvd, 4) << " over "
        << s.tvd_items << " probability items" << (s.calibration_ece_only ? " (ECE term only)" : "")
        << "\n";
    out << "  Speed (" << ev::to_string(s.endpoint_kind) << ")                        "
        << opt(s.public_axes.speed) << "   p50 " << opt(s.p50_s, 3) << " s, p95 " << opt(s.p95_s, 3)
        << " s -> adjusted " << opt(s.p50_adjusted_s, 3) << " / " << opt(s.p95_adjusted_s, 3)
        << " s\n";
    out << "  Cost                               " << opt(s.public_axes.cost);
    if (s.cost)
        out << "   $" << fixed(*s.usd_per_1k, 6) << " per 1,000 decisions"
            << (s.cost_is_estimate ? " (labelled estimate: upstream's djev price)" : "");
    else
        out << "   no price (--usd-per-1k or --cost-estimate): no Cost axis, no composite";
    out << "\n  Brier (reported, not scored)       " << fixed(s.brier, 4) << "\n";
    if (s.temperature)
        out << "  temperature T = " << fixed(*s.temperature, 3)
            << (s.fold_temperatures.empty() ? " (--temperature-scale)" : " (5-fold CV fit)")
            << "\n";
    out << "  public-only estimate* " << opt(s.public_estimate)
        << "   (* the v1.4 formula on public axes; no official rank without a sealed run)\n";
    out << "  latency basis: " << s.latency_basis << "\n";
}

void print_reliability(const ev::RunScore& s, std::ostream& out) {
    out << "\nreliability, hard tier (" << s.reliability.n << " valid answers, ECE "
        << fixed(s.reliability.ece, 4) << ")\n"
        << pad("bin", 12) << pad("n", 6) << pad("confidence", 12) << "accuracy\n";
    for (const auto& b : s.reliability.bins)
        out << pad(fixed(b.lo, 1) + "-" + fixed(b.hi, 1), 12) << pad(std::to_string(b.n), 6)
            << pad(b.n ? fixed(b.confidence, 3) : "-", 12) << (b.n ? fixed(b.accuracy, 3) : "-")
            << "\n";
}

void print_extras(const ev::RunScore& s, std::ostream& out) {
    out << "\nparaphrase pairs: " << s.paraphrase.groups << " groups, consistent "
        << s.paraphrase.consistent << " (" << pct(s.paraphrase.agreement) << "), all correct "
        << s.paraphrase.both_correct << " (" << pct(s.paraphrase.both_correct_rate) << ")\n";
    out << "\nhesitation sweep (escalate when entropy / ln|labels| > t)\n"
        << pad("t", 6) << pad("escalated", 12) << pad("kept", 6) << "kept accuracy\n";
    for (const auto& h : s.hesitation_sweep)
        out << pad(fixed(h.threshold, 1), 6) << pad(pct(h.escalated_share), 12)
            << pad(std::to_string(h.kept), 6) << (h.kept ? pct(h.kept_accuracy) : "-") << "\n";
}

void print_leaderboard(const ev::Leaderboard& lb, const ev::RunScore& s, std::ostream& out) {
    std::vector<ev::LeaderboardRow> rows = lb.rows;
    ev::LeaderboardRow me;
    me.key = "this-run";
    me.display = "THIS RUN (public-only estimate*)";
    me.this_run = true;
    me.axes = s.public_axes;
    me.score = s.public_estimate.value_or(-1);
    if (s.public_estimate) rows.push_back(me);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.score > b.score; });
    out << "\nleaderboard " << lb.revision << " (" << lb.protocol << ")"
        << (s.public_estimate ? "" : "; this run has no composite (no price given)") << "\n"
        << pad("#", 5) << pad("system", 46) << pad("score", 8) << pad("I", 7) << pad("C", 7)
        << pad("S", 7) << pad("Cost", 7) << "kind\n";
    int place = 0;
    for (const auto& r : rows) {
        ++place;
        std::string rank = r.this_run ? "(" + std::to_string(place) + ")" : std::to_string(r.rank);
        out << pad(rank, 5) << pad(r.display.substr(0, 44), 46) << pad(fixed(r.score, 2), 8)
            << pad(opt(r.axes.intelligence, 1), 7) << pad(opt(r.axes.calibration, 1), 7)
            << pad(opt(r.axes.speed, 1), 7) << pad(opt(r.axes.cost, 1), 7)
            << (r.this_run ? std::string("<-- ") + ev::to_string(s.endpoint_kind) : r.endpoint_kind)
            << "\n";
    }
    out << "(rank in brackets: where THIS RUN's estimate would sit among the published rows; the "
           "published ranks count more systems)\n";
}

// --sync: verify (no network here). With --from DIR, the split files of a local checkout.
int run_sync(const cli::Args& args, const std::string& dataset, const std::string& lock_path) {
    auto lock = read_json_file(lock_path, "lock file");
    if (!lock) return cli::fail(lock.error());
    if (auto from = args.find("from")) {
        std::string unified;
        if (!(*lock)["splits"].is_array())
            return cli::fail_bad_input(lock_path + ": field splits: missing or not a list");
        for (const auto& split : (*lock)["splits"]) {
            const std::string name = split.value("name", "");
            std::filesystem::path p =
                std::filesystem::path(*from) / "datasets/public" / (name + ".jsonl");
            if (!std::filesystem::exists(p)) p = std::filesystem::path(*from) / (name + ".jsonl");
            auto sha = ev::file_sha256(p);
            if (!sha) return cli::fail(sha.error());
            if (*sha != split.value("sha256", ""))
                return cli::fail_bad_input(lock_path + ": field splits[" + name +
                                           "].sha256: " + split.value("sha256", "") +
                                           " differs from " + p.string() + " (" + *sha + ")");
            std::ifstream in(p, std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            unified += ss.str();
            if (!unified.empty() && unified.back() != '\n') unified += "\n";
            std::cout << "sync: " << p.string() << " matches the lock (" << split.value("items", 0)
                      << " items)\n";
        }
        auto suite = ev::load_jevbench_text(unified, *from + " (splits)");
        if (!suite) return cli::fail(suite.error());
        std::cout << "sync: " << suite->items.size() << " items read from the splits; writing "
                  << dataset << "\n";
        std::filesystem::create_directories(std::filesystem::path(dataset).parent_path().empty()
                                                ? "."
                                                : std::filesystem::path(dataset).parent_path());
        auto w = ev::write_file_atomic(dataset, unified);
        if (!w) return cli::fail(w.error());
    } else if (!std::filesystem::exists(dataset)) {
        std::string url;
        if ((*lock)["splits"].is_array() && !(*lock)["splits"].empty())
            url = (*lock)["splits"][0].value("source_url", "");
        return cli::fail_bad_input(
            dataset +
            ": not here, and this machine has no network to download "
            "it (" +
            url + ", ...); pass --from DIR with a checkout of " +
            lock->value("upstream_repo", std::string("the upstream repository")));
    }
    auto sha = ev::file_sha256(dataset);
    if (!sha) return cli::fail(sha.error());
    auto checked = check_lock(lock_path, dataset, *sha);
    if (!checked) return cli::fail(checked.error());
    auto problems = ev::leakage_problems(dataset);
    if (!problems.empty()) {
        for (const auto& p : problems) std::cerr << "dgem: " << p << "\n";
        return cli::fail_bad_input(dataset + ": zero-leakage check failed (" +
                                   std::to_string(problems.size()) + " problems)");
    }
    std::cout << "sync: " << dataset << " sha256 " << *sha << " matches " << lock_path
              << " (upstream " << lock->value("upstream_repo", "") << " @ "
              << lock->value("git_ref", "") << ", " << lock->value("commit_sha", "").substr(0, 8)
              << "); zero-leakage check passed\n";
    return cli::kExitOk;
}

// dgem's default (a dgem checkout's benchmarks/ folder) when it is there; otherwise the public
// items this build was made beside (../shared/data/jevbench), so the bare command runs.
std::string default_dataset() {
    const std::string dgem_default = "benchmarks/jevbench/jevbench_public.jsonl";
    if (std::filesystem::exists(dgem_default)) return dgem_default;
    return app_paths::jevbench_dir() + "/jevbench_public.jsonl";
}

// The scoring flags: endpoint kind, price, temperature variants, the sealed accuracy.
engine::Result<ev::RunScoreOptions> scoring_options(const cli::Args& args) {
    ev::RunScoreOptions so;
    auto kind = ev::parse_endpoint_kind(args.get("endpoint-kind", "gpu"));
    if (!kind)
        return engine::bad_input("--endpoint-kind " + args.get("endpoint-kind") +
                                 ": accepted: gpu, api, cpu (or demo, unknown)");
    so.endpoint_kind = *kind;
    if (args.has("usd-per-1k")) {
        auto usd = dgem::bench::real_flag(args, "usd-per-1k", 0, 1e-12, 1e9);
        if (!usd) return usd.error();
        so.usd_per_1k = *usd;
    }
    so.cost_estimate = args.has("cost-estimate");
    if (args.has("temperature-scale")) {
        auto t = dgem::bench::real_flag(args, "temperature-scale", 1, 1e-3, 1000);
        if (!t) return t.error();
        so.temperature = *t;
    }
    so.auto_temperature = args.has("auto-temperature");
    if (so.auto_temperature && so.temperature)
        return engine::bad_input("give --temperature-scale or --auto-temperature, not both");
    if (args.has("sealed-acc")) {
        auto a = dgem::bench::real_flag(args, "sealed-acc", 0, 0, 1);
        if (!a) return a.error();
        so.sealed_accuracy = *a;
    }
    return so;
}

// The dataset, checked against the lock when --lockfile is given, with the filter flags applied
// (recorded in `filter`).
engine::Result<ev::Suite> filtered_suite(const cli::Args& args, const std::string& dataset,
                                         const std::string& lock_path, ev::SuiteFilter& filter) {
    auto suite = ev::load_jevbench(dataset);
    if (!suite) return suite.error();
    if (args.has("lockfile")) {
        auto checked = check_lock(lock_path, dataset, suite->sha256);
        if (!checked) return checked.error();
    }
    filter.tier = args.get("tier");
    filter.family = args.get("family");
    filter.topic = args.get("topic");
    auto offset = dgem::bench::int_flag(args, "offset", 0, 0, 1000000);
    if (!offset) return offset.error();
    auto limit = dgem::bench::int_flag(args, "limit", 0, 0, 1000000);
    if (!limit) return limit.error();
    filter.offset = static_cast<size_t>(*offset);
    filter.limit = static_cast<size_t>(*limit);
    ev::apply_filter(*suite, filter);
    if (suite->items.empty())
        return engine::bad_input("no items left after -T/--family/--topic/--offset/-n");
    return suite;
}

// --compare-leaderboard: the published rows (default file beside the dataset).
engine::Result<std::optional<ev::Leaderboard>> leaderboard_flag(const cli::Args& args,
                                                                const std::filesystem::path& dir) {
    if (!args.has("compare-leaderboard")) return std::optional<ev::Leaderboard>();
    const std::string lb_path = args.get(
        "leaderboard",
        (dir.empty() ? std::filesystem::path("leaderboard_v14.json") : dir / "leaderboard_v14.json")
            .string());
    auto lb = ev::load_leaderboard(lb_path);
    if (!lb) return lb.error();
    return std::optional<ev::Leaderboard>(std::move(*lb));
}

void print_run(const cli::Args& args, const ev::BenchResult& result, std::ostream& out) {
    const ev::RunScore& score = *result.run_score;
    print_groups("tier", score.by_tier, out);
    print_groups("family", score.by_family, out);
    print_groups("topic", score.by_topic, out);
    print_scorecard(score, out);
    print_reliability(score, out);
    print_extras(score, out);
    if (result.leaderboard) print_leaderboard(*result.leaderboard, score, out);
    out << "\n"
        << result.suite.items.size() << " items in " << fixed(result.run.wall_s, 1) << " s on "
        << result.backend();
    if (auto o = args.find("output")) out << "; written to " << *o;
    out << "\n";
}

int run_bench_jev(const cli::Args& args) {
    const std::string dataset = args.get("dataset", default_dataset());
    const std::filesystem::path dir = std::filesystem::path(dataset).parent_path();
    const std::string lock_path = args.get(
        "lockfile",
        (dir.empty() ? std::filesystem::path("manifest.lock.json") : dir / "manifest.lock.json")
            .string());
    if (args.has("sync")) return run_sync(args, dataset, lock_path);
    if (args.has("from")) return cli::fail_bad_input("--from DIR goes with --sync");

    ev::BenchRunInput input;
    auto scoring = scoring_options(args);
    if (!scoring) return cli::fail(scoring.error());
    input.scoring = *scoring;
    auto target = dgem::report_target(args);
    if (!target) return cli::fail(target.error());
    ev::SuiteFilter filter;
    auto suite = filtered_suite(args, dataset, lock_path, filter);
    if (!suite) return cli::fail(suite.error());
    input.suite = std::move(*suite);
    input.dataset_path = dataset;
    auto leaderboard = leaderboard_flag(args, dir);
    if (!leaderboard) return cli::fail(leaderboard.error());
    input.leaderboard = std::move(*leaderboard);

    auto settings = dgem::bench::run_settings(args, "bench-jev.journal.jsonl");
    if (!settings) return cli::fail(settings.error());
    settings->extra = {{"command", "bench-jev"},
                       {"dataset", dataset},
                       {"filter",
                        {{"tier", filter.tier},
                         {"family", filter.family},
                         {"topic", filter.topic},
                         {"offset", filter.offset},
                         {"limit", filter.limit}}}};
    input.settings = std::move(*settings);
    auto ran = dgem::bench::run_on_endpoint(args, std::move(input), "items");
    if (const int* code = std::get_if<int>(&ran)) return *code;
    const ev::BenchResult& result = std::get<ev::BenchResult>(ran);

    const json report = ev::result_document(result, "dgem bench-jev");
    if (*target) {
        core::report::BenchInput in = ev::report_input(result);
        in.extra = report;
        in.provenance =
            core::report::make_provenance("dgem bench-jev", result.backend(), std::string());
        if (auto w = dgem::write_report(**target, core::report::bench_report(in)); !w)
            return cli::fail(w.error());
    }
    print_run(args, result, args.has("json") ? std::cerr : std::cout);
    if (args.has("json")) std::cout << report.dump(2) << "\n";
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(bench_jev) {
    std::vector<cli::OptionSpec> options = {
        {"dataset", 'd', "FILE",
         "JevBench JSONL (default benchmarks/jevbench/jevbench_public.jsonl, else the public "
         "items beside this build)"},
        {"lockfile", 0, "FILE", "manifest.lock.json; given: the dataset's sha256 must match it"},
        {"sync", 0, "", "check the dataset against the lock and run the zero-leakage check"},
        {"from", 0, "DIR", "with --sync: take the split files from a local jevbench checkout"},
        {"tier", 'T', "TIER", "only items of this tier (easy, standard, hard)"},
        {"family", 0, "NAME", "only items of this family"},
        {"topic", 0, "NAME", "only items of this topic"},
        {"limit", 'n', "N", "at most N items (0: all)"},
        {"offset", 0, "N", "skip the first N items (after the filters)"},
        {"endpoint-kind", 0, "KIND", "latency adjustment: gpu (default), api, cpu"},
        {"usd-per-1k", 0, "USD",
         "price per 1,000 decisions: gives the Cost axis and the composite"},
        {"cost-estimate", 0, "",
         "use upstream's djev price for these weights, labelled an estimate"},
        {"temperature-scale", 0, "T",
         "dgem variant: post-hoc temperature p^(1/T) before calibration"},
        {"auto-temperature", 0, "", "dgem variant: fit T by 5-fold cross-validation"},
        {"sealed-acc", 0, "ACC", "accuracy on the sealed items, for the v1.4 intelligence"},
        {"compare-leaderboard", 0, "", "print the v1.4 leaderboard with THIS RUN at its rank"},
        {"leaderboard", 0, "FILE", "leaderboard_v14.json (default: beside the dataset)"},
    };
    for (auto& o : dgem::bench::runner_options()) options.push_back(o);
    for (auto& o : dgem::endpoint_options()) options.push_back(o);
    return cli::CommandSpec{
        "bench-jev",
        "JevBench v1.4 on any backend, scored as upstream scores it",
        "dgem bench-jev [--local | -u URL] [-d FILE] [-T TIER] [-n N] [-w N] [--samples N|auto] "
        "[--endpoint-kind gpu|api|cpu] [--usd-per-1k USD] [--compare-leaderboard] [--resume] "
        "[-o FILE] [--json]",
        "Runs every item as a one-question decision (labels in the item's order), records each\n"
        "finished item in a journal (fsync'd; --resume continues after Ctrl+C or a crash) and\n"
        "scores the run with upstream's v1.4 rules: validity and renormalisation, "
        "chance-corrected\n"
        "tier accuracy, hard-tier ECE and soft TVD, Speed with the endpoint kind, Cost only with "
        "a\n"
        "price, the harmonic composite with its gates. Without a sealed run the composite is a\n"
        "public-only estimate (marked *). Each item's seed derives from --seed and its id.",
        options,
        run_bench_jev};
}
