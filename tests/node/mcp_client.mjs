// The official MCP TypeScript SDK (@modelcontextprotocol/sdk) against the real `dgem mcp`:
// initialize, list the tools, call each, an unknown tool, bad arguments and an unknown method;
// then raw malformed lines on a second server, which must answer them and keep serving.
// Usage: node mcp_client.mjs DGEM_BINARY MODEL_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  EmptyResultSchema, ErrorCode, LATEST_PROTOCOL_VERSION, McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import assert from "node:assert/strict";

const [dgem, model] = process.argv.slice(2);
// A user policy folder for --policies.
const policies = mkdtempSync(join(tmpdir(), "dgem-mcp-policies-"));
process.on("exit", () => rmSync(policies, { recursive: true, force: true }));
writeFileSync(join(policies, "door_check.json.tmpl"), `{{/* Door check: is the door safe to open. */}}
{"schema": {"instructions": "You check doors.",
  "questions": [{"id": "open", "type": "noul", "instructions": "Open the {{ .door }} door?"}]},
 "state": {"note": {{ toJson .note }}}}
`);
const serverArgs = ["mcp", "--local", "--model", model, "--threads", "2", "--policies", policies];

// A --policies that is not a folder: exit 2 before serving, naming the flag.
const refused = spawnSync(dgem, ["mcp", "--local", "--policies", join(policies, "missing")],
  { input: "", encoding: "utf8" });
assert.equal(refused.status, 2, refused.stderr);
assert.match(refused.stderr, /--policies .*not a folder/);
// A decision on the tiny model takes seconds, more on a loaded machine.
const slow = { timeout: 900000 };

const transport = new StdioClientTransport({ command: dgem, args: serverArgs, stderr: "pipe" });
let serverLog = "";
transport.stderr?.on("data", (chunk) => { serverLog += chunk; });
const client = new Client({ name: "decision-studio-node-test", version: "1.0.0" });

function check(what, fn) {
  try {
    fn();
  } catch (e) {
    console.error(`${what} failed; dgem mcp's stderr:\n${serverLog}`);
    throw e;
  }
}

// The decision in a result: text block 0 is `dgem decide --json`'s document.
function decisionOf(result, expected) {
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.equal(result.content[0].type, "text");
  const output = JSON.parse(result.content[0].text);
  assert.deepEqual(Object.keys(output).sort(), ["answers", "diagnostics"]);
  assert.deepEqual(result.structuredContent.answers, output.answers);
  assert.deepEqual(Object.keys(output.answers).sort(), Object.keys(expected).sort());
  for (const [id, names] of Object.entries(expected)) {
    const answer = output.answers[id];
    const probabilities = answer.probabilities;
    assert.deepEqual(Object.keys(probabilities).sort(), [...names].sort(), id);
    const sum = Object.values(probabilities).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-6, `${id}: probabilities sum to ${sum}`);
    for (const p of Object.values(probabilities)) assert.ok(p >= 0 && p <= 1);
    assert.ok(answer.confidence > 0 && answer.confidence <= 1);
    if (answer.type === "choice") assert.ok(names.includes(answer.choice), answer.choice);
    if (answer.type === "score") assert.ok(names.includes(answer.level), answer.level);
    if (answer.type === "noul") assert.ok(["yes", "no"].includes(answer.label), answer.label);
    const hesitation = result.structuredContent.hesitation[id];
    assert.ok(hesitation.value >= 0 && hesitation.value <= 1);
    assert.ok(["Clear", "Somewhat unsure", "Very unsure"].includes(hesitation.class));
  }
  assert.match(result.content[1].text, /hesitation/);
  return output;
}

await client.connect(transport);
check("initialize", () => {
  assert.equal(client.getServerVersion().name, "dgem");
  assert.ok(client.getServerCapabilities().tools);
});
console.log(`initialized: ${JSON.stringify(client.getServerVersion())}, client offers ${LATEST_PROTOCOL_VERSION}`);

// 1. The tools, with object input schemas.
const { tools } = await client.listTools();
check("tools/list", () => {
  assert.deepEqual(tools.map((t) => t.name),
    ["list_policy_templates", "decide_policy", "decide_custom_questions", "get_health"]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.inputSchema.additionalProperties, false);
    assert.ok(t.description.length > 40);
  }
  const questions = tools[2].inputSchema.properties.questions;
  assert.deepEqual(questions.items.properties.type.enum, ["boolean", "choice", "score"]);
});

// 2. list_policy_templates: the shipped policies with their variables.
const listed = await client.callTool({ name: "list_policy_templates", arguments: {} });
check("list_policy_templates", () => {
  assert.equal(listed.isError, false);
  const listedPolicies = JSON.parse(listed.content[0].text).policies;
  const triage = listedPolicies.find((p) => p.name === "support_triage");
  assert.ok(triage, "support_triage is listed");
  assert.equal(triage.origin, "shipped");
  assert.ok(triage.variables.includes("ticket"));
  assert.deepEqual(triage.questions.map((q) => q.id), ["urgent", "team", "sentiment"]);
  const door = listedPolicies.find((p) => p.name === "door_check");
  assert.ok(door, "the --policies folder's policy is listed");
  assert.equal(door.origin, "user");
  assert.deepEqual(door.variables, ["door", "note"]);
  assert.equal(door.description, "Door check: is the door safe to open.");
});

// 3. decide_policy on a shipped policy.
const policyResult = await client.callTool({
  name: "decide_policy",
  arguments: { template: "support_triage", variables: { ticket: "The app crashes on login." }, samples: 2 },
}, undefined, slow);
check("decide_policy", () => {
  const output = decisionOf(policyResult, {
    urgent: ["yes", "no"], team: ["billing", "support", "engineering"],
    sentiment: ["calm", "frustrated", "furious"],
  });
  assert.equal(output.diagnostics.samples.n, 2);
});

// ... and on the user's policy, by name.
const userResult = await client.callTool({
  name: "decide_policy", arguments: { template: "door_check", variables: { door: "red", note: "hot" } },
}, undefined, slow);
check("decide_policy (user policy)", () => { decisionOf(userResult, { open: ["yes", "no"] }); });

// 4. decide_custom_questions, dgem's tool arguments.
const custom = await client.callTool({
  name: "decide_custom_questions",
  arguments: {
    context: "Refund request: I was charged twice for the same order.",
    questions: [
      { id: "refund", type: "boolean", question: "Should we refund?" },
      { id: "channel", type: "choice", question: "Reply how?", options: ["email", "phone", "chat"] },
      { id: "severity", type: "score", question: "How severe?", options: ["low", "medium", "high"] },
    ],
  },
}, undefined, slow);
check("decide_custom_questions", () => {
  decisionOf(custom, {
    refund: ["yes", "no"], channel: ["email", "phone", "chat"], severity: ["low", "medium", "high"],
  });
});

// 5. get_health.
const health = await client.callTool({ name: "get_health", arguments: {} }, undefined, slow);
check("get_health", () => {
  assert.equal(health.isError, false);
  const h = JSON.parse(health.content[0].text);
  assert.equal(h.ready, true);
  assert.equal(h.kind, "local");
});

// 6. An unknown tool: a JSON-RPC error naming it.
await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (e) => {
  assert.ok(e instanceof McpError, String(e));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.match(e.message, /unknown tool 'no_such_tool'/);
  assert.match(e.message, /decide_custom_questions/);
  return true;
});

// 7. Bad arguments: a tool result with isError naming the problem and what is accepted.
const bad = await client.callTool({
  name: "decide_custom_questions",
  arguments: { context: "x", questions: [{ id: "q", type: "maybe", question: "?" }] },
});
check("bad arguments", () => {
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /questions\[0\]\.type: "maybe" is not accepted; accepted: boolean, choice, score/);
});
const missing = await client.callTool({ name: "decide_policy", arguments: { variables: {} } });
check("missing argument", () => {
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /template is required/);
});
const noPolicy = await client.callTool({ name: "decide_policy", arguments: { template: "nope" } });
check("unknown policy", () => {
  assert.equal(noPolicy.isError, true);
  assert.match(noPolicy.content[0].text, /no policy 'nope'.*support_triage/);
});

// 8. An unknown method through the SDK: -32601, and the server still answers.
await assert.rejects(client.request({ method: "resources/list", params: {} }, EmptyResultSchema),
  (e) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, ErrorCode.MethodNotFound);
    return true;
  });
await client.ping();
await client.close();
console.log("SDK client: tools listed, each called, errors as expected");

// 9. Raw malformed lines on a second server: each answered, then a ping still answered.
const raw = spawn(dgem, serverArgs, { stdio: ["pipe", "pipe", "pipe"] });
let rawLog = "";
raw.stderr.on("data", (c) => { rawLog += c; });
const replies = [];
const waiters = [];
createInterface({ input: raw.stdout }).on("line", (line) => {
  const message = JSON.parse(line);  // every line the server writes is one JSON message
  replies.push(message);
  while (waiters.length && waiters[0].count <= replies.length) waiters.shift().resolve();
});
const waitFor = (count) => new Promise((resolve, reject) => {
  if (replies.length >= count) return resolve();
  waiters.push({ count, resolve });
  setTimeout(() => reject(new Error(`timed out waiting for ${count} replies; got ${JSON.stringify(replies)}; stderr:\n${rawLog}`)), 300000).unref();
});
raw.stdin.write("this is not json\n");
await waitFor(1);
raw.stdin.write('{"jsonrpc":"1.0","id":2,"method":"ping"}\n');
await waitFor(2);
raw.stdin.write('{"jsonrpc":"2.0","method":"notifications/whatever"}\n');  // no reply
raw.stdin.write('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_health","arguments":[]}}\n');
await waitFor(3);
raw.stdin.write('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
await waitFor(4);
raw.stdin.end();
const code = await new Promise((resolve) => raw.on("close", resolve));
check("raw lines", () => {
  assert.deepEqual(replies[0].id, null);
  assert.equal(replies[0].error.code, ErrorCode.ParseError);
  assert.equal(replies[1].id, 2);
  assert.equal(replies[1].error.code, ErrorCode.InvalidRequest);
  assert.equal(replies[2].id, 3);
  assert.equal(replies[2].error.code, ErrorCode.InvalidParams);
  assert.deepEqual(replies[3], { jsonrpc: "2.0", id: 4, result: {} });
  assert.equal(replies.length, 4);
  assert.equal(code, 0, `dgem mcp exited ${code} at end of input; stderr:\n${rawLog}`);
});
console.log("raw malformed lines answered, server kept serving and exited 0 at end of input");
