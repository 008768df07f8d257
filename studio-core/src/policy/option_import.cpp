// Options from a CSV file (see core/policy/option_import.h).
#include "core/policy/option_import.h"

#include <fstream>
#include <set>

#include "base/text.h"
#include "core/dataset/csv_reader.h"

namespace core {

namespace {

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

Result<std::vector<Option>> options_from_csv(std::istream& in, const std::string& source) {
    dataset::CsvReader reader(in);
    dataset::CsvRecord record;
    std::vector<Option> options;
    std::set<std::string> seen;
    bool first = true;
    while (reader.next(record)) {
        const std::string where = source + ", line " + std::to_string(record.line);
        if (!record.error.empty()) return engine::bad_input(where + ": " + record.error);
        const std::string name = record.fields.empty() ? "" : trimmed(record.fields[0]);
        const bool header = first && (base::lower(name) == "name" || base::lower(name) == "option");
        first = false;
        if (header) continue;
        if (name.empty())
            return engine::bad_input(where + ": the option name (first column) is empty");
        if (!seen.insert(name).second)
            return engine::bad_input(where + ": the option \"" + name + "\" is listed twice");
        if (options.size() == static_cast<size_t>(kMaxOptions))
            return engine::bad_input(source + ": more than " + std::to_string(kMaxOptions) +
                                     " options; accepted: 2 to " + std::to_string(kMaxOptions));
        options.push_back({name, record.fields.size() > 1 ? trimmed(record.fields[1]) : ""});
    }
    if (options.size() < 2)
        return engine::bad_input(source + ": " + std::to_string(options.size()) +
                                 " options; accepted: 2 to " + std::to_string(kMaxOptions) +
                                 ", one per row (name, then an optional description)");
    return options;
}

Result<std::vector<Option>> options_from_csv_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path.string() + ": cannot be read");
    return options_from_csv(in, path.string());
}

}  // namespace core
