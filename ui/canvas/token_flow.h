#pragma once
// Token chips laid out in wrapping rows: the token's text on the chip, its id and position on
// hover. Slots are outlined in the highlight colour with their label set under them; special
// tokens and padding are muted.

#include <QWidget>
#include <vector>

#include "ui/canvas/canvas_model.h"

namespace ui {

class TokenFlow : public QWidget {
    Q_OBJECT
  public:
    explicit TokenFlow(QWidget* parent = nullptr);
    void setChips(std::vector<TokenChip> chips);
    const std::vector<TokenChip>& chips() const { return chips_; }
    QRect chipRect(int index) const;
    QString toolTipFor(int index) const;
    int chipAt(const QPoint& pos) const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

  private:
    int layoutChips(int width, std::vector<QRect>* rects) const;
    std::vector<TokenChip> chips_;
    std::vector<QRect> rects_;
};

}  // namespace ui
