#pragma once
// The functions a policy template may call: Go text/template's built-ins and the helpers dgem's
// template engine adds (toJson, toPrettyJson, default, indent, upper, lower, trim). dgem does
// not load sprig, so neither do we: a template that renders here renders in dgem.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace core::tmpl {

struct FunctionInfo {
    std::string_view name;
    int min_args;
    int max_args;                // -1: any number
    std::string_view signature;  // for arity errors, e.g. "default DEFAULT VALUE"
};

// nullptr when the template language has no such function.
const FunctionInfo* find_function(std::string_view name);

// A value during execution. `missing` marks Go's "no value" (a map key that is absent), which
// prints as <no value> and is not an error to walk through; JSON null is Go's nil.
struct Value {
    nlohmann::json json;
    bool missing = false;

    static Value none() { return {nlohmann::json(), true}; }
    bool is_nil() const { return missing || json.is_null(); }
};

// Go's notion of truth: false, 0, "", nil and empty arrays/maps are false.
bool truth(const Value& v);

// Calls an ordinary (not and/or) function on evaluated arguments; throws std::runtime_error with
// a message naming the function on a type error.
Value call_function(const FunctionInfo& fn, const std::vector<Value>& args);

}  // namespace core::tmpl
