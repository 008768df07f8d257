#pragma once
// The model's weights in device memory, in the CUDA backend's layout: one arena of linear weights
// (Q/K/V fused into one [q|k|v] matrix per layer, gate and up fused into [gate|up]), fp32 norm
// vectors, per-layer RoPE tables. A linear weight is bf16, or packed as the checkpoint publishes
// it (FP8 E4M3 with per-row scales, NVFP4 E2M1 with E4M3 block scales and a global scale per
// row's part; model/quantized.h) and multiplied by the quantised GEMMs (quantized_kernels.h):
// no bf16 copy of a quantised weight exists on the device. Fused matrices fuse packed rows (the
// parts of a group must share one format). Filled either from the mapped safetensors or with
// random values made on the device (synthetic benchmarks, in any format).

#include <cstdint>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/kernels.h"
#include "cuda/weight_formats.h"
#include "model/weights.h"

namespace engine::cuda {

// One linear weight [rows, cols] on the device.
struct DeviceMatrix {
    model::WeightFormat format = model::WeightFormat::BF16;
    int rows = 0, cols = 0;
    bf16_t* bf16 = nullptr;           // BF16: [rows, cols]
    uint8_t* values = nullptr;        // FP8: E4M3 [rows, cols]; NVFP4: E2M1 [rows, cols / 2]
    uint8_t* block_scales = nullptr;  // NVFP4: E4M3 [rows, cols / 16]
    float* row_scales = nullptr;      // FP8: channel scale; NVFP4: global scale of the row's part
    bool packed() const { return format != model::WeightFormat::BF16; }
};

struct DeviceLayer {
    bool full = false;
    int kv_heads = 0, head_dim = 0;
    bool has_v = true;
    int qkv_rows = 0;         // (heads + kv_heads * (has_v ? 2 : 1)) * head_dim
    DeviceMatrix qkv;         // [qkv_rows, hidden]
    DeviceMatrix o;           // [hidden, heads * head_dim]
    float* q_norm = nullptr;  // [head_dim]
    float* k_norm = nullptr;
    float* inv_freq = nullptr;  // [head_dim / 2]
    float *input_norm = nullptr, *post_attn_norm = nullptr;
    float *pre_ff = nullptr, *post_ff = nullptr;
    float *pre_ff2 = nullptr, *post_ff1 = nullptr, *post_ff2 = nullptr;
    DeviceMatrix mlp_gate_up;           // [2 * inter, hidden]
    DeviceMatrix mlp_down;              // [hidden, inter]
    bf16_t* router = nullptr;           // [experts, hidden]
    float* router_scale = nullptr;      // [hidden]
    float* per_expert_scale = nullptr;  // [experts]
    DeviceMatrix experts_gate_up;       // [experts * 2 * moe_inter, hidden]
    DeviceMatrix experts_down;          // [experts * hidden, moe_inter]
    float encoder_scalar = 1.0f, decoder_scalar = 1.0f;
};

struct DeviceWeights {
    WeightFormats formats;  // the format of each linear weight, as carved
    DeviceBuffer arena;
    uint64_t matrix_bytes = 0;  // linear weights as held (what a full pass streams)
    bf16_t* embed = nullptr;    // [vocab, hidden]
    bf16_t* lm_head = nullptr;  // == embed when tied
    float* final_norm = nullptr;
    float* sc_pre_norm = nullptr;
    DeviceMatrix sc_gate_up;  // [2 * inter, hidden]
    DeviceMatrix sc_down;     // [hidden, inter]
    std::vector<DeviceLayer> layers;
};

// Bytes the arena needs for `config` with its linear weights in `formats` (weights part of the
// memory plan).
uint64_t device_weight_bytes(const model::ModelConfig& config, bool separate_lm_head,
                             const WeightFormats& formats);

// Uploads `weights`: plain tensors converted to bf16 / fp32 on the device, quantised ones copied
// packed. Synchronous.
Result<void> upload_weights(const model::ModelWeights& weights, cudaStream_t stream,
                            DeviceWeights& out);
// Random weights for `config` in `formats`, made on the device. Synchronous.
Result<void> synthesize_weights(const model::ModelConfig& config, const WeightFormats& formats,
                                uint64_t seed, cudaStream_t stream, DeviceWeights& out);

}  // namespace engine::cuda
