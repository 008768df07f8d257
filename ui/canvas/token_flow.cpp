// Token chips (see token_flow.h).
#include "ui/canvas/token_flow.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <climits>
#include <cstdlib>

namespace ui {
namespace {
constexpr int kGap = 3;
constexpr int kPadX = 4;
}  // namespace

TokenFlow::TokenFlow(QWidget* parent) : QWidget(parent) {
    installPaintedItemsAccessibility();
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
}

void TokenFlow::setChips(std::vector<TokenChip> chips) {
    chips_ = std::move(chips);
    if (current_ >= int(chips_.size())) current_ = chips_.empty() ? -1 : 0;
    layoutChips(width(), &rects_);
    updateGeometry();
    update();
}

int TokenFlow::layoutChips(int width, std::vector<QRect>* rects) const {
    const QFontMetrics fm = fontMetrics();
    const int chip_h = fm.height() + 4;
    const int slot_extra = fm.height();  // label set line under slot chips
    int x = 0, y = 0, row_h = chip_h;
    if (rects) rects->clear();
    for (const auto& chip : chips_) {
        const int w = std::max(
            fm.horizontalAdvance(chip.text) + 2 * kPadX,
            chip.slot ? fm.horizontalAdvance(chip.labels.join(QLatin1Char('|'))) + 2 * kPadX : 0);
        const int w_clamped = std::min(w, std::max(20, width));
        if (x > 0 && x + w_clamped > width) {
            x = 0;
            y += row_h + kGap;
            row_h = chip_h;
        }
        if (chip.slot) row_h = chip_h + slot_extra;
        if (rects) rects->push_back(QRect(x, y, w_clamped, chip_h));
        x += w_clamped + kGap;
    }
    return chips_.empty() ? chip_h : y + row_h;
}

QRect TokenFlow::chipRect(int index) const {
    return index >= 0 && index < int(rects_.size()) ? rects_[size_t(index)] : QRect();
}

int TokenFlow::heightForWidth(int width) const {
    return layoutChips(width, nullptr) + 2;
}
QSize TokenFlow::sizeHint() const {
    return {400, heightForWidth(std::max(200, width()))};
}

void TokenFlow::resizeEvent(QResizeEvent* event) {
    layoutChips(width(), &rects_);
    QWidget::resizeEvent(event);
}

void TokenFlow::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QFontMetrics fm = fontMetrics();
    QColor chip_bg = pal.color(QPalette::AlternateBase);
    QColor special_bg = pal.color(QPalette::Button);
    for (size_t i = 0; i < chips_.size() && i < rects_.size(); ++i) {
        const TokenChip& c = chips_[i];
        const QRectF r = QRectF(rects_[i]).adjusted(0.5, 0.5, -0.5, -0.5);
        if (c.image) {
            QColor fill = pal.color(QPalette::Link);
            fill.setAlpha(50);
            p.setBrush(fill);
            p.setPen(QPen(pal.color(QPalette::Link), 1.5, Qt::DashLine));
        } else if (c.slot) {
            QColor fill = pal.color(QPalette::Highlight);
            fill.setAlpha(60);
            p.setBrush(fill);
            p.setPen(QPen(pal.color(QPalette::Highlight), 2));
        } else {
            p.setBrush(c.special || c.padding ? special_bg : chip_bg);
            p.setPen(QPen(pal.color(QPalette::Mid), 1));
        }
        p.drawRoundedRect(r, 3, 3);
        if (int(i) == current_ && hasFocus()) {  // the keyboard's chip
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(pal.color(QPalette::Highlight), 2, Qt::DotLine));
            p.drawRoundedRect(r.adjusted(-1.5, -1.5, 1.5, 1.5), 4, 4);
        }
        p.setPen(c.padding || c.special ? pal.color(QPalette::PlaceholderText)
                                        : pal.color(QPalette::Text));
        p.drawText(r, Qt::AlignCenter, c.text);
        if (c.slot) {
            p.setPen(pal.color(QPalette::Highlight));
            QFont small = font();
            small.setPointSizeF(small.pointSizeF() * 0.85);
            p.setFont(small);
            p.drawText(
                QRectF(r.left(), r.bottom() + 1, std::max<qreal>(r.width(), 10), fm.height()),
                Qt::AlignLeft | Qt::AlignTop, c.labels.join(QLatin1Char('|')));
            p.setFont(font());
        }
    }
}

QString TokenFlow::toolTipFor(int index) const {
    if (index < 0 || index >= int(chips_.size())) return {};
    const TokenChip& c = chips_[size_t(index)];
    if (c.image)
        return c.image_tokens > 0
                   ? tr("%1\n%n soft token(s) the vision tower reads from it, at position %2",
                        nullptr, c.image_tokens)
                         .arg(c.question)
                         .arg(c.position)
                   : tr("%1\nsent as a data: URI; the model that reads it places its soft tokens "
                        "here")
                         .arg(c.question);
    QString text = tr("position %1 · id %2 · “%3”").arg(c.position).arg(c.id).arg(c.text);
    if (c.slot) {
        QStringList labels;
        for (int i = 0; i < c.labels.size(); ++i)
            labels << QStringLiteral("%1 (id %2)").arg(c.labels[i]).arg(c.label_ids.value(i));
        text += tr("\nanswer slot of “%1”: %2\nthis draw's noise token is id %3")
                    .arg(c.question, labels.join(QStringLiteral(", ")))
                    .arg(c.id);
    }
    return text;
}

QString TokenFlow::spokenChip(int index) const {
    if (index < 0 || index >= int(chips_.size())) return {};
    const TokenChip& c = chips_[size_t(index)];
    if (c.image) return c.text + QStringLiteral(", ") + c.question;
    if (c.slot)
        return tr("answer slot of %1: %2")
            .arg(c.question, c.labels.join(tr(" or ", "between the labels of a slot")));
    if (c.padding) return tr("padding, position %1").arg(c.position);
    if (c.special) return tr("special token %1, position %2").arg(c.text).arg(c.position);
    return tr("token “%1”, position %2").arg(c.text).arg(c.position);
}

QString TokenFlow::accessibleItemText(int item, QAccessible::Text text) const {
    if (text == QAccessible::Name) return spokenChip(item);
    if (text == QAccessible::Description) return toolTipFor(item);
    return {};
}

void TokenFlow::setCurrentChip(int index) {
    if (chips_.empty()) index = -1;
    index = std::clamp(index, chips_.empty() ? -1 : 0, int(chips_.size()) - 1);
    if (index == current_) return;
    current_ = index;
    update();
    if (current_ >= 0) notifyPaintedItemFocus(this, current_);
    Q_EMIT currentChipChanged(current_);
}

void TokenFlow::keyPressEvent(QKeyEvent* event) {
    if (chips_.empty()) return QWidget::keyPressEvent(event);
    const int n = int(chips_.size());
    const int at = std::max(current_, 0);
    // The chip in the row above or below nearest to the current one's centre.
    auto vertical = [&](int direction) {
        const QRect here = chipRect(at);
        int best = at, best_distance = INT_MAX;
        for (int i = 0; i < n; ++i) {
            const QRect r = chipRect(i);
            if (direction > 0 ? r.top() <= here.top() : r.top() >= here.top()) continue;
            const int rows = std::abs(r.top() - here.top());
            const int distance = rows * 10000 + std::abs(r.center().x() - here.center().x());
            if (distance < best_distance) best = i, best_distance = distance;
        }
        return best;
    };
    auto slot_from = [&](int direction) {
        for (int i = at + direction; i >= 0 && i < n; i += direction)
            if (chips_[size_t(i)].slot) return i;
        return at;
    };
    switch (event->key()) {
        case Qt::Key_Right:
            setCurrentChip(at + 1);
            break;
        case Qt::Key_Left:
            setCurrentChip(at - 1);
            break;
        case Qt::Key_Down:
            setCurrentChip(vertical(1));
            break;
        case Qt::Key_Up:
            setCurrentChip(vertical(-1));
            break;
        case Qt::Key_Home:
            setCurrentChip(0);
            break;
        case Qt::Key_End:
            setCurrentChip(n - 1);
            break;
        case Qt::Key_N:
            setCurrentChip(slot_from(1));
            break;
        case Qt::Key_P:
            setCurrentChip(slot_from(-1));
            break;
        default:
            return QWidget::keyPressEvent(event);
    }
    event->accept();
}

void TokenFlow::focusInEvent(QFocusEvent* event) {
    if (current_ < 0 && !chips_.empty()) setCurrentChip(0);
    update();
    QWidget::focusInEvent(event);
}

void TokenFlow::focusOutEvent(QFocusEvent* event) {
    update();
    QWidget::focusOutEvent(event);
}

void TokenFlow::mousePressEvent(QMouseEvent* event) {
    const int chip = chipAt(event->position().toPoint());
    if (chip >= 0) setCurrentChip(chip);
    QWidget::mousePressEvent(event);
}

int TokenFlow::chipAt(const QPoint& pos) const {
    for (size_t i = 0; i < rects_.size(); ++i)
        if (rects_[i].contains(pos)) return int(i);
    return -1;
}

bool TokenFlow::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipFor(chipAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace ui
