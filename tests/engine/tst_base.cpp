// The base library's helpers (local-engine/base): ASCII lowering that leaves UTF-8 alone, 1-based
// positions counted in bytes or in UTF-8 characters, both HTML escaping rules, and an error's
// cause surviving the engine's aliases.
#include <QtTest>

#include <string>

#include "base/text.h"
#include "base/time.h"
#include "engine/result.h"

class TestBase : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void lowerTouchesAsciiLettersOnly() {
        QCOMPARE(base::lower("Bearer ABC-xyz_09"), std::string("bearer abc-xyz_09"));
        QCOMPARE(base::lower("\xC3\x84rger"), std::string("\xC3\x84rger"));  // "Ärger"
        QCOMPARE(base::lower(""), std::string());
    }

    void positionsInBytesAndCharacters() {
        const std::string text = "ab\n\xC3\xA4x\ny";  // line 2 is "äx"
        auto at = base::text_position_of(text, 0);
        QCOMPARE(at.line, size_t(1));
        QCOMPARE(at.column, size_t(1));
        at = base::text_position_of(text, 5);  // 'x': after the two bytes of 'ä'
        QCOMPARE(at.line, size_t(2));
        QCOMPARE(at.column, size_t(2));
        at = base::text_position_of(text, 5, base::ColumnUnit::Bytes);
        QCOMPARE(at.column, size_t(3));
        at = base::text_position_of(text, 1000);  // past the end: the end
        QCOMPARE(at.line, size_t(3));
        QCOMPARE(at.column, size_t(2));
    }

    void htmlEscapingRules() {
        const std::string raw = std::string("<a href=\"x\">Tom & Jerry's</a>\t") + '\0' + "\x01";
        QCOMPARE(base::html_escape(raw, base::HtmlEscaping::GoTemplate),
                 std::string("&lt;a href=&#34;x&#34;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;\t"
                             "\xEF\xBF\xBD\x01"));
        QCOMPARE(base::html_escape(raw, base::HtmlEscaping::Xml),
                 std::string("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;\t"
                             "\xEF\xBF\xBD\xEF\xBF\xBD"));
    }

    void errorsCarryTheirCause() {
        const engine::Error e =
            engine::remote_error("GET /x: HTTP 404", engine::Cause::Unsupported);
        QVERIFY(e.kind == engine::ErrorKind::Remote);
        QVERIFY(e.cause == engine::Cause::Unsupported);
        QVERIFY(engine::bad_input("no").cause == base::Cause::None);
        const engine::Result<int> r = engine::cancelled();
        QVERIFY(!r.ok());
        QVERIFY(r.error().kind == base::ErrorKind::Cancelled);
    }

    void elapsedTimeIsMonotonic() {
        const auto t0 = base::Clock::now();
        const double ms = base::ms_since(t0);
        QVERIFY(ms >= 0);
        QVERIFY(base::seconds_since(t0) * 1000 >= ms);
    }
};

QTEST_GUILESS_MAIN(TestBase)
#include "tst_base.moc"
