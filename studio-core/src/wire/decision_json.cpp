// The answer and diagnostics shapes of a decision on the wire (PROTOCOLS section 4; as the vLLM
// structured server writes them, with dgem's additions to the /v1/systemone noul answer), and
// their inverse.
#include "core/wire/decision_json.h"

#include <algorithm>
#include <optional>

#include "core/decide/read_stats.h"
#include "core/policy/json_input.h"

namespace core {

namespace {

using nlohmann::json;

double number_or(const nlohmann::json& j, const char* key, double fallback) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// A reply's field of the expected type, or the fallback (a server may send anything).
std::string string_or(const nlohmann::json& j, const char* key, std::string fallback) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

bool bool_or(const nlohmann::json& j, const char* key, bool fallback) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// The probability of alternative i in an answer's "probabilities", trying each key spelling the
// servers use for it.
std::optional<double> probability_of(const nlohmann::json& probs,
                                     const std::vector<std::string>& keys) {
    for (const auto& key : keys) {
        auto it = probs.find(key);
        if (it != probs.end() && it->is_number()) return it->get<double>();
    }
    return std::nullopt;
}

}  // namespace

nlohmann::json answer_json(const QuestionOutcome& o, AnswerForm form) {
    using nlohmann::json;
    const auto& names = o.alternatives;
    const size_t k = o.mean.size();
    json a = json::object();
    if (form == AnswerForm::Chat) {
        a["type"] = std::string(to_string(o.type));
        a["label"] = o.labels.empty() ? "" : o.labels[o.winner];
        a["confidence"] = o.confidence;
        json probs = json::object();
        for (size_t i = 0; i < k && i < names.size(); ++i) probs[names[i]] = o.mean[i];
        a["probabilities"] = probs;
        if (o.type == QuestionType::Noul) {
            a["noul"] = k > 0 ? o.mean[0] : 0.0;
        } else if (o.type == QuestionType::Choice) {
            a["choice"] = names.empty() ? "" : names[o.winner];
        } else {
            double score = 0;
            for (size_t i = 0; i < k; ++i) score += static_cast<double>(i + 1) * o.mean[i];
            a["score"] = score;
            a["level"] = names.empty() ? "" : names[o.winner];
        }
        if (o.stderr_winner) {
            a["stderr"] = *o.stderr_winner;
            a["agreement"] = o.agreement;
        }
        return a;
    }
    // /v1/systemone (Jev's shapes; noul with dgem's probabilities and confidence).
    a["type"] = std::string(to_string(o.type));
    if (o.type == QuestionType::Noul) {
        double p = k > 0 ? o.mean[0] : 0.0;
        a["noul"] = p;
        a["probabilities"] = {{"true", p}, {"false", 1.0 - p}};
        a["confidence"] = o.confidence;
    } else if (o.type == QuestionType::Choice) {
        a["choice"] = names.empty() ? "" : names[o.winner];
        json probs = json::object();
        for (size_t i = 0; i < k && i < names.size(); ++i) probs[names[i]] = o.mean[i];
        a["probabilities"] = probs;
        a["confidence"] = o.confidence;
    } else {
        double score = 0;
        json legend = json::object(), probs = json::object();
        for (size_t i = 0; i < k; ++i) {
            score += static_cast<double>(i) * o.mean[i];
            legend[std::to_string(i)] = i < names.size() ? names[i] : "";
            probs[std::to_string(i)] = o.mean[i];
        }
        a["score"] = score;
        a["legend"] = legend;
        a["probabilities"] = probs;
        a["confidence"] = o.confidence;
    }
    return a;
}

nlohmann::json answers_json(const Decision& d, AnswerForm form) {
    nlohmann::json out = nlohmann::json::object();
    // A question skipped by its ask_if answers null, as the structured server writes it.
    for (const auto& q : d.questions) out[q.id] = q.skipped ? nullptr : answer_json(q, form);
    return out;
}

namespace {

json samples_policy_json(const SamplesPolicy& s) {
    if (!s.automatic) return {{"mode", "fixed"}, {"n", s.count}};
    return {{"mode", "auto"},
            {"max", s.max},
            {"threshold", s.threshold},
            {"extended", s.extended},
            {"first_read_entropy", s.first_read_entropy}};
}

json questions_diagnostics(const Decision& d) {
    json questions = json::object();
    for (const auto& q : d.questions) {
        if (q.skipped) continue;
        questions[q.id] = {{"pos", q.pos},
                           {"entropy", q.read_entropy},
                           {"label_mass", q.label_mass},
                           {"argmax_is_label", q.argmax_is_label}};
        // Every label's error bar, in label order (only with several reads).
        if (!q.stderr_labels.empty()) questions[q.id]["label_stderr"] = q.stderr_labels;
    }
    return questions;
}

// How each wide question was read: {"strategy", "options", "reads", "rounds"}, and a
// tournament's "brackets", "finalists" and "catch_all".
json wide_json(const std::map<std::string, WideRead>& wide) {
    json out = json::object();
    for (const auto& [id, w] : wide) {
        json j = {{"strategy", w.strategy},
                  {"options", w.options},
                  {"reads", w.reads},
                  {"rounds", w.rounds}};
        if (w.strategy == "tournament") {
            j["brackets"] = w.brackets;
            j["finalists"] = w.finalists;
            j["catch_all"] = w.catch_all;
        }
        out[id] = std::move(j);
    }
    return out;
}

std::map<std::string, WideRead> wide_from_json(const json& wide) {
    std::map<std::string, WideRead> out;
    for (auto it = wide.begin(); it != wide.end(); ++it) {
        if (!it->is_object()) continue;
        WideRead w;
        w.strategy = string_or(*it, "strategy", "");
        w.options = static_cast<int>(number_or(*it, "options", 0));
        w.reads = static_cast<int>(number_or(*it, "reads", 0));
        w.rounds = static_cast<int>(number_or(*it, "rounds", 0));
        w.catch_all = string_or(*it, "catch_all", "");
        auto names = [](const json& list) {
            std::vector<std::string> found;
            if (list.is_array())
                for (const auto& n : list)
                    if (n.is_string()) found.push_back(n.get<std::string>());
            return found;
        };
        if (auto b = it->find("brackets"); b != it->end() && b->is_array())
            for (const auto& bracket : *b) w.brackets.push_back(names(bracket));
        w.finalists = names(it->value("finalists", json()));
        out[it.key()] = std::move(w);
    }
    return out;
}

// The typed extras a decision may know: how it chose its reads and ran.
void write_extras(const DecisionDiagnostics& x, json& out) {
    if (!x.wide.empty()) out["wide"] = wide_json(x.wide);
    if (x.samples_policy) out["samples"]["policy"] = samples_policy_json(*x.samples_policy);
    if (x.conditioning != Conditioning::Unstaged)
        out["conditioning"] =
            x.conditioning == Conditioning::Prefill ? json("prefill") : json(nullptr);
    if (x.seed) out["seed"] = *x.seed;
    if (x.seed_token) out["seed_token"] = std::string(to_string(*x.seed_token));
    if (!x.engine.empty()) out["engine"] = x.engine;
    if (!x.entropy_basis.empty()) out["entropy_basis"] = x.entropy_basis;
    if (x.temperature) out["temperature"] = *x.temperature;
    if (!x.temperature_by_type.empty()) out["temperature"] = x.temperature_by_type;
    if (!x.temperature_by_question.empty() && out["temperature"].is_object())
        out["temperature"]["questions"] = x.temperature_by_question;
}

// A cascaded decision: the mode, threshold and judge, and per question whether it went to stage
// 2, each stage's answer (label) and latency, and why stage 1's answer was kept where it was.
json cascade_json(const Decision& d, const CascadeRecord& c) {
    json questions = json::object();
    for (const auto& q : d.questions) {
        if (!q.escalation) continue;
        const auto& e = *q.escalation;
        auto label = [&](int i) {
            return i >= 0 && static_cast<size_t>(i) < q.labels.size() ? json(q.labels[i])
                                                                      : json(nullptr);
        };
        json item = {{"escalated", e.escalated},
                     {"stage1",
                      {{"label", label(e.stage1_winner)},
                       {"confidence", e.stage1_confidence},
                       {"entropy", e.stage1_entropy},
                       {"ms", e.stage1_ms}}}};
        if (e.escalated) {
            item["stage2"] = {{"label", e.stage2_winner ? label(*e.stage2_winner) : json(nullptr)},
                              {"ms", e.stage2_ms},
                              {"reply", valid_utf8(e.stage2_text)}};
            if (!e.stage2_error.empty()) item["stage2"]["error"] = e.stage2_error;
            item["answered_by"] = e.stage2_winner ? "stage2" : "stage1";
        }
        questions[q.id] = std::move(item);
    }
    return {{"mode", std::string(to_string(c.mode))},
            {"threshold", c.threshold},
            {"judge", c.judge},
            {"escalated", c.escalated},
            {"replaced", c.replaced},
            {"questions", questions}};
}

}  // namespace

json diagnostics_json(const Decision& d) {
    json isolated = json::array();
    json skipped = json::object();
    for (const auto& q : d.questions) {
        if (q.skipped)
            skipped[q.id] = {{"because", q.skip_because},
                             {"was", q.skip_was ? json(*q.skip_was) : json(nullptr)},
                             {"wanted", q.skip_wanted}};
        else if (q.isolated)
            isolated.push_back(q.id);
    }
    json out = {{"steps", 1},
                {"layout", std::string(to_string(d.layout))},
                {"isolated", isolated},
                {"samples", {{"n", d.samples}}},
                {"timing",
                 {{"total_ms", d.timings.total_ms},
                  {"reads", d.reads},
                  {"encode_ms", d.timings.encode_ms},
                  {"decode_ms", d.timings.decode_ms},
                  {"readout_ms", d.timings.readout_ms}}},
                {"prompt_tokens", d.prompt_tokens},
                {"questions", questions_diagnostics(d)}};
    if (d.passes > 0) out["passes"] = d.passes;
    if (!d.stages.empty()) {
        out["stages"] = d.stages;
        out["skipped"] = skipped;
    }
    out["thought"] = nullptr;
    if (d.thought)
        out["thought"] = {{"tokens", d.thought->tokens},
                          {"closed", d.thought->closed},
                          {"ms", d.thought->ms},
                          {"passes", d.thought->passes},
                          {"text", valid_utf8(d.thought->text)}};
    write_extras(d.diagnostics, out);
    if (d.diagnostics.cascade) out["cascade"] = cascade_json(d, *d.diagnostics.cascade);
    return out;
}

json decision_json(const Decision& d, AnswerForm form) {
    return {{"answers", answers_json(d, form)}, {"diagnostics", diagnostics_json(d)}};
}

namespace {

// A JSON member of the expected kind, or an empty object.
json object_at(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_object() ? *it : json::object();
}

QuestionOutcome skipped_from_json(const Question& q, const json& skips) {
    QuestionOutcome o = skipped_outcome(q);
    if (auto why = skips.find(q.id); why != skips.end() && why->is_object()) {
        o.skip_because = string_or(*why, "because", "");
        if (auto was = why->find("was"); was != why->end() && was->is_string())
            o.skip_was = was->get<std::string>();
        if (auto w = why->find("wanted"); w != why->end() && w->is_array())
            for (const auto& x : *w)
                if (x.is_string()) o.skip_wanted.push_back(x.get<std::string>());
    }
    return o;
}

// The mean over labels from an answer's "probabilities" (or a noul's "noul"), or the alternative
// that has none.
Result<std::vector<double>> answer_mean(const Question& q, const QuestionOutcome& o, const json& a,
                                        AnswerForm form, const std::string& where) {
    const json probs = object_at(a, "probabilities");
    std::vector<double> mean;
    for (size_t i = 0; i < o.labels.size(); ++i) {
        std::vector<std::string> keys{o.alternatives[i], o.labels[i]};
        if (q.type == QuestionType::Noul) keys.push_back(i == 0 ? "true" : "false");
        if (q.type == QuestionType::Score && form == AnswerForm::SystemOne)
            keys.insert(keys.begin(), std::to_string(i));
        auto p = probability_of(probs, keys);
        if (!p && q.type == QuestionType::Noul && a.contains("noul") && a["noul"].is_number())
            p = i == 0 ? a["noul"].get<double>() : 1.0 - a["noul"].get<double>();
        if (!p)
            return engine::remote_error(where + ": answer for question \"" + q.id +
                                        "\" has no probability for \"" + o.alternatives[i] + "\"");
        mean.push_back(*p);
    }
    return mean;
}

// The server's own winner, when it names one (it is argmax of the mean, barring ties).
void take_named_winner(const Question& q, const json& a, QuestionOutcome& o) {
    if (a.contains("label") && a["label"].is_string()) {
        auto pos = std::find(o.labels.begin(), o.labels.end(), a["label"].get<std::string>());
        if (pos != o.labels.end()) o.winner = static_cast<int>(pos - o.labels.begin());
    } else if (q.type == QuestionType::Choice && a.contains("choice") && a["choice"].is_string()) {
        auto pos =
            std::find(o.alternatives.begin(), o.alternatives.end(), a["choice"].get<std::string>());
        if (pos != o.alternatives.end()) o.winner = static_cast<int>(pos - o.alternatives.begin());
    }
}

bool numbers(const json& j) {
    return j.is_array() &&
           std::all_of(j.begin(), j.end(), [](const json& v) { return v.is_number(); });
}

// A question's diagnostics entry: slot position, label mass, the per-read entropies and error
// bars.
void take_question_diagnostics(const json& qd, QuestionOutcome& o) {
    if (qd.contains("pos") && qd["pos"].is_number_integer()) o.pos = qd["pos"].get<int>();
    o.label_mass = number_or(qd, "label_mass", 1.0);
    if (qd.contains("argmax_is_label") && qd["argmax_is_label"].is_boolean())
        o.argmax_is_label = qd["argmax_is_label"].get<bool>();
    if (auto se = qd.find("label_stderr");
        se != qd.end() && numbers(*se) && se->size() == o.labels.size())
        o.stderr_labels = se->get<std::vector<double>>();
    if (auto h = qd.find("entropy"); h != qd.end() && numbers(*h))
        o.read_entropy = h->get<std::vector<double>>();
}

Result<QuestionOutcome> answer_from_json(const Question& q, const json& a, const json& dq,
                                         AnswerForm form, const std::string& where) {
    if (!a.is_object())
        return engine::remote_error(where + ": answer for question \"" + q.id +
                                    "\" is not an object");
    QuestionOutcome o;
    o.id = q.id;
    o.type = q.type;
    o.labels = q.labels();
    o.alternatives = q.alternatives();
    auto mean = answer_mean(q, o, a, form, where);
    if (!mean) return mean.error();
    o.mean = std::move(*mean);
    finish_outcome(o);
    take_named_winner(q, a, o);
    o.confidence = number_or(a, "confidence", o.mean[o.winner]);
    if (a.contains("stderr") && a["stderr"].is_number())
        o.stderr_winner = a["stderr"].get<double>();
    o.agreement = number_or(a, "agreement", 1.0);
    o.label_mass = 1.0;
    if (dq.contains(q.id) && dq[q.id].is_object()) take_question_diagnostics(dq[q.id], o);
    return o;
}

SamplesPolicy samples_policy_from_json(const json& p) {
    SamplesPolicy s;
    s.automatic = string_or(p, "mode", "fixed") == "auto";
    if (auto n = p.find("n"); n != p.end() && n->is_number_integer()) s.count = n->get<int>();
    if (auto m = p.find("max"); m != p.end() && m->is_number_integer()) s.max = m->get<int>();
    s.threshold = number_or(p, "threshold", 0);
    if (auto e = p.find("extended"); e != p.end() && e->is_array())
        for (const auto& x : *e)
            if (x.is_boolean()) s.extended.push_back(x.get<bool>());
    if (auto f = p.find("first_read_entropy"); f != p.end() && f->is_object())
        for (auto it = f->begin(); it != f->end(); ++it)
            if (it->is_number()) s.first_read_entropy[it.key()] = it->get<double>();
    return s;
}

// What the diagnostics say beyond answers and counts.
DecisionDiagnostics extras_from_json(const json& diag) {
    DecisionDiagnostics x;
    const json samples = object_at(diag, "samples");
    if (auto p = samples.find("policy"); p != samples.end() && p->is_object())
        x.samples_policy = samples_policy_from_json(*p);
    if (auto c = diag.find("conditioning"); c != diag.end())
        x.conditioning = c->is_string() && c->get<std::string>() == "prefill"
                             ? Conditioning::Prefill
                             : Conditioning::SinglePass;
    if (auto s = diag.find("seed"); s != diag.end() && s->is_number_unsigned())
        x.seed = s->get<uint64_t>();
    if (auto t = diag.find("seed_token"); t != diag.end() && t->is_string())
        x.seed_token = parse_seed_token(t->get<std::string>());
    x.engine = string_or(diag, "engine", "");
    x.entropy_basis = string_or(diag, "entropy_basis", "");
    if (auto t = diag.find("temperature"); t != diag.end() && t->is_number())
        x.temperature = t->get<double>();
    if (auto t = diag.find("temperature"); t != diag.end() && t->is_object()) {
        for (const auto& [type, v] : t->items()) {
            if (v.is_number()) {
                x.temperature_by_type[type] = v.get<double>();
            } else if (type == "questions" && v.is_object()) {
                for (const auto& [id, q] : v.items())
                    if (q.is_number()) x.temperature_by_question[id] = q.get<double>();
            }
        }
    }
    if (auto w = diag.find("wide"); w != diag.end() && w->is_object()) x.wide = wide_from_json(*w);
    return x;
}

// samples.n is a count, or one count per chunk when the server split the schema.
int samples_from_json(const json& diag) {
    int samples = 1;
    const json& n = object_at(diag, "samples").value("n", json());
    if (n.is_number_integer()) samples = n.get<int>();
    if (n.is_array())
        for (const auto& x : n)
            if (x.is_number_integer()) samples = std::max(samples, x.get<int>());
    return samples;
}

void stages_from_json(const json& diag, Decision& d) {
    if (auto st = diag.find("stages"); st != diag.end() && st->is_array())
        for (const auto& stage : *st) {
            std::vector<std::string> ids;
            if (stage.is_array())
                for (const auto& id : stage)
                    if (id.is_string()) ids.push_back(id.get<std::string>());
            d.stages.push_back(std::move(ids));
        }
    for (size_t s = 0; s < d.stages.size(); ++s)
        for (auto& o : d.questions)
            if (std::find(d.stages[s].begin(), d.stages[s].end(), o.id) != d.stages[s].end())
                o.stage = static_cast<int>(s);
}

// One thought, or one per read group (the reference lists them): the first is shown.
std::optional<Thought> thought_from_json(const json& diag) {
    json thought = diag.contains("thought") ? diag["thought"] : json();
    if (thought.is_array() && !thought.empty()) thought = thought[0];
    if (!thought.is_object()) return std::nullopt;
    Thought t;
    t.text = string_or(thought, "text", "");
    t.tokens = static_cast<int>(std::clamp(number_or(thought, "tokens", 0), 0.0, 1e9));
    t.closed = bool_or(thought, "closed", false);
    t.passes = static_cast<int>(std::clamp(number_or(thought, "passes", 0), 0.0, 1e9));
    t.ms = number_or(thought, "ms", 0);
    return t;
}

void counts_from_json(const json& diag, Decision& d) {
    if (auto p = diag.find("passes"); p != diag.end() && p->is_number_integer())
        d.passes = p->get<int>();
    if (diag.contains("layout") && diag["layout"].is_string())
        if (auto l = parse_layout(diag["layout"].get<std::string>())) d.layout = *l;
    if (diag.contains("prompt_tokens") && diag["prompt_tokens"].is_number_integer())
        d.prompt_tokens = diag["prompt_tokens"].get<int>();
    if (diag.contains("timing") && diag["timing"].is_object()) {
        const json& t = diag["timing"];
        d.timings.total_ms = number_or(t, "total_ms", 0);
        d.timings.encode_ms = number_or(t, "encode_ms", number_or(t, "prefill_ms", 0));
        d.timings.decode_ms = number_or(t, "decode_ms", number_or(t, "denoise_ms", 0));
        d.timings.readout_ms = number_or(t, "readout_ms", 0);
        if (t.contains("reads") && t["reads"].is_number_integer()) d.reads = t["reads"].get<int>();
    }
}

}  // namespace

Result<Decision> decision_from_json(const json& body, const Schema& schema, AnswerForm form,
                                    std::string_view source) {
    const std::string where(source);
    if (!body.is_object() || !body.contains("answers") || !body["answers"].is_object())
        return engine::remote_error(where + ": reply has no \"answers\" object");
    const json& answers = body["answers"];
    const json diag = object_at(body, "diagnostics");
    const json dq = object_at(diag, "questions");
    const json skips = object_at(diag, "skipped");
    std::vector<std::string> isolated;
    if (diag.contains("isolated") && diag["isolated"].is_array())
        for (const auto& id : diag["isolated"])
            if (id.is_string()) isolated.push_back(id.get<std::string>());

    Decision d;
    for (const auto& q : schema.questions) {
        auto it = answers.find(q.id);
        if (it == answers.end())
            return engine::remote_error(where + ": reply has no answer for question \"" + q.id +
                                        "\"");
        if (it->is_null()) {  // skipped by its ask_if
            d.questions.push_back(skipped_from_json(q, skips));
            continue;
        }
        auto o = answer_from_json(q, *it, dq, form, where);
        if (!o) return o.error();
        o->isolated = std::find(isolated.begin(), isolated.end(), q.id) != isolated.end();
        d.questions.push_back(std::move(*o));
    }
    d.samples = samples_from_json(diag);
    for (auto& o : d.questions)
        if (d.samples == 1 && !o.skipped) {
            o.per_read = {o.mean};  // one read: the mean is its own
            if (o.read_entropy.empty()) o.read_entropy = {entropy_nats(o.mean)};
        }
    stages_from_json(diag, d);
    counts_from_json(diag, d);
    d.thought = thought_from_json(diag);
    d.diagnostics = extras_from_json(diag);
    if (body.contains("model") && body["model"].is_string())
        d.model = body["model"].get<std::string>();
    return d;
}

}  // namespace core
