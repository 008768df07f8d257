#include "cuda/device_weights.h"

#include "model/quantized.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace engine::cuda {
namespace {

// Carves the arena: the same walk sizes it (base == nullptr) and assigns pointers into it.
class Carver {
  public:
    explicit Carver(char* base) : base_(base) {}
    template <class T>
    T* take(uint64_t count, uint64_t* counter = nullptr) {
        offset_ = (offset_ + 255) & ~uint64_t{255};
        T* p = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
        offset_ += count * sizeof(T);
        if (counter) *counter += count * sizeof(T);
        return p;
    }
    uint64_t size() const { return offset_; }

  private:
    char* base_;
    uint64_t offset_ = 0;
};

void carve(const model::ModelConfig& c, bool separate_lm_head, Carver& k, DeviceWeights& w) {
    const uint64_t H = static_cast<uint64_t>(c.hidden_size);
    const uint64_t V = static_cast<uint64_t>(c.vocab_size);
    const uint64_t I = static_cast<uint64_t>(c.intermediate_size);
    const uint64_t E = static_cast<uint64_t>(c.num_experts);
    const uint64_t MI = static_cast<uint64_t>(c.moe_intermediate_size);
    const uint64_t NH = static_cast<uint64_t>(c.num_heads);
    uint64_t* mb = &w.matrix_bytes;
    w.matrix_bytes = 0;
    w.embed = k.take<bf16_t>(V * H, mb);
    w.lm_head = separate_lm_head ? k.take<bf16_t>(V * H, mb) : w.embed;
    w.final_norm = k.take<float>(H);
    w.sc_pre_norm = k.take<float>(H);
    w.sc_gate_up = k.take<bf16_t>(2 * I * H, mb);
    w.sc_down = k.take<bf16_t>(H * I, mb);
    w.layers.assign(static_cast<size_t>(c.num_layers), DeviceLayer{});
    for (int l = 0; l < c.num_layers; ++l) {
        DeviceLayer& L = w.layers[static_cast<size_t>(l)];
        L.full = c.is_full(l);
        L.kv_heads = c.layer_kv_heads(l);
        L.head_dim = c.layer_head_dim(l);
        L.has_v = c.layer_has_v_proj(l);
        const uint64_t D = static_cast<uint64_t>(L.head_dim),
                       KV = static_cast<uint64_t>(L.kv_heads);
        L.qkv_rows = static_cast<int>((NH + KV * (L.has_v ? 2 : 1)) * D);
        L.qkv = k.take<bf16_t>(static_cast<uint64_t>(L.qkv_rows) * H, mb);
        L.o = k.take<bf16_t>(H * NH * D, mb);
        L.q_norm = k.take<float>(D);
        L.k_norm = k.take<float>(D);
        L.inv_freq = k.take<float>(D / 2);
        L.input_norm = k.take<float>(H);
        L.post_attn_norm = k.take<float>(H);
        L.pre_ff = k.take<float>(H);
        L.post_ff = k.take<float>(H);
        L.pre_ff2 = k.take<float>(H);
        L.post_ff1 = k.take<float>(H);
        L.post_ff2 = k.take<float>(H);
        L.mlp_gate_up = k.take<bf16_t>(2 * I * H, mb);
        L.mlp_down = k.take<bf16_t>(H * I, mb);
        L.router = k.take<bf16_t>(E * H, mb);
        L.router_scale = k.take<float>(H);
        L.per_expert_scale = k.take<float>(E);
        L.experts_gate_up = k.take<bf16_t>(E * 2 * MI * H, mb);
        L.experts_down = k.take<bf16_t>(E * H * MI, mb);
    }
}

SourceType source_type(model::DType d) {
    switch (d) {
        case model::DType::F32:
            return SourceType::F32;
        case model::DType::F16:
            return SourceType::F16;
        case model::DType::BF16:
        case model::DType::F8_E4M3:  // quantised weights reach the device dequantised to f32
        case model::DType::U8:
            break;
    }
    return SourceType::BF16;
}

// Copies one tensor into bf16 device memory at `dst`, converting through a staging buffer.
class Uploader {
  public:
    explicit Uploader(cudaStream_t stream) : stream_(stream) {}

    Result<void> matrix(const model::TensorView& t, bf16_t* dst) {
        if (t.empty()) return engine_error("CUDA backend: tensor " + t.name + " has no data");
        if (t.quantized) return quantized_matrix(t, dst);
        if (t.dtype == model::DType::BF16) {
            DS_CUDA_TRY(cudaMemcpy(dst, t.data, t.nbytes, cudaMemcpyHostToDevice));
            return {};
        }
        if (staging_.size() == 0) DS_TRY(staging_.allocate(kStagingBytes, "weight staging"));
        const size_t elem = model::dtype_size(t.dtype);
        const size_t per_chunk = kStagingBytes / elem;
        const size_t n = static_cast<size_t>(t.numel());
        for (size_t done = 0; done < n; done += per_chunk) {
            const size_t count = n - done < per_chunk ? n - done : per_chunk;
            DS_CUDA_TRY(cudaMemcpy(staging_.get(), t.data + done * elem, count * elem,
                                   cudaMemcpyHostToDevice));
            convert_to_bf16(source_type(t.dtype), staging_.get(), count, dst + done, stream_);
            DS_CUDA_TRY(cudaStreamSynchronize(stream_));  // the staging buffer is reused
        }
        return {};
    }

    Result<void> vector(const model::TensorView& t, float* dst) {
        if (t.empty()) return engine_error("CUDA backend: tensor " + t.name + " has no data");
        std::vector<float> host(static_cast<size_t>(t.numel()));
        model::to_float(t.dtype, t.data, host.size(), host.data());
        DS_CUDA_TRY(
            cudaMemcpy(dst, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
        return {};
    }

  private:
    // A quantised checkpoint's weight, part by part: dequantised on the host to f32, then
    // converted to bf16 on the device. The forward pass still multiplies bf16 matrices; the
    // packed-weight GEMMs (quantized_gemm.cu) are not wired into it yet.
    Result<void> quantized_matrix(const model::TensorView& t, bf16_t* dst) {
        if (staging_.size() == 0) DS_TRY(staging_.allocate(kStagingBytes, "weight staging"));
        std::vector<float> host;
        for (const model::QuantizedLinear& p : t.quantized->parts) {
            // As many rows at a time as the staging buffer holds in f32.
            const int64_t chunk =
                std::max<int64_t>(1, static_cast<int64_t>(kStagingBytes / sizeof(float)) / p.cols);
            for (int64_t r = 0; r < p.rows; r += chunk) {
                const int64_t rows = std::min(chunk, p.rows - r);
                const size_t n = static_cast<size_t>(rows * p.cols);
                host.resize(n);
                model::dequantize_rows(p, r, rows, host.data());
                DS_CUDA_TRY(cudaMemcpy(staging_.get(), host.data(), n * sizeof(float),
                                       cudaMemcpyHostToDevice));
                convert_to_bf16(SourceType::F32, staging_.get(), n, dst, stream_);
                DS_CUDA_TRY(cudaStreamSynchronize(stream_));
                dst += n;
            }
        }
        return {};
    }

    static constexpr size_t kStagingBytes = size_t{64} << 20;
    cudaStream_t stream_;
    DeviceBuffer staging_;
};

Result<void> upload_inv_freq(const model::ModelConfig& c, DeviceWeights& w) {
    for (int l = 0; l < c.num_layers; ++l) {
        const std::vector<float> f = c.inv_freq(l);
        DS_CUDA_TRY(cudaMemcpy(w.layers[static_cast<size_t>(l)].inv_freq, f.data(),
                               f.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
    return {};
}

}  // namespace

uint64_t device_weight_bytes(const model::ModelConfig& config, bool separate_lm_head) {
    Carver k(nullptr);
    DeviceWeights w;
    carve(config, separate_lm_head, k, w);
    return k.size();
}

Result<void> upload_weights(const model::ModelWeights& mw, cudaStream_t stream, DeviceWeights& w) {
    const model::ModelConfig& c = mw.config;
    const bool separate_head = !mw.lm_head.empty() && mw.lm_head.data != mw.embed_tokens.data;
    Carver sizing(nullptr);
    carve(c, separate_head, sizing, w);
    DS_TRY(w.arena.allocate(sizing.size(), "the model weights"));
    Carver k(w.arena.as<char>());
    carve(c, separate_head, k, w);

    Uploader up(stream);
    const uint64_t H = static_cast<uint64_t>(c.hidden_size);
    const uint64_t I = static_cast<uint64_t>(c.intermediate_size);
    DS_TRY(up.matrix(mw.embed_tokens, w.embed));
    if (separate_head) DS_TRY(up.matrix(mw.lm_head, w.lm_head));
    DS_TRY(up.vector(mw.final_norm, w.final_norm));
    DS_TRY(up.vector(mw.self_conditioning.pre_norm, w.sc_pre_norm));
    DS_TRY(up.matrix(mw.self_conditioning.gate_proj, w.sc_gate_up));
    DS_TRY(up.matrix(mw.self_conditioning.up_proj, w.sc_gate_up + I * H));
    DS_TRY(up.matrix(mw.self_conditioning.down_proj, w.sc_down));
    for (int l = 0; l < c.num_layers; ++l) {
        const model::LayerWeights& S = mw.layers[static_cast<size_t>(l)];
        DeviceLayer& L = w.layers[static_cast<size_t>(l)];
        const uint64_t D = static_cast<uint64_t>(L.head_dim);
        const uint64_t q_rows = static_cast<uint64_t>(c.num_heads) * D;
        const uint64_t kv_rows = static_cast<uint64_t>(L.kv_heads) * D;
        DS_TRY(up.matrix(S.q_proj, L.qkv));
        DS_TRY(up.matrix(S.k_proj, L.qkv + q_rows * H));
        if (L.has_v) DS_TRY(up.matrix(S.v_proj, L.qkv + (q_rows + kv_rows) * H));
        DS_TRY(up.matrix(S.o_proj, L.o));
        DS_TRY(up.vector(S.q_norm, L.q_norm));
        DS_TRY(up.vector(S.k_norm, L.k_norm));
        DS_TRY(up.vector(S.input_layernorm, L.input_norm));
        DS_TRY(up.vector(S.post_attention_layernorm, L.post_attn_norm));
        DS_TRY(up.vector(S.pre_feedforward_layernorm, L.pre_ff));
        DS_TRY(up.vector(S.post_feedforward_layernorm, L.post_ff));
        DS_TRY(up.vector(S.pre_feedforward_layernorm_2, L.pre_ff2));
        DS_TRY(up.vector(S.post_feedforward_layernorm_1, L.post_ff1));
        DS_TRY(up.vector(S.post_feedforward_layernorm_2, L.post_ff2));
        DS_TRY(up.matrix(S.mlp_gate, L.mlp_gate_up));
        DS_TRY(up.matrix(S.mlp_up, L.mlp_gate_up + I * H));
        DS_TRY(up.matrix(S.mlp_down, L.mlp_down));
        DS_TRY(up.matrix(S.router_proj, L.router));
        DS_TRY(up.vector(S.router_scale, L.router_scale));
        DS_TRY(up.vector(S.router_per_expert_scale, L.per_expert_scale));
        DS_TRY(up.matrix(S.experts_gate_up, L.experts_gate_up));
        DS_TRY(up.matrix(S.experts_down, L.experts_down));
        L.encoder_scalar = S.encoder_layer_scalar;
        L.decoder_scalar = S.decoder_layer_scalar;
    }
    DS_TRY(upload_inv_freq(c, w));
    DS_CUDA_TRY(cudaStreamSynchronize(stream));
    return {};
}

Result<void> synthesize_weights(const model::ModelConfig& c, uint64_t seed, cudaStream_t stream,
                                DeviceWeights& w) {
    Carver sizing(nullptr);
    carve(c, false, sizing, w);
    DS_TRY(w.arena.allocate(sizing.size(), "the synthetic model weights"));
    Carver k(w.arena.as<char>());
    carve(c, false, k, w);

    uint64_t next_seed = seed;
    // Linear weights uniform in +-1/sqrt(fan_in): activations keep their scale layer to layer.
    auto matrix = [&](bf16_t* p, uint64_t rows, uint64_t cols) {
        fill_random_bf16(p, rows * cols, ++next_seed * 0x100000001B3ull,
                         1.0f / std::sqrt(static_cast<float>(cols)), 0.0f, stream);
    };
    auto ones = [&](float* p, uint64_t n) { fill_random_f32(p, n, 0, 0.0f, 1.0f, stream); };
    const uint64_t H = static_cast<uint64_t>(c.hidden_size);
    const uint64_t I = static_cast<uint64_t>(c.intermediate_size);
    const uint64_t E = static_cast<uint64_t>(c.num_experts);
    const uint64_t MI = static_cast<uint64_t>(c.moe_intermediate_size);
    const uint64_t NH = static_cast<uint64_t>(c.num_heads);
    fill_random_bf16(w.embed, static_cast<uint64_t>(c.vocab_size) * H, ++next_seed, 0.03f, 0.0f,
                     stream);
    ones(w.final_norm, H);
    ones(w.sc_pre_norm, H);
    matrix(w.sc_gate_up, 2 * I, H);
    matrix(w.sc_down, H, I);
    for (DeviceLayer& L : w.layers) {
        const uint64_t D = static_cast<uint64_t>(L.head_dim);
        matrix(L.qkv, static_cast<uint64_t>(L.qkv_rows), H);
        matrix(L.o, H, NH * D);
        ones(L.q_norm, D);
        ones(L.k_norm, D);
        for (float* n : {L.input_norm, L.post_attn_norm, L.pre_ff, L.post_ff, L.pre_ff2, L.post_ff1,
                         L.post_ff2, L.router_scale})
            ones(n, H);
        matrix(L.mlp_gate_up, 2 * I, H);
        matrix(L.mlp_down, H, I);
        matrix(L.router, E, H);
        ones(L.per_expert_scale, E);
        matrix(L.experts_gate_up, E * 2 * MI, H);
        matrix(L.experts_down, E * H, MI);
    }
    DS_TRY(upload_inv_freq(c, w));
    DS_CUDA_TRY(cudaGetLastError());
    DS_CUDA_TRY(cudaStreamSynchronize(stream));
    return {};
}

}  // namespace engine::cuda
