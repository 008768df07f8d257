"""Inputs for the six shipped policies, with their answers fixed by rules this file owns.

Every generator draws the answers first and then writes an input that carries them: the cue
sentences of each answer come from banks keyed by that answer, around them go fillers, greetings,
distractors (details that name no answer's cue), words of other languages, typos and varied
lengths. The rules follow each policy's own criteria and option descriptions, so that a careful
reader of the policy would give the same answers.
"""



def pick(rng, items):
    return items[int(rng.integers(len(items)))]


def maybe(rng, p):
    return rng.random() < p


def typo(rng, text, rate):
    """Swaps, drops or doubles letters in a few words, as hurried typing does."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) > 3 and w.isalpha() and rng.random() < rate:
            j = int(rng.integers(1, len(w) - 1))
            kind = int(rng.integers(3))
            if kind == 0:
                w = w[:j - 1] + w[j] + w[j - 1] + w[j + 1:]
            elif kind == 1:
                w = w[:j] + w[j + 1:]
            else:
                w = w[:j] + w[j] + w[j:]
            words[i] = w
    return " ".join(words)


def shout(rng, text):
    return text.upper() if maybe(rng, 0.3) else text


FOREIGN = [
    "Danke im Voraus.", "Vielen Dank.", "Gracias de antemano.", "Merci beaucoup.", "Bonjour,",
    "Hola equipo,", "Grüße aus Berlin.", "Saludos.", "Cordialement,", "Un saludo.", "Hallo zusammen,",
    "Entschuldigung für mein Englisch.", "Perdón por mi inglés.", "Désolé pour mon anglais.",
]


def compose(rng, cues, fillers, foreign=0.25, typos=0.04, distractors=()):
    """Cue sentences in a random order, with fillers, a distractor and a foreign word or two."""
    parts = list(cues)
    rng.shuffle(parts)
    for _ in range(int(rng.integers(0, 3))):
        parts.insert(int(rng.integers(len(parts) + 1)), pick(rng, fillers))
    if distractors and maybe(rng, 0.35):
        parts.insert(int(rng.integers(len(parts) + 1)), pick(rng, distractors))
    if maybe(rng, foreign):
        parts.insert(0 if maybe(rng, 0.5) else len(parts), pick(rng, FOREIGN))
    text = " ".join(parts)
    return typo(rng, text, typos if maybe(rng, 0.5) else 0.0)


# ----------------------------------------------------------------------------------------------
# support_triage: urgent (noul), team (billing | support | engineering), sentiment (score)

ST_ISSUE = {
    ("billing", "yes"): [
        "I was charged twice for my subscription this month.", "You took {amt} from my card without asking.",
        "My account was billed {amt} for a plan I cancelled.", "There are three identical charges of {amt} on my statement.",
        "Your system keeps charging my card every day.", "I got charged {amt} after my trial even though I cancelled it.",
        "The refund of {amt} you promised never arrived and rent is due.", "We were invoiced {amt} instead of the agreed price and payment is due today.",
        "You charged my card THREE times for the same plan, {amt} gone.", "Money was taken from our account twice for one order.",
        "I see a charge of {amt} I never authorised.", "Your renewal billed us {amt} although we cancelled in time, I need that money back today.",
        "Duplicate payment of {amt} on my credit card, please refund it.", "My bank shows two debits of {amt} from you this week.",
    ],
    ("billing", "no"): [
        "Can I get a copy of last month's invoice?", "How do I switch from the monthly to the yearly plan?",
        "Please add our VAT number to future invoices.", "I want to change the credit card on file.",
        "Could you explain the line 'seat adjustment' on my invoice?", "Do you offer a discount for nonprofits on the team plan?",
        "When will my next payment be taken?", "Can invoices be sent to our accounting email instead?",
        "Could you send me the March invoice as a PDF for our accountant?", "What payment methods do you accept?",
        "Our billing address changed, how do I update it on the invoices?", "Do prices include VAT?",
        "Can we pay by bank transfer instead of card?", "I'd like a receipt for my last payment.",
        "I would like to downgrade to the basic plan next month.", "Is there a refund for the unused part of a yearly plan?",
    ],
    ("support", "yes"): [
        "I am locked out of my account and our client demo starts in an hour.", "Nobody on my team can log in since the password reset and we have a launch today.",
        "My two-factor phone was stolen and I cannot get into the account we run our shop from.",
        "The admin left the company and we cannot access any of our settings, customers are waiting.",
    ],
    ("support", "no"): [
        "How do I reset my password?", "Where do I change the email address on my account?",
        "How can I export my projects to CSV?", "Is there a way to invite a teammate as a viewer only?",
        "How do I turn on dark mode?", "Where can I find the setting for email notifications?",
        "Can I rename my workspace?", "How do I set up two-factor authentication?",
        "What is the keyboard shortcut for search?", "How do I transfer ownership of a project to a colleague?",
        "how do i change the language of the interface? cant find it in settings", "Where do I add a teammate to our workspace?",
        "Is it possible to change my username?", "How can I delete my account?", "Where do I find my API key?",
        "The help article mentions a menu I cannot find, where is it?", "How do I connect my Google calendar?",
        "Can I restore a project I archived last week?", "How do I change the time zone of my account?",
    ],
    ("engineering", "yes"): [
        "The whole app is down, every page shows error 500.", "Since the last update nobody in our company can save anything.",
        "Your API has returned 503 for an hour and our checkout is broken.", "All our data disappeared from the dashboard after the sync.",
        "The service is completely unreachable from all our offices.", "Every upload fails and our production line is stopped.",
    ],
    ("engineering", "no"): [
        "The app crashes when I rotate my tablet.", "The export button does nothing in Firefox.",
        "There is a small bug: the date picker shows the wrong week.", "I get an error message when I attach a file larger than 10 MB.",
        "The search results load slowly since yesterday.", "The chart labels overlap on small screens.",
        "Sometimes the page freezes after I click save, then it works on the second try.",
        "Dark mode shows white text on a white button in settings.",
        "The CSV export puts the dates in the wrong column when a report has more than 1000 rows.", "Notifications arrive twice since the update.",
        "The app crashes when I open a very large file, I can work around it.", "The preview shows a broken image icon for PNG files.",
        "Sorting by name puts lowercase names last, looks like a bug.", "The progress bar gets stuck at 99% but the upload finishes.",
    ],
}
ST_LEAVE = ["Fix this today or I am cancelling.", "If this is not solved today we will move to a competitor.",
            "Refund it today or I am disputing it with my bank.", "We have a product launch today and need this working now.",
            "This is costing us money every hour.", "Otherwise we cancel our contract.",
            "I will cancel my subscription if nobody helps me today.", "We are ready to switch providers over this."]
ST_MOOD = {
    "calm": ["Thanks in advance for your help.", "No rush, just wanted to ask.", "Hope you are having a good day.",
             "Thank you!", "I appreciate your help.", "Kind regards.", "Cheers."],
    "frustrated": ["This is the second time I am writing about this.", "Honestly this is getting frustrating.",
                   "I have been waiting for days and it is annoying.", "I am quite disappointed, this should not happen.",
                   "Why is this so complicated?", "I expected better from a paid product."],
    "furious": ["This is absolutely unacceptable!!!", "WORST SERVICE I HAVE EVER USED.", "I am furious, this is a scam!",
                "Are you kidding me?! This is ridiculous!", "I am beyond angry right now.", "Disgraceful. Completely disgraceful!"],
}
ST_FILL = ["I use the app on my phone and laptop.", "We are a team of twelve.", "My account email is the one I am writing from.",
           "I have been a customer for two years.", "Our company is based in Lisbon.", "I tried again this morning.",
           "Ticket from the contact form.", "Sent from my iPhone."]
ST_DISTRACT = ["My colleague says the new logo looks nice.", "Last year everything worked fine.",
               "I read your blog post about the roadmap.", "We also use your calendar integration."]
AMOUNTS = ["$49", "$120", "€89", "£15", "$9.99", "€240", "$1,200"]


def support_triage(rng):
    team = pick(rng, ["billing", "support", "engineering"])
    urgent = "yes" if maybe(rng, 0.45) else "no"
    sentiment = pick(rng, ["calm", "frustrated", "furious"])
    cues = [pick(rng, ST_ISSUE[(team, urgent)]).replace("{amt}", pick(rng, AMOUNTS))]
    if urgent == "yes" and maybe(rng, 0.3):
        cues.append(pick(rng, ST_LEAVE))
    elif urgent == "no" and maybe(rng, 0.3):
        cues.append(pick(rng, ["It can wait until next week.", "Whenever you have time.", "Not urgent."]))
    cues.append(pick(rng, ST_MOOD[sentiment]))
    if sentiment == "furious" and maybe(rng, 0.5):
        cues.append(pick(rng, ST_MOOD["furious"]))
    text = compose(rng, cues, ST_FILL, distractors=ST_DISTRACT)
    if sentiment == "furious":
        text = shout(rng, text)
    return {"ticket": text}, {"urgent": urgent, "team": team, "sentiment": sentiment}


# ----------------------------------------------------------------------------------------------
# code_review: approve (noul), change_kind, risk (low..critical)

CR_FILES = {"py": ["app/models.py", "billing/invoice.py", "utils/dates.py", "api/views.py"],
            "js": ["src/cart.js", "src/api/client.js", "web/form.js"],
            "go": ["pkg/store/store.go", "cmd/server/main.go", "internal/auth/token.go"],
            "cpp": ["src/parser.cpp", "engine/cache.cpp", "lib/buffer.cc"]}
CR_LINES = {
    "bug_fix": [("-    if i <= len(items):", "+    if i < len(items):"), ("-  return total / count;", "+  return count == 0 ? 0 : total / count;"),
                ("-    if (user = null) {", "+    if (user === null) {"), ("-	defer mu.Unlock()", "+	mu.Lock()\n+	defer mu.Unlock()"),
                ("-    tz = None", "+    tz = timezone.utc")],
    "feature": [("", "+def export_csv(rows, path):\n+    with open(path, 'w') as f:\n+        for r in rows:\n+            f.write(','.join(map(str, r)) + '\\n')"),
                ("", "+export function applyCoupon(cart, code) {\n+  cart.discount = lookupCoupon(code);\n+  return cart;\n+}"),
                ("", "+func (s *Store) Archive(id string) error {\n+	return s.db.Exec(\"UPDATE items SET archived = 1 WHERE id = ?\", id)\n+}"),
                ("", "+    parser.add_argument('--dry-run', action='store_true')")],
    "refactor": [("-def calc(a, b):\n-    return a*b + a*b*0.2", "+def price_with_tax(amount, qty):\n+    net = amount * qty\n+    return net + net * TAX_RATE"),
                 ("-  const x = getData(); const y = x.map(f);", "+  const items = getData();\n+  const labels = items.map(toLabel);"),
                 ("-std::string s = a + b + c;", "+std::string s;\n+s.reserve(a.size() + b.size() + c.size());\n+s += a; s += b; s += c;")],
    "tests": [("", "+def test_empty_cart_total_is_zero():\n+    assert Cart().total() == 0"),
              ("", "+test('applies coupon', () => {\n+  expect(applyCoupon(cart, 'X10').discount).toBe(10);\n+});"),
              ("", "+func TestArchive(t *testing.T) {\n+	s := newTestStore(t)\n+	if err := s.Archive(\"a\"); err != nil { t.Fatal(err) }\n+}")],
    "docs": [("-# Setup", "+# Installation\n+\n+Run `make install` first."), ("-// TODO", "+// Returns the cached entry, or nullptr when it expired."),
             ("", "+Configuration lives in `config.yaml`; see the examples folder."), ("-    \"\"\"Helper.\"\"\"", "+    \"\"\"Parses an ISO date and returns a UTC datetime.\"\"\"")],
}
CR_PROBLEMS = [  # what makes a change unmergeable, with the risk it carries
    ("+    query = \"SELECT * FROM users WHERE name = '\" + name + \"'\"", "critical"),
    ("+    password = \"hunter2\"  # TODO remove", "critical"),
    ("+  eval(req.body.code);", "critical"),
    ("+    except Exception:\n+        pass", "high"),
    ("+    for i in range(len(items) + 1):", "high"),
    ("+	go func() { counter++ }()", "high"),
    ("+  // no test yet, will add later", "medium"),
    ("+    x = x  # ???", "medium"),
]
CR_DESC = {
    "bug_fix": ["Fix off-by-one in pagination", "Fix crash when the list is empty", "Fixes #482: wrong total", "fix null check"],
    "feature": ["Add CSV export", "Support coupons in the cart", "New archive endpoint", "add --dry-run flag"],
    "refactor": ["Rename helpers for clarity, no behaviour change", "Refactor: split long function", "Clean up string building"],
    "tests": ["Add tests for cart totals", "More unit tests", "Test the archive path"],
    "docs": ["Update README", "Docs: explain configuration", "Improve comments"],
}
CR_LIAR = ["Tiny change, safe to merge.", "Trivial, LGTM please.", "Just a cleanup.", "Already tested locally, all good."]


def code_review(rng):
    kind = pick(rng, ["bug_fix", "feature", "refactor", "tests", "docs"])
    approve = "yes" if maybe(rng, 0.55) else "no"
    lang = pick(rng, list(CR_FILES))
    path = pick(rng, CR_FILES[lang])
    if kind == "tests":
        path = path.replace("src/", "tests/").replace("app/", "tests/").rsplit("/", 1)[0] + "/test_" + path.rsplit("/", 1)[1]
    if kind == "docs" and maybe(rng, 0.5):
        path = pick(rng, ["README.md", "docs/setup.md", "CONTRIBUTING.md"])
    old, new = pick(rng, CR_LINES[kind])
    lines = [f"--- a/{path}", f"+++ b/{path}", f"@@ -{int(rng.integers(1, 300))},6 +{int(rng.integers(1, 300))},7 @@"]
    if maybe(rng, 0.6):
        lines.append(pick(rng, ["     def run(self):", "   const total = 0;", " func main() {", "   // helpers", " import os"]))
    lines += [ln for ln in old.split("\n") if ln] + [ln for ln in new.split("\n") if ln]
    if approve == "no":
        problem, risk = pick(rng, CR_PROBLEMS)
        if kind in ("docs", "tests") and risk == "critical":
            problem, risk = pick(rng, CR_PROBLEMS[3:])
        lines.insert(len(lines) - int(rng.integers(0, 2)), problem)
    else:
        risk = {"docs": "low", "tests": "low", "refactor": pick(rng, ["low", "medium"]),
                "bug_fix": pick(rng, ["low", "medium"]), "feature": pick(rng, ["medium", "low"])}[kind]
    desc = pick(rng, CR_DESC[kind])
    if maybe(rng, 0.3):
        desc += " " + pick(rng, CR_LIAR)
    if maybe(rng, 0.15):
        desc = typo(rng, desc, 0.2)
    return {"diff": "\n".join(lines), "description": desc if maybe(rng, 0.85) else ""}, {
        "approve": approve, "change_kind": kind, "risk": risk}


# ----------------------------------------------------------------------------------------------
# content_moderation: violates, category, severity (none..severe), action

CM_POSTS = {
    "none": ["Just finished my first marathon, so happy!", "Does anyone know a good recipe for lentil soup?",
             "The sunset at the lake tonight was amazing.", "Great game last night, what a comeback.",
             "Looking for recommendations for a budget laptop.", "My cat learned to open the door, send help lol.",
             "I disagree with the new policy, but I see the point.", "Happy birthday to my best friend!"],
    "harassment": ["@{user} you are a worthless idiot and everyone knows it.", "{user}, nobody wants you here, just leave, loser.",
                   "I know where you live, {user}, watch your back.", "{user} is so ugly and stupid, lol what a clown."],
    "hate": ["People from that country are all criminals and should be banned.", "Those immigrants are vermin.",
             "That religion is a disease and its followers are subhuman.", "Women are too stupid to vote."],
    "self_harm": ["I don't want to be alive anymore, I have the pills ready tonight.", "Cutting is the only thing that helps me, here is how I do it.",
                  "I am going to end it all this weekend, goodbye everyone.", "Nobody would miss me if I jumped."],
    "violence": ["Someone should shoot the mayor, I'd do it myself.", "Let's burn down their office on Friday.",
                 "I'll beat up the next guy who parks there.", "That attack was glorious, we need more of them."],
    "spam": ["BUY CHEAP FOLLOWERS NOW!!! visit cheap-followers.example", "Earn $5000 a week from home, click here: bit.ly/xx",
             "Crypto giveaway!!! send 1 BTC get 2 back", "Best replica watches, DM me, best price, DM me, best price."],
}
CM_MILD = {"harassment": ["@{user} you're kind of an idiot tbh.", "{user} always talks nonsense, what a clown."],
           "spam": ["Check out my new shop, link in bio!", "Follow my page for more deals :)"],
           "hate": ["Ugh, typical boomers, they ruin everything."],
           "violence": ["I could strangle my printer right now lol, but seriously I'd punch that guy."]}
CM_USERS = ["@maria_k", "@tom88", "@jonas", "@lee.w", "@sam_r"]
CM_PLATFORMS = ["a general social network", "a gaming forum", "a parenting community", "a local news comment section", "a photo sharing app"]
CM_LOCALES = ["en-US", "en-GB", "de-DE", "es-ES", "fr-FR"]


def content_moderation(rng):
    category = pick(rng, ["none", "harassment", "hate", "self_harm", "violence", "spam"])
    if category == "none":
        severity, action, text = "none", "allow", pick(rng, CM_POSTS["none"])
        if maybe(rng, 0.4):
            text += " " + pick(rng, CM_POSTS["none"])
    else:
        mild = category in CM_MILD and maybe(rng, 0.3)
        text = pick(rng, CM_MILD[category] if mild else CM_POSTS[category])
        if category == "self_harm":
            severity, action = "severe", "escalate"
        elif mild:
            severity, action = "mild", "label"
        elif category == "spam":
            severity, action = "serious", "remove"
        elif category == "violence" or (category == "harassment" and "where you live" in text):
            severity, action = "severe", "escalate"
        else:
            severity, action = "serious", "remove"
    text = text.replace("{user}", pick(rng, CM_USERS))
    if maybe(rng, 0.2):
        text = pick(rng, ["lol ", "ok so ", "honestly ", ""]) + text
    if maybe(rng, 0.2):
        text += " " + pick(rng, ["#mood", "#weekend", "😂", "!!!", "#truth"])
    text = typo(rng, text, 0.05 if maybe(rng, 0.4) else 0.0)
    violates = "no" if category == "none" else "yes"
    return {"content": text, "platform": pick(rng, CM_PLATFORMS), "locale": pick(rng, CM_LOCALES)}, {
        "violates": violates, "category": category, "severity": severity, "action": action}


# ----------------------------------------------------------------------------------------------
# contract_audit: auto_renewal, liability, termination, risk (minimal..severe)

CA_RENEW = {"yes": ["This Agreement renews automatically for successive one-year terms unless either party gives notice of non-renewal at least {n} days before the end of the current term.",
                    "The subscription shall automatically renew for additional periods of {m} months unless cancelled in writing.",
                    "Upon expiry, the term is extended automatically by twelve months unless the Customer objects in writing."],
            "no": ["This Agreement ends at the end of the Initial Term and may be renewed only by a signed amendment.",
                   "The term is {m} months and does not renew unless the parties agree in writing.", ""]}
CA_LIAB = {"unlimited": ["Nothing in this Agreement limits the Vendor's liability, which shall be unlimited.",
                         "The Vendor's liability under this Agreement is not capped."],
           "capped_at_fees": ["The Vendor's total liability shall not exceed the fees paid by the Customer in the twelve months preceding the claim.",
                              "Liability of the Supplier is limited to the amounts paid under this Agreement during the prior {m} months."],
           "capped_at_multiple": ["The Vendor's aggregate liability is limited to {k} times the annual contract value.",
                                  "In no event shall the Supplier's liability exceed {k}x the yearly fees."],
           "not_addressed": [""]}
CA_TERM = {"at_will": ["The Customer may terminate this Agreement at any time for convenience on {n} days' written notice.",
                       "Either party may end the Agreement at any time by giving {n} days' notice."],
           "for_cause": ["The Customer may terminate only if the Vendor materially breaches this Agreement and fails to cure the breach within {n} days.",
                         "Termination by the Customer is permitted solely for the Vendor's uncured material breach."],
           "at_term_end": ["The Customer may terminate only with effect from the end of the then-current term.",
                           "No early termination is permitted; the Customer may end the Agreement at the end of a term."],
           "not_addressed": [""]}
CA_TYPES = ["SaaS subscription", "cloud hosting", "software license", "data processing", "maintenance and support"]
CA_FILL = ["All notices shall be in writing.", "Capitalised terms have the meaning given in Section 1.",
           "This Agreement is governed by the laws of the State of New York.", "Fees are payable within thirty days of invoice."]


def contract_audit(rng):
    renew = "yes" if maybe(rng, 0.5) else "no"
    liability = pick(rng, list(CA_LIAB))
    termination = pick(rng, list(CA_TERM))
    if liability == "not_addressed" and termination == "not_addressed" and renew == "no":
        termination = "at_will"
    if renew == "yes" and termination == "not_addressed":
        termination = "at_term_end"  # the notice of non-renewal is how the buyer ends it
    parts = [pick(rng, CA_RENEW[renew]), pick(rng, CA_LIAB[liability]), pick(rng, CA_TERM[termination])]
    parts = [p.replace("{n}", pick(rng, ["30", "60", "90", "thirty", "ninety"])).replace("{m}", pick(rng, ["12", "24", "36"]))
             .replace("{k}", pick(rng, ["two", "three", "2", "5"])) for p in parts if p]
    if maybe(rng, 0.5):
        parts.append(pick(rng, CA_FILL))
    rng.shuffle(parts)
    # Risk for the buyer: unlimited liability is good for the buyer; a tight cap, no way out and
    # automatic renewal add risk.
    points = {"unlimited": 0, "capped_at_multiple": 1, "capped_at_fees": 2, "not_addressed": 1}[liability]
    points += {"at_will": 0, "for_cause": 1, "at_term_end": 2, "not_addressed": 1}[termination]
    points += 1 if renew == "yes" else 0
    risk = ["minimal", "minimal", "moderate", "elevated", "severe", "severe"][points]
    return {"clause": " ".join(parts), "contract_type": pick(rng, CA_TYPES)}, {
        "auto_renewal": renew, "liability": liability, "termination": termination, "risk": risk}


# ----------------------------------------------------------------------------------------------
# security_incident: confirmed, vector, containment, severity (low..critical)

SI_ALERTS = {
    ("phishing", "yes"): ["User {u} entered credentials on a fake login page at {d}; a login from {ip} followed 10 minutes later and mailbox rules were created.",
                          "{u} opened an invoice attachment from a spoofed sender; the macro launched powershell and contacted {ip}."],
    ("phishing", "no"): ["{n} employees received an email imitating the payroll portal; the link was blocked by the mail gateway and nobody clicked.",
                         "Reported phishing email to {u}: fake password expiry notice, quarantined, no clicks recorded."],
    ("leaked_credential", "yes"): ["AWS access key AKIA{k} found in a public GitHub repository was used from {ip} to list and download S3 buckets.",
                                   "A database password posted in a public pastebin was used to log in from {ip}; 40,000 rows were exported."],
    ("leaked_credential", "no"): ["Secret scanner found an API token committed to a public repo 5 minutes ago; no use of the token in the logs yet.",
                                  "A Slack webhook URL appeared in a public gist; audit log shows no calls since."],
    ("vulnerable_service", "yes"): ["WAF logs show exploitation of the unpatched file upload endpoint on {h}; a web shell was written and executed.",
                                    "IDS: remote code execution against the outdated Confluence on {h}; a reverse shell to {ip} was opened."],
    ("vulnerable_service", "no"): ["Scanner from {ip} probed {h} for the Log4Shell vulnerability; all requests returned 404.",
                                   "Vulnerability scan lists an outdated OpenSSL on {h}; no exploitation attempts seen."],
    ("misconfiguration", "yes"): ["A storage bucket was public by mistake; access logs show {n} downloads of customer files from unknown IPs.",
                                  "An Elasticsearch cluster on {h} was left open to the internet and its index was read and deleted by {ip}."],
    ("misconfiguration", "no"): ["Config audit: security group on {h} allows SSH from 0.0.0.0/0; no logins from outside seen.",
                                 "A test bucket was found public during review; it holds only sample data and was never accessed."],
    ("insider", "yes"): ["Employee {u} downloaded the full customer list to a personal USB drive two days before leaving the company.",
                         "Admin {u} used their access to read the CEO's mailbox without a ticket or approval."],
    ("insider", "no"): ["DLP flagged {u} emailing a spreadsheet to their personal address; it contains only their own timesheet.",
                        "Unusual after-hours access by {u} to the finance share; the manager confirms it was approved overtime."],
}
SI_SOURCES = ["SIEM", "EDR", "CloudTrail", "GuardDuty", "mail gateway", "WAF", "DLP", "GitHub secret scanning"]


def security_incident(rng):
    vector = pick(rng, ["phishing", "leaked_credential", "vulnerable_service", "misconfiguration", "insider"])
    confirmed = "yes" if maybe(rng, 0.5) else "no"
    text = pick(rng, SI_ALERTS[(vector, confirmed)])
    text = (text.replace("{u}", pick(rng, ["j.smith", "a.khan", "mlopez", "p.novak", "svc-backup"]))
            .replace("{ip}", pick(rng, ["203.0.113.7", "198.51.100.23", "45.83.12.9", "185.220.101.4"]))
            .replace("{h}", pick(rng, ["web-prod-02", "wiki.internal", "api-gw-1", "db-replica-3"]))
            .replace("{d}", pick(rng, ["09:14 UTC", "02:40 UTC", "17:55 UTC"]))
            .replace("{n}", pick(rng, ["12", "37", "140", "5"])).replace("{k}", "".join(pick(rng, list("ABCDEFGHJKLMNPQRSTUVWXYZ234567")) for _ in range(8))))
    if confirmed == "yes":
        containment = {"phishing": "isolate_host" if "powershell" in text else "rotate_credentials", "leaked_credential": "rotate_credentials", "vulnerable_service": "isolate_host",
                       "misconfiguration": "page_team", "insider": "page_team"}[vector]
        severity = "critical" if vector in ("vulnerable_service", "misconfiguration") or "exported" in text else "high"
    else:
        containment = "rotate_credentials" if vector == "leaked_credential" else "monitor"
        severity = "moderate" if vector == "leaked_credential" else "low"
    if maybe(rng, 0.3):
        text = pick(rng, ["[ALERT] ", "ALERT: ", "sev? ", "auto-generated: "]) + text
    if maybe(rng, 0.2):
        text += " " + pick(rng, ["Ticket opened automatically.", "Rule: generic-anomaly-7.", "Analyst on call notified."])
    return {"alert": text, "source": pick(rng, SI_SOURCES)}, {
        "confirmed": confirmed, "vector": vector, "containment": containment, "severity": severity}


# ----------------------------------------------------------------------------------------------
# agent_router: next_action, needs_approval

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


GENERATORS = {
    "support_triage": support_triage,
    "code_review": code_review,
    "content_moderation": content_moderation,
    "contract_audit": contract_audit,
    "security_incident": security_incident,
    "agent_router": agent_router,
}
