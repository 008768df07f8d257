// A remote endpoint profile against a real decision server on loopback (core::DecisionServer,
// what `dgem serve` runs) over the tiny model: the Endpoints dialog's test-connection detects
// the protocol from /health, a run in the main window goes over HTTP with the server key, and
// its cards equal the numbers of the same backend asked directly. A wrong key shows the 401
// next to the run.
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/decide/local_backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "ui/editor/policy_document.h"
#include "ui/endpoints/endpoints_dialog.h"
#include "ui/main_window.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

#include "ui_test_support.h"

class RemoteProfileTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ui_test::LoopbackServer server_;

    core::EndpointProfile profile() const {
        core::EndpointProfile p;
        p.name = "Loopback serve";
        p.kind = core::EndpointKind::Auto;
        p.url = server_.url();
        p.server_key = true;
        p.timeout_s = 300;
        return p;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_TINY_MODEL_DIR "/config.json")))
            QSKIP("no tiny model: build the tiny_model target first");
        ui_test::isolateSettings(dir_);
        const std::string error = server_.start("loopback-key", "tiny");
        QVERIFY2(error.empty(), error.c_str());
        // The client's key comes from DGEM_SERVER_KEY when the keychain has none.
        qputenv("DGEM_SERVER_KEY", "loopback-key");
    }

    void cleanupTestCase() { server_.stop(); }

    void testConnectionDetectsTheServer() {
        core::EndpointProfileStore store;
        store.profiles = {profile()};
        store.active = store.profiles[0].name;
        ui::EndpointsDialog dialog(store);
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.testRunning(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.statusText().startsWith(QStringLiteral("Connecting")),
                                 5000);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("Ready")),
                 qPrintable(dialog.statusText()));
        QVERIFY2(dialog.statusText().contains(QStringLiteral("protocol")),
                 qPrintable(dialog.statusText()));
    }

    void runOverHttpEqualsTheBackend() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        ui::MainWindow window(o);
        core::EndpointProfileStore store = window.endpoints();
        store.profiles.push_back(profile());
        store.active = profile().name;
        window.setEndpoints(store);
        QVERIFY(window.endpointStatusText().contains(QString::fromStdString(profile().url)));

        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        QVERIFY(finished.wait(300000));
        QVERIFY2(
            finished.first().first().toBool(),
            qPrintable(
                window.resultsView()->findChild<QLabel*>(QStringLiteral("runStatus"))->text()));

        core::DecideRequest request;
        request.schema = *window.document()->schema();
        request.schema.layout = core::Layout::DocumentFirst;
        request.state = window.document()->state();
        request.seed = window.runSeed();
        auto direct = server_.backend()->decide(request, {}, {});
        QVERIFY(direct.ok());
        ui::ResultsModel* model = window.resultsModel();
        QCOMPARE(model->rowCount(), int(direct->questions.size()));
        for (int q = 0; q < model->rowCount(); ++q) {
            const auto mean =
                model->index(q).data(ui::ResultsModel::MeanRole).value<QList<double>>();
            const auto& expected = direct->questions[size_t(q)];
            QCOMPARE(mean.size(), qsizetype(expected.mean.size()));
            // The wire carries probabilities as JSON numbers: equal to 1e-9.
            for (int l = 0; l < mean.size(); ++l)
                QVERIFY(std::abs(mean[l] - expected.mean[size_t(l)]) < 1e-9);
            QCOMPARE(model->index(q).data(ui::ResultsModel::WinnerRole).toInt(), expected.winner);
        }
        QVERIFY(window.resultsView()->timingsText().contains(QStringLiteral("network")));

        // The wrong key: the 401 is reported next to the run.
        qputenv("DGEM_SERVER_KEY", "wrong-key");
        store = window.endpoints();
        store.profiles.back().name = "Loopback serve (wrong key)";
        store.active = store.profiles.back().name;
        window.setEndpoints(store);
        QVERIFY(window.run());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.last().first().toBool(), false);
        const QString status =
            window.resultsView()->findChild<QLabel*>(QStringLiteral("runStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral("401")), qPrintable(status));
        qputenv("DGEM_SERVER_KEY", "loopback-key");
    }
};

QTEST_MAIN(RemoteProfileTest)
#include "tst_remote_profile.moc"
