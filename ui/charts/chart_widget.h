#pragma once
// One report chart in a view: a core::report::ReportChart value painted by
// core::report::paint_chart, the very function that draws it into a report's SVG, its PDF pages
// and the export preview, so a view and a file show the same picture of the same numbers. The
// widget holds nothing but the chart value; light or dark text follows its palette.

#include <QWidget>

#include "core/reports/report.h"

namespace ui {

class ChartWidget : public QWidget {
    Q_OBJECT
  public:
    explicit ChartWidget(QWidget* parent = nullptr);
    explicit ChartWidget(core::report::ReportChart chart, QWidget* parent = nullptr);

    void setChart(core::report::ReportChart chart);
    const core::report::ReportChart& chart() const { return chart_; }

    // A horizontal category chart grows with its categories (one row each), the others are a
    // fixed height; both with the margin the chart is painted inside.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The rectangle paint_chart paints into, and whether it paints light text on a dark ground.
    QRectF chartRect() const;
    bool darkPalette() const;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    core::report::ReportChart chart_;
};

}  // namespace ui
