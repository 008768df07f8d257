#pragma once
// The Bench view's charts (QtCharts), each built from the scored values of a run, so a chart
// shows exactly the numbers the scorecard and the report hold. Colours follow the palette's
// lightness (a dark chart theme on a dark palette).

#include <QString>
#include <map>
#include <optional>
#include <vector>

#include "core/compare.h"
#include "core/eval_score.h"

class QChart;

namespace ui::charts {

// Accuracy against confidence per non-empty bin (series "accuracy"), the diagonal ("ideal"),
// and each bin's count as its point label.
QChart* reliability(const core::eval::Ece& ece, const QString& title);
// A histogram of latencies (milliseconds, series "items") with vertical p50 and p95 marks.
QChart* latency(const std::vector<double>& latencies_s);
// Accuracy per group (tier, family ...), in percent, one bar per group (set "accuracy").
QChart* accuracyBy(const std::map<std::string, core::eval::GroupStats>& groups,
                   const QString& title);
// The four axes, 0..100; a missing axis is drawn as 0 and named "(n/a)".
QChart* axes(const core::eval::Axes& axes);
// The leaderboard's published scores with this run (when it has an estimate) at its place,
// highlighted (set "this run"), best on top.
QChart* leaderboard(const core::eval::Leaderboard& board, std::optional<double> this_run);

// A suite comparison (RunMode Both), from core::compare's values:
// the latency of each mode per item in milliseconds on a log axis (series "slot" and
// "generative", x = the item's place in `rows`, the item ids on the axis; a side an item lacks
// has no point there);
QChart* latencyPerItem(const std::vector<core::compare::ItemComparisonRow>& rows);
// the share of valid generative replies and the agreement between the modes, in percent (one set
// "rate": valid, agreement);
QChart* agreementValidity(const core::compare::SuiteComparison& comparison);
// the accuracy of each mode against the expected answers, in percent (sets "slot" and
// "generative", one bar each).
QChart* accuracyByMode(const core::compare::SuiteComparison& comparison);

// Light or dark chart theme from the application palette.
void applyPaletteTheme(QChart* chart);

}  // namespace ui::charts
