// /v1/systemone (see core/wire/systemone.h).
#include "core/wire/systemone.h"

#include "core/wire/decision_json.h"

namespace core::wire {

namespace {

// One question as Jev's map holds it: type, instructions, criteria, and dgem's extras.
ojson question_json(const Question& q) {
    ojson item;
    item["type"] = std::string(to_string(q.type));
    item["instructions"] = q.instructions;
    if (q.type == QuestionType::Noul) {
        ojson crit = ojson::object();
        for (const char* k : {"true", "false"})
            if (auto it = q.criteria.find(k); it != q.criteria.end()) crit[k] = it->second;
        if (!crit.empty()) item["criteria"] = crit;
    } else if (q.type == QuestionType::Choice) {
        ojson crit = ojson::object();
        for (const auto& o : q.options)
            crit[o.name] = o.description.empty() ? ojson(nullptr) : ojson(o.description);
        item["criteria"] = crit;
    } else {
        item["criteria"] = q.levels;
    }
    if (!q.depends_on.empty()) item["depends_on"] = q.depends_on;
    if (!q.ask_if.empty()) item["ask_if"] = ojson::parse(q.ask_if, nullptr, false);
    if (q.alone_explicit) item["alone"] = q.alone;
    if (!q.catch_all.empty()) item["catch_all"] = q.catch_all;
    return item;
}

}  // namespace

ojson systemone_request(const DecideRequest& request, const std::string& model) {
    const Schema& s = request.schema;
    ojson body;
    if (!model.empty()) body["model"] = model;
    body["state"] = request.state;
    ojson questions = ojson::object();
    for (const auto& q : s.questions) questions[q.id] = question_json(q);
    body["questions"] = questions;
    body["seed"] = request.seed;
    if (!s.instructions.empty()) body["instructions"] = s.instructions;
    if (s.samples.automatic)
        body["samples"] = "auto";
    else
        body["samples"] = s.samples.count;
    body["auto_threshold"] = s.auto_threshold;
    body["auto_max"] = s.auto_max;
    if (s.think > 0) body["think"] = s.think;
    body["steps"] = s.steps;
    body["layout"] = std::string(to_string(s.layout));
    body["isolate"] = std::string(to_string(s.isolate));
    body["seed_token"] = std::string(to_string(s.seed_token));
    // Wide settings where they differ from the defaults (a narrow request reads as it did).
    if (s.labels != LabelSet::AZ) body["labels"] = std::string(to_string(s.labels));
    if (s.bracket_size > 0) body["bracket_size"] = s.bracket_size;
    if (s.catch_all != CatchAllMode::Final) body["catch_all"] = std::string(to_string(s.catch_all));
    if (s.canvas_questions > 0) body["canvas_questions"] = s.canvas_questions;
    if (s.temperature.is_set()) body["temperature"] = policy_temperature_json(s.temperature);
    if (!request.images.empty()) {
        body["images"] = ojson::array();
        for (const ImageInput& image : request.images) body["images"].push_back(data_uri(image));
    }
    return body;
}

Result<Decision> systemone_decision_from_reply(const json& reply, const Schema& schema,
                                               const std::string& where) {
    return decision_from_json(reply, schema, AnswerForm::SystemOne, where);
}

Result<SystemOneCall> systemone_call(const ojson& b) {
    if (!b.contains("questions") || !b["questions"].is_object() || b["questions"].empty())
        return engine::bad_input(
            "questions: needs a non-empty map of id -> {type, instructions, criteria}");
    if (!b.contains("state") || b["state"].is_null()) return engine::bad_input("state: required");
    SystemOneCall call;
    auto images = images_of(b.contains("images") ? b["images"] : ojson(), "images");
    if (!images) return images.error();
    call.images = std::move(*images);
    // Jev's map of questions, in the caller's order, as the schema's question array.
    ojson questions = ojson::array();
    for (auto it = b["questions"].begin(); it != b["questions"].end(); ++it) {
        if (!it.value().is_object())
            return engine::bad_input("question \"" + it.key() + "\": must be an object");
        ojson q = ojson::object();
        q["id"] = it.key();
        for (auto f = it.value().begin(); f != it.value().end(); ++f)
            if (f.key() != "id") q[f.key()] = f.value();
        questions.push_back(std::move(q));
    }
    call.schema = ojson::object();
    for (const char* key : {"instructions", "samples", "auto_max", "auto_threshold", "steps",
                            "think", "layout", "isolate", "seed_token", "labels", "bracket_size",
                            "catch_all", "canvas_questions", "temperature"})
        if (b.contains(key)) call.schema[key] = b[key];
    call.schema["questions"] = std::move(questions);
    return call;
}

ojson systemone_reply(const Decision& decision, const std::string& model) {
    return {{"model", model},
            {"answers", answers_json(decision, AnswerForm::SystemOne)},
            {"usage",
             {{"input_tokens", decision.prompt_tokens},
              {"input_tokens_details", {{"cached_tokens", decision.cached_prompt_tokens}}},
              {"output_tokens", decision.reads}}},
            {"diagnostics", diagnostics_json(decision)}};
}

}  // namespace core::wire
