// Native weight matrices over a checkpoint's tensors (see native_weights.h).

#include "cpu/native_weights.h"

#include <algorithm>

#include "model/quantized.h"

namespace engine::cpu {
namespace {

// One stored part's rows [from, from + count) (part-relative) as a block at matrix row `at`.
std::optional<NativeBlock> part_block(const model::QuantizedLinear& p, int64_t from, int64_t count,
                                      int64_t at) {
    NativeBlock b;
    b.first_row = at;
    b.rows = count;
    const int64_t k = p.cols;
    switch (p.format) {
        case model::WeightFormat::BF16:
            if (p.weight.dtype != model::DType::BF16) return std::nullopt;
            b.coding = WeightCoding::bf16;
            b.values = p.weight.data + from * k * 2;
            return b;
        case model::WeightFormat::FP8: {
            b.coding = WeightCoding::fp8;
            b.values = p.weight.data + from * k;
            const size_t per = model::dtype_size(p.weight_scale.dtype);
            b.row_scales.resize(static_cast<size_t>(count));
            model::to_float(p.weight_scale.dtype,
                            p.weight_scale.data + static_cast<size_t>(from) * per,
                            static_cast<size_t>(count), b.row_scales.data());
            return b;
        }
        case model::WeightFormat::NVFP4:
            b.coding = WeightCoding::nvfp4;
            b.values = p.weight.data + from * (k / 2);
            b.block_scales =
                reinterpret_cast<const uint8_t*>(p.weight_scale.data) + from * (k / 16);
            b.global_scale = p.global_scale;
            return b;
    }
    return std::nullopt;
}

}  // namespace

std::optional<NativeMatrix> native_rows(const model::TensorView& t, int64_t first_row, int64_t rows,
                                        int64_t k) {
    NativeMatrix m;
    m.n = rows;
    m.k = k;
    if (!t.quantized) {
        if (t.dtype != model::DType::BF16 || !t.data) return std::nullopt;
        NativeBlock b;
        b.coding = WeightCoding::bf16;
        b.rows = rows;
        b.values = t.data + first_row * k * 2;
        m.blocks.push_back(std::move(b));
        return m;
    }
    // A quantised logical tensor is its parts stacked along the rows.
    int64_t part_row = 0;
    const int64_t last = first_row + rows;
    for (const model::QuantizedLinear& p : t.quantized->parts) {
        const int64_t lo = std::max(first_row, part_row), hi = std::min(last, part_row + p.rows);
        if (lo < hi) {
            if (p.cols != k) return std::nullopt;
            auto b = part_block(p, lo - part_row, hi - lo, lo - first_row);
            if (!b) return std::nullopt;
            m.blocks.push_back(std::move(*b));
        }
        part_row += p.rows;
        if (part_row >= last) break;
    }
    if (m.blocks.empty()) return std::nullopt;
    return m;
}

}  // namespace engine::cpu
