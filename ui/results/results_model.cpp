// Results and history models (see results_model.h).
#include "ui/results/results_model.h"

#include <QCoreApplication>

#include "core/decide/read_stats.h"
#include "ui/i18n/format.h"

namespace ui {

ResultsModel::ResultsModel(QObject* parent) : QAbstractListModel(parent) {}

void ResultsModel::setDecision(const core::Decision& decision) {
    beginResetModel();
    decision_ = decision;
    has_decision_ = true;
    endResetModel();
}

void ResultsModel::clear() {
    beginResetModel();
    decision_ = {};
    has_decision_ = false;
    endResetModel();
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(decision_.questions.size());
}

namespace {
QStringList to_list(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}
QList<double> to_list(const std::vector<double>& v) {
    return QList<double>(v.begin(), v.end());
}
}  // namespace

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const core::QuestionOutcome& q = decision_.questions[static_cast<size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return outcomeSummary(q);
        case IdRole:
            return QString::fromStdString(q.id);
        case LabelsRole:
            return to_list(q.labels);
        case AlternativesRole:
            return to_list(q.alternatives);
        case MeanRole:
            return QVariant::fromValue(to_list(q.mean));
        case WinnerRole:
            return q.winner;
        case SkipRole:
            return q.skipped ? QString::fromStdString(core::skip_text(q)) : QString();
        case StageRole:
            return q.stage;
        case EscalationRole:
            return escalationText(q);
        case EscalatedByStage2Role:
            return q.escalation && q.escalation->escalated &&
                   q.escalation->stage2_winner.has_value();
        case ConfidenceRole:
            return q.confidence;
        case EntropyRole:
            return q.entropy;
        case HesitationRole:
            return q.hesitation;
        case HesitationTextRole:
            return hesitationText(q.hesitation_class());
        case HesitationClassRole:
            return static_cast<int>(q.hesitation_class());
        case StderrRole:
            return q.stderr_winner ? QVariant(*q.stderr_winner) : QVariant();
        case StderrLabelsRole:
            return QVariant::fromValue(
                QList<double>(q.stderr_labels.begin(), q.stderr_labels.end()));
        case AgreementRole:
            return q.agreement;
        case PerReadRole: {
            QList<QList<double>> rows;
            for (const auto& r : q.per_read) rows << to_list(r);
            return QVariant::fromValue(rows);
        }
        case PositionRole:
            return q.pos;
        case IsolatedRole:
            return q.isolated;
    }
    return {};
}

QHash<int, QByteArray> ResultsModel::roleNames() const {
    return {{IdRole, "id"},
            {LabelsRole, "labels"},
            {AlternativesRole, "alternatives"},
            {MeanRole, "mean"},
            {WinnerRole, "winner"},
            {ConfidenceRole, "confidence"},
            {EntropyRole, "entropy"},
            {HesitationRole, "hesitation"},
            {HesitationTextRole, "hesitationText"},
            {StderrRole, "stderr"},
            {StderrLabelsRole, "stderrLabels"},
            {AgreementRole, "agreement"},
            {PerReadRole, "perRead"},
            {PositionRole, "pos"},
            {IsolatedRole, "isolated"}};
}

QString formatMs(double ms) {
    if (ms >= 1000) return QStringLiteral("%1 s").arg(formatNumber(ms / 1000.0, 2));
    return QStringLiteral("%1 ms").arg(formatNumber(ms, ms < 10 ? 2 : 1));
}

QString outcomeSummary(const core::QuestionOutcome& outcome) {
    if (outcome.skipped)
        return QCoreApplication::translate("ui::ResultsModel", "%1: skipped")
            .arg(QString::fromStdString(outcome.id));
    const size_t w = static_cast<size_t>(std::max(0, outcome.winner));
    const QString answer = w < outcome.alternatives.size()
                               ? QString::fromStdString(outcome.alternatives[w])
                               : QString();
    return QStringLiteral("%1: %2 (%3)")
        .arg(QString::fromStdString(outcome.id), answer, formatPercent(outcome.confidence, 0));
}

HistoryModel::HistoryModel(int capacity, QObject* parent)
    : QAbstractListModel(parent), capacity_(capacity) {}

void HistoryModel::add(HistoryEntry entry) {
    beginResetModel();
    entries_.push_front(std::move(entry));
    while (static_cast<int>(entries_.size()) > capacity_) entries_.pop_back();
    endResetModel();
}

const HistoryEntry* HistoryModel::entry(int row) const {
    return row >= 0 && row < rowCount() ? &entries_[static_cast<size_t>(row)] : nullptr;
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
    const HistoryEntry* e = entry(index.row());
    if (!e) return {};
    if (role == Qt::DisplayRole) {
        QStringList answers;
        for (const auto& q : e->decision.questions) answers << outcomeSummary(q);
        return QStringLiteral("%1  %2 — %3")
            .arg(formatTime(e->when.time()), e->policy, answers.join(QStringLiteral(", ")));
    }
    if (role == Qt::ToolTipRole)
        return tr("%1 on %2, total %3")
            .arg(e->policy, e->endpoint, formatMs(e->decision.timings.total_ms));
    return {};
}

QString escalationText(const core::QuestionOutcome& q) {
    if (!q.escalation || !q.escalation->escalated) return {};
    const auto& e = *q.escalation;
    auto name = [&q](int label) {
        return label >= 0 && label < static_cast<int>(q.alternatives.size())
                   ? QString::fromStdString(q.alternatives[static_cast<size_t>(label)])
                   : QString();
    };
    const QString stage1 = QCoreApplication::translate("ui::ResultsModel", "stage 1 said %1 (%2)")
                               .arg(name(e.stage1_winner), formatPercent(e.stage1_confidence, 0));
    const QString head =
        QCoreApplication::translate("ui::ResultsModel", "Escalated (entropy %1 nats)")
            .arg(QLocale().toString(e.stage1_entropy, 'f', 2));
    if (e.stage2_winner)
        return QCoreApplication::translate("ui::ResultsModel", "%1: stage 2 answered %2 in %3; %4")
            .arg(head, name(*e.stage2_winner), formatMs(e.stage2_ms), stage1);
    return QCoreApplication::translate("ui::ResultsModel", "%1: %2")
        .arg(head, QString::fromStdString(e.stage2_error));
}

}  // namespace ui
