#pragma once
// Client configuration as dgem resolves it (PROTOCOLS section 7): command-line flag >
// environment (DGEM_URL, DGEM_MODEL, DGEM_TIMEOUT, DGEM_STATS, DGEM_TOKEN, DGEM_SERVER_KEY,
// DGEM_GCP_AUTH, DGEM_IAP_CLIENT_ID, DGEM_VERTEX_URL, DGEM_HTTP_RETRIES) > ./.dgem.yaml >
// ~/.config/dgem/config.yaml (keys url, model, timeout, stats, gcp_auth, iap_client_id,
// vertex_url, http_retries; `-` and `_` alike) > defaults. --config FILE reads that one file
// instead of the two.
// Every resolved value remembers where it came from, so `dgem config` can say so. Tokens never
// come from a config file: they live in the system keychain (core/net/keychain.h).

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/result.h"

namespace core {

inline constexpr const char* kDefaultServerUrl = "http://127.0.0.1:8080/v1";
inline constexpr double kDefaultTimeoutSeconds = 120;

// One resolved setting: its text, and where it came from ("flag --url", "env DGEM_URL",
// "./.dgem.yaml:3", "default", "keychain").
struct Setting {
    std::string value;
    std::string source;
    bool secret = false;  // printed masked
    bool is_set() const { return !source.empty() && source != "unset"; }
};

struct ClientConfig {
    Setting url;
    Setting model;
    Setting timeout;  // as written; timeout_seconds() parses it
    Setting stats;
    Setting token;       // bearer token: flag, DGEM_TOKEN (keychain filled in by the caller)
    Setting server_key;  // X-DGem-Key: the first entry of DGEM_SERVER_KEY
    Setting gcp_auth;
    Setting iap_client_id;  // IAP audience: gcloud mints identity tokens with --audiences=ID
    Setting vertex_url;     // as given (an endpoint id or a URL); url holds the expanded URL
    Setting http_retries;   // retries of 429/503 (TransportOptions::max_retries)
    Setting config_files;   // the config files read ("" when none), source "flag --config"
    std::vector<std::string> warnings;  // e.g. a config file key that is ignored

    double timeout_seconds() const;  // validated at resolve time
    bool stats_enabled() const;
    bool gcp_auth_enabled() const;
    // Whether gcp_auth was switched on by a config file (not a flag or the environment): then
    // tokens are minted only for Google hosts (*.run.app, Vertex AI), never sent elsewhere.
    bool gcp_auth_from_file() const;
    int http_retries_count() const;  // validated at resolve time; 3 when unset
    // The settings in display order, for `dgem config`.
    std::vector<std::pair<std::string, const Setting*>> listing() const;
};

// What the command line gave (absent = not given).
struct ConfigFlags {
    std::optional<std::string> url, model, timeout, token;
    std::optional<std::string> iap_client_id, vertex_url, http_retries;
    bool stats = false;
    bool gcp_auth = false;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
EnvLookup process_environment();

struct ConfigPaths {
    std::filesystem::path project_file;  // ./.dgem.yaml
    std::filesystem::path user_file;     // ~/.config/dgem/config.yaml
    bool explicit_file = false;          // --config: project_file is the one file read
    static ConfigPaths standard(const EnvLookup& env);
    // --config FILE: only that file; an error naming it when it is not a readable file.
    static engine::Result<ConfigPaths> single(const std::filesystem::path& file);
};

// Resolves every setting. A malformed YAML file is an error naming file:line:column; a bad
// value (timeout "soon") names its source and what is accepted.
engine::Result<ClientConfig> resolve_client_config(const ConfigFlags& flags, const EnvLookup& env,
                                                   const ConfigPaths& paths);

// The most retries --http-retries accepts.
inline constexpr int kMaxHttpRetries = 20;

// dgem's --vertex-url: a Vertex AI URL (https://....prediction.vertexai.goog/... or
// https://...aiplatform.googleapis.com/...) as it is, or a bare dedicated endpoint id (or
// "projects/P/locations/R/endpoints/ID") expanded with GCP_PROJECT_NUMBER and GCP_REGION into
// https://ID.REGION-PROJECT_NUMBER.prediction.vertexai.goog/v1/projects/PROJECT_NUMBER/
// locations/REGION/endpoints/ID/invoke/v1/chat/completions. Errors name `source`, the missing
// variable or what is accepted.
engine::Result<std::string> expand_vertex_url(const std::string& value, const EnvLookup& env,
                                              const std::string& source);
// Whether a URL's host is a Cloud Run service (*.run.app).
bool is_cloud_run_url(const std::string& url);

// Parses "120", "120s", "1.5s", "500ms", "2m" (Go durations as dgem writes them) into seconds.
std::optional<double> parse_duration_seconds(const std::string& text);
// Parses true/false/1/0/yes/no/on/off.
std::optional<bool> parse_bool(const std::string& text);
// "******** (32 characters)": says a secret is set without showing any of it.
std::string mask_secret(const std::string& secret);
// The first entry of a comma-separated key list (" new , old " -> "new").
std::string first_list_entry(const std::string& list);
std::vector<std::string> split_list(const std::string& list);

}  // namespace core
