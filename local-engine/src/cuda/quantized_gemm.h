#pragma once
// A quantised weight uploaded on its own, packed as published (model/quantized.h has the
// layouts), for the quantised GEMMs' checks and benchmarks (quantized_check.h); the model's
// weights live in device_weights.h. The GEMMs themselves are quantized_kernels.h's:
//
//   NVFP4 (ModelOpt):          y = x * W^T, x bf16, W = e2m1 * e4m3(block scale) * global(row)
//   NVFP4 x NVFP4 (sm_120):    x is quantised per token to NVFP4 (global max|x| / (6 * 448), E4M3
//                              scale per 16 values), then the block-scaled FP4 mma
//   FP8 dynamic (compressed-tensors): x is quantised per token to E4M3 (scale max|x| / 448), then
//                              y[t, r] = sum(e4m3(xq) * e4m3(w)) * x_scale[t] * w_scale[r]
//   FP8 weight-only:           y = x * W^T with W = e4m3 * w_scale(row), x bf16
//
// Packed weights with bf16 activations run on the bf16 tensor cores, the weight decoded exactly
// to bf16 in shared memory; FP8 dynamic on the FP8 tensor cores (sm_89 and later) or a tiled
// fp32 kernel (sm_80); NVFP4 x NVFP4 on sm_120's FP4 tensor cores. The CUDA backend's forward
// pass runs FP8 weights through the dynamic path (the format's own arithmetic) and NVFP4 through
// the bf16 one, or the FP4 one when asked (EngineOptions::nvfp4_fp4_inputs) and the device has
// it. NOT YET RUN ON A GPU: they compile with -Werror here and engine_tst_cuda_quantized checks
// them against the CPU dequantisation where a GPU exists.

#include <cstdint>

#include "cuda/cuda_util.h"
#include "cuda/kernels.h"
#include "model/config.h"
#include "model/safetensors.h"

namespace engine::cuda {

// A quantised weight [rows, cols] in device memory, its parts (model::QuantizedSource)
// concatenated along the rows.
struct DeviceQuantizedMatrix {
    model::WeightFormat format = model::WeightFormat::FP8;
    int rows = 0, cols = 0;
    DeviceBuffer values;        // FP8: uint8 [rows, cols]; NVFP4: uint8 [rows, cols / 2]
    DeviceBuffer block_scales;  // NVFP4: uint8 E4M3 [rows, cols / 16]; FP8: unused
    DeviceBuffer row_scales;    // float [rows]: FP8 the channel scale, NVFP4 the global scale
};

// Uploads a quantised logical tensor (TensorView::quantized, all parts FP8 or all NVFP4).
// Synchronous.
Result<void> upload_quantized(const model::TensorView& tensor, DeviceQuantizedMatrix& out);

}  // namespace engine::cuda
