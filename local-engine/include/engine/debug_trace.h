#pragma once
// Internal values of one encoder + decoder pass, for the PyTorch reference comparison
// (tests/engine reference checks). Runs on the CPU backend over a model folder; not for
// production use (it materialises full logits).

#include <filesystem>
#include <span>
#include <vector>

#include "engine/engine.h"
#include "engine/result.h"
#include "engine/tokenizer.h"

namespace engine {

struct ForwardTrace {
    int prompt_length = 0;  // P
    int rows = 0;           // canvases
    int width = 0;          // W (every canvas has the same width)
    int vocab_size = 0;
    // Per layer, the encoder's cached K (after k_norm and RoPE) and V (after the weightless
    // v-norm), each [P][kv_heads(layer)][head_dim(layer)] row-major.
    std::vector<std::vector<float>> encoder_k;
    std::vector<std::vector<float>> encoder_v;
    std::vector<int> kv_heads;  // per layer
    std::vector<int> head_dim;  // per layer
    // Decoder logits after the soft-cap, [rows][W][vocab] row-major.
    std::vector<float> logits;
};

// Encodes `prompt`, then decodes every canvas (one batched pass) after it.
// previous_logits: null for a first step (no self-conditioning); else [rows*W*vocab] logits of
// the previous step already divided by its temperature: sc = selfcond(softmax(prev) @ E * scale).
// threads <= 0: all hardware threads.
Result<ForwardTrace> trace_forward(const std::filesystem::path& model_dir,
                                   std::span<const TokenId> prompt,
                                   const std::vector<std::vector<TokenId>>& canvases,
                                   const std::vector<float>* previous_logits = nullptr,
                                   int threads = 0);

// One decoder pass of the generation loop, exactly as Engine::generate runs it.
struct GenerationPassTrace {
    int prompt_length = 0;
    int width = 0;  // the canvas width W the loop chose
    int vocab_size = 0;
    int canvas = 0, step = 0;  // which pass: canvas 0-based, step 1-based
    std::vector<TokenId> ids;  // [W] the canvas fed to the decoder
    // [W][vocab] the pass's self-conditioning input: the previous step's logits divided by its
    // temperature; empty on a canvas's first step.
    std::vector<float> self_conditioning;
    std::vector<float> logits;  // [W][vocab] the pass's soft-capped logits (before / T)
    GenerationResult result;    // the whole generation
};

// Runs the generation loop of `request` on the CPU backend over a model folder (its config,
// generation_config.json and tokenizer.json, as Engine::open reads them) and keeps pass `step`
// of canvas `canvas`. Errors when the loop never runs that pass. threads <= 0: all hardware
// threads.
Result<GenerationPassTrace> trace_generation_pass(const std::filesystem::path& model_dir,
                                                  const GenerationRequest& request, int canvas,
                                                  int step, int threads = 0);

}  // namespace engine
