#pragma once
// What every route of dgem serve answers with: JSON replies, the error shape
// {"error": {"message", "type"}} with its status, a Backend error's status, the timing headers,
// a body parsed (or refused with a 400), and the DEFAULT_* schema settings.

#include <optional>
#include <string>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "core/server/decision_server.h"
#include "engine/result.h"

namespace core::server {

void reply_json(httplib::Response& res, int status, const std::string& body);
void reply_error(httplib::Response& res, int status, const std::string& message,
                 const std::string& type = "invalid_request_error");
// The status a Backend error maps to; `bad_input_status` is 400 on chat, 422 on /v1/systemone.
void reply_backend_error(httplib::Response& res, const engine::Error& e, int bad_input_status);
// Server-Timing (decide;dur=) and X-Inference-Time-Ms.
void set_server_timing(httplib::Response& res, double ms);

// Parses a request body; a malformed one is a 400 naming the parse position (ill-formed UTF-8
// by its offset and field, never its bytes; too deep nesting; syntax errors).
std::optional<nlohmann::ordered_json> parse_body(const httplib::Request& req,
                                                 httplib::Response& res);

// Schema keys the server supplies when a request leaves them out (DEFAULT_*).
void apply_defaults(nlohmann::ordered_json& schema, const ServerOptions& options);

}  // namespace core::server
