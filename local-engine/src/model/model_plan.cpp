// engine/model_plan.h: the plans Engine::open makes, without opening.
#include "engine/model_plan.h"

#include <algorithm>

#include "backend/compute_backend.h"
#include "model/config.h"
#include "model/memory_plan.h"

namespace engine {

Result<ModelMemoryPlan> plan_model_memory(const std::filesystem::path& model_dir) {
    auto config = model::load_config(model_dir / "config.json");
    if (!config) return config.error();
    const model::ModelConfig& c = config.value();
    ModelMemoryPlan out;
    out.format = model::weight_format_name(c.quantization.format);
    // The cache Engine::open plans the CPU backend with.
    const model::MemoryPlan cpu =
        model::plan_cpu_memory(c, std::min(c.max_position_embeddings, 8192));
    out.host_bytes = cpu.total();
    out.host_plan = cpu.describe();
#ifdef DS_HAVE_CUDA
    const model::MemoryPlan gpu = backend::cuda_plan(c);
    out.cuda_bytes = gpu.total();
    out.cuda_plan = gpu.describe();
#endif
    return out;
}

std::vector<DeviceMemory> cuda_device_memory() {
#ifdef DS_HAVE_CUDA
    return backend::cuda_device_memory();
#else
    return {};
#endif
}

uint64_t host_available_memory() {
    return model::available_host_memory();
}

std::string format_gigabytes(uint64_t bytes) {
    return model::format_gb(bytes);
}

}  // namespace engine
