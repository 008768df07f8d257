// What HTTP adds to a decision: the same decisions on the tiny model run in process
// (LocalBackend::decide) and through `dgem serve`'s server over loopback (DgemChatBackend ->
// DecisionServer -> the same LocalBackend), interleaved. Prints the per-decision overhead
// (p50, p95), the ratio to the in-process time, and the server's decisions per second with
// concurrent clients against the in-process rate.
// Usage: bench-http_overhead [MODEL_DIR] [N]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "core/decision_server.h"
#include "core/http_client.h"
#include "core/local_backend.h"
#include "core/remote_backends.h"

namespace {

const char* kSchema = R"({"questions": [
  {"id": "urgent", "type": "boolean", "instructions": "Does the customer need help today?"},
  {"id": "team", "type": "choice", "instructions": "Which team should answer?",
   "options": [{"name": "billing"}, {"name": "support"}, {"name": "engineering"}]}],
  "samples": 1, "isolate": "none"})";

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1,
                      static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
    core::ensure_core_application();
    const std::string model = argc > 1 ? argv[1] : DS_BINARY_DIR "/models/tiny";
    const int n = argc > 2 ? std::atoi(argv[2]) : 200;
    engine::EngineOptions eo;
    eo.model_dir = model;
    eo.device = engine::Device::Cpu;
    auto opened = core::LocalBackend::open(eo);
    if (!opened) {
        std::fprintf(stderr, "bench-http_overhead: %s\n", opened.error().message.c_str());
        return 1;
    }
    engine::Engine* engine = &(*opened)->engine();
    std::shared_ptr<core::LocalBackend> local(std::move(opened.value()));
    core::ServerOptions so;
    so.port = 0;
    so.max_inflight = 0;
    core::DecisionServer server(local, so, engine);
    if (!server.start()) return 1;
    core::RemoteOptions ro;
    ro.url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1";
    core::DgemChatBackend http(ro);
    auto schema = core::parse_schema(nlohmann::json::parse(kSchema), "bench");
    const nlohmann::json state = {{"ticket", "I was charged twice and need a refund today."}};

    auto request = [&](int i) {
        return core::DecideRequest{*schema, state, static_cast<uint64_t>(i)};
    };
    for (int i = 0; i < 10; ++i) {  // warm up both paths (connections, caches)
        (void)local->decide(request(i), {}, {});
        if (auto d = http.decide(request(i), {}, {}); !d) {
            std::fprintf(stderr, "bench-http_overhead: %s\n", d.error().message.c_str());
            return 1;
        }
    }
    std::vector<double> local_ms, http_ms, overhead_ms;
    for (int i = 0; i < n; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        (void)local->decide(request(i), {}, {});
        local_ms.push_back(ms_since(t0));
        auto t1 = std::chrono::steady_clock::now();
        (void)http.decide(request(i), {}, {});
        http_ms.push_back(ms_since(t1));
        overhead_ms.push_back(http_ms.back() - local_ms.back());
    }
    const double local_p50 = percentile(local_ms, 0.5), http_p50 = percentile(http_ms, 0.5);
    std::printf("decisions: %d on %s (%s)\n", n, model.c_str(), engine->info().device.c_str());
    std::printf("in process   p50 %8.3f ms  p95 %8.3f ms\n", local_p50, percentile(local_ms, 0.95));
    std::printf("over HTTP    p50 %8.3f ms  p95 %8.3f ms\n", http_p50, percentile(http_ms, 0.95));
    std::printf(
        "HTTP overhead per decision: p50 %.3f ms, p95 %.3f ms (HTTP/in-process p50 ratio %.3f)\n",
        percentile(overhead_ms, 0.5), percentile(overhead_ms, 0.95), http_p50 / local_p50);

    // Throughput: the server with 8 concurrent clients against back-to-back in-process calls.
    const double seconds = 3;
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int in_process = 0;
    while (std::chrono::steady_clock::now() < until) {
        (void)local->decide(request(in_process), {}, {});
        ++in_process;
    }
    std::atomic<int> served{0}, failed{0};
    until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::vector<std::thread> clients;
    for (int c = 0; c < 8; ++c)
        clients.emplace_back([&, c] {
            core::DgemChatBackend own(ro);
            for (int i = c; std::chrono::steady_clock::now() < until; i += 8) {
                if (own.decide(request(i), {}, {}))
                    ++served;
                else
                    ++failed;
            }
        });
    for (auto& t : clients) t.join();
    std::printf(
        "throughput: server %.1f decisions/s with 8 clients, in process %.1f/s (ratio %.3f), %d "
        "errors\n",
        served / seconds, in_process / seconds,
        served / static_cast<double>(std::max(1, in_process)), failed.load());
    server.stop();
    return 0;
}
