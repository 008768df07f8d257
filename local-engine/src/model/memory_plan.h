#pragma once
// What a model needs in memory, from config.json alone, per weight format: the weights as the
// checkpoint stores them (bf16, FP8 with per-channel scales, NVFP4 with block and global scales),
// the weights as a backend holds them, and the KV cache and workspace. Engine::open states the
// plan and refuses a model that does not fit, naming the format and the numbers.

#include <cstdint>
#include <string>

#include "engine/result.h"
#include "model/config.h"

namespace engine::model {

// Which linear weights a published checkpoint of each format quantises (the rest is bf16):
// NVFP4 (nvidia/diffusiongemma-26B-A4B-it-NVFP4) the experts; FP8 dynamic
// (RedHatAI/...-FP8-dynamic) every decoder Linear but the router. The vision tower, embeddings,
// norms and router stay bf16 in both.
struct CheckpointBytes {
    uint64_t quantized = 0;  // packed values and their scales
    uint64_t plain = 0;      // every other tensor, bf16
    uint64_t total() const { return quantized + plain; }
};
CheckpointBytes checkpoint_bytes(const ModelConfig& config, WeightFormat format);
// Distinct parameters of the checkpoint (text and vision; the tied head once).
uint64_t checkpoint_parameters(const ModelConfig& config);

struct MemoryPlan {
    std::string where;  // "host memory", "cuda:0"
    WeightFormat format = WeightFormat::BF16;
    uint64_t checkpoint = 0;  // the weights as the checkpoint stores them
    uint64_t weights = 0;     // the weights as the backend holds them
    std::string held_as;      // "f32 (dequantised)", "bf16", ...
    uint64_t kv_cache = 0;    // for `cache_tokens` tokens
    uint64_t workspace = 0;   // activations and readout of one pass
    int cache_tokens = 0;
    uint64_t total() const { return weights + kv_cache + workspace; }
    // "nvfp4 checkpoint 18.80 GB, held as f32 (dequantised) 100.80 GB + KV cache of 8192
    // tokens 1.25 GB + workspace 0.30 GB = 102.35 GB of host memory"
    std::string describe() const;
};

// The CPU backend's plan, f32 KV cache. `native` false: every weight as f32 (dequantised at
// bind). `native` true: the text weights as the checkpoint stores them (bf16, or FP8 / NVFP4
// packed with their scales; read in place from the mapping, pages shared with other processes
// mapping the same files) and the vision tower as f32 (converted when an image is first read).
MemoryPlan plan_cpu_memory(const ModelConfig& config, int cache_tokens, bool native = false);
// Refuses a plan larger than `available` bytes: "<path>: the model does not fit: <plan>, but
// only X GB is available (...)".
Result<void> check_memory(const MemoryPlan& plan, uint64_t available, const std::string& model);
// MemAvailable from /proc/meminfo; 0 when unknown.
uint64_t available_host_memory();
// "18.80 GB" (10^9 bytes, as model cards state sizes)
std::string format_gb(uint64_t bytes);

}  // namespace engine::model
