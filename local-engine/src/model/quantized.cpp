// Quantised checkpoints: quantization_config, binding and dequantising (see quantized.h for the
// layouts).

#include "model/quantized.h"

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace engine::model {
namespace {

using nlohmann::json;

constexpr std::array<float, 8> kE2M1 = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

std::string shape_str(const std::vector<int64_t>& s) {
    std::string r = "[";
    for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
    return r + "]";
}

std::vector<std::string> read_ignore(const json& o) {
    std::vector<std::string> out;
    for (const char* key : {"ignore", "exclude_modules"}) {
        if (!o.contains(key) || !o[key].is_array()) continue;
        for (const auto& v : o[key])
            if (v.is_string()) out.push_back(v.get<std::string>());
        break;
    }
    return out;
}

Result<QuantizationConfig> parse_modelopt(const json& o, const std::string& where) {
    // config.json carries the fields flat; hf_quant_config.json nests them under "quantization".
    const json& body =
        o.contains("quantization") && o["quantization"].is_object() ? o["quantization"] : o;
    const std::string algo = body.contains("quant_algo") && body["quant_algo"].is_string()
                                 ? body["quant_algo"].get<std::string>()
                                 : "";
    if (algo != "NVFP4")
        return bad_input(where + ".quant_algo is \"" + algo +
                         "\" (expected \"NVFP4\" for quant_method modelopt; FP8 checkpoints are "
                         "read in the compressed-tensors layout)");
    QuantizationConfig q;
    q.format = WeightFormat::NVFP4;
    q.quant_method = "modelopt";
    q.group_size = 16;
    if (body.contains("group_size") && !body["group_size"].is_null()) {
        if (!body["group_size"].is_number_integer() || body["group_size"].get<int64_t>() != 16)
            return bad_input(where + ".group_size is " + body["group_size"].dump() +
                             " (expected 16: NVFP4 has one E4M3 scale per 16 values)");
    }
    q.ignore = read_ignore(body);
    return q;
}

Result<QuantizationConfig> parse_compressed_tensors(const json& o, const std::string& where) {
    const std::string format =
        o.contains("format") && o["format"].is_string() ? o["format"].get<std::string>() : "";
    if (format != "float-quantized")
        return bad_input(where + ".format is \"" + format +
                         "\" (expected \"float-quantized\": FP8 E4M3 weights with per-channel "
                         "scales)");
    if (!o.contains("config_groups") || !o["config_groups"].is_object() ||
        o["config_groups"].empty())
        return bad_input(where + ".config_groups is missing (expected an object of groups)");
    QuantizationConfig q;
    q.format = WeightFormat::FP8;
    q.quant_method = "compressed-tensors";
    for (auto it = o["config_groups"].begin(); it != o["config_groups"].end(); ++it) {
        const std::string g = where + ".config_groups." + it.key();
        const json& grp = it.value();
        if (!grp.is_object() || !grp.contains("weights") || !grp["weights"].is_object())
            return bad_input(g + ".weights is missing (expected an object)");
        const json& w = grp["weights"];
        const bool fp8 = w.value("num_bits", 0) == 8 && w.value("type", std::string()) == "float";
        const std::string strategy = w.value("strategy", std::string());
        if (!fp8 || strategy != "channel")
            return bad_input(g + ".weights is " + w.dump() +
                             " (expected num_bits 8, type float, strategy channel: FP8 E4M3 "
                             "weights with per-channel scales)");
        if (grp.contains("input_activations") && grp["input_activations"].is_object()) {
            const json& a = grp["input_activations"];
            if (!a.value("dynamic", false) || a.value("num_bits", 0) != 8 ||
                a.value("type", std::string()) != "float")
                return bad_input(g + ".input_activations is " + a.dump() +
                                 " (expected num_bits 8, type float, dynamic true: activations "
                                 "quantised per token at run time)");
            q.dynamic_activations = true;
        }
    }
    q.ignore = read_ignore(o);
    return q;
}

}  // namespace

const char* weight_format_name(WeightFormat format) {
    switch (format) {
        case WeightFormat::BF16:
            return "bf16";
        case WeightFormat::FP8:
            return "fp8";
        case WeightFormat::NVFP4:
            return "nvfp4";
    }
    return "?";
}

Result<QuantizationConfig> parse_quantization_config(const std::string& json_text,
                                                     const std::string& source) {
    const std::string where = source + ": field quantization_config";
    json o;
    try {
        o = json::parse(json_text);
    } catch (const json::exception& e) {
        return bad_input(where + " is not valid JSON (" + e.what() + ")");
    }
    if (!o.is_object()) return bad_input(where + " must be an object");
    const std::string method = o.contains("quant_method") && o["quant_method"].is_string()
                                   ? o["quant_method"].get<std::string>()
                                   : "";
    if (method == "modelopt") return parse_modelopt(o, where);
    if (method == "compressed-tensors") return parse_compressed_tensors(o, where);
    return bad_input(where + ".quant_method is \"" + method +
                     "\" (expected \"modelopt\" (NVFP4) or \"compressed-tensors\" (FP8 dynamic))");
}

Result<std::optional<QuantizationConfig>> read_hf_quant_config(const std::filesystem::path& dir) {
    const auto path = dir / "hf_quant_config.json";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::optional<QuantizationConfig>{};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    json o;
    try {
        o = json::parse(text.str());
    } catch (const json::exception& e) {
        return bad_input(path.string() + ": not valid JSON (" + e.what() + ")");
    }
    const bool modelopt = o.is_object() && o.contains("producer") && o["producer"].is_object() &&
                          o["producer"].value("name", std::string()) == "modelopt";
    if (!modelopt || !o.contains("quantization") || !o["quantization"].is_object())
        return bad_input(path.string() +
                         ": expected {\"producer\": {\"name\": \"modelopt\"}, "
                         "\"quantization\": {...}}");
    auto q = parse_modelopt(o, path.string() + ": field quantization");
    if (!q) return q.error();
    return std::optional<QuantizationConfig>(std::move(q.value()));
}

float e2m1_to_float(uint8_t nibble) {
    const float v = kE2M1[nibble & 7u];
    return (nibble & 8u) ? -v : v;
}

uint8_t float_to_e2m1(float x) {
    const float a = std::fabs(x);
    uint8_t best = 0;
    float best_d = INFINITY;
    for (uint8_t i = 0; i < 8; ++i) {
        const float d = std::fabs(a - kE2M1[i]);
        // Strictly closer wins; a tie goes to the even code.
        if (d < best_d || (d == best_d && (i % 2) == 0)) {
            best = i;
            best_d = d;
        }
    }
    return static_cast<uint8_t>(best | (std::signbit(x) ? 8u : 0u));
}

uint8_t float_to_e4m3(float x) {
    if (std::isnan(x)) return 0x7f;
    const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
    const float a = std::fabs(x);
    if (a >= 448.0f) return static_cast<uint8_t>(sign | 0x7e);
    // Codes 0..126 increase in value: binary search for the first at or above a.
    int lo = 0, hi = 126;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (e4m3_to_float(static_cast<uint8_t>(mid)) < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    int code = lo;
    if (code > 0) {
        const float up = e4m3_to_float(static_cast<uint8_t>(code)) - a;
        const float down = a - e4m3_to_float(static_cast<uint8_t>(code - 1));
        if (down < up || (down == up && ((code - 1) % 2) == 0)) code -= 1;
    }
    return static_cast<uint8_t>(sign | code);
}

Result<std::optional<QuantizedLinear>> find_linear(const std::map<std::string, TensorView>& tensors,
                                                   const std::string& weight_name, int64_t rows,
                                                   int64_t cols, const QuantizationConfig& q) {
    auto it = tensors.find(weight_name);
    if (it == tensors.end()) return std::optional<QuantizedLinear>{};
    const TensorView& w = it->second;
    const std::string where = w.file.string() + ": tensor " + weight_name;
    QuantizedLinear part;
    part.rows = rows;
    part.cols = cols;
    part.weight = w;
    const auto scale_of = [&](const std::string& suffix) -> const TensorView* {
        auto s = tensors.find(weight_name + suffix);
        return s == tensors.end() ? nullptr : &s->second;
    };
    switch (w.dtype) {
        case DType::F32:
        case DType::BF16:
        case DType::F16:
            if (w.shape != std::vector<int64_t>{rows, cols})
                return bad_input(where + " has shape " + w.shape_string() + ", expected " +
                                 shape_str({rows, cols}) + " per config.json");
            part.format = WeightFormat::BF16;
            return std::optional<QuantizedLinear>(part);
        case DType::F8_E4M3: {
            if (q.format != WeightFormat::FP8)
                return bad_input(where +
                                 " is F8_E4M3, but config.json's quantization_config "
                                 "says " +
                                 std::string(weight_format_name(q.format)) +
                                 " (FP8 weights need quant_method compressed-tensors)");
            if (w.shape != std::vector<int64_t>{rows, cols})
                return bad_input(where + " has shape " + w.shape_string() + ", expected " +
                                 shape_str({rows, cols}) + " (FP8 E4M3 weights)");
            const TensorView* s = scale_of("_scale");
            if (!s)
                return bad_input(where +
                                 "_scale is missing (FP8 weights need per-channel "
                                 "scales, " +
                                 shape_str({rows, 1}) + ")");
            const bool float_dtype =
                s->dtype == DType::F32 || s->dtype == DType::BF16 || s->dtype == DType::F16;
            const bool per_row =
                s->shape == std::vector<int64_t>{rows, 1} || s->shape == std::vector<int64_t>{rows};
            if (!float_dtype || !per_row)
                return bad_input(s->file.string() + ": tensor " + weight_name + "_scale is " +
                                 dtype_name(s->dtype) + " " + s->shape_string() + ", expected " +
                                 "F32, BF16 or F16 " + shape_str({rows, 1}) +
                                 " (one scale per output channel)");
            part.format = WeightFormat::FP8;
            part.weight_scale = *s;
            return std::optional<QuantizedLinear>(part);
        }
        case DType::U8: {
            if (q.format != WeightFormat::NVFP4)
                return bad_input(where +
                                 " is U8 (packed FP4), but config.json's "
                                 "quantization_config says " +
                                 std::string(weight_format_name(q.format)) +
                                 " (NVFP4 weights need quant_method modelopt, quant_algo NVFP4)");
            if (cols % 16 != 0)
                return bad_input(where + ": " + std::to_string(cols) +
                                 " columns are not a multiple of 16 (NVFP4 blocks)");
            if (w.shape != std::vector<int64_t>{rows, cols / 2})
                return bad_input(where + " has shape " + w.shape_string() + ", expected " +
                                 shape_str({rows, cols / 2}) + " (NVFP4: two values a byte)");
            const TensorView* s = scale_of("_scale");
            if (!s)
                return bad_input(where +
                                 "_scale is missing (NVFP4 weights need F8_E4M3 block "
                                 "scales, " +
                                 shape_str({rows, cols / 16}) + ")");
            if (s->dtype != DType::F8_E4M3 || s->shape != std::vector<int64_t>{rows, cols / 16})
                return bad_input(s->file.string() + ": tensor " + weight_name + "_scale is " +
                                 dtype_name(s->dtype) + " " + s->shape_string() +
                                 ", expected F8_E4M3 " + shape_str({rows, cols / 16}) +
                                 " (one scale per 16 values)");
            const TensorView* g = scale_of("_scale_2");
            if (!g)
                return bad_input(where +
                                 "_scale_2 is missing (NVFP4 weights need a global "
                                 "scale, F32 [])");
            float global = 0;
            const bool float_dtype = g->dtype == DType::F32 || g->dtype == DType::BF16;
            if (float_dtype && g->numel() == 1) to_float(g->dtype, g->data, 1, &global);
            if (!float_dtype || g->numel() != 1 || !std::isfinite(global) || global <= 0)
                return bad_input(g->file.string() + ": tensor " + weight_name + "_scale_2 is " +
                                 dtype_name(g->dtype) + " " + g->shape_string() +
                                 ", expected one positive finite F32 value (the global scale)");
            part.format = WeightFormat::NVFP4;
            part.weight_scale = *s;
            part.global_scale = global;
            return std::optional<QuantizedLinear>(part);
        }
    }
    return bad_input(where + ": unsupported dtype");
}

Result<std::vector<QuantizedLinear>> find_fused_experts(
    const std::map<std::string, TensorView>& tensors, const std::string& name, int64_t E,
    int64_t rows, int64_t cols, const QuantizationConfig& q) {
    const TensorView& w = tensors.at(name);
    const std::string where = w.file.string() + ": tensor ";
    const bool nvfp4 = w.dtype == DType::U8;
    const WeightFormat format = nvfp4 ? WeightFormat::NVFP4 : WeightFormat::FP8;
    if (q.format != format)
        return bad_input(where + name + " is " + dtype_name(w.dtype) +
                         ", but config.json's quantization_config says " +
                         weight_format_name(q.format) + " (expected " + weight_format_name(format) +
                         " for " + dtype_name(w.dtype) + " weights)");
    if (nvfp4 && cols % 16 != 0)
        return bad_input(where + name + ": " + std::to_string(cols) +
                         " columns are not a multiple of 16 (NVFP4 blocks)");
    const int64_t stored_cols = nvfp4 ? cols / 2 : cols;
    if (w.shape != std::vector<int64_t>{E, rows, stored_cols})
        return bad_input(where + name + " has shape " + w.shape_string() + ", expected " +
                         shape_str({E, rows, stored_cols}) + " (" + weight_format_name(format) +
                         " experts)");
    auto s_it = tensors.find(name + "_weight_scale");
    const std::vector<int64_t> scale_shape =
        nvfp4 ? std::vector<int64_t>{E, rows, cols / 16} : std::vector<int64_t>{E, rows, 1};
    if (s_it == tensors.end())
        return bad_input(where + name + "_weight_scale is missing (expected " +
                         (nvfp4 ? "F8_E4M3 " : "") + shape_str(scale_shape) + ")");
    const TensorView& sc = s_it->second;
    const bool scale_ok =
        nvfp4 ? sc.dtype == DType::F8_E4M3 && sc.shape == scale_shape
              : (sc.dtype == DType::F32 || sc.dtype == DType::BF16 || sc.dtype == DType::F16) &&
                    (sc.shape == scale_shape || sc.shape == std::vector<int64_t>{E, rows});
    if (!scale_ok)
        return bad_input(sc.file.string() + ": tensor " + name + "_weight_scale is " +
                         dtype_name(sc.dtype) + " " + sc.shape_string() + ", expected " +
                         (nvfp4 ? "F8_E4M3 " : "F32, BF16 or F16 ") + shape_str(scale_shape));
    // NVFP4 global scales: one per expert, one per expert and half, or one for all.
    std::vector<float> globals;
    int64_t halves = 1;
    if (nvfp4) {
        auto g_it = tensors.find(name + "_weight_scale_2");
        if (g_it == tensors.end())
            return bad_input(where + name + "_weight_scale_2 is missing (expected F32 [" +
                             std::to_string(E) + "])");
        const TensorView& g = g_it->second;
        const bool per_expert = g.shape == std::vector<int64_t>{E};
        const bool per_half = g.shape == std::vector<int64_t>{E, 2} && rows % 2 == 0;
        const bool one = g.numel() == 1 && g.shape.size() <= 1;
        if ((g.dtype != DType::F32 && g.dtype != DType::BF16) || !(per_expert || per_half || one))
            return bad_input(g.file.string() + ": tensor " + name + "_weight_scale_2 is " +
                             dtype_name(g.dtype) + " " + g.shape_string() + ", expected F32 " +
                             shape_str({E}) + ", " + shape_str({E, 2}) + " or []");
        globals.resize(static_cast<size_t>(g.numel()));
        to_float(g.dtype, g.data, globals.size(), globals.data());
        for (float v : globals)
            if (!std::isfinite(v) || v <= 0)
                return bad_input(g.file.string() + ": tensor " + name +
                                 "_weight_scale_2 holds a value that is not a positive finite "
                                 "number");
        halves = per_half ? 2 : 1;
    }
    const size_t row_bytes = static_cast<size_t>(stored_cols);
    const size_t scale_row_bytes = nvfp4 ? static_cast<size_t>(cols / 16) : dtype_size(sc.dtype);
    const int64_t part_rows = rows / halves;
    std::vector<QuantizedLinear> parts;
    for (int64_t e = 0; e < E; ++e)
        for (int64_t h = 0; h < halves; ++h) {
            const size_t first = static_cast<size_t>(e * rows + h * part_rows);
            QuantizedLinear part;
            part.format = format;
            part.rows = part_rows;
            part.cols = cols;
            part.weight = w;
            part.weight.shape = {part_rows, stored_cols};
            part.weight.data = w.data + first * row_bytes;
            part.weight.nbytes = static_cast<size_t>(part_rows) * row_bytes;
            part.weight_scale = sc;
            part.weight_scale.shape = {part_rows, nvfp4 ? cols / 16 : 1};
            part.weight_scale.data = sc.data + first * scale_row_bytes;
            part.weight_scale.nbytes = static_cast<size_t>(part_rows) * scale_row_bytes;
            if (nvfp4)
                part.global_scale =
                    globals.size() == 1 ? globals[0] : globals[static_cast<size_t>(e * halves + h)];
            parts.push_back(std::move(part));
        }
    return parts;
}

TensorView quantized_view(std::string name, std::vector<int64_t> shape,
                          std::vector<QuantizedLinear> parts) {
    TensorView t;
    t.name = std::move(name);
    t.dtype = DType::F32;
    t.shape = std::move(shape);
    if (!parts.empty()) t.file = parts.front().weight.file;
    auto src = std::make_shared<QuantizedSource>();
    src->parts = std::move(parts);
    t.quantized = std::move(src);
    return t;
}

void dequantize_rows(const QuantizedLinear& p, int64_t first_row, int64_t rows, float* dst) {
    const size_t R0 = static_cast<size_t>(first_row), R = static_cast<size_t>(rows);
    const size_t C = static_cast<size_t>(p.cols);
    switch (p.format) {
        case WeightFormat::BF16:
            to_float(p.weight.dtype, p.weight.data + R0 * C * dtype_size(p.weight.dtype), R * C,
                     dst);
            return;
        case WeightFormat::FP8: {
            const auto* q = reinterpret_cast<const uint8_t*>(p.weight.data);
            const size_t per_scale = dtype_size(p.weight_scale.dtype);
            for (size_t r = 0; r < R; ++r) {
                float scale = 0;
                to_float(p.weight_scale.dtype, p.weight_scale.data + (R0 + r) * per_scale, 1,
                         &scale);
                for (size_t c = 0; c < C; ++c)
                    dst[r * C + c] = e4m3_to_float(q[(R0 + r) * C + c]) * scale;
            }
            return;
        }
        case WeightFormat::NVFP4: {
            const auto* q = reinterpret_cast<const uint8_t*>(p.weight.data);
            const auto* s = reinterpret_cast<const uint8_t*>(p.weight_scale.data);
            const size_t blocks = C / 16;
            for (size_t r = 0; r < R; ++r)
                for (size_t b = 0; b < blocks; ++b) {
                    const float scale = e4m3_to_float(s[(R0 + r) * blocks + b]) * p.global_scale;
                    for (size_t i = 0; i < 16; i += 2) {
                        const size_t c = b * 16 + i;
                        const uint8_t byte = q[(R0 + r) * (C / 2) + c / 2];
                        dst[r * C + c] = e2m1_to_float(byte & 0x0f) * scale;
                        dst[r * C + c + 1] = e2m1_to_float(static_cast<uint8_t>(byte >> 4)) * scale;
                    }
                }
            return;
        }
    }
}

void dequantize(const QuantizedLinear& p, float* dst) {
    dequantize_rows(p, 0, p.rows, dst);
}

void tensor_to_float(const TensorView& t, float* dst) {
    if (!t.quantized) {
        to_float(t.dtype, t.data, static_cast<size_t>(t.numel()), dst);
        return;
    }
    for (const QuantizedLinear& p : t.quantized->parts) {
        dequantize(p, dst);
        dst += p.rows * p.cols;
    }
}

uint64_t stored_bytes(const TensorView& t) {
    if (!t.quantized) return t.nbytes;
    uint64_t n = 0;
    for (const QuantizedLinear& p : t.quantized->parts)
        n += p.weight.nbytes + p.weight_scale.nbytes + (p.format == WeightFormat::NVFP4 ? 4 : 0);
    return n;
}

}  // namespace engine::model
