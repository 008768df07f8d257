// Decision Studio: the desktop application. Opens on the support-triage policy and the local
// demo model (DS_DEFAULT_MODEL_DIR, the tiny model where models/demo holds no weights, or an
// installed package's own, see data_paths.h) the first time; later, where the user left off.
// DS_QUIT_AFTER_SHOW=MS closes the window MS milliseconds after it is shown (0 when empty), so a
// test can check that the Studio opens and closes.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "data_paths.h"
#include "ui/i18n/translations.h"
#include "ui/icons.h"
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
    QApplication::setDesktopFileName(QStringLiteral("io.decisionstudio.DecisionStudio"));
    QApplication::setWindowIcon(ui::applicationIcon());

    // The language before any text: --lang, else the system locale (LANG, LC_MESSAGES, ...).
    ui::i18n::Translations translations;
    const QString lang_argument = ui::i18n::languageArgument(QCoreApplication::arguments());
    translations.install(lang_argument);

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Single-pass structured decisions with DiffusionGemma"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption dark(QStringLiteral("dark"),
                            QCoreApplication::translate("main", "Use the dark palette."));
    QCommandLineOption light(QStringLiteral("light"),
                             QCoreApplication::translate("main", "Use the light palette."));
    QCommandLineOption policy(QStringLiteral("policy"),
                              QCoreApplication::translate("main", "Open this policy (name)."),
                              QCoreApplication::translate("main", "NAME"));
    QCommandLineOption lang(
        QStringLiteral("lang"),
        QCoreApplication::translate("main",
                                    "Show the Studio in this language: de, ja or en (default: the "
                                    "system locale's)."),
        QCoreApplication::translate("main", "LANG"));
    parser.addOptions({dark, light, policy, lang});
    parser.process(app);
    if (!lang_argument.isEmpty() &&
        ui::i18n::resolveLanguage(lang_argument) != lang_argument.left(2).toLower())
        qWarning("decision-studio: no %s translation; showing English", qPrintable(lang_argument));

    const QString theme = qEnvironmentVariable("DS_THEME");
    if (parser.isSet(dark) || theme == QLatin1String("dark"))
        ui::applyTheme(app, true);
    else if (parser.isSet(light) || theme == QLatin1String("light"))
        ui::applyTheme(app, false);

    ui::MainWindowOptions options;
    options.default_model_dir = QString::fromStdString(app_paths::default_model_dir());
    options.fallback_tokenizer_json = QString::fromStdString(app_paths::tokenizer_json());
    options.bench.jevbench_dir = QString::fromStdString(app_paths::jevbench_dir());
    options.bench.suites_dir = QString::fromStdString(app_paths::suites_dir());
    ui::MainWindow window(options);
    if (parser.isSet(policy)) window.openPolicyByName(parser.value(policy));
    window.show();
    if (qEnvironmentVariableIsSet("DS_QUIT_AFTER_SHOW")) {
        const int ms = qMax(0, qEnvironmentVariableIntValue("DS_QUIT_AFTER_SHOW"));
        QTimer::singleShot(ms, &window, [&window] {
            std::fprintf(stderr, "decision-studio: shown, closing (DS_QUIT_AFTER_SHOW)\n");
            window.close();
        });
    }
    return app.exec();
}
