// The CPU engine on a real tiny model folder (real loader, real tokenizer): slot reads,
// batching and determinism, the encoder's causal and sliding-window rules, self-conditioning,
// generation (and its canvas sizing) and cancellation.

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>

#include "engine/debug_trace.h"
#include "engine/engine.h"
#include "engine/tiny_model.h"
#include "tiny_model_dir.h"

namespace fs = std::filesystem;
using engine::TokenId;

namespace {

// (Outside the test class: moc reads the class body and stumbles over the member name.)
void set_slots(engine::CanvasRow& row, std::vector<engine::SlotSpec> specs) {
    row.slot_specs = std::move(specs);
}

}  // namespace

class TestEngineForward : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir tmp_;
    fs::path dir_;
    std::unique_ptr<engine::Engine> engine_;
    // MODEL-SPEC section 6 test vector: a chat prompt with thinking off.
    const std::vector<TokenId> chat_ = {2,   105, 2364, 107,  11355, 563, 506,   7217, 3730, 236881,
                                        106, 107, 105,  4368, 107,   100, 45518, 107,  101};

    std::vector<TokenId> long_prompt(int n, TokenId salt = 0) const {
        std::vector<TokenId> p;
        for (int i = 0; i < n; ++i)
            p.push_back(static_cast<TokenId>((1000 + 7919 * i + salt) % 262144));
        return p;
    }

    engine::CanvasRow row(int width, uint32_t seed,
                          std::vector<engine::SlotSpec> slot_specs) const {
        engine::CanvasRow r;
        uint32_t s = seed * 2654435761u + 1;
        for (int i = 0; i < width; ++i) {
            s = s * 1664525u + 1013904223u;
            r.ids.push_back(static_cast<TokenId>(s % 262144));
        }
        set_slots(r, std::move(slot_specs));
        return r;
    }

    static float max_abs_diff(const std::vector<float>& a, size_t a0, const std::vector<float>& b,
                              size_t b0, size_t n) {
        float m = 0;
        for (size_t i = 0; i < n; ++i) m = std::max(m, std::abs(a[a0 + i] - b[b0 + i]));
        return m;
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        dir_ = fs::path(tmp_.path().toStdString()) / "tiny";
        const std::string error = write_suite_tiny_model(dir_, 3);
        QVERIFY2(error.empty(), error.c_str());
        engine::EngineOptions eo;
        eo.model_dir = dir_;
        eo.device = engine::Device::Cpu;
        auto e = engine::Engine::open(eo);
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().message.c_str());
        engine_ = std::move(e.value());
        QCOMPARE(engine_->info().vocab_size, 262144);
        QCOMPARE(engine_->info().num_layers, 6);
        QVERIFY(QString::fromStdString(engine_->info().device).startsWith("cpu"));
    }

    void slotReadSanity() {
        engine::SlotReadRequest req;
        req.prompt_ids = chat_;
        const std::vector<TokenId> labels = {4521, 3553};  // any two ids
        std::vector<TokenId> many;
        for (TokenId i = 0; i < 5000; ++i) many.push_back(i * 52);
        req.rows.push_back(row(32, 1, {{5, labels}, {20, many}}));
        req.rows.push_back(row(32, 2, {{5, labels}}));
        req.rows.push_back(req.rows[0]);  // an identical row
        auto r = engine_->read_slots(req, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->rows.size(), size_t(3));
        QCOMPARE(r->rows[0].size(), size_t(2));
        for (const auto& row_slots : r->rows)
            for (const auto& s : row_slots) {
                double mass = 0;
                for (float lp : s.label_logprobs) {
                    QVERIFY(lp <= 0.0f && std::isfinite(lp));
                    mass += std::exp(lp);
                }
                QVERIFY(std::abs(mass - s.label_mass) < 1e-5);
                QVERIFY(s.label_mass > 0 && s.label_mass <= 1.0f + 1e-5f);
                // softmax over the labels is a distribution
                double m = *std::max_element(s.label_logprobs.begin(), s.label_logprobs.end());
                double z = 0;
                for (float lp : s.label_logprobs) z += std::exp(lp - m);
                QVERIFY(std::abs(z * std::exp(m) - s.label_mass) < 1e-5);
            }
        // 5000 of 262144 labels hold a small but not vanishing share of the mass.
        QVERIFY(r->rows[0][1].label_mass > 0.001f && r->rows[0][1].label_mass < 0.5f);
        // Identical rows are decoded once, so their readouts agree exactly (fixed seed-token
        // draws then have stderr 0); different rows differ.
        QCOMPARE(r->rows[0][0].label_logprobs, r->rows[2][0].label_logprobs);
        QCOMPARE(r->rows[0][1].label_mass, r->rows[2][1].label_mass);
        QCOMPARE(r->rows[0][0].argmax_id, r->rows[2][0].argmax_id);
        QVERIFY(r->rows[0][0].label_logprobs != r->rows[1][0].label_logprobs);
        // Asking for the argmax as a label makes argmax_is_label true and its log-prob the largest.
        engine::SlotReadRequest again = req;
        again.rows.resize(1);
        set_slots(again.rows[0], {{5, {r->rows[0][0].argmax_id, labels[0]}}});
        auto r2 = engine_->read_slots(again, {});
        QVERIFY(r2.ok());
        QVERIFY(r2->rows[0][0].argmax_is_label);
        QVERIFY(r2->rows[0][0].label_logprobs[0] >= r2->rows[0][0].label_logprobs[1]);
        // Batching does not change a row's answer.
        QVERIFY(std::abs(r2->rows[0][0].label_logprobs[1] - r->rows[0][0].label_logprobs[0]) <
                1e-4);
        QVERIFY(r->timings.encode_ms > 0 && r->timings.decode_ms > 0);
    }

    void deterministic() {
        engine::SlotReadRequest req;
        req.prompt_ids = long_prompt(100);
        req.rows.push_back(row(48, 9, {{3, {10, 20, 30}}, {47, {40, 50}}}));
        auto a = engine_->read_slots(req, {});
        auto b = engine_->read_slots(req, {});
        QVERIFY(a.ok() && b.ok());
        for (size_t s = 0; s < 2; ++s) {
            QCOMPARE(a->rows[0][s].label_logprobs, b->rows[0][s].label_logprobs);
            QCOMPARE(a->rows[0][s].argmax_id, b->rows[0][s].argmax_id);
        }
    }

    void encoderCausalAndWindow() {
        // Window 16. Layer 1 (sliding) K at position i depends on layer 0's outputs at positions
        // i-15..i only; layer 2 (full) sees everything before; nothing sees what comes after.
        const int P = 60, i = 50;
        auto base = long_prompt(P);
        std::vector<std::vector<TokenId>> canvas = {row(16, 1, {}).ids};
        auto t0 = engine::trace_forward(dir_, base, canvas);
        QVERIFY2(t0.ok(), t0.ok() ? "" : t0.error().message.c_str());
        // Unchanged within float rounding (BLAS blocking and expert grouping shift with other
        // tokens), changed clearly.
        auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
            return max_abs_diff(a, 0, b, 0, a.size()) < 1e-5f;
        };
        auto at = [&](const engine::ForwardTrace& t, int layer, int pos) {
            const size_t n = static_cast<size_t>(t.kv_heads[layer] * t.head_dim[layer]);
            return std::vector<float>(t.encoder_k[layer].begin() + pos * n,
                                      t.encoder_k[layer].begin() + (pos + 1) * n);
        };
        // A token just outside layer 1's window of position i (i - 16) changes.
        auto far = base;
        far[i - 16] = 777;
        auto t1 = engine::trace_forward(dir_, far, canvas);
        QVERIFY(t1.ok());
        QVERIFY(same(at(*t1, 1, i), at(*t0, 1, i)));   // sliding: outside the window
        QVERIFY(!same(at(*t1, 2, i), at(*t0, 2, i)));  // full layer sees it
        QVERIFY(!same(at(*t1, 4, i), at(*t0, 4, i)));  // sliding after a full layer too
        // A token inside the window (i - 15) does change layer 1 at i.
        auto near = base;
        near[i - 15] = 777;
        auto t2 = engine::trace_forward(dir_, near, canvas);
        QVERIFY(t2.ok());
        QVERIFY(!same(at(*t2, 1, i), at(*t0, 1, i)));
        // Causality: a later token changes nothing at i, in any layer.
        auto later = base;
        later[i + 1] = 777;
        auto t3 = engine::trace_forward(dir_, later, canvas);
        QVERIFY(t3.ok());
        for (int l = 0; l < 6; ++l) QVERIFY(same(at(*t3, l, i), at(*t0, l, i)));
        // Full layers: K = V before their norms, so V is K's raw projection normed without
        // weight: both exist with 1 kv head of 32.
        QCOMPARE(t0->kv_heads[2], 1);
        QCOMPARE(t0->head_dim[2], 32);
        QCOMPARE(t0->head_dim[1], 16);
        // The canvas changes the logits, never the cache; rows are independent.
        std::vector<std::vector<TokenId>> two = {canvas[0], row(16, 2, {}).ids};
        auto t4 = engine::trace_forward(dir_, base, two);
        QVERIFY(t4.ok());
        QCOMPARE(t4->encoder_k[5], t0->encoder_k[5]);
        const size_t n = 16 * 262144;
        QVERIFY(max_abs_diff(t4->logits, 0, t0->logits, 0, n) < 1e-4f);
        QVERIFY(max_abs_diff(t4->logits, n, t0->logits, 0, n) > 1e-2f);
        // Logits are soft-capped and not degenerate.
        float lo = 1e9f, hi = -1e9f;
        for (float v : t0->logits) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        QVERIFY(hi < 30.0f && lo > -30.0f && hi - lo > 5.0f);
    }

    void selfConditioningChangesLogits() {
        auto p = long_prompt(20);
        std::vector<std::vector<TokenId>> canvas = {row(16, 4, {}).ids};
        auto first = engine::trace_forward(dir_, p, canvas);
        QVERIFY(first.ok());
        std::vector<float> prev = first->logits;
        for (float& v : prev) v /= 0.8f;
        auto second = engine::trace_forward(dir_, p, canvas, &prev);
        QVERIFY(second.ok());
        QVERIFY(max_abs_diff(first->logits, 0, second->logits, 0, first->logits.size()) > 1e-2f);
        // Wrong-sized self-conditioning input is refused.
        std::vector<float> wrong(10);
        auto bad = engine::trace_forward(dir_, p, canvas, &wrong);
        QVERIFY(!bad.ok());
    }

    void bf16ModelRuns() {
        // The same random weights stored as bf16: the loader converts them, the logits stay close
        // to the f32 model's (bf16 keeps 8 bits of mantissa) and the argmax mostly agrees.
        const fs::path b = fs::path(tmp_.path().toStdString()) / "tiny-bf16";
        engine::TinyModelOptions o;
        o.out_dir = b;
        o.seed = 3;
        o.dtype = "bf16";
        QVERIFY(engine::write_tiny_model(o).ok());
        auto p = long_prompt(40);
        std::vector<std::vector<TokenId>> canvas = {row(16, 8, {}).ids};
        auto f = engine::trace_forward(dir_, p, canvas);
        auto h = engine::trace_forward(b, p, canvas);
        QVERIFY2(h.ok(), h.ok() ? "" : h.error().message.c_str());
        QVERIFY(f.ok());
        double diff = 0, mag = 0;
        int agree = 0;
        const size_t V = 262144;
        for (size_t pos = 0; pos < 16; ++pos) {
            size_t af = 0, ah = 0;
            for (size_t j = 0; j < V; ++j) {
                const size_t i = pos * V + j;
                diff += std::abs(f->logits[i] - h->logits[i]);
                mag += std::abs(f->logits[i]);
                if (f->logits[i] > f->logits[pos * V + af]) af = j;
                if (h->logits[i] > h->logits[pos * V + ah]) ah = j;
            }
            agree += af == ah;
        }
        qInfo("bf16 vs f32: mean |diff| / mean |logit| = %.4f, argmax agreement %d/16", diff / mag,
              agree);
        QVERIFY(diff > 0);
        QVERIFY(diff / mag < 0.08);
        QVERIFY(agree >= 10);
    }

    void contextLimit() {
        engine::SlotReadRequest req;
        req.prompt_ids = long_prompt(engine_->info().max_context - 10);
        req.rows.push_back(row(16, 1, {{0, {1}}}));
        auto r = engine_->read_slots(req, {});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::BadInput);
        const QString msg = QString::fromStdString(r.error().message);
        QVERIFY2(msg.contains(QString::number(engine_->info().max_context - 10)) &&
                     msg.contains("16") &&
                     msg.contains(QString::number(engine_->info().max_context)),
                 qPrintable(msg));
        // Bad rows and slot specs name themselves.
        engine::SlotReadRequest bad;
        bad.prompt_ids = chat_;
        bad.rows.push_back(row(16, 1, {{16, {1}}}));
        auto rb = engine_->read_slots(bad, {});
        QVERIFY(!rb.ok());
        QVERIFY(QString::fromStdString(rb.error().message).contains("row 0, slot 0"));
        set_slots(bad.rows[0], {{0, {262144}}});
        QVERIFY(!engine_->read_slots(bad, {}).ok());
        set_slots(bad.rows[0], {});
        bad.rows.push_back(row(8, 1, {}));
        QVERIFY(
            QString::fromStdString(engine_->read_slots(bad, {}).error().message).contains("row 1"));
    }

    void cancelledRead() {
        engine::CancelToken cancel;
        cancel.cancel();
        engine::SlotReadRequest req;
        req.prompt_ids = chat_;
        req.rows.push_back(row(16, 1, {{0, {1}}}));
        auto r = engine_->read_slots(req, cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::Cancelled);
    }

    void generationRunsAndStops() {
        engine::GenerationRequest g;
        g.prompt_ids = chat_;
        g.seed = 5;
        g.canvas_length = 16;
        g.max_steps = 4;
        g.max_new_tokens = 32;
        g.stop_ids = {999999};  // never produced: both canvases run all their steps
        std::vector<engine::GenerationStep> steps;
        auto r =
            engine_->generate(g, [&](const engine::GenerationStep& s) { steps.push_back(s); }, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->canvases, 2);
        QCOMPARE(r->steps, 8);
        QCOMPARE(r->tokens.size(), size_t(32));
        QVERIFY(!r->stopped_on_stop_id);
        QCOMPARE(steps.size(), size_t(8));
        QCOMPARE(steps[0].step, 1);
        QCOMPARE(steps[3].step, 4);
        QCOMPARE(steps[4].canvas, 1);
        for (const auto& s : steps) QVERIFY(s.accepted >= 1 && s.mean_entropy > 0);
        QVERIFY(r->decode_ms > 0 && r->total_ms >= r->decode_ms);
        // Same seed, same answer; another seed, another answer.
        auto again = engine_->generate(g, {}, {});
        QVERIFY(again.ok());
        QCOMPARE(again->tokens, r->tokens);
        QCOMPARE(QString::fromStdString(again->text), QString::fromStdString(r->text));
        g.seed = 6;
        auto other = engine_->generate(g, {}, {});
        QVERIFY(other.ok() && other->tokens != r->tokens);
        // A stop id that the first canvas holds ends the answer there, the stop id dropped.
        g.seed = 5;
        g.stop_ids = {r->tokens[5]};
        auto stopped = engine_->generate(g, {}, {});
        QVERIFY(stopped.ok());
        QVERIFY(stopped->stopped_on_stop_id);
        QCOMPARE(stopped->canvases, 1);
        QVERIFY(stopped->tokens.size() <= 5);
        QCOMPARE(
            std::vector<TokenId>(stopped->tokens.begin(), stopped->tokens.end()),
            std::vector<TokenId>(r->tokens.begin(),
                                 r->tokens.begin() + static_cast<long>(stopped->tokens.size())));
    }

    // Without an explicit canvas_length the canvas is min(config canvas_length, max_new_tokens)
    // wide: one canvas of N for N < 256 (the reference with canvas_length = N), ceil(N / 256)
    // canvases of 256 above; the answer is cut at N. Deterministic per seed.
    void generationSizesTheCanvas() {
        QCOMPARE(engine_->info().canvas_length, 256);
        engine::GenerationRequest g;
        g.prompt_ids = chat_;
        g.seed = 7;
        g.max_steps = 2;
        g.max_new_tokens = 32;
        g.stop_ids = {999999};  // never produced: every canvas runs all its steps
        auto r = engine_->generate(g, {}, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->canvas_length, 32);
        QCOMPARE(r->canvases, 1);
        QCOMPARE(r->steps, 2);
        QCOMPARE(r->tokens.size(), size_t(32));
        auto again = engine_->generate(g, {}, {});
        QVERIFY(again.ok());
        QCOMPARE(again->tokens, r->tokens);
        g.seed = 8;
        auto other = engine_->generate(g, {}, {});
        QVERIFY(other.ok() && other->tokens != r->tokens);

        // Past the model's canvas: canvases of 256, the last one cut.
        g.max_new_tokens = 300;
        g.max_steps = 1;
        auto longer = engine_->generate(g, {}, {});
        QVERIFY2(longer.ok(), longer.ok() ? "" : longer.error().message.c_str());
        QCOMPARE(longer->canvas_length, 256);
        QCOMPARE(longer->canvases, 2);
        QCOMPARE(longer->tokens.size(), size_t(300));

        // An explicit canvas_length still wins.
        g.max_new_tokens = 20;
        g.canvas_length = 16;
        auto explicit_width = engine_->generate(g, {}, {});
        QVERIFY(explicit_width.ok());
        QCOMPARE(explicit_width->canvas_length, 16);
        QCOMPARE(explicit_width->canvases, 2);
        QCOMPARE(explicit_width->tokens.size(), size_t(20));

        // The context check counts the sized canvas, not the model's 256 (refused before any
        // encoding, so the long prompt costs nothing).
        g.canvas_length = 0;
        g.max_new_tokens = 41;
        g.prompt_ids = long_prompt(engine_->info().max_context - 40);
        auto refused = engine_->generate(g, {}, {});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, engine::ErrorKind::BadInput);
        QVERIFY2(QString::fromStdString(refused.error().message).contains("1 canvas(es) of 41"),
                 refused.error().message.c_str());
    }

    void generationCancels() {
        engine::GenerationRequest g;
        g.prompt_ids = chat_;
        g.canvas_length = 16;
        g.max_steps = 10;
        g.max_new_tokens = 16;
        engine::CancelToken cancel;
        int calls = 0;
        auto r = engine_->generate(
            g,
            [&](const engine::GenerationStep&) {
                if (++calls == 2) cancel.cancel();
            },
            cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, engine::ErrorKind::Cancelled);
        QCOMPARE(calls, 2);
        // The engine stays usable.
        g.max_steps = 1;
        QVERIFY(engine_->generate(g, {}, {}).ok());
    }

    void cudaRefusedOnCpuBuild() {
        if (engine::cuda_available()) QSKIP("a CUDA device is present");
        engine::EngineOptions eo;
        eo.model_dir = dir_;
        eo.device = engine::Device::Cuda;
        auto e = engine::Engine::open(eo);
        QVERIFY(!e.ok());
        QVERIFY(QString::fromStdString(e.error().message).contains("cuda"));
    }
};

QTEST_GUILESS_MAIN(TestEngineForward)
#include "tst_engine_forward.moc"
