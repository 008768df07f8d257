// The main window's menus and toolbar (see main_window.h): the Policy menu hands its file
// operations to PolicyFiles, the Run menu to the runs (main_window_runs.cpp).
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QListView>
#include <QMenuBar>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include "ui/canvas/canvas_view.h"
#include "ui/editor/policy_document.h"
#include "ui/editor/policy_form.h"
#include "ui/editor/source_editor.h"
#include "ui/editor/undo_routing_edit.h"
#include "ui/editor/variables_panel.h"
#include "ui/icons.h"
#include "ui/library/policy_files.h"
#include "ui/main_window.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"
#include "ui/results/results_view.h"

namespace ui {

void MainWindow::buildActions() {
    buildPolicyMenu();
    auto [undo, redo] = buildEditMenu();
    buildRunMenu();
    buildViewMenu();
    buildToolBar(undo, redo);
}

void MainWindow::buildPolicyMenu() {
    QMenu* policy = menuBar()->addMenu(tr("&Policy"));
    QAction* new_policy = policy->addAction(tr("&New…"), files_, &PolicyFiles::createNew);
    new_policy->setShortcut(QKeySequence::New);
    duplicate_ = policy->addAction(tr("&Duplicate…"), files_, &PolicyFiles::duplicate);
    duplicate_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    rename_ = policy->addAction(tr("&Rename…"), files_, &PolicyFiles::rename);
    rename_->setShortcut(QKeySequence(Qt::Key_F2));
    delete_ = policy->addAction(tr("De&lete"), files_, &PolicyFiles::remove);
    policy->addSeparator();
    policy->addAction(tr("&Import…"), files_, &PolicyFiles::importFile);
    policy->addAction(tr("E&xport…"), files_, &PolicyFiles::exportFile);
    export_report_ = policy->addAction(tr("Export re&port…"), this, [this] { exportReport(); });
    export_report_->setObjectName(QStringLiteral("exportReportAction"));
    export_report_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    export_report_->setToolTip(
        tr("The latest decision as a report to hand on: HTML, PDF, CSV or JSON, with a preview"));
    export_report_->setEnabled(false);
    policy->addSeparator();
    save_ = policy->addAction(tr("&Save"), files_, &PolicyFiles::save);
    save_->setShortcut(QKeySequence::Save);
    policy->addSeparator();
    policy->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

std::pair<QAction*, QAction*> MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    return {undo, redo};
}

void MainWindow::buildRunMenu() {
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
    run_menu->addAction(tr("&Data…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D), this,
                        [this] { showData(); });
    run_menu->addAction(tr("&Models…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), this,
                        [this] { showModels(); });
}

void MainWindow::buildViewMenu() {
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
}

void MainWindow::buildToolBar(QAction* undo, QAction* redo) {
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

}  // namespace ui
