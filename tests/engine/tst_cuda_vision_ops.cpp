// The vision tower's CUDA operators (cuda/cuda_vision_ops.cpp) against the CPU operators
// (cpu/cpu_vision_ops.cpp) on random fp32 inputs at the real tower's head shape (16 heads of
// 72, a 2-D position grid): each op to a max abs difference of 1e-4 relative to the values'
// scale. Skipped (exit 77) without a CUDA device.

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <random>

#include "engine/engine.h"

#ifdef DS_HAVE_CUDA
#include "cuda/cuda_vision_ops.h"
#include "ops/vision_ops.h"

namespace {

std::vector<float> random_values(size_t n, uint32_t seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

// A checkpoint-like view of host fp32 values.
engine::model::TensorView view(const std::vector<float>& v, std::vector<int64_t> shape) {
    engine::model::TensorView t;
    t.dtype = engine::model::DType::F32;
    t.shape = std::move(shape);
    t.data = reinterpret_cast<const std::byte*>(v.data());
    t.nbytes = v.size() * sizeof(float);
    return t;
}

double max_rel_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double m = 0, scale = 1e-6;
    for (size_t i = 0; i < a.size(); ++i) {
        m = std::max(m, std::fabs(double(a[i]) - b[i]));
        scale = std::max(scale, std::fabs(double(a[i])));
    }
    return m / scale;
}

}  // namespace

class TestCudaVisionOps : public QObject {
    Q_OBJECT
    std::unique_ptr<engine::ops::VisionOps> cpu_ = engine::ops::make_cpu_vision_ops();
    std::unique_ptr<engine::ops::VisionOps> gpu_ = engine::cuda::make_cuda_vision_ops();
    static constexpr int kRows = 54, kHeads = 16, kKv = 8, kHd = 72;

    void agree(const std::vector<float>& a, const std::vector<float>& b, const char* what) {
        QVERIFY2(gpu_->take_status().ok(), what);
        const double d = max_rel_diff(a, b);
        std::printf("%-12s max relative difference %.3g\n", what, d);
        QVERIFY2(d < 1e-4, what);
    }

  private Q_SLOTS:
    void linear() {
        const auto w = random_values(96 * 200, 1), x = random_values(kRows * 200, 2);
        std::vector<float> a(kRows * 96), b(a.size());
        cpu_->linear(view(w, {96, 200}), x, kRows, a);
        gpu_->linear(view(w, {96, 200}), x, kRows, b);
        agree(a, b, "linear");
    }
    void rmsnorm() {
        const auto w = random_values(kHd, 3), x = random_values(kRows * kHeads * kHd, 4, 3.0f);
        std::vector<float> a(x.size()), b(x.size());
        const auto wt = view(w, {kHd});
        cpu_->rmsnorm(x, kHd, &wt, 1e-6, a);
        gpu_->rmsnorm(x, kHd, &wt, 1e-6, b);
        agree(a, b, "rmsnorm");
        cpu_->rmsnorm(x, kHd, nullptr, 1e-6, a);
        gpu_->rmsnorm(x, kHd, nullptr, 1e-6, b);
        agree(a, b, "rmsnorm/none");
    }
    void rope_2d() {
        auto a = random_values(kRows * kHeads * kHd, 5), b = a;
        std::vector<int32_t> px, py;
        for (int r = 0; r < kRows; ++r) {
            px.push_back(r % 9);
            py.push_back(r / 9);
        }
        std::vector<float> inv;
        for (int i = 0; i < kHd / 4; ++i) inv.push_back(std::pow(100.0f, -2.0f * i / (kHd / 2)));
        cpu_->rope_2d(a, kRows, kHeads, kHd, px, py, inv);
        gpu_->rope_2d(b, kRows, kHeads, kHd, px, py, inv);
        agree(a, b, "rope_2d");
    }
    void attention() {
        const auto q = random_values(kRows * kHeads * kHd, 6, 0.3f);
        const auto k = random_values(kRows * kKv * kHd, 7, 0.3f);
        const auto v = random_values(kRows * kKv * kHd, 8);
        std::vector<float> a(q.size()), b(q.size());
        cpu_->attention(q, k, v, kRows, kHeads, kKv, kHd, a);
        gpu_->attention(q, k, v, kRows, kHeads, kKv, kHd, b);
        agree(a, b, "attention");
    }
    void gelu_mul() {
        auto a = random_values(4000, 9, 2.0f), b = a;
        const auto up = random_values(4000, 10);
        cpu_->gelu_mul(a, up);
        gpu_->gelu_mul(b, up);
        agree(a, b, "gelu_mul");
    }
};
#endif  // DS_HAVE_CUDA

int main(int argc, char** argv) {
    // ctest counts exit code 77 as skipped.
    if (!engine::cuda_available()) {
        std::printf("SKIP: no CUDA device in this process (the CUDA operators cannot run here)\n");
        return 77;
    }
#ifdef DS_HAVE_CUDA
    QCoreApplication app(argc, argv);
    TestCudaVisionOps t;
    return QTest::qExec(&t, argc, argv);
#else
    (void)argc;
    (void)argv;
    return 77;
#endif
}

#ifdef DS_HAVE_CUDA
#include "tst_cuda_vision_ops.moc"
#endif
