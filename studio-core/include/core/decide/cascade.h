#pragma once
// The stage-2 cascade (dgem's cascade_mode): after stage 1 (any Backend's decision), the
// questions whose label entropy reaches cascade_threshold (entropy mode), or that stage 1
// missed in a labelled run (on_miss), are asked again, one question at a time, of a stage-2
// judge: any Backend that generates (an OpenAI-compatible chat endpoint), given the question,
// its options, the document and stage 1's distribution as a prior. The judge's answer replaces
// stage 1's for that question, marked as such; a judge that fails or names no option leaves
// stage 1's answer and says why. Every surface (dgem decide, the Studio, MCP, the dataset
// runner) runs it through run_cascade.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/decide/backend.h"

namespace core {

struct CascadeOptions {
    CascadeSettings settings;  // mode and threshold (the endpoint is the caller's to resolve)
    // on_miss: the expected answer (an alternative's name) per question id; a question without
    // one is not escalated.
    std::map<std::string, std::string> expected;
    int max_tokens = 64;  // the judge's reply budget
};

// Whether stage 1's outcome goes to stage 2: entropy >= threshold (entropy mode), or its answer
// is not `expected` (on_miss, where expected is given). Skipped questions never go.
bool should_escalate(const QuestionOutcome& outcome, const CascadeOptions& options);

// The judge's messages for one question: a system message saying how to answer (the label
// alone), a user message with the instructions, the question, its labelled options, the
// document and stage 1's distribution as a prior.
std::vector<ChatMessage> stage2_messages(const Schema& schema, const Question& question,
                                         const QuestionOutcome& stage1,
                                         const nlohmann::ordered_json& state);

// The option a judge's reply names: the label alone ("B"), a label followed by text ("B: ...",
// "B."), an option's name, or {"answer": ...}; nullopt when it names none (or several).
std::optional<int> parse_stage2_answer(const std::string& reply, const QuestionOutcome& stage1);

// Runs the cascade over a stage-1 decision in place: every question gets an escalation record;
// escalated ones are asked of `judge` one by one (cancel stops between questions). Records the
// cascade in the diagnostics (judge: the judge's describe()). Mode off changes nothing.
void run_cascade(Decision& decision, const DecideRequest& request, Backend& judge,
                 const CascadeOptions& options, const CancelToken& cancel);

}  // namespace core
