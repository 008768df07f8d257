#pragma once
// A bench run's items as a table model: id, tier, family, expected, predicted, p, correct,
// latency. Rows are core::eval::ItemRow values; SortRole gives numbers for the numeric columns
// so a QSortFilterProxyModel sorts them as numbers.

#include <QAbstractTableModel>
#include <vector>

#include "core/eval_table.h"

namespace ui {

class BenchItemsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Id, Tier, Family, Expected, Predicted, Probability, Correct, Latency, Columns };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit BenchItemsModel(QObject* parent = nullptr);
    void setRows(std::vector<core::eval::ItemRow> rows);
    // Adds the row, or replaces the row with the same id.
    void upsert(const core::eval::ItemRow& row);
    const std::vector<core::eval::ItemRow>& rows() const { return rows_; }
    const core::eval::ItemRow* row(int r) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    std::vector<core::eval::ItemRow> rows_;
};

}  // namespace ui
