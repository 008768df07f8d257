// Proxy URLs and NO_PROXY, as curl and Go read them (see core/net/proxy.h).
#include "core/net/proxy.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "base/text.h"

namespace core {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::optional<int> parse_port(std::string_view text) {
    if (text.empty() || text.size() > 5) return std::nullopt;
    int port = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        port = port * 10 + (c - '0');
    }
    if (port < 1 || port > 65535) return std::nullopt;
    return port;
}

// Percent-decoding for the user and password of a proxy URL ("p%40ss" -> "p@ss").
std::string percent_decoded(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            const auto hex = [](char c) -> int {
                if (c >= '0' && c <= '9') return c - '0';
                c = static_cast<char>(c | 0x20);
                return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            };
            const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

// An address in network byte order (4 or 16 bytes); nullopt when `text` is not an IP.
std::optional<std::vector<unsigned char>> ip_bytes(std::string_view text) {
    std::string s(text);
    if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
    std::array<unsigned char, 16> buf{};
    if (inet_pton(AF_INET, s.c_str(), buf.data()) == 1)
        return std::vector<unsigned char>(buf.begin(), buf.begin() + 4);
    if (inet_pton(AF_INET6, s.c_str(), buf.data()) == 1)
        return std::vector<unsigned char>(buf.begin(), buf.end());
    return std::nullopt;
}

bool in_range(const std::vector<unsigned char>& ip, const std::vector<unsigned char>& net,
              int prefix) {
    if (ip.size() != net.size() || prefix < 0 || prefix > int(net.size()) * 8) return false;
    for (int bit = 0; bit < prefix; ++bit) {
        const unsigned char mask = static_cast<unsigned char>(0x80 >> (bit % 8));
        if ((ip[bit / 8] & mask) != (net[bit / 8] & mask)) return false;
    }
    return true;
}

// One NO_PROXY entry against a host (lower case, no trailing dot) and port.
bool entry_matches(std::string entry, const std::string& host, int port) {
    if (entry == "*") return true;
    // An optional ":port" (not inside an IPv6 address without brackets).
    std::optional<int> entry_port;
    const auto colon = entry.rfind(':');
    const bool bracketed_v6 = !entry.empty() && entry.front() == '[';
    const bool bare_v6 = std::count(entry.begin(), entry.end(), ':') > 1 && !bracketed_v6;
    if (colon != std::string::npos && !bare_v6 && entry.find(']', colon) == std::string::npos) {
        entry_port = parse_port(std::string_view(entry).substr(colon + 1));
        if (!entry_port) return false;
        entry.resize(colon);
    }
    if (entry_port && *entry_port != port) return false;
    if (bracketed_v6 && entry.size() > 2 && entry.back() == ']')
        entry = entry.substr(1, entry.size() - 2);
    // A CIDR range or an IP.
    if (const auto slash = entry.find('/'); slash != std::string::npos) {
        const auto net = ip_bytes(entry.substr(0, slash));
        const auto ip = ip_bytes(host);
        int prefix = -1;
        try {
            prefix = std::stoi(entry.substr(slash + 1));
        } catch (...) {
        }
        return net && ip && in_range(*ip, *net, prefix);
    }
    if (const auto net = ip_bytes(entry)) {
        const auto ip = ip_bytes(host);
        return ip && *ip == *net;
    }
    // A domain: itself and every name under it.
    if (entry.rfind("*.", 0) == 0) entry.erase(0, 1);
    if (!entry.empty() && entry.front() == '.') entry.erase(0, 1);
    while (!entry.empty() && entry.back() == '.') entry.pop_back();
    if (entry.empty()) return false;
    if (host == entry) return true;
    return host.size() > entry.size() &&
           host.compare(host.size() - entry.size(), entry.size(), entry) == 0 &&
           host[host.size() - entry.size() - 1] == '.';
}

// The first of the names that is set and not empty: {value, name}.
std::optional<std::pair<std::string, std::string>> first_set(
    const EnvLookup& env, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (auto v = env(name); v && !trim(*v).empty())
            return std::pair{std::string(trim(*v)), std::string(name)};
    return std::nullopt;
}

}  // namespace

std::string ProxyServer::display() const {
    std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return "http://" + (user.empty() ? "" : user + "@") + h + ":" + std::to_string(port);
}

const ProxyServer* ProxySettings::for_target(std::string_view scheme, std::string_view host,
                                             int port) const {
    const std::optional<ProxyServer>& proxy =
        base::lower(std::string(scheme)) == "https" ? https : http;
    if (!proxy) return nullptr;
    if (!no_proxy.empty() && no_proxy_matches(no_proxy, host, port)) return nullptr;
    return &*proxy;
}

std::string mask_url_password(std::string_view url) {
    std::string s(url);
    const auto scheme_end = s.find("://");
    const size_t start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
    const auto at = s.find('@', start);
    const auto slash = s.find('/', start);
    if (at == std::string::npos || (slash != std::string::npos && slash < at)) return s;
    const auto colon = s.find(':', start);
    if (colon == std::string::npos || colon > at) return s;
    return s.substr(0, colon + 1) + "***" + s.substr(at);
}

Result<ProxyServer> parse_proxy_url(std::string_view url_in, std::string_view field) {
    const std::string_view url = trim(url_in);
    const auto fail = [&](const std::string& why) {
        return engine::bad_input(std::string(field) + "=" + mask_url_password(url) + ": " + why +
                                 " (accepted: http://[user[:password]@]host[:port])");
    };
    std::string_view rest = url;
    if (const auto sep = rest.find("://"); sep != std::string_view::npos) {
        const std::string scheme = base::lower(std::string(rest.substr(0, sep)));
        if (scheme == "https")
            return fail(
                "an https:// proxy (TLS to the proxy) is not supported; the proxy itself "
                "must be reached over http://, https:// URLs still tunnel through it");
        if (scheme != "http") return fail("the proxy scheme \"" + scheme + "\" is not supported");
        rest.remove_prefix(sep + 3);
    }
    while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    if (rest.find_first_of("/?#") != std::string_view::npos) return fail("a proxy URL has no path");
    ProxyServer proxy;
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view userinfo = rest.substr(0, at);
        const auto colon = userinfo.find(':');
        proxy.user = percent_decoded(userinfo.substr(0, colon));
        if (colon != std::string_view::npos)
            proxy.password = percent_decoded(userinfo.substr(colon + 1));
        rest.remove_prefix(at + 1);
    }
    std::string_view host = rest, port_text;
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) return fail("an unclosed [ in the host");
        host = rest.substr(1, close - 1);
        if (close + 1 < rest.size()) {
            if (rest[close + 1] != ':') return fail("unexpected text after the host");
            port_text = rest.substr(close + 2);
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port_text = rest.substr(colon + 1);
    }
    if (host.empty()) return fail("no host");
    if (host.find_first_of(" \t@:") != std::string_view::npos && !ip_bytes(host))
        return fail("the host \"" + std::string(host) + "\" is not a host name");
    proxy.host = std::string(host);
    if (!port_text.empty() || rest.back() == ':') {
        auto port = parse_port(port_text);
        if (!port) return fail("the port \"" + std::string(port_text) + "\" is not 1 to 65535");
        proxy.port = *port;
    }
    return proxy;
}

bool no_proxy_matches(std::string_view no_proxy, std::string_view host_in, int port) {
    std::string host = base::lower(std::string(trim(host_in)));
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    while (!host.empty() && host.back() == '.') host.pop_back();
    std::string entry;
    const auto flush = [&]() {
        const bool hit = !entry.empty() && entry_matches(base::lower(entry), host, port);
        entry.clear();
        return hit;
    };
    for (char c : no_proxy) {
        if (c == ',' || c == ' ' || c == '\t') {
            if (flush()) return true;
        } else {
            entry += c;
        }
    }
    return flush();
}

Result<ProxySettings> proxy_settings_from_environment(const EnvLookup& env) {
    ProxySettings settings;
    if (auto v = first_set(env, {"https_proxy", "HTTPS_PROXY"})) {
        auto proxy = parse_proxy_url(v->first, v->second);
        if (!proxy) return proxy.error();
        proxy->source = v->second;
        settings.https = std::move(*proxy);
    }
    if (auto v = first_set(env, {"http_proxy", "HTTP_PROXY"})) {
        auto proxy = parse_proxy_url(v->first, v->second);
        if (!proxy) return proxy.error();
        proxy->source = v->second;
        settings.http = std::move(*proxy);
    }
    if (auto v = first_set(env, {"no_proxy", "NO_PROXY"})) {
        settings.no_proxy = v->first;
        settings.no_proxy_source = v->second;
    }
    return settings;
}

}  // namespace core
