#pragma once
// Small fp32 kernels of the CPU backend (row-wise norms, activations, RoPE, softmax). Matrix
// products are cpu/gemm_nt.h's.

#include <cstdint>
#include <limits>

namespace engine::cpu {

// y = x * (mean(x^2) + eps)^-0.5 [* weight], over `dim` elements (x and y may alias).
void rmsnorm(const float* x, const float* weight, int64_t dim, double eps, float* y);
// gelu, tanh approximation (transformers "gelu_pytorch_tanh").
float gelu_tanh(float x);
// In place: a[i] = gelu(a[i]) * b[i].
void gelu_mul(float* a, const float* b, int64_t n);
// NeoX rotation of one head: dimension i pairs with i + dim/2; angle = position * inv_freq[i].
void rope_neox(float* head, int64_t dim, const float* cos_half, const float* sin_half);
// In place softmax of n values; returns nothing. Masked entries must already be -inf.
void softmax_inplace(float* x, int64_t n);
// The largest of n values, the first index holding it, and sum(exp(x - max)) in double: one
// slice of a full-vocabulary log-sum-exp. n >= 1.
struct MaxSumExp {
    float max = -std::numeric_limits<float>::infinity();
    int64_t argmax = 0;
    double sum = 0;
};
MaxSumExp max_sumexp_argmax(const float* x, int64_t n);
// tanh(x / cap) * cap over n values (no-op when cap <= 0).
void softcap_inplace(float* x, int64_t n, float cap);
// Element-wise steps, vectorised, with the bits of the plain loops: x[i] += a[i];
// x[i] = (x[i] + a[i]) * s; y[i] = (x[i] * w[i]) * s (x[i] * s without w; y may be x).
void add_inplace(float* x, const float* a, int64_t n);
void add_scale_inplace(float* x, const float* a, float s, int64_t n);
void mul_scale(const float* x, const float* w, float s, float* y, int64_t n);

}  // namespace engine::cpu
