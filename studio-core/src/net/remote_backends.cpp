// The remote backends: request bodies out, Decisions and Generations back.
#include "core/net/remote_backends.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "base/text.h"
#include "base/time.h"
#include "core/decide/canvas_plan.h"
#include "core/decide/plan_executor.h"
#include "core/decide/stages.h"
#include "core/wire/chat_decision.h"
#include "core/wire/openai_chat.h"
#include "core/wire/structured_read.h"
#include "core/wire/systemone.h"

namespace core {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string trim_slashes(std::string u) {
    while (!u.empty() && u.back() == '/') u.pop_back();
    return u;
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

void fill_usage(Decision& d, const json& reply) {
    const wire::PromptUsage u = wire::prompt_usage(reply);
    if (u.prompt_tokens && d.prompt_tokens == 0) d.prompt_tokens = *u.prompt_tokens;
    if (u.cached_tokens) d.cached_prompt_tokens = std::min(*u.cached_tokens, d.prompt_tokens);
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
    const std::string l = base::lower(u);
    if (ends_with(l, "/chat/completions") || ends_with(l, ":rawpredict") ||
        ends_with(l, ":predict"))
        return u;
    if (l.find("prediction.vertexai.goog") != std::string::npos ||
        l.find("/invoke") != std::string::npos) {
        // Dedicated Vertex endpoints forward /invoke/v1/... to the container's /v1/...
        if (ends_with(l, "/v1")) u.resize(u.size() - 3);
        if (!ends_with(base::lower(u), "/invoke")) u += "/invoke";
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

Result<Generation> RemoteBackend::generate(const GenerateRequest& request,
                                           const ProgressFn& progress, const CancelToken& cancel) {
    auto body = wire::generation_request(request, options_.model, options_.stream);
    if (!body) return body.error();
    const std::string url = chat_completions_url(options_.url);
    report(progress, "waiting for server");
    const auto started = std::chrono::steady_clock::now();
    wire::GenerationStream stream([&](const std::string& text) {
        if (progress) progress(Progress{"generating", -1, text});
    });
    auto on_data = [&](std::string_view chunk) { stream.feed(chunk); };
    auto r = post(url, body->dump(), cancel,
                  options_.stream ? HttpTransport::DataFn(on_data) : HttpTransport::DataFn());
    if (!r) return r.error();
    const double wall = base::ms_since(started);
    auto g = options_.stream ? streamed_generation(*r, url, stream, progress)
                             : parsed_generation(*r, url);
    if (!g) return g.error();
    if (g->finish_reason.empty()) g->finish_reason = "stop";
    g->timings.total_ms = wall;
    g->timings.network_ms = r->server_ms ? std::max(0.0, wall - *r->server_ms) : 0.0;
    return g;
}

Result<Generation> RemoteBackend::parsed_generation(const HttpResponse& r,
                                                    const std::string& url) const {
    auto reply = parse_reply(r);
    if (!reply) return reply.error();
    return wire::generation_from_reply(*reply, "POST " + url);
}

// A streamed generation's result; a server that ignores "stream" answers with one ordinary
// completion.
Result<Generation> RemoteBackend::streamed_generation(const HttpResponse& r, const std::string& url,
                                                      wire::GenerationStream& stream,
                                                      const ProgressFn& progress) const {
    if (!stream.error().empty())
        return engine::remote_error("POST " + url + ": stream error: " + stream.error());
    const bool is_sse = r.header("content-type").find("text/event-stream") != std::string::npos;
    if (is_sse && !stream.done())
        return engine::remote_error("POST " + url + ": stream ended before data: [DONE]");
    if (is_sse) return stream.generation();
    auto reply = parse_reply(r);
    if (!reply) return reply.error();
    const json& c = *reply;
    if (!c.contains("choices") || !c["choices"].is_array() || c["choices"].empty())
        return engine::remote_error("POST " + url + ": reply has no choices");
    Generation g = stream.generation();
    g.text = c["choices"][0].value("message", json::object()).value("content", "");
    if (progress && !g.text.empty()) progress(Progress{"generating", -1, g.text});
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
        const std::string s = base::lower(info.server + " " + body.value("kind", std::string()));
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
    const std::string url = chat_completions_url(options_.url);
    report(progress, "waiting for server");
    const auto started = std::chrono::steady_clock::now();
    auto r = post(url, wire::chat_decision_request(request, options_.model).dump(), cancel);
    if (!r) return r.error();
    const double wall = base::ms_since(started);
    auto reply = parse_reply(*r);
    if (!reply) return reply.error();
    auto d = wire::chat_decision_from_reply(*reply, request.schema, "POST " + url);
    if (!d) return d.error();
    fill_timings(*d, *r, wall);
    fill_usage(*d, *reply);
    d->model = reply->value("model", options_.model);
    d->backend = describe();
    return d;
}

Result<Decision> SystemOneBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                          const CancelToken& cancel) {
    const std::string url = join_url(server_root(options_.url), "/v1/systemone");
    report(progress, "waiting for server");
    const auto started = std::chrono::steady_clock::now();
    auto r = post(url, wire::systemone_request(request, options_.model).dump(), cancel);
    if (!r) return r.error();
    const double wall = base::ms_since(started);
    auto reply = parse_reply(*r);
    if (!reply) return reply.error();
    auto d = wire::systemone_decision_from_reply(*reply, request.schema, "POST " + url);
    if (!d) return d.error();
    fill_timings(*d, *r, wall);
    fill_usage(*d, *reply);
    d->model = reply->value("model", options_.model);
    d->backend = describe();
    return d;
}

// vLLM's structured reads as the decide module's row reader: one request per canvas row, the
// group's chat messages and the row's seeded canvas; each slot's label logprobs from the top
// logprobs at its position.
class VllmRowReader final : public RowReader {
  public:
    VllmRowReader(const RemoteBackend& backend, int steps) : backend_(backend), steps_(steps) {}

    Result<RowReads> read_rows(const CanvasPlan& plan, int group, const std::vector<PlanRow>& rows,
                               const CancelToken& cancel) override {
        const ReadGroup& g = plan.groups[static_cast<size_t>(group)];
        RowReads out;
        out.server_ms = 0.0;
        for (const PlanRow& row : rows) {
            auto row_reads = read_row(g, row, out, cancel);
            if (!row_reads) return row_reads.error();
            out.rows.push_back(std::move(*row_reads));
        }
        return out;
    }

    Result<WrittenThought> write_thought(const ThoughtRequest&, const ProgressFn&,
                                         const CancelToken&) override {
        return engine::bad_input("the vLLM structured-read protocol cannot write a thought");
    }

  private:
    Result<std::vector<SlotRead>> read_row(const ReadGroup& group, const PlanRow& row,
                                           RowReads& out, const CancelToken& cancel) {
        const std::string url = chat_completions_url(backend_.options().url);
        wire::StructuredRead read;
        read.model = backend_.options().model;
        read.messages = group.messages;
        read.canvas_ids = row.canvas_ids;
        read.max_steps = steps_;
        read.label_ids = group.label_union;
        auto r = backend_.post(url, wire::structured_read_request(read).dump(), cancel);
        if (!r) return r.error();
        if (r->server_ms && out.server_ms)
            *out.server_ms += *r->server_ms;
        else
            out.server_ms.reset();
        auto reply = parse_reply(*r);
        if (!reply) return reply.error();
        auto result = wire::structured_read_from_reply(*reply, "POST " + url);
        if (!result) return result.error();
        out.cached_prompt_tokens =
            std::max(out.cached_prompt_tokens, result->usage.cached_tokens.value_or(0));
        std::vector<SlotRead> reads;
        for (const PlanSlot& slot : group.answer_slots) {
            auto read_slot = slot_read(*result, slot, url);
            if (!read_slot) return read_slot.error();
            reads.push_back(std::move(*read_slot));
        }
        return reads;
    }

    static Result<SlotRead> slot_read(const wire::StructuredReadResult& result,
                                      const PlanSlot& slot, const std::string& url) {
        if (static_cast<size_t>(slot.pos) >= result.positions.size())
            return engine::remote_error("POST " + url + ": logprobs.content has " +
                                        std::to_string(result.positions.size()) +
                                        " rows; slot of \"" + slot.question + "\" is at " +
                                        std::to_string(slot.pos));
        const std::map<int32_t, double>& top = result.positions[static_cast<size_t>(slot.pos)];
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
        read.argmax_id = best->first;
        read.argmax_is_label = std::find(slot.label_ids.begin(), slot.label_ids.end(),
                                         best->first) != slot.label_ids.end();
        return read;
    }

    const RemoteBackend& backend_;
    int steps_;
};

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
    ExecutorSetup setup;
    setup.plan.canvas_length = options_.canvas_length;
    setup.tokenizer = &tokenizer_;
    VllmRowReader reader(*this, request.schema.steps);
    auto d = execute_decision(request, setup, reader, progress, cancel);
    if (!d) return d.error();
    d->model = options_.model;
    d->backend = describe();
    return d;
}

}  // namespace core
