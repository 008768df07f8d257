// Evaluation runs end to end on the tiny model with the real dgem binary:
//  - `dgem bench-jev --local -w 2 -o run.json` over all 231 public items, and the same run
//    through the real `dgem serve` on loopback: identical per-item probabilities and predictions;
//  - a run killed with SIGKILL mid-way and resumed (its journal also cut mid-line): exactly one
//    record per item, the same per-item probabilities and scores as the uninterrupted run;
//  - `dgem bench -d resources/suites/policies.jsonl`: the shipped suite scored;
//  - bad input: exit 2 with the file, line and field named.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <fstream>
#include <set>
#include <sstream>

#include "core/evaluation/eval_report.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_score.h"
#include "core/evaluation/eval_suite.h"
#include "serve_process.h"

using nlohmann::json;
namespace ev = core::eval;

#include "test_files.h"

namespace {

const QString kDataset = QStringLiteral(DS_SHARED_DIR "/data/jevbench/jevbench_public.jsonl");
const QString kLock = QStringLiteral(DS_SHARED_DIR "/data/jevbench/manifest.lock.json");

json read_json(const QString& path) {
    return json::parse(slurp(path));
}

std::map<std::string, json> items_by_id(const json& report) {
    std::map<std::string, json> m;
    for (const auto& it : report["items"]) m[it["id"].get<std::string>()] = it;
    return m;
}

}  // namespace

class TestEvaluationE2E : public QObject {
    Q_OBJECT

    QTemporaryDir home_;
    json local_;  // the 231-item local run

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char* k :
             {"DGEM_URL", "DGEM_TOKEN", "DGEM_SERVER_KEY", "DGEM_MODEL", "DGEM_TIMEOUT", "API_KEY"})
            e.remove(k);
        e.insert("HOME", home_.path());
        return e;
    }

    Run dgem(const QStringList& args, int timeout_ms = 600000) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.setWorkingDirectory(home_.path());
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        p.closeWriteChannel();
        if (!p.waitForFinished(timeout_ms)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    QStringList localArgs() const {
        return {"--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu"};
    }
    QString file(const QString& name) const { return home_.filePath(name); }

  private slots:
    void initTestCase() { QVERIFY(home_.isValid()); }

    // All 231 items, locally and through `dgem serve`: the same per-item answers.
    void localAndServeAgree() {
        QElapsedTimer t;
        t.start();
        auto local =
            dgem(QStringList{"bench-jev", "-d", kDataset, "-w", "2", "-o", file("local.json"),
                             "--lockfile", kLock, "--compare-leaderboard"} +
                 localArgs());
        QVERIFY2(local.code == 0, qPrintable(local.err));
        qInfo("231 items on the local backend: %.1f s", t.elapsed() / 1000.0);
        local_ = read_json(file("local.json"));
        QCOMPARE(local_["items"].size(), size_t(231));
        for (const auto& it : local_["items"]) {
            QVERIFY(it["valid"].get<bool>());
            double sum = 0;
            for (const auto& [k, v] : it["probs"].items()) sum += v.get<double>();
            QVERIFY(std::abs(sum - 1) < 1e-6);
            QCOMPARE(it["probs"].size(), it["labels"].size());
            QCOMPARE(it["correct"].get<bool>(), it["predicted"] == it["expected"]);
            QVERIFY(it["latency_s"].get<double>() > 0);
        }
        const json& axes = local_["score"]["axes"];
        for (const char* a : {"intelligence", "calibration", "speed"}) QVERIFY(axes[a].is_number());
        QVERIFY(axes["cost"].is_null());  // no price given: no Cost, no composite
        QVERIFY(local_["score"]["public_only_estimate"].is_null());
        QCOMPARE(local_["dataset"]["sha256"].get<std::string>(),
                 read_json(kLock)["unified_dataset_sha256"].get<std::string>());
        QVERIFY(local.out.contains("JevBench v1.4 scorecard"));
        QVERIFY(local.out.contains("THIS RUN") || local.out.contains("no composite"));
        QVERIFY(local.out.contains("reliability, hard tier"));
        // The report's numbers are the scorer's over the report's own items.
        int correct = 0;
        for (const auto& it : local_["items"]) correct += it["correct"].get<bool>();
        QCOMPARE(local_["score"]["correct"].get<int>(), correct);

        // The same through the real `dgem serve` on loopback.
        QProcess serve;
        const QString port = start_dgem_serve(serve, env());
        QVERIFY2(!port.isEmpty(), serve.readAllStandardError().constData());
        t.restart();
        auto remote = dgem({"bench-jev", "-d", kDataset, "-w", "2", "-o", file("serve.json"), "-u",
                            "http://127.0.0.1:" + port + "/v1", "--protocol", "chat"});
        serve.terminate();
        serve.waitForFinished(30000);
        QVERIFY2(remote.code == 0, qPrintable(remote.err));
        qInfo("231 items through dgem serve: %.1f s", t.elapsed() / 1000.0);
        json served = read_json(file("serve.json"));
        auto a = items_by_id(local_), b = items_by_id(served);
        QCOMPARE(a.size(), size_t(231));
        QCOMPARE(b.size(), size_t(231));
        int same = 0;
        for (const auto& [id, x] : a) {
            const json& y = b.at(id);
            QCOMPARE(QString::fromStdString(y["predicted"].get<std::string>()),
                     QString::fromStdString(x["predicted"].get<std::string>()));
            QCOMPARE(y["seed"], x["seed"]);
            for (const auto& [label, p] : x["probs"].items())
                QVERIFY2(std::abs(y["probs"][label].get<double>() - p.get<double>()) < 1e-9,
                         qPrintable(QString::fromStdString(id + " " + label)));
            same++;
        }
        QCOMPARE(same, 231);
        QCOMPARE(served["score"]["correct"], local_["score"]["correct"]);
        QCOMPARE(served["score"]["axes"]["intelligence"], local_["score"]["axes"]["intelligence"]);
        QVERIFY(served["backend"].get<std::string>().find("127.0.0.1") != std::string::npos);
    }

    // kill -9 mid-run, a journal cut mid-line, --resume: one record per item, the same answers
    // and scores as the uninterrupted run (Speed aside: it is measured).
    void sigkillThenResume() {
        if (local_.is_null()) QSKIP("needs the local run");
        const int n = 40;
        const QStringList args = QStringList{"bench-jev",        "-d", kDataset,           "-n",
                                             QString::number(n), "-o", file("killed.json")} +
                                 localArgs();
        const QString journal = file("killed.json.journal.jsonl");
        QProcess p;
        p.setProcessEnvironment(env());
        p.setWorkingDirectory(home_.path());
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args + QStringList{"-w", "2"});
        QVERIFY(p.waitForStarted());
        int lines = 0;
        for (int i = 0; i < 1200 && lines < 13; ++i) {
            QTest::qWait(50);
            std::string text = slurp(journal);
            lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
        }
        QVERIFY2(lines >= 13, "the journal did not grow");
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QVERIFY(!QFile::exists(file("killed.json")));
        // Cut the last record in half, as a power loss would.
        std::string text = slurp(journal);
        const size_t last = text.rfind('\n', text.size() - 2);
        text.resize(last + 1 + (text.size() - last - 1) / 2);
        {
            std::ofstream out(journal.toStdString(), std::ios::binary | std::ios::trunc);
            out << text;
        }
        // Resumed with another worker count: the per-item seeds do not depend on it.
        auto resumed = dgem(args + QStringList{"--resume", "-w", "1"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains("already in the journal"), qPrintable(resumed.err));
        auto jc = ev::read_journal(journal.toStdString());
        QVERIFY(jc.ok());
        QCOMPARE(jc->cut_bytes, size_t(0));
        QCOMPARE(jc->records.size(), size_t(n));
        std::set<std::string> ids;
        std::istringstream in(slurp(journal));
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line))
            QVERIFY(ids.insert(json::parse(line)["id"].get<std::string>()).second);
        QCOMPARE(ids.size(), size_t(n));

        json report = read_json(file("killed.json"));
        // The header and `lines - 1` records were there before the kill; the cut removed one.
        QVERIFY(report["resumed_items"].get<int>() >= lines - 2);
        QVERIFY(report["resumed_items"].get<int>() < n);
        auto full = items_by_id(local_);
        QCOMPARE(report["items"].size(), size_t(n));
        for (const auto& it : report["items"]) {
            const json& ref = full.at(it["id"].get<std::string>());
            QCOMPARE(it["predicted"], ref["predicted"]);
            QCOMPARE(it["probs"], ref["probs"]);  // bit for bit: same seed, same engine
        }
        // The uninterrupted run's scores over the same items, from its own records.
        auto suite = ev::load_jevbench(kDataset.toStdString());
        QVERIFY(suite.ok());
        ev::apply_filter(*suite, {"", "", "", 0, static_cast<size_t>(n)});
        std::vector<ev::ItemRecord> records;
        for (const auto& item : suite->items) {
            const json& ref = full.at(item.id);
            ev::ItemRecord r;
            r.id = item.id;
            r.ok = true;
            r.latency_s = ref["latency_s"].get<double>();
            ev::QuestionRecord q;
            q.id = ev::kJevSlotId;
            q.names = item.questions[0].names;
            for (const auto& name : q.names) q.probs.push_back(ref["probs"][name].get<double>());
            r.questions.push_back(q);
            records.push_back(r);
        }
        auto want = ev::score_run(ev::scored_items(*suite, records), {});
        const json& got = report["score"];
        QCOMPARE(got["correct"].get<int>(), want.correct);
        QCOMPARE(got["axes"]["intelligence"].get<double>(), *want.intelligence_v13);
        QVERIFY(std::abs(got["brier"].get<double>() - want.brier) < 1e-12);
        QCOMPARE(got["axes"]["calibration"].is_null(), !want.calibration.has_value());
    }

    // The shipped suite through `dgem bench`.
    void shippedSuite() {
        auto run = dgem(QStringList{"bench", "-d", DS_SOURCE_DIR "/resources/suites/policies.jsonl",
                                    "-n", "4", "--samples", "1", "-o", file("suite.json")} +
                        localArgs());
        QVERIFY2(run.code == 0, qPrintable(run.err));
        json r = read_json(file("suite.json"));
        QCOMPARE(r["cases"].size(), size_t(4));
        int answers = 0, right = 0;
        for (const auto& c : r["cases"]) {
            bool all = true;
            for (const auto& [q, a] : c["answers"].items()) {
                answers++;
                const bool ok = a["predicted"] == a["expected"];
                QCOMPARE(a["correct"].get<bool>(), ok);
                right += ok;
                all = all && ok;
                double sum = 0;
                for (const auto& [k, v] : a["probs"].items()) sum += v.get<double>();
                QVERIFY(std::abs(sum - 1) < 1e-6);
            }
            QCOMPARE(c["correct"].get<bool>(), all);
        }
        QCOMPARE(r["score"]["answers"].get<int>(), answers);
        QCOMPARE(r["score"]["answers_correct"].get<int>(), right);
        QVERIFY(run.out.contains("mean confidence"));
    }

    // Bad input: exit 2, the file, line and field named, nothing run.
    void badInput() {
        const std::string good = slurp(kDataset).substr(0, slurp(kDataset).find('\n') + 1);
        auto write = [&](const QString& name, const std::string& text) {
            std::ofstream out(file(name).toStdString(), std::ios::binary);
            out << text;
            return file(name);
        };
        json unknown = json::parse(good);
        unknown["question"]["type"] = "ranking";
        json notamong = json::parse(good);
        notamong["expected"] = "refund";
        struct Case {
            QString path, must1, must2;
        };
        std::vector<Case> cases = {
            {write("nonjson.jsonl", good + "{oops\n"), "nonjson.jsonl:2", "not a JSON object"},
            {write("unknown.jsonl", good + unknown.dump() + "\n"),
             "unknown.jsonl:2: field question.type", "ranking"},
            {write("notamong.jsonl", notamong.dump() + "\n"), "notamong.jsonl:1: field expected",
             "not among labels"},
        };
        for (const auto& c : cases) {
            auto run = dgem(QStringList{"bench-jev", "-d", c.path} + localArgs());
            QCOMPARE(run.code, 2);
            QVERIFY2(run.err.contains(c.must1) && run.err.contains(c.must2), qPrintable(run.err));
        }
        // A lock whose sha256 differs.
        json lock = read_json(kLock);
        lock["unified_dataset_sha256"] = std::string(64, '0');
        const QString bad_lock = write("bad.lock.json", lock.dump(2));
        auto run =
            dgem(QStringList{"bench-jev", "-d", kDataset, "--lockfile", bad_lock} + localArgs());
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("bad.lock.json: field unified_dataset_sha256") &&
                     run.err.contains("differs"),
                 qPrintable(run.err));
        // --sync checks the dataset against the lock and runs the zero-leakage check.
        auto sync = dgem({"bench-jev", "--sync", "-d", kDataset, "--lockfile", kLock});
        QVERIFY2(sync.code == 0, qPrintable(sync.err));
        QVERIFY(sync.out.contains("zero-leakage check passed"));
        auto nosync = dgem({"bench-jev", "--sync", "-d", file("absent/jevbench_public.jsonl"),
                            "--lockfile", kLock});
        QCOMPARE(nosync.code, 2);
        QVERIFY2(nosync.err.contains("no network"), qPrintable(nosync.err));
        // A dgem suite naming a missing template, and a question the template lacks.
        json c = {{"id", "a"},
                  {"domain", "support"},
                  {"template", "templates/none.json.tmpl"},
                  {"variables", json::object()},
                  {"expected", {{"team", "billing"}}}};
        const QString s1 = write("missing_tmpl.jsonl", c.dump() + "\n");
        auto m = dgem(QStringList{"bench", "-d", s1} + localArgs());
        QCOMPARE(m.code, 2);
        QVERIFY2(
            m.err.contains("missing_tmpl.jsonl:1: field template") && m.err.contains("not found"),
            qPrintable(m.err));
        c["template"] = DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl";
        c["expected"] = {{"priority", "high"}};
        const QString s2 = write("no_question.jsonl", c.dump() + "\n");
        auto q = dgem(QStringList{"bench", "-d", s2} + localArgs());
        QCOMPARE(q.code, 2);
        QVERIFY2(q.err.contains("no_question.jsonl:1: field expected.priority"), qPrintable(q.err));
        // Bad flags name the flag.
        auto w = dgem(QStringList{"bench-jev", "-d", kDataset, "-w", "zero"} + localArgs());
        QCOMPARE(w.code, 2);
        QVERIFY(w.err.contains("--workers zero"));
    }
};

// Two 231-item runs take minutes on a loaded CI machine: more than Qt Test's default 5 minutes
// per function, well inside CTest's 600 s for the whole test.
int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "590000");
    QCoreApplication app(argc, argv);
    TestEvaluationE2E test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_evaluation_e2e.moc"
