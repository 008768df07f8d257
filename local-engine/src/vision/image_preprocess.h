#pragma once
// Image preprocessing of DiffusionGemma's vision tower, as transformers' Gemma4ImageProcessor
// (models/gemma4/image_processing_gemma4.py) does it: an aspect-ratio-preserving resize to the
// largest size whose sides are multiples of pooling_kernel_size * patch_size and which holds at
// most max_soft_tokens * pooling_kernel_size^2 patches (antialiased bicubic, as torchvision's
// resize(antialias=True)); rescale by 1/255; no normalisation by default (mean 0, std 1: the model
// itself maps [0, 1] to [-1, 1]); patches of patch_size^2 * 3 values in (row, column, channel)
// order, patches row-major, each with its (x, y) = (column, row) position.

#include <cstdint>
#include <filesystem>
#include <span>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/result.h"
#include "model/config.h"

namespace engine::vision {

// preprocessor_config.json / processor_config.json ("image_processor"), with the
// Gemma4ImageProcessor class defaults where a field is absent.
struct ImageProcessorConfig {
    int patch_size = 16;
    int max_soft_tokens = 280;
    int pooling_kernel_size = 3;
    bool do_resize = true;
    int resample = 3;  // PIL codes: 2 bilinear, 3 bicubic
    bool do_rescale = true;
    double rescale_factor = 1.0 / 255.0;
    bool do_normalize = false;
    float image_mean[3] = {0.0f, 0.0f, 0.0f};
    float image_std[3] = {1.0f, 1.0f, 1.0f};
};

// Reads the model folder's processor config. Without one, the defaults above with patch size,
// pooling kernel and soft-token count from vision_config (the Gemma4ImageProcessor defaults equal
// the 26B-A4B vision_config: 16, 3, 280). Errors name the file and field.
Result<ImageProcessorConfig> load_image_processor_config(const std::filesystem::path& model_dir,
                                                         const model::VisionConfig& vision);

// The resized (height, width): get_aspect_ratio_preserving_size. Errors: the image is too thin
// to give one pooled patch row or column.
Result<std::pair<int, int>> target_size(int height, int width, const ImageProcessorConfig& cfg);

// Antialiased separable resize of 8-bit RGB (PIL's and torchvision's antialias scheme: the
// filter support widens by the downscale factor; bicubic a = -0.5). Each pass rounds to 8 bits,
// as the uint8 paths of PIL and torchvision do.
std::vector<uint8_t> resize_rgb(std::span<const uint8_t> rgb, int width, int height, int out_width,
                                int out_height, int resample);

// One image ready for the vision tower.
struct PatchedImage {
    int patches_w = 0, patches_h = 0;  // the patch grid
    int patch_size = 0;
    std::vector<float> pixels;  // [patches, patch_size^2 * 3], rescaled (and normalised)
    std::vector<int32_t> pos_x, pos_y;
    int64_t patches() const { return static_cast<int64_t>(patches_w) * patches_h; }
};

// Checks, resizes, rescales and patchifies one decoded image. Errors name the image's index.
Result<PatchedImage> preprocess_image(const ImageInput& image, const ImageProcessorConfig& cfg,
                                      int index);

// Soft tokens the vision tower makes of an image of this size (after the resize).
Result<int> soft_tokens_for(int width, int height, const ImageProcessorConfig& cfg);

}  // namespace engine::vision
