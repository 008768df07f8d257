// dgem compare: one decision asked both ways on the same backend, the slot readout (one
// decoder pass) against generative JSON (the denoising loop, parsed strictly), as a two-column
// table or, with --json, the comparison's JSON.
#include <iostream>

#include "backend_factory.h"
#include "bench_common.h"
#include "cli.h"
#include "core/comparison/compare.h"
#include "core/evaluation/eval_runner.h"
#include "decision_input.h"
#include "report_output.h"

namespace {

using cli::fixed;
using cli::pad;
namespace cmp = core::compare;

std::string slot_cell(const cmp::QuestionComparison& q) {
    if (q.slot_winner < 0) return "-";
    std::string answer = q.alternatives[static_cast<size_t>(q.slot_winner)];
    if (answer != q.labels[static_cast<size_t>(q.slot_winner)])
        answer += " (" + q.labels[static_cast<size_t>(q.slot_winner)] + ")";
    return answer + " p " + fixed(q.slot_probability, 3) + ", " +
           std::string(core::to_string(q.hesitation_class));
}

std::string generative_cell(const cmp::QuestionComparison& q) {
    if (q.generative < 0) return "-";
    std::string answer = q.alternatives[static_cast<size_t>(q.generative)];
    if (answer != q.labels[static_cast<size_t>(q.generative)])
        answer += " (" + q.labels[static_cast<size_t>(q.generative)] + ")";
    return answer;
}

void print_table(const cmp::Comparison& c, std::ostream& out) {
    constexpr size_t kQ = 16, kSide = 40;
    out << pad("question", kQ) << pad("slot readout", kSide) << pad("generative JSON", kSide)
        << "agree\n";
    for (const auto& q : c.questions)
        out << pad(q.id, kQ) << pad(slot_cell(q), kSide) << pad(generative_cell(q), kSide)
            << (q.slot_winner >= 0 && q.generative >= 0 ? (q.agree ? "yes" : "no") : "-") << "\n";
    out << "\n"
        << pad("passes", kQ) << pad(c.slot ? std::to_string(c.slot_timing.passes) : "-", kSide)
        << (c.generation ? std::to_string(c.generative_timing.passes) : "-") << "\n"
        << pad("latency", kQ)
        << pad(c.slot ? fixed(c.slot_timing.latency_ms, 1) + " ms" : "-", kSide)
        << (c.generation ? fixed(c.generative_timing.latency_ms, 1) + " ms" : "-");
    if (c.latency_ratio() > 0) out << " (" << fixed(c.latency_ratio(), 1) << "x the slot's)";
    out << "\n"
        << pad("tokens", kQ)
        << pad(c.slot ? std::to_string(c.slot->prompt_tokens) + " prompt" : "-", kSide)
        << (c.generation ? std::to_string(c.generation->prompt_tokens) + " prompt, " +
                               std::to_string(c.generation->completion_tokens) + " completion"
                         : "-")
        << "\n"
        << pad("valid", kQ) << pad(c.slot ? "yes (labels only)" : "-", kSide)
        << (c.generative.valid ? "yes" : "no") << "\n";
    if (!c.slot_error.empty()) out << "\nslot readout failed: " << c.slot_error << "\n";
    if (!c.generation_error.empty())
        out << "\ngenerative side failed: " << c.generation_error << "\n";
    else if (!c.generative.valid)
        out << "\ninvalid generative answer: " << c.generative.reason() << "\n";
    if (c.generation) out << "\nraw generative reply:\n" << c.generation->text << "\n";
    out << "\nagreement " << c.agreeing << " of " << c.compared << " questions answered by both"
        << "; on " << c.backend << "\n";
}

int run_compare(const cli::Args& args) {
    auto input = dgem::load_decision_input(args);
    if (!input) return cli::fail(input.error());
    auto max_tokens = dgem::bench::int_flag(args, "max-tokens", 0, 0, 4096);
    if (!max_tokens) return cli::fail(max_tokens.error());
    auto target = dgem::report_target(args);
    if (!target) return cli::fail(target.error());
    auto backend = dgem::make_backend(args);
    if (!backend) return cli::fail(backend.error());

    core::DecideRequest request;
    request.schema = input->schema;
    request.state = input->state;
    request.seed = input->seed;
    request.images = input->images;
    cmp::CompareOptions options;
    options.max_tokens = static_cast<int>(*max_tokens);
    engine::CancelToken cancel;
    cmp::Comparison c = cmp::run_comparison(**backend, request, options, {}, cancel);

    const nlohmann::json j = c.to_json();
    if (*target) {
        core::report::ComparisonInput in;
        in.policy = {input->policy_name, input->source};
        in.schema = input->schema;
        in.variables = input->variables;
        in.comparison = c;
        in.images = input->images;
        in.provenance = core::report::make_provenance("dgem compare", (*backend)->describe(),
                                                      c.slot ? c.slot->model : std::string());
        if (auto w = dgem::write_report(**target, core::report::comparison_report(in)); !w)
            return cli::fail(w.error());
    }
    if (args.has("json"))
        std::cout << j.dump(2) << "\n";
    else
        print_table(c, std::cout);
    // The generative side failing is part of the result; the slot side failing is the error.
    if (!c.slot) return cli::fail(engine::remote_error(c.slot_error));
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(compare) {
    auto options = dgem::decision_options();
    for (auto& o : dgem::endpoint_options()) options.push_back(o);
    options.push_back({"max-tokens", 0, "N",
                       "completion budget of the generative side (default: sized to the "
                       "questions, 32..256)"});
    for (auto& o : dgem::report_options("the comparison")) options.push_back(o);
    options.push_back({"json", 0, "", "print the comparison as JSON"});
    return cli::CommandSpec{
        "compare",
        "one decision as a slot readout and as generative JSON, side by side",
        "dgem compare --local -t FILE [-v key=value ...] [--max-tokens N] [--json] [-o FILE]",
        "Asks the policy's questions twice on the same backend: the slot readout (one decoder\n"
        "pass, probabilities per label) and generative JSON (the model writes\n"
        "{\"question\": \"value\", ...}, parsed strictly: not JSON, a missing question, an\n"
        "unknown key or a value outside the allowed ones make it invalid, with the reason).\n"
        "Prints both answers per question, whether they agree, passes, latency and validity.",
        options,
        run_compare};
}
