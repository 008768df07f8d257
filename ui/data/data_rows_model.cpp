// The Data view's row table and its filter.
#include "ui/data/data_rows_model.h"

#include <algorithm>

namespace ui {

namespace {

// A cell of the output row as the table holds it: strings, numbers and booleans as they are;
// arrays and objects (JSONL input values) as their JSON text.
QVariant cell_value(const nlohmann::ordered_json& v) {
    if (v.is_null()) return {};
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_integer()) return static_cast<qlonglong>(v.get<long long>());
    if (v.is_number()) return v.get<double>();
    return QString::fromStdString(v.dump());
}

}  // namespace

DataRowsModel::DataRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DataRowsModel::setPlan(const core::dataset::DatasetPlan& plan) {
    beginResetModel();
    questions_ = plan.questions;
    columns_ = core::dataset::output_columns(plan);
    correct_columns_.assign(columns_.size(), false);
    for (const auto& q : questions_)
        if (q.labelled)
            if (int c = columnOf(q.id + "_correct"); c > 0)
                correct_columns_[static_cast<size_t>(c - 1)] = true;
    rows_.clear();
    endResetModel();
}

int DataRowsModel::columnOf(const std::string& output_column) const {
    const auto it = std::find(columns_.begin(), columns_.end(), output_column);
    return it == columns_.end() ? -1 : static_cast<int>(it - columns_.begin()) + 1;
}

void DataRowsModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void DataRowsModel::upsert(DataRowView row) {
    auto at = std::lower_bound(rows_.begin(), rows_.end(), row.row,
                               [](const DataRowView& r, std::size_t n) { return r.row < n; });
    const int i = static_cast<int>(at - rows_.begin());
    if (at != rows_.end() && at->row == row.row) {
        *at = std::move(row);
        Q_EMIT dataChanged(index(i, 0), index(i, columnCount() - 1));
        return;
    }
    beginInsertRows({}, i, i);
    rows_.insert(at, std::move(row));
    endInsertRows();
}

DataRowView DataRowsModel::view(const core::dataset::DatasetPlan& plan,
                                const core::dataset::DataRow& row,
                                const core::dataset::RowOutcome& outcome) {
    DataRowView v;
    v.row = row.number;
    v.id = QString::fromStdString(row.id);
    nlohmann::ordered_json variables = nlohmann::ordered_json::object();
    for (const auto& [var, column] : plan.sources)
        if (auto it = row.variables.find(column); it != row.variables.end()) variables[var] = *it;
    v.variables = variables.dump();
    v.error = outcome.record.ok ? QString() : QString::fromStdString(outcome.record.error);
    const nlohmann::ordered_json out = core::dataset::output_row(plan, row, outcome);
    for (const auto& cell : out) v.cells.push_back(cell_value(cell));
    for (const auto& q : plan.questions) {
        const auto answer = out.find(q.id);
        const bool answered = answer != out.end() && answer->is_string();
        v.answers.push_back(answered ? QString::fromStdString(answer->get<std::string>())
                                     : QString());
        const auto p = out.find(q.id + "_p");
        v.p.push_back(p != out.end() && p->is_number() ? p->get<double>() : 0.0);
        if (auto h = out.find(q.id + "_hesitation"); h != out.end() && h->is_number())
            v.hesitation = std::max(v.hesitation, h->get<double>());
        const auto correct = out.find(q.id + "_correct");
        v.correct.push_back(correct != out.end() && correct->is_boolean() ? correct->get<bool>()
                                                                          : -1);
        const auto e = out.find("expected_" + q.id);
        v.expected.push_back(e != out.end() && e->is_string()
                                 ? QString::fromStdString(e->get<std::string>())
                                 : QString());
    }
    return v;
}

int DataRowsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DataRowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size()) + 1;
}

QVariant DataRowsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::UserRole)) return {};
    const DataRowView& r = rows_[static_cast<size_t>(index.row())];
    if (index.column() == 0) return static_cast<qulonglong>(r.row);
    const auto c = static_cast<size_t>(index.column() - 1);
    if (c >= r.cells.size()) return {};
    const QVariant& v = r.cells[c];
    const bool raw = role == Qt::UserRole;
    if (v.typeId() == QMetaType::Bool) {
        if (raw) return v.toBool() ? 1 : 0;
        if (c < correct_columns_.size() && correct_columns_[c])
            return v.toBool() ? tr("right") : tr("wrong");
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    }
    if (v.typeId() == QMetaType::Double && !raw) return QString::number(v.toDouble(), 'f', 3);
    return v;
}

QVariant DataRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (section == 0) return tr("row");
    if (section < 0 || section > static_cast<int>(columns_.size())) return {};
    return QString::fromStdString(columns_[static_cast<size_t>(section - 1)]);
}

DataRowsFilter::DataRowsFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(Qt::UserRole);
}

void DataRowsFilter::setShow(Show show, int question, const QString& answer) {
    show_ = show;
    question_ = question;
    answer_ = answer;
    invalidateFilter();
}

void DataRowsFilter::setRows(std::set<std::size_t> rows) {
    show_ = Show::Rows;
    rows_ = std::move(rows);
    invalidateFilter();
}

void DataRowsFilter::setUncertainAbove(double threshold) {
    threshold_ = threshold;
    invalidateFilter();
}

bool DataRowsFilter::filterAcceptsRow(int source_row, const QModelIndex&) const {
    const auto* model = qobject_cast<const DataRowsModel*>(sourceModel());
    if (!model) return true;
    const DataRowView& r = model->rowAt(source_row);
    switch (show_) {
        case Show::All:
            return true;
        case Show::Wrong:
            return std::find(r.correct.begin(), r.correct.end(), 0) != r.correct.end();
        case Show::Uncertain:
            return r.error.isEmpty() && r.hesitation > threshold_;
        case Show::Answer:
            return question_ >= 0 && static_cast<size_t>(question_) < r.answers.size() &&
                   r.answers[static_cast<size_t>(question_)] == answer_;
        case Show::Rows:
            return rows_.count(r.row) > 0;
    }
    return true;
}

}  // namespace ui
