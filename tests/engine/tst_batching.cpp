// Cross-request batching in the local engine (BatchSettings, the engine's scheduler), on the real
// tiny model through the real loader: reads of different prompts, widths and row counts batched
// together give each request the bits it gets alone, whatever its position in the batch; a lone
// read never waits for the batch window; a generation's steps and queued reads interleave in
// FIFO order. Batches are formed deterministically: a generation step holds the engine (from
// its progress report) until the reads are queued, asserted through scheduler_stats() counts.

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <thread>

#include "engine/engine.h"
#include "slot_read_bits.h"
#include "tiny_model_dir.h"

namespace fs = std::filesystem;
using engine::TokenId;

namespace {

void set_slots(engine::CanvasRow& row, std::vector<engine::SlotSpec> specs) {
    row.slot_specs = std::move(specs);
}

// A read of `prompt_len` prompt tokens and `rows` canvases of `width` (salted so that requests
// differ), each with two slots.
engine::SlotReadRequest make_read(int prompt_len, int rows, int width, uint32_t salt) {
    engine::SlotReadRequest r;
    r.prompt_ids.push_back(2);
    for (int i = 1; i < prompt_len; ++i)
        r.prompt_ids.push_back(static_cast<TokenId>((1000 + 7919 * i + 131 * salt) % 262144));
    uint32_t s = salt * 2654435761u + 1;
    for (int k = 0; k < rows; ++k) {
        engine::CanvasRow row;
        for (int i = 0; i < width; ++i) {
            s = s * 1664525u + 1013904223u;
            row.ids.push_back(static_cast<TokenId>(s % 262144));
        }
        set_slots(row, {{0, {4521, 3553, 107}}, {width - 1, {236881, 2}}});
        r.rows.push_back(std::move(row));
    }
    return r;
}

// Spins (yielding) until the engine's queue holds `n` units; the test never asserts on time.
void wait_queued(const engine::Engine& e, int n) {
    while (e.scheduler_stats().queued < n) std::this_thread::yield();
}

}  // namespace

class TestBatching : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    fs::path dir_;

    std::unique_ptr<engine::Engine> open(engine::BatchSettings batching) {
        engine::EngineOptions eo;
        eo.model_dir = dir_;
        eo.device = engine::Device::Cpu;
        eo.batching = batching;
        // No prompt-prefix cache: the reads alone would leave their prompts cached and the
        // batches would skip the batched encoder passes this suite checks (tst_prefix_cache
        // checks batches through the cache).
        eo.prefix_cache_bytes = 0;
        auto e = engine::Engine::open(eo);
        if (!e) qFatal("open: %s", e.error().message.c_str());
        return std::move(e.value());
    }

    static engine::GenerationRequest short_generation() {
        engine::GenerationRequest g;
        g.prompt_ids = {2, 105, 2364, 107, 11355, 563, 106, 107, 105, 4368, 107};
        g.max_new_tokens = 16;  // two canvases: a unit always follows the first step
        g.canvas_length = 8;
        g.max_steps = 4;
        g.seed = 5;
        g.stop_ids = {1};  // an id the tiny model does not favour: the steps run out
        return g;
    }

    // Runs `reads` concurrently as one batch, queued in the given order behind a generation
    // step; returns their results (in the order of `reads`).
    std::vector<engine::Result<engine::SlotReadResult>> batched(
        engine::Engine& e, const std::vector<engine::SlotReadRequest>& reads,
        const std::vector<int>& order) {
        std::vector<engine::Result<engine::SlotReadResult>> results(
            reads.size(), engine::engine_error("not run"));
        std::vector<std::thread> threads;
        std::atomic<bool> held{false};
        bool generated = false;
        std::thread gen([&] {
            auto g = e.generate(
                short_generation(),
                [&](const engine::GenerationStep&) {
                    if (held.exchange(true)) return;
                    // This step holds the engine: queue the reads in order, then let go.
                    for (size_t k = 0; k < order.size(); ++k) {
                        const int i = order[k];
                        threads.emplace_back([&, i] { results[i] = e.read_slots(reads[i], {}); });
                        wait_queued(e, static_cast<int>(k + 1));
                    }
                },
                {});
            generated = g.ok();
        });
        gen.join();
        for (auto& t : threads) t.join();
        if (!generated) qFatal("the generation that holds the engine failed");
        return results;
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        dir_ = fs::path(tmp_.path().toStdString()) / "tiny";
        const std::string error = write_suite_tiny_model(dir_, 3);
        QVERIFY2(error.empty(), error.c_str());
    }

    // Requests of different prompt lengths, widths and row counts: each one's answer in a
    // batch, at every position tried, equals its answer alone bit for bit.
    void batchedEqualsAlone() {
        auto e = open({});
        const std::vector<engine::SlotReadRequest> reads = {
            make_read(19, 3, 8, 1), make_read(1, 1, 4, 2), make_read(57, 5, 16, 3),
            make_read(33, 2, 12, 4), make_read(19, 4, 8, 5)};
        std::vector<engine::SlotReadResult> alone;
        for (const auto& r : reads) {
            auto a = e->read_slots(r, {});
            QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
            alone.push_back(*a);
        }
        const std::vector<std::vector<int>> orders = {{0, 1, 2, 3, 4}, {4, 2, 0, 3, 1}, {2, 3}};
        for (const auto& order : orders) {
            const auto before = e->scheduler_stats();
            auto results = batched(*e, reads, order);
            const auto after = e->scheduler_stats();
            // One batch of all the queued reads ran.
            QCOMPARE(after.batches - before.batches, uint64_t(1));
            QCOMPARE(after.reads - before.reads, uint64_t(order.size()));
            for (int i : order) {
                QVERIFY2(results[i].ok(),
                         results[i].ok() ? "" : results[i].error().message.c_str());
                QVERIFY2(same_bits(*results[i], alone[i]),
                         qPrintable(QString("request %1 differs in a batch").arg(i)));
            }
        }
    }

    // A bad request in a batch gets its own error; the others are unaffected.
    void badRequestInBatch() {
        auto e = open({});
        std::vector<engine::SlotReadRequest> reads = {make_read(9, 2, 8, 7), make_read(9, 1, 8, 8)};
        reads[1].rows[0].ids[3] = 262144;  // outside the vocabulary
        auto alone = e->read_slots(reads[0], {});
        QVERIFY(alone.ok());
        auto results = batched(*e, reads, {0, 1});
        QVERIFY(results[0].ok());
        QVERIFY(same_bits(*results[0], *alone));
        QVERIFY(!results[1].ok());
        QVERIFY(QString::fromStdString(results[1].error().message).contains("vocabulary"));
    }

    // A lone read runs at once: with a ten-second window it never waits for it.
    void loneReadNeverWaits() {
        engine::BatchSettings b;
        b.max_wait_ms = 10000;
        auto e = open(b);
        for (int i = 0; i < 3; ++i) QVERIFY(e->read_slots(make_read(9, 2, 8, 9), {}).ok());
        const auto s = e->scheduler_stats();
        QCOMPARE(s.batches, uint64_t(3));
        QCOMPARE(s.largest_batch, 1);
        QCOMPARE(s.window_waits, uint64_t(0));
    }

    // A generation's steps are units of the FIFO queue: reads queued during step 1 run as one
    // batch before step 2, and step 2 runs after them (reads never wait for the whole answer).
    void generationInterleavesWithReads() {
        auto e = open({});
        const std::vector<engine::SlotReadRequest> reads = {
            make_read(9, 2, 8, 11), make_read(12, 1, 8, 12), make_read(5, 3, 4, 13)};
        const auto before = e->scheduler_stats();
        auto results = batched(*e, reads, {0, 1, 2});
        for (auto& r : results) QVERIFY(r.ok());
        const auto s = e->scheduler_stats();
        // Units since `before`: the prompt's encode (0), step 1 (0), the batch of 3, then the
        // remaining steps (0 each).
        const std::vector<int> units(
            s.recent.begin() + static_cast<std::ptrdiff_t>(before.recent.size()), s.recent.end());
        QVERIFY(units.size() >= 4);
        QCOMPARE(units[0], 0);
        QCOMPARE(units[1], 0);
        QCOMPARE(units[2], 3);
        QCOMPARE(units[3], 0);
        QVERIFY(std::count(units.begin(), units.end(), 3) == 1);
        QCOMPARE(s.generation_units - before.generation_units, uint64_t(units.size() - 1));
    }

    // max_reads 1 turns batching off: the same reads run one by one, with the same answers.
    void batchingOff() {
        engine::BatchSettings b;
        b.max_reads = 1;
        auto e = open(b);
        const std::vector<engine::SlotReadRequest> reads = {make_read(9, 2, 8, 21),
                                                            make_read(14, 1, 12, 22)};
        std::vector<engine::SlotReadResult> alone;
        for (const auto& r : reads) alone.push_back(*e->read_slots(r, {}));
        auto results = batched(*e, reads, {0, 1});
        const auto s = e->scheduler_stats();
        QCOMPARE(s.largest_batch, 1);
        for (size_t i = 0; i < reads.size(); ++i) QVERIFY(same_bits(*results[i], alone[i]));
    }
};

QTEST_GUILESS_MAIN(TestBatching)
#include "tst_batching.moc"
