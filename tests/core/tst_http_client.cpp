// core::HttpTransport, the remote backends' blocking client, against a real loopback server of
// the test's own: the whole-request deadline and cancellation end a request the server is still
// sitting on (the socket is closed under the blocked read), a 2xx body streams to the callback as
// it arrives, one connection carries many requests, and a refused port is a clear error.

#include <QtTest>

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "base/time.h"
#include "core/net/http_client.h"

namespace {

using base::ms_since;

}  // namespace

class TestHttpClient : public QObject {
    Q_OBJECT

    httplib::Server server_;
    std::thread thread_;
    int port_ = 0;
    std::atomic<int> connections_{0};
    std::atomic<bool> release_{false};

    std::string url(const std::string& path) const {
        return "http://127.0.0.1:" + std::to_string(port_) + path;
    }

  private Q_SLOTS:
    void initTestCase() {
        server_.Get("/slow", [this](const httplib::Request&, httplib::Response& r) {
            // Holds the reply until the test lets go (or 10 s pass).
            for (int i = 0; i < 1000 && !release_; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            r.set_content("{\"late\":true}", "application/json");
        });
        server_.Get("/stream", [](const httplib::Request&, httplib::Response& r) {
            r.set_chunked_content_provider(
                "text/event-stream", [](size_t offset, httplib::DataSink& sink) {
                    if (offset >= 3 * 7) {
                        sink.done();
                        return true;
                    }
                    sink.write("data: x", 7);
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                    return true;
                });
        });
        server_.Post("/echo", [](const httplib::Request& q, httplib::Response& r) {
            r.set_header("Server-Timing", "decide;dur=1.5");
            r.set_content(q.body + "|" + q.get_header_value("Authorization"), "application/json");
        });
        server_.set_keep_alive_timeout(1);  // stop() waits for idle keep-alive connections
        port_ = server_.bind_to_any_port("127.0.0.1");
        QVERIFY(port_ > 0);
        thread_ = std::thread([this] { server_.listen_after_bind(); });
    }

    void cleanupTestCase() {
        release_ = true;
        server_.stop();
        if (thread_.joinable()) thread_.join();
    }

    // A reply later than the deadline: the call returns at the deadline, naming it.
    void deadlineEndsABlockedRead() {
        core::TransportOptions o;
        o.timeout_s = 0.3;
        o.max_retries = 0;
        core::HttpTransport http(o);
        engine::CancelToken cancel;
        const auto t0 = std::chrono::steady_clock::now();
        auto r = http.get(url("/slow"), cancel);
        const double ms = ms_since(t0);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("no reply within 0.3 s") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY2(ms >= 250 && ms < 3000, qPrintable(QString::number(ms)));
    }

    // Cancelling from another thread while the server sits on the request.
    void cancelEndsABlockedRead() {
        core::HttpTransport http;
        engine::CancelToken cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel.cancel();
        });
        const auto t0 = std::chrono::steady_clock::now();
        auto r = http.get(url("/slow"), cancel);
        const double ms = ms_since(t0);
        canceller.join();
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::Cancelled);
        QVERIFY2(ms < 3000, qPrintable(QString::number(ms)));
        // The thread's connection was closed under the read; the next request reconnects.
        auto after = http.post_json(url("/echo"), "{}", engine::CancelToken());
        QVERIFY(after.ok());
        QCOMPARE(after->status, 200);
    }

    void streamsA2xxBody() {
        core::HttpTransport http;
        std::string seen;
        int chunks = 0;
        auto r =
            http.send("GET", url("/stream"), {}, engine::CancelToken(), [&](std::string_view d) {
                seen.append(d);
                ++chunks;
            });
        QVERIFY(r.ok());
        QCOMPARE(r->status, 200);
        QCOMPARE(r->body, std::string("data: xdata: xdata: x"));
        QCOMPARE(seen, r->body);
        QVERIFY(chunks >= 1);
    }

    // Headers and body arrive; Server-Timing is read; the bearer is sent with its scheme.
    void postsAndReadsHeaders() {
        core::TransportOptions o;
        core::HttpTransport http(o);
        auto r = http.post_json(url("/echo?x=1"), "{\"a\":1}", engine::CancelToken());
        QVERIFY(r.ok());
        QCOMPARE(r->status, 200);
        QCOMPARE(r->body, std::string("{\"a\":1}|"));
        QCOMPARE(r->header("content-type"), std::string("application/json"));
        QVERIFY(r->server_ms.has_value());
        QCOMPARE(*r->server_ms, 1.5);
    }

    void refusedPortIsAClearError() {
        // A port that was free a moment ago: bound, read back and closed again.
        const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        socklen_t len = sizeof addr;
        QCOMPARE(::getsockname(probe, reinterpret_cast<sockaddr*>(&addr), &len), 0);
        const int dead = ntohs(addr.sin_port);
        ::close(probe);
        core::TransportOptions o;
        o.max_retries = 0;
        core::HttpTransport http(o);
        auto r =
            http.get("http://127.0.0.1:" + std::to_string(dead) + "/health", engine::CancelToken());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("GET http://127.0.0.1:") == 0 &&
                     r.error().message.find("could not connect") != std::string::npos,
                 r.error().message.c_str());
        auto bad = http.get("ftp://127.0.0.1/x", engine::CancelToken());
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.find("not an http:// or https:// URL") != std::string::npos,
                 bad.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_http_client.moc"
