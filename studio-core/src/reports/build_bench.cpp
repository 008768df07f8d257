// Bench reports: a JevBench run (scorecard, reliability, latency, tiers and families, the
// leaderboard with this run, the items) or a dgem suite run, and the slot-vs-generative summary
// when the run asked both ways.

#include <algorithm>

#include "core/evaluation/eval_report.h"
#include "core/reports/escalation_chart.h"
#include "report_internal.h"

namespace core::report {

using detail::exact;
using detail::fixed;
using detail::ojson;

namespace {

std::string points(const std::optional<double>& v) {
    return v ? fixed(*v, 1) : "n/a";
}

std::string setting_text(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

std::vector<double> latencies(const std::vector<eval::ItemRecord>& records) {
    std::vector<double> out;
    for (const auto& r : records)
        if (r.ok) out.push_back(r.latency_s);
    return out;
}

Table group_table(const std::string& title, const std::string& key_name,
                  const std::map<std::string, eval::GroupStats>& groups, const std::string& ptr) {
    Table t;
    t.title = title;
    t.columns = {key_name, "Items", "Correct", "Accuracy", "Mean confidence"};
    t.numeric_columns = {1, 2, 3, 4};
    for (const auto& [key, g] : groups) {
        const std::string p = ptr + "/" + detail::pointer_segment(key);
        t.rows.push_back({key, std::to_string(g.n), std::to_string(g.correct), percent(g.accuracy),
                          fixed(g.mean_confidence, 3)});
        t.cell_ptrs.push_back(
            {"", p + "/n", p + "/correct", p + "/accuracy", p + "/mean_confidence"});
    }
    return t;
}

// "label=p;label=p" of a probs object, in full precision (the CSV's probabilities cell).
std::string probs_text(const ojson& probs) {
    std::string out;
    if (!probs.is_object()) return out;
    for (auto it = probs.begin(); it != probs.end(); ++it)
        if (it.value().is_number())
            out += (out.empty() ? "" : ";") + it.key() + "=" + exact(it.value().get<double>());
    return out;
}

const eval::GenerativeRecord* generative_of(const std::vector<eval::ItemRecord>& records,
                                            const std::string& id) {
    for (const auto& r : records)
        if (r.id == id && r.generative) return &*r.generative;
    return nullptr;
}

void add_jev_sections(Report& r, const BenchInput& in, const eval::RunScore& s) {
    Section card;
    card.title = "Scorecard";
    card.facts = {
        {"Accuracy",
         percent(s.accuracy) + " (" + std::to_string(s.correct) + " of " + std::to_string(s.n) +
             ", " + std::to_string(s.failed) + " failed)",
         "/score/accuracy"},
        {"Intelligence", points(s.public_axes.intelligence), "/score/axes/intelligence"},
        {"Calibration", points(s.public_axes.calibration), "/score/axes/calibration"},
        {"Speed", points(s.public_axes.speed), "/score/axes/speed"},
        {"Cost", points(s.public_axes.cost) + (s.cost_is_estimate ? " (estimate)" : ""),
         "/score/axes/cost"},
        {"Composite", points(s.public_estimate) + " (public items only: an estimate, not a rank)",
         "/score/public_only_estimate"},
        {"p50 latency s", fixed(s.p50_s, 3), "/score/latency/p50_s"},
        {"p95 latency s", fixed(s.p95_s, 3), "/score/latency/p95_s"},
        {"ECE (hard tier)", fixed(s.ece_hard, 4), "/score/ece_hard"},
        {"Brier", fixed(s.brier, 4), "/score/brier"}};
    for (auto& f : card.facts)
        if (f.value.rfind("n/a", 0) == 0) f.ptr.clear();  // null in the data
    card.charts.push_back(axes_chart(s.public_axes));
    r.sections.push_back(std::move(card));

    Section cal;
    cal.title = "Calibration and latency";
    cal.charts.push_back(reliability_chart(s.reliability_all, "Reliability (all items)"));
    cal.charts.push_back(latency_chart(latencies(in.records)));
    if (auto e = bench_escalation_chart(in.suite, in.records)) cal.charts.push_back(std::move(*e));
    r.sections.push_back(std::move(cal));

    Section groups;
    groups.title = "Accuracy by tier and family";
    groups.charts.push_back(accuracy_chart(s.by_tier, "Accuracy by tier"));
    groups.charts.push_back(accuracy_chart(s.by_family, "Accuracy by family"));
    groups.tables.push_back(group_table("By tier", "Tier", s.by_tier, "/score/by_tier"));
    groups.tables.push_back(group_table("By family", "Family", s.by_family, "/score/by_family"));
    r.sections.push_back(std::move(groups));

    if (in.leaderboard) {
        Section board;
        board.title = "Leaderboard";
        board.text = "Published JevBench scores (" + in.leaderboard->revision +
                     ") with this run's composite placed among them. This run's figure is an "
                     "estimate on public items only.";
        board.charts.push_back(leaderboard_chart(*in.leaderboard, s.public_estimate));
        Table t;
        t.columns = {"Rank", "Entry", "Score"};
        t.numeric_columns = {0, 2};
        for (size_t i = 0; i < in.leaderboard->rows.size(); ++i) {
            const auto& row = in.leaderboard->rows[i];
            t.rows.push_back({std::to_string(row.rank), row.display.empty() ? row.key : row.display,
                              fixed(row.score, 1)});
            t.cell_ptrs.push_back({"/leaderboard/rows/" + std::to_string(i) + "/rank", "",
                                   "/leaderboard/rows/" + std::to_string(i) + "/score"});
        }
        if (s.public_estimate) {
            t.rows.push_back({"-", "THIS RUN (estimate)", fixed(*s.public_estimate, 1)});
            t.cell_ptrs.push_back({"", "", "/score/public_only_estimate"});
        }
        board.tables.push_back(std::move(t));
        r.sections.push_back(std::move(board));
    }

    Section items;
    items.title = "Items";
    Table t;
    t.columns = {"Item",         "Tier",    "Family",    "Expected", "Predicted",
                 "p(predicted)", "Correct", "Latency s", "Note"};
    t.numeric_columns = {5, 7};
    const ojson& js = r.data["items"];
    r.csv.columns = {"item",      "tier",        "family",       "question", "expected",
                     "predicted", "probability", "correct",      "valid",    "latency_s",
                     "attempts",  "error",       "probabilities"};
    for (size_t i = 0; i < js.size(); ++i) {
        const ojson& it = js[i];
        const std::string base = "/items/" + std::to_string(i);
        const std::string predicted = it.value("predicted", std::string());
        std::string p_text = "-", p_ptr;
        const std::string probs = it.contains("probs") ? probs_text(it["probs"]) : "";
        if (it.contains("probs") && it["probs"].is_object()) {
            if (it["probs"].contains(predicted) && it["probs"][predicted].is_number()) {
                p_text = percent(it["probs"][predicted].get<double>());
                p_ptr = base + "/probs/" + detail::pointer_segment(predicted);
            }
        }
        const std::string note = it.value("error", it.value("invalid_reason", std::string()));
        t.rows.push_back({it.value("id", ""), it.value("tier", ""), it.value("family", ""),
                          it.value("expected", ""), predicted, p_text,
                          it.value("correct", false) ? "yes" : "no",
                          fixed(it.value("latency_s", 0.0), 3), note});
        t.cell_ptrs.push_back({"", "", "", "", "", p_ptr, "", base + "/latency_s", ""});
        r.csv.rows.push_back({it.value("id", ""), it.value("tier", ""), it.value("family", ""),
                              eval::kJevSlotId, it.value("expected", ""), predicted,
                              p_ptr.empty() ? "" : exact(it["probs"][predicted].get<double>()),
                              it.value("correct", false) ? "true" : "false",
                              it.value("valid", false) ? "true" : "false",
                              exact(it.value("latency_s", 0.0)),
                              std::to_string(it.value("attempts", 0)), note, probs});
    }
    items.tables.push_back(std::move(t));
    r.sections.push_back(std::move(items));
}

void add_suite_sections(Report& r, const BenchInput& in, const eval::SuiteScore& s) {
    Section card;
    card.title = "Scorecard";
    card.facts = {{"Cases correct",
                   percent(s.case_accuracy) + " (" + std::to_string(s.cases_correct) + " of " +
                       std::to_string(s.cases) + ", " + std::to_string(s.failed) + " failed)",
                   "/score/case_accuracy"},
                  {"Answers correct", percent(s.answer_accuracy), "/score/answer_accuracy"},
                  {"Mean confidence", fixed(s.mean_confidence, 3), "/score/mean_confidence"},
                  {"ECE", fixed(s.reliability.ece, 4), "/score/ece"},
                  {"Brier", fixed(s.brier, 4), "/score/brier"},
                  {"p50 latency s", fixed(s.p50_s, 3), s.p50_s ? "/score/latency/p50_s" : ""},
                  {"p95 latency s", fixed(s.p95_s, 3), s.p95_s ? "/score/latency/p95_s" : ""}};
    r.sections.push_back(std::move(card));

    Section charts;
    charts.title = "Calibration, latency and accuracy";
    charts.charts.push_back(reliability_chart(s.reliability, "Reliability (every answer)"));
    charts.charts.push_back(latency_chart(latencies(in.records)));
    if (auto e = bench_escalation_chart(in.suite, in.records))
        charts.charts.push_back(std::move(*e));
    charts.charts.push_back(accuracy_chart(s.by_tier, "Accuracy by tier"));
    charts.charts.push_back(accuracy_chart(s.by_domain, "Accuracy by domain"));
    r.sections.push_back(std::move(charts));

    Section items;
    items.title = "Cases";
    Table t;
    t.columns = {"Case",      "Domain",     "Tier",    "Question", "Expected",
                 "Predicted", "Confidence", "Correct", "Latency s"};
    t.numeric_columns = {6, 8};
    r.csv.columns = {"item",      "tier",      "domain",      "question",
                     "expected",  "predicted", "probability", "correct",
                     "latency_s", "attempts",  "error",       "probabilities"};
    const ojson& cases = r.data["cases"];
    for (size_t i = 0; i < cases.size(); ++i) {
        const ojson& c = cases[i];
        const std::string base = "/cases/" + std::to_string(i);
        if (!c.contains("answers") || !c["answers"].is_object()) continue;
        for (auto a = c["answers"].begin(); a != c["answers"].end(); ++a) {
            const ojson& ans = a.value();
            const std::string ap = base + "/answers/" + detail::pointer_segment(a.key());
            const bool has_conf = ans.contains("confidence") && ans["confidence"].is_number();
            const std::string predicted = ans.contains("predicted") && ans["predicted"].is_string()
                                              ? ans["predicted"].get<std::string>()
                                              : "-";
            const std::string probs = ans.contains("probs") ? probs_text(ans["probs"]) : "";
            t.rows.push_back({c.value("id", ""), c.value("domain", ""), c.value("tier", ""),
                              a.key(), ans.value("expected", ""), predicted,
                              has_conf ? percent(ans["confidence"].get<double>()) : "-",
                              ans.value("correct", false) ? "yes" : "no",
                              fixed(c.value("latency_s", 0.0), 3)});
            t.cell_ptrs.push_back({"", "", "", "", "", "", has_conf ? ap + "/confidence" : "", "",
                                   base + "/latency_s"});
            r.csv.rows.push_back(
                {c.value("id", ""), c.value("tier", ""), c.value("domain", ""), a.key(),
                 ans.value("expected", ""), predicted == "-" ? "" : predicted,
                 has_conf ? exact(ans["confidence"].get<double>()) : "",
                 ans.value("correct", false) ? "true" : "false", exact(c.value("latency_s", 0.0)),
                 std::to_string(c.value("attempts", 0)), c.value("error", ""), probs});
        }
    }
    items.tables.push_back(std::move(t));
    r.sections.push_back(std::move(items));
}

void add_comparison_section(Report& r, const BenchInput& in) {
    const compare::SuiteComparison c = compare::compare_suite(in.suite, in.records);
    const auto rows = compare::comparison_rows(in.suite, in.records);
    r.data["comparison"] = ojson(c.to_json());
    ojson jrows = ojson::array();
    for (const auto& row : rows) {
        auto opt = [](const auto& v) { return v ? ojson(*v) : ojson(nullptr); };
        jrows.push_back({{"id", row.id},
                         {"tier", row.tier},
                         {"slot_latency_s", opt(row.slot_latency_s)},
                         {"generative_latency_s", opt(row.generative_latency_s)},
                         {"slot_correct", opt(row.slot_correct)},
                         {"generative_correct", opt(row.generative_correct)},
                         {"generative_valid", opt(row.generative_valid)},
                         {"agree", opt(row.agree)},
                         {"generative_passes", row.generative_passes},
                         {"reason", row.reason}});
    }
    r.data["comparison_items"] = jrows;

    Section s;
    s.title = "Slot vs generative";
    s.facts = {
        {"Items", std::to_string(c.items), "/comparison/items"},
        {"Slot accuracy", percent(c.slot.accuracy), "/comparison/slot/accuracy"},
        {"Generative accuracy", percent(c.generative.accuracy), "/comparison/generative/accuracy"},
        {"Valid generative replies", percent(c.valid_share), "/comparison/valid_share"},
        {"Agreement", percent(c.agreement), "/comparison/agreement"},
        {"Slot p50 s", fixed(c.slot.p50_s, 3), c.slot.p50_s ? "/comparison/slot/p50_s" : ""},
        {"Generative p50 s", fixed(c.generative.p50_s, 3),
         c.generative.p50_s ? "/comparison/generative/p50_s" : ""},
        {"Latency ratio (generative / slot p50)", fixed(c.latency_ratio, 2),
         "/comparison/latency_ratio"},
        {"Mean generative passes", fixed(c.generative.mean_passes, 1),
         "/comparison/generative/mean_passes"}};
    s.charts.push_back(latency_per_item_chart(rows));
    s.charts.push_back(validity_chart(c));
    s.charts.push_back(mode_accuracy_chart(c));
    Table t;
    t.title = "Per item";
    t.columns = {"Item",  "Tier",  "Slot s", "Generative s", "Slot right", "Generative right",
                 "Valid", "Agree", "Passes", "Reason"};
    t.numeric_columns = {2, 3, 8};
    auto yes_no = [](const std::optional<bool>& b) {
        return b ? (*b ? std::string("yes") : std::string("no")) : std::string("-");
    };
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const std::string base = "/comparison_items/" + std::to_string(i);
        t.rows.push_back({row.id, row.tier, fixed(row.slot_latency_s, 3),
                          fixed(row.generative_latency_s, 3), yes_no(row.slot_correct),
                          yes_no(row.generative_correct), yes_no(row.generative_valid),
                          yes_no(row.agree), std::to_string(row.generative_passes), row.reason});
        t.cell_ptrs.push_back({"", "", row.slot_latency_s ? base + "/slot_latency_s" : "",
                               row.generative_latency_s ? base + "/generative_latency_s" : "", "",
                               "", "", "", base + "/generative_passes", ""});
    }
    s.tables.push_back(std::move(t));
    r.sections.push_back(std::move(s));

    // The CSV's rows gain the generative side.
    r.csv.columns.insert(r.csv.columns.end(),
                         {"generative_answer", "generative_valid", "generative_latency_s"});
    const size_t question_col = 3;
    for (auto& row : r.csv.rows) {
        const eval::GenerativeRecord* g = generative_of(in.records, row[0]);
        std::string answer;
        if (g) {
            for (const auto& item : in.suite.items) {
                if (item.id != row[0]) continue;
                for (size_t q = 0; q < item.questions.size() && q < g->answers.size(); ++q)
                    if (item.questions[q].id == row[question_col]) answer = g->answers[q];
            }
        }
        row.push_back(answer);
        row.push_back(g ? (g->valid ? "true" : "false") : "");
        row.push_back(g ? exact(g->latency_s) : "");
    }
}

}  // namespace

Report bench_report(const BenchInput& in) {
    Report r;
    r.kind = Kind::Bench;
    const bool jev = in.suite.kind == eval::SuiteKind::JevBench;
    r.title = (jev ? "JevBench run: " : "Suite run: ") + in.suite.name;
    r.provenance = in.provenance;
    r.data = detail::base_data(r.kind, r.title, r.provenance);
    const std::string path = in.dataset_path.empty() ? in.suite.path.string() : in.dataset_path;
    r.data["dataset"] = {{"path", path},
                         {"name", in.suite.name},
                         {"sha256", in.suite.sha256},
                         {"items_in_file", in.suite.total_in_file},
                         {"items_run", in.suite.items.size()}};
    r.data["settings"] = ojson(in.settings);
    r.data["wall_s"] = in.wall_s;
    r.data["records"] = in.records.size();
    if (jev && in.run_score) {
        r.data["score"] = ojson(eval::to_json(*in.run_score));
        r.data["items"] =
            ojson(eval::jev_items_json(eval::scored_items(in.suite, in.records), in.records));
    } else if (in.suite_score) {
        r.data["score"] = ojson(eval::to_json(*in.suite_score));
        r.data["cases"] = ojson(eval::suite_items_json(in.suite, in.records));
    } else {
        r.data["score"] = nullptr;
    }
    if (in.leaderboard) {
        ojson rows = ojson::array();
        for (const auto& row : in.leaderboard->rows)
            rows.push_back({{"key", row.key},
                            {"display", row.display},
                            {"rank", row.rank},
                            {"score", row.score}});
        r.data["leaderboard"] = {{"revision", in.leaderboard->revision}, {"rows", rows}};
    }
    for (auto it = in.extra.begin(); it != in.extra.end(); ++it)
        if (!r.data.contains(it.key())) r.data[it.key()] = ojson(it.value());

    Section run;
    run.title = "Run";
    run.facts = {
        {"Dataset", path, ""},
        {"Dataset sha256", in.suite.sha256, ""},
        {"Items run",
         std::to_string(in.suite.items.size()) + " of " + std::to_string(in.suite.total_in_file),
         ""},
        {"Recorded", std::to_string(in.records.size()), "/records"},
        {"Endpoint", r.provenance.endpoint, ""},
        {"Wall time s", fixed(in.wall_s, 1), "/wall_s"}};
    if (in.settings.is_object())
        for (auto it = in.settings.begin(); it != in.settings.end(); ++it)
            if (!it.value().is_structured())
                run.facts.push_back({"Setting " + it.key(), setting_text(it.value()), ""});
    r.sections.push_back(std::move(run));

    if (jev && in.run_score)
        add_jev_sections(r, in, *in.run_score);
    else if (in.suite_score)
        add_suite_sections(r, in, *in.suite_score);
    if (in.with_comparison) add_comparison_section(r, in);
    return r;
}

}  // namespace core::report
