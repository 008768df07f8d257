#pragma once
// Fitting a policy's temperature from a labelled run, and the stage-2 escalation curve (a use
// case: pure functions over value types, no I/O; dgem calibrate and the Studio present them).
//
// The objective is the held-out negative log-likelihood of the expected answer: NLL is a proper
// scoring rule (it is minimised in expectation only by the true probabilities), and the
// temperature is exactly the one parameter of p_k ∝ p_k^(1/T) that it then tunes, so minimising
// it makes probabilities mean what they say rather than trading calibration against accuracy
// (T never changes a single read's argmax). The fit runs per question type (noul, choice,
// score: their confidences differ in kind) by k-fold cross-validation: each fold's T is fitted
// on the other folds, and NLL, Brier, ECE and the reliability bins before and after are measured
// on the held-out folds only. The T written into a policy is the fit on every item; a fit that
// ends at its search range's edge says so.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluation/eval_score.h"
#include "core/policy/schema.h"

namespace core::eval {

// One labelled question of a run: stage 1's distribution over its alternatives and the index of
// the expected one.
struct CalibrationItem {
    std::string item;      // the run item's id
    std::string question;  // the question's id
    QuestionType type = QuestionType::Choice;
    std::vector<double> probs;  // over the alternatives, summing to 1
    int expected = 0;
    // What a stage-2 judge answered for this question, where the run asked one (the escalation
    // curve then counts its real answers; else stage 2 is assumed right with
    // EscalationOptions::stage2_accuracy).
    std::optional<bool> stage2_correct;
};

// p_k^(1/T) / sum_j p_j^(1/T), computed as a softmax of ln p / T.
std::vector<double> temper(const std::vector<double>& probs, double temperature);
double label_entropy(const std::vector<double>& probs);  // nats

struct ProbabilityMetrics {
    int n = 0;
    double accuracy = 0;
    double nll = 0;    // mean -ln p(expected)
    double brier = 0;  // mean sum_k (p_k - y_k)^2
    Ece ece;           // top-label, 10 equal-width bins (the reliability diagram)
};
ProbabilityMetrics probability_metrics(const std::vector<const CalibrationItem*>& items,
                                       double temperature);

// What one temperature is fitted for: each question type (the default: their confidences
// differ in kind), or each question id (a policy whose questions differ within a type; each
// needs min_items labelled answers of its own).
enum class FitPer { Type, Question };

struct CalibrationOptions {
    FitPer per = FitPer::Type;
    int folds = 5;
    double t_min = 0.05;  // the search range of T (log-spaced grid, then golden section)
    double t_max = 20;
    uint64_t seed = 1;   // fold assignment
    int min_items = 10;  // a question type with fewer labelled questions keeps T = 1
};

// The T minimising the mean NLL over `items` in [t_min, t_max]: a log-spaced grid of 41 points,
// then golden-section search in log T between the best point's neighbours. `at_edge` is set when
// the minimum lies at (within 1% of) either end of the range.
double fit_temperature_nll(const std::vector<const CalibrationItem*>& items, double t_min,
                           double t_max, bool* at_edge = nullptr);

struct TypeFit {
    QuestionType type = QuestionType::Choice;
    std::string question;  // FitPer::Question: the question's id (its type in `type`)
    int n = 0;
    bool fitted = false;                    // false: too few items (T stays 1), `note` says so
    double temperature = 1;                 // fitted on every item of the type
    std::vector<double> fold_temperatures;  // each fitted without its held-out fold
    bool at_edge = false;                   // the fit (or a fold's) hit the search range's edge
    ProbabilityMetrics before, after;       // on the held-out folds
    std::string note;
};

struct CalibrationReport {
    // Per type: in the order noul, choice, score (those present); per question: in the order the
    // run first answers them.
    std::vector<TypeFit> types;
    ProbabilityMetrics before, after;  // every type together, held out
    // What --write puts into the policy: the fitted types (by_type) or questions (by_question).
    PolicyTemperature temperature;
    CalibrationOptions options;
};

// Fits every question type present. BadInput when there are no items or the options are out of
// range (folds 2..20, 0 < t_min < 1 < t_max).
Result<CalibrationReport> fit_calibration(const std::vector<CalibrationItem>& items,
                                          const CalibrationOptions& options);

// ---- the escalation curve -------------------------------------------------------------------

struct EscalationOptions {
    PolicyTemperature temperature;  // applied before the entropies (the policy's, or fitted)
    double stage2_accuracy = 1;     // where an item has no stage2_correct
};
struct EscalationPoint {
    double threshold = 0;  // nats: escalate at or above
    int escalated = 0;     // stage-2 calls: the cost
    double escalated_share = 0;
    double accuracy = 0;  // after escalation
};
// One point per distinct threshold: every item's entropy, and one above the largest (nothing
// escalated), highest threshold first (from stage 1 alone to everything escalated).
std::vector<EscalationPoint> escalation_curve(const std::vector<CalibrationItem>& items,
                                              const EscalationOptions& options);

struct ThresholdSuggestion {
    bool found = false;
    EscalationPoint point;
    std::string reason;  // why this point, or why none
};
// The highest threshold (fewest stage-2 calls) reaching `target_accuracy`.
ThresholdSuggestion suggest_for_accuracy(const std::vector<EscalationPoint>& curve,
                                         double target_accuracy);
// The most accurate point escalating at most `budget_share` of the questions.
ThresholdSuggestion suggest_for_budget(const std::vector<EscalationPoint>& curve,
                                       double budget_share);

}  // namespace core::eval
