// The Compare view on the model the product ships as its default (the demo model, trained for the
// shipped policies; the tiny model where no demo model is built) through the local backend: Run >
// Compare slot vs generative (Ctrl+Shift+Return) shows both sides with the backend's numbers (the
// strip's texts are the Comparison's, the slot cards' winners and the generative reply are those of
// the same comparison run straight on a LocalBackend), the generation's passes arrive while it
// runs, a generative failure (a server without a chat route) is named in the right pane with the
// slot side kept, a comparison can be cancelled, and a suite run in RunMode Both fills the Bench
// view's per-item table and charts with core::compare's values. Pictures of one decision and of
// the suite charts are written to build/screenshots/ (compare-view.png, compare-suite.png).
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

#include "core/comparison/compare.h"
#include "core/decide/local_backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/reports/report.h"
#include "engine/engine.h"
#include "ui/bench/bench_window.h"
#include "ui/bench/comparison_items_model.h"
#include "ui/charts/chart_widget.h"
#include "ui/compare/compare_model.h"
#include "ui/compare/compare_runner.h"
#include "ui/compare/compare_window.h"
#include "ui/editor/policy_document.h"
#include "ui/i18n/format.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"

#include "ui_test_support.h"

namespace {

using namespace ui_test;

// The demo model writes the whole JSON object: the budget is sized to the questions (0). The
// random tiny model never ends its reply: a few completion tokens keep it to seconds.
const bool kDemoModel = QFile::exists(QStringLiteral(DS_DEMO_MODEL_DIR "/config.json")) &&
                        QStringLiteral(DS_DEFAULT_MODEL_DIR) == QStringLiteral(DS_DEMO_MODEL_DIR);
const int kMaxTokens = kDemoModel ? 0 : 16;

QString outDir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

bool savePicture(QWidget* widget, const QString& name) {
    QApplication::processEvents();
    const QImage image = widget->grab().toImage();
    const QString path = outDir() + QLatin1Char('/') + name;
    if (!image.save(path)) return false;
    qInfo("saved %s (%dx%d)", qPrintable(path), image.width(), image.height());
    return true;
}

engine::EngineOptions shippedEngine() {
    engine::EngineOptions eo;
    eo.model_dir = DS_DEFAULT_MODEL_DIR;
    eo.device = engine::Device::Cpu;
    return eo;
}

}  // namespace

class CompareViewTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<core::Backend> local_;  // a second backend of the same model

    ui::MainWindowOptions options() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_DEFAULT_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        o.compare.max_tokens = kMaxTokens;
        return o;
    }

    core::DecideRequest request(const ui::MainWindow& window) {
        core::DecideRequest r;
        r.schema = *window.document()->schema();
        r.schema.layout = core::Layout::DocumentFirst;
        r.state = window.document()->state();
        r.seed = window.runSeed();
        return r;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_DEFAULT_MODEL_DIR "/config.json")))
            QSKIP("no default model: build the tiny_model (or demo_model) target first");
        isolateSettings(dir_);
        auto opened = core::LocalBackend::open(shippedEngine());
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        local_ = std::shared_ptr<core::Backend>(std::move(opened.value()));
    }

    void bothSidesShowTheBackendsNumbers() {
        ui::MainWindow window(options());
        window.show();
        QCOMPARE(window.document()->name(), QStringLiteral("support_triage"));

        // Run > Compare slot vs generative, Ctrl+Shift+Return.
        QAction* action = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text().remove(QLatin1Char('&')) == QLatin1String("Compare slot vs generative"))
                action = a;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return));
        QVERIFY(action->isEnabled());

        QElapsedTimer timer;
        timer.start();
        action->trigger();
        ui::CompareWindow* view = window.compareView();
        QVERIFY(view);
        QVERIFY(!action->isEnabled());  // one run at a time on the backend
        QSignalSpy finished(view, &ui::CompareWindow::finished);
        // The generation's passes arrive while it runs, after the slot cards.
        bool cards_before_passes = true, busy_at_first_pass = false;
        int passes_seen = 0;
        connect(view->stepsModel(), &QAbstractItemModel::rowsInserted, this, [&] {
            if (view->stepsModel()->passes() != 1 || passes_seen++) return;
            busy_at_first_pass = view->busy();
            cards_before_passes = !view->cards().isEmpty();
        });
        QVERIFY(finished.wait(600000));
        QVERIFY(finished.first().first().toBool());
        qInfo("comparison in the view: %.1f s", double(timer.elapsed()) / 1000.0);
        QVERIFY(action->isEnabled());

        const core::compare::Comparison& c = view->model()->comparison();
        QVERIFY2(c.slot.has_value(), c.slot_error.c_str());
        QVERIFY2(c.generation.has_value(), c.generation_error.c_str());
        QVERIFY(busy_at_first_pass);
        QVERIFY(cards_before_passes);
        QVERIFY(c.generative_timing.passes > 0);
        QCOMPARE(view->stepsModel()->passes(), c.generation->passes);

        // The strip says what the Comparison holds.
        const ui::CompareStrip strip = view->stripTexts();
        QCOMPARE(
            strip.passes,
            QStringLiteral("%1 vs %2").arg(c.slot_timing.passes).arg(c.generative_timing.passes));
        QCOMPARE(c.slot_timing.passes, 1);
        // Numbers as the locale writes them (75,383.7 in English).
        QCOMPARE(strip.latency, QStringLiteral("slot %1 ms · generative %2 ms")
                                    .arg(ui::formatNumber(c.slot_timing.latency_ms, 1),
                                         ui::formatNumber(c.generative_timing.latency_ms, 1)));
        const double ratio = c.latency_ratio();
        QVERIFY(ratio > 0);
        QCOMPARE(ratio, c.generative_timing.latency_ms / c.slot_timing.latency_ms);
        QCOMPARE(strip.ratio, QStringLiteral("%1×").arg(ui::formatNumber(ratio, 1)));
        QCOMPARE(strip.agreement,
                 QStringLiteral("%1 of %2 answered by both").arg(c.agreeing).arg(c.compared));
        if (c.generative.valid) {
            QCOMPARE(strip.validity, QStringLiteral("valid JSON"));
            QVERIFY(view->validityText().contains(QStringLiteral("Valid")));
        } else {
            QCOMPARE(
                strip.validity,
                QStringLiteral("invalid: %1").arg(QString::fromStdString(c.generative.reason())));
            for (const auto& r : c.generative.reasons)
                QVERIFY2(view->validityText().contains(QString::fromStdString(r).toHtmlEscaped()),
                         qPrintable(view->validityText()));
        }
        QVERIFY(view->generativeErrorText().isEmpty());
        QVERIFY(view->slotErrorText().isEmpty());
        if (kDemoModel) {
            // The demo model (unlike the random tiny one) starts the object the policy asks for
            // with its first question, and its slots route the sample ticket (a double charge) to
            // billing. Its reply to this ticket is not valid JSON yet: the sentiment comes out
            // as a blend of two labels (README, "Where it stands"; issue 36's aim is 90% valid).
            QVERIFY2(c.generation->text.rfind("{\"urgent\": \"", 0) == 0,
                     c.generation->text.c_str());
            const auto team = std::find_if(c.questions.begin(), c.questions.end(),
                                           [](const auto& q) { return q.id == "team"; });
            QVERIFY(team != c.questions.end() && team->slot_winner >= 0);
            QCOMPARE(team->alternatives[size_t(team->slot_winner)], std::string("billing"));
        }

        // The backend's numbers: the same comparison straight on a LocalBackend of the model.
        core::compare::CompareOptions o;
        o.max_tokens = kMaxTokens;
        timer.restart();
        const core::compare::Comparison direct =
            core::compare::run_comparison(*local_, request(window), o, {}, {});
        qInfo(
            "the same comparison on a LocalBackend: %.1f s (slot %.1f ms, generative %.1f ms; "
            "in the view: slot %.1f ms, generative %.1f ms)",
            double(timer.elapsed()) / 1000.0, direct.slot_timing.latency_ms,
            direct.generative_timing.latency_ms, c.slot_timing.latency_ms,
            c.generative_timing.latency_ms);
        QVERIFY(direct.slot && direct.generation);
        QCOMPARE(c.generation->text, direct.generation->text);
        QCOMPARE(c.generation->passes, direct.generation->passes);
        QCOMPARE(c.generative_timing.passes, direct.generative_timing.passes);
        QCOMPARE(c.agreeing, direct.agreeing);
        QCOMPARE(c.compared, direct.compared);
        QCOMPARE(c.generative.valid, direct.generative.valid);
        QCOMPARE(c.generative.reasons, direct.generative.reasons);
        QCOMPARE(view->rawText(), QString::fromStdString(c.generation->text));

        // Left: one card per question with the slot's winner; the table: both answers.
        const auto cards = view->cards();
        QCOMPARE(cards.size(), qsizetype(direct.slot->questions.size()));
        QCOMPARE(view->model()->rowCount(), int(direct.questions.size()));
        for (int q = 0; q < int(direct.questions.size()); ++q) {
            const auto& expected = direct.questions[size_t(q)];
            const auto& outcome = direct.slot->questions[size_t(q)];
            const QModelIndex card = cards[q]->index();
            QCOMPARE(card.data(ui::ResultsModel::IdRole).toString().toStdString(), outcome.id);
            QCOMPARE(card.data(ui::ResultsModel::WinnerRole).toInt(), outcome.winner);
            const auto mean = card.data(ui::ResultsModel::MeanRole).value<QList<double>>();
            for (int l = 0; l < mean.size(); ++l)
                QVERIFY(std::abs(mean[l] - outcome.mean[size_t(l)]) < 1e-9);
            auto* m = view->model();
            QCOMPARE(m->index(q, ui::CompareModel::Question).data().toString().toStdString(),
                     expected.id);
            QCOMPARE(m->index(q, 0).data(ui::CompareModel::SlotWinnerRole).toInt(),
                     expected.slot_winner);
            QCOMPARE(m->index(q, 0).data(ui::CompareModel::GenerativeRole).toInt(),
                     expected.generative);
            QCOMPARE(m->index(q, ui::CompareModel::Slot).data().toString().toStdString(),
                     expected.alternatives[size_t(expected.slot_winner)]);
            if (expected.generative >= 0)
                QCOMPARE(m->index(q, ui::CompareModel::Generative).data().toString().toStdString(),
                         expected.alternatives[size_t(expected.generative)]);
        }

        // One decision, both sides (real X under ui_compare_view_xvfb).
        view->resize(1500, 950);
        view->show();
        QVERIFY(savePicture(view, QStringLiteral("compare-view.png")));
    }

    // No chat route: the message names what is missing, in the right pane; the cards stay.
    void generativeFailureKeepsTheSlotSide() {
        ui::MainWindow window(options());
        ui::CompareWindow view;
        QSignalSpy finished(&view, &ui::CompareWindow::finished);
        QVERIFY(view.start(std::make_shared<NoChatRoute>(local_), request(window), {},
                           QStringLiteral("support_triage"), QStringLiteral("systemone-only")));
        QVERIFY(finished.wait(300000));
        QVERIFY(finished.first().first().toBool());
        const auto& c = view.model()->comparison();
        QVERIFY(c.slot.has_value());
        QVERIFY(!c.generation.has_value());
        const QString message =
            QString::fromStdString(core::compare::generative_error_message(NoChatRoute::error()));
        QCOMPARE(view.generativeErrorText(), message);
        QVERIFY(message.contains(QStringLiteral("/v1/chat/completions")));
        QVERIFY(view.statusText().contains(message));
        QCOMPARE(view.cards().size(), qsizetype(c.slot->questions.size()));
        QVERIFY(view.slotErrorText().isEmpty());
        QVERIFY(view.rawText().isEmpty());
        QCOMPARE(view.stripTexts().validity, QStringLiteral("no answer"));
        QCOMPARE(view.stripTexts().passes, QStringLiteral("1 vs —"));
    }

    // Cancel while the generation runs: nothing is delivered late, and it runs again.
    void cancelWhileGenerating() {
        ui::MainWindow window(options());
        ui::CompareWindow view;
        QSignalSpy finished(&view, &ui::CompareWindow::finished);
        core::compare::CompareOptions o;
        o.max_tokens = 64;
        QVERIFY(view.start(local_, request(window), o, QStringLiteral("support_triage"),
                           QStringLiteral("local")));
        QTRY_VERIFY_WITH_TIMEOUT(view.stepsModel()->passes() >= 1, 300000);
        view.cancel();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!view.busy());
        QVERIFY(view.runner()->waitForIdle(300000));
        QVERIFY(!view.model()->hasComparison());
        QCOMPARE(finished.size(), 1);
    }

    // A suite run in RunMode Both: the per-item table and the charts carry core::compare's values.
    void suiteComparison() {
        ui::BenchWindowOptions bo;
        bo.jevbench_dir = dir_.filePath(QStringLiteral("no-jevbench"));
        bo.suites_dir = QStringLiteral(DS_SOURCE_DIR "/resources/suites");
        bo.runs_dir = dir_.filePath(QStringLiteral("runs"));
        ui::BenchWindow w(bo);
        w.resize(1500, 1250);
        w.setEndpoints(localStore());
        QVERIFY2(w.selectSuite(QStringLiteral(DS_SOURCE_DIR "/resources/suites/policies.jsonl")),
                 qPrintable(w.statusText()));
        w.setMode(core::eval::RunMode::Both);
        w.setGenerativeMaxTokens(kMaxTokens);
        w.setLimit(3);
        w.setWorkers(1);
        QSignalSpy finished(&w, &ui::BenchWindow::runFinished);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(w.run());
        QVERIFY(finished.wait(900000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(w.statusText()));
        qInfo("3 items in both modes: %.1f s", double(timer.elapsed()) / 1000.0);
        QCOMPARE(w.records().size(), size_t(3));
        for (const auto& r : w.records()) QVERIFY(r.generative.has_value());

        QVERIFY(w.suiteComparison().has_value());
        const auto& s = *w.suiteComparison();
        QCOMPARE(s.items, size_t(3));
        QCOMPARE(s.generative_replies, size_t(3));
        // The table: one row per item, core::compare::comparison_rows.
        ui::ComparisonItemsModel* model = w.comparisonModel();
        QCOMPARE(model->rowCount(), 3);
        for (int i = 0; i < 3; ++i) {
            const auto* row = model->row(i);
            QVERIFY(row && row->slot_latency_s && row->generative_latency_s);
            QCOMPARE(model->index(i, ui::ComparisonItemsModel::Id).data().toString().toStdString(),
                     w.records()[size_t(i)].id);
            QCOMPARE(model->index(i, ui::ComparisonItemsModel::Passes).data().toString(),
                     QString::number(row->generative_passes));
        }
        // The charts: latency per item, validity and agreement, accuracy of each mode.
        const std::vector<ReportChart> charts = w.comparisonCharts();
        QCOMPARE(charts.size(), size_t(3));
        const ReportChart* latency = chartTitled(charts, "Latency per item");
        QVERIFY(latency);
        QCOMPARE(latency->kind, ReportChart::Kind::Xy);
        QVERIFY(latency->log_y);
        const auto* slot = seriesNamed(*latency, "slot");
        const auto* gen = seriesNamed(*latency, "generative");
        QVERIFY(slot && gen);
        QCOMPARE(slot->points.size(), size_t(3));
        QCOMPARE(gen->points.size(), size_t(3));
        QCOMPARE(latency->x_labels.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const auto* row = model->row(int(i));
            QCOMPARE(latency->x_labels[i], row->id);
            QCOMPARE(slot->points[i].first, double(i));
            QCOMPARE(slot->points[i].second, *row->slot_latency_s * 1000.0);
            QCOMPARE(gen->points[i].first, double(i));
            QCOMPARE(gen->points[i].second, *row->generative_latency_s * 1000.0);
        }
        const ReportChart* rates = chartTitled(charts, "Generative validity");
        QVERIFY(rates);
        const auto* rate_set = setNamed(*rates, "rate");
        QVERIFY(rate_set);
        QCOMPARE(rate_set->values.size(), size_t(2));
        QCOMPARE(rate_set->values[0], s.valid_share * 100.0);
        QCOMPARE(rate_set->values[1], s.agreement * 100.0);
        const ReportChart* accuracy = chartTitled(charts, "Accuracy of each mode");
        QVERIFY(accuracy);
        QCOMPARE(accuracy->categories.size(), size_t(1));
        QCOMPARE(accuracy->sets.size(), size_t(2));
        QCOMPARE(accuracy->sets.at(0).name, std::string("slot"));
        QCOMPARE(accuracy->sets.at(1).name, std::string("generative"));
        QCOMPARE(accuracy->sets.at(0).values.at(0), s.slot.accuracy * 100.0);
        QCOMPARE(accuracy->sets.at(1).values.at(0), s.generative.accuracy * 100.0);
        // The very charts of the run's report (its slot-vs-generative section): the same SVG.
        const auto report = w.benchReport();
        QVERIFY(report.has_value());
        for (const auto& c : charts) {
            const ReportChart* in_report = nullptr;
            for (const auto& section : report->sections)
                for (const auto& r : section.charts)
                    if (r.title == c.title) in_report = &r;
            QVERIFY2(in_report, c.title.c_str());
            QCOMPARE(core::report::chart_svg(c, 640, 300),
                     core::report::chart_svg(*in_report, 640, 300));
        }
        // Each one shown by a ChartWidget of the comparison page.
        QCOMPARE(w.comparisonPage()->findChildren<ui::ChartWidget*>().size(), 3);
        // A point of the per-item latency chart narrows the table above to its item; again: all.
        auto* table = w.comparisonPage()->findChild<QTableView*>(QStringLiteral("comparisonTable"));
        QVERIFY(table);
        const int all_rows = table->model()->rowCount();
        QVERIFY(all_rows > 1);
        int per_item = 0;
        for (ui::ChartWidget* view : w.comparisonPage()->findChildren<ui::ChartWidget*>()) {
            if (!view->chart().title.starts_with("Latency per item")) continue;
            ++per_item;
            QVERIFY(view->zoomable());
            const auto& bins = view->chart().bins;
            QVERIFY(!bins.empty());
            const int last = static_cast<int>(bins.size()) - 1;
            view->chooseBin(last);
            QCOMPARE(table->model()->rowCount(), 1);
            QCOMPARE(table->model()->index(0, 0).data().toString().toStdString(),
                     bins.back().items.front());
            view->chooseBin(last);
            QCOMPARE(table->model()->rowCount(), all_rows);
        }
        QCOMPARE(per_item, 1);

        // Kept: reopened from its journal, the same comparison.
        const QStringList kept = w.keptRuns();
        QCOMPARE(kept.size(), 1);
        ui::BenchWindow again(bo);
        again.setEndpoints(localStore());
        QVERIFY(again.openRun(kept.first()));
        QVERIFY(again.suiteComparison().has_value());
        QCOMPARE(again.suiteComparison()->to_json().dump(), s.to_json().dump());
        QCOMPARE(again.mode(), core::eval::RunMode::Both);
        QCOMPARE(again.comparisonCharts().size(), size_t(3));

        w.show();
        w.showComparisonPage();
        QVERIFY(savePicture(&w, QStringLiteral("compare-suite.png")));

        // Generative alone: no slot side, the comparison shows the generative figures only.
        ui::BenchWindow gen_only(bo);
        gen_only.setEndpoints(localStore());
        QVERIFY(
            gen_only.selectSuite(QStringLiteral(DS_SOURCE_DIR "/resources/suites/policies.jsonl")));
        gen_only.setMode(core::eval::RunMode::Generative);
        gen_only.setGenerativeMaxTokens(kMaxTokens);
        gen_only.setLimit(1);
        QSignalSpy gen_finished(&gen_only, &ui::BenchWindow::runFinished);
        QVERIFY(gen_only.run());
        QVERIFY(gen_finished.wait(900000));
        QVERIFY2(gen_finished.first().first().toBool(), qPrintable(gen_only.statusText()));
        QCOMPARE(gen_only.records().size(), size_t(1));
        QVERIFY(gen_only.records().front().questions.empty());
        QVERIFY(gen_only.suiteComparison().has_value());
        QCOMPARE(gen_only.suiteComparison()->generative_replies, size_t(1));
        QCOMPARE(gen_only.suiteComparison()->slot.answers, size_t(0));
        const auto* only = gen_only.comparisonModel()->row(0);
        QVERIFY(only && !only->slot_latency_s && only->generative_latency_s);
        QCOMPARE(gen_only.comparisonCharts().size(), size_t(3));
    }
};

QTEST_MAIN(CompareViewTest)
#include "tst_compare_view.moc"
