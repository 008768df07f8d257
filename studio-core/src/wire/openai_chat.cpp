// OpenAI chat completions as a generation (see core/wire/openai_chat.h).
#include "core/wire/openai_chat.h"

#include <algorithm>

#include "core/net/http_client.h"

namespace core::wire {

Result<ojson> generation_request(const GenerateRequest& request, const std::string& model,
                                 bool stream) {
    ojson body;
    if (!model.empty()) body["model"] = model;
    body["messages"] = ojson::array();
    bool images_placed = false;
    for (const auto& m : request.messages) {
        const bool first_user = m.role == "user" && !images_placed;
        images_placed = images_placed || first_user;
        body["messages"].push_back(
            {{"role", m.role},
             {"content", first_user ? user_content(m.content, request.images) : ojson(m.content)}});
    }
    if (!request.images.empty() && !images_placed)
        return engine::bad_input("images: the generation has no user message to carry them");
    body["max_tokens"] = request.max_tokens;
    body["seed"] = request.seed;
    if (request.temperature) body["temperature"] = *request.temperature;
    if (stream) {
        body["stream"] = true;
        body["stream_options"] = {{"include_usage", true}};  // token counts and steps at the end
    }
    return body;
}

namespace {

void take_usage(const json& c, Generation& g) {
    if (!c.contains("usage") || !c["usage"].is_object()) return;
    g.prompt_tokens = c["usage"].value("prompt_tokens", g.prompt_tokens);
    g.completion_tokens = c["usage"].value("completion_tokens", g.completion_tokens);
    g.passes = c["usage"].value("diffusion_steps", g.passes);  // our servers' extension
}

}  // namespace

Result<Generation> generation_from_reply(const json& c, const std::string& where) {
    if (!c.contains("choices") || !c["choices"].is_array() || c["choices"].empty() ||
        !c["choices"][0].is_object())
        return engine::remote_error(where + ": reply has no choices[0]");
    const json& choice = c["choices"][0];
    const json message = choice.value("message", json::object());
    if (!message.is_object() || !message.contains("content") || !message["content"].is_string())
        return engine::remote_error(where + ": choices[0].message.content is not text");
    Generation g;
    g.text = message["content"];
    g.finish_reason = choice.value("finish_reason", std::string());
    g.model = c.value("model", std::string());
    take_usage(c, g);
    return g;
}

void GenerationStream::feed(std::string_view bytes) {
    pending_.append(bytes);
    size_t nl;
    while ((nl = pending_.find('\n')) != std::string::npos) {
        std::string line = pending_.substr(0, nl);
        pending_.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("data:", 0) != 0) continue;
        std::string data = line.substr(5);
        if (!data.empty() && data[0] == ' ') data.erase(0, 1);
        if (data == "[DONE]")
            done_ = true;
        else
            event(data);
    }
}

void GenerationStream::event(const std::string& data) {
    auto e = json::parse(data, nullptr, false);
    if (!e.is_object()) return;
    if (e.contains("error")) {
        error_ = server_message(data);
        return;
    }
    if (e.contains("model") && e["model"].is_string()) g_.model = e["model"];
    take_usage(e, g_);
    if (!e.contains("choices") || !e["choices"].is_array() || e["choices"].empty()) return;
    const json& choice = e["choices"][0];
    if (choice.contains("delta") && choice["delta"].is_object()) {
        const json& delta = choice["delta"];
        if (delta.contains("content") && delta["content"].is_string()) {
            std::string text = delta["content"];
            g_.text += text;
            if (on_text_ && !text.empty()) on_text_(text);
        }
    }
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
        g_.finish_reason = choice["finish_reason"];
}

Result<GenerationCall> generation_call(const ojson& body, int max_tokens_cap) {
    GenerationCall call;
    GenerateRequest& request = call.request;
    const ojson& messages = body["messages"];
    bool seen_user = false;
    for (size_t i = 0; i < messages.size(); ++i) {
        const ojson& m = messages[i];
        bool has_image = false;
        std::string text = message_text(m, &has_image);
        // Images open the first user turn (the engine places them there, as in a decision).
        const bool first_user = role_of(m) == "user" && !seen_user;
        seen_user = seen_user || first_user;
        if (has_image && !first_user)
            return engine::bad_input("messages[" + std::to_string(i) +
                                     "]: images are accepted in the first user message only");
        if (has_image) {
            auto images = images_of(m["content"], "messages[" + std::to_string(i) + "].content");
            if (!images) return images.error();
            request.images = std::move(*images);
        }
        request.messages.push_back({role_of(m), text});
    }
    request.max_tokens = std::min(request.max_tokens, max_tokens_cap);
    for (const char* key : {"max_completion_tokens", "max_tokens"})
        if (body.contains(key) && body[key].is_number_integer())
            request.max_tokens = body[key].get<int>();
    if (body.contains("temperature") && body["temperature"].is_number())
        request.temperature = body["temperature"].get<double>();
    call.stream = flag_of(body, "stream");
    call.include_usage = body.contains("stream_options") && body["stream_options"].is_object() &&
                         flag_of(body["stream_options"], "include_usage");
    return call;
}

std::string wire_finish(const std::string& reason) {
    if (reason.empty()) return "stop";
    if (reason == "time_limit") return "length";
    return reason;
}

ojson generation_usage(const Generation& g) {
    return {{"prompt_tokens", g.prompt_tokens},
            {"completion_tokens", g.completion_tokens},
            {"total_tokens", g.prompt_tokens + g.completion_tokens},
            {"diffusion_steps", g.passes}};
}

ojson generation_reply(const Generation& g, const std::string& id, int64_t created,
                       const std::string& model) {
    ojson reply{
        {"id", id},
        {"object", "chat.completion"},
        {"created", created},
        {"model", model.empty() ? g.model : model},
        {"choices", ojson::array({ojson{{"index", 0},
                                        {"message", {{"role", "assistant"}, {"content", g.text}}},
                                        {"finish_reason", wire_finish(g.finish_reason)}}})},
        {"usage", generation_usage(g)}};
    if (g.finish_reason == "time_limit")  // vLLM's field for why it stopped
        reply["choices"][0]["stop_reason"] = "time_limit";
    return reply;
}

ojson generation_chunk(const std::string& id, int64_t created, const std::string& model,
                       const ojson& delta, const ojson& finish) {
    return {{"id", id},
            {"object", "chat.completion.chunk"},
            {"created", created},
            {"model", model},
            {"choices",
             ojson::array({ojson{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
}

ojson generation_usage_chunk(const Generation& g, const std::string& id, int64_t created,
                             const std::string& model) {
    return {{"id", id},       {"object", "chat.completion.chunk"}, {"created", created},
            {"model", model}, {"choices", ojson::array()},         {"usage", generation_usage(g)}};
}

ojson stream_error_event(const std::string& message) {
    return {{"error", {{"message", message}, {"type", "server_error"}}}};
}

}  // namespace core::wire
