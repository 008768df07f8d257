#pragma once
// The model folder's configuration: config.json (architecture) and generation_config.json
// (sampler defaults), read into plain structs. Backend-neutral; field names follow the Hugging Face
// DiffusionGemma configuration (transformers configuration_diffusion_gemma.py).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/result.h"
#include "engine/tokenizer.h"

namespace engine::model {

enum class LayerType { Sliding, Full };

// RoPE of one layer type (config text_config.rope_parameters[<layer type>]).
struct RopeConfig {
    std::string rope_type = "default";  // "default" or "proportional"
    double theta = 10000.0;             // rope_theta
    double partial_rotary_factor = 1.0;
    double factor = 1.0;  // "factor": divides every inverse frequency (1 when absent)
};

// vision_config: the Gemma 4 vision tower DiffusionGemma reuses (transformers
// configuration_gemma4.py Gemma4VisionConfig; defaults there are Gemma 4 E2B's, so the fields the
// 26B-A4B checkpoint sets are read, not assumed). Absent (null) for a text-only model.
struct VisionConfig {
    bool present = false;
    int hidden_size = 0;
    int intermediate_size = 0;
    int num_layers = 0;
    int num_heads = 0;
    int num_kv_heads = 0;
    int head_dim = 0;
    int patch_size = 16;
    int pooling_kernel_size = 3;
    int position_embedding_size = 10240;
    int default_output_length = 280;  // soft tokens per image at most (max_soft_tokens)
    double rms_norm_eps = 1e-6;
    double rope_theta = 100.0;  // rope_parameters.rope_theta ("default" RoPE only)
    bool standardize = false;   // std_bias / std_scale after the pooler
};

// How a checkpoint stores its linear weights (config.json quantization_config; model/quantized.h
// has the layouts). BF16 stands for every unquantised checkpoint (F32, BF16 or F16 tensors).
enum class WeightFormat { BF16, FP8, NVFP4 };
const char* weight_format_name(WeightFormat format);  // "bf16", "fp8", "nvfp4"

struct QuantizationConfig {
    WeightFormat format = WeightFormat::BF16;
    std::string quant_method;          // "modelopt", "compressed-tensors"; empty when unquantised
    int group_size = 0;                // NVFP4: values per E4M3 block scale (16)
    bool dynamic_activations = false;  // FP8 dynamic: activations quantised per token at run time
    std::vector<std::string> ignore;   // module patterns the producer kept unquantised
};

struct ModelConfig {
    // Top level of config.json.
    std::string model_type;  // "diffusion_gemma"
    std::string name;        // _name_or_path when present
    // Our own key: what the model is and is not for (the demo model's "trained on synthetic data
    // for the shipped policies; not a general model"), shown wherever the model is named.
    std::string description;
    int canvas_length = 256;
    std::vector<TokenId> eos_token_ids;
    bool tie_word_embeddings = true;
    // Image placeholders (DiffusionGemmaConfig defaults; the chat template wraps each image's
    // soft tokens as boi, image x N, eoi).
    TokenId boi_token_id = 255999, image_token_id = 258880, eoi_token_id = 258882;
    VisionConfig vision;
    QuantizationConfig quantization;  // quantization_config; format BF16 when absent

    // text_config.
    int vocab_size = 0;
    int hidden_size = 0;
    int num_layers = 0;
    int num_heads = 0;
    int num_kv_heads = 0;  // sliding layers
    int num_global_kv_heads =
        0;                    // full layers (num_global_key_value_heads; falls back to kv heads)
    int head_dim = 0;         // sliding layers
    int global_head_dim = 0;  // full layers
    std::vector<LayerType> layer_types;
    int sliding_window = 0;
    int intermediate_size = 0;  // dense MLP and self-conditioning MLP
    int num_experts = 0;
    int top_k_experts = 0;
    int moe_intermediate_size = 0;
    double rms_norm_eps = 1e-6;
    double final_logit_softcapping = 30.0;  // 0: no soft-cap
    bool attention_k_eq_v = true;           // full layers have no v_proj: V is the raw K projection
    bool attention_bias = false;
    int max_position_embeddings = 0;
    std::string hidden_activation = "gelu_pytorch_tanh";
    TokenId pad_token_id = 0, bos_token_id = 2;
    RopeConfig rope_sliding, rope_full;

    // Derived helpers.
    bool is_full(int layer) const { return layer_types[layer] == LayerType::Full; }
    int layer_head_dim(int layer) const { return is_full(layer) ? global_head_dim : head_dim; }
    int layer_kv_heads(int layer) const {
        return is_full(layer) ? num_global_kv_heads : num_kv_heads;
    }
    // Whether the layer computes V with its own projection (sliding layers, or full layers when
    // attention_k_eq_v is false).
    bool layer_has_v_proj(int layer) const { return !is_full(layer) || !attention_k_eq_v; }
    const RopeConfig& layer_rope(int layer) const {
        return is_full(layer) ? rope_full : rope_sliding;
    }
    // The RoPE inverse frequencies of a layer, head_dim/2 entries (zeros past the rotated part),
    // exactly as transformers builds them ("default": theta^(-2i/d); "proportional":
    // theta^(-2i/global_head_dim) for i < int(factor*global_head_dim//2), then 0).
    std::vector<float> inv_freq(int layer) const;
};

// generation_config.json (DiffusionGemmaGenerationConfig); defaults are the class defaults.
struct GenerationDefaults {
    int max_new_tokens = 256;
    int max_denoising_steps = 48;
    double entropy_bound = 0.1;  // sampler_config.entropy_bound
    double t_min = 0.4, t_max = 0.8;
    int stability_threshold = 1;
    double confidence_threshold = 0.005;
    std::vector<TokenId> eos_token_ids;  // empty: the model config's
    TokenId pad_token_id = 0;
};

// Reads and validates <dir>/config.json. Errors name the file and the field.
Result<ModelConfig> load_config(const std::filesystem::path& config_json);
// Parses config.json text (the same checks); `source` names the file in messages.
Result<ModelConfig> parse_config(const std::string& text, const std::string& source);
// Reads <dir>/generation_config.json; a missing file gives the defaults.
Result<GenerationDefaults> load_generation_config(const std::filesystem::path& path);

}  // namespace engine::model
