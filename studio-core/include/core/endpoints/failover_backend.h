#pragma once
// Several servers behind one Backend (an endpoint profile's list of URLs, dgem's -u A,B): each
// call goes to the first server that is up and has the fewest calls in flight, so one caller at
// a time always uses the first healthy server and a bench's workers spread over all of them. A
// server that fails a call with a connection error, a timeout or a 5xx (429 and 503 after the
// transport's own retries) is passed over for a while and the call goes on to the next one;
// any other failure (a 4xx, bad input, cancellation) is the call's answer.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/decide/backend.h"

namespace core {

class FailoverBackend final : public Backend {
  public:
    struct Server {
        std::string url;
        std::shared_ptr<Backend> backend;
    };
    // How long a server that failed is passed over (then it is tried again, first if it is).
    static constexpr std::chrono::seconds kCooldown{30};

    explicit FailoverBackend(std::vector<Server> servers);

    std::string describe() const override;
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;
    Result<Generation> generate(const GenerateRequest& request, const ProgressFn& progress,
                                const CancelToken& cancel) override;
    // The first server that answers /health.
    Result<HealthInfo> health(const CancelToken& cancel) override;

    // Whether an error is one the next server may not have.
    static bool worth_another_server(const engine::Error& error);

  private:
    struct State {
        std::atomic<int> in_flight{0};
        std::atomic<int64_t> down_until_ns{0};  // steady clock
    };
    template <class Call>
    auto each_server(const Call& call) -> decltype(call(std::declval<Backend&>()));
    std::vector<size_t> order() const;

    std::vector<Server> servers_;
    std::unique_ptr<State[]> state_;
};

}  // namespace core
