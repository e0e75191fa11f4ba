"""An independent reckoning of the catalogue's models with numpy, for the tests.

Written apart from llm_inference.models, in another way: for each architecture it lists the tensors
a Hugging Face checkpoint holds (names and shapes as the transformers modelling code defines the
modules: ``model.layers.{i}.self_attn.q_proj.weight`` of shape (out, in), fused expert tensors
split per expert), then sums ``np.prod`` over them. Defaults that published configs leave out come
from its own table, copied from the transformers config classes.
"""

from __future__ import annotations

import numpy as np

# transformers.Gemma3TextConfig's defaults for the fields the published Gemma 3 configs omit.
GEMMA3_TEXT_DEFAULTS = {
    "vocab_size": 262208, "head_dim": 256, "num_attention_heads": 8, "num_key_value_heads": 4,
    "sliding_window_pattern": 6, "tie_word_embeddings": True,
}
# The published configs that omit tie_word_embeddings: Gemma ties, Llama 4 and DeepSeek do not.
TIE_DEFAULTS = {"gemma2": True, "gemma3_text": True, "gpt2": True, "llama4_text": False, "deepseek_v2": False,
                "deepseek_v32": False}
# Qwen3NextConfig's rule when layer_types is absent: every full_attention_interval-th layer attends.
QWEN3_NEXT_INTERVAL = 4


def text_config(config: dict) -> dict:
    """The text model's fields, with Gemma 3's omitted defaults filled in."""
    text = dict(config.get("text_config") or config)
    if "tie_word_embeddings" in config and "tie_word_embeddings" not in text:
        text["tie_word_embeddings"] = config["tie_word_embeddings"]  # the wrapper says it (Qwen3.5)
    if "layers_block_type" in text and "hybrid_override_pattern" not in text:  # Nemotron 3 Ultra and 3.5
        blocks = {"mamba": "M", "attention": "*", "mlp": "-", "moe": "E"}
        text["hybrid_override_pattern"] = "".join(blocks[b] for b in text["layers_block_type"])
        text.setdefault("num_hidden_layers", len(text["layers_block_type"]))
    if "model_type" not in text and config.get("model_type") == "minimax_m3_vl":  # its text_config says none
        text["model_type"] = "minimax_m3"
    if text.get("model_type") == "gemma3_text":
        for key, value in GEMMA3_TEXT_DEFAULTS.items():
            text.setdefault(key, value)
    return text


def _tied(c: dict) -> bool:
    if "tie_word_embeddings" in c:
        return c["tie_word_embeddings"]
    return TIE_DEFAULTS[c["model_type"]]


def _gqa(c: dict, p: str, q_bias: bool = False, o_bias: bool = False) -> list:
    h, nh, nkv = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    d = c.get("head_dim") or h // nh
    out = [(f"{p}.q_proj.weight", (nh * d, h)), (f"{p}.k_proj.weight", (nkv * d, h)),
           (f"{p}.v_proj.weight", (nkv * d, h)), (f"{p}.o_proj.weight", (h, nh * d))]
    if q_bias:
        out += [(f"{p}.q_proj.bias", (nh * d,)), (f"{p}.k_proj.bias", (nkv * d,)), (f"{p}.v_proj.bias", (nkv * d,))]
    if o_bias:
        out += [(f"{p}.o_proj.bias", (h,))]
    return out


def _swiglu(p: str, h: int, inner: int) -> list:
    return [(f"{p}.gate_proj.weight", (inner, h)), (f"{p}.up_proj.weight", (inner, h)),
            (f"{p}.down_proj.weight", (h, inner))]


def _norms(p: str, h: int, names: tuple[str, ...]) -> list:
    return [(f"{p}.{name}.weight", (h,)) for name in names]


def tensors(config: dict) -> list[tuple[str, tuple[int, ...], int | None]]:
    """(name, shape, routed expert index or None) for every tensor of the text model."""
    c = text_config(config)
    kind = c["model_type"]
    if kind == "gpt2":
        return [(name, shape, None) for name, shape in _gpt2(c)]
    h, vocab = c["hidden_size"], c["vocab_size"]
    out: list[tuple[str, tuple[int, ...], int | None]] = [("model.embed_tokens.weight", (vocab, h), None)]
    for i in range(c["num_hidden_layers"]):
        out += _layer(c, kind, i)
    out.append(("model.norm.weight", (h,), None))
    if kind == "deepseek_v4":  # the last hyper-connection mixer, collapsing the streams
        hc = c["hc_mult"]
        out += [("hc_head_fn", (hc, hc * h), None), ("hc_head_base", (hc,), None), ("hc_head_scale", (1,), None)]
    if not _tied(c):
        out.append(("lm_head.weight", (vocab, h), None))
    return out


def _layer(c: dict, kind: str, i: int) -> list:
    h = c["hidden_size"]
    p = f"model.layers.{i}"
    plain: list = []
    routed: list = []
    if kind in ("llama", "mistral"):
        plain = _gqa(c, f"{p}.self_attn") + _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
    elif kind == "qwen2":  # biases on q, k, v: Qwen2Attention hard-codes bias=True there
        plain = _gqa(c, f"{p}.self_attn", q_bias=True) + _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
    elif kind in ("qwen3", "qwen3_moe"):
        d = c["head_dim"]
        plain = _gqa(c, f"{p}.self_attn") + [(f"{p}.self_attn.q_norm.weight", (d,)), (f"{p}.self_attn.k_norm.weight", (d,))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        if kind == "qwen3":
            plain += _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        else:
            assert c.get("decoder_sparse_step", 1) == 1 and not c.get("mlp_only_layers")  # true of the catalogue
            plain += [(f"{p}.mlp.gate.weight", (c["num_experts"], h))]
            for e in range(c["num_experts"]):
                routed += [(n, s, e) for n, s in _swiglu(f"{p}.mlp.experts.{e}", h, c["moe_intermediate_size"])]
    elif kind == "phi3":  # fused qkv_proj and gate_up_proj
        nh, nkv = c["num_attention_heads"], c["num_key_value_heads"]
        d = h // nh
        plain = [(f"{p}.self_attn.qkv_proj.weight", ((nh + 2 * nkv) * d, h)), (f"{p}.self_attn.o_proj.weight", (h, nh * d)),
                 (f"{p}.mlp.gate_up_proj.weight", (2 * c["intermediate_size"], h)),
                 (f"{p}.mlp.down_proj.weight", (h, c["intermediate_size"]))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
    elif kind in ("gemma2", "gemma3_text"):
        plain = _gqa(c, f"{p}.self_attn") + _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                               "post_feedforward_layernorm"))
        if kind == "gemma3_text":
            d = c["head_dim"]
            plain += [(f"{p}.self_attn.q_norm.weight", (d,)), (f"{p}.self_attn.k_norm.weight", (d,))]
    elif kind == "mimo_v2_flash":  # vLLM's mimo_v2_flash.py: hybrid_layer_pattern 1 = swa_* geometry
        pre = "swa_" if c["hybrid_layer_pattern"][i] else ""
        nh, nkv = c[pre + "num_attention_heads"], c[pre + "num_key_value_heads"]
        dk, dv = c[pre + "head_dim"], c[pre + "v_head_dim"]
        q = f"{p}.self_attn"
        plain = [(f"{q}.q_proj.weight", (nh * dk, h)), (f"{q}.k_proj.weight", (nkv * dk, h)),
                 (f"{q}.v_proj.weight", (nkv * dv, h)), (f"{q}.o_proj.weight", (h, nh * dv))]
        if pre and c.get("add_swa_attention_sink_bias"):
            plain += [(f"{q}.attention_sink_bias", (nh,))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        if c["moe_layer_freq"][i]:
            plain += [(f"{p}.mlp.gate.weight", (c["n_routed_experts"], h))]
            for e in range(c["n_routed_experts"]):
                routed += [(n, s, e) for n, s in _swiglu(f"{p}.mlp.experts.{e}", h, c["moe_intermediate_size"])]
        else:
            plain += _swiglu(f"{p}.mlp", h, c["intermediate_size"])
    elif kind == "gemma4_text":  # vLLM's gemma4.py Gemma4DecoderLayer
        full = c["layer_types"][i] == "full_attention"
        k_eq_v = full and c.get("attention_k_eq_v", False)
        d = c["global_head_dim"] if full else c["head_dim"]
        nkv = c["num_global_key_value_heads"] if k_eq_v else c["num_key_value_heads"]
        nh, q = c["num_attention_heads"], f"{p}.self_attn"
        plain = [(f"{q}.q_proj.weight", (nh * d, h)), (f"{q}.k_proj.weight", (nkv * d, h))]
        plain += [] if k_eq_v else [(f"{q}.v_proj.weight", (nkv * d, h))]
        plain += [(f"{q}.o_proj.weight", (h, nh * d)), (f"{q}.q_norm.weight", (d,)), (f"{q}.k_norm.weight", (d,))]
        plain += _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                               "post_feedforward_layernorm"))
        if c.get("enable_moe_block"):
            experts = c["num_experts"]
            plain += [(f"{p}.router.proj.weight", (experts, h)), (f"{p}.router.scale", (h,)),
                      (f"{p}.moe.per_expert_scale", (experts,))]
            plain += _norms(p, h, ("post_feedforward_layernorm_1", "post_feedforward_layernorm_2",
                                   "pre_feedforward_layernorm_2"))
            for e in range(experts):
                routed += [(n, s, e) for n, s in _swiglu(f"{p}.moe.experts.{e}", h, c["moe_intermediate_size"])]
    elif kind == "mixtral":
        plain = _gqa(c, f"{p}.self_attn") + _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        plain += [(f"{p}.block_sparse_moe.gate.weight", (c["num_local_experts"], h))]
        inner = c["intermediate_size"]
        for e in range(c["num_local_experts"]):
            q = f"{p}.block_sparse_moe.experts.{e}"
            routed += [(f"{q}.w1.weight", (inner, h), e), (f"{q}.w2.weight", (h, inner), e), (f"{q}.w3.weight", (inner, h), e)]
    elif kind in ("deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek_v32", "glm_moe_dsa"):  # Kimi K2: DeepseekV3
        plain = _mla(c, f"{p}.self_attn") + _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        # the sparse-attention indexer (vLLM's Indexer, DeepSeek's inference/model.py); GLM-5.2 keeps it on
        # the layers indexer_types marks "full" only
        indexed = kind == "deepseek_v32" or (kind == "glm_moe_dsa" and c.get("indexer_types", ["full"] * (i + 1))[i] == "full")
        if indexed:
            ih, idim = c["index_n_heads"], c["index_head_dim"]
            q = f"{p}.self_attn.indexer"
            plain += [(f"{q}.wq_b.weight", (ih * idim, c["q_lora_rank"])), (f"{q}.wk.weight", (idim, h)),
                      (f"{q}.k_norm.weight", (idim,)), (f"{q}.k_norm.bias", (idim,)),
                      (f"{q}.weights_proj.weight", (ih, h))]
        if i < c["first_k_dense_replace"]:
            plain += _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        else:
            assert c["moe_layer_freq"] == 1  # true of the catalogue
            inner, experts = c["moe_intermediate_size"], c["n_routed_experts"]
            plain += [(f"{p}.mlp.gate.weight", (experts, h))]
            plain += _swiglu(f"{p}.mlp.shared_experts", h, inner * c["n_shared_experts"])
            for e in range(experts):
                routed += [(n, s, e) for n, s in _swiglu(f"{p}.mlp.experts.{e}", h, inner)]
    elif kind == "deepseek_v4":  # the checkpoint's names (layers.{i}.attn.*, ffn.*, hc_*), as vLLM's deepseek_v4.py loads them
        plain = _v4_attention(c, f"{p}.attn", c["compress_ratios"][i])
        plain += _norms(p, h, ("attn_norm", "ffn_norm"))
        mix, hc = (2 + c["hc_mult"]) * c["hc_mult"], c["hc_mult"]
        for part in ("attn", "ffn"):
            plain += [(f"{p}.hc_{part}_fn", (mix, hc * h)), (f"{p}.hc_{part}_base", (mix,)), (f"{p}.hc_{part}_scale", (3,))]
        inner, experts = c["moe_intermediate_size"], c["n_routed_experts"]
        plain += [(f"{p}.ffn.gate.weight", (experts, h))]
        if i < c["num_hash_layers"]:  # routed by token id: a vocabulary x top-k table instead of the bias
            plain += [(f"{p}.ffn.gate.tid2eid", (c["vocab_size"], c["num_experts_per_tok"]))]
        else:
            plain += [(f"{p}.ffn.gate.bias", (experts,))]
        shared = inner * c["n_shared_experts"]
        plain += [(f"{p}.ffn.shared_experts.w1.weight", (shared, h)), (f"{p}.ffn.shared_experts.w3.weight", (shared, h)),
                  (f"{p}.ffn.shared_experts.w2.weight", (h, shared))]
        for e in range(experts):
            q = f"{p}.ffn.experts.{e}"
            routed += [(f"{q}.w1.weight", (inner, h), e), (f"{q}.w2.weight", (h, inner), e), (f"{q}.w3.weight", (inner, h), e)]
    elif kind == "llama4_text":  # use_qk_norm is an L2 norm: no weights
        plain = _gqa(c, f"{p}.self_attn") + _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        step = c["interleave_moe_layer_step"]
        if i % step == step - 1:
            experts, inner = c["num_local_experts"], c["intermediate_size"]
            plain += [(f"{p}.feed_forward.router.weight", (experts, h))]
            plain += _swiglu(f"{p}.feed_forward.shared_expert", h, inner)
            for e in range(experts):  # gate_up_proj (E, h, 2I) and down_proj (E, I, h), per expert
                routed += [(f"{p}.feed_forward.experts.gate_up_proj[{e}]", (h, 2 * inner), e),
                           (f"{p}.feed_forward.experts.down_proj[{e}]", (inner, h), e)]
        else:
            plain += _swiglu(f"{p}.feed_forward", h, c["intermediate_size_mlp"])
    elif kind == "gpt_oss":
        plain = _gqa(c, f"{p}.self_attn", q_bias=True, o_bias=True)
        plain += [(f"{p}.self_attn.sinks", (c["num_attention_heads"],))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        experts, inner = c["num_local_experts"], c["intermediate_size"]
        plain += [(f"{p}.mlp.router.weight", (experts, h)), (f"{p}.mlp.router.bias", (experts,))]
        for e in range(experts):
            q = f"{p}.mlp.experts"
            routed += [(f"{q}.gate_up_proj[{e}]", (h, 2 * inner), e), (f"{q}.gate_up_proj_bias[{e}]", (2 * inner,), e),
                       (f"{q}.down_proj[{e}]", (inner, h), e), (f"{q}.down_proj_bias[{e}]", (h,), e)]
    elif kind in ("qwen3_next", "qwen3_5_moe_text", "qwen3_5_text"):  # transformers 4.57.1 modeling_qwen3_next.py, and Qwen3.5's
        plain = _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        if _qwen3_next_types(c)[i] == "full_attention":  # gated: q_proj doubles its output
            nh, nkv, d = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
            q = f"{p}.self_attn"
            plain += [(f"{q}.q_proj.weight", (2 * nh * d, h)), (f"{q}.k_proj.weight", (nkv * d, h)),
                      (f"{q}.v_proj.weight", (nkv * d, h)), (f"{q}.o_proj.weight", (h, nh * d)),
                      (f"{q}.q_norm.weight", (d,)), (f"{q}.k_norm.weight", (d,))]
        else:  # Qwen3NextGatedDeltaNet
            kh, kd = c["linear_num_key_heads"], c["linear_key_head_dim"]
            vh, vd = c["linear_num_value_heads"], c["linear_value_head_dim"]
            q = f"{p}.linear_attn"
            conv = 2 * kh * kd + vh * vd
            if kind in ("qwen3_5_moe_text", "qwen3_5_text"):  # Qwen3.5 stores the four input projections apart
                plain += [(f"{q}.in_proj_qkv.weight", (2 * kh * kd + vh * vd, h)), (f"{q}.in_proj_z.weight", (vh * vd, h)),
                          (f"{q}.in_proj_b.weight", (vh, h)), (f"{q}.in_proj_a.weight", (vh, h))]
            else:
                plain += [(f"{q}.in_proj_qkvz.weight", (2 * kh * kd + 2 * vh * vd, h)),
                          (f"{q}.in_proj_ba.weight", (2 * vh, h))]
            plain += [(f"{q}.conv1d.weight", (conv, 1, c["linear_conv_kernel_dim"])), (f"{q}.dt_bias", (vh,)),
                      (f"{q}.A_log", (vh,)), (f"{q}.norm.weight", (vd,)), (f"{q}.out_proj.weight", (h, vh * vd))]
        if kind == "qwen3_5_text":  # the dense Qwen3.5 (27B): one SwiGLU MLP a layer
            return [(n, s, None) for n, s in plain + _swiglu(f"{p}.mlp", h, c["intermediate_size"])]
        assert c.get("decoder_sparse_step", 1) == 1 and not c.get("mlp_only_layers")  # true of the catalogue
        experts = c["num_experts"]
        plain += [(f"{p}.mlp.gate.weight", (experts, h)), (f"{p}.mlp.shared_expert_gate.weight", (1, h))]
        plain += _swiglu(f"{p}.mlp.shared_expert", h, c["shared_expert_intermediate_size"])
        for e in range(experts):
            routed += [(n, s, e) for n, s in _swiglu(f"{p}.mlp.experts.{e}", h, c["moe_intermediate_size"])]
    elif kind == "glm4_moe":  # transformers 4.57.1 modeling_glm4_moe.py: biases on q, k, v only
        plain = _gqa(c, f"{p}.self_attn", q_bias=c["attention_bias"])
        if c.get("use_qk_norm"):
            plain += [(f"{p}.self_attn.q_norm.weight", (c["head_dim"],)), (f"{p}.self_attn.k_norm.weight", (c["head_dim"],))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        if i < c["first_k_dense_replace"]:
            plain += _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        else:
            inner, experts = c["moe_intermediate_size"], c["n_routed_experts"]
            plain += [(f"{p}.mlp.gate.weight", (experts, h))]  # e_score_correction_bias is a buffer
            plain += _swiglu(f"{p}.mlp.shared_experts", h, inner * c["n_shared_experts"])
            for e in range(experts):
                routed += [(n, s, e) for n, s in _swiglu(f"{p}.mlp.experts.{e}", h, inner)]
    elif kind == "minimax_m2":  # MiniMaxAI/MiniMax-M2 modeling_minimax_m2.py; vLLM minimax_m2.py
        nh, nkv, d = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
        plain = _gqa(c, f"{p}.self_attn")
        assert c["use_qk_norm"] and c["qk_norm_type"] == "per_layer"  # one norm over all heads' q (and k)
        plain += [(f"{p}.self_attn.q_norm.weight", (nh * d,)), (f"{p}.self_attn.k_norm.weight", (nkv * d,))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        experts, inner = c["num_local_experts"], c["intermediate_size"]
        plain += [(f"{p}.block_sparse_moe.gate.weight", (experts, h))]
        for e in range(experts):
            q = f"{p}.block_sparse_moe.experts.{e}"
            routed += [(f"{q}.w1.weight", (inner, h), e), (f"{q}.w2.weight", (h, inner), e), (f"{q}.w3.weight", (inner, h), e)]
    elif kind == "minimax_m3":  # vLLM vllm/models/minimax_m3/nvidia/model.py: per-head q/k norms, index q/k on sparse layers
        d = c["head_dim"]
        plain = _gqa(c, f"{p}.self_attn") + [(f"{p}.self_attn.q_norm.weight", (d,)), (f"{p}.self_attn.k_norm.weight", (d,))]
        sparse = c["sparse_attention_config"]
        if sparse["sparse_attention_freq"][i]:
            idx = sparse["sparse_index_dim"]
            plain += [(f"{p}.self_attn.index_q_proj.weight", (sparse["sparse_num_index_heads"] * idx, h)),
                      (f"{p}.self_attn.index_k_proj.weight", (idx, h)),
                      (f"{p}.self_attn.index_q_norm.weight", (idx,)), (f"{p}.self_attn.index_k_norm.weight", (idx,))]
        plain += _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        if c["moe_layer_freq"][i]:
            experts, inner = c["num_local_experts"], c["intermediate_size"]
            q = f"{p}.block_sparse_moe"
            plain += [(f"{q}.gate.weight", (experts, h)), (f"{q}.e_score_correction_bias", (experts,))]
            plain += _swiglu(f"{q}.shared_experts", h, inner * c["n_shared_experts"])
            for e in range(experts):
                routed += [(f"{q}.experts.{e}.w1.weight", (inner, h), e), (f"{q}.experts.{e}.w2.weight", (h, inner), e),
                           (f"{q}.experts.{e}.w3.weight", (inner, h), e)]
        else:
            plain += _swiglu(f"{p}.mlp", h, c["dense_intermediate_size"])
    elif kind == "nemotron_h":  # nvidia's modeling_nemotron_h.py: one mixer per block and one norm
        plain = [(f"{p}.norm.weight", (h,))]
        block = c["hybrid_override_pattern"][i]
        q = f"{p}.mixer"
        if block == "M":  # NemotronHMamba2Mixer
            heads, n, g = c["mamba_num_heads"], c["ssm_state_size"], c["n_groups"]
            inner = heads * c["mamba_head_dim"]
            conv = inner + 2 * g * n
            plain += [(f"{q}.in_proj.weight", (2 * inner + 2 * g * n + heads, h)),
                      (f"{q}.conv1d.weight", (conv, 1, c["conv_kernel"])), (f"{q}.dt_bias", (heads,)),
                      (f"{q}.A_log", (heads,)), (f"{q}.D", (heads,)), (f"{q}.norm.weight", (inner,)),
                      (f"{q}.out_proj.weight", (h, inner))]
            if c["use_conv_bias"]:
                plain += [(f"{q}.conv1d.bias", (conv,))]
            assert not c["use_bias"] and not c.get("mamba_proj_bias")  # true of the catalogue
        elif block == "*":
            nh, nkv = c["num_attention_heads"], c["num_key_value_heads"]
            d = c.get("head_dim") or c["attention_head_dim"]
            plain += [(f"{q}.q_proj.weight", (nh * d, h)), (f"{q}.k_proj.weight", (nkv * d, h)),
                      (f"{q}.v_proj.weight", (nkv * d, h)), (f"{q}.o_proj.weight", (h, nh * d))]
        elif block == "-":  # relu² MLP: up and down, no gate
            plain += [(f"{q}.up_proj.weight", (c["intermediate_size"], h)), (f"{q}.down_proj.weight", (h, c["intermediate_size"]))]
        elif block == "E":  # NemotronHMoE: router, shared expert, routed experts (up and down)
            experts, inner = c["n_routed_experts"], c["moe_intermediate_size"]
            shared = c["moe_shared_expert_intermediate_size"] * c["n_shared_experts"]
            plain += [(f"{q}.gate.weight", (experts, h)), (f"{q}.shared_experts.up_proj.weight", (shared, h)),
                      (f"{q}.shared_experts.down_proj.weight", (h, shared))]
            # LatentMoE (Nemotron 3 Super): the routed experts read and write the latent width, between
            # fc1_latent_proj (hidden -> latent) and fc2_latent_proj (latent -> hidden)
            latent = c.get("moe_latent_size") or h
            if c.get("moe_latent_size"):
                plain += [(f"{q}.fc1_latent_proj.weight", (latent, h)), (f"{q}.fc2_latent_proj.weight", (h, latent))]
                assert not c["mlp_bias"]  # true of the catalogue
            for e in range(experts):
                routed += [(f"{q}.experts.{e}.up_proj.weight", (inner, latent), e),
                           (f"{q}.experts.{e}.down_proj.weight", (latent, inner), e)]
        else:
            raise AssertionError(f"no reference for Nemotron-H block {block!r}")
    else:
        raise AssertionError(f"no reference for model_type {kind}")
    return [(n, s, None) for n, s in plain] + routed


def _v4_compressor(h: int, d: int, ratio: int, p: str) -> list:
    width = d * (2 if ratio == 4 else 1)  # ratio-4 windows overlap: twice the width
    return [(f"{p}.wkv.weight", (width, h)), (f"{p}.wgate.weight", (width, h)), (f"{p}.ape", (ratio, width)),
            (f"{p}.norm.weight", (d,))]


def _v4_attention(c: dict, p: str, ratio: int) -> list:
    h, nh, d = c["hidden_size"], c["num_attention_heads"], c["head_dim"]
    q, g, o = c["q_lora_rank"], c["o_groups"], c["o_lora_rank"]
    out = [(f"{p}.wq_a.weight", (q, h)), (f"{p}.q_norm.weight", (q,)), (f"{p}.wq_b.weight", (nh * d, q)),
           (f"{p}.wkv.weight", (d, h)), (f"{p}.kv_norm.weight", (d,)), (f"{p}.wo_a.weight", (g * o, nh * d // g)),
           (f"{p}.wo_b.weight", (h, g * o)), (f"{p}.attn_sink", (nh,))]
    if ratio > 1:
        out += _v4_compressor(h, d, ratio, f"{p}.compressor")
    if ratio == 4:
        ih, idim = c["index_n_heads"], c["index_head_dim"]
        out += [(f"{p}.indexer.wq_b.weight", (ih * idim, q)), (f"{p}.indexer.weights_proj.weight", (ih, h)),
                (f"{p}.indexer.k_norm.weight", (idim,)), (f"{p}.indexer.k_norm.bias", (idim,))]
        out += _v4_compressor(h, idim, ratio, f"{p}.indexer.compressor")
    return out


def _qwen3_next_types(c: dict) -> list[str]:
    if "layer_types" in c:
        return c["layer_types"]
    every = c.get("full_attention_interval", QWEN3_NEXT_INTERVAL)
    return ["full_attention" if (i + 1) % every == 0 else "linear_attention" for i in range(c["num_hidden_layers"])]


def _mla(c: dict, p: str) -> list:
    h, nh = c["hidden_size"], c["num_attention_heads"]
    nope, rope, v, kv = c["qk_nope_head_dim"], c["qk_rope_head_dim"], c["v_head_dim"], c["kv_lora_rank"]
    q = c.get("q_lora_rank")
    out = ([(f"{p}.q_a_proj.weight", (q, h)), (f"{p}.q_a_layernorm.weight", (q,)),
            (f"{p}.q_b_proj.weight", (nh * (nope + rope), q))] if q else
           [(f"{p}.q_proj.weight", (nh * (nope + rope), h))])
    return out + [(f"{p}.kv_a_proj_with_mqa.weight", (kv + rope, h)), (f"{p}.kv_a_layernorm.weight", (kv,)),
                  (f"{p}.kv_b_proj.weight", (nh * (nope + v), kv)), (f"{p}.o_proj.weight", (h, nh * v))]


def _gpt2(c: dict) -> list:
    h, inner = c["n_embd"], c.get("n_inner") or 4 * c["n_embd"]
    out = [("transformer.wte.weight", (c["vocab_size"], h)), ("transformer.wpe.weight", (c["n_positions"], h))]
    for i in range(c["n_layer"]):
        p = f"transformer.h.{i}"
        out += [(f"{p}.ln_1.weight", (h,)), (f"{p}.ln_1.bias", (h,)),
                (f"{p}.attn.c_attn.weight", (h, 3 * h)), (f"{p}.attn.c_attn.bias", (3 * h,)),
                (f"{p}.attn.c_proj.weight", (h, h)), (f"{p}.attn.c_proj.bias", (h,)),
                (f"{p}.ln_2.weight", (h,)), (f"{p}.ln_2.bias", (h,)),
                (f"{p}.mlp.c_fc.weight", (h, inner)), (f"{p}.mlp.c_fc.bias", (inner,)),
                (f"{p}.mlp.c_proj.weight", (inner, h)), (f"{p}.mlp.c_proj.bias", (h,))]
    return out + [("transformer.ln_f.weight", (h,)), ("transformer.ln_f.bias", (h,))]


def experts_per_token(config: dict) -> int:
    c = text_config(config)
    return c.get("num_experts_per_tok") or c.get("top_k_experts") or 0


def param_counts(config: dict) -> dict[str, int]:
    """total, active (only the first k routed experts of each layer: all experts are the same
    size) and embedding (token and position tables)."""
    k = experts_per_token(config)
    items = tensors(config)
    sizes = np.array([np.prod(shape, dtype=np.int64) for _, shape, _ in items], dtype=np.int64)
    active = np.array([e is None or e < k for _, _, e in items])
    embedding = np.array([name in ("model.embed_tokens.weight", "transformer.wte.weight", "transformer.wpe.weight")
                          for name, _, _ in items])
    head = np.array([name == "lm_head.weight" for name, _, _ in items])
    return {"total": int(sizes.sum()), "active": int(sizes[active].sum()), "embedding": int(sizes[embedding].sum()),
            "head": int(sizes[head].sum())}


# The architectures whose checkpoints hold Qwen3-VL's vision tower (transformers' Qwen3VLVisionModel):
# the ones vLLM loads it for beside the text model.
QWEN3_VL_TOWERS = ("Qwen3VLForConditionalGeneration", "Qwen3VLMoeForConditionalGeneration",
                   "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration")


def vision_tensors(config: dict) -> list[tuple[str, tuple[int, ...]]]:
    """The ``model.visual.*`` tensors of a Qwen3-VL-family checkpoint ([] for any other): the
    patch-embedding Conv3d and its bias, the position table, per block two LayerNorms, qkv, proj and
    the MLP's linear_fc1/fc2 with biases, the merger (LayerNorm, two linears on 2 × 2 merged patches)
    and one more merger per deepstack index (its LayerNorm over the merged width)."""
    v = config.get("vision_config")
    if (config.get("architectures") or [""])[0] not in QWEN3_VL_TOWERS or not v:
        return []
    h, i, out = v["hidden_size"], v["intermediate_size"], v["out_hidden_size"]
    m = h * v["spatial_merge_size"] ** 2
    p = "model.visual."
    items = [(p + "patch_embed.proj.weight", (h, v.get("in_channels", 3), v.get("temporal_patch_size", 2),
                                              v["patch_size"], v["patch_size"])),
             (p + "patch_embed.proj.bias", (h,)), (p + "pos_embed.weight", (v["num_position_embeddings"], h))]
    for b in range(v["depth"]):
        q = f"{p}blocks.{b}."
        items += [(q + n, (h,)) for n in ("norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias")]
        items += [(q + "attn.qkv.weight", (3 * h, h)), (q + "attn.qkv.bias", (3 * h,)),
                  (q + "attn.proj.weight", (h, h)), (q + "attn.proj.bias", (h,)),
                  (q + "mlp.linear_fc1.weight", (i, h)), (q + "mlp.linear_fc1.bias", (i,)),
                  (q + "mlp.linear_fc2.weight", (h, i)), (q + "mlp.linear_fc2.bias", (h,))]
    mergers = [("merger.", h)] + [(f"deepstack_merger_list.{k}.", m)
                                  for k in range(len(v.get("deepstack_visual_indexes") or []))]
    for name, width in mergers:
        items += [(p + name + "norm.weight", (width,)), (p + name + "norm.bias", (width,)),
                  (p + name + "linear_fc1.weight", (m, m)), (p + name + "linear_fc1.bias", (m,)),
                  (p + name + "linear_fc2.weight", (out, m)), (p + name + "linear_fc2.bias", (out,))]
    return items


def vision_params(config: dict) -> int:
    return int(sum(np.prod(shape, dtype=np.int64) for _, shape in vision_tensors(config)))


def kv_bytes_per_token_bf16(config: dict) -> int:
    """2 bytes per cached number, every layer, windows ignored. DeepSeek-V4 caches in its own fp8
    layout whatever is asked: its :func:`v4_bytes_per_token`."""
    c = text_config(config)
    if c["model_type"] == "deepseek_v4":
        return v4_bytes_per_token(c)
    layers = c.get("num_hidden_layers") or c["n_layer"]
    if c["model_type"] == "mimo_v2_flash":  # each layer its own geometry; V narrower than K
        return int(sum(2 * c[pre + "num_key_value_heads"] * (c[pre + "head_dim"] + c[pre + "v_head_dim"])
                       for pre in ("swa_" if swa else "" for swa in c["hybrid_layer_pattern"])))
    if c["model_type"] == "gemma4_text":  # global layers: global_head_dim, K = V heads (cached twice)
        return int(sum(2 * 2 * (c["num_global_key_value_heads"] if c.get("attention_k_eq_v") else c["num_key_value_heads"])
                       * c["global_head_dim"] if t == "full_attention" else 2 * 2 * c["num_key_value_heads"] * c["head_dim"]
                       for t in c["layer_types"]))
    if c.get("kv_lora_rank"):
        per_layer = np.array([c["kv_lora_rank"], c["qk_rope_head_dim"]]).sum()  # one latent + one RoPE key
    else:
        heads = c.get("num_attention_heads") or c["n_head"]
        kv = c.get("num_key_value_heads") or heads
        d = c.get("head_dim") or (c.get("hidden_size") or c["n_embd"]) // heads
        d = c.get("head_dim") or c.get("attention_head_dim") or d
        per_layer = np.prod([2, kv, d])  # K and V
    pattern = layer_pattern(config)
    attending = sum(1 for kind, _ in pattern if kind in ("full", "sliding", "chunked"))
    assert attending == layers or c["model_type"] in ("qwen3_next", "qwen3_5_moe_text", "qwen3_5_text", "nemotron_h")  # the hybrids
    return int(np.full(attending, per_layer, dtype=np.int64).sum() * 2)


def kv_bytes_per_layer_bf16(config: dict) -> list[int]:
    """Bytes a token adds to each attending layer (in layer_pattern's order), indexer keys included:
    the layers' own geometries where they differ (MiMo-V2-Flash, Gemma 4), else an even split."""
    c = text_config(config)
    if c["model_type"] == "mimo_v2_flash":
        return [2 * c[pre + "num_key_value_heads"] * (c[pre + "head_dim"] + c[pre + "v_head_dim"])
                for pre in ("swa_" if swa else "" for swa in c["hybrid_layer_pattern"])]
    if c["model_type"] == "gemma4_text":
        kv = c["num_global_key_value_heads"] if c.get("attention_k_eq_v") else c["num_key_value_heads"]
        return [2 * 2 * kv * c["global_head_dim"] if t == "full_attention" else 2 * 2 * c["num_key_value_heads"] * c["head_dim"]
                for t in c["layer_types"]]
    attending = sum(1 for kind, _ in layer_pattern(config) if kind in ("full", "sliding", "chunked"))
    indexer = indexer_bytes_per_layer(config) or [0] * attending
    return [kv_bytes_per_token_bf16(config) // attending + keys for keys in indexer]


def v4_bytes_per_token(c: dict) -> float:
    """DeepSeek-V4, every layer, windows ignored: a token of the window (fp8 NoPE values, bf16 RoPE
    values, one e8m0 scale per 64 NoPE values, a pad byte) plus, per compressed layer, a ``ratio``-th
    of an entry of the same size and, on ratio-4 layers, of an indexer key (fp8 and an fp32 scale per 128)."""
    rope, nope = c["qk_rope_head_dim"], c["head_dim"] - c["qk_rope_head_dim"]
    token = (np.zeros(nope, np.uint8).nbytes + np.zeros(rope, np.float16).nbytes
             + np.zeros(nope // 64 + 1, np.uint8).nbytes)
    d = c["index_head_dim"]
    key = np.zeros(d, np.uint8).nbytes + np.zeros(d // 128, np.float32).nbytes
    total = 0.0
    for r in c["compress_ratios"][:c["num_hidden_layers"]]:
        total += token + ((token + (key if r == 4 else 0)) / r if r > 1 else 0)
    return total


def layer_pattern(config: dict) -> list[tuple[str, int]]:
    """Per layer: ("full", 0), ("sliding", window) or ("chunked", chunk), by each family's rule."""
    c = text_config(config)
    kind = c["model_type"]
    layers = c.get("num_hidden_layers") or c["n_layer"]
    if kind in ("qwen3_next", "qwen3_5_moe_text", "qwen3_5_text"):  # Gated DeltaNet layers keep a state, no KV
        return [("full", 0) if t == "full_attention" else ("linear", 0) for t in _qwen3_next_types(c)]
    if kind == "nemotron_h":  # M: Mamba-2 (a state), *: attention, - and E: MLP / MoE blocks (neither)
        return [{"M": ("linear", 0), "*": ("full", 0)}.get(b, ("none", 0)) for b in c["hybrid_override_pattern"]]
    if kind == "mimo_v2_flash":
        return [("sliding", c["sliding_window_size"]) if swa else ("full", 0) for swa in c["hybrid_layer_pattern"]]
    if kind == "deepseek_v4":  # one compression ratio per layer (0: the window only); the MTP layer's last
        return [("compressed", r if r > 1 else 0) for r in c["compress_ratios"][:layers]]
    if "layer_types" in c:
        # GLM-5.2-NVFP4 names every layer deepseek_sparse_attention: MLA over the whole context
        names = {"full_attention": "full", "sliding_attention": "sliding", "deepseek_sparse_attention": "full"}
        return [(names[t], c["sliding_window"] if t == "sliding_attention" else 0) for t in c["layer_types"]]
    if kind == "gemma2":
        return [("sliding", c["sliding_window"]) if i % 2 == 0 else ("full", 0) for i in range(layers)]
    if kind == "gemma3_text":
        every = c["sliding_window_pattern"]
        return [("full", 0) if (i + 1) % every == 0 else ("sliding", c["sliding_window"]) for i in range(layers)]
    if kind == "llama4_text":  # no no_rope_layers in these configs: every 4th layer NoPE and global
        return [("full", 0) if (i + 1) % 4 == 0 else ("chunked", c["attention_chunk_size"]) for i in range(layers)]
    if kind.startswith("qwen") and "use_sliding_window" in c:
        assert not c["use_sliding_window"]  # true of the catalogue
        return [("full", 0)] * layers
    if c.get("sliding_window"):
        return [("sliding", c["sliding_window"])] * layers
    return [("full", 0)] * layers


def indexer_bytes_per_layer(config: dict) -> list[int]:
    """DeepSeek-V3.2's indexer key per token, each layer: fp8 values and one fp32 scale per 128; GLM-5.2
    keeps the indexer on the layers its indexer_types marks "full" only. MiniMax-M3's sparse layers
    cache a bf16 index key (2 bytes a value)."""
    c = text_config(config)
    d = c.get("index_head_dim") or 0
    if c["model_type"] == "deepseek_v4":  # V4's keys are in v4_bytes_per_token, ratio-4 layers only
        return []
    if c["model_type"] == "minimax_m3":  # MiniMaxM3IndexerCache: one bf16 key on each sparse layer
        sparse = c["sparse_attention_config"]
        key = np.zeros(sparse["sparse_index_dim"], np.float16).nbytes
        return [key if f else 0 for f in sparse["sparse_attention_freq"]]
    layers = c["num_hidden_layers"] if d else 0
    per_layer = np.zeros(d, np.uint8).nbytes + np.zeros(d // 128, np.float32).nbytes if d else 0
    kept = c.get("indexer_types") or ["full"] * layers
    return [per_layer if kept[i] == "full" else 0 for i in range(layers)]


def fp32_params(config: dict) -> int:
    """Parameters vLLM stores in fp32 whatever the checkpoint's dtype: MiniMax-M3's router
    (``GateLinear(params_dtype=torch.float32)``) and its ``e_score_correction_bias`` on each MoE layer."""
    c = text_config(config)
    if c["model_type"] != "minimax_m3":
        return 0
    return sum(c["moe_layer_freq"]) * (c["num_local_experts"] * c["hidden_size"] + c["num_local_experts"])


def indexer_bytes_per_token(config: dict) -> int:
    """The indexer keys a token adds, all layers."""
    return int(sum(indexer_bytes_per_layer(config)))


def state_bytes_per_sequence(config: dict) -> int:
    """The recurrent state one sequence holds, every state layer, one GPU, as arrays shaped like
    vLLM's (MambaStateShapeCalculator, 0.33.0): a conv window (channels × (kernel − 1)) in the model
    dtype (bf16) and the SSM state in the config's dtype — Qwen's mamba_ssm_dtype, else bf16;
    Nemotron-H's mamba_ssm_cache_dtype, else fp32 (vLLM 0.20 on)."""
    c = text_config(config)
    kind = c["model_type"]
    dtypes = {"float32": np.float32, "float16": np.float16, "bfloat16": np.float16}
    if kind in ("qwen3_next", "qwen3_5_text", "qwen3_5_moe_text"):
        kh, kd = c["linear_num_key_heads"], c["linear_key_head_dim"]
        vh, vd = c["linear_num_value_heads"], c["linear_value_head_dim"]
        conv = np.zeros((2 * kh * kd + vh * vd, c["linear_conv_kernel_dim"] - 1), np.float16)
        ssm = np.zeros((vh, vd, kd), dtypes.get(c.get("mamba_ssm_dtype"), np.float16))
        layers = sum(1 for kind, _ in layer_pattern(config) if kind == "linear")
    elif kind == "nemotron_h":
        heads, n, g = c["mamba_num_heads"], c["ssm_state_size"], c["n_groups"]
        inner = heads * c["mamba_head_dim"]
        conv = np.zeros((inner + 2 * g * n, c["conv_kernel"] - 1), np.float16)
        ssm = np.zeros((heads, c["mamba_head_dim"], n), dtypes.get(c.get("mamba_ssm_cache_dtype"), np.float32))
        layers = c["hybrid_override_pattern"].count("M")
    else:
        return 0
    return int(layers * (conv.nbytes + ssm.nbytes))
