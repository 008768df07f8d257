// Engine::open and the local engine: a model folder (config, weights, tokenizer, generation
// defaults), one ComputeBackend, and the backend-neutral drivers. Calls are serialised.

#include "engine/engine.h"

#include <mutex>

#include "backend/compute_backend.h"
#include "driver/drivers.h"
#include "model/weights.h"
#include "util/thread_pool.h"

namespace engine {
namespace {

class LocalEngine : public Engine {
  public:
    LocalEngine(std::shared_ptr<const model::ModelWeights> weights,
                std::unique_ptr<backend::ComputeBackend> backend, Tokenizer tokenizer,
                model::GenerationDefaults defaults, int threads)
        : weights_(std::move(weights)),
          backend_(std::move(backend)),
          tokenizer_(std::move(tokenizer)),
          defaults_(std::move(defaults)),
          pool_(threads) {
        const auto& c = weights_->config;
        info_.name = c.name.empty() ? weights_->dir.filename().string() : c.name;
        if (info_.name.empty()) info_.name = weights_->dir.parent_path().filename().string();
        info_.device = backend_->device_name();
        info_.num_layers = c.num_layers;
        info_.hidden_size = c.hidden_size;
        info_.vocab_size = c.vocab_size;
        info_.canvas_length = c.canvas_length;
        info_.max_context = c.max_position_embeddings;
        info_.parameters = weights_->parameter_count;
    }

    const ModelInfo& info() const override { return info_; }
    const Tokenizer& tokenizer() const override { return tokenizer_; }

    Result<SlotReadResult> read_slots(const SlotReadRequest& request,
                                      const CancelToken& cancel) override {
        std::lock_guard<std::mutex> lock(mutex_);
        return driver::read_slots(*backend_, info_.max_context, request, cancel);
    }

    Result<GenerationResult> generate(const GenerationRequest& request,
                                      const GenerationProgress& progress,
                                      const CancelToken& cancel) override {
        std::lock_guard<std::mutex> lock(mutex_);
        return driver::generate(*backend_, pool_, defaults_, info_.max_context, tokenizer_, request,
                                progress, cancel);
    }

  private:
    std::shared_ptr<const model::ModelWeights> weights_;
    std::unique_ptr<backend::ComputeBackend> backend_;
    Tokenizer tokenizer_;
    model::GenerationDefaults defaults_;
    util::ThreadPool pool_;
    ModelInfo info_;
    std::mutex mutex_;
};

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
    auto weights = model::load_model_weights(options.model_dir);
    if (!weights) return weights.error();
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

    Result<std::unique_ptr<backend::ComputeBackend>> backend = engine_error("no backend selected");
#ifdef DS_HAVE_CUDA
    if (options.device != Device::Cpu && cuda_available()) {
        backend = backend::make_cuda_backend(weights.value());
        // Auto falls back to the CPU when the GPU cannot hold the model (memory plan refusal);
        // an explicit --device cuda reports why instead.
        if (!backend && options.device == Device::Auto)
            backend = backend::make_cpu_backend(weights.value(), options.threads);
    } else
#endif
        backend = backend::make_cpu_backend(weights.value(), options.threads);
    if (!backend) return backend.error();
    return std::unique_ptr<Engine>(new LocalEngine(
        std::move(weights.value()), std::move(backend.value()), std::move(tokenizer.value()),
        std::move(defaults.value()), options.threads));
}

}  // namespace engine
