// The main window (see main_window.h).
#include "ui/main_window.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <filesystem>

#include "core/dataset/data_rows.h"
#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_view.h"
#include "ui/compare/compare_window.h"
#include "ui/editor/policy_document.h"
#include "ui/editor/policy_form.h"
#include "ui/editor/source_editor.h"
#include "ui/editor/undo_routing_edit.h"
#include "ui/editor/variables_panel.h"
#include "ui/endpoints/endpoints_dialog.h"
#include "ui/images/images_model.h"
#include "ui/images/images_panel.h"
#include "ui/library/policy_files.h"
#include "ui/library/policy_library.h"
#include "ui/models/models_view.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

namespace ui {

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent),
      options_(options),
      library_(new PolicyLibrary(options.user_policy_dir, this)),
      document_(new PolicyDocument(this)),
      canvas_model_(new CanvasModel(this)),
      results_model_(new ResultsModel(this)),
      history_(new HistoryModel(50, this)),
      images_(new ImagesModel(this)),
      runner_(new core::BackendRunner(this)),
      session_(new core::EndpointSession(this)),
      files_(new PolicyFiles(library_, document_, this, options.initial_policy)) {
    setWindowTitle(tr("Decision Studio"));
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);  // a .csv/.jsonl dropped here opens in the Data view
    buildLayout();
    buildActions();

    connect(document_, &PolicyDocument::rendered, this, [this] {
        if (document_->schema()) canvas_model_->setInput(*document_->schema(), document_->state());
        updateTitle();
        updateActions();
    });
    connect(document_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(results_model_, &QAbstractItemModel::modelReset, this, &MainWindow::updateActions);
    connect(runner_, &core::BackendRunner::progress, this,
            [this](const QString& stage, double f) { results_view_->showProgress(stage, f); });
    connect(runner_, &core::BackendRunner::decided, this, &MainWindow::onDecided);
    connect(runner_, &core::BackendRunner::failed, this, &MainWindow::onFailed);
    connect(runner_, &core::BackendRunner::busyChanged, this, &MainWindow::updateActions);
    connect(session_, &core::EndpointSession::progress, this, &MainWindow::onBackendProgress);
    connect(session_, &core::EndpointSession::built, this, &MainWindow::onBackendBuilt);
    connect(session_, &core::EndpointSession::failed, this, &MainWindow::onBackendFailed);
    connect(files_, &PolicyFiles::opened, this, &MainWindow::onPolicyOpened);
    connect(files_, &PolicyFiles::statusMessage, this, [this](const QString& text, int timeout_ms) {
        statusBar()->showMessage(text, timeout_ms);
    });
    connect(&tokenizer_watcher_, &QFutureWatcherBase::finished, this,
            [this] { canvas_model_->setTokenizer(tokenizer_watcher_.result()); });
    connect(library_, &PolicyLibrary::policyFileChanged, this, [this](const QString& path) {
        if (path != document_->path()) return;
        if (!document_->isModified()) {
            files_->reloadFromDisk();
            reload_bar_->hide();
            statusBar()->showMessage(tr("Reloaded %1: it changed on disk.").arg(document_->name()),
                                     5000);
        } else {
            reload_label_->setText(
                tr("%1 changed on disk, and you have unsaved edits.").arg(document_->name()));
            reload_bar_->show();
        }
    });

    restoreSettings();
}

MainWindow::~MainWindow() {
    runner_->cancel();
    session_->forget();
    tokenizer_watcher_.waitForFinished();
}

void MainWindow::buildLayout() {
    main_split_ = new QSplitter(Qt::Horizontal, this);
    main_split_->setObjectName(QStringLiteral("mainSplitter"));

    // Library.
    auto* library_box = new QWidget(main_split_);
    auto* library_layout = new QVBoxLayout(library_box);
    library_layout->setContentsMargins(6, 6, 0, 6);
    auto* library_label = new QLabel(tr("&Policies"), library_box);
    library_view_ = new QListView(library_box);
    library_view_->setObjectName(QStringLiteral("policyList"));
    library_view_->setModel(library_);
    library_label->setBuddy(library_view_);
    library_layout->addWidget(library_label);
    library_layout->addWidget(library_view_, 1);
    connect(library_view_, &QListView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid() && library_->entry(index.row())->path != document_->path())
            openPolicy(index.row());
    });

    // Editor: form | source, variables below.
    auto* editor_box = new QWidget(main_split_);
    auto* editor_layout = new QVBoxLayout(editor_box);
    editor_layout->setContentsMargins(0, 6, 0, 6);
    reload_bar_ = new QWidget(editor_box);
    auto* reload_layout = new QHBoxLayout(reload_bar_);
    reload_layout->setContentsMargins(4, 2, 4, 2);
    reload_label_ = new QLabel(reload_bar_);
    auto* reload = new QPushButton(tr("Reload from disk"), reload_bar_);
    auto* keep = new QPushButton(tr("Keep my edits"), reload_bar_);
    reload_layout->addWidget(reload_label_, 1);
    reload_layout->addWidget(reload);
    reload_layout->addWidget(keep);
    reload_bar_->setAutoFillBackground(true);
    reload_bar_->setBackgroundRole(QPalette::ToolTipBase);
    reload_bar_->hide();
    connect(reload, &QPushButton::clicked, this, [this] {
        files_->reloadFromDisk();
        reload_bar_->hide();
    });
    connect(keep, &QPushButton::clicked, reload_bar_, &QWidget::hide);
    editor_layout->addWidget(reload_bar_);
    editor_split_ = new QSplitter(Qt::Vertical, editor_box);
    editor_split_->setObjectName(QStringLiteral("editorSplitter"));
    views_split_ = new QSplitter(Qt::Horizontal, editor_split_);
    views_split_->setObjectName(QStringLiteral("viewsSplitter"));
    form_ = new PolicyForm(document_, views_split_);
    files_->setForm(form_);
    source_ = new SourceEditor(document_, views_split_);
    views_split_->addWidget(form_);
    views_split_->addWidget(source_);
    auto* variables_box = new QWidget(editor_split_);
    auto* variables_layout = new QVBoxLayout(variables_box);
    variables_layout->setContentsMargins(0, 0, 0, 0);
    auto* variables_label = new QLabel(tr("&Variables"), variables_box);
    variables_ = new VariablesPanel(document_, variables_box);
    variables_label->setBuddy(variables_);
    variables_layout->addWidget(variables_label);
    variables_layout->addWidget(variables_, 1);
    images_panel_ = new ImagesPanel(images_, variables_box);
    variables_layout->addWidget(images_panel_);
    connect(images_, &ImagesModel::imagesChanged, this, &MainWindow::updateImageChips);
    editor_split_->addWidget(views_split_);
    editor_split_->addWidget(variables_box);
    editor_split_->setStretchFactor(0, 2);
    editor_split_->setStretchFactor(1, 1);
    editor_split_->setSizes({560, 280});
    editor_layout->addWidget(editor_split_, 1);

    // Results and canvas.
    side_tabs_ = new QTabWidget(main_split_);
    side_tabs_->setObjectName(QStringLiteral("sideTabs"));
    results_view_ = new ResultsView(results_model_, history_, side_tabs_);
    canvas_view_ = new CanvasView(canvas_model_, side_tabs_);
    side_tabs_->addTab(results_view_, tr("&Results"));
    side_tabs_->addTab(canvas_view_, tr("Ca&nvas"));
    connect(results_view_, &ResultsView::historySelected, this, [this](int row) {
        if (const HistoryEntry* e = history_->entry(row)) results_model_->setDecision(e->decision);
    });

    main_split_->addWidget(library_box);
    main_split_->addWidget(editor_box);
    main_split_->addWidget(side_tabs_);
    main_split_->setStretchFactor(0, 0);
    main_split_->setStretchFactor(1, 3);
    main_split_->setStretchFactor(2, 2);
    // Proportions (QSplitter scales them to the window): the results column gets the room its
    // cards need at 1280 pixels wide.
    main_split_->setSizes({180, 680, 620});
    views_split_->setSizes({420, 340});  // the form's question table needs the width
    setCentralWidget(main_split_);

    endpoint_label_ = new QLabel(this);
    endpoint_label_->setObjectName(QStringLiteral("endpointLabel"));
    endpoint_label_->setToolTip(tr("The active endpoint (Ctrl+E to change)"));
    statusBar()->addPermanentWidget(endpoint_label_);

    // Loading the model: the stage, a percentage, and a way out.
    load_status_ = new QWidget(this);
    auto* load_layout = new QHBoxLayout(load_status_);
    load_layout->setContentsMargins(0, 0, 0, 0);
    load_label_ = new QLabel(load_status_);
    load_label_->setObjectName(QStringLiteral("loadLabel"));
    load_bar_ = new QProgressBar(load_status_);
    load_bar_->setObjectName(QStringLiteral("loadProgress"));
    load_bar_->setRange(0, 100);
    load_bar_->setMaximumWidth(160);
    load_bar_->setAccessibleName(tr("Model loading progress"));
    auto* load_cancel = new QToolButton(load_status_);
    load_cancel->setObjectName(QStringLiteral("loadCancel"));
    load_cancel->setText(tr("Cancel loading"));
    load_cancel->setAutoRaise(true);
    connect(load_cancel, &QToolButton::clicked, session_, &core::EndpointSession::cancelBuild);
    load_layout->addWidget(load_label_);
    load_layout->addWidget(load_bar_);
    load_layout->addWidget(load_cancel);
    statusBar()->addPermanentWidget(load_status_);
    load_status_->hide();
}

QString MainWindow::endpointStatusText() const {
    return endpoint_label_->text();
}

void MainWindow::setEndpoints(const core::EndpointProfileStore& store) {
    endpoints_ = store;
    QSettings settings;
    endpoints_.save(settings);
    if (bench_) bench_->setEndpoints(endpoints_);
    if (data_) data_->setEndpoints(endpoints_);
    activeProfileChanged();
}

BenchWindow* MainWindow::showBench() {
    if (!bench_) {
        bench_ = new BenchWindow(options_.bench, this);
        bench_->setWindowFlag(Qt::Window);
        bench_->resize(1400, 900);
        bench_->setEndpoints(endpoints_);
        connect(bench_, &BenchWindow::openItemRequested, this,
                [this](const QString& name, const QString& source) {
                    openUnsaved(name, source);
                    raise();
                    activateWindow();
                    run();
                });
        connect(bench_, &BenchWindow::calibrateRequested, this, [this] {
            calibrate(bench_->calibrationItems(),
                      tr("the bench run %1").arg(QFileInfo(bench_->runDir()).fileName()));
        });
    }
    bench_->show();
    bench_->raise();
    return bench_;
}

ModelsView* MainWindow::showModels() {
    if (!models_) {
        models_ = new ModelsView({}, this);
        models_->setWindowFlag(Qt::Window);
        models_->setWindowTitle(tr("Models — Decision Studio"));
        models_->resize(1200, 600);
        // A model chosen for a local profile: the profile keeps it (and, when active, the
        // session loads it).
        connect(models_, &ModelsView::modelChosen, this,
                [this](const QString& profile, const QString& dir) {
                    core::EndpointProfileStore store = endpoints_;
                    for (auto& p : store.profiles)
                        if (QString::fromStdString(p.name) == profile)
                            p.model_dir = dir.toStdString();
                    setEndpoints(store);
                });
    }
    models_->setProfiles(endpoints_);
    models_->show();
    models_->raise();
    return models_;
}

DataWindow* MainWindow::showData() {
    if (!data_) {
        data_ = new DataWindow(
            options_.bench.runs_dir.isEmpty()
                ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/runs"
                : options_.bench.runs_dir,
            this);
        data_->setWindowFlag(Qt::Window);
        data_->setWindowTitle(tr("Data — Decision Studio"));
        data_->resize(1300, 900);
        // A row opens as the policy it went through, rendered with the row's variables.
        connect(data_, &DataWindow::openRowRequested, this,
                [this](const QString&, const QString& variables) {
                    document_->setVariables(nlohmann::json::parse(variables.toStdString()));
                    raise();
                    activateWindow();
                });
        connect(data_, &DataWindow::calibrateRequested, this, [this] {
            const auto& schema = document_->schema();
            auto input = data_->calibrationInput(schema ? &*schema : nullptr);
            const QString run = tr("the dataset run %1").arg(QFileInfo(data_->runDir()).fileName());
            if (!input)
                return statusBar()->showMessage(
                    tr("Calibrate: %1").arg(QString::fromStdString(input.error().message)));
            calibrate(std::move(input->items), run);
        });
    }
    data_->openPolicy(document_->path());
    data_->setEndpoints(endpoints_);
    data_->setBackend(session_->backend());
    const core::EndpointProfile* profile = endpoints_.activeProfile();
    QString error;
    if (!session_->backend() && profile && !session_->buildingFor(*profile))
        startBackend(*profile, &error);  // the view's Run enables once it is built
    data_->show();
    data_->raise();
    return data_;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && core::dataset::data_format_for(urls[0].toLocalFile().toStdString()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1) showData()->openData(urls[0].toLocalFile());
}

CompareWindow* MainWindow::showCompare() {
    if (!compare_view_) {
        compare_view_ = new CompareWindow(this);
        compare_view_->setWindowFlag(Qt::Window);
        compare_view_->resize(1400, 900);
        connect(compare_view_, &CompareWindow::busyChanged, this, &MainWindow::updateActions);
        connect(compare_view_, &CompareWindow::rerunRequested, this, [this] { compare(); });
    }
    compare_view_->show();
    compare_view_->raise();
    return compare_view_;
}

void MainWindow::openUnsaved(const QString& name, const QString& source) {
    files_->openUnsaved(name, source);
}

void MainWindow::onPolicyOpened(int row) {
    reload_bar_->hide();
    if (row >= 0)
        library_view_->setCurrentIndex(library_->index(row));
    else
        library_view_->clearSelection();
    results_model_->clear();
    results_view_->clearStatus();
    updateTitle();
    updateActions();
}

void MainWindow::activeProfileChanged() {
    runner_->cancel();
    run_pending_ = false;
    if (compare_view_) compare_view_->cancel();
    compare_pending_ = false;
    const core::EndpointProfile* p = endpoints_.activeProfile();
    // An unchanged local profile keeps its loaded (or loading) engine.
    const bool kept = session_->select(p);
    if (!kept) load_status_->hide();
    runner_->setBackend(session_->backend());
    if (data_) data_->setBackend(session_->backend());
    updateImageChips();
    endpoint_label_->setText(p ? QString::fromStdString(p->summary()) : tr("No endpoint"));
    loadTokenizer();
    if (p && p->kind == core::EndpointKind::Local && options_.preload_model && !kept) {
        QString error;
        if (!startBackend(*p, &error)) statusBar()->showMessage(error, 8000);
    }
    updateActions();
}

void MainWindow::loadTokenizer() {
    // The canvas needs the tokenizer of the model that reads it: the local model's folder, the
    // vLLM profile's tokenizer folder, else the one the build prepared.
    const core::EndpointProfile* p = endpoints_.activeProfile();
    QString path;
    if (p) {
        const std::string dir =
            p->kind == core::EndpointKind::Local ? p->model_dir : p->tokenizer_dir;
        if (!dir.empty() && std::filesystem::exists(std::filesystem::path(dir) / "tokenizer.json"))
            path = QString::fromStdString((std::filesystem::path(dir) / "tokenizer.json").string());
    }
    if (path.isEmpty() && QFileInfo::exists(options_.fallback_tokenizer_json))
        path = options_.fallback_tokenizer_json;
    if (path == tokenizer_path_) return;
    tokenizer_path_ = path;
    if (path.isEmpty()) {
        canvas_model_->setTokenizer(nullptr);
        return;
    }
    tokenizer_watcher_.waitForFinished();
    tokenizer_watcher_.setFuture(
        QtConcurrent::run([path]() -> std::shared_ptr<const engine::Tokenizer> {
            auto loaded = engine::Tokenizer::load(path.toStdString());
            if (!loaded) return nullptr;
            return std::make_shared<const engine::Tokenizer>(std::move(loaded.value()));
        }));
}

void MainWindow::showEndpoints() {
    EndpointsDialog dialog(endpoints_, this);
    if (dialog.exec() == QDialog::Accepted) setEndpoints(dialog.store());
}

bool MainWindow::openPolicy(int row) {
    return files_->open(row);
}

bool MainWindow::openPolicyByName(const QString& name) {
    return files_->openByName(name);
}

void MainWindow::updateTitle() {
    const QString name = document_->name();
    setWindowTitle(name.isEmpty()
                       ? tr("Decision Studio")
                       : tr("%1%2 — Decision Studio")
                             .arg(name, document_->isModified() ? QStringLiteral("*") : QString()));
}

bool MainWindow::busy() const {
    return runner_->busy() || run_pending_ || compare_pending_ ||
           (compare_view_ && compare_view_->busy());
}

void MainWindow::updateActions() {
    const bool busy = this->busy();
    const bool runnable = document_->valid() && document_->schema().has_value();
    run_->setEnabled(!busy && runnable);
    compare_->setEnabled(!busy && runnable);
    cancel_->setEnabled(busy || backendLoading());
    // While the model loads, Run says what it waits for (and queues the run when clicked).
    if (backendLoading() && run_pending_) {
        run_->setText(tr("Waiting for the model: %1").arg(loadText()));
        run_->setToolTip(tr("The run starts as soon as the model is loaded (Esc cancels)"));
    } else if (backendLoading()) {
        run_->setText(tr("&Run decision"));
        run_->setToolTip(tr("The model is loading (%1); a run now starts as soon as it is ready")
                             .arg(loadText()));
    } else {
        run_->setText(tr("&Run decision"));
        run_->setToolTip(tr("Read every question in one pass (Ctrl+Return)"));
    }
    const PolicyEntry* e = library_->entry(library_->indexOfPath(document_->path()));
    const bool user = e && !e->shipped;
    rename_->setEnabled(user);
    delete_->setEnabled(user);
    duplicate_->setEnabled(e != nullptr);
    export_report_->setEnabled(last_decision_.has_value() && results_model_->hasDecision());
}

void MainWindow::restoreSettings() {
    QSettings settings;
    setEndpoints(core::EndpointProfileStore::load(
        settings, options_.default_model_dir.toStdString(), core::process_environment(),
        core::ConfigPaths::standard(core::process_environment())));
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1500, 900);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    main_split_->restoreState(settings.value(QStringLiteral("window/mainSplitter")).toByteArray());
    editor_split_->restoreState(
        settings.value(QStringLiteral("window/editorSplitter")).toByteArray());
    views_split_->restoreState(
        settings.value(QStringLiteral("window/viewsSplitter")).toByteArray());
    results_view_->setHistoryOpen(settings.value(QStringLiteral("window/historyOpen")).toBool());
    canvas_model_->setLayout(settings.value(QStringLiteral("canvas/layout")).toString() ==
                                     QLatin1String("schema_first")
                                 ? core::Layout::SchemaFirst
                                 : core::Layout::DocumentFirst);
    const QString last = settings.value(QStringLiteral("policy/last")).toString();
    const int row = library_->indexOfPath(last);
    if (row < 0 || !openPolicy(row)) openPolicyByName(options_.initial_policy);
    if (document_->name().isEmpty() && library_->rowCount() > 0) openPolicy(0);
}

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/mainSplitter"), main_split_->saveState());
    settings.setValue(QStringLiteral("window/editorSplitter"), editor_split_->saveState());
    settings.setValue(QStringLiteral("window/viewsSplitter"), views_split_->saveState());
    settings.setValue(QStringLiteral("window/historyOpen"), results_view_->historyOpen());
    settings.setValue(QStringLiteral("canvas/layout"),
                      QString::fromLatin1(core::to_string(canvas_model_->layout()).data()));
    settings.setValue(QStringLiteral("policy/last"), document_->path());
    endpoints_.save(settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!files_->maybeSave()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

}  // namespace ui
