// The main window with a real decision (tiny model) at 1280x800, 1600x950 and 2560x1440, and at
// scale factor 2 (ui_layout_scale2 runs this with QT_SCALE_FACTOR=2: a 2560x1440 screen, 1280x720
// logical): from the widgets' geometry and the cards' own layout, every card shows its title,
// every label with its swatch, bar, value and error bar, and the draw strip with its agreement
// text, nothing clipped, elided or overlapping, and the cards fit their column; the history is
// collapsed; the variables panel lists the template's input (ticket) first, on several lines;
// the legend swatches have exactly the bars' colours. Screenshots of each size go to
// build/screenshots/main-window-<size>.png.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QListView>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "ui/editor/variables_panel.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"
#include "ui_test_support.h"

using Part = ui::ResultCard::Part;

namespace {
QString screenshot_dir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

bool is_text(Part::Kind k) {
    return k == Part::Title || k == Part::Answer || k == Part::Badge || k == Part::Stats ||
           k == Part::Label || k == Part::Value || k == Part::DrawsLabel || k == Part::Agreement;
}

// The only parts drawn over one another: a label's error bar on its own track.
bool may_overlap(const Part& a, const Part& b) {
    auto pair = [&](Part::Kind x, Part::Kind y) {
        return (a.kind == x && b.kind == y) || (a.kind == y && b.kind == x);
    };
    return pair(Part::Track, Part::ErrorBar) && a.index == b.index;
}

QString describe(const Part& p) {
    return QStringLiteral("part %1 #%2 \"%3\" at %4,%5 %6x%7")
        .arg(int(p.kind))
        .arg(p.index)
        .arg(p.text)
        .arg(p.rect.x())
        .arg(p.rect.y())
        .arg(p.rect.width())
        .arg(p.rect.height());
}
}  // namespace

class LayoutTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<ui::MainWindow> window_;

    // A card at its current width: every check of the brief, with what failed.
    QString checkCard(const ui::ResultCard* card) {
        const QModelIndex index = card->index();
        const QStringList labels = index.data(ui::ResultsModel::LabelsRole).toStringList();
        const QStringList alts = index.data(ui::ResultsModel::AlternativesRole).toStringList();
        const int nlabels =
            int(index.data(ui::ResultsModel::MeanRole).value<QList<double>>().size());
        const int draws =
            int(index.data(ui::ResultsModel::PerReadRole).value<QList<QList<double>>>().size());
        const bool stderrs =
            !index.data(ui::ResultsModel::StderrLabelsRole).value<QList<double>>().isEmpty();
        const auto layout = card->layoutFor(card->width());
        const QString id = index.data(ui::ResultsModel::IdRole).toString();
        if (card->height() < layout.height)
            return QStringLiteral("%1: card is %2 px high, its content needs %3")
                .arg(id)
                .arg(card->height())
                .arg(layout.height);
        const QRect inside = card->rect().adjusted(2, 2, -2, -2);
        QFont bold = card->font();
        bold.setBold(true);
        for (const Part& p : layout.parts) {
            if (!inside.contains(p.rect))
                return id + QStringLiteral(": outside the card: ") + describe(p);
            if (!is_text(p.kind)) continue;
            if (p.text.isEmpty() || p.text.contains(QChar(0x2026)))
                return id + QStringLiteral(": empty or elided text: ") + describe(p);
            const QFontMetrics fm(p.bold ? bold : card->font());
            const int room = p.kind == Part::Badge ? p.rect.width() - 8 : p.rect.width();
            if (fm.horizontalAdvance(p.text) > room)
                return id + QStringLiteral(": text wider than its place: ") + describe(p);
        }
        for (int i = 0; i < layout.parts.size(); ++i)
            for (int j = i + 1; j < layout.parts.size(); ++j) {
                const Part &a = layout.parts[i], &b = layout.parts[j];
                if (a.rect.intersects(b.rect) && !may_overlap(a, b))
                    return id + QStringLiteral(": overlap: ") + describe(a) +
                           QStringLiteral(" and ") + describe(b);
            }
        auto count = [&](Part::Kind k) {
            return int(std::count_if(layout.parts.begin(), layout.parts.end(),
                                     [k](const Part& p) { return p.kind == k; }));
        };
        if (count(Part::Title) != 1 || count(Part::Answer) != 1 || count(Part::Badge) != 1)
            return id + QStringLiteral(": title, answer or badge missing");
        for (Part::Kind k : {Part::Swatch, Part::Label, Part::Track, Part::Value})
            if (count(k) != nlabels)
                return id + QStringLiteral(": %1 of kind %2 for %3 labels")
                                .arg(count(k))
                                .arg(int(k))
                                .arg(nlabels);
        if (stderrs && count(Part::ErrorBar) != nlabels)
            return id + QStringLiteral(": an error bar per label expected");
        for (const Part& p : layout.parts) {
            if (p.kind == Part::Label) {
                const QString full =
                    labels.value(p.index) == alts.value(p.index)
                        ? alts.value(p.index)
                        : labels.value(p.index) + QStringLiteral("  ") + alts.value(p.index);
                if (p.text != full) return id + QStringLiteral(": label shown as ") + p.text;
            }
            if (p.kind == Part::Track && p.rect.width() < 60)
                return id + QStringLiteral(": bar too short to read: ") + describe(p);
        }
        if (draws > 0 && (count(Part::Mark) != draws || count(Part::Agreement) != 1 ||
                          count(Part::DrawsLabel) != 1))
            return id + QStringLiteral(": the draw strip is incomplete");
        return {};
    }

    // The swatch centre and the bar's fill share one colour (pixels of the painted card).
    QString checkColours(ui::ResultCard* card) {
        const QImage image = card->grab().toImage();
        const qreal dpr = image.devicePixelRatio();
        const auto means = card->index().data(ui::ResultsModel::MeanRole).value<QList<double>>();
        int compared = 0;
        for (int i = 0; i < means.size(); ++i) {
            QRect swatch, track;
            for (const Part& p : card->parts()) {
                if (p.index != i) continue;
                if (p.kind == Part::Swatch) swatch = p.rect;
                if (p.kind == Part::Track) track = p.rect;
            }
            if (track.width() * means[i] < 8) continue;  // too thin a bar to sample
            const QPoint s = swatch.center() * dpr;
            const QPoint b = QPoint(track.left() + 4, track.top() + 2) * dpr;
            const QColor sc = image.pixelColor(s), bc = image.pixelColor(b);
            if (sc.rgb() != bc.rgb())
                return QStringLiteral("label %1: swatch %2, bar %3")
                    .arg(i)
                    .arg(sc.name(), bc.name());
            if (sc.rgb() != ui::ResultCard::labelColor(i, card->palette()).rgb())
                return QStringLiteral("label %1: swatch %2 is not the label colour")
                    .arg(i)
                    .arg(sc.name());
            ++compared;
        }
        return compared > 0 ? QString() : QStringLiteral("no bar wide enough to compare");
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_DEFAULT_MODEL_DIR "/config.json")))
            QSKIP("no default model: build the tiny_model (or demo_model) target first");
        ui_test::isolateSettings(dir_);
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_DEFAULT_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        window_ = std::make_unique<ui::MainWindow>(o);
        window_->resize(1600, 950);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QSignalSpy finished(window_.get(), &ui::MainWindow::runFinished);
        QVERIFY(window_->run());
        QVERIFY(finished.wait(300000));
        QVERIFY(finished.first().first().toBool());
        QCOMPARE(window_->resultsView()->cards().size(), 3);
    }

    void cleanupTestCase() { window_.reset(); }

    void fits_data() {
        QTest::addColumn<QSize>("screen");  // device pixels
        const bool scaled = qEnvironmentVariableIntValue("QT_SCALE_FACTOR") == 2;
        if (scaled) {
            QTest::newRow("2560x1440-scale2") << QSize(2560, 1440);
        } else {
            QTest::newRow("1280x800") << QSize(1280, 800);
            QTest::newRow("1600x950") << QSize(1600, 950);
            QTest::newRow("2560x1440") << QSize(2560, 1440);
        }
    }

    void fits() {
        QFETCH(QSize, screen);
        ui::MainWindow& w = *window_;
        const qreal dpr = w.devicePixelRatioF();
        w.resize((QSizeF(screen) / dpr).toSize());
        QApplication::processEvents();
        QTest::qWait(50);
        QApplication::processEvents();

        // Cards: each complete at its width, inside the column, never wider than it.
        ui::ResultsView* results = w.resultsView();
        auto* scroll = results->findChild<QScrollArea*>(QStringLiteral("cardsScroll"));
        QVERIFY(scroll);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        const QRect viewport = scroll->viewport()->rect();
        int cards_bottom = 0;
        for (ui::ResultCard* card : results->cards()) {
            const QString problem = checkCard(card);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const QRect in_viewport(card->mapTo(scroll->viewport(), QPoint(0, 0)), card->size());
            QVERIFY2(
                in_viewport.left() >= viewport.left() && in_viewport.right() <= viewport.right(),
                "a card is wider than the results column");
            cards_bottom = std::max(
                cards_bottom, card->mapTo(scroll->widget(), QPoint(0, 0)).y() + card->height());
            const QString colours = checkColours(card);
            QVERIFY2(colours.isEmpty(), qPrintable(colours));
        }
        // The cards get the room: the history is collapsed, and from 1600x950 up all three cards
        // show without scrolling.
        QVERIFY(!results->historyOpen());
        QVERIFY(!results->historyView()->isVisible());
        QVERIFY(results->historyToggle()->isVisible());
        QVERIFY2(scroll->height() >= results->height() * 6 / 10,
                 qPrintable(QStringLiteral("cards area %1 of %2 px")
                                .arg(scroll->height())
                                .arg(results->height())));
        if (screen.height() / dpr >= 950)
            QVERIFY2(cards_bottom <= viewport.height(),
                     qPrintable(QStringLiteral("cards need %1 px, the column shows %2")
                                    .arg(cards_bottom)
                                    .arg(viewport.height())));

        // Variables: the template's input first, its long text on several lines, all visible.
        QTableView* table = w.variablesPanel()->view();
        QCOMPARE(w.variablesPanel()->model()->keyAt(0), QStringLiteral("ticket"));
        const QRect first = table->visualRect(table->model()->index(0, 1));
        QVERIFY(table->viewport()->rect().contains(first));
        // The row is as high as its wrapped text needs at the column's width (the delegate
        // caps it at five lines).
        const QFontMetrics fm = table->fontMetrics();
        QVERIFY2(table->rowHeight(0) >= static_cast<QAbstractItemView*>(table)->sizeHintForRow(0),
                 qPrintable(QStringLiteral("ticket row %1 px, its text needs %2")
                                .arg(table->rowHeight(0))
                                .arg(static_cast<QAbstractItemView*>(table)->sizeHintForRow(0))));
        if (screen.width() / dpr < 2000) QVERIFY(first.height() >= 2 * fm.height());

        const QString name = QStringLiteral("main-window-%1.png").arg(QTest::currentDataTag());
        QVERIFY(w.grab().save(screenshot_dir() + QLatin1Char('/') + name));
    }

    // A narrow column (a user dragged the splitter): the card reflows instead of clipping.
    void narrowCardReflows() {
        ui::ResultCard* card = window_->resultsView()->cards().at(1);
        for (int width : {240, 300, 360}) {
            card->resize(width, card->heightForWidth(width));
            const QString problem = checkCard(card);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(QStringLiteral("at %1 px: ").arg(width) + problem));
        }
        // Narrower means taller, never cut.
        QVERIFY(card->heightForWidth(240) > card->heightForWidth(600));
    }
};

QTEST_MAIN(LayoutTest)
#include "tst_layout.moc"
