// Decision Studio: the desktop application. Opens on the support-triage policy and the local
// tiny model (DS_DEFAULT_MODEL_DIR) the first time; later, where the user left off.
#include <QApplication>
#include <QCommandLineParser>

#include "ui/main_window.h"
#include "ui/theme.h"

#ifndef DS_DEFAULT_MODEL_DIR
#define DS_DEFAULT_MODEL_DIR ""
#endif
#ifndef DS_TOKENIZER_JSON
#define DS_TOKENIZER_JSON ""
#endif

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("decision-studio"));
    QApplication::setOrganizationName(QStringLiteral("decision-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Decision Studio"));
    QApplication::setApplicationVersion(QStringLiteral(DS_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("decision-studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Single-pass structured decisions with DiffusionGemma"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use the dark palette."));
    QCommandLineOption light(QStringLiteral("light"), QStringLiteral("Use the light palette."));
    QCommandLineOption policy(QStringLiteral("policy"), QStringLiteral("Open this policy (name)."),
                              QStringLiteral("NAME"));
    parser.addOptions({dark, light, policy});
    parser.process(app);

    const QString theme = qEnvironmentVariable("DS_THEME");
    if (parser.isSet(dark) || theme == QLatin1String("dark"))
        ui::applyTheme(app, true);
    else if (parser.isSet(light) || theme == QLatin1String("light"))
        ui::applyTheme(app, false);

    ui::MainWindowOptions options;
    options.default_model_dir = QStringLiteral(DS_DEFAULT_MODEL_DIR);
    options.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
    options.bench.jevbench_dir = QStringLiteral(DS_JEVBENCH_DIR);
    options.bench.suites_dir = QStringLiteral(DS_SUITES_DIR);
    ui::MainWindow window(options);
    if (parser.isSet(policy)) window.openPolicyByName(parser.value(policy));
    window.show();
    return app.exec();
}
