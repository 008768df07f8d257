// Failover and spreading over several servers (see core/endpoints/failover_backend.h).
#include "core/endpoints/failover_backend.h"

#include <algorithm>
#include <numeric>

namespace core {

namespace {

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

FailoverBackend::FailoverBackend(std::vector<Server> servers)
    : servers_(std::move(servers)), state_(std::make_unique<State[]>(servers_.size())) {}

std::string FailoverBackend::describe() const {
    std::string text =
        servers_.empty() ? std::string("no servers") : servers_[0].backend->describe();
    if (servers_.size() > 1)
        text += " (+" + std::to_string(servers_.size() - 1) + " more: failover and spreading)";
    return text;
}

bool FailoverBackend::worth_another_server(const engine::Error& error) {
    if (error.kind != engine::ErrorKind::Remote) return false;
    switch (error.cause) {
        case engine::Cause::None:         // not reached, or an unusable answer
        case engine::Cause::Timeout:      // no answer in time, or no connection
        case engine::Cause::Overloaded:   // 429/503 after the transport's retries
        case engine::Cause::ServerError:  // 5xx
            return true;
        default:
            return false;
    }
}

// Up first, then fewest calls in flight, then list order.
std::vector<size_t> FailoverBackend::order() const {
    std::vector<size_t> idx(servers_.size());
    std::iota(idx.begin(), idx.end(), size_t{0});
    const int64_t now = now_ns();
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        const bool down_a = state_[a].down_until_ns.load() > now;
        const bool down_b = state_[b].down_until_ns.load() > now;
        if (down_a != down_b) return down_b;
        return state_[a].in_flight.load() < state_[b].in_flight.load();
    });
    return idx;
}

template <class Call>
auto FailoverBackend::each_server(const Call& call) -> decltype(call(std::declval<Backend&>())) {
    if (servers_.empty()) return engine::bad_input("no server URL to send the request to");
    std::string failures;
    engine::Error last;
    for (size_t i : order()) {
        State& state = state_[i];
        state.in_flight.fetch_add(1);
        auto result = call(*servers_[i].backend);
        state.in_flight.fetch_sub(1);
        if (result) {
            state.down_until_ns.store(0);
            return result;
        }
        if (!worth_another_server(result.error())) return result;
        state.down_until_ns.store(
            now_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(kCooldown).count());
        last = result.error();
        failures += (failures.empty() ? "" : "; ") + result.error().message;
    }
    if (servers_.size() > 1)
        last.message = "all " + std::to_string(servers_.size()) + " servers failed: " + failures;
    return last;
}

Result<Decision> FailoverBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                         const CancelToken& cancel) {
    return each_server([&](Backend& b) { return b.decide(request, progress, cancel); });
}

Result<Generation> FailoverBackend::generate(const GenerateRequest& request,
                                             const ProgressFn& progress,
                                             const CancelToken& cancel) {
    return each_server([&](Backend& b) { return b.generate(request, progress, cancel); });
}

Result<HealthInfo> FailoverBackend::health(const CancelToken& cancel) {
    return each_server([&](Backend& b) { return b.health(cancel); });
}

}  // namespace core
