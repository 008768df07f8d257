#pragma once
// From a run's records to scores and a report: JevBench items into the upstream scorer
// (core/evaluation/eval_score.h), dgem suites into accuracy per question and overall, mean
// confidence, ECE, Brier and latency. What the CLI prints and writes with -o, and what a Bench view
// charts.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_score.h"
#include "core/evaluation/eval_suite.h"

namespace core::eval {

// One ScoredItem per record of a JevBench suite (records of ids not in the suite are skipped).
std::vector<ScoredItem> scored_items(const Suite& suite, const std::vector<ItemRecord>& records);

// Per item for the report: id, tier, family, topic, expected, probs over the item's labels,
// predicted, correct, valid, latency_s, attempts, seed, error.
nlohmann::json jev_items_json(const std::vector<ScoredItem>& items,
                              const std::vector<ItemRecord>& records);

struct QuestionAccuracy {
    std::string id;
    int n = 0, correct = 0, valid = 0;
    double accuracy = 0, mean_confidence = 0;
};

struct SuiteScore {
    int cases = 0, cases_correct = 0, failed = 0;  // a case is correct when every question is
    double case_accuracy = 0;
    int answers = 0, answers_correct = 0;
    double answer_accuracy = 0;
    double mean_confidence = 0;  // over valid answers
    Ece reliability;             // top-label confidence of every valid answer
    double brier = 0;            // mean over valid answers
    std::optional<double> p50_s, p95_s;
    std::map<std::string, QuestionAccuracy> by_question;
    std::map<std::string, GroupStats> by_domain, by_tier;
};

SuiteScore score_suite(const Suite& suite, const std::vector<ItemRecord>& records);
nlohmann::json to_json(const SuiteScore& score);
// Per case: id, domain, tier, answers (question -> {expected, predicted, correct, probs}).
nlohmann::json suite_items_json(const Suite& suite, const std::vector<ItemRecord>& records);

}  // namespace core::eval
