// AdmissionGate on its own: FIFO order, the queue bound, the wait bound, close() and abandoned
// waiters, observed through counts() rather than timing wherever the order matters.
#include "core/server/admission.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using core::AdmissionGate;
using namespace std::chrono_literals;

namespace {

bool waitFor(const std::function<bool()>& condition) {
    for (int i = 0; i < 5000; ++i) {
        if (condition()) return true;
        std::this_thread::sleep_for(1ms);
    }
    return false;
}

}  // namespace

class TestAdmission : public QObject {
    Q_OBJECT

  private slots:
    void admitsUpToTheBound() {
        AdmissionGate gate({2, 10, 30000ms});
        auto a = gate.acquire();
        auto b = gate.acquire();
        QVERIFY(std::holds_alternative<AdmissionGate::Ticket>(a));
        QVERIFY(std::holds_alternative<AdmissionGate::Ticket>(b));
        QCOMPARE(gate.counts().inflight, 2);
        std::get<AdmissionGate::Ticket>(a).release();
        QCOMPARE(gate.counts().inflight, 1);
    }

    // Waiters are admitted in the order they arrived, one per freed slot.
    void fifoOrder() {
        AdmissionGate gate({1, 10, 30000ms});
        auto holder = std::get<AdmissionGate::Ticket>(gate.acquire());
        std::mutex m;
        std::vector<int> order;
        std::vector<std::thread> waiters;
        for (int i = 0; i < 5; ++i) {
            waiters.emplace_back([&, i] {
                auto got = gate.acquire();
                std::lock_guard lock(m);
                order.push_back(std::holds_alternative<AdmissionGate::Ticket>(got) ? i : -1);
            });  // the ticket is released as the thread ends, admitting the next
            QVERIFY(waitFor([&] { return gate.counts().queued == i + 1; }));
        }
        holder.release();
        for (auto& t : waiters) t.join();
        QCOMPARE(order, (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(gate.counts().inflight, 0);
        QCOMPARE(gate.counts().queued, 0);
    }

    void queueFullIsImmediate() {
        AdmissionGate gate({1, 1, 30000ms});
        auto holder = std::get<AdmissionGate::Ticket>(gate.acquire());
        std::thread waiter([&] { (void)gate.acquire(); });
        QVERIFY(waitFor([&] { return gate.counts().queued == 1; }));
        const auto t0 = std::chrono::steady_clock::now();
        auto refused = gate.acquire();
        QVERIFY(std::chrono::steady_clock::now() - t0 < 5s);
        QCOMPARE(std::get<AdmissionGate::Refusal>(refused), AdmissionGate::Refusal::QueueFull);
        holder.release();
        waiter.join();
    }

    void waitBound() {
        AdmissionGate gate({1, 4, 200ms});
        auto holder = std::get<AdmissionGate::Ticket>(gate.acquire());
        const auto t0 = std::chrono::steady_clock::now();
        auto late = gate.acquire();
        QVERIFY(std::chrono::steady_clock::now() - t0 >= 200ms);
        QCOMPARE(std::get<AdmissionGate::Refusal>(late), AdmissionGate::Refusal::TimedOut);
        QCOMPARE(gate.counts().queued, 0);  // the timed-out waiter left the queue
    }

    // close(): waiters are refused, admitted tickets stay valid, later callers are refused.
    void closeRefusesWaiters() {
        AdmissionGate gate({1, 4, 30000ms});
        auto holder = std::get<AdmissionGate::Ticket>(gate.acquire());
        std::atomic<int> refusal{-1};
        std::thread waiter([&] {
            auto got = gate.acquire();
            if (auto* r = std::get_if<AdmissionGate::Refusal>(&got)) refusal = static_cast<int>(*r);
        });
        QVERIFY(waitFor([&] { return gate.counts().queued == 1; }));
        gate.close();
        waiter.join();
        QCOMPARE(refusal.load(), static_cast<int>(AdmissionGate::Refusal::Closed));
        QCOMPARE(gate.counts().inflight, 1);
        QCOMPARE(std::get<AdmissionGate::Refusal>(gate.acquire()), AdmissionGate::Refusal::Closed);
        holder.release();
        QCOMPARE(gate.counts().inflight, 0);
    }

    // A waiter whose caller went away gives up its place; the next one moves up.
    void abandonedWaiterLeaves() {
        AdmissionGate gate({1, 4, 30000ms});
        auto holder = std::get<AdmissionGate::Ticket>(gate.acquire());
        std::atomic<bool> gone{false};
        std::atomic<int> refusal{-1};
        std::thread waiter([&] {
            auto got = gate.acquire([&] { return gone.load(); });
            if (auto* r = std::get_if<AdmissionGate::Refusal>(&got)) refusal = static_cast<int>(*r);
        });
        QVERIFY(waitFor([&] { return gate.counts().queued == 1; }));
        gone = true;
        waiter.join();
        QCOMPARE(refusal.load(), static_cast<int>(AdmissionGate::Refusal::Abandoned));
        QCOMPARE(gate.counts().queued, 0);
    }

    void unbounded() {
        AdmissionGate gate({0, 0, 0ms});
        std::vector<AdmissionGate::Ticket> held;
        for (int i = 0; i < 100; ++i)
            held.push_back(std::get<AdmissionGate::Ticket>(gate.acquire()));
        QCOMPARE(gate.counts().inflight, 100);
    }
};

QTEST_GUILESS_MAIN(TestAdmission)
#include "tst_admission.moc"
