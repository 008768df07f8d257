// JevBench v1.4 scoring (see core/evaluation/eval_score.h and ../shared/JEVBENCH.md).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "core/evaluation/eval_score.h"
#include "core/policy/json_input.h"

namespace core::eval {

namespace {

using nlohmann::json;

double clamp100(double x) {
    return std::clamp(x, 0.0, 100.0);
}

double normalised_entropy(const std::map<std::string, double>& p) {
    if (p.size() < 2) return 0;
    double h = 0;
    for (const auto& [k, v] : p)
        if (v > 0) h -= v * std::log(v);
    return h / std::log(static_cast<double>(p.size()));
}

}  // namespace

// ---- one item ----------------------------------------------------------------------------

ItemScore score_item(const json& probs, const std::vector<std::string>& labels,
                     const std::string& expected, bool score_type) {
    ItemScore s;
    auto invalid = [&](std::string why) {
        s.invalid_reason = std::move(why);
        s.valid = s.strict_valid = false;
        s.probs.clear();
        return s;
    };
    if (probs.is_null()) return invalid("no answer");
    if (!probs.is_object()) return invalid("probs is not an object");
    std::set<std::string> want(labels.begin(), labels.end());
    for (auto it = probs.begin(); it != probs.end(); ++it)
        if (!want.count(it.key()))
            return invalid("label \"" + it.key() + "\" is not one of the item's");
    double sum = 0;
    for (const auto& l : labels) {
        auto it = probs.find(l);
        if (it == probs.end()) return invalid("label \"" + l + "\" missing");
        // JSON booleans are not numbers (upstream refuses True as a probability).
        if (!it->is_number() || it->is_boolean()) return invalid("p(" + l + ") is not a number");
        const double v = it->get<double>();
        if (!std::isfinite(v) || v < 0 || v > 1) return invalid("p(" + l + ") outside [0, 1]");
        s.probs[l] = v;
        sum += v;
    }
    const double off = std::abs(sum - 1);
    if (off <= kStrictTolerance) {
        s.strict_valid = true;
    } else if (off <= kRenormTolerance && sum > 0) {
        s.renormalized = true;
        for (auto& [k, v] : s.probs) v /= sum;
    } else {
        return invalid("probabilities sum to " + std::to_string(sum));
    }
    s.valid = true;
    // argmax; a tie goes to the lexicographically smallest label (std::map iterates in order).
    double best = -1;
    for (const auto& [k, v] : s.probs)
        if (v > best) {
            best = v;
            s.predicted = k;
        }
    s.confidence = best;
    s.correct = s.predicted == expected;
    for (const auto& [k, v] : s.probs) {
        const double y = k == expected ? 1.0 : 0.0;
        s.brier += (v - y) * (v - y);
    }
    if (score_type) {
        double ev = 0;
        for (const auto& [k, v] : s.probs) ev += std::stod(k) * v;
        s.ordinal_ev = ev;
    }
    return s;
}

std::map<std::string, double> temperature_scale(const std::map<std::string, double>& probs,
                                                double t) {
    std::map<std::string, double> out;
    double z = 0;
    for (const auto& [k, v] : probs) {
        const double w = v > 0 ? std::pow(v, 1.0 / t) : 0.0;
        out[k] = w;
        z += w;
    }
    if (z <= 0) return probs;
    for (auto& [k, v] : out) v /= z;
    return out;
}

// ---- metrics -----------------------------------------------------------------------------

Ece ece_top_label(const std::vector<std::pair<double, bool>>& pairs) {
    Ece e;
    e.bins.resize(10);
    std::vector<double> conf(10, 0), acc(10, 0);
    for (int b = 0; b < 10; ++b) {
        e.bins[static_cast<size_t>(b)].lo = b / 10.0;
        e.bins[static_cast<size_t>(b)].hi = (b + 1) / 10.0;
    }
    for (const auto& [c, ok] : pairs) {
        int b = std::clamp(static_cast<int>(std::floor(10 * c)), 0, 9);
        auto& bin = e.bins[static_cast<size_t>(b)];
        bin.n++;
        conf[static_cast<size_t>(b)] += c;
        acc[static_cast<size_t>(b)] += ok ? 1 : 0;
    }
    e.n = static_cast<int>(pairs.size());
    for (size_t b = 0; b < 10; ++b) {
        auto& bin = e.bins[b];
        if (bin.n == 0) continue;
        bin.confidence = conf[b] / bin.n;
        bin.accuracy = acc[b] / bin.n;
        e.ece += static_cast<double>(bin.n) / e.n * std::abs(bin.accuracy - bin.confidence);
    }
    return e;
}

std::optional<double> percentile(std::vector<double> values, double q) {
    if (values.empty()) return std::nullopt;
    std::sort(values.begin(), values.end());
    const double pos = (static_cast<double>(values.size()) - 1) * q;
    const auto lo = static_cast<size_t>(std::floor(pos));
    const auto hi = std::min(values.size() - 1, lo + 1);
    const double frac = pos - static_cast<double>(lo);
    return values[lo] + (values[hi] - values[lo]) * frac;
}

double tvd(const std::map<std::string, double>& p, const std::map<std::string, double>& q) {
    std::set<std::string> keys;
    for (const auto& [k, v] : p) keys.insert(k);
    for (const auto& [k, v] : q) keys.insert(k);
    double d = 0;
    for (const auto& k : keys) {
        auto a = p.find(k), b = q.find(k);
        d += std::abs((a == p.end() ? 0 : a->second) - (b == q.end() ? 0 : b->second));
    }
    return d / 2;
}

// ---- axes --------------------------------------------------------------------------------

double tier_chance(const std::string& tier) {
    if (tier == "easy") return 0.284028;
    if (tier == "standard") return 0.316667;
    if (tier == "judge") return 0.292237;
    if (tier == "hard") return 0.336439;
    return -1;
}

double tier_weight(const std::string& tier) {
    if (tier == "easy") return 0.14;
    if (tier == "standard") return 0.28;
    if (tier == "judge") return 0.28;
    if (tier == "hard") return 0.30;
    return 0;
}

std::optional<double> intelligence_v13(const std::map<std::string, double>& tier_accuracy) {
    double wsum = 0, total = 0;
    for (const auto& [tier, acc] : tier_accuracy) {
        const double w = tier_weight(tier), chance = tier_chance(tier);
        if (w <= 0) continue;
        total += w * clamp100(100 * (acc - chance) / (1 - chance));
        wsum += w;
    }
    if (wsum <= 0) return std::nullopt;
    return total / wsum;
}

double chance_corrected_sealed(double accuracy) {
    return clamp100(100 * std::max(0.0, (accuracy - kSealedChance) / (1 - kSealedChance)));
}

double intelligence_v14(double i13, double sealed_accuracy, double public_accuracy) {
    const double combined =
        (1 - kSealedWeight) * i13 + kSealedWeight * chance_corrected_sealed(sealed_accuracy);
    const double gap = 100 * (public_accuracy - sealed_accuracy);
    const double penalty = std::max(0.0, gap - 25.0) / 100;
    return combined * std::max(0.0, 1 - penalty);
}

double calibration_from_ece(double ece) {
    return std::max(0.0, 100 * (1 - ece / 0.5));
}

double calibration_v13(double ece, double soft_tvd) {
    return (calibration_from_ece(ece) + 100 * (1 - soft_tvd)) / 2;
}

double calibration_v14(std::optional<double> old_cal, std::optional<double> new_cal) {
    const double o = old_cal.value_or(0), n = new_cal.value_or(0);
    return o + (n - o) * std::min(1.0, 0.20 / 0.35);
}

std::optional<EndpointKind> parse_endpoint_kind(const std::string& text) {
    if (text == "api") return EndpointKind::Api;
    if (text == "gpu") return EndpointKind::Gpu;
    if (text == "cpu") return EndpointKind::Cpu;
    if (text == "demo" || text == "unknown") return EndpointKind::Other;
    return std::nullopt;
}

std::string to_string(EndpointKind kind) {
    switch (kind) {
        case EndpointKind::Api:
            return "api";
        case EndpointKind::Gpu:
            return "gpu";
        case EndpointKind::Cpu:
            return "cpu";
        case EndpointKind::Other:
            return "unknown";
    }
    return "unknown";
}

double adjusted_latency(double seconds, EndpointKind kind) {
    switch (kind) {
        case EndpointKind::Api:
            return seconds;
        case EndpointKind::Gpu:
        case EndpointKind::Cpu:
            return 2 * seconds + 0.15;
        case EndpointKind::Other:
            return 2 * seconds;
    }
    return 2 * seconds;
}

double speed_point(double seconds) {
    if (seconds <= 0) return 100;
    return clamp100(100 - 20 * std::log10(seconds / 0.1));
}

double speed_axis(double p50_adjusted, double p95_adjusted) {
    return (speed_point(p50_adjusted) + speed_point(p95_adjusted)) / 2;
}

double cost_axis(double usd_per_1000) {
    if (!(usd_per_1000 > 0)) return 0;  // callers refuse a price <= 0 before
    return clamp100(100 - 30 * std::log10(usd_per_1000 / 0.001));
}

std::optional<double> composite_v14(const Axes& axes) {
    const std::optional<double> v[4] = {axes.intelligence, axes.calibration, axes.speed, axes.cost};
    double inv = 0;
    bool zero = false;
    for (const auto& x : v) {
        if (!x) return std::nullopt;
        if (*x <= 0)
            zero = true;
        else
            inv += 1 / *x;
    }
    double score = zero ? 0.0 : 4 / inv;
    for (const auto& x : {axes.intelligence, axes.speed, axes.cost})
        if (*x < 50) score *= std::pow(std::max(0.0, *x) / 50, 2);
    return score;
}

// ---- a whole run -------------------------------------------------------------------------

double fit_temperature(const std::vector<const ScoredItem*>& items) {
    double best_t = 1, best_nll = INFINITY;
    bool any = false;
    for (int i = 0; i <= 120; ++i) {
        const double t = 0.05 * std::pow(400.0, i / 120.0);  // 0.05 .. 20, log spaced
        double nll = 0;
        int n = 0;
        for (const ScoredItem* it : items) {
            if (!it->score.valid) continue;
            auto p = temperature_scale(it->score.probs, t);
            nll -= std::log(std::max(1e-12, p[it->expected]));
            ++n;
        }
        if (n == 0) continue;
        any = true;
        if (nll < best_nll - 1e-12) {
            best_nll = nll;
            best_t = t;
        }
    }
    return any ? best_t : 1.0;
}

namespace {

void rescore_with(ScoredItem& item, double t) {
    if (!item.score.valid) return;
    auto p = temperature_scale(item.score.probs, t);
    json j = json::object();
    for (const auto& [k, v] : p) j[k] = v;
    const bool renorm = item.score.renormalized, strict = item.score.strict_valid;
    item.score = score_item(j, item.labels, item.expected, item.score.ordinal_ev.has_value());
    item.score.renormalized = renorm;
    item.score.strict_valid = strict;
}

GroupStats group_stats(const std::string& key, const std::vector<const ScoredItem*>& items) {
    GroupStats g;
    g.key = key;
    std::vector<double> lat;
    double conf = 0, chance = 0;
    for (const ScoredItem* it : items) {
        g.n++;
        if (it->score.correct) g.correct++;
        if (it->score.valid) {
            g.valid++;
            conf += it->score.confidence;
        }
        chance += 1.0 / static_cast<double>(std::max<size_t>(1, it->labels.size()));
        lat.push_back(it->latency_s);
    }
    if (g.n) {
        g.accuracy = static_cast<double>(g.correct) / g.n;
        g.chance = chance / g.n;
    }
    if (g.valid) g.mean_confidence = conf / g.valid;
    g.p50_latency_s = percentile(lat, 0.5).value_or(0);
    return g;
}

std::map<std::string, GroupStats> table(const std::vector<ScoredItem>& items,
                                        std::string ScoredItem::*field) {
    std::map<std::string, std::vector<const ScoredItem*>> groups;
    for (const auto& it : items) groups[it.*field].push_back(&it);
    std::map<std::string, GroupStats> out;
    for (const auto& [k, v] : groups) out[k] = group_stats(k, v);
    return out;
}

json axes_json(const Axes& a) {
    auto o = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    return {{"intelligence", o(a.intelligence)},
            {"calibration", o(a.calibration)},
            {"speed", o(a.speed)},
            {"cost", o(a.cost)}};
}

}  // namespace

namespace {

// dgem's temperature variants, before any calibration metric: a given T, or T fitted by 5-fold
// cross-validation (fold k = items with index % 5 == k; each fold is rescaled with the T fitted
// on the other four).
void apply_temperature(std::vector<ScoredItem>& items, const RunScoreOptions& options,
                       RunScore& r) {
    if (options.auto_temperature && !items.empty()) {
        std::vector<double> fold_t(5, 1.0);
        for (size_t k = 0; k < 5; ++k) {
            std::vector<const ScoredItem*> train;
            for (size_t i = 0; i < items.size(); ++i)
                if (i % 5 != k) train.push_back(&items[i]);
            fold_t[k] = fit_temperature(train);
        }
        std::vector<const ScoredItem*> all;
        for (const auto& it : items) all.push_back(&it);
        r.temperature = fit_temperature(all);
        r.fold_temperatures = fold_t;
        for (size_t i = 0; i < items.size(); ++i) rescore_with(items[i], fold_t[i % 5]);
    } else if (options.temperature && std::abs(*options.temperature - 1) > 0) {
        r.temperature = *options.temperature;
        for (auto& it : items) rescore_with(it, *options.temperature);
    }
}

// Accuracy, tiers, validity, calibration (ECE, soft TVD, Brier) and latency.
void score_counts(const std::vector<ScoredItem>& items, const RunScoreOptions& options,
                  RunScore& r) {
    std::map<std::string, std::pair<int, int>> tiers;  // correct, n
    std::vector<std::pair<double, bool>> hard_pairs, all_pairs;
    std::vector<double> latencies;
    double brier = 0, tvd_sum = 0;
    for (const auto& it : items) {
        r.n++;
        if (it.failed) r.failed++;
        if (it.score.correct) r.correct++;
        if (it.score.renormalized && it.score.valid) r.renormalized++;
        auto& t = tiers[it.tier];
        t.second++;
        if (it.score.correct) t.first++;
        latencies.push_back(it.latency_s);
        if (!it.score.valid) continue;
        r.valid++;
        brier += it.score.brier;
        all_pairs.emplace_back(it.score.confidence, it.score.correct);
        if (it.tier == "hard") hard_pairs.emplace_back(it.score.confidence, it.score.correct);
        if (it.gold_probs) {
            tvd_sum += tvd(it.score.probs, *it.gold_probs);
            r.tvd_items++;
        }
    }
    if (r.n) r.accuracy = static_cast<double>(r.correct) / r.n;
    for (const auto& [tier, cn] : tiers)
        r.tier_accuracy[tier] = static_cast<double>(cn.first) / cn.second;
    r.intelligence_v13 = intelligence_v13(r.tier_accuracy);
    r.reliability = ece_top_label(hard_pairs);
    r.reliability_all = ece_top_label(all_pairs);
    if (!hard_pairs.empty()) r.ece_hard = r.reliability.ece;
    if (r.tvd_items) r.soft_tvd = tvd_sum / r.tvd_items;
    if (r.ece_hard && r.soft_tvd) {
        r.calibration = calibration_v13(*r.ece_hard, *r.soft_tvd);
    } else if (r.ece_hard) {
        r.calibration = calibration_from_ece(*r.ece_hard);
        r.calibration_ece_only = true;
    }
    if (r.valid) r.brier = brier / r.valid;
    r.p50_s = percentile(latencies, 0.5);
    r.p95_s = percentile(latencies, 0.95);
    if (r.p50_s && r.p95_s) {
        r.p50_adjusted_s = adjusted_latency(*r.p50_s, options.endpoint_kind);
        r.p95_adjusted_s = adjusted_latency(*r.p95_s, options.endpoint_kind);
        r.speed = speed_axis(*r.p50_adjusted_s, *r.p95_adjusted_s);
    }
    r.latency_basis = "every attempted item of this run (" + std::to_string(r.n) +
                      "; upstream uses the standard+judge run)";
}

// Cost, the public axes, the composite and the v1.4 intelligence.
void score_axes(const RunScoreOptions& options, RunScore& r) {
    if (options.usd_per_1k) {
        r.usd_per_1k = *options.usd_per_1k;
        r.cost = cost_axis(*options.usd_per_1k);
    } else if (options.cost_estimate) {
        r.usd_per_1k = kDiffusionGemmaUsdPer1k;
        r.cost = cost_axis(kDiffusionGemmaUsdPer1k);
        r.cost_is_estimate = true;
    }
    r.public_axes = {r.intelligence_v13, r.calibration, r.speed, r.cost};
    r.public_estimate = composite_v14(r.public_axes);
    if (options.sealed_accuracy && r.intelligence_v13)
        r.intelligence_v14 =
            intelligence_v14(*r.intelligence_v13, *options.sealed_accuracy, r.accuracy);
}

// Paraphrase pairs (groups of 2+).
ParaphraseStats paraphrase_stats(const std::vector<ScoredItem>& items) {
    ParaphraseStats p;
    std::map<std::string, std::vector<const ScoredItem*>> groups;
    for (const auto& it : items)
        if (!it.group.empty()) groups[it.group].push_back(&it);
    for (const auto& [g, members] : groups) {
        if (members.size() < 2) continue;
        p.groups++;
        bool same = true, all_correct = true;
        for (const ScoredItem* m : members) {
            if (!m->score.valid || m->score.predicted != members[0]->score.predicted) same = false;
            if (!m->score.correct) all_correct = false;
        }
        if (same) p.consistent++;
        if (all_correct) p.both_correct++;
    }
    if (p.groups) {
        p.agreement = static_cast<double>(p.consistent) / p.groups;
        p.both_correct_rate = static_cast<double>(p.both_correct) / p.groups;
    }
    return p;
}

// Hesitation sweep: escalate items whose normalised entropy exceeds the threshold.
std::vector<HesitationStep> hesitation_sweep(const std::vector<ScoredItem>& items, int n) {
    std::vector<HesitationStep> sweep;
    for (int i = 0; i <= 10; ++i) {
        HesitationStep s;
        s.threshold = i / 10.0;
        int kept_correct = 0;
        for (const auto& it : items) {
            const double h = it.score.valid ? normalised_entropy(it.score.probs) : 2.0;
            if (h > s.threshold) {
                s.escalated++;
            } else {
                s.kept++;
                if (it.score.correct) kept_correct++;
            }
        }
        if (n) s.escalated_share = static_cast<double>(s.escalated) / n;
        if (s.kept) s.kept_accuracy = static_cast<double>(kept_correct) / s.kept;
        sweep.push_back(s);
    }
    return sweep;
}

}  // namespace

RunScore score_run(std::vector<ScoredItem> items, const RunScoreOptions& options) {
    RunScore r;
    r.endpoint_kind = options.endpoint_kind;
    apply_temperature(items, options, r);
    score_counts(items, options, r);
    score_axes(options, r);
    r.by_tier = table(items, &ScoredItem::tier);
    r.by_family = table(items, &ScoredItem::family);
    r.by_topic = table(items, &ScoredItem::topic);
    r.paraphrase = paraphrase_stats(items);
    r.hesitation_sweep = hesitation_sweep(items, r.n);
    return r;
}

json to_json(const RunScore& r) {
    auto o = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    auto groups = [](const std::map<std::string, GroupStats>& m) {
        json out = json::object();
        for (const auto& [k, g] : m)
            out[k] = {{"n", g.n},
                      {"correct", g.correct},
                      {"valid", g.valid},
                      {"accuracy", g.accuracy},
                      {"chance", g.chance},
                      {"mean_confidence", g.mean_confidence},
                      {"p50_latency_s", g.p50_latency_s}};
        return out;
    };
    auto bins = [](const Ece& e) {
        json b = json::array();
        for (const auto& bin : e.bins)
            b.push_back({{"lo", bin.lo},
                         {"hi", bin.hi},
                         {"n", bin.n},
                         {"confidence", bin.confidence},
                         {"accuracy", bin.accuracy}});
        return b;
    };
    json sweep = json::array();
    for (const auto& s : r.hesitation_sweep)
        sweep.push_back({{"threshold", s.threshold},
                         {"escalated", s.escalated},
                         {"escalated_share", s.escalated_share},
                         {"kept", s.kept},
                         {"kept_accuracy", s.kept_accuracy}});
    json j = {
        {"n", r.n},
        {"correct", r.correct},
        {"valid", r.valid},
        {"failed", r.failed},
        {"renormalized", r.renormalized},
        {"accuracy", r.accuracy},
        {"tier_accuracy", r.tier_accuracy},
        {"axes", axes_json(r.public_axes)},
        {"public_only_estimate", o(r.public_estimate)},
        {"public_only_estimate_note",
         "an estimate: the v1.4 formula on public axes; upstream ranks only runs with a sealed "
         "score"},
        {"intelligence_v13", o(r.intelligence_v13)},
        {"intelligence_v14", o(r.intelligence_v14)},
        {"ece_hard", o(r.ece_hard)},
        {"soft_tvd", o(r.soft_tvd)},
        {"tvd_items", r.tvd_items},
        {"calibration_ece_only", r.calibration_ece_only},
        {"brier", r.brier},
        {"reliability_hard",
         {{"ece", r.reliability.ece}, {"n", r.reliability.n}, {"bins", bins(r.reliability)}}},
        {"reliability_all",
         {{"ece", r.reliability_all.ece},
          {"n", r.reliability_all.n},
          {"bins", bins(r.reliability_all)}}},
        {"latency",
         {{"p50_s", o(r.p50_s)},
          {"p95_s", o(r.p95_s)},
          {"p50_adjusted_s", o(r.p50_adjusted_s)},
          {"p95_adjusted_s", o(r.p95_adjusted_s)},
          {"endpoint_kind", to_string(r.endpoint_kind)},
          {"basis", r.latency_basis}}},
        {"cost",
         {{"usd_per_1000", o(r.usd_per_1k)},
          {"estimate", r.cost_is_estimate},
          {"note", r.cost
                       ? (r.cost_is_estimate ? "labelled estimate: upstream's price for the same "
                                               "DiffusionGemma weights (djev)"
                                             : "from --usd-per-1k")
                       : "no price given: no Cost axis and no composite"}}},
        {"temperature", o(r.temperature)},
        {"fold_temperatures", r.fold_temperatures},
        {"by_tier", groups(r.by_tier)},
        {"by_family", groups(r.by_family)},
        {"by_topic", groups(r.by_topic)},
        {"paraphrase",
         {{"groups", r.paraphrase.groups},
          {"consistent", r.paraphrase.consistent},
          {"both_correct", r.paraphrase.both_correct},
          {"agreement", r.paraphrase.agreement},
          {"both_correct_rate", r.paraphrase.both_correct_rate}}},
        {"hesitation_sweep", sweep},
    };
    return j;
}

// ---- the leaderboard ---------------------------------------------------------------------

engine::Result<Leaderboard> load_leaderboard(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path + ": cannot read the leaderboard file");
    std::ostringstream ss;
    ss << in.rdbuf();
    auto parsed = parse_json_input(ss.str(), path);
    if (!parsed) return parsed.error();
    const json& j = *parsed;
    if (!j.is_object() || !j.contains("systems") || !j["systems"].is_array())
        return engine::bad_input(path + ": field systems: missing or not a list");
    Leaderboard lb;
    lb.revision = j.value("revision", "");
    lb.protocol = j.value("protocol", "");
    for (size_t i = 0; i < j["systems"].size(); ++i) {
        const json& s = j["systems"][i];
        const std::string at = path + ": field systems[" + std::to_string(i) + "]";
        if (!s.is_object()) return engine::bad_input(at + ": not an object");
        LeaderboardRow row;
        row.key = s.value("key", "");
        row.display = s.value("display", row.key);
        row.endpoint_kind = s.value("endpoint_kind", "unknown");
        if (s.contains("rank") && s["rank"].is_number_integer()) row.rank = s["rank"].get<int>();
        if (!s.contains("jevbench_score") || !s["jevbench_score"].is_number())
            continue;  // unscored (label-only) rows have no rank
        row.score = s["jevbench_score"].get<double>();
        if (!s.contains("axes") || !s["axes"].is_object())
            return engine::bad_input(at + ".axes: missing");
        const json& a = s["axes"];
        for (auto [name, out] :
             {std::pair{"intelligence", &row.axes.intelligence},
              std::pair{"calibration", &row.axes.calibration}, std::pair{"speed", &row.axes.speed},
              std::pair{"cost", &row.axes.cost}}) {
            if (!a.contains(name) || !a[name].is_number())
                return engine::bad_input(at + ".axes." + name + ": missing or not a number");
            *out = a[name].get<double>();
        }
        lb.rows.push_back(std::move(row));
    }
    return lb;
}

}  // namespace core::eval
