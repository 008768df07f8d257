#!/usr/bin/python3
"""Proves that the trainer computes the forward pass the engine runs: a DemoModel is exported as a
checkpoint, read back by the independent reference (tests/reference/diffusion_gemma_ref.py, which
the C++ engine matches to 1e-6), and both compute the same examples of a corpus: the slot-read
canvas (first step) and a self-conditioned generative step, compared over the full vocabulary.

    check_forward.py --corpus DIR [--hidden N] [--tolerance T]      exit 0 when they agree
"""

import argparse
import json
import os
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402
import diffusion_gemma_ref  # noqa: E402
from diffusion_gemma_ref import Model as Reference  # noqa: E402
from model import FULL_VOCAB, DemoModel, demo_config  # noqa: E402


class _PromotedSoftmax:
    """The reference takes the softmax of previous logits in float32 (as transformers does); over
    262144 entries that sum is good to about 1e-3 relative, which a random model amplifies. With
    --float64 it runs in float64 like everything else, so that only a real difference remains."""

    def __getattr__(self, name):
        return getattr(torch, name)

    @staticmethod
    def softmax(x, dim):
        return torch.softmax(x.to(torch.float64), dim=dim)


def full_logits(model, z_used):
    """Scatter used-id logits into the 262144-wide row (unused ids have logit exactly 0)."""
    out = torch.zeros(*z_used.shape[:-1], FULL_VOCAB)
    out[..., model.used_ids] = z_used
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--tolerance", type=float, default=1e-3)
    ap.add_argument("--float64", action="store_true", help="both sides in float64: only a real difference remains")
    ap.add_argument("--all-experts", action="store_true",
                    help="route every token to every expert (no top-k choice that a rounding can flip)")
    args = ap.parse_args()
    torch.set_grad_enabled(False)
    if args.float64:
        torch.set_default_dtype(torch.float64)
        diffusion_gemma_ref.torch = _PromotedSoftmax()
    with open(os.path.join(args.corpus, "vocab.json")) as f:
        used = json.load(f)["used_ids"]
    corpus = train.Corpus(os.path.join(args.corpus, "train.npz"))
    config = demo_config(args.hidden, 6, window=16)
    if args.all_experts:
        config["text_config"]["top_k_experts"] = config["text_config"]["num_experts"]
    model = DemoModel(config, used, torch.Generator().manual_seed(3))
    # Non-trivial self-conditioning and norm weights, so that every path is exercised.
    for name, p in model.p.items():
        if name == "sc_down" or "norm" in name or "scalar" in name or "scale" in name:
            p.add_(torch.randn(p.shape, generator=torch.Generator().manual_seed(len(name))) * (0.05 if name == "sc_down" else 0.3))
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        train.write_safetensors(model.checkpoint_tensors(), os.path.join(folder, "model.safetensors"))
        train.write_json(config, os.path.join(folder, "config.json"))
        ref = Reference(folder, torch.float64 if args.float64 else torch.float32)
        # The trainer keeps f32 weights; the checkpoint holds them in bf16: compare against the
        # trainer's weights rounded the same way.
        for p in model.parameters():
            p.copy_(p.to(torch.bfloat16).to(torch.float32))
        if args.float64:
            model.double()
            model.inv_freq = [f.double() for f in model.inv_freq]
        picks = [corpus.buckets[k][0] for k in corpus.bucket_keys]
        for i in picks:
            prompt = corpus.prompt(i).tolist()
            canvas = corpus.canvas(i).tolist()
            noise = torch.Generator().manual_seed(i)
            canvas_noised = [t if j % 3 else int(torch.randint(0, FULL_VOCAB, (1,), generator=noise)) for j, t in enumerate(canvas)]
            lengths = torch.as_tensor([len(prompt)])
            # Pad the prompt in the trainer's batch to test the padding masks too.
            padded = torch.as_tensor([prompt + [0] * 7])
            cache = model.encode(model.lookup[padded], lengths)
            x = model.lookup[torch.as_tensor([[canvas_noised]])]
            z = model.used_logits(model.decode(x, cache, lengths))
            ref_cache = ref.encode(prompt)
            ref_z = ref.logits(ref.decode_hidden([canvas_noised], ref_cache))
            d1 = float((full_logits(model, z[0, 0]) - ref_z[0]).abs().max())
            temperature = torch.as_tensor([0.6])
            z2 = model.used_logits(model.decode(x, cache, lengths, z, temperature))
            prev = full_logits(model, z[0]) / 0.6
            ref_z2 = ref.logits(ref.decode_hidden([canvas_noised], ref_cache, prev))
            d2 = float((full_logits(model, z2[0, 0]) - ref_z2[0]).abs().max())
            worst = max(worst, d1, d2)
            print(f"example {i} (kind {corpus.kind[i]}, prompt {len(prompt)}, width {len(canvas)}): "
                  f"first step {d1:.2e}, self-conditioned {d2:.2e}")
    ok = worst <= args.tolerance
    print(f"worst logit difference {worst:.2e} ({'within' if ok else 'OVER'} {args.tolerance:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
