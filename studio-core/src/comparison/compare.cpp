// One decision asked both ways, and a suite run's two sides summarised (core/comparison/compare.h).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "base/time.h"
#include "core/comparison/compare.h"
#include "core/evaluation/eval_score.h"

namespace core::compare {
namespace {

using nlohmann::json;

using base::ms_since;

json answer_json(const QuestionComparison& q, int index) {
    if (index < 0 || index >= static_cast<int>(q.labels.size())) return nullptr;
    return {{"label", q.labels[index]},
            {"answer", index < static_cast<int>(q.alternatives.size()) ? q.alternatives[index]
                                                                       : q.labels[index]}};
}

// The suite name a record's slot side chose for one question ("" when it has none).
std::string slot_choice(const eval::ItemRecord& record, const std::string& question_id) {
    for (const auto& q : record.questions) {
        if (q.id != question_id || q.probs.empty()) continue;
        auto best = std::max_element(q.probs.begin(), q.probs.end()) - q.probs.begin();
        return q.names[static_cast<size_t>(best)];
    }
    return {};
}

std::string join_reasons(const std::vector<std::string>& reasons) {
    std::string out;
    for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
    return out;
}

// Whether a record's slot side was asked (RunMode Slot or Both; records from before the
// comparison have no generative side and were slot runs).
bool slot_asked(const eval::ItemRecord& r) {
    return r.slot_passes > 0 || !r.generative;
}

}  // namespace

std::string GenerativeAnswer::reason() const {
    return join_reasons(reasons);
}

double Comparison::latency_ratio() const {
    if (!slot || !generation || slot_timing.latency_ms <= 0) return 0;
    return generative_timing.latency_ms / slot_timing.latency_ms;
}

std::string generative_error_message(const engine::Error& error) {
    if (error.kind == engine::ErrorKind::Remote && error.cause == engine::Cause::Unsupported)
        return "this endpoint has no generative route: generative JSON needs an "
               "OpenAI-compatible POST /v1/chat/completions, and " +
               error.message;
    if (error.message.find("exceeds the model's context") != std::string::npos)
        return "the questions cannot be asked generatively on this model: " + error.message;
    return error.message;
}

Comparison build_comparison(const Schema& schema, const Result<Decision>& slot, double slot_ms,
                            const Result<Generation>& generation, double generation_ms) {
    Comparison c;
    if (slot) {
        c.slot = slot.value();
        c.backend = c.slot->backend;
    } else {
        c.slot_error = slot.error().message;
    }
    if (generation) {
        c.generation = generation.value();
        c.generative = parse_generative_answer(schema, c.generation->text);
    } else {
        c.generation_error = generative_error_message(generation.error());
        c.generative.chosen.assign(schema.questions.size(), -1);
        c.generative.reasons.push_back(c.generation_error);
    }
    c.slot_timing = {slot_ms, slot ? std::max(1, schema.steps) : 0};
    c.generative_timing = {generation_ms, generation ? generation->passes : 0};

    for (size_t qi = 0; qi < schema.questions.size(); ++qi) {
        const Question& q = schema.questions[qi];
        QuestionComparison row;
        row.id = q.id;
        row.labels = q.labels();
        row.alternatives = q.alternatives();
        if (c.slot) {
            for (const auto& out : c.slot->questions) {
                if (out.id != q.id) continue;
                row.slot_winner = out.winner;
                row.slot_probability = out.confidence;
                row.hesitation = out.hesitation;
                row.hesitation_class = out.hesitation_class();
            }
        }
        row.generative = c.generative.chosen[qi];
        if (row.slot_winner >= 0 && row.generative >= 0) {
            ++c.compared;
            row.agree = row.slot_winner == row.generative;
            if (row.agree) ++c.agreeing;
        }
        c.questions.push_back(std::move(row));
    }
    return c;
}

Comparison run_comparison(Backend& backend, const DecideRequest& request,
                          const CompareOptions& options, const ProgressFn& progress,
                          const CancelToken& cancel) {
    auto t0 = std::chrono::steady_clock::now();
    Result<Decision> slot = backend.decide(request, progress, cancel);
    const double slot_ms = ms_since(t0) - (slot ? slot->timings.queue_ms : 0.0);

    GenerateRequest ask = generative_request(request.schema, request.state, request.seed);
    if (options.max_tokens > 0) ask.max_tokens = options.max_tokens;
    ask.images = request.images;  // both sides read what the decision is about
    t0 = std::chrono::steady_clock::now();
    Result<Generation> generation = cancel.cancelled() ? Result<Generation>(engine::cancelled())
                                                       : backend.generate(ask, progress, cancel);
    const double generation_ms = ms_since(t0) - (generation ? generation->timings.queue_ms : 0.0);
    Comparison c = build_comparison(request.schema, slot, slot_ms, generation, generation_ms);
    if (c.backend.empty()) c.backend = backend.describe();
    return c;
}

json Comparison::to_json() const {
    json qs = json::array();
    for (const auto& q : questions) {
        json slot_side = answer_json(q, q.slot_winner);
        if (!slot_side.is_null()) {
            slot_side["probability"] = q.slot_probability;
            slot_side["hesitation"] = q.hesitation;
            slot_side["hesitation_class"] = std::string(to_string(q.hesitation_class));
        }
        qs.push_back({{"id", q.id},
                      {"labels", q.labels},
                      {"alternatives", q.alternatives},
                      {"slot", slot_side},
                      {"generative", answer_json(q, q.generative)},
                      {"agree", q.agree}});
    }
    json slot_json = {{"ok", slot.has_value()},
                      {"latency_ms", slot_timing.latency_ms},
                      {"passes", slot_timing.passes}};
    if (slot) {
        slot_json["model"] = slot->model;
        slot_json["reads"] = slot->reads;
        slot_json["prompt_tokens"] = slot->prompt_tokens;
    } else {
        slot_json["error"] = slot_error;
    }
    json gen_json = {{"ok", generation.has_value()},
                     {"valid", generative.valid},
                     {"reasons", generative.reasons},
                     {"latency_ms", generative_timing.latency_ms},
                     {"passes", generative_timing.passes}};
    if (generation) {
        gen_json["text"] = generation->text;
        gen_json["completion_tokens"] = generation->completion_tokens;
        gen_json["prompt_tokens"] = generation->prompt_tokens;
        gen_json["finish_reason"] = generation->finish_reason;
        gen_json["model"] = generation->model;
    } else {
        gen_json["error"] = generation_error;
    }
    return {{"backend", backend},
            {"questions", qs},
            {"slot", slot_json},
            {"generative", gen_json},
            {"compared", compared},
            {"agreeing", agreeing},
            {"latency_ratio", latency_ratio()}};
}

// ---- suites ------------------------------------------------------------------------------

SuiteComparison compare_suite(const eval::Suite& suite,
                              const std::vector<eval::ItemRecord>& records) {
    SuiteComparison s;
    std::map<std::string, const eval::ItemRecord*> by_id;
    for (const auto& r : records) by_id.emplace(r.id, &r);
    std::vector<double> slot_lat, gen_lat;
    double slot_passes = 0, gen_passes = 0, tokens = 0;
    for (const auto& item : suite.items) {
        auto found = by_id.find(item.id);
        if (found == by_id.end()) continue;
        const eval::ItemRecord& r = *found->second;
        ++s.items;
        if (slot_asked(r)) {
            s.slot.answers += item.questions.size();
            if (r.ok && !r.questions.empty()) {
                slot_lat.push_back(r.latency_s);
                slot_passes += r.slot_passes;
            }
        }
        const eval::GenerativeRecord* g = r.generative ? &*r.generative : nullptr;
        if (g) {
            s.generative.answers += item.questions.size();
            if (g->ok) {
                ++s.generative_replies;
                if (g->valid) ++s.generative_valid;
                gen_lat.push_back(g->latency_s);
                gen_passes += g->passes;
                tokens += g->completion_tokens;
            }
        }
        for (size_t qi = 0; qi < item.questions.size(); ++qi) {
            const auto& iq = item.questions[qi];
            const std::string slot_name = r.ok ? slot_choice(r, iq.id) : std::string();
            const std::string gen_name =
                g && g->ok && qi < g->answers.size() ? g->answers[qi] : std::string();
            if (!slot_name.empty() && slot_name == iq.expected) ++s.slot.correct;
            if (!gen_name.empty() && gen_name == iq.expected) ++s.generative.correct;
            if (!slot_name.empty() && !gen_name.empty()) {
                ++s.compared;
                if (slot_name == gen_name) ++s.agreeing;
            }
        }
    }
    auto finish = [](ModeFigures& m, const std::vector<double>& lat, double passes) {
        m.accuracy = m.answers ? static_cast<double>(m.correct) / m.answers : 0;
        m.p50_s = eval::percentile(lat, 0.5);
        m.p95_s = eval::percentile(lat, 0.95);
        m.mean_passes = lat.empty() ? 0 : passes / lat.size();
    };
    finish(s.slot, slot_lat, slot_passes);
    finish(s.generative, gen_lat, gen_passes);
    s.valid_share =
        s.generative_replies ? static_cast<double>(s.generative_valid) / s.generative_replies : 0;
    s.agreement = s.compared ? static_cast<double>(s.agreeing) / s.compared : 0;
    if (s.slot.p50_s && s.generative.p50_s && *s.slot.p50_s > 0)
        s.latency_ratio = *s.generative.p50_s / *s.slot.p50_s;
    s.mean_completion_tokens = gen_lat.empty() ? 0 : tokens / gen_lat.size();
    return s;
}

json SuiteComparison::to_json() const {
    auto mode = [](const ModeFigures& m) {
        return json{{"answers", m.answers},
                    {"correct", m.correct},
                    {"accuracy", m.accuracy},
                    {"p50_s", m.p50_s ? json(*m.p50_s) : json(nullptr)},
                    {"p95_s", m.p95_s ? json(*m.p95_s) : json(nullptr)},
                    {"mean_passes", m.mean_passes}};
    };
    return {{"items", items},
            {"slot", mode(slot)},
            {"generative", mode(generative)},
            {"generative_replies", generative_replies},
            {"generative_valid", generative_valid},
            {"valid_share", valid_share},
            {"compared", compared},
            {"agreeing", agreeing},
            {"agreement", agreement},
            {"latency_ratio", latency_ratio},
            {"mean_completion_tokens", mean_completion_tokens}};
}

std::vector<ItemComparisonRow> comparison_rows(const eval::Suite& suite,
                                               const std::vector<eval::ItemRecord>& records) {
    std::map<std::string, const eval::ItemRecord*> by_id;
    for (const auto& r : records) by_id.emplace(r.id, &r);
    std::vector<ItemComparisonRow> rows;
    for (const auto& item : suite.items) {
        auto found = by_id.find(item.id);
        if (found == by_id.end()) continue;
        const eval::ItemRecord& r = *found->second;
        ItemComparisonRow row;
        row.id = item.id;
        row.tier = item.tier;
        const bool slot_answered = slot_asked(r) && r.ok && !r.questions.empty();
        const eval::GenerativeRecord* g = r.generative ? &*r.generative : nullptr;
        if (slot_answered) row.slot_latency_s = r.latency_s;
        if (!r.ok && !r.error.empty()) row.reason = r.error;
        if (g) {
            if (g->ok) {
                row.generative_latency_s = g->latency_s;
                row.generative_valid = g->valid;
                row.generative_passes = g->passes;
            }
            const std::string why = g->ok ? join_reasons(g->reasons) : g->error;
            if (!why.empty()) row.reason += (row.reason.empty() ? "" : "; ") + why;
        }
        bool slot_all = slot_answered, gen_all = g && g->ok, same = slot_answered && g && g->ok;
        for (size_t qi = 0; qi < item.questions.size(); ++qi) {
            const auto& iq = item.questions[qi];
            const std::string s = slot_answered ? slot_choice(r, iq.id) : std::string();
            const std::string gname = g && g->ok && qi < g->answers.size() ? g->answers[qi] : "";
            slot_all = slot_all && s == iq.expected;
            gen_all = gen_all && gname == iq.expected;
            same = same && !gname.empty() && s == gname;
        }
        if (slot_answered) row.slot_correct = slot_all;
        if (g && g->ok) {
            row.generative_correct = gen_all;
            if (slot_answered) row.agree = same;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace core::compare
