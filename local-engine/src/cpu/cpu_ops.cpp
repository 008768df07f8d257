// The CPU operators: the batch-invariant products of cpu/gemm_nt.h (single-threaded, spread over
// our pool) and the row kernels of cpu/kernels.h. Every buffer is fp32. Scratch that a parallel
// task needs (attention scores, expert rows) is one buffer per thread, kept between calls, so the
// layer loop never allocates once the first pass has sized it.

#include "cpu/cpu_ops.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>

#include "cpu/gemm_nt.h"
#include "cpu/kernels.h"
#include "cpu/native_weights.h"
#include "cpu/weight_gemm.h"
#include "model/quantized.h"
#include "util/page_buffer.h"
#include "util/thread_pool.h"

namespace engine::cpu {
namespace {

using model::DType;
using model::ModelConfig;
using model::ModelWeights;
using model::TensorView;
using ops::Act;
using ops::Norm;
using ops::Rows;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

struct CpuLayer {
    int hd = 0, kv = 0;
    int rope_group = 0;  // index of this layer's inv_freq in CpuOps::rope_freqs_
    const float *in_ln, *post_attn_ln, *pre_ff_ln, *post_ff_ln, *pre_ff_ln2, *post_ff_ln1,
        *post_ff_ln2;
    // The matrices, packed once for gemm_nt or held as published (cpu/weight_gemm.h); wv empty
    // on K=V layers; experts one per expert.
    cpu::WeightMatrix wq, wk, wv, wo, gate, up, down, router;
    std::vector<cpu::WeightMatrix> gate_up, edown;
    const float *q_norm, *k_norm, *router_scale, *per_expert_scale;
};

// One mapping holds every layer's K and V (util/page_buffer.h: evicted prefix-cache entries go
// back to the system, never into malloc's per-thread arenas).
class CpuKvCache final : public ops::KvCacheState {
  public:
    CpuKvCache(const ModelConfig& c, int capacity) {
        offsets_.reserve(static_cast<size_t>(c.num_layers) + 1);
        size_t total = 0;
        for (int l = 0; l < c.num_layers; ++l) {
            offsets_.push_back(total);
            total += 2 * static_cast<size_t>(capacity) * c.layer_kv_heads(l) * c.layer_head_dim(l);
        }
        offsets_.push_back(total);
        store_ = util::PageBuffer(total);
    }

    // Layer l's keys and values, each [capacity][kv][hd].
    std::span<float> k(int l) { return {store_.data() + start(l, 0), half(l)}; }
    std::span<float> v(int l) { return {store_.data() + start(l, 1), half(l)}; }
    std::span<const float> k(int l) const { return {store_.data() + start(l, 0), half(l)}; }
    std::span<const float> v(int l) const { return {store_.data() + start(l, 1), half(l)}; }

  private:
    size_t half(int l) const {
        const auto i = static_cast<size_t>(l);
        return (offsets_[i + 1] - offsets_[i]) / 2;
    }
    size_t start(int l, int which) const {
        return offsets_[static_cast<size_t>(l)] + static_cast<size_t>(which) * half(l);
    }
    util::PageBuffer store_;
    std::vector<size_t> offsets_;  // where each layer's K begins; its V follows
};

class CpuCanvas final : public ops::CanvasState {
  public:
    std::vector<float> hidden;  // [rows*width][H], before the final norm
};

// A float buffer per calling thread, grown on demand and kept (the pool's threads live as long
// as the process does not shrink them).
float* thread_scratch(int slot, size_t n) {
    thread_local std::vector<float> buffers[4];
    std::vector<float>& b = buffers[slot];
    if (b.size() < n) b.resize(n);
    return b.data();
}

// y[n, out] = x[n, in] @ w[out, in]^T, spread over the pool (rows when there are many, else
// panels of output columns). gemm_nt gives every row the same bits whatever the split or n, so
// a request's rows compute alike alone and inside a cross-request batch.
void matmul_nt(util::ThreadPool& pool, const float* x, int64_t n, const cpu::WeightMatrix& w,
               float* y) {
    const int64_t out = w.n(), in = w.k();
    if (n <= 0 || out <= 0) return;
    const int64_t threads = pool.size();
    // Native weights split by output panels whatever n is: each panel is read (and an FP8/NVFP4
    // one decoded) once, where a row split would do it once per row block.
    if (n >= 16 * threads && !w.is_native()) {
        // Guided blocks of whole 12-row tiles, taken dynamically: each block is about
        // 1 / (2 * threads) of the rows still unassigned, so the first are large (each block
        // re-reads the weight panels) and the last are one tile, and a thread that ends up
        // waiting at the end of the product waits for one small block at most, not a share of it.
        constexpr int64_t kTileRows = cpu::kGemmTileRows;
        thread_local std::vector<int64_t> starts;
        starts.clear();
        for (int64_t b = 0; b < n;) {
            starts.push_back(b);
            const int64_t want = (n - b + 2 * threads - 1) / (2 * threads);
            b += (want + kTileRows - 1) / kTileRows * kTileRows;
        }
        starts.push_back(n);
        const std::vector<int64_t>& bounds = starts;  // the lambda runs on other threads
        pool.parallel_for(static_cast<int64_t>(bounds.size()) - 1, [&](int64_t bi) {
            const int64_t b = bounds[static_cast<size_t>(bi)],
                          e = std::min(n, bounds[static_cast<size_t>(bi) + 1]);
            cpu::gemm_weight(x + b * in, in, w, 0, out, y + b * out, out, e - b);
        });
    } else {
        const int64_t width = std::max<int64_t>(1, w.width());
        const int64_t panels = (out + width - 1) / width;
        pool.parallel_chunks(
            panels,
            [&](int64_t b, int64_t e) {
                const int64_t j0 = b * width, j1 = std::min(out, e * width);
                cpu::gemm_weight(x, in, w, j0, j1, y + j0, out, n);
            },
            std::max<int64_t>(1, 64 / width));
    }
}

// A pass's buffers: huge pages advised for the large ones (util/page_buffer.h says why).
using Workspace = std::vector<float, util::PageAllocator<float>>;

// Grows `v` to at least n elements (never shrinks: the workspace keeps its largest plan).
template <class T, class A>
void reserve_at_least(std::vector<T, A>& v, size_t n) {
    if (v.size() < n) v.resize(n);
}

class CpuOps final : public ops::Ops {
  public:
    CpuOps(std::shared_ptr<const ModelWeights> weights, int threads, bool native)
        : w_(std::move(weights)), c_(w_->config), pool_(threads), native_(native) {
        const bool tied = w_->lm_head.data == w_->embed_tokens.data;
        if (native_) bind_native_embeddings(tied);
        if (!embed_native_) {
            embed_ = f32(w_->embed_tokens);
            head_ = tied ? embed_ : f32(w_->lm_head);
            // The readout's products sweep the whole head for a handful of rows, where packing
            // its panels on every call cost as much as the products; packed once it costs memory
            // (vocab x hidden floats beside the row-major copy the embedding lookups read).
            head_w_.f32 = cpu::pack_matrix(head_, c_.vocab_size, c_.hidden_size);
        }
        final_norm_ = f32(w_->final_norm);
        sc_pre_ = f32(w_->self_conditioning.pre_norm);
        sc_gate_ = weight(w_->self_conditioning.gate_proj);
        sc_up_ = weight(w_->self_conditioning.up_proj);
        sc_down_ = weight(w_->self_conditioning.down_proj);
    }

    // Converts every layer's weights (f32 views in place, the rest converted); `step` after each
    // layer with the fraction done, false from it stops (the ops are then unusable).
    bool bind_layers(const std::function<bool(double)>& step) {
        for (int l = 0; l < c_.num_layers; ++l) {
            const auto& s = w_->layers[static_cast<size_t>(l)];
            CpuLayer L;
            L.hd = c_.layer_head_dim(l);
            L.kv = c_.layer_kv_heads(l);
            L.rope_group = rope_group(c_.inv_freq(l));
            L.in_ln = f32(s.input_layernorm);
            L.post_attn_ln = f32(s.post_attention_layernorm);
            L.pre_ff_ln = f32(s.pre_feedforward_layernorm);
            L.post_ff_ln = f32(s.post_feedforward_layernorm);
            L.pre_ff_ln2 = f32(s.pre_feedforward_layernorm_2);
            L.post_ff_ln1 = f32(s.post_feedforward_layernorm_1);
            L.post_ff_ln2 = f32(s.post_feedforward_layernorm_2);
            L.wq = weight(s.q_proj);
            L.wk = weight(s.k_proj);
            if (!s.v_proj.empty()) L.wv = weight(s.v_proj);
            L.wo = weight(s.o_proj);
            L.q_norm = f32(s.q_norm);
            L.k_norm = f32(s.k_norm);
            L.gate = weight(s.mlp_gate);
            L.up = weight(s.mlp_up);
            L.down = weight(s.mlp_down);
            L.router = weight(s.router_proj);
            L.router_scale = f32(s.router_scale);
            L.per_expert_scale = f32(s.router_per_expert_scale);
            L.gate_up = weight_experts(s.experts_gate_up);
            L.edown = weight_experts(s.experts_down);
            layers_.push_back(std::move(L));
            if (step && !step(double(l + 1) / c_.num_layers)) return false;
        }
        return true;
    }

    std::string device_name() const override {
        return "cpu (" + std::to_string(pool_.size()) + " threads)";
    }
    int max_pass_tokens() const override { return INT_MAX; }
    bool fuses_passes() const override { return false; }
    bool embeddings_bf16() const override { return w_->embed_tokens.dtype == DType::BF16; }

    Result<std::unique_ptr<ops::KvCacheState>> create_cache(int capacity) override {
        return std::unique_ptr<ops::KvCacheState>(new CpuKvCache(c_, capacity));
    }
    Result<std::unique_ptr<ops::KvCacheState>> copy_cache(const ops::KvCacheState& src_base,
                                                          int length, int capacity) override {
        const auto& src = static_cast<const CpuKvCache&>(src_base);
        auto copy = std::make_unique<CpuKvCache>(c_, capacity);
        for (int l = 0; l < c_.num_layers; ++l) {
            const auto n = static_cast<ptrdiff_t>(static_cast<size_t>(length) *
                                                  c_.layer_kv_heads(l) * c_.layer_head_dim(l));
            std::copy_n(src.k(l).begin(), n, copy->k(l).begin());
            std::copy_n(src.v(l).begin(), n, copy->v(l).begin());
        }
        return std::unique_ptr<ops::KvCacheState>(std::move(copy));
    }
    uint64_t cache_bytes(int capacity) const override {
        uint64_t per_token = 0;
        for (int l = 0; l < c_.num_layers; ++l)
            per_token += 2ull * c_.layer_kv_heads(l) * c_.layer_head_dim(l) * sizeof(float);
        return per_token * static_cast<uint64_t>(std::max(capacity, 0));
    }
    Result<std::unique_ptr<ops::CanvasState>> create_canvas(int rows, int width) override {
        auto canvas = std::make_unique<CpuCanvas>();
        canvas->hidden.assign(static_cast<size_t>(rows) * width * c_.hidden_size, 0.0f);
        return std::unique_ptr<ops::CanvasState>(std::move(canvas));
    }
    Result<void> read_cache(const ops::KvCacheState& cache_base, int layer, std::vector<float>& k,
                            std::vector<float>& v) override {
        const auto& cache = static_cast<const CpuKvCache&>(cache_base);
        const size_t n = static_cast<size_t>(cache.length_) * c_.layer_kv_heads(layer) *
                         c_.layer_head_dim(layer);
        k.assign(cache.k(layer).begin(), cache.k(layer).begin() + static_cast<ptrdiff_t>(n));
        v.assign(cache.v(layer).begin(), cache.v(layer).begin() + static_cast<ptrdiff_t>(n));
        return {};
    }

    using ops::Ops::begin_pass;
    Result<void> begin_pass(std::span<const ops::PassShape> requests) override {
        int64_t tokens = 0;
        for (const ops::PassShape& r : requests) tokens = std::max(tokens, r.first + r.tokens());
        const size_t N = static_cast<size_t>(tokens), H = static_cast<size_t>(c_.hidden_size);
        size_t qd = 0, kd = 0;
        for (const CpuLayer& L : layers_) {
            qd = std::max(qd, static_cast<size_t>(c_.num_heads) * L.hd);
            kd = std::max(kd, static_cast<size_t>(L.kv) * L.hd);
        }
        const size_t I = static_cast<size_t>(c_.intermediate_size);
        const size_t E = static_cast<size_t>(c_.num_experts),
                     K = static_cast<size_t>(c_.top_k_experts);
        for (Act a : {Act::x, Act::h, Act::o, Act::dense, Act::moe, Act::expert_in, Act::sc})
            reserve_at_least(buf(a), N * H);
        reserve_at_least(buf(Act::attn), N * qd);
        reserve_at_least(buf(Act::router), N * E);
        reserve_at_least(q_, N * qd);
        reserve_at_least(k_, N * kd);
        reserve_at_least(v_, N * kd);
        reserve_at_least(g_, N * I);
        reserve_at_least(u_, N * I);
        reserve_at_least(top_idx_, N * K);
        reserve_at_least(top_w_, N * K);
        reserve_at_least(slot_out_, N * K * H);
        members_.resize(E);
        positions_.resize(N);
        for (const ops::PassShape& shape : requests) {
            int* pos = positions_.data() + shape.first;
            for (int64_t t = 0; t < shape.prompt; ++t) pos[t] = shape.start + static_cast<int>(t);
            for (int64_t t = 0; t < shape.canvas_tokens(); ++t)
                pos[shape.prompt + t] =
                    shape.canvas_position0() + static_cast<int>(t % shape.width);
        }
        // RoPE tables for the pass's positions, once per distinct inv_freq (not per layer).
        rope_cos_.resize(rope_freqs_.size());
        rope_sin_.resize(rope_freqs_.size());
        for (size_t g = 0; g < rope_freqs_.size(); ++g) {
            const std::vector<float>& f = rope_freqs_[g];
            const size_t half = f.size();
            reserve_at_least(rope_cos_[g], N * half);
            reserve_at_least(rope_sin_[g], N * half);
            pool_.parallel_rows(static_cast<int64_t>(N), [&](int64_t t) {
                const float pos = static_cast<float>(positions_[static_cast<size_t>(t)]);
                for (size_t i = 0; i < half; ++i) {
                    const float a = pos * f[i];
                    rope_cos_[g][t * half + i] = std::cos(a);
                    rope_sin_[g][t * half + i] = std::sin(a);
                }
            });
        }
        return {};
    }
    Result<void> end_pass() override { return {}; }

    void embed(std::span<const TokenId> ids, float scale, Rows out) override {
        const int64_t H = c_.hidden_size;
        float* x = row(out, 0);
        pool_.parallel_rows(static_cast<int64_t>(ids.size()), [&](int64_t t) {
            const int64_t id = static_cast<int64_t>(ids[static_cast<size_t>(t)]);
            if (embed_native_) {  // the row's values, exact in f32, then the same scaling
                cpu::native_row_to_float(*embed_native_, id, &x[t * H]);
                cpu::mul_scale(&x[t * H], nullptr, scale, &x[t * H], H);
                return;
            }
            cpu::mul_scale(embed_ + id * H, nullptr, scale, &x[t * H], H);
        });
    }

    Result<void> soft_embed(const float* logits, float scale, bool round_probs_bf16,
                            Rows out) override {
        const int64_t H = c_.hidden_size, V = c_.vocab_size, N = out.count;
        float* soft = row(out, 0);
        std::fill(soft, soft + N * H, 0.0f);
        // Rows in groups (the probabilities of a group are held at once: 64 rows of a 262,144
        // vocabulary are 64 MB, kept between calls), and within a group every row against the
        // whole embedding table, so the 268 MB table is read once per group rather than once per
        // few rows.
        constexpr int64_t kGroup = 64;
        std::lock_guard<std::mutex> lock(scratch_mutex_);
        reserve_at_least(probs_, static_cast<size_t>(std::min(N, kGroup) * V));
        for (int64_t g0 = 0; g0 < N; g0 += kGroup) {
            const int64_t n = std::min(kGroup, N - g0);
            float* p = probs_.data();
            pool_.parallel_for(n, [&](int64_t i) {
                float* r = p + i * V;
                std::memcpy(r, logits + (g0 + i) * V, static_cast<size_t>(V) * sizeof(float));
                cpu::softmax_inplace(r, V);
                if (round_probs_bf16)
                    for (int64_t j = 0; j < V; ++j)
                        r[j] = model::bf16_to_float(model::float_to_bf16(r[j]));
            });
            // Probabilities x embeddings, summed over the vocabulary in slices whose partial sums
            // are then added (one fp32 chain over all 262,144 entries carried 2e-4 of rounding
            // error against the reference's 1e-4 bound; slices give ~2.5e-5). A slice of the table
            // (512 rows x hidden) fits in L2: its 32-wide column strips, split over the pool, then
            // read it once from memory, front to back.
            constexpr int64_t kStrip = 32, kSlice = 512;
            float* o = soft + g0 * H;
            const int64_t strips = (H + kStrip - 1) / kStrip;
            for (int64_t v0 = 0; v0 < V; v0 += kSlice) {
                pool_.parallel_chunks(strips, [&](int64_t sb, int64_t se) {
                    const int64_t c0 = sb * kStrip, nc = std::min(H, se * kStrip) - c0;
                    float* part = thread_scratch(1, static_cast<size_t>(n * nc));
                    const int64_t rows = std::min(kSlice, V - v0);
                    if (embed_native_) {  // the slice's strip decoded: the same values
                        float* e = thread_scratch(2, static_cast<size_t>(rows * nc));
                        cpu::native_block_to_float(*embed_native_, v0, rows, c0, nc, e);
                        cpu::gemm_nn(p + v0, V, e, nc, part, nc, n, nc, rows, false);
                    } else {
                        cpu::gemm_nn(p + v0, V, embed_ + v0 * H + c0, H, part, nc, n, nc, rows,
                                     false);
                    }
                    for (int64_t i = 0; i < n; ++i)
                        cpu::add_inplace(&o[i * H + c0], &part[i * nc], nc);
                });
            }
            cpu::mul_scale(o, nullptr, scale, o, n * H);
        }
        return {};
    }

    void rmsnorm(Rows in, Rows out, int layer, Norm w) override {
        const int64_t H = c_.hidden_size;
        const float* x = row(in, 0);
        float* y = row(out, 0);
        const float* wt = norm_weight(layer, w);
        pool_.parallel_rows(in.count, [&](int64_t t) {
            cpu::rmsnorm(&x[t * H], wt, H, c_.rms_norm_eps, &y[t * H]);
        });
    }

    void add_rmsnorm(Rows x_rows, Rows add, int layer, Norm w) override {
        const int64_t H = c_.hidden_size;
        float* x = row(x_rows, 0);
        const float* a = row(add, 0);
        const float* wt = norm_weight(layer, w);
        pool_.parallel_rows(x_rows.count, [&](int64_t t) {
            cpu::add_inplace(&x[t * H], &a[t * H], H);
            cpu::rmsnorm(&x[t * H], wt, H, c_.rms_norm_eps, &x[t * H]);
        });
    }

    void router_input(Rows in, Rows out, int layer, float extra) override {
        const int64_t H = c_.hidden_size;
        const float* x = row(in, 0);
        float* r = row(out, 0);
        const float* scale = layers_[static_cast<size_t>(layer)].router_scale;
        pool_.parallel_rows(in.count, [&](int64_t t) {
            cpu::rmsnorm(&x[t * H], nullptr, H, c_.rms_norm_eps, &r[t * H]);
            cpu::mul_scale(&r[t * H], scale, extra, &r[t * H], H);
        });
    }

    void residual_rmsnorm(Rows x_rows, Rows o_rows, int layer, Norm w) override {
        const int64_t H = c_.hidden_size;
        float* x = row(x_rows, 0);
        float* o = row(o_rows, 0);  // normed in place: the workspace's o is scratch
        const float* wt = norm_weight(layer, w);
        pool_.parallel_rows(x_rows.count, [&](int64_t t) {
            cpu::rmsnorm(&o[t * H], wt, H, c_.rms_norm_eps, &o[t * H]);
            cpu::add_inplace(&x[t * H], &o[t * H], H);
        });
    }

    void residual_two_branches(Rows x_rows, Rows a_rows, Rows b_rows, int layer, Norm wa, Norm wb,
                               Norm wsum, float scalar) override {
        const int64_t H = c_.hidden_size;
        const double eps = c_.rms_norm_eps;
        float* x = row(x_rows, 0);
        float* a = row(a_rows, 0);  // both branches are normed in place (workspace scratch)
        float* b = row(b_rows, 0);
        const float *w1 = norm_weight(layer, wa), *w2 = norm_weight(layer, wb),
                    *ws = norm_weight(layer, wsum);
        pool_.parallel_rows(x_rows.count, [&](int64_t t) {
            float* d = &a[t * H];
            float* m = &b[t * H];
            cpu::rmsnorm(d, w1, H, eps, d);
            cpu::rmsnorm(m, w2, H, eps, m);
            cpu::add_inplace(d, m, H);
            cpu::rmsnorm(d, ws, H, eps, d);
            cpu::add_scale_inplace(&x[t * H], d, scalar, H);
        });
    }

    void project_qkv(int layer, Rows h_rows) override {
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        const int64_t N = h_rows.count, kd = L.kv * L.hd;
        const float* h = row(h_rows, 0);
        matmul_nt(pool_, h, N, L.wq, q_.data());
        matmul_nt(pool_, h, N, L.wk, k_.data());
        if (!L.wv.empty())
            matmul_nt(pool_, h, N, L.wv, v_.data());
        else
            std::memcpy(v_.data(), k_.data(), static_cast<size_t>(N * kd) * sizeof(float));
    }

    void qkv_norm_rope(int layer, const ops::PassShape& shape,
                       ops::KvCacheState& cache_base) override {
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        const int64_t nh = c_.num_heads, hd = L.hd, kv = L.kv, qd = nh * hd, kd = kv * hd;
        const int64_t half = hd / 2;
        const double eps = c_.rms_norm_eps;
        const float* cos_t = rope_cos_[static_cast<size_t>(L.rope_group)].data();
        const float* sin_t = rope_sin_[static_cast<size_t>(L.rope_group)].data();
        pool_.parallel_rows(shape.tokens(), [&, t0 = shape.first](int64_t i) {
            const int64_t t = t0 + i;
            const float* cs = cos_t + t * half;
            const float* sn = sin_t + t * half;
            for (int64_t j = 0; j < nh; ++j) {
                float* qh = &q_[t * qd + j * hd];
                cpu::rmsnorm(qh, L.q_norm, hd, eps, qh);
                cpu::rope_neox(qh, hd, cs, sn);
            }
            for (int64_t j = 0; j < kv; ++j) {
                float* kh = &k_[t * kd + j * hd];
                cpu::rmsnorm(kh, L.k_norm, hd, eps, kh);
                cpu::rope_neox(kh, hd, cs, sn);
                float* vh = &v_[t * kd + j * hd];
                cpu::rmsnorm(vh, nullptr, hd, eps, vh);
            }
        });
        if (shape.prompt > 0) {
            auto& cache = static_cast<CpuKvCache&>(cache_base);
            const size_t bytes = static_cast<size_t>(shape.prompt * kd) * sizeof(float);
            std::memcpy(cache.k(layer).data() + shape.start * kd, k_.data() + shape.first * kd,
                        bytes);
            std::memcpy(cache.v(layer).data() + shape.start * kd, v_.data() + shape.first * kd,
                        bytes);
        }
    }

    void attention_causal(int layer, const ops::PassShape& shape,
                          const ops::KvCacheState& cache_base, int window) override {
        const auto& cache = static_cast<const CpuKvCache&>(cache_base);
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        const int64_t nh = c_.num_heads, hd = L.hd, kv = L.kv, kd = kv * hd, qd = nh * hd;
        const int64_t N = shape.prompt, start = shape.start;
        const float* q = q_.data() + shape.first * qd;
        float* out = buf(Act::attn).data() + shape.first * qd;
        const float* ck = cache.k(layer).data();
        const float* cv = cache.v(layer).data();
        const int64_t group = nh / kv;
        const int64_t block = 32, blocks = (N + block - 1) / block;
        pool_.parallel_for(nh * blocks, [&](int64_t task) {
            const int64_t j = task / blocks, bi = task % blocks;
            const int64_t g = j / group;
            const int64_t b = bi * block, e = std::min(N, b + block), n = e - b;
            const int64_t p0 = start + b, p1 = start + e;  // query positions [p0, p1)
            const int64_t k0 = window ? std::max<int64_t>(0, p0 - window + 1) : 0;
            const int64_t nk = p1 - k0;
            float* s = thread_scratch(0, static_cast<size_t>(n * nk));
            cpu::gemm_nt(q + b * qd + j * hd, qd, ck + k0 * kd + g * hd, kd, s, nk, n, nk, hd);
            for (int64_t i = 0; i < n; ++i) {
                // Query position p sees keys (p - window, p]: one softmax over exactly those,
                // zeros at the two ends (range fills, not a test per score). A row's bits then
                // depend on its own keys only, not on the block or pass it was computed in, so
                // a prompt continued from a cached prefix gets the bits of the whole prompt
                // encoded at once (driver/prefix_cache.h).
                const int64_t p = p0 + i;
                float* r = &s[i * nk];
                const int64_t lo = window ? std::max<int64_t>(0, p - window + 1 - k0) : 0;
                const int64_t hi = p - k0 + 1;  // one past the last visible key
                cpu::softmax_inplace(r + lo, hi - lo);
                std::fill(r, r + lo, 0.0f);
                std::fill(r + hi, r + nk, 0.0f);
            }
            cpu::gemm_nn(s, nk, cv + k0 * kd + g * hd, kd, out + b * qd + j * hd, qd, n, hd, nk,
                         false);
        });
    }

    void attention_canvas(int layer, const ops::PassShape& shape,
                          const ops::KvCacheState& cache_base, int first_key) override {
        const auto& cache = static_cast<const CpuKvCache&>(cache_base);
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        const int64_t nh = c_.num_heads, hd = L.hd, kv = L.kv, kd = kv * hd, qd = nh * hd;
        const int64_t R = shape.rows, W = shape.width, t0 = shape.first_canvas_row();
        const int64_t c0 = first_key, nc = shape.canvas_position0() - c0, nk = nc + W;
        const float* ck = cache.k(layer).data() + c0 * kd;
        const float* cv = cache.v(layer).data() + c0 * kd;
        const float* q = q_.data() + t0 * qd;
        const float* k = k_.data() + t0 * kd;
        const float* v = v_.data() + t0 * kd;
        float* out = buf(Act::attn).data() + t0 * qd;
        const int64_t group = nh / kv;
        pool_.parallel_for(R * nh, [&](int64_t task) {
            const int64_t r = task / nh, j = task % nh, g = j / group;
            const float* qr = q + r * W * qd + j * hd;
            const float* kr = k + r * W * kd + g * hd;
            const float* vr = v + r * W * kd + g * hd;
            float* o = out + r * W * qd + j * hd;
            float* s = thread_scratch(0, static_cast<size_t>(W * nk));
            // Scores against the visible cache, then against this row's own canvas; one softmax
            // over both; the values likewise (the canvas part continues the cache part's sums).
            if (nc > 0) cpu::gemm_nt(qr, qd, ck + g * hd, kd, s, nk, W, nc, hd);
            cpu::gemm_nt(qr, qd, kr, kd, s + nc, nk, W, W, hd);
            for (int64_t i = 0; i < W; ++i) cpu::softmax_inplace(&s[i * nk], nk);
            if (nc > 0) cpu::gemm_nn(s, nk, cv + g * hd, kd, o, qd, W, hd, nc, false);
            cpu::gemm_nn(s + nc, nk, vr, kd, o, qd, W, hd, W, nc > 0);
        });
    }

    void linear(int layer, ops::Matrix w, Rows in, Rows out) override {
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        if (w == ops::Matrix::o_proj)
            matmul_nt(pool_, row(in, 0), in.count, L.wo, row(out, 0));
        else
            matmul_nt(pool_, row(in, 0), in.count, L.router, row(out, 0));
    }

    void gated_mlp(int layer, ops::Mlp w, Rows in, Rows out) override {
        const int64_t I = c_.intermediate_size, N = in.count;
        const bool dense = w == ops::Mlp::dense;
        const CpuLayer* L = dense ? &layers_[static_cast<size_t>(layer)] : nullptr;
        const cpu::WeightMatrix& gate = dense ? L->gate : sc_gate_;
        const cpu::WeightMatrix& up = dense ? L->up : sc_up_;
        const cpu::WeightMatrix& down = dense ? L->down : sc_down_;
        float* g = g_.data();
        float* u = u_.data();
        matmul_nt(pool_, row(in, 0), N, gate, g);
        matmul_nt(pool_, row(in, 0), N, up, u);
        pool_.parallel_chunks(N * I,
                              [&](int64_t b, int64_t e) { cpu::gelu_mul(&g[b], &u[b], e - b); });
        matmul_nt(pool_, g, N, down, row(out, 0));
    }

    void router_topk(int layer, Rows logits) override {
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        const int64_t E = c_.num_experts, K = c_.top_k_experts;
        float* scores = row(logits, 0);
        pool_.parallel_rows(logits.count, [&](int64_t t) {
            float* p = &scores[t * E];
            cpu::softmax_inplace(p, E);
            thread_local std::vector<int> order;
            order.resize(static_cast<size_t>(E));
            std::iota(order.begin(), order.end(), 0);
            std::partial_sort(order.begin(), order.begin() + K, order.end(),
                              [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
            float sum = 0;
            for (int64_t j = 0; j < K; ++j) sum += p[order[j]];
            for (int64_t j = 0; j < K; ++j) {
                top_idx_[t * K + j] = order[j];
                top_w_[t * K + j] = (p[order[j]] / sum) * L.per_expert_scale[order[j]];
            }
        });
    }

    Result<void> experts(int layer, Rows in_rows, Rows out_rows) override {
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        const int64_t H = c_.hidden_size, E = c_.num_experts, K = c_.top_k_experts;
        const int64_t MI = c_.moe_intermediate_size, N = in_rows.count;
        const float* n2 = row(in_rows, 0);
        // Group (token, slot) pairs by expert; each slot's output goes to its own buffer row, so
        // experts run in parallel without write conflicts.
        for (auto& m : members_) m.clear();
        for (int64_t i = 0; i < N * K; ++i) members_[top_idx_[i]].push_back(i);
        // Split big experts into row blocks so a few hot experts do not serialise the layer;
        // blocks of whole 12-row tiles (the last one takes the remainder), so an expert pays for
        // at most one partial tile.
        jobs_.clear();
        constexpr int64_t kTileRows = cpu::kGemmTileRows, kMaxJobRows = 10 * kTileRows;
        for (int64_t e = 0; e < E; ++e) {
            const int64_t rows = static_cast<int64_t>(members_[e].size());
            if (rows == 0) continue;
            const int64_t blocks = (rows + kMaxJobRows - 1) / kMaxJobRows;
            const int64_t step =
                ((rows + blocks - 1) / blocks + kTileRows - 1) / kTileRows * kTileRows;
            for (int64_t b = 0; b < rows; b += step)
                jobs_.push_back({e, b, std::min(b + step, rows)});
        }
        // Largest first, so the threads finish together (the smallest blocks fill the end).
        std::stable_sort(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) {
            return a.end - a.begin > b.end - b.begin;
        });
        pool_.parallel_for(static_cast<int64_t>(jobs_.size()), [&](int64_t ji) {
            const Job& job = jobs_[static_cast<size_t>(ji)];
            const auto& m = members_[job.expert];
            const int64_t n = job.end - job.begin;
            float* in = thread_scratch(0, static_cast<size_t>(n * H));
            float* gu = thread_scratch(1, static_cast<size_t>(n * 2 * MI));
            float* y = thread_scratch(2, static_cast<size_t>(n * H));
            for (int64_t i = 0; i < n; ++i) {
                const int64_t token = m[job.begin + i] / K;
                std::memcpy(&in[i * H], &n2[token * H], static_cast<size_t>(H) * sizeof(float));
            }
            const cpu::WeightMatrix& wgu = L.gate_up[static_cast<size_t>(job.expert)];
            const cpu::WeightMatrix& wd = L.edown[static_cast<size_t>(job.expert)];
            // gemm_nt: a token's expert output must not depend on which other tokens (of this
            // request or of others in the batch) chose the same expert.
            cpu::gemm_weight(in, H, wgu, 0, 2 * MI, gu, 2 * MI, n);
            // gelu(gate) * up into each row's gate half, which the down projection then reads
            // in place (row stride 2 * MI).
            for (int64_t i = 0; i < n; ++i)
                cpu::gelu_mul(&gu[i * 2 * MI], &gu[i * 2 * MI + MI], MI);
            cpu::gemm_weight(gu, 2 * MI, wd, 0, H, y, H, n);
            for (int64_t i = 0; i < n; ++i) {
                const int64_t slot = m[job.begin + i];
                cpu::mul_scale(&y[i * H], nullptr, top_w_[slot], &slot_out_[slot * H], H);
            }
        });
        float* out = row(out_rows, 0);
        pool_.parallel_rows(N, [&](int64_t t) {
            float* o = &out[t * H];
            std::fill(o, o + H, 0.0f);
            for (int64_t j = 0; j < K; ++j) cpu::add_inplace(o, &slot_out_[(t * K + j) * H], H);
        });
        return {};
    }

    void store_canvas(Rows x, ops::CanvasState& canvas, int64_t first_token) override {
        const int64_t H = c_.hidden_size;
        std::memcpy(static_cast<CpuCanvas&>(canvas).hidden.data() + first_token * H, row(x, 0),
                    static_cast<size_t>(x.count * H) * sizeof(float));
    }

    Result<void> full_logits(const ops::CanvasState& canvas_base, int layer, Norm w, float cap,
                             std::vector<float>& out) override {
        const auto& canvas = static_cast<const CpuCanvas&>(canvas_base);
        const int64_t N = static_cast<int64_t>(canvas.rows_) * canvas.width_;
        const int64_t H = c_.hidden_size, V = c_.vocab_size;
        const float* wt = norm_weight(layer, w);
        Workspace& h = readout_rows_;
        reserve_at_least(h, static_cast<size_t>(N * H));
        pool_.parallel_rows(N, [&](int64_t t) {
            cpu::rmsnorm(&canvas.hidden[t * H], wt, H, c_.rms_norm_eps, &h[t * H]);
        });
        out.resize(static_cast<size_t>(N * V));
        const int64_t chunk = 4096;
        pool_.parallel_for((V + chunk - 1) / chunk, [&](int64_t ci) {
            const int64_t b = ci * chunk, e = std::min(V, b + chunk);
            cpu::gemm_weight(h.data(), H, head_w_, b, e, out.data() + b, V, N);
            for (int64_t t = 0; t < N; ++t)
                cpu::softcap_inplace(out.data() + t * V + b, e - b, cap);
        });
        return {};
    }

    using ops::Ops::read_positions;
    Result<void> read_positions(std::span<const CanvasToken> at,
                                std::span<const backend::PositionQuery> queries, int layer, Norm w,
                                float cap, std::vector<backend::PositionReadout>& result) override {
        const int64_t H = c_.hidden_size, V = c_.vocab_size, Q = static_cast<int64_t>(at.size());
        const float* wt = norm_weight(layer, w);
        Workspace& h = readout_rows_;
        reserve_at_least(h, static_cast<size_t>(Q * H));
        for (int64_t i = 0; i < Q; ++i) {
            const CanvasToken& a = at[static_cast<size_t>(i)];
            cpu::rmsnorm(&static_cast<const CpuCanvas*>(a.canvas)->hidden[a.token * H], wt, H,
                         c_.rms_norm_eps, &h[i * H]);
        }
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
            float* Lg = thread_scratch(0, static_cast<size_t>(Q * n));
            // gemm_nt: a query's logits do not depend on how many others share the sweep.
            cpu::gemm_weight(h.data(), H, head_w_, b, e, Lg, n, Q);
            for (int64_t i = 0; i < Q; ++i) {
                float* r = &Lg[i * n];
                cpu::softcap_inplace(r, n, cap);
                const cpu::MaxSumExp m = cpu::max_sumexp_argmax(r, n);
                parts[ci * Q + i] = {m.max, m.sum, static_cast<TokenId>(b + m.argmax)};
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
            backend::PositionReadout& r = result[static_cast<size_t>(i)];
            r.logsumexp = static_cast<float>(m + std::log(s));
            r.argmax = arg;
            r.max_logit = m;
            for (TokenId id : queries[static_cast<size_t>(i)].ids) {
                const float* e = head_row(id);
                float dot = 0;
                for (int64_t d = 0; d < H; ++d) dot += h[i * H + d] * e[d];
                cpu::softcap_inplace(&dot, 1, cap);
                r.logits.push_back(dot);
            }
        }
        return {};
    }

    Result<void> download(Rows src, std::vector<float>& out) override {
        const size_t w = width(src.act);
        const float* p = row(src, 0);
        out.assign(p, p + static_cast<size_t>(src.count) * w);
        return {};
    }
    Result<void> upload(Rows dst, std::span<const float> values) override {
        if (values.size() != static_cast<size_t>(dst.count) * width(dst.act))
            return bad_input("upload: value count does not match the rows");
        std::copy(values.begin(), values.end(), row(dst, 0));
        return {};
    }

  private:
    struct Job {
        int64_t expert, begin, end;
    };

    Workspace& buf(Act a) { return acts_[static_cast<size_t>(a)]; }
    // Elements per row of a workspace buffer.
    size_t width(Act a) const {
        switch (a) {
            case Act::attn: {
                size_t qd = 0;
                for (const CpuLayer& L : layers_)
                    qd = std::max(qd, static_cast<size_t>(c_.num_heads) * L.hd);
                return qd;
            }
            case Act::router:
                return static_cast<size_t>(c_.num_experts);
            default:
                return static_cast<size_t>(c_.hidden_size);
        }
    }
    float* row(Rows r, int64_t i) {
        // attn rows are strided by the layer's heads*head_dim, which the attention and o_proj
        // operators apply themselves from row 0.
        const size_t w = r.act == Act::attn ? 0 : width(r.act);
        return buf(r.act).data() + (static_cast<size_t>(r.first + i)) * w;
    }

    const float* norm_weight(int layer, Norm w) const {
        if (layer == ops::kModelLevel)
            return w == Norm::final_norm      ? final_norm_
                   : w == Norm::self_cond_pre ? sc_pre_
                                              : nullptr;
        const CpuLayer& L = layers_[static_cast<size_t>(layer)];
        switch (w) {
            case Norm::input:
                return L.in_ln;
            case Norm::post_attention:
                return L.post_attn_ln;
            case Norm::pre_ff:
                return L.pre_ff_ln;
            case Norm::post_ff:
                return L.post_ff_ln;
            case Norm::pre_ff2:
                return L.pre_ff_ln2;
            case Norm::post_ff1:
                return L.post_ff_ln1;
            case Norm::post_ff2:
                return L.post_ff_ln2;
            default:
                return nullptr;
        }
    }

    int rope_group(const std::vector<float>& inv_freq) {
        for (size_t g = 0; g < rope_freqs_.size(); ++g)
            if (rope_freqs_[g] == inv_freq) return static_cast<int>(g);
        rope_freqs_.push_back(inv_freq);
        return static_cast<int>(rope_freqs_.size() - 1);
    }

    // fp32 pointer to a tensor: in place when the file holds aligned F32, else a converted copy
    // (quantised weights are dequantised here, once, at bind).
    // The tensor's own bytes when they already are aligned fp32 (a memory-mapped view), else null.
    static const float* in_place_f32(const TensorView& t) {
        if (!t.quantized && t.dtype == DType::F32 &&
            reinterpret_cast<uintptr_t>(t.data) % alignof(float) == 0)
            return reinterpret_cast<const float*>(t.data);
        return nullptr;
    }

    const float* f32(const TensorView& t) {
        if (const float* view = in_place_f32(t)) return view;
        auto b = std::make_unique<std::vector<float>>(static_cast<size_t>(t.numel()));
        model::tensor_to_float(t, b->data());
        owned_.push_back(std::move(b));
        return owned_.back()->data();
    }

    template <class Fn>
    auto with_f32(const TensorView& t, Fn&& fn) {
        if (const float* view = in_place_f32(t)) return fn(view);
        std::vector<float> tmp(static_cast<size_t>(t.numel()));
        model::tensor_to_float(t, tmp.data());
        return fn(tmp.data());
    }

    // A 2-D weight [n][k]: held as published when native_ and its storage allows, else packed
    // for gemm_nt (converted through a temporary when it is not f32; the packed copy is the
    // only one kept).
    cpu::WeightMatrix weight(const TensorView& t) {
        cpu::WeightMatrix m;
        if (native_)
            if (auto v = cpu::native_rows(t, 0, t.shape[0], t.shape[1])) {
                m.native = std::move(*v);
                return m;
            }
        m.f32 = with_f32(
            t, [&](const float* w) { return cpu::pack_matrix(w, t.shape[0], t.shape[1]); });
        return m;
    }

    // A 3-D expert weight [E][n][k]: one matrix per expert.
    std::vector<cpu::WeightMatrix> weight_experts(const TensorView& t) {
        const int64_t E = t.shape[0], n = t.shape[1], k = t.shape[2];
        std::vector<cpu::WeightMatrix> out(static_cast<size_t>(E));
        bool all_native = native_;
        for (int64_t e = 0; e < E && all_native; ++e) {
            auto v = cpu::native_rows(t, e * n, n, k);
            if (!v)
                all_native = false;
            else
                out[static_cast<size_t>(e)].native = std::move(*v);
        }
        if (all_native) return out;
        with_f32(t, [&](const float* w) {
            for (int64_t e = 0; e < E; ++e)
                out[static_cast<size_t>(e)] = {cpu::pack_matrix(w + e * n * k, n, k), {}};
        });
        return out;
    }

    // The embedding (and the head when tied or stored alike) held as published: bf16 rows read
    // in place by the lookups and the readout's products. Left unset when the storage is not
    // bf16 (the f32 path then holds them).
    void bind_native_embeddings(bool tied) {
        const TensorView& e = w_->embed_tokens;
        auto emb = cpu::native_rows(e, 0, c_.vocab_size, c_.hidden_size);
        if (!emb) return;
        std::optional<cpu::NativeMatrix> head =
            tied ? emb : cpu::native_rows(w_->lm_head, 0, c_.vocab_size, c_.hidden_size);
        if (!head) return;
        embed_native_ = std::move(emb);
        head_w_.native = std::move(*head);
    }

    // Row `id` of the head as f32 (a pointer into the f32 copy, or decoded into a scratch row).
    const float* head_row(TokenId id) {
        const int64_t H = c_.hidden_size;
        if (!head_w_.is_native()) return head_ + static_cast<int64_t>(id) * H;
        head_row_.resize(static_cast<size_t>(H));
        cpu::native_row_to_float(head_w_.native, id, head_row_.data());
        return head_row_.data();
    }

    std::shared_ptr<const ModelWeights> w_;
    const ModelConfig& c_;
    util::ThreadPool pool_;
    std::vector<std::unique_ptr<std::vector<float>>> owned_;
    std::vector<CpuLayer> layers_;
    bool native_ = false;  // weights as published (EngineOptions::cpu_precision)
    const float *embed_ = nullptr, *head_ = nullptr, *final_norm_ = nullptr;
    std::optional<cpu::NativeMatrix> embed_native_;
    cpu::WeightMatrix head_w_;
    std::vector<float> head_row_;
    const float* sc_pre_ = nullptr;
    cpu::WeightMatrix sc_gate_, sc_up_, sc_down_;
    std::vector<std::vector<float>> rope_freqs_;  // distinct inv_freq vectors of the layers

    // The workspace: sized by begin_pass, kept between passes.
    Workspace acts_[static_cast<size_t>(Act::sc) + 1];
    Workspace q_, k_, v_, g_, u_, top_w_, slot_out_, readout_rows_;
    std::vector<int> top_idx_, positions_;
    std::vector<std::vector<float>> rope_cos_, rope_sin_;  // per rope group [tokens][half]
    std::vector<std::vector<int64_t>> members_;            // per expert: its (token, slot) pairs
    std::vector<Job> jobs_;
    std::mutex scratch_mutex_;
    std::vector<float> probs_;  // self-conditioning probabilities of one row group
};

}  // namespace

std::unique_ptr<ops::Ops> make_cpu_ops(std::shared_ptr<const model::ModelWeights> weights,
                                       int threads, const std::function<bool(double)>& bound,
                                       bool native) {
    auto ops = std::make_unique<CpuOps>(std::move(weights), threads, native);
    if (!ops->bind_layers(bound)) return nullptr;
    return ops;
}

}  // namespace engine::cpu
