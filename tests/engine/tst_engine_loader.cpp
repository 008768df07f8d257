// The model loader against real files written by the tiny-model writer: round trip, bf16, and
// every kind of bad input producing one line that names the file (and tensor) and what was
// expected.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "engine/engine.h"
#include "engine/model_check.h"
#include "engine/tiny_model.h"

namespace fs = std::filesystem;

namespace {

QByteArray read_all(const fs::path& p) {
    QFile f(QString::fromStdString(p.string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

void write_all(const fs::path& p, const QByteArray& bytes) {
    QFile f(QString::fromStdString(p.string()));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
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

}  // namespace

class TestEngineLoader : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    fs::path good_;  // a valid tiny model (f32), written once

    // A fresh copy of the good model to break.
    fs::path copy(const QString& name) {
        const fs::path dir = fs::path(tmp_.path().toStdString()) / name.toStdString();
        fs::remove_all(dir);
        fs::create_directories(dir);
        for (const auto& e : fs::directory_iterator(good_))
            fs::copy(e.path(), dir / e.path().filename());
        return dir;
    }

    // Expects a one-line BadInput error containing every needle.
    void expect_bad(const fs::path& dir, const QStringList& needles) {
        auto r = engine::inspect_model(dir);
        QVERIFY2(!r.ok(), "a broken model folder was accepted");
        const QString msg = QString::fromStdString(r.error().message);
        QCOMPARE(r.error().kind, engine::ErrorKind::BadInput);
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        for (const auto& n : needles)
            QVERIFY2(msg.contains(n), qPrintable(msg + "  (missing: " + n + ")"));
        // Engine::open reports the same error before it looks for a tokenizer or a device.
        engine::EngineOptions o;
        o.model_dir = dir;
        o.device = engine::Device::Cpu;
        auto e = engine::Engine::open(o);
        QVERIFY(!e.ok());
        QCOMPARE(QString::fromStdString(e.error().message), msg);
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        good_ = fs::path(tmp_.path().toStdString()) / "good";
        engine::TinyModelOptions o;
        o.out_dir = good_;
        o.seed = 7;
        auto r = engine::write_tiny_model(o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    }

    void roundTrip() {
        auto r = engine::inspect_model(good_);
        QVERIFY2(r.ok(), r.ok() ? "" : r->model_type.c_str());
        QCOMPARE(QString::fromStdString(r->model_type), QString("diffusion_gemma"));
        QCOMPARE(r->vocab_size, 262144);
        QCOMPARE(r->num_layers, 6);
        QCOMPARE(r->sliding_window, 16);
        QCOMPARE(r->full_attention, (std::vector<bool>{false, false, true, false, false, true}));
        // Encoder and decoder scalars are different tensors with different values.
        for (int l = 0; l < r->num_layers; ++l)
            QVERIFY(std::abs(r->encoder_layer_scalars[l] - r->decoder_layer_scalars[l]) > 0.05f);
        std::map<std::string, std::vector<int64_t>> shapes;
        for (const auto& t : r->tensors) {
            shapes[t.name] = t.shape;
            QCOMPARE(QString::fromStdString(t.dtype), QString("F32"));
        }
        QCOMPARE(shapes["model.decoder.embed_tokens.weight"], (std::vector<int64_t>{262144, 64}));
        // Sliding layer: 4 heads x 16, 2 kv heads, its own v_proj.
        QCOMPARE(shapes["model.decoder.layers.0.self_attn.q_proj.weight"],
                 (std::vector<int64_t>{64, 64}));
        QCOMPARE(shapes["model.decoder.layers.0.self_attn.v_proj.weight"],
                 (std::vector<int64_t>{32, 64}));
        // Full layer: 4 heads x 32, one kv head, K = V (no v_proj).
        QCOMPARE(shapes["model.decoder.layers.2.self_attn.q_proj.weight"],
                 (std::vector<int64_t>{128, 64}));
        QCOMPARE(shapes["model.decoder.layers.2.self_attn.k_proj.weight"],
                 (std::vector<int64_t>{32, 64}));
        QVERIFY(!shapes.count("model.decoder.layers.2.self_attn.v_proj.weight"));
        QCOMPARE(shapes["model.decoder.layers.2.experts.gate_up_proj"],
                 (std::vector<int64_t>{8, 64, 64}));
        QCOMPARE(shapes["model.decoder.layers.2.experts.down_proj"],
                 (std::vector<int64_t>{8, 64, 32}));
        QVERIFY(r->parameters > 16'000'000 && r->parameters < 20'000'000);
    }

    void sameSeedSameBytes() {
        const fs::path a = fs::path(tmp_.path().toStdString()) / "again";
        engine::TinyModelOptions o;
        o.out_dir = a;
        o.seed = 7;
        QVERIFY(engine::write_tiny_model(o).ok());
        QCOMPARE(read_all(a / "model.safetensors"), read_all(good_ / "model.safetensors"));
        o.seed = 8;
        o.out_dir = fs::path(tmp_.path().toStdString()) / "other";
        QVERIFY(engine::write_tiny_model(o).ok());
        QVERIFY(read_all(o.out_dir / "model.safetensors") != read_all(good_ / "model.safetensors"));
        // No temporary files are left behind.
        for (const auto& e : fs::directory_iterator(a))
            QVERIFY2(e.path().filename().string()[0] != '.', e.path().c_str());
    }

    void bf16Loads() {
        const fs::path b = fs::path(tmp_.path().toStdString()) / "bf16";
        engine::TinyModelOptions o;
        o.out_dir = b;
        o.seed = 7;
        o.dtype = "bf16";
        QVERIFY(engine::write_tiny_model(o).ok());
        // Half the bytes per element (the headers differ a little).
        QVERIFY(fs::file_size(b / "model.safetensors") * 2 <
                fs::file_size(good_ / "model.safetensors") + 100000);
        auto r = engine::inspect_model(b);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        for (const auto& t : r->tensors) QCOMPARE(QString::fromStdString(t.dtype), QString("BF16"));
        auto f = engine::inspect_model(good_);
        // bf16 scalars are the f32 ones rounded.
        for (int l = 0; l < r->num_layers; ++l)
            QVERIFY(std::abs(r->encoder_layer_scalars[l] - f->encoder_layer_scalars[l]) < 0.01f);
    }

    void missingFolder() {
        expect_bad(fs::path(tmp_.path().toStdString()) / "nowhere",
                   {"nowhere", "not a model folder"});
    }

    void missingConfig() {
        auto d = copy("noconfig");
        fs::remove(d / "config.json");
        expect_bad(d, {"config.json", "cannot read"});
    }

    void garbageConfig() {
        auto d = copy("garbageconfig");
        write_all(d / "config.json", "{\"model_type\": \"diffusion_gemma\", oops");
        expect_bad(d, {"config.json", "not valid JSON"});
        // Valid syntax with a number no double holds (found by fuzz_config): refused, no crash.
        write_all(d / "config.json",
                  "{\"model_type\": \"diffusion_gemma\", \"vocab_size\": 1e999}");
        expect_bad(d, {"config.json", "not valid JSON"});
    }

    void configFieldMissing() {
        auto d = copy("nohidden");
        auto j = QJsonDocument::fromJson(read_all(d / "config.json")).object();
        auto t = j["text_config"].toObject();
        t.remove("hidden_size");
        j["text_config"] = t;
        write_all(d / "config.json", QJsonDocument(j).toJson());
        expect_bad(d, {"config.json", "text_config.hidden_size", "missing"});
    }

    void wrongModelType() {
        auto d = copy("llama");
        auto j = QJsonDocument::fromJson(read_all(d / "config.json")).object();
        j["model_type"] = "llama";
        write_all(d / "config.json", QJsonDocument(j).toJson());
        expect_bad(d, {"config.json", "model_type", "diffusion_gemma"});
    }

    void missingWeights() {
        auto d = copy("noweights");
        fs::remove(d / "model.safetensors");
        expect_bad(d, {"model.safetensors", "missing"});
    }

    void truncatedFile() {
        auto d = copy("truncated");
        const auto p = d / "model.safetensors";
        fs::resize_file(p, fs::file_size(p) / 2);
        expect_bad(d, {"model.safetensors", "exceed the data section", "truncated"});
        fs::resize_file(p, 5);
        expect_bad(d, {"model.safetensors", "truncated"});
    }

    void oversizedHeader() {
        auto d = copy("oversized");
        QByteArray all = read_all(d / "model.safetensors");
        for (int i = 0; i < 8; ++i) all[i] = static_cast<char>(i < 7 ? 0xff : 0x00);
        write_all(d / "model.safetensors", all);
        expect_bad(d, {"model.safetensors", "header length", "does not fit"});
    }

    void garbageHeader() {
        auto d = copy("garbageheader");
        QByteArray all = read_all(d / "model.safetensors");
        all[8] = 'x';  // the header's opening brace
        all[9] = '!';
        write_all(d / "model.safetensors", all);
        expect_bad(d, {"model.safetensors", "header is not valid JSON"});
    }

    void missingTensor() {
        auto d = copy("notensor");
        auto s = Safetensors::read(d / "model.safetensors");
        s.header.remove("model.decoder.layers.3.router.per_expert_scale");
        write_all(d / "model.safetensors", s.bytes());
        expect_bad(d, {"model.safetensors", "model.decoder.layers.3.router.per_expert_scale",
                       "missing", "[8]"});
    }

    void missingEncoderScalar() {
        auto d = copy("noencscalar");
        auto s = Safetensors::read(d / "model.safetensors");
        s.header.remove("model.encoder.language_model.layers.5.layer_scalar");
        write_all(d / "model.safetensors", s.bytes());
        expect_bad(d, {"model.encoder.language_model.layers.5.layer_scalar", "missing"});
    }

    void wrongShape() {
        auto d = copy("shape");
        auto s = Safetensors::read(d / "model.safetensors");
        auto e = s.header["model.decoder.layers.1.mlp.down_proj.weight"].toObject();
        e["shape"] = QJsonArray{128, 64};  // transposed: same byte count
        s.header["model.decoder.layers.1.mlp.down_proj.weight"] = e;
        write_all(d / "model.safetensors", s.bytes());
        expect_bad(d, {"model.safetensors", "model.decoder.layers.1.mlp.down_proj.weight",
                       "[128, 64]", "expected [64, 128]"});
    }

    void sizeDisagreesWithShape() {
        auto d = copy("bytes");
        auto s = Safetensors::read(d / "model.safetensors");
        auto e = s.header["model.decoder.norm.weight"].toObject();
        e["shape"] = QJsonArray{65};
        s.header["model.decoder.norm.weight"] = e;
        write_all(d / "model.safetensors", s.bytes());
        expect_bad(d, {"model.decoder.norm.weight", "bytes, expected"});
    }

    void wrongDtype() {
        auto d = copy("dtype");
        auto s = Safetensors::read(d / "model.safetensors");
        auto e = s.header["model.decoder.norm.weight"].toObject();
        e["dtype"] = "I32";
        s.header["model.decoder.norm.weight"] = e;
        write_all(d / "model.safetensors", s.bytes());
        expect_bad(d, {"model.decoder.norm.weight", "I32", "F32, BF16, F16, F8_E4M3 or U8"});
    }

    void configDisagreesWithTensors() {
        auto d = copy("disagree");
        auto j = QJsonDocument::fromJson(read_all(d / "config.json")).object();
        auto t = j["text_config"].toObject();
        t["num_experts"] = 16;
        j["text_config"] = t;
        write_all(d / "config.json", QJsonDocument(j).toJson());
        expect_bad(d, {"model.safetensors", "router.proj.weight", "[8, 64]", "expected [16, 64]"});
        // Layer types that put K=V on a layer holding a v_proj.
        auto d2 = copy("layertypes");
        auto j2 = QJsonDocument::fromJson(read_all(d2 / "config.json")).object();
        auto t2 = j2["text_config"].toObject();
        auto types = t2["layer_types"].toArray();
        types[0] = "full_attention";
        t2["layer_types"] = types;
        j2["text_config"] = t2;
        write_all(d2 / "config.json", QJsonDocument(j2).toJson());
        expect_bad(d2, {"model.decoder.layers.0.self_attn", "expected"});
    }

    void shardedIndex() {
        // The same tensors through model.safetensors.index.json: one shard renamed.
        auto d = copy("sharded");
        fs::rename(d / "model.safetensors", d / "model-00001-of-00001.safetensors");
        auto s = Safetensors::read(d / "model-00001-of-00001.safetensors");
        QJsonObject map;
        for (auto it = s.header.begin(); it != s.header.end(); ++it)
            if (it.key() != "__metadata__") map[it.key()] = "model-00001-of-00001.safetensors";
        write_all(
            d / "model.safetensors.index.json",
            QJsonDocument(QJsonObject{{"metadata", QJsonObject{}}, {"weight_map", map}}).toJson());
        auto r = engine::inspect_model(d);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        // An index naming a shard that is not there.
        map["model.decoder.norm.weight"] = "model-00002-of-00002.safetensors";
        write_all(d / "model.safetensors.index.json",
                  QJsonDocument(QJsonObject{{"weight_map", map}}).toJson());
        expect_bad(d, {"model-00002-of-00002.safetensors", "cannot open"});
        map["model.decoder.norm.weight"] = "../evil.safetensors";
        write_all(d / "model.safetensors.index.json",
                  QJsonDocument(QJsonObject{{"weight_map", map}}).toJson());
        expect_bad(d, {"model.safetensors.index.json", "evil"});
    }
};

QTEST_GUILESS_MAIN(TestEngineLoader)
#include "tst_engine_loader.moc"
