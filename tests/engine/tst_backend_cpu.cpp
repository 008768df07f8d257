// The CPU ComputeBackend through its own interface (the drivers' view): incremental encoding (the
// generation loop encodes each committed canvas after the prompt) equals one pass over the whole
// sequence, decoding never writes the cache, and the constrained readout agrees with the full
// logits.

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>

#include "backend/compute_backend.h"
#include "engine/tiny_model.h"
#include "model/weights.h"

namespace fs = std::filesystem;
using engine::TokenId;

namespace {

std::vector<TokenId> ids(int n, int salt) {
    std::vector<TokenId> v;
    for (int i = 0; i < n; ++i)
        v.push_back(static_cast<TokenId>((31 + 104729 * i + salt * 7) % 262144));
    return v;
}

float max_diff(const std::vector<float>& a, const std::vector<float>& b) {
    float m = a.size() == b.size() ? 0.0f : 1e9f;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        m = std::max(m, std::abs(a[i] - b[i]));
    return m;
}

}  // namespace

class TestBackendCpu : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    std::unique_ptr<engine::backend::ComputeBackend> be_;

  private Q_SLOTS:
    void initTestCase() {
        engine::TinyModelOptions o;
        o.out_dir = fs::path(tmp_.path().toStdString()) / "tiny";
        o.seed = 11;
        QVERIFY(engine::write_tiny_model(o).ok());
        auto w = engine::model::load_model_weights(o.out_dir);
        QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
        auto b = engine::backend::make_cpu_backend(w.value(), 2);
        QVERIFY(b.ok());
        be_ = std::move(b.value());
    }

    void incrementalEncodeEqualsOnePass() {
        const auto prompt = ids(37, 1), canvas = ids(24, 2);
        std::vector<TokenId> all = prompt;
        all.insert(all.end(), canvas.begin(), canvas.end());
        engine::CancelToken never;
        auto one = be_->create_cache(static_cast<int>(all.size()));
        QVERIFY(be_->encode(**one, all, never).ok());
        auto two = be_->create_cache(static_cast<int>(all.size()));
        QVERIFY(be_->encode(**two, prompt, never).ok());
        QVERIFY(be_->encode(**two, canvas, never).ok());
        QCOMPARE((*two)->length(), 61);
        for (int l = 0; l < be_->config().num_layers; ++l) {
            std::vector<float> k1, v1, k2, v2;
            QVERIFY(be_->read_cache(**one, l, k1, v1).ok());
            QVERIFY(be_->read_cache(**two, l, k2, v2).ok());
            QVERIFY2(max_diff(k1, k2) < 1e-5f, qPrintable(QString("layer %1 K").arg(l)));
            QVERIFY2(max_diff(v1, v2) < 1e-5f, qPrintable(QString("layer %1 V").arg(l)));
        }
        // Over capacity is an error, not a write past the end.
        QVERIFY(!be_->encode(**two, canvas, never).ok());
    }

    void decodeReadsCacheAndReadoutAgrees() {
        engine::CancelToken never;
        auto cache = be_->create_cache(30);
        QVERIFY(be_->encode(**cache, ids(30, 3), never).ok());
        std::vector<float> before_k, before_v;
        QVERIFY(be_->read_cache(**cache, 5, before_k, before_v).ok());
        const auto canvas = ids(2 * 16, 4);
        engine::backend::DecodeBatch batch;
        batch.rows = 2;
        batch.width = 16;
        batch.ids = canvas;
        auto decoded = be_->decode(**cache, batch, never);
        QVERIFY(decoded.ok());
        std::vector<float> after_k, after_v;
        QVERIFY(be_->read_cache(**cache, 5, after_k, after_v).ok());
        QCOMPARE(after_k, before_k);
        QCOMPARE((*cache)->length(), 30);

        std::vector<float> logits;
        QVERIFY(be_->logits(**decoded, logits).ok());
        const int64_t V = be_->config().vocab_size;
        QCOMPARE(static_cast<int64_t>(logits.size()), 2 * 16 * V);
        const std::vector<TokenId> want = {0, 1, 106, 262143};
        std::vector<engine::backend::PositionQuery> qs = {{0, 3, want}, {1, 15, want}};
        auto ro = be_->read_positions(**decoded, qs);
        QVERIFY(ro.ok());
        for (size_t q = 0; q < qs.size(); ++q) {
            const float* row = &logits[static_cast<size_t>((qs[q].row * 16 + qs[q].pos) * V)];
            double m = row[0], s = 0;
            int64_t arg = 0;
            for (int64_t j = 0; j < V; ++j)
                if (row[j] > m) {
                    m = row[j];
                    arg = j;
                }
            for (int64_t j = 0; j < V; ++j) s += std::exp(row[j] - m);
            QVERIFY(std::abs((*ro)[q].logsumexp - (m + std::log(s))) < 1e-4);
            QCOMPARE(static_cast<int64_t>((*ro)[q].argmax), arg);
            for (size_t i = 0; i < want.size(); ++i)
                QVERIFY(std::abs((*ro)[q].logits[i] - row[want[i]]) < 1e-4f);
        }
        // A position outside the canvas is refused.
        std::vector<engine::backend::PositionQuery> bad = {{2, 0, want}};
        QVERIFY(!be_->read_positions(**decoded, bad).ok());
    }

    void cancelledEncodeLeavesUnusableCache() {
        engine::CancelToken cancel;
        cancel.cancel();
        auto cache = be_->create_cache(10);
        auto r = be_->encode(**cache, ids(10, 5), cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::Cancelled);
        QVERIFY(!be_->encode(**cache, ids(1, 5), engine::CancelToken()).ok());
    }
};

QTEST_GUILESS_MAIN(TestBackendCpu)
#include "tst_backend_cpu.moc"
