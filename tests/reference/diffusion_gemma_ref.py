#!/usr/bin/python3
"""Independent PyTorch reference of the DiffusionGemma forward pass (text only).

Written from the Hugging Face transformers source (models/diffusion_gemma: modeling, configuration,
generation; masking_utils; cache_utils; modeling_rope_utils) for checking the C++ engine. It reads a
Hugging Face model folder directly (its own safetensors parser: no safetensors package needed) and
computes everything in float32 (or float64 with --dtype float64), on the CPU, with Debian's
python3-torch 1.13 and numpy.

What it computes, following transformers' DiffusionGemmaForBlockDiffusion:
  * the causal encoder over the prompt: per layer K (after k_norm and RoPE) and V (after the
    weightless v norm), each [P, kv_heads, head_dim];
  * the bidirectional decoder over canvas rows reading that cache: sliding layers see the cache's
    last (sliding_window - 1) tokens (DynamicSlidingWindowLayer keeps that many) plus the whole
    canvas, full layers see the whole prompt plus the whole canvas; no mask inside the canvas
    (create_diffusion_decoder_attention_mask returns no mask when nothing is padded);
  * soft-capped logits [rows, W, vocab], slot log-probabilities (log_softmax over the whole
    vocabulary), and a self-conditioned step from given (temperature-scaled) previous logits.

Embedding scale: transformers multiplies by sqrt(hidden) cast to the weight dtype. This reference
computes in float32, so by default it uses sqrt(hidden) rounded to the dtype the embedding is STORED
in (bf16 checkpoints: 53.0 for 2816; f32 checkpoints: the float32 sqrt), which is what transformers
computes when it loads the checkpoint in its own dtype. --embed-scale=exact uses the float32 sqrt.

Usage:
  diffusion_gemma_ref.py --model DIR --input in.json --output out.npz|OUTDIR [--dtype float32]
  diffusion_gemma_ref.py --model DIR --input in.json --bench [--threads N] [--repeat K]
  diffusion_gemma_ref.py --model DIR --input in.json --bench-generation [--threads N] [--repeat K]

--bench times the decision shape (encoder, decoder over every row, slot readout); --bench-generation
times one generation pass: the decoder over the canvas rows with self-conditioning from
previous_logits (required) plus the full soft-capped logits, the prompt encoded once, untimed.

in.json: {"prompt_ids": [...], "canvases": [[...], ...],
          "slots": [[{"pos": p, "label_ids": [...]}, ...] per row]            (optional)
          "previous_logits": "file.npy" or raw little-endian f32 [rows, W, vocab] (optional)
          "full_logits": true|false (default true),
          "images": [{"width": w, "height": h, "rgb": "file.rgb"}, ...]   (optional)}
Images: decoded 8-bit RGB, row-major, one raw file each. The reference takes them already at the
size the processor would resize them to (it checks that, and does no resampling): it rescales by
1/255, cuts patches, runs the Gemma 4 vision tower and the embed_vision projector, and puts each
image's soft tokens at the prompt's image-token run of the same index.
Relative file names in in.json are resolved against the folder of in.json.
An output path ending in .npz gets one npz; any other path is a folder that receives one raw
little-endian float32 file per array plus manifest.json ({name: {"file", "shape"}}), easy to read
from C++. Arrays: enc_k_L, enc_v_L (per layer), logits [R,W,V], slot_logprobs (all label
log-probabilities of all slots, row-major by row, slot, label), slot_argmax (float ids),
sc_logits [R,W,V] (only with previous_logits), router_margin (smallest top-k vs next router
probability gap seen, a near-tie warning).

Environment: DGEM_REF_PERTURB=1 flips the sign of the self-attention output of the decoder's first
layer; it exists only to prove that the comparison test fails on a real mismatch.
"""

import argparse
import json
import math
import os
import resource
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

# ----------------------------------------------------------------------------------------------
# safetensors


def _bf16_to_f32(raw):
    # bf16 is the top half of an IEEE float32: widen the 16 bits into the high half of 32.
    u16 = np.frombuffer(raw, dtype="<u2")
    return (u16.astype(np.uint32) << 16).view(np.float32)


_DECODERS = {
    "BF16": _bf16_to_f32,
    "F16": lambda raw: np.frombuffer(raw, dtype="<f2").astype(np.float32),
    "F32": lambda raw: np.frombuffer(raw, dtype="<f4").astype(np.float32),
    "F64": lambda raw: np.frombuffer(raw, dtype="<f8").astype(np.float32),
}


def read_safetensors(path, wanted=None):
    """Returns {name: (np.float32 array, stored dtype string)} for one .safetensors file."""
    out = {}
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) != 8:
            raise ValueError(f"{path}: shorter than the 8-byte safetensors header length")
        (header_len,) = struct.unpack("<Q", head)
        header = json.loads(f.read(header_len).decode("utf-8"))
        data_start = 8 + header_len
        for name, info in header.items():
            if name == "__metadata__" or (wanted is not None and name not in wanted):
                continue
            dtype = info["dtype"]
            if dtype not in _DECODERS:
                raise ValueError(f"{path}: tensor {name} has dtype {dtype}; accepted: BF16, F16, F32, F64")
            begin, end = info["data_offsets"]
            f.seek(data_start + begin)
            raw = f.read(end - begin)
            arr = _DECODERS[dtype](raw).reshape(info["shape"])
            out[name] = (arr, dtype)
    return out


def read_model_tensors(model_dir):
    index = os.path.join(model_dir, "model.safetensors.index.json")
    tensors = {}
    if os.path.exists(index):
        with open(index) as f:
            weight_map = json.load(f)["weight_map"]
        by_file = {}
        for name, file in weight_map.items():
            by_file.setdefault(file, set()).add(name)
        for file, names in sorted(by_file.items()):
            tensors.update(read_safetensors(os.path.join(model_dir, file), names))
    else:
        single = os.path.join(model_dir, "model.safetensors")
        if not os.path.exists(single):
            raise FileNotFoundError(f"{model_dir}: neither model.safetensors nor model.safetensors.index.json")
        tensors = read_safetensors(single)
    return tensors


# ----------------------------------------------------------------------------------------------
# configuration


class TextConfig:
    def __init__(self, config_json):
        t = config_json.get("text_config", config_json)
        self.vocab_size = int(t["vocab_size"])
        self.hidden_size = int(t["hidden_size"])
        self.num_layers = int(t["num_hidden_layers"])
        self.num_heads = int(t["num_attention_heads"])
        self.num_kv_heads = int(t["num_key_value_heads"])
        self.head_dim = int(t.get("head_dim", 256))
        self.global_head_dim = int(t.get("global_head_dim") or 512)
        # Full layers share K and V (attention_k_eq_v); their kv head count is the global one.
        self.k_eq_v = bool(t.get("attention_k_eq_v", True))
        ngkv = t.get("num_global_key_value_heads")
        self.num_global_kv_heads = int(ngkv) if (ngkv is not None and self.k_eq_v) else self.num_kv_heads
        self.intermediate_size = int(t["intermediate_size"])
        self.num_experts = int(t["num_experts"])
        self.top_k = int(t["top_k_experts"])
        self.moe_intermediate_size = int(t["moe_intermediate_size"])
        self.eps = float(t.get("rms_norm_eps", 1e-6))
        self.sliding_window = int(t.get("sliding_window", 512))
        # The class default is 30.0 (a class attribute, so a config value, if any, overrides it).
        self.softcap = t.get("final_logit_softcapping", 30.0)
        act = t.get("hidden_activation", "gelu_pytorch_tanh")
        if act not in ("gelu_pytorch_tanh", "gelu_new", "gelu_fast"):
            raise ValueError(f"config.json: hidden_activation {act!r}; accepted: gelu_pytorch_tanh")
        if t.get("use_bidirectional_attention") == "all":
            raise ValueError("config.json: use_bidirectional_attention 'all' is not a text DiffusionGemma")
        layer_types = t.get("layer_types")
        if layer_types is None:
            layer_types = ["sliding_attention" if (i + 1) % 6 else "full_attention" for i in range(self.num_layers)]
        layer_types = list(layer_types)
        layer_types[-1] = "full_attention"  # transformers forces the last layer to full attention
        self.layer_types = layer_types
        rope = t.get("rope_parameters") or {}
        self.rope_sliding = rope.get("sliding_attention", {"rope_type": "default", "rope_theta": 10_000.0})
        self.rope_full = rope.get(
            "full_attention", {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1_000_000.0}
        )

    def is_sliding(self, layer):
        return self.layer_types[layer] == "sliding_attention"

    def layer_head_dim(self, layer):
        return self.head_dim if self.is_sliding(layer) else self.global_head_dim

    def layer_kv_heads(self, layer):
        return self.num_kv_heads if self.is_sliding(layer) else self.num_global_kv_heads


def inv_freq_for(params, head_dim, dtype):
    """RoPE inverse frequencies of one layer type (default, or proportional partial rotary)."""
    kind = params.get("rope_type", "default")
    base = float(params["rope_theta"])
    factor = float(params.get("factor", 1.0))
    if kind == "default":
        # transformers' default RoPE rotates all head_dim/2 pairs (partial_rotary_factor unused).
        exps = torch.arange(0, head_dim, 2, dtype=torch.int64).to(torch.float32) / head_dim
        return (1.0 / (base**exps)).to(dtype)
    if kind == "proportional":
        # The first int(p * head_dim // 2) pairs rotate with exponents over the WHOLE head_dim;
        # the remaining pairs get frequency 0 (cos 1, sin 0): they pass through unrotated.
        angles = int(float(params.get("partial_rotary_factor", 1.0)) * head_dim // 2)
        exps = torch.arange(0, 2 * angles, 2, dtype=torch.int64).to(torch.float32) / head_dim
        rotated = 1.0 / (base**exps)
        inv = torch.cat([rotated, torch.zeros(head_dim // 2 - angles, dtype=torch.float32)])
        return (inv / factor).to(dtype)
    raise ValueError(f"config.json: rope_type {kind!r}; accepted: default, proportional")


# ----------------------------------------------------------------------------------------------
# numerics


def rms_norm(x, weight, eps):
    """x * (mean(x^2) + eps)^-0.5 * weight (no Gemma-3 '1 +'); weight None = weightless norm."""
    y = x * torch.pow(x.pow(2).mean(-1, keepdim=True) + eps, -0.5)
    return y if weight is None else y * weight


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def rope(x, positions, inv_freq):
    """NeoX-style RoPE: dimension i pairs with i + d/2. x [T, heads, d], positions [T]."""
    freqs = positions.to(inv_freq.dtype)[:, None] * inv_freq[None, :]  # [T, d/2]
    emb = torch.cat([freqs, freqs], dim=-1)
    cos, sin = emb.cos()[:, None, :], emb.sin()[:, None, :]
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated * sin


def attention(q, k, v, mask):
    """q [R, T, H, d], k/v [R, S, KV, d], mask [T, S] bool (True = visible) or None. Scale 1.0.

    Query head j reads kv head j // (H / KV): contiguous groups, as transformers' repeat_kv."""
    groups = q.shape[2] // k.shape[2]
    k = k.repeat_interleave(groups, dim=2)
    v = v.repeat_interleave(groups, dim=2)
    scores = torch.einsum("rthd,rshd->rhts", q, k)  # scaling 1.0: q and k are RMS-normed per head
    if mask is not None:
        scores = scores.masked_fill(~mask[None, None, :, :], float("-inf"))
    probs = torch.softmax(scores, dim=-1)
    return torch.einsum("rhts,rshd->rthd", probs, v)


class Layer:
    pass


# ----------------------------------------------------------------------------------------------
# the vision tower (transformers models/gemma4/modeling_gemma4.py Gemma4VisionModel, the
# preprocessing of image_processing_gemma4.py without its resize, and DiffusionGemma's
# embed_vision), written from that source


class Vision:
    def __init__(self, vc, take, text_hidden, dtype):
        self.hidden = H = vc["hidden_size"]
        self.heads = vc["num_attention_heads"]
        self.kv_heads = vc.get("num_key_value_heads", self.heads)
        self.head_dim = hd = vc["head_dim"]
        self.patch = vc.get("patch_size", 16)
        self.k = vc.get("pooling_kernel_size", 3)
        self.eps = vc.get("rms_norm_eps", 1e-6)
        self.standardize = vc.get("standardize", False)
        self.max_soft_tokens = vc.get("default_output_length", 280)
        theta = (vc.get("rope_parameters") or {}).get("rope_theta", 100.0)
        spatial = hd // 2  # each spatial axis rotates half of the head
        self.inv_freq = (1.0 / (theta ** (torch.arange(0, spatial, 2, dtype=torch.float32) / spatial))).to(dtype)
        t = "model.encoder.vision_tower."
        P, I = self.patch, vc["intermediate_size"]
        self.input_proj = take(t + "patch_embedder.input_proj.weight", (H, 3 * P * P))
        self.pos_table = take(t + "patch_embedder.position_embedding_table")
        self.layers = []
        for i in range(vc["num_hidden_layers"]):
            L = Layer()
            q = f"{t}encoder.layers.{i}."
            for n in ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                      "post_feedforward_layernorm"):
                setattr(L, n, take(q + n + ".weight", (H,)))
            for n, shape in (("q_proj", (self.heads * hd, H)), ("k_proj", (self.kv_heads * hd, H)),
                             ("v_proj", (self.kv_heads * hd, H)), ("o_proj", (H, self.heads * hd))):
                setattr(L, n, take(f"{q}self_attn.{n}.linear.weight", shape))
            L.q_norm = take(q + "self_attn.q_norm.weight", (hd,))
            L.k_norm = take(q + "self_attn.k_norm.weight", (hd,))
            L.gate = take(q + "mlp.gate_proj.linear.weight", (I, H))
            L.up = take(q + "mlp.up_proj.linear.weight", (I, H))
            L.down = take(q + "mlp.down_proj.linear.weight", (H, I))
            self.layers.append(L)
        if self.standardize:
            self.std_bias = take(t + "std_bias", (H,))
            self.std_scale = take(t + "std_scale", (H,))
        self.projection = take("model.encoder.embed_vision.embedding_projection.weight", (text_hidden, H))

    def patches(self, rgb, width, height):
        """Rescaled patches [N, P*P*3] in (row, col, channel) order and (x, y) positions [N, 2]."""
        side = self.k * self.patch
        target_px = self.max_soft_tokens * self.k * self.k * self.patch * self.patch
        f = math.sqrt(target_px / (height * width))
        th, tw = int(math.floor(f * height / side)) * side, int(math.floor(f * width / side)) * side
        if (th, tw) != (height, width):
            raise ValueError(f"image {width}x{height}: the processor would resize it to {tw}x{th}; "
                             "the reference takes images at their processed size")
        img = torch.from_numpy(np.frombuffer(rgb, dtype=np.uint8).copy()).view(height, width, 3)
        img = img.to(torch.float32) * (1.0 / 255.0)
        P = self.patch
        gh, gw = height // P, width // P
        patches, pos = [], []
        for py in range(gh):
            for px in range(gw):
                patches.append(img[py * P:(py + 1) * P, px * P:(px + 1) * P, :].reshape(-1))
                pos.append((px, py))
        return torch.stack(patches), torch.tensor(pos, dtype=torch.long), gw, gh

    def rope2d(self, x, pos):
        half = x.shape[-1] // 2
        return torch.cat([rope(x[..., :half], pos[:, 0], self.inv_freq),
                          rope(x[..., half:], pos[:, 1], self.inv_freq)], dim=-1)

    def soft_tokens(self, rgb, width, height, dtype):
        pix, pos, gw, gh = self.patches(rgb, width, height)
        pix = pix.to(dtype)
        x = (2 * (pix - 0.5)) @ self.input_proj.T
        x = x + self.pos_table[0][pos[:, 0]] + self.pos_table[1][pos[:, 1]]
        N, hd = x.shape[0], self.head_dim
        for L in self.layers:
            h = rms_norm(x, L.input_layernorm, self.eps)
            q = rms_norm((h @ L.q_proj.T).view(N, self.heads, hd), L.q_norm, self.eps)
            k = rms_norm((h @ L.k_proj.T).view(N, self.kv_heads, hd), L.k_norm, self.eps)
            v = rms_norm((h @ L.v_proj.T).view(N, self.kv_heads, hd), None, self.eps)
            q, k = self.rope2d(q, pos), self.rope2d(k, pos)
            o = attention(q[None], k[None], v[None], None).reshape(N, -1) @ L.o_proj.T
            x = x + rms_norm(o, L.post_attention_layernorm, self.eps)
            h = rms_norm(x, L.pre_feedforward_layernorm, self.eps)
            m = (gelu_tanh(h @ L.gate.T) * (h @ L.up.T)) @ L.down.T
            x = x + rms_norm(m, L.post_feedforward_layernorm, self.eps)
        # Pooler: average k x k blocks (block = x//k + (gw//k) * (y//k)), times sqrt(hidden).
        k = self.k
        block = pos[:, 0] // k + (gw // k) * (pos[:, 1] // k)
        pooled = torch.zeros(gw // k * (gh // k), self.hidden, dtype=dtype)
        pooled.index_add_(0, block, x / (k * k))
        pooled = pooled * self.hidden**0.5
        if self.standardize:
            pooled = (pooled - self.std_bias) * self.std_scale
        return rms_norm(pooled, None, self.eps) @ self.projection.T


class Model:
    def __init__(self, model_dir, dtype=torch.float32, embed_scale_mode="stored"):
        with open(os.path.join(model_dir, "config.json")) as f:
            self.config_json = json.load(f)
        self.cfg = cfg = TextConfig(self.config_json)
        self.dtype = dtype
        raw = read_model_tensors(model_dir)
        self.stored_dtypes = {name: d for name, (_, d) in raw.items()}

        def take(name, shape=None, required=True):
            if name not in raw:
                if required:
                    raise KeyError(f"{model_dir}: tensor {name} is missing")
                return None
            arr = raw[name][0]
            if shape is not None and tuple(arr.shape) != tuple(shape):
                raise ValueError(f"{model_dir}: tensor {name} has shape {list(arr.shape)}, expected {list(shape)}")
            return torch.from_numpy(np.ascontiguousarray(arr)).to(dtype)

        H, V = cfg.hidden_size, cfg.vocab_size
        p = "model.decoder."
        self.embed = take(p + "embed_tokens.weight", (V, H))
        self.final_norm = take(p + "norm.weight", (H,))
        sc = p + "self_conditioning."
        self.sc_pre_norm = take(sc + "pre_norm.weight", (H,))
        self.sc_gate = take(sc + "gate_proj.weight", (cfg.intermediate_size, H))
        self.sc_up = take(sc + "up_proj.weight", (cfg.intermediate_size, H))
        self.sc_down = take(sc + "down_proj.weight", (H, cfg.intermediate_size))

        # sqrt(hidden) cast to the weight dtype, as the reference's ScaledWordEmbedding does.
        scale = torch.tensor(H**0.5, dtype=torch.float32)
        stored = self.stored_dtypes[p + "embed_tokens.weight"]
        if embed_scale_mode == "stored" and stored == "BF16":
            scale = scale.to(torch.bfloat16).to(torch.float32)
        elif embed_scale_mode == "stored" and stored == "F16":
            scale = scale.to(torch.float16).to(torch.float32)
        self.embed_scale = float(scale)

        self.layers = []
        self.missing_encoder_scalars = []
        for i in range(cfg.num_layers):
            L = Layer()
            q = f"{p}layers.{i}."
            hd, kvh = cfg.layer_head_dim(i), cfg.layer_kv_heads(i)
            L.sliding = cfg.is_sliding(i)
            L.head_dim, L.kv_heads = hd, kvh
            for n in (
                "input_layernorm",
                "post_attention_layernorm",
                "pre_feedforward_layernorm",
                "post_feedforward_layernorm",
                "post_feedforward_layernorm_1",
                "post_feedforward_layernorm_2",
                "pre_feedforward_layernorm_2",
            ):
                setattr(L, n, take(q + n + ".weight", (H,)))
            a = q + "self_attn."
            L.q_proj = take(a + "q_proj.weight", (cfg.num_heads * hd, H))
            L.k_proj = take(a + "k_proj.weight", (kvh * hd, H))
            # Full layers have no v_proj: V is the raw K projection (attention_k_eq_v).
            uses_v_proj = L.sliding or not cfg.k_eq_v
            L.v_proj = take(a + "v_proj.weight", (kvh * hd, H)) if uses_v_proj else None
            L.o_proj = take(a + "o_proj.weight", (H, cfg.num_heads * hd))
            L.q_norm = take(a + "q_norm.weight", (hd,))
            L.k_norm = take(a + "k_norm.weight", (hd,))
            L.gate_proj = take(q + "mlp.gate_proj.weight", (cfg.intermediate_size, H))
            L.up_proj = take(q + "mlp.up_proj.weight", (cfg.intermediate_size, H))
            L.down_proj = take(q + "mlp.down_proj.weight", (H, cfg.intermediate_size))
            L.router_proj = take(q + "router.proj.weight", (cfg.num_experts, H))
            L.router_scale = take(q + "router.scale", (H,))
            L.per_expert_scale = take(q + "router.per_expert_scale", (cfg.num_experts,))
            E, I = cfg.num_experts, cfg.moe_intermediate_size
            L.experts_gate_up = take(q + "experts.gate_up_proj", (E, 2 * I, H))
            L.experts_down = take(q + "experts.down_proj", (E, H, I))
            L.decoder_scalar = take(q + "layer_scalar", (1,))
            enc = take(f"model.encoder.language_model.layers.{i}.layer_scalar", (1,), required=False)
            if enc is None:
                # transformers leaves the untied encoder buffer at its initial value, 1.
                self.missing_encoder_scalars.append(i)
                enc = torch.ones(1, dtype=dtype)
            L.encoder_scalar = enc
            L.inv_freq = inv_freq_for(cfg.rope_sliding if L.sliding else cfg.rope_full, hd, dtype)
            self.layers.append(L)
        if self.missing_encoder_scalars:
            print(
                f"warning: encoder layer_scalar missing for layers {self.missing_encoder_scalars}; using 1.0",
                file=sys.stderr,
            )
        vc = self.config_json.get("vision_config")
        self.vision = Vision(vc, take, H, dtype) if vc else None
        self.image_token_id = int(self.config_json.get("image_token_id", 258880))
        self.router_margin = float("inf")
        self.perturb = os.environ.get("DGEM_REF_PERTURB", "") == "1"

    # --- blocks ---------------------------------------------------------------------------

    def project_qkv(self, L, h, positions):
        """h [N, H] (N = rows * T tokens, positions [N]) -> q, k, v [N, heads, head_dim]."""
        cfg = self.cfg
        N = h.shape[0]
        q = (h @ L.q_proj.T).view(N, cfg.num_heads, L.head_dim)
        q = rope(rms_norm(q, L.q_norm, cfg.eps), positions, L.inv_freq)
        k_raw = (h @ L.k_proj.T).view(N, L.kv_heads, L.head_dim)
        v_raw = (h @ L.v_proj.T).view(N, L.kv_heads, L.head_dim) if L.v_proj is not None else k_raw
        k = rope(rms_norm(k_raw, L.k_norm, cfg.eps), positions, L.inv_freq)
        v = rms_norm(v_raw, None, cfg.eps)  # weightless, no RoPE
        return q, k, v

    def feed_forward(self, L, x):
        """Dense MLP and MoE in parallel from the same residual x; returns the new residual."""
        cfg = self.cfg
        n1 = rms_norm(x, L.pre_feedforward_layernorm, cfg.eps)
        dense = (gelu_tanh(n1 @ L.gate_proj.T) * (n1 @ L.up_proj.T)) @ L.down_proj.T
        dense = rms_norm(dense, L.post_feedforward_layernorm_1, cfg.eps)

        # Router reads the un-normed residual.
        r = rms_norm(x, None, cfg.eps) * L.router_scale * (cfg.hidden_size**-0.5)
        probs = torch.softmax((r @ L.router_proj.T).to(torch.float32), dim=-1).to(x.dtype)
        top = torch.topk(probs, k=min(cfg.top_k + 1, cfg.num_experts), dim=-1)
        if cfg.top_k < cfg.num_experts:
            gap = (top.values[:, cfg.top_k - 1] - top.values[:, cfg.top_k]).min().item()
            self.router_margin = min(self.router_margin, gap)
        weights, index = top.values[:, : cfg.top_k], top.indices[:, : cfg.top_k]
        weights = weights / weights.sum(dim=-1, keepdim=True)
        weights = weights * L.per_expert_scale[index]

        n2 = rms_norm(x, L.pre_feedforward_layernorm_2, cfg.eps)
        moe = torch.zeros_like(x)
        I = cfg.moe_intermediate_size
        for e in torch.unique(index).tolist():
            tok, slot = torch.nonzero(index == e, as_tuple=True)
            xe = n2[tok]
            gu = xe @ L.experts_gate_up[e].T
            ye = (gelu_tanh(gu[:, :I]) * gu[:, I:]) @ L.experts_down[e].T  # rows 0..I-1 gate, I.. up
            moe.index_add_(0, tok, ye * weights[tok, slot][:, None])
        moe = rms_norm(moe, L.post_feedforward_layernorm_2, cfg.eps)
        return x + rms_norm(dense + moe, L.post_feedforward_layernorm, cfg.eps)

    # --- encoder ----------------------------------------------------------------------------

    def place_images(self, x, ids, images):
        """Each image's soft tokens at the image-token run of the same index (masked_scatter)."""
        if not images:
            return x
        if self.vision is None:
            raise ValueError("the request has images but the model has no vision_config")
        is_img = (ids == self.image_token_id).tolist()
        runs = []
        for i, flag in enumerate(is_img):
            if flag and runs and runs[-1][0] + runs[-1][1] == i:
                runs[-1][1] += 1
            elif flag:
                runs.append([i, 1])
        if len(runs) != len(images):
            raise ValueError(f"{len(runs)} image-token runs in the prompt, {len(images)} images")
        x = x.clone()
        for (start, n), (rgb, w, h) in zip(runs, images):
            tokens = self.vision.soft_tokens(rgb, w, h, self.dtype)
            if tokens.shape[0] != n:
                raise ValueError(f"image {w}x{h} gives {tokens.shape[0]} soft tokens, its run has {n}")
            x[start:start + n] = tokens
        return x

    def encode(self, prompt_ids, images=None):
        """Causal encoder over the prompt. Returns [(K, V)] per layer, each [P, kv_heads, head_dim]."""
        cfg = self.cfg
        ids = torch.as_tensor(prompt_ids, dtype=torch.long)
        P = ids.shape[0]
        pos = torch.arange(P)
        x = self.place_images(self.embed[ids] * self.embed_scale, ids, images)
        qi, kj = pos[:, None], pos[None, :]
        causal = kj <= qi
        window = causal & (kj > qi - cfg.sliding_window)  # the last `window` keys, self included
        cache = []
        for L in self.layers:
            h = rms_norm(x, L.input_layernorm, cfg.eps)
            q, k, v = self.project_qkv(L, h, pos)
            o = attention(q[None], k[None], v[None], window if L.sliding else causal)
            o = o.reshape(P, -1) @ L.o_proj.T
            x = x + rms_norm(o, L.post_attention_layernorm, cfg.eps)
            x = self.feed_forward(L, x) * L.encoder_scalar
            cache.append((k, v))
        return cache

    # --- decoder ----------------------------------------------------------------------------

    def decoder_input(self, canvas, previous_logits=None):
        """rmsnorm_noweight(embed(canvas) * scale + sc); sc = 0 on a first step."""
        cfg = self.cfg
        e = self.embed[torch.as_tensor(canvas, dtype=torch.long)] * self.embed_scale
        if previous_logits is None:
            return rms_norm(e, None, cfg.eps)  # the self-conditioning MLP of zeros is zero
        soft = torch.softmax(previous_logits.to(torch.float32), dim=-1).to(self.dtype) @ self.embed
        soft = soft * self.embed_scale
        n = rms_norm(soft, self.sc_pre_norm, cfg.eps)
        sc = (gelu_tanh(n @ self.sc_gate.T) * (n @ self.sc_up.T)) @ self.sc_down.T
        return rms_norm(e + sc, None, cfg.eps)

    def decode_hidden(self, canvases, cache, previous_logits=None):
        """Canvas rows [R, W] (one batched pass) -> final-normed hidden states [R, W, H].

        previous_logits: None (first step) or [R, W, vocab] temperature-scaled logits."""
        cfg = self.cfg
        P = cache[0][0].shape[0]
        ids = torch.as_tensor(canvases, dtype=torch.long)
        R, W = ids.shape
        pos = torch.arange(P, P + W).repeat(R)  # every row sits right after the prompt
        flat_prev = None if previous_logits is None else previous_logits.reshape(R * W, -1)
        x = self.decoder_input(ids.reshape(-1), flat_prev)
        for li, L in enumerate(self.layers):
            h = rms_norm(x, L.input_layernorm, cfg.eps)
            q, k, v = self.project_qkv(L, h, pos)
            ck, cv = cache[li]
            if L.sliding:
                keep = max(cfg.sliding_window - 1, 0)  # what the sliding cache layer retains
                ck, cv = ck[P - min(P, keep) :], cv[P - min(P, keep) :]
            keys = torch.cat([ck[None].expand(R, -1, -1, -1), k.view(R, W, L.kv_heads, L.head_dim)], dim=1)
            values = torch.cat([cv[None].expand(R, -1, -1, -1), v.view(R, W, L.kv_heads, L.head_dim)], dim=1)
            o = attention(q.view(R, W, cfg.num_heads, L.head_dim), keys, values, None).reshape(R * W, -1)
            if self.perturb and li == 0:
                o = -o
            o = o @ L.o_proj.T
            x = x + rms_norm(o, L.post_attention_layernorm, cfg.eps)
            x = self.feed_forward(L, x) * L.decoder_scalar
        return rms_norm(x, self.final_norm, cfg.eps).view(R, W, -1)

    def logits(self, hidden):
        """Tied head then tanh soft-cap, [..., vocab]."""
        z = hidden @ self.embed.T
        if self.cfg.softcap:
            z = torch.tanh(z / self.cfg.softcap) * self.cfg.softcap
        return z


# ----------------------------------------------------------------------------------------------
# command line


def load_previous_logits(path, rows, width, vocab):
    if path.endswith(".npy"):
        arr = np.load(path).astype(np.float32)
    else:
        arr = np.fromfile(path, dtype="<f4")
    expected = rows * width * vocab
    if arr.size != expected:
        raise ValueError(f"{path}: {arr.size} values, expected rows*W*vocab = {rows}*{width}*{vocab} = {expected}")
    return torch.from_numpy(arr.reshape(rows, width, vocab).copy())


def read_request(path, model):
    with open(path) as f:
        req = json.load(f)
    base = os.path.dirname(os.path.abspath(path))
    prompt = [int(t) for t in req["prompt_ids"]]
    canvases = [[int(t) for t in row] for row in req["canvases"]]
    if not prompt:
        raise ValueError(f"{path}: prompt_ids is empty")
    if not canvases or len({len(r) for r in canvases}) != 1 or not canvases[0]:
        raise ValueError(f"{path}: canvases must be non-empty rows of one width")
    V = model.cfg.vocab_size
    for t in prompt + [t for r in canvases for t in r]:
        if not 0 <= t < V:
            raise ValueError(f"{path}: token id {t} outside [0, {V})")
    slots = req.get("slots") or [[] for _ in canvases]
    if len(slots) != len(canvases):
        raise ValueError(f"{path}: slots has {len(slots)} rows, canvases {len(canvases)}")
    prev = None
    if req.get("previous_logits"):
        p = req["previous_logits"]
        p = p if os.path.isabs(p) else os.path.join(base, p)
        prev = load_previous_logits(p, len(canvases), len(canvases[0]), V)
    images = []
    for im in req.get("images") or []:
        p = im["rgb"] if os.path.isabs(im["rgb"]) else os.path.join(base, im["rgb"])
        with open(p, "rb") as f:
            rgb = f.read()
        w, h = int(im["width"]), int(im["height"])
        if len(rgb) != w * h * 3:
            raise ValueError(f"{p}: {len(rgb)} bytes, expected width*height*3 = {w * h * 3}")
        images.append((rgb, w, h))
    return prompt, canvases, slots, prev, bool(req.get("full_logits", True)), images


def write_outputs(arrays, out):
    if out.endswith(".npz"):
        np.savez(out, **arrays)
        return
    os.makedirs(out, exist_ok=True)
    manifest = {}
    for name, arr in arrays.items():
        arr = np.ascontiguousarray(arr, dtype="<f4")
        arr.tofile(os.path.join(out, name + ".f32"))
        manifest[name] = {"file": name + ".f32", "shape": list(arr.shape)}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def slot_readout(model, hidden, slots):
    """Log-softmax over the whole vocabulary at every slot of every row, read at its label ids.

    hidden [R, W, H]; slots[r] = [{"pos", "label_ids"}]. The head runs once over all slot rows."""
    where = [(r, int(s["pos"])) for r in range(len(slots)) for s in slots[r]]
    if not where:
        return [], []
    rows = torch.stack([hidden[r, p] for r, p in where])
    z = model.logits(rows)
    lp = torch.log_softmax(z, dim=-1)
    flat = [s for row in slots for s in row]
    lps = [float(lp[i, int(t)]) for i, s in enumerate(flat) for t in s["label_ids"]]
    return lps, [float(a) for a in torch.argmax(z, dim=-1)]


def run_reference(model, prompt, canvases, slots, prev, full_logits, images=None):
    arrays = {}
    cache = model.encode(prompt, images)
    for li, (k, v) in enumerate(cache):
        arrays[f"enc_k_{li}"] = k.numpy()
        arrays[f"enc_v_{li}"] = v.numpy()
    hidden = model.decode_hidden(canvases, cache)
    if full_logits:
        arrays["logits"] = model.logits(hidden).numpy()
    lps, argmaxes = slot_readout(model, hidden, slots)
    arrays["slot_logprobs"] = np.asarray(lps, dtype=np.float64)
    arrays["slot_argmax"] = np.asarray(argmaxes, dtype=np.float64)
    if prev is not None:
        arrays["sc_logits"] = model.logits(model.decode_hidden(canvases, cache, prev)).numpy()
    arrays["router_margin"] = np.asarray([model.router_margin])
    return arrays


def run_bench(model, prompt, canvases, slots, repeat):
    """Decision-shaped timing: one encoder pass, every canvas row, slot readout. Load excluded."""
    best = None
    for _ in range(max(repeat, 1)):
        c0 = time.process_time()  # CPU seconds of all threads: robust on a shared machine
        t0 = time.perf_counter()
        cache = model.encode(prompt)
        t1 = time.perf_counter()
        hidden = model.decode_hidden(canvases, cache)
        t2 = time.perf_counter()
        slot_readout(model, hidden, slots)
        t3 = time.perf_counter()
        times = {"encode_ms": (t1 - t0) * 1e3, "decode_ms": (t2 - t1) * 1e3, "readout_ms": (t3 - t2) * 1e3}
        times["total_ms"] = (t3 - t0) * 1e3
        times["cpu_ms"] = (time.process_time() - c0) * 1e3
        if best is None or times["total_ms"] < best["total_ms"]:
            best = times
    # ru_maxrss is in KiB on Linux; it includes the loaded weights.
    best["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    best["threads"] = torch.get_num_threads()
    best["repeat"] = repeat
    return best


def run_generation_bench(model, prompt, canvases, prev, repeat):
    """One denoising pass, repeated: self-conditioned decoder + full logits. Load and encode excluded."""
    cache = model.encode(prompt)
    best = None
    for _ in range(max(repeat, 1)):
        c0 = time.process_time()
        t0 = time.perf_counter()
        model.logits(model.decode_hidden(canvases, cache, prev))
        times = {"pass_ms": (time.perf_counter() - t0) * 1e3, "cpu_ms": (time.process_time() - c0) * 1e3}
        if best is None or times["pass_ms"] < best["pass_ms"]:
            best = times
    best["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    best["threads"] = torch.get_num_threads()
    best["repeat"] = repeat
    best["rows"], best["width"] = len(canvases), len(canvases[0])
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="Hugging Face model folder (config.json, safetensors)")
    ap.add_argument("--input", required=True, help="request JSON (see the module docstring)")
    ap.add_argument("--output", help="out.npz, or a folder for raw f32 files + manifest.json")
    ap.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    ap.add_argument("--embed-scale", choices=["stored", "exact"], default="stored")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--bench", action="store_true", help="print timing JSON instead of writing outputs")
    ap.add_argument(
        "--bench-generation",
        action="store_true",
        help="print timing JSON of one self-conditioned decoder pass + full logits (needs previous_logits)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="timed repetitions in --bench modes (best kept)")
    args = ap.parse_args(argv)
    if args.threads > 0:
        # Benchmarks compare at equal threads: the intra-op pool and the inter-op pool both.
        torch.set_num_threads(args.threads)
        try:
            torch.set_num_interop_threads(args.threads)
        except RuntimeError:
            pass  # already set (a second model in one process)
    torch.set_grad_enabled(False)
    dtype = torch.float64 if args.dtype == "float64" else torch.float32
    try:
        t0 = time.perf_counter()
        model = Model(args.model, dtype, args.embed_scale)
        load_ms = (time.perf_counter() - t0) * 1e3
        prompt, canvases, slots, prev, full_logits, images = read_request(args.input, model)
        if prev is not None:
            prev = prev.to(dtype)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.bench_generation:
        if prev is None:
            print("error: --bench-generation needs previous_logits in the request", file=sys.stderr)
            return 2
        result = run_generation_bench(model, prompt, canvases, prev, args.repeat)
        result["load_ms"] = load_ms
        print(json.dumps(result))
        return 0
    if args.bench:
        result = run_bench(model, prompt, canvases, slots, args.repeat)
        result["load_ms"] = load_ms
        print(json.dumps(result))
        return 0
    if not args.output:
        print("error: --output is required unless --bench or --bench-generation", file=sys.stderr)
        return 2
    try:
        arrays = run_reference(model, prompt, canvases, slots, prev, full_logits, images)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    write_outputs(arrays, args.output)
    print(f"router_margin {model.router_margin:.3g} embed_scale {model.embed_scale!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
