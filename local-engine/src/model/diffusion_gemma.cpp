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

Result<std::unique_ptr<backend::KvCache>> DiffusionGemma::copy_cache(const backend::KvCache& src,
                                                                     int length, int capacity) {
    const auto& from = static_cast<const ops::KvCacheState&>(src);
    if (from.broken_) return engine_error("KV cache was left incomplete by a cancelled pass");
    if (length < 0 || length > from.length_ || length > capacity)
        return bad_input("KV cache copy: " + std::to_string(length) +
                         " tokens of a cache holding " + std::to_string(from.length_) +
                         " into one of capacity " + std::to_string(capacity));
    auto cache = ops_->copy_cache(from, length, capacity);
    if (!cache) return cache.error();
    (*cache)->capacity_ = capacity;
    (*cache)->length_ = length;
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

Result<void> DiffusionGemma::run_pass(std::span<const PassRequest> requests,
                                      const CancelToken& cancel) {
    const ModelConfig& c = weights_->config;
    std::vector<ops::PassShape> shapes(requests.size());
    int64_t N = 0;
    for (size_t i = 0; i < requests.size(); ++i) {
        const PassRequest& r = requests[i];
        ops::PassShape& shape = shapes[i];
        shape.start = r.cache->length_;
        shape.prompt = static_cast<int>(r.count);
        shape.rows = r.canvas.rows;
        shape.width = r.canvas.batch ? r.canvas.batch->width : 0;
        shape.first = N;
        N += shape.tokens();
    }
    if (N == 0) return {};
    DG_TRY(ops_->begin_pass(shapes));

    for (size_t i = 0; i < requests.size(); ++i) {
        const PassRequest& r = requests[i];
        const ops::PassShape& shape = shapes[i];
        if (shape.prompt > 0) {
            ops_->embed(r.prompt->ids.subspan(r.first, r.count), embed_scale_,
                        {Act::x, shape.first, shape.prompt});
            DG_TRY(place_embeddings(*r.prompt, r.first, r.count, shape.first));
        }
        if (shape.canvas_tokens() > 0) DG_TRY(canvas_input(shape, r.canvas));
    }

    for (int l = 0; l < c.num_layers; ++l) {
        if (cancel.cancelled()) {
            for (const PassRequest& r : requests)
                if (r.count > 0) r.cache->broken_ = true;
            (void)ops_->end_pass();
            return cancelled();
        }
        DG_TRY(layer(l, shapes, requests));
    }
    for (size_t i = 0; i < requests.size(); ++i) {
        const ops::PassShape& shape = shapes[i];
        if (shape.canvas_tokens() > 0)
            ops_->store_canvas({Act::x, shape.first_canvas_row(), shape.canvas_tokens()},
                               *requests[i].canvas.out,
                               static_cast<int64_t>(requests[i].canvas.first_row) * shape.width);
    }
    DG_TRY(ops_->end_pass());
    for (size_t i = 0; i < requests.size(); ++i) requests[i].cache->length_ += shapes[i].prompt;
    return {};
}

Result<void> DiffusionGemma::place_embeddings(const backend::PromptInput& prompt, size_t first,
                                              size_t count, int64_t row0) {
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
        const Rows dst{Act::x, row0 + at[i] - static_cast<int64_t>(first),
                       static_cast<int64_t>(j - i)};
        DG_TRY(ops_->upload(dst, prompt.embeds.subspan(i * H, (j - i) * H)));
        i = j;
    }
    return {};
}

Result<void> DiffusionGemma::canvas_input(const ops::PassShape& shape, const CanvasPart& canvas) {
    const int64_t n = shape.first_canvas_row(), nc = shape.canvas_tokens();
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
    const Rows sc{Act::sc, n, nc}, h{Act::h, n, nc};
    DG_TRY(ops_->soft_embed(sc_logits + tok0 * weights_->config.vocab_size, embed_scale_,
                            round_probs_bf16_, sc));
    ops_->rmsnorm(sc, h, ops::kModelLevel, Norm::self_cond_pre);
    ops_->gated_mlp(ops::kModelLevel, ops::Mlp::self_conditioning, h, sc);
    ops_->add_rmsnorm(x, sc, ops::kModelLevel, Norm::none);
    return {};
}

Result<void> DiffusionGemma::layer(int l, std::span<const ops::PassShape> shapes,
                                   std::span<const PassRequest> requests) {
    const ModelConfig& c = weights_->config;
    const LayerWeights& lw = weights_->layers[static_cast<size_t>(l)];
    const ops::PassShape& last = shapes.back();
    const int64_t N = last.first + last.tokens();
    const Rows x{Act::x, 0, N}, h{Act::h, 0, N};

    // Attention: sliding layers see a window, full layers everything (and, with
    // attention_k_eq_v, use the raw K projection as V). The projections run over every row of
    // the pass; norms, RoPE and attention per request, over its own cache.
    ops_->rmsnorm(x, h, l, Norm::input);
    ops_->project_qkv(l, h);
    const int window = c.is_full(l) ? 0 : c.sliding_window;
    for (size_t i = 0; i < shapes.size(); ++i) {
        const ops::PassShape& shape = shapes[i];
        ops_->qkv_norm_rope(l, shape, *requests[i].cache);
        if (shape.prompt > 0) ops_->attention_causal(l, shape, *requests[i].cache, window);
        if (shape.canvas_tokens() > 0) {
            // A sliding layer's canvas row sees the cache's last (window - 1) positions plus its
            // whole canvas (no window inside the canvas).
            const int cached = shape.canvas_position0();
            const int first_key = window > 0 ? std::max(0, cached - (window - 1)) : 0;
            ops_->attention_canvas(l, shape, *requests[i].cache, first_key);
        }
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
    for (const ops::PassShape& shape : shapes) {
        const int64_t f = shape.first, n = shape.prompt, nc = shape.canvas_tokens();
        if (n > 0)
            ops_->residual_two_branches({Act::x, f, n}, {Act::dense, f, n}, {Act::moe, f, n}, l,
                                        Norm::post_ff1, Norm::post_ff2, Norm::post_ff,
                                        lw.encoder_layer_scalar);
        if (nc > 0)
            ops_->residual_two_branches({Act::x, f + n, nc}, {Act::dense, f + n, nc},
                                        {Act::moe, f + n, nc}, l, Norm::post_ff1, Norm::post_ff2,
                                        Norm::post_ff, lw.decoder_layer_scalar);
    }
    return {};
}

void DiffusionGemma::encode_and_decode_batch(std::span<backend::ComputeBackend::BatchedRead> reads,
                                             const CancelToken& cancel) {
    // Checks first: a request that fails them gets its error and stays out of the passes.
    struct Item {
        backend::ComputeBackend::BatchedRead* read;
        ops::KvCacheState* cache;
        std::unique_ptr<ops::CanvasState> canvas;
        int64_t tokens;
    };
    std::vector<Item> items;
    const int64_t T = ops_->max_pass_tokens();
    const bool fused = ops_->fuses_passes();
    for (auto& r : reads) {
        auto* cache = static_cast<ops::KvCacheState*>(r.cache);
        const int64_t prompt = static_cast<int64_t>(r.prompt.ids.size());
        const int64_t canvas = static_cast<int64_t>(r.batch.rows) * r.batch.width;
        const auto ok = [&]() -> Result<void> {
            DG_TRY(check_room(*cache, r.prompt.ids.size()));
            DG_TRY(check_prompt(r.prompt));
            return check_batch(r.batch);
        }();
        if (!ok) {
            r.decoded = ok.error();
            continue;
        }
        // A request that needs several passes of its own runs alone (decode_rows splits it).
        if (prompt > T || canvas > T || (fused && prompt + canvas > T)) {
            r.decoded = encode_prompt_and_decode(*r.cache, r.prompt, r.batch, cancel);
            continue;
        }
        auto made = ops_->create_canvas(r.batch.rows, r.batch.width);
        if (!made) {
            r.decoded = made.error();
            continue;
        }
        (*made)->rows_ = r.batch.rows;
        (*made)->width_ = r.batch.width;
        items.push_back({&r, cache, std::move(made.value()),
                         fused ? prompt + canvas : std::max(prompt, canvas)});
    }
    // Greedy groups that fit one pass each; a device that does not fuse runs every group as an
    // encoder pass over all its prompts, then a decoder pass over all its canvas rows (the
    // passes a lone request runs, so its rows compute exactly as they would alone).
    for (size_t g0 = 0; g0 < items.size();) {
        size_t g1 = g0;
        int64_t tokens = 0;
        while (g1 < items.size() && (g1 == g0 || tokens + items[g1].tokens <= T))
            tokens += items[g1++].tokens;
        std::vector<PassRequest> encode, decode;
        for (size_t i = g0; i < g1; ++i) {
            Item& it = items[i];
            const CanvasPart part{&it.read->batch, 0, it.read->batch.rows, it.canvas.get()};
            const size_t n = it.read->prompt.ids.size();
            if (fused) {
                encode.push_back({it.cache, &it.read->prompt, 0, n, part});
            } else {
                encode.push_back({it.cache, &it.read->prompt, 0, n, {}});
                decode.push_back({it.cache, &it.read->prompt, 0, 0, part});
            }
        }
        Result<void> ran = run_pass(encode, cancel);
        if (ran && !decode.empty()) ran = run_pass(decode, cancel);
        for (size_t i = g0; i < g1; ++i) {
            Item& it = items[i];
            if (ran)
                it.read->decoded = std::unique_ptr<backend::DecodedCanvas>(std::move(it.canvas));
            else
                it.read->decoded = ran.error();
        }
        g0 = g1;
    }
}

Result<void> DiffusionGemma::logits(const backend::DecodedCanvas& canvas, std::vector<float>& out) {
    return ops_->full_logits(static_cast<const ops::CanvasState&>(canvas), ops::kModelLevel,
                             Norm::final_norm,
                             static_cast<float>(weights_->config.final_logit_softcapping), out);
}

Result<void> DiffusionGemma::check_query(const ops::CanvasState& canvas,
                                         const backend::PositionQuery& q) const {
    const int V = weights_->config.vocab_size;
    if (q.row < 0 || q.row >= canvas.rows_ || q.pos < 0 || q.pos >= canvas.width_)
        return bad_input("readout position (row " + std::to_string(q.row) + ", pos " +
                         std::to_string(q.pos) + ") is outside the canvas");
    for (TokenId id : q.ids)
        if (id < 0 || id >= V)
            return bad_input("label id " + std::to_string(id) + " is outside [0, " +
                             std::to_string(V) + ")");
    return {};
}

Result<std::vector<backend::PositionReadout>> DiffusionGemma::read_positions(
    const backend::DecodedCanvas& canvas, std::span<const backend::PositionQuery> queries) {
    const backend::ComputeBackend::CanvasQueries one{&canvas, queries};
    auto all = read_positions_batch({&one, 1});
    if (!all) return all.error();
    return std::move(all.value().front());
}

Result<std::vector<std::vector<backend::PositionReadout>>> DiffusionGemma::read_positions_batch(
    std::span<const backend::ComputeBackend::CanvasQueries> reads) {
    std::vector<ops::Ops::CanvasToken> at;
    std::vector<backend::PositionQuery> queries;
    for (const auto& r : reads) {
        const auto& canvas = static_cast<const ops::CanvasState&>(*r.canvas);
        for (const auto& q : r.queries) {
            DG_TRY(check_query(canvas, q));
            at.push_back({&canvas, static_cast<int64_t>(q.row) * canvas.width_ + q.pos});
            queries.push_back(q);
        }
    }
    std::vector<backend::PositionReadout> flat(queries.size());
    if (!queries.empty())
        DG_TRY(ops_->read_positions(at, queries, ops::kModelLevel, Norm::final_norm,
                                    static_cast<float>(weights_->config.final_logit_softcapping),
                                    flat));
    std::vector<std::vector<backend::PositionReadout>> out(reads.size());
    size_t next = 0;
    for (size_t i = 0; i < reads.size(); ++i)
        for (size_t k = 0; k < reads[i].queries.size(); ++k)
            out[i].push_back(std::move(flat[next++]));
    return out;
}

Result<void> DiffusionGemma::read_cache(const backend::KvCache& cache, int layer,
                                        std::vector<float>& k, std::vector<float>& v) {
    if (layer < 0 || layer >= weights_->config.num_layers)
        return bad_input("layer " + std::to_string(layer) + " is outside the model");
    return ops_->read_cache(static_cast<const ops::KvCacheState&>(cache), layer, k, v);
}

}  // namespace engine::model
