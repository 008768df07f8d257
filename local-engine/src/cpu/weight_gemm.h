#pragma once
// Products with weights held as the checkpoint publishes them (the CPU backend's "bf16"
// precision, issue 41): bf16 matrices read in place from the mapped safetensors file, FP8 (E4M3
// values + one scale per row) and NVFP4 (E2M1 pairs + an E4M3 scale per 16 values + a global
// scale) kept packed and decoded a few rows at a time inside the product, never whole.
//
// Arithmetic: where the CPU has AVX-512 BF16 (chosen at run time), activations are rounded to
// bf16 (nearest even) once per product and multiplied on VDPBF16PS with f32 accumulation; the
// weights' own values are exact in bf16 (an E4M3 value is, and so is E2M1 times an E4M3 block
// scale), the FP8 row scale and the NVFP4 global scale multiply each output's sum. Elsewhere the
// same products run in f32 on the decoded values (no activation rounding). Either way each output
// is one fixed chain over k whatever the number of rows or the tile it falls in, so a row's
// outputs do not depend on the other rows of the call (a cross-request batch keeps its bits).
// Bits differ from the f32 path (cpu/gemm_nt.h); the engine states and tests the tolerance.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/gemm_nt.h"

namespace engine::cpu {

enum class WeightCoding : uint8_t { bf16, fp8, nvfp4 };
const char* weight_coding_name(WeightCoding coding);

// Rows [first_row, first_row + rows) of a matrix, stored in one coding in borrowed memory (the
// mapping must outlive the matrix).
struct NativeBlock {
    WeightCoding coding = WeightCoding::bf16;
    int64_t first_row = 0, rows = 0;
    const std::byte* values = nullptr;      // bf16 [rows][k] | e4m3 [rows][k] | e2m1 [rows][k/2]
    const uint8_t* block_scales = nullptr;  // nvfp4: e4m3 [rows][k/16]
    std::vector<float> row_scales;          // fp8: [rows] (read from the checkpoint's scales)
    float global_scale = 1.0f;              // nvfp4: weight_scale_2
};

struct NativeMatrix {
    int64_t n = 0, k = 0;
    std::vector<NativeBlock> blocks;  // ascending first_row, together covering [0, n)
    // Bytes the blocks borrow from the checkpoint (values and block scales).
    uint64_t borrowed_bytes() const;
};

// A weight matrix [n][k] as the CPU backend holds it: packed f32 panels (the exact path) or
// native blocks. Products go through gemm_weight whatever it holds.
struct WeightMatrix {
    PackedMatrix f32;
    NativeMatrix native;
    bool is_native() const { return !native.blocks.empty(); }
    bool empty() const { return f32.empty() && native.n == 0; }
    int64_t n() const { return is_native() ? native.n : f32.n; }
    int64_t k() const { return is_native() ? native.k : f32.k; }
    // Outputs per column split unit: a split of [0, n) at multiples of it costs no partial tile
    // (native: a decoded panel).
    int64_t width() const;
};

// Whether this CPU multiplies bf16 pairs into f32 (AVX-512 BF16), the run-time choice.
bool bf16_dot_supported();

// y[i * ldy + (j - j0)] = sum_k x[i * ldx + k] * W[j][k], outputs j in [j0, j1), rows i < m.
// f32 matrices: gemm_nt_packed (the same bits); j0 must start a panel. Single-threaded.
void gemm_weight(const float* x, int64_t ldx, const WeightMatrix& w, int64_t j0, int64_t j1,
                 float* y, int64_t ldy, int64_t m);

// Row `row` of a native matrix as f32 (the embedding lookups and single logits).
void native_row_to_float(const NativeMatrix& w, int64_t row, float* dst);
// Rows [r0, r0 + rows), columns [c0, c0 + cols) as f32 into dst[rows][cols].
void native_block_to_float(const NativeMatrix& w, int64_t r0, int64_t rows, int64_t c0,
                           int64_t cols, float* dst);

// Peak of the bf16 dot-product instruction on one core, GFLOP/s, measured by running `seconds`
// of independent VDPBF16PS chains (0 where the CPU has none). For benchmarks.
double measure_bf16_peak_gflops(double seconds);

}  // namespace engine::cpu
