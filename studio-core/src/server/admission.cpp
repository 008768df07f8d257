#include "core/server/admission.h"

namespace core {

AdmissionGate::Ticket& AdmissionGate::Ticket::operator=(Ticket&& o) noexcept {
    if (this != &o) {
        release();
        gate_ = o.gate_;
        o.gate_ = nullptr;
    }
    return *this;
}

void AdmissionGate::Ticket::release() {
    if (gate_) gate_->release_slot();
    gate_ = nullptr;
}

AdmissionGate::AdmissionGate(Limits limits) : limits_(limits) {}

AdmissionGate::~AdmissionGate() {
    close();
}

bool AdmissionGate::closed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_;
}

AdmissionGate::Counts AdmissionGate::counts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {inflight_, static_cast<int>(queue_.size())};
}

const char* AdmissionGate::describe(Refusal r) {
    switch (r) {
        case Refusal::QueueFull:
            return "the wait queue is full (MAX_QUEUE)";
        case Refusal::TimedOut:
            return "no decision slot came free in time (INFLIGHT_WAIT_S)";
        case Refusal::Closed:
            return "the server is stopping";
        case Refusal::Abandoned:
            return "the client went away while queued";
    }
    return "refused";
}

void AdmissionGate::admit_waiters_locked() {
    if (closed_) return;  // a stopping server answers its waiters instead of starting them
    bool any = false;
    while (!queue_.empty() && (limits_.max_inflight <= 0 || inflight_ < limits_.max_inflight)) {
        queue_.front()->admitted = true;
        queue_.pop_front();
        ++inflight_;
        any = true;
    }
    if (any) changed_.notify_all();
}

void AdmissionGate::release_slot() {
    std::lock_guard<std::mutex> lock(mutex_);
    --inflight_;
    admit_waiters_locked();
}

std::variant<AdmissionGate::Ticket, AdmissionGate::Refusal> AdmissionGate::acquire(
    const std::function<bool()>& abandoned) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (closed_) return Refusal::Closed;
    // Nobody waiting and a slot free: straight in (a waiter ahead keeps its turn).
    if (queue_.empty() && (limits_.max_inflight <= 0 || inflight_ < limits_.max_inflight)) {
        ++inflight_;
        return Ticket(this);
    }
    if (static_cast<int>(queue_.size()) >= limits_.max_queue) return Refusal::QueueFull;

    Waiter self;
    const auto place = queue_.insert(queue_.end(), &self);
    const auto deadline = std::chrono::steady_clock::now() + limits_.max_wait;
    // Poll `abandoned` a few times a second; otherwise sleep until admitted, closed or late.
    constexpr auto kPoll = std::chrono::milliseconds(100);
    for (;;) {
        if (self.admitted) return Ticket(this);
        if (closed_ || std::chrono::steady_clock::now() >= deadline) break;
        if (abandoned) {
            lock.unlock();
            const bool gone = abandoned();
            lock.lock();
            if (self.admitted) return Ticket(this);
            if (gone) {
                queue_.erase(place);
                return Refusal::Abandoned;
            }
        }
        const auto wake =
            abandoned ? std::min(deadline, std::chrono::steady_clock::now() + kPoll) : deadline;
        changed_.wait_until(lock, wake);
    }
    if (self.admitted) return Ticket(this);
    queue_.erase(place);
    return closed_ ? Refusal::Closed : Refusal::TimedOut;
}

void AdmissionGate::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    changed_.notify_all();
}

}  // namespace core
