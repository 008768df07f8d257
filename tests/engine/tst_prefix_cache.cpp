// The slot reads' prompt-prefix cache (driver/prefix_cache.h) on the real tiny model through the
// real loader: a prompt encoded in two passes (a cached prefix, then the rest) holds the K/V of
// the prompt encoded at once, bit for bit, at every split (inside and across the sliding window
// and the attention blocks); reads that hit the cache whole, in part, or as a prefix of a longer
// cached prompt answer with the bits of an engine without the cache, alone and batched; the
// budget bounds what is kept (least recently used out first); prompts with images bypass it.

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <thread>

#include "backend/compute_backend.h"
#include "engine/engine.h"
#include "model/weights.h"
#include "slot_read_bits.h"
#include "tiny_model_dir.h"

namespace fs = std::filesystem;
using engine::TokenId;

namespace {

std::vector<TokenId> prompt_of(int length, uint32_t salt) {
    std::vector<TokenId> ids{2};
    for (int i = 1; i < length; ++i)
        ids.push_back(static_cast<TokenId>((1000 + 7919 * i + 131 * salt) % 262144));
    return ids;
}

engine::SlotReadRequest read_of(std::vector<TokenId> prompt, int rows, int width, uint32_t salt) {
    engine::SlotReadRequest r;
    r.prompt_ids = std::move(prompt);
    uint32_t s = salt * 2654435761u + 1;
    for (int k = 0; k < rows; ++k) {
        engine::CanvasRow row;
        for (int i = 0; i < width; ++i) {
            s = s * 1664525u + 1013904223u;
            row.ids.push_back(static_cast<TokenId>(s % 262144));
        }
        row.slot_specs = {{1, {4521, 3553, 107}}, {width - 2, {236881, 2}}};
        r.rows.push_back(std::move(row));
    }
    return r;
}

}  // namespace

class TestPrefixCache : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    fs::path dir_;
    std::unique_ptr<engine::Engine> plain_;  // no prefix cache: the bits to match

    std::unique_ptr<engine::Engine> open(int64_t prefix_bytes, int max_reads = 32) {
        engine::EngineOptions eo;
        eo.model_dir = dir_;
        eo.device = engine::Device::Cpu;
        eo.threads = 2;
        eo.prefix_cache_bytes = prefix_bytes;
        eo.batching.max_reads = max_reads;
        auto e = engine::Engine::open(eo);
        if (!e) qFatal("open: %s", e.error().message.c_str());
        return std::move(e.value());
    }

    engine::SlotReadResult plain(const engine::SlotReadRequest& r) {
        auto a = plain_->read_slots(r, {});
        if (!a) qFatal("plain read: %s", a.error().message.c_str());
        return *a;
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        dir_ = fs::path(tmp_.path().toStdString()) / "tiny";
        const std::string error = write_suite_tiny_model(dir_, 9);
        QVERIFY2(error.empty(), error.c_str());
        plain_ = open(0);
        QCOMPARE(plain_->scheduler_stats().prefix_cache.budget_bytes, uint64_t(0));
    }

    // The invariant the cache rests on, at the backend: a prompt encoded as [0, k) then [k, n)
    // (the second pass starting at the cached length) holds every layer's K and V of the prompt
    // encoded at once. The tiny model's window is 16 and the CPU's causal attention runs in
    // blocks of 32 queries, so the splits cover both seams.
    void splitEncodeEqualsWholeEncode() {
        auto w = engine::model::load_model_weights(dir_);
        QVERIFY(w.ok());
        auto be = engine::backend::make_cpu_backend(w.value(), 2);
        QVERIFY(be.ok());
        engine::backend::ComputeBackend& b = **be;
        const std::vector<TokenId> ids = prompt_of(113, 4);
        const int n = static_cast<int>(ids.size());
        auto whole = b.create_cache(n);
        QVERIFY(whole.ok());
        QVERIFY(b.encode(**whole, ids, {}).ok());
        const int layers = b.config().num_layers;
        for (int k : {1, 2, 15, 16, 17, 31, 32, 33, 47, 64, 100, 112}) {
            // The prefix encoded alone, copied into a cache of the whole length, then the rest.
            auto head = b.create_cache(k);
            QVERIFY(head.ok());
            QVERIFY(b.encode(**head, std::span(ids).first(static_cast<size_t>(k)), {}).ok());
            auto split = b.copy_cache(**head, k, n);
            QVERIFY2(split.ok(), split.ok() ? "" : split.error().message.c_str());
            QCOMPARE((*split)->length(), k);
            QVERIFY(b.encode(**split, std::span(ids).subspan(static_cast<size_t>(k)), {}).ok());
            QCOMPARE((*split)->length(), n);
            for (int l = 0; l < layers; ++l) {
                std::vector<float> k1, v1, k2, v2;
                QVERIFY(b.read_cache(**whole, l, k1, v1).ok());
                QVERIFY(b.read_cache(**split, l, k2, v2).ok());
                QCOMPARE(k1.size(), k2.size());
                QVERIFY2(std::memcmp(k1.data(), k2.data(), k1.size() * 4) == 0 &&
                             std::memcmp(v1.data(), v2.data(), v1.size() * 4) == 0,
                         qPrintable(QString("split at %1, layer %2").arg(k).arg(l)));
            }
        }
        // A copy asks for no more than the source holds.
        auto too_long = b.copy_cache(**whole, n + 1, n + 4);
        QVERIFY(!too_long.ok());
        QVERIFY2(QString::fromStdString(too_long.error().message).contains("114 tokens"),
                 too_long.error().message.c_str());
        QVERIFY(b.cache_bytes(10) > 0 && b.cache_bytes(20) == 2 * b.cache_bytes(10));
    }

    // Reads through the cache: a miss, the whole prompt again (no encoder pass), a prompt that
    // shares a prefix, and a prefix of a cached prompt: each answers with the bits of the engine
    // without a cache and says how many prompt tokens it took from the cache.
    void readsThroughTheCacheMatchPlainReads() {
        auto e = open(-1);  // the CPU default
        QCOMPARE(e->scheduler_stats().prefix_cache.budget_bytes, uint64_t{256} << 20);
        const auto s0 = e->scheduler_stats().prefix_cache;  // after the warm-up read, if any
        const std::vector<TokenId> base = prompt_of(130, 1);
        std::vector<TokenId> shares = std::vector<TokenId>(base.begin(), base.begin() + 77);
        for (TokenId t : prompt_of(60, 2)) shares.push_back((t + 5) % 262144);
        const std::vector<TokenId> prefix(base.begin(), base.begin() + 41);
        struct Case {
            engine::SlotReadRequest read;
            int reused;
        };
        const std::vector<Case> cases = {
            {read_of(base, 3, 8, 1), 0},      // miss: encoded and kept
            {read_of(base, 2, 16, 2), 130},   // the whole prompt: decoder pass only
            {read_of(shares, 4, 8, 3), 77},   // a shared prefix: 60 tokens encoded
            {read_of(prefix, 1, 8, 4), 41},   // a prefix of a cached prompt: nothing encoded
            {read_of(shares, 1, 12, 5), 137}  // the second prompt, now cached whole
        };
        for (size_t i = 0; i < cases.size(); ++i) {
            auto got = e->read_slots(cases[i].read, {});
            QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
            QCOMPARE(got->reused_prompt_tokens, cases[i].reused);
            QVERIFY2(same_bits(*got, plain(cases[i].read)), qPrintable(QString("case %1").arg(i)));
        }
        const auto s = e->scheduler_stats().prefix_cache;
        QCOMPARE(s.misses - s0.misses, uint64_t(1));
        QCOMPARE(s.full_hits - s0.full_hits, uint64_t(2));
        QCOMPARE(s.partial_hits - s0.partial_hits, uint64_t(2));
        QCOMPARE(s.tokens_reused - s0.tokens_reused, uint64_t(130 + 77 + 41 + 137));
        QVERIFY(s.bytes <= s.budget_bytes && s.entries >= 3);
    }

    // Concurrent reads batched together over cached and uncached prompts (some sharing a whole
    // prompt, some a prefix) answer as the engine without a cache does, bit for bit.
    void batchedReadsThroughTheCacheMatchPlainReads() {
        auto e = open(-1);
        const std::vector<TokenId> a = prompt_of(90, 7), b = prompt_of(45, 8);
        std::vector<TokenId> a2(a.begin(), a.begin() + 50);
        for (TokenId t : prompt_of(20, 9)) a2.push_back((t + 11) % 262144);
        QVERIFY(e->read_slots(read_of(a, 1, 8, 0), {}).ok());  // `a` cached before the batches
        std::vector<engine::SlotReadRequest> reads;
        for (uint32_t i = 0; i < 24; ++i) {
            const auto& p = i % 3 == 0 ? a : i % 3 == 1 ? b : a2;
            reads.push_back(
                read_of(p, 1 + static_cast<int>(i % 3), 8 + 4 * static_cast<int>(i % 2), 100 + i));
        }
        std::vector<engine::SlotReadResult> expected;
        for (const auto& r : reads) expected.push_back(plain(r));
        for (int round = 0; round < 3; ++round) {
            std::vector<engine::Result<engine::SlotReadResult>> got(
                reads.size(), engine::engine_error("not run"));
            std::vector<std::thread> threads;
            for (size_t i = 0; i < reads.size(); ++i)
                threads.emplace_back([&, i] { got[i] = e->read_slots(reads[i], {}); });
            for (auto& t : threads) t.join();
            for (size_t i = 0; i < reads.size(); ++i) {
                QVERIFY2(got[i].ok(), got[i].ok() ? "" : got[i].error().message.c_str());
                QVERIFY2(same_bits(*got[i], expected[i]),
                         qPrintable(QString("round %1, read %2").arg(round).arg(i)));
            }
        }
        const auto s = e->scheduler_stats();
        QVERIFY(s.prefix_cache.full_hits > 0);
        QVERIFY(s.largest_batch > 1);  // 24 threads at once: some ran together
    }

    // The budget: least recently used prompts go first; a prompt larger than the whole budget
    // is not kept; 0 turns the cache off.
    void budgetEvictsLeastRecentlyUsed() {
        auto probe = engine::model::load_model_weights(dir_);
        QVERIFY(probe.ok());
        auto be = engine::backend::make_cpu_backend(probe.value(), 1);
        QVERIFY(be.ok());
        const uint64_t per_100 = (*be)->cache_bytes(100);
        // Room for two 100-token prompts, not three.
        auto e = open(static_cast<int64_t>(2 * per_100 + per_100 / 2));
        const auto p1 = prompt_of(100, 21), p2 = prompt_of(100, 22), p3 = prompt_of(100, 23);
        for (const auto& p : {p1, p2}) QVERIFY(e->read_slots(read_of(p, 1, 8, 1), {}).ok());
        QCOMPARE(e->scheduler_stats().prefix_cache.entries, 2);
        QCOMPARE(e->read_slots(read_of(p1, 1, 8, 2), {})->reused_prompt_tokens, 100);  // p1 used
        QVERIFY(e->read_slots(read_of(p3, 1, 8, 3), {}).ok());  // evicts p2, the least recent
        auto s = e->scheduler_stats().prefix_cache;
        QCOMPARE(s.entries, 2);
        QCOMPARE(s.evictions, uint64_t(1));
        QVERIFY(s.bytes <= s.budget_bytes);
        QCOMPARE(e->read_slots(read_of(p1, 1, 8, 4), {})->reused_prompt_tokens, 100);
        QCOMPARE(e->read_slots(read_of(p2, 1, 8, 5), {})->reused_prompt_tokens, 1);  // BOS only
        // A prompt larger than the budget is read, and not kept.
        const auto huge = prompt_of(400, 24);
        const auto before = e->scheduler_stats().prefix_cache;
        auto r = e->read_slots(read_of(huge, 1, 8, 6), {});
        QVERIFY(r.ok());
        QVERIFY(same_bits(*r, plain(read_of(huge, 1, 8, 6))));
        QCOMPARE(e->scheduler_stats().prefix_cache.entries, before.entries);
        QCOMPARE(e->read_slots(read_of(huge, 1, 8, 7), {})->reused_prompt_tokens < 400, true);
        // Off: nothing looked up, nothing kept.
        auto off = open(0);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(off->read_slots(read_of(p1, 1, 8, 8), {})->reused_prompt_tokens, 0);
        const auto so = off->scheduler_stats().prefix_cache;
        QCOMPARE(so.entries, 0);
        QCOMPARE(so.full_hits + so.partial_hits + so.misses, uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestPrefixCache)
#include "tst_prefix_cache.moc"
