// The vision path on the tiny model (its tiny Gemma 4 vision tower: 2 layers, hidden 32, 4-pixel
// patches pooled 2x2, 9 soft tokens for a 24x24 image): the image preprocessing against
// hand-computed values, the engine's errors for images it cannot take, and the engine's slot
// read with an image in the prompt against the independent PyTorch reference
// (tests/reference/diffusion_gemma_ref.py, its vision path written from transformers' Gemma 4
// vision code) to a max abs difference of 1e-4 in the label log-probabilities, plus a deliberate
// mismatch (one pixel changed on the engine's side) that the comparison must see.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>

#include "engine/engine.h"
#include "engine/tiny_model.h"
#include "reference_request.h"
#include "vision/image_preprocess.h"

namespace fs = std::filesystem;
using engine::TokenId;

namespace {

using reference_test::slot_logprobs_of;

constexpr double kTolerance = 1e-4;
const char* const kPython = "/usr/bin/python3";

// A deterministic test image with structure in both axes and all three channels.
engine::ImageInput test_image(int w, int h, int salt = 0) {
    engine::ImageInput im;
    im.width = w;
    im.height = h;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            im.rgb.push_back(uint8_t((x * 37 + y * 11 + salt) % 256));
            im.rgb.push_back(uint8_t((x * x + 3 * y * y + 5) % 256));
            im.rgb.push_back(uint8_t(((x ^ y) * 29 + 100) % 256));
        }
    return im;
}

// boi, `n` image tokens, eoi inside a short user turn.
std::vector<TokenId> image_prompt(const engine::ModelInfo& info, int n) {
    std::vector<TokenId> p = {2, 105, 2364, 107, info.boi_token_id};
    p.insert(p.end(), size_t(n), info.image_token_id);
    for (TokenId t : {info.eoi_token_id, 107, 11355, 563, 506, 236881, 106, 107, 105, 4368, 107})
        p.push_back(t);
    return p;
}

engine::SlotReadRequest slot_request(std::vector<TokenId> prompt) {
    engine::SlotReadRequest r;
    r.prompt_ids = std::move(prompt);
    engine::CanvasRow row;
    row.ids = {9548, 236787, 4400, 107, 106, 0, 0, 0};
    row.slot_specs.push_back({2, {4400, 1904, 3487, 11203}});
    r.rows.push_back(row);
    row.ids[2] = 77777;  // a noise draw at the slot
    r.rows.push_back(row);
    return r;
}

// Runs the PyTorch reference on `r` (images written as raw RGB files into `tmp`); returns its slot
// label log-probabilities, empty on failure.
std::vector<float> reference(const engine::SlotReadRequest& r, QTemporaryDir& tmp_,
                             const fs::path& model_dir_) {
    QJsonObject req = reference_test::request_json(r);
    QJsonArray images;
    for (size_t i = 0; i < r.images.size(); ++i) {
        const QString name = QString("image%1.rgb").arg(i);
        QFile f(tmp_.filePath(name));
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(reinterpret_cast<const char*>(r.images[i].rgb.data()),
                qint64(r.images[i].rgb.size()));
        images.append(QJsonObject{
            {"width", r.images[i].width}, {"height", r.images[i].height}, {"rgb", name}});
    }
    req["images"] = images;
    req["full_logits"] = false;
    QFile rf(tmp_.filePath("vision-request.json"));
    if (!rf.open(QIODevice::WriteOnly)) return {};
    rf.write(QJsonDocument(req).toJson());
    rf.close();
    const QString out = tmp_.filePath("vision-out");
    QProcess p;
    p.start(kPython, {QStringLiteral(DS_SOURCE_DIR "/tests/reference/diffusion_gemma_ref.py"),
                      "--model", QString::fromStdString(model_dir_.string()), "--input",
                      rf.fileName(), "--output", out, "--threads", "2"});
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        qWarning("%s", p.readAllStandardError().constData());
        return {};
    }
    QFile lp(out + "/slot_logprobs.f32");
    if (!lp.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = lp.readAll();
    std::vector<float> v(size_t(bytes.size()) / sizeof(float));
    std::memcpy(v.data(), bytes.constData(), size_t(bytes.size()));
    return v;
}

}  // namespace

class TestVision : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    fs::path model_dir_;
    std::unique_ptr<engine::Engine> engine_;

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        model_dir_ = fs::path(tmp_.filePath("tiny").toStdString());
        engine::TinyModelOptions o;
        o.out_dir = model_dir_;
        o.tokenizer_json = DS_TOKENIZER_JSON;
        auto w = engine::write_tiny_model(o);
        QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
        engine::EngineOptions eo;
        eo.model_dir = model_dir_;
        eo.device = engine::Device::Cpu;
        eo.threads = 2;
        auto e = engine::Engine::open(eo);
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().message.c_str());
        engine_ = std::move(e).value();
    }

    // ModelInfo carries the image ids of config.json and the tiny processor's soft tokens.
    void model_info() {
        const auto& info = engine_->info();
        QCOMPARE(info.image_tokens, 9);
        QCOMPARE(info.boi_token_id, 255999);
        QCOMPARE(info.image_token_id, 258880);
        QCOMPARE(info.eoi_token_id, 258882);
        QCOMPARE(engine_->image_soft_tokens(24, 24).value(), 9);
        QCOMPARE(engine_->image_soft_tokens(32, 16).value(), 8);  // 8x4 patches -> 4x2 pooled
        QCOMPARE(engine_->image_soft_tokens(48, 48).value(), 9);  // resized to 24x24
        QVERIFY(!engine_->image_soft_tokens(0, 5).ok());
    }

    // get_aspect_ratio_preserving_size by hand: budget 36 patches of 4 px (576 px), sides
    // multiples of 8.
    void target_size() {
        engine::vision::ImageProcessorConfig c;
        c.patch_size = 4;
        c.pooling_kernel_size = 2;
        c.max_soft_tokens = 9;
        using P = std::pair<int, int>;
        QCOMPARE(engine::vision::target_size(24, 24, c).value(), P(24, 24));
        // 100x50 (h x w): factor sqrt(576/5000) = 0.3394 -> 33.9 x 16.97 -> 32 x 16.
        QCOMPARE(engine::vision::target_size(100, 50, c).value(), P(32, 16));
        // 7 x 300: height floors to 0 -> one pooled row, width min(300/7 * 8, 9 * 8) = 72.
        QCOMPARE(engine::vision::target_size(7, 300, c).value(), P(8, 72));
        // The real processor: 280 soft tokens, patch 16, kernel 3: 768x768 -> 48x48 side 768?
        engine::vision::ImageProcessorConfig real;
        // factor sqrt(2520*256 / 589824) = 1.0458 -> 803.2 -> floor(803.2/48)*48 = 768.
        QCOMPARE(engine::vision::target_size(768, 768, real).value(), P(768, 768));
    }

    // Antialiased resampling by hand. Bilinear 4 -> 2 (scale 2, support 2): output 0 has centre
    // 1.0 and taps 0..2 at distances -0.25, 0.25, 0.75 (scaled by 1/2) -> weights .75 .75 .25,
    // normalised 3/7 3/7 1/7; output 1 (centre 3.0) taps 1..3 with 1/7 3/7 3/7.
    void resize_by_hand() {
        const std::vector<uint8_t> row = {0, 0, 0, 70, 70, 70, 140, 140, 140, 210, 210, 210};
        const auto bl = engine::vision::resize_rgb(row, 4, 1, 2, 1, 2);
        QCOMPARE(int(bl[0]), 50);   // (3*0 + 3*70 + 140) / 7 = 50
        QCOMPARE(int(bl[3]), 160);  // (70 + 3*140 + 3*210) / 7 = 160
        // Bicubic (a = -0.5) 4 -> 2: taps 0..3 of output 0 at scaled distances -0.25, 0.25,
        // 0.75, 1.25: k(.25) = 0.8671875, k(.75) = 0.2265625, k(1.25) = -0.0703125; sum
        // 1.890625 -> (0*.8672 + 70*.8672 + 140*.2266 + 210*-.0703) / 1.890625 = 41.07 -> 41.
        const auto bc = engine::vision::resize_rgb(row, 4, 1, 2, 1, 3);
        QCOMPARE(int(bc[0]), 41);
        // A constant image stays constant; an unchanged size is a copy.
        const std::vector<uint8_t> flat(6 * 5 * 3, 123);
        for (uint8_t v : engine::vision::resize_rgb(flat, 6, 5, 3, 2, 3)) QCOMPARE(int(v), 123);
        QCOMPARE(engine::vision::resize_rgb(row, 4, 1, 4, 1, 3), row);
    }

    // Rescale by 1/255, patch layout (row, column, channel) and (x, y) positions.
    void patches_by_hand() {
        engine::vision::ImageProcessorConfig c;
        c.patch_size = 4;
        c.pooling_kernel_size = 2;
        c.max_soft_tokens = 9;
        c.do_resize = false;                // (the budget would upscale 16x8 to 32x16)
        const auto im = test_image(16, 8);  // 4x2 patches
        auto p = engine::vision::preprocess_image(im, c, 0);
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message.c_str());
        QCOMPARE(p->patches_w, 4);
        QCOMPARE(p->patches_h, 2);
        QCOMPARE(p->pixels.size(), size_t(8 * 48));
        // Patch 5 is (x 1, y 1); its value (row 2, col 3, green) is pixel (x 7, y 6).
        QCOMPARE(p->pos_x[5], 1);
        QCOMPARE(p->pos_y[5], 1);
        const int x = 7, y = 6;
        const float want = float((x * x + 3 * y * y + 5) % 256) * float(1.0 / 255.0);
        QCOMPARE(p->pixels[5 * 48 + (2 * 4 + 3) * 3 + 1], want);
        // With normalisation: (v - mean) / std per channel.
        c.do_normalize = true;
        c.image_mean[1] = 0.5f;
        c.image_std[1] = 0.25f;
        auto n = engine::vision::preprocess_image(im, c, 0);
        QCOMPARE(n->pixels[5 * 48 + (2 * 4 + 3) * 3 + 1], (want - 0.5f) / 0.25f);
    }

    void bad_images() {
        const auto& info = engine_->info();
        auto r = slot_request(image_prompt(info, 9));
        // No image for the run.
        auto e = engine_->read_slots(r, {});
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.find("1 run(s)") != std::string::npos,
                 e.error().message.c_str());
        // Zero size.
        r.images.push_back(engine::ImageInput{0, 10, {}});
        e = engine_->read_slots(r, {});
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.find("image 0 has size 0x10") != std::string::npos,
                 e.error().message.c_str());
        // Wrong byte count.
        r.images[0] = engine::ImageInput{4, 4, std::vector<uint8_t>(10)};
        e = engine_->read_slots(r, {});
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.find("width*height*3") != std::string::npos,
                 e.error().message.c_str());
        // A run whose length is not the image's soft-token count (32x16 gives 8).
        r.images[0] = test_image(32, 16);
        e = engine_->read_slots(r, {});
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.find("gives 8 soft tokens") != std::string::npos,
                 e.error().message.c_str());
        // Two images, one run.
        r.images = {test_image(24, 24), test_image(24, 24)};
        e = engine_->read_slots(r, {});
        QVERIFY(!e.ok());
        // A model without a vision tower (the small preset is text-only).
        const fs::path small = fs::path(tmp_.filePath("textonly").toStdString());
        engine::TinyModelOptions o;
        o.out_dir = small;
        o.tokenizer_json = DS_TOKENIZER_JSON;
        o.preset = "small";
        QVERIFY(engine::write_tiny_model(o).ok());
        engine::EngineOptions eo;
        eo.model_dir = small;
        eo.device = engine::Device::Cpu;
        eo.threads = 2;
        auto text_only = engine::Engine::open(eo);
        QVERIFY(text_only.ok());
        QCOMPARE((*text_only)->info().image_tokens, 0);
        QVERIFY(!(*text_only)->image_soft_tokens(24, 24).ok());
        r.images = {test_image(24, 24)};
        e = (*text_only)->read_slots(r, {});
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.find("no vision tower") != std::string::npos,
                 e.error().message.c_str());
    }

    // The image changes the answer distribution (the soft tokens reach the canvas).
    void image_matters() {
        const auto& info = engine_->info();
        auto a = slot_request(image_prompt(info, 9));
        a.images = {test_image(24, 24)};
        auto b = a;
        b.images = {test_image(24, 24, 91)};
        auto ra = engine_->read_slots(a, {});
        auto rb = engine_->read_slots(b, {});
        QVERIFY2(ra.ok(), ra.ok() ? "" : ra.error().message.c_str());
        QVERIFY(rb.ok());
        const auto la = slot_logprobs_of(*ra), lb = slot_logprobs_of(*rb);
        double d = 0;
        for (size_t i = 0; i < la.size(); ++i) d = std::max(d, std::fabs(double(la[i]) - lb[i]));
        QVERIFY2(d > 1e-3, qPrintable(QString("images differ but log-probs moved %1").arg(d)));
    }

    // The engine against the PyTorch reference with two images (24x24: 9 soft tokens; 32x16: 8).
    void reference_parity() {
        QProcess probe;
        probe.start(kPython, {"-c", "import torch, numpy"});
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0)
            QSKIP(
                "Debian's /usr/bin/python3 with python3-torch and python3-numpy is not installed");
        const auto& info = engine_->info();
        std::vector<TokenId> prompt = image_prompt(info, 9);
        const std::vector<TokenId> second = image_prompt(info, 8);
        prompt.insert(prompt.end(), second.begin() + 1, second.end());  // one bos
        auto request = slot_request(prompt);
        request.images = {test_image(24, 24), test_image(32, 16, 5)};
        auto engine_read = engine_->read_slots(request, {});
        QVERIFY2(engine_read.ok(), engine_read.ok() ? "" : engine_read.error().message.c_str());
        const auto ref = reference(request, tmp_, model_dir_);
        QCOMPARE(ref.size(), slot_logprobs_of(*engine_read).size());
        double d = 0;
        for (size_t i = 0; i < ref.size(); ++i)
            d = std::max(d, std::fabs(double(ref[i]) - slot_logprobs_of(*engine_read)[i]));
        qInfo("slot log-probs with two images: max |engine - reference| = %.3g", d);
        QVERIFY2(d <= kTolerance, qPrintable(QString("max abs difference %1").arg(d)));

        // One pixel changed on the engine's side must show in the same comparison.
        auto changed = request;
        changed.images[0].rgb[3 * (5 * 24 + 7)] ^= 0x80;
        auto off = engine_->read_slots(changed, {});
        QVERIFY(off.ok());
        double moved = 0;
        for (size_t i = 0; i < ref.size(); ++i)
            moved = std::max(moved, std::fabs(double(ref[i]) - slot_logprobs_of(*off)[i]));
        QVERIFY2(moved > kTolerance, qPrintable(QString("a changed pixel moved %1").arg(moved)));
    }
};

QTEST_GUILESS_MAIN(TestVision)
#include "tst_vision.moc"
