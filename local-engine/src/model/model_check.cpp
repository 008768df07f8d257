#include "engine/model_check.h"

#include "model/quantized.h"
#include "model/weights.h"

namespace engine {

Result<ModelSummary> inspect_model(const std::filesystem::path& model_dir) {
    auto loaded = model::load_model_weights(model_dir);
    if (!loaded) return loaded.error();
    const model::ModelWeights& w = **loaded;
    const model::ModelConfig& c = w.config;
    ModelSummary s;
    s.model_type = c.model_type;
    s.num_layers = c.num_layers;
    s.hidden_size = c.hidden_size;
    s.vocab_size = c.vocab_size;
    s.canvas_length = c.canvas_length;
    s.sliding_window = c.sliding_window;
    s.num_experts = c.num_experts;
    s.top_k_experts = c.top_k_experts;
    s.parameters = w.parameter_count;
    auto add = [&](const model::TensorView& t) {
        if (t.empty()) return;
        // A quantised weight shows how it is stored ("nvfp4", "fp8"), not what it reads as.
        const std::string dtype = t.quantized && !t.quantized->parts.empty()
                                      ? model::weight_format_name(t.quantized->parts[0].format)
                                      : model::dtype_name(t.dtype);
        s.tensors.push_back({t.name, dtype, t.shape});
    };
    add(w.embed_tokens);
    add(w.final_norm);
    add(w.self_conditioning.pre_norm);
    add(w.self_conditioning.gate_proj);
    add(w.self_conditioning.up_proj);
    add(w.self_conditioning.down_proj);
    for (int l = 0; l < c.num_layers; ++l) {
        const model::LayerWeights& L = w.layers[static_cast<size_t>(l)];
        s.full_attention.push_back(c.is_full(l));
        s.encoder_layer_scalars.push_back(L.encoder_layer_scalar);
        s.decoder_layer_scalars.push_back(L.decoder_layer_scalar);
        for (const auto* t : {&L.input_layernorm,
                              &L.post_attention_layernorm,
                              &L.pre_feedforward_layernorm,
                              &L.post_feedforward_layernorm,
                              &L.pre_feedforward_layernorm_2,
                              &L.post_feedforward_layernorm_1,
                              &L.post_feedforward_layernorm_2,
                              &L.q_proj,
                              &L.k_proj,
                              &L.v_proj,
                              &L.o_proj,
                              &L.q_norm,
                              &L.k_norm,
                              &L.mlp_gate,
                              &L.mlp_up,
                              &L.mlp_down,
                              &L.router_proj,
                              &L.router_scale,
                              &L.router_per_expert_scale,
                              &L.experts_gate_up,
                              &L.experts_down})
            add(*t);
    }
    return s;
}

}  // namespace engine
