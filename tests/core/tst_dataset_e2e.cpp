// `dgem bench -t POLICY -d DATA` as the real binary on the tiny model: a labelled CSV run (the
// output file, accuracy printed, the HTML report), an unlabelled JSONL run (the distribution),
// a run killed part-way (SIGKILL, the process really dies) and resumed equal to an
// uninterrupted one, and the messages for bad input given before any row runs.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/dataset/csv_reader.h"
#include "serve_process.h"
#include "test_files.h"

namespace {

const char* kPolicy = DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl";

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::istringstream in(text);
    core::dataset::CsvReader reader(in);
    std::vector<std::vector<std::string>> rows;
    core::dataset::CsvRecord r;
    while (reader.next(r)) rows.push_back(r.fields);
    return rows;
}

int column(const std::vector<std::string>& header, const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

}  // namespace

class TestDatasetE2E : public QObject {
    Q_OBJECT

    QTemporaryDir home_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char* k :
             {"DGEM_URL", "DGEM_TOKEN", "DGEM_SERVER_KEY", "DGEM_MODEL", "DGEM_TIMEOUT", "API_KEY"})
            e.remove(k);
        e.insert("HOME", home_.path());
        return e;
    }
    void start(QProcess& p, const QStringList& args) {
        p.setProcessEnvironment(env());
        p.setWorkingDirectory(home_.path());
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        p.closeWriteChannel();
    }
    Run dgem(const QStringList& args) {
        QProcess p;
        start(p, args);
        if (!p.waitForFinished(900000)) p.kill();
        p.waitForFinished();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QStringList local() const {
        return {"--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu", "--samples", "1"};
    }
    QString file(const QString& name) const { return home_.filePath(name); }
    QString write(const QString& name, const std::string& text) const {
        std::ofstream(file(name).toStdString(), std::ios::binary) << text;
        return file(name);
    }
    int journal_rows(const QString& path) const {
        std::ifstream in(path.toStdString());
        int n = 0;
        for (std::string l; std::getline(in, l);) ++n;
        return n - 1;
    }

    // `rows` tickets with ground truth, some quoted with a comma or a line break.
    QString labelled_csv(int rows = 12) const {
        std::string text = "id,body,expected_urgent,expected_team\r\n";
        const char* bodies[] = {
            "\"Production is down, nobody can log in\"", "How do I change my password?",
            "\"I was charged twice\nplease refund\"", "The export button crashes the app"};
        const char* urgent[] = {"yes", "no", "no", "yes"};
        const char* team[] = {"engineering", "support", "billing", "engineering"};
        for (int i = 0; i < rows; ++i)
            text += "t" + std::to_string(i) + "," + bodies[i % 4] + "," + urgent[i % 4] + "," +
                    team[i % 4] + "\r\n";
        return write(QString("tickets%1.csv").arg(rows), text);
    }

  private slots:
    void initTestCase() { QVERIFY(home_.isValid()); }

    void labelledCsv() {
        const QString data = labelled_csv();
        auto run = dgem(QStringList{"bench", "-t", kPolicy, "-d", data, "--map", "ticket=body",
                                    "-w", "2", "-o", file("out.csv")} +
                        local());
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("overall: "), qPrintable(run.out));
        QVERIFY(run.out.contains("rows 12, answered 12, failed 0"));
        QVERIFY(run.out.contains("layout document_first"));
        QVERIFY2(run.out.contains(" rows/s, 2 at a time) on local"), qPrintable(run.out));
        auto rows = csv_rows(slurp(file("out.csv")));
        QCOMPARE(rows.size(), size_t(13));
        const auto& h = rows[0];
        QCOMPARE(h[0], std::string("id"));
        QCOMPARE(h[1], std::string("body"));
        QCOMPARE(h[2], std::string("urgent"));
        const int team = column(h, "team"), want = column(h, "expected_team"),
                  ok = column(h, "team_correct"), p = column(h, "team_p");
        QVERIFY(team > 0 && want > 0 && ok > 0 && p > 0);
        int right = 0;
        for (size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i][0], "t" + std::to_string(i - 1));
            const bool same =
                rows[i][static_cast<size_t>(team)] == rows[i][static_cast<size_t>(want)];
            QCOMPARE(rows[i][static_cast<size_t>(ok)], std::string(same ? "yes" : "no"));
            right += same;
            const double prob = std::stod(rows[i][static_cast<size_t>(p)]);
            QVERIFY(prob >= 1.0 / 3 - 1e-6 && prob <= 1);
        }
        QCOMPARE(rows[3][1], std::string("I was charged twice\nplease refund"));
        QVERIFY(run.out.contains("team            12     "));
        // By default 8 rows at once on the local engine, their reads batched: the same answers,
        // the same file.
        auto batched = dgem(QStringList{"bench", "-t", kPolicy, "-d", data, "--map", "ticket=body",
                                        "-o", file("out8.csv")} +
                            local());
        QVERIFY2(batched.code == 0, qPrintable(batched.err));
        QVERIFY2(batched.out.contains(" rows/s, 8 at a time) on local"), qPrintable(batched.out));
        QCOMPARE(slurp(file("out8.csv")), slurp(file("out.csv")));
        // The same run's report.
        auto report = dgem(QStringList{"bench", "-t", kPolicy, "-d", data, "--map", "ticket=body",
                                       "-o", file("report.html")} +
                           local());
        QVERIFY2(report.code == 0, qPrintable(report.err));
        const std::string html = slurp(file("report.html"));
        for (const char* want_text : {"Accuracy per question", "Confusion: team",
                                      "Reliability: urgent", "Most uncertain answers"})
            QVERIFY2(html.find(want_text) != std::string::npos, want_text);
        Q_UNUSED(right);
    }

    void unlabelledJsonl() {
        const QString data = write("posts.jsonl",
                                   "{\"id\": \"p1\", \"ticket\": \"Refund my last invoice\"}\n"
                                   "{\"variables\": {\"ticket\": \"The app crashes on start\"}}\n"
                                   "{\"ticket\": \"Where is the settings page?\"}\n");
        auto run = dgem(QStringList{"bench", "-t", kPolicy, "-d", data, "-o",
                                    file("posts.out.jsonl"), "--json"} +
                        local());
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("team (3 answered):"), qPrintable(run.err));
        const auto summary = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(summary["rows"].get<int>(), 3);
        QCOMPARE(summary["labelled"].get<bool>(), false);
        int total = 0;
        for (const auto& [k, v] : summary["questions"][1]["distribution"].items())
            total += v.get<int>();
        QCOMPARE(total, 3);
        std::istringstream out(slurp(file("posts.out.jsonl")));
        std::vector<nlohmann::json> rows;
        for (std::string l; std::getline(out, l);) rows.push_back(nlohmann::json::parse(l));
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0]["id"].get<std::string>(), std::string("p1"));
        QVERIFY(rows[2]["team"].is_string());
        QVERIFY(!rows[0].contains("expected_team"));
    }

    // Killed with SIGKILL after some rows reached the journal, then resumed: the output is the
    // uninterrupted run's, byte for byte. (Rows take tens of milliseconds on the tiny model, so
    // the file is long enough to be killed part-way.)
    void killAndResume() {
        const int n = 400;
        const QString data = labelled_csv(n);
        const QStringList common =
            QStringList{"bench", "-t", kPolicy, "-d", data, "--map", "ticket=body", "-w", "1"} +
            local();
        auto whole = dgem(common + QStringList{"-o", file("whole.csv")});
        QVERIFY2(whole.code == 0, qPrintable(whole.err));

        const QString out = file("killed.csv");
        const QString journal = out + ".journal.jsonl";
        QProcess p;
        start(p, common + QStringList{"-o", out});
        QVERIFY(p.waitForStarted());
        QElapsedTimer waited;
        waited.start();
        while (journal_rows(journal) < 10 && p.state() == QProcess::Running &&
               waited.elapsed() < 600000)
            QTest::qWait(20);
        QVERIFY2(p.state() == QProcess::Running, "the run ended before it could be killed");
        p.kill();
        p.waitForFinished();
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        const int kept = journal_rows(journal);
        QVERIFY(kept >= 10 && kept < n);
        QVERIFY(!QFile::exists(out));  // no half output that looks whole

        auto resumed = dgem(common + QStringList{"-o", out, "--resume"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains(QString::number(kept) + " already in the journal"),
                 qPrintable(resumed.err));
        QCOMPARE(journal_rows(journal), n);
        QCOMPARE(slurp(out), slurp(file("whole.csv")));
    }

    // Stopped before any row runs, each message naming what was wrong.
    // The stage-2 cascade in a dataset run, with a real `dgem serve` as the judge: on_miss
    // escalates exactly the labelled answers stage 1 got wrong (the same run without a cascade
    // says which), entropy at 0 every answer; each row's columns say escalated or not, both
    // stages' answers and stage 2's latency. A judge that is not a URL is refused naming it.
    void cascadeInDataset() {
        const QString data = labelled_csv(8);
        const QStringList common =
            QStringList{"bench", "-t", kPolicy, "-d", data, "--map", "ticket=body"} + local();
        auto plain = dgem(common + QStringList{"-o", file("plain.csv")});
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        const auto stage1 = csv_rows(slurp(file("plain.csv")));
        QCOMPARE(stage1.size(), size_t(9));

        QProcess serve;
        const QString port = start_dgem_serve(serve, env());
        QVERIFY(!port.isEmpty());
        const QString judge = "http://127.0.0.1:" + port + "/v1";
        for (const char* mode : {"on_miss", "entropy"}) {
            const QString out = file(QString("cascade-%1.csv").arg(mode));
            auto run = dgem(common + QStringList{"-o", out, "--cascade-mode", mode,
                                                 "--cascade-threshold", "0", "--cascade-url", judge,
                                                 "--journal", out + ".journal"});
            QVERIFY2(run.code == 0, qPrintable(run.err));
            const auto rows = csv_rows(slurp(out));
            QCOMPARE(rows.size(), stage1.size());
            const auto& h = rows[0];
            int escalated = 0, missed = 0;
            for (const std::string q : {"urgent", "team"}) {
                const int esc = column(h, q + "_escalated"), s1 = column(h, q + "_stage1"),
                          s2 = column(h, q + "_stage2"), ms = column(h, q + "_stage2_ms"),
                          answer = column(stage1[0], q), want = column(stage1[0], "expected_" + q);
                QVERIFY(esc > 0 && s1 > 0 && s2 > 0 && ms > 0);
                for (size_t i = 1; i < rows.size(); ++i) {
                    const auto& was = stage1[i];
                    const bool miss = was[size_t(answer)] != was[size_t(want)];
                    const bool up = rows[i][size_t(esc)] == "yes";
                    QVERIFY2(up == (std::string(mode) == "entropy" || miss),
                             qPrintable(QString("%1 row %2 %3").arg(mode).arg(i).arg(q.c_str())));
                    // Stage 1's answer is the plain run's; stage 2 was asked and timed.
                    QCOMPARE(rows[i][size_t(s1)], was[size_t(answer)]);
                    QCOMPARE(rows[i][size_t(ms)].empty(), !up);
                    if (up && !rows[i][size_t(s2)].empty())
                        QCOMPARE(rows[i][size_t(column(h, q))], rows[i][size_t(s2)]);
                    escalated += up;
                    missed += miss;
                }
            }
            if (std::string(mode) == "on_miss") QCOMPARE(escalated, missed);
            if (std::string(mode) == "entropy") QCOMPARE(escalated, 2 * 8);
        }
        serve.terminate();
        serve.waitForFinished(30000);

        auto bad = dgem(common +
                        QStringList{"--cascade-mode", "entropy", "--cascade-url", "judge-profile"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("cascade_endpoint \"judge-profile\""), qPrintable(bad.err));
    }

    void badInput() {
        const QString data = labelled_csv();
        struct Case {
            QStringList args;
            QString want;
        } cases[] = {
            {{"-t", file("absent.json.tmpl"), "-d", data}, "absent.json.tmpl"},
            {{"-t", kPolicy, "-d", write("notes.txt", "a\n")}, "not a dataset file"},
            {{"-t", kPolicy, "-d", write("empty.csv", "")}, "empty.csv: empty"},
            {{"-t", kPolicy, "-d", write("empty.jsonl", "")}, "no data rows"},
            {{"-t", kPolicy, "-d", data, "--map", "ticket=text"}, "has no column \"text\""},
            {{"-t", kPolicy, "-d", data, "--map", "ticket"}, "accepted: VARIABLE=COLUMN"},
            {{"-t", kPolicy}, "-t POLICY needs -d DATA"},
        };
        for (const auto& c : cases) {
            auto run = dgem(QStringList{"bench"} + c.args + local() +
                            QStringList{"--journal", file("bad.journal.jsonl")});
            QVERIFY2(run.code != 0, qPrintable(c.want));
            QVERIFY2(run.err.contains(c.want), qPrintable(run.err));
            QVERIFY(!QFile::exists(file("bad.journal.jsonl")));
        }
    }
};

QTEST_MAIN(TestDatasetE2E)
#include "tst_dataset_e2e.moc"
