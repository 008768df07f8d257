#pragma once
// The policies a request may name: the shipped ones, the user's policy folder and the folders a
// server or command was given (`dgem serve --templates DIR`, `dgem mcp --policies DIR`). Every
// surface that decides with a policy by name (MCP over stdio and HTTP, the gateway routes of
// dgem serve) resolves it here, and only here.
//
// A name is looked up among what the catalog's folders hold; it never becomes a path. A name that
// is not in the catalog (an absolute path, "../x", "/etc/passwd", a link in a folder that leads
// out of it) is "no such policy" with the list of names, and the file it might point at is never
// opened, so no answer says whether it exists or what it holds. Inside a folder, a template (or
// its <name>.vars.json) that is a symbolic link leading out of the folder is skipped: listed as a
// problem by file name only, never read.
//
// Where two folders hold the same name, the folder given explicitly wins over the user's folder,
// which wins over the shipped policies (so a server can replace a shipped policy); the listing
// shows every one and notes the hidden ones in `problems`.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/policy/policy.h"

namespace core {

enum class PolicyOrigin {
    Shipped,  // compiled into the application
    User,     // the user's policy folder (the Studio's library), or dgem mcp --policies
    Dir,      // a folder given to the server (dgem serve --templates DIR)
};
std::string_view to_string(PolicyOrigin origin);  // "shipped", "user", "dir"

struct CatalogFolder {
    std::filesystem::path path;
    PolicyOrigin origin = PolicyOrigin::Dir;
};

struct CatalogPolicy {
    PolicyFile policy;
    PolicyOrigin origin = PolicyOrigin::Shipped;
    // The name, or "sub/name" for a policy in a sub-folder: either finds it.
    std::string id;
};

// What a catalog policy says about itself, for listings (GET /api/templates,
// list_policy_templates): the variables its template reads, its sample values, its questions as
// rendered with those samples, a description (its leading {{/* comment */}}'s first line, else
// the start of its instructions) and, when it does not load, render or parse, the problem.
struct PolicySummary {
    struct QuestionSummary {
        std::string id, type, question;
        std::vector<std::string> alternatives;
    };
    std::string name, id, description, problem;
    PolicyOrigin origin = PolicyOrigin::Shipped;
    std::string path;  // the file (":/templates/<file>" for a shipped policy)
    std::vector<std::string> variables;
    nlohmann::json sample_variables = nlohmann::json::object();
    std::vector<QuestionSummary> questions;
};
PolicySummary summarize_policy(const CatalogPolicy& policy);

struct CatalogListing {
    std::vector<CatalogPolicy> policies;  // shipped first, then each folder in order
    // Files that were skipped or did not load, one line each naming the file and why; never
    // a file's content.
    std::vector<std::string> problems;
};

struct CatalogLookup {
    enum class Status {
        Found,
        NoSuchPolicy,  // not a name in the catalog: `message` lists the names
        Unloadable,    // in the catalog, but its file does not load: `message` says why
    };
    Status status = Status::NoSuchPolicy;
    std::optional<CatalogPolicy> policy;
    std::string message;
};

class PolicyCatalog {
  public:
    // The shipped policies (unless `with_shipped` is false) and these folders; a folder that
    // does not exist lists nothing (and a problem).
    explicit PolicyCatalog(std::vector<CatalogFolder> folders, bool with_shipped = true);
    PolicyCatalog() = default;  // the shipped policies only

    // The Studio's policy library folder ($XDG_DATA_HOME/decision-studio/policies, by default
    // ~/.local/share/decision-studio/policies).
    static std::filesystem::path user_folder();
    // The shipped policies, the user's folder when it exists and `dirs` (origin Dir).
    static PolicyCatalog standard(const std::vector<std::filesystem::path>& dirs,
                                  bool with_user_folder = true);

    const std::vector<CatalogFolder>& folders() const { return folders_; }

    // Every policy, loaded (each folder's files are read).
    CatalogListing list() const;
    // The policy of that name or id. Only the matching file is read.
    CatalogLookup find(std::string_view name) const;
    // Every name in catalog order, without reading any file.
    std::vector<std::string> names() const;

  private:
    struct Candidate {
        std::filesystem::path file;  // the template as listed in its folder
        std::string name, id;
        PolicyOrigin origin;
    };
    // The templates each folder holds, without opening them; skipped files go to `problems`.
    std::vector<Candidate> candidates(std::vector<std::string>* problems) const;

    std::vector<CatalogFolder> folders_;
    bool with_shipped_ = true;
};

}  // namespace core
