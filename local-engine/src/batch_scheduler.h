#pragma once
// The local engine's scheduler: one FIFO queue of units of work over one backend. A unit is a
// batch of slot reads (the reads at the head of the queue, run together by the engine's batch
// function) or an exclusive turn (one step of a generation). No thread of its own: the caller
// whose unit reaches the head of the queue while the backend is free runs it (for a batch, on
// behalf of every read in it), so a lone read runs at once on its caller's thread.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

#include "driver/drivers.h"
#include "engine/engine.h"

namespace engine {

class BatchScheduler final : public driver::StepGate {
  public:
    struct ReadJob {
        const SlotReadRequest* request = nullptr;
        const CancelToken* cancel = nullptr;
        int64_t tokens = 0;  // prompt + canvas tokens, for BatchSettings::max_tokens
        Result<SlotReadResult> result = engine_error("slot read: not run");
    };
    // Runs a batch: fills every job's result. Called without the scheduler's lock held.
    using RunBatch = std::function<void(std::span<ReadJob* const>)>;

    BatchScheduler(BatchSettings settings, RunBatch run);

    // Queues the read and returns its result once its batch has run.
    Result<SlotReadResult> read(const SlotReadRequest& request, const CancelToken& cancel);
    // An exclusive turn on the backend, in FIFO order with the reads (StepGate).
    void enter() override;
    void leave() override;

    SchedulerStats stats() const;

  private:
    struct Ticket {
        ReadJob* job = nullptr;  // null: an exclusive turn
        bool done = false;       // a read whose batch another caller ran
    };
    // Waits until `ticket` is at the head of the queue and the backend is free, or done.
    void wait_turn(std::unique_lock<std::mutex>& lock, const Ticket& ticket);
    // Consecutive reads at the head of the queue that fit one batch.
    size_t batchable(std::vector<Ticket*>* take) const;
    void record(int unit);

    const BatchSettings settings_;
    const RunBatch run_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Ticket*> queue_;
    bool busy_ = false;
    SchedulerStats stats_;
};

}  // namespace engine
