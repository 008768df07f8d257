"""The demo model's trainable DiffusionGemma: the forward pass of tests/reference/diffusion_gemma_ref.py
(which the C++ engine matches to 1e-6), batched and differentiable, over a vocabulary restricted to
the tokens the corpus uses.

Why a restricted vocabulary is exact and not an approximation: every embedding row the corpus never
uses is exactly zero in the exported checkpoint, so its tied-head logit is softcap(h . 0) = 0 and its
input embedding is the zero vector. The full 262144-way softmax is then
    logsumexp(all) = logaddexp(logsumexp(used logits), log(unused count) + 0),
the self-conditioning soft embedding sum_i p_i E_i only has used terms, and uniform noise over the
whole vocabulary lands on a used token with probability used/262144, else on a zero embedding
(index `unused` here). The trainer computes exactly what the engine computes on the exported
checkpoint at a 30th of the cost.
"""

import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "reference"))
from diffusion_gemma_ref import TextConfig, gelu_tanh, inv_freq_for, rms_norm, rope  # noqa: E402

FULL_VOCAB = 262144
PAD_ID, EOS_ID, BOS_ID, START_TURN_ID, END_TURN_ID = 0, 1, 2, 105, 106
ATTENTION_CHUNK_SCORES = 2_000_000  # scores per attention chunk (attend says why)
DESCRIPTION = "demo model, trained on synthetic data for the shipped policies; not a general model"


def demo_config(hidden=64, layers=6, window=128):
    """config.json of the demo model: the real model's format and options at a small size."""
    layer_types = ["sliding_attention" if (i + 1) % 3 else "full_attention" for i in range(layers)]
    layer_types[-1] = "full_attention"
    text = {
        "attention_bias": False,
        "attention_dropout": 0.0,
        "attention_k_eq_v": True,
        "bos_token_id": BOS_ID,
        "dtype": "bfloat16",
        "eos_token_id": EOS_ID,
        "final_logit_softcapping": 30.0,
        "global_head_dim": 32,
        "head_dim": 16,
        "hidden_activation": "gelu_pytorch_tanh",
        "hidden_size": hidden,
        "intermediate_size": 2 * hidden,
        "layer_types": layer_types,
        "max_position_embeddings": 32768,
        "model_type": "diffusion_gemma_text",
        "moe_intermediate_size": hidden // 2,
        "num_attention_heads": 4,
        "num_experts": 8,
        "num_global_key_value_heads": 1,
        "num_hidden_layers": layers,
        "num_key_value_heads": 2,
        "pad_token_id": PAD_ID,
        "rms_norm_eps": 1e-06,
        "rope_parameters": {
            "full_attention": {"partial_rotary_factor": 0.25, "rope_theta": 1000000.0, "rope_type": "proportional"},
            "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"},
        },
        "sliding_window": window,
        "tie_word_embeddings": True,
        "top_k_experts": 2,
        "use_bidirectional_attention": "vision",
        "vocab_size": FULL_VOCAB,
    }
    return {
        "_name_or_path": "decision-studio-demo",
        # Our own key, shown wherever the engine names the model (dgem, the Studio, /health).
        "description": DESCRIPTION,
        "architectures": ["DiffusionGemmaForBlockDiffusion"],
        "boi_token_id": 255999,
        "canvas_length": 256,
        "dtype": "bfloat16",
        "eoi_token_id": 258882,
        "eos_token_id": [EOS_ID, END_TURN_ID, 50],
        "image_token_id": 258880,
        "initializer_range": 0.02,
        "model_type": "diffusion_gemma",
        "pad_token_id": PAD_ID,
        "text_config": text,
        "tie_word_embeddings": True,
    }


def bf16_round(x):
    return x.to(torch.bfloat16).to(torch.float32)


class DemoModel(torch.nn.Module):
    """Parameters named as the checkpoint names them (dots become '__' inside torch)."""

    def __init__(self, config, used_ids, generator):
        super().__init__()
        self.cfg = cfg = TextConfig(config)
        H, I, E, MI = cfg.hidden_size, cfg.intermediate_size, cfg.num_experts, cfg.moe_intermediate_size
        self.used_ids = torch.as_tensor(sorted(used_ids), dtype=torch.long)
        self.unused = len(self.used_ids)  # index of the zero embedding every other id maps to
        lookup = torch.full((FULL_VOCAB,), self.unused, dtype=torch.long)
        lookup[self.used_ids] = torch.arange(self.unused)
        self.register_buffer("lookup", lookup, persistent=False)
        self.log_unused = math.log(FULL_VOCAB - self.unused)
        # The reference rounds sqrt(hidden) to the stored dtype (bf16 here): the engine does too.
        self.embed_scale = float(bf16_round(torch.tensor(H**0.5)))

        def normal(*shape, fan_in):
            return torch.nn.Parameter(torch.randn(*shape, generator=generator) / math.sqrt(fan_in))

        def ones(*shape):
            return torch.nn.Parameter(torch.ones(*shape))

        self.p = torch.nn.ParameterDict()
        p = self.p
        p["embed"] = torch.nn.Parameter(torch.randn(self.unused, H, generator=generator) * 0.05)
        p["final_norm"] = ones(H)
        p["sc_pre_norm"] = ones(H)
        p["sc_gate"] = normal(I, H, fan_in=H)
        p["sc_up"] = normal(I, H, fan_in=H)
        # Zero: self-conditioning starts as a no-op and is learned (the first step has none).
        p["sc_down"] = torch.nn.Parameter(torch.zeros(H, I))
        self.layer_dims = []
        for i in range(cfg.num_layers):
            hd, kvh = cfg.layer_head_dim(i), cfg.layer_kv_heads(i)
            self.layer_dims.append((hd, kvh, cfg.is_sliding(i)))
            q = f"l{i}_"
            for n in ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                      "post_feedforward_layernorm", "post_feedforward_layernorm_1",
                      "post_feedforward_layernorm_2", "pre_feedforward_layernorm_2"):
                p[q + n] = ones(H)
            p[q + "q_proj"] = normal(cfg.num_heads * hd, H, fan_in=H)
            p[q + "k_proj"] = normal(kvh * hd, H, fan_in=H)
            if cfg.is_sliding(i) or not cfg.k_eq_v:
                p[q + "v_proj"] = normal(kvh * hd, H, fan_in=H)
            p[q + "o_proj"] = normal(H, cfg.num_heads * hd, fan_in=cfg.num_heads * hd)
            # Attention has no 1/sqrt(d) scale (q and k are RMS-normed instead): norm weights of
            # d^-1/4 start the q.k logits at unit variance, not d, so attention starts soft
            # and learnable rather than nearly one-hot.
            p[q + "q_norm"] = torch.nn.Parameter(torch.full((hd,), hd**-0.25))
            p[q + "k_norm"] = torch.nn.Parameter(torch.full((hd,), hd**-0.25))
            p[q + "gate_proj"] = normal(I, H, fan_in=H)
            p[q + "up_proj"] = normal(I, H, fan_in=H)
            p[q + "down_proj"] = normal(H, I, fan_in=I)
            p[q + "router_proj"] = normal(E, H, fan_in=H)
            p[q + "router_scale"] = ones(H)
            p[q + "per_expert_scale"] = ones(E)
            p[q + "experts_gate_up"] = normal(E, 2 * MI, H, fan_in=H)
            p[q + "experts_down"] = normal(E, H, MI, fan_in=MI)
            # One scalar serves the encoder and decoder copies (equal in the released checkpoint).
            p[q + "layer_scalar"] = ones(1)
        self.inv_freq = [inv_freq_for(cfg.rope_sliding if s else cfg.rope_full, hd, torch.float32)
                         for hd, _, s in self.layer_dims]

    # --- embeddings and head over the restricted vocabulary ------------------------------------

    def embed_rows(self, idx):
        """Restricted indices -> embeddings; index `unused` is the zero row of every unused id."""
        table = torch.cat([self.p["embed"], torch.zeros(1, self.cfg.hidden_size)], dim=0)
        return table[idx] * self.embed_scale

    def used_logits(self, hidden):
        z = hidden @ self.p["embed"].T
        return torch.tanh(z / self.cfg.softcap) * self.cfg.softcap

    def full_logsumexp(self, z, temperature=1.0):
        """logsumexp over all 262144 ids of z / temperature (the unused ids all have logit 0)."""
        lse = torch.logsumexp(z / temperature, dim=-1)
        return torch.logaddexp(lse, torch.full_like(lse, self.log_unused))

    # --- one layer's pieces, as in the reference ------------------------------------------------

    def qkv(self, i, h, pos):
        """h [N, H], pos [N] -> q [N, heads, hd], k, v [N, kvh, hd]."""
        cfg, p, q_ = self.cfg, self.p, f"l{i}_"
        hd, kvh, _ = self.layer_dims[i]
        N = h.shape[0]
        q = rope(rms_norm((h @ p[q_ + "q_proj"].T).view(N, cfg.num_heads, hd), p[q_ + "q_norm"], cfg.eps),
                 pos, self.inv_freq[i])
        k_raw = (h @ p[q_ + "k_proj"].T).view(N, kvh, hd)
        v_raw = (h @ p[q_ + "v_proj"].T).view(N, kvh, hd) if (q_ + "v_proj") in p else k_raw
        k = rope(rms_norm(k_raw, p[q_ + "k_norm"], cfg.eps), pos, self.inv_freq[i])
        v = rms_norm(v_raw, None, cfg.eps)
        return q, k, v

    def feed_forward(self, i, x):
        cfg, p, q_ = self.cfg, self.p, f"l{i}_"
        n1 = rms_norm(x, p[q_ + "pre_feedforward_layernorm"], cfg.eps)
        dense = (gelu_tanh(n1 @ p[q_ + "gate_proj"].T) * (n1 @ p[q_ + "up_proj"].T)) @ p[q_ + "down_proj"].T
        dense = rms_norm(dense, p[q_ + "post_feedforward_layernorm_1"], cfg.eps)
        r = rms_norm(x, None, cfg.eps) * p[q_ + "router_scale"] * (cfg.hidden_size**-0.5)
        probs = torch.softmax(r @ p[q_ + "router_proj"].T, dim=-1)
        weights, index = torch.topk(probs, k=cfg.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        weights = weights * p[q_ + "per_expert_scale"][index]
        n2 = rms_norm(x, p[q_ + "pre_feedforward_layernorm_2"], cfg.eps)
        MI = cfg.moe_intermediate_size
        moe = torch.zeros_like(x)
        for e in torch.unique(index).tolist():
            tok, slot = torch.nonzero(index == e, as_tuple=True)
            gu = n2[tok] @ p[q_ + "experts_gate_up"][e].T
            ye = (gelu_tanh(gu[:, :MI]) * gu[:, MI:]) @ p[q_ + "experts_down"][e].T
            moe = moe.index_add(0, tok, ye * weights[tok, slot][:, None])
        moe = rms_norm(moe, p[q_ + "post_feedforward_layernorm_2"], cfg.eps)
        return x + rms_norm(dense + moe, p[q_ + "post_feedforward_layernorm"], cfg.eps)

    @staticmethod
    def attend(q, k, v, visible):
        """q [B, T, Hq, d], k/v [B, S, KV, d], visible [B, T, S] bool. Scale 1.0 (normed q, k).

        A few examples at a time: the scores of a whole batch of prompts ([B, Hq, T, T], tens of
        MB) went through memory at every step of the softmax and its gradient, and a fresh
        allocation of that size is new pages each time. Chunks of about 2M scores stay in cache
        and in the allocator's reused memory: measured, 462-token prompts, B = 14, one thread,
        forward and backward 950 ms whole against 95 ms in chunks. The arithmetic is the same."""
        groups = q.shape[2] // k.shape[2]
        k = k.repeat_interleave(groups, dim=2)
        v = v.repeat_interleave(groups, dim=2)
        chunk = max(1, ATTENTION_CHUNK_SCORES // (q.shape[2] * q.shape[1] * k.shape[1]))
        out = []
        for b in range(0, q.shape[0], chunk):
            scores = torch.einsum("bthd,bshd->bhts", q[b: b + chunk], k[b: b + chunk])
            scores = scores.masked_fill(~visible[b: b + chunk, None], float("-inf"))
            out.append(torch.einsum("bhts,bshd->bthd", torch.softmax(scores, dim=-1), v[b: b + chunk]))
        return out[0] if len(out) == 1 else torch.cat(out, 0)

    # --- encoder over padded prompts, decoder over canvas rows ---------------------------------

    def encode(self, prompt_idx, lengths):
        """prompt_idx [B, P] restricted ids (right-padded), lengths [B] -> [(k, v)] per layer."""
        cfg, p = self.cfg, self.p
        B, P = prompt_idx.shape
        pos = torch.arange(P).repeat(B)
        x = self.embed_rows(prompt_idx).reshape(B * P, -1)
        qi, kj = torch.arange(P)[:, None], torch.arange(P)[None, :]
        causal = (kj <= qi)[None].expand(B, P, P)
        window = causal & (kj > qi - cfg.sliding_window)[None]
        cache = []
        for i, (hd, kvh, sliding) in enumerate(self.layer_dims):
            h = rms_norm(x, p[f"l{i}_input_layernorm"], cfg.eps)
            q, k, v = self.qkv(i, h, pos)
            o = self.attend(q.view(B, P, -1, hd), k.view(B, P, kvh, hd), v.view(B, P, kvh, hd),
                            window if sliding else causal)
            x = x + rms_norm(o.reshape(B * P, -1) @ p[f"l{i}_o_proj"].T, p[f"l{i}_post_attention_layernorm"], cfg.eps)
            x = self.feed_forward(i, x) * p[f"l{i}_layer_scalar"]
            cache.append((k.view(B, P, kvh, hd), v.view(B, P, kvh, hd)))
        return cache

    def self_conditioning(self, prev_z, temperature):
        """The soft embedding of softmax(previous logits / T) over the whole vocabulary, through
        the self-conditioning MLP (reference decoder_input)."""
        cfg, p = self.cfg, self.p
        probs = torch.exp(prev_z / temperature - self.full_logsumexp(prev_z, temperature)[..., None])
        soft = (probs @ p["embed"]) * self.embed_scale
        n = rms_norm(soft, p["sc_pre_norm"], cfg.eps)
        return (gelu_tanh(n @ p["sc_gate"].T) * (n @ p["sc_up"].T)) @ p["sc_down"].T

    def decode(self, canvas_idx, cache, lengths, prev_z=None, temperature=None):
        """canvas_idx [B, R, W] restricted ids; each row sits right after its example's prompt.
        Returns the final-normed hidden states [B, R, W, H]."""
        cfg, p = self.cfg, self.p
        B, R, W = canvas_idx.shape
        P = cache[0][0].shape[1]
        pos = (lengths[:, None, None] + torch.arange(W)[None, None, :]).expand(B, R, W).reshape(-1)
        e = self.embed_rows(canvas_idx).reshape(B * R * W, -1)
        if prev_z is not None:
            t = temperature.view(B, 1, 1, 1).expand(B, R, W, 1).reshape(-1, 1)
            e = e + self.self_conditioning(prev_z.reshape(B * R * W, -1), t)
        x = rms_norm(e, None, cfg.eps)
        j = torch.arange(P)[None, :]
        in_prompt = j < lengths[:, None]  # [B, P]
        recent = in_prompt & (j >= lengths[:, None] - max(cfg.sliding_window - 1, 0))
        canvas_keys = torch.ones(B, W, dtype=torch.bool)
        # Keys per row: [its example's prompt cache | the whole canvas]; one mask per example,
        # shared by its rows and by every canvas position.
        def per_row(keys):
            return torch.cat([keys, canvas_keys], 1)[:, None, None, :].expand(B, R, W, P + W).reshape(B * R, W, P + W)

        vis_full, vis_slide = per_row(in_prompt), per_row(recent)
        for i, (hd, kvh, sliding) in enumerate(self.layer_dims):
            h = rms_norm(x, p[f"l{i}_input_layernorm"], cfg.eps)
            q, k, v = self.qkv(i, h, pos)
            ck, cv = cache[i]
            ck = ck[:, None].expand(B, R, P, kvh, hd).reshape(B * R, P, kvh, hd)
            cv = cv[:, None].expand(B, R, P, kvh, hd).reshape(B * R, P, kvh, hd)
            keys = torch.cat([ck, k.view(B * R, W, kvh, hd)], 1)
            values = torch.cat([cv, v.view(B * R, W, kvh, hd)], 1)
            o = self.attend(q.view(B * R, W, -1, hd), keys, values, vis_slide if sliding else vis_full)
            x = x + rms_norm(o.reshape(B * R * W, -1) @ p[f"l{i}_o_proj"].T, p[f"l{i}_post_attention_layernorm"], cfg.eps)
            x = self.feed_forward(i, x) * p[f"l{i}_layer_scalar"]
        return rms_norm(x, p["final_norm"], cfg.eps).view(B, R, W, -1)

    # --- export ------------------------------------------------------------------------------

    def checkpoint_tensors(self):
        """{checkpoint name: f32 tensor} with the full 262144-row embedding (unused rows zero)."""
        cfg, p = self.cfg, self.p
        H = cfg.hidden_size
        out = {}
        embed = torch.zeros(FULL_VOCAB, H)
        embed[self.used_ids] = p["embed"].detach()
        d = "model.decoder."
        out[d + "embed_tokens.weight"] = embed
        out[d + "norm.weight"] = p["final_norm"]
        out[d + "self_conditioning.pre_norm.weight"] = p["sc_pre_norm"]
        out[d + "self_conditioning.gate_proj.weight"] = p["sc_gate"]
        out[d + "self_conditioning.up_proj.weight"] = p["sc_up"]
        out[d + "self_conditioning.down_proj.weight"] = p["sc_down"]
        names = {"q_proj": "self_attn.q_proj.weight", "k_proj": "self_attn.k_proj.weight",
                 "v_proj": "self_attn.v_proj.weight", "o_proj": "self_attn.o_proj.weight",
                 "q_norm": "self_attn.q_norm.weight", "k_norm": "self_attn.k_norm.weight",
                 "gate_proj": "mlp.gate_proj.weight", "up_proj": "mlp.up_proj.weight",
                 "down_proj": "mlp.down_proj.weight", "router_proj": "router.proj.weight",
                 "router_scale": "router.scale", "per_expert_scale": "router.per_expert_scale",
                 "experts_gate_up": "experts.gate_up_proj", "experts_down": "experts.down_proj",
                 "layer_scalar": "layer_scalar"}
        for i in range(cfg.num_layers):
            for key, value in p.items():
                if not key.startswith(f"l{i}_"):
                    continue
                short = key[len(f"l{i}_"):]
                out[f"{d}layers.{i}.{names.get(short, short + '.weight')}"] = value
            out[f"model.encoder.language_model.layers.{i}.layer_scalar"] = p[f"l{i}_layer_scalar"]
        return {k: v.detach().to(torch.float32).contiguous() for k, v in out.items()}
