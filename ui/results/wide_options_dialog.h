#pragma once
// Every option of a wide question (up to 255), likeliest first, with its probability and error
// bar, filtered as the person types: what the result card folds into "and N more".

#include <QDialog>
#include <QPersistentModelIndex>

class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace ui {

class WideOptionsDialog : public QDialog {
    Q_OBJECT
  public:
    // `index`: a ResultsModel row (a question's outcome).
    explicit WideOptionsDialog(const QModelIndex& index, QWidget* parent = nullptr);
    QLineEdit* searchField() const { return search_; }
    QTableView* table() const { return table_; }
    int visibleOptions() const;  // rows the filter leaves

  private:
    QLineEdit* search_ = nullptr;
    QTableView* table_ = nullptr;
    QStandardItemModel* options_ = nullptr;
    QSortFilterProxyModel* filter_ = nullptr;
};

}  // namespace ui
