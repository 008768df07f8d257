// dgem serve's routes: the chat-completions decision and generative forms, the vLLM
// structured-read extension, /v1/systemone and /health.
#include "server_routes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "base/time.h"
#include "core/decide/canvas_plan.h"
#include "core/decide/chat_template.h"
#include "core/decide/row_reader.h"
#include "core/images/images.h"
#include "core/policy/json_input.h"
#include "core/wire/chat_decision.h"
#include "core/wire/openai_chat.h"
#include "core/wire/structured_read.h"
#include "core/wire/systemone.h"
#include "server/replies.h"
#include "server/request_checks.h"

namespace core::server {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using wire::dump_safe;

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
               AdmissionGate& admission, ServerMetrics& metrics)
    : backend_(std::move(backend)),
      options_(options),
      model_(backend_->model_facts()),
      admission_(admission),
      metrics_(metrics) {}

// MAX_INFLIGHT decisions run at once; the rest wait their turn (FIFO) up to INFLIGHT_WAIT_S in a
// queue of MAX_QUEUE, and only then get 503 overloaded with Retry-After.
std::optional<AdmissionGate::Ticket> Routes::admit(httplib::Response& res) {
    const auto started = std::chrono::steady_clock::now();
    auto got = admission_.acquire();
    const bool admitted = std::holds_alternative<AdmissionGate::Ticket>(got);
    metrics_.record_admission(base::seconds_since(started), admitted);
    if (admitted) return std::move(std::get<AdmissionGate::Ticket>(got));
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
    // What the backend's own model and engine say (the local engine: its canvas, vocabulary,
    // batching and prefix cache).
    if (h)
        for (const char* key :
             {"model_description", "canvas_length", "vocab_size", "batching", "prefix_cache"})
            if (h->raw.is_object() && h->raw.contains(key)) body[key] = h->raw[key];
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
        if (wire::role_of(messages[i]).empty())
            return reply_error(res, 400,
                               "messages[" + std::to_string(i) + "] needs a \"role\" string");

    if (body->contains("vllm_xargs") && (*body)["vllm_xargs"].is_object() &&
        (*body)["vllm_xargs"].contains("diffusion_seed_canvas"))
        return structured_read(*body, res);

    if (auto call = wire::chat_decision_call(messages)) {
        if (!*call) return reply_error(res, 400, call->error().message);
        return decision_form(*body, std::move(**call), res);
    }
    return generative_form(*body, res);
}

void Routes::decision_form(const ojson& body, wire::ChatDecisionCall call, httplib::Response& res) {
    apply_defaults(call.schema, options_);
    auto schema = parse_schema(call.schema, "system message (schema)");
    if (!schema) return reply_error(res, 400, schema.error().message);
    ojson state;  // in the caller's key order: the prompt shows it as written
    JsonInputError state_error;
    if (!parse_json_input_raw(call.state_text, state, state_error))
        return reply_error(res, 400,
                           "\"messages[1].content\" (the user message) must be the state as JSON "
                           "text; at byte " +
                               std::to_string(state_error.offset) + ": " + state_error.message);
    auto seed = seed_of(body, 42, res);
    if (!seed) return;

    DecideRequest request{std::move(*schema), std::move(state), *seed, std::move(call.images)};
    auto run = run_decision(request, res);
    if (!run) return;
    const std::string model =
        model_of(body, options_.model_name.empty() ? run->decision.model : options_.model_name);
    set_server_timing(res, run->decide_ms);
    reply_json(
        res, 200,
        dump_safe(wire::chat_decision_reply(run->decision, completion_id(), unix_now(), model)));
}

std::optional<Routes::DecisionRun> Routes::run_decision(const DecideRequest& request,
                                                        httplib::Response& res,
                                                        int bad_input_status,
                                                        const std::string& bad_input_type) {
    if (auto over = over_model_len(request)) {
        reply_error(res, bad_input_status, *over, bad_input_type);
        return std::nullopt;
    }
    const auto queued = std::chrono::steady_clock::now();
    auto admission = admit(res);
    if (!admission) return std::nullopt;
    const auto started = std::chrono::steady_clock::now();
    const double queue_wait_ms = base::ms_since(queued);
    auto decision = backend_->decide(request, {}, engine::CancelToken{});
    const double ms = base::ms_since(started);
    if (!decision) {
        reply_backend_error(res, decision.error(), bad_input_status);
        return std::nullopt;
    }
    return DecisionRun{std::move(*decision), queue_wait_ms, ms};
}

std::optional<std::string> Routes::generation_over_model_len(const GenerateRequest& request) const {
    if (!model_ || !model_->tokenizer || options_.max_model_len <= 0) return std::nullopt;
    auto runs = image_runs(request.images);
    if (!runs) return runs.error().message;
    size_t prompt = model_->tokenizer->encode(render_chat(request.messages)).size();
    for (int n : *runs) prompt += static_cast<size_t>(n) + 2;  // boi, soft tokens, eoi
    if (static_cast<int>(prompt) + request.max_tokens <= options_.max_model_len)
        return std::nullopt;
    return "prompt of " + std::to_string(prompt) + " tokens" +
           (runs->empty() ? std::string()
                          : " (" + std::to_string(runs->size()) + " image(s) included)") +
           " plus max_tokens " + std::to_string(request.max_tokens) +
           " exceeds MAX_MODEL_LEN=" + std::to_string(options_.max_model_len);
}

void Routes::generative_form(const ojson& body, httplib::Response& res) {
    // MAX_TOKENS bounds what a request may ask for (check_chat_body) and what it gets without
    // asking; GENERATION_TIMEOUT_S bounds its wall time (finish_reason "length" past either).
    auto call = wire::generation_call(body, options_.max_tokens);
    if (!call) return reply_error(res, 400, call.error().message);
    call->request.time_limit_s = options_.generation_timeout_s;
    auto seed = seed_of(body, 0, res);
    if (!seed) return;
    call->request.seed = *seed;
    if (auto over = generation_over_model_len(call->request)) return reply_error(res, 400, *over);
    auto admission = admit(res);
    if (!admission) return;
    const std::string model = model_of(body, options_.model_name);
    if (call->stream) return stream_generation(std::move(*call), std::move(*admission), model, res);
    const auto started = std::chrono::steady_clock::now();
    auto g = backend_->generate(call->request, {}, engine::CancelToken{});
    const double ms = base::ms_since(started);
    if (!g) return reply_backend_error(res, g.error(), 400);
    set_server_timing(res, ms);
    reply_json(res, 200, dump_safe(wire::generation_reply(*g, completion_id(), unix_now(), model)));
}

namespace {

// A generation run inside a stream's provider: an exception is caught, logged under an id and
// reported by that id as the stream's error.
Result<Generation> guarded_generation(Backend& backend, const GenerateRequest& request,
                                      const ProgressFn& progress, const CancelToken& cancel,
                                      const std::function<void(const std::string&)>& log) {
    try {
        return backend.generate(request, progress, cancel);
    } catch (const std::exception& e) {
        const std::string eid = new_error_id();
        log_internal_error(log, eid, std::string("streamed generation: ") + e.what());
        return engine::engine_error("internal server error (error id " + eid +
                                    "; the server's log has the details)");
    } catch (...) {
        const std::string eid = new_error_id();
        log_internal_error(log, eid, "streamed generation: unknown exception");
        return engine::engine_error("internal server error (error id " + eid + ")");
    }
}

bool send_event(httplib::DataSink& sink, const ojson& event) {
    const std::string line = "data: " + dump_safe(event) + "\n\n";
    return sink.write(line.data(), line.size());
}

}  // namespace

// SSE in OpenAI's chunk format; the generation runs while the response streams, holding its
// decision slot until the provider (copied into the response) is gone.
void Routes::stream_generation(wire::GenerationCall call, AdmissionGate::Ticket ticket,
                               const std::string& model, httplib::Response& res) {
    auto backend = backend_;
    auto held = std::make_shared<AdmissionGate::Ticket>(std::move(ticket));
    const std::string id = completion_id();
    const int64_t created = unix_now();
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream", [backend, call, held, model, id, created, log = options_.access_log](
                                 size_t, httplib::DataSink& sink) {
            auto chunk = [&](const ojson& delta, const ojson& finish) {
                return send_event(sink, wire::generation_chunk(id, created, model, delta, finish));
            };
            engine::CancelToken cancel;
            chunk({{"role", "assistant"}, {"content", ""}}, nullptr);
            std::string sent;
            auto progress = [&](const Progress& p) {
                if (p.text_delta.empty() || p.stage == "done") return;
                sent += p.text_delta;
                if (!chunk({{"content", p.text_delta}}, nullptr))
                    cancel.cancel();  // client went away
            };
            auto g = guarded_generation(*backend, call.request, progress, cancel, log);
            if (!g) {
                send_event(sink, wire::stream_error_event(g.error().message));
            } else {
                if (g->text.size() > sent.size() && g->text.compare(0, sent.size(), sent) == 0)
                    chunk({{"content", g->text.substr(sent.size())}}, nullptr);
                chunk(ojson::object(), wire::wire_finish(g->finish_reason));
                if (call.include_usage)
                    send_event(sink, wire::generation_usage_chunk(*g, id, created, model));
            }
            static const std::string done = "data: [DONE]\n\n";
            sink.write(done.data(), done.size());
            sink.done();
            return true;
        });
}

// The vLLM structured-read extension (PROTOCOLS section 5): one read of the caller's canvas,
// through the backend's own row reader.
void Routes::structured_read(const ojson& body, httplib::Response& res) {
    RowReader* reader = backend_->row_reader();
    if (!model_ || !model_->tokenizer || !reader)
        return reply_error(
            res, 400, "structured reads (vllm_xargs.diffusion_seed_canvas) need the local engine");
    auto read = wire::structured_read_call(body, model_->vocab_size, model_->canvas_length);
    if (!read) return reply_error(res, 400, read.error().message);
    // The caller's canvas as a plan of one group whose every position is a slot of the labels.
    CanvasPlan plan;
    ReadGroup group;
    group.prompt_ids = model_->tokenizer->encode(render_chat(read->messages, read->thinking));
    group.width = static_cast<int>(read->canvas_ids.size());
    if (options_.max_model_len > 0 &&
        static_cast<int>(group.prompt_ids.size()) + group.width > options_.max_model_len)
        return reply_error(res, 400,
                           "prompt of " + std::to_string(group.prompt_ids.size()) +
                               " tokens plus a canvas of " + std::to_string(group.width) +
                               " exceeds MAX_MODEL_LEN=" + std::to_string(options_.max_model_len));
    for (int pos = 0; pos < group.width; ++pos)
        group.answer_slots.push_back({{}, 0, pos, {}, read->label_ids});
    const int prompt_tokens = static_cast<int>(group.prompt_ids.size());
    plan.groups.push_back(std::move(group));
    PlanRow row;
    row.canvas_ids = read->canvas_ids;

    auto admission = admit(res);
    if (!admission) return;
    const auto started = std::chrono::steady_clock::now();
    auto result = reader->read_rows(plan, 0, {row}, engine::CancelToken{});
    const double ms = base::ms_since(started);
    if (!result) return reply_backend_error(res, result.error(), 400);

    wire::StructuredReadReply reply;
    reply.model = model_of(body, options_.model_name);
    reply.positions = wire::position_logprobs(*read, result->rows.at(0));
    std::vector<TokenId> chosen;
    for (const auto& p : reply.positions) chosen.push_back(p.chosen);
    reply.text = model_->tokenizer->decode(chosen);
    reply.prompt_tokens = prompt_tokens;
    reply.cached_tokens = result->cached_prompt_tokens;
    set_server_timing(res, ms);
    reply_json(res, 200,
               dump_safe(wire::structured_read_reply(reply, completion_id(), unix_now())));
}

// ---------------------------------------------------------------------------------------------
Result<std::vector<int>> Routes::image_runs(const std::vector<ImageInput>& images) const {
    std::vector<int> runs;
    // The images' soft tokens count, as the engine will place them; a model without a vision
    // tower refuses images when it reads, with its own message.
    if (!model_) return runs;
    for (const ImageInput& image : images) {
        auto decoded = decode_image(image);
        if (!decoded) return decoded.error();
        auto n = backend_->image_soft_tokens(decoded->width, decoded->height);
        if (!n) return std::vector<int>{};  // no vision tower
        runs.push_back(*n);
    }
    return runs;
}

std::optional<std::string> Routes::over_model_len(const DecideRequest& request) const {
    if (!model_ || !model_->tokenizer || options_.max_model_len <= 0) return std::nullopt;
    PlanOptions po;
    po.canvas_length = model_->canvas_length;
    po.seed = request.seed;
    auto runs = image_runs(request.images);
    if (!runs) return runs.error().message;
    po.image_runs = std::move(*runs);
    auto plan = build_plan(request.schema, request.state, *model_->tokenizer, po);
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
    auto call = wire::systemone_call(b);
    if (!call) return reply_error(res, 422, call.error().message, "validation_error");
    apply_defaults(call->schema, options_);
    auto schema = parse_schema(call->schema, "/v1/systemone");
    if (!schema) return reply_error(res, 422, schema.error().message, "validation_error");
    auto seed = seed_of(b, 42, res);
    if (!seed) return;
    DecideRequest request{std::move(*schema), b["state"], *seed, std::move(call->images)};
    auto run = run_decision(request, res, 422, "validation_error");
    if (!run) return;
    const std::string model =
        model_of(b, options_.model_name.empty() ? run->decision.model : options_.model_name);
    set_server_timing(res, run->decide_ms);
    reply_json(res, 200, dump_safe(wire::systemone_reply(run->decision, model)));
}

}  // namespace core::server
