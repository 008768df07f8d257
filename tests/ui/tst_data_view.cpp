// The Data view offscreen on the real tiny model (build/models/tiny, the real loader): open a
// policy and a CSV file, map a column, run, watch the rows fill the table with the output
// file's columns (input columns first), check the table against the exported file cell by cell,
// filter (wrong, uncertain, one answer) to exactly the rows whose values satisfy the filter,
// sort, export rows and a report, reopen the kept run, and pictures of it
// (build/screenshots/data-view*.png).
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/dataset/csv_reader.h"
#include "core/dataset/dataset_results.h"
#include "core/decide/backend.h"
#include "core/decide/local_backend.h"
#include "engine/engine.h"
#include "ui/charts/chart_widget.h"
#include "ui/data/data_rows_model.h"
#include "ui/data/data_window.h"

namespace {

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    core::dataset::CsvReader reader(in);
    std::vector<std::vector<std::string>> rows;
    core::dataset::CsvRecord r;
    while (reader.next(r)) rows.push_back(r.fields);
    return rows;
}

int column(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

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
    std::shared_ptr<core::Backend> tiny_;

    QString write(const QString& name, const std::string& text) {
        std::ofstream(dir_.filePath(name).toStdString(), std::ios::binary) << text;
        return dir_.filePath(name);
    }

    // The table (in row order) shows the exported file's cells: strings as written, numbers
    // to 1e-6 (the file rounds to 6 decimals), right/wrong as yes/no, no value as an empty cell.
    void checkTableAgainstFile(const ui::DataRowsModel& model,
                               const std::vector<std::vector<std::string>>& file) {
        QCOMPARE(static_cast<int>(file.size()), model.rowCount() + 1);
        QCOMPARE(static_cast<int>(file[0].size()), model.columnCount() - 1);
        for (int r = 0; r < model.rowCount(); ++r) {
            QCOMPARE(model.index(r, 0).data(Qt::UserRole).toInt(), r + 1);
            for (int c = 1; c < model.columnCount(); ++c) {
                const std::string& want =
                    file[static_cast<size_t>(r + 1)][static_cast<size_t>(c - 1)];
                const QVariant got = model.index(r, c).data(Qt::UserRole);
                const QString where =
                    QStringLiteral("row %1 column %2: %3 vs %4")
                        .arg(r + 1)
                        .arg(qPrintable(
                            model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()))
                        .arg(got.toString(), QString::fromStdString(want));
                if (!got.isValid())
                    QVERIFY2(want.empty(), qPrintable(where));
                else if (got.typeId() == QMetaType::Double)
                    QVERIFY2(std::abs(got.toDouble() - std::stod(want)) <= 1e-6, qPrintable(where));
                else if (file[0][static_cast<size_t>(c - 1)].ends_with("_correct"))
                    QVERIFY2(want == (got.toInt() ? "yes" : "no"), qPrintable(where));
                else
                    QVERIFY2(got.toString().toStdString() == want, qPrintable(where));
            }
        }
    }

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (!std::filesystem::exists(std::filesystem::path(DS_TINY_MODEL_DIR) / "config.json"))
            QFAIL("no tiny model at " DS_TINY_MODEL_DIR " (build the tiny_model target)");
        engine::EngineOptions options;
        options.model_dir = DS_TINY_MODEL_DIR;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        auto opened = core::LocalBackend::open(options);
        QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
        tiny_ = std::move(*opened);
    }

    void openMapRunFilterExport() {
        const QString policy =
            QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");
        std::string csv = "id,body,expected_urgent,expected_team\n";
        std::vector<std::string> bodies;
        for (int i = 0; i < 30; ++i) {
            bodies.push_back(i % 3 ? "a question, really (" + std::to_string(i) + ")"
                                   : "outage " + std::to_string(i));
            csv += "r" + std::to_string(i) + ",\"" + bodies.back() + "\"," +
                   (i % 2 ? "yes" : "no") + "," + (i % 5 ? "billing" : "engineering") + "\n";
        }
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

        // The table's columns: the row number, then the output file's (input columns first).
        ui::DataRowsModel* model = w.model();
        const auto columns = core::dataset::output_columns(*w.plan());
        QCOMPARE(model->columnCount(), static_cast<int>(columns.size()) + 1);
        QCOMPARE(model->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("row"));
        for (size_t c = 0; c < columns.size(); ++c)
            QCOMPARE(model->headerData(static_cast<int>(c) + 1, Qt::Horizontal, Qt::DisplayRole)
                         .toString()
                         .toStdString(),
                     columns[c]);
        QCOMPARE(model->columnOf("id"), 1);
        QCOMPARE(model->columnOf("body"), 2);
        QCOMPARE(model->columnOf("urgent"), 3);
        QVERIFY(model->columnOf("team_correct") > model->columnOf("expected_team"));
        QCOMPARE(model->columnOf("error"), model->columnCount() - 1);

        w.setBackend(tiny_);
        QSignalSpy finished(&w, &ui::DataWindow::runFinished);
        QVERIFY(w.run());
        QVERIFY(w.waitForIdle(120000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QCOMPARE(model->rowCount(), 30);
        QVERIFY(w.summary().has_value());
        QCOMPARE(w.summary()->rows, size_t(30));
        QCOMPARE(w.summary()->failed, size_t(0));
        QVERIFY(w.statusText().contains("accuracy"));
        for (int r = 0; r < 30; ++r) {  // the input columns hold the row's input
            QCOMPARE(model->index(r, 1).data().toString().toStdString(), "r" + std::to_string(r));
            QCOMPARE(model->index(r, 2).data().toString().toStdString(), bodies[r]);
        }

        QVERIFY(w.exportTo(dir_.filePath("rows.csv")));
        QVERIFY(w.exportTo(dir_.filePath("rows.jsonl")));
        QVERIFY(w.exportTo(dir_.filePath("report.html")));
        const auto file = read_csv(dir_.filePath("rows.csv").toStdString());
        checkTableAgainstFile(*model, file);
        const auto& header = file[0];

        // Filters: exactly the rows whose values (as the exported file has them) satisfy them.
        int wrong = 0, billing = 0, uncertain = 0;
        std::vector<double> most_hesitant;
        for (size_t i = 1; i < file.size(); ++i) {
            const auto& row = file[i];
            wrong += row[column(header, "urgent_correct")] == "no" ||
                     row[column(header, "team_correct")] == "no";
            billing += row[column(header, "team")] == "billing";
            double h = 0;
            for (const char* q : {"urgent", "team", "sentiment"})
                h = std::max(h, std::stod(row[column(header, std::string(q) + "_hesitation")]));
            most_hesitant.push_back(h);
        }
        // Uncertain above the median: the filter splits the rows, whatever the model answers.
        std::vector<double> sorted = most_hesitant;
        std::sort(sorted.begin(), sorted.end());
        const double threshold = sorted[sorted.size() / 2];
        for (double h : most_hesitant) uncertain += h > threshold;
        w.filter()->setShow(ui::DataRowsFilter::Show::Wrong);
        QCOMPARE(w.filter()->rowCount(), wrong);
        w.filter()->setUncertainAbove(threshold);
        w.filter()->setShow(ui::DataRowsFilter::Show::Uncertain);
        QCOMPARE(w.filter()->rowCount(), uncertain);
        const int team = model->columnOf("team");
        w.filter()->setShow(ui::DataRowsFilter::Show::Answer, 1, "billing");
        QCOMPARE(w.filter()->rowCount(), billing);
        for (int r = 0; r < w.filter()->rowCount(); ++r)
            QCOMPARE(w.filter()->index(r, team).data().toString(), QStringLiteral("billing"));
        // The answer the first row gave to team: at least that row.
        const QString first = model->index(0, team).data().toString();
        w.filter()->setShow(ui::DataRowsFilter::Show::Answer, 1, first);
        QVERIFY(w.filter()->rowCount() >= 1);
        QCOMPARE(w.filter()->rowCount(),
                 static_cast<int>(std::count_if(file.begin() + 1, file.end(), [&](const auto& row) {
                     return row[column(header, "team")] == first.toStdString();
                 })));
        w.filter()->setShow(ui::DataRowsFilter::Show::All);
        QCOMPARE(w.filter()->rowCount(), 30);

        // A confusion cell clicked: the rows expecting its row's name that answered its
        // column's, as many as the cell counts; clicking it again shows every row.
        const auto& tallies = w.summary()->questions;
        const auto team_tally = std::find_if(tallies.begin(), tallies.end(),
                                             [](const auto& q) { return q.id == "team"; });
        QVERIFY(team_tally != tallies.end() && team_tally->labelled);
        auto* matrix = w.findChild<QTableWidget*>(QStringLiteral("confusion_team"));
        QVERIFY(matrix);
        int cells = 0;
        for (int i = 0; i < matrix->rowCount(); ++i)
            for (int j = 0; j < matrix->columnCount(); ++j) {
                const int count =
                    team_tally->confusion[static_cast<size_t>(i)][static_cast<size_t>(j)];
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
        // Calibrate… (issue 39): the run's labelled questions read back from its journal, as
        // many of team as its confusion matrix counts.
        QVERIFY(w.calibrateButton()->isEnabled());
        auto labelled = w.calibrationInput(nullptr);
        QVERIFY2(labelled, labelled ? "" : labelled.error().message.c_str());
        int confusion_total = 0;
        for (const auto& row : team_tally->confusion)
            for (int count : row) confusion_total += count;
        QCOMPARE(
            static_cast<int>(std::count_if(labelled->items.begin(), labelled->items.end(),
                                           [](const auto& c) { return c.question == "team"; })),
            confusion_total);
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

        // Sorted by urgent's hesitation (the raw numbers), most hesitant first.
        const int hes = model->columnOf("urgent_hesitation");
        double top = 0, bottom = 1;
        for (size_t i = 1; i < file.size(); ++i) {
            const double h = std::stod(file[i][column(header, "urgent_hesitation")]);
            top = std::max(top, h);
            bottom = std::min(bottom, h);
        }
        w.table()->sortByColumn(hes, Qt::DescendingOrder);
        QVERIFY(std::abs(w.filter()->index(0, hes).data(Qt::UserRole).toDouble() - top) <= 1e-6);
        QVERIFY(std::abs(w.filter()->index(29, hes).data(Qt::UserRole).toDouble() - bottom) <=
                1e-6);

        // Double-click: the row's variables to the editor.
        QSignalSpy open(&w, &ui::DataWindow::openRowRequested);
        Q_EMIT w.table()->doubleClicked(w.filter()->index(0, 0));
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), policy);
        const auto vars = nlohmann::json::parse(open.at(0).at(1).toString().toStdString());
        QVERIFY(vars["ticket"].is_string());  // by the policy's name, not the column's
        QVERIFY(!vars.contains("body"));
        const int clicked = w.filter()->mapToSource(w.filter()->index(0, 0)).row();
        QCOMPARE(vars["ticket"].get<std::string>(), bodies[static_cast<size_t>(clicked)]);

        std::ifstream html(dir_.filePath("report.html").toStdString());
        std::stringstream ss;
        ss << html.rdbuf();
        QVERIFY(ss.str().find("Confusion: team") != std::string::npos);
        w.table()->sortByColumn(0, Qt::AscendingOrder);
        const char* pages[] = {"/data-view.png", "/data-view-rows.png", "/data-view-questions.png"};
        for (int page = 0; page < 3; ++page) {
            w.tabs()->setCurrentIndex(page);
            QVERIFY(w.grab().toImage().save(screenshotDir() + pages[page]));
        }
        QVERIFY(!w.exportTo(dir_.filePath("rows.txt")));
        QVERIFY(w.statusText().contains("rows.txt"));

        // The run is kept and reopens with its rows, cells and summary.
        const QStringList kept = w.keptRuns();
        QCOMPARE(kept.size(), 1);
        ui::DataWindow again(dir_.filePath("runs"));
        QVERIFY(again.openRun(kept[0]));
        QCOMPARE(again.model()->rowCount(), 30);
        checkTableAgainstFile(*again.model(), file);
        QVERIFY(again.summary().has_value());
        QCOMPARE(again.summary()->correct(), w.summary()->correct());
    }
};

QTEST_MAIN(TestDataView)
#include "tst_data_view.moc"
