#pragma once
// Checks a tool's arguments against the tool's own inputSchema (the JSON Schema subset the
// tools use: type, properties, required, additionalProperties, items, enum, minItems, maxItems,
// minimum, maximum, minLength, maxLength), so the schema a client sees is the one enforced.
// The first problem comes back as one line naming the argument's path and what is accepted.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace core::mcp {

// nullopt when `value` satisfies `schema`; else "questions[1].type: ...".
std::optional<std::string> check_arguments(const nlohmann::json& value,
                                           const nlohmann::json& schema,
                                           const std::string& path = {});

// "a string", "an object", "a number 2.5", ...: what a JSON value is, for messages.
std::string describe_value(const nlohmann::json& value);

}  // namespace core::mcp
