// One painter for every chart and question block of a report: the HTML's SVG (through
// QSvgGenerator), the PDF's pages and the Studio's preview all come from these functions.

#include <QBuffer>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <functional>

#include "report_internal.h"

namespace core::report {

namespace {

// In SVG the foreground is this sentinel, replaced by currentColor so an inline chart takes the
// page's text colour (light or dark scheme).
const QColor kSvgForeground(1, 2, 3);

struct Style {
    QColor fg, grid, muted, highlight;
    bool svg = false;
};

Style style_for(bool dark, bool svg) {
    Style s;
    s.svg = svg;
    s.fg = svg ? kSvgForeground : (dark ? QColor(230, 230, 230) : QColor(30, 30, 30));
    s.grid = s.fg;
    s.grid.setAlphaF(0.18f);
    s.muted = s.fg;
    s.muted.setAlphaF(0.65f);
    s.highlight = QColor(230, 120, 20);
    return s;
}

// The colour of series or label `i`: the same in bars, lines, legends and draw strips.
QColor series_color(size_t i) {
    static const QColor colors[] = {
        QColor(45, 110, 190), QColor(215, 95, 40),  QColor(60, 150, 80),  QColor(150, 80, 170),
        QColor(190, 160, 30), QColor(40, 160, 170), QColor(200, 70, 120), QColor(120, 120, 120)};
    return colors[i % (sizeof colors / sizeof colors[0])];
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

namespace detail {
QFont font_of(double point_size, bool bold) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(point_size);
    f.setBold(bold);
    // No ligatures: a PDF's text must read back (and search) as written ("fi", not U+FB01).
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}
}  // namespace detail

namespace {
using detail::font_of;

std::string value_text(const ReportChart& c, double v) {
    return detail::fixed(v, c.value_decimals) + c.value_suffix;
}

// "nice" tick values between lo and hi (about n of them).
std::vector<double> ticks(double lo, double hi, int n) {
    std::vector<double> out;
    if (!(hi > lo)) return {lo};
    const double raw = (hi - lo) / n;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-6; v += step) out.push_back(v);
    return out;
}

// A tick value with as few decimals as it needs (0.25, 0.5, 1, 250).
std::string tick_text(double v, double /*span*/) {
    std::string t = detail::fixed(v, 2);
    if (t.find('.') != std::string::npos) {
        while (t.back() == '0') t.pop_back();
        if (t.back() == '.') t.pop_back();
    }
    return t == "-0" ? "0" : t;
}

void draw_title(QPainter& p, QRectF& area, const ReportChart& c, const Style& s) {
    if (c.title.empty()) return;
    p.setFont(font_of(9, true));
    p.setPen(s.fg);
    QFontMetricsF fm(p.font(), p.device());
    const QRectF r(area.left(), area.top(), area.width(), fm.height() + 4);
    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(q(c.title), Qt::ElideRight, r.width()));
    area.setTop(r.bottom() + 2);
}

// What drawing a category chart's bars needs, in either orientation: the painter, the chart, the
// style, the font's metrics, and each bar's value, error and colour.
struct CategoryBars {
    QPainter& p;
    const ReportChart& c;
    const Style& s;
    QFontMetricsF fm;
    size_t n = 0;     // categories
    size_t sets = 1;  // bars per category
    double span = 1;  // c.max - c.min, or 1 when that is empty

    double value_of(size_t set, size_t k) const {
        return set < c.sets.size() && k < c.sets[set].values.size() ? c.sets[set].values[k] : 0.0;
    }
    double error_of(size_t set, size_t k) const {
        return set < c.sets.size() && k < c.sets[set].errors.size() ? c.sets[set].errors[k] : 0.0;
    }
    bool highlighted(size_t k) const {
        return std::find(c.highlighted.begin(), c.highlighted.end(), static_cast<int>(k)) !=
               c.highlighted.end();
    }
    QColor bar_color(size_t set, size_t k) const {
        if (c.color_per_category) return series_color(k);
        return highlighted(k) ? s.highlight : series_color(set);
    }
    // A bar: filled, and outlined when it is highlighted among per-category colours.
    void fill_bar(const QRectF& bar, size_t set, size_t k) const {
        p.fillRect(bar, bar_color(set, k));
        if (c.color_per_category && highlighted(k)) {
            p.setPen(QPen(s.fg, 1.4));
            p.setBrush(Qt::NoBrush);
            p.drawRect(bar);
        }
    }
    QFont category_font(size_t k) const {
        QFont f = p.font();
        f.setBold(highlighted(k));
        return f;
    }
};

// One category's horizontal bars in its band: a bar per set, its error bar and its value.
void paint_horizontal_band(const CategoryBars& b, const QRectF& band, size_t k, double value_w,
                           const std::function<double(double)>& x_of) {
    const ReportChart& c = b.c;
    QPainter& p = b.p;
    const double row = band.height();
    const double bar_h = row * 0.7 / static_cast<double>(b.sets);
    for (size_t set = 0; set < b.sets; ++set) {
        const double v = b.value_of(set, k);
        const double y = band.top() + row * 0.15 + bar_h * static_cast<double>(set);
        const QRectF bar(band.left(), y, std::max(0.0, x_of(v) - band.left()), bar_h);
        b.fill_bar(bar, set, k);
        const double e = b.error_of(set, k);
        if (e > 0) {
            const double cy = y + bar_h / 2;
            p.setPen(QPen(b.s.fg, 1.0));
            p.drawLine(QPointF(x_of(v - e), cy), QPointF(x_of(v + e), cy));
            p.drawLine(QPointF(x_of(v - e), cy - bar_h * 0.3),
                       QPointF(x_of(v - e), cy + bar_h * 0.3));
            p.drawLine(QPointF(x_of(v + e), cy - bar_h * 0.3),
                       QPointF(x_of(v + e), cy + bar_h * 0.3));
        }
        if (c.show_values) {
            std::string label = value_text(c, v);
            if (e > 0) label += " ±" + detail::fixed(e, c.value_decimals);
            p.setPen(b.s.fg);
            p.drawText(QRectF(std::max(x_of(v), x_of(v + e)) + 4, y, value_w + 40, bar_h),
                       Qt::AlignLeft | Qt::AlignVCenter, q(label));
        }
    }
}

// Horizontal bars: categories down the left, values along the bottom.
void paint_horizontal_bars(const CategoryBars& b, const QRectF& area) {
    const ReportChart& c = b.c;
    const Style& s = b.s;
    const QFontMetricsF& fm = b.fm;
    QPainter& p = b.p;
    double label_w = 0;
    for (const auto& cat : c.categories) label_w = std::max(label_w, fm.horizontalAdvance(q(cat)));
    label_w = std::min(label_w + 6, area.width() * 0.4);
    const double value_w = fm.horizontalAdvance(QStringLiteral("100.0% ±00.0")) + 6;
    const QRectF plot(area.left() + label_w, area.top(), area.width() - label_w - value_w,
                      area.height() - fm.height() - 4);
    const double row = plot.height() / static_cast<double>(b.n);
    const std::function<double(double)> x_of = [&](double v) {
        return plot.left() + plot.width() * std::clamp((v - c.min) / b.span, 0.0, 1.0);
    };
    p.setPen(QPen(s.grid, 0.6));
    for (double t : ticks(c.min, c.max, 4)) {
        p.drawLine(QPointF(x_of(t), plot.top()), QPointF(x_of(t), plot.bottom()));
        p.save();
        p.setPen(s.muted);
        p.drawText(QRectF(x_of(t) - 30, plot.bottom() + 2, 60, fm.height()), Qt::AlignCenter,
                   q(tick_text(t, b.span)));
        p.restore();
    }
    for (size_t k = 0; k < b.n; ++k) {
        const QRectF band(plot.left(), plot.top() + row * static_cast<double>(k), plot.width(),
                          row);
        p.setPen(s.fg);
        p.save();
        p.setFont(b.category_font(k));
        p.drawText(QRectF(area.left(), band.top(), label_w - 6, row),
                   Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(q(c.categories[k]), Qt::ElideRight, label_w - 6));
        p.restore();
        paint_horizontal_band(b, band, k, value_w, x_of);
    }
}

// The sets' names and colours in one row along the bottom of a vertical bar chart.
void paint_set_legend(const CategoryBars& b, const QRectF& area, double left) {
    double x = left;
    const double y = area.bottom() - b.fm.height();
    for (size_t set = 0; set < b.c.sets.size(); ++set) {
        b.p.fillRect(QRectF(x, y + 2, 10, b.fm.height() - 4), series_color(set));
        b.p.setPen(b.s.fg);
        b.p.drawText(QPointF(x + 14, y + b.fm.ascent()), q(b.c.sets[set].name));
        x += 24 + b.fm.horizontalAdvance(q(b.c.sets[set].name));
    }
}

// Vertical bars: categories along the bottom, values up the left.
void paint_vertical_bars(const CategoryBars& b, const QRectF& area) {
    const ReportChart& c = b.c;
    const Style& s = b.s;
    const QFontMetricsF& fm = b.fm;
    QPainter& p = b.p;
    const double axis_w = fm.horizontalAdvance(QStringLiteral("1000")) + 8;
    const double legend_h = b.sets > 1 ? fm.height() + 4 : 0;
    const QRectF plot(area.left() + axis_w, area.top() + 2 * fm.height(), area.width() - axis_w,
                      area.height() - 3 * fm.height() - 6 - legend_h - fm.height());
    auto y_of = [&](double v) {
        return plot.bottom() - plot.height() * std::clamp((v - c.min) / b.span, 0.0, 1.0);
    };
    for (double t : ticks(c.min, c.max, 4)) {
        p.setPen(QPen(s.grid, 0.6));
        p.drawLine(QPointF(plot.left(), y_of(t)), QPointF(plot.right(), y_of(t)));
        p.setPen(s.muted);
        p.drawText(QRectF(area.left(), y_of(t) - fm.height() / 2, axis_w - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, q(tick_text(t, b.span)));
    }
    const double slot = plot.width() / static_cast<double>(b.n);
    const double bar_w = std::min(60.0, slot * 0.7 / static_cast<double>(b.sets));
    for (size_t k = 0; k < b.n; ++k) {
        const double group_left = plot.left() + slot * static_cast<double>(k) +
                                  (slot - bar_w * static_cast<double>(b.sets)) / 2;
        for (size_t set = 0; set < b.sets; ++set) {
            const double v = b.value_of(set, k);
            const QRectF bar(group_left + bar_w * static_cast<double>(set), y_of(v), bar_w,
                             plot.bottom() - y_of(v));
            b.fill_bar(bar, set, k);
            if (c.show_values) {
                p.setPen(s.fg);
                p.drawText(
                    QRectF(bar.left() - 20, bar.top() - fm.height() - 1, bar_w + 40, fm.height()),
                    Qt::AlignCenter, q(value_text(c, v)));
            }
        }
        p.setPen(s.fg);
        p.drawText(QRectF(plot.left() + slot * static_cast<double>(k), plot.bottom() + 2, slot,
                          fm.height()),
                   Qt::AlignCenter, fm.elidedText(q(c.categories[k]), Qt::ElideRight, slot - 2));
    }
    p.setPen(QPen(s.muted, 0.8));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    if (!c.y_title.empty()) {
        p.setPen(s.muted);
        p.drawText(QRectF(area.left(), area.top(), area.width(), fm.height()), Qt::AlignLeft,
                   q(c.y_title));
    }
    if (b.sets > 1) paint_set_legend(b, area, plot.left());
}

void paint_category(QPainter& p, QRectF area, const ReportChart& c, const Style& s) {
    draw_title(p, area, c, s);
    p.setFont(font_of(7.5));
    const CategoryBars bars{p,
                            c,
                            s,
                            QFontMetricsF(p.font(), p.device()),
                            c.categories.size(),
                            std::max<size_t>(1, c.sets.size()),
                            c.max - c.min > 0 ? c.max - c.min : 1};
    if (bars.n == 0) return;
    if (c.horizontal)
        paint_horizontal_bars(bars, area);
    else
        paint_vertical_bars(bars, area);
}

void paint_xy(QPainter& p, QRectF area, const ReportChart& c, const Style& s) {
    draw_title(p, area, c, s);
    p.setFont(font_of(7.5));
    QFontMetricsF fm(p.font(), p.device());
    const double axis_w = fm.horizontalAdvance(QStringLiteral("10000")) + 8;
    const double legend_h = fm.height() + 4;
    const QRectF plot(area.left() + axis_w, area.top() + 2 * fm.height(), area.width() - axis_w - 8,
                      area.height() - 4 * fm.height() - 8 - legend_h);
    const double x_span = c.x_max - c.x_min > 0 ? c.x_max - c.x_min : 1;
    auto fy = [&](double v) { return c.log_y ? std::log10(std::max(v, 1e-12)) : v; };
    const double y_lo = fy(c.min > 0 || !c.log_y ? c.min : 1e-3), y_hi = fy(c.max);
    const double y_span = y_hi - y_lo > 0 ? y_hi - y_lo : 1;
    auto px = [&](double x) { return plot.left() + plot.width() * (x - c.x_min) / x_span; };
    auto py = [&](double y) {
        return plot.bottom() - plot.height() * std::clamp((fy(y) - y_lo) / y_span, 0.0, 1.0);
    };
    // Grid and Y ticks.
    std::vector<double> y_ticks;
    if (c.log_y)
        for (double e = std::ceil(y_lo); e <= y_hi + 1e-9; e += 1)
            y_ticks.push_back(std::pow(10.0, e));
    else
        y_ticks = ticks(c.min, c.max, 4);
    for (double t : y_ticks) {
        p.setPen(QPen(s.grid, 0.6));
        p.drawLine(QPointF(plot.left(), py(t)), QPointF(plot.right(), py(t)));
        p.setPen(s.muted);
        p.drawText(QRectF(area.left(), py(t) - fm.height() / 2, axis_w - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter,
                   q(tick_text(t, c.log_y ? 100 : c.max - c.min)));
    }
    // X ticks: the item labels when given (thinned to fit), else nice values.
    if (!c.x_labels.empty()) {
        const size_t n = c.x_labels.size();
        const double per = plot.width() / static_cast<double>(std::max<size_t>(1, n));
        const size_t every =
            std::max<size_t>(1, static_cast<size_t>(std::ceil(70.0 / std::max(1.0, per))));
        for (size_t i = 0; i < n; i += every) {
            p.setPen(s.muted);
            const double x = px(static_cast<double>(i));
            p.drawText(QRectF(x - 35, plot.bottom() + 2, 70, fm.height()), Qt::AlignCenter,
                       fm.elidedText(q(c.x_labels[i]), Qt::ElideRight, 68));
        }
    } else {
        for (double t : ticks(c.x_min, c.x_max, 5)) {
            p.setPen(QPen(s.grid, 0.6));
            p.drawLine(QPointF(px(t), plot.top()), QPointF(px(t), plot.bottom()));
            p.setPen(s.muted);
            p.drawText(QRectF(px(t) - 30, plot.bottom() + 2, 60, fm.height()), Qt::AlignCenter,
                       q(tick_text(t, x_span)));
        }
    }
    p.setPen(QPen(s.muted, 0.8));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    p.setPen(s.muted);
    if (!c.x_title.empty())
        p.drawText(QRectF(plot.left(), plot.bottom() + fm.height() + 2, plot.width(), fm.height()),
                   Qt::AlignCenter, q(c.x_title));
    if (!c.y_title.empty())
        p.drawText(QRectF(area.left(), area.top(), area.width(), fm.height()), Qt::AlignLeft,
                   q(c.y_title));

    p.save();
    p.setClipRect(plot.adjusted(-4, -4, 4, 4));
    for (size_t i = 0; i < c.series.size(); ++i) {
        const ChartSeries& ser = c.series[i];
        const bool ideal = ser.name == "ideal";
        QPen pen(ideal ? s.muted : series_color(i), ideal ? 1.0 : 1.8);
        if (ideal) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        if (ser.line && ser.points.size() > 1) {
            QPainterPath path;
            path.moveTo(px(ser.points[0].first), py(ser.points[0].second));
            for (size_t k = 1; k < ser.points.size(); ++k)
                path.lineTo(px(ser.points[k].first), py(ser.points[k].second));
            p.drawPath(path);
        }
        if (!ideal && (ser.points.size() <= 40 || !ser.line) && ser.name != "items") {
            p.setBrush(series_color(i));
            for (const auto& [x, y] : ser.points) p.drawEllipse(QPointF(px(x), py(y)), 2.5, 2.5);
            p.setBrush(Qt::NoBrush);
        }
    }
    p.restore();
    // Point labels outside the clip, turned to the left of points near the right edge.
    p.setPen(s.muted);
    for (const auto& ser : c.series)
        for (size_t k = 0; k < ser.point_labels.size() && k < ser.points.size(); ++k) {
            const QString label = q(ser.point_labels[k]);
            const double w = fm.horizontalAdvance(label);
            double x = px(ser.points[k].first) + 4;
            if (x + w > area.right()) x = px(ser.points[k].first) - 4 - w;
            const double y = std::max(area.top() + fm.ascent(), py(ser.points[k].second) - 4);
            p.drawText(QPointF(x, y), label);
        }
    for (const auto& m : c.marks) {
        QPen pen(s.highlight, 1.0);
        pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.drawLine(QPointF(px(m.x), plot.top()), QPointF(px(m.x), plot.bottom()));
    }
    // Legend: series, then marks.
    double x = plot.left();
    const double y = area.bottom() - fm.height();
    auto legend = [&](const QColor& color, const std::string& name) {
        p.fillRect(QRectF(x, y + fm.height() / 2 - 1.5, 12, 3), color);
        p.setPen(s.fg);
        p.drawText(QPointF(x + 16, y + fm.ascent()), q(name));
        x += 28 + fm.horizontalAdvance(q(name));
    };
    for (size_t i = 0; i < c.series.size(); ++i)
        legend(c.series[i].name == "ideal" ? s.muted : series_color(i), c.series[i].name);
    for (const auto& m : c.marks) legend(s.highlight, m.label);
}

// Paints a device-independent report element into an SVG string.
template <class Paint>
std::string svg_of(int width, int height, const QString& title, Paint&& paint) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(QSize(width, height));
    gen.setViewBox(QRect(0, 0, width, height));
    gen.setResolution(96);
    gen.setTitle(title);
    {
        QPainter painter(&gen);
        painter.setRenderHint(QPainter::Antialiasing);
        paint(painter);
    }
    std::string svg = buffer.data().toStdString();
    // The XML declaration and doctype cannot sit inside an HTML body.
    if (auto at = svg.find("<svg"); at != std::string::npos) svg.erase(0, at);
    const std::string sentinel = kSvgForeground.name().toStdString();
    for (size_t at = svg.find(sentinel); at != std::string::npos; at = svg.find(sentinel, at))
        svg.replace(at, sentinel.size(), "currentColor");
    return svg;
}

}  // namespace

namespace detail {

double chart_height(const ReportChart& c, double width) {
    if (c.kind == ReportChart::Kind::Category && c.horizontal)
        return 34 + 18.0 * static_cast<double>(std::max<size_t>(1, c.categories.size()));
    return std::clamp(width * 0.45, 170.0, 260.0);
}

double question_height(const QuestionBlock& b) {
    if (!b.skipped.empty()) return 40;
    return 40 + 20.0 * static_cast<double>(std::max<size_t>(1, b.labels.size())) + 34;
}

}  // namespace detail

void paint_chart(QPainter& painter, const QRectF& rect, const ReportChart& chart, bool dark) {
    painter.save();
    const Style s = style_for(dark, false);
    if (chart.kind == ReportChart::Kind::Xy)
        paint_xy(painter, rect, chart, s);
    else
        paint_category(painter, rect, chart, s);
    painter.restore();
}

namespace {

void paint_question_styled(QPainter& p, const QRectF& rect, const QuestionBlock& b,
                           const Style& s) {
    p.save();
    QRectF area = rect;
    const size_t w = static_cast<size_t>(std::max(0, b.winner));
    p.setFont(font_of(10, true));
    p.setPen(s.fg);
    QFontMetricsF big(p.font(), p.device());
    if (!b.skipped.empty()) {
        // Skipped by its ask_if: no reads to draw, only why.
        p.drawText(QRectF(area.left(), area.top(), area.width(), big.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, q(b.id + "  \u2192 skipped"));
        p.setFont(font_of(7.5));
        p.setPen(s.muted);
        p.drawText(QRectF(area.left(), area.top() + big.height() + 2, area.width(), 14),
                   Qt::AlignLeft, q(b.skipped));
        p.restore();
        return;
    }
    const std::string label = w < b.labels.size() ? b.labels[w] : "";
    const std::string alt = w < b.alternatives.size() ? b.alternatives[w] : "";
    const std::string answer = alt.empty() || alt == label ? label : label + " " + alt;
    p.drawText(QRectF(area.left(), area.top(), area.width(), big.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               big.elidedText(q(b.id + "  \u2192 " + answer + "  " + percent(b.confidence)),
                              Qt::ElideRight, area.width()));
    area.setTop(area.top() + big.height() + 2);
    p.setFont(font_of(7.5));
    QFontMetricsF fm(p.font(), p.device());
    std::string stats = b.hesitation_class + " \u00b7 confidence " + percent(b.confidence) +
                        " \u00b7 entropy " + detail::fixed(b.entropy, 3) +
                        " nats \u00b7 hesitation " + percent(b.hesitation, 0);
    if (!b.errors.empty() && w < b.errors.size())
        stats += " \u00b7 \u00b1" + percent(b.errors[w]) + " (stderr)";
    p.setPen(s.muted);
    p.drawText(QRectF(area.left(), area.top(), area.width(), fm.height()), Qt::AlignLeft,
               fm.elidedText(q(stats), Qt::ElideRight, area.width()));
    area.setTop(area.top() + fm.height() + 4);

    ReportChart bars = probability_chart(b);
    bars.title.clear();
    const double bars_h =
        20.0 * static_cast<double>(std::max<size_t>(1, b.labels.size())) + fm.height() + 4;
    paint_category(p, QRectF(area.left(), area.top(), area.width(), bars_h), bars, s);
    area.setTop(area.top() + bars_h + 6);

    // The noise-draw strip: one cell per read in the colour of the label it chose.
    p.setPen(s.muted);
    const QString caption = QStringLiteral("Noise draws");
    p.drawText(QRectF(area.left(), area.top(), 80, 14), Qt::AlignLeft | Qt::AlignVCenter, caption);
    const double cell = 14;
    double x = area.left() + 80;
    for (int d : b.draws) {
        const QRectF r(x, area.top(), cell - 2, cell - 2);
        p.fillRect(r, series_color(static_cast<size_t>(std::max(0, d))));
        if (d != b.winner) {
            p.setPen(QPen(s.fg, 1));
            p.drawRect(r);
        }
        x += cell;
        if (x > area.right() - 160) break;
    }
    int agreeing = 0;
    for (int d : b.draws) agreeing += d == b.winner;
    p.setPen(s.fg);
    p.drawText(QRectF(x + 8, area.top(), area.right() - x - 8, 14),
               Qt::AlignLeft | Qt::AlignVCenter,
               q("agreement " + std::to_string(agreeing) + "/" + std::to_string(b.draws.size()) +
                 " (" + percent(b.agreement, 0) + ")"));
    p.restore();
}

}  // namespace

void paint_question(QPainter& painter, const QRectF& rect, const QuestionBlock& question,
                    bool dark) {
    paint_question_styled(painter, rect, question, style_for(dark, false));
}

std::string chart_svg(const ReportChart& chart, int width, int height) {
    return svg_of(width, height, q(chart.title), [&](QPainter& p) {
        const Style s = style_for(false, true);
        if (chart.kind == ReportChart::Kind::Xy)
            paint_xy(p, QRectF(0, 0, width, height), chart, s);
        else
            paint_category(p, QRectF(0, 0, width, height), chart, s);
    });
}

std::string question_svg(const QuestionBlock& question, int width) {
    const int height = static_cast<int>(std::ceil(detail::question_height(question)));
    return svg_of(width, height, q(question.id), [&](QPainter& p) {
        paint_question_styled(p, QRectF(0, 0, width, height), question, style_for(false, true));
    });
}

}  // namespace core::report
