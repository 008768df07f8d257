// The shipped demo model (models/demo, assembled with the tokenizer in build/models/demo):
//  - it loads through the real loader and names itself as what it is (config description, the
//    backend's description, /health's model_description);
//  - its training.json records how it was made (trainer commit, seed, steps, corpus sizes);
//  - it answers the hand-written inputs of each shipped policy (tests/data/demo, written by hand,
//    not by the corpus generator) on the CPU engine well above chance: at least kOverChance times
//    the answers a uniform guess gets right, per policy. The aim is 80% per question; the
//    shipped weights do not reach it yet (README, "Where it stands"), so this is the floor that a
//    broken loader, read or layout would fall through (a random model scores about 1x);
//  - it is the default: `dgem health --local` (no --model) names it;
//  - trained weights on the packed path: its bf16 weights read in place (--cpu-precision bf16)
//    give each label's probability within 2e-2 of the exact f32 path (issue 41's tolerance).
// Skipped while models/demo holds no weights (the tiny model is the default then).
#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/decide/local_backend.h"
#include "core/policy/policy.h"
#include "core/policy/schema.h"
#include "engine/engine.h"

using nlohmann::json;

namespace {

const char* const kDescription =
    "demo model, trained on synthetic data for the shipped policies; not a general model";
// Right answers per policy, against a uniform guess's (see the header).
constexpr double kOverChance = 1.4;
const char* const kPolicies[] = {"support_triage", "code_review",       "content_moderation",
                                 "contract_audit", "security_incident", "agent_router"};

// A policy's hand-written rows (tests/data/demo), rendered as decide requests, with the answers
// the row expects; at most `limit` of them.
struct HandWrittenRow {
    core::DecideRequest request;
    json expected;
};
std::vector<HandWrittenRow> hand_written(const std::string& name,
                                         size_t limit = std::numeric_limits<size_t>::max()) {
    auto file = core::load_policy_file(std::string(DS_SOURCE_DIR) + "/resources/templates/" + name +
                                       ".json.tmpl");
    if (!file) qFatal("%s", file.error().message.c_str());
    std::ifstream in(std::string(DS_SOURCE_DIR) + "/tests/data/demo/" + name + ".jsonl");
    if (!in) qFatal("tests/data/demo/%s.jsonl: cannot be read", name.c_str());
    std::vector<HandWrittenRow> out;
    std::string line;
    while (out.size() < limit && std::getline(in, line)) {
        json row = json::parse(line);
        json expected = row["expected"];
        for (const char* key : {"id", "expected"}) row.erase(key);
        auto rendered = core::render_policy_data(*file, row);
        if (!rendered) qFatal("%s", rendered.error().message.c_str());
        auto schema = core::parse_schema(rendered->schema, name);
        if (!schema) qFatal("%s", schema.error().message.c_str());
        out.push_back({core::DecideRequest{*schema, rendered->state, 42}, std::move(expected)});
    }
    return out;
}

json read_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) qFatal("%s: cannot be read", path.c_str());
    return json::parse(in);
}

}  // namespace

class TestDemoModel : public QObject {
    Q_OBJECT
    std::unique_ptr<core::LocalBackend> backend_;

  private slots:
    void initTestCase() {
        // A checkout without models/demo/model.safetensors builds no demo model (the tiny model
        // is the default then) and this suite says so.
        if (!std::filesystem::exists(std::string(DS_SOURCE_DIR) + "/models/demo/model.safetensors"))
            QSKIP("no demo model in models/demo yet (train one with tools/demo_model/train.py)");
        engine::EngineOptions options;
        options.model_dir = DS_DEMO_MODEL_DIR;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        auto backend = core::LocalBackend::open(options);
        QVERIFY2(backend, backend ? "" : backend.error().message.c_str());
        backend_ = std::move(*backend);
    }

    void namesItselfHonestly() {
        const json config = read_json(std::string(DS_SOURCE_DIR) + "/models/demo/config.json");
        QCOMPARE(config.value("description", ""), std::string(kDescription));
        QCOMPARE(config["text_config"]["vocab_size"].get<int>(), 262144);
        QVERIFY(backend_->describe().find(kDescription) != std::string::npos);
        engine::CancelToken none;
        auto health = backend_->health(none);
        QVERIFY(health);
        QCOMPARE(health->raw.value("model_description", ""), std::string(kDescription));
    }

    void recordsHowItWasTrained() {
        const json t = read_json(std::string(DS_SOURCE_DIR) + "/models/demo/training.json");
        for (const char* key : {"trainer_commit", "seed", "steps", "corpus", "train_seconds"})
            QVERIFY2(t.contains(key), key);
        QVERIFY(t["steps"].get<int>() > 0);
        QVERIFY(t["corpus"]["train_inputs_per_policy"].get<int>() > 0);
        // Loss fell over training (the first steps against the last).
        QVERIFY(t["loss_last"].get<double>() < t["loss_first"].get<double>());
    }

    void answersHandWrittenInputs_data() {
        QTest::addColumn<QString>("policy");
        for (const char* p : kPolicies) QTest::newRow(p) << QString(p);
    }
    void answersHandWrittenInputs() {
        QFETCH(QString, policy);
        const std::string name = policy.toStdString();
        int answers = 0, right = 0;
        double by_chance = 0;  // answers a uniform guess among each question's labels gets right
        for (const auto& [request, expected] : hand_written(name)) {
            auto d = backend_->decide(request, {}, {});
            QVERIFY2(d, d ? "" : d.error().message.c_str());
            for (const auto& q : d->questions) {
                if (!expected.contains(q.id)) continue;
                ++answers;
                by_chance += 1.0 / static_cast<double>(q.alternatives.size());
                right += q.alternatives[static_cast<size_t>(q.winner)] ==
                         expected[q.id].get<std::string>();
            }
        }
        QVERIFY(answers >= 40);
        const double over_chance = right / by_chance;
        qInfo("%s: %d of %d hand-written answers right (%.1f%%; a uniform guess: %.1f, %.2fx)",
              name.c_str(), right, answers, 100.0 * right / answers, by_chance, over_chance);
        QVERIFY2(over_chance >= kOverChance,
                 qPrintable(QString("%1: %2 of %3 right, %4x chance, below %5x")
                                .arg(policy)
                                .arg(right)
                                .arg(answers)
                                .arg(over_chance, 0, 'f', 2)
                                .arg(kOverChance)));
    }

    void packedPathMatchesExactPath() {
        engine::EngineOptions options;
        options.model_dir = DS_DEMO_MODEL_DIR;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        options.cpu_precision = engine::CpuPrecision::Bf16;
        auto packed = core::LocalBackend::open(options);
        QVERIFY2(packed, packed ? "" : packed.error().message.c_str());
        options.cpu_precision = engine::CpuPrecision::F32;
        auto exact = core::LocalBackend::open(options);
        QVERIFY2(exact, exact ? "" : exact.error().message.c_str());
        double worst = 0;
        int labels = 0;
        for (const char* p : kPolicies) {
            for (const auto& row : hand_written(p, 4)) {
                auto a = (*packed)->decide(row.request, {}, {});
                auto b = (*exact)->decide(row.request, {}, {});
                QVERIFY2(a && b, "a decision failed");
                QCOMPARE(a->questions.size(), b->questions.size());
                for (size_t q = 0; q < a->questions.size(); ++q)
                    for (size_t k = 0; k < a->questions[q].mean.size(); ++k, ++labels)
                        worst = std::max(
                            worst, std::abs(a->questions[q].mean[k] - b->questions[q].mean[k]));
            }
        }
        qInfo("packed bf16 path against f32: max |dp| = %.3g over %d label probabilities", worst,
              labels);
        QVERIFY(labels > 100);
        QVERIFY2(worst <= 2e-2, qPrintable(QString::number(worst)));
    }

    void isTheDefaultModel() {
        // `dgem health --local` names the model the local engine opens when none is named
        // (decide's table and JSON carry answers, not the model).
        QProcess dgem;
        dgem.start(QString(DS_BIN_DIR) + "/dgem", {"health", "--local"});
        QVERIFY(dgem.waitForFinished(120000));
        const QByteArray out = dgem.readAllStandardOutput();
        QCOMPARE(dgem.exitCode(), 0);
        QVERIFY2(out.contains("model decision-studio-demo"), out.constData());
        QVERIFY2(out.contains(kDescription), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestDemoModel)
#include "tst_demo_model.moc"
