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
TIE_DEFAULTS = {"gemma2": True, "gemma3_text": True, "gpt2": True, "llama4_text": False, "deepseek_v2": False}


def text_config(config: dict) -> dict:
    """The text model's fields, with Gemma 3's omitted defaults filled in."""
    text = dict(config.get("text_config") or config)
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
            assert c["decoder_sparse_step"] == 1 and not c["mlp_only_layers"]  # true of the catalogue
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
    elif kind == "mixtral":
        plain = _gqa(c, f"{p}.self_attn") + _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        plain += [(f"{p}.block_sparse_moe.gate.weight", (c["num_local_experts"], h))]
        inner = c["intermediate_size"]
        for e in range(c["num_local_experts"]):
            q = f"{p}.block_sparse_moe.experts.{e}"
            routed += [(f"{q}.w1.weight", (inner, h), e), (f"{q}.w2.weight", (h, inner), e), (f"{q}.w3.weight", (inner, h), e)]
    elif kind in ("deepseek_v2", "deepseek_v3"):
        plain = _mla(c, f"{p}.self_attn") + _norms(p, h, ("input_layernorm", "post_attention_layernorm"))
        if i < c["first_k_dense_replace"]:
            plain += _swiglu(f"{p}.mlp", h, c["intermediate_size"])
        else:
            assert c["moe_layer_freq"] == 1  # true of the catalogue
            inner, experts = c["moe_intermediate_size"], c["n_routed_experts"]
            plain += [(f"{p}.mlp.gate.weight", (experts, h))]
            plain += _swiglu(f"{p}.mlp.shared_experts", h, inner * c["n_shared_experts"])
            for e in range(experts):
                routed += [(n, s, e) for n, s in _swiglu(f"{p}.mlp.experts.{e}", h, inner)]
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
    else:
        raise AssertionError(f"no reference for model_type {kind}")
    return [(n, s, None) for n, s in plain] + routed


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
    return c.get("num_experts_per_tok") or 0


def param_counts(config: dict) -> dict[str, int]:
    """total, active (only the first k routed experts of each layer: all experts are the same
    size) and embedding (token and position tables)."""
    k = experts_per_token(config)
    items = tensors(config)
    sizes = np.array([np.prod(shape, dtype=np.int64) for _, shape, _ in items], dtype=np.int64)
    active = np.array([e is None or e < k for _, _, e in items])
    embedding = np.array([name in ("model.embed_tokens.weight", "transformer.wte.weight", "transformer.wpe.weight")
                          for name, _, _ in items])
    return {"total": int(sizes.sum()), "active": int(sizes[active].sum()), "embedding": int(sizes[embedding].sum())}


def kv_bytes_per_token_bf16(config: dict) -> int:
    """2 bytes per cached number, every layer, windows ignored."""
    c = text_config(config)
    layers = c.get("num_hidden_layers") or c["n_layer"]
    if c.get("kv_lora_rank"):
        per_layer = np.array([c["kv_lora_rank"], c["qk_rope_head_dim"]]).sum()  # one latent + one RoPE key
    else:
        heads = c.get("num_attention_heads") or c["n_head"]
        kv = c.get("num_key_value_heads") or heads
        d = c.get("head_dim") or (c.get("hidden_size") or c["n_embd"]) // heads
        per_layer = np.prod([2, kv, d])  # K and V
    return int(np.full(layers, per_layer, dtype=np.int64).sum() * 2)


def layer_pattern(config: dict) -> list[tuple[str, int]]:
    """Per layer: ("full", 0), ("sliding", window) or ("chunked", chunk), by each family's rule."""
    c = text_config(config)
    kind = c["model_type"]
    layers = c.get("num_hidden_layers") or c["n_layer"]
    if "layer_types" in c:
        names = {"full_attention": "full", "sliding_attention": "sliding"}
        return [(names[t], c["sliding_window"] if t == "sliding_attention" else 0) for t in c["layer_types"]]
    if kind == "gemma2":
        return [("sliding", c["sliding_window"]) if i % 2 == 0 else ("full", 0) for i in range(layers)]
    if kind == "gemma3_text":
        every = c["sliding_window_pattern"]
        return [("full", 0) if (i + 1) % every == 0 else ("sliding", c["sliding_window"]) for i in range(layers)]
    if kind == "llama4_text":  # no no_rope_layers in these configs: every 4th layer NoPE and global
        return [("full", 0) if (i + 1) % 4 == 0 else ("chunked", c["attention_chunk_size"]) for i in range(layers)]
    if kind.startswith("qwen"):
        assert not c["use_sliding_window"]  # true of the catalogue
        return [("full", 0)] * layers
    if c.get("sliding_window"):
        return [("sliding", c["sliding_window"])] * layers
    return [("full", 0)] * layers
