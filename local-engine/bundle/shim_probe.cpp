// `dgem-engine shim-probe`: the Qt Test stand-in (qt_shim/) on functions whose outcome is known,
// so that a stand-in that stopped failing would be noticed (tests/bundle/check_bundle.sh expects
// exactly: 3 passed, 4 failed, 1 skipped, exit code 4). Compiled like the bundled tests.
#include <QtTest>

#include <vector>

class ShimProbe : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void passes() {
        QVERIFY(1 + 1 == 2);
        QCOMPARE(std::vector<int>({1, 2}), std::vector<int>({1, 2}));
    }
    void failsVerify() { QVERIFY2(1 + 1 == 3, "arithmetic"); }
    void failsCompareInt() { QCOMPARE(2 + 2, 5); }
    void failsCompareFloat() {
        QCOMPARE(1.0f, 1.001f);  // beyond float's fuzzy bound (1e-5 relative)
    }
    void fuzzyDoublePasses() {
        QCOMPARE(1.0, 1.0 + 1e-14);  // within double's fuzzy bound (1e-12 relative)
    }
    void failsCompareNearZero() {
        QCOMPARE(1e-3, 0.0);  // expected 0: actual must be within 1e-12
    }
    void skips() { QSKIP("skipped on purpose"); }
    void argReplacesMarkers() {
        QCOMPARE(QString("a").arg(1).toStdString(), std::string("a"));
        QVERIFY(QString("x %1").arg(7).contains("x 7"));
    }
};

int ds_shim_probe(int argc, char** argv) {
    ShimProbe probe;
    return QTest::qExec(&probe, argc, argv);
}

#include "shim_probe.moc"
