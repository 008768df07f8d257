// The calibrate use case: fit, escalation curve, suggestion, and the fit written into a source.
#include "core/evaluation/calibration_run.h"

#include "core/policy/policy_source_edit.h"

namespace core::eval {

bool CalibrateResult::inside_range() const {
    for (const auto& t : report.types)
        if (t.fitted && t.at_edge) return false;
    return true;
}

Result<CalibrateResult> calibrate(const std::vector<CalibrationItem>& items,
                                  const CalibrateOptions& options) {
    auto report = fit_calibration(items, options.fit);
    if (!report) return report.error();
    CalibrateResult out;
    out.report = std::move(*report);
    EscalationOptions eo;
    eo.temperature = out.report.temperature;
    eo.stage2_accuracy = options.stage2_accuracy;
    out.curve = escalation_curve(items, eo);
    out.suggestion = options.budget ? suggest_for_budget(out.curve, *options.budget)
                                    : suggest_for_accuracy(out.curve, options.target_accuracy);
    return out;
}

Result<PolicyTemperature> temperature_to_write(const PolicyTemperature& current,
                                               const CalibrationReport& report) {
    if (!report.temperature.is_set())
        return engine::bad_input(
            "nothing was fitted (too few labelled questions of every type): the policy is left "
            "as it was");
    if (!report.temperature.by_question.empty()) {
        // Per question: the fitted questions get their own T; the policy's one or per-type T
        // (and the other questions' own) stay for everything else.
        PolicyTemperature merged = current;
        for (const auto& [id, t] : report.temperature.by_question) merged.by_question[id] = t;
        return merged;
    }
    PolicyTemperature merged = report.temperature;
    for (auto type : {QuestionType::Noul, QuestionType::Choice, QuestionType::Score})
        if (!merged.by_type.count(type) && current.is_set() && current.for_type(type) != 1)
            merged.by_type[type] = current.for_type(type);
    return merged;
}

Result<std::string> source_with_temperature(std::string_view source,
                                            const PolicyTemperature& temperature) {
    const std::string value = policy_temperature_json(temperature).dump();
    auto edited = replace_schema_member(source, "temperature", value);
    if (!edited) return edited.error();
    if (auto spans = locate_form_spans(*edited); !spans)
        return engine::bad_input("the edited policy would not read back (" + spans.error().message +
                                 "); left as it was");
    return edited;
}

}  // namespace core::eval
