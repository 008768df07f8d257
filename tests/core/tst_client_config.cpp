// Client configuration precedence (PROTOCOLS section 7): flag > env > ./.dgem.yaml >
// ~/.config/dgem/config.yaml > defaults, with the source of every value, and bad YAML named.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "core/config/config.h"

class TestClientConfig : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    core::ConfigPaths paths() const {
        return {std::filesystem::path(dir_.path().toStdString()) / "project.yaml",
                std::filesystem::path(dir_.path().toStdString()) / "user.yaml"};
    }
    void write(const char* name, const std::string& text) {
        std::ofstream(std::filesystem::path(dir_.path().toStdString()) / name) << text;
    }
    static core::EnvLookup env(std::map<std::string, std::string> values) {
        return [values](const std::string& k) -> std::optional<std::string> {
            auto it = values.find(k);
            if (it == values.end()) return std::nullopt;
            return it->second;
        };
    }

  private slots:
    void defaults() {
        auto c = core::resolve_client_config({}, env({}), paths());
        QVERIFY(c.ok());
        QCOMPARE(QString::fromStdString(c->url.value), QString("http://127.0.0.1:8080/v1"));
        QCOMPARE(QString::fromStdString(c->url.source), QString("default"));
        QCOMPARE(c->timeout_seconds(), 120.0);
        QVERIFY(!c->stats_enabled());
    }

    void precedence() {
        write("user.yaml", "url: http://user:1/v1\nmodel: user-model\ntimeout: 5s\nstats: true\n");
        write("project.yaml", "# project\nurl: http://project:2/v1\n");
        auto files = core::resolve_client_config({}, env({}), paths());
        QVERIFY(files.ok());
        QCOMPARE(QString::fromStdString(files->url.value), QString("http://project:2/v1"));
        QVERIFY(files->url.source.find("project.yaml:2") != std::string::npos);
        QCOMPARE(QString::fromStdString(files->model.value), QString("user-model"));
        QVERIFY(files->model.source.find("user.yaml:2") != std::string::npos);
        QCOMPARE(files->timeout_seconds(), 5.0);
        QVERIFY(files->stats_enabled());

        auto e = env({{"DGEM_URL", "http://env:3/v1"},
                      {"DGEM_TIMEOUT", "1m"},
                      {"DGEM_TOKEN", "t0k"},
                      {"DGEM_SERVER_KEY", " new , old "}});
        auto withEnv = core::resolve_client_config({}, e, paths());
        QVERIFY(withEnv.ok());
        QCOMPARE(QString::fromStdString(withEnv->url.source), QString("env DGEM_URL"));
        QCOMPARE(withEnv->timeout_seconds(), 60.0);
        QCOMPARE(QString::fromStdString(withEnv->server_key.value), QString("new"));
        QVERIFY(withEnv->token.secret);

        core::ConfigFlags flags;
        flags.url = "http://flag:4/v1";
        flags.timeout = "250ms";
        auto withFlag = core::resolve_client_config(flags, e, paths());
        QVERIFY(withFlag.ok());
        QCOMPARE(QString::fromStdString(withFlag->url.value), QString("http://flag:4/v1"));
        QCOMPARE(QString::fromStdString(withFlag->url.source), QString("flag --url"));
        QCOMPARE(withFlag->timeout_seconds(), 0.25);
        QCOMPARE(QString::fromStdString(core::mask_secret("t0k")).contains("t0k"), false);
    }

    void errorsNameTheFile() {
        write("project.yaml", "url: http://x/v1\nmodel: [unclosed\n");
        auto c = core::resolve_client_config({}, env({}), paths());
        QVERIFY(!c.ok());
        const QString msg = QString::fromStdString(c.error().message);
        QVERIFY2(msg.contains("project.yaml:") && msg.contains("invalid YAML"), qPrintable(msg));
        write("project.yaml", "timeout: soon\n");
        auto t = core::resolve_client_config({}, env({}), paths());
        QVERIFY(!t.ok());
        QVERIFY2(QString::fromStdString(t.error().message).contains("project.yaml:1"),
                 t.error().message.c_str());
        write("project.yaml", "token: abc\nurl: http://p/v1\n");
        auto w = core::resolve_client_config({}, env({}), paths());
        QVERIFY(w.ok());
        QCOMPARE(int(w->warnings.size()), 1);
        QVERIFY(!w->token.is_set() || w->token.value.empty());
        write("project.yaml", "url: ftp://x\n");
        QVERIFY(!core::resolve_client_config({}, env({}), paths()).ok());
    }

    // dgem's other global settings: --iap-client-id, --vertex-url, --http-retries (flag, env,
    // file with '-' or '_'), each with its source, and bad values named.
    void dgemSettings() {
        std::filesystem::remove(paths().user_file);
        write("project.yaml", "iap-client-id: aud-file\nhttp_retries: 4\n");
        auto files = core::resolve_client_config({}, env({}), paths());
        QVERIFY2(files.ok(), files.ok() ? "" : files.error().message.c_str());
        QVERIFY(files->warnings.empty());
        QCOMPARE(QString::fromStdString(files->iap_client_id.value), QString("aud-file"));
        QVERIFY(files->iap_client_id.source.find("project.yaml:1") != std::string::npos);
        QCOMPARE(files->http_retries_count(), 4);
        QVERIFY(files->config_files.value.find("project.yaml") != std::string::npos);
        QCOMPARE(QString::fromStdString(files->config_files.source), QString("default"));

        core::ConfigFlags flags;
        flags.iap_client_id = "aud-flag";
        flags.http_retries = "0";
        auto e = env({{"DGEM_IAP_CLIENT_ID", "aud-env"}, {"DGEM_HTTP_RETRIES", "7"}});
        auto viaEnv = core::resolve_client_config({}, e, paths());
        QVERIFY(viaEnv.ok());
        QCOMPARE(QString::fromStdString(viaEnv->iap_client_id.source),
                 QString("env DGEM_IAP_CLIENT_ID"));
        QCOMPARE(viaEnv->http_retries_count(), 7);
        auto viaFlag = core::resolve_client_config(flags, e, paths());
        QVERIFY(viaFlag.ok());
        QCOMPARE(QString::fromStdString(viaFlag->iap_client_id.value), QString("aud-flag"));
        QCOMPARE(viaFlag->http_retries_count(), 0);
        QCOMPARE(QString::fromStdString(viaFlag->http_retries.source),
                 QString("flag --http-retries"));
        bool listed = false;
        for (const auto& [name, setting] : viaFlag->listing()) listed |= name == "http_retries";
        QVERIFY(listed);
        std::filesystem::remove(paths().project_file);
        QCOMPARE(core::resolve_client_config({}, env({}), paths())->http_retries_count(), 3);

        for (const char* bad : {"x", "-1", "21", "1.5", ""}) {
            core::ConfigFlags f;
            f.http_retries = bad;
            auto r = core::resolve_client_config(f, env({}), paths());
            QVERIFY(!r.ok());
            const QString msg = QString::fromStdString(r.error().message);
            QVERIFY2(msg.contains("--http-retries") && msg.contains("0 to 20"), qPrintable(msg));
        }
        write("project.yaml", "http_retries: lots\n");
        auto badFile = core::resolve_client_config({}, env({}), paths());
        QVERIFY(!badFile.ok());
        QVERIFY2(badFile.error().message.find("project.yaml:1") != std::string::npos,
                 badFile.error().message.c_str());
        std::filesystem::remove(paths().project_file);
    }

    // --config FILE: that file alone; a missing one is an error naming it.
    void explicitConfigFile() {
        const auto dir = std::filesystem::path(dir_.path().toStdString());
        auto missing = core::ConfigPaths::single(dir / "absent.yaml");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().kind, engine::ErrorKind::BadInput);
        QVERIFY2(missing.error().message.find("--config") != std::string::npos &&
                     missing.error().message.find("absent.yaml") != std::string::npos,
                 missing.error().message.c_str());
        QVERIFY(!core::ConfigPaths::single(dir).ok());  // a folder
        write("user.yaml", "url: http://user:1/v1\nmodel: user-model\n");
        write("chosen.yaml", "url: http://chosen:9/v1\n");
        auto single = core::ConfigPaths::single(dir / "chosen.yaml");
        QVERIFY(single.ok());
        auto c = core::resolve_client_config({}, env({}), *single);
        QVERIFY(c.ok());
        QCOMPARE(QString::fromStdString(c->url.value), QString("http://chosen:9/v1"));
        QVERIFY(c->url.source.find("chosen.yaml:1") != std::string::npos);
        QVERIFY(!c->model.is_set());  // the user file is not read
        QCOMPARE(QString::fromStdString(c->config_files.source), QString("flag --config"));
        std::filesystem::remove(paths().user_file);
    }

    void vertexUrl() {
        const auto gcp = env({{"GCP_PROJECT_NUMBER", "123456"}, {"GCP_REGION", "us-central1"}});
        auto id = core::expand_vertex_url("987", gcp, "--vertex-url");
        QVERIFY(id.ok());
        QCOMPARE(QString::fromStdString(*id),
                 QString("https://987.us-central1-123456.prediction.vertexai.goog/v1/projects/"
                         "123456/locations/us-central1/endpoints/987/invoke/v1/chat/completions"));
        auto resource = core::expand_vertex_url(
            "projects/my-proj/locations/us-central1/endpoints/5", gcp, "--vertex-url");
        QVERIFY(resource.ok());
        QCOMPARE(QString::fromStdString(*resource),
                 QString("https://5.us-central1-123456.prediction.vertexai.goog/v1/projects/"
                         "my-proj/locations/us-central1/endpoints/5/invoke/v1/chat/completions"));
        const std::string full =
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/endpoints/"
            "1:rawPredict";
        QCOMPARE(QString::fromStdString(*core::expand_vertex_url(full, env({}), "--vertex-url")),
                 QString::fromStdString(full));
        auto noProject = core::expand_vertex_url("987", env({{"GCP_REGION", "x"}}), "--vertex-url");
        QVERIFY(!noProject.ok());
        QVERIFY2(noProject.error().message.find("GCP_PROJECT_NUMBER") != std::string::npos,
                 noProject.error().message.c_str());
        auto noRegion =
            core::expand_vertex_url("987", env({{"GCP_PROJECT_NUMBER", "1"}}), "--vertex-url");
        QVERIFY(!noRegion.ok());
        QVERIFY(noRegion.error().message.find("GCP_REGION") != std::string::npos);
        for (const char* bad : {"", "http://1.prediction.vertexai.goog/v1", "https://evil.com/v1",
                                "projects/x/endpoints/1", "a b", "../x"})
            QVERIFY2(!core::expand_vertex_url(bad, gcp, "--vertex-url").ok(), bad);

        // Resolved: the expanded endpoint is the URL, and says where it came from.
        core::ConfigFlags flags;
        flags.vertex_url = "987";
        auto c = core::resolve_client_config(flags, gcp, paths());
        QVERIFY(c.ok());
        QCOMPARE(QString::fromStdString(c->url.value), QString::fromStdString(*id));
        QVERIFY(c->url.source.find("--vertex-url") != std::string::npos);
        auto m = core::resolve_client_config(flags, env({}), paths());
        QVERIFY(!m.ok());
        QVERIFY(m.error().message.find("GCP_PROJECT_NUMBER") != std::string::npos);
        flags.url = "http://127.0.0.1:1/v1";
        QVERIFY(!core::resolve_client_config(flags, gcp, paths()).ok());  // both flags
        // A vertex_url from the environment gives way to -u.
        core::ConfigFlags urlOnly;
        urlOnly.url = "http://127.0.0.1:1/v1";
        auto e = env({{"GCP_PROJECT_NUMBER", "1"}, {"GCP_REGION", "r"}, {"DGEM_VERTEX_URL", "9"}});
        auto u = core::resolve_client_config(urlOnly, e, paths());
        QVERIFY(u.ok());
        QCOMPARE(QString::fromStdString(u->url.value), QString("http://127.0.0.1:1/v1"));
        auto v = core::resolve_client_config({}, e, paths());
        QVERIFY(v.ok());
        QVERIFY(v->url.value.find("https://9.r-1.prediction.vertexai.goog/") == 0);
    }

    // gcp_auth from a config file (either spelling) mints only for Google hosts; the flag and
    // DGEM_GCP_AUTH for any.
    void gcpAuthSource() {
        write("project.yaml", "gcp-auth: true\n");
        auto file = core::resolve_client_config({}, env({}), paths());
        QVERIFY(file.ok());
        QVERIFY(file->warnings.empty());
        QVERIFY(file->gcp_auth_enabled());
        QVERIFY(file->gcp_auth_from_file());
        core::ConfigFlags flags;
        flags.gcp_auth = true;
        auto flag = core::resolve_client_config(flags, env({}), paths());
        QVERIFY(flag->gcp_auth_enabled() && !flag->gcp_auth_from_file());
        auto viaEnv = core::resolve_client_config({}, env({{"DGEM_GCP_AUTH", "1"}}), paths());
        QVERIFY(viaEnv->gcp_auth_enabled() && !viaEnv->gcp_auth_from_file());
        std::filesystem::remove(paths().project_file);
        QVERIFY(!core::resolve_client_config({}, env({}), paths())->gcp_auth_from_file());

        QVERIFY(core::is_cloud_run_url("https://dgem-abc-uc.a.run.app/v1"));
        QVERIFY(core::is_cloud_run_url("https://svc.run.app:443"));
        QVERIFY(!core::is_cloud_run_url("https://run.app.evil.com/v1"));
        QVERIFY(!core::is_cloud_run_url("http://127.0.0.1:8080/v1?x=.run.app"));
    }

    void durations() {
        QCOMPARE(core::parse_duration_seconds("30").value_or(-1), 30.0);
        QCOMPARE(core::parse_duration_seconds("1m30s").value_or(-1), 90.0);
        QVERIFY(!core::parse_duration_seconds("soon"));
        QVERIFY(!core::parse_duration_seconds("-1s"));
    }
};

QTEST_GUILESS_MAIN(TestClientConfig)
#include "tst_client_config.moc"
