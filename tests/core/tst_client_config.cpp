// Client configuration precedence (PROTOCOLS section 7): flag > env > ./.dgem.yaml >
// ~/.config/dgem/config.yaml > defaults, with the source of every value, and bad YAML named.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "core/config.h"

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

    void durations() {
        QCOMPARE(core::parse_duration_seconds("30").value_or(-1), 30.0);
        QCOMPARE(core::parse_duration_seconds("1m30s").value_or(-1), 90.0);
        QVERIFY(!core::parse_duration_seconds("soon"));
        QVERIFY(!core::parse_duration_seconds("-1s"));
    }
};

QTEST_GUILESS_MAIN(TestClientConfig)
#include "tst_client_config.moc"
