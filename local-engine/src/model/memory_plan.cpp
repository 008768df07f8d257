// Memory plans per weight format (see memory_plan.h).

#include "model/memory_plan.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace engine::model {
namespace {

// Adds one linear weight [rows, cols] in `format` (BF16: unquantised).
void add_linear(CheckpointBytes& b, WeightFormat format, uint64_t rows, uint64_t cols) {
    switch (format) {
        case WeightFormat::BF16:
            b.plain += rows * cols * 2;
            return;
        case WeightFormat::FP8:  // E4M3 values, one bf16 scale per row
            b.quantized += rows * cols + rows * 2;
            return;
        case WeightFormat::NVFP4:  // two values a byte, an E4M3 scale per 16, two F32 scalars
            b.quantized += rows * cols / 2 + rows * cols / 16 + 8;
            return;
    }
}

uint64_t vision_parameters(const VisionConfig& v, uint64_t text_hidden) {
    if (!v.present) return 0;
    const uint64_t VH = static_cast<uint64_t>(v.hidden_size);
    const uint64_t VI = static_cast<uint64_t>(v.intermediate_size);
    const uint64_t hd = static_cast<uint64_t>(v.head_dim);
    const uint64_t heads = static_cast<uint64_t>(v.num_heads);
    const uint64_t kv = static_cast<uint64_t>(v.num_kv_heads);
    const uint64_t P = static_cast<uint64_t>(v.patch_size);
    uint64_t per_layer = 2 * heads * hd * VH + 2 * kv * hd * VH + 3 * VI * VH + 4 * VH + 2 * hd;
    uint64_t n = static_cast<uint64_t>(v.num_layers) * per_layer;
    n += VH * 3 * P * P + 2 * static_cast<uint64_t>(v.position_embedding_size) * VH;
    if (v.standardize) n += 2 * VH;
    return n + text_hidden * VH;
}

}  // namespace

CheckpointBytes checkpoint_bytes(const ModelConfig& c, WeightFormat format) {
    const uint64_t H = static_cast<uint64_t>(c.hidden_size),
                   V = static_cast<uint64_t>(c.vocab_size);
    const uint64_t I = static_cast<uint64_t>(c.intermediate_size);
    const uint64_t E = static_cast<uint64_t>(c.num_experts);
    const uint64_t MI = static_cast<uint64_t>(c.moe_intermediate_size);
    const uint64_t NH = static_cast<uint64_t>(c.num_heads);
    // NVFP4 quantises the experts only; FP8 every decoder Linear but the router.
    const WeightFormat experts = format;
    const WeightFormat dense = format == WeightFormat::FP8 ? format : WeightFormat::BF16;
    CheckpointBytes b;
    b.plain += V * H * 2 * (c.tie_word_embeddings ? 1 : 2);
    b.plain += 2 * H * 2;  // final norm, self-conditioning pre-norm
    add_linear(b, dense, I, H);
    add_linear(b, dense, I, H);
    add_linear(b, dense, H, I);
    for (int l = 0; l < c.num_layers; ++l) {
        const uint64_t hd = static_cast<uint64_t>(c.layer_head_dim(l));
        const uint64_t kv = static_cast<uint64_t>(c.layer_kv_heads(l));
        add_linear(b, dense, NH * hd, H);
        add_linear(b, dense, kv * hd, H);
        if (c.layer_has_v_proj(l)) add_linear(b, dense, kv * hd, H);
        add_linear(b, dense, H, NH * hd);
        add_linear(b, dense, I, H);
        add_linear(b, dense, I, H);
        add_linear(b, dense, H, I);
        add_linear(b, WeightFormat::BF16, E, H);  // router
        for (uint64_t e = 0; e < E; ++e) {
            add_linear(b, experts, MI, H);
            add_linear(b, experts, MI, H);
            add_linear(b, experts, H, MI);
        }
        b.plain += (7 * H + 2 * hd + H + E + 2) * 2;  // norms, router scales, layer scalars
    }
    b.plain += vision_parameters(c.vision, H) * 2;
    return b;
}

uint64_t checkpoint_parameters(const ModelConfig& c) {
    return checkpoint_bytes(c, WeightFormat::BF16).total() / 2;
}

std::string format_gb(uint64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(bytes) / 1e9);
    return buf;
}

std::string MemoryPlan::describe() const {
    std::ostringstream s;
    s << weight_format_name(format) << " checkpoint " << format_gb(checkpoint) << ", held as "
      << held_as << " " << format_gb(weights) << " + KV cache of " << cache_tokens << " tokens "
      << format_gb(kv_cache) << " + workspace " << format_gb(workspace) << " = "
      << format_gb(total()) << " of " << where;
    return s.str();
}

MemoryPlan plan_cpu_memory(const ModelConfig& c, int cache_tokens, bool native) {
    MemoryPlan p;
    p.where = "host memory";
    p.format = c.quantization.format;
    p.checkpoint = checkpoint_bytes(c, p.format).total();
    if (native) {
        const uint64_t vision = vision_parameters(c.vision, static_cast<uint64_t>(c.hidden_size));
        p.weights = p.checkpoint + vision * 2;  // the vision tower's bf16 bytes, then as f32
        p.held_as = std::string(weight_format_name(p.format)) + " as published (mapped)";
    } else {
        p.weights = checkpoint_parameters(c) * 4;
        p.held_as = p.format == WeightFormat::BF16 ? "f32" : "f32 (dequantised)";
    }
    p.cache_tokens = cache_tokens;
    const uint64_t T = static_cast<uint64_t>(cache_tokens);
    for (int l = 0; l < c.num_layers; ++l)
        p.kv_cache += 2 * T * static_cast<uint64_t>(c.layer_kv_heads(l)) *
                      static_cast<uint64_t>(c.layer_head_dim(l)) * 4;
    // One pass over the cached tokens (f32 rows, q/k/v, the expert rows) and one canvas's logits.
    const uint64_t H = static_cast<uint64_t>(c.hidden_size);
    const uint64_t I = static_cast<uint64_t>(c.intermediate_size);
    p.workspace = T * (8 * H + 3 * I) * 4 +
                  static_cast<uint64_t>(c.canvas_length) * static_cast<uint64_t>(c.vocab_size) * 4;
    return p;
}

Result<void> check_memory(const MemoryPlan& plan, uint64_t available, const std::string& model) {
    if (available == 0 || plan.total() <= available) return {};
    return bad_input(model + ": the model does not fit: " + plan.describe() + ", but " +
                     format_gb(available) + " is available (use a smaller weight format, fewer " +
                     "context tokens or a machine with more memory)");
}

uint64_t available_host_memory() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string key;
        uint64_t kib = 0;
        if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
    }
    return 0;
}

}  // namespace engine::model
