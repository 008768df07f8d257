// dgem mcp's four tools: list_policy_templates, decide_policy, decide_custom_questions and
// get_health. Policies render and validate exactly as for `dgem decide`; custom questions become
// a schema object that core::parse_schema validates like any policy's.
#include "mcp/mcp_tools.h"

#include <cmath>
#include <sstream>

#include "core/decide/cascade.h"
#include "core/decide/read_stats.h"
#include "core/policy/policy.h"
#include "core/policy/schema.h"
#include "core/template/template.h"
#include "core/wire/decision_json.h"

namespace core::mcp {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

constexpr std::uint64_t kDefaultSeed = 42;       // dgem decide's default
constexpr double kMaxSeed = 9007199254740991.0;  // 2^53 - 1: every client's numbers hold it

json samples_property() {
    return {{"type", "integer"},
            {"minimum", 1},
            {"maximum", kMaxSamples},
            {"description",
             "Reads per question, 1 to 32; several reads give each answer an error bar and an "
             "agreement. Default: the policy's own setting (usually auto: one read, more when "
             "the first hesitates)."}};
}

json seed_property() {
    return {{"type", "integer"},
            {"minimum", 0},
            {"maximum", kMaxSeed},
            {"description",
             "Noise seed; the same request and seed give the same answers. "
             "Default 42."}};
}

json temperature_property() {
    return {{"type", "number"},
            {"minimum", kMinTemperature},
            {"maximum", kMaxTemperature},
            {"description",
             "Temperature for every question (overrides the policy's \"temperature\"): each "
             "read's label log-probabilities are divided by it before the softmax; above 1 "
             "flattens overconfident answers, below 1 sharpens them. Default: the policy's "
             "own (1 when it has none)."}};
}

json cascade_mode_property() {
    return {{"type", "string"},
            {"enum", {"off", "entropy"}},
            {"description",
             "Stage-2 cascade (overrides the policy's cascade_mode): entropy asks the server's "
             "stage-2 judge each question whose entropy reaches cascade_threshold; its answer "
             "replaces the model's, marked in diagnostics.cascade."}};
}

json cascade_threshold_property() {
    return {{"type", "number"},
            {"minimum", 0},
            {"maximum", 100},
            {"description", "Entropy in nats at or above which a question escalates."}};
}

// The decide tools' temperature and cascade arguments (issue 39).
void add_calibration_properties(json& tool) {
    json& properties = tool["inputSchema"]["properties"];
    properties["temperature"] = temperature_property();
    properties["cascade_mode"] = cascade_mode_property();
    properties["cascade_threshold"] = cascade_threshold_property();
}

json make_tool_list() {
    const std::string result_note =
        " The result's text is the decision as `dgem decide --json` prints it: \"answers\" "
        "(per question id: label, confidence, probabilities of every option, and noul, "
        "choice or score) and \"diagnostics\" (entropy, samples, timings); a second text "
        "block sums up each answer with its hesitation (Clear, Somewhat unsure, Very unsure).";
    json list = json::array();
    list.push_back(
        {{"name", "list_policy_templates"},
         {"title", "List decision policies"},
         {"description",
          "Lists the decision policies decide_policy can run: the ones shipped with dgem and "
          "the user's (the Studio's policy folder, the server's --policies or --templates "
          "folders). "
          "Each comes with its name, origin (shipped, user or dir), path, a description, the "
          "variables its template reads, sample "
          "variable values and its questions (id, type, question, alternatives)."},
         {"inputSchema",
          {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}}}});
    list.push_back(
        {{"name", "decide_policy"},
         {"title", "Decide with a policy"},
         {"description",
          "Renders a decision policy template with the given variables and makes its "
          "structured decision in one pass of the diffusion model: one answer per question "
          "of the policy, each with the probability of every alternative." +
              result_note},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"template",
              {{"type", "string"},
               {"minLength", 1},
               {"description",
                "A policy name from list_policy_templates (e.g. support_triage); policies "
                "are named, never given by path."}}},
             {"variables",
              {{"type", "object"},
               {"additionalProperties", {{"type", "string"}}},
               {"description",
                "The template's variables, name to value, all strings as with `dgem decide "
                "-v name=value` (\"true\"/\"false\" become booleans, JSON arrays and objects "
                "written as text become JSON). Variables left out take the template's "
                "defaults."}}},
             {"samples", samples_property()},
             {"seed", seed_property()}}},
           {"required", {"template"}},
           {"additionalProperties", false}}}});
    list.push_back(
        {{"name", "decide_custom_questions"},
         {"title", "Decide custom questions"},
         {"description",
          "Answers your own questions about a context in one pass of the diffusion model: "
          "yes/no (boolean), one of several options (choice) or a level on an ordered scale "
          "(score), each answer with the probability of every alternative." +
              result_note},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"context",
              {{"type", "string"},
               {"minLength", 1},
               {"description",
                "The text the questions are about (a ticket, a diff, a log, "
                "a message...), shown to the model as it is."}}},
             {"questions",
              {{"type", "array"},
               {"minItems", 1},
               {"maxItems", 64},
               {"description", "The questions, each answered in the same pass."},
               {"items",
                {{"type", "object"},
                 {"properties",
                  {{"id",
                    {{"type", "string"},
                     {"minLength", 1},
                     {"description",
                      "The answer's key: letters, digits, _ or -, unique in the request."}}},
                   {"type",
                    {{"type", "string"},
                     {"enum", {"boolean", "choice", "score"}},
                     {"description",
                      "boolean: yes or no; choice: one of options; score: one of options "
                      "read as an ordered scale, lowest first."}}},
                   {"question",
                    {{"type", "string"},
                     {"minLength", 1},
                     {"description", "What to decide, as one question."}}},
                   {"options",
                    {{"type", "array"},
                     {"maxItems", kMaxOptions},
                     {"items", {{"type", "string"}, {"minLength", 1}}},
                     {"description",
                      "choice: the option names (2 to 255; more than 26 are read as a bracket "
                      "tournament); score: the levels, lowest first "
                      "(2 to 26; default 1 to 5); not used by boolean questions."}}}}},
                 {"required", {"id", "type", "question"}},
                 {"additionalProperties", false}}}}},
             {"instructions",
              {{"type", "string"},
               {"description",
                "Optional: who decides and how (the schema's instructions), e.g. \"You "
                "triage support tickets.\""}}},
             {"samples", samples_property()},
             {"seed", seed_property()}}},
           {"required", {"context", "questions"}},
           {"additionalProperties", false}}}});
    list.push_back(
        {{"name", "get_health"},
         {"title", "Backend health"},
         {"description",
          "Whether the decision backend this server runs on (the local engine or a server) "
          "is up and ready, and what it is: kind, server, version, model and device."},
         {"inputSchema",
          {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}}}});
    for (auto& tool : list)
        if (tool["name"] == "decide_policy" || tool["name"] == "decide_custom_questions")
            add_calibration_properties(tool);
    return list;
}

std::string dump_text(const json& j) {
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

json text_block(const std::string& text) {
    return {{"type", "text"}, {"text", text}};
}

json tool_success(const json& value) {
    return {{"content", json::array({text_block(dump_text(value))})},
            {"structuredContent", value},
            {"isError", false}};
}

std::string fixed(double v, int digits) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(digits);
    out << v;
    return out.str();
}

std::string failure_text(const Error& e) {
    switch (e.kind) {
        case engine::ErrorKind::BadInput:
            return e.message;
        case engine::ErrorKind::Remote:
            return "the server failed: " + e.message;
        case engine::ErrorKind::Engine:
            return "the engine failed: " + e.message;
        case engine::ErrorKind::Cancelled:
            return "cancelled";
    }
    return e.message;
}

// --- policies -----------------------------------------------------------------------------

json summary_json(const PolicySummary& s) {
    json questions = json::array();
    for (const auto& q : s.questions)
        questions.push_back({{"id", q.id},
                             {"type", q.type},
                             {"question", q.question},
                             {"alternatives", q.alternatives}});
    json entry = {{"name", s.name},           {"origin", std::string(to_string(s.origin))},
                  {"path", s.path},           {"description", s.description},
                  {"variables", s.variables}, {"sample_variables", s.sample_variables},
                  {"questions", questions}};
    if (!s.problem.empty()) entry["problem"] = s.problem;
    return entry;
}

json list_policies(const ToolEnvironment& env) {
    const CatalogListing listing = env.options->catalog.list();
    json policies = json::array();
    for (const auto& p : listing.policies) policies.push_back(summary_json(summarize_policy(p)));
    return {{"policies", policies}, {"problems", listing.problems}};
}

// By name from the catalog only: a path, "../x" or a link out of a folder is "no such policy"
// and its file is never opened.
Result<PolicyFile> find_policy(const std::string& name, const ToolEnvironment& env) {
    CatalogLookup found = env.options->catalog.find(name);
    if (found.status != CatalogLookup::Status::Found)
        return engine::bad_input("template: " + found.message + " (see list_policy_templates)");
    return std::move(found.policy->policy);
}

// --- decisions -------------------------------------------------------------------------------

std::uint64_t seed_argument(const json& arguments) {
    auto it = arguments.find("seed");
    if (it == arguments.end()) return kDefaultSeed;
    if (it->is_number_unsigned()) return it->get<std::uint64_t>();
    return static_cast<std::uint64_t>(std::llround(it->get<double>()));
}

// temperature, cascade_mode and cascade_threshold over the policy's own keys.
void apply_calibration(const json& arguments, Schema& schema) {
    if (auto t = arguments.find("temperature"); t != arguments.end())
        schema.temperature = PolicyTemperature{t->get<double>(), {}, {}};
    if (auto m = arguments.find("cascade_mode"); m != arguments.end())
        schema.cascade.mode = parse_cascade_mode(m->get<std::string>()).value_or(CascadeMode::Off);
    if (auto c = arguments.find("cascade_threshold"); c != arguments.end())
        schema.cascade.threshold = c->get<double>();
}

void apply_samples(const json& arguments, Schema& schema) {
    apply_calibration(arguments, schema);
    auto it = arguments.find("samples");
    if (it == arguments.end()) return;
    schema.samples.automatic = false;
    schema.samples.count = static_cast<int>(std::lround(it->get<double>()));
}

std::string summary(const Decision& d) {
    std::string out;
    for (const auto& q : d.questions) {
        if (q.skipped || q.mean.empty()) {  // a staged read skipped it (its ask_if was unmet)
            out += q.id + " (" + std::string(to_string(q.type)) +
                   "): " + (q.skipped ? skip_text(q) : std::string("skipped, not asked")) + "\n";
            continue;
        }
        const bool has_winner = q.winner >= 0 && q.winner < static_cast<int>(q.labels.size());
        std::string answer = has_winner ? q.labels[q.winner] : "?";
        if (q.type != QuestionType::Noul && has_winner &&
            q.winner < static_cast<int>(q.alternatives.size()))
            answer = q.alternatives[q.winner] + " (" + answer + ")";
        out += q.id + " (" + std::string(to_string(q.type)) + "): " + answer + ", p " +
               fixed(q.confidence, 3) + ", hesitation " + fixed(100 * q.hesitation, 0) + "% (" +
               std::string(to_string(q.hesitation_class())) + ")";
        if (q.stderr_winner) out += ", stderr " + fixed(*q.stderr_winner, 3);
        out += "\n";
    }
    return out;
}

json decision_result(const Decision& d) {
    json output = decision_json(d, AnswerForm::Chat);
    json structured = output;
    json hesitation = json::object();
    for (const auto& q : d.questions)
        if (!q.mean.empty())
            hesitation[q.id] = {{"value", q.hesitation},
                                {"class", std::string(to_string(q.hesitation_class()))}};
    structured["hesitation"] = hesitation;
    return {{"content", json::array({text_block(dump_text(output)), text_block(summary(d))})},
            {"structuredContent", structured},
            {"isError", false}};
}

json decide(DecideRequest request, ToolEnvironment& env) {
    std::optional<Decision> decision;
    auto ran = env.with_backend([&](Backend& backend) -> Result<void> {
        auto d = backend.decide(request, env.progress, env.cancel);
        if (!d) return d.error();
        decision = std::move(*d);
        return {};
    });
    if (!ran) return tool_error(failure_text(ran.error()));
    if (request.schema.cascade.mode != CascadeMode::Off) {
        if (!env.judge)
            return tool_error("cascade_mode " +
                              std::string(to_string(request.schema.cascade.mode)) +
                              ": this server has no stage-2 judge (start dgem mcp with "
                              "--cascade-url URL)");
        CascadeOptions cascade;
        cascade.settings = request.schema.cascade;
        run_cascade(*decision, request, *env.judge, cascade, env.cancel);
    }
    return decision_result(*decision);
}

json decide_policy(const json& arguments, ToolEnvironment& env) {
    const std::string name = arguments["template"].get<std::string>();
    auto policy = find_policy(name, env);
    if (!policy) return tool_error(policy.error().message);
    std::map<std::string, std::string> variables;
    if (auto v = arguments.find("variables"); v != arguments.end())
        for (auto it = v->begin(); it != v->end(); ++it)
            variables[it.key()] = it.value().get<std::string>();
    auto rendered = render_policy(*policy, variables);
    if (!rendered) return tool_error(rendered.error().message);
    auto schema = parse_schema(rendered->schema, policy->path.string());
    if (!schema) return tool_error(schema.error().message);
    DecideRequest request;
    request.schema = std::move(*schema);
    request.state = rendered->state;
    request.seed = seed_argument(arguments);
    apply_samples(arguments, request.schema);
    return decide(std::move(request), env);
}

json decide_custom_questions(const json& arguments, ToolEnvironment& env) {
    // dgem's tool arguments as a schema object, so parse_schema's rules all apply.
    ojson questions = ojson::array();
    for (const auto& q : arguments["questions"]) {
        const std::string type = q["type"].get<std::string>();
        ojson question = ojson::object();
        question["id"] = q["id"].get<std::string>();
        question["type"] = type;
        question["instructions"] = q["question"].get<std::string>();
        if (auto o = q.find("options"); o != q.end()) {
            ojson options = ojson::array();
            for (const auto& name : *o) options.push_back(name.get<std::string>());
            if (type == "choice") {
                ojson named = ojson::array();
                for (const auto& n : options) named.push_back({{"name", n}});
                question["options"] = std::move(named);
            } else if (type == "score") {
                question["levels"] = std::move(options);
            }
        }
        questions.push_back(std::move(question));
    }
    ojson schema_json = ojson::object();
    schema_json["instructions"] = arguments.value("instructions", std::string());
    schema_json["questions"] = std::move(questions);
    auto schema = parse_schema(schema_json, "decide_custom_questions");
    if (!schema) return tool_error(schema.error().message);
    DecideRequest request;
    request.schema = std::move(*schema);
    request.state = arguments["context"].get<std::string>();
    request.seed = seed_argument(arguments);
    apply_samples(arguments, request.schema);
    return decide(std::move(request), env);
}

json get_health(ToolEnvironment& env) {
    json out;
    auto ran = env.with_backend([&](Backend& backend) -> Result<void> {
        auto info = backend.health(env.cancel);
        if (!info) return info.error();
        out = {{"ready", info->ready},   {"backend", backend.describe()}, {"kind", info->kind},
               {"server", info->server}, {"version", info->version},      {"model", info->model},
               {"device", info->device}, {"details", info->raw}};
        return {};
    });
    if (!ran) return tool_error(failure_text(ran.error()));
    return tool_success(out);
}

}  // namespace

const json& tool_list() {
    static const json list = make_tool_list();
    return list;
}

const json* find_tool(const std::string& name) {
    for (const auto& tool : tool_list())
        if (tool["name"] == name) return &tool;
    return nullptr;
}

std::string tool_names() {
    std::string names;
    for (const auto& tool : tool_list())
        names += (names.empty() ? "" : ", ") + tool["name"].get<std::string>();
    return names;
}

json tool_error(const std::string& message) {
    return {{"content", json::array({text_block(message)})}, {"isError", true}};
}

json call_tool(const std::string& name, const json& arguments, ToolEnvironment& env) {
    if (name == "list_policy_templates") return tool_success(list_policies(env));
    if (name == "decide_policy") return decide_policy(arguments, env);
    if (name == "decide_custom_questions") return decide_custom_questions(arguments, env);
    if (name == "get_health") return get_health(env);
    return tool_error("unknown tool '" + name + "'; the tools are: " + tool_names());
}

}  // namespace core::mcp
