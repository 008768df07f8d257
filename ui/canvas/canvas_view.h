#pragma once
// The canvas panel: layout switch, seed, read group and noise draw; the prompt and the canvas
// as token chips with the answer slots and their label sets; widths and token counts.

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace ui {

class CanvasModel;
class TokenFlow;

class CanvasView : public QWidget {
    Q_OBJECT
  public:
    explicit CanvasView(CanvasModel* model, QWidget* parent = nullptr);
    TokenFlow* promptFlow() const { return prompt_; }
    TokenFlow* canvasFlow() const { return canvas_; }
    QLabel* chipDetails() const { return chip_details_; }
    QComboBox* layoutSwitch() const { return layout_; }
    QString summaryText() const;

  private:
    void refresh();

    CanvasModel* model_;
    QComboBox* layout_;
    QSpinBox* seed_;
    QComboBox* group_;
    QSpinBox* draw_;
    QLabel* summary_;
    QLabel* slots_;
    QLabel* chip_details_;
    TokenFlow* prompt_;
    TokenFlow* canvas_;
};

}  // namespace ui
