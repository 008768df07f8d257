#pragma once
// The CUDA operators (ops::Ops) on device 0: weights on the device as device_weights.h holds
// them (bf16, or FP8 / NVFP4 packed as published), GEMMs through cuBLAS with fp32 accumulation
// for bf16 weights, FP8 GEMMs over per-token E4M3 activations for FP8 ones and the dequantising
// GEMM for NVFP4 (quantized_kernels.h), norms, RoPE,
// masked softmax, router, expert dispatch and readout reductions as our own kernels (kernels.cu).
// The workspace is allocated once, at open, for kDefaultPassTokens tokens (the memory plan of
// cuda_backend.h); the model splits longer work into passes.

#include <cstdint>
#include <memory>

#include "model/config.h"
#include "model/weights.h"
#include "ops/ops.h"

namespace engine::cuda {

inline constexpr uint64_t kScoreElements = uint64_t{32} << 20;  // attention scores per chunk
inline constexpr int kReadoutRows = 64;                         // vocab-wide rows per chunk
inline constexpr uint64_t kReserveBytes = uint64_t{768} << 20;  // context, cuBLAS, slack

int max_head_dim(const model::ModelConfig& c);
int max_kv_heads(const model::ModelConfig& c);
// Rows of the largest fused [q|k|v] projection.
int max_qkv_rows(const model::ModelConfig& c);
// The fp32 outputs of packed experts' GEMMs for a pass of `pass_tokens` tokens (workspace held
// only when the experts are packed).
uint64_t packed_expert_scratch_bytes(const model::ModelConfig& c, int pass_tokens);
// FP8-dynamic weights (compressed-tensors: input_activations {strategy token, dynamic true}) take
// their input rows quantised per token to E4M3: one code per input value of the widest input
// and one scale per row, for a pass's tokens times top_k (the experts' gathered rows). Workspace
// held only when some weight is FP8.
uint64_t fp8_activation_bytes(const model::ModelConfig& c, int pass_tokens);
// NVFP4 weights on sm_120's FP4 tensor cores take their input rows quantised per token to NVFP4:
// half a byte per input value of the widest input, one E4M3 block scale per 16 values and one
// global scale per row, for the same rows as fp8_activation_bytes. Workspace held only on such a
// device; the memory plan counts it for every NVFP4 model (the plan knows no device).
uint64_t nvfp4_activation_bytes(const model::ModelConfig& c, int pass_tokens);

class CudaOps : public ops::Ops {
  public:
    // Bytes of weights a full pass reads (all experts).
    virtual uint64_t weight_bytes() const = 0;
    // Waits for all queued device work.
    virtual Result<void> synchronize() = 0;
};

// Uploads `weights` (or, with `synthetic`, makes random weights for weights->config on the device
// from `seed`, in the formats its quantization.format implies: device_weights.h planned_formats)
// and allocates a workspace of `pass_tokens` tokens.
// nvfp4_fp4_inputs: NVFP4 weights multiply NVFP4 inputs on FP4 tensor cores where the device has
// them (else, and by default, bf16 inputs on the bf16 tensor cores).
Result<std::unique_ptr<CudaOps>> open_cuda_ops(std::shared_ptr<const model::ModelWeights> weights,
                                               bool synthetic, uint64_t seed, int pass_tokens,
                                               bool nvfp4_fp4_inputs = false);

}  // namespace engine::cuda
