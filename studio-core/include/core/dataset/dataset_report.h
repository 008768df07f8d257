#pragma once
// A dataset run's report (HTML, PDF, JSON or CSV through core::report::write_report): the run's
// facts, accuracy per question, a confusion matrix and a reliability chart per labelled
// question, the answer distribution per question, the most uncertain rows and the failures.

#include <string>

#include <nlohmann/json.hpp>

#include "core/dataset/dataset_plan.h"
#include "core/dataset/dataset_results.h"
#include "core/reports/report.h"

namespace core::dataset {

struct DatasetReportInput {
    const DatasetPlan* plan = nullptr;
    const DatasetSummary* summary = nullptr;
    nlohmann::json settings = nlohmann::json::object();  // the journal's header
    double wall_s = 0;
    report::Provenance provenance;
};

report::Report dataset_report(const DatasetReportInput& input);

// The summary as JSON (what `dgem bench -t -d --json` prints and the report's data holds).
nlohmann::ordered_json summary_json(const DatasetSummary& summary);

}  // namespace core::dataset
