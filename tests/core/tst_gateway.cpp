// dgem serve as dgem's gateway, end to end: the real `dgem serve` on the tiny model, on loopback,
// with a --templates folder, API_KEY and METRICS_KEY, spoken to with cpp-httplib's client.
// GET /api/templates (the shipped policies and the folder's, with variables and samples),
// POST /api/decide/{template} and POST /api/decide with a custom_template (answers whose
// probabilities sum to 1, diagnostics, max_entropy, timing fields), their 401/404/400 cases, the
// refusal of paths (absolute, "..", a link out of the folder) without the file being opened
// (inotify) or its content appearing, and GET /metrics: behind METRICS_KEY, valid for
// `promtool check metrics`, its counters moving after a decision; open on a server without it.

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "outside_file.h"
#include "serve_process.h"

using nlohmann::json;

namespace {

const char* const kApiKey = "gateway-test-key";
const char* const kMetricsKey = "metrics-test-key";
const std::string kMarker = "OUTSIDE-CONTENT-51d9";

// The value of one sample line "name{labels} value" in a metrics text, or -1.
double metric_value(const std::string& text, const std::string& series) {
    const size_t at = text.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + series.size() + 2));
}

}  // namespace

class TestGateway : public QObject {
    Q_OBJECT

    QTemporaryDir home_, templates_, outside_;
    QProcess serve_;
    std::unique_ptr<httplib::Client> client_;
    std::unique_ptr<OutsideFile> secret_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char* k :
             {"DGEM_URL", "DGEM_TOKEN", "DGEM_SERVER_KEY", "API_KEY", "METRICS_KEY"})
            e.remove(k);
        e.insert("HOME", home_.path());
        e.insert("XDG_DATA_HOME", home_.filePath("data"));  // no user policy folder
        return e;
    }

    httplib::Headers auth() const { return {{"Authorization", std::string("Bearer ") + kApiKey}}; }

    httplib::Result post(const std::string& path, const json& body, bool authed = true) {
        return client_->Post(path, authed ? auth() : httplib::Headers{}, body.dump(),
                             "application/json");
    }

    std::string metrics() {
        auto r =
            client_->Get("/metrics", {{"Authorization", std::string("Bearer ") + kMetricsKey}});
        if (!r || r->status != 200) qFatal("GET /metrics failed");
        return r->body;
    }

    static void expect_error(const httplib::Result& r, int status, const std::string& mention) {
        QVERIFY(r);
        QVERIFY2(r->status == status, (std::to_string(r->status) + " " + r->body).c_str());
        const json body = json::parse(r->body);
        const std::string message = body["error"]["message"].get<std::string>();
        QVERIFY2(message.find(mention) != std::string::npos, message.c_str());
        QVERIFY2(r->body.find(kMarker) == std::string::npos, r->body.c_str());
    }

    static void check_decision(const json& reply, const std::string& label,
                               const std::map<std::string, std::vector<std::string>>& expected) {
        QCOMPARE(reply["template"], json(label));
        QCOMPARE(reply["answers"].size(), expected.size());
        for (const auto& [id, names] : expected) {
            const json& a = reply["answers"][id];
            double sum = 0;
            for (const auto& n : names) sum += a["probabilities"][n].get<double>();
            QVERIFY2(std::abs(sum - 1) < 1e-6, (id + ": " + std::to_string(sum)).c_str());
            QCOMPARE(a["probabilities"].size(), names.size());
        }
        QVERIFY(reply["diagnostics"].is_object());
        QVERIFY(reply["diagnostics"]["questions"].is_object());
        QVERIFY(reply["max_entropy"].get<double>() >= 0);
        for (const char* k : {"wall_time_ms", "gpu_forward_ms", "cold_start_wait_ms"})
            QVERIFY2(reply[k].is_number_integer() && reply[k].get<int64_t>() >= 0, k);
        QVERIFY(reply["wall_time_ms"].get<int64_t>() >= reply["gpu_forward_ms"].get<int64_t>());
        QCOMPARE(reply["warmup_attempts"], json(1));
        QCOMPARE(reply["model"], json("diffusiongemma-tiny-random"));
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid() && templates_.isValid() && outside_.isValid());
        const std::filesystem::path dir = templates_.path().toStdString();
        std::ofstream(dir / "door_check.json.tmpl") << R"({{/* Door check: open a door or not. */}}
{"schema": {"instructions": "You check doors.",
  "questions": [{"id": "open", "type": "noul", "instructions": "Open the {{ .door }} door?"}]},
 "state": {"door": {{ toJson .door }}}}
)";
        std::ofstream(dir / "door_check.vars.json") << R"({"door": "red"})";
        std::ofstream(dir / "not_json.json.tmpl") << "{\"schema\": {{ .x }}";
        secret_ = std::make_unique<OutsideFile>(
            outside_.filePath("secret.json.tmpl").toStdString(),
            R"({"schema": {"questions": [{"id": "q", "type": "noul", "instructions": ")" + kMarker +
                R"("}]}})");
        QVERIFY(secret_->watching());
        std::filesystem::create_symlink(secret_->path(), dir / "leak.json.tmpl");

        QProcessEnvironment e = env();
        e.insert("API_KEY", kApiKey);
        e.insert("METRICS_KEY", kMetricsKey);
        const QString port = start_dgem_serve(serve_, e, {"--templates", templates_.path()});
        QVERIFY2(!port.isEmpty(), serve_.readAllStandardError().constData());
        client_ = std::make_unique<httplib::Client>("127.0.0.1", port.toInt());
        client_->set_read_timeout(600, 0);
    }

    void cleanupTestCase() {
        serve_.terminate();
        serve_.waitForFinished(30000);
    }

    void templatesListing() {
        expect_error(client_->Get("/api/templates"), 401, "missing bearer token");
        auto r = client_->Get("/api/templates", auth());
        QVERIFY(r && r->status == 200);
        QVERIFY2(r->body.find(kMarker) == std::string::npos, "outside content listed");
        const json body = json::parse(r->body);
        std::map<std::string, json> by_id;
        for (const auto& t : body["templates"]) by_id[t["id"].get<std::string>()] = t;
        QCOMPARE(body["count"].get<size_t>(), body["templates"].size());
        const json& triage = by_id["support_triage"];
        QCOMPARE(triage["origin"], json("shipped"));
        QVERIFY(triage["variables"].get<std::vector<std::string>>().size() >= 1);
        QVERIFY(triage["sample_vars"].contains("ticket"));
        QCOMPARE(triage["questions"][0]["id"], json("urgent"));
        const json& door = by_id["door_check"];
        QCOMPARE(door["origin"], json("dir"));
        QCOMPARE(door["variables"], json({"door"}));
        QCOMPARE(door["sample_vars"], json({{"door", "red"}}));
        QCOMPARE(door["description"], json("Door check: open a door or not."));
        QVERIFY(!by_id.count("leak"));
        QVERIFY2(body["problems"].dump().find("leak.json.tmpl is a link leading out") !=
                     std::string::npos,
                 body["problems"].dump().c_str());
        QVERIFY(by_id["not_json"].contains("problem"));
    }

    void decideByTemplate() {
        const std::string before = metrics();
        auto r = post("/api/decide/support_triage",
                      {{"variables", {{"ticket", "I was charged twice for my plan."}}},
                       {"samples", 2},
                       {"seed", 7}});
        QVERIFY(r);
        QVERIFY2(r->status == 200, r->body.c_str());
        const json reply = json::parse(r->body);
        check_decision(reply, "support_triage",
                       {{"urgent", {"yes", "no"}},
                        {"team", {"billing", "support", "engineering"}},
                        {"sentiment", {"calm", "frustrated", "furious"}}});
        QCOMPARE(reply["diagnostics"]["samples"]["n"], json(2));

        // The same by "template" on POST /api/decide: the same answers.
        auto again =
            post("/api/decide", {{"template", "support_triage"},
                                 {"variables", {{"ticket", "I was charged twice for my plan."}}},
                                 {"samples", 2},
                                 {"seed", 7}});
        QVERIFY(again && again->status == 200);
        QCOMPARE(json::parse(again->body)["answers"], reply["answers"]);

        // The counters moved: two decisions, two 200s on the two routes.
        const std::string after = metrics();
        const std::string ok = "dgem_decisions_total{outcome=\"ok\"}";
        QCOMPARE(metric_value(after, ok), metric_value(before, ok) + 2);
        const std::string route =
            R"(dgem_http_requests_total{route="/api/decide/{template}",method="POST",status="200"})";
        QCOMPARE(metric_value(after, route), std::max(0.0, metric_value(before, route)) + 1);
        QVERIFY(metric_value(after, "dgem_engine_reads_total") >
                std::max(0.0, metric_value(before, "dgem_engine_reads_total")));
    }

    void decideCustomTemplate() {
        const std::string custom = R"({"schema": {"instructions": "You check doors.",
  "questions": [{"id": "open", "type": "noul", "instructions": "Open the {{ .door }} door?"},
                {"id": "color", "type": "choice", "instructions": "Which color?",
                 "options": [{"name": "red"}, {"name": "blue"}]}]},
 "state": {"door": {{ toJson .door }}}})";
        auto r = post("/api/decide", {{"custom_template", custom},
                                      {"variables", {{"door", "red"}}},
                                      {"layout", "schema_first"},
                                      {"samples", "auto"}});
        QVERIFY(r);
        QVERIFY2(r->status == 200, r->body.c_str());
        const json reply = json::parse(r->body);
        check_decision(reply, "custom_inline",
                       {{"open", {"yes", "no"}}, {"color", {"red", "blue"}}});
        QCOMPARE(reply["diagnostics"]["layout"], json("schema_first"));
    }

    void badRequests() {
        expect_error(post("/api/decide/support_triage", {{"variables", json::object()}}, false),
                     401, "missing bearer token");
        expect_error(post("/api/decide/no_such_policy", json::object()), 404,
                     "no policy 'no_such_policy' in the catalog");
        auto unknown = post("/api/decide/no_such_policy", json::object());
        QVERIFY(unknown->body.find("door_check") != std::string::npos);
        QVERIFY(unknown->body.find("support_triage") != std::string::npos);
        expect_error(post("/api/decide", {{"custom_template", "{{ if }}"}}), 400,
                     "custom_template:1:");
        expect_error(post("/api/decide", {{"custom_template", "{\"schema\": {{ .x }}"}}), 400,
                     "custom_template");
        expect_error(
            post("/api/decide", {{"custom_template", "{\"schema\": {\"questions\": []}}"}}), 400,
            "questions");
        expect_error(post("/api/decide/not_json", json::object()), 400, "not_json.json.tmpl");
        expect_error(post("/api/decide", {{"custom_template", std::string(1024 * 1024 + 1, ' ')}}),
                     400, "\"custom_template\" is 1048577 bytes; custom templates are limited to");
        expect_error(post("/api/decide", {{"variables", json::object()}}), 400,
                     "name a policy (POST /api/decide/{template}");
        expect_error(post("/api/decide", {{"template", "door_check"}, {"custom_template", "{}"}}),
                     400, "not both");
        expect_error(post("/api/decide/door_check", {{"samples", 0}}), 400,
                     "\"samples\" must be \"auto\" or a whole number from 1 to");
        expect_error(post("/api/decide/door_check", {{"layout", "sideways"}}), 400,
                     "\"layout\" must be \"document_first\" or \"schema_first\"");
        expect_error(post("/api/decide/door_check", {{"variables", "door=red"}}), 400,
                     "\"variables\" must be an object");
        expect_error(post("/api/decide/door_check", {{"seed", -1}}), 400, "\"seed\" must be");
        expect_error(post("/api/decide/door_check", {{"varaibles", json::object()}}), 400,
                     "\"varaibles\" is not a field of this route");
        auto broken =
            client_->Post("/api/decide/door_check", auth(), "{\"variables\": ", "application/json");
        QVERIFY(broken && broken->status == 400);
    }

    // Paths are never policies: absolute, relative with "..", URL-encoded, a link in the folder
    // that leads out: all 404 "no policy" with the names, the file never opened.
    void refusesPaths() {
        const std::string abs = secret_->path().string();
        const std::string rel = "../" + secret_->path().parent_path().filename().string() + "/" +
                                secret_->path().filename().string();
        for (const std::string& name : std::vector<std::string>{abs, rel, "leak", "/etc/passwd"}) {
            std::string path = "/api/decide/";  // each / sent as %2F
            for (char c : name) path += c == '/' ? std::string("%2F") : std::string(1, c);
            expect_error(post(path, json::object()), 404, "no policy '");
            expect_error(post("/api/decide", {{"template", name}}), 404, "no policy '");
        }
        // And MCP over the same server: decide_policy by path is no policy either.
        const json call = {
            {"jsonrpc", "2.0"},
            {"id", 1},
            {"method", "tools/call"},
            {"params", {{"name", "decide_policy"}, {"arguments", {{"template", abs}}}}}};
        auto r = post("/mcp", call);
        QVERIFY(r && r->status == 200);
        const json reply = json::parse(r->body);
        QCOMPARE(reply["result"]["isError"], json(true));
        QVERIFY(reply["result"]["content"][0]["text"].get<std::string>().find(
                    "no policy '" + abs) != std::string::npos);
        QVERIFY(r->body.find(kMarker) == std::string::npos);
        QVERIFY2(!secret_->opened(), "the file outside the catalog was opened");
    }

    void metricsEndpoint() {
        auto none = client_->Get("/metrics");
        QVERIFY(none && none->status == 401);
        auto wrong = client_->Get("/metrics", {{"Authorization", "Bearer nope"}});
        QVERIFY(wrong && wrong->status == 401);
        const std::string text = metrics();
        QVERIFY(text.find(kApiKey) == std::string::npos);
        QVERIFY(text.find(kMetricsKey) == std::string::npos);
        for (const char* family :
             {"# TYPE dgem_http_requests_total counter",
              "# TYPE dgem_http_request_duration_seconds histogram",
              "# TYPE dgem_admission_wait_seconds histogram",
              "# TYPE dgem_decision_seconds histogram",
              "dgem_decision_seconds_bucket{phase=\"encode\"",
              "dgem_decision_seconds_bucket{phase=\"decode\"",
              "dgem_decision_seconds_bucket{phase=\"readout\"",
              "dgem_decision_seconds_bucket{phase=\"total\"",
              "# TYPE dgem_inflight_decisions gauge", "# TYPE dgem_queued_decisions gauge",
              "# TYPE dgem_engine_reads_total counter",
              "# TYPE dgem_prefix_cache_hits_total counter", "# TYPE dgem_prefix_cache_bytes gauge",
              "dgem_build_info{version=\"", "model=\"diffusiongemma-tiny-random\""})
            QVERIFY2(text.find(family) != std::string::npos, family);
        QVERIFY(text.find("/etc/passwd") == std::string::npos);

        // promtool (Debian's prometheus package) accepts the exposition.
        QProcess promtool;
        promtool.start("promtool", {"check", "metrics"});
        QVERIFY2(
            promtool.waitForStarted(),
            "promtool not found: install Debian's prometheus package (scripts/setup-debian.sh)");
        promtool.write(QByteArray::fromStdString(text));
        promtool.closeWriteChannel();
        QVERIFY(promtool.waitForFinished(60000));
        QVERIFY2(promtool.exitCode() == 0,
                 (promtool.readAllStandardOutput() + promtool.readAllStandardError()).constData());
    }

    // Without METRICS_KEY, /metrics is as open as /health, while decisions still need API_KEY.
    void metricsOpenWithoutKey() {
        QProcess open;
        QProcessEnvironment e = env();
        e.insert("API_KEY", kApiKey);
        const QString port = start_dgem_serve(open, e);
        QVERIFY2(!port.isEmpty(), open.readAllStandardError().constData());
        httplib::Client c("127.0.0.1", port.toInt());
        auto m = c.Get("/metrics");
        QVERIFY(m && m->status == 200);
        QVERIFY(m->get_header_value("Content-Type").rfind("text/plain; version=0.0.4", 0) == 0);
        QVERIFY(m->body.find("# TYPE dgem_http_requests_total counter") != std::string::npos);
        auto d = c.Post("/api/decide/door_check", "{}", "application/json");
        QVERIFY(d && d->status == 401);
        open.terminate();
        open.waitForFinished(30000);
    }
};

QTEST_GUILESS_MAIN(TestGateway)
#include "tst_gateway.moc"
