// Resolution of dgem's client settings: flag > environment > ./.dgem.yaml >
// ~/.config/dgem/config.yaml > default (PROTOCOLS section 7).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "base/text.h"
#include "core/config/config.h"

namespace core {

namespace {

std::string trim(std::string s) {
    auto not_space = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
    s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
    return s;
}

using base::lower;

// One config file's values with the line each came from.
struct FileValues {
    std::map<std::string, std::pair<std::string, int>> values;  // key -> (value, 1-based line)
};

const std::vector<std::string>& known_file_keys() {
    static const std::vector<std::string> keys = {"url",        "model",       "timeout",
                                                  "stats",      "gcp_auth",    "iap_client_id",
                                                  "vertex_url", "http_retries"};
    return keys;
}

const char* const kKnownKeysText =
    "url, model, timeout, stats, gcp_auth, iap_client_id, vertex_url, http_retries";

// Where a setting's value came from, as a rank: flag 3 > environment 2 > a file 1 > default 0.
int precedence_rank(const Setting& s) {
    if (s.source.rfind("flag ", 0) == 0) return 3;
    if (s.source.rfind("env ", 0) == 0) return 2;
    if (!s.is_set() || s.source == "default") return 0;
    return 1;
}

engine::Result<std::optional<FileValues>> read_config_file(const std::filesystem::path& path,
                                                           std::vector<std::string>& warnings) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec))
        return std::optional<FileValues>{};
    std::ifstream in(path);
    if (!in) return engine::bad_input(path.string() + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    YAML::Node root;
    try {
        root = YAML::Load(text.str());
    } catch (const YAML::ParserException& e) {
        return engine::bad_input(path.string() + ":" + std::to_string(e.mark.line + 1) + ":" +
                                 std::to_string(e.mark.column + 1) + ": invalid YAML: " + e.msg);
    }
    FileValues out;
    if (root.IsNull()) return std::optional<FileValues>{out};
    if (!root.IsMap())
        return engine::bad_input(path.string() + ":" + std::to_string(root.Mark().line + 1) +
                                 ": expected a mapping of keys (" + kKnownKeysText + ")");
    for (auto it = root.begin(); it != root.end(); ++it) {
        // dgem's viper keys use '_'; its flags '-': a file may spell them either way.
        std::string key = it->first.as<std::string>("");
        std::replace(key.begin(), key.end(), '-', '_');
        const int line = it->first.Mark().line + 1;
        const std::string where = path.string() + ":" + std::to_string(line);
        if (key == "token" || key == "api_key" || key == "server_key") {
            warnings.push_back(where + ": '" + key +
                               "' is ignored: secrets live in the keychain (dgem auth set) or "
                               "DGEM_TOKEN / DGEM_SERVER_KEY, never in a config file");
            continue;
        }
        if (std::find(known_file_keys().begin(), known_file_keys().end(), key) ==
            known_file_keys().end()) {
            warnings.push_back(where + ": unknown key '" + key +
                               "' ignored (known: " + kKnownKeysText + ")");
            continue;
        }
        if (!it->second.IsScalar())
            return engine::bad_input(where + ": '" + key + "' must be a single value");
        out.values[key] = {trim(it->second.Scalar()), line};
    }
    return std::optional<FileValues>{out};
}

}  // namespace

EnvLookup process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        if (!v) return std::nullopt;
        return std::string(v);
    };
}

ConfigPaths ConfigPaths::standard(const EnvLookup& env) {
    ConfigPaths p;
    p.project_file = std::filesystem::current_path() / ".dgem.yaml";
    if (auto home = env("HOME"); home && !home->empty())
        p.user_file = std::filesystem::path(*home) / ".config" / "dgem" / "config.yaml";
    return p;
}

engine::Result<ConfigPaths> ConfigPaths::single(const std::filesystem::path& file) {
    std::error_code ec;
    if (file.empty()) return engine::bad_input("--config needs a file name (a YAML config file)");
    if (!std::filesystem::exists(file, ec))
        return engine::bad_input("--config " + file.string() +
                                 ": no such file (give an existing YAML config file)");
    if (!std::filesystem::is_regular_file(file, ec))
        return engine::bad_input("--config " + file.string() +
                                 ": not a regular file (give a YAML config file)");
    if (!std::ifstream(file))
        return engine::bad_input("--config " + file.string() + ": cannot be read");
    ConfigPaths p;
    p.project_file = file;
    p.explicit_file = true;
    return p;
}

bool is_cloud_run_url(const std::string& raw) {
    std::string u = lower(trim(raw));
    auto scheme = u.find("://");
    if (scheme == std::string::npos) return false;
    std::string host = u.substr(scheme + 3);
    host = host.substr(0, host.find_first_of("/?#"));
    if (auto at = host.rfind('@'); at != std::string::npos) host.erase(0, at + 1);
    if (auto colon = host.rfind(':'); colon != std::string::npos) host.resize(colon);
    const std::string suffix = ".run.app";
    return host.size() > suffix.size() &&
           host.compare(host.size() - suffix.size(), suffix.size(), suffix) == 0;
}

engine::Result<std::string> expand_vertex_url(const std::string& raw, const EnvLookup& env,
                                              const std::string& source) {
    const std::string v = trim(raw);
    const std::string accepted =
        "accepted: a dedicated endpoint id (with GCP_PROJECT_NUMBER and GCP_REGION set), "
        "projects/P/locations/R/endpoints/ID, or an https:// URL on "
        "*.prediction.vertexai.goog or *-aiplatform.googleapis.com";
    if (v.empty()) return engine::bad_input(source + ": an empty Vertex endpoint; " + accepted);
    if (v.rfind("http://", 0) == 0 || v.rfind("https://", 0) == 0) {
        std::string host = lower(v.substr(v.find("://") + 3));
        host = host.substr(0, host.find_first_of("/?#:"));
        auto ends = [&](const std::string& suffix) {
            return host.size() > suffix.size() &&
                   host.compare(host.size() - suffix.size(), suffix.size(), suffix) == 0;
        };
        if (v.rfind("https://", 0) != 0 ||
            !(ends(".prediction.vertexai.goog") || ends("aiplatform.googleapis.com")))
            return engine::bad_input(source + ": '" + v + "' is not a Vertex AI endpoint URL; " +
                                     accepted);
        return v;
    }
    auto need = [&](const char* name) -> engine::Result<std::string> {
        auto value = env(name);
        if (!value || trim(*value).empty())
            return engine::bad_input(source + " " + v + ": expanding an endpoint id needs " + name +
                                     " in the environment (GCP_PROJECT_NUMBER: the " +
                                     "project's number, GCP_REGION: e.g. us-central1)");
        return trim(*value);
    };
    auto valid_part = [](const std::string& part) {
        return !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) {
            return std::isalnum(c) || c == '-' || c == '_';
        });
    };
    std::string id = v, resource;
    if (v.rfind("projects/", 0) == 0) {
        std::string r = v;
        while (!r.empty() && r.back() == '/') r.pop_back();
        std::vector<std::string> parts;
        std::stringstream in(r);
        for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
        if (parts.size() != 6 || parts[2] != "locations" || parts[4] != "endpoints" ||
            !valid_part(parts[1]) || !valid_part(parts[3]) || !valid_part(parts[5]))
            return engine::bad_input(source + ": '" + v + "' is not " +
                                     "projects/P/locations/R/endpoints/ID; " + accepted);
        id = parts[5];
        resource = r;
    } else if (!valid_part(v)) {
        return engine::bad_input(source + ": '" + v + "' is not an endpoint id; " + accepted);
    }
    auto project = need("GCP_PROJECT_NUMBER");
    if (!project) return project.error();
    auto region = need("GCP_REGION");
    if (!region) return region.error();
    if (!valid_part(*project) || !valid_part(*region))
        return engine::bad_input(source + " " + v +
                                 ": GCP_PROJECT_NUMBER and GCP_REGION must be a project number "
                                 "and a region name such as us-central1");
    if (resource.empty())
        resource = "projects/" + *project + "/locations/" + *region + "/endpoints/" + id;
    return "https://" + id + "." + *region + "-" + *project + ".prediction.vertexai.goog/v1/" +
           resource + "/invoke/v1/chat/completions";
}

std::optional<double> parse_duration_seconds(const std::string& raw) {
    std::string text = lower(trim(raw));
    if (text.empty()) return std::nullopt;
    double total = 0;
    size_t i = 0;
    bool any = false;
    while (i < text.size()) {
        size_t start = i;
        while (i < text.size() &&
               (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
            ++i;
        if (start == i) return std::nullopt;
        double number = 0;
        try {
            number = std::stod(text.substr(start, i - start));
        } catch (...) {
            return std::nullopt;
        }
        size_t unit_start = i;
        while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
        std::string unit = text.substr(unit_start, i - unit_start);
        double scale = 0;
        if (unit.empty() || unit == "s")
            scale = 1;
        else if (unit == "ms")
            scale = 1e-3;
        else if (unit == "m")
            scale = 60;
        else if (unit == "h")
            scale = 3600;
        else
            return std::nullopt;
        if (unit.empty() && i < text.size()) return std::nullopt;
        total += number * scale;
        any = true;
    }
    if (!any || !std::isfinite(total) || total <= 0) return std::nullopt;
    return total;
}

std::optional<bool> parse_bool(const std::string& raw) {
    std::string t = lower(trim(raw));
    if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
    if (t == "false" || t == "0" || t == "no" || t == "off" || t.empty()) return false;
    return std::nullopt;
}

std::string mask_secret(const std::string& secret) {
    if (secret.empty()) return "(none)";
    return "******** (" + std::to_string(secret.size()) + " characters)";
}

std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        item = trim(item);
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

std::string first_list_entry(const std::string& list) {
    auto items = split_list(list);
    return items.empty() ? std::string() : items.front();
}

double ClientConfig::timeout_seconds() const {
    return parse_duration_seconds(timeout.value).value_or(kDefaultTimeoutSeconds);
}
bool ClientConfig::stats_enabled() const {
    return parse_bool(stats.value).value_or(false);
}
bool ClientConfig::gcp_auth_enabled() const {
    return parse_bool(gcp_auth.value).value_or(false);
}
bool ClientConfig::gcp_auth_from_file() const {
    return gcp_auth_enabled() && precedence_rank(gcp_auth) == 1;
}
int ClientConfig::http_retries_count() const {
    try {
        return http_retries.value.empty() ? 3 : std::stoi(http_retries.value);
    } catch (...) {
        return 3;
    }
}

std::vector<std::pair<std::string, const Setting*>> ClientConfig::listing() const {
    return {{"config", &config_files},
            {"url", &url},
            {"vertex_url", &vertex_url},
            {"model", &model},
            {"timeout", &timeout},
            {"http_retries", &http_retries},
            {"stats", &stats},
            {"gcp_auth", &gcp_auth},
            {"iap_client_id", &iap_client_id},
            {"token", &token},
            {"server_key", &server_key}};
}

engine::Result<ClientConfig> resolve_client_config(const ConfigFlags& flags, const EnvLookup& env,
                                                   const ConfigPaths& paths) {
    ClientConfig cfg;
    auto project = read_config_file(paths.project_file, cfg.warnings);
    if (!project) return project.error();
    auto user = read_config_file(paths.user_file, cfg.warnings);
    if (!user) return user.error();

    // Walks the precedence chain for one setting.
    auto resolve = [&](const std::string& key, const std::optional<std::string>& flag,
                       const std::string& flag_name, const std::string& env_name, bool from_files,
                       const std::string& fallback) {
        if (flag) return Setting{*flag, "flag --" + flag_name};
        if (!env_name.empty())
            if (auto v = env(env_name); v && !trim(*v).empty())
                return Setting{trim(*v), "env " + env_name};
        if (from_files) {
            for (const auto* file : {&project.value(), &user.value()}) {
                const std::filesystem::path& path =
                    file == &project.value() ? paths.project_file : paths.user_file;
                if (!*file) continue;
                auto it = (*file)->values.find(key);
                if (it != (*file)->values.end())
                    return Setting{it->second.first,
                                   path.string() + ":" + std::to_string(it->second.second)};
            }
        }
        if (!fallback.empty()) return Setting{fallback, "default"};
        return Setting{"", "unset"};
    };

    cfg.url = resolve("url", flags.url, "url", "DGEM_URL", true, kDefaultServerUrl);
    cfg.model = resolve("model", flags.model, "model", "DGEM_MODEL", true, "");
    cfg.timeout = resolve("timeout", flags.timeout, "timeout", "DGEM_TIMEOUT", true, "120s");
    cfg.stats = resolve("stats", flags.stats ? std::optional<std::string>("true") : std::nullopt,
                        "stats", "DGEM_STATS", true, "false");
    cfg.gcp_auth =
        resolve("gcp_auth", flags.gcp_auth ? std::optional<std::string>("true") : std::nullopt,
                "gcp-auth", "DGEM_GCP_AUTH", true, "false");
    cfg.iap_client_id = resolve("iap_client_id", flags.iap_client_id, "iap-client-id",
                                "DGEM_IAP_CLIENT_ID", true, "");
    cfg.vertex_url =
        resolve("vertex_url", flags.vertex_url, "vertex-url", "DGEM_VERTEX_URL", true, "");
    cfg.http_retries =
        resolve("http_retries", flags.http_retries, "http-retries", "DGEM_HTTP_RETRIES", true, "3");
    {
        std::string files;
        for (const auto* path : {&paths.project_file, &paths.user_file}) {
            const bool read =
                path == &paths.project_file ? project->has_value() : user->has_value();
            if (read) files += (files.empty() ? "" : ", ") + path->string();
        }
        cfg.config_files = Setting{files, paths.explicit_file ? "flag --config" : "default"};
    }
    cfg.token = resolve("token", flags.token, "token", "DGEM_TOKEN", false, "");
    cfg.token.secret = true;
    Setting keys = resolve("server_key", std::nullopt, "", "DGEM_SERVER_KEY", false, "");
    cfg.server_key = keys.is_set() ? Setting{first_list_entry(keys.value), keys.source} : keys;
    cfg.server_key.secret = true;

    if (!parse_duration_seconds(cfg.timeout.value))
        return engine::bad_input(cfg.timeout.source + ": timeout '" + cfg.timeout.value +
                                 "' is not a duration (accepted: 30, 30s, 1.5s, 500ms, 2m)");
    if (!parse_bool(cfg.stats.value))
        return engine::bad_input(cfg.stats.source + ": stats '" + cfg.stats.value +
                                 "' is not true or false");
    if (!parse_bool(cfg.gcp_auth.value))
        return engine::bad_input(cfg.gcp_auth.source + ": gcp_auth '" + cfg.gcp_auth.value +
                                 "' is not true or false");
    {
        const std::string& r = cfg.http_retries.value;
        const bool digits =
            !r.empty() && r.size() <= 3 && r.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoi(r) > kMaxHttpRetries)
            return engine::bad_input((cfg.http_retries.source == "flag --http-retries"
                                          ? std::string("--http-retries")
                                          : cfg.http_retries.source + ": http_retries") +
                                     " '" + r +
                                     "': accepted: a whole number of retries from 0 to " +
                                     std::to_string(kMaxHttpRetries));
    }
    if (cfg.vertex_url.is_set() && !cfg.vertex_url.value.empty()) {
        if (flags.url && flags.vertex_url)
            return engine::bad_input("give -u/--url or --vertex-url, not both");
        const std::string where = cfg.vertex_url.source == "flag --vertex-url"
                                      ? std::string("--vertex-url")
                                      : cfg.vertex_url.source + ": vertex_url";
        auto expanded = expand_vertex_url(cfg.vertex_url.value, env, where);
        if (!expanded) return expanded.error();
        // A Vertex endpoint replaces the URL unless the URL was given more directly.
        if (precedence_rank(cfg.vertex_url) >= precedence_rank(cfg.url))
            cfg.url = Setting{*expanded, cfg.vertex_url.source + " (vertex_url)"};
    }
    const std::string& u = cfg.url.value;
    if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0)
        return engine::bad_input(cfg.url.source + ": url '" + u +
                                 "' must start with http:// or https:// (e.g. " +
                                 kDefaultServerUrl + ")");
    return cfg;
}

}  // namespace core
