// A run in the main window on the tiny model: the cards show exactly the numbers the backend
// returns for the same request and seed (compared with a Decision obtained directly from a
// LocalBackend); the run happens off the UI thread, can be cancelled, and lands in the history.
#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "core/decide/local_backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "engine/engine.h"
#include "ui/editor/policy_document.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

class RunResultsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static bool haveModel() {
        return QFile::exists(QStringLiteral(DS_TINY_MODEL_DIR "/config.json"));
    }

    ui::MainWindowOptions options() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        return o;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!haveModel()) QSKIP("no tiny model: build the tiny_model target first");
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           dir_.filePath(QStringLiteral("settings")));
        qunsetenv("DGEM_URL");
    }

    void barsEqualTheBackendsNumbers() {
        ui::MainWindow window(options());
        window.show();
        QCOMPARE(window.document()->name(), QStringLiteral("support_triage"));
        QVERIFY(window.endpointStatusText().contains(QStringLiteral("tiny")));
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        // The UI thread stays responsive while the engine works.
        QVERIFY(finished.wait(300000));
        QVERIFY2(
            finished.first().first().toBool(),
            qPrintable(
                window.resultsView()->findChild<QLabel*>(QStringLiteral("runStatus"))->text()));

        // The same request, straight to a LocalBackend of the same model.
        engine::EngineOptions eo;
        eo.model_dir = DS_TINY_MODEL_DIR;
        eo.device = engine::Device::Cpu;
        auto backend = core::LocalBackend::open(eo);
        QVERIFY(backend.ok());
        core::DecideRequest request;
        request.schema = *window.document()->schema();
        request.schema.layout = core::Layout::DocumentFirst;
        request.state = window.document()->state();
        request.seed = window.runSeed();
        auto direct = (*backend)->decide(request, {}, {});
        QVERIFY2(direct.ok(), direct.ok() ? "" : direct.error().message.c_str());

        ui::ResultsModel* model = window.resultsModel();
        QCOMPARE(model->rowCount(), int(direct->questions.size()));
        const auto cards = window.resultsView()->cards();
        QCOMPARE(cards.size(), qsizetype(direct->questions.size()));
        for (int q = 0; q < model->rowCount(); ++q) {
            const core::QuestionOutcome& expected = direct->questions[size_t(q)];
            const QModelIndex index = model->index(q);
            QCOMPARE(index.data(ui::ResultsModel::IdRole).toString().toStdString(), expected.id);
            const auto mean = index.data(ui::ResultsModel::MeanRole).value<QList<double>>();
            QCOMPARE(mean.size(), qsizetype(expected.mean.size()));
            for (int l = 0; l < mean.size(); ++l)
                QVERIFY2(std::abs(mean[l] - expected.mean[size_t(l)]) < 1e-9,
                         qPrintable(QStringLiteral("%1 label %2: %3 vs %4")
                                        .arg(QString::fromStdString(expected.id))
                                        .arg(l)
                                        .arg(mean[l], 0, 'g', 17)
                                        .arg(expected.mean[size_t(l)], 0, 'g', 17)));
            QCOMPARE(index.data(ui::ResultsModel::WinnerRole).toInt(), expected.winner);
            QVERIFY(std::abs(index.data(ui::ResultsModel::ConfidenceRole).toDouble() -
                             expected.confidence) < 1e-9);
            QVERIFY(std::abs(index.data(ui::ResultsModel::EntropyRole).toDouble() -
                             expected.entropy) < 1e-9);
            QCOMPARE(index.data(ui::ResultsModel::HesitationTextRole).toString().toStdString(),
                     std::string(core::to_string(expected.hesitation_class())));
            QCOMPARE(index.data(ui::ResultsModel::PerReadRole).value<QList<QList<double>>>().size(),
                     qsizetype(expected.per_read.size()));
            // What the card shows on its bars is that number.
            ui::ResultCard* card = cards[q];
            QCOMPARE(card->index().row(), q);
            for (int l = 0; l < mean.size(); ++l) {
                const QString tip = card->toolTipAt(card->barRect(l).center());
                QVERIFY2(tip.contains(
                             QStringLiteral("%1%").arg(expected.mean[size_t(l)] * 100, 0, 'f', 2)),
                         qPrintable(tip));
            }
        }
        QVERIFY(window.resultsView()->timingsText().contains(QStringLiteral("total")));
        // Copy as JSON: the structured server's answers for the same decision.
        const auto json = nlohmann::json::parse(window.resultsView()->decisionJson().toStdString());
        QVERIFY(json.contains("answers"));
        QCOMPARE(json["answers"].size(), direct->questions.size());
    }

    void cancelAndRunAgain() {
        ui::MainWindow window(options());
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        window.cancelRun();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!window.runner()->busy());
        // Let a backend build that was under way settle, then run to the end.
        QElapsedTimer waited;
        waited.start();
        bool started = false;
        while (!(started = window.run()) && waited.elapsed() < 300000) QTest::qWait(50);
        QVERIFY(started);
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.last().first().toBool(), true);
        QCOMPARE(window.resultsModel()->rowCount(), 3);
    }
};

QTEST_MAIN(RunResultsTest)
#include "tst_run_results.moc"
