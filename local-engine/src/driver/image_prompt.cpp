// Images in a prompt: each image is one run of image_token_id (the chat template's boi, soft
// tokens, eoi), in order; its soft tokens replace those positions' embeddings, as transformers'
// DiffusionGemmaEncoderModel does with masked_scatter over input_ids == image_token_id.

#include <string>

#include "driver/drivers.h"

namespace engine::driver {

Result<PromptImages> place_images(backend::ComputeBackend& backend,
                                  const vision::ImageProcessorConfig* processor,
                                  std::span<const TokenId> prompt,
                                  std::span<const ImageInput> images) {
    const model::ModelConfig& c = backend.config();
    PromptImages out;
    // Runs of the image token: [start, length).
    std::vector<std::pair<size_t, size_t>> runs;
    for (size_t i = 0; i < prompt.size(); ++i) {
        if (prompt[i] != c.image_token_id) continue;
        if (!runs.empty() && runs.back().first + runs.back().second == i)
            ++runs.back().second;
        else
            runs.push_back({i, 1});
    }
    if (images.empty() && (runs.empty() || !processor)) return out;
    if (!processor || !c.vision.present)
        return bad_input("the request has " + std::to_string(images.size()) +
                         " image(s) but the model has no vision tower (config.json vision_config "
                         "is null)");
    if (runs.size() != images.size())
        return bad_input("the prompt has " + std::to_string(runs.size()) +
                         " run(s) of the image token (id " + std::to_string(c.image_token_id) +
                         ") but the request has " + std::to_string(images.size()) +
                         " image(s): each image needs one run of its soft-token count");
    const size_t H = static_cast<size_t>(c.hidden_size);
    for (size_t n = 0; n < images.size(); ++n) {
        auto patched = vision::preprocess_image(images[n], *processor, static_cast<int>(n));
        if (!patched) return patched.error();
        auto embeds = backend.embed_image(*patched);
        if (!embeds) return embeds.error();
        const size_t tokens = embeds->size() / H;
        if (tokens != runs[n].second)
            return bad_input(
                "image " + std::to_string(n) + " (" + std::to_string(images[n].width) + "x" +
                std::to_string(images[n].height) + ") gives " + std::to_string(tokens) +
                " soft tokens but its run in the prompt has " + std::to_string(runs[n].second) +
                " image tokens (id " + std::to_string(c.image_token_id) + ")");
        for (size_t t = 0; t < tokens; ++t)
            out.embed_at.push_back(static_cast<int64_t>(runs[n].first + t));
        out.embeds.insert(out.embeds.end(), embeds->begin(), embeds->end());
    }
    return out;
}

}  // namespace engine::driver
