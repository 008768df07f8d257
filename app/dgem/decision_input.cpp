// Policy loading and read-setting overrides for plan and decide.
#include "decision_input.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "core/policy/json_input.h"
#include "core/policy/policy.h"
#include "core/template/template.h"

namespace dgem {

std::vector<cli::OptionSpec> decision_options() {
    return {
        {"template", 't', "FILE", "policy template (.json.tmpl)"},
        {"var", 'v', "KEY=VALUE", "template variable", true},
        {"data", 'd', "FILE", "template variables as a JSON object"},
        {"schema", 0, "FILE", "a bare schema JSON file instead of a template (-t)"},
        {"state", 0, "JSON|FILE",
         "with --schema: the state, inline JSON or a JSON file (default: the -v/-d variables)"},
        {"layout", 0, "LAYOUT", "prompt layout: document_first or schema_first"},
        {"samples", 0, "N|auto", "reads per question: 1..32, or auto"},
        {"think", 0, "N", "thought tokens the model writes before the read (0: none)"},
        {"seed-token", 0, "MODE", "slot noise: random or fixed (<pad>)"},
        {"isolate", 0, "MODE", "reads of their own: auto, none, noul or all"},
        {"seed", 0, "N", "noise seed (default 42)"},
        {"image", 'I', "PATH|URL",
         "an image the questions are about (repeatable: video frames); PNG, JPEG or WebP, a file, "
         "a data: URI or an http(s) URL this command fetches",
         true},
    };
}

namespace {

engine::Result<std::string> read_text_file(const std::string& path, const std::string& what) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return engine::bad_input(path + ": " + what + " is not a readable file");
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path + ": cannot read " + what);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.size() > core::kPolicyMaxBytes)
        return engine::bad_input(path + ": " + what + " is " + std::to_string(text.size()) +
                                 " bytes; at most " + std::to_string(core::kPolicyMaxBytes));
    return text;
}

engine::Result<nlohmann::ordered_json> parse_ordered(const std::string& text,
                                                     const std::string& source) {
    nlohmann::ordered_json out;
    core::JsonInputError error;
    if (!core::parse_json_input_raw(text, out, error))
        return engine::bad_input(source + ":" + core::text_position(text, error.offset) +
                                 ": not valid JSON: " + error.message);
    return out;
}

// -d FILE or -v key=value (not both): the data object a template renders with.
engine::Result<nlohmann::json> template_data(const cli::Args& args, nlohmann::json& variables,
                                             std::map<std::string, std::string>& vars) {
    if (auto data_path = args.find("data")) {
        if (!args.all("var").empty())
            return engine::bad_input("give template variables with -v or with -d, not both");
        auto text = read_text_file(*data_path, "the -d data file");
        if (!text) return text.error();
        auto data = core::parse_json_input(*text, *data_path);
        if (!data) return data.error();
        if (!data->is_object())
            return engine::bad_input(*data_path +
                                     ": -d data must be a JSON object of variable names to values");
        variables = *data;
        return *data;
    }
    for (const auto& kv : args.all("var")) {
        auto parsed = cli::parse_key_value(kv);
        if (!parsed) return parsed.error();
        vars[parsed->first] = parsed->second;
        variables[parsed->first] = parsed->second;
    }
    return core::template_data_from_variables(vars);
}

// --schema FILE [--state JSON|FILE]: a schema as it is, no template. Without --state the
// variables are the state (as dgem does).
engine::Result<DecisionInput> load_bare_schema(const cli::Args& args, const std::string& path) {
    if (args.has("template"))
        return engine::bad_input("give a policy with -t/--template or --schema, not both");
    nlohmann::json variables = nlohmann::json::object();
    std::map<std::string, std::string> vars;
    auto data = template_data(args, variables, vars);
    if (!data) return data.error();
    auto text = read_text_file(path, "the --schema file");
    if (!text) return text.error();
    auto schema_json = parse_ordered(*text, path);
    if (!schema_json) return schema_json.error();
    if (!schema_json->is_object())
        return engine::bad_input(path +
                                 ": --schema must hold a schema object ({\"questions\": "
                                 "[...], ...})");
    DecisionInput input;
    input.source = path;
    input.policy_name = std::filesystem::path(path).stem().string();
    input.variables = variables;
    auto schema = core::parse_schema(*schema_json, path);
    if (!schema) return schema.error();
    input.schema = std::move(schema.value());
    if (auto state = args.find("state")) {
        const auto first = state->find_first_not_of(" \t\r\n");
        const bool inline_json =
            first != std::string::npos && ((*state)[first] == '{' || (*state)[first] == '[');
        std::string state_text = *state, state_source = "--state";
        if (!inline_json) {
            auto file = read_text_file(*state, "the --state file");
            if (!file)
                return engine::bad_input("--state " + *state +
                                         ": neither inline JSON (starting with { or [) nor a "
                                         "readable JSON file");
            state_text = std::move(*file);
            state_source = *state;
        }
        auto parsed = parse_ordered(state_text, state_source);
        if (!parsed) return parsed.error();
        input.state = std::move(*parsed);
    } else {
        input.state = *data;
    }
    return input;
}

// -t FILE with -v or -d: the policy rendered as `decide` sends it.
engine::Result<DecisionInput> load_template(const cli::Args& args) {
    if (args.has("state"))
        return engine::bad_input(
            "--state goes with --schema FILE (a template writes its own "
            "state; give its variables with -v or -d)");
    auto path = args.find("template");
    if (!path)
        return engine::bad_input(
            "-t/--template FILE is required (a .json.tmpl policy), or --schema FILE");
    auto policy = core::load_policy_file(*path);
    if (!policy) return policy.error();
    nlohmann::json variables = nlohmann::json::object();
    std::map<std::string, std::string> vars;
    auto data = template_data(args, variables, vars);
    if (!data) return data.error();
    // -d data renders as it is; -v variables by dgem's -v rules (render_policy).
    auto rendered = args.has("data") ? core::render_policy_data(*policy, *data)
                                     : core::render_policy(*policy, vars);
    if (!rendered) return rendered.error();
    DecisionInput input;
    input.source = *path;
    input.policy_name = policy->name;
    input.variables = std::move(variables);
    auto schema = core::parse_schema(rendered->schema, *path);
    if (!schema) return schema.error();
    input.schema = std::move(schema.value());
    input.state = rendered->state;
    input.rendered_text = rendered->rendered_text;
    return input;
}

}  // namespace

engine::Result<DecisionInput> load_decision_input(const cli::Args& args) {
    auto schema_path = args.find("schema");
    auto loaded = schema_path ? load_bare_schema(args, *schema_path) : load_template(args);
    if (!loaded) return loaded.error();
    DecisionInput input = std::move(loaded.value());
    if (auto applied = apply_decision_overrides(args, input); !applied) return applied.error();
    return input;
}

engine::Result<void> apply_decision_overrides(const cli::Args& args, DecisionInput& input) {
    if (auto layout = args.find("layout")) {
        auto l = core::parse_layout(*layout);
        if (!l)
            return engine::bad_input("--layout " + *layout +
                                     ": accepted: document_first or schema_first");
        input.schema.layout = *l;
    }
    if (auto isolate = args.find("isolate")) {
        auto i = core::parse_isolate(*isolate);
        if (!i)
            return engine::bad_input("--isolate " + *isolate +
                                     ": accepted: auto, none, noul or all");
        input.schema.isolate = *i;
    }
    if (auto seed_token = args.find("seed-token")) {
        auto s = core::parse_seed_token(*seed_token);
        if (!s)
            return engine::bad_input("--seed-token " + *seed_token + ": accepted: random or fixed");
        input.schema.seed_token = *s;
    }
    if (auto samples = args.find("samples")) {
        if (*samples == "auto") {
            input.schema.samples = {true, 1};
        } else {
            bool digits = !samples->empty() && samples->size() < 4 &&
                          samples->find_first_not_of("0123456789") == std::string::npos;
            int n = digits ? std::stoi(*samples) : 0;
            if (n < 1 || n > core::kMaxSamples)
                return engine::bad_input("--samples " + *samples + ": accepted: auto or 1 to " +
                                         std::to_string(core::kMaxSamples));
            input.schema.samples = {false, n};
        }
    }
    if (auto think = args.find("think")) {
        const bool digits = !think->empty() && think->size() < 6 &&
                            think->find_first_not_of("0123456789") == std::string::npos;
        const int n = digits ? std::stoi(*think) : -1;
        if (n < 0 || n > core::kMaxThink)
            return engine::bad_input("--think " + *think +
                                     ": accepted: a count of thought tokens from 0 to " +
                                     std::to_string(core::kMaxThink));
        input.schema.think = n;
    }
    if (const auto& refs = args.all("image"); !refs.empty()) {
        auto images = core::load_images(refs);
        if (!images) return engine::bad_input("--image " + images.error().message);
        input.images = std::move(*images);
    }
    if (auto seed = args.find("seed")) {
        bool digits = !seed->empty() && seed->size() <= 19 &&
                      seed->find_first_not_of("0123456789") == std::string::npos;
        if (!digits)
            return engine::bad_input("--seed " + *seed + ": accepted: a whole number 0 or more");
        input.seed = std::stoull(*seed);
    }
    return {};
}

}  // namespace dgem
