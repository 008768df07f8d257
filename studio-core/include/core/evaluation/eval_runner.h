#pragma once
// Runs a suite against any Backend with N worker threads, a per-item timeout, retries of
// transient failures, cancellation and progress. Knows no widgets: a Qt view runs run() on a
// worker thread and forwards the progress callback (called from worker threads, serialised by
// the runner) to its own thread with QMetaObject::invokeMethod.
//
// Every finished item (answered or failed: a failure is recorded, never dropped) is appended as
// one JSON line to the journal and fsync'd before the next is written. The journal's first line
// is a header with the run's settings, the backend description, the suite's sha256 and the
// program version. resume continues where the journal ends: complete lines are kept, a line cut
// mid-way (power loss, kill -9) is cut off, items already recorded are not run again.
//
// Each item's seed is derived from the run seed and the item id (item_seed), so a rerun, a
// resumed run and a run with more workers give the same per-item probabilities.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/backend.h"
#include "core/evaluation/eval_suite.h"

namespace core::eval {

// What each item is asked: the slot readout (decide), generative JSON (generate, parsed strictly
// by core::compare), or both one after the other on the same backend.
enum class RunMode { Slot, Generative, Both };
std::string_view to_string(RunMode mode);  // "slot", "generative", "both"
std::optional<RunMode> parse_run_mode(std::string_view text);

struct RunSettings {
    RunMode mode = RunMode::Slot;
    int generative_max_tokens = 0;  // 0: core::compare::generative_token_budget per item
    int workers = 1;
    double item_timeout_s = 0;      // 0: none; a timed-out attempt is cancelled and retried
    int retries = 2;                // extra attempts after a transient failure
    double retry_backoff_s = 0.25;  // doubled per retry
    uint64_t seed = 42;
    std::optional<Samples> samples;  // overrides every item's schema (dgem's --samples)
    std::string journal_path;        // empty: no journal (and no resume)
    bool resume = false;
    std::string program_version;
    nlohmann::json extra = nlohmann::json::object();  // recorded in the header (CLI options)
    // The stage-2 judge of the items' cascade keys (the policy's "cascade_mode", or the flags'):
    // after an item's slot decision, entropy mode escalates its questions at or above the
    // threshold, on_miss those whose stage-1 answer is not the item's expected one
    // (core/decide/cascade.h). Null: no cascade, whatever the keys say.
    std::shared_ptr<Backend> judge;
    // Override every item's policy keys (dgem's --cascade-* and --temperature flags).
    std::optional<CascadeSettings> cascade;
    std::optional<PolicyTemperature> temperature;
};

// What the stage-2 cascade did with one question of an item (names in the suite's vocabulary).
struct EscalationRecord {
    bool escalated = false;
    std::string stage1;    // stage 1's answer
    std::string stage2;    // stage 2's answer; empty when it gave none (error says why)
    std::string error;     // why stage 1's answer was kept
    double stage1_ms = 0;  // the slot decision (one pass read every question)
    double stage2_ms = 0;  // the judge's call for this question (0 when not escalated)
};

struct QuestionRecord {
    std::string id;
    std::vector<std::string> names;  // suite vocabulary, one per label
    std::vector<double> probs;       // the backend's mean probabilities, per label
    double hesitation = 0;
    double agreement = 1;  // share of reads whose own argmax is the winner
    // Set when a cascade ran on the item; probs are then the final answer's (stage 2's where it
    // answered).
    std::optional<EscalationRecord> escalation = std::nullopt;
};

// The generative side of one item (RunMode Generative or Both).
struct GenerativeRecord {
    bool ok = false;  // the generate call returned (valid or not)
    std::string error;
    std::string error_kind;
    bool valid = false;
    std::vector<std::string> reasons;  // why the reply is invalid
    // Per ItemQuestion (item order): the suite name the reply chose, "" when it gave none.
    std::vector<std::string> answers;
    int passes = 0;
    int completion_tokens = 0;
    double latency_s = 0;
    std::string text;  // the raw reply
    nlohmann::json to_json() const;
    static Result<GenerativeRecord> from_json(const nlohmann::json& j);
};

struct ItemRecord {
    std::string id;
    bool ok = false;
    std::string error;       // when !ok
    std::string error_kind;  // bad_input, remote, engine, timeout, cancelled
    int attempts = 0;
    // Summed over attempts (failures included); a successful call's wait behind other calls on
    // the same local engine (Timings::queue_ms) is not counted.
    double latency_s = 0;
    uint64_t seed = 0;
    std::vector<QuestionRecord> questions;  // the slot side (empty in RunMode Generative)
    int slot_passes = 0;                    // decoder passes of the slot side (schema steps)
    // The slot side's prompt tokens and, of them, those taken from the engine's prompt-prefix
    // cache (0 when the backend does not say).
    int prompt_tokens = 0;
    int cached_prompt_tokens = 0;
    std::optional<GenerativeRecord> generative;

    nlohmann::json to_json() const;
    static Result<ItemRecord> from_json(const nlohmann::json& j);
    // The record's probabilities of one question as a name -> p object (null when absent).
    nlohmann::json probs_json(const std::string& question_id) const;
};

struct RunProgress {
    std::size_t done = 0;  // recorded, resumed ones included
    std::size_t total = 0;
    std::size_t failed = 0;
    std::size_t resumed = 0;  // taken from the journal
    double elapsed_s = 0;
    double items_per_s = 0;            // over the items run in this session
    double eta_s = -1;                 // -1 until known
    const ItemRecord* last = nullptr;  // the record just finished (null for the first report)
};
using RunProgressFn = std::function<void(const RunProgress&)>;

struct RunResult {
    std::vector<ItemRecord> records;  // suite order; with cancel, only the finished items
    std::size_t resumed = 0;
    bool cancelled = false;
    double wall_s = 0;
    nlohmann::json header;  // what the journal's first line says
};

// splitmix64 of the run seed mixed with FNV-1a 64 of the id: stable across runs and machines.
uint64_t item_seed(uint64_t run_seed, const std::string& item_id);

// Whether an error is worth another attempt: remote failures without a status, 408, 429, 5xx,
// and timeouts. Bad input and engine failures are final.
bool transient(const Error& error);

// Items that arrive one at a time (a dataset streamed from its file) instead of a Suite held
// whole. The runner's workers call next() and finished() one at a time (under the runner's
// lock): next() hands out the following item, or a failure already known (a row that did not
// parse or render: recorded as it is, never asked), or nothing at the end; finished() receives
// every record, in the order the items finish. An error from finished() (the caller's journal
// could not be written) halts the run.
struct StreamedItem {
    std::size_t seq = 0;  // the stream's own numbering, handed back to finished()
    SuiteItem item;
    std::optional<ItemRecord> failed;  // set: recorded as it is, not run
};
class ItemStream {
  public:
    virtual ~ItemStream() = default;
    virtual std::optional<StreamedItem> next() = 0;
    virtual Result<void> finished(std::size_t seq, ItemRecord record) = 0;
};

// What a streamed run reports at its start: how many items in all, and how many of them (and
// how many failed ones) a resumed journal already holds.
struct StreamCounts {
    std::size_t total = 0;
    std::size_t resumed = 0;
    std::size_t resumed_failed = 0;
};

class EvalRunner {
  public:
    EvalRunner(std::shared_ptr<Backend> backend, RunSettings settings);

    // Blocks until every item is recorded or `cancel` fires (items in flight are cancelled and
    // not recorded, so a resume runs them again). Errors: journal I/O, a journal from another
    // suite or settings, a bad header (BadInput naming the journal file and line).
    Result<RunResult> run(const Suite& suite, const RunProgressFn& progress,
                          const CancelToken& cancel);

    // The same workers, retries, timeouts, cancel and progress over a stream; the stream keeps
    // its own journal (settings().journal_path is not used). Returns whether the run was
    // cancelled; errors: the stream's.
    Result<bool> run_stream(ItemStream& stream, const StreamCounts& counts,
                            const RunProgressFn& progress, const CancelToken& cancel);

    const RunSettings& settings() const { return settings_; }

  private:
    std::shared_ptr<Backend> backend_;
    RunSettings settings_;
};

// Reads a journal: header and complete records (a last line without '\n' or not JSON is
// ignored and reported in `cut_bytes`). Duplicated ids keep the first record.
struct JournalContents {
    nlohmann::json header;
    std::vector<ItemRecord> records;
    std::size_t valid_bytes = 0;  // length of the complete-line prefix
    std::size_t cut_bytes = 0;    // bytes after it (a half-written line)
};
Result<JournalContents> read_journal(const std::string& path);

// A journal's append side: one line per record, written (so a killed process loses nothing)
// and fsync'd before append returns; with a sync interval, fsync'd at most that often (and on
// sync() and destruction), so only a power loss can lose the last interval's lines.
class JournalWriter {
  public:
    JournalWriter() = default;
    JournalWriter(const JournalWriter&) = delete;
    JournalWriter& operator=(const JournalWriter&) = delete;
    ~JournalWriter();
    Result<void> open(const std::string& path, double sync_interval_s = 0);
    Result<void> append(const nlohmann::json& record);
    Result<void> sync();

  private:
    std::string path_;
    int fd_ = -1;
    double sync_interval_s_ = 0;
    double last_sync_s_ = 0;  // monotonic seconds
    bool dirty_ = false;
};

// Writes `text` to `path` atomically: a temporary file beside it, fsync, rename, fsync of the
// folder. Errors name the path.
Result<void> write_file_atomic(const std::string& path, const std::string& text);

}  // namespace core::eval
