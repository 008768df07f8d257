// bench-cpu_weights: the CPU backend with weights held as published (issue 41) at the real
// 26B-A4B layer shapes (scripts/gpu/diffusiongemma-26b-a4b.config.json: hidden 2816, 16 heads,
// sliding layers 8 KV heads of 256, full layers 2 KV heads of 512 with K=V, dense MLP 2112,
// 128 experts of 704, top 8, the 262,144-token tied head), N layers (default 2: one sliding,
// one full), per format (bf16, fp8, nvfp4):
//
//   * synthetic weights written once to files under --dir (random values of the format's
//     coding: bf16; FP8 E4M3 with per-row scales on every decoder Linear but the router, as the
//     FP8-dynamic checkpoint; NVFP4 on the experts and the dense MLP, as the ModelOpt one),
//     mapped read-only and bound as a ModelWeights (the loader's views, no safetensors headers);
//   * open: the time to read the files once from the page cache (read(2)) against what opening
//     costs beyond the compute: mapping and binding, plus the first decision's time over a warm
//     one, for the process's first open (and --opens - 1 more, each from a fresh mapping), and
//     that first decision's extra split into user and system CPU time and page faults
//     (bench-first_touch measures what the machine itself charges for a page first touched);
//   * ms per layer of a --prompt token prompt (encoder pass) and of a --rows x --width canvas
//     (3 questions, 4 draws: 4 rows of 32; decoder pass over the prompt's cache), the best of
//     --repeat (on a shared machine the run least disturbed by others); the readout of 3 slots per
//     row through the real head; GFLOP/s of each pass;
//   * the dense products (Q/K/V/O and the dense MLP of layer 0, 512 rows, the threads splitting
//     the outputs) in GFLOP/s and as a share of the bf16 peak measured in the same run (every
//     thread running independent VDPBF16PS chains at once);
//   * weight bytes read per pass, resident memory against the weights + KV + workspace, and the
//     projected decision time for all 30 layers.
//
//   bench-cpu_weights [--layers N] [--threads T] [--formats bf16,fp8,nvfp4] [--prompt P]
//                     [--rows R] [--width W] [--repeat K] [--opens N] [--dir DIR] [--keep]
//
// bench/cpu_weights.sh runs it beside llama.cpp's CPU path (ggml) at the same shapes, pinned to
// the same CPUs. Never part of ctest.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/compute_backend.h"
#include "cpu/native_weights.h"
#include "cpu/weight_gemm.h"
#include "model/memory_plan.h"
#include "model/prefetch.h"
#include "model/quantized.h"
#include "model/weights.h"
#include "page_cache.h"

namespace fs = std::filesystem;
namespace m = engine::model;
using engine::TokenId;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void die(const std::string& what) {
    std::fprintf(stderr, "bench-cpu_weights: %s\n", what.c_str());
    std::exit(1);
}

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The fastest of the repeats: on a shared machine the run least disturbed by others.
double best(const std::vector<double>& v) {
    return *std::min_element(v.begin(), v.end());
}

struct Options {
    int layers = 2, threads = 2, prompt = 512, rows = 4, width = 32, repeat = 3, opens = 3;
    std::vector<std::string> formats = {"bf16", "fp8", "nvfp4"};
    fs::path dir = fs::temp_directory_path() / "ds-bench-cpu-weights";
    bool keep = false;
};

// ---- synthetic tensors -------------------------------------------------------------------

enum class Fill { bf16, f32_one, fp8, f32_scale, nibbles, e4m3_scale };

struct Planned {
    Fill fill;
    uint64_t offset = 0, bytes = 0;
};

// Tensors laid out back to back (64-byte aligned) in one file, then written with their fills.
class FileBuilder {
  public:
    size_t add(Fill fill, uint64_t bytes) {
        end_ = (end_ + 63) / 64 * 64;
        items_.push_back({fill, end_, bytes});
        end_ += bytes;
        return items_.size() - 1;
    }
    uint64_t size() const { return end_; }
    const Planned& item(size_t i) const { return items_[i]; }

    void write(const fs::path& path, uint64_t seed) const {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        if (!out) die("cannot write " + path.string());
        std::vector<char> buf;
        uint64_t at = 0, s = seed;
        for (const Planned& p : items_) {
            if (p.offset > at) out.write(std::string(p.offset - at, '\0').data(), p.offset - at);
            buf.resize(p.bytes);
            fill(p.fill, buf.data(), p.bytes, s);
            out.write(buf.data(), static_cast<std::streamsize>(p.bytes));
            at = p.offset + p.bytes;
        }
        out.close();
        if (!out) die("short write to " + path.string());
    }

  private:
    static uint64_t next(uint64_t& s) {  // xorshift64
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    static void fill(Fill f, char* p, uint64_t n, uint64_t& s) {
        switch (f) {
            case Fill::bf16:  // +-2^-7 .. 2^-4, random mantissa
                for (uint64_t i = 0; i + 1 < n; i += 2) {
                    const uint64_t r = next(s);
                    const uint16_t v = static_cast<uint16_t>(
                        ((r & 1) << 15) | ((120 + (r >> 1) % 4) << 7) | ((r >> 8) & 0x7f));
                    std::memcpy(p + i, &v, 2);
                }
                return;
            case Fill::f32_one:
            case Fill::f32_scale: {
                const float v = f == Fill::f32_one ? 1.0f : 0.004f;
                for (uint64_t i = 0; i + 3 < n; i += 4) std::memcpy(p + i, &v, 4);
                return;
            }
            case Fill::fp8:  // every code but NaN
            case Fill::nibbles:
                for (uint64_t i = 0; i < n; i += 8) {
                    const uint64_t r = next(s);
                    std::memcpy(p + i, &r, std::min<uint64_t>(8, n - i));
                }
                if (f == Fill::fp8)
                    for (uint64_t i = 0; i < n; ++i)
                        if ((p[i] & 0x7f) == 0x7f) p[i] = static_cast<char>(p[i] ^ 1);
                return;
            case Fill::e4m3_scale:  // 2^-4 .. 2^-1
                for (uint64_t i = 0; i < n; ++i) p[i] = static_cast<char>(0x18 + next(s) % 0x18);
                return;
        }
    }
    std::vector<Planned> items_;
    uint64_t end_ = 0;
};

struct Mapping {
    const std::byte* data = nullptr;
    size_t size = 0;
    ~Mapping() {
        if (data) ::munmap(const_cast<std::byte*>(data), size);
    }
};

std::shared_ptr<Mapping> map_file(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) die("cannot open " + path.string());
    auto mp = std::make_shared<Mapping>();
    mp->size = fs::file_size(path);
    void* p = ::mmap(nullptr, mp->size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) die("cannot map " + path.string());
    mp->data = static_cast<const std::byte*>(p);
    return mp;
}

// Seconds to read a file once with read(2) (from the page cache when it is there).
double read_once(const fs::path& path) {
    std::vector<char> buf(16 << 20);
    const auto t0 = Clock::now();
    if (!read_whole_file(path, buf)) die("cannot read " + path.string());
    return seconds_since(t0);
}

// A tensor's place in a planned file, resolved against the mapping later.
struct Slot {
    size_t item = 0;
    m::DType dtype = m::DType::BF16;
    std::vector<int64_t> shape;
};

// A logical weight: plain (one slot) or quantised (parts of value + scale slots).
struct PlannedWeight {
    std::vector<int64_t> shape;
    m::WeightFormat format = m::WeightFormat::BF16;
    Slot plain;
    struct Part {
        Slot values, scales;
        int64_t rows = 0, cols = 0;
    };
    std::vector<Part> parts;
};

class CheckpointPlan {
  public:
    FileBuilder file;

    PlannedWeight plain(std::vector<int64_t> shape, Fill fill = Fill::bf16) {
        PlannedWeight w;
        w.shape = shape;
        const m::DType dt = fill == Fill::bf16 ? m::DType::BF16 : m::DType::F32;
        uint64_t n = 1;
        for (int64_t d : shape) n *= static_cast<uint64_t>(d);
        w.plain = {file.add(fill, n * m::dtype_size(dt)), dt, shape};
        return w;
    }
    // A linear [rows, cols] (stacked `count` times for experts) in `format`.
    PlannedWeight linear(m::WeightFormat format, std::vector<int64_t> shape, int64_t count,
                         int64_t parts_per, int64_t rows, int64_t cols) {
        if (format == m::WeightFormat::BF16) return plain(shape);
        PlannedWeight w;
        w.shape = shape;
        w.format = format;
        for (int64_t i = 0; i < count * parts_per; ++i) {
            PlannedWeight::Part p;
            p.rows = rows;
            p.cols = cols;
            const uint64_t cells = static_cast<uint64_t>(rows * cols);
            if (format == m::WeightFormat::FP8) {
                p.values = {file.add(Fill::fp8, cells), m::DType::F8_E4M3, {rows, cols}};
                p.scales = {file.add(Fill::f32_scale, static_cast<uint64_t>(rows) * 4),
                            m::DType::F32,
                            {rows, 1}};
            } else {
                p.values = {file.add(Fill::nibbles, cells / 2), m::DType::U8, {rows, cols / 2}};
                p.scales = {
                    file.add(Fill::e4m3_scale, cells / 16), m::DType::F8_E4M3, {rows, cols / 16}};
            }
            w.parts.push_back(p);
        }
        return w;
    }
};

m::TensorView view_of(const Slot& s, const Mapping& map, const FileBuilder& file,
                      const std::string& name) {
    m::TensorView t;
    t.name = name;
    t.dtype = s.dtype;
    t.shape = s.shape;
    t.data = map.data + file.item(s.item).offset;
    t.nbytes = file.item(s.item).bytes;
    return t;
}

m::TensorView bind_view(const PlannedWeight& w, const Mapping& map, const FileBuilder& file,
                        const std::string& name) {
    if (w.parts.empty()) return view_of(w.plain, map, file, name);
    std::vector<m::QuantizedLinear> parts;
    for (const auto& p : w.parts) {
        m::QuantizedLinear q;
        q.format = w.format;
        q.rows = p.rows;
        q.cols = p.cols;
        q.weight = view_of(p.values, map, file, name);
        q.weight_scale = view_of(p.scales, map, file, name + "_scale");
        q.global_scale = w.format == m::WeightFormat::NVFP4 ? 0.01f : 1.0f;
        parts.push_back(q);
    }
    return m::quantized_view(name, w.shape, std::move(parts));
}

// ---- the model --------------------------------------------------------------------------

m::ModelConfig real_config(int layers, m::WeightFormat format) {
    const fs::path path =
        fs::path(DS_SOURCE_DIR) / "scripts/gpu/diffusiongemma-26b-a4b.config.json";
    std::ifstream in(path);
    if (!in) die("cannot read " + path.string());
    nlohmann::json j = nlohmann::json::parse(in);
    auto& t = j["text_config"];
    t["num_hidden_layers"] = layers;
    // The first N-1 sliding, the last full (the real model: 5 sliding then 1 full, repeated).
    nlohmann::json types = nlohmann::json::array();
    for (int l = 0; l < layers; ++l)
        types.push_back(l + 1 == layers ? "full_attention" : "sliding_attention");
    t["layer_types"] = types;
    auto c = m::parse_config(j.dump(), path.string());
    if (!c) die(c.error().message);
    c->quantization.format = format;
    return *c;
}

struct LayerPlan {
    PlannedWeight norms[7], q, k, v, o, q_norm, k_norm, gate, up, down, router, router_scale,
        per_expert, gate_up, edown;
};

struct Built {
    std::shared_ptr<const m::ModelWeights> weights;
    std::vector<std::shared_ptr<Mapping>> maps;
    std::vector<fs::path> files;
    uint64_t layer_bytes = 0;  // weight bytes of the layers (what a pass reads)
    uint64_t head_bytes = 0;
};

// Plans, writes (unless present) and maps the synthetic checkpoint of `format`.
Built build_model(const Options& o, const std::string& format_name) {
    const m::WeightFormat format = format_name == "fp8"     ? m::WeightFormat::FP8
                                   : format_name == "nvfp4" ? m::WeightFormat::NVFP4
                                                            : m::WeightFormat::BF16;
    const m::ModelConfig c = real_config(o.layers, format);
    const int64_t H = c.hidden_size, V = c.vocab_size, I = c.intermediate_size, E = c.num_experts,
                  MI = c.moe_intermediate_size, NH = c.num_heads;
    // Which linears the format quantises (the published checkpoints' choice).
    const m::WeightFormat attn = format == m::WeightFormat::FP8 ? format : m::WeightFormat::BF16;
    const m::WeightFormat dense = format;
    CheckpointPlan shared, layers;
    const PlannedWeight embed = shared.plain({V, H});
    const PlannedWeight final_norm = shared.plain({H}, Fill::f32_one);
    const PlannedWeight sc_pre = shared.plain({H}, Fill::f32_one);
    const PlannedWeight sc_gate = shared.plain({I, H}), sc_up = shared.plain({I, H}),
                        sc_down = shared.plain({H, I});
    std::vector<LayerPlan> lp(static_cast<size_t>(o.layers));
    for (int l = 0; l < o.layers; ++l) {
        LayerPlan& p = lp[static_cast<size_t>(l)];
        const int64_t hd = c.layer_head_dim(l), kv = c.layer_kv_heads(l);
        for (auto& n : p.norms) n = layers.plain({H}, Fill::f32_one);
        p.q = layers.linear(attn, {NH * hd, H}, 1, 1, NH * hd, H);
        p.k = layers.linear(attn, {kv * hd, H}, 1, 1, kv * hd, H);
        if (c.layer_has_v_proj(l)) p.v = layers.linear(attn, {kv * hd, H}, 1, 1, kv * hd, H);
        p.o = layers.linear(attn, {H, NH * hd}, 1, 1, H, NH * hd);
        p.q_norm = layers.plain({hd}, Fill::f32_one);
        p.k_norm = layers.plain({hd}, Fill::f32_one);
        p.gate = layers.linear(dense, {I, H}, 1, 1, I, H);
        p.up = layers.linear(dense, {I, H}, 1, 1, I, H);
        p.down = layers.linear(dense, {H, I}, 1, 1, H, I);
        p.router = layers.plain({E, H});
        p.router_scale = layers.plain({H}, Fill::f32_one);
        p.per_expert = layers.plain({E}, Fill::f32_one);
        p.gate_up = layers.linear(format, {E, 2 * MI, H}, E, 2, MI, H);
        p.edown = layers.linear(format, {E, H, MI}, E, 1, H, MI);
    }
    Built b;
    fs::create_directories(o.dir);
    const fs::path shared_file = o.dir / "shared.bin";
    const fs::path layer_file =
        o.dir / ("layers-" + format_name + "-" + std::to_string(o.layers) + ".bin");
    for (auto [plan, path, seed] :
         {std::tuple{&shared, shared_file, 1ull}, std::tuple{&layers, layer_file, 2ull}}) {
        if (!fs::exists(path) || fs::file_size(path) != plan->file.size()) {
            const auto t0 = Clock::now();
            plan->file.write(path, seed * 0x9E3779B97F4A7C15ull);
            std::printf("  wrote %s (%.2f GB) in %.1f s\n", path.filename().c_str(),
                        double(plan->file.size()) / 1e9, seconds_since(t0));
        }
        b.files.push_back(path);
    }
    b.head_bytes = shared.file.item(embed.plain.item).bytes;
    b.layer_bytes = layers.file.size();
    auto ms = map_file(shared_file), ml = map_file(layer_file);
    b.maps = {ms, ml};
    auto w = std::make_shared<m::ModelWeights>();
    w->config = c;
    w->embed_tokens = bind_view(embed, *ms, shared.file, "embed");
    w->lm_head = w->embed_tokens;
    w->final_norm = bind_view(final_norm, *ms, shared.file, "final_norm");
    w->self_conditioning = {bind_view(sc_pre, *ms, shared.file, "sc.pre"),
                            bind_view(sc_gate, *ms, shared.file, "sc.gate"),
                            bind_view(sc_up, *ms, shared.file, "sc.up"),
                            bind_view(sc_down, *ms, shared.file, "sc.down")};
    for (int l = 0; l < o.layers; ++l) {
        const LayerPlan& p = lp[static_cast<size_t>(l)];
        const auto B = [&](const PlannedWeight& pw, const char* n) {
            return pw.shape.empty() ? m::TensorView{}
                                    : bind_view(pw, *ml, layers.file, "l" + std::to_string(l) + n);
        };
        m::LayerWeights L;
        L.input_layernorm = B(p.norms[0], "in_ln");
        L.post_attention_layernorm = B(p.norms[1], "post_attn_ln");
        L.pre_feedforward_layernorm = B(p.norms[2], "pre_ff_ln");
        L.post_feedforward_layernorm = B(p.norms[3], "post_ff_ln");
        L.pre_feedforward_layernorm_2 = B(p.norms[4], "pre_ff_ln2");
        L.post_feedforward_layernorm_1 = B(p.norms[5], "post_ff_ln1");
        L.post_feedforward_layernorm_2 = B(p.norms[6], "post_ff_ln2");
        L.q_proj = B(p.q, "q");
        L.k_proj = B(p.k, "k");
        L.v_proj = B(p.v, "v");
        L.o_proj = B(p.o, "o");
        L.q_norm = B(p.q_norm, "q_norm");
        L.k_norm = B(p.k_norm, "k_norm");
        L.mlp_gate = B(p.gate, "gate");
        L.mlp_up = B(p.up, "up");
        L.mlp_down = B(p.down, "down");
        L.router_proj = B(p.router, "router");
        L.router_scale = B(p.router_scale, "router_scale");
        L.router_per_expert_scale = B(p.per_expert, "per_expert");
        L.experts_gate_up = B(p.gate_up, "gate_up");
        L.experts_down = B(p.edown, "down_e");
        w->layers.push_back(std::move(L));
    }
    b.weights = w;
    return b;
}

// ---- measurements -----------------------------------------------------------------------

// Model FLOPs of one layer over `tokens` rows whose queries see `keys` keys on average.
double layer_flops(const m::ModelConfig& c, int l, double tokens, double keys) {
    const double H = c.hidden_size, hd = c.layer_head_dim(l), kv = c.layer_kv_heads(l),
                 NH = c.num_heads;
    const double proj = H * NH * hd * 2 + H * kv * hd * (c.layer_has_v_proj(l) ? 2 : 1);
    const double ffn = 3 * H * c.intermediate_size + H * c.num_experts +
                       c.top_k_experts * 3.0 * H * c.moe_intermediate_size;
    return 2 * tokens * (proj + ffn) + 4 * tokens * NH * hd * keys;
}

// Sum of every thread's bf16 dot-product peak, all running at once.
double bf16_peak(int threads) {
    std::vector<double> each(static_cast<size_t>(threads));
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back(
            [&, t] { each[static_cast<size_t>(t)] = engine::cpu::measure_bf16_peak_gflops(0.3); });
    for (auto& t : ts) t.join();
    double s = 0;
    for (double v : each) s += v;
    return s;
}

// Runs fn(t) for every t in [0, threads), each on its own thread (t = 0 on the caller's), with
// the same threads from one run to the next.
class Team {
  public:
    explicit Team(int threads) {
        for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { serve(t); });
    }
    ~Team() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
            ++generation_;
        }
        wake_.notify_all();
        for (auto& w : workers_) w.join();
    }
    void run(const std::function<void(int)>& fn) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            fn_ = &fn;
            pending_ = workers_.size();
            ++generation_;
        }
        wake_.notify_all();
        fn(0);
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return pending_ == 0; });
    }

  private:
    void serve(int t) {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return generation_ != seen; });
            seen = generation_;
            if (stop_) return;
            const auto* fn = fn_;
            lock.unlock();
            (*fn)(t);
            lock.lock();
            if (--pending_ == 0) done_.notify_one();
        }
    }
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* fn_ = nullptr;
    size_t pending_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

// GFLOP/s of layer 0's dense products (Q, K, V, O, gate, up, down) over `rows` rows, the
// threads splitting each product's outputs.
double dense_gflops(const m::ModelWeights& w, int threads, int rows) {
    const m::LayerWeights& L = w.layers[0];
    std::vector<engine::cpu::WeightMatrix> mats;
    for (const m::TensorView* t :
         {&L.q_proj, &L.k_proj, &L.v_proj, &L.o_proj, &L.mlp_gate, &L.mlp_up, &L.mlp_down}) {
        if (t->empty()) continue;
        engine::cpu::WeightMatrix wm;
        auto v = engine::cpu::native_rows(*t, 0, t->shape[0], t->shape[1]);
        if (!v) die("dense products: a weight the native path does not take");
        wm.native = std::move(*v);
        mats.push_back(std::move(wm));
    }
    int64_t kmax = 0, nmax = 0;
    for (auto& mt : mats) kmax = std::max(kmax, mt.k()), nmax = std::max(nmax, mt.n());
    std::vector<float> x(static_cast<size_t>(rows * kmax), 0.01f),
        y(static_cast<size_t>(rows * nmax));
    double flops = 0;
    // The same threads for every run, as the backend keeps its pool: their scratch buffers are
    // sized and paged in by the first run, not again in each timed one.
    Team team(threads);
    const auto run = [&] {
        for (auto& mt : mats) {
            const int64_t n = mt.n(), step = (n / threads + 5) / 6 * 6;
            team.run([&](int t) {
                const int64_t j0 = std::min(n, t * step),
                              j1 = t + 1 == threads ? n : std::min(n, (t + 1) * step);
                engine::cpu::gemm_weight(x.data(), mt.k(), mt, j0, j1, y.data() + j0, n, rows);
            });
        }
    };
    run();  // pages in, scratch sized
    for (auto& mt : mats) flops += 2.0 * rows * double(mt.n()) * double(mt.k());
    std::vector<double> times;
    for (int r = 0; r < 3; ++r) {
        const auto t0 = Clock::now();
        run();
        times.push_back(seconds_since(t0));
    }
    return flops / best(times) / 1e9;
}

uint64_t rss_bytes() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

struct Decision {
    double prompt_s = 0, canvas_s = 0, readout_s = 0;
    // The process's CPU seconds in user and system mode over the decision, and its page faults:
    // where a first decision's extra time goes (system: faults and zeroing in this kernel; user
    // with no more faults: what the host charges for a page first touched, bench-first_touch).
    double user_s = 0, sys_s = 0;
    long faults = 0;
    double total() const { return prompt_s + canvas_s + readout_s; }
};

rusage usage_now() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return r;
}

double seconds_between(const timeval& a, const timeval& b) {
    return double(b.tv_sec - a.tv_sec) + 1e-6 * double(b.tv_usec - a.tv_usec);
}

engine::backend::DecodeBatch canvas_batch(const Options& o, std::vector<TokenId>& ids) {
    ids.clear();
    uint32_t s = 12345;
    for (int i = 0; i < o.rows * o.width; ++i) {
        s = s * 1664525u + 1013904223u;
        ids.push_back(static_cast<TokenId>(s % 262144));
    }
    engine::backend::DecodeBatch b;
    b.rows = o.rows;
    b.width = o.width;
    b.ids = ids;
    return b;
}

// One decision: the prompt's encoder pass, the canvas's decoder pass, 3 slots per row read.
Decision decide_once(engine::backend::ComputeBackend& be, const Options& o) {
    std::vector<TokenId> prompt(static_cast<size_t>(o.prompt));
    for (int i = 0; i < o.prompt; ++i)
        prompt[static_cast<size_t>(i)] = static_cast<TokenId>(1000 + 37 * i);
    std::vector<TokenId> ids;
    const auto batch = canvas_batch(o, ids);
    engine::CancelToken cancel;
    auto cache = be.create_cache(o.prompt + o.width);
    if (!cache) die(cache.error().message);
    Decision d;
    const rusage r0 = usage_now();
    auto t0 = Clock::now();
    if (auto r = be.encode(**cache, prompt, cancel); !r) die(r.error().message);
    d.prompt_s = seconds_since(t0);
    t0 = Clock::now();
    auto canvas = be.decode(**cache, batch, cancel);
    if (!canvas) die(canvas.error().message);
    d.canvas_s = seconds_since(t0);
    std::vector<TokenId> labels = {4521, 3553, 107};
    std::vector<engine::backend::PositionQuery> queries;
    for (int r = 0; r < o.rows; ++r)
        for (int q = 0; q < 3; ++q) queries.push_back({r, 4 + 8 * q, labels});
    t0 = Clock::now();
    auto read = be.read_positions(**canvas, queries);
    if (!read) die(read.error().message);
    d.readout_s = seconds_since(t0);
    const rusage r1 = usage_now();
    d.user_s = seconds_between(r0.ru_utime, r1.ru_utime);
    d.sys_s = seconds_between(r0.ru_stime, r1.ru_stime);
    d.faults = r1.ru_minflt - r0.ru_minflt;
    return d;
}

void run_format(const Options& o, const std::string& format, double peak) {
    std::printf("\n== %s, %d layers, %d threads ==\n", format.c_str(), o.layers, o.threads);
    Built b = build_model(o, format);
    const m::ModelConfig c = b.weights->config;  // a copy: `b` is built again for each open
    // The files as a checkpoint on disk: out of the page cache, then read once from disk as any
    // first read brings them in. The page cache's state otherwise depends on how the files got
    // there (written in small pieces, its folios are small: measured on this machine, one pass
    // over a 1.65 GB file mapped in 4 KiB pages 0.54 s against 0.02 s in 2 MiB ones).
    for (const auto& f : b.files)
        if (!drop_from_page_cache(f)) die("cannot drop " + f.string() + " from the page cache");
    for (const auto& f : b.files) read_once(f);
    double read_s = 0;
    uint64_t file_bytes = 0;
    for (const auto& f : b.files) read_s += read_once(f), file_bytes += fs::file_size(f);
    // Open --opens times, each from a fresh mapping (the page cache warm, as for a model used
    // before): mapping the pages and binding, then the first decision. The last one stays open.
    const uint64_t rss0 = rss_bytes();
    std::vector<double> bind_times, first_times;
    Decision first_of_process;
    std::unique_ptr<engine::backend::ComputeBackend> be;
    for (int t = 0; t < o.opens; ++t) {
        if (t > 0) {
            be.reset();
            b = build_model(o, format);  // the files exist: mapped again, nothing written
        }
        const auto t0 = Clock::now();
        m::prefetch_weights(*b.weights, {});  // as Engine::open: the pages mapped in bulk
        auto made = engine::backend::make_cpu_backend(b.weights, o.threads, {}, true);
        if (!made) die(made.error().message);
        be = std::move(*made);
        bind_times.push_back(seconds_since(t0));
        const Decision first = decide_once(*be, o);
        if (t == 0) first_of_process = first;
        first_times.push_back(first.total());
    }
    std::vector<double> pr, cv, ro;
    std::vector<Decision> warm_decisions;
    for (int r = 0; r < o.repeat; ++r) {
        const Decision d = decide_once(*be, o);
        warm_decisions.push_back(d);
        pr.push_back(d.prompt_s);
        cv.push_back(d.canvas_s);
        ro.push_back(d.readout_s);
    }
    const uint64_t rss = rss_bytes() - rss0;
    const double prompt_ms = best(pr) * 1e3 / o.layers, canvas_ms = best(cv) * 1e3 / o.layers,
                 readout_ms = best(ro) * 1e3;
    double fp = 0, fc = 0;
    for (int l = 0; l < o.layers; ++l) {
        const double window = c.is_full(l) ? o.prompt : std::min(o.prompt, c.sliding_window);
        fp += layer_flops(c, l, o.prompt, (std::min<double>(o.prompt, window) + 1) / 2);
        fc += layer_flops(
            c, l, double(o.rows) * o.width,
            std::min<double>(o.prompt, c.is_full(l) ? o.prompt : c.sliding_window - 1) + o.width);
    }
    const double dense = dense_gflops(*b.weights, o.threads, o.prompt);
    const m::MemoryPlan plan = m::plan_cpu_memory(c, o.prompt + o.width, true);
    // What opening costs beyond the compute: binding, and the first decision's time over a warm
    // one (its page faults on the mapping, first touches of pages and buffers). The figure is the
    // first open of the process, as a command or a Studio starting opens a model; the opens after
    // it (the same files mapped again) are shown beside it.
    std::sort(warm_decisions.begin(), warm_decisions.end(),
              [](const Decision& x, const Decision& y) { return x.total() < y.total(); });
    const Decision& median = warm_decisions[warm_decisions.size() / 2];
    const double warm_s = median.total();
    std::vector<double> costs;
    for (size_t t = 0; t < bind_times.size(); ++t)
        costs.push_back(bind_times[t] + std::max(0.0, first_times[t] - warm_s));
    const double open_cost = costs.front();
    std::printf("  open (%d times, each from a fresh mapping), seconds: bind", o.opens);
    for (double v : bind_times) std::printf(" %.3f", v);
    std::printf("; first decision");
    for (double v : first_times) std::printf(" %.3f", v);
    std::printf(" (warm %.3f)\n", warm_s);
    std::printf(
        "  open cost: %.3f s; one read of the %.2f GB from the page cache %.3f s (ratio %.2f)",
        open_cost, double(file_bytes) / 1e9, read_s, open_cost / read_s);
    if (costs.size() > 1) {
        std::printf("; opened again:");
        for (size_t t = 1; t < costs.size(); ++t) std::printf(" %.3f s", costs[t]);
    }
    std::printf("\n");
    std::printf(
        "  first decision over the median warm one: %+.3f s wall, CPU %+.3f s user %+.3f s "
        "system, %+ld page faults\n",
        first_of_process.total() - warm_s, first_of_process.user_s - median.user_s,
        first_of_process.sys_s - median.sys_s, first_of_process.faults - median.faults);
    std::printf("  prompt (%d tokens): %.1f ms/layer, %.0f GFLOP/s\n", o.prompt, prompt_ms,
                fp / o.layers / (prompt_ms / 1e3) / 1e9);
    std::printf("  canvas (%d x %d): %.1f ms/layer, %.0f GFLOP/s\n", o.rows, o.width, canvas_ms,
                fc / o.layers / (canvas_ms / 1e3) / 1e9);
    std::printf("  readout (%d slots, head %.2f GB): %.1f ms\n", o.rows * 3,
                double(b.head_bytes) / 1e9, readout_ms);
    std::printf("  dense products (%d rows): %.0f GFLOP/s = %.0f%% of the bf16 peak %.0f GFLOP/s\n",
                o.prompt, dense, 100 * dense / peak, peak);
    std::printf("  weight bytes read per pass: %.3f GB per layer\n",
                double(b.layer_bytes) / o.layers / 1e9);
    std::printf(
        "  resident after the decisions: %.2f GB; weights touched %.2f GB + plan KV %.2f "
        "GB + workspace %.2f GB\n",
        double(rss) / 1e9, double(file_bytes) / 1e9, double(plan.kv_cache) / 1e9,
        double(plan.workspace) / 1e9);
    const double decision30 = 30 * (prompt_ms + canvas_ms) + readout_ms;
    std::printf("  projected 30-layer decision: %.2f s (30 x (%.1f + %.1f) ms + readout %.1f ms)\n",
                decision30 / 1e3, prompt_ms, canvas_ms, readout_ms);
    std::printf(
        "RESULT format=%s layers=%d threads=%d prompt_ms_per_layer=%.2f "
        "canvas_ms_per_layer=%.2f readout_ms=%.2f dense_gflops=%.1f peak_gflops=%.1f "
        "layer_gb=%.4f decision30_s=%.3f open_cost_s=%.3f read_s=%.3f rss_gb=%.3f\n",
        format.c_str(), o.layers, o.threads, prompt_ms, canvas_ms, readout_ms, dense, peak,
        double(b.layer_bytes) / o.layers / 1e9, decision30 / 1e3, open_cost, read_s,
        double(rss) / 1e9);
    std::fflush(stdout);
    if (!o.keep) std::filesystem::remove(b.files[1]);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) die(a + " needs a value");
            return argv[++i];
        };
        if (a == "--layers")
            o.layers = std::max(1, std::stoi(value()));
        else if (a == "--threads")
            o.threads = std::max(1, std::stoi(value()));
        else if (a == "--prompt")
            o.prompt = std::max(1, std::stoi(value()));
        else if (a == "--rows")
            o.rows = std::max(1, std::stoi(value()));
        else if (a == "--width")
            o.width = std::max(28, std::stoi(value()));
        else if (a == "--opens")
            o.opens = std::max(1, std::stoi(value()));
        else if (a == "--repeat")
            o.repeat = std::max(1, std::stoi(value()));
        else if (a == "--dir")
            o.dir = value();
        else if (a == "--keep")
            o.keep = true;
        else if (a == "--formats") {
            o.formats.clear();
            std::stringstream s(value());
            for (std::string f; std::getline(s, f, ',');) {
                if (f != "bf16" && f != "fp8" && f != "nvfp4")
                    die("--formats " + f + ": accepted bf16, fp8, nvfp4");
                o.formats.push_back(f);
            }
        } else
            die("unknown option " + a + " (see the header of bench/cpu_weights.cpp)");
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::printf("bench-cpu_weights: real 26B-A4B layer shapes, %d layers, %d threads, %s\n",
                o.layers, o.threads,
                engine::cpu::bf16_dot_supported() ? "AVX-512 BF16 products"
                                                  : "f32 products (no AVX-512 BF16)");
    const double peak = bf16_peak(o.threads);
    std::printf("bf16 dot-product peak, %d threads at once: %.0f GFLOP/s\n", o.threads, peak);
    for (const auto& f : o.formats) run_format(o, f, peak);
    if (!o.keep) std::filesystem::remove(o.dir / "shared.bin");
    return 0;
}
