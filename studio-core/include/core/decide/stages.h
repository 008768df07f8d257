#pragma once
// Decisions that take more than one pass, as the structured server (with dgem's serving patch)
// runs them for a text state:
//  - stages: questions with depends_on/ask_if run in topological stages, declaration order within
//    a stage. Every stage reads with the prompt of every question ("full" chunk prompt) followed
//    by the empty thought block and the "id: label" lines of the questions answered so far; its
//    canvas starts with the line separator and holds only the stage's own slots. A question
//    whose ask_if is unmet (all conditions hold; any listed answer name satisfies one) is
//    skipped, and so is one whose condition names a skipped question.
//  - thinking (think: N): before the first stage the model writes up to N thought tokens after
//    `<|channel>thought\n`, with the chat template's thinking on, stopping at `<channel|>`. The
//    thought, closed by `<channel|>`, replaces the empty thought block in the prompt of every
//    stage; all noise draws and stages share it.
// The planner (core/decide/canvas_plan.h) builds each stage's canvases from a ReadPrefix; the local
// backend runs the passes.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/policy/schema.h"
#include "engine/tokenizer.h"

namespace core {

using engine::TokenId;

// Question indices per stage: each question in the first stage after all it depends on.
// (parse_schema has already refused cycles and unknown ids.)
std::vector<std::vector<int>> question_stages(const Schema& schema);

// Whether a decision on `schema` takes more than one pass (think, or any dependency).
bool is_multi_pass(const Schema& schema);

// Why a question is skipped: the first unmet ask_if condition.
struct SkipReason {
    std::string because;              // the question the condition names
    std::optional<std::string> was;   // its answer name, or nullopt when it was skipped itself
    std::vector<std::string> wanted;  // the answer names that would have asked this question
};

// The question's unmet condition given the answers so far (question id -> answer name, nullopt
// for a skipped question), or nullopt when the question is asked.
std::optional<SkipReason> unmet_condition(
    const Question& question, const std::map<std::string, std::optional<std::string>>& answers);

// What every read of a multi-pass decision starts from.
struct ReadPrefix {
    std::vector<TokenId> prompt_ids;  // the whole prompt, up to where the canvas begins
    std::string lead;                 // text the canvas starts with ("\n" after earlier answers)
};

// The chat prompt of every question (the full question text) with thinking off, followed by
// the empty thought block: the prefix of a staged read without a thought.
std::vector<TokenId> staged_prompt_ids(const Schema& schema, const nlohmann::ordered_json& state,
                                       Layout layout, const engine::Tokenizer& tokenizer);

// The prompt the thought is written after: every question, thinking on, `<|channel>thought\n`.
std::vector<TokenId> thought_prompt_ids(const Schema& schema, const nlohmann::ordered_json& state,
                                        Layout layout, const engine::Tokenizer& tokenizer);

// The token that ends a thought (`<channel|>`), and the thought block's opening ids.
TokenId thought_close_id(const engine::Tokenizer& tokenizer);

// The prefix of one stage: `base` (staged_prompt_ids, or the thought prompt + thought +
// `<channel|>`) followed by the answer lines so far, joined by "\n" (" " when indexed).
ReadPrefix stage_prefix(const std::vector<TokenId>& base, const std::vector<std::string>& lines,
                        bool indexed, const engine::Tokenizer& tokenizer);

}  // namespace core
