#pragma once
// From slot log-probabilities to answers (PROTOCOLS section 4): per-read distributions, their
// mean, winner, entropy, hesitation, error bars and agreement; the post-hoc temperature. The
// JSON shapes answers take on the wire are core/wire/decision_json.h's.

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "core/decide/decision.h"

namespace core {

// One read of one slot: the log-probabilities of the question's labels, in label order.
struct SlotRead {
    std::vector<double> label_logprobs;
    double label_mass = 1;        // sum of exp(label_logprobs); 1 when the server normalised
    bool argmax_is_label = true;  // whether the unrestricted argmax was one of the labels
    int32_t argmax_id = -1;       // the unrestricted argmax token, where the reader knows it
};

// Label log-probabilities from a top-k reply (token id -> logprob): a label missing from it gets
// the smallest returned logprob minus 5, as the reference does. An empty reply gives all zeros.
std::vector<double> label_logprobs_from_topk(const std::map<int32_t, double>& top,
                                             const std::vector<int32_t>& label_ids);

std::vector<double> softmax(const std::vector<double>& logits);
double entropy_nats(const std::vector<double>& p);  // -sum p ln p over p > 0
int argmax(const std::vector<double>& v);           // first index of the largest value

Hesitation hesitation_class(double hesitation);

// Fills winner, confidence, entropy and hesitation from an outcome's mean.
void finish_outcome(QuestionOutcome& outcome);  // Clear < 0.16 <= Somewhat unsure <= 0.5 < Very

// From an outcome's per_read and mean: winner, confidence, entropy, hesitation, read entropies,
// agreement and (n > 1) the error bars. For distributions not read as one slot (a tournament's
// fused reads), whose mean is not the reads' average.
void summarise_reads(QuestionOutcome& outcome);

// Aggregates n >= 1 reads of one question: softmax per read, mean, winner, confidence, entropy,
// hesitation, stderr (n > 1), agreement, label_mass (mean) and argmax_is_label (every read).
QuestionOutcome aggregate_reads(const Question& question, const std::vector<SlotRead>& reads);

// Post-hoc temperature (dgem's --temperature T): every read's label log-probabilities are
// divided by T before the softmax, and the mean, winner, confidence, entropy, hesitation,
// agreement and error bars are computed again from those reads (T > 1 flattens, T < 1
// sharpens; T == 1 changes nothing). The reads' label log-probabilities are recovered from
// per_read (ln p differs from them by a constant per read, which the softmax cancels). Without
// per_read (a server's multi-read reply gives only the mean) the mean is rescaled and the error
// bars, which cannot be recomputed, are dropped. label_mass and argmax_is_label are kept.
// The Decision form records T in its diagnostics. T must be finite and > 0 (the caller
// validates).
void apply_temperature(QuestionOutcome& outcome, double temperature);
void apply_temperature(Decision& decision, double temperature);
// A policy's temperature (one T, or one per question type) over every question, recorded in the
// diagnostics as the executor records it.
void apply_temperature(Decision& decision, const PolicyTemperature& temperature);
// Records a policy temperature in diagnostics: "temperature" T when one T holds for every
// type, and the per-type values where the policy gave a map (nothing when none was set).
void record_temperature(const PolicyTemperature& temperature, DecisionDiagnostics& diagnostics);

// The "auto" samples policy: after one read, more reads are needed when the largest first-read
// label entropy (nats) exceeds the threshold and auto_max allows more than one read.
bool needs_more_reads(const std::vector<double>& first_read_entropies, double threshold,
                      int auto_max);

// A question its ask_if skipped: labels and alternatives, no reads (skip fields for the caller).
QuestionOutcome skipped_outcome(const Question& question);
// "skipped: asked only if breach is yes (it was no)".
std::string skip_text(const QuestionOutcome& outcome);
}  // namespace core
