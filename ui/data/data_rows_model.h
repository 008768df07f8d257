#pragma once
// The Data view's table: one row per finished data row, filled as rows finish, with the output
// file's columns (core::dataset::output_columns) after the row number: the input columns
// first, then per question the answer, its probability, entropy, hesitation and agreement and,
// when labelled, the expected answer and whether it was right; last why the row failed.
// DataRowsFilter sorts it by the raw values (Qt::UserRole) and filters it: every row, the
// wrong ones, the uncertain ones (the most hesitant answer over a threshold) or those giving
// one answer to one question.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/dataset/dataset_results.h"

namespace ui {

struct DataRowView {
    std::size_t row = 0;
    QString id;
    std::vector<QVariant> cells;    // per output column, raw (null: no value)
    std::vector<QString> answers;   // per question ("" when none)
    std::vector<double> p;          // per question (0 when none)
    std::vector<int> correct;       // per question: 1 right, 0 wrong, -1 not labelled
    std::vector<QString> expected;  // per question: the labelled answer ("" when none)
    double hesitation = 0;          // the most hesitant answer's
    QString error;
    std::string variables;  // the row's variables as JSON, by variable name (for the editor)
};

class DataRowsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    explicit DataRowsModel(QObject* parent = nullptr);

    // The plan's output columns and questions; clears the rows.
    void setPlan(const core::dataset::DatasetPlan& plan);
    const std::vector<core::dataset::DatasetQuestion>& questions() const { return questions_; }
    // The table column of an output column (by its name in the output file), -1 when none.
    int columnOf(const std::string& output_column) const;
    void clear();
    // A finished row; a row already shown (same row number) is replaced.
    void upsert(DataRowView row);
    const DataRowView& rowAt(int row) const { return rows_[static_cast<size_t>(row)]; }

    // The view of one journal row beside its data row: the output file's cells; its variables
    // named as the policy names them (plan.sources: variable -> column).
    static DataRowView view(const core::dataset::DatasetPlan& plan,
                            const core::dataset::DataRow& row,
                            const core::dataset::RowOutcome& outcome);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    std::vector<core::dataset::DatasetQuestion> questions_;
    std::vector<std::string> columns_;   // the output file's
    std::vector<bool> correct_columns_;  // per output column: a <question>_correct one
    std::vector<DataRowView> rows_;
};

class DataRowsFilter : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    // Rows: the row numbers a chart click chose (setRows).
    enum class Show { All, Wrong, Uncertain, Answer, Rows };
    explicit DataRowsFilter(QObject* parent = nullptr);
    // `question` and `answer` only for Show::Answer; `threshold` for Show::Uncertain.
    void setShow(Show show, int question = 0, const QString& answer = {});
    void setUncertainAbove(double threshold);
    void setRows(std::set<std::size_t> rows);
    Show show() const { return show_; }

  protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

  private:
    Show show_ = Show::All;
    int question_ = 0;
    QString answer_;
    double threshold_ = 0.5;
    std::set<std::size_t> rows_;
};

}  // namespace ui
