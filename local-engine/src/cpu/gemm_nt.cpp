// The batch-invariant y = x W^T of gemm_nt.h. Every output is one chain of fused multiply-adds
// over k in ascending order, starting from zero: y[i][j] = fma(x[i][k], w[j][k], acc) for
// k = 0 .. K-1. The AVX2/FMA path packs 16 rows of w at a time into a [k][16] panel (one
// transpose per call, read by every row tile) and runs tiles of up to 6 x-rows by 16 outputs
// with one accumulator lane per output; the tile shape decides only which outputs run side by
// side, never the order of an output's own sum, so a row gets the same bits wherever it falls.
// Without AVX2/FMA the portable loop computes the same chains (std::fma is the same rounding).

#include "cpu/gemm_nt.h"

#include <algorithm>
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

#ifdef DS_GEMM_X86
constexpr int64_t kPanel = 16;  // outputs per panel: two 8-lane registers
constexpr int kRows = 6;        // x rows per tile: 12 accumulators

// 8 rows of w (stride ldw) at k0 .. k0+7 into panel lines k0 .. k0+7, columns c0 .. c0+7: an
// 8x8 transpose in registers.
__attribute__((target("avx2,fma"))) inline void pack_8x8(const float* w, int64_t ldw, float* dst) {
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
    r0 = _mm256_permute2f128_ps(u0, u4, 0x20);
    r1 = _mm256_permute2f128_ps(u1, u5, 0x20);
    r2 = _mm256_permute2f128_ps(u2, u6, 0x20);
    r3 = _mm256_permute2f128_ps(u3, u7, 0x20);
    r4 = _mm256_permute2f128_ps(u0, u4, 0x31);
    r5 = _mm256_permute2f128_ps(u1, u5, 0x31);
    r6 = _mm256_permute2f128_ps(u2, u6, 0x31);
    r7 = _mm256_permute2f128_ps(u3, u7, 0x31);
    _mm256_storeu_ps(dst + 0 * kPanel, r0);
    _mm256_storeu_ps(dst + 1 * kPanel, r1);
    _mm256_storeu_ps(dst + 2 * kPanel, r2);
    _mm256_storeu_ps(dst + 3 * kPanel, r3);
    _mm256_storeu_ps(dst + 4 * kPanel, r4);
    _mm256_storeu_ps(dst + 5 * kPanel, r5);
    _mm256_storeu_ps(dst + 6 * kPanel, r6);
    _mm256_storeu_ps(dst + 7 * kPanel, r7);
}

// `panel` = w rows [j0, j0 + cols) as [k][16] (columns past `cols` zero). Packing only moves
// values: it cannot change a bit of the result.
__attribute__((target("avx2,fma"))) void pack_panel(const float* w, int64_t ldw, int64_t cols,
                                                    int64_t k, float* panel) {
    const int64_t k8 = k / 8 * 8;
    if (cols == kPanel) {
        for (int64_t kk = 0; kk < k8; kk += 8) {
            pack_8x8(w + kk, ldw, panel + kk * kPanel);
            pack_8x8(w + 8 * ldw + kk, ldw, panel + kk * kPanel + 8);
        }
        for (int64_t c = 0; c < cols; ++c)
            for (int64_t kk = k8; kk < k; ++kk) panel[kk * kPanel + c] = w[c * ldw + kk];
        return;
    }
    std::memset(panel, 0, static_cast<size_t>(k * kPanel) * sizeof(float));
    for (int64_t c = 0; c < cols; ++c) {
        const float* src = w + c * ldw;
        for (int64_t kk = 0; kk < k; ++kk) panel[kk * kPanel + c] = src[kk];
    }
}

template <int MR>
__attribute__((target("avx2,fma"))) void tile(const float* x, int64_t ldx, const float* panel,
                                              int64_t k, float* y, int64_t ldy, int64_t cols) {
    // The row loops are unrolled so that the accumulators live in registers.
    __m256 lo[MR], hi[MR];
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) lo[i] = hi[i] = _mm256_setzero_ps();
    for (int64_t kk = 0; kk < k; ++kk) {
        const __m256 b0 = _mm256_loadu_ps(panel + kk * kPanel);
        const __m256 b1 = _mm256_loadu_ps(panel + kk * kPanel + 8);
#pragma GCC unroll 8
        for (int i = 0; i < MR; ++i) {
            const __m256 a = _mm256_broadcast_ss(x + i * ldx + kk);
            lo[i] = _mm256_fmadd_ps(a, b0, lo[i]);
            hi[i] = _mm256_fmadd_ps(a, b1, hi[i]);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
        if (cols == kPanel) {
            _mm256_storeu_ps(y + i * ldy, lo[i]);
            _mm256_storeu_ps(y + i * ldy + 8, hi[i]);
        } else {
            alignas(32) float out[kPanel];
            _mm256_store_ps(out, lo[i]);
            _mm256_store_ps(out + 8, hi[i]);
            std::memcpy(y + i * ldy, out, static_cast<size_t>(cols) * sizeof(float));
        }
    }
}

__attribute__((target("avx2,fma"))) void gemm_nt_avx2(const float* x, int64_t ldx, const float* w,
                                                      int64_t ldw, float* y, int64_t ldy, int64_t m,
                                                      int64_t n, int64_t k) {
    thread_local std::vector<float> panel_buffer;
    if (panel_buffer.size() < static_cast<size_t>(k * kPanel))
        panel_buffer.resize(static_cast<size_t>(k * kPanel));
    float* panel = panel_buffer.data();
    for (int64_t j0 = 0; j0 < n; j0 += kPanel) {
        const int64_t cols = std::min(kPanel, n - j0);
        pack_panel(w + j0 * ldw, ldw, cols, k, panel);
        int64_t i = 0;
        for (; i + kRows <= m; i += kRows)
            tile<kRows>(x + i * ldx, ldx, panel, k, y + i * ldy + j0, ldy, cols);
        const float* xr = x + i * ldx;
        float* yr = y + i * ldy + j0;
        switch (m - i) {
            case 5:
                tile<5>(xr, ldx, panel, k, yr, ldy, cols);
                break;
            case 4:
                tile<4>(xr, ldx, panel, k, yr, ldy, cols);
                break;
            case 3:
                tile<3>(xr, ldx, panel, k, yr, ldy, cols);
                break;
            case 2:
                tile<2>(xr, ldx, panel, k, yr, ldy, cols);
                break;
            case 1:
                tile<1>(xr, ldx, panel, k, yr, ldy, cols);
                break;
            default:
                break;
        }
    }
}

bool has_avx2_fma() {
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
}
#endif

}  // namespace

void gemm_nt(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y, int64_t ldy,
             int64_t m, int64_t n, int64_t k) {
    if (m <= 0 || n <= 0) return;
#ifdef DS_GEMM_X86
    if (has_avx2_fma()) return gemm_nt_avx2(x, ldx, w, ldw, y, ldy, m, n, k);
#endif
    gemm_nt_portable(x, ldx, w, ldw, y, ldy, m, n, k);
}

}  // namespace engine::cpu
