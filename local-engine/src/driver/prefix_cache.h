#pragma once
// PrefixCache: the KV caches of recently encoded prompts, so that a slot read whose prompt
// begins with one of them encodes only the rest. A policy's instructions and questions open
// every prompt of that policy; the reads of one decision, a repeated decision and the draws of
// a bench item share the whole prompt. The encoder is causal (a prompt row's K/V depends only on
// the tokens up to it) and the CPU kernels compute a row the same way in whatever pass it falls
// (one FMA chain per output, a softmax over exactly the visible keys), so a read continued from
// a cached prefix gets the bits of the whole prompt encoded at once (engine_tst_prefix_cache).
//
// Bounded by bytes of cache memory, least recently used out first. Not thread-safe: the engine
// touches it only inside the scheduler's turn on the backend, one batch at a time; entries
// leased to a batch are only evicted by keep() after the batch has run.

#include <cstdint>
#include <list>
#include <memory>
#include <span>
#include <vector>

#include "backend/compute_backend.h"
#include "engine/engine.h"

namespace engine::driver {

class PrefixCache {
  public:
    // budget_bytes 0: nothing is kept (every lease is a fresh cache).
    PrefixCache(backend::ComputeBackend& backend, uint64_t budget_bytes);

    // The cache a read of `prompt` encodes into and decodes from.
    struct Lease {
        backend::KvCache* cache = nullptr;
        // Set when the cache is new (a copy of a cached prefix, or empty): the read encodes
        // prompt[reused ..) into it and may keep() it. Null when `cache` is an entry that holds
        // exactly the prompt: shared, never written (a slot read's decoder pass reads only).
        std::unique_ptr<backend::KvCache> owned;
        int reused = 0;  // prompt tokens already in `cache`
        bool full() const { return !owned; }
    };
    // `cacheable` false (a prompt with image embeddings, whose rows the ids do not name): a
    // fresh cache, nothing looked up.
    Result<Lease> lease(std::span<const TokenId> prompt, bool cacheable = true);
    // Keeps a leased new cache, now holding all of `prompt`, for later reads (evicting the
    // least recently used entries past the budget; a cache larger than the budget is dropped).
    void keep(std::span<const TokenId> prompt, std::unique_ptr<backend::KvCache> cache);

    PrefixCacheStats stats() const;
    uint64_t budget_bytes() const { return budget_; }

  private:
    struct Entry {
        std::vector<TokenId> ids;
        std::unique_ptr<backend::KvCache> cache;
        uint64_t bytes = 0;
    };
    void evict_to(uint64_t bytes);

    backend::ComputeBackend& backend_;
    const uint64_t budget_;
    std::list<Entry> entries_;  // most recently used first
    uint64_t bytes_ = 0;
    PrefixCacheStats stats_;
};

}  // namespace engine::driver
