#pragma once
// ops::VisionOps: the operators of the vision tower (model/vision_tower.cpp), which is written
// once over them as the text model is over ops::Ops. The tower runs once per image, before the
// text passes, on a few hundred to a few thousand patch rows, so its activations are host fp32
// vectors [rows, width] row-major; a device may move them (the CUDA operators copy in and out per
// call, which costs little next to the GEMMs at the real model's sizes).

#include <cstdint>
#include <memory>
#include <span>

#include "engine/result.h"
#include "model/safetensors.h"

namespace engine::ops {

class VisionOps {
  public:
    virtual ~VisionOps() = default;

    // y = x W^T for `rows` rows; W is a checkpoint tensor [out, in] (any stored dtype).
    virtual void linear(const model::TensorView& w, std::span<const float> x, int64_t rows,
                        std::span<float> y) = 0;
    // Each `dim`-wide row: y = x * (mean(x^2) + eps)^-0.5 [* w] (w may be null: weightless).
    // x and y may be the same span.
    virtual void rmsnorm(std::span<const float> x, int64_t dim, const model::TensorView* w,
                         double eps, std::span<float> y) = 0;
    // 2-D RoPE in place over x [rows, heads, head_dim]: the first head_dim/2 channels rotate by
    // the row's pos_x, the second half by pos_y, each NeoX style (channel i with i + head_dim/4),
    // angle = pos * inv_freq[i], inv_freq of head_dim/4 entries.
    virtual void rope_2d(std::span<float> x, int64_t rows, int heads, int head_dim,
                         std::span<const int32_t> pos_x, std::span<const int32_t> pos_y,
                         std::span<const float> inv_freq) = 0;
    // Bidirectional attention over all rows, scale 1: out = softmax(q k^T) v per head; query
    // head j reads kv head j / (heads / kv_heads). q/out [rows, heads*hd], k/v [rows, kv*hd].
    virtual void attention(std::span<const float> q, std::span<const float> k,
                           std::span<const float> v, int64_t rows, int heads, int kv_heads,
                           int head_dim, std::span<float> out) = 0;
    // a = gelu_tanh(a) * b elementwise.
    virtual void gelu_mul(std::span<float> a, std::span<const float> b) = 0;
    // The first error of the operators since the last call (a device's failures surface here;
    // the tower checks it once per image), then clears it.
    virtual Result<void> take_status() { return {}; }
};

// The CPU operators (OpenBLAS for the products). Weights in bf16/f16 are converted to fp32 once,
// on first use, and kept.
std::unique_ptr<VisionOps> make_cpu_vision_ops();

}  // namespace engine::ops
