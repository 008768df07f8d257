#pragma once
// Bit-for-bit equality of two slot reads (every label log-probability, mass and argmax), for
// the suites that promise a read the same bits however it ran (batched, through the prefix
// cache).

#include <cstring>

#include "engine/engine.h"

inline bool same_bits(const engine::SlotReadResult& a, const engine::SlotReadResult& b) {
    if (a.rows.size() != b.rows.size()) return false;
    for (size_t r = 0; r < a.rows.size(); ++r) {
        if (a.rows[r].size() != b.rows[r].size()) return false;
        for (size_t s = 0; s < a.rows[r].size(); ++s) {
            const auto &x = a.rows[r][s], &y = b.rows[r][s];
            if (x.argmax_id != y.argmax_id || x.label_mass != y.label_mass ||
                x.label_logprobs.size() != y.label_logprobs.size() ||
                std::memcmp(x.label_logprobs.data(), y.label_logprobs.data(),
                            x.label_logprobs.size() * sizeof(float)) != 0)
                return false;
        }
    }
    return true;
}
