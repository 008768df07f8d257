// Engine::open and the local engine: a model folder (config, weights, tokenizer, generation
// defaults), one ComputeBackend, and the backend-neutral drivers. Calls go through one
// BatchScheduler: concurrent slot reads run as cross-request batches, generations step by step.

#include "engine/engine.h"

#include <algorithm>
#include <mutex>
#include <optional>

#include "backend/compute_backend.h"
#include "batch_scheduler.h"
#include "driver/drivers.h"
#include "model/memory_plan.h"
#include "model/prefetch.h"
#include "model/safetensors.h"
#include "model/weights.h"
#include "util/thread_pool.h"

namespace engine {
namespace {

class LocalEngine : public Engine {
  public:
    LocalEngine(std::shared_ptr<const model::ModelWeights> weights,
                std::unique_ptr<backend::ComputeBackend> backend, Tokenizer tokenizer,
                model::GenerationDefaults defaults, int threads,
                std::optional<vision::ImageProcessorConfig> processor, BatchSettings batching,
                uint64_t prefix_cache_bytes)
        : weights_(std::move(weights)),
          backend_(std::move(backend)),
          prefixes_(*backend_, prefix_cache_bytes),
          tokenizer_(std::move(tokenizer)),
          defaults_(std::move(defaults)),
          pool_(threads),
          processor_(std::move(processor)),
          scheduler_(batching,
                     [this](std::span<BatchScheduler::ReadJob* const> jobs) { run_reads(jobs); }) {
        prefix_stats_ = prefixes_.stats();
        const auto& c = weights_->config;
        info_.name = c.name.empty() ? weights_->dir.filename().string() : c.name;
        if (info_.name.empty()) info_.name = weights_->dir.parent_path().filename().string();
        info_.description = c.description;
        info_.device = backend_->device_name();
        info_.num_layers = c.num_layers;
        info_.hidden_size = c.hidden_size;
        info_.vocab_size = c.vocab_size;
        info_.canvas_length = c.canvas_length;
        info_.max_context = c.max_position_embeddings;
        info_.parameters = weights_->parameter_count;
        info_.weight_format = model::weight_format_name(c.quantization.format);
        info_.boi_token_id = c.boi_token_id;
        info_.image_token_id = c.image_token_id;
        info_.eoi_token_id = c.eoi_token_id;
        if (processor_) info_.image_tokens = processor_->max_soft_tokens;
    }

    void set_memory_plan(std::string plan) { info_.memory_plan = std::move(plan); }
    const ModelInfo& info() const override { return info_; }
    const Tokenizer& tokenizer() const override { return tokenizer_; }

    Result<SlotReadResult> read_slots(const SlotReadRequest& request,
                                      const CancelToken& cancel) override {
        return unless_damaged(scheduler_.read(request, cancel));
    }

    Result<GenerationResult> generate(const GenerationRequest& request,
                                      const GenerationProgress& progress,
                                      const CancelToken& cancel) override {
        // With images the vision tower runs on the backend: a turn of its own. Without, the
        // prompt is only checked (no backend work).
        const bool vision = !request.images.empty();
        if (vision) scheduler_.enter();
        auto images = place_images(request.prompt_ids, request.images);
        if (vision) scheduler_.leave();
        if (!images) return images.error();
        // Each step takes its own turn (StepGate), so reads queued meanwhile run between steps.
        return unless_damaged(driver::generate(*backend_, pool_, defaults_, info_.max_context,
                                               tokenizer_, request, progress, cancel, {}, &*images,
                                               &scheduler_));
    }

    SchedulerStats scheduler_stats() const override {
        SchedulerStats stats = scheduler_.stats();
        const std::lock_guard lock(prefix_stats_mutex_);
        stats.prefix_cache = prefix_stats_;
        return stats;
    }

    Result<int> image_soft_tokens(int width, int height) const override {
        if (!processor_)
            return bad_input("the model has no vision tower (config.json vision_config is null)");
        if (width <= 0 || height <= 0)
            return bad_input("image size " + std::to_string(width) + "x" + std::to_string(height) +
                             " (expected at least 1x1)");
        return vision::soft_tokens_for(width, height, *processor_);
    }

  private:
    // A weight file that shrank while mapped gave zeros instead of SIGBUS (util/mapping_guard.h):
    // a result computed on them is replaced by an error naming the file.
    template <class T>
    static Result<T> unless_damaged(Result<T> result) {
        if (auto damage = model::MappedFile::damage_report()) return engine_error(*damage);
        return result;
    }

    // One batch of the scheduler: a lone read runs exactly as it always did; several share
    // passes (driver::read_slots_batch), each getting the bits it would get alone.
    void run_reads(std::span<BatchScheduler::ReadJob* const> jobs) {
        run_batch(jobs);
        const std::lock_guard lock(prefix_stats_mutex_);
        prefix_stats_ = prefixes_.stats();
    }
    void run_batch(std::span<BatchScheduler::ReadJob* const> jobs) {
        std::vector<Result<driver::PromptImages>> images;
        images.reserve(jobs.size());
        for (const auto* job : jobs)
            images.push_back(place_images(job->request->prompt_ids, job->request->images));
        if (jobs.size() == 1) {
            jobs[0]->result =
                images[0] ? driver::read_slots(*backend_, info_.max_context, *jobs[0]->request,
                                               *jobs[0]->cancel, &*images[0], &prefixes_)
                          : Result<SlotReadResult>(images[0].error());
            return;
        }
        std::vector<driver::BatchedSlotRead> reads;
        std::vector<BatchScheduler::ReadJob*> running;
        for (size_t i = 0; i < jobs.size(); ++i) {
            if (!images[i]) {
                jobs[i]->result = images[i].error();
                continue;
            }
            reads.push_back({jobs[i]->request, &*images[i], jobs[i]->cancel});
            running.push_back(jobs[i]);
        }
        auto results = driver::read_slots_batch(*backend_, info_.max_context, reads, CancelToken{},
                                                &prefixes_);
        for (size_t i = 0; i < running.size(); ++i) running[i]->result = std::move(results[i]);
    }

    Result<driver::PromptImages> place_images(std::span<const TokenId> prompt,
                                              std::span<const ImageInput> images) {
        return driver::place_images(*backend_, processor_ ? &*processor_ : nullptr, prompt, images);
    }

    std::shared_ptr<const model::ModelWeights> weights_;
    std::unique_ptr<backend::ComputeBackend> backend_;
    driver::PrefixCache prefixes_;  // used inside the scheduler's turns only
    mutable std::mutex prefix_stats_mutex_;
    PrefixCacheStats prefix_stats_;  // a copy after each batch, for scheduler_stats()
    Tokenizer tokenizer_;
    model::GenerationDefaults defaults_;
    util::ThreadPool pool_;
    std::optional<vision::ImageProcessorConfig> processor_;  // with a vision tower only
    ModelInfo info_;
    BatchScheduler scheduler_;
};

}  // namespace

const char* cpu_precision_name(CpuPrecision precision) {
    switch (precision) {
        case CpuPrecision::F32:
            return "f32";
        case CpuPrecision::Bf16:
            return "bf16";
        case CpuPrecision::Auto:
            break;
    }
    return "auto";
}

std::optional<CpuPrecision> parse_cpu_precision(std::string_view text) {
    for (CpuPrecision p : {CpuPrecision::Auto, CpuPrecision::F32, CpuPrecision::Bf16})
        if (text == cpu_precision_name(p)) return p;
    return std::nullopt;
}

std::string_view to_string(LoadStage stage) {
    switch (stage) {
        case LoadStage::Reading:
            return "reading";
        case LoadStage::Binding:
            return "binding";
        case LoadStage::Warming:
            break;
    }
    return "warming";
}

namespace {
// The CPU backend's precision and its memory plan (EngineOptions::cpu_precision).
struct CpuChoice {
    bool native = false;
    model::MemoryPlan plan;
    uint64_t available = 0;  // bytes the plan is checked against (0: unknown)
};

// Host memory a model may use: the option's limit, else MemAvailable less a margin for the rest
// of the process and the system (1 GiB, or 5% of it when that is more).
uint64_t usable_host_memory(const EngineOptions& options) {
    if (options.memory_limit_bytes) return options.memory_limit_bytes;
    const uint64_t available = model::available_host_memory();
    const uint64_t margin = std::max<uint64_t>(uint64_t{1} << 30, available / 20);
    return available > margin ? available - margin : (available ? 1 : 0);
}

CpuChoice choose_cpu_precision(const model::ModelConfig& config, const EngineOptions& options) {
    const int tokens = std::min(config.max_position_embeddings, 8192);
    CpuChoice c;
    c.available = usable_host_memory(options);
    const model::MemoryPlan f32 = model::plan_cpu_memory(config, tokens, false);
    c.native = options.cpu_precision == CpuPrecision::Bf16 ||
               (options.cpu_precision == CpuPrecision::Auto && c.available != 0 &&
                f32.total() > c.available);
    c.plan = c.native ? model::plan_cpu_memory(config, tokens, true) : f32;
    return c;
}

// One short read through every layer: the thread pool, BLAS and the caches are set up before
// the first decision, which then runs at full speed.
Result<void> warm_up(Engine& engine, const CancelToken& cancel) {
    SlotReadRequest request;
    request.prompt_ids = {tokens::kBos};
    CanvasRow row;
    row.ids.assign(4, tokens::kPad);
    row.slot_specs.push_back({1, {tokens::kEos}});
    request.rows.push_back(std::move(row));
    auto read = engine.read_slots(request, cancel);
    if (!read) return read.error();
    return {};
}
}  // namespace

Result<std::unique_ptr<Engine>> Engine::open(const EngineOptions& options) {
    if (options.device == Device::Cuda && !cuda_available())
        return engine_error(
#ifdef DS_HAVE_CUDA
            "--device cuda: no usable CUDA device in this process (use cpu or auto)"
#else
            "--device cuda: this build has no CUDA backend (built without nvcc; use cpu or auto)"
#endif
        );
    const auto report = [&](LoadStage stage, double fraction) {
        if (options.load_progress) options.load_progress(stage, fraction);
    };
    report(LoadStage::Reading, 0);
    auto weights = model::load_model_weights(options.model_dir);
    if (!weights) return weights.error();
    const auto& config = weights.value()->config;
    const CpuChoice cpu = choose_cpu_precision(config, options);
    // The weights' pages mapped in bulk, with progress (a page fault each would cost the first
    // decision several times a read of the file; weights held as published are then read in
    // place, nothing is copied); the tokenizer after them.
    const bool read = model::prefetch_weights(**weights, [&](uint64_t done, uint64_t total) {
        report(LoadStage::Reading, total ? 0.95 * double(done) / double(total) : 0.95);
        return !options.cancel.cancelled();
    });
    if (!read) return cancelled();
    auto defaults = model::load_generation_config(options.model_dir / "generation_config.json");
    if (!defaults) return defaults.error();
    const auto tokenizer_path = options.model_dir / "tokenizer.json";
    auto tokenizer = Tokenizer::load(tokenizer_path);
    if (!tokenizer) return tokenizer.error();
    if (tokenizer->vocab_size() > weights.value()->config.vocab_size)
        return bad_input(tokenizer_path.string() + ": the tokenizer has " +
                         std::to_string(tokenizer->vocab_size()) +
                         " ids but config.json's vocab_size is " +
                         std::to_string(weights.value()->config.vocab_size));
    std::optional<vision::ImageProcessorConfig> processor;
    if (weights.value()->config.vision.present) {
        auto p =
            vision::load_image_processor_config(options.model_dir, weights.value()->config.vision);
        if (!p) return p.error();
        processor = p.value();
    }
    report(LoadStage::Reading, 1);
    if (options.cancel.cancelled()) return cancelled();

    report(LoadStage::Binding, 0);
    const auto bound = [&](double fraction) {
        report(LoadStage::Binding, fraction);
        return !options.cancel.cancelled();
    };
    // Refuse a model that cannot fit before binding it.
    const auto make_cpu = [&]() -> Result<std::unique_ptr<backend::ComputeBackend>> {
        if (auto fits = model::check_memory(cpu.plan, cpu.available, options.model_dir.string());
            !fits)
            return fits.error();
        return backend::make_cpu_backend(weights.value(), options.threads, bound, cpu.native);
    };
    std::string plan_text = cpu.plan.describe();
    Result<std::unique_ptr<backend::ComputeBackend>> backend = engine_error("no backend selected");
#ifdef DS_HAVE_CUDA
    if (options.device != Device::Cpu && cuda_available()) {
        backend = backend::make_cuda_backend(weights.value(), options.memory_limit_bytes,
                                             options.nvfp4_fp4_inputs);
        if (backend) plan_text = backend::cuda_memory_plan(config);
        // Auto falls back to the CPU when the GPU cannot hold the model (memory plan refusal);
        // an explicit --device cuda reports why instead.
        if (!backend && options.device == Device::Auto) backend = make_cpu();
    } else
#endif
        backend = make_cpu();
    if (!backend) return backend.error();
    report(LoadStage::Binding, 1);
    if (options.cancel.cancelled()) return cancelled();

    // The prompt-prefix cache: host memory on the CPU; on CUDA it would hold device memory
    // beside the memory plan, so it is off there unless asked for.
    const bool on_cpu = (*backend)->device_name().rfind("cpu", 0) == 0;
    const uint64_t prefix_bytes = options.prefix_cache_bytes >= 0
                                      ? static_cast<uint64_t>(options.prefix_cache_bytes)
                                      : (on_cpu ? uint64_t{256} << 20 : 0);
    auto local = std::make_unique<LocalEngine>(
        std::move(weights.value()), std::move(backend.value()), std::move(tokenizer.value()),
        std::move(defaults.value()), options.threads, std::move(processor), options.batching,
        prefix_bytes);
    local->set_memory_plan(std::move(plan_text));
    std::unique_ptr<Engine> engine = std::move(local);
    if (options.warm_up) {
        report(LoadStage::Warming, 0);
        if (auto warmed = warm_up(*engine, options.cancel); !warmed) return warmed.error();
        report(LoadStage::Warming, 1);
    }
    return engine;
}

}  // namespace engine
