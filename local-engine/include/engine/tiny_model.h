#pragma once
// Writes a small DiffusionGemma model folder of the real architecture (sliding and full layers
// with their two head sizes, K=V full layers with partial "proportional" RoPE, top-k experts
// beside the dense MLP, self-conditioning, different encoder and decoder layer scalars, a small
// sliding window, the real 262144-token vocabulary) with deterministic random weights. Used by
// `dgem make-tiny-model`, the build (build/models/tiny) and the tests.

#include <cstdint>
#include <filesystem>
#include <string>

#include "engine/result.h"

namespace engine {

struct TinyModelOptions {
    std::filesystem::path out_dir;
    std::filesystem::path tokenizer_json;  // copied to out_dir/tokenizer.json; empty: none
    uint64_t seed = 0;
    std::string preset = "tiny";  // "tiny" (~17M parameters) or "small" (~114M, benchmarks)
    // "f32" or "bf16" (the safetensors dtype of every tensor), or a quantised checkpoint as
    // published (other tensors bf16): "fp8" (compressed-tensors FP8 dynamic: every decoder
    // Linear but the router) or "nvfp4" (ModelOpt NVFP4: the experts and the dense MLP).
    std::string dtype = "f32";
    // With fp8 / nvfp4: the same model with each quantised weight replaced by its dequantised
    // values as F32 (experts fused as in bf16 checkpoints, other tensors the same bf16, no
    // quantization_config): the reference a loader of the quantised folder must match.
    bool dequantized_reference = false;
};

struct TinyModelSummary {
    int64_t parameters = 0;
    int64_t bytes = 0;  // model.safetensors size
};

// Writes config.json, generation_config.json, model.safetensors and tokenizer.json into
// out_dir (created if needed), each file atomically (temporary file, then rename).
Result<TinyModelSummary> write_tiny_model(const TinyModelOptions& options);

}  // namespace engine
