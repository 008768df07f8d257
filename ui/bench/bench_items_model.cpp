#include "ui/bench/bench_items_model.h"
#include "ui/i18n/format.h"

#include <QBrush>
#include <QColor>

namespace ui {

BenchItemsModel::BenchItemsModel(QObject* parent) : IdRowsModel(Columns, parent) {}

QVariant BenchItemsModel::data(const QModelIndex& index, int role) const {
    const core::eval::ItemRow* r = row(index.row());
    if (!r) return {};
    const auto text = [](const std::string& s) { return QString::fromStdString(s); };
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (index.column()) {
            case Id:
                return text(r->id);
            case Tier:
                return text(r->tier);
            case Family:
                return text(r->family);
            case Expected:
                return text(r->expected);
            case Predicted:
                return r->failed ? (sort ? QVariant(QString()) : QVariant(tr("(failed)")))
                                 : QVariant(text(r->predicted));
            case Probability:
                if (sort) return r->p;
                return r->p < 0 ? QString() : formatNumber(r->p, 3);
            case Correct:
                if (sort) return r->correct ? 1 : 0;
                return r->correct ? tr("yes") : tr("no");
            case Latency:
                if (sort) return r->latency_s;
                return formatNumber(r->latency_s * 1000.0, 1);
        }
    }
    if (role == Qt::ToolTipRole && !r->error.empty()) return text(r->error);
    if (role == Qt::TextAlignmentRole &&
        (index.column() == Probability || index.column() == Latency))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == Correct)
        return QBrush(r->correct ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    return {};
}

QVariant BenchItemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Id:
            return tr("Item");
        case Tier:
            return tr("Tier");
        case Family:
            return tr("Family");
        case Expected:
            return tr("Expected");
        case Predicted:
            return tr("Predicted");
        case Probability:
            return tr("p");
        case Correct:
            return tr("Correct");
        case Latency:
            return tr("Latency (ms)");
    }
    return {};
}

}  // namespace ui
