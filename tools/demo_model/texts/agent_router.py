"""agent_router: next_action, needs_approval.

The next action follows the agent's progress on the request:
  - a request that needs facts from outside the repository (library versions, vendor docs, CVEs,
    an error looked up online) and has none yet -> search_web;
  - a change or a question about the code, nothing read yet (or a new failure to look into)
    -> read_files;
  - the relevant code was read (and any needed docs fetched) -> edit_files;
  - code was edited, or the user asks to run the tests -> run_tests;
  - the request is too vague or self-contradictory to act on -> ask_user;
  - the question is answered, a docs-only edit is made, or the tests pass after the change -> finish.
needs_approval: searching the web always reaches outside the repository (yes); an edit that
deletes data (databases, user uploads, backups, secrets) or touches files outside the repository
(/etc, ~/) and a test run against production or live services are yes; reading, ordinary code
edits (removing an unused import or dead code included), local test runs, asking and finishing
are no.
"""

from .common import pick, maybe, typo, FOREIGN

# ---------------------------------------------------------------------------------------------
# Vocabulary: components, files, languages, people.

COMPS = [
    ("login flow", "auth/login"), ("checkout page", "shop/checkout"), ("CSV export", "export/csv"),
    ("upload handler", "upload"), ("rate limiter", "middleware/ratelimit"), ("cache layer", "cache"),
    ("config loader", "config/loader"), ("date formatting", "utils/dates"), ("retry logic", "net/retry"),
    ("pagination", "api/paginate"), ("search endpoint", "api/search"), ("notification service", "notify"),
    ("billing module", "billing/invoice"), ("password reset", "auth/reset"), ("scheduler", "jobs/scheduler"),
    ("markdown parser", "parser/markdown"), ("image resizer", "media/resize"), ("websocket server", "ws/server"),
    ("email templates", "mail/templates"), ("user settings page", "ui/settings"), ("logger", "log"),
    ("CLI", "cli"), ("price calculation", "pricing"), ("shopping cart", "cart"), ("PDF report", "reports/pdf"),
    ("session handling", "auth/session"), ("webhook receiver", "hooks/receiver"), ("i18n strings", "i18n/strings"),
    ("feature flags", "flags"), ("health check", "health"), ("token refresh", "auth/token"),
    ("order history", "orders/history"), ("dark mode toggle", "ui/theme"), ("sitemap generator", "seo/sitemap"),
]
EXTS = ["py", "go", "ts", "js", "rs", "cpp", "java", "rb", "kt", "php", "cs", "swift"]
FUNCS = ["calc", "getData", "process", "handle", "do_stuff", "parseDate", "fmt_price", "load_cfg", "mkUser",
         "checkToken", "retry_once", "send", "buildQuery", "tmp_fix", "helper2", "validate"]
FUNCS2 = ["price_with_tax", "fetch_orders", "process_upload", "handle_request", "parse_iso_date",
          "format_price", "load_config", "create_user", "verify_token", "retry_with_backoff", "send_email",
          "build_search_query", "normalize_input", "validate_payload"]
FLAGS = ["--verbose", "--dry-run", "--json", "--quiet", "--limit", "--since", "--output", "--no-color",
         "--config", "--force-refresh", "--timeout", "--region"]
PEOPLE = ["Sam", "Priya", "Tomasz", "Mei", "Lukas", "Ana", "Jordan", "Kenji", "Fatima", "Olu", "Chris", "Ines"]


def _file(rng, comp_path, ext=None):
    return comp_path + "." + (ext or pick(rng, EXTS))


def _test_file(rng, comp_path, ext):
    base = comp_path.split("/")[-1]
    if ext == "py":
        return "tests/test_" + base + ".py"
    if ext == "go":
        return comp_path + "_test.go"
    if ext in ("ts", "js"):
        return comp_path + ".test." + ext
    if ext == "java":
        return "src/test/" + base.capitalize() + "Test.java"
    return "tests/" + base + "_test." + ext


# ---------------------------------------------------------------------------------------------
# Change requests: (request, is_docs_only).

def _change(rng, comp, path, ext):
    n = int(rng.integers(2, 121))
    f1, f2 = pick(rng, FUNCS), pick(rng, FUNCS2)
    return pick(rng, [
        "Add a {} flag to the CLI.".format(pick(rng, FLAGS)),
        "Add logging to the {}.".format(comp),
        "Fix the bug where the {} crashes on empty input.".format(comp),
        "The {} returns a 500 when the user has no email set. Fix it.".format(comp),
        "Rename {} to {} everywhere.".format(f1, f2),
        "Bump the timeout in the {} to {} seconds.".format(comp, n),
        "Refactor the {} so it doesn't use global state.".format(comp),
        "Make the {} handle unicode names properly.".format(comp),
        "Add input validation to the {}.".format(comp),
        "Port the {} from callbacks to async/await.".format(comp),
        "Replace the print statements in the {} with proper logging.".format(comp),
        "Add type hints to {}.".format(_file(rng, path, ext)),
        "Write unit tests for the {}.".format(comp),
        "Cache the results of {} for {} minutes.".format(f1, n),
        "Make {} return an empty list instead of null.".format(f1),
        "The {} shows dates in UTC, it should use the user's timezone.".format(comp),
        "Off-by-one in the {}: the last page is missing. pls fix".format(comp),
        "Change the default page size in the {} from 20 to {}.".format(comp, n),
        "Add a retry with exponential backoff to the {}.".format(comp),
        "Extract the duplicated code in the {} into a helper.".format(comp),
        "Support a {} env var in the {}.".format(pick(rng, ["LOG_LEVEL", "API_URL", "MAX_RETRIES", "DB_POOL_SIZE"]), comp),
        "Make the {} thread-safe.".format(comp),
        "Fix the memory leak in the {}.".format(comp),
        "Remove the unused imports in {}.".format(_file(rng, path, ext)),
        "Delete the dead function {} from the {}.".format(f1, comp),
        "Add a loading spinner to the {}.".format(comp),
        "The {} is slow with {}k rows, speed it up.".format(comp, n),
        "Implement the TODO in {}.".format(_file(rng, path, ext)),
        "Add a docstring to every public function in the {}.".format(comp),
        "Handle the timeout error in the {} instead of crashing.".format(comp),
        "Add a log line so we can debug the {} in production.".format(comp),
        "Add an index hint to the slow query in the {}.".format(comp),
        "Delete the commented-out code in the {}.".format(comp),
        "Remove the deprecated {} option from the {}.".format(pick(rng, FLAGS), comp),
        "Drop support for Python 3.8 in the {} (we're on 3.12 now).".format(comp),
        "The {} double-charges when the user clicks twice. Fix pls!!".format(comp),
        "Convert the {} config from JSON to YAML.".format(comp),
        "Add a unit test for the empty-cart case in the {}.".format(comp),
        "Make {} accept an optional timeout argument.".format(f2),
        "Sanitise the user input in the {} before it hits the SQL query.".format(comp),
        "Split {} into smaller functions, it's {} lines long.".format(f1, n * 5),
        "Add a feature flag around the new {}.".format(comp),
        "Return a 404 instead of a 500 from the {} when the id is unknown.".format(comp),
        "Use a constant instead of the magic number {} in the {}.".format(n, comp),
        "Add metrics (request count, latency) to the {}.".format(comp),
        "Fix the race condition in the {} that shows up under load.".format(comp),
        "The {} ignores the locale; make it respect it.".format(comp),
        "Create a Dockerfile for the {} service.".format(comp),
        "Replace moment.js with date-fns in the {}.".format(comp),
    ])


def _docs_change(rng, comp):
    return pick(rng, [
        ("Fix the typo 'recieve' in the README.", "README.md"),
        ("Fix the typos in the README.", "README.md"),
        ("Update the install section of the README for {}.".format(pick(rng, ["Windows", "macOS", "Docker", "Ubuntu 24.04"])), "README.md"),
        ("Add a changelog entry for the {} fix.".format(comp), "CHANGELOG.md"),
        ("Fix the broken link in CONTRIBUTING.md.", "CONTRIBUTING.md"),
        ("Document the {} in docs/.".format(comp), "docs/" + comp.replace(" ", "-") + ".md"),
        ("Correct the copyright year in the LICENSE header.", "LICENSE"),
        ("Add a FAQ entry about the {}.".format(comp), "docs/FAQ.md"),
    ])


def _question(rng, comp, path, ext, answerable=False):
    qs = [
        "Explain how the {} works in this repo.".format(comp),
        "Where is the {} implemented?".format(comp),
        "Summarise what the {} does.".format(comp),
        "What does {} do?".format(pick(rng, FUNCS)),
        "Why does the {} reject empty lines? Look at the code.".format(comp),
        "Which files touch the {}?".format(comp),
        "How is the {} configured? Check the code.".format(comp),
        "Who calls {}?".format(pick(rng, FUNCS2)),
        "what's the entry point of this project",
        "Is the {} covered by tests at all?".format(comp),
        "How does our web server route requests to the {}?".format(comp),
        "What does the test {} actually check?".format(_test_file(rng, path, ext)),
        "Does the {} use the database directly or through the ORM?".format(comp),
        "Give me an overview of the folder structure.",
        "Which version of the {} API does our client code call? Check the repo.".format(pick(rng, ["Stripe", "GitHub", "Slack", "Twilio"])),
        "Where do we read the {} env var?".format(pick(rng, ["LOG_LEVEL", "API_URL", "MAX_RETRIES", "DB_POOL_SIZE"])),
        "Can you walk me through the {} code? I'm new here.".format(comp),
        "What happens in the {} when the token expires?".format(comp),
        "Find all the places that write to the users table.",
        "Is {} still used anywhere?".format(pick(rng, FUNCS)),
        "How do the {} and the {} talk to each other?".format(comp, pick(rng, COMPS)[0]),
        "List the TODOs in the {} module.".format(comp),
        "Why is the {} so slow? Look through the code first, don't change anything.".format(comp),
    ]
    # Questions one read file answers (for finish after reading it).
    return qs[:5] + qs[6:7] if answerable else pick(rng, qs)


# Facts from outside the repository.
LIBS = [("requests", "2"), ("Django", "5"), ("React", "19"), ("numpy", "2"), ("Spring Boot", "3"),
        ("Express", "5"), ("pandas", "2"), ("Rails", "8"), ("Qt", "6"), ("tokio", "1"), ("Kubernetes", "1.31"),
        ("Node.js", "22"), ("PostgreSQL", "17"), ("Tailwind", "4"), ("Angular", "18"), ("gRPC", "1.66")]
SERVICES = ["Stripe", "the GitHub REST", "Slack", "Twilio", "the Google Maps", "the AWS S3", "the OpenWeather",
            "the Shopify", "the SendGrid", "the Discord", "the PayPal"]


def _web_question(rng):
    lib, ver = pick(rng, LIBS)
    svc = pick(rng, SERVICES)
    err = pick(rng, ["ECONNRESET", "EADDRINUSE", "SSL: CERTIFICATE_VERIFY_FAILED", "ORA-01555",
                     "error C2039", "E0382 borrow of moved value", "SQLSTATE 40001", "ERR_OSSL_EVP_UNSUPPORTED"])
    return pick(rng, [
        "What is the latest version of {} and what changed?".format(lib),
        "Which Python versions does the newest {} support?".format(lib),
        "Find the official docs for {} API rate limits.".format(svc),
        "Look up the error '{}' and common causes online.".format(err),
        "Google '{}' and tell me what usually causes it.".format(err),
        "How does {} API paginate list endpoints? Check their docs.".format(svc),
        "Is there a known CVE for {} {}?".format(lib, ver),
        "When does {} {} reach end of life?".format(lib, ver),
        "What licence is {} under? Can we ship it in a closed-source product?".format(lib),
        "Find the migration guide from {} {} to the next major version.".format(lib, ver),
        "Is {} API deprecating the v1 endpoints? Look it up.".format(svc),
        "What's the current recommended way to do auth with {} API according to their docs?".format(svc),
        "Search online whether {} {} has a known memory leak.".format(lib, ver),
        "Check the {} release notes: is the bug with timezones fixed upstream?".format(lib),
        "what is the max payload size for {} webhooks? look it up pls".format(svc),
        "Does {} {} still support Windows 7? Check online.".format(lib, ver),
        "What's the default timeout in {} according to the docs?".format(lib),
        "Search the web for how people usually fix '{}'.".format(err),
        "Is {} API free for more than 1000 requests a day? Look it up.".format(svc),
        "What are the GDPR rules for storing IP addresses? Find an authoritative source.",
        "Find the Stack Overflow answers about '{}'.".format(err),
        "which {} version is LTS right now?".format(lib),
        "Find the official {} SDK for Go, if there is one.".format(svc.replace("the ", "")),
        "Find a benchmark comparing {} with its alternatives.".format(lib),
        "Post our error log to the public forum and ask for help.",
    ])


VAGUE = [
    "Make it better.", "Fix the thing we talked about.", "Update the config for the new server.",
    "Do the usual cleanup.", "Can you fix it?", "fix it", "it's broken again", "same as last time pls",
    "Do what Sam said in the meeting.", "Clean this up.",
    "Change it back.", "You know what to do.", "Add the feature from the ticket.",
    "Make the button look nicer.", "Use the new API key.", "Point it at the other database.",
    "Make it like the design.", "Can you sort out the stuff from yesterday?", "Update the numbers.",
    "Make the button blue. No wait, keep it red. Or green? Whatever works.",
    "Should I use option A or B? You decide... actually, which one did the team want?",
    "Remove the old stuff.", "tidy up", "The thing on the dashboard is wrong, pls fix", "Do the migration.",
    "Handle the edge case.", "Set it to the right value.", "hmm, that's not what I meant",
    "Revert whatever you did earlier and do it the other way.", "Can you improve the performance and also not change anything?",
    "Make it work on the client's machine.", "Rename it to what we agreed.", "just make the error go away",
    "Add the usual headers.", "Switch to the library the other team uses.",
    "Make it pop more.", "Fix the numbers in the report, they look off I guess?", "Do the thing.",
    "Can you handle the ticket?", "Refactor it.", "Update it to the new style.", "Implement the spec.",
    "It should work like before.", "Rename everything properly.", "Make it secure.", "Optimise it.",
    "Add the missing stuff.", "fix the bug", "change the text", "Put it where it belongs.",
    "Make it match the other one.", "uhh the page", "Sort the list. Or don't, whatever is easier for the team.",
    "Use the right colours.", "Make it compatible.", "Do it the way the client wants.",
]
VAGUE_AFTER_READ = [
    ("Change the colour.", "read_files: ui/theme.css"),
    ("Fix the date bug.", "read_files: utils/dates.py, legacy/dates.py, api/dates.go (three different date helpers)"),
    ("Update the limit.", "read_files: config/limits.yaml (12 different limits)"),
    ("Use the right endpoint.", "read_files: api/client.ts (4 endpoints defined)"),
    ("Rename the variable.", "read_files: billing/invoice.py"),
    ("Make it use the new format.", "read_files: export/csv.go"),
    ("Fix the wrong translation.", "read_files: i18n/strings.json (14 languages)"),
    ("Point it at the other server.", "read_files: config/servers.yaml (prod, staging, eu, us)"),
    ("Bump the version.", "read_files: package.json, pyproject.toml, Cargo.toml"),
]

DANGER_EDIT = [
    ("Delete all the old migration files and rewrite the schema.", "migrations/"),
    ("Change the nginx config in /etc/nginx to add the new route.", "/etc/nginx/sites-enabled/app"),
    ("Wipe the local database and reseed it.", "seed.sql"),
    ("Remove the user data folder and regenerate it.", "data/"),
    ("Delete the uploads/ folder, it's full of old customer files.", "uploads/"),
    ("Add an entry for api.local to /etc/hosts.", "/etc/hosts"),
    ("Add the new alias to my ~/.bashrc.", "~/.bashrc"),
    ("Update ~/.ssh/config so the deploy host uses the new key.", "~/.ssh/config"),
    ("Delete the backups folder to free disk space.", "backups/"),
    ("Delete the local SQLite database file app.db and start fresh.", "config/database.yml"),
    ("Replace the fixtures in data/real_users.json with fake ones; the originals aren't saved anywhere else.", "data/real_users.json"),
    ("Add the new cron job to the system crontab.", "/etc/crontab"),
    ("Clean out the customer exports in exports/, we're over quota.", "exports/"),
    ("Update the VS Code settings in my home folder to use 4 spaces.", "~/.config/Code/User/settings.json"),
    ("Purge the old invoices from storage/invoices before the audit.", "storage/invoices/"),
    ("Edit the system-wide Python site-packages to patch the bug in requests.", "/usr/lib/python3/dist-packages/requests/"),
    ("Overwrite prod_customers.csv with the cleaned version.", "data/prod_customers.csv"),
    ("Remove the .env file with the production keys and make a fresh one.", ".env"),
    ("Clear out the logs in /var/log/myapp.", "/var/log/myapp/"),
    ("Change the global git config to use my work email.", "~/.gitconfig"),
    ("Edit the shared team config on the NFS mount /mnt/shared/app.yaml.", "/mnt/shared/app.yaml"),
]
DANGER_TEST = [
    "Run the integration tests against the production database.",
    "Run the e2e suite against the live site.",
    "Run the payment tests with the real Stripe keys, not the sandbox.",
    "Run the load test against prod to see if it holds {}k users.",
    "Run the smoke tests on the production cluster.",
    "Run the notification tests; they send real SMS to the customer list.",
    "Run the S3 tests against the real bucket (they delete objects when done).",
    "Run the migration tests on the live db copy that customers still use.",
    "Test it against the client's production API.",
    "Run the email tests using the real mailing list, not the mock.",
    "Run the DB tests on prod, staging is down.",
    "Run the webhook tests against the customer's live endpoint.",
    "Run the cleanup tests; they drop tables in the shared QA database the other teams use.",
    "Run the billing suite in live mode so it charges the test card for real.",
    "Run the scraper tests against the real site, not the saved HTML.",
    "Run the backup-restore test on the production server.",
    "Run the tests with PROD=1 so they hit the real API.",
    "Kick off the full regression suite on the live environment.",
]
RUN_FOLLOWUPS = [
    "ok now run it", "Run the tests.", "now run the tests pls", "ok, test it", "Does it pass?",
    "run the test suite and tell me", "can you check the build still passes?", "Make sure nothing broke.",
    "Make sure the refactor did not break anything.", "run pytest", "run `go test ./...`", "run npm test",
    "cargo test pls", "run ctest", "mvn test and report", "check that CI would be green", "verify it works",
    "ok great. now run the unit tests", "did that break anything? run the tests",
    "run the tests against the local docker db", "run the integration tests with the mock server",
    "run the payment tests in sandbox mode", "make test", "tox -e py312 pls", "run jest in watch mode once",
    "ok and the tests?", "test pls", "go ahead and run the suite", "run the linter and the unit tests",
]
BROKE = [
    "that broke the {}, now it's throwing errors", "After your change the {} doesn't work any more. Find out why.",
    "hmm, the {} is broken since your edit, can you look into it?", "Your last change broke the {}!!",
    "something in the {} regressed after that, please investigate", "now the {} shows a blank page. why?",
    "uh oh, the {} is throwing a NullPointerException since that change. what happened?",
    "You broke the {}. Look at what's going on before you change anything else.",
    "The {} page is 5x slower now, check why", "users report the {} fails after your fix, have a look",
    "the {} stopped sending anything after your last commit?", "QA says the {} is broken on your branch, can you dig in?",
]
THANKS = ["ok looks good, thanks!", "great, that's all for now", "perfect, thanks", "ok cool, we're done",
          "nice, that's it", "thanks, I'm happy with that", "LGTM, wrap it up", "that works, thank you!",
          "ok that's done then", "great job, ship it", "cool, summarise what you did and stop there",
          "alright, all good", "thanks! nothing else for now"]


# ---------------------------------------------------------------------------------------------
# Registers.

OPEN = ["Hi,", "Hey,", "Hello team,", "Hi there!", "Quick one:", "Hey Claude,", "yo", "Morning!", "Good afternoon,",
        "Dear assistant,", "FYI", "Hi, hope you're well.", "OK so", "Question:", "Task:"]
CLOSE = ["Thanks!", "Thanks in advance.", "thx", "ty", "Cheers,", "Best regards,", "pls", "asap please.",
         "No rush.", "Let me know.", "Much appreciated!", "Thanks a lot :)", "ETA?", "Danke!", "Gracias.", "Merci."]
CONTEXT = [
    "I've been staring at this for two hours.", "My manager wants this by Friday.", "We're releasing v{a}.{b} next week.",
    "The customer complained again this morning.", "I'm new to this codebase.", "This came up in code review.",
    "I'm on my phone so keeping it short.", "Context: we merged the big PR yesterday.", "Not urgent, just curious.",
    "We had a demo today and it went badly.", "The previous dev left no docs.", "I pair with {p} on this.",
    "This blocks the {a}.{b} release.", "Ticket JIRA-{b}{a}.", "(sorry for the late message)",
]
VERBS = {"add", "fix", "rename", "bump", "refactor", "make", "port", "replace", "write", "cache", "change",
         "support", "extract", "implement", "handle", "remove", "delete", "drop", "convert", "sanitise", "split",
         "return", "use", "create", "run", "update", "switch", "move", "upgrade", "edit", "clean", "purge", "wipe",
         "test", "kick", "explain", "summarise", "look", "find", "search", "google", "give", "list", "document",
         "correct", "overwrite", "clear"}
NONNATIVE = ["Please can you {}", "I need that you {}", "Kindly {}", "Please help: {}", "Is possible to {}"]


def _lowfirst(s):
    return s[0].lower() + s[1:] if s and not s[:2].isupper() else s


def _context(rng):
    return pick(rng, CONTEXT).format(a=int(rng.integers(1, 5)), b=int(rng.integers(0, 20)), p=pick(rng, PEOPLE))


def _style(rng, core, imperative=True):
    r = rng.random()
    if r < 0.28:
        text = core
    elif r < 0.42:
        op = pick(rng, OPEN)
        text = op + " " + (_lowfirst(core) if op.endswith(",") else core) + " " + pick(rng, CLOSE)
    elif r < 0.54:
        text = core.lower().rstrip(".!")
    elif r < 0.64:
        text = _context(rng) + " " + core
    elif r < 0.72:
        text = "{}\n\n{}\n\n{}\n{}".format(pick(rng, ["Hello,", "Hi team,", "Dear all,", "Hi,"]), core,
                                           pick(rng, ["Best regards,", "Thanks,", "Cheers,", "Kind regards,"]),
                                           pick(rng, PEOPLE))
    elif r < 0.79 and imperative and core.split(" ")[0].lower() in VERBS:
        text = pick(rng, NONNATIVE).format(_lowfirst(core).rstrip(".")) + \
            ("" if core.endswith("pls") else pick(rng, [".", " please.", ", thank you.", ""]))
    elif r < 0.85:
        text = "- {}\n- {}".format(core, _context(rng))
    elif r < 0.9:
        text = "> {}: {}\n{}".format(pick(rng, PEOPLE), core, pick(rng, ["can you take this?", "see above", "fwd", "^ this"]))
    elif r < 0.94 and imperative:
        text = core.upper().rstrip(".") + pick(rng, ["!!!", "!! seriously", ". NOW.", "!!! third time asking"])
    else:
        text = core + " " + pick(rng, FOREIGN)
    return typo(rng, text, 0.05 if maybe(rng, 0.25) else 0.0)


# ---------------------------------------------------------------------------------------------

def _read_note(rng, f):
    return "read_files: " + f + pick(rng, ["", "", " ({} lines)".format(int(rng.integers(20, 900))),
                                            " (found the function)", " (looks like the bug is near line {})".format(int(rng.integers(5, 400)))])


def _edit_note(rng, f):
    return "edit_files: " + f + pick(rng, ["", "", " (+{} -{})".format(int(rng.integers(1, 40)), int(rng.integers(0, 20)))])


def _pass_note(rng, test_file):
    n = int(rng.integers(3, 900))
    return pick(rng, ["run_tests: all {} passed".format(n), "run_tests: all passed", "run_tests: {} passed, 0 failed".format(n),
                      "run_tests: OK ({} tests)".format(n), "run_tests: {} passed".format(test_file),
                      "run_tests: {} passed, {} skipped".format(n, int(rng.integers(1, 9)))])


def _fail_note(rng, test_file):
    k = int(rng.integers(1, 6))
    return pick(rng, ["run_tests: {} failed in {}".format(k, test_file), "run_tests: {} failure in {}".format(k, test_file),
                      "run_tests: FAILED {} (AssertionError)".format(test_file),
                      "run_tests: {} passed, {} failed ({})".format(int(rng.integers(10, 300)), k, test_file)])


def agent_router(rng):
    action = pick(rng, ["search_web", "read_files", "edit_files", "run_tests", "ask_user", "finish"])
    comp, path = pick(rng, COMPS)
    ext = pick(rng, EXTS)
    f = _file(rng, path, ext)
    tf = _test_file(rng, path, ext)
    approval = "no"
    imperative = True
    history = []

    if action == "search_web":
        approval = "yes"  # searching the web reaches outside the repository
        kind = rng.random()
        if kind < 0.6:
            request = _web_question(rng)
            imperative = False
            if maybe(rng, 0.3):
                history = [pick(rng, ["read_files: requirements.txt", "read_files: package.json", "read_files: go.mod",
                                      "read_files: Cargo.toml", "read_files: pom.xml", "read_files: Gemfile.lock"])]
        elif kind < 0.8:
            lib, ver = pick(rng, LIBS)
            request = pick(rng, ["Upgrade {} from {} to the next major version; check the official migration guide first.",
                                 "Move us off {} {}, but read the upstream release notes before touching anything.",
                                 "Migrate to the new {} (we're on {}). Look up what the breaking changes are."]).format(lib, ver)
            history = [pick(rng, ["read_files: requirements.txt", "read_files: package.json", "read_files: build.gradle"])]
        else:
            err = pick(rng, ["ECONNRESET", "SSL: CERTIFICATE_VERIFY_FAILED", "ERR_OSSL_EVP_UNSUPPORTED", "SIGBUS", "EMFILE"])
            request = pick(rng, ["Fix the failing {} tests. The error is from a third-party lib, google it.",
                                 "The {} tests fail with a weird error, look it up online."]).format(comp)
            history = ["run_tests: {} failed with {}".format(int(rng.integers(1, 9)), err)]
    elif action == "read_files":
        kind = rng.random()
        if kind < 0.32:
            request = _change(rng, comp, path, ext)
        elif kind < 0.6:
            request = _question(rng, comp, path, ext)
            imperative = False
        elif kind < 0.72:
            # Requests where reading first is the natural step, all inside the repository.
            request = pick(rng, [d for d, t in DANGER_EDIT if t in ("migrations/", "seed.sql", "data/", ".env", "data/real_users.json")])
        elif kind < 0.84:
            request = pick(rng, ["Fix the failing {} test.".format(comp), "The {} test fails since yesterday; find out why and fix it.".format(comp),
                                 "Run the tests and fix whatever fails.", "CI is red on {}, sort it out.".format(tf),
                                 "the {} tests are flaky, make them stable".format(comp)])
            history = [_fail_note(rng, tf)]
        else:
            other, opath = pick(rng, COMPS)
            while other == comp:
                other, opath = pick(rng, COMPS)
            request = pick(rng, BROKE).format(other)
            imperative = False
            history = [_read_note(rng, f), _edit_note(rng, f), _pass_note(rng, tf)]
    elif action == "edit_files":
        kind = rng.random()
        if kind < 0.3:
            dreq, dfile = pick(rng, DANGER_EDIT)
            request = dreq
            history = ["read_files: " + dfile + pick(rng, ["", "", " ({} files)".format(int(rng.integers(2, 400))) if dfile.endswith("/") else ""])]
            approval = "yes"
        elif kind < 0.65:
            request = _change(rng, comp, path, ext)
            history = [_read_note(rng, f)]
            if maybe(rng, 0.3):
                history = ["read_files: " + tf] + history
        elif kind < 0.75:
            request, doc = _docs_change(rng, comp)
            history = ["read_files: " + doc + pick(rng, ["", "", " (found it on line {})".format(int(rng.integers(3, 300)))])]
        elif kind < 0.87:
            request = pick(rng, ["Fix the failing {} test.".format(comp), "The {} test fails since yesterday; find out why and fix it.".format(comp),
                                 "Run the tests and fix whatever fails."])
            history = [_fail_note(rng, tf), _read_note(rng, f)]
        else:
            lib, ver = pick(rng, LIBS)
            request = pick(rng, ["Use {} {} in the {} per the upgrade guide.", "Switch the {2} over to {0} {1}, follow the official migration notes.",
                                 "Update the {2} for the {0} {1} breaking changes."]).format(lib, ver, comp)
            history = ["search_web: {} {} {}".format(lib, ver, pick(rng, ["migration guide", "release notes", "breaking changes"])), _read_note(rng, f)]
    elif action == "run_tests":
        kind = rng.random()
        if kind < 0.28:
            request = pick(rng, DANGER_TEST).format(int(rng.integers(5, 200)))
            history = [] if maybe(rng, 0.4) else [_read_note(rng, f), _edit_note(rng, f)]
            approval = "yes"
        elif kind < 0.6:
            request = _change(rng, comp, path, ext)
            history = [_read_note(rng, f), _edit_note(rng, f)]
        elif kind < 0.85:
            request = pick(rng, RUN_FOLLOWUPS)
            imperative = False
            history = [_read_note(rng, f), _edit_note(rng, f)]
        else:
            request = pick(rng, ["Run the tests and tell me if anything fails.", "Does the test suite pass on this branch?",
                                 "Check whether the build is green locally.", "run all unit tests pls",
                                 "Make sure the refactor did not break anything."])
    elif action == "ask_user":
        if maybe(rng, 0.75):
            request = pick(rng, VAGUE)
        else:
            request, last = pick(rng, VAGUE_AFTER_READ)
            history = [last]
        imperative = False
    else:  # finish
        kind = rng.random()
        if kind < 0.35:
            request = _change(rng, comp, path, ext)
            history = [_read_note(rng, f), _edit_note(rng, f), _pass_note(rng, tf)]
        elif kind < 0.55:
            request = pick(rng, _question(rng, comp, path, ext, True))
            imperative = False
            history = ["read_files: " + f + pick(rng, ["", " (found it)", " (answer is in the docstring)", " ({} lines)".format(int(rng.integers(20, 900)))])]
        elif kind < 0.68:
            request, doc = _docs_change(rng, comp)
            history = ["read_files: " + doc, _edit_note(rng, doc)]
        elif kind < 0.8:
            lib = pick(rng, LIBS)[0]
            request, note = pick(rng, [("What is the latest version of {} and what changed?", "{} release notes (latest release and changelog)"),
                                       ("Is there a known CVE for {}?", "{} CVE (found the NVD entry and the advisory)"),
                                       ("When does {} reach end of life?", "{} end of life (found the official support policy)"),
                                       ("Find the migration guide for {}.", "{} migration guide (found the official guide)"),
                                       ("What licence is {} under?", "{} license (found it on the project page)")])
            request = request.format(lib)
            imperative = False
            history = ["search_web: " + note.format(lib)]
        elif kind < 0.9:
            request = pick(rng, THANKS)
            imperative = False
            history = [_read_note(rng, f), _edit_note(rng, f), _pass_note(rng, tf)]
        else:
            request = pick(rng, RUN_FOLLOWUPS[:12])
            imperative = False
            history = [_read_note(rng, f), _edit_note(rng, f), _pass_note(rng, tf)]

    request = _style(rng, request, imperative)
    last = history[-1] if history else "none"
    return {"request": request, "last_action": last, "history": list(history)}, {
        "next_action": action, "needs_approval": approval}
