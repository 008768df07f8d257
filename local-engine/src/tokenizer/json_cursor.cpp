// JsonCursor: strict JSON strings, integers and value skipping over an in-memory text.

#include "tokenizer/json_cursor.h"

namespace engine::tokenizer_detail {
namespace {

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

}  // namespace

bool JsonCursor::hex4(uint32_t& out) {
    if (i_ + 4 > s_.size()) return fail("truncated \\u escape");
    out = 0;
    for (int k = 0; k < 4; ++k) {
        const char c = s_[i_++];
        out <<= 4;
        if (c >= '0' && c <= '9')
            out |= static_cast<uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            out |= static_cast<uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            out |= static_cast<uint32_t>(c - 'A' + 10);
        else
            return fail("bad hex digit in \\u escape");
    }
    return true;
}

bool JsonCursor::string(std::string& out) {
    out.clear();
    if (!consume('"')) return fail("expected a string");
    for (;;) {
        // Copy the run up to the next quote, backslash or control character in one go.
        size_t j = i_;
        while (j < s_.size()) {
            const auto c = static_cast<unsigned char>(s_[j]);
            if (c == '"' || c == '\\' || c < 0x20) break;
            ++j;
        }
        out.append(s_.data() + i_, j - i_);
        i_ = j;
        if (i_ >= s_.size()) return fail("unterminated string");
        const char c = s_[i_++];
        if (c == '"') return true;
        if (c != '\\') {
            --i_;
            return fail("control character inside a string");
        }
        if (i_ >= s_.size()) return fail("unterminated string");
        switch (s_[i_++]) {
            case '"':
                out.push_back('"');
                break;
            case '\\':
                out.push_back('\\');
                break;
            case '/':
                out.push_back('/');
                break;
            case 'b':
                out.push_back('\b');
                break;
            case 'f':
                out.push_back('\f');
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 'r':
                out.push_back('\r');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u': {
                uint32_t cp;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    uint32_t low;
                    if (i_ + 2 > s_.size() || s_[i_] != '\\' || s_[i_ + 1] != 'u')
                        return fail("lone UTF-16 surrogate in \\u escape");
                    i_ += 2;
                    if (!hex4(low)) return false;
                    if (low < 0xDC00 || low > 0xDFFF)
                        return fail("lone UTF-16 surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return fail("lone UTF-16 surrogate in \\u escape");
                }
                append_utf8(out, cp);
                break;
            }
            default:
                --i_;
                return fail("unknown escape in string");
        }
    }
}

bool JsonCursor::integer(int64_t& out) {
    ws();
    const size_t start = i_;
    bool negative = false;
    if (i_ < s_.size() && s_[i_] == '-') {
        negative = true;
        ++i_;
    }
    uint64_t v = 0;
    size_t digits = 0;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
        if (++digits > 18) return fail("integer too large");
        v = v * 10 + static_cast<uint64_t>(s_[i_++] - '0');
    }
    if (digits == 0 || (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E'))) {
        i_ = start;
        return fail("expected an integer");
    }
    out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
}

bool JsonCursor::literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return fail("unexpected character");
    i_ += word.size();
    return true;
}

bool JsonCursor::skip_value(int depth) {
    if (depth > 256) return fail("nesting deeper than 256 levels");
    std::string scratch;
    switch (peek()) {
        case '{':
            ++i_;
            if (consume('}')) return true;
            do {
                if (!string(scratch) || !expect(':') || !skip_value(depth + 1)) return false;
            } while (consume(','));
            return expect('}');
        case '[':
            ++i_;
            if (consume(']')) return true;
            do {
                if (!skip_value(depth + 1)) return false;
            } while (consume(','));
            return expect(']');
        case '"':
            return string(scratch);
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default: {
            // A number: validate the JSON grammar loosely (digits, sign, fraction, exponent).
            const size_t start = i_;
            if (i_ < s_.size() && s_[i_] == '-') ++i_;
            size_t digits = 0;
            while (i_ < s_.size() &&
                   ((s_[i_] >= '0' && s_[i_] <= '9') || s_[i_] == '.' || s_[i_] == 'e' ||
                    s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-')) {
                digits += (s_[i_] >= '0' && s_[i_] <= '9');
                ++i_;
            }
            if (digits == 0) {
                i_ = start;
                return fail(i_ >= s_.size() ? "unexpected end of text" : "unexpected character");
            }
            return true;
        }
    }
}

}  // namespace engine::tokenizer_detail
