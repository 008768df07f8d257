#pragma once
// A suite run's slot-vs-generative comparison as a table model, one row per item
// (core::compare::comparison_rows): id, tier, the latency of each side, whether the slot side
// was right, whether the generative reply was valid and right, whether the sides agree, the
// generation's passes and the reason a reply was invalid or failed. SortRole gives numbers for
// the numeric columns (missing values sort first).

#include <QAbstractTableModel>
#include <vector>

#include "core/compare.h"

namespace ui {

class ComparisonItemsModel : public QAbstractTableModel {
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
    void setRows(std::vector<core::compare::ItemComparisonRow> rows);
    // Adds the row, or replaces the row with the same id.
    void upsert(const core::compare::ItemComparisonRow& row);
    const std::vector<core::compare::ItemComparisonRow>& rows() const { return rows_; }
    const core::compare::ItemComparisonRow* row(int r) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    std::vector<core::compare::ItemComparisonRow> rows_;
};

}  // namespace ui
