// Bounded-depth JSON parsing for user input (see core/json_input.h).
#include "core/json_input.h"

#include <string>

#include "core/template.h"

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

}  // namespace

bool parse_json_input_raw(std::string_view text, nlohmann::json& out, JsonInputError& error,
                          int max_depth) {
    if (const size_t deep = too_deep_at(text, max_depth); deep != std::string_view::npos) {
        error = {deep, "JSON nested more than " + std::to_string(max_depth) +
                           " levels deep (at most " + std::to_string(max_depth) +
                           " levels of arrays and objects are accepted)"};
        return false;
    }
    try {
        out = nlohmann::json::parse(text.begin(), text.end());
        return true;
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is the 1-based count of bytes read when the error was found.
        size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        if (offset > text.size()) offset = text.size();
        error = {offset, "invalid JSON: " + parser_message(e.what())};
        return false;
    } catch (const nlohmann::json::exception& e) {
        error = {0, std::string("invalid JSON: ") + e.what()};
        return false;
    }
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

}  // namespace core
