// Renders the main window, the canvas view and a results card on a real X server (Xvfb, see
// extra.cmake) in the light and the dark palette, and saves PNGs in build/screenshots/ for a
// person to look at. Asserts that each picture has content (not one flat colour) and that the
// dark palette really is dark.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_view.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"
#include "ui/theme.h"

namespace {
QString out_dir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

// Distinct colours in a sparse sample of the image: a blank or one-colour render has 1-2.
int colour_count(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    return int(colours.size());
}

double mean_lightness(const QImage& image) {
    double sum = 0;
    int n = 0;
    for (int y = 0; y < image.height(); y += 9)
        for (int x = 0; x < image.width(); x += 9, ++n)
            sum += QColor(image.pixel(x, y)).lightnessF();
    return n ? sum / n : 0;
}
}  // namespace

class ScreenshotsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    bool save(QWidget* widget, const QString& name) {
        QApplication::processEvents();
        const QImage image = widget->grab().toImage();
        const QString path = out_dir() + QLatin1Char('/') + name + QStringLiteral(".png");
        if (!image.save(path)) return false;
        qInfo("saved %s (%dx%d)", qPrintable(path), image.width(), image.height());
        return colour_count(image) > 8;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (QGuiApplication::platformName() == QLatin1String("offscreen"))
            qInfo("offscreen platform: pictures are rendered without a window system");
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           dir_.filePath(QStringLiteral("settings")));
        qunsetenv("DGEM_URL");
    }

    void render_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void render() {
        QFETCH(bool, dark);
        ui::applyTheme(*qApp, dark);
        const QString suffix = dark ? QStringLiteral("-dark") : QStringLiteral("-light");
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        // The pictures show the product as it ships: its default model (the demo model).
        o.default_model_dir = QStringLiteral(DS_DEFAULT_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        ui::MainWindow window(o);
        window.resize(1600, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // A real run when the model is there, so the card shows real numbers.
        const bool model = QFile::exists(QStringLiteral(DS_DEFAULT_MODEL_DIR "/config.json"));
        if (model) {
            QSignalSpy finished(&window, &ui::MainWindow::runFinished);
            QVERIFY(window.run());
            QVERIFY(finished.wait(300000));
            QVERIFY(finished.first().first().toBool());
        }
        QVERIFY(save(&window, QStringLiteral("main-window") + suffix));
        const QImage whole = window.grab().toImage();
        if (dark)
            QVERIFY2(mean_lightness(whole) < 0.45, "the dark palette renders dark");
        else
            QVERIFY2(mean_lightness(whole) > 0.55, "the light palette renders light");

        // The canvas view, with the plan built.
        window.sideTabs()->setCurrentWidget(window.canvasView());
        if (QFile::exists(QStringLiteral(DS_TOKENIZER_JSON)))
            QTRY_VERIFY_WITH_TIMEOUT(window.canvasModel()->plan().has_value(), 60000);
        QVERIFY(save(window.canvasView(), QStringLiteral("canvas-view") + suffix));

        // A results card.
        window.sideTabs()->setCurrentWidget(window.resultsView());
        const auto cards = window.resultsView()->cards();
        if (!cards.isEmpty()) {
            QApplication::processEvents();
            QVERIFY(save(cards.at(1 % cards.size()), QStringLiteral("result-card") + suffix));
            QVERIFY(save(window.resultsView(), QStringLiteral("results") + suffix));
        }
    }
};

QTEST_MAIN(ScreenshotsTest)
#include "tst_screenshots.moc"
