// bench-engine_vs_reference: the local engine against the independent PyTorch reference
// (tests/reference/diffusion_gemma_ref.py), both pinned to the same thread count, in the same run:
//  * decision: a 512-token prompt encoded once, 3 questions, 4 noise draws (4 canvas rows of 32),
//    slot readout. Prints both latencies and their ratio, the engine's achieved GFLOP/s against an
//    OpenBLAS sgemm peak measured here, and the peak memory of each side.
//  * generation: one denoising pass as the generation loop runs it (one decoder pass over a
//    W-wide canvas with self-conditioning logits from a previous pass, plus the full soft-capped
//    logits of every position), after the same prompt. W is the sized canvas of a 32-token answer
//    (min(config canvas_length, max_new_tokens), --gen-width); prints engine vs reference and
//    their ratio, and the engine's pass at the config's canvas_length (the old fixed canvas).
// Load time (and the prompt's encoding, for generation) is excluded on both sides.
//
// Usage: bench-engine_vs_reference [--model DIR] [--threads N] [--repeat K] [--prompt-tokens P]
//                                  [--gen-width W] [--engine-only] [--openblas-core NAME]
// --engine-only times the engine's slot read and generation pass alone (no reference): for
// profiling.
// Without --model it makes (once) the `small` preset with `dgem make-tiny-model`.

#include <cblas.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend/compute_backend.h"
#include "base/time.h"
#include "cpu/gemm_nt.h"  // the generation pass drives the CPU backend directly
#include "engine/engine.h"
#include "first_pass.h"
#include "model/weights.h"

namespace fs = std::filesystem;
using engine::TokenId;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    fs::path model_dir;
    int threads = 0;
    int repeat = 3;
    int prompt_tokens = 512;
    int canvas_width = 32;
    int draws = 4;
    int gen_width = 32;  // the sized canvas of a 32-token answer
    bool engine_only = false;
};

using base::ms_since;

[[noreturn]] void die(const std::string& message) {
    std::fprintf(stderr, "bench-engine_vs_reference: %s\n", message.c_str());
    std::exit(1);
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) die("option " + a + " needs a value");
            return argv[++i];
        };
        if (a == "--model")
            o.model_dir = value();
        else if (a == "--threads")
            o.threads = std::stoi(value());
        else if (a == "--repeat")
            o.repeat = std::max(1, std::stoi(value()));
        else if (a == "--prompt-tokens")
            o.prompt_tokens = std::max(8, std::stoi(value()));
        else if (a == "--engine-only")
            o.engine_only = true;
        else if (a == "--openblas-core")
            (void)value();  // read by choose_openblas_core before the options
        else if (a == "--gen-width")
            o.gen_width = std::max(1, std::stoi(value()));
        else
            die("unknown option " + a +
                "; accepted: --model DIR, --threads N, --repeat K, --prompt-tokens P, "
                "--gen-width W, --engine-only, --openblas-core NAME");
    }
    if (o.threads <= 0)
        o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return o;
}

// Single-quotes one argument for /bin/sh.
std::string sh_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs a shell command and returns its standard output; stderr passes through.
std::string run_capture(const std::string& command, int* exit_code) {
    std::string out;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) die("cannot run: " + command);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    return out;
}

// Makes the `small` preset model with dgem the first time; later runs reuse it.
fs::path ensure_small_model(const Options& o) {
    if (!o.model_dir.empty()) return o.model_dir;
    const fs::path dir = fs::path(DS_BINARY_DIR) / "models" / "small";
    if (fs::exists(dir / "config.json")) return dir;
    const fs::path dgem = fs::path(DS_BINARY_DIR) / "bin" / "dgem";
    std::printf("making the small preset model in %s ...\n", dir.c_str());
    const std::string cmd =
        sh_quote(dgem.string()) + " make-tiny-model --preset small --out " + sh_quote(dir.string());
    if (std::system(cmd.c_str()) != 0) die("failed: " + cmd);
    return dir;
}

// The model's sizes, read from config.json, for the FLOP count.
struct Sizes {
    int64_t vocab, hidden, heads, kv, head_dim, global_kv, global_head_dim, inter, experts, top_k,
        moe_inter, window;
    std::vector<bool> sliding;
};

Sizes read_sizes(const fs::path& model_dir) {
    std::ifstream in(model_dir / "config.json");
    if (!in) die((model_dir / "config.json").string() + ": cannot be read");
    const auto j = nlohmann::json::parse(in);
    const auto& t = j.contains("text_config") ? j["text_config"] : j;
    Sizes s{};
    s.vocab = t.at("vocab_size");
    s.hidden = t.at("hidden_size");
    s.heads = t.at("num_attention_heads");
    s.kv = t.at("num_key_value_heads");
    s.head_dim = t.value("head_dim", 256);
    s.global_kv = t.value("num_global_key_value_heads", s.kv);
    s.global_head_dim = t.value("global_head_dim", 512);
    s.inter = t.at("intermediate_size");
    s.experts = t.at("num_experts");
    s.top_k = t.at("top_k_experts");
    s.moe_inter = t.at("moe_intermediate_size");
    s.window = t.value("sliding_window", 1024);
    for (const auto& lt : t.at("layer_types")) s.sliding.push_back(lt == "sliding_attention");
    return s;
}

// Multiply-adds counted as 2 FLOPs: projections, attention, dense MLP, router, the top-k experts,
// and the full-vocabulary head row at each slot (log-softmax needs the whole row).
double workload_flops(const Sizes& s, int64_t prompt, int64_t rows, int64_t width,
                      int64_t n_slots) {
    double f = 0;
    const double per_token_ffn = 2.0 * (3 * s.hidden * s.inter + s.hidden * s.experts +
                                        s.top_k * 3 * s.hidden * s.moe_inter);
    for (bool sliding : s.sliding) {
        const int64_t hd = sliding ? s.head_dim : s.global_head_dim;
        const int64_t kv = sliding ? s.kv : s.global_kv;
        const int64_t v_out = sliding ? kv * hd : 0;  // full layers: V is the K projection
        const double per_token_proj = 2.0 * s.hidden * (2 * s.heads * hd + kv * hd + v_out);
        // Encoder: causal keys, sliding layers capped at the window.
        double enc_keys = 0;
        for (int64_t i = 0; i < prompt; ++i)
            enc_keys += sliding ? std::min<int64_t>(i + 1, s.window) : i + 1;
        f += prompt * (per_token_proj + per_token_ffn) + 4.0 * s.heads * hd * enc_keys;
        // Decoder: every canvas token sees the visible cache plus the whole canvas.
        const int64_t cache = sliding ? std::min<int64_t>(prompt, s.window - 1) : prompt;
        f += rows * width * (per_token_proj + per_token_ffn + 4.0 * s.heads * hd * (cache + width));
    }
    f += n_slots * 2.0 * s.hidden * s.vocab;
    return f;
}

double cpu_seconds();

struct Peak {
    double wall_gflops = 0;  // per second of wall time
    double cpu_gflops = 0;   // per CPU-second (all threads): steadier on a shared machine
};

// Best single-precision GEMM rate of OpenBLAS on this machine with the given thread count.
Peak sgemm_peak(int threads) {
    openblas_set_num_threads(threads);
    const int n = 1536;
    std::vector<float> a(size_t(n) * n, 0.5f), b(size_t(n) * n, 0.25f), c(size_t(n) * n);
    Peak best;
    const double flop = 2.0 * n * n * double(n);
    for (int rep = 0; rep < 15; ++rep) {  // the best of many: a steadier peak on a shared machine
        const double c0 = cpu_seconds();
        const auto t0 = Clock::now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0f, a.data(), n, b.data(),
                    n, 0.0f, c.data(), n);
        const double s = ms_since(t0) / 1e3;
        best.wall_gflops = std::max(best.wall_gflops, flop / s / 1e9);
        best.cpu_gflops =
            std::max(best.cpu_gflops, flop / std::max(cpu_seconds() - c0, 1e-9) / 1e9);
    }
    return best;
}

struct Workload {
    engine::SlotReadRequest request;
    int slot_count = 0;
};

std::vector<TokenId> single_token(const engine::Tokenizer& tok, const std::string& text) {
    auto ids = tok.encode(text);
    if (ids.size() != 1) die("label '" + text + "' is not one token in this tokenizer");
    return ids;
}

// A decision-shaped request: chat prompt cut to `prompt_tokens`, an answer template with three
// questions, and `draws` rows whose slots hold seeded uniform noise (PROTOCOLS.md section 3).
Workload make_workload(const engine::Tokenizer& tok, const Options& o, int vocab) {
    using namespace engine::tokens;
    std::string state;
    for (int i = 0; state.size() < size_t(o.prompt_tokens) * 8; ++i)
        state += "Ticket " + std::to_string(i) +
                 ": the customer reports that the invoice total does not match the order, asks "
                 "whether the refund was processed, and mentions a delivery delay of three days. ";
    std::vector<TokenId> prompt = {kBos, kTurnOpen};
    for (TokenId t : tok.encode("user\n<user_text>\n" + state)) prompt.push_back(t);
    const std::vector<TokenId> tail_text = tok.encode(
        "</user_text>\n\n<instructions>\nrefund: yes|no\nurgency: low|medium|high\n"
        "team: A|B|C|D\n</instructions>");
    std::vector<TokenId> tail = tail_text;
    for (TokenId t : {kTurnClose, kNewline, kTurnOpen}) tail.push_back(t);
    for (TokenId t : tok.encode("model\n")) tail.push_back(t);
    const size_t keep = size_t(o.prompt_tokens) - tail.size();
    if (prompt.size() < keep) die("prompt text too short");
    prompt.resize(keep);
    prompt.insert(prompt.end(), tail.begin(), tail.end());

    struct Question {
        std::string id;
        std::vector<std::string> labels;
    };
    const std::vector<Question> questions = {{"refund", {"yes", "no"}},
                                             {"urgency", {"low", "medium", "high"}},
                                             {"team", {"A", "B", "C", "D"}}};
    std::vector<TokenId> canvas = {kChannelOpen};
    for (TokenId t : tok.encode("thought\n")) canvas.push_back(t);
    canvas.push_back(kChannelClose);
    std::vector<engine::SlotSpec> specs;
    for (size_t q = 0; q < questions.size(); ++q) {
        if (q) canvas.push_back(kNewline);
        for (TokenId t : tok.encode(questions[q].id + ": ")) canvas.push_back(t);
        engine::SlotSpec slot;
        slot.pos = static_cast<int32_t>(canvas.size());
        for (const auto& label : questions[q].labels)
            slot.label_ids.push_back(single_token(tok, label)[0]);
        canvas.push_back(slot.label_ids[0]);
        specs.push_back(slot);
    }
    canvas.push_back(kTurnClose);
    if (canvas.size() > size_t(o.canvas_width)) die("answer template longer than the canvas width");
    canvas.resize(size_t(o.canvas_width), kPad);

    Workload w;
    w.request.prompt_ids = prompt;
    for (int k = 0; k < o.draws; ++k) {
        std::mt19937_64 rng(uint64_t(1234 + k * 7919));
        std::uniform_int_distribution<TokenId> noise(0, vocab - 1);
        engine::CanvasRow row{canvas, specs};
        for (const auto& s : specs) row.ids[size_t(s.pos)] = noise(rng);
        w.request.rows.push_back(std::move(row));
        w.slot_count += static_cast<int>(specs.size());
    }
    return w;
}

nlohmann::json request_json(const engine::SlotReadRequest& r) {
    nlohmann::json j;
    j["prompt_ids"] = r.prompt_ids;
    j["canvases"] = nlohmann::json::array();
    j["slots"] = nlohmann::json::array();
    for (const auto& row : r.rows) {
        j["canvases"].push_back(row.ids);
        nlohmann::json row_slots = nlohmann::json::array();
        for (const auto& s : row.slot_specs)
            row_slots.push_back({{"pos", s.pos}, {"label_ids", s.label_ids}});
        j["slots"].push_back(row_slots);
    }
    return j;
}

// The reference runs on the same cores and with the same thread count as the engine: its
// intra-op pool (torch.set_num_threads), OpenMP/OpenBLAS/MKL pools (their variables) and the
// process itself (taskset to the CPUs this process is pinned to, see pin_to_first_cpus).
std::string pinned_python(const Options& o) {
    const std::string n = std::to_string(o.threads);
    // OMP_WAIT_POLICY=PASSIVE: torch calls OpenBLAS's threaded sgemm from outside its OpenMP
    // regions, and OpenMP's idle workers spin by default, taking the very cores OpenBLAS's
    // threads need (seen at 2 threads: 1,930 ms spinning against 786 ms passive).
    return "env OMP_NUM_THREADS=" + n + " OPENBLAS_NUM_THREADS=" + n + " MKL_NUM_THREADS=" + n +
           " OMP_WAIT_POLICY=PASSIVE" + " taskset -c 0-" + std::to_string(o.threads - 1) +
           " /usr/bin/python3 ";
}

// OpenBLAS picks its kernels once, when it loads, from the CPU it recognises; the 0.3.21 Debian
// ships does not know CPUs newer than it (Zen 5 gets its SSE3 "Prescott" kernels, a quarter of
// the machine's sgemm rate). A peak measured with those would flatter us, and the PyTorch
// reference (Debian's torch calls the same OpenBLAS) would run slower than it can. So this
// re-runs itself once with the OpenBLAS core that matches the CPU's vector units, for the peak
// and for the reference alike, whatever OPENBLAS_CORETYPE the environment holds (machine images
// set it: one here said Haswell, which halves the peak on an AVX-512 CPU). --openblas-core NAME
// chooses another core on purpose.
const char* matching_openblas_core() {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
    return nullptr;
}

void choose_openblas_core(int argc, char** argv) {
    constexpr const char* kChosen = "DS_BENCH_OPENBLAS_CORE_SET";  // set once, before the re-run
    if (std::getenv(kChosen)) return;
    std::string core = matching_openblas_core() ? matching_openblas_core() : "";
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--openblas-core") core = argv[i + 1];
    if (core.empty()) return;
    const char* inherited = std::getenv("OPENBLAS_CORETYPE");
    if (inherited && core == inherited) return;  // already loaded with it
    if (inherited && *inherited)
        std::fprintf(stderr,
                     "bench-engine_vs_reference: OPENBLAS_CORETYPE=%s from the environment "
                     "replaced by %s (--openblas-core NAME to choose)\n",
                     inherited, core.c_str());
    ::setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
    ::setenv(kChosen, "1", 1);
    ::execv("/proc/self/exe", argv);
    die("cannot re-run with OPENBLAS_CORETYPE=" + core + ": " + std::strerror(errno));
}

// Pins this process (the engine's threads and the sgemm peak) to CPUs 0..threads-1.
void pin_to_first_cpus(int threads) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c = 0; c < threads; ++c) CPU_SET(c, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
        die("cannot pin to CPUs 0-" + std::to_string(threads - 1) + ": " + std::strerror(errno));
}

nlohmann::json run_reference(const fs::path& model_dir, const Workload& w, const Options& o) {
    const fs::path req =
        fs::temp_directory_path() / ("dgem-bench-ref-" + std::to_string(::getpid()) + ".json");
    std::ofstream(req) << request_json(w.request).dump();
    const fs::path script =
        fs::path(DS_SOURCE_DIR) / "tests" / "reference" / "diffusion_gemma_ref.py";
    const std::string cmd = pinned_python(o) + sh_quote(script.string()) + " --model " +
                            sh_quote(model_dir.string()) + " --input " + sh_quote(req.string()) +
                            " --bench --threads " + std::to_string(o.threads) + " --repeat " +
                            std::to_string(o.repeat);
    int rc = 0;
    const std::string out = run_capture(cmd, &rc);
    fs::remove(req);
    if (rc != 0) die("the PyTorch reference failed (exit " + std::to_string(rc) + "): " + cmd);
    return nlohmann::json::parse(out);
}

struct PassTiming {
    double wall_ms = 1e300, cpu_ms = 0;
};

// The generation pass on the engine's CPU backend: the prompt encoded once, a first pass over a
// seeded noise canvas of `width` (no self-conditioning) whose logits / 0.8 (step 1 of 48's
// temperature) become the self-conditioning input, then `repeat` timed passes of decode with
// that input + full logits (one untimed warm-up first). `sc_out` receives the input, for the
// reference.
PassTiming engine_generation_pass(engine::backend::ComputeBackend& be,
                                  const std::vector<TokenId>& prompt, int width, int repeat,
                                  std::vector<TokenId>& ids_out, std::vector<float>* sc_out) {
    const int vocab = be.config().vocab_size;
    engine::CancelToken cancel;
    auto cache = be.create_cache(static_cast<int>(prompt.size()));
    if (!cache) die("engine create_cache: " + cache.error().message);
    if (auto r = be.encode(**cache, prompt, cancel); !r) die("engine encode: " + r.error().message);
    std::mt19937_64 rng(uint64_t(4242 + width));
    std::uniform_int_distribution<TokenId> noise(0, vocab - 1);
    ids_out.resize(size_t(width));
    for (auto& id : ids_out) id = noise(rng);
    engine::backend::DecodeBatch batch;
    batch.rows = 1;
    batch.width = width;
    batch.ids = ids_out;
    auto first = first_pass_logits(be, **cache, batch, cancel);
    if (!first) die("engine first pass: " + first.error().message);
    std::vector<float> sc = std::move(*first), z;
    batch.self_conditioning_logits = sc.data();
    PassTiming best;
    for (int rep = 0; rep < repeat + 1; ++rep) {
        const double c0 = cpu_seconds();
        const auto t0 = Clock::now();
        auto decoded = be.decode(**cache, batch, cancel);
        if (!decoded) die("engine decode: " + decoded.error().message);
        if (auto r = be.logits(**decoded, z); !r) die("engine logits: " + r.error().message);
        const double ms = ms_since(t0), cpu_ms = (cpu_seconds() - c0) * 1e3;
        if (rep > 0 && ms < best.wall_ms) best = {ms, cpu_ms};
    }
    if (sc_out) *sc_out = std::move(sc);
    return best;
}

nlohmann::json run_reference_generation(const fs::path& model_dir,
                                        const std::vector<TokenId>& prompt,
                                        const std::vector<TokenId>& ids,
                                        const std::vector<float>& sc, const Options& o) {
    const std::string tag = "dgem-bench-gen-" + std::to_string(::getpid());
    const fs::path req = fs::temp_directory_path() / (tag + ".json");
    const fs::path prev = fs::temp_directory_path() / (tag + ".f32");
    std::ofstream(prev, std::ios::binary)
        .write(reinterpret_cast<const char*>(sc.data()),
               static_cast<std::streamsize>(sc.size() * sizeof(float)));
    nlohmann::json j;
    j["prompt_ids"] = prompt;
    j["canvases"] = nlohmann::json::array({ids});
    j["previous_logits"] = prev.string();
    std::ofstream(req) << j.dump();
    const fs::path script =
        fs::path(DS_SOURCE_DIR) / "tests" / "reference" / "diffusion_gemma_ref.py";
    const std::string cmd = pinned_python(o) + sh_quote(script.string()) + " --model " +
                            sh_quote(model_dir.string()) + " --input " + sh_quote(req.string()) +
                            " --bench-generation --threads " + std::to_string(o.threads) +
                            " --repeat " + std::to_string(o.repeat);
    int rc = 0;
    const std::string out = run_capture(cmd, &rc);
    fs::remove(req);
    fs::remove(prev);
    if (rc != 0) die("the PyTorch reference failed (exit " + std::to_string(rc) + "): " + cmd);
    return nlohmann::json::parse(out);
}

// CPU seconds (user + system, all threads) this process has used so far.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
    choose_openblas_core(argc, argv);
    const Options o = parse_options(argc, argv);
    const fs::path model_dir = ensure_small_model(o);
    const Sizes sizes = read_sizes(model_dir);
    pin_to_first_cpus(o.threads);
    std::printf("pinned: both sides on CPUs 0-%d, %d thread(s) each\n", o.threads - 1, o.threads);
    std::printf("kernels: OpenBLAS core %s (sgemm peak and the reference's torch), engine %s\n",
                openblas_get_corename(), engine::cpu::gemm_isa_name(engine::cpu::best_gemm_isa()));

    const Peak peak = sgemm_peak(o.threads);

    engine::EngineOptions eo;
    eo.model_dir = model_dir;
    eo.device = engine::Device::Cpu;
    eo.threads = o.threads;
    auto opened = engine::Engine::open(eo);
    if (!opened) die("engine: " + opened.error().message);
    auto& eng = *opened.value();
    const Workload w = make_workload(eng.tokenizer(), o, eng.info().vocab_size);

    engine::CancelToken cancel;
    double engine_best = 1e300, engine_cpu_ms = 0;
    engine::ReadTimings best_timings;
    for (int rep = 0; rep < o.repeat + 1; ++rep) {  // the first run warms caches and is not kept
        const double c0 = cpu_seconds();
        const auto t0 = Clock::now();
        auto r = eng.read_slots(w.request, cancel);
        const double ms = ms_since(t0);
        const double cpu_ms = (cpu_seconds() - c0) * 1e3;
        if (!r) die("engine read_slots: " + r.error().message);
        if (rep > 0 && ms < engine_best) {
            engine_best = ms;
            engine_cpu_ms = cpu_ms;
            best_timings = r->timings;
        }
    }
    const double engine_rss = peak_rss_mib();

    if (o.engine_only) {
        std::printf("engine    : %9.2f ms wall (encode %.2f, decode %.2f, readout %.2f)\n",
                    engine_best, best_timings.encode_ms, best_timings.decode_ms,
                    best_timings.readout_ms);
        auto weights = engine::model::load_model_weights(model_dir);
        if (!weights) die("engine weights: " + weights.error().message);
        auto backend = engine::backend::make_cpu_backend(weights.value(), o.threads);
        if (!backend) die("engine backend: " + backend.error().message);
        std::vector<TokenId> ids;
        const PassTiming pass = engine_generation_pass(**backend, w.request.prompt_ids, o.gen_width,
                                                       o.repeat, ids, nullptr);
        std::printf("generation: %9.2f ms wall per pass at W %d\n", pass.wall_ms, o.gen_width);
        return 0;
    }
    const nlohmann::json ref = run_reference(model_dir, w, o);
    const double ref_ms = ref.at("total_ms");
    const double ref_cpu_ms = ref.at("cpu_ms");
    const double flops =
        workload_flops(sizes, int64_t(w.request.prompt_ids.size()), int64_t(w.request.rows.size()),
                       o.canvas_width, w.slot_count);
    const double engine_gflops = flops / (engine_best / 1e3) / 1e9;

    std::printf("workload: model %s, prompt %zu tokens, %zu rows x %d, %d slots, %d threads\n",
                model_dir.filename().c_str(), w.request.prompt_ids.size(), w.request.rows.size(),
                o.canvas_width, w.slot_count, o.threads);
    std::printf(
        "engine    : %9.2f ms wall (encode %.2f, decode %.2f, readout %.2f), %9.2f ms CPU, "
        "peak RSS %.1f MiB\n",
        engine_best, best_timings.encode_ms, best_timings.decode_ms, best_timings.readout_ms,
        engine_cpu_ms, engine_rss);
    std::printf(
        "reference : %9.2f ms wall (encode %.2f, decode %.2f, readout %.2f), %9.2f ms CPU, "
        "peak RSS %.1f MiB\n",
        ref_ms, ref.at("encode_ms").get<double>(), ref.at("decode_ms").get<double>(),
        ref.at("readout_ms").get<double>(), ref_cpu_ms, ref.at("peak_rss_mib").get<double>());
    // CPU time is the steadier figure on a shared machine; wall time is what a user waits.
    std::printf(
        "ratio     : engine is %.2fx faster than the reference in wall time, %.2fx in CPU "
        "time (aim >= 2x)\n",
        ref_ms / engine_best, ref_cpu_ms / std::max(engine_cpu_ms, 1e-9));
    const double engine_cpu_gflops = flops / (engine_cpu_ms / 1e3) / 1e9;
    std::printf(
        "compute   : %.3f GFLOP in the workload; engine %.1f GFLOP/s = %.1f%% of the sgemm peak "
        "%.1f GFLOP/s (OpenBLAS, %d threads); per CPU-second: engine %.1f vs sgemm %.1f (%.1f%%)\n",
        flops / 1e9, engine_gflops, 100.0 * engine_gflops / peak.wall_gflops, peak.wall_gflops,
        o.threads, engine_cpu_gflops, peak.cpu_gflops, 100.0 * engine_cpu_gflops / peak.cpu_gflops);

    // Generation: one denoising pass, sized canvas vs the reference, then the config's canvas.
    auto weights = engine::model::load_model_weights(model_dir);
    if (!weights) die("engine weights: " + weights.error().message);
    auto backend = engine::backend::make_cpu_backend(weights.value(), o.threads);
    if (!backend) die("engine backend: " + backend.error().message);
    const int config_width = eng.info().canvas_length;
    std::vector<TokenId> gen_ids;
    std::vector<float> gen_sc;
    const PassTiming sized = engine_generation_pass(**backend, w.request.prompt_ids, o.gen_width,
                                                    o.repeat, gen_ids, &gen_sc);
    const nlohmann::json gref =
        run_reference_generation(model_dir, w.request.prompt_ids, gen_ids, gen_sc, o);
    gen_sc = {};
    std::vector<TokenId> wide_ids;
    const PassTiming wide = engine_generation_pass(**backend, w.request.prompt_ids, config_width,
                                                   o.repeat, wide_ids, nullptr);
    const double gref_ms = gref.at("pass_ms"), gref_cpu_ms = gref.at("cpu_ms");
    std::printf(
        "generation: one pass (self-conditioned decoder + full %d-wide logits) after the prompt, "
        "%d threads\n",
        eng.info().vocab_size, o.threads);
    std::printf("engine    : %9.2f ms wall, %9.2f ms CPU per pass at W %d\n", sized.wall_ms,
                sized.cpu_ms, o.gen_width);
    std::printf("reference : %9.2f ms wall, %9.2f ms CPU per pass at W %d, peak RSS %.1f MiB\n",
                gref_ms, gref_cpu_ms, o.gen_width, gref.at("peak_rss_mib").get<double>());
    std::printf(
        "ratio     : engine is %.2fx faster than the reference in wall time, %.2fx in CPU "
        "time\n",
        gref_ms / sized.wall_ms, gref_cpu_ms / std::max(sized.cpu_ms, 1e-9));
    std::printf(
        "canvas    : engine %9.2f ms wall (%.2f ms CPU) per pass at the config's W %d vs %.2f ms "
        "(%.2f ms CPU) at W %d: %.2fx\n",
        wide.wall_ms, wide.cpu_ms, config_width, sized.wall_ms, sized.cpu_ms, o.gen_width,
        wide.wall_ms / sized.wall_ms);
    return 0;
}
