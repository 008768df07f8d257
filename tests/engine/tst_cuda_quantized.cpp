// The quantised-weight GEMMs of the CUDA backend (cuda/quantized_gemm.h) against the CPU
// dequantisation (model/quantized.h) of the same packed bytes: NVFP4 (two parts with different
// global scales, even/odd nibbles, several block scales a row), FP8 weight-only and FP8 with
// per-token dynamic activations (against the same quantisation done on the host), the latter also
// through the FP8 tensor cores (mma e4m3, sm_89 and later), NVFP4 with per-token NVFP4 activations
// through sm_120's FP4 tensor cores (skipped elsewhere), and the grouped launch the experts use.
// Shapes are not multiples of the kernel tiles. Without a CUDA device the test is skipped (exit
// code 77); it has never run here (no GPU in the development environment).

#include "engine/engine.h"

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <random>

#ifdef DS_HAVE_CUDA
#include "cuda/quantized_check.h"
#include "model/quantized.h"
#endif

class TestCudaQuantized : public QObject {
    Q_OBJECT
#ifdef DS_HAVE_CUDA
    static constexpr int kRows = 96, kCols = 80, kTokens = 70;
    std::mt19937 rng_{1234};

    // Random codes of a packed weight (no NaN codes) and sensible scales.
    std::vector<uint8_t> random_bytes(size_t n, bool fp8) {
        std::vector<uint8_t> b(n);
        for (auto& v : b) {
            v = static_cast<uint8_t>(rng_() & 0xff);
            if (fp8 && (v & 0x7f) == 0x7f) v = 0x38;
        }
        return b;
    }

    std::vector<uint16_t> random_x() {
        std::normal_distribution<float> n(0.0f, 1.0f);
        std::vector<uint16_t> x(static_cast<size_t>(kTokens) * kCols);
        for (auto& v : x) v = engine::model::float_to_bf16(n(rng_));
        return x;
    }

    // y = x * W^T on the GPU for the quantised view `w`.
    std::vector<float> gpu_gemm(const engine::model::TensorView& w, const std::vector<uint16_t>& x,
                                bool dynamic, bool tensor_cores = false) {
        auto y = engine::cuda::run_quantized_gemm(w, x, kTokens, dynamic, tensor_cores);
        if (!y) qFatal("quantised GEMM: %s", y.error().message.c_str());
        return std::move(y.value());
    }

    // How the kernel takes x: as bf16, or quantised per token to E4M3 (FP8 dynamic) or to NVFP4.
    enum class Inputs { Bf16, E4m3, Nvfp4 };

    // y_ref = x' * W^T in double, x' = x quantised as the kernel does it (the host encoders).
    std::vector<double> reference(const engine::model::TensorView& w,
                                  const std::vector<uint16_t>& x, Inputs inputs) {
        namespace m = engine::model;
        std::vector<float> W(size_t(kRows) * kCols);
        m::tensor_to_float(w, W.data());
        std::vector<float> X(x.size());
        for (size_t i = 0; i < x.size(); ++i) X[i] = m::bf16_to_float(x[i]);
        for (int t = 0; inputs != Inputs::Bf16 && t < kTokens; ++t) {
            float* row = X.data() + size_t(t) * kCols;
            float amax = 0;
            for (int k = 0; k < kCols; ++k) amax = std::max(amax, std::fabs(row[k]));
            if (inputs == Inputs::E4m3) {
                const float s = amax > 0 ? amax / 448.0f : 1.0f;
                for (int k = 0; k < kCols; ++k)
                    row[k] = m::e4m3_to_float(m::float_to_e4m3(row[k] / s)) * s;
                continue;
            }
            // NVFP4: a global scale max / (6 * 448), an E4M3 scale per block of 16 under it.
            const float g = amax > 0 ? amax / (6.0f * 448.0f) : 1.0f;
            for (int b = 0; b < kCols / 16; ++b) {
                float bmax = 0;
                for (int i = 0; i < 16; ++i) bmax = std::max(bmax, std::fabs(row[b * 16 + i]));
                const float scale = m::e4m3_to_float(m::float_to_e4m3(bmax / 6.0f / g)) * g;
                for (int i = 0; i < 16; ++i) {
                    float& v = row[b * 16 + i];
                    v = scale > 0 ? m::e2m1_to_float(m::float_to_e2m1(v / scale)) * scale : 0.0f;
                }
            }
        }
        std::vector<double> y(size_t(kTokens) * kRows);
        for (int t = 0; t < kTokens; ++t)
            for (int r = 0; r < kRows; ++r) {
                double acc = 0;
                for (int k = 0; k < kCols; ++k)
                    acc += double(X[t * kCols + k]) * double(W[r * kCols + k]);
                y[size_t(t) * kRows + r] = acc;
            }
        return y;
    }

    // The grouped launch's expected output: x's rows in consecutive ranges of `counts`, range g
    // times the g-th of the stacked matrices, picked out of the full product `full` [kTokens,
    // kRows].
    static std::vector<double> grouped_rows(const std::vector<double>& full,
                                            const std::vector<int>& counts) {
        const int groups = static_cast<int>(counts.size()), out = kRows / groups;
        std::vector<double> want(size_t(kTokens) * out);
        for (int g = 0, t0 = 0; g < groups; t0 += counts[size_t(g)], ++g)
            for (int t = t0; t < t0 + counts[size_t(g)]; ++t)
                for (int r = 0; r < out; ++r)
                    want[size_t(t) * out + r] = full[size_t(t) * kRows + g * out + r];
        return want;
    }

    static double worst_relative(const std::vector<float>& got, const std::vector<double>& want) {
        double scale = 0, worst = 0;
        for (double v : want) scale = std::max(scale, std::fabs(v));
        for (size_t i = 0; i < got.size(); ++i)
            worst = std::max(worst, std::fabs(double(got[i]) - want[i]) / scale);
        return worst;
    }

    // A random FP8 weight [kRows, kCols] with per-row scales; its bytes live in codes_ and
    // scales_ until the next call.
    engine::model::TensorView fp8_weight() {
        namespace m = engine::model;
        codes_ = random_bytes(size_t(kRows) * kCols, true);
        scales_.resize(kRows);
        for (int r = 0; r < kRows; ++r) scales_[size_t(r)] = 0.001f * float(1 + r % 7);
        m::QuantizedLinear q;
        q.format = m::WeightFormat::FP8;
        q.rows = kRows;
        q.cols = kCols;
        q.weight.dtype = m::DType::F8_E4M3;
        q.weight.data = reinterpret_cast<const std::byte*>(codes_.data());
        q.weight.nbytes = codes_.size();
        q.weight_scale.dtype = m::DType::F32;
        q.weight_scale.data = reinterpret_cast<const std::byte*>(scales_.data());
        q.weight_scale.nbytes = scales_.size() * 4;
        return m::quantized_view("w", {kRows, kCols}, {q});
    }
    std::vector<uint8_t> codes_;
    std::vector<float> scales_;

    // A random NVFP4 weight [kRows, kCols] in two parts with different global scales; its bytes
    // live in codes_ and blocks_ until the next call.
    engine::model::TensorView nvfp4_weight() {
        namespace m = engine::model;
        codes_ = random_bytes(size_t(kRows) * kCols / 2, false);
        blocks_ = random_bytes(size_t(kRows) * kCols / 16, true);
        for (auto& b : blocks_) b = static_cast<uint8_t>(0x20 + (b % 0x28));  // 2^-3 .. 2^2
        const auto& packed = codes_;
        const auto& blocks = blocks_;
        const float g0 = 0.25f, g1 = 0.0625f;
        std::vector<m::QuantizedLinear> parts(2);
        for (int p = 0; p < 2; ++p) {
            auto& q = parts[size_t(p)];
            q.format = m::WeightFormat::NVFP4;
            q.rows = kRows / 2;
            q.cols = kCols;
            q.weight.dtype = m::DType::U8;
            q.weight.data =
                reinterpret_cast<const std::byte*>(packed.data()) + p * (kRows / 2) * (kCols / 2);
            q.weight.nbytes = size_t(kRows / 2) * kCols / 2;
            q.weight_scale.dtype = m::DType::F8_E4M3;
            q.weight_scale.data =
                reinterpret_cast<const std::byte*>(blocks.data()) + p * (kRows / 2) * (kCols / 16);
            q.weight_scale.nbytes = size_t(kRows / 2) * kCols / 16;
            q.global_scale = p ? g1 : g0;
        }
        return m::quantized_view("w", {kRows, kCols}, parts);
    }
    std::vector<uint8_t> blocks_;

    // Where the tensor cores' FP8 and FP4 paths add products in a narrower accumulator than
    // fp32 (about 14 significant bits on Hopper's FP8 path, as DeepSeek-V3's report measured),
    // the bound is this share of max|y|; a wrong fragment layout or scale is off by far more.
    static constexpr double kNarrowAccumulator = 1e-3;

  private Q_SLOTS:
    void nvfp4() {
        const auto w = nvfp4_weight();
        const auto x = random_x();
        const double err = worst_relative(gpu_gemm(w, x, false), reference(w, x, Inputs::Bf16));
        std::printf("nvfp4 GEMM: worst |gpu - cpu| / max|y| = %.3g\n", err);
        QVERIFY(err < 1e-5);
    }

    // NVFP4 x NVFP4 on sm_120's FP4 tensor cores: the rows quantised per token on the device
    // (codes and scales as the host encoders make them), then the block-scaled mma; alone and
    // grouped as the experts run it.
    void nvfp4Activations() {
        if (!engine::cuda::fp4_tensor_cores())
            QSKIP("no FP4 tensor cores here (compute capability 12.x, built for the 12.x family)");
        const auto w = nvfp4_weight();
        const auto x = random_x();
        const auto want = reference(w, x, Inputs::Nvfp4);
        const double err = worst_relative(gpu_gemm(w, x, true), want);
        const std::vector<int> counts{20, 0, 50};
        const auto want_grouped = grouped_rows(want, counts);
        auto grouped = engine::cuda::run_quantized_gemm(w, x, kTokens, true, true, counts);
        QVERIFY2(grouped.ok(), grouped.ok() ? "" : grouped.error().message.c_str());
        const double err_grouped = worst_relative(*grouped, want_grouped);
        std::printf("nvfp4 x nvfp4 GEMM (FP4 tensor cores): %.3g, grouped %.3g\n", err,
                    err_grouped);
        QVERIFY(err < kNarrowAccumulator);
        QVERIFY(err_grouped < kNarrowAccumulator);
    }

    void fp8() {
        const auto w = fp8_weight();
        const auto x = random_x();
        const double weight_only =
            worst_relative(gpu_gemm(w, x, false), reference(w, x, Inputs::Bf16));
        const auto want = reference(w, x, Inputs::E4m3);
        const double dynamic = worst_relative(gpu_gemm(w, x, true, false), want);
        const double mma = worst_relative(gpu_gemm(w, x, true, true), want);
        std::printf(
            "fp8 GEMM: weight-only %.3g, dynamic activations %.3g, with FP8 tensor cores "
            "%.3g (%s)\n",
            weight_only, dynamic, mma,
            engine::cuda::fp8_tensor_cores() ? "mma e4m3" : "none: tiled kernel again");
        QVERIFY(weight_only < 1e-5);
        // The kernel's per-token codes are the host encoder's; fp32 accumulation differs only.
        QVERIFY(dynamic < 1e-5);
        QVERIFY(mma < (engine::cuda::fp8_tensor_cores() ? kNarrowAccumulator : 1e-5));
    }

    // The experts' grouped launch (one for all experts): three stacked matrices of 32 rows and
    // token ranges of 20, 0 and 50 rows, each range times its own matrix; weight-only, dynamic
    // (tiled) and dynamic through the FP8 tensor cores.
    void grouped() {
        const std::vector<int> counts{20, 0, 50};
        const auto w = fp8_weight();
        const auto x = random_x();
        for (int mode = 0; mode < 3; ++mode) {
            const bool dynamic = mode > 0, mma = mode == 2;
            const auto want =
                grouped_rows(reference(w, x, dynamic ? Inputs::E4m3 : Inputs::Bf16), counts);
            auto got = engine::cuda::run_quantized_gemm(w, x, kTokens, dynamic, mma, counts);
            QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
            const double err = worst_relative(*got, want);
            std::printf("grouped fp8 GEMM (%s): %.3g\n",
                        mode == 0   ? "weight-only"
                        : mode == 1 ? "dynamic"
                                    : "tensor cores",
                        err);
            QVERIFY(err < (mma && engine::cuda::fp8_tensor_cores() ? kNarrowAccumulator : 1e-5));
        }
    }
#endif
};

int main(int argc, char** argv) {
    // QSKIP alone would exit 0 ("passed"); ctest counts exit code 77 as skipped.
    if (!engine::cuda_available()) {
        std::printf("SKIP: no CUDA device in this process (the quantised GEMMs cannot run here)\n");
        return 77;
    }
    QCoreApplication app(argc, argv);
    TestCudaQuantized t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_cuda_quantized.moc"
