#pragma once
// Measurements of the CUDA backend for bench/ and scripts/gpu-check.sh: decision latency and
// generation speed at any config's shapes with random weights made on the device (bf16, or FP8 /
// NVFP4 packed as those checkpoints publish them), the
// device-copy bandwidth floor, and a slot-read dump of a real model folder for cross-checks
// against transformers. In builds without CUDA, compiled() is false and run() says so.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/result.h"
#include "engine/tokenizer.h"

namespace engine::gpu_bench {

// Whether the CUDA backend is compiled into this build.
bool compiled();

struct Options {
    std::filesystem::path config_json;  // a DiffusionGemma config.json (real sizes)
    int prompt_tokens = 512;
    int questions = 3;  // slots per canvas row
    int draws = 4;      // canvas rows (noise draws) per decision
    int canvas_width = 32;
    int labels = 2;       // label ids per slot
    int gen_width = 256;  // generation canvas
    int gen_steps = 6;    // measured denoising steps (extrapolated to max_steps)
    int max_steps = 48;   // generation_config's max_denoising_steps
    int repeats = 5;
    uint64_t seed = 1;
    // Weight format of the synthetic weights: "bf16", "fp8" (compressed-tensors FP8 dynamic:
    // every decoder Linear but the router packed) or "nvfp4" (ModelOpt: the experts packed).
    std::string format = "bf16";
    // NVFP4: inputs quantised to NVFP4 on FP4 tensor cores where the GPU has them
    // (EngineOptions::nvfp4_fp4_inputs).
    bool nvfp4_fp4_inputs = false;
};

struct Report {
    std::string device;
    std::string format;        // the weights' format (Options::format)
    double weight_gib = 0;     // weight bytes (as held: bf16 or packed) a full pass reads
    double copy_gb_per_s = 0;  // measured cudaMemcpy D2D (read + write) bandwidth
    double floor_ms = 0;       // weight bytes / copy bandwidth
    double decision_ms = 0;    // median: one sweep (prompt + all rows) + constrained readout
    double decision_min_ms = 0;
    double gen_step_ms = 0;       // median: self-conditioned decode + full logits to the host
    double gen_tokens_per_s = 0;  // gen_width tokens / (max_steps steps + the prompt encode)
    double encode_ms = 0;         // prompt encode alone
};

Result<Report> run(const Options& options);

// One slot read of a model folder on the CUDA backend (one sweep), for comparison with other
// implementations: rows of canvas ids, slot positions and label ids per row.
struct SlotDumpRequest {
    std::filesystem::path model_dir;
    std::vector<TokenId> prompt;
    int width = 0;
    std::vector<std::vector<TokenId>> rows;
    std::vector<int> slot_positions;           // the same positions in every row
    std::vector<std::vector<TokenId>> labels;  // per slot
};
// JSON text: {"device":..., "rows":[[{"pos":p,"logprobs":[...],"argmax":id}, ...], ...]}.
Result<std::string> dump_slots(const SlotDumpRequest& request);

}  // namespace engine::gpu_bench
