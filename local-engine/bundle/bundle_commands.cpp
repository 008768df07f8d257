// make-tiny-model and parity for dgem-engine (see bundle_commands.h).

#include "bundle_commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/tiny_model.h"

namespace bundle {
namespace {

namespace fs = std::filesystem;

// `--name value` pairs; false (with a message) on anything else or a name not in `known`.
bool parse_options(int argc, char** argv, const std::vector<std::string>& known,
                   std::map<std::string, std::string>& out) {
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const std::string name = arg.rfind("--", 0) == 0 ? arg.substr(2) : "";
        if (name.empty() || std::find(known.begin(), known.end(), name) == known.end()) {
            std::fprintf(stderr, "dgem-engine: unexpected argument '%s'\n", arg.c_str());
            return false;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "dgem-engine: %s needs a value\n", arg.c_str());
            return false;
        }
        out[name] = argv[++i];
    }
    return true;
}

fs::path bundle_tokenizer() {
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path().parent_path() / "models/tokenizer/tokenizer.json";
}

// MODEL-SPEC section 6: the chat prompt "Why is the sky blue?" with thinking off.
const std::vector<engine::TokenId> kPrompt = {2,    105,  2364,   107, 11355, 563, 506,
                                              7217, 3730, 236881, 106, 107,   105, 4368,
                                              107,  100,  45518,  107, 101};

}  // namespace

int make_tiny_model(int argc, char** argv) {
    std::map<std::string, std::string> opt;
    if (!parse_options(argc, argv, {"out", "seed", "preset", "dtype", "tokenizer"}, opt)) return 2;
    engine::TinyModelOptions o;
    o.out_dir = opt["out"];
    if (o.out_dir.empty()) {
        std::fprintf(stderr, "dgem-engine make-tiny-model: --out DIR is required\n");
        return 2;
    }
    const std::string seed = opt.count("seed") ? opt["seed"] : "0";
    char* end = nullptr;
    o.seed = std::strtoull(seed.c_str(), &end, 10);
    if (seed.empty() || *end != '\0' || seed[0] == '-') {
        std::fprintf(stderr,
                     "dgem-engine make-tiny-model: --seed %s: expected a non-negative "
                     "integer\n",
                     seed.c_str());
        return 2;
    }
    if (opt.count("preset")) o.preset = opt["preset"];
    if (opt.count("dtype")) o.dtype = opt["dtype"];
    o.tokenizer_json = opt.count("tokenizer") ? fs::path(opt["tokenizer"]) : bundle_tokenizer();
    auto written = engine::write_tiny_model(o);
    if (!written) {
        std::fprintf(stderr, "dgem-engine make-tiny-model: %s\n", written.error().message.c_str());
        return 3;
    }
    std::printf("wrote %s (%s, %s, %lld parameters, %lld bytes)\n", o.out_dir.c_str(),
                o.preset.c_str(), o.dtype.c_str(), static_cast<long long>(written->parameters),
                static_cast<long long>(written->bytes));
    return 0;
}

int parity(int argc, char** argv) {
    std::map<std::string, std::string> opt;
    if (!parse_options(argc, argv, {"model", "tolerance"}, opt)) return 2;
    if (opt["model"].empty()) {
        std::fprintf(stderr, "dgem-engine parity: --model DIR is required\n");
        return 2;
    }
    const double tolerance = opt.count("tolerance") ? std::atof(opt["tolerance"].c_str()) : 2e-2;
    if (!(tolerance > 0)) {
        std::fprintf(stderr, "dgem-engine parity: --tolerance expects a positive number\n");
        return 2;
    }
    if (!engine::cuda_available()) {
        std::printf("parity: skipped (no usable CUDA device in this process)\n");
        return 77;
    }
    engine::EngineOptions eo;
    eo.model_dir = opt["model"];
    eo.device = engine::Device::Cpu;
    auto cpu = engine::Engine::open(eo);
    if (!cpu) {
        std::fprintf(stderr, "parity: cpu engine: %s\n", cpu.error().message.c_str());
        return 3;
    }
    eo.device = engine::Device::Cuda;
    auto gpu = engine::Engine::open(eo);
    if (!gpu) {
        std::fprintf(stderr, "parity: cuda engine: %s\n", gpu.error().message.c_str());
        return 3;
    }

    // Three rows of 32 seeded ids; four slots each with three seeded label ids.
    const int vocab = (*cpu)->info().vocab_size;
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> any(0, vocab - 1);
    engine::SlotReadRequest req;
    req.prompt_ids = kPrompt;
    for (int r = 0; r < 3; ++r) {
        engine::CanvasRow row;
        for (int i = 0; i < 32; ++i) row.ids.push_back(any(rng));
        for (int pos : {3, 9, 17, 30}) {
            engine::SlotSpec spec;
            spec.pos = pos;
            for (int k = 0; k < 3; ++k) spec.label_ids.push_back(any(rng));
            row.slot_specs.push_back(spec);
        }
        req.rows.push_back(row);
    }
    const engine::CancelToken cancel;
    auto a = (*cpu)->read_slots(req, cancel);
    auto g = (*gpu)->read_slots(req, cancel);
    if (!a || !g) {
        std::fprintf(stderr, "parity: read_slots: %s\n",
                     (!a ? a.error() : g.error()).message.c_str());
        return 3;
    }
    double worst = 0;
    int slots = 0, same = 0;
    for (size_t r = 0; r < a->rows.size(); ++r)
        for (size_t s = 0; s < a->rows[r].size(); ++s) {
            const auto& x = a->rows[r][s];
            const auto& y = g->rows[r][s];
            for (size_t k = 0; k < x.label_logprobs.size(); ++k)
                worst =
                    std::max(worst, std::fabs(double(x.label_logprobs[k]) - y.label_logprobs[k]));
            ++slots;
            same += x.argmax_is_label == y.argmax_is_label;
        }
    const bool ok = worst <= tolerance && same == slots;
    std::printf(
        "parity: worst label log-prob difference %.3g (tolerance %.3g), argmax-is-label "
        "agrees on %d/%d slots, %s (%s)\n",
        worst, tolerance, same, slots, ok ? "ok" : "DIFFERS", (*gpu)->info().device.c_str());
    return ok ? 0 : 1;
}

}  // namespace bundle
