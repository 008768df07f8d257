// bench-tokenizer: encoding throughput of engine::Tokenizer against the JavaScript tokenizer
// (@lenml/tokenizers under node, tests/engine/js_tokenize.cjs) on the parity corpus, both in this
// run and on the same tokenizer.json. Single-threaded on both sides; load time is excluded from
// both throughputs (ours is printed separately).
//   bench-tokenizer [--rounds N] [--no-js]

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/time.h"
#include "engine/tokenizer.h"

namespace {

using Clock = std::chrono::steady_clock;
using base::seconds_since;

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 3;
    bool with_js = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--no-js")) {
            with_js = false;
        } else {
            std::cerr << "usage: bench-tokenizer [--rounds N] [--no-js]\n";
            return 2;
        }
    }
    const std::filesystem::path tokenizer_json = DS_BINARY_DIR "/models/tokenizer/tokenizer.json";
    const std::string corpus = DS_SOURCE_DIR "/tests/data/tokenizer_corpus.jsonl";

    auto t0 = Clock::now();
    auto loaded = engine::Tokenizer::load(tokenizer_json);
    const double load_s = seconds_since(t0);
    if (!loaded) {
        std::cerr << "bench-tokenizer: " << loaded.error().message << "\n";
        return 2;
    }
    const engine::Tokenizer& tok = *loaded;

    std::vector<std::string> texts;
    size_t bytes = 0;
    {
        std::ifstream in(corpus);
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            texts.push_back(nlohmann::json::parse(line).at("text").get<std::string>());
            bytes += texts.back().size();
        }
    }
    if (texts.empty()) {
        std::cerr << "bench-tokenizer: cannot read " << corpus << "\n";
        return 2;
    }

    // Ours: one warm-up pass, then timed passes.
    size_t tokens = 0;
    for (const auto& t : texts) tokens += tok.encode(t).size();
    const size_t tokens_per_pass = tokens;
    t0 = Clock::now();
    tokens = 0;
    for (int r = 0; r < rounds; ++r)
        for (const auto& t : texts) tokens += tok.encode(t).size();
    const double ours_s = seconds_since(t0);
    const double ours_tps = static_cast<double>(tokens) / ours_s;
    std::printf("corpus: %zu strings, %.2f MB, %zu tokens per pass; %d timed passes\n",
                texts.size(), static_cast<double>(bytes) / 1e6, tokens_per_pass, rounds);
    std::printf("load (ours):        %8.3f s\n", load_s);
    std::printf("ours (C++):         %12.0f tokens/s  (%.1f MB/s)\n", ours_tps,
                static_cast<double>(bytes) * rounds / ours_s / 1e6);
    if (!with_js) return 0;

    const std::string cmd = "node " + shell_quote(DS_SOURCE_DIR "/tests/engine/js_tokenize.cjs") +
                            " " + shell_quote(DS_BINARY_DIR "/_npm") + " " +
                            shell_quote(tokenizer_json.parent_path().string()) + " --bench " +
                            std::to_string(rounds) + " < " + shell_quote(corpus);
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        if (pclose(p) != 0) out.clear();
    }
    const auto js = nlohmann::json::parse(out, nullptr, false);
    if (js.is_discarded() || !js.contains("tokens") || !js.contains("seconds")) {
        std::cerr << "bench-tokenizer: the JavaScript tokenizer did not run (node, and "
                     "scripts/prepare-tokenizer.sh for " DS_BINARY_DIR "?)\n";
        return 1;
    }
    const auto js_tokens = js["tokens"].get<size_t>();
    const double js_tps = static_cast<double>(js_tokens) / js["seconds"].get<double>();
    std::printf("javascript (node):  %12.0f tokens/s\n", js_tps);
    std::printf("ratio ours/js:      %8.1fx\n", ours_tps / js_tps);
    if (js_tokens != tokens) {
        std::printf(
            "WARNING: token counts differ (ours %zu, javascript %zu): run the parity test\n",
            tokens, js_tokens);
        return 1;
    }
    return 0;
}
