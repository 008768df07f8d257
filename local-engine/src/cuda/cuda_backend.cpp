// The CUDA backend's passes: embedding, the 30 layers (attention with cuBLAS score/value
// products around our masked softmax, dense MLP, router and grouped expert GEMMs), and the
// readouts. See cuda_backend.h for the contract and compute_backend.h for the numerics.

#include "cuda/cuda_backend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/device_weights.h"
#include "cuda/kernels.h"
#include "model/safetensors.h"

namespace engine::cuda {
namespace {

constexpr uint64_t kScoreElements = uint64_t{32} << 20;  // attention scores per chunk (fp32)
constexpr int kReadoutRows = 64;                         // vocab-wide rows per readout chunk
constexpr uint64_t kReserveBytes = uint64_t{768} << 20;  // context, cuBLAS workspace, slack

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
cublasStatus_t linear(cublasHandle_t h, const bf16_t* X, int n, int in, const bf16_t* W, int out,
                      void* Y, cudaDataType_t ytype, float alpha = 1.0f) {
    return gemm_nt(h, n, out, in, X, in, 0, W, in, 0, Y, ytype, out, 0, 1, alpha);
}

// ---- cache and decoded canvas ----

class CudaKvCache final : public backend::KvCache {
  public:
    int length() const override { return length_; }
    int capacity = 0;
    int length_ = 0;
    DeviceBuffer storage;
    std::vector<bf16_t*> k, v;  // per layer [kv_heads][capacity][head_dim]
};

class CudaDecodedCanvas final : public backend::DecodedCanvas {
  public:
    int rows() const override { return rows_; }
    int width() const override { return width_; }
    int rows_ = 0, width_ = 0;
    DeviceBuffer hidden;  // [rows * width, hidden] fp32, final layer output before the final norm
};

// ---- the backend ----

class CudaBackendImpl final : public CudaBackend {
  public:
    ~CudaBackendImpl() override {
        if (blas_) cublasDestroy(blas_);
        if (stream_) cudaStreamDestroy(stream_);
    }

    Result<void> init(int pass_tokens) {
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
        cap_ = static_cast<float>(c.final_logit_softcapping);
        // The reference multiplies by sqrt(hidden) rounded to the weight dtype (bf16); so do we,
        // for the token embeddings and for the self-conditioning soft embedding alike.
        embed_scale_ = model::bf16_to_float(
            model::float_to_bf16(std::sqrt(static_cast<float>(c.hidden_size))));
        return {};
    }

    // Checks the plan against free memory, then allocates every per-pass buffer.
    Result<void> allocate_activations() {
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
            {&sgu_, R * 2 * I * 4, "self-conditioning gate/up"},
            {&sact_, R * I * 2, "self-conditioning activations"},
            {&rsmall_, R * 4 * 4 + 4096 * 4 * 4, "readout results"},
            {&ptrs_, E * 3 * sizeof(void*) * 2, "expert GEMM pointers"},
        };
        for (const Item& it : items) DS_TRY(it.buf->allocate(it.bytes, it.what));
        return {};
    }

    std::string device_name() const override { return name_; }
    const model::ModelWeights& weights() const override { return *weights_; }
    uint64_t weight_bytes() const override { return dw_.matrix_bytes; }
    Result<void> synchronize() override {
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        return {};
    }

    Result<std::unique_ptr<backend::KvCache>> create_cache(int capacity) override {
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
        cache->capacity = capacity;
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
        return std::unique_ptr<backend::KvCache>(std::move(cache));
    }

    Result<void> encode(backend::KvCache& cache, std::span<const TokenId> ids,
                        const CancelToken& cancel) override {
        auto& kv = static_cast<CudaKvCache&>(cache);
        DS_TRY(check_ids(ids, "encode"));
        if (kv.length_ + static_cast<int>(ids.size()) > kv.capacity)
            return bad_input("encode: " + std::to_string(kv.length_ + ids.size()) +
                             " tokens exceed the KV cache capacity of " +
                             std::to_string(kv.capacity));
        for (size_t done = 0; done < ids.size(); done += static_cast<size_t>(T_)) {
            const size_t n = std::min(ids.size() - done, static_cast<size_t>(T_));
            DS_TRY(run_pass(kv, ids.subspan(done, n), 0, 0, {}, nullptr, nullptr, cancel));
        }
        return {};
    }

    Result<std::unique_ptr<backend::DecodedCanvas>> decode(const backend::KvCache& cache,
                                                           const backend::DecodeBatch& batch,
                                                           const CancelToken& cancel) override {
        // A decode never writes the cache; run_pass only writes it for prompt rows.
        auto& kv = const_cast<CudaKvCache&>(static_cast<const CudaKvCache&>(cache));
        return decode_rows(kv, {}, batch, cancel);
    }

    Result<std::unique_ptr<backend::DecodedCanvas>> encode_and_decode(
        backend::KvCache& cache, std::span<const TokenId> prompt_ids,
        const backend::DecodeBatch& batch, const CancelToken& cancel) override {
        auto& kv = static_cast<CudaKvCache&>(cache);
        DS_TRY(check_ids(prompt_ids, "encode"));
        if (kv.length_ + static_cast<int>(prompt_ids.size()) > kv.capacity)
            return bad_input("encode: " + std::to_string(kv.length_ + prompt_ids.size()) +
                             " tokens exceed the KV cache capacity of " +
                             std::to_string(kv.capacity));
        const size_t canvas_tokens = static_cast<size_t>(batch.rows) * batch.width;
        if (prompt_ids.size() + canvas_tokens > static_cast<size_t>(T_)) {
            DS_TRY(encode(cache, prompt_ids, cancel));
            return decode_rows(kv, {}, batch, cancel);
        }
        return decode_rows(kv, prompt_ids, batch, cancel);
    }

    Result<void> logits(const backend::DecodedCanvas& canvas, std::vector<float>& out) override {
        const auto& dc = static_cast<const CudaDecodedCanvas&>(canvas);
        const size_t positions = static_cast<size_t>(dc.rows_) * dc.width_;
        out.resize(positions * static_cast<size_t>(V_));
        for (size_t done = 0; done < positions; done += kReadoutRows) {
            const int n = static_cast<int>(std::min<size_t>(kReadoutRows, positions - done));
            rmsnorm_rows(dc.hidden.as<float>() + done * H_, nullptr, n, H_, dw_.final_norm, nullptr,
                         1.0f, eps_, rh16_.as<bf16_t>(), nullptr, stream_);
            DS_CUBLAS_TRY(linear(blas_, rh16_.as<bf16_t>(), n, H_, dw_.lm_head, V_, logits_.get(),
                                 CUDA_R_32F));
            softcap_inplace(logits_.as<float>(), static_cast<size_t>(n) * V_, cap_, stream_);
            DS_CUDA_TRY(cudaMemcpyAsync(out.data() + done * V_, logits_.get(),
                                        static_cast<size_t>(n) * V_ * sizeof(float),
                                        cudaMemcpyDeviceToHost, stream_));
            DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        }
        return {};
    }

    Result<std::vector<backend::PositionReadout>> read_positions(
        const backend::DecodedCanvas& canvas,
        std::span<const backend::PositionQuery> queries) override {
        const auto& dc = static_cast<const CudaDecodedCanvas&>(canvas);
        std::vector<backend::PositionReadout> result(queries.size());
        for (size_t i = 0; i < queries.size(); ++i) {
            const auto& q = queries[i];
            if (q.row < 0 || q.row >= dc.rows_ || q.pos < 0 || q.pos >= dc.width_)
                return bad_input("read_positions: query " + std::to_string(i) + " (row " +
                                 std::to_string(q.row) + ", pos " + std::to_string(q.pos) +
                                 ") is outside the decoded canvas");
            for (TokenId id : q.ids)
                if (id < 0 || id >= V_)
                    return bad_input("read_positions: token id " + std::to_string(id) +
                                     " is outside the vocabulary [0, " + std::to_string(V_) + ")");
        }
        for (size_t done = 0; done < queries.size(); done += kReadoutRows) {
            const int n = static_cast<int>(std::min<size_t>(kReadoutRows, queries.size() - done));
            std::vector<int32_t> rows(static_cast<size_t>(n)), qrow, qid;
            for (int i = 0; i < n; ++i) {
                const auto& q = queries[done + static_cast<size_t>(i)];
                rows[static_cast<size_t>(i)] = q.row * dc.width_ + q.pos;
                for (TokenId id : q.ids) {
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
            gather_rows_f32(dc.hidden.as<float>(), d_rows, n, H_, rhid_.as<float>(), stream_);
            rmsnorm_rows(rhid_.as<float>(), nullptr, n, H_, dw_.final_norm, nullptr, 1.0f, eps_,
                         rh16_.as<bf16_t>(), nullptr, stream_);
            DS_CUBLAS_TRY(linear(blas_, rh16_.as<bf16_t>(), n, H_, dw_.lm_head, V_, logits_.get(),
                                 CUDA_R_32F));
            softcap_reduce(logits_.as<float>(), n, V_, cap_, lse, amax, mval, stream_);
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
        return result;
    }

    Result<void> read_cache(const backend::KvCache& cache, int layer, std::vector<float>& k,
                            std::vector<float>& v) override {
        const auto& kv = static_cast<const CudaKvCache&>(cache);
        const model::ModelConfig& c = weights_->config;
        if (layer < 0 || layer >= c.num_layers)
            return bad_input("read_cache: layer " + std::to_string(layer) + " is outside [0, " +
                             std::to_string(c.num_layers) + ")");
        const size_t heads = static_cast<size_t>(c.layer_kv_heads(layer));
        const size_t D = static_cast<size_t>(c.layer_head_dim(layer));
        const size_t cap = static_cast<size_t>(kv.capacity), len = static_cast<size_t>(kv.length_);
        std::vector<uint16_t> hk(heads * cap * D), hv(heads * cap * D);
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

    std::shared_ptr<const model::ModelWeights> weights_;
    DeviceWeights dw_;

  private:
    Result<void> check_ids(std::span<const TokenId> ids, const char* what) const {
        for (size_t i = 0; i < ids.size(); ++i)
            if (ids[i] < 0 || ids[i] >= V_)
                return bad_input(std::string(what) + ": token " + std::to_string(i) + " has id " +
                                 std::to_string(ids[i]) + ", outside the vocabulary [0, " +
                                 std::to_string(V_) + ")");
        return {};
    }

    // Decoder rows in passes of at most T_ tokens; the first pass also carries `prompt_ids`.
    Result<std::unique_ptr<backend::DecodedCanvas>> decode_rows(CudaKvCache& kv,
                                                                std::span<const TokenId> prompt_ids,
                                                                const backend::DecodeBatch& batch,
                                                                const CancelToken& cancel) {
        if (batch.rows <= 0 || batch.width <= 0)
            return bad_input("decode: rows and width must be positive");
        if (batch.ids.size() != static_cast<size_t>(batch.rows) * batch.width)
            return bad_input("decode: " + std::to_string(batch.ids.size()) + " ids given for " +
                             std::to_string(batch.rows) + " rows of width " +
                             std::to_string(batch.width));
        if (batch.width > T_)
            return bad_input("decode: canvas width " + std::to_string(batch.width) +
                             " exceeds the CUDA backend's pass size of " + std::to_string(T_));
        DS_TRY(check_ids(batch.ids, "decode"));
        auto out = std::make_unique<CudaDecodedCanvas>();
        out->rows_ = batch.rows;
        out->width_ = batch.width;
        DS_TRY(out->hidden.allocate(
            static_cast<size_t>(batch.rows) * batch.width * H_ * sizeof(float), "decoded canvas"));
        int rows_per_pass = (T_ - static_cast<int>(prompt_ids.size())) / batch.width;
        bool first = true;
        for (int r0 = 0; r0 < batch.rows;) {
            if (!first) rows_per_pass = T_ / batch.width;
            const int rows = std::min(rows_per_pass, batch.rows - r0);
            const size_t tok0 = static_cast<size_t>(r0) * batch.width;
            const size_t ntok = static_cast<size_t>(rows) * batch.width;
            const float* sc = batch.self_conditioning_logits
                                  ? batch.self_conditioning_logits + tok0 * V_
                                  : nullptr;
            DS_TRY(run_pass(kv, first ? prompt_ids : std::span<const TokenId>{}, rows, batch.width,
                            batch.ids.subspan(tok0, ntok), sc, out->hidden.as<float>() + tok0 * H_,
                            cancel));
            first = false;
            r0 += rows;
        }
        return std::unique_ptr<backend::DecodedCanvas>(std::move(out));
    }

    // sc_[t] for the `n` canvas tokens of a pass, from host logits (after temperature).
    Result<void> self_conditioning(const float* host_logits, int n) {
        const model::ModelConfig& c = weights_->config;
        const int I = c.intermediate_size;
        for (int done = 0; done < n; done += kReadoutRows) {
            const int cnt = std::min(kReadoutRows, n - done);
            DS_CUDA_TRY(cudaMemcpyAsync(logits_.get(), host_logits + static_cast<size_t>(done) * V_,
                                        static_cast<size_t>(cnt) * V_ * sizeof(float),
                                        cudaMemcpyHostToDevice, stream_));
            softmax_rows_bf16(logits_.as<float>(), cnt, V_, sprobs_.as<bf16_t>(), stream_);
            // soft = probs @ E * scale: [cnt x V] * [V x H].
            DS_CUBLAS_TRY(gemm_nn(blas_, cnt, H_, V_, sprobs_.get(), V_, 0, dw_.embed, H_, 0,
                                  rhid_.get(), CUDA_R_32F, H_, 0, 1, embed_scale_));
            rmsnorm_rows(rhid_.as<float>(), nullptr, cnt, H_, dw_.sc_pre_norm, nullptr, 1.0f, eps_,
                         rh16_.as<bf16_t>(), nullptr, stream_);
            DS_CUBLAS_TRY(linear(blas_, rh16_.as<bf16_t>(), cnt, H_, dw_.sc_gate_up, 2 * I,
                                 sgu_.get(), CUDA_R_32F));
            gelu_gate_f32(sgu_.as<float>(), cnt, I, sact_.as<bf16_t>(), stream_);
            DS_CUBLAS_TRY(linear(blas_, sact_.as<bf16_t>(), cnt, I, dw_.sc_down, H_,
                                 sc_.as<float>() + static_cast<size_t>(done) * H_, CUDA_R_32F));
            // The staging logits buffer is reused by the next chunk.
            DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        }
        return {};
    }

    // One pass: `prompt` rows (causal, appended to the cache) and `rows` canvas rows of `width`
    // (bidirectional over the cache after the prompt rows) through every layer.
    Result<void> run_pass(CudaKvCache& kv, std::span<const TokenId> prompt, int rows, int width,
                          std::span<const TokenId> canvas, const float* sc_logits,
                          float* canvas_out, const CancelToken& cancel) {
        const model::ModelConfig& c = weights_->config;
        const int n = static_cast<int>(prompt.size());
        const int nc = rows * width;
        const int N = n + nc;
        if (N == 0) return {};
        const int P0 = kv.length_;  // first position of the prompt rows
        const int Lp = P0 + n;      // cache length seen by the canvas rows
        const int NH = c.num_heads;
        const int window = c.sliding_window;

        std::vector<int32_t> ids(static_cast<size_t>(N));
        std::copy(prompt.begin(), prompt.end(), ids.begin());
        std::copy(canvas.begin(), canvas.end(), ids.begin() + n);
        DS_CUDA_TRY(cudaMemcpyAsync(ids_.get(), ids.data(), ids.size() * 4, cudaMemcpyHostToDevice,
                                    stream_));
        float* x = x_.as<float>();
        embed_rows(ids_.as<int32_t>(), N, dw_.embed, V_, H_, embed_scale_, x, stream_);
        if (nc > 0) {
            if (sc_logits) DS_TRY(self_conditioning(sc_logits, nc));
            float* xc = x + static_cast<size_t>(n) * H_;
            // Decoder input: rmsnorm_noweight(embed * scale + sc), in place.
            rmsnorm_rows(xc, sc_logits ? sc_.as<float>() : nullptr, nc, H_, nullptr, nullptr, 1.0f,
                         eps_, nullptr, xc, stream_);
        }

        const int I = c.intermediate_size, E = c.num_experts, K = c.top_k_experts;
        for (int l = 0; l < c.num_layers; ++l) {
            if (cancel.cancelled()) return engine::cancelled();
            const DeviceLayer& L = dw_.layers[static_cast<size_t>(l)];
            const int D = L.head_dim, KVH = L.kv_heads, G = NH / KVH;
            const int win = L.full ? 0 : window;

            // Attention block.
            rmsnorm_rows(x, nullptr, N, H_, L.input_norm, nullptr, 1.0f, eps_, h_.as<bf16_t>(),
                         nullptr, stream_);
            DS_CUBLAS_TRY(
                linear(blas_, h_.as<bf16_t>(), N, H_, L.qkv, L.qkv_rows, qkv_.get(), CUDA_R_32F));
            QkvPostParams qp;
            qp.qkv = qkv_.as<float>();
            qp.n = N;
            qp.ld = L.qkv_rows;
            qp.heads = NH;
            qp.kv_heads = KVH;
            qp.head_dim = D;
            qp.has_v = L.has_v;
            qp.q_norm = L.q_norm;
            qp.k_norm = L.k_norm;
            qp.inv_freq = L.inv_freq;
            qp.eps = eps_;
            qp.q_out = q_.as<bf16_t>();
            qp.q_stride = T_;
            qp.prompt_rows = n;
            qp.cache_pos = P0;
            qp.cache_stride = kv.capacity;
            qp.k_cache = kv.k[static_cast<size_t>(l)];
            qp.v_cache = kv.v[static_cast<size_t>(l)];
            qp.canvas_pos = Lp;
            qp.width = width > 0 ? width : 1;
            qp.canvas_stride = T_;
            qp.k_canvas = kc_.as<bf16_t>();
            qp.v_canvas = vc_.as<bf16_t>();
            qkv_post(qp, stream_);

            const bf16_t* Q = q_.as<bf16_t>();
            const bf16_t* Kc = kv.k[static_cast<size_t>(l)];
            const bf16_t* Vc = kv.v[static_cast<size_t>(l)];
            const long long qhs = static_cast<long long>(T_) * D;           // query head stride
            const long long chs = static_cast<long long>(kv.capacity) * D;  // cache head stride
            const int ldo = NH * D;
            float* O = o_.as<float>();
            float* S = scores_.as<float>();
            bf16_t* Pr = probs_.as<bf16_t>();

            // Encoder rows: causal over the cache, in query chunks that fit the score buffer.
            for (int c0 = 0; c0 < n;) {
                int M = static_cast<int>(
                    std::min<uint64_t>(static_cast<uint64_t>(n - c0),
                                       kScoreElements / (static_cast<uint64_t>(NH) * (Lp))));
                M = std::max(M, 1);
                const int Lk = P0 + c0 + M;
                for (int j = 0; j < KVH; ++j) {
                    DS_CUBLAS_TRY(gemm_nt(blas_, M, Lk, D, Q + (j * G * qhs + c0 * D), D, qhs,
                                          Kc + j * chs, D, 0,
                                          S + static_cast<size_t>(j) * G * M * Lk, CUDA_R_32F, Lk,
                                          static_cast<long long>(M) * Lk, G));
                }
                masked_softmax(S, Pr, NH, M, Lk, true, P0 + c0, 0, win, stream_);
                for (int j = 0; j < KVH; ++j) {
                    DS_CUBLAS_TRY(gemm_nn(blas_, M, D, Lk, Pr + static_cast<size_t>(j) * G * M * Lk,
                                          Lk, static_cast<long long>(M) * Lk, Vc + j * chs, D, 0,
                                          O + static_cast<size_t>(c0) * ldo + j * G * D, CUDA_R_32F,
                                          ldo, D, G));
                }
                c0 += M;
            }

            // Decoder rows: [cache | own canvas], in row chunks that fit the score buffer.
            const int cols = Lp + width;
            for (int r0 = 0; r0 < rows;) {
                int rc = static_cast<int>(std::min<uint64_t>(
                    static_cast<uint64_t>(rows - r0),
                    kScoreElements / (static_cast<uint64_t>(NH) * width * cols)));
                rc = std::max(rc, 1);
                const int Mc = rc * width;
                const long long chunk_stride = static_cast<long long>(Mc) * cols;
                const size_t t0 = static_cast<size_t>(n) + static_cast<size_t>(r0) * width;
                if (Lp > 0) {
                    for (int j = 0; j < KVH; ++j)
                        DS_CUBLAS_TRY(gemm_nt(blas_, Mc, Lp, D, Q + (j * G * qhs + t0 * D), D, qhs,
                                              Kc + j * chs, D, 0, S + j * G * chunk_stride,
                                              CUDA_R_32F, cols, chunk_stride, G));
                }
                for (int hq = 0; hq < NH; ++hq) {
                    const int j = hq / G;
                    DS_CUBLAS_TRY(gemm_nt(
                        blas_, width, width, D, Q + (hq * qhs + t0 * D), D,
                        static_cast<long long>(width) * D,
                        kc_.as<bf16_t>() +
                            (static_cast<size_t>(j) * T_ + static_cast<size_t>(r0) * width) * D,
                        D, static_cast<long long>(width) * D, S + hq * chunk_stride + Lp,
                        CUDA_R_32F, cols, static_cast<long long>(width) * cols, rc));
                }
                masked_softmax(S, Pr, NH, Mc, cols, false, 0, Lp, win, stream_);
                if (Lp > 0) {
                    for (int j = 0; j < KVH; ++j)
                        DS_CUBLAS_TRY(gemm_nn(blas_, Mc, D, Lp, Pr + j * G * chunk_stride, cols,
                                              chunk_stride, Vc + j * chs, D, 0,
                                              O + t0 * ldo + j * G * D, CUDA_R_32F, ldo, D, G));
                }
                for (int hq = 0; hq < NH; ++hq) {
                    const int j = hq / G;
                    DS_CUBLAS_TRY(gemm_nn(
                        blas_, width, D, width, Pr + hq * chunk_stride + Lp, cols,
                        static_cast<long long>(width) * cols,
                        vc_.as<bf16_t>() +
                            (static_cast<size_t>(j) * T_ + static_cast<size_t>(r0) * width) * D,
                        D, static_cast<long long>(width) * D, O + t0 * ldo + hq * D, CUDA_R_32F,
                        ldo, static_cast<long long>(width) * ldo, rc, 1.0f, Lp > 0 ? 1.0f : 0.0f));
                }
                r0 += rc;
            }

            f32_to_bf16(O, o16_.as<bf16_t>(), static_cast<size_t>(N) * ldo, stream_);
            DS_CUBLAS_TRY(
                linear(blas_, o16_.as<bf16_t>(), N, ldo, L.o, H_, attn_.get(), CUDA_R_32F));
            residual_add_norm(x, attn_.as<float>(), N, H_, L.post_attn_norm, eps_, stream_);

            // Dense MLP branch.
            rmsnorm_rows(x, nullptr, N, H_, L.pre_ff, nullptr, 1.0f, eps_, h_.as<bf16_t>(), nullptr,
                         stream_);
            DS_CUBLAS_TRY(
                linear(blas_, h_.as<bf16_t>(), N, H_, L.mlp_gate_up, 2 * I, gu_.get(), CUDA_R_32F));
            gelu_gate_f32(gu_.as<float>(), N, I, act_.as<bf16_t>(), stream_);
            DS_CUBLAS_TRY(
                linear(blas_, act_.as<bf16_t>(), N, I, L.mlp_down, H_, d_.get(), CUDA_R_32F));

            // Router (reads the un-normed residual) and experts.
            rmsnorm_rows(x, nullptr, N, H_, nullptr, L.router_scale,
                         1.0f / std::sqrt(static_cast<float>(H_)), eps_, h_.as<bf16_t>(), nullptr,
                         stream_);
            DS_CUBLAS_TRY(
                linear(blas_, h_.as<bf16_t>(), N, H_, L.router, E, rlog_.get(), CUDA_R_32F));
            router_topk(rlog_.as<float>(), N, E, K, L.per_expert_scale, ridx_.as<int32_t>(),
                        rw_.as<float>(), stream_);
            rmsnorm_rows(x, nullptr, N, H_, L.pre_ff2, nullptr, 1.0f, eps_, n2_.as<bf16_t>(),
                         nullptr, stream_);
            DS_TRY(experts(L, N));

            ffn_combine(x, d_.as<float>(), m_.as<float>(), N, H_, L.post_ff1, L.post_ff2, L.post_ff,
                        eps_, n, L.encoder_scalar, L.decoder_scalar, stream_);
            DS_CUDA_TRY(cudaGetLastError());
        }
        if (nc > 0)
            DS_CUDA_TRY(cudaMemcpyAsync(canvas_out, x + static_cast<size_t>(n) * H_,
                                        static_cast<size_t>(nc) * H_ * sizeof(float),
                                        cudaMemcpyDeviceToDevice, stream_));
        DS_CUDA_TRY(cudaStreamSynchronize(stream_));
        kv.length_ += n;
        return {};
    }

    // MoE block for N tokens: n2_ (inputs), ridx_/rw_ (choices) -> m_.
    Result<void> experts(const DeviceLayer& L, int N) {
        const model::ModelConfig& c = weights_->config;
        const int E = c.num_experts, K = c.top_k_experts, MI = c.moe_intermediate_size;
        const int A = N * K;
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
        moe_assign(ridx_.as<int32_t>(), A, K, cursor_.as<int32_t>(), slot_of_.as<int32_t>(),
                   row_token_.as<int32_t>(), stream_);
        gather_rows_bf16(n2_.as<bf16_t>(), row_token_.as<int32_t>(), A, H_, xe_.as<bf16_t>(),
                         stream_);

        const size_t gu_rows = static_cast<size_t>(2) * MI;
        DS_TRY(grouped_gemm(L.experts_gate_up, gu_rows * H_, xe_.as<bf16_t>(), H_,
                            gue_.as<bf16_t>(), static_cast<int>(gu_rows), 0));
        gelu_gate_bf16(gue_.as<bf16_t>(), A, MI, acte_.as<bf16_t>(), stream_);
        DS_TRY(grouped_gemm(L.experts_down, static_cast<size_t>(H_) * MI, acte_.as<bf16_t>(), MI,
                            ye_.as<bf16_t>(), H_, 1));
        moe_combine(ye_.as<bf16_t>(), slot_of_.as<int32_t>(), rw_.as<float>(), N, K, H_,
                    m_.as<float>(), stream_);
        return {};
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
            DS_CUBLAS_TRY(linear(blas_, X + off * in, cnt, in,
                                 W + static_cast<size_t>(e) * w_stride, out, Y + off * out,
                                 CUDA_R_16BF));
        }
        return {};
    }

    std::string name_;
    cudaStream_t stream_ = nullptr;
    cublasHandle_t blas_ = nullptr;
    int T_ = 0, H_ = 0, V_ = 0;
    float eps_ = 1e-6f, cap_ = 30.0f, embed_scale_ = 1.0f;
    bool grouped_supported_ = true;
    std::vector<int32_t> counts_host_, offsets_host_;
    DeviceBuffer ids_, x_, h_, qkv_, q_, kc_, vc_, scores_, probs_, o_, o16_, attn_, gu_, act_, d_;
    DeviceBuffer rlog_, ridx_, rw_, n2_, counts_, cursor_, slot_of_, row_token_, xe_, gue_, acte_;
    DeviceBuffer ye_, m_, sc_, logits_, sprobs_, rhid_, rh16_, sgu_, sact_, rsmall_, ptrs_;
};

Result<void> check_plan(const model::ModelConfig& c) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return engine_error("CUDA backend: no CUDA device is available");
    // Weights, one pass's activations and a KV cache for one full pass of prompt tokens (longer
    // prompts are checked again when their cache is created).
    const MemoryPlan plan = plan_memory(c, kDefaultPassTokens, kDefaultPassTokens);
    size_t free_b = 0, total_b = 0;
    DS_CUDA_TRY(cudaSetDevice(0));
    DS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    if (plan.total() > free_b)
        return engine_error("CUDA backend: model needs " + format_gib(plan.total()) + " (weights " +
                            format_gib(plan.weights) + ", activations " +
                            format_gib(plan.activations) + ", KV cache of " +
                            std::to_string(plan.cache_tokens) + " tokens " +
                            format_gib(plan.kv_cache) + "), device has " + format_gib(free_b) +
                            " free; use --device cpu");
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
    p.weights = device_weight_bytes(c, !c.tie_word_embeddings);
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
    a += T * 4 + T * H * 4 * 6 + T * H * 2 * 2;              // ids, fp32 rows, bf16 rows
    a += T * static_cast<uint64_t>(max_qkv_rows(c)) * 4;     // qkv
    a += NH * T * D * 2 + 2 * KV * T * D * 2;                // Q, canvas K/V
    a += kScoreElements * 6;                                 // scores + probabilities
    a += T * NH * D * 6;                                     // attention outputs
    a += T * 2 * I * 4 + T * I * 2;                          // dense MLP
    a += T * E * 4 + T * K * 16;                             // router, dispatch
    a += T * K * (H * 4 + 3 * MI * 2);                       // expert rows
    a += R * V * 6 + R * H * 6 + R * 2 * I * 4 + R * I * 2;  // readout, self-conditioning
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

Result<std::unique_ptr<CudaBackend>> open_cuda_backend(
    std::shared_ptr<const model::ModelWeights> weights) {
    if (!weights) return engine_error("CUDA backend: no weights given");
    DS_TRY(check_plan(weights->config));
    auto b = std::make_unique<CudaBackendImpl>();
    b->weights_ = std::move(weights);
    DS_TRY(b->init(kDefaultPassTokens));
    DS_TRY(upload_weights(*b->weights_, nullptr, b->dw_));
    DS_TRY(b->allocate_activations());
    return std::unique_ptr<CudaBackend>(std::move(b));
}

Result<std::unique_ptr<CudaBackend>> open_synthetic_cuda_backend(const model::ModelConfig& config,
                                                                 uint64_t seed) {
    DS_TRY(check_plan(config));
    auto mw = std::make_shared<model::ModelWeights>();
    mw->config = config;
    auto b = std::make_unique<CudaBackendImpl>();
    b->weights_ = mw;
    DS_TRY(b->init(kDefaultPassTokens));
    DS_TRY(synthesize_weights(config, seed, nullptr, b->dw_));
    DS_TRY(b->allocate_activations());
    return std::unique_ptr<CudaBackend>(std::move(b));
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
    std::shared_ptr<const model::ModelWeights> weights) {
    auto b = cuda::open_cuda_backend(std::move(weights));
    if (!b) return b.error();
    return std::unique_ptr<ComputeBackend>(std::move(b.value()));
}

}  // namespace backend
}  // namespace engine
