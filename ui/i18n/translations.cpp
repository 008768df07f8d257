// Language choice and translator loading (see translations.h).
#include "ui/i18n/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace ui::i18n {
namespace {
// "de_DE", "de-DE", "DE" -> "de".
QString language_part(const QString& code) {
    return code.section(QLatin1Char('-'), 0, 0).section(QLatin1Char('_'), 0, 0).toLower();
}
}  // namespace

QStringList availableLanguages() {
    return {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("ja")};
}

QString languageArgument(const QStringList& arguments) {
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString& a = arguments[i];
        if (a == QLatin1String("--")) break;
        if ((a == QLatin1String("--lang") || a == QLatin1String("-lang")) &&
            i + 1 < arguments.size())
            return arguments[i + 1];
        if (a.startsWith(QLatin1String("--lang="))) return a.mid(7);
    }
    return {};
}

QString resolveLanguage(const QString& requested, const QLocale& system) {
    const QStringList shipped = availableLanguages();
    if (!requested.isEmpty()) {
        const QString lang = language_part(requested);
        return shipped.contains(lang) ? lang : QStringLiteral("en");
    }
    for (const QString& ui_language : system.uiLanguages()) {
        const QString lang = language_part(ui_language);
        if (shipped.contains(lang)) return lang;
    }
    return QStringLiteral("en");
}

Translations::Translations() = default;

Translations::~Translations() {
    remove();
}

void Translations::remove() {
    for (auto& t : installed_) QCoreApplication::removeTranslator(t.get());
    installed_.clear();
    studio_loaded_ = qt_loaded_ = false;
}

QString Translations::install(const QString& requested) {
    remove();
    const QLocale system = QLocale::system();
    language_ = resolveLanguage(requested, system);
    // Numbers and dates: the system's conventions when the language is the system's (de_AT keeps
    // its own), an explicit region's (--lang de_CH), else those of the language chosen.
    QLocale locale = system;
    if (!requested.isEmpty()) {
        if (requested.contains(QLatin1Char('_')) || requested.contains(QLatin1Char('-')))
            locale = QLocale(requested);
        else if (language_part(system.name()) != language_)
            locale = QLocale(language_);
    }
    if (language_part(locale.name()) != language_ && language_ != QLatin1String("en"))
        locale = QLocale(language_);  // --lang de_XX that names no locale
    QLocale::setDefault(locale);

    // English loads its plural forms only (the sources are English).
    auto studio = std::make_unique<QTranslator>();
    if (studio->load(QStringLiteral(":/i18n/decision-studio_") + language_ +
                     QStringLiteral(".qm"))) {
        QCoreApplication::installTranslator(studio.get());
        installed_.push_back(std::move(studio));
        studio_loaded_ = language_ != QLatin1String("en");
    }
    if (language_ == QLatin1String("en")) return language_;
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_") + language_,
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        installed_.push_back(std::move(qt));
        qt_loaded_ = true;
    }
    return language_;
}

}  // namespace ui::i18n
