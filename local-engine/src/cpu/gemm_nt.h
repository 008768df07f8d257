#pragma once
// y[m, n] = x[m, :] . w[n, :] for every row of x and every row of w (y = x W^T, both row-major,
// reduced over k): a kernel of ours rather than OpenBLAS sgemm, because it is batch-invariant.
// Each output is one chain of fused multiply-adds over k in ascending order, whatever m, n, the
// row's position in x or the tile it falls in. A request's rows therefore give the same bits
// alone or inside any cross-request batch. OpenBLAS does not promise that: its micro-kernels
// and edge tiles sum differently by the row's position and the call's M (measured: rows of the
// same x differ in the last bits between M=1..64 calls and one M=1024 call).

#include <cstdint>

namespace engine::cpu {

// y[i * ldy + j] = sum_k x[i * ldx + k] * w[j * ldw + k], i < m, j < n. Single-threaded: callers
// split rows or columns over their pool (any split gives the same bits).
void gemm_nt(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y, int64_t ldy,
             int64_t m, int64_t n, int64_t k);

}  // namespace engine::cpu
