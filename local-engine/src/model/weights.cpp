#include "model/weights.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "model/quantized.h"

namespace engine::model {
namespace {

class TensorBinder {
  public:
    TensorBinder(const std::map<std::string, TensorView>& tensors, std::string source,
                 const QuantizationConfig& quant)
        : tensors_(tensors), source_(std::move(source)), quant_(quant) {}

    // A linear weight [rows, cols], plain or quantised (model/quantized.h): a plain one is the
    // file's tensor, a quantised one a view of its packed parts.
    TensorView linear(const std::string& name, int64_t rows, int64_t cols) {
        auto part = linear_part(name, rows, cols);
        if (!part) return {};
        if (part->format == WeightFormat::BF16) return part->weight;
        return quantized_view(name, {rows, cols}, {*part});
    }

    // The layer's experts: the fused 3-D tensors of bf16 checkpoints, or the per-expert Linear
    // weights quantised checkpoints store (experts.<e>.gate_proj / up_proj / down_proj), bound
    // as the same logical [E, 2*MI, H] and [E, H, MI] tensors.
    void experts(const std::string& p, int64_t E, int64_t MI, int64_t H, TensorView& gate_up,
                 TensorView& down) {
        if (!error_.empty()) return;
        if (has(p + "experts.gate_up_proj") && has(p + "experts.down_proj") &&
            is_packed(tensors_.at(p + "experts.gate_up_proj"))) {
            fused_quantized(p + "experts.gate_up_proj", E, 2 * MI, H, gate_up);
            fused_quantized(p + "experts.down_proj", E, H, MI, down);
            return;
        }
        if (has(p + "experts.gate_up_proj") || !has(p + "experts.0.gate_proj.weight")) {
            gate_up = take(p + "experts.gate_up_proj", {E, 2 * MI, H});
            down = take(p + "experts.down_proj", {E, H, MI});
            for (const TensorView* t : {&gate_up, &down})
                if (error_.empty() && t->dtype != DType::F32 && t->dtype != DType::BF16 &&
                    t->dtype != DType::F16)
                    error_ = t->file.string() + ": tensor " + t->name + " is " +
                             dtype_name(t->dtype) +
                             " (expected F32, BF16 or F16, or U8 / F8_E4M3 with their scales "
                             "for quantised experts, in both tensors)";
            return;
        }
        std::vector<QuantizedLinear> gu, dn;
        for (int64_t e = 0; e < E && error_.empty(); ++e) {
            const std::string x = p + "experts." + std::to_string(e) + ".";
            for (const char* proj : {"gate_proj", "up_proj"}) {
                auto part = linear_part(x + proj + ".weight", MI, H);
                if (part) gu.push_back(*part);
            }
            if (auto part = linear_part(x + "down_proj.weight", H, MI)) dn.push_back(*part);
        }
        if (!error_.empty()) return;
        gate_up = quantized_view(p + "experts.gate_up_proj", {E, 2 * MI, H}, std::move(gu));
        down = quantized_view(p + "experts.down_proj", {E, H, MI}, std::move(dn));
    }

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
        params_[name] = it->second.numel();
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
        params_[name] = 1;
        return v;
    }

    const std::string& error() const { return error_; }
    // Logical parameters of every bound tensor (a quantised weight counts its unpacked values).
    const std::map<std::string, int64_t>& params() const { return params_; }

  private:
    static bool is_packed(const TensorView& t) {
        return t.dtype == DType::U8 || t.dtype == DType::F8_E4M3;
    }

    // A fused expert tensor stored quantised in one piece (find_fused_experts).
    void fused_quantized(const std::string& name, int64_t E, int64_t rows, int64_t cols,
                         TensorView& out) {
        if (!error_.empty()) return;
        auto parts = find_fused_experts(tensors_, name, E, rows, cols, quant_);
        if (!parts) {
            error_ = parts.error().message;
            return;
        }
        out = quantized_view(name, {E, rows, cols}, std::move(parts.value()));
        params_[name] = E * rows * cols;
    }

    std::optional<QuantizedLinear> linear_part(const std::string& name, int64_t rows,
                                               int64_t cols) {
        if (!error_.empty()) return std::nullopt;
        auto found = find_linear(tensors_, name, rows, cols, quant_);
        if (!found) {
            error_ = found.error().message;
            return std::nullopt;
        }
        if (!found.value()) {
            error_ = where() + ": tensor " + name + " is missing (expected " +
                     shape_str({rows, cols}) + " per config.json)";
            return std::nullopt;
        }
        params_[name] = rows * cols;
        return *found.value();
    }

    const std::string& where() const { return source_; }
    static std::string shape_str(const std::vector<int64_t>& s) {
        std::string r = "[";
        for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
        return r + "]";
    }

    const std::map<std::string, TensorView>& tensors_;
    std::string source_;  // the file that should have held a missing tensor
    const QuantizationConfig& quant_;
    std::string error_;
    std::set<std::string> used_;
    std::map<std::string, int64_t> params_;
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
    if (config->quantization.format == WeightFormat::BF16) {
        // No quantization_config in config.json: an older ModelOpt export says it here.
        auto hf = read_hf_quant_config(dir);
        if (!hf) return hf.error();
        if (hf.value()) config->quantization = *hf.value();
    }
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
        *tensors, (dir / (sharded ? "model.safetensors.index.json" : "model.safetensors")).string(),
        c.quantization);
    const std::string g = "model.decoder.";
    w->embed_tokens = b.take(g + "embed_tokens.weight", {V, H});
    w->final_norm = b.take(g + "norm.weight", {H});
    if (!c.tie_word_embeddings && b.has("lm_head.weight"))
        w->lm_head = b.take("lm_head.weight", {V, H});
    else
        w->lm_head = w->embed_tokens;
    const std::string sc = g + "self_conditioning.";
    w->self_conditioning.pre_norm = b.take(sc + "pre_norm.weight", {H});
    w->self_conditioning.gate_proj = b.linear(sc + "gate_proj.weight", I, H);
    w->self_conditioning.up_proj = b.linear(sc + "up_proj.weight", I, H);
    w->self_conditioning.down_proj = b.linear(sc + "down_proj.weight", H, I);

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
        L.q_proj = b.linear(p + "self_attn.q_proj.weight", nh * hd, H);
        L.k_proj = b.linear(p + "self_attn.k_proj.weight", kv * hd, H);
        if (c.layer_has_v_proj(l)) L.v_proj = b.linear(p + "self_attn.v_proj.weight", kv * hd, H);
        L.o_proj = b.linear(p + "self_attn.o_proj.weight", H, nh * hd);
        L.q_norm = b.take(p + "self_attn.q_norm.weight", {hd});
        L.k_norm = b.take(p + "self_attn.k_norm.weight", {hd});
        L.mlp_gate = b.linear(p + "mlp.gate_proj.weight", I, H);
        L.mlp_up = b.linear(p + "mlp.up_proj.weight", I, H);
        L.mlp_down = b.linear(p + "mlp.down_proj.weight", H, I);
        L.router_proj = b.linear(p + "router.proj.weight", E, H);
        L.router_scale = b.take(p + "router.scale", {H});
        L.router_per_expert_scale = b.take(p + "router.per_expert_scale", {E});
        b.experts(p, E, MI, H, L.experts_gate_up, L.experts_down);
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
    for (const auto& [name, n] : b.params())
        if (name.rfind("model.encoder.", 0) != 0) params += n;
    w->parameter_count = params;
    return std::shared_ptr<const ModelWeights>(std::move(w));
}

}  // namespace engine::model
