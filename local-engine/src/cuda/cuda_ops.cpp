// The CUDA operators: cuBLAS products around our kernels (kernels.cu), over a workspace
// allocated once at open. Storage: the residual stream and every buffer a kernel reduces over
// are fp32; the inputs of cuBLAS (normed rows, attention outputs, expert rows) are bf16.
// Operators without a Result keep their first failure and report it at end_pass().
//
// Cross-request batches (several PassShapes in one pass) run here as on the CPU, but without the
// CPU's bit-identity promise: cuBLAS chooses its GEMM algorithm (tile shape, split-K, stream-K)
// from the problem size, so a row's reduction order may change with the batch's row count.
// A read in a batch agrees with the read alone within 1e-3 on each slot log-probability (the
// bound engine_tst_cuda_backend holds for a change of pass shape). Making it invariant would
// take a fixed algorithm per weight shape (cublasLt with a pinned heuristic, no split-K) or our
// own GEMM kernel; not done.

#include "cuda/cuda_ops.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cuda/cuda_backend.h"
#include "cuda/cuda_util.h"
#include "cuda/device_weights.h"
#include "cuda/kernels.h"
#include "cuda/quantized_kernels.h"

namespace engine::cuda {

int max_head_dim(const model::ModelConfig& c) {
    return std::max(c.head_dim, c.global_head_dim);
}
int max_kv_heads(const model::ModelConfig& c) {
    return std::max(c.num_kv_heads, c.num_global_kv_heads);
}
int max_qkv_rows(const model::ModelConfig& c) {
    int m = 0;
    for (int l = 0; l < c.num_layers; ++l) {
        const int kv = c.layer_kv_heads(l), d = c.layer_head_dim(l);
        m = std::max(m, (c.num_heads + kv * (c.layer_has_v_proj(l) ? 2 : 1)) * d);
    }
    return m;
}

uint64_t packed_expert_scratch_bytes(const model::ModelConfig& c, int pass_tokens) {
    const uint64_t widest =
        static_cast<uint64_t>(std::max(2 * c.moe_intermediate_size, c.hidden_size));
    return static_cast<uint64_t>(pass_tokens) * static_cast<uint64_t>(c.top_k_experts) * widest *
           sizeof(float);
}

namespace {

// The most input values a pass quantises at once: a pass's tokens times top_k (the experts'
// gathered rows), each as wide as the widest projection input.
struct QuantizedInputs {
    uint64_t rows, width;
};
QuantizedInputs quantized_inputs(const model::ModelConfig& c, int pass_tokens) {
    return {
        static_cast<uint64_t>(pass_tokens) * static_cast<uint64_t>(std::max(1, c.top_k_experts)),
        static_cast<uint64_t>(std::max({c.hidden_size, c.num_heads * max_head_dim(c),
                                        c.intermediate_size, c.moe_intermediate_size}))};
}

}  // namespace

uint64_t fp8_activation_bytes(const model::ModelConfig& c, int pass_tokens) {
    const auto [rows, width] = quantized_inputs(c, pass_tokens);
    return rows * width + 16 + rows * sizeof(float);  // the scales start 16-byte aligned
}

uint64_t nvfp4_activation_bytes(const model::ModelConfig& c, int pass_tokens) {
    const auto [rows, width] = quantized_inputs(c, pass_tokens);
    // codes, then block scales and global scales, each start 16-byte aligned
    return rows * width / 2 + 16 + rows * width / 16 + 16 + rows * sizeof(float);
}

namespace {

using ops::Act;
using ops::Norm;
using ops::Rows;

// ---- cuBLAS in row-major terms ----

// C[M x N] = alpha * A[M x K] * B[N x K]^T + beta * C, batched with element strides.
cublasStatus_t gemm_nt(cublasHandle_t h, int M, int N, int K, const void* A, int lda, long long sa,
                       const void* B, int ldb, long long sb, void* C, cudaDataType_t ctype, int ldc,
                       long long sc, int batch, float alpha = 1.0f, float beta = 0.0f) {
    return cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16BF,
                                      ldb, sb, A, CUDA_R_16BF, lda, sa, &beta, C, ctype, ldc, sc,
                                      batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// C[M x N] = alpha * A[M x K] * B[K x N] + beta * C, batched with element strides.
cublasStatus_t gemm_nn(cublasHandle_t h, int M, int N, int K, const void* A, int lda, long long sa,
                       const void* B, int ldb, long long sb, void* C, cudaDataType_t ctype, int ldc,
                       long long sc, int batch, float alpha = 1.0f, float beta = 0.0f) {
    return cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16BF,
                                      ldb, sb, A, CUDA_R_16BF, lda, sa, &beta, C, ctype, ldc, sc,
                                      batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// Y[n x out] = X[n x in] * W[out x in]^T.
cublasStatus_t matmul_nt(cublasHandle_t h, const bf16_t* X, int n, int in, const bf16_t* W, int out,
                         void* Y, cudaDataType_t ytype, float alpha = 1.0f) {
    return gemm_nt(h, n, out, in, X, in, 0, W, in, 0, Y, ytype, out, 0, 1, alpha);
}

class CudaKvCache final : public ops::KvCacheState {
  public:
    DeviceBuffer storage;
    std::vector<bf16_t*> k, v;  // per layer [kv_heads][capacity][head_dim]
};

class CudaCanvas final : public ops::CanvasState {
  public:
    DeviceBuffer hidden;  // [rows * width, hidden] fp32, final layer output before the final norm
};

class CudaOpsImpl final : public CudaOps {
  public:
    ~CudaOpsImpl() override {
        if (blas_) cublasDestroy(blas_);
        if (stream_) cudaStreamDestroy(stream_);
    }

    Result<void> init(std::shared_ptr<const model::ModelWeights> weights, int pass_tokens) {
        weights_ = std::move(weights);
        const model::ModelConfig& c = weights_->config;
        DS_CUDA_TRY(cudaSetDevice(0));
        DS_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        DS_CUBLAS_TRY(cublasCreate(&blas_));
        DS_CUBLAS_TRY(cublasSetStream(blas_, stream_));
        cudaDeviceProp prop{};
        DS_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
        name_ = std::string("cuda:0 (") + prop.name + ")";
        T_ = pass_tokens;
        H_ = c.hidden_size;
        V_ = c.vocab_size;
        eps_ = static_cast<float>(c.rms_norm_eps);
        return {};
    }

    Result<void> load(bool synthetic, uint64_t seed, bool nvfp4_fp4_inputs) {
        if (synthetic)
            DS_TRY(synthesize_weights(weights_->config, planned_formats(weights_->config), seed,
                                      nullptr, dw_));
        else
            DS_TRY(upload_weights(*weights_, nullptr, dw_));
        packed_experts_ = !dw_.layers.empty() && std::any_of(dw_.layers.begin(), dw_.layers.end(),
                                                             [](const DeviceLayer& L) {
                                                                 return L.experts_gate_up.packed();
                                                             });
        fp8_weights_ = uses_format(dw_.formats, model::WeightFormat::FP8);
        fp8_tensor_cores_ = fp8_weights_ && fp8_tensor_cores_available();
        fp4_tensor_cores_ = nvfp4_fp4_inputs &&
                            uses_format(dw_.formats, model::WeightFormat::NVFP4) &&
                            fp4_tensor_cores_available();
        return {};
    }

    // Every per-pass buffer, allocated once (plan_memory counts the same bytes).
    Result<void> allocate_workspace() {
        const model::ModelConfig& c = weights_->config;
        const size_t T = static_cast<size_t>(T_), H = static_cast<size_t>(H_);
        const size_t NH = static_cast<size_t>(c.num_heads),
                     D = static_cast<size_t>(max_head_dim(c));
        const size_t KV = static_cast<size_t>(max_kv_heads(c));
        const size_t I = static_cast<size_t>(c.intermediate_size);
        const size_t E = static_cast<size_t>(c.num_experts),
                     K = static_cast<size_t>(c.top_k_experts);
        const size_t MI = static_cast<size_t>(c.moe_intermediate_size);
        const size_t R = kReadoutRows, V = static_cast<size_t>(V_);
        struct Item {
            DeviceBuffer* buf;
            size_t bytes;
            const char* what;
        };
        const Item items[] = {
            {&ids_, T * 4, "token ids"},
            {&x_, T * H * 4, "the residual stream"},
            {&h_, T * H * 2, "normed activations"},
            {&qkv_, T * static_cast<size_t>(max_qkv_rows(c)) * 4, "Q/K/V projections"},
            {&q_, NH * T * D * 2, "queries"},
            {&kc_, KV * T * D * 2, "canvas keys"},
            {&vc_, KV * T * D * 2, "canvas values"},
            {&scores_, kScoreElements * 4, "attention scores"},
            {&probs_, kScoreElements * 2, "attention probabilities"},
            {&o_, T * NH * D * 4, "attention outputs"},
            {&o16_, T * NH * D * 2, "attention outputs (bf16)"},
            {&attn_, T * H * 4, "o_proj outputs"},
            {&gu_, T * 2 * I * 4, "MLP gate/up"},
            {&act_, T * I * 2, "MLP activations"},
            {&d_, T * H * 4, "MLP outputs"},
            {&rlog_, T * E * 4, "router logits"},
            {&ridx_, T * K * 4, "router choices"},
            {&rw_, T * K * 4, "router weights"},
            {&n2_, T * H * 2, "expert inputs"},
            {&counts_, E * 4, "expert counts"},
            {&cursor_, E * 4, "expert cursors"},
            {&offsets_, E * 4, "expert row offsets"},
            {&slot_of_, T * K * 4, "expert slots"},
            {&row_token_, T * K * 4, "expert rows"},
            {&xe_, T * K * H * 2, "gathered expert inputs"},
            {&gue_, T * K * 2 * MI * 2, "expert gate/up"},
            {&acte_, T * K * MI * 2, "expert activations"},
            {&ye_, T * K * H * 2, "expert outputs"},
            {&m_, T * H * 4, "MoE outputs"},
            {&sc_, T * H * 4, "self-conditioning"},
            {&logits_, R * V * 4, "readout logits"},
            {&sprobs_, R * V * 2, "self-conditioning probabilities"},
            {&rhid_, R * H * 4, "readout rows"},
            {&rh16_, R * H * 2, "readout rows (bf16)"},
            {&rsmall_, R * 4 * 4 + 4096 * 4 * 4, "readout results"},
            {&ptrs_, E * 3 * sizeof(void*) * 2, "expert GEMM pointers"},
            // Packed experts' GEMMs write fp32 (plan_memory counts it when experts are packed).
            {&qe_, packed_experts_ ? packed_expert_scratch_bytes(c, T_) : 0,
             "packed expert outputs"},
            {&xq8_, fp8_weights_ ? fp8_activation_bytes(c, T_) : 0, "FP8 activations"},
            {&xq4_, fp4_tensor_cores_ ? nvfp4_activation_bytes(c, T_) : 0, "NVFP4 activations"},
        };
        for (const Item& it : items)
            if (it.bytes > 0) DS_TRY(it.buf->allocate(it.bytes, it.what));
        return {};
    }

    // ---- ops::Ops ----

    std::string device_name() const override { return name_; }
    int max_pass_tokens() const override { return T_; }
    bool fuses_passes() const override { return true; }
    bool embeddings_bf16() const override { return true; }
    uint64_t weight_bytes() const override { return dw_.matrix_bytes; }
    Result<void> synchronize() override {
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        return {};
    }

    Result<std::unique_ptr<ops::KvCacheState>> create_cache(int capacity) override {
        const model::ModelConfig& c = weights_->config;
        if (capacity <= 0) return bad_input("KV cache capacity must be positive");
        const uint64_t bytes = kv_cache_bytes(c, capacity);
        size_t free_b = 0, total_b = 0;
        DS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
        if (bytes + (uint64_t{64} << 20) > free_b)
            return engine_error("CUDA backend: a KV cache of " + std::to_string(capacity) +
                                " tokens needs " + format_gib(bytes) + ", device has " +
                                format_gib(free_b) + " free");
        auto cache = std::make_unique<CudaKvCache>();
        DS_TRY(cache->storage.allocate(bytes, "the KV cache"));
        bf16_t* p = cache->storage.as<bf16_t>();
        for (int l = 0; l < c.num_layers; ++l) {
            const size_t n = static_cast<size_t>(c.layer_kv_heads(l)) * capacity *
                             static_cast<size_t>(c.layer_head_dim(l));
            cache->k.push_back(p);
            p += n;
            cache->v.push_back(p);
            p += n;
        }
        return std::unique_ptr<ops::KvCacheState>(std::move(cache));
    }

    Result<std::unique_ptr<ops::KvCacheState>> copy_cache(const ops::KvCacheState& src_base,
                                                          int length, int capacity) override {
        const auto& src = static_cast<const CudaKvCache&>(src_base);
        auto made = create_cache(capacity);
        if (!made) return made.error();
        auto& dst = static_cast<CudaKvCache&>(**made);
        const model::ModelConfig& c = weights_->config;
        // Per layer and head, the first `length` rows of [capacity][head_dim]: one 2D copy of
        // `heads` lines between the two capacities' pitches, queued on the compute stream after
        // the writes that filled src.
        for (int l = 0; l < c.num_layers && length > 0; ++l) {
            const size_t D = static_cast<size_t>(c.layer_head_dim(l)) * sizeof(bf16_t);
            const size_t heads = static_cast<size_t>(c.layer_kv_heads(l));
            const auto L = static_cast<size_t>(l);
            for (const auto& [to, from] : {std::pair{dst.k[L], src.k[L]}, {dst.v[L], src.v[L]}})
                DS_CUDA_TRY(cudaMemcpy2DAsync(to, D * static_cast<size_t>(capacity), from,
                                              D * static_cast<size_t>(src.capacity_),
                                              D * static_cast<size_t>(length), heads,
                                              cudaMemcpyDeviceToDevice, stream_));
        }
        return made;
    }
    uint64_t cache_bytes(int capacity) const override {
        return kv_cache_bytes(weights_->config, capacity);
    }

    Result<std::unique_ptr<ops::CanvasState>> create_canvas(int rows, int width) override {
        auto out = std::make_unique<CudaCanvas>();
        DS_TRY(out->hidden.allocate(static_cast<size_t>(rows) * width * H_ * sizeof(float),
                                    "decoded canvas"));
        return std::unique_ptr<ops::CanvasState>(std::move(out));
    }

    Result<void> read_cache(const ops::KvCacheState& cache, int layer, std::vector<float>& k,
                            std::vector<float>& v) override {
        const auto& kv = static_cast<const CudaKvCache&>(cache);
        const model::ModelConfig& c = weights_->config;
        const size_t heads = static_cast<size_t>(c.layer_kv_heads(layer));
        const size_t D = static_cast<size_t>(c.layer_head_dim(layer));
        const size_t cap = static_cast<size_t>(kv.capacity_), len = static_cast<size_t>(kv.length_);
        std::vector<uint16_t> hk(heads * cap * D), hv(heads * cap * D);
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));  // the cache writes queued on it
        DS_CUDA_TRY(cudaMemcpy(hk.data(), kv.k[static_cast<size_t>(layer)], hk.size() * 2,
                               cudaMemcpyDeviceToHost));
        DS_CUDA_TRY(cudaMemcpy(hv.data(), kv.v[static_cast<size_t>(layer)], hv.size() * 2,
                               cudaMemcpyDeviceToHost));
        k.assign(len * heads * D, 0.0f);
        v.assign(len * heads * D, 0.0f);
        for (size_t t = 0; t < len; ++t)
            for (size_t j = 0; j < heads; ++j)
                for (size_t i = 0; i < D; ++i) {
                    k[(t * heads + j) * D + i] = model::bf16_to_float(hk[(j * cap + t) * D + i]);
                    v[(t * heads + j) * D + i] = model::bf16_to_float(hv[(j * cap + t) * D + i]);
                }
        return {};
    }

    using ops::Ops::begin_pass;
    Result<void> begin_pass(std::span<const ops::PassShape> requests) override {
        int64_t tokens = 0;
        for (const ops::PassShape& r : requests) tokens = std::max(tokens, r.first + r.tokens());
        if (tokens > T_)
            return bad_input("CUDA backend: a pass of " + std::to_string(tokens) +
                             " tokens exceeds the pass size of " + std::to_string(T_));
        pending_ = {};
        return {};
    }

    Result<void> end_pass() override {
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        DS_CUDA_TRY(cudaGetLastError());
        Result<void> r = std::move(pending_);
        pending_ = {};
        return r;
    }

    void embed(std::span<const TokenId> ids, float scale, Rows out) override {
        int32_t* dids = ids_.as<int32_t>() + out.first;
        check(cudaMemcpyAsync(dids, ids.data(), ids.size() * sizeof(int32_t),
                              cudaMemcpyHostToDevice, stream_),
              "embed ids");
        embed_rows(dids, static_cast<int>(ids.size()), dw_.embed, V_, H_, scale, f32(out), stream_);
    }

    Result<void> soft_embed(const float* logits, float scale, bool /*round_probs_bf16: always,
                            the device's embeddings are bf16*/
                            ,
                            Rows out) override {
        const int n = static_cast<int>(out.count);
        for (int done = 0; done < n; done += kReadoutRows) {
            const int cnt = std::min(kReadoutRows, n - done);
            DS_CUDA_TRY(cudaMemcpyAsync(logits_.get(), logits + static_cast<size_t>(done) * V_,
                                        static_cast<size_t>(cnt) * V_ * sizeof(float),
                                        cudaMemcpyHostToDevice, stream_));
            softmax_rows_bf16(logits_.as<float>(), cnt, V_, sprobs_.as<bf16_t>(), stream_);
            // soft = probs @ E * scale: [cnt x V] * [V x H].
            DS_CUBLAS_TRY(gemm_nn(blas_, cnt, H_, V_, sprobs_.get(), V_, 0, dw_.embed, H_, 0,
                                  f32(out) + static_cast<size_t>(done) * H_, CUDA_R_32F, H_, 0, 1,
                                  scale));
            // The staging logits buffer is reused by the next chunk.
            DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        }
        return {};
    }

    void rmsnorm(Rows in, Rows out, int layer, Norm w) override {
        rmsnorm_rows(f32(in), nullptr, static_cast<int>(in.count), H_, norm_weight(layer, w),
                     nullptr, 1.0f, eps_, is_bf16(out.act) ? b16(out) : nullptr,
                     is_bf16(out.act) ? nullptr : f32(out), stream_);
    }

    void add_rmsnorm(Rows x, Rows add, int layer, Norm w) override {
        rmsnorm_rows(f32(x), f32(add), static_cast<int>(x.count), H_, norm_weight(layer, w),
                     nullptr, 1.0f, eps_, nullptr, f32(x), stream_);
    }

    void router_input(Rows in, Rows out, int layer, float extra) override {
        rmsnorm_rows(f32(in), nullptr, static_cast<int>(in.count), H_, nullptr,
                     layer_of(layer).router_scale, extra, eps_, b16(out), nullptr, stream_);
    }

    void residual_rmsnorm(Rows x, Rows o, int layer, Norm w) override {
        residual_add_norm(f32(x), f32(o), static_cast<int>(x.count), H_, norm_weight(layer, w),
                          eps_, stream_);
    }

    void residual_two_branches(Rows x, Rows a, Rows b, int layer, Norm wa, Norm wb, Norm wsum,
                               float scalar) override {
        const int n = static_cast<int>(x.count);
        ffn_combine(f32(x), f32(a), f32(b), n, H_, norm_weight(layer, wa), norm_weight(layer, wb),
                    norm_weight(layer, wsum), eps_, n, scalar, scalar, stream_);
    }

    void project_qkv(int layer, Rows h) override {
        const DeviceLayer& L = layer_of(layer);
        project(b16(h), static_cast<int>(h.count), L.qkv, qkv_.as<float>(), "Q/K/V projection");
    }

    void qkv_norm_rope(int layer, const ops::PassShape& shape, ops::KvCacheState& cache) override {
        auto& kv = static_cast<CudaKvCache&>(cache);
        const DeviceLayer& L = layer_of(layer);
        QkvPostParams qp;
        // This request's rows: every buffer offset by its first workspace row.
        const size_t first = static_cast<size_t>(shape.first);
        qp.qkv = qkv_.as<float>() + first * static_cast<size_t>(L.qkv_rows);
        qp.n = static_cast<int>(shape.tokens());
        qp.ld = L.qkv_rows;
        qp.heads = weights_->config.num_heads;
        qp.kv_heads = L.kv_heads;
        qp.head_dim = L.head_dim;
        qp.has_v = L.has_v;
        qp.q_norm = L.q_norm;
        qp.k_norm = L.k_norm;
        qp.inv_freq = L.inv_freq;
        qp.eps = eps_;
        qp.q_out = q_.as<bf16_t>() + first * static_cast<size_t>(L.head_dim);
        qp.q_stride = T_;
        qp.prompt_rows = shape.prompt;
        qp.cache_pos = shape.start;
        qp.cache_stride = kv.capacity_;
        qp.k_cache = kv.k[static_cast<size_t>(layer)];
        qp.v_cache = kv.v[static_cast<size_t>(layer)];
        qp.canvas_pos = shape.canvas_position0();
        qp.width = shape.width > 0 ? shape.width : 1;
        qp.canvas_stride = T_;
        // Canvas K/V rows at the canvas rows' workspace index (attention_canvas reads them there).
        const size_t canvas0 = static_cast<size_t>(shape.first_canvas_row());
        qp.k_canvas = kc_.as<bf16_t>() + canvas0 * static_cast<size_t>(L.head_dim);
        qp.v_canvas = vc_.as<bf16_t>() + canvas0 * static_cast<size_t>(L.head_dim);
        qkv_post(qp, stream_);
    }

    void attention_causal(int layer, const ops::PassShape& shape, const ops::KvCacheState& cache,
                          int window) override {
        const auto& kv = static_cast<const CudaKvCache&>(cache);
        const DeviceLayer& L = layer_of(layer);
        const int NH = weights_->config.num_heads, D = L.head_dim, KVH = L.kv_heads, G = NH / KVH;
        const int n = shape.prompt, P0 = shape.start, Lp = P0 + n;
        const size_t first = static_cast<size_t>(shape.first);
        const bf16_t* Q = q_.as<bf16_t>() + first * D;
        const bf16_t* Kc = kv.k[static_cast<size_t>(layer)];
        const bf16_t* Vc = kv.v[static_cast<size_t>(layer)];
        const long long qhs = static_cast<long long>(T_) * D;            // query head stride
        const long long chs = static_cast<long long>(kv.capacity_) * D;  // cache head stride
        const int ldo = NH * D;
        float* O = o_.as<float>() + first * ldo;
        float* S = scores_.as<float>();
        bf16_t* Pr = probs_.as<bf16_t>();
        // Query chunks that fit the score buffer.
        if (static_cast<uint64_t>(NH) * static_cast<uint64_t>(Lp) > kScoreElements) {
            if (pending_)
                pending_ = engine_error("CUDA backend: attention over " + std::to_string(Lp) +
                                        " keys does not fit the score buffer");
            return;
        }
        for (int c0 = 0; c0 < n;) {
            const int M = static_cast<int>(std::min<uint64_t>(
                static_cast<uint64_t>(n - c0), kScoreElements / (static_cast<uint64_t>(NH) * Lp)));
            const int Lk = P0 + c0 + M;
            // A sliding layer's chunk sees no key before its first query's window: scores start
            // there (k0), and the softmax takes positions relative to it. Full layers: k0 = 0.
            const int k0 = window > 0 ? std::max(0, P0 + c0 - window + 1) : 0;
            const int cols = Lk - k0;
            const size_t kv0 = static_cast<size_t>(k0) * D;
            for (int j = 0; j < KVH; ++j)
                check(gemm_nt(blas_, M, cols, D, Q + (j * G * qhs + c0 * D), D, qhs,
                              Kc + j * chs + kv0, D, 0, S + static_cast<size_t>(j) * G * M * cols,
                              CUDA_R_32F, cols, static_cast<long long>(M) * cols, G),
                      "causal scores");
            masked_softmax(S, Pr, NH, M, cols, true, P0 + c0 - k0, 0, window, stream_);
            for (int j = 0; j < KVH; ++j)
                check(gemm_nn(blas_, M, D, cols, Pr + static_cast<size_t>(j) * G * M * cols, cols,
                              static_cast<long long>(M) * cols, Vc + j * chs + kv0, D, 0,
                              O + static_cast<size_t>(c0) * ldo + j * G * D, CUDA_R_32F, ldo, D, G),
                      "causal values");
            c0 += M;
        }
        f32_to_bf16(O, o16_.as<bf16_t>() + first * ldo, static_cast<size_t>(n) * ldo, stream_);
    }

    void attention_canvas(int layer, const ops::PassShape& shape, const ops::KvCacheState& cache,
                          int first_key) override {
        const auto& kv = static_cast<const CudaKvCache&>(cache);
        const DeviceLayer& L = layer_of(layer);
        const int NH = weights_->config.num_heads, D = L.head_dim, KVH = L.kv_heads, G = NH / KVH;
        // n: this request's first canvas row in the workspace (its prompt rows come before).
        const size_t n = static_cast<size_t>(shape.first_canvas_row());
        const int rows = shape.rows, width = shape.width;
        const int Lp = shape.canvas_position0();
        const bf16_t* Q = q_.as<bf16_t>();
        const bf16_t* Kc = kv.k[static_cast<size_t>(layer)];
        const bf16_t* Vc = kv.v[static_cast<size_t>(layer)];
        const long long qhs = static_cast<long long>(T_) * D;
        const long long chs = static_cast<long long>(kv.capacity_) * D;
        const int ldo = NH * D;
        float* O = o_.as<float>();
        float* S = scores_.as<float>();
        bf16_t* Pr = probs_.as<bf16_t>();
        // Scores against [cache | own canvas] in chunks that fit the score buffer: whole canvas
        // rows while one row's scores fit, else blocks of one row's queries (a long cache: at the
        // spec's 16 heads and 256-wide canvas, one row's scores pass the buffer at about 7,900
        // cached tokens). The softmax masks the cache columns before first_key.
        const int cols = Lp + width;
        const uint64_t head_row = static_cast<uint64_t>(NH) * static_cast<uint64_t>(cols);
        const int qblock = static_cast<int>(std::min<uint64_t>(width, kScoreElements / head_row));
        if (qblock == 0) {
            if (pending_)
                pending_ =
                    engine_error("CUDA backend: canvas attention over " + std::to_string(cols) +
                                 " keys does not fit the score buffer");
            return;
        }
        for (int r0 = 0; r0 < rows;) {
            // Canvas rows in this chunk (1 when a row is split into query blocks).
            const int rc = qblock < width
                               ? 1
                               : static_cast<int>(std::clamp<uint64_t>(
                                     kScoreElements / (head_row * static_cast<uint64_t>(width)), 1,
                                     static_cast<uint64_t>(rows - r0)));
            const size_t row_t0 = n + static_cast<size_t>(r0) * width;  // the row's first token
            for (int q0 = 0; q0 < width; q0 += qblock) {
                const int qn = std::min(qblock, width - q0);  // queries of each row in the chunk
                const int Mc = rc * qn;
                const long long chunk_stride = static_cast<long long>(Mc) * cols;
                const size_t t0 = row_t0 + static_cast<size_t>(q0);  // the chunk's first query
                if (Lp > 0)
                    for (int j = 0; j < KVH; ++j)
                        check(gemm_nt(blas_, Mc, Lp, D, Q + (j * G * qhs + t0 * D), D, qhs,
                                      Kc + j * chs, D, 0, S + j * G * chunk_stride, CUDA_R_32F,
                                      cols, chunk_stride, G),
                              "canvas cache scores");
                // Each canvas row's queries against that row's keys, rc rows batched.
                for (int hq = 0; hq < NH; ++hq) {
                    const int j = hq / G;
                    check(gemm_nt(blas_, qn, width, D, Q + (hq * qhs + t0 * D), D,
                                  static_cast<long long>(width) * D,
                                  kc_.as<bf16_t>() + (static_cast<size_t>(j) * T_ + row_t0) * D, D,
                                  static_cast<long long>(width) * D, S + hq * chunk_stride + Lp,
                                  CUDA_R_32F, cols, static_cast<long long>(qn) * cols, rc),
                          "canvas scores");
                }
                masked_softmax(S, Pr, NH, Mc, cols, false, 0, first_key, 0, stream_);
                if (Lp > 0)
                    for (int j = 0; j < KVH; ++j)
                        check(gemm_nn(blas_, Mc, D, Lp, Pr + j * G * chunk_stride, cols,
                                      chunk_stride, Vc + j * chs, D, 0, O + t0 * ldo + j * G * D,
                                      CUDA_R_32F, ldo, D, G),
                              "canvas cache values");
                for (int hq = 0; hq < NH; ++hq) {
                    const int j = hq / G;
                    check(gemm_nn(blas_, qn, D, width, Pr + hq * chunk_stride + Lp, cols,
                                  static_cast<long long>(qn) * cols,
                                  vc_.as<bf16_t>() + (static_cast<size_t>(j) * T_ + row_t0) * D, D,
                                  static_cast<long long>(width) * D, O + t0 * ldo + hq * D,
                                  CUDA_R_32F, ldo, static_cast<long long>(width) * ldo, rc, 1.0f,
                                  Lp > 0 ? 1.0f : 0.0f),
                          "canvas values");
                }
            }
            r0 += rc;
        }
        const size_t first = n * ldo;
        f32_to_bf16(O + first, o16_.as<bf16_t>() + first, shape.canvas_tokens() * ldo, stream_);
    }

    void linear(int layer, ops::Matrix w, Rows in, Rows out) override {
        const DeviceLayer& L = layer_of(layer);
        const int n = static_cast<int>(in.count);
        if (w == ops::Matrix::o_proj)
            project(o16_.as<bf16_t>(), n, L.o, f32(out), "o_proj");
        else
            check(matmul_nt(blas_, b16(in), n, H_, L.router, weights_->config.num_experts, f32(out),
                            CUDA_R_32F),
                  "router");
    }

    void gated_mlp(int layer, ops::Mlp w, Rows in, Rows out) override {
        const int I = weights_->config.intermediate_size, n = static_cast<int>(in.count);
        const bool dense = w == ops::Mlp::dense;
        const DeviceMatrix& gate_up = dense ? layer_of(layer).mlp_gate_up : dw_.sc_gate_up;
        const DeviceMatrix& down = dense ? layer_of(layer).mlp_down : dw_.sc_down;
        project(b16(in), n, gate_up, gu_.as<float>(), "gate/up");
        gelu_gate_f32(gu_.as<float>(), n, I, act_.as<bf16_t>(), stream_);
        project(act_.as<bf16_t>(), n, down, f32(out), "down");
    }

    void router_topk(int layer, Rows logits) override {
        const model::ModelConfig& c = weights_->config;
        ::engine::cuda::router_topk(f32(logits), static_cast<int>(logits.count), c.num_experts,
                                    c.top_k_experts, layer_of(layer).per_expert_scale,
                                    ridx_.as<int32_t>(), rw_.as<float>(), stream_);
    }

    Result<void> experts(int layer, Rows in, Rows out) override {
        const model::ModelConfig& c = weights_->config;
        const DeviceLayer& L = layer_of(layer);
        const int E = c.num_experts, K = c.top_k_experts, MI = c.moe_intermediate_size;
        const int N = static_cast<int>(in.count), A = N * K;
        DS_CUDA_TRY(cudaMemsetAsync(counts_.get(), 0, static_cast<size_t>(E) * 4, stream_));
        moe_count(ridx_.as<int32_t>(), A, counts_.as<int32_t>(), stream_);
        counts_host_.resize(static_cast<size_t>(E));
        DS_CUDA_TRY(cudaMemcpyAsync(counts_host_.data(), counts_.get(), static_cast<size_t>(E) * 4,
                                    cudaMemcpyDeviceToHost, stream_));
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        offsets_host_.assign(static_cast<size_t>(E), 0);
        for (int e = 1; e < E; ++e)
            offsets_host_[static_cast<size_t>(e)] = offsets_host_[static_cast<size_t>(e - 1)] +
                                                    counts_host_[static_cast<size_t>(e - 1)];
        DS_CUDA_TRY(cudaMemcpyAsync(cursor_.get(), offsets_host_.data(), static_cast<size_t>(E) * 4,
                                    cudaMemcpyHostToDevice, stream_));
        // The grouped expert GEMMs read the offsets (moe_assign advances cursor_ past them).
        DS_CUDA_TRY(cudaMemcpyAsync(offsets_.get(), cursor_.get(), static_cast<size_t>(E) * 4,
                                    cudaMemcpyDeviceToDevice, stream_));
        max_count_ = *std::max_element(counts_host_.begin(), counts_host_.end());
        moe_assign(ridx_.as<int32_t>(), A, K, cursor_.as<int32_t>(), slot_of_.as<int32_t>(),
                   row_token_.as<int32_t>(), stream_);
        gather_rows_bf16(b16(in), row_token_.as<int32_t>(), A, H_, xe_.as<bf16_t>(), stream_);

        const size_t gu_rows = static_cast<size_t>(2) * MI;
        if (L.experts_gate_up.packed()) {
            // Packed experts: one dequantising GEMM per expert with rows, fp32 out.
            packed_expert_gemm(L.experts_gate_up, static_cast<int>(gu_rows), xe_.as<bf16_t>(), H_,
                               qe_.as<float>());
            gelu_gate_f32(qe_.as<float>(), A, MI, acte_.as<bf16_t>(), stream_);
        } else {
            DS_TRY(grouped_gemm(L.experts_gate_up.bf16, gu_rows * H_, xe_.as<bf16_t>(), H_,
                                gue_.as<bf16_t>(), static_cast<int>(gu_rows), 0));
            gelu_gate_bf16(gue_.as<bf16_t>(), A, MI, acte_.as<bf16_t>(), stream_);
        }
        if (L.experts_down.packed()) {
            packed_expert_gemm(L.experts_down, H_, acte_.as<bf16_t>(), MI, qe_.as<float>());
            f32_to_bf16(qe_.as<float>(), ye_.as<bf16_t>(), static_cast<size_t>(A) * H_, stream_);
        } else {
            DS_TRY(grouped_gemm(L.experts_down.bf16, static_cast<size_t>(H_) * MI,
                                acte_.as<bf16_t>(), MI, ye_.as<bf16_t>(), H_, 1));
        }
        moe_combine(ye_.as<bf16_t>(), slot_of_.as<int32_t>(), rw_.as<float>(), N, K, H_, f32(out),
                    stream_);
        return {};
    }

    void store_canvas(Rows x, ops::CanvasState& canvas, int64_t first_token) override {
        auto& dc = static_cast<CudaCanvas&>(canvas);
        check(cudaMemcpyAsync(dc.hidden.as<float>() + static_cast<size_t>(first_token) * H_, f32(x),
                              static_cast<size_t>(x.count) * H_ * sizeof(float),
                              cudaMemcpyDeviceToDevice, stream_),
              "store canvas");
    }

    Result<void> full_logits(const ops::CanvasState& canvas, int layer, Norm w, float cap,
                             std::vector<float>& out) override {
        const auto& dc = static_cast<const CudaCanvas&>(canvas);
        const size_t positions = static_cast<size_t>(dc.rows_) * dc.width_;
        out.resize(positions * static_cast<size_t>(V_));
        for (size_t done = 0; done < positions; done += kReadoutRows) {
            const int n = static_cast<int>(std::min<size_t>(kReadoutRows, positions - done));
            rmsnorm_rows(dc.hidden.as<float>() + done * H_, nullptr, n, H_, norm_weight(layer, w),
                         nullptr, 1.0f, eps_, rh16_.as<bf16_t>(), nullptr, stream_);
            DS_CUBLAS_TRY(matmul_nt(blas_, rh16_.as<bf16_t>(), n, H_, dw_.lm_head, V_,
                                    logits_.get(), CUDA_R_32F));
            softcap_inplace(logits_.as<float>(), static_cast<size_t>(n) * V_, cap, stream_);
            DS_CUDA_TRY(cudaMemcpyAsync(out.data() + done * V_, logits_.get(),
                                        static_cast<size_t>(n) * V_ * sizeof(float),
                                        cudaMemcpyDeviceToHost, stream_));
            DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        }
        return {};
    }

    using ops::Ops::read_positions;
    Result<void> read_positions(std::span<const CanvasToken> at,
                                std::span<const backend::PositionQuery> queries, int layer, Norm w,
                                float cap, std::vector<backend::PositionReadout>& result) override {
        for (size_t done = 0; done < queries.size(); done += kReadoutRows) {
            const int n = static_cast<int>(std::min<size_t>(kReadoutRows, queries.size() - done));
            std::vector<int32_t> rows(static_cast<size_t>(n)), qrow, qid;
            for (int i = 0; i < n; ++i) {
                const size_t qi = done + static_cast<size_t>(i);
                rows[static_cast<size_t>(i)] = static_cast<int32_t>(at[qi].token);
                for (TokenId id : queries[qi].ids) {
                    qrow.push_back(i);
                    qid.push_back(id);
                }
            }
            const int asked = static_cast<int>(qid.size());
            // rsmall_ layout: [lse R][argmax R][max R][pad R][rows 4096][qrow 4096][qid 4096]
            // [label logits 4096].
            auto* lse = rsmall_.as<float>();
            auto* amax = reinterpret_cast<int32_t*>(lse + kReadoutRows);
            auto* mval = lse + 2 * kReadoutRows;
            auto* d_rows = reinterpret_cast<int32_t*>(lse + 4 * kReadoutRows);
            int32_t* d_qrow = d_rows + 4096;
            int32_t* d_qid = d_qrow + 4096;
            float* picked = reinterpret_cast<float*>(d_qid + 4096);
            DS_CUDA_TRY(cudaMemcpyAsync(d_rows, rows.data(), rows.size() * 4,
                                        cudaMemcpyHostToDevice, stream_));
            // Runs of queries on the same canvas, each gathered from its canvas.
            for (int i0 = 0; i0 < n;) {
                const ops::CanvasState* canvas = at[done + static_cast<size_t>(i0)].canvas;
                int i1 = i0 + 1;
                while (i1 < n && at[done + static_cast<size_t>(i1)].canvas == canvas) ++i1;
                gather_rows_f32(static_cast<const CudaCanvas*>(canvas)->hidden.as<float>(),
                                d_rows + i0, i1 - i0, H_,
                                rhid_.as<float>() + static_cast<size_t>(i0) * H_, stream_);
                i0 = i1;
            }
            rmsnorm_rows(rhid_.as<float>(), nullptr, n, H_, norm_weight(layer, w), nullptr, 1.0f,
                         eps_, rh16_.as<bf16_t>(), nullptr, stream_);
            DS_CUBLAS_TRY(matmul_nt(blas_, rh16_.as<bf16_t>(), n, H_, dw_.lm_head, V_,
                                    logits_.get(), CUDA_R_32F));
            softcap_reduce(logits_.as<float>(), n, V_, cap, lse, amax, mval, stream_);
            std::vector<float> h_lse(static_cast<size_t>(n)), h_max(static_cast<size_t>(n));
            std::vector<int32_t> h_arg(static_cast<size_t>(n));
            std::vector<float> h_picked(static_cast<size_t>(asked));
            // Label logits in slices of 4096 (the index buffers' size).
            for (int first = 0; first < asked; first += 4096) {
                const int cnt = std::min(4096, asked - first);
                DS_CUDA_TRY(cudaMemcpyAsync(d_qrow, qrow.data() + first, cnt * 4,
                                            cudaMemcpyHostToDevice, stream_));
                DS_CUDA_TRY(cudaMemcpyAsync(d_qid, qid.data() + first, cnt * 4,
                                            cudaMemcpyHostToDevice, stream_));
                gather_logits(logits_.as<float>(), V_, d_qrow, d_qid, cnt, picked, stream_);
                DS_CUDA_TRY(cudaMemcpyAsync(h_picked.data() + first, picked, cnt * 4,
                                            cudaMemcpyDeviceToHost, stream_));
                DS_CUDA_TRY(cudaStreamSynchronize(stream_));
            }
            DS_CUDA_TRY(cudaMemcpyAsync(h_lse.data(), lse, n * 4, cudaMemcpyDeviceToHost, stream_));
            DS_CUDA_TRY(
                cudaMemcpyAsync(h_arg.data(), amax, n * 4, cudaMemcpyDeviceToHost, stream_));
            DS_CUDA_TRY(
                cudaMemcpyAsync(h_max.data(), mval, n * 4, cudaMemcpyDeviceToHost, stream_));
            DS_CUDA_TRY(cudaStreamSynchronize(stream_));
            DS_CUDA_TRY(cudaGetLastError());
            size_t next = 0;
            for (int i = 0; i < n; ++i) {
                const size_t qi = done + static_cast<size_t>(i);
                backend::PositionReadout& r = result[qi];
                r.logsumexp = h_lse[static_cast<size_t>(i)];
                r.argmax = h_arg[static_cast<size_t>(i)];
                r.max_logit = h_max[static_cast<size_t>(i)];
                r.logits.assign(
                    h_picked.begin() + static_cast<long>(next),
                    h_picked.begin() + static_cast<long>(next + queries[qi].ids.size()));
                next += queries[qi].ids.size();
            }
        }
        return {};
    }

    Result<void> download(Rows src, std::vector<float>& out) override {
        const size_t n = static_cast<size_t>(src.count) * width(src.act);
        out.assign(n, 0.0f);
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        if (is_bf16(src.act)) {
            std::vector<uint16_t> raw(n);
            DS_CUDA_TRY(cudaMemcpy(raw.data(), b16(src), n * 2, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; ++i) out[i] = model::bf16_to_float(raw[i]);
        } else {
            DS_CUDA_TRY(cudaMemcpy(out.data(), f32(src), n * 4, cudaMemcpyDeviceToHost));
        }
        return {};
    }

    Result<void> upload(Rows dst, std::span<const float> values) override {
        const size_t n = static_cast<size_t>(dst.count) * width(dst.act);
        if (values.size() != n) return bad_input("upload: value count does not match the rows");
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        if (is_bf16(dst.act)) {
            std::vector<uint16_t> raw(n);
            for (size_t i = 0; i < n; ++i) raw[i] = model::float_to_bf16(values[i]);
            DS_CUDA_TRY(
                cudaMemcpyAsync(b16(dst), raw.data(), n * 2, cudaMemcpyHostToDevice, stream_));
        } else {
            DS_CUDA_TRY(
                cudaMemcpyAsync(f32(dst), values.data(), n * 4, cudaMemcpyHostToDevice, stream_));
        }
        // On the compute stream, so the kernels after it see the values (a plain cudaMemcpy runs
        // on the legacy stream, which this non-blocking stream does not wait for, and may return
        // before its DMA lands); the wait keeps `raw` alive until the copy is done.
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        return {};
    }

  private:
    // Keeps the first failure of an operator without a Result.
    void check(cudaError_t e, const char* what) {
        if (e != cudaSuccess && pending_) pending_ = cuda_error(e, what);
    }
    void check(cublasStatus_t s, const char* what) {
        if (s != CUBLAS_STATUS_SUCCESS && pending_) pending_ = cublas_error(s, what);
    }

    const DeviceLayer& layer_of(int layer) const { return dw_.layers[static_cast<size_t>(layer)]; }

    const float* norm_weight(int layer, Norm w) const {
        if (layer == ops::kModelLevel)
            return w == Norm::final_norm      ? dw_.final_norm
                   : w == Norm::self_cond_pre ? dw_.sc_pre_norm
                                              : nullptr;
        const DeviceLayer& L = layer_of(layer);
        switch (w) {
            case Norm::input:
                return L.input_norm;
            case Norm::post_attention:
                return L.post_attn_norm;
            case Norm::pre_ff:
                return L.pre_ff;
            case Norm::post_ff:
                return L.post_ff;
            case Norm::pre_ff2:
                return L.pre_ff2;
            case Norm::post_ff1:
                return L.post_ff1;
            case Norm::post_ff2:
                return L.post_ff2;
            default:
                return nullptr;
        }
    }

    // Storage of each workspace buffer: bf16 where cuBLAS reads it, fp32 where kernels reduce.
    static bool is_bf16(Act a) { return a == Act::h || a == Act::expert_in || a == Act::attn; }
    size_t width(Act a) const {
        if (a == Act::router) return static_cast<size_t>(weights_->config.num_experts);
        if (a == Act::attn)
            return static_cast<size_t>(weights_->config.num_heads) *
                   static_cast<size_t>(max_head_dim(weights_->config));
        return static_cast<size_t>(H_);
    }
    DeviceBuffer& buffer(Act a) {
        switch (a) {
            case Act::x:
                return x_;
            case Act::h:
                return h_;
            case Act::attn:
                return o16_;
            case Act::o:
                return attn_;
            case Act::dense:
                return d_;
            case Act::moe:
                return m_;
            case Act::expert_in:
                return n2_;
            case Act::router:
                return rlog_;
            case Act::sc:
                return sc_;
        }
        return x_;
    }
    float* f32(Rows r) {
        return buffer(r.act).as<float>() + static_cast<size_t>(r.first) * width(r.act);
    }
    bf16_t* b16(Rows r) {
        return buffer(r.act).as<bf16_t>() + static_cast<size_t>(r.first) * width(r.act);
    }

    // Y[n x W.rows] (fp32) = X[n x W.cols] * W^T: cuBLAS for bf16 weights, the dequantising
    // GEMM (quantized_kernels.h) for packed ones.
    void project(const bf16_t* X, int n, const DeviceMatrix& W, float* Y, const char* what) {
        if (W.format == model::WeightFormat::FP8) return fp8_project(X, n, W, false, Y);
        if (W.format == model::WeightFormat::NVFP4 && fp4_tensor_cores_)
            return fp4_project(X, n, W, false, Y);
        if (W.packed()) {
            launch_packed_gemm(packed_kind(W), W.values, W.block_scales, W.row_scales, W.rows,
                               W.cols, X, n, Y, stream_);
            return;
        }
        check(matmul_nt(blas_, X, n, W.cols, W.bf16, W.rows, Y, CUDA_R_32F), what);
    }
    static PackedKind packed_kind(const DeviceMatrix& W) {
        return W.format == model::WeightFormat::NVFP4 ? PackedKind::Nvfp4 : PackedKind::Fp8;
    }

    // FP8-dynamic weights, as compressed-tensors defines them: the input rows quantised per
    // token to E4M3 (scale max|x| / 448), then sum(e4m3(x) * e4m3(w)) * x_scale * w_scale, on
    // the FP8 tensor cores (sm_89 and later) or the tiled kernel (sm_80, same arithmetic).
    // `experts`: W is the layer's stacked experts and X the gathered rows, each expert's rows
    // multiplied by its own matrix in one grouped launch; else W is one matrix for all n rows.
    void fp8_project(const bf16_t* X, int n, const DeviceMatrix& W, bool experts, float* Y) {
        uint8_t* xq = xq8_.as<uint8_t>();
        const size_t codes = static_cast<size_t>(n) * static_cast<size_t>(W.cols);
        float* xs = reinterpret_cast<float*>(xq + (codes + 15) / 16 * 16);
        launch_quantize_rows_e4m3(X, n, W.cols, xq, xs, stream_);
        if (!experts)
            return launch_fp8_dynamic_gemm(W.values, W.row_scales, W.rows, W.cols, xq, xs, n, Y,
                                           fp8_tensor_cores_, stream_);
        const int E = static_cast<int>(counts_host_.size());
        launch_fp8_dynamic_gemm_grouped(W.values, W.row_scales, W.rows / E, W.cols,
                                        offsets_.as<int32_t>(), counts_.as<int32_t>(), E,
                                        max_count_, xq, xs, Y, fp8_tensor_cores_, stream_);
    }

    // NVFP4 weights on sm_120's FP4 tensor cores: the input rows quantised per token to NVFP4
    // (E4M3 scale per 16 values under a per-token global scale; quantize_rows_nvfp4), then the
    // block-scaled FP4 mma. Elsewhere NVFP4 weights multiply bf16 inputs (launch_packed_gemm).
    // `experts` as fp8_project.
    void fp4_project(const bf16_t* X, int n, const DeviceMatrix& W, bool experts, float* Y) {
        const auto aligned = [](size_t b) { return (b + 15) / 16 * 16; };
        const size_t values = static_cast<size_t>(n) * static_cast<size_t>(W.cols);
        uint8_t* xq = xq4_.as<uint8_t>();
        uint8_t* xb = xq + aligned(values / 2);
        float* xg = reinterpret_cast<float*>(xb + aligned(values / 16));
        launch_quantize_rows_nvfp4(X, n, W.cols, xq, xb, xg, stream_);
        if (!experts)
            return launch_nvfp4_fp4_gemm(W.values, W.block_scales, W.row_scales, W.rows, W.cols,
                                         nullptr, nullptr, 1, n, xq, xb, xg, Y, stream_);
        const int E = static_cast<int>(counts_host_.size());
        launch_nvfp4_fp4_gemm(W.values, W.block_scales, W.row_scales, W.rows / E, W.cols,
                              offsets_.as<int32_t>(), counts_.as<int32_t>(), E, max_count_, xq, xb,
                              xg, Y, stream_);
    }

    // Packed experts (W stacked [E * out, in]): for every expert e with rows,
    // Y[off_e .. +count_e] (fp32) = X[off_e ..] * W_e^T, each W_e dequantised in the kernel; one
    // grouped launch for all experts (one per expert cost ~3 us of launch each, 128 experts x 2
    // GEMMs x 30 layers a pass).
    void packed_expert_gemm(const DeviceMatrix& W, int out, const bf16_t* X, int in, float* Y) {
        const int E = static_cast<int>(counts_host_.size());
        const int rows = offsets_host_.empty() ? 0
                                               : offsets_host_[static_cast<size_t>(E - 1)] +
                                                     counts_host_[static_cast<size_t>(E - 1)];
        if (W.format == model::WeightFormat::FP8) return fp8_project(X, rows, W, true, Y);
        if (W.format == model::WeightFormat::NVFP4 && fp4_tensor_cores_)
            return fp4_project(X, rows, W, true, Y);
        launch_packed_gemm_grouped(packed_kind(W), W.values, W.block_scales, W.row_scales, out, in,
                                   offsets_.as<int32_t>(), counts_.as<int32_t>(), E, max_count_, X,
                                   Y, stream_);
    }

    // For every expert e with rows: Y[off_e .. +count_e] = X[off_e ..] * W_e^T, where W_e is
    // [out x in] at W + e * w_stride; bf16 in and out, fp32 accumulation. One grouped cuBLAS
    // call where the library supports it, one GEMM per expert otherwise. `region` (0 or 1)
    // picks the device pointer arrays, so the two calls of a layer do not overwrite each other's;
    // the previous layer's calls are complete (experts() waited for the expert counts).
    Result<void> grouped_gemm(const bf16_t* W, size_t w_stride, const bf16_t* X, int in, bf16_t* Y,
                              int out, int region) {
        const int E = static_cast<int>(counts_host_.size());
        if (grouped_supported_) {
            std::vector<const void*> a, b;
            std::vector<void*> cptr;
            std::vector<int> m, nn, k, lda, ldb, ldc, size;
            std::vector<cublasOperation_t> ta, tb;
            std::vector<float> alpha, beta;
            for (int e = 0; e < E; ++e) {
                const int cnt = counts_host_[static_cast<size_t>(e)];
                if (cnt == 0) continue;
                const size_t off = static_cast<size_t>(offsets_host_[static_cast<size_t>(e)]);
                a.push_back(W + static_cast<size_t>(e) * w_stride);
                b.push_back(X + off * in);
                cptr.push_back(Y + off * out);
                ta.push_back(CUBLAS_OP_T);
                tb.push_back(CUBLAS_OP_N);
                m.push_back(out);
                nn.push_back(cnt);
                k.push_back(in);
                lda.push_back(in);
                ldb.push_back(in);
                ldc.push_back(out);
                size.push_back(1);
                alpha.push_back(1.0f);
                beta.push_back(0.0f);
            }
            const int groups = static_cast<int>(a.size());
            if (groups == 0) return {};
            // Device pointer arrays: [A | B | C], each `groups` long. (A pageable-memory copy:
            // the host vector may go once the call returns.)
            std::vector<const void*> all;
            all.insert(all.end(), a.begin(), a.end());
            all.insert(all.end(), b.begin(), b.end());
            all.insert(all.end(), cptr.begin(), cptr.end());
            auto** dptr = ptrs_.as<const void*>() + static_cast<size_t>(region) * 3 * E;
            DS_CUDA_TRY(cudaMemcpyAsync(dptr, all.data(), all.size() * sizeof(void*),
                                        cudaMemcpyHostToDevice, stream_));
            const cublasStatus_t st = cublasGemmGroupedBatchedEx(
                blas_, ta.data(), tb.data(), m.data(), nn.data(), k.data(), alpha.data(), dptr,
                CUDA_R_16BF, lda.data(), dptr + groups, CUDA_R_16BF, ldb.data(), beta.data(),
                ptrs_.as<void*>() + static_cast<size_t>(region) * 3 * E + 2 * groups, CUDA_R_16BF,
                ldc.data(), groups, size.data(), CUBLAS_COMPUTE_32F);
            if (st == CUBLAS_STATUS_SUCCESS) return {};
            if (st != CUBLAS_STATUS_NOT_SUPPORTED && st != CUBLAS_STATUS_INVALID_VALUE)
                return cublas_error(st, "cublasGemmGroupedBatchedEx");
            grouped_supported_ = false;  // fall back to one GEMM per expert from now on
        }
        for (int e = 0; e < E; ++e) {
            const int cnt = counts_host_[static_cast<size_t>(e)];
            if (cnt == 0) continue;
            const size_t off = static_cast<size_t>(offsets_host_[static_cast<size_t>(e)]);
            DS_CUBLAS_TRY(matmul_nt(blas_, X + off * in, cnt, in,
                                    W + static_cast<size_t>(e) * w_stride, out, Y + off * out,
                                    CUDA_R_16BF));
        }
        return {};
    }

    std::shared_ptr<const model::ModelWeights> weights_;
    DeviceWeights dw_;
    std::string name_;
    cudaStream_t stream_ = nullptr;
    cublasHandle_t blas_ = nullptr;
    int T_ = 0, H_ = 0, V_ = 0;
    float eps_ = 1e-6f;
    bool grouped_supported_ = true;
    bool packed_experts_ = false;
    Result<void> pending_;
    std::vector<int32_t> counts_host_, offsets_host_;
    DeviceBuffer ids_, x_, h_, qkv_, q_, kc_, vc_, scores_, probs_, o_, o16_, attn_, gu_, act_, d_;
    DeviceBuffer rlog_, ridx_, rw_, n2_, counts_, cursor_, slot_of_, row_token_, xe_, gue_, acte_;
    DeviceBuffer ye_, m_, sc_, logits_, sprobs_, rhid_, rh16_, rsmall_, ptrs_, qe_;
    DeviceBuffer xq8_;      // FP8-dynamic weights' per-token E4M3 inputs and their scales
    DeviceBuffer xq4_;      // NVFP4 weights' per-token NVFP4 inputs (FP4 tensor cores only)
    DeviceBuffer offsets_;  // each expert's first gathered row (device copy of offsets_host_)
    int max_count_ = 0;     // the most rows any expert has in this layer
    bool fp8_weights_ = false, fp8_tensor_cores_ = false, fp4_tensor_cores_ = false;
};

}  // namespace

Result<std::unique_ptr<CudaOps>> open_cuda_ops(std::shared_ptr<const model::ModelWeights> weights,
                                               bool synthetic, uint64_t seed, int pass_tokens,
                                               bool nvfp4_fp4_inputs) {
    auto ops = std::make_unique<CudaOpsImpl>();
    DS_TRY(ops->init(std::move(weights), pass_tokens));
    DS_TRY(ops->load(synthetic, seed, nvfp4_fp4_inputs));
    DS_TRY(ops->allocate_workspace());
    return std::unique_ptr<CudaOps>(std::move(ops));
}

}  // namespace engine::cuda
