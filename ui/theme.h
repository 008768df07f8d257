#pragma once
// Light and dark palettes for the Fusion style. Views take their colours from palette roles, so
// switching the palette is all a theme needs.

class QApplication;
class QPalette;

namespace ui {

QPalette darkPalette();
QPalette lightPalette();
// "--dark" / "--light" on the command line, or DS_THEME=dark|light; otherwise the system's.
void applyTheme(QApplication& app, bool dark);

}  // namespace ui
