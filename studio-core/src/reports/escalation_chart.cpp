// The escalation curve chart.
#include "core/reports/escalation_chart.h"

#include <cmath>
#include <cstdio>

#include "core/evaluation/calibration_input.h"

namespace core::report {

namespace {

std::string number(double v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

}  // namespace

ReportChart escalation_chart(const std::vector<eval::EscalationPoint>& curve,
                             const eval::ThresholdSuggestion& suggestion, std::string title) {
    ReportChart c;
    c.kind = ReportChart::Kind::Xy;
    c.title = std::move(title);
    c.x_title = "escalated to stage 2 (% of questions: stage-2 calls)";
    c.y_title = "accuracy %";
    c.x_min = 0;
    c.x_max = 100;
    c.value_decimals = 0;
    double lo = 100;
    ChartSeries line{"accuracy", true, {}, {}};
    // A threshold label every 15 points of X or more (every point's would overprint).
    double labelled_at = -100;
    for (const auto& p : curve) {
        const double x = 100 * p.escalated_share;
        line.points.emplace_back(x, 100 * p.accuracy);
        const bool label = x - labelled_at >= 15;
        line.point_labels.push_back(label ? "≥" + number(p.threshold, 2) + " nats" : "");
        if (label) labelled_at = x;
        lo = std::min(lo, 100 * p.accuracy);
    }
    c.min = std::max(0.0, std::floor(lo / 10) * 10);
    c.max = 100;
    c.series.push_back(std::move(line));
    if (suggestion.found)
        c.marks.push_back({100 * suggestion.point.escalated_share,
                           "suggested " + number(suggestion.point.threshold, 3) + " nats"});
    return c;
}

std::optional<ReportChart> bench_escalation_chart(const eval::Suite& suite,
                                                  const std::vector<eval::ItemRecord>& records,
                                                  double target_accuracy) {
    const auto items = eval::calibration_items(suite, records);
    if (items.size() < 2) return std::nullopt;
    const auto curve = eval::escalation_curve(items, {});
    return escalation_chart(curve, eval::suggest_for_accuracy(curve, target_accuracy),
                            "Escalation curve (" + std::to_string(items.size()) +
                                " questions, stage 2 assumed right; target " +
                                number(100 * target_accuracy, 0) + "%)");
}

}  // namespace core::report
