#pragma once
// Which format each linear weight of the model has on the CUDA device (device_weights.h holds
// them): plain C++ without CUDA headers, so the memory plan and its tests use it anywhere.

#include <vector>

#include "engine/result.h"
#include "model/config.h"
#include "model/weights.h"

namespace engine::cuda {

// The format of each linear weight of the model: read from the tensors at upload, or predicted
// from config.json for the memory plan (the producers' rules, model/memory_plan.h). Router,
// embeddings and the LM head are always bf16 on the device.
struct LayerFormats {
    model::WeightFormat qkv = model::WeightFormat::BF16, o = model::WeightFormat::BF16;
    model::WeightFormat mlp = model::WeightFormat::BF16;  // gate/up and down
    model::WeightFormat experts = model::WeightFormat::BF16;
};
struct WeightFormats {
    model::WeightFormat self_conditioning = model::WeightFormat::BF16;
    std::vector<LayerFormats> layers;
};
// What a checkpoint of config.quantization.format quantises: NVFP4 (ModelOpt) the experts; FP8
// dynamic (compressed-tensors) every decoder Linear but the router.
WeightFormats planned_formats(const model::ModelConfig& config);
// Whether any linear weight of `f` is held in `format`.
bool uses_format(const WeightFormats& f, model::WeightFormat format);
// The formats the tensors are stored in. Errors: a fused group (q/k/v, gate/up) or a tensor's
// parts mixing formats.
Result<WeightFormats> stored_formats(const model::ModelWeights& weights);

}  // namespace engine::cuda
