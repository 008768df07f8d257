// Go's formatting rules for JSON values (see go_format.h). Written from Go's documented
// behaviour of fmt, strconv and encoding/json.
#include "template/go_format.h"

#include <QChar>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace core::tmpl {
namespace {

constexpr int kMaxFormatDepth = 1000;
constexpr char kLowerHex[] = "0123456789abcdef";
constexpr char kUpperHex[] = "0123456789ABCDEF";

void check_depth(int depth) {
    if (depth > kMaxFormatDepth) {
        throw FormatDepthError("value nested more than " + std::to_string(kMaxFormatDepth) +
                               " levels deep");
    }
}

// Shortest round-trip digits of a finite double in scientific form ("1.5e+06") and its
// decimal exponent.
std::string shortest_scientific(double value, int& exponent) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string s(buf, res.ptr);
    const size_t e = s.find('e');
    exponent = e == std::string::npos ? 0 : std::atoi(s.c_str() + e + 1);
    return s;
}

std::string shortest_fixed(double value) {
    char buf[400];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
    return std::string(buf, res.ptr);
}

std::string non_finite(double value) {
    if (std::isnan(value)) return "NaN";
    return value > 0 ? "+Inf" : "-Inf";
}

int rune_count(std::string_view s) {
    int n = 0;
    for (size_t i = 0; i < s.size();) {
        int size = 1;
        decode_utf8(s, i, size);
        i += size;
        ++n;
    }
    return n;
}

struct Spec {
    bool plus = false, minus = false, sharp = false, space = false, zero = false;
    int width = -1;
    int precision = -1;
};

// Pads to the width (counted in runes, as fmt does); zeros go after a sign.
std::string pad(std::string s, const Spec& spec, bool numeric) {
    if (spec.width < 0) return s;
    const int n = rune_count(s);
    if (n >= spec.width) return s;
    const size_t fill = static_cast<size_t>(spec.width - n);
    if (spec.minus) return s + std::string(fill, ' ');
    if (spec.zero && numeric) {
        size_t at = (!s.empty() && (s[0] == '+' || s[0] == '-' || s[0] == ' ')) ? 1 : 0;
        s.insert(at, std::string(fill, '0'));
        return s;
    }
    return std::string(fill, ' ') + s;
}

std::string integer_text(const nlohmann::json& v, int base, bool upper, const Spec& spec) {
    const bool negative = v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0;
    uint64_t magnitude = 0;
    if (v.is_number_unsigned()) {
        magnitude = v.get<uint64_t>();
    } else {
        const int64_t x = v.get<int64_t>();
        magnitude = x < 0 ? static_cast<uint64_t>(-(x + 1)) + 1 : static_cast<uint64_t>(x);
    }
    std::string digits;
    const char* hex = upper ? kUpperHex : kLowerHex;
    do {
        digits.insert(digits.begin(), hex[magnitude % static_cast<uint64_t>(base)]);
        magnitude /= static_cast<uint64_t>(base);
    } while (magnitude != 0);
    if (spec.precision >= 0 && static_cast<int>(digits.size()) < spec.precision) {
        digits.insert(0, static_cast<size_t>(spec.precision) - digits.size(), '0');
    }
    if (spec.precision == 0 && digits == "0") digits.clear();
    if (spec.sharp) {
        if (base == 16) digits.insert(0, upper ? "0X" : "0x");
        if (base == 8 && (digits.empty() || digits[0] != '0')) digits.insert(0, "0");
        if (base == 2) digits.insert(0, "0b");
    }
    if (negative) return "-" + digits;
    if (spec.plus) return "+" + digits;
    if (spec.space) return " " + digits;
    return digits;
}

std::string float_text(double value, char verb, const Spec& spec) {
    std::string s;
    if (!std::isfinite(value)) {
        s = non_finite(value);
    } else if ((verb == 'v' || verb == 'g' || verb == 'G') && spec.precision < 0) {
        s = go_format_float_shortest_g(value);
        if (verb == 'G') {
            for (char& c : s) c = c == 'e' ? 'E' : c;
        }
    } else {
        const char conv = verb == 'v' ? 'g' : (verb == 'F' ? 'f' : verb);
        const int precision = spec.precision >= 0 ? spec.precision : 6;
        char fmt[16];
        std::snprintf(fmt, sizeof fmt, "%%%s.%d%c", spec.sharp ? "#" : "", precision, conv);
        char buf[512];
        std::snprintf(buf, sizeof buf, fmt, value);
        s = buf;
    }
    if (s[0] != '-' && s[0] != '+') {
        if (spec.plus) {
            s = "+" + s;
        } else if (spec.space) {
            s = " " + s;
        }
    } else if (s[0] == '+' && !spec.plus) {
        s = s.substr(1);  // +Inf prints as +Inf only with the plus flag
        if (s == "Inf") s = "+Inf";
    }
    return s;
}

std::string bad_verb(char32_t verb, const nlohmann::json& value) {
    std::string s = "%!";
    append_utf8(s, verb);
    if (value.is_null()) return s + "(<nil>)";
    return s + "(" + go_type_name(value) + "=" + go_sprint(value) + ")";
}

std::string format_value(const nlohmann::json& v, char32_t verb, const Spec& spec, int depth);

std::string format_composite(const nlohmann::json& v, char32_t verb, const Spec& spec, int depth) {
    check_depth(depth);
    std::string out;
    if (v.is_array()) {
        out += '[';
        bool first = true;
        for (const auto& e : v) {
            if (!first) out += ' ';
            first = false;
            out += format_value(e, verb, spec, depth + 1);
        }
        out += ']';
        return out;
    }
    out += "map[";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out += ' ';
        first = false;
        out += format_value(nlohmann::json(it.key()), verb, spec, depth + 1);
        out += ':';
        out += format_value(it.value(), verb, spec, depth + 1);
    }
    out += ']';
    return out;
}

// A string under %v/%s (cut to the precision in runes), %q (backquoted under # when it can be)
// or %x/%X (hex of the bytes).
std::string format_string(const nlohmann::json& v, char32_t verb, const Spec& spec) {
    const auto& s = v.get_ref<const std::string&>();
    switch (verb) {
        case 'v':
        case 's': {
            if (spec.precision < 0) return pad(s, spec, false);
            std::string cut;
            int n = 0;
            for (size_t i = 0; i < s.size() && n < spec.precision; ++n) {
                int size = 1;
                decode_utf8(s, i, size);
                cut.append(s, i, static_cast<size_t>(size));
                i += size;
            }
            return pad(cut, spec, false);
        }
        case 'q': {
            bool backquote = spec.sharp && s.find('`') == std::string::npos;
            for (size_t i = 0; backquote && i < s.size();) {
                int size = 1;
                const char32_t r = decode_utf8(s, i, size);
                if ((size == 1 && r == 0xFFFD) || r == 0xFEFF || (r < ' ' && r != '\t') ||
                    r == 0x7F) {
                    backquote = false;
                }
                i += size;
            }
            if (backquote) return pad("`" + s + "`", spec, false);
            return pad(go_quote(s, spec.plus), spec, false);
        }
        case 'x':
        case 'X': {
            const char* hex = verb == 'x' ? kLowerHex : kUpperHex;
            std::string out;
            for (unsigned char c : s) {
                out += hex[c >> 4];
                out += hex[c & 15];
            }
            return pad(out, spec, false);
        }
        default:
            return bad_verb(verb, v);
    }
}

// An integer as a character: %c the rune, %q its single-quoted Go literal, %U "U+0041".
std::string format_rune(const nlohmann::json& v, char32_t verb, const Spec& spec) {
    const bool negative = v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0;
    const uint64_t raw = negative ? 0xFFFFFFFFull : v.get<uint64_t>();
    char32_t r = raw > 0x10FFFF ? 0xFFFD : static_cast<char32_t>(raw);
    if (verb == 'U') {
        char buf[32];
        std::snprintf(buf, sizeof buf, "U+%04llX", static_cast<unsigned long long>(raw));
        return pad(buf, spec, false);
    }
    if (r >= 0xD800 && r <= 0xDFFF) r = 0xFFFD;
    if (verb == 'c') {
        std::string out;
        append_utf8(out, r);
        return pad(out, spec, false);
    }
    if (raw > 0x10FFFF) return bad_verb(verb, v);
    std::string out = "'";
    std::string one;
    append_utf8(one, r);
    if (r == '\'') {
        out += "\\'";
    } else if (r == '"') {
        out += '"';
    } else {
        const std::string quoted = go_quote(one, spec.plus);
        out += quoted.substr(1, quoted.size() - 2);
    }
    out += "'";
    return pad(out, spec, false);
}

// An integer under %v/%d, %b, %o, %O, %x/%X, or as a character (format_rune).
std::string format_integer(const nlohmann::json& v, char32_t verb, const Spec& spec) {
    switch (verb) {
        case 'v':
        case 'd':
            return pad(integer_text(v, 10, false, spec), spec, spec.precision < 0);
        case 'b':
            return pad(integer_text(v, 2, false, spec), spec, spec.precision < 0);
        case 'o':
            return pad(integer_text(v, 8, false, spec), spec, spec.precision < 0);
        case 'O': {
            Spec plain = spec;
            plain.sharp = false;
            std::string digits = integer_text(v, 8, false, plain);
            const size_t at = (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) ? 1 : 0;
            digits.insert(at, "0o");
            return pad(digits, spec, spec.precision < 0);
        }
        case 'x':
            return pad(integer_text(v, 16, false, spec), spec, spec.precision < 0);
        case 'X':
            return pad(integer_text(v, 16, true, spec), spec, spec.precision < 0);
        case 'c':
        case 'q':
        case 'U':
            return format_rune(v, verb, spec);
        default:
            return bad_verb(verb, v);
    }
}

// A float under %v, %g/%G, %e/%E or %f/%F.
std::string format_float(const nlohmann::json& v, char32_t verb, const Spec& spec) {
    switch (verb) {
        case 'v':
        case 'g':
        case 'G':
        case 'e':
        case 'E':
        case 'f':
        case 'F':
            return pad(float_text(v.get<double>(), static_cast<char>(verb), spec), spec,
                       std::isfinite(v.get<double>()));
        default:
            return bad_verb(verb, v);
    }
}

std::string format_value(const nlohmann::json& v, char32_t verb, const Spec& spec, int depth) {
    if (verb == 'T') return pad(go_type_name(v), spec, false);
    switch (v.type()) {
        case nlohmann::json::value_t::null:
        case nlohmann::json::value_t::discarded:
            if (verb == 'v') return pad("<nil>", spec, false);
            return bad_verb(verb, v);
        case nlohmann::json::value_t::string:
            return format_string(v, verb, spec);
        case nlohmann::json::value_t::boolean:
            if (verb == 'v' || verb == 't')
                return pad(v.get<bool>() ? "true" : "false", spec, false);
            return bad_verb(verb, v);
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
            return format_integer(v, verb, spec);
        case nlohmann::json::value_t::number_float:
            return format_float(v, verb, spec);
        case nlohmann::json::value_t::array:
        case nlohmann::json::value_t::object:
            return format_composite(v, verb, spec, depth);
        case nlohmann::json::value_t::binary:
            break;
    }
    return bad_verb(verb, v);
}

void append_json_string(std::string& out, std::string_view s) {
    out += '"';
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            switch (c) {
                case '"':
                    out += "\\\"";
                    break;
                case '\\':
                    out += "\\\\";
                    break;
                case '\b':
                    out += "\\b";
                    break;
                case '\f':
                    out += "\\f";
                    break;
                case '\n':
                    out += "\\n";
                    break;
                case '\r':
                    out += "\\r";
                    break;
                case '\t':
                    out += "\\t";
                    break;
                case '<':
                case '>':
                case '&':
                    out += "\\u00";
                    out += kLowerHex[c >> 4];
                    out += kLowerHex[c & 15];
                    break;
                default:
                    if (c < 0x20) {
                        out += "\\u00";
                        out += kLowerHex[c >> 4];
                        out += kLowerHex[c & 15];
                    } else {
                        out += static_cast<char>(c);
                    }
            }
            ++i;
            continue;
        }
        int size = 1;
        const char32_t r = decode_utf8(s, i, size);
        if (size == 1) {
            out += "\\ufffd";
        } else if (r == 0x2028 || r == 0x2029) {
            out += r == 0x2028 ? "\\u2028" : "\\u2029";
        } else {
            out.append(s.substr(i, static_cast<size_t>(size)));
        }
        i += size;
    }
    out += '"';
}

std::string json_float(double value) {
    if (!std::isfinite(value)) return "null";  // Go refuses; a template can't make one anyway
    const double magnitude = std::fabs(value);
    if (magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21)) {
        int exponent = 0;
        std::string s = shortest_scientific(value, exponent);
        // encoding/json writes e-7, not e-07.
        const size_t n = s.size();
        if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') {
            s.erase(n - 2, 1);
        }
        return s;
    }
    return shortest_fixed(value);
}

void append_json(std::string& out, const nlohmann::json& v, std::string_view indent, int depth) {
    check_depth(depth);
    const auto newline = [&](int level) {
        if (indent.empty()) return;
        out += '\n';
        for (int k = 0; k < level; ++k) out.append(indent);
    };
    switch (v.type()) {
        case nlohmann::json::value_t::null:
        case nlohmann::json::value_t::discarded:
        case nlohmann::json::value_t::binary:
            out += "null";
            return;
        case nlohmann::json::value_t::boolean:
            out += v.get<bool>() ? "true" : "false";
            return;
        case nlohmann::json::value_t::number_integer:
            out += std::to_string(v.get<int64_t>());
            return;
        case nlohmann::json::value_t::number_unsigned:
            out += std::to_string(v.get<uint64_t>());
            return;
        case nlohmann::json::value_t::number_float:
            out += json_float(v.get<double>());
            return;
        case nlohmann::json::value_t::string:
            append_json_string(out, v.get_ref<const std::string&>());
            return;
        case nlohmann::json::value_t::array: {
            out += '[';
            bool first = true;
            for (const auto& e : v) {
                if (!first) out += ',';
                first = false;
                newline(depth + 1);
                append_json(out, e, indent, depth + 1);
            }
            if (!v.empty()) newline(depth);
            out += ']';
            return;
        }
        case nlohmann::json::value_t::object: {
            out += '{';
            bool first = true;
            for (auto it = v.begin(); it != v.end(); ++it) {
                if (!first) out += ',';
                first = false;
                newline(depth + 1);
                append_json_string(out, it.key());
                out += indent.empty() ? ":" : ": ";
                append_json(out, it.value(), indent, depth + 1);
            }
            if (!v.empty()) newline(depth);
            out += '}';
            return;
        }
    }
}

bool is_go_space(char32_t r) {
    switch (r) {
        case '\t':
        case '\n':
        case '\v':
        case '\f':
        case '\r':
        case ' ':
        case 0x85:
        case 0xA0:
        case 0x1680:
        case 0x2028:
        case 0x2029:
        case 0x202F:
        case 0x205F:
        case 0x3000:
            return true;
        default:
            return r >= 0x2000 && r <= 0x200A;
    }
}

}  // namespace

char32_t decode_utf8(std::string_view s, size_t i, int& size) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    size = 1;
    if (c < 0x80) return c;
    int need = 0;
    char32_t r = 0;
    char32_t min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1, r = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2, r = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3, r = c & 0x07, min = 0x10000;
    } else {
        return 0xFFFD;
    }
    if (i + static_cast<size_t>(need) >= s.size()) return 0xFFFD;  // truncated sequence
    for (int k = 1; k <= need; ++k) {
        const unsigned char cc = byte(i + static_cast<size_t>(k));
        if ((cc & 0xC0) != 0x80) return 0xFFFD;
        r = (r << 6) | (cc & 0x3F);
    }
    if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) return 0xFFFD;
    size = need + 1;
    return r;
}

void append_utf8(std::string& out, char32_t r) {
    if (r < 0x80) {
        out += static_cast<char>(r);
    } else if (r < 0x800) {
        out += static_cast<char>(0xC0 | (r >> 6));
        out += static_cast<char>(0x80 | (r & 0x3F));
    } else if (r < 0x10000) {
        out += static_cast<char>(0xE0 | (r >> 12));
        out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (r & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (r >> 18));
        out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (r & 0x3F));
    }
}

bool go_is_print(char32_t r) {
    if (r <= 0xFF) {
        if (r >= 0x20 && r <= 0x7E) return true;
        if (r >= 0xA1 && r <= 0xFF) return r != 0xAD;
        return false;
    }
    if (r > 0x10FFFF) return false;
    switch (QChar::category(r)) {
        case QChar::Separator_Space:
        case QChar::Separator_Line:
        case QChar::Separator_Paragraph:
        case QChar::Other_Control:
        case QChar::Other_Format:
        case QChar::Other_Surrogate:
        case QChar::Other_PrivateUse:
        case QChar::Other_NotAssigned:
            return false;
        default:
            return true;
    }
}

std::string go_quote(std::string_view s, bool ascii_only) {
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        int size = 1;
        const char32_t r = decode_utf8(s, i, size);
        if (size == 1 && r == 0xFFFD) {
            const unsigned char c = static_cast<unsigned char>(s[i]);
            out += "\\x";
            out += kLowerHex[c >> 4];
            out += kLowerHex[c & 15];
            i += 1;
            continue;
        }
        i += static_cast<size_t>(size);
        if (r == '"' || r == '\\') {
            out += '\\';
            out += static_cast<char>(r);
            continue;
        }
        if (ascii_only ? (r < 0x80 && go_is_print(r)) : go_is_print(r)) {
            append_utf8(out, r);
            continue;
        }
        switch (r) {
            case '\a':
                out += "\\a";
                continue;
            case '\b':
                out += "\\b";
                continue;
            case '\f':
                out += "\\f";
                continue;
            case '\n':
                out += "\\n";
                continue;
            case '\r':
                out += "\\r";
                continue;
            case '\t':
                out += "\\t";
                continue;
            case '\v':
                out += "\\v";
                continue;
            default:
                break;
        }
        char buf[16];
        if (r < ' ' || r == 0x7F) {
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(r));
        } else if (r < 0x10000) {
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(r));
        } else {
            std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(r));
        }
        out += buf;
    }
    out += '"';
    return out;
}

std::string go_format_float_shortest_g(double value) {
    if (!std::isfinite(value)) return non_finite(value);
    if (value == 0) return std::signbit(value) ? "-0" : "0";
    int exponent = 0;
    std::string scientific = shortest_scientific(value, exponent);
    if (exponent < -4 || exponent >= 6) return scientific;
    return shortest_fixed(value);
}

std::string go_type_name(const nlohmann::json& v) {
    switch (v.type()) {
        case nlohmann::json::value_t::string:
            return "string";
        case nlohmann::json::value_t::boolean:
            return "bool";
        case nlohmann::json::value_t::number_integer:
            return "int";
        case nlohmann::json::value_t::number_unsigned:
            return "uint64";
        case nlohmann::json::value_t::number_float:
            return "float64";
        case nlohmann::json::value_t::array:
            return "[]interface {}";
        case nlohmann::json::value_t::object:
            return "map[string]interface {}";
        default:
            return "<nil>";
    }
}

std::string go_sprint(const nlohmann::json& value) {
    return format_value(value, 'v', Spec{}, 0);
}

std::string go_sprint_all(const std::vector<nlohmann::json>& values) {
    std::string out;
    bool previous_string = false;
    for (size_t k = 0; k < values.size(); ++k) {
        const bool is_string = values[k].is_string();
        if (k > 0 && !is_string && !previous_string) out += ' ';
        out += go_sprint(values[k]);
        previous_string = is_string;
    }
    return out;
}

std::string go_sprintln_all(const std::vector<nlohmann::json>& values) {
    std::string out;
    for (size_t k = 0; k < values.size(); ++k) {
        if (k > 0) out += ' ';
        out += go_sprint(values[k]);
    }
    out += '\n';
    return out;
}

namespace {

// One run of fmt.Sprintf: walks the format once, consuming arguments as its directives ask, and
// reports misuse inline the way Go does (%!(BADINDEX), %!(MISSING), %!(EXTRA ...), ...).
class Sprintf {
  public:
    Sprintf(std::string_view format, const std::vector<nlohmann::json>& args)
        : format_(format), args_(args) {}

    std::string run() {
        while (i_ < format_.size()) {
            const char c = format_[i_];
            if (c != '%') {
                out_ += c;
                ++i_;
                continue;
            }
            ++i_;
            if (!directive()) break;
        }
        append_extra();
        return std::move(out_);
    }

  private:
    // A decimal number at `i` (clamped to a million); false when there is none.
    bool read_int(size_t& i, int& value) const {
        bool any = false;
        value = 0;
        while (i < format_.size() && format_[i] >= '0' && format_[i] <= '9') {
            value = std::min(value * 10 + (format_[i] - '0'), 1000000);
            ++i;
            any = true;
        }
        return any;
    }

    // A width or precision given by '*': the next argument, when it is an integer.
    bool star(int& value) {
        if (arg_ < args_.size() && args_[arg_].is_number_integer()) {
            value = static_cast<int>(
                std::clamp<int64_t>(args_[arg_].get<int64_t>(), -1000000, 1000000));
            ++arg_;
            return true;
        }
        ++arg_;
        return false;
    }

    Spec read_flags() {
        Spec spec;
        for (; i_ < format_.size(); ++i_) {
            const char f = format_[i_];
            if (f == '+') {
                spec.plus = true;
            } else if (f == '-') {
                spec.minus = true;
            } else if (f == '#') {
                spec.sharp = true;
            } else if (f == ' ') {
                spec.space = true;
            } else if (f == '0') {
                spec.zero = !spec.minus;
            } else {
                break;
            }
        }
        return spec;
    }

    // An explicit argument index "[n]", when there is one; false (after writing %!(BADINDEX) and
    // skipping past the ']') when it is malformed.
    bool arg_index() {
        if (i_ >= format_.size() || format_[i_] != '[') return true;
        size_t j = i_ + 1;
        int n = 0;
        if (read_int(j, n) && j < format_.size() && format_[j] == ']' && n >= 1) {
            arg_ = static_cast<size_t>(n - 1);
            reordered_ = true;
            i_ = j + 1;
            return true;
        }
        out_ += "%!(BADINDEX)";
        const size_t close = format_.find(']', i_);
        i_ = close == std::string_view::npos ? format_.size() : close + 1;
        return false;
    }

    void read_width(Spec& spec) {
        if (i_ < format_.size() && format_[i_] == '*') {
            ++i_;
            if (!star(spec.width)) out_ += "%!(BADWIDTH)";
            if (spec.width < 0) {
                spec.minus = true;
                spec.width = -spec.width;
            }
        } else {
            int w = 0;
            if (read_int(i_, w)) spec.width = w;
        }
    }

    void read_precision(Spec& spec) {
        if (i_ < format_.size() && format_[i_] == '*') {
            ++i_;
            if (!star(spec.precision) || spec.precision < 0) {
                spec.precision = -1;
                out_ += "%!(BADPREC)";
            }
        } else {
            int p = 0;
            read_int(i_, p);
            spec.precision = p;
        }
    }

    // One directive, `i_` just after its '%'; false when the format ends before its verb.
    bool directive() {
        Spec spec = read_flags();
        if (!arg_index()) return true;
        read_width(spec);
        if (i_ < format_.size() && format_[i_] == '.') {
            ++i_;
            if (!arg_index()) return true;
            read_precision(spec);
        }
        if (!arg_index()) return true;
        if (i_ >= format_.size()) {
            out_ += "%!(NOVERB)";
            return false;
        }
        int size = 1;
        const char32_t verb = decode_utf8(format_, i_, size);
        i_ += static_cast<size_t>(size);
        if (verb == '%') {
            out_ += '%';
            return true;
        }
        if (arg_ >= args_.size()) {
            out_ += "%!";
            append_utf8(out_, verb);
            out_ += "(MISSING)";
            return true;
        }
        out_ += format_value(args_[arg_], verb, spec, 0);
        ++arg_;
        return true;
    }

    // Arguments no directive used, unless the format chose its arguments by index.
    void append_extra() {
        if (reordered_ || arg_ >= args_.size()) return;
        out_ += "%!(EXTRA ";
        for (size_t k = arg_; k < args_.size(); ++k) {
            if (k > arg_) out_ += ", ";
            if (args_[k].is_null()) {
                out_ += "<nil>";
            } else {
                out_ += go_type_name(args_[k]) + "=" + go_sprint(args_[k]);
            }
        }
        out_ += ")";
    }

    std::string_view format_;
    const std::vector<nlohmann::json>& args_;
    std::string out_;
    size_t i_ = 0;    // the next byte of the format
    size_t arg_ = 0;  // the next argument
    bool reordered_ = false;
};

}  // namespace

std::string go_sprintf(std::string_view format, const std::vector<nlohmann::json>& args) {
    return Sprintf(format, args).run();
}

std::string go_json(const nlohmann::json& value, std::string_view indent) {
    std::string out;
    append_json(out, value, indent, 0);
    return out;
}

std::string go_trim_space(std::string_view s) {
    size_t begin = 0;
    while (begin < s.size()) {
        int size = 1;
        const char32_t r = decode_utf8(s, begin, size);
        if ((size == 1 && r == 0xFFFD && static_cast<unsigned char>(s[begin]) >= 0x80) ||
            !is_go_space(r)) {
            break;
        }
        begin += static_cast<size_t>(size);
    }
    size_t end = s.size();
    while (end > begin) {
        // Step back to the start of the last rune.
        size_t start = end - 1;
        while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80 &&
               end - start < 4) {
            --start;
        }
        int size = 1;
        const char32_t r = decode_utf8(s, start, size);
        if (start + static_cast<size_t>(size) != end) {
            break;  // an invalid byte at the end: not a space
        }
        if (!is_go_space(r)) break;
        end = start;
    }
    return std::string(s.substr(begin, end - begin));
}

}  // namespace core::tmpl
