// From an endpoint profile to a Backend (see core/endpoint_profiles.h).
#include <filesystem>

#include "core/auth.h"
#include "core/endpoint_profiles.h"
#include "core/keychain.h"
#include "core/local_backend.h"
#include "core/remote_backends.h"
#include "engine/engine.h"

namespace core {

using engine::bad_input;
using engine::engine_error;
using engine::remote_error;

namespace {
Result<std::shared_ptr<Backend>> make_local_backend(const EndpointProfile& profile,
                                                    const CancelToken& cancel,
                                                    const ProgressFn& progress) {
    if (profile.model_dir.empty())
        return bad_input("endpoint \"" + profile.name +
                         "\": no model folder (a folder with "
                         "config.json, model.safetensors and tokenizer.json)");
    engine::EngineOptions options;
    options.model_dir = profile.model_dir;
    if (profile.device == "cpu")
        options.device = engine::Device::Cpu;
    else if (profile.device == "cuda")
        options.device = engine::Device::Cuda;
    else
        options.device = engine::Device::Auto;
    options.cancel = cancel;
    options.warm_up = true;
    if (progress)
        options.load_progress = [progress](engine::LoadStage stage, double fraction) {
            progress(Progress{std::string(engine::to_string(stage)), fraction, {}});
        };
    auto backend = LocalBackend::open(options);
    if (!backend) return backend.error();
    return std::shared_ptr<Backend>(std::move(backend.value()));
}
}  // namespace

Result<ProfileSecrets> read_profile_secrets(const EndpointProfile& profile, const EnvLookup& env) {
    ProfileSecrets secrets;
    if (!profile.remote()) return secrets;
    if (profile.auth == AuthMode::Token) {
        auto stored = keychain_read(token_keychain_key(profile));
        if (stored && stored->has_value()) {
            secrets.token = **stored;
        } else if (auto from_env = env("DGEM_TOKEN"); from_env && !from_env->empty()) {
            secrets.token = *from_env;
        } else if (!stored) {
            return remote_error("endpoint \"" + profile.name +
                                "\": no token: " + stored.error().message);
        } else {
            return remote_error("endpoint \"" + profile.name +
                                "\": no token stored in the keychain for " + profile.url +
                                " (save one in Endpoints, or set DGEM_TOKEN)");
        }
    }
    if (profile.server_key) {
        auto stored = keychain_read(server_key_keychain_key(profile));
        if (stored && stored->has_value()) {
            secrets.server_key = **stored;
        } else if (auto from_env = env("DGEM_SERVER_KEY"); from_env && !from_env->empty()) {
            secrets.server_key = first_list_entry(*from_env);
        } else {
            return remote_error("endpoint \"" + profile.name +
                                "\": no server key in the keychain (save one in Endpoints, or "
                                "set DGEM_SERVER_KEY)");
        }
    }
    return secrets;
}

Result<std::shared_ptr<Backend>> make_profile_backend(const EndpointProfile& profile,
                                                      const ProfileSecrets& secrets,
                                                      const CancelToken& cancel,
                                                      const ProgressFn& progress) {
    if (profile.kind == EndpointKind::Local) {
        return make_local_backend(profile, cancel, progress);
    }
    if (profile.url.empty())
        return bad_input("endpoint \"" + profile.name +
                         "\": no URL (e.g. http://127.0.0.1:8080/v1)");
    RemoteOptions options;
    options.url = profile.url;
    options.model = profile.model;
    options.transport.timeout_s =
        profile.timeout_s > 0 ? profile.timeout_s : kDefaultTimeoutSeconds;
    options.transport.server_key = secrets.server_key;
    switch (profile.auth) {
        case AuthMode::None:
            break;
        case AuthMode::Token:
            options.transport.auth = std::make_shared<StaticTokenSource>(secrets.token, "keychain");
            break;
        case AuthMode::GcloudIdentity:
            options.transport.auth = std::make_shared<GcloudTokenSource>(GcpTokenKind::Identity);
            break;
        case AuthMode::GcloudAccess:
            options.transport.auth = std::make_shared<GcloudTokenSource>(GcpTokenKind::Access);
            break;
    }
    RemoteProtocol protocol = RemoteProtocol::Auto;
    switch (profile.kind) {
        case EndpointKind::DgemChat:
            protocol = RemoteProtocol::Chat;
            break;
        case EndpointKind::SystemOne:
            protocol = RemoteProtocol::SystemOne;
            break;
        case EndpointKind::Vllm:
            protocol = RemoteProtocol::Vllm;
            break;
        default:
            break;
    }
    std::optional<engine::Tokenizer> tokenizer;
    if (profile.kind == EndpointKind::Vllm || profile.kind == EndpointKind::Auto) {
        const std::filesystem::path dir =
            profile.tokenizer_dir.empty() ? profile.model_dir : profile.tokenizer_dir;
        if (!dir.empty() && std::filesystem::exists(dir / "tokenizer.json")) {
            auto loaded = engine::Tokenizer::load(dir / "tokenizer.json");
            if (loaded) tokenizer = std::move(loaded.value());
        }
        if (profile.kind == EndpointKind::Vllm && !tokenizer)
            return bad_input("endpoint \"" + profile.name +
                             "\": vLLM structured reads need a "
                             "tokenizer folder holding tokenizer.json");
    }
    auto backend =
        make_remote_backend(protocol, options, tokenizer ? &*tokenizer : nullptr, cancel);
    if (!backend) return backend.error();
    return std::shared_ptr<Backend>(std::move(backend.value()));
}

}  // namespace core
