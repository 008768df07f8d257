#pragma once
// Launchers of the vision tower's CUDA kernels (vision_kernels.cu), fp32 throughout; the
// semantics are those of ops::VisionOps (ops/vision_ops.h). Each enqueues on `stream`.

#include <cstdint>

#include <cuda_runtime_api.h>

namespace engine::cuda {

// Each `dim`-wide row of x: y = x * (mean(x^2) + eps)^-0.5 [* w] (w nullable; y may alias x).
void vision_rmsnorm(const float* x, const float* w, int64_t rows, int dim, float eps, float* y,
                    cudaStream_t stream);
// 2-D NeoX RoPE in place over x [rows, heads, head_dim] (see VisionOps::rope_2d).
void vision_rope_2d(float* x, int64_t rows, int heads, int head_dim, const int32_t* pos_x,
                    const int32_t* pos_y, const float* inv_freq, cudaStream_t stream);
// Bidirectional attention, scale 1, GQA by contiguous groups.
void vision_attention(const float* q, const float* k, const float* v, int rows, int heads,
                      int kv_heads, int head_dim, float* out, cudaStream_t stream);
// a = gelu_tanh(a) * b.
void vision_gelu_mul(float* a, const float* b, int64_t n, cudaStream_t stream);

}  // namespace engine::cuda
