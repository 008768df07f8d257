// Each CUDA operator (ops::Ops, cuda/cuda_ops.cpp) against the CPU operator (cpu/cpu_ops.cpp) on
// the same bf16 tiny model and the same inputs, uploaded into both workspaces: embedding, the
// RMSNorm variants and residuals, the attention path (projections, q/k/v norms and RoPE, the
// causal and canvas attention with sliding and full masks, the cache rows they append), o_proj,
// the gated MLPs, router top-k and the grouped expert GEMMs, self-conditioning's soft embedding
// and both readouts. Tolerances are bf16's (the CUDA side feeds cuBLAS bf16). Without a CUDA
// device the test is skipped (exit code 77).

#include "engine/engine.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#ifdef DS_HAVE_CUDA
#include "cpu/cpu_ops.h"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_ops.h"
#include "engine/tiny_model.h"
#include "model/weights.h"

namespace ops = engine::ops;
using engine::TokenId;
using ops::Act;
using ops::Norm;
using ops::Rows;

namespace {

template <class R>
auto must(R&& r, const char* what) {
    if (!r) qFatal("%s: %s", what, r.error().message.c_str());
    return std::move(r.value());
}

void must_ok(const engine::Result<void>& r, const char* what) {
    if (!r) qFatal("%s: %s", what, r.error().message.c_str());
}

// max |a - b| / max(1, max |a|): the error relative to the reference's scale.
float rel_diff(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return 1e9f;
    float m = 0, scale = 1;
    for (size_t i = 0; i < a.size(); ++i) {
        m = std::max(m, std::fabs(a[i] - b[i]));
        scale = std::max(scale, std::fabs(a[i]));
    }
    return m / scale;
}

std::vector<float> random_values(size_t n, uint32_t seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

}  // namespace
#endif  // DS_HAVE_CUDA

class TestCudaOps : public QObject {
    Q_OBJECT

#ifdef DS_HAVE_CUDA
  private:
    QTemporaryDir tmp_;
    std::shared_ptr<const engine::model::ModelWeights> w_;
    std::unique_ptr<ops::Ops> cpu_;
    std::unique_ptr<engine::cuda::CudaOps> gpu_;
    int H_ = 0;

    // Both devices: plan the same pass.
    void begin(const ops::PassShape& s) {
        must_ok(cpu_->begin_pass(s), "cpu begin_pass");
        must_ok(gpu_->begin_pass(s), "gpu begin_pass");
    }
    void put(Rows r, const std::vector<float>& v) {
        must_ok(cpu_->upload(r, v), "cpu upload");
        must_ok(gpu_->upload(r, v), "gpu upload");
    }
    // Downloads `r` from both and checks they agree within `tol` (relative).
    void agree(Rows r, float tol, const char* what) {
        must_ok(cpu_->end_pass(), "cpu end_pass");
        must_ok(gpu_->end_pass(), "gpu end_pass");
        std::vector<float> a, b;
        must_ok(cpu_->download(r, a), "cpu download");
        must_ok(gpu_->download(r, b), "gpu download");
        const float d = rel_diff(a, b);
        std::printf("%-28s relative difference %.3g\n", what, d);
        QVERIFY2(d < tol, what);
    }

  private Q_SLOTS:
    void initTestCase() {
        engine::TinyModelOptions o;
        o.out_dir = std::filesystem::path(tmp_.path().toStdString()) / "tiny";
        o.seed = 5;
        o.dtype = "bf16";
        QVERIFY(engine::write_tiny_model(o).ok());
        w_ = must(engine::model::load_model_weights(o.out_dir), "weights");
        cpu_ = engine::cpu::make_cpu_ops(w_, 2, {});
        QVERIFY(cpu_);
        gpu_ = must(engine::cuda::open_cuda_ops(w_, false, 0, engine::cuda::kDefaultPassTokens),
                    "cuda ops");
        H_ = w_->config.hidden_size;
    }

    void embedding() {
        const int n = 24;
        begin({0, n, 0, 0});
        std::vector<TokenId> ids;
        for (int i = 0; i < n; ++i) ids.push_back((17 + 7919 * i) % w_->config.vocab_size);
        cpu_->embed(ids, 8.0f, {Act::x, 0, n});
        gpu_->embed(ids, 8.0f, {Act::x, 0, n});
        agree({Act::x, 0, n}, 1e-2f, "embed");
    }

    void norms() {
        const int n = 20, l = 0;
        begin({0, n, 0, 0});
        const auto x = random_values(static_cast<size_t>(n) * H_, 1);
        const auto add = random_values(static_cast<size_t>(n) * H_, 2);
        put({Act::x, 0, n}, x);
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->rmsnorm({Act::x, 0, n}, {Act::h, 0, n}, l, Norm::input);
        agree({Act::h, 0, n}, 2e-2f, "rmsnorm (bf16 out)");
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->router_input({Act::x, 0, n}, {Act::h, 0, n}, l, 0.125f);
        agree({Act::h, 0, n}, 2e-2f, "router_input");
        put({Act::sc, 0, n}, add);
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->add_rmsnorm({Act::x, 0, n}, {Act::sc, 0, n}, ops::kModelLevel, Norm::none);
        agree({Act::x, 0, n}, 1e-4f, "add_rmsnorm");
        put({Act::x, 0, n}, x);
        put({Act::o, 0, n}, add);
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->residual_rmsnorm({Act::x, 0, n}, {Act::o, 0, n}, l, Norm::post_attention);
        agree({Act::x, 0, n}, 1e-4f, "residual_rmsnorm");
        put({Act::x, 0, n}, x);
        put({Act::dense, 0, n}, add);
        put({Act::moe, 0, n}, random_values(static_cast<size_t>(n) * H_, 3));
        // Rows 5.. only: the operators honour the row offset.
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->residual_two_branches({Act::x, 5, n - 5}, {Act::dense, 5, n - 5},
                                     {Act::moe, 5, n - 5}, l, Norm::post_ff1, Norm::post_ff2,
                                     Norm::post_ff, 0.75f);
        agree({Act::x, 0, n}, 1e-4f, "residual_two_branches");
    }

    void mlps() {
        const int n = 33;
        begin({0, n, 0, 0});
        put({Act::h, 0, n}, random_values(static_cast<size_t>(n) * H_, 4));
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->gated_mlp(1, ops::Mlp::dense, {Act::h, 0, n}, {Act::dense, 0, n});
        agree({Act::dense, 0, n}, 3e-2f, "gated_mlp dense");
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->gated_mlp(ops::kModelLevel, ops::Mlp::self_conditioning, {Act::h, 0, n},
                         {Act::sc, 0, n});
        agree({Act::sc, 0, n}, 3e-2f, "gated_mlp self-conditioning");
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            o->linear(1, ops::Matrix::router, {Act::h, 0, n}, {Act::router, 0, n});
        agree({Act::router, 0, n}, 3e-2f, "linear router");
    }

    void routerAndExperts() {
        const int n = 70, l = 2, E = w_->config.num_experts;
        begin({0, n, 0, 0});
        // Identical fp32 logits on both sides, so both pick the same experts.
        put({Act::router, 0, n}, random_values(static_cast<size_t>(n) * E, 5, 2.0f));
        put({Act::expert_in, 0, n}, random_values(static_cast<size_t>(n) * H_, 6));
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())}) {
            o->router_topk(l, {Act::router, 0, n});
            must_ok(o->experts(l, {Act::expert_in, 0, n}, {Act::moe, 0, n}), "experts");
        }
        agree({Act::moe, 0, n}, 3e-2f, "router_topk + experts");
    }

    // The attention operators of one layer over a fused pass (prompt rows, then canvas rows)
    // after an earlier prompt already in the cache, then o_proj.
    void attention_layer(int l) {
        const auto& c = w_->config;
        const int first = 23, prompt = 41, rows = 2, width = 9;
        auto cc = must(cpu_->create_cache(128), "cpu cache");
        auto gc = must(gpu_->create_cache(128), "gpu cache");
        cc->capacity_ = gc->capacity_ = 128;
        // An earlier prompt pass fills the cache's first rows.
        for (int pass = 0; pass < 2; ++pass) {
            const ops::PassShape s = pass == 0 ? ops::PassShape{0, first, 0, 0}
                                               : ops::PassShape{first, prompt, rows, width};
            const int N = static_cast<int>(s.tokens());
            begin(s);
            put({Act::h, 0, N}, random_values(static_cast<size_t>(N) * H_, 7 + pass));
            const int window = c.is_full(l) ? 0 : c.sliding_window;
            const int first_key = window > 0 ? std::max(0, s.canvas_position0() - (window - 1)) : 0;
            for (int d = 0; d < 2; ++d) {
                ops::Ops& o = d == 0 ? *cpu_ : static_cast<ops::Ops&>(*gpu_);
                ops::KvCacheState& cache = d == 0 ? *cc : *gc;
                o.project_qkv(l, {Act::h, 0, N});
                o.qkv_norm_rope(l, s, cache);
                if (s.prompt > 0) o.attention_causal(l, s, cache, window);
                if (s.rows > 0) o.attention_canvas(l, s, cache, first_key);
                o.linear(l, ops::Matrix::o_proj, {Act::attn, 0, N}, {Act::o, 0, N});
            }
            agree({Act::o, 0, N}, 5e-2f, pass == 0 ? "attention (prompt)" : "attention (fused)");
            cc->length_ = gc->length_ = s.start + s.prompt;
        }
        std::vector<float> ck, cv, gk, gv;
        must_ok(cpu_->read_cache(*cc, l, ck, cv), "cpu read_cache");
        must_ok(gpu_->read_cache(*gc, l, gk, gv), "gpu read_cache");
        std::printf("cache K %.3g, V %.3g\n", rel_diff(ck, gk), rel_diff(cv, gv));
        QVERIFY(rel_diff(ck, gk) < 2e-2f && rel_diff(cv, gv) < 2e-2f);
    }
    void attentionSliding() {
        QVERIFY(!w_->config.is_full(0));
        attention_layer(0);
    }
    void attentionFull() {
        const int l = w_->config.num_layers - 1;
        QVERIFY(w_->config.is_full(l));
        attention_layer(l);
    }

    void softEmbedding() {
        const int n = 70, V = w_->config.vocab_size;  // more than one CUDA readout chunk
        begin({0, 0, 1, n});
        const auto logits = random_values(static_cast<size_t>(n) * V, 9, 3.0f);
        for (ops::Ops* o : {cpu_.get(), static_cast<ops::Ops*>(gpu_.get())})
            must_ok(o->soft_embed(logits.data(), 8.0f, true, {Act::sc, 0, n}), "soft_embed");
        agree({Act::sc, 0, n}, 3e-2f, "soft_embed");
    }

    void readouts() {
        const int rows = 2, width = 40, n = rows * width;
        begin({0, 0, rows, width});
        put({Act::x, 0, n}, random_values(static_cast<size_t>(n) * H_, 10));
        auto ccan = must(cpu_->create_canvas(rows, width), "cpu canvas");
        auto gcan = must(gpu_->create_canvas(rows, width), "gpu canvas");
        ccan->rows_ = gcan->rows_ = rows;
        ccan->width_ = gcan->width_ = width;
        cpu_->store_canvas({Act::x, 0, n}, *ccan, 0);
        gpu_->store_canvas({Act::x, 0, n}, *gcan, 0);
        must_ok(cpu_->end_pass(), "cpu end_pass");
        must_ok(gpu_->end_pass(), "gpu end_pass");
        const float cap = static_cast<float>(w_->config.final_logit_softcapping);
        std::vector<float> cl, gl;
        must_ok(cpu_->full_logits(*ccan, ops::kModelLevel, Norm::final_norm, cap, cl), "cpu");
        must_ok(gpu_->full_logits(*gcan, ops::kModelLevel, Norm::final_norm, cap, gl), "gpu");
        std::printf("full_logits relative difference %.3g\n", rel_diff(cl, gl));
        QVERIFY(rel_diff(cl, gl) < 3e-2f);

        std::vector<TokenId> ids{0, 3, 1000, w_->config.vocab_size - 1};
        std::vector<engine::backend::PositionQuery> qs;
        std::vector<int64_t> tokens;
        for (int t = 0; t < n; t += 7) {
            qs.push_back({t / width, t % width, ids});
            tokens.push_back(t);
        }
        std::vector<engine::backend::PositionReadout> cr(qs.size()), gr(qs.size());
        must_ok(
            cpu_->read_positions(*ccan, tokens, qs, ops::kModelLevel, Norm::final_norm, cap, cr),
            "cpu read_positions");
        must_ok(
            gpu_->read_positions(*gcan, tokens, qs, ops::kModelLevel, Norm::final_norm, cap, gr),
            "gpu read_positions");
        for (size_t i = 0; i < qs.size(); ++i) {
            QVERIFY(std::fabs(cr[i].logsumexp - gr[i].logsumexp) < 5e-2f);
            QCOMPARE(gr[i].logits.size(), ids.size());
            for (size_t k = 0; k < ids.size(); ++k)
                QVERIFY(std::fabs(cr[i].logits[k] - gr[i].logits[k]) < 5e-2f);
        }
    }
#endif
};

int main(int argc, char** argv) {
    // QSKIP alone would exit 0 ("passed"); ctest counts exit code 77 as skipped.
    if (!engine::cuda_available()) {
        std::printf("SKIP: no CUDA device in this process (the CUDA operators cannot run here)\n");
        return 77;
    }
    QCoreApplication app(argc, argv);
    TestCudaOps t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_cuda_ops.moc"
