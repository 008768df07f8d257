#pragma once
// A bench run's items as a table model: id, tier, family, expected, predicted, p, correct,
// latency. Rows are core::eval::ItemRow values; SortRole gives numbers for the numeric columns
// so a QSortFilterProxyModel sorts them as numbers.

#include <vector>

#include "core/evaluation/eval_table.h"
#include "ui/bench/id_rows_model.h"

namespace ui {

class BenchItemsModel : public IdRowsModel<core::eval::ItemRow> {
    Q_OBJECT
  public:
    enum Column { Id, Tier, Family, Expected, Predicted, Probability, Correct, Latency, Columns };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit BenchItemsModel(QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace ui
