#pragma once
// Token chips laid out in wrapping rows: the token's text on the chip, its id and position on
// hover. Slots are outlined in the highlight colour with their label set under them; special
// tokens and padding are muted. From the keyboard: arrows move between chips (up and down by
// row), Home/End, Tab leaves; N and P jump to the next and previous answer slot; each chip is
// an accessible item a screen reader reads ("token “ticket”, position 12" / "answer slot of
// urgent: yes or no").

#include <QWidget>
#include <vector>

#include "ui/accessibility/painted_items.h"
#include "ui/canvas/canvas_model.h"

namespace ui {

class TokenFlow : public QWidget, public PaintedItems {
    Q_OBJECT
  public:
    explicit TokenFlow(QWidget* parent = nullptr);
    void setChips(std::vector<TokenChip> chips);
    const std::vector<TokenChip>& chips() const { return chips_; }
    QRect chipRect(int index) const;
    QString toolTipFor(int index) const;
    int chipAt(const QPoint& pos) const;
    // The chip the keyboard is on (-1: none).
    int currentChip() const { return current_; }
    void setCurrentChip(int index);
    QString spokenChip(int index) const;

    // PaintedItems: one accessible item per chip.
    int accessibleItemCount() const override { return int(chips_.size()); }
    QString accessibleItemText(int item, QAccessible::Text text) const override;
    QRect accessibleItemRect(int item) const override { return chipRect(item); }
    QAccessible::Role accessibleItemRole(int) const override { return QAccessible::ListItem; }
    bool accessibleItemFocused(int item) const override { return hasFocus() && item == current_; }
    QAccessible::Role accessibleRole() const override { return QAccessible::List; }

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

  Q_SIGNALS:
    void currentChipChanged(int index);

  protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

  private:
    int layoutChips(int width, std::vector<QRect>* rects) const;
    std::vector<TokenChip> chips_;
    std::vector<QRect> rects_;
    int current_ = -1;
};

}  // namespace ui
