// The C++ engine against the independent PyTorch reference (tests/reference/diffusion_gemma_ref.py,
// written from the transformers source) on the tiny model (build/models/tiny) with a real
// tokenized chat prompt longer than the tiny model's sliding window and three canvas rows:
// encoder K/V of every layer, decoder logits at every canvas position, slot log-probabilities
// (Engine::read_slots), one self-conditioned step, and one pass of the generation loop at the
// canvas width it sizes for a 32-token answer, each to a max abs difference of 1e-4 (fp32).
// A last case runs the reference with a deliberate error (DGEM_REF_PERTURB=1) and checks that the
// same comparison sees it, so a passing run means agreement rather than an insensitive test.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <random>

#include "engine/debug_trace.h"
#include "engine/engine.h"
#include "engine/tiny_model.h"
#include "engine/tokenizer.h"
#include "reference_request.h"

namespace fs = std::filesystem;
using engine::TokenId;

namespace {

constexpr double kTolerance = 1e-4;   // max abs difference, fp32 on both sides
constexpr float kTemperature = 0.8f;  // the first denoising step's temperature (0.4 + 0.4 * 48/48)
constexpr int kThreads = 2;
const char* const kPython = "/usr/bin/python3";  // Debian's, with python3-torch

QString script_path() {
    return QStringLiteral(DS_SOURCE_DIR "/tests/reference/diffusion_gemma_ref.py");
}

struct Array {
    std::vector<int64_t> shape;
    std::vector<float> data;
};

// Reads what the reference wrote into a folder: manifest.json plus one raw f32 file per array.
std::optional<std::map<QString, Array>> read_reference_dir(const QString& dir, QString* error) {
    QFile mf(dir + "/manifest.json");
    if (!mf.open(QIODevice::ReadOnly)) {
        *error = mf.fileName() + ": missing";
        return std::nullopt;
    }
    const QJsonObject manifest = QJsonDocument::fromJson(mf.readAll()).object();
    std::map<QString, Array> out;
    for (auto it = manifest.begin(); it != manifest.end(); ++it) {
        const QJsonObject entry = it.value().toObject();
        Array a;
        int64_t n = 1;
        for (const auto& d : entry["shape"].toArray()) {
            a.shape.push_back(d.toInteger());
            n *= d.toInteger();
        }
        QFile f(dir + "/" + entry["file"].toString());
        if (!f.open(QIODevice::ReadOnly)) {
            *error = f.fileName() + ": missing";
            return std::nullopt;
        }
        const QByteArray bytes = f.readAll();
        if (bytes.size() != n * int64_t(sizeof(float))) {
            *error = f.fileName() + ": size does not match its manifest shape";
            return std::nullopt;
        }
        a.data.resize(size_t(n));
        std::memcpy(a.data.data(), bytes.constData(), size_t(bytes.size()));
        out.emplace(it.key(), std::move(a));
    }
    return out;
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return INFINITY;
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = std::fabs(double(a[i]) - double(b[i]));
        if (!(d <= m)) m = std::isnan(d) ? INFINITY : d;
    }
    return m;
}

using reference_test::request_json;
using reference_test::slot_logprobs_of;

}  // namespace

class TestReference : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    fs::path model_dir_;
    std::optional<engine::Tokenizer> tok_;
    std::vector<TokenId> prompt_;
    engine::SlotReadRequest request_;
    std::vector<std::vector<TokenId>> canvases_;
    std::optional<engine::ForwardTrace> first_;  // first step, no self-conditioning
    std::optional<engine::ForwardTrace> sc_;     // self-conditioned on first_'s logits / T
    std::vector<float> previous_logits_;
    std::optional<engine::SlotReadResult> slots_;

    // Writes the request for the reference and runs it; returns its arrays.
    std::map<QString, Array> run_reference(const QString& name, bool perturb) {
        return run_reference(name, request_json(request_), previous_logits_, perturb);
    }

    // The same for any request; `previous_logits` [rows*W*vocab] goes to the reference's
    // self-conditioned step (its sc_logits output).
    std::map<QString, Array> run_reference(const QString& name, QJsonObject req,
                                           const std::vector<float>& previous_logits,
                                           bool perturb) {
        const QString dir = tmp_.filePath(name);
        req["previous_logits"] = name + "-previous_logits.f32";
        QFile pf(tmp_.filePath(name + "-previous_logits.f32"));
        if (!pf.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(pf.fileName()));
        pf.write(reinterpret_cast<const char*>(previous_logits.data()),
                 qint64(previous_logits.size() * sizeof(float)));
        pf.close();
        QFile rf(tmp_.filePath("request.json"));
        if (!rf.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(rf.fileName()));
        rf.write(QJsonDocument(req).toJson());
        rf.close();

        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (perturb) env.insert("DGEM_REF_PERTURB", "1");
        p.setProcessEnvironment(env);
        p.start(kPython,
                {script_path(), "--model", QString::fromStdString(model_dir_.string()), "--input",
                 rf.fileName(), "--output", dir, "--threads", QString::number(kThreads)});
        const bool finished = p.waitForFinished(300000);
        const QByteArray err = p.readAllStandardError();
        if (!finished || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning("%s", err.constData());
            return {};
        }
        qInfo("reference: %s", err.trimmed().constData());
        QString error;
        auto arrays = read_reference_dir(dir, &error);
        if (!arrays) qWarning("%s", qPrintable(error));
        return arrays ? *arrays : std::map<QString, Array>{};
    }

    struct Diffs {
        double enc_k = 0, enc_v = 0, logits = 0, slot_lp = 0, sc_logits = 0;
        bool shapes_ok = true;
        QString shape_error;
    };

    Diffs compare(const std::map<QString, Array>& ref) {
        Diffs d;
        const auto need = [&](const QString& key) -> const Array* {
            auto it = ref.find(key);
            if (it == ref.end()) {
                d.shapes_ok = false;
                d.shape_error = "reference output lacks " + key;
                return nullptr;
            }
            return &it->second;
        };
        const auto& t = *first_;
        for (size_t l = 0; l < t.encoder_k.size(); ++l) {
            const Array* k = need(QString("enc_k_%1").arg(l));
            const Array* v = need(QString("enc_v_%1").arg(l));
            if (!k || !v) return d;
            const std::vector<int64_t> shape = {t.prompt_length, t.kv_heads[l], t.head_dim[l]};
            if (k->shape != shape || v->shape != shape) {
                d.shapes_ok = false;
                d.shape_error = QString("layer %1: encoder K/V shapes differ").arg(l);
                return d;
            }
            const double dk = max_abs_diff(t.encoder_k[l], k->data);
            const double dv = max_abs_diff(t.encoder_v[l], v->data);
            qInfo("  layer %zu: encoder K max abs diff %.3g, V %.3g", l, dk, dv);
            d.enc_k = std::max(d.enc_k, dk);
            d.enc_v = std::max(d.enc_v, dv);
        }
        const Array* logits = need("logits");
        const Array* lp = need("slot_logprobs");
        const Array* sc = need("sc_logits");
        if (!logits || !lp || !sc) return d;
        d.logits = max_abs_diff(t.logits, logits->data);
        d.slot_lp = max_abs_diff(slot_logprobs_of(*slots_), lp->data);
        d.sc_logits = max_abs_diff(sc_->logits, sc->data);
        return d;
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        QProcess probe;
        probe.start(kPython, {"-c", "import torch, numpy"});
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0)
            QSKIP(
                "Debian's /usr/bin/python3 with python3-torch and python3-numpy is not installed");

        // The build's tiny model; if the build rule has not made it, write one with the same
        // real writer into the temporary folder.
        model_dir_ = fs::path(DS_TINY_MODEL_DIR);
        if (!fs::exists(model_dir_ / "config.json")) {
            model_dir_ = fs::path(tmp_.filePath("tiny").toStdString());
            engine::TinyModelOptions o;
            o.out_dir = model_dir_;
            o.tokenizer_json = DS_TOKENIZER_JSON;
            auto w = engine::write_tiny_model(o);
            QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
        }
        auto tok = engine::Tokenizer::load(DS_TOKENIZER_JSON);
        QVERIFY2(tok.ok(), tok.ok() ? "" : tok.error().message.c_str());
        tok_.emplace(std::move(tok).value());

        // A real chat prompt (thinking off) of a few dozen tokens: longer than the tiny model's
        // sliding window (16), so the encoder's window and the decoder's cache cut both matter.
        using namespace engine::tokens;
        prompt_ = {kBos, kTurnOpen};
        for (TokenId t : tok_->encode(
                 "user\nA customer writes: my order arrived two days late and the invoice shows "
                 "a different total than the checkout page. Should we refund the difference, and "
                 "how urgent is this ticket?"))
            prompt_.push_back(t);
        for (TokenId t : {kTurnClose, kNewline, kTurnOpen}) prompt_.push_back(t);
        for (TokenId t : tok_->encode("model\n")) prompt_.push_back(t);
        for (TokenId t : {kChannelOpen}) prompt_.push_back(t);
        for (TokenId t : tok_->encode("thought\n")) prompt_.push_back(t);
        prompt_.push_back(kChannelClose);
        QVERIFY2(prompt_.size() > 32, "the prompt must be longer than twice the sliding window");

        // Answer template "refund: yes\nurgency: high<turn|>" padded to 16; row 0 holds the
        // first labels, rows 1 and 2 hold seeded uniform noise at the slots (noise draws).
        std::vector<TokenId> canvas;
        std::vector<engine::SlotSpec> specs;
        const std::vector<std::pair<std::string, std::vector<std::string>>> questions = {
            {"refund", {"yes", "no"}}, {"urgency", {"low", "medium", "high"}}};
        for (size_t q = 0; q < questions.size(); ++q) {
            if (q) canvas.push_back(kNewline);
            for (TokenId t : tok_->encode(questions[q].first + ": ")) canvas.push_back(t);
            engine::SlotSpec s;
            s.pos = int32_t(canvas.size());
            for (const auto& label : questions[q].second) {
                const auto ids = tok_->encode(label);
                QCOMPARE(ids.size(), size_t(1));
                s.label_ids.push_back(ids[0]);
            }
            canvas.push_back(s.label_ids.back());
            specs.push_back(s);
        }
        canvas.push_back(kTurnClose);
        QVERIFY(canvas.size() <= 16);
        canvas.resize(16, kPad);
        request_.prompt_ids = prompt_;
        for (int k = 0; k < 3; ++k) {
            engine::CanvasRow row{canvas, specs};
            if (k > 0) {
                std::mt19937 rng(uint32_t(17 + k * 7919));
                std::uniform_int_distribution<TokenId> noise(0, 262143);
                for (const auto& s : specs) row.ids[size_t(s.pos)] = noise(rng);
            }
            canvases_.push_back(row.ids);
            request_.rows.push_back(std::move(row));
        }

        // Engine side: the trace of a first step, a self-conditioned step on its logits / T, and
        // the production slot read.
        auto first = engine::trace_forward(model_dir_, prompt_, canvases_, nullptr, kThreads);
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        first_.emplace(std::move(first).value());
        QCOMPARE(first_->logits.size(),
                 size_t(first_->rows) * size_t(first_->width) * size_t(first_->vocab_size));
        previous_logits_ = first_->logits;
        for (float& z : previous_logits_) z /= kTemperature;
        auto sc =
            engine::trace_forward(model_dir_, prompt_, canvases_, &previous_logits_, kThreads);
        QVERIFY2(sc.ok(), sc.ok() ? "" : sc.error().message.c_str());
        sc_.emplace(std::move(sc).value());

        engine::EngineOptions eo;
        eo.model_dir = model_dir_;
        eo.device = engine::Device::Cpu;
        eo.threads = kThreads;
        auto eng = engine::Engine::open(eo);
        QVERIFY2(eng.ok(), eng.ok() ? "" : eng.error().message.c_str());
        auto read = eng.value()->read_slots(request_, engine::CancelToken{});
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
        slots_.emplace(std::move(read).value());
    }

    void matchesReference() {
        const auto ref = run_reference("ref", false);
        QVERIFY2(!ref.empty(), "the PyTorch reference failed (see the warning above)");
        const Diffs d = compare(ref);
        QVERIFY2(d.shapes_ok, qPrintable(d.shape_error));
        qInfo("prompt %d tokens, %d rows x %d, vocab %d", first_->prompt_length, first_->rows,
              first_->width, first_->vocab_size);
        qInfo(
            "max abs diff: encoder K %.3g, encoder V %.3g, logits %.3g, slot log-probs %.3g, "
            "self-conditioned logits %.3g (tolerance %.0e)",
            d.enc_k, d.enc_v, d.logits, d.slot_lp, d.sc_logits, kTolerance);
        QVERIFY2(d.enc_k <= kTolerance, "encoder K differs from the reference");
        QVERIFY2(d.enc_v <= kTolerance, "encoder V differs from the reference");
        QVERIFY2(d.logits <= kTolerance, "decoder logits differ from the reference");
        QVERIFY2(d.slot_lp <= kTolerance, "slot log-probabilities differ from the reference");
        QVERIFY2(d.sc_logits <= kTolerance, "self-conditioned logits differ from the reference");

        // The self-conditioning signal must actually change the logits, or its check proves little.
        QVERIFY2(max_abs_diff(first_->logits, sc_->logits) > 1e-2,
                 "self-conditioning left the logits unchanged");
    }

    // One pass of the generation loop itself (Engine::generate's code, not a hand-built batch)
    // at the canvas width it picks for max_new_tokens 32 without an explicit canvas_length: 32
    // positions, not the config's 256. Step 2 of the first canvas, so the pass reads the
    // self-conditioning logits of step 1 (divided by step 1's temperature) and a canvas of
    // sampled and re-noised ids; the reference runs the same decoder step from the same inputs.
    void generationPassMatchesReference() {
        engine::GenerationRequest g;
        g.prompt_ids = prompt_;
        g.seed = 11;
        g.max_new_tokens = 32;
        g.max_steps = 2;  // temperatures 0.8, 0.6: the loop ends after the traced pass
        auto traced = engine::trace_generation_pass(model_dir_, g, 0, 2, kThreads);
        QVERIFY2(traced.ok(), traced.ok() ? "" : traced.error().message.c_str());
        const engine::GenerationPassTrace& t = traced.value();
        QCOMPARE(t.width, 32);
        QCOMPARE(t.result.canvas_length, 32);
        QCOMPARE(t.result.canvases, 1);
        const size_t n = size_t(t.width) * size_t(t.vocab_size);
        QCOMPARE(t.ids.size(), size_t(t.width));
        QCOMPARE(t.self_conditioning.size(), n);
        QCOMPARE(t.logits.size(), n);

        QJsonArray prompt, ids;
        for (TokenId id : prompt_) prompt.append(id);
        for (TokenId id : t.ids) ids.append(id);
        const QJsonObject req{
            {"prompt_ids", prompt}, {"canvases", QJsonArray{ids}}, {"full_logits", false}};
        const auto ref = run_reference("generation", req, t.self_conditioning, false);
        QVERIFY2(!ref.empty(), "the PyTorch reference failed (see the warning above)");
        const auto sc = ref.find("sc_logits");
        QVERIFY2(sc != ref.end(), "reference output lacks sc_logits");
        QCOMPARE(sc->second.shape, (std::vector<int64_t>{1, t.width, t.vocab_size}));
        const double d = max_abs_diff(t.logits, sc->second.data);
        qInfo("generation pass (canvas 0, step 2, W %d): logits max abs diff %.3g (tolerance %.0e)",
              t.width, d, kTolerance);
        QVERIFY2(d <= kTolerance, "the generation loop's decoder logits differ from the reference");
    }

    // The same comparison against a reference with one sign flipped (decoder layer 0's attention
    // output) must see a difference far above the tolerance.
    void detectsAPerturbedReference() {
        const auto ref = run_reference("perturbed", true);
        QVERIFY2(!ref.empty(), "the PyTorch reference failed (see the warning above)");
        const Diffs d = compare(ref);
        QVERIFY2(d.shapes_ok, qPrintable(d.shape_error));
        qInfo("perturbed reference: logits max abs diff %.3g, slot log-probs %.3g", d.logits,
              d.slot_lp);
        QVERIFY(d.logits > 100 * kTolerance);
        QVERIFY(d.slot_lp > 100 * kTolerance);
    }
};

QTEST_GUILESS_MAIN(TestReference)
#include "tst_reference.moc"
