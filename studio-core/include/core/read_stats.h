#pragma once
// From slot log-probabilities to answers (PROTOCOLS section 4), and the JSON shapes answers and
// diagnostics take on the wire: the structured server's chat form (`{"answers", "diagnostics"}`
// in the message content) and the /v1/systemone form (0-based scores with a legend). The
// inverse (a server's reply back into a Decision) lives here too, so the shapes have one owner.

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decision.h"

namespace core {

// One read of one slot: the log-probabilities of the question's labels, in label order.
struct SlotRead {
    std::vector<double> label_logprobs;
    double label_mass = 1;        // sum of exp(label_logprobs); 1 when the server normalised
    bool argmax_is_label = true;  // whether the unrestricted argmax was one of the labels
};

// Label log-probabilities from a top-k reply (token id -> logprob): a label missing from it gets
// the smallest returned logprob minus 5, as the reference does. An empty reply gives all zeros.
std::vector<double> label_logprobs_from_topk(const std::map<int32_t, double>& top,
                                             const std::vector<int32_t>& label_ids);

std::vector<double> softmax(const std::vector<double>& logits);
double entropy_nats(const std::vector<double>& p);  // -sum p ln p over p > 0
int argmax(const std::vector<double>& v);           // first index of the largest value

Hesitation hesitation_class(double hesitation);  // Clear < 0.16 <= Somewhat unsure <= 0.5 < Very

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
// The Decision form also updates raw["diagnostics"] (per question entropy and label_stderr)
// and records "temperature" there. T must be finite and > 0 (the caller validates).
void apply_temperature(QuestionOutcome& outcome, double temperature);
void apply_temperature(Decision& decision, double temperature);

// The "auto" samples policy: after one read, more reads are needed when the largest first-read
// label entropy (nats) exceeds the threshold and auto_max allows more than one read.
bool needs_more_reads(const std::vector<double>& first_read_entropies, double threshold,
                      int auto_max);

enum class AnswerForm {
    Chat,       // structured server chat form: label, type value, probabilities by name
    SystemOne,  // /v1/systemone: noul true/false, 0-based score with legend
};

nlohmann::json answer_json(const QuestionOutcome& outcome, AnswerForm form);
nlohmann::json answers_json(const Decision& decision, AnswerForm form);
// A question its ask_if skipped: labels and alternatives, no reads (skip fields for the caller).
QuestionOutcome skipped_outcome(const Question& question);
// "skipped: asked only if breach is yes (it was no)".
std::string skip_text(const QuestionOutcome& outcome);
// The common diagnostics keys: per question pos, entropy (one value per read), label_mass,
// argmax_is_label; samples.n; timing (total_ms, reads, encode/decode/readout ms); layout;
// isolated; prompt_tokens; steps.
nlohmann::json diagnostics_json(const Decision& decision);
// {"answers": ..., "diagnostics": ...} as the structured server's chat content carries it.
nlohmann::json decision_json(const Decision& decision, AnswerForm form);

// What `dgem decide --json` prints and `dgem mcp`'s decision results carry: {"answers" (chat
// form), "diagnostics"}, the diagnostics being the server's own when the decision came from one
// (decision.raw["diagnostics"]), else diagnostics_json.
nlohmann::json decision_output_json(const Decision& decision);

// Reads a server's answers and diagnostics back into a Decision. `body` holds "answers" and
// optionally "diagnostics" (the parsed chat content, or a /v1/systemone reply). The schema gives
// each question's labels and alternatives; a question answered null (skipped) is left out.
// Errors name `source` and the question.
Result<Decision> decision_from_json(const nlohmann::json& body, const Schema& schema,
                                    AnswerForm form, std::string_view source);

}  // namespace core
