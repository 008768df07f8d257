// layer_timer: one DiffusionGemma 26B-A4B layer at the real shapes through llama.cpp's CPU path
// (ggml, as llama.cpp builds the layer: mul_mat for the projections, flash attention over an
// f16 K/V, argsort top-k routing and mul_mat_id for the experts), for bench/cpu_weights.sh to
// set beside bench-cpu_weights. Synthetic weights; nothing of a checkpoint is read.
//
//   layer_timer --type bf16|q8_0|mxfp4 --threads T [--prompt 512] [--rows 4] [--width 32]
//               [--repeat K]
//
// Types, the closest ggml has to each published format: bf16 (every linear BF16); q8_0 for FP8
// (every linear but the router Q8_0: 8-bit values, a scale per 32); mxfp4 for NVFP4 (experts and
// dense MLP MXFP4: E2M1 values with an E8M0 scale per 32; attention and router BF16). Prints
// "RESULT type=... prompt_ms_per_layer=... canvas_ms_per_layer=..." averaged over one sliding and
// one full layer, as bench-cpu_weights averages its layers.
//
// Built by bench/cpu_weights.sh against a ggml (llama.cpp's tensor library) CPU build.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ggml-cpu.h"
#include "ggml.h"

namespace {

struct Shape {
    int H = 2816, NH = 16, I = 2112, E = 128, MI = 704, K = 8;
    int hd = 256, kv = 8;
    bool full = false;  // full layers: 2 KV heads of 512, K = V (no v_proj)
};

uint64_t g_rng = 0x9E3779B97F4A7C15ull;
uint64_t next_random() {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

// Random values of the tensor's type with sane magnitudes.
void fill(ggml_tensor* t) {
    auto* p = static_cast<uint8_t*>(t->data);
    const size_t n = ggml_nbytes(t);
    switch (t->type) {
        case GGML_TYPE_F32:
            for (size_t i = 0; i + 3 < n; i += 4) {
                const float v = 0.02f * (float(next_random() % 1000) / 500.0f - 1.0f);
                std::memcpy(p + i, &v, 4);
            }
            return;
        case GGML_TYPE_BF16:
        case GGML_TYPE_F16:
            for (size_t i = 0; i + 1 < n; i += 2) {
                const uint64_t r = next_random();
                const uint16_t v = t->type == GGML_TYPE_BF16
                                       ? uint16_t(((r & 1) << 15) | ((120 + (r >> 1) % 4) << 7) |
                                                  ((r >> 8) & 0x7f))
                                       : uint16_t(((r & 1) << 15) | ((8 + (r >> 1) % 4) << 10) |
                                                  ((r >> 8) & 0x3ff));
                std::memcpy(p + i, &v, 2);
            }
            return;
        case GGML_TYPE_Q8_0:  // {f16 scale, 32 x int8}
            for (size_t b = 0; b + 34 <= n; b += 34) {
                const uint16_t d = 0x211F;  // 0.01
                std::memcpy(p + b, &d, 2);
                for (int i = 0; i < 32; ++i) p[b + 2 + i] = uint8_t(next_random());
            }
            return;
        case GGML_TYPE_MXFP4:  // {e8m0 scale, 16 bytes of E2M1 pairs}
            for (size_t b = 0; b + 17 <= n; b += 17) {
                p[b] = 120;
                for (int i = 0; i < 16; ++i) p[b + 1 + i] = uint8_t(next_random());
            }
            return;
        default:
            std::fprintf(stderr, "layer_timer: no fill for type %s\n", ggml_type_name(t->type));
            std::exit(1);
    }
}

ggml_tensor* weight(ggml_context* ctx, ggml_type type, int in, int out, int experts = 0) {
    ggml_tensor* t = experts ? ggml_new_tensor_3d(ctx, type, in, out, experts)
                             : ggml_new_tensor_2d(ctx, type, in, out);
    fill(t);
    return t;
}

ggml_tensor* norm(ggml_context* ctx, ggml_tensor* x, int dim) {
    ggml_tensor* w = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, dim);
    for (int i = 0; i < dim; ++i) static_cast<float*>(w->data)[i] = 1.0f;
    return ggml_mul(ctx, ggml_rms_norm(ctx, x, 1e-6f), w);
}

struct Types {
    ggml_type attn, dense, router, experts;
};

Types types_for(const std::string& name) {
    if (name == "bf16") return {GGML_TYPE_BF16, GGML_TYPE_BF16, GGML_TYPE_BF16, GGML_TYPE_BF16};
    if (name == "q8_0") return {GGML_TYPE_Q8_0, GGML_TYPE_Q8_0, GGML_TYPE_BF16, GGML_TYPE_Q8_0};
    if (name == "mxfp4") return {GGML_TYPE_BF16, GGML_TYPE_MXFP4, GGML_TYPE_BF16, GGML_TYPE_MXFP4};
    std::fprintf(stderr, "layer_timer: --type bf16, q8_0 or mxfp4\n");
    std::exit(2);
}

struct Layer {
    ggml_tensor *wq, *wk, *wv, *wo, *wg, *wu, *wd, *wr, *wgu, *wdn;
};

Layer make_layer(ggml_context* ctx, const Shape& s, const Types& t) {
    Layer L{};
    L.wq = weight(ctx, t.attn, s.H, s.NH * s.hd);
    L.wk = weight(ctx, t.attn, s.H, s.kv * s.hd);
    L.wv = s.full ? nullptr : weight(ctx, t.attn, s.H, s.kv * s.hd);
    L.wo = weight(ctx, t.attn, s.NH * s.hd, s.H);
    L.wg = weight(ctx, t.dense, s.H, s.I);
    L.wu = weight(ctx, t.dense, s.H, s.I);
    L.wd = weight(ctx, t.dense, s.I, s.H);
    L.wr = weight(ctx, t.router, s.H, s.E);
    L.wgu = weight(ctx, t.experts, s.H, 2 * s.MI, s.E);
    L.wdn = weight(ctx, t.experts, s.MI, s.H, s.E);
    return L;
}

// The layer over `T` tokens whose keys are `cache` cached positions then the tokens themselves,
// masked by `mask` [n_kv, T].
ggml_tensor* build(ggml_context* ctx, const Shape& s, const Layer& L, ggml_tensor* x, int T,
                   ggml_tensor* cache_k, ggml_tensor* cache_v, ggml_tensor* mask,
                   ggml_tensor* pos) {
    ggml_tensor* h = norm(ctx, x, s.H);
    ggml_tensor* q = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L.wq, h), s.hd, s.NH, T);
    ggml_tensor* kraw = ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L.wk, h), s.hd, s.kv, T);
    ggml_tensor* vraw =
        L.wv ? ggml_reshape_3d(ctx, ggml_mul_mat(ctx, L.wv, h), s.hd, s.kv, T) : kraw;
    q = ggml_rope_ext(ctx, norm(ctx, q, s.hd), pos, nullptr, s.full ? s.hd / 4 : s.hd,
                      GGML_ROPE_TYPE_NEOX, 0, s.full ? 1e6f : 1e4f, 1, 0, 1, 0, 0);
    ggml_tensor* k =
        ggml_rope_ext(ctx, norm(ctx, kraw, s.hd), pos, nullptr, s.full ? s.hd / 4 : s.hd,
                      GGML_ROPE_TYPE_NEOX, 0, s.full ? 1e6f : 1e4f, 1, 0, 1, 0, 0);
    ggml_tensor* v = ggml_rms_norm(ctx, vraw, 1e-6f);
    // The K/V as llama.cpp's cache holds them (f16), the cached positions first.
    k = ggml_cast(ctx, k, GGML_TYPE_F16);
    v = ggml_cast(ctx, v, GGML_TYPE_F16);
    if (cache_k) {
        k = ggml_concat(ctx, cache_k, k, 2);
        v = ggml_concat(ctx, cache_v, v, 2);
    }
    ggml_tensor* a =
        ggml_flash_attn_ext(ctx, ggml_permute(ctx, q, 0, 2, 1, 3), ggml_permute(ctx, k, 0, 2, 1, 3),
                            ggml_permute(ctx, v, 0, 2, 1, 3), mask, 1.0f, 0, 0);
    a = ggml_reshape_2d(ctx, a, s.hd * s.NH, T);
    ggml_tensor* x1 = ggml_add(ctx, x, norm(ctx, ggml_mul_mat(ctx, L.wo, a), s.H));
    // Dense MLP.
    ggml_tensor* h1 = norm(ctx, x1, s.H);
    ggml_tensor* d = ggml_mul_mat(
        ctx, L.wd,
        ggml_mul(ctx, ggml_gelu(ctx, ggml_mul_mat(ctx, L.wg, h1)), ggml_mul_mat(ctx, L.wu, h1)));
    // Router and experts.
    ggml_tensor* probs = ggml_soft_max(ctx, ggml_mul_mat(ctx, L.wr, norm(ctx, x1, s.H)));
    ggml_tensor* ids = ggml_argsort_top_k(ctx, probs, s.K);
    ggml_tensor* w8 = ggml_get_rows(ctx, ggml_reshape_3d(ctx, probs, 1, s.E, T), ids);
    ggml_tensor* he = ggml_reshape_3d(ctx, norm(ctx, x1, s.H), s.H, 1, T);
    ggml_tensor* gu = ggml_mul_mat_id(ctx, L.wgu, he, ids);  // [2MI, K, T]
    ggml_tensor* g = ggml_view_3d(ctx, gu, s.MI, s.K, T, gu->nb[1], gu->nb[2], 0);
    ggml_tensor* u = ggml_view_3d(ctx, gu, s.MI, s.K, T, gu->nb[1], gu->nb[2],
                                  static_cast<size_t>(s.MI) * ggml_element_size(gu));
    ggml_tensor* act = ggml_mul(ctx, ggml_gelu(ctx, ggml_cont(ctx, g)), u);
    ggml_tensor* ex = ggml_mul(ctx, ggml_mul_mat_id(ctx, L.wdn, act, ids), w8);  // [H, K, T]
    ggml_tensor* moe = ggml_view_2d(ctx, ex, s.H, T, ex->nb[2], 0);
    for (int i = 1; i < s.K; ++i)
        moe = ggml_add(ctx, moe, ggml_view_2d(ctx, ex, s.H, T, ex->nb[2], i * ex->nb[1]));
    ggml_tensor* both = ggml_add(ctx, norm(ctx, d, s.H), norm(ctx, moe, s.H));
    return ggml_add(ctx, x1, norm(ctx, both, s.H));
}

double time_graph(ggml_context* ctx, ggml_tensor* out, int threads, int repeat) {
    ggml_cgraph* gf = ggml_new_graph_custom(ctx, 4096, false);
    ggml_build_forward_expand(gf, out);
    ggml_graph_compute_with_ctx(ctx, gf, threads);  // warm-up
    std::vector<double> t;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        ggml_graph_compute_with_ctx(ctx, gf, threads);
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return *std::min_element(t.begin(), t.end());  // the best run, as bench-cpu_weights
}

// ms of one layer of kind `full` for the prompt and for the canvas.
std::pair<double, double> time_layer(bool full, const Types& types, int threads, int prompt,
                                     int rows, int width, int repeat) {
    Shape s;
    s.full = full;
    if (full) s.hd = 512, s.kv = 2;
    ggml_init_params params{size_t(3) << 30, nullptr, false};
    ggml_context* ctx = ggml_init(params);
    if (!ctx) std::exit(1);
    const Layer L = make_layer(ctx, s, types);
    // Prompt: causal over its own tokens.
    ggml_tensor* xp = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, s.H, prompt);
    fill(xp);
    ggml_tensor* pp = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, prompt);
    for (int i = 0; i < prompt; ++i) static_cast<int32_t*>(pp->data)[i] = i;
    ggml_tensor* mp = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, prompt, prompt);
    for (int i = 0; i < prompt; ++i)
        for (int j = 0; j < prompt; ++j)
            static_cast<ggml_fp16_t*>(mp->data)[i * prompt + j] =
                ggml_fp32_to_fp16(j <= i ? 0.0f : -INFINITY);
    const double tp =
        time_graph(ctx, build(ctx, s, L, xp, prompt, nullptr, nullptr, mp, pp), threads, repeat);
    // Canvas: rows x width tokens over the prompt's cache; a row sees the cache and itself.
    const int T = rows * width, nkv = prompt + T;
    ggml_tensor* xc = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, s.H, T);
    fill(xc);
    ggml_tensor* pc = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, T);
    for (int i = 0; i < T; ++i) static_cast<int32_t*>(pc->data)[i] = prompt + i % width;
    ggml_tensor* ck = ggml_new_tensor_3d(ctx, GGML_TYPE_F16, s.hd, s.kv, prompt);
    ggml_tensor* cv = ggml_new_tensor_3d(ctx, GGML_TYPE_F16, s.hd, s.kv, prompt);
    fill(ck);
    fill(cv);
    ggml_tensor* mc = ggml_new_tensor_2d(ctx, GGML_TYPE_F16, nkv, T);
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < nkv; ++j) {
            const bool visible = j < prompt || (j - prompt) / width == i / width;
            static_cast<ggml_fp16_t*>(mc->data)[i * nkv + j] =
                ggml_fp32_to_fp16(visible ? 0.0f : -INFINITY);
        }
    const double tc = time_graph(ctx, build(ctx, s, L, xc, T, ck, cv, mc, pc), threads, repeat);
    ggml_free(ctx);
    return {tp * 1e3, tc * 1e3};
}

}  // namespace

int main(int argc, char** argv) {
    std::string type = "bf16";
    int threads = 2, prompt = 512, rows = 4, width = 32, repeat = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--type")
            type = v;
        else if (a == "--threads")
            threads = std::atoi(v.c_str());
        else if (a == "--prompt")
            prompt = std::atoi(v.c_str());
        else if (a == "--rows")
            rows = std::atoi(v.c_str());
        else if (a == "--width")
            width = std::atoi(v.c_str());
        else if (a == "--repeat")
            repeat = std::atoi(v.c_str());
    }
    ggml_cpu_init();
    const Types t = types_for(type);
    const auto sliding = time_layer(false, t, threads, prompt, rows, width, repeat);
    const auto full = time_layer(true, t, threads, prompt, rows, width, repeat);
    std::printf(
        "ggml: avx512_bf16 %d; sliding layer prompt %.1f ms canvas %.1f ms; full layer "
        "prompt %.1f ms canvas %.1f ms\n",
        ggml_cpu_has_avx512_bf16(), sliding.first, sliding.second, full.first, full.second);
    std::printf("RESULT type=%s threads=%d prompt_ms_per_layer=%.2f canvas_ms_per_layer=%.2f\n",
                type.c_str(), threads, (sliding.first + full.first) / 2,
                (sliding.second + full.second) / 2);
    return 0;
}
