#pragma once
// The dataset-run use case: every row of a CSV/JSONL file through one policy on any Backend,
// streamed (rows are read as workers ask for them and journaled as they finish; the file is
// never held whole), with the evaluation runner's workers, retries, timeouts, cancel and
// progress (core::eval::EvalRunner::run_stream).
//
// The journal (RunSettings::journal_path, required) is the run's source of truth: a header
// (the data file's and the policy's sha256, the column map, seed, samples, mode, backend), then
// one line per row **in row order** (a row finished before an earlier one waits in a reorder
// buffer until that one is journaled: with rows of similar cost a handful; one row much slower
// than the rest, e.g. one retried after a timeout, holds the records finished meanwhile), each
// written at once and fsync'd at most every 0.2 s (a power loss can damage the tail; resume
// cuts the journal at its first damaged line and runs those rows again). So after a kill the
// journal is rows 1..k, a half-written last line is cut, and --resume skips k rows and goes on: no
// row lost, none run twice into the output. The output file and the summary come from one pass over
// the data file and the journal side by side (summarize_dataset), written beside the final name and
// renamed into place at the end: an interrupted run leaves its journal, never a half output.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/dataset/dataset_plan.h"
#include "core/dataset/dataset_results.h"
#include "core/decide/backend.h"
#include "core/evaluation/eval_runner.h"

namespace core::dataset {

struct DatasetRunInput {
    DatasetPlan plan;
    eval::RunSettings settings;  // journal_path required; resume continues it
    std::string output_path;     // .csv or .jsonl; empty: none
    // Called (on a worker thread, one call at a time, in row order) with each row as it is
    // journaled: for a view that fills as rows finish.
    std::function<void(const DataRow&, const RowOutcome&)> on_row;
};

struct DatasetResult {
    bool cancelled = false;
    std::size_t resumed = 0;  // rows the journal already held
    double wall_s = 0;
    std::string backend;
    nlohmann::json header;   // the journal's first line
    DatasetSummary summary;  // the whole run's (filled when not cancelled)
};

// How many rows a run keeps in flight when the caller does not say (RunSettings::workers). On a
// backend that holds the model (the local engine: Backend::model_facts()) kLocalRowsInFlight,
// so that the engine's scheduler batches the reads of rows decided at the same time (one pass
// over the weights for several rows: 1.5x to 2.4x the rows/s of one row at a time on the tiny
// model, bench/dataset.cpp). Elsewhere 1: a server's own limits decide what it can take.
inline constexpr int kLocalRowsInFlight = 8;
int default_rows_in_flight(const Backend& backend);

// Runs the rows the journal lacks, then (unless cancelled) summarizes and writes the output.
// Errors: journal I/O, a journal written for another file, policy or settings (naming the
// field), the output file.
Result<DatasetResult> run_dataset(std::shared_ptr<Backend> backend, const DatasetRunInput& input,
                                  const eval::RunProgressFn& progress, const CancelToken& cancel);

// Visits the rows a run's journal holds (rows 1..k, in order) beside the data rows they answer;
// returns k. Errors name the journal line or the row that does not match, or come from `visit`.
Result<std::size_t> visit_journal_rows(
    const DatasetPlan& plan, const std::string& journal_path,
    const std::function<Result<void>(const DataRow&, const RowOutcome&)>& visit);

// The summary of a finished run from its journal and data file, writing `output_path` when
// given. Errors name the journal line or the row that does not match.
Result<DatasetSummary> summarize_dataset(const DatasetPlan& plan, const std::string& journal_path,
                                         const std::string& output_path);

}  // namespace core::dataset
