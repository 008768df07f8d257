// core::parse_schema: every rule of PROTOCOLS section 2, the legacy dgem field names, labels and
// alternatives, and the round trip through schema_to_json.

#include <QtTest>

#include <nlohmann/json.hpp>

#include "core/policy/schema.h"

using nlohmann::json;

namespace {

json triage() {
    return json::parse(R"({
      "instructions": "Triage the ticket.",
      "questions": [
        {"id": "urgent", "type": "boolean", "instructions": "Urgent?",
         "criteria": {"true": "now", "false": "later"}},
        {"id": "team", "type": "choice", "instructions": "Team?",
         "options": [{"name": "billing", "description": "money"}, {"name": "support"},
                     {"name": "engineering"}]},
        {"id": "sentiment", "type": "score", "instructions": "Mood?",
         "levels": ["calm", "frustrated", "furious"]}],
      "samples": "auto", "auto_threshold": 0.2, "auto_max": 6,
      "layout": "schema_first", "isolate": "all", "seed_token": "fixed", "steps": 1})");
}

// The error message of a schema that must be refused; fails the test when it is accepted.
QString refusal(const json& schema) {
    auto r = core::parse_schema(schema, "test.json");
    if (r.ok()) return "ACCEPTED";
    return QString::fromStdString(r.error().message);
}

json one_question(json q) {
    return json{{"questions", json::array({q})}};
}

}  // namespace

class TestSchema : public QObject {
    Q_OBJECT

  private slots:
    void parsesEveryField() {
        auto r = core::parse_schema(triage(), "triage");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        const core::Schema& s = *r;
        QCOMPARE(s.instructions, std::string("Triage the ticket."));
        QCOMPARE(s.questions.size(), size_t(3));
        QCOMPARE(s.questions[0].type, core::QuestionType::Noul);  // "boolean" is an alias
        QCOMPARE(s.questions[0].criteria.at("true"), std::string("now"));
        QCOMPARE(s.questions[1].options[0].description, std::string("money"));
        QCOMPARE(s.questions[2].levels.size(), size_t(3));
        QVERIFY(s.samples.automatic);
        QCOMPARE(s.auto_threshold, 0.2);
        QCOMPARE(s.auto_max, 6);
        QCOMPARE(s.layout, core::Layout::SchemaFirst);
        QCOMPARE(s.isolate, core::Isolate::All);
        QCOMPARE(s.seed_token, core::SeedToken::Fixed);
    }

    void defaults() {
        auto r = core::parse_schema(one_question({{"id", "a"}, {"type", "noul"}}), "x");
        QVERIFY(r.ok());
        QVERIFY(r->samples.automatic);
        QCOMPARE(r->auto_threshold, 0.1);
        QCOMPARE(r->auto_max, 4);
        QCOMPARE(r->layout, core::Layout::DocumentFirst);
        QCOMPARE(r->isolate, core::Isolate::Auto);
        QCOMPARE(r->seed_token, core::SeedToken::Random);
        QCOMPARE(r->steps, 1);
    }

    void labelsAndAlternatives() {
        auto r = core::parse_schema(triage(), "triage");
        QVERIFY(r.ok());
        using V = std::vector<std::string>;
        QCOMPARE(r->questions[0].labels(), (V{"yes", "no"}));
        QCOMPARE(r->questions[0].alternatives(), (V{"yes", "no"}));
        QCOMPARE(r->questions[1].labels(), (V{"A", "B", "C"}));
        QCOMPARE(r->questions[1].alternatives(), (V{"billing", "support", "engineering"}));
        QCOMPARE(r->questions[2].labels(), (V{"1", "2", "3"}));
        // Past nine levels a score is labelled with letters.
        json levels = json::array();
        for (int i = 0; i < 10; ++i) levels.push_back("l" + std::to_string(i));
        auto ten = core::parse_schema(
            one_question({{"id", "s"}, {"type", "score"}, {"levels", levels}}), "x");
        QVERIFY(ten.ok());
        QCOMPARE(ten->questions[0].labels().front(), std::string("A"));
        QCOMPARE(ten->questions[0].labels().back(), std::string("J"));
    }

    void typeAliases() {
        for (const char* t : {"noul", "bool", "boolean"}) {
            auto r = core::parse_schema(one_question({{"id", "a"}, {"type", t}}), "x");
            QVERIFY(r.ok());
            QCOMPARE(r->questions[0].type, core::QuestionType::Noul);
        }
        QVERIFY(refusal(one_question({{"id", "a"}, {"type", "yesno"}}))
                    .contains("question \"a\": unknown type \"yesno\"; accepted: noul (or bool, "
                              "boolean), choice, score"));
        QVERIFY(refusal(one_question({{"id", "a"}})).contains("needs a \"type\""));
    }

    void alternativeCount() {
        json one = one_question({{"id", "c"}, {"type", "choice"}, {"options", {"only"}}});
        QCOMPARE(refusal(one), QString("test.json: question \"c\": has 1 alternatives; accepted: "
                                       "2 to 255 options"));
        // Past 26 options a choice question is a bracket tournament; past 255 it is refused.
        json opts = json::array();
        for (int i = 0; i < 256; ++i) opts.push_back("o" + std::to_string(i));
        QVERIFY(refusal(one_question({{"id", "c"}, {"type", "choice"}, {"options", opts}}))
                    .contains("has 256 alternatives; accepted: 2 to 255 options"));
        opts.erase(opts.begin() + 27, opts.end());
        auto wide = core::parse_schema(
            one_question({{"id", "c"}, {"type", "choice"}, {"options", opts}}), "x");
        QVERIFY(wide.ok());
        QVERIFY(wide->questions[0].is_tournament());
        opts.erase(opts.end() - 1);
        QVERIFY(core::parse_schema(
                    one_question({{"id", "c"}, {"type", "choice"}, {"options", opts}}), "x")
                    .ok());
        QVERIFY(refusal(one_question({{"id", "s"}, {"type", "score"}, {"levels", {"x"}}}))
                    .contains("has 1 alternatives"));
        // As dgem normalises it: a score without levels is a 1-5 scale.
        auto five = core::parse_schema(one_question({{"id", "s"}, {"type", "score"}}), "x");
        QVERIFY(five.ok());
        QCOMPARE(five->questions[0].levels, (std::vector<std::string>{"1", "2", "3", "4", "5"}));
        QVERIFY(refusal(one_question({{"id", "c"}, {"type", "choice"}}))
                    .contains("choice needs \"options\""));
        QVERIFY(refusal(one_question({{"id", "c"}, {"type", "choice"}, {"options", {"a", "a"}}}))
                    .contains("two options are both named \"a\""));
    }

    void ids() {
        QVERIFY(
            refusal(one_question({{"id", ""}, {"type", "noul"}})).contains("must be non-empty"));
        QVERIFY(
            refusal(one_question({{"id", "a:b"}, {"type", "noul"}})).contains("no ':' or newline"));
        QVERIFY(refusal(one_question({{"id", "a\nb"}, {"type", "noul"}}))
                    .contains("no ':' or newline"));
        QVERIFY(
            refusal(one_question({{"type", "noul"}})).contains("questions[0]: needs an \"id\""));
        json dup = {
            {"questions", {{{"id", "a"}, {"type", "noul"}}, {{"id", "a"}, {"type", "noul"}}}}};
        QVERIFY(refusal(dup).contains("question \"a\": duplicate id"));
        QVERIFY(refusal(json{{"questions", json::array()}}).contains("non-empty \"questions\""));
        QVERIFY(refusal(json::array()).contains("must be a JSON object"));
    }

    void samples() {
        auto with = [](json v) {
            json s = one_question({{"id", "a"}, {"type", "noul"}});
            s["samples"] = v;
            return s;
        };
        auto four = core::parse_schema(with(4), "x");
        QVERIFY(four.ok());
        QVERIFY(!four->samples.automatic);
        QCOMPARE(four->samples.count, 4);
        auto text = core::parse_schema(with("7"), "x");  // template variables arrive as strings
        QVERIFY(text.ok());
        QCOMPARE(text->samples.count, 7);
        QVERIFY(core::parse_schema(with(32), "x").ok());
        QVERIFY(refusal(with(33)).contains(
            "samples 33 is out of range; accepted: \"auto\" or a count from 1 to 32"));
        QVERIFY(refusal(with(0)).contains("samples 0 is out of range"));
        QVERIFY(refusal(with("many")).contains("accepted: \"auto\" or a count"));
        QVERIFY(refusal(with(1.5)).contains("accepted: \"auto\" or a count"));
        json bad_max = one_question({{"id", "a"}, {"type", "noul"}});
        bad_max["auto_max"] = 40;
        QVERIFY(refusal(bad_max).contains("auto_max must be a count from 1 to 32"));
        json bad_thr = one_question({{"id", "a"}, {"type", "noul"}});
        bad_thr["auto_threshold"] = -1;
        QVERIFY(refusal(bad_thr).contains("auto_threshold must be a number"));
        json bad_steps = one_question({{"id", "a"}, {"type", "noul"}});
        bad_steps["steps"] = 9;
        QVERIFY(refusal(bad_steps).contains("steps must be a count from 1 to 8"));
    }

    void enums() {
        json s = one_question({{"id", "a"}, {"type", "noul"}});
        s["layout"] = "sideways";
        QVERIFY(
            refusal(s).contains("layout \"sideways\" is not accepted; accepted: \"document_first\" "
                                "or \"schema_first\""));
        s.erase("layout");
        s["isolate"] = "some";
        QVERIFY(refusal(s).contains(
            "isolate \"some\" is not accepted; accepted: \"auto\", \"none\", \"noul\" or \"all\""));
        s.erase("isolate");
        s["seed_token"] = 3;
        QVERIFY(
            refusal(s).contains("seed_token 3 is not accepted; accepted: \"random\" or \"fixed\""));
        s.erase("seed_token");
        s["think"] = -1;
        QVERIFY(
            refusal(s).contains("think -1 is not accepted; accepted: a count of thought tokens"));
        s["think"] = 100000;
        QVERIFY(refusal(s).contains("think 100000 is not accepted"));
        s["think"] = "many";
        QVERIFY(refusal(s).contains("think \"many\" is not accepted"));
        s["think"] = "120";  // as a template variable renders it
        auto thinking = core::parse_schema(s, "x");
        QVERIFY(thinking.ok());
        QCOMPARE(thinking->think, 120);
    }

    void dependencies() {
        json s = {{"questions",
                   {{{"id", "a"}, {"type", "noul"}},
                    {{"id", "b"}, {"type", "noul"}, {"depends_on", {"zzz"}}}}}};
        QVERIFY(refusal(s).contains("question \"b\": depends on unknown question \"zzz\""));
        s["questions"][1]["depends_on"] = {"b"};
        QVERIFY(refusal(s).contains("question \"b\": depends on itself"));
        s["questions"][1]["depends_on"] = {"a"};
        s["questions"][0]["depends_on"] = {"b"};
        QVERIFY(refusal(s).contains("dependency cycle among questions a, b"));
        s["questions"][0].erase("depends_on");
        auto ok = core::parse_schema(s, "x");
        QVERIFY(ok.ok());
        QCOMPARE(ok->questions[1].depends_on, std::vector<std::string>{"a"});
        // ask_if implies the dependency, and its answers must be the other question's answers.
        s["questions"][1].erase("depends_on");
        s["questions"][1]["ask_if"] = {{"a", {"yes"}}};
        auto asked = core::parse_schema(s, "x");
        QVERIFY(asked.ok());
        QCOMPARE(asked->questions[1].depends_on, std::vector<std::string>{"a"});
        s["questions"][1]["ask_if"] = {{"a", {"maybe"}}};
        QVERIFY(refusal(s).contains(
            "ask_if answer \"maybe\" for \"a\" is not one of its answers (yes, no)"));
        s["questions"][1]["ask_if"] = {{"a", json::array()}};
        QVERIFY(refusal(s).contains("non-empty list"));
    }

    void legacyNames() {
        // dgem's older templates: "name" for id, "question" for instructions, options as a
        // name -> description map (kept in the written order), score "items" given as numbers.
        nlohmann::ordered_json legacy = nlohmann::ordered_json::parse(R"({
          "questions": [
            {"name": "breach", "type": "choice", "question": "Active breach?",
             "options": {"yes": "an attack", "no": "routine"}},
            {"name": "vector", "type": "choice", "question": "Vector?",
             "options": {"zeta": "last letter", "alpha": "first letter"}},
            {"name": "fidelity", "type": "score", "question": "Fidelity", "items": [1, 2, 3]},
            {"id": "plain", "type": "choice", "options": ["red", "green"]},
            {"id": "bool", "type": "bool", "criteria": {"yes": "Y", "no": "N"}}]})");
        auto r = core::parse_schema(legacy, "secops.json.tmpl");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->questions[0].id, std::string("breach"));
        QCOMPARE(r->questions[0].instructions, std::string("Active breach?"));
        QCOMPARE(r->questions[0].options[1].description, std::string("routine"));
        using V = std::vector<std::string>;
        QCOMPARE(r->questions[1].alternatives(), (V{"zeta", "alpha"}));  // written order
        QCOMPARE(r->questions[2].levels, (V{"1", "2", "3"}));
        QCOMPARE(r->questions[3].alternatives(), (V{"red", "green"}));
        QCOMPARE(r->questions[4].criteria.at("true"), std::string("Y"));
        // Jev's /v1/systemone criteria forms: a choice map and a score list.
        json jev = {
            {"questions",
             {{{"id", "c"}, {"type", "choice"}, {"criteria", {{"x", "ex"}, {"y", nullptr}}}},
              {{"id", "s"}, {"type", "score"}, {"criteria", {"low", "high"}}}}}};
        auto j = core::parse_schema(jev, "x");
        QVERIFY(j.ok());
        QCOMPARE(j->questions[0].options[0].description, std::string("ex"));
        QCOMPARE(j->questions[1].levels, (V{"low", "high"}));
    }

    void dictFormsKeepSourceOrder() {
        // dgem's dict forms (pkg/template/order.go), parsed from text: questions, options and a
        // choice's criteria map stay in the order written, and the letters follow that order.
        const char* text = R"({"questions": {
            "zeta": {"type": "choice", "options": {"refund": "a", "billing": "b", "outage": "c"}},
            "alpha": {"type": "choice", "criteria": {"m": 1, "c": 2, "x": 3}},
            "mid": {"type": "boolean", "prompt": "Is it?"},
            "named": {"id": "own_id", "type": "choice", "choices": ["b", "a"]}}})";
        auto r = core::parse_schema(nlohmann::ordered_json::parse(text), "dict.json.tmpl");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        using V = std::vector<std::string>;
        V ids;
        for (const auto& q : r->questions) ids.push_back(q.id);
        QCOMPARE(ids, (V{"zeta", "alpha", "mid", "own_id"}));
        QCOMPARE(r->questions[0].alternatives(), (V{"refund", "billing", "outage"}));
        QCOMPARE(r->questions[0].labels(), (V{"A", "B", "C"}));
        QCOMPARE(r->questions[1].alternatives(), (V{"m", "c", "x"}));
        QCOMPARE(r->questions[1].options[1].description, std::string("2"));  // dgem's %v
        QCOMPARE(r->questions[2].instructions, std::string("Is it?"));
        QCOMPARE(r->questions[3].alternatives(), (V{"b", "a"}));
        // On the wire the order holds as well.
        const auto wire = core::schema_to_json(*r);
        QCOMPARE(wire["questions"][0]["options"][0]["name"].get<std::string>(),
                 std::string("refund"));
        QCOMPARE(QString::fromStdString(wire["questions"][0].begin().key()), QString("id"));
        // A map of questions that are not objects is refused with the question named.
        QVERIFY(refusal(json::parse(R"({"questions": {"a": 3}})")).contains("questions[0]"));
        QVERIFY(refusal(json{{"questions", json::object()}}).contains("non-empty"));
    }

    void roundTrip() {
        auto r = core::parse_schema(triage(), "triage");
        QVERIFY(r.ok());
        json out = core::schema_to_json(*r);
        QCOMPARE(out["questions"][0]["type"].get<std::string>(), std::string("noul"));
        auto again = core::parse_schema(out, "again");
        QVERIFY(again.ok());
        QCOMPARE(json(core::schema_to_json(*again)), out);
        QCOMPARE(again->questions[1].options[0].description, std::string("money"));
        QCOMPARE(again->isolate, core::Isolate::All);
    }

    void alone() {
        json s = {{"questions",
                   {{{"id", "a"}, {"type", "noul"}, {"alone", true}},
                    {{"id", "b"}, {"type", "noul"}, {"alone", false}},
                    {{"id", "c"}, {"type", "noul"}}}}};
        auto r = core::parse_schema(s, "x");
        QVERIFY(r.ok());
        QVERIFY(r->questions[0].alone && r->questions[0].alone_explicit);
        QVERIFY(!r->questions[1].alone && r->questions[1].alone_explicit);
        QVERIFY(!r->questions[2].alone_explicit);
        s["questions"][2]["alone"] = "yes";
        QVERIFY(refusal(s).contains("question \"c\": \"alone\" must be true or false"));
    }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
