// core::PolicyCatalog on real folders: names and sub-folder ids, which folder wins a name, links
// inside a folder accepted and links out of it skipped unread, paths never resolved, the
// "no policy" message's list of names, summaries, and the Studio's folder under XDG_DATA_HOME.

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "core/policy/policy_catalog.h"
#include "outside_file.h"

namespace fs = std::filesystem;

namespace {

const char* const kPolicy = R"({{/* A door. */}}
{"schema": {"instructions": "You check doors.",
  "questions": [{"id": "open", "type": "noul", "instructions": "Open the {{ .door }} door?"}]}}
)";

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

}  // namespace

class TestPolicyCatalog : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void namesIdsAndPrecedence() {
        QTemporaryDir dir, user;
        const fs::path d = dir.path().toStdString(), u = user.path().toStdString();
        write(d / "door.json.tmpl", kPolicy);
        write(d / "sub" / "gate.json.tmpl", kPolicy);
        write(d / "support_triage.json.tmpl", kPolicy);  // replaces the shipped one
        write(u / "door.json.tmpl", "{{ if }}");         // hidden by the dir's door
        fs::create_symlink(d / "door.json.tmpl", d / "same_door.json.tmpl");  // inside: fine
        core::PolicyCatalog catalog({{u, core::PolicyOrigin::User}, {d, core::PolicyOrigin::Dir}});

        auto door = catalog.find("door");
        QCOMPARE(door.status, core::CatalogLookup::Status::Found);
        QCOMPARE(door.policy->origin, core::PolicyOrigin::Dir);
        auto gate = catalog.find("sub/gate");
        QCOMPARE(gate.status, core::CatalogLookup::Status::Found);
        QCOMPARE(gate.policy->id, std::string("sub/gate"));
        QCOMPARE(catalog.find("gate").policy->id, std::string("sub/gate"));
        QCOMPARE(catalog.find("support_triage").policy->origin, core::PolicyOrigin::Dir);
        QCOMPARE(catalog.find("same_door").status, core::CatalogLookup::Status::Found);
        QCOMPARE(catalog.find("agent_router").policy->origin, core::PolicyOrigin::Shipped);

        const auto listing = catalog.list();
        std::string problems;
        for (const auto& p : listing.problems) problems += p + "\n";
        QVERIFY2(problems.find("is hidden by") != std::string::npos, problems.c_str());
        const auto summary = core::summarize_policy(*catalog.find("door").policy);
        QCOMPARE(summary.description, std::string("A door."));
        QCOMPARE(summary.variables, std::vector<std::string>{"door"});
        QCOMPARE(summary.questions.size(), size_t(1));
        QVERIFY(summary.problem.empty());

        // A policy of the user's folder that does not load is found, and unloadable.
        core::PolicyCatalog only_user({{u, core::PolicyOrigin::User}}, false);
        QCOMPARE(only_user.find("door").status, core::CatalogLookup::Status::Found);
        QVERIFY(core::summarize_policy(*only_user.find("door").policy)
                    .problem.find("door.json.tmpl:1:") != std::string::npos);
        QCOMPARE(only_user.names(), std::vector<std::string>{"door"});
    }

    void pathsAreNoPolicy() {
        QTemporaryDir dir, outside;
        const fs::path d = dir.path().toStdString();
        write(d / "door.json.tmpl", kPolicy);
        OutsideFile secret(fs::path(outside.path().toStdString()) / "secret.json.tmpl", kPolicy);
        QVERIFY(secret.watching());
        fs::create_symlink(secret.path(), d / "leak.json.tmpl");
        fs::create_directories(d / "sub");
        fs::create_directory_symlink(outside.path().toStdString(), d / "sub" / "out");
        core::PolicyCatalog catalog({{d, core::PolicyOrigin::Dir}});

        const std::string rel = fs::relative(secret.path(), fs::current_path()).string();
        for (const std::string& name :
             std::vector<std::string>{secret.path().string(), rel, "leak", "sub/out/secret",
                                      "../" + secret.path().filename().string(), "", "door/",
                                      ":/templates/support_triage.json.tmpl"}) {
            const auto found = catalog.find(name);
            QVERIFY2(found.status == core::CatalogLookup::Status::NoSuchPolicy, name.c_str());
            QVERIFY2(found.message.find("the policies are: 'agent_router'") != std::string::npos,
                     found.message.c_str());
            QVERIFY2(found.message.find("'door'") != std::string::npos, found.message.c_str());
        }
        QVERIFY(catalog.find("/x").message.find("never given by path") != std::string::npos);
        // A long or odd name is echoed bounded, control characters replaced.
        const auto odd = catalog.find(std::string(500, 'a') + "\n");
        QVERIFY(odd.message.find('\n') == std::string::npos);
        QVERIFY(odd.message.size() < 400);

        const auto listing = catalog.list();
        QCOMPARE(listing.policies.size(), catalog.names().size());
        for (const auto& p : listing.policies) QVERIFY(p.policy.name != "leak");
        QVERIFY(!secret.opened());
    }

    void userFolderFollowsXdg() {
        QTemporaryDir data;
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        const fs::path user = core::PolicyCatalog::user_folder();
        QCOMPARE(user, fs::path(data.path().toStdString()) / "decision-studio" / "policies");
        // Not there: the standard catalog is the shipped policies and the dirs.
        QCOMPARE(core::PolicyCatalog::standard({}).folders().size(), size_t(0));
        write(user / "mine.json.tmpl", kPolicy);
        const auto standard = core::PolicyCatalog::standard({});
        QCOMPARE(standard.folders().size(), size_t(1));
        QCOMPARE(standard.find("mine").policy->origin, core::PolicyOrigin::User);
        QCOMPARE(core::PolicyCatalog::standard({}, false).find("mine").status,
                 core::CatalogLookup::Status::NoSuchPolicy);
    }
};

QTEST_GUILESS_MAIN(TestPolicyCatalog)
#include "tst_policy_catalog.moc"
