#pragma once
// Cooperative cancellation shared between a caller (UI, server, CLI signal handler) and long work.

#include <atomic>
#include <memory>

namespace base {

class CancelToken {
  public:
    CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
    void cancel() const { flag_->store(true, std::memory_order_relaxed); }
    bool cancelled() const { return flag_->load(std::memory_order_relaxed); }

  private:
    std::shared_ptr<std::atomic<bool>> flag_;  // copies share one flag
};

}  // namespace base
