// The results view of a multi-pass decision (a staged read with a thought), built from a real
// decision on the tiny model: the thought is shown collapsed under its toggle and opens with a
// click; a question its ask_if skipped gets a card that says why and draws no bars; the stages
// and passes are listed under the cards; the canvas view's model plans the read after the thought.
#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTest>
#include <QToolButton>
#include <filesystem>

#include "core/decide/local_backend.h"
#include "core/decide/read_stats.h"
#include "engine/engine.h"
#include "ui/canvas/canvas_model.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

class TestStagedResults : public QObject {
    Q_OBJECT

    std::unique_ptr<core::LocalBackend> backend_;
    core::Schema schema_;
    const nlohmann::ordered_json state_ = {{"ticket", "Where is my parcel? It is a week late."}};

  private Q_SLOTS:
    void initTestCase() {
        engine::EngineOptions options;
        options.model_dir = DS_TINY_MODEL_DIR;
        options.device = engine::Device::Cpu;
        auto opened = core::LocalBackend::open(options);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        backend_ = std::move(opened.value());
        // "late" is asked only when the category is shipping, "other_text" only when it is
        // other: whatever the tiny model answers, at least one of them is skipped.
        auto schema = core::parse_schema(nlohmann::ordered_json::parse(R"({
          "questions": {
            "category": {"type": "choice", "prompt": "Which category?",
                         "options": {"billing": "money", "shipping": "parcels", "other": "rest"}},
            "late": {"type": "boolean", "question": "Is it late?",
                     "ask_if": {"category": ["shipping"]}},
            "other_text": {"type": "boolean", "question": "Needs a person?",
                           "ask_if": {"category": ["other"]}}},
          "think": 6, "samples": 2})"),
                                         "staged");
        QVERIFY2(schema.ok(), schema.ok() ? "" : schema.error().message.c_str());
        schema_ = *schema;
    }

    void thoughtSkipsAndStages() {
        auto d = backend_->decide({schema_, state_, 42}, {}, {});
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
        QVERIFY(d->thought.has_value());

        ui::ResultsModel model;
        ui::HistoryModel history(10);
        ui::ResultsView view(&model, &history);
        view.resize(900, 700);
        view.show();
        model.setDecision(*d);
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        // The thought: a toggle naming its length, its text hidden until opened.
        QToolButton* toggle = view.thoughtToggle();
        QVERIFY(toggle->isVisible());
        QVERIFY2(toggle->text().contains(QString::number(d->thought->tokens)),
                 qPrintable(toggle->text()));
        QVERIFY(!view.thoughtText()->isVisible());
        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(view.thoughtText()->isVisible());
        QCOMPARE(view.thoughtText()->toPlainText(), QString::fromStdString(d->thought->text));

        // One card per question; a skipped one says why in its model row and its summary.
        const auto cards = view.cards();
        QCOMPARE(cards.size(), 3);
        int skipped = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex i = model.index(r);
            const QString why = i.data(ui::ResultsModel::SkipRole).toString();
            if (why.isEmpty()) continue;
            ++skipped;
            QVERIFY2(why.contains(QStringLiteral("category")), qPrintable(why));
            QVERIFY(i.data(Qt::DisplayRole).toString().endsWith(QStringLiteral("skipped")));
            QVERIFY(i.data(ui::ResultsModel::MeanRole).value<QList<double>>().isEmpty());
        }
        QVERIFY(skipped >= 1);
        // The stages and passes under the cards.
        const QString timings = view.timingsText();
        QVERIFY2(timings.contains(QStringLiteral("stage")), qPrintable(timings));
        QVERIFY2(timings.contains(QStringLiteral("1: category")), qPrintable(timings));
        QVERIFY2(timings.contains(QString::number(d->passes) + QStringLiteral(" decoder passes")),
                 qPrintable(timings));
        // Painting every card (the skipped one without bars) does not crash and gives pixels.
        for (auto* card : cards) QVERIFY(!card->grab().isNull());

        // The canvas view's model: after the run's thought, the prompt ends with it.
        ui::CanvasModel canvas;
        canvas.setDebounceMs(0);
        std::shared_ptr<const engine::Tokenizer> tok(&backend_->engine().tokenizer(),
                                                     [](const engine::Tokenizer*) {});
        canvas.setTokenizer(tok);
        canvas.setInput(schema_, state_);
        QVERIFY(canvas.rebuildNow());
        QVERIFY(canvas.summary().contains(QStringLiteral("thinks first")));
        canvas.setThought(d->thought->ids);
        QVERIFY(canvas.rebuildNow());
        const auto chips = canvas.promptChips();
        QVERIFY(!chips.empty());
        const size_t n = d->thought->ids.size();
        QVERIFY(chips.size() > n + 1);
        for (size_t k = 0; k < n; ++k)
            QCOMPARE(chips[chips.size() - 1 - n + k].id, d->thought->ids[k]);
        QCOMPARE(chips.back().id, core::thought_close_id(*tok));
        QVERIFY2(canvas.summary().contains(QStringLiteral("after the last run's thought")),
                 qPrintable(canvas.summary()));
        // Editing the input drops the thought: it belonged to the run.
        auto changed = state_;
        changed["ticket"] = "Another ticket";
        canvas.setInput(schema_, changed);
        QVERIFY(canvas.rebuildNow());
        QVERIFY(!canvas.hasThought());
    }
};

QTEST_MAIN(TestStagedResults)
#include "tst_staged_results.moc"
