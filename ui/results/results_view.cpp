// The results panel (see results_view.h).
#include "ui/results/results_view.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/decide/read_stats.h"
#include "core/wire/decision_json.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"

namespace ui {

ResultsView::ResultsView(ResultsModel* model, HistoryModel* history, QWidget* parent)
    : QWidget(parent), model_(model), history_(history) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);

    auto* top = new QHBoxLayout;
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("runStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(180);
    progress_->setTextVisible(false);
    progress_->hide();
    copy_ = new QPushButton(tr("&Copy as JSON"), this);
    copy_->setEnabled(false);
    top->addWidget(status_, 1);
    top->addWidget(progress_);
    top->addWidget(copy_);
    outer->addLayout(top);

    // The cards take the room; the timings and the (collapsible) history sit below them.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("cardsScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // cards wrap, never scroll
    auto* holder = new QWidget(scroll);
    cards_layout_ = new QVBoxLayout(holder);
    placeholder_ =
        new QLabel(tr("Run the policy (Ctrl+Return) to see one card per question."), holder);
    placeholder_->setForegroundRole(QPalette::PlaceholderText);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    thought_toggle_ = new QToolButton(holder);
    thought_toggle_->setObjectName(QStringLiteral("thoughtToggle"));
    thought_toggle_->setCheckable(true);
    thought_toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    thought_toggle_->setArrowType(Qt::RightArrow);
    thought_toggle_->setAutoRaise(true);
    thought_text_ = new QPlainTextEdit(holder);
    thought_text_->setObjectName(QStringLiteral("thoughtText"));
    thought_text_->setReadOnly(true);
    thought_text_->setMaximumHeight(160);
    thought_text_->setAccessibleName(tr("Thought"));
    thought_text_->hide();
    thought_toggle_->hide();
    connect(thought_toggle_, &QToolButton::toggled, this, [this](bool open) {
        thought_toggle_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        thought_text_->setVisible(open);
    });
    cards_layout_->addWidget(thought_toggle_);
    cards_layout_->addWidget(thought_text_);
    cards_layout_->addWidget(placeholder_);
    cards_layout_->addStretch();
    scroll->setWidget(holder);
    outer->addWidget(scroll, 1);

    timings_ = new QLabel(this);
    timings_->setObjectName(QStringLiteral("timings"));
    timings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    timings_->setWordWrap(true);
    outer->addWidget(timings_);
    history_toggle_ = new QToolButton(this);
    history_toggle_->setObjectName(QStringLiteral("historyToggle"));
    history_toggle_->setCheckable(true);
    history_toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    history_toggle_->setArrowType(Qt::RightArrow);
    history_toggle_->setAutoRaise(true);
    history_toggle_->setToolTip(tr("Show or hide the last runs (Alt+H)"));
    history_view_ = new QListView(this);
    history_view_->setObjectName(QStringLiteral("historyList"));
    history_view_->setModel(history_);
    history_view_->setUniformItemSizes(true);
    history_view_->setAccessibleName(tr("History"));
    history_view_->setMaximumHeight(history_view_->fontMetrics().height() * 8);
    history_view_->hide();
    outer->addWidget(history_toggle_);
    outer->addWidget(history_view_);
    connect(history_toggle_, &QToolButton::toggled, this, &ResultsView::setHistoryOpen);
    auto count_history = [this] {
        history_toggle_->setText(tr("&History (%1)").arg(history_->rowCount()));
    };
    connect(history_, &QAbstractItemModel::rowsInserted, this, count_history);
    connect(history_, &QAbstractItemModel::rowsRemoved, this, count_history);
    connect(history_, &QAbstractItemModel::modelReset, this, count_history);
    count_history();

    connect(copy_, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(decisionJson()); });
    connect(model_, &QAbstractItemModel::modelReset, this, &ResultsView::rebuild);
    connect(history_view_, &QListView::activated, this,
            [this](const QModelIndex& index) { Q_EMIT historySelected(index.row()); });
    connect(history_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& index) {
                if (index.isValid()) Q_EMIT historySelected(index.row());
            });
    rebuild();
}

QList<ResultCard*> ResultsView::cards() const {
    return findChildren<ResultCard*>();
}

void ResultsView::setHistoryOpen(bool open) {
    if (history_toggle_->isChecked() != open) history_toggle_->setChecked(open);
    history_toggle_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    history_view_->setVisible(open);
}

bool ResultsView::historyOpen() const {
    return history_toggle_->isChecked();
}

QString ResultsView::timingsText() const {
    return timings_->text();
}

QString ResultsView::decisionJson() const {
    if (!model_->hasDecision()) return {};
    nlohmann::json body = core::decision_json(model_->decision(), core::AnswerForm::Chat);
    return QString::fromStdString(body.dump(2));
}

void ResultsView::rebuild() {
    for (ResultCard* card : cards()) {
        cards_layout_->removeWidget(card);
        delete card;
    }
    const int rows = model_->rowCount();
    // Cards go after the thought toggle and its text (layout items 0 and 1).
    for (int r = 0; r < rows; ++r)
        cards_layout_->insertWidget(
            2 + r, new ResultCard(model_->index(r), cards_layout_->parentWidget()));
    const bool thought = model_->hasDecision() && model_->decision().thought.has_value();
    thought_toggle_->setVisible(thought);
    thought_text_->setVisible(thought && thought_toggle_->isChecked());
    if (thought) {
        const core::Thought& t = *model_->decision().thought;
        thought_toggle_->setText(
            t.closed ? tr("Thought (%n token(s))", nullptr, t.tokens)
                     : tr("Thought (%n token(s), budget used up)", nullptr, t.tokens));
        thought_text_->setPlainText(QString::fromStdString(t.text));
    } else {
        thought_text_->clear();
    }
    placeholder_->setVisible(rows == 0);
    copy_->setEnabled(model_->hasDecision());
    if (model_->hasDecision()) {
        const core::Decision& d = model_->decision();
        const core::Timings& t = d.timings;
        QString text =
            tr("Encode %1 · decode %2 · readout %3")
                .arg(formatMs(t.encode_ms), formatMs(t.decode_ms), formatMs(t.readout_ms));
        if (t.network_ms > 0) text += tr(" · network %1").arg(formatMs(t.network_ms));
        // A prefix-cache hit (local engine, or a server's usage) explains a fast encode.
        const QString prompt = d.cached_prompt_tokens > 0
                                   ? tr("%1 prompt tokens (%2 cached)")
                                         .arg(d.prompt_tokens)
                                         .arg(d.cached_prompt_tokens)
                                   : tr("%1 prompt tokens").arg(d.prompt_tokens);
        text += tr(" · total %1  —  %2 read(s) × %3 sample(s), %4, %5")
                    .arg(formatMs(t.total_ms))
                    .arg(d.reads)
                    .arg(d.samples)
                    .arg(prompt, QString::fromStdString(d.backend));
        if (!d.stages.empty()) {
            QStringList stages;
            for (size_t i = 0; i < d.stages.size(); ++i) {
                QStringList ids;
                for (const auto& id : d.stages[i]) ids << QString::fromStdString(id);
                stages << tr("%1: %2").arg(i + 1).arg(ids.join(QStringLiteral(", ")));
            }
            text += tr("  —  %n stage(s), %1 decoder passes: ", nullptr, int(d.stages.size()))
                        .arg(d.passes) +
                    stages.join(QStringLiteral("; "));
        }
        timings_->setText(text);
    } else {
        timings_->clear();
    }
}

void ResultsView::showProgress(const QString& stage, double fraction) {
    status_->setForegroundRole(QPalette::WindowText);
    status_->setText(stage.isEmpty() ? tr("Running…") : stage + QStringLiteral("…"));
    progress_->show();
    if (fraction < 0) {
        progress_->setRange(0, 0);  // busy indicator
    } else {
        progress_->setRange(0, 1000);
        progress_->setValue(int(fraction * 1000));
    }
}

void ResultsView::showError(const QString& message) {
    progress_->hide();
    QPalette p = status_->palette();
    const bool dark = p.color(QPalette::Window).lightness() < 128;
    p.setColor(QPalette::WindowText, dark ? QColor(0xff, 0x8a, 0x8a) : QColor(0xb0, 0x00, 0x20));
    status_->setPalette(p);
    status_->setText(QStringLiteral("⚠ ") + message);
}

void ResultsView::clearStatus() {
    progress_->hide();
    status_->setPalette(palette());
    status_->clear();
}

}  // namespace ui
