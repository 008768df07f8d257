// The policy form (see policy_form.h).
#include "ui/editor/policy_form.h"

#include <algorithm>

#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "core/policy/option_import.h"
#include "core/policy/schema.h"
#include "ui/editor/policy_document.h"
#include "ui/editor/question_table_model.h"
#include "ui/editor/undo_routing_edit.h"

namespace ui {
namespace {

// Type column: a combo box of the three question types.
class TypeDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                          const QModelIndex&) const override {
        auto* combo = new QComboBox(parent);
        for (auto type :
             {core::QuestionType::Noul, core::QuestionType::Choice, core::QuestionType::Score})
            combo->addItem(QuestionTableModel::typeText(type), static_cast<int>(type));
        return combo;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        auto* combo = static_cast<QComboBox*>(editor);
        combo->setCurrentIndex(combo->findData(index.data(Qt::EditRole)));
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        model->setData(index, static_cast<QComboBox*>(editor)->currentData(), Qt::EditRole);
    }
};

// Alternatives column: several lines ("name: description" each) in a taller editor.
class LinesDelegate : public QStyledItemDelegate {
    Q_DECLARE_TR_FUNCTIONS(ui::LinesDelegate)  // no Q_OBJECT: its texts' context by name

  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                          const QModelIndex&) const override {
        auto* edit = new QPlainTextEdit(parent);
        edit->setTabChangesFocus(true);
        edit->setToolTip(tr("One alternative per line: name: description"));
        return edit;
    }
    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                              const QModelIndex&) const override {
        QRect r = option.rect;
        r.setHeight(std::max(r.height(), editor->fontMetrics().lineSpacing() * 6));
        editor->setGeometry(r);
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        static_cast<QPlainTextEdit*>(editor)->setPlainText(index.data(Qt::EditRole).toString());
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        model->setData(index, static_cast<QPlainTextEdit*>(editor)->toPlainText(), Qt::EditRole);
    }
};

}  // namespace

PolicyForm::PolicyForm(PolicyDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), model_(new QuestionTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* instructions_label = new QLabel(tr("&Instructions"), this);
    instructions_ = new UndoRoutingEdit(this);
    instructions_->setObjectName(QStringLiteral("instructionsEdit"));
    instructions_->setUndoStack(document->undoStack());
    instructions_->setBeforeUndo([this] { commitInstructions(); });
    instructions_->setTabChangesFocus(true);
    instructions_->setMaximumHeight(instructions_->fontMetrics().lineSpacing() * 5);
    instructions_label->setBuddy(instructions_);
    layout->addWidget(instructions_label);
    layout->addWidget(instructions_);
    layout->addWidget(makeCalibrationRow());

    auto* questions_label = new QLabel(tr("&Questions"), this);
    layout->addWidget(questions_label);
    notice_ = new QLabel(this);
    notice_->setWordWrap(true);
    notice_->setForegroundRole(QPalette::PlaceholderText);
    notice_->hide();
    layout->addWidget(notice_);

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("questionTable"));
    table_->setModel(model_);
    table_->setItemDelegateForColumn(QuestionTableModel::TypeColumn, new TypeDelegate(table_));
    table_->setItemDelegateForColumn(QuestionTableModel::AlternativesColumn,
                                     new LinesDelegate(table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setDragDropMode(QAbstractItemView::InternalMove);
    table_->setDragEnabled(true);
    table_->setAcceptDrops(true);
    table_->setDropIndicatorShown(true);
    table_->setDefaultDropAction(Qt::MoveAction);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);
    table_->horizontalHeader()->setSectionResizeMode(QuestionTableModel::IdColumn,
                                                     QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QuestionTableModel::TypeColumn,
                                                     QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QuestionTableModel::InstructionsColumn,
                                                     QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(QuestionTableModel::AlternativesColumn,
                                                     QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(QuestionTableModel::AloneColumn,
                                                     QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setWordWrap(true);
    questions_label->setBuddy(table_);
    layout->addWidget(table_, 1);

    auto* buttons = new QHBoxLayout;
    add_ = new QToolButton(this);
    add_->setText(tr("&Add"));
    add_->setPopupMode(QToolButton::InstantPopup);
    auto* add_menu = new QMenu(add_);
    add_menu->addAction(tr("Yes/no question"), this,
                        [this] { model_->requestAdd(core::QuestionType::Noul); });
    add_menu->addAction(tr("Choice question"), this,
                        [this] { model_->requestAdd(core::QuestionType::Choice); });
    add_menu->addAction(tr("Score question"), this,
                        [this] { model_->requestAdd(core::QuestionType::Score); });
    add_->setMenu(add_menu);
    remove_ = new QToolButton(this);
    remove_->setText(tr("&Remove"));
    up_ = new QToolButton(this);
    up_->setText(tr("Move u&p"));
    up_->setToolTip(tr("Move the question up (Alt+Up)"));
    up_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    down_ = new QToolButton(this);
    down_->setText(tr("Move do&wn"));
    down_->setToolTip(tr("Move the question down (Alt+Down)"));
    down_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    import_ = new QToolButton(this);
    import_->setText(tr("&Import options…"));
    import_->setToolTip(
        tr("Replace the choice question's options with a CSV file's rows: the "
           "name in the first column, a description in the second (up to 255 "
           "options; more than 26 are read as a bracket tournament)"));
    for (auto* b : {add_, remove_, up_, down_, import_}) buttons->addWidget(b);
    buttons->addStretch();
    layout->addLayout(buttons);

    auto current_row = [this] {
        return table_->currentIndex().isValid() ? table_->currentIndex().row() : -1;
    };
    connect(remove_, &QToolButton::clicked, this,
            [this, current_row] { model_->requestRemove(current_row()); });
    connect(up_, &QToolButton::clicked, this, [this, current_row] {
        const int row = current_row();
        const int column = std::max(0, table_->currentIndex().column());
        model_->requestMove(row, row - 1);
        table_->setCurrentIndex(model_->index(std::max(0, row - 1), column));
    });
    connect(down_, &QToolButton::clicked, this, [this, current_row] {
        const int row = current_row();
        const int column = std::max(0, table_->currentIndex().column());
        model_->requestMove(row, row + 1);
        table_->setCurrentIndex(model_->index(std::min(model_->rowCount() - 1, row + 1), column));
    });
    connect(import_, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import options"), {}, tr("CSV files (*.csv *.tsv *.txt);;All files (*)"));
        if (path.isEmpty()) return;
        if (const QString error = importOptions(path); !error.isEmpty())
            QMessageBox::warning(this, tr("Import options"), error);
    });
    connect(model_, &QuestionTableModel::editRequested, this,
            [this](const std::vector<core::Question>& questions, const QString& what) {
                document_->setQuestions(questions, what);
            });
    connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &PolicyForm::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, &PolicyForm::updateButtons);

    // Instructions: written to the source after a pause in typing, or when focus leaves.
    instructions_timer_.setSingleShot(true);
    instructions_timer_.setInterval(600);
    connect(&instructions_timer_, &QTimer::timeout, this, &PolicyForm::commitInstructions);
    connect(instructions_, &QPlainTextEdit::textChanged, this, [this] {
        if (!refreshing_) instructions_timer_.start();
    });
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget* old, QWidget*) {
        if (old == instructions_) commitInstructions();
    });

    connect(document_, &PolicyDocument::rendered, this, &PolicyForm::refresh);
    refresh();
}

void PolicyForm::commitInstructions() {
    instructions_timer_.stop();
    if (refreshing_ || !document_->instructionsEditable()) return;
    document_->setInstructions(instructions_->toPlainText());
}

QString PolicyForm::importOptions(const QString& csv_path) {
    const int row = table_->currentIndex().isValid() ? table_->currentIndex().row() : -1;
    const auto& schema = document_->schema();
    if (!model_->editable() || !schema || row < 0 ||
        schema->questions[static_cast<size_t>(row)].type != core::QuestionType::Choice)
        return tr("Select a choice question to import options into.");
    auto options = core::options_from_csv_file(csv_path.toStdString());
    if (!options) return QString::fromStdString(options.error().message);
    model_->requestOptions(row, std::move(*options));
    return {};
}

// Temperature, cascade mode and threshold on one row under the instructions.
QWidget* PolicyForm::makeCalibrationRow() {
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    auto* t_label = new QLabel(tr("&Temperature"), row);
    temperature_ = new QLineEdit(row);
    temperature_->setObjectName(QStringLiteral("temperatureEdit"));
    temperature_->setPlaceholderText(tr("1 (none)"));
    temperature_->setMinimumWidth(temperature_->fontMetrics().horizontalAdvance(
        QStringLiteral("{\"noul\": 1.25, \"choice\": 1.5}")));
    temperature_->setToolTip(
        tr("Divides every read's label log-probabilities before the softmax: above 1 flattens "
           "overconfident answers. One number, or one per question type as "
           "{\"noul\": T, \"choice\": T, \"score\": T}, with one per question as "
           "\"questions\": {\"id\": T}. Fit it with Calibrate… in the Bench or Data view, or "
           "dgem calibrate."));
    t_label->setBuddy(temperature_);
    auto* m_label = new QLabel(tr("Stage-2 &cascade"), row);
    cascade_mode_ = new QComboBox(row);
    cascade_mode_->setObjectName(QStringLiteral("cascadeModeBox"));
    cascade_mode_->addItem(tr("off"), QStringLiteral("off"));
    cascade_mode_->addItem(tr("entropy"), QStringLiteral("entropy"));
    cascade_mode_->addItem(tr("on miss"), QStringLiteral("on_miss"));
    m_label->setBuddy(cascade_mode_);
    cascade_threshold_ = new QDoubleSpinBox(row);
    cascade_threshold_->setObjectName(QStringLiteral("cascadeThresholdBox"));
    cascade_threshold_->setRange(0, 10);
    cascade_threshold_->setDecimals(3);
    cascade_threshold_->setSingleStep(0.05);
    cascade_threshold_->setSuffix(tr(" nats"));
    cascade_threshold_->setToolTip(
        tr("Questions whose entropy reaches this go to the stage-2 judge (ln 2 = 0.693 is a "
           "coin flip)."));
    calibration_error_ = new QLabel(row);
    calibration_error_->setObjectName(QStringLiteral("calibrationError"));
    calibration_error_->setForegroundRole(QPalette::PlaceholderText);
    for (QWidget* w : std::initializer_list<QWidget*>{t_label, temperature_, m_label, cascade_mode_,
                                                      cascade_threshold_})
        h->addWidget(w);
    h->addWidget(calibration_error_, 1);
    connect(temperature_, &QLineEdit::editingFinished, this, [this] {
        if (!refreshing_) commitTemperature();
    });
    connect(cascade_mode_, &QComboBox::activated, this, [this] { commitCascade(); });
    connect(cascade_threshold_, &QDoubleSpinBox::editingFinished, this, [this] {
        if (!refreshing_) commitCascade();
    });
    return row;
}

QString PolicyForm::unknownQuestion(const core::PolicyTemperature& t) const {
    if (!document_->schema()) return {};
    for (const auto& entry : t.by_question) {
        const std::string& id = entry.first;  // a named copy: clang < 16 cannot capture a binding
        const auto& qs = document_->schema()->questions;
        if (std::none_of(qs.begin(), qs.end(), [&](const core::Question& q) { return q.id == id; }))
            return QString::fromStdString(id);
    }
    return {};
}

QString PolicyForm::questionIds() const {
    QStringList ids;
    if (document_->schema())
        for (const auto& q : document_->schema()->questions) ids << QString::fromStdString(q.id);
    return ids.join(QStringLiteral(", "));
}

QString PolicyForm::commitTemperature() {
    const std::string text = temperature_->text().trimmed().toStdString();
    if (text.empty()) return {};
    auto value = nlohmann::ordered_json::parse(text, nullptr, false);
    QString error;
    if (value.is_discarded()) {
        error =
            tr("Temperature: %1 is neither a number nor a JSON object").arg(temperature_->text());
    } else if (auto parsed = core::parse_policy_temperature(value, "temperature"); !parsed) {
        error = QString::fromStdString(parsed.error().message);
    } else if (const QString unknown = unknownQuestion(*parsed); !unknown.isEmpty()) {
        // Refused here, not written: the source would no longer render.
        error = tr("temperature.questions names the unknown question \"%1\"; the policy's "
                   "questions: %2")
                    .arg(unknown, questionIds());
    } else {
        document_->setSchemaMember("temperature", core::policy_temperature_json(*parsed).dump(),
                                   tr("Edit temperature"));
    }
    calibration_error_->setText(error);
    return error;
}

void PolicyForm::commitCascade() {
    // Both values first: writing the mode re-renders, and the refresh shows the source's.
    const std::string mode = cascade_mode_->currentData().toString().toStdString();
    const double threshold = cascade_threshold_->value();
    calibration_error_->clear();
    document_->setSchemaMember("cascade_mode", nlohmann::json(mode).dump(),
                               tr("Edit cascade mode"));
    if (mode != "off")
        document_->setSchemaMember("cascade_threshold", nlohmann::json(threshold).dump(),
                                   tr("Edit cascade threshold"));
}

void PolicyForm::refresh() {
    refreshing_ = true;
    const auto& schema = document_->schema();
    const bool valid = document_->valid() && schema.has_value();
    if (schema && !temperature_->hasFocus()) {
        const auto t = core::policy_temperature_json(schema->temperature);
        temperature_->setText(t.is_null() ? QString() : QString::fromStdString(t.dump()));
        cascade_mode_->setCurrentIndex(static_cast<int>(schema->cascade.mode));
        cascade_threshold_->setValue(schema->cascade.threshold);
    }
    for (QWidget* w :
         std::initializer_list<QWidget*>{temperature_, cascade_mode_, cascade_threshold_})
        w->setEnabled(valid);
    if (schema) {
        const QString text = QString::fromStdString(schema->instructions);
        // Do not fight the user's typing: a pending edit is newer than the last render.
        if (instructions_->toPlainText() != text && !instructions_timer_.isActive())
            instructions_->setPlainText(text);
        model_->setQuestions(schema->questions);
    } else {
        model_->setQuestions({});
    }
    instructions_->setReadOnly(!valid || !document_->instructionsEditable());
    model_->setEditable(valid && document_->questionsEditable());
    QString notice;
    if (!document_->valid())
        notice = tr("The source has an error; fix it there to edit the form. %1")
                     .arg(document_->firstError());
    else if (!document_->questionsEditable())
        notice = tr("The questions are produced by template actions; edit them in the source.");
    notice_->setText(notice);
    notice_->setVisible(!notice.isEmpty());
    refreshing_ = false;
    updateButtons();
}

void PolicyForm::updateButtons() {
    const bool editable = model_->editable();
    const int row = table_->currentIndex().isValid() ? table_->currentIndex().row() : -1;
    add_->setEnabled(editable);
    remove_->setEnabled(editable && row >= 0);
    up_->setEnabled(editable && row > 0);
    down_->setEnabled(editable && row >= 0 && row + 1 < model_->rowCount());
    const auto& schema = document_->schema();
    import_->setEnabled(
        editable && schema && row >= 0 && row < static_cast<int>(schema->questions.size()) &&
        schema->questions[static_cast<size_t>(row)].type == core::QuestionType::Choice);
}

}  // namespace ui
