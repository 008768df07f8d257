#pragma once
// The model's weights in device memory, in the CUDA backend's layout: one arena, bf16 matrices
// (Q/K/V fused into one [q|k|v] matrix per layer, gate and up fused into [gate|up]), fp32 norm
// vectors, per-layer RoPE tables. Filled either from the mapped safetensors (converted on the
// device) or with random values made on the device (synthetic benchmarks).

#include <cstdint>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/kernels.h"
#include "model/weights.h"

namespace engine::cuda {

struct DeviceLayer {
    bool full = false;
    int kv_heads = 0, head_dim = 0;
    bool has_v = true;
    int qkv_rows = 0;         // (heads + kv_heads * (has_v ? 2 : 1)) * head_dim
    bf16_t* qkv = nullptr;    // [qkv_rows, hidden]
    bf16_t* o = nullptr;      // [hidden, heads * head_dim]
    float* q_norm = nullptr;  // [head_dim]
    float* k_norm = nullptr;
    float* inv_freq = nullptr;  // [head_dim / 2]
    float *input_norm = nullptr, *post_attn_norm = nullptr;
    float *pre_ff = nullptr, *post_ff = nullptr;
    float *pre_ff2 = nullptr, *post_ff1 = nullptr, *post_ff2 = nullptr;
    bf16_t* mlp_gate_up = nullptr;      // [2 * inter, hidden]
    bf16_t* mlp_down = nullptr;         // [hidden, inter]
    bf16_t* router = nullptr;           // [experts, hidden]
    float* router_scale = nullptr;      // [hidden]
    float* per_expert_scale = nullptr;  // [experts]
    bf16_t* experts_gate_up = nullptr;  // [experts, 2 * moe_inter, hidden]
    bf16_t* experts_down = nullptr;     // [experts, hidden, moe_inter]
    float encoder_scalar = 1.0f, decoder_scalar = 1.0f;
};

struct DeviceWeights {
    DeviceBuffer arena;
    uint64_t matrix_bytes = 0;  // bf16 matrices (what a full pass streams)
    bf16_t* embed = nullptr;    // [vocab, hidden]
    bf16_t* lm_head = nullptr;  // == embed when tied
    float* final_norm = nullptr;
    float* sc_pre_norm = nullptr;
    bf16_t* sc_gate_up = nullptr;  // [2 * inter, hidden]
    bf16_t* sc_down = nullptr;     // [hidden, inter]
    std::vector<DeviceLayer> layers;
};

// Bytes the arena needs for `config` (weights part of the memory plan).
uint64_t device_weight_bytes(const model::ModelConfig& config, bool separate_lm_head);

// Uploads `weights` (converted to bf16 / fp32 on the device). Synchronous.
Result<void> upload_weights(const model::ModelWeights& weights, cudaStream_t stream,
                            DeviceWeights& out);
// Random weights for `config`, made on the device. Synchronous.
Result<void> synthesize_weights(const model::ModelConfig& config, uint64_t seed,
                                cudaStream_t stream, DeviceWeights& out);

}  // namespace engine::cuda
