// bench-engine_passes: the local engine's CPU backend timed per prompt encoding and per denoising
// pass, the two units a block-diffusion runner repeats. bench/llama_cpp.sh runs it beside
// llama.cpp's DiffusionGemma on the same checkpoint, cores and thread count, and prints the ratio.
//
//  * encode: one causal encoder pass over P prompt tokens into a fresh cache (what a generation
//    does once per prompt).
//  * pass:   one decoder pass over the model's canvas (config canvas_length tokens) reading that
//    cache, with self-conditioning from the previous pass's logits, plus the full soft-capped
//    logits of every canvas position (what each denoising step does).
//
// The token ids are a fixed arithmetic sequence (bench/llama_cpp/pass_timer.cpp uses the same
// one), so both engines read the same tokens. Each figure is the median of --repeat timed runs
// after one untimed warm-up. Thread placement is the caller's (taskset); --threads sizes the
// engine's pool.
//
// Usage: bench-engine_passes --model DIR [--threads N] [--prompt-tokens P] [--repeat K]
// Prints key=value lines: device, prompt_tokens, canvas, vocab, encode_ms, pass_ms.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "backend/compute_backend.h"
#include "base/time.h"
#include "first_pass.h"
#include "model/weights.h"

namespace fs = std::filesystem;
using engine::TokenId;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void die(const std::string& message) {
    std::fprintf(stderr, "bench-engine_passes: %s\n", message.c_str());
    std::exit(1);
}

struct Options {
    fs::path model_dir;
    int threads = 1;
    int prompt_tokens = 128;
    int repeat = 5;
};

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) die("option " + a + " needs a value");
            return argv[++i];
        };
        if (a == "--model")
            o.model_dir = value();
        else if (a == "--threads")
            o.threads = std::max(1, std::stoi(value()));
        else if (a == "--prompt-tokens")
            o.prompt_tokens = std::max(1, std::stoi(value()));
        else if (a == "--repeat")
            o.repeat = std::max(1, std::stoi(value()));
        else
            die("unknown option " + a +
                "; accepted: --model DIR, --threads N, --prompt-tokens P, --repeat K");
    }
    if (o.model_dir.empty()) die("--model DIR is required");
    return o;
}

// The shared token sequences: prompt i -> 1000 + (7919 i + 17) mod 200000, canvas j ->
// 1000 + (104729 j + 3) mod 200000 (every id is an ordinary vocabulary entry of Gemma 4's 262144).
std::vector<TokenId> prompt_ids(int n) {
    std::vector<TokenId> ids(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) ids[size_t(i)] = TokenId(1000 + (7919LL * i + 17) % 200000);
    return ids;
}

std::vector<TokenId> canvas_ids(int n) {
    std::vector<TokenId> ids(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) ids[size_t(j)] = TokenId(1000 + (104729LL * j + 3) % 200000);
    return ids;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

using base::ms_since;

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse_options(argc, argv);
    auto weights = engine::model::load_model_weights(o.model_dir);
    if (!weights) die("weights: " + weights.error().message);
    auto made = engine::backend::make_cpu_backend(weights.value(), o.threads);
    if (!made) die("backend: " + made.error().message);
    engine::backend::ComputeBackend& be = **made;
    const int width = be.config().canvas_length;
    const int vocab = be.config().vocab_size;
    const std::vector<TokenId> prompt = prompt_ids(o.prompt_tokens);
    const std::vector<TokenId> canvas = canvas_ids(width);
    engine::CancelToken cancel;

    // Prompt encoding: a fresh cache each time.
    std::vector<double> encode_ms;
    for (int rep = 0; rep <= o.repeat; ++rep) {
        auto cache = be.create_cache(o.prompt_tokens);
        if (!cache) die("create_cache: " + cache.error().message);
        const auto t0 = Clock::now();
        if (auto r = be.encode(**cache, prompt, cancel); !r) die("encode: " + r.error().message);
        if (rep > 0) encode_ms.push_back(ms_since(t0));
    }

    // Denoising passes over one encoded prompt; the self-conditioning input is the first
    // (unconditioned) pass's logits at temperature 0.8, as a generation's second step sees them.
    auto cache = be.create_cache(o.prompt_tokens);
    if (!cache) die("create_cache: " + cache.error().message);
    if (auto r = be.encode(**cache, prompt, cancel); !r) die("encode: " + r.error().message);
    engine::backend::DecodeBatch batch;
    batch.rows = 1;
    batch.width = width;
    batch.ids = canvas;
    auto first = first_pass_logits(be, **cache, batch, cancel);
    if (!first) die("first pass: " + first.error().message);
    std::vector<float> sc = std::move(*first), logits;
    batch.self_conditioning_logits = sc.data();
    std::vector<double> pass_ms;
    for (int rep = 0; rep <= o.repeat; ++rep) {
        const auto t0 = Clock::now();
        auto decoded = be.decode(**cache, batch, cancel);
        if (!decoded) die("decode: " + decoded.error().message);
        if (auto r = be.logits(**decoded, logits); !r) die("logits: " + r.error().message);
        if (rep > 0) pass_ms.push_back(ms_since(t0));
    }

    std::printf("device=%s\n", be.device_name().c_str());
    std::printf("prompt_tokens=%d\ncanvas=%d\nvocab=%d\n", o.prompt_tokens, width, vocab);
    std::printf("encode_ms=%.3f\npass_ms=%.3f\n", median(encode_ms), median(pass_ms));
    return 0;
}
