#include <QApplication>

#include "charts/qt_chart.h"

namespace charts {

bool ensure_application() {
    if (auto* app = QCoreApplication::instance()) return qobject_cast<QApplication*>(app);
    // dgem draws charts and pages without a display and never shows a window: the offscreen
    // platform always, whatever QT_QPA_PLATFORM names (a display it names may not be there).
    static int argc = 3;
    static char name[] = "dgem", flag[] = "-platform", platform[] = "offscreen";
    static char* argv[] = {name, flag, platform, nullptr};
    static QApplication* app = new QApplication(argc, argv);  // lives for the process
    return app != nullptr;
}

}  // namespace charts
