#pragma once
// The JSON shapes a decision takes on the wire, written and read in one place: the answers (the
// structured server's chat form, or /v1/systemone's 0-based scores with a legend) and the
// diagnostics. The chat decision form, /v1/systemone, `dgem decide --json`, MCP results and
// reports all use these; the inverse turns a server's reply back into a typed Decision.

#include <string_view>

#include <nlohmann/json.hpp>

#include "core/decide/decision.h"

namespace core {

enum class AnswerForm {
    Chat,       // structured server chat form: label, type value, probabilities by name
    SystemOne,  // /v1/systemone: noul true/false, 0-based score with legend
};

nlohmann::json answer_json(const QuestionOutcome& outcome, AnswerForm form);
nlohmann::json answers_json(const Decision& decision, AnswerForm form);

// The diagnostics: per question pos, entropy (one value per read), label_mass,
// argmax_is_label, label_stderr; samples (n, and the policy where known); timing; layout;
// isolated; prompt_tokens; steps; passes; stages and skipped questions; the thought; and the
// decision's typed extras (seed, seed_token, engine, entropy_basis, conditioning, temperature)
// where known.
nlohmann::json diagnostics_json(const Decision& decision);

// {"answers": ..., "diagnostics": ...}: the chat form's message content, what `dgem decide
// --json` prints and what `dgem mcp`'s decision results carry.
nlohmann::json decision_json(const Decision& decision, AnswerForm form);

// Reads a server's answers and diagnostics back into a Decision. `body` holds "answers" and
// optionally "diagnostics" (the parsed chat content, or a /v1/systemone reply). The schema gives
// each question's labels and alternatives; a question answered null (skipped) is left out.
// Errors name `source` and the question.
Result<Decision> decision_from_json(const nlohmann::json& body, const Schema& schema,
                                    AnswerForm form, std::string_view source);

}  // namespace core
