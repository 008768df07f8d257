// The policy "temperature" key (one T, or one per question type) and the cascade mode's names:
// parsing with errors that name the field, and the wire form.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "core/policy/schema.h"

namespace core {

namespace {

const char* const kAccepted =
    "accepted: a number above 0 (1 leaves the probabilities as they are, above 1 flattens "
    "them, below 1 sharpens them; at most 1000), or one per question type as "
    "{\"noul\": T, \"choice\": T, \"score\": T}, with one per question id as "
    "\"questions\": {\"id\": T}";

Result<double> checked(double value, const std::string& shown, std::string_view field) {
    if (!std::isfinite(value) || value < kMinTemperature || value > kMaxTemperature)
        return engine::bad_input(std::string(field) + " " + shown + " is not accepted; " +
                                 kAccepted);
    return value;
}

Result<double> temperature_of(const nlohmann::ordered_json& v, std::string_view field) {
    if (v.is_number()) return checked(v.get<double>(), v.dump(), field);
    // Template variables arrive as strings: "1.5" means 1.5.
    if (v.is_string()) return parse_temperature_value(v.get<std::string>(), field);
    return engine::bad_input(std::string(field) + " " + v.dump() + " is not accepted; " +
                             kAccepted);
}

}  // namespace

double PolicyTemperature::for_type(QuestionType type) const {
    if (auto it = by_type.find(type); it != by_type.end()) return it->second;
    return all.value_or(1.0);
}

double PolicyTemperature::for_question(const std::string& id, QuestionType type) const {
    if (auto it = by_question.find(id); it != by_question.end()) return it->second;
    return for_type(type);
}

std::optional<QuestionType> parse_question_type(std::string_view text) {
    if (text == "noul") return QuestionType::Noul;
    if (text == "choice") return QuestionType::Choice;
    if (text == "score") return QuestionType::Score;
    return std::nullopt;
}

Result<double> parse_temperature_value(const std::string& text, std::string_view field) {
    double value = std::nan("");
    try {
        size_t used = 0;
        value = std::stod(text, &used);
        if (used != text.size()) value = std::nan("");
    } catch (const std::exception&) {
        value = std::nan("");
    }
    return checked(value, "\"" + text + "\"", field);
}

Result<PolicyTemperature> parse_policy_temperature(const nlohmann::ordered_json& value,
                                                   std::string_view field) {
    PolicyTemperature t;
    if (!value.is_object()) {
        auto one = temperature_of(value, field);
        if (!one) return one.error();
        t.all = *one;
        return t;
    }
    if (value.empty())
        return engine::bad_input(std::string(field) + " {} names no question type; " + kAccepted);
    for (const auto& [key, v] : value.items()) {
        if (key == "questions") {
            const std::string where = std::string(field) + ".questions";
            if (!v.is_object() || v.empty())
                return engine::bad_input(where + " " + v.dump() +
                                         " is not accepted; accepted: {\"question id\": T, ...}");
            for (const auto& [id, q] : v.items()) {
                auto one = temperature_of(q, where + "." + id);
                if (!one) return one.error();
                t.by_question[id] = *one;
            }
            continue;
        }
        auto type = parse_question_type(key);
        if (!type)
            return engine::bad_input(std::string(field) + " names the unknown question type \"" +
                                     key +
                                     "\"; accepted types: noul, choice, score, and \"questions\" "
                                     "for one T per question id");
        auto one = temperature_of(v, std::string(field) + "." + key);
        if (!one) return one.error();
        t.by_type[*type] = *one;
    }
    return t;
}

nlohmann::ordered_json policy_temperature_json(const PolicyTemperature& t) {
    if (t.by_type.empty() && t.by_question.empty())
        return t.all ? nlohmann::ordered_json(*t.all) : nullptr;
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (auto type : {QuestionType::Noul, QuestionType::Choice, QuestionType::Score})
        if (t.by_type.count(type) || t.all) out[std::string(to_string(type))] = t.for_type(type);
    if (!t.by_question.empty()) {
        nlohmann::ordered_json questions = nlohmann::ordered_json::object();
        for (const auto& [id, value] : t.by_question) questions[id] = value;
        out["questions"] = std::move(questions);
    }
    return out;
}

std::string_view to_string(CascadeMode mode) {
    switch (mode) {
        case CascadeMode::Off:
            return "off";
        case CascadeMode::Entropy:
            return "entropy";
        case CascadeMode::OnMiss:
            return "on_miss";
    }
    return "off";
}

std::optional<CascadeMode> parse_cascade_mode(std::string_view text) {
    if (text == "off") return CascadeMode::Off;
    if (text == "entropy") return CascadeMode::Entropy;
    if (text == "on_miss") return CascadeMode::OnMiss;
    return std::nullopt;
}

}  // namespace core
