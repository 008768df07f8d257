// A chart painted outside a view: into an SVG generator, a PDF writer or an image, through the
// same QChart the Studio shows (build_qchart), laid out on a scene of its own.

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPaintDevice>
#include <QPainter>
#include <algorithm>

#include "charts/qt_chart.h"

namespace charts {

void render_chart(QPainter& painter, const QRectF& target, const core::report::ReportChart& chart,
                  const ChartLook& look) {
    if (!ensure_application() || target.isEmpty()) return;
    // The chart is laid out in 96-dpi pixels and scaled into the target: a page measured in
    // points (72 dpi) gets the chart a 96-dpi screen would show at that physical size.
    const int dpi = painter.device() ? painter.device()->logicalDpiY() : 96;
    const QRectF scene_rect(QPointF(0, 0), target.size() * (96.0 / std::max(1, dpi)));
    QGraphicsScene scene;
    QChart* made = build_qchart(chart, look);
    scene.addItem(made);  // the scene owns it from here
    made->setGeometry(scene_rect);
    if (QGraphicsLayout* layout = made->layout()) layout->activate();
    place_annotations(made);
    scene.setSceneRect(scene_rect);
    scene.render(&painter, target, scene_rect, Qt::IgnoreAspectRatio);
}

}  // namespace charts
