// The local engine behind the Backend interface (see core/local_backend.h).
#include "core/local_backend.h"

#include <algorithm>
#include <chrono>

#include "core/canvas_plan.h"
#include "core/chat_template.h"
#include "core/json_input.h"
#include "core/read_stats.h"
#include "engine/engine.h"

namespace core {

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

void report(const ProgressFn& progress, std::string stage, double fraction) {
    if (progress) progress(Progress{std::move(stage), fraction, {}});
}

// The reads of one group: per row, per slot, what the engine returned.
struct GroupReads {
    std::vector<std::vector<SlotRead>> rows;  // [row][slot]
    bool extended = false;
    std::vector<double> first_entropy;  // per slot, of the first read's label distribution
};

Result<void> read_rows(engine::Engine& engine, const CanvasPlan& plan, int group,
                       const std::vector<PlanRow>& rows, GroupReads& out, Timings& timings,
                       const CancelToken& cancel) {
    engine::SlotReadRequest request = to_request(plan, group, rows);
    if (request.rows.empty()) return {};
    const auto called = std::chrono::steady_clock::now();
    auto result = engine.read_slots(request, cancel);
    if (!result) return result.error();
    // The engine runs one call at a time: what the call took beyond its own work was a wait.
    timings.queue_ms += std::max(0.0, ms_since(called) - result->timings.encode_ms -
                                          result->timings.decode_ms - result->timings.readout_ms);
    if (result->rows.size() != request.rows.size())
        return engine::engine_error("the engine returned " + std::to_string(result->rows.size()) +
                                    " rows for " + std::to_string(request.rows.size()) +
                                    " canvases");
    timings.encode_ms += result->timings.encode_ms;
    timings.decode_ms += result->timings.decode_ms;
    timings.readout_ms += result->timings.readout_ms;
    for (const auto& row : result->rows) {
        std::vector<SlotRead> slots;
        for (const auto& r : row) {
            SlotRead s;
            s.label_logprobs.assign(r.label_logprobs.begin(), r.label_logprobs.end());
            s.label_mass = r.label_mass;
            s.argmax_is_label = r.argmax_is_label;
            slots.push_back(std::move(s));
        }
        out.rows.push_back(std::move(slots));
    }
    return {};
}

}  // namespace

Result<std::unique_ptr<LocalBackend>> LocalBackend::open(const engine::EngineOptions& options) {
    auto engine = engine::Engine::open(options);
    if (!engine) return engine.error();
    return std::make_unique<LocalBackend>(std::move(engine.value()));
}

LocalBackend::LocalBackend(std::unique_ptr<engine::Engine> engine) : engine_(std::move(engine)) {}

LocalBackend::~LocalBackend() = default;

std::string LocalBackend::describe() const {
    const auto& info = engine_->info();
    return "local " + info.device + " (" + info.name + ")";
}

Result<Decision> LocalBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                      const CancelToken& cancel) {
    const auto started = std::chrono::steady_clock::now();
    const Schema& schema = request.schema;
    if (schema.steps > 1)
        return engine::bad_input("steps " + std::to_string(schema.steps) +
                                 ": the local engine reads in one decoder step (use steps 1, or a "
                                 "remote server for more)");
    report(progress, "planning", 0);
    PlanOptions options;
    options.seed = request.seed;
    options.canvas_length = engine_->info().canvas_length;
    auto planned = build_plan(schema, request.state, engine_->tokenizer(), options);
    if (!planned) return planned.error();
    const CanvasPlan& plan = *planned;

    Timings timings;
    std::vector<GroupReads> reads(plan.groups.size());
    const int ngroups = static_cast<int>(plan.groups.size());
    for (int g = 0; g < ngroups; ++g) {
        if (cancel.cancelled()) return engine::cancelled();
        report(progress, "decoding", static_cast<double>(g) / ngroups);
        if (auto ok = read_rows(*engine_, plan, g, plan.rows, reads[g], timings, cancel); !ok)
            return ok.error();
        // "auto": more reads for a group whose first read hesitates.
        if (plan.samples.automatic && !reads[g].rows.empty()) {
            for (const auto& slot : reads[g].rows[0])
                reads[g].first_entropy.push_back(entropy_nats(softmax(slot.label_logprobs)));
            if (needs_more_reads(reads[g].first_entropy, plan.auto_threshold, plan.auto_max)) {
                reads[g].extended = true;
                if (auto ok = read_rows(*engine_, plan, g, extension_rows(plan, g), reads[g],
                                        timings, cancel);
                    !ok)
                    return ok.error();
            }
        }
    }

    Decision d;
    d.questions.resize(schema.questions.size());
    d.layout = plan.layout;
    d.model = engine_->info().name;
    d.backend = describe();
    for (int g = 0; g < ngroups; ++g) {
        const ReadGroup& group = plan.groups[g];
        for (size_t s = 0; s < group.answer_slots.size(); ++s) {
            std::vector<SlotRead> per_read;
            for (const auto& row : reads[g].rows) per_read.push_back(row[s]);
            const int qi = group.answer_slots[s].question_index;
            QuestionOutcome o = aggregate_reads(schema.questions[qi], per_read);
            o.pos = group.answer_slots[s].pos;
            o.isolated = group.isolated;
            d.questions[qi] = std::move(o);
        }
        d.samples = std::max(d.samples, static_cast<int>(reads[g].rows.size()));
        d.reads += static_cast<int>(reads[g].rows.size());
        d.prompt_tokens = std::max(d.prompt_tokens, static_cast<int>(group.prompt_ids.size()));
        d.canvas_width = std::max(d.canvas_width, group.width);
    }
    d.read_groups = ngroups;
    timings.total_ms = ms_since(started);
    d.timings = timings;

    // Our own reply body, in the structured server's chat form, with the policy it ran.
    nlohmann::json body = decision_json(d, AnswerForm::Chat);
    nlohmann::json& diag = body["diagnostics"];
    nlohmann::json extended = nlohmann::json::array(), first = nlohmann::json::object();
    for (int g = 0; g < ngroups; ++g) {
        extended.push_back(reads[g].extended);
        for (size_t s = 0;
             s < plan.groups[g].answer_slots.size() && s < reads[g].first_entropy.size(); ++s)
            first[plan.groups[g].answer_slots[s].question] = reads[g].first_entropy[s];
    }
    diag["samples"]["policy"] = plan.samples.automatic
                                    ? nlohmann::json{{"mode", "auto"},
                                                     {"max", plan.auto_max},
                                                     {"threshold", plan.auto_threshold},
                                                     {"extended", extended},
                                                     {"first_read_entropy", first}}
                                    : nlohmann::json{{"mode", "fixed"}, {"n", plan.samples.count}};
    diag["seed"] = plan.seed;
    diag["seed_token"] = std::string(to_string(plan.seed_token));
    diag["engine"] = "local";
    diag["entropy_basis"] = "labels";  // entropies are of the label distributions
    d.raw = body;
    report(progress, "done", 1);
    return d;
}

Result<Generation> LocalBackend::generate(const GenerateRequest& request,
                                          const ProgressFn& progress, const CancelToken& cancel) {
    const auto started = std::chrono::steady_clock::now();
    if (request.messages.empty()) return engine::bad_input("generate: no messages");
    engine::GenerationRequest g;
    g.prompt_ids = engine_->tokenizer().encode(render_chat(request.messages));
    g.max_new_tokens = request.max_tokens;
    g.seed = request.seed;
    g.time_limit_s = request.time_limit_s;
    report(progress, "encoding", -1);
    const auto called = std::chrono::steady_clock::now();
    auto result = engine_->generate(
        g,
        [&](const engine::GenerationStep& step) {
            if (!progress) return;
            double fraction =
                step.max_steps > 0 ? static_cast<double>(step.step) / step.max_steps : -1;
            progress(Progress{"decoding canvas " + std::to_string(step.canvas + 1), fraction, {}});
        },
        cancel);
    if (!result) return result.error();
    Generation out;
    out.text = valid_utf8(result->text);  // a canvas may end inside a character
    out.passes = result->steps;
    out.completion_tokens = static_cast<int>(result->tokens.size());
    out.prompt_tokens = static_cast<int>(g.prompt_ids.size());
    out.timings.encode_ms = result->encode_ms;
    out.timings.decode_ms = result->decode_ms;
    out.timings.queue_ms = std::max(0.0, ms_since(called) - result->total_ms);
    out.timings.total_ms = ms_since(started);
    out.finish_reason = result->stopped_on_stop_id      ? "stop"
                        : result->stopped_on_time_limit ? "time_limit"
                                                        : "length";
    out.model = engine_->info().name;
    if (progress) progress(Progress{"done", 1, out.text});
    return out;
}

Result<HealthInfo> LocalBackend::health(const CancelToken&) {
    const auto& info = engine_->info();
    HealthInfo h;
    h.ready = true;
    h.server = "decision-studio local engine";
    h.version = DS_VERSION;
    h.model = info.name;
    h.device = info.device;
    h.kind = "local";
    h.raw = {{"status", "ok"},
             {"server", h.server},
             {"version", h.version},
             {"ready", true},
             {"model", info.name},
             {"device", info.device},
             {"layers", info.num_layers},
             {"hidden_size", info.hidden_size},
             {"vocab_size", info.vocab_size},
             {"canvas_length", info.canvas_length},
             {"max_context", info.max_context},
             {"parameters", info.parameters}};
    return h;
}

}  // namespace core
