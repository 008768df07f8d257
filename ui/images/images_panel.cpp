// The images strip (see images_panel.h).
#include "ui/images/images_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListView>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/images/images.h"
#include "ui/images/images_model.h"

namespace ui {

ImagesPanel::ImagesPanel(ImagesModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setAcceptDrops(true);
    // One compact row (label, thumbnails, buttons), so the variables above keep their room.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    auto* label = new QLabel(tr("&Images"), this);
    view_ = new QListView(this);
    view_->setObjectName(QStringLiteral("imagesList"));
    view_->setModel(model_);
    view_->setViewMode(QListView::IconMode);
    view_->setFlow(QListView::LeftToRight);
    view_->setWrapping(false);
    view_->setIconSize(QSize(32, 32));
    view_->setMovement(QListView::Static);
    view_->setFixedHeight(view_->iconSize().height() + view_->fontMetrics().height() + 14);
    view_->setAccessibleName(tr("Images"));
    view_->setToolTip(
        tr("Drop image files here, paste one (Ctrl+V) or use Add…; PNG, JPEG or "
           "WebP. They are sent before the state, in this order."));
    view_->installEventFilter(this);
    label->setBuddy(view_);
    auto* add = new QPushButton(tr("Add image…"), this);
    auto* remove = new QPushButton(tr("Remove image"), this);
    remove->setEnabled(false);
    auto* buttons = new QVBoxLayout;
    buttons->setSpacing(2);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    row->addWidget(label, 0, Qt::AlignTop);
    row->addWidget(view_, 1);
    row->addLayout(buttons);
    layout->addLayout(row);
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("imagesMessage"));
    message_->setWordWrap(true);
    message_->hide();
    layout->addWidget(message_);

    connect(add, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Add images"), {}, tr("Images (*.png *.jpg *.jpeg *.webp)"));
        QStringList errors;
        for (const QString& f : files) {
            QString error;
            if (!model_->addReference(f, &error)) errors << error;
        }
        report(errors);
    });
    connect(remove, &QPushButton::clicked, this,
            [this] { model_->remove(view_->currentIndex().row()); });
    auto enable = [this, remove] { remove->setEnabled(view_->currentIndex().isValid()); };
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this, enable);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, enable);
    connect(model_, &QAbstractItemModel::modelReset, this, enable);
}

void ImagesPanel::report(const QStringList& errors) {
    message_->setText(errors.join(QLatin1Char('\n')));
    message_->setVisible(!errors.isEmpty());
}

bool ImagesPanel::addFromMime(const QMimeData* mime) {
    if (!mime) return false;
    QStringList errors;
    int added = 0;
    auto take = [&](bool ok, const QString& error) {
        if (ok)
            ++added;
        else
            errors << error;
    };
    if (mime->hasUrls()) {
        for (const QUrl& url : mime->urls()) {
            QString error;
            const QString ref = url.isLocalFile() ? url.toLocalFile() : url.toString();
            take(model_->addReference(ref, &error), error);
        }
    } else if (mime->hasImage()) {
        QString error;
        take(model_->addImage(qvariant_cast<QImage>(mime->imageData()), tr("pasted image"), &error),
             error);
    } else if (mime->hasText()) {
        // A path or URL as text (copied from a file manager or a browser's address bar).
        for (const QString& line : mime->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            QString error;
            take(model_->addReference(line.trimmed(), &error), error);
        }
    } else {
        errors << tr("Nothing to add: drop or paste image files, a picture or a URL");
    }
    report(errors);
    return added > 0;
}

void ImagesPanel::paste() {
    addFromMime(QApplication::clipboard()->mimeData());
}

void ImagesPanel::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* m = event->mimeData();
    if (m->hasUrls() || m->hasImage()) event->acceptProposedAction();
}

void ImagesPanel::dropEvent(QDropEvent* event) {
    if (addFromMime(event->mimeData())) event->acceptProposedAction();
}

bool ImagesPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Paste)) {
            paste();
            return true;
        }
        if (key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) {
            model_->remove(view_->currentIndex().row());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ui
