// Parsing and validation of the decision schema (PROTOCOLS section 2). Accepts the field names
// of the structured server, of /v1/systemone bodies already mapped to a schema, and the legacy
// names found in dgem policy templates ("name" for id, "question" for instructions, option maps,
// score "items"). Every error is one line naming the source, the question and what is accepted.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include "core/policy/schema.h"

namespace core {

namespace {

using engine::bad_input;
using ojson = nlohmann::ordered_json;

std::string in_quotes(std::string_view text) {
    return "\"" + std::string(text) + "\"";
}

// Text of a scalar JSON value as a person wrote it: strings as they are, numbers and booleans
// in JSON spelling (a score level 3 becomes "3", as the reference's str() does).
std::string scalar_text(const ojson& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return {};
    return v.dump();
}

bool is_integer_value(const ojson& v, long long& out) {
    if (v.is_number_integer() || v.is_number_unsigned()) {
        out = v.get<long long>();
        return true;
    }
    if (v.is_number_float()) {
        double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
            out = static_cast<long long>(d);
            return true;
        }
    }
    return false;
}

// A count as templates write it: a JSON integer, or digits in a string ("120").
bool count_value(const ojson& v, long long& out) {
    if (is_integer_value(v, out)) return true;
    if (!v.is_string()) return false;
    const std::string& text = v.get_ref<const std::string&>();
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
        return false;
    out = std::stoll(text);
    return true;
}

class SchemaParser {
  public:
    explicit SchemaParser(std::string_view source) : source_(source) {}

    Result<Schema> parse(const ojson& root) {
        if (!root.is_object())
            return fail("schema must be a JSON object with a \"questions\" array");
        const ojson* questions = find(root, "questions");
        // dgem's dict form {"id": {question}, ...}: a list in the order written, each question's
        // id from its key unless it names one itself.
        ojson listed;
        if (questions && questions->is_object()) {
            listed = ojson::array();
            for (const auto& [key, value] : questions->items()) {
                ojson q = value;
                if (q.is_object() && !q.contains("id") && !q.contains("name")) q["id"] = key;
                listed.push_back(std::move(q));
            }
            questions = &listed;
        }
        if (!questions || !questions->is_array() || questions->empty())
            return fail("schema needs a non-empty \"questions\" list (or an id -> question map)");

        Schema schema;
        if (const ojson* ins = find(root, "instructions"); ins && !ins->is_null())
            schema.instructions = ins->is_string() ? ins->get<std::string>() : ins->dump();

        for (size_t i = 0; i < questions->size(); ++i) {
            auto q = parse_question((*questions)[i], i);
            if (!q) return q.error();
            schema.questions.push_back(std::move(*q));
        }
        if (auto ok = check_ids(schema); !ok) return ok.error();
        if (auto ok = check_dependencies(schema); !ok) return ok.error();
        if (auto ok = parse_options(root, schema); !ok) return ok.error();
        if (auto ok = parse_wide_options(root, schema); !ok) return ok.error();
        if (auto ok = parse_calibration_options(root, schema); !ok) return ok.error();
        if (auto ok = check_widths(schema); !ok) return ok.error();
        return schema;
    }

  private:
    Error fail(const std::string& what) const {
        return bad_input(std::string(source_) + ": " + what);
    }
    Error fail_question(const Question& q, size_t index, const std::string& what) const {
        std::string name = q.id.empty() ? "questions[" + std::to_string(index) + "]"
                                        : "question " + in_quotes(q.id);
        return fail(name + ": " + what);
    }

    static const ojson* find(const ojson& object, const char* key) {
        auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }

    Result<Question> parse_question(const ojson& value, size_t index) {
        Question q;
        if (!value.is_object())
            return fail_question(q, index, "must be an object with id, type and instructions");

        // id (legacy: "name")
        const ojson* id = find(value, "id");
        if (!id) id = find(value, "name");
        if (!id || id->is_null())
            return fail_question(q, index,
                                 "needs an \"id\" (a non-empty name without ':' or newline)");
        if (!id->is_string() && !id->is_number())
            return fail_question(q, index, "\"id\" must be a string");
        q.id = scalar_text(*id);
        // The reference strips surrounding whitespace from ids.
        auto first = q.id.find_first_not_of(" \t\r\n");
        auto last = q.id.find_last_not_of(" \t\r\n");
        q.id = first == std::string::npos ? std::string() : q.id.substr(first, last - first + 1);
        if (q.id.empty() || q.id.find(':') != std::string::npos ||
            q.id.find('\n') != std::string::npos)
            return fail_question(
                q, index,
                "id " + in_quotes(q.id) + " must be non-empty and contain no ':' or newline");

        // instructions (legacy: "question")
        const ojson* ins = find(value, "instructions");
        if (!ins) ins = find(value, "question");
        if (!ins) ins = find(value, "prompt");
        if (ins && !ins->is_null())
            q.instructions = ins->is_string() ? ins->get<std::string>() : ins->dump();

        // type and its aliases
        const ojson* type = find(value, "type");
        if (!type || !type->is_string())
            return fail_question(q, index,
                                 "needs a \"type\": noul (or bool, boolean), choice or score");
        std::string t = type->get<std::string>();
        if (t == "noul" || t == "bool" || t == "boolean")
            q.type = QuestionType::Noul;
        else if (t == "choice")
            q.type = QuestionType::Choice;
        else if (t == "score")
            q.type = QuestionType::Score;
        else
            return fail_question(q, index,
                                 "unknown type " + in_quotes(t) +
                                     "; accepted: noul (or bool, boolean), choice, score");

        Result<void> body = q.type == QuestionType::Noul     ? parse_noul(value, q, index)
                            : q.type == QuestionType::Choice ? parse_choice(value, q, index)
                                                             : parse_score(value, q, index);
        if (!body) return body.error();

        size_t n = q.type == QuestionType::Noul     ? 2
                   : q.type == QuestionType::Choice ? q.options.size()
                                                    : q.levels.size();
        // The label set is a schema setting, read later: check_widths() bounds what one read
        // holds; here only what any question may have.
        const size_t most = q.type == QuestionType::Choice ? kMaxOptions : kMaxWideAlternatives;
        if (n < 2 || n > most)
            return fail_question(q, index,
                                 "has " + std::to_string(n) + " alternatives; accepted: 2 to " +
                                     std::to_string(most) +
                                     (q.type == QuestionType::Choice ? " options" : " levels"));
        if (auto ok = parse_catch_all(value, q, index); !ok) return ok.error();

        if (const ojson* deps = find(value, "depends_on"); deps && !deps->is_null()) {
            if (!deps->is_array())
                return fail_question(q, index, "\"depends_on\" must be a list of question ids");
            for (const auto& d : *deps) {
                if (!d.is_string())
                    return fail_question(q, index, "\"depends_on\" must be a list of question ids");
                q.depends_on.push_back(d.get<std::string>());
            }
        }
        if (const ojson* ask = find(value, "ask_if"); ask && !ask->is_null()) {
            if (!ask->is_object())
                return fail_question(q, index,
                                     "\"ask_if\" must map a question id to a non-empty list of "
                                     "its answers");
            for (const auto& [dep, answers] : ask->items()) {
                if (!answers.is_array() || answers.empty())
                    return fail_question(q, index,
                                         "\"ask_if\" must map a question id to a non-empty list "
                                         "of its answers (" +
                                             in_quotes(dep) + " does not)");
                for (const auto& a : answers)
                    if (!a.is_string() && !a.is_number() && !a.is_boolean())
                        return fail_question(
                            q, index,
                            "\"ask_if\" answers for " + in_quotes(dep) + " must be answer names");
                // ask_if implies a dependency, as in the reference.
                if (std::find(q.depends_on.begin(), q.depends_on.end(), dep) == q.depends_on.end())
                    q.depends_on.push_back(dep);
            }
            q.ask_if = ask->dump();
        }
        if (const ojson* alone = find(value, "alone"); alone && !alone->is_null()) {
            if (!alone->is_boolean())
                return fail_question(q, index, "\"alone\" must be true or false");
            q.alone = alone->get<bool>();
            q.alone_explicit = true;
        }
        return q;
    }

    Result<void> parse_noul(const ojson& value, Question& q, size_t index) {
        const ojson* crit = find(value, "criteria");
        if (!crit || crit->is_null()) return {};
        if (!crit->is_object())
            return fail_question(q, index,
                                 "noul \"criteria\" must be an object with \"true\" and/or "
                                 "\"false\" descriptions");
        for (const auto& [key, desc] : crit->items()) {
            std::string k = key;
            if (k == "yes") k = "true";  // legacy spelling
            if (k == "no") k = "false";
            if (k != "true" && k != "false")
                return fail_question(q, index,
                                     "noul \"criteria\" key " + in_quotes(key) +
                                         " is not accepted; accepted: true, false");
            if (!desc.is_null() && !desc.is_string())
                return fail_question(q, index, "noul \"criteria\"." + key + " must be a string");
            if (desc.is_string() && !desc.get<std::string>().empty())
                q.criteria[k] = desc.get<std::string>();
        }
        return {};
    }

    Result<void> parse_choice(const ojson& value, Question& q, size_t index) {
        const ojson* opts = find(value, "options");
        if (!opts || opts->is_null()) opts = find(value, "choices");   // legacy dgem name
        if (!opts || opts->is_null()) opts = find(value, "criteria");  // Jev: name -> description
        if (!opts || opts->is_null())
            return fail_question(q, index,
                                 "choice needs \"options\": [{\"name\", \"description\"}, ...] "
                                 "(or names, or a name -> description map)");
        if (opts->is_array()) {
            for (size_t i = 0; i < opts->size(); ++i) {
                const ojson& o = (*opts)[i];
                Option option;
                if (o.is_object()) {
                    const ojson* name = find(o, "name");
                    if (!name || name->is_null())
                        return fail_question(q, index,
                                             "options[" + std::to_string(i) + "] needs a \"name\"");
                    option.name = scalar_text(*name);
                    if (const ojson* d = find(o, "description"); d && !d->is_null())
                        option.description = scalar_text(*d);
                } else if (o.is_string() || o.is_number() || o.is_boolean()) {
                    option.name = scalar_text(o);  // legacy: options given as plain names
                } else {
                    return fail_question(q, index,
                                         "options[" + std::to_string(i) +
                                             "] must be a name or {\"name\", \"description\"}");
                }
                q.options.push_back(std::move(option));
            }
        } else if (opts->is_object()) {
            // In the order written: options are lettered A, B, C in this order.
            for (const auto& [name, desc] : opts->items()) {
                if (desc.is_object() || desc.is_array())
                    return fail_question(
                        q, index, "option " + in_quotes(name) + ": description must be a string");
                q.options.push_back({name, scalar_text(desc)});  // 1 -> "1", as dgem's %v
            }
        } else {
            return fail_question(q, index,
                                 "\"options\" must be a list of options or a name -> description "
                                 "map");
        }
        return check_names(q, index, "option");
    }

    Result<void> parse_score(const ojson& value, Question& q, size_t index) {
        const ojson* levels = find(value, "levels");
        if (!levels || levels->is_null()) levels = find(value, "items");  // legacy dgem name
        const ojson* crit = find(value, "criteria");
        if ((!levels || levels->is_null()) && crit && crit->is_array()) {
            levels = crit;  // Jev: criteria is the ordered list of levels
            crit = nullptr;
        }
        // dgem's normalisation: a score without levels is a 1-5 scale.
        static const ojson kDefaultLevels = ojson::array({"1", "2", "3", "4", "5"});
        if (!levels || levels->is_null()) levels = &kDefaultLevels;
        if (!levels->is_array())
            return fail_question(q, index,
                                 "\"levels\" must be a list of level names, lowest first");
        for (const auto& l : *levels) {
            if (!l.is_string() && !l.is_number())
                return fail_question(q, index, "\"levels\" must hold names (strings or numbers)");
            q.levels.push_back(scalar_text(l));
        }
        if (auto ok = check_names(q, index, "level"); !ok) return ok;
        if (crit && !crit->is_null()) {
            if (!crit->is_object())
                return fail_question(q, index,
                                     "score \"criteria\" must map level names to descriptions");
            for (const auto& [level, desc] : crit->items()) {
                if (std::find(q.levels.begin(), q.levels.end(), level) == q.levels.end())
                    return fail_question(q, index,
                                         "score \"criteria\" names " + in_quotes(level) +
                                             ", which is not one of its levels");
                if (!desc.is_null() && !desc.is_string())
                    return fail_question(q, index,
                                         "score \"criteria\"." + level + " must be a string");
                if (desc.is_string() && !desc.get<std::string>().empty())
                    q.criteria[level] = desc.get<std::string>();
            }
        }
        return {};
    }

    // "catch_all": an option name or a list of them (at most kMaxCatchAll), each one of the
    // question's options.
    Result<void> parse_catch_all(const ojson& value, Question& q, size_t index) {
        const ojson* c = find(value, "catch_all");
        if (!c || c->is_null()) return {};
        if (q.type != QuestionType::Choice)
            return fail_question(q, index, "\"catch_all\" is for choice questions only");
        std::vector<std::string> names;
        if (c->is_string()) {
            names.push_back(c->get<std::string>());
        } else if (c->is_array()) {
            for (const auto& n : *c) {
                if (!n.is_string())
                    return fail_question(q, index, "\"catch_all\" must name options");
                names.push_back(n.get<std::string>());
            }
        } else {
            return fail_question(q, index,
                                 "\"catch_all\" must be an option name or a list of them");
        }
        if (names.empty() || names.size() > static_cast<size_t>(kMaxCatchAll))
            return fail_question(q, index,
                                 "\"catch_all\" names " + std::to_string(names.size()) +
                                     " options; accepted: 1 to " + std::to_string(kMaxCatchAll));
        const auto options = q.alternatives();
        for (const auto& n : names) {
            if (std::find(options.begin(), options.end(), n) == options.end())
                return fail_question(
                    q, index,
                    "\"catch_all\" names " + in_quotes(n) + ", which is not one of its options");
            if (std::count(names.begin(), names.end(), n) > 1)
                return fail_question(q, index, "\"catch_all\" names " + in_quotes(n) + " twice");
        }
        q.catch_all = std::move(names);
        return {};
    }

    // "labels", "bracket_size", "catch_all" (the mode) and "canvas_questions".
    Result<void> parse_wide_options(const ojson& root, Schema& schema) {
        if (auto ok =
                parse_enum(root, "labels", parse_label_set,
                           "\"az\" (26 labels), \"az_aa\" or \"az_lower\" (52)", schema.labels);
            !ok)
            return ok;
        if (auto ok = parse_enum(root, "catch_all", parse_catch_all_mode,
                                 "\"off\", \"final\", \"both\" or \"verify\"", schema.catch_all);
            !ok)
            return ok;
        const int capacity = label_capacity(schema.labels);
        if (const ojson* b = find(root, "bracket_size"); b && !b->is_null()) {
            long long n = 0;
            // At least 3: brackets of 2 would leave a bracket of one for an odd count.
            if (!count_value(*b, n) || n < 3 || n > capacity)
                return fail("bracket_size " + b->dump() + " is not accepted; accepted: 3 to " +
                            std::to_string(capacity) + " (the label set " +
                            std::string(to_string(schema.labels)) + " holds " +
                            std::to_string(capacity) + ")");
            schema.bracket_size = static_cast<int>(n);
        }
        if (const ojson* c = find(root, "canvas_questions"); c && !c->is_null()) {
            long long n = 0;
            if (!count_value(*c, n) || n < 0 || n > 64)
                return fail("canvas_questions " + c->dump() +
                            " is not accepted; accepted: 0 (one canvas) to 64 questions per "
                            "canvas");
            schema.canvas_questions = static_cast<int>(n);
        }
        return {};
    }

    // "temperature" (one T or one per question type), "cascade_mode", "cascade_threshold" and
    // "cascade_endpoint".
    Result<void> parse_calibration_options(const ojson& root, Schema& schema) {
        if (const ojson* t = find(root, "temperature"); t && !t->is_null()) {
            auto parsed = parse_policy_temperature(*t, "temperature");
            if (!parsed) return fail(parsed.error().message);
            for (const auto& entry : parsed->by_question) {
                // (A named copy: lambdas capturing structured bindings need clang 16.)
                const std::string& id = entry.first;
                const bool known = std::any_of(schema.questions.begin(), schema.questions.end(),
                                               [&](const Question& q) { return q.id == id; });
                if (!known) {
                    std::string ids;
                    for (const auto& q : schema.questions) ids += (ids.empty() ? "" : ", ") + q.id;
                    return fail("temperature.questions names the unknown question \"" + id +
                                "\"; the policy's questions: " + ids);
                }
            }
            schema.temperature = std::move(*parsed);
        }
        if (auto ok = parse_enum(root, "cascade_mode", parse_cascade_mode,
                                 "\"off\", \"entropy\" or \"on_miss\"", schema.cascade.mode);
            !ok)
            return ok;
        if (const ojson* c = find(root, "cascade_threshold"); c && !c->is_null()) {
            const bool number = c->is_number() && std::isfinite(c->get<double>());
            if (!number || c->get<double>() < 0)
                return fail("cascade_threshold " + c->dump() +
                            " is not accepted; accepted: a label entropy in nats, 0 or more "
                            "(0 escalates every question; ln 2 = 0.693 is a coin flip)");
            schema.cascade.threshold = c->get<double>();
        }
        if (const ojson* e = find(root, "cascade_endpoint"); e && !e->is_null()) {
            if (!e->is_string())
                return fail("cascade_endpoint " + e->dump() +
                            " is not accepted; accepted: an endpoint profile's name or an "
                            "OpenAI-compatible base URL");
            schema.cascade.endpoint = e->get<std::string>();
        }
        return {};
    }

    // Each question against the label set: a score question must fit one read; a choice
    // question wider than one read is a tournament, which reads in a single pass.
    Result<void> check_widths(Schema& schema) {
        const int capacity = label_capacity(schema.labels);
        const bool staged = schema.think > 0 ||
                            std::any_of(schema.questions.begin(), schema.questions.end(),
                                        [](const Question& q) { return !q.depends_on.empty(); });
        for (size_t i = 0; i < schema.questions.size(); ++i) {
            Question& q = schema.questions[i];
            q.label_set = schema.labels;
            q.bracket_size =
                schema.bracket_size > 0 ? schema.bracket_size : default_bracket_size(schema.labels);
            q.catch_all_mode = schema.catch_all;
            const int n = static_cast<int>(q.alternatives().size());
            if (q.type == QuestionType::Score && n > capacity)
                return fail_question(q, i,
                                     "has " + std::to_string(n) + " levels; the label set " +
                                         std::string(to_string(schema.labels)) + " holds " +
                                         std::to_string(capacity) +
                                         " (accepted: at most 26 levels, or 52 with \"labels\": "
                                         "\"az_aa\")");
            if (!q.is_tournament()) continue;
            if (staged)
                return fail_question(
                    q, i,
                    "has " + std::to_string(n) + " options, more than the label set " +
                        std::string(to_string(schema.labels)) + " holds (" +
                        std::to_string(capacity) +
                        "): it is read as a bracket tournament, which runs in a single pass; "
                        "accepted: no depends_on or ask_if in the schema and think 0, or at most " +
                        std::to_string(capacity) + " options");
        }
        return {};
    }

    // Names become probability keys and ask_if values: they must be non-empty and distinct.
    Result<void> check_names(const Question& q, size_t index, const char* what) {
        const auto& names = q.alternatives();
        std::set<std::string> seen;
        for (const auto& n : names) {
            if (n.empty())
                return fail_question(q, index, std::string("an ") + what + " name is empty");
            if (!seen.insert(n).second)
                return fail_question(
                    q, index, std::string("two ") + what + "s are both named " + in_quotes(n));
        }
        return {};
    }

    Result<void> check_ids(const Schema& schema) {
        std::set<std::string> seen;
        for (size_t i = 0; i < schema.questions.size(); ++i)
            if (!seen.insert(schema.questions[i].id).second)
                return fail_question(schema.questions[i], i,
                                     "duplicate id; every question needs its own id");
        return {};
    }

    Result<void> check_dependencies(const Schema& schema) {
        std::map<std::string, size_t> by_id;
        for (size_t i = 0; i < schema.questions.size(); ++i) by_id[schema.questions[i].id] = i;
        for (size_t i = 0; i < schema.questions.size(); ++i) {
            const Question& q = schema.questions[i];
            for (const auto& dep : q.depends_on) {
                if (dep == q.id) return fail_question(q, i, "depends on itself");
                if (!by_id.count(dep))
                    return fail_question(q, i, "depends on unknown question " + in_quotes(dep));
            }
            if (!q.ask_if.empty()) {
                ojson ask = ojson::parse(q.ask_if);
                for (const auto& [dep, answers] : ask.items()) {
                    const Question& target = schema.questions[by_id[dep]];
                    auto names = target.alternatives();
                    std::string accepted;
                    for (const auto& n : names) accepted += (accepted.empty() ? "" : ", ") + n;
                    for (const auto& a : answers) {
                        std::string name = scalar_text(a);
                        if (std::find(names.begin(), names.end(), name) == names.end())
                            return fail_question(
                                q, i,
                                "ask_if answer " + in_quotes(name) + " for " + in_quotes(dep) +
                                    " is not one of its answers (" + accepted + ")");
                    }
                }
            }
        }
        // Cycles: questions run in stages, each after everything it depends on.
        std::set<std::string> done;
        std::vector<const Question*> pending;
        for (const auto& q : schema.questions) pending.push_back(&q);
        while (!pending.empty()) {
            std::vector<const Question*> stage, rest;
            for (const Question* q : pending) {
                bool ready = std::all_of(q->depends_on.begin(), q->depends_on.end(),
                                         [&](const std::string& d) { return done.count(d) > 0; });
                (ready ? stage : rest).push_back(q);
            }
            if (stage.empty()) {
                std::string ids;
                for (const Question* q : rest) ids += (ids.empty() ? "" : ", ") + q->id;
                return fail("dependency cycle among questions " + ids);
            }
            for (const Question* q : stage) done.insert(q->id);
            pending = std::move(rest);
        }
        return {};
    }

    Result<void> parse_options(const ojson& root, Schema& schema) {
        if (const ojson* s = find(root, "samples"); s && !s->is_null()) {
            long long n = 0;
            std::string text = s->is_string() ? s->get<std::string>() : "";
            // Template variables arrive as strings: "4" means 4.
            bool digits =
                !text.empty() && std::all_of(text.begin(), text.end(),
                                             [](unsigned char c) { return std::isdigit(c) != 0; });
            if (text == "auto") {
                schema.samples = {true, 1};
            } else if ((digits && text.size() < 6) || is_integer_value(*s, n)) {
                if (digits) n = std::stoll(text);
                if (n < 1 || n > kMaxSamples)
                    return fail("samples " + std::to_string(n) + " is out of range; accepted: " +
                                "\"auto\" or a count from 1 to " + std::to_string(kMaxSamples));
                schema.samples = {false, static_cast<int>(n)};
            } else {
                return fail("samples " + s->dump() +
                            " is not accepted; accepted: \"auto\" or a count from 1 to " +
                            std::to_string(kMaxSamples));
            }
        }
        if (const ojson* t = find(root, "auto_threshold"); t && !t->is_null()) {
            if (!t->is_number() || !std::isfinite(t->get<double>()) || t->get<double>() < 0)
                return fail("auto_threshold must be a number of nats, 0 or more (default 0.1)");
            schema.auto_threshold = t->get<double>();
        }
        if (const ojson* m = find(root, "auto_max"); m && !m->is_null()) {
            long long n = 0;
            if (!is_integer_value(*m, n) || n < 1 || n > kMaxSamples)
                return fail("auto_max must be a count from 1 to " + std::to_string(kMaxSamples) +
                            " (default 4)");
            schema.auto_max = static_cast<int>(n);
        }
        if (const ojson* st = find(root, "steps"); st && !st->is_null()) {
            long long n = 0;
            if (!is_integer_value(*st, n) || n < 1 || n > kMaxSteps)
                return fail("steps must be a count from 1 to " + std::to_string(kMaxSteps) +
                            " (default 1)");
            schema.steps = static_cast<int>(n);
        }
        if (auto ok = parse_enum(root, "layout", parse_layout,
                                 "\"document_first\" or \"schema_first\"", schema.layout);
            !ok)
            return ok;
        if (auto ok = parse_enum(root, "isolate", parse_isolate,
                                 "\"auto\", \"none\", \"noul\" or \"all\"", schema.isolate);
            !ok)
            return ok;
        if (auto ok = parse_enum(root, "seed_token", parse_seed_token, "\"random\" or \"fixed\"",
                                 schema.seed_token);
            !ok)
            return ok;
        if (const ojson* think = find(root, "think"); think && !think->is_null()) {
            long long n = 0;
            if (!count_value(*think, n) || n < 0 || n > kMaxThink)
                return fail("think " + think->dump() +
                            " is not accepted; accepted: a count of thought tokens from 0 (no "
                            "thought) to " +
                            std::to_string(kMaxThink));
            schema.think = static_cast<int>(n);
        }
        // Reference extensions Decision Studio does not run: refuse them rather than ignore.
        if (const ojson* seq = find(root, "sequential");
            seq && seq->is_boolean() && seq->get<bool>())
            return fail("sequential: true is not supported (chunks run as one read)");
        if (const ojson* ask = find(root, "ask"); ask && !ask->is_null())
            return fail("ask is not supported: list only the questions to read");
        return {};
    }

    template <class E>
    Result<void> parse_enum(const ojson& root, const char* key,
                            std::optional<E> (*parse)(std::string_view), const char* accepted,
                            E& out) {
        const ojson* v = find(root, key);
        if (!v || v->is_null()) return {};
        std::optional<E> e = v->is_string() ? parse(v->get<std::string>()) : std::nullopt;
        if (!e)
            return fail(std::string(key) + " " + v->dump() +
                        " is not accepted; accepted: " + accepted);
        out = *e;
        return {};
    }

    std::string source_;
};

std::string letter(size_t i) {
    return std::string(1, static_cast<char>('A' + i));
}

// A..Z, then AA..AZ, BA.. (spreadsheet columns).
std::string column_label(size_t i) {
    std::string s;
    for (size_t n = i + 1; n > 0; n = (n - 1) / 26)
        s.insert(s.begin(), static_cast<char>('A' + (n - 1) % 26));
    return s;
}

// Label i of a read with the set: A..Z, then AA..AZ or a..z.
std::string read_label(size_t i, LabelSet set) {
    if (i < 26 || set == LabelSet::AZ) return letter(i);
    if (set == LabelSet::AZ_Lower) return std::string(1, static_cast<char>('a' + (i - 26)));
    return column_label(i);
}

}  // namespace

std::vector<std::string> Question::labels() const {
    std::vector<std::string> out;
    switch (type) {
        case QuestionType::Noul:
            return {"yes", "no"};
        case QuestionType::Choice:
            for (size_t i = 0; i < options.size(); ++i)
                out.push_back(is_tournament() ? column_label(i) : read_label(i, label_set));
            return out;
        case QuestionType::Score:
            for (size_t i = 0; i < levels.size(); ++i)
                out.push_back(levels.size() <= 9 ? std::to_string(i + 1)
                                                 : read_label(i, label_set));
            return out;
    }
    return out;
}

bool Question::is_tournament() const {
    return type == QuestionType::Choice &&
           options.size() > static_cast<size_t>(label_capacity(label_set));
}

std::vector<std::string> Question::alternatives() const {
    switch (type) {
        case QuestionType::Noul:
            return {"yes", "no"};
        case QuestionType::Choice: {
            std::vector<std::string> out;
            for (const auto& o : options) out.push_back(o.name);
            return out;
        }
        case QuestionType::Score:
            return levels;
    }
    return {};
}

Result<Schema> parse_schema(const nlohmann::ordered_json& schema, std::string_view source) {
    try {
        return SchemaParser(source).parse(schema);
    } catch (const nlohmann::json::exception& e) {
        return engine::bad_input(std::string(source) + ": schema is malformed (" + e.what() + ")");
    }
}

Result<Schema> parse_schema(const nlohmann::json& schema, std::string_view source) {
    return parse_schema(nlohmann::ordered_json(schema), source);
}

nlohmann::ordered_json schema_to_json(const Schema& schema) {
    // Keys in the order a person writes them (id, type, instructions, ...), lists in the schema's
    // order: the wire text reads as the policy did.
    ojson out = ojson::object();
    if (!schema.instructions.empty()) out["instructions"] = schema.instructions;
    ojson questions = ojson::array();
    for (const auto& q : schema.questions) {
        ojson j = ojson::object();
        j["id"] = q.id;
        j["type"] = std::string(to_string(q.type));
        j["instructions"] = q.instructions;
        if (q.type == QuestionType::Choice) {
            ojson opts = ojson::array();
            for (const auto& o : q.options) {
                ojson oj{{"name", o.name}};
                if (!o.description.empty()) oj["description"] = o.description;
                opts.push_back(oj);
            }
            j["options"] = opts;
        } else if (q.type == QuestionType::Score) {
            j["levels"] = q.levels;
        }
        if (!q.criteria.empty()) {
            // Criteria in the order of the alternatives they describe (true before false).
            ojson crit = ojson::object();
            const std::vector<std::string> keys =
                q.type == QuestionType::Noul ? std::vector<std::string>{"true", "false"} : q.levels;
            for (const auto& k : keys)
                if (auto it = q.criteria.find(k); it != q.criteria.end()) crit[k] = it->second;
            j["criteria"] = crit;
        }
        if (!q.depends_on.empty()) j["depends_on"] = q.depends_on;
        if (!q.ask_if.empty()) j["ask_if"] = ojson::parse(q.ask_if);
        if (q.alone_explicit) j["alone"] = q.alone;
        if (!q.catch_all.empty()) j["catch_all"] = q.catch_all;
        questions.push_back(j);
    }
    out["questions"] = questions;
    if (!schema.samples.left_out)
        out["samples"] = schema.samples.automatic ? ojson("auto") : ojson(schema.samples.count);
    out["auto_threshold"] = schema.auto_threshold;
    out["auto_max"] = schema.auto_max;
    out["layout"] = std::string(to_string(schema.layout));
    out["isolate"] = std::string(to_string(schema.isolate));
    out["seed_token"] = std::string(to_string(schema.seed_token));
    out["steps"] = schema.steps;
    if (schema.think > 0) out["think"] = schema.think;
    // Wide settings only where they differ from the defaults: a narrow schema's wire text is
    // what it was.
    if (schema.labels != LabelSet::AZ) out["labels"] = std::string(to_string(schema.labels));
    if (schema.bracket_size > 0) out["bracket_size"] = schema.bracket_size;
    if (schema.catch_all != CatchAllMode::Final)
        out["catch_all"] = std::string(to_string(schema.catch_all));
    if (schema.canvas_questions > 0) out["canvas_questions"] = schema.canvas_questions;
    if (schema.temperature.is_set())
        out["temperature"] = policy_temperature_json(schema.temperature);
    if (schema.cascade.mode != CascadeMode::Off) {
        out["cascade_mode"] = std::string(to_string(schema.cascade.mode));
        out["cascade_threshold"] = schema.cascade.threshold;
        if (!schema.cascade.endpoint.empty()) out["cascade_endpoint"] = schema.cascade.endpoint;
    }
    return out;
}

bool is_schema_setting(std::string_view key) {
    static constexpr std::string_view kSettings[] = {
        "samples",     "layout",       "seed_token",        "isolate",
        "steps",       "think",        "auto_threshold",    "auto_max",
        "labels",      "bracket_size", "catch_all",         "canvas_questions",
        "temperature", "cascade_mode", "cascade_threshold", "cascade_endpoint"};
    return std::find(std::begin(kSettings), std::end(kSettings), key) != std::end(kSettings);
}

}  // namespace core
