// Policies (core/policy/policy.h): every shipped policy, read from the compiled-in resources,
// renders with its sample variables to {schema with questions, state}; a missing variable falls
// back to the template's default; dgem's -v rules; loading from disk and folders; and each bad
// input (missing file, folder, 10 MB file, binary garbage, broken vars file, a template that
// renders invalid or too deeply nested JSON, no schema) gives one line naming the file and
// position.

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <random>
#include <regex>

#include <nlohmann/json.hpp>

#include "core/decide/canvas_plan.h"
#include "core/policy/json_input.h"
#include "core/policy/policy.h"
#include "core/policy/schema.h"

using nlohmann::json;

namespace {

void write_file(const std::filesystem::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

// A policy made from text, as if loaded from `name`.json.tmpl.
core::PolicyFile policy_from(const std::string& source, const std::string& name = "inline") {
    core::PolicyFile p;
    p.name = name;
    p.path = name + ".json.tmpl";
    p.source = source;
    return p;
}

std::string error_of(const core::Result<core::RenderedPolicy>& r) {
    return r ? std::string("(no error)") : r.error().message;
}

#define VERIFY_CONTAINS(text, fragment)                             \
    QVERIFY2(std::string(text).find(fragment) != std::string::npos, \
             qPrintable(QString::fromStdString(std::string(text) + "\n  lacks: " + (fragment))))

}  // namespace

class PoliciesTest : public QObject {
    Q_OBJECT

  private slots:
    void sourceOrderFromRenderToPrompt() {
        // The legacy secops form: dict options written yes before no, and a state whose keys are
        // not in alphabetical order. Both keep the written order through the render, the schema
        // and the state text the prompt shows.
        auto r = core::render_policy(policy_from(R"({"schema": {"questions": [
              {"name": "breach", "type": "choice", "question": "Active breach?",
               "options": {"yes": "an attacker is inside", "no": "routine noise"}}]},
            "state": {"zone": "dmz", "alert": {{ .alert | toJson }}}})",
                                                 "secops"),
                                     {{"alert", "odd login"}});
        QVERIFY2(r.ok(), error_of(r).c_str());
        auto schema = core::parse_schema(r->schema, "secops");
        QVERIFY2(schema.ok(), schema.ok() ? "" : schema.error().message.c_str());
        using V = std::vector<std::string>;
        QCOMPARE(schema->questions[0].alternatives(), (V{"yes", "no"}));  // A = yes, B = no
        QCOMPARE(core::state_text(r->state),
                 std::string(R"({"zone": "dmz", "alert": "odd login"})"));
        const std::string questions = core::question_text(*schema, {0}, false);
        VERIFY_CONTAINS(questions, "  A: yes (an attacker is inside)\n  B: no (routine noise)\n");
    }

    void everyShippedPolicyRendersWithItsSamples() {
        const auto policies = core::shipped_policies();
        std::vector<std::string> names;
        for (const auto& p : policies) names.push_back(p.name);
        const std::vector<std::string> expected = {
            "agent_router",  "code_review",       "content_moderation", "contract_audit",
            "intent_router", "security_incident", "support_triage"};
        QCOMPARE(names, expected);
        for (const auto& p : policies) {
            QVERIFY2(p.path.string().rfind(":/templates/", 0) == 0, p.path.string().c_str());
            QVERIFY2(p.sample_variables.is_object() && !p.sample_variables.empty(), p.name.c_str());
            // Every sample variable is one the template reads.
            for (auto it = p.sample_variables.begin(); it != p.sample_variables.end(); ++it) {
                const std::regex use("\\." + it.key() + "[ )|}]");
                QVERIFY2(std::regex_search(p.source, use), (p.name + ": " + it.key()).c_str());
            }
            auto r = core::render_policy(p, core::variables_from_json(p.sample_variables));
            QVERIFY2(r.ok(), error_of(r).c_str());
            const auto& questions = r->schema["questions"];  // as written (ordered)
            QVERIFY2(questions.is_array() && !questions.empty(), p.name.c_str());
            for (const auto& q : questions) {
                QVERIFY2(q.contains("id") && q.contains("type") && q.contains("instructions"),
                         q.dump().c_str());
                const std::string type = q["type"];
                if (type == "choice") QVERIFY2(q["options"].size() >= 2, q.dump().c_str());
                if (type == "score") QVERIFY2(q["levels"].size() >= 2, q.dump().c_str());
            }
            QVERIFY2(r->state.is_object() && !r->state.empty(), p.name.c_str());
            // Every sample value that the template uses as document text ends up in the state.
            QVERIFY(!r->rendered_text.empty());
            // And with no variables at all, the defaults still give valid JSON.
            auto bare = core::render_policy(p, {});
            QVERIFY2(bare.ok(), error_of(bare).c_str());
            QVERIFY(bare->schema["questions"] == questions || p.name == "contract_audit" ||
                    p.name == "content_moderation");
        }
    }

    void supportTriageIsExactlyWhatCanvasPlansPinAgainst() {
        auto p = core::shipped_policy("support_triage");
        QVERIFY(p.has_value());
        auto r = core::render_policy(*p, core::variables_from_json(p->sample_variables));
        QVERIFY2(r.ok(), error_of(r).c_str());
        const json& q = r->schema["questions"];
        QCOMPARE(q.size(), size_t(3));
        QCOMPARE(q[0]["id"], json("urgent"));
        QCOMPARE(q[0]["type"], json("noul"));
        QCOMPARE(q[1]["id"], json("team"));
        QCOMPARE(q[1]["type"], json("choice"));
        std::vector<std::string> options;
        for (const auto& o : q[1]["options"]) {
            options.push_back(o["name"]);
            QVERIFY(!o["description"].get<std::string>().empty());
        }
        QCOMPARE(options, (std::vector<std::string>{"billing", "support", "engineering"}));
        QCOMPARE(q[2]["id"], json("sentiment"));
        QCOMPARE(q[2]["type"], json("score"));
        QCOMPARE(q[2]["levels"], json({"calm", "frustrated", "furious"}));
        QCOMPARE(json(r->state["ticket"]), p->sample_variables["ticket"]);
        QCOMPARE(json(r->schema["samples"]), json("auto"));
        QCOMPARE(json(r->schema["layout"]), json("document_first"));
        QCOMPARE(json(r->schema["seed_token"]), json("random"));
    }

    void missingVariablesFallBackToTheTemplateDefault() {
        auto p = core::shipped_policy("support_triage");
        QVERIFY(p.has_value());
        auto r = core::render_policy(*p, {});
        QVERIFY2(r.ok(), error_of(r).c_str());
        QCOMPARE(json(r->state), json({{"ticket", "No ticket text provided"}}));
        QCOMPARE(json(r->schema["samples"]), json("auto"));
        // A blank value counts as unset (dgem's default); other values pass through as strings.
        auto r2 = core::render_policy(*p, {{"ticket", "   "},
                                           {"samples", "4"},
                                           {"layout", "schema_first"},
                                           {"seed_token", "fixed"}});
        QVERIFY2(r2.ok(), error_of(r2).c_str());
        QCOMPARE(json(r2->state["ticket"]), json("No ticket text provided"));
        QCOMPARE(json(r2->schema["samples"]), json("4"));
        QCOMPARE(json(r2->schema["layout"]), json("schema_first"));
        QCOMPARE(json(r2->schema["seed_token"]), json("fixed"));
        // Quotes, newlines and markup in a variable stay one JSON string.
        auto r3 = core::render_policy(*p, {{"ticket", "He said \"now\"\n<b>&</b> é"}});
        QVERIFY2(r3.ok(), error_of(r3).c_str());
        QCOMPARE(json(r3->state["ticket"]), json("He said \"now\"\n<b>&</b> é"));

        auto contract = core::shipped_policy("contract_audit");
        QVERIFY(contract.has_value());
        auto c = core::render_policy(*contract, {});
        QVERIFY2(c.ok(), error_of(c).c_str());
        QCOMPARE(json(c->schema["samples"]), json(1));
        VERIFY_CONTAINS(c->schema["instructions"].get<std::string>(),
                        "a clause of a vendor contract");
    }

    void agentRouterHistoryIsAJsonArrayVariable() {
        auto p = core::shipped_policy("agent_router");
        QVERIFY(p.has_value());
        auto r =
            core::render_policy(*p, {{"history", R"(["read_files: a.cpp", "run_tests: ok"])"}});
        QVERIFY2(r.ok(), error_of(r).c_str());
        QCOMPARE(json(r->state["history"]), json({"read_files: a.cpp", "run_tests: ok"}));
        auto none = core::render_policy(*p, {});
        QVERIFY2(none.ok(), error_of(none).c_str());
        QCOMPARE(json(none->state["history"]), json::array());
    }

    void dgemVariableRules() {
        const json data = core::template_data_from_variables({{" flag ", " true "},
                                                              {"off", "false"},
                                                              {"list", "[1, \"a\"]"},
                                                              {"obj", "{\"k\": 2}"},
                                                              {"bad", "{not json}"},
                                                              {"num", "3"},
                                                              {"text", "  padded  "}});
        QCOMPARE(data["flag"], json(true));
        QCOMPARE(data["off"], json(false));
        QCOMPARE(data["list"], json({1, "a"}));
        QCOMPARE(data["obj"], json({{"k", 2}}));
        QCOMPARE(data["bad"], json("{not json}"));
        QCOMPARE(data["num"], json("3"));  // dgem keeps numbers as strings
        QCOMPARE(data["text"], json("padded"));
        const auto back = core::variables_from_json(json({{"a", "x"}, {"n", 2}}));
        QCOMPARE(back.at("a"), std::string("x"));
        QCOMPARE(back.at("n"), std::string("2"));
    }

    void loadsFromDiskWithSampleVariables() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        write_file(root / "mine.json.tmpl",
                   "{\"schema\": {\"questions\": [{\"id\": \"ok\", \"type\": \"noul\", "
                   "\"instructions\": \"Fine?\"}]}, \"state\": {\"text\": {{ default \"none\" "
                   ".text | toJson }}}}");
        write_file(root / "mine.vars.json", "{\"text\": \"hello\"}");
        auto p = core::load_policy_file(root / "mine.json.tmpl");
        QVERIFY2(p.ok(), p ? "" : p.error().message.c_str());
        QCOMPARE(p->name, std::string("mine"));
        QCOMPARE(p->sample_variables, json({{"text", "hello"}}));
        auto r = core::render_policy(*p, core::variables_from_json(p->sample_variables));
        QVERIFY2(r.ok(), error_of(r).c_str());
        QCOMPARE(json(r->state), json({{"text", "hello"}}));
        // A byte-order mark is dropped.
        write_file(root / "bom.json.tmpl", "\xEF\xBB\xBF{\"schema\": {\"questions\": []}}");
        auto bom = core::load_policy_file(root / "bom.json.tmpl");
        QVERIFY(bom.ok());
        QCOMPARE(bom->source.substr(0, 1), std::string("{"));
        auto rb = core::render_policy(*bom, {{"x", "1"}});
        QVERIFY2(rb.ok(), error_of(rb).c_str());
        QCOMPARE(json(rb->state), json({{"x", "1"}}));  // no state written: the variables (as dgem)
    }

    void folderLoadingReportsBadFilesWithoutStopping() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::filesystem::create_directories(root / "sub");
        write_file(root / "a.json.tmpl", "{\"schema\": {\"questions\": []}}");
        write_file(root / "sub" / "b.json.tmpl", "{\"schema\": {\"questions\": []}}");
        write_file(root / "broken.json.tmpl", "bad \xFF byte");
        write_file(root / "notes.txt", "ignored");
        auto folder = core::load_policy_folder(root);
        QVERIFY(folder.ok());
        QCOMPARE(folder->policies.size(), size_t(2));
        QCOMPARE(folder->problems.size(), size_t(1));
        VERIFY_CONTAINS(folder->problems[0].message,
                        "broken.json.tmpl:1:5: not UTF-8 text (byte 0xff)");
        auto missing = core::load_policy_folder(root / "nope");
        QVERIFY(!missing.ok());
        VERIFY_CONTAINS(missing.error().message, "not a folder");
    }

    void badFilesGiveOneLineNamingTheFile() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        // `named`: the file the message must name (the policy itself unless given).
        const auto check = [&](const std::filesystem::path& path, const std::string& fragment,
                               std::filesystem::path named = {}) {
            auto p = core::load_policy_file(path);
            QVERIFY2(!p.ok(), path.string().c_str());
            QCOMPARE(p.error().kind, engine::ErrorKind::BadInput);
            VERIFY_CONTAINS(p.error().message, (named.empty() ? path : named).string());
            VERIFY_CONTAINS(p.error().message, fragment);
            QVERIFY(p.error().message.find('\n') == std::string::npos);
        };
        check(root / "absent.json.tmpl", "no such file");
        check("/dev/zero", "policy templates are limited to 1048576 bytes (1 MiB)");
        check(root, "is a folder");
        write_file(root / "big.json.tmpl", std::string(10 * 1024 * 1024, ' '));
        check(root / "big.json.tmpl",
              "10485760 bytes; policy templates are limited to 1048576 bytes (1 MiB)");
        std::string garbage(4096, '\0');
        std::mt19937 rng(3);
        for (char& c : garbage) c = static_cast<char>(rng() & 0xFF);
        write_file(root / "garbage.json.tmpl", garbage);
        check(root / "garbage.json.tmpl", "not UTF-8 text");
        write_file(root / "nul.json.tmpl", std::string("line\n  a\0b", 10));
        check(root / "nul.json.tmpl", "nul.json.tmpl:2:4: contains a NUL byte");
        write_file(root / "v.json.tmpl", "{}");
        write_file(root / "v.vars.json", "{\n  \"a\": ,\n}");
        check(root / "v.json.tmpl", "v.vars.json:2:8: invalid JSON", root / "v.vars.json");
        write_file(root / "w.json.tmpl", "{}");
        write_file(root / "w.vars.json", "[1]");
        check(root / "w.json.tmpl", "expected a JSON object of variable names to values",
              root / "w.vars.json");
        check(":/templates/absent.json.tmpl", "no such policy template in the application");
    }

    void renderedJsonErrorsPointAtTheTemplateLine() {
        // Line 3 forgets a comma after the value the action writes.
        const std::string source =
            "{\n  \"schema\": {\"questions\": []},\n  \"state\": {\"a\": {{ .a | toJson }} \"b\": "
            "1}\n}\n";
        auto r = core::render_policy(policy_from(source, "broken"), {{"a", "x"}});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::BadInput);
        VERIFY_CONTAINS(r.error().message, "broken.json.tmpl:3:");
        VERIFY_CONTAINS(r.error().message, "the rendered policy is not valid JSON");
        VERIFY_CONTAINS(r.error().message, "(rendered text 3:");
        // The template's own syntax errors keep their position.
        auto t = core::render_policy(policy_from("{\n {{ nosuch .x }}\n}", "bad"), {});
        QVERIFY(!t.ok());
        VERIFY_CONTAINS(t.error().message, "bad.json.tmpl:2:5: function \"nosuch\" is not defined");
    }

    void deeplyNestedRenderedJsonIsRefused() {
        auto r = core::render_policy(
            policy_from("{\"schema\": {{ range 5000 }}[{{ end }}{{ range 5000 }}]{{ end }}}",
                        "deep"),
            {});
        QVERIFY(!r.ok());
        VERIFY_CONTAINS(r.error().message, "deep.json.tmpl:1:");
        VERIFY_CONTAINS(r.error().message, "JSON nested more than 128 levels deep");
        auto j = core::parse_json_input(std::string(100000, '[') + std::string(100000, ']'),
                                        "input.json");
        QVERIFY(!j.ok());
        VERIFY_CONTAINS(j.error().message,
                        "input.json:1:129: JSON nested more than 128 levels deep");
        auto ok =
            core::parse_json_input("{\"a\": \"[[[[\"}", "x");  // brackets in strings don't count
        QVERIFY(ok.ok());
        auto bad = core::parse_json_input("{\n  \"a\": tru\n}", "in.json");
        QVERIFY(!bad.ok());
        VERIFY_CONTAINS(bad.error().message, "in.json:2:");
        VERIFY_CONTAINS(bad.error().message, "invalid JSON");
    }

    void renderedShapeIsChecked() {
        auto arr = core::render_policy(policy_from("[1, 2]", "arr"), {});
        QVERIFY(!arr.ok());
        VERIFY_CONTAINS(arr.error().message, "arr.json.tmpl: renders to an array");
        auto noschema = core::render_policy(policy_from("{\"state\": {}}", "ns"), {});
        QVERIFY(!noschema.ok());
        VERIFY_CONTAINS(noschema.error().message, "has no \"schema\"");
        auto badschema = core::render_policy(policy_from("{\"schema\": \"x\"}", "bs"), {});
        QVERIFY(!badschema.ok());
        VERIFY_CONTAINS(badschema.error().message, "\"schema\" is a string; expected an object");
        // dgem's flat form: questions at the top, the document under input/context/state.
        auto flat = core::render_policy(policy_from("{\"input\": {{ .t | toJson }}, \"questions\": "
                                                    "[{\"name\": \"q\", \"type\": \"bool\"}]}",
                                                    "flat"),
                                        {{"t", "doc"}});
        QVERIFY2(flat.ok(), error_of(flat).c_str());
        QCOMPARE(json(flat->state), json({{"t", "doc"}, {"input", "doc"}}));
        QVERIFY(!flat->schema.contains("input"));
        QCOMPARE(json(flat->schema["questions"][0]["name"]), json("q"));
        // What goes to a server is what dgem sends for it: the policy wrote no "samples", so the
        // schema carries none and the server's own default applies; one that writes it keeps it.
        auto flat_schema = core::parse_schema(flat->schema, "flat");
        QVERIFY2(flat_schema.ok(), flat_schema.ok() ? "" : flat_schema.error().message.c_str());
        QVERIFY(!core::schema_to_json(*flat_schema).contains("samples"));
        auto counted =
            core::render_policy(policy_from("{\"input\": \"x\", \"samples\": 3, \"questions\": "
                                            "[{\"name\": \"q\", \"type\": \"bool\"}]}",
                                            "counted"),
                                {});
        QVERIFY2(counted.ok(), error_of(counted).c_str());
        auto counted_schema = core::parse_schema(counted->schema, "counted");
        QVERIFY2(counted_schema.ok(),
                 counted_schema.ok() ? "" : counted_schema.error().message.c_str());
        QCOMPARE(json(core::schema_to_json(*counted_schema)["samples"]), json(3));
    }
};

QTEST_GUILESS_MAIN(PoliciesTest)
#include "tst_policies.moc"
