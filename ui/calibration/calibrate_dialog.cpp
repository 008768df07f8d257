// The Calibrate dialog: the core's calibrate use case on a worker thread, its values shown, and
// the fit written into the open policy as one undo step.
#include "ui/calibration/calibrate_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/reports/report.h"
#include "ui/charts/chart_widget.h"
#include "ui/editor/policy_document.h"

namespace ui {

namespace {

QString number(double v, int decimals = 4) {
    return QString::number(v, 'f', decimals);
}

QString change(double before, double after) {
    return QStringLiteral("%1 → %2").arg(number(before), number(after));
}

}  // namespace

CalibrateDialog::CalibrateDialog(std::vector<core::eval::CalibrationItem> items,
                                 const QString& source, PolicyDocument* document, QWidget* parent)
    : QDialog(parent), document_(document) {
    setWindowTitle(tr("Calibrate — Decision Studio"));
    setObjectName(QStringLiteral("calibrateDialog"));
    auto* top = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Fits the temperature per question type on %n labelled question(s) of %1 by "
           "minimising the held-out negative log-likelihood of the expected answer (a proper "
           "scoring rule: it is lowest when the probabilities mean what they say; a temperature "
           "never changes an answer). The figures are measured on the held-out folds.",
           nullptr, static_cast<int>(items.size()))
            .arg(source),
        this);
    intro->setWordWrap(true);
    top->addWidget(intro);
    status_ = new QLabel(tr("Fitting…"), this);
    status_->setObjectName(QStringLiteral("calibrateStatus"));
    top->addWidget(status_);
    table_ = new QTableWidget(0, 7, this);
    table_->setObjectName(QStringLiteral("calibrateTable"));
    table_->setHorizontalHeaderLabels({tr("Type"), tr("Questions"), tr("Temperature"),
                                       tr("Search range"), tr("NLL"), tr("Brier"), tr("ECE")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    top->addWidget(table_);
    range_ = new QLabel(this);
    range_->setObjectName(QStringLiteral("calibrateRange"));
    range_->setWordWrap(true);
    top->addWidget(range_);
    auto* charts = new QHBoxLayout;
    before_chart_ = new ChartWidget(this);
    before_chart_->setObjectName(QStringLiteral("reliabilityBeforeChart"));
    after_chart_ = new ChartWidget(this);
    after_chart_->setObjectName(QStringLiteral("reliabilityAfterChart"));
    charts->addWidget(before_chart_);
    charts->addWidget(after_chart_);
    top->addLayout(charts, 1);
    auto* buttons = new QDialogButtonBox(this);
    write_button_ = buttons->addButton(tr("&Write into policy"), QDialogButtonBox::AcceptRole);
    write_button_->setObjectName(QStringLiteral("writeTemperatureButton"));
    cancel_button_ = buttons->addButton(tr("Cancel fit"), QDialogButtonBox::ActionRole);
    cancel_button_->setObjectName(QStringLiteral("cancelFitButton"));
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    top->addWidget(buttons);
    connect(write_button_, &QPushButton::clicked, this, [this] {
        const QString error = writeIntoPolicy();
        if (error.isEmpty())
            accept();
        else
            status_->setText(error);
    });
    connect(cancel_button_, &QPushButton::clicked, this, &CalibrateDialog::cancelFit);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(&watcher_, &QFutureWatcherBase::finished, this, &CalibrateDialog::onFinished);
    core::eval::CalibrateOptions options;
    watcher_.setFuture(QtConcurrent::run(
        [items = std::move(items), options] { return core::eval::calibrate(items, options); }));
    updateButtons();
}

CalibrateDialog::~CalibrateDialog() {
    watcher_.disconnect(this);
    watcher_.waitForFinished();
}

bool CalibrateDialog::fitting() const {
    return awaiting_ && !cancelled_;
}

QString CalibrateDialog::statusText() const {
    return status_->text();
}

QString CalibrateDialog::rangeText() const {
    return range_->text();
}

void CalibrateDialog::cancelFit() {
    if (!fitting()) return;
    // The fit is a few passes over the items: it cannot stop midway, so the dialog stops
    // waiting for it and drops what it returns.
    cancelled_ = true;
    status_->setText(tr("Cancelled: nothing was fitted or written."));
    updateButtons();
}

void CalibrateDialog::onFinished() {
    awaiting_ = false;
    auto result = watcher_.result();
    if (cancelled_) {
        Q_EMIT fitFinished(false);
        return updateButtons();
    }
    if (!result) {
        status_->setText(
            tr("The fit failed: %1").arg(QString::fromStdString(result.error().message)));
        updateButtons();
        Q_EMIT fitFinished(false);
        return;
    }
    result_ = std::move(*result);
    showResult();
    updateButtons();
    Q_EMIT fitFinished(true);
}

void CalibrateDialog::showResult() {
    const auto& r = result_->report;
    const QString range =
        QStringLiteral("[%1, %2]").arg(number(r.options.t_min, 2), number(r.options.t_max, 2));
    table_->setRowCount(0);
    auto add_row = [this](const QStringList& cells) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(row, c, new QTableWidgetItem(cells[c]));
    };
    for (const auto& t : r.types) {
        const QString where =
            !t.fitted ? tr("not fitted") : (t.at_edge ? tr("at its edge") : tr("inside"));
        add_row({QString::fromUtf8(core::to_string(t.type)), QString::number(t.n),
                 t.fitted ? number(t.temperature) : tr("1 (kept)"), where,
                 change(t.before.nll, t.after.nll), change(t.before.brier, t.after.brier),
                 change(t.before.ece.ece, t.after.ece.ece)});
    }
    add_row({tr("all"), QString::number(r.before.n), QString(), QString(),
             change(r.before.nll, r.after.nll), change(r.before.brier, r.after.brier),
             change(r.before.ece.ece, r.after.ece.ece)});
    status_->setText(tr("%1-fold cross-validation; the value written is the fit on every "
                        "question of its type.")
                         .arg(r.options.folds));
    QStringList notes;
    for (const auto& t : r.types)
        if (!t.note.empty()) notes << QString::fromStdString(t.note);
    if (!result_->fitted())
        range_->setText(
            tr("Nothing was fitted: every question type has too few labelled "
               "questions. The policy is left as it is."));
    else if (result_->inside_range())
        range_->setText(tr("Every fit landed inside its search range %1.").arg(range));
    else
        range_->setText(tr("A fit ended at the edge of its search range %1: the best "
                           "temperature may lie beyond it.")
                            .arg(range));
    if (!notes.isEmpty()) range_->setText(range_->text() + QLatin1Char('\n') + notes.join('\n'));
    before_chart_->setChart(
        core::report::reliability_chart(r.before.ece, tr("Reliability before").toStdString()));
    after_chart_->setChart(
        core::report::reliability_chart(r.after.ece, tr("Reliability after").toStdString()));
}

QString CalibrateDialog::writeIntoPolicy() {
    if (!result_) return tr("There is no fit to write.");
    if (!document_ || !document_->schema()) return tr("No policy is open to take the temperature.");
    auto t = core::eval::temperature_to_write(document_->schema()->temperature, result_->report);
    if (!t) return QString::fromStdString(t.error().message);
    // Checked whole before the document changes: one undo step, or nothing.
    auto edited = core::eval::source_with_temperature(document_->source().toStdString(), *t);
    if (!edited)
        return tr("The policy cannot take the temperature: %1")
            .arg(QString::fromStdString(edited.error().message));
    if (!document_->setSchemaMember("temperature", core::policy_temperature_json(*t).dump(),
                                    tr("Calibrate temperature")))
        return tr("The policy already has this temperature.");
    Q_EMIT written();
    return {};
}

void CalibrateDialog::updateButtons() {
    cancel_button_->setEnabled(fitting());
    write_button_->setEnabled(result_ && result_->fitted() && document_ && document_->schema());
}

}  // namespace ui
