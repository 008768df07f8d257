// Reports from real runs on the default model (the demo model where it is built, else the tiny
// model: the example reports show what a new user's first runs give) (a decision, a comparison, a
// JevBench run and a dgem suite run both ways), in every format: the JSON is the data; the HTML
// parses as XML and every number it shows equals the JSON's; the CSV parses back to the same
// numbers; the PDF's pages (pdftoppm) are not blank and its text (pdftotext) holds what the app
// shows. Also: tables breaking across pages repeat their header, page sizes, the atomic write under
// a simulated full disk, bad paths and formats, and the CLI's -o against `dgem serve` with known
// secrets that must appear in no report. Example reports go to build/reports/, their pages and an
// HTML screenshot (headless Chromium, where installed) to build/screenshots/.

#include <sys/resource.h>

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>

#include "core/comparison/compare.h"
#include "core/decide/local_backend.h"
#include "core/evaluation/eval_report.h"
#include "core/evaluation/eval_runner.h"
#include "core/images/images.h"
#include "core/policy/policy.h"
#include "core/reports/report.h"
#include "engine/engine.h"
#include "serve_process.h"

namespace rep = core::report;
namespace ev = core::eval;
using nlohmann::json;

#include "test_files.h"

namespace {

const std::string kJev = DS_SHARED_DIR "/data/jevbench";

Run run_program(const QString& program, const QStringList& args,
                const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                int timeout_ms = 600000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(QStringLiteral(DS_SOURCE_DIR));
    p.start(program, args);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeout_ms)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// RFC 4180 fields, rows ending in CRLF; the byte-order mark removed.
std::vector<std::vector<std::string>> parse_csv(std::string text) {
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false, was_quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty() && !was_quoted) {
            quoted = was_quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
            was_quoted = false;
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.back().push_back(field);
            field.clear();
            was_quoted = false;
            rows.emplace_back();
            ++i;
        } else {
            field += c;
        }
    }
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

// How an HTML report may refer to an image: inline, as a data: URI of an accepted type.
const std::string kInlineImage[] = {" src=\"data:image/png;base64,",
                                    " src=\"data:image/jpeg;base64,",
                                    " src=\"data:image/webp;base64,"};

// Every element of the HTML carrying data-ptr: pointer, data-value and its text. Fails the
// test (through `error`) when the document is not well-formed.
struct Marked {
    std::string ptr, value, text;
};
std::vector<Marked> marked_numbers(const std::string& html, QString& error) {
    std::vector<Marked> out;
    QXmlStreamReader xml(QByteArray::fromStdString(html));
    std::vector<std::pair<Marked, int>> open;  // element, depth
    int depth = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            ++depth;
            const auto attrs = xml.attributes();
            if (attrs.hasAttribute("data-ptr"))
                open.push_back({{attrs.value("data-ptr").toString().toStdString(),
                                 attrs.value("data-value").toString().toStdString(), ""},
                                depth});
        } else if (xml.isCharacters()) {
            for (auto& [m, d] : open) m.text += xml.text().toString().toStdString();
        } else if (xml.isEndElement()) {
            if (!open.empty() && open.back().second == depth) {
                out.push_back(open.back().first);
                open.pop_back();
            }
            --depth;
        }
    }
    if (xml.hasError())
        error = QStringLiteral("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
    return out;
}

// The HTML shows `shown` for the data's `value`: a percentage with one decimal, or the number
// rounded to the decimals shown.
bool shows(const std::string& shown_text, double value) {
    std::string shown = shown_text;
    const auto space = shown.find(' ');
    if (space != std::string::npos) shown = shown.substr(0, space);  // "61.1% (11 of 18 ...)"
    const bool pct = !shown.empty() && shown.back() == '%';
    if (pct) shown.pop_back();
    if (shown.rfind("\u00b1", 0) == 0) shown.erase(0, std::string("\u00b1").size());
    bool ok = false;
    const double v = QString::fromStdString(shown).toDouble(&ok);
    if (!ok) return false;
    const auto dot = shown.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(shown.size() - dot - 1);
    const double want = pct ? value * 100 : value;
    return std::abs(v - want) <= 0.5 * std::pow(10.0, -decimals) + 1e-9;
}

QString pdftotext(const QString& pdf, int first = 0, int last = 0) {
    QStringList args{"-layout"};
    if (first) args << "-f" << QString::number(first) << "-l" << QString::number(last);
    args << pdf << "-";
    return run_program("pdftotext", args).out;
}

int pdf_pages(const QString& pdf) {
    const QString info = run_program("pdfinfo", {pdf}).out;
    auto m = QRegularExpression("Pages:\\s+(\\d+)").match(info);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QString page_size_of(const QString& pdf) {
    auto m = QRegularExpression("Page size:\\s+([0-9.]+ x [0-9.]+)")
                 .match(run_program("pdfinfo", {pdf}).out);
    return m.hasMatch() ? m.captured(1) : QString();
}

// The text of every <text> element of an SVG, in document order (empty ones left out).
std::vector<std::string> svg_texts(const std::string& svg) {
    std::vector<std::string> out;
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text") {
            const QString text =
                xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            if (!text.isEmpty()) out.push_back(text.toStdString());
        }
    return out;
}

// Share of pixels that are not (near) white.
double ink(const QImage& img) {
    qint64 inked = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            if (qGray(img.pixel(x, y)) < 200) ++inked;
    return static_cast<double>(inked) / (img.width() / 2.0 * img.height() / 2.0);
}

core::Schema triage_schema(json& state) {
    auto policy =
        core::load_policy_file(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");
    auto rendered = core::render_policy(
        *policy, {{"ticket", "I was charged twice this month and nobody answers, fix it today."}});
    state = rendered->state;
    return *core::parse_schema(rendered->schema, "support_triage");
}

}  // namespace

class TestReports : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    std::shared_ptr<core::LocalBackend> backend_;
    core::Schema schema_;
    json state_;
    QString reports_ = QStringLiteral(DS_BINARY_DIR "/reports");
    QString shots_ = QStringLiteral(DS_BINARY_DIR "/screenshots");

    rep::Provenance provenance() const { return provenance_of(*backend_, DS_DEFAULT_MODEL_DIR); }
    // The provenance of a decision made by `backend` on the model in `model_dir`.
    static rep::Provenance provenance_of(const core::LocalBackend& backend, const char* model_dir) {
        return rep::make_provenance("tst_reports", backend.describe(),
                                    std::filesystem::path(model_dir).filename().string());
    }

    // Writes `report` in every format (into the temporary folder and build/reports/ as
    // `name.*`) and checks what holds for every report: returns the parsed JSON.
    json writeAndCheckAll(const rep::Report& report, const QString& name) {
        json data;
        for (auto f : {rep::Format::Json, rep::Format::Html, rep::Format::Csv, rep::Format::Pdf}) {
            const QString ext = QString::fromStdString(std::string(rep::to_string(f)));
            for (const QString& dir : {tmp_.path(), reports_}) {
                auto w = rep::write_report(report, (dir + "/" + name + "." + ext).toStdString(), f);
                if (!w) {
                    QTest::qFail(w.error().message.c_str(), __FILE__, __LINE__);
                    return data;
                }
            }
        }
        const QString base = tmp_.path() + "/" + name;
        data = json::parse(slurp(base + ".json"));
        [&] {
            QCOMPARE(data["report_version"], json(rep::kReportVersion));
            QCOMPARE(data["kind"], json(std::string(rep::to_string(report.kind))));
            QVERIFY(!data["created_at"].get<std::string>().empty());
            QVERIFY(!data["version"].get<std::string>().empty());
            QVERIFY(!data["endpoint"].get<std::string>().empty());

            // HTML: well-formed, self-contained, and its numbers are the JSON's.
            const std::string html = slurp(base + ".html");
            QString error;
            const auto marked = marked_numbers(html, error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY2(marked.size() >= 5, qPrintable(QString::number(marked.size())));
            for (const auto& m : marked) {
                const json& v = data.at(json::json_pointer(m.ptr));
                QVERIFY2(v.is_number(), m.ptr.c_str());
                QCOMPARE(std::stod(m.value), v.get<double>());
                QVERIFY2(shows(m.text, v.get<double>()),
                         (m.ptr + ": shows '" + m.text + "' for " + v.dump()).c_str());
            }
            QVERIFY(html.find("<script") == std::string::npos);
            // Self-contained: the only sources are the decision's images, inline as data: URIs.
            for (size_t at = html.find(" src="); at != std::string::npos;
                 at = html.find(" src=", at + 1))
                QVERIFY2(std::any_of(std::begin(kInlineImage), std::end(kInlineImage),
                                     [&](const std::string& p) {
                                         return html.compare(at, p.size(), p) == 0;
                                     }),
                         html.substr(at, 40).c_str());
            QVERIFY(html.find(" href=") == std::string::npos);
            QVERIFY(html.find("<svg") != std::string::npos);
            QVERIFY(html.find("prefers-color-scheme: dark") != std::string::npos);
            QVERIFY(html.find("@media print") != std::string::npos);

            // CSV: a header and one row per item and question, every row as wide.
            const auto rows = parse_csv(slurp(base + ".csv"));
            QVERIFY(rows.size() >= 2);
            QCOMPARE(rows[0], report.csv.columns);
            for (const auto& row : rows) QCOMPARE(row.size(), rows[0].size());
            QCOMPARE(rows.size() - 1, report.csv.rows.size());

            // PDF: pages with ink on each; the same count as the preview renders.
            const QString pdf = base + ".pdf";
            QVERIFY(slurp(pdf).rfind("%PDF-", 0) == 0);
            const int pages = pdf_pages(pdf);
            QVERIFY2(pages >= 1, "pdfinfo (poppler-utils) must read the PDF");
            QCOMPARE(static_cast<int>(rep::render_pages(report, rep::PageSize::A4, 40).size()),
                     pages);
            const QString prefix = tmp_.path() + "/" + name + "-page";
            auto ppm = run_program("pdftoppm", {"-r", "40", "-png", pdf, prefix});
            QCOMPARE(ppm.code, 0);
            for (int i = 1; i <= pages; ++i) {
                QString file = prefix + "-" + QString::number(i) + ".png";
                if (!QFile::exists(file))
                    file = prefix + QStringLiteral("-%1.png").arg(i, 2, 10, QLatin1Char('0'));
                QImage img(file);
                QVERIFY2(!img.isNull(), qPrintable(file));
                QVERIFY2(ink(img) > 0.005, qPrintable(file + " is blank"));
                if (i <= 2) {
                    QFile::remove(shots_ + "/report-" + name + "-" + QString::number(i) + ".png");
                    QFile::copy(file,
                                shots_ + "/report-" + name + "-" + QString::number(i) + ".png");
                }
            }
            const QString text = pdftotext(pdf);
            QVERIFY(text.contains(QString::fromStdString(report.title)));
            QVERIFY(text.contains(QStringLiteral("Page 1 of %1").arg(pages)));
            QVERIFY(text.contains(QString::fromStdString(data["version"].get<std::string>())));
        }();
        return data;
    }

    void screenshotHtml(const QString& name) {
        const QString chromium = QStandardPaths::findExecutable("chromium");
        if (chromium.isEmpty()) {
            qInfo("chromium not installed: no HTML screenshot of %s", qPrintable(name));
            return;
        }
        for (auto [scheme, flag] : {std::pair{"light", "--blink-settings=preferredColorScheme=1"},
                                    std::pair{"dark", "--blink-settings=preferredColorScheme=0"}}) {
            const QString out = shots_ + "/report-" + name + "-html-" + scheme + ".png";
            run_program(chromium,
                        {"--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         QString::fromLatin1(flag), "--screenshot=" + out,
                         "--window-size=1000,1400", "file://" + reports_ + "/" + name + ".html"},
                        QProcessEnvironment::systemEnvironment(), 120000);
        }
    }

    // A local backend on `model_dir`, two CPU threads.
    static auto open_on_cpu(const char* model_dir) {
        engine::EngineOptions options;
        options.model_dir = model_dir;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        return core::LocalBackend::open(options);
    }

    // The demo model writes its whole reply (the budget sized to the questions, 0); the random
    // tiny model never ends one, so a few tokens keep it short.
    static int generative_tokens() {
        return std::string_view(DS_DEFAULT_MODEL_DIR) == std::string_view(DS_DEMO_MODEL_DIR) ? 0
                                                                                             : 8;
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        QDir().mkpath(reports_);
        QDir().mkpath(shots_);
        for (const char* tool : {"pdftoppm", "pdftotext", "pdfinfo"})
            QVERIFY2(!QStandardPaths::findExecutable(tool).isEmpty(),
                     "poppler-utils is needed (scripts/setup-debian.sh installs it)");
        auto opened = open_on_cpu(DS_DEFAULT_MODEL_DIR);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        backend_ = std::shared_ptr<core::LocalBackend>(std::move(opened.value()));
        schema_ = triage_schema(state_);
        schema_.samples = core::Samples{false, 4};  // error bars need several reads
    }

    void decisionReport() {
        auto d = backend_->decide({schema_, state_, 11}, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        rep::DecisionInput in;
        in.policy = {"support_triage", ":/templates/support_triage.json.tmpl"};
        in.schema = schema_;
        in.variables = {
            {"ticket", "I was charged twice this month and nobody answers, fix it today."}};
        in.decision = *d;
        in.provenance = provenance();
        const rep::Report report = rep::decision_report(in);
        const json data = writeAndCheckAll(report, "decision");
        if (QTest::currentTestFailed()) return;

        // The data: every label's probability and standard error, as the decision has them.
        QCOMPARE(data["questions"].size(), d->questions.size());
        for (size_t i = 0; i < d->questions.size(); ++i) {
            const auto& q = d->questions[i];
            const json& jq = data["questions"][i];
            QCOMPARE(jq["probabilities"].get<std::vector<double>>(), q.mean);
            const auto se = jq["stderr"].get<std::vector<double>>();
            QCOMPARE(se.size(), q.labels.size());
            QCOMPARE(se, q.stderr_labels);
            if (q.stderr_winner) QVERIFY(std::abs(se[q.winner] - *q.stderr_winner) < 1e-9);
            QCOMPARE(jq["draws"].size(), size_t(4));
        }
        QCOMPARE(data["canvas"]["width"].get<int>(), d->canvas_width);
        QVERIFY(data["canvas"]["width"].get<int>() > 0);
        QCOMPARE(data["variables"]["ticket"].get<std::string>().substr(0, 10),
                 std::string("I was char"));

        // The CSV parses back to the same numbers.
        const auto rows = parse_csv(slurp(tmp_.filePath("decision.csv")));
        const auto col = [&](const std::string& name) {
            return std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin();
        };
        QCOMPARE(rows.size(), d->questions.size() + 1);
        for (size_t i = 0; i < d->questions.size(); ++i) {
            const auto& q = d->questions[i];
            QCOMPARE(rows[i + 1][col("question")], q.id);
            QCOMPARE(std::stod(rows[i + 1][col("probability")]), q.mean[q.winner]);
            QCOMPARE(std::stod(rows[i + 1][col("entropy")]), q.entropy);
            QCOMPARE(rows[i + 1][col("reads")], std::string("4"));
        }

        // The PDF says what the cards say: each question's winning probability as shown.
        const QString text = pdftotext(tmp_.filePath("decision.pdf"));
        for (const auto& q : d->questions) {
            QVERIFY2(text.contains(QString::fromStdString(rep::percent(q.confidence))),
                     qPrintable(QString::fromStdString(q.id + " " + rep::percent(q.confidence))));
            QVERIFY(text.contains(QString::fromStdString(q.id)));
        }
        QVERIFY(text.contains(QStringLiteral("Noise draws")));
        QVERIFY(text.contains(QStringLiteral("Canvas width")));
        screenshotHtml("decision");

        // The same decision again finds its prompt in the engine's prefix cache: the report's
        // run facts say how many prompt tokens it took from there, and the data holds the count.
        auto again = backend_->decide({schema_, state_, 11}, {}, {});
        QVERIFY(again.ok());
        QCOMPARE(again->cached_prompt_tokens, again->prompt_tokens);
        in.decision = *again;
        const rep::Report cached = rep::decision_report(in);
        QCOMPARE(cached.data["canvas"]["cached_prompt_tokens"].get<int>(), again->prompt_tokens);
        bool shown = false;
        for (const auto& section : cached.sections)
            for (const auto& fact : section.facts)
                if (fact.name == "Prompt tokens cached") {
                    QCOMPARE(fact.value, std::to_string(again->prompt_tokens));
                    QCOMPARE(fact.ptr, std::string("/canvas/cached_prompt_tokens"));
                    shown = true;
                }
        QVERIFY(shown);
    }

    // A decision about images: the report shows each one (HTML inline, PDF painted), lists its
    // facts in the data, and names a file by its name and a URL without its credentials.
    void decisionReportWithImages() {
        auto png = [](QColor colour, int w, int h) {
            QImage image(w, h, QImage::Format_RGB888);
            image.fill(colour);
            QByteArray bytes;
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            image.save(&buffer, "PNG");
            return bytes.toStdString();
        };
        auto red = core::image_from_bytes(png(QColor(255, 0, 0), 48, 32),
                                          "/home/someone/xq7private/red.png");
        auto blue =
            core::image_from_bytes(png(QColor(0, 0, 255), 24, 24),
                                   "https://user:hunter2@img.example/frames/b.png?sig=s3cr3t#x");
        QVERIFY(red && blue);
        core::DecideRequest request{schema_, state_, 11};
        request.images = {*red, *blue};
        // The demo model reads text only: images go to the tiny model, whose vision tower is
        // random but real.
        auto vision = open_on_cpu(DS_TINY_MODEL_DIR);
        QVERIFY2(vision.ok(), vision.ok() ? "" : vision.error().message.c_str());
        auto d = (*vision)->decide(request, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        rep::DecisionInput in;
        in.policy = {"support_triage", ":/templates/support_triage.json.tmpl"};
        in.schema = schema_;
        in.decision = *d;
        in.provenance = provenance_of(**vision, DS_TINY_MODEL_DIR);
        in.images = request.images;
        const rep::Report report = rep::decision_report(in);
        const json data = writeAndCheckAll(report, "decision-images");
        if (QTest::currentTestFailed()) return;

        QCOMPARE(data["images"].size(), size_t(2));
        QCOMPARE(data["images"][0]["name"], json("red.png"));
        QCOMPARE(data["images"][1]["name"], json("https://img.example/frames/b.png"));
        QCOMPARE(data["images"][0]["width"], json(48));
        QCOMPARE(data["images"][0]["height"], json(32));
        QCOMPARE(data["images"][1]["mime"], json("image/png"));
        QCOMPARE(data["images"][0]["bytes"], json(red->bytes.size()));
        QCOMPARE(data["images"][0]["sha256"], json(ev::sha256_hex(red->bytes)));

        const std::string html = slurp(tmp_.filePath("decision-images.html"));
        for (const auto& img : request.images)
            QVERIFY(html.find("src=\"data:image/png;base64," + core::base64_encode(img.bytes) +
                              "\"") != std::string::npos);
        for (const char* ext : {"json", "html", "csv"}) {
            const std::string text = slurp(tmp_.filePath(QStringLiteral("decision-images.") + ext));
            for (const char* secret : {"hunter2", "s3cr3t", "xq7private"})
                QVERIFY2(text.find(secret) == std::string::npos, ext);
        }
        QVERIFY(
            !pdftotext(tmp_.filePath("decision-images.pdf")).contains(QStringLiteral("hunter2")));

        // The PDF paints the pictures: its first page has the red image's pixels, and both
        // colours appear on the pages the preview renders.
        const auto pages = rep::render_pages(report, rep::PageSize::A4, 72);
        auto has = [&](QColor want) {
            for (const QImage& page : pages)
                for (int y = 0; y < page.height(); y += 2)
                    for (int x = 0; x < page.width(); x += 2)
                        if (page.pixelColor(x, y) == want) return true;
            return false;
        };
        QVERIFY(has(QColor(255, 0, 0)));
        QVERIFY(has(QColor(0, 0, 255)));
        screenshotHtml("decision-images");
    }

    void comparisonReport() {
        core::compare::CompareOptions options;
        options.max_tokens = generative_tokens();
        const auto c =
            core::compare::run_comparison(*backend_, {schema_, state_, 5}, options, {}, {});
        QVERIFY2(c.slot.has_value(), c.slot_error.c_str());
        rep::ComparisonInput in;
        in.policy = {"support_triage", ":/templates/support_triage.json.tmpl"};
        in.schema = schema_;
        in.comparison = c;
        in.provenance = provenance();
        const rep::Report report = rep::comparison_report(in);
        const json data = writeAndCheckAll(report, "comparison");
        if (QTest::currentTestFailed()) return;
        QCOMPARE(data["comparison"]["questions"].size(), size_t(3));
        const auto rows = parse_csv(slurp(tmp_.filePath("comparison.csv")));
        QCOMPARE(rows.size(), size_t(4));
        const QString text = pdftotext(tmp_.filePath("comparison.pdf"));
        QVERIFY(text.contains(QStringLiteral("Generative passes")));
        for (size_t i = 0; i < c.questions.size(); ++i) {
            QCOMPARE(std::stod(rows[i + 1][4]), c.questions[i].slot_probability);
            QVERIFY(text.contains(
                QString::fromStdString(rep::percent(c.questions[i].slot_probability))));
        }
        // Validity with its reasons (the tiny model's reply is not JSON; the demo model's is).
        if (!c.generative.valid) {
            QVERIFY(!c.generative.reasons.empty());
            QVERIFY(text.contains(QStringLiteral("Why invalid")) ||
                    text.contains(QStringLiteral("Generative error")));
        }
    }

    void jevBenchReport() {
        auto suite = ev::load_jevbench(kJev + "/jevbench_public.jsonl");
        QVERIFY(suite.ok());
        ev::SuiteFilter filter;
        filter.limit = 8;
        ev::apply_filter(*suite, filter);
        ev::RunSettings settings;
        settings.workers = 2;
        auto result = ev::EvalRunner(backend_, settings).run(*suite, {}, {});
        QVERIFY(result.ok());
        ev::RunScoreOptions so;
        so.cost_estimate = true;
        const ev::RunScore score = ev::score_run(ev::scored_items(*suite, result->records), so);
        auto board = ev::load_leaderboard(kJev + "/leaderboard_v14.json");
        QVERIFY(board.ok());
        rep::BenchInput in;
        in.suite = *suite;
        in.records = result->records;
        in.settings = {{"workers", 2}, {"mode", "slot"}};
        in.wall_s = result->wall_s;
        in.run_score = score;
        in.leaderboard = *board;
        in.provenance = provenance();
        const rep::Report report = rep::bench_report(in);
        const json data = writeAndCheckAll(report, "jevbench");
        if (QTest::currentTestFailed()) return;
        QCOMPARE(data["dataset"]["sha256"].get<std::string>(), suite->sha256);
        QCOMPARE(data["items"].size(), size_t(8));
        QVERIFY(data["leaderboard"]["rows"].size() > 3);
        QCOMPARE(data["score"]["accuracy"].get<double>(), score.accuracy);

        const QString text = pdftotext(tmp_.filePath("jevbench.pdf"));
        for (const char* word :
             {"Scorecard", "Intelligence", "Calibration", "Speed", "Cost", "Composite", "estimate",
              "Leaderboard", "Reliability", "Accuracy by tier", "Accuracy by family", "Latency"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
        QVERIFY(text.contains(QString::fromStdString(rep::percent(score.accuracy))));
        QVERIFY(text.contains(QString::fromStdString(suite->sha256)));

        // CSV rows: one per item, the probability of the prediction as the JSON has it.
        const auto rows = parse_csv(slurp(tmp_.filePath("jevbench.csv")));
        QCOMPARE(rows.size(), size_t(9));
        const auto col = [&](const std::string& name) {
            return std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin();
        };
        for (size_t i = 0; i < 8; ++i) {
            const json& it = data["items"][i];
            QCOMPARE(rows[i + 1][col("item")], it["id"].get<std::string>());
            if (!it["probs"].is_object()) continue;
            const std::string predicted = it["predicted"].get<std::string>();
            QCOMPARE(std::stod(rows[i + 1][col("probability")]),
                     it["probs"][predicted].get<double>());
        }
        screenshotHtml("jevbench");
    }

    void suiteComparisonReport() {
        auto suite = ev::load_dgem_suite(DS_SOURCE_DIR "/resources/suites/policies.jsonl");
        QVERIFY2(suite.ok(), suite.ok() ? "" : suite.error().message.c_str());
        ev::SuiteFilter filter;
        filter.limit = 2;
        ev::apply_filter(*suite, filter);
        ev::RunSettings settings;
        settings.mode = ev::RunMode::Both;
        settings.generative_max_tokens = generative_tokens();
        settings.samples = core::Samples{false, 1};
        auto result = ev::EvalRunner(backend_, settings).run(*suite, {}, {});
        QVERIFY(result.ok());
        rep::BenchInput in;
        in.suite = *suite;
        in.records = result->records;
        in.settings = {{"mode", "both"}};
        in.suite_score = ev::score_suite(*suite, result->records);
        in.with_comparison = true;
        in.provenance = provenance();
        const rep::Report report = rep::bench_report(in);
        const json data = writeAndCheckAll(report, "suite-comparison");
        if (QTest::currentTestFailed()) return;
        QCOMPARE(data["comparison"]["items"], json(2));
        QCOMPARE(data["comparison_items"].size(), size_t(2));
        const auto rows = parse_csv(slurp(tmp_.filePath("suite-comparison.csv")));
        QVERIFY(std::find(rows[0].begin(), rows[0].end(), "generative_valid") != rows[0].end());
        const QString text = pdftotext(tmp_.filePath("suite-comparison.pdf"));
        for (const char* word : {"Slot vs generative", "Latency per item", "Accuracy of each mode",
                                 "Generative validity"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
    }

    // A long table continues on the next pages under its header; A4 and Letter.
    void pagesAndTables() {
        rep::Report r;
        r.title = "Long table";
        r.provenance = provenance();
        r.data = {{"report_version", 1}};
        rep::Section s;
        s.title = "Rows";
        rep::Table t;
        t.columns = {"Item id", "Tier", "Confidence column"};
        for (int i = 0; i < 250; ++i)
            t.rows.push_back({"row-" + std::to_string(i), "hard", std::to_string(i) + ".5"});
        s.tables.push_back(t);
        r.sections.push_back(s);
        for (auto [size, points] :
             {std::pair{rep::PageSize::A4, QStringLiteral("595")},
              std::pair{rep::PageSize::Letter, QStringLiteral("612 x 792")}}) {
            const QString pdf = tmp_.filePath("long.pdf");
            QVERIFY(rep::write_report(r, pdf.toStdString(), rep::Format::Pdf, size).ok());
            QVERIFY2(page_size_of(pdf).startsWith(points), qPrintable(page_size_of(pdf)));
            const int pages = pdf_pages(pdf);
            QVERIFY(pages >= 3);
            for (int p = 2; p <= pages; ++p) {
                const QString text = pdftotext(pdf, p, p);
                QVERIFY2(text.contains(QStringLiteral("Confidence column")),
                         qPrintable(text.left(300)));
                QVERIFY(text.contains(QStringLiteral("Page %1 of %2").arg(p).arg(pages)));
            }
            QVERIFY(pdftotext(pdf).contains(QStringLiteral("row-249")));
        }
    }

    // A chart without data says so where its axes would be, in the HTML's SVG and in the PDF
    // alike: its title and that line, no tick labels, no axis titles. Reports paint their charts
    // as the Studio's views show them (charts::render_chart, Qt Charts), so the same chart with
    // data has its axes' ticks and titles. The same report renders to the same bytes.
    void chartWithoutDataSaysSo() {
        const std::string no_data(rep::kNoDataText);
        QCOMPARE(svg_texts(rep::chart_svg(rep::latency_chart({}), 900, 300)),
                 (std::vector<std::string>{"Latency", no_data}));
        QCOMPARE(svg_texts(rep::chart_svg(rep::accuracy_chart({}, "Accuracy by tier"), 900, 300)),
                 (std::vector<std::string>{"Accuracy by tier", no_data}));
        const auto full =
            svg_texts(rep::chart_svg(rep::latency_chart({0.010, 0.012, 0.020}), 900, 300));
        for (const char* want : {"Latency", "milliseconds", "items", "p50 12.0 ms"})
            QVERIFY2(std::find(full.begin(), full.end(), want) != full.end(), want);
        QVERIFY2(full.size() >= 12, qPrintable(QString::number(full.size())));  // and the ticks
        QVERIFY(std::find(full.begin(), full.end(), no_data) == full.end());

        rep::Report r;
        r.title = "Empty charts";
        r.provenance = provenance();
        r.data = {{"report_version", 1}};
        rep::Section s;
        s.title = "Charts";
        s.charts = {rep::latency_chart({}), rep::accuracy_chart({}, "Accuracy by tier")};
        r.sections.push_back(s);
        const QString html = tmp_.filePath("empty-charts.html"), pdf = tmp_.filePath("empty.pdf");
        QVERIFY(rep::write_report(r, html.toStdString(), rep::Format::Html).ok());
        QVERIFY(rep::write_report(r, pdf.toStdString(), rep::Format::Pdf).ok());
        QCOMPARE(QString::fromStdString(slurp(html)).count(QString::fromStdString(no_data)), 2);
        const QString text = pdftotext(pdf);
        QCOMPARE(text.count(QString::fromStdString(no_data)), 2);
        QVERIFY2(!text.contains(QStringLiteral("milliseconds")), qPrintable(text));
        QCOMPARE(rep::to_html(r), slurp(html));
        // The PDF too, but for the time it was written.
        const auto undated = [](std::string bytes) {
            const size_t at = bytes.find("/CreationDate (");
            if (at != std::string::npos) bytes.erase(at, bytes.find(')', at) + 1 - at);
            return bytes;
        };
        const auto again = rep::to_pdf(r, rep::PageSize::A4);
        QVERIFY(again.ok());
        QCOMPARE(undated(*again), undated(slurp(pdf)));
    }

    void badPathsAndFormats() {
        auto f = rep::format_for_path("/tmp/out/report.docx", std::nullopt);
        QVERIFY(!f.ok());
        QVERIFY(f.error().message.find("/tmp/out/report.docx") != std::string::npos);
        QVERIFY(f.error().message.find("pdf") != std::string::npos);
        QVERIFY(!rep::format_for_path("report", std::nullopt).ok());
        QCOMPARE(*rep::format_for_path("x.HTM", std::nullopt), rep::Format::Html);
        QCOMPARE(*rep::format_for_path("x.txt", std::string("csv")), rep::Format::Csv);
        QVERIFY(!rep::format_for_path("x.pdf", std::string("docx")).ok());

        // A folder that cannot exist (under a regular file): the path named, nothing written.
        const QString file = tmp_.filePath("plain-file");
        QFile(file).open(QIODevice::WriteOnly);
        rep::Report r;
        r.title = "x";
        r.data = {{"report_version", 1}};
        const std::string bad = (file + "/sub/report.json").toStdString();
        auto w = rep::write_report(r, bad, rep::Format::Json);
        QVERIFY(!w.ok());
        QVERIFY(w.error().message.find(bad) != std::string::npos);
    }

    // A full disk (RLIMIT_FSIZE) mid-write: the existing file keeps its content, no temporary
    // file is left beside it.
    void atomicWriteUnderFailure() {
        QTemporaryDir dir;
        const QString path = dir.filePath("report.html");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous report");
        }
        rep::Report r;
        r.title = "Big";
        r.provenance = provenance();
        r.data = {{"report_version", 1}};
        rep::Section s;
        s.title = "Text";
        s.text = std::string(200000, 'x');
        r.sections.push_back(s);

        std::signal(SIGXFSZ, SIG_IGN);
        rlimit old{};
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit small = old;
        small.rlim_cur = 4096;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        auto w = rep::write_report(r, path.toStdString(), rep::Format::Html);
        setrlimit(RLIMIT_FSIZE, &old);
        QVERIFY(!w.ok());
        QVERIFY(w.error().message.find(path.toStdString()) != std::string::npos);
        QCOMPARE(slurp(path), std::string("the previous report"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"report.html"});
        // And with room, the new one replaces it whole.
        QVERIFY(rep::write_report(r, path.toStdString(), rep::Format::Html).ok());
        QVERIFY(slurp(path).find("</html>") != std::string::npos);
    }

    // The CLI's -o for each command against `dgem serve` with a bearer token and a server key:
    // neither appears in any report (the PDF's text included) or in the programs' output.
    void cliReportsCarryNoSecrets() {
        const QString token = QStringLiteral("tok-Secret-7f3a9c1e55");
        const QString key = QStringLiteral("key-Secret-b81d0a4c22");
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* k : {"DGEM_URL", "DGEM_TOKEN", "DGEM_SERVER_KEY", "API_KEY"})
            env.remove(k);
        // As on a server: no display and no Qt platform named. dgem draws the reports' charts
        // (Qt Charts) offscreen by itself.
        for (const char* k : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) env.remove(k);
        env.insert("HOME", home.path());
        env.insert("XDG_CONFIG_HOME", home.path() + "/.config");
        QProcessEnvironment server_env = env;
        server_env.insert("API_KEY", token);
        server_env.insert("DGEM_SERVER_KEY", key);
        server_env.insert("GENERATION_TIMEOUT_S", "86400");
        QProcess serve;
        const QString port = start_dgem_serve(serve, server_env);
        QVERIFY2(!port.isEmpty(), "dgem serve did not start");
        const QString url = "http://127.0.0.1:" + port + "/v1";
        env.insert("DGEM_TOKEN", token);
        env.insert("DGEM_SERVER_KEY", key);
        const QString dgem = QStringLiteral(DS_BIN_DIR "/dgem");
        const QStringList policy{
            "-t",         DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl",
            "-v",         "ticket=Refund me twice",
            "-u",         url,
            "--protocol", "chat"};
        QStringList files;
        QString outputs;
        auto check = [&](QStringList args, const QString& out) {
            args << "-o" << out;
            const Run r = run_program(dgem, args, env);
            outputs += r.out + r.err;
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.err.contains("report written to " + out), qPrintable(r.err));
            files << out;
        };
        for (const char* ext : {"html", "pdf", "csv", "json"})
            check(QStringList{"decide"} + policy + QStringList{"--samples", "2"},
                  home.filePath(QStringLiteral("decide.%1").arg(QLatin1String(ext))));
        if (QTest::currentTestFailed()) return;
        check(QStringList{"compare"} + policy + QStringList{"--max-tokens", "8"},
              home.filePath("compare.pdf"));
        check({"bench-jev", "-d", QString::fromStdString(kJev + "/jevbench_public.jsonl"), "-n",
               "3", "-u", url, "--protocol", "chat", "--compare-leaderboard"},
              home.filePath("bench.html"));
        check({"bench", "-d", DS_SOURCE_DIR "/resources/suites/policies.jsonl", "-n", "2", "-u",
               url, "--protocol", "chat", "--report-format", "csv"},
              home.filePath("bench.txt"));
        if (QTest::currentTestFailed()) return;

        // The format follows --report-format over the extension; each report names the endpoint.
        QVERIFY(slurp(home.filePath("bench.txt")).rfind("\xEF\xBB\xBFitem,", 0) == 0);
        const json decided = json::parse(slurp(home.filePath("decide.json")));
        QVERIFY(decided["endpoint"].get<std::string>().find("127.0.0.1") != std::string::npos);
        for (const QString& f : files) {
            std::string text = slurp(f);
            if (f.endsWith(".pdf")) text += pdftotext(f).toStdString();
            QVERIFY2(text.find(token.toStdString()) == std::string::npos, qPrintable(f));
            QVERIFY2(text.find(key.toStdString()) == std::string::npos, qPrintable(f));
            QVERIFY2(text.find("Secret") == std::string::npos, qPrintable(f));
        }
        QVERIFY(!outputs.contains(QStringLiteral("Secret")));
        // The bench report's charts are there (reliability, latency, accuracy, leaderboard...).
        const QString bench_html = QString::fromStdString(slurp(home.filePath("bench.html")));
        QVERIFY2(bench_html.count(QStringLiteral("<svg")) >= 5,
                 qPrintable(QString::number(bench_html.count(QStringLiteral("<svg")))));
        QVERIFY(bench_html.contains(QStringLiteral(">Leaderboard (JevBench")));

        // A bad -o fails before any work, naming the path and the accepted formats.
        const Run bad =
            run_program(dgem, QStringList{"decide"} + policy + QStringList{"-o", "x.docx"}, env);
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("x.docx") && bad.err.contains("pdf"), qPrintable(bad.err));
        serve.terminate();
        serve.waitForFinished(30000);
    }
};

QTEST_MAIN(TestReports)
#include "tst_reports.moc"
