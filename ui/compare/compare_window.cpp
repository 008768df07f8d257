// The Compare view (see compare_window.h).
#include "ui/compare/compare_window.h"

#include <QAction>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/endpoints/backend_runner.h"
#include "ui/compare/compare_model.h"
#include "ui/compare/compare_runner.h"
#include "ui/i18n/format.h"
#include "ui/reports/export_report_dialog.h"
#include "ui/results/result_card.h"
#include "ui/results/results_model.h"

namespace ui {

namespace {

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

bool darkPalette(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < 128;
}

QColor errorColor(const QPalette& p) {
    return darkPalette(p) ? QColor(0xff, 0x8a, 0x8a) : QColor(0xb0, 0x00, 0x20);
}

QColor goodColor(const QPalette& p) {
    return darkPalette(p) ? QColor(0x6c, 0xd6, 0x8c) : QColor(0x1e, 0x7e, 0x45);
}

// One mark per denoising pass the generation has reported, the newest highlighted: the passes
// pile up while the slot side's single pass is long done.
class PassStrip : public QWidget {
    Q_DECLARE_TR_FUNCTIONS(ui::PassStrip)  // no Q_OBJECT: its texts' context by name

  public:
    PassStrip(GenerationStepsModel* steps, QWidget* parent) : QWidget(parent), steps_(steps) {
        setObjectName(QStringLiteral("passStrip"));
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        connect(steps_, &QAbstractItemModel::modelReset, this, [this] { update(); });
        connect(steps_, &QAbstractItemModel::rowsInserted, this, [this] { update(); });
        connect(steps_, &QAbstractItemModel::dataChanged, this, [this] { update(); });
    }
    QSize sizeHint() const override { return {300, fontMetrics().height() + 10}; }
    QSize minimumSizeHint() const override { return {120, sizeHint().height()}; }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QPalette pal = palette();
        const QFontMetrics fm = fontMetrics();
        const int passes = steps_->passes();
        const QString caption = tr("%n pass(es)", nullptr, passes);
        const int text_w = fm.horizontalAdvance(tr("%n pass(es)", nullptr, 999)) + 8;
        const int avail = std::max(10, width() - text_w);
        const int h = height() - 6;
        p.setPen(Qt::NoPen);
        p.setBrush(pal.color(QPalette::AlternateBase));
        p.drawRoundedRect(QRectF(0, 3, avail, h), 3, 3);
        if (passes > 0) {
            const double cell = std::min(14.0, static_cast<double>(avail) / passes);
            const double gap = cell >= 6 ? 2 : 0;
            QColor done = pal.color(QPalette::Highlight);
            done.setAlpha(150);
            int k = 0;
            for (int r = 0; r < steps_->rowCount(); ++r) {
                const auto* s = steps_->step(r);
                if (!s || s->pass == 0) continue;
                p.setBrush(s->pass == passes ? pal.color(QPalette::Highlight) : done);
                p.drawRoundedRect(QRectF(k * cell + gap / 2, 3, cell - gap, h), 2, 2);
                ++k;
            }
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(avail + 8, 0, text_w, height()), Qt::AlignVCenter | Qt::AlignLeft,
                   caption);
    }

  private:
    GenerationStepsModel* steps_;
};

// A strip tile: a small caption above a value.
QLabel* addTile(QGridLayout* grid, int column, const QString& caption, const QString& name,
                QWidget* parent) {
    auto* cap = new QLabel(caption, parent);
    cap->setForegroundRole(QPalette::PlaceholderText);
    auto* value = new QLabel(QStringLiteral("—"), parent);
    value->setObjectName(name);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.25);
    f.setBold(true);
    value->setFont(f);
    grid->addWidget(cap, 0, column);
    grid->addWidget(value, 1, column, Qt::AlignTop);
    grid->setColumnStretch(column, 1);
    return value;
}

}  // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent),
      model_(new CompareModel(this)),
      slot_model_(new ResultsModel(this)),
      steps_(new GenerationStepsModel(this)),
      runner_(new CompareRunner(this)) {
    setObjectName(QStringLiteral("compareWindow"));
    setWindowTitle(tr("Compare — Decision Studio"));
    buildLayout();
    connect(runner_, &CompareRunner::slotDecided, this, &CompareWindow::onSlotDecided);
    connect(runner_, &CompareRunner::slotFailed, this, &CompareWindow::onSlotFailed);
    connect(runner_, &CompareRunner::generationStarted, this, [this] {
        steps_->start();
        gen_stage_->setText(tr("Waiting for the first pass…"));
        showStatus(tr("Generative JSON"), -1);
    });
    connect(runner_, &CompareRunner::progress, this,
            [this](CompareRunner::Side side, const QString& stage, double f, const QString& d) {
                onProgress(side == CompareRunner::Side::Slot ? 0 : 1, stage, f, d);
            });
    connect(runner_, &CompareRunner::finished, this, &CompareWindow::onFinished);
    connect(runner_, &CompareRunner::busyChanged, this, [this](bool busy) {
        cancel_->setEnabled(busy);
        rerun_->setEnabled(!busy);
        updateExport();
        Q_EMIT busyChanged(busy);
    });
    connect(slot_model_, &QAbstractItemModel::modelReset, this, &CompareWindow::rebuildCards);
    connect(steps_, &GenerationStepsModel::textChanged, this, [this](const QString& text) {
        if (!runner_->busy()) return;  // the final reply replaces the stream
        raw_->setPlainText(text);
        raw_->verticalScrollBar()->setValue(raw_->verticalScrollBar()->maximum());
    });
    connect(steps_, &QAbstractItemModel::rowsInserted, steps_view_, &QListView::scrollToBottom);
    resetView();
}

CompareWindow::~CompareWindow() {
    runner_->cancel();
}

void CompareWindow::buildLayout() {
    auto* outer = new QVBoxLayout(this);
    outer->addLayout(buildHeader());
    auto* status_row = new QHBoxLayout;
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("compareStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(220);
    progress_->setTextVisible(false);
    progress_->hide();
    status_row->addWidget(status_, 1);
    status_row->addWidget(progress_);
    outer->addLayout(status_row);

    outer->addWidget(buildStrip());

    split_ = new QSplitter(Qt::Horizontal, this);
    split_->setObjectName(QStringLiteral("compareSplitter"));
    split_->setChildrenCollapsible(false);

    QWidget* left = buildSlotSide();
    QWidget* right = buildGenerativeSide();
    split_->addWidget(left);
    split_->addWidget(right);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 1);
    outer->addWidget(split_, 1);

    connect(rerun_, &QPushButton::clicked, this, &CompareWindow::rerunRequested);
    connect(cancel_, &QPushButton::clicked, this, &CompareWindow::cancel);
}

QHBoxLayout* CompareWindow::buildHeader() {
    // Header: what is compared, where; Run again and Cancel.
    auto* header = new QHBoxLayout;
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("compareTitle"));
    title_->setTextFormat(Qt::RichText);
    title_->setWordWrap(true);
    rerun_ = new QPushButton(tr("Run &again"), this);
    rerun_->setToolTip(tr("Compare the policy in the editor again (Ctrl+Shift+Return)"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->setEnabled(false);
    // Export report…: an action of the window (Ctrl+Shift+E) and a button for it.
    export_report_ = new QAction(tr("Export re&port…"), this);
    export_report_->setObjectName(QStringLiteral("exportReportAction"));
    export_report_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    export_report_->setShortcutContext(Qt::WindowShortcut);
    export_report_->setToolTip(
        tr("This comparison as a report: HTML, PDF, CSV or JSON, with a preview (Ctrl+Shift+E)"));
    export_report_->setEnabled(false);
    addAction(export_report_);
    connect(export_report_, &QAction::triggered, this, [this] { exportReport(); });
    export_button_ = new QPushButton(tr("Export report…"), this);
    export_button_->setObjectName(QStringLiteral("exportReportButton"));
    export_button_->setToolTip(export_report_->toolTip());
    export_button_->setEnabled(false);
    connect(export_button_, &QPushButton::clicked, export_report_, &QAction::trigger);
    header->addWidget(title_, 1);
    header->addWidget(rerun_);
    header->addWidget(cancel_);
    header->addWidget(export_button_);
    return header;
}

QFrame* CompareWindow::buildStrip() {
    // The strip above both sides.
    auto* strip = new QFrame(this);
    strip->setObjectName(QStringLiteral("compareStrip"));
    strip->setFrameShape(QFrame::StyledPanel);
    strip->setAutoFillBackground(true);
    strip->setBackgroundRole(QPalette::Base);
    auto* grid = new QGridLayout(strip);
    grid->setHorizontalSpacing(24);
    passes_ =
        addTile(grid, 0, tr("Passes (slot vs generative)"), QStringLiteral("stripPasses"), strip);
    latency_ = addTile(grid, 1, tr("Latency"), QStringLiteral("stripLatency"), strip);
    ratio_ = addTile(grid, 2, tr("Generative / slot time"), QStringLiteral("stripRatio"), strip);
    agreement_ = addTile(grid, 3, tr("Agreement"), QStringLiteral("stripAgreement"), strip);
    validity_tile_ =
        addTile(grid, 4, tr("Generative reply"), QStringLiteral("stripValidity"), strip);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(4, 2);
    return strip;
}

QWidget* CompareWindow::buildSlotSide() {
    // Left: the slot readout's cards.
    auto* left = new QGroupBox(tr("Slot readout"), split_);
    auto* left_layout = new QVBoxLayout(left);
    slot_header_ = new QLabel(left);
    slot_header_->setObjectName(QStringLiteral("slotHeader"));
    slot_header_->setWordWrap(true);
    slot_error_ = new QLabel(left);
    slot_error_->setObjectName(QStringLiteral("slotError"));
    slot_error_->setWordWrap(true);
    slot_error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    slot_error_->hide();
    auto* scroll = new QScrollArea(left);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* holder = new QWidget(scroll);
    cards_layout_ = new QVBoxLayout(holder);
    cards_layout_->setContentsMargins(0, 0, 4, 0);
    cards_placeholder_ = new QLabel(holder);
    cards_placeholder_->setForegroundRole(QPalette::PlaceholderText);
    cards_placeholder_->setAlignment(Qt::AlignCenter);
    cards_placeholder_->setWordWrap(true);
    cards_layout_->addWidget(cards_placeholder_);
    cards_layout_->addStretch();
    scroll->setWidget(holder);
    slot_timings_ = new QLabel(left);
    slot_timings_->setObjectName(QStringLiteral("slotTimings"));
    slot_timings_->setWordWrap(true);
    slot_timings_->setForegroundRole(QPalette::PlaceholderText);
    slot_timings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    left_layout->addWidget(slot_header_);
    left_layout->addWidget(slot_error_);
    left_layout->addWidget(scroll, 1);
    left_layout->addWidget(slot_timings_);

    return left;
}

QWidget* CompareWindow::buildGenerativeSide() {
    // Right: the generation as it streams, then the reply, its validity and the answers.
    auto* right = new QGroupBox(tr("Generative JSON"), split_);
    auto* right_layout = new QVBoxLayout(right);
    gen_header_ = new QLabel(right);
    gen_header_->setObjectName(QStringLiteral("generativeHeader"));
    gen_header_->setWordWrap(true);
    pass_strip_ = new PassStrip(steps_, right);
    gen_stage_ = new QLabel(right);
    gen_stage_->setObjectName(QStringLiteral("generativeStage"));
    gen_stage_->setForegroundRole(QPalette::PlaceholderText);
    steps_view_ = new QListView(right);
    steps_view_->setObjectName(QStringLiteral("generationSteps"));
    steps_view_->setModel(steps_);
    steps_view_->setUniformItemSizes(true);
    steps_view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    steps_view_->setMaximumHeight(steps_view_->fontMetrics().height() * 5 + 10);
    gen_error_ = new QLabel(right);
    gen_error_->setObjectName(QStringLiteral("generativeError"));
    gen_error_->setWordWrap(true);
    gen_error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    gen_error_->hide();
    auto* raw_label = new QLabel(tr("&Raw reply"), right);
    raw_ = new QPlainTextEdit(right);
    raw_->setObjectName(QStringLiteral("rawReply"));
    raw_->setReadOnly(true);
    raw_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    raw_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    raw_->setMinimumHeight(raw_->fontMetrics().height() * 3 + 12);
    raw_label->setBuddy(raw_);
    validity_ = new QLabel(right);
    validity_->setObjectName(QStringLiteral("validity"));
    validity_->setWordWrap(true);
    validity_->setTextFormat(Qt::RichText);
    validity_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* answers_label = new QLabel(tr("&Answers, side by side"), right);
    answers_ = new QTableView(right);
    answers_->setObjectName(QStringLiteral("compareAnswers"));
    answers_->setModel(model_);
    answers_->setSelectionBehavior(QAbstractItemView::SelectRows);
    answers_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    answers_->verticalHeader()->hide();
    answers_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    answers_->horizontalHeader()->setStretchLastSection(true);
    answers_label->setBuddy(answers_);
    right_layout->addWidget(gen_header_);
    right_layout->addWidget(pass_strip_);
    right_layout->addWidget(gen_stage_);
    right_layout->addWidget(steps_view_);
    right_layout->addWidget(gen_error_);
    right_layout->addWidget(raw_label);
    right_layout->addWidget(raw_, 1);
    right_layout->addWidget(validity_);
    right_layout->addWidget(answers_label);
    right_layout->addWidget(answers_, 1);

    return right;
}

bool CompareWindow::busy() const {
    return runner_->busy();
}

QList<ResultCard*> CompareWindow::cards() const {
    return findChildren<ResultCard*>();
}

void CompareWindow::rebuildCards() {
    for (ResultCard* card : cards()) {
        cards_layout_->removeWidget(card);
        delete card;
    }
    const int rows = slot_model_->rowCount();
    for (int r = 0; r < rows; ++r)
        cards_layout_->insertWidget(
            r, new ResultCard(slot_model_->index(r), cards_layout_->parentWidget()));
    cards_placeholder_->setVisible(rows == 0);
}

void CompareWindow::resetView() {
    model_->clear();
    shown_source_.reset();
    slot_model_->clear();
    steps_->clear();
    cards_placeholder_->setText(
        tr("Compare (Ctrl+Shift+Return) answers the policy in the editor both ways: the slot "
           "readout's cards show here."));
    slot_header_->setText(tr("One seeded forward pass reads every answer's probabilities."));
    slot_error_->hide();
    slot_timings_->clear();
    gen_header_->setText(
        tr("The same questions asked for one JSON object, parsed strictly (never repaired)."));
    gen_stage_->clear();
    gen_error_->hide();
    raw_->clear();
    validity_->clear();
    showStrip(CompareStrip{}, false);
    if (export_report_) updateExport();
}

bool CompareWindow::start(std::shared_ptr<core::Backend> backend, core::DecideRequest request,
                          core::compare::CompareOptions options, const QString& policy,
                          const QString& endpoint, const QString& policy_file,
                          const nlohmann::json& variables) {
    if (!backend) {
        showError(tr("No backend for the active endpoint."));
        return false;
    }
    resetView();
    running_source_ = {{policy.toStdString(), policy_file.toStdString()},
                       request.schema,
                       variables.is_object() ? variables : nlohmann::json::object(),
                       backend->describe(),
                       request.images};
    title_->setText(tr("<b>%1</b> — slot readout vs generative JSON on %2")
                        .arg(policy.toHtmlEscaped(), endpoint.toHtmlEscaped()));
    setWindowTitle(tr("Compare %1 — Decision Studio").arg(policy));
    cards_placeholder_->setText(tr("Reading the slots…"));
    showStatus(tr("Slot readout"), -1);
    return runner_->start(std::move(backend), std::move(request), options);
}

void CompareWindow::cancel() {
    if (!runner_->busy()) return;
    runner_->cancel();
    showStatus(tr("Cancelled."), -2);
    gen_stage_->setText(tr("Cancelled."));
    Q_EMIT finished(false);
}

void CompareWindow::showPreparing(const QString& stage) {
    resetView();
    showStatus(stage, -1);
}

void CompareWindow::showError(const QString& message) {
    showStatus(message, -2, true);
    Q_EMIT finished(false);
}

void CompareWindow::showStatus(const QString& text, double fraction, bool error) {
    QPalette p = status_->palette();
    p.setColor(QPalette::WindowText,
               error ? errorColor(palette()) : palette().color(QPalette::WindowText));
    status_->setPalette(p);
    status_->setText(error ? QStringLiteral("⚠ ") + text : text);
    // fraction: -2 hides the bar, -1 a busy bar, else the share done.
    progress_->setVisible(fraction > -2);
    if (fraction < 0) {
        progress_->setRange(0, 0);
    } else {
        progress_->setRange(0, 1000);
        progress_->setValue(static_cast<int>(fraction * 1000));
    }
}

void CompareWindow::setLabelError(QLabel* label, const QString& message) {
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, errorColor(palette()));
    p.setColor(QPalette::Text, errorColor(palette()));
    label->setPalette(p);
    label->setText(message);
    label->show();
}

void CompareWindow::showStrip(const CompareStrip& s, bool final_values) {
    const QString pending = QStringLiteral("…");
    passes_->setText(s.passes.isEmpty() ? pending : s.passes);
    latency_->setText(s.latency.isEmpty() ? pending : s.latency);
    ratio_->setText(s.ratio.isEmpty() ? pending : s.ratio);
    agreement_->setText(s.agreement.isEmpty() ? pending : s.agreement);
    validity_tile_->setText(s.validity.isEmpty() ? pending : s.validity);
    QPalette p = validity_tile_->palette();
    QColor c = palette().color(QPalette::Text);
    if (final_values && model_->hasComparison()) {
        const auto& cmp = model_->comparison();
        c = cmp.generation && cmp.generative.valid ? goodColor(palette()) : errorColor(palette());
    }
    // On the strip's Base background a label paints with Text, elsewhere with WindowText.
    p.setColor(QPalette::WindowText, c);
    p.setColor(QPalette::Text, c);
    validity_tile_->setPalette(p);
}

void CompareWindow::onSlotDecided(const core::Decision& decision, double latency_ms) {
    slot_model_->setDecision(decision);
    slot_header_->setText(
        tr("%n question(s) read in %1", nullptr, static_cast<int>(decision.questions.size()))
            .arg(formatMs(latency_ms)));
    const core::Timings& t = decision.timings;
    slot_timings_->setText(tr("Encode %1 · decode %2 · readout %3 · total %4 — %5 read(s), %6 "
                              "prompt tokens, %7")
                               .arg(formatMs(t.encode_ms), formatMs(t.decode_ms),
                                    formatMs(t.readout_ms), formatMs(t.total_ms))
                               .arg(decision.reads)
                               .arg(decision.prompt_tokens)
                               .arg(qstr(decision.backend)));
    // Until the generation is done, the strip has the slot's latency only.
    CompareStrip s;
    s.latency = tr("slot %1 ms · generative …").arg(formatNumber(latency_ms, 1));
    showStrip(s, false);
}

void CompareWindow::onSlotFailed(const QString& message) {
    cards_placeholder_->setText(tr("No slot readout."));
    setLabelError(slot_error_, tr("The slot readout failed: %1").arg(message));
}

void CompareWindow::onProgress(int side, const QString& stage, double fraction,
                               const QString& delta) {
    if (side == 0) {
        showStatus(tr("Slot readout: %1").arg(core::progress_stage_text(stage)), fraction);
        return;
    }
    steps_->add(stage, fraction, delta);
    const auto* last = steps_->last();
    QString text = core::progress_stage_text(last ? last->stage : stage);
    if (last && last->pass > 0)
        text = tr("Pass %1 · %2").arg(last->pass).arg(core::progress_stage_text(last->stage));
    if (fraction >= 0) text += QStringLiteral(" · ") + formatPercent(fraction, 0);
    gen_stage_->setText(text);
    showStatus(tr("Generative JSON: %1").arg(text), fraction);
    if (steps_->passes() > 0) {
        CompareStrip s;
        s.passes = tr("… vs %1").arg(steps_->passes());
        s.latency = latency_->text();
        showStrip(s, false);
    }
}

void CompareWindow::onFinished(const core::compare::Comparison& c) {
    model_->setComparison(c);
    shown_source_ = running_source_;
    // The cards show the Comparison's slot decision (the same one onSlotDecided showed).
    if (c.slot) {
        if (!slot_model_->hasDecision()) slot_model_->setDecision(*c.slot);
        slot_header_->setText(tr("%n question(s) · %1 · %2 decoder pass(es)", nullptr,
                                 static_cast<int>(c.slot->questions.size()))
                                  .arg(formatMs(c.slot_timing.latency_ms))
                                  .arg(c.slot_timing.passes));
    } else {
        slot_model_->clear();
        cards_placeholder_->setText(tr("No slot readout."));
        setLabelError(slot_error_, tr("The slot readout failed: %1").arg(qstr(c.slot_error)));
    }
    if (c.generation) {
        const core::Generation& g = *c.generation;
        raw_->setPlainText(qstr(g.text));
        gen_header_->setText(tr("%1 · %n pass(es) · %2 completion tokens · finish: %3", nullptr,
                                c.generative_timing.passes)
                                 .arg(formatMs(c.generative_timing.latency_ms))
                                 .arg(g.completion_tokens)
                                 .arg(qstr(g.finish_reason)));
        gen_stage_->setText(tr("Done: %n denoising pass(es)", nullptr, g.passes));
        gen_error_->hide();
        if (c.generative.valid) {
            validity_->setText(
                tr("<span style='color:%1'>✓ <b>Valid</b>: one JSON object, every question "
                   "answered with an allowed value.</span>")
                    .arg(goodColor(palette()).name()));
        } else {
            QString items;
            for (const auto& r : c.generative.reasons)
                items += QStringLiteral("<li>%1</li>").arg(qstr(r).toHtmlEscaped());
            validity_->setText(tr("<span style='color:%1'>✗ <b>Invalid</b> (counted wrong, never "
                                  "repaired):</span><ul style='margin:0'>%2</ul>")
                                   .arg(errorColor(palette()).name(), items));
        }
    } else {
        raw_->clear();
        validity_->clear();
        gen_stage_->setText(tr("No generation."));
        gen_header_->setText(tr("The generative side did not answer; the slot side is kept."));
        setLabelError(gen_error_, qstr(c.generation_error));
    }
    showStrip(model_->strip(), true);
    showStatus(
        c.generation
            ? tr("Compared %1 question(s) on %2").arg(c.questions.size()).arg(qstr(c.backend))
            : tr("The generative side failed: %1").arg(qstr(c.generation_error)),
        -2, !c.generation);
    updateExport();
    Q_EMIT finished(true);
}

void CompareWindow::updateExport() {
    const bool can = !busy() && model_->hasComparison() && shown_source_.has_value();
    export_report_->setEnabled(can);
    export_button_->setEnabled(can);
}

std::optional<core::report::Report> CompareWindow::comparisonReport() const {
    if (!model_->hasComparison() || !shown_source_) return std::nullopt;
    core::report::ComparisonInput input;
    input.policy = shown_source_->policy;
    input.schema = shown_source_->schema;
    input.variables = shown_source_->variables;
    input.comparison = model_->comparison();
    input.images = shown_source_->images;
    const std::string model = input.comparison.slot         ? input.comparison.slot->model
                              : input.comparison.generation ? input.comparison.generation->model
                                                            : std::string();
    input.provenance =
        core::report::make_provenance("Decision Studio", shown_source_->endpoint, model);
    return core::report::comparison_report(input);
}

ExportReportDialog* CompareWindow::exportReport() {
    auto made = comparisonReport();
    if (!made) return nullptr;
    auto* dialog = new ExportReportDialog(std::move(*made), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

CompareStrip CompareWindow::stripTexts() const {
    return {passes_->text(), latency_->text(), ratio_->text(), agreement_->text(),
            validity_tile_->text()};
}

QString CompareWindow::statusText() const {
    return status_->text();
}

QString CompareWindow::rawText() const {
    return raw_->toPlainText();
}

QString CompareWindow::validityText() const {
    return validity_->text();
}

QString CompareWindow::generativeErrorText() const {
    return gen_error_->isHidden() ? QString() : gen_error_->text();
}

QString CompareWindow::slotErrorText() const {
    return slot_error_->isHidden() ? QString() : slot_error_->text();
}

}  // namespace ui
