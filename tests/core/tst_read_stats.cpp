// core read statistics against values worked out by hand (in the comments), the answer and
// diagnostics JSON shapes of both wire forms, and reading a server's reply back.

#include <QtTest>

#include <cmath>

#include "core/decide/read_stats.h"
#include "core/wire/decision_json.h"

using nlohmann::json;

namespace {

core::Question noul() {
    core::Question q;
    q.id = "urgent";
    q.type = core::QuestionType::Noul;
    return q;
}

core::Question choice() {
    core::Question q;
    q.id = "team";
    q.type = core::QuestionType::Choice;
    q.options = {{"billing", ""}, {"support", ""}, {"engineering", ""}};
    return q;
}

core::Question score() {
    core::Question q;
    q.id = "sentiment";
    q.type = core::QuestionType::Score;
    q.levels = {"calm", "frustrated", "furious"};
    return q;
}

// A read whose label softmax is exactly `p` (log p shifted by a constant, which softmax removes).
core::SlotRead read_of(std::vector<double> p, double shift = 0) {
    core::SlotRead r;
    double mass = 0;
    for (double x : p) {
        r.label_logprobs.push_back(std::log(x) + shift);
        mass += std::exp(std::log(x) + shift);
    }
    r.label_mass = mass;
    return r;
}

bool near(double a, double b, double tol = 1e-6) {
    return std::fabs(a - b) <= tol;
}

}  // namespace

class TestReadStats : public QObject {
    Q_OBJECT

  private slots:
    void twoReadsOfANoul() {
        // Reads p1 = (0.8, 0.2) and p2 = (0.6, 0.4); the first with logprobs shifted by -1, so its
        // label mass is e^-1 = 0.367879 and the second's 1: mean mass 0.683940.
        // mean = (0.7, 0.3); winner yes; confidence 0.7.
        // H = -(0.7 ln 0.7 + 0.3 ln 0.3) = 0.249672 + 0.361192 = 0.610864 nats.
        // hesitation = 0.610864 / ln 2 = 0.881291 (Very unsure).
        // sample variance of p[yes] = (0.1^2 + 0.1^2) / 1 = 0.02; stderr = sqrt(0.02 / 2) = 0.1.
        // Both reads pick yes: agreement 1.
        auto o = core::aggregate_reads(noul(), {read_of({0.8, 0.2}, -1.0), read_of({0.6, 0.4})});
        QCOMPARE(o.per_read.size(), size_t(2));
        QVERIFY(near(o.per_read[0][0], 0.8));
        QVERIFY(near(o.mean[0], 0.7) && near(o.mean[1], 0.3));
        QCOMPARE(o.winner, 0);
        QVERIFY(near(o.confidence, 0.7));
        QVERIFY(near(o.entropy, 0.610864, 1e-6));
        QVERIFY(near(o.hesitation, 0.881291, 1e-6));
        QCOMPARE(o.hesitation_class(), core::Hesitation::VeryUnsure);
        QVERIFY(o.stderr_winner.has_value());
        QVERIFY(near(*o.stderr_winner, 0.1));
        QVERIFY(near(o.agreement, 1.0));
        QVERIFY(near(o.label_mass, (std::exp(-1.0) + 1.0) / 2));
        QVERIFY(o.argmax_is_label);
    }

    void threeReadsThatDisagree() {
        // p1 = (.5 .3 .2), p2 = (.2 .7 .1), p3 = (.6 .2 .2).
        // mean = (1.3/3, 1.2/3, 0.5/3) = (.433333, .4, .166667): winner A (billing).
        // Own argmaxes A, B, A: agreement 2/3.
        // p[A] deviations .066667, -.233333, .166667; squares sum .086667; / (3-1) = .043333;
        // stderr = sqrt(.043333 / 3) = .120185.
        // H = .433333*.836248 + .4*.916291 + .166667*1.791759 = .362374 + .366516 + .298627
        //   = 1.027517; hesitation = 1.027517 / ln 3 = .935287.
        core::SlotRead third = read_of({0.6, 0.2, 0.2});
        third.argmax_is_label = false;
        auto o = core::aggregate_reads(choice(),
                                       {read_of({0.5, 0.3, 0.2}), read_of({0.2, 0.7, 0.1}), third});
        QCOMPARE(o.winner, 0);
        QVERIFY(near(o.mean[0], 1.3 / 3) && near(o.mean[1], 0.4) && near(o.mean[2], 0.5 / 3));
        QVERIFY(near(o.agreement, 2.0 / 3));
        QVERIFY(near(*o.stderr_winner, 0.120185, 1e-6));
        // Every label's error bar: B deviations -.1, .3, -.2 (squares .14, / 2 = .07, / 3:
        // stderr .152753); C .033333, -.066667, .033333 (.006667 / 2 / 3: .033333).
        QCOMPARE(o.stderr_labels.size(), size_t(3));
        QCOMPARE(o.stderr_labels[0], *o.stderr_winner);
        QVERIFY(near(o.stderr_labels[1], 0.152753, 1e-6));
        QVERIFY(near(o.stderr_labels[2], 0.033333, 1e-6));
        QVERIFY(near(o.entropy, 1.027517, 1e-6));
        QVERIFY(near(o.hesitation, 0.935287, 1e-6));
        QVERIFY(!o.argmax_is_label);  // one read's argmax was not a label
    }

    void oneRead() {
        // One read: no stderr (it needs n > 1), agreement 1, the read is the mean.
        auto o = core::aggregate_reads(score(), {read_of({0.1, 0.1, 0.8})});
        QVERIFY(!o.stderr_winner.has_value());
        QVERIFY(o.stderr_labels.empty());
        QCOMPARE(o.winner, 2);
        QVERIFY(near(o.agreement, 1.0));
        QCOMPARE(o.labels, (std::vector<std::string>{"1", "2", "3"}));
        QCOMPARE(o.alternatives[2], std::string("furious"));
    }

    void hesitationClasses() {
        QCOMPARE(core::hesitation_class(0.0), core::Hesitation::Clear);
        QCOMPARE(core::hesitation_class(0.1599), core::Hesitation::Clear);
        QCOMPARE(core::hesitation_class(0.16), core::Hesitation::SomewhatUnsure);
        QCOMPARE(core::hesitation_class(0.5), core::Hesitation::SomewhatUnsure);
        QCOMPARE(core::hesitation_class(0.5001), core::Hesitation::VeryUnsure);
        QCOMPARE(core::to_string(core::Hesitation::Clear), std::string_view("Clear"));
        QCOMPARE(core::to_string(core::Hesitation::SomewhatUnsure),
                 std::string_view("Somewhat unsure"));
        QCOMPARE(core::to_string(core::Hesitation::VeryUnsure), std::string_view("Very unsure"));
        // A read that puts all mass on one label: H = 0, hesitation 0, Clear.
        auto sure = core::aggregate_reads(noul(), {read_of({1.0, 1e-300})});
        QCOMPARE(sure.hesitation_class(), core::Hesitation::Clear);
        // A uniform read: H = ln 3, hesitation 1.
        auto flat = core::aggregate_reads(choice(), {read_of({1.0 / 3, 1.0 / 3, 1.0 / 3})});
        QVERIFY(near(flat.hesitation, 1.0));
    }

    void missingLabelsFromTopK() {
        // Returned: 10 -> -0.5, 11 -> -1.5, 99 -> -3.0. Label 12 is missing: -3.0 - 5 = -8.0.
        std::map<int32_t, double> top{{10, -0.5}, {11, -1.5}, {99, -3.0}};
        auto lp = core::label_logprobs_from_topk(top, {10, 12});
        QCOMPARE(lp.size(), size_t(2));
        QVERIFY(near(lp[0], -0.5) && near(lp[1], -8.0));
        // softmax(-0.5, -8) = (1, e^-7.5) / (1 + e^-7.5): p[0] = 0.999447.
        auto p = core::softmax(lp);
        QVERIFY(near(p[0], 1.0 / (1.0 + std::exp(-7.5))));
    }

    void autoPolicy() {
        QVERIFY(core::needs_more_reads({0.05, 0.2}, 0.1, 4));
        QVERIFY(!core::needs_more_reads({0.05, 0.1}, 0.1, 4));  // must exceed the threshold
        QVERIFY(!core::needs_more_reads({0.05, 0.9}, 0.1, 1));  // auto_max 1: never more
        QVERIFY(!core::needs_more_reads({}, 0.1, 4));
    }

    void answerShapes() {
        // Score mean (.2 .5 .3): chat score = 1(.2) + 2(.5) + 3(.3) = 2.1, level frustrated;
        // systemone score = 0(.2) + 1(.5) + 2(.3) = 1.1 with a legend.
        auto s = core::aggregate_reads(score(), {read_of({0.2, 0.5, 0.3})});
        json chat = core::answer_json(s, core::AnswerForm::Chat);
        QCOMPARE(chat["label"].get<std::string>(), std::string("2"));
        QCOMPARE(chat["level"].get<std::string>(), std::string("frustrated"));
        QVERIFY(near(chat["score"].get<double>(), 2.1));
        QVERIFY(near(chat["probabilities"]["furious"].get<double>(), 0.3));
        QVERIFY(near(chat["confidence"].get<double>(), 0.5));
        QVERIFY(!chat.contains("stderr"));  // one read
        json one = core::answer_json(s, core::AnswerForm::SystemOne);
        QVERIFY(near(one["score"].get<double>(), 1.1));
        QCOMPARE(one["legend"]["0"].get<std::string>(), std::string("calm"));
        QVERIFY(near(one["probabilities"]["2"].get<double>(), 0.3));
        QVERIFY(!one.contains("label"));

        auto n = core::aggregate_reads(noul(), {read_of({0.8, 0.2}), read_of({0.6, 0.4})});
        json nc = core::answer_json(n, core::AnswerForm::Chat);
        QCOMPARE(nc["label"].get<std::string>(), std::string("yes"));
        QVERIFY(near(nc["noul"].get<double>(), 0.7));
        QVERIFY(near(nc["probabilities"]["no"].get<double>(), 0.3));
        QVERIFY(near(nc["stderr"].get<double>(), 0.1));
        QVERIFY(near(nc["agreement"].get<double>(), 1.0));
        json ns = core::answer_json(n, core::AnswerForm::SystemOne);
        QVERIFY(near(ns["probabilities"]["true"].get<double>(), 0.7));
        QVERIFY(near(ns["probabilities"]["false"].get<double>(), 0.3));

        auto c = core::aggregate_reads(choice(), {read_of({0.1, 0.2, 0.7})});
        json cc = core::answer_json(c, core::AnswerForm::Chat);
        QCOMPARE(cc["choice"].get<std::string>(), std::string("engineering"));
        QCOMPARE(cc["label"].get<std::string>(), std::string("C"));
    }

    void diagnosticsAndRoundTrip() {
        core::Decision d;
        d.questions.push_back(
            core::aggregate_reads(noul(), {read_of({0.8, 0.2}), read_of({0.6, 0.4})}));
        d.questions.push_back(
            core::aggregate_reads(score(), {read_of({0.2, 0.5, 0.3}), read_of({0.2, 0.5, 0.3})}));
        d.questions[0].pos = 7;
        d.questions[0].isolated = true;
        d.questions[1].pos = 3;
        d.samples = 2;
        d.reads = 3;
        d.prompt_tokens = 120;
        d.layout = core::Layout::SchemaFirst;
        d.timings.total_ms = 12.5;
        json diag = core::diagnostics_json(d);
        QCOMPARE(diag["questions"]["urgent"]["pos"].get<int>(), 7);
        QCOMPARE(diag["questions"]["urgent"]["entropy"].size(), size_t(2));
        // entropy of read 1, (0.8, 0.2): 0.8*0.223144 + 0.2*1.609438 = 0.500402
        QVERIFY(near(diag["questions"]["urgent"]["entropy"][0].get<double>(), 0.500402, 1e-6));
        QCOMPARE(diag["samples"]["n"].get<int>(), 2);
        QCOMPARE(diag["timing"]["reads"].get<int>(), 3);
        QCOMPARE(diag["layout"].get<std::string>(), std::string("schema_first"));
        QCOMPARE(diag["isolated"], json::array({"urgent"}));
        QCOMPARE(diag["prompt_tokens"].get<int>(), 120);

        core::Schema schema;
        schema.questions = {noul(), score()};
        for (auto form : {core::AnswerForm::Chat, core::AnswerForm::SystemOne}) {
            json body = core::decision_json(d, form);
            auto back = core::decision_from_json(body, schema, form, "test reply");
            QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
            QCOMPARE(back->questions.size(), size_t(2));
            QVERIFY(near(back->questions[0].mean[0], 0.7));
            QCOMPARE(back->questions[1].winner, 1);
            QVERIFY(near(back->questions[1].mean[2], 0.3));
            QCOMPARE(back->questions[0].pos, 7);
            QVERIFY(back->questions[0].isolated);
            QCOMPARE(back->samples, 2);
            QCOMPARE(back->reads, 3);
            QCOMPARE(back->layout, core::Layout::SchemaFirst);
            QVERIFY(near(back->questions[0].entropy, d.questions[0].entropy));
        }
        // Every label's error bar travels in the diagnostics and comes back.
        QCOMPARE(diag["questions"]["urgent"]["label_stderr"].size(), size_t(2));
        QVERIFY(near(diag["questions"]["urgent"]["label_stderr"][1].get<double>(), 0.1));
        QCOMPARE(diag["questions"]["sentiment"]["label_stderr"],
                 json::array({0.0, 0.0, 0.0}));  // reads that agree exactly: no spread
        for (auto form : {core::AnswerForm::Chat, core::AnswerForm::SystemOne}) {
            auto back = core::decision_from_json(core::decision_json(d, form), schema, form, "x");
            QCOMPARE(back->questions[0].stderr_labels, d.questions[0].stderr_labels);
        }
        QVERIFY(near(*core::decision_from_json(core::decision_json(d, core::AnswerForm::Chat),
                                               schema, core::AnswerForm::Chat, "x")
                          ->questions[0]
                          .stderr_winner,
                     0.1));
        // A reply that lacks a question is refused, naming it.
        json partial = core::decision_json(d, core::AnswerForm::Chat);
        partial["answers"].erase("sentiment");
        auto bad = core::decision_from_json(partial, schema, core::AnswerForm::Chat, "server");
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.error().message),
                 QString("server: reply has no answer for question \"sentiment\""));
    }

    // What a decision learned beyond its answers is typed (DecisionDiagnostics) and travels in
    // the diagnostics: written by the decide module or a server, read back by a client, it
    // comes out as the same JSON, so a decision made through dgem serve reports what a local one
    // does. A tempered decision records its temperature.
    void typedDiagnosticsRoundTrip() {
        core::Decision d;
        d.questions.push_back(
            core::aggregate_reads(noul(), {read_of({0.8, 0.2}), read_of({0.6, 0.4})}));
        d.questions.push_back(core::aggregate_reads(score(), {read_of({0.2, 0.5, 0.3})}));
        d.samples = 2;
        d.reads = 3;
        d.passes = 2;
        core::SamplesPolicy policy;
        policy.automatic = true;
        policy.max = 4;
        policy.threshold = 0.1;
        policy.extended = {true, false};
        policy.first_read_entropy = {{"urgent", 0.500402}, {"sentiment", 1.0296}};
        d.diagnostics.samples_policy = policy;
        d.diagnostics.conditioning = core::Conditioning::Prefill;
        d.diagnostics.seed = 12345678901234ull;
        d.diagnostics.seed_token = core::SeedToken::Fixed;
        d.diagnostics.engine = "local";
        d.diagnostics.entropy_basis = "labels";
        core::apply_temperature(d, 1.5);
        QCOMPARE(*d.diagnostics.temperature, 1.5);
        QCOMPARE(d.questions[0].read_entropy.size(), size_t(2));

        core::Schema schema;
        schema.questions = {noul(), score()};
        const json written = core::decision_json(d, core::AnswerForm::Chat);
        QCOMPARE(written["diagnostics"]["samples"]["policy"]["mode"], json("auto"));
        QCOMPARE(written["diagnostics"]["samples"]["policy"]["extended"],
                 json::array({true, false}));
        QCOMPARE(written["diagnostics"]["conditioning"], json("prefill"));
        QCOMPARE(written["diagnostics"]["seed"].get<uint64_t>(), 12345678901234ull);
        QCOMPARE(written["diagnostics"]["seed_token"], json("fixed"));
        QCOMPARE(written["diagnostics"]["temperature"].get<double>(), 1.5);
        auto back = core::decision_from_json(written, schema, core::AnswerForm::Chat, "server");
        QVERIFY(back.ok());
        QCOMPARE(back->diagnostics.samples_policy->first_read_entropy, policy.first_read_entropy);
        QCOMPARE(core::decision_json(*back, core::AnswerForm::Chat)["diagnostics"],
                 written["diagnostics"]);
        // A staged decision read in one stage says so with null; a plain one leaves it out.
        d.diagnostics.conditioning = core::Conditioning::SinglePass;
        QVERIFY(core::diagnostics_json(d)["conditioning"].is_null());
        d.diagnostics.conditioning = core::Conditioning::Unstaged;
        QVERIFY(!core::diagnostics_json(d).contains("conditioning"));
    }
};

QTEST_GUILESS_MAIN(TestReadStats)
#include "tst_read_stats.moc"
