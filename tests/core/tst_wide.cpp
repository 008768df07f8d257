// Wide choice questions: bracket splitting for every width, fusion on hand-built bracket and
// final distributions, the label sets and their limits, the schema's refusals, and 40-, 77- and
// 150-option decisions on the real tiny model, locally and through a real `dgem serve`
// (/v1/systemone, the chat decision form and vLLM structured reads), equal for the same seed.

#include <QProcess>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>

#include "core/decide/local_backend.h"
#include "core/decide/read_stats.h"
#include "core/decide/tournament.h"
#include "core/net/remote_backends.h"
#include "core/wire/decision_json.h"
#include "engine/engine.h"
#include "serve_process.h"

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A choice question with k options named "intent 001", ... (descriptions on every third).
ordered_json wide_schema(int k, const ordered_json& extra = ordered_json::object()) {
    ordered_json options = ordered_json::array();
    for (int i = 1; i <= k; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "intent %03d", i);
        ordered_json o = {{"name", name}};
        if (i % 3 == 0) o["description"] = "requests about topic " + std::to_string(i);
        options.push_back(o);
    }
    ordered_json s = {{"questions",
                       {{{"id", "intent"},
                         {"type", "choice"},
                         {"instructions", "Which intent does the message express?"},
                         {"options", options}}}},
                      {"samples", 2}};
    for (auto it = extra.begin(); it != extra.end(); ++it) s[it.key()] = it.value();
    return s;
}

core::Schema parsed(const ordered_json& j) {
    auto s = core::parse_schema(j, "test");
    if (!s) qFatal("%s", s.error().message.c_str());
    return *s;
}

QString error_of(const ordered_json& j) {
    auto s = core::parse_schema(j, "test");
    return s ? QString() : QString::fromStdString(s.error().message);
}

const json kState = {{"message", "My card still has not arrived after two weeks, where is it?"}};

}  // namespace

class TestWide : public QObject {
    Q_OBJECT

    std::unique_ptr<core::LocalBackend> local_;
    QProcess serve_;
    QString port_;

  private Q_SLOTS:
    void initTestCase() {
        if (!std::filesystem::exists(std::filesystem::path(DS_TINY_MODEL_DIR) / "config.json"))
            QFAIL("no tiny model at " DS_TINY_MODEL_DIR " (build the tiny_model target)");
        engine::EngineOptions options;
        options.model_dir = DS_TINY_MODEL_DIR;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        auto opened = core::LocalBackend::open(options);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        local_ = std::move(opened.value());
    }

    void cleanupTestCase() {
        if (serve_.state() != QProcess::NotRunning) {
            serve_.kill();
            serve_.waitForFinished(5000);
        }
    }

    // Every width from 2 to 255, for bracket sizes 20 and 52: brackets in order, covering each
    // item once, none larger than the size, sizes within one of each other, none of one item.
    void bracketsForEveryWidth() {
        for (int size : {3, 4, 20, 26, 52})
            for (int k = 2; k <= core::kMaxOptions; ++k) {
                std::vector<int> items(static_cast<size_t>(k));
                std::iota(items.begin(), items.end(), 0);
                auto brackets = core::balanced_brackets(items, size);
                QCOMPARE(static_cast<int>(brackets.size()), (k + size - 1) / size);
                std::vector<int> seen;
                size_t smallest = SIZE_MAX, largest = 0;
                for (const auto& b : brackets) {
                    smallest = std::min(smallest, b.size());
                    largest = std::max(largest, b.size());
                    seen.insert(seen.end(), b.begin(), b.end());
                }
                QCOMPARE(seen, items);
                QVERIFY2(largest <= static_cast<size_t>(size), qPrintable(QString::number(k)));
                QVERIFY2(largest - smallest <= 1, qPrintable(QString::number(k)));
                QVERIFY2(smallest >= 2, qPrintable(QString("k %1 size %2").arg(k).arg(size)));
            }
    }

    // Two brackets of five; the final reads options 1, 2 (bracket 0) and 6, 7 (bracket 1).
    void fusionOnHandBuiltReads() {
        core::Tournament t;
        t.brackets = {{0, 1, 2, 3, 4}, {5, 6, 7, 8, 9}};
        const std::vector<std::vector<double>> bracket_p = {{0.02, 0.05, 0.9, 0.02, 0.01},
                                                            {0.1, 0.4, 0.3, 0.1, 0.1}};
        const std::vector<int> final_options = {1, 2, 6, 7};
        const std::vector<double> final_p = {0.03, 0.85, 0.07, 0.05};
        auto fused = core::fuse_tournament(t, bracket_p, final_options, final_p, 10);
        QCOMPARE(fused.size(), size_t(10));
        QVERIFY(std::fabs(std::accumulate(fused.begin(), fused.end(), 0.0) - 1) < 1e-12);
        for (double p : fused) QVERIFY(p > 0);
        QCOMPARE(core::argmax(fused), 2);  // the final's winner
        // A confident bracket whose leader wins the final: the fused top follows the final's,
        // less the non-finalists' share (bracket 0: 0.88 x 0.05; bracket 1: 0.12 x 0.3).
        const double tail = 0.88 * 0.05 + 0.12 * 0.3;
        QVERIFY2(std::fabs(fused[2] - 0.85 * (1 - tail)) < 1e-6,
                 qPrintable(QString::number(fused[2])));
        // A non-finalist carries its bracket's share of the final times its share of the bracket.
        const double share0 = (0.03 + 0.85) / 1.0;
        QVERIFY(std::fabs(fused[0] / fused[3] - 1.0) < 1e-9);  // 0.02 vs 0.02 in bracket 0
        QVERIFY(fused[0] < share0 * 0.02 / 1.0 * 1.01);
        // The top probability comes from the reads: another final gives another top.
        auto other = core::fuse_tournament(t, bracket_p, final_options, {0.2, 0.5, 0.2, 0.1}, 10);
        QCOMPARE(core::argmax(other), 2);
        QVERIFY(other[2] < fused[2] - 0.2);
        // A non-finalist never overtakes the final's winner, however its bracket read it.
        auto flat = core::fuse_tournament(t, {{0.2, 0.2, 0.2, 0.2, 0.2}, {0.2, 0.2, 0.2, 0.2, 0.2}},
                                          final_options, {0.26, 0.25, 0.25, 0.24}, 10);
        QCOMPARE(core::argmax(flat), 1);
    }

    void finalistsAndCatchAll() {
        auto schema = parsed(wide_schema(60, {{"catch_all", "final"}}));
        core::Question q = schema.questions[0];
        q.catch_all = {"intent 060"};
        auto t = core::plan_tournament(q, 0);
        QCOMPARE(t.catch_all, std::vector<int>{59});
        int covered = 0;
        for (const auto& b : t.brackets) {
            covered += static_cast<int>(b.size());
            QVERIFY(std::find(b.begin(), b.end(), 59) == b.end());
        }
        QCOMPARE(covered, 59);
        std::vector<std::vector<double>> p;
        for (const auto& b : t.brackets) {
            std::vector<double> d(b.size(), 0.01);
            d[1] = 0.5;
            d[2] = 0.3;
            p.push_back(d);
        }
        auto finalists = core::choose_finalists(t, p);
        QCOMPARE(finalists.size(), 2 * t.brackets.size() + 1);
        QCOMPARE(finalists.back(), 59);  // the catch-all joins the final
        for (size_t b = 0; b < t.brackets.size(); ++b) {
            QVERIFY(std::count(finalists.begin(), finalists.end(), t.brackets[b][1]) == 1);
            QVERIFY(std::count(finalists.begin(), finalists.end(), t.brackets[b][2]) == 1);
        }
        // Mode both: the catch-all is read in every bracket too.
        q.catch_all_mode = core::CatchAllMode::Both;
        auto both = core::plan_tournament(q, 0);
        QCOMPARE(core::bracket_read_options(both, 0).back(), 59);
    }

    void labelSets() {
        auto az_aa = parsed(wide_schema(40, {{"labels", "az_aa"}})).questions[0];
        QVERIFY(!az_aa.is_tournament());
        auto labels = az_aa.labels();
        QCOMPARE(labels[25], std::string("Z"));
        QCOMPARE(labels[26], std::string("AA"));
        QCOMPARE(labels[39], std::string("AN"));
        auto lower = parsed(wide_schema(52, {{"labels", "az_lower"}})).questions[0];
        QCOMPARE(lower.labels()[26], std::string("a"));
        QCOMPARE(lower.labels()[51], std::string("z"));
        auto wide = parsed(wide_schema(150)).questions[0];
        QVERIFY(wide.is_tournament());
        QCOMPARE(wide.labels().size(), size_t(150));
        QCOMPARE(wide.labels()[149], std::string("ET"));
        QVERIFY(parsed(wide_schema(53, {{"labels", "az_aa"}})).questions[0].is_tournament());
    }

    void refusals() {
        QVERIFY(error_of(wide_schema(256))
                    .contains("question \"intent\": has 256 alternatives; "
                              "accepted: 2 to 255 options"));
        auto dup = wide_schema(30);
        dup["questions"][0]["options"][7]["name"] = "intent 003";
        QVERIFY(error_of(dup).contains("two options are both named \"intent 003\""));
        auto empty = wide_schema(30);
        empty["questions"][0]["options"][4]["name"] = "";
        QVERIFY(error_of(empty).contains("an option name is empty"));
        auto stray = wide_schema(30);
        stray["questions"][0]["catch_all"] = "none of these";
        QVERIFY(error_of(stray).contains(
            "\"catch_all\" names \"none of these\", which is not one of its options"));
        QVERIFY(error_of(wide_schema(30, {{"bracket_size", 30}}))
                    .contains("bracket_size 30 is not accepted; accepted: 3 to 26"));
        QVERIFY(error_of(wide_schema(30, {{"bracket_size", 2}})).contains("accepted: 3 to 26"));
        QVERIFY(error_of(wide_schema(30, {{"labels", "az_greek"}})).contains("labels"));
        ordered_json levels = {{"questions",
                                {{{"id", "grade"},
                                  {"type", "score"},
                                  {"instructions", "?"},
                                  {"levels", json::array()}}}}};
        for (int i = 0; i < 30; ++i)
            levels["questions"][0]["levels"].push_back("L" + std::to_string(i));
        QVERIFY(error_of(levels).contains("has 30 levels; the label set az holds 26"));
        levels["labels"] = "az_aa";
        QVERIFY(error_of(levels).isEmpty());
        auto staged = wide_schema(40);
        staged["questions"].push_back({{"id", "urgent"},
                                       {"type", "noul"},
                                       {"instructions", "?"},
                                       {"depends_on", {"intent"}}});
        QVERIFY(error_of(staged).contains("bracket tournament, which runs in a single pass"));
    }

    // 40, 77 and 150 options on the tiny model: every option has a probability, the winner is the
    // fused argmax, the diagnostics say how it was read, and the same seed gives the same answer.
    void localWideDecisions() {
        for (int k : {40, 77, 150}) {
            const core::DecideRequest r{parsed(wide_schema(k)), kState, 11};
            auto d = local_->decide(r, {}, {});
            QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
            const auto& q = d->questions[0];
            QCOMPARE(q.mean.size(), static_cast<size_t>(k));
            QCOMPARE(q.alternatives.size(), static_cast<size_t>(k));
            QVERIFY(std::fabs(std::accumulate(q.mean.begin(), q.mean.end(), 0.0) - 1) < 1e-9);
            for (double p : q.mean) QVERIFY(p > 0);
            QCOMPARE(q.winner, core::argmax(q.mean));
            QCOMPARE(q.per_read.size(), size_t(2));
            QVERIFY(q.agreement == 0.5 || q.agreement == 1.0);
            QVERIFY(q.stderr_winner.has_value());
            const auto& w = d->diagnostics.wide.at("intent");
            QCOMPARE(w.strategy, std::string("tournament"));
            QCOMPARE(static_cast<int>(w.brackets.size()), (k + 19) / 20);
            QVERIFY(!w.finalists.empty());
            QVERIFY(std::count(w.finalists.begin(), w.finalists.end(),
                               q.alternatives[static_cast<size_t>(q.winner)]) == 1);
            QCOMPARE(w.rounds, 2);
            // Two draws: Round 1's brackets share one canvas row per draw (up to 8 brackets a
            // row), then the final's row per draw.
            QCOMPARE(w.reads, 2 * ((static_cast<int>(w.brackets.size()) + 7) / 8) + 2);
            // Round 1 (every bracket on one canvas row per draw) and the final: two passes.
            QCOMPARE(d->passes, 2);
            auto again = local_->decide(r, {}, {});
            QVERIFY(again.ok());
            QCOMPARE(again->questions[0].mean, q.mean);
            // The decision's JSON carries every option and the strategy.
            json j = core::decision_json(*d, core::AnswerForm::Chat);
            QCOMPARE(j["answers"]["intent"]["probabilities"].size(), static_cast<size_t>(k));
            QCOMPARE(j["diagnostics"]["wide"]["intent"]["strategy"], json("tournament"));
        }
        // A wide label set reads 40 options in one read.
        const core::DecideRequest r{parsed(wide_schema(40, {{"labels", "az_aa"}})), kState, 11};
        auto d = local_->decide(r, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        QCOMPARE(d->diagnostics.wide.at("intent").strategy, std::string("az_aa"));
        QCOMPARE(d->passes, 1);
        QCOMPARE(d->questions[0].mean.size(), size_t(40));
    }

    // The same requests through a real `dgem serve`: each protocol's answer equals the local one.
    void serverEqualsLocal() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        port_ = start_dgem_serve(serve_, env);
        QVERIFY2(!port_.isEmpty(), "dgem serve did not start");
        core::RemoteOptions o;
        o.url = "http://127.0.0.1:" + port_.toStdString() + "/v1";
        o.canvas_length = local_->engine().info().canvas_length;
        core::DgemChatBackend chat(o);
        core::SystemOneBackend systemone(o);
        core::VllmStructuredBackend vllm(o, local_->engine().tokenizer());
        const std::pair<const char*, core::Backend*> backends[] = {
            {"chat", &chat}, {"systemone", &systemone}, {"vllm", &vllm}};
        for (int k : {40, 77, 150}) {
            const core::DecideRequest r{parsed(wide_schema(k, {{"catch_all", "both"}})), kState, 5};
            auto here = local_->decide(r, {}, {});
            QVERIFY2(here.ok(), here.ok() ? "" : here.error().message.c_str());
            for (auto [name, backend] : backends) {
                auto there = backend->decide(r, {}, {});
                QVERIFY2(there.ok(), there.ok() ? name : there.error().message.c_str());
                const auto& a = here->questions[0];
                const auto& b = there->questions[0];
                QCOMPARE(b.mean.size(), a.mean.size());
                for (size_t i = 0; i < a.mean.size(); ++i)
                    QVERIFY2(std::fabs(a.mean[i] - b.mean[i]) < 1e-9,
                             qPrintable(QString("%1, %2 options, option %3: %4 vs %5")
                                            .arg(name)
                                            .arg(k)
                                            .arg(i)
                                            .arg(a.mean[i])
                                            .arg(b.mean[i])));
                QCOMPARE(b.winner, a.winner);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestWide)
#include "tst_wide.moc"
