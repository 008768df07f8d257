// Endpoint profiles and their store (see core/endpoints/endpoint_profiles.h).
#include "core/endpoints/endpoint_profiles.h"

#include <filesystem>

#include "core/net/auth.h"
#include "core/net/proxy.h"

namespace core {

std::string_view to_string(EndpointKind kind) {
    switch (kind) {
        case EndpointKind::Local:
            return "local";
        case EndpointKind::Auto:
            return "auto";
        case EndpointKind::DgemChat:
            return "chat";
        case EndpointKind::SystemOne:
            return "systemone";
        case EndpointKind::Vllm:
            return "vllm";
    }
    return "local";
}

std::optional<EndpointKind> parse_endpoint_kind(std::string_view text) {
    for (auto k : {EndpointKind::Local, EndpointKind::Auto, EndpointKind::DgemChat,
                   EndpointKind::SystemOne, EndpointKind::Vllm})
        if (to_string(k) == text) return k;
    return std::nullopt;
}

std::string_view to_string(AuthMode mode) {
    switch (mode) {
        case AuthMode::None:
            return "none";
        case AuthMode::Token:
            return "token";
        case AuthMode::GcloudIdentity:
            return "gcloud-identity";
        case AuthMode::GcloudAccess:
            return "gcloud-access";
    }
    return "none";
}

std::optional<AuthMode> parse_auth_mode(std::string_view text) {
    for (auto m :
         {AuthMode::None, AuthMode::Token, AuthMode::GcloudIdentity, AuthMode::GcloudAccess})
        if (to_string(m) == text) return m;
    return std::nullopt;
}

std::string EndpointProfile::summary() const {
    if (kind == EndpointKind::Local) {
        const std::string folder = std::filesystem::path(model_dir).filename().string();
        return "Local engine · " + (folder.empty() ? std::string("no model") : folder) + " (" +
               device + ")";
    }
    const char* protocol = kind == EndpointKind::DgemChat    ? "dgem chat"
                           : kind == EndpointKind::SystemOne ? "System One"
                           : kind == EndpointKind::Vllm      ? "vLLM structured"
                                                             : "auto-detect";
    return std::string(protocol) + " · " + url;
}

std::string token_keychain_key(const EndpointProfile& profile) {
    return profile.url;
}
std::string server_key_keychain_key(const EndpointProfile& profile) {
    return "server-key:" + profile.url;
}

namespace {
std::string without_password(const std::string& url) {
    auto proxy = parse_proxy_url(url, "proxy");
    return proxy ? proxy->display() : std::string();
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
std::string s(const QVariant& v) {
    return v.toString().toStdString();
}
}  // namespace

EndpointProfileStore EndpointProfileStore::load(QSettings& settings,
                                                const std::string& default_model_dir,
                                                const EnvLookup& env, const ConfigPaths& paths) {
    EndpointProfileStore store;
    settings.beginGroup(QStringLiteral("endpoints"));
    const int n = settings.beginReadArray(QStringLiteral("profiles"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        EndpointProfile p;
        p.name = s(settings.value(QStringLiteral("name")));
        p.kind = parse_endpoint_kind(s(settings.value(QStringLiteral("kind"))))
                     .value_or(EndpointKind::Local);
        p.model_dir = s(settings.value(QStringLiteral("model_dir")));
        p.device = s(settings.value(QStringLiteral("device"), QStringLiteral("auto")));
        p.url = s(settings.value(QStringLiteral("url")));
        p.model = s(settings.value(QStringLiteral("model")));
        p.timeout_s =
            settings.value(QStringLiteral("timeout_s"), kDefaultTimeoutSeconds).toDouble();
        p.auth =
            parse_auth_mode(s(settings.value(QStringLiteral("auth")))).value_or(AuthMode::None);
        p.server_key = settings.value(QStringLiteral("server_key"), false).toBool();
        p.tokenizer_dir = s(settings.value(QStringLiteral("tokenizer_dir")));
        p.ca_file = s(settings.value(QStringLiteral("ca_file")));
        p.client_cert_file = s(settings.value(QStringLiteral("client_cert_file")));
        p.client_key_file = s(settings.value(QStringLiteral("client_key_file")));
        p.proxy = s(settings.value(QStringLiteral("proxy")));
        if (!p.name.empty()) store.profiles.push_back(std::move(p));
    }
    settings.endArray();
    store.active = s(settings.value(QStringLiteral("active")));
    settings.endGroup();
    if (!store.profiles.empty()) {
        if (!store.find(store.active)) store.active = store.profiles.front().name;
        return store;
    }

    // First use: the local engine, and the server the dgem configuration names, if any.
    EndpointProfile local;
    local.name = "Local engine";
    local.kind = EndpointKind::Local;
    local.model_dir = default_model_dir;
    store.profiles.push_back(local);
    store.active = local.name;
    auto config = resolve_client_config({}, env, paths);
    if (config && config->url.is_set() && config->url.source != "default") {
        EndpointProfile remote;
        remote.name = "Server from " + config->url.source;
        remote.kind = EndpointKind::Auto;
        remote.url = config->url.value;
        remote.model = config->model.value;
        remote.timeout_s = config->timeout_seconds();
        if (config->gcp_auth_enabled())
            remote.auth =
                is_vertex_url(remote.url) ? AuthMode::GcloudAccess : AuthMode::GcloudIdentity;
        else if (config->token.is_set())
            remote.auth = AuthMode::Token;
        remote.server_key = config->server_key.is_set();
        remote.tokenizer_dir = default_model_dir;
        store.profiles.push_back(remote);
    }
    return store;
}

void EndpointProfileStore::save(QSettings& settings) const {
    settings.beginGroup(QStringLiteral("endpoints"));
    settings.remove(QStringLiteral("profiles"));
    settings.beginWriteArray(QStringLiteral("profiles"), int(profiles.size()));
    for (size_t i = 0; i < profiles.size(); ++i) {
        const EndpointProfile& p = profiles[i];
        settings.setArrayIndex(int(i));
        settings.setValue(QStringLiteral("name"), q(p.name));
        settings.setValue(QStringLiteral("kind"), q(std::string(to_string(p.kind))));
        settings.setValue(QStringLiteral("model_dir"), q(p.model_dir));
        settings.setValue(QStringLiteral("device"), q(p.device));
        settings.setValue(QStringLiteral("url"), q(p.url));
        settings.setValue(QStringLiteral("model"), q(p.model));
        settings.setValue(QStringLiteral("timeout_s"), p.timeout_s);
        settings.setValue(QStringLiteral("auth"), q(std::string(to_string(p.auth))));
        settings.setValue(QStringLiteral("server_key"), p.server_key);
        settings.setValue(QStringLiteral("tokenizer_dir"), q(p.tokenizer_dir));
        settings.setValue(QStringLiteral("ca_file"), q(p.ca_file));
        settings.setValue(QStringLiteral("client_cert_file"), q(p.client_cert_file));
        settings.setValue(QStringLiteral("client_key_file"), q(p.client_key_file));
        // The URL as given: a password typed into it is dropped (it belongs in the keychain).
        settings.setValue(
            QStringLiteral("proxy"),
            q(mask_url_password(p.proxy) == p.proxy ? p.proxy : without_password(p.proxy)));
    }
    settings.endArray();
    settings.setValue(QStringLiteral("active"), q(active));
    settings.endGroup();
}

const EndpointProfile* EndpointProfileStore::find(const std::string& name) const {
    for (const auto& p : profiles)
        if (p.name == name) return &p;
    return nullptr;
}

const EndpointProfile* EndpointProfileStore::activeProfile() const {
    if (const auto* p = find(active)) return p;
    return profiles.empty() ? nullptr : &profiles.front();
}

std::string EndpointProfileStore::uniqueName(const std::string& stem) const {
    for (int n = 1;; ++n) {
        const std::string name = n == 1 ? stem : stem + " " + std::to_string(n);
        if (!find(name)) return name;
    }
}

}  // namespace core
