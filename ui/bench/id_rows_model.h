#pragma once
// The row plumbing the run tables share: a vector of row values keyed by their `id`, replaced
// whole (setRows) or one at a time as a run reports items (upsert), with the counts Qt asks
// for. Subclasses give the columns (`columns`) and data()/headerData().

#include <QAbstractTableModel>
#include <vector>

namespace ui {

template <class Row>
class IdRowsModel : public QAbstractTableModel {
  public:
    IdRowsModel(int columns, QObject* parent) : QAbstractTableModel(parent), columns_(columns) {}

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    // Adds the row, or replaces the row with the same id.
    void upsert(const Row& row) {
        for (size_t i = 0; i < rows_.size(); ++i)
            if (rows_[i].id == row.id) {
                rows_[i] = row;
                const int r = static_cast<int>(i);
                Q_EMIT dataChanged(index(r, 0), index(r, columns_ - 1));
                return;
            }
        const int r = static_cast<int>(rows_.size());
        beginInsertRows({}, r, r);
        rows_.push_back(row);
        endInsertRows();
    }
    const std::vector<Row>& rows() const { return rows_; }
    const Row* row(int r) const {
        return r >= 0 && r < static_cast<int>(rows_.size()) ? &rows_[static_cast<size_t>(r)]
                                                            : nullptr;
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : columns_;
    }

  private:
    std::vector<Row> rows_;
    int columns_;
};

}  // namespace ui
