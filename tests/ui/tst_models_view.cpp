// The Models view on a fake Hugging Face cache made from the tiny model (tests/core/
// fake_hf_cache.h): every folder listed with its state, the complete one choosable for a local
// profile (the choice emitted and marked active), the incomplete and foreign ones greyed with
// their reason and never choosable; an added folder is remembered. Pictures light and dark.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "core/fake_hf_cache.h"
#include "ui/models/models_view.h"
#include "ui/theme.h"
#include "ui_test_support.h"

namespace fs = std::filesystem;

namespace {

QString outDir() {
    QString dir = qEnvironmentVariable("DS_SCREENSHOT_DIR");
    if (dir.isEmpty()) dir = QStringLiteral(DS_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    return dir;
}

int rowOf(const ui::ModelsView& v, const fs::path& dir) {
    for (size_t i = 0; i < v.entries().size(); ++i)
        if (v.entries()[i].dir == dir) return static_cast<int>(i);
    return -1;
}

}  // namespace

class TestModelsView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fake_hf::Cache cache_;

    ui::ModelsViewOptions options() const {
        ui::ModelsViewOptions o;
        o.hub_dirs = {cache_.hub};
        o.machine_from_system = false;
        o.machine.host_bytes = 16'000'000'000ull;
        return o;
    }

  private Q_SLOTS:
    void initTestCase() {
        ui_test::isolateSettings(dir_);
        if (!fs::exists(fake_hf::kTiny / "model.safetensors")) QSKIP("no tiny model built");
        cache_ = fake_hf::make(fs::path(dir_.filePath("cache").toStdString()));
    }

    void listsChoosesAndRemembers() {
        ui::ModelsView view(options());
        view.resize(1300, 520);
        // The hub's four snapshots; the truncated folder once it is added.
        QCOMPARE(view.entries().size(), size_t(4));
        view.addFolder(QString::fromStdString(cache_.folders.string()));
        QCOMPARE(view.entries().size(), size_t(5));
        QCOMPARE(view.table()->rowCount(), 5);
        core::EndpointProfileStore store = ui_test::localStore();
        store.profiles.front().model_dir = cache_.broken_link().string();
        view.setProfiles(store);

        // The complete snapshot: choosable; choosing it names the profile and the folder.
        const int ok = rowOf(view, cache_.complete());
        QVERIFY(ok >= 0);
        view.selectRow(ok);
        QCOMPARE(view.table()->item(ok, ui::ModelsView::Status)->text(),
                 QStringLiteral("complete"));
        QCOMPARE(view.table()->item(ok, ui::ModelsView::Format)->text(), QStringLiteral("bf16"));
        QVERIFY(view.table()
                    ->item(ok, ui::ModelsView::Memory)
                    ->text()
                    .startsWith("fits in host memory"));
        QVERIFY(view.useButton()->isEnabled());
        QVERIFY(view.detailsText().contains(QStringLiteral("Memory plan: ")));
        QSignalSpy chosen(&view, &ui::ModelsView::modelChosen);
        view.useButton()->click();
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().at(0).toString(), QStringLiteral("local"));
        QCOMPARE(chosen.first().at(1).toString(),
                 QString::fromStdString(cache_.complete().string()));
        // Now the active one, marked.
        QVERIFY(view.entries()[static_cast<size_t>(ok)].active);
        QVERIFY(
            view.table()->item(ok, ui::ModelsView::Name)->text().startsWith(QStringLiteral("● ")));

        // The others say what is wrong and cannot be chosen.
        const std::pair<fs::path, QString> bad[] = {
            {cache_.missing_shard(), "model-00002-of-00002.safetensors: missing"},
            {cache_.broken_link(), "model.safetensors: broken link"},
            {cache_.foreign(), "llama"},
            {cache_.truncated(), "model.safetensors: truncated: 1048576 of"}};
        for (const auto& [dir, reason] : bad) {
            const int row = rowOf(view, dir);
            QVERIFY(row >= 0);
            view.selectRow(row);
            QVERIFY2(!view.useButton()->isEnabled(), dir.c_str());
            QVERIFY2(view.detailsText().contains(reason), qPrintable(view.detailsText()));
            QVERIFY(view.detailsText().contains(QStringLiteral("Cannot be used:")));
            QVERIFY(!view.useSelected());
            QVERIFY(view.table()->item(row, ui::ModelsView::Name)->toolTip().contains(reason) ||
                    dir == cache_.foreign());
        }
        QCOMPARE(chosen.size(), 1);

        // Pictures, light and dark, with the missing shard's details shown.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.selectRow(rowOf(view, cache_.missing_shard()));
        for (bool dark : {false, true}) {
            ui::applyTheme(*qApp, dark);
            view.refresh();
            QApplication::processEvents();
            const QString path =
                outDir() + (dark ? "/models-view-dark.png" : "/models-view-light.png");
            QVERIFY(view.grab().save(path));
            qInfo("saved %s", qPrintable(path));
        }
        ui::applyTheme(*qApp, false);

        // The added folder is remembered by the next view; removing it forgets it.
        ui::ModelsView again(options());
        QCOMPARE(again.entries().size(), size_t(5));
        QCOMPARE(again.folders(), QStringList{QString::fromStdString(cache_.folders.string())});
        again.removeFolder(QString::fromStdString(cache_.folders.string()));
        QCOMPARE(again.entries().size(), size_t(4));
    }
};

QTEST_MAIN(TestModelsView)
#include "tst_models_view.moc"
