#pragma once
// The stage-2 escalation curve as a report chart (core/evaluation/calibration.h): the share of
// questions sent to the stage-2 judge (its calls: the cost) against accuracy, one point per
// entropy threshold, with the suggested threshold marked. The same value is painted in the
// Studio (ui::ChartWidget) and in reports.

#include <optional>
#include <string>
#include <vector>

#include "core/evaluation/calibration.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_suite.h"
#include "core/reports/report.h"

namespace core::report {

ReportChart escalation_chart(const std::vector<eval::EscalationPoint>& curve,
                             const eval::ThresholdSuggestion& suggestion, std::string title);

// A labelled bench run's curve (its own probabilities, stage 2 assumed right) with the cheapest
// threshold reaching `target_accuracy`; nullopt when the run has no labelled questions.
std::optional<ReportChart> bench_escalation_chart(const eval::Suite& suite,
                                                  const std::vector<eval::ItemRecord>& records,
                                                  double target_accuracy = 0.95);

}  // namespace core::report
