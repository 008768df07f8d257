// dgem's gateway REST shapes (core/wire/gateway.h).
#include "core/wire/gateway.h"

#include <algorithm>
#include <cmath>

#include "core/wire/chat_messages.h"
#include "core/wire/decision_json.h"

namespace core::wire {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

const char* const kFields = "template, custom_template, variables, seed, samples, layout";

bool known_field(const std::string& key) {
    for (const char* k : {"template", "custom_template", "variables", "seed", "samples", "layout",
                          "image", "image_url", "images"})
        if (key == k) return true;
    return false;
}

Result<std::optional<Samples>> samples_of(const ojson& body) {
    auto it = body.find("samples");
    if (it == body.end() || it->is_null()) return std::optional<Samples>();
    if (it->is_string() && it->get<std::string>() == "auto")
        return std::optional<Samples>(Samples{true, 1, false});
    if (it->is_number_integer()) {
        const auto n = it->get<std::int64_t>();
        if (n >= 1 && n <= kMaxSamples)
            return std::optional<Samples>(Samples{false, static_cast<int>(n), false});
    }
    return engine::bad_input("\"samples\" must be \"auto\" or a whole number from 1 to " +
                             std::to_string(kMaxSamples) + ", not " + describe_json(*it));
}

}  // namespace

Result<GatewayDecideCall> gateway_decide_call(const ojson& body, std::string_view path_template) {
    if (!body.is_object())
        return engine::bad_input("the body must be a JSON object {" + std::string(kFields) +
                                 "}, not " + describe_json(body));
    for (auto it = body.begin(); it != body.end(); ++it)
        if (!known_field(it.key()))
            return engine::bad_input("\"" + it.key().substr(0, 64) +
                                     "\" is not a field of this route; accepted: " + kFields);
    for (const char* image_field : {"image", "image_url", "images"})
        if (body.contains(image_field))
            return engine::bad_input(std::string("\"") + image_field +
                                     "\": images are not taken by the gateway routes; send them "
                                     "to POST /v1/chat/completions or /v1/systemone");
    GatewayDecideCall call;
    call.template_name = std::string(path_template);
    if (auto t = body.find("template"); t != body.end() && !t->is_null()) {
        if (!t->is_string())
            return engine::bad_input("\"template\" must be a policy name (a string), not " +
                                     describe_json(*t));
        if (!path_template.empty() && t->get<std::string>() != path_template)
            return engine::bad_input(
                "\"template\" names another policy than the route's {template}; give one");
        call.template_name = t->get<std::string>();
    }
    if (auto c = body.find("custom_template"); c != body.end() && !c->is_null()) {
        if (!c->is_string())
            return engine::bad_input(
                "\"custom_template\" must be a .json.tmpl template (a string), "
                "not " +
                describe_json(*c));
        const std::string& text = c->get_ref<const std::string&>();
        if (text.size() > kMaxCustomTemplateBytes)
            return engine::bad_input("\"custom_template\" is " + std::to_string(text.size()) +
                                     " bytes; custom templates are limited to " +
                                     std::to_string(kMaxCustomTemplateBytes) + " bytes");
        if (!path_template.empty() || !call.template_name.empty())
            return engine::bad_input(
                "give either a template (by name) or a \"custom_template\", not both");
        call.custom_template = text;
    }
    if (call.template_name.empty() && !call.custom_template)
        return engine::bad_input(
            "name a policy (POST /api/decide/{template}, or \"template\") or send an inline "
            "\"custom_template\"; GET /api/templates lists the policies");
    if (auto v = body.find("variables"); v != body.end() && !v->is_null()) {
        if (!v->is_object())
            return engine::bad_input(
                "\"variables\" must be an object of variable names to values, "
                "not " +
                describe_json(*v));
        call.variables = json(*v);
    }
    if (auto s = body.find("seed"); s != body.end() && !s->is_null()) {
        if (!s->is_number_integer() || s->get<std::int64_t>() < 0)
            return engine::bad_input("\"seed\" must be a non-negative whole number, not " +
                                     describe_json(*s));
        call.seed = s->get<std::uint64_t>();
    }
    auto samples = samples_of(body);
    if (!samples) return samples.error();
    call.samples = *samples;
    if (auto l = body.find("layout"); l != body.end() && !l->is_null()) {
        const auto layout = l->is_string() ? parse_layout(l->get<std::string>()) : std::nullopt;
        if (!layout)
            return engine::bad_input(
                "\"layout\" must be \"document_first\" or \"schema_first\", not " +
                describe_json(*l));
        call.layout = layout;
    }
    return call;
}

double max_entropy(const Decision& decision) {
    double most = 0;
    for (const auto& q : decision.questions)
        if (!q.skipped && !q.mean.empty()) most = std::max(most, q.entropy);
    return most;
}

ojson gateway_decide_reply(const Decision& decision, std::string_view label,
                           const std::string& model, const GatewayTimings& timings) {
    const json output = decision_json(decision, AnswerForm::Chat);
    auto ms = [](double v) { return static_cast<std::int64_t>(std::llround(v)); };
    ojson reply = ojson::object();
    reply["template"] = std::string(label);
    reply["answers"] = output.value("answers", json::object());
    reply["diagnostics"] = output.value("diagnostics", json::object());
    reply["max_entropy"] = max_entropy(decision);
    reply["wall_time_ms"] = ms(timings.wall_ms);
    reply["gpu_forward_ms"] = ms(timings.forward_ms);
    reply["cold_start_wait_ms"] = ms(timings.queue_wait_ms);
    reply["queue_wait_ms"] = timings.queue_wait_ms;
    reply["warmup_attempts"] = 1;
    reply["model"] = model;
    return reply;
}

ojson gateway_templates_reply(const std::vector<PolicySummary>& policies,
                              const std::vector<std::string>& problems) {
    ojson templates = ojson::array();
    for (const auto& p : policies) {
        ojson questions = ojson::array();
        for (const auto& q : p.questions)
            questions.push_back({{"id", q.id},
                                 {"type", q.type},
                                 {"question", q.question},
                                 {"alternatives", q.alternatives}});
        ojson entry = ojson::object();
        entry["id"] = p.id;
        entry["name"] = p.name;
        const size_t slash = p.id.find('/');
        entry["category"] =
            slash == std::string::npos ? std::string(to_string(p.origin)) : p.id.substr(0, slash);
        entry["origin"] = std::string(to_string(p.origin));
        entry["description"] = p.description;
        entry["variables"] = p.variables;
        entry["sample_vars"] = p.sample_variables;
        entry["questions"] = questions;
        if (!p.problem.empty()) entry["problem"] = p.problem;
        templates.push_back(std::move(entry));
    }
    ojson reply = ojson::object();
    reply["count"] = templates.size();
    reply["templates"] = std::move(templates);
    reply["problems"] = problems;
    return reply;
}

}  // namespace core::wire
