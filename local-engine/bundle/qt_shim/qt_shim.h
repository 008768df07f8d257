#pragma once
// A Qt-free stand-in for the small part of Qt Test (and QtCore) that the engine's own tests use,
// so the same test sources run in the engine-only GPU bundle (DS_ENGINE_ONLY), which must carry
// no Qt. It is NOT Qt: only what those tests touch, with Qt Test's observable behaviour:
//   - test functions are the members declared after `private slots:` / `private Q_SLOTS:`; the
//     build lists them in the `<name>.moc` file each test includes (cmake/bundle_moc.cmake);
//   - initTestCase, then init / function / cleanup for each function, then cleanupTestCase;
//   - QVERIFY/QVERIFY2/QCOMPARE/QSKIP end the current function; QCOMPARE compares floating
//     point values fuzzily (Qt's rule: relative 1e-12 for double, 1e-5 for float, and values
//     near zero compare to zero);
//   - a failing or skipped initTestCase skips every function; the exit code is the number of
//     failed functions.
// Only the engine-only build puts this folder on the include path; every other build uses Qt.

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

// ---- QtCore stand-ins ---------------------------------------------------------------------

class QString {
  public:
    QString() = default;
    QString(const char* s) : s_(s ? s : "") {}  // NOLINT(google-explicit-constructor)
    static QString fromStdString(std::string s) {
        QString q;
        q.s_ = std::move(s);
        return q;
    }
    static QString number(long long n) { return fromStdString(std::to_string(n)); }
    const std::string& toStdString() const { return s_; }
    bool contains(const QString& what) const { return s_.find(what.s_) != std::string::npos; }
    bool startsWith(const QString& what) const { return s_.rfind(what.s_, 0) == 0; }
    bool isEmpty() const { return s_.empty(); }
    // Replaces the lowest-numbered %N marker, as QString::arg does.
    QString arg(long long n) const { return arg(std::to_string(n)); }
    QString arg(const QString& v) const { return arg(v.s_); }
    QString arg(const char* v) const { return arg(std::string(v)); }
    QString arg(const std::string& v) const {
        for (char d = '1'; d <= '9'; ++d) {
            const std::string marker = std::string("%") + d;
            const auto at = s_.find(marker);
            if (at == std::string::npos) continue;
            QString out = *this;
            out.s_.replace(at, marker.size(), v);
            return out;
        }
        return *this;
    }
    friend QString operator+(QString a, const QString& b) { return fromStdString(a.s_ + b.s_); }
    friend bool operator==(const QString& a, const QString& b) { return a.s_ == b.s_; }
    friend std::ostream& operator<<(std::ostream& o, const QString& s) {
        return o << '"' << s.s_ << '"';
    }

  private:
    std::string s_;
};
#define QStringLiteral(s) QString(s)
#define qPrintable(s) ((s).toStdString().c_str())

// A fresh folder under $TMPDIR (or /tmp), removed with everything in it on destruction.
class QTemporaryDir {
  public:
    QTemporaryDir() {
        const char* base = std::getenv("TMPDIR");
        std::string pattern = std::string(base && *base ? base : "/tmp") + "/dgem-test-XXXXXX";
        if (mkdtemp(pattern.data())) path_ = pattern;
    }
    QTemporaryDir(const QTemporaryDir&) = delete;
    QTemporaryDir& operator=(const QTemporaryDir&) = delete;
    ~QTemporaryDir() {
        std::error_code ec;
        if (!path_.empty()) std::filesystem::remove_all(path_, ec);
    }
    bool isValid() const { return !path_.empty(); }
    QString path() const { return QString::fromStdString(path_); }
    QString filePath(const QString& name) const {
        return QString::fromStdString(path_ + "/" + name.toStdString());
    }

  private:
    std::string path_;
};

struct QFile {
    static bool exists(const QString& path) {
        std::error_code ec;
        return std::filesystem::exists(path.toStdString(), ec);
    }
};

struct QCoreApplication {
    QCoreApplication(int&, char**) {}
};

inline void qInfo(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vfprintf(stdout, format, args);
    va_end(args);
    std::fputc('\n', stdout);
}

[[noreturn]] inline void qFatal(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fputc('\n', stderr);
    std::abort();
}

// ---- Qt Test stand-in ---------------------------------------------------------------------

namespace dsqtest {

struct Function {
    const char* name;
    std::function<void()> run;
};

// What the current test function came to: set by the macros, read by the runner.
enum class Outcome { Pass, Fail, Skip };
inline Outcome& outcome() {
    static Outcome o = Outcome::Pass;
    return o;
}

inline void report(const char* kind, const char* where, const std::string& message,
                   const char* file, int line) {
    std::printf("%-7s: %s %s\n", kind, where, message.c_str());
    if (file) std::printf("   Loc: [%s(%d)]\n", file, line);
}

inline const char*& current_function() {
    static const char* name = "";
    return name;
}

inline void fail(const std::string& message, const char* file, int line) {
    outcome() = Outcome::Fail;
    report("FAIL!", current_function(), message, file, line);
}

template <typename T>
std::string show(const T& v) {
    if constexpr (requires(std::ostream & o) { o << v; }) {
        std::ostringstream o;
        o.precision(9);
        o << v;
        return o.str();
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(v));
    } else {
        return "(not printable)";
    }
}

template <typename F>
bool fuzzy_equal(F actual, F expected) {
    // Qt Test's rule for QCOMPARE on floating point values.
    const F null_bound = std::is_same_v<F, float> ? F(1e-5) : F(1e-12);
    const F scale = std::is_same_v<F, float> ? F(1e5) : F(1e12);
    if (std::isnan(expected)) return std::isnan(actual);
    if (std::isinf(expected)) return std::isinf(actual) && (actual < 0) == (expected < 0);
    if (std::abs(expected) <= null_bound) return std::abs(actual) <= null_bound;
    return std::abs(actual - expected) * scale <= std::min(std::abs(actual), std::abs(expected));
}

template <typename A, typename E>
bool compare(const A& actual, const E& expected, const char* actual_text, const char* expected_text,
             const char* file, int line) {
    bool same;
    if constexpr (std::is_floating_point_v<A> && std::is_same_v<A, E>)
        same = fuzzy_equal(actual, expected);
    else
        same = actual == expected;
    if (same) return true;
    fail(std::string("Compared values are not the same\n   Actual   (") + actual_text +
             "): " + show(actual) + "\n   Expected (" + expected_text + "): " + show(expected),
         file, line);
    return false;
}

}  // namespace dsqtest

class QObject {
  public:
    virtual ~QObject() = default;
    // The test functions in declaration order (written by the build into the test's .moc file).
    virtual std::vector<dsqtest::Function> dsqtest_functions() = 0;
    virtual const char* dsqtest_class() const = 0;
};

// Declares what the generated .moc file defines.
#define Q_OBJECT                                                 \
  public:                                                        \
    std::vector<dsqtest::Function> dsqtest_functions() override; \
    const char* dsqtest_class() const override;                  \
                                                                 \
  private:
#define Q_SLOTS
#ifndef QT_NO_KEYWORDS
#define slots
#endif

#define QVERIFY2(condition, message)                                                             \
    do {                                                                                         \
        if (!(condition)) {                                                                      \
            ::dsqtest::fail(std::string("'" #condition "' returned FALSE. (") + (message) + ")", \
                            __FILE__, __LINE__);                                                 \
            return;                                                                              \
        }                                                                                        \
    } while (false)
#define QVERIFY(condition)                                                              \
    do {                                                                                \
        if (!(condition)) {                                                             \
            ::dsqtest::fail("'" #condition "' returned FALSE. ()", __FILE__, __LINE__); \
            return;                                                                     \
        }                                                                               \
    } while (false)
#define QCOMPARE(actual, expected)                                                                 \
    do {                                                                                           \
        if (!::dsqtest::compare(actual, expected, #actual, #expected, __FILE__, __LINE__)) return; \
    } while (false)
#define QSKIP(message)                                                                         \
    do {                                                                                       \
        ::dsqtest::outcome() = ::dsqtest::Outcome::Skip;                                       \
        ::dsqtest::report("SKIP", ::dsqtest::current_function(), message, __FILE__, __LINE__); \
        return;                                                                                \
    } while (false)

namespace QTest {

// Runs every test function of `test` as Qt Test does; returns the number of failures.
// Accepts function names as arguments to run only those (like Qt Test).
inline int qExec(QObject* test, int argc = 0, char** argv = nullptr) {
    using dsqtest::Outcome;
    const std::string cls = test->dsqtest_class();
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] != '-') only.emplace_back(argv[i]);
    auto functions = test->dsqtest_functions();
    auto find = [&](const char* name) -> dsqtest::Function* {
        for (auto& f : functions)
            if (std::string(f.name) == name) return &f;
        return nullptr;
    };
    auto run = [&](dsqtest::Function* f, const std::string& label) {
        dsqtest::outcome() = Outcome::Pass;
        if (!f) return Outcome::Pass;
        const std::string where = cls + "::" + label + "()";
        dsqtest::current_function() = where.c_str();
        f->run();
        const Outcome o = dsqtest::outcome();
        if (o == Outcome::Pass) std::printf("PASS   : %s\n", where.c_str());
        dsqtest::current_function() = "";
        return o;
    };
    auto is_special = [](const std::string& n) {
        return n == "initTestCase" || n == "cleanupTestCase" || n == "init" || n == "cleanup";
    };
    std::printf("********* Start testing of %s (Qt-free runner) *********\n", cls.c_str());
    int passed = 0, failed = 0, skipped = 0;
    const Outcome setup = run(find("initTestCase"), "initTestCase");
    for (auto& f : functions) {
        const std::string name = f.name;
        if (is_special(name)) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
        if (setup != Outcome::Pass) {
            ++skipped;
            continue;
        }
        Outcome o = run(find("init"), "init");
        if (o == Outcome::Pass) {
            o = run(&f, name);
            // cleanup runs after a failed or skipped function too, as in Qt Test.
            const Outcome after = run(find("cleanup"), "cleanup");
            if (after == Outcome::Fail) o = Outcome::Fail;
        }
        (o == Outcome::Pass ? passed : o == Outcome::Skip ? skipped : failed) += 1;
    }
    if (setup == Outcome::Fail) ++failed;
    if (run(find("cleanupTestCase"), "cleanupTestCase") == Outcome::Fail) ++failed;
    std::printf("Totals: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    std::printf("********* Finished testing of %s *********\n", cls.c_str());
    std::fflush(stdout);
    return failed;
}

}  // namespace QTest

#define QTEST_GUILESS_MAIN(TestClass)           \
    int main(int argc, char** argv) {           \
        TestClass test;                         \
        return QTest::qExec(&test, argc, argv); \
    }
