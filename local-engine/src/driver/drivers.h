#pragma once
// Backend-neutral drivers: the slot read (MODEL-SPEC section 8) and the entropy-bound denoising
// loop (section 7, as transformers generation_diffusion_gemma.py runs it). They call a
// ComputeBackend and never touch device memory.

#include "backend/compute_backend.h"
#include "engine/engine.h"
#include "model/config.h"
#include "util/thread_pool.h"

namespace engine::driver {

// max_context: prompt + canvas tokens the model accepts.
Result<SlotReadResult> read_slots(backend::ComputeBackend& backend, int max_context,
                                  const SlotReadRequest& request, const CancelToken& cancel);

Result<GenerationResult> generate(backend::ComputeBackend& backend, util::ThreadPool& pool,
                                  const model::GenerationDefaults& defaults, int max_context,
                                  const Tokenizer& tokenizer, const GenerationRequest& request,
                                  const GenerationProgress& progress, const CancelToken& cancel);

}  // namespace engine::driver
