// A dataset checked against its policy, and rows turned into runner items.
#include "core/dataset/dataset_plan.h"

#include <QCryptographicHash>

#include <algorithm>
#include <fstream>
#include <set>

#include "base/text.h"
#include "core/evaluation/eval_suite.h"
#include "core/template/template.h"

namespace core::dataset {

namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

// SHA-256 of a file read in blocks, so a big dataset is never held whole.
Result<std::string> file_sha256_streamed(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(path.string() + ": cannot read the dataset file");
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> block(1 << 16);
    while (in) {
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        hash.addData(QByteArrayView(block.data(), static_cast<qsizetype>(in.gcount())));
    }
    return hash.result().toHex().toStdString();
}

std::size_t count_no_value(const PolicyFile& policy, const json& data) {
    auto r = render_template(policy.source, data, policy.name);
    if (!r) return std::string::npos;
    std::size_t n = 0;
    for (auto at = r->find("<no value>"); at != std::string::npos;
         at = r->find("<no value>", at + 1))
        ++n;
    return n;
}

// The variables a template cannot do without: rendering without them leaves Go's "<no value>"
// where they were read (a variable behind `default` renders its default instead).
std::vector<std::string> needed_variables(const PolicyFile& policy,
                                          const std::vector<std::string>& variables) {
    const std::size_t none = count_no_value(policy, json::object());
    std::vector<std::string> needed;
    if (none == std::string::npos || none == 0) return needed;
    for (const auto& v : variables) {
        const std::size_t with = count_no_value(policy, json{{v, "probe"}});
        if (with != std::string::npos && with < none) needed.push_back(v);
    }
    return needed;
}

bool blank(const ojson& v) {
    if (v.is_null()) return true;
    if (!v.is_string()) return false;
    return v.get<std::string>().find_first_not_of(" \t\r\n") == std::string::npos;
}

// The template's data for a row: each supplied variable from its column. CSV cells are text and
// follow dgem's -v rules (true/false, JSON lists and objects); JSONL values are JSON already.
json row_data(const DatasetPlan& plan, const DataRow& row) {
    if (plan.shape.format == DataFormat::Csv) {
        std::map<std::string, std::string> vars;
        for (const auto& [var, column] : plan.sources)
            if (auto it = row.variables.find(column); it != row.variables.end())
                vars[var] = it->get<std::string>();
        return template_data_from_variables(vars);
    }
    json data = json::object();
    for (const auto& [var, column] : plan.sources)
        if (auto it = row.variables.find(column); it != row.variables.end())
            data[var] = json::parse(it->dump());
    return data;
}

// The row's expected answer of `q` as one of its names; an error text when it is none of them.
std::optional<std::string> expected_name(const Question& q, const std::string& written,
                                         std::string& error) {
    const auto labels = q.labels();
    const auto alts = q.alternatives();
    std::string want = base::lower(written);
    while (!want.empty() && (want.back() == ' ' || want.back() == '\t')) want.pop_back();
    while (!want.empty() && (want.front() == ' ' || want.front() == '\t')) want.erase(0, 1);
    if (q.type == QuestionType::Noul && (want == "true" || want == "false"))
        want = want == "true" ? "yes" : "no";
    for (size_t i = 0; i < alts.size(); ++i)
        if (base::lower(alts[i]) == want) return alts[i];
    for (size_t i = 0; i < labels.size() && i < alts.size(); ++i)
        if (base::lower(labels[i]) == want) return alts[i];
    error = std::string(kExpectedPrefix) + q.id + " \"" + written + "\" is not an answer of " +
            q.id + " (accepted: " + joined(alts) + ")";
    return std::nullopt;
}

// The policy rendered for a row, or why it cannot be.
Result<eval::SuiteItem> render_row(const DatasetPlan& plan, const DataRow& row) {
    if (!row.error.empty()) return engine::bad_input(row.error);
    for (const auto& v : plan.needed) {
        const std::string& column = plan.sources.at(v);
        auto it = row.variables.find(column);
        if (it == row.variables.end() || blank(*it))
            return engine::bad_input("lacks the variable " + v + " (column " + column +
                                     (it == row.variables.end() ? " is missing)" : " is empty)"));
    }
    auto rendered = render_policy_data(plan.policy, row_data(plan, row));
    if (!rendered) return rendered.error();
    auto schema = parse_schema(rendered->schema, plan.policy.name);
    if (!schema)
        return engine::bad_input("the policy renders to an invalid schema: " +
                                 schema.error().message);
    eval::SuiteItem item;
    item.id = row.id;
    item.line = static_cast<int>(row.line);
    item.source = plan.data_path.string() + ":" + std::to_string(row.line);
    item.schema = std::move(*schema);
    item.state = std::move(rendered->state);
    for (const auto& q : item.schema.questions) {
        eval::ItemQuestion iq{q.id, q.alternatives(), ""};
        if (auto e = row.expected.find(q.id); e != row.expected.end()) {
            std::string error;
            auto name = expected_name(q, e->second, error);
            if (!name) return engine::bad_input(error);
            iq.expected = *name;
        }
        item.questions.push_back(std::move(iq));
    }
    return item;
}

// The policy's questions and layout, from its rendering with the first rows that render.
Result<void> plan_questions(DatasetPlan& plan) {
    auto reader = DataReader::open(plan.data_path);
    if (!reader) return reader.error();
    std::optional<eval::SuiteItem> first;
    DataRow row;
    for (int tried = 0; tried < 100 && !first && (*reader)->next(row); ++tried)
        if (auto item = render_row(plan, row)) first = std::move(*item);
    if (!first) {
        // No early row renders (each will fail on its own): take the template's defaults.
        auto rendered = render_policy_data(plan.policy, json::object());
        if (!rendered) return rendered.error();
        auto schema = parse_schema(rendered->schema, plan.policy.name);
        if (!schema) return schema.error();
        first.emplace();
        first->schema = std::move(*schema);
        for (const auto& q : first->schema.questions)
            first->questions.push_back({q.id, q.alternatives(), ""});
    }
    plan.layout = first->schema.layout;
    plan.policy_cascade = first->schema.cascade;
    std::set<std::string> labelled(plan.shape.labelled_questions.begin(),
                                   plan.shape.labelled_questions.end());
    std::vector<std::string> ids;
    for (const auto& iq : first->questions) {
        plan.questions.push_back({iq.id, iq.names, labelled.erase(iq.id) > 0});
        ids.push_back(iq.id);
    }
    if (!labelled.empty())
        return engine::bad_input(plan.data_path.string() + ": ground truth " + kExpectedPrefix +
                                 *labelled.begin() + ": the policy " + plan.policy.name +
                                 " has no question \"" + *labelled.begin() +
                                 "\" (questions: " + joined(ids) + ")");
    return {};
}

// Which column supplies each variable; errors for a mapping that names nothing real and for a
// needed variable nothing supplies.
Result<void> plan_sources(DatasetPlan& plan) {
    const std::string& file = plan.data_path.string();
    const std::set<std::string> columns(plan.shape.columns.begin(), plan.shape.columns.end());
    const std::set<std::string> vars(plan.variables.begin(), plan.variables.end());
    for (const auto& [var, column] : plan.column_map) {
        if (!vars.count(var))
            return engine::bad_input("--map " + var + "=" + column + ": the policy " +
                                     plan.policy.name + " reads no variable \"" + var +
                                     "\" (it reads: " + joined(plan.variables) + ")");
        if (!columns.count(column))
            return engine::bad_input("--map " + var + "=" + column + ": " + file +
                                     " has no column \"" + column +
                                     "\" (columns: " + joined(plan.shape.columns) + ")");
    }
    for (const auto& v : plan.variables) {
        if (auto m = plan.column_map.find(v); m != plan.column_map.end())
            plan.sources[v] = m->second;
        else if (columns.count(v))
            plan.sources[v] = v;
        else
            plan.defaulted.push_back(v);
    }
    for (const auto& v : plan.needed)
        if (!plan.sources.count(v))
            return engine::bad_input(
                file + ": no column supplies the variable \"" + v + "\", which the policy " +
                plan.policy.name + " needs (it has no default; columns: " +
                joined(plan.shape.columns) + "); name one with --map " + v + "=COLUMN");
    if (plan.sources.empty() && !plan.variables.empty())
        return engine::bad_input(file + ": no column matches a variable of the policy " +
                                 plan.policy.name + " (it reads: " + joined(plan.variables) +
                                 "; columns: " + joined(plan.shape.columns) +
                                 "); rename with --map VARIABLE=COLUMN");
    return {};
}

}  // namespace

bool DatasetPlan::labelled() const {
    return std::any_of(questions.begin(), questions.end(),
                       [](const DatasetQuestion& q) { return q.labelled; });
}

Result<std::pair<std::string, std::string>> parse_column_map(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        return engine::bad_input("--map " + text +
                                 ": accepted: VARIABLE=COLUMN (the policy's variable takes the "
                                 "file's column)");
    return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

Result<DatasetPlan> plan_dataset(const std::filesystem::path& policy_path,
                                 const std::filesystem::path& data_path,
                                 const std::map<std::string, std::string>& column_map) {
    DatasetPlan plan;
    if (policy_path.empty())
        return engine::bad_input("no policy: name the policy template the rows go through");
    auto policy = load_policy_file(policy_path);
    if (!policy)
        return engine::bad_input("policy " + policy_path.string() + ": " + policy.error().message);
    plan.policy = std::move(*policy);
    plan.data_path = data_path;
    plan.column_map = column_map;
    auto shape = scan_data(data_path);
    if (!shape) return shape.error();
    plan.shape = std::move(*shape);
    auto sha = file_sha256_streamed(data_path);
    if (!sha) return sha.error();
    plan.data_sha256 = *sha;
    plan.policy_sha256 = eval::sha256_hex(plan.policy.source);
    auto vars = template_variables_in_order(plan.policy.source, plan.policy.name);
    if (!vars) return vars.error();
    plan.variables = *vars;
    plan.needed = needed_variables(plan.policy, plan.variables);
    if (auto s = plan_sources(plan); !s) return s.error();
    if (auto q = plan_questions(plan); !q) return q.error();
    return plan;
}

std::string row_failure(const DataRow& row, const std::string& reason) {
    return "row " + std::to_string(row.number) + " (id " + row.id + "): " + reason;
}

eval::StreamedItem row_item(const DatasetPlan& plan, const DataRow& row) {
    eval::StreamedItem out;
    out.seq = row.number;
    auto item = render_row(plan, row);
    if (item) {
        out.item = std::move(*item);
        return out;
    }
    eval::ItemRecord failed;
    failed.id = row.id;
    failed.ok = false;
    failed.error = row_failure(row, item.error().message);
    failed.error_kind = "bad_input";
    out.failed = std::move(failed);
    return out;
}

}  // namespace core::dataset
