// Evaluation layer without a model: the JevBench scorer against upstream's published fixtures
// (tests/test_protocol.py, tests/test_metric_properties.py of fstandhartinger/jevbench) and all
// ten leaderboard composites from their axes; the loaders on the real public data and on bad
// input; the runner on a deterministic fake backend (workers, retries, timeout, cancel, journal,
// resume from a journal cut mid-line).
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "core/evaluation/eval_report.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_score.h"
#include "core/evaluation/eval_suite.h"

using nlohmann::json;
namespace ev = core::eval;

namespace {

const std::string kData = DS_SHARED_DIR "/data/jevbench";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void spit(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// Probabilities that depend only on the seed and the label count (like a real read would).
std::vector<double> fake_probs(uint64_t seed, size_t n) {
    std::vector<double> p(n);
    double z = 0;
    for (size_t i = 0; i < n; ++i) {
        uint64_t h = (seed + 1) * 6364136223846793005ull + (i + 1) * 1442695040888963407ull;
        h ^= h >> 29;
        p[i] = static_cast<double>(h % 1000 + 1);
        z += p[i];
    }
    for (auto& v : p) v /= z;
    return p;
}

class FakeBackend final : public core::Backend {
  public:
    std::string describe() const override { return "fake"; }
    core::Result<core::Decision> decide(const core::DecideRequest& r, const core::ProgressFn&,
                                        const core::CancelToken& cancel) override {
        calls++;
        const std::string key = r.state.is_string() ? r.state.get<std::string>() : r.state.dump();
        {
            std::lock_guard<std::mutex> lock(mu);
            int& seen = attempts[key];
            seen++;
            if (transient_failures.count(key) && seen <= transient_failures[key])
                return engine::remote_error("503 overloaded", engine::Cause::Overloaded);
        }
        if (final_failures.count(key)) return engine::bad_input("the server refused the schema");
        if (hang.count(key)) {
            while (!cancel.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            return engine::cancelled();
        }
        if (delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        if (cancel.cancelled()) return engine::cancelled();
        core::Decision d;
        for (const auto& q : r.schema.questions) {
            core::QuestionOutcome o;
            o.id = q.id;
            o.type = q.type;
            o.labels = q.labels();
            o.alternatives = q.alternatives();
            o.mean = fake_probs(r.seed, o.labels.size());
            o.per_read = {o.mean};
            o.winner =
                static_cast<int>(std::max_element(o.mean.begin(), o.mean.end()) - o.mean.begin());
            o.confidence = o.mean[static_cast<size_t>(o.winner)];
            d.questions.push_back(o);
        }
        return d;
    }
    core::Result<core::Generation> generate(const core::GenerateRequest&, const core::ProgressFn&,
                                            const core::CancelToken&) override {
        return engine::bad_input("no");
    }
    core::Result<core::HealthInfo> health(const core::CancelToken&) override {
        return core::HealthInfo{};
    }

    std::atomic<int> calls{0};
    int delay_ms = 0;
    std::mutex mu;
    std::map<std::string, int> attempts;
    std::map<std::string, int> transient_failures;  // state -> failing attempts
    std::set<std::string> final_failures, hang;
};

ev::ScoredItem scored(const std::string& id, const json& probs, const std::string& expected,
                      double latency, const std::string& tier = "hard") {
    ev::ScoredItem s;
    s.id = id;
    s.tier = tier;
    s.labels = {"a", "b"};
    s.expected = expected;
    s.latency_s = latency;
    s.failed = probs.is_null();
    s.score = ev::score_item(probs, s.labels, expected, false);
    return s;
}

}  // namespace

class TestEvaluation : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    std::string path(const std::string& name) const {
        return tmp_.filePath(QString::fromStdString(name)).toStdString();
    }

  private slots:
    // ---- upstream's per-item fixtures (tests/test_protocol.py) ----
    void invalidProbabilities() {
        const std::vector<std::string> labels = {"a", "b"};
        for (const json& p : {json{{"a", true}, {"b", 0}}, json{{"a", NAN}, {"b", 0.5}},
                              json{{"a", 0.3}, {"b", 0.3}}, json{{"a", 1}},
                              json{{"a", 1}, {"b", 0}, {"c", 0}}, json(nullptr), json("a")}) {
            auto s = ev::score_item(p, labels, "b", false);
            QVERIFY2(!s.valid, p.dump().c_str());
            QVERIFY(!s.correct);
            QVERIFY(!s.invalid_reason.empty());
        }
        // Case matters, and noul items read yes/no, never true/false.
        QVERIFY(!ev::score_item({{"Yes", 0.9}, {"no", 0.1}}, {"yes", "no"}, "yes", false).valid);
        QVERIFY(
            !ev::score_item({{"true", 0.9}, {"false", 0.1}}, {"yes", "no"}, "yes", false).valid);
    }

    void roundedSumIsRenormalisedButReported() {
        auto s = ev::score_item({{"a", 0.25}, {"b", 0.745}}, {"a", "b"}, "b", false);
        QVERIFY(s.valid);
        QVERIFY(!s.strict_valid);
        QVERIFY(s.renormalized);
        QVERIFY(std::abs(s.probs["a"] + s.probs["b"] - 1) < 1e-12);
        QVERIFY(s.correct);
        auto bad = ev::score_item({{"a", 0.2}, {"b", 0.5}}, {"a", "b"}, "b", false);
        QVERIFY(!bad.valid);
        QVERIFY(!bad.correct);
        // The band edges: within 1e-3 used as given, within 2e-2 divided by the sum.
        auto strict = ev::score_item({{"a", 0.2}, {"b", 0.8009}}, {"a", "b"}, "b", false);
        QVERIFY(strict.strict_valid && !strict.renormalized);
        QCOMPARE(strict.probs["b"], 0.8009);
        QVERIFY(!ev::score_item({{"a", 0.2}, {"b", 0.83}}, {"a", "b"}, "b", false).valid);
    }

    void ordinalArgmaxNotRoundMean() {
        auto s = ev::score_item({{"0", 0.4}, {"1", 0.2}, {"2", 0.4}}, {"0", "1", "2"}, "0", true);
        QVERIFY(s.strict_valid);
        QCOMPARE(QString::fromStdString(s.predicted), QString("0"));  // tie -> smallest label
        QVERIFY(s.correct);
        QVERIFY(s.ordinal_ev && std::abs(*s.ordinal_ev - 1) < 1e-12);
        // A tie goes to the lexicographically smallest label, whatever the presentation order.
        auto t =
            ev::score_item({{"track", 0.5}, {"cancel", 0.5}}, {"track", "cancel"}, "track", false);
        QCOMPARE(QString::fromStdString(t.predicted), QString("cancel"));
    }

    void brierEceAndFailureDenominator() {
        std::vector<ev::ScoredItem> items = {scored("a", {{"a", 0.25}, {"b", 0.75}}, "b", 1),
                                             scored("b", nullptr, "b", 3)};
        auto r = ev::score_run(items, {});
        QCOMPARE(r.accuracy, 0.5);
        QCOMPARE(r.valid, 1);
        QCOMPARE(r.failed, 1);
        QVERIFY(std::abs(r.brier - 0.125) < 1e-12);
        QVERIFY(r.ece_hard && std::abs(*r.ece_hard - 0.25) < 1e-12);
        QVERIFY(r.p50_s && std::abs(*r.p50_s - 2) < 1e-12);  // the failure's latency counts
        QVERIFY(!r.cost);                                    // no price: no Cost, no composite
        QVERIFY(!r.public_estimate);
    }

    void agreementIsNotBothCorrect() {
        auto a = scored("a", {{"a", 0.9}, {"b", 0.1}}, "b", 1);
        auto b = scored("b", {{"a", 0.8}, {"b", 0.2}}, "b", 1);
        a.group = b.group = "g";
        auto r = ev::score_run({a, b}, {});
        QCOMPARE(r.paraphrase.groups, 1);
        QCOMPARE(r.paraphrase.agreement, 1.0);
        QCOMPARE(r.paraphrase.both_correct_rate, 0.0);
    }

    // ---- tests/test_metric_properties.py anchors ----
    void metricAnchors() {
        std::vector<std::pair<double, bool>> pairs;
        for (auto [conf, n, k] : {std::tuple{0.25, 4, 1}, {0.55, 20, 11}, {0.95, 20, 19}})
            for (int i = 0; i < n; ++i) pairs.emplace_back(conf, i < k);
        QVERIFY(std::abs(ev::ece_top_label(pairs).ece) < 1e-12);
        QVERIFY(
            std::abs(ev::ece_top_label(std::vector<std::pair<double, bool>>(5, {1.0, false})).ece -
                     1) < 1e-12);
        QVERIFY(
            std::abs(ev::ece_top_label(std::vector<std::pair<double, bool>>(5, {1.0, true})).ece) <
            1e-12);
        auto e = ev::ece_top_label({{-0.2, true}, {1.2, false}, {0.5, true}});
        QCOMPARE(e.n, 3);
        int total = 0;
        for (const auto& b : e.bins) total += b.n;
        QCOMPARE(total, 3);
        QCOMPARE(ev::score_item({{"a", 0}, {"b", 1}, {"c", 0}, {"d", 0}}, {"a", "b", "c", "d"}, "a",
                                false)
                     .brier,
                 2.0);
        QCOMPARE(ev::score_item({{"a", 1}, {"b", 0}, {"c", 0}, {"d", 0}}, {"a", "b", "c", "d"}, "a",
                                false)
                     .brier,
                 0.0);
        QVERIFY(std::abs(ev::speed_point(0.1) - 100) < 1e-9);
        QVERIFY(std::abs(ev::speed_point(1.0) - 80) < 1e-9);
        QVERIFY(std::abs(ev::speed_point(10.0) - 60) < 1e-9);
        QCOMPARE(ev::speed_point(0.001), 100.0);
        QCOMPARE(ev::speed_point(1e9), 0.0);
        for (auto [usd, pts] : {std::pair{0.001, 100.0}, {0.01, 70.0}, {0.1, 40.0}, {1.0, 10.0}})
            QVERIFY(std::abs(ev::cost_axis(usd) - pts) < 1e-9);
        QCOMPARE(ev::cost_axis(1e6), 0.0);
        QCOMPARE(ev::calibration_from_ece(0.0), 100.0);
        QCOMPARE(ev::calibration_from_ece(0.5), 0.0);
        QCOMPARE(ev::calibration_from_ece(0.9), 0.0);
        QCOMPARE(*ev::percentile({1, 3}, 0.5), 2.0);
        QVERIFY(std::abs(*ev::percentile({1, 2, 3, 4, 5}, 0.95) - 4.8) < 1e-12);
        QVERIFY(!ev::percentile({}, 0.5));
        // Endpoint kinds.
        QCOMPARE(ev::adjusted_latency(1.0, ev::EndpointKind::Api), 1.0);
        QCOMPARE(ev::adjusted_latency(1.0, ev::EndpointKind::Gpu), 2.15);
        QCOMPARE(ev::adjusted_latency(1.0, ev::EndpointKind::Cpu), 2.15);
        QCOMPARE(ev::adjusted_latency(1.0, ev::EndpointKind::Other), 2.0);
    }

    void compositeGates() {
        ev::Axes base{80.0, 80.0, 80.0, 80.0};
        QVERIFY(std::abs(*ev::composite_v14(base) - 80) < 1e-9);
        for (int axis : {0, 2, 3}) {  // intelligence, speed, cost gate
            for (double v : {50.0, 49.999, 40.0, 25.0, 10.0}) {
                ev::Axes a = base;
                (axis == 0 ? a.intelligence : axis == 2 ? a.speed : a.cost) = v;
                const double mean = 4 / (3 / 80.0 + 1 / v);
                const double want = v < 50 ? mean * (v / 50) * (v / 50) : mean;
                QVERIFY2(std::abs(*ev::composite_v14(a) - want) < 1e-9,
                         qPrintable(QString::number(v)));
            }
        }
        ev::Axes cal = base;
        cal.calibration = 10.0;  // no gate
        QVERIFY(std::abs(*ev::composite_v14(cal) - 4 / (3 / 80.0 + 1 / 10.0)) < 1e-9);
        ev::Axes zero = base;
        zero.speed = 0.0;
        QCOMPARE(*ev::composite_v14(zero), 0.0);
        ev::Axes missing = base;
        missing.cost.reset();
        QVERIFY(!ev::composite_v14(missing));
        // Sealed chance, the gap penalty, the calibration blend.
        QCOMPARE(ev::chance_corrected_sealed(0.293), 0.0);
        QVERIFY(std::abs(ev::chance_corrected_sealed(1.0) - 100) < 1e-9);
        const double combined = 0.8 * 70 + 0.2 * ev::chance_corrected_sealed(0.6);
        QVERIFY(std::abs(ev::intelligence_v14(70, 0.6, 0.6) - combined) < 1e-9);
        QVERIFY(std::abs(ev::intelligence_v14(70, 0.6, 0.85) - combined) < 1e-9);
        QVERIFY(std::abs(ev::intelligence_v14(70, 0.6, 0.95) - combined * 0.9) < 1e-9);
        QVERIFY(std::abs(ev::intelligence_v14(70, 0.6, 0.3) - combined) < 1e-9);
        QVERIFY(std::abs(ev::calibration_v14(40, 75) - (40 + 35 * 0.2 / 0.35)) < 1e-9);
        QCOMPARE(ev::calibration_v14(std::nullopt, std::nullopt), 0.0);
    }

    void tierWeightsAndChance() {
        // Public items (no judge tier): easy/standard/hard renormalise to .194/.389/.417.
        std::map<std::string, double> acc = {
            {"easy", 1.0}, {"standard", 0.316667}, {"hard", 0.336439}};
        QVERIFY(std::abs(*ev::intelligence_v13(acc) - 100 * 0.14 / 0.72) < 1e-6);
        QVERIFY(std::abs(0.14 / 0.72 - 0.194) < 1e-3 && std::abs(0.28 / 0.72 - 0.389) < 1e-3 &&
                std::abs(0.30 / 0.72 - 0.417) < 1e-3);
        QCOMPARE(*ev::intelligence_v13({{"easy", 0.1}}), 0.0);  // below chance clamps at 0
        QVERIFY(!ev::intelligence_v13({{"bogus", 1.0}}));
    }

    // All ten leaderboard composites follow from their axes.
    void leaderboardComposites() {
        auto lb = ev::load_leaderboard(kData + "/leaderboard_v14.json");
        QVERIFY2(lb.ok(), lb.ok() ? "" : lb.error().message.c_str());
        QCOMPARE(lb->rows.size(), size_t(10));
        for (const auto& row : lb->rows) {
            auto c = ev::composite_v14(row.axes);
            QVERIFY(c.has_value());
            QVERIFY2(std::abs(*c - row.score) < 1e-9, qPrintable(QString("%1: %2 vs %3")
                                                                     .arg(row.key.c_str())
                                                                     .arg(*c, 0, 'g', 17)
                                                                     .arg(row.score, 0, 'g', 17)));
        }
        // Upstream's djev price reproduces djev's Cost axis.
        for (const auto& row : lb->rows)
            if (row.key == "djev")
                QVERIFY(std::abs(ev::cost_axis(ev::kDiffusionGemmaUsdPer1k) - *row.axes.cost) <
                        1e-3);  // price rounded to 6 digits
    }

    void temperature() {
        auto p = ev::temperature_scale({{"a", 0.8}, {"b", 0.2}}, 2.0);
        QVERIFY(std::abs(p["a"] - std::sqrt(0.8) / (std::sqrt(0.8) + std::sqrt(0.2))) < 1e-12);
        QVERIFY(std::abs(ev::temperature_scale({{"a", 0.8}, {"b", 0.2}}, 1.0)["a"] - 0.8) < 1e-12);
        // Over-confident answers (right 60% of the time at p = .99) fit a T above 1.
        std::vector<ev::ScoredItem> items;
        for (int i = 0; i < 50; ++i)
            items.push_back(scored("i" + std::to_string(i), {{"a", 0.99}, {"b", 0.01}},
                                   (i * 37) % 100 < 60 ? "a" : "b", 0.1));
        std::vector<const ev::ScoredItem*> ptrs;
        for (const auto& it : items) ptrs.push_back(&it);
        QVERIFY(ev::fit_temperature(ptrs) > 2);
        ev::RunScoreOptions o;
        o.auto_temperature = true;
        auto fitted = ev::score_run(items, o);
        auto plain = ev::score_run(items, {});
        QCOMPARE(fitted.fold_temperatures.size(), size_t(5));
        QCOMPARE(fitted.accuracy, plain.accuracy);
        QVERIFY(*fitted.ece_hard < *plain.ece_hard);
    }

    // ---- loaders ----
    void jevbenchPublicData() {
        auto suite = ev::load_jevbench(kData + "/jevbench_public.jsonl");
        QVERIFY2(suite.ok(), suite.ok() ? "" : suite.error().message.c_str());
        QCOMPARE(suite->items.size(), size_t(231));
        std::map<std::string, int> tiers;
        int prob = 0;
        for (const auto& it : suite->items) {
            tiers[it.tier]++;
            if (it.gold_probs) prob++;
            QCOMPARE(it.schema.questions.size(), size_t(1));
            const auto& q = it.questions.at(0);
            QCOMPARE(q.names.size(), it.schema.questions[0].labels().size());
            QVERIFY(std::find(q.names.begin(), q.names.end(), q.expected) != q.names.end());
        }
        QCOMPARE(tiers["easy"], 48);
        QCOMPARE(tiers["standard"], 72);
        QCOMPARE(tiers["hard"], 111);
        QCOMPARE(prob, 10);
        auto lock = json::parse(slurp(kData + "/manifest.lock.json"));
        QCOMPARE(QString::fromStdString(suite->sha256),
                 QString::fromStdString(lock["unified_dataset_sha256"].get<std::string>()));
        // Options in the item's presentation order, not the criteria's (alphabetical) order.
        const auto& first = suite->items[0];
        QCOMPARE(QString::fromStdString(first.schema.questions[0].options[0].name),
                 QString("track_order"));
        QCOMPARE(QString::fromStdString(first.schema.questions[0].options[0].description),
                 QString("Wants to know where an order is or when it arrives"));
        for (const auto& it : suite->items) {
            if (it.schema.questions[0].type == core::QuestionType::Score) {
                QVERIFY(it.score_type);
                QCOMPARE(QString::fromStdString(it.questions[0].names[0]), QString("0"));
            }
            if (it.schema.questions[0].type == core::QuestionType::Noul)
                QCOMPARE(it.questions[0].names, (std::vector<std::string>{"yes", "no"}));
        }
        QVERIFY(ev::leakage_problems(kData + "/jevbench_public.jsonl").empty());
        ev::apply_filter(*suite, {"hard", "", "", 5, 7});
        QCOMPARE(suite->items.size(), size_t(7));
        for (const auto& it : suite->items)
            QCOMPARE(QString::fromStdString(it.tier), QString("hard"));
    }

    void jevbenchBadInput() {
        const std::string good =
            slurp(kData + "/jevbench_public.jsonl")
                .substr(0, slurp(kData + "/jevbench_public.jsonl").find('\n') + 1);
        json item = json::parse(good);
        struct Case {
            std::string text, must1, must2;
        };
        json unknown = item;
        unknown["question"]["type"] = "ranking";
        json notamong = item;
        notamong["expected"] = "refund";
        json scorestr = json::parse(
            R"({"id":"s","tier":"easy","state":"x","question":{"type":"score","criteria":["a","b"]},"labels":["0","1"],"expected":"1"})");
        std::vector<Case> cases = {
            {good + "{not json\n", ":2:", "not a JSON object"},
            {good + unknown.dump() + "\n", ":2: field question.type", "ranking"},
            {notamong.dump() + "\n", ":1: field expected", "not among labels"},
            {good + good, ":2: field id", "twice"},
            {scorestr.dump() + "\n", ":1: field expected", "integer"},
        };
        int n = 0;
        for (const auto& c : cases) {
            const std::string p = path("bad" + std::to_string(n++) + ".jsonl");
            spit(p, c.text);
            auto s = ev::load_jevbench(p);
            QVERIFY(!s.ok());
            const std::string m = s.error().message;
            QVERIFY2(m.find(p) != std::string::npos && m.find(c.must1) != std::string::npos &&
                         m.find(c.must2) != std::string::npos,
                     m.c_str());
            QVERIFY(s.error().kind == engine::ErrorKind::BadInput);
        }
        QVERIFY(!ev::load_jevbench(path("missing.jsonl")).ok());
        // A state key that leaks the answer.
        json leak = item;
        leak["state"] = {{"text", "x"}, {"meta", {{"ground_truth", "track_order"}}}};
        spit(path("leak.jsonl"), leak.dump() + "\n");
        auto problems = ev::leakage_problems(path("leak.jsonl"));
        QCOMPARE(problems.size(), size_t(1));
        QVERIFY(problems[0].find("state.meta.ground_truth") != std::string::npos);
    }

    void dgemSuites() {
        // The shipped suite, found from another working directory (suite folder's parent).
        auto suite = ev::load_dgem_suite(DS_SOURCE_DIR "/resources/suites/policies.jsonl",
                                         tmp_.path().toStdString());
        QVERIFY2(suite.ok(), suite.ok() ? "" : suite.error().message.c_str());
        QCOMPARE(suite->items.size(), size_t(30));
        std::map<std::string, int> domains;
        for (const auto& it : suite->items) {
            domains[it.domain]++;
            QVERIFY(it.questions.size() >= 3);
            for (const auto& q : it.questions)
                QVERIFY(std::find(q.names.begin(), q.names.end(), q.expected) != q.names.end());
        }
        QCOMPARE(domains["support"], 10);
        QCOMPARE(domains["code_review"], 10);
        QCOMPARE(domains["security"], 10);
        // The same suite compiled into the application, its templates from :/templates.
        auto shipped = ev::load_dgem_suite(":/suites/policies.jsonl", tmp_.path().toStdString());
        QVERIFY2(shipped.ok(), shipped.ok() ? "" : shipped.error().message.c_str());
        QCOMPARE(shipped->items.size(), size_t(30));
        QCOMPARE(shipped->sha256, suite->sha256);

        // dgem's layout: benchmarks/eval_dataset.jsonl naming templates/... from the repo root.
        QDir root(tmp_.path());
        root.mkpath("repo/benchmarks");
        root.mkpath("repo/templates");
        QFile::copy(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl",
                    tmp_.filePath("repo/templates/support_triage.json.tmpl"));
        root.mkpath("repo/benchmarks/v2");
        const std::string repo = tmp_.filePath("repo").toStdString();
        json c = {{"id", "sup-01"},
                  {"domain", "support"},
                  {"template", "templates/support_triage.json.tmpl"},
                  {"variables", {{"ticket", "Refund my double charge"}}},
                  {"expected", {{"team", "Billing"}, {"urgent", "yes"}}},
                  {"tier", "unambiguous"}};
        // Two levels down: only the working directory (the repository root) has templates/.
        spit(repo + "/benchmarks/v2/eval_dataset.jsonl", c.dump() + "\n");
        auto s = ev::load_dgem_suite(repo + "/benchmarks/v2/eval_dataset.jsonl", repo);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
        QCOMPARE(QString::fromStdString(s->items[0].questions[0].expected), QString("billing"));
        QVERIFY(!ev::load_dgem_suite(repo + "/benchmarks/v2/eval_dataset.jsonl",
                                     tmp_.path().toStdString())
                     .ok());

        auto bad = [&](json line, const std::string& m1, const std::string& m2) {
            spit(repo + "/benchmarks/bad.jsonl", c.dump() + "\n" + line.dump() + "\n");
            auto r = ev::load_dgem_suite(repo + "/benchmarks/bad.jsonl", repo);
            QVERIFY(!r.ok());
            const std::string m = r.error().message;
            QVERIFY2(m.find("bad.jsonl:2") != std::string::npos &&
                         m.find(m1) != std::string::npos && m.find(m2) != std::string::npos,
                     m.c_str());
        };
        json missing = c;
        missing["id"] = "x";
        missing["template"] = "templates/nope.json.tmpl";
        bad(missing, "field template", "not found");
        json noq = c;
        noq["id"] = "y";
        noq["expected"] = {{"priority", "high"}};
        bad(noq, "field expected.priority", "no question");
        json wrong = c;
        wrong["id"] = "z";
        wrong["expected"] = {{"team", "sales"}};
        bad(wrong, "field expected.team", "accepted: billing, support, engineering");
    }

    // ---- the runner ----
    void runnerDeterministicAcrossWorkers() {
        auto suite = ev::load_jevbench(kData + "/jevbench_public.jsonl");
        QVERIFY(suite.ok());
        auto fake = std::make_shared<FakeBackend>();
        ev::RunSettings s1;
        s1.workers = 1;
        s1.journal_path = path("w1.jsonl");
        ev::RunSettings s4 = s1;
        s4.workers = 4;
        s4.journal_path = path("w4.jsonl");
        std::vector<size_t> seen_done;
        auto r1 = ev::EvalRunner(fake, s1).run(
            *suite, [&](const ev::RunProgress& p) { seen_done.push_back(p.done); }, {});
        auto r4 = ev::EvalRunner(fake, s4).run(*suite, {}, {});
        QVERIFY(r1.ok() && r4.ok());
        QCOMPARE(r1->records.size(), size_t(231));
        QCOMPARE(r4->records.size(), size_t(231));
        QCOMPARE(seen_done.back(), size_t(231));
        for (size_t i = 0; i < 231; ++i) {
            QCOMPARE(r1->records[i].id, suite->items[i].id);
            QCOMPARE(r1->records[i].questions[0].probs, r4->records[i].questions[0].probs);
            QCOMPARE(r1->records[i].seed, ev::item_seed(42, suite->items[i].id));
        }
        // Another run seed changes the per-item seeds (and so the draws).
        QVERIFY(ev::item_seed(42, "x") != ev::item_seed(43, "x"));
        QVERIFY(ev::item_seed(42, "x") != ev::item_seed(42, "y"));
        // The journal: a header and one line per item.
        auto jc = ev::read_journal(s4.journal_path);
        QVERIFY(jc.ok());
        QCOMPARE(jc->records.size(), size_t(231));
        QCOMPARE(QString::fromStdString(jc->header["dataset_sha256"].get<std::string>()),
                 QString::fromStdString(suite->sha256));
        QCOMPARE(QString::fromStdString(jc->header["backend"].get<std::string>()), QString("fake"));
        // The score is a real one over these probabilities.
        auto items = ev::scored_items(*suite, r1->records);
        auto score = ev::score_run(items, {});
        QCOMPARE(score.n, 231);
        QCOMPARE(score.valid, 231);
        QVERIFY(score.intelligence_v13 && score.calibration && score.speed);
        int correct = 0;
        for (const auto& it : items) correct += it.score.correct;
        QCOMPARE(score.correct, correct);
    }

    void runnerRetriesTimeoutsFailures() {
        auto suite = ev::load_jevbench(kData + "/jevbench_public.jsonl");
        QVERIFY(suite.ok());
        ev::apply_filter(*suite, {"", "", "", 0, 6});
        auto fake = std::make_shared<FakeBackend>();
        auto key = [&](size_t i) {
            const auto& st = suite->items[i].state;
            return st.is_string() ? st.get<std::string>() : st.dump();
        };
        fake->transient_failures[key(1)] = 2;  // succeeds on the third attempt
        fake->final_failures.insert(key(2));   // bad input: not retried
        fake->hang.insert(key(3));             // times out every attempt
        ev::RunSettings s;
        s.workers = 3;
        s.retries = 2;
        s.retry_backoff_s = 0.01;
        s.item_timeout_s = 0.2;
        s.journal_path = path("retry.jsonl");
        auto r = ev::EvalRunner(fake, s).run(*suite, {}, {});
        QVERIFY(r.ok());
        QCOMPARE(r->records.size(), size_t(6));
        QVERIFY(r->records[1].ok);
        QCOMPARE(r->records[1].attempts, 3);
        QVERIFY(!r->records[2].ok);
        QCOMPARE(r->records[2].attempts, 1);
        QCOMPARE(QString::fromStdString(r->records[2].error_kind), QString("bad_input"));
        QVERIFY(!r->records[3].ok);
        QCOMPARE(r->records[3].attempts, 3);
        QCOMPARE(QString::fromStdString(r->records[3].error_kind), QString("timeout"));
        QVERIFY(r->records[3].latency_s >= 0.55);  // three timed-out attempts count
        // Failures are counted wrong, never dropped.
        auto score = ev::score_run(ev::scored_items(*suite, r->records), {});
        QCOMPARE(score.n, 6);
        QCOMPARE(score.failed, 2);
        QCOMPARE(score.valid, 4);
    }

    void cancelAndResumeFromACutJournal() {
        auto suite = ev::load_jevbench(kData + "/jevbench_public.jsonl");
        QVERIFY(suite.ok());
        ev::apply_filter(*suite, {"", "", "", 0, 40});
        auto fake = std::make_shared<FakeBackend>();
        fake->delay_ms = 5;
        ev::RunSettings s;
        s.workers = 2;
        s.journal_path = path("cut.jsonl");
        // Reference: an uninterrupted run.
        ev::RunSettings ref = s;
        ref.journal_path = path("ref.jsonl");
        auto full = ev::EvalRunner(fake, ref).run(*suite, {}, {});
        QVERIFY(full.ok());

        core::CancelToken cancel;
        auto part = ev::EvalRunner(fake, s).run(
            *suite,
            [&](const ev::RunProgress& p) {
                if (p.done >= 15) cancel.cancel();
            },
            cancel);
        QVERIFY(part.ok());
        QVERIFY(part->cancelled);
        QVERIFY(part->records.size() >= 15 && part->records.size() < 40);
        // Power loss: the last record is cut mid-line.
        std::string text = slurp(s.journal_path);
        const size_t last = text.rfind('\n', text.size() - 2);
        text.resize(last + 1 + (text.size() - last - 1) / 2);
        spit(s.journal_path, text);
        auto jc = ev::read_journal(s.journal_path);
        QVERIFY(jc.ok());
        QVERIFY(jc->cut_bytes > 0);
        const size_t kept = jc->records.size();

        ev::RunSettings resume = s;
        resume.resume = true;
        resume.workers = 3;  // more workers: the same per-item probabilities
        auto rest = ev::EvalRunner(fake, resume).run(*suite, {}, {});
        QVERIFY2(rest.ok(), rest.ok() ? "" : rest.error().message.c_str());
        QVERIFY(!rest->cancelled);
        QCOMPARE(rest->resumed, kept);
        QCOMPARE(rest->records.size(), size_t(40));
        auto after = ev::read_journal(s.journal_path);
        QVERIFY(after.ok());
        QCOMPARE(after->cut_bytes, size_t(0));
        QCOMPARE(after->records.size(), size_t(40));
        std::set<std::string> ids;
        for (const auto& line :
             QString::fromStdString(slurp(s.journal_path)).split('\n', Qt::SkipEmptyParts).mid(1))
            QVERIFY2(ids.insert(json::parse(line.toStdString())["id"].get<std::string>()).second,
                     "an item twice");
        QCOMPARE(ids.size(), size_t(40));
        for (size_t i = 0; i < 40; ++i)
            QCOMPARE(rest->records[i].questions[0].probs, full->records[i].questions[0].probs);
        auto a = ev::score_run(ev::scored_items(*suite, full->records), {});
        auto b = ev::score_run(ev::scored_items(*suite, rest->records), {});
        QCOMPARE(a.correct, b.correct);
        QCOMPARE(*a.intelligence_v13, *b.intelligence_v13);
        QCOMPARE(a.calibration.has_value(), b.calibration.has_value());
        if (a.calibration) QCOMPARE(*a.calibration, *b.calibration);
        QCOMPARE(a.soft_tvd.has_value(), b.soft_tvd.has_value());
        QCOMPARE(a.brier, b.brier);

        // A journal from other settings is refused, naming the journal and the field.
        ev::RunSettings other = resume;
        other.seed = 7;
        auto refused = ev::EvalRunner(fake, other).run(*suite, {}, {});
        QVERIFY(!refused.ok());
        QVERIFY2(
            refused.error().message.find("cut.jsonl:1: field settings.seed") != std::string::npos,
            refused.error().message.c_str());
        // A damaged complete line is refused rather than guessed around.
        spit(path("damaged.jsonl"), slurp(s.journal_path) + "garbage\n" + "{}\n");
        QVERIFY(!ev::read_journal(path("damaged.jsonl")).ok());
    }

    void atomicWrite() {
        const std::string p = path("out.json");
        QVERIFY(ev::write_file_atomic(p, "one\n").ok());
        QVERIFY(ev::write_file_atomic(p, "two\n").ok());
        QCOMPARE(QString::fromStdString(slurp(p)), QString("two\n"));
        QDir d(tmp_.path());
        QCOMPARE(d.entryList({"out.json.tmp*"}).size(), 0);
        QVERIFY(!ev::write_file_atomic(path("no/such/dir/x.json"), "x").ok());
    }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
