// The painted result card (see result_card.h).
#include "ui/results/result_card.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <cmath>

#include "ui/results/results_model.h"

namespace ui {
namespace {
constexpr int kPad = 10;
constexpr int kMark = 12;  // agreement mark size
constexpr int kMarkGap = 3;

bool dark(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < 128;
}

QList<double> means(const QModelIndex& index) {
    return index.data(ResultsModel::MeanRole).value<QList<double>>();
}

QColor badge_color(const QString& hesitation, const QPalette& palette) {
    const bool d = dark(palette);
    if (hesitation == QLatin1String("Clear"))
        return d ? QColor(0x2e, 0x9e, 0x5b) : QColor(0x1e, 0x7e, 0x45);
    if (hesitation == QLatin1String("Somewhat unsure"))
        return d ? QColor(0xd8, 0x9b, 0x1c) : QColor(0xb2, 0x6b, 0x00);
    return d ? QColor(0xe0, 0x55, 0x55) : QColor(0xc0, 0x2a, 0x2a);
}

int argmax_of(const QList<double>& v) {
    int best = 0;
    for (int i = 1; i < v.size(); ++i)
        if (v[i] > v[best]) best = i;
    return best;
}
}  // namespace

ResultCard::ResultCard(const QModelIndex& index, QWidget* parent) : QWidget(parent), index_(index) {
    setAttribute(Qt::WA_Hover);
    setMouseTracking(true);
    setFocusPolicy(Qt::TabFocus);  // reachable from the keyboard; focus shows a frame
    setAccessibleName(index.data(Qt::DisplayRole).toString());
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QColor ResultCard::labelColor(int label, const QPalette& palette) {
    // Evenly spread hues, saturation and value tuned for the background's lightness.
    static const int hues[] = {210, 30, 130, 280, 0, 180, 55, 320, 95, 250};
    const int hue = hues[label % 10];
    return dark(palette) ? QColor::fromHsv(hue, 150, 230) : QColor::fromHsv(hue, 200, 190);
}

int ResultCard::rowHeight() const {
    return fontMetrics().height() + 8;
}
int ResultCard::headerHeight() const {
    return fontMetrics().height() * 2 + 10;
}
int ResultCard::barsTop() const {
    return kPad + headerHeight();
}
int ResultCard::stripTop() const {
    return barsTop() + rowHeight() * int(means(index_).size()) + fontMetrics().height() + 12;
}

int ResultCard::labelColumnWidth() const {
    const QStringList labels = index_.data(ResultsModel::LabelsRole).toStringList();
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    int w = 60;
    for (int i = 0; i < alts.size(); ++i)
        w = std::max(
            w,
            fontMetrics().horizontalAdvance(labels.value(i) + QStringLiteral("  ") + alts[i]) + 24);
    return std::min(w, width() / 3);
}

QSize ResultCard::sizeHint() const {
    const int draws =
        int(index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>().size());
    const int h = stripTop() + (draws > 0 ? kMark + fontMetrics().height() + 6 : 0) + kPad;
    return {420, h};
}
QSize ResultCard::minimumSizeHint() const {
    return {280, sizeHint().height()};
}

QRect ResultCard::barRect(int label) const {
    const int left = kPad + labelColumnWidth();
    const int right =
        width() - kPad - fontMetrics().horizontalAdvance(QStringLiteral("100.0%")) - 8;
    return {left, barsTop() + label * rowHeight() + 3, std::max(10, right - left), rowHeight() - 6};
}

QRect ResultCard::drawMarkRect(int draw) const {
    const int left = kPad + fontMetrics().horizontalAdvance(tr("Draws")) + 8;
    return {left + draw * (kMark + kMarkGap), stripTop() + 2, kMark, kMark};
}

void ResultCard::paintEvent(QPaintEvent*) {
    if (!index_.isValid()) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QFontMetrics fm = fontMetrics();

    // Card background and frame.
    QRectF frame = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(QPen(hasFocus() ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid),
                  hasFocus() ? 2 : 1));
    p.setBrush(pal.color(QPalette::Base));
    p.drawRoundedRect(frame, 6, 6);

    const QStringList labels = index_.data(ResultsModel::LabelsRole).toStringList();
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const QList<double> mean = means(index_);
    const int winner = index_.data(ResultsModel::WinnerRole).toInt();
    const QString hesitation = index_.data(ResultsModel::HesitationTextRole).toString();

    // Header: id, winner, badge.
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::Text));
    const QString id = index_.data(ResultsModel::IdRole).toString();
    p.drawText(QPoint(kPad, kPad + fm.ascent()), id);
    const QString skipped = index_.data(ResultsModel::SkipRole).toString();
    if (!skipped.isEmpty()) {
        // A question its ask_if skipped: no reads, so no bars, badge or draws; say why.
        p.drawText(QPoint(kPad + QFontMetrics(bold).horizontalAdvance(id) + 10, kPad + fm.ascent()),
                   tr("→ skipped"));
        p.setFont(font());
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(kPad, kPad + fm.height() + 4, width() - 2 * kPad, fm.height() * 2),
                   Qt::TextWordWrap, skipped);
        return;
    }
    const QString answer = QStringLiteral("→ %1").arg(alts.value(winner));
    const int id_w = QFontMetrics(bold).horizontalAdvance(id);
    p.drawText(QPoint(kPad + id_w + 10, kPad + fm.ascent()), answer);
    // Badge at the top right.
    const int badge_w = fm.horizontalAdvance(hesitation) + 16;
    QRectF badge(width() - kPad - badge_w, kPad - 2, badge_w, fm.height() + 4);
    const QColor badge_bg = badge_color(hesitation, pal);
    p.setPen(Qt::NoPen);
    p.setBrush(badge_bg);
    p.drawRoundedRect(badge, badge.height() / 2, badge.height() / 2);
    p.setFont(font());
    p.setPen(badge_bg.lightness() > 150 ? Qt::black : Qt::white);
    p.drawText(badge, Qt::AlignCenter, hesitation);
    // Second header line: confidence, entropy, agreement.
    p.setPen(pal.color(QPalette::PlaceholderText));
    const QVariant se = index_.data(ResultsModel::StderrRole);
    QString stats = tr("confidence %1%  ·  entropy %2 nats  ·  hesitation %3%")
                        .arg(index_.data(ResultsModel::ConfidenceRole).toDouble() * 100, 0, 'f', 1)
                        .arg(index_.data(ResultsModel::EntropyRole).toDouble(), 0, 'f', 3)
                        .arg(index_.data(ResultsModel::HesitationRole).toDouble() * 100, 0, 'f', 0);
    if (se.isValid()) stats += tr("  ·  ±%1 (stderr)").arg(se.toDouble() * 100, 0, 'f', 1);
    p.drawText(QPoint(kPad, kPad + fm.height() + 4 + fm.ascent()), stats);

    // Bars.
    const auto label_se = index_.data(ResultsModel::StderrLabelsRole).value<QList<double>>();
    for (int i = 0; i < mean.size(); ++i) {
        const QRect track = barRect(i);
        const int y_text = track.center().y() + fm.ascent() / 2 - 1;
        // Swatch, label and alternative.
        p.setPen(Qt::NoPen);
        p.setBrush(labelColor(i, pal));
        p.drawRoundedRect(QRectF(kPad, track.center().y() - 4, 8, 8), 2, 2);
        p.setFont(i == winner ? bold : font());
        p.setPen(pal.color(QPalette::Text));
        // A label that is its own meaning (yes/no) is written once.
        const QString name = labels.value(i) == alts.value(i)
                                 ? alts.value(i)
                                 : labels.value(i) + QStringLiteral("  ") + alts.value(i);
        const QString text = fm.elidedText(name, Qt::ElideRight, labelColumnWidth() - 18);
        p.drawText(QPoint(kPad + 14, y_text), text);
        // Track and bar.
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::AlternateBase));
        p.drawRoundedRect(track, 3, 3);
        const double value = std::clamp(mean[i], 0.0, 1.0);
        QRectF bar(track.left(), track.top(), track.width() * value, track.height());
        // The label's own colour (the draw strip's legend), the winner at full strength.
        QColor fill = labelColor(i, pal);
        if (i != winner) fill.setAlpha(150);
        p.setBrush(fill);
        if (bar.width() > 0.5) p.drawRoundedRect(bar, 3, 3);
        // Every label's error bar (its stderr over the draws).
        if (i < label_se.size()) {
            const double s = label_se[i];
            const double x0 = track.left() + track.width() * std::clamp(value - s, 0.0, 1.0);
            const double x1 = track.left() + track.width() * std::clamp(value + s, 0.0, 1.0);
            const double cy = track.center().y();
            p.setPen(QPen(pal.color(QPalette::Text), 1.5));
            p.drawLine(QPointF(x0, cy), QPointF(x1, cy));
            p.drawLine(QPointF(x0, cy - 4), QPointF(x0, cy + 4));
            p.drawLine(QPointF(x1, cy - 4), QPointF(x1, cy + 4));
        }
        // Percentage.
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QPoint(track.right() + 8, y_text),
                   QStringLiteral("%1%").arg(value * 100, 0, 'f', 1));
        if (i == winner) {
            p.setFont(bold);
        }
        p.setFont(font());
    }

    // Agreement strip.
    const auto per_read = index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>();
    if (!per_read.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QPoint(kPad, stripTop() + kMark - 1), tr("Draws"));
        for (int k = 0; k < per_read.size(); ++k) {
            const int answer_k = argmax_of(per_read[k]);
            p.setPen(answer_k == winner ? Qt::NoPen : QPen(pal.color(QPalette::Text), 1));
            p.setBrush(labelColor(answer_k, pal));
            p.drawRoundedRect(drawMarkRect(k), 2, 2);
        }
        const QRect last = drawMarkRect(int(per_read.size()) - 1);
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QPoint(last.right() + 10, stripTop() + kMark - 1),
                   tr("agreement %1% of %n draw(s)", nullptr, int(per_read.size()))
                       .arg(index_.data(ResultsModel::AgreementRole).toDouble() * 100, 0, 'f', 0));
    }
}

QString ResultCard::toolTipAt(const QPoint& pos) const {
    const QStringList labels = index_.data(ResultsModel::LabelsRole).toStringList();
    const QStringList alts = index_.data(ResultsModel::AlternativesRole).toStringList();
    const auto per_read = index_.data(ResultsModel::PerReadRole).value<QList<QList<double>>>();
    for (int k = 0; k < per_read.size(); ++k) {
        if (!drawMarkRect(k).adjusted(-1, -1, 1, 1).contains(pos)) continue;
        QStringList lines{tr("Draw %1: %2").arg(k + 1).arg(alts.value(argmax_of(per_read[k])))};
        for (int i = 0; i < per_read[k].size(); ++i)
            lines << QStringLiteral("%1 %2: %3%")
                         .arg(labels.value(i), alts.value(i))
                         .arg(per_read[k][i] * 100, 0, 'f', 1);
        return lines.join(QLatin1Char('\n'));
    }
    const QList<double> mean = means(index_);
    for (int i = 0; i < mean.size(); ++i)
        if (barRect(i).contains(pos))
            return tr("%1 (label %2): mean %3%")
                .arg(alts.value(i), labels.value(i))
                .arg(mean[i] * 100, 0, 'f', 2);
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
