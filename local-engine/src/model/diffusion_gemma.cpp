// DiffusionGemma over ops::Ops: the one place that says what the model computes (MODEL-SPEC
// sections 2-4, checked against transformers modeling_diffusion_gemma.py). The devices only say
// how each operator runs.

#include "model/diffusion_gemma.h"

#include <algorithm>
#include <cmath>
#include <string>

// Returns the error of a failed Result from the calling function.
#define DG_TRY(expr)                      \
    do {                                  \
        auto dg_r_ = (expr);              \
        if (!dg_r_) return dg_r_.error(); \
    } while (0)

namespace engine::model {

using backend::DecodeBatch;
using ops::Act;
using ops::Norm;
using ops::Rows;

DiffusionGemma::DiffusionGemma(std::shared_ptr<const ModelWeights> weights,
                               std::unique_ptr<ops::Ops> ops,
                               std::unique_ptr<ops::VisionOps> vision_ops)
    : weights_(std::move(weights)), ops_(std::move(ops)) {
    if (weights_->config.vision.present && vision_ops)
        vision_ = std::make_unique<VisionTower>(weights_, std::move(vision_ops));
    const ModelConfig& c = weights_->config;
    // The reference multiplies by sqrt(hidden) cast to the embedding dtype (53.0 for 2816 in
    // bf16), and rounds the self-conditioning probabilities to that dtype before the product.
    const float scale = static_cast<float>(std::sqrt(static_cast<double>(c.hidden_size)));
    round_probs_bf16_ = ops_->embeddings_bf16();
    embed_scale_ = round_probs_bf16_ ? bf16_to_float(float_to_bf16(scale)) : scale;
}

Result<std::unique_ptr<backend::KvCache>> DiffusionGemma::create_cache(int capacity) {
    if (capacity < 0) return bad_input("KV cache capacity must be >= 0");
    auto cache = ops_->create_cache(capacity);
    if (!cache) return cache.error();
    (*cache)->capacity_ = capacity;
    return std::unique_ptr<backend::KvCache>(std::move(cache.value()));
}

Result<void> DiffusionGemma::check_ids(std::span<const TokenId> ids) const {
    const int V = weights_->config.vocab_size;
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= V)
            return bad_input("token id " + std::to_string(ids[i]) + " at index " +
                             std::to_string(i) + " is outside the vocabulary [0, " +
                             std::to_string(V) + ")");
    return {};
}

Result<void> DiffusionGemma::check_room(const ops::KvCacheState& cache, size_t more) const {
    if (cache.broken_) return engine_error("KV cache was left incomplete by a cancelled pass");
    if (static_cast<size_t>(cache.length_) + more > static_cast<size_t>(cache.capacity_))
        return engine_error("KV cache holds " + std::to_string(cache.capacity_) +
                            " tokens; encoding " + std::to_string(more) + " more after " +
                            std::to_string(cache.length_) + " does not fit");
    return {};
}

Result<void> DiffusionGemma::check_batch(const DecodeBatch& batch) const {
    const int64_t R = batch.rows, W = batch.width;
    if (R <= 0 || W <= 0 || static_cast<int64_t>(batch.ids.size()) != R * W)
        return bad_input("decoder batch: expected rows*width ids (" + std::to_string(R) + "*" +
                         std::to_string(W) + "), got " + std::to_string(batch.ids.size()));
    if (W > ops_->max_pass_tokens())
        return bad_input("decoder batch: canvas width " + std::to_string(W) +
                         " exceeds the device's pass size of " +
                         std::to_string(ops_->max_pass_tokens()));
    return check_ids(batch.ids);
}

Result<void> DiffusionGemma::check_prompt(const backend::PromptInput& prompt) const {
    DG_TRY(check_ids(prompt.ids));
    const size_t H = static_cast<size_t>(weights_->config.hidden_size);
    if (prompt.embeds.size() != prompt.embed_at.size() * H)
        return bad_input("prompt embeddings: " + std::to_string(prompt.embeds.size()) +
                         " values for " + std::to_string(prompt.embed_at.size()) +
                         " rows of hidden size " + std::to_string(H));
    for (size_t i = 0; i < prompt.embed_at.size(); ++i)
        if (prompt.embed_at[i] < 0 ||
            static_cast<size_t>(prompt.embed_at[i]) >= prompt.ids.size() ||
            (i > 0 && prompt.embed_at[i] <= prompt.embed_at[i - 1]))
            return bad_input("prompt embeddings: row index " + std::to_string(prompt.embed_at[i]) +
                             " is outside the prompt or out of order");
    return {};
}

Result<void> DiffusionGemma::encode(backend::KvCache& cache, std::span<const TokenId> ids,
                                    const CancelToken& cancel) {
    return encode_prompt(cache, backend::PromptInput{ids, {}, {}}, cancel);
}

Result<void> DiffusionGemma::encode_prompt(backend::KvCache& cache_base,
                                           const backend::PromptInput& prompt,
                                           const CancelToken& cancel) {
    auto& cache = static_cast<ops::KvCacheState&>(cache_base);
    const size_t n = prompt.ids.size();
    DG_TRY(check_room(cache, n));
    DG_TRY(check_prompt(prompt));
    const size_t T = static_cast<size_t>(ops_->max_pass_tokens());
    for (size_t done = 0; done < n; done += T)
        DG_TRY(run_pass(cache, prompt, done, std::min(T, n - done), {}, cancel));
    return {};
}

Result<std::vector<float>> DiffusionGemma::embed_image(const vision::PatchedImage& image) {
    if (!vision_)
        return bad_input("the model has no vision tower (config.json vision_config is null)");
    return vision_->embed(image);
}

Result<std::unique_ptr<backend::DecodedCanvas>> DiffusionGemma::decode(
    const backend::KvCache& cache_base, const DecodeBatch& batch, const CancelToken& cancel) {
    // A decode never writes the cache: a pass only appends its prompt rows, and here it has none.
    auto& cache = const_cast<ops::KvCacheState&>(static_cast<const ops::KvCacheState&>(cache_base));
    if (cache.broken_) return engine_error("KV cache was left incomplete by a cancelled pass");
    return decode_rows(cache, backend::PromptInput{}, batch, cancel);
}

Result<std::unique_ptr<backend::DecodedCanvas>> DiffusionGemma::encode_and_decode(
    backend::KvCache& cache, std::span<const TokenId> prompt_ids, const DecodeBatch& batch,
    const CancelToken& cancel) {
    return encode_prompt_and_decode(cache, backend::PromptInput{prompt_ids, {}, {}}, batch, cancel);
}

Result<std::unique_ptr<backend::DecodedCanvas>> DiffusionGemma::encode_prompt_and_decode(
    backend::KvCache& cache_base, const backend::PromptInput& prompt, const DecodeBatch& batch,
    const CancelToken& cancel) {
    auto& cache = static_cast<ops::KvCacheState&>(cache_base);
    const int64_t tokens =
        static_cast<int64_t>(prompt.ids.size()) + static_cast<int64_t>(batch.rows) * batch.width;
    if (!ops_->fuses_passes() || tokens > ops_->max_pass_tokens()) {
        DG_TRY(encode_prompt(cache, prompt, cancel));
        return decode(cache, batch, cancel);
    }
    DG_TRY(check_room(cache, prompt.ids.size()));
    DG_TRY(check_prompt(prompt));
    return decode_rows(cache, prompt, batch, cancel);
}

Result<std::unique_ptr<backend::DecodedCanvas>> DiffusionGemma::decode_rows(
    ops::KvCacheState& cache, const backend::PromptInput& prompt, const DecodeBatch& batch,
    const CancelToken& cancel) {
    DG_TRY(check_batch(batch));
    auto canvas = ops_->create_canvas(batch.rows, batch.width);
    if (!canvas) return canvas.error();
    (*canvas)->rows_ = batch.rows;
    (*canvas)->width_ = batch.width;
    const int64_t T = ops_->max_pass_tokens();
    for (int r0 = 0; r0 < batch.rows;) {
        const int64_t room = T - (r0 == 0 ? static_cast<int64_t>(prompt.ids.size()) : 0);
        const int rows = static_cast<int>(std::min<int64_t>(room / batch.width, batch.rows - r0));
        CanvasPart part{&batch, r0, rows, canvas->get()};
        DG_TRY(run_pass(cache, prompt, 0, r0 == 0 ? prompt.ids.size() : 0, part, cancel));
        r0 += rows;
    }
    return std::unique_ptr<backend::DecodedCanvas>(std::move(canvas.value()));
}

Result<void> DiffusionGemma::run_pass(ops::KvCacheState& cache, const backend::PromptInput& prompt,
                                      size_t first, size_t count, const CanvasPart& canvas,
                                      const CancelToken& cancel) {
    const ModelConfig& c = weights_->config;
    ops::PassShape shape;
    shape.start = cache.length_;
    shape.prompt = static_cast<int>(count);
    shape.rows = canvas.rows;
    shape.width = canvas.batch ? canvas.batch->width : 0;
    const int64_t n = shape.prompt, nc = shape.canvas_tokens(), N = shape.tokens();
    if (N == 0) return {};
    DG_TRY(ops_->begin_pass(shape));

    if (n > 0) {
        ops_->embed(prompt.ids.subspan(first, count), embed_scale_, {Act::x, 0, n});
        DG_TRY(place_embeddings(prompt, first, count));
    }
    if (nc > 0) DG_TRY(canvas_input(shape, canvas));

    for (int l = 0; l < c.num_layers; ++l) {
        if (cancel.cancelled()) {
            if (n > 0) cache.broken_ = true;
            (void)ops_->end_pass();
            return cancelled();
        }
        DG_TRY(layer(l, shape, cache));
    }
    if (nc > 0)
        ops_->store_canvas({Act::x, n, nc}, *canvas.out,
                           static_cast<int64_t>(canvas.first_row) * shape.width);
    DG_TRY(ops_->end_pass());
    cache.length_ += shape.prompt;
    return {};
}

Result<void> DiffusionGemma::place_embeddings(const backend::PromptInput& prompt, size_t first,
                                              size_t count) {
    // Runs of consecutive rows (an image's soft tokens) go up in one copy each.
    const size_t H = static_cast<size_t>(weights_->config.hidden_size);
    const auto& at = prompt.embed_at;
    size_t i = static_cast<size_t>(
        std::lower_bound(at.begin(), at.end(), static_cast<int64_t>(first)) - at.begin());
    while (i < at.size() && static_cast<size_t>(at[i]) < first + count) {
        size_t j = i + 1;
        while (j < at.size() && at[j] == at[j - 1] + 1 &&
               static_cast<size_t>(at[j]) < first + count)
            ++j;
        const Rows dst{Act::x, at[i] - static_cast<int64_t>(first), static_cast<int64_t>(j - i)};
        DG_TRY(ops_->upload(dst, prompt.embeds.subspan(i * H, (j - i) * H)));
        i = j;
    }
    return {};
}

Result<void> DiffusionGemma::canvas_input(const ops::PassShape& shape, const CanvasPart& canvas) {
    const int64_t n = shape.prompt, nc = shape.canvas_tokens();
    const int64_t tok0 = static_cast<int64_t>(canvas.first_row) * shape.width;
    const Rows x{Act::x, n, nc};
    ops_->embed(canvas.batch->ids.subspan(static_cast<size_t>(tok0), static_cast<size_t>(nc)),
                embed_scale_, x);
    const float* sc_logits = canvas.batch->self_conditioning_logits;
    if (!sc_logits) {
        // The self-conditioning block adds exactly zero without logits; only its weightless
        // post_norm remains.
        ops_->rmsnorm(x, x, ops::kModelLevel, Norm::none);
        return {};
    }
    // sc = selfcond_mlp(rmsnorm(softmax(logits) @ E * scale) * pre_norm).
    const Rows sc{Act::sc, 0, nc}, h{Act::h, 0, nc};
    DG_TRY(ops_->soft_embed(sc_logits + tok0 * weights_->config.vocab_size, embed_scale_,
                            round_probs_bf16_, sc));
    ops_->rmsnorm(sc, h, ops::kModelLevel, Norm::self_cond_pre);
    ops_->gated_mlp(ops::kModelLevel, ops::Mlp::self_conditioning, h, sc);
    ops_->add_rmsnorm(x, sc, ops::kModelLevel, Norm::none);
    return {};
}

Result<void> DiffusionGemma::layer(int l, const ops::PassShape& shape, ops::KvCacheState& cache) {
    const ModelConfig& c = weights_->config;
    const LayerWeights& lw = weights_->layers[static_cast<size_t>(l)];
    const int64_t n = shape.prompt, nc = shape.canvas_tokens(), N = shape.tokens();
    const Rows x{Act::x, 0, N}, h{Act::h, 0, N};

    // Attention: sliding layers see a window, full layers everything (and, with
    // attention_k_eq_v, use the raw K projection as V).
    ops_->rmsnorm(x, h, l, Norm::input);
    ops_->project_qkv(l, h);
    ops_->qkv_norm_rope(l, shape, cache);
    const int window = c.is_full(l) ? 0 : c.sliding_window;
    if (n > 0) ops_->attention_causal(l, shape, cache, window);
    if (nc > 0) {
        // A sliding layer's canvas row sees the cache's last (window - 1) positions plus its
        // whole canvas (no window inside the canvas).
        const int cached = shape.canvas_position0();
        const int first_key = window > 0 ? std::max(0, cached - (window - 1)) : 0;
        ops_->attention_canvas(l, shape, cache, first_key);
    }
    ops_->linear(l, ops::Matrix::o_proj, {Act::attn, 0, N}, {Act::o, 0, N});
    ops_->residual_rmsnorm(x, {Act::o, 0, N}, l, Norm::post_attention);

    // Dense MLP and MoE in parallel from the same residual.
    const Rows dense{Act::dense, 0, N}, moe{Act::moe, 0, N}, expert_in{Act::expert_in, 0, N};
    ops_->rmsnorm(x, h, l, Norm::pre_ff);
    ops_->gated_mlp(l, ops::Mlp::dense, h, dense);
    // Router input: rmsnorm_noweight(x) * router_scale * hidden^-0.5, from the un-normed residual.
    const float root = static_cast<float>(std::pow(static_cast<double>(c.hidden_size), -0.5));
    ops_->router_input(x, h, l, root);
    ops_->linear(l, ops::Matrix::router, h, {Act::router, 0, N});
    ops_->router_topk(l, {Act::router, 0, N});
    ops_->rmsnorm(x, expert_in, l, Norm::pre_ff2);
    DG_TRY(ops_->experts(l, expert_in, moe));

    // x = (x + post_ff(post_ff1(dense) + post_ff2(moe))) * layer_scalar: the encoder's scalar on
    // prompt rows, the decoder's on canvas rows.
    if (n > 0)
        ops_->residual_two_branches({Act::x, 0, n}, {Act::dense, 0, n}, {Act::moe, 0, n}, l,
                                    Norm::post_ff1, Norm::post_ff2, Norm::post_ff,
                                    lw.encoder_layer_scalar);
    if (nc > 0)
        ops_->residual_two_branches({Act::x, n, nc}, {Act::dense, n, nc}, {Act::moe, n, nc}, l,
                                    Norm::post_ff1, Norm::post_ff2, Norm::post_ff,
                                    lw.decoder_layer_scalar);
    return {};
}

Result<void> DiffusionGemma::logits(const backend::DecodedCanvas& canvas, std::vector<float>& out) {
    return ops_->full_logits(static_cast<const ops::CanvasState&>(canvas), ops::kModelLevel,
                             Norm::final_norm,
                             static_cast<float>(weights_->config.final_logit_softcapping), out);
}

Result<std::vector<backend::PositionReadout>> DiffusionGemma::read_positions(
    const backend::DecodedCanvas& canvas_base, std::span<const backend::PositionQuery> queries) {
    const auto& canvas = static_cast<const ops::CanvasState&>(canvas_base);
    const int V = weights_->config.vocab_size;
    std::vector<int64_t> tokens;
    tokens.reserve(queries.size());
    for (const auto& q : queries) {
        if (q.row < 0 || q.row >= canvas.rows_ || q.pos < 0 || q.pos >= canvas.width_)
            return bad_input("readout position (row " + std::to_string(q.row) + ", pos " +
                             std::to_string(q.pos) + ") is outside the canvas");
        for (TokenId id : q.ids)
            if (id < 0 || id >= V)
                return bad_input("label id " + std::to_string(id) + " is outside [0, " +
                                 std::to_string(V) + ")");
        tokens.push_back(static_cast<int64_t>(q.row) * canvas.width_ + q.pos);
    }
    std::vector<backend::PositionReadout> result(queries.size());
    if (queries.empty()) return result;
    DG_TRY(ops_->read_positions(canvas, tokens, queries, ops::kModelLevel, Norm::final_norm,
                                static_cast<float>(weights_->config.final_logit_softcapping),
                                result));
    return result;
}

Result<void> DiffusionGemma::read_cache(const backend::KvCache& cache, int layer,
                                        std::vector<float>& k, std::vector<float>& v) {
    if (layer < 0 || layer >= weights_->config.num_layers)
        return bad_input("layer " + std::to_string(layer) + " is outside the model");
    return ops_->read_cache(static_cast<const ops::KvCacheState&>(cache), layer, k, v);
}

}  // namespace engine::model
