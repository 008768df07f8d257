#include "ui/models/models_view.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/i18n/format.h"

namespace ui {

namespace {

namespace models = core::models;

const QString kFoldersKey = QStringLiteral("models/folders");

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

QString gigabytes(uint64_t bytes) {
    return ModelsView::tr("%1 GB").arg(formatNumber(static_cast<double>(bytes) / 1e9, 2));
}

QString statusText(const models::ModelEntry& e) {
    switch (e.status) {
        case models::Status::Ready:
            return ModelsView::tr("complete");
        case models::Status::Incomplete:
            return ModelsView::tr("incomplete");
        case models::Status::Foreign:
            return ModelsView::tr("not DiffusionGemma");
    }
    return {};
}

}  // namespace

ModelsView::ModelsView(ModelsViewOptions options, QWidget* parent)
    : QWidget(parent), options_(std::move(options)) {
    setObjectName(QStringLiteral("modelsView"));
    auto* layout = new QVBoxLayout(this);
    machine_ = new QLabel(this);
    machine_->setObjectName(QStringLiteral("modelsMachine"));
    layout->addWidget(machine_);
    table_ = new QTableWidget(0, Columns, this);
    table_->setObjectName(QStringLiteral("modelsTable"));
    table_->setHorizontalHeaderLabels(
        {tr("Model"), tr("Files"), tr("Format"), tr("On disk"), tr("Memory"), tr("Folder")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(Name, 300);
    table_->setColumnWidth(Memory, 330);
    layout->addWidget(table_, 1);
    details_ = new QLabel(this);
    details_->setObjectName(QStringLiteral("modelsDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(details_);
    auto* buttons = new QHBoxLayout;
    add_ = new QPushButton(tr("&Add folder…"), this);
    remove_ = new QPushButton(tr("&Remove folder"), this);
    auto* rescan = new QPushButton(tr("Re&fresh"), this);
    profile_box_ = new QComboBox(this);
    profile_box_->setObjectName(QStringLiteral("modelsProfile"));
    use_ = new QPushButton(tr("&Use for profile"), this);
    use_->setObjectName(QStringLiteral("modelsUse"));
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addWidget(rescan);
    buttons->addStretch(1);
    buttons->addWidget(profile_box_);
    buttons->addWidget(use_);
    layout->addLayout(buttons);

    connect(add_, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Add a models folder"));
        if (!dir.isEmpty()) addFolder(dir);
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow();
        if (row < 0 || static_cast<size_t>(row) >= entries_.size()) return;
        // The added folder this model came from (the model folder itself, or its parent).
        const QString dir = qstr(entries_[static_cast<size_t>(row)].dir.string());
        for (const QString& f : folders())
            if (dir == f || dir.startsWith(f + QLatin1Char('/'))) removeFolder(f);
    });
    connect(rescan, &QPushButton::clicked, this, &ModelsView::refresh);
    connect(use_, &QPushButton::clicked, this, &ModelsView::useSelected);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &ModelsView::showDetails);
    connect(profile_box_, &QComboBox::currentIndexChanged, this, &ModelsView::refresh);
    refresh();
}

QStringList ModelsView::folders() const {
    return QSettings().value(kFoldersKey).toStringList();
}

void ModelsView::addFolder(const QString& path) {
    QStringList list = folders();
    if (!list.contains(path)) list << path;
    QSettings().setValue(kFoldersKey, list);
    refresh();
}

void ModelsView::removeFolder(const QString& path) {
    QStringList list = folders();
    list.removeAll(path);
    QSettings().setValue(kFoldersKey, list);
    refresh();
}

void ModelsView::setProfiles(const core::EndpointProfileStore& store) {
    profiles_ = store;
    QSignalBlocker quiet(profile_box_);
    profile_box_->clear();
    for (const auto& p : store.profiles)
        if (!p.remote()) profile_box_->addItem(qstr(p.name));
    const auto* active = store.activeProfile();
    if (active && !active->remote()) profile_box_->setCurrentText(qstr(active->name));
    refresh();  // the chosen profile's folder is listed wherever it lives
}

QString ModelsView::activeDir() const {
    const auto* p = profiles_.find(profile_box_->currentText().toStdString());
    return p ? qstr(p->model_dir) : QString();
}

void ModelsView::refresh() {
    models::ScanOptions o;
    o.hub_dirs = options_.hub_dirs;
    for (const QString& f : folders()) o.folders.emplace_back(f.toStdString());
    o.active = activeDir().toStdString();
    o.machine = options_.machine_from_system ? models::MachineMemory::current() : options_.machine;
    options_.machine = o.machine;
    entries_ = models::scan_models(o);
    QString machine =
        tr("This machine: %1 of host memory available").arg(gigabytes(o.machine.host_bytes));
    for (const auto& d : o.machine.devices)
        machine += tr(" · %1: %2 free").arg(qstr(d.name), gigabytes(d.free_bytes));
    machine_->setText(machine);
    fill();
}

void ModelsView::fill() {
    const QString active = activeDir();
    const int keep = table_->currentRow();
    table_->setRowCount(static_cast<int>(entries_.size()));
    for (size_t i = 0; i < entries_.size(); ++i) {
        auto& e = entries_[i];
        std::error_code ec;
        e.active = !active.isEmpty() &&
                   std::filesystem::equivalent(e.dir, active.toStdString(), ec) && !ec;
        const QString name =
            qstr(e.revision.empty() ? e.name : e.name + " @ " + e.revision.substr(0, 10));
        const QString cells[Columns] = {(e.active ? QStringLiteral("● ") : QString()) + name,
                                        statusText(e),
                                        e.format.empty() ? tr("unknown") : qstr(e.format),
                                        gigabytes(e.size_bytes),
                                        e.plan ? qstr(e.fit) : QString(),
                                        qstr(e.dir.string())};
        for (int c = 0; c < Columns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (!e.choosable()) {
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
                item->setToolTip(qstr(e.problems.empty() ? std::string() : e.problems.front()));
            }
            if (e.active) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            if (c == Memory && e.plan && !e.fits)
                item->setForeground(QColor(palette().color(QPalette::Window).lightness() < 128
                                               ? QColor(0xff, 0x8a, 0x80)
                                               : QColor(0xb3, 0x26, 0x1e)));
            table_->setItem(static_cast<int>(i), c, item);
        }
    }
    if (keep >= 0 && keep < table_->rowCount()) table_->selectRow(keep);
    showDetails();
}

void ModelsView::selectRow(int row) {
    table_->selectRow(row);
    showDetails();
}

QString ModelsView::detailsText() const {
    return details_->text();
}

void ModelsView::showDetails() {
    const int row = table_->currentRow();
    const bool have = row >= 0 && static_cast<size_t>(row) < entries_.size();
    const models::ModelEntry* e = have ? &entries_[static_cast<size_t>(row)] : nullptr;
    use_->setEnabled(e && e->choosable() && profile_box_->count() > 0);
    remove_->setEnabled(e && e->source == models::Source::Folder);
    if (!e) {
        details_->setText(entries_.empty() ? tr("No models found. Add a folder that holds one.")
                                           : tr("Choose a model to see its details."));
        return;
    }
    QStringList lines;
    lines << qstr(e->dir.string());
    if (e->plan) lines << tr("Memory plan: %1").arg(qstr(e->plan->host_plan));
    if (e->plan && !e->plan->cuda_plan.empty())
        lines << tr("On a GPU: %1").arg(qstr(e->plan->cuda_plan));
    if (!e->choosable()) lines << tr("Cannot be used:");
    for (const auto& p : e->problems) lines << QStringLiteral("  • ") + qstr(p);
    details_->setText(lines.join(QLatin1Char('\n')));
}

bool ModelsView::useSelected() {
    const int row = table_->currentRow();
    if (row < 0 || static_cast<size_t>(row) >= entries_.size()) return false;
    const auto& e = entries_[static_cast<size_t>(row)];
    if (!e.choosable() || profile_box_->currentText().isEmpty()) return false;
    const QString profile = profile_box_->currentText();
    for (auto& p : profiles_.profiles)
        if (qstr(p.name) == profile) p.model_dir = e.dir.string();
    Q_EMIT modelChosen(profile, qstr(e.dir.string()));
    fill();
    return true;
}

}  // namespace ui
