#pragma once
// The CUDA backend: ComputeBackend on one NVIDIA GPU (device 0), i.e. the model
// (model/diffusion_gemma.cpp) over the CUDA operators (cuda_ops.cpp). Weights live on the device
// in bf16 (converted at load from the mapped safetensors, f32/f16/bf16 sources) or, for FP8 and
// NVFP4 checkpoints, packed as published (device_weights.h); matrix products are cuBLAS with fp32
// accumulation for bf16 weights and dequantising GEMMs for packed ones; norms, RoPE, masked
// softmax, router, expert dispatch and readout reductions are our own kernels (kernels.cu).
//
// Its operators fuse passes: encode_and_decode() sends the prompt rows (causal, appended to the
// cache) and the canvas rows (bidirectional, reading the cache) through the layers together, so
// a whole decision reads every weight once. The memory plan below is computed from the config
// before anything is allocated.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "backend/compute_backend.h"
#include "model/config.h"
#include "model/memory_plan.h"
#include "model/weights.h"

namespace engine::cuda {

// What the backend will hold on the device, in bytes, computed from the config alone.
struct MemoryPlan {
    uint64_t weights = 0;      // linear weights (bf16 or packed), fp32 norm vectors and tables
    uint64_t activations = 0;  // per-pass buffers for `pass_tokens` tokens, scores, readout
    uint64_t kv_cache = 0;     // K and V of every layer for `cache_tokens` tokens
    uint64_t reserve = 0;      // CUDA context, cuBLAS workspace, fragmentation
    int pass_tokens = 0, cache_tokens = 0;
    uint64_t total() const { return weights + activations + kv_cache + reserve; }
};

// Tokens one pass may hold (prompt rows + canvas rows); longer work is split into passes.
inline constexpr int kDefaultPassTokens = 4096;

MemoryPlan plan_memory(const model::ModelConfig& config, int pass_tokens, int cache_tokens);
// KV cache bytes of `tokens` tokens over all layers (bf16 K and V).
uint64_t kv_cache_bytes(const model::ModelConfig& config, int tokens);
// "51.65 GiB"
std::string format_gib(uint64_t bytes);

// The CUDA backend's own extensions to ComputeBackend.
class CudaBackend : public backend::ComputeBackend {
  public:
    // Encoder pass of `prompt_ids` (appended to `cache`) and decoder pass of `batch` over the
    // resulting cache, layer by layer in one sweep over the weights when everything fits one pass
    // (kDefaultPassTokens); otherwise the same result in several passes.
    // (ComputeBackend::encode_and_decode, overridden: one sweep.)
    bool fuses_encode_decode() const override { return true; }
    // Bytes of weights a full pass reads (all experts): the floor's numerator.
    virtual uint64_t weight_bytes() const = 0;
    // Waits for all queued device work (for benchmarks' timers).
    virtual Result<void> synchronize() = 0;
};

// Uploads real weights. Errors: no device, or the memory plan does not fit ("model needs X GiB,
// device has Y GiB free"). nvfp4_fp4_inputs: NVFP4 weights take NVFP4 inputs on FP4 tensor
// cores where the device has them (EngineOptions::nvfp4_fp4_inputs).
Result<std::unique_ptr<CudaBackend>> open_cuda_backend(
    std::shared_ptr<const model::ModelWeights> weights, uint64_t memory_limit_bytes = 0,
    bool nvfp4_fp4_inputs = false);
// The plan in the backend-neutral form Engine::open states (model/memory_plan.h): the checkpoint's
// format and bytes, the weights as held on the device (what the format quantises stays packed:
// device_weights.h planned_formats), activations and KV cache.
model::MemoryPlan describe_plan(const model::ModelConfig& config, const MemoryPlan& plan);
// Random bf16 weights made directly on the device for `config` (benchmarks at real shapes
// without a checkpoint). Norm weights and scalars are 1, so activations stay finite.
Result<std::unique_ptr<CudaBackend>> open_synthetic_cuda_backend(const model::ModelConfig& config,
                                                                 uint64_t seed,
                                                                 bool nvfp4_fp4_inputs = false);

// The device (for messages and benchmarks): "cuda:0 (NVIDIA H200)", memory in bytes.
struct DeviceSummary {
    std::string name;
    uint64_t total_bytes = 0, free_bytes = 0;
    int compute_major = 0, compute_minor = 0;
};
Result<DeviceSummary> describe_device();
// Device-to-device cudaMemcpy bandwidth in bytes per second, counting the read and the write of
// each byte (as CUDA's bandwidthTest does), best of `repeats` copies of `bytes`.
Result<double> measure_copy_bandwidth(uint64_t bytes, int repeats);

}  // namespace engine::cuda
