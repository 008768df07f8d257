// The stage-2 escalation curve in a view (issue 39): the chart core::report::escalation_chart
// makes from a labelled run's curve, painted by ui::ChartWidget offscreen as the Bench view and
// reports show it, with the suggested threshold marked; saved as a PNG in build/screenshots/.
#include <QApplication>
#include <QDir>
#include <QTest>

#include "core/evaluation/calibration.h"
#include "core/reports/escalation_chart.h"
#include "ui/charts/chart_widget.h"

class TestEscalationChart : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    void paintsTheCurve() {
        // 40 questions: the surer a question, the likelier stage 1 had it right.
        std::vector<core::eval::CalibrationItem> items;
        for (int i = 0; i < 40; ++i) {
            core::eval::CalibrationItem c;
            const double p = 0.5 + 0.5 * i / 40.0;
            c.probs = {p, 1 - p};
            c.expected = i % 3 == 0 && i < 24 ? 1 : 0;  // misses among the unsure
            items.push_back(c);
        }
        const auto curve = core::eval::escalation_curve(items, {});
        const auto suggestion = core::eval::suggest_for_accuracy(curve, 1.0);
        QVERIFY(suggestion.found);
        auto chart = core::report::escalation_chart(curve, suggestion, "Escalation curve");
        QCOMPARE(chart.series.size(), size_t(1));
        QCOMPARE(chart.series[0].points.size(), curve.size());
        QCOMPARE(chart.marks.size(), size_t(1));
        QCOMPARE(chart.marks[0].x, 100 * suggestion.point.escalated_share);
        QVERIFY(chart.series[0].points.front().second < chart.series[0].points.back().second);

        ui::ChartWidget w(chart);
        w.resize(720, 420);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w) || QGuiApplication::platformName() == "offscreen");
        const QImage image = w.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(image.size(), QSize(720, 420));
        // Something was painted besides the ground: more than a handful of colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        const QString dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
        QDir().mkpath(dir);
        QVERIFY(image.save(dir + "/escalation-chart.png"));
    }
};

QTEST_MAIN(TestEscalationChart)
#include "tst_escalation_chart.moc"
