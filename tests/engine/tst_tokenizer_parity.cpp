// Parity of engine::Tokenizer with the JavaScript tokenizer (@lenml/tokenizers, a port of
// transformers.js) on tests/data/tokenizer_corpus.jsonl (tests/data/make_tokenizer_corpus.py).
// Both read the same build/models/tokenizer/tokenizer.json; node runs tests/engine/js_tokenize.cjs
// without adding <bos> (ours never adds it). Any differing string fails the test; the first few
// are printed with both id sequences and where they diverge.

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/tokenizer.h"

using engine::TokenId;

namespace {

std::string show_ids(const std::vector<TokenId>& v, size_t from, size_t count) {
    std::string s = from > 0 ? "[..." : "[";
    for (size_t i = from; i < v.size() && i < from + count; ++i)
        s += (i > from ? "," : "") + std::to_string(v[i]);
    return s + (from + count < v.size() ? ",...]" : "]");
}

std::string show_text(const std::string& text) {
    std::string escaped =
        nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return escaped.size() > 160 ? escaped.substr(0, 157) + "..." : escaped;
}

}  // namespace

class TestTokenizerParity : public QObject {
    Q_OBJECT

  private slots:
    void matchesJavaScriptOnCorpus() {
        const QString corpus = QStringLiteral(DS_SOURCE_DIR "/tests/data/tokenizer_corpus.jsonl");
        const QString script = QStringLiteral(DS_SOURCE_DIR "/tests/engine/js_tokenize.cjs");
        const QString npm_dir = QStringLiteral(DS_BINARY_DIR "/_npm");
        const QString tokenizer_dir = QFileInfo(QStringLiteral(DS_TOKENIZER_JSON)).absolutePath();
        const QString node = QStandardPaths::findExecutable("node");
        QVERIFY2(!node.isEmpty(), "node not found on PATH (run scripts/setup-debian.sh)");
        QVERIFY2(QFileInfo::exists(npm_dir + "/node_modules/@lenml/tokenizers/package.json"),
                 qPrintable(npm_dir + "/node_modules/@lenml/tokenizers missing: run "
                                      "scripts/prepare-tokenizer.sh " DS_BINARY_DIR));

        auto loaded = engine::Tokenizer::load(DS_TOKENIZER_JSON);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        const engine::Tokenizer& tok = *loaded;

        std::vector<std::string> texts;
        {
            std::ifstream in(corpus.toStdString());
            QVERIFY2(in, qPrintable("cannot read " + corpus));
            std::string line;
            while (std::getline(in, line)) {
                if (line.empty()) continue;
                texts.push_back(nlohmann::json::parse(line).at("text").get<std::string>());
            }
        }
        QVERIFY2(texts.size() >= 2000, "the corpus should hold at least 2000 strings");

        QProcess js;
        js.setProcessChannelMode(QProcess::SeparateChannels);
        js.setStandardInputFile(corpus);
        js.start(node, {script, npm_dir, tokenizer_dir});
        QVERIFY2(js.waitForStarted(), "node did not start");
        QVERIFY2(js.waitForFinished(600000), "node did not finish within 10 minutes");
        const QByteArray err = js.readAllStandardError();
        QVERIFY2(js.exitStatus() == QProcess::NormalExit && js.exitCode() == 0,
                 qPrintable("js_tokenize.cjs failed: " + QString::fromUtf8(err)));
        const QList<QByteArray> lines = js.readAllStandardOutput().split('\n');

        size_t mismatches = 0, tokens = 0;
        std::string report;
        for (size_t i = 0; i < texts.size(); ++i) {
            QVERIFY2(i < static_cast<size_t>(lines.size()) && !lines[i].isEmpty(),
                     qPrintable(QString("node printed no ids for corpus line %1").arg(i + 1)));
            const auto expected =
                nlohmann::json::parse(lines[i].toStdString()).get<std::vector<TokenId>>();
            const auto got = tok.encode(texts[i]);
            tokens += expected.size();
            if (got == expected) continue;
            if (++mismatches > 5) continue;
            size_t at = 0;
            while (at < got.size() && at < expected.size() && got[at] == expected[at]) ++at;
            const size_t from = at > 3 ? at - 3 : 0;
            report += "\n  corpus line " + std::to_string(i + 1) + " " + show_text(texts[i]) +
                      "\n    first difference at token " + std::to_string(at) +
                      "\n    javascript: " + show_ids(expected, from, 12) +
                      "\n    ours:       " + show_ids(got, from, 12);
        }
        qInfo("compared %zu strings, %zu tokens, %zu mismatches", texts.size(), tokens, mismatches);
        // QTest truncates long failure messages, so the details go to the log first.
        if (mismatches > 0) qWarning("first mismatches:%s", report.c_str());
        QVERIFY2(mismatches == 0, qPrintable(QString("%1 of %2 strings tokenize differently "
                                                     "(details in the warning above)")
                                                 .arg(mismatches)
                                                 .arg(texts.size())));
    }
};

QTEST_GUILESS_MAIN(TestTokenizerParity)
#include "tst_tokenizer_parity.moc"
