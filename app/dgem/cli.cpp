#include "cli.h"

#include <cstdio>
#include <iostream>

namespace cli {

namespace {
std::vector<CommandSpec>& registry() {
    static std::vector<CommandSpec> commands;  // function-local: safe at static init
    return commands;
}
}  // namespace

std::string Args::get(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() || it->second.empty() ? fallback : it->second.back();
}

std::optional<std::string> Args::find(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

const std::vector<std::string>& Args::all(const std::string& name) const {
    static const std::vector<std::string> empty;
    auto it = values_.find(name);
    return it == values_.end() ? empty : it->second;
}

bool register_command(CommandSpec spec) {
    auto& r = registry();
    auto pos =
        std::lower_bound(r.begin(), r.end(), spec.name,
                         [](const CommandSpec& c, const std::string& n) { return c.name < n; });
    r.insert(pos, std::move(spec));
    return true;
}

const std::vector<CommandSpec>& commands() {
    return registry();
}

std::vector<OptionSpec> backend_options() {
    return {
        {"url", 'u', "URL", "server base URL (env DGEM_URL; default http://127.0.0.1:8080/v1)"},
        {"model", 'm', "NAME", "model name sent to the server (env DGEM_MODEL)"},
        {"token", 'k', "TOKEN", "bearer token (env DGEM_TOKEN, or the system keychain)"},
        {"gcp-auth", 0, "",
         "use a Google identity/access token from gcloud (env DGEM_GCP_AUTH; gcp_auth in a "
         "config file mints for *.run.app and Vertex AI URLs only)"},
        {"iap-client-id", 0, "ID",
         "IAP-protected service: identity tokens from gcloud for this audience "
         "(env DGEM_IAP_CLIENT_ID)"},
        {"vertex-url", 0, "URL|ID",
         "a Vertex AI endpoint URL, or a dedicated endpoint id expanded with GCP_PROJECT_NUMBER "
         "and GCP_REGION (env DGEM_VERTEX_URL); an access token from gcloud"},
        {"timeout", 0, "SECONDS", "request timeout (env DGEM_TIMEOUT)"},
        {"http-retries", 0, "N",
         "retries of HTTP 429/503 with back-off, 0 to 20 (env DGEM_HTTP_RETRIES; default 3)"},
        {"config", 0, "FILE",
         "read this YAML config file instead of ./.dgem.yaml and ~/.config/dgem/config.yaml"},
        {"stats", 's', "", "print a table of probabilities, hesitation and timings"},
        {"local", 0, "", "run on the bundled local engine instead of a server"},
        {"protocol", 0, "NAME",
         "server protocol: chat, systemone, vllm, openai or auto (from /health)"},
        {"tokenizer", 0, "FILE",
         "tokenizer.json for --protocol vllm (default: the built Gemma tokenizer)"},
        {"ca-file", 0, "FILE",
         "also trust the CAs in this PEM file (besides the system store, SSL_CERT_FILE and "
         "SSL_CERT_DIR)"},
        {"client-cert", 0, "FILE", "client certificate (PEM) for mutual TLS, with --client-key"},
        {"client-key", 0, "FILE", "the client certificate's private key (PEM, unencrypted)"},
        {"proxy", 0, "URL",
         "HTTP proxy http://[user@]host:port for this server (default: HTTPS_PROXY/HTTP_PROXY "
         "and NO_PROXY; 'direct' for none); a user's password from the keychain "
         "(dgem auth set --proxy http://user@host:port)"},
    };
}

int fail(const engine::Error& error) {
    std::cerr << "dgem: " << error.message << "\n";
    switch (error.kind) {
        case engine::ErrorKind::BadInput:
            return kExitBadInput;
        case engine::ErrorKind::Remote:
            return kExitRemote;
        case engine::ErrorKind::Engine:
            return kExitEngine;
        case engine::ErrorKind::Cancelled:
            return kExitCancelled;
    }
    return kExitEngine;
}

int fail_bad_input(const std::string& message) {
    return fail(engine::bad_input(message));
}

engine::Result<std::pair<std::string, std::string>> parse_key_value(const std::string& arg) {
    auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        return engine::bad_input("variable '" + arg +
                                 "' is not key=value (e.g. -v ticket=\"...\")");
    return std::make_pair(arg.substr(0, eq), arg.substr(eq + 1));
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string pad(std::string s, size_t width) {
    if (s.size() < width) s.resize(width, ' ');
    return s;
}

}  // namespace cli
