#pragma once
// A table's filter for what a chart click chose: the rows whose id (column `id_column`, display
// text) is one of the chosen items, on top of the ordinary text filter of QSortFilterProxyModel.
// An empty choice shows every row again.

#include <QSet>
#include <QSortFilterProxyModel>
#include <QStringList>

namespace ui {

class ItemIdFilter : public QSortFilterProxyModel {
  public:
    explicit ItemIdFilter(int id_column, QObject* parent = nullptr)
        : QSortFilterProxyModel(parent), id_column_(id_column) {}

    void setItems(const QStringList& ids) {
        ids_ = QSet<QString>(ids.begin(), ids.end());
        invalidateFilter();
    }
    void clearItems() { setItems({}); }
    bool filtering() const { return !ids_.isEmpty(); }

  protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        if (!ids_.isEmpty() &&
            !ids_.contains(sourceModel()->index(row, id_column_, parent).data().toString()))
            return false;
        return QSortFilterProxyModel::filterAcceptsRow(row, parent);
    }

  private:
    int id_column_;
    QSet<QString> ids_;
};

}  // namespace ui
