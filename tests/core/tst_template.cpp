// The policy-template renderer (core/template/template.h) against Go text/template's and dgem's
// behaviour: every construct the policies use, Go's formatting rules (toJson, %q, %v), dgem's
// `default`, trimming, range order, and every error with its file:line:col. Bad input (garbage
// bytes, a 10 MB source, deep nesting, runaway loops and output) must give one-line errors and
// never crash.

#include <QtTest>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "core/template/template.h"

using nlohmann::json;

namespace {

// Renders and returns the text, or "ERROR: <message>".
std::string render(const std::string& source, const json& data = json::object()) {
    auto r = core::render_template(source, data, "t.tmpl");
    if (!r) {
        if (r.error().kind != engine::ErrorKind::BadInput)
            return "WRONG KIND: " + r.error().message;
        return "ERROR: " + r.error().message;
    }
    return *r;
}

// Empty when `source` renders to `expected`, else what went wrong.
std::string render_mismatch(const std::string& source, const json& data,
                            const std::string& expected) {
    const std::string out = render(source, data);
    if (out == expected) return {};
    return "template: " + source.substr(0, 200) + "\n got: " + out + "\nwant: " + expected;
}

// Empty when rendering fails with one line "t.tmpl:<position>: ..." containing `fragment`.
std::string error_mismatch(const std::string& source, const json& data, const std::string& position,
                           const std::string& fragment) {
    const std::string out = render(source, data);
    const std::string prefix = "ERROR: t.tmpl:" + position + ": ";
    if (out.rfind(prefix, 0) == 0 && out.find(fragment) != std::string::npos &&
        out.find('\n') == std::string::npos) {
        return {};
    }
    return "got: " + out.substr(0, 400) + "\nwant prefix: " + prefix + " containing: " + fragment;
}

// Variadic so that braced JSON initialisers (with commas) pass through.
#define CHECK_RENDER(...)                                      \
    do {                                                       \
        const std::string why_ = render_mismatch(__VA_ARGS__); \
        if (!why_.empty()) QFAIL(why_.c_str());                \
    } while (0)
#define CHECK_ERROR(...)                                      \
    do {                                                      \
        const std::string why_ = error_mismatch(__VA_ARGS__); \
        if (!why_.empty()) QFAIL(why_.c_str());               \
    } while (0)

}  // namespace

class TemplateTest : public QObject {
    Q_OBJECT

  private slots:
    void fieldsAndRoot() {
        const json data = {{"a", "x"}, {"n", {{"b", {{"c", "deep"}}}}}, {"num", 3}};
        CHECK_RENDER("{{ .a }}/{{ .n.b.c }}/{{ $.a }}/{{ $.n.b.c }}", data, "x/deep/x/deep");
        CHECK_RENDER("[{{ .missing }}][{{ .missing.deeper }}]", data, "[<no value>][<no value>]");
        CHECK_RENDER("{{ .n }}", data, "map[b:map[c:deep]]");
        CHECK_RENDER("{{ . }}", json{{"k", json::array({1, "a", nullptr, true})}},
                     "map[k:[1 a <nil> true]]");
        CHECK_RENDER("{{ .num }} {{ .z }}", json{{"num", 3}, {"z", nullptr}}, "3 <no value>");
        CHECK_RENDER("plain text, no actions\n", json::object(), "plain text, no actions\n");
    }

    void pipelines() {
        const json data = {{"name", "Ada"}};
        CHECK_RENDER("{{ .name | printf \"%s!\" }}", data, "Ada!");
        CHECK_RENDER("{{ \"a\" | printf \"%s-%s\" \"b\" }}", data, "b-a");
        CHECK_RENDER("{{ .name | upper | printf \"<%s>\" }}", data, "<ADA>");
        CHECK_RENDER("{{ (printf \"%s\" .name) }}", data, "Ada");
        CHECK_RENDER("{{ (index . \"m\").k }}", json{{"m", {{"k", "v"}}}}, "v");
        CHECK_RENDER("{{ printf \"%s %s\" (upper .name) (lower \"XY\") }}", data, "ADA xy");
    }

    void dgemDefault() {
        // dgem's own default: nil and white-space-only strings are replaced; false, 0, [] are kept.
        const json data = {{"empty", ""},     {"blank", " \t\n"}, {"nbsp", "\xC2\xA0"},
                           {"no", false},     {"zero", 0},        {"list", json::array()},
                           {"null", nullptr}, {"text", " hi "}};
        CHECK_RENDER("{{ default \"d\" .missing }}", data, "d");
        CHECK_RENDER("{{ default \"d\" .null }}", data, "d");
        CHECK_RENDER("{{ default \"d\" .empty }}", data, "d");
        CHECK_RENDER("{{ default \"d\" .blank }}", data, "d");
        CHECK_RENDER("{{ default \"d\" .nbsp }}", data, "d");
        CHECK_RENDER("{{ default \"d\" .no }}", data, "false");
        CHECK_RENDER("{{ default \"d\" .zero }}", data, "0");
        CHECK_RENDER("{{ default \"d\" .list | toJson }}", data, "[]");
        CHECK_RENDER("{{ default \"d\" .text | toJson }}", data, "\" hi \"");
        CHECK_RENDER("{{ .missing | default \"piped\" }}", data, "piped");
        CHECK_RENDER("{{ default 1 .missing | toJson }}", data, "1");
        CHECK_RENDER("{{ default \"auto\" .samples | toJson }}", json{{"samples", "4"}}, "\"4\"");
        CHECK_RENDER("{{ default \"x\" nil }}", data, "x");
        CHECK_RENDER("{{ default nil .missing | toJson }}", data, "null");
    }

    void toJsonLikeGo() {
        CHECK_RENDER("{{ toJson . }}", json({{"b", 1}, {"a", json::array({true, nullptr, "s"})}}),
                     "{\"a\":[true,null,\"s\"],\"b\":1}");
        // encoding/json escapes <, >, & and U+2028/2029, keeps other Unicode as is.
        CHECK_RENDER("{{ toJson .s }}", json{{"s", "<a href=\"x\">&</a>\n\t\x01 é 😀 \xE2\x80\xA8"}},
                     "\"\\u003ca href=\\\"x\\\"\\u003e\\u0026\\u003c/a\\u003e\\n\\t\\u0001 é 😀 "
                     "\\u2028\"");
        CHECK_RENDER("{{ toJson .f }}", json{{"f", 0.5}}, "0.5");
        CHECK_RENDER("{{ toJson .f }}", json{{"f", 2.0}}, "2");
        CHECK_RENDER("{{ toJson .f }}", json{{"f", 1e21}}, "1e+21");
        CHECK_RENDER("{{ toJson .f }}", json{{"f", 1e-7}}, "1e-7");
        CHECK_RENDER("{{ toJson .f }}", json{{"f", 123456789.0}}, "123456789");
        CHECK_RENDER("{{ toJson .i }}", json{{"i", -42}}, "-42");
        CHECK_RENDER("{{ toJson .missing }}", json::object(), "null");
        CHECK_RENDER(
            "{{ toPrettyJson . }}",
            json({{"a", json::array({1, 2})}, {"e", json::array()}, {"o", json::object()}}),
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"e\": [],\n  \"o\": {}\n}");
        // Invalid UTF-8 in data becomes U+FFFD, as Go writes it.
        CHECK_RENDER("{{ toJson .s }}",
                     json{{"s", std::string("a\xFF"
                                            "b")}},
                     "\"a\\ufffdb\"");
    }

    void printfQuoting() {
        // %q is strconv.Quote: \" \\ \n \t, \a \v, \xHH below space, printable Unicode kept,
        // non-printable code points as \u / \U.
        CHECK_RENDER("{{ printf \"%q\" .s }}", json{{"s", "say \"hi\"\\\n\t"}},
                     "\"say \\\"hi\\\"\\\\\\n\\t\"");
        CHECK_RENDER("{{ printf \"%q\" .s }}", json{{"s", "\x07\x0b\x01\x7f"}},
                     "\"\\a\\v\\x01\\x7f\"");
        CHECK_RENDER("{{ printf \"%q\" .s }}", json{{"s", "é 😀 日本"}}, "\"é 😀 日本\"");
        CHECK_RENDER("{{ printf \"%q\" .s }}",
                     json{{"s", "\xC2\xA0|\xEF\xBB\xBF|\xEE\x80\x80|\xC2\xAD"}},
                     "\"\\u00a0|\\ufeff|\\ue000|\\u00ad\"");
        CHECK_RENDER("{{ printf \"%q\" .s }}", json{{"s", "\xF3\xA0\x80\x81"}}, "\"\\U000e0001\"");
        CHECK_RENDER("{{ printf \"%+q\" .s }}", json{{"s", "é"}}, "\"\\u00e9\"");
        CHECK_RENDER("{{ printf \"%#q\" .s }}", json{{"s", "a\"b"}}, "`a\"b`");
        CHECK_RENDER("{{ printf \"%q\" .s }}", json{{"s", std::string("a\xFFz")}}, "\"a\\xffz\"");
        CHECK_RENDER("{{ printf \"%q\" 65 }}", json::object(), "'A'");
        CHECK_RENDER("{{ printf \"%q\" .list }}", json{{"list", {"a", "b"}}}, "[\"a\" \"b\"]");
        CHECK_RENDER("{{ printf \"%q\" .missing }}", json::object(), "%!q(<nil>)");
    }

    void printfVerbs() {
        const json data = {{"s", "abc"}, {"i", 42}, {"f", 3.25}, {"b", true}, {"m", {{"k", 1}}}};
        CHECK_RENDER("{{ printf \"%s|%d|%v|%t\" .s .i .f .b }}", data, "abc|42|3.25|true");
        CHECK_RENDER("{{ printf \"%5d|%-5s|%05d|%x|%X|%o|%b\" .i .s .i .i .i .i .i }}", data,
                     "   42|abc  |00042|2a|2A|52|101010");
        CHECK_RENDER("{{ printf \"%.2f|%e|%g|%.1s|%8.3f|\" .f .f .f .s .f }}", data,
                     "3.25|3.250000e+00|3.25|a|   3.250|");
        CHECK_RENDER("{{ printf \"%v %v\" .m .missing }}", data, "map[k:1] <nil>");
        CHECK_RENDER("{{ printf \"%d\" .s }}", data, "%!d(string=abc)");
        CHECK_RENDER("{{ printf \"%s\" .i }}", data, "%!s(int=42)");
        CHECK_RENDER("{{ printf \"%s %s\" .s }}", data, "abc %!s(MISSING)");
        CHECK_RENDER("{{ printf \"%s\" .s .i }}", data, "abc%!(EXTRA int=42)");
        CHECK_RENDER("{{ printf \"100%% %T %T\" .s .f }}", data, "100% string float64");
        CHECK_RENDER("{{ printf \"%[2]s %[1]s\" \"a\" \"b\" }}", data, "b a");
        // %v of a float64 is Go's shortest 'g': exponent form from 1e6 and below 1e-4.
        CHECK_RENDER("{{ printf \"%v %v %v %v %v\" 1e6 123456.0 0.0001 0.00001 1.5 }}", data,
                     "1e+06 123456 0.0001 1e-05 1.5");
        CHECK_RENDER("{{ 2.50 }} {{ 1e3 }} {{ -7 }}", data, "2.5 1000 -7");
    }

    void logic() {
        const json data = {{"a", ""}, {"b", "bee"}, {"t", true}, {"n", 0}, {"list", json::array()}};
        CHECK_RENDER("{{ or .a .b }}|{{ or .missing \"dflt\" }}|{{ or \"\" 0 }}", data,
                     "bee|dflt|0");
        CHECK_RENDER("{{ and .t .b }}|{{ and .t .n .b }}|{{ not .list }}|{{ not .b }}", data,
                     "bee|0|true|false");
        // and/or stop at the first deciding value: the index below would fail if evaluated.
        CHECK_RENDER("{{ and false (index .missing 1) }}|{{ or true (index .missing 1) }}", data,
                     "false|true");
        CHECK_RENDER(
            "{{ eq .b \"bee\" }} {{ eq .b \"x\" \"y\" \"bee\" }} {{ ne .n 1 }} {{ eq 1 1.0 }}",
            data, "true true true true");
        CHECK_RENDER("{{ lt 1 2 }} {{ le 2 2 }} {{ gt \"b\" \"a\" }} {{ ge 1.5 2 }}", data,
                     "true true true false");
        // A missing value equals nothing (Go: no error, false).
        CHECK_RENDER("{{ eq .missing \"x\" }} {{ ne .missing \"x\" }}", data, "false true");
        CHECK_ERROR("{{ eq \"a\" 1 }}", data, "1:4", "incompatible types for comparison");
        CHECK_ERROR("{{ lt true false }}", data, "1:4", "invalid type for comparison");
        CHECK_ERROR("{{ eq .list .list }}", data, "1:4", "invalid type for comparison");
    }

    void conditionals() {
        const std::string src =
            "{{ if eq .x 1 }}one{{ else if eq .x 2 }}two{{ else if .y }}y{{ else }}other{{ end }}";
        CHECK_RENDER(src, json{{"x", 1}}, "one");
        CHECK_RENDER(src, json{{"x", 2}}, "two");
        CHECK_RENDER(src, json({{"x", 3}, {"y", "set"}}), "y");
        CHECK_RENDER(src, json{{"x", 3}}, "other");
        // Nested ifs, and truth of empty/zero values.
        const std::string nested =
            "{{ if .a }}A{{ if .b }}B{{ else }}!B{{ end }}{{ else }}!A{{ if .b }}B{{ end }}{{ end "
            "}}";
        CHECK_RENDER(nested, json({{"a", 1}, {"b", "x"}}), "AB");
        CHECK_RENDER(nested, json({{"a", 1}, {"b", ""}}), "A!B");
        CHECK_RENDER(nested, json({{"a", json::array()}, {"b", true}}), "!AB");
        CHECK_RENDER(nested, json({{"a", json::object()}, {"b", 0.0}}), "!A");
        // with sets dot; else with; else.
        const std::string with =
            "{{ with .p }}p={{ .name }}{{ else with .q }}q={{ . }}{{ else }}none{{ end }}";
        CHECK_RENDER(with, json{{"p", {{"name", "n"}}}}, "p=n");
        CHECK_RENDER(with, json{{"q", "qq"}}, "q=qq");
        CHECK_RENDER(with, json::object(), "none");
        CHECK_RENDER("{{ if $v := .x }}{{ $v }}{{ else }}[{{ $v }}]{{ end }}", json{{"x", ""}},
                     "[]");
    }

    void ranges() {
        const json data = {{"list", {"a", "b", "c"}},
                           {"map", {{"zeta", 1}, {"alpha", 2}, {"mid", 3}}},
                           {"empty", json::array()},
                           {"top", "T"}};
        CHECK_RENDER("{{ range .list }}{{ . }}{{ end }}", data, "abc");
        CHECK_RENDER("{{ range $x := .list }}<{{ $x }}>{{ end }}", data, "<a><b><c>");
        CHECK_RENDER("{{ range $i, $x := .list }}{{ if $i }},{{ end }}{{ $i }}={{ $x }}{{ end }}",
                     data, "0=a,1=b,2=c");
        // Maps iterate in sorted key order, as Go does.
        CHECK_RENDER("{{ range .map }}{{ . }}{{ end }}", data, "231");
        CHECK_RENDER("{{ range $k, $v := .map }}{{ $k }}:{{ $v }} {{ end }}", data,
                     "alpha:2 mid:3 zeta:1 ");
        CHECK_RENDER("{{ range .empty }}x{{ else }}empty{{ end }}", data, "empty");
        CHECK_RENDER("{{ range .missing }}x{{ else }}none{{ end }}", data, "none");
        CHECK_RENDER("{{ range .list }}{{ $.top }}{{ end }}", data, "TTT");
        CHECK_RENDER("{{ range 3 }}{{ . }}{{ end }}", data, "012");
        CHECK_RENDER("{{ range .list }}{{ if eq . \"b\" }}{{ continue }}{{ end }}{{ . }}{{ end }}",
                     data, "ac");
        CHECK_RENDER("{{ range .list }}{{ if eq . \"b\" }}{{ break }}{{ end }}{{ . }}{{ end }}",
                     data, "a");
        CHECK_RENDER(
            "{{ range $i, $o := .opts }}{{ if $i }},{{ end }}{\"name\": {{ printf \"%q\" $o.Name "
            "}}}{{ end }}",
            json{{"opts", {{{"Name", "yes"}}, {{"Name", "no \"way\""}}}}},
            "{\"name\": \"yes\"},{\"name\": \"no \\\"way\\\"\"}");
        CHECK_ERROR("x\n  {{ range .top }}{{ end }}", data, "2:3",
                    "range can't iterate over \"T\" (a string)");
        // Data in an error message stays on one line.
        CHECK_ERROR("{{ range .nl }}{{ end }}", json{{"nl", "a\nb"}}, "1:1",
                    "range can't iterate over \"a\\nb\"");
    }

    void variables() {
        CHECK_RENDER("{{ $x := 1 }}{{ $x }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}",
                     json::object(), "12");
        CHECK_RENDER("{{ $a := .a }}{{ with .b }}{{ $a }}{{ . }}{{ end }}",
                     json({{"a", "A"}, {"b", "B"}}), "AB");
        CHECK_RENDER("{{ range $i, $x := .l }}{{ $y := $x }}{{ $y }}{{ end }}", json{{"l", {1, 2}}},
                     "12");
        // A variable declared inside a control structure ends with it.
        CHECK_ERROR("{{ if true }}{{ $y := 1 }}{{ end }}\n{{ $y }}", json::object(), "2:4",
                    "undefined variable \"$y\"");
        CHECK_ERROR("{{ $z = 1 }}", json::object(), "1:4", "undefined variable \"$z\"");
    }

    void commentsAndTrimming() {
        CHECK_RENDER("a{{/* comment */}}b", json::object(), "ab");
        CHECK_RENDER("a  {{- /* comment\nover lines */ -}}  \n b", json::object(), "ab");
        CHECK_RENDER("a  {{- 1 -}}  b", json::object(), "a1b");
        CHECK_RENDER("a {{-3}} b", json::object(), "a -3 b");
        CHECK_RENDER("[\n  {{- range .l }}\n  {{ . }},\n  {{- end }}\n]", json{{"l", {1, 2}}},
                     "[\n  1,\n  2,\n]");
        CHECK_RENDER("x {{ 3 -}}\n\n\t y", json::object(), "x 3y");
        CHECK_ERROR("{{/* a */ }}", json::object(), "1:10",
                    "comment ends before closing delimiter");
        CHECK_ERROR("ok\n{{/* never closed", json::object(), "2:1", "unclosed comment");
    }

    void literals() {
        CHECK_RENDER("{{ \"tab\\there \\u00e9\\x41\\101\" }}", json::object(), "tab\there éAA");
        CHECK_RENDER("{{ `raw \\n {{ }} \"q\"` }}", json::object(), "raw \\n {{ }} \"q\"");
        CHECK_RENDER("{{ 'a' }} {{ '\\n' }} {{ 0x1F }} {{ 1_000 }} {{ 017 }} {{ -2.5 }} {{ true }}",
                     json::object(), "97 10 31 1000 15 -2.5 true");
        CHECK_RENDER("{{ print 1 2 \"a\" \"b\" 3 }}|{{ println \"x\" 1 }}", json::object(),
                     "1 2ab3|x 1\n");
    }

    void collectionFunctions() {
        const json data = {{"l", {10, 20, 30}}, {"m", {{"k", "v"}}}, {"s", "hello"}};
        CHECK_RENDER("{{ len .l }} {{ len .m }} {{ len .s }} {{ len \"é\" }}", data, "3 1 5 2");
        CHECK_RENDER(
            "{{ index .l 1 }} {{ index .m \"k\" }} {{ index .m \"none\" }} {{ index .s 0 }}", data,
            "20 v <no value> 104");
        CHECK_RENDER("{{ slice .l 1 }} {{ slice .s 1 3 }}", data, "[20 30] el");
        CHECK_ERROR("{{ index .l 5 }}", data, "1:4", "error calling index: index out of range: 5");
        CHECK_ERROR("{{ len 3 }}", data, "1:4", "len of type int");
    }

    void stringFunctions() {
        const json data = {
            {"s", "  Héllo wörld \n"}, {"html", "<a href='x'>&\"</a>"}, {"q", "a b&c=d/é"}};
        CHECK_RENDER("[{{ trim .s }}] {{ upper \"héllo\" }} {{ lower \"ÀB\" }}", data,
                     "[Héllo wörld] HÉLLO àb");
        CHECK_RENDER("{{ indent 2 \"a\\n\\nb\" }}", data, "  a\n\n  b");
        CHECK_RENDER("{{ html .html }}", data, "&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt;");
        CHECK_RENDER("{{ js .html }}", data,
                     "\\u003Ca href\\u003D\\'x\\'\\u003E\\u0026\\\"\\u003C/a\\u003E");
        CHECK_RENDER("{{ urlquery .q }}", data, "a+b%26c%3Dd%2F%C3%A9");
        CHECK_ERROR("{{ upper .missing }}", data, "1:4",
                    "error calling upper: invalid value; expected string");
        CHECK_ERROR("{{ indent \"2\" .s }}", data, "1:4", "expected int; got string");
    }

    void errorsNamePositionAndWhatIsAccepted() {
        const json data = {{"str", "text"}};
        CHECK_ERROR("line one\n  {{ .x", data, "2:3", "unclosed action");
        CHECK_ERROR("é{{ quote .x }}", data, "1:5", "function \"quote\" is not defined");
        CHECK_ERROR("{{ quote .x }}", data, "1:4", "supported functions: and, default, eq");
        CHECK_ERROR("{{ default \"x\" }}", data, "1:4",
                    "wrong number of arguments for default: want 2, got 1");
        CHECK_ERROR("{{ .x | default }}", data, "1:9", "want 2, got 1");
        CHECK_ERROR("{{ toJson 1 2 }}", data, "1:4", "want 1, got 2");
        CHECK_ERROR("{{ printf }}", data, "1:4", "want at least 1, got 0");
        CHECK_ERROR("\n\n{{ define \"x\" }}{{ end }}", data, "3:4", "supported actions");
        CHECK_ERROR("{{ template \"x\" }}", data, "1:4", "not supported");
        CHECK_ERROR("a{{ end }}", data, "1:2", "unexpected {{end}}");
        CHECK_ERROR("a{{ else }}", data, "1:2", "unexpected {{else}}");
        CHECK_ERROR("x\n{{ if .a }}never closed", data, "2:1", "{{if}} has no matching {{end}}");
        CHECK_ERROR("{{ range .a }}{{ else }}{{ else }}{{ end }}", data, "1:25",
                    "{{else}} after {{else}}");
        CHECK_ERROR("{{ \"open string }}", data, "1:4", "unterminated quoted string");
        CHECK_ERROR("{{ .str.field }}", data, "1:4", "can't evaluate field field in type string");
        CHECK_ERROR("{{ 3 4 }}", data, "1:4", "can't give an argument");
        CHECK_ERROR("{{ .str 4 }}", data, "1:4", "can't give an argument");
        CHECK_ERROR("{{ nil }}", data, "1:4", "nil is not a command");
        CHECK_ERROR("{{ $nope }}", data, "1:4", "undefined variable \"$nope\"");
        CHECK_ERROR("{{ }}", data, "1:4", "missing value for command");
        CHECK_ERROR("{{ .a | }}", data, "1:9", "missing command");
        CHECK_ERROR("{{ if }}{{ end }}", data, "1:7", "missing value for {{if}}");
        CHECK_ERROR("{{ break }}", data, "1:1", "{{break}} outside {{range}}");
        CHECK_ERROR("{{ .a.b\"x\" }}", data, "1:8", "missing space");
        CHECK_ERROR("{{ ( .a }}", data, "1:9", "unclosed left paren");
        CHECK_ERROR("{{ 1.2.3 }}", data, "1:4", "bad number syntax");
        CHECK_ERROR("{{ # }}", data, "1:4", "unexpected character '#'");
        CHECK_ERROR("{{ call .f }}", data, "1:4", "call is not supported");
        CHECK_ERROR("{{ \"\\q\" }}", data, "1:5", "unknown escape sequence");
    }

    void garbageBytesAreRefused() {
        CHECK_ERROR("ok\nab\xFF\xFE", json::object(), "2:3", "not UTF-8 text (byte 0xff)");
        CHECK_ERROR(std::string("a\0b", 3), json::object(), "1:2", "NUL byte");
        // Random binary: always a one-line bad-input error, never a crash.
        std::mt19937 rng(7);
        for (int round = 0; round < 200; ++round) {
            std::string junk(static_cast<size_t>(rng() % 512), '\0');
            for (char& c : junk) c = static_cast<char>(rng() & 0xFF);
            const std::string out = render(junk);
            QVERIFY2(out.rfind("ERROR: t.tmpl:", 0) == 0 ||
                         junk.find_first_of(std::string("\0{", 2)) == std::string::npos,
                     out.c_str());
            QVERIFY(out.find("WRONG KIND") == std::string::npos);
        }
    }

    void fuzzedTemplateTextNeverCrashes() {
        // Template-shaped noise: every result is text or a one-line positioned error.
        const std::string alphabet = "{{}}()|.$x:= \"`'-/*\n\tabif else end range with 0123 printf";
        std::mt19937 rng(11);
        for (int round = 0; round < 3000; ++round) {
            std::string s;
            const size_t n = rng() % 60;
            for (size_t k = 0; k < n; ++k) s += alphabet[rng() % alphabet.size()];
            const std::string out = render(s, json{{"x", {1, 2}}});
            if (out.rfind("ERROR: ", 0) == 0) {
                QVERIFY2(out.rfind("ERROR: t.tmpl:", 0) == 0, out.c_str());
                QVERIFY2(out.find('\n') == std::string::npos, out.c_str());
            }
        }
    }

    void hugeSourceIsRefusedWithTheLimit() {
        const std::string big(10 * 1024 * 1024, 'a');
        const std::string out = render(big);
        QVERIFY2(out.find("ERROR: t.tmpl: the template is 10485760 bytes") == 0, out.c_str());
        QVERIFY2(out.find("1048576 bytes (1 MiB)") != std::string::npos, out.c_str());
        // Just under the limit renders (and fast: plain text is copied).
        QCOMPARE(render(std::string(core::kTemplateMaxBytes, 'b')).size(), core::kTemplateMaxBytes);
    }

    void deepNestingIsRefused() {
        std::string ifs;
        for (int k = 0; k < 100; ++k) ifs += "{{ if true }}";
        for (int k = 0; k < 100; ++k) ifs += "{{ end }}";
        CHECK_ERROR(ifs, json::object(), "1:833", "nested more than 64 levels deep");
        std::string parens = "{{ " + std::string(100000, '(') + " }}";
        CHECK_ERROR(parens, json::object(), "1:68", "nested more than 64 levels deep");
        // 64 levels are fine.
        std::string ok;
        for (int k = 0; k < 64; ++k) ok += "{{ if true }}";
        ok += "deep";
        for (int k = 0; k < 64; ++k) ok += "{{ end }}";
        CHECK_RENDER(ok, json::object(), "deep");
        // A long {{else if}} chain is not nesting for the author.
        std::string chain = "{{ if eq .n 0 }}0";
        for (int k = 1; k < 300; ++k)
            chain += "{{ else if eq .n " + std::to_string(k) + " }}" + std::to_string(k);
        chain += "{{ end }}";
        CHECK_RENDER(chain, json{{"n", 299}}, "299");
        // Deeply nested data is refused when printed, not overflowed.
        json deep = "leaf";
        for (int k = 0; k < 1200; ++k) deep = json::array({deep});
        CHECK_ERROR("{{ toJson .d }}", json{{"d", deep}}, "1:4",
                    "nested more than 1000 levels deep");
        CHECK_ERROR("{{ .d }}", json{{"d", deep}}, "1:1", "nested more than 1000 levels deep");
    }

    void runawayLoopsAndOutputStop() {
        CHECK_ERROR("{{ range 100000000 }}0123456789{{ end }}", json::object(), "1:22",
                    "rendered output exceeds 8 MiB");
        CHECK_ERROR("{{ range 100000 }}{{ range 100000 }}{{ end }}{{ end }}", json::object(),
                    "1:19", "stopped after 5000000 steps");
    }

    void sourceMapPointsBackToTheTemplate() {
        auto r = core::render_template_traced("ab\n{{ .x }}\ncd", json{{"x", "XYZ"}}, "t.tmpl");
        QVERIFY(r.ok());
        QCOMPARE(QString::fromStdString(r->text), QString("ab\nXYZ\ncd"));
        QCOMPARE(r->source_offset_of(1), size_t(1));   // "b"
        QCOMPARE(r->source_offset_of(4), size_t(3));   // inside XYZ -> the action
        QCOMPARE(r->source_offset_of(8), size_t(13));  // "d"
        QCOMPARE(QString::fromStdString(core::text_position("ab\néx", 5)), QString("2:2"));
    }
};

QTEST_GUILESS_MAIN(TemplateTest)
#include "tst_template.moc"
