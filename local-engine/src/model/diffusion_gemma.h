#pragma once
// The DiffusionGemma model, written once over ops::Ops (MODEL-SPEC sections 2-4): the layer
// sequence, the causal encoder and bidirectional decoder passes, self-conditioning and the
// readouts. A device backend is this model plus that device's operators: ModelBackend<Base>
// below wraps one as a ComputeBackend (Base = ComputeBackend, or an extension of it such as
// cuda::CudaBackend).

#include <memory>
#include <span>
#include <vector>

#include "backend/compute_backend.h"
#include "model/vision_tower.h"
#include "model/weights.h"
#include "ops/ops.h"

namespace engine::model {

class DiffusionGemma {
  public:
    // `vision_ops` runs the vision tower when the model has one (config vision_config).
    DiffusionGemma(std::shared_ptr<const ModelWeights> weights, std::unique_ptr<ops::Ops> ops,
                   std::unique_ptr<ops::VisionOps> vision_ops = nullptr);

    const ModelWeights& weights() const { return *weights_; }
    ops::Ops& ops() { return *ops_; }
    const ops::Ops& ops() const { return *ops_; }

    Result<std::unique_ptr<backend::KvCache>> create_cache(int capacity);
    Result<std::unique_ptr<backend::KvCache>> copy_cache(const backend::KvCache& src, int length,
                                                         int capacity);
    uint64_t cache_bytes(int capacity) const { return ops_->cache_bytes(capacity); }
    Result<void> encode(backend::KvCache& cache, std::span<const TokenId> ids,
                        const CancelToken& cancel);
    Result<std::unique_ptr<backend::DecodedCanvas>> decode(const backend::KvCache& cache,
                                                           const backend::DecodeBatch& batch,
                                                           const CancelToken& cancel);
    // One sweep over the weights when the device fuses passes and everything fits one pass;
    // otherwise encode() then decode().
    Result<std::unique_ptr<backend::DecodedCanvas>> encode_and_decode(
        backend::KvCache& cache, std::span<const TokenId> prompt_ids,
        const backend::DecodeBatch& batch, const CancelToken& cancel);
    // The same with embedding rows in the prompt (images' soft tokens).
    Result<void> encode_prompt(backend::KvCache& cache, const backend::PromptInput& prompt,
                               const CancelToken& cancel);
    Result<std::unique_ptr<backend::DecodedCanvas>> encode_prompt_and_decode(
        backend::KvCache& cache, const backend::PromptInput& prompt,
        const backend::DecodeBatch& batch, const CancelToken& cancel);
    // Several requests in shared passes (ComputeBackend::encode_and_decode_batch).
    void encode_and_decode_batch(std::span<backend::ComputeBackend::BatchedRead> reads,
                                 const CancelToken& cancel);
    Result<std::vector<float>> embed_image(const vision::PatchedImage& image);
    Result<void> logits(const backend::DecodedCanvas& canvas, std::vector<float>& out);
    Result<std::vector<backend::PositionReadout>> read_positions(
        const backend::DecodedCanvas& canvas, std::span<const backend::PositionQuery> queries);
    Result<std::vector<std::vector<backend::PositionReadout>>> read_positions_batch(
        std::span<const backend::ComputeBackend::CanvasQueries> reads);
    Result<void> read_cache(const backend::KvCache& cache, int layer, std::vector<float>& k,
                            std::vector<float>& v);

  private:
    // Checks a query against its canvas and the vocabulary.
    Result<void> check_query(const ops::CanvasState& canvas, const backend::PositionQuery& q) const;
    // Canvas rows of one pass: `rows` of the batch from row `first_row`.
    struct CanvasPart {
        const backend::DecodeBatch* batch = nullptr;
        int first_row = 0, rows = 0;
        ops::CanvasState* out = nullptr;
    };
    Result<void> check_ids(std::span<const TokenId> ids) const;
    Result<void> check_batch(const backend::DecodeBatch& batch) const;
    Result<void> check_room(const ops::KvCacheState& cache, size_t more) const;
    Result<void> check_prompt(const backend::PromptInput& prompt) const;
    // Decoder rows in passes the device can hold; the first pass also carries `prompt`.
    Result<std::unique_ptr<backend::DecodedCanvas>> decode_rows(ops::KvCacheState& cache,
                                                                const backend::PromptInput& prompt,
                                                                const backend::DecodeBatch& batch,
                                                                const CancelToken& cancel);
    // One request's part of a pass: prompt rows [first, first + count) (causal, appended to its
    // cache), then its canvas rows.
    struct PassRequest {
        ops::KvCacheState* cache = nullptr;
        const backend::PromptInput* prompt = nullptr;
        size_t first = 0, count = 0;
        CanvasPart canvas;
    };
    // One pass over the requests' rows, back to back in the workspace.
    Result<void> run_pass(std::span<const PassRequest> requests, const CancelToken& cancel);
    Result<void> run_pass(ops::KvCacheState& cache, const backend::PromptInput& prompt,
                          size_t first, size_t count, const CanvasPart& canvas,
                          const CancelToken& cancel) {
        const PassRequest one{&cache, &prompt, first, count, canvas};
        return run_pass({&one, 1}, cancel);
    }
    // Overwrites the embedded prompt rows of this pass that PromptInput gives embeddings for.
    // `row0`: the workspace row of prompt index `first`.
    Result<void> place_embeddings(const backend::PromptInput& prompt, size_t first, size_t count,
                                  int64_t row0);
    // The decoder input: rmsnorm_noweight(embed(ids) * scale + self_conditioning(logits)).
    Result<void> canvas_input(const ops::PassShape& shape, const CanvasPart& canvas);
    // One layer over every row of the pass (MODEL-SPEC section 3); shapes[i] is requests[i]'s.
    Result<void> layer(int l, std::span<const ops::PassShape> shapes,
                       std::span<const PassRequest> requests);

    std::shared_ptr<const ModelWeights> weights_;
    std::unique_ptr<ops::Ops> ops_;
    std::unique_ptr<VisionTower> vision_;  // null without a vision tower
    float embed_scale_ = 1.0f;             // sqrt(hidden), rounded to bf16 with bf16 embeddings
    bool round_probs_bf16_ = false;
};

// A ComputeBackend that is the model over one device's operators.
template <class Base>
class ModelBackend : public Base {
  public:
    explicit ModelBackend(std::unique_ptr<DiffusionGemma> model) : model_(std::move(model)) {}

    std::string device_name() const override { return model_->ops().device_name(); }
    const ModelWeights& weights() const override { return model_->weights(); }
    Result<std::unique_ptr<backend::KvCache>> create_cache(int capacity) override {
        return model_->create_cache(capacity);
    }
    Result<std::unique_ptr<backend::KvCache>> copy_cache(const backend::KvCache& src, int length,
                                                         int capacity) override {
        return model_->copy_cache(src, length, capacity);
    }
    uint64_t cache_bytes(int capacity) const override { return model_->cache_bytes(capacity); }
    Result<void> encode(backend::KvCache& cache, std::span<const TokenId> ids,
                        const CancelToken& cancel) override {
        return model_->encode(cache, ids, cancel);
    }
    Result<std::unique_ptr<backend::DecodedCanvas>> decode(const backend::KvCache& cache,
                                                           const backend::DecodeBatch& batch,
                                                           const CancelToken& cancel) override {
        return model_->decode(cache, batch, cancel);
    }
    Result<std::unique_ptr<backend::DecodedCanvas>> encode_and_decode(
        backend::KvCache& cache, std::span<const TokenId> prompt_ids,
        const backend::DecodeBatch& batch, const CancelToken& cancel) override {
        return model_->encode_and_decode(cache, prompt_ids, batch, cancel);
    }
    bool fuses_encode_decode() const override { return model_->ops().fuses_passes(); }
    Result<void> encode_prompt(backend::KvCache& cache, const backend::PromptInput& prompt,
                               const CancelToken& cancel) override {
        return model_->encode_prompt(cache, prompt, cancel);
    }
    Result<std::unique_ptr<backend::DecodedCanvas>> encode_prompt_and_decode(
        backend::KvCache& cache, const backend::PromptInput& prompt,
        const backend::DecodeBatch& batch, const CancelToken& cancel) override {
        return model_->encode_prompt_and_decode(cache, prompt, batch, cancel);
    }
    void encode_and_decode_batch(std::span<backend::ComputeBackend::BatchedRead> reads,
                                 const CancelToken& cancel) override {
        model_->encode_and_decode_batch(reads, cancel);
    }
    Result<std::vector<float>> embed_image(const vision::PatchedImage& image) override {
        return model_->embed_image(image);
    }
    Result<void> logits(const backend::DecodedCanvas& canvas, std::vector<float>& out) override {
        return model_->logits(canvas, out);
    }
    Result<std::vector<backend::PositionReadout>> read_positions(
        const backend::DecodedCanvas& canvas,
        std::span<const backend::PositionQuery> queries) override {
        return model_->read_positions(canvas, queries);
    }
    Result<std::vector<std::vector<backend::PositionReadout>>> read_positions_batch(
        std::span<const backend::ComputeBackend::CanvasQueries> reads) override {
        return model_->read_positions_batch(reads);
    }
    Result<void> read_cache(const backend::KvCache& cache, int layer, std::vector<float>& k,
                            std::vector<float>& v) override {
        return model_->read_cache(cache, layer, k, v);
    }

  protected:
    std::unique_ptr<DiffusionGemma> model_;
};

}  // namespace engine::model
