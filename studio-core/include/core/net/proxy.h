#pragma once
// HTTP proxies for the remote clients, read as curl and Go read them: HTTPS_PROXY for https://
// URLs (a CONNECT tunnel through the proxy), HTTP_PROXY for http:// URLs (absolute-form
// requests), lower case first, and NO_PROXY (hosts, domain suffixes, IPs and CIDR ranges, each
// with an optional :port, or `*`) to go direct. An endpoint profile may name its own proxy
// instead. A proxy's password is a secret: display() and every error leave it out.

#include <optional>
#include <string>
#include <string_view>

#include "core/config/config.h"
#include "engine/result.h"

namespace core {

using engine::Result;

struct ProxyServer {
    std::string host;
    int port = 80;
    std::string user;
    std::string password;  // secret: never printed, logged or stored in settings
    std::string source;    // where it was named: "HTTPS_PROXY", "https_proxy", "the profile"

    // "http://alice@proxy.corp:3128" (the user, never the password).
    std::string display() const;
    bool operator==(const ProxyServer&) const = default;
};

struct ProxySettings {
    std::optional<ProxyServer> http;   // for http:// URLs
    std::optional<ProxyServer> https;  // for https:// URLs
    std::string no_proxy;              // NO_PROXY: go direct to these
    std::string no_proxy_source;       // "NO_PROXY" or "no_proxy"

    // The proxy a request to scheme://host:port goes through; null: direct.
    const ProxyServer* for_target(std::string_view scheme, std::string_view host, int port) const;
    bool operator==(const ProxySettings&) const = default;
};

// "http://[user[:password]@]host[:port][/]" or "host:port" (http assumed; port 80 when absent,
// as Go reads it). https:// and socks proxies are refused: cpp-httplib speaks plain HTTP to its
// proxy. Errors name `field` and the URL with its password masked.
Result<ProxyServer> parse_proxy_url(std::string_view url, std::string_view field);

// Whether NO_PROXY's list sends host:port direct. Entries are separated by commas (or spaces):
// `*` matches everything; "example.com", ".example.com" and "*.example.com" match example.com
// and every name under it; an IP matches that address, "10.0.0.0/8" a range; ":port" after any
// entry limits it to that port. Case and a trailing dot of the host are ignored.
bool no_proxy_matches(std::string_view no_proxy, std::string_view host, int port);

// HTTPS_PROXY/https_proxy, HTTP_PROXY/http_proxy and NO_PROXY/no_proxy (lower case wins when
// both are set, as curl reads them). A URL that does not parse is an error naming the variable.
Result<ProxySettings> proxy_settings_from_environment(const EnvLookup& env);

// The URL with any password replaced by "***", for messages.
std::string mask_url_password(std::string_view url);

}  // namespace core
