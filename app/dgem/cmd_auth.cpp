// dgem auth set|get|delete: bearer tokens in the system keychain, one per server URL.
#include <iostream>

#include "cli.h"
#include "core/net/http_client.h"
#include "core/net/keychain.h"
#include "remote_factory.h"

namespace {

int run_auth(const cli::Args& args) {
    if (args.positional.size() != 1)
        return cli::fail_bad_input("dgem auth needs one action: set, get or delete");
    const std::string action = args.positional[0];
    core::ensure_core_application();
    std::string url;
    if (auto proxy_url = args.find("proxy")) {
        // A proxy user's password: the entry --proxy http://user@host:port reads.
        auto proxy = core::parse_proxy_url(*proxy_url, "--proxy");
        if (!proxy) return cli::fail(proxy.error());
        if (proxy->user.empty() || !proxy->password.empty())
            return cli::fail_bad_input("--proxy " + core::mask_url_password(*proxy_url) +
                                       ": give the proxy with its user and without a password "
                                       "(http://user@host:port); the password is what is stored");
        url = core::proxy_keychain_key(*proxy);
    } else {
        auto config = dgem::client_config(args);
        if (!config) return cli::fail(config.error());
        url = config->url.value;
    }
    if (action == "set") {
        std::string token = args.get("token");
        if (token.empty()) {
            std::cerr << "token for " << url << " (one line on stdin): " << std::flush;
            std::getline(std::cin, token);
        }
        while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
        if (token.empty())
            return cli::fail_bad_input("no token given (--token TOKEN, or one line on stdin)");
        if (auto ok = core::keychain_write(url, token); !ok) return cli::fail(ok.error());
        std::cout << "stored a token for " << core::keychain_key(url) << " in the keychain\n";
        return cli::kExitOk;
    }
    if (action == "get") {
        auto stored = core::keychain_read(url);
        if (!stored) return cli::fail(stored.error());
        if (!stored->has_value()) {
            std::cout << "no token stored for " << core::keychain_key(url) << "\n";
            return cli::kExitRemote;
        }
        std::cout << "a token is stored for " << core::keychain_key(url) << ": "
                  << core::mask_secret(**stored) << "\n";
        return cli::kExitOk;
    }
    if (action == "delete") {
        if (auto ok = core::keychain_delete(url); !ok) return cli::fail(ok.error());
        std::cout << "no token stored for " << core::keychain_key(url) << " any more\n";
        return cli::kExitOk;
    }
    return cli::fail_bad_input("unknown action '" + action + "'; accepted: set, get, delete");
}

}  // namespace

DGEM_COMMAND(auth) {
    return cli::CommandSpec{
        "auth",
        "store, check or delete a server's bearer token in the system keychain",
        "dgem auth set|get|delete [-u URL | --proxy http://user@host:port] [--token TOKEN]",
        "Tokens live in the keychain (service decision-studio, one entry per URL), never in a\n"
        "config file. 'set' reads the token from --token or one line on stdin; 'get' only says\n"
        "whether one is stored (it never prints a secret).",
        {{"url", 'u', "URL", "server base URL (env DGEM_URL; default http://127.0.0.1:8080/v1)"},
         {"token", 'k', "TOKEN", "the token to store (else read from stdin)"},
         {"proxy", 0, "URL",
          "a proxy's password instead, for http://user@host:port (as --proxy and profiles name "
          "it)"}},
        run_auth};
}
