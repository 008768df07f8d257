// The CUDA backend's memory plan per weight format at the real 26B-A4B shapes
// (scripts/gpu/diffusiongemma-26b-a4b.config.json). The plan is computed from config.json alone,
// so this test runs without a GPU (it needs only the CUDA backend compiled in; otherwise it is
// skipped, exit code 77): bf16 holds every linear weight in bf16; NVFP4 (ModelOpt) keeps the
// experts packed (E2M1 + an E4M3 scale per 16 + a global scale per row); FP8 dynamic
// (compressed-tensors) keeps every decoder linear weight but the router packed (E4M3 + a scale
// per row). The expected byte counts are derived here from the shapes, independently of the
// device arena's carving.

#include "engine/engine.h"

#ifdef DS_HAVE_CUDA
#include "backend/compute_backend.h"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_ops.h"
#include "cuda/weight_formats.h"
#include "engine/tiny_model.h"
#include "model/config.h"
#include "model/memory_plan.h"
#include "model/weights.h"
#endif

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>

#ifdef DS_HAVE_CUDA
namespace {

namespace m = engine::model;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

m::ModelConfig real_config(m::WeightFormat format) {
    const std::string path =
        std::string(DS_SOURCE_DIR) + "/scripts/gpu/diffusiongemma-26b-a4b.config.json";
    auto c = m::load_config(path);
    if (!c) qFatal("load_config: %s", c.error().message.c_str());
    c.value().quantization.format = format;
    return c.value();
}

engine::cuda::MemoryPlan plan_of(m::WeightFormat format) {
    return engine::cuda::plan_memory(real_config(format), engine::cuda::kDefaultPassTokens,
                                     engine::cuda::kDefaultPassTokens);
}

// Bytes of one [rows, cols] linear weight as the device holds it in `format`.
double held(m::WeightFormat format, double rows, double cols) {
    switch (format) {
        case m::WeightFormat::FP8:
            return rows * cols + rows * 4;
        case m::WeightFormat::NVFP4:
            return rows * cols / 2 + rows * cols / 16 + rows * 4;
        case m::WeightFormat::BF16:
            break;
    }
    return rows * cols * 2;
}

// The linear weights the device holds for `format`, summed from the config's shapes.
double linear_bytes(const m::ModelConfig& c, m::WeightFormat format) {
    const m::WeightFormat dense = format == m::WeightFormat::FP8 ? format : m::WeightFormat::BF16;
    const double H = c.hidden_size, I = c.intermediate_size, E = c.num_experts;
    const double MI = c.moe_intermediate_size, NH = c.num_heads;
    double b = 2 * held(dense, I, H) + held(dense, H, I);  // self-conditioning MLP
    for (int l = 0; l < c.num_layers; ++l) {
        const double D = c.layer_head_dim(l), KV = c.layer_kv_heads(l);
        b += held(dense, (NH + KV * (c.layer_has_v_proj(l) ? 2 : 1)) * D, H);
        b += held(dense, H, NH * D);
        b += held(dense, 2 * I, H) + held(dense, H, I);
        b += held(m::WeightFormat::BF16, E, H);  // router
        b += held(format, E * 2 * MI, H) + held(format, E * H, MI);
    }
    return b;
}

}  // namespace
#endif

class TestCudaPlan : public QObject {
    Q_OBJECT

  private slots:
    // Packed formats count packed bytes: the linear weights' share of the plan is what the shapes
    // give for each format, and the rest (embeddings, norms, tables) is the same in every format.
    void weightsPerFormat() {
#ifndef DS_HAVE_CUDA
        QSKIP("built without the CUDA backend");
#else
        const m::WeightFormat formats[] = {m::WeightFormat::BF16, m::WeightFormat::FP8,
                                           m::WeightFormat::NVFP4};
        const double rest = double(plan_of(m::WeightFormat::BF16).weights) -
                            linear_bytes(real_config(m::WeightFormat::BF16), m::WeightFormat::BF16);
        for (m::WeightFormat f : formats) {
            const auto plan = plan_of(f);
            const double expected = linear_bytes(real_config(f), f) + rest;
            std::printf("26B-A4B %s: weights %.2f GiB (shapes give %.2f GiB), total %.2f GiB\n",
                        m::weight_format_name(f), double(plan.weights) / kGiB, expected / kGiB,
                        double(plan.total()) / kGiB);
            // Within 1 MiB: the arena aligns each array to 256 bytes.
            QVERIFY2(std::abs(double(plan.weights) - expected) < 1024.0 * 1024.0,
                     m::weight_format_name(f));
        }
        // The embeddings (262144 x 2816 bf16, 1.38 GiB) and per-layer vectors are the rest.
        QVERIFY(rest > 1.3 * kGiB && rest < 1.5 * kGiB);
#endif
    }

    // The figures the README states: bf16 about 48 GiB, FP8 about 25 GiB, NVFP4 about 16 GiB of
    // weights (18 GB in the 10^9 units model cards use, with the workspace and a 4096-token cache).
    void readmeFigures() {
#ifndef DS_HAVE_CUDA
        QSKIP("built without the CUDA backend");
#else
        const auto bf16 = plan_of(m::WeightFormat::BF16);
        const auto fp8 = plan_of(m::WeightFormat::FP8);
        const auto nvfp4 = plan_of(m::WeightFormat::NVFP4);
        QVERIFY(bf16.weights > 46 * kGiB && bf16.weights < 50 * kGiB);
        QVERIFY(fp8.weights > 23 * kGiB && fp8.weights < 27 * kGiB);
        QVERIFY(nvfp4.weights > 14 * kGiB && nvfp4.weights < 18 * kGiB);
        // Packed experts add their fp32 GEMM outputs to the workspace, and NVFP4 the per-token
        // NVFP4 inputs of the FP4 tensor cores (counted whatever the device); nothing else changes.
        QCOMPARE(nvfp4.kv_cache, bf16.kv_cache);
        QCOMPARE(nvfp4.activations - bf16.activations,
                 engine::cuda::packed_expert_scratch_bytes(real_config(m::WeightFormat::NVFP4),
                                                           engine::cuda::kDefaultPassTokens) +
                     engine::cuda::nvfp4_activation_bytes(real_config(m::WeightFormat::NVFP4),
                                                          engine::cuda::kDefaultPassTokens));
        // FP8 (experts packed too) adds the per-token E4M3 inputs of its dynamic activations.
        QCOMPARE(fp8.activations - bf16.activations,
                 engine::cuda::packed_expert_scratch_bytes(real_config(m::WeightFormat::FP8),
                                                           engine::cuda::kDefaultPassTokens) +
                     engine::cuda::fp8_activation_bytes(real_config(m::WeightFormat::FP8),
                                                        engine::cuda::kDefaultPassTokens));
#endif
    }

    // The formats the plan predicts from config.json are the formats the tiny checkpoints in the
    // published layouts store (what upload_weights keeps packed): NVFP4 the experts only, FP8
    // every projection but the router.
    void plannedFormatsMatchCheckpoints() {
#ifndef DS_HAVE_CUDA
        QSKIP("built without the CUDA backend");
#else
        for (const char* dtype : {"bf16", "fp8", "nvfp4"}) {
            QTemporaryDir dir;
            engine::TinyModelOptions o;
            o.out_dir = dir.path().toStdString();
            o.preset = "tiny";
            o.seed = 7;
            o.dtype = dtype;
            auto written = engine::write_tiny_model(o);
            QVERIFY2(written, dtype);
            auto w = m::load_model_weights(o.out_dir);
            QVERIFY2(w, dtype);
            const m::ModelConfig& c = w.value()->config;
            QVERIFY(m::weight_format_name(c.quantization.format) == std::string(dtype));
            auto stored = engine::cuda::stored_formats(*w.value());
            QVERIFY2(stored, dtype);
            const auto planned = engine::cuda::planned_formats(c);
            QCOMPARE(stored.value().layers.size(), planned.layers.size());
            QVERIFY2(stored.value().self_conditioning == planned.self_conditioning, dtype);
            for (size_t l = 0; l < planned.layers.size(); ++l) {
                const auto& a = stored.value().layers[l];
                const auto& b = planned.layers[l];
                QVERIFY2(a.qkv == b.qkv && a.o == b.o && a.mlp == b.mlp && a.experts == b.experts,
                         dtype);
            }
            const auto& first = planned.layers.front();
            std::printf("%s: attention %s, dense MLP %s, experts %s, self-conditioning %s\n", dtype,
                        m::weight_format_name(first.qkv), m::weight_format_name(first.mlp),
                        m::weight_format_name(first.experts),
                        m::weight_format_name(planned.self_conditioning));
        }
#endif
    }

    // The plan Engine::open states names the format and that the weights stay packed.
    void describedPlan() {
#ifndef DS_HAVE_CUDA
        QSKIP("built without the CUDA backend");
#else
        for (m::WeightFormat f : {m::WeightFormat::FP8, m::WeightFormat::NVFP4}) {
            const auto c = real_config(f);
            const std::string text = engine::backend::cuda_memory_plan(c);
            std::printf("plan: %s\n", text.c_str());
            const std::string name = m::weight_format_name(f);
            QVERIFY2(text.find(name + " checkpoint") != std::string::npos, text.c_str());
            QVERIFY2(text.find(name + " packed") != std::string::npos, text.c_str());
            QVERIFY2(text.find("dequantised at upload") == std::string::npos, text.c_str());
        }
#endif
    }
};

int main(int argc, char** argv) {
#ifndef DS_HAVE_CUDA
    // QSKIP alone would exit 0 ("passed"); ctest counts exit code 77 as skipped.
    std::printf("SKIP: built without the CUDA backend\n");
    (void)argc;
    (void)argv;
    return 77;
#else
    QCoreApplication app(argc, argv);
    TestCudaPlan t;
    return QTest::qExec(&t, argc, argv);
#endif
}
#include "tst_cuda_plan.moc"
