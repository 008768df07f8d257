// One blocking job at a time on a worker thread (see core/endpoints/worker_runner.h).
#include "core/endpoints/worker_runner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>
#include <QThreadPool>

namespace core {

WorkerRunner::Job::Job(WorkerRunner* runner, uint64_t id, CancelToken cancel)
    : runner_(runner), id_(id), cancel_(std::move(cancel)) {}

void WorkerRunner::Job::post(std::function<void()> fn) const {
    deliver(std::move(fn), false);
}

void WorkerRunner::Job::finish(std::function<void()> fn) const {
    deliver(std::move(fn), true);
}

void WorkerRunner::Job::deliver(std::function<void()> fn, bool last) const {
    if (!runner_) return;
    QMetaObject::invokeMethod(
        runner_.data(),
        [runner = runner_, id = id_, fn = std::move(fn), last] {
            if (!runner || runner->generation_ != id) return;  // stale or orphaned
            if (last) runner->setBusy(false);
            fn();
        },
        Qt::QueuedConnection);
}

WorkerRunner::WorkerRunner(QObject* parent) : QObject(parent) {}

WorkerRunner::~WorkerRunner() {
    cancel_.cancel();
    // The worker holds its own references (backend, token, counter); waiting keeps a loaded
    // model from being torn down under a running pass at exit.
    QDeadlineTimer deadline(30000);
    while (running_->load() > 0 && !deadline.hasExpired()) QThread::msleep(5);
}

void WorkerRunner::setBusy(bool busy) {
    if (busy_ == busy) return;
    busy_ = busy;
    Q_EMIT busyChanged(busy);
}

void WorkerRunner::cancel() {
    cancel_.cancel();
    ++generation_;
    setBusy(false);
}

void WorkerRunner::start(Work work) {
    cancel_.cancel();
    cancel_ = CancelToken();
    const uint64_t id = ++generation_;
    setBusy(true);
    Job job(this, id, cancel_);
    auto running = running_;
    running->fetch_add(1);
    QThreadPool::globalInstance()->start([job, work = std::move(work), running] {
        work(job);
        running->fetch_sub(1);
    });
}

bool WorkerRunner::waitForIdle(int timeout_ms) {
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
