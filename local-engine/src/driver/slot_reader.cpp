// Slot reads: one encoder pass over the prompt, every row in one batched decoder pass (a first
// step: no self-conditioning), then the constrained readout at the slot positions only.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "base/time.h"
#include "driver/drivers.h"

namespace engine::driver {
namespace {

using base::ms_since;

// A checked request: its unique canvas rows as one decoder batch and the readout queries.
struct PreparedRead {
    std::vector<TokenId> ids;
    int unique_rows = 0, width = 0;
    std::vector<backend::PositionQuery> queries;
};

Result<PreparedRead> prepare(const backend::ComputeBackend& backend, int max_context,
                             const SlotReadRequest& request) {
    const int vocab = backend.config().vocab_size;
    if (request.rows.empty()) return bad_input("slot read: the request has no canvas rows");
    const size_t width = request.rows.front().ids.size();
    if (width == 0) return bad_input("slot read: row 0 has an empty canvas");
    const int P = static_cast<int>(request.prompt_ids.size());
    if (static_cast<int64_t>(P) + static_cast<int64_t>(width) > max_context)
        return bad_input("slot read: prompt (" + std::to_string(P) + " tokens) + canvas (" +
                         std::to_string(width) + " tokens) = " + std::to_string(P + width) +
                         " exceeds the model's context of " + std::to_string(max_context) +
                         " tokens");
    for (size_t i = 0; i < request.prompt_ids.size(); ++i)
        if (request.prompt_ids[i] < 0 || request.prompt_ids[i] >= vocab)
            return bad_input("slot read: prompt token " + std::to_string(i) + " (id " +
                             std::to_string(request.prompt_ids[i]) +
                             ") is outside the vocabulary [0, " + std::to_string(vocab) + ")");
    // Identical canvases (fixed seed-token draws, repeated rows) are decoded once and read
    // from the same row: it saves the work.
    PreparedRead prepared;
    prepared.width = static_cast<int>(width);
    std::vector<TokenId>& ids = prepared.ids;
    ids.reserve(request.rows.size() * width);
    std::vector<int> decoded_row(request.rows.size());
    int& unique_rows = prepared.unique_rows;
    std::vector<backend::PositionQuery>& queries = prepared.queries;
    for (size_t r = 0; r < request.rows.size(); ++r) {
        const CanvasRow& row = request.rows[r];
        const std::string where = "slot read: row " + std::to_string(r);
        if (row.ids.size() != width)
            return bad_input(where + " has " + std::to_string(row.ids.size()) +
                             " canvas tokens; every row must have " + std::to_string(width));
        for (size_t i = 0; i < width; ++i)
            if (row.ids[i] < 0 || row.ids[i] >= vocab)
                return bad_input(where + ", position " + std::to_string(i) + ": id " +
                                 std::to_string(row.ids[i]) + " is outside the vocabulary [0, " +
                                 std::to_string(vocab) + ")");
        decoded_row[r] = -1;
        for (size_t earlier = 0; earlier < r && decoded_row[r] < 0; ++earlier)
            if (request.rows[earlier].ids == row.ids) decoded_row[r] = decoded_row[earlier];
        if (decoded_row[r] < 0) {
            decoded_row[r] = unique_rows++;
            ids.insert(ids.end(), row.ids.begin(), row.ids.end());
        }
        for (size_t s = 0; s < row.slot_specs.size(); ++s) {
            const SlotSpec& slot = row.slot_specs[s];
            if (slot.pos < 0 || static_cast<size_t>(slot.pos) >= width)
                return bad_input(where + ", slot " + std::to_string(s) + ": position " +
                                 std::to_string(slot.pos) + " is outside the canvas [0, " +
                                 std::to_string(width) + ")");
            for (TokenId id : slot.label_ids)
                if (id < 0 || id >= vocab)
                    return bad_input(where + ", slot " + std::to_string(s) + ": label id " +
                                     std::to_string(id) + " is outside the vocabulary");
            queries.push_back({decoded_row[r], slot.pos, slot.label_ids});
        }
    }
    return prepared;
}

backend::DecodeBatch decode_batch(const PreparedRead& prepared) {
    backend::DecodeBatch batch;
    batch.rows = prepared.unique_rows;
    batch.width = prepared.width;
    batch.ids = prepared.ids;
    return batch;
}

// The prompt rows a read still encodes: those after the `reused` tokens its cache holds.
backend::PromptInput prompt_input(const SlotReadRequest& request, const PromptImages* images,
                                  int reused) {
    backend::PromptInput prompt{
        std::span(request.prompt_ids).subspan(static_cast<size_t>(reused)), {}, {}};
    if (images) {  // never with a reused prefix: prompts with images are not cached
        prompt.embed_at = images->embed_at;
        prompt.embeds = images->embeds;
    }
    return prompt;
}

bool has_embeddings(const PromptImages* images) {
    return images && !images->embed_at.empty();
}

// The cache of a read: from `prefixes` when there is one, else a fresh one.
Result<PrefixCache::Lease> lease_cache(backend::ComputeBackend& backend, PrefixCache* prefixes,
                                       const SlotReadRequest& request, const PromptImages* images) {
    if (prefixes) return prefixes->lease(request.prompt_ids, !has_embeddings(images));
    auto fresh = backend.create_cache(static_cast<int>(request.prompt_ids.size()));
    if (!fresh) return fresh.error();
    PrefixCache::Lease lease;
    lease.owned = std::move(fresh.value());
    lease.cache = lease.owned.get();
    return lease;
}

// After a read that ran: its new cache, now holding the whole prompt, is kept for later reads.
void keep_cache(PrefixCache* prefixes, const SlotReadRequest& request, const PromptImages* images,
                PrefixCache::Lease& lease) {
    if (prefixes && lease.owned && !has_embeddings(images))
        prefixes->keep(request.prompt_ids, std::move(lease.owned));
}

// A request's answers from the readouts of its queries.
void fill_rows(const SlotReadRequest& request, std::span<const backend::PositionReadout> readouts,
               SlotReadResult& result) {
    size_t q = 0;
    result.rows.resize(request.rows.size());
    for (size_t r = 0; r < request.rows.size(); ++r) {
        for (const SlotSpec& slot : request.rows[r].slot_specs) {
            const backend::PositionReadout& ro = readouts[q++];
            SlotReadout out;
            out.argmax_id = ro.argmax;
            double mass = 0;
            for (size_t i = 0; i < slot.label_ids.size(); ++i) {
                const float lp = ro.logits[i] - ro.logsumexp;
                out.label_logprobs.push_back(lp);
                mass += std::exp(static_cast<double>(lp));
                if (slot.label_ids[i] == ro.argmax) out.argmax_is_label = true;
            }
            out.label_mass = static_cast<float>(mass);
            result.rows[r].push_back(std::move(out));
        }
    }
}

}  // namespace

Result<SlotReadResult> read_slots(backend::ComputeBackend& backend, int max_context,
                                  const SlotReadRequest& request, const CancelToken& cancel,
                                  const PromptImages* images, PrefixCache* prefixes) {
    auto prepared = prepare(backend, max_context, request);
    if (!prepared) return prepared.error();
    if (cancel.cancelled()) return cancelled();

    SlotReadResult result;
    auto t0 = std::chrono::steady_clock::now();
    auto lease = lease_cache(backend, prefixes, request, images);
    if (!lease) return lease.error();
    backend::KvCache& cache = *lease->cache;
    result.reused_prompt_tokens = lease->reused;
    const backend::DecodeBatch batch = decode_batch(*prepared);
    const backend::PromptInput prompt = prompt_input(request, images, lease->reused);
    Result<std::unique_ptr<backend::DecodedCanvas>> decoded = engine_error("no decoder pass");
    if (lease->full()) {
        // The whole prompt is cached: the decoder pass alone, reading the shared cache.
        decoded = backend.decode(cache, batch, cancel);
        if (!decoded) return decoded.error();
        result.timings.decode_ms = ms_since(t0);
    } else if (backend.fuses_encode_decode()) {
        // One sweep over the weights for prompt and rows: the encode time is inside decode_ms.
        decoded = backend.encode_prompt_and_decode(cache, prompt, batch, cancel);
        if (!decoded) return decoded.error();
        result.timings.decode_ms = ms_since(t0);
    } else {
        if (auto r = backend.encode_prompt(cache, prompt, cancel); !r) return r.error();
        result.timings.encode_ms = ms_since(t0);
        t0 = std::chrono::steady_clock::now();
        decoded = backend.decode(cache, batch, cancel);
        if (!decoded) return decoded.error();
        result.timings.decode_ms = ms_since(t0);
    }
    keep_cache(prefixes, request, images, *lease);
    if (cancel.cancelled()) return cancelled();
    t0 = std::chrono::steady_clock::now();
    auto readouts = backend.read_positions(**decoded, prepared->queries);
    if (!readouts) return readouts.error();
    fill_rows(request, *readouts, result);
    result.timings.readout_ms = ms_since(t0);
    return result;
}

std::vector<Result<SlotReadResult>> read_slots_batch(backend::ComputeBackend& backend,
                                                     int max_context,
                                                     std::span<const BatchedSlotRead> requests,
                                                     const CancelToken& cancel,
                                                     PrefixCache* prefixes) {
    std::vector<Result<SlotReadResult>> results(requests.size(),
                                                engine_error("slot read: not run"));
    std::vector<Result<PreparedRead>> prepared;
    prepared.reserve(requests.size());
    // Every lease is taken before the passes and kept after them, so no entry a read of this
    // batch uses is evicted while it runs.
    std::vector<PrefixCache::Lease> leases(requests.size());
    std::vector<backend::ComputeBackend::BatchedRead> reads;
    std::vector<size_t> read_of(requests.size(), SIZE_MAX);
    for (size_t i = 0; i < requests.size(); ++i) {
        const BatchedSlotRead& r = requests[i];
        prepared.push_back(prepare(backend, max_context, *r.request));
        if (!prepared.back()) {
            results[i] = prepared.back().error();
            continue;
        }
        if (r.cancel && r.cancel->cancelled()) {
            results[i] = cancelled();
            continue;
        }
        auto lease = lease_cache(backend, prefixes, *r.request, r.images);
        if (!lease) {
            results[i] = lease.error();
            continue;
        }
        leases[i] = std::move(lease.value());
        backend::ComputeBackend::BatchedRead read;
        // A shared cache (the whole prompt cached) gets no prompt rows: the pass only reads it.
        read.cache = leases[i].cache;
        read.prompt = prompt_input(*r.request, r.images, leases[i].reused);
        read.batch = decode_batch(*prepared.back());
        read_of[i] = reads.size();
        reads.push_back(std::move(read));
    }
    auto t0 = std::chrono::steady_clock::now();
    backend.encode_and_decode_batch(reads, cancel);
    const double pass_ms = ms_since(t0);
    // Every decoded request's readouts in one sweep over the head.
    std::vector<backend::ComputeBackend::CanvasQueries> readable;
    std::vector<size_t> request_of;
    for (size_t i = 0; i < requests.size(); ++i) {
        if (read_of[i] == SIZE_MAX) continue;
        auto& decoded = reads[read_of[i]].decoded;
        if (!decoded) {
            results[i] = decoded.error();
            continue;
        }
        if (requests[i].cancel && requests[i].cancel->cancelled()) {
            results[i] = cancelled();
            continue;
        }
        readable.push_back({decoded->get(), prepared[i]->queries});
        request_of.push_back(i);
    }
    for (size_t i = 0; i < requests.size(); ++i)
        if (read_of[i] != SIZE_MAX && reads[read_of[i]].decoded)
            keep_cache(prefixes, *requests[i].request, requests[i].images, leases[i]);
    t0 = std::chrono::steady_clock::now();
    auto readouts = backend.read_positions_batch(readable);
    const double readout_ms = ms_since(t0);
    for (size_t k = 0; k < request_of.size(); ++k) {
        const size_t i = request_of[k];
        if (!readouts) {
            results[i] = readouts.error();
            continue;
        }
        SlotReadResult result;
        result.reused_prompt_tokens = leases[i].reused;
        result.timings.decode_ms = pass_ms;  // the shared passes, prompt and rows together
        result.timings.readout_ms = readout_ms;
        fill_rows(*requests[i].request, (*readouts)[k], result);
        results[i] = std::move(result);
    }
    return results;
}

}  // namespace engine::driver
