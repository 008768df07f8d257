#!/usr/bin/env python3
"""to_gguf.py: a DiffusionGemma checkpoint folder (config.json, generation_config.json,
model.safetensors, tokenizer.json, as `dgem make-tiny-model` writes them) to an f32 GGUF that
llama.cpp's diffusion-gemma loader reads.

    to_gguf.py --llama-cpp DIR MODEL_DIR OUT.gguf

bench/llama_cpp.sh uses it when llama.cpp's own convert_hf_to_gguf.py cannot run (it imports the
`transformers` package at start-up and builds the Gemma 4 vocabulary with AutoTokenizer; Debian
does not package `transformers`). Only numpy and llama.cpp's in-tree gguf-py (DIR/gguf-py) are
needed. The GGUF has the same metadata keys, tensor names, shapes and f32 values that llama.cpp's
converter writes for this architecture (its DiffusionGemma / Gemma4 / Gemma3 / text-model chain):

  * hyper-parameters: block count, context, widths, head counts (per-layer KV heads), key/value
    lengths for full and sliding layers, RoPE bases and dimensions, sliding window and per-layer
    pattern, experts, final-logit soft-cap, non-causal attention, diffusion.canvas_length and the
    entropy-bound sampler defaults of generation_config.json;
  * tensors: the decoder backbone (model.decoder.* mapped by gguf-py's tensor map), the encoder's
    per-layer scalars (enc_layer_output_scale), the self-conditioning MLP, the router scale
    (ffn_gate_inp.scale), router.per_expert_scale (ffn_down_exps.scale), the fused experts, and the
    full-attention layers' rope_freqs for partial "proportional" RoPE (1 for the rotated pairs, 1e30
    for the rest); vision tensors are dropped; every tensor is stored as F32;
  * tokenizer: model "gemma4" (BPE), tokens in id order, score -1000, types BYTE for <0xNN>,
    CONTROL for tokenizer.json's special added tokens, USER_DEFINED for Gemma 4's visible tool and
    channel markers, NORMAL otherwise; merges and special ids through gguf-py's SpecialVocab.
    (llama.cpp's converter takes CONTROL from transformers' all_special_ids; the timing does not
    depend on token types.)

Weights in the safetensors file may be F32 or BF16 (BF16 widened exactly); quantised checkpoints
(FP8, NVFP4) are refused.
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import sys
from pathlib import Path

import numpy as np


def fail(message: str) -> None:
    print(f"to_gguf.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_json(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        fail(f"{path}: not found")
    except json.JSONDecodeError as e:
        fail(f"{path}: not valid JSON ({e})")
    return {}


class SafeTensors:
    """model.safetensors read with numpy: 8-byte little-endian header length, a JSON header of
    {name: {dtype, shape, data_offsets}}, then the data (offsets relative to its start)."""

    def __init__(self, path: Path):
        self.path = path
        try:
            with open(path, "rb") as f:
                head = f.read(8)
                if len(head) != 8:
                    fail(f"{path}: too short for a safetensors file")
                (n,) = struct.unpack("<Q", head)
                if n > 100 * 1024 * 1024:
                    fail(f"{path}: header length {n} is implausible (not a safetensors file?)")
                header = json.loads(f.read(n))
        except FileNotFoundError:
            fail(f"{path}: not found")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            fail(f"{path}: header is not valid JSON ({e})")
        header.pop("__metadata__", None)
        self.entries = header
        self.data_start = 8 + n
        self.raw = np.memmap(path, dtype=np.uint8, mode="r")

    def names(self) -> list[str]:
        return sorted(self.entries)

    def get(self, name: str) -> np.ndarray:
        e = self.entries[name]
        begin, end = e["data_offsets"]
        shape = tuple(int(d) for d in e["shape"])
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        buf = self.raw[self.data_start + begin:self.data_start + end]
        dtype = e["dtype"]
        if dtype == "F32":
            if len(buf) != 4 * count:
                fail(f"{self.path}: {name}: {len(buf)} bytes for {count} F32 values")
            return np.frombuffer(buf, dtype="<f4").reshape(shape).astype(np.float32)
        if dtype == "BF16":
            if len(buf) != 2 * count:
                fail(f"{self.path}: {name}: {len(buf)} bytes for {count} BF16 values")
            bits = np.frombuffer(buf, dtype="<u2").astype(np.uint32) << 16
            return bits.view(np.float32).reshape(shape)
        fail(f"{self.path}: {name} is {dtype}; only F32 and BF16 checkpoints are supported "
             "(write one with `dgem make-tiny-model --dtype f32`)")
        return np.empty(0)


def load_gguf_py(llama_dir: Path):
    gguf_py = llama_dir / "gguf-py"
    if not (gguf_py / "gguf" / "__init__.py").is_file():
        fail(f"{llama_dir}: no gguf-py/gguf (not a llama.cpp source folder?)")
    sys.path.insert(0, str(gguf_py))
    import gguf  # noqa: E402  (llama.cpp's own package, from the folder given)

    if not hasattr(gguf.MODEL_ARCH, "DIFFUSION_GEMMA"):
        fail(f"{llama_dir}: its gguf-py has no DIFFUSION_GEMMA architecture")
    return gguf


def write_hparams(w, gguf, cfg: dict, text: dict, gen: dict | None) -> None:
    def need(key: str):
        if key not in text:
            fail(f"config.json: text_config has no {key}")
        return text[key]

    n_layer = int(need("num_hidden_layers"))
    layer_types = need("layer_types")
    if len(layer_types) != n_layer:
        fail(f"config.json: {len(layer_types)} layer_types for {n_layer} layers")
    swa = [t == "sliding_attention" for t in layer_types]
    rope = need("rope_parameters")
    full_rope = rope.get("full_attention", {})
    swa_rope = rope.get("sliding_attention", {})
    head_dim, global_head_dim = int(need("head_dim")), int(need("global_head_dim"))
    kv_swa = int(need("num_key_value_heads"))
    kv_full = int(text.get("num_global_key_value_heads", kv_swa))

    w.add_block_count(n_layer)
    w.add_context_length(int(text.get("max_position_embeddings", 131072)))
    w.add_embedding_length(int(need("hidden_size")))
    w.add_feed_forward_length(int(need("intermediate_size")))
    w.add_head_count(int(need("num_attention_heads")))
    w.add_head_count_kv([kv_swa if s else kv_full for s in swa])
    w.add_layer_norm_rms_eps(float(text.get("rms_norm_eps", 1e-6)))
    w.add_rope_freq_base(float(full_rope.get("rope_theta", 1_000_000.0)))
    if "rope_theta" in swa_rope:
        w.add_rope_freq_base_swa(float(swa_rope["rope_theta"]))
    n_expert = text.get("num_local_experts", text.get("num_experts"))
    if n_expert is not None:
        w.add_expert_count(int(n_expert))
    n_used = text.get("num_experts_per_tok", text.get("top_k_experts"))
    if n_used is not None:
        w.add_expert_used_count(int(n_used))
    expert_ff = text.get("expert_intermediate_size", text.get("moe_intermediate_size"))
    if expert_ff is not None:
        w.add_expert_feed_forward_length(int(expert_ff))
    if text.get("final_logit_softcapping"):
        w.add_final_logit_softcapping(float(text["final_logit_softcapping"]))
    w.add_sliding_window(int(need("sliding_window")))
    w.add_sliding_window_pattern(swa)
    w.add_shared_kv_layers(int(text.get("num_kv_shared_layers", 0)))
    w.add_embedding_length_per_layer_input(int(text.get("hidden_size_per_layer_input") or 0))
    # Full layers: global_head_dim keys and values; sliding layers: head_dim.
    w.add_key_length(global_head_dim)
    w.add_value_length(global_head_dim)
    w.add_key_length_swa(head_dim)
    w.add_value_length_swa(head_dim)
    # Full layers rotate all of global_head_dim in ggml (rope_freqs leaves the tail unrotated).
    w.add_rope_dimension_count(global_head_dim)
    w.add_rope_dimension_count_swa(int(head_dim * float(text.get("partial_rotary_factor", 1.0))))
    w.add_causal_attention(False)

    canvas = cfg.get("canvas_length", text.get("canvas_length"))
    if canvas is None or int(canvas) <= 0:
        fail("config.json: DiffusionGemma needs a positive root canvas_length")
    w.add_diffusion_canvas_length(int(canvas))
    if gen:
        sampler = gen.get("sampler_config", {})
        if "max_denoising_steps" in gen:
            w.add_diffusion_eb_max_steps(int(gen["max_denoising_steps"]))
        if "t_min" in gen:
            w.add_diffusion_eb_t_min(float(gen["t_min"]))
        if "t_max" in gen:
            w.add_diffusion_eb_t_max(float(gen["t_max"]))
        if "entropy_bound" in sampler:
            w.add_diffusion_eb_entropy_bound(float(sampler["entropy_bound"]))
        if "stability_threshold" in gen:
            w.add_diffusion_eb_stability_threshold(int(gen["stability_threshold"]))
        if "confidence_threshold" in gen:
            w.add_diffusion_eb_confidence_threshold(float(gen["confidence_threshold"]))
    w.add_file_type(gguf.LlamaFileType.ALL_F32)


VISIBLE_TOKENS = {"<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>", "<|tool_response>",
                  "<tool_response|>", "<|\"|>"}


def write_vocab(w, gguf, model_dir: Path) -> int:
    tok = read_json(model_dir / "tokenizer.json")
    model = tok.get("model", {})
    if model.get("type") != "BPE" or not isinstance(model.get("vocab"), dict):
        fail(f"{model_dir / 'tokenizer.json'}: expected a BPE tokenizer with a vocab table")
    by_id: dict[int, str] = {int(i): t for t, i in model["vocab"].items()}
    n_base = len(by_id)
    if sorted(by_id) != list(range(n_base)):
        fail(f"{model_dir / 'tokenizer.json'}: vocabulary ids are not 0..{n_base - 1}")
    special_ids = set()
    for added in tok.get("added_tokens", []):
        tid = int(added["id"])
        if tid >= n_base:
            by_id[tid] = added["content"]
        if added.get("special"):
            special_ids.add(tid)
    n_vocab = len(by_id)
    if sorted(by_id) != list(range(n_vocab)):
        fail(f"{model_dir / 'tokenizer.json'}: added token ids leave gaps after the vocabulary")

    byte_token = re.compile(r"<0x[0-9A-Fa-f]{2}>")
    tokens, scores, types = [], [], []
    for i in range(n_vocab):
        text = by_id[i]
        tokens.append(text.encode("utf-8"))
        scores.append(-1000.0)
        if text in VISIBLE_TOKENS:
            types.append(gguf.TokenType.USER_DEFINED)
        elif i < n_base and byte_token.fullmatch(text):
            types.append(gguf.TokenType.BYTE)
        elif i in special_ids:
            types.append(gguf.TokenType.CONTROL)
        elif i >= n_base:
            types.append(gguf.TokenType.USER_DEFINED)
        else:
            types.append(gguf.TokenType.NORMAL)

    w.add_tokenizer_model("gemma4")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    gguf.SpecialVocab(model_dir, load_merges=True).add_to_gguf(w, quiet=True)
    w.add_add_space_prefix(False)
    w.add_add_bos_token(True)
    return n_vocab


def write_tensors(w, gguf, st: SafeTensors, text: dict) -> int:
    arch = gguf.MODEL_ARCH.DIFFUSION_GEMMA
    n_layer = int(text["num_hidden_layers"])
    tmap = gguf.get_tensor_name_map(arch, n_layer)
    T = gguf.MODEL_TENSOR

    def named(key, bid: int | None = None, suffix: str = ".weight") -> str:
        name = gguf.TENSOR_NAMES[key]
        return (name.format(bid=bid) if "{bid}" in name else name) + suffix

    sc_map = {"pre_norm.weight": T.SC_PRE_NORM, "gate_proj.weight": T.SC_GATE,
              "up_proj.weight": T.SC_UP, "down_proj.weight": T.SC_DOWN}
    out: dict[str, np.ndarray] = {}

    def put(name: str, value: np.ndarray, source: str) -> None:
        if name in out:
            fail(f"{source}: a second tensor for {name}")
        out[name] = np.ascontiguousarray(value, dtype=np.float32)

    for src in st.names():
        name = src.replace("language_model.", "")  # model.encoder.language_model.layers.N.*
        if "vision" in name:
            continue
        m = re.match(r"model\.(encoder|decoder)\.layers\.(\d+)\.(.+)$", name)
        bid = int(m.group(2)) if m else None
        if name.startswith("model.encoder."):
            if m and m.group(3) == "layer_scalar":
                put(named(T.ENC_LAYER_OUT_SCALE, bid), st.get(src), src)
            continue  # the encoder shares the decoder's other weights
        if not name.startswith("model.decoder."):
            fail(f"model.safetensors: unexpected tensor {src}")
        rest = name[len("model.decoder."):]
        if rest.startswith("self_conditioning."):
            key = sc_map.get(rest[len("self_conditioning."):])
            if key is None:
                fail(f"model.safetensors: unknown self-conditioning tensor {src}")
            put(named(key), st.get(src), src)
            continue
        if m and m.group(3) == "router.scale":
            put(named(T.FFN_GATE_INP, bid, ".scale"), st.get(src), src)
            continue
        if m and m.group(3) == "router.per_expert_scale":
            put(named(T.FFN_DOWN_EXP, bid, ".scale"), st.get(src), src)
            continue
        hf = "model." + rest
        if m and (m.group(3) == "layer_scalar" or m.group(3).startswith("experts.")) \
                and not hf.endswith(".weight"):
            hf += ".weight"
        gg = tmap.get_name(key=hf, try_suffixes=(".weight", ".bias"))
        if gg is None:
            fail(f"model.safetensors: no GGUF name for {src}")
        put(gg, st.get(src), src)

    # Partial "proportional" RoPE of the full layers: rotate the first
    # global_head_dim * partial_rotary_factor / 2 pairs, leave the rest (frequency factor 1e30).
    full_rope = text["rope_parameters"]["full_attention"]
    if full_rope.get("rope_type") != "proportional":
        fail("config.json: full_attention rope_type must be 'proportional'")
    half = int(text["global_head_dim"]) // 2
    n_rot = int(int(text["global_head_dim"]) * float(full_rope["partial_rotary_factor"]) / 2)
    put(named(T.ROPE_FREQS), np.array([1.0] * n_rot + [1e30] * (half - n_rot), dtype=np.float32),
        "rope_freqs")

    for name, value in out.items():
        w.add_tensor(name, value)
    return len(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--llama-cpp", required=True, type=Path,
                    help="llama.cpp source folder (its gguf-py is used)")
    ap.add_argument("model_dir", type=Path, help="DiffusionGemma checkpoint folder")
    ap.add_argument("out", type=Path, help="GGUF file to write")
    args = ap.parse_args()

    gguf = load_gguf_py(args.llama_cpp)
    cfg = read_json(args.model_dir / "config.json")
    archs = cfg.get("architectures") or []
    if not any(a in ("DiffusionGemmaForBlockDiffusion", "DiffusionGemma4ModelForBlockDiffusion")
               for a in archs):
        fail(f"{args.model_dir / 'config.json'}: architectures {archs} is not DiffusionGemma")
    text = cfg.get("text_config") or fail("config.json: no text_config")
    gen_path = args.model_dir / "generation_config.json"
    gen = read_json(gen_path) if gen_path.is_file() else None
    st = SafeTensors(args.model_dir / "model.safetensors")

    arch_name = gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.DIFFUSION_GEMMA]
    w = gguf.GGUFWriter(str(args.out), arch_name)
    w.add_name(cfg.get("_name_or_path") or args.model_dir.name)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    write_hparams(w, gguf, cfg, text, gen)
    n_vocab = write_vocab(w, gguf, args.model_dir)
    if int(text.get("vocab_size", n_vocab)) != n_vocab:
        fail(f"tokenizer.json has {n_vocab} tokens but config.json says vocab_size "
             f"{text['vocab_size']}")
    n_tensors = write_tensors(w, gguf, st, text)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"to_gguf.py: wrote {args.out} ({n_tensors} tensors, {n_vocab} tokens, F32)")


if __name__ == "__main__":
    main()
