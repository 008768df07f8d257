// dgem serve's metrics in the Prometheus text format (core/server/metrics.h).
#include "core/server/metrics.h"

#include <cmath>
#include <cstdio>

namespace core {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

const std::vector<double>& latency_bounds() {
    static const std::vector<double> b = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                          0.5,   1,      2.5,   5,    10,    30,   60,  120};
    return b;
}

const std::vector<double>& read_bounds() {
    static const std::vector<double> b = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    return b;
}

std::string number(double v) {
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    if (std::isnan(v)) return "NaN";
    char out[40];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(out, sizeof out, "%.0f", v);
    else
        std::snprintf(out, sizeof out, "%.9g", v);
    return out;
}

std::string escape(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string label_text(const Labels& labels) {
    if (labels.empty()) return {};
    std::string out = "{";
    for (size_t i = 0; i < labels.size(); ++i)
        out += (i ? "," : "") + labels[i].first + "=\"" + escape(labels[i].second) + "\"";
    return out + "}";
}

class Writer {
  public:
    void family(const std::string& name, const char* type, const char* help) {
        out_ += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    }
    void sample(const std::string& name, const Labels& labels, double value) {
        out_ += name + label_text(labels) + " " + number(value) + "\n";
    }
    void one(const std::string& name, const char* type, const char* help, double value) {
        family(name, type, help);
        sample(name, {}, value);
    }
    template <class H>
    void histogram(const std::string& name, const Labels& labels, const H& h) {
        unsigned long long cumulative = 0;
        for (size_t i = 0; i < h.bounds.size(); ++i) {
            cumulative += h.counts[i];
            Labels with = labels;
            with.push_back({"le", number(h.bounds[i])});
            sample(name + "_bucket", with, static_cast<double>(cumulative));
        }
        Labels inf = labels;
        inf.push_back({"le", "+Inf"});
        sample(name + "_bucket", inf, static_cast<double>(h.count));
        sample(name + "_sum", labels, h.sum);
        sample(name + "_count", labels, static_cast<double>(h.count));
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

double json_number(const nlohmann::json& obj, const char* group, const char* key) {
    if (!obj.is_object() || !obj.contains(group) || !obj[group].is_object()) return -1;
    const auto& g = obj[group];
    return g.contains(key) && g[key].is_number() ? g[key].get<double>() : -1;
}

// The local engine's scheduler and prefix cache, from the backend's health details.
void engine_metrics(Writer& w, const nlohmann::json& engine) {
    struct Field {
        const char* group;
        const char* key;
        const char* name;
        const char* type;
        const char* help;
    };
    static const Field fields[] = {
        {"batching", "batches", "dgem_engine_read_batches_total", "counter",
         "Slot-read batches the engine ran."},
        {"batching", "reads", "dgem_engine_reads_total", "counter",
         "Canvas rows read in those batches (reads / batches: the mean batch size)."},
        {"batching", "largest_batch", "dgem_engine_largest_read_batch", "gauge",
         "The most reads one batch held so far."},
        {"batching", "generation_steps", "dgem_engine_generation_steps_total", "counter",
         "Generation steps the engine ran."},
        {"batching", "waiting", "dgem_engine_waiting", "gauge",
         "Reads and generation steps waiting for the engine now."},
        {"prefix_cache", "misses", "dgem_prefix_cache_misses_total", "counter",
         "Prompts the prefix cache did not hold."},
        {"prefix_cache", "tokens_reused", "dgem_prefix_cache_tokens_reused_total", "counter",
         "Prompt tokens taken from the prefix cache instead of encoded."},
        {"prefix_cache", "evictions", "dgem_prefix_cache_evictions_total", "counter",
         "Entries the prefix cache dropped for room."},
        {"prefix_cache", "entries", "dgem_prefix_cache_entries", "gauge",
         "Encoded prompts the prefix cache holds."},
        {"prefix_cache", "bytes", "dgem_prefix_cache_bytes", "gauge",
         "Bytes the prefix cache holds."},
        {"prefix_cache", "budget_bytes", "dgem_prefix_cache_budget_bytes", "gauge",
         "The prefix cache's budget in bytes (PREFIX_CACHE_MB)."},
    };
    for (const Field& f : fields) {
        const double v = json_number(engine, f.group, f.key);
        if (v >= 0) w.one(f.name, f.type, f.help, v);
    }
    const double full = json_number(engine, "prefix_cache", "full_hits");
    const double partial = json_number(engine, "prefix_cache", "partial_hits");
    if (full >= 0 && partial >= 0) {
        w.family("dgem_prefix_cache_hits_total", "counter",
                 "Prompts found in the prefix cache, whole (full) or in part (partial).");
        w.sample("dgem_prefix_cache_hits_total", {{"kind", "full"}}, full);
        w.sample("dgem_prefix_cache_hits_total", {{"kind", "partial"}}, partial);
    }
}

}  // namespace

void ServerMetrics::Histogram::observe(double v) {
    if (!(v >= 0)) v = 0;
    size_t i = 0;
    while (i < bounds.size() && v > bounds[i]) ++i;
    if (i < bounds.size()) ++counts[i];
    sum += v;
    ++count;
}

ServerMetrics::ServerMetrics()
    : start_time_s_(
          std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
              .count()),
      admission_wait_{latency_bounds(), std::vector<unsigned long long>(latency_bounds().size())},
      decision_reads_{read_bounds(), std::vector<unsigned long long>(read_bounds().size())} {}

std::string ServerMetrics::route_label(std::string_view path) {
    static const char* const exact[] = {"/health",
                                        "/",
                                        "/invoke/health",
                                        "/v1/chat/completions",
                                        "/invoke/v1/chat/completions",
                                        "/predict",
                                        "/rawPredict",
                                        "/v1/systemone",
                                        "/invoke/v1/systemone",
                                        "/api/templates",
                                        "/api/decide",
                                        "/mcp",
                                        "/metrics"};
    for (const char* route : exact)
        if (path == route) return route;
    if (path.rfind("/api/decide/", 0) == 0) return "/api/decide/{template}";
    return "other";
}

void ServerMetrics::record_request(std::string_view path, std::string_view method, int status,
                                   double seconds) {
    const std::string route = route_label(path);
    std::string verb(method);
    if (verb != "GET" && verb != "POST" && verb != "HEAD" && verb != "DELETE" && verb != "OPTIONS")
        verb = "other";
    std::lock_guard lock(mutex_);
    ++requests_[{{"route", route}, {"method", verb}, {"status", std::to_string(status)}}];
    auto [it, fresh] = request_seconds_.try_emplace({{"route", route}});
    if (fresh) it->second = {latency_bounds(), std::vector<unsigned long long>(16)};
    it->second.observe(seconds);
}

void ServerMetrics::record_admission(double wait_seconds, bool admitted) {
    std::lock_guard lock(mutex_);
    admission_wait_.observe(wait_seconds);
    if (!admitted) ++admission_refusals_;
}

void ServerMetrics::record_decision(const Decision& d) {
    const std::pair<const char*, double> phases[] = {{"engine_queue", d.timings.queue_ms},
                                                     {"encode", d.timings.encode_ms},
                                                     {"decode", d.timings.decode_ms},
                                                     {"readout", d.timings.readout_ms},
                                                     {"total", d.timings.total_ms}};
    std::lock_guard lock(mutex_);
    ++decisions_ok_;
    for (const auto& [phase, ms] : phases) {
        auto [it, fresh] = decision_seconds_.try_emplace({{"phase", phase}});
        if (fresh) it->second = {latency_bounds(), std::vector<unsigned long long>(16)};
        it->second.observe(ms / 1000.0);
    }
    decision_reads_.observe(d.reads);
    prompt_tokens_ += static_cast<unsigned long long>(std::max(0, d.prompt_tokens));
    cached_prompt_tokens_ += static_cast<unsigned long long>(std::max(0, d.cached_prompt_tokens));
}

void ServerMetrics::record_decision_failure() {
    std::lock_guard lock(mutex_);
    ++decisions_failed_;
}

std::string ServerMetrics::render(const Snapshot& s) const {
    Writer w;
    w.family("dgem_build_info", "gauge", "The server's version, model and device (value 1).");
    w.sample("dgem_build_info", {{"version", s.version}, {"model", s.model}, {"device", s.device}},
             1);
    std::lock_guard lock(mutex_);
    w.one("dgem_start_time_seconds", "gauge", "When the server started, in Unix seconds.",
          start_time_s_);
    w.family("dgem_http_requests_total", "counter",
             "HTTP requests answered, by route, method and status.");
    for (const auto& [labels, n] : requests_)
        w.sample("dgem_http_requests_total", labels, static_cast<double>(n));
    w.family("dgem_http_request_duration_seconds", "histogram",
             "Time from a request's arrival to its answer, by route.");
    for (const auto& [labels, h] : request_seconds_)
        w.histogram("dgem_http_request_duration_seconds", labels, h);
    w.family("dgem_admission_wait_seconds", "histogram",
             "Time decisions waited for a slot (MAX_INFLIGHT), admitted or refused.");
    w.histogram("dgem_admission_wait_seconds", {}, admission_wait_);
    w.one("dgem_admission_refusals_total", "counter",
          "Decisions refused with 503 (queue full, waited too long, stopping).",
          static_cast<double>(admission_refusals_));
    w.family("dgem_decisions_total", "counter", "Decisions the backend made or failed.");
    w.sample("dgem_decisions_total", {{"outcome", "ok"}}, static_cast<double>(decisions_ok_));
    w.sample("dgem_decisions_total", {{"outcome", "error"}},
             static_cast<double>(decisions_failed_));
    w.family("dgem_decision_seconds", "histogram",
             "Decision time by phase: waiting for the engine, encoding, decoding, readout, "
             "total.");
    for (const auto& [labels, h] : decision_seconds_)
        w.histogram("dgem_decision_seconds", labels, h);
    w.family("dgem_decision_reads", "histogram", "Canvas rows read per decision.");
    w.histogram("dgem_decision_reads", {}, decision_reads_);
    w.one("dgem_decision_prompt_tokens_total", "counter", "Prompt tokens of the decisions.",
          static_cast<double>(prompt_tokens_));
    w.one("dgem_decision_cached_prompt_tokens_total", "counter",
          "Of those, the tokens the prefix cache supplied.",
          static_cast<double>(cached_prompt_tokens_));
    w.one("dgem_inflight_decisions", "gauge", "Decisions running now.", s.inflight);
    w.one("dgem_queued_decisions", "gauge", "Decisions waiting for a slot now.", s.queued);
    w.one("dgem_max_inflight_decisions", "gauge",
          "Decisions run at once (MAX_INFLIGHT; 0: no bound).", s.max_inflight);
    engine_metrics(w, s.engine);
    return w.take();
}

}  // namespace core
