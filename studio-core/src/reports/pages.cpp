// The PDF format and the page preview: one page layout (header and footer with page numbers,
// sections flowing down the page, tables that break across pages with their header repeated)
// painted onto a QPdfWriter or onto images. Coordinates are points (1/72 inch) on every device.

#include <QBuffer>
#include <QFontMetricsF>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <functional>

#include "report_internal.h"

namespace core::report {

namespace {

using detail::font_of;

constexpr double kMargin = 42;  // points
constexpr double kHeaderH = 26;
constexpr double kFooterH = 24;
constexpr int kDotsPerMeter72 = 2835;  // 72 dpi: one device unit per point

QSizeF page_points(PageSize size) {
    const QPageSize ps(size == PageSize::A4 ? QPageSize::A4 : QPageSize::Letter);
    return ps.size(QPageSize::Point);
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// Word-wraps `text` (keeping its line breaks) into lines no wider than `width`.
std::vector<QString> wrap(const QString& text, const QFontMetricsF& fm, double width) {
    std::vector<QString> out;
    for (const QString& para : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : para.split(QLatin1Char(' '))) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (fm.horizontalAdvance(candidate) <= width || line.isEmpty()) {
                line = candidate;
            } else {
                out.push_back(line);
                line = word;
            }
            // A single word wider than the line is cut by characters.
            while (fm.horizontalAdvance(line) > width && line.size() > 1) {
                int n = line.size() - 1;
                while (n > 1 && fm.horizontalAdvance(line.left(n)) > width) --n;
                out.push_back(line.left(n));
                line = line.mid(n);
            }
        }
        out.push_back(line);
    }
    return out;
}

// Lays the report out page by page. With no painter it only measures (the first pass counts
// the pages so that the footer can say "Page n of N").
class PageFlow {
  public:
    using BeginPage = std::function<QPainter*(int index)>;

    PageFlow(const Report& report, QSizeF page, const QPaintDevice* metrics, BeginPage begin,
             int total_pages)
        : r_(report),
          page_(page),
          metrics_(metrics),
          begin_(std::move(begin)),
          total_(total_pages) {}

    int run() {
        next_page();
        title_block();
        for (const auto& s : r_.sections) section(s);
        return pages_;
    }

  private:
    double width() const { return page_.width() - 2 * kMargin; }
    double bottom() const { return page_.height() - kMargin - kFooterH; }
    QFontMetricsF metrics(const QFont& f) const { return QFontMetricsF(f, metrics_); }

    void next_page() {
        p_ = begin_ ? begin_(pages_) : nullptr;
        ++pages_;
        y_ = kMargin + kHeaderH;
        if (!p_) return;
        p_->setRenderHint(QPainter::Antialiasing);
        p_->setRenderHint(QPainter::TextAntialiasing);
        const QFont f = font_of(7.5);
        p_->setFont(f);
        p_->setPen(QColor(110, 110, 110));
        const QRectF head(kMargin, kMargin, width(), kHeaderH - 8);
        p_->drawText(head, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics(f).elidedText(q(r_.title), Qt::ElideRight, width() * 0.6));
        p_->drawText(head, Qt::AlignRight | Qt::AlignVCenter, q(r_.provenance.created_at));
        p_->setPen(QPen(QColor(230, 120, 20), 1.2));
        p_->drawLine(QPointF(kMargin, kMargin + kHeaderH - 6),
                     QPointF(kMargin + width(), kMargin + kHeaderH - 6));
        const QRectF foot(kMargin, page_.height() - kMargin - kFooterH + 8, width(), kFooterH - 8);
        p_->setPen(QColor(110, 110, 110));
        p_->drawText(foot, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics(f).elidedText(q(r_.provenance.program + " " + r_.provenance.version +
                                             " \u00b7 " + r_.provenance.endpoint),
                                           Qt::ElideRight, width() * 0.7));
        p_->drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
                     QStringLiteral("Page %1 of %2").arg(pages_).arg(std::max(total_, pages_)));
        p_->setPen(Qt::black);
    }

    void ensure(double h) {
        if (y_ + h > bottom() && y_ > kMargin + kHeaderH + 1) next_page();
    }

    // Lines of text, breaking pages between lines.
    void lines(const QString& text, const QFont& f, const QColor& color, double indent = 0,
               double w = -1) {
        const QFontMetricsF fm = metrics(f);
        const double lw = w > 0 ? w : width() - indent;
        for (const QString& line : wrap(text, fm, lw)) {
            ensure(fm.height());
            if (p_) {
                p_->setFont(f);
                p_->setPen(color);
                p_->drawText(QPointF(kMargin + indent, y_ + fm.ascent()), line);
            }
            y_ += fm.height();
        }
    }

    void title_block() {
        lines(q(r_.title), font_of(16, true), Qt::black);
        y_ += 2;
        const Provenance& pv = r_.provenance;
        lines(q("Made " + pv.created_at + " with " + pv.program + " " + pv.version + " on " +
                (pv.endpoint.empty() ? "an unnamed endpoint" : pv.endpoint) +
                (pv.model.empty() ? "" : ", model " + pv.model)),
              font_of(8.5), QColor(90, 90, 90));
        y_ += 10;
    }

    void section(const Section& s) {
        const QFont hf = font_of(12.5, true);
        // A heading never ends a page: it keeps with the section's first block.
        double first = 60;
        if (s.text.empty() && s.facts.empty()) {
            if (!s.charts.empty())
                first = detail::chart_height(s.charts.front(), width());
            else if (!s.questions.empty())
                first = detail::question_height(s.questions.front());
        }
        ensure(metrics(hf).height() + 10 + std::min(first, bottom() - kMargin - kHeaderH - 40));
        y_ += 6;
        lines(q(s.title), hf, QColor(20, 20, 20));
        y_ += 4;
        if (!s.text.empty()) {
            lines(q(s.text), font_of(8.5), QColor(40, 40, 40));
            y_ += 6;
        }
        facts(s.facts);
        images(s.images);
        for (const auto& c : s.charts) {
            const double h = detail::chart_height(c, width());
            ensure(h);
            if (p_) paint_chart(*p_, QRectF(kMargin, y_, width(), h), c, false);
            y_ += h + 10;
        }
        for (const auto& b : s.questions) {
            const double h = detail::question_height(b);
            ensure(h);
            if (p_) paint_question(*p_, QRectF(kMargin, y_, width(), h), b, false);
            y_ += h + 10;
        }
        for (const auto& t : s.tables) table(t);
    }

    // Thumbnails in rows, each fitted into one box with its name below.
    void images(const std::vector<ReportImage>& images) {
        if (images.empty()) return;
        constexpr double kBoxW = 160, kBoxH = 130, kGap = 10;
        const QFont f = font_of(7);
        const QFontMetricsF fm = metrics(f);
        const double cell_h = kBoxH + fm.height() + 4;
        double x = 0;
        ensure(cell_h);
        for (const auto& img : images) {
            if (x > 0 && x + kBoxW > width()) {
                x = 0;
                y_ += cell_h + kGap;
                ensure(cell_h);
            }
            if (p_) {
                const QImage pic = QImage::fromData(QByteArray::fromRawData(
                    img.bytes.data(), static_cast<qsizetype>(img.bytes.size())));
                if (!pic.isNull()) {
                    const QSizeF fit = QSizeF(pic.size()).scaled(kBoxW, kBoxH, Qt::KeepAspectRatio);
                    p_->drawImage(QRectF(kMargin + x, y_, fit.width(), fit.height()), pic);
                } else {  // a format this Qt cannot decode: say so where the picture would be
                    p_->setPen(QPen(QColor(180, 180, 180), 0.5));
                    p_->drawRect(QRectF(kMargin + x, y_, kBoxW, kBoxH));
                    p_->setFont(f);
                    p_->drawText(QRectF(kMargin + x, y_, kBoxW, kBoxH), Qt::AlignCenter,
                                 q(img.mime + ": no preview"));
                }
                p_->setFont(f);
                p_->setPen(QColor(100, 100, 100));
                p_->drawText(QPointF(kMargin + x, y_ + kBoxH + 2 + fm.ascent()),
                             fm.elidedText(q(img.name), Qt::ElideMiddle, kBoxW));
            }
            x += kBoxW + kGap;
        }
        y_ += cell_h + kGap;
    }

    void facts(const std::vector<Fact>& facts) {
        if (facts.empty()) return;
        const QFont f = font_of(8.5);
        const QFontMetricsF fm = metrics(f);
        const double name_w = width() * 0.27;
        for (const auto& fact : facts) {
            const auto value_lines = wrap(q(fact.value), fm, width() - name_w);
            ensure(fm.height() * static_cast<double>(value_lines.size()));
            if (p_) {
                p_->setFont(f);
                p_->setPen(QColor(100, 100, 100));
                p_->drawText(QPointF(kMargin, y_ + fm.ascent()),
                             fm.elidedText(q(fact.name), Qt::ElideRight, name_w - 6));
                p_->setPen(QColor(20, 20, 20));
            }
            for (const QString& line : value_lines) {
                ensure(fm.height());
                if (p_) p_->drawText(QPointF(kMargin + name_w, y_ + fm.ascent()), line);
                y_ += fm.height();
            }
        }
        y_ += 8;
    }

    void table(const Table& t) {
        if (!t.title.empty()) {
            ensure(60);
            lines(q(t.title), font_of(9.5, true), QColor(30, 30, 30));
            y_ += 2;
        }
        if (t.rows.empty()) return;
        const QFont f = font_of(7.5), hf = font_of(7.5, true);
        const QFontMetricsF fm = metrics(f), hfm = metrics(hf);
        const size_t n = t.columns.size();
        // Column widths: natural widths, capped, then scaled to the page.
        std::vector<double> w(n, 0);
        for (size_t c = 0; c < n; ++c) {
            w[c] = hfm.horizontalAdvance(q(t.columns[c])) + 8;
            for (const auto& row : t.rows)
                if (c < row.size()) w[c] = std::max(w[c], fm.horizontalAdvance(q(row[c])) + 8);
            w[c] = std::min(w[c], width() * 0.45);
        }
        double total = 0;
        for (double x : w) total += x;
        for (double& x : w) x *= width() / total;
        auto numeric = [&](size_t c) {
            return std::find(t.numeric_columns.begin(), t.numeric_columns.end(),
                             static_cast<int>(c)) != t.numeric_columns.end();
        };
        auto cell_lines = [&](const std::vector<std::string>& row, const QFontMetricsF& m) {
            std::vector<std::vector<QString>> out;
            size_t most = 1;
            for (size_t c = 0; c < n; ++c) {
                out.push_back(wrap(q(c < row.size() ? row[c] : ""), m, w[c] - 6));
                most = std::max(most, out.back().size());
            }
            return std::pair{out, most};
        };
        auto draw_row = [&](const std::vector<std::string>& row, bool header) {
            const QFontMetricsF& m = header ? hfm : fm;
            auto [cells, most] = cell_lines(row, m);
            const double h = m.height() * static_cast<double>(std::min<size_t>(most, 12)) + 4;
            if (p_) {
                if (header) p_->fillRect(QRectF(kMargin, y_, width(), h), QColor(236, 238, 242));
                p_->setFont(header ? hf : f);
                p_->setPen(QColor(20, 20, 20));
                double x = kMargin;
                for (size_t c = 0; c < n; ++c) {
                    double ly = y_ + 2;
                    for (size_t k = 0; k < cells[c].size() && k < 12; ++k) {
                        p_->drawText(
                            QRectF(x + 3, ly, w[c] - 6, m.height()),
                            (numeric(c) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
                            cells[c][k]);
                        ly += m.height();
                    }
                    x += w[c];
                }
                p_->setPen(QPen(QColor(215, 215, 215), 0.5));
                p_->drawLine(QPointF(kMargin, y_ + h), QPointF(kMargin + width(), y_ + h));
            }
            y_ += h;
            return h;
        };
        auto row_height = [&](const std::vector<std::string>& row) {
            auto [cells, most] = cell_lines(row, fm);
            (void)cells;
            return fm.height() * static_cast<double>(std::min<size_t>(most, 12)) + 4;
        };
        const double header_h = hfm.height() + 4;
        ensure(header_h + row_height(t.rows.front()));
        draw_row(t.columns, true);
        for (const auto& row : t.rows) {
            if (y_ + row_height(row) > bottom()) {
                next_page();
                draw_row(t.columns, true);  // the header again on every page
            }
            draw_row(row, false);
        }
        y_ += 10;
    }

    const Report& r_;
    QSizeF page_;
    const QPaintDevice* metrics_;
    BeginPage begin_;
    int total_ = 0;
    int pages_ = 0;
    double y_ = 0;
    QPainter* p_ = nullptr;
};

// A 72-dpi image: the device the layout measures text on, whatever it paints on.
QImage metrics_image() {
    QImage img(8, 8, QImage::Format_RGB32);
    img.setDotsPerMeterX(kDotsPerMeter72);
    img.setDotsPerMeterY(kDotsPerMeter72);
    return img;
}

}  // namespace

Result<std::string> to_pdf(const Report& report, PageSize page_size) {
    if (!ensure_gui_application())
        return engine::engine_error("PDF reports need a GUI application (fonts); none could start");
    const QSizeF page = page_points(page_size);
    const QImage measure = metrics_image();
    const int total = PageFlow(report, page, &measure, nullptr, 0).run();

    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setPageSize(QPageSize(page_size == PageSize::A4 ? QPageSize::A4 : QPageSize::Letter));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(72);
    writer.setTitle(QString::fromStdString(report.title));
    writer.setCreator(
        QString::fromStdString(report.provenance.program + " " + report.provenance.version));
    QPainter painter;
    auto begin = [&](int index) -> QPainter* {
        if (index == 0) {
            if (!painter.begin(&writer)) return nullptr;
        } else {
            writer.newPage();
        }
        return &painter;
    };
    PageFlow(report, page, &measure, begin, total).run();
    if (!painter.isActive()) return engine::engine_error("the PDF writer could not start a page");
    painter.end();
    return buffer.data().toStdString();
}

std::vector<QImage> render_pages(const Report& report, PageSize page_size, int dpi) {
    std::vector<QImage> pages;
    if (!ensure_gui_application()) return pages;
    const QSizeF page = page_points(page_size);
    const QImage measure = metrics_image();
    const int total = PageFlow(report, page, &measure, nullptr, 0).run();
    const double scale = dpi / 72.0;
    QPainter painter;
    auto begin = [&](int) -> QPainter* {
        if (painter.isActive()) painter.end();
        QImage img(static_cast<int>(page.width() * scale), static_cast<int>(page.height() * scale),
                   QImage::Format_RGB32);
        img.setDotsPerMeterX(kDotsPerMeter72);  // fonts sized as on the PDF, then scaled
        img.setDotsPerMeterY(kDotsPerMeter72);
        img.fill(Qt::white);
        pages.push_back(std::move(img));
        painter.begin(&pages.back());
        painter.scale(scale, scale);
        return &painter;
    };
    PageFlow(report, page, &measure, begin, total).run();
    if (painter.isActive()) painter.end();
    return pages;
}

}  // namespace core::report
