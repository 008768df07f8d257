#include "model/config.h"

#include "model/quantized.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace engine::model {
namespace {

using nlohmann::json;

std::string read_text(const std::filesystem::path& path, bool& found) {
    std::ifstream in(path, std::ios::binary);
    found = static_cast<bool>(in);
    std::ostringstream s;
    if (found) s << in.rdbuf();
    return s.str();
}

// Reads typed fields of one JSON object and remembers the first error, so the parser below reads
// as a list of fields.
class FieldReader {
  public:
    FieldReader(const json& obj, std::string source, std::string prefix)
        : obj_(obj), source_(std::move(source)), prefix_(std::move(prefix)) {}

    bool has(const char* key) const { return obj_.contains(key) && !obj_[key].is_null(); }

    int integer(const char* key, int fallback, bool required, int min_value = 1) {
        if (!has(key)) {
            if (required)
                fail(key, "is missing (expected an integer >= " + std::to_string(min_value) + ")");
            return fallback;
        }
        const json& v = obj_[key];
        if (!v.is_number_integer() || v.get<int64_t>() < min_value ||
            v.get<int64_t>() > INT32_MAX) {
            fail(key,
                 "is " + v.dump() + " (expected an integer >= " + std::to_string(min_value) + ")");
            return fallback;
        }
        return static_cast<int>(v.get<int64_t>());
    }

    double number(const char* key, double fallback) {
        if (!has(key)) return fallback;
        const json& v = obj_[key];
        if (!v.is_number() || !std::isfinite(v.get<double>())) {
            fail(key, "is " + v.dump() + " (expected a number)");
            return fallback;
        }
        return v.get<double>();
    }

    bool boolean(const char* key, bool fallback) {
        if (!has(key)) return fallback;
        if (!obj_[key].is_boolean()) {
            fail(key, "is " + obj_[key].dump() + " (expected true or false)");
            return fallback;
        }
        return obj_[key].get<bool>();
    }

    std::string string(const char* key, const std::string& fallback) {
        if (!has(key)) return fallback;
        if (!obj_[key].is_string()) {
            fail(key, "is " + obj_[key].dump() + " (expected a string)");
            return fallback;
        }
        return obj_[key].get<std::string>();
    }

    // An id or a list of ids.
    std::vector<TokenId> ids(const char* key) {
        std::vector<TokenId> out;
        if (!has(key)) return out;
        const json& v = obj_[key];
        auto one = [&](const json& x) {
            if (!x.is_number_integer() || x.get<int64_t>() < 0 || x.get<int64_t>() > INT32_MAX) {
                fail(key, "holds " + x.dump() + " (expected token ids >= 0)");
                return;
            }
            out.push_back(static_cast<TokenId>(x.get<int64_t>()));
        };
        if (v.is_array()) {
            for (const auto& x : v) one(x);
        } else {
            one(v);
        }
        return out;
    }

    void fail(const std::string& key, const std::string& what) {
        if (error_.empty()) error_ = source_ + ": field " + prefix_ + key + " " + what;
    }
    const std::string& error() const { return error_; }

  private:
    const json& obj_;
    std::string source_, prefix_;
    std::string error_;
};

RopeConfig read_rope(const json& obj, const std::string& source, const std::string& prefix,
                     std::string& error) {
    RopeConfig r;
    FieldReader f(obj, source, prefix);
    r.rope_type = f.string("rope_type", "default");
    r.theta = f.number("rope_theta", 10000.0);
    r.partial_rotary_factor = f.number("partial_rotary_factor", 1.0);
    r.factor = f.number("factor", 1.0);
    if (f.error().empty()) {
        if (r.rope_type != "default" && r.rope_type != "proportional")
            f.fail("rope_type",
                   "is \"" + r.rope_type + "\" (expected \"default\" or \"proportional\")");
        else if (r.theta <= 0)
            f.fail("rope_theta", "must be > 0");
        else if (r.partial_rotary_factor <= 0 || r.partial_rotary_factor > 1)
            f.fail("partial_rotary_factor", "must be in (0, 1]");
        else if (r.factor <= 0)
            f.fail("factor", "must be > 0");
    }
    if (error.empty()) error = f.error();
    return r;
}

// vision_config (Gemma4VisionConfig); null or absent leaves `present` false.
Result<VisionConfig> read_vision(const json& root, const std::string& source) {
    VisionConfig v;
    if (!root.contains("vision_config") || root["vision_config"].is_null()) return v;
    const json& o = root["vision_config"];
    if (!o.is_object())
        return bad_input(source + ": field vision_config must be an object or null");
    FieldReader f(o, source, "vision_config.");
    v.present = true;
    v.hidden_size = f.integer("hidden_size", 768, false);
    v.intermediate_size = f.integer("intermediate_size", 3072, false);
    v.num_layers = f.integer("num_hidden_layers", 16, false);
    v.num_heads = f.integer("num_attention_heads", 12, false);
    v.num_kv_heads = f.integer("num_key_value_heads", v.num_heads, false);
    v.head_dim = f.integer("head_dim", 64, false);
    v.patch_size = f.integer("patch_size", 16, false);
    v.pooling_kernel_size = f.integer("pooling_kernel_size", 3, false);
    v.position_embedding_size = f.integer("position_embedding_size", 10240, false);
    v.default_output_length = f.integer("default_output_length", 280, false);
    v.rms_norm_eps = f.number("rms_norm_eps", 1e-6);
    v.standardize = f.boolean("standardize", false);
    const std::string act = f.string("hidden_activation", "gelu_pytorch_tanh");
    const bool clipped = f.boolean("use_clipped_linears", false);
    if (!f.error().empty()) return bad_input(f.error());
    if (act != "gelu_pytorch_tanh" && act != "gelu_tanh")
        return bad_input(source + ": field vision_config.hidden_activation is \"" + act +
                         "\" (expected \"gelu_pytorch_tanh\")");
    if (clipped)
        return bad_input(source +
                         ": field vision_config.use_clipped_linears is true (only false is "
                         "supported)");
    if (v.num_heads % v.num_kv_heads != 0)
        return bad_input(source + ": field vision_config.num_attention_heads (" +
                         std::to_string(v.num_heads) +
                         ") must be a multiple of num_key_value_heads");
    // 2-D RoPE splits each head into an x half and a y half, each rotated NeoX-style.
    if (v.head_dim % 4 != 0)
        return bad_input(source + ": field vision_config.head_dim (" + std::to_string(v.head_dim) +
                         ") must be a multiple of 4 (two rotated halves)");
    if (o.contains("rope_parameters") && o["rope_parameters"].is_object()) {
        std::string error;
        const RopeConfig r =
            read_rope(o["rope_parameters"], source, "vision_config.rope_parameters.", error);
        if (!error.empty()) return bad_input(error);
        if (r.rope_type != "default")
            return bad_input(source + ": field vision_config.rope_parameters.rope_type is \"" +
                             r.rope_type + "\" (expected \"default\")");
        v.rope_theta = r.theta;
    }
    return v;
}

}  // namespace

std::vector<float> ModelConfig::inv_freq(int layer) const {
    const RopeConfig& rope = layer_rope(layer);
    const int dim = layer_head_dim(layer);
    std::vector<float> out(static_cast<size_t>(dim / 2), 0.0f);
    if (rope.rope_type == "proportional") {
        // transformers _compute_proportional_rope_parameters with head_dim_key="global_head_dim"
        // on full layers: the exponent divides by the whole head dim, and only the first
        // int(partial * head_dim // 2) pairs rotate.
        const int angles = static_cast<int>(std::floor(rope.partial_rotary_factor * dim / 2.0));
        for (int i = 0; i < angles && i < dim / 2; ++i) {
            const float exponent = static_cast<float>(2 * i) / static_cast<float>(dim);
            out[i] = static_cast<float>(1.0 / std::pow(rope.theta, static_cast<double>(exponent)));
            out[i] = static_cast<float>(out[i] / rope.factor);
        }
    } else {
        // compute_default_rope_parameters: theta^(-2i/head_dim) over the config's head_dim.
        for (int i = 0; i < dim / 2; ++i) {
            const float exponent = static_cast<float>(2 * i) / static_cast<float>(dim);
            out[i] = static_cast<float>(1.0 / std::pow(rope.theta, static_cast<double>(exponent)));
        }
    }
    return out;
}

Result<ModelConfig> parse_config(const std::string& text, const std::string& source) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {  // syntax, and numbers too large for a double
        return bad_input(source + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    if (!root.is_object()) return bad_input(source + ": expected a JSON object");

    ModelConfig c;
    FieldReader top(root, source, "");
    c.model_type = top.string("model_type", "");
    if (top.error().empty() && c.model_type != "diffusion_gemma")
        top.fail("model_type", "is \"" + c.model_type + "\" (expected \"diffusion_gemma\")");
    c.name = top.string("_name_or_path", "");
    c.description = top.string("description", "");
    c.canvas_length = top.integer("canvas_length", 256, false);
    c.eos_token_ids = top.ids("eos_token_id");
    c.tie_word_embeddings = top.boolean("tie_word_embeddings", true);
    c.boi_token_id = static_cast<TokenId>(top.integer("boi_token_id", 255999, false, 0));
    c.image_token_id = static_cast<TokenId>(top.integer("image_token_id", 258880, false, 0));
    c.eoi_token_id = static_cast<TokenId>(top.integer("eoi_token_id", 258882, false, 0));
    if (!top.error().empty()) return bad_input(top.error());
    auto vision = read_vision(root, source);
    if (!vision) return vision.error();
    if (root.contains("quantization_config") && !root["quantization_config"].is_null()) {
        auto q = parse_quantization_config(root["quantization_config"].dump(), source);
        if (!q) return q.error();
        c.quantization = std::move(q.value());
    }
    c.vision = vision.value();
    if (!root.contains("text_config") || !root["text_config"].is_object())
        return bad_input(source + ": field text_config is missing (expected an object)");

    const json& t = root["text_config"];
    FieldReader f(t, source, "text_config.");
    c.vocab_size = f.integer("vocab_size", 0, true);
    c.hidden_size = f.integer("hidden_size", 0, true);
    c.num_layers = f.integer("num_hidden_layers", 0, true);
    c.num_heads = f.integer("num_attention_heads", 0, true);
    c.num_kv_heads = f.integer("num_key_value_heads", 0, true);
    c.num_global_kv_heads = f.integer("num_global_key_value_heads", c.num_kv_heads, false);
    c.head_dim = f.integer("head_dim", 256, false);
    c.global_head_dim = f.integer("global_head_dim", 512, false);
    c.sliding_window = f.integer("sliding_window", 512, false);
    c.intermediate_size = f.integer("intermediate_size", 0, true);
    c.num_experts = f.integer("num_experts", 0, true);
    c.top_k_experts = f.integer("top_k_experts", 0, true);
    c.moe_intermediate_size = f.integer("moe_intermediate_size", 0, true);
    c.rms_norm_eps = f.number("rms_norm_eps", 1e-6);
    c.final_logit_softcapping = f.number("final_logit_softcapping", 30.0);
    c.attention_k_eq_v = f.boolean("attention_k_eq_v", true);
    c.attention_bias = f.boolean("attention_bias", false);
    c.max_position_embeddings = f.integer("max_position_embeddings", 131072, false);
    c.hidden_activation = f.string("hidden_activation", "gelu_pytorch_tanh");
    c.pad_token_id = static_cast<TokenId>(f.integer("pad_token_id", 0, false, 0));
    c.bos_token_id = static_cast<TokenId>(f.integer("bos_token_id", 2, false, 0));
    if (c.eos_token_ids.empty()) c.eos_token_ids = f.ids("eos_token_id");
    if (!f.error().empty()) return bad_input(f.error());

    if (c.attention_bias)
        return bad_input(source +
                         ": field text_config.attention_bias is true (only false is supported)");
    if (c.hidden_activation != "gelu_pytorch_tanh" && c.hidden_activation != "gelu_tanh")
        return bad_input(source + ": field text_config.hidden_activation is \"" +
                         c.hidden_activation + "\" (expected \"gelu_pytorch_tanh\")");
    if (c.num_heads % c.num_kv_heads != 0 || c.num_heads % c.num_global_kv_heads != 0)
        return bad_input(
            source + ": fields text_config.num_attention_heads (" + std::to_string(c.num_heads) +
            ") must be a multiple of num_key_value_heads and num_global_key_value_heads");
    if (c.head_dim % 2 != 0 || c.global_head_dim % 2 != 0)
        return bad_input(source + ": fields text_config.head_dim and global_head_dim must be even");
    if (c.top_k_experts > c.num_experts)
        return bad_input(source + ": field text_config.top_k_experts (" +
                         std::to_string(c.top_k_experts) + ") exceeds num_experts (" +
                         std::to_string(c.num_experts) + ")");

    // layer_types: absent -> transformers' default pattern (every 6th layer full).
    if (t.contains("layer_types") && !t["layer_types"].is_null()) {
        const json& lt = t["layer_types"];
        if (!lt.is_array() || static_cast<int>(lt.size()) != c.num_layers)
            return bad_input(source + ": field text_config.layer_types must be a list of " +
                             std::to_string(c.num_layers) + " entries (num_hidden_layers)");
        for (const auto& x : lt) {
            if (x == "sliding_attention") {
                c.layer_types.push_back(LayerType::Sliding);
            } else if (x == "full_attention") {
                c.layer_types.push_back(LayerType::Full);
            } else {
                return bad_input(source + ": field text_config.layer_types holds " + x.dump() +
                                 " (expected \"sliding_attention\" or \"full_attention\")");
            }
        }
    } else {
        for (int i = 0; i < c.num_layers; ++i)
            c.layer_types.push_back((i + 1) % 6 ? LayerType::Sliding : LayerType::Full);
    }
    // transformers forces the last layer to full attention.
    c.layer_types.back() = LayerType::Full;

    // rope_parameters: {"sliding_attention": {...}, "full_attention": {...}}.
    c.rope_sliding = RopeConfig{"default", 10000.0, 1.0, 1.0};
    c.rope_full = RopeConfig{"proportional", 1000000.0, 0.25, 1.0};
    if (t.contains("rope_parameters") && !t["rope_parameters"].is_null()) {
        const json& rp = t["rope_parameters"];
        if (!rp.is_object())
            return bad_input(source +
                             ": field text_config.rope_parameters must be an object keyed "
                             "by \"sliding_attention\" and \"full_attention\"");
        std::string error;
        if (rp.contains("sliding_attention") && rp["sliding_attention"].is_object())
            c.rope_sliding = read_rope(rp["sliding_attention"], source,
                                       "text_config.rope_parameters.sliding_attention.", error);
        if (rp.contains("full_attention") && rp["full_attention"].is_object())
            c.rope_full = read_rope(rp["full_attention"], source,
                                    "text_config.rope_parameters.full_attention.", error);
        if (!error.empty()) return bad_input(error);
    }
    return c;
}

Result<ModelConfig> load_config(const std::filesystem::path& config_json) {
    bool found = false;
    std::string text = read_text(config_json, found);
    if (!found) return bad_input(config_json.string() + ": cannot read the model's config.json");
    return parse_config(text, config_json.string());
}

Result<GenerationDefaults> load_generation_config(const std::filesystem::path& path) {
    GenerationDefaults g;
    bool found = false;
    std::string text = read_text(path, found);
    if (!found) return g;
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {  // syntax, and numbers too large for a double
        return bad_input(path.string() + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    if (!root.is_object()) return bad_input(path.string() + ": expected a JSON object");
    FieldReader f(root, path.string(), "");
    g.max_new_tokens = f.integer("max_new_tokens", g.max_new_tokens, false);
    g.max_denoising_steps = f.integer("max_denoising_steps", g.max_denoising_steps, false);
    g.t_min = f.number("t_min", g.t_min);
    g.t_max = f.number("t_max", g.t_max);
    g.stability_threshold = f.integer("stability_threshold", g.stability_threshold, false, 0);
    g.confidence_threshold = f.number("confidence_threshold", g.confidence_threshold);
    g.eos_token_ids = f.ids("eos_token_id");
    g.pad_token_id = static_cast<TokenId>(f.integer("pad_token_id", 0, false, 0));
    if (root.contains("sampler_config") && root["sampler_config"].is_object()) {
        FieldReader s(root["sampler_config"], path.string(), "sampler_config.");
        g.entropy_bound = s.number("entropy_bound", g.entropy_bound);
        if (!s.error().empty()) return bad_input(s.error());
    }
    if (!f.error().empty()) return bad_input(f.error());
    if (g.t_min < 0 || g.t_max < g.t_min)
        return bad_input(path.string() + ": fields t_min/t_max must satisfy 0 <= t_min <= t_max");
    if (g.entropy_bound <= 0)
        return bad_input(path.string() + ": field sampler_config.entropy_bound must be > 0");
    return g;
}

}  // namespace engine::model
