#pragma once
// Accessibility for widgets that paint their items (a card's bars, the canvas's token chips)
// instead of holding child widgets: the widget implements PaintedItems, and its accessible
// interface gets one child per painted item, so a screen reader can walk the items and read
// each one's name, value and description.

#include <QAccessible>
#include <QRect>
#include <QString>

namespace ui {

class PaintedItems {
  public:
    virtual ~PaintedItems() = default;
    virtual int accessibleItemCount() const = 0;
    // Name, Description or Value of one item.
    virtual QString accessibleItemText(int item, QAccessible::Text text) const = 0;
    virtual QRect accessibleItemRect(int item) const = 0;  // widget coordinates
    virtual QAccessible::Role accessibleItemRole(int item) const = 0;
    virtual bool accessibleItemFocused(int) const { return false; }
    // The widget's own role.
    virtual QAccessible::Role accessibleRole() const { return QAccessible::Grouping; }
};

// Makes every PaintedItems widget accessible that way (idempotent; call from its constructor).
void installPaintedItemsAccessibility();

// Tells assistive technology that the focused item of `widget` is now `item`.
void notifyPaintedItemFocus(QObject* widget, int item);

}  // namespace ui
