#pragma once
// ComputeBackend: the one interface between the backend-neutral drivers (slot reads, the
// generation loop, the trace API) and a device (CPU now, CUDA beside it). A backend owns its
// copy or view of the weights, its KV caches and its activations; the drivers only see opaque
// handles and host vectors. Everything a backend must compute is MODEL-SPEC sections 2-4 as
// checked against transformers modeling_diffusion_gemma.py:
//
//   encode(tokens): causal pass over `tokens` at positions cache.length() .. +n-1, appending
//       every layer's K (after k_norm and RoPE) and V (after the weightless v-norm, no RoPE) to
//       the cache. Sliding layers: a query at position p sees keys at positions p-window+1 .. p;
//       full layers: every key <= p. Uses each layer's ENCODER layer_scalar. The final norm and
//       head are not needed.
//   decode(batch): bidirectional pass over `rows` canvases of `width` tokens each, all at
//       positions P .. P+width-1 (P = cache length), reading the cache and never writing it.
//       Keys for a row: [cache | that row's canvas]; sliding layers see only the cache's last
//       (window-1) positions plus the whole canvas (no window inside the canvas); full layers see
//       the whole cache. Rows never see each other. Uses the DECODER layer_scalar. The input is
//       rmsnorm_noweight(embed(ids)*sqrt(hidden) + sc), sc = 0 when no self-conditioning logits
//       are given, else sc = selfcond_mlp(softmax(sc_logits) @ E * sqrt(hidden)).
//   readouts: final RMSNorm, tied head (E), soft-cap tanh(x/c)*c with c = final_logit_softcapping
//       (no cap when 0), all in fp32 on the output side.
//
// Threading: one backend is used by one thread at a time (the Engine serialises calls); a
// backend may use any number of threads inside a call. Handles are only valid with the backend
// that made them.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/cancel.h"
#include "engine/model_plan.h"
#include "engine/result.h"
#include "engine/tokenizer.h"
#include "model/memory_plan.h"
#include "model/weights.h"
#include "vision/image_preprocess.h"

namespace engine::backend {

// A backend-owned KV cache for one sequence (the encoded prompt, plus committed canvases).
class KvCache {
  public:
    virtual ~KvCache() = default;
    virtual int length() const = 0;  // tokens encoded so far (= the next position)
};

// The decoder output of one batch: final-layer hidden states of rows*width positions, kept by
// the backend until the handle is destroyed. The readouts below read from it.
class DecodedCanvas {
  public:
    virtual ~DecodedCanvas() = default;
    virtual int rows() const = 0;
    virtual int width() const = 0;
};

struct DecodeBatch {
    int rows = 0;
    int width = 0;
    std::span<const TokenId> ids;  // rows*width ids, row-major; each in [0, vocab)
    // Self-conditioning input: the previous step's logits AFTER the temperature division,
    // [rows*width*vocab] row-major on the host, or nullptr on a first step (sc = 0). The backend
    // computes softmax over each position's vocab row in fp32 (rounding the probabilities to the
    // embedding dtype, as the reference does), multiplies by E and by the embedding scale.
    const float* self_conditioning_logits = nullptr;
};

// One position to read out of a DecodedCanvas.
struct PositionQuery {
    int row = 0;
    int pos = 0;                   // 0 .. width-1
    std::span<const TokenId> ids;  // ids whose soft-capped logits are wanted (may be empty)
};

struct PositionReadout {
    std::vector<float> logits;  // soft-capped logits at PositionQuery::ids, same order
    float logsumexp = 0;        // over the whole vocabulary, of the soft-capped logits
    TokenId argmax = 0;         // unrestricted argmax (lowest id on ties)
    float max_logit = 0;        // the soft-capped logit of `argmax`
};

// A prompt some of whose rows take given embeddings instead of their token embeddings (an
// image's projected soft tokens at its image-token positions).
struct PromptInput {
    std::span<const TokenId> ids;
    std::span<const int64_t> embed_at;  // ascending prompt indices
    std::span<const float> embeds;      // [embed_at.size(), hidden] fp32
};

class ComputeBackend {
  public:
    virtual ~ComputeBackend() = default;

    // "cpu (2 threads)" or "cuda:0 (NVIDIA H200)".
    virtual std::string device_name() const = 0;
    const model::ModelConfig& config() const { return weights().config; }
    virtual const model::ModelWeights& weights() const = 0;

    // An empty cache able to hold `capacity` tokens (prompt + committed canvases). Errors: the
    // capacity exceeds what the device can hold (Engine error naming both numbers).
    virtual Result<std::unique_ptr<KvCache>> create_cache(int capacity) = 0;

    // A new cache of `capacity` tokens whose first `length` tokens are `src`'s, bit for bit (a
    // prompt prefix encoded once, continued by encode()). Errors: length exceeds src's length
    // or capacity, src was broken by a cancelled pass, the device cannot hold the copy.
    virtual Result<std::unique_ptr<KvCache>> copy_cache(const KvCache& src, int length,
                                                        int capacity) {
        (void)src, (void)length, (void)capacity;
        return engine_error(device_name() + ": this backend cannot copy KV caches");
    }
    // Bytes a cache of `capacity` tokens holds (0: unknown).
    virtual uint64_t cache_bytes(int capacity) const {
        (void)capacity;
        return 0;
    }

    // Causal encoder pass appending `ids` to `cache` (see the header comment). Honours `cancel`
    // between layers (returns engine::cancelled(); the cache is then unusable).
    virtual Result<void> encode(KvCache& cache, std::span<const TokenId> ids,
                                const CancelToken& cancel) = 0;

    // Bidirectional decoder pass of a batch of canvas rows over `cache`. Honours `cancel`
    // between layers.
    virtual Result<std::unique_ptr<DecodedCanvas>> decode(const KvCache& cache,
                                                          const DecodeBatch& batch,
                                                          const CancelToken& cancel) = 0;

    // Encoder pass of `prompt_ids` and decoder pass of `batch` over the resulting cache. A backend
    // that can run both in ONE sweep over the weights (layer l of the canvas rows needs only layer
    // l of the prompt's K/V) overrides this and says so in fuses_encode_decode(); the default runs
    // encode() then decode().
    virtual Result<std::unique_ptr<DecodedCanvas>> encode_and_decode(
        KvCache& cache, std::span<const TokenId> prompt_ids, const DecodeBatch& batch,
        const CancelToken& cancel) {
        if (auto r = encode(cache, prompt_ids, cancel); !r) return r.error();
        return decode(cache, batch, cancel);
    }
    virtual bool fuses_encode_decode() const { return false; }

    // encode() / encode_and_decode() of a prompt with embedding rows (PromptInput). Backends
    // without them take only prompts that have none.
    virtual Result<void> encode_prompt(KvCache& cache, const PromptInput& prompt,
                                       const CancelToken& cancel) {
        if (!prompt.embed_at.empty()) return no_embeddings();
        return encode(cache, prompt.ids, cancel);
    }
    virtual Result<std::unique_ptr<DecodedCanvas>> encode_prompt_and_decode(
        KvCache& cache, const PromptInput& prompt, const DecodeBatch& batch,
        const CancelToken& cancel) {
        if (!prompt.embed_at.empty()) return no_embeddings();
        return encode_and_decode(cache, prompt.ids, batch, cancel);
    }
    // Several requests' encode_prompt_and_decode in as few passes as the device allows: every
    // request's prompt rows and canvas rows go through each layer together, so the weights are
    // read once per pass rather than once per request (a cross-request batch). Each request
    // keeps its own cache; rows never attend across requests. Its results (canvas or error)
    // are those of encode_prompt_and_decode alone, bit for bit on the CPU. `cancel` stops the
    // whole batch. The default runs the requests one after another.
    struct BatchedRead {
        KvCache* cache = nullptr;  // empty, with room for the prompt
        PromptInput prompt;
        DecodeBatch batch;
        Result<std::unique_ptr<DecodedCanvas>> decoded = engine_error("not run");
    };
    virtual void encode_and_decode_batch(std::span<BatchedRead> reads, const CancelToken& cancel) {
        for (BatchedRead& r : reads)
            r.decoded = encode_prompt_and_decode(*r.cache, r.prompt, r.batch, cancel);
    }

    // The vision tower and projector over one preprocessed image: [soft tokens, hidden] fp32.
    // Errors: the model has no vision tower.
    virtual Result<std::vector<float>> embed_image(const vision::PatchedImage& image) {
        (void)image;
        return bad_input(device_name() + ": this backend has no vision tower");
    }

    // Full soft-capped logits of every position: out = [rows*width*vocab] fp32, row-major
    // (row, position, vocab). Used by generation.
    virtual Result<void> logits(const DecodedCanvas& canvas, std::vector<float>& out) = 0;

    // Constrained readout: final norm only at the queried positions; logsumexp and argmax over
    // the full vocabulary, logits only at the asked ids. One PositionReadout per query.
    virtual Result<std::vector<PositionReadout>> read_positions(
        const DecodedCanvas& canvas, std::span<const PositionQuery> queries) = 0;

    // read_positions of several canvases in one sweep over the head (a cross-request batch):
    // result[i] is what read_positions(*reads[i].canvas, reads[i].queries) gives alone.
    struct CanvasQueries {
        const DecodedCanvas* canvas = nullptr;
        std::span<const PositionQuery> queries;
    };
    virtual Result<std::vector<std::vector<PositionReadout>>> read_positions_batch(
        std::span<const CanvasQueries> reads) {
        std::vector<std::vector<PositionReadout>> out;
        for (const CanvasQueries& r : reads) {
            auto one = read_positions(*r.canvas, r.queries);
            if (!one) return one.error();
            out.push_back(std::move(one.value()));
        }
        return out;
    }

    // Debug/reference: one layer's cached K and V, each [length][kv_heads][head_dim] fp32.
    virtual Result<void> read_cache(const KvCache& cache, int layer, std::vector<float>& k,
                                    std::vector<float>& v) = 0;

  private:
    Error no_embeddings() const {
        return engine_error(device_name() + ": this backend takes no prompt embeddings (images)");
    }
};

// The CPU backend (our kernels + a thread pool). threads <= 0: all hardware threads. `bound`
// after each layer's weights are bound, with the fraction done; false from it cancels.
// `native`: the weights as published (bf16, FP8, NVFP4 read in place from the mapping,
// cpu/weight_gemm.h); false: every weight as f32 (the exact path).
Result<std::unique_ptr<ComputeBackend>> make_cpu_backend(
    std::shared_ptr<const model::ModelWeights> weights, int threads,
    const std::function<bool(double)>& bound = {}, bool native = false);

#ifdef DS_HAVE_CUDA
// The CUDA backend (defined under src/cuda/); device 0. memory_limit_bytes (0: none) caps the
// device memory its plan may use; nvfp4_fp4_inputs as EngineOptions.
Result<std::unique_ptr<ComputeBackend>> make_cuda_backend(
    std::shared_ptr<const model::ModelWeights> weights, uint64_t memory_limit_bytes = 0,
    bool nvfp4_fp4_inputs = false);
// The CUDA backend's memory plan for `config`, in words (model::MemoryPlan::describe).
std::string cuda_memory_plan(const model::ModelConfig& config);
// The same plan as a value (engine/model_plan.h), and each device's free memory now.
model::MemoryPlan cuda_plan(const model::ModelConfig& config);
std::vector<DeviceMemory> cuda_device_memory();
#endif

}  // namespace engine::backend
