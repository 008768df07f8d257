#pragma once
// What a dataset run gives back: the output file a person opens (one row per data row) and
// the summary (accuracy, confusion and reliability per question when labelled, the answer
// distribution when not, the most uncertain rows, the failures and why). Both are built in one
// pass over the data file and the run's journal side by side, holding counts, never the rows.
//
// Output columns: the input columns first, then per question `<id>` (the winning answer),
// `<id>_p` (its probability), `<id>_entropy` (nats), `<id>_hesitation` (entropy / ln of the
// answer count), `<id>_agreement` (share of reads agreeing with the winner), and for a labelled
// question `expected_<id>` and `<id>_correct` (yes/no); last `error` (why the row failed, empty
// when it did not). CSV writes text (RFC 4180); JSONL keeps the input's JSON values, numbers
// as numbers and correct as true/false. The file is written beside its final name and renamed
// into place only when complete.

#include <array>
#include <cstddef>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/dataset/dataset_plan.h"
#include "core/evaluation/eval_score.h"

namespace core::dataset {

// One question's answers over the run.
struct QuestionTally {
    std::string id;
    std::vector<std::string> names;
    bool labelled = false;
    int answered = 0;
    std::vector<int> distribution;  // per name: rows answering it
    int scored = 0;                 // answered rows with ground truth
    int correct = 0;
    std::vector<std::vector<int>> confusion;  // [expected][predicted], names x names
    std::array<int, 10> bin_n{};              // reliability: top-label confidence bins
    std::array<double, 10> bin_confidence{}, bin_correct{};

    double accuracy() const { return scored ? static_cast<double>(correct) / scored : 0; }
    eval::Ece reliability() const;
};

struct UncertainRow {
    std::size_t row = 0;
    std::string id;
    std::string question;
    std::string answer;
    double probability = 0;
    double hesitation = 0;
};

struct FailedRow {
    std::size_t row = 0;
    std::string id;
    std::string reason;
};

struct DatasetSummary {
    std::size_t rows = 0, ok = 0, failed = 0;
    std::vector<QuestionTally> questions;
    std::vector<UncertainRow> most_uncertain;  // the 10 most hesitant answers, most first
    std::vector<FailedRow> failures;           // the first 50
    std::map<std::string, int> failure_kinds;  // bad_input, remote, engine, timeout
    long long prompt_tokens = 0, cached_prompt_tokens = 0;
    bool labelled = false;

    int scored() const;
    int correct() const;
    double accuracy() const;
    double cached_share() const;  // cached / prompt tokens (0 when the backend did not say)
};

// One finished row as the journal keeps it: the runner's record and the expected answers (as
// the question's names) the row was asked with.
struct RowOutcome {
    std::size_t row = 0;
    eval::ItemRecord record;
    std::map<std::string, std::string> expected;
    nlohmann::json to_json() const;
    static Result<RowOutcome> from_json(const nlohmann::json& j);
};

// Adds a row to the summary.
void tally(DatasetSummary& summary, const DataRow& row, const RowOutcome& outcome);
// An empty summary with the plan's questions.
DatasetSummary empty_summary(const DatasetPlan& plan);

// The output file. BadInput naming the path when it is not .csv/.jsonl or cannot be written.
class ResultWriter {
  public:
    static Result<std::unique_ptr<ResultWriter>> open(const std::string& path,
                                                      const DatasetPlan& plan);
    ~ResultWriter();  // without commit(): the temporary file is removed
    Result<void> write(const DataRow& row, const RowOutcome& outcome);
    Result<void> commit();  // fsync, rename into place

  private:
    ResultWriter() = default;
    std::string path_, tmp_;
    DataFormat format_ = DataFormat::Csv;
    const DatasetPlan* plan_ = nullptr;
    std::ofstream out_;
    bool committed_ = false;
};

// The output's column names (the CSV header).
std::vector<std::string> output_columns(const DatasetPlan& plan);
// One output row, typed, its values in output_columns order (JSONL writes it as it is, CSV as
// text; the Data view's table shows the same cells): input values as read, answers as strings,
// numbers rounded to 6 decimals, correct as true/false, null where a row has no value.
nlohmann::ordered_json output_row(const DatasetPlan& plan, const DataRow& row,
                                  const RowOutcome& outcome);

}  // namespace core::dataset
