#include "ui/bench/comparison_items_model.h"
#include "ui/i18n/format.h"

#include <QBrush>
#include <QColor>

namespace ui {

namespace {

QVariant yesNo(const std::optional<bool>& v, bool sort) {
    if (sort) return v ? (*v ? 1 : 0) : -1;
    if (!v) return QStringLiteral("—");
    return *v ? QObject::tr("yes") : QObject::tr("no");
}

QVariant millis(const std::optional<double>& s, bool sort) {
    if (sort) return s ? *s : -1.0;
    return s ? formatNumber(*s * 1000.0, 1) : QStringLiteral("—");
}

}  // namespace

ComparisonItemsModel::ComparisonItemsModel(QObject* parent) : IdRowsModel(Columns, parent) {}

QVariant ComparisonItemsModel::data(const QModelIndex& index, int role) const {
    const core::compare::ItemComparisonRow* r = row(index.row());
    if (!r) return {};
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (index.column()) {
            case Id:
                return QString::fromStdString(r->id);
            case Tier:
                return QString::fromStdString(r->tier);
            case SlotLatency:
                return millis(r->slot_latency_s, sort);
            case GenerativeLatency:
                return millis(r->generative_latency_s, sort);
            case SlotCorrect:
                return yesNo(r->slot_correct, sort);
            case GenerativeValid:
                return yesNo(r->generative_valid, sort);
            case GenerativeCorrect:
                return yesNo(r->generative_correct, sort);
            case Agree:
                return yesNo(r->agree, sort);
            case Passes:
                if (sort) return r->generative_passes;
                return r->generative_latency_s ? QString::number(r->generative_passes)
                                               : QStringLiteral("—");
            case Reason:
                return QString::fromStdString(r->reason);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Reason && !r->reason.empty())
        return QString::fromStdString(r->reason);
    if (role == Qt::TextAlignmentRole &&
        (index.column() == SlotLatency || index.column() == GenerativeLatency ||
         index.column() == Passes))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole) {
        std::optional<bool> v;
        switch (index.column()) {
            case SlotCorrect:
                v = r->slot_correct;
                break;
            case GenerativeValid:
                v = r->generative_valid;
                break;
            case GenerativeCorrect:
                v = r->generative_correct;
                break;
            case Agree:
                v = r->agree;
                break;
            default:
                break;
        }
        if (v) return QBrush(*v ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    }
    return {};
}

QVariant ComparisonItemsModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Id:
            return tr("Item");
        case Tier:
            return tr("Tier");
        case SlotLatency:
            return tr("Slot (ms)");
        case GenerativeLatency:
            return tr("Generative (ms)");
        case SlotCorrect:
            return tr("Slot correct");
        case GenerativeValid:
            return tr("Valid JSON");
        case GenerativeCorrect:
            return tr("Generative correct");
        case Agree:
            return tr("Agree");
        case Passes:
            return tr("Passes");
        case Reason:
            return tr("Reason");
    }
    return {};
}

}  // namespace ui
