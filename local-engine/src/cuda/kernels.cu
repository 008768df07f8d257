// The CUDA backend's own kernels: norms, RoPE, masked softmax, router, expert dispatch,
// activations and readout reductions. Matrix products are cuBLAS (cuda_backend.cpp). All
// reductions run in fp32; values that feed a GEMM are rounded to bf16 once, at the end.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cfloat>
#include <cstdint>

#include "cuda/kernels.h"

namespace engine::cuda {
namespace {

constexpr int kBlock = 256;  // every block-reduction kernel runs 256 threads (8 warps)

__device__ __forceinline__ float bf16_bits_to_float(bf16_t v) {
    return __uint_as_float(static_cast<uint32_t>(v) << 16);
}

__device__ __forceinline__ bf16_t float_to_bf16_bits(float f) {
    return __bfloat16_as_ushort(__float2bfloat16_rn(f));
}

__device__ __forceinline__ float round_bf16(float f) {
    return bf16_bits_to_float(float_to_bf16_bits(f));
}

// Sum over the block; `scratch` holds 32 floats. Safe to call repeatedly with one scratch.
__device__ float block_sum(float v, float* scratch) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();  // every thread has read the previous result out of scratch[0]
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int warps = static_cast<int>(blockDim.x >> 5);
        float w = lane < warps ? scratch[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) w += __shfl_xor_sync(0xffffffffu, w, o);
        if (lane == 0) scratch[0] = w;
    }
    __syncthreads();
    return scratch[0];
}

__device__ float block_max(float v, float* scratch) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int warps = static_cast<int>(blockDim.x >> 5);
        float w = lane < warps ? scratch[lane] : -FLT_MAX;
        for (int o = 16; o > 0; o >>= 1) w = fmaxf(w, __shfl_xor_sync(0xffffffffu, w, o));
        if (lane == 0) scratch[0] = w;
    }
    __syncthreads();
    return scratch[0];
}

// Argmax over the block: the larger value wins, the lower index on equal values.
__device__ void block_argmax(float& v, int& i, float* vscratch, int* iscratch) {
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, v, o);
        const int oi = __shfl_xor_sync(0xffffffffu, i, o);
        if (ov > v || (ov == v && oi < i)) {
            v = ov;
            i = oi;
        }
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) {
        vscratch[warp] = v;
        iscratch[warp] = i;
    }
    __syncthreads();
    if (warp == 0) {
        const int warps = static_cast<int>(blockDim.x >> 5);
        float wv = lane < warps ? vscratch[lane] : -FLT_MAX;
        int wi = lane < warps ? iscratch[lane] : 0x7fffffff;
        for (int o = 16; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(0xffffffffu, wv, o);
            const int oi = __shfl_xor_sync(0xffffffffu, wi, o);
            if (ov > wv || (ov == wv && oi < wi)) {
                wv = ov;
                wi = oi;
            }
        }
        if (lane == 0) {
            vscratch[0] = wv;
            iscratch[0] = wi;
        }
    }
    __syncthreads();
    v = vscratch[0];
    i = iscratch[0];
}

unsigned grid_for(size_t n, int block = kBlock) {
    const size_t blocks = (n + static_cast<size_t>(block) - 1) / static_cast<size_t>(block);
    return static_cast<unsigned>(blocks < 65535u * 32u ? blocks : 65535u * 32u);
}

// ---- conversion and synthetic weights ----

__global__ void convert_to_bf16_kernel(int type, const void* src, size_t n, bf16_t* dst) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        if (type == 0) {
            dst[i] = float_to_bf16_bits(static_cast<const float*>(src)[i]);
        } else if (type == 1) {
            dst[i] = static_cast<const bf16_t*>(src)[i];
        } else {
            dst[i] = float_to_bf16_bits(__half2float(static_cast<const __half*>(src)[i]));
        }
    }
}

__global__ void convert_to_f32_kernel(int type, const void* src, size_t n, float* dst) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        if (type == 0) {
            dst[i] = static_cast<const float*>(src)[i];
        } else if (type == 1) {
            dst[i] = bf16_bits_to_float(static_cast<const bf16_t*>(src)[i]);
        } else {
            dst[i] = __half2float(static_cast<const __half*>(src)[i]);
        }
    }
}

// splitmix64 of (seed, i): a counter-based generator, so any element can be made independently.
__device__ __forceinline__ float hash_uniform(uint64_t seed, size_t i) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(i) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (1.0f / 16777216.0f);  // [0, 1)
}

__global__ void fill_random_bf16_kernel(bf16_t* dst, size_t n, uint64_t seed, float scale,
                                        float offset) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        dst[i] = float_to_bf16_bits(offset + scale * (2.0f * hash_uniform(seed, i) - 1.0f));
    }
}

__global__ void fill_random_f32_kernel(float* dst, size_t n, uint64_t seed, float scale,
                                       float offset) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        dst[i] = offset + scale * (2.0f * hash_uniform(seed, i) - 1.0f);
    }
}

__global__ void f32_to_bf16_kernel(const float* src, bf16_t* dst, size_t n) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        dst[i] = float_to_bf16_bits(src[i]);
    }
}

// ---- embeddings and norms ----

__global__ void embed_rows_kernel(const int32_t* ids, const bf16_t* table, int vocab, int hidden,
                                  float scale, float* out) {
    const int t = blockIdx.x;
    int id = ids[t];
    id = id < 0 ? 0 : (id >= vocab ? vocab - 1 : id);
    const bf16_t* row = table + static_cast<size_t>(id) * hidden;
    float* dst = out + static_cast<size_t>(t) * hidden;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        dst[i] = round_bf16(bf16_bits_to_float(row[i]) * scale);
    }
}

__global__ void rmsnorm_rows_kernel(const float* in, const float* add, int hidden,
                                    const float* weight, const float* mul, float extra, float eps,
                                    bf16_t* out_bf16, float* out_f32) {
    __shared__ float scratch[32];
    const size_t base = static_cast<size_t>(blockIdx.x) * hidden;
    float ss = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float v = in[base + i] + (add ? add[base + i] : 0.0f);
        ss += v * v;
    }
    const float total = block_sum(ss, scratch);
    const float r = rsqrtf(total / static_cast<float>(hidden) + eps);
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        float v = (in[base + i] + (add ? add[base + i] : 0.0f)) * r;
        if (weight) v *= weight[i];
        if (mul) v *= mul[i];
        v *= extra;
        if (out_bf16) out_bf16[base + i] = float_to_bf16_bits(v);
        if (out_f32) out_f32[base + i] = v;
    }
}

__global__ void residual_add_norm_kernel(float* x, const float* o, int hidden, const float* weight,
                                         float eps) {
    __shared__ float scratch[32];
    const size_t base = static_cast<size_t>(blockIdx.x) * hidden;
    float ss = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) ss += o[base + i] * o[base + i];
    const float r = rsqrtf(block_sum(ss, scratch) / static_cast<float>(hidden) + eps);
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        x[base + i] += o[base + i] * r * weight[i];
    }
}

// Needs `hidden` floats of dynamic shared memory for the sum of the two branch norms.
__global__ void ffn_combine_kernel(float* x, const float* d, const float* m, int hidden,
                                   const float* w_post1, const float* w_post2, const float* w_post,
                                   float eps, int encoder_rows, float enc_scalar,
                                   float dec_scalar) {
    extern __shared__ float sum_row[];
    __shared__ float scratch[32];
    const size_t base = static_cast<size_t>(blockIdx.x) * hidden;
    float sd = 0.0f, sm = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        sd += d[base + i] * d[base + i];
        sm += m[base + i] * m[base + i];
    }
    const float inv_h = 1.0f / static_cast<float>(hidden);
    const float rd = rsqrtf(block_sum(sd, scratch) * inv_h + eps);
    const float rm = rsqrtf(block_sum(sm, scratch) * inv_h + eps);
    float ss = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float s = d[base + i] * rd * w_post1[i] + m[base + i] * rm * w_post2[i];
        sum_row[i] = s;
        ss += s * s;
    }
    const float rs = rsqrtf(block_sum(ss, scratch) * inv_h + eps);
    const float scalar = static_cast<int>(blockIdx.x) < encoder_rows ? enc_scalar : dec_scalar;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        x[base + i] = (x[base + i] + sum_row[i] * rs * w_post[i]) * scalar;
    }
}

// ---- attention ----

// One block per (token, head slot); slots are [Q heads | K heads | V heads]. Needs head_dim
// floats of dynamic shared memory.
__global__ void qkv_post_kernel(QkvPostParams p) {
    extern __shared__ float vals[];
    __shared__ float scratch[32];
    const int t = blockIdx.x;
    const int slot = blockIdx.y;
    const int d = p.head_dim, half = d / 2;
    enum { kQ, kK, kV } kind;
    int head;
    if (slot < p.heads) {
        kind = kQ;
        head = slot;
    } else if (slot < p.heads + p.kv_heads) {
        kind = kK;
        head = slot - p.heads;
    } else {
        kind = kV;
        head = slot - p.heads - p.kv_heads;
    }
    int col;  // first column of this head's raw projection
    if (kind == kQ) {
        col = head * d;
    } else if (kind == kK || !p.has_v) {
        col = (p.heads + head) * d;  // K=V full layers: V is the raw K projection
    } else {
        col = (p.heads + p.kv_heads + head) * d;
    }
    const float* src = p.qkv + static_cast<size_t>(t) * p.ld + col;
    float ss = 0.0f;
    for (int i = threadIdx.x; i < d; i += blockDim.x) {
        vals[i] = src[i];
        ss += vals[i] * vals[i];
    }
    const float r = rsqrtf(block_sum(ss, scratch) / static_cast<float>(d) + p.eps);

    // Destination row.
    bf16_t* dst;
    const bool encoder_row = t < p.prompt_rows;
    const int pos = encoder_row ? p.cache_pos + t : p.canvas_pos + (t - p.prompt_rows) % p.width;
    if (kind == kQ) {
        dst = p.q_out + (static_cast<size_t>(head) * p.q_stride + t) * d;
    } else {
        bf16_t* base = encoder_row ? (kind == kK ? p.k_cache : p.v_cache)
                                   : (kind == kK ? p.k_canvas : p.v_canvas);
        const size_t stride = encoder_row ? p.cache_stride : p.canvas_stride;
        const size_t row = encoder_row ? static_cast<size_t>(p.cache_pos + t)
                                       : static_cast<size_t>(t - p.prompt_rows);
        dst = base + (static_cast<size_t>(head) * stride + row) * d;
    }
    if (kind == kV) {
        for (int i = threadIdx.x; i < d; i += blockDim.x) dst[i] = float_to_bf16_bits(vals[i] * r);
        return;
    }
    const float* w = kind == kQ ? p.q_norm : p.k_norm;
    for (int i = threadIdx.x; i < half; i += blockDim.x) {
        const float x1 = vals[i] * r * w[i];
        const float x2 = vals[i + half] * r * w[i + half];
        const float angle = static_cast<float>(pos) * p.inv_freq[i];
        float s, c;
        sincosf(angle, &s, &c);
        dst[i] = float_to_bf16_bits(x1 * c - x2 * s);
        dst[i + half] = float_to_bf16_bits(x2 * c + x1 * s);
    }
}

__global__ void masked_softmax_kernel(const float* scores, bf16_t* probs, int rows, int cols,
                                      bool causal, int first_pos, int first_key, int window) {
    __shared__ float scratch[32];
    const int row = blockIdx.x;  // head * rows + i
    const int i = row % rows;
    int lo, hi;
    if (causal) {
        const int q = first_pos + i;
        hi = q < cols - 1 ? q : cols - 1;
        lo = window > 0 ? max(0, q - window + 1) : 0;
    } else {
        hi = cols - 1;
        lo = first_key;
    }
    const float* s = scores + static_cast<size_t>(row) * cols;
    bf16_t* out = probs + static_cast<size_t>(row) * cols;
    float mx = -FLT_MAX;
    for (int j = lo + threadIdx.x; j <= hi; j += blockDim.x) mx = fmaxf(mx, s[j]);
    mx = block_max(mx, scratch);
    float sum = 0.0f;
    for (int j = lo + threadIdx.x; j <= hi; j += blockDim.x) sum += expf(s[j] - mx);
    sum = block_sum(sum, scratch);
    const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
        const float pr = (j >= lo && j <= hi) ? expf(s[j] - mx) * inv : 0.0f;
        out[j] = float_to_bf16_bits(pr);
    }
}

// ---- MLP, router, experts ----

__device__ __forceinline__ float gelu_tanh(float g) {
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    return 0.5f * g * (1.0f + tanhf(k0 * (g + 0.044715f * g * g * g)));
}

__global__ void gelu_gate_f32_kernel(const float* in, int n, int inter, bf16_t* out) {
    const size_t total = static_cast<size_t>(n) * inter;
    for (size_t e = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; e < total;
         e += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const size_t t = e / inter, i = e % inter;
        const float g = in[t * 2 * inter + i], u = in[t * 2 * inter + inter + i];
        out[e] = float_to_bf16_bits(gelu_tanh(g) * u);
    }
}

__global__ void gelu_gate_bf16_kernel(const bf16_t* in, int n, int inter, bf16_t* out) {
    const size_t total = static_cast<size_t>(n) * inter;
    for (size_t e = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; e < total;
         e += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const size_t t = e / inter, i = e % inter;
        const float g = bf16_bits_to_float(in[t * 2 * inter + i]);
        const float u = bf16_bits_to_float(in[t * 2 * inter + inter + i]);
        out[e] = float_to_bf16_bits(gelu_tanh(g) * u);
    }
}

// One thread per token: 128 experts and k = 8 make this a few thousand operations.
__global__ void router_topk_kernel(const float* logits, int n, int experts, int k,
                                   const float* per_expert_scale, int32_t* idx, float* weight) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const float* l = logits + static_cast<size_t>(t) * experts;
    float mx = -FLT_MAX;
    for (int e = 0; e < experts; ++e) mx = fmaxf(mx, l[e]);
    float sum = 0.0f;
    for (int e = 0; e < experts; ++e) sum += expf(l[e] - mx);
    int32_t* my_idx = idx + static_cast<size_t>(t) * k;
    float* my_w = weight + static_cast<size_t>(t) * k;
    float picked_sum = 0.0f;
    for (int j = 0; j < k; ++j) {
        int best = -1;
        float best_v = -FLT_MAX;
        for (int e = 0; e < experts; ++e) {
            bool taken = false;
            for (int q = 0; q < j; ++q) taken = taken || my_idx[q] == e;
            if (!taken && (best < 0 || l[e] > best_v)) {
                best = e;
                best_v = l[e];
            }
        }
        my_idx[j] = best;
        my_w[j] = expf(best_v - mx) / sum;  // the softmax probability
        picked_sum += my_w[j];
    }
    for (int j = 0; j < k; ++j) my_w[j] = my_w[j] / picked_sum * per_expert_scale[my_idx[j]];
}

__global__ void moe_count_kernel(const int32_t* idx, int assignments, int32_t* counts) {
    const int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (a < assignments) atomicAdd(&counts[idx[a]], 1);
}

__global__ void moe_assign_kernel(const int32_t* idx, int assignments, int k, int32_t* cursor,
                                  int32_t* slot_of, int32_t* row_token) {
    const int a = blockIdx.x * blockDim.x + threadIdx.x;
    if (a >= assignments) return;
    const int slot = atomicAdd(&cursor[idx[a]], 1);
    slot_of[a] = slot;
    row_token[slot] = a / k;
}

__global__ void gather_rows_bf16_kernel(const bf16_t* src, const int32_t* row_token, int hidden,
                                        bf16_t* dst) {
    const size_t s = blockIdx.x;
    const bf16_t* from = src + static_cast<size_t>(row_token[s]) * hidden;
    bf16_t* to = dst + s * hidden;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) to[i] = from[i];
}

__global__ void moe_combine_kernel(const bf16_t* y, const int32_t* slot_of, const float* weight,
                                   int k, int hidden, float* out) {
    const size_t t = blockIdx.x;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        float acc = 0.0f;
        for (int j = 0; j < k; ++j) {
            const size_t slot = static_cast<size_t>(slot_of[t * k + j]);
            acc += weight[t * k + j] * bf16_bits_to_float(y[slot * hidden + i]);
        }
        out[t * hidden + i] = acc;
    }
}

__global__ void gather_rows_f32_kernel(const float* src, const int32_t* rows, int hidden,
                                       float* dst) {
    const size_t r = blockIdx.x;
    const float* from = src + static_cast<size_t>(rows[r]) * hidden;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) dst[r * hidden + i] = from[i];
}

// ---- readout ----

__device__ __forceinline__ float softcap(float x, float cap) {
    return cap > 0.0f ? tanhf(x / cap) * cap : x;
}

__global__ void softcap_reduce_kernel(float* logits, int vocab, float cap, float* lse,
                                      int32_t* argmax, float* max_value) {
    __shared__ float vscratch[32];
    __shared__ int iscratch[32];
    float* row = logits + static_cast<size_t>(blockIdx.x) * vocab;
    float best = -FLT_MAX;
    int best_i = 0x7fffffff;
    for (int j = threadIdx.x; j < vocab; j += blockDim.x) {
        const float v = softcap(row[j], cap);
        row[j] = v;
        if (v > best) {  // j grows per thread, so the first maximum is kept
            best = v;
            best_i = j;
        }
    }
    block_argmax(best, best_i, vscratch, iscratch);
    float sum = 0.0f;
    for (int j = threadIdx.x; j < vocab; j += blockDim.x) sum += expf(row[j] - best);
    sum = block_sum(sum, vscratch);
    if (threadIdx.x == 0) {
        lse[blockIdx.x] = best + logf(sum);
        argmax[blockIdx.x] = best_i;
        max_value[blockIdx.x] = best;
    }
}

__global__ void gather_logits_kernel(const float* logits, int vocab, const int32_t* row,
                                     const int32_t* ids, int count, float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = logits[static_cast<size_t>(row[i]) * vocab + ids[i]];
}

__global__ void softcap_inplace_kernel(float* logits, size_t n, float cap) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        logits[i] = softcap(logits[i], cap);
    }
}

__global__ void softmax_rows_bf16_kernel(const float* logits, int vocab, bf16_t* probs) {
    __shared__ float scratch[32];
    const float* row = logits + static_cast<size_t>(blockIdx.x) * vocab;
    bf16_t* out = probs + static_cast<size_t>(blockIdx.x) * vocab;
    float mx = -FLT_MAX;
    for (int j = threadIdx.x; j < vocab; j += blockDim.x) mx = fmaxf(mx, row[j]);
    mx = block_max(mx, scratch);
    float sum = 0.0f;
    for (int j = threadIdx.x; j < vocab; j += blockDim.x) sum += expf(row[j] - mx);
    const float inv = 1.0f / block_sum(sum, scratch);
    for (int j = threadIdx.x; j < vocab; j += blockDim.x) {
        out[j] = float_to_bf16_bits(expf(row[j] - mx) * inv);
    }
}

}  // namespace

// ---- launchers ----

void convert_to_bf16(SourceType type, const void* src, size_t n, bf16_t* dst, cudaStream_t stream) {
    if (n == 0) return;
    convert_to_bf16_kernel<<<grid_for(n), kBlock, 0, stream>>>(static_cast<int>(type), src, n, dst);
}

void convert_to_f32(SourceType type, const void* src, size_t n, float* dst, cudaStream_t stream) {
    if (n == 0) return;
    convert_to_f32_kernel<<<grid_for(n), kBlock, 0, stream>>>(static_cast<int>(type), src, n, dst);
}

void fill_random_bf16(bf16_t* dst, size_t n, uint64_t seed, float scale, float offset,
                      cudaStream_t stream) {
    if (n == 0) return;
    fill_random_bf16_kernel<<<grid_for(n), kBlock, 0, stream>>>(dst, n, seed, scale, offset);
}

void fill_random_f32(float* dst, size_t n, uint64_t seed, float scale, float offset,
                     cudaStream_t stream) {
    if (n == 0) return;
    fill_random_f32_kernel<<<grid_for(n), kBlock, 0, stream>>>(dst, n, seed, scale, offset);
}

void f32_to_bf16(const float* src, bf16_t* dst, size_t n, cudaStream_t stream) {
    if (n == 0) return;
    f32_to_bf16_kernel<<<grid_for(n), kBlock, 0, stream>>>(src, dst, n);
}

void embed_rows(const int32_t* ids, int n, const bf16_t* table, int vocab, int hidden, float scale,
                float* out, cudaStream_t stream) {
    if (n <= 0) return;
    embed_rows_kernel<<<n, kBlock, 0, stream>>>(ids, table, vocab, hidden, scale, out);
}

void rmsnorm_rows(const float* in, const float* add, int n, int hidden, const float* weight,
                  const float* mul, float extra, float eps, bf16_t* out_bf16, float* out_f32,
                  cudaStream_t stream) {
    if (n <= 0) return;
    rmsnorm_rows_kernel<<<n, kBlock, 0, stream>>>(in, add, hidden, weight, mul, extra, eps,
                                                  out_bf16, out_f32);
}

void residual_add_norm(float* x, const float* o, int n, int hidden, const float* weight, float eps,
                       cudaStream_t stream) {
    if (n <= 0) return;
    residual_add_norm_kernel<<<n, kBlock, 0, stream>>>(x, o, hidden, weight, eps);
}

void ffn_combine(float* x, const float* d, const float* m, int n, int hidden, const float* w_post1,
                 const float* w_post2, const float* w_post, float eps, int encoder_rows,
                 float enc_scalar, float dec_scalar, cudaStream_t stream) {
    if (n <= 0) return;
    const size_t shared = static_cast<size_t>(hidden) * sizeof(float);
    ffn_combine_kernel<<<n, kBlock, shared, stream>>>(x, d, m, hidden, w_post1, w_post2, w_post,
                                                      eps, encoder_rows, enc_scalar, dec_scalar);
}

void qkv_post(const QkvPostParams& p, cudaStream_t stream) {
    if (p.n <= 0) return;
    const dim3 grid(static_cast<unsigned>(p.n), static_cast<unsigned>(p.heads + 2 * p.kv_heads));
    const size_t shared = static_cast<size_t>(p.head_dim) * sizeof(float);
    qkv_post_kernel<<<grid, 128, shared, stream>>>(p);
}

void masked_softmax(const float* scores, bf16_t* probs, int heads, int rows, int cols, bool causal,
                    int first_pos, int first_key, int window, cudaStream_t stream) {
    if (heads * rows <= 0 || cols <= 0) return;
    masked_softmax_kernel<<<heads * rows, kBlock, 0, stream>>>(scores, probs, rows, cols, causal,
                                                               first_pos, first_key, window);
}

void gelu_gate_f32(const float* in, int n, int inter, bf16_t* out, cudaStream_t stream) {
    const size_t total = static_cast<size_t>(n) * inter;
    if (total == 0) return;
    gelu_gate_f32_kernel<<<grid_for(total), kBlock, 0, stream>>>(in, n, inter, out);
}

void gelu_gate_bf16(const bf16_t* in, int n, int inter, bf16_t* out, cudaStream_t stream) {
    const size_t total = static_cast<size_t>(n) * inter;
    if (total == 0) return;
    gelu_gate_bf16_kernel<<<grid_for(total), kBlock, 0, stream>>>(in, n, inter, out);
}

void router_topk(const float* logits, int n, int experts, int k, const float* per_expert_scale,
                 int32_t* idx, float* weight, cudaStream_t stream) {
    if (n <= 0) return;
    router_topk_kernel<<<(n + 127) / 128, 128, 0, stream>>>(logits, n, experts, k, per_expert_scale,
                                                            idx, weight);
}

void moe_count(const int32_t* idx, int assignments, int32_t* counts, cudaStream_t stream) {
    if (assignments <= 0) return;
    moe_count_kernel<<<(assignments + kBlock - 1) / kBlock, kBlock, 0, stream>>>(idx, assignments,
                                                                                 counts);
}

void moe_assign(const int32_t* idx, int assignments, int k, int32_t* cursor, int32_t* slot_of,
                int32_t* row_token, cudaStream_t stream) {
    if (assignments <= 0) return;
    moe_assign_kernel<<<(assignments + kBlock - 1) / kBlock, kBlock, 0, stream>>>(
        idx, assignments, k, cursor, slot_of, row_token);
}

void gather_rows_bf16(const bf16_t* src, const int32_t* row_token, int rows, int hidden,
                      bf16_t* dst, cudaStream_t stream) {
    if (rows <= 0) return;
    gather_rows_bf16_kernel<<<rows, kBlock, 0, stream>>>(src, row_token, hidden, dst);
}

void moe_combine(const bf16_t* y, const int32_t* slot_of, const float* weight, int n, int k,
                 int hidden, float* out, cudaStream_t stream) {
    if (n <= 0) return;
    moe_combine_kernel<<<n, kBlock, 0, stream>>>(y, slot_of, weight, k, hidden, out);
}

void gather_rows_f32(const float* src, const int32_t* rows, int count, int hidden, float* dst,
                     cudaStream_t stream) {
    if (count <= 0) return;
    gather_rows_f32_kernel<<<count, kBlock, 0, stream>>>(src, rows, hidden, dst);
}

void softcap_reduce(float* logits, int rows, int vocab, float cap, float* lse, int32_t* argmax,
                    float* max_value, cudaStream_t stream) {
    if (rows <= 0) return;
    softcap_reduce_kernel<<<rows, kBlock, 0, stream>>>(logits, vocab, cap, lse, argmax, max_value);
}

void gather_logits(const float* logits, int vocab, const int32_t* row, const int32_t* ids,
                   int count, float* out, cudaStream_t stream) {
    if (count <= 0) return;
    gather_logits_kernel<<<(count + kBlock - 1) / kBlock, kBlock, 0, stream>>>(logits, vocab, row,
                                                                               ids, count, out);
}

void softcap_inplace(float* logits, size_t n, float cap, cudaStream_t stream) {
    if (n == 0 || cap <= 0.0f) return;
    softcap_inplace_kernel<<<grid_for(n), kBlock, 0, stream>>>(logits, n, cap);
}

void softmax_rows_bf16(const float* logits, int rows, int vocab, bf16_t* probs,
                       cudaStream_t stream) {
    if (rows <= 0) return;
    softmax_rows_bf16_kernel<<<rows, kBlock, 0, stream>>>(logits, vocab, probs);
}

}  // namespace engine::cuda
