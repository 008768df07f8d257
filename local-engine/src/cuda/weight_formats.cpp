// Which format each linear weight has on the CUDA device (see weight_formats.h).

#include "cuda/weight_formats.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>

#include "model/quantized.h"

namespace engine::cuda {

using model::WeightFormat;

WeightFormats planned_formats(const model::ModelConfig& c) {
    const WeightFormat f = c.quantization.format;
    const WeightFormat dense = f == WeightFormat::FP8 ? f : WeightFormat::BF16;
    WeightFormats out;
    out.self_conditioning = dense;
    out.layers.assign(static_cast<size_t>(c.num_layers), LayerFormats{dense, dense, dense, f});
    return out;
}

bool uses_format(const WeightFormats& f, WeightFormat format) {
    return f.self_conditioning == format ||
           std::any_of(f.layers.begin(), f.layers.end(), [&](const LayerFormats& l) {
               return l.qkv == format || l.o == format || l.mlp == format || l.experts == format;
           });
}

namespace {

Result<WeightFormat> tensor_format(const model::TensorView& t) {
    if (!t.quantized || t.quantized->parts.empty()) return WeightFormat::BF16;
    const WeightFormat f = t.quantized->parts.front().format;
    for (const model::QuantizedLinear& p : t.quantized->parts)
        if (p.format != f)
            return engine_error("CUDA backend: tensor " + t.name + " mixes " +
                                model::weight_format_name(f) + " and " +
                                model::weight_format_name(p.format) + " parts");
    return f;
}

// One format for tensors the device fuses into one matrix.
Result<WeightFormat> group_format(std::initializer_list<const model::TensorView*> group) {
    std::optional<WeightFormat> f;
    std::string first;
    for (const model::TensorView* t : group) {
        if (t->empty()) continue;  // absent (v_proj of a K=V layer); named later if required
        auto g = tensor_format(*t);
        if (!g) return g.error();
        if (f && *f != *g)
            return engine_error("CUDA backend: " + first + " is " + model::weight_format_name(*f) +
                                " but " + t->name + " is " + model::weight_format_name(*g) +
                                "; the device fuses them into one matrix, which needs one format");
        f = *g;
        if (first.empty()) first = t->name;
    }
    return f.value_or(WeightFormat::BF16);
}

}  // namespace

Result<WeightFormats> stored_formats(const model::ModelWeights& mw) {
    WeightFormats out;
    const auto& sc = mw.self_conditioning;
    auto f = group_format({&sc.gate_proj, &sc.up_proj, &sc.down_proj});
    if (!f) return f.error();
    out.self_conditioning = *f;
    for (const model::LayerWeights& S : mw.layers) {
        LayerFormats L;
        auto qkv = group_format({&S.q_proj, &S.k_proj, &S.v_proj});
        auto o = group_format({&S.o_proj});
        auto mlp = group_format({&S.mlp_gate, &S.mlp_up, &S.mlp_down});
        auto ex = group_format({&S.experts_gate_up, &S.experts_down});
        for (auto* r : {&qkv, &o, &mlp, &ex})
            if (!*r) return r->error();
        L.qkv = *qkv;
        L.o = *o;
        L.mlp = *mlp;
        L.experts = *ex;
        out.layers.push_back(L);
    }
    return out;
}

}  // namespace engine::cuda
