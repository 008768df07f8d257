// ChartWidget: a view's chart is a core::report::ReportChart value painted by
// core::report::paint_chart, pixel for pixel what that function paints into an image of the same
// size (the painter of the report's SVG, PDF pages and preview), light or dark after its palette,
// on the palette's Base colour; its size follows the chart (a row per category of a horizontal
// chart) and its tooltip is the chart's title.
#include <QApplication>
#include <QPainter>
#include <QTest>

#include "core/reports/report.h"
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

core::eval::Ece ece() {
    core::eval::Ece e;
    e.ece = 0.125;
    e.n = 12;
    for (int k = 0; k < 10; ++k) {
        core::eval::ReliabilityBin bin;
        bin.n = k % 3 == 0 ? 0 : k;
        bin.confidence = (k + 0.5) / 10.0;
        bin.accuracy = std::min(1.0, k / 8.0);
        e.bins.push_back(bin);
    }
    return e;
}

// What paint_chart paints of `chart` into an image the widget's size, as the widget does.
QImage painted(const report::ReportChart& chart, QSize size, const QColor& base, bool dark) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    p.fillRect(QRect(QPoint(0, 0), size), base);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    report::paint_chart(p, QRectF(QRect(QPoint(0, 0), size).adjusted(8, 8, -8, -8)), chart, dark);
    p.end();
    return image.convertToFormat(QImage::Format_RGB32);
}

QImage grabbed(ui::ChartWidget& w) {
    return w.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

}  // namespace

class TestChartWidget : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { ui::applyTheme(*qApp, false); }
    void cleanup() { ui::applyTheme(*qApp, false); }

    void holdsTheValueAndSizesToIt() {
        ui::ChartWidget w;
        QVERIFY(w.chart().title.empty());
        const report::ReportChart lead = report::leaderboard_chart(board(), 40.0);
        w.setChart(lead);
        QCOMPARE(w.chart().title, lead.title);
        QCOMPARE(w.chart().categories, lead.categories);
        QCOMPARE(w.chart().sets.front().values, lead.sets.front().values);
        QCOMPARE(w.toolTip(), QStringLiteral("Leaderboard (JevBench v1.4.2.1)"));
        // Horizontal: 34 + 18 per category (three rows and this run), with the 8 px margins.
        QCOMPARE(w.sizeHint().height(), 34 + 18 * 4 + 16);
        QCOMPARE(w.minimumSizeHint().height(), 34 + 18 * 4 + 16);
        w.setChart(report::leaderboard_chart(board(), std::nullopt));
        QCOMPARE(w.sizeHint().height(), 34 + 18 * 3 + 16);
        // The others: a fixed height, a little less at the least.
        ui::ChartWidget axes(report::axes_chart({50.0, 25.0, std::nullopt, 75.0}));
        QCOMPARE(axes.toolTip(), QStringLiteral("Scorecard axes"));
        QCOMPARE(axes.sizeHint().height(), 260 + 16);
        QVERIFY(axes.minimumSizeHint().height() < axes.sizeHint().height());
        QVERIFY(axes.minimumSizeHint().width() > 0);
        ui::ChartWidget rel(report::reliability_chart(ece(), "Reliability"));
        QCOMPARE(rel.sizeHint().height(), 260 + 16);
        QCOMPARE(rel.chartRect(), QRectF(8, 8, rel.width() - 16, rel.height() - 16));
    }

    // The widget's pixels are paint_chart's, light and dark, for every kind of chart.
    void paintsWithTheReportPainter_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void paintsWithTheReportPainter() {
        QFETCH(bool, dark);
        ui::applyTheme(*qApp, dark);
        std::vector<double> latencies;
        for (int i = 0; i < 40; ++i) latencies.push_back(0.04 + 0.01 * (i % 7) + 0.002 * i);
        std::map<std::string, core::eval::GroupStats> tiers;
        tiers["easy"].n = 8;
        tiers["easy"].accuracy = 0.125;
        tiers["hard"].n = 8;
        tiers["hard"].accuracy = 0.375;
        const report::ReportChart charts[] = {
            report::reliability_chart(ece(), "Reliability (all items)"),
            report::latency_chart(latencies), report::accuracy_chart(tiers, "Accuracy by tier"),
            report::axes_chart({12.9, 0.0, 82.5, 57.6}), report::leaderboard_chart(board(), 40.0)};
        for (const auto& chart : charts) {
            ui::ChartWidget w(chart);
            w.resize(640, std::max(300, w.sizeHint().height()));
            QCOMPARE(w.darkPalette(), dark);
            const QColor base = w.palette().color(QPalette::Base);
            const QImage shown = grabbed(w);
            QCOMPARE(shown.size(), w.size());
            QCOMPARE(QColor(shown.pixel(1, 1)), base);
            QVERIFY2(shown == painted(chart, w.size(), base, dark), chart.title.c_str());
            // Something is drawn: the chart's text and marks differ from the ground.
            int inked = 0;
            for (int y = 0; y < shown.height(); y += 2)
                for (int x = 0; x < shown.width(); x += 2)
                    inked += QColor(shown.pixel(x, y)) != base;
            QVERIFY2(inked > 200, chart.title.c_str());
        }
    }

    // A palette change repaints in the other scheme (the same value, the other text colour).
    void followsThePalette() {
        ui::ChartWidget w(report::axes_chart({50.0, 25.0, 60.0, 75.0}));
        w.resize(600, 300);
        QVERIFY(!w.darkPalette());
        const QImage light = grabbed(w);
        ui::applyTheme(*qApp, true);
        QApplication::processEvents();
        QVERIFY(w.darkPalette());
        const QImage dark = grabbed(w);
        QVERIFY(light != dark);
        QVERIFY(dark == painted(w.chart(), w.size(), w.palette().color(QPalette::Base), true));
    }
};

QTEST_MAIN(TestChartWidget)
#include "tst_chart_widget.moc"
