// Export report (Ctrl+Shift+E) on the real tiny model: a decision run in the main window, a
// comparison in the Compare view and a two-item suite run in the Bench view each open the export
// dialog on their result; the preview shows the PDF's pages (or the CSV/JSON text), and every
// format is written (PDF bytes, JSON with report_version). Bad input is refused with a message
// naming the path and the accepted formats while the results stay: an unknown extension, a
// folder that cannot be written, a write that fails part-way (a file size limit, as a full disk
// would) which leaves the existing file as it was and no temporary file behind.
#include <sys/resource.h>
#include <unistd.h>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <nlohmann/json.hpp>

#include "core/decide/local_backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/reports/report.h"
#include "engine/engine.h"
#include "ui/bench/bench_window.h"
#include "ui/canvas/canvas_model.h"
#include "ui/compare/compare_model.h"
#include "ui/compare/compare_window.h"
#include "ui/editor/policy_document.h"
#include "ui/main_window.h"
#include "ui/reports/export_report_dialog.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

#include "ui_test_support.h"

namespace {

using namespace ui_test;

namespace report = core::report;

const QKeySequence kExportKey(Qt::CTRL | Qt::SHIFT | Qt::Key_E);

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

nlohmann::json readJson(const QString& path) {
    return nlohmann::json::parse(readAll(path).toStdString(), nullptr, false);
}

// The one export dialog open on `parent` (the action opens it window-modal, without blocking).
ui::ExportReportDialog* openDialog(QWidget* parent) {
    const auto dialogs = parent->findChildren<ui::ExportReportDialog*>();
    return dialogs.size() == 1 ? dialogs.first() : nullptr;
}

// Writes `formats` through the dialog into `dir`, checks each file, returns false with a message.
bool writesEveryFormat(ui::ExportReportDialog* dialog, const QDir& dir, const QString& base,
                       QString* why) {
    for (const char* ext : {"html", "pdf", "csv", "json"}) {
        const QString path = dir.filePath(base + QLatin1Char('.') + QLatin1String(ext));
        QString error;
        if (!dialog->exportTo(path, &error)) {
            *why = QStringLiteral("%1: %2").arg(path, error);
            return false;
        }
        const QByteArray bytes = readAll(path);
        if (bytes.isEmpty()) {
            *why = path + QStringLiteral(": empty");
            return false;
        }
        const QString e = QLatin1String(ext);
        if (report::to_string(dialog->format()) != ext) {
            *why = path + QStringLiteral(": the format did not follow the extension");
            return false;
        }
        if (e == QLatin1String("pdf") && !bytes.startsWith("%PDF")) {
            *why = path + QStringLiteral(": not a PDF");
            return false;
        }
        if (e == QLatin1String("html") && !bytes.toLower().contains("<html")) {
            *why = path + QStringLiteral(": not HTML");
            return false;
        }
        if (e == QLatin1String("json")) {
            const auto j = nlohmann::json::parse(bytes.toStdString(), nullptr, false);
            if (!j.is_object() || j.value("report_version", 0) != report::kReportVersion) {
                *why = path + QStringLiteral(": no report_version");
                return false;
            }
        }
    }
    return true;
}

}  // namespace

class ReportExportTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<core::Backend> local_;

    ui::MainWindowOptions options() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        o.bench.jevbench_dir = dir_.filePath(QStringLiteral("no-jevbench"));
        o.bench.suites_dir = QStringLiteral(DS_SOURCE_DIR "/resources/suites");
        o.bench.runs_dir = dir_.filePath(QStringLiteral("runs"));
        return o;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(DS_TINY_MODEL_DIR "/config.json")))
            QSKIP("no tiny model: build the tiny_model target first");
        isolateSettings(dir_);
    }

    // The latest decision of the main window: preview, the four formats, the errors.
    void decisionReport() {
        ui::MainWindow window(options());
        window.show();
        QCOMPARE(window.document()->name(), QStringLiteral("support_triage"));

        // Policy > Export report… (the Studio's file menu), Ctrl+Shift+E: off until a result.
        QAction* action = window.exportReportAction();
        QVERIFY(action);
        QCOMPARE(action->shortcut(), kExportKey);
        QVERIFY(window.menuBar()->actions().first()->menu()->actions().contains(action));
        QVERIFY(!action->isEnabled());
        QVERIFY(!window.decisionReport());

        // The canvas of the run (the report's canvas summary comes from the same plan).
        QTRY_VERIFY_WITH_TIMEOUT(window.canvasModel()->hasTokenizer(), 120000);
        QVERIFY(window.canvasModel()->rebuildNow());
        QVERIFY(window.canvasModel()->plan().has_value());

        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.run());
        QVERIFY(finished.wait(300000));
        QVERIFY(finished.first().first().toBool());
        const int rows = window.resultsModel()->rowCount();
        QVERIFY(rows > 0);
        QVERIFY(action->isEnabled());

        action->trigger();
        ui::ExportReportDialog* dialog = openDialog(&window);
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->isModal());
        const report::Report& r = dialog->report();
        QCOMPARE(r.kind, report::Kind::Decision);
        QCOMPARE(r.provenance.program, std::string("Decision Studio"));
        QVERIFY2(QString::fromStdString(r.provenance.endpoint).contains(QStringLiteral("local")),
                 r.provenance.endpoint.c_str());
        QCOMPARE(r.provenance.model, window.resultsModel()->decision().model);
        const std::string data = r.data.dump();
        QVERIFY(data.find("support_triage") != std::string::npos);
        // The canvas the canvas view showed for the run.
        const auto& plan = *window.canvasModel()->plan();
        QVERIFY(r.data.contains("canvas"));
        QCOMPARE(r.data["canvas"].value("layout", std::string()), std::string("document_first"));
        QCOMPARE(r.data["canvas"].value("slots", 0), rows);
        QCOMPARE(r.data["canvas"].value("groups", 0), int(plan.groups.size()));
        int width = 0;
        for (const auto& g : plan.groups) width = std::max(width, g.width);
        QCOMPARE(r.data["canvas"].value("width", 0), width);
        QCOMPARE(r.data["canvas"].value("reads", 0), window.resultsModel()->decision().reads);
        for (int q = 0; q < rows; ++q) {
            const std::string id = window.resultsModel()
                                       ->index(q)
                                       .data(ui::ResultsModel::IdRole)
                                       .toString()
                                       .toStdString();
            QVERIFY2(data.find('"' + id + '"') != std::string::npos, id.c_str());
        }

        // The preview: PDF pages (page size on), the text for CSV and JSON (page size off).
        dialog->setFormat(report::Format::Pdf);
        QVERIFY(dialog->previewPageCount() >= 1);
        QVERIFY(dialog->pageSizeBox()->isEnabled());
        QVERIFY(dialog->pageCountLabel()->text().contains(QStringLiteral("page")));
        QVERIFY(dialog->suggestedFileName().endsWith(QStringLiteral(".pdf")));
        dialog->setPageSize(report::PageSize::Letter);
        QVERIFY(dialog->previewPageCount() >= 1);
        dialog->setPageSize(report::PageSize::A4);
        dialog->setFormat(report::Format::Html);
        QVERIFY(dialog->previewPageCount() >= 1);
        QVERIFY(!dialog->pageSizeBox()->isEnabled());
        dialog->setFormat(report::Format::Csv);
        QCOMPARE(dialog->previewPageCount(), 0);
        QVERIFY(!dialog->previewText().isEmpty());
        QVERIFY(dialog->textPreview()->isReadOnly());
        dialog->setFormat(report::Format::Json);
        const auto shown =
            nlohmann::json::parse(dialog->previewText().toStdString(), nullptr, false);
        QVERIFY(shown.is_object() && shown.contains("report_version"));

        // Every format, into a fresh folder; the folder is remembered.
        QTemporaryDir out;
        QString why;
        QVERIFY2(writesEveryFormat(dialog, QDir(out.path()), QStringLiteral("decision"), &why),
                 qPrintable(why));
        QCOMPARE(ui::ExportReportDialog::lastFolder(), QFileInfo(out.path()).absoluteFilePath());
        // No extension: the chosen format, as it is.
        dialog->setFormat(report::Format::Pdf);
        QVERIFY(dialog->exportTo(QDir(out.path()).filePath(QStringLiteral("plain"))));
        QVERIFY(readAll(QDir(out.path()).filePath(QStringLiteral("plain"))).startsWith("%PDF"));

        // An unknown extension: refused, naming the path and the accepted formats.
        QString error;
        const QString docx = QDir(out.path()).filePath(QStringLiteral("x.docx"));
        QVERIFY(!dialog->exportTo(docx, &error));
        QVERIFY2(error.contains(docx) && error.contains(QStringLiteral("pdf")), qPrintable(error));
        qInfo("refused: %s", qPrintable(error));
        QVERIFY(!QFile::exists(docx));
        QCOMPARE(dialog->format(), report::Format::Pdf);

        // A folder that cannot be written: under a regular file (even root cannot), and a
        // read-only folder where permissions hold (not as root).
        QFile plain_file(QDir(out.path()).filePath(QStringLiteral("a-file")));
        QVERIFY(plain_file.open(QIODevice::WriteOnly));
        plain_file.write("not a folder");
        plain_file.close();
        const QString under_file = plain_file.fileName() + QStringLiteral("/sub/report.pdf");
        QVERIFY(!dialog->exportTo(under_file, &error));
        QVERIFY2(error.contains(under_file), qPrintable(error));
        qInfo("refused: %s", qPrintable(error));
        if (::geteuid() != 0) {
            const QString ro = QDir(out.path()).filePath(QStringLiteral("read-only"));
            QVERIFY(QDir().mkpath(ro));
            QVERIFY(QFile::setPermissions(ro, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
            const QString inside = ro + QStringLiteral("/report.pdf");
            QVERIFY(!dialog->exportTo(inside, &error));
            QVERIFY2(error.contains(inside), qPrintable(error));
            QFile::setPermissions(
                ro, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        }

        // A write that fails part-way (a file size limit: what a full disk does): the existing
        // file keeps its bytes and no temporary file is left beside it.
        const QString kept = QDir(out.path()).filePath(QStringLiteral("kept.pdf"));
        QFile kept_file(kept);
        QVERIFY(kept_file.open(QIODevice::WriteOnly));
        kept_file.write("the previous report");
        kept_file.close();
        rlimit before{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &before), 0);
        rlimit small = before;
        small.rlim_cur = 256;
        auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        const bool written = dialog->exportTo(kept, &error);
        ::setrlimit(RLIMIT_FSIZE, &before);
        std::signal(SIGXFSZ, old_handler);
        QVERIFY(!written);
        QVERIFY2(error.contains(kept), qPrintable(error));
        qInfo("refused: %s", qPrintable(error));
        QCOMPARE(readAll(kept), QByteArray("the previous report"));
        const QStringList left =
            QDir(out.path()).entryList({QStringLiteral("kept.pdf*")}, QDir::Files | QDir::Hidden);
        QCOMPARE(left, QStringList{QStringLiteral("kept.pdf")});

        // The results stay in the app, the dialog stays open for another try.
        QCOMPARE(window.resultsModel()->rowCount(), rows);
        QCOMPARE(window.resultsView()->cards().size(), qsizetype(rows));
        QVERIFY(dialog->isVisible());
        QVERIFY(action->isEnabled());
        dialog->reject();
        QTRY_VERIFY(!openDialog(&window));

        // Another policy clears the results: nothing to export.
        QVERIFY(window.openPolicyByName(QStringLiteral("code_review")));
        QVERIFY(!action->isEnabled());
        QVERIFY(!window.decisionReport());
    }

    // The Compare view's last comparison (the generative side refused: a slot read's time).
    void compareReport() {
        ui::MainWindow window(options());
        engine::EngineOptions eo;
        eo.model_dir = DS_TINY_MODEL_DIR;
        eo.device = engine::Device::Cpu;
        auto opened = core::LocalBackend::open(eo);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        local_ = std::shared_ptr<core::Backend>(std::move(opened.value()));

        ui::CompareWindow view;
        QAction* action = view.exportReportAction();
        QVERIFY(action);
        QCOMPARE(action->shortcut(), kExportKey);
        QVERIFY(view.actions().contains(action));
        QVERIFY(!action->isEnabled());

        core::DecideRequest request;
        request.schema = *window.document()->schema();
        request.state = window.document()->state();
        request.seed = window.runSeed();
        QSignalSpy finished(&view, &ui::CompareWindow::finished);
        QVERIFY(view.start(std::make_shared<NoChatRoute>(local_), request, {},
                           QStringLiteral("support_triage"), QStringLiteral("systemone-only"),
                           window.document()->path(), window.document()->variables()));
        QVERIFY(!action->isEnabled());  // not while it runs
        QVERIFY(finished.wait(300000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(view.model()->hasComparison());
        QVERIFY(action->isEnabled());

        action->trigger();
        ui::ExportReportDialog* dialog = openDialog(&view);
        QVERIFY(dialog);
        QCOMPARE(dialog->report().kind, report::Kind::Comparison);
        QCOMPARE(dialog->report().provenance.endpoint, std::string("systemone-only test server"));
        QVERIFY(dialog->report().data.dump().find("support_triage") != std::string::npos);
        dialog->setFormat(report::Format::Pdf);
        QVERIFY(dialog->previewPageCount() >= 1);
        QTemporaryDir out;
        QString why;
        QVERIFY2(writesEveryFormat(dialog, QDir(out.path()), QStringLiteral("comparison"), &why),
                 qPrintable(why));
        QCOMPARE(readJson(QDir(out.path()).filePath(QStringLiteral("comparison.json")))
                     .value("kind", std::string()),
                 std::string("comparison"));
        dialog->reject();
        QTRY_VERIFY(!openDialog(&view));
    }

    // The Bench view's shown run: two items of the shipped suite, kept and reopened.
    void benchReport() {
        ui::BenchWindow w(options().bench);
        w.setEndpoints(localStore());
        QAction* action = w.exportReportAction();
        QVERIFY(action);
        QCOMPARE(action->shortcut(), kExportKey);
        QVERIFY(w.actions().contains(action));
        QVERIFY(!action->isEnabled());
        QVERIFY(!w.benchReport());

        QVERIFY2(w.selectSuite(QStringLiteral(DS_SOURCE_DIR "/resources/suites/policies.jsonl")),
                 qPrintable(w.statusText()));
        w.setMode(core::eval::RunMode::Slot);
        w.setLimit(2);
        w.setWorkers(1);
        QSignalSpy finished(&w, &ui::BenchWindow::runFinished);
        QVERIFY(w.run());
        QVERIFY(!action->isEnabled());
        QVERIFY(finished.wait(600000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(w.statusText()));
        QCOMPARE(w.records().size(), size_t(2));
        QVERIFY(action->isEnabled());

        action->trigger();
        ui::ExportReportDialog* dialog = openDialog(&w);
        QVERIFY(dialog);
        const report::Report& r = dialog->report();
        QCOMPARE(r.kind, report::Kind::Bench);
        const std::string data = r.data.dump();
        for (const auto& record : w.records())
            QVERIFY2(data.find('"' + record.id + '"') != std::string::npos, record.id.c_str());
        QVERIFY(data.find("policies.jsonl") != std::string::npos);  // the dataset / suite path
        const size_t csv_rows = r.csv.rows.size();
        QVERIFY(csv_rows > 0);
        dialog->setFormat(report::Format::Pdf);
        QVERIFY(dialog->previewPageCount() >= 1);
        QTemporaryDir out;
        QString why;
        QVERIFY2(writesEveryFormat(dialog, QDir(out.path()), QStringLiteral("bench"), &why),
                 qPrintable(why));
        QCOMPARE(readJson(QDir(out.path()).filePath(QStringLiteral("bench.json")))
                     .value("kind", std::string()),
                 std::string("bench"));
        dialog->reject();  // deletes it (and its Report)
        QTRY_VERIFY(!openDialog(&w));

        // A kept run reopened from its journal exports too.
        const QStringList kept = w.keptRuns();
        QCOMPARE(kept.size(), 1);
        ui::BenchWindow again(options().bench);
        again.setEndpoints(localStore());
        QVERIFY(again.openRun(kept.first()));
        QVERIFY(again.exportReportAction()->isEnabled());
        const auto reopened = again.benchReport();
        QVERIFY(reopened.has_value());
        QCOMPARE(reopened->kind, report::Kind::Bench);
        QCOMPARE(reopened->csv.rows.size(), csv_rows);
    }
};

QTEST_MAIN(ReportExportTest)
#include "tst_report_export.moc"
