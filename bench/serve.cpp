// dgem serve under load: the same decisions made one after another in process (the peer) and
// over loopback HTTP by 1, 8 and 32 concurrent clients of the real server (DgemChatBackend ->
// DecisionServer with its default admission -> the same LocalBackend), on the tiny and the
// small presets. Prints decisions/s and p50/p95 latency per row with the ratio to the
// sequential rate, and the HTTP overhead per decision (p50, p95) measured by interleaving the
// same request in process and over HTTP. Both sides share one engine with the same thread
// count, so they run on the same threads. The overhead is split by the server's Server-Timing
// (wire + client vs the server's own decide), and measured once more with a lean keep-alive
// client (cpp-httplib's, I/O on the calling thread) to separate the server and the wire from
// Decision Studio's Qt client.
// Two workloads: the same decision with another seed each time (every prompt the same: after
// the first, the engine's prefix cache holds it whole), and a different ticket each time (the
// policy's part of the prompt is shared, the ticket's part is encoded anew).
// Usage: bench-serve [--preset tiny|small|both] [--model DIR] [--decisions N] [--threads T]
//                    [--prompts same|distinct|both] [--prefix-cache-mb MB]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "base/time.h"
#include "core/decide/local_backend.h"
#include "core/net/http_client.h"
#include "core/net/remote_backends.h"
#include "core/server/decision_server.h"
#include "engine/tiny_model.h"

namespace {

namespace fs = std::filesystem;

const char* kSchema = R"({"questions": [
  {"id": "urgent", "type": "boolean", "instructions": "Does the customer need help today?"},
  {"id": "team", "type": "choice", "instructions": "Which team should answer?",
   "options": [{"name": "billing"}, {"name": "support"}, {"name": "engineering"}]}],
  "samples": 1, "isolate": "none"})";

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1,
                      static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

using base::ms_since;

struct Row {
    double per_s = 0, p50 = 0, p95 = 0;
    int errors = 0;
};

// The model folder of a preset: build/models/tiny for tiny, a generated one for small.
std::string model_for(const std::string& preset) {
    if (preset == "tiny") return DS_BINARY_DIR "/models/tiny";
    const fs::path dir = fs::path(DS_BINARY_DIR) / "models" / preset;
    if (!fs::exists(dir / "model.safetensors")) {
        std::fprintf(stderr, "bench-serve: writing the %s preset to %s\n", preset.c_str(),
                     dir.c_str());
        engine::TinyModelOptions o;
        o.out_dir = dir;
        o.preset = preset;
        o.tokenizer_json = fs::path(DS_BINARY_DIR) / "models/tiny/tokenizer.json";
        if (auto w = engine::write_tiny_model(o); !w) {
            std::fprintf(stderr, "bench-serve: %s\n", w.error().message.c_str());
            return {};
        }
    }
    return dir.string();
}

// The ticket of decision i: the same text, or one of its own.
nlohmann::json state_for(int i, bool distinct) {
    static const char* kinds[] = {"charged twice", "locked out of my account",
                                  "seeing an error on checkout", "missing an invoice"};
    if (!distinct) return {{"ticket", "I was charged twice and need a refund today."}};
    return {{"ticket", "Order " + std::to_string(10000 + i * 37) + ": I am " +
                           kinds[static_cast<size_t>(i) % 4] + " since " +
                           std::to_string(i % 28 + 1) + " May, please help."}};
}

int run_preset(const std::string& model, int n, int threads, bool distinct,
               int64_t prefix_cache_bytes) {
    engine::EngineOptions eo;
    eo.model_dir = model;
    eo.device = engine::Device::Cpu;
    eo.threads = threads;
    eo.prefix_cache_bytes = prefix_cache_bytes;
    auto opened = core::LocalBackend::open(eo);
    if (!opened) {
        std::fprintf(stderr, "bench-serve: %s\n", opened.error().message.c_str());
        return 1;
    }
    engine::Engine* engine = &(*opened)->engine();
    std::shared_ptr<core::LocalBackend> local(std::move(opened.value()));
    core::ServerOptions so;  // dgem serve's defaults: MAX_INFLIGHT 8, a queue behind it
    so.port = 0;
    core::DecisionServer server(local, so);
    if (!server.start()) return 1;
    core::RemoteOptions ro;
    ro.url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1";
    ro.transport.max_retries = 0;  // a refusal is an error here, not hidden by a retry
    ro.transport.timeout_s = 600;
    auto schema = core::parse_schema(nlohmann::json::parse(kSchema), "bench");
    auto request = [&](int i) {
        return core::DecideRequest{*schema, state_for(i, distinct), static_cast<uint64_t>(i)};
    };

    core::DgemChatBackend http(ro);
    for (int i = 0; i < 5; ++i) {  // warm both paths (connections, caches, page faults)
        (void)local->decide(request(i), {}, {});
        if (auto d = http.decide(request(i), {}, {}); !d) {
            std::fprintf(stderr, "bench-serve: %s\n", d.error().message.c_str());
            return 1;
        }
    }

    // The peer: n decisions one after another in process.
    Row sequential;
    {
        std::vector<double> ms;
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i) {
            const auto t = std::chrono::steady_clock::now();
            if (!local->decide(request(i), {}, {})) ++sequential.errors;
            ms.push_back(ms_since(t));
        }
        sequential.per_s = n / (ms_since(t0) / 1000.0);
        sequential.p50 = percentile(ms, 0.5);
        sequential.p95 = percentile(ms, 0.95);
    }

    // HTTP overhead: the same request in process and over HTTP, interleaved.
    // Split by the server's own Server-Timing: the wire and the client (wall - server's decide)
    // and what the server's decide costs beyond the in-process one (parsing, rendering, reply).
    // Each request is made once before it is timed, so both sides find its prompt cached.
    std::vector<double> overhead, wire_and_client, server_extra;
    for (int i = 0; i < std::min(n, 100); ++i) {
        (void)local->decide(request(i), {}, {});
        auto t0 = std::chrono::steady_clock::now();
        (void)local->decide(request(i), {}, {});
        const double in_process = ms_since(t0);
        auto t1 = std::chrono::steady_clock::now();
        auto d = http.decide(request(i), {}, {});
        const double wall = ms_since(t1);
        overhead.push_back(wall - in_process);
        if (d && d->timings.network_ms > 0) {
            wire_and_client.push_back(d->timings.network_ms);
            server_extra.push_back(wall - d->timings.network_ms - in_process);
        }
    }

    // The same requests through a lean keep-alive client: the server and the wire alone.
    std::vector<double> lean_overhead;
    {
        httplib::Client lean("127.0.0.1", server.port());
        lean.set_keep_alive(true);
        lean.set_tcp_nodelay(true);  // as curl and Qt: no Nagle wait between headers and body
        lean.set_read_timeout(600, 0);
        for (int i = 0; i < std::min(n, 100); ++i) {
            const nlohmann::json body = {
                {"messages",
                 {{{"role", "system"}, {"content", kSchema}},
                  {{"role", "user"}, {"content", state_for(i, distinct).dump()}}}},
                {"seed", i}};
            const std::string text = body.dump();
            (void)local->decide(request(i), {}, {});
            auto t0 = std::chrono::steady_clock::now();
            (void)local->decide(request(i), {}, {});
            const double in_process = ms_since(t0);
            auto t1 = std::chrono::steady_clock::now();
            auto res = lean.Post("/v1/chat/completions", text, "application/json");
            const double wall = ms_since(t1);
            if (res && res->status == 200) lean_overhead.push_back(wall - in_process);
        }
    }

    // n decisions over HTTP spread over `clients` concurrent clients.
    // Each row's decisions from `first` on: with distinct prompts no row finds its tickets
    // cached by an earlier row.
    auto concurrent = [&](int clients, int first) {
        Row row;
        std::vector<std::vector<double>> ms(static_cast<size_t>(clients));
        std::atomic<int> next{0}, errors{0};
        std::vector<std::thread> pool;
        const auto t0 = std::chrono::steady_clock::now();
        for (int c = 0; c < clients; ++c)
            pool.emplace_back([&, c] {
                core::DgemChatBackend own(ro);
                for (int i = next++; i < n; i = next++) {
                    const auto t = std::chrono::steady_clock::now();
                    if (!own.decide(request(first + i), {}, {})) ++errors;
                    ms[static_cast<size_t>(c)].push_back(ms_since(t));
                }
            });
        for (auto& t : pool) t.join();
        row.per_s = n / (ms_since(t0) / 1000.0);
        std::vector<double> all;
        for (auto& v : ms) all.insert(all.end(), v.begin(), v.end());
        row.p50 = percentile(all, 0.5);
        row.p95 = percentile(all, 0.95);
        row.errors = errors.load();
        return row;
    };

    const auto cache_budget = engine->scheduler_stats().prefix_cache.budget_bytes;
    std::printf("\n%s (%s, %d engine threads, %d decisions a row, %s prompts, prefix cache %s)\n",
                model.c_str(), engine->info().device.c_str(), threads, n,
                distinct ? "distinct" : "the same",
                cache_budget ? (std::to_string(cache_budget >> 20) + " MiB").c_str() : "off");
    std::printf("%-24s %12s %10s %10s %8s %14s\n", "", "decisions/s", "p50 ms", "p95 ms", "errors",
                "vs sequential");
    auto print = [&](const char* name, const Row& r) {
        std::printf("%-24s %12.1f %10.2f %10.2f %8d %13.2fx\n", name, r.per_s, r.p50, r.p95,
                    r.errors, r.per_s / sequential.per_s);
    };
    print("in process, sequential", sequential);
    int first = 2 * n;  // after the sequential row's and the overhead loops' decisions
    for (int clients : {1, 8, 32}) {
        const std::string name =
            "HTTP, " + std::to_string(clients) + " client" + (clients == 1 ? "" : "s");
        print(name.c_str(), concurrent(clients, first));
        first += n;
    }
    std::printf("HTTP overhead per decision: p50 %.3f ms, p95 %.3f ms (in process p50 %.3f ms)\n",
                percentile(overhead, 0.5), percentile(overhead, 0.95), sequential.p50);
    std::printf(
        "  of which: wire and client p50 %.3f ms; server's decide beyond in process p50 "
        "%.3f ms\n",
        percentile(wire_and_client, 0.5), percentile(server_extra, 0.5));
    std::printf(
        "HTTP overhead with a lean keep-alive client (cpp-httplib): p50 %.3f ms, p95 %.3f "
        "ms (%zu answered)\n",
        percentile(lean_overhead, 0.5), percentile(lean_overhead, 0.95), lean_overhead.size());
    const auto pc = engine->scheduler_stats().prefix_cache;
    std::printf(
        "prefix cache: %llu whole-prompt hits, %llu partial, %llu misses, %llu prompt tokens "
        "reused\n",
        static_cast<unsigned long long>(pc.full_hits),
        static_cast<unsigned long long>(pc.partial_hits),
        static_cast<unsigned long long>(pc.misses),
        static_cast<unsigned long long>(pc.tokens_reused));
    server.stop();
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    core::ensure_core_application();
    std::string preset = "both", model;
    int n = 200, threads = 0;
    std::string prompts = "both";
    int64_t prefix_cache_bytes = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--preset")
            preset = value();
        else if (a == "--model")
            model = value();
        else if (a == "--decisions")
            n = std::max(1, std::atoi(value().c_str()));
        else if (a == "--threads")
            threads = std::atoi(value().c_str());
        else if (a == "--prompts")
            prompts = value();
        else if (a == "--prefix-cache-mb")
            prefix_cache_bytes = static_cast<int64_t>(std::max(0, std::atoi(value().c_str())))
                                 << 20;
        else {
            std::fprintf(stderr,
                         "usage: bench-serve [--preset tiny|small|both] [--model DIR] "
                         "[--decisions N] [--threads T] [--prompts same|distinct|both] "
                         "[--prefix-cache-mb MB]\n");
            return 2;
        }
    }
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::string> models;
    if (!model.empty())
        models.push_back(model);
    else if (preset == "both")
        models = {model_for("tiny"), model_for("small")};
    else
        models.push_back(model_for(preset));
    std::vector<bool> workloads;
    if (prompts == "same" || prompts == "both") workloads.push_back(false);
    if (prompts == "distinct" || prompts == "both") workloads.push_back(true);
    if (workloads.empty()) {
        std::fprintf(stderr, "bench-serve: --prompts %s: accepted: same, distinct or both\n",
                     prompts.c_str());
        return 2;
    }
    for (const auto& m : models) {
        if (m.empty()) return 1;
        for (bool distinct : workloads)
            if (int rc = run_preset(m, n, threads, distinct, prefix_cache_bytes)) return rc;
    }
    return 0;
}
