#pragma once
// ops::Ops: the operators a device implements for the model. The DiffusionGemma layer sequence,
// the encoder/decoder passes, self-conditioning and the readouts are written once, over this
// interface, in model/diffusion_gemma.cpp; a device (cpu/cpu_ops.cpp, cuda/cuda_ops.cpp) only
// says how each operator runs (CTranslate2's split: one model, operators per device).
//
// Operators work on the activation buffers of a pass workspace, named by Act and addressed in
// rows (Rows); begin_pass() plans every buffer for the pass's token count once, so nothing is
// allocated inside the layer loop. The device picks each buffer's element type (fp32 on the
// CPU; the CUDA backend keeps GEMM inputs in bf16), so the model never touches their memory.
// Weights are named by layer and role; a device maps them to its own copy (fused Q/K/V or
// gate/up on CUDA, separate fp32 matrices on the CPU).
//
// Operators enqueue work and may return before it is done (CUDA); errors that only the device
// can see surface at the next Result-returning call, end_pass() at the latest.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/compute_backend.h"
#include "engine/result.h"
#include "engine/tokenizer.h"

namespace engine::ops {

// Activation buffers of the pass workspace; each holds up to the pass's token count of rows.
enum class Act : uint8_t {
    x,          // residual stream [tokens, hidden], fp32 on every device
    h,          // normed input of a projection or an MLP [tokens, hidden]
    attn,       // attention output [tokens, heads * head_dim], the input of o_proj
    o,          // o_proj output [tokens, hidden]
    dense,      // dense MLP output [tokens, hidden]
    moe,        // MoE output [tokens, hidden]
    expert_in,  // the experts' input [tokens, hidden]
    router,     // router logits [tokens, experts]
    sc,         // self-conditioning [tokens, hidden], fp32
};

// Rows [first, first + count) of a workspace buffer.
struct Rows {
    Act act = Act::x;
    int64_t first = 0;
    int64_t count = 0;
};

// Layer index of the model-level weights (final norm, self-conditioning).
inline constexpr int kModelLevel = -1;

// Norm weight vectors; `none` is the weightless RMSNorm.
enum class Norm : uint8_t {
    none,
    input,           // input_layernorm
    post_attention,  // post_attention_layernorm
    pre_ff,          // pre_feedforward_layernorm (dense MLP input)
    post_ff,         // post_feedforward_layernorm (after the two branches are summed)
    pre_ff2,         // pre_feedforward_layernorm_2 (experts' input)
    post_ff1,        // post_feedforward_layernorm_1 (dense branch)
    post_ff2,        // post_feedforward_layernorm_2 (MoE branch)
    final_norm,      // model level
    self_cond_pre,   // model level: the self-conditioning block's pre_norm
};

// Plain projections y = x W^T.
enum class Matrix : uint8_t { o_proj, router };

// GELU(tanh)-gated MLPs: down(gelu(gate(x)) * up(x)).
enum class Mlp : uint8_t { dense, self_conditioning /* model level */ };

// The rows of one request in a pass: `prompt` rows first (causal, at positions start ..
// start+prompt-1, appended to the request's cache), then rows*width canvas rows (bidirectional,
// row r's token i at position start+prompt+i, reading the cache and never writing it). A pass
// may carry several requests (a cross-request batch), each with its own cache: request i's rows
// are workspace rows [first, first + tokens()), the requests back to back in order.
struct PassShape {
    int start = 0;  // cache length before the pass
    int prompt = 0;
    int rows = 0, width = 0;
    int64_t first = 0;  // the request's first workspace row (0 for a pass of one request)
    int64_t canvas_tokens() const { return static_cast<int64_t>(rows) * width; }
    int64_t tokens() const { return prompt + canvas_tokens(); }
    int canvas_position0() const { return start + prompt; }
    int64_t first_canvas_row() const { return first + prompt; }
};

// A device's KV cache: the model keeps the length and whether a cancelled pass broke it.
class KvCacheState : public backend::KvCache {
  public:
    int length() const override { return length_; }
    int capacity_ = 0;
    int length_ = 0;
    bool broken_ = false;  // a cancelled encode leaves a partial cache
};

// A device's decoded canvas: final-layer hidden states (before the final norm).
class CanvasState : public backend::DecodedCanvas {
  public:
    int rows() const override { return rows_; }
    int width() const override { return width_; }
    int rows_ = 0, width_ = 0;
};

class Ops {
  public:
    virtual ~Ops() = default;

    virtual std::string device_name() const = 0;
    // Tokens one pass may hold; longer work is split into passes by the model.
    virtual int max_pass_tokens() const = 0;
    // Whether one pass over prompt and canvas rows together is cheaper than two (it reads every
    // weight once); the CPU says no so that its passes stay those it always ran.
    virtual bool fuses_passes() const = 0;
    // Whether the token embeddings are stored as bf16 (the model then rounds its embedding
    // scale and the self-conditioning probabilities as the reference does).
    virtual bool embeddings_bf16() const = 0;

    // ---- caches, canvases, the workspace ----
    virtual Result<std::unique_ptr<KvCacheState>> create_cache(int capacity) = 0;
    virtual Result<std::unique_ptr<CanvasState>> create_canvas(int rows, int width) = 0;
    // A new cache of `capacity` tokens holding the first `length` tokens of `src`, the same bits
    // (a prompt prefix encoded once and reused by later requests; see driver/prefix_cache.h).
    // The model checks length <= src.length_ and length <= capacity.
    virtual Result<std::unique_ptr<KvCacheState>> copy_cache(const KvCacheState& src, int length,
                                                             int capacity) = 0;
    // Bytes a cache of `capacity` tokens holds on the device.
    virtual uint64_t cache_bytes(int capacity) const = 0;
    // One layer's cached K and V, each [length][kv_heads][head_dim] fp32.
    virtual Result<void> read_cache(const KvCacheState& cache, int layer, std::vector<float>& k,
                                    std::vector<float>& v) = 0;
    // Plans the workspace for the requests of a pass (allocating only when it grows) and the
    // RoPE tables of their positions. Errors: the pass does not fit the device.
    virtual Result<void> begin_pass(std::span<const PassShape> requests) = 0;
    Result<void> begin_pass(const PassShape& shape) { return begin_pass({&shape, 1}); }
    // Waits for the pass's queued work; reports device errors.
    virtual Result<void> end_pass() = 0;

    // ---- embedding ----
    // out = E[ids] * scale (one row per id; ids already checked against the vocabulary).
    virtual void embed(std::span<const TokenId> ids, float scale, Rows out) = 0;
    // out = softmax(logits) @ E * scale, one row per logits row ([out.count, vocab] fp32 on the
    // host), the probabilities rounded to bf16 first when `round_probs_bf16`.
    virtual Result<void> soft_embed(const float* logits, float scale, bool round_probs_bf16,
                                    Rows out) = 0;

    // ---- norms and residuals (eps from the config) ----
    // out = rmsnorm(in) * w (in and out may be the same rows).
    virtual void rmsnorm(Rows in, Rows out, int layer, Norm w) = 0;
    // x = rmsnorm(x + add) * w.
    virtual void add_rmsnorm(Rows x, Rows add, int layer, Norm w) = 0;
    // out = rmsnorm(in) * router_scale * extra (the router's input).
    virtual void router_input(Rows in, Rows out, int layer, float extra) = 0;
    // x += rmsnorm(o) * w.
    virtual void residual_rmsnorm(Rows x, Rows o, int layer, Norm w) = 0;
    // x = (x + rmsnorm(rmsnorm(a) * wa + rmsnorm(b) * wb) * wsum) * scalar.
    virtual void residual_two_branches(Rows x, Rows a, Rows b, int layer, Norm wa, Norm wb,
                                       Norm wsum, float scalar) = 0;

    // ---- attention ----
    // Q, K and V projections of `h` (all rows of the pass) into the workspace; on K=V layers
    // (no v_proj) V is the raw K projection.
    virtual void project_qkv(int layer, Rows h) = 0;
    // The three below work on one request's rows (shape.first ..) with its own cache. Per head: Q =
    // rope(rmsnorm(Q) * q_norm), K = rope(rmsnorm(K) * k_norm), V = rmsnorm(V) (NeoX RoPE at each
    // row's position, tables from begin_pass); the prompt rows' K and V are appended to `cache` at
    // rows start .. start+prompt-1.
    virtual void qkv_norm_rope(int layer, const PassShape& shape, KvCacheState& cache) = 0;
    // Prompt rows: softmax(Q K^T) V over the cache, causal; with window > 0 a query at p sees
    // keys p-window+1 .. p only. Writes Act::attn rows [first, first + prompt).
    virtual void attention_causal(int layer, const PassShape& shape, const KvCacheState& cache,
                                  int window) = 0;
    // Canvas rows: keys = cache positions [first_key, start+prompt) then the row's own canvas
    // (every canvas key, no mask inside it); rows never see each other. Writes Act::attn rows
    // [first + prompt, first + tokens).
    virtual void attention_canvas(int layer, const PassShape& shape, const KvCacheState& cache,
                                  int first_key) = 0;

    // ---- projections, MLPs, experts ----
    virtual void linear(int layer, Matrix w, Rows in, Rows out) = 0;
    virtual void gated_mlp(int layer, Mlp w, Rows in, Rows out) = 0;
    // Router logits -> softmax (fp32) -> top-k (lowest index on ties) renormalised to sum 1,
    // times per_expert_scale; the choices stay in the workspace for experts().
    virtual void router_topk(int layer, Rows logits) = 0;
    // out[t] = sum over t's choices of weight * expert_mlp(in[t]) (grouped expert GEMMs).
    virtual Result<void> experts(int layer, Rows in, Rows out) = 0;

    // ---- results ----
    // Copies rows of `x` into the canvas at token first_token (row-major rows*width).
    virtual void store_canvas(Rows x, CanvasState& canvas, int64_t first_token) = 0;
    // Every position's soft-capped logits: logits = cap(rmsnorm(hidden) * w @ head^T), cap(y) =
    // tanh(y/c)*c (none when c <= 0). out = [rows*width*vocab].
    virtual Result<void> full_logits(const CanvasState& canvas, int layer, Norm w, float cap,
                                     std::vector<float>& out) = 0;
    // The same logits at `tokens` (canvas token indices), reduced over the vocabulary:
    // logsumexp, argmax (lowest id on ties) and its value, plus the logits at queries[i].ids.
    // `at[i]`: query i's canvas and token (queries of several canvases read in one sweep over
    // the head; each query's result is the same whatever the others are).
    struct CanvasToken {
        const CanvasState* canvas = nullptr;
        int64_t token = 0;
    };
    virtual Result<void> read_positions(std::span<const CanvasToken> at,
                                        std::span<const backend::PositionQuery> queries, int layer,
                                        Norm w, float cap,
                                        std::vector<backend::PositionReadout>& out) = 0;
    Result<void> read_positions(const CanvasState& canvas, std::span<const int64_t> tokens,
                                std::span<const backend::PositionQuery> queries, int layer, Norm w,
                                float cap, std::vector<backend::PositionReadout>& out) {
        std::vector<CanvasToken> at;
        at.reserve(tokens.size());
        for (int64_t t : tokens) at.push_back({&canvas, t});
        return read_positions(at, queries, layer, w, cap, out);
    }

    // ---- tests: a workspace buffer's rows as fp32 on the host, and back ----
    virtual Result<void> download(Rows src, std::vector<float>& out) = 0;
    virtual Result<void> upload(Rows dst, std::span<const float> values) = 0;
};

}  // namespace engine::ops
