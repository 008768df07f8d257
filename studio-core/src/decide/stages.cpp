// Stages and thought prompts of multi-pass decisions (see core/decide/stages.h).
#include "core/decide/stages.h"

#include <algorithm>
#include <set>

#include "core/decide/canvas_plan.h"
#include "core/decide/chat_template.h"

namespace core {

namespace {

constexpr const char* kThoughtOpen = "<|channel>thought\n";
constexpr const char* kThoughtClose = "<channel|>";
constexpr const char* kEmptyThought = "<|channel>thought\n<channel|>";

std::vector<int> all_questions(const Schema& schema) {
    std::vector<int> all(schema.questions.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    return all;
}

std::vector<ChatMessage> full_messages(const Schema& schema, const nlohmann::ordered_json& state,
                                       Layout layout) {
    const bool indexed = schema.questions.size() > 10;
    return prompt_messages(layout, question_text(schema, all_questions(schema), indexed),
                           state_text(state));
}

void append(std::vector<TokenId>& to, const std::vector<TokenId>& ids) {
    to.insert(to.end(), ids.begin(), ids.end());
}

}  // namespace

std::vector<std::vector<int>> question_stages(const Schema& schema) {
    std::vector<std::vector<int>> stages;
    std::set<std::string> done;
    std::vector<int> pending = all_questions(schema);
    while (!pending.empty()) {
        std::vector<int> stage, rest;
        for (int qi : pending) {
            const auto& deps = schema.questions[qi].depends_on;
            const bool ready = std::all_of(deps.begin(), deps.end(),
                                           [&](const std::string& d) { return done.count(d) > 0; });
            (ready ? stage : rest).push_back(qi);
        }
        if (stage.empty()) break;  // a cycle: parse_schema refuses these before we get here
        for (int qi : stage) done.insert(schema.questions[qi].id);
        stages.push_back(std::move(stage));
        pending = std::move(rest);
    }
    return stages;
}

bool is_multi_pass(const Schema& schema) {
    if (schema.think > 0) return true;
    return std::any_of(schema.questions.begin(), schema.questions.end(),
                       [](const Question& q) { return !q.depends_on.empty(); });
}

std::optional<SkipReason> unmet_condition(
    const Question& question, const std::map<std::string, std::optional<std::string>>& answers) {
    if (question.ask_if.empty()) return std::nullopt;
    const auto conditions = nlohmann::ordered_json::parse(question.ask_if);
    for (const auto& [dep, wanted] : conditions.items()) {
        SkipReason reason;
        reason.because = dep;
        for (const auto& w : wanted)
            reason.wanted.push_back(w.is_string() ? w.get<std::string>() : w.dump());
        auto it = answers.find(dep);
        if (it != answers.end()) reason.was = it->second;
        const bool met = reason.was && std::find(reason.wanted.begin(), reason.wanted.end(),
                                                 *reason.was) != reason.wanted.end();
        if (!met) return reason;
    }
    return std::nullopt;
}

std::vector<TokenId> staged_prompt_ids(const Schema& schema, const nlohmann::ordered_json& state,
                                       Layout layout, const engine::Tokenizer& tokenizer) {
    std::vector<TokenId> ids = tokenizer.encode(render_chat(full_messages(schema, state, layout)));
    append(ids, tokenizer.encode(kEmptyThought));
    return ids;
}

std::vector<TokenId> thought_prompt_ids(const Schema& schema, const nlohmann::ordered_json& state,
                                        Layout layout, const engine::Tokenizer& tokenizer) {
    std::vector<TokenId> ids =
        tokenizer.encode(render_chat(full_messages(schema, state, layout), /*thinking=*/true));
    append(ids, tokenizer.encode(kThoughtOpen));
    return ids;
}

TokenId thought_close_id(const engine::Tokenizer& tokenizer) {
    return tokenizer.encode(kThoughtClose).at(0);
}

ReadPrefix stage_prefix(const std::vector<TokenId>& base, const std::vector<std::string>& lines,
                        bool indexed, const engine::Tokenizer& tokenizer) {
    ReadPrefix prefix;
    prefix.prompt_ids = base;
    if (lines.empty()) return prefix;
    const std::string join = indexed ? " " : "\n";
    std::string text;
    for (const auto& line : lines) text += (text.empty() ? "" : join) + line;
    append(prefix.prompt_ids, tokenizer.encode(text));
    prefix.lead = join;
    return prefix;
}

}  // namespace core
