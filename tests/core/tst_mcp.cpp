// core::mcp::Server (dgem mcp's protocol) on the real tiny model through core::LocalBackend:
// initialize, tools/list and its input schemas, every tool's result (answers whose
// probabilities sum to 1, the text equal to `dgem decide --json` of a direct decision with the
// same request), and every kind of bad message, after each of which the server still answers.
// Also the line splitter the command reads stdin with, and core::template_variables.

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "core/decide/local_backend.h"
#include "core/decide/read_stats.h"
#include "core/mcp/mcp_server.h"
#include "core/policy/policy.h"
#include "core/policy/policy_catalog.h"
#include "core/template/template.h"
#include "core/wire/decision_json.h"
#include "engine/engine.h"
#include "outside_file.h"

using nlohmann::json;

namespace {

json without_timing(json output) {
    if (output.contains("diagnostics") && output["diagnostics"].is_object())
        output["diagnostics"].erase("timing");
    return output;
}

// The answers of a result: every question's probabilities sum to 1 and its label is one of
// the alternatives' labels.
void check_answers(const json& answers,
                   const std::map<std::string, std::vector<std::string>>& alternatives) {
    QVERIFY(answers.is_object());
    QCOMPARE(answers.size(), alternatives.size());
    for (const auto& [id, names] : alternatives) {
        QVERIFY2(answers.contains(id), id.c_str());
        const json& a = answers[id];
        double sum = 0;
        for (const auto& name : names) {
            QVERIFY2(a["probabilities"].contains(name), (id + ": " + name).c_str());
            const double p = a["probabilities"][name].get<double>();
            QVERIFY(p >= 0 && p <= 1);
            sum += p;
        }
        QCOMPARE(a["probabilities"].size(), names.size());
        QVERIFY2(std::abs(sum - 1) < 1e-6, (id + " sums to " + std::to_string(sum)).c_str());
        QVERIFY(a["confidence"].get<double>() > 0);
        QVERIFY(a.contains("label"));
    }
}

}  // namespace

class TestMcp : public QObject {
    Q_OBJECT

  private:
    std::shared_ptr<core::LocalBackend> backend_;
    std::unique_ptr<core::mcp::Server> server_;
    std::vector<std::string> sent_;  // notifications the server sent
    std::vector<std::string> logged_;
    QTemporaryDir policies_;
    int next_id_ = 1;

    core::mcp::ServerOptions options() {
        core::mcp::ServerOptions o;
        o.version = "9.8.7";
        o.catalog =
            core::PolicyCatalog({{policies_.path().toStdString(), core::PolicyOrigin::User}});
        o.send = [this](const std::string& line) { sent_.push_back(line); };
        o.log = [this](const std::string& line) { logged_.push_back(line); };
        return o;
    }

    // A line in, the reply parsed (null when there is none).
    json exchange(const std::string& line) {
        auto reply = server_->handle_line(line);
        if (!reply) return nullptr;
        // One line, parseable.
        if (reply->find('\n') != std::string::npos) qFatal("reply spans lines: %s", reply->c_str());
        return json::parse(*reply);
    }

    json request(const std::string& method, const json& params = nullptr) {
        json m = {{"jsonrpc", "2.0"}, {"id", next_id_++}, {"method", method}};
        if (!params.is_null()) m["params"] = params;
        return exchange(m.dump());
    }

    json call_tool(const std::string& name, const json& arguments) {
        json reply = request("tools/call", {{"name", name}, {"arguments", arguments}});
        if (!reply.contains("result")) qFatal("no result: %s", reply.dump().c_str());
        return reply["result"];
    }

    static std::string text_of(const json& result, size_t block = 0) {
        return result["content"][block]["text"].get<std::string>();
    }

    void expect_error(const json& reply, int code, const json& id, const std::string& mention) {
        QVERIFY2(reply.is_object() && reply.contains("error"), reply.dump().c_str());
        QCOMPARE(reply["jsonrpc"], json("2.0"));
        QCOMPARE(reply["id"], id);
        QCOMPARE(reply["error"]["code"].get<int>(), code);
        const std::string message = reply["error"]["message"].get<std::string>();
        QVERIFY2(message.find(mention) != std::string::npos, message.c_str());
    }

    void expect_tool_error(const json& result, const std::string& mention) {
        QVERIFY2(result["isError"] == true, result.dump().c_str());
        const std::string text = text_of(result);
        QVERIFY2(text.find(mention) != std::string::npos, text.c_str());
    }

    void expect_still_serving() {
        json pong = request("ping");
        QVERIFY2(pong.contains("result") && pong["result"] == json::object(), pong.dump().c_str());
    }

    // What `dgem decide --json` would print for this request on the same backend.
    json direct(const core::DecideRequest& request) {
        auto d = backend_->decide(request, {}, {});
        if (!d) qFatal("direct decide: %s", d.error().message.c_str());
        return core::decision_json(*d, core::AnswerForm::Chat);
    }

    // The result's text is the decide --json document; its structured form the same plus
    // hesitation.
    json check_decision_result(const json& result) {
        if (result["isError"] != false) qFatal("tool error: %s", result.dump().c_str());
        const std::string text = text_of(result);
        json output = json::parse(text);
        if (text != output.dump(2)) qFatal("the text is not decide --json's layout");
        if (!output["diagnostics"].contains("timing")) qFatal("no timings");
        json structured = result["structuredContent"];
        for (auto it = output.begin(); it != output.end(); ++it)
            if (structured[it.key()] != it.value()) qFatal("structuredContent differs");
        for (auto it = output["answers"].begin(); it != output["answers"].end(); ++it) {
            const json& h = structured["hesitation"][it.key()];
            if (!h["value"].is_number() || !h["class"].is_string())
                qFatal("no hesitation for %s", it.key().c_str());
        }
        // The summary names every question with its hesitation.
        const std::string summary = text_of(result, 1);
        for (auto it = output["answers"].begin(); it != output["answers"].end(); ++it)
            if (summary.find(it.key() + " (") == std::string::npos)
                qFatal("summary misses %s: %s", it.key().c_str(), summary.c_str());
        if (summary.find("hesitation") == std::string::npos) qFatal("summary: %s", summary.c_str());
        return output;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!std::filesystem::exists(std::filesystem::path(DS_TINY_MODEL_DIR) / "config.json"))
            QFAIL("no tiny model at " DS_TINY_MODEL_DIR " (build the tiny_model target)");
        engine::EngineOptions engine_options;
        engine_options.model_dir = DS_TINY_MODEL_DIR;
        engine_options.device = engine::Device::Cpu;
        engine_options.threads = 2;
        auto opened = core::LocalBackend::open(engine_options);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        backend_ = std::shared_ptr<core::LocalBackend>(std::move(opened.value()));

        QVERIFY(policies_.isValid());
        // (No apostrophes in raw strings: moc reads them as character literals.)
        std::ofstream(policies_.filePath("vendor_check.json.tmpl").toStdString())
            << R"({{/* Vendor check: is a vendor reply acceptable. */}}
{"schema": {"instructions": "You review vendor replies.",
  "questions": [{"id": "acceptable", "type": "noul", "instructions": "Is the reply of {{ .vendor }} acceptable?"},
                {{- range .extra }}{{ .ignored }}{{ end }}
                {"id": "tone", "type": "score", "instructions": "How polite?", "levels": ["rude", "neutral", "polite"]}],
  "samples": 1},
 "state": {"reply": {{ toJson $.reply }}, "note": {{ index . "note" | toJson }}}}
)";
        std::ofstream(policies_.filePath("broken.json.tmpl").toStdString()) << "{{ if }}";

        auto shared = backend_;
        server_ = std::make_unique<core::mcp::Server>(
            options(), [shared]() -> engine::Result<std::shared_ptr<core::Backend>> {
                return std::shared_ptr<core::Backend>(shared);
            });
    }

    void initialize() {
        json reply = request("initialize", {{"protocolVersion", "2025-06-18"},
                                            {"capabilities", json::object()},
                                            {"clientInfo", {{"name", "tst"}, {"version", "1"}}}});
        QVERIFY2(reply.contains("result"), reply.dump().c_str());
        QCOMPARE(reply["id"], json(1));
        const json& r = reply["result"];
        QCOMPARE(r["protocolVersion"], json("2025-06-18"));
        QVERIFY(r["capabilities"]["tools"].is_object());
        QCOMPARE(r["serverInfo"]["name"], json("dgem"));
        QCOMPARE(r["serverInfo"]["version"], json("9.8.7"));
        QVERIFY(r["instructions"].is_string());

        // Each supported revision is echoed; an unknown one gets the latest.
        for (const auto& v : core::mcp::supported_protocol_versions())
            QCOMPARE(request("initialize", {{"protocolVersion", v}})["result"]["protocolVersion"],
                     json(v));
        QCOMPARE(
            request("initialize", {{"protocolVersion", "1999-01-01"}})["result"]["protocolVersion"],
            json(core::mcp::supported_protocol_versions().front()));
        QVERIFY(std::find(core::mcp::supported_protocol_versions().begin(),
                          core::mcp::supported_protocol_versions().end(),
                          "2024-11-05") != core::mcp::supported_protocol_versions().end());

        // The initialized notification, and any notification, gets no reply.
        QVERIFY(exchange(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").is_null());
        QVERIFY(exchange(R"({"jsonrpc":"2.0","method":"notifications/whatever","params":{}})")
                    .is_null());
        // A string id is echoed as it is.
        json pong = exchange(R"({"jsonrpc":"2.0","id":"abc","method":"ping"})");
        QCOMPARE(pong["id"], json("abc"));
        QCOMPARE(pong["result"], json::object());
    }

    void toolsList() {
        json reply = request("tools/list");
        const json& tools = reply["result"]["tools"];
        QVERIFY(tools.is_array());
        std::vector<std::string> names;
        for (const auto& t : tools) names.push_back(t["name"].get<std::string>());
        QCOMPARE(names, (std::vector<std::string>{"list_policy_templates", "decide_policy",
                                                  "decide_custom_questions", "get_health"}));
        QCOMPARE(tools, core::mcp::Server::tool_definitions());
        for (const auto& t : tools) {
            const std::string name = t["name"].get<std::string>();
            QVERIFY2(
                t["description"].is_string() && t["description"].get<std::string>().size() > 40,
                name.c_str());
            const json& s = t["inputSchema"];
            QCOMPARE(s["type"], json("object"));
            QVERIFY2(s["properties"].is_object(), name.c_str());
            QCOMPARE(s["additionalProperties"], json(false));
            for (const auto& r : s.value("required", json::array()))
                QVERIFY2(s["properties"].contains(r.get<std::string>()), name.c_str());
            for (auto p = s["properties"].begin(); p != s["properties"].end(); ++p) {
                QVERIFY2(p.value()["type"].is_string(), (name + "." + p.key()).c_str());
                QVERIFY2(p.value()["description"].is_string(), (name + "." + p.key()).c_str());
            }
        }
        const json& q = tools[2]["inputSchema"]["properties"]["questions"]["items"];
        QCOMPARE(q["properties"]["type"]["enum"], json({"boolean", "choice", "score"}));
        QCOMPARE(q["required"], json({"id", "type", "question"}));
        QCOMPARE(q["additionalProperties"], json(false));
        QCOMPARE(tools[2]["inputSchema"]["required"], json({"context", "questions"}));
        QCOMPARE(tools[1]["inputSchema"]["required"], json({"template"}));
        QCOMPARE(tools[1]["inputSchema"]["properties"]["variables"]["additionalProperties"],
                 json({{"type", "string"}}));
    }

    void templateVariables() {
        auto v = core::template_variables(
            R"({{ .a }} {{ if .b.c }}{{ .d }}{{ end }} {{ range .e }}{{ .inner }}{{ $.f }}{{ else }}{{ .g }}{{ end }}
               {{ with .h }}{{ .inner2 }}{{ end }} {{ index . "i" }} {{ default "x" (.j | lower) }} {{ $v := .k }}{{ $v.notroot }})",
            "t");
        QVERIFY2(v.ok(), v.ok() ? "" : v.error().message.c_str());
        QCOMPARE(*v, (std::vector<std::string>{"a", "b", "d", "e", "f", "g", "h", "i", "j", "k"}));
        auto bad = core::template_variables("x\n{{ if }}", "bad.tmpl");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.rfind("bad.tmpl:2:", 0) == 0, bad.error().message.c_str());
        auto shipped = core::shipped_policy("support_triage");
        QVERIFY(shipped);
        auto sv = core::template_variables(shipped->source, "support_triage");
        QVERIFY(sv.ok());
        QCOMPARE(*sv, (std::vector<std::string>{"layout", "samples", "seed_token", "ticket"}));
    }

    void listPolicyTemplates() {
        json result = call_tool("list_policy_templates", json::object());
        QCOMPARE(result["isError"], json(false));
        json listed = json::parse(text_of(result));
        QCOMPARE(result["structuredContent"], listed);
        const auto shipped = core::shipped_policies();
        QVERIFY(shipped.size() >= 6);
        QCOMPARE(listed["policies"].size(), shipped.size() + 2);
        std::map<std::string, json> by_name;
        for (const auto& p : listed["policies"]) by_name[p["name"].get<std::string>()] = p;
        for (const auto& p : shipped) {
            QVERIFY2(by_name.count(p.name), p.name.c_str());
            const json& e = by_name[p.name];
            QCOMPARE(e["origin"], json("shipped"));
            QCOMPARE(e["path"], json(p.path.string()));
            auto vars = core::template_variables(p.source, p.name);
            QVERIFY(vars.ok());
            QCOMPARE(e["variables"], json(*vars));
            QVERIFY2(!e["description"].get<std::string>().empty(), p.name.c_str());
            QVERIFY2(!e["questions"].empty(), p.name.c_str());
            QVERIFY2(!e.contains("problem"), e.dump().c_str());
        }
        const json& triage = by_name["support_triage"];
        QCOMPARE(triage["description"], json("Support triage: routes one customer ticket."));
        QCOMPARE(triage["questions"][1]["id"], json("team"));
        QCOMPARE(triage["questions"][1]["alternatives"],
                 json({"billing", "support", "engineering"}));
        QCOMPARE(triage["sample_variables"]["samples"], json("auto"));

        const json& vendor = by_name["vendor_check"];
        QCOMPARE(vendor["origin"], json("user"));
        QCOMPARE(vendor["variables"], json({"extra", "note", "reply", "vendor"}));
        QCOMPARE(vendor["description"], json("Vendor check: is a vendor reply acceptable."));
        QCOMPARE(vendor["questions"].size(), size_t(2));
        const json& broken = by_name["broken"];
        QCOMPARE(broken["origin"], json("user"));
        QVERIFY2(
            broken["problem"].get<std::string>().find("broken.json.tmpl:1:") != std::string::npos,
            broken.dump().c_str());
    }

    void decideCustomQuestions() {
        const std::string context = "I was charged twice and nobody answers. Fix it now.";
        json arguments = {
            {"context", context},
            {"questions",
             {{{"id", "urgent"}, {"type", "boolean"}, {"question", "Reply today?"}},
              {{"id", "team"},
               {"type", "choice"},
               {"question", "Which team?"},
               {"options", {"billing", "support", "engineering"}}},
              {{"id", "sentiment"},
               {"type", "score"},
               {"question", "How upset?"},
               {"options", {"calm", "frustrated", "furious"}}},
              {{"id", "stars"}, {"type", "score"}, {"question", "Rate the service."}}}},
            {"instructions", "You triage support tickets."}};
        json result = call_tool("decide_custom_questions", arguments);
        json output = check_decision_result(result);
        check_answers(output["answers"], {{"urgent", {"yes", "no"}},
                                          {"team", {"billing", "support", "engineering"}},
                                          {"sentiment", {"calm", "frustrated", "furious"}},
                                          {"stars", {"1", "2", "3", "4", "5"}}});
        const std::string label = output["answers"]["team"]["label"].get<std::string>();
        QVERIFY2(label == "A" || label == "B" || label == "C", label.c_str());
        const std::string choice = output["answers"]["team"]["choice"].get<std::string>();
        QVERIFY2(choice == "billing" || choice == "support" || choice == "engineering",
                 choice.c_str());
        QCOMPARE(output["answers"]["urgent"]["type"], json("noul"));
        QCOMPARE(output["diagnostics"]["seed"], json(42));

        // The same decision made directly, as dgem decide would: the same document.
        auto schema = core::parse_schema(json::parse(R"({
          "instructions": "You triage support tickets.",
          "questions": [
            {"id": "urgent", "type": "noul", "instructions": "Reply today?"},
            {"id": "team", "type": "choice", "instructions": "Which team?",
             "options": [{"name": "billing"}, {"name": "support"}, {"name": "engineering"}]},
            {"id": "sentiment", "type": "score", "instructions": "How upset?",
             "levels": ["calm", "frustrated", "furious"]},
            {"id": "stars", "type": "score", "instructions": "Rate the service."}]})"),
                                         "direct");
        QVERIFY(schema.ok());
        core::DecideRequest request;
        request.schema = *schema;
        request.state = context;
        request.seed = 42;
        QCOMPARE(without_timing(output), without_timing(direct(request)));

        // samples and seed reach the decision.
        arguments["samples"] = 2;
        arguments["seed"] = 7;
        json two = check_decision_result(call_tool("decide_custom_questions", arguments));
        QCOMPARE(two["diagnostics"]["samples"]["n"], json(2));
        QCOMPARE(two["diagnostics"]["seed"], json(7));
        QVERIFY(two["answers"]["team"].contains("stderr"));
        request.seed = 7;
        request.schema.samples = {false, 2};
        QCOMPARE(without_timing(two), without_timing(direct(request)));
    }

    void decidePolicy() {
        const std::string ticket = "The app crashes every time I open the invoices page.";
        json result = call_tool(
            "decide_policy", {{"template", "support_triage"}, {"variables", {{"ticket", ticket}}}});
        json output = check_decision_result(result);
        check_answers(output["answers"], {{"urgent", {"yes", "no"}},
                                          {"team", {"billing", "support", "engineering"}},
                                          {"sentiment", {"calm", "frustrated", "furious"}}});

        auto policy = core::shipped_policy("support_triage");
        QVERIFY(policy);
        auto rendered = core::render_policy(*policy, {{"ticket", ticket}});
        QVERIFY(rendered.ok());
        auto schema = core::parse_schema(rendered->schema, "direct");
        QVERIFY(schema.ok());
        core::DecideRequest request;
        request.schema = *schema;
        request.state = rendered->state;
        request.seed = 42;
        QCOMPARE(without_timing(output), without_timing(direct(request)));

        // A user policy by name, with samples; the same by path is no policy (never opened).
        json vars = {{"vendor", "Acme"}, {"reply", "We will look into it."}, {"note", "x"}};
        json by_name = check_decision_result(call_tool(
            "decide_policy", {{"template", "vendor_check"}, {"variables", vars}, {"samples", 3}}));
        check_answers(by_name["answers"],
                      {{"acceptable", {"yes", "no"}}, {"tone", {"rude", "neutral", "polite"}}});
        QCOMPARE(by_name["diagnostics"]["samples"]["n"], json(3));
        const std::string path = policies_.filePath("vendor_check.json.tmpl").toStdString();
        expect_tool_error(
            call_tool("decide_policy", {{"template", path}, {"variables", vars}, {"samples", 3}}),
            "no policy '" + path + "' in the catalog (policies are named, never given by path)");
    }

    // decide_policy resolves names from the catalog only: an absolute path, "..", a Qt resource
    // path and a link in the catalog folder that leads out of it are all "no policy", with the
    // list of names, and the file outside is never opened (inotify sees no open), so no answer
    // says whether it exists or quotes what it holds.
    void decidePolicyRefusesPaths() {
        QTemporaryDir outside;
        QVERIFY(outside.isValid());
        const std::string marker = "SECRET-MARKER-7f3a";
        OutsideFile secret(outside.filePath("secret.json.tmpl").toStdString(),
                           R"({"schema": {"questions": []}, "state": ")" + marker + R"("})");
        OutsideFile secret_vars(outside.filePath("vars.json").toStdString(),
                                "{\"v\": \"" + marker + "\"}");
        QVERIFY(secret.watching() && secret_vars.watching());
        const std::filesystem::path folder = policies_.path().toStdString();
        std::filesystem::create_symlink(secret.path(), folder / "leak.json.tmpl");
        std::ofstream(folder / "leakvars.json.tmpl") << R"({"schema": {"questions": []}})";
        std::filesystem::create_symlink(secret_vars.path(), folder / "leakvars.vars.json");
        const std::string up =
            std::filesystem::relative(secret.path(), std::filesystem::current_path()).string();

        for (const std::string& name : std::vector<std::string>{
                 secret.path().string(), up, std::string("../") + secret.path().filename().string(),
                 "leak", "leakvars", ":/templates/support_triage.json.tmpl", "/etc/passwd"}) {
            json r = call_tool("decide_policy", {{"template", name}});
            expect_tool_error(r, "no policy '");
            const std::string text = text_of(r);
            QVERIFY2(text.find("in the catalog") != std::string::npos, text.c_str());
            QVERIFY2(text.find("support_triage") != std::string::npos, text.c_str());
            QVERIFY2(text.find(marker) == std::string::npos, text.c_str());
        }
        // The listing skips both links, naming them, never reading them.
        json listed = call_tool("list_policy_templates", json::object());
        const std::string dump = listed.dump();
        QVERIFY2(dump.find(marker) == std::string::npos, dump.c_str());
        QVERIFY2(
            dump.find("leak.json.tmpl is a link leading out of the folder") != std::string::npos,
            dump.c_str());
        QVERIFY2(
            dump.find("leakvars.json.tmpl's sample variables file is a link") != std::string::npos,
            dump.c_str());
        QVERIFY2(!secret.opened(), "the file outside the catalog was opened");
        QVERIFY2(!secret_vars.opened(), "the vars file outside the catalog was opened");
        std::filesystem::remove(folder / "leak.json.tmpl");
        std::filesystem::remove(folder / "leakvars.json.tmpl");
        std::filesystem::remove(folder / "leakvars.vars.json");
    }

    void getHealth() {
        json result = call_tool("get_health", json::object());
        QCOMPARE(result["isError"], json(false));
        json health = json::parse(text_of(result));
        QCOMPARE(result["structuredContent"], health);
        QCOMPARE(health["ready"], json(true));
        QCOMPARE(health["kind"], json("local"));
        QCOMPARE(health["backend"], json(backend_->describe()));
        QVERIFY(!health["device"].get<std::string>().empty());
    }

    void progressNotifications() {
        sent_.clear();
        json reply = request(
            "tools/call",
            {{"name", "decide_custom_questions"},
             {"arguments",
              {{"context", "hello"},
               {"questions", {{{"id", "q"}, {"type", "boolean"}, {"question", "Greeting?"}}}}}},
             {"_meta", {{"progressToken", "tok-1"}}}});
        QCOMPARE(reply["result"]["isError"], json(false));
        QVERIFY(!sent_.empty());
        int last = 0;
        for (const auto& line : sent_) {
            json n = json::parse(line);
            QCOMPARE(n["method"], json("notifications/progress"));
            QVERIFY(!n.contains("id"));
            QCOMPARE(n["params"]["progressToken"], json("tok-1"));
            QVERIFY(n["params"]["progress"].get<int>() > last);  // increases
            last = n["params"]["progress"].get<int>();
        }
    }

    void malformedMessages() {
        expect_error(exchange("this is not json"), -32700, nullptr, "Parse error");
        expect_error(exchange(R"({"jsonrpc": "2.0", "id": 1, "method": )"), -32700, nullptr,
                     "Parse error");
        expect_still_serving();
        QVERIFY(exchange("").is_null());
        QVERIFY(exchange("   \r").is_null());
        // Invalid UTF-8, nesting past the limit, a line over the size limit.
        expect_error(exchange("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xff\"}"), -32700,
                     nullptr, "Parse error");
        expect_error(exchange(std::string(100000, '[') + std::string(100000, ']')), -32700, nullptr,
                     "Parse error");
        expect_error(exchange(std::string(core::mcp::kMaxMessageBytes + 1, ' ')), -32700, nullptr,
                     "limited to");
        expect_still_serving();

        expect_error(exchange(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"), -32600, nullptr,
                     "batches");
        expect_error(exchange("42"), -32600, nullptr, "JSON-RPC 2.0 object");
        expect_error(exchange(R"({"jsonrpc":"1.0","id":5,"method":"ping"})"), -32600, json(5),
                     "\"jsonrpc\" must be \"2.0\"");
        expect_error(exchange(R"({"id":6,"method":"ping"})"), -32600, json(6), "jsonrpc");
        expect_error(exchange(R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})"), -32600, nullptr,
                     "\"id\" must be a string or an integer");
        expect_error(exchange(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"), -32600, nullptr,
                     "\"id\"");
        expect_error(exchange(R"({"jsonrpc":"2.0","id":7})"), -32600, json(7), "no \"method\"");
        expect_error(exchange(R"({"jsonrpc":"2.0","id":8,"method":3})"), -32600, json(8),
                     "\"method\" must be a string");
        expect_error(exchange(R"({"jsonrpc":"2.0","id":9,"method":"resources/list"})"), -32601,
                     json(9), "'resources/list'");
        expect_error(exchange(R"({"jsonrpc":"2.0","id":10,"method":"tools/list","params":[1]})"),
                     -32602, json(10), "params as an object");
        // A response sent to us, and notifications of any shape: no reply.
        QVERIFY(exchange(R"({"jsonrpc":"2.0","id":11,"result":{}})").is_null());
        QVERIFY(exchange(R"({"jsonrpc":"1.0","method":"notifications/initialized"})").is_null());
        QVERIFY(exchange(R"({"jsonrpc":"2.0","method":"notifications/cancelled",
                             "params":{"requestId":12345}})")
                    .is_null());
        QVERIFY(exchange(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}})")
                    .is_null());
        expect_still_serving();
    }

    void badToolCalls() {
        json reply =
            request("tools/call", {{"name", "no_such_tool"}, {"arguments", json::object()}});
        expect_error(reply, -32602, reply["id"], "unknown tool 'no_such_tool'");
        QVERIFY(reply["error"]["message"].get<std::string>().find("decide_custom_questions") !=
                std::string::npos);
        QCOMPARE(reply["error"]["data"]["tool"], json("no_such_tool"));
        reply = request("tools/call", {{"arguments", json::object()}});
        expect_error(reply, -32602, reply["id"], "params.name");
        reply = request("tools/call", {{"name", 5}});
        expect_error(reply, -32602, reply["id"], "params.name");
        reply = request("tools/call", {{"name", "get_health"}, {"arguments", "x"}});
        expect_error(reply, -32602, reply["id"], "params.arguments must be an object");
        expect_still_serving();

        const json q = {{"id", "q"}, {"type", "boolean"}, {"question", "Fine?"}};
        // Missing, ill-typed and unknown arguments: tool results with isError.
        expect_tool_error(call_tool("decide_custom_questions", {{"questions", {q}}}),
                          "context is required (a string)");
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", 3}, {"questions", {q}}}),
            "context must be a string, not the number 3");
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", "c"}, {"questions", "q"}}),
            "questions must be an array");
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", "c"}, {"questions", json::array()}}),
            "questions needs at least 1 item");
        expect_tool_error(call_tool("decide_custom_questions",
                                    {{"context", "c"}, {"questions", {q}}, {"bogus", 1}}),
                          "bogus is not a known argument; accepted: cascade_mode, "
                          "cascade_threshold, context, instructions, questions, samples, seed, "
                          "temperature");
        json maybe = q;
        maybe["type"] = "maybe";
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", "c"}, {"questions", {maybe}}}),
            "questions[0].type: \"maybe\" is not accepted; accepted: boolean, choice, score");
        json no_question = {{"id", "q"}, {"type", "boolean"}};
        expect_tool_error(call_tool("decide_custom_questions",
                                    {{"context", "c"}, {"questions", {q, no_question}}}),
                          "questions[1].question is required");
        json extra = q;
        extra["why"] = "x";
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", "c"}, {"questions", {extra}}}),
            "questions[0].why is not a known argument");
        // What parse_schema refuses: duplicate ids, a choice without options.
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", "c"}, {"questions", {q, q}}}),
            "duplicate id");
        json choice = {{"id", "c"}, {"type", "choice"}, {"question", "Which?"}};
        expect_tool_error(
            call_tool("decide_custom_questions", {{"context", "c"}, {"questions", {choice}}}),
            "choice needs \"options\"");
        expect_tool_error(call_tool("decide_custom_questions",
                                    {{"context", "c"}, {"questions", {q}}, {"samples", 0}}),
                          "samples: 0 is out of range; accepted: from 1 to 32");
        expect_tool_error(call_tool("decide_custom_questions",
                                    {{"context", "c"}, {"questions", {q}}, {"seed", 1.5}}),
                          "seed must be an integer");
        expect_still_serving();

        // Policies that do not exist, variables that are not strings, a template that fails.
        json r = call_tool("decide_policy", {{"template", "no_such_policy"}});
        expect_tool_error(r, "no policy 'no_such_policy'");
        QVERIFY(text_of(r).find("support_triage") != std::string::npos);
        QVERIFY(text_of(r).find("vendor_check") != std::string::npos);
        expect_tool_error(call_tool("decide_policy", {{"template", "/nonexistent/x.json.tmpl"}}),
                          "no policy '/nonexistent/x.json.tmpl'");
        expect_tool_error(call_tool("decide_policy", {{"variables", json::object()}}),
                          "template is required");
        expect_tool_error(call_tool("decide_policy", {{"template", "support_triage"},
                                                      {"variables", {{"ticket", 5}}}}),
                          "variables.ticket must be a string, not the number 5");
        expect_tool_error(
            call_tool("decide_policy", {{"template", "support_triage"}, {"variables", "x"}}),
            "variables must be an object");
        expect_tool_error(call_tool("decide_policy", {{"template", "broken"}}),
                          "broken.json.tmpl:1:");
        expect_tool_error(call_tool("get_health", {{"verbose", true}}),
                          "verbose is not a known argument; accepted: none");
        expect_still_serving();
    }

    // Issue 39: the decide tools' temperature argument reaches the executor (recorded in the
    // diagnostics, the answers rescaled), a bad one is refused naming it, and a cascade without
    // a stage-2 judge is refused saying so.
    void temperatureAndCascadeArguments() {
        json q = {{"id", "ok"}, {"type", "boolean"}, {"question", "Is the reply acceptable?"}};
        const json plain =
            call_tool("decide_custom_questions", {{"context", "fine"}, {"questions", {q}}});
        const json hot = call_tool("decide_custom_questions",
                                   {{"context", "fine"}, {"questions", {q}}, {"temperature", 3}});
        QVERIFY2(hot["isError"] == false, hot.dump().c_str());
        QCOMPARE(hot["structuredContent"]["diagnostics"]["temperature"], json(3.0));
        QVERIFY(hot["structuredContent"]["answers"]["ok"]["confidence"].get<double>() <
                plain["structuredContent"]["answers"]["ok"]["confidence"].get<double>());
        expect_tool_error(call_tool("decide_custom_questions",
                                    {{"context", "c"}, {"questions", {q}}, {"temperature", 0}}),
                          "temperature");
        expect_tool_error(
            call_tool("decide_custom_questions",
                      {{"context", "c"}, {"questions", {q}}, {"cascade_mode", "entropy"}}),
            "no stage-2 judge");
        expect_still_serving();
    }

    void backendUnavailable() {
        int attempts = 0;
        core::mcp::Server failing(options(),
                                  [&attempts]() -> engine::Result<std::shared_ptr<core::Backend>> {
                                      ++attempts;
                                      return engine::engine_error("no model at /nowhere");
                                  });
        auto init = failing.handle_line(
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}})");
        QVERIFY(init && json::parse(*init)["result"]["protocolVersion"] == "2024-11-05");
        for (
            const char* call :
            {R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_health"}})",
             R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"decide_custom_questions",
                 "arguments":{"context":"c","questions":[{"id":"q","type":"boolean","question":"?"}]}}})"}) {
            auto reply = failing.handle_line(call);
            QVERIFY(reply);
            json result = json::parse(*reply)["result"];
            expect_tool_error(result, "the backend is not available: no model at /nowhere");
        }
        QCOMPARE(attempts, 2);  // tried again on each call
        // list_policy_templates needs no backend.
        auto list = failing.handle_line(
            R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_policy_templates"}})");
        QVERIFY(list && json::parse(*list)["result"]["isError"] == false);

        core::mcp::Server throwing(options(),
                                   []() -> engine::Result<std::shared_ptr<core::Backend>> {
                                       throw std::runtime_error("boom");
                                   });
        auto reply = throwing.handle_line(
            R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_health"}})");
        QVERIFY(reply);
        expect_tool_error(json::parse(*reply)["result"], "boom");
        auto pong = throwing.handle_line(R"({"jsonrpc":"2.0","id":6,"method":"ping"})");
        QVERIFY(pong && json::parse(*pong)["result"] == json::object());
    }

    void lineSplitter() {
        core::mcp::LineSplitter s(10);
        s.feed("ab");
        QVERIFY(!s.next());
        s.feed("c\nde\r\n0123456789");
        auto a = s.next();
        QVERIFY(a && a->text == "abc" && a->oversized == 0);
        auto b = s.next();
        QVERIFY(b && b->text == "de\r");
        QVERIFY(!s.next());
        s.feed("X");  // 11 bytes without a newline: over the limit
        s.feed("more bytes\nok\n");
        auto c = s.next();
        QVERIFY(c && c->text.empty() && c->oversized >= 11);
        auto d = s.next();
        QVERIFY(d && d->text == "ok");
        s.feed("tail");
        s.finish();
        auto e = s.next();
        QVERIFY(e && e->text == "tail");
        QVERIFY(!s.next());
    }
};

QTEST_GUILESS_MAIN(TestMcp)
#include "tst_mcp.moc"
