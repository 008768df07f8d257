// The Compare view's models (see compare_model.h).
#include "ui/compare/compare_model.h"

#include <QBrush>
#include <QColor>

#include "core/endpoints/backend_runner.h"
#include "ui/i18n/format.h"
#include "ui/results/results_model.h"

namespace ui {

namespace {

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

QString alternative(const core::compare::QuestionComparison& q, int index) {
    if (index < 0 || index >= static_cast<int>(q.alternatives.size())) return {};
    return qstr(q.alternatives[static_cast<size_t>(index)]);
}

const QString kDash = QStringLiteral("—");

}  // namespace

CompareStrip compareStrip(const core::compare::Comparison& c) {
    CompareStrip s;
    const bool slot = c.slot.has_value();
    const bool generated = c.generation.has_value();
    s.passes = QStringLiteral("%1 vs %2")
                   .arg(slot ? QString::number(c.slot_timing.passes) : kDash,
                        generated ? QString::number(c.generative_timing.passes) : kDash);
    // Milliseconds with one decimal and the ratio with one, as `dgem compare` prints them.
    const auto ms = [](double v) { return QStringLiteral("%1 ms").arg(formatNumber(v, 1)); };
    s.latency = QObject::tr("slot %1 · generative %2")
                    .arg(slot ? ms(c.slot_timing.latency_ms) : kDash,
                         generated ? ms(c.generative_timing.latency_ms) : kDash);
    const double ratio = c.latency_ratio();
    s.ratio = ratio > 0 ? QStringLiteral("%1×").arg(formatNumber(ratio, 1)) : kDash;
    s.agreement = QObject::tr("%1 of %2 answered by both").arg(c.agreeing).arg(c.compared);
    if (!generated)
        s.validity = QObject::tr("no answer");
    else if (c.generative.valid)
        s.validity = QObject::tr("valid JSON");
    else
        s.validity = QObject::tr("invalid: %1").arg(qstr(c.generative.reason()));
    return s;
}

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setComparison(core::compare::Comparison comparison) {
    beginResetModel();
    comparison_ = std::move(comparison);
    endResetModel();
}

void CompareModel::clear() {
    beginResetModel();
    comparison_.reset();
    endResetModel();
}

const core::compare::Comparison& CompareModel::comparison() const {
    static const core::compare::Comparison none;
    return comparison_ ? *comparison_ : none;
}

CompareStrip CompareModel::strip() const {
    return comparison_ ? compareStrip(*comparison_) : CompareStrip{};
}

int CompareModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !comparison_) return 0;
    return static_cast<int>(comparison_->questions.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Columns;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto& q = comparison_->questions[static_cast<size_t>(index.row())];
    const bool both = q.slot_winner >= 0 && q.generative >= 0;
    switch (role) {
        case SlotWinnerRole:
            return q.slot_winner;
        case GenerativeRole:
            return q.generative;
        case AgreeRole:
            return q.agree;
        case Qt::DisplayRole:
        case SortRole: {
            const bool sort = role == SortRole;
            switch (index.column()) {
                case Question:
                    return qstr(q.id);
                case Slot:
                    return q.slot_winner >= 0 ? alternative(q, q.slot_winner) : kDash;
                case Probability:
                    if (sort) return q.slot_winner >= 0 ? q.slot_probability : -1.0;
                    return q.slot_winner >= 0 ? formatPercent(q.slot_probability, 1) : QString();
                case Hesitation:
                    if (sort) return q.hesitation;
                    return q.slot_winner >= 0
                               ? QStringLiteral("%1 (%2)").arg(hesitationText(q.hesitation_class),
                                                               formatPercent(q.hesitation, 0))
                               : QString();
                case Generative:
                    return q.generative >= 0 ? alternative(q, q.generative)
                                             : tr("(no valid value)");
                case Agree:
                    if (sort) return both ? (q.agree ? 1 : 0) : -1;
                    return both ? (q.agree ? tr("yes") : tr("no")) : kDash;
            }
            break;
        }
        case Qt::ToolTipRole:
            if (index.column() == Generative && q.generative < 0)
                return qstr(comparison_->generative.reason());
            break;
        case Qt::TextAlignmentRole:
            if (index.column() == Probability)
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            break;
        case Qt::ForegroundRole:
            if (index.column() == Agree && both)
                return QBrush(q.agree ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
            if (index.column() == Generative && q.generative < 0)
                return QBrush(QColor(0xc6, 0x28, 0x28));
            break;
    }
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Question:
            return tr("Question");
        case Slot:
            return tr("Slot answer");
        case Probability:
            return tr("p");
        case Hesitation:
            return tr("Hesitation");
        case Generative:
            return tr("Generative answer");
        case Agree:
            return tr("Agree");
    }
    return {};
}

GenerationStepsModel::GenerationStepsModel(QObject* parent) : QAbstractListModel(parent) {}

void GenerationStepsModel::start() {
    clear();
    clock_.start();
}

void GenerationStepsModel::clear() {
    beginResetModel();
    steps_.clear();
    passes_ = 0;
    endResetModel();
    if (!text_.isEmpty()) {
        text_.clear();
        Q_EMIT textChanged(text_);
    }
}

void GenerationStepsModel::add(const QString& stage, double fraction, const QString& text_delta) {
    const qint64 at = clock_.isValid() ? clock_.elapsed() : 0;
    // Each report of a decoding stage is one denoising pass; any other stage is one row, and
    // repeated reports of it (streamed text) update that row.
    const bool pass = stage.startsWith(QLatin1String("decoding"));
    if (!stage.isEmpty() && (pass || steps_.empty() || steps_.back().stage != stage)) {
        const int row = static_cast<int>(steps_.size());
        beginInsertRows({}, row, row);
        steps_.push_back({stage, fraction, at, pass ? ++passes_ : 0});
        endInsertRows();
    } else if (!steps_.empty()) {
        steps_.back().fraction = fraction;
        steps_.back().elapsed_ms = at;
        const QModelIndex last = index(static_cast<int>(steps_.size()) - 1);
        Q_EMIT dataChanged(last, last);
    }
    if (!text_delta.isEmpty()) {
        text_ += text_delta;
        Q_EMIT textChanged(text_);
    }
}

const GenerationStepsModel::Step* GenerationStepsModel::step(int row) const {
    return row >= 0 && row < rowCount() ? &steps_[static_cast<size_t>(row)] : nullptr;
}

int GenerationStepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(steps_.size());
}

QVariant GenerationStepsModel::data(const QModelIndex& index, int role) const {
    const Step* s = step(index.row());
    if (!s) return {};
    switch (role) {
        case Qt::DisplayRole: {
            const QString stage = core::progress_stage_text(s->stage);
            QString text = s->pass > 0 ? tr("pass %1 · %2").arg(s->pass).arg(stage) : stage;
            if (s->fraction >= 0) text += QStringLiteral(" · ") + formatPercent(s->fraction, 0);
            return text +
                   QStringLiteral("  (%1)").arg(formatMs(static_cast<double>(s->elapsed_ms)));
        }
        case StageRole:
            return s->stage;
        case FractionRole:
            return s->fraction;
        case ElapsedRole:
            return s->elapsed_ms;
        case PassRole:
            return s->pass;
    }
    return {};
}

}  // namespace ui
