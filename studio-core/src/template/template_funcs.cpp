// The template functions (see template_funcs.h): Go's built-ins with Go's type rules, and dgem's
// helpers with dgem's semantics (dgem's `default` is its own, not sprig's: it replaces nil and
// strings that are empty after trimming white space, and keeps false and 0).
#include "template/template_funcs.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/text.h"
#include "template/go_format.h"

namespace core::tmpl {
namespace {

using json = nlohmann::json;

const std::vector<FunctionInfo>& table() {
    static const std::vector<FunctionInfo> functions = {
        {"and", 1, -1, "and X Y ..."},
        {"default", 2, 2, "default DEFAULT VALUE, or VALUE | default DEFAULT"},
        {"eq", 2, -1, "eq X Y ..."},
        {"ge", 2, 2, "ge X Y"},
        {"gt", 2, 2, "gt X Y"},
        {"html", 0, -1, "html VALUE ..."},
        {"indent", 2, 2, "indent SPACES TEXT"},
        {"index", 1, -1, "index COLLECTION KEY ..."},
        {"js", 0, -1, "js VALUE ..."},
        {"le", 2, 2, "le X Y"},
        {"len", 1, 1, "len VALUE"},
        {"lower", 1, 1, "lower TEXT"},
        {"lt", 2, 2, "lt X Y"},
        {"ne", 2, 2, "ne X Y"},
        {"not", 1, 1, "not VALUE"},
        {"or", 1, -1, "or X Y ..."},
        {"print", 0, -1, "print VALUE ..."},
        {"printf", 1, -1, "printf FORMAT VALUE ..."},
        {"println", 0, -1, "println VALUE ..."},
        {"slice", 1, 4, "slice VALUE [START [END [MAX]]]"},
        {"toJson", 1, 1, "toJson VALUE"},
        {"toPrettyJson", 1, 1, "toPrettyJson VALUE"},
        {"trim", 1, 1, "trim TEXT"},
        {"upper", 1, 1, "upper TEXT"},
        {"urlquery", 0, -1, "urlquery VALUE ..."},
    };
    return functions;
}

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

std::string type_of(const Value& v) {
    return v.is_nil() ? "nil" : go_type_name(v.json);
}

const std::string& want_string(const Value& v) {
    if (v.is_nil()) fail("invalid value; expected string");
    if (!v.json.is_string()) fail("wrong type for value; expected string; got " + type_of(v));
    return v.json.get_ref<const std::string&>();
}

int64_t want_int(const Value& v) {
    if (v.is_nil()) fail("invalid value; expected int");
    if (!v.json.is_number_integer()) fail("wrong type for value; expected int; got " + type_of(v));
    if (v.json.is_number_unsigned() && v.json.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        fail("value out of range for int");
    }
    return v.json.get<int64_t>();
}

std::vector<json> jsons(const std::vector<Value>& args, size_t from = 0) {
    std::vector<json> out;
    for (size_t k = from; k < args.size(); ++k)
        out.push_back(args[k].missing ? json() : args[k].json);
    return out;
}

// The text the escaper functions (html, js, urlquery) escape: one string as is, else Sprint.
std::string escaper_text(const std::vector<Value>& args) {
    if (args.size() == 1 && args[0].json.is_string() && !args[0].missing) {
        return args[0].json.get<std::string>();
    }
    return go_sprint_all(jsons(args));
}

enum class Kind { Nil, Bool, Number, String, Other };
Kind kind_of(const Value& v) {
    if (v.is_nil()) return Kind::Nil;
    if (v.json.is_boolean()) return Kind::Bool;
    if (v.json.is_number()) return Kind::Number;
    if (v.json.is_string()) return Kind::String;
    return Kind::Other;
}

// -1, 0, 1 for numbers of any JSON representation (exact for integers).
int compare_numbers(const json& a, const json& b) {
    if (a.is_number_integer() && b.is_number_integer()) {
        const bool au = a.is_number_unsigned(), bu = b.is_number_unsigned();
        if (!au && !bu) {
            const int64_t x = a.get<int64_t>(), y = b.get<int64_t>();
            return x < y ? -1 : (x > y ? 1 : 0);
        }
        if (au && bu) {
            const uint64_t x = a.get<uint64_t>(), y = b.get<uint64_t>();
            return x < y ? -1 : (x > y ? 1 : 0);
        }
        if (au) {  // a unsigned, b signed
            const int64_t y = b.get<int64_t>();
            if (y < 0) return 1;
            const uint64_t x = a.get<uint64_t>();
            return x < static_cast<uint64_t>(y) ? -1 : (x > static_cast<uint64_t>(y) ? 1 : 0);
        }
        return -compare_numbers(b, a);
    }
    const double x = a.get<double>(), y = b.get<double>();
    return x < y ? -1 : (x > y ? 1 : 0);
}

bool equal(const Value& a, const Value& b) {
    const Kind ka = kind_of(a), kb = kind_of(b);
    if (ka == Kind::Other || kb == Kind::Other) fail("invalid type for comparison");
    if (ka == Kind::Nil || kb == Kind::Nil) return ka == kb;
    if (ka != kb) fail("incompatible types for comparison");
    switch (ka) {
        case Kind::Bool:
            return a.json.get<bool>() == b.json.get<bool>();
        case Kind::Number:
            return compare_numbers(a.json, b.json) == 0;
        default:
            return a.json.get_ref<const std::string&>() == b.json.get_ref<const std::string&>();
    }
}

int order(const Value& a, const Value& b) {
    const Kind ka = kind_of(a), kb = kind_of(b);
    if (ka == Kind::Other || kb == Kind::Other || ka == Kind::Nil || kb == Kind::Nil ||
        ka == Kind::Bool || kb == Kind::Bool) {
        fail("invalid type for comparison");
    }
    if (ka != kb) fail("incompatible types for comparison");
    if (ka == Kind::Number) return compare_numbers(a.json, b.json);
    const int c =
        a.json.get_ref<const std::string&>().compare(b.json.get_ref<const std::string&>());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

Value index_value(const Value& item, const std::vector<Value>& keys) {
    if (item.is_nil()) fail("index of untyped nil");
    json current = item.json;
    for (const Value& key : keys) {
        if (current.is_array() || current.is_string()) {
            if (key.is_nil() || !key.json.is_number_integer()) {
                fail("cannot index slice/array with type " + type_of(key));
            }
            const int64_t i = key.json.is_number_unsigned() ? INT64_MAX : key.json.get<int64_t>();
            const size_t size =
                current.is_array() ? current.size() : current.get_ref<const std::string&>().size();
            if (i < 0 || static_cast<size_t>(i) >= size) {
                fail("index out of range: " + go_sprint(key.json));
            }
            if (current.is_array()) {
                json next = current[static_cast<size_t>(i)];
                current = std::move(next);
            } else {
                current = static_cast<int64_t>(static_cast<unsigned char>(
                    current.get_ref<const std::string&>()[static_cast<size_t>(i)]));
            }
        } else if (current.is_object()) {
            if (key.is_nil() || !key.json.is_string()) {
                fail("value has type " + type_of(key) + "; should be string");
            }
            auto it = current.find(key.json.get<std::string>());
            json next = it == current.end() ? json() : *it;
            current = std::move(next);
        } else if (current.is_null()) {
            fail("index of nil pointer");
        } else {
            fail("can't index item of type " + go_type_name(current));
        }
    }
    return Value{current, false};
}

Value slice_value(const std::vector<Value>& args) {
    const Value& item = args[0];
    if (item.is_nil()) fail("slice of untyped nil");
    const bool is_string = item.json.is_string();
    if (!is_string && !item.json.is_array()) fail("can't slice item of type " + type_of(item));
    const size_t size =
        is_string ? item.json.get_ref<const std::string&>().size() : item.json.size();
    if (is_string && args.size() == 4) fail("cannot 3-index slice a string");
    std::vector<int64_t> idx;
    for (size_t k = 1; k < args.size(); ++k) {
        const int64_t v = want_int(args[k]);
        if (v < 0 || static_cast<size_t>(v) > size)
            fail("index out of range: " + std::to_string(v));
        idx.push_back(v);
    }
    const size_t begin = idx.size() > 0 ? static_cast<size_t>(idx[0]) : 0;
    const size_t end = idx.size() > 1 ? static_cast<size_t>(idx[1]) : size;
    if (begin > end)
        fail("invalid slice index: " + std::to_string(begin) + " > " + std::to_string(end));
    if (idx.size() > 2 && static_cast<size_t>(idx[2]) < end) {
        fail("invalid slice index: " + std::to_string(end) + " > " + std::to_string(idx[2]));
    }
    if (is_string)
        return Value{item.json.get_ref<const std::string&>().substr(begin, end - begin), false};
    json out = json::array();
    for (size_t k = begin; k < end; ++k) out.push_back(item.json[k]);
    return Value{out, false};
}

std::string js_escape(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        int size = 1;
        const char32_t r = decode_utf8(s, i, size);
        const auto hex4 = [&](char32_t v) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(v));
            out += buf;
        };
        switch (r) {
            case '\\':
                out += "\\\\";
                break;
            case '\'':
                out += "\\'";
                break;
            case '"':
                out += "\\\"";
                break;
            case '<':
            case '>':
            case '&':
            case '=':
                hex4(r);
                break;
            default:
                if (r < ' ' || (r >= 0x80 && !go_is_print(r))) {
                    hex4(r);
                } else {
                    out.append(s, i, static_cast<size_t>(size));
                }
        }
        i += static_cast<size_t>(size);
    }
    return out;
}

std::string url_query_escape(const std::string& s) {
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

Value text(std::string s) {
    return Value{json(std::move(s)), false};
}

}  // namespace

const FunctionInfo* find_function(std::string_view name) {
    for (const auto& f : table()) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

const std::string& supported_function_list() {
    static const std::string list = [] {
        std::string s;
        for (const auto& f : table()) {
            if (!s.empty()) s += ", ";
            s += f.name;
        }
        return s;
    }();
    return list;
}

bool truth(const Value& v) {
    if (v.missing) return false;
    const json& j = v.json;
    switch (j.type()) {
        case json::value_t::boolean:
            return j.get<bool>();
        case json::value_t::number_integer:
            return j.get<int64_t>() != 0;
        case json::value_t::number_unsigned:
            return j.get<uint64_t>() != 0;
        case json::value_t::number_float:
            return j.get<double>() != 0;
        case json::value_t::string:
            return !j.get_ref<const std::string&>().empty();
        case json::value_t::array:
        case json::value_t::object:
            return !j.empty();
        default:
            return false;
    }
}

Value call_function(const FunctionInfo& fn, const std::vector<Value>& args) {
    const std::string_view name = fn.name;
    if (name == "not") return Value{!truth(args[0]), false};
    if (name == "and" || name == "or") {
        for (const Value& a : args) {
            if (truth(a) == (name == "or")) return a;
        }
        return args.back();
    }
    if (name == "len") {
        const Value& v = args[0];
        if (v.is_nil()) fail("len of nil");
        if (v.json.is_string())
            return Value{static_cast<int64_t>(v.json.get_ref<const std::string&>().size()), false};
        if (v.json.is_array() || v.json.is_object())
            return Value{static_cast<int64_t>(v.json.size()), false};
        fail("len of type " + type_of(v));
    }
    if (name == "index")
        return index_value(args[0], std::vector<Value>(args.begin() + 1, args.end()));
    if (name == "slice") return slice_value(args);
    if (name == "print") return text(go_sprint_all(jsons(args)));
    if (name == "println") return text(go_sprintln_all(jsons(args)));
    if (name == "printf") return text(go_sprintf(want_string(args[0]), jsons(args, 1)));
    if (name == "eq") {
        for (size_t k = 1; k < args.size(); ++k) {
            if (equal(args[0], args[k])) return Value{true, false};
        }
        return Value{false, false};
    }
    if (name == "ne") return Value{!equal(args[0], args[1]), false};
    if (name == "lt") return Value{order(args[0], args[1]) < 0, false};
    if (name == "le") return Value{order(args[0], args[1]) <= 0, false};
    if (name == "gt") return Value{order(args[0], args[1]) > 0, false};
    if (name == "ge") return Value{order(args[0], args[1]) >= 0, false};
    if (name == "html")
        return text(base::html_escape(escaper_text(args), base::HtmlEscaping::GoTemplate));
    if (name == "js") return text(js_escape(escaper_text(args)));
    if (name == "urlquery") return text(url_query_escape(escaper_text(args)));
    if (name == "toJson") return text(go_json(args[0].missing ? json() : args[0].json));
    if (name == "toPrettyJson") return text(go_json(args[0].missing ? json() : args[0].json, "  "));
    if (name == "default") {
        const Value& fallback = args[0];
        const Value& value = args[1];
        if (value.is_nil()) return fallback.missing ? Value{json(), false} : fallback;
        if (value.json.is_string() &&
            go_trim_space(value.json.get_ref<const std::string&>()).empty()) {
            return fallback.missing ? Value{json(), false} : fallback;
        }
        return value;
    }
    if (name == "indent") {
        const int64_t spaces = want_int(args[0]);
        if (spaces < 0 || spaces > 1000) fail("indent: spaces must be 0 to 1000");
        const std::string& s = want_string(args[1]);
        const std::string pad(static_cast<size_t>(spaces), ' ');
        std::string out;
        size_t start = 0;
        for (;;) {
            const size_t nl = s.find('\n', start);
            const std::string_view line = std::string_view(s).substr(
                start, nl == std::string::npos ? std::string::npos : nl - start);
            if (!line.empty()) out += pad;
            out.append(line);
            if (nl == std::string::npos) break;
            out += '\n';
            start = nl + 1;
        }
        return text(std::move(out));
    }
    if (name == "upper" || name == "lower") {
        const QString s = QString::fromStdString(want_string(args[0]));
        return text((name == "upper" ? s.toUpper() : s.toLower()).toStdString());
    }
    if (name == "trim") return text(go_trim_space(want_string(args[0])));
    fail("function \"" + std::string(name) + "\" is not implemented");
}

}  // namespace core::tmpl
