#pragma once
// The CPU backend's matrix products, ours rather than OpenBLAS sgemm because they are
// batch-invariant: each output is one chain of fused multiply-adds over k in ascending order,
// whatever m, n, the row's position in x or the tile it falls in. A request's rows therefore give
// the same bits alone or inside any cross-request batch. OpenBLAS does not promise that: its
// micro-kernels and edge tiles sum differently by the row's position and the call's M (measured:
// rows of the same x differ in the last bits between M=1..64 calls and one M=1024 call). And the
// OpenBLAS Debian ships (0.3.21) does not know Zen 5 and falls back to its SSE3 kernels there.
//
// Three instruction sets compute the very same chains (std::fma rounds as the vector FMA does), so
// the bits do not depend on which one runs: AVX-512 (32-wide panels), AVX2/FMA (16-wide) and a
// portable loop.

#include <cstdint>
#include <span>
#include <vector>

namespace engine::cpu {

enum class GemmIsa { portable, avx2, avx512 };

// Rows of the largest row tile (AVX-512's; a multiple of every path's): callers that split rows
// into blocks of a multiple of it pay for no partial tile but the last.
inline constexpr int64_t kGemmTileRows = 12;

// The instruction sets this CPU runs, portable first, and the fastest of them.
std::span<const GemmIsa> supported_gemm_isas();
GemmIsa best_gemm_isa();
const char* gemm_isa_name(GemmIsa isa);

// y[i * ldy + j] = sum_k x[i * ldx + k] * w[j * ldw + k], i < m, j < n (y = x W^T, both row-major).
// Single-threaded: callers split rows or columns over their pool (any split gives the same bits).
void gemm_nt(const float* x, int64_t ldx, const float* w, int64_t ldw, float* y, int64_t ldy,
             int64_t m, int64_t n, int64_t k);
void gemm_nt(GemmIsa isa, const float* x, int64_t ldx, const float* w, int64_t ldw, float* y,
             int64_t ldy, int64_t m, int64_t n, int64_t k);

// A weight matrix W [n][k] packed once, at load, into the k-major panels gemm_nt would otherwise
// build on every call (for the fastest instruction set; a plain row-major copy where there is
// no vector path). The same values in the same order per output: products with it have the
// bits of gemm_nt on W.
struct PackedMatrix {
    std::vector<float> data;  // panels [ceil(n / width)][k][width], zero-padded; or [n][k]
    int64_t n = 0, k = 0;
    int64_t width = 0;  // outputs per panel; 0: row-major
    bool empty() const { return n == 0; }
};
PackedMatrix pack_matrix(const float* w, int64_t n, int64_t k);

// y[i * ldy + (j - j0)] = sum_k x[i * ldx + k] * W[j][k] for outputs j in [j0, j1) of a packed W;
// j0 must start a panel (a multiple of w.width). Single-threaded, as gemm_nt.
void gemm_nt_packed(const float* x, int64_t ldx, const PackedMatrix& w, int64_t j0, int64_t j1,
                    float* y, int64_t ldy, int64_t m);

// y[i * ldy + j] (+)= sum_k x[i * ldx + k] * b[k * ldb + j] (y = x B, B row-major [k][n]; the
// chain starts from y's value when `accumulate`, else from zero). Attention's probabilities
// times values: B needs no packing, its rows are already the k-major panel the tiles read.
void gemm_nn(const float* x, int64_t ldx, const float* b, int64_t ldb, float* y, int64_t ldy,
             int64_t m, int64_t n, int64_t k, bool accumulate);
void gemm_nn(GemmIsa isa, const float* x, int64_t ldx, const float* b, int64_t ldb, float* y,
             int64_t ldy, int64_t m, int64_t n, int64_t k, bool accumulate);

}  // namespace engine::cpu
