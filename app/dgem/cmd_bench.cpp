// dgem bench -d SUITE: a dgem-format suite (policy template + variables + expected answers per
// line) on any backend: accuracy per question and overall, mean confidence, ECE, Brier, latency.
#include <algorithm>
#include <iostream>

#include "backend_factory.h"
#include "bench_common.h"
#include "bench_dataset.h"
#include "cascade_flags.h"
#include "cli.h"
#include "core/comparison/compare.h"
#include "core/evaluation/eval_report.h"
#include "report_output.h"

namespace {

using nlohmann::json;
namespace ev = core::eval;
using dgem::bench::fixed;
using dgem::bench::pad;
using dgem::bench::pct;

std::string seconds(const std::optional<double>& s) {
    return s ? fixed(*s, 3) + " s" : "-";
}

// The slot-vs-generative summary of a run in mode generative or both.
void print_side_by_side(const core::compare::SuiteComparison& c, ev::RunMode mode,
                        std::ostream& out) {
    const bool slot = mode != ev::RunMode::Generative;
    auto cell = [&](const std::string& text) { return pad(slot ? text : "-", 22); };
    out << "\n"
        << pad("", 22) << pad("slot readout", 22) << "generative JSON\n"
        << pad("accuracy", 22)
        << cell(pct(c.slot.accuracy) + " (" + std::to_string(c.slot.correct) + "/" +
                std::to_string(c.slot.answers) + ")")
        << pct(c.generative.accuracy) << " (" << c.generative.correct << "/" << c.generative.answers
        << ")\n"
        << pad("valid answers", 22) << cell("100% (labels only)") << pct(c.valid_share) << " ("
        << c.generative_valid << "/" << c.generative_replies << " replies)\n"
        << pad("latency p50", 22) << cell(seconds(c.slot.p50_s)) << seconds(c.generative.p50_s)
        << "\n"
        << pad("latency p95", 22) << cell(seconds(c.slot.p95_s)) << seconds(c.generative.p95_s)
        << "\n"
        << pad("passes (mean)", 22) << cell(fixed(c.slot.mean_passes, 1))
        << fixed(c.generative.mean_passes, 1) << "\n"
        << pad("completion tokens", 22) << cell("-") << fixed(c.mean_completion_tokens, 1) << "\n";
    if (slot)
        out << "agreement " << pct(c.agreement) << " (" << c.agreeing << " of " << c.compared
            << " answers both gave); generative p50 latency " << fixed(c.latency_ratio, 1)
            << "x the slot's\n";
}

int run_bench(const cli::Args& args) {
    if (args.has("template")) return dgem::bench::run_dataset_bench(args);
    auto path = args.find("dataset");
    if (!path)
        return cli::fail_bad_input(
            "-d/--dataset SUITE is required (dgem's suite format, one JSON object a line; the "
            "shipped one is resources/suites/policies.jsonl)");
    const std::string mode = args.get("mode", "slot");
    const auto run_mode = ev::parse_run_mode(mode);
    if (!run_mode)
        return cli::fail_bad_input("-M/--mode " + mode + ": accepted are slot, generative, both");
    auto max_tokens = dgem::bench::int_flag(args, "max-tokens", 0, 0, 4096);
    if (!max_tokens) return cli::fail(max_tokens.error());
    auto target = dgem::report_target(args);
    if (!target) return cli::fail(target.error());
    auto suite = ev::load_dgem_suite(*path);
    if (!suite) return cli::fail(suite.error());
    ev::SuiteFilter filter;
    filter.tier = args.get("tier");
    auto limit = dgem::bench::int_flag(args, "limit", 0, 0, 1000000);
    if (!limit) return cli::fail(limit.error());
    filter.limit = static_cast<size_t>(*limit);
    ev::apply_filter(*suite, filter);
    if (suite->items.empty()) return cli::fail_bad_input("no cases left after -T/-n");

    auto settings = dgem::bench::run_settings(args, "bench.journal.jsonl");
    if (!settings) return cli::fail(settings.error());
    if (!args.has("samples")) settings->samples.reset();  // the policies' own samples setting
    settings->mode = *run_mode;
    settings->generative_max_tokens = static_cast<int>(*max_tokens);
    settings->extra = {{"command", "bench"}, {"dataset", *path}};
    // The stage-2 cascade: the first cascaded case's policy keys, with the --cascade-* flags
    // over them (on_miss: what a case's stage 1 missed).
    core::CascadeSettings policy_cascade;
    for (const auto& item : suite->items)
        if (item.schema.cascade.mode != core::CascadeMode::Off) {
            policy_cascade = item.schema.cascade;
            break;
        }
    if (auto c = dgem::apply_run_calibration(args, policy_cascade, *settings); !c)
        return cli::fail(c.error());
    ev::BenchRunInput input;
    input.suite = std::move(*suite);
    input.dataset_path = *path;
    input.settings = std::move(*settings);
    auto ran = dgem::bench::run_on_endpoint(args, std::move(input), "cases");
    if (const int* code = std::get_if<int>(&ran)) return *code;
    const ev::BenchResult& result = std::get<ev::BenchResult>(ran);
    const ev::SuiteScore& score = *result.suite_score;
    const json report = ev::result_document(result, "dgem bench");
    const bool generative = *run_mode != ev::RunMode::Slot;
    if (*target) {
        core::report::BenchInput in = ev::report_input(result);
        in.extra = report;
        in.provenance =
            core::report::make_provenance("dgem bench", result.backend(), std::string());
        if (auto w = dgem::write_report(**target, core::report::bench_report(in)); !w)
            return cli::fail(w.error());
    }
    std::ostream& out = args.has("json") ? std::cerr : std::cout;
    out << "\n"
        << pad("case", 12) << pad("domain", 12) << pad("tier", 14) << pad("match", 7)
        << pad("wall s", 8) << "answers\n";
    json cases = report["cases"];
    for (const auto& c : cases) {
        std::string answers;
        for (auto it = c["answers"].begin(); it != c["answers"].end(); ++it) {
            const json& a = it.value();
            answers +=
                it.key() + "=" +
                (a["predicted"].is_null() ? "-" : a["predicted"].get<std::string>()) +
                (a["correct"].get<bool>() ? " "
                                          : " (want " + a["expected"].get<std::string>() + ") ");
        }
        out << pad(c["id"].get<std::string>(), 12) << pad(c["domain"].get<std::string>(), 12)
            << pad(c["tier"].get<std::string>(), 14)
            << pad(c["correct"].get<bool>() ? "PASS" : "FAIL", 7)
            << pad(fixed(c["latency_s"].get<double>(), 3), 8) << answers << "\n";
    }
    size_t id_width = 16;
    for (const auto& [id, q] : score.by_question) id_width = std::max(id_width, id.size() + 2);
    out << "\n" << pad("question", id_width) << pad("n", 5) << pad("accuracy", 10) << "mean p\n";
    for (const auto& [id, q] : score.by_question)
        out << pad(id, id_width) << pad(std::to_string(q.n), 5) << pad(pct(q.accuracy), 10)
            << fixed(q.mean_confidence, 3) << "\n";
    out << "\ncases " << score.cases << ", all answers right " << score.cases_correct << " ("
        << pct(score.case_accuracy) << "); answers " << score.answers << ", right "
        << score.answers_correct << " (" << pct(score.answer_accuracy) << "); failed "
        << score.failed << "\nmean confidence " << fixed(score.mean_confidence, 3) << ", ECE "
        << fixed(score.reliability.ece, 4) << ", Brier " << fixed(score.brier, 4)
        << ", latency p50 " << (score.p50_s ? fixed(*score.p50_s, 3) : "-") << " s, p95 "
        << (score.p95_s ? fixed(*score.p95_s, 3) : "-") << " s\n"
        << result.suite.items.size() << " cases in " << fixed(result.run.wall_s, 1) << " s on "
        << result.backend() << "\n";
    if (generative && result.comparison) print_side_by_side(*result.comparison, *run_mode, out);
    if (args.has("json")) std::cout << report.dump(2) << "\n";
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(bench) {
    std::vector<cli::OptionSpec> options = {
        {"dataset", 'd', "SUITE|DATA",
         "dgem suite: one {id, domain, template, variables, expected, tier} a line; with -t, a "
         "dataset: .csv (header row) or .jsonl, one row per item"},
        {"mode", 'M', "MODE",
         "slot (slot readout), generative (generative JSON, parsed strictly) or both, side by "
         "side"},
        {"max-tokens", 0, "N",
         "completion budget of the generative side (default: sized to each case's questions)"},
        {"limit", 'n', "N", "at most N cases (0: all)"},
        {"tier", 'T', "TIER", "only cases of this tier"},
    };
    for (auto& o : dgem::bench::dataset_options()) options.push_back(o);
    for (auto& o : dgem::bench::runner_options()) {
        if (o.long_name == "samples") o.help = "reads per question (default: each policy's own)";
        options.push_back(o);
    }
    for (auto& o : dgem::endpoint_options()) options.push_back(o);
    for (auto& o : dgem::calibration_options()) options.push_back(o);
    return cli::CommandSpec{
        "bench",
        "run a dgem-format policy suite and score its expected answers",
        "dgem bench -d SUITE [-M slot|generative|both] [--local | -u URL] [-n N] [-w N] [--resume] "
        "[-o FILE] [--json]\n"
        "       dgem bench -t POLICY -d DATA.csv|DATA.jsonl [--map VAR=COLUMN ...] [-M ...] [-w N] "
        "[--resume] [-o OUT.csv|OUT.jsonl|REPORT.html|REPORT.pdf] [--json]",
        "Renders each case's template with its variables (templates are found relative to the\n"
        "working directory, then the suite's folder and its parent, as dgem finds them), decides,\n"
        "and compares each expected answer (option, level or yes/no name) with the prediction.\n"
        "A case passes when every expected answer matches. Finished cases go to a journal;\n"
        "--resume continues an interrupted run. -M generative asks each case for one JSON\n"
        "object instead, parsed strictly (invalid replies count as wrong, with the reason);\n"
        "-M both asks both ways and prints accuracy, validity, latency, passes and agreement\n"
        "side by side.\n\n"
        "With -t POLICY, -d is a dataset: every row through the policy, its columns the\n"
        "template's variables by name (--map VAR=COLUMN renames), ground truth optional as\n"
        "expected_<question> columns (JSONL: keys, or an \"expected\" object). Rows stream from\n"
        "the file and go to the journal in row order; a row that fails is reported with its\n"
        "number and id and the run goes on. -o OUT.csv|OUT.jsonl writes one row per data row\n"
        "(input columns, then per question the answer, _p, _entropy, _hesitation, _agreement,\n"
        "and with ground truth expected_<id> and _correct); -o REPORT.html|.pdf the report.\n"
        "A labelled run prints accuracy per question, an unlabelled one the answers' spread.",
        options,
        run_bench};
}
