// The local engine behind the Backend interface (see core/local_backend.h).
#include "core/local_backend.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "core/canvas_plan.h"
#include "core/chat_template.h"
#include "core/json_input.h"
#include "core/read_stats.h"
#include "core/stages.h"
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
    int reused_prompt_tokens = 0;       // the most prompt tokens a read took from the prefix cache
};

Result<void> read_rows(engine::Engine& engine, const CanvasPlan& plan, int group,
                       const std::vector<PlanRow>& rows,
                       const std::vector<engine::ImageInput>& images, GroupReads& out,
                       Timings& timings, const CancelToken& cancel) {
    engine::SlotReadRequest request = to_request(plan, group, rows);
    request.images = images;  // their runs are in the plan's prompt
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
    out.reused_prompt_tokens = std::max(out.reused_prompt_tokens, result->reused_prompt_tokens);
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

namespace {

// The reads of one plan (a single-pass decision, or one stage): every group's first reads and
// the "auto" policy's extra reads where a group's first read hesitates.
Result<std::vector<GroupReads>> read_plan(engine::Engine& engine, const CanvasPlan& plan,
                                          const std::vector<engine::ImageInput>& images,
                                          Timings& timings, int& passes, const ProgressFn& progress,
                                          double progress_from, double progress_span,
                                          const CancelToken& cancel) {
    std::vector<GroupReads> reads(plan.groups.size());
    const int ngroups = static_cast<int>(plan.groups.size());
    for (int g = 0; g < ngroups; ++g) {
        if (cancel.cancelled()) return engine::cancelled();
        report(progress, "decoding", progress_from + progress_span * g / ngroups);
        if (auto ok = read_rows(engine, plan, g, plan.rows, images, reads[g], timings, cancel); !ok)
            return ok.error();
        ++passes;
        if (plan.samples.automatic && !reads[g].rows.empty()) {
            for (const auto& slot : reads[g].rows[0])
                reads[g].first_entropy.push_back(entropy_nats(softmax(slot.label_logprobs)));
            if (needs_more_reads(reads[g].first_entropy, plan.auto_threshold, plan.auto_max)) {
                reads[g].extended = true;
                if (auto ok = read_rows(engine, plan, g, extension_rows(plan, g), images, reads[g],
                                        timings, cancel);
                    !ok)
                    return ok.error();
                ++passes;
            }
        }
    }
    return reads;
}

// Folds a plan's reads into the decision's outcomes (by schema index) and its counts.
void collect(const Schema& schema, const CanvasPlan& plan, const std::vector<GroupReads>& reads,
             int stage, Decision& d) {
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const ReadGroup& group = plan.groups[g];
        for (size_t s = 0; s < group.answer_slots.size(); ++s) {
            std::vector<SlotRead> per_read;
            for (const auto& row : reads[g].rows) per_read.push_back(row[s]);
            const int qi = group.answer_slots[s].question_index;
            QuestionOutcome o = aggregate_reads(schema.questions[qi], per_read);
            o.pos = group.answer_slots[s].pos;
            o.isolated = group.isolated;
            o.stage = stage;
            d.questions[qi] = std::move(o);
        }
        d.samples = std::max(d.samples, static_cast<int>(reads[g].rows.size()));
        d.reads += static_cast<int>(reads[g].rows.size());
        d.prompt_tokens = std::max(d.prompt_tokens, static_cast<int>(group.prompt_ids.size()));
        d.cached_prompt_tokens = std::max(d.cached_prompt_tokens, reads[g].reused_prompt_tokens);
        d.canvas_width = std::max(d.canvas_width, group.width);
    }
    d.read_groups += static_cast<int>(plan.groups.size());
}

// The samples policy of our reply's diagnostics, over every plan the decision read.
nlohmann::json samples_policy(const std::vector<const CanvasPlan*>& plans,
                              const std::vector<std::vector<GroupReads>>& reads) {
    const CanvasPlan& first = *plans.front();
    if (!first.samples.automatic) return {{"mode", "fixed"}, {"n", first.samples.count}};
    nlohmann::json extended = nlohmann::json::array(), entropy = nlohmann::json::object();
    for (size_t p = 0; p < plans.size(); ++p)
        for (size_t g = 0; g < plans[p]->groups.size(); ++g) {
            extended.push_back(reads[p][g].extended);
            const auto& slots = plans[p]->groups[g].answer_slots;
            for (size_t s = 0; s < slots.size() && s < reads[p][g].first_entropy.size(); ++s)
                entropy[slots[s].question] = reads[p][g].first_entropy[s];
        }
    return {{"mode", "auto"},
            {"max", first.auto_max},
            {"threshold", first.auto_threshold},
            {"extended", extended},
            {"first_read_entropy", entropy}};
}

// A request's images as the engine reads them: the pixels, and per image the soft tokens its run
// in the prompt takes. Errors: a model without a vision tower, an undecodable image.
struct PreparedImages {
    std::vector<int> runs;
    std::vector<engine::ImageInput> pixels;
};

Result<PreparedImages> prepare_images(const engine::Engine& reader,
                                      const std::vector<ImageInput>& images) {
    PreparedImages out;
    if (images.empty()) return out;
    if (reader.info().image_tokens <= 0)
        return engine::bad_input(std::to_string(images.size()) + " image(s): the model " +
                                 reader.info().name +
                                 " reads text only (it has no vision tower); use a model with one, "
                                 "or a vision-capable server (--url with --protocol chat or "
                                 "systemone)");
    for (const ImageInput& image : images) {
        auto decoded = decode_image(image);
        if (!decoded) return decoded.error();
        auto n = reader.image_soft_tokens(decoded->width, decoded->height);
        if (!n) return n.error();
        out.runs.push_back(*n);
        out.pixels.push_back({decoded->width, decoded->height, std::move(decoded->rgb)});
    }
    return out;
}

// The image token ids of the engine's model, for placing runs.
void set_image_ids(const engine::Engine& reader, PlanOptions& options) {
    options.boi_id = reader.info().boi_token_id;
    options.image_id = reader.info().image_token_id;
    options.eoi_id = reader.info().eoi_token_id;
}

}  // namespace

std::optional<int> LocalBackend::image_soft_tokens(int width, int height) const {
    if (engine_->info().image_tokens <= 0) return std::nullopt;
    auto n = engine_->image_soft_tokens(width, height);
    return n ? std::optional<int>(*n) : std::nullopt;
}

Result<Decision> LocalBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                      const CancelToken& cancel) {
    const auto started = std::chrono::steady_clock::now();
    const Schema& schema = request.schema;
    if (!request.images.empty() && is_multi_pass(schema))
        return engine::bad_input(
            "images with think or depends_on/ask_if: the local engine reads images in "
            "single-pass decisions; drop think/depends_on, or use a server");
    auto prepared = prepare_images(*engine_, request.images);
    if (!prepared) return prepared.error();
    std::vector<engine::ImageInput> images = std::move(prepared->pixels);
    const std::vector<int>& image_runs = prepared->runs;
    if (schema.steps > 1)
        return engine::bad_input("steps " + std::to_string(schema.steps) +
                                 ": the local engine reads in one decoder step (use steps 1, or a "
                                 "remote server for more)");
    report(progress, "planning", 0);
    const engine::Tokenizer& tokenizer = engine_->tokenizer();
    PlanOptions options;
    options.seed = request.seed;
    options.canvas_length = engine_->info().canvas_length;
    options.image_runs = image_runs;
    set_image_ids(*engine_, options);
    const Layout layout = schema.layout;
    const bool multi_pass = is_multi_pass(schema);

    Decision d;
    d.questions.resize(schema.questions.size());
    d.layout = layout;
    d.model = engine_->info().name;
    d.backend = describe();
    Timings timings;

    // Thinking first: the thought is written once and every stage reads after it.
    std::vector<TokenId> base;
    if (schema.think > 0) {
        engine::GenerationRequest g;
        g.prompt_ids = thought_prompt_ids(schema, request.state, layout, tokenizer);
        const int context = engine_->info().max_context;
        if (context > 0 &&
            static_cast<int>(g.prompt_ids.size()) + schema.think + options.canvas_length > context)
            return engine::bad_input(
                "think " + std::to_string(schema.think) + ": the prompt (" +
                std::to_string(g.prompt_ids.size()) + " tokens), the thought and a canvas of " +
                std::to_string(options.canvas_length) + " do not fit the model's context of " +
                std::to_string(context) + " tokens; accepted: think up to " +
                std::to_string(std::max(
                    0, context - options.canvas_length - static_cast<int>(g.prompt_ids.size()))));
        g.max_new_tokens = schema.think;
        g.seed = request.seed;
        g.stop_ids = {thought_close_id(tokenizer)};
        report(progress, "thinking", 0);
        const auto thinking = std::chrono::steady_clock::now();
        auto written = engine_->generate(
            g,
            [&](const engine::GenerationStep& step) {
                if (step.max_steps > 0)
                    report(progress, "thinking",
                           0.3 * std::min(1.0, static_cast<double>(step.step) / step.max_steps));
            },
            cancel);
        if (!written) return written.error();
        Thought t;
        t.text = valid_utf8(tokenizer.decode(written->tokens));
        t.tokens = static_cast<int>(written->tokens.size());
        t.ids.assign(written->tokens.begin(), written->tokens.end());
        t.closed = written->stopped_on_stop_id;
        t.passes = written->steps;
        t.ms = ms_since(thinking);
        timings.encode_ms += written->encode_ms;
        timings.decode_ms += written->decode_ms;
        d.thought = std::move(t);
        base = std::move(g.prompt_ids);
        base.insert(base.end(), written->tokens.begin(), written->tokens.end());
        base.push_back(thought_close_id(tokenizer));
    } else if (multi_pass) {
        base = staged_prompt_ids(schema, request.state, layout, tokenizer);
    }

    // Single pass: one plan of every question. Multi-pass: one plan per stage, each after the
    // answers of the stages before it; a question whose ask_if is unmet is skipped.
    const std::vector<std::vector<int>> stages =
        multi_pass ? question_stages(schema) : std::vector<std::vector<int>>{{}};
    std::vector<CanvasPlan> plans;
    plans.reserve(stages.size());
    std::vector<std::vector<GroupReads>> reads;
    std::map<std::string, std::optional<std::string>> answered;
    std::vector<std::string> lines;
    const bool indexed = schema.questions.size() > 10;
    const double read_from = schema.think > 0 ? 0.3 : 0.0;
    for (size_t st = 0; st < stages.size(); ++st) {
        if (multi_pass) {
            options.questions.clear();
            for (int qi : stages[st]) {
                const Question& q = schema.questions[qi];
                if (auto unmet = unmet_condition(q, answered)) {
                    QuestionOutcome o = skipped_outcome(q);
                    o.stage = static_cast<int>(st);
                    o.skip_because = unmet->because;
                    o.skip_was = unmet->was;
                    o.skip_wanted = unmet->wanted;
                    d.questions[qi] = std::move(o);
                    answered[q.id] = std::nullopt;
                } else {
                    options.questions.push_back(qi);
                }
            }
            if (options.questions.empty()) continue;  // the whole stage was skipped
            options.prefix = stage_prefix(base, lines, indexed, tokenizer);
        }
        auto planned = build_plan(schema, request.state, tokenizer, options);
        if (!planned) return planned.error();
        plans.push_back(std::move(*planned));
        const CanvasPlan& plan = plans.back();
        const double span = (1.0 - read_from) / static_cast<double>(stages.size());
        auto stage_reads = read_plan(*engine_, plan, images, timings, d.passes, progress,
                                     read_from + span * st, span, cancel);
        if (!stage_reads) return stage_reads.error();
        collect(schema, plan, *stage_reads, static_cast<int>(st), d);
        reads.push_back(std::move(*stage_reads));
        options.first_group += static_cast<int>(plan.groups.size());
        if (!multi_pass) break;
        std::vector<std::string> ids;
        for (int qi : options.questions) {
            const QuestionOutcome& o = d.questions[qi];
            answered[o.id] = o.alternatives[o.winner];
            lines.push_back(o.id + (indexed ? "" : ": ") + o.labels[o.winner]);
            ids.push_back(o.id);
        }
        d.stages.push_back(std::move(ids));
    }
    timings.total_ms = ms_since(started);
    d.timings = timings;

    // Our own reply body, in the structured server's chat form, with the policy it ran.
    nlohmann::json body = decision_json(d, AnswerForm::Chat);
    nlohmann::json& diag = body["diagnostics"];
    std::vector<const CanvasPlan*> read_plans;
    for (const auto& p : plans) read_plans.push_back(&p);
    if (!read_plans.empty()) diag["samples"]["policy"] = samples_policy(read_plans, reads);
    if (multi_pass)
        diag["conditioning"] =
            d.stages.size() > 1 ? nlohmann::json("prefill") : nlohmann::json(nullptr);
    diag["seed"] = request.seed;
    diag["seed_token"] = std::string(to_string(schema.seed_token));
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
    // Images open the first user turn, as in a decision.
    auto prepared = prepare_images(*engine_, request.images);
    if (!prepared) return prepared.error();
    if (!prepared->runs.empty()) {
        PlanOptions placing;
        placing.image_runs = prepared->runs;
        set_image_ids(*engine_, placing);
        insert_image_runs(g.prompt_ids, engine_->tokenizer(), placing);
        g.images = std::move(prepared->pixels);
    }
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
