// The painted result card (see result_card.h).
#include "ui/results/result_card.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QResizeEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/decide/decision.h"
#include "ui/accessibility/painted_items.h"
#include "ui/i18n/format.h"
#include "ui/results/results_model.h"
#include "ui/results/wide_options_dialog.h"

namespace ui {
namespace {
constexpr int kPad = 10;
constexpr int kMark = 12;  // agreement mark size
constexpr int kMarkGap = 3;
constexpr int kSwatch = 8;
constexpr int kSwatchGap = 6;  // swatch to label text
constexpr int kGap = 10;       // between items on one line
constexpr int kMinTrack = 90;  // narrower than this, labels go above their bars

using Part = ResultCard::Part;

bool dark(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < 128;
}

QList<double> means(const QModelIndex& index) {
    return index.data(ResultsModel::MeanRole).value<QList<double>>();
}

QColor badge_color(int hesitation, const QPalette& palette) {
    const bool d = dark(palette);
    switch (static_cast<core::Hesitation>(hesitation)) {
        case core::Hesitation::Clear:
            return d ? QColor(0x2e, 0x9e, 0x5b) : QColor(0x1e, 0x7e, 0x45);
        case core::Hesitation::SomewhatUnsure:
            return d ? QColor(0xd8, 0x9b, 0x1c) : QColor(0xb2, 0x6b, 0x00);
        case core::Hesitation::VeryUnsure:
            break;
    }
    return d ? QColor(0xe0, 0x55, 0x55) : QColor(0xc0, 0x2a, 0x2a);
}

int argmax_of(const QList<double>& v) {
    int best = 0;
    for (int i = 1; i < v.size(); ++i)
        if (v[i] > v[best]) best = i;
    return best;
}

// A fraction as the locale writes a percentage ("91.8%", "91,8 %"): ui::formatPercent.
QString percent(double fraction, int decimals) {
    return formatPercent(fraction, decimals);
}

// A label that is its own meaning (yes/no) is written once.
QString label_name(const QStringList& labels, const QStringList& alts, int i) {
    return labels.value(i) == alts.value(i)
               ? alts.value(i)
               : labels.value(i) + QStringLiteral("  ") + alts.value(i);
}

}  // namespace

ResultCard::ResultCard(const QModelIndex& index, QWidget* parent) : QWidget(parent), index_(index) {
    installPaintedItemsAccessibility();
    setAttribute(Qt::WA_Hover);
    setMouseTracking(true);
    setFocusPolicy(Qt::TabFocus);  // reachable from the keyboard; focus shows a frame
    setAccessibleName(spokenSummary());
    setAccessibleDescription(spokenDetails());
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QColor ResultCard::labelColor(int label, const QPalette& palette) {
    // Evenly spread hues, saturation and value tuned for the background's lightness.
    static const int hues[] = {210, 30, 130, 280, 0, 180, 55, 320, 95, 250};
    const int hue = hues[label % 10];
    return dark(palette) ? QColor::fromHsv(hue, 150, 230) : QColor::fromHsv(hue, 200, 190);
}

// What the parts of a card's layout share: the fonts, the columns, the running y and the parts
// placed so far.
struct ResultCard::LayoutContext {
    LayoutContext(const QFont& font, const QFont& bold_font, int width)
        : fm(font), bfm(bold_font), right(width - kPad) {
        inner = std::max(40, right - left);
        line = std::max(fm.height(), bfm.height());
    }
    void add(Part::Kind kind, QRect rect, QString text, int index, bool bold) {
        out.parts.append(Part{kind, rect, std::move(text), index, bold});
    }

    const QFontMetrics fm, bfm;
    const int left = kPad;
    const int right;
    int inner = 0, line = 0;
    int y = kPad;
    Layout out;
};

namespace {
// A text that may not fit `room`: elided only then (a reader sees "…", never a cut glyph).
QString fit(const QFontMetrics& m, const QString& text, int room) {
    return m.horizontalAdvance(text) <= room ? text : m.elidedText(text, Qt::ElideRight, room);
}
}  // namespace

ResultCard::Layout ResultCard::layoutFor(int width) const {
    if (!index_.isValid()) return {};
    QFont bold_font = font();
    bold_font.setBold(true);
    LayoutContext c(font(), bold_font, width);
    const QString skipped = index_.data(ResultsModel::SkipRole).toString();
    layoutHeader(c, skipped);
    if (!skipped.isEmpty()) {
        // No reads, so no bars, badge or draws; say why.
        const QRect r =
            c.fm.boundingRect(QRect(c.left, c.y, c.inner, 10000), Qt::TextWordWrap, skipped);
        c.add(Part::Reason, QRect(c.left, c.y, c.inner, r.height()), skipped, -1, false);
        c.out.height = c.y + r.height() + kPad;
        return c.out;
    }
    // A question the stage-2 cascade escalated says so under its header, wrapped.
    if (const QString escalation = index_.data(ResultsModel::EscalationRole).toString();
        !escalation.isEmpty()) {
        const bool replaced = index_.data(ResultsModel::EscalatedByStage2Role).toBool();
        const QFontMetrics& m = replaced ? c.bfm : c.fm;
        const QRect r =
            m.boundingRect(QRect(c.left, c.y, c.inner, 10000), Qt::TextWordWrap, escalation);
        c.add(Part::Escalation, QRect(c.left, c.y, c.inner, r.height()), escalation, -1, replaced);
        c.y += r.height() + 4;
    }
    layoutStatistics(c);
    layoutBars(c);
    layoutDraws(c);
    c.out.height = c.y + kPad;
    return c.out;
}

void ResultCard::layoutHeader(LayoutContext& c, const QString& skipped) const {
    const QFontMetrics &fm = c.fm, &bfm = c.bfm;
    const int left = c.left, right = c.right, inner = c.inner, line = c.line;
    int& y = c.y;
    auto add = [&c](Part::Kind kind, QRect rect, QString text = {}, int index = -1,
                    bool bold = false) { c.add(kind, rect, std::move(text), index, bold); };
    const QString id = index_.data(ResultsModel::IdRole).toString();
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const int winner = index_.data(ResultsModel::WinnerRole).toInt();
    // Header: the id, the answer and the badge, on one line where they fit, else flowing on.
    const QString title = fit(bfm, id, inner);
    add(Part::Title, QRect(left, y, bfm.horizontalAdvance(title), line), title, -1, true);
    int x = left + bfm.horizontalAdvance(title) + kGap;
    const QString answer = skipped.isEmpty() ? tr("→ %1").arg(alts.value(winner)) : tr("→ skipped");
    const int answer_w = bfm.horizontalAdvance(answer);
    const QString hesitation =
        skipped.isEmpty() ? index_.data(ResultsModel::HesitationTextRole).toString() : QString();
    const int badge_w = hesitation.isEmpty() ? 0 : fm.horizontalAdvance(hesitation) + 16;
    const int badge_h = line + 4;
    const int header_h = std::max(line, badge_h) + 2;
    const int after_badge = badge_w ? badge_w + kGap : 0;
    if (x + answer_w + after_badge > right) {  // the answer starts the next line
        y += header_h;
        x = left;
    }
    const QString answer_text = fit(bfm, answer, right - x);
    add(Part::Answer, QRect(x, y, bfm.horizontalAdvance(answer_text), line), answer_text, -1, true);
    if (badge_w) {
        const int end = x + bfm.horizontalAdvance(answer_text) + kGap;
        if (end + badge_w > right) y += header_h;  // the badge gets a line of its own
        add(Part::Badge,
            QRect(right - std::min(badge_w, inner), y - 2, std::min(badge_w, inner), badge_h),
            fit(fm, hesitation, inner - 16));
    }
    y += header_h;
}

void ResultCard::layoutStatistics(LayoutContext& c) const {
    const QFontMetrics& fm = c.fm;
    const int left = c.left, inner = c.inner;
    int& y = c.y;
    auto add = [&c](Part::Kind kind, QRect rect, QString text = {}, int index = -1,
                    bool bold = false) { c.add(kind, rect, std::move(text), index, bold); };
    // Statistics, flowing onto as many lines as the width needs.
    QStringList chunks{
        tr("confidence %1").arg(percent(index_.data(ResultsModel::ConfidenceRole).toDouble(), 1)),
        tr("entropy %1 nats")
            .arg(QLocale().toString(index_.data(ResultsModel::EntropyRole).toDouble(), 'f', 3)),
        tr("hesitation %1").arg(percent(index_.data(ResultsModel::HesitationRole).toDouble(), 0))};
    if (const QVariant se = index_.data(ResultsModel::StderrRole); se.isValid())
        chunks << tr("±%1 (stderr)").arg(QLocale().toString(se.toDouble() * 100, 'f', 1));
    const QString separator = QStringLiteral("  ·  ");
    QString current;
    auto flush = [&] {
        if (current.isEmpty()) return;
        const QString text = fit(fm, current, inner);
        add(Part::Stats, QRect(left, y, fm.horizontalAdvance(text), fm.height()), text);
        y += fm.height() + 2;
        current.clear();
    };
    for (const QString& chunk : chunks) {
        const QString joined = current.isEmpty() ? chunk : current + separator + chunk;
        if (!current.isEmpty() && fm.horizontalAdvance(joined) > inner) {
            flush();
            current = chunk;
        } else {
            current = joined;
        }
    }
    flush();
    y += 6;
}

void ResultCard::layoutBars(LayoutContext& c) const {
    const QFontMetrics &fm = c.fm, &bfm = c.bfm;
    const int left = c.left, right = c.right, inner = c.inner, line = c.line;
    int& y = c.y;
    auto add = [&c](Part::Kind kind, QRect rect, QString text = {}, int index = -1,
                    bool bold = false) { c.add(kind, rect, std::move(text), index, bold); };
    const QStringList labels = index_.data(ResultsModel::LabelsRole).toStringList();
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const QList<double> mean = means(index_);
    const int winner = index_.data(ResultsModel::WinnerRole).toInt();
    // Bars: label | track | value on one row, or the label above its track when the labels
    // would leave the track too little room.
    const int row_h = line + 8;
    const int value_w = fm.horizontalAdvance(percent(1.0, 1)) + 4;
    int label_w = 0;
    for (int i = 0; i < mean.size(); ++i)
        label_w = std::max(label_w, bfm.horizontalAdvance(label_name(labels, alts, i)));
    const int label_col = kSwatch + kSwatchGap + label_w + kGap;
    const bool stacked = inner - label_col - value_w - kGap < kMinTrack;
    const auto label_se = index_.data(ResultsModel::StderrLabelsRole).value<QList<double>>();
    const QList<int> shown = shownLabels();
    for (int i : shown) {
        const bool is_winner = i == winner;
        const QFontMetrics& m = is_winner ? bfm : fm;
        const int text_room = stacked ? inner - kSwatch - kSwatchGap : label_w;
        const QString name = fit(m, label_name(labels, alts, i), text_room);
        add(Part::Swatch, QRect(left, y + row_h / 2 - kSwatch / 2, kSwatch, kSwatch), {}, i);
        add(Part::Label,
            QRect(left + kSwatch + kSwatchGap, y + (row_h - line) / 2, m.horizontalAdvance(name),
                  line),
            name, i, is_winner);
        if (stacked) y += row_h - 4;
        const int track_left = stacked ? left + kSwatch + kSwatchGap : left + label_col;
        const int track_right = right - value_w - kGap;
        const QRect track(track_left, y + 3, std::max(10, track_right - track_left), row_h - 6);
        add(Part::Track, track, {}, i);
        if (i < label_se.size()) {
            const double v = std::clamp(mean[i], 0.0, 1.0), s = label_se[i];
            const int x0 =
                track.left() + int(std::lround(track.width() * std::clamp(v - s, 0.0, 1.0)));
            const int x1 =
                track.left() + int(std::lround(track.width() * std::clamp(v + s, 0.0, 1.0)));
            add(Part::ErrorBar, QRect(x0, track.center().y() - 4, std::max(1, x1 - x0), 9), {}, i);
        }
        const QString value = percent(std::clamp(mean[i], 0.0, 1.0), 1);
        const QFontMetrics& vm = is_winner ? bfm : fm;
        add(Part::Value,
            QRect(right - vm.horizontalAdvance(value), y + (row_h - line) / 2,
                  vm.horizontalAdvance(value), line),
            value, i, is_winner);
        y += row_h;
    }
    if (shown.size() < mean.size()) {
        const QString more = tr("and %n more…", nullptr, int(mean.size() - shown.size()));
        add(Part::More, QRect(left + kSwatch + kSwatchGap, y + 2, fm.horizontalAdvance(more), line),
            more);
        y += row_h;
    }
}

QList<int> ResultCard::shownLabels() const {
    const QList<double> mean = means(index_);
    QList<int> order;
    for (int i = 0; i < mean.size(); ++i) order << i;
    if (mean.size() <= kFoldAbove) return order;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return mean[a] > mean[b]; });
    return order.mid(0, kTopOptions);
}

void ResultCard::showAllOptions() {
    if (means(index_).size() <= kFoldAbove) return;
    auto* dialog = new WideOptionsDialog(index_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void ResultCard::mouseReleaseEvent(QMouseEvent* event) {
    for (const Part& part : parts())
        if (part.kind == Part::More && part.rect.adjusted(-2, -2, 2, 2).contains(event->pos())) {
            showAllOptions();
            return;
        }
    QWidget::mouseReleaseEvent(event);
}

void ResultCard::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        showAllOptions();
        return;
    }
    QWidget::keyPressEvent(event);
}

void ResultCard::layoutDraws(LayoutContext& c) const {
    const QFontMetrics& fm = c.fm;
    const int left = c.left, right = c.right;
    int& y = c.y;
    auto add = [&c](Part::Kind kind, QRect rect, QString text = {}, int index = -1,
                    bool bold = false) { c.add(kind, rect, std::move(text), index, bold); };
    // The agreement strip: marks wrap onto more lines; the agreement text follows the last
    // mark, or starts a line of its own.
    const auto per_read = index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>();
    if (!per_read.isEmpty()) {
        y += 6;
        const QString draws = tr("Draws");
        add(Part::DrawsLabel, QRect(left, y, fm.horizontalAdvance(draws), fm.height()), draws);
        const int marks_left = left + fm.horizontalAdvance(draws) + 8;
        const int strip_line = std::max(kMark + 4, fm.height());
        int mx = marks_left;
        for (int k = 0; k < per_read.size(); ++k) {
            if (mx + kMark > right && mx > marks_left) {
                mx = marks_left;
                y += strip_line;
            }
            add(Part::Mark, QRect(mx, y + (fm.height() - kMark) / 2, kMark, kMark), {}, k);
            mx += kMark + kMarkGap;
        }
        const QString agreement =
            tr("agreement %1 of %n draw(s)", nullptr, int(per_read.size()))
                .arg(percent(index_.data(ResultsModel::AgreementRole).toDouble(), 0));
        const int agreement_w = fm.horizontalAdvance(agreement);
        int ax = mx + 10 - kMarkGap;
        if (ax + agreement_w > right) {
            ax = left;
            y += strip_line;
        }
        const QString shown = fit(fm, agreement, right - ax);
        add(Part::Agreement, QRect(ax, y, fm.horizontalAdvance(shown), fm.height()), shown);
        y += strip_line;
    }
}

int ResultCard::heightForWidth(int width) const {
    return layoutFor(width).height;
}

QSize ResultCard::sizeHint() const {
    return {420, heightForWidth(std::max(width(), 420))};
}
QSize ResultCard::minimumSizeHint() const {
    // The height at the width the card has once laid out (420 before that): layouts that do
    // not ask heightForWidth still leave room for everything.
    return {200, heightForWidth(width() >= 200 ? width() : 420)};
}

void ResultCard::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (heightForWidth(event->size().width()) != heightForWidth(event->oldSize().width()))
        updateGeometry();
}

QRect ResultCard::partRect(Part::Kind kind, int index) const {
    for (const Part& p : parts())
        if (p.kind == kind && p.index == index) return p.rect;
    return {};
}

QRect ResultCard::barRect(int label) const {
    return partRect(Part::Track, label);
}

QRect ResultCard::drawMarkRect(int draw) const {
    return partRect(Part::Mark, draw);
}

void ResultCard::paintEvent(QPaintEvent*) {
    if (!index_.isValid()) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    QFont bold = font();
    bold.setBold(true);
    // Card background and frame.
    QRectF frame = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(QPen(hasFocus() ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid),
                  hasFocus() ? 2 : 1));
    p.setBrush(pal.color(QPalette::Base));
    p.drawRoundedRect(frame, 6, 6);

    const QList<double> mean = means(index_);
    const int winner = index_.data(ResultsModel::WinnerRole).toInt();
    const auto per_read = index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>();
    const int hesitation = index_.data(ResultsModel::HesitationClassRole).toInt();

    auto text = [&](const Part& part, const QColor& colour) {
        p.setFont(part.bold ? bold : font());
        p.setPen(colour);
        p.drawText(part.rect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, part.text);
    };
    for (const Part& part : layoutFor(width()).parts) {
        switch (part.kind) {
            case Part::Title:
            case Part::Answer:
            case Part::Label:
            case Part::Value:
                text(part, pal.color(QPalette::Text));
                break;
            case Part::Stats:
            case Part::DrawsLabel:
            case Part::Agreement:
                text(part, pal.color(QPalette::PlaceholderText));
                break;
            case Part::More: {
                QFont link = font();
                link.setUnderline(true);
                p.setFont(link);
                p.setPen(pal.color(QPalette::Link));
                p.drawText(part.rect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                           part.text);
                break;
            }
            case Part::Escalation: {
                QFont f = font();
                f.setBold(part.bold);
                p.setFont(f);
                p.setPen(pal.color(QPalette::Link));
                p.drawText(part.rect, Qt::TextWordWrap, part.text);
                break;
            }
            case Part::Reason:
                p.setFont(font());
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.drawText(part.rect, Qt::TextWordWrap, part.text);
                break;
            case Part::Badge: {
                const QColor bg = badge_color(hesitation, pal);
                p.setPen(Qt::NoPen);
                p.setBrush(bg);
                const QRectF r(part.rect);
                p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
                p.setFont(font());
                p.setPen(bg.lightness() > 150 ? Qt::black : Qt::white);
                p.drawText(part.rect, Qt::AlignCenter, part.text);
                break;
            }
            case Part::Swatch:
                p.setPen(Qt::NoPen);
                p.setBrush(labelColor(part.index, pal));
                p.drawRoundedRect(QRectF(part.rect), 2, 2);
                break;
            case Part::Track: {
                p.setPen(Qt::NoPen);
                p.setBrush(pal.color(QPalette::AlternateBase));
                p.drawRoundedRect(part.rect, 3, 3);
                const double value = std::clamp(mean.value(part.index), 0.0, 1.0);
                const QRectF bar(part.rect.left(), part.rect.top(), part.rect.width() * value,
                                 part.rect.height());
                p.setBrush(labelColor(part.index, pal));
                if (bar.width() > 0.5) p.drawRoundedRect(bar, 3, 3);
                break;
            }
            case Part::ErrorBar: {
                const QRect r = part.rect;
                const double cy = r.top() + r.height() / 2.0;
                p.setPen(QPen(pal.color(QPalette::Text), 1.5));
                p.drawLine(QPointF(r.left(), cy), QPointF(r.right(), cy));
                p.drawLine(QPointF(r.left(), r.top()), QPointF(r.left(), r.bottom()));
                p.drawLine(QPointF(r.right(), r.top()), QPointF(r.right(), r.bottom()));
                break;
            }
            case Part::Mark: {
                const int answer = argmax_of(per_read.value(part.index));
                p.setPen(answer == winner ? Qt::NoPen : QPen(pal.color(QPalette::Text), 1));
                p.setBrush(labelColor(answer, pal));
                p.drawRoundedRect(part.rect, 2, 2);
                break;
            }
        }
    }
}

QString ResultCard::spokenLabel(int label) const {
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const QList<double> mean = means(index_);
    const auto label_se = index_.data(ResultsModel::StderrLabelsRole).value<QList<double>>();
    const QString value = QLocale().toString(mean.value(label) * 100, 'f', 1);
    if (label < label_se.size())
        return tr("%1, %2 percent, plus or minus %3")
            .arg(alts.value(label), value, QLocale().toString(label_se[label] * 100, 'f', 1));
    return tr("%1, %2 percent").arg(alts.value(label), value);
}

QString ResultCard::spokenSummary() const {
    if (!index_.isValid()) return {};
    const QString id = index_.data(ResultsModel::IdRole).toString();
    const QString skipped = index_.data(ResultsModel::SkipRole).toString();
    if (!skipped.isEmpty()) return tr("%1: skipped, %2").arg(id, skipped);
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const int winner = index_.data(ResultsModel::WinnerRole).toInt();
    QString spoken = tr("%1: %2, %3 percent, %4")
                         .arg(id, alts.value(winner),
                              QLocale().toString(means(index_).value(winner) * 100, 'f', 1),
                              index_.data(ResultsModel::HesitationTextRole).toString().toLower());
    if (const QString escalation = index_.data(ResultsModel::EscalationRole).toString();
        !escalation.isEmpty())
        spoken += QStringLiteral(". ") + escalation;
    return spoken;
}

QString ResultCard::spokenDetails() const {
    if (!index_.isValid() || !index_.data(ResultsModel::SkipRole).toString().isEmpty()) return {};
    QStringList parts;
    for (int i = 0; i < means(index_).size(); ++i) parts << spokenLabel(i);
    const auto per_read = index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>();
    if (!per_read.isEmpty())
        parts << tr("the noise draws agree %1 percent of %n draw(s)", nullptr, int(per_read.size()))
                     .arg(QLocale().toString(
                         index_.data(ResultsModel::AgreementRole).toDouble() * 100, 'f', 0));
    return parts.join(QStringLiteral("; "));
}

int ResultCard::accessibleItemCount() const {
    return index_.data(ResultsModel::SkipRole).toString().isEmpty() ? int(means(index_).size()) : 0;
}

QString ResultCard::accessibleItemText(int label, QAccessible::Text text) const {
    if (text == QAccessible::Name)
        return index_.data(ResultsModel::AlternativesRole).toStringList().value(label);
    if (text == QAccessible::Description || text == QAccessible::Value) return spokenLabel(label);
    return {};
}

QRect ResultCard::accessibleItemRect(int label) const {
    return barRect(label);
}

QAccessible::Role ResultCard::accessibleItemRole(int) const {
    return QAccessible::ProgressBar;
}

QString ResultCard::toolTipAt(const QPoint& pos) const {
    const QStringList labels = index_.data(ResultsModel::LabelsRole).toStringList();
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const auto per_read = index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>();
    const QList<double> mean = means(index_);
    for (const Part& part : parts()) {
        if (part.kind == Part::Mark && part.rect.adjusted(-1, -1, 1, 1).contains(pos)) {
            const int k = part.index;
            QStringList lines{tr("Draw %1: %2").arg(k + 1).arg(alts.value(argmax_of(per_read[k])))};
            // A wide question's draw: its likeliest options only.
            QList<int> order;
            for (int i = 0; i < per_read[k].size(); ++i) order << i;
            if (order.size() > kFoldAbove) {
                std::stable_sort(order.begin(), order.end(),
                                 [&](int a, int b) { return per_read[k][a] > per_read[k][b]; });
                order = order.mid(0, kTopOptions);
            }
            for (int i : order)
                lines << tr("%1 %2: %3")
                             .arg(labels.value(i), alts.value(i), percent(per_read[k][i], 1));
            return lines.join(QLatin1Char('\n'));
        }
        if (part.kind == Part::Track && part.rect.contains(pos))
            return tr("%1 (label %2): mean %3")
                .arg(alts.value(part.index), labels.value(part.index),
                     percent(mean.value(part.index), 2));
    }
    return {};
}

bool ResultCard::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace ui
