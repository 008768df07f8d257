// cpu::gemm_nt, the CPU backend's batch-invariant y = x W^T: every output is the ascending
// fused multiply-add chain over k (checked against that chain written out), and a row's bits do
// not depend on how many rows share the call or where the row sits (the property cross-request
// batching needs; OpenBLAS sgemm does not have it).

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "cpu/gemm_nt.h"
#include "cpu/kernels.h"

class TestGemmNt : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    // Every instruction set this CPU runs (portable, AVX2, AVX-512) gives exactly the chain,
    // for shapes that hit full and partial tiles and panels.
    void equalsTheFmaChain() {
        std::mt19937 rng(3);
        std::normal_distribution<float> normal;
        for (int m : {1, 5, 6, 12, 13, 25})
            for (int n : {1, 15, 16, 17, 33, 64})
                for (int k : {1, 7, 8, 64, 259}) {
                    std::vector<float> x(static_cast<size_t>(m * k)), w(static_cast<size_t>(n * k));
                    for (auto& v : x) v = normal(rng);
                    for (auto& v : w) v = normal(rng);
                    std::vector<float> y(static_cast<size_t>(m * n)), chain(y.size());
                    for (int i = 0; i < m; ++i)
                        for (int j = 0; j < n; ++j) {
                            float acc = 0;
                            for (int q = 0; q < k; ++q)
                                acc = std::fma(x[static_cast<size_t>(i * k + q)],
                                               w[static_cast<size_t>(j * k + q)], acc);
                            chain[static_cast<size_t>(i * n + j)] = acc;
                        }
                    for (engine::cpu::GemmIsa isa : engine::cpu::supported_gemm_isas()) {
                        std::fill(y.begin(), y.end(), -7.0f);
                        engine::cpu::gemm_nt(isa, x.data(), k, w.data(), k, y.data(), n, m, n, k);
                        QVERIFY2(std::memcmp(y.data(), chain.data(), y.size() * sizeof(float)) == 0,
                                 qPrintable(QString("%1 m=%2 n=%3 k=%4")
                                                .arg(engine::cpu::gemm_isa_name(isa))
                                                .arg(m)
                                                .arg(n)
                                                .arg(k)));
                    }
                }
    }

    // gemm_nn (attention's probabilities x values): the chain over k down B's column, from zero
    // or continuing from y, on every instruction set; B's rows wider than the product (a head's
    // slice of the value cache) are read in place.
    void nnEqualsTheFmaChain() {
        std::mt19937 rng(5);
        std::normal_distribution<float> normal;
        for (int m : {1, 7, 12, 30})
            for (int n : {5, 16, 32, 40})
                for (int k : {1, 9, 100})
                    for (bool accumulate : {false, true}) {
                        const int ldb = n + 3;
                        std::vector<float> x(static_cast<size_t>(m * k)),
                            b(static_cast<size_t>(k * ldb)), y0(static_cast<size_t>(m * n));
                        for (auto& v : x) v = normal(rng);
                        for (auto& v : b) v = normal(rng);
                        for (auto& v : y0) v = normal(rng);
                        std::vector<float> chain(y0.size()), y(y0.size());
                        for (int i = 0; i < m; ++i)
                            for (int j = 0; j < n; ++j) {
                                float acc = accumulate ? y0[static_cast<size_t>(i * n + j)] : 0.0f;
                                for (int q = 0; q < k; ++q)
                                    acc = std::fma(x[static_cast<size_t>(i * k + q)],
                                                   b[static_cast<size_t>(q * ldb + j)], acc);
                                chain[static_cast<size_t>(i * n + j)] = acc;
                            }
                        for (engine::cpu::GemmIsa isa : engine::cpu::supported_gemm_isas()) {
                            y = y0;
                            engine::cpu::gemm_nn(isa, x.data(), k, b.data(), ldb, y.data(), n, m, n,
                                                 k, accumulate);
                            QVERIFY2(
                                std::memcmp(y.data(), chain.data(), y.size() * sizeof(float)) == 0,
                                qPrintable(QString("%1 m=%2 n=%3 k=%4 accumulate=%5")
                                               .arg(engine::cpu::gemm_isa_name(isa))
                                               .arg(m)
                                               .arg(n)
                                               .arg(k)
                                               .arg(accumulate)));
                        }
                    }
    }

    // Rows [r0, r0 + m) of a 97-row product, computed alone, give the same bits.
    void rowsAreBatchInvariant() {
        constexpr int M = 97, N = 100, K = 320;
        std::mt19937 rng(4);
        std::normal_distribution<float> normal;
        std::vector<float> x(M * K), w(N * K), full(M * N), part(M * N);
        for (auto& v : x) v = normal(rng);
        for (auto& v : w) v = normal(rng);
        engine::cpu::gemm_nt(x.data(), K, w.data(), K, full.data(), N, M, N, K);
        for (int m : {1, 2, 5, 7, 16, 31})
            for (int r0 : {0, 1, 5, 30, 60}) {
                engine::cpu::gemm_nt(x.data() + r0 * K, K, w.data(), K, part.data(), N, m, N, K);
                QVERIFY2(std::memcmp(part.data(), full.data() + r0 * N,
                                     sizeof(float) * static_cast<size_t>(m * N)) == 0,
                         qPrintable(QString("rows %1..%2").arg(r0).arg(r0 + m)));
            }
        // Column splits (how the backend spreads a product over its pool) change nothing either.
        for (int c0 : {0, 3, 16, 64}) {
            engine::cpu::gemm_nt(x.data(), K, w.data() + c0 * K, K, part.data(), N - c0, M, N - c0,
                                 K);
            for (int i = 0; i < M; ++i)
                QVERIFY(std::memcmp(&part[static_cast<size_t>(i * (N - c0))],
                                    &full[static_cast<size_t>(i * N + c0)],
                                    sizeof(float) * static_cast<size_t>(N - c0)) == 0);
        }
    }

    // Weights packed once at load (the path every projection takes) give gemm_nt's bits, for any
    // column range that starts a panel and any row count; the panel prefetch of the row tiles
    // (one tile, a few, many) moves data only.
    void packedEqualsUnpacked() {
        constexpr int N = 200, K = 96;
        std::mt19937 rng(9);
        std::normal_distribution<float> normal;
        std::vector<float> w(N * K), x(40 * K);
        for (auto& v : w) v = normal(rng);
        for (auto& v : x) v = normal(rng);
        const engine::cpu::PackedMatrix p = engine::cpu::pack_matrix(w.data(), N, K);
        const int64_t width = std::max<int64_t>(1, p.width);
        for (int m : {1, 12, 13, 40})
            for (int64_t j0 = 0; j0 < N; j0 += 2 * width) {
                const int64_t j1 = std::min<int64_t>(N, j0 + 3 * width + 5), n = j1 - j0;
                std::vector<float> want(static_cast<size_t>(m * n)), got(want.size());
                engine::cpu::gemm_nt(x.data(), K, w.data() + j0 * K, K, want.data(), n, m, n, K);
                engine::cpu::gemm_nt_packed(x.data(), K, p, j0, j1, got.data(), n, m);
                QVERIFY2(std::memcmp(want.data(), got.data(), sizeof(float) * want.size()) == 0,
                         qPrintable(QString("m %1, outputs %2..%3").arg(m).arg(j0).arg(j1)));
            }
    }

    // The vectorised element-wise steps equal the plain loops bit for bit, at every length
    // (masked tails) and in place.
    void elementwiseStepsEqualPlainLoops() {
        std::mt19937 rng(5);
        std::normal_distribution<float> normal;
        for (int n : {1, 7, 15, 16, 17, 33, 256, 301}) {
            std::vector<float> x(static_cast<size_t>(n)), a(x.size()), w(x.size());
            for (size_t i = 0; i < x.size(); ++i) {
                x[i] = normal(rng);
                a[i] = normal(rng);
                w[i] = normal(rng);
            }
            const float s = 0.37f;
            std::vector<float> want(x.size()), got = x;
            for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] + a[i];
            engine::cpu::add_inplace(got.data(), a.data(), n);
            QVERIFY2(got == want, qPrintable(QString("add, n %1").arg(n)));
            got = x;
            for (size_t i = 0; i < x.size(); ++i) want[i] = (x[i] + a[i]) * s;
            engine::cpu::add_scale_inplace(got.data(), a.data(), s, n);
            QVERIFY2(got == want, qPrintable(QString("add-scale, n %1").arg(n)));
            for (size_t i = 0; i < x.size(); ++i) want[i] = (x[i] * w[i]) * s;
            engine::cpu::mul_scale(x.data(), w.data(), s, got.data(), n);
            QVERIFY2(got == want, qPrintable(QString("mul-scale, n %1").arg(n)));
            got = x;
            for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] * s;
            engine::cpu::mul_scale(got.data(), nullptr, s, got.data(), n);
            QVERIFY2(got == want, qPrintable(QString("scale in place, n %1").arg(n)));
        }
    }
};

QTEST_GUILESS_MAIN(TestGemmNt)
#include "tst_backend_gemm_nt.moc"
