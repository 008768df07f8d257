// dgem serve on cpp-httplib: routing, auth, admission, errors and the access log. The request
// shapes are translated to Backend calls in server_routes.cpp.
#include "core/server/decision_server.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <httplib.h>

#include <sys/socket.h>
#include "base/time.h"
#include "core/net/tls.h"

#include "core/server/metrics.h"
#include "server/gateway_routes.h"
#include "server/mcp_http.h"
#include "server/request_checks.h"
#include "server/served_backend.h"
#include "server_routes.h"

namespace core {

namespace {

std::string json_error(const std::string& message, const std::string& type) {
    // replace: a message that quotes request bytes (a path) never makes dump() throw.
    return nlohmann::json{{"error", {{"message", message}, {"type", type}}}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool constant_time_equal(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

thread_local std::chrono::steady_clock::time_point request_started;

}  // namespace

Result<ServerOptions> ServerOptions::from_environment(const EnvLookup& env,
                                                      const ServerOptions& base) {
    ServerOptions o = base;
    auto integer = [&](const char* name, int& out, int min, int max) -> Result<void> {
        auto v = env(name);
        if (!v || v->empty()) return {};
        try {
            size_t used = 0;
            long n = std::stol(*v, &used);
            if (used != v->size() || n < min || n > max) throw std::out_of_range("");
            out = static_cast<int>(n);
            return {};
        } catch (...) {
            return engine::bad_input(std::string(name) + "=" + *v +
                                     ": expected a whole number from " + std::to_string(min) +
                                     " to " + std::to_string(max));
        }
    };
    if (auto r = integer("PORT", o.port, 0, 65535); !r) return r.error();
    if (auto r = integer("MAX_INFLIGHT", o.max_inflight, 0, 100000); !r) return r.error();
    if (auto r = integer("MAX_QUEUE", o.max_queue, 0, 100000); !r) return r.error();
    if (auto r = integer("INFLIGHT_WAIT_S", o.inflight_wait_s, 0, 3600); !r) return r.error();
    if (auto r = integer("MAX_MODEL_LEN", o.max_model_len, 0, 1 << 24); !r) return r.error();
    if (auto r = integer("MAX_TOKENS", o.max_tokens, 1, 1 << 20); !r) return r.error();
    if (auto v = env("GENERATION_TIMEOUT_S"); v && !v->empty()) {
        char* end = nullptr;
        const double t = std::strtod(v->c_str(), &end);
        if (end != v->c_str() + v->size() || !(t > 0) || t > 86400)
            return engine::bad_input("GENERATION_TIMEOUT_S=" + *v +
                                     ": expected seconds, more than 0 and at most 86400");
        o.generation_timeout_s = t;
    }
    if (auto r = integer("HTTP_IDLE_TIMEOUT", o.idle_timeout_s, 1, 3600); !r) return r.error();
    if (auto r = integer("MAX_BATCH_READS", o.batch_max_reads, 1, 1024); !r) return r.error();
    if (auto r = integer("PREFIX_CACHE_MB", o.prefix_cache_mb, 0, 1 << 20); !r) return r.error();
    if (auto v = env("BATCH_WAIT_MS"); v && !v->empty()) {
        char* end = nullptr;
        const double t = std::strtod(v->c_str(), &end);
        if (end != v->c_str() + v->size() || !(t >= 0) || t > 1000)
            return engine::bad_input("BATCH_WAIT_MS=" + *v +
                                     ": expected milliseconds from 0 to 1000");
        o.batch_wait_ms = t;
    }
    int body_limit = static_cast<int>(std::min<size_t>(o.body_limit, 1u << 30));
    if (auto r = integer("MAX_BODY_BYTES", body_limit, 1024, 1 << 30); !r) return r.error();
    o.body_limit = static_cast<size_t>(body_limit);
    if (auto v = env("API_KEY"); v && !v->empty()) o.api_key = *v;
    if (auto v = env("DGEM_SERVER_KEY"); v && !v->empty()) o.server_keys = split_list(*v);
    if (auto v = env("METRICS_KEY"); v && !v->empty()) o.metrics_key = *v;
    if (auto v = env("DEFAULT_SAMPLES"); v && !v->empty()) {
        bool ok = *v == "auto";
        if (!ok) {
            try {
                size_t used = 0;
                int n = std::stoi(*v, &used);
                ok = used == v->size() && n >= 1 && n <= 32;
            } catch (...) {
            }
        }
        if (!ok)
            return engine::bad_input("DEFAULT_SAMPLES=" + *v +
                                     ": expected auto or a count from 1 to 32");
        o.default_samples = *v;
    }
    if (auto v = env("DEFAULT_LAYOUT"); v && !v->empty()) {
        if (!parse_layout(*v))
            return engine::bad_input("DEFAULT_LAYOUT=" + *v +
                                     ": expected document_first or schema_first");
        o.default_layout = *v;
    }
    if (auto v = env("DEFAULT_ISOLATE"); v && !v->empty()) {
        if (!parse_isolate(*v))
            return engine::bad_input("DEFAULT_ISOLATE=" + *v +
                                     ": expected auto, none, noul or all");
        o.default_isolate = *v;
    }
    if (auto v = env("DEFAULT_SEED_TOKEN"); v && !v->empty()) {
        if (!parse_seed_token(*v))
            return engine::bad_input("DEFAULT_SEED_TOKEN=" + *v + ": expected random or fixed");
        o.default_seed_token = *v;
    }
    return o;
}

struct DecisionServer::Impl {
    std::shared_ptr<Backend> backend;
    ServerOptions options;
    // Before `http`: responses still being sent hold tickets, so the gate must outlive them.
    std::unique_ptr<AdmissionGate> admission;
    std::unique_ptr<httplib::Server> server;  // an httplib::SSLServer with TLS
    std::thread listener;
    int bound_port = -1;
    std::atomic<bool> running{false};
    std::unique_ptr<server::Routes> routes;
    ServerMetrics metrics;
    std::unique_ptr<server::GatewayRoutes> gateway;
    std::unique_ptr<server::McpHttp> mcp;

    // The routes' objects over the backend: every route's decisions are counted into the
    // metrics; MCP's tools take their decision slots through the backend, as they cannot hold
    // one themselves.
    void make_routes() {
        auto metered = std::make_shared<server::MeteredBackend>(backend, metrics);
        routes = std::make_unique<server::Routes>(metered, options, *admission, metrics);
        gateway = std::make_unique<server::GatewayRoutes>(*routes, options.catalog);
        mcp = std::make_unique<server::McpHttp>(
            std::make_shared<server::AdmittedBackend>(metered, *admission, metrics),
            options.catalog, options.version);
    }

    // dgem's gateway routes, MCP over HTTP and the metrics.
    void add_gateway_routes(httplib::Server& http) {
        Impl* self = this;
        auto authed = [self](auto handler) {
            return [self, handler](const httplib::Request& req, httplib::Response& res) {
                if (self->authorised(req, res)) handler(req, res);
            };
        };
        http.Get("/api/templates",
                 authed([self](const httplib::Request& req, httplib::Response& res) {
                     self->gateway->templates(req, res);
                 }));
        auto decide = authed([self](const httplib::Request& req, httplib::Response& res) {
            self->gateway->decide(req, res);
        });
        http.Post("/api/decide", decide);
        http.Post(R"(/api/decide/.+)", decide);  // any name: the catalog says which exist
        http.Post("/mcp", authed([self](const httplib::Request& req, httplib::Response& res) {
                      self->mcp->post(req, res);
                  }));
        http.Get("/mcp", authed(&server::McpHttp::not_allowed));
        http.Delete("/mcp", authed(&server::McpHttp::not_allowed));
        http.Get("/metrics", [self](const httplib::Request& req, httplib::Response& res) {
            self->serve_metrics(req, res);
        });
    }

    // GET /metrics: open, or behind METRICS_KEY (a bearer token of its own) when set.
    void serve_metrics(const httplib::Request& req, httplib::Response& res) {
        if (!options.metrics_key.empty() &&
            !constant_time_equal(req.get_header_value("Authorization"),
                                 "Bearer " + options.metrics_key)) {
            res.status = 401;
            res.set_content(json_error(req.has_header("Authorization")
                                           ? "wrong bearer token for /metrics"
                                           : "missing bearer token (Authorization: Bearer "
                                             "<METRICS_KEY>)",
                                       "authentication_error"),
                            "application/json");
            return;
        }
        ServerMetrics::Snapshot snap;
        snap.version = options.version;
        snap.model = options.model_name;
        const auto counts = admission->counts();
        snap.inflight = counts.inflight;
        snap.queued = counts.queued;
        snap.max_inflight = options.max_inflight;
        engine::CancelToken none;
        if (auto h = backend->health(none)) {
            snap.device = h->device;
            if (snap.model.empty()) snap.model = h->model;
            snap.engine = h->raw;
        }
        res.set_content(metrics.render(snap), ServerMetrics::kContentType);
    }

    // Checks API_KEY and DGEM_SERVER_KEY; on failure fills a 401 and returns false.
    bool authorised(const httplib::Request& req, httplib::Response& res) const {
        if (!options.api_key.empty()) {
            const std::string auth = req.get_header_value("Authorization");
            if (!constant_time_equal(auth, "Bearer " + options.api_key)) {
                res.status = 401;
                res.set_header("Connection", "close");
                res.set_content(
                    json_error(auth.empty()
                                   ? "missing bearer token (Authorization: Bearer <API_KEY>)"
                                   : "wrong bearer token",
                               "authentication_error"),
                    "application/json");
                return false;
            }
        }
        if (!options.server_keys.empty()) {
            const std::string key = req.get_header_value("X-DGem-Key");
            bool match = false;
            for (const auto& k : options.server_keys) match |= constant_time_equal(key, k);
            if (!match) {
                res.status = 401;
                res.set_header("Connection", "close");
                res.set_content(json_error(key.empty() ? "missing X-DGem-Key" : "wrong X-DGem-Key",
                                           "authentication_error"),
                                "application/json");
                return false;
            }
        }
        return true;
    }

    void log(const httplib::Request& req, const httplib::Response& res) {
        const double ms = base::ms_since(request_started);
        metrics.record_request(req.path, req.method, res.status, ms / 1000.0);
        if (!options.access_log) return;
        char line[512];
        // Path only: query strings and headers (tokens, keys) never reach the log.
        std::snprintf(line, sizeof line, "%s %s %s %d %zu bytes %.1f ms", req.remote_addr.c_str(),
                      req.method.c_str(), req.path.substr(0, 200).c_str(), res.status,
                      req.body.size(), ms);
        options.access_log(line);
    }
};

DecisionServer::DecisionServer(std::shared_ptr<Backend> backend, ServerOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->backend = std::move(backend);
    impl_->options = std::move(options);
}

DecisionServer::~DecisionServer() {
    stop();
}

int DecisionServer::port() const {
    return impl_->bound_port;
}
Result<void> check_tls_files(const ServerOptions& o) {
    if (o.tls_cert_file.empty() && o.tls_key_file.empty()) {
        if (!o.tls_client_ca_file.empty())
            return engine::bad_input("--tls-client-ca " + o.tls_client_ca_file +
                                     ": client certificates need TLS (--tls-cert and --tls-key)");
        return {};
    }
    if (auto ok = check_certificate_and_key({o.tls_cert_file, "--tls-cert"},
                                            {o.tls_key_file, "--tls-key"});
        !ok)
        return ok.error();
    if (!o.tls_client_ca_file.empty())
        if (auto ok = check_certificate_file({o.tls_client_ca_file, "--tls-client-ca"}); !ok)
            return ok.error();
    return {};
}

bool DecisionServer::tls() const {
    return !impl_->options.tls_cert_file.empty();
}

namespace {

// The plain or the TLS server, its files checked first so a bad one is named.
Result<std::unique_ptr<httplib::Server>> make_http_server(const ServerOptions& o) {
    if (auto ok = check_tls_files(o); !ok) return ok.error();
    if (o.tls_cert_file.empty()) return std::make_unique<httplib::Server>();
    auto server = std::make_unique<httplib::SSLServer>(
        o.tls_cert_file.c_str(), o.tls_key_file.c_str(),
        o.tls_client_ca_file.empty() ? nullptr : o.tls_client_ca_file.c_str());
    if (!server->is_valid())
        return engine::bad_input("cannot serve TLS with --tls-cert " + o.tls_cert_file +
                                 " and --tls-key " + o.tls_key_file);
    return std::unique_ptr<httplib::Server>(std::move(server));
}

}  // namespace
bool DecisionServer::running() const {
    return impl_->running.load();
}

Result<void> DecisionServer::start() {
    Impl& s = *impl_;
    if (s.running) return {};
    s.admission = std::make_unique<AdmissionGate>(AdmissionGate::Limits{
        s.options.max_inflight, s.options.max_queue,
        std::chrono::milliseconds(static_cast<int64_t>(s.options.inflight_wait_s) * 1000)});
    auto made = make_http_server(s.options);
    if (!made) return made.error();
    s.server = std::move(made.value());
    s.make_routes();
    auto& http = *s.server;
    const int threads = std::max(4, s.options.threads);
    http.new_task_queue = [threads] {
        return new httplib::ThreadPool(static_cast<size_t>(threads));
    };
    http.set_payload_max_length(s.options.body_limit);
    http.set_keep_alive_timeout(s.options.idle_timeout_s);
    http.set_read_timeout(std::max(5, s.options.idle_timeout_s), 0);
    http.set_write_timeout(600, 0);
    http.set_tcp_nodelay(true);

    Impl* self = impl_.get();
    http.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
        request_started = std::chrono::steady_clock::now();
        return httplib::Server::HandlerResponse::Unhandled;
    });
    http.set_logger(
        [self](const httplib::Request& req, const httplib::Response& res) { self->log(req, res); });
    // An exception escaping a handler is a bug: its text goes to the log under an id, the
    // client gets the id only (never internals).
    http.set_exception_handler(
        [self](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
            std::string what = "unknown exception";
            try {
                if (ep) std::rethrow_exception(ep);
            } catch (const std::exception& e) {
                what = e.what();
            } catch (...) {
            }
            const std::string id = server::new_error_id();
            server::log_internal_error(self->options.access_log, id,
                                       req.method + " " + req.path.substr(0, 200) + ": " + what);
            res.status = 500;
            res.set_content(json_error("internal server error (error id " + id +
                                           "; the server's log has the details)",
                                       "server_error"),
                            "application/json");
        });
    http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req,
                                                                   httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        if (res.status == 413)
            res.set_content(json_error("request body over the server's limit (MAX_BODY_BYTES)",
                                       "invalid_request_error"),
                            "application/json");
        else if (res.status == 404)
            res.set_content(
                json_error("unknown route " + req.method + " " + req.path.substr(0, 200) +
                               " (routes: GET /health, GET /metrics, POST /v1/chat/completions, "
                               "POST /v1/systemone, GET /api/templates, POST /api/decide, POST "
                               "/api/decide/{template}, POST /mcp)",
                           "invalid_request_error"),
                "application/json");
        else
            res.set_content(
                json_error("HTTP " + std::to_string(res.status), "invalid_request_error"),
                "application/json");
        return httplib::Server::HandlerResponse::Handled;
    }));

    auto health = [self](const httplib::Request&, httplib::Response& res) {
        self->routes->health(res);
    };
    http.Get("/health", health);
    http.Get("/", health);
    http.Get("/invoke/health", health);
    auto post = [self](void (server::Routes::*route)(const httplib::Request&, httplib::Response&)) {
        return [self, route](const httplib::Request& req, httplib::Response& res) {
            if (!self->authorised(req, res)) return;
            (self->routes.get()->*route)(req, res);
        };
    };
    http.Post("/v1/chat/completions", post(&server::Routes::chat_completions));
    http.Post("/invoke/v1/chat/completions", post(&server::Routes::chat_completions));
    http.Post("/predict", post(&server::Routes::chat_completions));
    http.Post("/rawPredict", post(&server::Routes::chat_completions));
    http.Post("/v1/systemone", post(&server::Routes::systemone));
    http.Post("/invoke/v1/systemone", post(&server::Routes::systemone));

    s.add_gateway_routes(http);

    // httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, fixed in Debian's build of
    // the library): 32 clients connecting at once overflowed it, and each dropped SYN cost its
    // client a 1 s retransmission (the p95 of bench-serve's 32-client row). The listening socket
    // is caught as it is made, and its backlog raised once it is bound.
    auto listening = std::make_shared<std::atomic<socket_t>>(INVALID_SOCKET);
    http.set_socket_options([listening](socket_t sock) {
        httplib::default_socket_options(sock);
        socket_t none = INVALID_SOCKET;
        listening->compare_exchange_strong(none, sock);
    });

    bool bound = false;
    if (s.options.port == 0) {
        s.bound_port = http.bind_to_any_port(s.options.host);
        bound = s.bound_port > 0;
    } else {
        bound = http.bind_to_port(s.options.host, s.options.port);
        s.bound_port = s.options.port;
    }
    if (!bound)
        return engine::bad_input("cannot listen on " + s.options.host + ":" +
                                 std::to_string(s.options.port) +
                                 " (in use, or not an address of this machine)");
    if (const socket_t sock = listening->load(); sock != INVALID_SOCKET) ::listen(sock, SOMAXCONN);
    s.running = true;
    s.listener = std::thread([self] {
        self->server->listen_after_bind();
        self->running = false;
    });
    return {};
}

void DecisionServer::stop() {
    if (!impl_) return;
    Impl& s = *impl_;
    // httplib's stop closes the listening socket; listen_after_bind then shuts its worker pool
    // down, which lets every request in flight finish before the threads are joined.
    if (s.listener.joinable()) {
        // stop() is ignored until the accept loop runs: wait for it to start (bounded).
        for (int i = 0; i < 5000 && s.running && !s.server->is_running(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        // Waiters are answered 503 at once; what already runs keeps its slot and finishes.
        if (s.admission) s.admission->close();
        s.server->stop();
        s.listener.join();
    }
    s.running = false;
}

}  // namespace core
