// Bounded-depth JSON parsing for user input (see core/policy/json_input.h).
#include "core/policy/json_input.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/template/template.h"

namespace core {
namespace {

// Offset of the first bracket that opens level max_depth + 1, or npos. Strings are skipped so
// brackets inside them do not count; malformed text is left for the parser to report.
size_t too_deep_at(std::string_view text, int max_depth) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string_view::npos;
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix (we print our own position).
std::string parser_message(const std::string& what) {
    const std::string marker = "column ";
    size_t at = what.find(marker);
    if (at != std::string::npos) {
        const size_t colon = what.find(": ", at);
        if (colon != std::string::npos) return what.substr(colon + 2);
    }
    const size_t bracket = what.find("] ");
    return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

// At most `max` bytes of `s`, cut at a character boundary (s is well-formed UTF-8).
std::string utf8_prefix(std::string_view s, size_t max) {
    if (s.size() <= max) return std::string(s);
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return std::string(s.substr(0, n)) + "...";
}

template <typename Json>
bool parse_bounded(std::string_view text, Json& out, JsonInputError& error, int max_depth) {
    // Ill-formed UTF-8 first: nlohmann's own message would quote the offending bytes.
    if (const size_t bad = invalid_utf8_at(text); bad != std::string_view::npos) {
        bool in_key = false;
        const std::string path = json_path_at(text, bad, &in_key);
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
        std::string where;
        if (in_key)
            where =
                path.empty() ? " in an object key" : " in an object key inside \"" + path + "\"";
        else if (!path.empty())
            where = " in the value of \"" + path + "\"";
        error = {bad, "invalid UTF-8 (byte " + std::string(byte) + " at byte offset " +
                          std::to_string(bad) + where + "); JSON text must be UTF-8"};
        return false;
    }
    if (const size_t deep = too_deep_at(text, max_depth); deep != std::string_view::npos) {
        error = {deep, "JSON nested more than " + std::to_string(max_depth) +
                           " levels deep (at most " + std::to_string(max_depth) +
                           " levels of arrays and objects are accepted)"};
        return false;
    }
    try {
        out = Json::parse(text.begin(), text.end());
        return true;
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is the 1-based count of bytes read when the error was found.
        size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        if (offset > text.size()) offset = text.size();
        error = {offset, "invalid JSON: " + utf8_prefix(parser_message(e.what()), 300)};
        return false;
    } catch (const nlohmann::json::exception& e) {
        error = {0, std::string("invalid JSON: ") + utf8_prefix(e.what(), 300)};
        return false;
    }
}

}  // namespace

size_t invalid_utf8_at(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len = 0;
        unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) lo = 0xA0;  // overlong
            if (c == 0xED) hi = 0x9F;  // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) lo = 0x90;  // overlong
            if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
        } else {
            return i;
        }
        if (i + 1 >= n || s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k < len; ++k)
            if (i + k >= n || (s[i + k] & 0xC0) != 0x80) return i;
        i += len;
    }
    return std::string_view::npos;
}

std::string json_path_at(std::string_view text, size_t offset, bool* in_key) {
    struct Frame {
        bool object = false;
        bool want_key = false;  // object: the next string is a key
        std::string key;
        size_t index = 0;
    };
    std::vector<Frame> stack;
    bool key_here = false;
    const size_t end = std::min(offset, text.size());
    for (size_t i = 0; i < end; ++i) {
        const char c = text[i];
        if (c == '{') {
            stack.push_back({true, true, {}, 0});
        } else if (c == '[') {
            stack.push_back({false, false, {}, 0});
        } else if (c == '}' || c == ']') {
            if (!stack.empty()) stack.pop_back();
        } else if (c == ',') {
            if (!stack.empty()) {
                if (stack.back().object)
                    stack.back().want_key = true;
                else
                    ++stack.back().index;
            }
        } else if (c == ':') {
            if (!stack.empty()) stack.back().want_key = false;
        } else if (c == '"') {
            const size_t start = i + 1;
            size_t j = start;
            while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
            const bool is_key = !stack.empty() && stack.back().object && stack.back().want_key;
            if (j >= end) {  // the offset lies inside this string
                key_here = is_key;
                break;
            }
            if (is_key) stack.back().key = std::string(text.substr(start, j - start));
            i = j;
        }
    }
    std::string path;
    for (size_t f = 0; f < stack.size(); ++f) {
        const Frame& fr = stack[f];
        const bool last = f + 1 == stack.size();
        if (fr.object) {
            if (last && (fr.want_key || key_here)) break;
            if (!path.empty()) path += '.';
            path += utf8_prefix(fr.key, 60);
        } else {
            path += "[" + std::to_string(fr.index) + "]";
        }
        if (path.size() > 240) {
            path += "...";
            break;
        }
    }
    if (in_key) *in_key = key_here;
    return path;
}

bool parse_json_input_raw(std::string_view text, nlohmann::json& out, JsonInputError& error,
                          int max_depth) {
    return parse_bounded(text, out, error, max_depth);
}

bool parse_json_input_raw(std::string_view text, nlohmann::ordered_json& out, JsonInputError& error,
                          int max_depth) {
    return parse_bounded(text, out, error, max_depth);
}

engine::Result<nlohmann::json> parse_json_input(std::string_view text, std::string_view source,
                                                int max_depth) {
    nlohmann::json out;
    JsonInputError error;
    if (!parse_json_input_raw(text, out, error, max_depth)) {
        return engine::bad_input(std::string(source) + ":" + text_position(text, error.offset) +
                                 ": " + error.message);
    }
    return out;
}

std::string valid_utf8(std::string text) {
    if (invalid_utf8_at(text) == std::string_view::npos) return text;
    const std::string quoted = nlohmann::json(std::move(text))
                                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return nlohmann::json::parse(quoted).get<std::string>();
}

}  // namespace core
