// Trust, proxies and mutual TLS of the remote clients (core/net/tls.h, core/net/proxy.h,
// core::configure_network) and TLS on `dgem serve`, all on loopback with real servers: a test CA,
// server and client certificates made by the openssl command in a folder of the build tree
// (nothing private is checked in); HTTPS servers of the test's own (cpp-httplib's SSLServer, one
// requiring client certificates, one whose certificate names another host); Debian's tinyproxy,
// started on a free port with its own configuration and log, whose log must show the CONNECT;
// and the real `dgem serve --tls-cert/--tls-key/--tls-client-ca` reached by `dgem health`.

#include <QtTest>

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QTcpSocket>

#include <map>
#include <memory>
#include <string>
#include <thread>

#include "core/endpoints/backend_factory.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/endpoints/failover_backend.h"
#include "core/net/http_client.h"
#include "core/net/keychain.h"
#include "core/net/proxy.h"
#include "core/net/tls.h"
#include "serve_process.h"

namespace {

core::EnvLookup env_of(std::map<std::string, std::string> values) {
    return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
        auto it = values.find(name);
        if (it == values.end()) return std::nullopt;
        return it->second;
    };
}

// An HTTPS server answering GET /health, on a free port of `host`.
struct TlsServer {
    std::unique_ptr<httplib::SSLServer> server;
    std::thread thread;
    int port = 0;

    TlsServer(const std::string& host, const std::string& cert, const std::string& key,
              const char* client_ca = nullptr)
        : server(std::make_unique<httplib::SSLServer>(cert.c_str(), key.c_str(), client_ca)) {
        server->Get("/health", [](const httplib::Request&, httplib::Response& res) {
            res.set_content("{\"status\":\"ok\"}", "application/json");
        });
        server->set_keep_alive_timeout(1);
        server->set_keep_alive_max_count(1);  // a connection per request: each one CONNECTs anew
        port = server->bind_to_any_port(host);
        thread = std::thread([this] { server->listen_after_bind(); });
        for (int i = 0; i < 5000 && !server->is_running(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~TlsServer() {
        server->stop();
        thread.join();
    }
};

// A loopback port nobody listens on now (bound to port 0, read back, closed).
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

// A server stand-in for FailoverBackend: counts its decisions, and each waits until `gate`
// reaches `wait_for` (so two calls in flight at once can be told apart from two in a row).
struct CountingBackend : core::Backend {
    std::atomic<int> decisions{0};
    std::atomic<int>* gate = nullptr;
    int wait_for = 0;
    engine::Error failure{engine::ErrorKind::Remote, "", engine::Cause::None};
    bool fails = false;

    std::string describe() const override { return "counting"; }
    engine::Result<core::Decision> decide(const core::DecideRequest&, const core::ProgressFn&,
                                          const core::CancelToken&) override {
        ++decisions;
        if (fails) return failure;
        if (gate) {
            ++*gate;
            for (int i = 0; i < 1000 && gate->load() < wait_for; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return core::Decision{};
    }
    engine::Result<core::Generation> generate(const core::GenerateRequest&, const core::ProgressFn&,
                                              const core::CancelToken&) override {
        return engine::bad_input("no generation here");
    }
    engine::Result<core::HealthInfo> health(const core::CancelToken&) override {
        return core::HealthInfo{};
    }
};

}  // namespace

class TestNetwork : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<TlsServer> https_, mutual_, wrong_name_, expired_;
    QProcess proxy_;
    int proxy_port_ = 0;
    int serve_port_ = 0;  // dgem serve's, reserved so the proxy can tunnel to it
    QString proxy_log_;

    std::string file(const char* name) const { return (dir_->path() + "/" + name).toStdString(); }
    std::string health(int port, const char* host = "127.0.0.1") const {
        return "https://" + std::string(host) + ":" + std::to_string(port) + "/health";
    }
    std::string proxy_url(bool with_password = true) const {
        return std::string("http://alice") + (with_password ? ":s3cret" : "") +
               "@127.0.0.1:" + std::to_string(proxy_port_);
    }

    static bool run(const QString& program, const QStringList& args, const QString& cwd) {
        QProcess p;
        p.setWorkingDirectory(cwd);
        p.start(program, args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning() << program << args << p.readAllStandardError();
            return false;
        }
        return true;
    }

    // A CA, and server and client certificates it signs (EC P-256, valid two days), a server
    // certificate naming another host and one that has expired.
    bool make_certificates() {
        const QString d = dir_->path();
        const QString openssl = QStandardPaths::findExecutable("openssl");
        const QStringList ec = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                "-nodes"};
        auto write = [&](const char* name, const QByteArray& text) {
            QFile f(d + "/" + name);
            return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
        };
        if (!write("server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\n") ||
            !write("other.ext", "subjectAltName=DNS:elsewhere.test\n") ||
            !write("client.ext", "extendedKeyUsage=clientAuth\n"))
            return false;
        if (!run(openssl,
                 QStringList{"req", "-x509"} + ec +
                     QStringList{"-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj",
                                 "/CN=dgem test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                                 "-addext", "keyUsage=critical,keyCertSign,cRLSign"},
                 d))
            return false;
        for (const char* who : {"server", "other", "client"}) {
            const QString n = who;
            if (!run(openssl,
                     QStringList{"req"} + ec +
                         QStringList{"-keyout", n + ".key", "-out", n + ".csr", "-subj",
                                     "/CN=dgem test " + n},
                     d) ||
                !run(openssl,
                     {"x509", "-req", "-in", n + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                      "-CAcreateserial", "-out", n + ".pem", "-days", "2", "-extfile", n + ".ext"},
                     d))
                return false;
        }
        // One that expired in 2020, signed with `openssl ca` (x509 -req cannot back-date).
        if (!write("ca.cnf",
                   "[ca]\ndefault_ca=test\n[test]\ndatabase=index.txt\n"
                   "new_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=any\n"
                   "[any]\ncommonName=supplied\n[ext]\nsubjectAltName=IP:127.0.0.1\n") ||
            !write("index.txt", "") || !write("serial", "01\n"))
            return false;
        return run(openssl,
                   {"ca", "-batch", "-config", "ca.cnf", "-startdate", "20200101000000Z",
                    "-enddate", "20200102000000Z", "-extensions", "ext", "-in", "server.csr",
                    "-out", "expired.pem", "-keyfile", "ca.key", "-cert", "ca.pem", "-notext"},
                   d);
    }

    // tinyproxy on a free loopback port: basic auth alice:s3cret, CONNECT only to the port of
    // the main HTTPS server (and dgem serve's, when given), its log in the test folder.
    bool start_proxy(const QList<int>& connect_ports) {
        const QString tinyproxy = QStandardPaths::findExecutable("tinyproxy");
        proxy_port_ = free_port();
        proxy_log_ = dir_->path() + "/tinyproxy.log";
        QString conf = QString(
                           "Port %1\nListen 127.0.0.1\nTimeout 30\nLogFile \"%2\"\n"
                           "LogLevel Info\nPidFile \"%3\"\nMaxClients 20\nAllow 127.0.0.1\n"
                           "BasicAuth alice s3cret\n")
                           .arg(proxy_port_)
                           .arg(proxy_log_, dir_->path() + "/tinyproxy.pid");
        for (int p : connect_ports) conf += QString("ConnectPort %1\n").arg(p);
        QFile f(dir_->path() + "/tinyproxy.conf");
        if (!f.open(QIODevice::WriteOnly) || f.write(conf.toUtf8()) <= 0) return false;
        f.close();
        proxy_.start(tinyproxy, {"-d", "-c", f.fileName()});
        if (!proxy_.waitForStarted()) return false;
        for (int i = 0; i < 100; ++i) {  // listening once it accepts a connection
            QTcpSocket probe;
            probe.connectToHost(QHostAddress::LocalHost, quint16(proxy_port_));
            if (probe.waitForConnected(200)) return true;
            QThread::msleep(50);
        }
        qWarning() << "tinyproxy did not start:" << proxy_.readAllStandardError()
                   << proxy_.readAllStandardOutput() << proxy_log();
        return false;
    }

    QByteArray proxy_log() const {
        QFile log(proxy_log_);
        return log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
    }

    core::HttpTransport transport(std::map<std::string, std::string> env,
                                  const core::EndpointNetwork& endpoint = {}) {
        core::TransportOptions options;
        options.timeout_s = 20;
        options.max_retries = 0;
        auto ok = core::configure_network(options, env_of(std::move(env)), endpoint);
        if (!ok) qWarning() << ok.error().message.c_str();
        return core::HttpTransport(options);
    }

  private Q_SLOTS:
    void initTestCase() {
        if (QStandardPaths::findExecutable("openssl").isEmpty())
            QSKIP("the openssl command is not installed (scripts/setup-debian.sh installs it)");
        if (QStandardPaths::findExecutable("tinyproxy").isEmpty())
            QSKIP("tinyproxy is not installed (scripts/setup-debian.sh installs it)");
        QDir().mkpath(DS_BINARY_DIR "/tests");
        dir_ = std::make_unique<QTemporaryDir>(DS_BINARY_DIR "/tests/network-XXXXXX");
        QVERIFY(dir_->isValid());
        QVERIFY(make_certificates());
        https_ = std::make_unique<TlsServer>("127.0.0.1", file("server.pem"), file("server.key"));
        mutual_ = std::make_unique<TlsServer>("127.0.0.1", file("server.pem"), file("server.key"),
                                              file("ca.pem").c_str());
        wrong_name_ =
            std::make_unique<TlsServer>("127.0.0.1", file("other.pem"), file("other.key"));
        expired_ =
            std::make_unique<TlsServer>("127.0.0.1", file("expired.pem"), file("server.key"));
        QVERIFY(https_->port > 0 && mutual_->port > 0 && wrong_name_->port > 0 &&
                expired_->port > 0);
        serve_port_ = free_port();
        QVERIFY(start_proxy({https_->port, mutual_->port, serve_port_}));
    }

    void cleanupTestCase() {
        if (proxy_.state() != QProcess::NotRunning) {
            proxy_.terminate();
            if (!proxy_.waitForFinished(5000)) proxy_.kill();
        }
        https_.reset();
        mutual_.reset();
        wrong_name_.reset();
        expired_.reset();
    }

    void refusedWithoutTheCa() {
        auto r = transport({}).get(health(https_->port), {});
        QVERIFY(!r);
        const std::string m = r.error().message;
        QVERIFY2(m.find("127.0.0.1") != std::string::npos, m.c_str());
        QVERIFY2(m.find("unknown certificate authority") != std::string::npos, m.c_str());
    }

    void acceptedWithSslCertFile() {
        auto r = transport({{"SSL_CERT_FILE", file("ca.pem")}}).get(health(https_->port), {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->status, 200);
        QCOMPARE(r->body, std::string("{\"status\":\"ok\"}"));
    }

    void acceptedWithSslCertDir() {
        const QString certs = dir_->path() + "/certs";
        QVERIFY(QDir().mkpath(certs));
        QVERIFY(QFile::copy(dir_->path() + "/ca.pem", certs + "/company-ca.pem"));
        auto r = transport({{"SSL_CERT_DIR", certs.toStdString()}}).get(health(https_->port), {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->status, 200);
    }

    // The profile's CA file, through the same path the Studio builds its backends on.
    void acceptedWithTheProfilesCaFile() {
        core::EndpointProfile profile;
        profile.name = "corp";
        profile.kind = core::EndpointKind::DgemChat;
        profile.url = "https://127.0.0.1:" + std::to_string(https_->port) + "/v1";
        auto refused = core::backend_spec(profile, {}, env_of({}));
        QVERIFY(refused);
        auto transport_of = [](const core::BackendSpec& spec) {
            return core::HttpTransport(std::get<core::RemoteSpec>(spec.where).options.transport);
        };
        QVERIFY(!transport_of(*refused).get(health(https_->port), {}));
        profile.ca_file = file("ca.pem");
        auto spec = core::backend_spec(profile, {}, env_of({}));
        QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
        auto r = transport_of(*spec).get(health(https_->port), {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->status, 200);
    }

    void nameMismatchIsNamed() {
        auto r = transport({{"SSL_CERT_FILE", file("ca.pem")}}).get(health(wrong_name_->port), {});
        QVERIFY(!r);
        const std::string m = r.error().message;
        QVERIFY2(m.find("does not name 127.0.0.1 (name mismatch)") != std::string::npos, m.c_str());
    }

    void expiredIsNamed() {
        auto r = transport({{"SSL_CERT_FILE", file("ca.pem")}}).get(health(expired_->port), {});
        QVERIFY(!r);
        const std::string m = r.error().message;
        QVERIFY2(m.find("the TLS certificate of 127.0.0.1 has expired") != std::string::npos,
                 m.c_str());
    }

    void throughTheProxyWithConnect() {
        const std::string target = "CONNECT 127.0.0.1:" + std::to_string(https_->port);
        const auto before = proxy_log().count(target.c_str());
        auto r = transport({{"SSL_CERT_FILE", file("ca.pem")}, {"HTTPS_PROXY", proxy_url()}})
                     .get(health(https_->port), {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->status, 200);
        QVERIFY2(proxy_log().count(target.c_str()) > before, proxy_log().constData());
        const auto after_first = proxy_log().count(target.c_str());
        // Lower case, as curl reads it, with the CA from the profile's side.
        core::EndpointNetwork endpoint;
        endpoint.ca_file = {file("ca.pem"), "the profile"};
        auto lower =
            transport({{"https_proxy", proxy_url()}}, endpoint).get(health(https_->port), {});
        QVERIFY2(lower, lower ? "" : lower.error().message.c_str());
        QVERIFY(proxy_log().count(target.c_str()) > after_first);
    }

    // http:// URLs go to HTTP_PROXY in absolute form (no tunnel), with the proxy's credentials.
    void plainHttpThroughTheProxy() {
        httplib::Server plain;
        plain.Get("/health", [](const httplib::Request&, httplib::Response& res) {
            res.set_content("{\"status\":\"plain\"}", "application/json");
        });
        const int port = plain.bind_to_any_port("127.0.0.1");
        std::thread serving([&] { plain.listen_after_bind(); });
        for (int i = 0; i < 5000 && !plain.is_running(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/health";
        auto r = transport({{"http_proxy", proxy_url()}}).get(url, {});
        plain.stop();
        serving.join();
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->body, std::string("{\"status\":\"plain\"}"));
        QVERIFY2(proxy_log().contains(("GET " + url).c_str()), proxy_log().constData());
    }

    void noProxyGoesDirect() {
        const std::string target = "CONNECT 127.0.0.1:" + std::to_string(https_->port);
        const auto before = proxy_log().count(target.c_str());
        for (const std::string& no_proxy :
             std::vector<std::string>{"127.0.0.1", "example.com, 127.0.0.0/8", "*",
                                      "127.0.0.1:" + std::to_string(https_->port)}) {
            auto r = transport({{"SSL_CERT_FILE", file("ca.pem")},
                                {"HTTPS_PROXY", proxy_url()},
                                {"NO_PROXY", no_proxy}})
                         .get(health(https_->port), {});
            QVERIFY2(r, r ? "" : r.error().message.c_str());
            QCOMPARE(r->status, 200);
        }
        QCOMPARE(proxy_log().count(target.c_str()), before);
        // A NO_PROXY entry for another port does not apply.
        auto r = transport({{"SSL_CERT_FILE", file("ca.pem")},
                            {"HTTPS_PROXY", proxy_url()},
                            {"NO_PROXY", "127.0.0.1:1"}})
                     .get(health(https_->port), {});
        QVERIFY(r);
        QVERIFY(proxy_log().count(target.c_str()) > before);
    }

    void proxyFailuresAreNamed() {
        // No password: the proxy answers 407.
        auto auth =
            transport({{"SSL_CERT_FILE", file("ca.pem")}, {"HTTPS_PROXY", proxy_url(false)}})
                .get(health(https_->port), {});
        QVERIFY(!auth);
        QVERIFY2(
            auth.error().message.find("requires authentication (HTTP 407)") != std::string::npos,
            auth.error().message.c_str());
        QVERIFY(auth.error().message.find("HTTPS_PROXY") != std::string::npos);
        // A port the proxy does not tunnel to.
        auto refused = transport({{"SSL_CERT_FILE", file("ca.pem")}, {"HTTPS_PROXY", proxy_url()}})
                           .get(health(wrong_name_->port), {});
        QVERIFY(!refused);
        QVERIFY2(
            refused.error().message.find("refused the tunnel to 127.0.0.1:" +
                                         std::to_string(wrong_name_->port)) != std::string::npos,
            refused.error().message.c_str());
        QVERIFY(refused.error().message.find("s3cret") == std::string::npos);
        // Nothing listening where the proxy should be.
        const std::string closed = "http://127.0.0.1:" + std::to_string(free_port());
        auto down = transport({{"HTTPS_PROXY", closed}}).get(health(https_->port), {});
        QVERIFY(!down);
        QVERIFY2(down.error().message.find("could not connect to the proxy " + closed) !=
                     std::string::npos,
                 down.error().message.c_str());
    }

    // A profile's proxy names its user; the password comes from the keychain, never settings.
    void profileProxyPasswordFromTheKeychain() {
        core::EndpointProfile profile;
        profile.name = "behind the proxy";
        profile.kind = core::EndpointKind::DgemChat;
        profile.url = "https://127.0.0.1:" + std::to_string(https_->port) + "/v1";
        profile.ca_file = file("ca.pem");
        profile.proxy = proxy_url(false);
        auto proxy = core::parse_proxy_url(profile.proxy, "proxy");
        QVERIFY(proxy);
        const std::string key = core::proxy_keychain_key(*proxy);
        QCOMPARE(key, "proxy:http://alice@127.0.0.1:" + std::to_string(proxy_port_));
        if (!core::keychain_write(key, "s3cret"))
            QSKIP("no keychain here (ctest runs this under scripts/with-keyring.sh)");
        auto secrets = core::read_profile_secrets(profile, env_of({}));
        (void)core::keychain_delete(key);
        QVERIFY2(secrets, secrets ? "" : secrets.error().message.c_str());
        QCOMPARE(secrets->proxy_password, std::string("s3cret"));
        auto spec = core::backend_spec(profile, *secrets, env_of({}));
        QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
        const std::string target = "CONNECT 127.0.0.1:" + std::to_string(https_->port);
        const auto before = proxy_log().count(target.c_str());
        core::HttpTransport t(std::get<core::RemoteSpec>(spec->where).options.transport);
        auto r = t.get(health(https_->port), {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->status, 200);
        QVERIFY(proxy_log().count(target.c_str()) > before);
        // Saved settings keep the user, never a password typed into the URL.
        QSettings settings(dir_->path() + "/profiles.ini", QSettings::IniFormat);
        core::EndpointProfileStore store;
        profile.proxy = proxy_url(true);
        store.profiles = {profile};
        store.save(settings);
        settings.sync();
        QFile ini(dir_->path() + "/profiles.ini");
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray text = ini.readAll();
        QVERIFY(!text.contains("s3cret"));
        QVERIFY2(text.contains("alice@127.0.0.1"), text.constData());
    }

    void mutualTls() {
        core::EndpointNetwork with_cert;
        with_cert.ca_file = {file("ca.pem"), "the profile"};
        with_cert.client_cert = {file("client.pem"), "the profile"};
        with_cert.client_key = {file("client.key"), "the profile"};
        auto r = transport({}, with_cert).get(health(mutual_->port), {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->status, 200);
        // Through the proxy as well.
        auto proxied =
            transport({{"HTTPS_PROXY", proxy_url()}}, with_cert).get(health(mutual_->port), {});
        QVERIFY2(proxied, proxied ? "" : proxied.error().message.c_str());

        core::EndpointNetwork without;
        without.ca_file = with_cert.ca_file;
        auto refused = transport({}, without).get(health(mutual_->port), {});
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("requires a client certificate") != std::string::npos,
                 refused.error().message.c_str());
    }

    void badInputIsNamed() {
        core::TransportOptions options;
        auto fails = [&](std::map<std::string, std::string> env, const core::EndpointNetwork& n) {
            auto r = core::configure_network(options, env_of(std::move(env)), n);
            return r ? std::string() : r.error().message;
        };
        std::string m = fails({{"SSL_CERT_FILE", file("missing.pem")}}, {});
        QVERIFY2(m.find("missing.pem (SSL_CERT_FILE) does not exist") != std::string::npos,
                 m.c_str());
        m = fails({{"SSL_CERT_FILE", file("server.key")}}, {});
        QVERIFY2(m.find("holds no PEM certificate") != std::string::npos, m.c_str());
        core::EndpointNetwork mismatch;
        mismatch.client_cert = {file("client.pem"), "--client-cert"};
        mismatch.client_key = {file("server.key"), "--client-key"};
        m = fails({}, mismatch);
        QVERIFY2(m.find("server.key (--client-key) does not belong to the certificate") !=
                     std::string::npos,
                 m.c_str());
        core::EndpointNetwork half;
        half.client_cert = {file("client.pem"), "--client-cert"};
        m = fails({}, half);
        QVERIFY2(m.find("needs its private key") != std::string::npos, m.c_str());
        m = fails({{"HTTPS_PROXY", "http://bob:hunter2@proxy.corp:99999"}}, {});
        QVERIFY2(m.find("HTTPS_PROXY=http://bob:***@proxy.corp:99999") != std::string::npos,
                 m.c_str());
        QVERIFY(m.find("hunter2") == std::string::npos);
        m = fails({{"http_proxy", "socks5://proxy.corp:1080"}}, {});
        QVERIFY2(
            m.find("http_proxy=") != std::string::npos && m.find("socks5") != std::string::npos,
            m.c_str());
    }

    void noProxyRules() {
        QVERIFY(core::no_proxy_matches("corp.internal", "decisions.corp.internal", 443));
        QVERIFY(core::no_proxy_matches(".corp.internal", "corp.internal", 443));
        QVERIFY(core::no_proxy_matches("*.corp.internal", "a.b.corp.internal", 80));
        QVERIFY(!core::no_proxy_matches("corp.internal", "notcorp.internal", 443));
        QVERIFY(core::no_proxy_matches("localhost,10.0.0.0/8", "10.1.2.3", 80));
        QVERIFY(!core::no_proxy_matches("10.0.0.0/8", "11.1.2.3", 80));
        QVERIFY(core::no_proxy_matches("[::1]:8080", "::1", 8080));
        QVERIFY(!core::no_proxy_matches("[::1]:8080", "::1", 8081));
        QVERIFY(core::no_proxy_matches("fd00::/8", "[fd12::1]", 80));
        QVERIFY(core::no_proxy_matches("host.corp:8443", "HOST.corp.", 8443));
        QVERIFY(!core::no_proxy_matches("host.corp:8443", "host.corp", 443));
        QVERIFY(!core::no_proxy_matches("", "host.corp", 443));
        auto proxy = core::parse_proxy_url("proxy.corp:3128", "HTTPS_PROXY");
        QVERIFY(proxy);
        QCOMPARE(proxy->host, std::string("proxy.corp"));
        QCOMPARE(proxy->port, 3128);
        proxy = core::parse_proxy_url("http://a%40b:p%3Ass@[fd00::1]/", "HTTP_PROXY");
        QVERIFY(proxy);
        QCOMPARE(proxy->user, std::string("a@b"));
        QCOMPARE(proxy->password, std::string("p:ss"));
        QCOMPARE(proxy->display(), std::string("http://a@b@[fd00::1]:80"));
    }

    // One caller at a time: always the first server; it failing over to the second, and staying
    // passed over; two callers at once: one on each server.
    void failoverAndSpreading() {
        auto first = std::make_shared<CountingBackend>();
        auto second = std::make_shared<CountingBackend>();
        core::FailoverBackend both({{"http://a/v1", first}, {"http://b/v1", second}});
        for (int i = 0; i < 3; ++i) QVERIFY(both.decide({}, {}, {}));
        QCOMPARE(first->decisions.load(), 3);
        QCOMPARE(second->decisions.load(), 0);
        first->fails = true;
        QVERIFY(both.decide({}, {}, {}));
        QVERIFY(both.decide({}, {}, {}));
        QCOMPARE(first->decisions.load(), 4);  // passed over after its failure
        QCOMPARE(second->decisions.load(), 2);
        // A failure another server would repeat (a 4xx) is the answer itself.
        second->fails = true;
        second->failure = {engine::ErrorKind::Remote, "HTTP 400", engine::Cause::Refused};
        auto refused = both.decide({}, {}, {});
        QVERIFY(!refused);
        QCOMPARE(refused.error().message, std::string("HTTP 400"));

        auto a = std::make_shared<CountingBackend>();
        auto b = std::make_shared<CountingBackend>();
        std::atomic<int> gate{0};
        a->gate = b->gate = &gate;
        a->wait_for = b->wait_for = 2;
        core::FailoverBackend spread({{"http://a/v1", a}, {"http://b/v1", b}});
        std::thread other([&] { (void)spread.decide({}, {}, {}); });
        QVERIFY(spread.decide({}, {}, {}));
        other.join();
        QCOMPARE(a->decisions.load(), 1);
        QCOMPARE(b->decisions.load(), 1);
    }

    // Two real dgem serve: `dgem decide -u FIRST,SECOND` decides on the first; once it stops, on
    // the second.
    void failoverToTheSecondServer() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "API_KEY",
                              "DGEM_SERVER_KEY", "DGEM_URL", "DGEM_TOKEN"})
            env.remove(v);
        QProcess one, two;
        const QString p1 = start_dgem_serve(one, env), p2 = start_dgem_serve(two, env);
        QVERIFY(!p1.isEmpty() && !p2.isEmpty());
        const QString urls = "http://127.0.0.1:" + p1 + "/v1,http://127.0.0.1:" + p2 + "/v1";
        auto decide = [&]() {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(DS_BIN_DIR "/dgem",
                    {"decide", "-u", urls, "--protocol", "chat", "-t",
                     DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl", "-v",
                     "ticket=I was charged twice this month", "-f", "json"});
            p.waitForFinished(300000);
            return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput() +
                                                             p.readAllStandardError())};
        };
        {
            QProcess h;
            h.setProcessEnvironment(env);
            h.start(DS_BIN_DIR "/dgem", {"health", "-u", urls});
            QVERIFY(h.waitForFinished(120000));
            const QString out = QString::fromUtf8(h.readAllStandardOutput());
            QVERIFY2(h.exitCode() == 0 && out.contains(p1) && out.contains(p2), qPrintable(out));
        }
        auto [c1, out1] = decide();
        QVERIFY2(c1 == 0, qPrintable(out1));
        QVERIFY(out1.contains("\"answers\""));
        one.waitForReadyRead(1000);
        QVERIFY(one.readAllStandardError().contains("POST /v1/chat/completions 200"));
        QVERIFY(!two.readAllStandardError().contains("POST /v1/chat/completions"));
        one.terminate();
        QVERIFY(one.waitForFinished(60000));
        auto [c2, out2] = decide();
        QVERIFY2(c2 == 0, qPrintable(out2));
        QVERIFY(out2.contains("\"answers\""));
        two.waitForReadyRead(1000);
        QVERIFY(two.readAllStandardError().contains("POST /v1/chat/completions 200"));
        two.terminate();
        QVERIFY(two.waitForFinished(60000));
        auto [c3, out3] = decide();
        QVERIFY(c3 != 0);
        QVERIFY2(out3.contains("all 2 servers failed") && out3.contains("could not connect"),
                 qPrintable(out3));
    }

    // dgem serve with TLS and client certificates, reached by the real `dgem health` directly
    // and through the proxy; a bad certificate or key is refused with the file named.
    void dgemServeTls() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY",
                              "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "API_KEY",
                              "DGEM_SERVER_KEY", "DGEM_URL", "DGEM_TOKEN"})
            env.remove(v);
        QProcess serve;
        const QString d = dir_->path();
        const QString port = start_dgem_serve(serve, env,
                                              {"--tls-cert", d + "/server.pem", "--tls-key",
                                               d + "/server.key", "--tls-client-ca", d + "/ca.pem"},
                                              QString::number(serve_port_));
        QVERIFY2(!port.isEmpty(), serve.readAllStandardError().constData());
        const QString url = "https://127.0.0.1:" + port + "/v1";
        auto health = [&](const QStringList& extra, const QProcessEnvironment& e) {
            QProcess p;
            p.setProcessEnvironment(e);
            p.start(DS_BIN_DIR "/dgem", QStringList{"health", "-u", url} + extra);
            p.waitForFinished(120000);
            return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput() +
                                                             p.readAllStandardError())};
        };
        const QStringList client = {"--client-cert", d + "/client.pem", "--client-key",
                                    d + "/client.key"};
        auto [code, out] = health(QStringList{"--ca-file", d + "/ca.pem"} + client, env);
        QVERIFY2(code == 0, qPrintable(out));
        QVERIFY2(out.contains("ready"), qPrintable(out));
        // The same through the proxy, its password in the variable and nowhere in the output.
        const std::string target = "CONNECT 127.0.0.1:" + std::to_string(serve_port_);
        const auto before = proxy_log().count(target.c_str());
        QProcessEnvironment proxied = env;
        proxied.insert("HTTPS_PROXY", QString::fromStdString(proxy_url()));
        auto [via, via_out] = health(QStringList{"--ca-file", d + "/ca.pem"} + client, proxied);
        QVERIFY2(via == 0, qPrintable(via_out));
        QVERIFY(proxy_log().count(target.c_str()) > before);
        QVERIFY(!via_out.contains("s3cret"));
        // --proxy names the user; `dgem auth set --proxy` keeps the password in the keychain.
        const QString user_proxy = QString::fromStdString(proxy_url(false));
        QProcess auth;
        auth.setProcessEnvironment(env);
        auth.start(DS_BIN_DIR "/dgem", {"auth", "set", "--proxy", user_proxy, "--token", "s3cret"});
        QVERIFY(auth.waitForFinished(60000));
        if (auth.exitCode() == 0) {
            const auto before_keychain = proxy_log().count(target.c_str());
            auto [kc, kc_out] = health(
                QStringList{"--ca-file", d + "/ca.pem", "--proxy", user_proxy} + client, env);
            QVERIFY2(kc == 0, qPrintable(kc_out));
            QVERIFY(proxy_log().count(target.c_str()) > before_keychain);
            QProcess forget;
            forget.setProcessEnvironment(env);
            forget.start(DS_BIN_DIR "/dgem", {"auth", "delete", "--proxy", user_proxy});
            QVERIFY(forget.waitForFinished(60000));
            auto [no_pw, no_pw_out] = health(
                QStringList{"--ca-file", d + "/ca.pem", "--proxy", user_proxy} + client, env);
            QVERIFY(no_pw != 0);
            QVERIFY2(no_pw_out.contains("requires authentication (HTTP 407)"),
                     qPrintable(no_pw_out));
        } else {
            qWarning("no keychain for dgem auth here; --proxy with a keychain password not run");
        }
        QProcessEnvironment with_ca = env;
        with_ca.insert("SSL_CERT_FILE", d + "/ca.pem");
        auto [no_cert, why] = health({}, with_ca);
        QVERIFY(no_cert != 0);
        QVERIFY2(why.contains("requires a client certificate"), qPrintable(why));
        auto [no_ca, unknown] = health(client, env);
        QVERIFY(no_ca != 0);
        QVERIFY2(unknown.contains("unknown certificate authority"), qPrintable(unknown));
        serve.terminate();
        QVERIFY(serve.waitForFinished(60000));

        auto refused = [&](const QStringList& args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(DS_BIN_DIR "/dgem", QStringList{"serve", "--model", DS_TINY_MODEL_DIR,
                                                    "--device", "cpu", "--port", "0"} +
                                            args);
            p.waitForFinished(120000);
            return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
        };
        auto [c1, e1] = refused({"--tls-cert", d + "/nope.pem", "--tls-key", d + "/server.key"});
        QCOMPARE(c1, 2);
        QVERIFY2(e1.contains(d + "/nope.pem (--tls-cert) does not exist"), qPrintable(e1));
        auto [c2, e2] = refused({"--tls-cert", d + "/server.pem", "--tls-key", d + "/client.key"});
        QCOMPARE(c2, 2);
        QVERIFY2(e2.contains("client.key (--tls-key) does not belong to the certificate"),
                 qPrintable(e2));
        auto [c3, e3] = refused({"--tls-cert", d + "/server.pem"});
        QCOMPARE(c3, 2);
        QVERIFY2(e3.contains("--tls-cert needs --tls-key"), qPrintable(e3));
        auto [c4, e4] = refused({"--tls-cert", d + "/server.pem", "--tls-key", d + "/server.key",
                                 "--tls-client-ca", d + "/server.key"});
        QCOMPARE(c4, 2);
        QVERIFY2(e4.contains("server.key (--tls-client-ca) holds no PEM certificate"),
                 qPrintable(e4));
    }
};

QTEST_GUILESS_MAIN(TestNetwork)
#include "tst_network.moc"
