// The JSON Schema subset of the tools' inputSchemas, checked on their arguments.
#include "mcp/argument_check.h"

#include <cmath>

namespace core::mcp {
namespace {

using nlohmann::json;

bool is_integer(const json& v) {
    if (v.is_number_integer() || v.is_number_unsigned()) return true;
    if (!v.is_number_float()) return false;
    const double d = v.get<double>();
    return std::isfinite(d) && d == std::floor(d);
}

bool has_type(const json& v, const std::string& type) {
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "integer") return is_integer(v);
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_boolean();
    if (type == "null") return v.is_null();
    return true;
}

std::string a_type(const std::string& type) {
    if (type == "object" || type == "array" || type == "integer") return "an " + type;
    return "a " + type;
}

std::string short_text(const json& v) {
    std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

std::string at(const std::string& path) {
    return path.empty() ? "arguments" : path;
}

std::string join_path(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

std::string number_text(const json& n) {
    if (is_integer(n)) return std::to_string(static_cast<long long>(n.get<double>()));
    return short_text(n);
}

}  // namespace

std::string describe_value(const json& v) {
    switch (v.type()) {
        case json::value_t::object:
            return "an object";
        case json::value_t::array:
            return "an array";
        case json::value_t::string:
            return "the string " + short_text(v);
        case json::value_t::boolean:
            return v.get<bool>() ? "true" : "false";
        case json::value_t::null:
            return "null";
        default:
            return "the number " + short_text(v);
    }
}

std::optional<std::string> check_arguments(const json& value, const json& schema,
                                           const std::string& path) {
    if (!schema.is_object()) return std::nullopt;
    if (auto t = schema.find("type"); t != schema.end() && t->is_string()) {
        const std::string type = t->get<std::string>();
        if (!has_type(value, type))
            return at(path) + " must be " + a_type(type) + ", not " + describe_value(value);
    }
    if (auto e = schema.find("enum"); e != schema.end() && e->is_array()) {
        bool found = false;
        std::string accepted;
        for (const auto& option : *e) {
            if (option == value) found = true;
            accepted += (accepted.empty() ? "" : ", ") +
                        (option.is_string() ? option.get<std::string>() : short_text(option));
        }
        if (!found)
            return at(path) + ": " + short_text(value) + " is not accepted; accepted: " + accepted;
    }
    if (value.is_string()) {
        const size_t n = value.get_ref<const std::string&>().size();
        if (auto m = schema.find("minLength");
            m != schema.end() && m->is_number() && static_cast<double>(n) < m->get<double>())
            return at(path) + " must not be empty";
        if (auto m = schema.find("maxLength");
            m != schema.end() && m->is_number() && static_cast<double>(n) > m->get<double>())
            return at(path) + " is " + std::to_string(n) + " bytes long; at most " +
                   number_text(*m) + " are accepted";
    }
    if (value.is_number()) {
        const double d = value.get<double>();
        auto lo = schema.find("minimum");
        auto hi = schema.find("maximum");
        const bool below = lo != schema.end() && lo->is_number() && d < lo->get<double>();
        const bool above = hi != schema.end() && hi->is_number() && d > hi->get<double>();
        if (below || above) {
            std::string range;
            if (lo != schema.end() && hi != schema.end())
                range = "from " + number_text(*lo) + " to " + number_text(*hi);
            else if (lo != schema.end())
                range = number_text(*lo) + " or more";
            else
                range = number_text(*hi) + " or less";
            return at(path) + ": " + short_text(value) + " is out of range; accepted: " + range;
        }
    }
    if (value.is_array()) {
        const double n = static_cast<double>(value.size());
        if (auto m = schema.find("minItems");
            m != schema.end() && m->is_number() && n < m->get<double>())
            return at(path) + " needs at least " + number_text(*m) + " item" +
                   (m->get<double>() == 1 ? "" : "s");
        if (auto m = schema.find("maxItems");
            m != schema.end() && m->is_number() && n > m->get<double>())
            return at(path) + " has " + std::to_string(value.size()) + " items; at most " +
                   number_text(*m) + " are accepted";
        if (auto items = schema.find("items"); items != schema.end()) {
            for (size_t i = 0; i < value.size(); ++i) {
                auto problem =
                    check_arguments(value[i], *items, at(path) + "[" + std::to_string(i) + "]");
                if (problem) return problem;
            }
        }
    }
    if (value.is_object()) {
        static const json kNoProperties = json::object();
        auto p = schema.find("properties");
        const json& properties = p != schema.end() && p->is_object() ? *p : kNoProperties;
        if (auto r = schema.find("required"); r != schema.end() && r->is_array()) {
            for (const auto& name : *r) {
                if (name.is_string() && !value.contains(name.get<std::string>())) {
                    std::string what = join_path(path, name.get<std::string>());
                    auto property = properties.find(name.get<std::string>());
                    std::string type;
                    if (property != properties.end() && property->contains("type") &&
                        (*property)["type"].is_string())
                        type = " (" + a_type((*property)["type"].get<std::string>()) + ")";
                    return what + " is required" + type;
                }
            }
        }
        auto extra = schema.find("additionalProperties");
        for (auto it = value.begin(); it != value.end(); ++it) {
            const std::string child = join_path(path, it.key());
            if (auto property = properties.find(it.key()); property != properties.end()) {
                if (auto problem = check_arguments(it.value(), *property, child)) return problem;
            } else if (extra != schema.end() && extra->is_boolean() && !extra->get<bool>()) {
                std::string accepted;
                for (auto q = properties.begin(); q != properties.end(); ++q)
                    accepted += (accepted.empty() ? "" : ", ") + q.key();
                return child + " is not a known argument; accepted: " +
                       (accepted.empty() ? "none" : accepted);
            } else if (extra != schema.end() && extra->is_object()) {
                if (auto problem = check_arguments(it.value(), *extra, child)) return problem;
            }
        }
    }
    return std::nullopt;
}

}  // namespace core::mcp
