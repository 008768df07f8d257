// core::LocalBackend on the real tiny DiffusionGemma (build/models/tiny, written by
// `dgem make-tiny-model`) through the real loader: decisions agree with the engine's own slot
// reads of the same plan, are deterministic per seed, follow the samples policy, and the reply
// body reads back through decision_from_json. Health answers too.

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <map>

#include "core/decide/canvas_plan.h"
#include "core/decide/local_backend.h"
#include "core/decide/read_stats.h"
#include "core/decide/stages.h"
#include "core/policy/policy.h"
#include "core/wire/decision_json.h"
#include "engine/engine.h"

using nlohmann::json;

namespace {

core::Schema triage_schema() {
    auto s = core::parse_schema(json::parse(R"({
      "instructions": "You triage support tickets.",
      "questions": [
        {"id": "urgent", "type": "noul", "instructions": "Reply today?"},
        {"id": "team", "type": "choice", "instructions": "Which team?",
         "options": [{"name": "billing"}, {"name": "support"}, {"name": "engineering"}]},
        {"id": "sentiment", "type": "score", "instructions": "How upset?",
         "levels": ["calm", "frustrated", "furious"]}],
      "samples": 3})"),
                                "test");
    if (!s.ok()) qFatal("%s", s.error().message.c_str());
    return *s;
}

const json kState = {{"ticket", "I was charged twice and nobody answers. Fix it now."}};

// A secops-style staged policy: "breach" first; "vector" after it; "contain" only when there is
// a breach and "close" only when there is none (so exactly one of them is skipped); "report" only
// when "contain" was answered yes or no (skipped with it).
core::Schema staged_schema() {
    auto s = core::parse_schema(nlohmann::ordered_json::parse(R"({
      "questions": [
        {"id": "breach", "type": "choice", "instructions": "Active breach?",
         "options": {"yes": "an attacker is inside", "no": "routine noise"}},
        {"id": "vector", "type": "choice", "instructions": "Vector?", "depends_on": ["breach"],
         "options": {"phishing": "mail", "exploit": "a service", "insider": "staff"}},
        {"id": "contain", "type": "noul", "instructions": "Isolate the host?",
         "ask_if": {"breach": ["yes"]}},
        {"id": "close", "type": "noul", "instructions": "Close the alert?",
         "ask_if": {"breach": ["no"]}},
        {"id": "report", "type": "noul", "instructions": "Report it?",
         "ask_if": {"contain": ["yes", "no"]}}],
      "samples": 2, "isolate": "none"})"),
                                "staged");
    if (!s.ok()) qFatal("%s", s.error().message.c_str());
    return *s;
}

// Every row's label distribution of the engine's own read of one plan, per question index.
std::map<int, std::vector<std::vector<double>>> direct_reads(engine::Engine& engine,
                                                             const core::CanvasPlan& plan) {
    std::map<int, std::vector<std::vector<double>>> out;
    for (int g = 0; g < static_cast<int>(plan.groups.size()); ++g) {
        auto read = engine.read_slots(core::to_request(plan, g, plan.rows), {});
        if (!read) qFatal("%s", read.error().message.c_str());
        for (const auto& row : read->rows)
            for (size_t s = 0; s < row.size(); ++s) {
                std::vector<double> lp(row[s].label_logprobs.begin(), row[s].label_logprobs.end());
                out[plan.groups[g].answer_slots[s].question_index].push_back(core::softmax(lp));
            }
    }
    return out;
}

}  // namespace

class TestLocalBackend : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<core::LocalBackend> backend_;

  private Q_SLOTS:
    void initTestCase() {
        if (!std::filesystem::exists(std::filesystem::path(DS_TINY_MODEL_DIR) / "config.json"))
            QFAIL("no tiny model at " DS_TINY_MODEL_DIR " (build the tiny_model target)");
        engine::EngineOptions options;
        options.model_dir = DS_TINY_MODEL_DIR;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        auto opened = core::LocalBackend::open(options);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        backend_ = std::move(opened.value());
    }

    void decisionMatchesTheEnginesReads() {
        core::DecideRequest req{triage_schema(), kState, 42};
        auto d = backend_->decide(req, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        QCOMPARE(d->questions.size(), size_t(3));
        QCOMPARE(d->samples, 3);
        QCOMPARE(d->reads, 3);
        for (const auto& q : d->questions) {
            QCOMPARE(q.per_read.size(), size_t(3));
            double sum = 0;
            for (double p : q.mean) sum += p;
            QVERIFY(std::fabs(sum - 1.0) < 1e-9);
            QVERIFY(q.stderr_winner.has_value());
            QVERIFY(q.label_mass > 0 && q.label_mass <= 1.0 + 1e-6);
        }
        QCOMPARE(d->questions[1].pos, 10);

        // The same plan read directly through the engine gives the same label distributions.
        core::PlanOptions po;
        po.seed = 42;
        po.canvas_length = backend_->engine().info().canvas_length;
        auto plan = core::build_plan(triage_schema(), kState, backend_->engine().tokenizer(), po);
        QVERIFY(plan.ok());
        QCOMPARE(d->prompt_tokens, static_cast<int>(plan->groups[0].prompt_ids.size()));
        auto reqs = core::to_requests(*plan);
        QCOMPARE(reqs.size(), size_t(1));
        auto raw = backend_->engine().read_slots(reqs[0], {});
        QVERIFY(raw.ok());
        QCOMPARE(raw->rows.size(), size_t(3));
        for (size_t row = 0; row < 3; ++row)
            for (size_t s = 0; s < 3; ++s) {
                std::vector<double> lp(raw->rows[row][s].label_logprobs.begin(),
                                       raw->rows[row][s].label_logprobs.end());
                auto p = core::softmax(lp);
                for (size_t i = 0; i < p.size(); ++i)
                    QVERIFY(std::fabs(p[i] - d->questions[s].per_read[row][i]) < 1e-9);
            }
        // Three different noise draws read the template differently.
        QVERIFY(d->questions[0].per_read[0] != d->questions[0].per_read[1]);

        // Deterministic per seed; another seed draws other noise.
        auto again = backend_->decide(req, {}, {});
        QVERIFY(again.ok());
        QCOMPARE(again->questions[2].per_read, d->questions[2].per_read);
        req.seed = 43;
        auto other = backend_->decide(req, {}, {});
        QVERIFY(other.ok());
        QVERIFY(other->questions[2].per_read != d->questions[2].per_read);

        // Our own reply body reads back as the same decision.
        auto back = core::decision_from_json(core::decision_json(*d, core::AnswerForm::Chat),
                                             triage_schema(), core::AnswerForm::Chat, "local");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->questions[1].winner, d->questions[1].winner);
        QVERIFY(std::fabs(back->questions[1].mean[0] - d->questions[1].mean[0]) < 1e-12);
        QCOMPARE(core::decision_json(
                     *d, core::AnswerForm::Chat)["diagnostics"]["samples"]["policy"]["mode"]
                     .get<std::string>(),
                 std::string("fixed"));
    }

    void autoSamplesPolicy() {
        core::Schema s = triage_schema();
        s.samples = {true, 1};
        s.auto_threshold = 0.0;  // any entropy exceeds it: the first read is extended
        s.auto_max = 4;
        auto d = backend_->decide({s, kState, 42}, {}, {});
        QVERIFY(d.ok());
        QCOMPARE(d->reads, 4);
        QCOMPARE(d->questions[0].per_read.size(), size_t(4));
        QCOMPARE(core::decision_json(
                     *d, core::AnswerForm::Chat)["diagnostics"]["samples"]["policy"]["extended"],
                 json::array({true}));
        s.auto_threshold = 100.0;  // no entropy exceeds it: one read
        auto one = backend_->decide({s, kState, 42}, {}, {});
        QVERIFY(one.ok());
        QCOMPARE(one->reads, 1);
        QVERIFY(!one->questions[0].stderr_winner.has_value());
        // The first read is the same canvas either way.
        QCOMPARE(one->questions[0].per_read[0], d->questions[0].per_read[0]);
    }

    void isolatedReads() {
        core::Schema s = triage_schema();
        s.isolate = core::Isolate::All;
        s.samples = {false, 2};
        auto d = backend_->decide({s, kState, 42}, {}, {});
        QVERIFY(d.ok());
        QCOMPARE(d->reads, 6);  // 3 groups x 2 draws
        for (const auto& q : d->questions) QVERIFY(q.isolated);
        QCOMPARE(core::decision_json(*d, core::AnswerForm::Chat)["diagnostics"]["isolated"].size(),
                 size_t(3));
    }

    void refusesWhatItCannotRun() {
        core::Schema s = triage_schema();
        s.steps = 2;
        auto d = backend_->decide({s, kState, 42}, {}, {});
        QVERIFY(!d.ok());
        QCOMPARE(d.error().kind, engine::ErrorKind::BadInput);
        engine::CancelToken cancel;
        cancel.cancel();
        auto c = backend_->decide({triage_schema(), kState, 42}, {}, cancel);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().kind, engine::ErrorKind::Cancelled);
    }

    void stagedReads() {
        const core::Schema schema = staged_schema();
        auto d = backend_->decide({schema, kState, 42}, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        const auto& q = d->questions;
        QCOMPARE(q.size(), size_t(5));
        const std::string breach = q[0].alternatives[q[0].winner];
        const bool yes = breach == "yes";
        // Exactly one of contain/close is read; report goes with contain.
        QCOMPARE(q[2].skipped, !yes);
        QCOMPARE(q[3].skipped, yes);
        QCOMPARE(q[4].skipped, !yes);
        const core::QuestionOutcome& skipped = yes ? q[3] : q[2];
        QCOMPARE(skipped.skip_because, std::string("breach"));
        QCOMPARE(*skipped.skip_was, breach);
        QVERIFY(skipped.mean.empty() && skipped.per_read.empty());
        if (!yes) {
            QCOMPARE(q[4].skip_because, std::string("contain"));
            QVERIFY(!q[4].skip_was.has_value());  // its condition names a skipped question
        }
        using Ids = std::vector<std::string>;
        std::vector<Ids> stages = {{"breach"}, {"vector", yes ? "contain" : "close"}};
        if (yes) stages.push_back({"report"});
        QCOMPARE(d->stages, stages);
        QCOMPARE(d->passes, static_cast<int>(stages.size()));  // one joint read per stage
        QCOMPARE(d->reads, 2 * static_cast<int>(stages.size()));

        // The answer JSON: null for a skipped question, the reason and the stages in the
        // diagnostics; it reads back as the same decision.
        const json answers = core::answers_json(*d, core::AnswerForm::Chat);
        QVERIFY(answers[skipped.id].is_null());
        const json diag = core::decision_json(*d, core::AnswerForm::Chat)["diagnostics"];
        QCOMPARE(diag["skipped"][skipped.id]["because"].get<std::string>(), std::string("breach"));
        QCOMPARE(diag["stages"].size(), stages.size());
        QCOMPARE(diag["passes"].get<int>(), d->passes);
        auto back = core::decision_from_json(core::decision_json(*d, core::AnswerForm::Chat),
                                             schema, core::AnswerForm::Chat, "local");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->stages, stages);
        QVERIFY(back->questions[skipped.id == "contain" ? 2 : 3].skipped);
        QCOMPARE(back->questions[skipped.id == "contain" ? 2 : 3].skip_was, skipped.skip_was);

        // Stage 2, built independently: the prompt of every question, the empty thought block
        // and breach's answer line; the canvas "\n" and the stage's own lines. The engine's read
        // of that plan is what the decision holds, bit for bit.
        const auto& tok = backend_->engine().tokenizer();
        core::PlanOptions po;
        po.seed = 42;
        po.canvas_length = backend_->engine().info().canvas_length;
        po.questions = {1, yes ? 2 : 3};
        po.first_group = 1;
        po.prefix = core::stage_prefix(core::staged_prompt_ids(schema, kState, schema.layout, tok),
                                       {"breach: " + q[0].labels[q[0].winner]}, false, tok);
        auto stage2 = core::build_plan(schema, kState, tok, po);
        QVERIFY2(stage2.ok(), stage2.ok() ? "" : stage2.error().message.c_str());
        QCOMPARE(stage2->groups.size(), size_t(1));
        const auto& g = stage2->groups[0];
        const std::string prompt = tok.decode(g.prompt_ids);
        const std::string tail = "<channel|>breach: " + q[0].labels[q[0].winner];
        QVERIFY2(prompt.size() > tail.size() &&
                     prompt.compare(prompt.size() - tail.size(), tail.size(), tail) == 0,
                 prompt.c_str());
        QVERIFY(tok.decode(g.canvas_ids).rfind("\nvector: A\n", 0) == 0);
        const auto direct = direct_reads(backend_->engine(), *stage2);
        QCOMPARE(direct.at(1), q[1].per_read);
        QCOMPARE(direct.at(yes ? 2 : 3), q[yes ? 2 : 3].per_read);
    }

    void thinkingRead() {
        auto parsed = core::parse_schema(json::parse(R"({
          "questions": [{"id": "urgent", "type": "noul", "instructions": "Reply today?"}],
          "samples": 2, "think": 8})"),
                                         "think");
        QVERIFY(parsed.ok());
        const core::Schema schema = *parsed;
        auto d = backend_->decide({schema, kState, 42}, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        QVERIFY(d->thought.has_value());
        QVERIFY(d->thought->tokens >= 0 && d->thought->tokens <= 8);
        QVERIFY(d->thought->passes > 0);
        QCOMPARE(d->passes, 1);
        QCOMPARE(core::decision_json(*d, core::AnswerForm::Chat)["diagnostics"]["thought"]["tokens"]
                     .get<int>(),
                 d->thought->tokens);

        // The same thought written again (thinking on, after "<|channel>thought\n", stopping at
        // <channel|>), then the read: prompt = thought prompt + thought + <channel|>, and the
        // canvas is the seeded answer template right after it, with no thought block of its own.
        auto& eng = backend_->engine();
        const auto& tok = eng.tokenizer();
        engine::GenerationRequest g;
        g.prompt_ids = core::thought_prompt_ids(schema, kState, schema.layout, tok);
        QVERIFY(tok.decode(g.prompt_ids).find("<|think|>") != std::string::npos);
        g.max_new_tokens = 8;
        g.seed = 42;
        g.stop_ids = {core::thought_close_id(tok)};
        auto thought = eng.generate(g, {}, {});
        QVERIFY(thought.ok());
        QCOMPARE(static_cast<int>(thought->tokens.size()), d->thought->tokens);
        std::vector<engine::TokenId> prompt = g.prompt_ids;
        prompt.insert(prompt.end(), thought->tokens.begin(), thought->tokens.end());
        prompt.push_back(core::thought_close_id(tok));
        core::PlanOptions po;
        po.seed = 42;
        po.canvas_length = eng.info().canvas_length;
        po.prefix = core::ReadPrefix{prompt, ""};
        auto plan = core::build_plan(schema, kState, tok, po);
        QVERIFY(plan.ok());
        QCOMPARE(plan->groups[0].prompt_ids, prompt);
        QCOMPARE(d->prompt_tokens, static_cast<int>(prompt.size()));
        QVERIFY(tok.decode(plan->groups[0].canvas_ids).rfind("urgent: yes<turn|>", 0) == 0);
        QCOMPARE(plan->groups[0].answer_slots[0].pos, d->questions[0].pos);
        QCOMPARE(direct_reads(eng, *plan).at(0), d->questions[0].per_read);

        // A thought the context cannot hold is refused, naming think.
        core::Schema huge = schema;
        huge.think = core::kMaxThink;
        const int context = eng.info().max_context;
        if (context > 0 && context < core::kMaxThink + 1024) {
            auto refused = backend_->decide({huge, kState, 42}, {}, {});
            QVERIFY(!refused.ok());
            QVERIFY(refused.error().message.find("think 4096") != std::string::npos);
        }
    }

    void dgemStylePoliciesPlanAndDecide() {
        // Templates in dgem's own forms, written for the tests (tests/data/policies): legacy
        // names, dict-form options and questions, depends_on/ask_if and think.
        const auto& tok = backend_->engine().tokenizer();
        for (const char* file : {"secops_dag.json.tmpl", "taxonomy_think.json.tmpl"}) {
            auto policy = core::load_policy_file(std::filesystem::path(DS_SOURCE_DIR) / "tests" /
                                                 "data" / "policies" / file);
            QVERIFY2(policy.ok(), policy.ok() ? "" : policy.error().message.c_str());
            auto rendered = core::render_policy(*policy, {});
            QVERIFY2(rendered.ok(), rendered.ok() ? "" : rendered.error().message.c_str());
            auto schema = core::parse_schema(rendered->schema, file);
            QVERIFY2(schema.ok(), schema.ok() ? "" : schema.error().message.c_str());
            core::PlanOptions po;
            po.canvas_length = backend_->engine().info().canvas_length;
            auto plan = core::build_plan(*schema, rendered->state, tok, po);
            QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
            QVERIFY(plan->staged);
            auto d = backend_->decide({*schema, rendered->state, 42}, {}, {});
            QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
            const auto& first = d->questions[0];
            const std::string answer = first.alternatives[first.winner];
            using V = std::vector<std::string>;
            if (std::string(file).rfind("secops", 0) == 0) {
                QCOMPARE(first.alternatives, (V{"yes", "no"}));  // source order: A = yes
                QCOMPARE(d->questions[2].skipped, answer != "yes");
                QCOMPARE(d->questions[3].skipped, answer != "no");
                QCOMPARE(d->stages.size(), size_t(2));
                QVERIFY(!d->thought.has_value());
            } else {
                QCOMPARE(first.id, std::string("primary_category"));
                QCOMPARE(first.alternatives, (V{"billing", "shipping", "other"}));
                QCOMPARE(d->questions[1].skipped, answer != "other");
                QVERIFY(d->thought.has_value());
                QVERIFY(d->thought->tokens <= 8);
            }
        }
    }

    void health() {
        // (generate() runs the full 256-position denoising loop; the engine's own tests cover it,
        // and on a loaded CPU it can outlast QtTest's per-function limit.)
        auto h = backend_->health({});
        QVERIFY(h.ok());
        QVERIFY(h->ready);
        QCOMPARE(h->kind, std::string("local"));
        QVERIFY(!h->device.empty());
        QVERIFY(backend_->describe().rfind("local ", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TestLocalBackend)
#include "tst_local_backend.moc"
