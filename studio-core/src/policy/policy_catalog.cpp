// The catalog of policies a request may name (see core/policy/policy_catalog.h).
#include "core/policy/policy_catalog.h"

#include <QStandardPaths>

#include <algorithm>
#include <sstream>
#include <system_error>

#include "core/policy/schema.h"
#include "core/template/template.h"

namespace core {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFolderTemplates = 10000;
constexpr size_t kMaxEchoedName = 120;

// A requested name as it may appear in a message: bounded, control characters replaced.
std::string echo_name(std::string_view name) {
    std::string out;
    for (char c : name.substr(0, kMaxEchoedName))
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    if (name.size() > kMaxEchoedName) out += "...";
    return out;
}

bool looks_like_path(std::string_view name) {
    return name.find_first_of("/\\") != std::string_view::npos || name.rfind(".", 0) == 0 ||
           name.rfind(":", 0) == 0 || name.rfind("~", 0) == 0 ||
           name.find(".tmpl") != std::string_view::npos;
}

// Whether `path`, with every link resolved, lies inside `root` (already canonical). Resolving
// reads links and directories, never the file itself.
bool resolves_inside(const fs::path& root, const fs::path& path) {
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    if (ec) return false;
    const fs::path rel = real.lexically_relative(root);
    return !rel.empty() && *rel.begin() != "..";
}

std::string template_name(const fs::path& file) {
    std::string name = file.filename().string();
    for (const std::string suffix : {".json.tmpl", ".tmpl"})
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return name.substr(0, name.size() - suffix.size());
    return name;
}

int precedence(PolicyOrigin origin) {
    switch (origin) {
        case PolicyOrigin::Dir:
            return 0;
        case PolicyOrigin::User:
            return 1;
        case PolicyOrigin::Shipped:
            return 2;
    }
    return 3;
}

// The first line of a template's leading {{/* comment */}}, or "".
std::string leading_comment_line(const std::string& source) {
    size_t p = source.find_first_not_of(" \t\r\n");
    if (p == std::string::npos || source.compare(p, 2, "{{") != 0) return {};
    p += 2;
    if (p < source.size() && source[p] == '-') ++p;
    while (p < source.size() && (source[p] == ' ' || source[p] == '\t')) ++p;
    if (source.compare(p, 2, "/*") != 0) return {};
    const size_t end = source.find("*/", p + 2);
    if (end == std::string::npos) return {};
    std::istringstream lines(source.substr(p + 2, end - p - 2));
    std::string line;
    while (std::getline(lines, line)) {
        const size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos) continue;
        return line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    }
    return {};
}

}  // namespace

std::string_view to_string(PolicyOrigin origin) {
    switch (origin) {
        case PolicyOrigin::Shipped:
            return "shipped";
        case PolicyOrigin::User:
            return "user";
        case PolicyOrigin::Dir:
            return "dir";
    }
    return "?";
}

PolicyCatalog::PolicyCatalog(std::vector<CatalogFolder> folders, bool with_shipped)
    : folders_(std::move(folders)), with_shipped_(with_shipped) {}

fs::path PolicyCatalog::user_folder() {
    // GenericDataLocation honours XDG_DATA_HOME, as ui::PolicyLibrary::defaultUserDir() does.
    return fs::path(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
                        .toStdString()) /
           "decision-studio" / "policies";
}

PolicyCatalog PolicyCatalog::standard(const std::vector<fs::path>& dirs, bool with_user_folder) {
    std::vector<CatalogFolder> folders;
    if (with_user_folder) {
        std::error_code ec;
        const fs::path user = user_folder();
        if (fs::is_directory(user, ec)) folders.push_back({user, PolicyOrigin::User});
    }
    for (const auto& d : dirs) folders.push_back({d, PolicyOrigin::Dir});
    return PolicyCatalog(std::move(folders));
}

std::vector<PolicyCatalog::Candidate> PolicyCatalog::candidates(
    std::vector<std::string>* problems) const {
    std::vector<Candidate> out;
    auto problem = [&](std::string line) {
        if (problems) problems->push_back(std::move(line));
    };
    if (with_shipped_)
        for (const auto& p : shipped_policies())
            out.push_back({p.path, p.name, p.name, PolicyOrigin::Shipped});
    for (const auto& folder : folders_) {
        const std::string shown = folder.path.string();
        std::error_code ec;
        const fs::path root = fs::canonical(folder.path, ec);
        if (ec || !fs::is_directory(root, ec)) {
            problem(shown + ": not a folder; expected a folder of .json.tmpl policies");
            continue;
        }
        std::vector<Candidate> found;
        auto it = fs::recursive_directory_iterator(
            root, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const fs::path& file = it->path();
            if (file.extension() != ".tmpl") continue;
            const std::string rel = file.lexically_relative(root).generic_string();
            std::error_code file_ec;  // the iteration's own `ec` must not see these
            if (!resolves_inside(root, file) || !it->is_regular_file(file_ec)) {
                problem(shown + ": " + rel +
                        " is a link leading out of the folder (or not a file); skipped, not read");
                continue;
            }
            const std::string name = template_name(file);
            const fs::path vars = file.parent_path() / (name + ".vars.json");
            if (fs::exists(fs::symlink_status(vars, file_ec)) && !resolves_inside(root, vars)) {
                problem(shown + ": " + rel +
                        "'s sample variables file is a link leading out of the folder; skipped, "
                        "not read");
                continue;
            }
            if (found.size() >= kMaxFolderTemplates) {
                problem(shown + ": more than " + std::to_string(kMaxFolderTemplates) +
                        " templates; the rest are not listed");
                break;
            }
            const std::string id = fs::path(rel).parent_path().empty()
                                       ? name
                                       : (fs::path(rel).parent_path() / name).generic_string();
            found.push_back({file, name, id, folder.origin});
        }
        std::sort(found.begin(), found.end(),
                  [](const Candidate& a, const Candidate& b) { return a.file < b.file; });
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

std::vector<std::string> PolicyCatalog::names() const {
    std::vector<std::string> out;
    for (const auto& c : candidates(nullptr))
        if (std::find(out.begin(), out.end(), c.name) == out.end()) out.push_back(c.name);
    return out;
}

CatalogListing PolicyCatalog::list() const {
    CatalogListing listing;
    const auto all = candidates(&listing.problems);
    for (size_t i = 0; i < all.size(); ++i) {
        const Candidate& c = all[i];
        for (size_t j = 0; j < all.size(); ++j)
            if (j != i && all[j].name == c.name &&
                (precedence(all[j].origin) < precedence(c.origin) ||
                 (precedence(all[j].origin) == precedence(c.origin) && j < i))) {
                listing.problems.push_back(c.file.string() + " (" +
                                           std::string(to_string(c.origin)) + ") is hidden by " +
                                           all[j].file.string() + " of the same name");
                break;
            }
        auto loaded = load_policy_file(c.file);
        if (!loaded) {
            listing.problems.push_back(loaded.error().message);
            continue;
        }
        listing.policies.push_back({std::move(*loaded), c.origin, c.id});
    }
    return listing;
}

CatalogLookup PolicyCatalog::find(std::string_view name) const {
    const auto all = candidates(nullptr);
    const Candidate* match = nullptr;
    for (const auto& c : all)
        if ((c.name == name || c.id == name) &&
            (!match || precedence(c.origin) < precedence(match->origin)))
            match = &c;
    CatalogLookup lookup;
    if (!match) {
        std::string names;
        for (const auto& c : all)
            if (names.find("'" + c.name + "'") == std::string::npos)
                names += (names.empty() ? "'" : ", '") + c.name + "'";
        lookup.status = CatalogLookup::Status::NoSuchPolicy;
        lookup.message =
            "no policy '" + echo_name(name) + "' in the catalog" +
            (looks_like_path(name) ? " (policies are named, never given by path)" : std::string()) +
            "; the policies are: " + (names.empty() ? std::string("none") : names);
        return lookup;
    }
    auto loaded = load_policy_file(match->file);
    if (!loaded) {
        lookup.status = CatalogLookup::Status::Unloadable;
        lookup.message = loaded.error().message;
        return lookup;
    }
    lookup.status = CatalogLookup::Status::Found;
    lookup.policy = CatalogPolicy{std::move(*loaded), match->origin, match->id};
    return lookup;
}

PolicySummary summarize_policy(const CatalogPolicy& entry) {
    const PolicyFile& policy = entry.policy;
    PolicySummary s;
    s.name = policy.name;
    s.id = entry.id;
    s.origin = entry.origin;
    s.path = policy.path.string();
    s.description = leading_comment_line(policy.source);
    s.sample_variables = policy.sample_variables;
    auto variables = template_variables(policy.source, policy.path.string());
    if (!variables) {
        s.problem = variables.error().message;
        return s;
    }
    s.variables = *variables;
    auto rendered = render_policy(policy, variables_from_json(policy.sample_variables));
    if (!rendered) {
        s.problem = rendered.error().message;
        return s;
    }
    auto schema = parse_schema(rendered->schema, policy.path.string());
    if (!schema) {
        s.problem = schema.error().message;
        return s;
    }
    for (const auto& q : schema->questions)
        s.questions.push_back(
            {q.id, std::string(to_string(q.type)), q.instructions, q.alternatives()});
    if (s.description.empty()) s.description = schema->instructions.substr(0, 240);
    return s;
}

}  // namespace core
