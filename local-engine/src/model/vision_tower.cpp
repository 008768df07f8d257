// The vision tower and projector over ops::VisionOps (see vision_tower.h for the facts and
// their sources).

#include "model/vision_tower.h"

#include <cmath>
#include <string>

namespace engine::model {

VisionTower::VisionTower(std::shared_ptr<const ModelWeights> weights,
                         std::unique_ptr<ops::VisionOps> ops)
    : weights_(std::move(weights)), ops_(std::move(ops)) {
    const VisionConfig& v = weights_->config.vision;
    // compute_default_rope_parameters of Gemma4VisionRotaryEmbedding: the frequencies of one
    // spatial half (head_dim / 2 channels), in float32 as torch builds them.
    const int spatial = v.head_dim / 2;
    for (int i = 0; i < spatial / 2; ++i) {
        const float exponent = static_cast<float>(2 * i) / static_cast<float>(spatial);
        inv_freq_.push_back(
            static_cast<float>(1.0 / std::pow(v.rope_theta, static_cast<double>(exponent))));
    }
}

void VisionTower::layer(const VisionLayerWeights& w, std::vector<float>& x,
                        const vision::PatchedImage& image) const {
    const VisionConfig& v = weights_->config.vision;
    const int64_t N = image.patches(), H = v.hidden_size, hd = v.head_dim;
    const double eps = v.rms_norm_eps;
    const size_t nq = static_cast<size_t>(N * v.num_heads * hd);
    const size_t nkv = static_cast<size_t>(N * v.num_kv_heads * hd);
    std::vector<float> h(x.size()), q(nq), k(nkv), val(nkv), attn(nq), o(x.size());

    ops_->rmsnorm(x, H, &w.input_layernorm, eps, h);
    ops_->linear(w.q_proj, h, N, q);
    ops_->linear(w.k_proj, h, N, k);
    ops_->linear(w.v_proj, h, N, val);
    ops_->rmsnorm(q, hd, &w.q_norm, eps, q);
    ops_->rmsnorm(k, hd, &w.k_norm, eps, k);
    ops_->rmsnorm(val, hd, nullptr, eps, val);
    ops_->rope_2d(q, N, v.num_heads, v.head_dim, image.pos_x, image.pos_y, inv_freq_);
    ops_->rope_2d(k, N, v.num_kv_heads, v.head_dim, image.pos_x, image.pos_y, inv_freq_);
    ops_->attention(q, k, val, N, v.num_heads, v.num_kv_heads, v.head_dim, attn);
    ops_->linear(w.o_proj, attn, N, o);
    ops_->rmsnorm(o, H, &w.post_attention_layernorm, eps, o);
    for (size_t i = 0; i < x.size(); ++i) x[i] += o[i];

    const size_t ni = static_cast<size_t>(N * v.intermediate_size);
    std::vector<float> gate(ni), up(ni);
    ops_->rmsnorm(x, H, &w.pre_feedforward_layernorm, eps, h);
    ops_->linear(w.mlp_gate, h, N, gate);
    ops_->linear(w.mlp_up, h, N, up);
    ops_->gelu_mul(gate, up);
    ops_->linear(w.mlp_down, gate, N, o);
    ops_->rmsnorm(o, H, &w.post_feedforward_layernorm, eps, o);
    for (size_t i = 0; i < x.size(); ++i) x[i] += o[i];
}

Result<std::vector<float>> VisionTower::embed(const vision::PatchedImage& image) const {
    const ModelConfig& c = weights_->config;
    const VisionConfig& v = c.vision;
    const VisionWeights& w = weights_->vision;
    const int k = v.pooling_kernel_size;
    const int64_t N = image.patches(), H = v.hidden_size;
    if (N == 0 || image.patches_w % k != 0 || image.patches_h % k != 0)
        return bad_input("image patch grid " + std::to_string(image.patches_w) + "x" +
                         std::to_string(image.patches_h) +
                         " is not a multiple of the pooling kernel " + std::to_string(k));
    if (image.patches_w > v.position_embedding_size || image.patches_h > v.position_embedding_size)
        return bad_input("image patch grid " + std::to_string(image.patches_w) + "x" +
                         std::to_string(image.patches_h) + " exceeds the position table of " +
                         std::to_string(v.position_embedding_size));
    if (image.patch_size != v.patch_size)
        return bad_input("image patches of " + std::to_string(image.patch_size) +
                         " pixels; the vision tower takes " + std::to_string(v.patch_size));

    // Patch embedding: input_proj(2 * (pixels - 0.5)) + table[0][x] + table[1][y].
    std::vector<float> pixels(image.pixels.size());
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = 2.0f * (image.pixels[i] - 0.5f);
    std::vector<float> x(static_cast<size_t>(N * H));
    ops_->linear(w.patch_input_proj, pixels, N, x);
    std::vector<float> row(static_cast<size_t>(H));
    const size_t table_row_bytes =
        w.position_embedding.nbytes / static_cast<size_t>(2 * v.position_embedding_size);
    for (int64_t t = 0; t < N; ++t)
        for (int axis = 0; axis < 2; ++axis) {
            const int pos = axis == 0 ? image.pos_x[static_cast<size_t>(t)]
                                      : image.pos_y[static_cast<size_t>(t)];
            const size_t index = static_cast<size_t>(axis) * v.position_embedding_size + pos;
            to_float(w.position_embedding.dtype,
                     w.position_embedding.data + index * table_row_bytes, row.size(), row.data());
            for (int64_t d = 0; d < H; ++d)
                x[static_cast<size_t>(t * H + d)] += row[static_cast<size_t>(d)];
        }

    for (const VisionLayerWeights& L : w.layers) layer(L, x, image);

    // Pooler: mean over k x k blocks (the reference sums x / k^2), then * sqrt(hidden).
    const int gw = image.patches_w / k, gh = image.patches_h / k;
    const int64_t S = static_cast<int64_t>(gw) * gh;
    std::vector<float> pooled(static_cast<size_t>(S * H), 0.0f);
    const float inv_k2 = 1.0f / static_cast<float>(k * k);
    for (int64_t t = 0; t < N; ++t) {
        const int64_t s = image.pos_x[static_cast<size_t>(t)] / k +
                          static_cast<int64_t>(gw) * (image.pos_y[static_cast<size_t>(t)] / k);
        for (int64_t d = 0; d < H; ++d)
            pooled[static_cast<size_t>(s * H + d)] += x[static_cast<size_t>(t * H + d)] * inv_k2;
    }
    const float root = static_cast<float>(std::sqrt(static_cast<double>(H)));
    std::vector<float> bias(static_cast<size_t>(H), 0.0f), scale(static_cast<size_t>(H), 1.0f);
    if (v.standardize) {
        to_float(w.std_bias.dtype, w.std_bias.data, bias.size(), bias.data());
        to_float(w.std_scale.dtype, w.std_scale.data, scale.size(), scale.data());
    }
    for (int64_t s = 0; s < S; ++s)
        for (int64_t d = 0; d < H; ++d) {
            float& p = pooled[static_cast<size_t>(s * H + d)];
            p *= root;
            if (v.standardize)
                p = (p - bias[static_cast<size_t>(d)]) * scale[static_cast<size_t>(d)];
        }

    // embed_vision: weightless RMSNorm, then the projection into the text embedding space.
    ops_->rmsnorm(pooled, H, nullptr, v.rms_norm_eps, pooled);
    std::vector<float> out(static_cast<size_t>(S * c.hidden_size));
    ops_->linear(w.embedding_projection, pooled, S, out);
    if (auto status = ops_->take_status(); !status) return status.error();
    return out;
}

}  // namespace engine::model
