#pragma once
// The bundled local engine as a Backend: decisions run through the decide module's executor
// (core/decide/plan_executor.h) over the engine as its row reader (engine::Engine::read_slots,
// one request per read group); generations are chat-templated prompts run through the engine's
// denoising loop.

#include <memory>
#include <string>

#include "core/decide/backend.h"

// Declared, not included: users of a LocalBackend need not see the engine's API.
namespace engine {
class Engine;
struct EngineOptions;
}  // namespace engine

namespace core {

class EngineRowReader;

class LocalBackend : public Backend {
  public:
    // Opens the model folder (config, weights, tokenizer) on the requested device.
    static Result<std::unique_ptr<LocalBackend>> open(const engine::EngineOptions& options);
    explicit LocalBackend(std::unique_ptr<engine::Engine> engine);
    ~LocalBackend() override;

    std::string describe() const override;  // "local cpu (tiny)" or "local cuda:0 (...)"
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;
    Result<Generation> generate(const GenerateRequest& request, const ProgressFn& progress,
                                const CancelToken& cancel) override;
    Result<HealthInfo> health(const CancelToken& cancel) override;

    engine::Engine& engine() { return *engine_; }
    std::optional<int> image_soft_tokens(int width, int height) const override;
    std::optional<ModelFacts> model_facts() const override;
    RowReader* row_reader() override;

  private:
    std::unique_ptr<engine::Engine> engine_;
    std::unique_ptr<EngineRowReader> reader_;  // reads without images: structured reads
};

}  // namespace core
