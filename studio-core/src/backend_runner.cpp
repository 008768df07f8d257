// Worker-thread execution of Backend calls (see core/backend_runner.h).
#include "core/backend_runner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

namespace core {
namespace {
// The stages the backends report (core/backend.h, local_backend.cpp, remote_backends.cpp) and
// the numbered ones ("decoding canvas 2") without their number.
constexpr const char* kStages[] = {
    QT_TRANSLATE_NOOP("core::BackendRunner", "loading model"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "planning"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "encoding"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "thinking"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "decoding"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "generating"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "waiting for server"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "reading canvas rows"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "done"),
};
constexpr const char* kNumberedStages[] = {
    QT_TRANSLATE_NOOP("core::BackendRunner", "decoding canvas %1"),
};
}  // namespace

QString progress_stage_text(const QString& stage) {
    const QByteArray utf8 = stage.toUtf8();
    for (const char* s : kStages)
        if (utf8 == s) return QCoreApplication::translate("core::BackendRunner", s);
    // "<words> <number>": the numbered form with %1.
    const qsizetype space = stage.lastIndexOf(QLatin1Char(' '));
    bool numbered = false;
    const int n = space > 0 ? stage.mid(space + 1).toInt(&numbered) : 0;
    if (numbered) {
        const QByteArray pattern = stage.left(space).toUtf8() + " %1";
        for (const char* s : kNumberedStages)
            if (pattern == s) return QCoreApplication::translate("core::BackendRunner", s).arg(n);
    }
    return stage;
}

BackendRunner::BackendRunner(QObject* parent) : QObject(parent) {}

BackendRunner::~BackendRunner() {
    cancel_.cancel();
    // The worker holds its own references (backend, token, counter); waiting keeps a loaded
    // model from being torn down under a running pass at exit.
    QDeadlineTimer deadline(30000);
    while (running_->load() > 0 && !deadline.hasExpired()) QThread::msleep(5);
}

void BackendRunner::setBackend(std::shared_ptr<Backend> backend) {
    cancel();
    backend_ = std::move(backend);
}

void BackendRunner::setBusy(bool busy) {
    if (busy_ == busy) return;
    busy_ = busy;
    Q_EMIT busyChanged(busy);
}

void BackendRunner::cancel() {
    cancel_.cancel();
    ++generation_;
    setBusy(false);
}

template <class Work>
bool BackendRunner::start(Work work) {
    if (!backend_) return false;
    cancel_.cancel();
    cancel_ = CancelToken();
    const uint64_t id = ++generation_;
    setBusy(true);
    QPointer<BackendRunner> self(this);
    auto backend = backend_;
    auto token = cancel_;
    auto running = running_;
    running->fetch_add(1);
    // Deliver on this object's thread; stale or orphaned results are dropped.
    auto deliver = [self, id](auto fn) {
        if (!self) return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, id, fn = std::move(fn)]() mutable {
                if (self && self->generation_ == id) fn(*self);
            },
            Qt::QueuedConnection);
    };
    ProgressFn on_progress = [deliver](const Progress& p) {
        deliver([stage = progress_stage_text(QString::fromStdString(p.stage)),
                 fraction = p.fraction](BackendRunner& r) { Q_EMIT r.progress(stage, fraction); });
    };
    QThreadPool::globalInstance()->start([=]() mutable {
        work(*backend, on_progress, token, deliver);
        running->fetch_sub(1);
    });
    return true;
}

bool BackendRunner::decide(DecideRequest request) {
    return start([request = std::move(request)](Backend& backend, const ProgressFn& on_progress,
                                                const CancelToken& token, auto deliver) {
        auto result = backend.decide(request, on_progress, token);
        if (result) {
            deliver([d = std::move(result.value())](BackendRunner& r) {
                r.setBusy(false);
                Q_EMIT r.decided(d);
            });
        } else {
            deliver([e = result.error()](BackendRunner& r) {
                r.setBusy(false);
                Q_EMIT r.failed(e);
            });
        }
    });
}

bool BackendRunner::generate(GenerateRequest request) {
    return start([request = std::move(request)](Backend& backend, const ProgressFn& on_progress,
                                                const CancelToken& token, auto deliver) {
        auto result = backend.generate(request, on_progress, token);
        if (result) {
            deliver([g = std::move(result.value())](BackendRunner& r) {
                r.setBusy(false);
                Q_EMIT r.generated(g);
            });
        } else {
            deliver([e = result.error()](BackendRunner& r) {
                r.setBusy(false);
                Q_EMIT r.failed(e);
            });
        }
    });
}

bool BackendRunner::checkHealth() {
    return start([](Backend& backend, const ProgressFn&, const CancelToken& token, auto deliver) {
        auto result = backend.health(token);
        if (result) {
            deliver([h = std::move(result.value())](BackendRunner& r) {
                r.setBusy(false);
                Q_EMIT r.healthChecked(h);
            });
        } else {
            deliver([e = result.error()](BackendRunner& r) {
                r.setBusy(false);
                Q_EMIT r.failed(e);
            });
        }
    });
}

bool BackendRunner::waitForIdle(int timeout_ms) {
    QDeadlineTimer deadline(timeout_ms);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!busy_ && running_->load() == 0) {
            QCoreApplication::processEvents();
            return true;
        }
        QThread::msleep(2);
    }
    return false;
}

}  // namespace core
