// Products with native (bf16 / FP8 / NVFP4) weights; see weight_gemm.h.
//
// Layout of the work: the activations of the call are rounded to bf16 once, into a per-thread
// buffer whose rows are padded with zeros to a multiple of 32. The outputs go by tiles of up to
// kTileCols weight rows: a bf16 tile is read in place from the mapping; an FP8 or NVFP4 tile is
// first decoded into a per-thread bf16 buffer (a panel of kPanelCols rows, L2-sized for k up to
// ~3000) once per call, which every row block of the call then reads. A register tile is up to 4
// activation rows x 6 weight rows (24 accumulators of 16 lanes); each accumulator takes VDPBF16PS
// over k in steps of 32 and is summed across its lanes at the end, so an output's chain never
// depends on the tile. k goes in chunks of kChunk: a tile's chunk of weight rows stays in L1
// while the row block's activations pass it, and the accumulators wait in memory between chunks
// (the same chains, so the same bits).

#include "cpu/weight_gemm.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>

#include "model/quantized.h"
#include "model/safetensors.h"
#include "util/aligned_allocator.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define DS_WEIGHT_X86 1
#endif

namespace engine::cpu {
namespace {

// The per-thread buffers the tiles read 64 bytes at a time start on a cache line: from malloc's
// 16-byte alignment every load of them straddled two lines (FP8 dense products at the real
// shapes, whose weights come from such a buffer, 2 threads, three runs each in turn: 357-445
// GFLOP/s, 469-604 aligned).
template <class T>
using LineVector = std::vector<T, util::CacheLineAllocator<T>>;

constexpr int kRowsMax = 4;         // activation rows of a register tile
constexpr int kColsMax = 6;         // weight rows of a register tile
constexpr int64_t kTileCols = 6;    // weight rows of a register tile
constexpr int64_t kPanelCols = 48;  // weight rows decoded at once (and a column split unit)
constexpr int64_t kRowBlock = 96;   // activation rows kept hot in L2 per sweep of tiles
constexpr int64_t kPad = 32;        // bf16 values per dot-product step
constexpr int64_t kChunk = 1024;    // k values per sweep of a row block (a multiple of kPad)
constexpr int64_t kPartial = kRowsMax * kColsMax * 16;  // one tile's 16-lane partial sums
constexpr int64_t kDecodeRows = 4;  // FP8 rows decoded side by side (streams from memory)

int64_t padded(int64_t k) {
    return (k + kPad - 1) / kPad * kPad;
}

const std::array<float, 256>& e4m3_table() {
    static const std::array<float, 256> t = [] {
        std::array<float, 256> a{};
        for (int i = 0; i < 256; ++i) a[static_cast<size_t>(i)] = model::e4m3_to_float(uint8_t(i));
        return a;
    }();
    return t;
}

const std::array<float, 16>& e2m1_table() {
    static const std::array<float, 16> t = [] {
        std::array<float, 16> a{};
        for (int i = 0; i < 16; ++i) a[static_cast<size_t>(i)] = model::e2m1_to_float(uint8_t(i));
        return a;
    }();
    return t;
}

// ---- decoding one weight row into f32 (portable; the fallback and the single-row reads) ----

void decode_row_f32(const NativeBlock& b, int64_t k, int64_t r, int64_t c0, int64_t cols,
                    float* dst) {
    switch (b.coding) {
        case WeightCoding::bf16:
            model::to_float(model::DType::BF16, b.values + (r * k + c0) * 2,
                            static_cast<size_t>(cols), dst);
            return;
        case WeightCoding::fp8: {
            const auto* q = reinterpret_cast<const uint8_t*>(b.values) + r * k;
            const float s = b.row_scales[static_cast<size_t>(r)];
            const auto& t = e4m3_table();
            for (int64_t c = 0; c < cols; ++c) dst[c] = t[q[c0 + c]] * s;
            return;
        }
        case WeightCoding::nvfp4: {
            const auto* q = reinterpret_cast<const uint8_t*>(b.values) + r * (k / 2);
            const uint8_t* s = b.block_scales + r * (k / 16);
            const auto& t4 = e2m1_table();
            const auto& t8 = e4m3_table();
            for (int64_t c = c0; c < c0 + cols; ++c) {
                const uint8_t byte = q[c / 2];
                const uint8_t nibble = (c % 2) ? uint8_t(byte >> 4) : uint8_t(byte & 15);
                dst[c - c0] = t4[nibble] * t8[s[c / 16]] * b.global_scale;
            }
            return;
        }
    }
}

const NativeBlock& block_of(const NativeMatrix& w, int64_t row) {
    for (const NativeBlock& b : w.blocks)
        if (row < b.first_row + b.rows) return b;
    return w.blocks.back();
}

// The portable product: decoded f32 rows, 8 partial sums per output in a fixed pattern.
void gemm_native_portable(const float* x, int64_t ldx, const NativeMatrix& w, int64_t j0,
                          int64_t j1, float* y, int64_t ldy, int64_t m) {
    const int64_t k = w.k;
    thread_local std::vector<float> row;
    row.resize(static_cast<size_t>(k));
    for (int64_t j = j0; j < j1; ++j) {
        const NativeBlock& b = block_of(w, j);
        decode_row_f32(b, k, j - b.first_row, 0, k, row.data());
        for (int64_t i = 0; i < m; ++i) {
            const float* xr = x + i * ldx;
            float acc[8] = {};
            int64_t c = 0;
            for (; c + 8 <= k; c += 8)
                for (int l = 0; l < 8; ++l) acc[l] = std::fma(xr[c + l], row[c + l], acc[l]);
            for (; c < k; ++c) acc[0] = std::fma(xr[c], row[c], acc[0]);
            float s = 0;
            for (float a : acc) s += a;
            y[i * ldy + (j - j0)] = s;
        }
    }
}

#ifdef DS_WEIGHT_X86
// GCC 12's AVX-512 headers leave the pass-through operand of their 256-bit extracts undefined on
// purpose, and -Wuninitialized reports it at every inlined use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define DS_BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))
// The same target on a lambda (placed after its parameter list).
#define DS_BF16_LAMBDA __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

// m rows of x (f32, stride ldx) as bf16 rows of `kp` values (zero-padded).
DS_BF16_TARGET void round_rows_bf16(const float* x, int64_t ldx, int64_t m, int64_t k, int64_t kp,
                                    uint16_t* dst) {
    for (int64_t i = 0; i < m; ++i) {
        const float* xr = x + i * ldx;
        uint16_t* d = dst + i * kp;
        int64_t c = 0;
        for (; c + 32 <= k; c += 32)  // plain loads (see tile_bf16), masked ones for the tail
            _mm512_storeu_si512(d + c, (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(xr + c + 16),
                                                                    _mm512_loadu_ps(xr + c)));
        for (; c < kp; c += 32) {
            const int64_t left = k - c;
            const __mmask16 m0 = static_cast<__mmask16>(left >= 16  ? 0xFFFF
                                                        : left <= 0 ? 0
                                                                    : (1u << left) - 1);
            const __mmask16 m1 = static_cast<__mmask16>(left >= 32   ? 0xFFFF
                                                        : left <= 16 ? 0
                                                                     : (1u << (left - 16)) - 1);
            const __m512 lo = _mm512_maskz_loadu_ps(m0, xr + c);
            const __m512 hi = _mm512_maskz_loadu_ps(m1, xr + c + 16);
            _mm512_storeu_si512(d + c, (__m512i)_mm512_cvtne2ps_pbh(hi, lo));
        }
    }
}

// FP8 rows (k values each; row t at q + t * k) as bf16 into dst + t * kp: E4M3 into bf16 is
// exact (sign, exponent rebased from bias 7 to 127, the 3 mantissa bits on top); subnormal codes
// through an 8-entry table. Rows go kDecodeRows at a time, step by step across them: the packed
// weights come from memory, and one stream per thread left each load's latency exposed (FP8
// canvas at the real shapes, 2 threads, three runs each in turn: 103-117 ms/layer one row at a
// time, 95-103 ms four rows at a time).
DS_BF16_TARGET void decode_fp8_rows_bf16(const uint8_t* q, int64_t rows, int64_t k, int64_t kp,
                                         uint16_t* dst) {
    // Subnormal codes m = 1..7: m/8 * 2^-6 as bf16 (entries past 7 unused).
    alignas(64) static constexpr uint16_t kSub[32] = {0,      0x3B00, 0x3B80, 0x3BC0,
                                                      0x3C00, 0x3C20, 0x3C40, 0x3C60};
    const __m512i sub = _mm512_load_si512(kSub);
    const __m512i bias = _mm512_set1_epi16(120 << 7);
    const auto decode = [&](__m256i bytes, uint16_t* out) DS_BF16_LAMBDA {
        const __m512i v = _mm512_cvtepu8_epi16(bytes);
        const __m512i em = _mm512_and_si512(v, _mm512_set1_epi16(0x7f));
        const __m512i sign = _mm512_slli_epi16(_mm512_and_si512(v, _mm512_set1_epi16(0x80)), 8);
        const __m512i normal = _mm512_add_epi16(_mm512_slli_epi16(em, 4), bias);
        const __mmask32 is_sub = _mm512_cmplt_epu16_mask(em, _mm512_set1_epi16(8));
        const __m512i mag = _mm512_mask_permutexvar_epi16(normal, is_sub, em, sub);
        _mm512_storeu_si512(out, _mm512_or_si512(mag, sign));
    };
    // Whole steps by plain loads. A masked load on every step made the decode the canvas's
    // bottleneck on Zen 5 (perf annotate: most samples on the load; FP8 canvas at the real
    // shapes 227 ms/layer against 110 ms with plain loads, bench-cpu_weights, 2 threads).
    const int64_t full = k / 32 * 32;
    int64_t r = 0;
    for (; r + kDecodeRows <= rows; r += kDecodeRows)
        for (int64_t c = 0; c < full; c += 32)
#pragma GCC unroll 4
            for (int64_t t = r; t < r + kDecodeRows; ++t)
                decode(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + t * k + c)),
                       dst + t * kp + c);
    for (; r < rows; ++r)
        for (int64_t c = 0; c < full; c += 32)
            decode(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + r * k + c)),
                   dst + r * kp + c);
    for (int64_t t = 0; t < rows; ++t)  // the last, partial step and the padding up to kp
        for (int64_t c = full; c < kp; c += 32) {
            const int64_t left = std::max<int64_t>(0, k - c);
            decode(
                _mm256_maskz_loadu_epi8(static_cast<__mmask32>((1ull << left) - 1), q + t * k + c),
                dst + t * kp + c);
        }
}

// One NVFP4 row (k values, k a multiple of 16) as bf16 into dst[kp]: E2M1 times its E4M3 block
// scale, exact in bf16 (at most 6 significant bits). The global scale is applied to the output.
DS_BF16_TARGET void decode_nvfp4_row_bf16(const uint8_t* q, const uint8_t* scales, int64_t k,
                                          int64_t kp, uint16_t* dst) {
    const __m512 values = _mm512_loadu_ps(e2m1_table().data());
    const auto& t8 = e4m3_table();
    const __m128i low = _mm_set1_epi16(0x0F);
    int64_t c = 0;
    for (; c + 32 <= k; c += 32) {
        __m512 half[2];
        for (int h = 0; h < 2; ++h) {
            // 8 bytes = 16 values: low nibble the even column, high nibble the odd one.
            const __m128i b = _mm_cvtepu8_epi16(
                _mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + (c + 16 * h) / 2)));
            const __m128i lo = _mm_and_si128(b, low), hi = _mm_srli_epi16(b, 4);
            const __m256i idx16 =
                _mm256_set_m128i(_mm_unpackhi_epi16(lo, hi), _mm_unpacklo_epi16(lo, hi));
            const __m512i idx = _mm512_cvtepu16_epi32(idx16);
            half[h] = _mm512_mul_ps(_mm512_permutexvar_ps(idx, values),
                                    _mm512_set1_ps(t8[scales[(c + 16 * h) / 16]]));
        }
        _mm512_storeu_si512(dst + c, (__m512i)_mm512_cvtne2ps_pbh(half[1], half[0]));
    }
    if (c < kp) {  // a last block of 16 and the padding
        alignas(64) float tail[32] = {};
        for (int64_t j = c; j < k; ++j) {
            const uint8_t byte = q[j / 2];
            tail[j - c] = e2m1_table()[(j % 2) ? (byte >> 4) : (byte & 15)] * t8[scales[j / 16]];
        }
        _mm512_storeu_si512(
            dst + c, (__m512i)_mm512_cvtne2ps_pbh(_mm512_load_ps(tail + 16), _mm512_load_ps(tail)));
    }
}

// The 16 lanes' sum in a fixed order (GCC 12's _mm512_reduce_add_ps trips -Wuninitialized).
DS_BF16_TARGET inline float lane_sum(__m512 v) {
    const __m256 h =
        _mm256_add_ps(_mm512_castps512_ps256(v),
                      _mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(v), 1)));
    const __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
    const __m128 p = _mm_add_ps(q, _mm_movehl_ps(q, q));
    return _mm_cvtss_f32(_mm_add_ss(p, _mm_movehdup_ps(p)));
}

// One k-chunk [c0, c1) of y[MR][NR] = x[MR][kp] . w[NR][k] (bf16), times scale[NR]. Weight rows
// are read up to k (masked in the last step), activation rows up to kp (their padding is zero).
// The 16-lane partial sums live in registers for the chunk and in `partial` [MR][NR][16] between
// chunks: zero before the first chunk (c0 == 0), summed across lanes, scaled and stored to y
// after the last (c1 == kp). Each lane's chain is the same whatever the chunks, so are the bits.
template <int MR, int NR>
DS_BF16_TARGET void tile_bf16(const uint16_t* x, int64_t kp, const uint16_t* const* w, int64_t k,
                              int64_t c0, int64_t c1, float* partial, float* y, int64_t ldy,
                              const float* scale) {
    __m512 acc[MR][NR];
#pragma GCC unroll 24
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 6
        for (int r = 0; r < NR; ++r)
            acc[i][r] =
                c0 == 0 ? _mm512_setzero_ps() : _mm512_loadu_ps(partial + (i * NR + r) * 16);
    // One step of 32 values; `Masked` only for the last, partial step of a mapped row, plain
    // loads elsewhere (see decode_fp8_rows_bf16). The next tile's activation rows are asked into
    // L1 meanwhile (measured, bf16 dense products at the real shapes, 2 threads: 514-546 GFLOP/s
    // without, 540-584 with); past the last tile the hint points beyond the rows, which a
    // prefetch may (it never faults).
    const auto step = [&]<bool Masked>(int64_t c, __mmask32 mask) DS_BF16_LAMBDA {
        __m512bh xv[MR];
#pragma GCC unroll 4
        for (int i = 0; i < MR; ++i) xv[i] = (__m512bh)_mm512_loadu_si512(x + i * kp + c);
#pragma GCC unroll 4
        for (int i = 0; i < MR; ++i)
            _mm_prefetch(reinterpret_cast<const char*>(x + (MR + i) * kp + c), _MM_HINT_T0);
#pragma GCC unroll 6
        for (int r = 0; r < NR; ++r) {
            const __m512bh wv = Masked ? (__m512bh)_mm512_maskz_loadu_epi16(mask, w[r] + c)
                                       : (__m512bh)_mm512_loadu_si512(w[r] + c);
#pragma GCC unroll 4
            for (int i = 0; i < MR; ++i) acc[i][r] = _mm512_dpbf16_ps(acc[i][r], xv[i], wv);
        }
    };
    const int64_t full = std::min(c1, k / kPad * kPad);
    int64_t c = c0;
    for (; c < full; c += kPad) step.template operator()<false>(c, 0);
    if (c < c1) step.template operator()<true>(c, static_cast<__mmask32>((1ull << (k - c)) - 1));
    if (c1 < kp) {
#pragma GCC unroll 24
        for (int i = 0; i < MR; ++i)
#pragma GCC unroll 6
            for (int r = 0; r < NR; ++r) _mm512_storeu_ps(partial + (i * NR + r) * 16, acc[i][r]);
        return;
    }
#pragma GCC unroll 4
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 6
        for (int r = 0; r < NR; ++r) y[i * ldy + r] = lane_sum(acc[i][r]) * scale[r];
}

using TileBf16 = void (*)(const uint16_t*, int64_t, const uint16_t* const*, int64_t, int64_t,
                          int64_t, float*, float*, int64_t, const float*);

template <int MR, int... NR>
constexpr std::array<TileBf16, kColsMax> tile_row(std::integer_sequence<int, NR...>) {
    return {&tile_bf16<MR, NR + 1>...};
}

const TileBf16& tile_for(int mr, int nr) {
    static constexpr std::array<std::array<TileBf16, kColsMax>, kRowsMax> table = {
        tile_row<1>(std::make_integer_sequence<int, kColsMax>{}),
        tile_row<2>(std::make_integer_sequence<int, kColsMax>{}),
        tile_row<3>(std::make_integer_sequence<int, kColsMax>{}),
        tile_row<4>(std::make_integer_sequence<int, kColsMax>{})};
    return table[static_cast<size_t>(mr - 1)][static_cast<size_t>(nr - 1)];
}

// Outputs [j0, j1) of one block's rows (all inside `b`), for activation rows [0, m) already in
// bf16 (xb, stride kp). Panels of kPanelCols weight rows: an FP8/NVFP4 panel is decoded once
// per call (into L2), then every row block runs against it tile by tile, so the weights are
// decoded once whatever m is, and the activations are read once per panel.
DS_BF16_TARGET void block_product_bf16(const uint16_t* xb, int64_t kp, int64_t m,
                                       const NativeBlock& b, int64_t k, int64_t j0, int64_t j1,
                                       float* y, int64_t ldy) {
    thread_local LineVector<uint16_t> decoded;
    if (b.coding != WeightCoding::bf16) decoded.resize(static_cast<size_t>(kPanelCols * kp));
    // The partial sums of a row block's tiles over one panel, between k chunks.
    thread_local LineVector<float> partial(
        static_cast<size_t>((kRowBlock / kRowsMax) * (kPanelCols / kTileCols) * kPartial));
    for (int64_t jp = j0; jp < j1; jp += kPanelCols) {
        const int64_t jpe = std::min(j1, jp + kPanelCols);
        // bf16 rows are read in place from the mapping; only coded rows are decoded (and
        // `decoded` is empty for bf16, so no pointer into it may be formed).
        if (b.coding == WeightCoding::fp8)
            decode_fp8_rows_bf16(
                reinterpret_cast<const uint8_t*>(b.values) + (jp - b.first_row) * k, jpe - jp, k,
                kp, decoded.data());
        for (int64_t j = jp; b.coding == WeightCoding::nvfp4 && j < jpe; ++j) {
            const int64_t r = j - b.first_row;
            decode_nvfp4_row_bf16(reinterpret_cast<const uint8_t*>(b.values) + r * (k / 2),
                                  b.block_scales + r * (k / 16), k, kp,
                                  decoded.data() + (j - jp) * kp);
        }
        // Tiles' weight rows as read: in place (bf16, rows stop at k, the last step masked) or
        // from the decoded panel (padded to kp with zeros), and their output scales.
        const uint16_t* rows[kPanelCols];
        float scale[kPanelCols];
        for (int64_t j = jp; j < jpe; ++j) {
            const int64_t r = j - b.first_row;
            rows[j - jp] = b.coding == WeightCoding::bf16
                               ? reinterpret_cast<const uint16_t*>(b.values) + r * k
                               : decoded.data() + (j - jp) * kp;
            scale[j - jp] = b.coding == WeightCoding::fp8     ? b.row_scales[static_cast<size_t>(r)]
                            : b.coding == WeightCoding::nvfp4 ? b.global_scale
                                                              : 1.0f;
        }
        for (int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
            const int64_t i1 = std::min(m, i0 + kRowBlock);
            // k in chunks: one tile's weight rows (a chunk of each) stay in L1 while the row
            // block's activations stream past them from L2; the partial sums wait in `partial`.
            for (int64_t c0 = 0; c0 < kp; c0 += kChunk) {
                const int64_t c1 = std::min(kp, c0 + kChunk);
                float* part = partial.data();
                for (int64_t j = jp; j < jpe; j += kTileCols) {
                    const int nr = static_cast<int>(std::min(kTileCols, jpe - j));
                    for (int64_t i = i0; i < i1; i += kRowsMax, part += kPartial) {
                        const int mr = static_cast<int>(std::min<int64_t>(kRowsMax, i1 - i));
                        tile_for(mr, nr)(xb + i * kp, kp, rows + (j - jp), k, c0, c1, part,
                                         y + i * ldy + (j - j0), ldy, scale + (j - jp));
                    }
                }
            }
        }
    }
}

void gemm_native_bf16(const float* x, int64_t ldx, const NativeMatrix& w, int64_t j0, int64_t j1,
                      float* y, int64_t ldy, int64_t m) {
    const int64_t k = w.k, kp = padded(k);
    thread_local LineVector<uint16_t> xb;
    if (xb.size() < static_cast<size_t>(m * kp)) xb.resize(static_cast<size_t>(m * kp));
    round_rows_bf16(x, ldx, m, k, kp, xb.data());
    for (const NativeBlock& b : w.blocks) {
        const int64_t lo = std::max(j0, b.first_row), hi = std::min(j1, b.first_row + b.rows);
        if (lo < hi) block_product_bf16(xb.data(), kp, m, b, k, lo, hi, y + (lo - j0), ldy);
    }
}

DS_BF16_TARGET double bf16_peak_run(double seconds) {
    // 24 independent accumulators, as the product's register tile: the instruction's throughput.
    __m512 acc[24];
    for (auto& a : acc) a = _mm512_setzero_ps();
    const __m512bh a = (__m512bh)_mm512_set1_epi16(0x3f80), b = (__m512bh)_mm512_set1_epi16(0x3c00);
    const auto t0 = std::chrono::steady_clock::now();
    int64_t iterations = 0;
    double elapsed = 0;
    do {
        for (int rep = 0; rep < 4096; ++rep)
#pragma GCC unroll 24
            for (auto& v : acc) v = _mm512_dpbf16_ps(v, a, b);
        iterations += 4096;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (elapsed < seconds);
    volatile float sink = 0;
    for (auto& v : acc) sink = sink + lane_sum(v);
    // One VDPBF16PS: 16 lanes x 2 products x (multiply + add).
    return static_cast<double>(iterations) * 24 * 64 / elapsed / 1e9;
}
#endif  // DS_WEIGHT_X86

}  // namespace

const char* weight_coding_name(WeightCoding coding) {
    switch (coding) {
        case WeightCoding::fp8:
            return "fp8";
        case WeightCoding::nvfp4:
            return "nvfp4";
        case WeightCoding::bf16:
            break;
    }
    return "bf16";
}

uint64_t NativeMatrix::borrowed_bytes() const {
    uint64_t n = 0;
    for (const NativeBlock& b : blocks) {
        const uint64_t cells = static_cast<uint64_t>(b.rows) * static_cast<uint64_t>(k);
        n += b.coding == WeightCoding::bf16  ? cells * 2
             : b.coding == WeightCoding::fp8 ? cells
                                             : cells / 2 + cells / 16;
    }
    return n;
}

int64_t WeightMatrix::width() const {
    return is_native() ? kPanelCols : f32.width;
}

bool bf16_dot_supported() {
#ifdef DS_WEIGHT_X86
    static const bool yes =
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bf16");
    return yes;
#else
    return false;
#endif
}

void gemm_weight(const float* x, int64_t ldx, const WeightMatrix& w, int64_t j0, int64_t j1,
                 float* y, int64_t ldy, int64_t m) {
    if (!w.is_native()) return gemm_nt_packed(x, ldx, w.f32, j0, j1, y, ldy, m);
    if (m <= 0 || j1 <= j0) return;
#ifdef DS_WEIGHT_X86
    if (bf16_dot_supported()) return gemm_native_bf16(x, ldx, w.native, j0, j1, y, ldy, m);
#endif
    gemm_native_portable(x, ldx, w.native, j0, j1, y, ldy, m);
}

void native_row_to_float(const NativeMatrix& w, int64_t row, float* dst) {
    const NativeBlock& b = block_of(w, row);
    decode_row_f32(b, w.k, row - b.first_row, 0, w.k, dst);
}

void native_block_to_float(const NativeMatrix& w, int64_t r0, int64_t rows, int64_t c0,
                           int64_t cols, float* dst) {
    for (int64_t r = 0; r < rows; ++r) {
        const NativeBlock& b = block_of(w, r0 + r);
        decode_row_f32(b, w.k, r0 + r - b.first_row, c0, cols, dst + r * cols);
    }
}

double measure_bf16_peak_gflops(double seconds) {
#ifdef DS_WEIGHT_X86
    if (bf16_dot_supported()) return bf16_peak_run(seconds);
#endif
    (void)seconds;
    return 0;
}

}  // namespace engine::cpu
