#pragma once
// Go's formatting rules for the values a policy template sees (JSON values), so a template
// renders here exactly as dgem renders it: fmt's %v/%q/%d/..., strconv.Quote, encoding/json's
// Marshal/MarshalIndent and strings.TrimSpace.
//
// Type mapping (dgem decodes data into interface{}): string -> string, JSON integer -> int,
// JSON float -> float64, bool -> bool, array -> []interface {}, object -> map[string]interface {},
// null -> nil. Go would see every number from a JSON data file as float64; integers are kept as
// int here so that "%d" prints them, which is what template authors expect.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace core::tmpl {

// Thrown when a value is nested too deeply to format (the data is user input).
struct FormatDepthError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Go type name of a value, as fmt's %T prints it ("string", "float64", "<nil>", ...).
std::string go_type_name(const nlohmann::json& value);

// fmt.Sprint of one value (%v).
std::string go_sprint(const nlohmann::json& value);
// fmt.Sprint of several values: a space between operands when neither is a string.
std::string go_sprint_all(const std::vector<nlohmann::json>& values);
// fmt.Sprintln: always a space between operands, then a newline.
std::string go_sprintln_all(const std::vector<nlohmann::json>& values);
// fmt.Sprintf.
std::string go_sprintf(std::string_view format, const std::vector<nlohmann::json>& args);

// strconv.Quote (with_ascii: strconv.QuoteToASCII).
std::string go_quote(std::string_view text, bool ascii_only = false);
// strconv.FormatFloat(v, 'g', -1, 64): shortest digits; exponent form when the decimal
// exponent is below -4 or at least 6 (fmt prints 1e+06 for a million).
std::string go_format_float_shortest_g(double value);

// encoding/json.Marshal (indent empty) or MarshalIndent(v, "", indent).
std::string go_json(const nlohmann::json& value, std::string_view indent = {});

// strings.TrimSpace (Unicode white space).
std::string go_trim_space(std::string_view text);
// Go's unicode.IsPrint on a code point.
bool go_is_print(char32_t rune);

// Decodes one UTF-8 sequence at text[i]; returns the code point and sets `size` (1 for an
// invalid byte, in which case the result is U+FFFD, as Go's utf8.DecodeRuneInString does).
char32_t decode_utf8(std::string_view text, size_t i, int& size);
void append_utf8(std::string& out, char32_t rune);

}  // namespace core::tmpl
