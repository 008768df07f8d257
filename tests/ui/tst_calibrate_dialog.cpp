// The Studio's Calibrate… dialog (issue 39): the core's calibrate use case on a labelled run's
// questions, off the GUI thread; the fitted temperature per type near the miscalibration the
// synthetic run was made with, the held-out figures and reliability charts before and after,
// the range statement, and the write into the open policy as one undo step (undone whole).
// A cancel drops the fit; a run with too few labelled questions writes nothing.
// Saves build/screenshots/calibrate-dialog.png.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>
#include <random>

#include <nlohmann/json.hpp>

#include "core/evaluation/calibration.h"
#include "ui/calibration/calibrate_dialog.h"
#include "ui/charts/chart_widget.h"
#include "ui/editor/policy_document.h"

using core::eval::CalibrationItem;

namespace {

QString read(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}
const QString kTemplate =
    QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");
const QString kVars = QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.vars.json");

// `n` questions of `type` with `options` alternatives whose shown probabilities are the true
// ones sharpened as by temperature 1/`true_t` (so the fit should find about `true_t`); the
// expected answer is drawn from the true probabilities.
void add_items(std::vector<CalibrationItem>& items, core::QuestionType type, int options, int n,
               double true_t, std::mt19937& rng) {
    std::normal_distribution<double> logit(0, 1.5);
    for (int i = 0; i < n; ++i) {
        std::vector<double> p(options);
        double sum = 0;
        for (auto& x : p) sum += (x = std::exp(logit(rng)));
        for (auto& x : p) x /= sum;
        std::discrete_distribution<int> draw(p.begin(), p.end());
        CalibrationItem c;
        c.item = "row" + std::to_string(items.size());
        c.question = type == core::QuestionType::Noul ? "escalate" : "category";
        c.type = type;
        c.probs = core::eval::temper(p, 1 / true_t);
        c.expected = draw(rng);
        items.push_back(std::move(c));
    }
}

}  // namespace

class TestCalibrateDialog : public QObject {
    Q_OBJECT
    QString original_;

    void load(ui::PolicyDocument& doc) {
        const auto vars = nlohmann::json::parse(read(kVars).toStdString());
        doc.load(QStringLiteral("support_triage"), kTemplate, original_, vars);
    }

  private Q_SLOTS:
    void initTestCase() {
        original_ = read(kTemplate);
        QVERIFY2(!original_.isEmpty(), qPrintable(kTemplate));
    }

    void fitsShowsAndWritesOneUndoStep() {
        ui::PolicyDocument doc;
        load(doc);
        QVERIFY(doc.schema());
        QVERIFY(!doc.schema()->temperature.is_set());
        std::mt19937 rng(7);
        std::vector<CalibrationItem> items;
        add_items(items, core::QuestionType::Choice, 4, 600, 2.0, rng);
        add_items(items, core::QuestionType::Noul, 2, 600, 3.0, rng);
        ui::CalibrateDialog dialog(items, QStringLiteral("a synthetic run"), &doc);
        QSignalSpy finished(&dialog, &ui::CalibrateDialog::fitFinished);
        QVERIFY(dialog.fitting());
        QVERIFY(!dialog.writeButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!dialog.fitting());
        QVERIFY(dialog.result());
        const auto& report = dialog.result()->report;
        const double noul = report.temperature.for_type(core::QuestionType::Noul);
        const double choice = report.temperature.for_type(core::QuestionType::Choice);
        QVERIFY2(std::abs(noul - 3.0) < 0.3, qPrintable(QString::number(noul)));
        QVERIFY2(std::abs(choice - 2.0) < 0.2, qPrintable(QString::number(choice)));
        // The figures shown are the report's: one row per type and one for all, held-out NLL
        // lower after than before.
        QCOMPARE(dialog.table()->rowCount(), 3);
        QCOMPARE(dialog.table()->item(2, 0)->text(), QStringLiteral("all"));
        QVERIFY(report.after.nll < report.before.nll);
        QVERIFY(report.after.ece.ece < report.before.ece.ece);
        QCOMPARE(dialog.table()->item(2, 4)->text(),
                 QStringLiteral("%1 → %2").arg(QString::number(report.before.nll, 'f', 4),
                                               QString::number(report.after.nll, 'f', 4)));
        QVERIFY2(dialog.rangeText().contains(QStringLiteral("inside its search range")),
                 qPrintable(dialog.rangeText()));
        QVERIFY(dialog.beforeChart()->hasData());
        QVERIFY(dialog.afterChart()->hasData());

        dialog.resize(960, 720);
        dialog.show();
        QTest::qWait(50);
        const QString dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
        QDir().mkpath(dir);
        QVERIFY(dialog.grab().save(dir + "/calibrate-dialog.png"));

        // Written: the whole fitted map in one undo step; undo restores the source exactly.
        QVERIFY(dialog.writeButton()->isEnabled());
        const int steps = doc.undoStack()->count();
        QSignalSpy written(&dialog, &ui::CalibrateDialog::written);
        QCOMPARE(dialog.writeIntoPolicy(), QString());
        QCOMPARE(written.count(), 1);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(doc.schema());
        QCOMPARE(doc.schema()->temperature.for_type(core::QuestionType::Noul), noul);
        QCOMPARE(doc.schema()->temperature.for_type(core::QuestionType::Choice), choice);
        QCOMPARE(doc.schema()->temperature.for_type(core::QuestionType::Score), 1.0);
        doc.undoStack()->undo();
        QCOMPARE(doc.source(), original_);
        QVERIFY(!doc.schema()->temperature.is_set());
    }

    void cancelDropsTheFit() {
        ui::PolicyDocument doc;
        load(doc);
        std::mt19937 rng(3);
        std::vector<CalibrationItem> items;
        add_items(items, core::QuestionType::Choice, 3, 200, 2.0, rng);
        ui::CalibrateDialog dialog(items, QStringLiteral("a run"), &doc);
        QSignalSpy finished(&dialog, &ui::CalibrateDialog::fitFinished);
        QVERIFY(dialog.cancelButton()->isEnabled());
        dialog.cancelFit();
        QVERIFY(!dialog.fitting());
        QVERIFY(dialog.statusText().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY(!dialog.result());
        QVERIFY(!dialog.writeButton()->isEnabled());
        QVERIFY(!dialog.writeIntoPolicy().isEmpty());
        QCOMPARE(doc.source(), original_);
    }

    void tooFewQuestionsWriteNothing() {
        ui::PolicyDocument doc;
        load(doc);
        std::mt19937 rng(5);
        std::vector<CalibrationItem> items;
        add_items(items, core::QuestionType::Choice, 3, 4, 2.0, rng);
        ui::CalibrateDialog dialog(items, QStringLiteral("a small run"), &doc);
        QSignalSpy finished(&dialog, &ui::CalibrateDialog::fitFinished);
        QVERIFY(finished.wait(60000));
        QVERIFY(dialog.result());
        QVERIFY(!dialog.result()->fitted());
        QVERIFY2(dialog.rangeText().startsWith(QStringLiteral("Nothing was fitted")),
                 qPrintable(dialog.rangeText()));
        QVERIFY(!dialog.writeButton()->isEnabled());
        QVERIFY(dialog.writeIntoPolicy().contains(QStringLiteral("nothing was fitted")));
        QCOMPARE(doc.source(), original_);
    }
};

QTEST_MAIN(TestCalibrateDialog)
#include "tst_calibrate_dialog.moc"
