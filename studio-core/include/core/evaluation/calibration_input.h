#pragma once
// The labelled questions of a run, for fitting (core/evaluation/calibration.h): read from a
// journal of either runner, or from a calibration JSONL file.
//  - a dataset run's journal: each line a row's record (the questions' names and probabilities)
//    with its "expected" answers;
//  - a bench run's journal (dgem bench, bench-jev, a Studio run folder): records whose expected
//    answers are the suite's (a run folder's run.json names the suite, or pass it);
//  - calibration JSONL: {"item", "question", "type", "probs": {name: p}, "expected": name}.
// A failed record, a question without an expected answer, or one whose expected answer is not
// among its names is skipped and counted.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluation/calibration.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_suite.h"

namespace core::eval {

struct CalibrationInput {
    std::vector<CalibrationItem> items;
    std::string source;      // the journal or file read
    std::string suite;       // the suite read for expected answers (bench runs), if any
    int skipped = 0;         // records or questions that could not be used
    std::string first_skip;  // why the first one was skipped
};

// `run`: a journal or JSONL file, or a run folder (its journal.jsonl). `policy` gives question
// types by id (a question it lacks takes its suite item's type, else yes/no names mean noul and
// anything else choice). `suite`: the suite of a bench journal (default: the run folder's
// run.json). Errors name the file and line.
Result<CalibrationInput> read_calibration_input(const std::filesystem::path& run,
                                                const Schema* policy,
                                                const std::optional<std::filesystem::path>& suite);

// The labelled questions of a bench run in memory (its records against its suite's expected
// answers and question types).
std::vector<CalibrationItem> calibration_items(const Suite& suite,
                                               const std::vector<ItemRecord>& records);

}  // namespace core::eval
