// The official openai npm client against `dgem serve`: a decision (chat decision form) and its
// repeat (the prompt cached), a chat completion, and a stream whose text equals the completion's.
// Usage: node openai_client.mjs URL KEY
import OpenAI from "openai";
import assert from "node:assert/strict";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 900000 });

const schema = {
  instructions: "Triage a support ticket.",
  questions: [
    { id: "urgent", type: "boolean", instructions: "Does the customer need help today?" },
    { id: "team", type: "choice", instructions: "Which team should answer?",
      options: [{ name: "billing" }, { name: "support" }, { name: "engineering" }] },
  ],
  samples: 2,
};
const state = { ticket: "I was charged twice this month, please refund me today." };

// 1. A decision through the chat-completions decision form.
const decisionRequest = {
  model: "tiny",
  messages: [
    { role: "system", content: JSON.stringify(schema) },
    { role: "user", content: JSON.stringify(state) },
  ],
  seed: 7,
};
const decision = await client.chat.completions.create(decisionRequest);
const answer = JSON.parse(decision.choices[0].message.content);
for (const id of ["urgent", "team"]) {
  const a = answer.answers[id];
  assert.ok(a, `answer for ${id}`);
  const total = Object.values(a.probabilities).reduce((s, p) => s + p, 0);
  assert.ok(Math.abs(total - 1) < 1e-6, `${id} probabilities sum to 1 (got ${total})`);
  assert.ok(a.confidence > 0 && a.confidence <= 1, `${id} confidence`);
}
assert.ok(["billing", "support", "engineering"].includes(answer.answers.team.choice));
assert.equal(answer.diagnostics.samples.n, 2);
// The server's first read of this prompt encoded all of it.
assert.equal(decision.usage.prompt_tokens_details.cached_tokens, 0, "first read: nothing cached");

// 1b. The same decision again: the engine's prompt-prefix cache holds the whole prompt, so the
// usage reports it as cached, and the answer is the same to the last bit.
const again = await client.chat.completions.create(decisionRequest);
assert.ok(decision.usage.prompt_tokens > 0, "prompt tokens counted");
assert.equal(again.usage.prompt_tokens_details.cached_tokens, again.usage.prompt_tokens,
  "repeat: the whole prompt came from the prefix cache");
assert.deepEqual(JSON.parse(again.choices[0].message.content).answers, answer.answers,
  "a cached prompt gives the same answers");

// 2. A chat completion (generative form).
const messages = [{ role: "user", content: "Write one short sentence about rivers." }];
const completion = await client.chat.completions.create({ model: "tiny", messages, max_tokens: 4, seed: 3 });
const text = completion.choices[0].message.content;
assert.equal(typeof text, "string");
assert.ok(["stop", "length"].includes(completion.choices[0].finish_reason));

// 3. The same request streamed: chunks in OpenAI's format, the same text in the end.
const stream = await client.chat.completions.create({ model: "tiny", messages, max_tokens: 4, seed: 3, stream: true });
let streamed = "";
let chunks = 0;
let finish = null;
for await (const chunk of stream) {
  chunks += 1;
  assert.equal(chunk.object, "chat.completion.chunk");
  const choice = chunk.choices[0];
  if (choice?.delta?.content) streamed += choice.delta.content;
  if (choice?.finish_reason) finish = choice.finish_reason;
}
assert.ok(chunks >= 2, "several chunks");
assert.equal(streamed, text, "streamed text equals the completion");
assert.ok(finish, "a finish_reason arrived");

// 4. A wrong key is refused with 401.
const wrong = new OpenAI({ baseURL, apiKey: "wrong", maxRetries: 0 });
await assert.rejects(wrong.chat.completions.create({ model: "tiny", messages }), (e) => e.status === 401);

console.log(`openai client ok: decision team=${answer.answers.team.choice}, ${chunks} chunks, ${text.length} chars`);
