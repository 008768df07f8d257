// dgem calibrate: fits a policy's temperature per question type from a labelled run by k-fold
// cross-validation (core/evaluation/calibration.h), prints NLL, Brier, ECE and the reliability
// bins before and after on the held-out folds, the stage-2 escalation curve and a suggested
// threshold, and with --write puts the fitted temperature into the policy file (atomically).
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.h"
#include "core/evaluation/calibration.h"
#include "core/evaluation/calibration_input.h"
#include "core/evaluation/calibration_run.h"
#include "core/evaluation/eval_runner.h"
#include "decision_input.h"

namespace {

using nlohmann::json;
using namespace core::eval;

json metrics_json(const ProbabilityMetrics& m) {
    json bins = json::array();
    for (const auto& b : m.ece.bins)
        bins.push_back({{"lo", b.lo},
                        {"hi", b.hi},
                        {"n", b.n},
                        {"confidence", b.confidence},
                        {"accuracy", b.accuracy}});
    return {{"n", m.n},         {"accuracy", m.accuracy}, {"nll", m.nll},
            {"brier", m.brier}, {"ece", m.ece.ece},       {"reliability", bins}};
}

json point_json(const EscalationPoint& p) {
    return {{"threshold", p.threshold},
            {"escalated", p.escalated},
            {"escalated_share", p.escalated_share},
            {"accuracy", p.accuracy}};
}

json document(const CalibrationInput& in, const CalibrationReport& r,
              const std::vector<EscalationPoint>& curve, const ThresholdSuggestion& s) {
    json types = json::array();
    for (const auto& t : r.types)
        types.push_back({{"type", std::string(core::to_string(t.type))},
                         {"question", t.question.empty() ? json(nullptr) : json(t.question)},
                         {"n", t.n},
                         {"fitted", t.fitted},
                         {"temperature", t.temperature},
                         {"fold_temperatures", t.fold_temperatures},
                         {"at_range_edge", t.at_edge},
                         {"note", t.note},
                         {"before", metrics_json(t.before)},
                         {"after", metrics_json(t.after)}});
    json points = json::array();
    for (const auto& p : curve) points.push_back(point_json(p));
    return {{"run", in.source},
            {"suite", in.suite},
            {"questions", in.items.size()},
            {"skipped", in.skipped},
            {"objective", "held-out negative log-likelihood of the expected answer"},
            {"folds", r.options.folds},
            {"range", {r.options.t_min, r.options.t_max}},
            {"types", types},
            {"before", metrics_json(r.before)},
            {"after", metrics_json(r.after)},
            {"temperature", core::policy_temperature_json(r.temperature)},
            {"escalation_curve", points},
            {"suggestion",
             {{"found", s.found},
              {"reason", s.reason},
              {"threshold", s.found ? json(s.point.threshold) : json(nullptr)},
              {"point", s.found ? point_json(s.point) : json(nullptr)}}}};
}

void print_metrics_row(const std::string& name, size_t width, const ProbabilityMetrics& b,
                       const ProbabilityMetrics& a, std::ostream& out) {
    out << cli::pad(name, width) << cli::pad(std::to_string(b.n), 6)
        << cli::pad(cli::fixed(b.nll, 4) + " -> " + cli::fixed(a.nll, 4), 20)
        << cli::pad(cli::fixed(b.brier, 4) + " -> " + cli::fixed(a.brier, 4), 20)
        << cli::fixed(b.ece.ece, 4) << " -> " << cli::fixed(a.ece.ece, 4) << "\n";
}

void print_table(const CalibrationInput& in, const CalibrationReport& r,
                 const std::vector<EscalationPoint>& curve, const ThresholdSuggestion& s,
                 std::ostream& out) {
    out << in.items.size() << " labelled questions from " << in.source;
    if (in.skipped) out << " (" << in.skipped << " skipped; first: " << in.first_skip << ")";
    out << "\nobjective: held-out NLL, " << r.options.folds << "-fold cross-validation, T in ["
        << r.options.t_min << ", " << r.options.t_max << "]\n\n";
    size_t width = 10;  // "held out" and the type names; a question id may be longer
    for (const auto& t : r.types) width = std::max(width, t.question.size() + 2);
    out << cli::pad(r.options.per == FitPer::Question ? "QUESTION" : "TYPE", width)
        << cli::pad("T", 10) << "FOLDS\n";
    for (const auto& t : r.types) {
        std::string folds;
        for (double f : t.fold_temperatures) folds += (folds.empty() ? "" : " ") + cli::fixed(f, 3);
        out << cli::pad(t.question.empty() ? std::string(core::to_string(t.type)) : t.question,
                        width)
            << cli::pad(t.fitted ? cli::fixed(t.temperature, 4) : "1 (kept)", 10) << folds << "\n";
        if (!t.note.empty()) out << "  " << t.note << "\n";
    }
    out << "\n"
        << cli::pad("held out", width) << cli::pad("N", 6) << cli::pad("NLL", 20)
        << cli::pad("BRIER", 20) << "ECE\n";
    for (const auto& t : r.types)
        print_metrics_row(t.question.empty() ? std::string(core::to_string(t.type)) : t.question,
                          width, t.before, t.after, out);
    print_metrics_row("all", width, r.before, r.after, out);
    out << "\nreliability (held out, before -> after): confidence bin, n, accuracy\n";
    for (size_t b = 0; b < r.before.ece.bins.size() && b < r.after.ece.bins.size(); ++b) {
        const auto& x = r.before.ece.bins[b];
        const auto& y = r.after.ece.bins[b];
        if (x.n == 0 && y.n == 0) continue;
        out << "  " << cli::fixed(x.lo, 1) << "-" << cli::fixed(x.hi, 1) << "  " << x.n << " "
            << (x.n ? cli::fixed(x.accuracy, 3) : "-") << "  ->  " << y.n << " "
            << (y.n ? cli::fixed(y.accuracy, 3) : "-") << "\n";
    }
    out << "\nescalation curve (fitted T; stage-2 calls are the cost):\n"
        << "  THRESHOLD  ESCALATED  CALLS  ACCURACY\n";
    const size_t step = std::max<size_t>(1, curve.size() / 12);
    for (size_t i = 0; i < curve.size(); ++i) {
        if (i % step != 0 && i + 1 != curve.size()) continue;
        const auto& p = curve[i];
        out << "  " << cli::pad(cli::fixed(p.threshold, 4), 11)
            << cli::pad(cli::fixed(100 * p.escalated_share, 1) + "%", 11)
            << cli::pad(std::to_string(p.escalated), 7) << cli::fixed(p.accuracy, 4) << "\n";
    }
    out << "suggested cascade_threshold: "
        << (s.found ? cli::fixed(s.point.threshold, 4) + " (" + s.reason + ": " +
                          cli::fixed(100 * s.point.escalated_share, 1) + "% escalated, accuracy " +
                          cli::fixed(s.point.accuracy, 4) + ")"
                    : s.reason)
        << "\n";
}

engine::Result<double> number_flag(const cli::Args& args, const std::string& name, double fallback,
                                   double lo, double hi) {
    auto v = args.find(name);
    if (!v) return fallback;
    double x = std::nan("");
    try {
        size_t used = 0;
        x = std::stod(*v, &used);
        if (used != v->size()) x = std::nan("");
    } catch (const std::exception&) {
    }
    if (!(x >= lo && x <= hi))
        return engine::bad_input("--" + name + " " + *v + ": accepted: a number from " +
                                 cli::fixed(lo, 3) + " to " + cli::fixed(hi, 3));
    return x;
}

// The fitted temperature into the policy file: the whole new text is made and checked first
// (core::eval::source_with_temperature), then written beside the file and renamed over it, so a
// failure leaves the policy as it was.
engine::Result<void> write_temperature(const std::string& path, const core::Schema& schema,
                                       const CalibrationReport& r) {
    auto temperature = temperature_to_write(schema.temperature, r);
    if (!temperature) return temperature.error();
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path + ": cannot be read for --write");
    std::stringstream text;
    text << in.rdbuf();
    auto edited = source_with_temperature(text.str(), *temperature);
    if (!edited) return engine::bad_input(path + ": " + edited.error().message);
    return write_file_atomic(path, *edited);
}

int run_calibrate(const cli::Args& args) {
    if (args.positional.size() != 1)
        return cli::fail_bad_input(
            "give one RUN: a run's journal, its folder, or calibration "
            "JSONL (dgem calibrate RUN -t POLICY)");
    if (!args.has("template"))
        return cli::fail_bad_input(
            "-t POLICY is required: it gives the question types and "
            "takes the fitted temperature with --write");
    auto input = dgem::load_decision_input(args);
    if (!input) return cli::fail(input.error());
    CalibrateOptions o;
    auto folds = number_flag(args, "folds", 5, 2, 20);
    auto t_min = number_flag(args, "t-min", 0.05, 1e-3, 0.999);
    auto t_max = number_flag(args, "t-max", 20, 1.001, 1000);
    auto target = number_flag(args, "target-accuracy", 0.95, 0, 1);
    auto budget = number_flag(args, "budget", -1, 0, 1);
    auto stage2 = number_flag(args, "stage2-accuracy", 1, 0, 1);
    for (auto* r : {&folds, &t_min, &t_max, &target, &budget, &stage2})
        if (!*r) return cli::fail(r->error());
    o.fit.folds = static_cast<int>(*folds);
    if (auto per = args.find("per")) {
        if (*per == "question")
            o.fit.per = FitPer::Question;
        else if (*per != "type")
            return cli::fail_bad_input("--per " + *per +
                                       ": accepted: type (one temperature per question type, the "
                                       "default) or question (one per question id)");
    }
    o.fit.t_min = *t_min;
    o.fit.t_max = *t_max;
    o.target_accuracy = *target;
    if (*budget >= 0) o.budget = *budget;
    o.stage2_accuracy = *stage2;
    std::optional<std::filesystem::path> suite;
    if (auto s = args.find("suite")) suite = *s;
    auto read = read_calibration_input(args.positional[0], &input->schema, suite);
    if (!read) return cli::fail(read.error());
    auto result = calibrate(read->items, o);
    if (!result) return cli::fail(result.error());
    const auto& report = result->report;
    const auto& curve = result->curve;
    const auto& s = result->suggestion;
    if (args.has("json"))
        std::cout << document(*read, report, curve, s).dump(2) << "\n";
    else
        print_table(*read, report, curve, s, std::cout);
    if (args.has("write")) {
        if (auto w = write_temperature(input->source, input->schema, report); !w)
            return cli::fail(w.error());
        std::cerr << "wrote temperature "
                  << core::policy_temperature_json(report.temperature).dump() << " into "
                  << input->source << "\n";
    }
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(calibrate) {
    auto options = dgem::decision_options();
    options.push_back({"suite", 0, "FILE", "the suite of a bench journal (its expected answers)"});
    options.push_back({"folds", 0, "K", "cross-validation folds (default 5)"});
    options.push_back({"per", 0, "WHAT",
                       "fit one temperature per question type (type, the default) or per question "
                       "id (question; written as \"temperature\": {\"questions\": {id: T}})"});
    options.push_back({"t-min", 0, "T", "the search range's low end (default 0.05)"});
    options.push_back({"t-max", 0, "T", "the search range's high end (default 20)"});
    options.push_back(
        {"target-accuracy", 0, "A",
         "suggest the cheapest cascade_threshold reaching accuracy A (default 0.95)"});
    options.push_back({"budget", 0, "SHARE",
                       "suggest the most accurate threshold escalating at most SHARE (0..1)"});
    options.push_back(
        {"stage2-accuracy", 0, "P",
         "the escalation curve's stage-2 accuracy where the run has none (default 1)"});
    options.push_back({"write", 0, "", "write the fitted temperature into the policy file"});
    options.push_back({"json", 0, "", "print the whole result as JSON"});
    return cli::CommandSpec{
        "calibrate",
        "fit a policy's temperature from a labelled run; the escalation curve",
        "dgem calibrate RUN -t POLICY [--suite FILE] [--folds K] [--t-min T] [--t-max T] "
        "[--per type|question] [--target-accuracy A | --budget SHARE] [--write] [--json]",
        "RUN is a labelled run: a dataset run's journal, a bench run's journal or Studio run\n"
        "folder (with --suite, or the suite its run.json names), or calibration JSONL lines\n"
        "{\"question\", \"type\", \"probs\": {name: p}, \"expected\": name}. The temperature is\n"
        "fitted per question type (noul, choice, score; the policy gives each question's type)\n"
        "by minimising the held-out negative log-likelihood of the expected answer: NLL is a\n"
        "proper scoring rule and T is the one parameter it then tunes, so the fit makes the\n"
        "probabilities mean what they say without changing an answer. K-fold cross-validation:\n"
        "NLL, Brier, ECE and the reliability bins before and after are measured on held-out\n"
        "folds only; the value written is the fit on every question. A fit at the edge of its\n"
        "range [--t-min, --t-max] says so. The escalation curve (share of questions sent to a\n"
        "stage-2 judge against accuracy, one point per entropy threshold, stage 2 assumed right\n"
        "or --stage2-accuracy) suggests a cascade_threshold. --write sets the policy's\n"
        "\"temperature\" to the fitted map, writing the whole file at once or not at all.",
        options,
        run_calibrate};
}
