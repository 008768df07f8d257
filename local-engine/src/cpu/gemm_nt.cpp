// The batch-invariant y = x W^T of gemm_nt.h: an AVX2/FMA micro-kernel of 3 x-rows by 4 w-rows
// when the CPU has them (chosen once per process), else the same arithmetic lane by lane in
// portable code (the same bits as the AVX2 path: one fused multiply-add per lane and k).

#include "cpu/gemm_nt.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define DS_GEMM_X86 1
#endif

namespace engine::cpu {
namespace {

constexpr int64_t kLanes = 8;
// w rows per cache block: 32 rows of a 2816-wide matrix are ~360 KB, about an L2.
constexpr int64_t kBlockN = 32;

// The lanes' fixed pairwise sum, then the tail of k past the last full group of eight.
inline float finish(const float lanes[kLanes], const float* x, const float* w, int64_t k0,
                    int64_t k) {
    float s = ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) +
              ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]));
    for (int64_t i = k0; i < k; ++i) s = std::fma(x[i], w[i], s);
    return s;
}

// Portable path: the same per-lane fused multiply-adds in the same order.
void gemm_nt_portable(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y,
                      int64_t ldy, int64_t m, int64_t n, int64_t k) {
    const int64_t kv = k / kLanes * kLanes;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const float* xr = x + i * ldx;
            const float* wr = w + j * ldw;
            float lanes[kLanes] = {};
            for (int64_t kk = 0; kk < kv; kk += kLanes)
                for (int64_t l = 0; l < kLanes; ++l)
                    lanes[l] = std::fma(xr[kk + l], wr[kk + l], lanes[l]);
            y[i * ldy + j] = finish(lanes, xr, wr, kv, k);
        }
}

#ifdef DS_GEMM_X86
// An MR x NR tile; every tile size runs the same per-lane arithmetic.
template <int MR, int NR>
__attribute__((target("avx2,fma"))) inline void tile(const float* x, int64_t ldx, const float* w,
                                                     int64_t ldw, float* y, int64_t ldy,
                                                     int64_t k) {
    __m256 acc[MR][NR];
    for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) acc[i][j] = _mm256_setzero_ps();
    const int64_t kv = k / kLanes * kLanes;
    for (int64_t kk = 0; kk < kv; kk += kLanes) {
        __m256 xv[MR];
        for (int i = 0; i < MR; ++i) xv[i] = _mm256_loadu_ps(x + i * ldx + kk);
        for (int j = 0; j < NR; ++j) {
            const __m256 wv = _mm256_loadu_ps(w + j * ldw + kk);
            for (int i = 0; i < MR; ++i) acc[i][j] = _mm256_fmadd_ps(xv[i], wv, acc[i][j]);
        }
    }
    for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) {
            alignas(32) float lanes[kLanes];
            _mm256_store_ps(lanes, acc[i][j]);
            y[i * ldy + j] = finish(lanes, x + i * ldx, w + j * ldw, kv, k);
        }
}

template <int MR>
__attribute__((target("avx2,fma"))) void row_tiles(const float* x, int64_t ldx, const float* w,
                                                   int64_t ldw, float* y, int64_t ldy, int64_t n,
                                                   int64_t k) {
    int64_t j = 0;
    for (; j + 4 <= n; j += 4) tile<MR, 4>(x, ldx, w + j * ldw, ldw, y + j, ldy, k);
    switch (n - j) {
        case 3:
            tile<MR, 3>(x, ldx, w + j * ldw, ldw, y + j, ldy, k);
            break;
        case 2:
            tile<MR, 2>(x, ldx, w + j * ldw, ldw, y + j, ldy, k);
            break;
        case 1:
            tile<MR, 1>(x, ldx, w + j * ldw, ldw, y + j, ldy, k);
            break;
        default:
            break;
    }
}

__attribute__((target("avx2,fma"))) void gemm_nt_avx2(const float* x, int64_t ldx, const float* w,
                                                      int64_t ldw, float* y, int64_t ldy, int64_t m,
                                                      int64_t n, int64_t k) {
    for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        const int64_t nb = std::min(kBlockN, n - j0);
        const float* wb = w + j0 * ldw;
        int64_t i = 0;
        for (; i + 3 <= m; i += 3)
            row_tiles<3>(x + i * ldx, ldx, wb, ldw, y + i * ldy + j0, ldy, nb, k);
        if (m - i == 2) row_tiles<2>(x + i * ldx, ldx, wb, ldw, y + i * ldy + j0, ldy, nb, k);
        if (m - i == 1) row_tiles<1>(x + i * ldx, ldx, wb, ldw, y + i * ldy + j0, ldy, nb, k);
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
