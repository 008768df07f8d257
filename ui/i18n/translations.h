#pragma once
// The Studio's languages: which one to show (--lang, else the system locale) and the
// translators that show it: the Studio's own catalogue, built by lrelease and embedded as
// :/i18n/decision-studio_<lang>.qm, and Qt's qtbase_<lang>.qm from the system's Qt
// translations folder where it is installed (standard dialog buttons). English is the source
// language and needs no catalogue. See translations/README.md.

#include <QLocale>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

class QTranslator;

namespace ui::i18n {

// The languages the Studio ships: "en" (the source language), "de", "ja".
QStringList availableLanguages();

// The value of --lang in a command line (`--lang de` or `--lang=de`); empty when absent.
// Read before any widget exists, so the first window is already translated.
QString languageArgument(const QStringList& arguments);

// The shipped language for a request: "de", "de_AT", "ja-JP", "en", ... pick that language;
// an empty request takes the first of the locale's UI languages (LANGUAGE, LC_ALL, LC_MESSAGES,
// LANG on Unix) the Studio ships. "en" when none matches (also for "C" and unknown codes).
QString resolveLanguage(const QString& requested, const QLocale& system = QLocale::system());

// The translators of one language, installed on the application while this object lives.
class Translations {
  public:
    Translations();
    ~Translations();  // removes its translators
    Translations(const Translations&) = delete;
    Translations& operator=(const Translations&) = delete;

    // Installs the translators for `requested` (see resolveLanguage), replacing those of an
    // earlier call, and makes the language's locale the default one (QLocale::setDefault), so
    // QLocale() formats numbers and dates to match: the system locale when the language came
    // from it, else the language's own (de_DE, ja_JP, en_US). Returns the language shown.
    QString install(const QString& requested);

    QString language() const { return language_; }
    // Whether the Studio's catalogue and Qt's own were found (English needs neither).
    bool studioLoaded() const { return studio_loaded_; }
    bool qtLoaded() const { return qt_loaded_; }

  private:
    void remove();
    std::vector<std::unique_ptr<QTranslator>> installed_;
    QString language_ = QStringLiteral("en");
    bool studio_loaded_ = false;
    bool qt_loaded_ = false;
};

}  // namespace ui::i18n
