#!/usr/bin/python3
"""Trains Decision Studio's demo model: a small DiffusionGemma for the six shipped policies.

    train.py --corpus DIR --work DIR --out MODEL_DIR [--steps N] [--seed N] [--threads N]

--corpus is what corpus.py wrote (train.npz, heldout.npz, vocab.json, corpus.json). --work keeps the
checkpoint (checkpoint.pt, written atomically every --save-every steps and on SIGINT/SIGTERM); a run
started again with the same --work resumes from it and ends with the same weights as a run that was
never interrupted (every step's batch, noise and coin flips come from (seed, step), not from the
history). --out receives the Hugging Face folder the engine loads: config.json, model.safetensors
(bf16, unused vocabulary rows exactly zero), generation_config.json and training.json.

What the training objective is, and where each choice comes from:
  * Uniform corruption over the whole vocabulary, no mask token (MODEL-SPEC section 4; transformers'
    generation draws canvases from uniform random ids). A position is corrupted with probability t,
    t ~ U(0, 1) per example, and the loss is the cross-entropy over all 262144 ids at the corrupted
    positions (model.py explains why the restricted vocabulary computes that exactly).
  * Self-conditioning: in generation every step after the first feeds the previous step's
    temperature-scaled logits through the self-conditioning MLP (generation_diffusion_gemma.py; the
    engine's driver/generator.cpp). Here, on half the generative examples, a first pass without
    gradients gives logits z and the trained pass conditions on z / T, T = 0.4 + 0.4 t: the linear
    temperature schedule of generation_config.json (t_min 0.4, t_max 0.8), evaluated at the noise
    level. The other half trains the first step, which has no self-conditioning.
  * The sampler's own states (--rollout-share, ours): in generation a position the entropy-bound
    sampler does not accept is noised again at every step, and the final step commits the argmax of
    every position (driver/generator.cpp). On that share of the generative steps the trainer replays
    the sampler's first 1..--rollout-steps steps from noise without gradients (same temperatures,
    acceptance rule and self-conditioning) and trains the next step on the canvas and logits they
    leave, scoring every position.
  * Unseen words (--prompt-dropout, ours): every embedding row the corpus never uses is zero in
    the exported checkpoint, so a word of a user's input that the corpus never wrote reaches the
    model as the zero vector; on text written by hand 7-27% of the tokens are such words, and the
    model had met the zero vector only as canvas noise. On that share of each prompt's tokens
    (never the chat template's special tokens) the trainer feeds the zero row instead, so the model
    learns to read around words it does not know.
  * Slot reads: a decision is one first step over a canvas whose answer slots hold noise and whose
    template is clean (PROTOCOLS.md); the corpus lays those canvases out with `dgem plan`, so slot
    examples corrupt exactly the slots (uniform random ids, or <pad> for seed_token "fixed", as the
    engine seeds them) and train their cross-entropy.
  * Optimiser: AdamW with warm-up and cosine decay (a choice of ours; the published model's
    optimiser is not public).
  * Which reads a step trains (ours): --gen-share of the steps are generative; of the slot steps,
    --joint-share read every question in one prompt (the policies' default and what the quality
    program measures), the rest one question alone. Both layouts come in both kinds.
"""

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import signal
import struct
import subprocess
import sys
import time

# torch parallelises with its own threads (--threads); OpenBLAS, under numpy and some of torch's
# products, would start a pool of its own on every core beside them (measured: 1.9 cores busy and
# 1.5x slower steps at --threads 1). Set before numpy and torch load it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import (BOS_ID, END_TURN_ID, EOS_ID, FULL_VOCAB, PAD_ID, START_TURN_ID, DemoModel,  # noqa: E402
                   demo_config)

GENERATION_CONFIG = {
    "confidence_threshold": 0.005,
    "eos_token_id": [1, 106, 50],
    "max_denoising_steps": 48,
    "max_new_tokens": 256,
    "pad_token_id": 0,
    "sampler_config": {"_cls_name": "EntropyBoundSamplerConfig", "entropy_bound": 0.1},
    "stability_threshold": 1,
    "t_max": 0.8,
    "t_min": 0.4,
}


def fail(message):
    print(f"train.py: {message}", file=sys.stderr)
    sys.exit(2)


# ----------------------------------------------------------------------------------------------
# corpus


class Corpus:
    """Examples of one split: prompt ids, target canvas, slot positions, kind, width, layout."""

    def __init__(self, path):
        z = np.load(path)
        self.tokens = z["tokens"]
        self.prompt_off, self.prompt_len = z["prompt_off"], z["prompt_len"]
        self.canvas_off, self.width = z["canvas_off"], z["width"]
        self.slot_off, self.slot_count, self.slot_pos = z["slot_off"], z["slot_count"], z["slot_pos"]
        self.kind, self.policy = z["kind"], z["policy"]
        if "layout" not in z:
            fail(f"{path}: written by an older corpus.py (no layout per example); write the corpus again")
        # Buckets of one shape: (kind, canvas width, isolated). corpus.py's layouts 2 and 3 read each
        # question alone (one slot per prompt); 0 and 1 read all questions jointly.
        isolated = (z["layout"] >= 2) & (self.kind == 0)
        self.buckets = {}
        for i, key in enumerate(zip(self.kind.tolist(), self.width.tolist(), isolated.tolist())):
            self.buckets.setdefault(key, []).append(i)
        self.bucket_keys = sorted(self.buckets)

    def __len__(self):
        return len(self.kind)

    def prompt(self, i):
        return self.tokens[self.prompt_off[i]: self.prompt_off[i] + self.prompt_len[i]]

    def canvas(self, i):
        return self.tokens[self.canvas_off[i]: self.canvas_off[i] + self.width[i]]

    def slots(self, i):
        return self.slot_pos[self.slot_off[i]: self.slot_off[i] + self.slot_count[i]]


def pick_batch(corpus, rng, batch_tokens, gen_share, joint_share):
    """A bucket, then examples from it: deterministic in rng. A step is generative with probability
    gen_share; a slot step reads jointly with probability joint_share. Joint reads carry every
    question's slot for one encoder pass, isolated reads one: the corpus has three isolated
    examples for each joint one, and drawing by count would spend most of the encoder on them."""
    kinds = {k for k, _, _ in corpus.bucket_keys}
    want_gen = 1 in kinds and (0 not in kinds or rng.random() < gen_share)
    if want_gen:
        keys = [key for key in corpus.bucket_keys if key[0] == 1]
    else:
        isolated = rng.random() >= joint_share
        keys = [key for key in corpus.bucket_keys if key[0] == 0 and key[2] == isolated] or \
            [key for key in corpus.bucket_keys if key[0] == 0]
    sizes = np.array([len(corpus.buckets[k]) for k in keys], dtype=np.float64)
    key = keys[rng.choice(len(keys), p=sizes / sizes.sum())]
    members = corpus.buckets[key]
    mean_prompt = float(np.mean(corpus.prompt_len[members[: 64]])) + key[1]
    count = int(max(2, min(64, batch_tokens // max(mean_prompt, 1.0))))
    return key, [members[j] for j in rng.choice(len(members), size=min(count, len(members)), replace=False)]


def collate(model, corpus, ids):
    P = int(max(corpus.prompt_len[i] for i in ids))
    prompts = np.full((len(ids), P), PAD_ID, dtype=np.int64)
    for b, i in enumerate(ids):
        pr = corpus.prompt(i)
        prompts[b, : len(pr)] = pr
    canvases = np.stack([corpus.canvas(i) for i in ids]).astype(np.int64)
    lengths = torch.as_tensor([int(corpus.prompt_len[i]) for i in ids])
    lk = model.lookup
    return lk[torch.as_tensor(prompts)], lengths, lk[torch.as_tensor(canvases)]


def uniform_noise(model, shape, gen):
    """Uniform ids over the whole vocabulary, as restricted indices (unused ids: the zero row)."""
    return model.lookup[torch.randint(0, FULL_VOCAB, shape, generator=gen)]


# ----------------------------------------------------------------------------------------------
# loss


# Never hidden by --prompt-dropout: <pad>, <eos>, <bos>, and the chat template's turn markers.
SPECIAL_IDS = (PAD_ID, EOS_ID, BOS_ID, START_TURN_ID, END_TURN_ID)


def drop_prompt_tokens(model, prompts, share, gen):
    """The zero row (an unseen word, as the engine sees one) at `share` of the prompts' tokens."""
    hidden = torch.rand(prompts.shape, generator=gen) < share
    for special in SPECIAL_IDS:
        hidden &= prompts != int(model.lookup[special])
    return torch.where(hidden, torch.full_like(prompts, model.unused), prompts)


def draw_step(model, corpus, key, ids, rng, gen, slot_draws, rollout_share=0.0, rollout_steps=0,
              prompt_dropout=0.0):
    """Every random choice of one step, for the whole batch: the noised canvases, which positions
    are scored, and whether the generative pass is self-conditioned."""
    kind, width = key[0], key[1]
    prompts, lengths, target = collate(model, corpus, ids)
    if prompt_dropout > 0:  # no draw at 0, so runs without it keep their bits
        prompts = drop_prompt_tokens(model, prompts, prompt_dropout, gen)
    B = len(ids)
    if kind == 0:
        # Slot reads: the slots hold noise (or <pad> for seed_token "fixed"), the template is clean.
        rows = target[:, None, :].expand(B, slot_draws, width).clone()
        corrupt = torch.zeros(B, slot_draws, width, dtype=torch.bool)
        for b, i in enumerate(ids):
            corrupt[b, :, torch.as_tensor(corpus.slots(i), dtype=torch.long)] = True
        fixed = rng.random() < 0.1
        noise = (torch.full_like(rows, int(model.lookup[PAD_ID])) if fixed
                 else uniform_noise(model, rows.shape, gen))
        return {"prompts": prompts, "lengths": lengths, "rows": rows, "corrupt": corrupt,
                "x": torch.where(corrupt, noise, rows), "temperature": None, "rollout": None}
    rows = target[:, None, :]
    if rollout_share > 0 and rng.random() < rollout_share:
        # The sampler's own states: part_loss runs its first k steps from noise, and every position
        # is scored (the final step commits the argmax of all of them). One seed per half, so each
        # half's draws do not depend on which half runs first.
        k = int(rng.integers(1, rollout_steps + 1))
        seeds = [int(v) for v in torch.randint(0, 2**62, (2,), generator=gen)]
        return {"prompts": prompts, "lengths": lengths, "rows": rows,
                "corrupt": torch.ones(B, 1, width, dtype=torch.bool), "x": None, "temperature": None,
                "rollout": (k, seeds)}
    t = torch.rand(B, generator=gen).clamp(min=0.02)
    corrupt = torch.rand(B, 1, width, generator=gen) < t[:, None, None]
    corrupt[:, 0, 0] |= ~corrupt.any(dim=2)[:, 0]  # at least one position to learn
    x = torch.where(corrupt, uniform_noise(model, rows.shape, gen), rows)
    temperature = 0.4 + 0.4 * t if rng.random() < 0.5 else None
    return {"prompts": prompts, "lengths": lengths, "rows": rows, "corrupt": corrupt, "x": x,
            "temperature": temperature}


def sampler_rollout(model, cache, lengths, shape, steps, gen):
    """The first `steps` steps of the engine's entropy-bound loop (driver/generator.cpp, after
    transformers' EntropyBoundSampler) from uniform noise, without gradients. Returns the canvas and
    self-conditioning input that step steps + 1 sees: x (accepted positions hold their samples, the
    others fresh noise) and the last step's logits with the temperature they were scaled by."""
    total, bound = GENERATION_CONFIG["max_denoising_steps"], GENERATION_CONFIG["sampler_config"]["entropy_bound"]
    t_min, t_max = GENERATION_CONFIG["t_min"], GENERATION_CONFIG["t_max"]
    B = shape[0]
    x, prev, temperature = uniform_noise(model, shape, gen), None, None
    with torch.no_grad():
        for j in range(steps):
            z = model.used_logits(model.decode(x, cache, lengths, prev, temperature))
            T = t_min + (t_max - t_min) * (total - j) / total
            zt = z / T
            lse = model.full_logsumexp(z, T)
            p_used = torch.exp(zt - lse[..., None])
            # Entropy over all 262144 ids: the unused ones have logit 0 and add nothing to sum p*z.
            entropy = lse - (p_used * zt).sum(-1)
            p_unused = (1 - p_used.sum(-1)).clamp(min=0)
            probs = torch.cat([p_used, p_unused[..., None]], -1).reshape(-1, p_used.shape[-1] + 1)
            sample = torch.multinomial(probs, 1, generator=gen).view(shape)  # index `unused`: the zero row
            order = torch.sort(entropy, dim=-1, stable=True).indices
            sorted_h = entropy.gather(-1, order)
            before = sorted_h.cumsum(-1) - sorted_h
            accepted = torch.zeros_like(entropy, dtype=torch.bool).scatter(-1, order, before <= bound)
            x = torch.where(accepted, sample, uniform_noise(model, shape, gen))
            prev, temperature = z, torch.full((B,), T)
    return x, prev, temperature


def part_loss(model, step, part, scored):
    """The summed loss of the examples in `part` (a slice of the batch), divided by the number of
    positions scored in the whole batch; backward() is called here. Returns (loss, right)."""
    prompts, lengths = step["prompts"][part], step["lengths"][part]
    rows, corrupt = step["rows"][part], step["corrupt"][part]
    cache = model.encode(prompts, lengths)
    prev, temperature = None, step["temperature"]
    if step.get("rollout"):
        k, seeds = step["rollout"]
        gen = torch.Generator().manual_seed(seeds[0 if part.start == 0 else 1])
        x, prev, temperature = sampler_rollout(model, cache, lengths, rows.shape, k, gen)
    else:
        x = step["x"][part]
    if temperature is not None and prev is None:
        temperature = temperature[part]
        with torch.no_grad():
            prev = model.used_logits(model.decode(x, cache, lengths))
    hidden = model.decode(x, cache, lengths, prev, temperature)
    sel = corrupt.reshape(-1)
    h = hidden.reshape(-1, hidden.shape[-1])[sel]
    tgt = rows.reshape(-1)[sel]
    z = model.used_logits(h)
    nll = model.full_logsumexp(z) - z.gather(1, tgt[:, None])[:, 0]
    loss = nll.sum() / scored
    loss.backward()
    return float(loss), int((z.argmax(dim=1) == tgt).sum())


def step_loss(model, corpus, key, ids, rng, gen, slot_draws, pool, rollout_share=0.0, rollout_steps=0,
              prompt_dropout=0.0):
    """One step's loss, its gradients left in the parameters. The batch is always computed as two
    halves, each forward and backward alone; with a pool of two threads they run side by side
    (torch's own operators use one thread each: at these sizes a second intra-op thread made a
    step slower, 0.62 s -> 0.75 s, while two halves side by side use both cores). Each parameter
    then receives exactly two gradient contributions, and a + b is b + a in floating point, so the
    weights are the same bits whichever half finishes first and whatever --threads is."""
    step = draw_step(model, corpus, key, ids, rng, gen, slot_draws, rollout_share, rollout_steps,
                     prompt_dropout)
    scored = int(step["corrupt"].sum())
    half = (len(ids) + 1) // 2
    parts = [slice(0, half), slice(half, len(ids))]
    if pool is None:
        results = [part_loss(model, step, p, scored) for p in parts]
    else:
        results = list(pool.map(lambda p: part_loss(model, step, p, scored), parts))
    return sum(r[0] for r in results), sum(r[1] for r in results) / scored


# ----------------------------------------------------------------------------------------------
# checkpoints and export


def atomic_torch_save(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def bf16_bytes(t):
    u = t.contiguous().view(torch.int32).numpy().astype(np.uint32)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype("<u2")  # round to nearest even
    return rounded.tobytes()


def write_safetensors(tensors, path):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        raw = bf16_bytes(tensors[name])
        header[name] = {"dtype": "BF16", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    header["__metadata__"] = {"format": "pt"}
    head = json.dumps(header, separators=(",", ":")).encode()
    head += b" " * ((8 - len(head) % 8) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        for raw in blobs:
            f.write(raw)
    os.replace(tmp, path)


def write_json(obj, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def trainer_commit():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        return subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def weights_digest(model):
    h = hashlib.sha256()
    for name, t in sorted(model.checkpoint_tensors().items()):
        h.update(name.encode())
        h.update(t.numpy().tobytes())
    return h.hexdigest()


# ----------------------------------------------------------------------------------------------
# held-out figures (the trainer's own forward; the quality program measures through the engine)


@torch.no_grad()
def heldout_figures(model, corpus, policies, limit):
    per = {}
    for key in corpus.bucket_keys:
        everything = corpus.buckets[key]
        # Evenly through the bucket: it is in policy order, and every policy should be scored.
        members = everything[:: max(1, len(everything) // max(1, limit))][:limit]
        for start in range(0, len(members), 16):
            ids = members[start: start + 16]
            prompts, lengths, target = collate(model, corpus, ids)
            cache = model.encode(prompts, lengths)
            if key[0] == 0:
                x = target[:, None, :].clone()
                for b, i in enumerate(ids):
                    pos = torch.as_tensor(corpus.slots(i), dtype=torch.long)
                    x[b, 0, pos] = model.lookup[torch.randint(0, FULL_VOCAB, (len(pos),))]
                z = model.used_logits(model.decode(x, cache, lengths))
                for b, i in enumerate(ids):
                    name = policies[int(corpus.policy[i])]
                    for p in corpus.slots(i):
                        s = per.setdefault(name, {"slot_right": 0, "slot_total": 0, "gen_exact": 0, "gen_total": 0})
                        s["slot_total"] += 1
                        s["slot_right"] += int(z[b, 0, p].argmax() == target[b, p])
            else:
                # One-pass denoise from full noise is the hardest case of generation: report
                # the share of canvases the model restores exactly.
                x = uniform_noise(model, target[:, None, :].shape, torch.Generator().manual_seed(start))
                z = model.used_logits(model.decode(x, cache, lengths))
                exact = (z.argmax(-1)[:, 0] == target).all(dim=1)
                for b, i in enumerate(ids):
                    name = policies[int(corpus.policy[i])]
                    s = per.setdefault(name, {"slot_right": 0, "slot_total": 0, "gen_exact": 0, "gen_total": 0})
                    s["gen_total"] += 1
                    s["gen_exact"] += int(exact[b])
    return per


# ----------------------------------------------------------------------------------------------


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="folder written by corpus.py")
    ap.add_argument("--work", required=True, help="folder for the resumable checkpoint")
    ap.add_argument("--out", required=True, help="model folder to write (config.json, model.safetensors, ...)")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--window", type=int, default=1024,
                    help="sliding layers' window (the real model's 1024: a prompt of the corpus fits in it, so "
                    "every layer reads the input; 128 before)")
    ap.add_argument("--batch-tokens", type=int, default=3000, help="prompt+canvas tokens per step")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--save-every", type=int, default=50)
    ap.add_argument("--gen-share", type=float, default=0.45, help="share of steps that train generative canvases")
    ap.add_argument("--joint-share", type=float, default=0.5,
                    help="share of slot steps that read the questions jointly (the rest read one alone)")
    ap.add_argument("--rollout-share", type=float, default=0.0,
                    help="share of generative steps trained on the sampler's own states (its first 1..--rollout-steps "
                    "steps from noise, run without gradients), every position scored")
    ap.add_argument("--rollout-steps", type=int, default=8, help="most sampler steps a rollout runs (1 to 48)")
    ap.add_argument("--prompt-dropout", type=float, default=0.0,
                    help="share of prompt tokens fed as the zero row, as a word the corpus never used reaches "
                    "the model (0 to 0.5)")
    ap.add_argument("--init-from", help="a stage's checkpoint.pt: continue from its weights (fresh optimiser and "
                    "schedule); training.json lists every stage")
    ap.add_argument("--stop-after", type=int, default=0, help="stop (as if interrupted) after this many steps")
    ap.add_argument("--heldout-limit", type=int, default=200, help="held-out examples per bucket to score")
    args = ap.parse_args(argv)
    if args.steps < 1 or args.steps > 1_000_000:
        fail(f"--steps {args.steps}: accepted: 1 to 1000000")
    if args.seed < 0 or args.seed >= 2**63:
        fail(f"--seed {args.seed}: accepted: a whole number from 0 to 2^63-1")
    if args.threads < 1:
        fail(f"--threads {args.threads}: accepted: 1 or more")
    if not 0.0 <= args.gen_share <= 1.0:
        fail(f"--gen-share {args.gen_share}: accepted: 0 to 1")
    if not 0.0 <= args.joint_share <= 1.0:
        fail(f"--joint-share {args.joint_share}: accepted: 0 to 1")
    if not 0.0 <= args.rollout_share <= 1.0:
        fail(f"--rollout-share {args.rollout_share}: accepted: 0 to 1")
    if not 0.0 <= args.prompt_dropout <= 0.5:
        fail(f"--prompt-dropout {args.prompt_dropout}: accepted: 0 to 0.5")
    if not 1 <= args.rollout_steps <= GENERATION_CONFIG["max_denoising_steps"]:
        fail(f"--rollout-steps {args.rollout_steps}: accepted: 1 to {GENERATION_CONFIG['max_denoising_steps']}")
    if args.init_from and not os.path.isfile(args.init_from):
        fail(f"--init-from {args.init_from}: not a file (a checkpoint.pt from an earlier --work folder)")
    if not 16 <= args.window <= 32768:
        fail(f"--window {args.window}: accepted: 16 to 32768")
    if args.hidden % 8 or args.hidden < 32:
        fail(f"--hidden {args.hidden}: accepted: a multiple of 8, at least 32")
    for name in ("train.npz", "vocab.json", "corpus.json"):
        if not os.path.isfile(os.path.join(args.corpus, name)):
            fail(f"--corpus {args.corpus}: {name} is missing (write the corpus with corpus.py)")
    for flag, folder in (("--work", args.work), ("--out", args.out)):
        if os.path.exists(folder) and not os.path.isdir(folder):
            fail(f"{flag} {folder}: exists and is not a folder")
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            fail(f"{flag} {folder}: cannot be created ({e.strerror})")
        if not os.access(folder, os.W_OK):
            fail(f"{flag} {folder}: not writable")
    return args


def lr_at(step, total, base):
    warm = max(1, min(100, total // 10))
    if step < warm:
        return base * (step + 1) / warm
    progress = (step - warm) / max(1, total - warm)
    return base * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def main(argv=None):
    args = parse_args(argv)
    # One intra-op thread; --threads 2 runs the step's two halves side by side (step_loss).
    torch.set_num_threads(1)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2) if args.threads >= 2 else None
    torch.manual_seed(args.seed)
    with open(os.path.join(args.corpus, "vocab.json")) as f:
        used = json.load(f)["used_ids"]
    with open(os.path.join(args.corpus, "corpus.json")) as f:
        corpus_info = json.load(f)
    train = Corpus(os.path.join(args.corpus, "train.npz"))
    config = demo_config(args.hidden, args.layers, args.window)
    model = DemoModel(config, used, torch.Generator().manual_seed(args.seed))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.98), weight_decay=0.01)
    ckpt_path = os.path.join(args.work, "checkpoint.pt")
    settings = {k: getattr(args, k) for k in ("steps", "seed", "hidden", "layers", "batch_tokens", "lr", "gen_share",
                                              "joint_share", "rollout_share", "rollout_steps")}
    if args.window != 128:  # absent at the earlier fixed 128, so checkpoints of earlier runs still resume
        settings["window"] = args.window
    if args.prompt_dropout:  # absent at 0, so checkpoints of earlier runs still resume
        settings["prompt_dropout"] = args.prompt_dropout
    settings["corpus_digest"] = corpus_info.get("digest")
    step, history, elapsed_before, cpu_before = 0, [], 0.0, 0.0
    stages = []
    if args.init_from:
        earlier = torch.load(args.init_from)
        model.load_state_dict(earlier["model"])
        stages = earlier.get("stages", []) + [{**earlier["settings"], "steps_run": earlier["step"],
                                               "train_seconds": round(earlier.get("elapsed_s", 0.0), 1),
                                               "cpu_seconds": round(earlier.get("cpu_s", 0.0), 1)}]
        settings["init_from_weights"] = hashlib.sha256(
            b"".join(v.numpy().tobytes() for _, v in sorted(earlier["model"].items()))).hexdigest()
    if os.path.exists(ckpt_path):
        state = torch.load(ckpt_path)
        if state["settings"] != settings:
            fail(f"--work {args.work}: its checkpoint was made with other settings {state['settings']}; "
                 f"use another --work folder or delete {ckpt_path}")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])

        step, history, elapsed_before = state["step"], state["history"], state.get("elapsed_s", 0.0)
        cpu_before = state.get("cpu_s", 0.0)
        print(f"resuming at step {step} of {args.steps}", flush=True)

    interrupted = {"flag": False}

    def on_signal(signum, _frame):
        interrupted["flag"] = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    started, cpu_started = time.time(), time.process_time()

    def save():
        atomic_torch_save({"model": model.state_dict(), "optimizer": opt.state_dict(), "step": step,
                           "history": history, "settings": settings, "stages": stages,
                           "elapsed_s": elapsed_before + time.time() - started,
                           "cpu_s": cpu_before + time.process_time() - cpu_started}, ckpt_path)

    ran = 0
    while step < args.steps:
        rng = np.random.default_rng([args.seed, step])
        gen = torch.Generator().manual_seed(args.seed * 1_000_003 + step)
        key, ids = pick_batch(train, rng, args.batch_tokens, args.gen_share, args.joint_share)
        for group in opt.param_groups:
            group["lr"] = lr_at(step, args.steps, args.lr)
        # None, not zeros: a parameter that no token used this step (an expert nobody routed
        # to) is then skipped by AdamW in every run alike; with zeros an uninterrupted run would
        # apply its momentum while a resumed run, whose first step has no grads yet, would not.
        opt.zero_grad(set_to_none=True)
        loss, right = step_loss(model, train, key, ids, rng, gen, 2, pool, args.rollout_share, args.rollout_steps,
                                args.prompt_dropout)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        history.append([step, "gen" if key[0] else "slot", round(float(loss), 5), round(right, 4)])
        step += 1
        ran += 1
        if step % 25 == 0 or step == args.steps:
            recent = history[-25:]
            for kind in ("slot", "gen"):
                ls = [h[2] for h in recent if h[1] == kind]
                if ls:
                    print(f"step {step}/{args.steps} {kind} loss {np.mean(ls):.4f} "
                          f"acc {np.mean([h[3] for h in recent if h[1] == kind]):.3f}", flush=True)
        if step % args.save_every == 0 or step == args.steps:
            save()
        if interrupted["flag"] or (args.stop_after and ran >= args.stop_after):
            save()
            print(f"stopped at step {step}; run again with the same --work to resume", flush=True)
            return 3

    cpu = cpu_before + time.process_time() - cpu_started
    export(args, model, config, corpus_info, history, elapsed_before + time.time() - started, step, cpu, stages)
    return 0


def export(args, model, config, corpus_info, history, elapsed, step, cpu, stages):
    tensors = model.checkpoint_tensors()
    write_safetensors(tensors, os.path.join(args.out, "model.safetensors"))
    write_json(config, os.path.join(args.out, "config.json"))
    write_json(GENERATION_CONFIG, os.path.join(args.out, "generation_config.json"))
    window = max(1, min(25, len(history) // 4))
    first = [h[2] for h in history[:window]]
    last = [h[2] for h in history[-window:]]
    info = {
        "model": "Decision Studio demo model",
        "description": "demo model, trained on synthetic data for the shipped policies; not a general model",
        "trainer": "tools/demo_model/train.py",
        "trainer_commit": trainer_commit(),
        "seed": args.seed,
        "steps": step,
        "threads": args.threads,
        "train_seconds": round(elapsed, 1),
        "cpu_seconds": round(cpu, 1),
        "earlier_stages": stages,
        "gen_share": args.gen_share,
        "joint_share": args.joint_share,
        "rollout_share": args.rollout_share,
        "rollout_steps": args.rollout_steps,
        "prompt_dropout": args.prompt_dropout,
        "hidden": args.hidden,
        "layers": args.layers,
        "window": args.window,
        "batch_tokens": args.batch_tokens,
        "lr": args.lr,
        "used_vocabulary": int(model.unused),
        "parameters_trained": int(sum(p.numel() for p in model.parameters())),
        "corpus": corpus_info,
        "loss_window": window,
        "loss_first": round(float(np.mean(first)), 4) if first else None,
        "loss_last": round(float(np.mean(last)), 4) if last else None,
        "weights_sha256": weights_digest(model),
    }
    heldout_path = os.path.join(args.corpus, "heldout.npz")
    if os.path.exists(heldout_path):
        figures = heldout_figures(model, Corpus(heldout_path), corpus_info["policies"], args.heldout_limit)
        info["heldout_trainer_forward"] = figures
        print("held out (the trainer's own forward; bench-demo_quality measures through the engine):")
        for name, s in sorted(figures.items()):
            slot = s["slot_right"] / max(1, s["slot_total"])
            gen = s["gen_exact"] / max(1, s["gen_total"])
            print(f"  {name:20s} slot accuracy {slot:.3f} ({s['slot_total']} slots)  "
                  f"one-pass canvas restored {gen:.3f} ({s['gen_total']})")
    write_json(info, os.path.join(args.out, "training.json"))
    print(f"wrote {args.out}: {step} steps, {elapsed:.0f} s, loss {info['loss_first']} -> {info['loss_last']}, "
          f"weights {info['weights_sha256'][:16]}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
