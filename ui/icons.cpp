// Icons (see icons.h).
#include "ui/icons.h"

namespace ui {

QIcon applicationIcon() {
    return QIcon(QStringLiteral(":/icons/io.decisionstudio.DecisionStudio.svg"));
}

QString actionIconThemeName(ActionIcon which) {
    switch (which) {
        case ActionIcon::Run:
            return QStringLiteral("media-playback-start");
        case ActionIcon::Compare:
            // Not in the freedesktop naming specification; KDE's Breeze and others name it so.
            return QStringLiteral("view-split-left-right");
        case ActionIcon::Cancel:
            return QStringLiteral("process-stop");
        case ActionIcon::Undo:
            return QStringLiteral("edit-undo");
        case ActionIcon::Redo:
            return QStringLiteral("edit-redo");
        case ActionIcon::Save:
            return QStringLiteral("document-save");
    }
    return {};
}

QString actionIconFallbackPath(ActionIcon which) {
    switch (which) {
        case ActionIcon::Run:
            return QStringLiteral(":/icons/actions/run.svg");
        case ActionIcon::Compare:
            return QStringLiteral(":/icons/actions/compare.svg");
        case ActionIcon::Cancel:
            return QStringLiteral(":/icons/actions/cancel.svg");
        case ActionIcon::Undo:
            return QStringLiteral(":/icons/actions/undo.svg");
        case ActionIcon::Redo:
            return QStringLiteral(":/icons/actions/redo.svg");
        case ActionIcon::Save:
            return QStringLiteral(":/icons/actions/save.svg");
    }
    return {};
}

QIcon actionIcon(ActionIcon which) {
    return QIcon::fromTheme(actionIconThemeName(which), QIcon(actionIconFallbackPath(which)));
}

}  // namespace ui
