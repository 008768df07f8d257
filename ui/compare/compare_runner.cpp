// Worker-thread comparisons (see compare_runner.h).
#include "ui/compare/compare_runner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QPointer>
#include <QThread>
#include <QThreadPool>
#include <chrono>
#include <functional>

namespace ui {

namespace {

// Forwards every call to the real backend and reports what run_comparison does with it: the
// slot decision the moment decide() returns, and the progress of each side. run_comparison
// itself builds the Comparison, so the view shows exactly what `dgem compare` prints.
class ObservedBackend : public core::Backend {
  public:
    using DecidedFn = std::function<void(const engine::Result<core::Decision>&, double ms)>;
    using SideProgressFn = std::function<void(CompareRunner::Side, const core::Progress&)>;
    using StartedFn = std::function<void()>;

    ObservedBackend(std::shared_ptr<core::Backend> inner, DecidedFn decided,
                    SideProgressFn progress, StartedFn generation_started)
        : inner_(std::move(inner)),
          decided_(std::move(decided)),
          progress_(std::move(progress)),
          generation_started_(std::move(generation_started)) {}

    std::string describe() const override { return inner_->describe(); }

    engine::Result<core::Decision> decide(const core::DecideRequest& request,
                                          const core::ProgressFn& progress,
                                          const core::CancelToken& cancel) override {
        const auto started = std::chrono::steady_clock::now();
        auto result = inner_->decide(
            request,
            [&](const core::Progress& p) {
                progress_(CompareRunner::Side::Slot, p);
                if (progress) progress(p);
            },
            cancel);
        decided_(result, std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - started)
                             .count());
        return result;
    }

    engine::Result<core::Generation> generate(const core::GenerateRequest& request,
                                              const core::ProgressFn& progress,
                                              const core::CancelToken& cancel) override {
        generation_started_();
        return inner_->generate(
            request,
            [&](const core::Progress& p) {
                progress_(CompareRunner::Side::Generative, p);
                if (progress) progress(p);
            },
            cancel);
    }

    engine::Result<core::HealthInfo> health(const core::CancelToken& cancel) override {
        return inner_->health(cancel);
    }

  private:
    std::shared_ptr<core::Backend> inner_;
    DecidedFn decided_;
    SideProgressFn progress_;
    StartedFn generation_started_;
};

}  // namespace

CompareRunner::CompareRunner(QObject* parent) : QObject(parent) {}

CompareRunner::~CompareRunner() {
    cancel_.cancel();
    QDeadlineTimer deadline(30000);
    while (running_->load() > 0 && !deadline.hasExpired()) QThread::msleep(5);
}

void CompareRunner::setBusy(bool busy) {
    if (busy_ == busy) return;
    busy_ = busy;
    Q_EMIT busyChanged(busy);
}

void CompareRunner::cancel() {
    cancel_.cancel();
    ++generation_;
    setBusy(false);
}

bool CompareRunner::start(std::shared_ptr<core::Backend> backend, core::DecideRequest request,
                          core::compare::CompareOptions options) {
    if (!backend) return false;
    cancel_.cancel();
    cancel_ = core::CancelToken();
    const uint64_t id = ++generation_;
    setBusy(true);
    QPointer<CompareRunner> self(this);
    // Runs `fn` on this object's thread unless the run went stale meanwhile.
    auto deliver = [self, id](auto fn) {
        if (!self) return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, id, fn = std::move(fn)]() mutable {
                if (self && self->generation_ == id) fn(*self);
            },
            Qt::QueuedConnection);
    };
    auto observed = std::make_shared<ObservedBackend>(
        std::move(backend),
        [deliver](const engine::Result<core::Decision>& result, double ms) {
            if (result)
                deliver(
                    [d = result.value(), ms](CompareRunner& r) { Q_EMIT r.slotDecided(d, ms); });
            else
                deliver([m = QString::fromStdString(result.error().message)](CompareRunner& r) {
                    Q_EMIT r.slotFailed(m);
                });
        },
        [deliver](Side side, const core::Progress& p) {
            deliver([side, stage = QString::fromStdString(p.stage), fraction = p.fraction,
                     delta = QString::fromStdString(p.text_delta)](CompareRunner& r) {
                Q_EMIT r.progress(side, stage, fraction, delta);
            });
        },
        [deliver] { deliver([](CompareRunner& r) { Q_EMIT r.generationStarted(); }); });
    auto token = cancel_;
    auto running = running_;
    running->fetch_add(1);
    QThreadPool::globalInstance()->start([=, request = std::move(request)]() mutable {
        core::compare::Comparison comparison =
            core::compare::run_comparison(*observed, request, options, {}, token);
        if (!token.cancelled())
            deliver([c = std::move(comparison)](CompareRunner& r) {
                r.setBusy(false);
                Q_EMIT r.finished(c);
            });
        running->fetch_sub(1);
    });
    return true;
}

bool CompareRunner::waitForIdle(int timeout_ms) {
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

}  // namespace ui
