// dgem decide: one structured decision from a policy template (or a bare --schema and --state),
// on the local engine (--local) or a server. Prints dgem's table (QUESTION, TYPE, VALUE/CHOICE,
// CONFIDENCE, STDERR, AGREEMENT) or, with -f json (--json), {"answers", "diagnostics"} in the
// structured server's shapes; --stats adds a readable table of probabilities, hesitation, error
// bars and timings; --temperature T rescales every read's label log-probabilities by 1/T.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend_factory.h"
#include "cascade_flags.h"
#include "cli.h"
#include "core/decide/cascade.h"
#include "core/decide/read_stats.h"
#include "core/wire/decision_json.h"
#include "decision_input.h"
#include "report_output.h"

namespace {

using cli::fixed;
using cli::pad;

void print_stats(const core::Decision& d, std::ostream& out) {
    // The id column fits the longest id (dgem's policies have ids like "primary_category").
    size_t id_width = 14;
    for (const auto& q : d.questions) id_width = std::max(id_width, q.id.size() + 2);
    out << pad("question", id_width) << pad("answer", 22) << pad("p", 8) << pad("hesitation", 24)
        << pad("stderr", 9) << pad("agreement", 11) << "reads\n";
    for (const auto& q : d.questions) {
        if (q.skipped) {
            out << pad(q.id, id_width) << core::skip_text(q) << "\n";
            continue;
        }
        std::string answer = q.labels.empty() ? "" : q.labels[q.winner];
        if (q.type != core::QuestionType::Noul &&
            q.winner < static_cast<int>(q.alternatives.size()))
            answer = q.alternatives[q.winner] + " (" + answer + ")";
        const size_t n = q.per_read.size();
        int agree = static_cast<int>(std::lround(q.agreement * static_cast<double>(n)));
        out << pad(q.id, id_width) << pad(answer, 22) << pad(fixed(q.confidence, 3), 8)
            << pad(std::string(core::to_string(q.hesitation_class())) + " " +
                       fixed(100 * q.hesitation, 0) + "%",
                   24)
            << pad(q.stderr_winner ? "±" + fixed(*q.stderr_winner, 3) : "-", 9)
            << pad(n > 1 ? std::to_string(agree) + "/" + std::to_string(n) : "-", 11) << n << "\n";
    }
    out << "\nprobabilities:\n";
    for (const auto& q : d.questions) {
        if (q.skipped) continue;
        out << "  " << pad(q.id, id_width - 2);
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
        << d.prompt_tokens << " tokens";
    if (d.cached_prompt_tokens > 0) out << " (" << d.cached_prompt_tokens << " cached)";
    out << ", layout " << core::to_string(d.layout) << "\n"
        << "model " << (d.model.empty() ? "?" : d.model) << " on " << d.backend << "\n";
    if (!d.stages.empty()) {
        out << d.stages.size() << " stages, " << d.passes << " decoder passes:";
        for (size_t s = 0; s < d.stages.size(); ++s) {
            std::string ids;
            for (const auto& id : d.stages[s]) ids += (ids.empty() ? "" : ", ") + id;
            out << (s ? "; " : " ") << s + 1 << ": " << ids;
        }
        out << "\n";
    }
    if (d.thought)
        out << "thought: " << d.thought->tokens << " tokens"
            << (d.thought->closed ? "" : " (budget used up, not closed)") << ", "
            << fixed(d.thought->ms, 1) << " ms\n  " << d.thought->text << "\n";
}

// Display width of UTF-8 text (code points; the table holds no wide characters).
size_t text_width(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

std::string pad_text(std::string s, size_t width) {
    const size_t w = text_width(s);
    if (w < width) s.append(width - w, ' ');
    return s;
}

// dgem's decision table, one row per question in the schema's order.
void print_table(const core::Decision& d, std::ostream& out) {
    std::vector<std::vector<std::string>> rows{
        {"QUESTION", "TYPE", "VALUE/CHOICE", "CONFIDENCE", "STDERR", "AGREEMENT"}};
    for (const auto& q : d.questions) {
        if (q.skipped) {
            rows.push_back(
                {q.id, std::string(core::to_string(q.type)), "(skipped)", "-", "-", "-"});
            continue;
        }
        const nlohmann::json a = core::answer_json(q, core::AnswerForm::Chat);
        std::string value = a.value("label", "");
        if (q.type == core::QuestionType::Choice) {
            value = a.value("choice", "");
        } else if (q.type == core::QuestionType::Score) {
            value = a.value("level", "") + " (score " + fixed(a.value("score", 0.0), 2) + ")";
        }
        const size_t n = q.per_read.size();
        std::string agreement = fixed(q.agreement, 2);
        if (n > 1)
            agreement += " (" + std::to_string(std::lround(q.agreement * static_cast<double>(n))) +
                         "/" + std::to_string(n) + ")";
        rows.push_back({q.id, std::string(core::to_string(q.type)), value,
                        fixed(100 * q.confidence, 1) + "%",
                        q.stderr_winner ? "±" + fixed(*q.stderr_winner, 4) : "-", agreement});
    }
    std::vector<size_t> widths(rows.front().size(), 0);
    for (const auto& r : rows)
        for (size_t c = 0; c < r.size(); ++c) widths[c] = std::max(widths[c], text_width(r[c]));
    size_t total = 0;
    for (size_t w : widths) total += w + 3;
    for (size_t i = 0; i < rows.size(); ++i) {
        std::string line;
        for (size_t c = 0; c < rows[i].size(); ++c)
            line += (c ? " | " : "") +
                    (c + 1 < rows[i].size() ? pad_text(rows[i][c], widths[c]) : rows[i][c]);
        out << line << "\n";
        if (i == 0) out << std::string(total - 3, '-') << "\n";
    }
    // A staged read's skipped questions and a thinking read's thought, under the table.
    for (const auto& q : d.questions)
        if (q.skipped) out << q.id << ": " << core::skip_text(q) << "\n";
    if (d.thought)
        out << "THOUGHT (" << d.thought->tokens << " tokens"
            << (d.thought->closed ? "" : ", budget used up") << "): " << d.thought->text << "\n";
}

// One line per escalated question on stderr (stdout stays the answer): what each stage said.
void report_cascade(const core::Decision& d, std::ostream& out) {
    const auto& c = *d.diagnostics.cascade;
    out << "cascade " << core::to_string(c.mode) << " (threshold " << c.threshold << " nats, judge "
        << c.judge << "): " << c.escalated << " escalated, " << c.replaced
        << " answered by stage 2\n";
    for (const auto& q : d.questions) {
        if (!q.escalation || !q.escalation->escalated) continue;
        const auto& e = *q.escalation;
        out << "  " << q.id << ": stage 1 "
            << (e.stage1_winner >= 0 ? q.labels[static_cast<size_t>(e.stage1_winner)] : "-")
            << " (entropy " << cli::fixed(e.stage1_entropy, 3) << "), stage 2 "
            << (e.stage2_winner ? q.labels[static_cast<size_t>(*e.stage2_winner)] : "-") << " in "
            << cli::fixed(e.stage2_ms, 0) << " ms" << (e.stage2_error.empty() ? "" : ": ")
            << e.stage2_error << "\n";
    }
}

int run_decide(const cli::Args& args) {
    // -f/--format is stdout's format; a report's is --report-format (report_output.h).
    const std::string format = args.get("format", args.has("json") ? "json" : "table");
    if (format != "table" && format != "json")
        return cli::fail_bad_input(
            "-f/--format " + format +
            ": accepted: table or json (a report's format is --report-format html|pdf|csv|json "
            "with -o FILE)");
    if (args.has("json") && format != "json")
        return cli::fail_bad_input("--json is -f json; it cannot go with -f " + format);
    auto input = dgem::load_decision_input(args);
    if (!input) return cli::fail(input.error());
    // The flags override the policy's temperature and cascade keys; the executor applies the
    // temperature (here for the local engine, on the server for a remote one).
    if (auto ok = dgem::apply_calibration_flags(args, input->schema); !ok)
        return cli::fail(ok.error());
    if (input->schema.cascade.mode == core::CascadeMode::OnMiss)
        return cli::fail_bad_input(
            "cascade_mode on_miss escalates the questions a labelled run missed; a single "
            "decision has no expected answers: use --cascade-mode entropy");
    auto judge = dgem::make_judge(args, input->schema);
    if (!judge) return cli::fail(judge.error());
    auto target = dgem::report_target(args);
    if (!target) return cli::fail(target.error());
    auto backend = dgem::make_backend(args);
    if (!backend) return cli::fail(backend.error());

    core::DecideRequest request;
    request.schema = input->schema;
    request.state = input->state;
    request.seed = input->seed;
    request.images = input->images;
    engine::CancelToken cancel;
    auto decision = (*backend)->decide(request, {}, cancel);
    if (!decision) return cli::fail(decision.error());
    if (*judge) {
        core::CascadeOptions cascade;
        cascade.settings = request.schema.cascade;
        core::run_cascade(*decision, request, **judge, cascade, cancel);
        report_cascade(*decision, std::cerr);
    }

    const core::Decision& d = *decision;
    nlohmann::json answers = core::answers_json(d, core::AnswerForm::Chat);
    if (*target) {
        core::report::DecisionInput in;
        in.policy = {input->policy_name, input->source};
        in.schema = input->schema;
        in.variables = input->variables;
        in.decision = d;
        in.images = input->images;
        in.provenance =
            core::report::make_provenance("dgem decide", (*backend)->describe(), d.model);
        if (auto w = dgem::write_report(**target, core::report::decision_report(in)); !w)
            return cli::fail(w.error());
    }
    const bool stats = args.has("stats");
    if (format == "json") {
        nlohmann::json out = core::decision_json(d, core::AnswerForm::Chat);
        std::cout << out.dump(2) << "\n";
        if (stats) print_stats(d, std::cerr);  // stdout stays one JSON document
    } else {
        print_table(d, std::cout);
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
    options.push_back({"format", 'f', "FORMAT",
                       "stdout: table (default) or json ({\"answers\", \"diagnostics\"})"});
    options.push_back({"json", 0, "", "the same as -f json"});
    for (auto& o : dgem::calibration_options()) options.push_back(o);
    for (auto& o : dgem::report_options("the decision")) options.push_back(o);
    return cli::CommandSpec{
        "decide",
        "one structured decision from a policy template",
        "dgem decide [--local [--model DIR] | -u URL] (-t FILE [-v key=value ... | -d FILE] | "
        "--schema FILE [--state JSON|FILE]) [--samples N|auto] [--seed N] [--layout L] "
        "[--temperature T] [--cascade-mode entropy --cascade-threshold NATS --cascade-url URL] "
        "[-f table|json] [--stats] [-o REPORT [--report-format F]]",
        "Renders the policy (or takes --schema as it is, with --state or the variables as the\n"
        "state), reads every question's slot in one decoder pass per read group and prints a\n"
        "table: QUESTION, TYPE, VALUE/CHOICE, CONFIDENCE, STDERR and AGREEMENT (the last two\n"
        "over several reads). -f json (or --json) prints {\"answers\", \"diagnostics\"} instead:\n"
        "label, probabilities and confidence per question in the structured server's shapes.\n"
        "--stats adds a table of probabilities, hesitation (entropy / ln |labels|: Clear <\n"
        "16%, Somewhat unsure to 50%, Very unsure above), error bars and timings (on stderr\n"
        "with -f json). --temperature T divides every read's label log-probabilities by T\n"
        "before the statistics (it overrides the policy's \"temperature\" key; the decide\n"
        "module applies it, locally or on the server). --cascade-mode entropy asks a stage-2\n"
        "judge (--cascade-url, an OpenAI-compatible chat endpoint) each question whose entropy\n"
        "reaches --cascade-threshold, and its answer replaces stage 1's (diagnostics.cascade\n"
        "says per question what each stage answered and how long it took). -o writes a\n"
        "report (HTML, PDF, CSV or JSON, from the extension or --report-format): the policy,\n"
        "variables, endpoint, canvas, every label's bar and error bar, the noise draws and\n"
        "the timings. -f/--format is what stdout shows; --report-format is the report's.",
        options,
        run_decide};
}
