#pragma once
// Parses JSON that comes from a user (files, flags, rendered templates, request bodies) without
// letting it crash us: nlohmann's parser recurses once per nesting level, so documents nested
// deeper than a limit are refused by a pre-scan before the parser sees them. Errors are one line
// "source:line:col: message".

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/result.h"

namespace core {

inline constexpr int kJsonMaxDepth = 128;

struct JsonInputError {
    std::size_t offset = 0;  // byte offset in the text where the problem was found
    std::string message;     // without position
};

// Parses `text`; on failure reports the offset and a message (no position prefix), so callers
// can place it (e.g. map a rendered template's offset back to its source line).
engine::Result<nlohmann::json> parse_json_input(std::string_view text, std::string_view source,
                                                int max_depth = kJsonMaxDepth);
// The same, with the failure described as a JsonInputError instead of a formatted Error.
bool parse_json_input_raw(std::string_view text, nlohmann::json& out, JsonInputError& error,
                          int max_depth = kJsonMaxDepth);
// The same into an ordered_json (keeps the source order of keys: request bodies, schemas).
bool parse_json_input_raw(std::string_view text, nlohmann::ordered_json& out, JsonInputError& error,
                          int max_depth = kJsonMaxDepth);

// Offset of the first byte of `text` that is not part of well-formed UTF-8 (overlong forms,
// surrogates and code points past U+10FFFF are ill-formed too), or npos when all of it is.
std::size_t invalid_utf8_at(std::string_view text);
// `text` with every ill-formed UTF-8 byte replaced by U+FFFD exactly as the JSON writer of our
// servers replaces it (nlohmann's error_handler_t::replace), so text that goes through a JSON
// reply and text that does not are the same string.
std::string valid_utf8(std::string text);
// Where in a JSON document byte `offset` lies, as a path: `messages[0].content`, `questions`
// (inside an object key there), or "" at the top level. Keys on the path are taken from the
// text before `offset`, so a path never contains the bytes at or after it.
std::string json_path_at(std::string_view text, std::size_t offset, bool* in_key = nullptr);

}  // namespace core
