// dgem serve's shared replies (server/replies.h).
#include "server/replies.h"

#include <cstdio>

#include "core/wire/chat_decision.h"
#include "server/request_checks.h"

namespace core::server {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using wire::dump_safe;

void reply_json(httplib::Response& res, int status, const std::string& body) {
    res.status = status;
    res.set_content(body, "application/json");
}

void reply_error(httplib::Response& res, int status, const std::string& message,
                 const std::string& type) {
    reply_json(res, status, dump_safe(json{{"error", {{"message", message}, {"type", type}}}}));
}

void reply_backend_error(httplib::Response& res, const engine::Error& e, int bad_input_status) {
    switch (e.kind) {
        case engine::ErrorKind::BadInput:
            return reply_error(
                res, bad_input_status, e.message,
                bad_input_status == 422 ? "validation_error" : "invalid_request_error");
        case engine::ErrorKind::Remote:
            return reply_error(res, 502, e.message, "server_error");
        case engine::ErrorKind::Cancelled:
            return reply_error(res, 503, "cancelled: the server is stopping", "overloaded");
        case engine::ErrorKind::Engine:
            return reply_error(res, 500, e.message, "server_error");
    }
}

void set_server_timing(httplib::Response& res, double ms) {
    char value[64];
    std::snprintf(value, sizeof value, "decide;dur=%.2f", ms);
    res.set_header("Server-Timing", value);
    std::snprintf(value, sizeof value, "%.2f", ms);
    res.set_header("X-Inference-Time-Ms", value);
}

std::optional<ojson> parse_body(const httplib::Request& req, httplib::Response& res) {
    ojson body;
    if (auto error = read_body(req.body, body)) {
        reply_error(res, 400, *error);
        return std::nullopt;
    }
    return body;
}

void apply_defaults(ojson& schema, const ServerOptions& o) {
    auto fill = [&](const char* key, const std::string& value, bool numeric_ok) {
        if (value.empty() || schema.contains(key)) return;
        if (numeric_ok && value != "auto")
            schema[key] = std::stoi(value);
        else
            schema[key] = value;
    };
    fill("samples", o.default_samples, true);
    fill("layout", o.default_layout, false);
    fill("isolate", o.default_isolate, false);
    fill("seed_token", o.default_seed_token, false);
}

}  // namespace core::server
