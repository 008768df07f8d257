#pragma once
// Opens a model folder the way Engine::open does (config.json, safetensors, every tensor's name,
// shape and dtype checked against the config) without a tokenizer or backend: for `dgem` model
// checks and the loader tests.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/result.h"

namespace engine {

struct TensorInfo {
    std::string name;
    std::string dtype;  // "F32", "BF16", "F16"
    std::vector<int64_t> shape;
};

struct ModelSummary {
    std::string model_type;
    int num_layers = 0, hidden_size = 0, vocab_size = 0, canvas_length = 0;
    int sliding_window = 0, num_experts = 0, top_k_experts = 0;
    std::vector<bool> full_attention;  // per layer
    std::vector<float> encoder_layer_scalars, decoder_layer_scalars;
    std::vector<TensorInfo> tensors;  // the text-model tensors the engine reads
    int64_t parameters = 0;
};

Result<ModelSummary> inspect_model(const std::filesystem::path& model_dir);

}  // namespace engine
