#include "ui/charts/chart_widget.h"

#include <QAbstractSeries>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QToolButton>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "charts/qt_chart.h"

namespace ui {

namespace {

using core::report::ChartBin;
using core::report::ReportChart;

constexpr int kMaxIdsShown = 12;
constexpr int kPointReach = 12;  // px: how near a point bin the pointer must be
constexpr int kDragSlop = 4;     // px: a press that moves less is a click

bool isCategory(const ReportChart& c) {
    return c.kind == ReportChart::Kind::Category;
}

// Bins a chart was built without: one per category (the first set's value), so that every bar
// chart answers a hover.
std::vector<ChartBin> effectiveBins(const ReportChart& c) {
    if (!c.bins.empty() || !isCategory(c)) return c.bins;
    std::vector<ChartBin> out;
    for (size_t k = 0; k < c.categories.size(); ++k) {
        const double at = static_cast<double>(k);
        const double v =
            !c.sets.empty() && k < c.sets.front().values.size() ? c.sets.front().values[k] : 0;
        out.push_back({c.categories[k], at, at, v, 0, {}});
    }
    return out;
}

QString number(double v, int decimals) {
    return QLocale().toString(v, 'f', std::max(0, decimals));
}

}  // namespace

ChartWidget::ChartWidget(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    reset_ = new QToolButton(this);
    reset_->setObjectName(QStringLiteral("chartResetZoom"));
    reset_->setText(tr("Reset zoom"));
    reset_->setAutoRaise(true);
    reset_->hide();
    connect(reset_, &QToolButton::clicked, this, &ChartWidget::resetZoom);
    rebuild();
}

ChartWidget::ChartWidget(ReportChart chart, QWidget* parent) : ChartWidget(parent) {
    setChart(std::move(chart));
}

QString ChartWidget::noDataText() {
    return tr("No data to chart");
}

void ChartWidget::setChart(ReportChart chart) {
    chart_ = std::move(chart);
    chosen_ = -1;
    hover_text_.clear();
    const QString title = QString::fromStdString(chart_.title);
    setToolTip(title);
    setAccessibleName(title);
    rebuild();
    updateGeometry();
}

void ChartWidget::rebuild() {
    QChart* old = QChartView::chart();
    QChartView::setChart(
        charts::build_qchart(chart_, charts::look_from_palette(palette(), font(), noDataText())));
    delete old;
    placeOverlays();
}

void ChartWidget::setZoomable(bool on) {
    zoomable_ = on;
    placeOverlays();
}

void ChartWidget::resetZoom() {
    QChartView::chart()->zoomReset();
}

bool ChartWidget::hasData() const {
    return charts::chart_has_data(chart_);
}

bool ChartWidget::darkPalette() const {
    return palette().color(QPalette::Window).lightness() < 128;
}

QSize ChartWidget::sizeHint() const {
    if (isCategory(chart_) && chart_.horizontal)
        return {520, 110 + 24 * static_cast<int>(std::max<size_t>(1, chart_.categories.size()))};
    return {520, 300};
}

QSize ChartWidget::minimumSizeHint() const {
    const QSize hint = sizeHint();
    // Category rows need their height to stay readable; the other charts shrink a little.
    return {320, isCategory(chart_) && chart_.horizontal ? hint.height() : 220};
}

void ChartWidget::placeOverlays() {
    reset_->setVisible(zoomable_ && hasData());
    reset_->adjustSize();
    reset_->move(width() - reset_->width() - 6, 6);
    reset_->raise();
}

void ChartWidget::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    placeOverlays();
}

void ChartWidget::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) rebuild();
}

// ---- bins ------------------------------------------------------------------------------------

int ChartWidget::binAt(const QPoint& pos) const {
    QChart* c = QChartView::chart();
    QAbstractSeries* anchor = charts::anchor_series(c);
    if (!anchor || !hasData()) return -1;
    const QPointF scene = mapToScene(pos);
    if (!c->plotArea().contains(c->mapFromScene(scene))) return -1;
    const QPointF v = c->mapToValue(c->mapFromScene(scene), anchor);
    const std::vector<ChartBin> bins = effectiveBins(chart_);
    if (isCategory(chart_)) {
        const int n = static_cast<int>(chart_.categories.size());
        int k = static_cast<int>(std::lround(chart_.horizontal ? v.y() : v.x()));
        if (chart_.horizontal) k = n - 1 - k;
        for (size_t i = 0; i < bins.size(); ++i)
            if (static_cast<int>(bins[i].lo) == k) return static_cast<int>(i);
        return -1;
    }
    int best = -1;
    double best_d = kPointReach;
    for (size_t i = 0; i < bins.size(); ++i) {
        const ChartBin& b = bins[i];
        if (b.hi > b.lo) {
            const bool last = i + 1 == bins.size();
            if (v.x() >= b.lo && (v.x() < b.hi || (last && v.x() <= b.hi)))
                return static_cast<int>(i);
            continue;
        }
        const double d = QLineF(QPointF(binCenter(static_cast<int>(i))), QPointF(pos)).length();
        if (d < best_d) {
            best_d = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QPoint ChartWidget::binCenter(int bin) const {
    const std::vector<ChartBin> bins = effectiveBins(chart_);
    QChart* c = QChartView::chart();
    QAbstractSeries* anchor = charts::anchor_series(c);
    if (bin < 0 || static_cast<size_t>(bin) >= bins.size() || !anchor) return {};
    const ChartBin& b = bins[static_cast<size_t>(bin)];
    QPointF value;
    if (isCategory(chart_)) {
        const double k = chart_.horizontal ? chart_.categories.size() - 1 - b.lo : b.lo;
        const double half = std::max(b.value, chart_.min + 1e-9) / 2;
        value = chart_.horizontal ? QPointF(half, k) : QPointF(k, half);
    } else if (b.hi > b.lo) {
        // Halfway up a histogram's bar; at the height of a reliability bin's accuracy.
        const bool histogram = chart_.y_title == "items";
        value = QPointF((b.lo + b.hi) / 2, histogram ? std::max(b.value / 2, chart_.min)
                                                     : std::clamp(b.value, chart_.min, chart_.max));
    } else {
        value = QPointF(b.lo, b.value);
    }
    return mapFromScene(c->mapToScene(c->mapToPosition(value, anchor)));
}

QString ChartWidget::binText(int bin) const {
    const std::vector<ChartBin> bins = effectiveBins(chart_);
    if (bin < 0 || static_cast<size_t>(bin) >= bins.size()) return {};
    const ChartBin& b = bins[static_cast<size_t>(bin)];
    const QString suffix = QString::fromStdString(chart_.value_suffix);
    QStringList lines{QString::fromStdString(b.label)};
    if (isCategory(chart_)) {
        const auto k = static_cast<size_t>(b.lo);
        for (const auto& set : chart_.sets)
            if (k < set.values.size())
                lines << tr("%1: %2%3")
                             .arg(QString::fromStdString(set.name))
                             .arg(number(set.values[k], chart_.value_decimals + 1), suffix);
    } else if (chart_.y_title == "items") {
        // A histogram's value is its count, said below.
    } else {
        lines << tr("%1: %2")
                     .arg(QString::fromStdString(chart_.y_title.empty() ? "value" : chart_.y_title))
                     .arg(number(b.value, std::max(2, chart_.value_decimals)));
    }
    if (b.count > 0 || !b.items.empty())
        lines << tr("%n item(s)", nullptr, std::max(b.count, static_cast<int>(b.items.size())));
    if (!b.items.empty()) {
        QStringList ids;
        for (size_t i = 0; i < b.items.size() && i < kMaxIdsShown; ++i)
            ids << QString::fromStdString(b.items[i]);
        QString shown = ids.join(QStringLiteral(", "));
        const int more = static_cast<int>(b.items.size()) - kMaxIdsShown;
        if (more > 0) shown += tr(" and %n more", nullptr, more);
        lines << shown;
    }
    return lines.join(QLatin1Char('\n'));
}

void ChartWidget::chooseBin(int bin) {
    if (bin < 0) return;
    if (bin == chosen_) {
        clearChoice();
        return;
    }
    const std::vector<ChartBin> bins = effectiveBins(chart_);
    if (static_cast<size_t>(bin) >= bins.size() || bins[static_cast<size_t>(bin)].items.empty())
        return;  // nothing to filter to
    chosen_ = bin;
    QStringList ids;
    for (const auto& id : bins[static_cast<size_t>(bin)].items) ids << QString::fromStdString(id);
    Q_EMIT itemsChosen(ids, QStringLiteral("%1: %2").arg(
                                QString::fromStdString(chart_.title),
                                QString::fromStdString(bins[static_cast<size_t>(bin)].label)));
}

void ChartWidget::clearChoice() {
    if (chosen_ < 0) return;
    chosen_ = -1;
    Q_EMIT choiceCleared();
}

// ---- the pointer -------------------------------------------------------------------------------

void ChartWidget::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_ || ((event->buttons() & Qt::LeftButton) && zoomable_ &&
                      (event->pos() - press_at_).manhattanLength() > kDragSlop)) {
        dragging_ = true;
        const QPoint d = event->pos() - last_drag_;
        QChartView::chart()->scroll(-d.x(), d.y());
        last_drag_ = event->pos();
        return;
    }
    hover_text_ = binText(binAt(event->pos()));
    if (hover_text_.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), hover_text_, this);
}

void ChartWidget::mousePressEvent(QMouseEvent* event) {
    press_at_ = last_drag_ = event->pos();
    dragging_ = false;
    if (event->button() != Qt::LeftButton) QChartView::mousePressEvent(event);
}

void ChartWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && !dragging_) {
        const int bin = binAt(event->pos());
        if (bin >= 0) chooseBin(bin);
    }
    dragging_ = false;
}

void ChartWidget::wheelEvent(QWheelEvent* event) {
    if (!zoomable_ || !hasData()) {
        event->ignore();  // the page scrolls
        return;
    }
    QChartView::chart()->zoom(event->angleDelta().y() > 0 ? 1.25 : 0.8);
    event->accept();
}

void ChartWidget::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && chosen_ >= 0) {
        clearChoice();
        event->accept();
        return;
    }
    QChartView::keyPressEvent(event);
}

// ---- the context menu ------------------------------------------------------------------------

QImage ChartWidget::image() {
    QImage out(size() * devicePixelRatio(), QImage::Format_ARGB32_Premultiplied);
    out.setDevicePixelRatio(devicePixelRatio());
    out.fill(palette().color(QPalette::Base));
    QPainter p(&out);
    p.setRenderHint(QPainter::Antialiasing);
    render(&p);
    return out;
}

bool ChartWidget::savePng(const QString& path) {
    return image().save(path, "PNG");
}

bool ChartWidget::saveSvg(const QString& path) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size());
    svg.setViewBox(QRect(QPoint(0, 0), size()));
    svg.setTitle(QString::fromStdString(chart_.title));
    QPainter p;
    if (!p.begin(&svg)) return false;
    p.setRenderHint(QPainter::Antialiasing);
    render(&p);
    return p.end();
}

QString ChartWidget::csv() const {
    return QString::fromStdString(core::report::chart_csv(chart_));
}

QString ChartWidget::saveDialog(const QString& filter, const QString& suffix) {
    QString name = QString::fromStdString(chart_.title).simplified();
    name.replace(QRegularExpression(QStringLiteral("[^\\w.-]+")), QStringLiteral("-"));
    QString path = QFileDialog::getSaveFileName(this, tr("Save chart"), name + suffix, filter);
    if (!path.isEmpty() && !path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    return path;
}

void ChartWidget::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("chartMenu"));
    menu.addAction(tr("Copy image"), this,
                   [this] { QApplication::clipboard()->setImage(image()); });
    menu.addAction(tr("Save as PNG…"), this, [this] {
        const QString path = saveDialog(tr("PNG images (*.png)"), QStringLiteral(".png"));
        if (!path.isEmpty()) savePng(path);
    });
    menu.addAction(tr("Save as SVG…"), this, [this] {
        const QString path = saveDialog(tr("SVG images (*.svg)"), QStringLiteral(".svg"));
        if (!path.isEmpty()) saveSvg(path);
    });
    menu.addAction(tr("Copy data as CSV"), this, [this] {
        auto* mime = new QMimeData;
        mime->setText(csv());
        mime->setData(QStringLiteral("text/csv"), csv().toUtf8());
        QApplication::clipboard()->setMimeData(mime);
    });
    if (zoomable_) menu.addAction(tr("Reset zoom"), this, &ChartWidget::resetZoom);
    menu.exec(event->globalPos());
}

}  // namespace ui
