#pragma once
// /v1/systemone (PROTOCOLS section 2; Jev's protocol with dgem's additions): the state and a map
// of questions in, answers with 0-based scores and a legend, usage and diagnostics out. The
// client (SystemOneBackend) and dgem serve both speak it through here.

#include <string>

#include "core/decide/backend.h"
#include "core/wire/chat_messages.h"

namespace core::wire {

// Client: the request body for a decision.
ojson systemone_request(const DecideRequest& request, const std::string& model);

// Client: the Decision in a reply, with its usage. Errors name `where`.
Result<Decision> systemone_decision_from_reply(const json& reply, const Schema& schema,
                                               const std::string& where);

// Server: the schema JSON a request's question map and schema keys make (in the caller's order),
// and its images. Errors are the request's validation errors (422), naming the field.
struct SystemOneCall {
    ojson schema;
    std::vector<ImageInput> images;
};
Result<SystemOneCall> systemone_call(const ojson& body);

// Server: the reply to a decision.
ojson systemone_reply(const Decision& decision, const std::string& model);

}  // namespace core::wire
