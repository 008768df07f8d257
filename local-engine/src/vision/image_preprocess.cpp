// Image preprocessing (see image_preprocess.h for what transformers does and where).

#include "vision/image_preprocess.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace engine::vision {
namespace {

using nlohmann::json;

// PIL's filters (libImaging/Resample.c): support radius and kernel.
double bicubic(double x) {
    constexpr double a = -0.5;
    x = std::fabs(x);
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * a;
    return 0.0;
}
double bilinear(double x) {
    x = std::fabs(x);
    return x < 1.0 ? 1.0 - x : 0.0;
}

// One output pixel's taps: first input index and normalised weights.
struct Taps {
    int first = 0;
    std::vector<double> w;
};

std::vector<Taps> taps_for(int in, int out, int resample) {
    const double support_1 = resample == 2 ? 1.0 : 2.0;
    const double scale = static_cast<double>(in) / out;
    const double filter_scale = std::max(scale, 1.0);
    const double support = support_1 * filter_scale;
    std::vector<Taps> taps(static_cast<size_t>(out));
    for (int o = 0; o < out; ++o) {
        const double center = (o + 0.5) * scale;
        // PIL truncates toward zero here (int cast), then clamps.
        const int lo = std::max(static_cast<int>(center - support + 0.5), 0);
        const int hi = std::min(static_cast<int>(center + support + 0.5), in);
        Taps& t = taps[static_cast<size_t>(o)];
        t.first = lo;
        double total = 0;
        for (int i = lo; i < hi; ++i) {
            const double x = (i - center + 0.5) / filter_scale;
            const double w = resample == 2 ? bilinear(x) : bicubic(x);
            t.w.push_back(w);
            total += w;
        }
        if (total != 0)
            for (double& w : t.w) w /= total;
    }
    return taps;
}

uint8_t to_u8(double v) {
    return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

Result<json> read_json(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    try {
        return json::parse(s.str());
    } catch (const json::exception& e) {
        return bad_input(path.string() + ": not valid JSON (" + std::string(e.what()) + ")");
    }
}

}  // namespace

Result<ImageProcessorConfig> load_image_processor_config(const std::filesystem::path& model_dir,
                                                         const model::VisionConfig& vision) {
    ImageProcessorConfig cfg;
    cfg.patch_size = vision.patch_size;
    cfg.pooling_kernel_size = vision.pooling_kernel_size;
    cfg.max_soft_tokens = vision.default_output_length;
    std::error_code ec;
    std::filesystem::path path = model_dir / "preprocessor_config.json";
    json obj;
    if (std::filesystem::is_regular_file(path, ec)) {
        auto j = read_json(path);
        if (!j) return j.error();
        obj = std::move(j.value());
    } else if (path = model_dir / "processor_config.json";
               std::filesystem::is_regular_file(path, ec)) {
        auto j = read_json(path);
        if (!j) return j.error();
        if (j->contains("image_processor")) obj = (*j)["image_processor"];
    } else {
        return cfg;
    }
    if (!obj.is_object()) return cfg;
    std::string error;
    auto integer = [&](const char* key, int& out) {
        if (!obj.contains(key) || obj[key].is_null()) return;
        if (!obj[key].is_number_integer() || obj[key].get<int64_t>() < 1 ||
            obj[key].get<int64_t>() > 1 << 20) {
            if (error.empty())
                error = path.string() + ": field " + key + " is " + obj[key].dump() +
                        " (expected a positive integer)";
            return;
        }
        out = static_cast<int>(obj[key].get<int64_t>());
    };
    auto boolean = [&](const char* key, bool& out) {
        if (!obj.contains(key) || obj[key].is_null()) return;
        if (!obj[key].is_boolean()) {
            if (error.empty())
                error = path.string() + ": field " + key + " is " + obj[key].dump() +
                        " (expected true or false)";
            return;
        }
        out = obj[key].get<bool>();
    };
    auto triple = [&](const char* key, float* out) {
        if (!obj.contains(key) || obj[key].is_null()) return;
        const json& v = obj[key];
        if (v.is_number()) {
            for (int c = 0; c < 3; ++c) out[c] = v.get<float>();
            return;
        }
        if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() ||
            !v[2].is_number()) {
            if (error.empty())
                error = path.string() + ": field " + key + " is " + v.dump() +
                        " (expected three numbers, R G B)";
            return;
        }
        for (int c = 0; c < 3; ++c) out[c] = v[static_cast<size_t>(c)].get<float>();
    };
    integer("patch_size", cfg.patch_size);
    integer("max_soft_tokens", cfg.max_soft_tokens);
    integer("pooling_kernel_size", cfg.pooling_kernel_size);
    integer("resample", cfg.resample);
    boolean("do_resize", cfg.do_resize);
    boolean("do_rescale", cfg.do_rescale);
    boolean("do_normalize", cfg.do_normalize);
    triple("image_mean", cfg.image_mean);
    triple("image_std", cfg.image_std);
    if (obj.contains("rescale_factor") && obj["rescale_factor"].is_number())
        cfg.rescale_factor = obj["rescale_factor"].get<double>();
    if (!error.empty()) return bad_input(error);
    if (cfg.resample != 2 && cfg.resample != 3)
        return bad_input(path.string() + ": field resample is " + std::to_string(cfg.resample) +
                         " (expected 2, bilinear, or 3, bicubic)");
    if (cfg.patch_size != vision.patch_size)
        return bad_input(path.string() + ": field patch_size is " + std::to_string(cfg.patch_size) +
                         " but config.json vision_config has " + std::to_string(vision.patch_size));
    for (float s : cfg.image_std)
        if (s == 0.0f) return bad_input(path.string() + ": field image_std holds 0");
    return cfg;
}

Result<std::pair<int, int>> target_size(int height, int width, const ImageProcessorConfig& cfg) {
    const int64_t max_patches = static_cast<int64_t>(cfg.max_soft_tokens) *
                                cfg.pooling_kernel_size * cfg.pooling_kernel_size;
    const double total_px = static_cast<double>(height) * width;
    const double target_px = static_cast<double>(max_patches) * cfg.patch_size * cfg.patch_size;
    const double factor = std::sqrt(target_px / total_px);
    const int side = cfg.pooling_kernel_size * cfg.patch_size;
    int th = static_cast<int>(std::floor(factor * height / side)) * side;
    int tw = static_cast<int>(std::floor(factor * width / side)) * side;
    if (th == 0 && tw == 0)
        return bad_input("image of " + std::to_string(width) + "x" + std::to_string(height) +
                         " would resize to 0x0");
    const int max_side =
        static_cast<int>(max_patches / (cfg.pooling_kernel_size * cfg.pooling_kernel_size)) * side;
    // A very thin image: one pooled row (or column), the other side as long as the aspect ratio
    // and the budget allow (transformers' edge cases).
    if (th == 0) {
        th = side;
        tw = std::min((width / height) * side, max_side);
    } else if (tw == 0) {
        tw = side;
        th = std::min((height / width) * side, max_side);
    }
    if (static_cast<double>(th) * tw > target_px)
        return bad_input("image of " + std::to_string(width) + "x" + std::to_string(height) +
                         " does not fit " + std::to_string(max_patches) + " patches");
    return std::pair<int, int>{th, tw};
}

std::vector<uint8_t> resize_rgb(std::span<const uint8_t> rgb, int width, int height, int out_width,
                                int out_height, int resample) {
    // Horizontal pass into an out_width x height image, then the vertical pass.
    std::vector<uint8_t> mid(static_cast<size_t>(out_width) * height * 3);
    if (out_width == width) {
        mid.assign(rgb.begin(), rgb.end());
    } else {
        const auto taps = taps_for(width, out_width, resample);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < out_width; ++x)
                for (int c = 0; c < 3; ++c) {
                    const Taps& t = taps[static_cast<size_t>(x)];
                    double v = 0;
                    for (size_t i = 0; i < t.w.size(); ++i)
                        v += t.w[i] * rgb[(static_cast<size_t>(y) * width + t.first + i) * 3 + c];
                    mid[(static_cast<size_t>(y) * out_width + x) * 3 + c] = to_u8(v);
                }
    }
    if (out_height == height) return mid;
    std::vector<uint8_t> out(static_cast<size_t>(out_width) * out_height * 3);
    const auto taps = taps_for(height, out_height, resample);
    for (int y = 0; y < out_height; ++y) {
        const Taps& t = taps[static_cast<size_t>(y)];
        for (int x = 0; x < out_width; ++x)
            for (int c = 0; c < 3; ++c) {
                double v = 0;
                for (size_t i = 0; i < t.w.size(); ++i)
                    v += t.w[i] * mid[((t.first + i) * out_width + x) * 3 + c];
                out[(static_cast<size_t>(y) * out_width + x) * 3 + c] = to_u8(v);
            }
    }
    return out;
}

Result<int> soft_tokens_for(int width, int height, const ImageProcessorConfig& cfg) {
    int h = height, w = width;
    if (cfg.do_resize) {
        auto size = target_size(height, width, cfg);
        if (!size) return size.error();
        h = size->first;
        w = size->second;
    }
    const int k = cfg.pooling_kernel_size, p = cfg.patch_size;
    if (h % (k * p) != 0 || w % (k * p) != 0)
        return bad_input("image of " + std::to_string(w) + "x" + std::to_string(h) +
                         ": sides must be multiples of " + std::to_string(k * p) +
                         " when the processor config turns do_resize off");
    return (h / p / k) * (w / p / k);
}

Result<PatchedImage> preprocess_image(const ImageInput& image, const ImageProcessorConfig& cfg,
                                      int index) {
    const std::string where = "image " + std::to_string(index);
    if (image.width <= 0 || image.height <= 0)
        return bad_input(where + " has size " + std::to_string(image.width) + "x" +
                         std::to_string(image.height) +
                         " (expected a decoded image of at least 1x1)");
    if (image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
        return bad_input(where + " has " + std::to_string(image.rgb.size()) +
                         " bytes; 8-bit RGB of " + std::to_string(image.width) + "x" +
                         std::to_string(image.height) + " needs width*height*3 = " +
                         std::to_string(static_cast<size_t>(image.width) * image.height * 3));
    auto tokens = soft_tokens_for(image.width, image.height, cfg);
    if (!tokens) return bad_input(where + ": " + tokens.error().message);
    int h = image.height, w = image.width;
    std::vector<uint8_t> resized;
    std::span<const uint8_t> rgb = image.rgb;
    if (cfg.do_resize) {
        const auto size = target_size(image.height, image.width, cfg).value();
        if (size.first != h || size.second != w) {
            resized = resize_rgb(image.rgb, w, h, size.second, size.first, cfg.resample);
            h = size.first;
            w = size.second;
            rgb = resized;
        }
    }
    const int p = cfg.patch_size;
    PatchedImage out;
    out.patch_size = p;
    out.patches_w = w / p;
    out.patches_h = h / p;
    const size_t per_patch = static_cast<size_t>(p) * p * 3;
    out.pixels.resize(static_cast<size_t>(out.patches()) * per_patch);
    for (int py = 0; py < out.patches_h; ++py)
        for (int px = 0; px < out.patches_w; ++px) {
            const size_t patch = static_cast<size_t>(py) * out.patches_w + px;
            out.pos_x.push_back(px);
            out.pos_y.push_back(py);
            float* dst = out.pixels.data() + patch * per_patch;
            for (int r = 0; r < p; ++r)
                for (int col = 0; col < p; ++col)
                    for (int c = 0; c < 3; ++c) {
                        const size_t src =
                            (static_cast<size_t>(py * p + r) * w + px * p + col) * 3 + c;
                        // rescale (a float32 product, as torch does), then normalise.
                        float v = rgb[src];
                        if (cfg.do_rescale) v = v * static_cast<float>(cfg.rescale_factor);
                        if (cfg.do_normalize) v = (v - cfg.image_mean[c]) / cfg.image_std[c];
                        *dst++ = v;
                    }
        }
    return out;
}

}  // namespace engine::vision
