// dgem serve: the local engine as a decision server (core/server/decision_server.h). Settings as
// dgem's serving image names them (PORT, API_KEY, DGEM_SERVER_KEY, MAX_INFLIGHT, ...); SIGTERM and
// SIGINT stop it gracefully: it stops accepting, lets requests in flight finish, and exits 0.
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "backend_factory.h"
#include "cli.h"
#include "core/decide/local_backend.h"
#include "core/server/decision_server.h"
#include "data_paths.h"

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void on_stop_signal(int) {
    stop_requested.store(true);
}

int run_serve(const cli::Args& args) {
    auto settings = dgem::local_engine_settings(args);
    if (!settings) return cli::fail_bad_input(settings.error().message);
    engine::EngineOptions engine_options = std::move(settings.value());

    core::ServerOptions base;
    base.host = args.get("host", "127.0.0.1");
    base.version = DS_VERSION;
    auto options = core::ServerOptions::from_environment(core::process_environment(), base);
    if (!options) return cli::fail(options.error());
    if (auto p = args.find("port")) {
        try {
            size_t used = 0;
            options->port = std::stoi(*p, &used);
            if (used != p->size() || options->port < 0 || options->port > 65535)
                throw std::out_of_range("");
        } catch (...) {
            return cli::fail_bad_input("--port " + *p + ": expected a port number from 0 to 65535");
        }
    }
    if (auto m = args.find("max-inflight")) {
        try {
            options->max_inflight = std::stoi(*m);
        } catch (...) {
            return cli::fail_bad_input("--max-inflight " + *m +
                                       ": expected a count, 0 for no bound");
        }
    }
    // The gateway routes' and /mcp's policies: by name from this catalog only.
    std::vector<std::filesystem::path> template_dirs;
    for (const auto& dir : args.all("templates")) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            return cli::fail_bad_input("--templates " + dir +
                                       ": not a folder; expected a folder of .json.tmpl policies");
        template_dirs.push_back(dir);
    }
    options->catalog = core::PolicyCatalog::standard(template_dirs, !args.has("no-user-policies"));

    // TLS: https:// with this certificate and key; a client CA makes clients present a
    // certificate it signed. The files are checked when the server starts.
    options->tls_cert_file = args.get("tls-cert");
    options->tls_key_file = args.get("tls-key");
    options->tls_client_ca_file = args.get("tls-client-ca");
    engine_options.batching.max_reads = options->batch_max_reads;
    engine_options.batching.max_wait_ms = options->batch_wait_ms;
    // --prefix-cache-mb (local_engine_settings) over PREFIX_CACHE_MB over the device default.
    if (!args.has("prefix-cache-mb") && options->prefix_cache_mb >= 0)
        engine_options.prefix_cache_bytes = int64_t{options->prefix_cache_mb} << 20;
    static std::mutex log_mutex;
    if (!args.has("quiet"))
        options->access_log = [](const std::string& line) {
            std::lock_guard lock(log_mutex);
            std::cerr << "dgem serve: " << line << "\n";
        };

    if (options->tls_cert_file.empty() != options->tls_key_file.empty())
        return cli::fail_bad_input(
            options->tls_cert_file.empty()
                ? "--tls-key needs --tls-cert (the certificate it belongs to)"
                : "--tls-cert needs --tls-key (its private key)");
    // Before the model loads: a wrong file is named at once.
    if (auto ok = core::check_tls_files(*options); !ok) return cli::fail(ok.error());
    std::cerr << "dgem serve: loading " << engine_options.model_dir.string() << "\n";
    auto local = core::LocalBackend::open(engine_options);
    if (!local) return cli::fail(local.error());
    engine::Engine* engine = &(*local)->engine();
    options->model_name = args.get("served-model-name", engine->info().name);
    std::shared_ptr<core::Backend> backend(std::move(local.value()));

    core::DecisionServer server(backend, *options);
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    if (auto started = server.start(); !started) return cli::fail(started.error());
    // Tests and scripts read the port from this line (--port 0 picks a free one).
    std::cout << "dgem serve: listening on " << (server.tls() ? "https" : "http") << "://"
              << options->host << ":" << server.port() << " (model " << options->model_name << ", "
              << engine->info().device << ", max in flight " << options->max_inflight << ", queue "
              << options->max_queue << " for up to " << options->inflight_wait_s << " s"
              << (options->api_key.empty() ? "" : ", API_KEY required")
              << (options->server_keys.empty() ? "" : ", X-DGem-Key required")
              << (options->tls_client_ca_file.empty() ? "" : ", client certificates required")
              << ")" << std::endl;
    while (!stop_requested.load() && server.running())
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::cerr << "dgem serve: stopping; queued requests get 503, requests in flight finish\n";
    server.stop();
    std::cerr << "dgem serve: stopped\n";
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(serve) {
    std::vector<cli::OptionSpec> options = {
        {"model", 'm', "DIR",
         "model folder (default: " + app_paths::default_model_label() + " built with the project)"},
        {"host", 0, "HOST",
         "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"},
        {"port", 'p', "PORT", "port (env PORT; default 8080; 0 picks a free port)"},
        {"max-inflight", 0, "N",
         "decisions run at once; the rest queue (env MAX_INFLIGHT, default 8)"},
        {"served-model-name", 0, "NAME",
         "model name in /health and replies (default: the folder's)"},
        {"quiet", 'q', "", "no access log on stderr"},
        {"templates", 0, "DIR",
         "a folder of .json.tmpl policies for /api/decide/{template}, /api/templates and /mcp, "
         "next to the shipped ones and the Studio's policy folder",
         true},
        {"no-user-policies", 0, "",
         "leave the Studio's policy folder (~/.local/share/decision-studio/policies) out of the "
         "catalog"},
        {"tls-cert", 0, "FILE", "serve https:// with this certificate (PEM, chain after it)"},
        {"tls-key", 0, "FILE", "the certificate's private key (PEM, unencrypted)"},
        {"tls-client-ca", 0, "FILE",
         "require client certificates signed by a CA in this PEM file (mutual TLS)"},
    };
    for (auto& o : dgem::local_engine_options()) options.push_back(o);
    return cli::CommandSpec{
        "serve",
        "serve decisions and generations over HTTP from the local engine",
        "dgem serve [--model DIR] [--host H] [--port P] [--device D] [--templates DIR]\n"
        "           [--tls-cert F --tls-key F [--tls-client-ca F]]",
        "Routes: GET /health (also / and /invoke/health); POST /v1/chat/completions (decision\n"
        "form: system = schema JSON, user = state JSON; generative form with stream: true SSE;\n"
        "vLLM structured reads via vllm_xargs.diffusion_seed_canvas); POST /v1/systemone;\n"
        "dgem's gateway: GET /api/templates, POST /api/decide/{template} {\"variables\": ...},\n"
        "POST /api/decide {\"custom_template\"|\"template\", variables, seed, samples, layout};\n"
        "POST /mcp (MCP over Streamable HTTP, stateless, the tools of 'dgem mcp'); GET /metrics\n"
        "(Prometheus text; METRICS_KEY=KEY requires Authorization: Bearer KEY). Policies are\n"
        "named from the catalog only (shipped, the Studio's folder, --templates); a path is\n"
        "never opened.\n"
        "Environment: PORT, API_KEY (bearer), DGEM_SERVER_KEY=new,old (X-DGem-Key), MAX_INFLIGHT\n"
        "(decisions at once, default 8), MAX_QUEUE (waiting, default 256; past it 503 at once),\n"
        "INFLIGHT_WAIT_S (longest wait in the queue before 503, default 30), DEFAULT_SAMPLES,\n"
        "DEFAULT_LAYOUT, DEFAULT_ISOLATE, DEFAULT_SEED_TOKEN, MAX_MODEL_LEN, HTTP_IDLE_TIMEOUT,\n"
        "MAX_BODY_BYTES, MAX_BATCH_READS (slot reads the engine batches together, default 32;\n"
        "1: none), BATCH_WAIT_MS (longest wait to fill a batch, default 1), PREFIX_CACHE_MB\n"
        "(encoded prompts kept for reads that begin with them; default 256 on the CPU, 0 on\n"
        "CUDA). /health reports the engine's batches, reads and prefix cache. SIGTERM/SIGINT: "
        "queued requests get 503, requests in\n"
        "flight finish, then exit 0.",
        options,
        run_serve};
}
