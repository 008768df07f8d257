// From dgem's flags to a remote Backend.
#include "remote_factory.h"

#include "core/net/auth.h"
#include "core/net/http_client.h"
#include "core/net/keychain.h"
#include "data_paths.h"

namespace dgem {

engine::Result<core::ClientConfig> client_config(const cli::Args& args) {
    core::ConfigFlags flags;
    flags.url = args.find("url");
    if (!args.has("local")) flags.model = args.find("model");  // with --local, --model is a folder
    flags.timeout = args.find("timeout");
    flags.token = args.find("token");
    flags.stats = args.has("stats");
    flags.gcp_auth = args.has("gcp-auth");
    flags.iap_client_id = args.find("iap-client-id");
    flags.vertex_url = args.find("vertex-url");
    flags.http_retries = args.find("http-retries");
    auto env = core::process_environment();
    core::ConfigPaths paths = core::ConfigPaths::standard(env);
    if (auto file = args.find("config")) {
        auto single = core::ConfigPaths::single(*file);
        if (!single) return single.error();
        paths = *single;
    }
    return core::resolve_client_config(flags, env, paths);
}

namespace {

// The gcloud token a remote call needs, if any (null: none). Vertex AI takes an access token;
// anything else an identity token, for the IAP audience when one is set. --gcp-auth (flag or
// DGEM_GCP_AUTH) and --iap-client-id mint for any URL; gcp_auth in a config file only for Google
// hosts (*.run.app, Vertex AI), so a Google token never goes to another server. A --vertex-url
// endpoint always takes an access token (Vertex AI accepts nothing else).
std::shared_ptr<core::TokenSource> gcloud_source(const core::ClientConfig& config,
                                                 const std::string& url, std::string& why) {
    const bool vertex = core::is_vertex_url(url);
    const std::string& audience = config.iap_client_id.value;
    const bool google_host = vertex || core::is_cloud_run_url(url);
    const bool from_vertex_url = config.vertex_url.is_set() && !config.vertex_url.value.empty() &&
                                 config.url.source.find("(vertex_url)") != std::string::npos;
    if (config.gcp_auth_enabled() && !config.gcp_auth_from_file())
        why = config.gcp_auth.source;
    else if (from_vertex_url && vertex)
        why = config.vertex_url.source;
    else if (!audience.empty() && !vertex)
        why = config.iap_client_id.source;
    else if (config.gcp_auth_from_file() && google_host)
        why = config.gcp_auth.source + ", " + (vertex ? "a Vertex AI URL" : "a *.run.app URL");
    else
        return nullptr;
    if (vertex) return std::make_shared<core::GcloudTokenSource>(core::GcpTokenKind::Access);
    return core::GcloudTokenSource::with_audience(audience);
}

// --ca-file, --client-cert, --client-key and --proxy; a proxy user's password from the keychain
// when the URL carries none.
engine::Result<core::EndpointNetwork> network_options(const cli::Args& args) {
    core::EndpointNetwork network;
    if (auto f = args.find("ca-file")) network.ca_file = {*f, "--ca-file"};
    if (auto f = args.find("client-cert")) network.client_cert = {*f, "--client-cert"};
    if (auto f = args.find("client-key")) network.client_key = {*f, "--client-key"};
    if (auto p = args.find("proxy")) {
        network.proxy = *p;
        network.proxy_source = "--proxy";
        if (*p != "direct" && *p != "none") {
            auto proxy = core::parse_proxy_url(*p, "--proxy");
            if (!proxy) return proxy.error();
            if (!proxy->user.empty() && proxy->password.empty())
                if (auto stored = core::keychain_read(core::proxy_keychain_key(*proxy));
                    stored && stored->has_value())
                    network.proxy_password = **stored;
        }
    }
    return network;
}

}  // namespace

engine::Result<core::RemoteOptions> remote_options(const cli::Args& args,
                                                   core::ClientConfig& config) {
    core::ensure_core_application();  // Qt Network and the keychain need one
    core::RemoteOptions options;
    options.url = config.url.value;
    options.model = config.model.value;
    options.transport.timeout_s = config.timeout_seconds();
    options.transport.server_key = config.server_key.value;
    options.transport.max_retries = config.http_retries_count();
    options.stream = args.has("stream");
    if (auto network = network_options(args); !network)
        return network.error();
    else if (auto ok =
                 core::configure_network(options.transport, core::process_environment(), *network);
             !ok)
        return ok.error();
    if (config.token.is_set() && !config.token.value.empty()) {
        options.transport.auth =
            std::make_shared<core::StaticTokenSource>(config.token.value, config.token.source);
    } else if (std::string why; auto gcloud = gcloud_source(config, options.url, why)) {
        options.transport.auth = gcloud;
        config.token = core::Setting{"", gcloud->describe() + " (" + why + ")"};
    } else if (auto stored = core::keychain_read(options.url); stored && stored->has_value()) {
        // No keychain reachable is not an error here: the server may need no token at all.
        config.token = core::Setting{
            **stored, "keychain (decision-studio, " + core::keychain_key(options.url) + ")", true};
        options.transport.auth = std::make_shared<core::StaticTokenSource>(**stored, "keychain");
    }
    return options;
}

engine::Result<core::BackendSpec> remote_spec(const cli::Args& args) {
    auto config = client_config(args);
    if (!config) return config.error();
    for (const auto& w : config->warnings) fprintf(stderr, "dgem: warning: %s\n", w.c_str());
    const std::string protocol_name = args.get("protocol", "auto");
    auto protocol = core::parse_remote_protocol(protocol_name);
    if (!protocol)
        return engine::bad_input("--protocol " + protocol_name +
                                 ": accepted: chat, systemone, vllm, openai or auto");
    auto options = remote_options(args, *config);
    if (!options) return options.error();
    core::RemoteSpec spec;
    spec.protocol = *protocol;
    // Only the vLLM protocol plans canvases here: its tokenizer is loaded when vLLM is named,
    // or --tokenizer is given with auto, else once /health says vLLM.
    spec.tokenizer.path = args.get("tokenizer", app_paths::tokenizer_json());
    if (*protocol == core::RemoteProtocol::Vllm ||
        (*protocol == core::RemoteProtocol::Auto && args.has("tokenizer")))
        spec.tokenizer.load = core::TokenizerSpec::Load::Always;
    else if (*protocol == core::RemoteProtocol::Auto)
        spec.tokenizer.load = core::TokenizerSpec::Load::IfDetectedVllm;
    if (auto v = args.find("canvas-length")) {
        try {
            options->canvas_length = std::stoi(*v);
        } catch (...) {
            return engine::bad_input("--canvas-length " + *v +
                                     ": expected a token count such as 256");
        }
    }
    // -u http://a/v1,http://b/v1: failover and spreading over several servers.
    auto urls = core::split_url_list(options->url);
    if (urls.size() > 1) {
        options->url = urls.front();
        spec.more_urls.assign(urls.begin() + 1, urls.end());
    }
    spec.options = std::move(*options);
    return core::BackendSpec{std::move(spec)};
}

engine::Result<std::unique_ptr<core::Backend>> make_remote_backend(const cli::Args& args) {
    auto spec = remote_spec(args);
    if (!spec) return spec.error();
    return core::build_backend(*spec);
}

}  // namespace dgem
