#pragma once
// Runs one comparison (core::compare::run_comparison: slot first, then generative, on one
// Backend) on a worker thread (core::WorkerRunner) and reports back on the owner's thread: the slot
// decision as soon as it is there (so its cards show while the generation runs), every progress
// report of each side, and the finished Comparison. cancel() or a newer start() makes an older
// run's results stale: they are dropped, never delivered late.

#include <QObject>
#include <QString>
#include <memory>

#include "core/comparison/compare.h"
#include "core/decide/backend.h"
#include "core/endpoints/worker_runner.h"

namespace ui {

class CompareRunner : public QObject {
    Q_OBJECT
  public:
    enum class Side { Slot, Generative };

    explicit CompareRunner(QObject* parent = nullptr);
    ~CompareRunner() override;  // cancels and waits for the worker

    // Starts a comparison (cancelling a running one); false without a backend.
    bool start(std::shared_ptr<core::Backend> backend, core::DecideRequest request,
               core::compare::CompareOptions options);
    void cancel();
    bool busy() const { return worker_->busy(); }
    // Blocks until the worker finished and its results were delivered (tests, shutdown).
    bool waitForIdle(int timeout_ms);

  Q_SIGNALS:
    void slotDecided(const core::Decision& decision, double latency_ms);
    void slotFailed(const QString& message);
    void generationStarted();
    void progress(ui::CompareRunner::Side side, const QString& stage, double fraction,
                  const QString& text_delta);
    void finished(const core::compare::Comparison& comparison);
    void busyChanged(bool busy);

  private:
    core::WorkerRunner* worker_;
};

}  // namespace ui
