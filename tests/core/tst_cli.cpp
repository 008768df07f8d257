// dgem's command line as dgem users know it, run as the real binary: template list/render,
// version, decide's table and -f json, --schema/--state, --temperature, --layout, and the global
// --http-retries, --config, --vertex-url, --iap-client-id and gcp_auth from a config file (a fake
// gcloud on PATH, a loopback server that records what it is sent).
#include "core/decide/local_backend.h"
#include "core/server/decision_server.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <httplib.h>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "recording_server.h"
#include "test_files.h"

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

const QString kPolicy =
    QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");

template <class J>
QString str(const J& j) {
    return QString::fromStdString(j.template get<std::string>());
}

double entropy(const json& probabilities) {
    double h = 0;
    for (const auto& [name, p] : probabilities.items()) {
        const double x = p.get<double>();
        if (x > 0) h -= x * std::log(x);
    }
    return h;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir home_;
    QTemporaryDir bin_;  // the fake gcloud

    // Runs the real dgem with a clean home and environment (no user config, no DGEM_*/GCP_*).
    Run dgem(const QStringList& args, const QMap<QString, QString>& env = {}) {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& k : e.keys())
            if (k.startsWith("DGEM_") || k.startsWith("GCP_") || k == "API_KEY") e.remove(k);
        e.insert("HOME", home_.path());
        e.insert("XDG_DATA_HOME", home_.filePath("data"));
        e.insert("XDG_CONFIG_HOME", home_.filePath("config"));
        for (auto it = env.begin(); it != env.end(); ++it) e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
        p.setWorkingDirectory(home_.path());
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        p.closeWriteChannel();
        if (!p.waitForFinished(900000)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    QStringList local() const {
        return {"--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu"};
    }

    void writeFile(const QString& path, const QByteArray& text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

    // A fake gcloud that logs its arguments and prints a token.
    QMap<QString, QString> fakeGcloud(const QString& token) {
        const QString script = bin_.filePath("gcloud");
        writeFile(script, QStringLiteral("#!/bin/sh\necho \"$@\" >> '%1'\necho '%2'\n")
                              .arg(bin_.filePath("calls.log"), token)
                              .toUtf8());
        QFile(script).setPermissions(QFile(script).permissions() | QFileDevice::ExeOwner);
        QFile::remove(bin_.filePath("calls.log"));
        return {{"PATH", bin_.path() + ":" + qEnvironmentVariable("PATH")}};
    }
    QStringList gcloudCalls() {
        QFile f(bin_.filePath("calls.log"));
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    }

  private slots:
    void version() {
        for (const char* flag : {"version", "--version"}) {
            const Run r = dgem({flag});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.startsWith("dgem "), qPrintable(r.out));
            QVERIFY2(r.out.contains("engine devices: cpu"), qPrintable(r.out));
            QVERIFY2(r.out.contains("cuda") || r.out.contains("CUDA"), qPrintable(r.out));
            QVERIFY2(r.out.contains("Qt " + QString(qVersion())), qPrintable(r.out));
        }
        QVERIFY(dgem({"--help"}).out.contains("version"));
    }

    void templateList() {
        QTemporaryDir extra;
        writeFile(extra.filePath("mine.json.tmpl"),
                  R"({"schema": {"questions": [{"id": "ok", "type": "noul",
                      "instructions": {{ .question | toJson }}}]},
                      "state": {"text": {{ default "none" .text | toJson }}}})");
        QDir().mkpath(home_.filePath("data/decision-studio/policies"));
        writeFile(home_.filePath("data/decision-studio/policies/studio_one.json.tmpl"),
                  R"({"schema": {"questions": [{"id": "a", "type": "noul",
                      "instructions": "?"}]}, "state": {{ toJson .doc }}})");

        const Run r = dgem({"template", "list", "--dir", extra.path(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const json list = json::parse(r.out.toStdString())["templates"];
        std::map<std::string, json> by_name;
        for (const auto& t : list) by_name[t["name"].get<std::string>()] = t;
        QVERIFY(by_name.count("support_triage"));
        const json& triage = by_name["support_triage"];
        QCOMPARE(str(triage["origin"]), QString("shipped"));
        QCOMPARE(str(triage["path"]), QString(":/templates/support_triage.json.tmpl"));
        for (const char* v : {"ticket", "samples", "layout", "seed_token"})
            QVERIFY2(std::find(triage["variables"].begin(), triage["variables"].end(), v) !=
                         triage["variables"].end(),
                     v);
        for (const auto& t : list)
            if (t["origin"] == "shipped") QVERIFY(!t["variables"].empty());
        QVERIFY(by_name.count("mine"));
        QCOMPARE(str(by_name["mine"]["origin"]), QString("dir"));
        QVERIFY(by_name["mine"]["variables"] == json::array({"question", "text"}));
        QVERIFY(by_name.count("studio_one"));
        QCOMPARE(str(by_name["studio_one"]["origin"]), QString("user"));
        QVERIFY(by_name["studio_one"]["variables"] == json::array({"doc"}));

        // The table: every policy with its variables and its path.
        const Run table = dgem({"template", "list", "--no-user"});
        QCOMPARE(table.code, 0);
        QVERIFY(table.out.startsWith("NAME"));
        QVERIFY(table.out.contains("support_triage"));
        QVERIFY(table.out.contains("ticket"));
        QVERIFY(!table.out.contains("studio_one"));
        // A shipped policy's path works with -t.
        const Run shipped =
            dgem({"template", "render", "-t", ":/templates/support_triage.json.tmpl"});
        QVERIFY2(shipped.code == 0, qPrintable(shipped.err));

        const Run missing = dgem({"template", "list", "--dir", home_.filePath("nowhere")});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("--dir") && missing.err.contains("nowhere"),
                 qPrintable(missing.err));
        QCOMPARE(dgem({"template", "explode"}).code, 2);
        QCOMPARE(dgem({"template"}).code, 2);
    }

    // What template render prints is what decide sends: the schema text of the system message
    // and the state of the user message, flag overrides (--layout) included.
    void templateRenderEqualsDecide() {
        RecordingServer server(500);
        writeFile(home_.filePath("vars.json"), R"({"ticket": "Refund me twice", "samples": 2})");
        const QList<QStringList> inputs{
            {"-t", kPolicy, "-v", "ticket=Refund me twice", "-v", "samples=2"},
            {"-t", kPolicy, "-d", home_.filePath("vars.json")}};
        for (const QStringList& input : inputs) {
            server.clear();
            const QStringList flags = input + QStringList{"--layout", "schema_first"};
            const Run decide = dgem(QStringList{"decide", "-u", server.url(), "--protocol", "chat",
                                                "--http-retries", "0"} +
                                    flags);
            QCOMPARE(decide.code, 3);  // the server answers 500 after recording the request
            const auto bodies = server.bodies();
            QCOMPARE(bodies.size(), size_t(1));
            const ojson sent = ojson::parse(bodies[0]);
            const std::string system = sent["messages"][0]["content"];
            const ojson user = ojson::parse(sent["messages"][1]["content"].get<std::string>());

            const Run render = dgem(QStringList{"template", "render"} + flags);
            QVERIFY2(render.code == 0, qPrintable(render.err));
            const ojson rendered = ojson::parse(render.out.toStdString());
            QCOMPARE(QString::fromStdString(rendered["schema"].dump()),
                     QString::fromStdString(system));
            QCOMPARE(QString::fromStdString(rendered["state"].dump()),
                     QString::fromStdString(user.dump()));
            // --layout reaches the server.
            QCOMPARE(str(rendered["schema"]["layout"]), QString("schema_first"));
            QCOMPARE(rendered["schema"]["samples"].get<int>(), 2);
            QCOMPARE(str(user["ticket"]), QString("Refund me twice"));
        }
        // --raw: the template's own output.
        const Run raw = dgem({"template", "render", "-t", kPolicy, "-v", "ticket=x", "--raw"});
        QCOMPARE(raw.code, 0);
        QVERIFY(json::parse(raw.out.toStdString()).contains("schema"));
        const Run both = dgem({"template", "render", "-t", kPolicy, "-v", "a=b", "-d", "x.json"});
        QCOMPARE(both.code, 2);
        QCOMPARE(dgem({"template", "render"}).code, 2);
    }

    void decideTableAndJson() {
        const QStringList policy{"-t",        kPolicy, "-v", "ticket=I was charged twice",
                                 "--samples", "2"};
        const Run table = dgem(QStringList{"decide"} + local() + policy);
        QVERIFY2(table.code == 0, qPrintable(table.err));
        const QString header = table.out.section('\n', 0, 0);
        for (const char* column :
             {"QUESTION", "TYPE", "VALUE/CHOICE", "CONFIDENCE", "STDERR", "AGREEMENT"})
            QVERIFY2(header.contains(column), qPrintable(table.out));
        for (const char* row : {"urgent", "team", "sentiment"}) QVERIFY(table.out.contains(row));
        QVERIFY(table.out.contains("%"));
        QVERIFY(table.out.contains("±"));

        const Run j = dgem(QStringList{"decide"} + local() + policy + QStringList{"-f", "json"});
        QVERIFY2(j.code == 0, qPrintable(j.err));
        const json out = json::parse(j.out.toStdString());
        QVERIFY(out["answers"].contains("team"));
        QVERIFY(out["diagnostics"].contains("questions"));
        const Run alias = dgem(QStringList{"decide"} + local() + policy + QStringList{"--json"});
        QCOMPARE(alias.code, 0);
        QVERIFY(json::parse(alias.out.toStdString())["answers"] == out["answers"]);

        const Run bad = dgem(QStringList{"decide"} + local() + policy + QStringList{"-f", "pdf"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--format pdf") && bad.err.contains("table or json") &&
                     bad.err.contains("--report-format"),
                 qPrintable(bad.err));
        const Run clash =
            dgem(QStringList{"decide"} + local() + policy + QStringList{"--json", "-f", "table"});
        QCOMPARE(clash.code, 2);
        // The report's format is --report-format; it needs -o.
        const Run orphan =
            dgem(QStringList{"decide"} + local() + policy + QStringList{"--report-format", "csv"});
        QCOMPARE(orphan.code, 2);
        QVERIFY2(orphan.err.contains("-o FILE"), qPrintable(orphan.err));
    }

    void schemaAndState() {
        const QString schema = home_.filePath("bare.json");
        writeFile(schema, R"({"instructions": "Triage a ticket.", "questions": [
            {"id": "refund", "type": "noul", "instructions": "Does the customer want a refund?"},
            {"id": "team", "type": "choice", "instructions": "Which team?",
             "options": {"billing": "money", "support": "how-to"}}]})");
        const QString state = home_.filePath("state.json");
        writeFile(state, R"({"ticket": "Please refund the double charge."})");
        for (const QString& s :
             {QString(R"({"ticket": "Please refund the double charge."})"), state}) {
            const Run r =
                dgem(QStringList{"decide"} + local() +
                     QStringList{"--schema", schema, "--state", s, "-f", "json", "--seed", "7"});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const json a = json::parse(r.out.toStdString())["answers"];
            QVERIFY(a.contains("refund") && a.contains("team"));
            QVERIFY(a["team"]["probabilities"].contains("billing"));
        }
        // The state as template render shows it: the file's, in its order.
        const Run render = dgem({"template", "render", "--schema", schema, "--state", state});
        QVERIFY2(render.code == 0, qPrintable(render.err));
        const ojson shown = ojson::parse(render.out.toStdString());
        QCOMPARE(str(shown["state"]["ticket"]), QString("Please refund the double charge."));
        // Dict-form options keep their written order: billing is A.
        QCOMPARE(str(shown["schema"]["questions"][1]["options"][0]["name"]), QString("billing"));

        const Run both = dgem({"template", "render", "--schema", schema, "-t", kPolicy});
        QCOMPARE(both.code, 2);
        const Run stateAlone = dgem({"template", "render", "-t", kPolicy, "--state", "{}"});
        QCOMPARE(stateAlone.code, 2);
        QVERIFY2(stateAlone.err.contains("--state"), qPrintable(stateAlone.err));
        const Run badState =
            dgem({"template", "render", "--schema", schema, "--state", "no-such-file.json"});
        QCOMPARE(badState.code, 2);
        QVERIFY2(badState.err.contains("--state"), qPrintable(badState.err));
        const Run badJson = dgem({"template", "render", "--schema", schema, "--state", "{oops"});
        QCOMPARE(badJson.code, 2);
        const Run noSchema = dgem({"template", "render", "--schema", home_.filePath("none.json")});
        QCOMPARE(noSchema.code, 2);
        QVERIFY2(noSchema.err.contains("none.json"), qPrintable(noSchema.err));
    }

    // --temperature 2 flattens every answer relative to T=1 (the same reads); T <= 0 is refused.
    void temperature() {
        const QStringList policy{"-t",        kPolicy, "-v", "ticket=I was charged twice",
                                 "--samples", "2",     "-f", "json"};
        const Run plain = dgem(QStringList{"decide"} + local() + policy);
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        const Run hot =
            dgem(QStringList{"decide"} + local() + policy + QStringList{"--temperature", "2"});
        QVERIFY2(hot.code == 0, qPrintable(hot.err));
        const json a = json::parse(plain.out.toStdString());
        const json b = json::parse(hot.out.toStdString());
        for (const char* id : {"urgent", "team", "sentiment"}) {
            const double h1 = entropy(a["answers"][id]["probabilities"]);
            const double h2 = entropy(b["answers"][id]["probabilities"]);
            QVERIFY2(h2 > h1,
                     qPrintable(QString("%1: H %2 at T=2, %3 at T=1").arg(id).arg(h2).arg(h1)));
            QVERIFY(b["answers"][id]["confidence"].get<double>() <
                    a["answers"][id]["confidence"].get<double>());
            double sum = 0;
            for (const auto& [k, p] : b["answers"][id]["probabilities"].items())
                sum += p.get<double>();
            QVERIFY(std::abs(sum - 1) < 1e-9);
            // The diagnostics' per-read entropies follow.
            const auto& e1 = a["diagnostics"]["questions"][id]["entropy"];
            const auto& e2 = b["diagnostics"]["questions"][id]["entropy"];
            QCOMPARE(e1.size(), e2.size());
            for (size_t k = 0; k < e1.size(); ++k)
                QVERIFY(e2[k].get<double>() > e1[k].get<double>());
        }
        QCOMPARE(b["diagnostics"]["temperature"].get<double>(), 2.0);

        // Through a server the same: post-hoc on this side of the wire (one read, so the
        // server's reply holds the read's own distribution).
        engine::EngineOptions eo;
        eo.model_dir = DS_TINY_MODEL_DIR;
        eo.device = engine::Device::Cpu;
        auto backend = core::LocalBackend::open(eo);
        QVERIFY2(backend.ok(), backend.ok() ? "" : backend.error().message.c_str());
        std::shared_ptr<core::LocalBackend> engine_backend(std::move(backend.value()));
        core::ServerOptions so;
        so.port = 0;
        core::DecisionServer server(engine_backend, so);
        QVERIFY(server.start().ok());
        const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(server.port());
        const QStringList one{
            "-t",   kPolicy,         "-v", "ticket=I was charged twice", "--samples", "1", "-f",
            "json", "--temperature", "2"};
        const Run viaLocal = dgem(QStringList{"decide"} + local() + one);
        const Run viaServer = dgem(QStringList{"decide", "-u", url, "--protocol", "chat"} + one);
        QVERIFY2(viaLocal.code == 0 && viaServer.code == 0, qPrintable(viaServer.err));
        const json here = json::parse(viaLocal.out.toStdString())["answers"];
        const json served = json::parse(viaServer.out.toStdString())["answers"];
        for (const char* id : {"urgent", "team", "sentiment"})
            for (const auto& [name, p] : here[id]["probabilities"].items())
                QVERIFY2(std::abs(p.get<double>() -
                                  served[id]["probabilities"][name].get<double>()) < 1e-6,
                         qPrintable(QString("%1 %2").arg(id, QString::fromStdString(name))));
        QCOMPARE(
            json::parse(viaServer.out.toStdString())["diagnostics"]["temperature"].get<double>(),
            2.0);
        server.stop();
        const Run same =
            dgem(QStringList{"decide"} + local() + policy + QStringList{"--temperature", "1"});
        QVERIFY(json::parse(same.out.toStdString())["answers"] == a["answers"]);
        for (const char* bad : {"0", "-1", "abc", "nan", "inf", "2x"}) {
            const Run r =
                dgem(QStringList{"decide"} + local() + policy + QStringList{"--temperature", bad});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--temperature") && r.err.contains("above 0"),
                     qPrintable(r.err));
        }
    }

    // The local engine's flags have one parser for decide and serve: a wrong value names the flag
    // and what is accepted, and --nvfp4-inputs fp4 changes nothing where no FP4 tensor cores are
    // (here the CPU engine and an f32 model).
    void localEngineFlags() {
        const QStringList one{"-t",        kPolicy, "-v", "ticket=I was charged twice",
                              "--samples", "1",     "-f", "json"};
        for (const QString& command : {QString("decide"), QString("serve")}) {
            QStringList args{command, "--model", DS_TINY_MODEL_DIR, "--nvfp4-inputs", "int4"};
            if (command == "decide") args += QStringList{"--local"} + one;
            const Run r = dgem(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--nvfp4-inputs int4") && r.err.contains("bf16 or fp4"),
                     qPrintable(r.err));
            QStringList bad_device{command, "--device", "tpu"};
            if (command == "decide") bad_device += QStringList{"--local", "-t", kPolicy};
            const Run device = dgem(bad_device);
            QCOMPARE(device.code, 2);
            QVERIFY2(
                device.err.contains("--device tpu") && device.err.contains("auto, cpu or cuda"),
                qPrintable(device.err));
        }
        const Run plain = dgem(QStringList{"decide"} + local() + one);
        const Run fp4 =
            dgem(QStringList{"decide"} + local() + one + QStringList{"--nvfp4-inputs", "fp4"});
        QVERIFY2(plain.code == 0 && fp4.code == 0, qPrintable(fp4.err));
        QVERIFY(json::parse(plain.out.toStdString())["answers"] ==
                json::parse(fp4.out.toStdString())["answers"]);
    }

    void vertexUrl() {
        const Run missing = dgem({"config", "--vertex-url", "1234567890"});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("GCP_PROJECT_NUMBER"), qPrintable(missing.err));
        const Run noRegion =
            dgem({"config", "--vertex-url", "1234567890"}, {{"GCP_PROJECT_NUMBER", "4242"}});
        QCOMPARE(noRegion.code, 2);
        QVERIFY2(noRegion.err.contains("GCP_REGION"), qPrintable(noRegion.err));
        const QMap<QString, QString> gcp{{"GCP_PROJECT_NUMBER", "4242"},
                                         {"GCP_REGION", "europe-west4"}};
        const Run ok = dgem({"config", "--vertex-url", "1234567890", "--json"}, gcp);
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        const json c = json::parse(ok.out.toStdString());
        QCOMPARE(str(c["url"]["value"]),
                 QString("https://1234567890.europe-west4-4242.prediction.vertexai.goog/v1/"
                         "projects/4242/locations/europe-west4/endpoints/1234567890/invoke/v1/"
                         "chat/completions"));
        QVERIFY(c["url"]["source"].get<std::string>().find("--vertex-url") != std::string::npos);
        QCOMPARE(str(c["vertex_url"]["value"]), QString("1234567890"));
        // A Vertex endpoint takes a gcloud access token, minted when a call is made.
        QVERIFY2(str(c["token"]["source"]).contains("gcloud access token"),
                 qPrintable(str(c["token"]["source"])));
        const Run env = dgem({"config", "--json"},
                             {{"DGEM_VERTEX_URL", "projects/p1/locations/us-east1/endpoints/77"},
                              {"GCP_PROJECT_NUMBER", "4242"},
                              {"GCP_REGION", "us-east1"}});
        QVERIFY2(env.code == 0, qPrintable(env.err));
        QCOMPARE(str(json::parse(env.out.toStdString())["url"]["value"]),
                 QString("https://77.us-east1-4242.prediction.vertexai.goog/v1/projects/p1/"
                         "locations/us-east1/endpoints/77/invoke/v1/chat/completions"));
        const Run notVertex = dgem({"config", "--vertex-url", "https://example.com/v1"}, gcp);
        QCOMPARE(notVertex.code, 2);
        QVERIFY2(notVertex.err.contains("--vertex-url"), qPrintable(notVertex.err));
        const Run both = dgem({"config", "--vertex-url", "1", "-u", "http://127.0.0.1:1/v1"}, gcp);
        QCOMPARE(both.code, 2);
        QVERIFY2(both.err.contains("not both"), qPrintable(both.err));
        const Run decide = dgem({"decide", "--vertex-url", "123", "-t", kPolicy});
        QCOMPARE(decide.code, 2);
        QVERIFY2(decide.err.contains("GCP_PROJECT_NUMBER"), qPrintable(decide.err));
    }

    void configFile() {
        const Run missing = dgem({"config", "--config", home_.filePath("absent.yaml")});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("--config") && missing.err.contains("absent.yaml"),
                 qPrintable(missing.err));
        QCOMPARE(dgem({"decide", "--config", home_.filePath("absent.yaml"), "-t", kPolicy}).code,
                 2);
        // The one file given replaces ./.dgem.yaml.
        writeFile(home_.filePath(".dgem.yaml"), "url: http://127.0.0.1:1/v1\n");
        writeFile(home_.filePath("other.yaml"),
                  "url: http://127.0.0.1:2/v1\nhttp-retries: 5\niap_client_id: aud-1\n");
        const Run c = dgem({"config", "--config", home_.filePath("other.yaml"), "--json"});
        QVERIFY2(c.code == 0, qPrintable(c.err));
        const json j = json::parse(c.out.toStdString());
        QCOMPARE(str(j["url"]["value"]), QString("http://127.0.0.1:2/v1"));
        QVERIFY(j["url"]["source"].get<std::string>().find("other.yaml:1") != std::string::npos);
        QCOMPARE(str(j["http_retries"]["value"]), QString("5"));
        QCOMPARE(str(j["iap_client_id"]["value"]), QString("aud-1"));
        QCOMPARE(str(j["config"]["source"]), QString("flag --config"));
        const Run dflt = dgem({"config"});
        QVERIFY(dflt.out.contains("http://127.0.0.1:1/v1"));
        QFile::remove(home_.filePath(".dgem.yaml"));
    }

    void httpRetries() {
        for (const char* bad : {"x", "-1", "21", "1.5"}) {
            const Run r = dgem({"config", "--http-retries", bad});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--http-retries") && r.err.contains("0 to 20"),
                     qPrintable(r.err));
        }
        const Run viaDecide = dgem({"decide", "--http-retries", "many", "-t", kPolicy});
        QCOMPARE(viaDecide.code, 2);
        // A 503 is retried N times: N + 1 requests.
        RecordingServer busy(503);
        for (int n : {0, 2}) {
            busy.clear();
            const Run r = dgem({"decide", "-u", busy.url(), "--protocol", "chat", "--http-retries",
                                QString::number(n), "-t", kPolicy});
            QCOMPARE(r.code, 3);
            QCOMPARE(busy.bodies().size(), size_t(n + 1));
        }
    }

    // --iap-client-id: gcloud mints an identity token for that audience, sent as the bearer.
    void iapClientId() {
        RecordingServer server(500);
        const auto env = fakeGcloud("iap-token-123");
        const Run r = dgem({"decide", "-u", server.url(), "--protocol", "chat", "--iap-client-id",
                            "123-abc.apps.googleusercontent.com", "-t", kPolicy},
                           env);
        QCOMPARE(r.code, 3);
        QCOMPARE(gcloudCalls(), QStringList({"auth print-identity-token "
                                             "--audiences=123-abc.apps.googleusercontent.com"}));
        QVERIFY(server.auth() == std::vector<std::string>({"Bearer iap-token-123"}));
        QVERIFY(!r.out.contains("iap-token") && !r.err.contains("iap-token"));
        // dgem config says where the token comes from, without minting or showing one.
        QFile::remove(bin_.filePath("calls.log"));
        const Run c =
            dgem({"config", "-u", "https://svc.example.com/v1", "--iap-client-id", "aud-9"}, env);
        QCOMPARE(c.code, 0);
        QVERIFY2(c.out.contains("gcloud identity token for audience aud-9"), qPrintable(c.out));
        QVERIFY(gcloudCalls().isEmpty());
    }

    // gcp_auth in a config file mints for Google hosts only: a Vertex-style URL (here on
    // loopback) gets an access token, a *.run.app URL an identity token, any other host none.
    void gcpAuthFromConfig() {
        RecordingServer server(500);
        const auto env = fakeGcloud("minted-token-7");
        writeFile(home_.filePath(".dgem.yaml"), "gcp-auth: true\n");
        const Run vertex = dgem({"decide", "-u", server.url("/invoke/v1/chat/completions"),
                                 "--protocol", "chat", "-t", kPolicy},
                                env);
        QCOMPARE(vertex.code, 3);
        QCOMPARE(gcloudCalls(), QStringList({"auth print-access-token"}));
        QVERIFY(server.auth() == std::vector<std::string>({"Bearer minted-token-7"}));
        QVERIFY(!vertex.out.contains("minted-token") && !vertex.err.contains("minted-token"));

        // Not a Google host: no token minted, none sent.
        server.clear();
        QFile::remove(bin_.filePath("calls.log"));
        const Run other =
            dgem({"decide", "-u", server.url(), "--protocol", "chat", "-t", kPolicy}, env);
        QCOMPARE(other.code, 3);
        QVERIFY(gcloudCalls().isEmpty());
        QVERIFY(server.auth() == std::vector<std::string>({""}));

        const Run run = dgem({"config", "-u", "https://dgem-abc-uc.a.run.app/v1"}, env);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains("gcloud identity token") && run.out.contains(".run.app"),
                 qPrintable(run.out));
        const Run plain = dgem({"config", "-u", "https://example.com/v1"}, env);
        QVERIFY2(!plain.out.contains("gcloud"), qPrintable(plain.out));
        // The flag mints for any host, as before.
        const Run flag = dgem({"config", "-u", "https://example.com/v1", "--gcp-auth"}, env);
        QVERIFY2(flag.out.contains("gcloud identity token"), qPrintable(flag.out));
        QVERIFY(gcloudCalls().isEmpty());
        QFile::remove(home_.filePath(".dgem.yaml"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
