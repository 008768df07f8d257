// dgem's gateway REST routes on dgem serve (server/gateway_routes.h).
#include "server/gateway_routes.h"

#include <chrono>

#include "base/time.h"
#include "core/wire/chat_decision.h"
#include "core/wire/gateway.h"
#include "server/replies.h"
#include "server/request_checks.h"

namespace core::server {
namespace {

using ojson = nlohmann::ordered_json;

constexpr std::string_view kDecidePrefix = "/api/decide/";

// The policy a call names (from the catalog) or its inline template, as a PolicyFile; nullopt
// with the 404 or 400 reply filled.
std::optional<PolicyFile> policy_of(const wire::GatewayDecideCall& call,
                                    const PolicyCatalog& catalog, httplib::Response& res) {
    if (call.custom_template) {
        PolicyFile inline_policy;
        inline_policy.name = "custom_template";
        inline_policy.path = "custom_template";
        inline_policy.source = *call.custom_template;
        return inline_policy;
    }
    CatalogLookup found = catalog.find(call.template_name);
    switch (found.status) {
        case CatalogLookup::Status::Found:
            return std::move(found.policy->policy);
        case CatalogLookup::Status::NoSuchPolicy:
            reply_error(res, 404, found.message + " (GET /api/templates lists them)",
                        "not_found_error");
            return std::nullopt;
        case CatalogLookup::Status::Unloadable:
            reply_error(res, 400, found.message);
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

void GatewayRoutes::templates(const httplib::Request&, httplib::Response& res) {
    const CatalogListing listing = catalog_.list();
    std::vector<PolicySummary> summaries;
    for (const auto& p : listing.policies) summaries.push_back(summarize_policy(p));
    reply_json(res, 200,
               wire::dump_safe(wire::gateway_templates_reply(summaries, listing.problems)));
}

void GatewayRoutes::decide(const httplib::Request& req, httplib::Response& res) {
    const auto arrived = std::chrono::steady_clock::now();
    std::string path_template;
    if (req.path.size() > kDecidePrefix.size() && req.path.rfind(kDecidePrefix, 0) == 0)
        path_template = req.path.substr(kDecidePrefix.size());
    auto body = parse_body(req, res);
    if (!body) return;
    auto call = wire::gateway_decide_call(*body, path_template);
    if (!call) return reply_error(res, 400, call.error().message);
    auto policy = policy_of(*call, catalog_, res);
    if (!policy) return;

    auto rendered = render_policy_data(*policy, call->variables);
    if (!rendered) return reply_error(res, 400, rendered.error().message);
    apply_defaults(rendered->schema, routes_.options());
    auto schema = parse_schema(rendered->schema, policy->path.string());
    if (!schema) return reply_error(res, 400, schema.error().message);
    if (call->samples) schema->samples = *call->samples;
    if (call->layout) schema->layout = *call->layout;

    DecideRequest request{std::move(*schema), std::move(rendered->state), call->seed.value_or(42)};
    auto run = routes_.run_decision(request, res);
    if (!run) return;
    const std::string& model =
        routes_.options().model_name.empty() ? run->decision.model : routes_.options().model_name;
    wire::GatewayTimings timings;
    timings.forward_ms = run->decide_ms;
    timings.queue_wait_ms = run->queue_wait_ms;
    timings.wall_ms = base::ms_since(arrived);
    const std::string label = call->custom_template ? "custom_inline" : policy->name;
    set_server_timing(res, run->decide_ms);
    reply_json(res, 200,
               wire::dump_safe(wire::gateway_decide_reply(run->decision, label, model, timings)));
}

}  // namespace core::server
