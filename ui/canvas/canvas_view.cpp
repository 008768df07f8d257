// The canvas panel (see canvas_view.h).
#include "ui/canvas/canvas_view.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/token_flow.h"

namespace ui {

CanvasView::CanvasView(CanvasModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    auto* outer = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    layout_ = new QComboBox(this);
    layout_->setObjectName(QStringLiteral("layoutSwitch"));
    layout_->addItem(tr("Document first"), int(core::Layout::DocumentFirst));
    layout_->addItem(tr("Schema first"), int(core::Layout::SchemaFirst));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1 << 30);
    seed_->setValue(int(model->seed()));
    group_ = new QComboBox(this);
    draw_ = new QSpinBox(this);
    draw_->setRange(1, 32);
    draw_->setPrefix(tr("draw "));
    auto add = [&](const QString& text, QWidget* w) {
        auto* label = new QLabel(text, this);
        label->setBuddy(w);
        controls->addWidget(label);
        controls->addWidget(w);
    };
    add(tr("&Layout"), layout_);
    add(tr("S&eed"), seed_);
    add(tr("&Group"), group_);
    add(tr("&Noise"), draw_);
    controls->addStretch();
    outer->addLayout(controls);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("canvasSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(summary_);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* body = new QWidget(scroll);
    auto* body_layout = new QVBoxLayout(body);
    auto* prompt_label = new QLabel(tr("<b>Prompt</b>"), body);
    prompt_ = new TokenFlow(body);
    prompt_->setObjectName(QStringLiteral("promptFlow"));
    auto* canvas_label =
        new QLabel(tr("<b>Canvas</b> (answer slots outlined, with their labels)"), body);
    canvas_ = new TokenFlow(body);
    canvas_->setObjectName(QStringLiteral("canvasFlow"));
    slots_ = new QLabel(body);
    slots_->setWordWrap(true);
    slots_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    body_layout->addWidget(canvas_label);
    body_layout->addWidget(canvas_);
    body_layout->addWidget(slots_);
    body_layout->addSpacing(8);
    body_layout->addWidget(prompt_label);
    body_layout->addWidget(prompt_);
    body_layout->addStretch();
    scroll->setWidget(body);
    outer->addWidget(scroll, 1);
    // What the keyboard's chip is (the hover text, for those who do not hover).
    chip_details_ = new QLabel(this);
    chip_details_->setObjectName(QStringLiteral("chipDetails"));
    chip_details_->setWordWrap(true);
    chip_details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chip_details_->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(chip_details_);
    prompt_->setAccessibleName(tr("Prompt tokens"));
    canvas_->setAccessibleName(tr("Canvas tokens"));
    for (TokenFlow* flow : {canvas_, prompt_})
        connect(flow, &TokenFlow::currentChipChanged, this,
                [this, flow](int chip) { chip_details_->setText(flow->toolTipFor(chip)); });

    connect(layout_, &QComboBox::currentIndexChanged, this,
            [this] { model_->setLayout(core::Layout(layout_->currentData().toInt())); });
    connect(seed_, &QSpinBox::valueChanged, this, [this](int v) { model_->setSeed(uint64_t(v)); });
    connect(group_, &QComboBox::currentIndexChanged, this, [this](int g) {
        if (g >= 0) model_->setGroup(g);
    });
    connect(draw_, &QSpinBox::valueChanged, this, [this](int v) { model_->setDraw(v - 1); });
    connect(model_, &CanvasModel::planChanged, this, &CanvasView::refresh);
    refresh();
}

QString CanvasView::summaryText() const {
    return summary_->text();
}

void CanvasView::refresh() {
    const auto& plan = model_->plan();
    {
        const QSignalBlocker block(layout_);
        layout_->setCurrentIndex(layout_->findData(int(model_->layout())));
    }
    {
        const QSignalBlocker block(group_);
        group_->clear();
        if (plan) {
            for (size_t g = 0; g < plan->groups.size(); ++g) {
                QStringList ids;
                for (const auto& s : plan->groups[g].answer_slots)
                    ids << QString::fromStdString(s.question);
                group_->addItem(tr("%1: %2").arg(g + 1).arg(ids.join(QStringLiteral(", "))));
            }
            group_->setCurrentIndex(model_->group());
        }
        group_->setEnabled(plan && plan->groups.size() > 1);
    }
    summary_->setText(model_->summary());
    summary_->setForegroundRole(plan ? QPalette::WindowText : QPalette::PlaceholderText);
    prompt_->setChips(model_->promptChips());
    const auto chips = model_->canvasChips();
    QStringList slot_lines;
    for (const auto& c : chips)
        if (c.slot)
            slot_lines << tr("pos %1 · %2 · labels %3 · noise id %4")
                              .arg(c.position)
                              .arg(c.question, c.labels.join(QLatin1Char('|')))
                              .arg(c.id);
    slots_->setText(slot_lines.join(QLatin1Char('\n')));
    canvas_->setChips(chips);
}

}  // namespace ui
