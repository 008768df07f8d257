#pragma once
// Renders dgem's `.json.tmpl` policy templates: the subset of Go text/template that policies use,
// with dgem's helper functions (dgem does not load sprig).
//
// Supported: text and {{actions}}; {{- and -}} white-space trimming; {{/* comments */}};
// field access (.x, .x.y, $x.y, (pipeline).y); the root $; pipelines (a | f b); parenthesised
// pipelines; literals (strings with Go escapes, raw `strings`, integers, floats, 'c' characters,
// true, false, nil); variables ($x := ..., $x = ...); if / else if / else; range over arrays,
// maps (keys in sorted order, as Go) and integers, with one or two variables and {{else}};
// with / else with / else; break and continue.
// Functions: Go's built-ins (and, or, not, eq, ne, lt, le, gt, ge, len, index, slice, print,
// printf, println, html, js, urlquery) and dgem's (toJson, toPrettyJson, default, indent, upper,
// lower, trim). Not supported: define, template, block, call.
//
// Values are JSON: a missing key renders as "<no value>" like Go; `default D V` returns D when V
// is missing, null or a string that is empty after trimming white space (dgem's rule: false and
// 0 are kept). toJson writes what Go's encoding/json writes (sorted keys, <>& escaped as \u003c..).
// Deviations, all in the direction of accepting more: JSON integers are Go ints (so "%d" prints
// them; Go would see float64), and numbers compare by value (Go refuses int against float64).
//
// Bad input never crashes: every error is engine::ErrorKind::BadInput with one line
// "file:line:col: message" (column counted in characters). Limits: sources over
// kTemplateMaxBytes are refused, nesting deeper than kTemplateMaxNesting is refused, output over
// kTemplateMaxOutputBytes and runs over kTemplateMaxSteps stop with an error.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/result.h"

namespace core {

using engine::Error;
using engine::Result;

inline constexpr std::size_t kTemplateMaxBytes = 1024 * 1024;            // 1 MiB of source
inline constexpr std::size_t kTemplateMaxOutputBytes = 8 * 1024 * 1024;  // 8 MiB rendered
inline constexpr int kTemplateMaxNesting = 64;  // if/range/with/parentheses inside each other
inline constexpr std::size_t kTemplateMaxSteps = 5'000'000;  // actions + loop iterations

Result<std::string> render_template(std::string_view source, const nlohmann::json& data,
                                    std::string_view file_name);

// The rendered text with a map back to the source, so errors found in the output (invalid JSON)
// can point at the template line that produced them.
struct RenderedTemplate {
    struct Segment {
        std::size_t output_offset = 0;
        std::size_t source_offset = 0;
        bool verbatim = false;  // template text copied as is (offsets advance together)
    };
    std::string text;
    std::vector<Segment> segments;  // sorted by output_offset

    // The source offset that produced the output byte at `output_offset`.
    std::size_t source_offset_of(std::size_t output_offset) const;
};
Result<RenderedTemplate> render_template_traced(std::string_view source, const nlohmann::json& data,
                                                std::string_view file_name);

// The variables a template reads from its data, sorted: the first field of every access to the
// root (.x outside range/with bodies, $.x anywhere, index . "x"). Syntax errors as
// render_template's ("file:line:col: message").
Result<std::vector<std::string>> template_variables(std::string_view source,
                                                    std::string_view file_name);
// The same names in the order the template first reads them (source order).
Result<std::vector<std::string>> template_variables_in_order(std::string_view source,
                                                             std::string_view file_name);

// "line:col" (1-based; the column counts UTF-8 characters) of a byte offset in `text`.
std::string text_position(std::string_view text, std::size_t offset);

// Byte offset of the first byte that is not valid UTF-8, or npos when the text is valid.
std::size_t find_invalid_utf8(std::string_view text);

}  // namespace core
