// The CPU backend: fp32 compute over fp32 weights (read in place from the mapping when the file
// is F32; BF16/F16 files are converted once at open). Matrix products are OpenBLAS sgemm calls,
// each single-threaded (OpenBLAS is set to one thread) and spread over our own pool, so the two
// thread systems never compete.

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>

#include "backend/compute_backend.h"
#include "cpu/kernels.h"
#include "util/thread_pool.h"

namespace engine::backend {
namespace {

using model::DType;
using model::ModelConfig;
using model::ModelWeights;
using model::TensorView;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

struct CpuLayer {
    bool full = false;
    int hd = 0, kv = 0;
    const float *in_ln, *post_attn_ln, *pre_ff_ln, *post_ff_ln, *pre_ff_ln2, *post_ff_ln1,
        *post_ff_ln2;
    const float *wq, *wk, *wv, *wo, *q_norm, *k_norm;  // wv null on K=V layers
    const float *gate, *up, *down;
    const float *router, *router_scale, *per_expert_scale;
    const float *gate_up, *edown;
    float enc_scalar = 1, dec_scalar = 1;
    std::vector<float> inv_freq;  // hd/2
};

class CpuKvCache : public KvCache {
  public:
    CpuKvCache(const ModelConfig& c, int capacity) : capacity_(capacity) {
        k_.resize(static_cast<size_t>(c.num_layers));
        v_.resize(static_cast<size_t>(c.num_layers));
        for (int l = 0; l < c.num_layers; ++l) {
            const size_t n =
                static_cast<size_t>(capacity) * c.layer_kv_heads(l) * c.layer_head_dim(l);
            k_[l].assign(n, 0.0f);
            v_[l].assign(n, 0.0f);
        }
    }
    int length() const override { return length_; }
    int capacity_ = 0;
    int length_ = 0;
    bool broken_ = false;                    // a cancelled encode leaves a partial cache
    std::vector<std::vector<float>> k_, v_;  // per layer [capacity][kv][hd]
};

class CpuDecoded : public DecodedCanvas {
  public:
    int rows() const override { return rows_; }
    int width() const override { return width_; }
    int rows_ = 0, width_ = 0;
    std::vector<float> hidden;  // [rows*width][H], before the final norm
};

// y[n, out] = x[n, in] @ w[out, in]^T, spread over the pool (rows when there are many, else
// output columns).
void linear(util::ThreadPool& pool, const float* x, int64_t n, int64_t in, const float* w,
            int64_t out, float* y) {
    if (n <= 0 || out <= 0) return;
    const int64_t threads = pool.size();
    if (n >= 16 * threads) {
        pool.parallel_chunks(n, [&](int64_t b, int64_t e) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(e - b),
                        static_cast<int>(out), static_cast<int>(in), 1.0f, x + b * in,
                        static_cast<int>(in), w, static_cast<int>(in), 0.0f, y + b * out,
                        static_cast<int>(out));
        });
    } else {
        pool.parallel_chunks(
            out,
            [&](int64_t b, int64_t e) {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(n),
                            static_cast<int>(e - b), static_cast<int>(in), 1.0f, x,
                            static_cast<int>(in), w + b * in, static_cast<int>(in), 0.0f, y + b,
                            static_cast<int>(out));
            },
            64);
    }
}

class CpuBackend : public ComputeBackend {
  public:
    CpuBackend(std::shared_ptr<const ModelWeights> weights, int threads)
        : w_(std::move(weights)), pool_(threads) {
        openblas_set_num_threads(1);
        const ModelConfig& c = w_->config;
        embed_ = f32(w_->embed_tokens);
        head_ = w_->lm_head.data == w_->embed_tokens.data ? embed_ : f32(w_->lm_head);
        final_norm_ = f32(w_->final_norm);
        sc_pre_ = f32(w_->self_conditioning.pre_norm);
        sc_gate_ = f32(w_->self_conditioning.gate_proj);
        sc_up_ = f32(w_->self_conditioning.up_proj);
        sc_down_ = f32(w_->self_conditioning.down_proj);
        // The reference multiplies by sqrt(hidden) cast to the weight dtype (53.0 for 2816 in
        // bf16). We round the factor the same way; the product itself stays fp32 here (the
        // reference rounds it to bf16 too when the weights are bf16).
        const float scale = static_cast<float>(std::sqrt(static_cast<double>(c.hidden_size)));
        embed_scale_ = w_->embed_tokens.dtype == DType::BF16
                           ? model::bf16_to_float(model::float_to_bf16(scale))
                           : scale;
        round_probs_bf16_ = w_->embed_tokens.dtype == DType::BF16;
    }

    // Converts every layer's weights (f32 views in place, the rest converted); `step` after each
    // layer with the fraction done, false from it stops (the backend is then unusable).
    bool bind_layers(const std::function<bool(double)>& step) {
        const ModelConfig& c = w_->config;
        for (int l = 0; l < c.num_layers; ++l) {
            const auto& s = w_->layers[static_cast<size_t>(l)];
            CpuLayer L;
            L.full = c.is_full(l);
            L.hd = c.layer_head_dim(l);
            L.kv = c.layer_kv_heads(l);
            L.in_ln = f32(s.input_layernorm);
            L.post_attn_ln = f32(s.post_attention_layernorm);
            L.pre_ff_ln = f32(s.pre_feedforward_layernorm);
            L.post_ff_ln = f32(s.post_feedforward_layernorm);
            L.pre_ff_ln2 = f32(s.pre_feedforward_layernorm_2);
            L.post_ff_ln1 = f32(s.post_feedforward_layernorm_1);
            L.post_ff_ln2 = f32(s.post_feedforward_layernorm_2);
            L.wq = f32(s.q_proj);
            L.wk = f32(s.k_proj);
            L.wv = s.v_proj.empty() ? nullptr : f32(s.v_proj);
            L.wo = f32(s.o_proj);
            L.q_norm = f32(s.q_norm);
            L.k_norm = f32(s.k_norm);
            L.gate = f32(s.mlp_gate);
            L.up = f32(s.mlp_up);
            L.down = f32(s.mlp_down);
            L.router = f32(s.router_proj);
            L.router_scale = f32(s.router_scale);
            L.per_expert_scale = f32(s.router_per_expert_scale);
            L.gate_up = f32(s.experts_gate_up);
            L.edown = f32(s.experts_down);
            L.enc_scalar = s.encoder_layer_scalar;
            L.dec_scalar = s.decoder_layer_scalar;
            L.inv_freq = c.inv_freq(l);
            layers_.push_back(std::move(L));
            if (step && !step(double(l + 1) / c.num_layers)) return false;
        }
        return true;
    }

    std::string device_name() const override {
        return "cpu (" + std::to_string(pool_.size()) + " threads)";
    }
    const ModelWeights& weights() const override { return *w_; }

    Result<std::unique_ptr<KvCache>> create_cache(int capacity) override {
        if (capacity < 0) return bad_input("KV cache capacity must be >= 0");
        return std::unique_ptr<KvCache>(new CpuKvCache(w_->config, capacity));
    }

    Result<void> encode(KvCache& cache_base, std::span<const TokenId> ids,
                        const CancelToken& cancel) override {
        auto& cache = static_cast<CpuKvCache&>(cache_base);
        const ModelConfig& c = w_->config;
        const int64_t N = static_cast<int64_t>(ids.size()), H = c.hidden_size;
        if (cache.broken_) return engine_error("KV cache was left incomplete by a cancelled pass");
        if (cache.length_ + N > cache.capacity_)
            return engine_error("KV cache holds " + std::to_string(cache.capacity_) +
                                " tokens; encoding " + std::to_string(N) + " more after " +
                                std::to_string(cache.length_) + " does not fit");
        if (auto r = check_ids(ids); !r) return r;
        if (N == 0) return {};
        const int start = cache.length_;
        std::vector<float> x(static_cast<size_t>(N * H));
        embed_rows(ids, x.data());
        std::vector<int> positions(static_cast<size_t>(N));
        std::iota(positions.begin(), positions.end(), start);
        for (int l = 0; l < c.num_layers; ++l) {
            if (cancel.cancelled()) {
                cache.broken_ = true;
                return cancelled();
            }
            const CpuLayer& L = layers_[static_cast<size_t>(l)];
            layer_forward(L, x.data(), N, positions, L.enc_scalar,
                          [&](const float* q, const float* k, const float* v, float* out) {
                              encoder_attention(L, l, cache, start, N, q, k, v, out);
                          });
        }
        cache.length_ = start + static_cast<int>(N);
        return {};
    }

    Result<std::unique_ptr<DecodedCanvas>> decode(const KvCache& cache_base,
                                                  const DecodeBatch& batch,
                                                  const CancelToken& cancel) override {
        const auto& cache = static_cast<const CpuKvCache&>(cache_base);
        const ModelConfig& c = w_->config;
        const int64_t R = batch.rows, W = batch.width, N = R * W, H = c.hidden_size;
        if (cache.broken_) return engine_error("KV cache was left incomplete by a cancelled pass");
        if (R <= 0 || W <= 0 || static_cast<int64_t>(batch.ids.size()) != N)
            return bad_input("decoder batch: expected rows*width ids (" + std::to_string(R) + "*" +
                             std::to_string(W) + "), got " + std::to_string(batch.ids.size()));
        if (auto r = check_ids(batch.ids); !r) return r.error();
        auto out = std::make_unique<CpuDecoded>();
        out->rows_ = static_cast<int>(R);
        out->width_ = static_cast<int>(W);
        std::vector<float>& x = out->hidden;
        x.assign(static_cast<size_t>(N * H), 0.0f);
        embed_rows(batch.ids, x.data());
        if (batch.self_conditioning_logits) {
            std::vector<float> sc(static_cast<size_t>(N * H));
            self_conditioning(batch.self_conditioning_logits, N, sc.data());
            for (size_t i = 0; i < x.size(); ++i) x[i] += sc[i];
        }
        // Canvas input norm (the self-conditioning block's weightless post_norm); with no
        // self-conditioning the block adds exactly zero.
        pool_.parallel_for(
            N, [&](int64_t t) { cpu::rmsnorm(&x[t * H], nullptr, H, c.rms_norm_eps, &x[t * H]); });
        const int P = cache.length_;
        std::vector<int> positions(static_cast<size_t>(N));
        for (int64_t t = 0; t < N; ++t) positions[t] = P + static_cast<int>(t % W);
        for (int l = 0; l < c.num_layers; ++l) {
            if (cancel.cancelled()) return cancelled();
            const CpuLayer& L = layers_[static_cast<size_t>(l)];
            layer_forward(L, x.data(), N, positions, L.dec_scalar,
                          [&](const float* q, const float* k, const float* v, float* o) {
                              decoder_attention(L, l, cache, R, W, q, k, v, o);
                          });
        }
        return std::unique_ptr<DecodedCanvas>(std::move(out));
    }

    Result<void> logits(const DecodedCanvas& canvas_base, std::vector<float>& out) override {
        const auto& canvas = static_cast<const CpuDecoded&>(canvas_base);
        const ModelConfig& c = w_->config;
        const int64_t N = static_cast<int64_t>(canvas.rows_) * canvas.width_;
        const int64_t H = c.hidden_size, V = c.vocab_size;
        std::vector<float> h(static_cast<size_t>(N * H));
        pool_.parallel_for(N, [&](int64_t t) {
            cpu::rmsnorm(&canvas.hidden[t * H], final_norm_, H, c.rms_norm_eps, &h[t * H]);
        });
        out.resize(static_cast<size_t>(N * V));
        const int64_t chunk = 4096;
        const float cap = static_cast<float>(c.final_logit_softcapping);
        pool_.parallel_for((V + chunk - 1) / chunk, [&](int64_t ci) {
            const int64_t b = ci * chunk, e = std::min(V, b + chunk);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(N),
                        static_cast<int>(e - b), static_cast<int>(H), 1.0f, h.data(),
                        static_cast<int>(H), head_ + b * H, static_cast<int>(H), 0.0f,
                        out.data() + b, static_cast<int>(V));
            for (int64_t t = 0; t < N; ++t)
                cpu::softcap_inplace(out.data() + t * V + b, e - b, cap);
        });
        return {};
    }

    Result<std::vector<PositionReadout>> read_positions(
        const DecodedCanvas& canvas_base, std::span<const PositionQuery> queries) override {
        const auto& canvas = static_cast<const CpuDecoded&>(canvas_base);
        const ModelConfig& c = w_->config;
        const int64_t H = c.hidden_size, V = c.vocab_size, Q = static_cast<int64_t>(queries.size());
        std::vector<PositionReadout> result(static_cast<size_t>(Q));
        if (Q == 0) return result;
        std::vector<float> h(static_cast<size_t>(Q * H));
        for (int64_t i = 0; i < Q; ++i) {
            const auto& q = queries[static_cast<size_t>(i)];
            if (q.row < 0 || q.row >= canvas.rows_ || q.pos < 0 || q.pos >= canvas.width_)
                return bad_input("readout position (row " + std::to_string(q.row) + ", pos " +
                                 std::to_string(q.pos) + ") is outside the canvas");
            for (TokenId id : q.ids)
                if (id < 0 || id >= V)
                    return bad_input("label id " + std::to_string(id) + " is outside [0, " +
                                     std::to_string(V) + ")");
            const int64_t t = static_cast<int64_t>(q.row) * canvas.width_ + q.pos;
            cpu::rmsnorm(&canvas.hidden[t * H], final_norm_, H, c.rms_norm_eps, &h[i * H]);
        }
        const float cap = static_cast<float>(c.final_logit_softcapping);
        // Full-vocabulary max / sum-exp / argmax per query, vocabulary split in chunks.
        const int64_t chunk = 4096, chunks = (V + chunk - 1) / chunk;
        struct Partial {
            float max = kNegInf;
            double sum = 0;  // of exp(logit - max)
            TokenId arg = 0;
        };
        std::vector<Partial> parts(static_cast<size_t>(chunks * Q));
        pool_.parallel_for(chunks, [&](int64_t ci) {
            const int64_t b = ci * chunk, e = std::min(V, b + chunk), n = e - b;
            std::vector<float> L(static_cast<size_t>(Q * n));
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(Q),
                        static_cast<int>(n), static_cast<int>(H), 1.0f, h.data(),
                        static_cast<int>(H), head_ + b * H, static_cast<int>(H), 0.0f, L.data(),
                        static_cast<int>(n));
            for (int64_t i = 0; i < Q; ++i) {
                float* row = &L[i * n];
                cpu::softcap_inplace(row, n, cap);
                Partial p;
                for (int64_t j = 0; j < n; ++j)
                    if (row[j] > p.max) {
                        p.max = row[j];
                        p.arg = static_cast<TokenId>(b + j);
                    }
                double s = 0;
                for (int64_t j = 0; j < n; ++j) s += std::exp(row[j] - p.max);
                p.sum = s;
                parts[ci * Q + i] = p;
            }
        });
        for (int64_t i = 0; i < Q; ++i) {
            float m = kNegInf;
            TokenId arg = 0;
            for (int64_t ci = 0; ci < chunks; ++ci) {
                const Partial& p = parts[ci * Q + i];
                if (p.max > m) {
                    m = p.max;
                    arg = p.arg;
                }
            }
            double s = 0;
            for (int64_t ci = 0; ci < chunks; ++ci) {
                const Partial& p = parts[ci * Q + i];
                s += p.sum * std::exp(static_cast<double>(p.max) - m);
            }
            PositionReadout& r = result[static_cast<size_t>(i)];
            r.logsumexp = static_cast<float>(m + std::log(s));
            r.argmax = arg;
            r.max_logit = m;
            const auto& q = queries[static_cast<size_t>(i)];
            for (TokenId id : q.ids) {
                const float* e = head_ + static_cast<int64_t>(id) * H;
                float dot = 0;
                for (int64_t d = 0; d < H; ++d) dot += h[i * H + d] * e[d];
                cpu::softcap_inplace(&dot, 1, cap);
                r.logits.push_back(dot);
            }
        }
        return result;
    }

    Result<void> read_cache(const KvCache& cache_base, int layer, std::vector<float>& k,
                            std::vector<float>& v) override {
        const auto& cache = static_cast<const CpuKvCache&>(cache_base);
        const ModelConfig& c = w_->config;
        if (layer < 0 || layer >= c.num_layers)
            return bad_input("layer " + std::to_string(layer) + " is outside the model");
        const size_t n =
            static_cast<size_t>(cache.length_) * c.layer_kv_heads(layer) * c.layer_head_dim(layer);
        k.assign(cache.k_[layer].begin(), cache.k_[layer].begin() + static_cast<ptrdiff_t>(n));
        v.assign(cache.v_[layer].begin(), cache.v_[layer].begin() + static_cast<ptrdiff_t>(n));
        return {};
    }

  private:
    // fp32 pointer to a tensor: in place when the file holds aligned F32, else a converted copy.
    const float* f32(const TensorView& t) {
        if (t.dtype == DType::F32 && reinterpret_cast<uintptr_t>(t.data) % alignof(float) == 0)
            return reinterpret_cast<const float*>(t.data);
        auto buf = std::make_unique<std::vector<float>>(static_cast<size_t>(t.numel()));
        model::to_float(t.dtype, t.data, buf->size(), buf->data());
        owned_.push_back(std::move(buf));
        return owned_.back()->data();
    }

    Result<void> check_ids(std::span<const TokenId> ids) const {
        for (size_t i = 0; i < ids.size(); ++i)
            if (ids[i] < 0 || ids[i] >= w_->config.vocab_size)
                return bad_input("token id " + std::to_string(ids[i]) + " at index " +
                                 std::to_string(i) + " is outside the vocabulary [0, " +
                                 std::to_string(w_->config.vocab_size) + ")");
        return {};
    }

    void embed_rows(std::span<const TokenId> ids, float* x) {
        const int64_t H = w_->config.hidden_size;
        pool_.parallel_for(static_cast<int64_t>(ids.size()), [&](int64_t t) {
            const float* e = embed_ + static_cast<int64_t>(ids[static_cast<size_t>(t)]) * H;
            for (int64_t d = 0; d < H; ++d) x[t * H + d] = e[d] * embed_scale_;
        });
    }

    // sc[N, H] = selfcond_mlp(softmax(logits) @ E * scale).
    void self_conditioning(const float* logits, int64_t N, float* sc) {
        const ModelConfig& c = w_->config;
        const int64_t H = c.hidden_size, V = c.vocab_size, I = c.intermediate_size;
        std::vector<float> soft(static_cast<size_t>(N * H));
        const int64_t block = 8;
        // One probability buffer per pool thread, kept between calls: fresh 8 MB buffers per
        // block cost more in page faults and zeroing than the softmax itself.
        std::lock_guard<std::mutex> lock(scratch_mutex_);
        if (scratch_.size() < static_cast<size_t>(pool_.size()))
            scratch_.resize(static_cast<size_t>(pool_.size()));
        std::atomic<int> next_buffer{0};
        pool_.parallel_chunks((N + block - 1) / block, [&](int64_t cb, int64_t ce) {
            std::vector<float>& p = scratch_[static_cast<size_t>(next_buffer++)];
            if (p.size() < static_cast<size_t>(block * V)) p.resize(static_cast<size_t>(block * V));
            for (int64_t bi = cb; bi < ce; ++bi) {
                const int64_t b = bi * block, e = std::min(N, b + block), n = e - b;
                std::memcpy(p.data(), logits + b * V, static_cast<size_t>(n * V) * sizeof(float));
                for (int64_t i = 0; i < n; ++i) {
                    cpu::softmax_inplace(&p[i * V], V);
                    if (round_probs_bf16_)
                        for (int64_t j = 0; j < V; ++j)
                            p[i * V + j] = model::bf16_to_float(model::float_to_bf16(p[i * V + j]));
                }
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n),
                            static_cast<int>(H), static_cast<int>(V), embed_scale_, p.data(),
                            static_cast<int>(V), embed_, static_cast<int>(H), 0.0f, &soft[b * H],
                            static_cast<int>(H));
            }
        });
        std::vector<float> normed(static_cast<size_t>(N * H));
        pool_.parallel_for(N, [&](int64_t t) {
            cpu::rmsnorm(&soft[t * H], sc_pre_, H, c.rms_norm_eps, &normed[t * H]);
        });
        std::vector<float> g(static_cast<size_t>(N * I)), u(static_cast<size_t>(N * I));
        linear(pool_, normed.data(), N, H, sc_gate_, I, g.data());
        linear(pool_, normed.data(), N, H, sc_up_, I, u.data());
        pool_.parallel_chunks(N * I,
                              [&](int64_t b, int64_t e) { cpu::gelu_mul(&g[b], &u[b], e - b); });
        linear(pool_, g.data(), N, I, sc_down_, H, sc);
    }

    using AttentionFn =
        std::function<void(const float* q, const float* k, const float* v, float* out)>;

    // One layer over N tokens in place (MODEL-SPEC section 3); `attention` receives q, k, v after
    // their norms and RoPE and writes [N, heads*hd].
    void layer_forward(const CpuLayer& L, float* x, int64_t N, const std::vector<int>& positions,
                       float layer_scalar, const AttentionFn& attention) {
        const ModelConfig& c = w_->config;
        const int64_t H = c.hidden_size, nh = c.num_heads, hd = L.hd, kv = L.kv;
        const int64_t qd = nh * hd, kd = kv * hd;
        const double eps = c.rms_norm_eps;

        std::vector<float> h(static_cast<size_t>(N * H));
        pool_.parallel_for(N,
                           [&](int64_t t) { cpu::rmsnorm(&x[t * H], L.in_ln, H, eps, &h[t * H]); });
        std::vector<float> q(static_cast<size_t>(N * qd)), k(static_cast<size_t>(N * kd)),
            v(static_cast<size_t>(N * kd));
        linear(pool_, h.data(), N, H, L.wq, qd, q.data());
        linear(pool_, h.data(), N, H, L.wk, kd, k.data());
        if (L.wv)
            linear(pool_, h.data(), N, H, L.wv, kd, v.data());
        else
            v = k;  // K = V: V is the raw K projection
        const int64_t half = hd / 2;
        pool_.parallel_for(N, [&](int64_t t) {
            std::vector<float> cs(static_cast<size_t>(half)), sn(static_cast<size_t>(half));
            const float pos = static_cast<float>(positions[static_cast<size_t>(t)]);
            for (int64_t i = 0; i < half; ++i) {
                const float a = pos * L.inv_freq[static_cast<size_t>(i)];
                cs[i] = std::cos(a);
                sn[i] = std::sin(a);
            }
            for (int64_t j = 0; j < nh; ++j) {
                float* qh = &q[t * qd + j * hd];
                cpu::rmsnorm(qh, L.q_norm, hd, eps, qh);
                cpu::rope_neox(qh, hd, cs.data(), sn.data());
            }
            for (int64_t j = 0; j < kv; ++j) {
                float* kh = &k[t * kd + j * hd];
                cpu::rmsnorm(kh, L.k_norm, hd, eps, kh);
                cpu::rope_neox(kh, hd, cs.data(), sn.data());
                float* vh = &v[t * kd + j * hd];
                cpu::rmsnorm(vh, nullptr, hd, eps, vh);
            }
        });
        std::vector<float> att(static_cast<size_t>(N * qd));
        attention(q.data(), k.data(), v.data(), att.data());
        std::vector<float> o(static_cast<size_t>(N * H));
        linear(pool_, att.data(), N, qd, L.wo, H, o.data());
        pool_.parallel_for(N, [&](int64_t t) {
            cpu::rmsnorm(&o[t * H], L.post_attn_ln, H, eps, &o[t * H]);
            for (int64_t d = 0; d < H; ++d) x[t * H + d] += o[t * H + d];
        });

        // Dense MLP and MoE in parallel from the same residual.
        const int64_t I = c.intermediate_size;
        pool_.parallel_for(
            N, [&](int64_t t) { cpu::rmsnorm(&x[t * H], L.pre_ff_ln, H, eps, &h[t * H]); });
        std::vector<float> g(static_cast<size_t>(N * I)), u(static_cast<size_t>(N * I));
        linear(pool_, h.data(), N, H, L.gate, I, g.data());
        linear(pool_, h.data(), N, H, L.up, I, u.data());
        pool_.parallel_chunks(N * I,
                              [&](int64_t b, int64_t e) { cpu::gelu_mul(&g[b], &u[b], e - b); });
        std::vector<float> dense(static_cast<size_t>(N * H));
        linear(pool_, g.data(), N, I, L.down, H, dense.data());
        std::vector<float> moe(static_cast<size_t>(N * H));
        experts_forward(L, x, N, moe.data());
        pool_.parallel_for(N, [&](int64_t t) {
            float* d = &dense[t * H];
            float* m = &moe[t * H];
            cpu::rmsnorm(d, L.post_ff_ln1, H, eps, d);
            cpu::rmsnorm(m, L.post_ff_ln2, H, eps, m);
            for (int64_t i = 0; i < H; ++i) d[i] += m[i];
            cpu::rmsnorm(d, L.post_ff_ln, H, eps, d);
            for (int64_t i = 0; i < H; ++i) x[t * H + i] = (x[t * H + i] + d[i]) * layer_scalar;
        });
    }

    // Router + top-k experts (before post_feedforward_layernorm_2), into out[N, H].
    void experts_forward(const CpuLayer& L, const float* x, int64_t N, float* out) {
        const ModelConfig& c = w_->config;
        const int64_t H = c.hidden_size, E = c.num_experts, K = c.top_k_experts;
        const int64_t MI = c.moe_intermediate_size;
        const double eps = c.rms_norm_eps;
        // Router input: rmsnorm_noweight(x) * scale * hidden^-0.5.
        std::vector<float> r(static_cast<size_t>(N * H)), n2(static_cast<size_t>(N * H));
        const float root = static_cast<float>(std::pow(static_cast<double>(H), -0.5));
        pool_.parallel_for(N, [&](int64_t t) {
            cpu::rmsnorm(&x[t * H], nullptr, H, eps, &r[t * H]);
            for (int64_t d = 0; d < H; ++d) r[t * H + d] = r[t * H + d] * L.router_scale[d] * root;
            cpu::rmsnorm(&x[t * H], L.pre_ff_ln2, H, eps, &n2[t * H]);
        });
        std::vector<float> scores(static_cast<size_t>(N * E));
        linear(pool_, r.data(), N, H, L.router, E, scores.data());
        std::vector<int> top_idx(static_cast<size_t>(N * K));
        std::vector<float> top_w(static_cast<size_t>(N * K));
        pool_.parallel_for(N, [&](int64_t t) {
            float* p = &scores[t * E];
            cpu::softmax_inplace(p, E);
            std::vector<int> order(static_cast<size_t>(E));
            std::iota(order.begin(), order.end(), 0);
            std::partial_sort(order.begin(), order.begin() + K, order.end(),
                              [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
            float sum = 0;
            for (int64_t j = 0; j < K; ++j) sum += p[order[j]];
            for (int64_t j = 0; j < K; ++j) {
                top_idx[t * K + j] = order[j];
                top_w[t * K + j] = (p[order[j]] / sum) * L.per_expert_scale[order[j]];
            }
        });
        // Group (token, slot) pairs by expert; each slot's output goes to its own buffer row, so
        // experts run in parallel without write conflicts.
        std::vector<std::vector<int64_t>> members(static_cast<size_t>(E));
        for (int64_t i = 0; i < N * K; ++i) members[top_idx[i]].push_back(i);
        std::vector<float> slot_out(static_cast<size_t>(N * K * H));
        std::vector<int64_t> order;
        for (int64_t e = 0; e < E; ++e)
            if (!members[e].empty()) order.push_back(e);
        // Split big experts into row blocks so a few hot experts do not serialise the layer.
        struct Job {
            int64_t expert, begin, end;
        };
        std::vector<Job> jobs;
        for (int64_t e : order)
            for (int64_t b = 0; b < static_cast<int64_t>(members[e].size()); b += 64)
                jobs.push_back({e, b, std::min<int64_t>(b + 64, members[e].size())});
        pool_.parallel_for(static_cast<int64_t>(jobs.size()), [&](int64_t ji) {
            const Job& job = jobs[static_cast<size_t>(ji)];
            const auto& m = members[job.expert];
            const int64_t n = job.end - job.begin;
            std::vector<float> in(static_cast<size_t>(n * H)), gu(static_cast<size_t>(n * 2 * MI)),
                act(static_cast<size_t>(n * MI)), y(static_cast<size_t>(n * H));
            for (int64_t i = 0; i < n; ++i) {
                const int64_t token = m[job.begin + i] / K;
                std::memcpy(&in[i * H], &n2[token * H], static_cast<size_t>(H) * sizeof(float));
            }
            const float* wgu = L.gate_up + job.expert * 2 * MI * H;
            const float* wd = L.edown + job.expert * H * MI;
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(n),
                        static_cast<int>(2 * MI), static_cast<int>(H), 1.0f, in.data(),
                        static_cast<int>(H), wgu, static_cast<int>(H), 0.0f, gu.data(),
                        static_cast<int>(2 * MI));
            for (int64_t i = 0; i < n; ++i)
                for (int64_t d = 0; d < MI; ++d)
                    act[i * MI + d] = cpu::gelu_tanh(gu[i * 2 * MI + d]) * gu[i * 2 * MI + MI + d];
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(n),
                        static_cast<int>(H), static_cast<int>(MI), 1.0f, act.data(),
                        static_cast<int>(MI), wd, static_cast<int>(MI), 0.0f, y.data(),
                        static_cast<int>(H));
            for (int64_t i = 0; i < n; ++i) {
                const int64_t slot = m[job.begin + i];
                const float wgt = top_w[slot];
                for (int64_t d = 0; d < H; ++d) slot_out[slot * H + d] = y[i * H + d] * wgt;
            }
        });
        pool_.parallel_for(N, [&](int64_t t) {
            float* o = &out[t * H];
            std::fill(o, o + H, 0.0f);
            for (int64_t j = 0; j < K; ++j) {
                const float* s = &slot_out[(t * K + j) * H];
                for (int64_t d = 0; d < H; ++d) o[d] += s[d];
            }
        });
    }

    // Causal attention of N new tokens at positions start.. over the cache (which they are
    // appended to first).
    void encoder_attention(const CpuLayer& L, int layer, CpuKvCache& cache, int start, int64_t N,
                           const float* q, const float* k, const float* v, float* out) {
        const ModelConfig& c = w_->config;
        const int64_t nh = c.num_heads, hd = L.hd, kv = L.kv, kd = kv * hd, qd = nh * hd;
        float* ck = cache.k_[layer].data();
        float* cv = cache.v_[layer].data();
        std::memcpy(ck + start * kd, k, static_cast<size_t>(N * kd) * sizeof(float));
        std::memcpy(cv + start * kd, v, static_cast<size_t>(N * kd) * sizeof(float));
        const int64_t group = nh / kv;
        const int64_t block = 32, blocks = (N + block - 1) / block;
        const int64_t window = L.full ? 0 : c.sliding_window;
        pool_.parallel_for(nh * blocks, [&](int64_t task) {
            const int64_t j = task / blocks, bi = task % blocks;
            const int64_t g = j / group;
            const int64_t b = bi * block, e = std::min(N, b + block), n = e - b;
            const int64_t p0 = start + b, p1 = start + e;  // query positions [p0, p1)
            const int64_t k0 = window ? std::max<int64_t>(0, p0 - window + 1) : 0;
            const int64_t nk = p1 - k0;
            std::vector<float> s(static_cast<size_t>(n * nk));
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(n),
                        static_cast<int>(nk), static_cast<int>(hd), 1.0f, q + b * qd + j * hd,
                        static_cast<int>(qd), ck + k0 * kd + g * hd, static_cast<int>(kd), 0.0f,
                        s.data(), static_cast<int>(nk));
            for (int64_t i = 0; i < n; ++i) {
                const int64_t p = p0 + i;
                float* row = &s[i * nk];
                for (int64_t kk = 0; kk < nk; ++kk) {
                    const int64_t kp = k0 + kk;
                    if (kp > p || (window && kp <= p - window)) row[kk] = kNegInf;
                }
                cpu::softmax_inplace(row, nk);
            }
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n),
                        static_cast<int>(hd), static_cast<int>(nk), 1.0f, s.data(),
                        static_cast<int>(nk), cv + k0 * kd + g * hd, static_cast<int>(kd), 0.0f,
                        out + b * qd + j * hd, static_cast<int>(qd));
        });
    }

    // Bidirectional attention of R canvases of W tokens: keys = [cache part | own canvas].
    void decoder_attention(const CpuLayer& L, int layer, const CpuKvCache& cache, int64_t R,
                           int64_t W, const float* q, const float* k, const float* v, float* out) {
        const ModelConfig& c = w_->config;
        const int64_t nh = c.num_heads, hd = L.hd, kv = L.kv, kd = kv * hd, qd = nh * hd;
        const int64_t P = cache.length_;
        // Sliding layers: only the cache's last (window - 1) tokens, then the whole canvas.
        const int64_t c0 = L.full ? 0 : std::max<int64_t>(0, P - (c.sliding_window - 1));
        const int64_t nc = P - c0, nk = nc + W;
        const float* ck = cache.k_[layer].data() + c0 * kd;
        const float* cv = cache.v_[layer].data() + c0 * kd;
        const int64_t group = nh / kv;
        pool_.parallel_for(R * nh, [&](int64_t task) {
            const int64_t r = task / nh, j = task % nh, g = j / group;
            const float* qr = q + r * W * qd + j * hd;
            const float* kr = k + r * W * kd + g * hd;
            const float* vr = v + r * W * kd + g * hd;
            float* o = out + r * W * qd + j * hd;
            std::vector<float> s(static_cast<size_t>(W * nk));
            if (nc > 0)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(W),
                            static_cast<int>(nc), static_cast<int>(hd), 1.0f, qr,
                            static_cast<int>(qd), ck + g * hd, static_cast<int>(kd), 0.0f, s.data(),
                            static_cast<int>(nk));
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(W),
                        static_cast<int>(W), static_cast<int>(hd), 1.0f, qr, static_cast<int>(qd),
                        kr, static_cast<int>(kd), 0.0f, s.data() + nc, static_cast<int>(nk));
            for (int64_t i = 0; i < W; ++i) cpu::softmax_inplace(&s[i * nk], nk);
            if (nc > 0)
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(W),
                            static_cast<int>(hd), static_cast<int>(nc), 1.0f, s.data(),
                            static_cast<int>(nk), cv + g * hd, static_cast<int>(kd), 0.0f, o,
                            static_cast<int>(qd));
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(W),
                        static_cast<int>(hd), static_cast<int>(W), 1.0f, s.data() + nc,
                        static_cast<int>(nk), vr, static_cast<int>(kd), nc > 0 ? 1.0f : 0.0f, o,
                        static_cast<int>(qd));
        });
    }

    std::shared_ptr<const ModelWeights> w_;
    util::ThreadPool pool_;
    std::vector<std::unique_ptr<std::vector<float>>> owned_;
    std::vector<CpuLayer> layers_;
    const float *embed_ = nullptr, *head_ = nullptr, *final_norm_ = nullptr;
    const float *sc_pre_ = nullptr, *sc_gate_ = nullptr, *sc_up_ = nullptr, *sc_down_ = nullptr;
    float embed_scale_ = 1.0f;
    bool round_probs_bf16_ = false;
    std::mutex scratch_mutex_;
    std::vector<std::vector<float>> scratch_;  // per pool thread, self-conditioning softmax
};

}  // namespace

Result<std::unique_ptr<ComputeBackend>> make_cpu_backend(
    std::shared_ptr<const model::ModelWeights> weights, int threads,
    const std::function<bool(double)>& bound) {
    if (!weights) return engine_error("CPU backend: no weights");
    auto backend = std::make_unique<CpuBackend>(std::move(weights), threads);
    if (!backend->bind_layers(bound)) return cancelled();
    return std::unique_ptr<ComputeBackend>(std::move(backend));
}

}  // namespace engine::backend
