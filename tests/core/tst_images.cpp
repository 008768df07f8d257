// Images in a decision: PNG, JPEG and WebP recognised from their bytes and checked complete;
// anything else, a truncated file, an image past the limit or too many of them refused with a
// message naming the file and what is accepted; data: URIs and base64 both ways; an http URL
// fetched by the client; on the wire (the real dgem against a loopback server) the chat route
// carries image_url parts with data: URIs before the state text and /v1/systemone an "images"
// array, never the URL or the path; a bad image sends nothing; suites carry images per item;
// the tiny model's vision tower reads an image locally, and dgem serve answers the same for it
// (and fetches no URL itself).
// The engine and core headers come first: Qt's "slots" macro would rename CanvasRow::slots.
#include "core/decide/local_backend.h"
#include "core/evaluation/eval_suite.h"
#include "core/images/images.h"
#include "core/net/remote_backends.h"
#include "core/server/decision_server.h"
#include "engine/engine.h"

#include <algorithm>
#include <cstdio>

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "recording_server.h"
#include "test_files.h"

using json = nlohmann::json;

namespace {

std::string encoded(const QImage& image, const char* format) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format);
    return bytes.toStdString();
}

std::string encoded(const char* format) {
    QImage image(7, 5, QImage::Format_RGB888);
    image.fill(QColor(200, 40, 90));
    return encoded(image, format);
}

// A WebP container (RIFF header, one VP8L chunk): enough for the type and size checks.
std::string webp(uint32_t extra_size = 0) {
    std::string chunk = std::string("VP8L") + std::string("\x05\x00\x00\x00", 4) + "abcde" + '\0';
    std::string body = "WEBP" + chunk;
    const uint32_t riff = uint32_t(body.size()) + extra_size;
    std::string out = "RIFF";
    for (int i = 0; i < 4; ++i) out += char((riff >> (8 * i)) & 0xff);
    return out + body;
}

const QString kPolicy =
    QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");

}  // namespace

class TestImages : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<core::LocalBackend> tiny_;

    // The tiny model on the CPU, opened once for the tests that read images with it.
    std::shared_ptr<core::LocalBackend> tiny() {
        if (tiny_) return tiny_;
        engine::EngineOptions eo;
        eo.model_dir = DS_TINY_MODEL_DIR;
        eo.device = engine::Device::Cpu;
        auto opened = core::LocalBackend::open(eo);
        if (!opened.ok())
            qWarning("tiny model: %s", opened.error().message.c_str());
        else
            tiny_ = std::shared_ptr<core::LocalBackend>(std::move(opened.value()));
        return tiny_;
    }

    QString write(const QString& name, const std::string& bytes) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write(bytes.data(), qint64(bytes.size()));
        return path;
    }

    Run dgem(const QStringList& args) {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& k : e.keys())
            if (k.startsWith("DGEM_") || k.startsWith("GCP_")) e.remove(k);
        e.insert("HOME", dir_.path());
        e.insert("XDG_CONFIG_HOME", dir_.filePath("config"));
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        p.closeWriteChannel();
        if (!p.waitForFinished(300000)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

  private Q_SLOTS:
    void recognisesTheAcceptedTypes() {
        auto png = core::image_from_bytes(encoded("PNG"), "a.png");
        QVERIFY2(png, png ? "" : png.error().message.c_str());
        QCOMPARE(png->mime, std::string("image/png"));
        auto jpeg = core::image_from_bytes(encoded("JPEG"), "a.jpg");
        QVERIFY2(jpeg, jpeg ? "" : jpeg.error().message.c_str());
        QCOMPARE(jpeg->mime, std::string("image/jpeg"));
        auto w = core::image_from_bytes(webp(), "a.webp");
        QVERIFY2(w, w ? "" : w.error().message.c_str());
        QCOMPARE(w->mime, std::string("image/webp"));
        QCOMPARE(w->source, std::string("a.webp"));
    }

    void refusesWithAClearMessage_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        const std::string png = encoded("PNG");
        QTest::newRow("svg") << QByteArray("<?xml version=\"1.0\"?><svg xmlns=\"x\"></svg>")
                             << "an SVG drawing";
        QTest::newRow("gif") << QByteArray("GIF89a\x01\x00\x01\x00") << "a GIF image";
        QTest::newRow("text") << QByteArray("hello") << "not an image this reader knows";
        QTest::newRow("empty") << QByteArray() << "an empty file";
        QTest::newRow("truncated png")
            << QByteArray::fromStdString(png.substr(0, png.size() - 20))
            << "a truncated or damaged png (it does not end with the IEND chunk)";
        QTest::newRow("png header only")
            << QByteArray::fromStdString(png.substr(0, 12)) << "its header is cut short";
        const std::string jpeg = encoded("JPEG");
        QTest::newRow("truncated jpeg")
            << QByteArray::fromStdString(jpeg.substr(0, jpeg.size() / 2))
            << "a truncated or damaged jpeg";
        QTest::newRow("webp size") << QByteArray::fromStdString(webp(100)) << "its RIFF size says";
    }
    void refusesWithAClearMessage() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const QString path = write(QStringLiteral("bad.img"), bytes.toStdString());
        auto image = core::read_image_file(path.toStdString());
        QVERIFY(!image);
        const QString message = QString::fromStdString(image.error().message);
        QVERIFY2(message.startsWith(path + ": "), qPrintable(message));
        QVERIFY2(message.contains(says), qPrintable(message));
        QVERIFY2(message.contains("accepted: PNG, JPEG or WebP, at most 20 MiB each"),
                 qPrintable(message));
    }

    void limits() {
        // Past the size limit: refused before it is read.
        const QString big = dir_.filePath(QStringLiteral("big.png"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(core::kMaxImageBytes) + 1));
        }
        auto image = core::read_image_file(big.toStdString());
        QVERIFY(!image);
        QVERIFY(QString::fromStdString(image.error().message).contains("past the limit"));
        // More images than a decision takes.
        const QString one = write(QStringLiteral("one.png"), encoded("PNG"));
        std::vector<std::string> refs(core::kMaxImages + 1, one.toStdString());
        auto many = core::load_images(refs);
        QVERIFY(!many);
        QVERIFY(QString::fromStdString(many.error().message).startsWith("17 images; accepted"));
        refs.pop_back();
        QVERIFY(core::load_images(refs));
        // A missing file names itself.
        auto missing = core::load_image(dir_.filePath("absent.png").toStdString());
        QVERIFY(!missing);
        QVERIFY(QString::fromStdString(missing.error().message)
                    .endsWith("absent.png: no such image file"));
    }

    void base64AndDataUris() {
        const std::pair<const char*, const char*> vectors[] = {
            {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foobar", "Zm9vYmFy"}};
        for (const auto& [plain, coded] : vectors) {
            QCOMPARE(core::base64_encode(plain), std::string(coded));
            QCOMPARE(*core::base64_decode(coded), std::string(plain));
        }
        QVERIFY(!core::base64_decode("Zm9v!"));
        QVERIFY(!core::base64_decode("Zm9vY"));  // ends in the middle of a byte
        auto png = core::image_from_bytes(encoded("PNG"), "p.png");
        QVERIFY(png);
        const std::string uri = core::data_uri(*png);
        QVERIFY(uri.rfind("data:image/png;base64,", 0) == 0);
        auto back = core::image_from_data_uri(uri);
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(back->bytes, png->bytes);
        QCOMPARE(back->mime, png->mime);
        // A declared type that is not what the bytes are, and a URI that is not base64.
        auto lying =
            core::image_from_data_uri("data:image/jpeg;base64," + core::base64_encode(png->bytes));
        QVERIFY(!lying);
        QVERIFY(QString::fromStdString(lying.error().message).contains("holds image/png"));
        QVERIFY(!core::image_from_data_uri("data:image/svg+xml,<svg/>"));
    }

    void urlsAreFetchedHere() {
        RecordingServer images(404);
        const std::string png = encoded("PNG");
        images.serve("/frame.png", png, "image/png");
        auto fetched = core::load_image(images.url("/frame.png").toStdString());
        QVERIFY2(fetched, fetched ? "" : fetched.error().message.c_str());
        QCOMPARE(fetched->bytes, png);
        QCOMPARE(fetched->source, images.url("/frame.png").toStdString());
        auto gone = core::load_image(images.url("/gone.png").toStdString());
        QVERIFY(!gone);
        QVERIFY(QString::fromStdString(gone.error().message)
                    .startsWith(images.url("/gone.png") + ": HTTP 404"));
        // A server that does not answer at all (nothing listens on the port).
        int port = 0;
        {
            httplib::Server closed;
            port = closed.bind_to_any_port("127.0.0.1");
        }
        const std::string dead = "http://127.0.0.1:" + std::to_string(port) + "/x.png";
        auto silent = core::load_image(dead, 5);
        QVERIFY(!silent);
        QVERIFY2(QString::fromStdString(silent.error().message)
                     .startsWith(QString::fromStdString(dead) + ": did not answer"),
                 silent.error().message.c_str());
    }

    // The real dgem: images reach the server as data: URIs, in order, before the state text.
    void decideSendsDataUris() {
        RecordingServer server(400);
        RecordingServer pictures(404);
        const std::string png = encoded("PNG"), jpeg = encoded("JPEG");
        pictures.serve("/frame2.jpg", jpeg, "image/jpeg");
        const QString file = write(QStringLiteral("frame1.png"), png);
        const QString url = pictures.url("/frame2.jpg");
        const QStringList images{"-I", file, "--image", url};
        const Run chat =
            dgem(QStringList{"decide", "-u", server.url(), "--protocol", "chat", "-t", kPolicy} +
                 images);
        QVERIFY2(chat.code != 0, qPrintable(chat.err));  // the server answered 400
        QCOMPARE(server.bodies().size(), size_t(1));
        const json body = json::parse(server.bodies()[0]);
        const json& content = body["messages"][1]["content"];
        QVERIFY(content.is_array());
        QCOMPARE(content.size(), size_t(3));
        QCOMPARE(content[0]["type"], json("image_url"));
        QCOMPARE(content[0]["image_url"]["url"],
                 json("data:image/png;base64," + core::base64_encode(png)));
        QCOMPARE(content[1]["image_url"]["url"],
                 json("data:image/jpeg;base64," + core::base64_encode(jpeg)));
        QCOMPARE(content[2]["type"], json("text"));
        QVERIFY(json::parse(content[2]["text"].get<std::string>()).contains("ticket"));
        // Neither the path nor the URL is sent.
        QVERIFY(server.bodies()[0].find(file.toStdString()) == std::string::npos);
        QVERIFY(server.bodies()[0].find("frame2.jpg") == std::string::npos);

        server.clear();
        const Run one = dgem(
            QStringList{"decide", "-u", server.url(), "--protocol", "systemone", "-t", kPolicy} +
            images);
        QVERIFY(one.code != 0);
        QCOMPARE(server.bodies().size(), size_t(1));
        const json s1 = json::parse(server.bodies()[0]);
        QCOMPARE(s1["images"],
                 json::array({"data:image/png;base64," + core::base64_encode(png),
                              "data:image/jpeg;base64," + core::base64_encode(jpeg)}));
    }

    void badImageSendsNothing() {
        RecordingServer server(400);
        const QString svg = write(QStringLiteral("card.svg"), "<svg xmlns=\"x\"/>");
        const Run r =
            dgem({"decide", "-u", server.url(), "--protocol", "chat", "-t", kPolicy, "-I", svg});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(svg + ": an SVG drawing; accepted: PNG, JPEG or WebP"),
                 qPrintable(r.err));
        QVERIFY(server.bodies().empty());
    }

    // dgem's suites carry images per item ("images": [...] or "image"): paths relative to the
    // suite file, read when the suite loads; a bad one stops the load, naming the line.
    void suiteItemsCarryImages() {
        QTemporaryDir suite_dir;
        const std::string png = encoded("PNG"), jpeg = encoded("JPEG");
        QDir().mkpath(suite_dir.filePath("frames"));
        auto put = [&](const QString& name, const std::string& bytes) {
            QFile f(suite_dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes.data(), qint64(bytes.size()));
        };
        put("frames/a.png", png);
        put("frames/b.jpg", jpeg);
        put("frames/c.svg", "<svg xmlns=\"x\"/>");
        const std::string tmpl = kPolicy.toStdString();
        // (JSON built with nlohmann: moc's tokenizer does not read raw string literals.)
        const json a = {{"id", "a"},
                        {"template", tmpl},
                        {"images", json::array({"frames/a.png", "frames/b.jpg"})},
                        {"expected", {{"urgent", "yes"}}}};
        const json b = {{"id", "b"},
                        {"template", tmpl},
                        {"image", "frames/a.png"},
                        {"expected", {{"urgent", "no"}}}};
        put("suite.jsonl", a.dump() + "\n" + b.dump() + "\n");
        auto suite = core::eval::load_dgem_suite(suite_dir.filePath("suite.jsonl").toStdString());
        QVERIFY2(suite, suite ? "" : suite.error().message.c_str());
        QCOMPARE(suite->items.size(), size_t(2));
        QCOMPARE(suite->items[0].images.size(), size_t(2));
        QCOMPARE(suite->items[0].images[0].bytes, png);
        QCOMPARE(suite->items[0].images[1].mime, std::string("image/jpeg"));
        QCOMPARE(suite->items[1].images.size(), size_t(1));

        const json c = {{"id", "c"},
                        {"template", tmpl},
                        {"images", json::array({"frames/c.svg"})},
                        {"expected", {{"urgent", "yes"}}}};
        put("bad.jsonl", c.dump() + "\n");
        auto bad = core::eval::load_dgem_suite(suite_dir.filePath("bad.jsonl").toStdString());
        QVERIFY(!bad);
        const QString message = QString::fromStdString(bad.error().message);
        QVERIFY2(message.contains("bad.jsonl:1: field images: ") &&
                     message.contains("c.svg: an SVG drawing"),
                 qPrintable(message));
    }

    // The generative side of a comparison reads the images too: locally they open the user
    // turn (boi, 9 soft tokens, eoi for a 24x24 frame), and through `dgem serve` the chat
    // route's image_url parts reach the same engine: the same seed writes the same text.
    void generationsReadImages() {
        QImage picture(24, 24, QImage::Format_RGB888);
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 24; ++x) picture.setPixelColor(x, y, QColor(9 * x, 9 * y, 120));
        auto image = core::image_from_bytes(encoded(picture, "PNG"), "frame.png");
        QVERIFY(image);

        std::shared_ptr<core::LocalBackend> local = tiny();
        QVERIFY(local);
        core::GenerateRequest ask;
        ask.messages = {{"system", "Describe the picture."}, {"user", "What is in it?"}};
        ask.max_tokens = 8;
        ask.seed = 3;
        auto plain = local->generate(ask, {}, {});
        ask.images = {*image};
        auto seen = local->generate(ask, {}, {});
        QVERIFY2(plain.ok(), plain.ok() ? "" : plain.error().message.c_str());
        QVERIFY2(seen.ok(), seen.ok() ? "" : seen.error().message.c_str());
        QCOMPARE(seen->prompt_tokens, plain->prompt_tokens + 11);

        core::ServerOptions so;
        so.port = 0;
        core::DecisionServer server(local, so);
        QVERIFY(server.start().ok());
        core::RemoteOptions ro;
        ro.url = QStringLiteral("http://127.0.0.1:%1/v1").arg(server.port()).toStdString();
        auto remote = core::make_remote_backend(core::RemoteProtocol::Chat, ro, nullptr);
        QVERIFY2(remote.ok(), remote.ok() ? "" : remote.error().message.c_str());
        auto served = (*remote)->generate(ask, {}, {});
        QVERIFY2(served.ok(), served.ok() ? "" : served.error().message.c_str());
        QCOMPARE(served->text, seen->text);
        QCOMPARE(served->completion_tokens, seen->completion_tokens);

        // Images in a later user message are refused, saying where they go.
        httplib::Client client("127.0.0.1", server.port());
        const json part = {{"type", "image_url"}, {"image_url", {{"url", core::data_uri(*image)}}}};
        const json body = {
            {"messages", json::array({{{"role", "user"}, {"content", "hello"}},
                                      {{"role", "assistant"}, {"content", "hi"}},
                                      {{"role", "user"}, {"content", json::array({part})}}})},
            {"max_tokens", 4}};
        auto r = client.Post("/v1/chat/completions", body.dump(), "application/json");
        QVERIFY(r);
        QCOMPARE(r->status, 400);
        QVERIFY2(r->body.find("messages[2]: images are accepted in the first user message only") !=
                     std::string::npos,
                 r->body.c_str());
    }

    // MAX_MODEL_LEN counts an image's soft tokens: a decision that fits as text is refused
    // with its image, on the chat route (400) and on /v1/systemone (422), saying so.
    void modelLenCountsImages() {
        QImage picture(24, 24, QImage::Format_RGB888);  // 9 soft tokens on the tiny tower
        picture.fill(QColor(30, 160, 90));
        auto image = core::image_from_bytes(encoded(picture, "PNG"), "frame.png");
        QVERIFY(image);
        const std::string uri = core::data_uri(*image);

        std::shared_ptr<core::LocalBackend> backend = tiny();
        QVERIFY(backend);
        const std::string schema =
            R"({"questions":[{"id":"safe","type":"noul","instructions":"Is it safe?"}],"samples":1})";
        auto chat_body = [&](bool with_image) {
            json user = json::array();
            if (with_image) user.push_back({{"type", "image_url"}, {"image_url", {{"url", uri}}}});
            user.push_back({{"type", "text"}, {"text", R"({"site":"dock"})"}});
            return json{{"messages", json::array({{{"role", "system"}, {"content", schema}},
                                                  {{"role", "user"}, {"content", user}}})}}
                .dump();
        };
        auto serve = [&](int max_model_len) {
            core::ServerOptions so;
            so.port = 0;
            so.max_model_len = max_model_len;
            return std::make_unique<core::DecisionServer>(backend, so);
        };
        // What the text alone needs, from the server's own refusal at a limit of 1.
        int prompt = 0, canvas = 0;
        {
            auto server = serve(1);
            QVERIFY(server->start().ok());
            httplib::Client client("127.0.0.1", server->port());
            auto r = client.Post("/v1/chat/completions", chat_body(false), "application/json");
            QVERIFY(r);
            QCOMPARE(r->status, 400);
            QVERIFY2(
                std::sscanf(json::parse(r->body)["error"]["message"].get<std::string>().c_str(),
                            "prompt of %d tokens plus a canvas of %d", &prompt, &canvas) == 2,
                r->body.c_str());
        }
        auto server = serve(prompt + canvas + 5);  // room for the text, not for 2 + 9 more
        QVERIFY(server->start().ok());
        httplib::Client client("127.0.0.1", server->port());
        auto text = client.Post("/v1/chat/completions", chat_body(false), "application/json");
        QVERIFY(text);
        QCOMPARE(text->status, 200);
        auto seen = client.Post("/v1/chat/completions", chat_body(true), "application/json");
        QVERIFY(seen);
        QCOMPARE(seen->status, 400);
        const std::string want = "prompt of " + std::to_string(prompt + 11) +
                                 " tokens (1 image(s) included) plus a canvas of " +
                                 std::to_string(canvas) +
                                 " exceeds MAX_MODEL_LEN=" + std::to_string(prompt + canvas + 5);
        QVERIFY2(seen->body.find(want) != std::string::npos, seen->body.c_str());
        const json one = {
            {"questions", {{"safe", {{"type", "noul"}, {"instructions", "Is it safe?"}}}}},
            {"state", {{"site", "dock"}}},
            {"samples", 1},
            {"images", json::array({uri})}};
        auto s1 = client.Post("/v1/systemone", one.dump(), "application/json");
        QVERIFY(s1);
        QCOMPARE(s1->status, 422);
        QVERIFY2(s1->body.find("image(s) included") != std::string::npos, s1->body.c_str());
    }

    // dgem's image policies, in their shapes (templates/multimodal: options as a list of
    // {name, description}, a score's levels, samples "auto", labels "00" .. "100", printf,
    // several frames of a video): each plans without a model and decides on the tiny model with
    // its images; every answer is a distribution over the policy's own labels, the frames are
    // each placed in the prompt (boi, 9 soft tokens for a 24x24 frame, eoi), and a report of the
    // decision shows them.
    void multimodalPoliciesPlanAndDecide() {
        QStringList frames;
        for (int f = 0; f < 3; ++f) {
            QImage picture(24, 24, QImage::Format_RGB888);
            for (int y = 0; y < 24; ++y)
                for (int x = 0; x < 24; ++x)
                    picture.setPixelColor(x, y, QColor((40 * f + 9 * x) % 256, 7 * y, 60 * f));
            frames << dir_.filePath(QStringLiteral("dock%1.png").arg(f));
            QVERIFY(picture.save(frames.back(), "PNG"));
        }
        struct Case {
            const char* file;
            int frames;
            std::vector<std::pair<std::string, std::vector<std::string>>> questions;
        };
        const std::vector<std::string> deciles = {"00", "10", "20", "30", "40", "50",
                                                  "60", "70", "80", "90", "100"};
        const std::vector<Case> cases = {
            {"board_inspection",
             1,
             {{"flawed", {"yes", "no"}},
              {"flaw_kind", {"none", "bridge", "empty_pad", "lifted", "skewed"}},
              {"response", {"ship", "rework", "stop_the_line"}}}},
            {"box_edges", 1, {{"visible", {"yes", "no"}}, {"top", deciles}, {"left", deciles}}},
            {"dock_frames",
             3,
             {{"gear_worn", {"yes", "no"}},
              {"main_risk", {"none", "vehicle_near_people", "slippery_floor", "exit_blocked"}},
              {"severity", {"no_action", "mention_at_briefing", "stop_work_now"}}}},
        };
        const QStringList local{"--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu"};
        for (const auto& c : cases) {
            const QString policy =
                QStringLiteral(DS_SOURCE_DIR "/tests/data/policies/multimodal/%1.json.tmpl")
                    .arg(QString::fromLatin1(c.file));
            QStringList images;
            for (int f = 0; f < c.frames; ++f) images << "-I" << frames[f];
            const Run plan = dgem(QStringList{"plan", "-t", policy, "--json"} + images);
            QVERIFY2(plan.code == 0, qPrintable(plan.err));
            const json planned = json::parse(plan.out.toStdString());
            QCOMPARE(planned["slots"].size(), c.questions.size());
            QCOMPARE(planned["images"].get<int>(), c.frames);
            const QString report = dir_.filePath(QString::fromLatin1(c.file) + ".json");
            const Run run = dgem(QStringList{"decide"} + local +
                                 QStringList{"-t", policy, "-f", "json", "-o", report} + images);
            QVERIFY2(run.code == 0, qPrintable(run.err));
            const json out = json::parse(run.out.toStdString());
            for (const auto& [id, labels] : c.questions) {
                const json& probs = out["answers"][id]["probabilities"];
                QVERIFY2(probs.is_object() && !probs.empty(), id.c_str());
                double sum = 0;
                std::vector<std::string> names;
                for (const auto& [name, p] : probs.items()) {
                    sum += p.get<double>();
                    names.push_back(name);
                }
                QVERIFY2(std::abs(sum - 1) < 1e-6, id.c_str());
                auto want = labels;  // the answer is keyed by the policy's option names
                std::sort(want.begin(), want.end());
                std::sort(names.begin(), names.end());
                QCOMPARE(names, want);
            }
            // The frames are in the prompt: each adds boi, 9 soft tokens and eoi to the plan's.
            const int planned_prompt = static_cast<int>(planned["prompt_ids"].size());
            QCOMPARE(out["diagnostics"]["prompt_tokens"].get<int>(),
                     planned_prompt + 11 * c.frames);
            // The report shows every frame, in order.
            const json rep = json::parse(slurp(report));
            QCOMPARE(rep["images"].size(), size_t(c.frames));
            for (int f = 0; f < c.frames; ++f)
                QCOMPARE(rep["images"][f]["name"].get<std::string>(),
                         QFileInfo(frames[f]).fileName().toStdString());
        }
    }

    // The tiny model has a vision tower: an image changes the local read, and the same
    // decision through a real DecisionServer (the image sent as a data: URI on the chat route
    // and on /v1/systemone) answers the same.
    void localAndServedImageDecisions() {
        QImage picture(24, 24, QImage::Format_RGB888);  // 24x24: exactly the tiny tower's grid
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 24; ++x)
                picture.setPixelColor(x, y, QColor(10 * x, 200 - 8 * y, 90));
        const QString file = dir_.filePath(QStringLiteral("frame24.png"));
        QVERIFY(picture.save(file, "PNG"));
        const QStringList one{"-t",        kPolicy, "-v", "ticket=The export button does nothing",
                              "--samples", "1",     "-f", "json"};
        const QStringList local{"--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu"};
        const Run plain = dgem(QStringList{"decide"} + local + one);
        const Run seen = dgem(QStringList{"decide"} + local + one + QStringList{"-I", file});
        QVERIFY2(plain.code == 0 && seen.code == 0, qPrintable(seen.err));
        const json a = json::parse(plain.out.toStdString())["answers"];
        const json b = json::parse(seen.out.toStdString())["answers"];
        QVERIFY2(a != b, "the image changed nothing");

        std::shared_ptr<core::LocalBackend> backend = tiny();
        QVERIFY(backend);
        core::ServerOptions so;
        so.port = 0;
        core::DecisionServer server(backend, so);
        QVERIFY(server.start().ok());
        const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(server.port());
        for (const char* protocol : {"chat", "systemone"}) {
            const Run served = dgem(QStringList{"decide", "-u", url, "--protocol", protocol} + one +
                                    QStringList{"-I", file});
            QVERIFY2(served.code == 0, qPrintable(served.err));
            const json c = json::parse(served.out.toStdString())["answers"];
            for (const char* id : {"urgent", "team", "sentiment"})
                for (const auto& [name, p] : b[id]["probabilities"].items())
                    QVERIFY2(
                        std::abs(p.get<double>() - c[id]["probabilities"][name].get<double>()) <
                            1e-6,
                        qPrintable(
                            QString("%1 %2 %3").arg(protocol, id, QString::fromStdString(name))));
        }
        // An image URL is not fetched by the server: the client must send the bytes.
        httplib::Client client("127.0.0.1", server.port());
        const json body = {
            {"messages",
             json::array(
                 {{{"role", "system"},
                   {"content", "{\"questions\":[{\"id\":\"a\",\"type\":\"noul\"}]}"}},
                  {{"role", "user"},
                   {"content", json::array({{{"type", "image_url"},
                                             {"image_url", {{"url", "http://127.0.0.1:1/x.png"}}}},
                                            {{"type", "text"}, {"text", "{}"}}})}}})}};
        auto r = client.Post("/v1/chat/completions", body.dump(), "application/json");
        QVERIFY(r);
        QCOMPARE(r->status, 400);
        QVERIFY2(r->body.find("fetches no image URL") != std::string::npos, r->body.c_str());
    }
};

QTEST_MAIN(TestImages)
#include "tst_images.moc"
