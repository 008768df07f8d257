#pragma once
// Admission as dgem's serving image does it: at most `max_inflight` decisions run at once; the
// rest wait in arrival (FIFO) order up to `max_wait`, in a queue of at most `max_queue`. A
// caller past the queue bound is refused at once, one that waited too long is refused then, and
// close() refuses everyone still waiting (a server that is stopping) while what runs finishes.
// The gate bounds the HTTP server's callers. Behind it, everything that shares one local engine
// (the server, the bench runner's workers, the Studio's runs) is admitted by the engine's own
// FIFO scheduler (engine::BatchSettings), which batches their slot reads and interleaves
// generation steps; a second gate in the runner would only add a queue in front of that one.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <variant>

namespace core {

class AdmissionGate {
  public:
    struct Limits {
        int max_inflight = 8;  // 0: no bound (everyone is admitted at once)
        int max_queue = 256;   // callers allowed to wait; past it refusal is immediate
        std::chrono::milliseconds max_wait{30000};
    };

    enum class Refusal {
        QueueFull,  // max_queue callers were already waiting
        TimedOut,   // waited max_wait without a slot
        Closed,     // the gate was closed (server stopping)
        Abandoned,  // the caller's own `abandoned` check said it no longer wants the slot
    };

    // An admitted slot; releases it (admitting the next waiter) when destroyed.
    class Ticket {
      public:
        Ticket() = default;
        Ticket(Ticket&& o) noexcept : gate_(o.gate_) { o.gate_ = nullptr; }
        Ticket& operator=(Ticket&& o) noexcept;
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;
        ~Ticket() { release(); }
        void release();

      private:
        friend class AdmissionGate;
        explicit Ticket(AdmissionGate* gate) : gate_(gate) {}
        AdmissionGate* gate_ = nullptr;
    };

    struct Counts {
        int inflight = 0;
        int queued = 0;
    };

    explicit AdmissionGate(Limits limits);
    ~AdmissionGate();  // closes; tickets must not outlive the gate
    AdmissionGate(const AdmissionGate&) = delete;
    AdmissionGate& operator=(const AdmissionGate&) = delete;

    // Waits for a slot in FIFO order. `abandoned` (optional) is polled while waiting, so a
    // caller that went away stops holding a place in the queue.
    std::variant<Ticket, Refusal> acquire(const std::function<bool()>& abandoned = {});

    // Refuses every waiter (Closed) and every later acquire; admitted tickets run on.
    void close();
    bool closed() const;
    Counts counts() const;
    const Limits& limits() const { return limits_; }

    // How a refusal reads in an error message ("... (MAX_QUEUE)").
    static const char* describe(Refusal r);

  private:
    struct Waiter {
        bool admitted = false;
    };
    void release_slot();
    void admit_waiters_locked();

    const Limits limits_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::list<Waiter*> queue_;  // front is the oldest waiter
    int inflight_ = 0;
    bool closed_ = false;
};

}  // namespace core
