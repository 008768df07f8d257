#pragma once
// Brings a model's mapped weights into memory ahead of the first pass, block by block, so that
// loading shows real progress (bytes read of bytes known) and the first decision does not pay
// for page faults on a cold file: each block's pages are mapped in one call (the page cache's
// pages, no copy; a fault per page where the kernel lacks MADV_POPULATE_READ). Stops early when
// `step` returns false (cancel).

#include <cstdint>
#include <functional>

#include "model/weights.h"

namespace engine::model {

// Every distinct tensor's bytes (a tied lm_head once).
uint64_t weight_bytes(const ModelWeights& weights);

// Maps every page of every tensor; `step(bytes_done, bytes_total)` after each block.
// Returns false when `step` asked to stop.
bool prefetch_weights(const ModelWeights& weights,
                      const std::function<bool(uint64_t done, uint64_t total)>& step);

}  // namespace engine::model
