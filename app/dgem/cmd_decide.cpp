// dgem decide: one structured decision from a policy template, on the local engine (--local)
// or a server. Prints the answers in the structured server's shapes; --json adds diagnostics;
// --stats a readable table of probabilities, hesitation, error bars and timings.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "backend_factory.h"
#include "cli.h"
#include "core/read_stats.h"
#include "decision_input.h"
#include "report_output.h"

namespace {

using cli::fixed;
using cli::pad;

void print_stats(const core::Decision& d, std::ostream& out) {
    out << pad("question", 14) << pad("answer", 22) << pad("p", 8) << pad("hesitation", 24)
        << pad("stderr", 9) << pad("agreement", 11) << "reads\n";
    for (const auto& q : d.questions) {
        std::string answer = q.labels.empty() ? "" : q.labels[q.winner];
        if (q.type != core::QuestionType::Noul &&
            q.winner < static_cast<int>(q.alternatives.size()))
            answer = q.alternatives[q.winner] + " (" + answer + ")";
        const size_t n = q.per_read.size();
        int agree = static_cast<int>(std::lround(q.agreement * static_cast<double>(n)));
        out << pad(q.id, 14) << pad(answer, 22) << pad(fixed(q.confidence, 3), 8)
            << pad(std::string(core::to_string(q.hesitation_class())) + " " +
                       fixed(100 * q.hesitation, 0) + "%",
                   24)
            << pad(q.stderr_winner ? "±" + fixed(*q.stderr_winner, 3) : "-", 9)
            << pad(n > 1 ? std::to_string(agree) + "/" + std::to_string(n) : "-", 11) << n << "\n";
    }
    out << "\nprobabilities:\n";
    for (const auto& q : d.questions) {
        out << "  " << pad(q.id, 12);
        for (size_t i = 0; i < q.mean.size() && i < q.alternatives.size(); ++i) {
            out << " " << q.alternatives[i] << " " << fixed(q.mean[i], 3);
            if (i < q.stderr_labels.size()) out << " ±" << fixed(q.stderr_labels[i], 3);
        }
        out << "   (H " << fixed(q.entropy, 3) << " nats, label mass " << fixed(q.label_mass, 3)
            << (q.argmax_is_label ? "" : ", argmax not a label") << ")\n";
    }
    out << "\ntimings: total " << fixed(d.timings.total_ms, 1) << " ms (encode "
        << fixed(d.timings.encode_ms, 1) << ", decode " << fixed(d.timings.decode_ms, 1)
        << ", readout " << fixed(d.timings.readout_ms, 1);
    if (d.timings.network_ms > 0) out << ", network " << fixed(d.timings.network_ms, 1);
    out << ")\n"
        << d.reads << " canvas rows, " << d.samples << " reads per question at most, prompt "
        << d.prompt_tokens << " tokens, layout " << core::to_string(d.layout) << "\n"
        << "model " << (d.model.empty() ? "?" : d.model) << " on " << d.backend << "\n";
}

int run_decide(const cli::Args& args) {
    auto input = dgem::load_decision_input(args);
    if (!input) return cli::fail(input.error());
    auto target = dgem::report_target(args);
    if (!target) return cli::fail(target.error());
    auto backend = dgem::make_backend(args);
    if (!backend) return cli::fail(backend.error());

    core::DecideRequest request;
    request.schema = input->schema;
    request.state = input->state;
    request.seed = input->seed;
    engine::CancelToken cancel;
    auto decision = (*backend)->decide(request, {}, cancel);
    if (!decision) return cli::fail(decision.error());

    const core::Decision& d = *decision;
    nlohmann::json answers = core::answers_json(d, core::AnswerForm::Chat);
    if (*target) {
        core::report::DecisionInput in;
        in.policy = {input->policy_name, input->source};
        in.schema = input->schema;
        in.variables = input->variables;
        in.decision = d;
        in.provenance =
            core::report::make_provenance("dgem decide", (*backend)->describe(), d.model);
        if (auto w = dgem::write_report(**target, core::report::decision_report(in)); !w)
            return cli::fail(w.error());
    }
    const bool stats = args.has("stats");
    if (args.has("json")) {
        nlohmann::json diagnostics = d.raw.is_object() && d.raw.contains("diagnostics")
                                         ? d.raw["diagnostics"]
                                         : core::diagnostics_json(d);
        std::cout << nlohmann::json{{"answers", answers}, {"diagnostics", diagnostics}}.dump(2)
                  << "\n";
        if (stats) print_stats(d, std::cerr);  // stdout stays one JSON document
    } else {
        std::cout << answers.dump(2) << "\n";
        if (stats) {
            std::cout << "\n";
            print_stats(d, std::cout);
        }
    }
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(decide) {
    auto options = dgem::decision_options();
    for (auto& o : dgem::endpoint_options()) options.push_back(o);
    options.push_back({"json", 0, "", "print {\"answers\", \"diagnostics\"} as JSON"});
    for (auto& o : dgem::report_options("the decision")) options.push_back(o);
    return cli::CommandSpec{
        "decide",
        "one structured decision from a policy template",
        "dgem decide --local [--model DIR] -t FILE [-v key=value ...] [--samples N|auto] "
        "[--seed N] [--seed-token random|fixed] [--layout L] [--stats] [--json] [-o REPORT]",
        "Renders the policy, reads every question's slot in one decoder pass per read group and\n"
        "prints one answer per question: label, probabilities, confidence (and stderr and\n"
        "agreement over several reads). --stats adds a table of probabilities, hesitation\n"
        "(entropy / ln |labels|: Clear < 16%, Somewhat unsure to 50%, Very unsure above),\n"
        "error bars and timings. -o writes a report (HTML, PDF, CSV or JSON, from the\n"
        "extension): the policy, variables, endpoint, canvas, every label's bar and error\n"
        "bar, the noise draws and the timings.",
        options,
        run_decide};
}
