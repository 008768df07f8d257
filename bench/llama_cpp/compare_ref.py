#!/usr/bin/python3
"""compare_ref.py: llama.cpp's DiffusionGemma logits (pass_timer --dump-logits) against this
project's PyTorch reference (tests/reference/diffusion_gemma_ref.py, the one the engine's tests
check against) on the same checkpoint and tokens, so the benchmark's two sides are known to
compute the same thing.

    compare_ref.py --model DIR --dump PREFIX --prompt-tokens P [--threads N]

PREFIX.first.f32 and PREFIX.sc.f32 are llama.cpp's logits [canvas, vocab] of the unconditioned
canvas pass and of the self-conditioned one (its input: the first pass's logits at temperature
0.8). The reference computes both from the same prompt and canvas ids (the arithmetic sequences of
bench-engine_passes and pass_timer); its self-conditioned pass reads llama.cpp's first logits, so
each comparison isolates one pass.

Two references are compared:
  * exact: the reference as it is (float32 throughout);
  * ggml rounding: the same with the two roundings llama.cpp's CPU backend makes on purpose,
    emulated: GELU through ggml's fp16 lookup table (input and output rounded to fp16, the table's
    0 / identity beyond -10 / +10), and the self-conditioning soft embedding from fp16
    probabilities times an fp16 copy of the embedding.
Per pass it prints the largest absolute logit difference, the median over positions of each
position's largest difference, both relative to the largest |logit|, and the share of positions
whose argmax agrees. It exits 1 when, against the ggml-rounding reference, a pass's argmax
agreement is under --min-agree (default 0.97) or its median relative difference over --max-rel
(default 0.005): what remains then is summation order and the odd near-tied expert choice of a
random model (the reference reports its smallest router margin).
"""

import argparse
import json
import os
import sys
import types

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "reference"))
import diffusion_gemma_ref as ref  # noqa: E402  (this project's reference, beside tests/)


def fail(message):
    print(f"compare_ref.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path, canvas, vocab):
    if not os.path.isfile(path):
        fail(f"{path}: not found (run pass_timer --dump-logits first)")
    arr = np.fromfile(path, dtype="<f4")
    if arr.size != canvas * vocab:
        fail(f"{path}: {arr.size} values, expected canvas*vocab = {canvas}*{vocab}")
    return arr.reshape(canvas, vocab)


def fp16(t):
    return t.to(torch.float16).to(torch.float32)


def ggml_gelu(exact):
    """ggml-cpu's GELU with GGML_GELU_FP16: fp16 input into an fp16 table, 0 / x beyond +-10."""
    def gelu(x):
        y = fp16(exact(fp16(x)))
        return torch.where(x <= -10.0, torch.zeros_like(x), torch.where(x >= 10.0, x, y))
    return gelu


def ggml_decoder_input(self, canvas, previous_logits=None):
    """The reference's decoder input with llama.cpp's fp16 soft embedding (sc_embT is F16, so the
    probabilities enter the product as fp16 as well)."""
    cfg = self.cfg
    e = self.embed[torch.as_tensor(canvas, dtype=torch.long)] * self.embed_scale
    if previous_logits is None:
        return ref.rms_norm(e, None, cfg.eps)
    probs = torch.softmax(previous_logits.to(torch.float32), dim=-1)
    soft = (fp16(probs) @ fp16(self.embed)) * self.embed_scale
    n = ref.rms_norm(soft, self.sc_pre_norm, cfg.eps)
    sc = (ref.gelu_tanh(n @ self.sc_gate.T) * (n @ self.sc_up.T)) @ self.sc_down.T
    return ref.rms_norm(e + sc, None, cfg.eps)


def run(model, prompt, canvas, prev):
    cache = model.encode(prompt)
    first = model.logits(model.decode_hidden([canvas], cache))[0].numpy()
    sc = model.logits(model.decode_hidden([canvas], cache, prev))[0].numpy()
    return first, sc


def compare(name, ours, want):
    per_pos = np.max(np.abs(ours - want), axis=1)
    scale = float(np.max(np.abs(want))) or 1.0
    agree = float(np.mean(np.argmax(ours, axis=1) == np.argmax(want, axis=1)))
    med = float(np.median(per_pos)) / scale
    print(f"  {name:<22} max |diff| {per_pos.max():.3e} ({per_pos.max() / scale:.1e} of max |logit| "
          f"{scale:.1f}), median {med:.1e}; argmax agrees at {agree * 100:.1f}% of "
          f"{len(per_pos)} positions")
    return med, agree


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="the checkpoint folder the GGUF came from")
    ap.add_argument("--dump", required=True, help="pass_timer's --dump-logits PREFIX")
    ap.add_argument("--prompt-tokens", type=int, required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--min-agree", type=float, default=0.97)
    ap.add_argument("--max-rel", type=float, default=0.005)
    args = ap.parse_args()

    try:
        with open(os.path.join(args.model, "config.json"), encoding="utf-8") as f:
            cfg = json.load(f)
        canvas_len = int(cfg["canvas_length"])
        vocab = int(cfg["text_config"]["vocab_size"])
    except (OSError, ValueError, KeyError) as e:
        fail(f"{args.model}: cannot read config.json ({e})")
    P = args.prompt_tokens
    if P < 1:
        fail("--prompt-tokens must be at least 1")
    first = load(args.dump + ".first.f32", canvas_len, vocab)
    sc = load(args.dump + ".sc.f32", canvas_len, vocab)

    torch.set_num_threads(max(1, args.threads))
    torch.set_grad_enabled(False)
    model = ref.Model(args.model, torch.float32, "stored")
    prompt = [1000 + (7919 * i + 17) % 200000 for i in range(P)]
    canvas = [1000 + (104729 * j + 3) % 200000 for j in range(canvas_len)]
    prev = torch.from_numpy(first / np.float32(0.8))[None]  # [1, canvas, vocab], temperature 0.8

    print(f"llama.cpp against the PyTorch reference: prompt {P} tokens, canvas {canvas_len}, "
          f"vocab {vocab}")
    print("exact reference:")
    exact_first, exact_sc = run(model, prompt, canvas, prev)
    compare("unconditioned pass", first, exact_first)
    compare("self-conditioned pass", sc, exact_sc)
    del exact_first, exact_sc

    print("reference with ggml-cpu's fp16 GELU table and fp16 self-conditioning embedding:")
    ref.gelu_tanh = ggml_gelu(ref.gelu_tanh)
    model.decoder_input = types.MethodType(ggml_decoder_input, model)
    g_first, g_sc = run(model, prompt, canvas, prev)
    ok = True
    for name, ours, want in (("unconditioned pass", first, g_first),
                             ("self-conditioned pass", sc, g_sc)):
        med, agree = compare(name, ours, want)
        ok = ok and med <= args.max_rel and agree >= args.min_agree
    print(f"  smallest router margin seen by the reference: {model.router_margin:.2g}")
    print("agreement: " + ("yes" if ok else "NO") +
          f" (against the ggml-rounding reference: argmax >= {args.min_agree * 100:.0f}% and "
          f"median relative difference <= {args.max_rel:g} in both passes)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
