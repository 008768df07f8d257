// The Data view offscreen: open a policy and a CSV file, map a column, run on a deterministic
// backend, watch the rows fill the table, filter (wrong, uncertain, one answer), sort, export
// rows and a report, reopen the kept run, and a picture of it (build/screenshots/data-view.png).
#include <QDir>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

#include "core/decide/backend.h"
#include "ui/charts/chart_widget.h"
#include "ui/data/data_rows_model.h"
#include "ui/data/data_window.h"

namespace {

// "outage" in the state picks the first answer strongly (hesitation 0.2), else the last (0.7).
class RowBackend final : public core::Backend {
  public:
    std::string describe() const override { return "row-fake"; }
    core::Result<core::Decision> decide(const core::DecideRequest& r, const core::ProgressFn&,
                                        const core::CancelToken&) override {
        const bool first = r.state.dump().find("outage") != std::string::npos;
        core::Decision d;
        for (const auto& q : r.schema.questions) {
            core::QuestionOutcome o;
            o.id = q.id;
            o.labels = q.labels();
            o.alternatives = q.alternatives();
            const size_t n = o.labels.size();
            o.mean.assign(n, 0.2 / static_cast<double>(n - 1));
            o.mean[first ? 0 : n - 1] = 0.8;
            o.hesitation = first ? 0.2 : 0.7;
            d.questions.push_back(o);
        }
        return d;
    }
    core::Result<core::Generation> generate(const core::GenerateRequest&, const core::ProgressFn&,
                                            const core::CancelToken&) override {
        return engine::bad_input("not asked");
    }
    core::Result<core::HealthInfo> health(const core::CancelToken&) override {
        return core::HealthInfo{};
    }
};

QString screenshotDir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

}  // namespace

class TestDataView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write(const QString& name, const std::string& text) {
        std::ofstream(dir_.filePath(name).toStdString(), std::ios::binary) << text;
        return dir_.filePath(name);
    }

  private Q_SLOTS:
    void openMapRunFilterExport() {
        QVERIFY(dir_.isValid());
        const QString policy =
            QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");
        std::string csv = "id,body,expected_urgent,expected_team\n";
        for (int i = 0; i < 30; ++i)
            csv += "r" + std::to_string(i) + "," + (i % 3 ? "\"a question, really\"" : "outage") +
                   "," + (i % 2 ? "yes" : "no") + "," + (i % 5 ? "billing" : "engineering") + "\n";
        const QString data = write("tickets.csv", csv);

        ui::DataWindow w(dir_.filePath("runs"));
        w.resize(1300, 900);
        QVERIFY(w.openPolicy(policy));
        // No column is called ticket: the policy's default would feed every row, so map it.
        QVERIFY(w.openData(data));
        QVERIFY(!w.plan());  // nothing feeds the ticket yet
        QVERIFY2(w.statusText().contains("no column matches a variable"),
                 qPrintable(w.statusText()));
        QVERIFY(w.setMapping("ticket", "body"));
        QCOMPARE(w.plan()->sources.at("ticket"), std::string("body"));
        QVERIFY(!w.setMapping("ticket", "nobody"));
        QVERIFY(w.statusText().contains("has no column \"nobody\""));
        QVERIFY(w.setMapping("ticket", "body"));

        w.setBackend(std::make_shared<RowBackend>());
        QSignalSpy finished(&w, &ui::DataWindow::runFinished);
        QVERIFY(w.run());
        QVERIFY(w.waitForIdle(60000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QCOMPARE(w.model()->rowCount(), 30);
        QVERIFY(w.summary().has_value());
        QCOMPARE(w.summary()->rows, size_t(30));
        QVERIFY(w.statusText().contains("accuracy"));

        // Filters: urgent is yes for "outage" rows (0, 3, ..., 27) and no otherwise; wrong when
        // it differs from expected_urgent (yes on odd rows) or team from expected_team.
        int wrong = 0, uncertain = 0, billing = 0;
        for (int i = 0; i < 30; ++i) {
            const bool outage = i % 3 == 0;
            const bool urgent_ok = outage == (i % 2 == 1);
            const bool team_ok = (outage ? "billing" : "engineering") ==
                                 std::string(i % 5 ? "billing" : "engineering");
            wrong += !(urgent_ok && team_ok);
            uncertain += !outage;
            billing += outage;
        }
        w.filter()->setShow(ui::DataRowsFilter::Show::Wrong);
        QCOMPARE(w.filter()->rowCount(), wrong);
        w.filter()->setShow(ui::DataRowsFilter::Show::Uncertain);
        QCOMPARE(w.filter()->rowCount(), uncertain);
        w.filter()->setShow(ui::DataRowsFilter::Show::Answer, 1, "billing");
        QCOMPARE(w.filter()->rowCount(), billing);
        w.filter()->setShow(ui::DataRowsFilter::Show::All);

        // A confusion cell clicked: the rows expecting its row's name that answered its
        // column's, as many as the cell counts; clicking it again shows every row.
        const auto& tallies = w.summary()->questions;
        const auto team = std::find_if(tallies.begin(), tallies.end(),
                                       [](const auto& q) { return q.id == "team"; });
        QVERIFY(team != tallies.end() && team->labelled);
        auto* matrix = w.findChild<QTableWidget*>(QStringLiteral("confusion_team"));
        QVERIFY(matrix);
        int cells = 0;
        for (int i = 0; i < matrix->rowCount(); ++i)
            for (int j = 0; j < matrix->columnCount(); ++j) {
                const int count = team->confusion[static_cast<size_t>(i)][static_cast<size_t>(j)];
                if (count == 0) continue;
                ++cells;
                Q_EMIT matrix->cellClicked(i, j);
                QCOMPARE(w.filter()->show(), ui::DataRowsFilter::Show::Rows);
                QCOMPARE(w.filter()->rowCount(), count);
                QCOMPARE(w.tabs()->currentIndex(), 1);  // the Rows tab
                Q_EMIT matrix->cellClicked(i, j);
                QCOMPARE(w.filter()->rowCount(), 30);
            }
        QVERIFY(cells >= 2);
        // A reliability bin chosen: as many rows as the bin counts; Esc shows every row.
        ui::ChartWidget* reliability = nullptr;
        for (auto* c : w.findChildren<ui::ChartWidget*>())
            if (c->chart().title.starts_with("Reliability: team")) reliability = c;
        QVERIFY(reliability);
        int fullest = 0;
        const auto& bins = reliability->chart().bins;
        for (size_t b = 0; b < bins.size(); ++b)
            if (bins[b].count > bins[static_cast<size_t>(fullest)].count)
                fullest = static_cast<int>(b);
        QVERIFY(bins[static_cast<size_t>(fullest)].count > 0);
        QCOMPARE(static_cast<int>(bins[static_cast<size_t>(fullest)].items.size()),
                 bins[static_cast<size_t>(fullest)].count);
        reliability->chooseBin(fullest);
        QCOMPARE(w.filter()->rowCount(), bins[static_cast<size_t>(fullest)].count);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.table()->setFocus();
        QTest::keyClick(w.table(), Qt::Key_Escape);
        QCOMPARE(w.filter()->rowCount(), 30);
        QCOMPARE(reliability->chosenBin(), -1);
        w.hide();

        // Sorted by hesitation (the raw numbers), most hesitant first.
        const int hes = w.model()->columnCount() - 2;
        w.table()->sortByColumn(hes, Qt::DescendingOrder);
        QCOMPARE(w.filter()->index(0, hes).data(Qt::UserRole).toDouble(), 0.7);
        QCOMPARE(w.filter()->index(29, hes).data(Qt::UserRole).toDouble(), 0.2);

        // Double-click: the row's variables to the editor.
        QSignalSpy open(&w, &ui::DataWindow::openRowRequested);
        Q_EMIT w.table()->doubleClicked(w.filter()->index(0, 0));
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), policy);
        const auto vars = nlohmann::json::parse(open.at(0).at(1).toString().toStdString());
        QVERIFY(vars["ticket"].is_string());  // by the policy's name, not the column's
        QVERIFY(!vars.contains("body"));

        QVERIFY(w.exportTo(dir_.filePath("rows.csv")));
        QVERIFY(w.exportTo(dir_.filePath("rows.jsonl")));
        QVERIFY(w.exportTo(dir_.filePath("report.html")));
        std::ifstream rows(dir_.filePath("rows.csv").toStdString());
        int lines = 0;
        for (std::string l; std::getline(rows, l);) ++lines;
        QCOMPARE(lines, 31);
        std::ifstream html(dir_.filePath("report.html").toStdString());
        std::stringstream ss;
        ss << html.rdbuf();
        QVERIFY(ss.str().find("Confusion: team") != std::string::npos);
        const char* pages[] = {"/data-view.png", "/data-view-rows.png", "/data-view-questions.png"};
        for (int page = 0; page < 3; ++page) {
            w.tabs()->setCurrentIndex(page);
            QVERIFY(w.grab().toImage().save(screenshotDir() + pages[page]));
        }
        QVERIFY(!w.exportTo(dir_.filePath("rows.txt")));
        QVERIFY(w.statusText().contains("rows.txt"));

        // The run is kept and reopens with its rows and summary.
        const QStringList kept = w.keptRuns();
        QCOMPARE(kept.size(), 1);
        ui::DataWindow again(dir_.filePath("runs"));
        QVERIFY(again.openRun(kept[0]));
        QCOMPARE(again.model()->rowCount(), 30);
        QVERIFY(again.summary().has_value());
        QCOMPARE(again.summary()->correct(), w.summary()->correct());
    }
};

QTEST_MAIN(TestDataView)
#include "tst_data_view.moc"
