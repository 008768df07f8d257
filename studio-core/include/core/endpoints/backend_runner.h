#pragma once
// Runs one blocking Backend call at a time on a worker thread (core::WorkerRunner) and reports
// back on the owner's thread through signals, so the UI thread never waits on the engine or the
// network. A newer call or cancel() makes the results of an older one stale: they are dropped,
// never delivered late.

#include <QObject>
#include <QString>
#include <memory>

#include "core/decide/backend.h"
#include "core/endpoints/worker_runner.h"

namespace core {

// A progress stage as the Studio shows it: the backends' English stage names ("encoding",
// "decoding canvas 2", "waiting for server", ...) in the application's language (the installed
// translators, context "core::BackendRunner"); a stage it does not know, as it is.
QString progress_stage_text(const QString& stage);

class BackendRunner : public QObject {
    Q_OBJECT
  public:
    explicit BackendRunner(QObject* parent = nullptr);
    ~BackendRunner() override;  // cancels and waits for the worker

    void setBackend(std::shared_ptr<Backend> backend);
    std::shared_ptr<Backend> backend() const { return backend_; }
    bool busy() const { return worker_->busy(); }

    // Each starts a call (cancelling a running one); false when no backend is set. With a
    // `judge`, decide runs the schema's stage-2 cascade on it after stage 1
    // (core/decide/cascade.h).
    bool decide(DecideRequest request, std::shared_ptr<Backend> judge = nullptr);
    bool generate(GenerateRequest request);
    bool checkHealth();
    void cancel();
    // Blocks until the worker finished and its result was delivered (tests, shutdown).
    bool waitForIdle(int timeout_ms);

  Q_SIGNALS:
    void progress(const QString& stage, double fraction);  // stage: progress_stage_text
    void decided(const core::Decision& decision);
    void generated(const core::Generation& generation);
    void healthChecked(const core::HealthInfo& info);
    void failed(const engine::Error& error);
    void busyChanged(bool busy);

  private:
    // Runs `call(backend, progress, cancel)` on the worker; its result goes to `done` or failed.
    template <class Call, class Done>
    bool start(Call call, Done done);

    std::shared_ptr<Backend> backend_;
    WorkerRunner* worker_;
};

}  // namespace core
