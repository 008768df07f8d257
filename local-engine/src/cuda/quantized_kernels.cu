// Quantised-weight GEMM kernels (see quantized_kernels.h). Packed weights with bf16 activations go
// through the bf16 tensor cores (mma_gemm<PackedBf16Ops>); NVFP4 with per-token NVFP4 activations
// through sm_120's FP4 tensor cores (mma_gemm<Nvfp4Ops>); FP8 with per-token E4M3 activations
// through the FP8 tensor cores on sm_89+ (mma_gemm<E4m3Ops>) or a shared-memory tiled product on
// sm_80 (tiled_gemm: 64 tokens x 64 output rows a block, 16x16 threads with 4x4 outputs each, K in
// chunks of 32). Every kernel decodes the weight tile from its packed bytes into shared memory or
// registers as it loads it, so only the packed weight lives in device memory.

#include "cuda/quantized_kernels.h"

#include <algorithm>

namespace engine::cuda {
namespace {

constexpr int kTile = 64;   // tokens and rows per block
constexpr int kChunk = 32;  // K per shared-memory stage
constexpr int kThreads = 16;

// E2M1 nibble (sign bit 3; bits 2-1 exponent, bias 1; bit 0 mantissa) to float, by building the
// bits: a table in __constant__ memory would serialise a warp whose lanes read different nibbles.
__device__ __forceinline__ float e2m1_value(unsigned nibble) {
    const unsigned e = (nibble >> 1) & 3u, m = nibble & 1u;
    const float mag = e == 0u ? 0.5f * static_cast<float>(m)
                              : __int_as_float(static_cast<int>(((e + 126u) << 23) | (m << 22)));
    return (nibble & 8u) ? -mag : mag;
}

// Nearest E2M1 code of x (saturating at 6; a tie goes to the even code), as the host encoder
// model::float_to_e2m1: the same walk over the eight magnitudes, so the codes agree bit for bit.
__device__ __forceinline__ uint8_t e2m1_code(float x) {
    const float a = fabsf(x);
    unsigned best = 0;
    float best_d = INFINITY;
    for (unsigned i = 0; i < 8; ++i) {
        const float d = fabsf(a - e2m1_value(i));
        if (d < best_d || (d == best_d && (i % 2u) == 0u)) {
            best = i;
            best_d = d;
        }
    }
    return static_cast<uint8_t>(best | (signbit(x) ? 8u : 0u));
}

// E4M3 ("fn"): bias 7, subnormals m * 2^-9, S.1111.111 NaN.
__device__ __forceinline__ float e4m3_value(uint8_t v) {
    const unsigned e = (v >> 3) & 15u, m = v & 7u;
    float mag;
    if (e == 15u && m == 7u)
        mag = __int_as_float(0x7fc00000);
    else if (e == 0u)
        mag = static_cast<float>(m) * 0.001953125f;
    else
        mag = __int_as_float(static_cast<int>(((e + 120u) << 23) | (m << 20)));
    return (v & 0x80u) ? -mag : mag;
}

__device__ __forceinline__ float bf16_value(bf16_t v) {
    return __int_as_float(static_cast<int>(static_cast<unsigned>(v) << 16));
}

// Nearest E4M3 code of x (ties to the even code, saturating at 448), as the host encoder.
__device__ uint8_t e4m3_code(float x) {
    const unsigned sign = signbit(x) ? 0x80u : 0u;
    const float a = fabsf(x);
    if (a >= 448.0f) return static_cast<uint8_t>(sign | 0x7eu);
    int lo = 0, hi = 126;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (e4m3_value(static_cast<uint8_t>(mid)) < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    int code = lo;
    if (code > 0) {
        const float up = e4m3_value(static_cast<uint8_t>(code)) - a;
        const float down = a - e4m3_value(static_cast<uint8_t>(code - 1));
        if (down < up || (down == up && ((code - 1) % 2) == 0)) code -= 1;
    }
    return static_cast<uint8_t>(sign | static_cast<unsigned>(code));
}

// Reads element (row, k) of a packed weight (row_scales[row] times unscaled(row, k)).
struct PackedWeight {
    PackedKind kind;
    const uint8_t* values;
    const uint8_t* block_scales;
    const float* row_scales;
    int cols;
    // The element without its row's scale: e4m3 (FP8) or e2m1 * e4m3 block scale (NVFP4). Either
    // has at most 6 significant bits, so it is exact in bf16 (8): the tensor-core kernel below
    // multiplies it in bf16 and applies the row's scale to the fp32 sum.
    __device__ float unscaled(int row, int k) const {
        if (kind == PackedKind::Fp8) return e4m3_value(values[static_cast<size_t>(row) * cols + k]);
        const uint8_t byte = values[(static_cast<size_t>(row) * cols + k) / 2];
        const uint8_t nibble = (k & 1) ? static_cast<uint8_t>(byte >> 4) : (byte & 0x0fu);
        return e2m1_value(nibble) *
               e4m3_value(block_scales[static_cast<size_t>(row) * (cols / 16) + k / 16]);
    }
};

struct E4m3Rows {
    const uint8_t* q;
    int cols;
    __device__ float operator()(int t, int k) const {
        return e4m3_value(q[static_cast<size_t>(t) * cols + k]);
    }
};

// Row groups of one launch (stacked experts): group z = blockIdx.z multiplies X's rows
// [offsets[z], offsets[z] + counts[z]) by the weight's rows [z * rows, (z + 1) * rows) and writes
// Y's rows [offsets[z], ...). Null arrays: one group, X's `tokens` rows. Blocks past a group's
// count leave at once, so the grid is sized for the largest group.
struct Groups {
    const int* offsets = nullptr;
    const int* counts = nullptr;
    __device__ int base() const { return offsets ? offsets[blockIdx.z] : 0; }
    __device__ int count(int tokens) const { return counts ? counts[blockIdx.z] : tokens; }
};

// y[t, r] = row_out(t) * col_out(r) * sum_k X(t, k) * W(r, k); the scales are 1 when null. Per
// group of `groups` (t counted from the group's first row, r within its weight rows).
template <class XRead, class WRead>
__global__ void tiled_gemm(XRead X, WRead W, Groups groups, int tokens, int rows, int cols,
                           const float* t_scale, const float* r_scale, float* y) {
    __shared__ float xs[kTile][kChunk + 1];
    __shared__ float ws[kTile][kChunk + 1];
    const int base = groups.base(), n = groups.count(tokens);
    const int wbase = static_cast<int>(blockIdx.z) * rows;
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int t0 = static_cast<int>(blockIdx.y) * kTile, r0 = static_cast<int>(blockIdx.x) * kTile;
    if (t0 >= n) return;  // the whole block: no barrier is left waiting
    const int lane = ty * kThreads + tx;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < cols; k0 += kChunk) {
        for (int i = lane; i < kTile * kChunk; i += kThreads * kThreads) {
            const int a = i / kChunk, k = i % kChunk;
            const bool kin = k0 + k < cols;
            xs[a][k] = (t0 + a < n && kin) ? X(base + t0 + a, k0 + k) : 0.0f;
            ws[a][k] = (r0 + a < rows && kin) ? W(wbase + r0 + a, k0 + k) : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < kChunk; ++k) {
            float xv[4], wv[4];
            for (int i = 0; i < 4; ++i) {
                xv[i] = xs[ty + i * kThreads][k];
                wv[i] = ws[tx + i * kThreads][k];
            }
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] += xv[i] * wv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i) {
        const int t = t0 + ty + i * kThreads;
        if (t >= n) continue;
        for (int j = 0; j < 4; ++j) {
            const int r = r0 + tx + j * kThreads;
            if (r >= rows) continue;
            float v = acc[i][j];
            if (t_scale) v *= t_scale[base + t];
            if (r_scale) v *= r_scale[wbase + r];
            y[static_cast<size_t>(base + t) * rows + r] = v;
        }
    }
}

// max |x| of a row, by the whole block (a power-of-two blockDim of at most kRowThreads);
// every thread gets it.
constexpr int kRowThreads = 256;
__device__ float row_absmax(const bf16_t* row, int cols) {
    __shared__ float partial[kRowThreads];
    float m = 0.0f;
    for (int k = static_cast<int>(threadIdx.x); k < cols; k += static_cast<int>(blockDim.x))
        m = fmaxf(m, fabsf(bf16_value(row[k])));
    partial[threadIdx.x] = m;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + s]);
        __syncthreads();
    }
    return partial[0];
}

// One block a token: max |x|, then the codes.
__global__ void quantize_rows(const bf16_t* x, int cols, uint8_t* xq, float* x_scale) {
    const size_t base = static_cast<size_t>(blockIdx.x) * cols;
    const float amax = row_absmax(x + base, cols);
    const float scale = amax > 0.0f ? amax / 448.0f : 1.0f;
    if (threadIdx.x == 0) x_scale[blockIdx.x] = scale;
    for (int k = static_cast<int>(threadIdx.x); k < cols; k += static_cast<int>(blockDim.x))
        xq[base + k] = e4m3_code(bf16_value(x[base + k]) / scale);
}

// Per-token NVFP4 quantisation, one block a token: max |x| by a block reduction gives the row's
// global scale g = max / (6 * 448) (1 for a zero row), so every block scale fits E4M3; then each
// thread codes whole blocks of 16: scale code e4m3(max|block| / 6 / g), elements
// e2m1(x / (e4m3(scale) * g)) (0 where the scale is 0), two a byte, the even column low.
__global__ void quantize_rows_nvfp4(const bf16_t* x, int cols, uint8_t* xq, uint8_t* x_blocks,
                                    float* x_global) {
    const size_t base = static_cast<size_t>(blockIdx.x) * cols;
    const float amax = row_absmax(x + base, cols);
    const float g = amax > 0.0f ? amax / (6.0f * 448.0f) : 1.0f;
    if (threadIdx.x == 0) x_global[blockIdx.x] = g;
    const int blocks = cols / 16;
    for (int b = static_cast<int>(threadIdx.x); b < blocks; b += static_cast<int>(blockDim.x)) {
        const bf16_t* v = x + base + static_cast<size_t>(b) * 16;
        float bmax = 0.0f;
        for (int i = 0; i < 16; ++i) bmax = fmaxf(bmax, fabsf(bf16_value(v[i])));
        const uint8_t code = e4m3_code(bmax / 6.0f / g);
        x_blocks[static_cast<size_t>(blockIdx.x) * blocks + b] = code;
        const float scale = e4m3_value(code) * g;
        uint8_t* out = xq + base / 2 + static_cast<size_t>(b) * 8;
        for (int i = 0; i < 16; i += 2) {
            const uint8_t lo = scale > 0.0f ? e2m1_code(bf16_value(v[i]) / scale) : 0;
            const uint8_t hi = scale > 0.0f ? e2m1_code(bf16_value(v[i + 1]) / scale) : 0;
            out[i / 2] = static_cast<uint8_t>(lo | (hi << 4));
        }
    }
}

// The tensor-core GEMMs: a block of 4 warps computes 64 tokens x 64 weight rows, each warp
// 32 x 32 as 2 x 4 mma tiles of 16 x 8; K in chunks of 64 bytes through shared memory (rows of 80
// bytes, 20 words: the 32 lanes' fragment words fall in 32 different banks). A fragment register
// holds 32 bits of consecutive k, the lower k in the lower bits. y = scale(t, r) * sum(x * w) in
// fp32. Groups as tiled_gemm. The operands (Ops) give the element type, the instruction, how an
// element of x and of the weight is read, and the scale. Block-scaled operands (kBlockScaled: NVFP4
// x NVFP4) also stage each row's E4M3 block scales, one byte per 8 bytes (16 values) of k, and hand
// the instruction the four that cover its k.
constexpr int kMmaTile = 64, kMmaChunkBytes = 64, kMmaStrideBytes = kMmaChunkBytes + 16;
constexpr int kMmaChunkBlocks = kMmaChunkBytes / 8;  // NVFP4 block scales in a chunk's row

// Packed weights (NVFP4, FP8 weight-only) with bf16 activations, mma m16n8k16 bf16 (sm_80+): the
// weight is decoded to bf16 as it is stored (exact: PackedWeight::unscaled), its row's scale
// applied to the sum.
struct PackedBf16Ops {
    using Element = bf16_t;
    static constexpr int kK = 16;
    const bf16_t* x;
    PackedWeight w;
    __device__ bf16_t x_at(int t, int k) const { return x[static_cast<size_t>(t) * w.cols + k]; }
    __device__ bf16_t w_at(int r, int k) const {
        // The decoded value is exact in bf16: its top 16 bits are the value.
        return static_cast<bf16_t>(__float_as_uint(w.unscaled(r, k)) >> 16);
    }
    __device__ float scale(int, int r) const { return w.row_scales[r]; }
    static constexpr bool kBlockScaled = false;
    static __device__ __forceinline__ void mma(float* d, const uint32_t* a, uint32_t b0,
                                               uint32_t b1, uint32_t, uint32_t) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
        (void)d, (void)a, (void)b0, (void)b1;
        __trap();  // every architecture the build targets is sm_80 or later
#endif
    }
};

// FP8 weights with per-token E4M3 activations, mma m16n8k32 e4m3 (sm_89+): the codes as stored,
// y = x_scale[t] * w_scale[r] * sum(xq * wq).
struct E4m3Ops {
    using Element = uint8_t;
    static constexpr int kK = 32;
    const uint8_t* xq;
    const float* x_scale;
    const uint8_t* wq;
    const float* w_scale;
    int cols;
    __device__ uint8_t x_at(int t, int k) const { return xq[static_cast<size_t>(t) * cols + k]; }
    __device__ uint8_t w_at(int r, int k) const { return wq[static_cast<size_t>(r) * cols + k]; }
    __device__ float scale(int t, int r) const { return x_scale[t] * w_scale[r]; }
    static constexpr bool kBlockScaled = false;
    static __device__ __forceinline__ void mma(float* d, const uint32_t* a, uint32_t b0,
                                               uint32_t b1, uint32_t, uint32_t) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
        (void)d, (void)a, (void)b0, (void)b1;
        __trap();  // launched only where mma_probe found the instruction compiled in
#endif
    }
};

// Whether this compilation has sm_120's block-scaled FP4 mma (family- or arch-specific code for
// compute capability 12.x: the plain sm_120 target lacks it).
#if defined(__CUDA_ARCH__) &&                                                            \
    (defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL) ||       \
     (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ >= 1200 && \
      __CUDA_ARCH_FAMILY_SPECIFIC__ < 1300))
#define DS_FP4_MMA 1
#else
#define DS_FP4_MMA 0
#endif

// NVFP4 weights with NVFP4 activations (quantize_rows_nvfp4), mma m16n8k64 e2m1 with E4M3 block
// scales (scale_vec::4X: one per 16 values of k) on sm_120: the packed bytes as stored (a 32-bit
// fragment register holds 8 values of consecutive k, the even one low, as the checkpoint packs
// them), so an Element is a byte of two values and cols counts bytes. y = x_global[t] *
// w_global[r] * sum(e2m1(x) * x_block * e2m1(w) * w_block).
struct Nvfp4Ops {
    using Element = uint8_t;
    static constexpr int kK = 32;  // bytes: 64 values
    static constexpr bool kBlockScaled = true;
    const uint8_t* xq;
    const uint8_t* x_blocks;
    const float* x_global;
    PackedWeight w;
    int bytes;  // of a row: cols / 2
    __device__ uint8_t x_at(int t, int k) const { return xq[static_cast<size_t>(t) * bytes + k]; }
    __device__ uint8_t w_at(int r, int k) const {
        return w.values[static_cast<size_t>(r) * bytes + k];
    }
    // Block b (values 16 b .. 16 b + 15) of a row.
    __device__ uint8_t x_block(int t, int b) const {
        return x_blocks[static_cast<size_t>(t) * (bytes / 8) + b];
    }
    __device__ uint8_t w_block(int r, int b) const {
        return w.block_scales[static_cast<size_t>(r) * (bytes / 8) + b];
    }
    __device__ float scale(int t, int r) const { return x_global[t] * w.row_scales[r]; }
    // sfa: the four block scales of A's row this lane speaks for; sfb: of B's column (byte i the
    // i-th 16 values of the instruction's k); byte and thread selectors 0.
    static __device__ __forceinline__ void mma(float* d, const uint32_t* a, uint32_t b0,
                                               uint32_t b1, uint32_t sfa, uint32_t sfb) {
#if DS_FP4_MMA
        asm volatile(
            "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1."
            "e2m1.f32.ue4m3 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3}, %10, "
            "{%12, %12}, %11, {%12, %12};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "r"(sfa), "r"(sfb),
              "h"(static_cast<uint16_t>(0)));
#else
        (void)d, (void)a, (void)b0, (void)b1, (void)sfa, (void)sfb;
        __trap();  // launched only where mma_probe found the instruction compiled in
#endif
    }
};

template <class Ops>
__global__ void mma_gemm(Ops ops, Groups groups, int tokens, int rows, int cols, float* y) {
    using E = typename Ops::Element;
    constexpr int kChunk = kMmaChunkBytes / static_cast<int>(sizeof(E));
    constexpr int kStride = kMmaStrideBytes / static_cast<int>(sizeof(E));
    constexpr int kPer = 4 / static_cast<int>(sizeof(E));  // elements in a 32-bit register
    constexpr int kHalf = Ops::kK / 2;                     // k of a fragment's second half
    __shared__ __align__(16) E xs[kMmaTile][kStride];
    __shared__ __align__(16) E ws[kMmaTile][kStride];
    // Block scales (kBlockScaled only; a token array otherwise).
    constexpr int kScaleCols = Ops::kBlockScaled ? kMmaChunkBlocks : 4;
    __shared__ __align__(16) uint8_t xsf[kMmaTile][kScaleCols];
    __shared__ __align__(16) uint8_t wsf[kMmaTile][kScaleCols];
    const int base = groups.base(), n = groups.count(tokens);
    const int wbase = static_cast<int>(blockIdx.z) * rows;
    const int t0 = static_cast<int>(blockIdx.y) * kMmaTile;
    const int r0 = static_cast<int>(blockIdx.x) * kMmaTile;
    if (t0 >= n) return;  // the whole block: no barrier is left waiting
    const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5;
    const int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;  // this warp's token / row offsets
    const int g = lane >> 2, tig = lane & 3;
    const auto word = [](const E* p) { return *reinterpret_cast<const uint32_t*>(p); };
    float c[2][4][4] = {};
    for (int k0 = 0; k0 < cols; k0 += kChunk) {
        for (int i = tid; i < kMmaTile * kChunk; i += 128) {
            const int a = i / kChunk, k = i % kChunk;
            const bool kin = k0 + k < cols;
            xs[a][k] = (t0 + a < n && kin) ? ops.x_at(base + t0 + a, k0 + k) : E{0};
            ws[a][k] = (r0 + a < rows && kin) ? ops.w_at(wbase + r0 + a, k0 + k) : E{0};
        }
        if constexpr (Ops::kBlockScaled) {
            // Past the row's end the codes are 0 and so are the scales (an E4M3 NaN code times a
            // zero code would still be NaN).
            for (int i = tid; i < kMmaTile * kMmaChunkBlocks; i += 128) {
                const int a = i / kMmaChunkBlocks, b = i % kMmaChunkBlocks;
                const bool kin = k0 + 8 * b < cols;
                const int block = k0 / 8 + b;
                xsf[a][b] = (t0 + a < n && kin) ? ops.x_block(base + t0 + a, block) : uint8_t{0};
                wsf[a][b] =
                    (r0 + a < rows && kin) ? ops.w_block(wbase + r0 + a, block) : uint8_t{0};
            }
        }
        __syncthreads();
        for (int kk = 0; kk < kChunk; kk += Ops::kK) {
            uint32_t a[2][4];
            for (int mi = 0; mi < 2; ++mi) {
                const int row = wm + mi * 16 + g;
                a[mi][0] = word(&xs[row][kk + kPer * tig]);
                a[mi][1] = word(&xs[row + 8][kk + kPer * tig]);
                a[mi][2] = word(&xs[row][kk + kHalf + kPer * tig]);
                a[mi][3] = word(&xs[row + 8][kk + kHalf + kPer * tig]);
            }
            // Block scales: lane (g, tig) gives A's row g (tig even) or g + 8 (tig odd) of its
            // tile and B's column g, four bytes for the instruction's 64 values of k.
            uint32_t sfa[2] = {0, 0};
            if constexpr (Ops::kBlockScaled)
                for (int mi = 0; mi < 2; ++mi)
                    sfa[mi] = *reinterpret_cast<const uint32_t*>(
                        &xsf[wm + mi * 16 + g + (tig & 1) * 8][kk / 8]);
            for (int ni = 0; ni < 4; ++ni) {
                const int col = wn + ni * 8 + g;
                const uint32_t b0 = word(&ws[col][kk + kPer * tig]);
                const uint32_t b1 = word(&ws[col][kk + kHalf + kPer * tig]);
                uint32_t sfb = 0;
                if constexpr (Ops::kBlockScaled)
                    sfb = *reinterpret_cast<const uint32_t*>(&wsf[col][kk / 8]);
                for (int mi = 0; mi < 2; ++mi) Ops::mma(c[mi][ni], a[mi], b0, b1, sfa[mi], sfb);
            }
        }
        __syncthreads();
    }
    // d[0], d[1]: token g, rows 2 tig (+1); d[2], d[3]: token g + 8.
    for (int mi = 0; mi < 2; ++mi)
        for (int ni = 0; ni < 4; ++ni)
            for (int i = 0; i < 4; ++i) {
                const int t = t0 + wm + mi * 16 + g + (i >= 2 ? 8 : 0);
                const int r = r0 + wn + ni * 8 + 2 * tig + (i & 1);
                if (t < n && r < rows)
                    y[static_cast<size_t>(base + t) * rows + r] =
                        c[mi][ni][i] * ops.scale(base + t, wbase + r);
            }
}

dim3 grid_for(int tokens, int rows, int groups = 1) {
    return dim3(static_cast<unsigned>((rows + kTile - 1) / kTile),
                static_cast<unsigned>((tokens + kTile - 1) / kTile), static_cast<unsigned>(groups));
}

}  // namespace

namespace {

__global__ void fill_random_packed(bool fp8, uint8_t* dst, uint64_t n, uint64_t seed) {
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        // splitmix64 of (seed, i).
        uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        const auto b = static_cast<uint8_t>((z ^ (z >> 31)) & 0xff);
        dst[i] = fp8 ? static_cast<uint8_t>(b & 0xbf) : b;  // FP8: exponent field <= 7
    }
}

}  // namespace

void launch_fill_random_packed(PackedKind kind, uint8_t* dst, uint64_t n, uint64_t seed,
                               cudaStream_t stream) {
    if (n == 0) return;
    const uint64_t blocks = std::min<uint64_t>((n + 255) / 256, 65535);
    fill_random_packed<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(kind == PackedKind::Fp8,
                                                                          dst, n, seed);
}

void launch_packed_gemm(PackedKind kind, const uint8_t* values, const uint8_t* block_scales,
                        const float* row_scales, int rows, int cols, const bf16_t* x, int tokens,
                        float* y, cudaStream_t stream) {
    launch_packed_gemm_grouped(kind, values, block_scales, row_scales, rows, cols, nullptr, nullptr,
                               1, tokens, x, y, stream);
}

void launch_packed_gemm_grouped(PackedKind kind, const uint8_t* values, const uint8_t* block_scales,
                                const float* row_scales, int rows, int cols, const int* offsets,
                                const int* counts, int groups, int max_count, const bf16_t* x,
                                float* y, cudaStream_t stream) {
    if (max_count <= 0 || rows <= 0 || groups <= 0) return;
    const PackedWeight w{kind, values, block_scales, row_scales, cols};
    static_assert(kMmaTile == kTile, "grid_for sizes every kernel's grid");
    mma_gemm<<<grid_for(max_count, rows, groups), 128, 0, stream>>>(
        PackedBf16Ops{x, w}, Groups{offsets, counts}, max_count, rows, cols, y);
}

void launch_quantize_rows_nvfp4(const bf16_t* x, int tokens, int cols, uint8_t* xq,
                                uint8_t* x_blocks, float* x_global, cudaStream_t stream) {
    if (tokens <= 0) return;
    quantize_rows_nvfp4<<<static_cast<unsigned>(tokens), kRowThreads, 0, stream>>>(
        x, cols, xq, x_blocks, x_global);
}

void launch_nvfp4_fp4_gemm(const uint8_t* values, const uint8_t* block_scales,
                           const float* row_scales, int rows, int cols, const int* offsets,
                           const int* counts, int groups, int max_count, const uint8_t* xq,
                           const uint8_t* x_blocks, const float* x_global, float* y,
                           cudaStream_t stream) {
    if (max_count <= 0 || rows <= 0 || groups <= 0) return;
    const PackedWeight w{PackedKind::Nvfp4, values, block_scales, row_scales, cols};
    mma_gemm<<<grid_for(max_count, rows, groups), 128, 0, stream>>>(
        Nvfp4Ops{xq, x_blocks, x_global, w, cols / 2}, Groups{offsets, counts}, max_count, rows,
        cols / 2, y);
}

void launch_quantize_rows_e4m3(const bf16_t* x, int tokens, int cols, uint8_t* xq, float* x_scale,
                               cudaStream_t stream) {
    if (tokens <= 0) return;
    quantize_rows<<<static_cast<unsigned>(tokens), kRowThreads, 0, stream>>>(x, cols, xq, x_scale);
}

namespace {

// Which mma instructions the code loaded for this device has: [0] FP8 (sm_89+), [1] block-scaled
// FP4 (the 12.x family).
__global__ void mma_probe(int* compiled) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    compiled[0] = 1;
#else
    compiled[0] = 0;
#endif
    compiled[1] = DS_FP4_MMA;
}

struct MmaSupport {
    bool fp8 = false, fp4 = false;
};

// Asked of the code the driver loaded, not of the compute capability: a build without a device's
// own target runs there as PTX of an older one, JIT-compiled, where the newer instructions were
// compiled out (their kernels would __trap). Probed once per process (device 0).
MmaSupport mma_support() {
    static const MmaSupport support = [] {
        MmaSupport s;
        int* flags = nullptr;
        if (cudaMalloc(&flags, 2 * sizeof(int)) != cudaSuccess) return s;
        int compiled[2] = {0, 0};
        mma_probe<<<1, 1>>>(flags);
        const bool ok =
            cudaMemcpy(compiled, flags, sizeof compiled, cudaMemcpyDeviceToHost) == cudaSuccess;
        cudaFree(flags);
        s.fp8 = ok && compiled[0] == 1;
        s.fp4 = ok && compiled[1] == 1;
        return s;
    }();
    return support;
}

}  // namespace

bool fp4_tensor_cores_available() {
    return mma_support().fp4;
}

bool fp8_tensor_cores_available() {
    return mma_support().fp8;
}

void launch_fp8_dynamic_gemm(const uint8_t* wq, const float* w_scale, int rows, int cols,
                             const uint8_t* xq, const float* x_scale, int tokens, float* y,
                             bool tensor_cores, cudaStream_t stream) {
    launch_fp8_dynamic_gemm_grouped(wq, w_scale, rows, cols, nullptr, nullptr, 1, tokens, xq,
                                    x_scale, y, tensor_cores, stream);
}

void launch_fp8_dynamic_gemm_grouped(const uint8_t* wq, const float* w_scale, int rows, int cols,
                                     const int* offsets, const int* counts, int groups,
                                     int max_count, const uint8_t* xq, const float* x_scale,
                                     float* y, bool tensor_cores, cudaStream_t stream) {
    if (max_count <= 0 || rows <= 0 || groups <= 0) return;
    const Groups g{offsets, counts};
    if (tensor_cores && fp8_tensor_cores_available()) {
        mma_gemm<<<grid_for(max_count, rows, groups), 128, 0, stream>>>(
            E4m3Ops{xq, x_scale, wq, w_scale, cols}, g, max_count, rows, cols, y);
        return;
    }
    tiled_gemm<<<grid_for(max_count, rows, groups), dim3(kThreads, kThreads), 0, stream>>>(
        E4m3Rows{xq, cols}, E4m3Rows{wq, cols}, g, max_count, rows, cols, x_scale, w_scale, y);
}

}  // namespace engine::cuda
