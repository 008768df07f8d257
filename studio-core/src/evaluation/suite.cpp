// Suites: JevBench JSONL and dgem's suite format, filters, sha256, the zero-leakage check.
#include <QCryptographicHash>
#include <QFile>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "base/text.h"
#include "core/evaluation/eval_suite.h"
#include "core/images/images.h"
#include "core/policy/json_input.h"
#include "core/policy/policy.h"

namespace core::eval {

namespace {

// Ordered throughout: an item's state is shown to the model as written, its keys in source order.
using json = nlohmann::ordered_json;
using nlohmann::ordered_json;

using base::lower;

std::string kind_of(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::string:
            return "a string";
        case json::value_t::array:
            return "a list";
        case json::value_t::object:
            return "an object";
        default:
            return "a number";
    }
}

Result<std::string> read_text(const std::filesystem::path& path, const char* what) {
    const std::string display = path.string();
    if (display.rfind(":/", 0) == 0) {
        QFile f(QString::fromStdString(display));
        if (!f.open(QIODevice::ReadOnly))
            return engine::bad_input(display + ": cannot read the " + what);
        QByteArray b = f.readAll();
        return std::string(b.constData(), static_cast<size_t>(b.size()));
    }
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return engine::bad_input(display + ": no such " + std::string(what) + " file");
    if (std::filesystem::is_directory(path, ec))
        return engine::bad_input(display + ": is a folder; expected a " + std::string(what) +
                                 " file (JSON lines)");
    std::ifstream in(path, std::ios::binary);
    if (!in) return engine::bad_input(display + ": cannot read the " + std::string(what));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Splits into lines (without '\n' and a trailing '\r'), with their 1-based numbers.
std::vector<std::pair<int, std::string>> lines_of(const std::string& text) {
    std::vector<std::pair<int, std::string>> out;
    size_t start = 0;
    int n = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.emplace_back(++n, std::move(line));
        start = end + 1;
    }
    return out;
}

bool blank(const std::string& s) {
    return s.find_first_not_of(" \t\r") == std::string::npos;
}

struct LineError {
    std::string where;  // "file:line"
    Error operator()(const std::string& field, const std::string& message) const {
        return engine::bad_input(where + ": field " + field + ": " + message);
    }
};

Result<json> parse_line(const std::string& line, const std::string& where) {
    JsonInputError err;
    json j;
    if (!parse_json_input_raw(line, j, err))
        return engine::bad_input(where + ": not a JSON object (column " +
                                 std::to_string(err.offset + 1) + ": " + err.message + ")");
    if (!j.is_object())
        return engine::bad_input(where + ": is " + kind_of(j) +
                                 "; expected one JSON object per line");
    return j;
}

std::optional<std::string> optional_string(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::string();
    if (!it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

// The item's labels: at least two distinct non-empty strings, at most kMaxOptions (a wider
// question than one read holds is read as a bracket tournament).
Result<std::vector<std::string>> jev_labels(const json& j, const LineError& fail) {
    auto labels_it = j.find("labels");
    if (labels_it == j.end() || !labels_it->is_array() || labels_it->size() < 2)
        return fail("labels", "missing or not a list of at least two labels");
    std::vector<std::string> labels;
    for (const auto& l : *labels_it) {
        if (!l.is_string() || l.get<std::string>().empty())
            return fail("labels", "every label must be a non-empty string");
        labels.push_back(l.get<std::string>());
    }
    if (std::set<std::string>(labels.begin(), labels.end()).size() != labels.size())
        return fail("labels", "a label is listed twice");
    if (labels.size() > static_cast<size_t>(kMaxOptions))
        return fail("labels", "more than " + std::to_string(kMaxOptions) + " labels");
    return labels;
}

// The expected label (score items: the integer level as text), one of the labels.
Result<std::string> jev_expected(const json& j, const std::string& type,
                                 const std::vector<std::string>& labels, const LineError& fail) {
    auto expected_it = j.find("expected");
    if (expected_it == j.end()) return fail("expected", "missing");
    std::string expected;
    if (type == "score") {
        if (!expected_it->is_number_integer())
            return fail("expected", "a score item's expected must be an integer level, not " +
                                        kind_of(*expected_it));
        expected = std::to_string(expected_it->get<long long>());
    } else {
        if (!expected_it->is_string()) return fail("expected", "must be a string label");
        expected = expected_it->get<std::string>();
    }
    if (std::find(labels.begin(), labels.end(), expected) == labels.end()) {
        std::string list;
        for (const auto& l : labels) list += (list.empty() ? "" : ", ") + l;
        return fail("expected", "\"" + expected + "\" is not among labels (" + list + ")");
    }
    return expected;
}

// A noul item: labels yes and no, criteria keyed true/false.
Result<void> jev_noul(const json* criteria, const std::vector<std::string>& labels,
                      ordered_json& question, ItemQuestion& iq, const LineError& fail) {
    std::set<std::string> got(labels.begin(), labels.end());
    if (got != std::set<std::string>{"yes", "no"})
        return fail("labels", "a noul item's labels must be yes and no");
    if (criteria) {
        if (!criteria->is_object())
            return fail("question.criteria",
                        "a noul item's criteria must be an object keyed true/false");
        ordered_json c = ordered_json::object();
        for (auto it = criteria->begin(); it != criteria->end(); ++it) {
            if (it.key() != "true" && it.key() != "false")
                return fail("question.criteria." + it.key(), "accepted keys: true, false");
            if (!it->is_string()) return fail("question.criteria." + it.key(), "must be a string");
            c[it.key()] = it->get<std::string>();
        }
        question["criteria"] = c;
    }
    iq.names = {"yes", "no"};
    return {};
}

// A choice item: one option per label, criteria mapping labels to descriptions.
Result<void> jev_choice(const json* criteria, const std::vector<std::string>& labels,
                        ordered_json& question, ItemQuestion& iq, const LineError& fail) {
    if (criteria && !criteria->is_object())
        return fail("question.criteria",
                    "a choice item's criteria must map labels to descriptions");
    ordered_json options = ordered_json::array();
    for (const auto& l : labels) {
        ordered_json o = {{"name", l}};
        if (criteria) {
            auto it = criteria->find(l);
            if (it != criteria->end()) {
                if (!it->is_string()) return fail("question.criteria." + l, "must be a string");
                o["description"] = it->get<std::string>();
            }
        }
        options.push_back(o);
    }
    if (criteria)
        for (auto it = criteria->begin(); it != criteria->end(); ++it)
            if (std::find(labels.begin(), labels.end(), it.key()) == labels.end())
                return fail("question.criteria." + it.key(), "is not one of the labels");
    question["options"] = options;
    iq.names = labels;
    return {};
}

// A score item: labels "0", "1", ..., criteria a list of level descriptions.
Result<void> jev_score(const json* criteria, const std::vector<std::string>& labels,
                       ordered_json& question, ItemQuestion& iq, const LineError& fail) {
    for (size_t i = 0; i < labels.size(); ++i)
        if (labels[i] != std::to_string(i))
            return fail("labels", "a score item's labels must be \"0\", \"1\", ... in order");
    ordered_json levels = ordered_json::array();
    if (criteria) {
        if (!criteria->is_array() || criteria->size() != labels.size())
            return fail("question.criteria", "a score item's criteria must be a list of " +
                                                 std::to_string(labels.size()) +
                                                 " level descriptions");
        std::set<std::string> seen;
        for (size_t i = 0; i < criteria->size(); ++i) {
            const json& c = (*criteria)[i];
            if (!c.is_string())
                return fail("question.criteria[" + std::to_string(i) + "]", "must be a string");
            std::string text = c.get<std::string>();
            // Level names must differ; a repeated description gets its index.
            if (!seen.insert(text).second) text += " (" + std::to_string(i) + ")";
            levels.push_back(text);
        }
    } else {
        for (const auto& l : labels) levels.push_back(l);
    }
    question["levels"] = levels;
    iq.names = labels;
    return {};
}

// provenance.gold_probs (probability items): label -> p over the item's labels.
Result<std::optional<std::map<std::string, double>>> jev_gold_probs(
    const json& j, const std::vector<std::string>& labels, const LineError& fail) {
    std::optional<std::map<std::string, double>> none;
    auto prov = j.find("provenance");
    if (prov == j.end() || !prov->is_object()) return none;
    auto gp = prov->find("gold_probs");
    if (gp == prov->end() || gp->is_null()) return none;
    if (!gp->is_object()) return fail("provenance.gold_probs", "must be an object label -> p");
    std::map<std::string, double> g;
    for (auto it = gp->begin(); it != gp->end(); ++it) {
        if (!it->is_number()) return fail("provenance.gold_probs." + it.key(), "must be a number");
        if (std::find(labels.begin(), labels.end(), it.key()) == labels.end())
            return fail("provenance.gold_probs." + it.key(), "is not one of the labels");
        g[it.key()] = it->get<double>();
    }
    return std::optional<std::map<std::string, double>>(std::move(g));
}

Result<SuiteItem> jev_item(const json& j, const std::string& where, int line) {
    LineError fail{where};
    SuiteItem item;
    item.line = line;
    item.source = where;
    auto id = j.find("id");
    if (id == j.end() || !id->is_string() || id->get<std::string>().empty())
        return fail("id", "missing or not a non-empty string");
    item.id = id->get<std::string>();
    for (auto [key, out] : {std::pair{"tier", &item.tier}, std::pair{"family", &item.family},
                            std::pair{"topic", &item.topic}, std::pair{"group", &item.group}}) {
        auto v = optional_string(j, key);
        if (!v) return fail(key, "must be a string, not " + kind_of(j[key]));
        *out = *v;
    }
    auto q = j.find("question");
    if (q == j.end() || !q->is_object()) return fail("question", "missing or not an object");
    auto type_it = q->find("type");
    if (type_it == q->end() || !type_it->is_string())
        return fail("question.type", "missing; accepted: choice, noul or score");
    const std::string type = type_it->get<std::string>();
    if (type != "choice" && type != "noul" && type != "score")
        return fail("question.type",
                    "unknown type \"" + type + "\"; accepted: choice, noul or score");
    std::string instructions;
    if (auto it = q->find("instructions"); it != q->end() && !it->is_null()) {
        if (!it->is_string()) return fail("question.instructions", "must be a string");
        instructions = it->get<std::string>();
    }
    auto labels = jev_labels(j, fail);
    if (!labels) return labels.error();
    auto expected = jev_expected(j, type, *labels, fail);
    if (!expected) return expected.error();

    const json* criteria = nullptr;
    if (auto it = q->find("criteria"); it != q->end() && !it->is_null()) criteria = &*it;
    ordered_json question = {{"id", kJevSlotId}, {"type", type}, {"instructions", instructions}};
    ItemQuestion iq;
    iq.id = kJevSlotId;
    iq.expected = *expected;
    auto read = type == "noul"     ? jev_noul(criteria, *labels, question, iq, fail)
                : type == "choice" ? jev_choice(criteria, *labels, question, iq, fail)
                                   : jev_score(criteria, *labels, question, iq, fail);
    if (!read) return read.error();
    item.score_type = type == "score";
    ordered_json schema = {{"questions", ordered_json::array({question})}, {"samples", 1}};
    auto parsed = parse_schema(schema, where + " (item " + item.id + ")");
    if (!parsed) return parsed.error();
    item.schema = std::move(*parsed);
    if (item.schema.questions.size() != 1 ||
        item.schema.questions[0].labels().size() != iq.names.size())
        return fail("labels", "could not be read as one question with one label per item label");
    item.questions.push_back(std::move(iq));

    auto state = j.find("state");
    if (state == j.end() || state->is_null()) return fail("state", "missing");
    if (!state->is_string() && !state->is_object())
        return fail("state", "must be a string or an object, not " + kind_of(*state));
    item.state = *state;

    auto gold = jev_gold_probs(j, *labels, fail);
    if (!gold) return gold.error();
    item.gold_probs = std::move(*gold);
    return item;
}

// Where a dgem suite's file names resolve: the working directory, then the suite's folder and
// its parent (Qt resource suites keep ":/" paths).
struct SuitePlaces {
    std::filesystem::path cwd, dir;
    bool resource = false;
};

// A case's template, found as dgem finds it.
Result<std::filesystem::path> resolve_template(const std::string& name, const SuitePlaces& at,
                                               const LineError& fail) {
    std::vector<std::filesystem::path> candidates;
    std::filesystem::path resolved;
    if (name.rfind(":/", 0) == 0) {
        resolved = name;
    } else if (std::filesystem::path(name).is_absolute()) {
        candidates = {name};
    } else {
        candidates = {at.cwd / name};
        if (at.resource) {
            std::string d = at.dir.string();
            candidates.push_back(d + "/" + name);
            auto parent = at.dir.parent_path().string();
            candidates.push_back(parent + "/" + name);
        } else {
            candidates.push_back(at.dir / name);
            candidates.push_back(at.dir.parent_path() / name);
        }
    }
    for (const auto& c : candidates) {
        std::error_code ec;
        if (c.string().rfind(":/", 0) == 0 ? QFile::exists(QString::fromStdString(c.string()))
                                           : std::filesystem::is_regular_file(c, ec)) {
            resolved = c;
            break;
        }
    }
    if (resolved.empty()) {
        std::string looked;
        for (const auto& c : candidates) looked += (looked.empty() ? "" : ", ") + c.string();
        return fail("template", "\"" + name + "\" not found (looked in " + looked + ")");
    }
    return resolved;
}

// Images the item is about ("images": [...] or "image": "..."): paths relative to the suite
// file, data: URIs or URLs, read and checked now so a bad one stops the load.
Result<std::vector<ImageInput>> case_images(const json& j, const SuitePlaces& at,
                                            const LineError& fail) {
    std::vector<std::string> refs;
    for (const char* key : {"image", "images"}) {
        auto v = j.find(key);
        if (v == j.end() || v->is_null()) continue;
        if (v->is_string()) {
            refs.push_back(v->get<std::string>());
        } else if (v->is_array()) {
            for (const auto& r : *v) {
                if (!r.is_string()) return fail(key, "must be a list of paths or URLs");
                refs.push_back(r.get<std::string>());
            }
        } else {
            return fail(key, "must be a path or URL, or a list of them");
        }
    }
    for (auto& ref : refs) {
        const bool absolute = ref.rfind("data:", 0) == 0 || ref.rfind("http://", 0) == 0 ||
                              ref.rfind("https://", 0) == 0 ||
                              std::filesystem::path(ref).is_absolute() || at.resource;
        if (!absolute) ref = (at.dir / ref).string();
    }
    if (refs.empty()) return std::vector<ImageInput>{};
    auto images = load_images(refs);
    if (!images) return fail("images", images.error().message);
    return std::move(*images);
}

// One expected answer (an option, level or yes/no name, case-insensitive, or a label) of the
// question `key` of the template `name`.
Result<ItemQuestion> expected_answer(const Schema& schema, const std::string& key,
                                     const json& value, const std::string& name,
                                     const LineError& fail) {
    const Question* q = nullptr;
    for (const auto& cand : schema.questions)
        if (cand.id == key) q = &cand;
    if (!q) {
        std::string list;
        for (const auto& cand : schema.questions) list += (list.empty() ? "" : ", ") + cand.id;
        return fail("expected." + key, "the template " + name + " has no question \"" + key +
                                           "\" (questions: " + list + ")");
    }
    std::string want;
    if (value.is_string())
        want = value.get<std::string>();
    else if (value.is_boolean())
        want = value.get<bool>() ? "yes" : "no";
    else if (value.is_number())
        want = value.dump();
    else
        return fail("expected." + key, "must be a string answer");
    const auto labels = q->labels();
    const auto alts = q->alternatives();
    std::string lw = lower(want);
    if (q->type == QuestionType::Noul && (lw == "true" || lw == "false"))
        lw = lw == "true" ? "yes" : "no";
    int found = -1;
    for (size_t i = 0; i < alts.size() && found < 0; ++i)
        if (lower(alts[i]) == lw) found = static_cast<int>(i);
    for (size_t i = 0; i < labels.size() && found < 0; ++i)
        if (lower(labels[i]) == lw) found = static_cast<int>(i);
    if (found < 0) {
        std::string list;
        for (const auto& a : alts) list += (list.empty() ? "" : ", ") + a;
        return fail("expected." + key, "\"" + want + "\" is not an answer of question " + q->id +
                                           " (accepted: " + list + ")");
    }
    ItemQuestion iq;
    iq.id = q->id;
    iq.names = alts;
    iq.expected = alts[static_cast<size_t>(found)];
    return iq;
}

// One line of a dgem suite: its template rendered with its variables, its images and expected
// answers. `policies` caches the templates read so far; `ids` the ids seen.
Result<SuiteItem> dgem_case(const json& j, const std::string& where, int n, const SuitePlaces& at,
                            std::map<std::string, PolicyFile>& policies,
                            std::set<std::string>& ids) {
    LineError fail{where};
    SuiteItem item;
    item.line = n;
    item.source = where;
    auto id = j.find("id");
    if (id == j.end() || !id->is_string() || id->get<std::string>().empty())
        return fail("id", "missing or not a non-empty string");
    item.id = id->get<std::string>();
    if (!ids.insert(item.id).second) return fail("id", "\"" + item.id + "\" appears twice");
    for (auto [key, out] : {std::pair{"domain", &item.domain}, std::pair{"tier", &item.tier},
                            std::pair{"family", &item.family}, std::pair{"topic", &item.topic},
                            std::pair{"group", &item.group}}) {
        auto v = optional_string(j, key);
        if (!v) return fail(key, "must be a string");
        *out = *v;
    }
    auto tmpl = j.find("template");
    if (tmpl == j.end() || !tmpl->is_string() || tmpl->get<std::string>().empty())
        return fail("template", "missing or not a path to a .json.tmpl policy");
    const std::string name = tmpl->get<std::string>();
    auto resolved = resolve_template(name, at, fail);
    if (!resolved) return resolved.error();
    auto cached = policies.find(resolved->string());
    if (cached == policies.end()) {
        auto policy = load_policy_file(*resolved);
        if (!policy)
            return engine::bad_input(where + ": field template: " + policy.error().message);
        cached = policies.emplace(resolved->string(), std::move(*policy)).first;
    }
    json variables = json::object();
    if (auto v = j.find("variables"); v != j.end() && !v->is_null()) {
        if (!v->is_object()) return fail("variables", "must be an object of name -> value");
        variables = *v;
    }
    auto rendered = render_policy(cached->second, variables_from_json(variables));
    if (!rendered) return engine::bad_input(where + ": " + rendered.error().message);
    auto schema = parse_schema(rendered->schema, resolved->string());
    if (!schema) return engine::bad_input(where + ": " + schema.error().message);
    item.schema = std::move(*schema);
    item.state = rendered->state;

    auto images = case_images(j, at, fail);
    if (!images) return images.error();
    item.images = std::move(*images);

    auto expected = j.find("expected");
    if (expected == j.end() || !expected->is_object() || expected->empty())
        return fail("expected", "missing or not an object of question id -> answer");
    for (auto it = expected->begin(); it != expected->end(); ++it) {
        auto iq = expected_answer(item.schema, it.key(), it.value(), name, fail);
        if (!iq) return iq.error();
        item.questions.push_back(std::move(*iq));
    }
    return item;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
    QByteArray h =
        QCryptographicHash::hash(QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())),
                                 QCryptographicHash::Sha256);
    return h.toHex().toStdString();
}

Result<std::string> file_sha256(const std::filesystem::path& path) {
    auto text = read_text(path, "data");
    if (!text) return text.error();
    return sha256_hex(*text);
}

Result<Suite> load_jevbench_text(const std::string& text, const std::string& name) {
    Suite suite;
    suite.kind = SuiteKind::JevBench;
    suite.name = name;
    suite.path = name;
    suite.sha256 = sha256_hex(text);
    std::set<std::string> ids;
    for (const auto& [n, line] : lines_of(text)) {
        if (blank(line)) continue;
        const std::string where = name + ":" + std::to_string(n);
        auto j = parse_line(line, where);
        if (!j) return j.error();
        auto item = jev_item(*j, where, n);
        if (!item) return item.error();
        if (!ids.insert(item->id).second)
            return engine::bad_input(where + ": field id: \"" + item->id + "\" appears twice");
        suite.items.push_back(std::move(*item));
    }
    if (suite.items.empty()) return engine::bad_input(name + ": holds no items");
    suite.total_in_file = suite.items.size();
    return suite;
}

Result<Suite> load_jevbench(const std::filesystem::path& path) {
    auto text = read_text(path, "JevBench dataset");
    if (!text) return text.error();
    auto suite = load_jevbench_text(*text, path.string());
    if (!suite) return suite.error();
    suite->name = path.filename().string();
    suite->path = path;
    return suite;
}

Result<Suite> load_dgem_suite(const std::filesystem::path& path,
                              const std::filesystem::path& working_dir) {
    auto text = read_text(path, "suite");
    if (!text) return text.error();
    Suite suite;
    suite.kind = SuiteKind::Dgem;
    suite.name = path.filename().string();
    suite.path = path;
    suite.sha256 = sha256_hex(*text);
    SuitePlaces at;
    at.cwd = working_dir.empty() ? std::filesystem::current_path() : working_dir;
    at.resource = path.string().rfind(":/", 0) == 0;
    at.dir = path.parent_path();
    std::map<std::string, PolicyFile> policies;
    std::set<std::string> ids;
    for (const auto& [n, line] : lines_of(*text)) {
        if (blank(line) || line.find_first_not_of(" \t") == line.find('#')) continue;
        const std::string where = path.string() + ":" + std::to_string(n);
        auto j = parse_line(line, where);
        if (!j) return j.error();
        auto item = dgem_case(*j, where, n, at, policies, ids);
        if (!item) return item.error();
        suite.items.push_back(std::move(*item));
    }
    if (suite.items.empty()) return engine::bad_input(path.string() + ": holds no cases");
    suite.total_in_file = suite.items.size();
    return suite;
}

void apply_filter(Suite& suite, const SuiteFilter& filter) {
    std::vector<SuiteItem> kept;
    for (auto& item : suite.items) {
        if (!filter.tier.empty() && item.tier != filter.tier) continue;
        if (!filter.family.empty() && item.family != filter.family) continue;
        if (!filter.topic.empty() && item.topic != filter.topic) continue;
        kept.push_back(std::move(item));
    }
    if (filter.offset >= kept.size())
        kept.clear();
    else
        kept.erase(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(filter.offset));
    if (filter.limit > 0 && kept.size() > filter.limit) kept.resize(filter.limit);
    suite.items = std::move(kept);
}

std::vector<std::string> leakage_problems(const std::filesystem::path& path) {
    std::vector<std::string> problems;
    auto text = read_text(path, "JevBench dataset");
    if (!text) return {text.error().message};
    static const std::set<std::string> banned = {"expected", "label", "ground_truth", "answer_key"};
    std::function<void(const json&, const std::string&, const std::string&)> scan =
        [&](const json& v, const std::string& where, const std::string& at) {
            if (v.is_object()) {
                for (auto it = v.begin(); it != v.end(); ++it) {
                    if (banned.count(lower(it.key())))
                        problems.push_back(where + ": field " + at + "." + it.key() +
                                           ": a state key that leaks the answer");
                    scan(*it, where, at + "." + it.key());
                }
            } else if (v.is_array()) {
                for (size_t i = 0; i < v.size(); ++i)
                    scan(v[i], where, at + "[" + std::to_string(i) + "]");
            }
        };
    for (const auto& [n, line] : lines_of(*text)) {
        if (blank(line)) continue;
        const std::string where = path.string() + ":" + std::to_string(n);
        auto j = parse_line(line, where);
        if (!j) {
            problems.push_back(j.error().message);
            continue;
        }
        if (auto s = j->find("state"); s != j->end()) scan(*s, where, "state");
        auto item = jev_item(*j, where, n);
        if (!item) problems.push_back(item.error().message);
    }
    return problems;
}

}  // namespace core::eval
