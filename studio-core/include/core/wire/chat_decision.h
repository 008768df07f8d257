#pragma once
// The structured server's chat decision form (PROTOCOLS section 2): a chat completion whose
// system message is the schema as JSON and whose user message is the state as JSON text (images
// as image_url parts before it); the reply's message content is {"answers", "diagnostics"} in
// the chat answer form. The client (DgemChatBackend) and dgem serve both speak it through here.

#include <optional>
#include <string>

#include "core/decide/backend.h"
#include "core/wire/chat_messages.h"

namespace core::wire {

// Client: the request body for a decision.
ojson chat_decision_request(const DecideRequest& request, const std::string& model);

// Client: the Decision in a completion reply (choices[0].message.content), with its usage.
// Errors name `where` (the method and URL).
Result<Decision> chat_decision_from_reply(const json& completion, const Schema& schema,
                                          const std::string& where);

// Server: a chat request in the decision form, not yet checked: the schema JSON (the system or
// developer message, when it parses as an object with "questions"), the user message's text
// (the state) and its images.
struct ChatDecisionCall {
    ojson schema;
    std::string state_text;
    std::vector<ImageInput> images;
};
// nullopt when the messages are not the decision form (then they are a generation); an error
// when they are but their images are not acceptable.
std::optional<Result<ChatDecisionCall>> chat_decision_call(const ojson& messages);

// Server: the completion that answers a decision.
ojson chat_decision_reply(const Decision& decision, const std::string& id, int64_t created,
                          const std::string& model);

// Replies never throw on text that is not UTF-8 (a generation's partial bytes): replaced.
template <typename Json>
std::string dump_safe(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace core::wire
