// Loading, rendering and splitting policy templates (see core/policy/policy.h).
#include "core/policy/policy.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <system_error>

#include "core/policy/json_input.h"
#include "core/template/template.h"

// The shipped templates live in resources/resources.qrc, compiled into an object library that
// is archived into studio_core. Naming its initialiser here makes the linker keep it and
// registers the files under :/templates before the first read. Must be outside any namespace.
static void ds_register_shipped_policies() {
    Q_INIT_RESOURCE(resources);
}

namespace core {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using engine::bad_input;

constexpr size_t kMaxFolderFiles = 10000;

void ensure_resources() {
    static std::once_flag once;
    std::call_once(once, [] { ds_register_shipped_policies(); });
}

bool is_resource(const std::string& path) {
    return path.rfind(":/", 0) == 0;
}

std::string mib_limit(size_t limit) {
    return std::to_string(limit) + " bytes (" + std::to_string(limit / (1024 * 1024)) + " MiB)";
}

// Reads a whole file (or resource) of at most `limit` bytes.
Result<std::string> read_limited(const std::string& path, size_t limit, const char* what) {
    if (is_resource(path)) {
        ensure_resources();
        QFile file(QString::fromStdString(path));
        if (!file.exists()) return bad_input(path + ": no such " + what + " in the application");
        if (static_cast<size_t>(file.size()) > limit) {
            return bad_input(path + ": " + std::to_string(file.size()) + " bytes; " + what +
                             "s are limited to " + mib_limit(limit));
        }
        if (!file.open(QIODevice::ReadOnly)) return bad_input(path + ": cannot be read");
        const QByteArray bytes = file.readAll();
        return std::string(bytes.constData(), static_cast<size_t>(bytes.size()));
    }
    std::error_code ec;
    const std::filesystem::path p(path);
    const auto status = std::filesystem::status(p, ec);
    if (ec || !std::filesystem::exists(status)) {
        return bad_input(path + ": no such file; expected a " + what);
    }
    if (std::filesystem::is_directory(status)) {
        return bad_input(path + ": is a folder; expected a " + what);
    }
    const auto size = std::filesystem::file_size(p, ec);
    if (!ec && size > limit) {
        return bad_input(path + ": " + std::to_string(size) + " bytes; " + what +
                         "s are limited to " + mib_limit(limit));
    }
    std::ifstream in(p, std::ios::binary);
    if (!in) return bad_input(path + ": cannot be read (permission?)");
    std::string data;
    data.resize(limit + 1);
    in.read(data.data(), static_cast<std::streamsize>(limit + 1));
    data.resize(static_cast<size_t>(in.gcount()));
    if (data.size() > limit) {  // grew while we read it, or not a regular file
        return bad_input(path + ": more than " + mib_limit(limit) + "; " + what +
                         "s are limited to " + mib_limit(limit));
    }
    return data;
}

// UTF-8 text without NUL bytes; a leading byte-order mark is dropped.
Result<std::string> as_text(std::string data, const std::string& path, const char* what) {
    if (data.rfind("\xEF\xBB\xBF", 0) == 0) data.erase(0, 3);
    if (const size_t bad = find_invalid_utf8(data); bad != std::string::npos) {
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(data[bad]));
        return bad_input(path + ":" + text_position(data, bad) + ": not UTF-8 text (byte " + byte +
                         "); a " + what + " must be UTF-8 text");
    }
    if (const size_t nul = data.find('\0'); nul != std::string::npos) {
        return bad_input(path + ":" + text_position(data, nul) + ": contains a NUL byte; a " +
                         what + " must be UTF-8 text");
    }
    return data;
}

std::string policy_name(const std::string& file_name) {
    for (const char* suffix : {".json.tmpl", ".tmpl", ".json"}) {
        const std::string s(suffix);
        if (file_name.size() > s.size() &&
            file_name.compare(file_name.size() - s.size(), s.size(), s) == 0) {
            return file_name.substr(0, file_name.size() - s.size());
        }
    }
    return file_name;
}

bool sample_file_exists(const std::string& path) {
    if (is_resource(path)) {
        ensure_resources();
        return QFile::exists(QString::fromStdString(path));
    }
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

template <class Json>
std::string json_kind(const Json& v) {
    switch (v.type()) {
        case json::value_t::object:
            return "an object";
        case json::value_t::array:
            return "an array";
        case json::value_t::string:
            return "a string";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::null:
            return "null";
        default:
            return "a number";
    }
}

}  // namespace

Result<PolicyFile> load_policy_file(const std::filesystem::path& path) {
    const std::string display = path.string();
    auto bytes = read_limited(display, kPolicyMaxBytes, "policy template");
    if (!bytes) return bytes.error();
    auto text = as_text(std::move(*bytes), display, "policy template");
    if (!text) return text.error();

    PolicyFile policy;
    policy.path = path;
    policy.name = policy_name(path.filename().string());
    policy.source = std::move(*text);

    const std::string vars_path = (path.parent_path() / (policy.name + ".vars.json")).string();
    if (sample_file_exists(vars_path)) {
        auto vars_bytes = read_limited(vars_path, kPolicyMaxBytes, "sample variables file");
        if (!vars_bytes) return vars_bytes.error();
        auto vars_text = as_text(std::move(*vars_bytes), vars_path, "sample variables file");
        if (!vars_text) return vars_text.error();
        auto vars = parse_json_input(*vars_text, vars_path);
        if (!vars) return vars.error();
        if (!vars->is_object()) {
            return bad_input(vars_path + ": is " + json_kind(*vars) +
                             "; expected a JSON object of variable names to values");
        }
        policy.sample_variables = std::move(*vars);
    }
    return policy;
}

Result<PolicyFolder> load_policy_folder(const std::filesystem::path& folder) {
    const std::string display = folder.string();
    std::vector<std::string> files;
    if (is_resource(display)) {
        ensure_resources();
        const QDir dir(QString::fromStdString(display));
        if (!dir.exists()) return bad_input(display + ": no such folder in the application");
        for (const QString& entry : dir.entryList({"*.tmpl"}, QDir::Files, QDir::Name)) {
            files.push_back(display + "/" + entry.toStdString());
        }
    } else {
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec)) {
            return bad_input(display + ": not a folder; expected a folder of .json.tmpl policies");
        }
        auto it = std::filesystem::recursive_directory_iterator(
            folder, std::filesystem::directory_options::skip_permission_denied, ec);
        if (ec) return bad_input(display + ": cannot be listed (" + ec.message() + ")");
        for (; it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) break;
            if (it->is_regular_file(ec) && it->path().extension() == ".tmpl") {
                files.push_back(it->path().string());
                if (files.size() > kMaxFolderFiles) {
                    return bad_input(display + ": more than " + std::to_string(kMaxFolderFiles) +
                                     " .tmpl files; choose a smaller folder");
                }
            }
        }
        std::sort(files.begin(), files.end());
    }
    PolicyFolder result;
    for (const auto& file : files) {
        auto policy = load_policy_file(file);
        if (policy) {
            result.policies.push_back(std::move(*policy));
        } else {
            result.problems.push_back(policy.error());
        }
    }
    return result;
}

std::vector<PolicyFile> shipped_policies() {
    auto folder = load_policy_folder(":/templates");
    if (!folder) return {};
    auto policies = std::move(folder->policies);
    std::sort(policies.begin(), policies.end(),
              [](const PolicyFile& a, const PolicyFile& b) { return a.name < b.name; });
    return policies;
}

std::optional<PolicyFile> shipped_policy(std::string_view name) {
    auto policy = load_policy_file(":/templates/" + std::string(name) + ".json.tmpl");
    if (!policy) return std::nullopt;
    return std::move(*policy);
}

nlohmann::json template_data_from_variables(const std::map<std::string, std::string>& variables) {
    const auto trim = [](const std::string& s) {
        const char* ws = " \t\n\r\v\f";
        const size_t b = s.find_first_not_of(ws);
        if (b == std::string::npos) return std::string();
        return s.substr(b, s.find_last_not_of(ws) - b + 1);
    };
    json data = json::object();
    for (const auto& [raw_key, raw_value] : variables) {
        const std::string key = trim(raw_key);
        const std::string value = trim(raw_value);
        if (value == "true" || value == "false") {
            data[key] = value == "true";
            continue;
        }
        const bool bracketed =
            value.size() >= 2 && ((value.front() == '[' && value.back() == ']') ||
                                  (value.front() == '{' && value.back() == '}'));
        if (bracketed) {
            json parsed;
            JsonInputError ignored;
            if (parse_json_input_raw(value, parsed, ignored)) {
                data[key] = std::move(parsed);
                continue;
            }
        }
        data[key] = value;
    }
    return data;
}

std::map<std::string, std::string> variables_from_json(const nlohmann::json& variables) {
    std::map<std::string, std::string> out;
    if (!variables.is_object()) return out;
    for (auto it = variables.begin(); it != variables.end(); ++it) {
        out[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    }
    return out;
}

Result<RenderedPolicy> render_policy(const PolicyFile& policy,
                                     const std::map<std::string, std::string>& variables) {
    return render_policy_data(policy, template_data_from_variables(variables));
}

Result<RenderedPolicy> render_policy_data(const PolicyFile& policy, const nlohmann::json& data) {
    const std::string display = policy.path.empty() ? policy.name : policy.path.string();
    auto rendered = render_template_traced(policy.source, data, display);
    if (!rendered) return rendered.error();

    // An ordered parse: the rendered text's key order is the order options are lettered in and
    // the order the state is shown to the model (dgem's pkg/template/order.go keeps it too).
    ojson doc;
    JsonInputError error;
    if (!parse_json_input_raw(rendered->text, doc, error)) {
        // Point at the template line that wrote the offending text.
        const size_t source_offset = rendered->source_offset_of(error.offset);
        return bad_input(display + ":" + text_position(policy.source, source_offset) +
                         ": the rendered policy is not valid JSON: " + error.message +
                         " (rendered text " + text_position(rendered->text, error.offset) + ")");
    }
    const ojson fallback_state = data.is_object() ? ojson(data) : ojson::object();
    RenderedPolicy out;
    out.rendered_text = std::move(rendered->text);
    if (!doc.is_object()) {
        return bad_input(display + ": renders to " + json_kind(doc) +
                         "; a policy renders to an object {\"schema\": {...}, \"state\": {...}}");
    }
    if (doc.contains("schema")) {
        if (!doc["schema"].is_object()) {
            return bad_input(display + ": \"schema\" is " + json_kind(doc["schema"]) +
                             "; expected an object with \"questions\"");
        }
        out.schema = std::move(doc["schema"]);
        const auto state = doc.find("state");
        out.state = (state == doc.end() || state->is_null()) ? fallback_state : *state;
        return out;
    }
    if (doc.contains("questions")) {
        // dgem's flat form: {"input"/"context"/"state": ..., "questions": [...], ...}; the
        // document parts move into the state, the rest is the schema. dgem builds this state as
        // a Go map, which it writes with its keys sorted: so does a json object.
        json state = data.is_object() ? data : json::object();
        for (const char* key : {"input", "context"}) {
            if (auto it = doc.find(key); it != doc.end()) {
                state[key] = *it;
                doc.erase(key);
            }
        }
        if (auto it = doc.find("state"); it != doc.end()) {
            if (it->is_object()) {
                for (auto s = it->begin(); s != it->end(); ++s) state[s.key()] = s.value();
            } else {
                state["input"] = *it;
            }
            doc.erase("state");
        }
        out.schema = std::move(doc);
        out.state = std::move(state);
        return out;
    }
    return bad_input(display +
                     ": the rendered policy has no \"schema\"; expected "
                     "{\"schema\": {\"questions\": [...]}, \"state\": {...}}");
}

}  // namespace core
