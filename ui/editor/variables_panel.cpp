// The variables panel (see variables_panel.h).
#include "ui/editor/variables_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/editor/policy_document.h"

namespace ui {

VariablesModel::VariablesModel(QObject* parent) : QAbstractTableModel(parent) {}

void VariablesModel::setVariables(const nlohmann::json& variables) {
    if (variables == variables_) return;
    beginResetModel();
    variables_ = variables.is_object() ? variables : nlohmann::json::object();
    endResetModel();
}

std::vector<std::string> VariablesModel::keys() const {
    std::vector<std::string> k;
    for (auto it = variables_.begin(); it != variables_.end(); ++it) k.push_back(it.key());
    return k;
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
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole) return {};
    if (index.column() == 0) return QString::fromStdString(key);
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
    view_->setEditTriggers(QAbstractItemView::AllEditTriggers);
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
    auto sync = [this] { model_->setVariables(document_->variables()); };
    connect(document_, &PolicyDocument::rendered, this, sync);
    sync();
}

}  // namespace ui
