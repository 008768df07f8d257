#pragma once
// A dataset checked against a policy before any row runs, and each row turned into the item
// the evaluation runner decides.
//
// Columns feed variables by name; a mapping renames (`--map ticket=body`: the variable ticket
// takes the column body). Checked up front, each stopping the run with a message naming it:
// a missing policy, a file that is not CSV or JSONL, an empty file, a mapping naming a column
// the file lacks or a variable the policy does not read, ground truth for a question the policy
// lacks, and a variable the template needs (one with no default) that no column supplies.
// Per row, later, as failures of that row alone: it did not parse, a needed variable is empty,
// the policy renders to an invalid schema, an expected answer is not one of the question's.

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/dataset/data_rows.h"
#include "core/evaluation/eval_runner.h"
#include "core/policy/policy.h"
#include "core/policy/schema.h"

namespace core::dataset {

// "var=column" (a --map flag); BadInput naming the text and the accepted form otherwise.
Result<std::pair<std::string, std::string>> parse_column_map(const std::string& text);

struct DatasetQuestion {
    std::string id;
    std::vector<std::string> names;  // the answers (option, level or yes/no names), label order
    bool labelled = false;           // some row has ground truth for it
};

struct DatasetPlan {
    PolicyFile policy;
    std::filesystem::path data_path;
    DataShape shape;  // shape.rows may be lowered: the run covers the first shape.rows rows
    std::string data_sha256;
    std::string policy_sha256;
    std::vector<std::string> variables;             // what the template reads, in source order
    std::vector<std::string> needed;                // of them, those with no default
    std::map<std::string, std::string> sources;     // variable -> the column supplying it
    std::vector<std::string> defaulted;             // variables no column supplies (defaults)
    std::map<std::string, std::string> column_map;  // as asked: variable -> column
    std::vector<DatasetQuestion> questions;  // the policy's, rendered with the first good row
    Layout layout = Layout::DocumentFirst;   // the rendered schema's
    // A stage-2 cascade runs (eval::RunSettings::judge): the output gains each question's
    // <id>_escalated, <id>_stage1, <id>_stage2 and <id>_stage2_ms columns.
    bool cascade = false;
    CascadeSettings policy_cascade;  // the policy's cascade keys (rendered with the first row)
    bool labelled() const;
};

// Loads the policy, scans the data file (one streaming pass: rows, columns, ground truth) and
// checks them against each other. `column_map`: variable -> column.
Result<DatasetPlan> plan_dataset(const std::filesystem::path& policy_path,
                                 const std::filesystem::path& data_path,
                                 const std::map<std::string, std::string>& column_map);

// A row as the runner's item: the policy rendered with the row's variables, every question of
// it with the row's expected answer (empty when unlabelled). A row that cannot become one comes
// back as a failed record naming its row number, id and the reason (error_kind bad_input).
eval::StreamedItem row_item(const DatasetPlan& plan, const DataRow& row);

// "row N (id X): reason", as failures are reported.
std::string row_failure(const DataRow& row, const std::string& reason);

}  // namespace core::dataset
