#pragma once
// A choice question's options from a spreadsheet: a CSV file (RFC 4180, read by
// core/dataset/csv_reader.h) whose first column holds option names and whose second column, when
// there is one, their descriptions. A first row whose first cell is "name" or "option" (any case)
// is a header and is skipped. Up to kMaxOptions options; an empty name, a name listed twice, a
// damaged record or more than kMaxOptions rows are refused with the line named.

#include <filesystem>
#include <istream>
#include <vector>

#include "core/policy/schema.h"

namespace core {

Result<std::vector<Option>> options_from_csv(std::istream& in, const std::string& source);
Result<std::vector<Option>> options_from_csv_file(const std::filesystem::path& path);

}  // namespace core
