// Read statistics and the answer/diagnostics JSON shapes (PROTOCOLS section 4; shapes as the
// vLLM structured server writes them, with dgem's additions to the /v1/systemone noul answer).
#include "core/read_stats.h"

#include "core/json_input.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace core {

std::string_view to_string(Hesitation h) {
    switch (h) {
        case Hesitation::Clear:
            return "Clear";
        case Hesitation::SomewhatUnsure:
            return "Somewhat unsure";
        case Hesitation::VeryUnsure:
            return "Very unsure";
    }
    return "Clear";
}

Hesitation hesitation_class(double hesitation) {
    if (hesitation < 0.16) return Hesitation::Clear;
    if (hesitation <= 0.5) return Hesitation::SomewhatUnsure;
    return Hesitation::VeryUnsure;
}

Hesitation QuestionOutcome::hesitation_class() const {
    return core::hesitation_class(hesitation);
}

std::vector<double> label_logprobs_from_topk(const std::map<int32_t, double>& top,
                                             const std::vector<int32_t>& label_ids) {
    std::vector<double> out(label_ids.size(), 0.0);
    if (top.empty()) return out;
    double floor = std::numeric_limits<double>::infinity();
    for (const auto& [id, lp] : top) floor = std::min(floor, lp);
    floor -= 5.0;
    for (size_t i = 0; i < label_ids.size(); ++i) {
        auto it = top.find(label_ids[i]);
        out[i] = it == top.end() ? floor : it->second;
    }
    return out;
}

std::vector<double> softmax(const std::vector<double>& logits) {
    std::vector<double> p(logits.size(), 0.0);
    if (logits.empty()) return p;
    double mx = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (size_t i = 0; i < logits.size(); ++i) sum += p[i] = std::exp(logits[i] - mx);
    for (double& x : p) x /= sum;
    return p;
}

double entropy_nats(const std::vector<double>& p) {
    double h = 0;
    for (double x : p)
        if (x > 0) h -= x * std::log(x);
    return h;
}

int argmax(const std::vector<double>& v) {
    int best = 0;
    for (size_t i = 1; i < v.size(); ++i)
        if (v[i] > v[best]) best = static_cast<int>(i);
    return best;
}

namespace {

// Fills the fields that follow from `mean` (and per_read, when there are reads).
void finish_outcome(QuestionOutcome& o) {
    o.winner = argmax(o.mean);
    o.confidence = o.mean.empty() ? 0 : o.mean[o.winner];
    o.entropy = entropy_nats(o.mean);
    o.hesitation = o.mean.size() > 1 ? o.entropy / std::log(static_cast<double>(o.mean.size())) : 0;
}

// ln p as a read's logits (the softmax of ln p is p); a zero probability stays far below.
std::vector<double> tempered(const std::vector<double>& p, double temperature) {
    std::vector<double> logits(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        logits[i] = std::log(std::max(p[i], 1e-300)) / temperature;
    return softmax(logits);
}

// From per_read and mean: winner, confidence, entropy, hesitation, agreement and (n > 1) the
// error bars.
void summarise_reads(QuestionOutcome& o) {
    const size_t n = o.per_read.size();
    finish_outcome(o);
    int agree = 0;
    for (const auto& p : o.per_read) agree += argmax(p) == o.winner;
    o.agreement = static_cast<double>(agree) / static_cast<double>(n);
    if (n > 1) {
        // Sample variance of each label's probability over reads, as the reference computes the
        // winner's. Reads that agree exactly have no spread: say 0, not the rounding residue of
        // the mean.
        for (size_t label = 0; label < o.mean.size(); ++label) {
            const double first = o.per_read.front()[label];
            const bool all_equal = std::all_of(o.per_read.begin(), o.per_read.end(),
                                               [&](const auto& p) { return p[label] == first; });
            double var = 0;
            if (!all_equal)
                for (const auto& p : o.per_read)
                    var += (p[label] - o.mean[label]) * (p[label] - o.mean[label]);
            var /= static_cast<double>(n - 1);
            o.stderr_labels.push_back(std::sqrt(var / static_cast<double>(n)));
        }
        o.stderr_winner = o.stderr_labels[static_cast<size_t>(o.winner)];
    }
}

}  // namespace

QuestionOutcome aggregate_reads(const Question& question, const std::vector<SlotRead>& reads) {
    QuestionOutcome o;
    o.id = question.id;
    o.type = question.type;
    o.labels = question.labels();
    o.alternatives = question.alternatives();
    const size_t n = reads.size();
    const size_t k = o.labels.size();
    o.mean.assign(k, 0.0);
    if (n == 0) return o;
    double mass = 0;
    o.argmax_is_label = true;
    for (const auto& r : reads) {
        std::vector<double> p = softmax(r.label_logprobs);
        p.resize(k, 0.0);
        for (size_t i = 0; i < k; ++i) o.mean[i] += p[i] / static_cast<double>(n);
        o.per_read.push_back(std::move(p));
        mass += r.label_mass;
        o.argmax_is_label = o.argmax_is_label && r.argmax_is_label;
    }
    o.label_mass = mass / static_cast<double>(n);
    summarise_reads(o);
    return o;
}

void apply_temperature(QuestionOutcome& o, double temperature) {
    if (temperature == 1 || !(temperature > 0) || o.mean.empty()) return;
    if (o.per_read.empty()) {
        o.mean = tempered(o.mean, temperature);
        finish_outcome(o);
        o.stderr_winner.reset();
        o.stderr_labels.clear();
        return;
    }
    for (auto& p : o.per_read) p = tempered(p, temperature);
    const double n = static_cast<double>(o.per_read.size());
    o.mean.assign(o.mean.size(), 0.0);
    for (const auto& p : o.per_read)
        for (size_t i = 0; i < o.mean.size() && i < p.size(); ++i) o.mean[i] += p[i] / n;
    o.stderr_winner.reset();
    o.stderr_labels.clear();
    summarise_reads(o);
}

void apply_temperature(Decision& d, double temperature) {
    if (temperature == 1 || !(temperature > 0)) return;
    for (auto& q : d.questions) apply_temperature(q, temperature);
    if (!d.raw.is_object() || !d.raw.contains("diagnostics") || !d.raw["diagnostics"].is_object())
        return;
    nlohmann::json& diag = d.raw["diagnostics"];
    diag["temperature"] = temperature;
    if (!diag.contains("questions") || !diag["questions"].is_object()) return;
    for (const auto& q : d.questions) {
        auto it = diag["questions"].find(q.id);
        if (it == diag["questions"].end() || !it->is_object()) continue;
        if (!q.per_read.empty()) {
            nlohmann::json entropies = nlohmann::json::array();
            for (const auto& p : q.per_read) entropies.push_back(entropy_nats(p));
            (*it)["entropy"] = entropies;
        } else {
            it->erase("entropy");  // the reads' own are not in the reply: none is better than old
        }
        if (q.stderr_labels.empty())
            it->erase("label_stderr");
        else
            (*it)["label_stderr"] = q.stderr_labels;
    }
}

bool needs_more_reads(const std::vector<double>& first_read_entropies, double threshold,
                      int auto_max) {
    if (auto_max <= 1 || first_read_entropies.empty()) return false;
    return *std::max_element(first_read_entropies.begin(), first_read_entropies.end()) > threshold;
}

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

QuestionOutcome skipped_outcome(const Question& question) {
    QuestionOutcome o;
    o.id = question.id;
    o.type = question.type;
    o.labels = question.labels();
    o.alternatives = question.alternatives();
    o.skipped = true;
    o.confidence = 0;
    o.agreement = 0;
    o.label_mass = 0;
    return o;
}

std::string skip_text(const QuestionOutcome& o) {
    std::string wanted;
    for (const auto& w : o.skip_wanted) wanted += (wanted.empty() ? "" : " or ") + w;
    return "skipped: asked only if " + o.skip_because + " is " + wanted + " (it " +
           (o.skip_was ? "was " + *o.skip_was : std::string("was skipped")) + ")";
}

nlohmann::json diagnostics_json(const Decision& d) {
    using nlohmann::json;
    json questions = json::object();
    json isolated = json::array();
    json skipped = json::object();
    for (const auto& q : d.questions) {
        if (q.skipped) {
            skipped[q.id] = {{"because", q.skip_because},
                             {"was", q.skip_was ? json(*q.skip_was) : json(nullptr)},
                             {"wanted", q.skip_wanted}};
            continue;
        }
        json entropies = json::array();
        for (const auto& p : q.per_read) entropies.push_back(entropy_nats(p));
        questions[q.id] = {{"pos", q.pos},
                           {"entropy", entropies},
                           {"label_mass", q.label_mass},
                           {"argmax_is_label", q.argmax_is_label}};
        // Every label's error bar, in label order (only with several reads).
        if (!q.stderr_labels.empty()) questions[q.id]["label_stderr"] = q.stderr_labels;
        if (q.isolated) isolated.push_back(q.id);
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
                {"questions", questions}};
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
    return out;
}

nlohmann::json decision_json(const Decision& d, AnswerForm form) {
    return {{"answers", answers_json(d, form)}, {"diagnostics", diagnostics_json(d)}};
}

nlohmann::json decision_output_json(const Decision& d) {
    nlohmann::json diagnostics = d.raw.is_object() && d.raw.contains("diagnostics")
                                     ? d.raw["diagnostics"]
                                     : diagnostics_json(d);
    return {{"answers", answers_json(d, AnswerForm::Chat)}, {"diagnostics", diagnostics}};
}

namespace {

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

Result<Decision> decision_from_json(const nlohmann::json& body, const Schema& schema,
                                    AnswerForm form, std::string_view source) {
    using nlohmann::json;
    auto fail = [&](const std::string& what) {
        return engine::remote_error(std::string(source) + ": " + what);
    };
    if (!body.is_object() || !body.contains("answers") || !body["answers"].is_object())
        return fail("reply has no \"answers\" object");
    const json& answers = body["answers"];
    const json diag = body.contains("diagnostics") && body["diagnostics"].is_object()
                          ? body["diagnostics"]
                          : json::object();
    const json dq = diag.contains("questions") && diag["questions"].is_object() ? diag["questions"]
                                                                                : json::object();
    std::vector<std::string> isolated;
    if (diag.contains("isolated") && diag["isolated"].is_array())
        for (const auto& id : diag["isolated"])
            if (id.is_string()) isolated.push_back(id.get<std::string>());

    const json skips =
        diag.contains("skipped") && diag["skipped"].is_object() ? diag["skipped"] : json::object();
    Decision d;
    for (const auto& q : schema.questions) {
        auto it = answers.find(q.id);
        if (it == answers.end()) return fail("reply has no answer for question \"" + q.id + "\"");
        if (it->is_null()) {  // skipped by its ask_if
            QuestionOutcome o = skipped_outcome(q);
            if (auto why = skips.find(q.id); why != skips.end() && why->is_object()) {
                o.skip_because = string_or(*why, "because", "");
                if (auto was = why->find("was"); was != why->end() && was->is_string())
                    o.skip_was = was->get<std::string>();
                if (auto w = why->find("wanted"); w != why->end() && w->is_array())
                    for (const auto& x : *w)
                        if (x.is_string()) o.skip_wanted.push_back(x.get<std::string>());
            }
            d.questions.push_back(std::move(o));
            continue;
        }
        const json& a = *it;
        if (!a.is_object()) return fail("answer for question \"" + q.id + "\" is not an object");
        QuestionOutcome o;
        o.id = q.id;
        o.type = q.type;
        o.labels = q.labels();
        o.alternatives = q.alternatives();
        const size_t k = o.labels.size();
        const json probs = a.contains("probabilities") && a["probabilities"].is_object()
                               ? a["probabilities"]
                               : json::object();
        for (size_t i = 0; i < k; ++i) {
            std::vector<std::string> keys{o.alternatives[i], o.labels[i]};
            if (q.type == QuestionType::Noul) keys.push_back(i == 0 ? "true" : "false");
            if (q.type == QuestionType::Score && form == AnswerForm::SystemOne)
                keys.insert(keys.begin(), std::to_string(i));
            auto p = probability_of(probs, keys);
            if (!p && q.type == QuestionType::Noul && a.contains("noul") && a["noul"].is_number())
                p = i == 0 ? a["noul"].get<double>() : 1.0 - a["noul"].get<double>();
            if (!p)
                return fail("answer for question \"" + q.id + "\" has no probability for \"" +
                            o.alternatives[i] + "\"");
            o.mean.push_back(*p);
        }
        finish_outcome(o);
        // The server's own winner, when it names one (it is argmax of the mean, barring ties).
        if (a.contains("label") && a["label"].is_string()) {
            auto pos = std::find(o.labels.begin(), o.labels.end(), a["label"].get<std::string>());
            if (pos != o.labels.end()) o.winner = static_cast<int>(pos - o.labels.begin());
        } else if (q.type == QuestionType::Choice && a.contains("choice") &&
                   a["choice"].is_string()) {
            auto pos = std::find(o.alternatives.begin(), o.alternatives.end(),
                                 a["choice"].get<std::string>());
            if (pos != o.alternatives.end())
                o.winner = static_cast<int>(pos - o.alternatives.begin());
        }
        o.confidence = number_or(a, "confidence", o.mean[o.winner]);
        if (a.contains("stderr") && a["stderr"].is_number())
            o.stderr_winner = a["stderr"].get<double>();
        o.agreement = number_or(a, "agreement", 1.0);
        if (dq.contains(q.id) && dq[q.id].is_object()) {
            const json& qd = dq[q.id];
            if (qd.contains("pos") && qd["pos"].is_number_integer()) o.pos = qd["pos"].get<int>();
            o.label_mass = number_or(qd, "label_mass", 1.0);
            if (qd.contains("argmax_is_label") && qd["argmax_is_label"].is_boolean())
                o.argmax_is_label = qd["argmax_is_label"].get<bool>();
            if (auto se = qd.find("label_stderr");
                se != qd.end() && se->is_array() && se->size() == o.labels.size() &&
                std::all_of(se->begin(), se->end(), [](const json& v) { return v.is_number(); }))
                o.stderr_labels = se->get<std::vector<double>>();
        } else {
            o.label_mass = 1.0;
        }
        o.isolated = std::find(isolated.begin(), isolated.end(), q.id) != isolated.end();
        d.questions.push_back(std::move(o));
    }

    // samples.n is a count, or one count per chunk when the server split the schema.
    d.samples = 1;
    if (diag.contains("samples") && diag["samples"].is_object()) {
        const json& n = diag["samples"].value("n", json());
        if (n.is_number_integer()) d.samples = n.get<int>();
        if (n.is_array())
            for (const auto& x : n)
                if (x.is_number_integer()) d.samples = std::max(d.samples, x.get<int>());
    }
    for (auto& o : d.questions)
        if (d.samples == 1 && !o.skipped) o.per_read = {o.mean};  // one read: the mean is its own
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
    if (auto p = diag.find("passes"); p != diag.end() && p->is_number_integer())
        d.passes = p->get<int>();
    // One thought, or one per read group (the reference lists them): the first is shown.
    json thought = diag.contains("thought") ? diag["thought"] : json();
    if (thought.is_array() && !thought.empty()) thought = thought[0];
    if (thought.is_object()) {
        Thought t;
        t.text = string_or(thought, "text", "");
        t.tokens = static_cast<int>(std::clamp(number_or(thought, "tokens", 0), 0.0, 1e9));
        t.closed = bool_or(thought, "closed", false);
        t.passes = static_cast<int>(std::clamp(number_or(thought, "passes", 0), 0.0, 1e9));
        t.ms = number_or(thought, "ms", 0);
        d.thought = std::move(t);
    }
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
    if (body.contains("model") && body["model"].is_string())
        d.model = body["model"].get<std::string>();
    d.raw = body;
    return d;
}

}  // namespace core
