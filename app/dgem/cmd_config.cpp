// dgem config: every client setting as resolved, and where it came from; secrets masked.
#include <iostream>

#include "cli.h"
#include "remote_factory.h"

namespace {

int run_config(const cli::Args& args) {
    auto config = dgem::client_config(args);
    if (!config) return cli::fail(config.error());
    auto options = dgem::remote_options(args, *config);  // fills in a keychain token, if any
    if (!options) return cli::fail(options.error());
    if (args.has("json")) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [name, s] : config->listing())
            out[name] = {{"value", s->secret ? core::mask_secret(s->value) : s->value},
                         {"source", s->source}};
        out["warnings"] = config->warnings;
        std::cout << out.dump(2) << "\n";
        return cli::kExitOk;
    }
    for (const auto& [name, s] : config->listing()) {
        std::string shown =
            s->secret ? (s->value.empty() ? "(none)" : core::mask_secret(s->value)) : s->value;
        if (shown.empty()) shown = "(none)";
        std::string label = name;
        label.resize(15, ' ');
        std::cout << label << shown << "   [" << s->source << "]\n";
    }
    for (const auto& w : config->warnings) std::cout << "warning: " << w << "\n";
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(config) {
    auto options = cli::backend_options();
    options.push_back({"json", 0, "", "print as JSON"});
    return cli::CommandSpec{
        "config",
        "show the resolved client settings and where each came from",
        "dgem config [-u URL | --vertex-url URL|ID] [-m NAME] [--timeout D] [--config FILE] "
        "[--json]",
        "Precedence: flag > environment (DGEM_URL, DGEM_MODEL, DGEM_TIMEOUT, DGEM_STATS,\n"
        "DGEM_TOKEN, DGEM_SERVER_KEY, DGEM_GCP_AUTH, DGEM_IAP_CLIENT_ID, DGEM_VERTEX_URL,\n"
        "DGEM_HTTP_RETRIES) > ./.dgem.yaml > ~/.config/dgem/config.yaml (keys url, model,\n"
        "timeout, stats, gcp_auth, iap_client_id, vertex_url, http_retries) > defaults;\n"
        "--config FILE reads that file instead of the two. The token row says where the\n"
        "bearer token comes from (a flag, DGEM_TOKEN, the keychain or gcloud); tokens are\n"
        "masked, never printed. Store them with 'dgem auth set'.",
        options,
        run_config};
}
