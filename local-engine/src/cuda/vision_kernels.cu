// The vision tower's CUDA kernels (see vision_kernels.h). Sizes are a few thousand patch rows
// at most, so each kernel is the plain one: a block per row (norms) or per query and head
// (attention, its scores in shared memory).

#include <cuda_runtime.h>

#include <cfloat>

#include "cuda/vision_kernels.h"

namespace engine::cuda {
namespace {

constexpr int kThreads = 128;

// Sum over the block (blockDim.x == kThreads).
__device__ float block_sum(float v, float* scratch) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
    __syncthreads();
    float total = 0;
    for (int i = 0; i < kThreads / 32; ++i) total += scratch[i];
    __syncthreads();
    return total;
}

__device__ float block_max(float v, float* scratch) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
    __syncthreads();
    float m = -FLT_MAX;
    for (int i = 0; i < kThreads / 32; ++i) m = fmaxf(m, scratch[i]);
    __syncthreads();
    return m;
}

__global__ void rmsnorm_kernel(const float* x, const float* w, int dim, float eps, float* y) {
    __shared__ float scratch[kThreads / 32];
    const float* row = x + static_cast<size_t>(blockIdx.x) * dim;
    float* out = y + static_cast<size_t>(blockIdx.x) * dim;
    float ss = 0;
    for (int i = threadIdx.x; i < dim; i += kThreads) ss += row[i] * row[i];
    const float inv = rsqrtf(block_sum(ss, scratch) / static_cast<float>(dim) + eps);
    for (int i = threadIdx.x; i < dim; i += kThreads) out[i] = row[i] * inv * (w ? w[i] : 1.0f);
}

// One thread per (row, head, axis, pair).
__global__ void rope_2d_kernel(float* x, int64_t rows, int heads, int head_dim,
                               const int32_t* pos_x, const int32_t* pos_y, const float* inv_freq) {
    const int quarter = head_dim / 4;
    const int64_t total = rows * heads * 2 * quarter;
    const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= total) return;
    const int i = static_cast<int>(t % quarter);
    const int axis = static_cast<int>((t / quarter) % 2);
    const int64_t rh = t / (2 * quarter);  // row * heads + head
    const int64_t r = rh / heads;
    const float angle = static_cast<float>(axis == 0 ? pos_x[r] : pos_y[r]) * inv_freq[i];
    const float c = cosf(angle), s = sinf(angle);
    float* part = x + rh * head_dim + axis * (head_dim / 2);
    const float a = part[i], b = part[i + quarter];
    part[i] = a * c - b * s;
    part[i + quarter] = b * c + a * s;
}

// One block per (query, head); dynamic shared memory holds the row of scores.
__global__ void attention_kernel(const float* q, const float* k, const float* v, int rows,
                                 int heads, int kv_heads, int head_dim, float* out) {
    extern __shared__ float scores[];
    __shared__ float scratch[kThreads / 32];
    const int i = blockIdx.x, h = blockIdx.y, g = h / (heads / kv_heads);
    const float* qi = q + (static_cast<size_t>(i) * heads + h) * head_dim;
    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < rows; j += kThreads) {
        const float* kj = k + (static_cast<size_t>(j) * kv_heads + g) * head_dim;
        float s = 0;
        for (int d = 0; d < head_dim; ++d) s += qi[d] * kj[d];
        scores[j] = s;
        m = fmaxf(m, s);
    }
    m = block_max(m, scratch);
    float sum = 0;
    for (int j = threadIdx.x; j < rows; j += kThreads) {
        const float e = expf(scores[j] - m);
        scores[j] = e;
        sum += e;
    }
    const float inv = 1.0f / block_sum(sum, scratch);  // the sum's barrier publishes scores
    float* oi = out + (static_cast<size_t>(i) * heads + h) * head_dim;
    for (int d = threadIdx.x; d < head_dim; d += kThreads) {
        float acc = 0;
        for (int j = 0; j < rows; ++j)
            acc += scores[j] * v[(static_cast<size_t>(j) * kv_heads + g) * head_dim + d];
        oi[d] = acc * inv;
    }
}

__global__ void gelu_mul_kernel(float* a, const float* b, int64_t n) {
    const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float g = a[i];
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    a[i] = 0.5f * g * (1.0f + tanhf(k0 * (g + 0.044715f * g * g * g))) * b[i];
}

unsigned blocks_for(int64_t n) {
    return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

}  // namespace

void vision_rmsnorm(const float* x, const float* w, int64_t rows, int dim, float eps, float* y,
                    cudaStream_t stream) {
    if (rows > 0)
        rmsnorm_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(x, w, dim, eps, y);
}

void vision_rope_2d(float* x, int64_t rows, int heads, int head_dim, const int32_t* pos_x,
                    const int32_t* pos_y, const float* inv_freq, cudaStream_t stream) {
    const int64_t total = rows * heads * (head_dim / 2);
    if (total > 0)
        rope_2d_kernel<<<blocks_for(total), kThreads, 0, stream>>>(x, rows, heads, head_dim, pos_x,
                                                                   pos_y, inv_freq);
}

void vision_attention(const float* q, const float* k, const float* v, int rows, int heads,
                      int kv_heads, int head_dim, float* out, cudaStream_t stream) {
    if (rows <= 0) return;
    const dim3 grid(static_cast<unsigned>(rows), static_cast<unsigned>(heads));
    const size_t scores = static_cast<size_t>(rows) * sizeof(float);
    // Past 48 KB of dynamic shared memory a kernel must opt in (up to the device's limit, about
    // 227 KB on an H100/H200: 58,000 rows); past that limit the launch fails and the caller
    // reports it.
    if (scores > 48 * 1024)
        cudaFuncSetAttribute(attention_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(scores));
    attention_kernel<<<grid, kThreads, scores, stream>>>(q, k, v, rows, heads, kv_heads, head_dim,
                                                         out);
}

void vision_gelu_mul(float* a, const float* b, int64_t n, cudaStream_t stream) {
    if (n > 0) gelu_mul_kernel<<<blocks_for(n), kThreads, 0, stream>>>(a, b, n);
}

}  // namespace engine::cuda
