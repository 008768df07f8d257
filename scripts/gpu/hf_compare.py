#!/usr/bin/env python3
"""The transformers side of scripts/gpu-check.sh (runs on the GPU machine, no network).

parity: loads the tiny model folder with transformers' DiffusionGemmaForBlockDiffusion (bf16, on
        the GPU), runs the same slot read as bench-cuda_decide --dump-slots (prompt encoded
        causally, canvas rows decoded bidirectionally over it, no self-conditioning) and compares
        the slot log-probabilities and winners.
bench:  random-initialised DiffusionGemmaForBlockDiffusion in bf16 on the GPU from the real
        config, eager attention; times the same decision and one generation step as our bench.

transformers' call signature for the encoder/decoder split is discovered at run time (the
forward's parameters are printed); when no known form can be called, the script says so and
exits with status 3, so the check reports "not established" rather than a made-up number.
"""

import argparse
import inspect
import json
import sys
import time


def load_transformers():
    import torch
    import transformers
    cls = getattr(transformers, "DiffusionGemmaForBlockDiffusion", None)
    cfg_cls = getattr(transformers, "DiffusionGemmaConfig", None)
    if cls is None or cfg_cls is None:
        print("transformers %s has no DiffusionGemmaForBlockDiffusion" % transformers.__version__)
        sys.exit(3)
    return torch, transformers, cls, cfg_cls


def make_cache(model):
    try:
        from transformers import DynamicCache
    except ImportError:
        return None
    for build in (lambda: DynamicCache(config=model.config), lambda: DynamicCache()):
        try:
            return build()
        except Exception:
            continue
    return None


def canvas_logits(torch, model, prompt, rows):
    """Soft-capped decoder logits [rows, width, vocab] for canvases over one encoded prompt."""
    params = inspect.signature(model.forward).parameters
    dev = next(model.parameters()).device
    p = torch.tensor([prompt], device=dev)
    c = torch.tensor(rows, device=dev)
    attempts = []
    # Known spellings of "prompt ids + canvas ids" in block-diffusion forwards.
    for prompt_kw, canvas_kw in (("input_ids", "canvas_ids"), ("input_ids", "decoder_input_ids"),
                                 ("prompt_ids", "canvas_ids"), ("input_ids", "x_t")):
        if prompt_kw in params and canvas_kw in params:
            attempts.append((prompt_kw, canvas_kw))
    if not attempts:
        print("transformers forward parameters: %s" % list(params))
        print("no known (prompt, canvas) argument pair; parity not established")
        sys.exit(3)
    last_error = None
    for prompt_kw, canvas_kw in attempts:
        try:
            kwargs = {prompt_kw: p.expand(c.shape[0], -1), canvas_kw: c}
            # Inference path: the encoder fills a KV cache that the decoder reads (without one,
            # transformers takes its training path).
            cache = make_cache(model)
            if cache is not None and "past_key_values" in params:
                kwargs["past_key_values"] = cache
            with torch.no_grad():
                out = model(**kwargs)
            logits = out.logits if hasattr(out, "logits") else out[0]
            return logits[:, -c.shape[1]:, :].float()
        except Exception as e:  # report and try the next spelling
            last_error = e
    print("transformers forward failed: %r (parameters %s)" % (last_error, list(params)))
    sys.exit(3)


def parity(args):
    torch, _, cls, _ = load_transformers()
    ours = json.load(open(args.ours))
    req, res = ours["request"], ours["result"]
    model = cls.from_pretrained(args.model, torch_dtype=torch.bfloat16,
                                attn_implementation="eager").cuda().eval()
    logits = canvas_logits(torch, model, req["prompt"], req["rows"])
    logp = torch.log_softmax(logits, dim=-1)
    worst, same, total = 0.0, 0, 0
    for r, row in enumerate(res["rows"]):
        for s, slot in enumerate(row):
            labels = req["labels"][s]
            ref = [float(logp[r, slot["pos"], i]) for i in labels]
            mine = slot["logprobs"]
            worst = max(worst, max(abs(a - b) for a, b in zip(ref, mine)))
            same += int(max(range(len(ref)), key=ref.__getitem__) ==
                        max(range(len(mine)), key=mine.__getitem__))
            total += 1
    ok = worst < 2e-2 and same == total
    json.dump({"worst": worst, "same_winner": same, "slots": total}, open(args.json, "w"))
    print("%s: worst slot log-prob difference %.4g, same winner %d/%d"
          % ("ok" if ok else "MISMATCH", worst, same, total))
    return 0 if ok else 1


def bench(args):
    torch, _, cls, cfg_cls = load_transformers()
    cfg = cfg_cls.from_dict(json.load(open(args.config)))
    torch.manual_seed(0)
    t0 = time.time()
    with torch.device("cuda"):
        model = cls._from_config(cfg, torch_dtype=torch.bfloat16,
                                 attn_implementation="eager").eval()
    print("random init on the GPU: %.1f s" % (time.time() - t0))
    vocab = cfg.text_config.vocab_size if hasattr(cfg, "text_config") else cfg.vocab_size
    g = torch.Generator().manual_seed(1)
    prompt = torch.randint(0, vocab, (512,), generator=g).tolist()
    rows = torch.randint(0, vocab, (4, 32), generator=g).tolist()
    gen_rows = torch.randint(0, vocab, (1, 256), generator=g).tolist()

    def timed(fn, repeats=3):
        fn()
        torch.cuda.synchronize()
        best = []
        for _ in range(repeats):
            t = time.time()
            fn()
            torch.cuda.synchronize()
            best.append((time.time() - t) * 1e3)
        return sorted(best)[len(best) // 2]

    decision = timed(lambda: canvas_logits(torch, model, prompt, rows))
    step = timed(lambda: canvas_logits(torch, model, prompt, gen_rows))
    ours = json.load(open(args.ours)) if args.ours else {}
    line = "transformers eager: decision %.1f ms, generation step %.1f ms" % (decision, step)
    if ours:
        line += "; ours %.1f ms (%.1fx faster), step %.1f ms (%.1fx faster)" % (
            ours["decision_ms"], decision / ours["decision_ms"], ours["gen_step_ms"],
            step / ours["gen_step_ms"])
    print("note: the transformers timings re-encode the prompt in every call")
    print(line)
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("parity")
    p.add_argument("--model", required=True)
    p.add_argument("--ours", required=True)
    p.add_argument("--json", required=True)
    b = sub.add_parser("bench")
    b.add_argument("--config", required=True)
    b.add_argument("--ours")
    args = ap.parse_args()
    return parity(args) if args.mode == "parity" else bench(args)


if __name__ == "__main__":
    sys.exit(main())
