// The canvas view shows the plan's prompt and canvas as token chips, with the answer slots at
// the plan's positions carrying their label sets and the chosen draw's noise; the layout switch
// rebuilds the plan. Real tokenizer, real planner.
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include "core/decide/canvas_plan.h"
#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_view.h"
#include "ui/canvas/token_flow.h"
#include "ui/editor/policy_document.h"

class CanvasViewTest : public QObject {
    Q_OBJECT
    std::shared_ptr<const engine::Tokenizer> tokenizer_;
    ui::PolicyDocument doc_;

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_TOKENIZER_JSON)))
            QSKIP("no tokenizer: run scripts/prepare-tokenizer.sh for this build folder");
        auto loaded = engine::Tokenizer::load(DS_TOKENIZER_JSON);
        QVERIFY(loaded.ok());
        tokenizer_ = std::make_shared<const engine::Tokenizer>(std::move(loaded.value()));
        QFile tmpl(QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl"));
        QFile vars(QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.vars.json"));
        QVERIFY(tmpl.open(QIODevice::ReadOnly) && vars.open(QIODevice::ReadOnly));
        doc_.load(QStringLiteral("support_triage"), tmpl.fileName(),
                  QString::fromUtf8(tmpl.readAll()),
                  nlohmann::json::parse(vars.readAll().toStdString()));
        QVERIFY(doc_.valid());
    }

    void slotsAtThePlanPositions() {
        ui::CanvasModel model;
        model.setTokenizer(tokenizer_);
        model.setInput(*doc_.schema(), doc_.state());
        ui::CanvasView view(&model);
        view.resize(900, 700);
        QVERIFY(model.rebuildNow());

        core::PlanOptions options;
        options.layout = core::Layout::DocumentFirst;
        options.seed = 42;
        auto plan = core::build_plan(*doc_.schema(), doc_.state(), *tokenizer_, options);
        QVERIFY(plan.ok());
        const core::ReadGroup& group = plan->groups[0];

        // Prompt chips: every prompt id, in order.
        const auto& prompt = view.promptFlow()->chips();
        QCOMPARE(prompt.size(), group.prompt_ids.size());
        for (size_t i = 0; i < prompt.size(); ++i) QCOMPARE(prompt[i].id, group.prompt_ids[i]);
        // Canvas chips: exactly the first draw's canvas, slots where the plan puts them.
        const auto& canvas = view.canvasFlow()->chips();
        QCOMPARE(int(canvas.size()), group.width);
        std::vector<int32_t> first_draw;
        for (const auto& row : plan->rows)
            if (row.group == 0 && row.draw == 0) first_draw = row.canvas_ids;
        QCOMPARE(int(first_draw.size()), group.width);
        int slots = 0;
        for (const auto& chip : canvas) {
            QCOMPARE(chip.id, first_draw[size_t(chip.position)]);
            if (!chip.slot) continue;
            ++slots;
            const auto it =
                std::find_if(group.answer_slots.begin(), group.answer_slots.end(),
                             [&](const core::PlanSlot& s) { return s.pos == chip.position; });
            QVERIFY2(it != group.answer_slots.end(), "a slot chip where the plan has none");
            QCOMPARE(chip.question.toStdString(), it->question);
            QCOMPARE(chip.labels.size(), qsizetype(it->labels.size()));
            for (size_t l = 0; l < it->labels.size(); ++l) {
                QCOMPARE(chip.labels[qsizetype(l)].toStdString(), it->labels[l]);
                QCOMPARE(chip.label_ids[qsizetype(l)], it->label_ids[l]);
            }
            // The hover text names the position, the id and the label set.
            const int index = int(&chip - canvas.data());
            const QString tip = view.canvasFlow()->toolTipFor(index);
            QVERIFY2(tip.contains(QStringLiteral("position %1").arg(chip.position)),
                     qPrintable(tip));
            QVERIFY(tip.contains(QStringLiteral("id %1").arg(chip.id)));
            QVERIFY(!view.canvasFlow()->chipRect(index).isEmpty());
        }
        QCOMPARE(slots, int(group.answer_slots.size()));
        QVERIFY(view.summaryText().contains(QStringLiteral("width %1").arg(group.width)));

        // Another noise draw: same template, other noise at the slots only.
        model.setDraw(1);
        const auto& draw2 = view.canvasFlow()->chips();
        const auto expected =
            core::noise_canvas(group, group.seed + core::kDrawSeedStep, plan->seed_token);
        for (const auto& chip : draw2) QCOMPARE(chip.id, expected[size_t(chip.position)]);
    }

    void layoutSwitchRebuilds() {
        ui::CanvasModel model;
        model.setTokenizer(tokenizer_);
        model.setInput(*doc_.schema(), doc_.state());
        ui::CanvasView view(&model);
        QVERIFY(model.rebuildNow());
        const auto document_first = model.plan()->groups[0].prompt_ids;
        view.layoutSwitch()->setCurrentIndex(
            view.layoutSwitch()->findData(int(core::Layout::SchemaFirst)));
        QVERIFY(model.rebuildNow());
        QCOMPARE(model.plan()->layout, core::Layout::SchemaFirst);
        QVERIFY(model.plan()->groups[0].prompt_ids != document_first);
        core::PlanOptions options;
        options.layout = core::Layout::SchemaFirst;
        auto plan = core::build_plan(*doc_.schema(), doc_.state(), *tokenizer_, options);
        QVERIFY(plan.ok());
        QCOMPARE(view.promptFlow()->chips().size(), plan->groups[0].prompt_ids.size());
    }

    void policyChangesAreDebounced() {
        ui::CanvasModel model;
        model.setDebounceMs(50);
        model.setTokenizer(tokenizer_);
        QSignalSpy spy(&model, &ui::CanvasModel::planChanged);
        for (int i = 0; i < 5; ++i) model.setInput(*doc_.schema(), doc_.state());
        QTRY_VERIFY_WITH_TIMEOUT(model.plan().has_value(), 10000);
        QTest::qWait(200);
        QCOMPARE(spy.count(), 1);  // five quick changes, one rebuild
    }
};

QTEST_MAIN(CanvasViewTest)
#include "tst_canvas_view.moc"
