// From dgem's flags to a remote Backend.
#include "remote_factory.h"

#include "core/auth.h"
#include "core/http_client.h"
#include "core/keychain.h"

namespace dgem {

engine::Result<core::ClientConfig> client_config(const cli::Args& args) {
    core::ConfigFlags flags;
    flags.url = args.find("url");
    if (!args.has("local")) flags.model = args.find("model");  // with --local, --model is a folder
    flags.timeout = args.find("timeout");
    flags.token = args.find("token");
    flags.stats = args.has("stats");
    flags.gcp_auth = args.has("gcp-auth");
    auto env = core::process_environment();
    return core::resolve_client_config(flags, env, core::ConfigPaths::standard(env));
}

engine::Result<core::RemoteOptions> remote_options(const cli::Args& args,
                                                   core::ClientConfig& config) {
    core::ensure_core_application();  // Qt Network and the keychain need one
    core::RemoteOptions options;
    options.url = config.url.value;
    options.model = config.model.value;
    options.transport.timeout_s = config.timeout_seconds();
    options.transport.server_key = config.server_key.value;
    options.stream = args.has("stream");
    if (config.token.is_set() && !config.token.value.empty()) {
        options.transport.auth =
            std::make_shared<core::StaticTokenSource>(config.token.value, config.token.source);
    } else if (config.gcp_auth_enabled()) {
        options.transport.auth =
            std::make_shared<core::GcloudTokenSource>(core::gcp_token_kind_for(options.url));
        config.token = core::Setting{
            "", std::string("--gcp-auth (") + options.transport.auth->describe() + ")"};
    } else if (auto stored = core::keychain_read(options.url); stored && stored->has_value()) {
        // No keychain reachable is not an error here: the server may need no token at all.
        config.token = core::Setting{
            **stored, "keychain (decision-studio, " + core::keychain_key(options.url) + ")", true};
        options.transport.auth = std::make_shared<core::StaticTokenSource>(**stored, "keychain");
    }
    return options;
}

engine::Result<std::unique_ptr<core::Backend>> make_remote_backend(const cli::Args& args) {
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
    std::optional<engine::Tokenizer> tokenizer;
    if (*protocol == core::RemoteProtocol::Vllm || *protocol == core::RemoteProtocol::Auto) {
        // Only the vLLM protocol plans canvases here; load the tokenizer when it may be needed.
        const std::string path = args.get("tokenizer", DS_TOKENIZER_JSON);
        if (*protocol == core::RemoteProtocol::Vllm || args.has("tokenizer")) {
            auto t = engine::Tokenizer::load(path);
            if (!t) return t.error();
            tokenizer = std::move(*t);
        }
    }
    if (auto v = args.find("canvas-length")) {
        try {
            options->canvas_length = std::stoi(*v);
        } catch (...) {
            return engine::bad_input("--canvas-length " + *v +
                                     ": expected a token count such as 256");
        }
    }
    engine::CancelToken cancel;
    if (*protocol == core::RemoteProtocol::Auto && !tokenizer) {
        auto detected = core::detect_protocol(*options, cancel);
        if (!detected) return detected.error();
        if (*detected == core::RemoteProtocol::Vllm) {
            auto t = engine::Tokenizer::load(args.get("tokenizer", DS_TOKENIZER_JSON));
            if (!t) return t.error();
            tokenizer = std::move(*t);
        }
        protocol = *detected;
    }
    return core::make_remote_backend(*protocol, std::move(*options),
                                     tokenizer ? &*tokenizer : nullptr, cancel);
}

}  // namespace dgem
