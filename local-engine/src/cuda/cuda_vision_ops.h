#pragma once
// The vision tower's CUDA operators (ops::VisionOps over cuBLAS and vision_kernels.cu).

#include <memory>

#include "engine/result.h"
#include "ops/vision_ops.h"

namespace engine::cuda {

// Device 0, its own cuBLAS handle and stream. Weights are converted to fp32 on the device on
// first use and kept; activations are copied in and out per call (host fp32, as VisionOps says).
std::unique_ptr<ops::VisionOps> make_cuda_vision_ops();

}  // namespace engine::cuda
