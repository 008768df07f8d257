#pragma once
// One question's result, painted from its ResultsModel row: horizontal probability bars with
// every label's stderr error bar (the winner in bold), a hesitation badge, confidence and
// entropy, and the noise-draw agreement strip (one mark per draw coloured by that draw's answer;
// hover shows its probabilities). Colours derive from the palette, so light and dark themes both
// work; a label's legend swatch, its bar and its draw marks share one colour.
//
// The card lays itself out for its width (layoutFor): header items and statistics flow onto
// more lines, and labels too long for a column go above their bars, so nothing is clipped at
// any width; the height follows (heightForWidth). Tests read the same layout to check that.
//
// A wide question (up to 255 options) shows its five likeliest options and folds the rest into
// "and N more", which opens a searchable list of every option (WideOptionsDialog).

#include <QPersistentModelIndex>
#include <QWidget>

#include "ui/accessibility/painted_items.h"

namespace ui {

class ResultCard : public QWidget, public PaintedItems {
    Q_OBJECT
  public:
    // One painted element and where it goes.
    struct Part {
        enum Kind {
            Title,       // the question id
            Answer,      // "→ winner" (or "→ skipped")
            Badge,       // the hesitation class
            Stats,       // one line of confidence, entropy, hesitation, stderr
            Reason,      // why an ask_if skipped the question
            Escalation,  // what the stage-2 cascade did (bold when stage 2's answer stands)
            Swatch,      // a label's colour (the legend)
            Label,       // a label and its meaning
            Track,       // a label's bar track; the bar fills it by the label's mean
            ErrorBar,    // the label's mean ± its stderr, inside the track
            Value,       // the label's percentage
            DrawsLabel,  // "Draws"
            Mark,        // one noise draw, coloured by its answer
            Agreement,   // "agreement 75% of 4 draws"
            More,        // "and 72 more…": a wide question's folded options (click: the list)
        };
        Kind kind;
        QRect rect;
        QString text;    // what is drawn, for the text kinds
        int index = -1;  // the label (Swatch, Label, Track, ErrorBar, Value) or draw (Mark)
        bool bold = false;
    };
    struct Layout {
        QList<Part> parts;
        int height = 0;
    };

    ResultCard(const QModelIndex& index, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QModelIndex index() const { return index_; }

    // The layout at a width, and at the card's current width.
    Layout layoutFor(int width) const;
    QList<Part> parts() const { return layoutFor(width()).parts; }
    QRect barRect(int label) const;      // the full track of a label's bar
    QRect drawMarkRect(int draw) const;  // one agreement mark
    QString toolTipAt(const QPoint& pos) const;
    // The labels with bars: every label, or for a wide question (more than kFoldAbove
    // alternatives) the kTopOptions likeliest, likeliest first; the rest fold into "more".
    QList<int> shownLabels() const;
    static constexpr int kTopOptions = 5;
    static constexpr int kFoldAbove = 12;
    // Opens the searchable list of every option (the "more" link; Enter on the card too).
    void showAllOptions();
    // The category colour of a label (used by bars' swatches, the bars and the strip).
    static QColor labelColor(int label, const QPalette& palette);

    // What a screen reader says: "urgent: no, 91.8 percent, somewhat unsure", and every label.
    QString spokenSummary() const;
    QString spokenDetails() const;
    QString spokenLabel(int label) const;  // "billing, 5.3 percent, plus or minus 2.1"

    // PaintedItems: one accessible progress bar per label.
    int accessibleItemCount() const override;
    QString accessibleItemText(int label, QAccessible::Text text) const override;
    QRect accessibleItemRect(int label) const override;
    QAccessible::Role accessibleItemRole(int label) const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    // layoutFor's parts, each placing its items below the previous ones.
    struct LayoutContext;
    void layoutHeader(LayoutContext& c, const QString& skipped) const;
    void layoutStatistics(LayoutContext& c) const;
    void layoutBars(LayoutContext& c) const;
    void layoutDraws(LayoutContext& c) const;

    QRect partRect(Part::Kind kind, int index) const;
    QPersistentModelIndex index_;
};

}  // namespace ui
