// Loading the local model with progress: the engine reports reading (a fraction of the weights'
// bytes), binding (a fraction of the layers) and warming, in that order, each from 0 to 1, and
// stops with "cancelled" when asked; the Studio starts the load in the background when it opens
// on a local profile, shows the stage and percentage in the status bar, lets a run wait for it
// (the Run action says so), and Esc cancels the loading.
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "engine/engine.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace {
struct Report {
    engine::LoadStage stage;
    double fraction;
};

engine::EngineOptions tiny_options() {
    engine::EngineOptions o;
    o.model_dir = DS_TINY_MODEL_DIR;
    o.device = engine::Device::Cpu;
    o.threads = 1;
    o.warm_up = true;
    return o;
}
}  // namespace

class ModelLoadingTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    ui::MainWindowOptions windowOptions() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        return o;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_TINY_MODEL_DIR "/config.json")))
            QSKIP("no tiny model: build the tiny_model target first");
        ui_test::isolateSettings(dir_);
    }

    void engineReportsEachStage() {
        std::vector<Report> reports;
        auto o = tiny_options();
        o.load_progress = [&](engine::LoadStage s, double f) { reports.push_back({s, f}); };
        auto opened = engine::Engine::open(o);
        QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
        const int layers = opened.value()->info().num_layers;
        // Stages in order, each from 0 to 1, never going back.
        std::vector<engine::LoadStage> order;
        for (const Report& r : reports)
            if (order.empty() || order.back() != r.stage) order.push_back(r.stage);
        QCOMPARE(order.size(), size_t(3));
        QVERIFY(order[0] == engine::LoadStage::Reading);
        QVERIFY(order[1] == engine::LoadStage::Binding);
        QVERIFY(order[2] == engine::LoadStage::Warming);
        std::map<engine::LoadStage, std::vector<double>> by_stage;
        for (const Report& r : reports) by_stage[r.stage].push_back(r.fraction);
        for (auto& [stage, fractions] : by_stage) {
            QCOMPARE(fractions.front(), 0.0);
            QCOMPARE(fractions.back(), 1.0);
            QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        }
        // Reading reports as the bytes come in (69 MB of weights, a report per 8 MiB).
        const auto& reading = by_stage[engine::LoadStage::Reading];
        const int partial = int(
            std::count_if(reading.begin(), reading.end(), [](double f) { return f > 0 && f < 1; }));
        QVERIFY2(partial >= 5, qPrintable(QString::number(partial)));
        // Binding reports every layer.
        const auto& binding = by_stage[engine::LoadStage::Binding];
        for (int l = 1; l <= layers; ++l)
            QVERIFY(std::find(binding.begin(), binding.end(), double(l) / layers) != binding.end());
    }

    void engineCancels_data() {
        QTest::addColumn<int>("stage");
        QTest::newRow("while reading") << int(engine::LoadStage::Reading);
        QTest::newRow("while binding") << int(engine::LoadStage::Binding);
        QTest::newRow("while warming") << int(engine::LoadStage::Warming);
    }
    void engineCancels() {
        QFETCH(int, stage);
        auto o = tiny_options();
        bool later_stage = false;
        o.load_progress = [&, cancel = o.cancel](engine::LoadStage s, double) {
            if (int(s) == stage) cancel.cancel();
            if (int(s) > stage) later_stage = true;
        };
        auto opened = engine::Engine::open(o);
        QVERIFY(!opened);
        QVERIFY(opened.error().kind == engine::ErrorKind::Cancelled);
        QVERIFY(!later_stage);
    }

    void studioLoadsInTheBackground() {
        ui::MainWindow window(windowOptions());
        QSignalSpy progress(&window, &ui::MainWindow::loadProgress);
        QSignalSpy built(&window, &ui::MainWindow::backendBuilt);
        window.show();
        // Started by opening the window, before any run.
        QVERIFY(window.backendLoading());
        QVERIFY(window.loadProgressBar()->isVisible());
        QVERIFY(window.loadLabel()->text().contains(QStringLiteral("Loading the model")));
        int shown_percent = -1;
        connect(&window, &ui::MainWindow::loadProgress, this, [&](const QString& s, double f) {
            if (s == QLatin1String("reading") && f > 0 && f < 1)
                shown_percent = window.loadProgressBar()->value();
        });
        QVERIFY(built.wait(120000));
        QCOMPARE(built.first().first().toBool(), true);
        QVERIFY(window.backendReady());
        QVERIFY(!window.backendLoading());
        QVERIFY(!window.loadProgressBar()->isVisible());
        QVERIFY2(shown_percent > 0 && shown_percent < 100,
                 qPrintable(QString::number(shown_percent)));
        QStringList stages;
        for (const auto& args : progress) {
            const QString s = args.at(0).toString();
            if (stages.isEmpty() || stages.back() != s) stages << s;
        }
        QCOMPARE(stages, (QStringList{QStringLiteral("reading"), QStringLiteral("binding"),
                                      QStringLiteral("warming")}));
        QCOMPARE(progress.last().at(1).toDouble(), 1.0);
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("tiny")));
    }

    void runWaitsForTheModel() {
        ui::MainWindow window(windowOptions());
        window.show();
        QVERIFY(window.backendLoading());
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        // Run says what it waits for, and does not start a second run meanwhile.
        QVERIFY2(window.runAction()->text().contains(QStringLiteral("Waiting for the model")),
                 qPrintable(window.runAction()->text()));
        QVERIFY(!window.runAction()->isEnabled());
        QVERIFY(!window.run());
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.first().first().toBool());
        QCOMPARE(window.runAction()->text(), QStringLiteral("&Run decision"));
    }

    void escCancelsTheLoading() {
        ui::MainWindow window(windowOptions());
        window.show();
        QSignalSpy built(&window, &ui::MainWindow::backendBuilt);
        QVERIFY(window.backendLoading());
        window.cancelRun();  // Esc with no run: the loading stops
        QVERIFY(built.wait(120000));
        QCOMPARE(built.first().first().toBool(), false);
        QVERIFY(!window.backendReady());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
        // The next run loads it again.
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.first().first().toBool());
    }
};

QTEST_MAIN(ModelLoadingTest)
#include "tst_model_loading.moc"
