// dgem ask: an ordinary generation, on a server (OpenAI chat completions, --stream for SSE) or
// on the local engine (--local), with progress on stderr and the text on stdout.
#include <fstream>
#include <iostream>
#include <sstream>

#include "backend_factory.h"
#include "cli.h"
#include "core/template/template.h"
#include "remote_factory.h"

namespace {

engine::Result<std::string> prompt_text(const cli::Args& args) {
    if (auto file = args.find("template")) {
        std::ifstream in(*file, std::ios::binary);
        if (!in) return engine::bad_input("--template " + *file + ": cannot be read");
        std::stringstream source;
        source << in.rdbuf();
        nlohmann::json vars = nlohmann::json::object();
        for (const auto& kv : args.all("var")) {
            auto pair = cli::parse_key_value(kv);
            if (!pair) return pair.error();
            vars[pair->first] = pair->second;
        }
        auto text = core::render_template(source.str(), vars, *file);
        if (!text) return text.error();
        return *text;
    }
    std::string text;
    for (const auto& word : args.positional) text += (text.empty() ? "" : " ") + word;
    if (text.empty())
        return engine::bad_input("give a prompt (dgem ask \"...\") or a --template FILE");
    return text;
}

int run_ask(const cli::Args& args) {
    auto prompt = prompt_text(args);
    if (!prompt) return cli::fail(prompt.error());
    core::GenerateRequest request;
    request.messages.push_back({"user", *prompt});
    if (auto n = args.find("max-tokens")) {
        try {
            size_t used = 0;
            request.max_tokens = std::stoi(*n, &used);
            if (used != n->size() || request.max_tokens < 1) throw std::out_of_range("");
        } catch (...) {
            return cli::fail_bad_input("--max-tokens " + *n + ": expected a positive count");
        }
    }
    if (auto s = args.find("seed")) {
        try {
            request.seed = std::stoull(*s);
        } catch (...) {
            return cli::fail_bad_input("--seed " + *s + ": expected a non-negative integer");
        }
    }

    engine::Result<std::unique_ptr<core::Backend>> backend =
        args.has("local") ? dgem::make_backend(args) : dgem::make_remote_backend(args);
    if (!backend) return cli::fail(backend.error());

    bool streamed = false;
    std::string last_stage;
    auto progress = [&](const core::Progress& p) {
        if (!p.text_delta.empty() && p.stage != "done") {
            std::cout << p.text_delta << std::flush;
            streamed = true;
            return;
        }
        if (p.stage != last_stage && p.stage != "done") {
            std::cerr << "dgem: " << p.stage
                      << (p.fraction >= 0
                              ? " (" + std::to_string(static_cast<int>(p.fraction * 100)) + "%)"
                              : "")
                      << "\n";
            last_stage = p.stage;
        }
    };
    engine::CancelToken cancel;
    auto g = (*backend)->generate(request, progress, cancel);
    if (!g) {
        if (streamed) std::cout << "\n";
        return cli::fail(g.error());
    }
    if (!streamed) std::cout << g->text;
    std::cout << "\n";
    if (args.has("stats"))
        std::cerr << "dgem: " << g->completion_tokens << " tokens, " << g->passes << " passes, "
                  << static_cast<int>(g->timings.total_ms) << " ms"
                  << (g->timings.network_ms > 0
                          ? " (network " + std::to_string(static_cast<int>(g->timings.network_ms)) +
                                " ms)"
                          : "")
                  << ", finish " << g->finish_reason << " on " << (*backend)->describe() << "\n";
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(ask) {
    std::vector<cli::OptionSpec> options = {
        {"template", 't', "FILE",
         "prompt template (.txt.tmpl) instead of a prompt on the command line"},
        {"var", 'v', "key=value", "template variable", true},
        {"max-tokens", 0, "N", "most tokens to generate (default 256)"},
        {"seed", 0, "N", "sampling seed"},
        {"stream", 0, "", "stream the answer as it is generated (server-sent events)"},
    };
    for (auto& o : dgem::endpoint_options()) options.push_back(o);
    return cli::CommandSpec{
        "ask",
        "generate text from a prompt (remote OpenAI chat, or --local)",
        "dgem ask [PROMPT ...] [-t FILE -v key=value] [--max-tokens N] [--stream] [--local "
        "[--model DIR]]",
        "Sends one user message to the server's /v1/chat/completions (or runs the local\n"
        "engine's denoising loop with --local) and prints the answer; progress goes to stderr.",
        options,
        run_ask};
}
