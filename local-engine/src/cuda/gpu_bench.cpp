// gpu_bench: timing of the CUDA backend on synthetic weights at real shapes, and a slot-read dump
// of a real model folder (see engine/gpu_bench.h).

#include "engine/gpu_bench.h"
#include "base/time.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <random>

#include "cuda/cuda_backend.h"
#include "engine/engine.h"
#include "model/config.h"
#include "model/weights.h"

namespace engine::gpu_bench {
namespace {

using Clock = std::chrono::steady_clock;

using base::ms_since;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

#define BENCH_TRY(expr)             \
    do {                            \
        auto r_ = (expr);           \
        if (!r_) return r_.error(); \
    } while (0)

}  // namespace

bool compiled() {
    return true;
}

Result<Report> run(const Options& o) {
    if (!cuda_available()) return engine_error("no CUDA device is available");
    auto config = model::load_config(o.config_json);
    if (!config) return config.error();
    model::ModelConfig& c = config.value();
    if (o.format == "fp8")
        c.quantization.format = model::WeightFormat::FP8;
    else if (o.format == "nvfp4")
        c.quantization.format = model::WeightFormat::NVFP4;
    else if (o.format == "bf16")
        c.quantization.format = model::WeightFormat::BF16;
    else
        return bad_input("unknown weight format \"" + o.format + "\" (accepted: bf16, fp8, nvfp4)");
    auto opened = cuda::open_synthetic_cuda_backend(c, o.seed, o.nvfp4_fp4_inputs);
    if (!opened) return opened.error();
    cuda::CudaBackend& b = *opened.value();
    Report rep;
    rep.device = b.device_name();
    rep.format = model::weight_format_name(c.quantization.format);
    rep.weight_gib = static_cast<double>(b.weight_bytes()) / (1024.0 * 1024.0 * 1024.0);
    auto bw = cuda::measure_copy_bandwidth(uint64_t{1} << 30, 5);
    if (!bw) return bw.error();
    rep.copy_gb_per_s = bw.value() / 1e9;
    rep.floor_ms = static_cast<double>(b.weight_bytes()) / bw.value() * 1e3;

    std::mt19937 rng(static_cast<uint32_t>(o.seed));
    std::uniform_int_distribution<int> any(0, c.vocab_size - 1);
    std::vector<TokenId> prompt(static_cast<size_t>(o.prompt_tokens));
    for (auto& id : prompt) id = any(rng);
    std::vector<TokenId> canvas(static_cast<size_t>(o.draws) * o.canvas_width);
    for (auto& id : canvas) id = any(rng);
    std::vector<std::vector<TokenId>> labels(static_cast<size_t>(o.questions));
    for (auto& l : labels)
        for (int k = 0; k < o.labels; ++k) l.push_back(any(rng));
    std::vector<backend::PositionQuery> queries;
    for (int r = 0; r < o.draws; ++r)
        for (int q = 0; q < o.questions; ++q)
            queries.push_back({r, 2 + q * 4, labels[static_cast<size_t>(q)]});
    backend::DecodeBatch batch;
    batch.rows = o.draws;
    batch.width = o.canvas_width;
    batch.ids = canvas;
    const CancelToken cancel;

    // Decision: a fresh cache, one sweep over the weights, constrained readout. First run warms.
    std::vector<double> times;
    for (int i = 0; i <= o.repeats; ++i) {
        auto cache = b.create_cache(o.prompt_tokens + o.gen_width);
        if (!cache) return cache.error();
        BENCH_TRY(b.synchronize());
        const auto t0 = Clock::now();
        auto dec = b.encode_and_decode(*cache.value(), prompt, batch, cancel);
        if (!dec) return dec.error();
        auto read = b.read_positions(*dec.value(), queries);
        if (!read) return read.error();
        if (i > 0) times.push_back(ms_since(t0));
    }
    rep.decision_ms = median(times);
    rep.decision_min_ms = *std::min_element(times.begin(), times.end());

    // Generation: encode the prompt, then self-conditioned steps over one canvas, each with the
    // full logits back on the host (what the backend-neutral sampler consumes).
    auto cache = b.create_cache(o.prompt_tokens + o.gen_width);
    if (!cache) return cache.error();
    auto t_enc = Clock::now();
    BENCH_TRY(b.encode(*cache.value(), prompt, cancel));
    BENCH_TRY(b.synchronize());
    rep.encode_ms = ms_since(t_enc);
    std::vector<TokenId> gen(static_cast<size_t>(o.gen_width));
    for (auto& id : gen) id = any(rng);
    std::vector<float> logits;
    backend::DecodeBatch step;
    step.rows = 1;
    step.width = o.gen_width;
    step.ids = gen;
    times.clear();
    for (int s = 0; s <= o.gen_steps; ++s) {
        const auto t0 = Clock::now();
        step.self_conditioning_logits = s == 0 ? nullptr : logits.data();
        std::vector<float> next;
        auto dec = b.decode(*cache.value(), step, cancel);
        if (!dec) return dec.error();
        BENCH_TRY(b.logits(*dec.value(), next));
        for (float& v : next) v /= 0.8f;  // the sampler's temperature division
        logits.swap(next);
        if (s > 0) times.push_back(ms_since(t0));
    }
    rep.gen_step_ms = median(times);
    rep.gen_tokens_per_s = o.gen_width / ((rep.gen_step_ms * o.max_steps + rep.encode_ms) / 1e3);
    return rep;
}

Result<std::string> dump_slots(const SlotDumpRequest& req) {
    if (!cuda_available()) return engine_error("no CUDA device is available");
    auto weights = model::load_model_weights(req.model_dir);
    if (!weights) return weights.error();
    auto opened = cuda::open_cuda_backend(weights.value());
    if (!opened) return opened.error();
    cuda::CudaBackend& b = *opened.value();
    std::vector<TokenId> ids;
    for (const auto& r : req.rows) {
        if (static_cast<int>(r.size()) != req.width)
            return bad_input("dump_slots: every row must hold exactly width ids");
        ids.insert(ids.end(), r.begin(), r.end());
    }
    backend::DecodeBatch batch;
    batch.rows = static_cast<int>(req.rows.size());
    batch.width = req.width;
    batch.ids = ids;
    auto cache = b.create_cache(static_cast<int>(req.prompt.size()) + req.width);
    if (!cache) return cache.error();
    auto dec = b.encode_and_decode(*cache.value(), req.prompt, batch, CancelToken{});
    if (!dec) return dec.error();
    std::vector<backend::PositionQuery> queries;
    for (int r = 0; r < batch.rows; ++r)
        for (size_t s = 0; s < req.slot_positions.size(); ++s)
            queries.push_back({r, req.slot_positions[s], req.labels[s]});
    auto read = b.read_positions(*dec.value(), queries);
    if (!read) return read.error();
    nlohmann::json out;
    out["device"] = b.device_name();
    out["rows"] = nlohmann::json::array();
    size_t q = 0;
    for (int r = 0; r < batch.rows; ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (size_t s = 0; s < req.slot_positions.size(); ++s, ++q) {
            const auto& pr = read.value()[q];
            std::vector<float> lp;
            for (float l : pr.logits) lp.push_back(l - pr.logsumexp);
            row.push_back(
                {{"pos", req.slot_positions[s]}, {"logprobs", lp}, {"argmax", pr.argmax}});
        }
        out["rows"].push_back(row);
    }
    return out.dump();
}

}  // namespace engine::gpu_bench
