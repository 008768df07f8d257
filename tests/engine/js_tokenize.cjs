// The reference side of the tokenizer parity test and benchmark: tokenizes JSON lines
// {"text": ...} from stdin with the JavaScript tokenizer (@lenml/tokenizers, a port of
// transformers.js) loaded from the SAME tokenizer.json the C++ tokenizer reads.
//   node js_tokenize.cjs NPM_DIR TOKENIZER_DIR           -> one JSON id array per input line
//   node js_tokenize.cjs NPM_DIR TOKENIZER_DIR --bench N -> {"tokens":..,"seconds":..} of N
//                                                          timed passes over the corpus
// No <bos> is added (add_special_tokens: false), like engine::Tokenizer::encode.
"use strict";
const fs = require("fs");
const path = require("path");
const { createRequire } = require("module");

const [npmDir, tokDir, flag, rounds] = process.argv.slice(2);
if (!npmDir || !tokDir) {
  process.stderr.write("usage: node js_tokenize.cjs NPM_DIR TOKENIZER_DIR [--bench N]\n");
  process.exit(2);
}
const requireFromNpm = createRequire(path.join(path.resolve(npmDir), "package.json"));
const { TokenizerLoader } = requireFromNpm("@lenml/tokenizers");

const readJson = (name) => JSON.parse(fs.readFileSync(path.join(tokDir, name), "utf8"));
const tokenizer = TokenizerLoader.fromPreTrained({
  tokenizerJSON: readJson("tokenizer.json"),
  tokenizerConfig: readJson("tokenizer_config.json"),
});

const texts = fs
  .readFileSync(0, "utf8")
  .split("\n")
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line).text);
const encode = (text) => tokenizer.encode(text, { add_special_tokens: false });

if (flag === "--bench") {
  // One untimed warm-up pass for the JIT, then N timed passes. The library's word cache is
  // cleared before each pass (outside the timing) so repeated passes do not measure cache hits.
  const n = Math.max(1, parseInt(rounds || "1", 10));
  const clearCache = () => tokenizer.model.clear_cache && tokenizer.model.clear_cache();
  for (const text of texts) encode(text);
  let tokens = 0;
  let seconds = 0;
  for (let r = 0; r < n; ++r) {
    clearCache();
    const start = process.hrtime.bigint();
    for (const text of texts) tokens += encode(text).length;
    seconds += Number(process.hrtime.bigint() - start) / 1e9;
  }
  process.stdout.write(JSON.stringify({ tokens, seconds, texts: texts.length * n }) + "\n");
} else {
  const out = texts.map((text) => JSON.stringify(encode(text))).join("\n");
  process.stdout.write(out + (texts.length ? "\n" : ""));
}
