#pragma once
// What `dgem plan`, `dgem decide` and `dgem template render` share: the policy flags (-t FILE,
// -v key=value, -d data, or --schema FILE with --state JSON|FILE),
// the overrides of the schema's read settings (--layout, --samples, --seed-token, --isolate) and
// --seed. Errors name the flag or file and what is accepted.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "core/images/images.h"
#include "core/policy/schema.h"

namespace dgem {

struct DecisionInput {
    std::string source;                                   // the policy file, for messages
    std::string policy_name;                              // the file name without .json.tmpl
    nlohmann::json variables = nlohmann::json::object();  // -v key=value (or the -d data)
    core::Schema schema;                                  // with the flag overrides applied
    nlohmann::ordered_json state;
    uint64_t seed = 42;                    // the structured server's default seed
    std::string rendered_text;             // what the template rendered to (empty with --schema)
    std::vector<core::ImageInput> images;  // -I/--image, read and checked here (never a URL sent)
};

std::vector<cli::OptionSpec> decision_options();
engine::Result<DecisionInput> load_decision_input(const cli::Args& args);
// The read-setting flags (--layout, --isolate, --seed-token, --samples, --think, -I, --seed)
// applied to an input loaded by other means (`dgem plan --batch` renders one per line).
engine::Result<void> apply_decision_overrides(const cli::Args& args, DecisionInput& input);

}  // namespace dgem
