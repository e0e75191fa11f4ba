"""What the cache stores per layer and token, and what the attention projections weigh.

The attention read here is the model's main geometry; where layers differ, the plan says how:
Gemma 4's full-attention layers use their own KV heads and head size (``global_head_dim``,
``num_global_key_value_heads`` with ``attention_k_eq_v``: vLLM's ``Gemma4DecoderLayer``), GLM-5.2
keeps the sparse-attention indexer only on the layers ``indexer_types`` marks "full" (the "shared"
ones reuse the previous selection and own no indexer), and DeepSeek-V4 compresses its cache per
layer (``compress_ratios``, :mod:`.compressed_attention`). :func:`.layers.layer_specs` turns the
plan and the layer kinds into one spec per layer.

Two traps live here. MLA (DeepSeek-V2/V3) lists ``num_key_value_heads`` (128 for V3), but caches
one ``kv_lora_rank`` latent plus one ``qk_rope_head_dim`` RoPE key per layer and token, shared by
K and V. And ``head_dim``, given explicitly or by the model type's default, is often not
hidden_size / num_attention_heads (Gemma, Qwen3, Mistral-Nemo, gpt-oss).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .errors import ConfigError
from .fields import FieldReader
from .compressed_attention import RATIOS as COMPRESS_RATIOS
from .params import COLUMN, gqa_attention, join, linear, mla_attention, norm

#: Families whose attention has biases on q, k and v (not o) whatever the config says.
QKV_BIAS_TYPES = ("qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl")
#: Families with per-head RMSNorm weights on queries and keys (Llama 4's qk norm has no weights).
QK_NORM_TYPES = ("qwen3", "qwen3_moe", "gemma3_text", "gemma4_text", "qwen3_next", "qwen3_5_text", "qwen3_5_moe_text",
                 "minimax_m3")
#: Families whose full-attention layers gate their output: q_proj also yields the gate, twice as
#: wide (``Qwen3NextAttention``; Qwen3.5's ``attn_output_gate``).
GATED_OUTPUT_TYPES = ("qwen3_next",)


@dataclass(frozen=True)
class GlobalGeometry:
    """The full-attention layers' own geometry (Gemma 4): KV heads, head size, K = V, and the
    weights of one such layer."""

    kv_heads: int
    head_dim: int
    k_eq_v: bool
    params: Any
    head_dim_v: int = 0  # V's width where it differs from K's (MiMo-V2-Flash); 0: the same


@dataclass(frozen=True)
class CompressedPlan:
    """DeepSeek-V4's per-layer compression (:mod:`.compressed_attention`)."""

    ratios: tuple[int, ...]
    sliding_window: int
    indexer_dim: int


@dataclass(frozen=True)
class AttentionPlan:
    kind: str  # "mha" | "gqa" | "mqa" | "mla" | "csa"
    kv_heads: int
    head_dim: int
    latent_dim: int
    rope_dim: int
    params: Any  # one layer's attention weights, biases and attention-internal norms
    indexer_head_dim: int = 0  # DeepSeek-V3.2's sparse-attention indexer key (cached per token)
    global_geometry: GlobalGeometry | None = None  # full-attention layers that differ (Gemma 4)
    indexer_layers: tuple[bool, ...] | None = None  # which layers own an indexer (GLM-5.2); None: all
    params_without_indexer: Any = None  # one layer's weights where it owns no indexer
    compressed: CompressedPlan | None = None  # DeepSeek-V4
    window_geometry: GlobalGeometry | None = None  # sliding-window layers that differ (MiMo-V2-Flash)
    sparse: Any = None  # MiniMax-M3's block-sparse layers (block_sparse_attention.SparsePlan)

    def layer_params(self, i: int, kind: str) -> Any:
        """One layer's attention weights: the global geometry's on Gemma 4's full layers, without
        the indexer on GLM-5.2's shared layers."""
        if self.global_geometry is not None and kind == "full":
            return self.global_geometry.params
        if self.window_geometry is not None and kind == "sliding":
            return self.window_geometry.params
        if self.indexer_layers is not None and not self.indexer_layers[i]:
            return self.params_without_indexer
        return self.params


def _head_dim(reader: FieldReader, hidden: int, heads: int) -> int:
    implied = hidden // heads if hidden % heads == 0 else None
    explicit = reader.has("head_dim")
    head_dim = reader.integer("head_dim", required=False)  # else the model type's default, if any
    if head_dim is None:
        if implied is None:
            raise ConfigError(
                f"missing field {reader.label('head_dim')}: hidden_size {hidden} is not a multiple of "
                f"num_attention_heads {heads}, so the head dimension cannot be implied"
            )
        return implied
    if head_dim != implied:
        ratio = f"{hidden} / {heads}" + (f" = {implied}" if implied is not None else "")
        if explicit:
            reader.traps.append(
                f"head_dim {head_dim} is given explicitly and differs from hidden_size / "
                f"num_attention_heads = {ratio}: the cache and projections use {head_dim}."
            )
        else:  # the default's message was just recorded: say what the default is not
            reader.traps[-1] = reader.traps[-1][:-1] + f", not hidden_size / num_attention_heads = {ratio}."
    return head_dim


def _kv_heads(reader: FieldReader, heads: int, gpt2: bool) -> int:
    if reader.has("num_key_value_heads"):
        kv_heads = reader.integer("num_key_value_heads")
    elif reader.raw("multi_query") is True:
        kv_heads = 1
    else:
        kv_heads = reader.integer("num_key_value_heads", required=False)  # the model type's default
        if kv_heads is None:
            kv_heads = heads
            if not gpt2:  # GPT-2 has no such field: MHA is its design, not a guess
                reader.traps.append(
                    "num_key_value_heads is not given: every query head has its own key and value "
                    "head (multi-head attention), as transformers assumes."
                )
    if kv_heads > heads or heads % kv_heads:
        raise ConfigError(f"num_attention_heads {heads} is not a multiple of num_key_value_heads {kv_heads}")
    return kv_heads


def _mla(reader: FieldReader, hidden: int, heads: int, kv_lora: int) -> AttentionPlan:
    rope = reader.integer("qk_rope_head_dim")
    nope = reader.integer("qk_nope_head_dim")
    v_head = reader.integer("v_head_dim")
    listed = reader.integer("num_key_value_heads", required=False)
    message = (
        f"Multi-head latent attention (kv_lora_rank {kv_lora}, qk_rope_head_dim {rope}): the cache holds "
        f"one {kv_lora}-dim latent plus one {rope}-dim RoPE key per layer and token, with no factor 2"
    )
    if listed:
        naive = listed * (nope + rope + v_head)  # K (nope + rope) and V per listed head
        message += (f"; the listed num_key_value_heads {listed} does not apply (in the GQA formula it "
                    f"would overstate the cache about {naive / (kv_lora + rope):.0f}x)")
    reader.traps.append(message + ".")
    q_lora = reader.integer("q_lora_rank", required=False, null_ok=True)
    params = mla_attention(
        hidden, heads, q_lora_rank=q_lora,
        kv_lora_rank=kv_lora, nope_dim=nope, rope_dim=rope, v_head_dim=v_head,
        bias=reader.boolean("attention_bias", False),
    )
    bare = params
    index_dim = reader.integer("index_head_dim", required=False, null_ok=True) or 0
    if index_dim:
        # DeepseekV32Indexer: wq_b (q_lora_rank -> index_n_heads x index_head_dim), wk (hidden ->
        # index_head_dim), k_norm (a LayerNorm: weight and bias), weights_proj (hidden -> index_n_heads).
        index_heads = reader.integer("index_n_heads")
        # vLLM 0.33.0 quantizes wq_b with the checkpoint and fuses wk and weights_proj into one
        # unquantized bf16 GEMM (wk_weights_proj, quant_config=None: "FP8 wk weights are upcasted").
        params = join(params,
                      linear(q_lora or hidden, index_heads * index_dim, module="self_attn.indexer.wq_b"),
                      linear(hidden, index_dim, module="self_attn.indexer.wk", quantizable=False),
                      norm(index_dim, "self_attn.indexer.k_norm", bias=True),
                      linear(hidden, index_heads, module="self_attn.indexer.weights_proj", quantizable=False))
        topk = reader.integer("index_topk", required=False, null_ok=True)
        reader.traps.append(
            f"DeepSeek sparse attention (index_head_dim {index_dim}, index_n_heads {index_heads}"
            + (f", index_topk {topk}" if topk else "") + f"): beside its latent, every layer caches an indexer key "
            f"per token in fp8 with one fp32 scale per 128 values ({index_dim + index_dim // 128 * 4} bytes), "
            f"whatever the KV cache's dtype; attention then reads only the top-k tokens it selects.")
    if reader.boolean("mla_use_output_gate", False):
        reader.traps.append("mla_use_output_gate is true: the MLA output gate's weights are not counted.")
    plan = AttentionPlan("mla", kv_heads=1, head_dim=0, latent_dim=kv_lora, rope_dim=rope, params=params,
                         indexer_head_dim=index_dim)
    return _indexer_types(reader, plan, bare)


#: ``indexer_types`` values: "full" owns an indexer (and caches its keys), "shared" reuses the
#: previous full layer's top-k selection and owns none (GLM-5.2's IndexShare: transformers'
#: GlmMoeDsaAttention ``skip_topk``; vllm-ascend's SFA layout caches no indexer key on such a layer,
#: vllm_ascend/core/kv_cache_interface.py. Mainline vLLM's file for it was not read here).
INDEXER_TYPES = ("full", "shared")


def _indexer_types(reader: FieldReader, plan: AttentionPlan, bare: Any) -> AttentionPlan:
    types = reader.str_list("indexer_types")
    if types is None:
        return plan
    layers = reader.integer("num_hidden_layers")
    if not plan.indexer_head_dim:
        raise ConfigError(f"{reader.label('indexer_types')} is given but the config has no indexer (index_head_dim)")
    if len(types) != layers:
        raise ConfigError(f"{reader.label('indexer_types')} lists {len(types)} layers but num_hidden_layers is {layers}")
    unknown = sorted(set(types) - set(INDEXER_TYPES))
    if unknown:
        raise ConfigError(f"{reader.label('indexer_types')} has a value this calculator does not model: {unknown[0]!r} "
                          f"(known: {', '.join(INDEXER_TYPES)})")
    owned = tuple(t == "full" for t in types)
    # GLM-5.2's index_topk_freq and index_skip_topk_offset give as a rule the pattern indexer_types
    # lists layer by layer (transformers builds the list from them): read once, here.
    reader.seen("index_topk_freq", "index_skip_topk_offset")
    reader.traps.append(
        f"{reader.label('indexer_types')}: {sum(owned)} of {layers} layers own a sparse-attention indexer and "
        f"cache its keys; the {layers - sum(owned)} \"shared\" layers reuse the previous indexer's selection "
        f"and cache only their latent.")
    return replace(plan, indexer_layers=owned, params_without_indexer=bare)


#: Gemma 4's text model types (vLLM's ``Gemma4ForCausalLM``).
GEMMA4_TYPES = ("gemma4_text",)


def _without(params: Any, module: str) -> Any:
    return params.__class__([t for t in params.tensors if t.module != module])


def _gemma4_global(reader: FieldReader, hidden: int, heads: int, kv_heads: int, head_dim: int) -> GlobalGeometry | None:
    """Gemma 4's full-attention layers: ``global_head_dim`` wide, and with ``attention_k_eq_v``
    ``num_global_key_value_heads`` heads whose K projection serves as V (``Gemma4DecoderLayer``:
    ``num_kv_heads = num_global_key_value_heads`` only when k_eq_v). vLLM still caches K and V."""
    global_dim = reader.integer("global_head_dim", required=False, null_ok=True) or head_dim
    k_eq_v = reader.boolean("attention_k_eq_v", False)
    global_kv = kv_heads
    if k_eq_v:
        global_kv = reader.integer("num_global_key_value_heads", required=False, null_ok=True) or kv_heads
    if (global_dim, global_kv, k_eq_v) == (head_dim, kv_heads, False):
        return None
    if heads % global_kv:
        raise ConfigError(f"num_attention_heads {heads} is not a multiple of num_global_key_value_heads {global_kv}")
    params = gqa_attention(hidden, heads, global_kv, global_dim, qkv_bias=reader.boolean("attention_bias", False),
                           o_bias=reader.boolean("attention_bias", False), qk_norm=True)
    if k_eq_v:
        params = _without(params, "self_attn.v_proj")
    reader.traps.append(
        f"Gemma 4's full-attention layers have their own geometry: {global_kv} KV heads x {global_dim} "
        f"(global_head_dim" + (", num_global_key_value_heads, attention_k_eq_v: K serves as V, no v_proj"
                               if k_eq_v else "") +
        f"), against {kv_heads} x {head_dim} on the sliding layers; vLLM caches K and V apart on both.")
    return GlobalGeometry(global_kv, global_dim, k_eq_v, params)


def _deepseek_v4(reader: FieldReader, layers: int) -> CompressedPlan:
    ratios = reader.int_list("compress_ratios")
    if ratios is None:
        raise ConfigError(f"missing field {reader.label('compress_ratios')}: DeepSeek-V4 compresses its cache per layer")
    if len(ratios) < layers:
        raise ConfigError(f"{reader.label('compress_ratios')} lists {len(ratios)} layers but num_hidden_layers is {layers}")
    bad = sorted({r for r in ratios[:layers] if r not in (0, 1, *COMPRESS_RATIOS)})
    if bad:
        raise ConfigError(f"{reader.label('compress_ratios')} has a ratio vLLM's compressor does not take: {bad[0]} "
                          f"(it takes 0, {', '.join(map(str, COMPRESS_RATIOS))})")
    window = reader.integer("sliding_window")
    index_dim = reader.integer("index_head_dim", required=False, null_ok=True) or 0
    main = ratios[:layers]
    c4, c128 = main.count(4), main.count(128)
    reader.traps.append(
        f"DeepSeek-V4's compressed sparse attention (compress_ratios): every layer caches a {window}-token "
        f"window; {c4} layers also cache one entry per 4 tokens with an indexer key ({index_dim} dims), {c128} "
        f"one entry per 128 tokens, {layers - c4 - c128} only the window; each compressor keeps an fp32 state "
        f"per sequence. vLLM caches it in fp8 only (fp8_ds_mla, 584 bytes a token or entry).")
    return CompressedPlan(tuple(main), window, index_dim)


def read_attention(reader: FieldReader, hidden: int, heads: int, gpt2: bool) -> AttentionPlan:
    kv_lora = reader.integer("kv_lora_rank", required=False, null_ok=True)
    if kv_lora:
        return _mla(reader, hidden, heads, kv_lora)
    plan = _read_gqa(reader, hidden, heads, gpt2)
    if reader.model_type in GEMMA4_TYPES:
        return replace(plan, global_geometry=_gemma4_global(reader, hidden, heads, plan.kv_heads, plan.head_dim))
    from .window_geometry import WINDOW_GEOMETRY_TYPES, window_geometry_plan  # it builds on this module's plan
    if reader.model_type in WINDOW_GEOMETRY_TYPES:
        return window_geometry_plan(reader, hidden, heads, plan)
    from .block_sparse_attention import BLOCK_SPARSE_TYPES, read_sparse_attention
    if reader.model_type in BLOCK_SPARSE_TYPES:
        sparse = read_sparse_attention(reader, hidden, plan.kv_heads, plan.head_dim,
                                       reader.integer("num_hidden_layers"))
        # the sparse layers' attention weights add the index projections; the dense layers' do not
        return replace(plan, sparse=sparse, params=join(plan.params, sparse.params), indexer_layers=sparse.layers,
                       params_without_indexer=plan.params)
    if reader.model_type == "deepseek_v4":
        compressed = _deepseek_v4(reader, reader.integer("num_hidden_layers"))
        return replace(plan, kind="csa", rope_dim=reader.integer("qk_rope_head_dim"), compressed=compressed)
    return plan


def _read_gqa(reader: FieldReader, hidden: int, heads: int, gpt2: bool) -> AttentionPlan:
    head_dim = _head_dim(reader, hidden, heads)
    kv_heads = _kv_heads(reader, heads, gpt2)
    kind = "mha" if kv_heads == heads else "mqa" if kv_heads == 1 else "gqa"
    model_type = reader.model_type
    if gpt2:
        params = gqa_attention(hidden, heads, kv_heads, head_dim, qkv_bias=True, o_bias=True)
    else:
        bias = reader.boolean("attention_bias", False)
        qkv_only = model_type in QKV_BIAS_TYPES
        if qkv_only:
            reader.traps.append(
                f"{model_type} puts biases on the q, k and v projections (not o); the config does not list them."
            )
        # GLM-4.5's attention_bias covers q, k and v only (Glm4MoeAttention: o_proj bias=False).
        glm = model_type == "glm4_moe"
        params = gqa_attention(
            hidden, heads, kv_heads, head_dim, qkv_bias=bias or qkv_only, o_bias=bias and not (qkv_only or glm),
            qk_norm=model_type in QK_NORM_TYPES or (glm and reader.boolean("use_qk_norm", False)),
            sinks=model_type == "gpt_oss",
        )
        if model_type in GATED_OUTPUT_TYPES or (model_type.startswith("qwen3_5") and reader.boolean("attn_output_gate", True)):
            # the gate half of q_proj (stored in the same tensor, split with it by heads)
            params = join(params, linear(hidden, heads * head_dim, module="self_attn.q_proj", split=COLUMN))
            reader.traps.append(
                "Gated attention: q_proj also produces an output gate (twice num_attention_heads x head_dim "
                "wide); the cache is unchanged.")
        if model_type == "minimax_m2" and reader.boolean("use_qk_norm", False):
            # MiniMaxM2Attention: qk_norm_type "per_layer" is one RMSNorm over all query heads and one
            # over all KV heads; "per_head" one of head_dim each.
            per_layer = reader.raw("qk_norm_type") != "per_head"
            widths = ((heads * head_dim, kv_heads * head_dim) if per_layer else (head_dim, head_dim))
            params = join(params, norm(widths[0], "self_attn.q_norm"), norm(widths[1], "self_attn.k_norm"))
    return AttentionPlan(kind, kv_heads=kv_heads, head_dim=head_dim, latent_dim=0, rope_dim=0, params=params)
