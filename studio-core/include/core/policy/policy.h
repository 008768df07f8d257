#pragma once
// Policy files: dgem-compatible `.json.tmpl` templates that render to
// {"schema": {...}, "state": {...}} (see core/template/template.h for the template language).
//
// A policy may come with sample variables in `<name>.vars.json` next to it: a JSON object of
// variable name -> value (strings, as `-v key=value` would give them). They are only for the UI
// (a ready example) and for tests; rendering never uses them unless the caller passes them in.
// Variables the caller does not set fall back to the template's own `default`.
//
// Files can be paths on disk or Qt resource paths (":/templates/support_triage.json.tmpl");
// shipped_policies() lists the ones compiled into the application.
//
// Bad input (over kPolicyMaxBytes, not UTF-8, a template error, rendered text that is not JSON
// or nests deeper than kJsonMaxDepth, no "schema") gives engine::ErrorKind::BadInput with one line
// naming the file, the line and column where known, and what is accepted.
//
// Validating the schema itself is core::parse_schema's job (core/policy/schema.h).

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/result.h"

namespace core {

using engine::Error;
using engine::Result;

inline constexpr std::size_t kPolicyMaxBytes = 1024 * 1024;  // the same as kTemplateMaxBytes

struct PolicyFile {
    std::string name;            // "support_triage" (file name without .json.tmpl / .tmpl)
    std::filesystem::path path;  // as given, or ":/templates/<file>" for a shipped policy
    std::string source;          // the template text (UTF-8, BOM removed)
    nlohmann::json sample_variables = nlohmann::json::object();  // from <name>.vars.json, if any
};

// Reads a policy file and its sample variables. Paths starting with ":/" are Qt resources.
Result<PolicyFile> load_policy_file(const std::filesystem::path& path);

// Every *.tmpl file in a folder and its sub-folders, sorted by path. A file that fails to load
// is reported in `problems` and does not stop the others.
struct PolicyFolder {
    std::vector<PolicyFile> policies;
    std::vector<Error> problems;
};
Result<PolicyFolder> load_policy_folder(const std::filesystem::path& folder);

// The policies compiled into the application (resources/templates/, resource prefix
// /templates), sorted by name.
std::vector<PolicyFile> shipped_policies();
std::optional<PolicyFile> shipped_policy(std::string_view name);

// dgem's `-v key=value` rules: key and value are trimmed; "true"/"false" become booleans; a value
// that starts with [ and ends with ] (or { and }) and parses as JSON becomes that JSON; anything
// else stays a string (numbers stay strings, as in dgem).
nlohmann::json template_data_from_variables(const std::map<std::string, std::string>& variables);
// A sample_variables object as key=value strings (strings as they are, other values as JSON).
std::map<std::string, std::string> variables_from_json(const nlohmann::json& variables);

struct RenderedPolicy {
    // Both keep the key order of the rendered text: dict-form options are lettered in that order
    // and the state is shown to the model as written.
    nlohmann::ordered_json schema;  // the "schema" object, as written (not yet validated)
    nlohmann::ordered_json state;   // "state"; the variables when the template writes none
    std::string rendered_text;      // what the template produced
};

// Renders with `-v`-style variables (template_data_from_variables) and splits the result.
Result<RenderedPolicy> render_policy(const PolicyFile& policy,
                                     const std::map<std::string, std::string>& variables);
// Renders with a data object (dgem's `-d data.json`) and splits the result.
Result<RenderedPolicy> render_policy_data(const PolicyFile& policy, const nlohmann::json& data);

}  // namespace core
