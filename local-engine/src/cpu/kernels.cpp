#include "cpu/kernels.h"

#include "cpu/gemm_nt.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
// GCC 12's AVX-512 headers start some intrinsics (roundscale, cvtps, extract) from
// _mm*_undefined_*(), which -Wmaybe-uninitialized misreads once inlined (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#endif

namespace engine::cpu {

float gelu_tanh(float x) {
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
    return 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
}

namespace {

#if defined(__x86_64__) || defined(__i386__)
#define DS_KERNELS_X86 1

// The GELU of the MLPs and experts, vectorised. glibc's tanhf (expm1f inside) was a third of the
// CPU slot read's time. Written as 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)), u = sqrt(2/pi)
// (x + 0.044715 x^3), with exp from a degree-7 polynomial after the usual 2^n range reduction
// (relative error ~1e-7, as float's own rounding). Large |u| saturates correctly: exp(-2u) is
// clamped to [e^-87, e^88], giving x or -0 to float precision. Tails run masked through the
// same instructions, so an element's bits do not depend on the call's length (a row computes
// alike alone or in a batch).
struct ExpConstants {
    static constexpr float lo = -87.0f, hi = 88.0f;
    static constexpr float log2e = 1.44269504088896341f;
    static constexpr float ln2_hi = 0.693145751953125f, ln2_lo = 1.42860682030941723e-6f;
    static constexpr float c[8] = {1.0f,      1.0f,       0.5f,       1.0f / 6,
                                   1.0f / 24, 1.0f / 120, 1.0f / 720, 1.0f / 5040};
};

__attribute__((target("avx512f"))) inline __m512 exp512(__m512 x0) {
    using K = ExpConstants;
    const __m512 x = _mm512_min_ps(_mm512_max_ps(x0, _mm512_set1_ps(K::lo)), _mm512_set1_ps(K::hi));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(K::log2e)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(K::ln2_hi), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(K::ln2_lo), r);
    __m512 p = _mm512_set1_ps(K::c[7]);
    for (int i = 6; i >= 0; --i) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(K::c[i]));
    const __m512i e =
        _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
    // Below e^-87 (and for -inf: masked attention scores) the answer is 0, not the clamp's value.
    return _mm512_maskz_mul_ps(_mm512_cmp_ps_mask(x0, _mm512_set1_ps(K::lo), _CMP_GE_OQ), p,
                               _mm512_castsi512_ps(e));
}

__attribute__((target("avx2,fma"))) inline __m256 exp256(__m256 x) {
    using K = ExpConstants;
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(K::lo)), _mm256_set1_ps(K::hi));
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(K::log2e)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(K::ln2_hi), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(K::ln2_lo), r);
    __m256 p = _mm256_set1_ps(K::c[7]);
    for (int i = 6; i >= 0; --i) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(K::c[i]));
    const __m256i e =
        _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

__attribute__((target("avx512f"))) void gelu_mul_avx512(float* a, const float* b, int64_t n) {
    const __m512 k = _mm512_set1_ps(-2.0f * 0.7978845608028654f), c = _mm512_set1_ps(0.044715f),
                 one = _mm512_set1_ps(1.0f);
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? static_cast<__mmask16>(0xFFFF)
                                        : static_cast<__mmask16>((1u << (n - i)) - 1);
        const __m512 x = _mm512_maskz_loadu_ps(m, a + i), y = _mm512_maskz_loadu_ps(m, b + i);
        const __m512 inner = _mm512_fmadd_ps(_mm512_mul_ps(c, x), _mm512_mul_ps(x, x), x);
        const __m512 e = exp512(_mm512_mul_ps(k, inner));
        const __m512 g = _mm512_div_ps(x, _mm512_add_ps(one, e));
        _mm512_mask_storeu_ps(a + i, m, _mm512_mul_ps(g, y));
    }
}

__attribute__((target("avx512f"))) inline __mmask16 tail_mask(int64_t left) {
    return left >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << left) - 1);
}

// Sums the 16 lanes of v into two 8-lane double accumulators (the softmax denominators keep
// double precision, as the scalar code did).
__attribute__((target("avx512f"))) inline void add_to_doubles(__m512 v, __m512d& lo, __m512d& hi) {
    lo = _mm512_add_pd(lo, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
    hi = _mm512_add_pd(
        hi, _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))));
}

__attribute__((target("avx512f"))) float max_avx512(const float* x, int64_t n) {
    const __m512 ninf = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    __m512 m = ninf;
    for (int64_t i = 0; i < n; i += 16)
        m = _mm512_max_ps(m, _mm512_mask_loadu_ps(ninf, tail_mask(n - i), x + i));
    return _mm512_reduce_max_ps(m);
}

// sum of exp(x[i] - m) (double); each term also written to out[i] when out is given.
__attribute__((target("avx512f"))) double exp_shifted_avx512(const float* x, int64_t n, float m,
                                                             float* out) {
    const __m512 mv = _mm512_set1_ps(m);
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = tail_mask(n - i);
        const __m512 e =
            _mm512_maskz_mov_ps(k, exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), mv)));
        if (out) _mm512_mask_storeu_ps(out + i, k, e);
        add_to_doubles(e, lo, hi);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(lo, hi));
}

__attribute__((target("avx512f"))) void scale_avx512(float* x, int64_t n, float f) {
    const __m512 fv = _mm512_set1_ps(f);
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = tail_mask(n - i);
        _mm512_mask_storeu_ps(x + i, k, _mm512_mul_ps(_mm512_maskz_loadu_ps(k, x + i), fv));
    }
}

// sum of x^2 in double, as the scalar rmsnorm (a fixed order per row: lanes, then their sum).
__attribute__((target("avx512f"))) double sum_squares_avx512(const float* x, int64_t n) {
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    for (int64_t i = 0; i < n; i += 16) {
        const __m512 v = _mm512_maskz_loadu_ps(tail_mask(n - i), x + i);
        const __m512d a = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
        const __m512d b =
            _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
        lo = _mm512_fmadd_pd(a, a, lo);
        hi = _mm512_fmadd_pd(b, b, hi);
    }
    return _mm512_reduce_add_pd(_mm512_add_pd(lo, hi));
}

// y = (x * s) [* weight], rounding as the scalar code: the product by s first.
__attribute__((target("avx512f"))) void scale_rows_avx512(const float* x, float s,
                                                          const float* weight, int64_t n,
                                                          float* y) {
    const __m512 sv = _mm512_set1_ps(s);
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = tail_mask(n - i);
        __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, x + i), sv);
        if (weight) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(k, weight + i));
        _mm512_mask_storeu_ps(y + i, k, v);
    }
}

__attribute__((target("avx512f"))) void softcap_avx512(float* x, int64_t n, float cap) {
    const __m512 inv = _mm512_set1_ps(1.0f / cap), c = _mm512_set1_ps(cap),
                 lo = _mm512_set1_ps(-9.0f), hi = _mm512_set1_ps(9.0f), one = _mm512_set1_ps(1.0f),
                 two = _mm512_set1_ps(2.0f);
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = tail_mask(n - i);
        const __m512 y = _mm512_min_ps(
            _mm512_max_ps(_mm512_mul_ps(_mm512_maskz_loadu_ps(k, x + i), inv), lo), hi);
        const __m512 e = exp512(_mm512_mul_ps(two, y));
        const __m512 t = _mm512_div_ps(_mm512_sub_ps(e, one), _mm512_add_ps(e, one));
        _mm512_mask_storeu_ps(x + i, k, _mm512_mul_ps(t, c));
    }
}

__attribute__((target("avx2,fma"))) void gelu_mul_avx2(float* a, const float* b, int64_t n) {
    const __m256 k = _mm256_set1_ps(-2.0f * 0.7978845608028654f), c = _mm256_set1_ps(0.044715f),
                 one = _mm256_set1_ps(1.0f);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int64_t i = 0; i < n; i += 8) {
        const int valid = static_cast<int>(std::min<int64_t>(8, n - i));
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(valid), lanes);
        const __m256 x = _mm256_maskload_ps(a + i, m), y = _mm256_maskload_ps(b + i, m);
        const __m256 inner = _mm256_fmadd_ps(_mm256_mul_ps(c, x), _mm256_mul_ps(x, x), x);
        const __m256 e = exp256(_mm256_mul_ps(k, inner));
        const __m256 g = _mm256_div_ps(x, _mm256_add_ps(one, e));
        _mm256_maskstore_ps(a + i, m, _mm256_mul_ps(g, y));
    }
}

// The element-wise steps of the residual and routing passes (x += a and its kin). GCC's -O2
// leaves such loops scalar for a run-time length; these run them 16 wide. One rounding per
// operation, in the scalar loop's order, so the bits are the portable loop's.
__attribute__((target("avx512f"))) void add_scale_avx512(float* x, const float* a, float s,
                                                         int64_t n) {
    const __m512 sv = _mm512_set1_ps(s);
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = tail_mask(n - i);
        const __m512 v =
            _mm512_add_ps(_mm512_maskz_loadu_ps(k, x + i), _mm512_maskz_loadu_ps(k, a + i));
        _mm512_mask_storeu_ps(x + i, k, s == 1.0f ? v : _mm512_mul_ps(v, sv));
    }
}

__attribute__((target("avx512f"))) void mul_scale_avx512(const float* x, const float* w, float s,
                                                         float* y, int64_t n) {
    const __m512 sv = _mm512_set1_ps(s);
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = tail_mask(n - i);
        __m512 v = _mm512_maskz_loadu_ps(k, x + i);
        if (w) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(k, w + i));
        _mm512_mask_storeu_ps(y + i, k, _mm512_mul_ps(v, sv));
    }
}

#endif

}  // namespace

void add_inplace(float* x, const float* a, int64_t n) {
    add_scale_inplace(x, a, 1.0f, n);
}

void add_scale_inplace(float* x, const float* a, float s, int64_t n) {
#ifdef DS_KERNELS_X86
    if (best_gemm_isa() == GemmIsa::avx512) return add_scale_avx512(x, a, s, n);
#endif
    if (s == 1.0f) {
        for (int64_t i = 0; i < n; ++i) x[i] += a[i];
    } else {
        for (int64_t i = 0; i < n; ++i) x[i] = (x[i] + a[i]) * s;
    }
}

void mul_scale(const float* x, const float* w, float s, float* y, int64_t n) {
#ifdef DS_KERNELS_X86
    if (best_gemm_isa() == GemmIsa::avx512) return mul_scale_avx512(x, w, s, y, n);
#endif
    if (w) {
        for (int64_t i = 0; i < n; ++i) y[i] = (x[i] * w[i]) * s;
    } else {
        for (int64_t i = 0; i < n; ++i) y[i] = x[i] * s;
    }
}

void rmsnorm(const float* x, const float* weight, int64_t dim, double eps, float* y) {
#ifdef DS_KERNELS_X86
    if (best_gemm_isa() == GemmIsa::avx512) {
        const float inv = static_cast<float>(
            1.0 / std::sqrt(sum_squares_avx512(x, dim) / static_cast<double>(dim) + eps));
        return scale_rows_avx512(x, inv, weight, dim, y);
    }
#endif
    double ss = 0;
    for (int64_t i = 0; i < dim; ++i) ss += static_cast<double>(x[i]) * x[i];
    // The reference: x * pow(mean(x^2) + eps, -0.5) in fp32, then * weight.
    const float inv = static_cast<float>(1.0 / std::sqrt(ss / static_cast<double>(dim) + eps));
    if (weight) {
        for (int64_t i = 0; i < dim; ++i) y[i] = (x[i] * inv) * weight[i];
    } else {
        for (int64_t i = 0; i < dim; ++i) y[i] = x[i] * inv;
    }
}

void gelu_mul(float* a, const float* b, int64_t n) {
#ifdef DS_KERNELS_X86
    switch (best_gemm_isa()) {
        case GemmIsa::avx512:
            return gelu_mul_avx512(a, b, n);
        case GemmIsa::avx2:
            return gelu_mul_avx2(a, b, n);
        case GemmIsa::portable:
            break;
    }
#endif
    for (int64_t i = 0; i < n; ++i) a[i] = gelu_tanh(a[i]) * b[i];
}

void rope_neox(float* head, int64_t dim, const float* cos_half, const float* sin_half) {
    const int64_t half = dim / 2;
    for (int64_t i = 0; i < half; ++i) {
        const float x1 = head[i], x2 = head[i + half];
        head[i] = x1 * cos_half[i] - x2 * sin_half[i];
        head[i + half] = x2 * cos_half[i] + x1 * sin_half[i];
    }
}

void softmax_inplace(float* x, int64_t n) {
#ifdef DS_KERNELS_X86
    if (best_gemm_isa() == GemmIsa::avx512) {
        const float m = max_avx512(x, n);
        const double sum = exp_shifted_avx512(x, n, m, x);
        scale_avx512(x, n, static_cast<float>(1.0 / sum));
        return;
    }
#endif
    float m = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) m = std::max(m, x[i]);
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = std::exp(x[i] - m);
        sum += x[i];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

MaxSumExp max_sumexp_argmax(const float* x, int64_t n) {
    MaxSumExp r;
#ifdef DS_KERNELS_X86
    if (best_gemm_isa() == GemmIsa::avx512) {
        r.max = max_avx512(x, n);
        r.argmax = std::find(x, x + n, r.max) - x;  // the first, as the scalar scan
        r.sum = exp_shifted_avx512(x, n, r.max, nullptr);
        return r;
    }
#endif
    for (int64_t j = 0; j < n; ++j)
        if (x[j] > r.max) {
            r.max = x[j];
            r.argmax = j;
        }
    for (int64_t j = 0; j < n; ++j) r.sum += std::exp(x[j] - r.max);
    return r;
}

void softcap_inplace(float* x, int64_t n, float cap) {
    if (cap <= 0) return;
#ifdef DS_KERNELS_X86
    if (best_gemm_isa() == GemmIsa::avx512) return softcap_avx512(x, n, cap);
#endif
    // tanh through one expf: glibc's tanhf (expm1f inside) was the single largest cost of full
    // logits. (e - 1) / (e + 1) loses at most ~1e-7 absolute near 0, i.e. ~4e-6 after * cap;
    // beyond |y| = 9 tanh is +-1 in float.
    for (int64_t i = 0; i < n; ++i) {
        const float y = std::clamp(x[i] / cap, -9.0f, 9.0f);
        const float e = std::exp(2.0f * y);
        x[i] = ((e - 1.0f) / (e + 1.0f)) * cap;
    }
}

}  // namespace engine::cpu
