// The policy library: shipped policies from the resources, the user folder (XDG_DATA_HOME),
// new/duplicate/rename/delete/import/export, and reloads when a file changes on disk.
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "ui/library/policy_library.h"

using ui::PolicyLibrary;

class PolicyLibraryTest : public QObject {
    Q_OBJECT
    QTemporaryDir home_;

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        qputenv("XDG_DATA_HOME", home_.path().toUtf8());
    }

    void defaultFolderHonoursXdgDataHome() {
        QCOMPARE(PolicyLibrary::defaultUserDir(),
                 home_.path() + QStringLiteral("/decision-studio/policies"));
    }

    void listsShippedPolicies() {
        PolicyLibrary library;
        const int row = library.indexOfName(QStringLiteral("support_triage"));
        QVERIFY2(row >= 0, "support_triage is compiled into the resources");
        const ui::PolicyEntry* e = library.entry(row);
        QVERIFY(e->shipped);
        QVERIFY(e->path.startsWith(QLatin1Char(':')));
        QVERIFY(!e->vars_path.isEmpty());
        auto source = PolicyLibrary::readSource(*e);
        QVERIFY(source.ok());
        QVERIFY(source->contains(QStringLiteral("\"schema\"")));
        // Shipped ones are read-only.
        QVERIFY(!library.rename(row, QStringLiteral("x")).ok());
        QVERIFY(!library.remove(row).ok());
        QVERIFY(!library.save(e->path, QStringLiteral("{}")).ok());
    }

    void fileOperations() {
        QTemporaryDir dir;
        PolicyLibrary library(dir.path());
        // New.
        auto created = library.createNew(QStringLiteral("mine"));
        QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
        QVERIFY(QFile::exists(dir.path() + QStringLiteral("/mine.json.tmpl")));
        QVERIFY(QFile::exists(dir.path() + QStringLiteral("/mine.vars.json")));
        QVERIFY(!library.createNew(QStringLiteral("mine")).ok());       // exists
        QVERIFY(!library.createNew(QStringLiteral("../escape")).ok());  // bad name
        // Duplicate a shipped one (with its sample variables).
        auto copy = library.duplicate(library.indexOfName(QStringLiteral("support_triage"), false),
                                      QStringLiteral("triage2"));
        QVERIFY(copy.ok());
        QVERIFY(QFile::exists(dir.path() + QStringLiteral("/triage2.vars.json")));
        const int row = library.indexOfPath(*copy);
        QVERIFY(row >= 0 && !library.entry(row)->shipped);
        // Rename.
        auto renamed = library.rename(row, QStringLiteral("triage3"));
        QVERIFY(renamed.ok());
        QVERIFY(!QFile::exists(*copy));
        QVERIFY(QFile::exists(dir.path() + QStringLiteral("/triage3.vars.json")));
        // Export and import.
        QTemporaryDir out;
        QVERIFY(library.exportTo(library.indexOfPath(*renamed), out.path() + QStringLiteral("/x"))
                    .ok());
        QVERIFY(QFile::exists(out.path() + QStringLiteral("/x.json.tmpl")));
        QVERIFY(QFile::exists(out.path() + QStringLiteral("/x.vars.json")));
        auto imported = library.importFile(out.path() + QStringLiteral("/x.json.tmpl"));
        QVERIFY(imported.ok());
        QCOMPARE(library.entry(library.indexOfPath(*imported))->name, QStringLiteral("x"));
        auto again = library.importFile(out.path() + QStringLiteral("/x.json.tmpl"));
        QVERIFY(again.ok());
        QCOMPARE(library.entry(library.indexOfPath(*again))->name, QStringLiteral("x-2"));
        QVERIFY(!library.importFile(out.path() + QStringLiteral("/missing.txt")).ok());
        // Delete.
        QVERIFY(library.remove(library.indexOfPath(*again)).ok());
        QVERIFY(!QFile::exists(*again));
        QCOMPARE(library.indexOfPath(*again), -1);
    }

    void reloadsWhenAFileChangesOnDisk() {
        QTemporaryDir dir;
        PolicyLibrary library(dir.path());
        auto created = library.createNew(QStringLiteral("watched"));
        QVERIFY(created.ok());
        QSignalSpy changed(&library, &PolicyLibrary::policyFileChanged);
        QTest::qWait(300);  // our own write settles without being reported
        QCOMPARE(changed.count(), 0);
        {
            QFile f(*created);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Append));
            f.write("\n");
        }
        QVERIFY(changed.wait(5000));
        QCOMPARE(changed.first().first().toString(), *created);
        // A file dropped into the folder by another program shows up in the list.
        QFile::copy(*created, dir.path() + QStringLiteral("/dropped.json.tmpl"));
        QTRY_VERIFY_WITH_TIMEOUT(library.indexOfName(QStringLiteral("dropped")) >= 0, 5000);
    }
};

QTEST_MAIN(PolicyLibraryTest)
#include "tst_policy_library.moc"
