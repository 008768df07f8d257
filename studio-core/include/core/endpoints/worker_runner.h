#pragma once
// Runs one blocking job at a time on a worker thread (QThreadPool) and hands what it reports back
// to the runner's thread, so a window never waits on the engine or the network. A newer start()
// or cancel() makes an older job stale: what it still reports is dropped, never delivered late.
// The backend runner, the comparison runner and the endpoint session all run through one.

#include <QObject>
#include <QPointer>
#include <atomic>
#include <functional>
#include <memory>

#include "core/decide/backend.h"

namespace core {

class WorkerRunner : public QObject {
    Q_OBJECT
  public:
    // What a running job sees: its cancel token, and the way back to the runner's thread.
    class Job {
      public:
        const CancelToken& cancel() const { return cancel_; }
        // Runs `fn` on the runner's thread, unless the job went stale meanwhile.
        void post(std::function<void()> fn) const;
        // The same, marking the runner idle just before `fn`: the job's last report.
        void finish(std::function<void()> fn) const;

      private:
        friend class WorkerRunner;
        Job(WorkerRunner* runner, uint64_t id, CancelToken cancel);
        void deliver(std::function<void()> fn, bool last) const;

        QPointer<WorkerRunner> runner_;
        uint64_t id_;
        CancelToken cancel_;
    };
    using Work = std::function<void(const Job& job)>;

    explicit WorkerRunner(QObject* parent = nullptr);
    ~WorkerRunner() override;  // cancels and waits for the worker

    // Starts `work` on a worker thread (cancelling and muting a running job).
    void start(Work work);
    // Cancels the running job and mutes it; the runner is idle at once.
    void cancel();
    // Fires the running job's cancel token only: the job still reports how it ended.
    void interrupt() { cancel_.cancel(); }
    bool busy() const { return busy_; }
    // Blocks until the worker finished and its reports were delivered (tests, shutdown).
    bool waitForIdle(int timeout_ms);

  Q_SIGNALS:
    void busyChanged(bool busy);

  private:
    void setBusy(bool busy);

    CancelToken cancel_;
    uint64_t generation_ = 0;  // which job's reports are current (runner's thread only)
    bool busy_ = false;
    std::shared_ptr<std::atomic<int>> running_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace core
