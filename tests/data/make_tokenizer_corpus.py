#!/usr/bin/python3
"""Writes tokenizer_corpus.jsonl: the strings the tokenizer parity test and benchmark encode.

Deterministic (fixed seed, no inputs): rerun it after editing and commit both files. Every line
is {"text": ...}. The mix aims at the places where tokenizers disagree: whitespace runs, tabs and
newlines (added tokens), control and unknown characters (byte fallback), special-token names
inside text, scripts with multi-byte characters, emoji sequences, code, JSON and long texts.
Strings are valid Unicode (no lone surrogates), since both sides read them as UTF-8/UTF-16 text.
"""

import json
import os
import random

rng = random.Random(20261130)

WORDS = """the of and to in is that for it as was with be by on not he this are or his from at
which but have an they you were her she there been one all we their has would when if so no
will more can said who up out about into them then some could time my than first water after
way called over down only long made just where most know get through back much before go good
new write our used me man too any day same right look think also around another came come work
three word must because does part even place well such here take why things help put years
different away again off went old number great tell men say small every found still between
name should home big give air line set own under read last never us left end along while might
next sound below saw something thought both few those always looked show large often together
asked house world going want school important until form food keep children feet land side
without boy once animals life enough took sometimes four head above kind began almost live page
got earth need far hand high year mother light parts country father let night following picture
being study second eyes soon times story boys since white days ever paper hard near sentence
better best across during today others however sure means knew try told young miles sun ways
thing whole hear example heard several change answer room sea against top turned learn point
city play toward five using himself usually money probability decision policy calibrated model
question canvas denoising distribution seeded template schema answer rationale confidence""".split()

CAPITALIZED = ["Alice", "Bob", "Paris", "London", "Tokyo", "Gemma", "DiffusionGemma", "Qt",
               "Monday", "January", "NASA", "OpenBLAS", "CUDA", "McDonald's", "O'Neil", "iPhone",
               "GPT-4", "COVID-19", "U.S.", "e.g.", "i.e.", "Dr.", "Mrs.", "St.", "JSON", "YAML"]

PUNCT = [".", ",", "!", "?", ";", ":", "...", " -", " —", " –", "'s", "n't", ")", "\"", "'"]

ADDED_NAMES = ["<bos>", "<eos>", "<pad>", "<unk>", "<mask>", "[multimodal]", "<|turn>", "<turn|>",
               "<|channel>", "<channel|>", "<|think|>", "<|tool_response>", "<start_of_image>",
               "<end_of_image>", "<unused0>", "<unused12>", "<unused99>", "<unused6241>",
               "\n", "\n\n", "\n\n\n", "\t", "\t\t\t", "\u2581\u2581", "\u2581\u2581\u2581\u2581"]
NEAR_MISSES = ["<|turn", "turn|>", "<turn", "<|channel", "<channel", "< bos>", "<bos", "bos>",
               "<BOS>", "<<bos>>", "<|turn|>", "<unused>", "<unused-1>", "<unused99999>",
               "<start_of_turn>", "<end_of_turn>", "[multimodal", "<0x41>", "<0xZZ>", "<0x>",
               "<|think", "think|>", "<|tool_response", "</s>", "<s>", "<|endoftext|>",
               "<|im_start|>", "<image_soft_token>"]

SCRIPTS = {
    "cjk": [(0x4E00, 0x9FFF)],
    "hiragana": [(0x3041, 0x3096)],
    "katakana": [(0x30A1, 0x30FA)],
    "hangul": [(0xAC00, 0xD7A3)],
    "arabic": [(0x0621, 0x064A), (0x064B, 0x0652)],
    "hebrew": [(0x05D0, 0x05EA)],
    "cyrillic": [(0x0410, 0x044F)],
    "greek": [(0x0391, 0x03A9), (0x03B1, 0x03C9)],
    "devanagari": [(0x0905, 0x0939), (0x093E, 0x094D)],
    "thai": [(0x0E01, 0x0E30), (0x0E31, 0x0E3A)],
    "latin_ext": [(0x00C0, 0x00FF), (0x0100, 0x017F)],
    "armenian": [(0x0531, 0x0556)],
    "georgian": [(0x10D0, 0x10FA)],
    "ethiopic": [(0x1200, 0x1248)],
    "math": [(0x2200, 0x22FF), (0x1D400, 0x1D4FF)],
    "box": [(0x2500, 0x257F)],
    "cjk_ext_b": [(0x20000, 0x2A6DF)],
    "private_use": [(0xE000, 0xF8FF), (0xF0000, 0xF00FF)],
    "rare": [(0x10000, 0x1007F), (0x1D100, 0x1D1FF), (0x16A0, 0x16F8), (0xA000, 0xA48C)],
}

EMOJI = [(0x1F300, 0x1F5FF), (0x1F600, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F900, 0x1F9FF),
         (0x1FA70, 0x1FAFF), (0x2600, 0x26FF), (0x2700, 0x27BF)]
EMOJI_SEQUENCES = ["👨‍👩‍👧‍👦", "👍🏽", "👋🏿", "🇫🇷", "🇯🇵", "🏳️‍🌈", "❤️", "☺︎", "1️⃣", "🧑🏻‍💻",
                   "👩‍❤️‍💋‍👨", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "✌🏼", "🫶", "🤷‍♀️"]

CONTROL = [chr(c) for c in range(0x00, 0x20)] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)]
ODD = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u2028", "\u2029", "\u00a0", "\u3000",
       "\u202e", "\u202d", "\ufffd", "\ufffe", "\uffff", "\U0010ffff", "\U000e0001", "\u0301",
       "\u0308", "\u20dd", "\ufe0f", "\u00ad", "\u1680", "\u2003", "\u200a", "\u180e",
       "\U0001f3fb", "\u034f", "\u061c"]


def pick_char(ranges):
    lo, hi = rng.choice(ranges)
    return chr(rng.randint(lo, hi))


def script_text(name, n):
    out = []
    for _ in range(n):
        word = "".join(pick_char(SCRIPTS[name]) for _ in range(rng.randint(1, 6)))
        out.append(word)
    sep = "" if name in ("cjk", "hiragana", "katakana", "cjk_ext_b") and rng.random() < 0.6 else " "
    return sep.join(out)


def sentence(n=None):
    n = n or rng.randint(3, 25)
    words = []
    for i in range(n):
        w = rng.choice(CAPITALIZED) if rng.random() < 0.08 else rng.choice(WORDS)
        if i == 0:
            w = w[:1].upper() + w[1:]
        if rng.random() < 0.05:
            w = w.upper()
        if rng.random() < 0.06:
            w = str(rng.choice([rng.randint(0, 100), rng.randint(0, 10**9), rng.random() * 1000]))
        words.append(w)
        if rng.random() < 0.12:
            words[-1] += rng.choice(PUNCT)
    return " ".join(words) + rng.choice([".", "!", "?", "", "...", ":"])


def english():
    return " ".join(sentence() for _ in range(rng.randint(1, 5)))


def paragraph_text():
    parts = [english() for _ in range(rng.randint(2, 6))]
    return rng.choice(["\n", "\n\n", "\r\n", "\n\n\n", " \n", "\n "]).join(parts)


CODE_TEMPLATES = [
    "def {f}({a}, {b}=None):\n    \"\"\"{doc}\"\"\"\n    if {a} is None:\n        return []\n    return [{a}[i] * 2 for i in range(len({a}))]\n",
    "int {f}(const std::vector<int>& {a}) {{\n    int sum = 0;\n    for (int x : {a}) sum += x;  // {doc}\n    return sum;\n}}\n",
    "function {f}({a}, {b}) {{\n\tconst result = {a}.map((x) => x + {b});\n\treturn result.filter(Boolean);\n}}\n",
    "#!/usr/bin/env bash\nset -euo pipefail\nfor f in \"$@\"; do\n  echo \"{doc}: $f\" | tr 'a-z' 'A-Z' >&2\ndone\n",
    "SELECT {a}, COUNT(*) AS n FROM {b} WHERE {a} <> '' GROUP BY {a} ORDER BY n DESC LIMIT 10;",
    "<div class=\"{a}\">\n  <span id=\"{b}\">{doc}</span>\n  <!-- TODO: {f} -->\n</div>",
    "fn {f}({a}: &str) -> Result<usize, String> {{\n    {a}.parse::<usize>().map_err(|e| format!(\"{{e}}\"))\n}}",
    "{a}:\n  {b}: [1, 2, 3]\n  name: \"{doc}\"\n  enabled: true\n",
    "\\begin{{equation}}\n  {f}(x) = \\sum_{{i=0}}^{{n}} \\frac{{x^i}}{{i!}}\n\\end{{equation}}",
    "| {a} | {b} |\n|---|---|\n| 1 | 2 |\n| `{f}` | **{doc}** |",
    "    if ({a} != nullptr && {a}->{b}) {{\n\t\t{f}();\t// mixed\ttabs\n    }}\n",
    "package main\n\nimport \"fmt\"\n\nfunc {f}() {{\n\tfmt.Println(\"{doc}\")\n}}\n",
]
IDENTS = ["x", "items", "data", "user_id", "camelCase", "PascalCase", "SCREAMING_CASE", "i",
          "__init__", "self", "n42", "tmp_buf", "std::map", "résumé", "データ", "arr[0]"]


def code():
    return rng.choice(CODE_TEMPLATES).format(f=rng.choice(IDENTS), a=rng.choice(IDENTS),
                                             b=rng.choice(IDENTS), doc=sentence(rng.randint(2, 8)))


def json_value(depth=0):
    r = rng.random()
    if depth > 3 or r < 0.3:
        return rng.choice([rng.randint(-10**6, 10**6), rng.random(), True, False, None,
                           rng.choice(WORDS), sentence(4), script_text("cjk", 2), "😀"])
    if r < 0.65:
        return {rng.choice(WORDS + IDENTS): json_value(depth + 1) for _ in range(rng.randint(0, 5))}
    return [json_value(depth + 1) for _ in range(rng.randint(0, 5))]


def json_text():
    return json.dumps(json_value(), ensure_ascii=rng.random() < 0.3,
                      indent=rng.choice([None, None, 2, 4, "\t"]))


def whitespace():
    pieces = [" ", "  ", "\t", "\n", "\r", "\r\n", "\n\n", "\u00a0", "\u3000", "\x0b", "\x0c"]
    s = "".join(rng.choice(pieces) * rng.randint(1, 40) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.6:
        s = rng.choice(["", "a", "word", "x y"]) + s + rng.choice(["", "b", "end", "."])
    return s


def controls():
    return "".join(rng.choice(CONTROL + ODD + list("abc ")) for _ in range(rng.randint(1, 30)))


def specials():
    parts = []
    for _ in range(rng.randint(2, 10)):
        r = rng.random()
        if r < 0.35:
            parts.append(rng.choice(ADDED_NAMES))
        elif r < 0.6:
            parts.append(rng.choice(NEAR_MISSES))
        else:
            parts.append(rng.choice(WORDS + [" ", "", "<", ">", "|", "user", "model", "thought"]))
    return rng.choice(["", " "]).join(parts)


def chat_prompt():
    turns = []
    for _ in range(rng.randint(1, 4)):
        role = rng.choice(["user", "model", "system"])
        turns.append("<|turn>" + role + "\n" + rng.choice([english, code, json_text])() + "<turn|>\n")
    tail = rng.choice(["<|turn>model\n", "<|turn>model\n<|channel>thought\n<channel|>", ""])
    return rng.choice(["<bos>", ""]) + "".join(turns) + tail


def multilingual():
    names = list(SCRIPTS)
    parts = []
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.6:
            parts.append(script_text(rng.choice(names), rng.randint(1, 8)))
        elif r < 0.8:
            parts.append(sentence(rng.randint(2, 6)))
        else:
            parts.append(emoji())
    return rng.choice([" ", "", "\n", ", "]).join(parts)


def emoji():
    out = []
    for _ in range(rng.randint(1, 8)):
        out.append(rng.choice(EMOJI_SEQUENCES) if rng.random() < 0.3 else pick_char(EMOJI))
        if rng.random() < 0.3:
            out.append(rng.choice([" ", "", "!", "\u200d", "\ufe0f"]))
    return "".join(out)


def invalid_looking():
    return rng.choice([
        "\\u0000 \\x00 \\n literal escapes %s %d %n {0} ${x} $(rm -rf /)",
        "<0x" + "%02X" % rng.randint(0, 255) + "> and <0x" + "%02x" % rng.randint(0, 255) + ">",
        "\ufffd\ufffd bytes \ufffd that were not UTF-8 \ufffd",
        "\u00c3\u00a9\u00c3\u00a8 mojibake \u00e2\u20ac\u2122 \u00c2\u00a0",
        "".join(chr(rng.randint(0x300, 0x36F)) for _ in range(rng.randint(1, 20))),
        "e" + "".join(chr(rng.randint(0x300, 0x36F)) for _ in range(rng.randint(1, 30))),
        "\u2581" * rng.randint(1, 70),
        "\u2581 \u2581  \u2581\u2581 ▁▁▁ x",
        "a" * rng.randint(100, 3000),
        "ab" * rng.randint(50, 1500),
        "\n" * rng.randint(30, 80),
        "\t" * rng.randint(30, 80),
        " " * rng.randint(30, 200),
        "." * rng.randint(10, 300),
        "=" * rng.randint(10, 200) + "\n" + "-" * rng.randint(10, 200),
        "0123456789" * rng.randint(1, 50),
        "".join(rng.choice("0123456789abcdef") for _ in range(64)),
        "https://example.com/path?q=" + "&".join(rng.choice(WORDS) + "=" + str(rng.randint(0, 999)) for _ in range(5)),
        "user" + str(rng.randint(1, 999)) + "@example.org, <mailto:x@y.z>",
        "".join(chr(rng.randint(0x20, 0x7E)) for _ in range(rng.randint(5, 120))),
        "".join(chr(rng.randint(0x80, 0x7FF)) for _ in range(rng.randint(5, 60))),
        "".join(chr(rng.randint(0x800, 0xD7FF)) for _ in range(rng.randint(5, 60))),
        "".join(chr(rng.randint(0x10000, 0x10FFFF)) for _ in range(rng.randint(5, 40))),
    ])


def long_text():
    makers = [english, paragraph_text, code, json_text, multilingual, emoji, whitespace, specials,
              controls]
    parts = []
    target = rng.choice([2000, 5000, 10000, 20000])
    while sum(len(p) for p in parts) < target:
        parts.append(rng.choice(makers)())
    return rng.choice(["\n", " ", "", "\n\n"]).join(parts)


def mixed():
    makers = [english, code, json_text, whitespace, controls, specials, multilingual, emoji,
              invalid_looking]
    return "".join(rng.choice(makers)() for _ in range(rng.randint(2, 4)))


PLAN = [  # (maker, count)
    (english, 300), (paragraph_text, 100), (code, 200), (json_text, 150), (multilingual, 250),
    (emoji, 100), (whitespace, 150), (controls, 120), (specials, 180), (chat_prompt, 80),
    (invalid_looking, 200), (mixed, 200), (long_text, 40),
]

FIXED = ["", " ", "  ", "\n", "\t", "a", "A", "Hello", " Hello", "Hello world", "hello  world",
         "<bos><|turn>user\nWhy is the sky blue?<turn|>\n<|turn>model\n<|channel>thought\n<channel|>",
         "\x00", "\x00\x00\x00", "\u2581", "<", ">", "<>", "<<>>", "\r", "\r\n\r\n", "ÿ", "\u00ff\u0100",
         "日本", "😀", "🇺🇳", "\U0010ffff", "\ufeffBOM first", "trailing space ", " leading"]


def main():
    texts = list(FIXED)
    for maker, count in PLAN:
        texts.extend(maker() for _ in range(count))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tokenizer_corpus.jsonl")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for t in texts:
            f.write(json.dumps({"text": t}, ensure_ascii=False) + "\n")
    print("wrote %d strings (%d characters) to %s" % (len(texts), sum(map(len, texts)), path))


if __name__ == "__main__":
    main()
