// The Data view's row table and its filter.
#include "ui/data/data_rows_model.h"

#include <algorithm>

namespace ui {

namespace {

// Columns: row, id, then per question answer, p (and correct when labelled), then hesitation
// and error.
struct Column {
    enum Kind { Row, Id, Answer, P, Correct, Hesitation, Error } kind;
    std::size_t question = 0;
};

std::vector<Column> columns_of(const std::vector<core::dataset::DatasetQuestion>& qs) {
    std::vector<Column> cols = {{Column::Row}, {Column::Id}};
    for (std::size_t i = 0; i < qs.size(); ++i) {
        cols.push_back({Column::Answer, i});
        cols.push_back({Column::P, i});
        if (qs[i].labelled) cols.push_back({Column::Correct, i});
    }
    cols.push_back({Column::Hesitation});
    cols.push_back({Column::Error});
    return cols;
}

}  // namespace

DataRowsModel::DataRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DataRowsModel::setQuestions(const std::vector<core::dataset::DatasetQuestion>& questions) {
    beginResetModel();
    questions_ = questions;
    rows_.clear();
    endResetModel();
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

DataRowView DataRowsModel::view(const std::vector<core::dataset::DatasetQuestion>& questions,
                                const std::map<std::string, std::string>& sources,
                                const core::dataset::DataRow& row,
                                const core::dataset::RowOutcome& outcome) {
    DataRowView v;
    v.row = row.number;
    v.id = QString::fromStdString(row.id);
    nlohmann::ordered_json variables = nlohmann::ordered_json::object();
    for (const auto& [var, column] : sources)
        if (auto it = row.variables.find(column); it != row.variables.end()) variables[var] = *it;
    v.variables = variables.dump();
    v.error = outcome.record.ok ? QString() : QString::fromStdString(outcome.record.error);
    for (const auto& q : questions) {
        QString answer;
        double p = 0;
        for (const auto& qr : outcome.record.questions) {
            if (qr.id != q.id || qr.probs.empty()) continue;
            const auto top = std::max_element(qr.probs.begin(), qr.probs.end());
            answer = QString::fromStdString(qr.names[static_cast<size_t>(top - qr.probs.begin())]);
            p = *top;
            v.hesitation = std::max(v.hesitation, qr.hesitation);
        }
        int correct = -1;
        if (auto e = outcome.expected.find(q.id); e != outcome.expected.end() && !answer.isEmpty())
            correct = answer.toStdString() == e->second ? 1 : 0;
        v.answers.push_back(answer);
        v.p.push_back(p);
        v.correct.push_back(correct);
        const auto e = outcome.expected.find(q.id);
        v.expected.push_back(e == outcome.expected.end() ? QString()
                                                         : QString::fromStdString(e->second));
    }
    return v;
}

int DataRowsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DataRowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_of(questions_).size());
}

QVariant DataRowsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::UserRole)) return {};
    const DataRowView& r = rows_[static_cast<size_t>(index.row())];
    const auto cols = columns_of(questions_);
    const Column c = cols[static_cast<size_t>(index.column())];
    const bool raw = role == Qt::UserRole;
    switch (c.kind) {
        case Column::Row:
            return static_cast<qulonglong>(r.row);
        case Column::Id:
            return r.id;
        case Column::Answer:
            return c.question < r.answers.size() ? r.answers[c.question] : QString();
        case Column::P:
            if (c.question >= r.p.size() || r.answers[c.question].isEmpty()) return {};
            return raw ? QVariant(r.p[c.question])
                       : QVariant(QString::number(r.p[c.question], 'f', 3));
        case Column::Correct: {
            const int ok = c.question < r.correct.size() ? r.correct[c.question] : -1;
            if (raw) return ok;
            return ok < 0 ? QString() : ok ? tr("right") : tr("wrong");
        }
        case Column::Hesitation:
            return raw ? QVariant(r.hesitation) : QVariant(QString::number(r.hesitation, 'f', 3));
        case Column::Error:
            return r.error;
    }
    return {};
}

QVariant DataRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    const auto cols = columns_of(questions_);
    if (section < 0 || section >= static_cast<int>(cols.size())) return {};
    const Column c = cols[static_cast<size_t>(section)];
    const QString q = c.question < questions_.size()
                          ? QString::fromStdString(questions_[c.question].id)
                          : QString();
    switch (c.kind) {
        case Column::Row:
            return tr("row");
        case Column::Id:
            return tr("id");
        case Column::Answer:
            return q;
        case Column::P:
            return tr("%1 p").arg(q);
        case Column::Correct:
            return tr("%1 right").arg(q);
        case Column::Hesitation:
            return tr("hesitation");
        case Column::Error:
            return tr("error");
    }
    return {};
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
