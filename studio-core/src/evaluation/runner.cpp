// The evaluation runner: workers, timeouts, retries, cancel, progress, the fsync'd journal.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "base/time.h"
#include "core/comparison/compare.h"
#include "core/decide/cascade.h"
#include "core/evaluation/eval_runner.h"
#include "core/policy/json_input.h"

namespace core::eval {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

using base::seconds_since;

using base::utc_now;

std::string error_kind_name(const Error& e) {
    switch (e.kind) {
        case engine::ErrorKind::BadInput:
            return "bad_input";
        case engine::ErrorKind::Remote:
            return "remote";
        case engine::ErrorKind::Engine:
            return "engine";
        case engine::ErrorKind::Cancelled:
            return "cancelled";
    }
    return "engine";
}

void set_error(const Error& e, std::string& error, std::string& kind) {
    error = e.message;
    kind = e.cause == engine::Cause::Timeout && e.message.rfind("timed out", 0) == 0
               ? "timeout"
               : error_kind_name(e);
}

// The slot side of an item: the mean probabilities of each question with an expected answer.
void record_slot(const SuiteItem& item, const Decision& decision, ItemRecord& rec) {
    rec.ok = true;
    for (const auto& iq : item.questions) {
        const QuestionOutcome* out = nullptr;
        for (const auto& q : decision.questions)
            if (q.id == iq.id) out = &q;
        // Not asked (its ask_if unmet): the item has no answer to it, which is no failure.
        if (out && out->skipped) continue;
        if (!out || out->mean.size() != iq.names.size()) {
            rec.ok = false;
            rec.error = "the answer has no question \"" + iq.id + "\" with " +
                        std::to_string(iq.names.size()) + " probabilities";
            rec.error_kind = "remote";
            rec.questions.clear();
            return;
        }
        QuestionRecord qr{iq.id, iq.names, out->mean, out->hesitation, out->agreement, {}};
        if (const auto& e = out->escalation) {
            auto name = [&iq](std::optional<int> label) {
                return label && *label >= 0 && *label < static_cast<int>(iq.names.size())
                           ? iq.names[static_cast<size_t>(*label)]
                           : std::string();
            };
            qr.escalation =
                EscalationRecord{e->escalated,    name(e->stage1_winner), name(e->stage2_winner),
                                 e->stage2_error, e->stage1_ms,           e->stage2_ms};
        }
        rec.questions.push_back(std::move(qr));
    }
    rec.prompt_tokens = decision.prompt_tokens;
    rec.cached_prompt_tokens = decision.cached_prompt_tokens;
}

// The generative side: the reply parsed strictly, its choices in the suite's vocabulary.
void record_generative(const SuiteItem& item, const Schema& schema, const Generation& generation,
                       GenerativeRecord& g) {
    g.ok = true;
    g.text = generation.text;
    g.passes = generation.passes;
    g.completion_tokens = generation.completion_tokens;
    const compare::GenerativeAnswer parsed = compare::parse_generative_answer(schema, g.text);
    g.valid = parsed.valid;
    g.reasons = parsed.reasons;
    for (const auto& iq : item.questions) {
        std::string name;
        for (size_t qi = 0; qi < schema.questions.size(); ++qi) {
            const int chosen = parsed.chosen[qi];
            if (schema.questions[qi].id == iq.id && chosen >= 0 &&
                chosen < static_cast<int>(iq.names.size()))
                name = iq.names[static_cast<size_t>(chosen)];
        }
        g.answers.push_back(name);
    }
}

Result<void> write_all(int fd, const std::string& text, const std::string& path) {
    size_t off = 0;
    while (off < text.size()) {
        ssize_t n = ::write(fd, text.data() + off, text.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            return engine::bad_input(path + ": cannot write (" + std::strerror(errno) + ")");
        }
        off += static_cast<size_t>(n);
    }
    return {};
}

void fsync_dir_of(const std::string& path) {
    std::string dir = path;
    auto slash = dir.rfind('/');
    dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : dir.substr(0, slash));
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

json samples_json(const std::optional<Samples>& s) {
    if (!s) return nullptr;
    if (s->automatic) return "auto";
    return s->count;
}

}  // namespace

// ---- records -----------------------------------------------------------------------------

std::string_view to_string(RunMode mode) {
    switch (mode) {
        case RunMode::Slot:
            return "slot";
        case RunMode::Generative:
            return "generative";
        case RunMode::Both:
            return "both";
    }
    return "slot";
}

std::optional<RunMode> parse_run_mode(std::string_view text) {
    if (text == "slot") return RunMode::Slot;
    if (text == "generative") return RunMode::Generative;
    if (text == "both") return RunMode::Both;
    return std::nullopt;
}

json GenerativeRecord::to_json() const {
    json j = {{"ok", ok},
              {"valid", valid},
              {"reasons", reasons},
              {"answers", answers},
              {"passes", passes},
              {"completion_tokens", completion_tokens},
              {"latency_s", latency_s},
              {"text", text}};
    if (!ok) {
        j["error"] = error;
        j["error_kind"] = error_kind;
    }
    return j;
}

Result<GenerativeRecord> GenerativeRecord::from_json(const json& j) {
    try {
        GenerativeRecord g;
        g.ok = j.at("ok").get<bool>();
        g.valid = j.value("valid", false);
        g.reasons = j.value("reasons", std::vector<std::string>{});
        g.answers = j.value("answers", std::vector<std::string>{});
        g.passes = j.value("passes", 0);
        g.completion_tokens = j.value("completion_tokens", 0);
        g.latency_s = j.value("latency_s", 0.0);
        g.text = j.value("text", "");
        g.error = j.value("error", "");
        g.error_kind = j.value("error_kind", "");
        return g;
    } catch (const json::exception& e) {
        return engine::bad_input(std::string("not a generative record (") + e.what() + ")");
    }
}

json ItemRecord::to_json() const {
    json qs = json::array();
    for (const auto& q : questions) {
        json jq = {
            {"id", q.id}, {"names", q.names}, {"probs", q.probs}, {"hesitation", q.hesitation}};
        if (q.agreement != 1) jq["agreement"] = q.agreement;
        if (const auto& e = q.escalation) {
            json je = {
                {"escalated", e->escalated}, {"stage1", e->stage1}, {"stage1_ms", e->stage1_ms}};
            if (e->escalated) {
                je["stage2"] = e->stage2;
                je["stage2_ms"] = e->stage2_ms;
                if (!e->error.empty()) je["error"] = e->error;
            }
            jq["escalation"] = std::move(je);
        }
        qs.push_back(std::move(jq));
    }
    json j = {{"id", id},     {"ok", ok},       {"attempts", attempts}, {"latency_s", latency_s},
              {"seed", seed}, {"questions", qs}};
    if (slot_passes > 0) j["slot_passes"] = slot_passes;
    if (prompt_tokens > 0) j["prompt_tokens"] = prompt_tokens;
    if (cached_prompt_tokens > 0) j["cached_prompt_tokens"] = cached_prompt_tokens;
    if (generative) j["generative"] = generative->to_json();
    if (!ok) {
        j["error"] = error;
        j["error_kind"] = error_kind;
    }
    return j;
}

Result<ItemRecord> ItemRecord::from_json(const json& j) {
    try {
        ItemRecord r;
        r.id = j.at("id").get<std::string>();
        r.ok = j.at("ok").get<bool>();
        r.attempts = j.value("attempts", 1);
        r.latency_s = j.at("latency_s").get<double>();
        r.seed = j.value("seed", uint64_t{0});
        r.error = j.value("error", "");
        r.error_kind = j.value("error_kind", "");
        r.slot_passes = j.value("slot_passes", 0);
        r.prompt_tokens = j.value("prompt_tokens", 0);
        r.cached_prompt_tokens = j.value("cached_prompt_tokens", 0);
        if (j.contains("generative")) {
            auto g = GenerativeRecord::from_json(j["generative"]);
            if (!g) return g.error();
            r.generative = std::move(g.value());
        }
        for (const auto& q : j.at("questions")) {
            QuestionRecord qr;
            qr.id = q.at("id").get<std::string>();
            qr.names = q.at("names").get<std::vector<std::string>>();
            qr.probs = q.at("probs").get<std::vector<double>>();
            qr.hesitation = q.value("hesitation", 0.0);
            qr.agreement = q.value("agreement", 1.0);
            if (q.contains("escalation")) {
                const json& je = q["escalation"];
                qr.escalation =
                    EscalationRecord{je.at("escalated").get<bool>(), je.value("stage1", ""),
                                     je.value("stage2", ""),         je.value("error", ""),
                                     je.value("stage1_ms", 0.0),     je.value("stage2_ms", 0.0)};
            }
            if (qr.names.size() != qr.probs.size())
                return engine::bad_input("question " + qr.id +
                                         ": names and probs differ in length");
            r.questions.push_back(std::move(qr));
        }
        return r;
    } catch (const json::exception& e) {
        return engine::bad_input(std::string("not an item record (") + e.what() + ")");
    }
}

json ItemRecord::probs_json(const std::string& question_id) const {
    if (!ok) return nullptr;
    for (const auto& q : questions) {
        if (q.id != question_id) continue;
        json p = json::object();
        for (size_t i = 0; i < q.names.size(); ++i) p[q.names[i]] = q.probs[i];
        return p;
    }
    return nullptr;
}

uint64_t item_seed(uint64_t run_seed, const std::string& item_id) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a 64
    for (unsigned char c : item_id) {
        h ^= c;
        h *= 1099511628211ull;
    }
    uint64_t z = run_seed ^ h;  // splitmix64
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z & 0x7fffffffull;  // servers take 31-bit seeds everywhere
}

bool transient(const Error& error) {
    if (error.kind != engine::ErrorKind::Remote) return false;
    const engine::Cause c = error.cause;
    return c == engine::Cause::None || c == engine::Cause::Timeout ||
           c == engine::Cause::Overloaded || c == engine::Cause::ServerError;
}

// ---- files -------------------------------------------------------------------------------

namespace {
double monotonic_s() {
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}
}  // namespace

Result<void> JournalWriter::open(const std::string& path, double sync_interval_s) {
    path_ = path;
    sync_interval_s_ = sync_interval_s;
    last_sync_s_ = monotonic_s();
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        return engine::bad_input(path + ": cannot open the journal (" + std::strerror(errno) + ")");
    return {};
}

Result<void> JournalWriter::append(const json& record) {
    if (fd_ < 0) return {};
    auto r =
        write_all(fd_, record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n", path_);
    if (!r) return r;
    dirty_ = true;
    if (sync_interval_s_ > 0 && monotonic_s() - last_sync_s_ < sync_interval_s_) return {};
    return sync();
}

Result<void> JournalWriter::sync() {
    if (fd_ < 0 || !dirty_) return {};
    if (::fsync(fd_) != 0)
        return engine::bad_input(path_ + ": fsync failed (" + std::strerror(errno) + ")");
    dirty_ = false;
    last_sync_s_ = monotonic_s();
    return {};
}

JournalWriter::~JournalWriter() {
    if (fd_ < 0) return;
    (void)sync();  // best effort: an error here has nobody left to report to
    ::close(fd_);
}

Result<void> write_file_atomic(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return engine::bad_input(path + ": cannot write (" + std::strerror(errno) + ")");
    auto w = write_all(fd, text, path);  // messages name the file the user asked for
    if (w && ::fsync(fd) != 0) w = engine::bad_input(path + ": fsync failed");
    ::close(fd);
    if (!w) {
        ::unlink(tmp.c_str());
        return w;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        return engine::bad_input(path + ": cannot replace (" + std::strerror(errno) + ")");
    }
    fsync_dir_of(path);
    return {};
}

Result<JournalContents> read_journal(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path + ": cannot read the journal");
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    JournalContents jc;
    size_t start = 0;
    int line = 0;
    std::set<std::string> seen;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) break;  // a last line without '\n': half-written
        ++line;
        const std::string l = text.substr(start, end - start);
        json j;
        JsonInputError err;
        if (!parse_json_input_raw(l, j, err) || !j.is_object()) {
            // A complete line that is not JSON is damage, not a cut: refuse rather than guess.
            return engine::bad_input(path + ":" + std::to_string(line) +
                                     ": not a journal record (" + err.message +
                                     "); move the journal away to start over");
        }
        if (line == 1) {
            if (!j.contains("journal"))
                return engine::bad_input(path + ":1: not an evaluation journal (no header)");
            jc.header = j;
        } else {
            auto r = ItemRecord::from_json(j);
            if (!r)
                return engine::bad_input(path + ":" + std::to_string(line) + ": " +
                                         r.error().message);
            if (seen.insert(r->id).second) jc.records.push_back(std::move(*r));
        }
        start = end + 1;
        jc.valid_bytes = start;
    }
    jc.cut_bytes = text.size() - jc.valid_bytes;
    return jc;
}

// ---- the runner --------------------------------------------------------------------------

namespace {

// The journal's first line: what was run, how, on what.
json run_header(const Suite& suite, const RunSettings& settings, int workers,
                const std::string& backend) {
    std::string ids;
    for (const auto& it : suite.items) ids += it.id + "\n";
    return {{"journal", "decision-studio evaluation journal"},
            {"format", 1},
            {"suite", suite.name},
            {"suite_kind", suite.kind == SuiteKind::JevBench ? "jevbench" : "dgem"},
            {"dataset_sha256", suite.sha256},
            {"items", suite.items.size()},
            {"item_ids_sha256", sha256_hex(ids)},
            {"settings",
             {{"seed", settings.seed},
              {"mode", std::string(to_string(settings.mode))},
              {"samples", samples_json(settings.samples)},
              {"workers", workers},
              {"item_timeout_s", settings.item_timeout_s},
              {"retries", settings.retries}}},
            {"backend", backend},
            {"program_version", settings.program_version},
            {"started_utc", utc_now()},
            {"extra", settings.extra}};
}

// A journal written by another suite or with other settings is not continued.
Result<void> check_resumable(const std::string& jp, const json& h, const Suite& suite,
                             const json& header) {
    auto mismatch = [&](const std::string& what, const json& was, const json& now) {
        return engine::bad_input(jp + ":1: field " + what + ": the journal was written with " +
                                 was.dump() + ", this run has " + now.dump() +
                                 "; run without --resume to start over");
    };
    if (h.value("dataset_sha256", "") != suite.sha256)
        return mismatch("dataset_sha256", h.value("dataset_sha256", ""), suite.sha256);
    const json hs = h.value("settings", json::object());
    if (hs.value("seed", json()) != header["settings"]["seed"])
        return mismatch("settings.seed", hs.value("seed", json()), header["settings"]["seed"]);
    if (hs.value("samples", json()) != header["settings"]["samples"])
        return mismatch("settings.samples", hs.value("samples", json()),
                        header["settings"]["samples"]);
    const json was_mode = hs.value("mode", json("slot"));
    if (was_mode != header["settings"]["mode"])
        return mismatch("settings.mode", was_mode, header["settings"]["mode"]);
    return {};
}

// Opens the run's journal for appending: a fresh one gets `header`; with resume an existing one
// is checked, its records of this suite go to `done` and a half-written last line is cut.
Result<void> open_journal(const RunSettings& settings, const Suite& suite, json& header,
                          std::map<std::string, ItemRecord>& done, JournalWriter& writer) {
    if (settings.journal_path.empty()) return {};
    const std::string& jp = settings.journal_path;
    std::error_code ec;
    bool fresh = true;
    if (settings.resume && std::filesystem::exists(jp, ec)) {
        auto jc = read_journal(jp);
        if (!jc) return jc.error();
        if (!jc->header.is_null()) {
            const json& h = jc->header;
            if (auto ok = check_resumable(jp, h, suite, header); !ok) return ok;
            fresh = false;
            header["started_utc"] = h.value("started_utc", header["started_utc"]);
            header["resumed_utc"] = utc_now();
            std::set<std::string> wanted;
            for (const auto& it : suite.items) wanted.insert(it.id);
            for (auto& r : jc->records)
                if (wanted.count(r.id)) done.emplace(r.id, std::move(r));
            if (jc->cut_bytes > 0) {
                // Cut the half-written last line so appended records start on their own.
                if (::truncate(jp.c_str(), static_cast<off_t>(jc->valid_bytes)) != 0)
                    return engine::bad_input(jp + ": cannot cut its half-written last line (" +
                                             std::strerror(errno) + ")");
            }
        }
    }
    if (fresh) {
        auto w = write_file_atomic(jp, header.dump() + "\n");
        if (!w) return w.error();
    }
    return writer.open(jp);
}

// In-flight attempts, watched (every 10 ms, on a thread of its own) for their deadline and for
// the run's cancel or halt.
class AttemptWatch {
  public:
    struct Attempt {
        CancelToken token;
        Clock::time_point deadline;
        bool has_deadline = false;
        std::atomic<bool> timed_out{false};
    };

    AttemptWatch(const CancelToken& cancel, const std::atomic<bool>& halt)
        : cancel_(cancel), halt_(halt), thread_([this] { watch(); }) {}
    ~AttemptWatch() {
        stop_.store(true);
        thread_.join();
    }
    void add(Attempt* a) {
        std::lock_guard<std::mutex> lock(mu_);
        inflight_.insert(a);
    }
    void remove(Attempt* a) {
        std::lock_guard<std::mutex> lock(mu_);
        inflight_.erase(a);
    }

  private:
    void watch() {
        while (!stop_.load()) {
            {
                std::lock_guard<std::mutex> lock(mu_);
                const auto now = Clock::now();
                for (Attempt* a : inflight_) {
                    if (cancel_.cancelled() || halt_.load()) a->token.cancel();
                    if (a->has_deadline && now >= a->deadline && !a->timed_out.load()) {
                        a->timed_out.store(true);
                        a->token.cancel();
                    }
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }

    const CancelToken& cancel_;
    const std::atomic<bool>& halt_;
    std::mutex mu_;
    std::set<Attempt*> inflight_;
    std::atomic<bool> stop_{false};
    std::thread thread_;  // last: started once the members above exist
};

// One run's shared state: the stream the workers pull items from, the attempts in flight and
// the progress.
class RunSession {
  public:
    RunSession(Backend& backend, const RunSettings& settings, const CancelToken& cancel,
               ItemStream& stream, const RunProgressFn& progress, Clock::time_point started)
        : backend_(backend),
          settings_(settings),
          cancel_(cancel),
          stream_(stream),
          progress_(progress),
          started_(started) {}

    // Runs the stream's items on `workers` threads (no more than `counts` leaves to run); the
    // first error from the stream's finished(), if any.
    std::optional<Error> run(const StreamCounts& counts, int workers) {
        prog_.total = counts.total;
        prog_.resumed = counts.resumed;
        prog_.done = counts.resumed;
        prog_.failed = counts.resumed_failed;
        if (progress_) progress_(prog_);
        AttemptWatch watch(cancel_, halt_);
        watch_ = &watch;
        std::vector<std::thread> threads;
        const size_t left = counts.total > counts.resumed ? counts.total - counts.resumed : 0;
        const size_t n_threads =
            std::min<size_t>(static_cast<size_t>(workers), std::max<size_t>(1, left));
        for (size_t t = 0; t < n_threads; ++t) threads.emplace_back([this] { work(); });
        for (auto& t : threads) t.join();
        return fatal_;
    }

  private:
    bool stopped() const { return cancel_.cancelled() || halt_.load(); }

    // One backend call with the run's retries of transient failures, item timeout and cancel.
    // Returns the last attempt's result, or nothing when the run was cancelled meanwhile.
    template <class Call>
    auto with_retries(Call&& call, int& attempts, double& latency_s) {
        using R = decltype(call(std::declval<const CancelToken&>()));
        std::optional<R> last;
        for (int attempt = 0; attempt <= std::max(0, settings_.retries); ++attempt) {
            if (attempt > 0) {
                const double wait = settings_.retry_backoff_s * std::pow(2.0, attempt - 1);
                const auto until = Clock::now() + std::chrono::duration<double>(wait);
                while (Clock::now() < until && !stopped())
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
            if (stopped()) return std::optional<R>();
            AttemptWatch::Attempt a;
            if (settings_.item_timeout_s > 0) {
                a.has_deadline = true;
                a.deadline =
                    Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(settings_.item_timeout_s));
            }
            watch_->add(&a);
            attempts++;
            const auto t0 = Clock::now();
            R r = call(a.token);
            // Its own time: a wait behind another worker's call on the same engine is not latency.
            latency_s += std::max(
                0.0, seconds_since(t0) - (r.ok() ? r.value().timings.queue_ms / 1000 : 0.0));
            watch_->remove(&a);
            if (a.timed_out.load()) {
                last.emplace(engine::remote_error(
                    "timed out after " + std::to_string(settings_.item_timeout_s) + " s",
                    engine::Cause::Timeout));
                continue;
            }
            if (stopped()) return std::optional<R>();
            const bool again = !r.ok() && transient(r.error());
            last.emplace(std::move(r));
            if (!again) break;
        }
        return last;
    }

    // Stage 2 for the questions the item's cascade keys escalate; on_miss compares with the
    // item's expected answers (suite names, mapped to the policy's alternatives by label).
    void run_item_cascade(const SuiteItem& item, const DecideRequest& request, Decision& d) {
        CascadeOptions options;
        options.settings = request.schema.cascade;
        for (const auto& iq : item.questions) {
            const auto at = std::find(iq.names.begin(), iq.names.end(), iq.expected);
            for (const auto& q : d.questions)
                if (q.id == iq.id && at != iq.names.end() &&
                    static_cast<size_t>(at - iq.names.begin()) < q.alternatives.size())
                    options.expected[iq.id] =
                        q.alternatives[static_cast<size_t>(at - iq.names.begin())];
        }
        run_cascade(d, request, *settings_.judge, options, cancel_);
    }

    // The item asked as the run's mode says; nothing when the run was cancelled meanwhile (not
    // recorded, a resume runs it again).
    std::optional<ItemRecord> run_item(const SuiteItem& item) {
        ItemRecord rec;
        rec.id = item.id;
        rec.seed = item_seed(settings_.seed, item.id);
        DecideRequest request;
        request.schema = item.schema;
        if (settings_.samples) request.schema.samples = *settings_.samples;
        if (settings_.cascade) request.schema.cascade = *settings_.cascade;
        if (settings_.temperature) request.schema.temperature = *settings_.temperature;
        request.state = item.state;
        request.images = item.images;
        request.seed = rec.seed;
        if (settings_.mode != RunMode::Generative) {
            rec.slot_passes = std::max(1, request.schema.steps);
            auto r = with_retries(
                [&](const CancelToken& token) { return backend_.decide(request, {}, token); },
                rec.attempts, rec.latency_s);
            if (!r) return std::nullopt;
            if (r->ok()) {
                if (settings_.judge && request.schema.cascade.mode != CascadeMode::Off)
                    run_item_cascade(item, request, r->value());
                record_slot(item, r->value(), rec);
            } else
                set_error(r->error(), rec.error, rec.error_kind);
        }
        if (settings_.mode != RunMode::Slot) {
            GenerateRequest ask =
                compare::generative_request(request.schema, request.state, rec.seed);
            if (settings_.generative_max_tokens > 0)
                ask.max_tokens = settings_.generative_max_tokens;
            ask.images = request.images;  // image suites: both modes see the item's images
            GenerativeRecord g;
            int attempts = 0;
            auto r = with_retries(
                [&](const CancelToken& token) { return backend_.generate(ask, {}, token); },
                attempts, g.latency_s);
            if (!r) return std::nullopt;
            if (r->ok())
                record_generative(item, request.schema, r->value(), g);
            else
                set_error(r->error(), g.error, g.error_kind);
            if (settings_.mode == RunMode::Generative) {
                rec.attempts = attempts;
                rec.ok = g.ok;
                rec.error = g.error;
                rec.error_kind = g.error_kind;
            }
            rec.generative = std::move(g);
        }
        return rec;
    }

    // Hands a finished item to the stream and reports progress; false (and halts the run) when
    // the stream cannot keep it.
    bool record(std::size_t seq, ItemRecord rec) {
        std::lock_guard<std::mutex> lock(mu_);
        const bool ok = rec.ok;
        ItemRecord shown = progress_ ? rec : ItemRecord{};
        auto w = stream_.finished(seq, std::move(rec));
        if (!w) {
            fatal_ = w.error();
            halt_.store(true);
            return false;
        }
        run_done_++;
        prog_.done++;
        if (!ok) prog_.failed++;
        prog_.elapsed_s = seconds_since(started_);
        prog_.items_per_s = prog_.elapsed_s > 0 ? run_done_ / prog_.elapsed_s : 0;
        prog_.eta_s = prog_.items_per_s > 0 && prog_.total >= prog_.done
                          ? (prog_.total - prog_.done) / prog_.items_per_s
                          : -1;
        prog_.last = &shown;
        if (progress_) progress_(prog_);
        prog_.last = nullptr;
        return true;
    }

    std::optional<StreamedItem> next() {
        std::lock_guard<std::mutex> lock(mu_);
        return stream_.next();
    }

    void work() {
        for (;;) {
            if (stopped()) return;
            auto item = next();
            if (!item) return;
            std::optional<ItemRecord> rec = std::move(item->failed);
            if (!rec) rec = run_item(item->item);
            if (!rec || !record(item->seq, std::move(*rec))) return;
        }
    }

    Backend& backend_;
    const RunSettings& settings_;
    const CancelToken& cancel_;
    ItemStream& stream_;
    const RunProgressFn& progress_;
    const Clock::time_point started_;
    std::atomic<bool> halt_{false};
    AttemptWatch* watch_ = nullptr;
    std::mutex mu_;  // the stream, progress
    RunProgress prog_;
    size_t run_done_ = 0;
    std::optional<Error> fatal_;
};

// A suite held whole as a stream: the items the journal lacks, in suite order; each finished
// one journaled and kept in `done`.
class SuiteStream : public ItemStream {
  public:
    SuiteStream(std::vector<const SuiteItem*> pending, JournalWriter& writer,
                std::map<std::string, ItemRecord>& done)
        : pending_(std::move(pending)), writer_(writer), done_(done) {}

    std::optional<StreamedItem> next() override {
        if (next_ >= pending_.size()) return std::nullopt;
        StreamedItem s;
        s.seq = next_;
        s.item = *pending_[next_++];
        return s;
    }
    Result<void> finished(std::size_t, ItemRecord record) override {
        if (auto w = writer_.append(record.to_json()); !w) return w;
        const std::string id = record.id;
        done_.emplace(id, std::move(record));
        return {};
    }

  private:
    std::vector<const SuiteItem*> pending_;
    std::size_t next_ = 0;
    JournalWriter& writer_;
    std::map<std::string, ItemRecord>& done_;
};

}  // namespace

EvalRunner::EvalRunner(std::shared_ptr<Backend> backend, RunSettings settings)
    : backend_(std::move(backend)), settings_(std::move(settings)) {}

Result<RunResult> EvalRunner::run(const Suite& suite, const RunProgressFn& progress,
                                  const CancelToken& cancel) {
    const auto started = Clock::now();
    RunResult result;
    const int workers = std::max(1, settings_.workers);
    json header = run_header(suite, settings_, workers, backend_->describe());

    std::map<std::string, ItemRecord> done;
    JournalWriter writer;
    if (auto opened = open_journal(settings_, suite, header, done, writer); !opened)
        return opened.error();
    result.header = header;
    result.resumed = done.size();

    std::vector<const SuiteItem*> pending;
    for (const auto& it : suite.items)
        if (!done.count(it.id)) pending.push_back(&it);
    StreamCounts counts;
    counts.total = suite.items.size();
    counts.resumed = done.size();
    for (const auto& [id, r] : done)
        if (!r.ok) counts.resumed_failed++;
    SuiteStream stream(std::move(pending), writer, done);
    RunSession session(*backend_, settings_, cancel, stream, progress, started);
    if (auto fatal = session.run(counts, workers)) return *fatal;

    for (const auto& it : suite.items) {
        auto d = done.find(it.id);
        if (d != done.end()) result.records.push_back(d->second);
    }
    result.cancelled = result.records.size() < suite.items.size();
    result.wall_s = seconds_since(started);
    return result;
}

Result<bool> EvalRunner::run_stream(ItemStream& stream, const StreamCounts& counts,
                                    const RunProgressFn& progress, const CancelToken& cancel) {
    RunSession session(*backend_, settings_, cancel, stream, progress, Clock::now());
    if (auto fatal = session.run(counts, std::max(1, settings_.workers))) return *fatal;
    return cancel.cancelled();
}

}  // namespace core::eval
