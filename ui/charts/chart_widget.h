#pragma once
// One chart in a view, interactive: a core::report::ReportChart value (built by core::report from
// the scored results, the same value a report of the run holds) shown as a Qt Charts chart
// (charts/qt_chart.h, the chart a report paints). A reader can ask it things:
//   hover   a tooltip with the bin or bar under the pointer: its range, exact value, count and,
//           for charts built with their items, the item ids;
//   click   emits itemsChosen with that bin's items (the window filters its table to them); a
//           second click on it, or Esc, emits choiceCleared;
//   zoom    (setZoomable: the latency and per-item charts) the wheel zooms, a drag pans, the
//           "Reset zoom" button restores the whole range;
//   menu    copy the chart as an image, save it as PNG or SVG, copy its data as CSV.
// A chart without data says so instead of drawing empty axes (the chart's own text, as in reports).

#include <QChartView>
#include <QStringList>

#include "core/reports/report.h"

class QToolButton;

namespace ui {

class ChartWidget : public QChartView {
    Q_OBJECT
  public:
    explicit ChartWidget(QWidget* parent = nullptr);
    explicit ChartWidget(core::report::ReportChart chart, QWidget* parent = nullptr);

    void setChart(core::report::ReportChart chart);
    const core::report::ReportChart& chart() const { return chart_; }

    // Wheel zoom, drag pan and a reset button (off by default).
    void setZoomable(bool on);
    bool zoomable() const { return zoomable_; }
    void resetZoom();

    // A horizontal category chart grows with its categories (one row each), the others are a
    // fixed height.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    bool darkPalette() const;
    // Whether the chart has nothing to draw (it then shows noDataText()).
    bool hasData() const;
    static QString noDataText();

    // The bin (index into chart().bins) under `pos` (viewport coordinates), or -1.
    int binAt(const QPoint& pos) const;
    // Where bin `bin` sits in the viewport (its bar's or point's centre): for tests and
    // screenshots that point at one.
    QPoint binCenter(int bin) const;
    // The tooltip text of bin `bin` ("" for -1).
    QString binText(int bin) const;
    // What the last hover showed, and the chosen bin (-1: none).
    QString hoverText() const { return hover_text_; }
    int chosenBin() const { return chosen_; }
    void chooseBin(int bin);  // as a click on it (again on the chosen one clears)
    void clearChoice();

    // The context menu's outputs.
    QImage image();
    bool savePng(const QString& path);
    bool saveSvg(const QString& path);
    QString csv() const;

  Q_SIGNALS:
    void itemsChosen(const QStringList& items, const QString& what);
    void choiceCleared();

  protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void rebuild();
    void placeOverlays();
    QString saveDialog(const QString& filter, const QString& suffix);

    core::report::ReportChart chart_;
    bool zoomable_ = false;
    int chosen_ = -1;
    QString hover_text_;
    QPoint press_at_, last_drag_;
    bool dragging_ = false;
    QToolButton* reset_ = nullptr;
};

}  // namespace ui
