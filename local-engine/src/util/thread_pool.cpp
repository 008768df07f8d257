#include "util/thread_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace engine::util {
namespace {

// How long an idle thread polls before it sleeps: longer than the serial gaps between a pass's
// parallel calls (microseconds), far shorter than anything a user could notice as load.
constexpr auto kSpin = std::chrono::microseconds(200);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

// Polls `ready` for up to kSpin; true as soon as it holds.
template <class Ready>
bool spin_until(Ready&& ready) {
    const auto deadline = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (ready()) return true;
            cpu_relax();
        }
        if (std::chrono::steady_clock::now() >= deadline) return ready();
    }
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::run_tasks(Job& job) {
    for (;;) {
        const int64_t i0 = job.next.fetch_add(job.grain, std::memory_order_relaxed);
        if (i0 >= job.n) return;
        const int64_t i1 = std::min(job.n, i0 + job.grain);
        for (int64_t i = i0; i < i1; ++i) (*job.fn)(i);
    }
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        Job* job = nullptr;
        const auto called = [&] {
            return stop_.load(std::memory_order_acquire) ||
                   generation_.load(std::memory_order_acquire) != seen;
        };
        spin_until(called);
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, called);
            if (stop_) return;
            seen = generation_;
            // A worker that wakes after its call has returned finds job_ empty (or a newer
            // call's job, which it may join): it never touches a finished call's state.
            job = job_;
            if (!job) continue;
            ++holders_;
        }
        run_tasks(*job);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (--holders_ == 0) done_.notify_all();
        }
    }
}

void ThreadPool::parallel_for(int64_t n, const std::function<void(int64_t)>& fn, int64_t grain) {
    if (n <= 0) return;
    if (workers_.empty() || n <= grain) {
        for (int64_t i = 0; i < n; ++i) fn(i);
        return;
    }
    Job job{&fn, n, std::max<int64_t>(1, grain)};
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &job;
        ++generation_;
    }
    wake_.notify_all();
    run_tasks(job);
    // Every index is claimed once run_tasks returns; wait for the workers still running theirs,
    // then unpublish the job so that no late worker can reach it after this frame is gone. (The
    // spin only shortens the wait: the check under the mutex below is the one that counts, since
    // a worker may still pick the job up until it is unpublished.)
    spin_until([&] { return holders_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return holders_ == 0; });
    job_ = nullptr;
}

void ThreadPool::parallel_rows(int64_t n, const std::function<void(int64_t)>& fn) {
    parallel_for(n, fn, std::max<int64_t>(1, n / (8 * static_cast<int64_t>(size()))));
}

void ThreadPool::parallel_chunks(int64_t n, const std::function<void(int64_t, int64_t)>& fn,
                                 int64_t min_chunk) {
    if (n <= 0) return;
    const int64_t wanted = workers_.empty() ? 1 : 4 * static_cast<int64_t>(size());
    const int64_t chunks =
        std::max<int64_t>(1, std::min<int64_t>(wanted, (n + min_chunk - 1) / min_chunk));
    const int64_t step = (n + chunks - 1) / chunks;
    parallel_for(chunks, [&](int64_t c) {
        const int64_t b = c * step, e = std::min(n, b + step);
        if (b < e) fn(b, e);
    });
}

}  // namespace engine::util
