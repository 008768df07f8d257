#pragma once
// Validation of dgem serve's request bodies before any field is used: every field the server
// reads has its type and range checked here, and a failure is one message that names the field,
// says what it was and what is accepted (a 400 invalid_request_error). Messages never quote the
// request's bytes beyond short, well-formed field names.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/wire/chat_messages.h"

namespace core::server {

using ojson = nlohmann::ordered_json;

// A fresh "err-<ms since epoch, hex>-<n>" id. An internal failure is logged as one line
// "error <id>: <detail>" (to `log` when set, else stderr) and the client gets the id only.
std::string new_error_id();
void log_internal_error(const std::function<void(const std::string&)>& log, const std::string& id,
                        const std::string& detail);

// describe_json and flag_of are the wire's (core/wire/chat_messages.h).
using wire::describe_json;
using wire::flag_of;

// Parses a request body: well-formed UTF-8 (an offending byte's offset and the field it is in
// are named), bounded nesting, JSON syntax, an object at the top. nullopt on success.
std::optional<std::string> read_body(std::string_view text, ojson& out);

// `body["model"]` when it is a string, else `fallback` (check_* have refused other types).
std::string model_of(const ojson& body, const std::string& fallback);

// POST /v1/chat/completions: messages as OpenAI checks them (role; content a string or an
// array of parts; system, developer, user and tool messages need content) and the type and
// range of every other field the server reads. `max_tokens` is the server's MAX_TOKENS.
std::optional<std::string> check_chat_body(const ojson& body, int max_tokens);

// POST /v1/systemone: the fields read outside the schema parser (model, seed, images, state).
std::optional<std::string> check_systemone_body(const ojson& body);

}  // namespace core::server
