// The searchable list of a wide question's options (see wide_options_dialog.h).
#include "ui/results/wide_options_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/i18n/format.h"
#include "ui/results/results_model.h"

namespace ui {

namespace {

enum Column { kRank, kOption, kLabel, kProbability, kError, kColumns };

// A number shown as text but sorted by value.
QStandardItem* number_item(double value, const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(value, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

WideOptionsDialog::WideOptionsDialog(const QModelIndex& index, QWidget* parent) : QDialog(parent) {
    const QString id = index.data(ResultsModel::IdRole).toString();
    setWindowTitle(tr("%1: every option").arg(id));
    const QStringList labels = index.data(ResultsModel::LabelsRole).toStringList();
    const QStringList alts = index.data(ResultsModel::AlternativesRole).toStringList();
    const auto mean = index.data(ResultsModel::MeanRole).value<QList<double>>();
    const auto se = index.data(ResultsModel::StderrLabelsRole).value<QList<double>>();

    options_ = new QStandardItemModel(0, kColumns, this);
    options_->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Option"), tr("Label"), tr("Probability"), tr("± stderr")});
    QList<int> order;
    for (int i = 0; i < mean.size(); ++i) order << i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return mean[a] > mean[b]; });
    for (int rank = 0; rank < order.size(); ++rank) {
        const int i = order[rank];
        QList<QStandardItem*> row(kColumns);
        row[kRank] = number_item(rank + 1, QString::number(rank + 1));
        row[kOption] = new QStandardItem(alts.value(i));
        row[kLabel] = new QStandardItem(labels.value(i));
        row[kProbability] = number_item(mean[i], formatPercent(mean[i], 2));
        row[kError] = i < se.size() ? number_item(se[i], formatPercent(se[i], 2))
                                    : number_item(0, QStringLiteral("–"));
        options_->appendRow(row);
    }
    filter_ = new QSortFilterProxyModel(this);
    filter_->setSourceModel(options_);
    filter_->setSortRole(Qt::UserRole);
    filter_->setFilterKeyColumn(kOption);
    filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);

    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search the %1 options").arg(mean.size()));
    search_->setClearButtonEnabled(true);
    connect(search_, &QLineEdit::textChanged, filter_,
            [this](const QString& text) { filter_->setFilterFixedString(text); });

    table_ = new QTableView(this);
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(kRank, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(kOption, QHeaderView::Stretch);
    table_->setAlternatingRowColors(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(search_);
    layout->addWidget(table_);
    layout->addWidget(buttons);
    resize(520, 560);
    search_->setFocus();
}

int WideOptionsDialog::visibleOptions() const {
    return filter_->rowCount();
}

}  // namespace ui
