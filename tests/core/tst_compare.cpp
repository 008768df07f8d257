// Slot readout against generative JSON (core/comparison/compare.h):
//  - the strict parser: a valid reply, each kind of invalid one (not JSON with its offset, a
//    fenced reply, prose around the object, a missing question, an unknown key, a value outside
//    the allowed ones, a non-string, a duplicate key), labels accepted as well as names;
//  - the prompt names every question and its allowed values; the token budget's bounds;
//  - build_comparison: agreement, passes, latency ratio, a failed generative side (a 404 from a
//    /v1/systemone-only server) named as a missing route with the slot side kept;
//  - suite figures (compare_suite, comparison_rows) from records, the records' JSON round trip;
//  - end to end on the tiny model: `dgem compare --local` and the same through the real
//    `dgem serve` give the same table; `dgem bench -M both` prints the side-by-side summary.
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "core/comparison/compare.h"
#include "core/policy/json_input.h"
#include "core/policy/schema.h"
#include "serve_process.h"

using nlohmann::json;
namespace cmp = core::compare;
namespace ev = core::eval;

#include "test_files.h"

namespace {

core::Schema triage() {
    auto r = core::parse_schema(json::parse(R"({
      "instructions": "Triage the ticket.",
      "questions": [
        {"id": "urgent", "type": "noul", "instructions": "Is it urgent?",
         "criteria": {"true": "act now", "false": "can wait"}},
        {"id": "team", "type": "choice", "instructions": "Which team?",
         "options": [{"name": "billing", "description": "money"}, {"name": "support"},
                     {"name": "engineering"}]},
        {"id": "sentiment", "type": "score", "instructions": "Mood?",
         "levels": ["calm", "frustrated", "furious"]}]})"),
                                "triage");
    if (!r) qFatal("%s", r.error().message.c_str());
    return *r;
}

QString reasons(const cmp::GenerativeAnswer& a) {
    return QString::fromStdString(a.reason());
}

core::Decision decision_with(const std::vector<int>& winners) {
    core::Schema s = triage();
    core::Decision d;
    d.backend = "test backend";
    for (size_t i = 0; i < s.questions.size(); ++i) {
        core::QuestionOutcome q;
        q.id = s.questions[i].id;
        q.labels = s.questions[i].labels();
        q.alternatives = s.questions[i].alternatives();
        q.mean.assign(q.labels.size(), 0.1);
        q.mean[static_cast<size_t>(winners[i])] = 0.8;
        q.winner = winners[i];
        q.confidence = 0.8;
        q.hesitation = 0.3;
        d.questions.push_back(q);
    }
    return d;
}

core::Generation generation_of(const std::string& text, int passes) {
    core::Generation g;
    g.text = text;
    g.passes = passes;
    g.completion_tokens = 12;
    return g;
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

    QTemporaryDir home_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char* k :
             {"DGEM_URL", "DGEM_TOKEN", "DGEM_SERVER_KEY", "DGEM_MODEL", "DGEM_TIMEOUT", "API_KEY"})
            e.remove(k);
        e.insert("HOME", home_.path());
        // The generations compared here must not be cut by the server's wall-time bound on a
        // loaded machine.
        e.insert("GENERATION_TIMEOUT_S", "86400");
        return e;
    }

    Run dgem(const QStringList& args, int timeout_ms = 1200000) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.setWorkingDirectory(QStringLiteral(DS_SOURCE_DIR));
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        p.closeWriteChannel();
        if (!p.waitForFinished(timeout_ms)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    QStringList policyArgs() const {
        return {"-t",
                QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl"),
                "-v",
                "ticket=I was charged twice for my subscription this month.",
                "--max-tokens",
                "16",
                "--seed",
                "7"};
    }

  private slots:
    void initTestCase() { QVERIFY(home_.isValid()); }

    void validReply() {
        const auto s = triage();
        auto a = cmp::parse_generative_answer(
            s, R"( {"urgent": "yes", "team": "billing", "sentiment": "furious"} )");
        QVERIFY2(a.valid, qPrintable(reasons(a)));
        QCOMPARE(a.chosen, (std::vector<int>{0, 0, 2}));
        // Labels are understood as well as names: "C" is the third option, "2" the second level.
        a = cmp::parse_generative_answer(s, R"({"sentiment": "2", "team": "C", "urgent": "no"})");
        QVERIFY2(a.valid, qPrintable(reasons(a)));
        QCOMPARE(a.chosen, (std::vector<int>{1, 2, 1}));
    }

    void invalidReplies_data() {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << ""
                               << "not JSON at offset 0";
        QTest::newRow("fenced") << "```json\n{\"urgent\": \"yes\", \"team\": \"billing\", "
                                   "\"sentiment\": \"calm\"}\n```"
                                << "not JSON at offset 0";
        QTest::newRow("prose before") << "Sure! {\"urgent\": \"yes\"}"
                                      << "not JSON at offset 0";
        QTest::newRow("prose after")
            << "{\"urgent\": \"yes\", \"team\": \"billing\", \"sentiment\": \"calm\"} Done."
            << "not JSON at offset 58";
        QTest::newRow("cut") << "{\"urgent\": \"yes\", \"team\": \"bil"
                             << "not JSON at offset 30";
        QTest::newRow("number too large") << "{\"urgent\": 1e999, \"team\": \"billing\"}"
                                          << "not JSON (number overflow";
        QTest::newRow("array") << "[\"yes\"]"
                               << "the reply is an array, not a JSON object";
        QTest::newRow("missing") << "{\"urgent\": \"yes\", \"sentiment\": \"calm\"}"
                                 << "missing \"team\"";
        QTest::newRow("unknown key")
            << "{\"urgnet\": \"yes\", \"urgent\": \"yes\", \"team\": \"billing\", \"sentiment\": "
               "\"calm\"}"
            << "\"urgnet\" is not a question (questions: \"urgent\", \"team\", \"sentiment\")";
        QTest::newRow("not allowed")
            << "{\"urgent\": \"maybe\", \"team\": \"billing\", \"sentiment\": \"calm\"}"
            << "\"maybe\" is not allowed for \"urgent\" (allowed: \"yes\", \"no\")";
        QTest::newRow("wrong case")
            << "{\"urgent\": \"Yes\", \"team\": \"billing\", \"sentiment\": \"calm\"}"
            << "\"Yes\" is not allowed for \"urgent\"";
        QTest::newRow("not a string")
            << "{\"urgent\": true, \"team\": \"billing\", \"sentiment\": \"calm\"}"
            << "\"urgent\": expected a string, got a boolean true";
        QTest::newRow("duplicate")
            << "{\"urgent\": \"yes\", \"urgent\": \"no\", \"team\": \"billing\", "
               "\"sentiment\": \"calm\"}"
            << "\"urgent\" appears twice";
    }
    void invalidReplies() {
        QFETCH(QString, reply);
        QFETCH(QString, reason);
        auto a = cmp::parse_generative_answer(triage(), reply.toStdString());
        QVERIFY(!a.valid);
        QVERIFY2(reasons(a).contains(reason), qPrintable(reasons(a)));
        // An invalid reply answers nothing, whatever parts of it were usable.
        QCOMPARE(a.chosen, (std::vector<int>{-1, -1, -1}));
    }

    // A local generation may end inside a character; its text is what a server's JSON carries.
    void localTextIsValidUtf8() {
        QCOMPARE(core::valid_utf8("plain"), std::string("plain"));
        QCOMPARE(core::valid_utf8("a\xff b\xe2\x82"), std::string("a\xEF\xBF\xBD b\xEF\xBF\xBD"));
        const std::string cut = "caf\xc3";
        QCOMPARE(core::valid_utf8(cut),
                 json::parse(json(cut).dump(-1, ' ', false, json::error_handler_t::replace))
                     .get<std::string>());
    }

    void promptNamesEveryQuestion() {
        const auto s = triage();
        auto request = cmp::generative_request(s, json{{"ticket", "refund please"}}, 5);
        QCOMPARE(request.seed, uint64_t(5));
        QCOMPARE(request.messages.size(), size_t(2));
        const QString user = QString::fromStdString(request.messages[1].content);
        QVERIFY(user.contains("refund please"));
        QVERIFY(user.contains(R"("team": Which team?)"));
        QVERIFY(user.contains(R"(Allowed values: "billing", "support", "engineering".)"));
        QVERIFY(user.contains(R"("billing" means: money)"));
        QVERIFY(user.contains(R"(Allowed values: "calm", "frustrated", "furious".)"));
        QVERIFY(QString::fromStdString(request.messages[0].content).contains("Triage the ticket."));
        QVERIFY(request.max_tokens >= 32 && request.max_tokens <= 256);
        QCOMPARE(request.max_tokens % 16, 0);
        core::Schema big = s;
        for (int i = 0; i < 60; ++i) {
            big.questions.push_back(s.questions[1]);
            big.questions.back().id = "question_number_" + std::to_string(i);
        }
        QCOMPARE(cmp::generative_token_budget(big), 256);
    }

    void comparisonOfOneDecision() {
        const auto s = triage();
        auto c = cmp::build_comparison(
            s, decision_with({0, 2, 1}), 20.0,
            generation_of(R"({"urgent": "yes", "team": "support", "sentiment": "frustrated"})", 48),
            900.0);
        QVERIFY(c.generative.valid);
        QCOMPARE(c.compared, 3);
        QCOMPARE(c.agreeing, 2);
        QVERIFY(c.questions[0].agree && !c.questions[1].agree && c.questions[2].agree);
        QCOMPARE(c.slot_timing.passes, 1);
        QCOMPARE(c.generative_timing.passes, 48);
        QCOMPARE(c.latency_ratio(), 45.0);
        const json j = c.to_json();
        QCOMPARE(j["questions"][1]["slot"]["answer"], json("engineering"));
        QCOMPARE(j["questions"][1]["slot"]["label"], json("C"));
        QCOMPARE(j["questions"][1]["generative"]["answer"], json("support"));
        QCOMPARE(j["generative"]["passes"], json(48));
        QCOMPARE(j["agreeing"], json(2));

        // An invalid reply: compared nothing, the reasons kept.
        c = cmp::build_comparison(s, decision_with({0, 0, 0}), 20.0,
                                  generation_of("```json\n{}\n```", 48), 900.0);
        QVERIFY(!c.generative.valid);
        QCOMPARE(c.compared, 0);
        QVERIFY(c.to_json()["generative"]["reasons"][0].get<std::string>().find(
                    "not JSON at offset 0") == 0);

        // A /v1/systemone-only server answers 404 on the chat route: named, slot side kept.
        engine::Error missing = engine::remote_error(
            "POST http://h/v1/chat/completions: HTTP 404 Not Found", engine::Cause::Unsupported);
        c = cmp::build_comparison(s, decision_with({1, 1, 1}), 20.0, missing, 3.0);
        QVERIFY(c.slot.has_value());
        QCOMPARE(c.questions[0].slot_winner, 1);
        QVERIFY(!c.generation);
        QVERIFY2(QString::fromStdString(c.generation_error).contains("no generative route"),
                 c.generation_error.c_str());
        QVERIFY(QString::fromStdString(c.generation_error).contains("HTTP 404"));
        QCOMPARE(c.latency_ratio(), 0.0);

        // Too long for the model's context: said so, with the engine's figures.
        c = cmp::build_comparison(
            s, decision_with({1, 1, 1}), 20.0,
            engine::bad_input("generate: prompt (9000 tokens) + 1 canvas(es) of 64 tokens "
                              "exceeds the model's context of 8192 tokens"),
            1.0);
        QVERIFY(QString::fromStdString(c.generation_error)
                    .startsWith("the questions cannot be asked generatively on this model"));
        QVERIFY(QString::fromStdString(c.generation_error).contains("8192"));
    }

    void suiteFigures() {
        ev::Suite suite;
        for (const char* id : {"a", "b", "c"}) {
            ev::SuiteItem item;
            item.id = id;
            item.tier = "easy";
            item.schema = triage();
            item.questions = {{"urgent", {"yes", "no"}, "yes"}};
            suite.items.push_back(item);
        }
        auto record = [](const char* id, std::vector<double> probs, double slot_s,
                         std::optional<std::string> gen, double gen_s) {
            ev::ItemRecord r;
            r.id = id;
            r.ok = true;
            r.slot_passes = 1;
            r.latency_s = slot_s;
            r.questions = {{"urgent", {"yes", "no"}, probs, 0.2}};
            ev::GenerativeRecord g;
            g.ok = true;
            g.valid = gen.has_value();
            g.answers = {gen.value_or("")};
            if (!gen) g.reasons = {"missing \"urgent\""};
            g.passes = 48;
            g.completion_tokens = 20;
            g.latency_s = gen_s;
            r.generative = g;
            return r;
        };
        std::vector<ev::ItemRecord> records = {record("a", {0.9, 0.1}, 0.1, "yes", 2.0),
                                               record("b", {0.2, 0.8}, 0.2, "yes", 4.0),
                                               record("c", {0.7, 0.3}, 0.3, std::nullopt, 6.0)};
        // Through the journal's JSON and back: the generative side survives.
        for (auto& r : records) {
            auto back = ev::ItemRecord::from_json(r.to_json());
            QVERIFY(back.ok());
            QCOMPARE(back->to_json(), r.to_json());
            r = *back;
        }
        auto s = cmp::compare_suite(suite, records);
        QCOMPARE(s.items, size_t(3));
        QCOMPARE(s.slot.correct, size_t(2));
        QCOMPARE(s.generative.correct, size_t(2));
        QCOMPARE(s.generative_valid, size_t(2));
        QCOMPARE(s.valid_share, 2.0 / 3.0);
        QCOMPARE(s.compared, size_t(2));
        QCOMPARE(s.agreeing, size_t(1));
        QCOMPARE(*s.slot.p50_s, 0.2);
        QCOMPARE(*s.generative.p50_s, 4.0);
        QCOMPARE(s.latency_ratio, 20.0);
        QCOMPARE(s.generative.mean_passes, 48.0);
        auto rows = cmp::comparison_rows(suite, records);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(*rows[1].slot_correct, false);
        QCOMPARE(*rows[1].generative_correct, true);
        QCOMPARE(*rows[1].agree, false);
        QCOMPARE(*rows[2].generative_valid, false);
        QCOMPARE(QString::fromStdString(rows[2].reason), QString("missing \"urgent\""));
    }

    // The same comparison on the local engine and through the real `dgem serve`.
    void localAndServeGiveTheSameTable() {
        auto local = dgem(QStringList{"compare", "--local", "--model", DS_TINY_MODEL_DIR,
                                      "--device", "cpu", "--json"} +
                          policyArgs());
        QVERIFY2(local.code == 0, qPrintable(local.err));
        const json a = json::parse(local.out.toStdString());
        QCOMPARE(a["questions"].size(), size_t(3));
        QVERIFY(a["slot"]["ok"].get<bool>());
        QVERIFY(a["generative"]["ok"].get<bool>());
        QCOMPARE(a["slot"]["passes"], json(1));
        QVERIFY(a["generative"]["passes"].get<int>() >= 1);
        QVERIFY(a["generative"]["completion_tokens"].get<int>() <= 16);

        QProcess serve;
        const QString port = start_dgem_serve(serve, env());
        QVERIFY2(!port.isEmpty(), serve.readAllStandardError().constData());
        auto remote = dgem(QStringList{"compare", "-u", "http://127.0.0.1:" + port + "/v1",
                                       "--protocol", "chat", "--json"} +
                           policyArgs());
        serve.terminate();
        serve.waitForFinished(30000);
        QVERIFY2(remote.code == 0, qPrintable(remote.err));
        const json b = json::parse(remote.out.toStdString());
        QCOMPARE(b["questions"].size(), a["questions"].size());
        for (size_t i = 0; i < a["questions"].size(); ++i) {
            const json& x = a["questions"][i];
            const json& y = b["questions"][i];
            QCOMPARE(y["slot"]["answer"], x["slot"]["answer"]);
            QVERIFY(std::abs(y["slot"]["probability"].get<double>() -
                             x["slot"]["probability"].get<double>()) < 1e-9);
            QCOMPARE(y["generative"], x["generative"]);
            QCOMPARE(y["agree"], x["agree"]);
        }
        for (const char* k : {"text", "valid", "reasons", "passes", "completion_tokens"})
            QCOMPARE(b["generative"][k], a["generative"][k]);
        QCOMPARE(b["agreeing"], a["agreeing"]);
        QVERIFY(b["backend"].get<std::string>().find("127.0.0.1") != std::string::npos);
    }

    void benchBothModes() {
        const QString out = home_.filePath("both.json");
        auto run =
            dgem({"bench", "-d", QStringLiteral(DS_SOURCE_DIR "/resources/suites/policies.jsonl"),
                  "-M", "both", "-n", "2", "-w", "2", "--max-tokens", "16", "-o", out, "--local",
                  "--model", DS_TINY_MODEL_DIR, "--device", "cpu"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("slot readout") && run.out.contains("generative JSON"),
                 qPrintable(run.out));
        QVERIFY(run.out.contains("valid answers"));
        QVERIFY(run.out.contains("agreement"));
        const json report = json::parse(slurp(out));
        QCOMPARE(report["mode"], json("both"));
        const json& c = report["comparison"];
        QCOMPARE(c["items"], json(2));
        QCOMPARE(c["generative_replies"], json(2));
        QVERIFY(c["slot"]["p50_s"].is_number());
        QVERIFY(c["generative"]["p50_s"].is_number());
        QVERIFY(c["generative"]["mean_passes"].get<double>() >= 1);
        QVERIFY(run.out.contains(QString::number(c["generative_valid"].get<int>()) + "/2 replies"));

        auto bad =
            dgem({"bench", "-d", QStringLiteral(DS_SOURCE_DIR "/resources/suites/policies.jsonl"),
                  "-M", "json", "--local"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("accepted are slot, generative, both"));
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
