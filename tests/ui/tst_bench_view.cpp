// The Bench view on the real tiny model through the local engine: a JevBench run fills the
// item table and the charts with exactly the run's scored numbers, the run is kept and reopens
// with the same scores, a cancelled run resumes to one record per item with the same
// probabilities as an uninterrupted run, and a broken suite file is refused with its line.
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/endpoint_profiles.h"
#include "ui/bench/bench_items_model.h"
#include "ui/bench/bench_window.h"
#include "ui/theme.h"

namespace {

QString outDir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

core::EndpointProfileStore localStore() {
    core::EndpointProfileStore store;
    core::EndpointProfile p;
    p.name = "local";
    p.kind = core::EndpointKind::Local;
    p.model_dir = DS_TINY_MODEL_DIR;
    p.device = "cpu";
    store.profiles.push_back(p);
    store.active = "local";
    return store;
}

QAbstractSeries* seriesNamed(QChart* chart, const QString& name) {
    for (QAbstractSeries* s : chart->series())
        if (s->name() == name) return s;
    return nullptr;
}

QChart* chartTitled(const QList<QChart*>& charts, const QString& prefix) {
    for (QChart* c : charts)
        if (c->title().startsWith(prefix)) return c;
    return nullptr;
}

}  // namespace

class TestBenchView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ui::BenchWindowOptions options_;

    QString mixed_;  // 8 public items of each tier, easy, standard, hard (hard ones give ECE, so a
                     // composite)

    bool runToEnd(ui::BenchWindow& w) {
        QSignalSpy finished(&w, &ui::BenchWindow::runFinished);
        if (!w.run()) return false;
        return finished.wait(600000) && finished.first().first().toBool();
    }

  private Q_SLOTS:
    void initTestCase() {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath("settings"));
        options_.jevbench_dir = QStringLiteral(DS_SHARED_DIR "/data/jevbench");
        options_.suites_dir = QStringLiteral(DS_SOURCE_DIR "/resources/suites");
        options_.runs_dir = dir_.filePath("runs");
        if (!QFile::exists(options_.jevbench_dir + "/jevbench_public.jsonl"))
            QSKIP("no JevBench data in ../shared/data/jevbench");
        // A small suite across every tier, taken line for line from the public file.
        QFile src(options_.jevbench_dir + "/jevbench_public.jsonl");
        QVERIFY(src.open(QIODevice::ReadOnly));
        std::map<std::string, int> per_tier;
        mixed_ = dir_.filePath("jevbench_mixed.jsonl");
        QFile out(mixed_);
        QVERIFY(out.open(QIODevice::WriteOnly));
        while (!src.atEnd()) {
            const QByteArray line = src.readLine();
            const auto j = nlohmann::json::parse(line.toStdString(), nullptr, false);
            if (!j.is_object()) continue;
            if (per_tier[j.value("tier", std::string())]++ < 8) out.write(line);
        }
        out.close();
    }

    // A run's charts carry the run's numbers; the run is kept and reopens the same.
    void runShowsItsNumbers() {
        ui::BenchWindow w(options_);
        w.resize(1400, 900);
        w.setEndpoints(localStore());
        QVERIFY(w.selectSuite(mixed_));
        w.setWorkers(2);
        QVERIFY(runToEnd(w));
        QCOMPARE(w.records().size(), size_t(24));
        QCOMPARE(w.itemsModel()->rowCount(), 24);
        QVERIFY(w.runScore().has_value());
        const auto& score = *w.runScore();
        QCOMPARE(score.n, 24);
        QCOMPARE(score.by_tier.size(), size_t(3));
        QVERIFY(score.public_estimate.has_value());  // every axis present: on the leaderboard

        const QList<QChart*> charts = w.charts();
        QCOMPARE(charts.size(), 6);
        // Reliability: one point per non-empty bin, at (mean confidence, accuracy).
        QChart* rel = chartTitled(charts, "Reliability");
        QVERIFY(rel);
        auto* acc = qobject_cast<QLineSeries*>(seriesNamed(rel, "accuracy"));
        QVERIFY(acc);
        int k = 0, points = 0;
        for (const auto& bin : score.reliability_all.bins) {
            if (bin.n <= 0) continue;
            ++points;
            QVERIFY(k < acc->count());
            QCOMPARE(acc->at(k).x(), bin.confidence);
            QCOMPARE(acc->at(k).y(), bin.accuracy);
            ++k;
        }
        QCOMPARE(acc->count(), points);
        QVERIFY(points > 0);
        // Accuracy by tier: one bar per tier, in percent.
        QChart* tiers = chartTitled(charts, "Accuracy by tier");
        QVERIFY(tiers);
        auto* bars = qobject_cast<QBarSeries*>(tiers->series().first());
        QVERIFY(bars);
        QCOMPARE(bars->barSets().first()->count(), int(score.by_tier.size()));
        int i = 0;
        for (const auto& [key, g] : score.by_tier)
            QCOMPARE(bars->barSets().first()->at(i++), g.accuracy * 100.0);
        // The axes as the scorecard has them.
        QChart* axes = chartTitled(charts, "Scorecard axes");
        auto* axis_bars = qobject_cast<QBarSeries*>(axes->series().first());
        QCOMPARE(axis_bars->barSets().first()->at(0), score.public_axes.intelligence.value_or(0));
        QCOMPARE(axis_bars->barSets().first()->at(1), score.public_axes.calibration.value_or(0));
        QCOMPARE(axis_bars->barSets().first()->at(2), score.public_axes.speed.value_or(0));
        // The leaderboard: ten published rows and this run, highlighted in its own set.
        QChart* board = chartTitled(charts, "Leaderboard");
        QVERIFY(board);
        auto* stacked = qobject_cast<QHorizontalStackedBarSeries*>(board->series().first());
        QVERIFY(stacked);
        QCOMPARE(stacked->barSets().size(), 2);
        QBarSet* mine = stacked->barSets().at(1);
        QCOMPARE(mine->label(), QString("this run"));
        QCOMPARE(mine->sum(), *score.public_estimate);
        QCOMPARE(mine->count(), 11);  // ten published rows and this run

        // The item table sorts by number in the p column.
        QCOMPARE(w.itemsModel()
                     ->data(w.itemsModel()->index(0, ui::BenchItemsModel::Id), Qt::DisplayRole)
                     .toString()
                     .toStdString(),
                 w.records().front().id);

        // Double-clicking an item hands it to the editor as a policy: its schema and state.
        auto* table = w.findChild<QTableView*>(QStringLiteral("itemsTable"));
        QVERIFY(table);
        QSignalSpy open(&w, &ui::BenchWindow::openItemRequested);
        Q_EMIT table->doubleClicked(table->model()->index(0, 0));
        QCOMPARE(open.size(), 1);
        const auto policy = nlohmann::json::parse(open.first().at(1).toString().toStdString());
        QVERIFY(policy["schema"]["questions"].is_array());
        QCOMPARE(policy["schema"]["questions"].size(), size_t(1));
        const std::string shown =
            table->model()->index(0, 0).data().toString().toStdString();  // sorted view row 0
        QVERIFY2(open.first().at(0).toString().contains(QString::fromStdString(shown)),
                 qPrintable(open.first().at(0).toString()));

        // Kept, and reopened in another window with the same scores.
        const QStringList kept = w.keptRuns();
        QCOMPARE(kept.size(), 1);
        ui::BenchWindow again(options_);
        again.setEndpoints(localStore());
        QVERIFY(again.openRun(kept.first()));
        QVERIFY(again.runScore().has_value());
        QCOMPARE(again.runScore()->correct, score.correct);
        QCOMPARE(again.runScore()->public_estimate.has_value(), score.public_estimate.has_value());
        if (score.public_estimate)
            QCOMPARE(*again.runScore()->public_estimate, *score.public_estimate);
        QCOMPARE(again.charts().size(), 6);

        // Pictures of the view with its charts, light and dark (tall enough for every chart).
        w.resize(1500, 1700);
        w.show();
        for (bool dark : {false, true}) {
            ui::applyTheme(*qApp, dark);
            QVERIFY(w.openRun(kept.first()));  // charts rebuilt in the palette
            QApplication::processEvents();
            const QImage image = w.grab().toImage();
            const QString path =
                outDir() + (dark ? "/bench-view-dark.png" : "/bench-view-light.png");
            QVERIFY(image.save(path));
            qInfo("saved %s", qPrintable(path));
        }
        ui::applyTheme(*qApp, false);
    }

    // Cancel mid-way, then Resume: one record per item, the same probabilities as a full run.
    void cancelAndResume() {
        QTemporaryDir runs;
        ui::BenchWindowOptions o = options_;
        o.runs_dir = runs.path();
        ui::BenchWindow w(o);
        w.setEndpoints(localStore());
        QVERIFY(w.selectSuite(o.jevbench_dir + "/jevbench_public.jsonl"));
        w.setWorkers(1);
        w.setLimit(16);
        QSignalSpy finished(&w, &ui::BenchWindow::runFinished);
        QVERIFY(w.run());
        QTRY_VERIFY_WITH_TIMEOUT(w.records().size() >= 3, 300000);
        w.cancel();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().first().toBool(), false);
        const size_t partial = w.records().size();
        QVERIFY(partial < 16);
        const QString dir = w.runDir();
        QVERIFY(w.resume(dir));
        QVERIFY(finished.wait(600000));
        QCOMPARE(w.records().size(), size_t(16));
        std::set<std::string> ids;
        for (const auto& r : w.records()) ids.insert(r.id);
        QCOMPARE(ids.size(), size_t(16));

        // An uninterrupted run of the same items gives the same per-item probabilities.
        ui::BenchWindow full(o);
        full.setEndpoints(localStore());
        QVERIFY(full.selectSuite(o.jevbench_dir + "/jevbench_public.jsonl"));
        full.setLimit(16);
        full.setWorkers(2);
        QVERIFY(runToEnd(full));
        std::map<std::string, std::vector<double>> a, b;
        for (const auto& r : w.records()) a[r.id] = r.questions.at(0).probs;
        for (const auto& r : full.records()) b[r.id] = r.questions.at(0).probs;
        QCOMPARE(a, b);
    }

    void brokenSuiteNamesTheLine() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("broken.jsonl");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QFile src(options_.jevbench_dir + "/jevbench_public.jsonl");
        QVERIFY(src.open(QIODevice::ReadOnly));
        f.write(src.readLine());
        f.write("{not json\n");
        f.close();
        ui::BenchWindow w(options_);
        QVERIFY(!w.selectSuite(path));
        QVERIFY2(w.statusText().contains("broken.jsonl") && w.statusText().contains(":2"),
                 qPrintable(w.statusText()));
    }
};

QTEST_MAIN(TestBenchView)
#include "tst_bench_view.moc"
