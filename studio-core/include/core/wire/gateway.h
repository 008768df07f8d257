#pragma once
// dgem's gateway REST shapes, as `dgem serve` speaks them:
//   GET  /api/templates            {"count", "templates": [{id, name, category, origin,
//                                   description, variables, sample_vars, questions, problem?}],
//                                   "problems"}
//   POST /api/decide/{template}    {"variables": {...}, "seed"?, "samples"?, "layout"?}
//   POST /api/decide               the same with "template" or an inline "custom_template"
// A decision's reply: {"template", "answers", "diagnostics" (core/wire/decision_json.h's chat
// form), "max_entropy", "wall_time_ms", "gpu_forward_ms", "cold_start_wait_ms",
// "queue_wait_ms", "warmup_attempts", "model"}. dgem's gateway fields kept with their meaning
// here: gpu_forward_ms is the backend's decision time (on whatever device), cold_start_wait_ms
// the time spent waiting for a decision slot (MAX_INFLIGHT), which is also queue_wait_ms.
//
// Variables are the template's data as JSON values (as dgem's `-d data.json`), not `-v`
// strings. Every field is checked here, once; a failure names the field and what is accepted.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/decision.h"
#include "core/policy/policy_catalog.h"
#include "core/policy/schema.h"

namespace core::wire {

// The largest inline custom_template accepted (the same as a policy file).
inline constexpr std::size_t kMaxCustomTemplateBytes = kPolicyMaxBytes;

struct GatewayDecideCall {
    std::string template_name;                   // from the path or "template"; may be empty
    std::optional<std::string> custom_template;  // the inline template, when given
    nlohmann::json variables = nlohmann::json::object();
    std::optional<std::uint64_t> seed;
    std::optional<Samples> samples;  // "auto" or 1..32 reads
    std::optional<Layout> layout;
};

// Checks a parsed body. `path_template` is the {template} of the route (empty for
// POST /api/decide). A body that names neither a template nor a custom_template is an error.
Result<GatewayDecideCall> gateway_decide_call(const nlohmann::ordered_json& body,
                                              std::string_view path_template);

struct GatewayTimings {
    double wall_ms = 0;        // the request, from its arrival
    double forward_ms = 0;     // the backend's decision
    double queue_wait_ms = 0;  // waiting for a decision slot
};

nlohmann::ordered_json gateway_decide_reply(const Decision& decision, std::string_view label,
                                            const std::string& model,
                                            const GatewayTimings& timings);

// The largest entropy (nats) of the decision's answered questions.
double max_entropy(const Decision& decision);

nlohmann::ordered_json gateway_templates_reply(const std::vector<PolicySummary>& policies,
                                               const std::vector<std::string>& problems);

}  // namespace core::wire
