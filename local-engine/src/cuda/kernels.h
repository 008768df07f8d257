#pragma once
// Launchers of the CUDA backend's own kernels (kernels.cu). Plain C++ declarations so the host
// side (cuda_ops.cpp, compiled by the C++ compiler) can call them. Every launcher enqueues
// on `stream` and returns at once; errors surface at the next checked CUDA call.
//
// Storage conventions: bf16 values travel as uint16_t (the raw bit pattern); activations that
// feed cuBLAS are bf16, everything a kernel reduces over is fp32. Matrices are row-major.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace engine::cuda {

using bf16_t = uint16_t;

// Source dtypes for convert_to_bf16 (the safetensors dtypes the loader accepts).
enum class SourceType { F32 = 0, BF16 = 1, F16 = 2 };

// dst[i] = bf16(src[i]) (round to nearest even); a plain copy for bf16 sources.
void convert_to_bf16(SourceType type, const void* src, size_t n, bf16_t* dst, cudaStream_t stream);
// dst[i] = float(src[i]).
void convert_to_f32(SourceType type, const void* src, size_t n, float* dst, cudaStream_t stream);
// Deterministic pseudo-random weights made on the device: uniform in [offset - scale,
// offset + scale), from a counter hash of (seed, i). Used by the synthetic-weights benchmark.
void fill_random_bf16(bf16_t* dst, size_t n, uint64_t seed, float scale, float offset,
                      cudaStream_t stream);
void fill_random_f32(float* dst, size_t n, uint64_t seed, float scale, float offset,
                     cudaStream_t stream);
void f32_to_bf16(const float* src, bf16_t* dst, size_t n, cudaStream_t stream);

// out[t] = bf16(E[ids[t]] * scale) widened to float; `scale` is already rounded to bf16 (the
// reference multiplies by the normaliser in the weight dtype). Ids are clamped to the vocab.
void embed_rows(const int32_t* ids, int n, const bf16_t* table, int vocab, int hidden, float scale,
                float* out, cudaStream_t stream);

// RMSNorm of each row of `in` [n, hidden] (fp32 math): y = x * rsqrt(mean(x^2) + eps)
// * (weight or 1) * (mul or 1) * extra. Writes bf16 (out_bf16) and/or fp32 (out_f32; may alias
// `in`). `add` (nullable) is added to the input first (x = in + add).
void rmsnorm_rows(const float* in, const float* add, int n, int hidden, const float* weight,
                  const float* mul, float extra, float eps, bf16_t* out_bf16, float* out_f32,
                  cudaStream_t stream);

// x[t] += rmsnorm(o[t]) * weight.
void residual_add_norm(float* x, const float* o, int n, int hidden, const float* weight, float eps,
                       cudaStream_t stream);

// End of a layer: x = (x + post(post1(d) + post2(m))) * scalar, where scalar is enc_scalar for
// the first `encoder_rows` rows and dec_scalar for the rest.
void ffn_combine(float* x, const float* d, const float* m, int n, int hidden, const float* w_post1,
                 const float* w_post2, const float* w_post, float eps, int encoder_rows,
                 float enc_scalar, float dec_scalar, cudaStream_t stream);

// Q/K/V after the fused projection: qkv [n, ld] fp32 holds per token [Q heads | K heads | V
// heads (when has_v)]. Applies q_norm / k_norm (with weight), the weightless v-norm, NeoX RoPE
// (inv_freq [head_dim/2], zeros past the rotated part) to Q and K, and scatters:
//   Q -> q_out [heads][q_stride][head_dim] (token t at row t),
//   tokens t < prompt_rows (encoder rows, position cache_pos + t) -> k_cache/v_cache
//       [kv_heads][cache_stride][head_dim] at row cache_pos + t,
//   tokens t >= prompt_rows (canvas rows, position canvas_pos + (t - prompt_rows) % width) ->
//       k_canvas/v_canvas [kv_heads][canvas_stride][head_dim] at row t - prompt_rows.
struct QkvPostParams {
    const float* qkv = nullptr;
    int n = 0, ld = 0;
    int heads = 0, kv_heads = 0, head_dim = 0;
    bool has_v = true;
    const float* q_norm = nullptr;
    const float* k_norm = nullptr;
    const float* inv_freq = nullptr;
    float eps = 1e-6f;
    bf16_t* q_out = nullptr;
    int q_stride = 0;
    int prompt_rows = 0, cache_pos = 0, cache_stride = 0;
    bf16_t* k_cache = nullptr;
    bf16_t* v_cache = nullptr;
    int canvas_pos = 0, width = 1, canvas_stride = 0;
    bf16_t* k_canvas = nullptr;
    bf16_t* v_canvas = nullptr;
};
void qkv_post(const QkvPostParams& p, cudaStream_t stream);

// Masked softmax of attention scores [heads * rows, cols] (fp32, row-major, ld = cols) into bf16
// probabilities of the same shape. Row i of each head may attend to columns [lo, hi]:
//   causal (encoder rows): q = first_pos + i; hi = q; lo = window > 0 ? max(0, q - window + 1) : 0
//   canvas (decoder rows): hi = cols - 1; lo = first_key (the model's sliding-window start in the
//       cache columns; the row's own canvas columns follow the cache's)
void masked_softmax(const float* scores, bf16_t* probs, int heads, int rows, int cols, bool causal,
                    int first_pos, int first_key, int window, cudaStream_t stream);

// Gated GELU(tanh): in [n, 2*inter] (gate | up, fp32 or bf16) -> out [n, inter] bf16.
void gelu_gate_f32(const float* in, int n, int inter, bf16_t* out, cudaStream_t stream);
void gelu_gate_bf16(const bf16_t* in, int n, int inter, bf16_t* out, cudaStream_t stream);

// Router: logits [n, experts] fp32 -> softmax (fp32), top-k of the probabilities (lowest index on
// ties), renormalised to sum 1, times per_expert_scale. idx/weight are [n, k].
void router_topk(const float* logits, int n, int experts, int k, const float* per_expert_scale,
                 int32_t* idx, float* weight, cudaStream_t stream);

// Expert dispatch. counts[e] += 1 per (token, k) choice (counts zeroed by the caller).
void moe_count(const int32_t* idx, int assignments, int32_t* counts, cudaStream_t stream);
// cursor[e] starts at the expert's first slot; every choice a gets slot_of[a] (its row in the
// gathered matrix) and row_token[slot] = a / k.
void moe_assign(const int32_t* idx, int assignments, int k, int32_t* cursor, int32_t* slot_of,
                int32_t* row_token, cudaStream_t stream);
// dst[s] = src[row_token[s]] (bf16 rows of `hidden`).
void gather_rows_bf16(const bf16_t* src, const int32_t* row_token, int rows, int hidden,
                      bf16_t* dst, cudaStream_t stream);
// out[t] = sum_j weight[t, j] * y[slot_of[t, j]] (fp32 out, bf16 y), in j order.
void moe_combine(const bf16_t* y, const int32_t* slot_of, const float* weight, int n, int k,
                 int hidden, float* out, cudaStream_t stream);

// dst[i] = src[rows[i]] (fp32 rows).
void gather_rows_f32(const float* src, const int32_t* rows, int count, int hidden, float* dst,
                     cudaStream_t stream);

// Per row of logits [rows, vocab]: apply the soft-cap in place (cap > 0), then the logsumexp,
// the argmax (lowest id on ties) and its value.
void softcap_reduce(float* logits, int rows, int vocab, float cap, float* lse, int32_t* argmax,
                    float* max_value, cudaStream_t stream);
// out[i] = logits[row[i] * vocab + ids[i]].
void gather_logits(const float* logits, int vocab, const int32_t* row, const int32_t* ids,
                   int count, float* out, cudaStream_t stream);
// Soft-cap in place without reductions.
void softcap_inplace(float* logits, size_t n, float cap, cudaStream_t stream);
// probs[r] = bf16(softmax(logits[r])) over `vocab` (fp32 math).
void softmax_rows_bf16(const float* logits, int rows, int vocab, bf16_t* probs,
                       cudaStream_t stream);

}  // namespace engine::cuda
