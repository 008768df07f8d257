// The CUDA backend: the model (model/diffusion_gemma.cpp) over the CUDA operators
// (cuda_ops.cpp), plus what only this device needs: the memory plan checked before anything is
// allocated, and device facts for messages and benchmarks. See cuda_backend.h.

#include "cuda/cuda_backend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cuda/cuda_ops.h"
#include "cuda/cuda_util.h"
#include "cuda/cuda_vision_ops.h"
#include "cuda/device_weights.h"
#include "model/diffusion_gemma.h"

namespace engine::cuda {
namespace {

// The model over CudaOps, with the CUDA backend's own extensions.
class CudaModelBackend final : public model::ModelBackend<CudaBackend> {
  public:
    CudaModelBackend(std::unique_ptr<model::DiffusionGemma> model, CudaOps* ops)
        : ModelBackend(std::move(model)), ops_(ops) {}
    uint64_t weight_bytes() const override { return ops_->weight_bytes(); }
    Result<void> synchronize() override { return ops_->synchronize(); }

  private:
    CudaOps* ops_;  // owned by the model
};

Result<std::unique_ptr<CudaBackend>> open_backend(std::shared_ptr<const model::ModelWeights> w,
                                                  bool synthetic, uint64_t seed,
                                                  bool nvfp4_fp4_inputs) {
    auto ops = open_cuda_ops(w, synthetic, seed, kDefaultPassTokens, nvfp4_fp4_inputs);
    if (!ops) return ops.error();
    CudaOps* raw = ops->get();
    // The vision tower runs on the CUDA vision operators (cuda/cuda_vision_ops.cpp).
    auto model = std::make_unique<model::DiffusionGemma>(std::move(w), std::move(ops.value()),
                                                         make_cuda_vision_ops());
    return std::unique_ptr<CudaBackend>(std::make_unique<CudaModelBackend>(std::move(model), raw));
}

Result<void> check_plan(const model::ModelConfig& c, uint64_t memory_limit) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return engine_error("CUDA backend: no CUDA device is available");
    // Weights, one pass's activations and a KV cache for one full pass of prompt tokens (longer
    // prompts are checked again when their cache is created).
    const MemoryPlan plan = plan_memory(c, kDefaultPassTokens, kDefaultPassTokens);
    size_t free_b = 0, total_b = 0;
    DS_CUDA_TRY(cudaSetDevice(0));
    DS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    const uint64_t available =
        memory_limit && memory_limit < free_b ? memory_limit : static_cast<uint64_t>(free_b);
    if (plan.total() > available)
        return engine_error(
            "CUDA backend: the model does not fit: " + describe_plan(c, plan).describe() +
            ", but the device has " + model::format_gb(available) +
            (memory_limit ? " allowed" : " free") + "; use --device cpu");
    return {};
}

}  // namespace

uint64_t kv_cache_bytes(const model::ModelConfig& c, int tokens) {
    uint64_t b = 0;
    for (int l = 0; l < c.num_layers; ++l)
        b += 2ull * 2ull * static_cast<uint64_t>(c.layer_kv_heads(l)) *
             static_cast<uint64_t>(c.layer_head_dim(l)) * static_cast<uint64_t>(tokens);
    return b;
}

MemoryPlan plan_memory(const model::ModelConfig& c, int pass_tokens, int cache_tokens) {
    MemoryPlan p;
    p.pass_tokens = pass_tokens;
    p.cache_tokens = cache_tokens;
    const WeightFormats formats = planned_formats(c);
    p.weights = device_weight_bytes(c, !c.tie_word_embeddings, formats);
    const uint64_t T = static_cast<uint64_t>(pass_tokens), H = static_cast<uint64_t>(c.hidden_size);
    const uint64_t NH = static_cast<uint64_t>(c.num_heads),
                   D = static_cast<uint64_t>(max_head_dim(c));
    const uint64_t KV = static_cast<uint64_t>(max_kv_heads(c));
    const uint64_t I = static_cast<uint64_t>(c.intermediate_size);
    const uint64_t E = static_cast<uint64_t>(c.num_experts),
                   K = static_cast<uint64_t>(c.top_k_experts);
    const uint64_t MI = static_cast<uint64_t>(c.moe_intermediate_size);
    const uint64_t R = kReadoutRows, V = static_cast<uint64_t>(c.vocab_size);
    uint64_t a = 0;
    a += T * 4 + T * H * 4 * 6 + T * H * 2 * 2;           // ids, fp32 rows, bf16 rows
    a += T * static_cast<uint64_t>(max_qkv_rows(c)) * 4;  // qkv
    a += NH * T * D * 2 + 2 * KV * T * D * 2;             // Q, canvas K/V
    a += kScoreElements * 6;                              // scores + probabilities
    a += T * NH * D * 6;                                  // attention outputs
    a += T * 2 * I * 4 + T * I * 2;                       // dense MLP
    a += T * E * 4 + T * K * 16;                          // router, dispatch
    a += T * K * (H * 4 + 3 * MI * 2);                    // expert rows
    a += R * V * 6 + R * H * 6;                           // readout, self-conditioning
    if (std::any_of(formats.layers.begin(), formats.layers.end(),
                    [](const LayerFormats& f) { return f.experts != model::WeightFormat::BF16; }))
        a += packed_expert_scratch_bytes(c, pass_tokens);  // packed experts' fp32 outputs
    if (uses_format(formats, model::WeightFormat::FP8))
        a += fp8_activation_bytes(c, pass_tokens);  // per-token E4M3 inputs of FP8 weights
    if (uses_format(formats, model::WeightFormat::NVFP4))
        a += nvfp4_activation_bytes(c, pass_tokens);  // NVFP4 inputs (FP4 tensor cores)
    p.activations = a;
    p.kv_cache = kv_cache_bytes(c, cache_tokens);
    p.reserve = kReserveBytes;
    return p;
}

std::string format_gib(uint64_t bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f GiB",
                  static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

model::MemoryPlan describe_plan(const model::ModelConfig& c, const MemoryPlan& plan) {
    model::MemoryPlan p;
    p.where = "cuda:0";
    p.format = c.quantization.format;
    p.checkpoint = model::checkpoint_bytes(c, p.format).total();
    p.weights = plan.weights;
    p.held_as = p.format == model::WeightFormat::BF16 ? "bf16"
                : p.format == model::WeightFormat::FP8
                    ? "fp8 packed (per-token fp8 activations, fp8 GEMM) + bf16"
                    : std::string(model::weight_format_name(p.format)) +
                          " packed (dequantised in the GEMM) + bf16";
    p.kv_cache = plan.kv_cache;
    p.workspace = plan.activations + plan.reserve;
    p.cache_tokens = plan.cache_tokens;
    return p;
}

Result<std::unique_ptr<CudaBackend>> open_cuda_backend(
    std::shared_ptr<const model::ModelWeights> weights, uint64_t memory_limit_bytes,
    bool nvfp4_fp4_inputs) {
    if (!weights) return engine_error("CUDA backend: no weights given");
    DS_TRY(check_plan(weights->config, memory_limit_bytes));
    return open_backend(std::move(weights), false, 0, nvfp4_fp4_inputs);
}

Result<std::unique_ptr<CudaBackend>> open_synthetic_cuda_backend(const model::ModelConfig& config,
                                                                 uint64_t seed,
                                                                 bool nvfp4_fp4_inputs) {
    DS_TRY(check_plan(config, 0));
    auto mw = std::make_shared<model::ModelWeights>();
    mw->config = config;
    return open_backend(std::move(mw), true, seed, nvfp4_fp4_inputs);
}

Result<DeviceSummary> describe_device() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return engine_error("CUDA backend: no CUDA device is available");
    DS_CUDA_TRY(cudaSetDevice(0));
    cudaDeviceProp prop{};
    DS_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
    DeviceSummary s;
    s.name = std::string("cuda:0 (") + prop.name + ")";
    size_t free_b = 0, total_b = 0;
    DS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    s.free_bytes = free_b;
    s.total_bytes = total_b;
    s.compute_major = prop.major;
    s.compute_minor = prop.minor;
    return s;
}

Result<double> measure_copy_bandwidth(uint64_t bytes, int repeats) {
    DeviceBuffer a, b;
    DS_TRY(a.allocate(bytes, "the bandwidth probe"));
    DS_TRY(b.allocate(bytes, "the bandwidth probe"));
    DS_CUDA_TRY(cudaMemset(a.get(), 1, bytes));
    DS_CUDA_TRY(cudaMemcpy(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));  // warm-up
    DS_CUDA_TRY(cudaDeviceSynchronize());
    double best = 0;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        DS_CUDA_TRY(cudaMemcpy(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));
        DS_CUDA_TRY(cudaDeviceSynchronize());
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 2.0 * static_cast<double>(bytes) / s);
    }
    return best;
}

}  // namespace engine::cuda

namespace engine {

bool cuda_available() {
    static const bool available = [] {
        int count = 0;
        return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    }();
    return available;
}

namespace backend {

Result<std::unique_ptr<ComputeBackend>> make_cuda_backend(
    std::shared_ptr<const model::ModelWeights> weights, uint64_t memory_limit_bytes,
    bool nvfp4_fp4_inputs) {
    auto b = cuda::open_cuda_backend(std::move(weights), memory_limit_bytes, nvfp4_fp4_inputs);
    if (!b) return b.error();
    return std::unique_ptr<ComputeBackend>(std::move(b.value()));
}

std::string cuda_memory_plan(const model::ModelConfig& config) {
    return cuda_plan(config).describe();
}

model::MemoryPlan cuda_plan(const model::ModelConfig& config) {
    const cuda::MemoryPlan plan =
        cuda::plan_memory(config, cuda::kDefaultPassTokens, cuda::kDefaultPassTokens);
    return cuda::describe_plan(config, plan);
}

std::vector<DeviceMemory> cuda_device_memory() {
    std::vector<DeviceMemory> out;
    int count = 0, current = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || cudaGetDevice(&current) != cudaSuccess)
        return out;
    for (int d = 0; d < count; ++d) {
        size_t free_b = 0, total_b = 0;
        if (cudaSetDevice(d) != cudaSuccess || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
            continue;
        out.push_back({"cuda:" + std::to_string(d), static_cast<uint64_t>(free_b),
                       static_cast<uint64_t>(total_b)});
    }
    cudaSetDevice(current);
    return out;
}

}  // namespace backend
}  // namespace engine
