#pragma once
// Backend-neutral drivers: the slot read (MODEL-SPEC section 8) and the entropy-bound denoising
// loop (section 7, as transformers generation_diffusion_gemma.py runs it). They call a
// ComputeBackend and never touch device memory.

#include <functional>
#include <span>

#include "backend/compute_backend.h"
#include "driver/prefix_cache.h"
#include "engine/engine.h"
#include "model/config.h"
#include "util/thread_pool.h"

namespace engine::driver {

// A request's images placed in its prompt: the prompt indices of the image-token runs and the
// images' soft tokens for them ([indices, hidden] fp32), for backend::PromptInput.
struct PromptImages {
    std::vector<int64_t> embed_at;
    std::vector<float> embeds;
};

// Matches `images` to the runs of image_token_id in `prompt` (in order), preprocesses each
// image (`processor`: the model's processor config, null without a vision tower) and runs the
// vision tower on it. Errors: images for a model without a vision tower; a different number of
// runs than images; a run whose length is not the image's soft-token count; a bad image.
Result<PromptImages> place_images(backend::ComputeBackend& backend,
                                  const vision::ImageProcessorConfig* processor,
                                  std::span<const TokenId> prompt,
                                  std::span<const ImageInput> images);

// max_context: prompt + canvas tokens the model accepts. `images`: the request's images placed
// by place_images (null: none). `prefixes` (null: none): encoded prompts to continue from, and
// where this read's encoded prompt is kept.
Result<SlotReadResult> read_slots(backend::ComputeBackend& backend, int max_context,
                                  const SlotReadRequest& request, const CancelToken& cancel,
                                  const PromptImages* images = nullptr,
                                  PrefixCache* prefixes = nullptr);

// Several slot reads in shared passes (ComputeBackend::encode_and_decode_batch): each request's
// result is what read_slots gives it alone, bit for bit on the CPU. `cancel` stops the whole
// batch; a request's own token (may be null) is checked before the passes and before its
// readout.
struct BatchedSlotRead {
    const SlotReadRequest* request = nullptr;
    const PromptImages* images = nullptr;
    const CancelToken* cancel = nullptr;
};
std::vector<Result<SlotReadResult>> read_slots_batch(backend::ComputeBackend& backend,
                                                     int max_context,
                                                     std::span<const BatchedSlotRead> requests,
                                                     const CancelToken& cancel,
                                                     PrefixCache* prefixes = nullptr);

// Taken around each unit of a generation's device work (the prompt's encode, each denoising
// step with its progress report, each committed canvas's encode), so that an engine can run
// other requests between the steps of a long generation.
class StepGate {
  public:
    virtual ~StepGate() = default;
    virtual void enter() = 0;
    virtual void leave() = 0;
};

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
                                  const DenoisingObserver& observer = {},
                                  const PromptImages* images = nullptr, StepGate* gate = nullptr);

}  // namespace engine::driver
