// Images in the Studio, under offscreen: a PNG dropped on the images strip is added (thumbnail,
// name) and shows as one chip at the start of the user turn in the canvas view; a pasted picture
// is added as PNG; an SVG is refused with its reason shown and nothing added; Delete removes the
// selected image; a run carries the images (the tiny model's vision tower reads them).
#include <QAccessible>
#include <QApplication>
#include <QClipboard>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QListView>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_view.h"
#include "ui/canvas/token_flow.h"
#include "ui/images/images_model.h"
#include "ui/images/images_panel.h"
#include "ui/main_window.h"
#include "ui/results/results_view.h"
#include "ui_test_support.h"

class ImagesTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString pngFile(const QString& name) {
        QImage image(40, 30, QImage::Format_RGB888);
        image.fill(QColor(10, 120, 200));
        const QString path = dir_.filePath(name);
        image.save(path, "PNG");
        return path;
    }

    void drop(QWidget* target, const QList<QUrl>& urls) {
        QMimeData mime;
        mime.setUrls(urls);
        const QPoint at = target->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &dropped);
    }

  private Q_SLOTS:
    void initTestCase() { ui_test::isolateSettings(dir_); }

    void dropPasteAndRefuse() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        o.preload_model = false;
        ui::MainWindow window(o);
        window.resize(1600, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::ImagesModel* images = window.imagesModel();
        ui::ImagesPanel* panel = window.imagesPanel();

        // Drag and drop of a file.
        const QString frame = pngFile(QStringLiteral("frame1.png"));
        drop(panel, {QUrl::fromLocalFile(frame)});
        QCOMPARE(images->rowCount(), 1);
        QCOMPARE(images->index(0).data(ui::ImagesModel::SourceRole).toString(), frame);
        QCOMPARE(images->index(0).data(ui::ImagesModel::PixelSizeRole).toSize(), QSize(40, 30));
        QCOMPARE(images->index(0).data(Qt::DisplayRole).toString(),
                 QStringLiteral("1 · frame1.png"));
        QVERIFY(!panel->message()->isVisible());

        // Its chip in the canvas view's prompt, right after the user turn opens.
        if (QFile::exists(QStringLiteral(DS_TOKENIZER_JSON))) {
            QTRY_VERIFY_WITH_TIMEOUT(window.canvasModel()->plan().has_value(), 60000);
            ui::TokenFlow* prompt = window.canvasView()->promptFlow();
            QTRY_VERIFY(!prompt->chips().empty());
            int image_chips = 0, at = -1;
            for (size_t i = 0; i < prompt->chips().size(); ++i)
                if (prompt->chips()[i].image) ++image_chips, at = int(i);
            QCOMPARE(image_chips, 1);
            QCOMPARE(prompt->chips()[size_t(at)].text, QStringLiteral("image 1"));
            QCOMPARE(prompt->chips()[size_t(at) - 1].text, QStringLiteral("↵"));
            QCOMPARE(prompt->chips()[size_t(at) - 2].text, QStringLiteral("user"));
            QVERIFY(prompt->spokenChip(at).contains(frame));
        }

        // A pasted picture becomes a PNG.
        QImage picture(8, 8, QImage::Format_ARGB32);
        picture.fill(Qt::red);
        QMimeData pasted;
        pasted.setImageData(picture);
        QVERIFY(panel->addFromMime(&pasted));
        QCOMPARE(images->rowCount(), 2);
        QCOMPARE(images->index(1).data(ui::ImagesModel::MimeRole).toString(),
                 QStringLiteral("image/png"));

        // An SVG is refused, with the reason, and nothing is added.
        const QString svg = dir_.filePath(QStringLiteral("card.svg"));
        {
            QFile f(svg);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
        }
        drop(panel, {QUrl::fromLocalFile(svg)});
        QCOMPARE(images->rowCount(), 2);
        QVERIFY(panel->message()->isVisible());
        QVERIFY2(panel->message()->text().contains(svg + QStringLiteral(": an SVG drawing")),
                 qPrintable(panel->message()->text()));

        // Delete takes the selected image out.
        panel->view()->setCurrentIndex(images->index(1));
        panel->view()->setFocus();
        QTest::keyClick(panel->view(), Qt::Key_Delete);
        QCOMPARE(images->rowCount(), 1);

        // A run sends them: the tiny model's vision tower reads the image.
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        QVERIFY(finished.wait(120000));
        QVERIFY2(
            finished.first().first().toBool(),
            qPrintable(
                window.resultsView()->findChild<QLabel*>(QStringLiteral("runStatus"))->text()));
        QCOMPARE(window.resultsView()->cards().size(), 3);

        // With the model loaded, the chip says how many soft tokens it reads for the image.
        if (QFile::exists(QStringLiteral(DS_TOKENIZER_JSON))) {
            ui::TokenFlow* prompt = window.canvasView()->promptFlow();
            const ui::TokenChip* chip = nullptr;
            QTRY_VERIFY([&] {
                for (const auto& c : prompt->chips())
                    if (c.image) chip = &c;
                return chip && chip->image_tokens > 0;
            }());
            // "image 1 · 6 tokens" with the English plural forms the app loads; this test shows
            // the source text ("token(s)").
            QVERIFY2(
                chip->text.startsWith(QStringLiteral("image 1 · %1 token").arg(chip->image_tokens)),
                qPrintable(chip->text));
        }
        // The run's report shows the image it read.
        const auto report = window.decisionReport();
        QVERIFY(report.has_value());
        QCOMPARE(report->data["images"].size(), size_t(1));
        QCOMPARE(report->data["images"][0]["name"].get<std::string>(), std::string("frame1.png"));
        QCOMPARE(report->data["images"][0]["width"].get<int>(), 40);
    }
};

QTEST_MAIN(ImagesTest)
#include "tst_images.moc"
