#pragma once
// dgem serve's metrics, in the Prometheus text exposition format (GET /metrics):
//   dgem_build_info{version, model, device}                 1
//   dgem_start_time_seconds                                  gauge
//   dgem_http_requests_total{route, method, status}          counter
//   dgem_http_request_duration_seconds{route}                histogram
//   dgem_admission_wait_seconds                              histogram: waits for a decision slot
//   dgem_admission_refusals_total                            counter: 503 overloaded
//   dgem_decisions_total{outcome="ok"|"error"}               counter
//   dgem_decision_seconds{phase=engine_queue|encode|decode|readout|total}   histogram
//   dgem_decision_reads                                      histogram: canvas rows per decision
//   dgem_decision_prompt_tokens_total, ..._cached_prompt_tokens_total       counters
//   dgem_inflight_decisions, dgem_queued_decisions, dgem_max_inflight_decisions   gauges
//   and from the local engine, where the backend reports them: dgem_engine_read_batches_total,
//   dgem_engine_reads_total, dgem_engine_largest_read_batch, dgem_engine_generation_steps_total,
//   dgem_engine_waiting (reads and steps waiting for the engine now),
//   dgem_prefix_cache_hits_total{kind="full"|"partial"}, dgem_prefix_cache_misses_total,
//   dgem_prefix_cache_tokens_reused_total, dgem_prefix_cache_evictions_total,
//   dgem_prefix_cache_entries, dgem_prefix_cache_bytes, dgem_prefix_cache_budget_bytes.
// Route labels are the server's route patterns ("/api/decide/{template}"; "other" for any
// unknown path), so a client cannot grow the label set. No key, token or request content is
// ever a label or value.
//
// Thread safety: every member may be called from any thread.

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/decision.h"

namespace core {

class ServerMetrics {
  public:
    ServerMetrics();

    void record_request(std::string_view path, std::string_view method, int status, double seconds);
    void record_admission(double wait_seconds, bool admitted);
    void record_decision(const Decision& decision);
    void record_decision_failure();

    // What is read when the metrics are scraped.
    struct Snapshot {
        std::string version, model, device;
        int inflight = 0, queued = 0, max_inflight = 0;
        nlohmann::json engine;  // the backend's health details (batching, prefix_cache), or null
    };
    std::string render(const Snapshot& snapshot) const;

    // The route label of a request path.
    static std::string route_label(std::string_view path);

    static constexpr const char* kContentType = "text/plain; version=0.0.4; charset=utf-8";

  private:
    struct Histogram {
        std::vector<double> bounds;
        std::vector<unsigned long long> counts;  // per bucket, not cumulative
        double sum = 0;
        unsigned long long count = 0;
        void observe(double v);
    };
    using Labels = std::vector<std::pair<std::string, std::string>>;

    mutable std::mutex mutex_;
    double start_time_s_ = 0;
    std::map<Labels, unsigned long long> requests_;
    std::map<Labels, Histogram> request_seconds_;
    Histogram admission_wait_;
    unsigned long long admission_refusals_ = 0;
    unsigned long long decisions_ok_ = 0, decisions_failed_ = 0;
    std::map<Labels, Histogram> decision_seconds_;
    Histogram decision_reads_;
    unsigned long long prompt_tokens_ = 0, cached_prompt_tokens_ = 0;
};

}  // namespace core
