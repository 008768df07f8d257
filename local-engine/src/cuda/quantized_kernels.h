#pragma once
// Launchers of the quantised-weight GEMM kernels (quantized_kernels.cu), plain C++ over raw
// device pointers like kernels.h (the forward pass calls them from cuda_ops.cpp; quantized_gemm.h
// uploads a single quantised weight for their checks).

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cuda/kernels.h"

namespace engine::cuda {

enum class PackedKind { Fp8 = 0, Nvfp4 = 1 };

// y[tokens, rows] = x[tokens, cols] (bf16) * W^T with W dequantised tile by tile in the kernel:
// FP8: values [rows, cols] E4M3, row_scales the channel scales; NVFP4: values [rows, cols / 2]
// (even column in the low nibble), block_scales [rows, cols / 16] E4M3, row_scales the global
// scale of each row's part.
void launch_packed_gemm(PackedKind kind, const uint8_t* values, const uint8_t* block_scales,
                        const float* row_scales, int rows, int cols, const bf16_t* x, int tokens,
                        float* y, cudaStream_t stream);
// The same for stacked experts in one launch: the weight holds `groups` matrices of `rows` rows
// each (rows z * rows ..); group z multiplies x's rows [offsets[z], offsets[z] + counts[z]) and
// writes those rows of y ([.., rows]). offsets and counts are device arrays; max_count bounds
// every counts[z] (it sizes the grid).
void launch_packed_gemm_grouped(PackedKind kind, const uint8_t* values, const uint8_t* block_scales,
                                const float* row_scales, int rows, int cols, const int* offsets,
                                const int* counts, int groups, int max_count, const bf16_t* x,
                                float* y, cudaStream_t stream);
// Per-token E4M3 quantisation of bf16 rows: x_scale[t] = max|x_t| / 448 (1 for a zero row),
// xq = nearest E4M3 of x / x_scale, ties to even.
void launch_quantize_rows_e4m3(const bf16_t* x, int tokens, int cols, uint8_t* xq, float* x_scale,
                               cudaStream_t stream);
// y[t, r] = sum_k e4m3(xq[t, k]) * e4m3(wq[r, k]) * x_scale[t] * w_scale[r]. tensor_cores: on
// sm_89 and later, the FP8 mma instructions (m16n8k32, E4M3 x E4M3 -> fp32); elsewhere, or when
// false, the tiled fp32 kernel.
void launch_fp8_dynamic_gemm(const uint8_t* wq, const float* w_scale, int rows, int cols,
                             const uint8_t* xq, const float* x_scale, int tokens, float* y,
                             bool tensor_cores, cudaStream_t stream);
// Grouped as launch_packed_gemm_grouped (xq and x_scale indexed by x's row).
void launch_fp8_dynamic_gemm_grouped(const uint8_t* wq, const float* w_scale, int rows, int cols,
                                     const int* offsets, const int* counts, int groups,
                                     int max_count, const uint8_t* xq, const float* x_scale,
                                     float* y, bool tensor_cores, cudaStream_t stream);
// Per-token NVFP4 quantisation of bf16 rows (cols a multiple of 16): x_global[t] = max|x_t| /
// (6 * 448) (1 for a zero row); block b's scale x_blocks[t, b] = nearest E4M3 of
// max|x_t[16 b .. 16 b + 15]| / 6 / x_global[t]; xq [tokens, cols / 2] the nearest E2M1 of
// x / (e4m3(block scale) * x_global) (ties to even, the even column in the low nibble), as
// model::float_to_e4m3 / float_to_e2m1 code them.
void launch_quantize_rows_nvfp4(const bf16_t* x, int tokens, int cols, uint8_t* xq,
                                uint8_t* x_blocks, float* x_global, cudaStream_t stream);
// y[t, r] = x_global[t] * row_scales[r] * sum_k x(t, k) * w(r, k), x and w NVFP4 values times
// their block scales, on sm_120's FP4 tensor cores (mma m16n8k64 e2m1 with E4M3 block scales);
// only where fp4_tensor_cores_available(). The weight as in launch_packed_gemm (NVFP4). offsets
// and counts null: one matrix for `max_count` rows of x; else grouped as
// launch_packed_gemm_grouped.
void launch_nvfp4_fp4_gemm(const uint8_t* values, const uint8_t* block_scales,
                           const float* row_scales, int rows, int cols, const int* offsets,
                           const int* counts, int groups, int max_count, const uint8_t* xq,
                           const uint8_t* x_blocks, const float* x_global, float* y,
                           cudaStream_t stream);
// n random packed bytes for synthetic weights: FP8 codes of magnitude below 2 (exponent field at
// most 7, so never NaN), or NVFP4 bytes (any two E2M1 codes).
void launch_fill_random_packed(PackedKind kind, uint8_t* dst, uint64_t n, uint64_t seed,
                               cudaStream_t stream);
// Whether the code loaded for device 0 has the FP8 mma (compute capability 8.9 or later, and a
// build with a target that has it: PTX of sm_80 JIT-compiled on an H200 does not).
bool fp8_tensor_cores_available();
// Whether launch_nvfp4_fp4_gemm can run here: the code loaded for device 0 has sm_120's
// block-scaled FP4 mma (compute capability 12.x, built for the 12.x family). Both are asked of
// the device with one tiny kernel, once per process.
bool fp4_tensor_cores_available();

}  // namespace engine::cuda
