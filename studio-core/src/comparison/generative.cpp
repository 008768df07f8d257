// The generative side of a comparison: the prompt that asks a schema's questions as one JSON
// object, and the strict parser of the reply (see core/comparison/compare.h for the rules).

#include <algorithm>
#include <set>

#include "core/comparison/compare.h"
#include "core/policy/json_input.h"

namespace core::compare {
namespace {

using nlohmann::json;

std::string quoted(const std::string& s) {
    return json(s).dump();
}

std::string join_quoted(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + quoted(item);
    return out;
}

// What each alternative means, in the order of the question's labels.
std::vector<std::string> descriptions(const Question& q) {
    std::vector<std::string> out;
    switch (q.type) {
        case QuestionType::Noul: {
            auto yes = q.criteria.find("true"), no = q.criteria.find("false");
            out.push_back(yes == q.criteria.end() ? "" : yes->second);
            out.push_back(no == q.criteria.end() ? "" : no->second);
            break;
        }
        case QuestionType::Choice:
            for (const auto& o : q.options) out.push_back(o.description);
            break;
        case QuestionType::Score:
            for (const auto& level : q.levels) {
                auto it = q.criteria.find(level);
                out.push_back(it == q.criteria.end() ? "" : it->second);
            }
            break;
    }
    return out;
}

// The allowed values a reply may name for `q`: its alternatives, then its labels where they
// differ (a model that answers "A" for the first option is understood, not repaired).
std::vector<std::string> allowed_values(const Question& q) {
    std::vector<std::string> out = q.alternatives();
    for (const auto& label : q.labels())
        if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
    return out;
}

int choose(const Question& q, const std::string& value) {
    const auto alternatives = q.alternatives();
    for (size_t i = 0; i < alternatives.size(); ++i)
        if (alternatives[i] == value) return static_cast<int>(i);
    const auto labels = q.labels();
    for (size_t i = 0; i < labels.size(); ++i)
        if (labels[i] == value) return static_cast<int>(i);
    return -1;
}

int approx_tokens(const std::string& s) {
    return static_cast<int>(s.size() + 2) / 3 + 1;
}

std::string json_type_name(const json& j) {
    if (j.is_array()) return "an array";
    if (j.is_string()) return "a string";
    if (j.is_number()) return "a number";
    if (j.is_boolean()) return "a boolean";
    if (j.is_null()) return "null";
    return "an object";
}

}  // namespace

int generative_token_budget(const Schema& schema) {
    // {"id": "value", ...}: per question the key, the longest value and about six tokens of
    // quotes, colon, comma and space; then half again as much, since a diffusion canvas that is
    // just long enough leaves the model no room to close the object.
    int tokens = 4;
    for (const auto& q : schema.questions) {
        int longest = 1;
        for (const auto& v : q.alternatives()) longest = std::max(longest, approx_tokens(v));
        tokens += approx_tokens(q.id) + longest + 6;
    }
    tokens = tokens * 3 / 2;
    tokens = (tokens + 15) / 16 * 16;
    return std::clamp(tokens, 32, 256);
}

GenerateRequest generative_request(const Schema& schema, const nlohmann::json& state,
                                   uint64_t seed) {
    std::string system =
        "You answer questions about a document. Reply with exactly one JSON object and nothing "
        "else: no code fence, no explanation. Its keys are the question ids; each value is one "
        "of the allowed values, written exactly as listed.";
    if (!schema.instructions.empty()) system += "\n\n" + schema.instructions;

    std::string user = "Document:\n" + state.dump(2) + "\n\nQuestions:\n";
    std::string shape;
    for (const auto& q : schema.questions) {
        const auto alternatives = q.alternatives();
        const auto meaning = descriptions(q);
        user += "- " + quoted(q.id) + ": " + q.instructions +
                "\n  Allowed values: " + join_quoted(alternatives) + ".\n";
        for (size_t i = 0; i < alternatives.size() && i < meaning.size(); ++i)
            if (!meaning[i].empty())
                user += "  " + quoted(alternatives[i]) + " means: " + meaning[i] + "\n";
        shape += (shape.empty() ? "" : ", ") + quoted(q.id) + ": \"...\"";
    }
    user += "\nReply as {" + shape + "}.";

    GenerateRequest request;
    request.messages = {{"system", system}, {"user", user}};
    request.max_tokens = generative_token_budget(schema);
    request.seed = seed;
    return request;
}

GenerativeAnswer parse_generative_answer(const Schema& schema, std::string_view text) {
    GenerativeAnswer answer;
    answer.chosen.assign(schema.questions.size(), -1);

    // Duplicate keys are a defect of the reply, not something to resolve by taking one.
    std::set<std::string> seen;
    std::vector<std::string> duplicates;
    json reply;
    try {
        reply = json::parse(text, [&](int depth, json::parse_event_t event, json& parsed) {
            if (depth == 1 && event == json::parse_event_t::key && parsed.is_string()) {
                const std::string key = parsed.get<std::string>();
                if (!seen.insert(key).second) duplicates.push_back(key);
            }
            return true;
        });
    } catch (const json::parse_error& e) {
        // parse_error::byte is 1-based; an offset is what a user counts from the start.
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        // The parser quotes what it last read: raw reply bytes, possibly cut mid-character.
        std::string what = valid_utf8(e.what());
        auto colon = what.rfind(": ");
        answer.reasons.push_back(
            "not JSON at offset " + std::to_string(offset) +
            (colon == std::string::npos ? "" : " (" + what.substr(colon + 2) + ")"));
        return answer;
    } catch (const json::exception& e) {
        // Valid syntax the parser still refuses: a number too large for a double (1e999).
        std::string what = valid_utf8(e.what());
        auto colon = what.rfind("] ");
        answer.reasons.push_back(
            "not JSON (" + (colon == std::string::npos ? what : what.substr(colon + 2)) + ")");
        return answer;
    }
    if (!reply.is_object()) {
        answer.reasons.push_back("the reply is " + json_type_name(reply) + ", not a JSON object");
        return answer;
    }
    for (const auto& key : duplicates) answer.reasons.push_back(quoted(key) + " appears twice");

    std::vector<std::string> ids;
    for (const auto& q : schema.questions) ids.push_back(q.id);
    for (auto it = reply.begin(); it != reply.end(); ++it)
        if (std::find(ids.begin(), ids.end(), it.key()) == ids.end())
            answer.reasons.push_back(quoted(it.key()) +
                                     " is not a question (questions: " + join_quoted(ids) + ")");

    for (size_t qi = 0; qi < schema.questions.size(); ++qi) {
        const Question& q = schema.questions[qi];
        auto it = reply.find(q.id);
        if (it == reply.end()) {
            answer.reasons.push_back("missing " + quoted(q.id));
            continue;
        }
        if (!it->is_string()) {
            answer.reasons.push_back(quoted(q.id) + ": expected a string, got " +
                                     json_type_name(*it) + " " + it->dump());
            continue;
        }
        const std::string value = it->get<std::string>();
        const int index = choose(q, value);
        if (index < 0) {
            answer.reasons.push_back(quoted(value) + " is not allowed for " + quoted(q.id) +
                                     " (allowed: " + join_quoted(allowed_values(q)) + ")");
            continue;
        }
        answer.chosen[qi] = index;
    }
    answer.valid = answer.reasons.empty();
    // An invalid reply answers nothing: counting its usable parts would be the repair the
    // comparison exists to rule out.
    if (!answer.valid) std::fill(answer.chosen.begin(), answer.chosen.end(), -1);
    return answer;
}

}  // namespace core::compare
