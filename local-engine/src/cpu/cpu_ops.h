#pragma once
// The CPU operators (ops::Ops): fp32 compute over fp32 weights (read in place from the mapping
// when the file is F32; BF16/F16 files are converted once at open). Matrix products are OpenBLAS
// sgemm calls, each single-threaded (OpenBLAS is set to one thread) and spread over our own
// pool, so the two thread systems never compete.

#include <functional>
#include <memory>

#include "model/weights.h"
#include "ops/ops.h"

namespace engine::cpu {

// threads <= 0: all hardware threads. `bound` after each layer's weights are bound, with the
// fraction done; false from it cancels (nullptr is returned).
std::unique_ptr<ops::Ops> make_cpu_ops(std::shared_ptr<const model::ModelWeights> weights,
                                       int threads, const std::function<bool(double)>& bound);

}  // namespace engine::cpu
