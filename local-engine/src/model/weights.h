#pragma once
// The DiffusionGemma weights as the engine needs them: backend-neutral views into the mapped
// safetensors files, named and shaped as in the Hugging Face checkpoint (MODEL-SPEC section 5):
// the backbone once under `model.decoder.`, the encoder's own `layer_scalar` under
// `model.encoder.language_model.layers.N.layer_scalar`, lm_head tied to the embedding.
// A backend converts these into its own layout (the CPU backend reads f32 in place, converts the
// rest; a CUDA backend uploads).

#include <filesystem>
#include <memory>
#include <vector>

#include "engine/result.h"
#include "model/config.h"
#include "model/safetensors.h"

namespace engine::model {

struct LayerWeights {
    // RMSNorm weights [hidden].
    TensorView input_layernorm, post_attention_layernorm;
    TensorView pre_feedforward_layernorm, post_feedforward_layernorm;
    TensorView pre_feedforward_layernorm_2, post_feedforward_layernorm_1,
        post_feedforward_layernorm_2;
    // Attention. q_proj [heads*hd, hidden], k_proj [kv*hd, hidden], v_proj [kv*hd, hidden]
    // (empty on K=V full layers), o_proj [hidden, heads*hd], q_norm/k_norm [hd].
    TensorView q_proj, k_proj, v_proj, o_proj, q_norm, k_norm;
    // Dense MLP: gate/up [inter, hidden], down [hidden, inter].
    TensorView mlp_gate, mlp_up, mlp_down;
    // Router: proj [experts, hidden], scale [hidden], per_expert_scale [experts].
    TensorView router_proj, router_scale, router_per_expert_scale;
    // Experts: gate_up [experts, 2*moe_inter, hidden] (rows 0..moe_inter-1 gate, then up),
    // down [experts, hidden, moe_inter].
    TensorView experts_gate_up, experts_down;
    // layer_scalar [1]: the decoder's (model.decoder.layers.N) and the encoder's
    // (model.encoder.language_model.layers.N) copies, read as floats.
    float decoder_layer_scalar = 1.0f, encoder_layer_scalar = 1.0f;
};

struct SelfConditioningWeights {
    TensorView pre_norm;            // [hidden]
    TensorView gate_proj, up_proj;  // [inter, hidden]
    TensorView down_proj;           // [hidden, inter]
};

// The vision tower (transformers Gemma4VisionModel under model.encoder.vision_tower.) and the
// projector into the text embedding space (model.encoder.embed_vision.). Linear layers are
// Gemma4ClippableLinear modules, so their weights sit under `.linear.weight`.
struct VisionLayerWeights {
    TensorView input_layernorm, post_attention_layernorm;  // [vh]
    TensorView pre_feedforward_layernorm, post_feedforward_layernorm;
    TensorView q_proj, k_proj, v_proj;  // [heads*hd | kv*hd, vh]
    TensorView o_proj;                  // [vh, heads*hd]
    TensorView q_norm, k_norm;          // [hd]
    TensorView mlp_gate, mlp_up;        // [vi, vh]
    TensorView mlp_down;                // [vh, vi]
};

struct VisionWeights {
    TensorView patch_input_proj;    // [vh, 3*patch*patch], input = patch pixels (row, col, rgb)
    TensorView position_embedding;  // [2, position_embedding_size, vh]: x table, y table
    std::vector<VisionLayerWeights> layers;
    TensorView std_bias, std_scale;   // [vh], when vision_config.standardize
    TensorView embedding_projection;  // [text hidden, vh] (embed_vision)
};

struct ModelWeights {
    ModelConfig config;
    std::filesystem::path dir;
    TensorView embed_tokens;  // [vocab, hidden]
    TensorView lm_head;       // == embed_tokens when tied
    TensorView final_norm;    // [hidden]
    SelfConditioningWeights self_conditioning;
    std::vector<LayerWeights> layers;
    VisionWeights vision;         // empty unless config.vision.present
    int64_t parameter_count = 0;  // distinct text parameters (tied tensors once)
};

// Opens <dir>/config.json and the safetensors, and checks every tensor the text model needs:
// present, expected dtype (F32/BF16/F16), shape agreeing with config.json. Errors are one line
// naming the file, the tensor and what was expected.
Result<std::shared_ptr<const ModelWeights>> load_model_weights(const std::filesystem::path& dir);

}  // namespace engine::model
