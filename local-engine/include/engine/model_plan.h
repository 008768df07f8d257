#pragma once
// What opening a model folder would ask of this machine, before it is opened: the memory plan
// Engine::open states and checks (from config.json alone, no weights read), and what this
// machine has (host memory; each CUDA device's free memory in builds with CUDA). The Studio's
// Models view and `dgem models list` set one against the other.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/result.h"

namespace engine {

struct ModelMemoryPlan {
    std::string format;       // how the checkpoint stores its weights: "bf16", "fp8", "nvfp4"
    uint64_t host_bytes = 0;  // the CPU backend's plan: weights as held + KV cache + workspace
    std::string host_plan;    // that plan in words
    uint64_t cuda_bytes = 0;  // the CUDA backend's plan (0 in builds without CUDA)
    std::string cuda_plan;
};
// Reads <model_dir>/config.json. Errors are the engine's own: a missing or unreadable file, a
// config of another architecture ("model_type is \"llama\" (expected \"diffusion_gemma\")").
Result<ModelMemoryPlan> plan_model_memory(const std::filesystem::path& model_dir);

struct DeviceMemory {
    std::string name;  // "cuda:0"
    uint64_t free_bytes = 0, total_bytes = 0;
};
// Each CUDA device's free memory now (empty without CUDA or without a device).
std::vector<DeviceMemory> cuda_device_memory();
// MemAvailable of /proc/meminfo; 0 when unknown.
uint64_t host_available_memory();
// "53.90 GB" (10^9 bytes, as model cards state sizes).
std::string format_gigabytes(uint64_t bytes);

}  // namespace engine
