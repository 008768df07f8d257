#!/usr/bin/python3
"""Writes the demo model's corpus: inputs for the six shipped policies, laid out byte for byte as
the engine lays them out, by the engine's own code (`dgem plan --batch`).

    corpus.py --dgem build/bin/dgem --out DIR [--per-policy N] [--seed N]
              [--heldout-per-policy N] [--heldout-seed N]

For every input (the texts package draws it, with its answers) and every read layout the engine has
(document_first and schema_first, the questions read jointly and each question isolated), one slot
example: the prompt ids and the answer template of each read group, the correct label at each
slot. And one generative example: the prompt the comparison's generative side sends, and as its
canvas the JSON reply with every answer, then <turn|> and <pad> to the canvas width the engine
uses. Deterministic from the seeds. Each example records its layout (an index into LAYOUTS; the
generative examples use the first). DIR receives train.npz, heldout.npz, vocab.json (the ids the
training split uses: every other embedding row stays zero) and corpus.json (sizes, seeds, digest),
plus the inputs as JSONL (train-inputs.jsonl, heldout-inputs.jsonl) for the quality program.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from texts import GENERATORS  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
POLICIES = list(GENERATORS)
LAYOUTS = [("document_first", "none"), ("schema_first", "none"), ("document_first", "all"), ("schema_first", "all")]
PAD_ID, BOS_ID, EOS_ID, END_TURN_ID = 0, 2, 1, 106


def fail(message):
    print(f"corpus.py: {message}", file=sys.stderr)
    sys.exit(2)


def template(policy):
    return os.path.join(REPO, "resources", "templates", policy + ".json.tmpl")


def run(cmd, stdin_text=None):
    done = subprocess.run(cmd, input=stdin_text, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd[:4])} ... failed: {done.stderr.strip()[:500]}")
    return done.stdout


def alternatives(dgem, policy, variables):
    """Each question's alternatives in label order, from the policy as dgem renders it."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(variables, f)
    try:
        rendered = json.loads(run([dgem, "template", "render", "-t", template(policy), "-d", f.name]))
    finally:
        os.unlink(f.name)
    out = {}
    for q in rendered["schema"]["questions"]:
        if q["type"] == "noul":
            out[q["id"]] = ["yes", "no"]
        elif q["type"] == "choice":
            out[q["id"]] = [o["name"] for o in q["options"]]
        else:
            out[q["id"]] = list(q["levels"])
    return out


def plans(dgem, policy, inputs, layout, isolate, generative):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for variables, _ in inputs:
            f.write(json.dumps(variables) + "\n")
    try:
        cmd = [dgem, "plan", "-t", template(policy), "--batch", f.name, "--layout", layout, "--isolate", isolate]
        out = run(cmd + (["--generative"] if generative else []))
    finally:
        os.unlink(f.name)
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    if len(lines) != len(inputs):
        fail(f"dgem plan --batch gave {len(lines)} plans for {len(inputs)} inputs ({policy})")
    return lines


def reply_text(answers, order):
    """The reply the generative prompt asks for: {"id": "value", ...} in question order."""
    return "{" + ", ".join(f"{json.dumps(q)}: {json.dumps(answers[q])}" for q in order) + "}"


class Split:
    def __init__(self):
        self.tokens, self.prompt_off, self.prompt_len = [], [], []
        self.canvas_off, self.width, self.slot_off, self.slot_count, self.slot_pos = [], [], [], [], []
        self.kind, self.policy, self.layout = [], [], []
        self.size = 0

    def add(self, prompt, canvas, slots, kind, policy, layout):
        self.prompt_off.append(self.size)
        self.prompt_len.append(len(prompt))
        self.tokens.append(np.asarray(prompt, dtype=np.int32))
        self.size += len(prompt)
        self.canvas_off.append(self.size)
        self.width.append(len(canvas))
        self.tokens.append(np.asarray(canvas, dtype=np.int32))
        self.size += len(canvas)
        self.slot_off.append(len(self.slot_pos))
        self.slot_count.append(len(slots))
        self.slot_pos.extend(slots)
        self.kind.append(kind)
        self.policy.append(policy)
        self.layout.append(layout)

    def arrays(self):
        i32 = lambda a: np.asarray(a, dtype=np.int32)  # noqa: E731
        return {"tokens": np.concatenate(self.tokens), "prompt_off": np.asarray(self.prompt_off, np.int64),
                "prompt_len": i32(self.prompt_len), "canvas_off": np.asarray(self.canvas_off, np.int64),
                "width": i32(self.width), "slot_off": np.asarray(self.slot_off, np.int64),
                "slot_count": i32(self.slot_count), "slot_pos": i32(self.slot_pos), "kind": np.asarray(self.kind, np.int8),
                "policy": np.asarray(self.policy, np.int8), "layout": np.asarray(self.layout, np.int8)}


def build_split(dgem, per_policy, seed, inputs_path):
    split = Split()
    with open(inputs_path + ".tmp", "w") as inputs_file:
        for pi, policy in enumerate(POLICIES):
            rng = np.random.default_rng([seed, pi])
            inputs = [GENERATORS[policy](rng) for _ in range(per_policy)]
            alts = alternatives(dgem, policy, inputs[0][0])
            for n, (variables, answers) in enumerate(inputs):
                if set(answers) != set(alts):
                    fail(f"{policy}: the generator answers {sorted(answers)}, the policy asks {sorted(alts)}")
                for q, a in answers.items():
                    if a not in alts[q]:
                        fail(f"{policy}: answer {a!r} for {q} is not one of {alts[q]}")
                inputs_file.write(json.dumps({"id": f"{policy}-{seed}-{n}", "policy": policy, **variables,
                                              "expected": answers}) + "\n")
            order = list(alts)
            replies = run([dgem, "tokenize", "--jsonl"],
                          "".join(json.dumps({"text": reply_text(a, order)}) + "\n" for _, a in inputs)).splitlines()
            for li, (layout, isolate) in enumerate(LAYOUTS):
                for (variables, answers), plan in zip(inputs, plans(dgem, policy, inputs, layout, isolate, li == 0)):
                    for group in plan["groups"]:
                        canvas = list(group["canvas_ids"])
                        positions = []
                        for s in group["slots"]:
                            canvas[s["pos"]] = s["label_ids"][alts[s["question"]].index(answers[s["question"]])]
                            positions.append(s["pos"])
                        split.add(group["prompt_ids"], canvas, positions, 0, pi, li)
                    if li == 0:
                        gen = plan["generative"]
                        ids = json.loads(replies.pop(0))["ids"]
                        width = gen["width"]
                        if len(ids) + 1 > width:
                            fail(f"{policy}: a reply of {len(ids)} tokens does not fit the canvas of {width}")
                        split.add(gen["prompt_ids"], ids + [END_TURN_ID] + [PAD_ID] * (width - len(ids) - 1), [], 1, pi, li)
            print(f"  {policy}: {per_policy} inputs", flush=True)
    os.replace(inputs_path + ".tmp", inputs_path)
    return split


def save_npz(arrays, path):
    tmp = path + ".tmp.npz"
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dgem", required=True, help="the dgem binary (its plan and tokenize commands lay out the corpus)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-policy", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--heldout-per-policy", type=int, default=300)
    ap.add_argument("--heldout-seed", type=int, default=7)
    args = ap.parse_args(argv)
    if args.per_policy < 1 or args.heldout_per_policy < 0:
        fail(f"--per-policy {args.per_policy} / --heldout-per-policy {args.heldout_per_policy}: accepted: 1 or more / 0 or more")
    if args.seed == args.heldout_seed:
        fail(f"--heldout-seed {args.heldout_seed}: must differ from --seed, or the held-out set is the training set")
    if not os.access(args.dgem, os.X_OK):
        fail(f"--dgem {args.dgem}: not an executable (build dgem first)")
    os.makedirs(args.out, exist_ok=True)
    print(f"training split (seed {args.seed})", flush=True)
    train = build_split(args.dgem, args.per_policy, args.seed, os.path.join(args.out, "train-inputs.jsonl")).arrays()
    used = set(np.unique(train["tokens"]).tolist()) | {PAD_ID, BOS_ID, EOS_ID, END_TURN_ID}
    save_npz(train, os.path.join(args.out, "train.npz"))
    sizes = {"train_examples": int(len(train["kind"])), "train_tokens": int(len(train["tokens"])),
             "train_inputs_per_policy": args.per_policy}
    if args.heldout_per_policy:
        print(f"held-out split (seed {args.heldout_seed})", flush=True)
        held = build_split(args.dgem, args.heldout_per_policy, args.heldout_seed,
                           os.path.join(args.out, "heldout-inputs.jsonl")).arrays()
        save_npz(held, os.path.join(args.out, "heldout.npz"))
        sizes.update({"heldout_examples": int(len(held["kind"])), "heldout_inputs_per_policy": args.heldout_per_policy})
    digest = hashlib.sha256()
    for key in sorted(train):
        digest.update(key.encode())
        digest.update(train[key].tobytes())
    with open(os.path.join(args.out, "vocab.json"), "w") as f:
        json.dump({"used_ids": sorted(used)}, f)
    info = {"policies": POLICIES, "seed": args.seed, "heldout_seed": args.heldout_seed, "layouts": LAYOUTS,
            "used_vocabulary": len(used), "digest": digest.hexdigest(), **sizes}
    with open(os.path.join(args.out, "corpus.json"), "w") as f:
        json.dump(info, f, indent=2)
    print(json.dumps(info), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
