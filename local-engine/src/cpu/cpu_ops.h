#pragma once
// The CPU operators (ops::Ops): fp32 activations; weights as f32 (read in place from the mapping
// when the file is F32, others converted once at bind: the exact path) or as published (bf16,
// FP8, NVFP4 read in place, cpu/weight_gemm.h). Matrix products are our own single-threaded
// kernels spread over our pool.

#include <functional>
#include <memory>

#include "model/weights.h"
#include "ops/ops.h"

namespace engine::cpu {

// threads <= 0: all hardware threads. `bound` after each layer's weights are bound, with the
// fraction done; false from it cancels (nullptr is returned). `native`: bf16, FP8 and NVFP4
// weights stay as the checkpoint stores them, read in place from the mapping and multiplied by
// cpu/weight_gemm.h (F32/F16 tensors are still held as f32); false: every weight as f32, the
// exact path.
std::unique_ptr<ops::Ops> make_cpu_ops(std::shared_ptr<const model::ModelWeights> weights,
                                       int threads, const std::function<bool(double)>& bound,
                                       bool native = false);

}  // namespace engine::cpu
