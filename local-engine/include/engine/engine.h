#pragma once
// The local engine's one entry point: open a model folder, read answer slots in one decoder pass,
// or generate with the entropy-bound denoising loop. Qt-free; thread-safe: concurrent slot reads
// are batched across requests and a generation's steps interleave with them (BatchSettings).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cancel.h"
#include "engine/result.h"
#include "engine/tokenizer.h"

namespace engine {

enum class Device { Auto, Cpu, Cuda };

// Where Engine::open is while it loads, for a progress bar: reading the weights (the fraction
// of their bytes in memory) and the tokenizer, binding them into the backend (the fraction of
// the layers converted or uploaded), warming up (one short pass through every layer).
enum class LoadStage { Reading, Binding, Warming };
std::string_view to_string(LoadStage stage);  // "reading", "binding", "warming"
using LoadProgress = std::function<void(LoadStage stage, double fraction)>;

// Cross-request batching of slot reads. Reads that arrive while the engine is busy wait in one
// FIFO queue with the generations' steps; when the engine frees, the reads at the head of the
// queue run as one batch (their prompts encoded together, every canvas row decoded together,
// so each weight is read once per batch rather than once per read). A lone read runs at once.
struct BatchSettings {
    int max_reads = 32;        // reads in one batch (1: no batching)
    int max_tokens = 32768;    // prompt + canvas tokens of one batch (a larger read runs alone)
    double max_wait_ms = 1.0;  // how long a batch of two or more reads may wait for more
};

// The slot reads' cache of encoded prompts (driver/prefix_cache.h): a read whose prompt begins
// with a cached one encodes only the rest, with the same bits.
struct PrefixCacheStats {
    uint64_t full_hits = 0;      // reads whose whole prompt was cached (no encoder pass)
    uint64_t partial_hits = 0;   // reads that encoded only what followed a cached prefix
    uint64_t misses = 0;         // reads that encoded their whole prompt
    uint64_t tokens_reused = 0;  // prompt tokens not encoded again
    uint64_t evictions = 0;
    int entries = 0;
    uint64_t bytes = 0, budget_bytes = 0;
};

// What the scheduler did, for tests and diagnostics.
struct SchedulerStats {
    uint64_t batches = 0;  // read batches run (a lone read is a batch of one)
    uint64_t reads = 0;    // reads run in them
    int largest_batch = 0;
    uint64_t window_waits = 0;      // batches that waited for the window
    uint64_t generation_units = 0;  // generation steps (and encodes) run
    int queued = 0;                 // reads and generation steps waiting now
    // The last units run, oldest first: n > 0 a batch of n reads, 0 a generation unit.
    std::vector<int> recent;
    PrefixCacheStats prefix_cache;
};

enum class CpuPrecision { Auto, F32, Bf16 };
// "auto", "f32", "bf16"; parse: nullopt for anything else.
const char* cpu_precision_name(CpuPrecision precision);
std::optional<CpuPrecision> parse_cpu_precision(std::string_view text);

struct EngineOptions {
    std::filesystem::path model_dir;
    Device device = Device::Auto;  // Auto: CUDA when a GPU is present, else CPU
    int threads = 0;               // 0: all hardware threads
    // Loading: progress reports, a cancel that makes open() return a "cancelled" error, and
    // a warm-up pass before open() returns (so the first decision runs at full speed).
    LoadProgress load_progress;
    CancelToken cancel;
    bool warm_up = false;
    // Memory the model may use, in bytes; 0: the host's available memory (CPU) or the device's
    // free memory (CUDA). Open refuses a model whose memory plan is larger, naming the weight
    // format and the numbers.
    uint64_t memory_limit_bytes = 0;
    // NVFP4 checkpoints on a GPU with FP4 tensor cores (compute capability 12.x): true quantises
    // the inputs of NVFP4 weights per token to NVFP4 and multiplies on those tensor cores (the
    // format's W4A4 arithmetic, as vLLM runs it on Blackwell: faster, less exact); false (the
    // default) keeps them in bf16, as on every other GPU. No effect elsewhere.
    bool nvfp4_fp4_inputs = false;
    // How the CPU backend holds the weights (no effect on CUDA). F32: every weight converted to
    // f32 at open (quantised ones dequantised), the exact path: 4 bytes a parameter. Bf16: the
    // weights as the checkpoint publishes them (bf16, FP8, NVFP4), read in place from the
    // read-only mapping and multiplied on bf16 dot-product instructions where the CPU has them
    // (slot probabilities within 2e-2 of F32, tested per format). Auto: F32 when its memory plan
    // fits, else Bf16.
    CpuPrecision cpu_precision = CpuPrecision::Auto;
    BatchSettings batching;
    // Bytes of encoded prompts the slot reads keep for later reads that begin with them
    // (PrefixCacheStats). -1: the device's default, 256 MiB of host memory on the CPU and none
    // on CUDA (device memory is planned at open; not yet measured on a GPU); 0: off.
    int64_t prefix_cache_bytes = -1;
};

struct ModelInfo {
    std::string name;    // folder name, or config's _name_or_path
    std::string description;  // config's "description" (empty for published checkpoints)
    std::string device;  // "cpu" or "cuda:0 (NVIDIA H200)"
    int num_layers = 0;
    int hidden_size = 0;
    int vocab_size = 0;
    int canvas_length = 256;  // the served canvas length (config canvas_length)
    int max_context = 0;      // prompt + canvas tokens the engine accepts
    int64_t parameters = 0;
    // How the checkpoint stores its weights ("bf16", "fp8", "nvfp4") and what the engine planned
    // to hold ("nvfp4 checkpoint 18.80 GB, held as f32 (dequantised) ... of host memory").
    std::string weight_format = "bf16";
    std::string memory_plan;
    // Images (0 / false without a vision tower). image_tokens is the most soft tokens one image
    // gives (the processor's max_soft_tokens, 280 on the real model); an image gives fewer when
    // its aspect ratio leaves part of the patch budget unused: image_soft_tokens() says how many.
    int image_tokens = 0;
    TokenId boi_token_id = 255999, image_token_id = 258880, eoi_token_id = 258882;
};

// A decoded image: 8-bit RGB, row-major, width*height*3 bytes.
struct ImageInput {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;
};

// One answer slot of a canvas row: the position inside the canvas and the allowed label ids.
struct SlotSpec {
    int32_t pos = 0;
    std::vector<TokenId> label_ids;
};

// One canvas row of the batched decoder pass (a noise draw, or an isolated read).
struct CanvasRow {
    std::vector<TokenId> ids;  // exactly the canvas width; all rows of a request share the width
    std::vector<SlotSpec> slot_specs;
};

struct SlotReadRequest {
    // Encoded once, shared by every row. Each image of `images` is a run of image_token_id in
    // the prompt, in order (the chat template writes boi, the run, eoi): as many ids as
    // Engine::image_soft_tokens(image) says; the engine puts the image's projected soft tokens
    // at those positions instead of token embeddings.
    std::vector<TokenId> prompt_ids;
    std::vector<CanvasRow> rows;
    std::vector<ImageInput> images;
};

struct SlotReadout {
    std::vector<float> label_logprobs;  // log-softmax over the whole vocabulary, at label_ids
    float label_mass = 0;               // sum of exp(label_logprobs)
    bool argmax_is_label = false;       // whether the unrestricted argmax is one of the labels
    TokenId argmax_id = 0;
};

struct ReadTimings {
    double encode_ms = 0, decode_ms = 0, readout_ms = 0;
};

struct SlotReadResult {
    std::vector<std::vector<SlotReadout>> rows;  // [row][slot], same order as the request
    ReadTimings timings;
    int reused_prompt_tokens = 0;  // prompt tokens taken from the prefix cache, not encoded
};

struct GenerationRequest {
    std::vector<TokenId> prompt_ids;
    std::vector<ImageInput> images;  // as SlotReadRequest::images
    int max_new_tokens = 256;
    uint64_t seed = 0;
    // 0 or empty: take the values from the model's generation_config.json. canvas_length 0:
    // min(config.json canvas_length, max_new_tokens), i.e. one canvas of max_new_tokens when
    // that is shorter than the model's canvas (the reference run with that canvas_length).
    int canvas_length = 0;
    int max_steps = 0;
    std::vector<TokenId> stop_ids;
    // Wall-time bound in seconds (0: none). Past it the answer ends after the denoising step in
    // progress: that canvas's argmax is committed and stopped_on_time_limit is set.
    double time_limit_s = 0;
};

struct GenerationStep {
    int canvas = 0;  // which canvas of the answer (0-based)
    int step = 0;    // denoising step within it (1-based)
    int max_steps = 0;
    float mean_entropy = 0;
    int accepted = 0;  // positions accepted this step
};

struct GenerationResult {
    std::vector<TokenId> tokens;  // committed tokens, cut after the first stop id (stop id dropped)
    std::string text;
    int steps = 0;  // denoising steps over all canvases
    int canvases = 0;
    int canvas_length = 0;  // the canvas width W every canvas had
    bool stopped_on_stop_id = false;
    bool stopped_on_time_limit = false;  // GenerationRequest::time_limit_s ran out first
    double encode_ms = 0, decode_ms = 0, total_ms = 0;
};

using GenerationProgress = std::function<void(const GenerationStep&)>;

class Engine {
  public:
    static Result<std::unique_ptr<Engine>> open(const EngineOptions& options);
    virtual ~Engine() = default;

    virtual const ModelInfo& info() const = 0;
    virtual const Tokenizer& tokenizer() const = 0;

    virtual Result<SlotReadResult> read_slots(const SlotReadRequest& request,
                                              const CancelToken& cancel) = 0;
    virtual Result<GenerationResult> generate(const GenerationRequest& request,
                                              const GenerationProgress& progress,
                                              const CancelToken& cancel) = 0;
    // Soft tokens (image-token ids to put in the prompt) of an image of this size. Errors: the
    // model has no vision tower; the size is 0 or too thin to make one pooled patch.
    virtual Result<int> image_soft_tokens(int width, int height) const = 0;
    virtual SchedulerStats scheduler_stats() const { return {}; }
};

// Whether a CUDA device is usable in this process (false in CPU-only builds).
bool cuda_available();

}  // namespace engine
