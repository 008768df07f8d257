#pragma once
// The bench-run use case: a suite run on a backend (workers, progress, cancel, resume through
// core::eval::EvalRunner), scored (JevBench items by the upstream scorer, dgem suites by
// answer, the slot-vs-generative comparison when the run asked both ways), as one typed
// BenchResult. From it come the result document (the JSON `dgem bench`/`dgem bench-jev` print
// with --json and merge into their report) and the report input (core::report::bench_report).
//
// The run folder: a Studio run lives in <runs>/<yyyyMMdd-HHmmss-zzz>-<suite>/ with
// journal.jsonl (the runner's journal, the source of truth: a reopened run is rescored from it)
// and run.json (RunMeta: what was asked, where, and the status). RunStore lists, creates, reads
// and writes them. Front ends turn their flags or widgets into these inputs and present the
// values; JSON appears only where a document or a folder's file is written or read.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/comparison/compare.h"
#include "core/evaluation/eval_report.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_score.h"
#include "core/evaluation/eval_suite.h"
#include "core/reports/report.h"

namespace core::eval {

// A suite file of either kind, told apart by its first line that is not blank or a '#' comment:
// JevBench lines carry a question with labels, dgem suite lines name a template. BadInput
// naming the file when it is neither; dgem templates resolve against `working_dir`.
Result<Suite> load_suite_file(const std::filesystem::path& path,
                              const std::filesystem::path& working_dir);

// One scored run.
struct BenchResult {
    Suite suite;               // what the run covers (filters applied)
    std::string dataset_path;  // as given (messages, the document, the report)
    RunMode mode = RunMode::Slot;
    RunResult run;                          // records in suite order, header, wall time
    std::optional<RunScore> run_score;      // JevBench suites
    std::optional<SuiteScore> suite_score;  // dgem suites
    std::optional<compare::SuiteComparison> comparison;  // runs with generative records
    std::optional<Leaderboard> leaderboard;              // JevBench runs placed on it

    bool has_generative() const;  // a record asked the generative side
    std::string backend() const;  // the backend's description (the journal header's)
};

// (Re)scores `result` from its records: a JevBench suite with `options`, a dgem suite by answer,
// and the comparison when a record has a generative side (reset otherwise).
void score_bench(BenchResult& result, const RunScoreOptions& options);

// What a bench run is asked.
struct BenchRunInput {
    Suite suite;  // filters applied
    std::string dataset_path;
    RunSettings settings;
    RunScoreOptions scoring;                 // JevBench suites
    std::optional<Leaderboard> leaderboard;  // JevBench suites
};

// Runs the suite on `backend` and scores it. A cancelled run comes back with the items it
// finished (run.cancelled), scored. Errors: the runner's (journal I/O, a journal from another
// suite or settings).
Result<BenchResult> run_bench(std::shared_ptr<Backend> backend, BenchRunInput input,
                              const RunProgressFn& progress, const CancelToken& cancel);

// The result document of `program` ("dgem bench" or "dgem bench-jev"): dataset, backend, run
// header, wall time, per item/case values, the score, and the comparison (dgem suites asked
// generatively) or the leaderboard (JevBench).
nlohmann::json result_document(const BenchResult& result, const std::string& program);

// The report's input: suite, records, the run header as settings, wall time, scores, the
// leaderboard (JevBench), the comparison when generative. Callers add extra and provenance.
report::BenchInput report_input(const BenchResult& result);

// ---- the run folder ----------------------------------------------------------------------

// run.json: how a Studio run was asked and how it stands.
struct RunMeta {
    std::string suite;              // the suite file (absolute)
    std::string status;             // running, finished, cancelled, failed
    std::string profile, endpoint;  // the endpoint profile's name and summary
    int workers = 1;
    int limit = 0;  // 0: all items
    RunMode mode = RunMode::Slot;
    int generative_max_tokens = 0;
    std::string updated;  // UTC, ISO 8601
};

// A run folder's meta and journal, read back.
struct KeptRun {
    std::filesystem::path dir;
    RunMeta meta;
};

class RunStore {
  public:
    explicit RunStore(std::filesystem::path runs_dir);
    const std::filesystem::path& dir() const { return dir_; }

    // A new folder for a run of `suite_path`, named after the local time (to the millisecond)
    // and the suite's base name. Errors name the folder.
    Result<std::filesystem::path> create(const std::string& suite_path) const;
    // Folders holding a run.json, newest first.
    std::vector<std::filesystem::path> kept() const;

    static std::filesystem::path journal_path(const std::filesystem::path& run_dir);
    // run.json; BadInput naming the folder when it is missing or not an object.
    static Result<RunMeta> read_meta(const std::filesystem::path& run_dir);
    // Writes run.json atomically, with `scored`'s score and comparison when given; `updated`
    // is set to now.
    static Result<void> write_meta(const std::filesystem::path& run_dir, RunMeta meta,
                                   const BenchResult* scored);

  private:
    std::filesystem::path dir_;
};

// The settings a Studio run's report shows: what run.json keeps (its status for a reopened run),
// and the run's seed when known.
nlohmann::json meta_settings(const RunMeta& meta, std::optional<uint64_t> seed, bool with_status);

}  // namespace core::eval
