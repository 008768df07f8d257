#pragma once
// Binding a checkpoint's tensors as native weight matrices (cpu/weight_gemm.h): views into the
// mapped safetensors bytes, no copy but the FP8 row scales (one float per row).

#include <cstdint>
#include <optional>

#include "cpu/weight_gemm.h"
#include "model/safetensors.h"

namespace engine::cpu {

// Rows [first_row, first_row + rows) of `t` read as a matrix [*, k] (a 3-D expert tensor
// [E, n, k] is [E * n, k]). nullopt when a row of the range is stored in a type the native
// products do not take (F32 or F16): the caller then holds that weight as f32.
std::optional<NativeMatrix> native_rows(const model::TensorView& t, int64_t first_row, int64_t rows,
                                        int64_t k);

}  // namespace engine::cpu
