// The batch-invariant products of gemm_nt.h. Every output is one chain of fused multiply-adds
// over k in ascending order, starting from zero (or from y's value for an accumulating gemm_nn):
// acc = fma(x[i][k], w[j][k], acc) for k = 0 .. K-1. The vector paths run tiles of MR x-rows by
// one panel of outputs (16 for AVX2, 32 for AVX-512) with one accumulator lane per output; the
// tile shape decides only which outputs run side by side, never the order of an output's own
// sum, so a row gets the same bits wherever it falls and whichever path runs.
//
// gemm_nt packs W's rows into a k-major panel ([k][width]: one transpose per call, read by
// every row tile; width 32 fits an L1-resident panel for k up to ~350 and streams from L2
// beyond). gemm_nn reads B in place: its rows already are that panel.

#include "cpu/gemm_nt.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define DS_GEMM_X86 1
#endif

namespace engine::cpu {
namespace {

void gemm_nt_portable(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y,
                      int64_t ldy, int64_t m, int64_t n, int64_t k) {
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const float* xr = x + i * ldx;
            const float* wr = w + j * ldw;
            float acc = 0.0f;
            for (int64_t kk = 0; kk < k; ++kk) acc = std::fma(xr[kk], wr[kk], acc);
            y[i * ldy + j] = acc;
        }
}

void gemm_nn_portable(const float* x, int64_t ldx, const float* b, int64_t ldb, float* y,
                      int64_t ldy, int64_t m, int64_t n, int64_t k, bool accumulate) {
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const float* xr = x + i * ldx;
            float acc = accumulate ? y[i * ldy + j] : 0.0f;
            for (int64_t kk = 0; kk < k; ++kk) acc = std::fma(xr[kk], b[kk * ldb + j], acc);
            y[i * ldy + j] = acc;
        }
}

#ifdef DS_GEMM_X86

// 8 rows of w (stride ldw) at k0 .. k0+7 into panel lines k0 .. k0+7 (line stride `width`),
// 8 columns: an 8x8 transpose in registers.
__attribute__((target("avx2,fma"))) inline void pack_8x8(const float* w, int64_t ldw, float* dst,
                                                         int64_t width) {
    __m256 r0 = _mm256_loadu_ps(w), r1 = _mm256_loadu_ps(w + ldw),
           r2 = _mm256_loadu_ps(w + 2 * ldw), r3 = _mm256_loadu_ps(w + 3 * ldw),
           r4 = _mm256_loadu_ps(w + 4 * ldw), r5 = _mm256_loadu_ps(w + 5 * ldw),
           r6 = _mm256_loadu_ps(w + 6 * ldw), r7 = _mm256_loadu_ps(w + 7 * ldw);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1),
                 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3),
                 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
                 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
                 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
                 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_storeu_ps(dst + 0 * width, _mm256_permute2f128_ps(u0, u4, 0x20));
    _mm256_storeu_ps(dst + 1 * width, _mm256_permute2f128_ps(u1, u5, 0x20));
    _mm256_storeu_ps(dst + 2 * width, _mm256_permute2f128_ps(u2, u6, 0x20));
    _mm256_storeu_ps(dst + 3 * width, _mm256_permute2f128_ps(u3, u7, 0x20));
    _mm256_storeu_ps(dst + 4 * width, _mm256_permute2f128_ps(u0, u4, 0x31));
    _mm256_storeu_ps(dst + 5 * width, _mm256_permute2f128_ps(u1, u5, 0x31));
    _mm256_storeu_ps(dst + 6 * width, _mm256_permute2f128_ps(u2, u6, 0x31));
    _mm256_storeu_ps(dst + 7 * width, _mm256_permute2f128_ps(u3, u7, 0x31));
}

// `panel` = w rows [j0, j0 + cols) as [k][width] (columns past `cols` zero). Packing only moves
// values: it cannot change a bit of the result.
__attribute__((target("avx2,fma"))) void pack_panel(const float* w, int64_t ldw, int64_t cols,
                                                    int64_t k, int64_t width, float* panel) {
    if (cols < width) std::memset(panel, 0, static_cast<size_t>(k * width) * sizeof(float));
    const int64_t k8 = k / 8 * 8, c8 = cols / 8 * 8;
    for (int64_t c = 0; c < c8; c += 8)
        for (int64_t kk = 0; kk < k8; kk += 8)
            pack_8x8(w + c * ldw + kk, ldw, panel + kk * width + c, width);
    for (int64_t c = 0; c < cols; ++c) {
        const int64_t from = c < c8 ? k8 : 0;  // the transposes covered [0, k8) of full groups
        for (int64_t kk = from; kk < k; ++kk) panel[kk * width + c] = w[c * ldw + kk];
    }
}

// ---- AVX2/FMA: tiles of up to 6 rows x 16 outputs (12 accumulators) ----

constexpr int64_t kWidth2 = 16;
constexpr int kRows2 = 6;

__attribute__((target("avx2,fma"))) inline __m256i lane_mask8(int64_t valid) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(std::clamp<int64_t>(valid, 0, 8))),
                              lanes);
}

// y[MR][cols] (+)= x[MR][k] . panel[k][cols]; panel lines `ldp` apart. kFull: cols == 16, so
// loads and stores need no masks.
template <int MR, bool kFull>
__attribute__((target("avx2,fma"))) void tile_avx2(const float* x, int64_t ldx, const float* panel,
                                                   int64_t ldp, int64_t k, float* y, int64_t ldy,
                                                   int64_t cols, bool accumulate,
                                                   const float* prefetch) {
    const __m256i m0 = lane_mask8(cols), m1 = lane_mask8(cols - 8);
    __m256 lo[MR], hi[MR];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
        if (!accumulate) {
            lo[i] = hi[i] = _mm256_setzero_ps();
        } else if (kFull) {
            lo[i] = _mm256_loadu_ps(y + i * ldy);
            hi[i] = _mm256_loadu_ps(y + i * ldy + 8);
        } else {
            lo[i] = _mm256_maskload_ps(y + i * ldy, m0);
            hi[i] = _mm256_maskload_ps(y + i * ldy + 8, m1);
        }
    }
    for (int64_t kk = 0; kk < k; ++kk) {
        const float* p = panel + kk * ldp;
        if (prefetch) _mm_prefetch(reinterpret_cast<const char*>(prefetch + kk * ldp), _MM_HINT_T1);
        const __m256 b0 = kFull ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, m0);
        const __m256 b1 = kFull ? _mm256_loadu_ps(p + 8) : _mm256_maskload_ps(p + 8, m1);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
            const __m256 a = _mm256_broadcast_ss(x + i * ldx + kk);
            lo[i] = _mm256_fmadd_ps(a, b0, lo[i]);
            hi[i] = _mm256_fmadd_ps(a, b1, hi[i]);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
        if (kFull) {
            _mm256_storeu_ps(y + i * ldy, lo[i]);
            _mm256_storeu_ps(y + i * ldy + 8, hi[i]);
        } else {
            _mm256_maskstore_ps(y + i * ldy, m0, lo[i]);
            _mm256_maskstore_ps(y + i * ldy + 8, m1, hi[i]);
        }
    }
}

// ---- AVX-512: tiles of up to 12 rows x 32 outputs (24 of the 32 registers accumulate) ----

constexpr int64_t kWidth512 = 32;
constexpr int kRows512 = static_cast<int>(kGemmTileRows);
static_assert(kGemmTileRows % kRows2 == 0, "every path's tiles divide the largest");

template <int MR, bool kFull>
__attribute__((target("avx512f"))) void tile_avx512(const float* x, int64_t ldx, const float* panel,
                                                    int64_t ldp, int64_t k, float* y, int64_t ldy,
                                                    int64_t cols, bool accumulate,
                                                    const float* prefetch) {
    const auto mask = [](int64_t valid) -> __mmask16 {
        return static_cast<__mmask16>(valid >= 16 ? 0xFFFF : valid <= 0 ? 0 : (1u << valid) - 1);
    };
    const __mmask16 m0 = mask(cols), m1 = mask(cols - 16);
    __m512 lo[MR], hi[MR];
#pragma GCC unroll 12
    for (int i = 0; i < MR; ++i) {
        if (!accumulate) {
            lo[i] = hi[i] = _mm512_setzero_ps();
        } else if (kFull) {
            lo[i] = _mm512_loadu_ps(y + i * ldy);
            hi[i] = _mm512_loadu_ps(y + i * ldy + 16);
        } else {
            lo[i] = _mm512_maskz_loadu_ps(m0, y + i * ldy);
            hi[i] = _mm512_maskz_loadu_ps(m1, y + i * ldy + 16);
        }
    }
    for (int64_t kk = 0; kk < k; ++kk) {
        const float* p = panel + kk * ldp;
        if (prefetch) _mm_prefetch(reinterpret_cast<const char*>(prefetch + kk * ldp), _MM_HINT_T1);
        const __m512 b0 = kFull ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m0, p);
        const __m512 b1 = kFull ? _mm512_loadu_ps(p + 16) : _mm512_maskz_loadu_ps(m1, p + 16);
#pragma GCC unroll 12
        for (int i = 0; i < MR; ++i) {
            const __m512 a = _mm512_set1_ps(x[i * ldx + kk]);
            lo[i] = _mm512_fmadd_ps(a, b0, lo[i]);
            hi[i] = _mm512_fmadd_ps(a, b1, hi[i]);
        }
    }
#pragma GCC unroll 12
    for (int i = 0; i < MR; ++i) {
        if (kFull) {
            _mm512_storeu_ps(y + i * ldy, lo[i]);
            _mm512_storeu_ps(y + i * ldy + 16, hi[i]);
        } else {
            _mm512_mask_storeu_ps(y + i * ldy, m0, lo[i]);
            _mm512_mask_storeu_ps(y + i * ldy + 16, m1, hi[i]);
        }
    }
}

// One ISA's tile family: Tile<MR, kFull>::run(...), with a table over MR for the row tails.
template <GemmIsa kIsa>
struct Tiles;

template <>
struct Tiles<GemmIsa::avx2> {
    static constexpr int64_t kWidth = kWidth2;
    static constexpr int kRows = kRows2;
    template <int MR, bool kFull>
    static void run(const float* x, int64_t ldx, const float* p, int64_t ldp, int64_t k, float* y,
                    int64_t ldy, int64_t cols, bool acc, const float* pf) {
        tile_avx2<MR, kFull>(x, ldx, p, ldp, k, y, ldy, cols, acc, pf);
    }
};

template <>
struct Tiles<GemmIsa::avx512> {
    static constexpr int64_t kWidth = kWidth512;
    static constexpr int kRows = kRows512;
    template <int MR, bool kFull>
    static void run(const float* x, int64_t ldx, const float* p, int64_t ldp, int64_t k, float* y,
                    int64_t ldy, int64_t cols, bool acc, const float* pf) {
        tile_avx512<MR, kFull>(x, ldx, p, ldp, k, y, ldy, cols, acc, pf);
    }
};

using TileFn = void (*)(const float*, int64_t, const float*, int64_t, int64_t, float*, int64_t,
                        int64_t, bool, const float*);

template <class T, bool kFull, int... MR>
constexpr std::array<TileFn, sizeof...(MR) + 1> tile_table(std::integer_sequence<int, MR...>) {
    return {nullptr, &T::template run<MR + 1, kFull>...};
}

// All x rows against one panel of `cols` outputs at column j0 of y. `next`, when not null, is
// the panel the caller runs after this one (the same [k][ldp] shape): the first tiles bring it
// into L2 while they compute, a line per k (the first tile the first 64 bytes of each panel
// line, the second tile the rest). Weights packed at load come from memory on every pass, and
// a row block of a few tiles (an expert's tokens, the readout's queries) would otherwise wait
// for each panel; prefetching only moves data, never a result's bits.
template <GemmIsa kIsa>
void rows_by_panel(const float* x, int64_t ldx, const float* panel, int64_t ldp, float* y,
                   int64_t ldy, int64_t m, int64_t k, int64_t cols, bool accumulate,
                   const float* next = nullptr) {
    using T = Tiles<kIsa>;
    static constexpr auto full = tile_table<T, true>(std::make_integer_sequence<int, T::kRows>{});
    static constexpr auto part = tile_table<T, false>(std::make_integer_sequence<int, T::kRows>{});
    const auto& table = cols == T::kWidth ? full : part;
    constexpr int64_t kLine = 64 / sizeof(float);
    for (int64_t i = 0, tile = 0; i < m; i += T::kRows, ++tile) {
        const int64_t rows = std::min<int64_t>(T::kRows, m - i);
        const float* pf = next && tile * kLine < ldp ? next + tile * kLine : nullptr;
        table[static_cast<size_t>(rows)](x + i * ldx, ldx, panel, ldp, k, y + i * ldy, ldy, cols,
                                         accumulate, pf);
        // A single tile fetches the rest of each line itself.
        if (next && i + T::kRows >= m)
            for (int64_t t = tile + 1; t * kLine < ldp; ++t)
                for (int64_t kk = 0; kk < k; ++kk)
                    _mm_prefetch(reinterpret_cast<const char*>(next + t * kLine + kk * ldp),
                                 _MM_HINT_T1);
    }
}

template <GemmIsa kIsa>
void gemm_nt_vector(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y, int64_t ldy,
                    int64_t m, int64_t n, int64_t k) {
    constexpr int64_t width = Tiles<kIsa>::kWidth;
    thread_local std::vector<float> panel_buffer;
    if (panel_buffer.size() < static_cast<size_t>(k * width))
        panel_buffer.resize(static_cast<size_t>(k * width));
    float* panel = panel_buffer.data();
    for (int64_t j0 = 0; j0 < n; j0 += width) {
        const int64_t cols = std::min(width, n - j0);
        pack_panel(w + j0 * ldw, ldw, cols, k, width, panel);
        rows_by_panel<kIsa>(x, ldx, panel, width, y + j0, ldy, m, k, cols, false);
    }
}

template <GemmIsa kIsa>
void gemm_nn_vector(const float* x, int64_t ldx, const float* b, int64_t ldb, float* y, int64_t ldy,
                    int64_t m, int64_t n, int64_t k, bool accumulate) {
    constexpr int64_t width = Tiles<kIsa>::kWidth;
    for (int64_t j0 = 0; j0 < n; j0 += width)
        rows_by_panel<kIsa>(x, ldx, b + j0, ldb, y + j0, ldy, m, k, std::min(width, n - j0),
                            accumulate);
}

#endif  // DS_GEMM_X86

std::vector<GemmIsa> detect_isas() {
    std::vector<GemmIsa> isas{GemmIsa::portable};
#ifdef DS_GEMM_X86
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        isas.push_back(GemmIsa::avx2);
        if (__builtin_cpu_supports("avx512f")) isas.push_back(GemmIsa::avx512);
    }
#endif
    return isas;
}

const std::vector<GemmIsa>& isas() {
    static const std::vector<GemmIsa> found = detect_isas();
    return found;
}

}  // namespace

std::span<const GemmIsa> supported_gemm_isas() {
    return isas();
}

GemmIsa best_gemm_isa() {
    static const GemmIsa best = isas().back();
    return best;
}

const char* gemm_isa_name(GemmIsa isa) {
    switch (isa) {
        case GemmIsa::avx512:
            return "avx512";
        case GemmIsa::avx2:
            return "avx2";
        case GemmIsa::portable:
            break;
    }
    return "portable";
}

void gemm_nt(GemmIsa isa, const float* x, int64_t ldx, const float* w, int64_t ldw, float* y,
             int64_t ldy, int64_t m, int64_t n, int64_t k) {
    if (m <= 0 || n <= 0) return;
    switch (isa) {
#ifdef DS_GEMM_X86
        case GemmIsa::avx512:
            return gemm_nt_vector<GemmIsa::avx512>(x, ldx, w, ldw, y, ldy, m, n, k);
        case GemmIsa::avx2:
            return gemm_nt_vector<GemmIsa::avx2>(x, ldx, w, ldw, y, ldy, m, n, k);
#endif
        default:
            return gemm_nt_portable(x, ldx, w, ldw, y, ldy, m, n, k);
    }
}

void gemm_nt(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y, int64_t ldy,
             int64_t m, int64_t n, int64_t k) {
    gemm_nt(best_gemm_isa(), x, ldx, w, ldw, y, ldy, m, n, k);
}

PackedMatrix pack_matrix(const float* w, int64_t n, int64_t k) {
    PackedMatrix p;
    p.n = n;
    p.k = k;
    const GemmIsa isa = best_gemm_isa();
#ifdef DS_GEMM_X86
    if (isa != GemmIsa::portable) {
        p.width =
            isa == GemmIsa::avx512 ? Tiles<GemmIsa::avx512>::kWidth : Tiles<GemmIsa::avx2>::kWidth;
        const int64_t panels = (n + p.width - 1) / p.width;
        p.data.resize(static_cast<size_t>(panels * k * p.width));
        for (int64_t q = 0; q < panels; ++q)
            pack_panel(w + q * p.width * k, k, std::min(p.width, n - q * p.width), k, p.width,
                       p.data.data() + q * k * p.width);
        return p;
    }
#endif
    p.data.assign(w, w + n * k);
    return p;
}

void gemm_nt_packed(const float* x, int64_t ldx, const PackedMatrix& w, int64_t j0, int64_t j1,
                    float* y, int64_t ldy, int64_t m) {
    if (m <= 0 || j1 <= j0) return;
    if (w.width == 0)
        return gemm_nt(GemmIsa::portable, x, ldx, w.data.data() + j0 * w.k, w.k, y, ldy, m, j1 - j0,
                       w.k);
#ifdef DS_GEMM_X86
    for (int64_t c = j0; c < j1; c += w.width) {
        const float* panel = w.data.data() + (c / w.width) * w.k * w.width;
        const int64_t cols = std::min(w.width, j1 - c);
        const float* next = c + w.width < j1 ? panel + w.k * w.width : nullptr;
        if (w.width == Tiles<GemmIsa::avx512>::kWidth)
            rows_by_panel<GemmIsa::avx512>(x, ldx, panel, w.width, y + (c - j0), ldy, m, w.k, cols,
                                           false, next);
        else
            rows_by_panel<GemmIsa::avx2>(x, ldx, panel, w.width, y + (c - j0), ldy, m, w.k, cols,
                                         false, next);
    }
#endif
}

void gemm_nn(GemmIsa isa, const float* x, int64_t ldx, const float* b, int64_t ldb, float* y,
             int64_t ldy, int64_t m, int64_t n, int64_t k, bool accumulate) {
    if (m <= 0 || n <= 0) return;
    switch (isa) {
#ifdef DS_GEMM_X86
        case GemmIsa::avx512:
            return gemm_nn_vector<GemmIsa::avx512>(x, ldx, b, ldb, y, ldy, m, n, k, accumulate);
        case GemmIsa::avx2:
            return gemm_nn_vector<GemmIsa::avx2>(x, ldx, b, ldb, y, ldy, m, n, k, accumulate);
#endif
        default:
            return gemm_nn_portable(x, ldx, b, ldb, y, ldy, m, n, k, accumulate);
    }
}

void gemm_nn(const float* x, int64_t ldx, const float* b, int64_t ldb, float* y, int64_t ldy,
             int64_t m, int64_t n, int64_t k, bool accumulate) {
    gemm_nn(best_gemm_isa(), x, ldx, b, ldb, y, ldy, m, n, k, accumulate);
}

}  // namespace engine::cpu
