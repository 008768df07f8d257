// The official MCP TypeScript SDK over Streamable HTTP against the real `dgem serve`'s POST /mcp:
// refused without the API key, then initialize, list the tools, decide with a shipped policy and
// with the --templates folder's, a path refused as no policy; then the same tools through
// `dgem mcp --remote URL` over stdio; and /metrics counting the /mcp requests.
// Usage: node mcp_http_client.mjs DGEM_BINARY BASE_URL API_KEY
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";

const [dgem, base, key] = process.argv.slice(2);
const mcpUrl = new URL("/mcp", base);
const slow = { timeout: 900000 };
const tools = ["list_policy_templates", "decide_policy", "decide_custom_questions", "get_health"];

function answersOf(result, expected) {
  assert.equal(result.isError, false, JSON.stringify(result));
  const output = JSON.parse(result.content[0].text);
  assert.deepEqual(Object.keys(output.answers).sort(), Object.keys(expected).sort());
  for (const [id, names] of Object.entries(expected)) {
    const p = output.answers[id].probabilities;
    assert.deepEqual(Object.keys(p).sort(), [...names].sort(), id);
    const sum = Object.values(p).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-6, `${id}: ${sum}`);
  }
  return output;
}

async function exercise(client, how) {
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.map((t) => t.name), tools, how);
  const triage = await client.callTool({
    name: "decide_policy",
    arguments: { template: "support_triage", variables: { ticket: "Charged twice." }, samples: 2 },
  }, undefined, slow);
  const out = answersOf(triage, {
    urgent: ["yes", "no"], team: ["billing", "support", "engineering"],
    sentiment: ["calm", "frustrated", "furious"],
  });
  assert.equal(out.diagnostics.samples.n, 2);
  answersOf(await client.callTool({
    name: "decide_policy", arguments: { template: "door_check", variables: { door: "red" } },
  }, undefined, slow), { open: ["yes", "no"] });
  const path = await client.callTool({ name: "decide_policy", arguments: { template: "/etc/passwd" } });
  assert.equal(path.isError, true);
  assert.match(path.content[0].text, /no policy '\/etc\/passwd' in the catalog.*support_triage/);
  assert.doesNotMatch(path.content[0].text, /root:/);
  console.log(`${how}: tools listed, decisions made, a path refused`);
}

// 1. Without the key: refused (401) before any tool runs.
const anonymous = new Client({ name: "decision-studio-node-test", version: "1.0.0" });
await assert.rejects(anonymous.connect(new StreamableHTTPClientTransport(mcpUrl)),
  (e) => { assert.match(String(e), /401|Unauthorized|bearer/i); return true; });

// 2. Over Streamable HTTP with the key.
const http = new Client({ name: "decision-studio-node-test", version: "1.0.0" });
await http.connect(new StreamableHTTPClientTransport(mcpUrl, {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
}));
assert.equal(http.getServerVersion().name, "dgem");
await exercise(http, "Streamable HTTP");
await http.close();

// 3. dgem mcp --remote: a stdio client reaches the same server.
const bridged = new Client({ name: "decision-studio-node-test", version: "1.0.0" });
const transport = new StdioClientTransport({
  command: dgem, args: ["mcp", "--remote", mcpUrl.href],
  env: { ...process.env, DGEM_TOKEN: key }, stderr: "pipe",
});
let bridgeLog = "";
transport.stderr?.on("data", (chunk) => { bridgeLog += chunk; });
await bridged.connect(transport);
try {
  await exercise(bridged, "dgem mcp --remote");
} catch (e) {
  console.error(`dgem mcp --remote's stderr:\n${bridgeLog}`);
  throw e;
}
await bridged.close();
assert.ok(!bridgeLog.includes(key), "the token reached the bridge's log");

// 4. /metrics counted the /mcp requests and the decisions.
const metrics = await (await fetch(new URL("/metrics", base))).text();
const ok = metrics.match(/^dgem_http_requests_total\{route="\/mcp",method="POST",status="200"\} (\d+)$/m);
assert.ok(ok && Number(ok[1]) >= 8, metrics);
const refused = metrics.match(/^dgem_http_requests_total\{route="\/mcp",method="POST",status="401"\} (\d+)$/m);
assert.ok(refused && Number(refused[1]) >= 1, metrics);
const decisions = metrics.match(/^dgem_decisions_total\{outcome="ok"\} (\d+)$/m);
assert.ok(decisions && Number(decisions[1]) >= 4, metrics);
console.log("mcp over http: ok");
