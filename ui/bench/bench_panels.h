#pragma once
// The Bench window's panels, each building and laying out its own widgets: the control lines,
// the items page (filter and sortable table), the charts page and the slot-vs-generative page.
// Their texts are in BenchWindow's translation context (BenchWindow::tr), as they were when the
// window built them; the window wires them to the run and fills them with its values.

#include <QLabel>
#include <QScrollArea>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

#include "core/comparison/compare.h"
#include "core/evaluation/bench_run.h"
#include "core/reports/report.h"

class QAction;
class QComboBox;
class QGridLayout;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace ui {

class BenchItemsModel;
class ChartWidget;
class ComparisonItemsModel;
class ItemIdFilter;

// What a chart click asks of the window: show these items (a second click, Esc or the filter's
// Clear button clears it).
struct ChartChoice {
    std::function<void(const QStringList& items, const QString& what)> chosen;
    std::function<void()> cleared;
};

// The suite/endpoint line and the settings/actions line, added to the window's own layout.
struct BenchControls {
    QComboBox* suite_box = nullptr;
    QPushButton* open = nullptr;
    QComboBox* profile_box = nullptr;
    QComboBox* kind_box = nullptr;
    QSpinBox* workers = nullptr;
    QSpinBox* limit = nullptr;
    QComboBox* mode_box = nullptr;
    QSpinBox* gen_tokens = nullptr;
    QPushButton* run = nullptr;
    QPushButton* cancel = nullptr;
    QPushButton* resume = nullptr;
    QPushButton* export_button = nullptr;
    QPushButton* calibrate = nullptr;  // Calibrate…: the shown run fits the open policy

    // Makes the widgets (owned by `owner`) and adds both lines to `top`; the export button
    // triggers `export_report`.
    void build(QWidget* owner, QVBoxLayout* top, QAction* export_report);
};

// Items: a filter over every column and the sortable table; a chart's choice narrows it to the
// chosen items, said in a line above the table with a Clear button (Esc clears too).
class BenchItemsPage : public QWidget {
  public:
    explicit BenchItemsPage(QWidget* parent);
    BenchItemsModel* model() const { return items_; }
    QTableView* table() const { return table_; }
    // The model row under a view index of the table.
    int sourceRow(const QModelIndex& index) const;
    void showOnly(const QStringList& items, const QString& what);
    void showAll();
    bool filtered() const;
    // Called when the page clears the choice itself (Clear, Esc).
    std::function<void()> on_cleared;

  private:
    QLineEdit* filter_ = nullptr;
    QTableView* table_ = nullptr;
    BenchItemsModel* items_ = nullptr;
    ItemIdFilter* proxy_ = nullptr;
    QWidget* chosen_line_ = nullptr;
    QLabel* chosen_text_ = nullptr;
};

// The run's scorecard: the JevBench axes or a suite's accuracies, in one rich-text line.
class BenchScorecard : public QLabel {
  public:
    explicit BenchScorecard(QWidget* parent);
    void showResult(const core::eval::BenchResult& result);
};

// Charts: a grid of two columns that scrolls when the window is small.
class BenchChartsPage : public QScrollArea {
  public:
    explicit BenchChartsPage(QWidget* parent);
    // Replaces the charts; the one at `wide` (if any) gets the whole width and a row of its own.
    void setCharts(std::vector<core::report::ReportChart> charts, std::optional<size_t> wide);
    std::vector<core::report::ReportChart> charts() const;
    // The charts of a scored run's report, built by the same functions from the same values.
    void showResult(const core::eval::BenchResult& result,
                    const std::optional<core::eval::Leaderboard>& leaderboard);
    const QList<ChartWidget*>& views() const { return views_; }
    void clearChoice();  // no chart keeps a chosen bin
    ChartChoice on_choice;

  private:
    QGridLayout* grid_ = nullptr;
    QList<ChartWidget*> views_;
};

// Slot vs generative: the summary, the per-item table and the charts.
class BenchComparisonPage : public QWidget {
  public:
    explicit BenchComparisonPage(QWidget* parent);
    ComparisonItemsModel* model() const { return items_; }
    void clear();
    // Shows a comparison: its summary, its rows and the report's comparison charts.
    void showComparison(const core::compare::SuiteComparison& comparison,
                        std::vector<core::compare::ItemComparisonRow> rows);
    std::vector<core::report::ReportChart> charts() const;
    const QList<ChartWidget*>& views() const { return views_; }
    QTableView* table() const { return table_; }

  private:
    void clearCharts();

    QLabel* summary_ = nullptr;
    ComparisonItemsModel* items_ = nullptr;
    ItemIdFilter* proxy_ = nullptr;
    QGridLayout* grid_ = nullptr;
    QSplitter* split_ = nullptr;
    QTableView* table_ = nullptr;
    QList<ChartWidget*> views_;
};

}  // namespace ui
