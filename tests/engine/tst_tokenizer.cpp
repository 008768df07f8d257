// engine::Tokenizer on the real Gemma 4 tokenizer.json (build/models/tokenizer, written by
// scripts/prepare-tokenizer.sh): the MODEL-SPEC prompt vector, decoding, byte fallback, added
// tokens inside text, errors, concurrent use, and parity with the JavaScript tokenizer.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <thread>

#include "engine/tokenizer.h"

using engine::TokenId;
using engine::Tokenizer;

namespace {

std::vector<TokenId> ids(std::initializer_list<TokenId> list) {
    return list;
}

QString show(const std::vector<TokenId>& v) {
    QStringList parts;
    for (TokenId id : v) parts << QString::number(id);
    return "[" + parts.join(',') + "]";
}

}  // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

  private:
    std::optional<Tokenizer> tok_;
    const Tokenizer& tok() const { return *tok_; }

  private slots:
    void initTestCase() {
        auto loaded = Tokenizer::load(DS_TOKENIZER_JSON);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        tok_.emplace(std::move(loaded).value());
    }

    void vocabulary() {
        QCOMPARE(tok().vocab_size(), 262144);
        QCOMPARE(tok().piece(engine::tokens::kBos), std::string("<bos>"));
        QCOMPARE(tok().piece(engine::tokens::kTurnOpen), std::string("<|turn>"));
        QCOMPARE(tok().piece(engine::tokens::kTurnClose), std::string("<turn|>"));
        QCOMPARE(tok().piece(engine::tokens::kChannelOpen), std::string("<|channel>"));
        QCOMPARE(tok().piece(engine::tokens::kChannelClose), std::string("<channel|>"));
        QCOMPARE(tok().piece(engine::tokens::kThink), std::string("<|think|>"));
        QCOMPARE(tok().piece(engine::tokens::kToolResponse), std::string("<|tool_response>"));
        QCOMPARE(tok().piece(engine::tokens::kNewline), std::string("\n"));
        QCOMPARE(tok().piece(0x41 + 238), std::string("<0x41>"));  // byte tokens start at 238
        QCOMPARE(tok().find("<|turn>"), std::optional<TokenId>(105));
        QCOMPARE(tok().find("\xE2\x96\x81the"), std::optional<TokenId>(506));
        QVERIFY(!tok().find("no such piece at all").has_value());
        QVERIFY(tok().is_special(engine::tokens::kBos));
        QVERIFY(tok().is_special(engine::tokens::kChannelOpen));
        QVERIFY(!tok().is_special(engine::tokens::kNewline));
        QVERIFY(!tok().is_special(506));
        QCOMPARE(tok().piece(-1), std::string());
        QCOMPARE(tok().piece(262144), std::string());
        QVERIFY(!tok().is_special(1 << 30));
    }

    void promptVector() {
        // MODEL-SPEC section 6, the chat prompt with thinking off.
        const std::string prompt =
            "<bos><|turn>user\nWhy is the sky "
            "blue?<turn|>\n<|turn>model\n<|channel>thought\n<channel|>";
        const auto expected = ids({2, 105, 2364, 107, 11355, 563, 506, 7217, 3730, 236881, 106, 107,
                                   105, 4368, 107, 100, 45518, 107, 101});
        const auto got = tok().encode(prompt);
        QVERIFY2(got == expected, qPrintable("got " + show(got)));
        QCOMPARE(tok().decode(got), prompt);
        QCOMPARE(tok().decode(got, /*skip_special=*/true),
                 std::string("user\nWhy is the sky blue?\nmodel\nthought\n"));
    }

    void neverAddsBos() {
        QCOMPARE(tok().encode("Hello"), ids({9259}));
        QVERIFY(tok().encode("").empty());
    }

    void spacesAndWhitespace() {
        // No prefix space; spaces become U+2581 and merge with what follows.
        QCOMPARE(tok().encode(" Hello"), ids({26352}));
        QCOMPARE(tok().encode("Hello  world"), ids({9259, 138, 12392}));
        QCOMPARE(tok().encode("\t\t"), ids({255969}));  // an added token
        QCOMPARE(tok().encode("a\n\n\nb"), ids({236746, 109, 236763}));
        for (const std::string s : {" ", "  ", "   x", "x   ", "\t \t", "\r\n", "\n \n"})
            QCOMPARE(tok().decode(tok().encode(s)), s);
    }

    void byteFallback() {
        // A control character and a private-use character have no vocabulary entry: bytes.
        QCOMPARE(tok().encode(std::string("\x07", 1)), ids({238 + 7}));  // BEL
        const std::string pua = "\xF3\xB0\x80\x80";                      // U+F0000
        QCOMPARE(tok().encode(pua), ids({238 + 0xF3, 238 + 0xB0, 238 + 0x80, 238 + 0x80}));
        QCOMPARE(tok().decode(tok().encode(pua)), pua);
        const std::string nul("a\0b", 3);
        QCOMPARE(tok().decode(tok().encode(nul)), nul);
        // Invalid UTF-8 bytes stand alone and come back as U+FFFD, never crash.
        const std::string bad = "x\xFF\xC3y";
        const auto enc = tok().encode(bad);
        QVERIFY(std::find(enc.begin(), enc.end(), 238 + 0xFF) != enc.end());
        QCOMPARE(tok().decode(enc), std::string("x\xEF\xBF\xBD\xEF\xBF\xBDy"));
    }

    void addedTokensInText() {
        // Leftmost-longest matching of added tokens before BPE.
        QCOMPARE(tok().encode("a<eos>b"), ids({236746, 1, 236763}));
        QCOMPARE(tok().encode("<<bos>>"), ids({236820, 2, 236813}));
        QCOMPARE(tok().encode("<|turn><turn|>"), ids({105, 106}));
        QCOMPARE(tok().encode("<|turn"), tok().encode("<|turn"));  // incomplete: ordinary text
        QVERIFY(tok().encode("<|turn").size() > 1);
        QCOMPARE(tok().encode("\n\n\n\n"), ids({110}));
        // Skipping specials drops <bos>/<|turn> but keeps ordinary added tokens like "\n".
        QCOMPARE(tok().decode(ids({2, 9259, 107, 106}), true), std::string("Hello\n"));
    }

    void roundTrips() {
        const std::vector<std::string> texts = {
            "The quick brown fox jumps over the lazy dog.",
            "int main() {\n    return 0;\n}\n",
            R"({"key": [1, 2.5, null], "nested": {"a": "b"}})",
            "日本語のテキストと中文文本",
            "مرحبا بالعالم",
            "Emoji: 😀👍🏽 🇫🇷 👨‍👩‍👧",
            "Ünïcödé façade naïve — “quotes” … ‰",
            std::string(3000, 'a'),
            "<start_of_image> <unused7> [multimodal]",
        };
        for (const auto& t : texts) QCOMPARE(tok().decode(tok().encode(t)), t);
    }

    void decodeIgnoresUnknownIds() {
        QCOMPARE(tok().decode(ids({-5, 9259, 999999999})), std::string("Hello"));
        QCOMPARE(tok().decode({}), std::string());
    }

    void concurrentEncoding() {
        const std::string text =
            "Concurrent tokenization: the same answer from every thread. 123 😀\n";
        const auto expected = tok().encode(text);
        std::vector<std::thread> threads;
        std::atomic<int> mismatches{0};
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, copy = tok()] {
                for (int i = 0; i < 200; ++i) {
                    if (copy.encode(text) != expected) ++mismatches;
                }
            });
        }
        for (auto& th : threads) th.join();
        QCOMPARE(mismatches.load(), 0);
    }

    void missingFile() {
        auto r = Tokenizer::load("/nonexistent/dir/tokenizer.json");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::BadInput);
        QVERIFY(
            QString::fromStdString(r.error().message).contains("/nonexistent/dir/tokenizer.json"));
        QVERIFY(QString::fromStdString(r.error().message).contains("prepare-tokenizer.sh"));
    }

    void garbageFiles() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto write = [&](const char* name, const std::string& content) {
            const std::string path = dir.filePath(name).toStdString();
            std::ofstream(path, std::ios::binary) << content;
            return path;
        };
        struct Case {
            const char* name;
            std::string content;
            const char* expect;
        };
        const std::vector<Case> cases = {
            {"binary.json", std::string("\x00\xFF garbage", 10), ":1:1: not a tokenizer.json"},
            {"truncated.json", R"({"model": {"type": "BPE", "vocab": {"a": 0)",
             ":1:43: expected '}'"},
            {"array.json", "[1, 2, 3]", "expected a JSON object"},
            {"empty.json", "", "not a tokenizer.json"},
            {"wordpiece.json",
             R"({"normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
                 "pre_tokenizer": null, "added_tokens": [],
                 "model": {"type": "WordPiece", "vocab": {}}})",
             "model.type"},
            {"badmerge.json",
             R"({"normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
                 "pre_tokenizer": null, "added_tokens": [],
                 "model": {"type": "BPE", "byte_fallback": true, "vocab": {"a": 0}, "merges": [5]}})",
             "model.merges[0]"},
        };
        for (const Case& c : cases) {
            auto r = Tokenizer::load(write(c.name, c.content));
            QVERIFY2(!r.ok(), c.name);
            const QString msg = QString::fromStdString(r.error().message);
            QVERIFY2(msg.contains(c.name) && msg.contains(c.expect), qPrintable(msg));
        }
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
