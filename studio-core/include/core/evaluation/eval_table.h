#pragma once
// A run's items as table rows, the values a Bench view lists (and tests compare): one row per
// item, JevBench items through the upstream scorer, dgem cases with every question joined.
// Plain values, no Qt.

#include <string>
#include <vector>

#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_suite.h"

namespace core::eval {

struct ItemRow {
    std::string id, tier, family, topic;
    std::string expected, predicted;  // dgem cases: "q=label, q=label"
    double p = -1;                    // probability of the prediction (lowest over questions)
    bool correct = false;
    bool failed = false;  // no answer (error, timeout)
    double latency_s = 0;
    std::string error;
};

// Rows in suite order for the items that have a record.
std::vector<ItemRow> item_rows(const Suite& suite, const std::vector<ItemRecord>& records);

}  // namespace core::eval
