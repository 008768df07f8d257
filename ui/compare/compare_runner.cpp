// Worker-thread comparisons (see compare_runner.h).
#include "ui/compare/compare_runner.h"

#include <chrono>
#include <functional>

#include "base/time.h"

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
        decided_(result, base::ms_since(started));
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

CompareRunner::CompareRunner(QObject* parent)
    : QObject(parent), worker_(new core::WorkerRunner(this)) {
    connect(worker_, &core::WorkerRunner::busyChanged, this, &CompareRunner::busyChanged);
}

CompareRunner::~CompareRunner() = default;  // the worker runner cancels and waits

void CompareRunner::cancel() {
    worker_->cancel();
}

bool CompareRunner::start(std::shared_ptr<core::Backend> backend, core::DecideRequest request,
                          core::compare::CompareOptions options) {
    if (!backend) return false;
    worker_->start([this, backend = std::move(backend), request = std::move(request),
                    options](const core::WorkerRunner::Job& job) {
        ObservedBackend observed(
            backend,
            [this, &job](const engine::Result<core::Decision>& result, double ms) {
                if (result)
                    job.post([this, d = result.value(), ms] { Q_EMIT slotDecided(d, ms); });
                else
                    job.post([this, m = QString::fromStdString(result.error().message)] {
                        Q_EMIT slotFailed(m);
                    });
            },
            [this, &job](Side side, const core::Progress& p) {
                job.post([this, side, stage = QString::fromStdString(p.stage),
                          fraction = p.fraction, delta = QString::fromStdString(p.text_delta)] {
                    Q_EMIT progress(side, stage, fraction, delta);
                });
            },
            [this, &job] { job.post([this] { Q_EMIT generationStarted(); }); });
        core::compare::Comparison comparison =
            core::compare::run_comparison(observed, request, options, {}, job.cancel());
        if (!job.cancel().cancelled())
            job.finish([this, c = std::move(comparison)] { Q_EMIT finished(c); });
    });
    return true;
}

bool CompareRunner::waitForIdle(int timeout_ms) {
    return worker_->waitForIdle(timeout_ms);
}

}  // namespace ui
