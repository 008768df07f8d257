#include "util/thread_pool.h"

#include <algorithm>

namespace engine::util {

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

void ThreadPool::run_tasks() {
    for (;;) {
        const int64_t i = next_.fetch_add(1, std::memory_order_relaxed);
        if (i >= n_.load()) break;
        (*fn_.load())(i);
    }
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            ++active_;
        }
        run_tasks();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (--active_ == 0) done_.notify_all();
        }
    }
}

void ThreadPool::parallel_for(int64_t n, const std::function<void(int64_t)>& fn) {
    if (n <= 0) return;
    if (workers_.empty() || n == 1) {
        for (int64_t i = 0; i < n; ++i) fn(i);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        fn_.store(&fn);
        n_.store(n);
        next_.store(0);
        ++generation_;
    }
    wake_.notify_all();
    run_tasks();
    std::unique_lock<std::mutex> lock(mutex_);
    // Workers that woke for this generation finish their tasks; late ones find nothing to do.
    done_.wait(lock, [&] { return active_ == 0 && next_.load() >= n_.load(); });
}

void ThreadPool::parallel_chunks(int64_t n, const std::function<void(int64_t, int64_t)>& fn,
                                 int64_t min_chunk) {
    if (n <= 0) return;
    const int64_t chunks =
        std::max<int64_t>(1, std::min<int64_t>(size(), (n + min_chunk - 1) / min_chunk));
    const int64_t step = (n + chunks - 1) / chunks;
    parallel_for(chunks, [&](int64_t c) {
        const int64_t b = c * step, e = std::min(n, b + step);
        if (b < e) fn(b, e);
    });
}

}  // namespace engine::util
