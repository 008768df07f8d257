#pragma once
// The self-conditioning input of a timed denoising pass, shared by the benchmarks that time one:
// the first (unconditioned) pass's logits over `batch` at temperature 0.8, as a generation's
// second step sees them.

#include <vector>

#include "backend/compute_backend.h"

inline engine::Result<std::vector<float>> first_pass_logits(
    engine::backend::ComputeBackend& be, const engine::backend::KvCache& cache,
    const engine::backend::DecodeBatch& batch, const engine::CancelToken& cancel) {
    auto first = be.decode(cache, batch, cancel);
    if (!first) return first.error();
    std::vector<float> sc;
    if (auto r = be.logits(**first, sc); !r) return r.error();
    for (float& v : sc) v /= 0.8f;
    return sc;
}
