#pragma once
// `dgem serve`: a decision server over a Backend (the local engine), speaking the routes of
// PROTOCOLS section 1 and the vLLM structured-read extension of section 5:
//   GET  /health, /, /invoke/health      status, version, model, device, ready (no key needed)
//   POST /v1/chat/completions            decision form (system = schema JSON, user = state JSON),
//                                        generative form (stream: true -> SSE chunks, [DONE]),
//                                        structured read (vllm_xargs.diffusion_seed_canvas)
//   POST /v1/systemone                   Jev's request shape
//   GET  /api/templates, POST /api/decide[/{template}]   dgem's gateway REST routes, on the
//                                        policies of `catalog` only (core/wire/gateway.h)
//   POST /mcp                            MCP over Streamable HTTP, stateless, JSON replies, the
//                                        tools of `dgem mcp` (core/mcp/mcp_server.h)
//   GET  /metrics                        Prometheus text (core/server/metrics.h); open like
//                                        /health, or behind METRICS_KEY (bearer) when set
// Every POST (and /api/templates) takes the same auth (API_KEY, DGEM_SERVER_KEY).
// Settings follow dgem's serving image (ServerOptions::from_environment). It never crashes on
// a request and never logs a key; access log lines carry method, path, status and time.
// Start it in-process on port 0 for tests: start(), port(), stop().

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/decide/backend.h"
#include "core/policy/policy_catalog.h"
#include "engine/engine.h"

namespace core {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;      // PORT; 0 picks a free port
    std::string api_key;  // API_KEY: POSTs need "Authorization: Bearer <key>"
    std::vector<std::string>
        server_keys;                 // DGEM_SERVER_KEY=new,old: POSTs need X-DGem-Key, any listed
    int max_inflight = 8;            // MAX_INFLIGHT: decisions run at once (0: no bound)
    int max_queue = 256;             // MAX_QUEUE: decisions waiting for a slot; past it 503 at once
    int inflight_wait_s = 30;        // INFLIGHT_WAIT_S: longest wait in the queue before 503
    int retry_after_s = 1;           // Retry-After on 503 overloaded
    std::string default_samples;     // DEFAULT_SAMPLES ("auto" or N) for schemas without one
    std::string default_layout;      // DEFAULT_LAYOUT
    std::string default_isolate;     // DEFAULT_ISOLATE
    std::string default_seed_token;  // DEFAULT_SEED_TOKEN
    int max_model_len = 0;           // MAX_MODEL_LEN: prompt + canvas/new tokens (0: no bound)
    int max_tokens = 4096;           // MAX_TOKENS: the most new tokens a generation may ask for
                                     // (and what one without max_tokens gets, at most 256)
    double generation_timeout_s = 120;  // GENERATION_TIMEOUT_S: wall time of one generation;
                                        // past it the answer ends, finish_reason "length"
    int idle_timeout_s = 5;             // HTTP_IDLE_TIMEOUT: keep-alive idle seconds
    size_t body_limit = 8u << 20;       // MAX_BODY_BYTES: larger bodies get 413
    int threads = 64;                   // connection workers (keep-alive clients hold one each)
    // The local engine's cross-request batching (engine::BatchSettings), for whoever opens it:
    int batch_max_reads = 32;    // MAX_BATCH_READS: slot reads in one batch (1: no batching)
    double batch_wait_ms = 1.0;  // BATCH_WAIT_MS: longest wait of a batch of two or more
    int prefix_cache_mb = -1;    // PREFIX_CACHE_MB: encoded prompts kept (-1: engine default)
    std::string metrics_key;     // METRICS_KEY: GET /metrics needs "Authorization: Bearer <key>"
    // The policies the gateway routes and MCP's decide_policy may name (by name only).
    PolicyCatalog catalog;
    // TLS (--tls-cert, --tls-key, --tls-client-ca): HTTPS when a certificate and key are set;
    // with a client CA every client must present a certificate it signed (mutual TLS).
    std::string tls_cert_file;
    std::string tls_key_file;
    std::string tls_client_ca_file;
    std::string model_name;  // reported in /health and replies
    std::string version;     // reported in /health
    // One line per request, without secrets; null: no access log.
    std::function<void(const std::string&)> access_log;

    // Reads PORT, API_KEY, DGEM_SERVER_KEY, METRICS_KEY, MAX_INFLIGHT, MAX_QUEUE, INFLIGHT_WAIT_S,
    // DEFAULT_SAMPLES, DEFAULT_LAYOUT,
    // DEFAULT_ISOLATE, DEFAULT_SEED_TOKEN, MAX_MODEL_LEN, MAX_TOKENS, GENERATION_TIMEOUT_S,
    // HTTP_IDLE_TIMEOUT, MAX_BODY_BYTES, MAX_BATCH_READS, BATCH_WAIT_MS over
    // `base`. A bad value is an error naming the variable and what is accepted.
    static Result<ServerOptions> from_environment(const EnvLookup& env, const ServerOptions& base);
};

// The TLS files of `options`: the certificate and key readable PEM and belonging together, the
// client CA a PEM certificate, a client CA only with TLS. Errors name the file and its flag.
Result<void> check_tls_files(const ServerOptions& options);

class DecisionServer {
  public:
    // The backend serves every route: decisions, generations and health, and, where it holds
    // the model (the local engine), structured reads and the MAX_MODEL_LEN token counts.
    DecisionServer(std::shared_ptr<Backend> backend, ServerOptions options);
    ~DecisionServer();  // stops
    DecisionServer(const DecisionServer&) = delete;
    DecisionServer& operator=(const DecisionServer&) = delete;

    // Binds and serves on background threads. Errors name host:port, or the TLS file that is
    // missing, unreadable, not PEM, or a key that does not match its certificate.
    Result<void> start();
    int port() const;
    bool tls() const;  // serving https://
    // Stops accepting: requests waiting for a decision slot get 503, requests in flight finish
    // first. Safe to call twice.
    void stop();
    bool running() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace core
