#include "model/weights.h"

#include <cmath>
#include <set>

namespace engine::model {
namespace {

class TensorBinder {
  public:
    TensorBinder(const std::map<std::string, TensorView>& tensors, std::string source)
        : tensors_(tensors), source_(std::move(source)) {}

    // Finds `name` and checks its shape; records the first problem.
    TensorView take(const std::string& name, std::vector<int64_t> shape) {
        TensorView out;
        if (!error_.empty()) return out;
        auto it = tensors_.find(name);
        if (it == tensors_.end()) {
            error_ = where() + ": tensor " + name + " is missing (expected " + shape_str(shape) +
                     " per config.json)";
            return out;
        }
        if (it->second.shape != shape) {
            error_ = it->second.file.string() + ": tensor " + name + " has shape " +
                     it->second.shape_string() + ", expected " + shape_str(shape) +
                     " per config.json";
            return out;
        }
        used_.insert(name);
        return it->second;
    }

    bool has(const std::string& name) const { return tensors_.count(name) > 0; }

    // A layer_scalar [1] (or scalar []) read as one float.
    float scalar(const std::string& name) {
        if (!error_.empty()) return 1.0f;
        auto it = tensors_.find(name);
        if (it == tensors_.end()) {
            error_ = where() + ": tensor " + name + " is missing (expected [1])";
            return 1.0f;
        }
        if (it->second.numel() != 1) {
            error_ = it->second.file.string() + ": tensor " + name + " has shape " +
                     it->second.shape_string() + ", expected [1]";
            return 1.0f;
        }
        float v = 0;
        to_float(it->second.dtype, it->second.data, 1, &v);
        if (!std::isfinite(v)) {
            error_ = it->second.file.string() + ": tensor " + name + " is not finite";
            return 1.0f;
        }
        used_.insert(name);
        return v;
    }

    const std::string& error() const { return error_; }
    const std::set<std::string>& used() const { return used_; }

  private:
    const std::string& where() const { return source_; }
    static std::string shape_str(const std::vector<int64_t>& s) {
        std::string r = "[";
        for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
        return r + "]";
    }

    const std::map<std::string, TensorView>& tensors_;
    std::string source_;  // the file that should have held a missing tensor
    std::string error_;
    std::set<std::string> used_;
};

// The vision tower's tensors (names as transformers' Gemma4VisionModel and
// DiffusionGemmaMultimodalEmbedder register them under DiffusionGemmaEncoderModel).
void bind_vision(TensorBinder& b, const ModelConfig& c, VisionWeights& v) {
    const VisionConfig& vc = c.vision;
    const int64_t VH = vc.hidden_size, VI = vc.intermediate_size, hd = vc.head_dim;
    const int64_t P = vc.patch_size;
    const std::string t = "model.encoder.vision_tower.";
    v.patch_input_proj = b.take(t + "patch_embedder.input_proj.weight", {VH, 3 * P * P});
    v.position_embedding =
        b.take(t + "patch_embedder.position_embedding_table", {2, vc.position_embedding_size, VH});
    v.layers.resize(static_cast<size_t>(vc.num_layers));
    for (int l = 0; l < vc.num_layers; ++l) {
        VisionLayerWeights& L = v.layers[static_cast<size_t>(l)];
        const std::string p = t + "encoder.layers." + std::to_string(l) + ".";
        L.input_layernorm = b.take(p + "input_layernorm.weight", {VH});
        L.post_attention_layernorm = b.take(p + "post_attention_layernorm.weight", {VH});
        L.pre_feedforward_layernorm = b.take(p + "pre_feedforward_layernorm.weight", {VH});
        L.post_feedforward_layernorm = b.take(p + "post_feedforward_layernorm.weight", {VH});
        L.q_proj = b.take(p + "self_attn.q_proj.linear.weight", {vc.num_heads * hd, VH});
        L.k_proj = b.take(p + "self_attn.k_proj.linear.weight", {vc.num_kv_heads * hd, VH});
        L.v_proj = b.take(p + "self_attn.v_proj.linear.weight", {vc.num_kv_heads * hd, VH});
        L.o_proj = b.take(p + "self_attn.o_proj.linear.weight", {VH, vc.num_heads * hd});
        L.q_norm = b.take(p + "self_attn.q_norm.weight", {hd});
        L.k_norm = b.take(p + "self_attn.k_norm.weight", {hd});
        L.mlp_gate = b.take(p + "mlp.gate_proj.linear.weight", {VI, VH});
        L.mlp_up = b.take(p + "mlp.up_proj.linear.weight", {VI, VH});
        L.mlp_down = b.take(p + "mlp.down_proj.linear.weight", {VH, VI});
    }
    if (vc.standardize) {
        v.std_bias = b.take(t + "std_bias", {VH});
        v.std_scale = b.take(t + "std_scale", {VH});
    }
    v.embedding_projection =
        b.take("model.encoder.embed_vision.embedding_projection.weight", {c.hidden_size, VH});
}

}  // namespace

Result<std::shared_ptr<const ModelWeights>> load_model_weights(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return bad_input(dir.string() +
                         ": not a model folder (expected a directory with "
                         "config.json and model.safetensors)");
    auto config = load_config(dir / "config.json");
    if (!config) return config.error();
    auto tensors = open_model_tensors(dir);
    if (!tensors) return tensors.error();

    auto w = std::make_shared<ModelWeights>();
    w->config = std::move(config.value());
    w->dir = dir;
    const ModelConfig& c = w->config;
    const int64_t H = c.hidden_size, V = c.vocab_size, I = c.intermediate_size;
    const int64_t E = c.num_experts, MI = c.moe_intermediate_size;

    const bool sharded = std::filesystem::exists(dir / "model.safetensors.index.json", ec);
    TensorBinder b(
        *tensors,
        (dir / (sharded ? "model.safetensors.index.json" : "model.safetensors")).string());
    const std::string g = "model.decoder.";
    w->embed_tokens = b.take(g + "embed_tokens.weight", {V, H});
    w->final_norm = b.take(g + "norm.weight", {H});
    if (!c.tie_word_embeddings && b.has("lm_head.weight"))
        w->lm_head = b.take("lm_head.weight", {V, H});
    else
        w->lm_head = w->embed_tokens;
    const std::string sc = g + "self_conditioning.";
    w->self_conditioning.pre_norm = b.take(sc + "pre_norm.weight", {H});
    w->self_conditioning.gate_proj = b.take(sc + "gate_proj.weight", {I, H});
    w->self_conditioning.up_proj = b.take(sc + "up_proj.weight", {I, H});
    w->self_conditioning.down_proj = b.take(sc + "down_proj.weight", {H, I});

    w->layers.resize(static_cast<size_t>(c.num_layers));
    for (int l = 0; l < c.num_layers; ++l) {
        LayerWeights& L = w->layers[static_cast<size_t>(l)];
        const std::string p = g + "layers." + std::to_string(l) + ".";
        const int64_t hd = c.layer_head_dim(l), kv = c.layer_kv_heads(l), nh = c.num_heads;
        L.input_layernorm = b.take(p + "input_layernorm.weight", {H});
        L.post_attention_layernorm = b.take(p + "post_attention_layernorm.weight", {H});
        L.pre_feedforward_layernorm = b.take(p + "pre_feedforward_layernorm.weight", {H});
        L.post_feedforward_layernorm = b.take(p + "post_feedforward_layernorm.weight", {H});
        L.pre_feedforward_layernorm_2 = b.take(p + "pre_feedforward_layernorm_2.weight", {H});
        L.post_feedforward_layernorm_1 = b.take(p + "post_feedforward_layernorm_1.weight", {H});
        L.post_feedforward_layernorm_2 = b.take(p + "post_feedforward_layernorm_2.weight", {H});
        L.q_proj = b.take(p + "self_attn.q_proj.weight", {nh * hd, H});
        L.k_proj = b.take(p + "self_attn.k_proj.weight", {kv * hd, H});
        if (c.layer_has_v_proj(l)) L.v_proj = b.take(p + "self_attn.v_proj.weight", {kv * hd, H});
        L.o_proj = b.take(p + "self_attn.o_proj.weight", {H, nh * hd});
        L.q_norm = b.take(p + "self_attn.q_norm.weight", {hd});
        L.k_norm = b.take(p + "self_attn.k_norm.weight", {hd});
        L.mlp_gate = b.take(p + "mlp.gate_proj.weight", {I, H});
        L.mlp_up = b.take(p + "mlp.up_proj.weight", {I, H});
        L.mlp_down = b.take(p + "mlp.down_proj.weight", {H, I});
        L.router_proj = b.take(p + "router.proj.weight", {E, H});
        L.router_scale = b.take(p + "router.scale", {H});
        L.router_per_expert_scale = b.take(p + "router.per_expert_scale", {E});
        L.experts_gate_up = b.take(p + "experts.gate_up_proj", {E, 2 * MI, H});
        L.experts_down = b.take(p + "experts.down_proj", {E, H, MI});
        L.decoder_layer_scalar = b.scalar(p + "layer_scalar");
        L.encoder_layer_scalar =
            b.scalar("model.encoder.language_model.layers." + std::to_string(l) + ".layer_scalar");
        if (!b.error().empty()) break;
    }
    if (!b.error().empty()) return bad_input(b.error());
    if (c.vision.present) bind_vision(b, c, w->vision);
    if (!b.error().empty()) return bad_input(b.error());

    // A v_proj on a K=V layer means config.json and the tensors disagree.
    for (int l = 0; l < c.num_layers; ++l) {
        const std::string v = g + "layers." + std::to_string(l) + ".self_attn.v_proj.weight";
        if (!c.layer_has_v_proj(l) && b.has(v))
            return bad_input((dir / "config.json").string() + ": layer " + std::to_string(l) +
                             " is full attention with attention_k_eq_v, but the checkpoint has " +
                             v + " (layer_types disagree with the tensors)");
    }
    // More layers in the checkpoint than config.json says is a disagreement as well.
    if (b.has(g + "layers." + std::to_string(c.num_layers) + ".input_layernorm.weight"))
        return bad_input((dir / "config.json").string() + ": text_config.num_hidden_layers is " +
                         std::to_string(c.num_layers) + " but the checkpoint has layer " +
                         std::to_string(c.num_layers));

    int64_t params = 0;
    for (const auto& name : b.used())
        if (name.rfind("model.encoder.", 0) != 0) params += tensors->at(name).numel();
    w->parameter_count = params;
    return std::shared_ptr<const ModelWeights>(std::move(w));
}

}  // namespace engine::model
