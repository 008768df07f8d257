// Records -> scores -> report JSON (see core/evaluation/eval_report.h).
#include <cmath>

#include "core/evaluation/eval_report.h"

namespace core::eval {

namespace {

using nlohmann::json;

double norm_entropy(const std::map<std::string, double>& p) {
    if (p.size() < 2) return 0;
    double h = 0;
    for (const auto& [k, v] : p)
        if (v > 0) h -= v * std::log(v);
    return h / std::log(static_cast<double>(p.size()));
}

std::map<std::string, const ItemRecord*> by_id(const std::vector<ItemRecord>& records) {
    std::map<std::string, const ItemRecord*> m;
    for (const auto& r : records) m.emplace(r.id, &r);
    return m;
}

}  // namespace

std::vector<ScoredItem> scored_items(const Suite& suite, const std::vector<ItemRecord>& records) {
    auto recs = by_id(records);
    std::vector<ScoredItem> out;
    for (const auto& item : suite.items) {
        auto it = recs.find(item.id);
        if (it == recs.end() || item.questions.empty()) continue;
        const ItemRecord& r = *it->second;
        const ItemQuestion& q = item.questions[0];
        ScoredItem s;
        s.id = item.id;
        s.tier = item.tier;
        s.family = item.family;
        s.topic = item.topic;
        s.group = item.group;
        s.labels = q.names;
        s.expected = q.expected;
        s.latency_s = r.latency_s;
        s.failed = !r.ok;
        s.gold_probs = item.gold_probs;
        s.score = score_item(r.probs_json(q.id), q.names, q.expected, item.score_type);
        s.hesitation = s.score.valid ? norm_entropy(s.score.probs) : -1;
        out.push_back(std::move(s));
    }
    return out;
}

json jev_items_json(const std::vector<ScoredItem>& items, const std::vector<ItemRecord>& records) {
    auto recs = by_id(records);
    json out = json::array();
    for (const auto& s : items) {
        const ItemRecord* r = recs.count(s.id) ? recs[s.id] : nullptr;
        json probs = json::object();
        if (r && r->ok)
            for (const auto& q : r->questions)
                for (size_t i = 0; i < q.names.size(); ++i) probs[q.names[i]] = q.probs[i];
        json j = {{"id", s.id},
                  {"tier", s.tier},
                  {"family", s.family},
                  {"topic", s.topic},
                  {"expected", s.expected},
                  {"labels", s.labels},
                  {"probs", r && r->ok ? probs : json(nullptr)},
                  {"predicted", s.score.valid ? json(s.score.predicted) : json(nullptr)},
                  {"correct", s.score.correct},
                  {"valid", s.score.valid},
                  {"confidence", s.score.valid ? json(s.score.confidence) : json(nullptr)},
                  {"hesitation", s.score.valid ? json(s.hesitation) : json(nullptr)},
                  {"latency_s", s.latency_s},
                  {"attempts", r ? r->attempts : 0},
                  {"seed", r ? r->seed : 0}};
        if (!s.group.empty()) j["group"] = s.group;
        if (s.score.renormalized) j["renormalized"] = true;
        if (!s.score.valid && !s.score.invalid_reason.empty())
            j["invalid_reason"] = s.score.invalid_reason;
        if (r && !r->ok) j["error"] = r->error;
        out.push_back(std::move(j));
    }
    return out;
}

SuiteScore score_suite(const Suite& suite, const std::vector<ItemRecord>& records) {
    auto recs = by_id(records);
    SuiteScore s;
    std::vector<std::pair<double, bool>> pairs;
    std::vector<double> lat;
    double conf = 0, brier = 0;
    int valid = 0;
    std::map<std::string, std::vector<ScoredItem>> domains, tiers;
    std::map<std::string, double> qconf;
    for (const auto& item : suite.items) {
        auto it = recs.find(item.id);
        if (it == recs.end()) continue;
        const ItemRecord& r = *it->second;
        s.cases++;
        if (!r.ok) s.failed++;
        lat.push_back(r.latency_s);
        bool all = true;
        double case_conf = 0;
        for (const auto& q : item.questions) {
            ItemScore sc = score_item(r.probs_json(q.id), q.names, q.expected, false);
            auto& qa = s.by_question[q.id];
            qa.id = q.id;
            qa.n++;
            s.answers++;
            if (sc.correct) {
                qa.correct++;
                s.answers_correct++;
            } else {
                all = false;
            }
            if (sc.valid) {
                qa.valid++;
                qconf[q.id] += sc.confidence;
                conf += sc.confidence;
                brier += sc.brier;
                valid++;
                pairs.emplace_back(sc.confidence, sc.correct);
                case_conf += sc.confidence / static_cast<double>(item.questions.size());
            }
        }
        if (all) s.cases_correct++;
        ScoredItem g;
        g.id = item.id;
        g.labels = {"0", "1"};
        g.latency_s = r.latency_s;
        g.score.correct = all;
        g.score.valid = r.ok;
        g.score.confidence = case_conf;
        domains[item.domain].push_back(g);
        tiers[item.tier].push_back(g);
    }
    if (s.cases) s.case_accuracy = static_cast<double>(s.cases_correct) / s.cases;
    if (s.answers) s.answer_accuracy = static_cast<double>(s.answers_correct) / s.answers;
    if (valid) {
        s.mean_confidence = conf / valid;
        s.brier = brier / valid;
    }
    for (auto& [id, qa] : s.by_question) {
        if (qa.n) qa.accuracy = static_cast<double>(qa.correct) / qa.n;
        if (qa.valid) qa.mean_confidence = qconf[id] / qa.valid;
    }
    s.reliability = ece_top_label(pairs);
    s.p50_s = percentile(lat, 0.5);
    s.p95_s = percentile(lat, 0.95);
    auto group = [](const std::map<std::string, std::vector<ScoredItem>>& m) {
        std::map<std::string, GroupStats> out;
        for (const auto& [k, v] : m) {
            GroupStats g;
            g.key = k;
            std::vector<double> l;
            double c = 0;
            for (const auto& it : v) {
                g.n++;
                if (it.score.correct) g.correct++;
                if (it.score.valid) {
                    g.valid++;
                    c += it.score.confidence;
                }
                l.push_back(it.latency_s);
            }
            g.accuracy = g.n ? static_cast<double>(g.correct) / g.n : 0;
            g.mean_confidence = g.valid ? c / g.valid : 0;
            g.p50_latency_s = percentile(l, 0.5).value_or(0);
            out[k] = g;
        }
        return out;
    };
    s.by_domain = group(domains);
    s.by_tier = group(tiers);
    return s;
}

json to_json(const SuiteScore& s) {
    auto o = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    json q = json::object();
    for (const auto& [id, a] : s.by_question)
        q[id] = {{"n", a.n},
                 {"correct", a.correct},
                 {"valid", a.valid},
                 {"accuracy", a.accuracy},
                 {"mean_confidence", a.mean_confidence}};
    auto groups = [](const std::map<std::string, GroupStats>& m) {
        json out = json::object();
        for (const auto& [k, g] : m)
            out[k] = {{"n", g.n},
                      {"correct", g.correct},
                      {"accuracy", g.accuracy},
                      {"mean_confidence", g.mean_confidence},
                      {"p50_latency_s", g.p50_latency_s}};
        return out;
    };
    json bins = json::array();
    for (const auto& b : s.reliability.bins)
        bins.push_back({{"lo", b.lo},
                        {"hi", b.hi},
                        {"n", b.n},
                        {"confidence", b.confidence},
                        {"accuracy", b.accuracy}});
    return {{"cases", s.cases},
            {"cases_correct", s.cases_correct},
            {"case_accuracy", s.case_accuracy},
            {"failed", s.failed},
            {"answers", s.answers},
            {"answers_correct", s.answers_correct},
            {"answer_accuracy", s.answer_accuracy},
            {"mean_confidence", s.mean_confidence},
            {"ece", s.reliability.ece},
            {"reliability", bins},
            {"brier", s.brier},
            {"latency", {{"p50_s", o(s.p50_s)}, {"p95_s", o(s.p95_s)}}},
            {"by_question", q},
            {"by_domain", groups(s.by_domain)},
            {"by_tier", groups(s.by_tier)}};
}

json suite_items_json(const Suite& suite, const std::vector<ItemRecord>& records) {
    auto recs = by_id(records);
    json out = json::array();
    for (const auto& item : suite.items) {
        auto it = recs.find(item.id);
        if (it == recs.end()) continue;
        const ItemRecord& r = *it->second;
        json answers = json::object();
        bool all = true;
        for (const auto& q : item.questions) {
            json p = r.probs_json(q.id);
            ItemScore sc = score_item(p, q.names, q.expected, false);
            all = all && sc.correct;
            answers[q.id] = {{"expected", q.expected},
                             {"predicted", sc.valid ? json(sc.predicted) : json(nullptr)},
                             {"correct", sc.correct},
                             {"confidence", sc.valid ? json(sc.confidence) : json(nullptr)},
                             {"probs", p}};
        }
        json j = {{"id", item.id},          {"domain", item.domain}, {"tier", item.tier},
                  {"correct", all},         {"answers", answers},    {"latency_s", r.latency_s},
                  {"attempts", r.attempts}, {"seed", r.seed}};
        if (!r.ok) j["error"] = r.error;
        out.push_back(std::move(j));
    }
    return out;
}

}  // namespace core::eval
