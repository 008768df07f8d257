// dgem bench -t POLICY -d DATA: flags into a dataset run, its summary printed, its output or
// report written.
#include "bench_dataset.h"

#include <algorithm>
#include <iostream>

#include "backend_factory.h"
#include "bench_common.h"
#include "cascade_flags.h"
#include "core/dataset.h"
#include "report_output.h"

namespace dgem::bench {

namespace {

namespace ds = core::dataset;
namespace ev = core::eval;

bool is_data_output(const std::string& path) {
    return static_cast<bool>(ds::data_format_for(path));
}

void print_summary(const ds::DatasetPlan& plan, const ds::DatasetResult& r, std::ostream& out) {
    const ds::DatasetSummary& s = r.summary;
    if (s.labelled) {
        size_t id_width = 16;
        for (const auto& q : s.questions) id_width = std::max(id_width, q.id.size() + 2);
        out << "\n" << pad("question", id_width) << pad("n", 7) << pad("accuracy", 10) << "ECE\n";
        for (const auto& q : s.questions)
            if (q.labelled)
                out << pad(q.id, id_width) << pad(std::to_string(q.scored), 7)
                    << pad(pct(q.accuracy()), 10) << fixed(q.reliability().ece, 4) << "\n";
        out << "overall: " << s.correct() << " of " << s.scored() << " answers right ("
            << pct(s.accuracy()) << ")\n";
    }
    for (const auto& q : s.questions) {
        if (s.labelled && q.labelled) continue;
        out << "\n" << q.id << " (" << q.answered << " answered):";
        for (size_t i = 0; i < q.names.size(); ++i)
            out << "  " << q.names[i] << " " << q.distribution[i] << " ("
                << pct(q.answered ? static_cast<double>(q.distribution[i]) / q.answered : 0) << ")";
        out << "\n";
    }
    out << "\nrows " << s.rows << ", answered " << s.ok << ", failed " << s.failed;
    for (const auto& [kind, n] : s.failure_kinds) out << " (" << kind << " " << n << ")";
    out << "\n";
    for (size_t i = 0; i < s.failures.size() && i < 10; ++i)
        out << "  FAILED " << s.failures[i].reason << "\n";
    if (s.failed > 10) out << "  ... and " << (s.failed - 10) << " more (see the output file)\n";
    out << "layout "
        << (plan.layout == core::Layout::SchemaFirst ? "schema_first" : "document_first")
        << ", prompt tokens " << s.prompt_tokens << ", cached " << s.cached_prompt_tokens << " ("
        << pct(s.cached_share()) << ")\n"
        << s.rows << " rows in " << fixed(r.wall_s, 1) << " s ("
        << fixed(r.wall_s > 0 ? static_cast<double>(s.rows - r.resumed) / r.wall_s : 0, 2)
        << " rows/s, " << r.header["settings"].value("workers", 1) << " at a time) on " << r.backend
        << "\n";
}

engine::Result<std::map<std::string, std::string>> column_map(const cli::Args& args) {
    std::map<std::string, std::string> map;
    for (const auto& text : args.all("map")) {
        auto m = ds::parse_column_map(text);
        if (!m) return m.error();
        if (!map.emplace(m->first, m->second).second)
            return engine::bad_input("--map " + text + ": the variable " + m->first +
                                     " is mapped twice");
    }
    return map;
}

}  // namespace

std::vector<cli::OptionSpec> dataset_options() {
    return {
        {"template", 't', "POLICY",
         "run a dataset (-d DATA.csv or .jsonl) through this policy template instead of a suite"},
        {"map", 0, "VAR=COLUMN", "with -t: the variable VAR takes the column COLUMN", true},
    };
}

int run_dataset_bench(const cli::Args& args) {
    const std::string policy = args.get("template");
    auto data = args.find("dataset");
    if (!data)
        return cli::fail_bad_input(
            "-t POLICY needs -d DATA: a .csv (header row, one row per "
            "item) or .jsonl (one JSON object a line)");
    if (args.has("tier"))
        return cli::fail_bad_input("-T/--tier selects suite cases; a dataset has no tiers");
    const std::string mode = args.get("mode", "slot");
    const auto run_mode = ev::parse_run_mode(mode);
    if (!run_mode)
        return cli::fail_bad_input("-M/--mode " + mode + ": accepted are slot, generative, both");
    auto max_tokens = int_flag(args, "max-tokens", 0, 0, 4096);
    if (!max_tokens) return cli::fail(max_tokens.error());
    auto limit = int_flag(args, "limit", 0, 0, 1000000000);
    if (!limit) return cli::fail(limit.error());
    auto map = column_map(args);
    if (!map) return cli::fail(map.error());
    const std::string output = args.get("output");
    std::optional<ReportTarget> report;
    if (!output.empty() && !is_data_output(output)) {
        auto target = report_target(args);
        if (!target) return cli::fail(target.error());
        report = **target;
    }
    auto plan = ds::plan_dataset(policy, *data, *map);
    if (!plan) return cli::fail(plan.error());
    if (*limit > 0 && plan->shape.rows > static_cast<size_t>(*limit))
        plan->shape.rows = static_cast<size_t>(*limit);

    const std::string default_journal =
        std::filesystem::path(*data).filename().string() + ".journal.jsonl";
    auto settings = run_settings(args, default_journal);
    if (!settings) return cli::fail(settings.error());
    if (!args.has("samples")) settings->samples.reset();  // the policy's own samples setting
    settings->mode = *run_mode;
    settings->generative_max_tokens = static_cast<int>(*max_tokens);
    settings->extra = {{"command", "bench"}, {"dataset", *data}, {"template", policy}};

    // The stage-2 cascade: the policy's keys, with the --cascade-* flags over them; on_miss
    // escalates what a labelled row's stage 1 missed.
    auto cascade = dgem::apply_run_calibration(args, plan->policy_cascade, *settings);
    if (!cascade) return cli::fail(cascade.error());
    plan->cascade = *cascade;

    auto backend = dgem::make_backend(args);
    if (!backend) return cli::fail(backend.error());
    std::shared_ptr<core::Backend> shared(std::move(backend.value()));
    // Without -w, several rows at once where the engine batches their reads.
    if (!args.has("workers")) settings->workers = ds::default_rows_in_flight(*shared);
    ds::DatasetRunInput input{
        std::move(*plan), std::move(*settings), report ? std::string() : output, {}};
    std::optional<engine::Result<ds::DatasetResult>> ran;
    with_progress(input.settings.journal_path,
                  [&](const ev::RunProgressFn& progress, const engine::CancelToken& cancel) {
                      ran = ds::run_dataset(shared, input, progress, cancel);
                  });
    if (!*ran) return cli::fail(ran->error());
    const ds::DatasetResult& result = ran->value();
    if (result.cancelled) {
        std::cerr << "dgem: interrupted: the rows finished so far are in "
                  << input.settings.journal_path
                  << "; run the same command with --resume to continue\n";
        return cli::kExitCancelled;
    }
    std::ostream& out = args.has("json") ? std::cerr : std::cout;
    print_summary(input.plan, result, out);
    if (!output.empty() && !report) std::cerr << "rows written to " << output << "\n";
    if (report) {
        ds::DatasetReportInput in{
            &input.plan, &result.summary, result.header, result.wall_s,
            core::report::make_provenance("dgem bench", result.backend, std::string())};
        if (auto w = dgem::write_report(*report, ds::dataset_report(in)); !w)
            return cli::fail(w.error());
    }
    if (args.has("json")) std::cout << ds::summary_json(result.summary).dump(2) << "\n";
    return cli::kExitOk;
}

}  // namespace dgem::bench
