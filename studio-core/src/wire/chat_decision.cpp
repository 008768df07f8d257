// The chat decision form (see core/wire/chat_decision.h).
#include "core/wire/chat_decision.h"

#include <algorithm>

#include "core/decide/canvas_plan.h"
#include "core/policy/json_input.h"
#include "core/wire/decision_json.h"

namespace core::wire {

namespace {

// The user turn of the chat decision form: the state as JSON text (a string state as a JSON
// string), in the form the structured server writes it.
std::string state_json_text(const ojson& state) {
    return state.is_string() ? state.dump() : state_text(state);
}

}  // namespace

ojson chat_decision_request(const DecideRequest& request, const std::string& model) {
    ojson body;
    if (!model.empty()) body["model"] = model;
    // Images go before the state text, as dgem's client places them.
    body["messages"] = ojson::array(
        {ojson{{"role", "system"}, {"content", schema_to_json(request.schema).dump()}},
         ojson{{"role", "user"},
               {"content", user_content(state_json_text(request.state), request.images)}}});
    body["seed"] = request.seed;
    return body;
}

Result<Decision> chat_decision_from_reply(const json& c, const Schema& schema,
                                          const std::string& where) {
    if (!c.contains("choices") || !c["choices"].is_array() || c["choices"].empty() ||
        !c["choices"][0].is_object() || !c["choices"][0].contains("message") ||
        !c["choices"][0]["message"].is_object() ||
        !c["choices"][0]["message"].contains("content") ||
        !c["choices"][0]["message"]["content"].is_string())
        return engine::remote_error(where + ": reply has no choices[0].message.content text");
    auto content =
        json::parse(c["choices"][0]["message"]["content"].get<std::string>(), nullptr, false);
    if (content.is_discarded())
        return engine::remote_error(where +
                                    ": choices[0].message.content is not the JSON answer set "
                                    "(is this a decision server? try --protocol vllm or openai)");
    return decision_from_json(content, schema, AnswerForm::Chat, where);
}

std::optional<Result<ChatDecisionCall>> chat_decision_call(const ojson& messages) {
    // Exactly system/developer + user, the system text a JSON schema.
    if (!messages.is_array() || messages.size() != 2) return std::nullopt;
    const std::string first = role_of(messages[0]);
    if ((first != "system" && first != "developer") || role_of(messages[1]) != "user")
        return std::nullopt;
    ChatDecisionCall call;
    JsonInputError not_json;
    if (!parse_json_input_raw(message_text(messages[0]), call.schema, not_json))
        call.schema = nullptr;
    if (!call.schema.is_object() || !call.schema.contains("questions")) return std::nullopt;
    call.state_text = message_text(messages[1]);
    auto images = images_of(messages[1]["content"], "messages[1].content");
    if (!images) return Result<ChatDecisionCall>(images.error());
    call.images = std::move(*images);
    return Result<ChatDecisionCall>(std::move(call));
}

ojson chat_decision_reply(const Decision& decision, const std::string& id, int64_t created,
                          const std::string& model) {
    ojson reply;
    reply["id"] = id;
    reply["object"] = "chat.completion";
    reply["created"] = created;
    reply["model"] = model;
    reply["choices"] = ojson::array(
        {ojson{{"index", 0},
               {"message",
                {{"role", "assistant"},
                 {"content", dump_safe(decision_json(decision, AnswerForm::Chat), 2)}}},
               {"finish_reason", "stop"}}});
    reply["usage"] = {
        {"prompt_tokens", decision.prompt_tokens},
        {"completion_tokens", decision.reads},
        {"total_tokens", decision.prompt_tokens + decision.reads},
        {"prompt_tokens_details", {{"cached_tokens", decision.cached_prompt_tokens}}}};
    return reply;
}

}  // namespace core::wire
