"""code_review: approve (noul), change_kind, risk (low..critical).

Rules: a diff of one main kind (bug_fix, feature, refactor, tests, docs) in one of many languages.
approve "no" iff the diff carries a blocking problem line; the problem fixes the risk
(security problems critical, real bugs high, missing/removed tests or unclear design medium).
Without a problem: docs and tests are low; code in a sensitive area (auth, billing, payments,
migrations, crypto) is medium; other code low. The description is a claim, never evidence.
"""

from .common import pick, maybe, typo

LANGS = ["py", "js", "ts", "go", "c", "cpp", "java", "rust", "sql", "yaml", "sh", "docker"]
SENSITIVE = ["auth", "billing", "payments", "security", "migrations", "crypto", "session", "checkout"]
PLAIN = ["utils", "reports", "ui", "search", "export", "notifications", "catalog", "metrics", "cli", "profile"]
EXT = {"py": ".py", "js": ".js", "ts": ".ts", "go": ".go", "c": ".c", "cpp": ".cpp", "java": ".java",
       "rust": ".rs", "sql": ".sql", "yaml": ".yml", "sh": ".sh", "docker": ""}
ROOT = {"py": ["app", "src", "service", "backend", ""], "js": ["src", "web/src", "frontend/src", "lib"],
        "ts": ["src", "packages/core/src", "apps/web/src"], "go": ["pkg", "internal", "cmd/server"],
        "c": ["src", "lib", "drivers"], "cpp": ["src", "engine", "core"], "java": ["src/main/java/com/acme"],
        "rust": ["src", "crates/core/src"], "sql": ["db/migrations", "migrations", "sql"],
        "yaml": [".github/workflows", "deploy", "k8s", "config"], "sh": ["scripts", "bin", "ci"], "docker": [""]}
FNAMES = ["handler", "store", "client", "parser", "service", "cache", "worker", "helpers", "views", "models",
          "queue", "router", "validator", "session", "invoice", "token", "scheduler", "config", "loader"]
IDS = dict(
    fn=["load_user", "parse_date", "compute_total", "send_invoice", "fetch_orders", "apply_discount",
        "resolve_path", "refresh_token", "build_report", "sync_accounts", "merge_carts", "read_config"],
    cfn=["loadUser", "parseDate", "computeTotal", "sendInvoice", "fetchOrders", "applyDiscount",
         "resolvePath", "refreshToken", "buildReport", "syncAccounts", "mergeCarts", "readConfig"],
    gfn=["LoadUser", "ParseDate", "ComputeTotal", "SendInvoice", "FetchOrders", "ApplyDiscount",
         "ResolvePath", "RefreshToken", "BuildReport", "SyncAccounts", "MergeCarts", "ReadConfig"],
    var=["items", "rows", "orders", "users", "entries", "records", "lines", "chunks", "events", "jobs"],
    tbl=["users", "orders", "invoices", "accounts", "sessions", "payments", "audit_log", "products"],
    col=["email", "status", "created_at", "amount", "tenant_id", "deleted_at", "currency", "last_login"],
    n=["2", "3", "5", "10", "30", "60", "100", "256", "500", "1024"],
    flag=["--dry-run", "--verbose", "--since", "--limit", "--format", "--no-color", "--output", "--parallel"],
    svc=["api", "worker", "billing", "gateway", "frontend", "scheduler", "search"],
    ver=["1.4.2", "2.0.1", "3.11", "18", "1.22", "0.9.7", "5.2.0", "20.04", "22.04", "3.19"],
)

# Hunk bodies: lines with their diff prefix; placeholders from IDS.
HUNKS = {
 "py": {
  "bug_fix": [" def {fn}({var}, i):\n-    if i <= len({var}):\n+    if i < len({var}):\n         return {var}[i]",
              "     total = sum(x.amount for x in {var})\n-    return total / len({var})\n+    return total / len({var}) if {var} else 0",
              "-    now = datetime.now()\n+    now = datetime.now(timezone.utc)",
              "-def {fn}({var}=[]):\n+def {fn}({var}=None):\n+    {var} = [] if {var} is None else {var}",
              "-    if user.role == 'admin' or 'owner':\n+    if user.role in ('admin', 'owner'):",
              "-    with open(path) as f:\n+    with open(path, encoding='utf-8') as f:",
              "     resp = session.get(url, timeout={n})\n-    data = resp.json()\n+    resp.raise_for_status()\n+    data = resp.json()",
              "-    return round(price * 100) / 100\n+    return (Decimal(price) * 100).quantize(Decimal('1')) / 100"],
  "feature": ["+def {fn}_csv({var}, path):\n+    with open(path, 'w', newline='') as f:\n+        w = csv.writer(f)\n+        for r in {var}:\n+            w.writerow(r)",
              "+    parser.add_argument('{flag}', action='store_true', help='new option')",
              "+@app.route('/api/v2/{tbl}/<int:item_id>/archive', methods=['POST'])\n+@login_required\n+def archive_{tbl}(item_id):\n+    item = {tbl}.get_or_404(item_id)\n+    item.archived = True\n+    db.session.commit()\n+    return jsonify(ok=True)",
              "+    def retry_after(self):\n+        \"\"\"Seconds until the next retry, with jitter.\"\"\"\n+        return min(self.base * 2 ** self.attempt, {n}) + random.random()",
              "+CACHE_TTL = int(os.environ.get('CACHE_TTL', '{n}'))\n+\n+@lru_cache(maxsize=256)\n+def {fn}_cached(key):\n+    return {fn}(key)"],
  "refactor": ["-def calc(a, b):\n-    return a*b + a*b*0.2\n+def price_with_tax(amount, qty):\n+    net = amount * qty\n+    return net + net * TAX_RATE",
               "-    result = []\n-    for x in {var}:\n-        if x.active:\n-            result.append(x.id)\n-    return result\n+    return [x.id for x in {var} if x.active]",
               "-from utils import *\n+from utils import {fn}, slugify",
               "-    def _do(self, d):\n+    def _normalize_payload(self, payload):",
               "-class {gfn}Manager:\n+class {gfn}Service:",
               "-    return dict(map(lambda kv: (kv[0], kv[1] * 2), d.items()))\n+    return {{k: v * 2 for k, v in d.items()}}",
               "-    print('loading %s' % path)\n+    print(f'loading {{path}}')",
               "-        if a:\n-            if b:\n-                return True\n-        return False\n+        return bool(a and b)"],
  "tests": ["+def test_{fn}_handles_empty_list():\n+    assert {fn}([]) == []",
            "+@pytest.mark.parametrize('value,expected', [('2024-01-31', 31), ('2024-02-29', 29)])\n+def test_day(value, expected):\n+    assert parse_date(value).day == expected",
            "+def test_{fn}_raises_on_bad_input():\n+    with pytest.raises(ValueError):\n+        {fn}(None)",
            "+def test_{fn}_is_idempotent(db_session):\n+    first = {fn}(db_session)\n+    assert {fn}(db_session) == first",
            "+@freeze_time('2024-03-31 23:59:59')\n+def test_month_end_rollover():\n+    assert next_billing_date().day == 30",
            "+def test_{fn}_logs_warning(caplog):\n+    {fn}([])\n+    assert 'empty' in caplog.text",
            "+class Test{gfn}(unittest.TestCase):\n+    def test_zero(self):\n+        self.assertEqual({fn}(0), 0)"],
 },
 "js": {
  "bug_fix": ["-    if (user = null) {{\n+    if (user === null) {{",
              "-  for (let i = 0; i <= {var}.length; i++) {{\n+  for (let i = 0; i < {var}.length; i++) {{",
              "-  const total = {var}.reduce((a, b) => a + b.price);\n+  const total = {var}.reduce((a, b) => a + b.price, 0);",
              "-  setTimeout(refresh, {n});\n+  clearTimeout(timer);\n+  timer = setTimeout(refresh, {n});",
              "-  return parseInt(value);\n+  return parseInt(value, 10);",
              "-    await Promise.all({var}.map(save))\n+    await Promise.allSettled({var}.map(save));"],
  "feature": ["+export function applyCoupon(cart, code) {{\n+  const coupon = lookupCoupon(code);\n+  cart.discount = coupon ? coupon.percent : 0;\n+  return cart;\n+}}",
              "+router.get('/health', (req, res) => {{\n+  res.json({{ status: 'ok', uptime: process.uptime() }});\n+}});",
              "+  const [darkMode, setDarkMode] = useState(false);\n+  <Toggle checked={{darkMode}} onChange={{setDarkMode}} label=\"Dark mode\" />",
              "+export const formatMoney = (cents, currency = 'EUR') =>\n+  new Intl.NumberFormat('de-DE', {{ style: 'currency', currency }}).format(cents / 100);"],
  "refactor": ["-  const x = getData(); const y = x.map(f);\n+  const {var} = getData();\n+  const labels = {var}.map(toLabel);",
               "-var self = this;\n-fetch(url).then(function (r) {{ self.render(r); }});\n+fetch(url).then((r) => this.render(r));",
               "-const {cfn} = require('./{cfn}');\n+import {{ {cfn} }} from './{cfn}.js';",
               "-  if (a) {{ return true; }} else {{ return false; }}\n+  return Boolean(a);",
               "-function getName(u) {{ return u && u.profile && u.profile.name; }}\n+const getName = (u) => u?.profile?.name;",
               "-  let out = '';\n-  out += first + ' ' + last;\n+  const out = `${{first}} ${{last}}`;"],
  "tests": ["+test('applies coupon', () => {{\n+  expect(applyCoupon(cart, 'X10').discount).toBe(10);\n+}});",
            "+describe('{cfn}', () => {{\n+  it('returns [] for empty input', () => {{\n+    expect({cfn}([])).toEqual([]);\n+  }});\n+}});",
            "+  test('renders the empty state', () => {{\n+    render(<OrderList {var}={{[]}} />);\n+    expect(screen.getByText('No orders yet')).toBeInTheDocument();\n+  }});",
            "+  beforeEach(() => jest.useFakeTimers());\n+  it('debounces saves', () => {{\n+    jest.advanceTimersByTime({n});\n+    expect(save).toHaveBeenCalledTimes(1);\n+  }});",
            "+it('rejects an expired token', async () => {{\n+  await expect({cfn}('expired')).rejects.toThrow('expired');\n+}});"],
 },
 "ts": {
  "bug_fix": ["-  return {var}[{var}.length];\n+  return {var}[{var}.length - 1];",
              "-  const id = req.params.id as number;\n+  const id = Number.parseInt(req.params.id, 10);",
              "-  if (!user.email) return;\n+  if (!user?.email) return;",
              "-    await {cfn}(order);\n+    await {cfn}(order).catch((err) => logger.error({{ err }}, 'failed'));"],
  "feature": ["+export interface {gfn}Options {{\n+  retries?: number;\n+  timeoutMs?: number;\n+}}\n+\n+export async function {cfn}WithRetry(opts: {gfn}Options = {{}}): Promise<void> {{\n+  for (let i = 0; i < (opts.retries ?? {n}); i++) {{\n+    if (await {cfn}()) return;\n+  }}\n+}}",
              "+  @Get(':id/history')\n+  @UseGuards(AuthGuard)\n+  history(@Param('id') id: string) {{\n+    return this.{tbl}Service.history(id);\n+  }}"],
  "refactor": ["-function {cfn}(a: any, b: any): any {{\n+function {cfn}(a: Order, b: Order): number {{",
               "-type Props = {{ [key: string]: any }};\n+interface Props {{\n+  title: string;\n+  onClose: () => void;\n+}}",
               "-  const res = await fetch(url).then(r => r.json()).then(d => d.data);\n+  const res = await fetch(url);\n+  const {{ data }} = await res.json();"],
  "tests": ["+  it('returns 401 without a session', async () => {{\n+    const res = await request(app).get('/api/{tbl}');\n+    expect(res.status).toBe(401);\n+  }});",
            "+describe('{cfn}', () => {{\n+  it('handles an empty list', () => {{\n+    expect({cfn}([])).toEqual([]);\n+  }});\n+}});",
            "+  it('retries {n} times', async () => {{\n+    const spy = vi.fn().mockResolvedValue(false);\n+    await {cfn}WithRetry({{ retries: {n} }});\n+    expect(spy).toHaveBeenCalledTimes({n});\n+  }});"],
 },
 "go": {
  "bug_fix": ["-	defer mu.Unlock()\n+	mu.Lock()\n+	defer mu.Unlock()",
              "-	rows, _ := db.Query(q)\n+	rows, err := db.Query(q)\n+	if err != nil {{\n+		return nil, err\n+	}}\n+	defer rows.Close()",
              "-	for i := 0; i <= len({var}); i++ {{\n+	for i := 0; i < len({var}); i++ {{",
              "-	ctx := context.Background()\n+	ctx, cancel := context.WithTimeout(r.Context(), {n}*time.Second)\n+	defer cancel()",
              "-	if resp.StatusCode != 200 {{\n+	defer resp.Body.Close()\n+	if resp.StatusCode != http.StatusOK {{"],
  "feature": ["+func (s *Store) Archive(ctx context.Context, id string) error {{\n+	_, err := s.db.ExecContext(ctx, \"UPDATE {tbl} SET archived = 1 WHERE id = ?\", id)\n+	return err\n+}}",
              "+	mux.HandleFunc(\"/healthz\", func(w http.ResponseWriter, r *http.Request) {{\n+		w.WriteHeader(http.StatusOK)\n+	}})",
              "+	flag.BoolVar(&cfg.DryRun, \"dry-run\", false, \"print the plan without applying it\")"],
  "refactor": ["-func h(w http.ResponseWriter, r *http.Request) {{\n+func {gfn}Handler(w http.ResponseWriter, r *http.Request) {{",
               "-	if err != nil {{\n-		return err\n-	}}\n-	return nil\n+	return err",
               "-	var s string\n-	for _, p := range parts {{ s += p }}\n+	s := strings.Join(parts, \"\")",
               "-type storeImpl struct {{\n+type pgStore struct {{",
               "-	if ok == true {{\n+	if ok {{"],
  "tests": ["+func Test{gfn}Timeout(t *testing.T) {{\n+	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)\n+	defer cancel()\n+	if err := {gfn}(ctx); !errors.Is(err, context.DeadlineExceeded) {{\n+		t.Fatalf(\"want deadline, got %v\", err)\n+	}}\n+}}",
            "+func Benchmark{gfn}(b *testing.B) {{\n+	for i := 0; i < b.N; i++ {{\n+		{gfn}(sample)\n+	}}\n+}}",
            "+func Test{gfn}(t *testing.T) {{\n+	s := newTestStore(t)\n+	if _, err := s.{gfn}(context.Background()); err != nil {{\n+		t.Fatal(err)\n+	}}\n+}}",
            "+	tests := []struct{{ in string; want int }}{{\n+		{{\"\", 0}},\n+		{{\"abc\", 3}},\n+	}}\n+	for _, tc := range tests {{\n+		if got := Len(tc.in); got != tc.want {{ t.Errorf(\"got %d want %d\", got, tc.want) }}\n+	}}"],
 },
 "c": {
  "bug_fix": ["-    char buf[{n}];\n-    strcpy(buf, name);\n+    char buf[{n}];\n+    snprintf(buf, sizeof buf, \"%s\", name);",
              "-    for (size_t i = 0; i <= len; i++)\n+    for (size_t i = 0; i < len; i++)",
              "     p = malloc(len);\n+    if (p == NULL)\n+        return -ENOMEM;",
              "-    free(ctx->buf);\n+    free(ctx->buf);\n+    ctx->buf = NULL;"],
  "feature": ["+int ring_push(struct ring *r, int v)\n+{{\n+    if (r->count == r->cap)\n+        return -1;\n+    r->data[(r->head + r->count++) % r->cap] = v;\n+    return 0;\n+}}",
              "+    case OPT_TIMEOUT:\n+        cfg->timeout_ms = atoi(optarg);\n+        break;"],
  "refactor": ["-#define MAX 64\n+#define MAX_NAME_LEN 64", "-int flag;\n+static bool verbose_flag;",
               "-static int f(int a) {{ return a*a; }}\n+static inline int square(int a)\n+{{\n+    return a * a;\n+}}"],
  "tests": ["+static void test_parse_empty(void)\n+{{\n+    assert(parse(\"\") == NULL);\n+    assert(errno == EINVAL);\n+}}",
            "+static void test_ring_full(void)\n+{{\n+    struct ring r = RING_INIT(2);\n+    assert(ring_push(&r, 1) == 0);\n+    assert(ring_push(&r, 2) == 0);\n+    assert(ring_push(&r, 3) == -1);\n+}}"],
 },
 "cpp": {
  "bug_fix": ["-    auto it = cache_.find(key);\n-    return it->second;\n+    auto it = cache_.find(key);\n+    if (it == cache_.end()) return std::nullopt;\n+    return it->second;",
              "-    for (int i = 0; i <= static_cast<int>(v.size()); ++i)\n+    for (size_t i = 0; i < v.size(); ++i)",
              "-    std::lock_guard<std::mutex> lock(mu_);\n-    return size_;\n+    std::lock_guard<std::mutex> lock(mu_);\n+    return entries_.size();",
              "-    Widget* w = new Widget();\n+    auto w = std::make_unique<Widget>();"],
  "feature": ["+std::optional<Entry> Cache::peek(const std::string& key) const {{\n+    std::shared_lock lock(mu_);\n+    auto it = map_.find(key);\n+    if (it == map_.end()) return std::nullopt;\n+    return it->second;\n+}}",
              "+    void setMaxSize(std::size_t n) {{ maxSize_ = n; evictIfNeeded(); }}"],
  "refactor": ["-std::string s = a + b + c;\n+std::string s;\n+s.reserve(a.size() + b.size() + c.size());\n+s += a; s += b; s += c;",
               "-    for (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it)\n-        sum += *it;\n+    for (int x : v)\n+        sum += x;",
               "-typedef std::map<std::string, int> Map;\n+using NameIndex = std::map<std::string, int>;"],
  "tests": ["+TEST(CacheTest, PeekMissingKeyReturnsEmpty) {{\n+    Cache c;\n+    EXPECT_FALSE(c.peek(\"nope\").has_value());\n+}}",
            "+TEST_F(BufferTest, GrowsPastCapacity) {{\n+    buf_.append(std::string({n}, 'x'));\n+    EXPECT_GE(buf_.capacity(), {n}u);\n+}}",
            "+TEST_CASE(\"parser rejects trailing comma\") {{\n+    REQUIRE_THROWS(parse(\"[1,2,]\"));\n+}}"],
 },
 "java": {
  "bug_fix": ["-        if (name == \"admin\") {{\n+        if (\"admin\".equals(name)) {{",
              "-        return list.get(list.size());\n+        return list.get(list.size() - 1);",
              "-        BigDecimal total = price.multiply(qty);\n+        BigDecimal total = price.multiply(qty).setScale(2, RoundingMode.HALF_EVEN);",
              "-        Connection c = ds.getConnection();\n+        try (Connection c = ds.getConnection()) {{"],
  "feature": ["+    @GetMapping(\"/{tbl}/{{id}}/export\")\n+    @PreAuthorize(\"hasRole('USER')\")\n+    public ResponseEntity<byte[]> export(@PathVariable long id) {{\n+        return ResponseEntity.ok(exporter.toCsv(id));\n+    }}",
              "+    public Optional<User> findByEmail(String email) {{\n+        return repo.findOne(Example.of(new User(email)));\n+    }}"],
  "refactor": ["-    public void process(List l) {{\n+    public void process(List<Order> orders) {{",
               "-        for (int i = 0; i < {var}.size(); i++) {{ out.add({var}.get(i).getId()); }}\n+        out = {var}.stream().map(Item::getId).collect(Collectors.toList());"],
  "tests": ["+    @Test\n+    void rejectsNegativeQuantity() {{\n+        assertThrows(IllegalArgumentException.class, () -> cart.add(item, -1));\n+    }}",
            "+    @Test\n+    void returnsEmptyForUnknownEmail() {{\n+        assertTrue(service.findByEmail(\"x@y.z\").isEmpty());\n+    }}",
            "+    @ParameterizedTest\n+    @ValueSource(ints = {{0, 1, {n}}})\n+    void totalIsNeverNegative(int qty) {{\n+        assertThat(cart.total(qty)).isGreaterThanOrEqualTo(BigDecimal.ZERO);\n+    }}"],
 },
 "rust": {
  "bug_fix": ["-    let first = {var}[0];\n+    let first = match {var}.first() {{\n+        Some(f) => f,\n+        None => return Ok(()),\n+    }};",
              "-    let n = a - b;\n+    let n = a.saturating_sub(b);",
              "-    let v: u32 = s.parse().unwrap();\n+    let v: u32 = s.parse().map_err(|e| Error::BadInput(e.to_string()))?;"],
  "feature": ["+pub fn {fn}_json(&self) -> serde_json::Result<String> {{\n+    serde_json::to_string(&self.{var})\n+}}",
              "+    #[arg(long, default_value_t = {n})]\n+    pub max_retries: u32,"],
  "refactor": ["-fn f(x: &Vec<String>) -> usize {{\n+fn total_len(items: &[String]) -> usize {{",
               "-    let mut out = Vec::new();\n-    for x in xs.iter() {{ out.push(x * 2); }}\n+    let out: Vec<_> = xs.iter().map(|x| x * 2).collect();"],
  "tests": ["+#[tokio::test]\n+async fn {fn}_times_out() {{\n+    let r = tokio::time::timeout(Duration::from_millis({n}), {fn}()).await;\n+    assert!(r.is_err());\n+}}",
            "+#[test]\n+fn {fn}_empty_input() {{\n+    assert_eq!({fn}(&[]), 0);\n+}}",
            "+    #[test]\n+    #[should_panic(expected = \"overflow\")]\n+    fn rejects_overflow() {{\n+        checked_add(u32::MAX, 1);\n+    }}"],
 },
 "sql": {
  "bug_fix": ["-SELECT * FROM {tbl} WHERE {col} = NULL;\n+SELECT * FROM {tbl} WHERE {col} IS NULL;",
              "-  JOIN accounts a ON a.id = o.id\n+  JOIN accounts a ON a.id = o.account_id",
              "-WHERE created_at > '2024-01-01' AND created_at < '2024-02-01'\n+WHERE created_at >= '2024-01-01' AND created_at < '2024-02-01'"],
  "feature": ["+ALTER TABLE {tbl} ADD COLUMN {col}_note TEXT NULL;",
              "+CREATE TABLE {tbl}_tags (\n+  id BIGSERIAL PRIMARY KEY,\n+  {tbl}_id BIGINT NOT NULL REFERENCES {tbl}(id),\n+  tag TEXT NOT NULL\n+);",
              "+CREATE INDEX CONCURRENTLY idx_{tbl}_{col} ON {tbl} ({col});",
              "+CREATE VIEW monthly_{tbl} AS\n+SELECT date_trunc('month', created_at) AS month, count(*) AS n\n+FROM {tbl}\n+GROUP BY 1;"],
  "refactor": ["-select a.id, b.name from {tbl} a, accounts b where a.account_id = b.id\n+SELECT a.id, b.name\n+FROM {tbl} AS a\n+JOIN accounts AS b ON a.account_id = b.id"],
  "tests": ["+-- test: monthly totals ignore soft-deleted rows\n+SELECT is(count(*), 0::bigint) FROM {tbl} WHERE deleted_at IS NOT NULL AND month IS NOT NULL;"],
 },
 "yaml": {
  "bug_fix": ["-        image: registry.acme.io/{svc}:latset\n+        image: registry.acme.io/{svc}:{ver}",
              "-          memory: \"{n}Mi\"\n+          memory: \"{n}0Mi\"",
              "-    runs-on: ubuntu-{ver}\n+    runs-on: ubuntu-latest",
              "-  port: \"8080\"\n+  port: 8080"],
  "feature": ["+  - name: cache deps\n+    uses: actions/cache@v4\n+    with:\n+      path: ~/.cache/pip\n+      key: pip-${{{{ hashFiles('requirements.txt') }}}}",
              "+        readinessProbe:\n+          httpGet:\n+            path: /healthz\n+            port: 8080\n+          periodSeconds: {n}",
              "+  feature_flags:\n+    new_checkout: false\n+    bulk_export: true"],
  "refactor": ["-    - run: pip install -r requirements.txt\n-    - run: pytest\n+    - run: make ci",
               "-  {svc}_timeout: {n}\n-  {svc}_retries: 3\n+  {svc}:\n+    timeout: {n}\n+    retries: 3"],
  "tests": ["+    strategy:\n+      matrix:\n+        python: ['3.10', '3.11', '3.12']\n+    steps:\n+      - run: pytest -q",
            "+  test:\n+    runs-on: ubuntu-latest\n+    steps:\n+      - uses: actions/checkout@v4\n+      - run: npm ci && npm test"],
 },
 "sh": {
  "bug_fix": ["-rm -rf $BUILD_DIR/*\n+rm -rf \"${{BUILD_DIR:?}}\"/*",
              "-for f in $(ls *.log); do\n+for f in ./*.log; do",
              "-#!/bin/sh\n+#!/usr/bin/env bash\n+set -euo pipefail",
              "-if [ $STATUS == 0 ]; then\n+if [ \"$STATUS\" -eq 0 ]; then"],
  "feature": ["+notify() {{\n+  curl -fsS -X POST -H 'Content-Type: application/json' \\\n+    -d \"{{\\\"text\\\": \\\"$1\\\"}}\" \"$SLACK_WEBHOOK_URL\"\n+}}",
              "+if [[ \"${{1:-}}\" == \"{flag}\" ]]; then\n+  DRY_RUN=1\n+  shift\n+fi",
              "+backup_db() {{\n+  pg_dump \"$DATABASE_URL\" | gzip > \"backup-$(date +%F).sql.gz\"\n+}}"],
  "refactor": ["-echo \"building...\"; make; echo \"done\"\n+log() {{ printf '%s %s\\n' \"$(date +%T)\" \"$*\"; }}\n+log building\n+make\n+log done"],
  "tests": ["+@test \"rejects unknown env\" {{\n+  run ./deploy.sh mars\n+  [ \"$status\" -ne 0 ]\n+}}",
            "+@test \"prints usage without args\" {{\n+  run ./deploy.sh\n+  [ \"$status\" -eq 1 ]\n+  [[ \"$output\" == *Usage* ]]\n+}}"],
 },
 "docker": {
  "bug_fix": ["-FROM python:{ver}\n-COPY . .\n-RUN pip install -r requirements.txt\n+FROM python:{ver}-slim\n+COPY requirements.txt .\n+RUN pip install --no-cache-dir -r requirements.txt\n+COPY . .",
              "-CMD python app.py\n+CMD [\"python\", \"app.py\"]",
              "-EXPOSE 80\n+EXPOSE 8080"],
  "feature": ["+HEALTHCHECK --interval=30s --timeout=3s CMD curl -f http://localhost:8080/healthz || exit 1",
              "+RUN apt-get update && apt-get install -y --no-install-recommends libpq5 \\\n+    && rm -rf /var/lib/apt/lists/*"],
  "refactor": ["-RUN apt-get update\n-RUN apt-get install -y curl\n-RUN apt-get install -y git\n+RUN apt-get update && apt-get install -y curl git \\\n+    && rm -rf /var/lib/apt/lists/*"],
  "tests": [],
 },
}

DOC_HUNKS = [
    "-# Setup\n+# Installation\n+\n+Run `make install` first, then `make dev`.",
    "+## Configuration\n+\n+Settings live in `config.yaml`; see `examples/` for a full file.",
    "-Run the tests with `npm test`\n+Run the tests with `npm test`. Use `npm test -- --watch` while developing.",
    "+### Troubleshooting\n+\n+- If the build fails on macOS, install Xcode command line tools.\n+- On Windows use WSL2.",
    "-Supports Python 3.7+\n+Supports Python 3.9+ (3.7 and 3.8 are end of life).",
    "+## Changelog\n+\n+### {ver}\n+- Faster startup\n+- Fixed a typo in the help text",
    "-The API retruns a list.\n+The API returns a list of objects, newest first.",
    "+Contributions welcome! Open an issue before large changes and sign the CLA.",
    "-See the wiki for deployment.\n+## Deployment\n+\n+1. Tag the release: `git tag v{ver}`\n+2. CI builds and pushes the image.\n+3. Approve the rollout in the dashboard.",
    "+| Variable | Default | Meaning |\n+|---|---|---|\n+| `CACHE_TTL` | `{n}` | seconds an entry is kept |",
    "-## Licence\n+## License\n+\n+MIT, see LICENSE.",
    "+> **Note:** the `{flag}` option was added in {ver}.",
    "-Call `{fn}()` before anything else\n+Call `{fn}()` once at startup, before any request is served.",
    "+.. note::\n+   The {svc} service must be running for these examples.",
    "+## FAQ\n+\n+**Why is the first request slow?** The cache is cold; it warms up after ~{n} requests.",
]
CODE_COMMENTS = {
    "py": ["-    \"\"\"Helper.\"\"\"\n+    \"\"\"Parse an ISO date and return a timezone-aware UTC datetime.\"\"\"",
           "-    # TODO\n+    # Retries up to three times; raises TimeoutError after that."],
    "js": ["-// TODO\n+// Returns the cached entry, or undefined once it expired.",
           "+/**\n+ * @param {{string}} code coupon code, case-insensitive\n+ * @returns {{Cart}} the same cart, with discount set\n+ */"],
    "ts": ["+/** Options for the retry helper. `retries` defaults to {n}. */",
           "-// util\n+/**\n+ * Formats cents as a localised money string.\n+ * @example formatMoney(1999) // '19,99 €'\n+ */"],
    "go": ["-// h handles requests\n+// {gfn}Handler serves GET /{tbl}. It never writes to the database.",
           "+// Package store keeps {tbl} in Postgres.\n+// All methods are safe for concurrent use."],
    "c": ["-/* fix */\n+/* Caller owns the returned buffer and must free() it. */"],
    "cpp": ["-// TODO\n+// Returns the cached entry, or std::nullopt when it expired."],
    "java": ["+    /**\n+     * Exports one {tbl} row as CSV. Requires ROLE_USER.\n+     */",
             "-    // returns list\n+    /** @return the orders of this customer, newest first; never null. */"],
    "rust": ["+/// Serialises the collection; fails only on non-UTF-8 keys."],
    "sql": ["+-- {col} is stored in UTC; clients convert for display."],
    "yaml": ["+# Memory limit tuned after the {ver} load test; see the runbook."],
    "sh": ["+# Usage: ./deploy.sh [{flag}] <env>", "-# deploy\n+# Deploys the current tag to the given environment.\n+# Needs kubectl and a valid kubeconfig."],
    "docker": ["+# Slim image keeps the final size under 200 MB."],
}

# Blocking problems per language: (lines, risk). Security problems critical, bugs high, test/design medium.
PROBLEMS = {
 "py": [("+    query = \"SELECT * FROM {tbl} WHERE {col} = '\" + {col} + \"'\"\n+    cur.execute(query)", "critical"),
        ("+    cur.execute(f\"DELETE FROM {tbl} WHERE id = {{request.args['id']}}\")", "critical"),
        ("+    API_KEY = \"sk_live_51Hx9QeKz2Lm8vRt\"", "critical"),
        ("+    password = \"hunter2\"  # TODO remove", "critical"),
        ("+    result = eval(request.form['expr'])", "critical"),
        ("+    os.system('convert ' + request.args['file'] + ' out.png')", "critical"),
        ("+    resp = requests.get(url, verify=False)", "critical"),
        ("+    data = pickle.loads(request.data)", "critical"),
        ("+    except Exception:\n+        pass", "high"),
        ("+    except:\n+        return None", "high"),
        ("+    for i in range(len({var}) + 1):\n+        total += {var}[i].amount", "high"),
        ("+    counter = counter + 1  # shared across threads, no lock", "high"),
        ("+    if amount > 0 and amount < 0:\n+        raise ValueError('bad amount')", "high"),
        ("+    # no tests yet, will add later", "medium"),
        ("+    {var}.sort(key=lambda x: x.created_at)\n+    return {var}[1:]", "high"),
        ("+    cache = {{}}  # module-level, written from request threads", "high"),
        ("+    x = x  # ???", "medium"),
        ("+    # HACK: magic, don't ask\n+    if flag and not flag2 or mode == 3 and not (flag or flag2):", "medium"),
        ("+    def do_stuff2(self, a, b, c, d, e, flag=True, flag2=False, *args, **kwargs):", "medium")],
 "js": [("+  eval(req.body.code);", "critical"),
        ("+  db.query(`SELECT * FROM {tbl} WHERE id = ${{req.query.id}}`);", "critical"),
        ("+  const STRIPE_SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';", "critical"),
        ("+  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';", "critical"),
        ("+  el.innerHTML = req.query.name;", "critical"),
        ("+  app.delete('/admin/users/:id', (req, res) => {{ User.remove(req.params.id); res.sendStatus(204); }});", "critical"),
        ("+  }} catch (e) {{}}", "high"),
        ("+  {var}.forEach(async (x) => {{ await save(x); }});\n+  return done();", "high"),
        ("+  for (let i = 1; i <= {var}.length; i++) {{", "high"),
        ("+  if ({var}.length = 0) {{", "high"),
        ("+  // TODO: tests", "medium"),
        ("+  const total = {var}.reduce((a, b) => a + b.price);", "high"),
        ("+  if (!user.isAdmin) {{ next(); }}", "high"),
        ("+  let data2 = data; // temp hack, do not touch", "medium"),
        ("+  window.__globalCart = cart; // other modules read this", "medium")],
 "ts": [("+  const token = 'ghp_8fK2nQz7LmV0pXcR4tYw1sJh';", "critical"),
        ("+  const rows = await db.raw(`SELECT * FROM {tbl} WHERE {col} = '${{input}}'`);", "critical"),
        ("+  const agent = new https.Agent({{ rejectUnauthorized: false }});", "critical"),
        ("+  return new Function('return ' + userInput)();", "critical"),
        ("+  // @ts-ignore\n+  const total: number = order.total!;", "medium"),
        ("+  }} catch {{\n+    // ignore\n+  }}", "high"),
        ("+  return {var}[{var}.length];", "high"),
        ("+  // eslint-disable-next-line\n+  const cfg: any = JSON.parse(raw) as any as Config;", "medium")],
 "go": [("+	q := \"SELECT * FROM {tbl} WHERE {col} = '\" + r.URL.Query().Get(\"{col}\") + \"'\"", "critical"),
        ("+	tr := &http.Transport{{TLSClientConfig: &tls.Config{{InsecureSkipVerify: true}}}}", "critical"),
        ("+	const awsSecret = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"", "critical"),
        ("+	// auth check removed for now\n+	// if !isAdmin(r) {{ http.Error(w, \"forbidden\", 403); return }}", "critical"),
        ("+	go func() {{ counter++ }}()", "high"),
        ("+	_ = os.Remove(tmp)\n+	data, _ := io.ReadAll(resp.Body)", "high"),
        ("+	for i := 0; i <= len({var}); i++ {{", "high"),
        ("+	cache[key] = val // called from many goroutines, map not guarded", "high"),
        ("+	// TODO: add tests", "medium"),
        ("+	defer f.Close()\n+	f, err := os.Open(path)", "high"),
        ("+	var globalState interface{{}} // used by handlers, set somewhere", "medium")],
 "c": [("+    char buf[16];\n+    strcpy(buf, argv[1]);", "critical"),
       ("+    printf(user_input);", "critical"),
       ("+    system(cmd_from_request);", "critical"),
       ("+    for (int i = 0; i <= n; i++) arr[i] = 0;", "high"),
       ("+    p = malloc(n * sizeof *p);\n+    p[0] = 1;", "high"),
       ("+    free(buf);\n+    log_msg(buf);", "high"),
       ("+    /* no test, just trust me */", "medium")],
 "cpp": [("+    const std::string kDbPassword = \"Pr0d-p@ssw0rd!\";", "critical"),
         ("+    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);", "critical"),
         ("+    }} catch (...) {{}}", "high"),
         ("+    counter_++;  // called from worker threads without mu_", "high"),
         ("+    return &local;", "high"),
         ("+    for (size_t i = 0; i <= v.size(); ++i) sum += v[i];", "high"),
         ("+    #define private public", "medium")],
 "java": [("+        String sql = \"SELECT * FROM {tbl} WHERE {col} = '\" + param + \"'\";\n+        stmt.executeQuery(sql);", "critical"),
          ("+    private static final String DB_PASSWORD = \"admin123\";", "critical"),
          ("+        TrustManager[] trustAll = {{ new X509TrustManager() {{ /* accept everything */ }} }};", "critical"),
          ("+    @PostMapping(\"/admin/reset\")\n+    public void reset() {{ service.resetAll(); }}  // no @PreAuthorize", "critical"),
          ("+        }} catch (Exception e) {{\n+        }}", "high"),
          ("+        for (int i = 0; i <= list.size(); i++) {{", "high"),
          ("+    private static SimpleDateFormat FMT = new SimpleDateFormat(\"yyyy-MM-dd\"); // shared across threads", "high"),
          ("+    // TODO write tests", "medium"),
          ("+        if (user.getName() == \"admin\") {{", "high")],
 "rust": [("+    let q = format!(\"SELECT * FROM {tbl} WHERE {col} = '{{}}'\", input);", "critical"),
          ("+    let client = reqwest::Client::builder().danger_accept_invalid_certs(true).build()?;", "critical"),
          ("+    const TOKEN: &str = \"xoxb-2231-8891-Qw3rTy\";", "critical"),
          ("+    let v = unsafe {{ *ptr.add(len) }};", "high"),
          ("+    let cfg = std::fs::read_to_string(path).unwrap();", "high"),
          ("+    let last = {var}[{var}.len()];", "high"),
          ("+    // tests later", "medium"),
          ("+    #[allow(dead_code, unused)]\n+    fn do_it2(a: i32, b: i32, c: bool, d: bool) -> i32 {{ if c ^ d {{ a }} else {{ b }} }}", "medium")],
 "sql": [("+DROP TABLE {tbl};", "critical"),
         ("+GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA public TO PUBLIC;", "critical"),
         ("+UPDATE {tbl} SET {col} = NULL;", "critical"),
         ("+ALTER TABLE {tbl} DROP COLUMN {col};", "high"),
         ("+ALTER TABLE {tbl} ADD COLUMN owner_id INT NOT NULL;", "high"),
         ("+-- no down migration", "medium")],
 "yaml": [("+  DB_PASSWORD: \"s3cr3t-prod-pw\"", "critical"),
          ("+        env:\n+          - name: AWS_SECRET_ACCESS_KEY\n+            value: \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz\"", "critical"),
          ("+          privileged: true\n+          runAsUser: 0", "critical"),
          ("+  ssl_verify: false", "critical"),
          ("+      continue-on-error: true", "medium"),
          ("+      - run: pytest --ignore=tests/integration", "medium"),
          ("+    coverage_threshold: 0", "medium")],
 "sh": [("+curl -sk https://get.example.io/install.sh | sudo bash", "critical"),
        ("+export GITHUB_TOKEN=ghp_Yx81Kd0sLq2Zm7Vb4Nc6", "critical"),
        ("+eval \"$USER_INPUT\"", "critical"),
        ("+chmod -R 777 /var/www", "critical"),
        ("+rm -rf $TARGET/", "critical"),
        ("+cd $DEPLOY_DIR\n+git reset --hard origin/main", "high"),
        ("+make test || true", "medium"),
        ("+# TODO: nobody knows why this sleep is needed\n+sleep {n}", "medium")],
 "docker": [("+ENV AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYqq", "critical"),
            ("+RUN curl -k https://downloads.example.com/tool.tgz | tar xz", "critical"),
            ("+USER root\n+RUN chmod 777 /app", "high")],
}
# Problems a tests-only or docs-only change can carry (they do not change its kind).
TEST_PROBLEMS = {
    "py": [("-def test_{fn}_rejects_negative():\n-    with pytest.raises(ValueError):\n-        {fn}(-1)", "medium"),
           ("+@pytest.mark.skip(reason='flaky')", "medium"), ("+    assert True", "medium"),
           ("+    time.sleep({n})  # wait for the worker", "medium")],
    "js": [("-  it('rejects expired tokens', () => {{\n-    expect(() => verify(expired)).toThrow();\n-  }});", "medium"),
           ("+  it.skip('handles refunds', () => {{", "medium"), ("+    expect(true).toBe(true);", "medium")],
    "ts": [("+describe.skip('{cfn}', () => {{", "medium"), ("+    expect(result).toBeDefined(); // TODO real check", "medium")],
    "go": [("-func Test{gfn}Concurrent(t *testing.T) {{\n-	runParallel(t, {n})\n-}}", "medium"), ("+	t.Skip(\"flaky on CI\")", "medium")],
    "c": [("-    assert(parse(\"\") == NULL);", "medium")],
    "cpp": [("+TEST(CacheTest, DISABLED_ConcurrentEviction) {{", "medium"), ("-    EXPECT_EQ(c.size(), 0u);", "medium")],
    "java": [("+    @Disabled(\"fails sometimes\")", "medium"), ("-        assertEquals(expected, actual);", "medium")],
    "rust": [("+    #[ignore]", "medium"), ("-    assert_eq!(parse(\"\"), None);", "medium")],
    "sql": [("-SELECT is(count(*), 0::bigint) FROM {tbl} WHERE {col} IS NULL;", "medium")],
    "yaml": [("-      - run: npm test", "medium"), ("+      - run: npm test || true", "medium")],
    "sh": [("-@test \"fails on unknown env\" {{\n-  run ./deploy.sh nope\n-  [ \"$status\" -ne 0 ]\n-}}", "medium")],
    "docker": [],
}
DOC_PROBLEMS = [("+    export API_TOKEN=sk_live_9fQ2mZ7xVb3nLk4P   # the prod token", "critical"),
                ("+Admin login for staging: `admin` / `Welcome2024!`", "critical"),
                ("+    export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz", "critical")]

TICKET = ["#{t}", "JIRA-{t}", "PROJ-{t}", "GH-{t}", "ENG-{t}", "closes #{t}", "refs #{t}"]
DESC = {
    "bug_fix": ["Fix off-by-one in {var} loop", "Fix crash when {var} is empty", "Fixes {tk}: wrong total on invoices",
                "fix null check in {fn}", "hotfix: {svc} returns 500 on empty payload", "Fix timezone bug in {fn}",
                "bugfix - {fn} ignored the last element", "Resolve race in {svc} cache", "fix: handle missing {col}",
                "Correct rounding in {fn}", "Patch memory leak in {svc}", "{svc}: stop double-charging on retry",
                "Repair broken {tbl} join", "fix(ci): wrong image tag", "Users saw wrong {col} after save, this fixes it"],
    "feature": ["Add CSV export", "Support coupons in the cart", "New archive endpoint for {tbl}", "add {flag} flag",
                "feat: health check for {svc}", "Add dark mode toggle", "Implement retry with backoff", "feat({svc}): add {fn}",
                "New view for monthly {tbl}", "Allow setting max cache size", "Introduce feature flags config",
                "Add readiness probe", "Expose {col} in the API", "first version of {fn}, pls review"],
    "refactor": ["Rename helpers for clarity, no behaviour change", "Refactor: split long function", "Clean up string building",
                 "refactor: use list comprehension", "Tidy imports", "chore: simplify {fn}", "Extract {fn} helper",
                 "Modernise syntax (no functional change)", "Reorganise config keys", "Type annotations for {fn}",
                 "Merge RUN layers", "pure refactor, same output", "Readability pass on {svc}"],
    "tests": ["Add tests for cart totals", "More unit tests", "Test the archive path", "test: cover empty input for {fn}",
              "Add regression test for {tk}", "Increase coverage of {svc}", "tests for {fn} edge cases",
              "Add CI test job", "Parametrise date tests", "test(rust): overflow case"],
    "docs": ["Update README", "Docs: explain configuration", "Improve comments", "docs: fix typo", "Add troubleshooting section",
             "Document {fn}", "Changelog for {ver}", "Clarify supported versions", "docs({svc}): usage example",
             "Comment the tricky bits in {fn}", "README: install steps"],
}
CLAIMS = ["Tiny change, safe to merge.", "Trivial, LGTM please.", "Just a cleanup.", "Already tested locally, all good.",
          "Need this merged asap for the release.", "pls approve, blocking the deploy", "Reviewed by Ana offline.",
          "CI is green.", "Low risk IMO.", "Urgent!! customer waiting", "No tests needed for this one.",
          "Should be harmless.", "ETA for release is Friday, would be great to get it in.", "Sorry for the big diff.",
          "Follow-up PR will add more.", "Tested on staging with {n} requests.", "Pairing with @mk on this.",
          "FYI touches the {svc} service.", "Se probó en local.", "Bitte kurz reviewen, danke!"]
FORMATS = ["Hello, this change is for: {d_low}. Please review when you have time.\nRegards, {who}",
           "pls review - {d_low}", "This PR is for {d_low}, please to check. {c}", "@{who_l} {d_low}, ptal",
           "{d}\n\n> {c}\n\nCc @{who_l}", "{d}", "{d}. {c}", "{d}\n\n{c}", "## Summary\n{d}\n\n## Testing\n{c}", "{tk}: {d}", "{d} ({tk})",
           "[{svc}] {d}", "WIP: {d}", "{d}\n\n- {c}\n- see {tk}", "Hi team, {d_low}. {c} Thanks!",
           "this pr: {d_low}", "{d}\n\nSigned-off-by: Dev <dev@acme.io>"]
CONTEXT = {"py": ["     def run(self):", " import os", "     logger.info('start')", " class {gfn}:"],
           "js": ["   const total = 0;", " import express from 'express';", "   // helpers"],
           "ts": [" import {{ z }} from 'zod';", "   const log = getLogger();"],
           "go": [" func main() {{", " import \"net/http\"", " 	var mu sync.Mutex"],
           "c": [" #include <stdlib.h>", " static int verbose;"], "cpp": [" #include <mutex>", " namespace core {{"],
           "java": [" import java.util.List;", "     private final Logger log = LoggerFactory.getLogger(getClass());"],
           "rust": [" use std::collections::HashMap;", " impl Store {{"], "sql": [" BEGIN;", " -- migration {n}"],
           "yaml": [" jobs:", " spec:", " apiVersion: apps/v1"], "sh": [" set -e", " #!/usr/bin/env bash"],
           "docker": [" WORKDIR /app", " ARG VERSION"]}
WHO = ["Priya", "Tomasz", "Ana", "Kenji", "Olu", "Marta", "Dev", "Lena", "Chen", "Rafael"]
COMMENT = {"py": "    #", "js": "  //", "ts": "  //", "go": "	//", "c": "    /*", "cpp": "    //", "java": "    //",
           "rust": "    //", "sql": "--", "yaml": "#", "sh": "#", "docker": "#"}
COMMENT_LEAKS = ["prod password is Sup3rS3cret!", "staging token: sk_live_9fQ2mZ7xVb3nLk4P",
                 "use API key AKIAIOSFODNN7EXAMPLE for local runs", "admin/admin123 works on the prod box"]
CTX_FN = {"py": ["def {fn}(", "class {gfn}:"], "js": ["function {cfn}(", "export const {cfn} ="],
          "ts": ["export async function {cfn}(", "class {gfn}Service {{"], "go": ["func {gfn}(", "func (s *Store) {gfn}("],
          "c": ["int {fn}(", "static void {fn}("], "cpp": ["void Cache::{cfn}(", "namespace core {{"],
          "java": ["public class {gfn}Service {{", "public Order {cfn}("], "rust": ["fn {fn}(", "impl Store {{"],
          "sql": [""], "yaml": ["jobs:", "spec:"], "sh": ["main() {{", "deploy() {{"], "docker": [""]}
DOC_PATHS = ["README.md", "docs/setup.md", "CONTRIBUTING.md", "docs/config.md", "CHANGELOG.md", "docs/api.rst",
             "docs/troubleshooting.md", "README.rst"]


def _fill(rng, s, ids):
    return s.format(**ids)


def _path(rng, lang, kind, sensitive):
    area = pick(rng, SENSITIVE if sensitive else PLAIN)
    if lang == "docker":
        return pick(rng, ["Dockerfile", f"docker/{area}.Dockerfile", f"services/{area}/Dockerfile"])
    if lang == "yaml" and kind == "tests":
        return f".github/workflows/{pick(rng, ['test', 'ci', area + '-tests'])}.yml"
    if lang == "yaml":
        return pick(rng, [f".github/workflows/{area}.yml", f"k8s/{area}/deployment.yaml", f"config/{area}.yaml",
                          f"deploy/helm/{area}/values.yaml"])
    if lang == "sql" and kind == "tests":
        return f"tests/sql/test_{area}.sql"
    if lang == "sql":
        if sensitive:
            return f"{pick(rng, ['db/migrations', 'migrations'])}/{int(rng.integers(1, 400)):04d}_{area}.sql"
        return f"{pick(rng, ['sql/reports', 'queries', 'analytics/sql'])}/{area}.sql"
    root = pick(rng, ROOT[lang])
    name = pick(rng, FNAMES)
    if lang == "java":
        name = name.capitalize() + pick(rng, ["Service", "Controller", "Repository", ""])
    if kind == "tests":
        test_name = {"py": f"test_{name}.py", "js": f"{name}.test.js", "ts": f"{name}.spec.ts", "go": f"{name}_test.go",
                     "c": f"test_{name}.c", "cpp": f"{name}_test.cpp", "java": f"{name}Test.java",
                     "rust": f"{name}.rs", "sh": f"{name}.bats"}[lang]
        base = {"py": "tests", "js": "__tests__", "ts": "test", "go": f"{root}/{area}", "c": "tests", "cpp": "tests",
                "java": "src/test/java/com/acme", "rust": "tests", "sh": "test"}[lang]
        return f"{base}/{area}/{test_name}" if lang not in ("go",) else f"{base}/{test_name}"
    return "/".join(p for p in (root, area, name + EXT[lang]) if p)


def _hunk_header(rng, body, ctx_fn, start=None, new_file=False):
    lines = body.split("\n")
    old = sum(1 for ln in lines if not ln.startswith("+"))
    new = sum(1 for ln in lines if not ln.startswith("-"))
    a = int(rng.integers(1, 400)) if start is None else start
    b = a + int(rng.integers(-5, 20)) if a > 5 else a
    suffix = (" " + ctx_fn) if ctx_fn and maybe(rng, 0.5) else ""
    if new_file:
        return f"@@ -0,0 +1,{new} @@"
    return f"@@ -{a},{old} +{max(b, 1)},{new} @@{suffix}"


def _file_block(rng, path, body, ids, new_file=False, lang="py", extra=None):
    out = []
    if maybe(rng, 0.5):
        out.append(f"diff --git a/{path} b/{path}")
        if new_file:
            out.append("new file mode 100644")
        h = "".join(pick(rng, list("0123456789abcdef")) for _ in range(14))
        out.append(f"index {h[:7]}..{h[7:]}" + ("" if new_file else " 100644"))
    out.append("--- /dev/null" if new_file else f"--- a/{path}")
    out.append(f"+++ b/{path}")
    ctx_fn = _fill(rng, pick(rng, CTX_FN.get(lang, [""])), ids)
    out.append(_hunk_header(rng, body, ctx_fn if not new_file else "", new_file=new_file))
    out += body.split("\n")
    if extra:  # a second hunk of the same file
        out.append(_hunk_header(rng, extra, _fill(rng, pick(rng, CTX_FN.get(lang, [""])), ids),
                                start=int(rng.integers(400, 900))))
        out += extra.split("\n")
    return out


def code_review(rng):
    kind = pick(rng, ["bug_fix", "feature", "refactor", "tests", "docs"])
    # Docs-only changes are blocked only by a leaked secret, so they are approved more often.
    approve = "yes" if maybe(rng, 0.75 if kind == "docs" else 0.55) else "no"
    ids = {k: pick(rng, v) for k, v in IDS.items()}
    ids["t"] = str(int(rng.integers(12, 9000)))
    if kind == "tests":
        lang = pick(rng, [l for l in LANGS if HUNKS[l]["tests"]])
    else:
        lang = pick(rng, LANGS)
    sensitive = maybe(rng, 0.4)

    if kind == "docs":
        if maybe(rng, 0.55):
            path = pick(rng, DOC_PATHS)
            body = _fill(rng, pick(rng, DOC_HUNKS), ids)
        else:
            path = _path(rng, lang, "docs", sensitive)
            body = _fill(rng, pick(rng, CODE_COMMENTS[lang]), ids)
    else:
        path = _path(rng, lang, kind, sensitive)
        body = _fill(rng, pick(rng, HUNKS[lang][kind]), ids)
        if maybe(rng, 0.5):
            ctx = _fill(rng, pick(rng, CONTEXT[lang]), ids)
            body = ctx + "\n" + body if maybe(rng, 0.6) else body + "\n" + ctx

    extra = None
    doc_file = kind == "docs" and path in DOC_PATHS
    if approve == "no":
        if kind == "docs":
            if doc_file:
                problem, risk = pick(rng, DOC_PROBLEMS)
            else:
                leak = pick(rng, COMMENT_LEAKS)
                problem = "+" + COMMENT[lang] + " " + leak + (" */" if lang == "c" else "")
                risk = "critical"
        elif kind == "tests":
            problem, risk = pick(rng, TEST_PROBLEMS[lang])
        else:
            tier = pick(rng, ["critical"] * 7 + ["high"] * 9 + ["medium"] * 4)
            bank = [pr for pr in PROBLEMS[lang] if pr[1] == tier] or PROBLEMS[lang]
            problem, risk = pick(rng, bank)
        problem = _fill(rng, problem, ids)
        where = rng.random()
        if where < 0.35 and not problem.startswith("-") and kind != "docs":
            extra = problem
        elif where < 0.65:
            body = problem + "\n" + body
        else:
            body = body + "\n" + problem
    else:
        if kind in ("docs", "tests"):
            risk = "low"
        else:
            risk = "medium" if sensitive else "low"

    new_file = (kind in ("feature", "tests") and extra is None
                and all(ln.startswith("+") for ln in body.split("\n")) and maybe(rng, 0.3))
    lines = _file_block(rng, path, body, ids, new_file, "md" if doc_file else lang, extra)
    # An approved feature or bug fix sometimes ships its own test file; still the same kind.
    if (approve == "yes" and kind in ("feature", "bug_fix") and HUNKS[lang]["tests"]
            and (sensitive or maybe(rng, 0.25))):
        tbody = _fill(rng, pick(rng, HUNKS[lang]["tests"]), ids)
        if len(lines) + tbody.count("\n") < 32:
            lines += _file_block(rng, _path(rng, lang, "tests", sensitive), tbody, ids, False, lang)

    desc = ""
    if maybe(rng, 0.85):
        d = _fill(rng, pick(rng, DESC[kind]), dict(ids, tk=_fill(rng, pick(rng, TICKET), ids)))
        c = _fill(rng, pick(rng, CLAIMS), ids)
        tk = _fill(rng, pick(rng, TICKET), ids)
        fmt = pick(rng, FORMATS)
        who = pick(rng, WHO)
        desc = fmt.format(d=d, c=c, tk=tk, svc=ids["svc"], d_low=d[0].lower() + d[1:], who=who, who_l=who.lower())
        if maybe(rng, 0.2):
            desc = desc.lower()
        if maybe(rng, 0.15):
            desc = typo(rng, desc, 0.2)
    return {"diff": "\n".join(lines), "description": desc}, {
        "approve": approve, "change_kind": kind, "risk": risk}
