#pragma once
// The remote backends' HTTP client, on cpp-httplib's. A call blocks the calling thread and does
// the request's I/O there, over that thread's own keep-alive connection per origin (Qt
// Network's thread hops cost ~4 ms a request on loopback; this ~0.3 ms). It adds the bearer
// token and X-DGem-Key, enforces the timeout, retries 429/503 with exponential back-off and
// jitter (honouring Retry-After), asks the token source once more after a 401, and aborts on
// cancellation. ensure_core_application() makes the QCoreApplication other parts of the core
// need in command-line tools.
//
// TLS and proxies (core/net/tls.h, core/net/proxy.h) are typed settings in TransportOptions,
// filled once by configure_network from the environment (SSL_CERT_FILE, SSL_CERT_DIR,
// HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and what an endpoint profile or dgem's flags add (a CA file,
// a client certificate and key, a proxy). Transport errors name the host and what failed: an
// unknown CA, a name mismatch, an expired certificate, a proxy that refused or wants credentials.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/config/config.h"
#include "core/net/auth.h"
#include "core/net/proxy.h"
#include "core/net/tls.h"
#include "engine/cancel.h"
#include "engine/result.h"

namespace core {

// Creates a QCoreApplication when the process has none (call from the main thread, before any
// worker thread uses the network). A no-op inside the GUI or a Qt Test.
void ensure_core_application();

struct TransportOptions {
    double timeout_s = 120;             // per attempt, whole request
    int max_retries = 3;                // for 429 and 503
    double retry_base_s = 0.25;         // first back-off; doubles each retry, plus up to 50% jitter
    double max_retry_wait_s = 30;       // a longer Retry-After is cut to this
    std::shared_ptr<TokenSource> auth;  // may be null
    std::string server_key;             // X-DGem-Key, if any
    TlsSettings tls;                    // trust store and client certificate for https://
    ProxySettings proxy;                // the proxies requests go through, and NO_PROXY
};

// What an endpoint adds to the environment's network settings (a profile's fields, or dgem's
// --ca-file, --client-cert, --client-key and --proxy).
struct EndpointNetwork {
    TlsFile ca_file;                  // trusted besides the system store and SSL_CERT_FILE
    TlsFile client_cert, client_key;  // mutual TLS
    std::string proxy;                // empty: the environment's; "direct": none; else a URL
    std::string proxy_source;         // "--proxy", "endpoint \"NAME\" proxy"
    std::string proxy_password;       // from the keychain when the URL has none; a secret
};

// Fills transport.tls and transport.proxy from the environment and `endpoint`, and checks every
// file (readable, PEM, the key matching its certificate) and proxy URL. Errors name the file, the
// URL (its password masked) and the variable or field it came from.
engine::Result<void> configure_network(TransportOptions& transport, const EnvLookup& env,
                                       const EndpointNetwork& endpoint = {});
// The keychain entry of a proxy's password: "proxy:" and the proxy URL without a password.
std::string proxy_keychain_key(const ProxyServer& proxy);

struct HttpResponse {
    int status = 0;
    std::string body;
    std::map<std::string, std::string> headers;  // names in lower case
    double wall_ms = 0;                          // last attempt
    std::optional<double> server_ms;             // from Server-Timing, if the server sent it
    int retries = 0;
    std::string method, url;
    bool ok() const { return status >= 200 && status < 300; }
    std::string header(const std::string& lower_name) const;
};

class HttpTransport {
  public:
    explicit HttpTransport(TransportOptions options = {});
    const TransportOptions& options() const { return options_; }

    // Streams the body of a 2xx reply to on_data as it arrives (the whole body is still
    // returned). A reply of any status is a value; only transport failures (refused,
    // unreachable, timeout, cancelled) are errors, which name the method and URL.
    using DataFn = std::function<void(std::string_view)>;
    engine::Result<HttpResponse> send(const std::string& method, const std::string& url,
                                      const std::string& json_body,
                                      const engine::CancelToken& cancel,
                                      const DataFn& on_data = {}) const;
    engine::Result<HttpResponse> get(const std::string& url,
                                     const engine::CancelToken& cancel) const {
        return send("GET", url, {}, cancel);
    }
    engine::Result<HttpResponse> post_json(const std::string& url, const std::string& body,
                                           const engine::CancelToken& cancel,
                                           const DataFn& on_data = {}) const {
        return send("POST", url, body, cancel, on_data);
    }

  private:
    TransportOptions options_;
};

// "POST http://host/v1/chat/completions: HTTP 401: missing or wrong bearer token": one line, the
// server's own message when its body is JSON ({"error":{"message"}}, {"error":"..."},
// {"detail":...}), else the start of the body. Never contains a request header.
// Its cause is http_status_cause(response.status).
engine::Error http_status_error(const HttpResponse& response);
// What an HTTP error status means for the caller: 408 Timeout; 404 and 405 Unsupported (no such
// route); 429 and 503 Overloaded; other 5xx ServerError; 401 and 403 Unauthorized; any other
// status Refused (no status at all: None).
engine::Cause http_status_cause(int status);
std::string server_message(const std::string& body);

// "decide;dur=12.5, db;dur=3" -> 12.5 (the first metric with a dur).
std::optional<double> parse_server_timing(const std::string& header);
// Retry-After in seconds (delta-seconds form; HTTP dates count as absent).
std::optional<double> parse_retry_after(const std::string& header);

// Base URL helpers: "http://h:8080/v1" -> "http://h:8080" (for /health), and joining paths.
std::string server_root(const std::string& base_url);
std::string join_url(const std::string& base_url, const std::string& path);

}  // namespace core
