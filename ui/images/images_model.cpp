// The images of a decision (see images_model.h).
#include "ui/images/images_model.h"

#include <QBuffer>
#include <QIcon>
#include <QLocale>
#include <QPixmap>

namespace ui {
namespace {
constexpr int kThumb = 64;
}

ImagesModel::ImagesModel(QObject* parent) : QAbstractListModel(parent) {}

int ImagesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(images_.size());
}

QVariant ImagesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const size_t r = size_t(index.row());
    const core::ImageInput& image = images_[r];
    const QString source = QString::fromStdString(image.source);
    switch (role) {
        case Qt::DisplayRole: {
            const QString name = source.section(QLatin1Char('/'), -1);
            return tr("%1 · %2").arg(index.row() + 1).arg(name.isEmpty() ? source : name);
        }
        case Qt::DecorationRole:
            return QIcon(QPixmap::fromImage(thumbnails_[r]));
        case Qt::ToolTipRole:
            return tr("%1\n%2, %3×%4 pixels, %5 KiB")
                .arg(source, QString::fromStdString(image.mime))
                .arg(sizes_[r].width())
                .arg(sizes_[r].height())
                .arg(QLocale().toString(double(image.bytes.size()) / 1024.0, 'f', 1));
        case Qt::AccessibleTextRole:
            return tr("image %1: %2").arg(index.row() + 1).arg(source);
        case SourceRole:
            return source;
        case MimeRole:
            return QString::fromStdString(image.mime);
        case BytesRole:
            return QByteArray::fromStdString(image.bytes);
        case PixelSizeRole:
            return sizes_[r];
    }
    return {};
}

bool ImagesModel::add(core::ImageInput image, QString* error) {
    if (int(images_.size()) >= core::kMaxImages) {
        if (error)
            *error = tr("%1: a decision takes at most %2 images")
                         .arg(QString::fromStdString(image.source))
                         .arg(core::kMaxImages);
        return false;
    }
    // The bytes passed the format checks; Qt decodes them for the thumbnail (and says so when
    // it cannot, e.g. WebP without Qt's image-format plugins).
    QImage decoded;
    decoded.loadFromData(reinterpret_cast<const uchar*>(image.bytes.data()),
                         int(image.bytes.size()));
    QImage thumb = decoded.isNull() ? QImage(kThumb, kThumb, QImage::Format_RGB32)
                                    : decoded.scaled(kThumb, kThumb, Qt::KeepAspectRatio,
                                                     Qt::SmoothTransformation);
    if (decoded.isNull()) thumb.fill(Qt::gray);
    const int row = int(images_.size());
    beginInsertRows({}, row, row);
    sizes_.push_back(decoded.size());
    thumbnails_.push_back(std::move(thumb));
    images_.push_back(std::move(image));
    endInsertRows();
    Q_EMIT imagesChanged();
    return true;
}

bool ImagesModel::addReference(const QString& path_or_url, QString* error) {
    auto image = core::load_image(path_or_url.toStdString());
    if (!image) {
        if (error) *error = QString::fromStdString(image.error().message);
        return false;
    }
    return add(std::move(*image), error);
}

bool ImagesModel::addBytes(std::string bytes, const QString& source, QString* error) {
    auto image = core::image_from_bytes(std::move(bytes), source.toStdString());
    if (!image) {
        if (error) *error = QString::fromStdString(image.error().message);
        return false;
    }
    return add(std::move(*image), error);
}

bool ImagesModel::addImage(const QImage& image, const QString& source, QString* error) {
    // A pasted picture has no file: it is sent as PNG.
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG")) {
        if (error) *error = tr("%1: the pasted picture could not be encoded").arg(source);
        return false;
    }
    return addBytes(png.toStdString(), source, error);
}

void ImagesModel::remove(int row) {
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    images_.erase(images_.begin() + row);
    thumbnails_.erase(thumbnails_.begin() + row);
    sizes_.erase(sizes_.begin() + row);
    endRemoveRows();
    Q_EMIT imagesChanged();
}

void ImagesModel::move(int from, int to) {
    if (from < 0 || from >= rowCount() || to < 0 || to >= rowCount() || from == to) return;
    beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    auto shift = [&](auto& v) {
        auto item = std::move(v[size_t(from)]);
        v.erase(v.begin() + from);
        v.insert(v.begin() + to, std::move(item));
    };
    shift(images_);
    shift(thumbnails_);
    shift(sizes_);
    endMoveRows();
    Q_EMIT imagesChanged();
}

void ImagesModel::clear() {
    if (images_.empty()) return;
    beginResetModel();
    images_.clear();
    thumbnails_.clear();
    sizes_.clear();
    endResetModel();
    Q_EMIT imagesChanged();
}

}  // namespace ui
