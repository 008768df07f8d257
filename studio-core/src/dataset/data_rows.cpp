// Rows of CSV and JSONL datasets, one at a time.
#include "core/dataset/data_rows.h"

#include <algorithm>
#include <set>

#include "base/text.h"

namespace core::dataset {

namespace {

using ojson = nlohmann::ordered_json;

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

// An expected answer as text: strings as they are, booleans as yes/no, numbers as written.
std::optional<std::string> answer_text(const ojson& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return std::string(v.get<bool>() ? "yes" : "no");
    if (v.is_number()) return v.dump();
    return std::nullopt;
}

std::string id_text(const ojson& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// A JSONL row's ground truth: top-level expected_<question> keys and an "expected" object.
void read_expected(const ojson& obj, DataRow& row) {
    auto add = [&](const std::string& question, const ojson& value) {
        if (value.is_null()) return;
        auto text = answer_text(value);
        if (!text) {
            row.error = "expected answer of " + question + " is " + value.type_name() +
                        "; accepted: a string, true/false or a number";
            return;
        }
        if (!text->empty()) row.expected[question] = *text;
    };
    for (auto it = obj.begin(); it != obj.end(); ++it)
        if (starts_with(it.key(), kExpectedPrefix))
            add(it.key().substr(std::char_traits<char>::length(kExpectedPrefix)), it.value());
    if (auto e = obj.find("expected"); e != obj.end() && !e->is_null()) {
        if (!e->is_object()) {
            row.error = "\"expected\" is " + std::string(e->type_name()) +
                        "; accepted: an object of question id -> answer";
            return;
        }
        for (auto it = e->begin(); it != e->end(); ++it) add(it.key(), it.value());
    }
}

}  // namespace

std::string_view to_string(DataFormat format) {
    return format == DataFormat::Csv ? "csv" : "jsonl";
}

Result<DataFormat> data_format_for(const std::filesystem::path& path) {
    const std::string ext = base::lower(path.extension().string());
    if (ext == ".csv") return DataFormat::Csv;
    if (ext == ".jsonl" || ext == ".ndjson") return DataFormat::Jsonl;
    return engine::bad_input(path.string() +
                             ": not a dataset file; accepted: .csv (a header row, then one row "
                             "per item) or .jsonl (one JSON object a line)");
}

Result<std::unique_ptr<DataReader>> DataReader::open(const std::filesystem::path& path) {
    auto format = data_format_for(path);
    if (!format) return format.error();
    std::unique_ptr<DataReader> r(new DataReader());
    r->format_ = *format;
    r->name_ = path.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return engine::bad_input(path.string() + ": no such dataset file");
    r->in_.open(path, std::ios::binary);
    if (!r->in_) return engine::bad_input(path.string() + ": cannot read the dataset file");
    if (r->format_ == DataFormat::Jsonl) return r;
    r->csv_ = std::make_unique<CsvReader>(r->in_);
    CsvRecord head;
    if (!r->csv_->next(head))
        return engine::bad_input(path.string() +
                                 ": empty; a CSV dataset starts with a header row naming its "
                                 "columns");
    if (!head.error.empty())
        return engine::bad_input(path.string() + ": the header row: " + head.error);
    std::set<std::string> seen;
    for (size_t i = 0; i < head.fields.size(); ++i) {
        const std::string name = trimmed(head.fields[i]);
        if (name.empty())
            return engine::bad_input(path.string() + ": header column " + std::to_string(i + 1) +
                                     " has no name; every column needs one");
        if (!seen.insert(name).second)
            return engine::bad_input(path.string() + ": header column \"" + name +
                                     "\" appears twice");
        if (name == "id") r->id_column_ = static_cast<int>(i);
        r->header_.push_back(name);
    }
    return r;
}

bool DataReader::next(DataRow& row) {
    row = DataRow{};
    return format_ == DataFormat::Csv ? next_csv(row) : next_jsonl(row);
}

bool DataReader::next_csv(DataRow& row) {
    CsvRecord rec;
    if (!csv_->next(rec)) return false;
    row.number = ++rows_;
    row.line = rec.line;
    row.id = std::to_string(row.number);
    if (!rec.error.empty()) {
        row.error = rec.error;
        return true;
    }
    if (rec.fields.size() != header_.size()) {
        row.error = "has " + std::to_string(rec.fields.size()) + " columns, the header " +
                    std::to_string(header_.size());
        return true;
    }
    if (id_column_ >= 0 && !rec.fields[static_cast<size_t>(id_column_)].empty())
        row.id = rec.fields[static_cast<size_t>(id_column_)];
    for (size_t i = 0; i < header_.size(); ++i) {
        const std::string& name = header_[i];
        if (starts_with(name, kExpectedPrefix)) {
            if (!rec.fields[i].empty())
                row.expected[name.substr(std::char_traits<char>::length(kExpectedPrefix))] =
                    rec.fields[i];
            continue;
        }
        row.columns[name] = rec.fields[i];
        row.variables[name] = std::move(rec.fields[i]);
    }
    return true;
}

bool DataReader::next_jsonl(DataRow& row) {
    std::string text;
    for (;;) {
        if (!std::getline(in_, text)) return false;
        ++line_;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (line_ == 1 && starts_with(text, "\xEF\xBB\xBF")) text.erase(0, 3);
        if (text.find_first_not_of(" \t") != std::string::npos) break;
    }
    row.number = ++rows_;
    row.line = line_;
    row.id = std::to_string(row.number);
    ojson obj = ojson::parse(text, nullptr, false);
    if (obj.is_discarded() || !obj.is_object()) {
        row.error = obj.is_discarded() ? "not JSON"
                                       : std::string("a JSON ") + obj.type_name() +
                                             "; accepted: one JSON object a line";
        return true;
    }
    if (auto id = obj.find("id"); id != obj.end() && !id->is_null()) {
        row.id = id_text(*id);
        row.columns["id"] = *id;
    }
    read_expected(obj, row);
    if (auto vars = obj.find("variables"); vars != obj.end() && !vars->is_null()) {
        if (!vars->is_object()) {
            row.error = "\"variables\" is " + std::string(vars->type_name()) +
                        "; accepted: an object of name -> value";
            return true;
        }
        row.variables = *vars;
    } else {
        for (auto it = obj.begin(); it != obj.end(); ++it)
            if (it.key() != "id" && it.key() != "expected" &&
                !starts_with(it.key(), kExpectedPrefix))
                row.variables[it.key()] = it.value();
    }
    for (auto it = row.variables.begin(); it != row.variables.end(); ++it)
        row.columns[it.key()] = it.value();
    return true;
}

Result<DataShape> scan_data(const std::filesystem::path& path) {
    auto reader = DataReader::open(path);
    if (!reader) return reader.error();
    DataShape shape;
    shape.format = (*reader)->format();
    std::set<std::string> seen, labelled;
    for (const auto& h : (*reader)->header())
        if (!starts_with(h, kExpectedPrefix)) {
            shape.columns.push_back(h);
            seen.insert(h);
        } else {
            labelled.insert(h.substr(std::char_traits<char>::length(kExpectedPrefix)));
        }
    DataRow row;
    while ((*reader)->next(row)) {
        shape.rows++;
        if (!row.error.empty()) shape.bad_rows++;
        if (shape.format == DataFormat::Jsonl) {
            for (auto it = row.columns.begin(); it != row.columns.end(); ++it)
                if (seen.insert(it.key()).second) shape.columns.push_back(it.key());
            for (const auto& [q, a] : row.expected) labelled.insert(q);
        }
    }
    if (shape.rows == 0)
        return engine::bad_input(path.string() + ": no data rows" +
                                 (shape.format == DataFormat::Csv
                                      ? std::string(" after the header")
                                      : std::string("; a JSONL dataset has one JSON object a "
                                                    "line")));
    shape.labelled_questions.assign(labelled.begin(), labelled.end());
    return shape;
}

}  // namespace core::dataset
