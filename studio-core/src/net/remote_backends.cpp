// The remote backends: request bodies out, Decisions and Generations back.
#include "core/remote_backends.h"

#include "core/stages.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "core/canvas_plan.h"
#include "core/read_stats.h"

namespace core {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string trim_slashes(std::string u) {
    while (!u.empty() && u.back() == '/') u.pop_back();
    return u;
}

double elapsed_ms(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
        .count();
}

// A reply body that must be JSON; an error names the URL and shows the start of the body.
Result<json> parse_reply(const HttpResponse& r) {
    auto body = json::parse(r.body, nullptr, false);
    if (body.is_discarded()) {
        std::string start = r.body.substr(0, 120);
        for (char& c : start)
            if (c == '\n' || c == '\r') c = ' ';
        return engine::remote_error(r.method + " " + r.url + ": HTTP " + std::to_string(r.status) +
                                    ": reply is not JSON (starts \"" + start + "\")");
    }
    return body;
}

void fill_timings(Decision& d, const HttpResponse& r, double wall_ms) {
    d.timings.total_ms = wall_ms;
    d.timings.network_ms = r.server_ms ? std::max(0.0, wall_ms - *r.server_ms) : 0.0;
}

// A non-negative integer field of `object`, if it has one.
std::optional<int> count_of(const json& object, const char* key) {
    if (!object.is_object()) return std::nullopt;
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer() || it->get<int64_t>() < 0 ||
        it->get<int64_t>() > 1'000'000'000)
        return std::nullopt;
    return static_cast<int>(it->get<int64_t>());
}

// Prompt tokens and prompt-cache hits from a reply's `usage`, in either spelling: the chat
// form's (prompt_tokens, prompt_tokens_details.cached_tokens: OpenAI, vLLM, dgem serve) or
// /v1/systemone's (input_tokens, input_tokens_details.cached_tokens). A server that sends
// neither leaves the counts as they were (the diagnostics' prompt_tokens, 0 cached).
struct PromptUsage {
    std::optional<int> prompt_tokens;
    std::optional<int> cached_tokens;
};

PromptUsage prompt_usage(const json& reply) {
    PromptUsage u;
    if (!reply.is_object() || !reply.contains("usage")) return u;
    const json& usage = reply["usage"];
    for (auto [total, details] : {std::pair{"prompt_tokens", "prompt_tokens_details"},
                                  std::pair{"input_tokens", "input_tokens_details"}}) {
        if (!u.prompt_tokens) u.prompt_tokens = count_of(usage, total);
        if (!u.cached_tokens && usage.is_object() && usage.contains(details))
            u.cached_tokens = count_of(usage[details], "cached_tokens");
    }
    return u;
}

void fill_usage(Decision& d, const json& reply) {
    const PromptUsage u = prompt_usage(reply);
    if (u.prompt_tokens && d.prompt_tokens == 0) d.prompt_tokens = *u.prompt_tokens;
    if (u.cached_tokens) d.cached_prompt_tokens = std::min(*u.cached_tokens, d.prompt_tokens);
}

// The user turn of the chat decision form: the state as JSON text (a string state as a JSON
// string), in the form the structured server writes it.
std::string state_json_text(const ojson& state) {
    return state.is_string() ? state.dump() : state_text(state);
}

void report(const ProgressFn& progress, const std::string& stage, double fraction = -1) {
    if (progress) progress(Progress{stage, fraction, {}});
}

}  // namespace

std::optional<RemoteProtocol> parse_remote_protocol(std::string_view text) {
    if (text == "chat" || text == "dgem") return RemoteProtocol::Chat;
    if (text == "systemone") return RemoteProtocol::SystemOne;
    if (text == "vllm") return RemoteProtocol::Vllm;
    if (text == "openai") return RemoteProtocol::OpenAi;
    if (text == "auto") return RemoteProtocol::Auto;
    return std::nullopt;
}

std::string_view to_string(RemoteProtocol protocol) {
    switch (protocol) {
        case RemoteProtocol::Chat:
            return "chat";
        case RemoteProtocol::SystemOne:
            return "systemone";
        case RemoteProtocol::Vllm:
            return "vllm";
        case RemoteProtocol::OpenAi:
            return "openai";
        case RemoteProtocol::Auto:
            return "auto";
    }
    return "auto";
}

std::string chat_completions_url(const std::string& base_url) {
    std::string u = trim_slashes(base_url);
    const std::string l = lower(u);
    if (ends_with(l, "/chat/completions") || ends_with(l, ":rawpredict") ||
        ends_with(l, ":predict"))
        return u;
    if (l.find("prediction.vertexai.goog") != std::string::npos ||
        l.find("/invoke") != std::string::npos) {
        // Dedicated Vertex endpoints forward /invoke/v1/... to the container's /v1/...
        if (ends_with(l, "/v1")) u.resize(u.size() - 3);
        if (!ends_with(lower(u), "/invoke")) u += "/invoke";
        return u + "/v1/chat/completions";
    }
    if (l.find("aiplatform.googleapis.com") != std::string::npos) {
        if (ends_with(l, "/v1")) u.resize(u.size() - 3);
        return u + ":rawPredict";
    }
    return u + "/chat/completions";
}

// ---------------------------------------------------------------------------------------------
// Shared: generation, health, posting

RemoteBackend::RemoteBackend(RemoteOptions options, std::string kind)
    : options_(std::move(options)), kind_(std::move(kind)), transport_(options_.transport) {}

std::string RemoteBackend::describe() const {
    return kind_ + " " + options_.url;
}

Result<HttpResponse> RemoteBackend::post(const std::string& url, const std::string& body,
                                         const CancelToken& cancel,
                                         const HttpTransport::DataFn& on_data) const {
    auto r = transport_.post_json(url, body, cancel, on_data);
    if (!r) return r.error();
    if (!r->ok()) return http_status_error(*r);
    return r;
}

namespace {

// A user message's content: the text alone, or image_url parts (data: URIs) before the text, as
// dgem's client sends them.
ojson user_content(ojson text, const std::vector<ImageInput>& images) {
    if (images.empty()) return text;
    ojson parts = ojson::array();
    for (const ImageInput& image : images)
        parts.push_back({{"type", "image_url"}, {"image_url", {{"url", data_uri(image)}}}});
    parts.push_back({{"type", "text"}, {"text", std::move(text)}});
    return parts;
}

}  // namespace

Result<Generation> RemoteBackend::generate(const GenerateRequest& request,
                                           const ProgressFn& progress, const CancelToken& cancel) {
    ojson body;
    if (!options_.model.empty()) body["model"] = options_.model;
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
    if (options_.stream) {
        body["stream"] = true;
        body["stream_options"] = {{"include_usage", true}};  // token counts and steps at the end
    }

    const std::string url = chat_completions_url(options_.url);
    report(progress, "waiting for server");
    const auto started = std::chrono::steady_clock::now();
    Generation g;
    std::string pending;  // SSE bytes not yet split into lines
    std::string stream_error;
    bool saw_done = false;
    auto on_data = [&](std::string_view chunk) {
        pending.append(chunk);
        size_t nl;
        while ((nl = pending.find('\n')) != std::string::npos) {
            std::string line = pending.substr(0, nl);
            pending.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.rfind("data:", 0) != 0) continue;
            std::string data = line.substr(5);
            if (!data.empty() && data[0] == ' ') data.erase(0, 1);
            if (data == "[DONE]") {
                saw_done = true;
                continue;
            }
            auto event = json::parse(data, nullptr, false);
            if (!event.is_object()) continue;
            if (event.contains("error")) {
                stream_error = server_message(data);
                continue;
            }
            if (event.contains("model") && event["model"].is_string()) g.model = event["model"];
            if (event.contains("usage") && event["usage"].is_object()) {
                g.prompt_tokens = event["usage"].value("prompt_tokens", g.prompt_tokens);
                g.completion_tokens =
                    event["usage"].value("completion_tokens", g.completion_tokens);
                g.passes = event["usage"].value("diffusion_steps", g.passes);
            }
            if (!event.contains("choices") || !event["choices"].is_array() ||
                event["choices"].empty())
                continue;
            const json& choice = event["choices"][0];
            if (choice.contains("delta") && choice["delta"].is_object()) {
                const json& delta = choice["delta"];
                if (delta.contains("content") && delta["content"].is_string()) {
                    std::string text = delta["content"];
                    g.text += text;
                    if (progress && !text.empty()) progress(Progress{"generating", -1, text});
                }
            }
            if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
                g.finish_reason = choice["finish_reason"];
        }
    };
    auto r = post(url, body.dump(), cancel,
                  options_.stream ? HttpTransport::DataFn(on_data) : HttpTransport::DataFn());
    if (!r) return r.error();
    const double wall = elapsed_ms(started);
    if (options_.stream) {
        if (!stream_error.empty())
            return engine::remote_error("POST " + url + ": stream error: " + stream_error);
        const bool is_sse =
            r->header("content-type").find("text/event-stream") != std::string::npos;
        if (!is_sse || !saw_done) {
            if (!is_sse) {
                // A server that ignores "stream" answers with one ordinary completion.
                auto reply = parse_reply(*r);
                if (!reply) return reply.error();
                const json& c = *reply;
                if (!c.contains("choices") || !c["choices"].is_array() || c["choices"].empty())
                    return engine::remote_error("POST " + url + ": reply has no choices");
                g.text = c["choices"][0].value("message", json::object()).value("content", "");
                if (progress && !g.text.empty()) progress(Progress{"generating", -1, g.text});
            } else {
                return engine::remote_error("POST " + url + ": stream ended before data: [DONE]");
            }
        }
    } else {
        auto reply = parse_reply(*r);
        if (!reply) return reply.error();
        const json& c = *reply;
        if (!c.contains("choices") || !c["choices"].is_array() || c["choices"].empty() ||
            !c["choices"][0].is_object())
            return engine::remote_error("POST " + url + ": reply has no choices[0]");
        const json& choice = c["choices"][0];
        const json message = choice.value("message", json::object());
        if (!message.is_object() || !message.contains("content") || !message["content"].is_string())
            return engine::remote_error("POST " + url + ": choices[0].message.content is not text");
        g.text = message["content"];
        g.finish_reason = choice.value("finish_reason", std::string());
        g.model = c.value("model", std::string());
        if (c.contains("usage") && c["usage"].is_object()) {
            g.prompt_tokens = c["usage"].value("prompt_tokens", 0);
            g.completion_tokens = c["usage"].value("completion_tokens", 0);
            g.passes = c["usage"].value("diffusion_steps", 0);  // our servers' extension
        }
    }
    if (g.finish_reason.empty()) g.finish_reason = "stop";
    g.timings.total_ms = wall;
    g.timings.network_ms = r->server_ms ? std::max(0.0, wall - *r->server_ms) : 0.0;
    return g;
}

Result<HealthInfo> RemoteBackend::health(const CancelToken& cancel) {
    const std::string url = join_url(server_root(options_.url), "/health");
    auto r = transport_.get(url, cancel);
    if (!r) return r.error();
    if (!r->ok()) return http_status_error(*r);
    HealthInfo info;
    info.kind = "vllm";
    info.ready = true;
    auto body = json::parse(r->body, nullptr, false);
    if (body.is_object()) {
        info.raw = body;
        info.server = body.value("server", std::string());
        info.version = body.value("version", std::string());
        info.model = body.value("model", std::string());
        info.device = body.value("device", std::string());
        if (body.contains("ready") && body["ready"].is_boolean())
            info.ready = body["ready"];
        else if (body.contains("vllm_ready") && body["vllm_ready"].is_boolean())
            info.ready = body["vllm_ready"];
        else
            info.ready = body.value("status", std::string("ok")) == "ok";
        const std::string s = lower(info.server + " " + body.value("kind", std::string()));
        if (s.find("systemone") != std::string::npos || s.find("jev") != std::string::npos)
            info.kind = "systemone";
        else
            info.kind = "dgem";
    } else if (!r->body.empty()) {
        return engine::remote_error("GET " + url + ": HTTP " + std::to_string(r->status) +
                                    ": /health reply is neither JSON nor empty");
    }
    return info;
}

Result<RemoteProtocol> detect_protocol(const RemoteOptions& options, const CancelToken& cancel) {
    OpenAiChatBackend probe(options);
    auto h = probe.health(cancel);
    if (!h) return h.error();
    if (h->kind == "vllm") return RemoteProtocol::Vllm;
    if (h->kind == "systemone") return RemoteProtocol::SystemOne;
    return RemoteProtocol::Chat;
}

Result<std::unique_ptr<Backend>> make_remote_backend(RemoteProtocol protocol, RemoteOptions options,
                                                     const engine::Tokenizer* tokenizer,
                                                     const CancelToken& cancel) {
    if (protocol == RemoteProtocol::Auto) {
        auto detected = detect_protocol(options, cancel);
        if (!detected) return detected.error();
        protocol = *detected;
    }
    switch (protocol) {
        case RemoteProtocol::Chat:
            return std::unique_ptr<Backend>(new DgemChatBackend(std::move(options)));
        case RemoteProtocol::SystemOne:
            return std::unique_ptr<Backend>(new SystemOneBackend(std::move(options)));
        case RemoteProtocol::OpenAi:
            return std::unique_ptr<Backend>(new OpenAiChatBackend(std::move(options)));
        case RemoteProtocol::Vllm:
            if (!tokenizer)
                return engine::bad_input(
                    "--protocol vllm plans the canvas here and needs the "
                    "tokenizer (tokenizer.json of the served model)");
            return std::unique_ptr<Backend>(
                new VllmStructuredBackend(std::move(options), *tokenizer));
        case RemoteProtocol::Auto:
            break;
    }
    return engine::bad_input("unknown protocol");
}

// ---------------------------------------------------------------------------------------------
// Decisions

Result<Decision> OpenAiChatBackend::decide(const DecideRequest&, const ProgressFn&,
                                           const CancelToken&) {
    return engine::bad_input(describe() +
                             " only generates; decide with --protocol chat, systemone or vllm");
}

Result<Decision> DgemChatBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                         const CancelToken& cancel) {
    ojson body;
    if (!options_.model.empty()) body["model"] = options_.model;
    // Images go before the state text, as dgem's client places them.
    body["messages"] = ojson::array(
        {ojson{{"role", "system"}, {"content", schema_to_json(request.schema).dump()}},
         ojson{{"role", "user"},
               {"content", user_content(state_json_text(request.state), request.images)}}});
    body["seed"] = request.seed;
    const std::string url = chat_completions_url(options_.url);
    report(progress, "waiting for server");
    const auto started = std::chrono::steady_clock::now();
    auto r = post(url, body.dump(), cancel);
    if (!r) return r.error();
    const double wall = elapsed_ms(started);
    auto reply = parse_reply(*r);
    if (!reply) return reply.error();
    const json& c = *reply;
    if (!c.contains("choices") || !c["choices"].is_array() || c["choices"].empty() ||
        !c["choices"][0].is_object() || !c["choices"][0].contains("message") ||
        !c["choices"][0]["message"].is_object() ||
        !c["choices"][0]["message"].contains("content") ||
        !c["choices"][0]["message"]["content"].is_string())
        return engine::remote_error("POST " + url +
                                    ": reply has no choices[0].message.content text");
    auto content =
        json::parse(c["choices"][0]["message"]["content"].get<std::string>(), nullptr, false);
    if (content.is_discarded())
        return engine::remote_error("POST " + url +
                                    ": choices[0].message.content is not the JSON answer set "
                                    "(is this a decision server? try --protocol vllm or openai)");
    auto d = decision_from_json(content, request.schema, AnswerForm::Chat, "POST " + url);
    if (!d) return d.error();
    fill_timings(*d, *r, wall);
    fill_usage(*d, c);
    d->model = c.value("model", options_.model);
    d->backend = describe();
    d->raw = c;
    return d;
}

ojson systemone_request(const DecideRequest& request, const std::string& model) {
    const Schema& s = request.schema;
    ojson body;
    if (!model.empty()) body["model"] = model;
    body["state"] = request.state;
    ojson questions = ojson::object();
    for (const auto& q : s.questions) {
        ojson item;
        item["type"] = std::string(to_string(q.type));
        item["instructions"] = q.instructions;
        if (q.type == QuestionType::Noul) {
            ojson crit = ojson::object();
            for (const char* k : {"true", "false"})
                if (auto it = q.criteria.find(k); it != q.criteria.end()) crit[k] = it->second;
            if (!crit.empty()) item["criteria"] = crit;
        } else if (q.type == QuestionType::Choice) {
            ojson crit = ojson::object();
            for (const auto& o : q.options)
                crit[o.name] = o.description.empty() ? ojson(nullptr) : ojson(o.description);
            item["criteria"] = crit;
        } else {
            item["criteria"] = q.levels;
        }
        if (!q.depends_on.empty()) item["depends_on"] = q.depends_on;
        if (!q.ask_if.empty()) item["ask_if"] = ojson::parse(q.ask_if, nullptr, false);
        if (q.alone_explicit) item["alone"] = q.alone;
        questions[q.id] = item;
    }
    body["questions"] = questions;
    body["seed"] = request.seed;
    if (!s.instructions.empty()) body["instructions"] = s.instructions;
    if (s.samples.automatic)
        body["samples"] = "auto";
    else
        body["samples"] = s.samples.count;
    body["auto_threshold"] = s.auto_threshold;
    body["auto_max"] = s.auto_max;
    if (s.think > 0) body["think"] = s.think;
    body["steps"] = s.steps;
    body["layout"] = std::string(to_string(s.layout));
    body["isolate"] = std::string(to_string(s.isolate));
    body["seed_token"] = std::string(to_string(s.seed_token));
    if (!request.images.empty()) {
        body["images"] = ojson::array();
        for (const ImageInput& image : request.images) body["images"].push_back(data_uri(image));
    }
    return body;
}

Result<Decision> SystemOneBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                          const CancelToken& cancel) {
    const std::string url = join_url(server_root(options_.url), "/v1/systemone");
    report(progress, "waiting for server");
    const auto started = std::chrono::steady_clock::now();
    auto r = post(url, systemone_request(request, options_.model).dump(), cancel);
    if (!r) return r.error();
    const double wall = elapsed_ms(started);
    auto reply = parse_reply(*r);
    if (!reply) return reply.error();
    auto d = decision_from_json(*reply, request.schema, AnswerForm::SystemOne, "POST " + url);
    if (!d) return d.error();
    fill_timings(*d, *r, wall);
    fill_usage(*d, *reply);
    d->model = reply->value("model", options_.model);
    d->backend = describe();
    d->raw = *reply;
    return d;
}

Result<Decision> VllmStructuredBackend::decide(const DecideRequest& request,
                                               const ProgressFn& progress,
                                               const CancelToken& cancel) {
    // A structured read carries chat messages and one seeded canvas: the prompt-side thought
    // and the earlier stages' answers of a multi-pass decision cannot be sent this way.
    if (is_multi_pass(request.schema))
        return engine::bad_input(
            "think and depends_on/ask_if need passes the vLLM structured-read protocol cannot "
            "send; decide on a dgem server (protocol chat or systemone) or on the local engine");
    if (!request.images.empty())
        return engine::bad_input(
            "images: the vLLM structured-read protocol here carries text only; send image "
            "decisions to a dgem server (protocol chat or systemone)");
    PlanOptions plan_options;
    plan_options.canvas_length = options_.canvas_length;
    plan_options.seed = request.seed;
    auto plan = build_plan(request.schema, request.state, tokenizer_, plan_options);
    if (!plan) return plan.error();
    const std::string url = chat_completions_url(options_.url);
    const auto started = std::chrono::steady_clock::now();
    double server_ms = 0;
    bool all_timed = true;
    int cached_tokens = 0;  // the most prompt tokens any row's reply says came from its cache

    // reads[group][slot] -> one SlotRead per row of that group
    std::vector<std::vector<std::vector<SlotRead>>> reads(plan->groups.size());
    for (size_t g = 0; g < plan->groups.size(); ++g)
        reads[g].resize(plan->groups[g].answer_slots.size());
    int rows_done = 0;

    auto read_row = [&](const PlanRow& row) -> Result<void> {
        const ReadGroup& group = plan->groups[static_cast<size_t>(row.group)];
        ojson body;
        if (!options_.model.empty()) body["model"] = options_.model;
        body["messages"] = ojson::array();
        for (const auto& m : group.messages)
            body["messages"].push_back({{"role", m.role}, {"content", m.content}});
        body["max_tokens"] = group.width;
        body["logprobs"] = true;
        body["top_logprobs"] = 20;
        body["logprob_token_ids"] = group.label_union;
        body["return_tokens_as_token_ids"] = true;
        body["chat_template_kwargs"] = {{"enable_thinking", false}};
        body["vllm_xargs"] = {{"diffusion_seed_canvas", row.canvas_ids},
                              {"diffusion_canvas_length", group.width},
                              {"diffusion_max_steps", request.schema.steps},
                              {"diffusion_read_only", true},
                              {"diffusion_constrained", true}};
        auto r = post(url, body.dump(), cancel);
        if (!r) return r.error();
        if (r->server_ms)
            server_ms += *r->server_ms;
        else
            all_timed = false;
        auto reply = parse_reply(*r);
        if (!reply) return reply.error();
        const json& c = *reply;
        cached_tokens = std::max(cached_tokens, prompt_usage(c).cached_tokens.value_or(0));
        const json* content = nullptr;
        if (c.contains("choices") && c["choices"].is_array() && !c["choices"].empty()) {
            const json& choice = c["choices"][0];
            if (choice.contains("logprobs") && choice["logprobs"].is_object() &&
                choice["logprobs"].contains("content") && choice["logprobs"]["content"].is_array())
                content = &choice["logprobs"]["content"];
        }
        if (!content)
            return engine::remote_error(
                "POST " + url +
                ": reply has no choices[0].logprobs.content (does the server "
                "support diffusion structured reads?)");
        for (size_t si = 0; si < group.answer_slots.size(); ++si) {
            const PlanSlot& slot = group.answer_slots[si];
            if (static_cast<size_t>(slot.pos) >= content->size())
                return engine::remote_error("POST " + url + ": logprobs.content has " +
                                            std::to_string(content->size()) + " rows; slot of \"" +
                                            slot.question + "\" is at " + std::to_string(slot.pos));
            const json& row_json = (*content)[static_cast<size_t>(slot.pos)];
            std::map<int32_t, double> top;
            if (row_json.contains("top_logprobs") && row_json["top_logprobs"].is_array())
                for (const auto& t : row_json["top_logprobs"]) {
                    if (!t.is_object() || !t.contains("token") || !t["token"].is_string() ||
                        !t.contains("logprob") || !t["logprob"].is_number())
                        continue;
                    const std::string name = t["token"];
                    if (name.rfind("token_id:", 0) != 0) continue;
                    try {
                        top[static_cast<int32_t>(std::stol(name.substr(9)))] =
                            t["logprob"].get<double>();
                    } catch (...) {
                    }
                }
            if (top.empty())
                return engine::remote_error(
                    "POST " + url + ": no \"token_id:<n>\" top_logprobs at position " +
                    std::to_string(slot.pos) + " (question \"" + slot.question + "\")");
            SlotRead read;
            read.label_logprobs = label_logprobs_from_topk(top, slot.label_ids);
            read.label_mass = 0;
            for (double lp : read.label_logprobs) read.label_mass += std::exp(lp);
            auto best = std::max_element(top.begin(), top.end(), [](const auto& a, const auto& b) {
                return a.second < b.second;
            });
            read.argmax_is_label = std::find(slot.label_ids.begin(), slot.label_ids.end(),
                                             best->first) != slot.label_ids.end();
            reads[static_cast<size_t>(row.group)][si].push_back(std::move(read));
        }
        ++rows_done;
        return {};
    };

    const int first_rows = static_cast<int>(plan->rows.size());
    for (const auto& row : plan->rows) {
        report(progress, "reading canvas rows", first_rows ? double(rows_done) / first_rows : -1);
        if (auto ok = read_row(row); !ok) return ok.error();
    }
    // The "auto" samples policy: more reads for a group whose first read hesitates.
    if (plan->samples.automatic) {
        for (size_t g = 0; g < plan->groups.size(); ++g) {
            std::vector<double> entropies;
            for (const auto& slot_reads : reads[g])
                if (!slot_reads.empty())
                    entropies.push_back(entropy_nats(softmax(slot_reads.front().label_logprobs)));
            if (!needs_more_reads(entropies, plan->auto_threshold, plan->auto_max)) continue;
            for (const auto& row : extension_rows(*plan, static_cast<int>(g)))
                if (auto ok = read_row(row); !ok) return ok.error();
        }
    }

    Decision d;
    d.layout = plan->layout;
    d.reads = rows_done;
    std::vector<std::pair<int, QuestionOutcome>> outcomes;
    for (size_t g = 0; g < plan->groups.size(); ++g) {
        const ReadGroup& group = plan->groups[g];
        d.prompt_tokens = std::max(d.prompt_tokens, static_cast<int>(group.prompt_ids.size()));
        for (size_t si = 0; si < group.answer_slots.size(); ++si) {
            const PlanSlot& slot = group.answer_slots[si];
            QuestionOutcome o = aggregate_reads(
                request.schema.questions[static_cast<size_t>(slot.question_index)], reads[g][si]);
            o.pos = slot.pos;
            o.isolated = group.isolated;
            d.samples = std::max(d.samples, static_cast<int>(reads[g][si].size()));
            outcomes.emplace_back(slot.question_index, std::move(o));
        }
    }
    std::sort(outcomes.begin(), outcomes.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [index, o] : outcomes) d.questions.push_back(std::move(o));
    d.cached_prompt_tokens = std::min(cached_tokens, d.prompt_tokens);
    const double wall = elapsed_ms(started);
    d.timings.total_ms = wall;
    d.timings.network_ms = all_timed ? std::max(0.0, wall - server_ms) : 0.0;
    d.model = options_.model;
    d.backend = describe();
    d.raw = decision_json(d, AnswerForm::Chat);
    return d;
}

}  // namespace core
