// BatchScheduler: FIFO units, reads batched at the head of the queue (batch_scheduler.h).

#include "batch_scheduler.h"

#include <algorithm>
#include <chrono>

namespace engine {

namespace {
constexpr size_t kRecentUnits = 64;
}

BatchScheduler::BatchScheduler(BatchSettings settings, RunBatch run)
    : settings_(settings), run_(std::move(run)) {}

void BatchScheduler::wait_turn(std::unique_lock<std::mutex>& lock, const Ticket& ticket) {
    changed_.wait(lock, [&] {
        return ticket.done || (!busy_ && !queue_.empty() && queue_.front() == &ticket);
    });
}

size_t BatchScheduler::batchable(std::vector<Ticket*>* take) const {
    const size_t most = static_cast<size_t>(std::max(1, settings_.max_reads));
    size_t n = 0;
    int64_t tokens = 0;
    for (Ticket* t : queue_) {
        if (!t->job || n == most) break;
        if (n > 0 && tokens + t->job->tokens > settings_.max_tokens) break;
        tokens += t->job->tokens;
        ++n;
        if (take) take->push_back(t);
    }
    return n;
}

void BatchScheduler::record(int unit) {
    stats_.recent.push_back(unit);
    if (stats_.recent.size() > kRecentUnits) stats_.recent.erase(stats_.recent.begin());
}

Result<SlotReadResult> BatchScheduler::read(const SlotReadRequest& request,
                                            const CancelToken& cancel) {
    ReadJob job;
    job.request = &request;
    job.cancel = &cancel;
    job.tokens = static_cast<int64_t>(request.prompt_ids.size());
    for (const CanvasRow& row : request.rows) job.tokens += static_cast<int64_t>(row.ids.size());
    Ticket ticket{&job};

    std::unique_lock<std::mutex> lock(mutex_);
    queue_.push_back(&ticket);
    changed_.notify_all();  // a batch being formed may be waiting for it
    wait_turn(lock, ticket);
    if (ticket.done) return std::move(job.result);

    // This caller runs the batch at the head of the queue, its own read first. With other reads
    // queued behind it (so concurrency is evident) and room left, it waits up to max_wait_ms
    // for more; a lone read, or one followed by a generation step, runs at once.
    busy_ = true;
    const size_t most = static_cast<size_t>(std::max(1, settings_.max_reads));
    const size_t now = batchable(nullptr);
    if (now >= 2 && now < most && now == queue_.size() && settings_.max_wait_ms > 0) {
        ++stats_.window_waits;
        const auto until = std::chrono::steady_clock::now() +
                           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double, std::milli>(settings_.max_wait_ms));
        changed_.wait_until(lock, until, [&] {
            const size_t n = batchable(nullptr);
            return n >= most || n < queue_.size();
        });
    }
    std::vector<Ticket*> batch;
    batchable(&batch);
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(batch.size()));
    lock.unlock();

    std::vector<ReadJob*> jobs;
    jobs.reserve(batch.size());
    for (Ticket* t : batch) jobs.push_back(t->job);
    run_(jobs);

    lock.lock();
    for (Ticket* t : batch) t->done = true;
    busy_ = false;
    ++stats_.batches;
    stats_.reads += batch.size();
    stats_.largest_batch = std::max(stats_.largest_batch, static_cast<int>(batch.size()));
    record(static_cast<int>(batch.size()));
    changed_.notify_all();
    return std::move(job.result);
}

void BatchScheduler::enter() {
    Ticket ticket;
    std::unique_lock<std::mutex> lock(mutex_);
    queue_.push_back(&ticket);
    changed_.notify_all();  // ends a batch's wait: reads behind this turn cannot join it
    wait_turn(lock, ticket);
    queue_.pop_front();
    busy_ = true;
}

void BatchScheduler::leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    busy_ = false;
    ++stats_.generation_units;
    record(0);
    changed_.notify_all();
}

SchedulerStats BatchScheduler::stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    SchedulerStats s = stats_;
    s.queued = static_cast<int>(queue_.size());
    return s;
}

}  // namespace engine
