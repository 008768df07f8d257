// The tiny DiffusionGemma writer (see engine/tiny_model.h).

#include "engine/tiny_model.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/quantized.h"
#include "model/safetensors.h"

namespace engine {
namespace {

using nlohmann::json;

// splitmix64: a small, fully specified PRNG, so the same seed gives the same model everywhere.
class Rng {
  public:
    explicit Rng(uint64_t seed) : state_(seed ^ 0x9e3779b97f4a7c15ull) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
    double normal() {                                                           // Box-Muller
        const double u1 = 1.0 - uniform(), u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

  private:
    uint64_t state_;
};

struct Preset {
    int hidden, layers, heads, kv_heads, head_dim, global_kv_heads, global_head_dim;
    int sliding_window, intermediate, experts, top_k, moe_intermediate, canvas_length;
    int max_positions;
    std::vector<std::string> layer_types;
};

Preset preset_for(const std::string& name) {
    if (name == "small") {
        std::vector<std::string> types;
        for (int i = 0; i < 12; ++i)
            types.push_back((i + 1) % 6 ? "sliding_attention" : "full_attention");
        return {256, 12, 8, 4, 32, 2, 64, 128, 768, 16, 4, 256, 256, 32768, types};
    }
    // tiny: 6 layers [s, s, full, s, s, full]; window 16 so the window rules matter with real
    // prompts.
    return {64,
            6,
            4,
            2,
            16,
            1,
            32,
            16,
            128,
            8,
            2,
            32,
            256,
            32768,
            {"sliding_attention", "sliding_attention", "full_attention", "sliding_attention",
             "sliding_attention", "full_attention"}};
}

struct PendingTensor {
    std::vector<int64_t> shape;
    std::vector<float> values;
};

class TensorSet {
  public:
    explicit TensorSet(uint64_t seed) : rng_(seed) {}
    // N(0, std^2).
    void normal(const std::string& name, std::vector<int64_t> shape, double stddev) {
        auto& t = add(name, std::move(shape));
        for (float& v : t.values) v = static_cast<float>(rng_.normal() * stddev);
    }
    // U(lo, hi): norm weights and scales around a centre, so no tensor is a constant.
    void uniform(const std::string& name, std::vector<int64_t> shape, double lo, double hi) {
        auto& t = add(name, std::move(shape));
        for (float& v : t.values) v = static_cast<float>(lo + (hi - lo) * rng_.uniform());
    }
    void constant(const std::string& name, std::vector<int64_t> shape, float value) {
        auto& t = add(name, std::move(shape));
        for (float& v : t.values) v = value;
    }
    const std::map<std::string, PendingTensor>& tensors() const { return tensors_; }
    // Takes another set's tensors (drawn from its own stream).
    void merge(TensorSet&& other) {
        for (auto& [name, t] : other.tensors_) tensors_[name] = std::move(t);
    }
    int64_t parameters(const std::string& skip_prefix) const {
        int64_t n = 0;
        for (const auto& [name, t] : tensors_)
            if (name.rfind(skip_prefix, 0) != 0) n += static_cast<int64_t>(t.values.size());
        return n;
    }

  private:
    PendingTensor& add(const std::string& name, std::vector<int64_t> shape) {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        auto& t = tensors_[name];
        t.shape = std::move(shape);
        t.values.assign(static_cast<size_t>(n), 0.0f);
        return t;
    }
    Rng rng_;
    std::map<std::string, PendingTensor> tensors_;
};

// The tiny vision tower: Gemma 4's encoder structure (transformers Gemma4VisionModel) at small
// sizes. 24x24 images fit its budget exactly (6x6 patches of 4 pixels, pooled 2x2 into 9 soft
// tokens); other aspect ratios give fewer.
struct VisionPreset {
    int hidden = 32, layers = 2, heads = 2, kv_heads = 2, head_dim = 16, intermediate = 64;
    int patch = 4, pooling = 2, position_table = 64, soft_tokens = 9;
};

// Drawn from a stream of its own, so the text weights stay what they were for the same seed.
TensorSet vision_tensors(uint64_t seed, const VisionPreset& v, int64_t text_hidden) {
    TensorSet ts(seed ^ 0x5649534f4e000000ull);  // "VISON"
    const int64_t H = v.hidden, I = v.intermediate, hd = v.head_dim;
    const double w_in = 1.0 / std::sqrt(static_cast<double>(H));
    const std::string t = "model.encoder.vision_tower.";
    ts.normal(t + "patch_embedder.input_proj.weight", {H, 3 * v.patch * v.patch},
              1.0 / std::sqrt(3.0 * v.patch * v.patch));
    ts.normal(t + "patch_embedder.position_embedding_table", {2, v.position_table, H}, 0.5);
    for (int l = 0; l < v.layers; ++l) {
        const std::string x = t + "encoder.layers." + std::to_string(l) + ".";
        for (const char* norm : {"input_layernorm", "pre_feedforward_layernorm"})
            ts.uniform(x + norm + ".weight", {H}, 0.8, 1.2);
        for (const char* norm : {"post_attention_layernorm", "post_feedforward_layernorm"})
            ts.uniform(x + norm + ".weight", {H}, 0.3, 0.7);
        ts.normal(x + "self_attn.q_proj.linear.weight", {v.heads * hd, H}, w_in);
        ts.normal(x + "self_attn.k_proj.linear.weight", {v.kv_heads * hd, H}, w_in);
        ts.normal(x + "self_attn.v_proj.linear.weight", {v.kv_heads * hd, H}, w_in);
        ts.normal(x + "self_attn.o_proj.linear.weight", {H, v.heads * hd},
                  1.0 / std::sqrt(static_cast<double>(v.heads * hd)));
        ts.uniform(x + "self_attn.q_norm.weight", {hd}, 0.4, 0.8);
        ts.uniform(x + "self_attn.k_norm.weight", {hd}, 0.4, 0.8);
        ts.normal(x + "mlp.gate_proj.linear.weight", {I, H}, w_in);
        ts.normal(x + "mlp.up_proj.linear.weight", {I, H}, w_in);
        ts.normal(x + "mlp.down_proj.linear.weight", {H, I},
                  1.0 / std::sqrt(static_cast<double>(I)));
    }
    ts.normal(t + "std_bias", {H}, 1.0);
    ts.uniform(t + "std_scale", {H}, 0.5, 1.5);
    // Projected soft tokens of about the token embeddings' scale after the text embed scale.
    ts.normal("model.encoder.embed_vision.embedding_projection.weight", {text_hidden, H},
              3.0 / std::sqrt(static_cast<double>(H)));
    return ts;
}

// Writes `bytes` producers to path via a temporary file in the same folder, then renames.
Result<void> write_atomically(const std::filesystem::path& path,
                              const std::function<bool(std::ofstream&)>& produce) {
    const auto tmp =
        path.parent_path() / ("." + path.filename().string() + ".tmp" + std::to_string(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return bad_input(tmp.string() + ": cannot create (is --out writable?)");
        if (!produce(out) || !out.flush()) {
            out.close();
            std::filesystem::remove(tmp);
            return engine_error(tmp.string() + ": write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return engine_error(path.string() + ": cannot rename the temporary file into place");
    }
    return {};
}

Result<void> write_json(const std::filesystem::path& path, const json& j) {
    const std::string text = j.dump(2) + "\n";
    return write_atomically(path, [&](std::ofstream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return static_cast<bool>(out);
    });
}

// How the writer stores tensors: plain (f32 or bf16), a quantised checkpoint as published, or
// the dequantised reference of one.
struct Storage {
    model::WeightFormat format = model::WeightFormat::BF16;  // BF16: nothing quantised
    bool quantized = false;   // packed weights and scales in the file
    bool reference = false;   // the quantised weights dequantised, as F32 (the rest unchanged)
    bool plain_bf16 = false;  // unquantised tensors as BF16 (else F32)
    const char* config_dtype() const { return plain_bf16 ? "bfloat16" : "float32"; }
};

Storage storage_for(const std::string& dtype, bool reference) {
    Storage s;
    if (dtype == "bf16") s.plain_bf16 = true;
    if (dtype == "fp8" || dtype == "nvfp4") {
        s.format = dtype == "fp8" ? model::WeightFormat::FP8 : model::WeightFormat::NVFP4;
        s.reference = reference;
        s.quantized = !reference;
        s.plain_bf16 = true;  // the published checkpoints keep the rest in bf16
    }
    return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Which tensors each format quantises, as the published checkpoints do: the NVFP4 DiffusionGemma
// checkpoint the experts (its 18.8 GB is the experts in NVFP4 and the rest in bf16); FP8 dynamic
// every decoder Linear but the router.
bool quantizes(model::WeightFormat format, const std::string& name) {
    const bool decoder_layer = name.rfind("model.decoder.layers.", 0) == 0;
    const bool experts =
        ends_with(name, ".experts.gate_up_proj") || ends_with(name, ".experts.down_proj");
    switch (format) {
        case model::WeightFormat::BF16:
            return false;
        case model::WeightFormat::NVFP4:
            return decoder_layer && experts;
        case model::WeightFormat::FP8:
            return name.rfind("model.decoder.", 0) == 0 &&
                   (experts || ends_with(name, "_proj.weight"));
    }
    return false;
}

json quantization_config(model::WeightFormat format) {
    if (format == model::WeightFormat::NVFP4)
        return {{"quant_method", "modelopt"},
                {"quant_algo", "NVFP4"},
                {"group_size", 16},
                {"kv_cache_quant_algo", nullptr},
                {"producer", {{"name", "modelopt"}}},
                {"ignore",
                 {"lm_head", "model.decoder.embed_tokens*", "*self_attn*", "*mlp.*", "*router*",
                  "model.decoder.self_conditioning*", "model.encoder.vision_tower*",
                  "model.encoder.embed_vision*"}}};
    return {{"quant_method", "compressed-tensors"},
            {"format", "float-quantized"},
            {"quantization_status", "compressed"},
            {"config_groups",
             {{"group_0",
               {{"targets", {"Linear"}},
                {"weights",
                 {{"num_bits", 8},
                  {"type", "float"},
                  {"strategy", "channel"},
                  {"symmetric", true},
                  {"dynamic", false}}},
                {"input_activations",
                 {{"num_bits", 8},
                  {"type", "float"},
                  {"strategy", "token"},
                  {"symmetric", true},
                  {"dynamic", true}}},
                {"output_activations", nullptr}}}}},
            {"ignore", {"lm_head", "re:.*router.*", "re:.*vision_tower.*", "re:.*embed_vision.*"}},
            {"kv_cache_scheme", nullptr}};
}

// One tensor of the output file: float values encoded at write time (F32 / BF16), or bytes.
struct OutTensor {
    std::string dtype;
    std::vector<int64_t> shape;
    const std::vector<float>* values = nullptr;
    std::vector<uint8_t> bytes;

    uint64_t byte_size() const {
        return values ? values->size() * (dtype == "BF16" ? 2 : 4) : bytes.size();
    }
    void write(std::ofstream& out) const {
        if (!values) {
            out.write(reinterpret_cast<const char*>(bytes.data()),
                      static_cast<std::streamsize>(bytes.size()));
        } else if (dtype == "BF16") {
            std::vector<uint16_t> half(values->size());
            for (size_t i = 0; i < half.size(); ++i) half[i] = model::float_to_bf16((*values)[i]);
            out.write(reinterpret_cast<const char*>(half.data()),
                      static_cast<std::streamsize>(half.size() * 2));
        } else {
            out.write(reinterpret_cast<const char*>(values->data()),
                      static_cast<std::streamsize>(values->size() * 4));
        }
    }
};

template <class T>
std::vector<uint8_t> as_bytes(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

// One Linear weight [rows, cols] quantised as the published layouts store it.
struct QuantizedMatrix {
    std::map<std::string, OutTensor> tensors;  // by suffix: "weight", "weight_scale", ...
    std::vector<float> dequantized;            // what a loader must read back
};

// FP8 E4M3 with one scale per row (max |w| / 448, held in bf16 as the published checkpoints do).
QuantizedMatrix quantize_fp8(const float* w, int64_t rows, int64_t cols) {
    QuantizedMatrix q;
    std::vector<uint8_t> codes(static_cast<size_t>(rows * cols));
    std::vector<uint16_t> scales(static_cast<size_t>(rows));
    q.dequantized.resize(codes.size());
    for (int64_t r = 0; r < rows; ++r) {
        float amax = 0;
        for (int64_t c = 0; c < cols; ++c) amax = std::max(amax, std::fabs(w[r * cols + c]));
        scales[static_cast<size_t>(r)] = model::float_to_bf16(amax > 0 ? amax / 448.0f : 1.0f);
        const float scale = model::bf16_to_float(scales[static_cast<size_t>(r)]);
        for (int64_t c = 0; c < cols; ++c) {
            const size_t i = static_cast<size_t>(r * cols + c);
            codes[i] = model::float_to_e4m3(w[i] / scale);
            q.dequantized[i] = model::e4m3_to_float(codes[i]) * scale;
        }
    }
    q.tensors["weight"] = {"F8_E4M3", {rows, cols}, nullptr, std::move(codes)};
    q.tensors["weight_scale"] = {"BF16", {rows, 1}, nullptr, as_bytes(scales)};
    return q;
}

// NVFP4: E2M1 values two a byte (even column low), an E4M3 scale per 16 values of a row, and a
// global scale max |w| / (6 * 448) so the block scales use E4M3's range.
QuantizedMatrix quantize_nvfp4(const float* w, int64_t rows, int64_t cols) {
    QuantizedMatrix q;
    const int64_t blocks = cols / 16;
    std::vector<uint8_t> packed(static_cast<size_t>(rows * cols / 2), 0);
    std::vector<uint8_t> scales(static_cast<size_t>(rows * blocks));
    q.dequantized.resize(static_cast<size_t>(rows * cols));
    float amax = 0;
    for (int64_t i = 0; i < rows * cols; ++i) amax = std::max(amax, std::fabs(w[i]));
    const float global = amax > 0 ? amax / (6.0f * 448.0f) : 1.0f;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t b = 0; b < blocks; ++b) {
            float bmax = 0;
            for (int64_t i = 0; i < 16; ++i)
                bmax = std::max(bmax, std::fabs(w[r * cols + b * 16 + i]));
            const uint8_t sc = model::float_to_e4m3(bmax / 6.0f / global);
            scales[static_cast<size_t>(r * blocks + b)] = sc;
            const float scale = model::e4m3_to_float(sc) * global;
            for (int64_t i = 0; i < 16; ++i) {
                const int64_t c = b * 16 + i;
                const size_t at = static_cast<size_t>(r * cols + c);
                const uint8_t code = scale > 0 ? model::float_to_e2m1(w[at] / scale) : 0;
                packed[static_cast<size_t>((r * cols + c) / 2)] |=
                    static_cast<uint8_t>(c % 2 ? code << 4 : code);
                q.dequantized[at] = model::e2m1_to_float(code) * scale;
            }
        }
    const std::vector<float> g = {global};
    // The activations' global scale (FP4 activations): written as the real exports have it,
    // unused by a bf16-activation engine.
    const std::vector<float> input_scale = {1.0f / 448.0f};
    q.tensors["weight"] = {"U8", {rows, cols / 2}, nullptr, std::move(packed)};
    q.tensors["weight_scale"] = {"F8_E4M3", {rows, blocks}, nullptr, std::move(scales)};
    q.tensors["weight_scale_2"] = {"F32", {}, nullptr, as_bytes(g)};
    q.tensors["input_scale"] = {"F32", {}, nullptr, as_bytes(input_scale)};
    return q;
}

QuantizedMatrix quantize(model::WeightFormat format, const float* w, int64_t rows, int64_t cols) {
    return format == model::WeightFormat::FP8 ? quantize_fp8(w, rows, cols)
                                              : quantize_nvfp4(w, rows, cols);
}

// The matrices of one tensor as Linear modules: a plain weight is one ("<m>.weight"); fused
// experts are one per expert and projection (experts.<e>.gate_proj / up_proj / down_proj), each
// a block of rows of the fused tensor.
struct Module {
    std::string name;  // without ".weight"
    int64_t first_row, rows;
};

std::vector<Module> modules_of(const std::string& name, const PendingTensor& t) {
    const std::string gate_up = "experts.gate_up_proj", down = "experts.down_proj";
    if (ends_with(name, gate_up)) {
        const std::string p = name.substr(0, name.size() - gate_up.size()) + "experts.";
        const int64_t E = t.shape[0], MI = t.shape[1] / 2;
        std::vector<Module> m;
        for (int64_t e = 0; e < E; ++e) {
            m.push_back({p + std::to_string(e) + ".gate_proj", e * 2 * MI, MI});
            m.push_back({p + std::to_string(e) + ".up_proj", e * 2 * MI + MI, MI});
        }
        return m;
    }
    if (ends_with(name, down)) {
        const std::string p = name.substr(0, name.size() - down.size()) + "experts.";
        std::vector<Module> m;
        for (int64_t e = 0; e < t.shape[0]; ++e)
            m.push_back({p + std::to_string(e) + ".down_proj", e * t.shape[1], t.shape[1]});
        return m;
    }
    return {{name.substr(0, name.size() - std::string(".weight").size()), 0, t.shape[0]}};
}

// Adds `name` to `out` as `storage` stores it.
void lay_out(const std::string& name, const PendingTensor& t, const Storage& storage,
             std::map<std::string, OutTensor>& out) {
    if (!quantizes(storage.format, name)) {
        out[name] = {storage.plain_bf16 ? "BF16" : "F32", t.shape, &t.values, {}};
        return;
    }
    const int64_t cols = t.shape.back();
    std::vector<float> dequantized(t.values.size());
    for (const Module& m : modules_of(name, t)) {
        QuantizedMatrix q =
            quantize(storage.format, t.values.data() + m.first_row * cols, m.rows, cols);
        std::copy(q.dequantized.begin(), q.dequantized.end(),
                  dequantized.begin() + m.first_row * cols);
        if (storage.quantized)
            for (auto& [suffix, tensor] : q.tensors) out[m.name + "." + suffix] = std::move(tensor);
    }
    if (storage.reference) out[name] = {"F32", t.shape, nullptr, as_bytes(dequantized)};
}

}  // namespace

Result<TinyModelSummary> write_tiny_model(const TinyModelOptions& options) {
    if (options.preset != "tiny" && options.preset != "small")
        return bad_input("--preset " + options.preset + ": expected tiny or small");
    if (options.dtype != "f32" && options.dtype != "bf16" && options.dtype != "fp8" &&
        options.dtype != "nvfp4")
        return bad_input("--dtype " + options.dtype + ": expected f32, bf16, fp8 or nvfp4");
    if (options.dequantized_reference && options.dtype != "fp8" && options.dtype != "nvfp4")
        return bad_input("a dequantised reference needs --dtype fp8 or nvfp4");
    if (options.out_dir.empty()) return bad_input("--out: a folder is required");
    if (!options.tokenizer_json.empty() &&
        !std::filesystem::is_regular_file(options.tokenizer_json))
        return bad_input(options.tokenizer_json.string() +
                         ": tokenizer.json not found (run scripts/prepare-tokenizer.sh, or pass "
                         "--tokenizer FILE)");
    std::error_code ec;
    std::filesystem::create_directories(options.out_dir, ec);
    if (!std::filesystem::is_directory(options.out_dir))
        return bad_input(options.out_dir.string() + ": cannot create the output folder");

    const Preset p = preset_for(options.preset);
    const int64_t V = 262144, H = p.hidden, I = p.intermediate, E = p.experts;
    const int64_t MI = p.moe_intermediate;

    TensorSet ts(options.seed);
    const double w_in = 1.0 / std::sqrt(static_cast<double>(H));
    // Embedding: std 3/sqrt(H) gives logits of std ~3 through the tied head: peaked enough to
    // make argmax and entropies meaningful, far from one-hot.
    ts.normal("model.decoder.embed_tokens.weight", {V, H}, 3.0 * w_in);
    ts.uniform("model.decoder.norm.weight", {H}, 0.8, 1.2);
    const std::string sc = "model.decoder.self_conditioning.";
    ts.uniform(sc + "pre_norm.weight", {H}, 0.8, 1.2);
    ts.normal(sc + "gate_proj.weight", {I, H}, w_in);
    ts.normal(sc + "up_proj.weight", {I, H}, w_in);
    ts.normal(sc + "down_proj.weight", {H, I}, 1.0 / std::sqrt(static_cast<double>(I)));
    for (int l = 0; l < p.layers; ++l) {
        const bool full = p.layer_types[static_cast<size_t>(l)] == "full_attention";
        const int64_t hd = full ? p.global_head_dim : p.head_dim;
        const int64_t kv = full ? p.global_kv_heads : p.kv_heads;
        const int64_t nh = p.heads;
        const std::string x = "model.decoder.layers." + std::to_string(l) + ".";
        for (const char* norm :
             {"input_layernorm", "pre_feedforward_layernorm", "pre_feedforward_layernorm_2"})
            ts.uniform(x + norm + ".weight", {H}, 0.8, 1.2);
        // Post-norms scale what each branch adds to the residual stream.
        for (const char* norm : {"post_attention_layernorm", "post_feedforward_layernorm",
                                 "post_feedforward_layernorm_1", "post_feedforward_layernorm_2"})
            ts.uniform(x + norm + ".weight", {H}, 0.3, 0.7);
        ts.normal(x + "self_attn.q_proj.weight", {nh * hd, H}, w_in);
        ts.normal(x + "self_attn.k_proj.weight", {kv * hd, H}, w_in);
        if (!full) ts.normal(x + "self_attn.v_proj.weight", {kv * hd, H}, w_in);
        ts.normal(x + "self_attn.o_proj.weight", {H, nh * hd},
                  1.0 / std::sqrt(static_cast<double>(nh * hd)));
        // Scale 1.0 attention over normed q and k: q/k norm weights below 1 keep the scores in a
        // range where the softmax is neither uniform nor one-hot.
        ts.uniform(x + "self_attn.q_norm.weight", {hd}, 0.4, 0.8);
        ts.uniform(x + "self_attn.k_norm.weight", {hd}, 0.4, 0.8);
        ts.normal(x + "mlp.gate_proj.weight", {I, H}, w_in);
        ts.normal(x + "mlp.up_proj.weight", {I, H}, w_in);
        ts.normal(x + "mlp.down_proj.weight", {H, I}, 1.0 / std::sqrt(static_cast<double>(I)));
        ts.normal(x + "router.proj.weight", {E, H}, 2.0 * w_in);
        ts.uniform(x + "router.scale", {H}, 0.8, 1.2);
        ts.uniform(x + "router.per_expert_scale", {E}, 0.7, 1.3);
        ts.normal(x + "experts.gate_up_proj", {E, 2 * MI, H}, w_in);
        ts.normal(x + "experts.down_proj", {E, H, MI}, 1.0 / std::sqrt(static_cast<double>(MI)));
        // Layer scalars: decoder around 1.0, encoder around 0.75, so a mix-up shows.
        ts.uniform(x + "layer_scalar", {1}, 0.9, 1.1);
        ts.uniform("model.encoder.language_model.layers." + std::to_string(l) + ".layer_scalar",
                   {1}, 0.7, 0.8);
    }

    // The vision tower in the tiny preset (the small benchmark preset stays text-only).
    const bool with_vision = options.preset == "tiny";
    const VisionPreset vp;
    if (with_vision) ts.merge(vision_tensors(options.seed, vp, H));

    // What goes into model.safetensors: each tensor as stored (quantised or not).
    const Storage storage = storage_for(options.dtype, options.dequantized_reference);
    std::map<std::string, OutTensor> out_tensors;
    for (const auto& [name, t] : ts.tensors()) lay_out(name, t, storage, out_tensors);

    // model.safetensors: sorted names, data in that order, header padded to 8 bytes.
    json header = json::object();
    header["__metadata__"] = {{"format", "pt"}};
    uint64_t offset = 0;
    for (const auto& [name, t] : out_tensors) {
        const uint64_t n = t.byte_size();
        header[name] = {
            {"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + n}}};
        offset += n;
    }
    std::string header_text = header.dump();
    while (header_text.size() % 8) header_text.push_back(' ');
    TinyModelSummary summary;
    summary.parameters = ts.parameters("model.encoder.");
    summary.bytes = static_cast<int64_t>(8 + header_text.size() + offset);

    auto st = write_atomically(options.out_dir / "model.safetensors", [&](std::ofstream& out) {
        uint8_t len[8];
        uint64_t n = header_text.size();
        for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(n >> (8 * i));
        out.write(reinterpret_cast<const char*>(len), 8);
        out.write(header_text.data(), static_cast<std::streamsize>(header_text.size()));
        for (const auto& [name, t] : out_tensors) t.write(out);
        return static_cast<bool>(out);
    });
    if (!st) return st.error();

    json rope = {{"sliding_attention", {{"rope_type", "default"}, {"rope_theta", 10000.0}}},
                 {"full_attention",
                  {{"rope_type", "proportional"},
                   {"partial_rotary_factor", 0.25},
                   {"rope_theta", 1000000.0}}}};
    json text = {{"model_type", "diffusion_gemma_text"},
                 {"vocab_size", V},
                 {"hidden_size", H},
                 {"intermediate_size", I},
                 {"num_hidden_layers", p.layers},
                 {"num_attention_heads", p.heads},
                 {"num_key_value_heads", p.kv_heads},
                 {"num_global_key_value_heads", p.global_kv_heads},
                 {"head_dim", p.head_dim},
                 {"global_head_dim", p.global_head_dim},
                 {"hidden_activation", "gelu_pytorch_tanh"},
                 {"max_position_embeddings", p.max_positions},
                 {"rms_norm_eps", 1e-6},
                 {"pad_token_id", 0},
                 {"eos_token_id", 1},
                 {"bos_token_id", 2},
                 {"tie_word_embeddings", true},
                 {"rope_parameters", rope},
                 {"attention_bias", false},
                 {"attention_dropout", 0.0},
                 {"sliding_window", p.sliding_window},
                 {"layer_types", p.layer_types},
                 {"final_logit_softcapping", 30.0},
                 {"use_bidirectional_attention", "vision"},
                 {"num_experts", E},
                 {"top_k_experts", p.top_k},
                 {"moe_intermediate_size", MI},
                 {"attention_k_eq_v", true},
                 {"dtype", storage.config_dtype()}};
    json config = {{"architectures", {"DiffusionGemmaForBlockDiffusion"}},
                   {"model_type", "diffusion_gemma"},
                   {"_name_or_path", "diffusiongemma-" + options.preset + "-random"},
                   {"canvas_length", p.canvas_length},
                   {"eos_token_id", {1, 106, 50}},
                   {"pad_token_id", 0},
                   {"tie_word_embeddings", true},
                   {"boi_token_id", 255999},
                   {"eoi_token_id", 258882},
                   {"image_token_id", 258880},
                   {"initializer_range", 0.02},
                   {"dtype", storage.config_dtype()},
                   {"text_config", text},
                   {"vision_config", nullptr}};
    if (with_vision)
        config["vision_config"] = {
            {"model_type", "gemma4_vision"},
            {"hidden_size", vp.hidden},
            {"intermediate_size", vp.intermediate},
            {"num_hidden_layers", vp.layers},
            {"num_attention_heads", vp.heads},
            {"num_key_value_heads", vp.kv_heads},
            {"head_dim", vp.head_dim},
            {"hidden_activation", "gelu_pytorch_tanh"},
            {"patch_size", vp.patch},
            {"pooling_kernel_size", vp.pooling},
            {"position_embedding_size", vp.position_table},
            {"default_output_length", vp.soft_tokens},
            {"rms_norm_eps", 1e-6},
            {"standardize", true},
            {"use_clipped_linears", false},
            {"rope_parameters", {{"rope_type", "default"}, {"rope_theta", 100.0}}}};
    if (storage.quantized) config["quantization_config"] = quantization_config(storage.format);
    if (storage.quantized && storage.format == model::WeightFormat::NVFP4) {
        // ModelOpt's exports carry the same facts in hf_quant_config.json as well.
        const json q = quantization_config(storage.format);
        const json hf = {{"producer", {{"name", "modelopt"}}},
                         {"quantization",
                          {{"quant_algo", q["quant_algo"]},
                           {"kv_cache_quant_algo", nullptr},
                           {"group_size", q["group_size"]},
                           {"exclude_modules", q["ignore"]}}}};
        if (auto r = write_json(options.out_dir / "hf_quant_config.json", hf); !r) return r.error();
    }
    if (auto r = write_json(options.out_dir / "config.json", config); !r) return r.error();

    json gen = {
        {"max_new_tokens", 256},
        {"max_denoising_steps", 48},
        {"sampler_config", {{"entropy_bound", 0.1}, {"_cls_name", "EntropyBoundSamplerConfig"}}},
        {"t_min", 0.4},
        {"t_max", 0.8},
        {"stability_threshold", 1},
        {"confidence_threshold", 0.005},
        {"eos_token_id", {1, 106, 50}},
        {"pad_token_id", 0}};
    if (auto r = write_json(options.out_dir / "generation_config.json", gen); !r) return r.error();
    if (with_vision) {
        // Gemma4ImageProcessor's fields; max_soft_tokens is the tiny tower's 9 (transformers
        // itself accepts only 70, 140, 280, 560 or 1120).
        json pre = {{"image_processor_type", "Gemma4ImageProcessor"},
                    {"patch_size", vp.patch},
                    {"max_soft_tokens", vp.soft_tokens},
                    {"pooling_kernel_size", vp.pooling},
                    {"do_resize", true},
                    {"resample", 3},
                    {"do_rescale", true},
                    {"rescale_factor", 1.0 / 255.0},
                    {"do_normalize", false},
                    {"image_mean", {0.0, 0.0, 0.0}},
                    {"image_std", {1.0, 1.0, 1.0}},
                    {"do_convert_rgb", true}};
        if (auto r = write_json(options.out_dir / "preprocessor_config.json", pre); !r)
            return r.error();
    }

    if (!options.tokenizer_json.empty()) {
        std::ifstream in(options.tokenizer_json, std::ios::binary);
        if (!in) return bad_input(options.tokenizer_json.string() + ": cannot read");
        auto r = write_atomically(options.out_dir / "tokenizer.json", [&](std::ofstream& out) {
            out << in.rdbuf();
            return static_cast<bool>(out);
        });
        if (!r) return r.error();
    }
    return summary;
}

}  // namespace engine
