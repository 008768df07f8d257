#pragma once
// One question's result, painted from its ResultsModel row: horizontal probability bars (the
// winner marked, a stderr error bar on it), a hesitation badge, confidence and entropy, and the
// noise-draw agreement strip (one mark per draw coloured by that draw's answer; hover shows its
// probabilities). Colours derive from the palette, so light and dark themes both work.

#include <QPersistentModelIndex>
#include <QWidget>

namespace ui {

class ResultCard : public QWidget {
    Q_OBJECT
  public:
    ResultCard(const QModelIndex& index, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    QModelIndex index() const { return index_; }

    // Geometry of what is painted, for hover text and tests.
    QRect barRect(int label) const;      // the full track of a label's bar
    QRect drawMarkRect(int draw) const;  // one agreement mark
    QString toolTipAt(const QPoint& pos) const;
    // The category colour of a label (used by bars' swatches and the strip).
    static QColor labelColor(int label, const QPalette& palette);

  protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

  private:
    int rowHeight() const;
    int headerHeight() const;
    int barsTop() const;
    int stripTop() const;
    int labelColumnWidth() const;
    QPersistentModelIndex index_;
};

}  // namespace ui
