#pragma once
// A dataset's rows, read one at a time from a CSV or JSONL file (dgem's datasets cookbook):
// one row per item, its fields the template's variables, ground truth optional.
//
// CSV: a header row names the columns (core/dataset/csv_reader.h reads RFC 4180); a column
//   `expected_<question>` is the row's ground truth for that question, every other column an
//   input column and a variable of the same name; a column `id` names the row.
// JSONL: one object a line, in any of dgem's three forms: the variables at the top level
//   ({"id": .., "ticket": ..}), inside "variables" ({"id": .., "variables": {..}}), and ground
//   truth as top-level `expected_<question>` keys or an "expected" object ({"expected":
//   {"urgent": "yes"}}). Blank lines are skipped.
// A row's id is its `id` field when it has one, else its row number (1-based, the header not
// counted). A row that does not parse (CSV: unterminated quote, wrong column count; JSONL: not
// a JSON object) comes back with `error` set and the reader goes on: it is the run's to count
// as failed, never to drop.

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/dataset/csv_reader.h"
#include "engine/result.h"

namespace core::dataset {

using engine::Error;
using engine::Result;

enum class DataFormat { Csv, Jsonl };
std::string_view to_string(DataFormat format);  // "csv", "jsonl"
// From the file's extension: .csv is CSV; .jsonl and .ndjson are JSONL. BadInput naming the
// file and what is accepted otherwise.
Result<DataFormat> data_format_for(const std::filesystem::path& path);

inline constexpr const char* kExpectedPrefix = "expected_";

struct DataRow {
    std::size_t number = 0;  // 1-based; the header is not counted
    std::size_t line = 0;    // the file line the row starts on
    std::string id;          // its `id` field, else the row number
    // The input columns as the output repeats them: CSV every column but the expected_ ones (as
    // text); JSONL `id` and the variables (as JSON values).
    nlohmann::ordered_json columns = nlohmann::ordered_json::object();
    nlohmann::ordered_json variables = nlohmann::ordered_json::object();  // name -> value
    std::map<std::string, std::string> expected;  // question id -> answer as written
    std::string error;                            // set when the row did not parse
};

// Streams the rows of one file.
class DataReader {
  public:
    // Opens `path` (format from its extension) and reads a CSV file's header. BadInput naming
    // the file: missing or unreadable, not .csv/.jsonl, a CSV file with no header row or a
    // header with an empty or repeated column name.
    static Result<std::unique_ptr<DataReader>> open(const std::filesystem::path& path);

    DataFormat format() const { return format_; }
    // CSV: the header's columns (expected_ ones included), empty for JSONL.
    const std::vector<std::string>& header() const { return header_; }

    // The next row; false at the end of the file.
    bool next(DataRow& row);

  private:
    DataReader() = default;
    bool next_csv(DataRow& row);
    bool next_jsonl(DataRow& row);

    DataFormat format_ = DataFormat::Csv;
    std::string name_;
    std::ifstream in_;
    std::unique_ptr<CsvReader> csv_;
    std::vector<std::string> header_;
    int id_column_ = -1;
    std::size_t rows_ = 0;
    std::size_t line_ = 0;  // JSONL lines read
};

// What a first pass over a file finds, holding nothing but names and counts: the rows, the
// input columns (CSV: the header's; JSONL: every key rows use, in first-seen order), the
// questions some row has ground truth for, and how many rows did not parse.
struct DataShape {
    DataFormat format = DataFormat::Csv;
    std::size_t rows = 0;
    std::size_t bad_rows = 0;
    std::vector<std::string> columns;
    std::vector<std::string> labelled_questions;  // sorted
};
Result<DataShape> scan_data(const std::filesystem::path& path);

}  // namespace core::dataset
