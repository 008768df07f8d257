#pragma once
// Text helpers every layer needs once: case folding for names and keywords, positions in a text
// for messages, HTML escaping.

#include <cstddef>
#include <string>
#include <string_view>

namespace base {

// `s` with ASCII letters lowered; other bytes (UTF-8 included) unchanged, whatever the locale.
std::string lower(std::string_view s);

// What a column counts: bytes, or UTF-8 characters (continuation bytes do not advance it).
enum class ColumnUnit { Bytes, Characters };

// 1-based line and column of byte `offset` in `text` (an offset past the end counts as the end).
struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};
TextPosition text_position_of(std::string_view text, std::size_t offset,
                              ColumnUnit unit = ColumnUnit::Characters);

// The HTML escaping rules in use: Go's html/template `html` function (quotes as &#34;, NUL as
// U+FFFD, other bytes as they are), or text for an HTML file that must also be well-formed XML
// (quotes as &quot;, control characters other than tab and line breaks as U+FFFD).
enum class HtmlEscaping { GoTemplate, Xml };
std::string html_escape(std::string_view s, HtmlEscaping rules);

}  // namespace base
