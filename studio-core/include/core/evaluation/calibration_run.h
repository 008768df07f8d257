#pragma once
// The calibrate use case over a labelled run's questions: the temperature fit
// (core/evaluation/calibration.h), the stage-2 escalation curve with a suggested threshold, and
// the policy source with the fitted temperature written in. dgem calibrate and the Studio's
// Calibrate dialog both run it, so the two show and write the same values.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluation/calibration.h"

namespace core::eval {

struct CalibrateOptions {
    CalibrationOptions fit;
    double stage2_accuracy = 1;  // the escalation curve's, where an item has no stage-2 answer
    // The suggestion: the most accurate threshold within `budget` (a share of the questions)
    // when given, else the cheapest reaching `target_accuracy`.
    double target_accuracy = 0.95;
    std::optional<double> budget;
};

struct CalibrateResult {
    CalibrationReport report;
    std::vector<EscalationPoint> curve;  // with the fitted temperature applied
    ThresholdSuggestion suggestion;
    // Whether every fitted type's fit (and its folds') stayed inside the search range.
    bool inside_range() const;
    // Whether anything was fitted (a type with too few labelled questions keeps T = 1).
    bool fitted() const { return report.temperature.is_set(); }
};

// Fits, draws the curve and suggests a threshold. BadInput as fit_calibration.
Result<CalibrateResult> calibrate(const std::vector<CalibrationItem>& items,
                                  const CalibrateOptions& options);

// What writing the fit puts into a policy whose temperature is `current`. A per-type fit: the
// fitted types, and the current T of every type the fit left alone (a type with too few labelled
// questions keeps what the policy had); questions' own T are dropped (the fitted type's T is
// meant for all its questions). A per-question fit: `current` with the fitted questions' T set.
// BadInput when nothing was fitted.
Result<PolicyTemperature> temperature_to_write(const PolicyTemperature& current,
                                               const CalibrationReport& report);

// The policy source with its "temperature" set to `temperature`, checked to read back; an error
// (naming what failed) leaves the caller's source as it was: a fit is written whole or not at all.
Result<std::string> source_with_temperature(std::string_view source,
                                            const PolicyTemperature& temperature);

}  // namespace core::eval
