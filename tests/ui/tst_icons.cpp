// The application icon and the toolbar's icons, through Qt's SVG plugins: the icon renders at
// every size a desktop asks for (16 to 256 px) as its rounded tile (opaque inside, transparent
// in the corners); every toolbar action has an icon, the bundled fallback where the icon theme
// has none, and Run reads as text beside its icon.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QImage>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include "ui/icons.h"
#include "ui/main_window.h"
#include "ui/theme.h"
#include "ui_test_support.h"

namespace {

const ui::ActionIcon kAllActions[] = {ui::ActionIcon::Run,    ui::ActionIcon::Compare,
                                      ui::ActionIcon::Cancel, ui::ActionIcon::Undo,
                                      ui::ActionIcon::Redo,   ui::ActionIcon::Save};

// The share of pixels with any opacity.
double coverage(const QImage& image) {
    int painted = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) painted += qAlpha(image.pixel(x, y)) > 0;
    return double(painted) / (image.width() * image.height());
}

}  // namespace

class IconsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private Q_SLOTS:
    void initTestCase() {
        ui_test::isolateSettings(dir_);
        // No icon theme: every action must fall back to its bundled SVG.
        QIcon::setThemeSearchPaths({});
        QIcon::setThemeName(QStringLiteral("no-such-theme"));
    }

    void applicationIconRendersAtEverySize_data() {
        QTest::addColumn<int>("size");
        for (int s : {16, 22, 24, 32, 48, 64, 128, 256}) QTest::addRow("%d", s) << s;
    }
    void applicationIconRendersAtEverySize() {
        QFETCH(int, size);
        // Qt's SVG image plugin reads it (the icon engine below is the SVG icon plugin).
        QImageReader reader(QStringLiteral(":/icons/io.decisionstudio.DecisionStudio.svg"));
        QCOMPARE(reader.format(), QByteArray("svg"));
        QCOMPARE(reader.size(), QSize(128, 128));
        reader.setScaledSize(QSize(size, size));
        const QImage read = reader.read();
        QVERIFY2(!read.isNull(), qPrintable(reader.errorString()));

        const QIcon icon = ui::applicationIcon();
        QVERIFY(!icon.isNull());
        const QImage image = icon.pixmap(QSize(size, size)).toImage();
        QCOMPARE(image.size(), QSize(size, size));
        // The tile: opaque in the middle and in the middle of each edge, clear in the corners
        // (rounded), and most of the square painted.
        QCOMPARE(qAlpha(image.pixel(size / 2, size / 2)), 255);
        QCOMPARE(qAlpha(image.pixel(size / 2, size / 10)), 255);
        QCOMPARE(qAlpha(image.pixel(size / 10, size / 2)), 255);
        QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
        QCOMPARE(qAlpha(image.pixel(size - 1, size - 1)), 0);
        QVERIFY2(coverage(image) > 0.7, qPrintable(QString::number(coverage(image))));
        // Not a flat square: the bright winner bar differs from the tile around it.
        const QRgb bar = image.pixel(size * 30 / 128, size * 37 / 128);
        const QRgb tile = image.pixel(size * 30 / 128, size * 52 / 128);
        QVERIFY(qAbs(qGreen(bar) - qGreen(tile)) > 60);
    }

    void actionIconsFallBackToTheBundledSvgs() {
        for (ui::ActionIcon which : kAllActions) {
            const QString path = ui::actionIconFallbackPath(which);
            QImageReader reader(path);
            QCOMPARE(reader.format(), QByteArray("svg"));
            QVERIFY2(!reader.read().isNull(),
                     qPrintable(path + QLatin1String(": ") + reader.errorString()));
            QVERIFY(!ui::actionIconThemeName(which).isEmpty());
            const QImage themed = ui::actionIcon(which).pixmap(QSize(24, 24)).toImage();
            const QImage bundled = QIcon(path).pixmap(QSize(24, 24)).toImage();
            QVERIFY2(!themed.isNull(), qPrintable(path));
            QCOMPARE(themed, bundled);
            QVERIFY2(coverage(themed) > 0.1, qPrintable(path));
        }
    }

    void toolbarActionsHaveIcons() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = dir_.filePath(QStringLiteral("no-model"));
        ui::MainWindow window(o);
        window.show();
        auto* bar = window.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
        QVERIFY(bar);
        QCOMPARE(bar->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
        int with_icons = 0;
        for (QAction* a : bar->actions()) {
            if (a->isSeparator()) continue;
            QVERIFY2(!a->icon().isNull(), qPrintable(a->text()));
            QVERIFY2(!a->icon().pixmap(QSize(24, 24)).isNull(), qPrintable(a->text()));
            auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(a));
            QVERIFY(button);
            // Text beside the icon, except Undo and Redo, whose text names the command.
            const QString text = QString(a->text()).remove(QLatin1Char('&'));
            const bool undo_redo =
                text.startsWith(QLatin1String("Undo")) || text.startsWith(QLatin1String("Redo"));
            if (!undo_redo) {
                QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
                QVERIFY(button->sizeHint().width() > button->iconSize().width() + 10);
            }
            ++with_icons;
        }
        QCOMPARE(with_icons, 6);

        // DS_SCREENSHOT_DIR: the toolbar as drawn, light and dark (toolbar-light.png, -dark.png).
        const QString shots = qEnvironmentVariable("DS_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QVERIFY(bar->grab().save(shots + QStringLiteral("/toolbar-light.png")));
            ui::applyTheme(*qApp, true);
            QApplication::processEvents();
            QVERIFY(bar->grab().save(shots + QStringLiteral("/toolbar-dark.png")));
            ui::applyTheme(*qApp, false);
        }
    }
};

QTEST_MAIN(IconsTest)
#include "tst_icons.moc"
