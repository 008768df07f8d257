// Text helpers (see base/text.h).
#include "base/text.h"

namespace base {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

TextPosition text_position_of(std::string_view text, std::size_t offset, ColumnUnit unit) {
    TextPosition at;
    const std::size_t end = offset < text.size() ? offset : text.size();
    for (std::size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++at.line;
            at.column = 1;
        } else if (unit == ColumnUnit::Bytes || (c & 0xC0) != 0x80) {
            ++at.column;
        }
    }
    return at;
}

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Whether `c` has no place in the output under `rules` and is replaced by U+FFFD.
bool replaced(char c, HtmlEscaping rules) {
    if (rules == HtmlEscaping::GoTemplate) return c == '\0';
    return static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

}  // namespace

std::string html_escape(std::string_view s, HtmlEscaping rules) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += rules == HtmlEscaping::GoTemplate ? "&#34;" : "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                if (replaced(c, rules))
                    out += kReplacement;
                else
                    out += c;
        }
    }
    return out;
}

}  // namespace base
