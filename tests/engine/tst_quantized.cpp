// Quantised checkpoints (issue 15): the element decoders against hand-computed numbers, the
// FP8 (compressed-tensors) and NVFP4 (ModelOpt) tiny checkpoints through the real loader and the
// CPU engine against the same quantised values written dequantised as F32, malformed quantised
// folders, and the memory plan per format (including a refusal of the real 26B-A4B config).

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>

#include "engine/engine.h"
#include "engine/model_check.h"
#include "engine/tiny_model.h"
#include "model/config.h"
#include "model/memory_plan.h"
#include "model/quantized.h"
#include "slot_read_bits.h"

namespace fs = std::filesystem;
using engine::TokenId;
namespace m = engine::model;

namespace {

void set_slots(engine::CanvasRow& row, std::vector<engine::SlotSpec> specs) {
    row.slot_specs = std::move(specs);
}

QByteArray read_all(const fs::path& p) {
    QFile f(QString::fromStdString(p.string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

bool write_all(const fs::path& p, const QByteArray& bytes) {
    QFile f(QString::fromStdString(p.string()));
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Splits a safetensors file into (header JSON, data) and joins them back.
struct Safetensors {
    QJsonObject header;
    QByteArray data;
    static Safetensors read(const fs::path& p) {
        const QByteArray all = read_all(p);
        uint64_t n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(all[i]);
        Safetensors s;
        s.header = QJsonDocument::fromJson(all.mid(8, static_cast<qsizetype>(n))).object();
        s.data = all.mid(8 + static_cast<qsizetype>(n));
        return s;
    }
    QByteArray bytes() const {
        QByteArray h = QJsonDocument(header).toJson(QJsonDocument::Compact);
        while (h.size() % 8) h.append(' ');
        QByteArray out(8, '\0');
        for (int i = 0; i < 8; ++i)
            out[i] = static_cast<char>((static_cast<uint64_t>(h.size()) >> (8 * i)) & 0xff);
        return out + h + data;
    }
};

// A tensor view over bytes the test owns.
m::TensorView view(const std::string& name, m::DType dtype, std::vector<int64_t> shape,
                   const void* bytes, size_t n) {
    m::TensorView t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.data = static_cast<const std::byte*>(bytes);
    t.nbytes = n;
    t.file = "hand-made";
    return t;
}

}  // namespace

class TestQuantized : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    // MODEL-SPEC section 6 test vector: a chat prompt with thinking off.
    const std::vector<TokenId> chat_ = {2,   105, 2364, 107,  11355, 563, 506,   7217, 3730, 236881,
                                        106, 107, 105,  4368, 107,   100, 45518, 107,  101};

    fs::path write_model(const std::string& name, const std::string& dtype, bool reference) {
        const fs::path dir = fs::path(tmp_.path().toStdString()) / name;
        if (fs::exists(dir / "config.json")) return dir;
        engine::TinyModelOptions o;
        o.out_dir = dir;
        o.seed = 11;
        o.dtype = dtype;
        o.dequantized_reference = reference;
        o.tokenizer_json = DS_TOKENIZER_JSON;
        auto w = engine::write_tiny_model(o);
        if (!w) qFatal("write_tiny_model: %s", w.error().message.c_str());
        return dir;
    }

    fs::path copy_of(const fs::path& src, const std::string& name) {
        const fs::path dir = fs::path(tmp_.path().toStdString()) / name;
        fs::remove_all(dir);
        fs::create_directories(dir);
        for (const auto& e : fs::directory_iterator(src))
            fs::copy(e.path(), dir / e.path().filename());
        return dir;
    }

    std::unique_ptr<engine::Engine> open(const fs::path& dir) {
        engine::EngineOptions eo;
        eo.model_dir = dir;
        eo.device = engine::Device::Cpu;
        auto e = engine::Engine::open(eo);
        if (!e) qFatal("open %s: %s", dir.c_str(), e.error().message.c_str());
        return std::move(e.value());
    }

    // Reads that exercise every layer type, the experts and long label sets.
    engine::SlotReadRequest request() const {
        engine::SlotReadRequest req;
        req.prompt_ids = chat_;
        for (int i = 0; i < 40; ++i) req.prompt_ids.push_back(static_cast<TokenId>(1000 + 37 * i));
        std::vector<TokenId> many;
        for (TokenId i = 0; i < 3000; ++i) many.push_back(i * 83 + 5);
        for (uint32_t r = 0; r < 3; ++r) {
            engine::CanvasRow row = pseudo_random_row(r);
            set_slots(row, {{3, {4521, 3553, 107}}, {17, many}});
            req.rows.push_back(std::move(row));
        }
        return req;
    }

    // The quantised folder reads what its dequantised reference reads; states both the parity
    // with the reference and how far quantisation moved the reads from the unquantised model.
    void check_parity(const std::string& dtype, double tolerance) {
        const fs::path q = write_model("tiny-" + dtype, dtype, false);
        const fs::path ref = write_model("tiny-" + dtype + "-reference", dtype, true);
        // The same model in bf16: the quantised folders' other tensors are these bytes.
        const fs::path plain = write_model("tiny-bf16", "bf16", false);
        auto eq = open(q);
        QCOMPARE(QString::fromStdString(eq->info().weight_format), QString::fromStdString(dtype));
        QVERIFY2(QString::fromStdString(eq->info().memory_plan)
                     .startsWith(QString::fromStdString(dtype + " checkpoint")),
                 eq->info().memory_plan.c_str());
        auto er = open(ref);
        auto ep = open(plain);
        QCOMPARE(eq->info().parameters, ep->info().parameters);
        const auto req = request();
        auto rq = eq->read_slots(req, {});
        auto rr = er->read_slots(req, {});
        auto rp = ep->read_slots(req, {});
        QVERIFY2(rq.ok() && rr.ok() && rp.ok(), "a slot read failed");
        const double parity = max_prob_diff(*rq, *rr);
        const double quantisation = max_prob_diff(*rq, *rp);
        qInfo(
            "%s: max |p(quantised checkpoint) - p(dequantised f32 reference)| = %.3g "
            "(tolerance %.0e); max |p(quantised) - p(unquantised bf16 model)| = %.3g",
            dtype.c_str(), parity, tolerance, quantisation);
        QVERIFY2(parity <= tolerance, qPrintable(QString::number(parity)));
        for (size_t r = 0; r < rq->rows.size(); ++r)
            for (size_t s = 0; s < rq->rows[r].size(); ++s)
                QCOMPARE(rq->rows[r][s].argmax_id, rr->rows[r][s].argmax_id);
        // The quantised weights are really quantised: the reads moved off the bf16 model.
        QVERIFY2(quantisation > 10 * tolerance, qPrintable(QString::number(quantisation)));
    }

    void expect_bad(const fs::path& dir, const QStringList& needles) {
        auto r = engine::inspect_model(dir);
        QVERIFY2(!r.ok(), "a broken quantised model folder was accepted");
        const QString msg = QString::fromStdString(r.error().message);
        QCOMPARE(r.error().kind, engine::ErrorKind::BadInput);
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        for (const auto& n : needles)
            QVERIFY2(msg.contains(n), qPrintable(msg + "  (missing: " + n + ")"));
    }

    void edit_config(const fs::path& dir, const std::function<void(QJsonObject&)>& edit) {
        QJsonObject c = QJsonDocument::fromJson(read_all(dir / "config.json")).object();
        edit(c);
        QVERIFY(write_all(dir / "config.json", QJsonDocument(c).toJson()));
    }

    void edit_tensors(const fs::path& dir, const std::function<void(QJsonObject&)>& edit) {
        Safetensors st = Safetensors::read(dir / "model.safetensors");
        edit(st.header);
        QVERIFY(write_all(dir / "model.safetensors", st.bytes()));
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        QVERIFY2(fs::exists(DS_TOKENIZER_JSON),
                 "the build's tokenizer.json is missing (scripts/prepare-tokenizer.sh)");
    }

    // E4M3 ("fn"): bias 7, subnormals m/8 * 2^-6, S.1111.111 NaN, no infinities, max 448.
    void e4m3ByHand() {
        QCOMPARE(m::e4m3_to_float(0x00), 0.0f);
        QVERIFY(std::signbit(m::e4m3_to_float(0x80)));
        QCOMPARE(m::e4m3_to_float(0x01), 0.001953125f);  // 1/8 * 2^-6 = 2^-9
        QCOMPARE(m::e4m3_to_float(0x07), 0.013671875f);  // 7/8 * 2^-6
        QCOMPARE(m::e4m3_to_float(0x08), 0.015625f);     // 2^-6, the smallest normal
        QCOMPARE(m::e4m3_to_float(0x38), 1.0f);
        QCOMPARE(m::e4m3_to_float(0x3c), 1.5f);
        QCOMPARE(m::e4m3_to_float(0x4b), 5.5f);  // 2^2 * 1.375
        QCOMPARE(m::e4m3_to_float(0xc0), -2.0f);
        QCOMPARE(m::e4m3_to_float(0x7e), 448.0f);
        QCOMPARE(m::e4m3_to_float(0xfe), -448.0f);
        QVERIFY(std::isnan(m::e4m3_to_float(0x7f)));
        QVERIFY(std::isnan(m::e4m3_to_float(0xff)));
        QVERIFY(!std::isinf(m::e4m3_to_float(0x78)));  // 0.1111.000 is 256, not infinity
        QCOMPARE(m::e4m3_to_float(0x78), 256.0f);
        // The encoder: nearest, ties to the even code, saturating, NaN to 0x7f.
        QCOMPARE(m::float_to_e4m3(1.0f), uint8_t(0x38));
        QCOMPARE(m::float_to_e4m3(1.0625f), uint8_t(0x38));  // tie 1 | 1.125 -> even
        QCOMPARE(m::float_to_e4m3(1.1875f), uint8_t(0x3a));  // tie 1.125 | 1.25 -> even
        QCOMPARE(m::float_to_e4m3(-5.5f), uint8_t(0xcb));
        QCOMPARE(m::float_to_e4m3(1000.0f), uint8_t(0x7e));
        QCOMPARE(m::float_to_e4m3(-1000.0f), uint8_t(0xfe));
        QCOMPARE(m::float_to_e4m3(0.0009765625f), uint8_t(0x00));  // 2^-10: tie 0 | 2^-9 -> 0
        QCOMPARE(m::float_to_e4m3(std::nanf("")), uint8_t(0x7f));
        for (int c = 0; c < 256; ++c)
            if ((c & 0x7f) != 0x7f)
                QCOMPARE(m::float_to_e4m3(m::e4m3_to_float(static_cast<uint8_t>(c))) & 0x7f,
                         c & 0x7f);
    }

    // E2M1: sign bit 3, magnitude index {0, .5, 1, 1.5, 2, 3, 4, 6}.
    void e2m1ByHand() {
        const float expected[16] = {0,     0.5f,  1,  1.5f,  2,  3,  4,  6,
                                    -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
        for (uint8_t n = 0; n < 16; ++n) QCOMPARE(m::e2m1_to_float(n), expected[n]);
        QCOMPARE(m::float_to_e2m1(2.4f), uint8_t(4));
        QCOMPARE(m::float_to_e2m1(2.5f), uint8_t(4));  // tie 2 | 3 -> even code 4
        QCOMPARE(m::float_to_e2m1(-5.1f), uint8_t(15));
        QCOMPARE(m::float_to_e2m1(9.0f), uint8_t(7));  // saturates at 6
    }

    // One NVFP4 row of 32 values: nibble order, block scales and the global scale by hand.
    void nvfp4BlockByHand() {
        // Row 0: bytes 0x21, 0xF9, then zeros: values 0.5, 1, -0.5, -6 in block 0;
        // block 1: byte 0x70 at column 16 -> 0, 6.
        std::vector<uint8_t> packed(16, 0);
        packed[0] = 0x21;
        packed[1] = 0xF9;
        packed[8] = 0x70;
        const std::vector<uint8_t> scales = {0x40, 0x30};  // 2.0 and 0.5
        const float global = 0.25f;
        std::map<std::string, m::TensorView> t;
        t["x.weight"] = view("x.weight", m::DType::U8, {1, 16}, packed.data(), 16);
        t["x.weight_scale"] = view("x.weight_scale", m::DType::F8_E4M3, {1, 2}, scales.data(), 2);
        t["x.weight_scale_2"] = view("x.weight_scale_2", m::DType::F32, {}, &global, 4);
        m::QuantizationConfig q;
        q.format = m::WeightFormat::NVFP4;
        auto found = m::find_linear(t, "x.weight", 1, 32, q);
        QVERIFY2(found.ok(), found.ok() ? "" : found.error().message.c_str());
        QVERIFY(found->has_value());
        std::vector<float> out(32, -99.0f);
        m::dequantize(**found, out.data());
        // Block 0 scale 2.0 * 0.25 = 0.5; block 1 scale 0.5 * 0.25 = 0.125.
        QCOMPARE(out[0], 0.25f);   // low nibble 1: 0.5 * 0.5
        QCOMPARE(out[1], 0.5f);    // high nibble 2: 1 * 0.5
        QCOMPARE(out[2], -0.25f);  // low nibble 9: -0.5 * 0.5
        QCOMPARE(out[3], -3.0f);   // high nibble F: -6 * 0.5
        for (int c = 4; c < 16; ++c) QCOMPARE(out[static_cast<size_t>(c)], 0.0f);
        QCOMPARE(out[16], 0.0f);
        QCOMPARE(out[17], 0.75f);  // high nibble 7: 6 * 0.125
        // The same bytes as an FP8 config: refused, naming what the config says.
        m::QuantizationConfig fp8;
        fp8.format = m::WeightFormat::FP8;
        auto wrong = m::find_linear(t, "x.weight", 1, 32, fp8);
        QVERIFY(!wrong.ok());
        QVERIFY(QString::fromStdString(wrong.error().message).contains("says fp8"));
    }

    // FP8 per channel: e4m3 * the row's scale.
    void fp8ChannelByHand() {
        const std::vector<uint8_t> codes = {0x38, 0xb8, 0x40, 0x01};  // 1, -1, 2, 2^-9
        const std::vector<float> scales = {0.5f, 4.0f};
        std::map<std::string, m::TensorView> t;
        t["y.weight"] = view("y.weight", m::DType::F8_E4M3, {2, 2}, codes.data(), 4);
        t["y.weight_scale"] = view("y.weight_scale", m::DType::F32, {2, 1}, scales.data(), 8);
        m::QuantizationConfig q;
        q.format = m::WeightFormat::FP8;
        auto found = m::find_linear(t, "y.weight", 2, 2, q);
        QVERIFY2(found.ok(), found.ok() ? "" : found.error().message.c_str());
        std::vector<float> out(4);
        m::dequantize(**found, out.data());
        QCOMPARE(out, (std::vector<float>{0.5f, -0.5f, 8.0f, 0.0078125f}));
    }

    // bf16 weights against the fp32 engine on the same model: slot probabilities within 2e-2.
    void bf16Parity() {
        auto eb = open(write_model("tiny-bf16", "bf16", false));
        auto ef = open(write_model("tiny-f32", "f32", false));
        const auto req = request();
        auto rb = eb->read_slots(req, {});
        auto rf = ef->read_slots(req, {});
        QVERIFY(rb.ok() && rf.ok());
        const double d = max_prob_diff(*rb, *rf);
        qInfo("bf16: max |p(bf16 checkpoint) - p(f32 checkpoint)| = %.3g (tolerance 2e-2)", d);
        QVERIFY2(d <= 2e-2 && d > 0, qPrintable(QString::number(d)));
    }

    // FP8 dynamic: every decoder Linear but the router quantised; CPU reads equal the reads of
    // the dequantised values written as F32.
    void fp8CheckpointParity() { check_parity("fp8", 1e-6); }
    // NVFP4: the experts quantised (per expert, as ModelOpt writes them).
    void nvfp4CheckpointParity() { check_parity("nvfp4", 1e-6); }

    // The tiny checkpoints hold the published layouts, tensor by tensor.
    void layouts() {
        const fs::path q4 = write_model("tiny-nvfp4", "nvfp4", false);
        const QJsonObject h4 = Safetensors::read(q4 / "model.safetensors").header;
        const QString e = "model.decoder.layers.2.experts.5.";
        QCOMPARE(h4[e + "gate_proj.weight"].toObject()["dtype"].toString(), QString("U8"));
        QCOMPARE(h4[e + "gate_proj.weight"].toObject()["shape"].toArray(), QJsonArray({32, 32}));
        QCOMPARE(h4[e + "down_proj.weight_scale"].toObject()["dtype"].toString(),
                 QString("F8_E4M3"));
        QCOMPARE(h4[e + "down_proj.weight_scale"].toObject()["shape"].toArray(),
                 QJsonArray({64, 2}));
        QCOMPARE(h4[e + "up_proj.weight_scale_2"].toObject()["shape"].toArray(), QJsonArray());
        QVERIFY(h4.contains(e + "up_proj.input_scale"));
        QVERIFY(!h4.contains("model.decoder.layers.2.experts.gate_up_proj"));
        QCOMPARE(
            h4["model.decoder.layers.2.self_attn.q_proj.weight"].toObject()["dtype"].toString(),
            QString("BF16"));
        const QJsonObject c4 = QJsonDocument::fromJson(read_all(q4 / "config.json")).object();
        QCOMPARE(c4["quantization_config"].toObject()["quant_algo"].toString(), QString("NVFP4"));

        const fs::path q8 = write_model("tiny-fp8", "fp8", false);
        const QJsonObject h8 = Safetensors::read(q8 / "model.safetensors").header;
        const QString a = "model.decoder.layers.0.self_attn.q_proj.";
        QCOMPARE(h8[a + "weight"].toObject()["dtype"].toString(), QString("F8_E4M3"));
        QCOMPARE(h8[a + "weight_scale"].toObject()["shape"].toArray(), QJsonArray({64, 1}));
        QCOMPARE(h8["model.decoder.layers.0.router.proj.weight"].toObject()["dtype"].toString(),
                 QString("BF16"));
        auto summary = engine::inspect_model(q8);
        QVERIFY(summary.ok());
        std::map<std::string, std::string> dtypes;
        for (const auto& t : summary->tensors) dtypes[t.name] = t.dtype;
        QCOMPARE(QString::fromStdString(dtypes["model.decoder.layers.0.experts.gate_up_proj"]),
                 QString("fp8"));
        QCOMPARE(QString::fromStdString(dtypes["model.decoder.embed_tokens.weight"]),
                 QString("BF16"));
    }

    // The experts fused in one piece ([E, 2*MI, H/2] U8 with [E, 2] global scales, as some
    // exports write transformers' fused experts) read exactly as the per-expert layout.
    void fusedExpertLayout() {
        const fs::path q4 = write_model("tiny-nvfp4", "nvfp4", false);
        const fs::path d = copy_of(q4, "fused-nvfp4");
        Safetensors st = Safetensors::read(d / "model.safetensors");
        const auto bytes_of = [&](const QString& n) {
            const QJsonArray off = st.header[n].toObject()["data_offsets"].toArray();
            const qint64 begin = off[0].toInteger(), end = off[1].toInteger();
            return st.data.mid(begin, end - begin);
        };
        const auto add = [&](const QString& n, const QString& dtype, const QJsonArray& shape,
                             const QByteArray& b) {
            const qint64 begin = st.data.size();
            st.data.append(b);
            st.header[n] = QJsonObject{{"dtype", dtype},
                                       {"shape", shape},
                                       {"data_offsets", QJsonArray{begin, begin + b.size()}}};
        };
        const int E = 8, MI = 32, H = 64;
        for (int l = 0; l < 6; ++l) {
            const QString p = QString("model.decoder.layers.%1.experts.").arg(l);
            QByteArray gw, gs, g2, dw, ds, d2;
            for (int e = 0; e < E; ++e) {
                const QString x = p + QString::number(e) + ".";
                for (const QString proj : {"gate_proj", "up_proj"}) {
                    gw += bytes_of(x + proj + ".weight");
                    gs += bytes_of(x + proj + ".weight_scale");
                    g2 += bytes_of(x + proj + ".weight_scale_2");
                }
                dw += bytes_of(x + "down_proj.weight");
                ds += bytes_of(x + "down_proj.weight_scale");
                d2 += bytes_of(x + "down_proj.weight_scale_2");
                for (const QString proj : {"gate_proj", "up_proj", "down_proj"})
                    for (const QString suffix :
                         {".weight", ".weight_scale", ".weight_scale_2", ".input_scale"})
                        st.header.remove(x + proj + suffix);
            }
            add(p + "gate_up_proj", "U8", {E, 2 * MI, H / 2}, gw);
            add(p + "gate_up_proj_weight_scale", "F8_E4M3", {E, 2 * MI, H / 16}, gs);
            add(p + "gate_up_proj_weight_scale_2", "F32", {E, 2}, g2);
            add(p + "down_proj", "U8", {E, H, MI / 2}, dw);
            add(p + "down_proj_weight_scale", "F8_E4M3", {E, H, MI / 16}, ds);
            add(p + "down_proj_weight_scale_2", "F32", {E}, d2);
        }
        QVERIFY(write_all(d / "model.safetensors", st.bytes()));
        auto fused = open(d);
        auto per_expert = open(q4);
        const auto req = request();
        auto rf = fused->read_slots(req, {});
        auto rp = per_expert->read_slots(req, {});
        QVERIFY(rf.ok() && rp.ok());
        QCOMPARE(max_prob_diff(*rf, *rp), 0.0);
        QCOMPARE(fused->info().parameters, per_expert->info().parameters);

        // A global scale of neither shape is refused, naming the shapes accepted.
        const fs::path bad = copy_of(d, "fused-bad-global");
        edit_tensors(bad, [&](QJsonObject& h) {
            const QString n = "model.decoder.layers.0.experts.gate_up_proj_weight_scale_2";
            QJsonObject t = h[n].toObject();
            t["shape"] = QJsonArray({2 * E});
            h[n] = t;
        });
        expect_bad(bad, {"experts.gate_up_proj_weight_scale_2 is F32 [16]",
                         "expected F32 [8], "
                         "[8, 2] or []"});
    }

    void malformed() {
        const fs::path q4 = write_model("tiny-nvfp4", "nvfp4", false);
        const fs::path q8 = write_model("tiny-fp8", "fp8", false);
        const std::string e = "model.decoder.layers.1.experts.3.";
        {  // a missing block scale
            const fs::path d = copy_of(q4, "no-scale");
            edit_tensors(d, [&](QJsonObject& h) {
                h.remove(QString::fromStdString(e + "gate_proj.weight_scale"));
            });
            expect_bad(d, {QString::fromStdString(e + "gate_proj.weight_scale is missing"),
                           "F8_E4M3", "[32, 4]"});
        }
        {  // a block scale of the wrong shape (same bytes)
            const fs::path d = copy_of(q4, "bad-scale-shape");
            edit_tensors(d, [&](QJsonObject& h) {
                QJsonObject t = h[QString::fromStdString(e + "down_proj.weight_scale")].toObject();
                t["shape"] = QJsonArray({32, 4});
                h[QString::fromStdString(e + "down_proj.weight_scale")] = t;
            });
            expect_bad(d, {QString::fromStdString(e + "down_proj.weight_scale"), "[32, 4]",
                           "expected F8_E4M3 [64, 2]"});
        }
        {  // a missing global scale
            const fs::path d = copy_of(q4, "no-global");
            edit_tensors(d, [&](QJsonObject& h) {
                h.remove(QString::fromStdString(e + "up_proj.weight_scale_2"));
            });
            expect_bad(d, {QString::fromStdString(e + "up_proj.weight_scale_2 is missing")});
        }
        {  // an unknown quant_algo
            const fs::path d = copy_of(q4, "mxfp4");
            edit_config(d, [](QJsonObject& c) {
                QJsonObject q = c["quantization_config"].toObject();
                q["quant_algo"] = "MXFP4";
                c["quantization_config"] = q;
            });
            expect_bad(d, {"config.json", "quantization_config.quant_algo is \"MXFP4\"",
                           "expected \"NVFP4\""});
        }
        {  // an unknown quant_method
            const fs::path d = copy_of(q4, "gptq");
            edit_config(d, [](QJsonObject& c) {
                QJsonObject q = c["quantization_config"].toObject();
                q["quant_method"] = "gptq";
                c["quantization_config"] = q;
            });
            expect_bad(d, {"quant_method is \"gptq\"", "modelopt", "compressed-tensors"});
        }
        {  // packed weights without a quantization_config
            const fs::path d = copy_of(q4, "no-config");
            edit_config(d, [](QJsonObject& c) { c.remove("quantization_config"); });
            fs::remove(d / "hf_quant_config.json");
            expect_bad(d, {"experts.0.gate_proj.weight is U8", "says bf16"});
        }
        {  // an older ModelOpt export: the quantisation only in hf_quant_config.json
            const fs::path d = copy_of(q4, "hf-quant-config-only");
            edit_config(d, [](QJsonObject& c) { c.remove("quantization_config"); });
            auto r = engine::inspect_model(d);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
            QJsonObject hf = QJsonDocument::fromJson(read_all(d / "hf_quant_config.json")).object();
            QJsonObject q = hf["quantization"].toObject();
            q["quant_algo"] = "W4A8_AWQ";
            hf["quantization"] = q;
            QVERIFY(write_all(d / "hf_quant_config.json", QJsonDocument(hf).toJson()));
            expect_bad(d, {"hf_quant_config.json", "quantization.quant_algo is \"W4A8_AWQ\"",
                           "expected \"NVFP4\""});
        }
        {  // FP8 without its per-channel scale
            const fs::path d = copy_of(q8, "fp8-no-scale");
            const std::string w = "model.decoder.layers.0.self_attn.o_proj.weight";
            edit_tensors(d,
                         [&](QJsonObject& h) { h.remove(QString::fromStdString(w + "_scale")); });
            expect_bad(d,
                       {QString::fromStdString(w + "_scale is missing"), "per-channel", "[64, 1]"});
        }
        {  // FP8 with group-wise weights (not the dynamic layout)
            const fs::path d = copy_of(q8, "fp8-group");
            edit_config(d, [](QJsonObject& c) {
                QJsonObject q = c["quantization_config"].toObject();
                QJsonObject groups = q["config_groups"].toObject();
                QJsonObject g = groups["group_0"].toObject();
                QJsonObject w = g["weights"].toObject();
                w["strategy"] = "group";
                g["weights"] = w;
                groups["group_0"] = g;
                q["config_groups"] = groups;
                c["quantization_config"] = q;
            });
            expect_bad(d, {"config_groups.group_0.weights", "strategy channel"});
        }
    }

    // The plan per format for the real 26B-A4B config (text part), against the published sizes,
    // and the refusal of a model too large, naming the format and the numbers.
    void memoryPlan() {
        auto c = m::load_config(fs::path(DS_SOURCE_DIR) /
                                "scripts/gpu/diffusiongemma-26b-a4b.config.json");
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
        const double bf16 = double(m::checkpoint_bytes(*c, m::WeightFormat::BF16).total());
        const double fp8 = double(m::checkpoint_bytes(*c, m::WeightFormat::FP8).total());
        const double nvfp4 = double(m::checkpoint_bytes(*c, m::WeightFormat::NVFP4).total());
        qInfo("26B-A4B text weights: bf16 %.2f GB, fp8 %.2f GB, nvfp4 %.2f GB", bf16 / 1e9,
              fp8 / 1e9, nvfp4 / 1e9);
        // The published checkpoints (with a ~1.1 GB bf16 vision tower this config leaves out):
        // 51.6 GB bf16, 27.2 GB FP8 dynamic, 18.8 GB NVFP4.
        QVERIFY(bf16 > 48e9 && bf16 < 51.6e9);
        QVERIFY(fp8 > 25e9 && fp8 < 27.2e9);
        QVERIFY(nvfp4 > 16.5e9 && nvfp4 < 18.8e9);

        m::ModelConfig q = *c;
        q.quantization.format = m::WeightFormat::NVFP4;
        const m::MemoryPlan plan = m::plan_cpu_memory(q, 8192);
        auto refused = m::check_memory(plan, 24'000'000'000ull, "diffusiongemma-26B-A4B-it-NVFP4");
        QVERIFY(!refused.ok());
        const QString msg = QString::fromStdString(refused.error().message);
        QVERIFY2(msg.contains("nvfp4 checkpoint") && msg.contains("does not fit") &&
                     msg.contains("24.00 GB is available") && msg.contains("f32 (dequantised)"),
                 qPrintable(msg));
        QVERIFY2(msg.contains(QString::fromStdString(m::format_gb(plan.total()))), qPrintable(msg));
        QVERIFY(m::check_memory(plan, plan.total(), "fits").ok());

        // Engine::open refuses the tiny NVFP4 model under a 1 MB budget, with the same wording.
        engine::EngineOptions eo;
        eo.model_dir = write_model("tiny-nvfp4", "nvfp4", false);
        eo.device = engine::Device::Cpu;
        eo.memory_limit_bytes = 1'000'000;
        auto e = engine::Engine::open(eo);
        QVERIFY(!e.ok());
        const QString open_msg = QString::fromStdString(e.error().message);
        QVERIFY2(open_msg.contains("nvfp4 checkpoint") && open_msg.contains("0.00 GB is available"),
                 qPrintable(open_msg));
    }
};

QTEST_GUILESS_MAIN(TestQuantized)
#include "tst_quantized.moc"
