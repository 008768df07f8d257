// The CPU backend: the model (model/diffusion_gemma.cpp) over the CPU operators (cpu_ops.cpp).

#include "backend/compute_backend.h"
#include "cpu/cpu_ops.h"
#include "model/diffusion_gemma.h"

namespace engine::backend {

Result<std::unique_ptr<ComputeBackend>> make_cpu_backend(
    std::shared_ptr<const model::ModelWeights> weights, int threads,
    const std::function<bool(double)>& bound, bool native) {
    if (!weights) return engine_error("CPU backend: no weights");
    auto ops = cpu::make_cpu_ops(weights, threads, bound, native);
    if (!ops) return cancelled();
    // The vision tower runs on the CPU vision operators (ops/vision_ops.h).
    auto model = std::make_unique<model::DiffusionGemma>(std::move(weights), std::move(ops),
                                                         ops::make_cpu_vision_ops());
    return std::unique_ptr<ComputeBackend>(
        std::make_unique<model::ModelBackend<ComputeBackend>>(std::move(model)));
}

}  // namespace engine::backend
