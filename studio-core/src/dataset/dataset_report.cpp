// A dataset run's report, built from its summary.
#include "core/dataset/dataset_report.h"

#include <cstdio>

#include "reports/report_internal.h"

namespace core::dataset {

namespace {

using ojson = nlohmann::ordered_json;
using report::Fact;
using report::ReportChart;
using report::Section;
using report::Table;

std::string num(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string layout_name(Layout layout) {
    return layout == Layout::SchemaFirst ? "schema_first" : "document_first";
}

Section run_section(const DatasetReportInput& in) {
    const DatasetPlan& plan = *in.plan;
    const DatasetSummary& s = *in.summary;
    Section sec;
    sec.title = "Run";
    sec.text = "Every row of " + plan.data_path.filename().string() + " through the policy " +
               plan.policy.name + ".";
    sec.facts = {{"dataset", plan.data_path.string(), ""},
                 {"policy", plan.policy.name, ""},
                 {"rows", std::to_string(s.rows), "/summary/rows"},
                 {"answered", std::to_string(s.ok), "/summary/ok"},
                 {"failed", std::to_string(s.failed), "/summary/failed"}};
    if (s.labelled)
        sec.facts.push_back({"accuracy",
                             report::percent(s.accuracy()) + " (" + std::to_string(s.correct()) +
                                 "/" + std::to_string(s.scored()) + ")",
                             "/summary/accuracy"});
    sec.facts.push_back({"layout", layout_name(plan.layout), ""});
    sec.facts.push_back(
        {"cached prompt tokens", report::percent(s.cached_share()), "/summary/cached_share"});
    sec.facts.push_back({"wall time", num(in.wall_s, 1) + " s", "/wall_s"});
    return sec;
}

Table confusion_table(const QuestionTally& q) {
    Table t;
    t.title = "Confusion: " + q.id + " (rows: expected, columns: answered)";
    t.columns.push_back("expected \\ answered");
    for (const auto& n : q.names) t.columns.push_back(n);
    for (size_t i = 0; i < q.names.size(); ++i) {
        std::vector<std::string> row{q.names[i]};
        for (size_t j = 0; j < q.names.size(); ++j)
            row.push_back(std::to_string(q.confusion[i][j]));
        t.rows.push_back(std::move(row));
        t.numeric_columns.push_back(static_cast<int>(i + 1));
    }
    return t;
}

ReportChart distribution_chart(const QuestionTally& q) {
    ReportChart c;
    c.title = "Answers: " + q.id;
    c.y_title = "rows";
    c.value_decimals = 0;
    report::ChartSet set{"rows", {}, {}};
    double top = 1;
    for (size_t i = 0; i < q.names.size(); ++i) {
        c.categories.push_back(q.names[i]);
        set.values.push_back(q.distribution[i]);
        top = std::max(top, static_cast<double>(q.distribution[i]));
    }
    c.max = top;
    c.sets.push_back(std::move(set));
    return c;
}

Section questions_section(const DatasetSummary& s) {
    Section sec;
    sec.title = "Questions";
    if (s.labelled) {
        std::map<std::string, eval::GroupStats> acc;
        for (const auto& q : s.questions) {
            if (!q.labelled) continue;
            eval::GroupStats g;
            g.key = q.id;
            g.n = q.scored;
            g.correct = q.correct;
            g.accuracy = q.accuracy();
            acc[q.id] = g;
        }
        sec.charts.push_back(report::accuracy_chart(acc, "Accuracy per question"));
    }
    for (const auto& q : s.questions) {
        sec.charts.push_back(distribution_chart(q));
        if (!q.labelled) continue;
        sec.tables.push_back(confusion_table(q));
        sec.charts.push_back(report::reliability_chart(q.reliability(), "Reliability: " + q.id));
    }
    return sec;
}

Section rows_section(const DatasetSummary& s) {
    Section sec;
    sec.title = "Rows";
    Table u;
    u.title = "Most uncertain answers";
    u.columns = {"row", "id", "question", "answer", "p", "hesitation"};
    u.numeric_columns = {0, 4, 5};
    for (const auto& r : s.most_uncertain)
        u.rows.push_back({std::to_string(r.row), r.id, r.question, r.answer, num(r.probability, 3),
                          num(r.hesitation, 3)});
    sec.tables.push_back(std::move(u));
    if (!s.failures.empty()) {
        Table f;
        f.title = "Failed rows (" + std::to_string(s.failed) + ")";
        f.columns = {"row", "id", "reason"};
        f.numeric_columns = {0};
        for (const auto& r : s.failures) f.rows.push_back({std::to_string(r.row), r.id, r.reason});
        sec.tables.push_back(std::move(f));
    }
    return sec;
}

}  // namespace

ojson summary_json(const DatasetSummary& s) {
    ojson qs = ojson::array();
    for (const auto& q : s.questions) {
        ojson dist = ojson::object();
        for (size_t i = 0; i < q.names.size(); ++i) dist[q.names[i]] = q.distribution[i];
        ojson jq = {{"id", q.id}, {"answered", q.answered}, {"distribution", dist}};
        if (q.labelled) {
            jq["scored"] = q.scored;
            jq["correct"] = q.correct;
            jq["accuracy"] = q.accuracy();
            jq["ece"] = q.reliability().ece;
            jq["confusion"] = {{"labels", q.names}, {"counts", q.confusion}};
        }
        qs.push_back(std::move(jq));
    }
    ojson failures = ojson::array();
    for (const auto& f : s.failures)
        failures.push_back({{"row", f.row}, {"id", f.id}, {"reason", f.reason}});
    ojson uncertain = ojson::array();
    for (const auto& u : s.most_uncertain)
        uncertain.push_back({{"row", u.row},
                             {"id", u.id},
                             {"question", u.question},
                             {"answer", u.answer},
                             {"p", u.probability},
                             {"hesitation", u.hesitation}});
    ojson j = {{"rows", s.rows},
               {"ok", s.ok},
               {"failed", s.failed},
               {"failure_kinds", s.failure_kinds},
               {"labelled", s.labelled}};
    if (s.labelled) {
        j["scored"] = s.scored();
        j["correct"] = s.correct();
        j["accuracy"] = s.accuracy();
    }
    j["prompt_tokens"] = s.prompt_tokens;
    j["cached_prompt_tokens"] = s.cached_prompt_tokens;
    j["cached_share"] = s.cached_share();
    j["questions"] = qs;
    j["most_uncertain"] = uncertain;
    j["failures"] = failures;
    return j;
}

report::Report dataset_report(const DatasetReportInput& in) {
    const DatasetSummary& s = *in.summary;
    report::Report r;
    r.kind = report::Kind::Bench;
    r.title = "Dataset run: " + in.plan->data_path.filename().string() + " through " +
              in.plan->policy.name;
    r.provenance = in.provenance;
    r.data = report::detail::base_data(r.kind, r.title, r.provenance);
    r.data["dataset"] = {{"path", in.plan->data_path.string()},
                         {"sha256", in.plan->data_sha256},
                         {"format", std::string(to_string(in.plan->shape.format))}};
    r.data["policy"] = in.plan->policy.name;
    r.data["layout"] = layout_name(in.plan->layout);
    r.data["settings"] = ojson(in.settings);
    r.data["wall_s"] = in.wall_s;
    r.data["summary"] = summary_json(s);
    r.sections.push_back(run_section(in));
    r.sections.push_back(questions_section(s));
    r.sections.push_back(rows_section(s));
    r.csv.columns = {"question", "answer", "rows", "expected_rows", "correct"};
    for (const auto& q : s.questions)
        for (size_t i = 0; i < q.names.size(); ++i) {
            int expected = 0;
            for (int c : q.confusion[i]) expected += c;
            r.csv.rows.push_back({q.id, q.names[i], std::to_string(q.distribution[i]),
                                  std::to_string(expected), std::to_string(q.confusion[i][i])});
        }
    return r;
}

}  // namespace core::dataset
