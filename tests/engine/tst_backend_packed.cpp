// The CPU backend with weights held as published (issue 41, EngineOptions::cpu_precision bf16):
// the native products (cpu/weight_gemm.h) against f32 products of the same decoded values, their
// independence of the other rows of a call; the bf16, FP8 and NVFP4 tiny checkpoints read on the
// mapped, packed path within the stated tolerance of the f32 path; the f32 path's choice and
// bits kept; truncated files, unsupported dtypes and a model larger than the memory refused.

#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "cpu/gemm_nt.h"
#include "cpu/weight_gemm.h"
#include "engine/engine.h"
#include "engine/tiny_model.h"
#include "model/memory_plan.h"
#include "model/quantized.h"
#include "model/safetensors.h"
#include "slot_read_bits.h"

namespace fs = std::filesystem;
using engine::TokenId;
namespace cpu = engine::cpu;
namespace m = engine::model;

namespace {

// The tolerance the issue states for slot probabilities, packed against f32.
constexpr double kProbTolerance = 2e-2;

// A random matrix [n][k] in one coding, with its values decoded to f32 (what the f32 path holds).
struct TestMatrix {
    std::vector<std::byte> values;
    std::vector<uint8_t> block_scales;
    cpu::WeightMatrix w;
    std::vector<float> decoded;  // [n][k]
};

TestMatrix make_matrix(cpu::WeightCoding coding, int64_t n, int64_t k, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 0.05f);
    TestMatrix t;
    cpu::NativeBlock b;
    b.coding = coding;
    b.rows = n;
    switch (coding) {
        case cpu::WeightCoding::bf16:
            t.values.resize(static_cast<size_t>(n * k * 2));
            for (int64_t i = 0; i < n * k; ++i) {
                const uint16_t v = m::float_to_bf16(normal(rng));
                std::memcpy(&t.values[static_cast<size_t>(2 * i)], &v, 2);
            }
            break;
        case cpu::WeightCoding::fp8:
            t.values.resize(static_cast<size_t>(n * k));
            // Every code but NaN, subnormals included.
            for (auto& v : t.values) {
                uint8_t c = static_cast<uint8_t>(rng() & 0xff);
                if ((c & 0x7f) == 0x7f) c = 0x7e;
                v = std::byte{c};
            }
            for (int64_t r = 0; r < n; ++r) b.row_scales.push_back(0.001f * float(1 + r % 7));
            break;
        case cpu::WeightCoding::nvfp4:
            t.values.resize(static_cast<size_t>(n * k / 2));
            for (auto& v : t.values) v = std::byte{static_cast<uint8_t>(rng() & 0xff)};
            t.block_scales.resize(static_cast<size_t>(n * k / 16));
            for (auto& s : t.block_scales) s = m::float_to_e4m3(0.01f * float(1 + rng() % 50));
            b.global_scale = 0.37f;
            break;
    }
    b.values = t.values.data();
    b.block_scales = t.block_scales.empty() ? nullptr : t.block_scales.data();
    t.w.native.n = n;
    t.w.native.k = k;
    t.w.native.blocks.push_back(std::move(b));
    t.decoded.resize(static_cast<size_t>(n * k));
    cpu::native_block_to_float(t.w.native, 0, n, 0, k, t.decoded.data());
    return t;
}

std::vector<float> random_rows(int64_t rows, int64_t k, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(rows * k));
    for (auto& v : x) v = normal(rng);
    return x;
}

}  // namespace

class TestBackendPacked : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    const std::vector<TokenId> chat_ = {2,   105, 2364, 107,  11355, 563, 506,   7217, 3730, 236881,
                                        106, 107, 105,  4368, 107,   100, 45518, 107,  101};

    fs::path model(const std::string& dtype, const std::string& preset = "tiny") {
        const fs::path dir = fs::path(tmp_.path().toStdString()) / (preset + "-" + dtype);
        if (fs::exists(dir / "config.json")) return dir;
        engine::TinyModelOptions o;
        o.out_dir = dir;
        o.seed = 7;
        o.dtype = dtype;
        o.preset = preset;
        o.tokenizer_json = DS_TOKENIZER_JSON;
        auto w = engine::write_tiny_model(o);
        if (!w) qFatal("write_tiny_model: %s", w.error().message.c_str());
        return dir;
    }

    // A copy of the bf16 tiny model in its own folder, for a test that damages its files.
    fs::path copy_of_bf16_model(const std::string& name) {
        const fs::path src = model("bf16");
        const fs::path dir = fs::path(tmp_.path().toStdString()) / name;
        fs::create_directories(dir);
        for (const auto& e : fs::directory_iterator(src))
            fs::copy(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
        return dir;
    }

    static engine::Result<std::unique_ptr<engine::Engine>> open(const fs::path& dir,
                                                                engine::CpuPrecision precision,
                                                                uint64_t limit = 0) {
        engine::EngineOptions eo;
        eo.model_dir = dir;
        eo.device = engine::Device::Cpu;
        eo.threads = 2;
        eo.cpu_precision = precision;
        eo.memory_limit_bytes = limit;
        return engine::Engine::open(eo);
    }

    engine::SlotReadRequest request() const {
        engine::SlotReadRequest req;
        req.prompt_ids = chat_;
        for (int i = 0; i < 40; ++i) req.prompt_ids.push_back(static_cast<TokenId>(1000 + 37 * i));
        std::vector<TokenId> many;
        for (TokenId i = 0; i < 2000; ++i) many.push_back(i * 83 + 5);
        for (uint32_t r = 0; r < 4; ++r) {
            engine::CanvasRow row = pseudo_random_row(r);
            row.slot_specs = {{3, {4521, 3553, 107}}, {17, many}, {25, {236761, 236771}}};
            req.rows.push_back(std::move(row));
        }
        return req;
    }

    // The packed read of `dtype` against the f32 read of the same checkpoint.
    void check_format(const std::string& dtype, const std::string& preset) {
        const fs::path dir = model(dtype, preset);
        auto packed = open(dir, engine::CpuPrecision::Bf16);
        QVERIFY2(packed.ok(), packed.ok() ? "" : packed.error().message.c_str());
        auto exact = open(dir, engine::CpuPrecision::F32);
        QVERIFY2(exact.ok(), exact.ok() ? "" : exact.error().message.c_str());
        const std::string plan = (*packed)->info().memory_plan;
        QVERIFY2(plan.find(dtype + " as published (mapped)") != std::string::npos, plan.c_str());
        QVERIFY2((*exact)->info().memory_plan.find("held as f32") != std::string::npos,
                 (*exact)->info().memory_plan.c_str());
        const auto req = request();
        auto rp = (*packed)->read_slots(req, {});
        auto rf = (*exact)->read_slots(req, {});
        QVERIFY2(rp.ok() && rf.ok(), "a slot read failed");
        const double diff = max_prob_diff(*rp, *rf);
        int same_argmax = 0, slot_count = 0;
        for (size_t r = 0; r < rp->rows.size(); ++r)
            for (size_t s = 0; s < rp->rows[r].size(); ++s, ++slot_count)
                same_argmax += rp->rows[r][s].argmax_id == rf->rows[r][s].argmax_id;
        qInfo("%s %s (%s): max |p(packed) - p(f32)| = %.3g (tolerance %.0e), argmax %d/%d",
              preset.c_str(), dtype.c_str(), cpu::bf16_dot_supported() ? "avx512_bf16" : "f32",
              diff, kProbTolerance, same_argmax, slot_count);
        QVERIFY2(diff <= kProbTolerance, qPrintable(QString::number(diff)));
        // The packed path really ran (its bits differ from the f32 path's).
        QVERIFY2(diff > 0, "the packed read has the f32 read's bits");
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        QVERIFY2(fs::exists(DS_TOKENIZER_JSON), DS_TOKENIZER_JSON);
    }

    // Each coding's products against f32 products of the same decoded weights: within the
    // rounding of the activations to bf16 (2^-8 relative per term) where the CPU multiplies
    // bf16, float rounding elsewhere.
    void nativeProductsMatchDecodedValues() {
        const bool bf16 = cpu::bf16_dot_supported();
        for (auto coding :
             {cpu::WeightCoding::bf16, cpu::WeightCoding::fp8, cpu::WeightCoding::nvfp4})
            for (int64_t k : {int64_t{704}, int64_t{80}, int64_t{2816}}) {
                const int64_t n = 37, rows = 13;
                TestMatrix t = make_matrix(coding, n, k, static_cast<uint32_t>(k));
                const auto x = random_rows(rows, k, 3);
                std::vector<float> y(static_cast<size_t>(rows * n));
                cpu::gemm_weight(x.data(), k, t.w, 0, n, y.data(), n, rows);
                double worst = 0;
                for (int64_t i = 0; i < rows; ++i)
                    for (int64_t j = 0; j < n; ++j) {
                        double exact = 0, scale = 0;
                        for (int64_t c = 0; c < k; ++c) {
                            const double p = double(x[i * k + c]) * t.decoded[j * k + c];
                            exact += p;
                            scale += std::abs(p);
                        }
                        worst = std::max(worst, std::abs(y[i * n + j] - exact) / scale);
                    }
                const double bound = bf16 ? 1.0 / 256 : 1e-5;
                QVERIFY2(worst <= bound, qPrintable(QString("%1 k=%2: relative error %3")
                                                        .arg(cpu::weight_coding_name(coding))
                                                        .arg(k)
                                                        .arg(worst)));
            }
    }

    // An output's bits do not depend on the other rows or columns of the call (cross-request
    // batches keep a request's bits): with one k chunk, and with k over several chunks (a masked
    // last step) and more rows than one row block.
    void rowsAndColumnsIndependent() {
        for (auto coding :
             {cpu::WeightCoding::bf16, cpu::WeightCoding::fp8, cpu::WeightCoding::nvfp4})
            for (auto [k, rows] : {std::pair<int64_t, int64_t>{352, 11}, {2096, 101}}) {
                const int64_t n = 45;
                TestMatrix t = make_matrix(coding, n, k, 99);
                const auto x = random_rows(rows, k, 5);
                std::vector<float> all(static_cast<size_t>(rows * n));
                cpu::gemm_weight(x.data(), k, t.w, 0, n, all.data(), n, rows);
                for (int64_t i = 0; i < rows; ++i) {
                    std::vector<float> one(static_cast<size_t>(n - 7));
                    cpu::gemm_weight(x.data() + i * k, k, t.w, 7, n, one.data(), n - 7, 1);
                    QVERIFY(std::memcmp(one.data(), all.data() + i * n + 7,
                                        one.size() * sizeof(float)) == 0);
                }
            }
    }

    // The f32 path is the packed f32 product, bit for bit (gemm_weight adds nothing to it).
    void f32MatricesKeepGemmNtBits() {
        const int64_t n = 70, k = 96, rows = 9;
        const auto w = random_rows(n, k, 8);
        const auto x = random_rows(rows, k, 9);
        cpu::WeightMatrix wm;
        wm.f32 = cpu::pack_matrix(w.data(), n, k);
        std::vector<float> a(static_cast<size_t>(rows * n)), b(a.size());
        cpu::gemm_weight(x.data(), k, wm, 0, n, a.data(), n, rows);
        cpu::gemm_nt(x.data(), k, w.data(), k, b.data(), n, rows, n, k);
        QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    }

    void bf16CheckpointPacked() { check_format("bf16", "tiny"); }
    void fp8CheckpointPacked() { check_format("fp8", "tiny"); }
    void nvfp4CheckpointPacked() { check_format("nvfp4", "tiny"); }
    // The small preset (about 114M parameters, mostly the tied vocabulary: hidden 256, 12 layers,
    // 16 experts of 256, head sizes 32 and 64), where the products run over longer k and more
    // panels than the tiny model's.
    void bf16SmallCheckpointPacked() { check_format("bf16", "small"); }
    void fp8SmallCheckpointPacked() { check_format("fp8", "small"); }
    void nvfp4SmallCheckpointPacked() { check_format("nvfp4", "small"); }

    // auto keeps the exact path wherever it fits (every existing read keeps its bits) and states
    // it; the tiny f32 checkpoint is the same under f32 and auto.
    void autoKeepsTheExactPath() {
        const fs::path dir = model("bf16");
        auto a = open(dir, engine::CpuPrecision::Auto);
        auto f = open(dir, engine::CpuPrecision::F32);
        QVERIFY(a.ok() && f.ok());
        QCOMPARE(QString::fromStdString((*a)->info().memory_plan),
                 QString::fromStdString((*f)->info().memory_plan));
        const auto req = request();
        auto ra = (*a)->read_slots(req, {});
        auto rf = (*f)->read_slots(req, {});
        QVERIFY(ra.ok() && rf.ok());
        QVERIFY(same_bits(*ra, *rf));
    }

    // The f32 path keeps its bits: FNV-1a hashes of every label log-probability and argmax of a
    // fixed read, on tiny checkpoints (seed 3) of each dtype, as the engine before this change
    // (main at f23f2ee) gave them on the CPU (the f32 products give the same bits on every
    // instruction set, cpu/gemm_nt.h).
    void f32PathKeepsItsBits() {
        const std::pair<const char*, uint64_t> expected[] = {{"f32", 0x2c3bb2677e016f91ull},
                                                             {"bf16", 0xda0fb93389b9a499ull},
                                                             {"fp8", 0xfc5c9df0c853eb8cull},
                                                             {"nvfp4", 0x6278aa87bddcaa2aull}};
        for (const auto& [dtype, hash] : expected) {
            const fs::path dir =
                fs::path(tmp_.path().toStdString()) / (std::string("seed3-") + dtype);
            engine::TinyModelOptions o;
            o.out_dir = dir;
            o.seed = 3;
            o.dtype = dtype;
            o.tokenizer_json = DS_TOKENIZER_JSON;
            QVERIFY(engine::write_tiny_model(o).ok());
            auto e = open(dir, engine::CpuPrecision::F32);
            QVERIFY(e.ok());
            engine::SlotReadRequest req;
            for (int i = 0; i < 60; ++i) req.prompt_ids.push_back(TokenId(2 + 97 * i));
            for (int r = 0; r < 3; ++r) {
                engine::CanvasRow row;
                for (int i = 0; i < 32; ++i)
                    row.ids.push_back(TokenId((r * 7919 + i * 104729) % 262144));
                std::vector<TokenId> many;
                for (int i = 0; i < 500; ++i) many.push_back(TokenId(i * 331 + 7));
                row.slot_specs = {{3, {4521, 3553, 107}}, {17, many}};
                req.rows.push_back(row);
            }
            auto read = (*e)->read_slots(req, {});
            QVERIFY(read.ok());
            uint64_t h = 1469598103934665603ull;
            for (const auto& row : read->rows)
                for (const auto& slot : row) {
                    for (float v : slot.label_logprobs) {
                        uint32_t b;
                        std::memcpy(&b, &v, 4);
                        h = (h ^ b) * 1099511628211ull;
                    }
                    h = (h ^ uint32_t(slot.argmax_id)) * 1099511628211ull;
                }
            QVERIFY2(h == hash,
                     qPrintable(QString("%1: %2").arg(dtype).arg(h, 16, 16, QChar('0'))));
        }
    }

    // A shard shorter than its header says is refused before any page of it is read, naming the
    // file and the numbers (no SIGBUS).
    void truncatedShardRefused() {
        const fs::path dir = copy_of_bf16_model("truncated");
        const auto file = dir / "model.safetensors";
        const auto size = fs::file_size(file);
        fs::resize_file(file, size - 4096);
        for (auto precision : {engine::CpuPrecision::Bf16, engine::CpuPrecision::F32}) {
            auto e = open(dir, precision);
            QVERIFY(!e.ok());
            const QString msg = QString::fromStdString(e.error().message);
            QVERIFY2(msg.contains(QString::fromStdString(file.string())), qPrintable(msg));
            QVERIFY2(msg.contains("exceed the data section") && msg.contains("truncated"),
                     qPrintable(msg));
        }
    }

    // A shard cut short while the engine reads it in place (a copy over a model in use): the
    // reads of the lost pages give zeros instead of SIGBUS, and the call that touched them
    // returns an error naming the file and both sizes instead of numbers computed on zeros.
    void shardTruncatedWhileMappedReported() {
        const fs::path dir = copy_of_bf16_model("shrinks");
        auto e = open(dir, engine::CpuPrecision::Bf16);
        QVERIFY(e.ok());
        const auto req = request();
        QVERIFY((*e)->read_slots(req, {}).ok());
        const auto file = dir / "model.safetensors";
        const auto size = fs::file_size(file);
        fs::resize_file(file, 4096);  // the header's page stays; every weight page is gone
        auto read = (*e)->read_slots(req, {});
        QVERIFY(!read.ok());
        const QString msg = QString::fromStdString(read.error().message);
        QVERIFY2(msg.contains(QString::fromStdString(file.string())) &&
                     msg.contains(QString::number(size)) && msg.contains("4096 now") &&
                     msg.contains("changed while in use"),
                 qPrintable(msg));
    }

    // An unsupported dtype is refused naming the file, the tensor and the dtype.
    void unsupportedDtypeRefused() {
        const fs::path dir = copy_of_bf16_model("dtype");
        const auto file = dir / "model.safetensors";
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        uint64_t n = 0;
        unsigned char len[8];
        f.read(reinterpret_cast<char*>(len), 8);
        for (int i = 7; i >= 0; --i) n = (n << 8) | len[i];
        std::string header(n, ' ');
        f.read(header.data(), static_cast<std::streamsize>(n));
        const auto at = header.find("\"BF16\"");
        QVERIFY(at != std::string::npos);
        header.replace(at, 6, "\"I16\" ");  // same length: the offsets stay valid
        f.seekp(8);
        f.write(header.data(), static_cast<std::streamsize>(n));
        f.close();
        auto e = open(dir, engine::CpuPrecision::Bf16);
        QVERIFY(!e.ok());
        const QString msg = QString::fromStdString(e.error().message);
        QVERIFY2(msg.contains(QString::fromStdString(file.string())) && msg.contains("I16") &&
                     msg.contains("not supported"),
                 qPrintable(msg));
    }

    // The 26B-A4B plans as held on the CPU per format (the README's RAM table): the weights as
    // the checkpoint stores them, f32 KV cache and workspace for 8192 tokens; bf16 fits a 64 GB
    // machine and NVFP4 a 32 GB one, the f32 path neither.
    void realModelPlans() {
        auto c = m::load_config(fs::path(DS_SOURCE_DIR) /
                                "scripts/gpu/diffusiongemma-26b-a4b.config.json");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
        const uint64_t machine[] = {64'000'000'000ull, 48'000'000'000ull, 32'000'000'000ull};
        const m::WeightFormat formats[] = {m::WeightFormat::BF16, m::WeightFormat::FP8,
                                           m::WeightFormat::NVFP4};
        for (int i = 0; i < 3; ++i) {
            m::ModelConfig q = *c;
            q.quantization.format = formats[i];
            const m::MemoryPlan native = m::plan_cpu_memory(q, 8192, true);
            const m::MemoryPlan f32 = m::plan_cpu_memory(q, 8192, false);
            qInfo("%s", native.describe().c_str());
            // No vision tower in this config: the weights are the checkpoint's bytes.
            QCOMPARE(native.weights, m::checkpoint_bytes(q, formats[i]).total());
            QCOMPARE(native.kv_cache, f32.kv_cache);
            // Fits the machine of its row with 10% to spare; the f32 plan does not.
            QVERIFY2(m::check_memory(native, machine[i] * 9 / 10, "m").ok(),
                     native.describe().c_str());
            QVERIFY(!m::check_memory(f32, machine[i], "m").ok());
        }
    }

    // A model larger than the memory is refused with the plan (bytes as held per format) and
    // the memory, both numbers.
    void largerThanMemoryRefused() {
        const fs::path dir = model("nvfp4");
        auto e = open(dir, engine::CpuPrecision::Bf16, 2'000'000);
        QVERIFY(!e.ok());
        const QString msg = QString::fromStdString(e.error().message);
        QVERIFY2(msg.contains("the model does not fit") &&
                     msg.contains("held as nvfp4 as published (mapped)") &&
                     msg.contains("0.00 GB is available"),
                 qPrintable(msg));
    }
};

QTEST_GUILESS_MAIN(TestBackendPacked)
#include "tst_backend_packed.moc"
