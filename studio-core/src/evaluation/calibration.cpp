// Temperature fitting by k-fold cross-validation on held-out NLL, and the escalation curve.
#include "core/evaluation/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>

namespace core::eval {

namespace {

std::string g(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

constexpr double kFloor = 1e-12;  // -ln of a zero probability is capped at -ln 1e-12

double mean_nll(const std::vector<const CalibrationItem*>& items, double t) {
    double sum = 0;
    for (const CalibrationItem* it : items) {
        const auto p = temper(it->probs, t);
        sum -= std::log(std::max(kFloor, p[static_cast<size_t>(it->expected)]));
    }
    return items.empty() ? 0 : sum / static_cast<double>(items.size());
}

int top(const std::vector<double>& p) {
    return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

// Fold of each item: a seeded Fisher-Yates shuffle of 0..n-1, dealt round robin.
std::vector<int> fold_of(size_t n, int folds, uint64_t seed) {
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(seed);
    for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    std::vector<int> fold(n);
    for (size_t k = 0; k < n; ++k)
        fold[order[k]] = static_cast<int>(k % static_cast<size_t>(folds));
    return fold;
}

// `what` names the group in notes: "noul questions", or "answers of urgent" (a question's fit).
TypeFit fit_type(QuestionType type, const std::string& what,
                 const std::vector<const CalibrationItem*>& items, const CalibrationOptions& o,
                 std::vector<std::pair<const CalibrationItem*, double>>& held_out) {
    TypeFit fit;
    fit.type = type;
    fit.n = static_cast<int>(items.size());
    if (fit.n < std::max(o.min_items, o.folds)) {
        fit.note = std::to_string(fit.n) + " labelled " + what + "; at least " +
                   std::to_string(std::max(o.min_items, o.folds)) + " are needed for a " +
                   std::to_string(o.folds) + "-fold fit (T stays 1)";
        for (const auto* it : items) held_out.push_back({it, 1.0});
        fit.before = fit.after = probability_metrics(items, 1.0);
        return fit;
    }
    const auto fold = fold_of(items.size(), o.folds, o.seed);
    std::vector<const CalibrationItem*> tested;
    std::vector<CalibrationItem> after_items;
    for (int k = 0; k < o.folds; ++k) {
        std::vector<const CalibrationItem*> train, test;
        for (size_t i = 0; i < items.size(); ++i) (fold[i] == k ? test : train).push_back(items[i]);
        bool edge = false;
        const double t = fit_temperature_nll(train, o.t_min, o.t_max, &edge);
        fit.fold_temperatures.push_back(t);
        fit.at_edge = fit.at_edge || edge;
        for (const auto* it : test) {
            tested.push_back(it);
            CalibrationItem scaled = *it;
            scaled.probs = temper(it->probs, t);
            after_items.push_back(std::move(scaled));
            held_out.push_back({it, t});
        }
    }
    std::vector<const CalibrationItem*> after;
    for (const auto& it : after_items) after.push_back(&it);
    fit.before = probability_metrics(tested, 1.0);
    fit.after = probability_metrics(after, 1.0);
    bool edge = false;
    fit.temperature = fit_temperature_nll(items, o.t_min, o.t_max, &edge);
    fit.at_edge = fit.at_edge || edge;
    fit.fitted = true;
    if (fit.at_edge)
        fit.note = "the fit reached the edge of its search range [" + g(o.t_min) + ", " +
                   g(o.t_max) + "]: the best T may lie outside it";
    return fit;
}

}  // namespace

std::vector<double> temper(const std::vector<double>& probs, double t) {
    std::vector<double> out(probs.size());
    double hi = -INFINITY;
    for (size_t i = 0; i < probs.size(); ++i) {
        out[i] = std::log(std::max(probs[i], 1e-300)) / t;
        hi = std::max(hi, out[i]);
    }
    double sum = 0;
    for (auto& v : out) sum += (v = std::exp(v - hi));
    for (auto& v : out) v /= sum;
    return out;
}

double label_entropy(const std::vector<double>& p) {
    double h = 0;
    for (double v : p)
        if (v > 0) h -= v * std::log(v);
    return h;
}

ProbabilityMetrics probability_metrics(const std::vector<const CalibrationItem*>& items, double t) {
    ProbabilityMetrics m;
    std::vector<std::pair<double, bool>> pairs;
    for (const CalibrationItem* it : items) {
        const auto p = t == 1 ? it->probs : temper(it->probs, t);
        const size_t e = static_cast<size_t>(it->expected);
        const bool right = top(p) == it->expected;
        m.accuracy += right;
        m.nll -= std::log(std::max(kFloor, p[e]));
        for (size_t k = 0; k < p.size(); ++k) m.brier += std::pow(p[k] - (k == e ? 1.0 : 0.0), 2);
        pairs.push_back({p[static_cast<size_t>(top(p))], right});
    }
    m.n = static_cast<int>(items.size());
    if (m.n > 0) {
        m.accuracy /= m.n;
        m.nll /= m.n;
        m.brier /= m.n;
    }
    m.ece = ece_top_label(pairs);
    return m;
}

double fit_temperature_nll(const std::vector<const CalibrationItem*>& items, double t_min,
                           double t_max, bool* at_edge) {
    if (items.empty()) return 1;
    const double a = std::log(t_min), b = std::log(t_max);
    constexpr int kGrid = 41;
    auto at = [&](int i) { return a + (b - a) * i / (kGrid - 1); };
    int best = 0;
    double best_nll = INFINITY;
    for (int i = 0; i < kGrid; ++i) {
        const double nll = mean_nll(items, std::exp(at(i)));
        if (nll < best_nll) best_nll = nll, best = i;
    }
    // Golden section between the best grid point's neighbours (NLL is convex in 1/T, so
    // unimodal in log T).
    double lo = at(std::max(0, best - 1)), hi = at(std::min(kGrid - 1, best + 1));
    const double g = (std::sqrt(5.0) - 1) / 2;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = mean_nll(items, std::exp(x1)), f2 = mean_nll(items, std::exp(x2));
    for (int it = 0; it < 60 && hi - lo > 1e-7; ++it) {
        if (f1 < f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = mean_nll(items, std::exp(x1));
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = mean_nll(items, std::exp(x2));
        }
    }
    const double x = (lo + hi) / 2;
    if (at_edge) *at_edge = x - a < 0.01 * (b - a) || b - x < 0.01 * (b - a);
    return std::exp(x);
}

Result<CalibrationReport> fit_calibration(const std::vector<CalibrationItem>& items,
                                          const CalibrationOptions& o) {
    if (items.empty())
        return engine::bad_input("the run has no labelled questions with probabilities to fit");
    if (o.folds < 2 || o.folds > 20)
        return engine::bad_input("folds " + std::to_string(o.folds) + ": accepted: 2 to 20");
    if (!(o.t_min > 0 && o.t_min < 1 && o.t_max > 1 && std::isfinite(o.t_max)))
        return engine::bad_input("the temperature search range must hold 1: 0 < min < 1 < max");
    CalibrationReport report;
    report.options = o;
    std::vector<std::pair<const CalibrationItem*, double>> held_out;
    if (o.per == FitPer::Question) {
        std::vector<std::string> ids;  // in the order the run first answers them
        std::map<std::string, std::vector<const CalibrationItem*>> of_question;
        for (const auto& it : items) {
            auto& group = of_question[it.question];
            if (group.empty()) ids.push_back(it.question);
            group.push_back(&it);
        }
        for (const auto& id : ids) {
            const auto& group = of_question[id];
            report.types.push_back(
                fit_type(group.front()->type, "answers of " + id, group, o, held_out));
            report.types.back().question = id;
            if (report.types.back().fitted)
                report.temperature.by_question[id] = report.types.back().temperature;
        }
    }
    for (auto type : {QuestionType::Noul, QuestionType::Choice, QuestionType::Score}) {
        if (o.per == FitPer::Question) break;
        std::vector<const CalibrationItem*> of_type;
        for (const auto& it : items)
            if (it.type == type) of_type.push_back(&it);
        if (of_type.empty()) continue;
        report.types.push_back(
            fit_type(type, std::string(to_string(type)) + " questions", of_type, o, held_out));
        if (report.types.back().fitted)
            report.temperature.by_type[type] = report.types.back().temperature;
    }
    std::vector<const CalibrationItem*> all;
    std::vector<CalibrationItem> scaled;
    scaled.reserve(held_out.size());
    for (const auto& [it, t] : held_out) {
        all.push_back(it);
        CalibrationItem s = *it;
        s.probs = temper(it->probs, t);
        scaled.push_back(std::move(s));
    }
    std::vector<const CalibrationItem*> after;
    for (const auto& s : scaled) after.push_back(&s);
    report.before = probability_metrics(all, 1.0);
    report.after = probability_metrics(after, 1.0);
    return report;
}

std::vector<EscalationPoint> escalation_curve(const std::vector<CalibrationItem>& items,
                                              const EscalationOptions& o) {
    struct Row {
        double entropy;
        bool stage1_right;
        double stage2_right;
    };
    std::vector<Row> rows;
    for (const auto& it : items) {
        const auto p = temper(it.probs, o.temperature.for_question(it.question, it.type));
        rows.push_back({label_entropy(p), top(p) == it.expected,
                        it.stage2_correct ? (*it.stage2_correct ? 1.0 : 0.0) : o.stage2_accuracy});
    }
    std::vector<double> thresholds;
    for (const auto& r : rows) thresholds.push_back(r.entropy);
    std::sort(thresholds.begin(), thresholds.end(), std::greater<>());
    thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
    const double above = thresholds.empty() ? 1.0 : thresholds.front() + 1e-6;
    thresholds.insert(thresholds.begin(), above);
    std::vector<EscalationPoint> curve;
    const double n = static_cast<double>(std::max<size_t>(1, rows.size()));
    for (double t : thresholds) {
        EscalationPoint p;
        p.threshold = t;
        double right = 0;
        for (const auto& r : rows) {
            const bool up = r.entropy >= t;
            p.escalated += up;
            right += up ? r.stage2_right : (r.stage1_right ? 1.0 : 0.0);
        }
        p.escalated_share = p.escalated / n;
        p.accuracy = right / n;
        curve.push_back(p);
    }
    return curve;
}

ThresholdSuggestion suggest_for_accuracy(const std::vector<EscalationPoint>& curve, double target) {
    ThresholdSuggestion s;
    for (const auto& p : curve)  // highest threshold first: the first that reaches it is cheapest
        if (p.accuracy + 1e-12 >= target) {
            s.found = true;
            s.point = p;
            s.reason = "the fewest stage-2 calls reaching accuracy " + g(target);
            return s;
        }
    s.reason = "no threshold reaches accuracy " + g(target) + " (escalating everything gives " +
               g(curve.empty() ? 0.0 : curve.back().accuracy) + ")";
    return s;
}

ThresholdSuggestion suggest_for_budget(const std::vector<EscalationPoint>& curve, double budget) {
    ThresholdSuggestion s;
    for (const auto& p : curve)
        if (p.escalated_share <= budget + 1e-12 && (!s.found || p.accuracy > s.point.accuracy)) {
            s.found = true;
            s.point = p;
        }
    s.reason = s.found ? "the most accurate point escalating at most " + g(budget * 100) +
                             "% of the questions"
                       : "no threshold escalates that few";
    return s;
}

}  // namespace core::eval
