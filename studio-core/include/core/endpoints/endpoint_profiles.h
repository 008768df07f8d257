#pragma once
// Endpoint profiles: where decisions run. A profile is the local engine (a model folder, CPU or
// CUDA) or a remote server (URL, protocol chosen or detected from /health, auth). Profiles are
// stored through QSettings without any secret: bearer tokens and server keys live in the system
// keychain (core/net/keychain.h), keyed by the profile's URL. The DGEM_* environment and .dgem.yaml
// (core/config/config.h) seed the profiles on first use.

#include <QSettings>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.h"
#include "core/decide/backend.h"

namespace core {

enum class EndpointKind { Local, Auto, DgemChat, SystemOne, Vllm };
enum class AuthMode {
    None,
    Token,           // bearer token from the keychain (DGEM_TOKEN when the keychain has none)
    GcloudIdentity,  // gcloud auth print-identity-token (Cloud Run)
    GcloudAccess,    // gcloud auth print-access-token (Vertex)
};

std::string_view to_string(EndpointKind kind);  // local, auto, chat, systemone, vllm
std::optional<EndpointKind> parse_endpoint_kind(std::string_view text);
std::string_view to_string(AuthMode mode);  // none, token, gcloud-identity, gcloud-access
std::optional<AuthMode> parse_auth_mode(std::string_view text);

struct EndpointProfile {
    std::string name;
    EndpointKind kind = EndpointKind::Local;
    // Local engine.
    std::string model_dir;
    std::string device = "auto";  // auto | cpu | cuda
    // Remote server: one URL, or several separated by commas (decisions go to the first that
    // is up and fail over to the next; bench workers spread over all of them). Secrets are
    // keyed by this text as a whole.
    std::string url;
    std::string model;
    double timeout_s = kDefaultTimeoutSeconds;
    AuthMode auth = AuthMode::None;
    bool server_key = false;  // send X-DGem-Key (keychain entry, else DGEM_SERVER_KEY)
    // vLLM structured reads plan canvases here: the folder holding tokenizer.json.
    std::string tokenizer_dir;
    // Network (core/net/http_client.h: EndpointNetwork): a CA file trusted besides the system
    // store and SSL_CERT_FILE; a client certificate and key for mutual TLS; a proxy URL
    // (http://[user@]host:port; empty: HTTPS_PROXY/HTTP_PROXY/NO_PROXY; "direct": none), its
    // password in the keychain (proxy_keychain_key), never here.
    std::string ca_file;
    std::string client_cert_file;
    std::string client_key_file;
    std::string proxy;

    bool remote() const { return kind != EndpointKind::Local; }
    bool operator==(const EndpointProfile&) const = default;
    // "Local engine · tiny (cpu)", "dgem chat · http://host:8080/v1"; never a secret.
    std::string summary() const;
};

// The keychain entries of a profile (service "decision-studio").
std::string token_keychain_key(const EndpointProfile& profile);
std::string server_key_keychain_key(const EndpointProfile& profile);

class EndpointProfileStore {
  public:
    std::vector<EndpointProfile> profiles;
    std::string active;  // profile name

    // Reads from `settings` (group "endpoints"); when none are stored, seeds: the local engine
    // on `default_model_dir`, plus a remote profile when the environment or .dgem.yaml name a
    // server (its URL, model, timeout and gcloud auth).
    static EndpointProfileStore load(QSettings& settings, const std::string& default_model_dir,
                                     const EnvLookup& env, const ConfigPaths& paths);
    void save(QSettings& settings) const;

    const EndpointProfile* find(const std::string& name) const;
    const EndpointProfile* activeProfile() const;
    std::string uniqueName(const std::string& stem) const;
};

// The secrets a remote profile sends, read on the caller's thread (the keychain needs its event
// loop): the bearer token (keychain, else DGEM_TOKEN) and the server key (keychain, else the
// first entry of DGEM_SERVER_KEY). Never stored in settings, never logged.
struct ProfileSecrets {
    std::string token;
    std::string server_key;
    std::string proxy_password;  // when the profile's proxy names a user
};
Result<ProfileSecrets> read_profile_secrets(const EndpointProfile& profile, const EnvLookup& env);

// Where a profile decides, as the typed description core/endpoints/backend_factory.h builds from;
// errors name the profile and what is missing (a model folder, a URL).
// The environment supplies SSL_CERT_FILE, SSL_CERT_DIR and the proxy variables.
struct BackendSpec;
Result<BackendSpec> backend_spec(const EndpointProfile& profile, const ProfileSecrets& secrets,
                                 const EnvLookup& env = process_environment());

// Builds the backend for a profile (blocking: a local profile loads its model, a remote Auto
// profile asks /health; run it off the UI thread). A local load reports its stages through
// `progress` (stage "reading", "binding" or "warming", fraction 0..1), warms the engine up
// before it returns, and stops with a "cancelled" error when `cancel` fires.
Result<std::shared_ptr<Backend>> make_profile_backend(const EndpointProfile& profile,
                                                      const ProfileSecrets& secrets,
                                                      const CancelToken& cancel = {},
                                                      const ProgressFn& progress = {});

}  // namespace core
