// The entropy-bound denoising loop (transformers DiffusionGemmaGenerationMixin.generate with
// EntropyBoundSampler, LinearTemperatureScheduleLogitsProcessor and
// StableAndConfidentStoppingCriteria), one sequence:
//   per canvas: x = uniform noise, no self-conditioning;
//   for n = N..1: z = logits(x, sc) / (t_min + (t_max - t_min) * n / N);
//     s ~ softmax(z), a = argmax z, H = entropy of softmax(z) per position;
//     accept the positions in ascending entropy order while the entropy summed over the ones
//     before stays <= bound (so at least one); x = accepted ? s : fresh noise; sc = z;
//     stop when a equals the last `stability_threshold` argmax canvases and mean(H) < threshold;
//   commit a; finish when it holds a stop id (cut there), else encode it and go on.
//
// Canvas width W (MODEL-SPEC section 7 says "for each canvas of 256": 256 is config.json's
// canvas_length, C). The reference reads W from the model config, runs ceil(max_new_tokens / W)
// canvases and never trims a canvas, so any W is a legal run of the same model. Rule:
//   W = request.canvas_length when the request sets one, else min(C, max_new_tokens);
//   canvases = ceil(max_new_tokens / W); the answer is cut at the first stop id, then at
//   max_new_tokens.
// So a request for N < C new tokens is one canvas of N positions: exactly the reference run with
// canvas_length = N in config.json (not the C-wide canvas cut to N: the bidirectional decoder
// sees N positions, not C). N >= C is unchanged: ceil(N / C) canvases of C. Every canvas
// position gets the full-vocabulary head (sampling, entropy and the next step's
// self-conditioning need the whole row); the encoder runs no head. Context: prompt +
// canvases * W <= max_context; the KV cache holds the prompt and every committed canvas but the
// last, P + (canvases - 1) * W tokens.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <numeric>

#include "base/time.h"
#include "driver/drivers.h"
#include "driver/rng.h"
#include "engine/generation_width.h"

namespace engine::driver {
namespace {

using base::ms_since;

struct PositionStats {
    TokenId sample = 0, argmax = 0;
    double entropy = 0;
};

// Softmax statistics of one position's temperature-scaled logits `z`, and an inverse-CDF sample
// with the uniform draw `u`. `scratch` holds V floats (the exponentials, computed once).
PositionStats position_stats(const float* z, int64_t V, double u, float* scratch) {
    PositionStats st;
    float m = z[0];
    for (int64_t j = 1; j < V; ++j)
        if (z[j] > m) {
            m = z[j];
            st.argmax = static_cast<TokenId>(j);
        }
    double sum = 0, weighted = 0;
    for (int64_t j = 0; j < V; ++j) {
        const float d = z[j] - m;
        const float e = std::exp(d);
        scratch[j] = e;
        sum += e;
        weighted += static_cast<double>(e) * d;
    }
    // H = log(sum) - E[z - m].
    st.entropy = std::max(0.0, std::log(sum) - weighted / sum);
    const double target = u * sum;
    double acc = 0;
    st.sample = st.argmax;  // only reached through rounding at the very end of the CDF
    for (int64_t j = 0; j < V; ++j) {
        acc += scratch[j];
        if (acc > target) {
            st.sample = static_cast<TokenId>(j);
            break;
        }
    }
    return st;
}

}  // namespace

namespace {
// Holds the engine's gate (when there is one) for a scope.
class GateHold {
  public:
    explicit GateHold(StepGate* gate) : gate_(gate) {
        if (gate_) gate_->enter();
    }
    ~GateHold() {
        if (gate_) gate_->leave();
    }
    GateHold(const GateHold&) = delete;
    GateHold& operator=(const GateHold&) = delete;

  private:
    StepGate* gate_;
};
}  // namespace

Result<GenerationResult> generate(backend::ComputeBackend& backend, util::ThreadPool& pool,
                                  const model::GenerationDefaults& defaults, int max_context,
                                  const Tokenizer& tokenizer, const GenerationRequest& request,
                                  const GenerationProgress& progress, const CancelToken& cancel,
                                  const DenoisingObserver& observer, const PromptImages* images,
                                  StepGate* gate) {
    const auto t_start = std::chrono::steady_clock::now();
    const model::ModelConfig& c = backend.config();
    const int64_t V = c.vocab_size;
    const int steps = request.max_steps > 0 ? request.max_steps : defaults.max_denoising_steps;
    const int max_new =
        request.max_new_tokens > 0 ? request.max_new_tokens : defaults.max_new_tokens;
    if (max_new <= 0) return bad_input("generate: max_new_tokens must be positive");
    const int W = generation_canvas_width(c.canvas_length, request.canvas_length, max_new);
    if (W <= 0) return bad_input("generate: the canvas length must be positive");
    std::vector<TokenId> stop_ids = request.stop_ids;
    if (stop_ids.empty()) stop_ids = defaults.eos_token_ids;
    if (stop_ids.empty()) stop_ids = c.eos_token_ids;
    const int P = static_cast<int>(request.prompt_ids.size());
    const int canvases = (max_new + W - 1) / W;
    if (P == 0) return bad_input("generate: the prompt is empty");
    if (static_cast<int64_t>(P) + static_cast<int64_t>(canvases) * W > max_context)
        return bad_input("generate: prompt (" + std::to_string(P) + " tokens) + " +
                         std::to_string(canvases) + " canvas(es) of " + std::to_string(W) +
                         " tokens exceeds the model's context of " + std::to_string(max_context) +
                         " tokens");

    GenerationResult result;
    result.canvas_length = W;
    const bool bounded = request.time_limit_s > 0;
    const auto deadline =
        t_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(bounded ? request.time_limit_s : 0.0));
    auto cache = backend.create_cache(P + (canvases - 1) * W);
    if (!cache) return cache.error();
    auto t0 = std::chrono::steady_clock::now();
    backend::PromptInput prompt{request.prompt_ids, {}, {}};
    if (images) {
        prompt.embed_at = images->embed_at;
        prompt.embeds = images->embeds;
    }
    {
        const GateHold hold(gate);
        if (auto r = backend.encode_prompt(**cache, prompt, cancel); !r) return r.error();
    }
    result.encode_ms += ms_since(t0);

    Rng rng(request.seed);
    std::vector<float> z;  // [W*V] logits / temperature, also the next step's sc input
    std::vector<TokenId> x(static_cast<size_t>(W));
    std::vector<PositionStats> stats(static_cast<size_t>(W));
    std::vector<double> draws(static_cast<size_t>(W));
    std::vector<float> observed_sc;  // the observer's copy of a pass's sc input
    for (int ci = 0; ci < canvases; ++ci) {
        for (auto& id : x) id = static_cast<TokenId>(rng.below(static_cast<uint32_t>(V)));
        bool have_sc = false;
        std::deque<std::vector<TokenId>> history;  // the last stability_threshold argmax canvases
        std::vector<TokenId> argmax(static_cast<size_t>(W));
        for (int n = steps; n >= 1; --n) {
            if (cancel.cancelled()) return cancelled();
            // One unit of work for the engine's scheduler: the pass, the sampling, the report.
            const GateHold hold(gate);
            t0 = std::chrono::steady_clock::now();
            backend::DecodeBatch batch;
            batch.rows = 1;
            batch.width = W;
            batch.ids = x;
            batch.self_conditioning_logits = have_sc ? z.data() : nullptr;
            auto decoded = backend.decode(**cache, batch, cancel);
            if (!decoded) return decoded.error();
            // logits() overwrites z, this pass's sc input: the observer gets a copy.
            if (observer) observed_sc.assign(have_sc ? z.begin() : z.end(), z.end());
            if (auto r = backend.logits(**decoded, z); !r) return r.error();
            result.decode_ms += ms_since(t0);
            if (observer) observer(DenoisingPass{ci, steps - n + 1, W, x, observed_sc, z});

            const double temperature = defaults.t_min + (defaults.t_max - defaults.t_min) *
                                                            (static_cast<double>(n) / steps);
            for (auto& u : draws) u = rng.uniform();
            pool.parallel_chunks(W, [&](int64_t b, int64_t e) {
                // One buffer per pool thread (kept: the pool's threads live with the engine).
                thread_local std::vector<float> buf;
                buf.resize(static_cast<size_t>(V));
                for (int64_t p = b; p < e; ++p) {
                    float* row = &z[static_cast<size_t>(p * V)];
                    const float t = static_cast<float>(temperature);
                    for (int64_t j = 0; j < V; ++j) row[j] /= t;
                    stats[static_cast<size_t>(p)] =
                        position_stats(row, V, draws[static_cast<size_t>(p)], buf.data());
                }
            });

            // Acceptance: ascending entropy (stable on position), cumulative entropy before each
            // accepted position <= bound.
            std::vector<int> order(static_cast<size_t>(W));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(),
                             [&](int a, int b) { return stats[a].entropy < stats[b].entropy; });
            std::vector<char> accepted(static_cast<size_t>(W), 0);
            double before = 0, mean_entropy = 0;
            int accepted_count = 0;
            for (int p : order) {
                if (before <= defaults.entropy_bound) {
                    accepted[p] = 1;
                    ++accepted_count;
                }
                before += stats[p].entropy;
            }
            for (int p = 0; p < W; ++p) {
                mean_entropy += stats[p].entropy;
                argmax[p] = stats[p].argmax;
            }
            mean_entropy /= W;
            for (int p = 0; p < W; ++p)
                x[p] = accepted[p] ? stats[p].sample
                                   : static_cast<TokenId>(rng.below(static_cast<uint32_t>(V)));
            have_sc = true;
            ++result.steps;

            bool stable = true;
            if (defaults.stability_threshold > 0) {
                stable = static_cast<int>(history.size()) == defaults.stability_threshold &&
                         std::all_of(history.begin(), history.end(),
                                     [&](const std::vector<TokenId>& h) { return h == argmax; });
                history.push_back(argmax);
                if (static_cast<int>(history.size()) > defaults.stability_threshold)
                    history.pop_front();
            }
            const bool confident = mean_entropy < defaults.confidence_threshold;
            if (progress)
                progress(GenerationStep{ci, steps - n + 1, steps, static_cast<float>(mean_entropy),
                                        accepted_count});
            if (stable && confident) break;
            if (bounded && std::chrono::steady_clock::now() >= deadline) {
                result.stopped_on_time_limit = true;
                break;
            }
        }
        ++result.canvases;
        // Commit the argmax canvas; a stop id ends the answer (the stop id itself is dropped).
        auto stop = std::find_if(argmax.begin(), argmax.end(), [&](TokenId id) {
            return std::find(stop_ids.begin(), stop_ids.end(), id) != stop_ids.end();
        });
        result.tokens.insert(result.tokens.end(), argmax.begin(), stop);
        if (stop != argmax.end()) {
            result.stopped_on_stop_id = true;
            result.stopped_on_time_limit = false;
            break;
        }
        if (bounded && std::chrono::steady_clock::now() >= deadline) {
            result.stopped_on_time_limit = ci + 1 < canvases || result.stopped_on_time_limit;
            break;
        }
        if (ci + 1 < canvases) {
            t0 = std::chrono::steady_clock::now();
            const GateHold hold(gate);
            if (auto r = backend.encode(**cache, argmax, cancel); !r) return r.error();
            result.encode_ms += ms_since(t0);
        }
    }
    if (static_cast<int>(result.tokens.size()) > max_new)
        result.tokens.resize(static_cast<size_t>(max_new));
    result.text = tokenizer.decode(result.tokens, /*skip_special=*/true);
    result.total_ms = ms_since(t_start);
    return result;
}

}  // namespace engine::driver
