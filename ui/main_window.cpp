// The main window (see main_window.h).
#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <filesystem>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_view.h"
#include "ui/compare/compare_window.h"
#include "ui/editor/policy_document.h"
#include "ui/editor/policy_form.h"
#include "ui/editor/source_editor.h"
#include "ui/editor/undo_routing_edit.h"
#include "ui/editor/variables_panel.h"
#include "ui/endpoints/endpoints_dialog.h"
#include "ui/icons.h"
#include "ui/images/images_model.h"
#include "ui/images/images_panel.h"
#include "ui/library/policy_library.h"
#include "ui/reports/export_report_dialog.h"
#include "ui/results/result_card.h"
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
      runner_(new core::BackendRunner(this)) {
    setWindowTitle(tr("Decision Studio"));
    setObjectName(QStringLiteral("mainWindow"));
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
    connect(&backend_watcher_, &QFutureWatcherBase::finished, this, &MainWindow::onBackendBuilt);
    connect(&tokenizer_watcher_, &QFutureWatcherBase::finished, this,
            [this] { canvas_model_->setTokenizer(tokenizer_watcher_.result()); });
    connect(library_, &PolicyLibrary::policyFileChanged, this, [this](const QString& path) {
        if (path != document_->path()) return;
        if (!document_->isModified()) {
            reloadFromDisk();
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
    load_cancel_.cancel();
    backend_watcher_.waitForFinished();
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
    connect(reload, &QPushButton::clicked, this, &MainWindow::reloadFromDisk);
    connect(keep, &QPushButton::clicked, reload_bar_, &QWidget::hide);
    editor_layout->addWidget(reload_bar_);
    editor_split_ = new QSplitter(Qt::Vertical, editor_box);
    editor_split_->setObjectName(QStringLiteral("editorSplitter"));
    views_split_ = new QSplitter(Qt::Horizontal, editor_split_);
    views_split_->setObjectName(QStringLiteral("viewsSplitter"));
    form_ = new PolicyForm(document_, views_split_);
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
    connect(load_cancel, &QToolButton::clicked, this, [this] { load_cancel_.cancel(); });
    load_layout->addWidget(load_label_);
    load_layout->addWidget(load_bar_);
    load_layout->addWidget(load_cancel);
    statusBar()->addPermanentWidget(load_status_);
    load_status_->hide();
}

void MainWindow::buildActions() {
    QMenu* policy = menuBar()->addMenu(tr("&Policy"));
    QAction* new_policy = policy->addAction(tr("&New…"), this, [this] {
        if (!maybeSave()) return;
        bool ok = false;
        const QString name =
            QInputDialog::getText(this, tr("New policy"), tr("Name:"), QLineEdit::Normal,
                                  library_->freeName(QStringLiteral("my_policy")), &ok);
        if (!ok) return;
        auto created = library_->createNew(name.trimmed());
        if (!created) {
            QMessageBox::warning(this, tr("New policy"),
                                 QString::fromStdString(created.error().message));
            return;
        }
        openPolicy(library_->indexOfPath(*created));
    });
    new_policy->setShortcut(QKeySequence::New);
    duplicate_ = policy->addAction(tr("&Duplicate…"), this, [this] {
        const int row = library_->indexOfPath(document_->path());
        if (row < 0) return;
        bool ok = false;
        const QString name =
            QInputDialog::getText(this, tr("Duplicate policy"), tr("Name of the copy:"),
                                  QLineEdit::Normal, library_->freeName(document_->name()), &ok);
        if (!ok) return;
        auto copied = library_->duplicate(row, name.trimmed());
        if (!copied) {
            QMessageBox::warning(this, tr("Duplicate policy"),
                                 QString::fromStdString(copied.error().message));
            return;
        }
        // The copy carries the edits made so far.
        const QString source = document_->source();
        const nlohmann::json variables = document_->variables();
        openPolicy(library_->indexOfPath(*copied));
        if (source != document_->source() && library_->save(*copied, source).ok()) {
            document_->load(document_->name(), *copied, source, document_->sampleVariables());
        }
        document_->setVariables(variables);
    });
    duplicate_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    rename_ = policy->addAction(tr("&Rename…"), this, [this] {
        const int row = library_->indexOfPath(document_->path());
        if (row < 0) return;
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename policy"), tr("New name:"),
                                                   QLineEdit::Normal, document_->name(), &ok);
        if (!ok || name.trimmed() == document_->name()) return;
        if (document_->isModified() && !save()) return;
        auto renamed = library_->rename(row, name.trimmed());
        if (!renamed) {
            QMessageBox::warning(this, tr("Rename policy"),
                                 QString::fromStdString(renamed.error().message));
            return;
        }
        openPolicy(library_->indexOfPath(*renamed));
    });
    rename_->setShortcut(QKeySequence(Qt::Key_F2));
    delete_ = policy->addAction(tr("De&lete"), this, [this] {
        const int row = library_->indexOfPath(document_->path());
        if (row < 0) return;
        if (QMessageBox::question(
                this, tr("Delete policy"),
                tr("Delete %1 from your policy folder?").arg(document_->name())) !=
            QMessageBox::Yes)
            return;
        auto removed = library_->remove(row);
        if (!removed) {
            QMessageBox::warning(this, tr("Delete policy"),
                                 QString::fromStdString(removed.error().message));
            return;
        }
        document_->setClean();
        openPolicyByName(options_.initial_policy);
    });
    policy->addSeparator();
    policy->addAction(tr("&Import…"), this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Import policy"), {},
                                                          tr("Policy templates (*.json.tmpl)"));
        if (file.isEmpty()) return;
        auto imported = library_->importFile(file);
        if (!imported) {
            QMessageBox::warning(this, tr("Import policy"),
                                 QString::fromStdString(imported.error().message));
            return;
        }
        if (maybeSave()) openPolicy(library_->indexOfPath(*imported));
    });
    policy->addAction(tr("E&xport…"), this, [this] {
        const int row = library_->indexOfPath(document_->path());
        if (row < 0) return;
        const QString file = QFileDialog::getSaveFileName(
            this, tr("Export policy"), document_->name() + QStringLiteral(".json.tmpl"),
            tr("Policy templates (*.json.tmpl)"));
        if (file.isEmpty()) return;
        auto exported = library_->exportTo(row, file);
        if (!exported)
            QMessageBox::warning(this, tr("Export policy"),
                                 QString::fromStdString(exported.error().message));
    });
    export_report_ = policy->addAction(tr("Export re&port…"), this, [this] { exportReport(); });
    export_report_->setObjectName(QStringLiteral("exportReportAction"));
    export_report_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    export_report_->setToolTip(
        tr("The latest decision as a report to hand on: HTML, PDF, CSV or JSON, with a preview"));
    export_report_->setEnabled(false);
    policy->addSeparator();
    save_ = policy->addAction(tr("&Save"), this, [this] { save(); });
    save_->setShortcut(QKeySequence::Save);
    policy->addSeparator();
    policy->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* run_menu = menuBar()->addMenu(tr("&Run"));
    run_ = run_menu->addAction(tr("&Run decision"), this, [this] { run(); });
    run_->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    compare_ = run_menu->addAction(tr("Compare slot vs &generative"), this, [this] { compare(); });
    compare_->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Enter)});
    compare_->setToolTip(
        tr("Answer the policy both ways on the active endpoint: the slot readout (one pass) "
           "and generative JSON, side by side"));
    cancel_ = run_menu->addAction(tr("&Cancel"), this, &MainWindow::cancelRun);
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->setEnabled(false);
    run_menu->addSeparator();
    run_menu->addAction(tr("Copy results as &JSON"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                        this, [this] {
                            if (results_model_->hasDecision())
                                QApplication::clipboard()->setText(results_view_->decisionJson());
                        });
    run_menu->addSeparator();
    run_menu->addAction(tr("&Endpoints…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                        &MainWindow::showEndpoints);
    run_menu->addAction(tr("&Bench…"), QKeySequence(Qt::CTRL | Qt::Key_B), this,
                        [this] { showBench(); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto focus = [this, view](const QString& text, int key, auto fn) {
        QAction* a = view->addAction(text, this, fn);
        a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(key)));
    };
    focus(tr("Policies"), Qt::Key_1, [this] { library_view_->setFocus(); });
    focus(tr("Form"), Qt::Key_2, [this] { form_->instructionsEdit()->setFocus(); });
    focus(tr("Source"), Qt::Key_3, [this] { source_->edit()->setFocus(); });
    focus(tr("Variables"), Qt::Key_4, [this] { variables_->findChild<QTableView*>()->setFocus(); });
    focus(tr("Results"), Qt::Key_5, [this] {
        side_tabs_->setCurrentWidget(results_view_);
        // The first card, so Tab walks the cards and a screen reader reads the answer.
        const auto cards = results_view_->cards();
        if (!cards.isEmpty())
            cards.first()->setFocus(Qt::ShortcutFocusReason);
        else
            results_view_->setFocus();
    });
    focus(tr("Canvas"), Qt::Key_6, [this] {
        side_tabs_->setCurrentWidget(canvas_view_);
        canvas_view_->layoutSwitch()->setFocus();
    });

    run_->setIcon(actionIcon(ActionIcon::Run));
    compare_->setIcon(actionIcon(ActionIcon::Compare));
    cancel_->setIcon(actionIcon(ActionIcon::Cancel));
    undo->setIcon(actionIcon(ActionIcon::Undo));
    redo->setIcon(actionIcon(ActionIcon::Redo));
    save_->setIcon(actionIcon(ActionIcon::Save));
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(run_);
    bar->addAction(compare_);
    bar->addAction(cancel_);
    bar->addSeparator();
    bar->addAction(undo);
    bar->addAction(redo);
    bar->addAction(save_);
    // Undo and Redo name the command they undo ("Undo Edit instructions"): icons only, the text
    // in their tooltips, so the toolbar does not change width with every edit.
    for (QAction* a : {undo, redo})
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(a)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
}

QString MainWindow::endpointStatusText() const {
    return endpoint_label_->text();
}

void MainWindow::setEndpoints(const core::EndpointProfileStore& store) {
    endpoints_ = store;
    QSettings settings;
    endpoints_.save(settings);
    if (bench_) bench_->setEndpoints(endpoints_);
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
    }
    bench_->show();
    bench_->raise();
    return bench_;
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
    if (!maybeSave()) return;
    document_->load(name, QString(), source, nlohmann::json::object());
    reload_bar_->hide();
    library_view_->clearSelection();
    results_model_->clear();
    results_view_->clearStatus();
    updateTitle();
    updateActions();
}

void MainWindow::activeProfileChanged() {
    runner_->cancel();
    load_cancel_.cancel();
    ++load_generation_;
    run_pending_ = false;
    if (compare_view_) compare_view_->cancel();
    compare_pending_ = false;
    backend_.reset();
    backend_profile_.clear();
    runner_->setBackend(nullptr);
    updateImageChips();
    const core::EndpointProfile* p = endpoints_.activeProfile();
    endpoint_label_->setText(p ? QString::fromStdString(p->summary()) : tr("No endpoint"));
    loadTokenizer();
    if (p && p->kind == core::EndpointKind::Local && options_.preload_model) {
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
    const PolicyEntry* entry = library_->entry(row);
    if (!entry) return false;
    const PolicyEntry e = *entry;
    auto source = PolicyLibrary::readSource(e);
    if (!source) {
        statusBar()->showMessage(QString::fromStdString(source.error().message));
        return false;
    }
    auto vars_text = PolicyLibrary::readVariables(e);
    nlohmann::json vars = nlohmann::json::object();
    if (vars_text) {
        vars = nlohmann::json::parse(vars_text->toStdString(), nullptr, false);
        if (vars.is_discarded() || !vars.is_object()) {
            statusBar()->showMessage(
                tr("%1: not a JSON object of variables; starting with none").arg(e.vars_path));
            vars = nlohmann::json::object();
        }
    }
    document_->load(e.name, e.path, *source, vars);
    reload_bar_->hide();
    library_view_->setCurrentIndex(library_->index(row));
    results_model_->clear();
    results_view_->clearStatus();
    updateTitle();
    updateActions();
    return true;
}

bool MainWindow::openPolicyByName(const QString& name) {
    return openPolicy(library_->indexOfName(name, false));
}

void MainWindow::reloadFromDisk() {
    const int row = library_->indexOfPath(document_->path());
    const nlohmann::json variables = document_->variables();
    if (row >= 0 && openPolicy(row)) document_->setVariables(variables);
    reload_bar_->hide();
}

bool MainWindow::save() {
    form_->commitInstructions();
    const int row = library_->indexOfPath(document_->path());
    const PolicyEntry* e = library_->entry(row);
    if (!e && document_->path().isEmpty()) {
        // An unsaved document (a bench item): Save names it and puts it in the user folder.
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Save policy"), tr("Save this policy as:"), QLineEdit::Normal,
            library_->freeName(QStringLiteral("bench_item")), &ok);
        if (!ok) return false;
        auto created = library_->createNew(name.trimmed());
        if (!created) {
            QMessageBox::warning(this, tr("Save"), QString::fromStdString(created.error().message));
            return false;
        }
        if (!library_->save(*created, document_->source())) return false;
        const nlohmann::json variables = document_->variables();
        openPolicy(library_->indexOfPath(*created));
        document_->setVariables(variables);
        return true;
    }
    if (!e) return false;
    if (e->shipped) {
        // Shipped policies are read-only: the edits go into a copy in the user folder.
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Save a copy"), tr("Shipped policies are read-only. Save your edits as:"),
            QLineEdit::Normal, library_->freeName(e->name), &ok);
        if (!ok) return false;
        auto copied = library_->duplicate(row, name.trimmed());
        if (!copied) {
            QMessageBox::warning(this, tr("Save"), QString::fromStdString(copied.error().message));
            return false;
        }
        const QString source = document_->source();
        auto saved = library_->save(*copied, source);
        if (!saved) return false;
        const nlohmann::json variables = document_->variables();
        openPolicy(library_->indexOfPath(*copied));
        document_->setVariables(variables);
        return true;
    }
    auto saved = library_->save(e->path, document_->source());
    if (!saved) {
        QMessageBox::warning(this, tr("Save"), QString::fromStdString(saved.error().message));
        return false;
    }
    document_->setClean();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document_->path())), 3000);
    return true;
}

bool MainWindow::maybeSave() {
    form_->commitInstructions();
    if (!document_->isModified()) return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved edits"), tr("Save your edits to %1?").arg(document_->name()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
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

uint64_t MainWindow::runSeed() const {
    return canvas_model_->seed();
}

bool MainWindow::run() {
    form_->commitInstructions();
    if (!document_->valid() || !document_->schema()) {
        results_view_->showError(tr("The policy does not render: %1").arg(document_->firstError()));
        return false;
    }
    if (busy()) return false;
    const core::EndpointProfile* profile = endpoints_.activeProfile();
    if (!profile) {
        results_view_->showError(tr("No endpoint: add one in Endpoints (Ctrl+E)."));
        return false;
    }
    side_tabs_->setCurrentWidget(results_view_);
    run_policy_ = document_->name();
    if (backend_ && backend_profile_ == profile->name) {
        startDecide();
        return true;
    }
    // The backend is being built (the model loading since the window opened): run when ready.
    if (backendLoading() && backend_profile_ == profile->name) {
        run_pending_ = true;
        results_view_->showProgress(tr("Waiting for the model: %1").arg(loadText()),
                                    load_fraction_);
        updateActions();
        return true;
    }
    QString error;
    if (!startBackend(*profile, &error)) {
        results_view_->showError(error);
        return false;
    }
    run_pending_ = true;
    results_view_->showProgress(profile->remote() ? tr("Connecting") : tr("Loading the model"), -1);
    updateActions();
    return true;
}

bool MainWindow::backendLoading() const {
    return backend_watcher_.isRunning();
}

bool MainWindow::startBackend(const core::EndpointProfile& profile, QString* error) {
    auto secrets = core::read_profile_secrets(profile, core::process_environment());
    if (!secrets) {
        *error = QString::fromStdString(secrets.error().message);
        return false;
    }
    load_cancel_.cancel();  // an older build, if one still runs, is no longer wanted
    load_cancel_ = core::CancelToken();
    backend_.reset();
    runner_->setBackend(nullptr);
    updateImageChips();
    backend_profile_ = profile.name;
    const uint64_t generation = ++load_generation_;
    // Reported on the worker thread; shown on this one (a build that was replaced is muted).
    core::ProgressFn progress = [this, generation](const core::Progress& p) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, stage = QString::fromStdString(p.stage), f = p.fraction] {
                if (generation == load_generation_) onBackendProgress(stage, f);
            },
            Qt::QueuedConnection);
    };
    backend_watcher_.setFuture(
        QtConcurrent::run([p = profile, s = secrets.value(), cancel = load_cancel_, progress] {
            return core::make_profile_backend(p, s, cancel, progress);
        }));
    onBackendProgress(profile.remote() ? QStringLiteral("connecting") : QStringLiteral("reading"),
                      profile.remote() ? -1 : 0);
    return true;
}

QString MainWindow::loadText() const {
    QString stage;
    if (load_stage_ == QLatin1String("reading"))
        stage = tr("reading the weights");
    else if (load_stage_ == QLatin1String("binding"))
        stage = tr("binding the weights");
    else if (load_stage_ == QLatin1String("warming"))
        stage = tr("warming up");
    else
        stage = tr("connecting");
    if (load_fraction_ < 0) return stage;
    return tr("%1 %2%").arg(stage).arg(QLocale().toString(int(load_fraction_ * 100)));
}

void MainWindow::onBackendProgress(const QString& stage, double fraction) {
    load_stage_ = stage;
    load_fraction_ = fraction;
    const bool local = stage != QLatin1String("connecting");
    load_label_->setText(local ? tr("Loading the model: %1").arg(loadText()) : tr("Connecting…"));
    if (fraction < 0) {
        load_bar_->setRange(0, 0);  // busy: no size known
    } else {
        load_bar_->setRange(0, 100);
        load_bar_->setValue(int(fraction * 100));
    }
    load_status_->show();
    if (run_pending_)
        results_view_->showProgress(tr("Waiting for the model: %1").arg(loadText()), fraction);
    updateActions();
    Q_EMIT loadProgress(stage, fraction);
}

void MainWindow::onBackendBuilt() {
    load_status_->hide();
    load_stage_.clear();
    load_fraction_ = -1;
    auto result = backend_watcher_.result();
    if (!result) {
        backend_profile_.clear();
        const bool cancelled = result.error().kind == engine::ErrorKind::Cancelled;
        const QString message = QString::fromStdString(result.error().message);
        if (compare_pending_) {
            compare_pending_ = false;
            compare_view_->showError(cancelled ? tr("Cancelled.") : message);
        }
        if (run_pending_) {
            run_pending_ = false;
            onFailed(result.error());
        } else if (cancelled) {
            statusBar()->showMessage(tr("Model loading cancelled; the next run loads it."), 8000);
        } else {
            statusBar()->showMessage(tr("The model did not load: %1").arg(message), 15000);
        }
        updateActions();
        Q_EMIT backendBuilt(false);
        return;
    }
    backend_ = result.value();
    runner_->setBackend(backend_);
    updateImageChips();
    statusBar()->showMessage(tr("Ready: %1").arg(QString::fromStdString(backend_->describe())),
                             5000);
    Q_EMIT backendBuilt(true);
    if (run_pending_) startDecide();
    if (compare_pending_) startCompare();
    updateActions();
}

void MainWindow::updateImageChips() {
    QStringList sources;
    std::vector<int> soft_tokens;
    for (const auto& image : images_->images()) {
        sources << QString::fromStdString(image.source);
        // The image's size from its header; the model that reads it says how many tokens.
        QByteArray bytes = QByteArray::fromStdString(image.bytes);
        QBuffer buffer(&bytes);
        QImageReader reader(&buffer);
        const QSize size = reader.size();
        std::optional<int> n;
        if (backend_ && size.isValid())
            n = backend_->image_soft_tokens(size.width(), size.height());
        soft_tokens.push_back(n.value_or(0));
    }
    canvas_model_->setImages(sources, std::move(soft_tokens));
}

core::DecideRequest MainWindow::currentRequest() const {
    core::DecideRequest request;
    request.schema = *document_->schema();
    // The run reads the canvas the canvas view shows: its layout and seed.
    request.schema.layout = canvas_model_->layout();
    request.state = document_->state();
    request.seed = runSeed();
    request.images = images_->images();
    return request;
}

void MainWindow::startDecide() {
    run_pending_ = false;
    results_view_->showProgress(tr("Starting"), -1);
    const core::DecideRequest request = currentRequest();
    // What the report of this run says it answered: the policy, its variables, the schema read
    // and the canvas the canvas view shows for it.
    core::report::DecisionInput input;
    input.policy = {run_policy_.toStdString(), document_->path().toStdString()};
    input.schema = request.schema;
    input.variables = document_->variables();
    input.canvas = canvasSummary(request);
    input.images = request.images;
    pending_decision_ = std::move(input);
    if (!runner_->decide(request)) {
        pending_decision_.reset();
        results_view_->showError(tr("No backend for the active endpoint."));
    }
    updateActions();
}

std::optional<core::report::CanvasSummary> MainWindow::canvasSummary(
    const core::DecideRequest& request) const {
    const auto& plan = canvas_model_->plan();
    if (!plan || canvas_model_->building() || plan->groups.empty()) return std::nullopt;
    // Only the plan of this very request: same layout, seed, document and questions.
    int slots = 0, width = 0, prompt = 0;
    for (const core::ReadGroup& g : plan->groups) {
        slots += static_cast<int>(g.answer_slots.size());
        width = std::max(width, g.width);
        prompt = std::max(prompt, static_cast<int>(g.prompt_ids.size()));
    }
    if (plan->layout != request.schema.layout || plan->seed != request.seed ||
        plan->state_text != core::state_text(request.state) ||
        slots != static_cast<int>(request.schema.questions.size()))
        return std::nullopt;
    core::report::CanvasSummary s;
    s.layout = std::string(core::to_string(plan->layout));
    s.prompt_tokens = prompt;  // the longest group's prompt, as the backends count it
    s.width = width;
    s.answer_slots = slots;
    s.groups = static_cast<int>(plan->groups.size());
    // The first reads; onDecided puts the decision's count (the "auto" policy may read more).
    s.reads = static_cast<int>(plan->rows.size());
    return s;
}

std::optional<core::report::Report> MainWindow::decisionReport() const {
    if (!last_decision_ || !results_model_->hasDecision()) return std::nullopt;
    core::report::DecisionInput input = *last_decision_;
    input.provenance = core::report::make_provenance(
        "Decision Studio", last_decision_->provenance.endpoint, input.decision.model);
    return core::report::decision_report(input);
}

ExportReportDialog* MainWindow::exportReport() {
    auto made = decisionReport();
    if (!made) {
        statusBar()->showMessage(tr("No result to export yet: run the policy first (Ctrl+Return)."),
                                 5000);
        return nullptr;
    }
    auto* dialog = new ExportReportDialog(std::move(*made), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportReportDialog::exported, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)),
                                 5000);
    });
    dialog->open();
    return dialog;
}

bool MainWindow::compare() {
    form_->commitInstructions();
    CompareWindow* view = showCompare();
    if (!document_->valid() || !document_->schema()) {
        view->showError(tr("The policy does not render: %1").arg(document_->firstError()));
        return false;
    }
    if (busy()) return false;
    const core::EndpointProfile* profile = endpoints_.activeProfile();
    if (!profile) {
        view->showError(tr("No endpoint: add one in Endpoints (Ctrl+E)."));
        return false;
    }
    run_policy_ = document_->name();
    if (backend_ && backend_profile_ == profile->name) {
        startCompare();
        return view->busy();
    }
    // The same backend a run uses, built off the UI thread (or already loading).
    if (!(backendLoading() && backend_profile_ == profile->name)) {
        QString error;
        if (!startBackend(*profile, &error)) {
            view->showError(error);
            return false;
        }
    }
    compare_pending_ = true;
    view->showPreparing(profile->remote() ? tr("Connecting") : tr("Loading the model"));
    updateActions();
    return true;
}

void MainWindow::startCompare() {
    compare_pending_ = false;
    const core::EndpointProfile* p = endpoints_.activeProfile();
    CompareWindow* view = showCompare();
    view->start(backend_, currentRequest(), options_.compare, run_policy_,
                p ? QString::fromStdString(p->summary()) : QString(), document_->path(),
                document_->variables());
    updateActions();
}

void MainWindow::cancelRun() {
    if (compare_view_ && (compare_view_->busy() || compare_pending_)) {
        // A comparison (or the backend it waits for): the backend build goes on, unused.
        compare_pending_ = false;
        if (compare_view_->busy())
            compare_view_->cancel();
        else
            compare_view_->showError(tr("Cancelled."));
        updateActions();
        return;
    }
    // Esc stops a run, or one waiting for the model; with nothing else to stop, the loading.
    if (!runner_->busy() && !run_pending_) {
        if (backendLoading()) load_cancel_.cancel();
        return;
    }
    run_pending_ = false;
    pending_decision_.reset();
    runner_->cancel();
    results_view_->showError(tr("Cancelled."));
    updateActions();
    Q_EMIT runFinished(false);
}

void MainWindow::onDecided(const core::Decision& decision) {
    if (pending_decision_) {
        last_decision_ = std::move(pending_decision_);
        pending_decision_.reset();
        last_decision_->decision = decision;
        if (last_decision_->canvas) last_decision_->canvas->reads = decision.reads;
        // The endpoint as the backend describes itself: never a token or a key.
        last_decision_->provenance.endpoint =
            backend_ ? backend_->describe() : endpointStatusText().toStdString();
    }
    results_view_->clearStatus();
    results_model_->setDecision(decision);
    // The canvas view shows the read after the thought the model wrote (a remote server sends
    // the thought as text only: its tokens, as our tokenizer reads them).
    if (decision.thought) {
        std::vector<int32_t> ids = decision.thought->ids;
        if (ids.empty() && tokenizer_watcher_.isFinished() && tokenizer_watcher_.result())
            for (auto id : tokenizer_watcher_.result()->encode(decision.thought->text))
                ids.push_back(id);
        canvas_model_->setThought(std::move(ids));
    }
    const core::EndpointProfile* p = endpoints_.activeProfile();
    history_->add({QDateTime::currentDateTime(), run_policy_,
                   p ? QString::fromStdString(p->summary()) : QString(), decision});
    updateActions();
    Q_EMIT runFinished(true);
}

void MainWindow::onFailed(const engine::Error& error) {
    pending_decision_.reset();
    if (error.kind == engine::ErrorKind::Cancelled) {
        results_view_->showError(tr("Cancelled."));
    } else {
        // A backend that failed to build or connect is rebuilt on the next run.
        if (error.kind == engine::ErrorKind::Remote || !backend_) {
            backend_.reset();
            backend_profile_.clear();
        }
        results_view_->showError(QString::fromStdString(error.message));
    }
    updateActions();
    Q_EMIT runFinished(false);
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
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

}  // namespace ui
