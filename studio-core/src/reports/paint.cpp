// A report's charts and question blocks, painted into the HTML's SVG (through QSvgGenerator), the
// PDF's pages and the Studio's page preview. Every chart, a question's bars included, is the
// Qt Charts chart the Studio shows (charts/qt_chart.h): painted here in the report's look.

#include <QBuffer>
#include <QFontMetricsF>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "charts/qt_chart.h"
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

using charts::series_color;

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

// The report's look of a chart: its typeface with sizes in pixels (render_chart lays charts out
// at 96 dpi: 10 px is 7.5 pt on a page), the page's foreground, no ground of its own.
charts::ChartLook chart_look(const Style& s) {
    charts::ChartLook look;
    look.text = s.fg;
    look.axis = s.muted;
    look.grid = s.grid;
    look.background = Qt::transparent;
    look.highlight = s.highlight;
    look.mark = s.highlight;
    look.title_font = font_of(9, true);
    look.title_font.setPixelSize(12);
    look.label_font = font_of(7.5);
    look.label_font.setPixelSize(10);
    look.no_data_text = QString::fromUtf8(kNoDataText.data(), kNoDataText.size());
    return look;
}

// Removes the groups QSvgGenerator opens for a state change and closes with nothing drawn (a
// chart has hundreds): the same picture in a quarter of the bytes.
void drop_empty_groups(std::string& svg) {
    std::string out;
    out.reserve(svg.size());
    size_t at = 0;
    while (at < svg.size()) {
        const size_t open = svg.find("<g ", at);
        if (open == std::string::npos) break;
        const size_t end = svg.find('>', open);
        if (end == std::string::npos) break;
        const size_t next = svg.find_first_not_of(" \t\r\n", end + 1);
        const bool empty = next != std::string::npos && svg.compare(next, 4, "</g>") == 0;
        out.append(svg, at, empty ? open - at : end + 1 - at);
        at = empty ? next + 4 : end + 1;
    }
    out.append(svg, at, std::string::npos);
    svg = std::move(out);
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
    drop_empty_groups(svg);
    const std::string sentinel = kSvgForeground.name().toStdString();
    for (size_t at = svg.find(sentinel); at != std::string::npos; at = svg.find(sentinel, at))
        svg.replace(at, sentinel.size(), "currentColor");
    return svg;
}

}  // namespace

namespace detail {

// A horizontal bar chart: a row per category, and room for the title and the value axis below.
double bars_height(size_t categories, bool titled) {
    return (titled ? 58 : 40) + 20.0 * static_cast<double>(std::max<size_t>(1, categories));
}

double chart_height(const ReportChart& c, double width) {
    if (c.kind == ReportChart::Kind::Category && c.horizontal)
        return bars_height(c.categories.size(), !c.title.empty());
    return std::clamp(width * 0.45, 170.0, 260.0);
}

// The question's line and statistics (about 28), its bars, the draw strip (20).
double question_height(const QuestionBlock& b) {
    if (!b.skipped.empty()) return 40;
    return 28 + bars_height(b.labels.size(), false) + 20;
}

}  // namespace detail

void paint_chart(QPainter& painter, const QRectF& rect, const ReportChart& chart, bool dark) {
    painter.save();
    charts::render_chart(painter, rect, chart, chart_look(style_for(dark, false)));
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
    const double bars_h = detail::bars_height(b.labels.size(), false);
    charts::render_chart(p, QRectF(area.left(), area.top(), area.width(), bars_h), bars,
                         chart_look(s));
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
        charts::render_chart(p, QRectF(0, 0, width, height), chart,
                             chart_look(style_for(false, true)));
    });
}

std::string question_svg(const QuestionBlock& question, int width) {
    const int height = static_cast<int>(std::ceil(detail::question_height(question)));
    return svg_of(width, height, q(question.id), [&](QPainter& p) {
        paint_question_styled(p, QRectF(0, 0, width, height), question, style_for(false, true));
    });
}

}  // namespace core::report
