#pragma once
// A fixed pool of worker threads running index ranges (parallel_for). The calling thread works
// too, so a pool of N threads has N-1 workers. Not re-entrant: a task must not call
// parallel_for on the same pool.
//
// A pass makes hundreds of short parallel calls back to back (a few per layer operator), so the
// hand-off latency counts: a worker asleep on a futex wakes tens of microseconds late, and with
// work split in even chunks the whole call waits for it. Idle workers, and the caller waiting for
// them, therefore spin for a short while (kSpin) before they sleep; between the calls of a pass
// they never reach the futex, and an idle engine still sleeps.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace engine::util {

class ThreadPool {
  public:
    explicit ThreadPool(int threads);  // <= 0: all hardware threads
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return static_cast<int>(workers_.size()) + 1; }

    // Calls fn(i) for every i in [0, n), spread over the threads (dynamic scheduling: a thread
    // claims `grain` consecutive indices at a time).
    void parallel_for(int64_t n, const std::function<void(int64_t)>& fn, int64_t grain = 1);
    // parallel_for over rows whose work is small and alike (norms, residuals): claimed in runs
    // of about n / (8 * size()), so the threads do not contend on the shared counter for every
    // row yet a slow thread still costs only a run.
    void parallel_rows(int64_t n, const std::function<void(int64_t)>& fn);
    // Splits [0, n) into contiguous chunks, about four per thread, taken dynamically: fn(begin,
    // end).
    void parallel_chunks(int64_t n, const std::function<void(int64_t, int64_t)>& fn,
                         int64_t min_chunk = 1);

  private:
    // One parallel_for call. It lives on the caller's stack; a worker only reaches it through
    // job_, which it reads under the mutex, and the caller unpublishes it (under the mutex, once
    // no worker holds it) before returning. So a worker can never claim an index of one call
    // against the bound or function of another.
    struct Job {
        const std::function<void(int64_t)>* fn;
        int64_t n;
        int64_t grain;
        std::atomic<int64_t> next{0};
    };

    void worker_loop();
    static void run_tasks(Job& job);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    Job* job_ = nullptr;  // the call in progress, if any (guarded by mutex_)
    // Written under mutex_; atomic so that spinning threads may read them without it.
    std::atomic<int> holders_{0};  // workers holding job_
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
};

}  // namespace engine::util
