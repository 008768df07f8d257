#include "cpu/kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace engine::cpu {

void rmsnorm(const float* x, const float* weight, int64_t dim, double eps, float* y) {
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

float gelu_tanh(float x) {
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
    return 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
}

void gelu_mul(float* a, const float* b, int64_t n) {
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

void softcap_inplace(float* x, int64_t n, float cap) {
    if (cap <= 0) return;
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
