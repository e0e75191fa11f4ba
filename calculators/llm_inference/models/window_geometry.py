"""Sliding-window layers with an attention geometry of their own: MiMo-V2-Flash.

vLLM's ``MiMoV2FlashDecoderLayer`` (vllm/model_executor/models/mimo_v2_flash.py, read 2026-12)
builds a layer's ``MiMoV2Attention`` from ``hybrid_layer_pattern[layer]``: 1 is a sliding-window
layer with the ``swa_*`` geometry (``swa_num_attention_heads``, ``swa_num_key_value_heads``,
``swa_head_dim``, ``swa_v_head_dim``) and a ``sliding_window_size``-token window; 0 a full layer
with the main one (``num_key_value_heads``, ``head_dim``, ``v_head_dim``). Keys and values differ
in width (K ``head_dim``, V ``v_head_dim``): the layer passes ``head_size_v`` to ``Attention`` and
runs ``FlashAttentionDiffKVBackend``, so a token costs kv_heads × (head_dim + v_head_dim) cache
elements. The sliding layers add one learned sink logit per query head with
``add_swa_attention_sink_bias`` (``attention_sink_bias``), the full ones with
``add_full_attention_sink_bias``.

The plan's ``global_geometry`` carries the full layers' geometry and ``window_geometry`` the
sliding layers'; :func:`.layers.layer_specs` gives each layer its spec from them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .attention import AttentionPlan, GlobalGeometry
from .errors import ConfigError
from .fields import FieldReader
from .layer_specs import FULL, SLIDING
from .params import COLUMN, KV_HEADS, NORMS_BIASES, ROW, Params, Tensor, join, linear

#: Model types whose sliding layers have their own geometry, read here.
WINDOW_GEOMETRY_TYPES = ("mimo_v2_flash",)


def _diff_kv_attention(hidden: int, heads: int, kv_heads: int, k_dim: int, v_dim: int, *, bias: bool,
                       sinks: bool) -> Params:
    """MiMoV2Attention's weights: qkv_proj (q and k ``k_dim`` wide per head, v ``v_dim``: its
    ``v_head_size``), o_proj from heads × ``v_dim``, and the per-head sink logits."""
    parts = [
        linear(hidden, heads * k_dim, bias, module="self_attn.q_proj", split=COLUMN),
        linear(hidden, kv_heads * k_dim, bias, module="self_attn.k_proj", split=KV_HEADS, head_dim=k_dim),
        linear(hidden, kv_heads * v_dim, bias, module="self_attn.v_proj", split=KV_HEADS, head_dim=v_dim),
        linear(heads * v_dim, hidden, module="self_attn.o_proj", split=ROW),  # bias=False in vLLM
    ]
    if sinks:
        parts.append(Params([Tensor(NORMS_BIASES, "self_attn.attention_sink_bias", (heads,), COLUMN, param="sinks")]))
    return join(*parts)


def _geometry(reader: FieldReader, hidden: int, prefix: str, heads_default: int, sinks: bool) -> GlobalGeometry:
    heads = reader.integer(f"{prefix}num_attention_heads", required=not prefix, default=heads_default)
    kv_heads = reader.integer(f"{prefix}num_key_value_heads")
    k_dim = reader.integer(f"{prefix}head_dim")
    v_dim = reader.integer(f"{prefix}v_head_dim", required=False, null_ok=True) or k_dim
    if heads % kv_heads:
        raise ConfigError(f"{reader.label(prefix + 'num_attention_heads')} {heads} is not a multiple of "
                          f"{prefix}num_key_value_heads {kv_heads}")
    params = _diff_kv_attention(hidden, heads, kv_heads, k_dim, v_dim, bias=reader.boolean("attention_bias", False),
                                sinks=sinks)
    return GlobalGeometry(kv_heads, k_dim, False, params, head_dim_v=v_dim if v_dim != k_dim else 0)


def window_geometry_plan(reader: FieldReader, hidden: int, heads: int, plan: AttentionPlan) -> AttentionPlan:
    """The attention plan of a MiMo-V2-Flash config: the full layers' geometry and the sliding
    layers' own (``swa_*``), each with V's width."""
    full = _geometry(reader, hidden, "", heads, reader.boolean("add_full_attention_sink_bias", False))
    window = _geometry(reader, hidden, "swa_", heads, reader.boolean("add_swa_attention_sink_bias", False))
    v = full.head_dim_v or full.head_dim
    sv = window.head_dim_v or window.head_dim
    reader.traps.append(
        f"MiMo-V2-Flash's attention has two geometries: full layers {full.kv_heads} KV heads × (K {full.head_dim} + "
        f"V {v}), sliding-window layers {window.kv_heads} × (K {window.head_dim} + V {sv}) (swa_*); values are "
        f"narrower than keys (v_head_dim), cached so by vLLM's FlashAttentionDiffKVBackend.")
    return replace(plan, kv_heads=full.kv_heads, head_dim=full.head_dim, params=full.params,
                   global_geometry=full, window_geometry=window)


def hybrid_window_kinds(reader: FieldReader, layers: int) -> list[tuple[str, int]]:
    """One (kind, size) per layer from ``hybrid_layer_pattern`` (1 = sliding window, 0 = full)."""
    pattern = reader.int_list("hybrid_layer_pattern")
    if pattern is None:
        raise ConfigError(f"missing field {reader.label('hybrid_layer_pattern')}: MiMo-V2-Flash marks each layer "
                          f"full (0) or sliding-window (1)")
    if len(pattern) != layers:
        raise ConfigError(f"{reader.label('hybrid_layer_pattern')} lists {len(pattern)} layers but "
                          f"num_hidden_layers is {layers}")
    if set(pattern) - {0, 1}:
        raise ConfigError(f"{reader.label('hybrid_layer_pattern')} must give 0 (full) or 1 (sliding window) per layer")
    window = reader.integer("sliding_window_size")
    other = reader.integer("sliding_window", required=False, null_ok=True)
    if other is not None and other != window:
        raise ConfigError(f"{reader.label('sliding_window')} {other} and sliding_window_size {window} differ: vLLM's "
                          f"mimo_v2_flash.py windows its layers by sliding_window_size, but which one a reader meant "
                          f"is not known here")
    chunk = reader.peek("attention_chunk_size")
    if chunk is not None:
        reader.seen("attention_chunk_size")
        reader.traps.append(f"{reader.label('attention_chunk_size')} {chunk} is not read by vLLM's mimo_v2_flash.py: "
                            f"its layers are full or windowed, none chunked.")
    sliding = sum(pattern)
    reader.traps.append(
        f"{reader.label('hybrid_layer_pattern')}: {sliding} sliding-window layers ({window} tokens) and "
        f"{layers - sliding} full-attention layers.")
    return [(SLIDING, window) if p else (FULL, 0) for p in pattern]
