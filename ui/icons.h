// Icons: the application icon and the toolbar actions' icons. An action's icon comes from the
// desktop's icon theme by its freedesktop name (media-playback-start, process-stop, edit-undo,
// ...) and falls back to the SVG bundled in resources/icons (:/icons/actions/...), so the
// toolbar has icons on every desktop, and on none (offscreen, a bare window manager).
#pragma once

#include <QIcon>
#include <QString>

namespace ui {

enum class ActionIcon { Run, Compare, Cancel, Undo, Redo, Save };

// The application icon, :/icons/io.decisionstudio.DecisionStudio.svg (the same file is
// installed to share/icons/hicolor/scalable/apps under the application id).
QIcon applicationIcon();

// The theme's icon for `which`, or the bundled fallback where the theme has none.
QIcon actionIcon(ActionIcon which);

// The freedesktop icon name looked up in the theme, and the bundled fallback's resource path.
QString actionIconThemeName(ActionIcon which);
QString actionIconFallbackPath(ActionIcon which);

}  // namespace ui
