#include "ui/charts/chart_widget.h"

#include <QPainter>
#include <QPalette>
#include <algorithm>

namespace ui {

namespace {

constexpr int kMargin = 8;

// The chart's own height without the margin: what the report's pages give it.
int chartHeight(const core::report::ReportChart& c) {
    if (c.kind == core::report::ReportChart::Kind::Category && c.horizontal)
        return 34 + 18 * static_cast<int>(std::max<size_t>(1, c.categories.size()));
    return 260;
}

}  // namespace

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

ChartWidget::ChartWidget(core::report::ReportChart chart, QWidget* parent) : ChartWidget(parent) {
    setChart(std::move(chart));
}

void ChartWidget::setChart(core::report::ReportChart chart) {
    chart_ = std::move(chart);
    const QString title = QString::fromStdString(chart_.title);
    setToolTip(title);
    setAccessibleName(title);
    updateGeometry();
    update();
}

QSize ChartWidget::sizeHint() const {
    return {520, chartHeight(chart_) + 2 * kMargin};
}

QSize ChartWidget::minimumSizeHint() const {
    const bool rows = chart_.kind == core::report::ReportChart::Kind::Category && chart_.horizontal;
    // Category rows need their height to stay readable; the other charts shrink a little.
    return {320, (rows ? chartHeight(chart_) : 200) + 2 * kMargin};
}

QRectF ChartWidget::chartRect() const {
    return QRectF(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin));
}

bool ChartWidget::darkPalette() const {
    return palette().color(QPalette::Window).lightness() < 128;
}

void ChartWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    core::report::paint_chart(painter, chartRect(), chart_, darkPalette());
}

}  // namespace ui
