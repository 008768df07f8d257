#pragma once
// A suite run's slot-vs-generative comparison as a table model, one row per item
// (core::compare::comparison_rows): id, tier, the latency of each side, whether the slot side
// was right, whether the generative reply was valid and right, whether the sides agree, the
// generation's passes and the reason a reply was invalid or failed. SortRole gives numbers for
// the numeric columns (missing values sort first).

#include <vector>

#include "core/comparison/compare.h"
#include "ui/bench/id_rows_model.h"

namespace ui {

class ComparisonItemsModel : public IdRowsModel<core::compare::ItemComparisonRow> {
    Q_OBJECT
  public:
    enum Column {
        Id,
        Tier,
        SlotLatency,
        GenerativeLatency,
        SlotCorrect,
        GenerativeValid,
        GenerativeCorrect,
        Agree,
        Passes,
        Reason,
        Columns
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ComparisonItemsModel(QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
};

}  // namespace ui
