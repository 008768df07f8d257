"""code_review: approve (noul), change_kind, risk (low..critical)."""

from .common import pick, maybe, typo

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
