// Accessible interfaces for painted items (see painted_items.h).
#include "ui/accessibility/painted_items.h"

#include <QAccessibleWidget>
#include <QWidget>
#include <mutex>

namespace ui {
namespace {

class PaintedItemsAccessible;

// One painted item: no QObject of its own; it asks the widget for everything.
class ItemAccessible : public QAccessibleInterface {
  public:
    ItemAccessible(PaintedItemsAccessible* parent, int item) : parent_(parent), item_(item) {}
    bool isValid() const override;
    QObject* object() const override { return nullptr; }
    QWindow* window() const override;
    QAccessibleInterface* parent() const override;
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QAccessible::Role role() const override;
    QAccessible::State state() const override;
    QString text(QAccessible::Text t) const override;
    void setText(QAccessible::Text, const QString&) override {}
    QRect rect() const override;

  private:
    PaintedItemsAccessible* parent_;
    int item_;
};

class PaintedItemsAccessible : public QAccessibleWidget {
  public:
    PaintedItemsAccessible(QWidget* widget, const PaintedItems* items)
        : QAccessibleWidget(widget, items->accessibleRole()), items_(items) {}
    ~PaintedItemsAccessible() override {
        for (QAccessible::Id id : child_ids_) QAccessible::deleteAccessibleInterface(id);
    }
    const PaintedItems* items() const { return items_; }
    QWidget* painter() const { return widget(); }

    int childCount() const override { return items_->accessibleItemCount(); }
    QAccessibleInterface* child(int i) const override {
        if (i < 0 || i >= childCount()) return nullptr;
        // Created on first use and kept (assistive technology holds on to their ids).
        while (child_ids_.size() <= i)
            child_ids_.append(QAccessible::registerAccessibleInterface(new ItemAccessible(
                const_cast<PaintedItemsAccessible*>(this), int(child_ids_.size()))));
        return QAccessible::accessibleInterface(child_ids_[i]);
    }
    int indexOfChild(const QAccessibleInterface* c) const override {
        for (int i = 0; i < child_ids_.size(); ++i)
            if (QAccessible::accessibleInterface(child_ids_[i]) == c) return i;
        return -1;
    }
    QAccessibleInterface* childAt(int x, int y) const override {
        const QPoint local = widget()->mapFromGlobal(QPoint(x, y));
        for (int i = 0; i < childCount(); ++i)
            if (items_->accessibleItemRect(i).contains(local)) return child(i);
        return nullptr;
    }
    QAccessibleInterface* focusChild() const override {
        for (int i = 0; i < childCount(); ++i)
            if (items_->accessibleItemFocused(i)) return child(i);
        return nullptr;
    }

  private:
    const PaintedItems* items_;
    mutable QList<QAccessible::Id> child_ids_;
};

bool ItemAccessible::isValid() const {
    return parent_->isValid() && item_ < parent_->items()->accessibleItemCount();
}
QWindow* ItemAccessible::window() const {
    return parent_->window();
}
QAccessibleInterface* ItemAccessible::parent() const {
    return parent_;
}
QAccessible::Role ItemAccessible::role() const {
    return parent_->items()->accessibleItemRole(item_);
}
QAccessible::State ItemAccessible::state() const {
    QAccessible::State s;
    s.readOnly = true;
    s.focusable = true;
    s.focused = parent_->items()->accessibleItemFocused(item_);
    return s;
}
QString ItemAccessible::text(QAccessible::Text t) const {
    return parent_->items()->accessibleItemText(item_, t);
}
QRect ItemAccessible::rect() const {
    const QRect r = parent_->items()->accessibleItemRect(item_);
    return QRect(parent_->painter()->mapToGlobal(r.topLeft()), r.size());
}

QAccessibleInterface* factory(const QString&, QObject* object) {
    if (!object || !object->isWidgetType()) return nullptr;
    if (auto* items = dynamic_cast<const PaintedItems*>(object))
        return new PaintedItemsAccessible(static_cast<QWidget*>(object), items);
    return nullptr;
}

}  // namespace

void installPaintedItemsAccessibility() {
    static std::once_flag installed;
    std::call_once(installed, [] { QAccessible::installFactory(factory); });
}

void notifyPaintedItemFocus(QObject* widget, int item) {
    if (!QAccessible::isActive()) return;
    QAccessibleEvent event(widget, QAccessible::Focus);
    event.setChild(item);
    QAccessible::updateAccessibility(&event);
}

}  // namespace ui
