// Policy loading and read-setting overrides for plan and decide.
#include "decision_input.h"

#include <fstream>
#include <map>

#include "core/json_input.h"
#include "core/policy.h"

namespace dgem {

std::vector<cli::OptionSpec> decision_options() {
    return {
        {"template", 't', "FILE", "policy template (.json.tmpl)"},
        {"var", 'v', "KEY=VALUE", "template variable", true},
        {"data", 'd', "FILE", "template variables as a JSON object"},
        {"layout", 0, "LAYOUT", "prompt layout: document_first or schema_first"},
        {"samples", 0, "N|auto", "reads per question: 1..32, or auto"},
        {"seed-token", 0, "MODE", "slot noise: random or fixed (<pad>)"},
        {"isolate", 0, "MODE", "reads of their own: auto, none, noul or all"},
        {"seed", 0, "N", "noise seed (default 42)"},
    };
}

engine::Result<DecisionInput> load_decision_input(const cli::Args& args) {
    auto path = args.find("template");
    if (!path) return engine::bad_input("-t/--template FILE is required (a .json.tmpl policy)");
    auto policy = core::load_policy_file(*path);
    if (!policy) return policy.error();

    core::RenderedPolicy rendered;
    nlohmann::json variables = nlohmann::json::object();
    if (auto data_path = args.find("data")) {
        if (!args.all("var").empty())
            return engine::bad_input("give template variables with -v or with -d, not both");
        std::ifstream in(*data_path, std::ios::binary);
        if (!in) return engine::bad_input(*data_path + ": cannot read the -d data file");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto data = core::parse_json_input(text, *data_path);
        if (!data) return data.error();
        variables = *data;
        auto r = core::render_policy_data(*policy, *data);
        if (!r) return r.error();
        rendered = std::move(r.value());
    } else {
        std::map<std::string, std::string> vars;
        for (const auto& kv : args.all("var")) {
            auto parsed = cli::parse_key_value(kv);
            if (!parsed) return parsed.error();
            vars[parsed->first] = parsed->second;
            variables[parsed->first] = parsed->second;
        }
        auto r = core::render_policy(*policy, vars);
        if (!r) return r.error();
        rendered = std::move(r.value());
    }

    DecisionInput input;
    input.source = *path;
    input.policy_name = policy->name;
    input.variables = std::move(variables);
    auto schema = core::parse_schema(rendered.schema, *path);
    if (!schema) return schema.error();
    input.schema = std::move(schema.value());
    input.state = rendered.state;

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
    if (auto seed = args.find("seed")) {
        bool digits = !seed->empty() && seed->size() <= 19 &&
                      seed->find_first_not_of("0123456789") == std::string::npos;
        if (!digits)
            return engine::bad_input("--seed " + *seed + ": accepted: a whole number 0 or more");
        input.seed = std::stoull(*seed);
    }
    return input;
}

}  // namespace dgem
