// Reading mapped weights ahead of use (see prefetch.h).
#include "model/prefetch.h"

#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22  // Linux 5.14; older kernels answer EINVAL
#endif

#include "model/quantized.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace engine::model {
namespace {

// The distinct byte ranges of a model's tensors, in address order (file order for one file).
std::vector<std::pair<const std::byte*, size_t>> ranges(const ModelWeights& w) {
    std::set<std::pair<const std::byte*, size_t>> seen;
    auto add = [&](const TensorView& t) {
        if (t.data && t.nbytes > 0) seen.emplace(t.data, t.nbytes);
        if (t.quantized)  // a quantised weight's packed parts and their scales
            for (const QuantizedLinear& p : t.quantized->parts)
                for (const TensorView* part : {&p.weight, &p.weight_scale})
                    if (part->data && part->nbytes > 0) seen.emplace(part->data, part->nbytes);
    };
    add(w.embed_tokens);
    add(w.lm_head);
    add(w.final_norm);
    add(w.self_conditioning.pre_norm);
    add(w.self_conditioning.gate_proj);
    add(w.self_conditioning.up_proj);
    add(w.self_conditioning.down_proj);
    for (const LayerWeights& l : w.layers) {
        for (const TensorView* t : {&l.input_layernorm,
                                    &l.post_attention_layernorm,
                                    &l.pre_feedforward_layernorm,
                                    &l.post_feedforward_layernorm,
                                    &l.pre_feedforward_layernorm_2,
                                    &l.post_feedforward_layernorm_1,
                                    &l.post_feedforward_layernorm_2,
                                    &l.q_proj,
                                    &l.k_proj,
                                    &l.v_proj,
                                    &l.o_proj,
                                    &l.q_norm,
                                    &l.k_norm,
                                    &l.mlp_gate,
                                    &l.mlp_up,
                                    &l.mlp_down,
                                    &l.router_proj,
                                    &l.router_scale,
                                    &l.router_per_expert_scale,
                                    &l.experts_gate_up,
                                    &l.experts_down})
            add(*t);
    }
    return {seen.begin(), seen.end()};
}

constexpr size_t kPage = 4096;
volatile unsigned g_prefetch_sink = 0;      // where the page reads go, so none is elided
constexpr size_t kBlock = size_t(8) << 20;  // progress every 8 MiB

}  // namespace

uint64_t weight_bytes(const ModelWeights& weights) {
    uint64_t total = 0;
    for (const auto& r : ranges(weights)) total += r.second;
    return total;
}

bool prefetch_weights(const ModelWeights& weights,
                      const std::function<bool(uint64_t done, uint64_t total)>& step) {
    const auto all = ranges(weights);
    uint64_t total = 0, done = 0;
    for (const auto& r : all) total += r.second;
    // Blocks of the mapping's pages are mapped in one call each (MADV_POPULATE_READ, Linux 5.14:
    // the page-cache pages themselves, no copy), an order of magnitude cheaper than a fault per
    // page where faults are dear (measured on a virtual machine: 1.5 GB in 0.1 s against 1.6 s).
    // Where the kernel has no such call, one byte per page faults the page in; the sum keeps the
    // reads from being optimised away.
    unsigned sum = 0;
    bool populate = true;
    for (const auto& [data, size] : all) {
        for (size_t off = 0; off < size; off += kBlock) {
            const size_t n = std::min(kBlock, size - off);
            const auto first = reinterpret_cast<uintptr_t>(data + off) / kPage * kPage;
            const auto last = reinterpret_cast<uintptr_t>(data + off + n);
            if (populate &&
                ::madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_READ) != 0)
                populate = false;
            if (!populate)
                for (size_t p = 0; p < n; p += kPage) sum += static_cast<unsigned>(data[off + p]);
            done += n;
            if (step && !step(done, total)) return false;
        }
    }
    g_prefetch_sink = sum;
    return !step || step(total, total);
}

}  // namespace engine::model
