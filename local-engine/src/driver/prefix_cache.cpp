#include "driver/prefix_cache.h"

#include <algorithm>

namespace engine::driver {

PrefixCache::PrefixCache(backend::ComputeBackend& backend, uint64_t budget_bytes)
    : backend_(backend), budget_(budget_bytes) {}

Result<PrefixCache::Lease> PrefixCache::lease(std::span<const TokenId> prompt, bool cacheable) {
    const int P = static_cast<int>(prompt.size());
    Lease lease;
    auto best = entries_.end();
    size_t best_length = 0;
    if (cacheable && budget_ > 0 && P > 0) {
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            const auto& ids = it->ids;
            const size_t n = std::min(ids.size(), prompt.size());
            const size_t common = static_cast<size_t>(
                std::mismatch(ids.begin(), ids.begin() + n, prompt.begin()).first - ids.begin());
            if (common > best_length) {
                best_length = common;
                best = it;
            }
        }
    }
    if (best == entries_.end()) {
        auto fresh = backend_.create_cache(P);
        if (!fresh) return fresh.error();
        lease.owned = std::move(fresh.value());
        if (cacheable && budget_ > 0) ++stats_.misses;
    } else {
        entries_.splice(entries_.begin(), entries_, best);  // most recently used
        Entry& entry = entries_.front();
        if (best_length == prompt.size() && entry.ids.size() == prompt.size()) {
            lease.cache = entry.cache.get();  // exactly this prompt: shared, read-only
            ++stats_.full_hits;
        } else {
            auto copy = backend_.copy_cache(*entry.cache, static_cast<int>(best_length), P);
            if (!copy) return copy.error();
            lease.owned = std::move(copy.value());
            ++stats_.partial_hits;
        }
        lease.reused = static_cast<int>(best_length);
        stats_.tokens_reused += best_length;
    }
    if (lease.owned) lease.cache = lease.owned.get();
    return lease;
}

void PrefixCache::keep(std::span<const TokenId> prompt, std::unique_ptr<backend::KvCache> cache) {
    if (budget_ == 0 || !cache || prompt.empty() ||
        cache->length() != static_cast<int>(prompt.size()))
        return;
    for (const Entry& e : entries_)
        if (std::ranges::equal(e.ids, prompt)) return;  // another read of the batch kept it
    const uint64_t bytes = backend_.cache_bytes(static_cast<int>(prompt.size()));
    if (bytes == 0 || bytes > budget_) return;
    evict_to(budget_ - bytes);
    entries_.push_front(
        {std::vector<TokenId>(prompt.begin(), prompt.end()), std::move(cache), bytes});
    bytes_ += bytes;
}

void PrefixCache::evict_to(uint64_t bytes) {
    while (bytes_ > bytes && !entries_.empty()) {
        bytes_ -= entries_.back().bytes;
        entries_.pop_back();
        ++stats_.evictions;
    }
}

PrefixCacheStats PrefixCache::stats() const {
    PrefixCacheStats s = stats_;
    s.entries = static_cast<int>(entries_.size());
    s.bytes = bytes_;
    s.budget_bytes = budget_;
    return s;
}

}  // namespace engine::driver
