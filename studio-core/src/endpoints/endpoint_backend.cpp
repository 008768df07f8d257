// From an endpoint profile to a BackendSpec, and so to a Backend (see
// core/endpoints/endpoint_profiles.h and core/endpoints/backend_factory.h).
#include <filesystem>

#include "core/endpoints/backend_factory.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/net/auth.h"
#include "core/net/http_client.h"
#include "core/net/keychain.h"

namespace core {

using engine::bad_input;
using engine::remote_error;

namespace {

Result<BackendSpec> local_spec(const EndpointProfile& profile) {
    if (profile.model_dir.empty())
        return bad_input("endpoint \"" + profile.name +
                         "\": no model folder (a folder with "
                         "config.json, model.safetensors and tokenizer.json)");
    LocalEngineSpec spec;
    spec.model_dir = profile.model_dir;
    if (profile.device == "cpu")
        spec.device = EngineDevice::Cpu;
    else if (profile.device == "cuda")
        spec.device = EngineDevice::Cuda;
    else
        spec.device = EngineDevice::Auto;
    spec.warm_up = true;
    return BackendSpec{spec};
}

std::shared_ptr<TokenSource> token_source(const EndpointProfile& profile,
                                          const ProfileSecrets& secrets) {
    switch (profile.auth) {
        case AuthMode::None:
            break;
        case AuthMode::Token:
            return std::make_shared<StaticTokenSource>(secrets.token, "keychain");
        case AuthMode::GcloudIdentity:
            return std::make_shared<GcloudTokenSource>(GcpTokenKind::Identity);
        case AuthMode::GcloudAccess:
            return std::make_shared<GcloudTokenSource>(GcpTokenKind::Access);
    }
    return nullptr;
}

RemoteProtocol protocol_of(EndpointKind kind) {
    switch (kind) {
        case EndpointKind::DgemChat:
            return RemoteProtocol::Chat;
        case EndpointKind::SystemOne:
            return RemoteProtocol::SystemOne;
        case EndpointKind::Vllm:
            return RemoteProtocol::Vllm;
        default:
            return RemoteProtocol::Auto;
    }
}

std::string field(const EndpointProfile& profile, const char* name) {
    return "endpoint \"" + profile.name + "\" " + name;
}

EndpointNetwork endpoint_network(const EndpointProfile& profile, const ProfileSecrets& secrets) {
    EndpointNetwork network;
    if (!profile.ca_file.empty()) network.ca_file = {profile.ca_file, field(profile, "CA file")};
    if (!profile.client_cert_file.empty())
        network.client_cert = {profile.client_cert_file, field(profile, "client certificate")};
    if (!profile.client_key_file.empty())
        network.client_key = {profile.client_key_file, field(profile, "client key")};
    network.proxy = profile.proxy;
    network.proxy_source = field(profile, "proxy");
    network.proxy_password = secrets.proxy_password;
    return network;
}

Result<BackendSpec> remote_spec(const EndpointProfile& profile, const ProfileSecrets& secrets,
                                const EnvLookup& env) {
    if (profile.url.empty())
        return bad_input("endpoint \"" + profile.name +
                         "\": no URL (e.g. http://127.0.0.1:8080/v1)");
    RemoteSpec spec;
    spec.protocol = protocol_of(profile.kind);
    // Several URLs (commas between them): failover and spreading over all of them.
    const auto urls = split_url_list(profile.url);
    spec.options.url = urls.empty() ? profile.url : urls.front();
    if (urls.size() > 1) spec.more_urls.assign(urls.begin() + 1, urls.end());
    spec.options.model = profile.model;
    spec.options.transport.timeout_s =
        profile.timeout_s > 0 ? profile.timeout_s : kDefaultTimeoutSeconds;
    spec.options.transport.server_key = secrets.server_key;
    spec.options.transport.auth = token_source(profile, secrets);
    if (auto ok =
            configure_network(spec.options.transport, env, endpoint_network(profile, secrets));
        !ok)
        return ok.error();
    if (profile.kind == EndpointKind::Vllm || profile.kind == EndpointKind::Auto) {
        // vLLM plans canvases here, with the tokenizer of the tokenizer (else model) folder.
        const std::filesystem::path dir =
            profile.tokenizer_dir.empty() ? profile.model_dir : profile.tokenizer_dir;
        if (!dir.empty() && std::filesystem::exists(dir / "tokenizer.json")) {
            spec.tokenizer.load = TokenizerSpec::Load::Always;
            spec.tokenizer.path = dir / "tokenizer.json";
            spec.tokenizer.optional = true;
        }
        if (profile.kind == EndpointKind::Vllm)
            spec.tokenizer.missing_error = "endpoint \"" + profile.name +
                                           "\": vLLM structured reads need a "
                                           "tokenizer folder holding tokenizer.json";
    }
    return BackendSpec{std::move(spec)};
}

}  // namespace

Result<BackendSpec> backend_spec(const EndpointProfile& profile, const ProfileSecrets& secrets,
                                 const EnvLookup& env) {
    if (profile.kind == EndpointKind::Local) return local_spec(profile);
    return remote_spec(profile, secrets, env);
}

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
    if (!profile.proxy.empty() && profile.proxy != "direct" && profile.proxy != "none") {
        auto proxy = parse_proxy_url(profile.proxy, "endpoint \"" + profile.name + "\" proxy");
        if (!proxy) return proxy.error();
        if (!proxy->user.empty() && proxy->password.empty()) {
            auto stored = keychain_read(proxy_keychain_key(*proxy));
            if (stored && stored->has_value()) secrets.proxy_password = **stored;
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
    auto spec = backend_spec(profile, secrets);
    if (!spec) return spec.error();
    auto backend = build_backend(*spec, cancel, progress);
    if (!backend) return backend.error();
    return std::shared_ptr<Backend>(std::move(backend.value()));
}

}  // namespace core
