// The Studio in German and Japanese. The .ts sources: every message finished, with the source's
// placeholders and accelerators, and exactly the strings lupdate extracts from the code now
// (scripts/update-translations.sh --extract), so a new tr() string without a translation fails
// here. The built .qm files are embedded. The main window, with the translators the real module
// (ui/i18n/translations.h) installs for --lang or for the system locale (LANG, set per ctest
// entry in extra.cmake), shows translated menus, unique accelerators per menu and no English
// source text that has a translation, on any widget, action, tooltip, header or placeholder,
// nor do the Bench, Compare, Endpoints and Export report windows it opens; numbers follow the
// locale; --lang en stays English. systemLocale also saves
// main-window-<lang>.png (1600x950, after a run on the tiny model) for a person to look at.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractProxyModel>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>
#include <QToolBar>
#include <QTranslator>
#include <QXmlStreamReader>

#include "ui/bench/bench_window.h"
#include "ui/compare/compare_window.h"
#include "ui/endpoints/endpoints_dialog.h"
#include "ui/i18n/format.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "ui/reports/export_report_dialog.h"
#include "ui_test_support.h"

#ifndef DS_LUPDATE
#define DS_LUPDATE ""
#endif

namespace {

struct TsMessage {
    QString context, source, comment;
    bool numerus = false;
    QString type;       // the translation's type attribute: "", unfinished, vanished, obsolete
    QStringList forms;  // the translation, or its numerus forms
};

struct TsFile {
    QString language;
    QList<TsMessage> messages;
    QString error;
};

TsFile readTs(const QString& path) {
    TsFile ts;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ts.error = QStringLiteral("cannot open ") + path;
        return ts;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            ts.language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            message = TsMessage{};
            message.context = context;
            message.numerus =
                xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (name == QLatin1String("source")) {
            message.source = xml.readElementText();
        } else if (name == QLatin1String("comment")) {
            message.comment = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            message.type = xml.attributes().value(QLatin1String("type")).toString();
            if (message.numerus) {
                while (xml.readNextStartElement()) {
                    if (xml.name() == QLatin1String("numerusform"))
                        message.forms << xml.readElementText();
                    else
                        xml.skipCurrentElement();
                }
            } else {
                message.forms << xml.readElementText();
            }
            ts.messages << message;
        }
    }
    if (xml.hasError()) ts.error = path + QStringLiteral(": ") + xml.errorString();
    return ts;
}

QString tsPath(const QString& lang) {
    return QStringLiteral(DS_SOURCE_DIR "/translations/decision-studio_%1.ts").arg(lang);
}

QString key(const TsMessage& m) {
    return m.context + QChar(0x1f) + m.source + QChar(0x1f) + m.comment +
           (m.numerus ? QStringLiteral(" [n]") : QString());
}

// %1..%99 (and %L1) as a sorted list; %n separately.
QStringList placeholders(const QString& text) {
    static const QRegularExpression re(QStringLiteral("%L?(\\d{1,2})"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();) out << it.next().captured(1);
    out.sort();
    out.removeDuplicates();
    return out;
}

// The accelerator letter of a text ("&Policy" -> "p", "ポリシー(&P)" -> "p"), "&&" and
// HTML entities aside; empty when none.
QString accelerator(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&')) continue;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        static const QRegularExpression entity(QStringLiteral("^&[a-z]+;"));
        if (entity.match(text.mid(i)).hasMatch()) continue;
        return text.mid(i + 1, 1).toLower();
    }
    return {};
}

int acceleratorCount(const QString& text) {
    static const QRegularExpression entity(QStringLiteral("^&[a-z]+;"));
    int n = 0;
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&')) continue;
        if (text[i + 1] == QLatin1Char('&'))
            ++i;
        else if (!entity.match(text.mid(i)).hasMatch())
            ++n;
    }
    return n;
}

// One text the window shows, and where it comes from: an item view's cells hold the policy's
// own data too (a variable's value "auto"), so they are only compared with the sources of
// their model's own context (the one its tr() calls use); everything else with all sources.
struct Shown {
    QString text;
    QString context;  // empty: any
};

QString modelContext(const QAbstractItemModel* m) {
    while (auto* proxy = qobject_cast<const QAbstractProxyModel*>(m))
        if (proxy->sourceModel())
            m = proxy->sourceModel();
        else
            break;
    return QString::fromLatin1(m->metaObject()->className());
}

// Every text the window shows or says: widgets' texts, titles, tooltips, placeholders,
// accessible names, menus and actions (menu bar, tool bar, context actions), tab texts, combo
// box items, spin box affixes, item views' headers and cells, the status bar.
QList<Shown> shownTexts(QWidget& window) {
    QList<Shown> texts{{window.windowTitle(), {}}};
    if (auto* main = qobject_cast<QMainWindow*>(&window))
        texts << Shown{main->statusBar()->currentMessage(), {}};
    const auto add = [&texts](const QString& t, const QString& context = {}) {
        if (!t.trimmed().isEmpty()) texts << Shown{t, context};
    };
    for (QWidget* w : window.findChildren<QWidget*>()) {
        add(w->toolTip());
        add(w->statusTip());
        add(w->whatsThis());
        add(w->accessibleName());
        add(w->accessibleDescription());
        add(w->windowTitle());
        if (auto* l = qobject_cast<QLabel*>(w)) add(l->text());
        if (auto* b = qobject_cast<QAbstractButton*>(w)) add(b->text());
        if (auto* g = qobject_cast<QGroupBox*>(w)) add(g->title());
        if (auto* e = qobject_cast<QLineEdit*>(w)) add(e->placeholderText());
        if (auto* e = qobject_cast<QPlainTextEdit*>(w)) add(e->placeholderText());
        if (auto* e = qobject_cast<QTextEdit*>(w)) add(e->placeholderText());
        if (auto* m = qobject_cast<QMenu*>(w)) add(m->title());
        if (auto* t = qobject_cast<QTabWidget*>(w))
            for (int i = 0; i < t->count(); ++i) {
                add(t->tabText(i));
                add(t->tabToolTip(i));
            }
        if (auto* c = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < c->count(); ++i) add(c->itemText(i));
        if (auto* s = qobject_cast<QSpinBox*>(w)) {
            add(s->prefix());
            add(s->suffix());
            add(s->specialValueText());
        }
        if (auto* v = qobject_cast<QAbstractItemView*>(w); v && v->model()) {
            const QAbstractItemModel* m = v->model();
            const QString context = modelContext(m);
            for (int c = 0; c < m->columnCount(); ++c) {
                add(m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
                add(m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
            }
            for (int r = 0; r < m->rowCount(); ++r)
                for (int c = 0; c < m->columnCount(); ++c) {
                    add(m->index(r, c).data(Qt::DisplayRole).toString(), context);
                    add(m->index(r, c).data(Qt::ToolTipRole).toString(), context);
                }
        }
    }
    for (QAction* a : window.findChildren<QAction*>()) {
        add(a->text());
        add(a->iconText());
        add(a->toolTip());
        add(a->statusTip());
        if (a->menu()) add(a->menu()->title());
    }
    return texts;
}

// A source's English as it shows once its placeholders are filled: "^Saved (.+)$".
std::optional<QRegularExpression> sourcePattern(const QString& source) {
    static const QRegularExpression ph(QStringLiteral("%(L?\\d{1,2}|n)"));
    QString literal = source;
    literal.remove(ph);
    static const QRegularExpression letters(QStringLiteral("[A-Za-z]{3,}"));
    if (!literal.contains(letters) || !source.contains(ph)) return std::nullopt;
    QString pattern;
    qsizetype at = 0;
    for (auto it = ph.globalMatch(source); it.hasNext();) {
        const auto m = it.next();
        pattern += QRegularExpression::escape(source.mid(at, m.capturedStart() - at)) +
                   QStringLiteral("(.*?)");
        at = m.capturedEnd();
    }
    pattern += QRegularExpression::escape(source.mid(at));
    return QRegularExpression(QStringLiteral("^") + pattern + QStringLiteral("$"),
                              QRegularExpression::DotMatchesEverythingOption);
}

}  // namespace

class TranslationsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ui::i18n::Translations translations_;

    // The translation of a source in one language's .ts ("" when absent).
    static QString translated(const TsFile& ts, const QString& context, const QString& source) {
        for (const auto& m : ts.messages)
            if (m.context == context && m.source == source && !m.forms.isEmpty())
                return m.forms.first();
        return {};
    }

    std::unique_ptr<ui::MainWindow> makeWindow() {
        ui::MainWindowOptions o;
        o.user_policy_dir = dir_.filePath(QStringLiteral("policies"));
        o.default_model_dir = QStringLiteral(DS_TINY_MODEL_DIR);
        o.fallback_tokenizer_json = QStringLiteral(DS_TOKENIZER_JSON);
        auto window = std::make_unique<ui::MainWindow>(o);
        window->resize(1600, 950);
        return window;
    }

    // The menus' accelerators are unique per menu (the menu bar's titles too).
    static void checkAccelerators(ui::MainWindow& window) {
        QList<QWidget*> menus{window.menuBar()};
        for (QMenu* m : window.findChildren<QMenu*>()) menus << m;
        for (QWidget* menu : menus) {
            QHash<QString, QString> seen;
            for (QAction* a : menu->actions()) {
                if (a->isSeparator()) continue;
                const QString text = a->menu() ? a->menu()->title() : a->text();
                const QString letter = accelerator(text);
                if (letter.isEmpty()) continue;
                QVERIFY2(!seen.contains(letter),
                         qPrintable(QStringLiteral("accelerator '%1' twice in one menu: %2, %3")
                                        .arg(letter, seen.value(letter), text)));
                seen.insert(letter, text);
            }
        }
    }

    // Nothing in the window shows an English source text whose translation differs, as it is
    // or with its placeholders filled in.
    // min_texts: how many texts at least the widget shows (a check that it saw them at all).
    static void checkNoEnglish(QWidget& window, const TsFile& ts, int min_texts) {
        struct Source {
            QString context, text;
            std::optional<QRegularExpression> pattern;
        };
        QList<Source> english;
        for (const auto& m : ts.messages) {
            if (m.forms.isEmpty() || m.forms.contains(m.source)) continue;
            english << Source{m.context, m.source, sourcePattern(m.source)};
        }
        QVERIFY(english.size() > 300);
        QStringList untranslated;
        const QList<Shown> texts = shownTexts(window);
        QVERIFY2(texts.size() >= min_texts, qPrintable(QString::number(texts.size())));
        for (const Shown& shown : texts) {
            for (const Source& source : english) {
                if (!shown.context.isEmpty() && shown.context != source.context) continue;
                if (shown.text == source.text) {
                    untranslated << shown.text;
                    break;
                }
                if (source.pattern && source.pattern->match(shown.text).hasMatch()) {
                    untranslated << shown.text + QStringLiteral("   ~ ") + source.text;
                    break;
                }
            }
        }
        untranslated.removeDuplicates();
        QVERIFY2(untranslated.isEmpty(), qPrintable(QStringLiteral("untranslated:\n  ") +
                                                    untranslated.join(QStringLiteral("\n  "))));
    }

    // The window in `lang` (de, ja): translated menus and no English left.
    void checkTranslatedWindow(const QString& lang, bool run, const QString& screenshot) {
        const TsFile ts = readTs(tsPath(lang));
        QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
        auto window = makeWindow();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        // The first menu is "&Policy" in that language; so are the others.
        const QList<QAction*> bar = window->menuBar()->actions();
        QVERIFY(bar.size() >= 4);
        const QString policy =
            translated(ts, QStringLiteral("ui::MainWindow"), QStringLiteral("&Policy"));
        QVERIFY(!policy.isEmpty() && policy != QLatin1String("&Policy"));
        QCOMPARE(bar.first()->menu()->title(), policy);
        QCOMPARE(bar.at(1)->menu()->title(),
                 translated(ts, QStringLiteral("ui::MainWindow"), QStringLiteral("&Edit")));
        QCOMPARE(bar.at(2)->menu()->title(),
                 translated(ts, QStringLiteral("ui::MainWindow"), QStringLiteral("&Run")));
        QCOMPARE(bar.at(3)->menu()->title(),
                 translated(ts, QStringLiteral("ui::MainWindow"), QStringLiteral("&View")));
        checkAccelerators(*window);
        if (QTest::currentTestFailed()) return;
        // With a decision shown: cards, timings and the history too.
        if (run && QFile::exists(QStringLiteral(DS_TINY_MODEL_DIR "/config.json"))) {
            QSignalSpy finished(window.get(), &ui::MainWindow::runFinished);
            QVERIFY(window->run());
            QVERIFY(finished.wait(300000));
            QVERIFY(finished.first().first().toBool());
            QApplication::processEvents();
        }
        checkNoEnglish(*window, ts, 100);
        if (QTest::currentTestFailed()) return;
        if (!screenshot.isEmpty()) {
            QString out = qEnvironmentVariable("DS_SCREENSHOT_DIR");
            if (out.isEmpty()) out = QStringLiteral(DS_BINARY_DIR "/screenshots");
            QDir().mkpath(out);
            const QImage image = window->grab().toImage();
            const QString path = out + QLatin1Char('/') + screenshot;
            QVERIFY(image.save(path));
            qInfo("saved %s (%dx%d)", qPrintable(path), image.width(), image.height());
            QCOMPARE(image.size() / image.devicePixelRatio(), QSize(1600, 950));
        }
        // The windows and dialogs it opens: Bench, Compare, Endpoints, Export report.
        checkNoEnglish(*window->showBench(), ts, 40);
        if (QTest::currentTestFailed()) return;
        checkNoEnglish(*window->showCompare(), ts, 25);
        if (QTest::currentTestFailed()) return;
        {
            ui::EndpointsDialog endpoints(ui_test::localStore(), window.get());
            checkNoEnglish(endpoints, ts, 25);
            if (QTest::currentTestFailed()) return;
        }
        if (ui::ExportReportDialog* report = window->exportReport()) {
            checkNoEnglish(*report, ts, 10);
            report->close();
            if (QTest::currentTestFailed()) return;
        }
    }

    // Numbers in the language's locale.
    static void checkNumbers(const QString& lang) {
        const QString nbsp(QChar(0x00a0));
        if (lang == QLatin1String("de")) {
            QCOMPARE(ui::formatNumber(1234.56, 1), QStringLiteral("1.234,6"));
            QCOMPARE(ui::formatPercent(0.918, 1), QStringLiteral("91,8") + nbsp + QLatin1Char('%'));
            QCOMPARE(ui::formatTime(QTime(14, 3, 22)), QStringLiteral("14:03:22"));
        } else if (lang == QLatin1String("ja")) {
            QCOMPARE(ui::formatNumber(1234.56, 1), QStringLiteral("1,234.6"));
            QCOMPARE(ui::formatPercent(0.918, 1), QStringLiteral("91.8%"));
            QCOMPARE(ui::formatTime(QTime(14, 3, 22)), QStringLiteral("14:03:22"));
        }
        QCOMPARE(ui::hesitationText(core::Hesitation::Clear),
                 QCoreApplication::translate("ui::Format", "Clear"));
    }

  private Q_SLOTS:
    void initTestCase() { ui_test::isolateSettings(dir_); }

    void tsFilesComplete_data() {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<int>("forms");  // numerus forms: German has two, Japanese one
        QTest::newRow("de") << QStringLiteral("de") << 2;
        QTest::newRow("ja") << QStringLiteral("ja") << 1;
        QTest::newRow("en (plural forms only)") << QStringLiteral("en") << 2;
    }

    void tsFilesComplete() {
        QFETCH(QString, lang);
        QFETCH(int, forms);
        const TsFile ts = readTs(tsPath(lang));
        QVERIFY2(ts.error.isEmpty(), qPrintable(ts.error));
        QCOMPARE(ts.language, lang);
        QVERIFY(ts.messages.size() > (lang == QLatin1String("en") ? 10 : 300));
        QStringList problems;
        for (const auto& m : ts.messages) {
            const QString where = m.context + QStringLiteral(" \"") + m.source + QLatin1Char('"');
            if (!m.type.isEmpty()) problems << where + QStringLiteral(": type=") + m.type;
            if (m.forms.size() != (m.numerus ? forms : 1))
                problems << where + QStringLiteral(": %1 forms").arg(m.forms.size());
            for (const QString& f : m.forms) {
                if (f.trimmed().isEmpty() && !m.source.trimmed().isEmpty())
                    problems << where + QStringLiteral(": empty translation");
                if (placeholders(f) != placeholders(m.source))
                    problems << where + QStringLiteral(": placeholders %1 in \"%2\"")
                                            .arg(placeholders(f).join(QLatin1Char(',')), f);
                if (m.numerus && !f.contains(QLatin1String("%n")))
                    problems << where + QStringLiteral(": no %n in \"%1\"").arg(f);
                if (acceleratorCount(f) != acceleratorCount(m.source))
                    problems << where + QStringLiteral(": accelerators in \"%1\"").arg(f);
                if (lang == QLatin1String("ja") && !accelerator(f).isEmpty() &&
                    !f.contains(QStringLiteral("(&") + accelerator(f).toUpper() + QLatin1Char(')')))
                    problems << where + QStringLiteral(": not a (&X) accelerator: \"%1\"").arg(f);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The .ts files hold exactly what lupdate finds in the sources now.
    void tsMatchesSources() {
        QTemporaryDir tmp;
        const QString extracted = tmp.filePath(QStringLiteral("extracted.ts"));
        QProcess lupdate;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!QString::fromUtf8(DS_LUPDATE).isEmpty())
            env.insert(QStringLiteral("LUPDATE"), QStringLiteral(DS_LUPDATE));
        lupdate.setProcessEnvironment(env);
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral("bash"),
                      {QStringLiteral(DS_SOURCE_DIR "/scripts/update-translations.sh"),
                       QStringLiteral("--extract"), extracted});
        QVERIFY(lupdate.waitForFinished(120000));
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());
        const TsFile fresh = readTs(extracted);
        QVERIFY2(fresh.error.isEmpty(), qPrintable(fresh.error));
        QSet<QString> code;
        for (const auto& m : fresh.messages) code.insert(key(m));
        QVERIFY(code.size() > 300);
        for (const QString& lang : {QStringLiteral("de"), QStringLiteral("ja")}) {
            const TsFile ts = readTs(tsPath(lang));
            QSet<QString> have;
            for (const auto& m : ts.messages) have.insert(key(m));
            QStringList missing = (code - have).values(), stale = (have - code).values();
            missing.sort();
            stale.sort();
            const auto show = [](QStringList l) {
                return l.replaceInStrings(QChar(0x1f), QStringLiteral(" | "))
                    .join(QLatin1Char('\n'));
            };
            QVERIFY2(missing.isEmpty(),
                     qPrintable(lang +
                                QStringLiteral(": not in the .ts (run "
                                               "scripts/update-translations.sh and "
                                               "translate):\n") +
                                show(missing)));
            QVERIFY2(stale.isEmpty(),
                     qPrintable(lang + QStringLiteral(": no longer in the code:\n") + show(stale)));
        }
        // English: exactly the plural messages.
        QSet<QString> plural_code, plural_en;
        for (const auto& m : fresh.messages)
            if (m.numerus) plural_code.insert(key(m));
        for (const auto& m : readTs(tsPath(QStringLiteral("en"))).messages)
            plural_en.insert(key(m));
        QVERIFY(!plural_code.isEmpty());
        QCOMPARE(plural_en, plural_code);
    }

    // lrelease's output is in the binary, and says what the .ts says.
    void catalogsEmbedded() {
        for (const QString& lang : {QStringLiteral("de"), QStringLiteral("ja")}) {
            const QString qm = QStringLiteral(":/i18n/decision-studio_%1.qm").arg(lang);
            QVERIFY2(QFile::exists(qm), qPrintable(qm));
            QTranslator t;
            QVERIFY(t.load(qm));
            QCOMPARE(t.language(), lang);
            const TsFile ts = readTs(tsPath(lang));
            int checked = 0;
            for (const auto& m : ts.messages) {
                if (m.numerus) continue;
                QCOMPARE(
                    t.translate(m.context.toUtf8().constData(), m.source.toUtf8().constData(),
                                m.comment.isEmpty() ? nullptr : m.comment.toUtf8().constData()),
                    m.forms.first());
                ++checked;
            }
            QVERIFY(checked > 300);
        }
    }

    void languageChoice() {
        using ui::i18n::languageArgument;
        using ui::i18n::resolveLanguage;
        QCOMPARE(languageArgument(
                     {QStringLiteral("app"), QStringLiteral("--lang"), QStringLiteral("ja")}),
                 QStringLiteral("ja"));
        QCOMPARE(languageArgument({QStringLiteral("app"), QStringLiteral("--lang=de")}),
                 QStringLiteral("de"));
        QCOMPARE(languageArgument({QStringLiteral("app"), QStringLiteral("--dark")}), QString());
        QCOMPARE(resolveLanguage(QStringLiteral("de_AT")), QStringLiteral("de"));
        QCOMPARE(resolveLanguage(QStringLiteral("ja-JP")), QStringLiteral("ja"));
        QCOMPARE(resolveLanguage(QStringLiteral("fr")), QStringLiteral("en"));
        QCOMPARE(resolveLanguage({}, QLocale(QStringLiteral("de_CH"))), QStringLiteral("de"));
        QCOMPARE(resolveLanguage({}, QLocale(QStringLiteral("ja_JP"))), QStringLiteral("ja"));
        QCOMPARE(resolveLanguage({}, QLocale::c()), QStringLiteral("en"));
        QCOMPARE(resolveLanguage({}, QLocale(QStringLiteral("fr_FR"))), QStringLiteral("en"));
    }

    // --lang de / ja / en, whatever the system locale is.
    void requestedLanguage_data() {
        QTest::addColumn<QString>("lang");
        QTest::newRow("de") << QStringLiteral("de");
        QTest::newRow("ja") << QStringLiteral("ja");
        QTest::newRow("en") << QStringLiteral("en");
    }

    void requestedLanguage() {
        QFETCH(QString, lang);
        QCOMPARE(translations_.install(lang), lang);
        QCOMPARE(QLocale().name().left(2), lang);
        if (lang != QLatin1String("en")) {
            QVERIFY(translations_.studioLoaded());
            checkNumbers(lang);
            checkTranslatedWindow(lang, false, {});
            return;
        }
        // English: the sources as they are, nothing of either translation.
        QVERIFY(!translations_.studioLoaded());
        auto window = makeWindow();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QCOMPARE(window->menuBar()->actions().first()->menu()->title(), QStringLiteral("&Policy"));
        QCOMPARE(ui::formatPercent(0.918, 1), QStringLiteral("91.8%"));
        // English plurals from decision-studio_en.qm: "1 draw", "4 draws", not "draw(s)".
        const char* agreement = "agreement %1 of %n draw(s)";
        QCOMPARE(QCoreApplication::translate("ui::ResultCard", agreement, nullptr, 1),
                 QStringLiteral("agreement %1 of 1 draw"));
        QCOMPARE(QCoreApplication::translate("ui::ResultCard", agreement, nullptr, 4),
                 QStringLiteral("agreement %1 of 4 draws"));
        QSet<QString> foreign;
        for (const QString& l : {QStringLiteral("de"), QStringLiteral("ja")})
            for (const auto& m : readTs(tsPath(l)).messages)
                for (const QString& f : m.forms)
                    if (f != m.source && f.size() > 3) foreign.insert(f);
        QStringList shown;
        for (const Shown& t : shownTexts(*window))
            if (foreign.contains(t.text)) shown << t.text;
        QVERIFY2(shown.isEmpty(), qPrintable(shown.join(QLatin1Char('\n'))));
    }

    // The language of the system locale (LANG=de_DE.UTF-8 or ja_JP.UTF-8 in the ctest entry,
    // DS_EXPECT_LANG naming it), as the Studio starts without --lang.
    void systemLocale() {
        const QString expect = qEnvironmentVariable("DS_EXPECT_LANG");
        if (expect.isEmpty()) QSKIP("run by the ctest entries that set LANG and DS_EXPECT_LANG");
        QCOMPARE(translations_.install(QString()), expect);
        QCOMPARE(QLocale().name(), QLocale::system().name());
        if (expect == QLatin1String("en")) {
            QVERIFY(!translations_.studioLoaded());
            QCOMPARE(ui::formatPercent(0.918, 1), QStringLiteral("91.8%"));
            return;
        }
        QVERIFY(translations_.studioLoaded());
        QCOMPARE(QLocale().name().left(2), expect);
        checkNumbers(expect);
        // Qt's own texts (standard buttons) where the system has Qt's translations.
        const QString qtbase = QLibraryInfo::path(QLibraryInfo::TranslationsPath) +
                               QStringLiteral("/qtbase_") + expect + QStringLiteral(".qm");
        QCOMPARE(translations_.qtLoaded(), QFile::exists(qtbase));
        if (translations_.qtLoaded()) {
            QDialogButtonBox box(QDialogButtonBox::Cancel);
            QVERIFY(box.button(QDialogButtonBox::Cancel)->text() != QLatin1String("&Cancel"));
            QVERIFY(box.button(QDialogButtonBox::Cancel)->text() != QLatin1String("Cancel"));
        }
        checkTranslatedWindow(expect, true, QStringLiteral("main-window-%1.png").arg(expect));
    }
};

QTEST_MAIN(TranslationsTest)
#include "tst_translations.moc"
