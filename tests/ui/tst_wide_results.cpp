// A wide question's result in the Studio, from a real 77-option decision on the tiny model
// (the shipped intent router's shape: a bracket tournament): the card shows the five likeliest
// options with bars and error bars and folds the rest into "and 72 more", which opens a list of
// every option that a search narrows; the canvas view plans Round 1 (every bracket a slot).
// DS_SCREENSHOT_DIR: the card and the list (wide-card.png, wide-options.png).
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QTableView>
#include <QTest>

#include "core/decide/local_backend.h"
#include "core/decide/tournament.h"
#include "engine/engine.h"
#include "ui/canvas/canvas_model.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"
#include "ui/results/wide_options_dialog.h"

using ojson = nlohmann::ordered_json;

class TestWideResults : public QObject {
    Q_OBJECT

    std::unique_ptr<core::LocalBackend> backend_;
    core::Schema schema_;
    const ojson state_ = {{"message", "my new card has not arrived after two weeks"}};

  private Q_SLOTS:
    void initTestCase() {
        engine::EngineOptions options;
        options.model_dir = DS_TINY_MODEL_DIR;
        options.device = engine::Device::Cpu;
        auto opened = core::LocalBackend::open(options);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        backend_ = std::move(opened.value());
        ojson options_list = ojson::array();
        for (int i = 1; i <= 77; ++i)
            options_list.push_back({{"name", "intent " + std::to_string(i)},
                                    {"description", "topic " + std::to_string(i)}});
        auto schema = core::parse_schema(ojson{{"questions",
                                                {{{"id", "intent"},
                                                  {"type", "choice"},
                                                  {"instructions", "What does the customer want?"},
                                                  {"options", options_list}}}},
                                               {"samples", 4}},
                                         "wide");
        QVERIFY2(schema.ok(), schema.ok() ? "" : schema.error().message.c_str());
        schema_ = *schema;
    }

    void cardFoldsAndListSearches() {
        auto d = backend_->decide({schema_, state_, 42}, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        ui::ResultsModel model;
        ui::HistoryModel history(10);
        ui::ResultsView view(&model, &history);
        view.resize(760, 600);
        view.show();
        model.setDecision(*d);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto cards = view.cards();
        QCOMPARE(cards.size(), 1);
        ui::ResultCard* card = cards.front();

        // Five bars, the likeliest first, the winner among them; the rest folded.
        const QList<int> shown = card->shownLabels();
        QCOMPARE(shown.size(), ui::ResultCard::kTopOptions);
        const auto& mean = d->questions[0].mean;
        QCOMPARE(shown.front(), d->questions[0].winner);
        for (int i = 1; i < shown.size(); ++i) QVERIFY(mean[shown[i - 1]] >= mean[shown[i]]);
        int tracks = 0, error_bars = 0;
        QString more;
        QRect more_rect;
        for (const auto& part : card->parts()) {
            tracks += part.kind == ui::ResultCard::Part::Track;
            error_bars += part.kind == ui::ResultCard::Part::ErrorBar;
            if (part.kind == ui::ResultCard::Part::More) {
                more = part.text;
                more_rect = part.rect;
            }
        }
        QCOMPARE(tracks, 5);
        QCOMPARE(error_bars, 5);  // four draws: every shown option has an error bar
        QCOMPARE(more, QStringLiteral("and 72 more…"));

        const QString shots = qEnvironmentVariable("DS_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QVERIFY(card->grab().save(shots + QStringLiteral("/wide-card.png")));
        }

        // Clicking "more" opens the list of all 77, likeliest first; typing narrows it.
        QTest::mouseClick(card, Qt::LeftButton, {}, more_rect.center());
        auto* dialog = card->findChild<ui::WideOptionsDialog*>();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QCOMPARE(dialog->visibleOptions(), 77);
        const QAbstractItemModel* rows = dialog->table()->model();
        QCOMPARE(rows->index(0, 1).data().toString(),
                 QString::fromStdString(d->questions[0].alternatives[d->questions[0].winner]));
        QTest::keyClicks(dialog->searchField(), QStringLiteral("intent 7"));
        // "intent 7" and "intent 70" to "intent 77".
        QCOMPARE(dialog->visibleOptions(), 9);
        if (!shots.isEmpty()) {
            dialog->searchField()->clear();
            QVERIFY(dialog->grab().save(shots + QStringLiteral("/wide-options.png")));
        }
        dialog->close();
    }

    // The canvas view plans Round 1: every bracket is a slot of the one prompt's canvas.
    void canvasShowsTheBrackets() {
        ui::CanvasModel canvas;
        canvas.setDebounceMs(0);
        std::shared_ptr<const engine::Tokenizer> tok(&backend_->engine().tokenizer(),
                                                     [](const engine::Tokenizer*) {});
        canvas.setTokenizer(tok);
        canvas.setInput(schema_, state_);
        QVERIFY(canvas.rebuildNow());
        const QString summary = canvas.summary();
        QVERIFY2(summary.contains(QStringLiteral("round 1 of intent's tournament: 4 brackets "
                                                 "of its 77 options")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("4 slot(s)")), qPrintable(summary));
        QCOMPARE(canvas.finalGroups(), 0);
        QCOMPARE(canvas.plan()->groups.size(), size_t(1));

        // After a run, the plan goes on with the final over that run's finalists, with the
        // canvas the executor read.
        auto d = backend_->decide({schema_, state_, 42}, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        const auto& finalists = d->diagnostics.wide.at("intent").finalists;
        canvas.setFinalists({{"intent", finalists}});
        QVERIFY(canvas.rebuildNow());
        QCOMPARE(canvas.finalGroups(), 1);
        QCOMPARE(canvas.plan()->groups.size(), size_t(2));
        const auto& final_group = canvas.plan()->groups[1];
        QCOMPARE(final_group.answer_slots.size(), size_t(1));
        QCOMPARE(final_group.answer_slots[0].question, std::string("intent"));
        QCOMPARE(final_group.answer_slots[0].labels.size(), finalists.size());
        QCOMPARE(final_group.answer_slots[0].pos, d->questions[0].pos);
        QVERIFY2(canvas.summary().contains(QStringLiteral("the final over the last run's")),
                 qPrintable(canvas.summary()));
        // A change of the input drops the finalists (they belong to the run that chose them).
        canvas.setInput(schema_, ojson{{"message", "another message"}});
        QVERIFY(canvas.rebuildNow());
        QCOMPARE(canvas.finalGroups(), 0);
    }
};

QTEST_MAIN(TestWideResults)
#include "tst_wide_results.moc"
