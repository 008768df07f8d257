// dgem serve's routes: the chat-completions decision and generative forms, the vLLM
// structured-read extension, /v1/systemone and /health.
#include "server_routes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/canvas_plan.h"
#include "core/chat_template.h"
#include "core/images.h"
#include "core/json_input.h"
#include "core/read_stats.h"
#include "server/request_checks.h"

namespace core::server {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// Replies never throw on text that is not UTF-8 (a generation's partial bytes): replaced.
template <typename Json>
std::string dump_safe(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void reply_json(httplib::Response& res, int status, const std::string& body) {
    res.status = status;
    res.set_content(body, "application/json");
}

void reply_error(httplib::Response& res, int status, const std::string& message,
                 const std::string& type = "invalid_request_error") {
    reply_json(res, status, dump_safe(json{{"error", {{"message", message}, {"type", type}}}}));
}

// The status a Backend error maps to; `bad_input_status` is 400 on chat, 422 on /v1/systemone.
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

double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::string completion_id() {
    static std::atomic<uint64_t> counter{0};
    auto now = std::chrono::system_clock::now().time_since_epoch();
    return "chatcmpl-" +
           std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()) +
           "-" + std::to_string(counter.fetch_add(1));
}

int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Parses a request body; a malformed one is a 400 naming the parse position.
// Ill-formed UTF-8 (its offset and field named, its bytes never echoed), too deep nesting and
// syntax errors are refused before any field is read.
std::optional<ojson> parse_body(const httplib::Request& req, httplib::Response& res) {
    ojson body;
    if (auto error = read_body(req.body, body)) {
        reply_error(res, 400, *error);
        return std::nullopt;
    }
    return body;
}

// A message's text: a string, or the text parts of a content array. Sets `has_image`.
std::string message_text(const ojson& message, bool* has_image = nullptr) {
    if (!message.is_object() || !message.contains("content")) return {};
    const ojson& c = message["content"];
    if (c.is_string()) return c.get<std::string>();
    std::string out;
    if (c.is_array())
        for (const auto& part : c) {
            if (!part.is_object()) continue;
            const std::string type = part.value("type", std::string());
            if (type == "text" && part.contains("text") && part["text"].is_string())
                out += part["text"].get<std::string>();
            else if ((type == "image_url" || type == "image") && has_image)
                *has_image = true;
        }
    return out;
}

// The images a request carries, in order: image_url parts of a user message, or
// /v1/systemone's "images" (strings or {"url"}). Only data: URIs: this server fetches no URL
// (dgem's DGEM_IMAGE_URLS=deny), so a client sends the bytes. Errors name the part.
Result<std::vector<ImageInput>> images_of(const ojson& list, const std::string& field) {
    std::vector<ImageInput> out;
    if (!list.is_array()) return out;
    for (size_t i = 0; i < list.size(); ++i) {
        const ojson& part = list[i];
        const std::string where = field + "[" + std::to_string(i) + "]";
        const ojson* url = &part;
        if (part.is_object()) {
            const std::string type = part.value("type", std::string("image_url"));
            if (type == "text") continue;
            if (part.contains("image_url")) url = &part["image_url"];
            if (url->is_object() && url->contains("url"))
                url = &(*url)["url"];
            else if (part.contains("url"))
                url = &part["url"];
        }
        if (!url->is_string()) return engine::bad_input(where + ": an image must be a data: URI");
        const std::string text = url->get<std::string>();
        if (text.rfind("data:", 0) != 0)
            return engine::bad_input(where +
                                     ": this server fetches no image URL (DGEM_IMAGE_URLS=deny); "
                                     "send the image as a data: URI");
        auto image = image_from_data_uri(text);
        if (!image) return engine::bad_input(where + ": " + image.error().message);
        out.push_back(std::move(*image));
    }
    if (static_cast<int>(out.size()) > kMaxImages)
        return engine::bad_input(field + ": " + std::to_string(out.size()) +
                                 " images; accepted: " + accepted_images());
    return out;
}

// A Generation's finish reason on the wire: OpenAI's "stop" or "length" (a generation cut by
// GENERATION_TIMEOUT_S ends with "length", as one cut by max_tokens does).
std::string wire_finish(const std::string& reason) {
    if (reason.empty()) return "stop";
    if (reason == "time_limit") return "length";
    return reason;
}

// OpenAI's usage object, plus diffusion_steps: the decoder passes the generation took (clients
// that do not know the field ignore it; Decision Studio's comparison reports it).
ojson usage_of(const Generation& g) {
    return {{"prompt_tokens", g.prompt_tokens},
            {"completion_tokens", g.completion_tokens},
            {"total_tokens", g.prompt_tokens + g.completion_tokens},
            {"diffusion_steps", g.passes}};
}

std::string role_of(const ojson& message) {
    return message.is_object() && message.contains("role") && message["role"].is_string()
               ? message["role"].get<std::string>()
               : std::string();
}

std::optional<uint64_t> seed_of(const ojson& body, uint64_t fallback, httplib::Response& res) {
    if (!body.contains("seed") || body["seed"].is_null()) return fallback;
    if (!body["seed"].is_number_integer() || body["seed"].get<int64_t>() < 0) {
        reply_error(res, 400, "\"seed\" must be a non-negative integer");
        return std::nullopt;
    }
    return body["seed"].get<uint64_t>();
}

}  // namespace

Routes::Routes(std::shared_ptr<Backend> backend, const ServerOptions& options,
               engine::Engine* engine, AdmissionGate& admission)
    : backend_(std::move(backend)), options_(options), engine_(engine), admission_(admission) {}

// MAX_INFLIGHT decisions run at once; the rest wait their turn (FIFO) up to INFLIGHT_WAIT_S in a
// queue of MAX_QUEUE, and only then get 503 overloaded with Retry-After.
std::optional<AdmissionGate::Ticket> Routes::admit(httplib::Response& res) {
    auto got = admission_.acquire();
    if (auto* ticket = std::get_if<AdmissionGate::Ticket>(&got)) return std::move(*ticket);
    const auto refusal = std::get<AdmissionGate::Refusal>(got);
    res.set_header("Retry-After", std::to_string(options_.retry_after_s));
    reply_error(res, 503,
                std::string("server busy: ") + AdmissionGate::describe(refusal) + "; " +
                    std::to_string(options_.max_inflight) +
                    " decisions run at once (MAX_INFLIGHT); retry after " +
                    std::to_string(options_.retry_after_s) + " s",
                "overloaded");
    return std::nullopt;
}

void Routes::health(httplib::Response& res) {
    ojson body{{"status", "ok"},
               {"server", "dgem serve (Decision Studio)"},
               {"version", options_.version}};
    engine::CancelToken none;
    auto h = backend_->health(none);
    if (h) {
        body["ready"] = h->ready;
        body["model"] = !options_.model_name.empty() ? options_.model_name : h->model;
        body["device"] = h->device;
        body["backend"] = backend_->describe();
    } else {
        body["ready"] = false;
        body["detail"] = h.error().message;
    }
    if (engine_) {
        body["canvas_length"] = engine_->info().canvas_length;
        body["vocab_size"] = engine_->info().vocab_size;
        // The engine's scheduler: read batches run so far and what waits for the engine now.
        const engine::SchedulerStats st = engine_->scheduler_stats();
        body["batching"] = {{"batches", st.batches},
                            {"reads", st.reads},
                            {"largest_batch", st.largest_batch},
                            {"generation_steps", st.generation_units},
                            {"waiting", st.queued}};
        const engine::PrefixCacheStats& pc = st.prefix_cache;
        body["prefix_cache"] = {{"full_hits", pc.full_hits}, {"partial_hits", pc.partial_hits},
                                {"misses", pc.misses},       {"tokens_reused", pc.tokens_reused},
                                {"evictions", pc.evictions}, {"entries", pc.entries},
                                {"bytes", pc.bytes},         {"budget_bytes", pc.budget_bytes}};
    }
    body["max_tokens"] = options_.max_tokens;
    body["generation_timeout_s"] = options_.generation_timeout_s;
    const auto counts = admission_.counts();
    body["max_inflight"] = options_.max_inflight;
    body["max_queue"] = options_.max_queue;
    body["inflight_wait_s"] = options_.inflight_wait_s;
    body["inflight"] = counts.inflight;
    body["queued"] = counts.queued;
    body["accepting"] = !admission_.closed();
    reply_json(res, 200, dump_safe(body));
}

// ---------------------------------------------------------------------------------------------
// POST /v1/chat/completions

void Routes::chat_completions(const httplib::Request& req, httplib::Response& res) {
    auto body = parse_body(req, res);
    if (!body) return;
    if (auto invalid = check_chat_body(*body, options_.max_tokens))
        return reply_error(res, 400, *invalid);
    if (!body->contains("messages") || !(*body)["messages"].is_array() ||
        (*body)["messages"].empty())
        return reply_error(res, 400, "\"messages\" must be a non-empty array of {role, content}");
    const ojson& messages = (*body)["messages"];
    for (size_t i = 0; i < messages.size(); ++i)
        if (role_of(messages[i]).empty())
            return reply_error(res, 400,
                               "messages[" + std::to_string(i) + "] needs a \"role\" string");

    if (body->contains("vllm_xargs") && (*body)["vllm_xargs"].is_object() &&
        (*body)["vllm_xargs"].contains("diffusion_seed_canvas"))
        return structured_read(*body, res);

    // The decision form: exactly system/developer + user, the system text a JSON schema.
    if (messages.size() == 2 &&
        (role_of(messages[0]) == "system" || role_of(messages[0]) == "developer") &&
        role_of(messages[1]) == "user") {
        ojson schema_json;
        JsonInputError not_json;
        if (!parse_json_input_raw(message_text(messages[0]), schema_json, not_json))
            schema_json = nullptr;
        if (schema_json.is_object() && schema_json.contains("questions")) {
            std::string state = message_text(messages[1]);
            auto images = images_of(messages[1]["content"], "messages[1].content");
            if (!images) return reply_error(res, 400, images.error().message);
            return decision_form(*body, schema_json, state, std::move(*images), res);
        }
    }
    return generative_form(*body, res);
}

namespace {

// Schema keys the server supplies when a request leaves them out (DEFAULT_*).
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

}  // namespace

void Routes::decision_form(const ojson& body, const ojson& schema_in,
                           const std::string& state_text_in, std::vector<ImageInput> images,
                           httplib::Response& res) {
    ojson schema_json = schema_in;
    apply_defaults(schema_json, options_);
    auto schema = parse_schema(schema_json, "system message (schema)");
    if (!schema) return reply_error(res, 400, schema.error().message);
    ojson state;  // in the caller's key order: the prompt shows it as written
    JsonInputError state_error;
    if (!parse_json_input_raw(state_text_in, state, state_error))
        return reply_error(res, 400,
                           "\"messages[1].content\" (the user message) must be the state as JSON "
                           "text; at byte " +
                               std::to_string(state_error.offset) + ": " + state_error.message);
    auto seed = seed_of(body, 42, res);
    if (!seed) return;

    DecideRequest request{std::move(*schema), std::move(state), *seed, std::move(images)};
    if (auto over = over_model_len(request)) return reply_error(res, 400, *over);
    auto admission = admit(res);
    if (!admission) return;
    const auto started = std::chrono::steady_clock::now();
    auto decision = backend_->decide(request, {}, engine::CancelToken{});
    const double ms = ms_since(started);
    if (!decision) return reply_backend_error(res, decision.error(), 400);

    ojson reply;
    reply["id"] = completion_id();
    reply["object"] = "chat.completion";
    reply["created"] = unix_now();
    reply["model"] =
        model_of(body, options_.model_name.empty() ? decision->model : options_.model_name);
    reply["choices"] = ojson::array(
        {ojson{{"index", 0},
               {"message",
                {{"role", "assistant"},
                 {"content", dump_safe(decision_json(*decision, AnswerForm::Chat), 2)}}},
               {"finish_reason", "stop"}}});
    reply["usage"] = {
        {"prompt_tokens", decision->prompt_tokens},
        {"completion_tokens", decision->reads},
        {"total_tokens", decision->prompt_tokens + decision->reads},
        {"prompt_tokens_details", {{"cached_tokens", decision->cached_prompt_tokens}}}};
    set_server_timing(res, ms);
    reply_json(res, 200, dump_safe(reply));
}

void Routes::generative_form(const ojson& body, httplib::Response& res) {
    GenerateRequest request;
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
            return reply_error(res, 400,
                               "messages[" + std::to_string(i) +
                                   "]: images are accepted in the first user message only");
        if (has_image) {
            auto images = images_of(m["content"], "messages[" + std::to_string(i) + "].content");
            if (!images) return reply_error(res, 400, images.error().message);
            request.images = std::move(*images);
        }
        request.messages.push_back({role_of(m), text});
    }
    // MAX_TOKENS bounds what a request may ask for (check_chat_body) and what it gets without
    // asking; GENERATION_TIMEOUT_S bounds its wall time (finish_reason "length" past either).
    request.max_tokens = std::min(request.max_tokens, options_.max_tokens);
    for (const char* key : {"max_completion_tokens", "max_tokens"})
        if (body.contains(key) && body[key].is_number_integer())
            request.max_tokens = body[key].get<int>();
    request.time_limit_s = options_.generation_timeout_s;
    auto seed = seed_of(body, 0, res);
    if (!seed) return;
    request.seed = *seed;
    if (body.contains("temperature") && body["temperature"].is_number())
        request.temperature = body["temperature"].get<double>();
    const bool stream = flag_of(body, "stream");
    const bool include_usage = body.contains("stream_options") &&
                               body["stream_options"].is_object() &&
                               flag_of(body["stream_options"], "include_usage");
    if (engine_ && options_.max_model_len > 0) {
        auto runs = image_runs(request.images);
        if (!runs) return reply_error(res, 400, runs.error().message);
        size_t prompt = engine_->tokenizer().encode(render_chat(request.messages)).size();
        for (int n : *runs) prompt += static_cast<size_t>(n) + 2;  // boi, soft tokens, eoi
        if (static_cast<int>(prompt) + request.max_tokens > options_.max_model_len)
            return reply_error(
                res, 400,
                "prompt of " + std::to_string(prompt) + " tokens" +
                    (runs->empty() ? std::string()
                                   : " (" + std::to_string(runs->size()) + " image(s) included)") +
                    " plus max_tokens " + std::to_string(request.max_tokens) +
                    " exceeds MAX_MODEL_LEN=" + std::to_string(options_.max_model_len));
    }
    auto admission = admit(res);
    if (!admission) return;
    const std::string model = model_of(body, options_.model_name);
    const std::string id = completion_id();
    const int64_t created = unix_now();

    if (!stream) {
        const auto started = std::chrono::steady_clock::now();
        auto g = backend_->generate(request, {}, engine::CancelToken{});
        const double ms = ms_since(started);
        if (!g) return reply_backend_error(res, g.error(), 400);
        ojson reply{{"id", id},
                    {"object", "chat.completion"},
                    {"created", created},
                    {"model", model.empty() ? g->model : model},
                    {"choices",
                     ojson::array({ojson{{"index", 0},
                                         {"message", {{"role", "assistant"}, {"content", g->text}}},
                                         {"finish_reason", wire_finish(g->finish_reason)}}})},
                    {"usage", usage_of(*g)}};
        if (g->finish_reason == "time_limit")  // vLLM's field for why it stopped
            reply["choices"][0]["stop_reason"] = "time_limit";
        set_server_timing(res, ms);
        return reply_json(res, 200, dump_safe(reply));
    }

    // SSE in OpenAI's chunk format; the generation runs while the response streams, holding its
    // decision slot until the provider (copied into the response) is gone.
    auto backend = backend_;
    auto held = std::make_shared<AdmissionGate::Ticket>(std::move(*admission));
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider("text/event-stream", [backend, request, held, model, id,
                                                           created, include_usage,
                                                           log = options_.access_log](
                                                              size_t, httplib::DataSink& sink) {
        auto chunk = [&](const ojson& delta, const ojson& finish) {
            ojson c{
                {"id", id},
                {"object", "chat.completion.chunk"},
                {"created", created},
                {"model", model},
                {"choices",
                 ojson::array({ojson{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}})}};
            const std::string line = "data: " + dump_safe(c) + "\n\n";
            return sink.write(line.data(), line.size());
        };
        engine::CancelToken cancel;
        chunk({{"role", "assistant"}, {"content", ""}}, nullptr);
        std::string sent;
        auto progress = [&](const Progress& p) {
            if (p.text_delta.empty() || p.stage == "done") return;
            sent += p.text_delta;
            if (!chunk({{"content", p.text_delta}}, nullptr)) cancel.cancel();  // client went away
        };
        // The provider runs outside httplib's handler: an exception here is caught, logged
        // under an id and reported by that id as the stream's error event.
        Result<Generation> g = engine::engine_error("no generation");
        try {
            g = backend->generate(request, progress, cancel);
        } catch (const std::exception& e) {
            const std::string eid = new_error_id();
            log_internal_error(log, eid, std::string("streamed generation: ") + e.what());
            g = engine::engine_error("internal server error (error id " + eid +
                                     "; the server's log has the details)");
        } catch (...) {
            const std::string eid = new_error_id();
            log_internal_error(log, eid, "streamed generation: unknown exception");
            g = engine::engine_error("internal server error (error id " + eid + ")");
        }
        if (!g) {
            const std::string line =
                "data: " +
                dump_safe(
                    json{{"error", {{"message", g.error().message}, {"type", "server_error"}}}}) +
                "\n\n";
            sink.write(line.data(), line.size());
        } else {
            if (g->text.size() > sent.size() && g->text.compare(0, sent.size(), sent) == 0)
                chunk({{"content", g->text.substr(sent.size())}}, nullptr);
            chunk(ojson::object(), wire_finish(g->finish_reason));
            if (include_usage) {
                ojson u{
                    {"id", id},       {"object", "chat.completion.chunk"}, {"created", created},
                    {"model", model}, {"choices", ojson::array()},         {"usage", usage_of(*g)}};
                const std::string line = "data: " + dump_safe(u) + "\n\n";
                sink.write(line.data(), line.size());
            }
        }
        static const std::string done = "data: [DONE]\n\n";
        sink.write(done.data(), done.size());
        sink.done();
        return true;
    });
}

// The vLLM structured-read extension (PROTOCOLS section 5): one read of the caller's canvas.
void Routes::structured_read(const ojson& body, httplib::Response& res) {
    if (!engine_)
        return reply_error(
            res, 400, "structured reads (vllm_xargs.diffusion_seed_canvas) need the local engine");
    const ojson& x = body["vllm_xargs"];
    const int vocab = engine_->info().vocab_size;
    const ojson& seed = x["diffusion_seed_canvas"];
    if (!seed.is_array() || seed.empty())
        return reply_error(
            res, 400, "vllm_xargs.diffusion_seed_canvas must be a non-empty array of token ids");
    const int width =
        x.contains("diffusion_canvas_length") && x["diffusion_canvas_length"].is_number_integer()
            ? x["diffusion_canvas_length"].get<int>()
            : static_cast<int>(seed.size());
    if (static_cast<int>(seed.size()) != width)
        return reply_error(res, 400,
                           "vllm_xargs.diffusion_seed_canvas has " + std::to_string(seed.size()) +
                               " ids; diffusion_canvas_length is " + std::to_string(width));
    if (width > engine_->info().canvas_length)
        return reply_error(res, 400,
                           "diffusion_canvas_length " + std::to_string(width) +
                               " exceeds the served canvas length " +
                               std::to_string(engine_->info().canvas_length));
    if (x.contains("diffusion_max_steps") && x["diffusion_max_steps"].is_number_integer() &&
        x["diffusion_max_steps"].get<int>() != 1)
        return reply_error(res, 400,
                           "this server reads with one decoder step (diffusion_max_steps 1)");
    engine::CanvasRow row;
    for (size_t i = 0; i < seed.size(); ++i) {
        if (!seed[i].is_number_integer() || seed[i].get<int64_t>() < 0 ||
            seed[i].get<int64_t>() >= vocab)
            return reply_error(res, 400,
                               "vllm_xargs.diffusion_seed_canvas[" + std::to_string(i) +
                                   "] = " + describe_json(seed[i]) + " is not a token id in [0, " +
                                   std::to_string(vocab) + ")");
        row.ids.push_back(seed[i].get<int32_t>());
    }
    std::vector<engine::TokenId> labels;
    if (body.contains("logprob_token_ids")) {
        const ojson& ids = body["logprob_token_ids"];
        if (!ids.is_array() || ids.empty() || ids.size() > 128)
            return reply_error(res, 400, "logprob_token_ids must list 1 to 128 token ids");
        for (size_t i = 0; i < ids.size(); ++i) {
            if (!ids[i].is_number_integer() || ids[i].get<int64_t>() < 0 ||
                ids[i].get<int64_t>() >= vocab)
                return reply_error(res, 400,
                                   "logprob_token_ids[" + std::to_string(i) +
                                       "] = " + describe_json(ids[i]) +
                                       " is not a token id in [0, " + std::to_string(vocab) + ")");
            labels.push_back(ids[i].get<int32_t>());
        }
        std::sort(labels.begin(), labels.end());
        labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    } else {
        return reply_error(res, 400,
                           "structured reads need logprob_token_ids (the label ids to read)");
    }
    const bool constrained = flag_of(x, "diffusion_constrained");
    const int top_n = body.contains("top_logprobs") && body["top_logprobs"].is_number_integer()
                          ? std::max(0, body["top_logprobs"].get<int>())
                          : 20;
    bool thinking = false;
    if (body.contains("chat_template_kwargs") && body["chat_template_kwargs"].is_object())
        thinking = flag_of(body["chat_template_kwargs"], "enable_thinking");
    std::vector<ChatMessage> messages;
    for (const auto& m : body["messages"]) messages.push_back({role_of(m), message_text(m)});
    engine::SlotReadRequest read;
    read.prompt_ids = engine_->tokenizer().encode(render_chat(messages, thinking));
    if (options_.max_model_len > 0 &&
        static_cast<int>(read.prompt_ids.size()) + width > options_.max_model_len)
        return reply_error(res, 400,
                           "prompt of " + std::to_string(read.prompt_ids.size()) +
                               " tokens plus a canvas of " + std::to_string(width) +
                               " exceeds MAX_MODEL_LEN=" + std::to_string(options_.max_model_len));
    for (int pos = 0; pos < width; ++pos) row.slot_specs.push_back({pos, labels});
    read.rows.push_back(std::move(row));

    auto admission = admit(res);
    if (!admission) return;
    const auto started = std::chrono::steady_clock::now();
    auto result = engine_->read_slots(read, engine::CancelToken{});
    const double ms = ms_since(started);
    if (!result) return reply_backend_error(res, result.error(), 400);

    ojson content = ojson::array();
    std::vector<engine::TokenId> argmax_ids;
    for (const auto& slot : result->rows.at(0)) {
        std::vector<double> lps(slot.label_logprobs.begin(), slot.label_logprobs.end());
        if (constrained) {  // normalised over the label set
            const double mx = *std::max_element(lps.begin(), lps.end());
            double sum = 0;
            for (double v : lps) sum += std::exp(v - mx);
            for (double& v : lps) v -= mx + std::log(sum);
        }
        std::vector<size_t> order(labels.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return lps[a] > lps[b]; });
        ojson top = ojson::array();
        const size_t keep = std::max<size_t>(static_cast<size_t>(top_n), labels.size());
        for (size_t k = 0; k < std::min(keep, order.size()); ++k)
            top.push_back({{"token", "token_id:" + std::to_string(labels[order[k]])},
                           {"logprob", lps[order[k]]}});
        const engine::TokenId chosen = constrained ? labels[order[0]] : slot.argmax_id;
        argmax_ids.push_back(chosen);
        ojson entry{{"token", "token_id:" + std::to_string(chosen)}};
        auto it = std::find(labels.begin(), labels.end(), chosen);
        entry["logprob"] = it != labels.end() ? ojson(lps[static_cast<size_t>(it - labels.begin())])
                                              : ojson(nullptr);
        entry["top_logprobs"] = std::move(top);
        content.push_back(std::move(entry));
    }
    ojson reply{
        {"id", completion_id()},
        {"object", "chat.completion"},
        {"created", unix_now()},
        {"model", model_of(body, options_.model_name)},
        {"choices", ojson::array({ojson{{"index", 0},
                                        {"message",
                                         {{"role", "assistant"},
                                          {"content", engine_->tokenizer().decode(argmax_ids)}}},
                                        {"logprobs", {{"content", content}}},
                                        {"finish_reason", "length"}}})},
        {"usage",
         {{"prompt_tokens", read.prompt_ids.size()},
          {"completion_tokens", width},
          {"total_tokens", static_cast<int>(read.prompt_ids.size()) + width},
          // As vLLM with prompt-token details on: the prompt the prefix cache supplied.
          {"prompt_tokens_details", {{"cached_tokens", result->reused_prompt_tokens}}}}}};
    set_server_timing(res, ms);
    reply_json(res, 200, dump_safe(reply));
}

// ---------------------------------------------------------------------------------------------
Result<std::vector<int>> Routes::image_runs(const std::vector<ImageInput>& images) const {
    std::vector<int> runs;
    // The images' soft tokens count, as the engine will place them; a model without a vision
    // tower refuses images when it reads, with its own message.
    if (!engine_ || engine_->info().image_tokens <= 0) return runs;
    for (const ImageInput& image : images) {
        auto decoded = decode_image(image);
        if (!decoded) return decoded.error();
        auto n = engine_->image_soft_tokens(decoded->width, decoded->height);
        if (!n) return n.error();
        runs.push_back(*n);
    }
    return runs;
}

std::optional<std::string> Routes::over_model_len(const DecideRequest& request) const {
    if (!engine_ || options_.max_model_len <= 0) return std::nullopt;
    PlanOptions po;
    po.canvas_length = engine_->info().canvas_length;
    po.seed = request.seed;
    auto runs = image_runs(request.images);
    if (!runs) return runs.error().message;
    po.image_runs = std::move(*runs);
    auto plan = build_plan(request.schema, request.state, engine_->tokenizer(), po);
    if (!plan) return plan.error().message;
    for (const auto& g : plan->groups)
        if (static_cast<int>(g.prompt_ids.size()) + request.schema.think + g.width >
            options_.max_model_len)
            return "prompt of " + std::to_string(g.prompt_ids.size()) + " tokens" +
                   (po.image_runs.empty()
                        ? std::string()
                        : " (" + std::to_string(po.image_runs.size()) + " image(s) included)") +
                   (request.schema.think > 0
                        ? ", a thought of up to " + std::to_string(request.schema.think)
                        : std::string()) +
                   " plus a canvas of " + std::to_string(g.width) +
                   " exceeds MAX_MODEL_LEN=" + std::to_string(options_.max_model_len);
    return std::nullopt;
}

// POST /v1/systemone

void Routes::systemone(const httplib::Request& req, httplib::Response& res) {
    auto body = parse_body(req, res);
    if (!body) return;
    const ojson& b = *body;
    if (auto invalid = check_systemone_body(b)) return reply_error(res, 400, *invalid);
    if (!b.contains("questions") || !b["questions"].is_object() || b["questions"].empty())
        return reply_error(
            res, 422, "questions: needs a non-empty map of id -> {type, instructions, criteria}",
            "validation_error");
    if (!b.contains("state") || b["state"].is_null())
        return reply_error(res, 422, "state: required", "validation_error");
    auto images = images_of(b.contains("images") ? b["images"] : ojson(), "images");
    if (!images) return reply_error(res, 422, images.error().message, "validation_error");
    // Jev's map of questions, in the caller's order, as the schema's question array.
    ojson schema_json = ojson::object();
    ojson questions = ojson::array();
    for (auto it = b["questions"].begin(); it != b["questions"].end(); ++it) {
        if (!it.value().is_object())
            return reply_error(res, 422, "question \"" + it.key() + "\": must be an object",
                               "validation_error");
        ojson q = ojson::object();
        q["id"] = it.key();
        for (auto f = it.value().begin(); f != it.value().end(); ++f)
            if (f.key() != "id") q[f.key()] = f.value();
        questions.push_back(std::move(q));
    }
    for (const char* key : {"instructions", "samples", "auto_max", "auto_threshold", "steps",
                            "think", "layout", "isolate", "seed_token"})
        if (b.contains(key)) schema_json[key] = b[key];
    schema_json["questions"] = std::move(questions);
    apply_defaults(schema_json, options_);
    auto schema = parse_schema(schema_json, "/v1/systemone");
    if (!schema) return reply_error(res, 422, schema.error().message, "validation_error");
    auto seed = seed_of(b, 42, res);
    if (!seed) return;
    DecideRequest request{std::move(*schema), b["state"], *seed, std::move(*images)};
    if (auto over = over_model_len(request))
        return reply_error(res, 422, *over, "validation_error");

    auto admission = admit(res);
    if (!admission) return;
    const auto started = std::chrono::steady_clock::now();
    auto decision = backend_->decide(request, {}, engine::CancelToken{});
    const double ms = ms_since(started);
    if (!decision) return reply_backend_error(res, decision.error(), 422);
    ojson reply{
        {"model", model_of(b, options_.model_name.empty() ? decision->model : options_.model_name)},
        {"answers", answers_json(*decision, AnswerForm::SystemOne)},
        {"usage",
         {{"input_tokens", decision->prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", decision->cached_prompt_tokens}}},
          {"output_tokens", decision->reads}}},
        {"diagnostics", diagnostics_json(*decision)}};
    set_server_timing(res, ms);
    reply_json(res, 200, dump_safe(reply));
}

}  // namespace core::server
