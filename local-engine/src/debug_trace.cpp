// trace_forward: the reference tests' window into one encoder + decoder pass (CPU backend);
// trace_generation_pass: the same for one pass of the generation loop.

#include "engine/debug_trace.h"

#include "backend/compute_backend.h"
#include "driver/drivers.h"
#include "model/config.h"
#include "model/weights.h"
#include "util/thread_pool.h"

namespace engine {

Result<ForwardTrace> trace_forward(const std::filesystem::path& model_dir,
                                   std::span<const TokenId> prompt,
                                   const std::vector<std::vector<TokenId>>& canvases,
                                   const std::vector<float>* previous_logits, int threads) {
    auto weights = model::load_model_weights(model_dir);
    if (!weights) return weights.error();
    auto backend = backend::make_cpu_backend(weights.value(), threads);
    if (!backend) return backend.error();
    backend::ComputeBackend& be = **backend;
    const auto& c = be.config();

    ForwardTrace trace;
    trace.prompt_length = static_cast<int>(prompt.size());
    trace.rows = static_cast<int>(canvases.size());
    trace.width = canvases.empty() ? 0 : static_cast<int>(canvases.front().size());
    trace.vocab_size = c.vocab_size;
    if (canvases.empty() || trace.width == 0) return bad_input("trace_forward: no canvases");
    std::vector<TokenId> ids;
    for (const auto& row : canvases) {
        if (static_cast<int>(row.size()) != trace.width)
            return bad_input("trace_forward: canvases differ in width");
        ids.insert(ids.end(), row.begin(), row.end());
    }
    if (previous_logits &&
        previous_logits->size() != static_cast<size_t>(trace.rows) * trace.width * c.vocab_size)
        return bad_input("trace_forward: previous_logits must hold rows*width*vocab values");

    CancelToken never;
    auto cache = be.create_cache(trace.prompt_length);
    if (!cache) return cache.error();
    if (auto r = be.encode(**cache, prompt, never); !r) return r.error();
    for (int l = 0; l < c.num_layers; ++l) {
        trace.encoder_k.emplace_back();
        trace.encoder_v.emplace_back();
        if (auto r = be.read_cache(**cache, l, trace.encoder_k.back(), trace.encoder_v.back()); !r)
            return r.error();
        trace.kv_heads.push_back(c.layer_kv_heads(l));
        trace.head_dim.push_back(c.layer_head_dim(l));
    }
    backend::DecodeBatch batch;
    batch.rows = trace.rows;
    batch.width = trace.width;
    batch.ids = ids;
    batch.self_conditioning_logits = previous_logits ? previous_logits->data() : nullptr;
    auto decoded = be.decode(**cache, batch, never);
    if (!decoded) return decoded.error();
    if (auto r = be.logits(**decoded, trace.logits); !r) return r.error();
    return trace;
}

Result<GenerationPassTrace> trace_generation_pass(const std::filesystem::path& model_dir,
                                                  const GenerationRequest& request, int canvas,
                                                  int step, int threads) {
    auto weights = model::load_model_weights(model_dir);
    if (!weights) return weights.error();
    auto defaults = model::load_generation_config(model_dir / "generation_config.json");
    if (!defaults) return defaults.error();
    auto tokenizer = Tokenizer::load(model_dir / "tokenizer.json");
    if (!tokenizer) return tokenizer.error();
    auto backend = backend::make_cpu_backend(weights.value(), threads);
    if (!backend) return backend.error();
    util::ThreadPool pool(threads);

    GenerationPassTrace trace;
    trace.prompt_length = static_cast<int>(request.prompt_ids.size());
    trace.vocab_size = (*backend)->config().vocab_size;
    trace.canvas = canvas;
    trace.step = step;
    bool seen = false;
    const driver::DenoisingObserver keep = [&](const driver::DenoisingPass& pass) {
        if (pass.canvas != canvas || pass.step != step) return;
        seen = true;
        trace.width = pass.width;
        trace.ids.assign(pass.ids.begin(), pass.ids.end());
        trace.self_conditioning.assign(pass.self_conditioning.begin(),
                                       pass.self_conditioning.end());
        trace.logits.assign(pass.logits.begin(), pass.logits.end());
    };
    auto result = driver::generate(**backend, pool, defaults.value(),
                                   (*backend)->config().max_position_embeddings, tokenizer.value(),
                                   request, {}, CancelToken{}, keep);
    if (!result) return result.error();
    if (!seen)
        return bad_input("trace_generation_pass: the loop never ran step " + std::to_string(step) +
                         " of canvas " + std::to_string(canvas));
    trace.result = std::move(result).value();
    return trace;
}

}  // namespace engine
