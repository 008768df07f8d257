// The local engine behind the Backend interface (see core/decide/local_backend.h).
#include "core/decide/local_backend.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "base/time.h"
#include "core/decide/canvas_plan.h"
#include "core/decide/chat_template.h"
#include "core/decide/plan_executor.h"
#include "core/decide/stages.h"
#include "core/policy/json_input.h"
#include "engine/engine.h"

namespace core {

namespace {

void report(const ProgressFn& progress, std::string stage, double fraction) {
    if (progress) progress(Progress{std::move(stage), fraction, {}});
}

}  // namespace

// The engine as the decide module's row reader: one engine request per call (a group's prompt
// and rows), and thoughts through the engine's denoising loop. Images set for a decision ride
// along with every request of that decision.
class EngineRowReader : public RowReader {
  public:
    explicit EngineRowReader(engine::Engine& engine) : engine_(engine) {}

    void set_images(std::vector<engine::ImageInput> images) { images_ = std::move(images); }

    Result<RowReads> read_rows(const CanvasPlan& plan, int group, const std::vector<PlanRow>& rows,
                               const CancelToken& cancel) override {
        engine::SlotReadRequest request = to_request(plan, group, rows);
        request.images = images_;  // their runs are in the plan's prompt
        RowReads out;
        if (request.rows.empty()) return out;
        const auto called = std::chrono::steady_clock::now();
        auto result = engine_.read_slots(request, cancel);
        if (!result) return result.error();
        const engine::ReadTimings& t = result->timings;
        // The engine runs one call at a time: what the call took beyond its own work was a wait.
        out.timings.queue_ms =
            std::max(0.0, base::ms_since(called) - t.encode_ms - t.decode_ms - t.readout_ms);
        out.timings.encode_ms = t.encode_ms;
        out.timings.decode_ms = t.decode_ms;
        out.timings.readout_ms = t.readout_ms;
        out.cached_prompt_tokens = result->reused_prompt_tokens;
        for (const auto& row : result->rows) {
            std::vector<SlotRead> reads;
            for (const auto& r : row) {
                SlotRead s;
                s.label_logprobs.assign(r.label_logprobs.begin(), r.label_logprobs.end());
                s.label_mass = r.label_mass;
                s.argmax_is_label = r.argmax_is_label;
                s.argmax_id = r.argmax_id;
                reads.push_back(std::move(s));
            }
            out.rows.push_back(std::move(reads));
        }
        return out;
    }

    Result<WrittenThought> write_thought(const ThoughtRequest& request, const ProgressFn& progress,
                                         const CancelToken& cancel) override {
        engine::GenerationRequest g;
        g.prompt_ids = request.prompt_ids;
        g.max_new_tokens = request.max_tokens;
        g.seed = request.seed;
        g.stop_ids = {request.stop_id};
        auto written = engine_.generate(
            g,
            [&](const engine::GenerationStep& step) {
                if (step.max_steps > 0)
                    report(progress, "thinking",
                           0.3 * std::min(1.0, static_cast<double>(step.step) / step.max_steps));
            },
            cancel);
        if (!written) return written.error();
        WrittenThought t;
        t.ids.assign(written->tokens.begin(), written->tokens.end());
        t.text = engine_.tokenizer().decode(written->tokens);
        t.closed = written->stopped_on_stop_id;
        t.passes = written->steps;
        t.encode_ms = written->encode_ms;
        t.decode_ms = written->decode_ms;
        return t;
    }

  private:
    engine::Engine& engine_;
    std::vector<engine::ImageInput> images_;
};

Result<std::unique_ptr<LocalBackend>> LocalBackend::open(const engine::EngineOptions& options) {
    auto engine = engine::Engine::open(options);
    if (!engine) return engine.error();
    return std::make_unique<LocalBackend>(std::move(engine.value()));
}

LocalBackend::LocalBackend(std::unique_ptr<engine::Engine> engine)
    : engine_(std::move(engine)), reader_(std::make_unique<EngineRowReader>(*engine_)) {}

LocalBackend::~LocalBackend() = default;

std::string LocalBackend::describe() const {
    const auto& info = engine_->info();
    // A model that says what it is (the demo model) is named with it wherever it is named.
    return "local " + info.device + " (" + info.name +
           (info.description.empty() ? "" : ": " + info.description) + ")";
}

namespace {

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

std::optional<ModelFacts> LocalBackend::model_facts() const {
    const auto& info = engine_->info();
    return ModelFacts{info.name, info.canvas_length, info.vocab_size, info.max_context,
                      &engine_->tokenizer()};
}

RowReader* LocalBackend::row_reader() {
    return reader_.get();
}

Result<Decision> LocalBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                      const CancelToken& cancel) {
    const Schema& schema = request.schema;
    if (!request.images.empty() && is_multi_pass(schema))
        return engine::bad_input(
            "images with think or depends_on/ask_if: the local engine reads images in "
            "single-pass decisions; drop think/depends_on, or use a server");
    auto prepared = prepare_images(*engine_, request.images);
    if (!prepared) return prepared.error();
    if (schema.steps > 1)
        return engine::bad_input("steps " + std::to_string(schema.steps) +
                                 ": the local engine reads in one decoder step (use steps 1, or a "
                                 "remote server for more)");
    ExecutorSetup setup;
    setup.plan.canvas_length = engine_->info().canvas_length;
    setup.plan.image_runs = prepared->runs;
    set_image_ids(*engine_, setup.plan);
    setup.tokenizer = &engine_->tokenizer();
    setup.max_context = engine_->info().max_context;
    setup.engine = "local";
    // One decision at a time sets the images its reads carry (the backend serves one caller per
    // decide, as the engine runs one call at a time; concurrent decides use separate readers).
    EngineRowReader reader(*engine_);
    reader.set_images(std::move(prepared->pixels));
    auto d = execute_decision(request, setup, reader, progress, cancel);
    if (!d) return d.error();
    d->model = engine_->info().name;
    d->backend = describe();
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
    out.timings.queue_ms = std::max(0.0, base::ms_since(called) - result->total_ms);
    out.timings.total_ms = base::ms_since(started);
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
    if (!info.description.empty()) h.raw["model_description"] = info.description;
    // The engine's scheduler: read batches run so far and what waits for the engine now.
    const engine::SchedulerStats st = engine_->scheduler_stats();
    h.raw["batching"] = {{"batches", st.batches},
                         {"reads", st.reads},
                         {"largest_batch", st.largest_batch},
                         {"generation_steps", st.generation_units},
                         {"waiting", st.queued}};
    const engine::PrefixCacheStats& pc = st.prefix_cache;
    h.raw["prefix_cache"] = {{"full_hits", pc.full_hits}, {"partial_hits", pc.partial_hits},
                             {"misses", pc.misses},       {"tokens_reused", pc.tokens_reused},
                             {"evictions", pc.evictions}, {"entries", pc.entries},
                             {"bytes", pc.bytes},         {"budget_bytes", pc.budget_bytes}};
    return h;
}

}  // namespace core
