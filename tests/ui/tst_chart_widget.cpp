// ChartWidget: a view's chart is a core::report::ReportChart value (built by core::report from
// the scored results, as the reports' charts are) shown through Qt Charts, and it answers:
// hovering a bin shows its range, count and items; clicking it emits exactly its items and a
// second click or Esc clears; the latency chart zooms with the wheel, pans with a drag and resets;
// the context menu's outputs are a PNG, an SVG and the chart's data as CSV; a chart without data
// says so. Its size follows the chart (a row per category of a horizontal chart).
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QToolTip>
#include <QValueAxis>

#include "charts/qt_chart.h"
#include "core/evaluation/eval_table.h"
#include "core/reports/report.h"
#include "ui/bench/bench_items_model.h"
#include "ui/bench/bench_panels.h"
#include "ui/charts/chart_widget.h"
#include "ui/theme.h"

namespace {

namespace report = core::report;

core::eval::Leaderboard board() {
    core::eval::Leaderboard b;
    b.revision = "v1.4.2.1";
    for (auto [name, score] : {std::pair{"Plumb-4B", 65.0}, std::pair{"Hopper", 59.5},
                               std::pair{"djev (thinking)", 15.2}}) {
        core::eval::LeaderboardRow row;
        row.key = name;
        row.display = name;
        row.score = score;
        b.rows.push_back(row);
    }
    return b;
}

// Twelve items: three at 0.8-0.9 (two right), four at 0.5-0.6, five at 0.9-1.
std::vector<std::pair<std::string, std::pair<double, bool>>> scored() {
    return {{"a1", {0.82, true}}, {"a2", {0.85, true}},  {"a3", {0.88, false}},
            {"b1", {0.51, true}}, {"b2", {0.55, false}}, {"b3", {0.57, false}},
            {"b4", {0.59, true}}, {"c1", {0.91, true}},  {"c2", {0.95, true}},
            {"c3", {0.97, true}}, {"c4", {0.99, true}},  {"c5", {1.0, true}}};
}

report::ReportChart reliability() {
    std::vector<std::pair<double, bool>> pairs;
    std::vector<report::ChartItem> items;
    for (const auto& [id, p] : scored()) {
        pairs.push_back(p);
        items.push_back({id, p.first});
    }
    return report::reliability_chart(core::eval::ece_top_label(pairs), "Reliability", items);
}

// 40 latencies from 40 to 160 ms; item "slow" alone in the last bin.
report::ReportChart latency(std::vector<std::string>* slow_bin = nullptr) {
    std::vector<double> s;
    std::vector<std::string> ids;
    for (int i = 0; i < 39; ++i) {
        s.push_back(0.040 + 0.001 * i);
        ids.push_back("i" + std::to_string(i));
    }
    s.push_back(0.160);
    ids.push_back("slow");
    if (slow_bin) *slow_bin = {"slow"};
    return report::latency_chart(s, ids);
}

QStringList strings(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}

// The pointer resting at `at` (a move event, as the window system sends one).
void hover(ui::ChartWidget& w, QPoint at) {
    QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(w.viewport()->mapToGlobal(at)),
                     Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(w.viewport(), &move);
}

QString outDir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

// The item rows of scored(): their ids, confidences and whether they were right.
std::vector<core::eval::ItemRow> itemRows() {
    std::vector<core::eval::ItemRow> rows;
    for (const auto& [id, p] : scored()) {
        core::eval::ItemRow r;
        r.id = id;
        r.tier = id[0] == 'c' ? "easy" : "hard";
        r.p = p.first;
        r.correct = p.second;
        r.predicted = "yes";
        r.expected = p.second ? "yes" : "no";
        r.latency_s = 0.05;
        rows.push_back(r);
    }
    return rows;
}

// The tooltip window showing now (offscreen it is a window of its own), or nullptr.
QWidget* tooltipWindow() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->inherits("QTipLabel") && w->isVisible()) return w;
    return nullptr;
}

void show(ui::ChartWidget& w, QSize size = {640, 360}) {
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
}

}  // namespace

class TestChartWidget : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { ui::applyTheme(*qApp, false); }
    void cleanup() { ui::applyTheme(*qApp, false); }

    // The widget holds the value and shows its numbers: one bar per category with the set's
    // values, the series' points; its height follows a horizontal chart's rows.
    void holdsTheValueAndShowsItsNumbers() {
        ui::ChartWidget w;
        QVERIFY(w.chart().title.empty());
        QVERIFY(!w.hasData());
        const report::ReportChart lead = report::leaderboard_chart(board(), 40.0);
        w.setChart(lead);
        QCOMPARE(w.chart().categories, lead.categories);
        QCOMPARE(w.toolTip(), QStringLiteral("Leaderboard (JevBench v1.4.2.1)"));
        QCOMPARE(w.QChartView::chart()->title(), QStringLiteral("Leaderboard (JevBench v1.4.2.1)"));
        auto* bars = qobject_cast<QHorizontalBarSeries*>(w.QChartView::chart()->series().value(0));
        QVERIFY(bars);
        QCOMPARE(bars->barSets().size(), 1);
        // Reversed, so that the first category is on top.
        const QBarSet* set = bars->barSets().front();
        QCOMPARE(set->count(), 4);
        for (int k = 0; k < 4; ++k)
            QCOMPARE(set->at(3 - k), lead.sets.front().values[static_cast<size_t>(k)]);
        // This run highlighted (selected), the others not.
        const int mine = lead.highlighted.front();
        QCOMPARE(set->selectedBars(), QList<int>{3 - mine});
        // Horizontal: 110 + 24 per category; the others a fixed height, a little less at least.
        QCOMPARE(w.sizeHint().height(), 110 + 24 * 4);
        QCOMPARE(w.minimumSizeHint().height(), 110 + 24 * 4);
        ui::ChartWidget axes(report::axes_chart({50.0, 25.0, std::nullopt, 75.0}));
        QCOMPARE(axes.sizeHint().height(), 300);
        QVERIFY(axes.minimumSizeHint().height() < axes.sizeHint().height());
        auto* vbars = qobject_cast<QBarSeries*>(axes.QChartView::chart()->series().value(0));
        QVERIFY(vbars);
        QCOMPARE(vbars->barSets().front()->at(1), 25.0);
        // XY: every series' points.
        ui::ChartWidget rel(reliability());
        const auto series = rel.QChartView::chart()->series();
        QCOMPARE(series.size(), 2);  // ideal, accuracy
        auto* acc = qobject_cast<QLineSeries*>(series[1]);
        QVERIFY(acc);
        QCOMPARE(acc->count(), 3);            // three non-empty bins
        QCOMPARE(acc->at(1).y(), 2.0 / 3.0);  // 0.8-0.9: two of three right
    }

    // Hovering a reliability bin shows its range, count and items; clicking it emits exactly
    // that bin's items; a second click clears, and so does Esc after another click.
    void reliabilityBinHoverAndClick() {
        ui::ChartWidget w(reliability());
        show(w);
        const int bin = 8;  // 0.8-0.9
        QCOMPARE(w.chart().bins.at(bin).items, (std::vector<std::string>{"a1", "a2", "a3"}));
        const QPoint at = w.binCenter(bin);
        QCOMPARE(w.binAt(at), bin);
        hover(w, at);
        QVERIFY2(w.hoverText().contains(QStringLiteral("0.8\u20130.9")), qPrintable(w.hoverText()));
        QVERIFY2(w.hoverText().contains(QStringLiteral("3 item")), qPrintable(w.hoverText()));
        QVERIFY(w.hoverText().contains(QStringLiteral("a1, a2, a3")));
        QVERIFY(w.hoverText().contains(QStringLiteral("0.67")));  // its accuracy, exactly shown
        QSignalSpy chosen(&w, &ui::ChartWidget::itemsChosen);
        QSignalSpy cleared(&w, &ui::ChartWidget::choiceCleared);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().at(0).toStringList(), (QStringList{"a1", "a2", "a3"}));
        QVERIFY(chosen.first().at(1).toString().contains(QStringLiteral("0.8\u20130.9")));
        QCOMPARE(w.chosenBin(), bin);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(cleared.size(), 1);
        QCOMPARE(w.chosenBin(), -1);
        // Another bin, then Esc.
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, w.binCenter(5));
        QCOMPARE(chosen.size(), 2);
        QCOMPARE(chosen.last().at(0).toStringList(), (QStringList{"b1", "b2", "b3", "b4"}));
        QTest::keyClick(&w, Qt::Key_Escape);
        QCOMPARE(cleared.size(), 2);
        // An empty bin: a hover with its range and no items, and a click that chooses nothing.
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, w.binCenter(2));
        QCOMPARE(chosen.size(), 2);
    }

    // A latency bar: its range in ms, its count and items; a click chooses exactly them.
    void latencyBarHoverAndClick() {
        std::vector<std::string> slow;
        ui::ChartWidget w(latency(&slow));
        show(w);
        const int last = static_cast<int>(w.chart().bins.size()) - 1;
        QCOMPARE(w.chart().bins.at(static_cast<size_t>(last)).items, slow);
        int total = 0;
        for (const auto& b : w.chart().bins) {
            QCOMPARE(static_cast<int>(b.items.size()), b.count);
            total += b.count;
        }
        QCOMPARE(total, 40);
        const int first = 0;
        hover(w, w.binCenter(first));
        QVERIFY2(w.hoverText().startsWith(QStringLiteral("40.0\u201347.5 ms")),
                 qPrintable(w.hoverText()));
        const auto& b0 = w.chart().bins.front();
        QVERIFY(w.hoverText().contains(QStringLiteral("%1 item").arg(b0.count)));
        QSignalSpy chosen(&w, &ui::ChartWidget::itemsChosen);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, w.binCenter(last));
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().at(0).toStringList(), strings(slow));
    }

    // An accuracy bar: the exact value, the group's count and its items.
    void accuracyBarHoverAndClick() {
        std::map<std::string, core::eval::GroupStats> tiers;
        tiers["easy"].n = 2;
        tiers["easy"].accuracy = 0.5;
        tiers["hard"].n = 3;
        tiers["hard"].accuracy = 1.0 / 3.0;
        const std::map<std::string, std::vector<std::string>> items{{"easy", {"e1", "e2"}},
                                                                    {"hard", {"h1", "h2", "h3"}}};
        ui::ChartWidget w(report::accuracy_chart(tiers, "Accuracy by tier", items));
        show(w);
        hover(w, w.binCenter(1));
        QVERIFY2(w.hoverText().startsWith(QStringLiteral("hard")), qPrintable(w.hoverText()));
        QVERIFY(w.hoverText().contains(QStringLiteral("33.33%")));
        QVERIFY(w.hoverText().contains(QStringLiteral("3 item")));
        QSignalSpy chosen(&w, &ui::ChartWidget::itemsChosen);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, w.binCenter(0));
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().at(0).toStringList(), (QStringList{"e1", "e2"}));
    }

    // The latency chart zooms with the wheel, pans with a drag (no click), and resets.
    void latencyZoomPanReset() {
        ui::ChartWidget w(latency());
        w.setZoomable(true);
        show(w);
        auto* reset = w.findChild<QToolButton*>(QStringLiteral("chartResetZoom"));
        QVERIFY(reset && reset->isVisible());
        auto* x = qobject_cast<QValueAxis*>(w.QChartView::chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        const double min0 = x->min(), max0 = x->max();
        QWheelEvent wheel(QPointF(w.viewport()->rect().center()),
                          QPointF(w.viewport()->mapToGlobal(w.viewport()->rect().center())),
                          QPoint(0, 120), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(w.viewport(), &wheel);
        QVERIFY2(x->max() - x->min() < (max0 - min0) * 0.9, "the wheel zooms in");
        const double zoomed_min = x->min();
        QSignalSpy chosen(&w, &ui::ChartWidget::itemsChosen);
        const QPoint from = w.viewport()->rect().center();
        QTest::mousePress(w.viewport(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(80, 0)),
                         QPointF(w.viewport()->mapToGlobal(from + QPoint(80, 0))), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.viewport(), &move);
        QTest::mouseRelease(w.viewport(), Qt::LeftButton, {}, from + QPoint(80, 0));
        QVERIFY2(x->min() < zoomed_min, "dragging right shows earlier values");
        QCOMPARE(chosen.size(), 0);  // a drag is not a click
        reset->click();
        QCOMPARE(x->min(), min0);
        QCOMPARE(x->max(), max0);
        // Charts that do not zoom let the page scroll.
        ui::ChartWidget rel(reliability());
        QVERIFY(!rel.findChild<QToolButton*>(QStringLiteral("chartResetZoom"))->isVisible());
    }

    // The context menu's outputs: a PNG of the chart, an SVG with its title, and its data.
    void contextMenuOutputs() {
        QTemporaryDir dir;
        ui::ChartWidget w(reliability());
        show(w);
        const QString png = dir.filePath("chart.png"), svg = dir.filePath("chart.svg");
        QVERIFY(w.savePng(png));
        const QImage image(png);
        QCOMPARE(image.size(), w.size() * w.devicePixelRatio());
        int inked = 0;
        const QColor ground = image.pixelColor(2, 2);
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3) inked += image.pixelColor(x, y) != ground;
        QVERIFY2(inked > 300, "the picture has the chart in it");
        QVERIFY(w.saveSvg(svg));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("<title>" + QByteArray::fromStdString(w.chart().title) + "</title>"));
        QVERIFY(text.contains("viewBox=\"0 0 640 360\""));
        QVERIFY(text.contains("<path") || text.contains("<polyline"));
        const QString csv = w.csv();
        const QStringList lines = csv.split(QStringLiteral("\r\n"));
        QCOMPARE(lines.value(0), QStringLiteral("series,confidence,accuracy"));
        QCOMPARE(lines.value(1), QStringLiteral("ideal,0,0"));
        QVERIFY(lines.contains(QStringLiteral("bin,from,to,value,count,items")));
        QVERIFY(lines.contains(QStringLiteral("0.8\u20130.9,0.8,0.9,0.6666666667,3,a1 a2 a3")));
        QCOMPARE(csv, QString::fromStdString(report::chart_csv(w.chart())));
    }

    // The reports' path (charts::render_chart: the chart built anew and painted outside any
    // view) draws what the Studio shows, pixel for pixel, given the Studio's look: a bar chart,
    // a line chart with point labels and a chart without data.
    void reportPathDrawsWhatTheViewShows() {
        std::map<std::string, core::eval::GroupStats> tiers;
        tiers["easy"].n = 8;
        tiers["easy"].accuracy = 0.375;
        tiers["hard"].n = 4;
        tiers["hard"].accuracy = 0.75;
        for (const report::ReportChart& chart : {report::accuracy_chart(tiers, "Accuracy by tier"),
                                                 reliability(), report::latency_chart({})}) {
            ui::ChartWidget w(chart);
            show(w);
            QApplication::processEvents();  // the point labels follow the laid-out plot
            const QImage shown = w.image().convertToFormat(QImage::Format_ARGB32);
            QImage painted(shown.size(), QImage::Format_ARGB32_Premultiplied);
            painted.fill(w.palette().color(QPalette::Base));
            {
                QPainter p(&painted);
                p.setRenderHint(QPainter::Antialiasing);
                charts::render_chart(p, QRectF(QPointF(0, 0), QSizeF(w.size())), w.chart(),
                                     charts::look_from_palette(w.palette(), w.font(),
                                                               ui::ChartWidget::noDataText()));
            }
            int differing = 0, inked = 0;
            const QImage drawn = painted.convertToFormat(QImage::Format_ARGB32);
            const QRgb ground = w.palette().color(QPalette::Base).rgba();
            for (int y = 0; y < shown.height(); ++y)
                for (int x = 0; x < shown.width(); ++x) {
                    differing += shown.pixel(x, y) != drawn.pixel(x, y);
                    inked += drawn.pixel(x, y) != ground;
                }
            QVERIFY2(inked > 400, qPrintable(QString::number(inked)));  // a picture, not a blank
            QVERIFY2(differing == 0, qPrintable(QString::fromStdString(chart.title) + ": " +
                                                QString::number(differing) + " pixels differ"));
        }
    }

    // No data: a line saying so, no axes, nothing to hover.
    void noDataSaysSo() {
        for (const report::ReportChart& empty :
             {report::reliability_chart(core::eval::ece_top_label({}), "Reliability"),
              report::latency_chart({}), report::accuracy_chart({}, "Accuracy by tier")}) {
            ui::ChartWidget w(empty);
            show(w);
            QVERIFY(!w.hasData());
            const QGraphicsSimpleTextItem* said = charts::no_data_item(w.QChartView::chart());
            QVERIFY(said && said->isVisible());
            QCOMPARE(said->text(), ui::ChartWidget::noDataText());
            // In the middle of the chart, where its axes would be.
            const QRectF at = said->mapRectToScene(said->boundingRect());
            QVERIFY2(
                QLineF(at.center(), w.QChartView::chart()->sceneBoundingRect().center()).length() <
                    2,
                qPrintable(QString::number(at.center().x())));
            QVERIFY(w.QChartView::chart()->axes().isEmpty());
            QCOMPARE(w.binAt(w.viewport()->rect().center()), -1);
        }
        ui::ChartWidget full(reliability());
        QVERIFY(!charts::no_data_item(full.QChartView::chart()));
    }

    // The Bench window's wiring: a reliability bin clicked, the Items page shows exactly its
    // items; a second click shows them all again, and so do Esc and the page's button. Pictures
    // of the hover (the chart with its tooltip where the pointer rests) and of the filtered table,
    // light and dark.
    void clickFiltersTheItemTable() {
        for (bool dark : {false, true}) {
            ui::applyTheme(*qApp, dark);
            QWidget window;
            auto* row = new QHBoxLayout(&window);
            auto* chart = new ui::ChartWidget(reliability());
            auto* page = new ui::BenchItemsPage(&window);
            row->addWidget(chart, 1);
            row->addWidget(page, 1);
            page->model()->setRows(itemRows());
            QObject::connect(chart, &ui::ChartWidget::itemsChosen, page,
                             [page](const QStringList& items, const QString& what) {
                                 page->showOnly(items, what);
                             });
            QObject::connect(chart, &ui::ChartWidget::choiceCleared, page,
                             [page] { page->showAll(); });
            page->on_cleared = [chart] {
                QSignalBlocker quiet(chart);
                chart->clearChoice();
            };
            window.resize(1300, 420);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTableView* table = page->table();
            QCOMPARE(table->model()->rowCount(), 12);
            // Hover the 0.8 bin: its tooltip, pictured over the chart.
            const QPoint at = chart->binCenter(8);
            hover(*chart, at);
            QVERIFY(chart->hoverText().contains(QStringLiteral("a1, a2, a3")));
            QWidget* tip = tooltipWindow();
            QImage hover_image = chart->grab().toImage();
            if (tip) {
                QPainter p(&hover_image);
                // Beside the pointer, kept inside the picture (as the tooltip keeps to the screen).
                const QPixmap shot = tip->grab();
                p.drawPixmap(QPoint(std::min(at.x() + 12, hover_image.width() - shot.width() - 2),
                                    at.y() + 16),
                             shot);
            }
            QVERIFY(hover_image.save(outDir() +
                                     (dark ? "/chart-hover-dark.png" : "/chart-hover-light.png")));
            // Click: exactly that bin's items, in the table.
            QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, at);
            QCOMPARE(table->model()->rowCount(), 3);
            QStringList shown;
            for (int r = 0; r < 3; ++r)
                shown << table->model()->index(r, ui::BenchItemsModel::Id).data().toString();
            shown.sort();
            QCOMPARE(shown, (QStringList{"a1", "a2", "a3"}));
            QVERIFY(page->filtered());
            QApplication::processEvents();
            QVERIFY(window.grab().save(outDir() + (dark ? "/chart-filtered-table-dark.png"
                                                        : "/chart-filtered-table-light.png")));
            // A second click: all again.
            QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, at);
            QCOMPARE(table->model()->rowCount(), 12);
            QVERIFY(!page->filtered());
            // A latency-like choice from another bin, then Esc in the table clears it (and the
            // chart's).
            QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, chart->binCenter(9));
            QCOMPARE(table->model()->rowCount(), 5);
            table->setFocus();
            QTest::keyClick(table, Qt::Key_Escape);
            QCOMPARE(table->model()->rowCount(), 12);
            QCOMPARE(chart->chosenBin(), -1);
            QToolTip::hideText();
        }
        ui::applyTheme(*qApp, false);
    }

    // A palette change rebuilds the chart in the other scheme (the same value, dark ground).
    void followsThePalette() {
        ui::ChartWidget w(report::axes_chart({50.0, 25.0, 60.0, 75.0}));
        show(w, {600, 300});
        QVERIFY(!w.darkPalette());
        const QColor light = w.QChartView::chart()->backgroundBrush().color();
        ui::applyTheme(*qApp, true);
        QApplication::processEvents();
        QVERIFY(w.darkPalette());
        const QColor dark = w.QChartView::chart()->backgroundBrush().color();
        QVERIFY(light.lightness() > 128);
        QVERIFY(dark.lightness() < 128);
        QCOMPARE(w.chart().sets.front().values, (std::vector<double>{50.0, 25.0, 60.0, 75.0}));
    }
};

QTEST_MAIN(TestChartWidget)
#include "tst_chart_widget.moc"
