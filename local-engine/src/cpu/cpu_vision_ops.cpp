// The vision tower's CPU operators (ops/vision_ops.h).

#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "cpu/gemm_nt.h"
#include "cpu/kernels.h"
#include "ops/vision_ops.h"

namespace engine::ops {
namespace {

class CpuVisionOps final : public VisionOps {
  public:
    void linear(const model::TensorView& w, std::span<const float> x, int64_t rows,
                std::span<float> y) override {
        const int64_t out = w.shape[0], in = w.shape[1];
        cpu::gemm_nt(x.data(), in, f32(w), in, y.data(), out, rows, out, in);
    }

    void rmsnorm(std::span<const float> x, int64_t dim, const model::TensorView* w, double eps,
                 std::span<float> y) override {
        const float* wf = w ? f32(*w) : nullptr;
        const int64_t rows = static_cast<int64_t>(x.size()) / dim;
        for (int64_t r = 0; r < rows; ++r)
            cpu::rmsnorm(x.data() + r * dim, wf, dim, eps, y.data() + r * dim);
    }

    void rope_2d(std::span<float> x, int64_t rows, int heads, int head_dim,
                 std::span<const int32_t> pos_x, std::span<const int32_t> pos_y,
                 std::span<const float> inv_freq) override {
        const int half = head_dim / 2, quarter = head_dim / 4;
        std::vector<float> cx(static_cast<size_t>(quarter)), sx(cx.size()), cy(cx.size()),
            sy(cx.size());
        for (int64_t r = 0; r < rows; ++r) {
            for (int i = 0; i < quarter; ++i) {
                // float32 angles, as transformers' rotary embedding computes them.
                const float ax = static_cast<float>(pos_x[static_cast<size_t>(r)]) *
                                 inv_freq[static_cast<size_t>(i)];
                const float ay = static_cast<float>(pos_y[static_cast<size_t>(r)]) *
                                 inv_freq[static_cast<size_t>(i)];
                cx[static_cast<size_t>(i)] = std::cos(ax);
                sx[static_cast<size_t>(i)] = std::sin(ax);
                cy[static_cast<size_t>(i)] = std::cos(ay);
                sy[static_cast<size_t>(i)] = std::sin(ay);
            }
            for (int h = 0; h < heads; ++h) {
                float* head = x.data() + (r * heads + h) * head_dim;
                cpu::rope_neox(head, half, cx.data(), sx.data());
                cpu::rope_neox(head + half, half, cy.data(), sy.data());
            }
        }
    }

    void attention(std::span<const float> q, std::span<const float> k, std::span<const float> v,
                   int64_t rows, int heads, int kv_heads, int head_dim,
                   std::span<float> out) override {
        const int group = heads / kv_heads;
        const int64_t qs = static_cast<int64_t>(heads) * head_dim;
        const int64_t ks = static_cast<int64_t>(kv_heads) * head_dim;
        std::vector<float> scores(static_cast<size_t>(rows));
        for (int h = 0; h < heads; ++h) {
            const int g = h / group;
            for (int64_t i = 0; i < rows; ++i) {
                const float* qi = q.data() + i * qs + h * head_dim;
                for (int64_t j = 0; j < rows; ++j) {
                    const float* kj = k.data() + j * ks + g * head_dim;
                    float s = 0;
                    for (int d = 0; d < head_dim; ++d) s += qi[d] * kj[d];
                    scores[static_cast<size_t>(j)] = s;
                }
                cpu::softmax_inplace(scores.data(), rows);
                float* oi = out.data() + i * qs + h * head_dim;
                for (int d = 0; d < head_dim; ++d) oi[d] = 0;
                for (int64_t j = 0; j < rows; ++j) {
                    const float p = scores[static_cast<size_t>(j)];
                    const float* vj = v.data() + j * ks + g * head_dim;
                    for (int d = 0; d < head_dim; ++d) oi[d] += p * vj[d];
                }
            }
        }
    }

    void gelu_mul(std::span<float> a, std::span<const float> b) override {
        cpu::gelu_mul(a.data(), b.data(), static_cast<int64_t>(a.size()));
    }

  private:
    // The fp32 values of a weight: in place when stored as F32, else a converted copy.
    const float* f32(const model::TensorView& w) {
        if (w.dtype == model::DType::F32) return reinterpret_cast<const float*>(w.data);
        std::lock_guard lock(mu_);
        auto& copy = converted_[w.data];
        if (copy.empty()) {
            copy.resize(static_cast<size_t>(w.numel()));
            model::to_float(w.dtype, w.data, copy.size(), copy.data());
        }
        return copy.data();
    }

    std::mutex mu_;
    std::map<const std::byte*, std::vector<float>> converted_;
};

}  // namespace

std::unique_ptr<VisionOps> make_cpu_vision_ops() {
    return std::make_unique<CpuVisionOps>();
}

}  // namespace engine::ops
