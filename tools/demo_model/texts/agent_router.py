"""agent_router: next_action, needs_approval."""

from .common import pick, maybe, typo

AR_CASES = {
    "search_web": [("What is the latest version of the requests library and what changed?", "none", []),
                   ("Which Python versions does the newest Django support?", "none", []),
                   ("Find the official docs for the GitHub REST API rate limits.", "read_files: api_client.py", ["read_files: api_client.py"]),
                   ("Look up the error 'ECONNRESET' and common causes online.", "run_tests: 3 failed with ECONNRESET", ["run_tests: 3 failed with ECONNRESET"]),
                   ("Find out how the Stripe API paginates list endpoints.", "none", []),
                   ("Is there a known CVE for libxml2 2.9.10?", "read_files: requirements.txt", ["read_files: requirements.txt"])],
    "read_files": [("Explain how the login flow works in this repo.", "none", []),
                   ("Why does the parser reject empty lines? Look at the code.", "none", []),
                   ("Add a --verbose flag to the CLI.", "none", []),
                   ("Fix the failing date test.", "run_tests: 1 failed in test_dates.py", ["run_tests: 1 failed in test_dates.py"]),
                   ("The login test fails since yesterday; find out why and fix it.", "run_tests: 1 failure in LoginTest", ["run_tests: 1 failure in LoginTest"]),
                   ("Where is the retry logic implemented?", "none", []), ("Summarise what the config loader does.", "none", []),
                   ("Fix the typo in the README.", "none", [])],
    "edit_files": [("Add a --verbose flag to the CLI.", "read_files: cli.py", ["read_files: cli.py"]),
                   ("Rename the function calc to price_with_tax everywhere.", "read_files: pricing.py, cart.py", ["read_files: pricing.py, cart.py"]),
                   ("Fix the failing date test.", "read_files: dates.py", ["run_tests: 1 failed in test_dates.py", "read_files: dates.py"]),
                   ("Fix the typo 'recieve' in the README.", "read_files: README.md", ["read_files: README.md (found the typo on line 12)"]),
                   ("Add logging to the upload handler.", "read_files: upload.go", ["read_files: upload.go"]),
                   ("Use the new API version 2 in the client.", "search_web: v2 migration guide", ["search_web: v2 migration guide", "read_files: client.py"])],
    "run_tests": [("Add a --verbose flag to the CLI.", "edit_files: cli.py", ["read_files: cli.py", "edit_files: cli.py"]),
                  ("Fix the failing date test.", "edit_files: dates.py", ["run_tests: 1 failed", "read_files: dates.py", "edit_files: dates.py"]),
                  ("Make sure the refactor did not break anything.", "edit_files: pricing.py", ["edit_files: pricing.py"]),
                  ("Add logging to the upload handler.", "edit_files: upload.go", ["read_files: upload.go", "edit_files: upload.go"]),
                  ("Fix the login bug.", "edit_files: auth/token.cpp", ["run_tests: 1 failure", "read_files: auth/token.cpp", "edit_files: auth/token.cpp"])],
    "ask_user": [("Make it better.", "none", []), ("Fix the thing we talked about.", "none", []),
                 ("Change the colour.", "read_files: theme.css", ["read_files: theme.css"]),
                 ("Update the config for the new server.", "none", []),
                 ("Do the usual cleanup.", "none", []), ("Can you fix it?", "none", []),
                 ("Should I use option A or B? You decide... actually, which one did the team want?", "read_files: notes.md", ["read_files: notes.md"])],
    "finish": [("Add a --verbose flag to the CLI.", "run_tests: all 48 passed", ["read_files: cli.py", "edit_files: cli.py", "run_tests: all 48 passed"]),
               ("Fix the failing date test.", "run_tests: all passed", ["read_files: dates.py", "edit_files: dates.py", "run_tests: all passed"]),
               ("What does the main function do?", "read_files: main.py", ["read_files: main.py"]),
               ("Fix the typo in the README.", "edit_files: README.md", ["read_files: README.md", "edit_files: README.md"]),
               ("Where is the retry logic implemented?", "read_files: net/retry.go", ["read_files: net/retry.go (found RetryPolicy)"]),
               ("Add logging to the upload handler.", "run_tests: 112 passed", ["read_files: upload.go", "edit_files: upload.go", "run_tests: 112 passed"])],
}
AR_DANGER = {"edit_files": [("Delete all the old migration files and rewrite the schema.", "read_files: migrations/", ["read_files: migrations/"]),
                            ("Change the nginx config in /etc/nginx to add the new route.", "read_files: /etc/nginx/sites-enabled/app", ["read_files: /etc/nginx/sites-enabled/app"]),
                            ("Wipe the local database and reseed it.", "read_files: seed.sql", ["read_files: seed.sql"]),
                            ("Remove the user data folder and regenerate it.", "read_files: data/", ["read_files: data/"])],
             "search_web": [("Post our error log to the public forum and ask for help.", "none", [])],
             "run_tests": [("Run the integration tests against the production database.", "edit_files: db.py", ["edit_files: db.py"])]}


def agent_router(rng):
    action = pick(rng, list(AR_CASES))
    approval = "no"
    if action in AR_DANGER and action != "search_web" and maybe(rng, 0.35):
        request, last, history = pick(rng, AR_DANGER[action])
        approval = "yes"
    else:
        request, last, history = pick(rng, AR_CASES[action] + AR_DANGER.get(action, []) * (action == "search_web"))
        # Searching the web reaches outside the repository: a person approves it first.
        approval = "yes" if action == "search_web" else "no"
    if maybe(rng, 0.3):
        request = pick(rng, ["Please ", "Hey, ", "Quick one: ", "Can you "]) + request[0].lower() + request[1:]
    if maybe(rng, 0.15):
        request += " " + pick(rng, ["Danke!", "Gracias.", "Merci.", "Thanks."])
    request = typo(rng, request, 0.05 if maybe(rng, 0.3) else 0.0)
    return {"request": request, "last_action": last, "history": list(history)}, {
        "next_action": action, "needs_approval": approval}
