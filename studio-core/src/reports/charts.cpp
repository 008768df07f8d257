// The charts of reports as values, built from the scored results. The Bench and Compare views
// chart the same values; paint.cpp draws these for the files and the preview.

#include <algorithm>
#include <cmath>

#include "report_internal.h"

namespace core::report {

using detail::fixed;

ReportChart probability_chart(const QuestionBlock& q) {
    ReportChart c;
    c.kind = ReportChart::Kind::Category;
    c.title = q.id;
    c.horizontal = true;
    c.value_suffix = "%";
    c.min = 0;
    c.max = 100;
    ChartSet set{"probability", {}, {}};
    c.color_per_category = true;
    for (size_t k = 0; k < q.labels.size(); ++k) {
        const std::string alt = k < q.alternatives.size() ? q.alternatives[k] : "";
        c.categories.push_back(alt.empty() || alt == q.labels[k] ? q.labels[k]
                                                                 : q.labels[k] + " " + alt);
        set.values.push_back(k < q.probabilities.size() ? q.probabilities[k] * 100.0 : 0.0);
        if (!q.errors.empty()) set.errors.push_back(k < q.errors.size() ? q.errors[k] * 100.0 : 0);
    }
    c.sets.push_back(std::move(set));
    c.highlighted = {q.winner};
    return c;
}

ReportChart reliability_chart(const eval::Ece& ece, std::string title,
                              const std::vector<ChartItem>& items) {
    ReportChart c;
    c.kind = ReportChart::Kind::Xy;
    c.title = title + " (ECE " + fixed(ece.ece, 3) + ", " + std::to_string(ece.n) + " items)";
    c.x_title = "confidence";
    c.y_title = "accuracy";
    c.x_min = 0;
    c.x_max = 1;
    c.min = 0;
    c.max = 1;
    c.value_decimals = 2;
    c.series.push_back({"ideal", true, {{0, 0}, {1, 1}}, {}});
    ChartSeries acc{"accuracy", true, {}, {}};
    for (const auto& b : ece.bins)
        if (b.n > 0) {
            acc.points.emplace_back(b.confidence, b.accuracy);
            acc.point_labels.push_back("n=" + std::to_string(b.n));  // what each point is worth
        }
    c.series.push_back(std::move(acc));
    for (const auto& b : ece.bins)
        c.bins.push_back(
            {fixed(b.lo, 1) + "\u2013" + fixed(b.hi, 1), b.lo, b.hi, b.accuracy, b.n, {}});
    for (const auto& item : items) {
        const auto at =
            static_cast<size_t>(std::clamp(static_cast<int>(std::floor(10 * item.x)), 0, 9));
        if (at < c.bins.size()) c.bins[at].items.push_back(item.id);
    }
    return c;
}

ReportChart latency_chart(const std::vector<double>& latencies_s,
                          const std::vector<std::string>& items) {
    ReportChart c;
    c.kind = ReportChart::Kind::Xy;
    c.title = "Latency";
    c.x_title = "milliseconds";
    c.y_title = "items";
    c.value_decimals = 0;
    if (latencies_s.empty()) return c;
    std::vector<double> ms;
    for (double s : latencies_s) ms.push_back(s * 1000.0);
    std::sort(ms.begin(), ms.end());
    const double lo = ms.front();
    const double hi = std::max(lo + 1e-3, ms.back());
    constexpr int kBins = 16;
    const double width = (hi - lo) / kBins;
    std::vector<int> counts(kBins, 0);
    const auto bin_of = [&](double v) {
        return static_cast<size_t>(std::clamp(static_cast<int>((v - lo) / width), 0, kBins - 1));
    };
    for (double v : ms) ++counts[bin_of(v)];
    for (int b = 0; b < kBins; ++b) {
        const double from = lo + b * width, to = lo + (b + 1) * width;
        const int n = counts[static_cast<size_t>(b)];
        c.bins.push_back(
            {fixed(from, 1) + "\u2013" + fixed(to, 1) + " ms", from, to, double(n), n, {}});
    }
    for (size_t i = 0; i < items.size() && i < latencies_s.size(); ++i)
        c.bins[bin_of(latencies_s[i] * 1000.0)].items.push_back(items[i]);
    // A step outline, one flat segment per bin.
    ChartSeries hist{"items", true, {{lo, 0}}, {}};
    for (int b = 0; b < kBins; ++b) {
        hist.points.emplace_back(lo + b * width, counts[static_cast<size_t>(b)]);
        hist.points.emplace_back(lo + (b + 1) * width, counts[static_cast<size_t>(b)]);
    }
    hist.points.emplace_back(hi, 0);
    c.series.push_back(std::move(hist));
    c.x_min = lo;
    c.x_max = hi;
    c.min = 0;
    c.max = *std::max_element(counts.begin(), counts.end()) + 1;
    for (auto [q, name] : {std::pair{0.5, "p50"}, std::pair{0.95, "p95"}}) {
        if (auto at = eval::percentile(ms, q))
            c.marks.push_back({*at, std::string(name) + " " + fixed(*at, 1) + " ms"});
    }
    return c;
}

ReportChart accuracy_chart(const std::map<std::string, eval::GroupStats>& groups, std::string title,
                           const std::map<std::string, std::vector<std::string>>& items) {
    ReportChart c;
    c.title = std::move(title);
    c.y_title = "% correct";
    c.value_suffix = "%";
    c.min = 0;
    c.max = 100;
    ChartSet set{"accuracy", {}, {}};
    for (const auto& [key, g] : groups) {
        c.categories.push_back(key + " (" + std::to_string(g.n) + ")");
        set.values.push_back(g.accuracy * 100.0);
        const double at = static_cast<double>(c.bins.size());
        const auto found = items.find(key);
        c.bins.push_back({key, at, at, g.accuracy * 100.0, g.n,
                          found == items.end() ? std::vector<std::string>{} : found->second});
    }
    c.sets.push_back(std::move(set));
    return c;
}

ReportChart axes_chart(const eval::Axes& a) {
    ReportChart c;
    c.title = "Scorecard axes";
    c.y_title = "points";
    c.min = 0;
    c.max = 100;
    ChartSet set{"axis", {}, {}};
    const std::pair<const char*, std::optional<double>> rows[] = {{"Intelligence", a.intelligence},
                                                                  {"Calibration", a.calibration},
                                                                  {"Speed", a.speed},
                                                                  {"Cost", a.cost}};
    for (const auto& [name, value] : rows) {
        c.categories.push_back(value ? std::string(name) : std::string(name) + " (n/a)");
        set.values.push_back(value.value_or(0.0));
    }
    c.sets.push_back(std::move(set));
    return c;
}

ReportChart leaderboard_chart(const eval::Leaderboard& board, std::optional<double> this_run) {
    ReportChart c;
    c.title = "Leaderboard (JevBench " + board.revision + ")";
    c.horizontal = true;
    c.x_title = "score";
    c.min = 0;
    c.max = 100;
    struct Entry {
        std::string name;
        double score;
        bool mine;
    };
    std::vector<Entry> entries;
    for (const auto& row : board.rows)
        entries.push_back({row.display.empty() ? row.key : row.display, row.score, false});
    if (this_run) entries.push_back({"THIS RUN (estimate)", *this_run, true});
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.score > b.score; });
    ChartSet set{"score", {}, {}};
    for (size_t i = 0; i < entries.size(); ++i) {
        c.categories.push_back(entries[i].name);
        set.values.push_back(entries[i].score);
        if (entries[i].mine) c.highlighted.push_back(static_cast<int>(i));
        c.max = std::max(c.max, entries[i].score);
    }
    c.sets.push_back(std::move(set));
    return c;
}

ReportChart latency_per_item_chart(const std::vector<compare::ItemComparisonRow>& rows) {
    ReportChart c;
    c.kind = ReportChart::Kind::Xy;
    c.title = "Latency per item";
    c.x_title = "item";
    c.y_title = "milliseconds (log)";
    c.log_y = true;
    c.value_decimals = 0;
    ChartSeries slot{"slot", true, {}, {}}, gen{"generative", true, {}, {}};
    double lo = 1e300, hi = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        c.x_labels.push_back(rows[i].id);
        const double x = static_cast<double>(i);
        for (auto [value, series] : {std::pair{rows[i].slot_latency_s, &slot},
                                     std::pair{rows[i].generative_latency_s, &gen}}) {
            if (!value) continue;
            const double ms = std::max(0.01, *value * 1000.0);
            series->points.emplace_back(x, ms);
            c.bins.push_back({rows[i].id + " (" + series->name + ")", x, x, ms, 1, {rows[i].id}});
            lo = std::min(lo, ms);
            hi = std::max(hi, ms);
        }
    }
    c.series = {std::move(slot), std::move(gen)};
    c.x_min = -0.5;
    c.x_max = std::max(0.5, static_cast<double>(rows.size()) - 0.5);
    if (hi <= 0) {
        lo = 1;
        hi = 10;
    }
    c.min = std::pow(10.0, std::floor(std::log10(lo)));
    c.max = std::pow(10.0, std::ceil(std::log10(hi * 1.0001)));
    return c;
}

ReportChart validity_chart(const compare::SuiteComparison& s) {
    ReportChart c;
    c.title = "Generative validity (of " + std::to_string(s.generative_replies) +
              " replies) and agreement (of " + std::to_string(s.compared) + " answers both gave)";
    c.y_title = "%";
    c.value_suffix = "%";
    c.min = 0;
    c.max = 100;
    c.categories = {
        "valid JSON (" + std::to_string(s.generative_valid) + "/" +
            std::to_string(s.generative_replies) + ")",
        "agreement (" + std::to_string(s.agreeing) + "/" + std::to_string(s.compared) + ")"};
    c.sets.push_back({"rate", {s.valid_share * 100.0, s.agreement * 100.0}, {}});
    return c;
}

ReportChart mode_accuracy_chart(const compare::SuiteComparison& s) {
    ReportChart c;
    c.title = "Accuracy of each mode (slot " + std::to_string(s.slot.correct) + "/" +
              std::to_string(s.slot.answers) + ", generative " +
              std::to_string(s.generative.correct) + "/" + std::to_string(s.generative.answers) +
              " answers)";
    c.y_title = "% correct";
    c.value_suffix = "%";
    c.min = 0;
    c.max = 100;
    c.categories = {"answers correct"};
    c.sets.push_back({"slot", {s.slot.accuracy * 100.0}, {}});
    c.sets.push_back({"generative", {s.generative.accuracy * 100.0}, {}});
    return c;
}

}  // namespace core::report
