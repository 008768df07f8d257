#pragma once
// The quantised GEMMs of quantized_gemm.h behind a host-only interface (no CUDA headers), for
// tests and benchmarks: upload, run, copy back.

#include <cstdint>
#include <vector>

#include "engine/result.h"
#include "model/safetensors.h"

namespace engine::cuda {

// y[tokens, rows] = x[tokens, cols] * W^T for the quantised tensor `w` (FP8 or NVFP4 parts), x
// given as bf16 bit patterns. dynamic_activations: x is first quantised per token on the device;
// FP8 weights: to E4M3 (launch_fp8_dynamic_gemm, through the FP8 tensor cores where they exist
// unless tensor_cores is false); NVFP4 weights: to NVFP4, through the FP4 tensor cores
// (launch_nvfp4_fp4_gemm; an error where fp4_tensor_cores() is false). Synchronous.
//
// group_counts (non-empty): the grouped launch the experts use. W is split into
// group_counts.size() stacked matrices of rows / groups rows, x's rows into consecutive ranges of
// these counts (summing to tokens), and y is [tokens, rows / groups]: each range times its own
// matrix.
Result<std::vector<float>> run_quantized_gemm(const model::TensorView& w,
                                              const std::vector<uint16_t>& x, int tokens,
                                              bool dynamic_activations, bool tensor_cores = true,
                                              const std::vector<int>& group_counts = {});
// Whether the device has FP8 tensor cores (sm_89 and later).
bool fp8_tensor_cores();
// Whether the loaded code has sm_120's block-scaled FP4 mma (compute capability 12.x).
bool fp4_tensor_cores();

}  // namespace engine::cuda
