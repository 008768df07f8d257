// pass_timer: llama.cpp's DiffusionGemma timed per prompt encoding and per denoising pass, the
// same two units bench-engine_passes times on our engine. bench/llama_cpp.sh compiles it against
// a llama.cpp build folder (its public llama.h and libllama only) and runs both on the same
// checkpoint, cores and thread count.
//
// It drives llama.cpp the way its own diffusion runner does with prompt caching on:
//  * encode: the prompt-prefill phase over P prompt tokens (llama_diffusion_set_phase 1), which
//    writes the prompt's K/V store. Every row asks for logits, as llama.cpp's diffusion runner
//    does: a DiffusionGemma context has no memory module, so llama_decode runs llama_context::
//    encode, which outputs the logits of every row whatever the batch asks (this llama.cpp,
//    10a2613aa). The soft-capped vocabulary head over the prompt is therefore part of llama.cpp's
//    prompt encoding; our encoder pass computes no logits.
//  * pass:   the canvas-decode phase (llama_diffusion_set_phase 2) over the model's canvas
//    (diffusion.canvas_length tokens) reading that store, with self-conditioning from the first
//    pass's logits at temperature 0.8, then llama_get_logits for every canvas row.
// Token ids: prompt i -> 1000 + (7919 i + 17) mod 200000, canvas j -> 1000 + (104729 j + 3) mod
// 200000 (the same ids bench-engine_passes uses). Each figure is the median of --repeat timed runs
// after one untimed warm-up. Thread placement is the caller's (taskset).
//
// Usage: pass_timer --model FILE.gguf [--threads N] [--prompt-tokens P] [--repeat K]
//                   [--flash-attn auto|on|off] [--dump-logits PREFIX]
// Prints key=value lines: prompt_tokens, canvas, vocab, flash_attn, encode_ms, pass_ms.
// --dump-logits PREFIX times nothing: it runs one prefill, the unconditioned canvas pass and the
// self-conditioned one, and writes their logits [canvas, vocab] as raw little-endian f32 to
// PREFIX.first.f32 and PREFIX.sc.f32 (bench/llama_cpp/compare_ref.py checks them against the
// PyTorch reference). --flash-attn sets the context's flash_attn_type (default auto, llama.cpp's
// default; on this CPU backend flash attention casts K and V to F16, which costs accuracy).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "llama.h"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& message) {
    std::fprintf(stderr, "pass_timer: %s\n", message.c_str());
    std::exit(1);
}

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One sequence at positions first_pos.., logits requested where `want(i)`.
template <class Want>
void fill_batch(llama_batch& b, const std::vector<llama_token>& ids, int first_pos, Want want) {
    b.n_tokens = static_cast<int32_t>(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
        b.token[i] = ids[i];
        b.pos[i] = first_pos + static_cast<int>(i);
        b.n_seq_id[i] = 1;
        b.seq_id[i][0] = 0;
        b.logits[i] = want(i) ? 1 : 0;
    }
}

void quiet_log(ggml_log_level level, const char* text, void*) {
    if (level == GGML_LOG_LEVEL_ERROR) std::fputs(text, stderr);
}

void write_f32(const std::string& path, const float* data, size_t n) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(n * sizeof(float)));
    if (!out.flush()) die("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
    std::string model_path, dump_prefix, flash_attn = "auto";
    int threads = 1, prompt_tokens = 128, repeat = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) die("option " + a + " needs a value");
        const std::string v = argv[++i];
        if (a == "--model")
            model_path = v;
        else if (a == "--threads")
            threads = std::max(1, std::atoi(v.c_str()));
        else if (a == "--prompt-tokens")
            prompt_tokens = std::max(1, std::atoi(v.c_str()));
        else if (a == "--repeat")
            repeat = std::max(1, std::atoi(v.c_str()));
        else if (a == "--flash-attn")
            flash_attn = v;
        else if (a == "--dump-logits")
            dump_prefix = v;
        else
            die("unknown option " + a);
    }
    if (model_path.empty()) die("--model FILE.gguf is required");
    if (flash_attn != "auto" && flash_attn != "on" && flash_attn != "off")
        die("--flash-attn " + flash_attn + ": expected auto, on or off");

    llama_log_set(quiet_log, nullptr);
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    llama_model* model = llama_model_load_from_file(model_path.c_str(), mp);
    if (!model) die("cannot load " + model_path);

    char meta[32] = {};
    if (llama_model_meta_val_str(model, "diffusion.canvas_length", meta, sizeof meta) < 0)
        die(model_path + " has no diffusion.canvas_length (not a DiffusionGemma GGUF)");
    const int C = std::atoi(meta);
    const int P = prompt_tokens;
    const int vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));

    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = static_cast<uint32_t>(P + C);
    cp.n_batch = cp.n_ubatch = static_cast<uint32_t>(std::max(P, C));  // one ubatch per phase
    cp.n_threads = cp.n_threads_batch = threads;
    cp.no_perf = true;
    cp.flash_attn_type = flash_attn == "on"    ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                         : flash_attn == "off" ? LLAMA_FLASH_ATTN_TYPE_DISABLED
                                               : LLAMA_FLASH_ATTN_TYPE_AUTO;
    llama_context* ctx = llama_init_from_model(model, cp);
    if (!ctx) die("cannot create a context");
    llama_set_causal_attn(ctx, false);

    std::vector<llama_token> prompt(static_cast<size_t>(P)), canvas(static_cast<size_t>(C));
    for (int i = 0; i < P; ++i) prompt[size_t(i)] = llama_token(1000 + (7919LL * i + 17) % 200000);
    for (int j = 0; j < C; ++j) canvas[size_t(j)] = llama_token(1000 + (104729LL * j + 3) % 200000);
    llama_batch batch = llama_batch_init(std::max(P, C), 0, 1);

    auto prefill = [&] {
        llama_diffusion_set_phase(model, 1, P);
        llama_diffusion_set_sc(model, nullptr, 0.0f, 1.0f, false);
        fill_batch(batch, prompt, 0, [](size_t) { return true; });  // encode() outputs all
        if (llama_decode(ctx, batch) != 0) die("prefill llama_decode failed");
        llama_synchronize(ctx);
    };
    // A first (unconditioned) canvas pass gives the self-conditioning input of the timed ones.
    std::vector<float> sc(static_cast<size_t>(C) * size_t(vocab));
    auto decode_pass = [&](bool with_sc) -> const float* {
        llama_diffusion_set_phase(model, 2, P);
        llama_diffusion_set_sc(model, with_sc ? sc.data() : nullptr, with_sc ? 1.0f : 0.0f,
                               1.0f / 0.8f, true);
        fill_batch(batch, canvas, P, [](size_t) { return true; });
        if (llama_decode(ctx, batch) != 0) die("canvas llama_decode failed");
        const float* logits = llama_get_logits(ctx);
        if (!logits) die("no logits");
        return logits;
    };

    if (!dump_prefix.empty()) {
        prefill();
        std::memcpy(sc.data(), decode_pass(false), sc.size() * sizeof(float));
        write_f32(dump_prefix + ".first.f32", sc.data(), sc.size());
        write_f32(dump_prefix + ".sc.f32", decode_pass(true), sc.size());
        llama_diffusion_set_phase(model, 0, 0);
        std::printf("prompt_tokens=%d\ncanvas=%d\nvocab=%d\n", P, C, vocab);
        std::printf("dumped=%s.first.f32 %s.sc.f32\n", dump_prefix.c_str(), dump_prefix.c_str());
        llama_batch_free(batch);
        llama_free(ctx);
        llama_model_free(model);
        llama_backend_free();
        return 0;
    }

    std::vector<double> encode_ms;
    for (int rep = 0; rep <= repeat; ++rep) {
        const auto t0 = Clock::now();
        prefill();
        if (rep > 0) encode_ms.push_back(ms_since(t0));
    }

    {
        const float* first = decode_pass(false);
        std::memcpy(sc.data(), first, sc.size() * sizeof(float));
    }
    std::vector<double> pass_ms;
    for (int rep = 0; rep <= repeat; ++rep) {
        const auto t0 = Clock::now();
        decode_pass(true);
        if (rep > 0) pass_ms.push_back(ms_since(t0));
    }
    llama_diffusion_set_phase(model, 0, 0);

    std::printf("prompt_tokens=%d\ncanvas=%d\nvocab=%d\n", P, C, vocab);
    std::printf("flash_attn=%s\n", llama_flash_attn_type_name(cp.flash_attn_type));
    std::printf("encode_ms=%.3f\npass_ms=%.3f\n", median(encode_ms), median(pass_ms));

    llama_batch_free(batch);
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
