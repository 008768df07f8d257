#pragma once
// Comparing two slot reads: bit-for-bit equality (every label log-probability, mass and argmax),
// for the suites that promise a read the same bits however it ran (batched, through the prefix
// cache), and the largest difference of their label probabilities, for the suites that hold a
// packed or quantised read within a tolerance of the f32 one. Also the pseudo-random canvas rows
// those suites read.

#include <algorithm>
#include <cmath>
#include <cstdint>
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

// Largest |difference| of the label probabilities of two reads of the same request.
inline double max_prob_diff(const engine::SlotReadResult& a, const engine::SlotReadResult& b) {
    double worst = 0;
    for (size_t r = 0; r < a.rows.size(); ++r)
        for (size_t s = 0; s < a.rows[r].size(); ++s)
            for (size_t i = 0; i < a.rows[r][s].label_logprobs.size(); ++i)
                worst = std::max(worst, std::abs(std::exp(double(a.rows[r][s].label_logprobs[i])) -
                                                 std::exp(double(b.rows[r][s].label_logprobs[i]))));
    return worst;
}

// Canvas row `r` of 32 ids spread over the whole vocabulary (a fixed LCG, so every run reads the
// same canvas); the caller sets its slots.
inline engine::CanvasRow pseudo_random_row(uint32_t r) {
    engine::CanvasRow row;
    uint32_t s = r * 2654435761u + 1;
    for (int i = 0; i < 32; ++i) {
        s = s * 1664525u + 1013904223u;
        row.ids.push_back(static_cast<engine::TokenId>(s % 262144));
    }
    return row;
}
