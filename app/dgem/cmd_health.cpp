// dgem health: is the server (or the local engine) up and ready, and what is it.
#include <iostream>

#include "backend_factory.h"
#include "cli.h"
#include "remote_factory.h"

namespace {

int run_health(const cli::Args& args) {
    engine::CancelToken cancel;
    engine::Result<core::HealthInfo> info = engine::bad_input("");
    std::string where;
    if (args.has("local")) {
        auto backend = dgem::make_backend(args);
        if (!backend) return cli::fail(backend.error());
        where = (*backend)->describe();
        info = (*backend)->health(cancel);
    } else {
        auto config = dgem::client_config(args);
        if (!config) return cli::fail(config.error());
        auto options = dgem::remote_options(args, *config);
        if (!options) return cli::fail(options.error());
        // -u A,B: every server is asked; the first one that is not ready answers for all.
        auto urls = core::split_url_list(options->url);
        if (urls.empty()) urls.push_back(options->url);
        for (const auto& url : urls) {
            where = url;
            options->url = url;
            core::OpenAiChatBackend probe(*options);
            info = probe.health(cancel);
            if (!info || !info->ready) break;
            if (url != urls.back()) std::cout << url << ": ready\n";
        }
    }
    if (!info) return cli::fail(info.error());
    if (args.has("json")) {
        nlohmann::json out = info->raw.is_object() ? info->raw : nlohmann::json::object();
        out["ready"] = info->ready;
        out["kind"] = info->kind;
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << where << ": " << (info->ready ? "ready" : "not ready") << " (" << info->kind;
        if (!info->server.empty()) std::cout << ", " << info->server;
        if (!info->version.empty()) std::cout << " " << info->version;
        if (!info->model.empty()) std::cout << ", model " << info->model;
        if (!info->device.empty()) std::cout << ", " << info->device;
        std::cout << ")\n";
    }
    if (!info->ready) return cli::fail(engine::remote_error(where + ": up but not ready"));
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(health) {
    auto options = cli::backend_options();
    for (auto& o : dgem::local_engine_options()) options.push_back(o);
    options.push_back({"json", 0, "", "print the server's /health reply as JSON"});
    return cli::CommandSpec{
        "health",
        "check that a server (or the local engine) is up and ready",
        "dgem health [-u URL] [--local [--model DIR]] [--json]",
        "GET <server>/health. Exit 0 when ready, 3 when unreachable or not ready.",
        options,
        run_health};
}
