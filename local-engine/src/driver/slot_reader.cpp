// Slot reads: one encoder pass over the prompt, every row in one batched decoder pass (a first
// step: no self-conditioning), then the constrained readout at the slot positions only.

#include <algorithm>
#include <chrono>
#include <cmath>

#include "driver/drivers.h"

namespace engine::driver {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Result<SlotReadResult> read_slots(backend::ComputeBackend& backend, int max_context,
                                  const SlotReadRequest& request, const CancelToken& cancel,
                                  const PromptImages* images) {
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
    // from the same row: it saves the work, and their answers then agree bit for bit rather
    // than to BLAS blocking noise.
    std::vector<TokenId> ids;
    ids.reserve(request.rows.size() * width);
    std::vector<int> decoded_row(request.rows.size());
    int unique_rows = 0;
    std::vector<backend::PositionQuery> queries;
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
        for (size_t s = 0; s < row.slots.size(); ++s) {
            const SlotSpec& slot = row.slots[s];
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
    if (cancel.cancelled()) return cancelled();

    SlotReadResult result;
    auto t0 = std::chrono::steady_clock::now();
    auto cache = backend.create_cache(P);
    if (!cache) return cache.error();
    backend::DecodeBatch batch;
    batch.rows = unique_rows;
    batch.width = static_cast<int>(width);
    batch.ids = ids;
    backend::PromptInput prompt{request.prompt_ids, {}, {}};
    if (images) {
        prompt.embed_at = images->embed_at;
        prompt.embeds = images->embeds;
    }
    Result<std::unique_ptr<backend::DecodedCanvas>> decoded = engine_error("no decoder pass");
    if (backend.fuses_encode_decode()) {
        // One sweep over the weights for prompt and rows: the encode time is inside decode_ms.
        decoded = backend.encode_prompt_and_decode(**cache, prompt, batch, cancel);
        if (!decoded) return decoded.error();
        result.timings.decode_ms = ms_since(t0);
    } else {
        if (auto r = backend.encode_prompt(**cache, prompt, cancel); !r) return r.error();
        result.timings.encode_ms = ms_since(t0);
        t0 = std::chrono::steady_clock::now();
        decoded = backend.decode(**cache, batch, cancel);
        if (!decoded) return decoded.error();
        result.timings.decode_ms = ms_since(t0);
    }

    t0 = std::chrono::steady_clock::now();
    if (cancel.cancelled()) return cancelled();
    auto readouts = backend.read_positions(**decoded, queries);
    if (!readouts) return readouts.error();
    size_t q = 0;
    result.rows.resize(request.rows.size());
    for (size_t r = 0; r < request.rows.size(); ++r) {
        for (const SlotSpec& slot : request.rows[r].slots) {
            const backend::PositionReadout& ro = (*readouts)[q++];
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
    result.timings.readout_ms = ms_since(t0);
    return result;
}

}  // namespace engine::driver
