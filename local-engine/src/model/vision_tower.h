#pragma once
// DiffusionGemma's vision path, written once over ops::VisionOps: the Gemma 4 vision encoder
// (transformers models/gemma4/modeling_gemma4.py Gemma4VisionModel, which
// DiffusionGemmaEncoderModel builds with AutoModel.from_config(vision_config)) and the
// multimodal embedder that projects its soft tokens into the text embedding space
// (DiffusionGemmaMultimodalEmbedder, models/diffusion_gemma/modeling_diffusion_gemma.py).
//
// What it computes, checked against those files (the brief called the tower "SigLIP-style";
// the code it runs is Gemma 4's own encoder, which differs from SigLIP in the ways noted):
//  - input: the processor's patches (vision/image_preprocess.h), values in [0, 1];
//    Gemma4VisionPatchEmbedder maps them to 2 * (x - 0.5) in model code (no mean/std in the
//    processor), then input_proj (Linear 3*patch^2 -> hidden, no bias), plus LEARNED 2-D position
//    embeddings: position_embedding_table[0][x] + position_embedding_table[1][y]
//    (table [2, position_embedding_size, hidden]).
//  - encoder layers (Gemma4VisionEncoderLayer), like the text layers and unlike SigLIP (no
//    LayerNorm, no biases): h = RMSNorm(x) * input_layernorm; attention; x += RMSNorm(o) *
//    post_attention_layernorm; x += RMSNorm(mlp(RMSNorm(x) * pre_feedforward_layernorm)) *
//    post_feedforward_layernorm. RMSNorm is x * (mean(x^2) + eps)^-0.5 * w (Gemma4RMSNorm: w, not
//    1 + w), eps = vision_config.rms_norm_eps.
//  - attention (Gemma4VisionAttention): bidirectional over the image's patches, scale 1.0,
//    q_norm / k_norm (weighted RMSNorm per head), v_norm (weightless), 2-D RoPE
//    (apply_multidimensional_rope): the first head_dim/2 channels rotate by x, the rest by y,
//    each NeoX style, inv_freq[i] = theta^(-2i / (head_dim/2)), theta = rope_theta (default
//    100); GQA groups as repeat_kv. All projections are Gemma4ClippableLinear without bias
//    (use_clipped_linears false: no clamps), weights under `.linear.weight`.
//  - mlp (Gemma4VisionMLP): down(gelu_tanh(gate(h)) * up(h)).
//  - pooler (Gemma4VisionPooler): average of k x k patch blocks (k = pooling_kernel_size; block
//    index x/k + (grid_w/k) * (y/k)), times sqrt(hidden); then, with standardize,
//    (x - std_bias) * std_scale. Soft tokens = (grid_h/k) * (grid_w/k), at most max_soft_tokens
//    (280 on the real model: 27 layers, hidden 1152, 16 heads of 72, intermediate 4304, patch 16,
//    k 3, position table 10240; configuration_gemma4.py / the checkpoint's vision_config).
//  - embed_vision: weightless RMSNorm (vision eps), then embedding_projection (Linear vision
//    hidden -> text hidden, no bias). The result replaces the text embedding at each image-token
//    position as is (masked_scatter into inputs_embeds: no sqrt(hidden) text scale on it).
// Numerics: everything in fp32 (the reference runs the model dtype; on bf16 weights this tower
// is an fp32 evaluation of them).

#include <memory>
#include <vector>

#include "engine/result.h"
#include "model/weights.h"
#include "ops/vision_ops.h"
#include "vision/image_preprocess.h"

namespace engine::model {

class VisionTower {
  public:
    VisionTower(std::shared_ptr<const ModelWeights> weights, std::unique_ptr<ops::VisionOps> ops);

    // The image's soft tokens in the text embedding space: [soft tokens, text hidden] row-major,
    // soft tokens in pooled-grid row-major order. Errors: a patch grid the pooling kernel does not
    // divide, a position past the position table.
    Result<std::vector<float>> embed(const vision::PatchedImage& image) const;

  private:
    void layer(const VisionLayerWeights& w, std::vector<float>& x,
               const vision::PatchedImage& image) const;

    std::shared_ptr<const ModelWeights> weights_;
    std::unique_ptr<ops::VisionOps> ops_;
    std::vector<float> inv_freq_;  // head_dim/4 entries
};

}  // namespace engine::model
