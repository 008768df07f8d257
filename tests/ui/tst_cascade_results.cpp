// The stage-2 cascade in the Studio's own decisions. Stage 1 is the local tiny model; the judge is
// a remote endpoint profile that the policy's cascade_endpoint names: a real decision server on
// loopback (what `dgem serve` runs) over the tiny model, with its own server key. At threshold 0
// every question is escalated and its card says what stage 2 did; above ln(labels) none is; an
// unknown profile is refused naming cascade_endpoint, and on_miss is refused for one decision.
// DS_SCREENSHOT_DIR: the window and a card with escalations (cascade-window.png, cascade-card.png).
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/endpoints/endpoint_profiles.h"
#include "ui/editor/policy_document.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

#include "ui_test_support.h"

class CascadeResultsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ui_test::LoopbackServer server_;

    core::EndpointProfile judgeProfile() const {
        core::EndpointProfile p;
        p.name = "Stage 2 judge";
        p.kind = core::EndpointKind::Auto;
        p.url = server_.url();
        p.server_key = true;
        p.timeout_s = 300;
        return p;
    }

    ui::MainWindowOptions options() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        return o;
    }

    static QString status(ui::MainWindow& window) {
        return window.resultsView()->findChild<QLabel*>(QStringLiteral("runStatus"))->text();
    }

    // Runs the open policy; whether it finished with a decision.
    static bool runOnce(ui::MainWindow& window) {
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        if (!window.run()) return false;
        if (finished.isEmpty() && !finished.wait(600000)) return false;
        return finished.first().first().toBool();
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_TINY_MODEL_DIR "/config.json")))
            QSKIP("no tiny model: build the tiny_model target first");
        ui_test::isolateSettings(dir_);
        const std::string error = server_.start("judge-key", "tiny-judge");
        QVERIFY2(error.empty(), error.c_str());
        // The judge profile's key (no keychain entry in this test's session).
        qputenv("DGEM_SERVER_KEY", "judge-key");
    }

    void cleanupTestCase() { server_.stop(); }

    void escalatesAtTheThresholdAndMarksTheCards() {
        ui::MainWindow window(options());
        window.resize(1200, 900);
        window.show();
        core::EndpointProfileStore store = window.endpoints();
        QVERIFY(store.activeProfile() && !store.activeProfile()->remote());  // stage 1: local
        store.profiles.push_back(judgeProfile());
        window.setEndpoints(store);
        ui::PolicyDocument* doc = window.document();
        QVERIFY(doc->setSchemaMember("cascade_mode", "\"entropy\"", QStringLiteral("cascade")));
        QVERIFY(
            doc->setSchemaMember("cascade_endpoint", "\"Stage 2 judge\"", QStringLiteral("judge")));
        QVERIFY(doc->setSchemaMember("cascade_threshold", "0", QStringLiteral("threshold")));
        QCOMPARE(doc->schema()->cascade.endpoint, std::string("Stage 2 judge"));

        // Threshold 0: every question reaches it, and the judge answered each (its reply may
        // name no label; then stage 1's answer is kept and the card says so).
        QVERIFY2(runOnce(window), qPrintable(status(window)));
        ui::ResultsModel* model = window.resultsModel();
        const core::Decision& all = model->decision();
        QVERIFY(all.diagnostics.cascade.has_value());
        QCOMPARE(all.diagnostics.cascade->escalated, model->rowCount());
        QVERIFY(all.diagnostics.cascade->judge.find("127.0.0.1") != std::string::npos);
        QVERIFY(all.diagnostics.cascade->judge.find("judge-key") == std::string::npos);
        const auto cards = window.resultsView()->cards();
        QCOMPARE(cards.size(), qsizetype(model->rowCount()));
        for (int q = 0; q < model->rowCount(); ++q) {
            const core::QuestionOutcome& o = all.questions[size_t(q)];
            QVERIFY(o.escalation && o.escalation->escalated);
            QVERIFY2(o.escalation->stage2_error.find("did not answer") == std::string::npos,
                     o.escalation->stage2_error.c_str());
            const QString text = model->index(q).data(ui::ResultsModel::EscalationRole).toString();
            QVERIFY(text.startsWith(QStringLiteral("Escalated")));
            QCOMPARE(model->index(q).data(ui::ResultsModel::EscalatedByStage2Role).toBool(),
                     o.escalation->stage2_winner.has_value());
            int marks = 0;
            for (const auto& part : cards[q]->parts())
                if (part.kind == ui::ResultCard::Part::Escalation) {
                    ++marks;
                    QCOMPARE(part.text, text);
                }
            QCOMPARE(marks, 1);
            QVERIFY(cards[q]->spokenSummary().contains(text));
        }
        const QString shots = qEnvironmentVariable("DS_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            window.sideTabs()->setCurrentWidget(window.resultsView());
            QApplication::processEvents();
            QVERIFY(window.grab().save(shots + QStringLiteral("/cascade-window.png")));
            QVERIFY(cards[0]->grab().save(shots + QStringLiteral("/cascade-card.png")));
        }

        // Above the largest entropy a question can have: none escalated, no card marked.
        QVERIFY(doc->setSchemaMember("cascade_threshold", "100", QStringLiteral("threshold")));
        QVERIFY2(runOnce(window), qPrintable(status(window)));
        QCOMPARE(model->decision().diagnostics.cascade->escalated, 0);
        for (int q = 0; q < model->rowCount(); ++q)
            QVERIFY(model->index(q).data(ui::ResultsModel::EscalationRole).toString().isEmpty());

        // A profile that does not exist, and on_miss (no expected answers in one decision).
        QVERIFY(doc->setSchemaMember("cascade_endpoint", "\"Nowhere\"", QStringLiteral("judge")));
        QVERIFY(!runOnce(window));
        QVERIFY2(status(window).contains(QStringLiteral("cascade_endpoint \"Nowhere\"")) &&
                     status(window).contains(QStringLiteral("Stage 2 judge")),
                 qPrintable(status(window)));
        QVERIFY(doc->setSchemaMember("cascade_mode", "\"on_miss\"", QStringLiteral("cascade")));
        QVERIFY(!runOnce(window));
        QVERIFY2(status(window).contains(QStringLiteral("on_miss")), qPrintable(status(window)));
    }
};

QTEST_MAIN(CascadeResultsTest)
#include "tst_cascade_results.moc"
