#pragma once
// The images strip under the variables: thumbnails of the decision's images in order, added by
// dropping files (or image data) on it, pasting (Ctrl+V: a picture, a file or a URL), or the
// Add button's file picker; Delete or Remove takes the selected one out. A refused image says
// why below the strip and is not added.

#include <QWidget>

class QLabel;
class QListView;
class QMimeData;

namespace ui {

class ImagesModel;

class ImagesPanel : public QWidget {
    Q_OBJECT
  public:
    ImagesPanel(ImagesModel* model, QWidget* parent = nullptr);
    QListView* view() const { return view_; }
    QLabel* message() const { return message_; }
    // What a drop or a paste carries (files, URLs, image data), added in order.
    bool addFromMime(const QMimeData* mime);
    void paste();

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void report(const QStringList& errors);
    ImagesModel* model_;
    QListView* view_;
    QLabel* message_;
};

}  // namespace ui
