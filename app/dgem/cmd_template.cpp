// dgem template list|render: the policies at hand with the variables each reads, and a policy
// rendered as `dgem decide` would send it, without a model.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "core/policy/policy.h"
#include "core/policy/policy_catalog.h"
#include "core/template/template.h"
#include "decision_input.h"

namespace {

struct Listed {
    core::PolicyFile policy;
    std::string origin;  // "shipped", "user" or "dir"
};

nlohmann::json describe(const Listed& l) {
    nlohmann::json out = {
        {"name", l.policy.name}, {"origin", l.origin}, {"path", l.policy.path.string()}};
    auto vars = core::template_variables(l.policy.source, l.policy.path.string());
    if (vars) {
        out["variables"] = *vars;
    } else {
        out["variables"] = nullptr;
        out["error"] = vars.error().message;
    }
    out["sample_variables"] = l.policy.sample_variables;
    return out;
}

int run_list(const cli::Args& args) {
    std::vector<Listed> listed;
    for (auto& p : core::shipped_policies()) listed.push_back({std::move(p), "shipped"});

    std::vector<std::pair<std::filesystem::path, std::string>> folders;
    std::vector<std::string> dirs = args.all("dir");
    dirs.insert(dirs.end(), args.positional.begin() + 1, args.positional.end());
    for (const auto& d : dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(d, ec))
            return cli::fail_bad_input("--dir " + d +
                                       ": not a folder (give a folder of .tmpl "
                                       "policy files)");
        folders.push_back({d, "dir"});
    }
    if (!args.has("no-user")) {
        const auto user = core::PolicyCatalog::user_folder();
        std::error_code ec;
        if (std::filesystem::is_directory(user, ec)) folders.push_back({user, "user"});
    }
    std::vector<std::string> problems;
    for (const auto& [folder, origin] : folders) {
        auto loaded = core::load_policy_folder(folder);
        if (!loaded) return cli::fail(loaded.error());
        for (auto& p : loaded->policies) listed.push_back({std::move(p), origin});
        for (const auto& e : loaded->problems) problems.push_back(e.message);
    }

    if (args.has("json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& l : listed) out.push_back(describe(l));
        std::cout << nlohmann::json{{"templates", out}, {"problems", problems}}.dump(2) << "\n";
        return cli::kExitOk;
    }
    size_t name_w = 4, origin_w = 6;
    for (const auto& l : listed) {
        name_w = std::max(name_w, l.policy.name.size());
        origin_w = std::max(origin_w, l.origin.size());
    }
    std::cout << cli::pad("NAME", name_w + 2) << cli::pad("ORIGIN", origin_w + 2) << "VARIABLES\n";
    for (const auto& l : listed) {
        const nlohmann::json d = describe(l);
        std::string vars;
        if (d["variables"].is_array())
            for (const auto& v : d["variables"])
                vars += (vars.empty() ? "" : ", ") + v.get<std::string>();
        else
            vars = "(" + d["error"].get<std::string>() + ")";
        std::cout << cli::pad(l.policy.name, name_w + 2) << cli::pad(l.origin, origin_w + 2)
                  << (vars.empty() ? "(none)" : vars) << "\n"
                  << "  " << l.policy.path.string() << "\n";
    }
    for (const auto& p : problems) std::cerr << "dgem: warning: " << p << "\n";
    return cli::kExitOk;
}

int run_render(const cli::Args& args) {
    if (args.positional.size() > 1)
        return cli::fail_bad_input("dgem template render takes no arguments ('" +
                                   args.positional[1] + "'); the policy is -t FILE");
    auto input = dgem::load_decision_input(args);
    if (!input) return cli::fail(input.error());
    if (args.has("raw")) {
        if (!args.has("template")) return cli::fail_bad_input("--raw needs -t FILE (a template)");
        std::cout << input->rendered_text;
        if (input->rendered_text.empty() || input->rendered_text.back() != '\n') std::cout << "\n";
        return cli::kExitOk;
    }
    // The schema as the wire carries it (flag overrides applied) and the state: what decide sends.
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    out["schema"] = core::schema_to_json(input->schema);
    out["state"] = input->state;
    std::cout << out.dump(2) << "\n";
    return cli::kExitOk;
}

int run_template(const cli::Args& args) {
    const std::string action = args.positional.empty() ? "" : args.positional[0];
    if (action == "list") return run_list(args);
    if (action == "render") {
        if (args.has("dir") || args.has("no-user"))
            return cli::fail_bad_input("--dir and --no-user go with 'dgem template list'");
        return run_render(args);
    }
    if (action.empty()) return cli::fail_bad_input("dgem template needs an action: list or render");
    return cli::fail_bad_input("unknown action '" + action + "'; accepted: list, render");
}

}  // namespace

DGEM_COMMAND(template_policies) {
    auto options = dgem::decision_options();
    options.push_back({"dir", 0, "DIR", "list: also the policies in this folder", true});
    options.push_back({"no-user", 0, "", "list: leave out the Studio's policy folder"});
    options.push_back({"json", 0, "", "list: print as JSON"});
    options.push_back({"raw", 0, "", "render: the template's own output, as rendered"});
    return cli::CommandSpec{
        "template",
        "list the policies with their variables, or render one as decide sends it",
        "dgem template list [--dir DIR ...] [--no-user] [--json]\n"
        "       dgem template render (-t FILE [-v key=value ... | -d FILE] | --schema FILE "
        "[--state JSON|FILE]) [--layout L] [--samples N|auto] [--raw]",
        "list: the shipped policies, those in each --dir folder (and its sub-folders) and in\n"
        "the Studio's policy folder ($XDG_DATA_HOME/decision-studio/policies, by default\n"
        "~/.local/share/decision-studio/policies): name, origin, path (a shipped policy's\n"
        "\":/templates/...\" path works with -t) and the variables the template reads.\n"
        "render: the policy rendered with its variables and the read-setting flags applied,\n"
        "printed as {\"schema\", \"state\"}: the schema exactly as decide sends it to a server,\n"
        "and the state. No model is loaded. --raw prints the template's output as it is.",
        options,
        run_template};
}
