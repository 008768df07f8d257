#pragma once
// The images a decision is about (several: video frames), in order: each one checked by
// core/images/images.h when it is added (PNG, JPEG or WebP, complete, within the size limit), with
// a thumbnail for the views. What the run sends as DecideRequest::images.

#include <QAbstractListModel>
#include <QImage>
#include <vector>

#include "core/images/images.h"

namespace ui {

class ImagesModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Roles { SourceRole = Qt::UserRole + 1, MimeRole, BytesRole, PixelSizeRole };
    explicit ImagesModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

    // Each adds at the end; false with `error` set (the file or URL and what is accepted).
    bool addReference(const QString& path_or_url, QString* error);
    bool addBytes(std::string bytes, const QString& source, QString* error);
    bool addImage(const QImage& image, const QString& source, QString* error);  // a paste
    void remove(int row);
    void move(int from, int to);
    void clear();

    const std::vector<core::ImageInput>& images() const { return images_; }

  Q_SIGNALS:
    void imagesChanged();

  private:
    bool add(core::ImageInput image, QString* error);
    std::vector<core::ImageInput> images_;
    std::vector<QImage> thumbnails_;
    std::vector<QSize> sizes_;
};

}  // namespace ui
