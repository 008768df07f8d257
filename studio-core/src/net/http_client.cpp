// Blocking HTTP for worker threads on cpp-httplib's client: the request's I/O on the calling
// thread over a per-thread keep-alive connection, retries and auth refresh around it.
#include "core/net/http_client.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <random>
#include <thread>

#include <httplib.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <QCoreApplication>
#include <QUrl>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "base/text.h"
#include "base/time.h"
#include "trust_store.h"

namespace core {

namespace {

std::string one_line(std::string s, size_t max_len = 300) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    if (s.size() > max_len) s = s.substr(0, max_len) + "...";
    return s;
}

struct Attempt {
    bool transport_failed = false;
    bool timed_out = false;
    bool cancelled = false;
    std::string error;                   // transport error text
    const ProxyServer* proxy = nullptr;  // the proxy the request went through, if any
    HttpResponse response;
};

// Ends requests that outlive their deadline or whose caller cancels: one thread for the process,
// looking every 20 ms at the requests in flight and closing the socket of those to stop (a
// blocking read then returns at once). The request path itself never waits on this thread.
class RequestWatch {
  public:
    struct Entry {
        httplib::Client* client;
        const engine::CancelToken* cancel;
        std::chrono::steady_clock::time_point deadline;
        bool cancelled = false, timed_out = false;  // set under the watch's mutex
    };

    static RequestWatch& instance() {
        static RequestWatch* watch = new RequestWatch();  // lives for the process
        return *watch;
    }

    void add(Entry* e) {
        std::lock_guard lock(mutex_);
        entries_.push_back(e);
        if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
        wake_.notify_one();
    }

    // After this returns the watch no longer touches `e` or its client.
    void remove(Entry* e) {
        std::lock_guard lock(mutex_);
        entries_.erase(std::remove(entries_.begin(), entries_.end(), e), entries_.end());
    }

  private:
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return !entries_.empty(); });
            wake_.wait_for(lock, std::chrono::milliseconds(20));
            const auto now = std::chrono::steady_clock::now();
            for (Entry* e : entries_) {
                if (e->cancelled || e->timed_out) continue;
                if (e->cancel->cancelled())
                    e->cancelled = true;
                else if (now >= e->deadline)
                    e->timed_out = true;
                else
                    continue;
                e->client->stop();
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<Entry*> entries_;
    std::thread thread_;
};

// Whether the server asked this thread's last handshake for a client certificate that the
// client did not have. Under TLS 1.3 a server that then refuses closes the connection after the
// handshake, so the request fails on a write or a read whose error says nothing of why; OpenSSL
// calls this back when the server asks, on the thread doing the handshake.
thread_local bool certificate_requested = false;

extern "C" int note_certificate_request(SSL*, X509**, EVP_PKEY**) {
    certificate_requested = true;
    return 0;  // none to give
}

// One keep-alive client per thread, origin and network settings: connections survive between
// calls, and a request's I/O runs on the calling thread (Qt Network's hops to its own thread and
// back cost ~4 ms per request on loopback here, against ~0.3 ms this way).
struct ClientSlot {
    httplib::Client& client;
    bool fresh;  // made for this request
    std::string key;
};

std::map<std::string, std::unique_ptr<httplib::Client>>& thread_clients() {
    thread_local std::map<std::string, std::unique_ptr<httplib::Client>> clients;
    return clients;
}

ClientSlot thread_client(const std::string& origin, const TransportOptions& options,
                         const ProxyServer* proxy) {
    const bool https = origin.rfind("https:", 0) == 0;
    std::string key = origin;
    if (https) key += "\n" + options.tls.key();
    if (proxy) key += "\nproxy " + proxy->display() + "\n" + proxy->password;
    auto& c = thread_clients()[key];
    const bool fresh = !c;
    if (!c) {
        c = https ? std::make_unique<httplib::Client>(origin, options.tls.client_cert.path,
                                                      options.tls.client_key.path)
                  : std::make_unique<httplib::Client>(origin);
        c->set_keep_alive(true);
        c->set_tcp_nodelay(true);
        c->set_follow_location(true);
        if (https) {
            c->enable_server_certificate_verification(true);
            c->set_ca_cert_store(net_detail::trust_store_reference(options.tls));
            if (!options.tls.has_client_certificate() && c->ssl_context())
                SSL_CTX_set_client_cert_cb(c->ssl_context(), note_certificate_request);
        }
        if (proxy) {
            c->set_proxy(proxy->host, proxy->port);
            if (!proxy->user.empty()) c->set_proxy_basic_auth(proxy->user, proxy->password);
        }
    }
    return {*c, fresh, key};
}

std::string proxy_auth_text(const ProxyServer& proxy) {
    return "the proxy " + proxy.display() + " (" + proxy.source +
           ") requires authentication (HTTP 407)" +
           (proxy.user.empty() ? ": give it a user and password (http://USER@host:port with the "
                                 "password in the keychain, or USER:PASSWORD in the variable)"
                               : ": it refused the user " + proxy.user + " and its password");
}

// Whether the proxy opens a tunnel to `target` ("host:port"), asked with a CONNECT of our own on
// a fresh connection; empty when it does (or cannot be reached: the request then says so).
// cpp-httplib 0.11.4 deadlocks on a CONNECT its proxy refuses (a reply in HTTP/1.0 or with
// "Connection: close" makes process_request lock the socket mutex connect_with_proxy already
// holds), so a new client asks here first and a refusal never reaches cpp-httplib's tunnel.
std::string proxy_refusal(const ProxyServer& proxy, const std::string& target, double timeout_s) {
    httplib::Client probe(proxy.host, proxy.port);
    const auto whole = static_cast<time_t>(std::clamp(timeout_s, 1.0, 30.0));
    probe.set_connection_timeout(whole, 0);
    probe.set_read_timeout(whole, 0);
    // Added to every request when set, with or without a proxy in front.
    probe.set_proxy_basic_auth(proxy.user, proxy.password);
    httplib::Request req;
    req.method = "CONNECT";
    req.path = target;
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    if (!probe.send(req, res, error) || res.status == 200) return {};
    if (res.status == 407) return proxy_auth_text(proxy);
    return "the proxy " + proxy.display() + " (" + proxy.source + ") refused the tunnel to " +
           target + ": HTTP " + std::to_string(res.status) +
           (res.reason.empty() ? "" : " " + res.reason);
}

struct Target {
    std::string host;
    std::string host_port;  // "host:port", for CONNECT and messages
    const ProxyServer* proxy = nullptr;
    bool https = false;
    bool client_certificate = false;
};

std::string transport_error_text(httplib::Error e, const Target& t, const httplib::Client& client) {
    const std::string via = t.proxy ? " through the proxy " + t.proxy->display() : "";
    if (t.https && !t.client_certificate &&
        (e == httplib::Error::SSLConnection || e == httplib::Error::Read ||
         e == httplib::Error::Write) &&
        certificate_requested)
        return t.host +
               " requires a client certificate (mutual TLS); give the endpoint's "
               "certificate and key (--client-cert and --client-key)";
    switch (e) {
        case httplib::Error::Connection:
            if (t.proxy)
                return "could not connect to the proxy " + t.proxy->display() + " (" +
                       t.proxy->source + ") for " + t.host +
                       " (connection refused or host unreachable)";
            return "could not connect to " + t.host + " (connection refused or host unreachable)";
        case httplib::Error::ConnectionTimeout:
            return "could not connect to " +
                   (t.proxy ? "the proxy " + t.proxy->display() : t.host) +
                   " (connection timed out)";
        case httplib::Error::Read:
            return "the connection closed before the reply was complete";
        case httplib::Error::Write:
            return "the connection closed while sending the request";
        case httplib::Error::SSLConnection:
            if (t.proxy)
                if (auto why = proxy_refusal(*t.proxy, t.host_port, 5); !why.empty()) return why;
            if (t.client_certificate)
                return "TLS handshake with " + t.host + via +
                       " failed (was the client certificate refused?)";
            return "TLS handshake with " + t.host + via + " failed";
        case httplib::Error::SSLLoadingCerts:
            return "could not load the CA certificates to verify " + t.host;
        case httplib::Error::SSLServerVerification: {
            const long result = client.get_openssl_verify_result();
            if (result == X509_V_OK)
                return "the TLS certificate of " + t.host + " does not name " + t.host +
                       " (name mismatch)";
            return "the TLS certificate of " + t.host + " " + verify_failure_text(result);
        }
        case httplib::Error::ExceedRedirectCount:
            return "too many redirects";
        default:
            if (t.https && t.client_certificate)
                return "could not use the client certificate for " + t.host + " (" +
                       httplib::to_string(e) + ")";
            return "HTTP transport error (" + httplib::to_string(e) + ")";
    }
}

Attempt run_once(const std::string& method, const std::string& url, const std::string& body,
                 const std::string& bearer, const TransportOptions& options,
                 const engine::CancelToken& cancel, const HttpTransport::DataFn& on_data) {
    Attempt a;
    const QUrl parsed(QString::fromStdString(url));
    const std::string scheme = parsed.scheme().toLower().toStdString();
    if (!parsed.isValid() || parsed.host().isEmpty() || (scheme != "http" && scheme != "https")) {
        a.transport_failed = true;
        a.error = "not an http:// or https:// URL";
        return a;
    }
    const std::string host = parsed.host().toStdString();
    const int port = parsed.port(scheme == "https" ? 443 : 80);
    const std::string origin = scheme + "://" +
                               (parsed.host().contains(':') ? "[" + host + "]" : host) + ":" +
                               std::to_string(port);
    std::string path = parsed.path(QUrl::FullyEncoded).toStdString();
    if (path.empty()) path = "/";
    if (parsed.hasQuery()) path += "?" + parsed.query(QUrl::FullyEncoded).toStdString();

    Target target;
    target.host = host;
    target.host_port = origin.substr(scheme.size() + 3);
    target.https = scheme == "https";
    target.client_certificate = target.https && options.tls.has_client_certificate();
    target.proxy = options.proxy.for_target(scheme, host, port);
    a.proxy = target.proxy;
    ClientSlot slot = thread_client(origin, options, target.proxy);
    if (target.proxy && target.https && slot.fresh) {
        if (auto why = proxy_refusal(*target.proxy, target.host_port, options.timeout_s);
            !why.empty()) {
            thread_clients().erase(slot.key);  // ask again next time
            a.transport_failed = true;
            a.error = why;
            return a;
        }
    }
    httplib::Client& client = slot.client;
    const auto seconds = [](double s) {
        const auto whole = static_cast<time_t>(s);
        return std::pair<time_t, time_t>{whole, static_cast<time_t>((s - whole) * 1e6)};
    };
    const double t = std::max(0.001, options.timeout_s);
    const auto [rs, rus] = seconds(t);
    const auto [cs, cus] = seconds(std::min(t, 30.0));
    client.set_connection_timeout(cs, cus);
    client.set_read_timeout(rs, rus);
    client.set_write_timeout(rs, rus);

    httplib::Request req;
    req.method = method;
    req.path = path;
    req.set_header("Accept", "application/json, text/event-stream");
    req.set_header("User-Agent", "dgem/" DS_VERSION " (Decision Studio)");
    if (!body.empty() || method == "POST") req.set_header("Content-Type", "application/json");
    if (!bearer.empty())
        req.set_header("Authorization",
                       base::lower(bearer).rfind("bearer ", 0) == 0 ? bearer : "Bearer " + bearer);
    if (!options.server_key.empty()) req.set_header("X-DGem-Key", options.server_key);
    req.body = body;

    std::string received;
    bool streaming = false;
    req.response_handler = [&](const httplib::Response& r) {
        streaming = on_data && r.status >= 200 && r.status < 300;
        return !cancel.cancelled();
    };
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
        received.append(data, n);
        if (streaming) on_data(std::string_view(data, n));
        return !cancel.cancelled();
    };

    RequestWatch::Entry watch{&client, &cancel,
                              std::chrono::steady_clock::now() +
                                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(t))};
    const auto started = std::chrono::steady_clock::now();
    RequestWatch::instance().add(&watch);
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    ERR_clear_error();  // OpenSSL's error queue is per thread: start this request clean
    certificate_requested = false;
    const bool sent = client.send(req, res, error);
    RequestWatch::instance().remove(&watch);
    a.response.wall_ms = base::ms_since(started);
    a.response.method = method;
    a.response.url = url;
    a.cancelled = watch.cancelled || cancel.cancelled();
    a.timed_out =
        !a.cancelled &&
        (watch.timed_out || error == httplib::Error::ConnectionTimeout ||
         (!sent && error == httplib::Error::Read && a.response.wall_ms >= t * 1000 * 0.99));
    if (!sent || a.cancelled || a.timed_out) {
        a.transport_failed = true;
        a.error = transport_error_text(error, target, client);
        // Through a proxy, a new client asks for its tunnel first (see proxy_refusal).
        if (target.proxy) thread_clients().erase(slot.key);
        return a;
    }
    a.response.status = res.status;
    a.response.body = std::move(received);
    for (const auto& [name, value] : res.headers) a.response.headers[base::lower(name)] = value;
    a.response.server_ms = parse_server_timing(a.response.header("server-timing"));
    return a;
}

// Sleeps up to `seconds`, waking early on cancellation.
bool sleep_unless_cancelled(double seconds, const engine::CancelToken& cancel) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (cancel.cancelled()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return !cancel.cancelled();
}

}  // namespace

void ensure_core_application() {
    if (QCoreApplication::instance()) return;
    static int argc = 1;
    static char name[] = "dgem";
    static char* argv[] = {name, nullptr};
    static QCoreApplication* app = new QCoreApplication(argc, argv);  // lives for the process
    (void)app;
}

std::string HttpResponse::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

HttpTransport::HttpTransport(TransportOptions options) : options_(std::move(options)) {
    // A server that closes a TLS connection while the request is written (one refusing a client
    // without a certificate does) would kill the process with SIGPIPE: OpenSSL writes with
    // write(2), not send(MSG_NOSIGNAL). A handler someone installed is left alone.
    static std::once_flag ignore_sigpipe;
    std::call_once(ignore_sigpipe, [] {
        struct sigaction current {};
        if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
            std::signal(SIGPIPE, SIG_IGN);
    });
}

engine::Result<HttpResponse> HttpTransport::send(const std::string& method, const std::string& url,
                                                 const std::string& json_body,
                                                 const engine::CancelToken& cancel,
                                                 const DataFn& on_data) const {
    thread_local std::mt19937 jitter_rng{std::random_device{}()};
    bool refreshed_after_401 = false;
    int retries = 0;
    for (int attempt = 0;; ++attempt) {
        if (cancel.cancelled()) return engine::cancelled();
        std::string bearer;
        if (options_.auth) {
            auto token = options_.auth->token(false);
            if (!token) return token.error();
            bearer = *token;
        }
        Attempt a = run_once(method, url, json_body, bearer, options_, cancel, on_data);
        if (a.cancelled) return engine::cancelled();
        if (a.timed_out) {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%g", options_.timeout_s);
            return engine::remote_error(method + " " + url + ": no reply within " + secs +
                                            " s (raise --timeout or DGEM_TIMEOUT)",
                                        engine::Cause::Timeout);
        }
        if (a.transport_failed)
            return engine::remote_error(method + " " + url + ": " + one_line(a.error));
        HttpResponse& r = a.response;
        r.retries = retries;
        // A 407 comes from the proxy (on a CONNECT, cpp-httplib hands the proxy's reply back).
        if (r.status == 407 && a.proxy)
            return engine::remote_error(method + " " + url + ": " + proxy_auth_text(*a.proxy),
                                        engine::Cause::Unauthorized);
        if (r.status == 401 && options_.auth && options_.auth->refreshable() &&
            !refreshed_after_401) {
            // A cached token may have been revoked or expired early: mint a new one, once.
            refreshed_after_401 = true;
            auto fresh = options_.auth->token(true);
            if (!fresh) return fresh.error();
            continue;
        }
        if ((r.status == 429 || r.status == 503) && retries < options_.max_retries) {
            double wait = options_.retry_base_s * std::pow(2.0, retries);
            wait += std::uniform_real_distribution<double>(0, wait / 2)(jitter_rng);
            if (auto after = parse_retry_after(r.header("retry-after")))
                wait = std::max(wait, *after);
            wait = std::min(wait, options_.max_retry_wait_s);
            ++retries;
            if (!sleep_unless_cancelled(wait, cancel)) return engine::cancelled();
            continue;
        }
        return std::move(r);
    }
}

std::string server_message(const std::string& body) {
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_object()) {
        if (json.contains("error")) {
            const auto& e = json["error"];
            if (e.is_string()) return one_line(e.get<std::string>());
            if (e.is_object() && e.contains("message") && e["message"].is_string())
                return one_line(e["message"].get<std::string>());
        }
        if (json.contains("detail"))
            return one_line(json["detail"].is_string() ? json["detail"].get<std::string>()
                                                       : json["detail"].dump());
        if (json.contains("message") && json["message"].is_string())
            return one_line(json["message"].get<std::string>());
    }
    std::string text = one_line(body, 200);
    return text.empty() ? "(empty body)" : text;
}

engine::Error http_status_error(const HttpResponse& r) {
    std::string msg = r.method + " " + r.url + ": HTTP " + std::to_string(r.status) + ": " +
                      server_message(r.body);
    if (r.retries > 0) msg += " (after " + std::to_string(r.retries) + " retries)";
    return engine::remote_error(msg, http_status_cause(r.status));
}

engine::Cause http_status_cause(int status) {
    if (status <= 0) return engine::Cause::None;  // no status: nothing answered
    if (status == 408) return engine::Cause::Timeout;
    if (status == 404 || status == 405) return engine::Cause::Unsupported;
    if (status == 429 || status == 503) return engine::Cause::Overloaded;
    if (status >= 500) return engine::Cause::ServerError;
    if (status == 401 || status == 403) return engine::Cause::Unauthorized;
    return engine::Cause::Refused;
}

std::optional<double> parse_server_timing(const std::string& header) {
    auto pos = header.find("dur=");
    if (pos == std::string::npos) return std::nullopt;
    try {
        return std::stod(header.substr(pos + 4));
    } catch (...) {
        return std::nullopt;
    }
}

std::optional<double> parse_retry_after(const std::string& header) {
    if (header.empty()) return std::nullopt;
    try {
        size_t used = 0;
        double v = std::stod(header, &used);
        if (used == 0 || v < 0) return std::nullopt;
        return v;
    } catch (...) {
        return std::nullopt;
    }
}

std::string server_root(const std::string& base_url) {
    std::string u = base_url;
    while (!u.empty() && u.back() == '/') u.pop_back();
    for (const char* suffix : {"/chat/completions", "/v1"}) {
        std::string s = suffix;
        if (u.size() >= s.size() && u.compare(u.size() - s.size(), s.size(), s) == 0)
            u.resize(u.size() - s.size());
    }
    return u;
}

std::string join_url(const std::string& base_url, const std::string& path) {
    std::string u = base_url;
    while (!u.empty() && u.back() == '/') u.pop_back();
    return u + (path.empty() || path[0] == '/' ? path : "/" + path);
}

std::string proxy_keychain_key(const ProxyServer& proxy) {
    return "proxy:" + proxy.display();
}

engine::Result<void> configure_network(TransportOptions& transport, const EnvLookup& env,
                                       const EndpointNetwork& endpoint) {
    TlsSettings tls = tls_settings_from_environment(env);
    if (!endpoint.ca_file.path.empty()) tls.ca_files.push_back(endpoint.ca_file);
    tls.client_cert = endpoint.client_cert;
    tls.client_key = endpoint.client_key;
    if (auto ok = check_tls_settings(tls); !ok) return ok.error();

    auto proxy = proxy_settings_from_environment(env);
    if (!proxy) return proxy.error();
    const std::string chosen = endpoint.proxy;
    if (chosen == "direct" || chosen == "none") {
        *proxy = ProxySettings{};
    } else if (!chosen.empty()) {
        // The endpoint's own proxy, for http:// and https:// alike; NO_PROXY does not apply
        // to a proxy named for this endpoint.
        auto server = parse_proxy_url(chosen, endpoint.proxy_source);
        if (!server) return server.error();
        server->source = endpoint.proxy_source;
        if (server->password.empty()) server->password = endpoint.proxy_password;
        *proxy = ProxySettings{};
        proxy->http = *server;
        proxy->https = *server;
    }
    transport.tls = std::move(tls);
    transport.proxy = std::move(*proxy);
    return {};
}

}  // namespace core
