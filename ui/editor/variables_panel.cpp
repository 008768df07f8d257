// The variables panel (see variables_panel.h).
#include "ui/editor/variables_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "core/policy/schema.h"
#include "core/template/template.h"
#include "ui/editor/policy_document.h"

namespace ui {

VariablesModel::VariablesModel(QObject* parent) : QAbstractTableModel(parent) {}

void VariablesModel::setVariables(const nlohmann::json& variables) {
    if (variables == variables_) return;
    beginResetModel();
    variables_ = variables.is_object() ? variables : nlohmann::json::object();
    endResetModel();
}

void VariablesModel::setTemplateReads(std::vector<std::string> names) {
    // Inputs before settings, each in the order the template reads them.
    std::stable_partition(names.begin(), names.end(),
                          [](const std::string& n) { return !core::is_schema_setting(n); });
    if (names == reads_) return;
    beginResetModel();
    reads_ = std::move(names);
    endResetModel();
}

bool VariablesModel::isRead(const std::string& key) const {
    return std::find(reads_.begin(), reads_.end(), key) != reads_.end();
}

std::vector<std::string> VariablesModel::keys() const {
    std::vector<std::string> k;
    for (const auto& name : reads_)
        if (variables_.contains(name)) k.push_back(name);
    for (auto it = variables_.begin(); it != variables_.end(); ++it)
        if (!isRead(it.key())) k.push_back(it.key());
    return k;
}

QString VariablesModel::keyAt(int row) const {
    const auto k = keys();
    return row >= 0 && row < int(k.size()) ? QString::fromStdString(k[size_t(row)]) : QString();
}

int VariablesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(variables_.size());
}
int VariablesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant VariablesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const std::string key = keys()[static_cast<size_t>(index.row())];
    if (role == Qt::ForegroundRole && !reads_.empty() && !isRead(key))
        return QPalette().brush(QPalette::Disabled, QPalette::Text);
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole) return {};
    if (index.column() == 0) {
        if (role != Qt::ToolTipRole) return QString::fromStdString(key);
        if (reads_.empty()) return {};
        if (!isRead(key)) return tr("The template does not read this variable");
        return core::is_schema_setting(key) ? tr("A run setting the template reads")
                                            : tr("An input the template reads");
    }
    const auto& value = variables_[key];
    const QString text =
        QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
    if (role == Qt::ToolTipRole)
        return value.is_string() ? tr("Text") : tr("JSON value: %1").arg(text);
    return text;
}

QVariant VariablesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    return section == 0 ? tr("Variable") : tr("Value");
}

Qt::ItemFlags VariablesModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == 1) f |= Qt::ItemIsEditable;
    return f;
}

bool VariablesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || index.column() != 1 || index.row() >= rowCount()) return false;
    const std::string key = keys()[static_cast<size_t>(index.row())];
    const std::string text = value.toString().toStdString();
    // Keep a string a string; other values are JSON when they parse, else become text.
    if (variables_[key].is_string()) {
        variables_[key] = text;
    } else {
        auto parsed = nlohmann::json::parse(text, nullptr, false);
        variables_[key] = parsed.is_discarded() ? nlohmann::json(text) : parsed;
    }
    Q_EMIT dataChanged(index, index);
    Q_EMIT variablesEdited(variables_);
    return true;
}

void VariablesModel::addVariable(const QString& key) {
    if (key.isEmpty() || variables_.contains(key.toStdString())) return;
    beginResetModel();
    variables_[key.toStdString()] = "";
    endResetModel();
    Q_EMIT variablesEdited(variables_);
}

void VariablesModel::removeVariable(int row) {
    if (row < 0 || row >= rowCount()) return;
    beginResetModel();
    variables_.erase(keys()[static_cast<size_t>(row)]);
    endResetModel();
    Q_EMIT variablesEdited(variables_);
}

namespace {
// Values as several lines: the row shows up to kShownLines wrapped lines, the editor is a plain
// text box (Return starts a new line; Ctrl+Return or leaving the cell commits; Esc cancels).
class ValueDelegate : public QStyledItemDelegate {
  public:
    static constexpr int kShownLines = 5;
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override {
        if (index.column() != 1) return QStyledItemDelegate::createEditor(parent, option, index);
        auto* edit = new QPlainTextEdit(parent);
        edit->setTabChangesFocus(true);
        edit->installEventFilter(const_cast<ValueDelegate*>(this));
        return edit;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        if (auto* edit = qobject_cast<QPlainTextEdit*>(editor))
            edit->setPlainText(index.data(Qt::EditRole).toString());
        else
            QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        if (auto* edit = qobject_cast<QPlainTextEdit*>(editor))
            model->setData(index, edit->toPlainText(), Qt::EditRole);
        else
            QStyledItemDelegate::setModelData(editor, model, index);
    }
    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const override {
        // At least a few lines to type in, even on a one-line row.
        QRect r = option.rect;
        if (index.column() == 1)
            r.setHeight(std::max(r.height(), option.fontMetrics.height() * 4 + 8));
        editor->setGeometry(r);
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        if (index.column() == 1)
            size.setHeight(std::min(size.height(), option.fontMetrics.height() * kShownLines + 8));
        return size;
    }

  protected:
    bool eventFilter(QObject* object, QEvent* event) override {
        auto* edit = qobject_cast<QPlainTextEdit*>(object);
        if (edit && event->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(event);
            if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
                (key->modifiers() & Qt::ControlModifier)) {
                Q_EMIT const_cast<ValueDelegate*>(this)->commitData(edit);
                Q_EMIT const_cast<ValueDelegate*>(this)->closeEditor(edit);
                return true;
            }
        }
        return QStyledItemDelegate::eventFilter(object, event);
    }
};
}  // namespace

VariablesPanel::VariablesPanel(PolicyDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), model_(new VariablesModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("variablesTable"));
    view_->setModel(model_);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->verticalHeader()->hide();
    view_->setWordWrap(true);
    view_->setTextElideMode(Qt::ElideRight);
    view_->setItemDelegate(new ValueDelegate(view_));
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::AnyKeyPressed);
    view_->setAccessibleName(tr("Variables"));
    // Rows follow their wrapped text when the value column changes width (a resize, or a
    // vertical scroll bar coming or going).
    connect(view_->horizontalHeader(), &QHeaderView::sectionResized, view_,
            [this] { view_->resizeRowsToContents(); });
    view_->viewport()->installEventFilter(this);
    layout->addWidget(view_, 1);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add variable…"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* reset = new QPushButton(tr("Reset to samples"), this);
    reset->setToolTip(tr("The policy's sample values (<name>.vars.json)"));
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    buttons->addWidget(reset);
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString key = QInputDialog::getText(this, tr("Add variable"), tr("Name:"),
                                                  QLineEdit::Normal, {}, &ok);
        if (ok) model_->addVariable(key.trimmed());
    });
    connect(remove, &QPushButton::clicked, this,
            [this] { model_->removeVariable(view_->currentIndex().row()); });
    connect(reset, &QPushButton::clicked, this,
            [this] { document_->setVariables(document_->sampleVariables()); });
    connect(model_, &VariablesModel::variablesEdited, document_, &PolicyDocument::setVariables);
    connect(document_, &PolicyDocument::rendered, this, &VariablesPanel::sync);
    sync();
}

bool VariablesPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->viewport() && event->type() == QEvent::Resize)
        view_->resizeRowsToContents();
    return QWidget::eventFilter(watched, event);
}

void VariablesPanel::sync() {
    // A source that does not parse keeps the last order it had.
    auto reads = core::template_variables_in_order(document_->source().toStdString(),
                                                   document_->name().toStdString());
    if (reads) model_->setTemplateReads(std::move(*reads));
    model_->setVariables(document_->variables());
}

}  // namespace ui
