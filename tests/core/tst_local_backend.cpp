// core::LocalBackend on the real tiny DiffusionGemma (build/models/tiny, written by
// `dgem make-tiny-model`) through the real loader: decisions agree with the engine's own slot
// reads of the same plan, are deterministic per seed, follow the samples policy, and the reply
// body reads back through decision_from_json. Health answers too.

#include <QtTest>
// engine/engine.h has a CanvasRow::slots member: Qt's `slots` keyword macro would eat it, so
// this test names its slots Q_SLOTS and drops the macro.
#undef slots

#include <cmath>
#include <filesystem>

#include "core/canvas_plan.h"
#include "core/local_backend.h"
#include "core/read_stats.h"
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
        auto back =
            core::decision_from_json(d->raw, triage_schema(), core::AnswerForm::Chat, "local");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->questions[1].winner, d->questions[1].winner);
        QVERIFY(std::fabs(back->questions[1].mean[0] - d->questions[1].mean[0]) < 1e-12);
        QCOMPARE(d->raw["diagnostics"]["samples"]["policy"]["mode"].get<std::string>(),
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
        QCOMPARE(d->raw["diagnostics"]["samples"]["policy"]["extended"], json::array({true}));
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
        QCOMPARE(d->raw["diagnostics"]["isolated"].size(), size_t(3));
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
