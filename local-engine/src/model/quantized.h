#pragma once
// Quantised checkpoints as they are published, and reading them back as numbers.
//
// What the two layouts are (read from vLLM's ModelOpt and compressed-tensors loaders, its Gemma 4
// weight loader, NVIDIA ModelOpt's NVFP4 export and published checkpoints' config.json; restated
// here in our own words):
//
// NVFP4, NVIDIA ModelOpt (config.json quantization_config: quant_method "modelopt", quant_algo
// "NVFP4", group_size 16, `ignore` (or `exclude_modules` in the older hf_quant_config.json) a list
// of fnmatch patterns of modules left unquantised). Each quantised Linear `<m>` stores
//   <m>.weight          U8       [out, in/2]  two E2M1 values a byte, the even column in the low
//                                             nibble; a nibble is sign (bit 3) and an index
//                                             (bits 0-2) into {0, 0.5, 1, 1.5, 2, 3, 4, 6}
//   <m>.weight_scale    F8_E4M3  [out, in/16] one scale per 16 consecutive values of a row
//   <m>.weight_scale_2  F32      [] or [1]    the tensor's global scale
//   <m>.input_scale     F32      [] or [1]    the activations' global scale (for FP4 activations;
//                                             we keep activations in bf16 and do not need it)
// and a weight is e2m1 * e4m3(block scale) * weight_scale_2.
//
// FP8 dynamic, compressed-tensors (quant_method "compressed-tensors", format "float-quantized",
// config_groups.*.weights {num_bits 8, type float, strategy channel, symmetric, dynamic false},
// input_activations {num_bits 8, type float, strategy token, dynamic true}, `ignore` a list of
// module names or "re:" regexes). Each quantised Linear `<m>` stores
//   <m>.weight          F8_E4M3  [out, in]
//   <m>.weight_scale    F32/BF16 [out, 1]     one scale per output row (channel)
// and a weight is e4m3 * weight_scale; activations are quantised per token at run time (scale
// max|x| / 448), so the checkpoint has no input scale.
//
// E4M3 here is the OCP "fn" variant: bias 7, no infinities, S.1111.111 is NaN, largest 448,
// subnormals m/8 * 2^-6.
//
// Experts: the bf16 DiffusionGemma / Gemma 4 checkpoints fuse every layer's experts into 3-D
// tensors (experts.gate_up_proj [E, 2*moe_inter, hidden], experts.down_proj [E, hidden,
// moe_inter]); quantisers work on Linear modules, so the quantised checkpoints store them per
// expert as experts.<e>.gate_proj / up_proj / down_proj (vLLM's Gemma 4 loader accepts exactly
// these two forms). Exports of transformers' fused experts may also keep them fused and
// quantised in one piece (experts.gate_up_proj U8 [E, 2*moe_inter, hidden/2] with
// experts.gate_up_proj_weight_scale and _weight_scale_2 of [E] or [E, 2], one per gate/up half).
// The loader binds either as the fused logical tensors the model uses, each a stack of parts
// (QuantizedSource). A config.json without quantization_config falls back to ModelOpt's
// hf_quant_config.json.
//
// Which modules are quantised differs by producer: NVIDIA's NVFP4 Gemma 4 checkpoints quantise
// the experts and the dense MLP and keep attention, router, embeddings and the vision tower in
// bf16; FP8 dynamic quantises every decoder Linear but the router and lm_head. The loader does not
// assume either: any linear weight may be stored quantised, the tensors say which.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/result.h"
#include "model/config.h"
#include "model/safetensors.h"

namespace engine::model {

// One linear weight [rows, cols] as stored: quantised (FP8 / NVFP4 with its scales) or plain
// (format BF16: `weight` is an F32/BF16/F16 matrix and has no scales).
struct QuantizedLinear {
    WeightFormat format = WeightFormat::BF16;
    int64_t rows = 0, cols = 0;
    TensorView weight;          // FP8: F8_E4M3 [rows, cols]; NVFP4: U8 [rows, cols/2]
    TensorView weight_scale;    // FP8: float [rows, 1]; NVFP4: F8_E4M3 [rows, cols/16]
    float global_scale = 1.0f;  // NVFP4 weight_scale_2; 1 otherwise
};

// The parts of one logical weight, stacked along its rows (a fused expert tensor is 2*E parts
// for gate_up, E for down; a plain linear is one part).
struct QuantizedSource {
    std::vector<QuantizedLinear> parts;
};

// Parses config.json's quantization_config (its JSON text); `source` names the file in errors.
Result<QuantizationConfig> parse_quantization_config(const std::string& json_text,
                                                     const std::string& source);

// ModelOpt exports also write <dir>/hf_quant_config.json ({"producer": {"name": "modelopt"},
// "quantization": {"quant_algo", "group_size", "exclude_modules"}}); older ones write only that.
// Returns the quantisation it describes, nullopt when the file is absent.
Result<std::optional<QuantizationConfig>> read_hf_quant_config(const std::filesystem::path& dir);

// Finds linear weight `weight_name` ("<module>.weight") of shape [rows, cols] in `tensors`, in
// whichever form the checkpoint stores it, with its scales checked against `q`. Returns nullopt
// when the tensor is absent (the caller names what is missing).
Result<std::optional<QuantizedLinear>> find_linear(const std::map<std::string, TensorView>& tensors,
                                                   const std::string& weight_name, int64_t rows,
                                                   int64_t cols, const QuantizationConfig& q);

// A fused expert tensor `name` [experts, rows, cols] stored quantised in one piece, as some
// exports write transformers' fused experts: `name` U8 [E, rows, cols/2] with
// `<name>_weight_scale` F8_E4M3 [E, rows, cols/16] and `<name>_weight_scale_2` F32 [E], [E, 2]
// (one global scale per half: gate and up) or []; or `name` F8_E4M3 [E, rows, cols] with
// `<name>_weight_scale` [E, rows, 1]. Returns its parts in row order (one or two per expert).
Result<std::vector<QuantizedLinear>> find_fused_experts(
    const std::map<std::string, TensorView>& tensors, const std::string& name, int64_t experts,
    int64_t rows, int64_t cols, const QuantizationConfig& q);

// A logical tensor of `shape` made of `parts` (no data; tensor_to_float reads it).
TensorView quantized_view(std::string name, std::vector<int64_t> shape,
                          std::vector<QuantizedLinear> parts);

// Element decoders and encoders.
float e2m1_to_float(uint8_t nibble);  // low 4 bits used
uint8_t float_to_e2m1(float x);       // nearest of +-{0..6}, ties to the even code; saturates
uint8_t float_to_e4m3(float x);       // nearest, ties to even, saturates at +-448; NaN -> 0x7f

// Dequantises one part into dst[rows * cols].
void dequantize(const QuantizedLinear& part, float* dst);
// Dequantises rows [first_row, first_row + rows) of one part into dst[rows * cols].
void dequantize_rows(const QuantizedLinear& part, int64_t first_row, int64_t rows, float* dst);
// The values of any tensor (plain or quantised) as floats, numel() of them.
void tensor_to_float(const TensorView& t, float* dst);
// Bytes the tensor takes in the checkpoint (packed weights and scales for quantised ones).
uint64_t stored_bytes(const TensorView& t);

}  // namespace engine::model
