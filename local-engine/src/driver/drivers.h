#pragma once
// Backend-neutral drivers: the slot read (MODEL-SPEC section 8) and the entropy-bound denoising
// loop (section 7, as transformers generation_diffusion_gemma.py runs it). They call a
// ComputeBackend and never touch device memory.

#include <functional>
#include <span>

#include "backend/compute_backend.h"
#include "engine/engine.h"
#include "model/config.h"
#include "util/thread_pool.h"

namespace engine::driver {

// max_context: prompt + canvas tokens the model accepts.
Result<SlotReadResult> read_slots(backend::ComputeBackend& backend, int max_context,
                                  const SlotReadRequest& request, const CancelToken& cancel);

// One decoder pass of the denoising loop, as the debug observer of generate() sees it (the
// views are valid during the call only).
struct DenoisingPass {
    int canvas = 0;                            // 0-based
    int step = 0;                              // 1-based within the canvas
    int width = 0;                             // W
    std::span<const TokenId> ids;              // [W] the canvas fed to the decoder
    std::span<const float> self_conditioning;  // [W*vocab] its sc input; empty on a first step
    std::span<const float> logits;  // [W*vocab] soft-capped logits, before the temperature
};
using DenoisingObserver = std::function<void(const DenoisingPass&)>;

// The canvas width is request.canvas_length when set, else min(config canvas_length,
// max_new_tokens) (generator.cpp's header comment says why). `observer` (debug and reference
// tests only) is called after every decoder pass.
Result<GenerationResult> generate(backend::ComputeBackend& backend, util::ThreadPool& pool,
                                  const model::GenerationDefaults& defaults, int max_context,
                                  const Tokenizer& tokenizer, const GenerationRequest& request,
                                  const GenerationProgress& progress, const CancelToken& cancel,
                                  const DenoisingObserver& observer = {});

}  // namespace engine::driver
