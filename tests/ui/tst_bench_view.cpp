// The Bench view on the real tiny model through the local engine (the pictured run on the default
// model, the demo model where it is built: it knows nothing of JevBench, and its score says so):
// a JevBench run fills the
// item table and the charts with exactly the run's scored numbers (the chart values of the run's
// report, shown as the Qt Charts chart the report paints), the run is kept and reopens
// with the same scores, a cancelled run resumes to one record per item with the same
// probabilities as an uninterrupted run, and a broken suite file is refused with its line.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/endpoints/endpoint_profiles.h"
#include "core/reports/report.h"
#include "ui/bench/bench_items_model.h"
#include "ui/bench/bench_window.h"
#include "ui/charts/chart_widget.h"
#include "ui/theme.h"

#include "ui_test_support.h"

namespace {

using namespace ui_test;

QString outDir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

// Every chart shown is in the report, under the same title, and paints the same SVG.
bool sameAsReport(const std::vector<ReportChart>& shown, const core::report::Report& report) {
    for (const auto& c : shown) {
        const ReportChart* in_report = nullptr;
        for (const auto& section : report.sections)
            for (const auto& r : section.charts)
                if (r.title == c.title) in_report = &r;
        if (!in_report) {
            qWarning("not in the report: %s", c.title.c_str());
            return false;
        }
        if (core::report::chart_svg(c, 640, 300) != core::report::chart_svg(*in_report, 640, 300)) {
            qWarning("not the report's chart: %s", c.title.c_str());
            return false;
        }
    }
    return true;
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
        w.setEndpoints(localStore(DS_DEFAULT_MODEL_DIR));
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

        const std::vector<ReportChart> charts = w.charts();
        QCOMPARE(charts.size(), size_t(7));
        // The stage-2 escalation curve (issue 39): from nothing escalated to every question.
        const ReportChart* escalation = chartTitled(charts, "Escalation curve");
        QVERIFY(escalation);
        const auto* curve = seriesNamed(*escalation, "accuracy");
        QVERIFY(curve && curve->points.size() >= 2);
        QCOMPARE(curve->points.front().first, 0.0);
        QCOMPARE(curve->points.back().first, 100.0);
        // Calibrate… (issue 39): the run's labelled questions, one per question of every
        // record; the button asks the Studio to fit them.
        const auto labelled = w.calibrationItems();
        QVERIFY(labelled.size() >= size_t(24));
        auto* calibrate = w.findChild<QPushButton*>(QStringLiteral("calibrateButton"));
        QVERIFY(calibrate && calibrate->isEnabled());
        QSignalSpy calibrate_asked(&w, &ui::BenchWindow::calibrateRequested);
        calibrate->click();
        QCOMPARE(calibrate_asked.count(), 1);
        // Reliability: one point per non-empty bin, at (mean confidence, accuracy).
        const ReportChart* rel = chartTitled(charts, "Reliability");
        QVERIFY(rel);
        QCOMPARE(rel->kind, ReportChart::Kind::Xy);
        const auto* acc = seriesNamed(*rel, "accuracy");
        QVERIFY(acc);
        size_t k = 0, points = 0;
        for (const auto& bin : score.reliability_all.bins) {
            if (bin.n <= 0) continue;
            ++points;
            QVERIFY(k < acc->points.size());
            QCOMPARE(acc->points[k].first, bin.confidence);
            QCOMPARE(acc->points[k].second, bin.accuracy);
            QCOMPARE(acc->point_labels.at(k), "n=" + std::to_string(bin.n));
            ++k;
        }
        QCOMPARE(acc->points.size(), points);
        QVERIFY(points > 0);
        // Accuracy by tier: one bar per tier, in percent.
        const ReportChart* tiers = chartTitled(charts, "Accuracy by tier");
        QVERIFY(tiers);
        QCOMPARE(tiers->kind, ReportChart::Kind::Category);
        QCOMPARE(tiers->sets.size(), size_t(1));
        QCOMPARE(tiers->categories.size(), score.by_tier.size());
        QCOMPARE(tiers->sets.front().values.size(), score.by_tier.size());
        size_t i = 0;
        for (const auto& [key, g] : score.by_tier) {
            QVERIFY(tiers->categories[i].starts_with(key + " ("));
            QCOMPARE(tiers->sets.front().values[i++], g.accuracy * 100.0);
        }
        // The axes as the scorecard has them.
        const ReportChart* axes = chartTitled(charts, "Scorecard axes");
        QVERIFY(axes);
        QCOMPARE(axes->sets.size(), size_t(1));
        const auto& axis_values = axes->sets.front().values;
        QCOMPARE(axis_values.size(), size_t(4));
        QCOMPARE(axis_values[0], score.public_axes.intelligence.value_or(0));
        QCOMPARE(axis_values[1], score.public_axes.calibration.value_or(0));
        QCOMPARE(axis_values[2], score.public_axes.speed.value_or(0));
        // The leaderboard: ten published rows and this run, best first, this run highlighted.
        const ReportChart* board = chartTitled(charts, "Leaderboard");
        QVERIFY(board);
        QVERIFY(board->horizontal);
        const auto* scores = setNamed(*board, "score");
        QVERIFY(scores);
        QCOMPARE(scores->values.size(), size_t(11));  // ten published rows and this run
        QCOMPARE(board->categories.size(), size_t(11));
        QVERIFY(std::is_sorted(scores->values.rbegin(), scores->values.rend()));
        QCOMPARE(board->highlighted.size(), size_t(1));
        const auto mine = static_cast<size_t>(board->highlighted.front());
        QCOMPARE(board->categories.at(mine), std::string("THIS RUN (estimate)"));
        QCOMPARE(scores->values.at(mine), *score.public_estimate);

        // The very charts of this run's report: each one paints the same SVG.
        const auto report = w.benchReport();
        QVERIFY(report.has_value());
        QVERIFY(sameAsReport(charts, *report));
        // Shown by one ChartWidget each, holding that value (tooltip: its title).
        const QList<ui::ChartWidget*> widgets = w.findChildren<ui::ChartWidget*>();
        QCOMPARE(widgets.size(), 7);
        for (const ui::ChartWidget* widget : widgets) {
            const ReportChart* shown = chartTitled(charts, widget->chart().title);
            QVERIFY(shown);
            QCOMPARE(core::report::chart_svg(widget->chart(), 640, 300),
                     core::report::chart_svg(*shown, 640, 300));
            QCOMPARE(widget->toolTip().toStdString(), widget->chart().title);
        }

        // A chart's bin chosen (as a click does): the Items page shows exactly its items, taken
        // from the rows themselves (confidence bin, tier); choosing it again shows all again.
        auto* items_table = w.findChild<QTableView*>(QStringLiteral("itemsTable"));
        QVERIFY(items_table);
        const auto shownIds = [&] {
            std::set<std::string> ids;
            for (int r = 0; r < items_table->model()->rowCount(); ++r)
                ids.insert(items_table->model()
                               ->index(r, ui::BenchItemsModel::Id)
                               .data()
                               .toString()
                               .toStdString());
            return ids;
        };
        const auto rowsWhere = [&](auto keep) {
            std::set<std::string> ids;
            for (int r = 0; r < w.itemsModel()->rowCount(); ++r) {
                const auto* row = w.itemsModel()->row(r);
                if (row && keep(*row)) ids.insert(row->id);
            }
            return ids;
        };
        int chosen_bins = 0;
        for (ui::ChartWidget* widget : widgets) {
            const std::string& title = widget->chart().title;
            const bool reliability_chart = title.starts_with("Reliability");
            const bool tier_chart = title.starts_with("Accuracy by tier");
            if (!reliability_chart && !tier_chart) continue;
            const auto& bins = widget->chart().bins;
            for (size_t b = 0; b < bins.size(); ++b) {
                if (bins[b].items.empty()) continue;
                widget->chooseBin(static_cast<int>(b));
                const std::set<std::string> expected =
                    reliability_chart ? rowsWhere([&](const core::eval::ItemRow& row) {
                        return row.p >= 0 && std::clamp(static_cast<int>(std::floor(10 * row.p)), 0,
                                                        9) == static_cast<int>(b);
                    })
                                      : rowsWhere([&](const core::eval::ItemRow& row) {
                                            return row.tier == bins[b].label;
                                        });
                QCOMPARE(shownIds(), expected);
                QCOMPARE(static_cast<int>(expected.size()), bins[b].count);
                widget->chooseBin(static_cast<int>(b));  // again: all
                QCOMPARE(items_table->model()->rowCount(), 24);
                ++chosen_bins;
            }
        }
        QVERIFY(chosen_bins >= 4);  // three tiers and at least one reliability bin

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
        again.setEndpoints(localStore(DS_DEFAULT_MODEL_DIR));
        QVERIFY(again.openRun(kept.first()));
        QVERIFY(again.runScore().has_value());
        QCOMPARE(again.runScore()->correct, score.correct);
        QCOMPARE(again.runScore()->public_estimate.has_value(), score.public_estimate.has_value());
        if (score.public_estimate)
            QCOMPARE(*again.runScore()->public_estimate, *score.public_estimate);
        QCOMPARE(again.charts().size(), size_t(7));
        for (size_t c = 0; c < charts.size(); ++c)
            QCOMPARE(again.charts()[c].title, charts[c].title);

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
        // No chart lies on another (the wide leaderboard has a row of its own).
        const QList<ui::ChartWidget*> placed = w.findChildren<ui::ChartWidget*>();
        for (const ui::ChartWidget* a : placed)
            for (const ui::ChartWidget* b : placed)
                QVERIFY2(a == b || !QRect(a->mapTo(&w, QPoint()), a->size())
                                        .intersects(QRect(b->mapTo(&w, QPoint()), b->size())),
                         (a->chart().title + " overlaps " + b->chart().title).c_str());
        ui::applyTheme(*qApp, false);
    }

    // Cancel mid-way, then Resume: one record per item, the same probabilities as a full run.
    // The one worker waits after its third item until Cancel is pressed, so the cancel lands
    // after exactly three items however fast the engine is (cancelling once the view showed three
    // records raced the worker, which could finish all sixteen first).
    void cancelAndResume() {
        QTemporaryDir runs;
        ui::BenchWindowOptions o = options_;
        o.runs_dir = runs.path();
        std::atomic<bool> at_third{false}, fired{false};
        QSemaphore cancel_pressed;
        o.after_item = [&](size_t done) {
            if (done == 3 && !fired.exchange(true)) {
                at_third.store(true);
                cancel_pressed.acquire();
            }
        };
        ui::BenchWindow w(o);
        w.setEndpoints(localStore());
        QVERIFY(w.selectSuite(o.jevbench_dir + "/jevbench_public.jsonl"));
        w.setWorkers(1);
        w.setLimit(16);
        QSignalSpy finished(&w, &ui::BenchWindow::runFinished);
        QVERIFY(w.run());
        QTRY_VERIFY_WITH_TIMEOUT(at_third.load(), 300000);
        w.cancel();
        cancel_pressed.release();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().first().toBool(), false);
        const size_t partial = w.records().size();
        QCOMPARE(partial, size_t(3));
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
