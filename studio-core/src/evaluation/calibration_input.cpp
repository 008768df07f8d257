// Reading a run's labelled questions for the temperature fit.
#include "core/evaluation/calibration_input.h"

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "base/text.h"
#include "core/evaluation/bench_run.h"

namespace core::eval {

namespace {

using nlohmann::json;

struct Reader {
    const Schema* policy = nullptr;
    const Suite* suite = nullptr;
    std::map<std::string, const SuiteItem*> by_id;
    CalibrationInput out;

    void skip(const std::string& why) {
        if (out.skipped++ == 0) out.first_skip = why;
    }

    QuestionType type_of(const std::string& item, const std::string& question,
                         const std::vector<std::string>& names) const {
        auto in = [&](const Schema& s) -> std::optional<QuestionType> {
            for (const auto& q : s.questions)
                if (q.id == question) return q.type;
            return std::nullopt;
        };
        if (policy)
            if (auto t = in(*policy)) return *t;
        if (auto it = by_id.find(item); it != by_id.end())
            if (auto t = in(it->second->schema)) return *t;
        if (names.size() == 2 && base::lower(names[0]) == "yes" && base::lower(names[1]) == "no")
            return QuestionType::Noul;
        return QuestionType::Choice;
    }

    void add(const std::string& where, const std::string& item, const std::string& question,
             std::optional<QuestionType> type, const std::vector<std::string>& names,
             const std::vector<double>& probs, const std::string& expected) {
        if (expected.empty()) return skip(where + ": " + question + " has no expected answer");
        if (names.size() != probs.size() || names.size() < 2)
            return skip(where + ": " + question + "'s names and probabilities do not match");
        int index = -1;
        for (size_t i = 0; i < names.size(); ++i)
            if (base::lower(names[i]) == base::lower(expected)) index = static_cast<int>(i);
        if (index < 0)
            return skip(where + ": " + question + " expects \"" + expected +
                        "\", which is not one of its answers");
        double sum = 0;
        for (double p : probs) sum += p;
        if (!(sum > 0)) return skip(where + ": " + question + " has no probability mass");
        CalibrationItem c;
        c.item = item;
        c.question = question;
        c.type = type ? *type : type_of(item, question, names);
        for (double p : probs) c.probs.push_back(p / sum);
        c.expected = index;
        out.items.push_back(std::move(c));
    }

    std::string suite_expected(const std::string& item, const std::string& question) const {
        auto it = by_id.find(item);
        if (it == by_id.end()) return "";
        for (const auto& q : it->second->questions)
            if (q.id == question) return q.expected;
        return "";
    }

    // A runner's record (dataset rows carry "expected"; bench records take the suite's).
    void record(const std::string& where, const json& line) {
        if (!line.value("ok", false)) return skip(where + ": the record failed");
        const std::string item = line.value("id", "");
        const json expected = line.value("expected", json::object());
        for (const auto& q : line["questions"]) {
            const std::string id = q.value("id", "");
            std::vector<std::string> names = q.value("names", std::vector<std::string>{});
            std::vector<double> probs = q.value("probs", std::vector<double>{});
            std::string want =
                expected.is_object() && expected.contains(id) && expected[id].is_string()
                    ? expected[id].get<std::string>()
                    : suite_expected(item, id);
            add(where, item, id, std::nullopt, names, probs, want);
        }
    }

    // {"item", "question", "type", "probs": {name: p}, "expected": name}
    Result<void> plain(const std::string& where, const json& line) {
        std::optional<QuestionType> type;
        if (line.contains("type")) {
            type = line["type"].is_string() ? parse_question_type(line["type"].get<std::string>())
                                            : std::nullopt;
            if (!type)
                return engine::bad_input(where + ": type " + line["type"].dump() +
                                         " is not accepted; accepted: noul, choice, score");
        }
        std::vector<std::string> names;
        std::vector<double> probs;
        for (const auto& [name, p] : line["probs"].items()) {
            if (!p.is_number())
                return engine::bad_input(where + ": probs." + name + " is not a number");
            names.push_back(name);
            probs.push_back(p.get<double>());
        }
        add(where, line.value("item", ""), line.value("question", "decision"), type, names, probs,
            line.value("expected", ""));
        return {};
    }
};

}  // namespace

std::vector<CalibrationItem> calibration_items(const Suite& suite,
                                               const std::vector<ItemRecord>& records) {
    Reader reader;
    for (const auto& item : suite.items) reader.by_id[item.id] = &item;
    reader.suite = &suite;
    for (const auto& record : records) reader.record(record.id, record.to_json());
    return std::move(reader.out.items);
}

Result<CalibrationInput> read_calibration_input(const std::filesystem::path& run,
                                                const Schema* policy,
                                                const std::optional<std::filesystem::path>& suite) {
    std::filesystem::path file = run;
    std::optional<std::filesystem::path> suite_path = suite;
    std::error_code ec;
    if (std::filesystem::is_directory(run, ec)) {
        file = RunStore::journal_path(run);
        if (!suite_path)
            if (auto meta = RunStore::read_meta(run); meta && !meta->suite.empty())
                suite_path = meta->suite;
    }
    std::ifstream in(file);
    if (!in)
        return engine::bad_input(file.string() +
                                 ": cannot be read (a run's journal, its "
                                 "folder, or calibration JSONL)");
    Reader reader;
    reader.policy = policy;
    Suite loaded;
    if (suite_path) {
        auto s = load_suite_file(*suite_path, std::filesystem::current_path());
        if (!s) return s.error();
        loaded = std::move(*s);
        for (const auto& item : loaded.items) reader.by_id[item.id] = &item;
        reader.suite = &loaded;
        reader.out.suite = suite_path->string();
    }
    reader.out.source = file.string();
    std::string text;
    int number = 0;
    while (std::getline(in, text)) {
        ++number;
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = file.filename().string() + ":" + std::to_string(number);
        json line = json::parse(text, nullptr, false);
        if (line.is_discarded() || !line.is_object()) {
            reader.skip(where + ": not a JSON object (a half-written last line?)");
            continue;
        }
        if (line.contains("questions") && line["questions"].is_array()) {
            reader.record(where, line);
        } else if (line.contains("probs") && line["probs"].is_object()) {
            if (auto ok = reader.plain(where, line); !ok) return ok.error();
        }  // anything else: a journal's header
    }
    return std::move(reader.out);
}

}  // namespace core::eval
