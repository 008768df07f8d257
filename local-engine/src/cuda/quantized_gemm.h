#pragma once
// Matrix products with quantised weights kept packed on the device (model/quantized.h has the
// layouts): the weight is dequantised inside the GEMM kernel, tile by tile, so no bf16 copy of
// it exists in memory.
//
//   NVFP4 (ModelOpt):          y = x * W^T, x bf16, W = e2m1 * e4m3(block scale) * global(row)
//   FP8 dynamic (compressed-tensors): x is quantised per token to E4M3 (scale max|x| / 448), then
//                              y[t, r] = sum(e4m3(xq) * e4m3(w)) * x_scale[t] * w_scale[r]
//   FP8 weight-only:           y = x * W^T with W = e4m3 * w_scale(row), x bf16
//
// The weight-dequantising kernels are plain tiled CUDA (fp32 accumulation) on every architecture
// the build targets (sm_80/89/90/120); FP8 dynamic uses the FP8 tensor cores (mma m16n8k32
// E4M3) on sm_89 and later and the tiled kernel on sm_80. NVFP4 does not use sm_120's FP4 tensor
// cores yet (its activations stay bf16). NOT YET RUN ON A GPU: they compile with -Werror here and
// engine_tst_cuda_quantized checks them against the CPU dequantisation where a GPU exists.
// The CUDA backend's forward pass runs FP8 weights through the dynamic-activation path
// (quantize_rows_e4m3, then the FP8 GEMM: the format's own arithmetic) and NVFP4 weights through
// the weight-dequantising kernel (launch_packed_gemm, bf16 activations).

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

// y[tokens, rows] (f32) = x[tokens, cols] (bf16) * W^T, W dequantised in the kernel (FP8
// weight-only or NVFP4).
void quantized_gemm(const DeviceQuantizedMatrix& w, const bf16_t* x, int tokens, float* y,
                    cudaStream_t stream);

// FP8 dynamic activations: xq[tokens, cols] E4M3 codes and x_scale[tokens] = max|x_t| / 448.
void quantize_rows_e4m3(const bf16_t* x, int tokens, int cols, uint8_t* xq, float* x_scale,
                        cudaStream_t stream);
// y[tokens, rows] = (xq * Wq^T) * x_scale[t] * w_scale[r] (FP8 weights only); on sm_89 and
// later through the FP8 tensor cores unless tensor_cores is false.
void fp8_dynamic_gemm(const DeviceQuantizedMatrix& w, const uint8_t* xq, const float* x_scale,
                      int tokens, float* y, cudaStream_t stream, bool tensor_cores = true);

}  // namespace engine::cuda
