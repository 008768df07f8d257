// Screen readers and the keyboard: a result card names its answer ("urgent: no, 91.8 percent,
// somewhat unsure") and has one accessible progress bar per label with its value and stderr; the
// canvas's token chips are accessible list items, walked with the arrow keys (N/P jump between
// answer slots) while the view spells out the current chip; in the main window Alt+5 puts the
// focus on the first card and Tab walks the cards.
#include <QAccessible>
#include <QApplication>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_view.h"
#include "ui/canvas/token_flow.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"
#include "ui_test_support.h"

namespace {
// Two questions with hand-set numbers: a yes/no read four times, and a choice.
core::Decision decision() {
    core::QuestionOutcome urgent;
    urgent.id = "urgent";
    urgent.type = core::QuestionType::Noul;
    urgent.labels = {"yes", "no"};
    urgent.alternatives = {"yes", "no"};
    urgent.per_read = {{0.1, 0.9}, {0.05, 0.95}, {0.12, 0.88}, {0.058, 0.942}};
    urgent.mean = {0.082, 0.918};
    urgent.winner = 1;
    urgent.confidence = 0.918;
    urgent.hesitation = 0.41;  // between 0.16 and 0.5: "Somewhat unsure"
    urgent.stderr_labels = {0.039, 0.039};
    urgent.stderr_winner = 0.039;
    urgent.agreement = 1;
    core::QuestionOutcome team;
    team.id = "team";
    team.type = core::QuestionType::Choice;
    team.labels = {"A", "B", "C"};
    team.alternatives = {"billing", "support", "engineering"};
    team.per_read = {{0.2, 0.3, 0.5}};
    team.mean = {0.2, 0.3, 0.5};
    team.winner = 2;
    team.confidence = 0.5;
    team.hesitation = 0.94;
    core::Decision d;
    d.questions = {urgent, team};
    d.samples = 4;
    d.reads = 4;
    return d;
}

std::vector<ui::TokenChip> chips() {
    std::vector<ui::TokenChip> out;
    for (int i = 0; i < 12; ++i) {
        ui::TokenChip c;
        c.position = i;
        c.id = 1000 + i;
        c.text = QStringLiteral("tok%1").arg(i);
        if (i == 4 || i == 9) {
            c.slot = true;
            c.question = i == 4 ? QStringLiteral("urgent") : QStringLiteral("team");
            c.labels = i == 4 ? QStringList{QStringLiteral("yes"), QStringLiteral("no")}
                              : QStringList{QStringLiteral("A"), QStringLiteral("B")};
            c.label_ids = {7, 8};
        }
        out.push_back(c);
    }
    return out;
}
}  // namespace

class AccessibilityTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private Q_SLOTS:
    void initTestCase() { ui_test::isolateSettings(dir_); }

    void cardSpeaksItsAnswer() {
        ui::ResultsModel model;
        model.setDecision(decision());
        ui::ResultCard card(model.index(0));
        card.resize(480, card.heightForWidth(480));
        card.show();
        QCOMPARE(card.accessibleName(),
                 QStringLiteral("urgent: no, 91.8 percent, somewhat unsure"));
        QAccessibleInterface* a = QAccessible::queryAccessibleInterface(&card);
        QVERIFY(a);
        QCOMPARE(a->text(QAccessible::Name), card.accessibleName());
        QCOMPARE(a->childCount(), 2);
        QAccessibleInterface* no = a->child(1);
        QVERIFY(no && no->isValid());
        QCOMPARE(no->role(), QAccessible::ProgressBar);
        QCOMPARE(no->text(QAccessible::Name), QStringLiteral("no"));
        QCOMPARE(no->text(QAccessible::Description),
                 QStringLiteral("no, 91.8 percent, plus or minus 3.9"));
        QCOMPARE(no->parent(), a);
        QCOMPARE(a->indexOfChild(no), 1);
        QCOMPARE(no->rect(),
                 QRect(card.mapToGlobal(card.barRect(1).topLeft()), card.barRect(1).size()));
        QCOMPARE(a->childAt(no->rect().center().x(), no->rect().center().y()), no);
        QVERIFY(a->text(QAccessible::Description)
                    .contains(QStringLiteral("yes, 8.2 percent, plus or minus 3.9")));
        QVERIFY(a->text(QAccessible::Description)
                    .contains(QStringLiteral("the noise draws agree 100 percent of 4 draw")));
        // A single read has no error bars to speak of.
        ui::ResultCard team(model.index(1));
        QCOMPARE(team.accessibleName(),
                 QStringLiteral("team: engineering, 50.0 percent, very unsure"));
        QCOMPARE(
            QAccessible::queryAccessibleInterface(&team)->child(0)->text(QAccessible::Description),
            QStringLiteral("billing, 20.0 percent"));
    }

    void chipsByKeyboard() {
        ui::TokenFlow flow;
        flow.setChips(chips());
        flow.resize(220, flow.heightForWidth(220));  // several rows
        flow.show();
        QVERIFY(QTest::qWaitForWindowExposed(&flow));
        QAccessibleInterface* a = QAccessible::queryAccessibleInterface(&flow);
        QCOMPARE(a->role(), QAccessible::List);
        QCOMPARE(a->childCount(), 12);
        QCOMPARE(a->child(4)->text(QAccessible::Name),
                 QStringLiteral("answer slot of urgent: yes or no"));
        QCOMPARE(a->child(2)->text(QAccessible::Name), QStringLiteral("token “tok2”, position 2"));
        QCOMPARE(a->child(4)->role(), QAccessible::ListItem);

        flow.setFocus();
        QCOMPARE(flow.currentChip(), 0);
        QTest::keyClick(&flow, Qt::Key_Right);
        QCOMPARE(flow.currentChip(), 1);
        QTest::keyClick(&flow, Qt::Key_N);
        QCOMPARE(flow.currentChip(), 4);
        QTest::keyClick(&flow, Qt::Key_N);
        QCOMPARE(flow.currentChip(), 9);
        QTest::keyClick(&flow, Qt::Key_P);
        QCOMPARE(flow.currentChip(), 4);
        QTest::keyClick(&flow, Qt::Key_End);
        QCOMPARE(flow.currentChip(), 11);
        QTest::keyClick(&flow, Qt::Key_Home);
        QCOMPARE(flow.currentChip(), 0);
        QTest::keyClick(&flow, Qt::Key_Left);  // stays at the first
        QCOMPARE(flow.currentChip(), 0);
        // Down goes to the next row, to the chip nearest below.
        QTest::keyClick(&flow, Qt::Key_Down);
        const int below = flow.currentChip();
        QVERIFY(flow.chipRect(below).top() > flow.chipRect(0).top());
        QTest::keyClick(&flow, Qt::Key_Up);
        QCOMPARE(flow.chipRect(flow.currentChip()).top(), flow.chipRect(0).top());
        QVERIFY(a->child(flow.currentChip())->state().focused);
    }

    void canvasViewSpellsTheCurrentChip() {
        ui::CanvasModel model;
        ui::CanvasView view(&model);
        view.canvasFlow()->setChips(chips());
        view.show();
        view.canvasFlow()->setFocus();
        QTest::keyClick(view.canvasFlow(), Qt::Key_N);
        QCOMPARE(view.chipDetails()->text(), view.canvasFlow()->toolTipFor(4));
        QVERIFY(view.chipDetails()->text().contains(QStringLiteral("answer slot of “urgent”")));
    }

    void altFiveFocusesTheCards() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.preload_model = false;
        ui::MainWindow window(o);
        window.resize(1600, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QApplication::setActiveWindow(&window);
        window.resultsModel()->setDecision(decision());
        const auto cards = window.resultsView()->cards();
        QCOMPARE(cards.size(), 2);
        QTest::keyClick(&window, Qt::Key_5, Qt::AltModifier);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(cards.at(0)));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(cards.at(1)));
    }
};

QTEST_MAIN(AccessibilityTest)
#include "tst_accessibility.moc"
