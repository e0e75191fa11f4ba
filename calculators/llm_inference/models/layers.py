"""Which layers attend fully, which through a sliding window, which within chunks.

The config rarely says it layer by layer. Each family has its own rule, and the rules below are
transformers' (the code that defines what a published config means):

* ``layer_types`` when given (gpt-oss, newer exports of every family) is authoritative.
* Gemma 2: layer i slides when ``(i + 1) % 2`` (even layers windowed, odd layers full).
* Gemma 3: layer i slides when ``(i + 1) % sliding_window_pattern`` (default 6): five local
  layers per global one.
* Llama 4: ``no_rope_layers[i] == 1`` (RoPE) means chunked local attention of
  ``attention_chunk_size``; 0 (NoPE) means global. An empty or missing list is derived from
  ``no_rope_layer_interval`` (default 4): every fourth layer global.
* Qwen (``use_sliding_window``): the window is off unless switched on; when on, layers from index
  ``max_window_layers`` up slide.
* DeepSeek-V4: ``compress_ratios``, one per layer (:mod:`.compressed_attention`).
* Anything else with a ``sliding_window`` (Mistral-7B v0.1, Phi-3): every layer slides.

:func:`layer_specs` then gives each layer its spec (:mod:`.layer_specs`): the attention plan's
geometry for its kind, Gemma 4's global geometry on its full layers, the indexer where GLM-5.2
keeps it, nothing for the layers that read an earlier layer's cache (``num_kv_shared_layers``).
"""

from __future__ import annotations

from typing import Any

from . import layer_specs as ls
from .block_sparse_attention import sparse_layer
from .compressed_attention import compressed_stack
from .errors import ConfigError
from .fields import FieldReader
from .layer_specs import CHUNKED, FULL, SLIDING, LayerSpec
from .window_geometry import WINDOW_GEOMETRY_TYPES, hybrid_window_kinds

_TYPE_NAMES = {
    "full_attention": FULL,
    "global": FULL,
    "sliding_attention": SLIDING,
    "local": SLIDING,
    "chunked_attention": CHUNKED,
}


#: ``layer_types`` values that name the sparse attention a family's own rule gives every layer, by the
#: model types that may say them. NVIDIA's GLM-5.2-NVFP4 lists "deepseek_sparse_attention" for all 78
#: layers; vLLM does not read ``layer_types`` for these families: deepseek_v2.py (which serves
#: GlmMoeDsaForCausalLM) makes every layer DeepSeek sparse attention when the config has
#: ``index_topk`` (``self.is_v32 = hasattr(config, "index_topk")``), the indexer per ``indexer_types``.
_FAMILY_ATTENTION = {"deepseek_sparse_attention": ("glm_moe_dsa", "deepseek_v32")}


def _family_attention(reader: FieldReader, layers: int, types: list[str]) -> bool:
    """Whether ``layer_types`` only restates the family's attention on every layer."""
    if len(types) != layers or len(set(types)) != 1:
        return False
    families = _FAMILY_ATTENTION.get(types[0], ())
    if reader.model_type not in families or not reader.has("index_topk"):
        return False
    reader.traps.append(
        f"{reader.label('layer_types')} names every layer {types[0]!r}: the model's DeepSeek sparse attention "
        f"(MLA with the indexer index_topk sets), which vLLM gives every layer whatever layer_types says; "
        f"each layer attends to the whole context.")
    return True


def _window(reader: FieldReader, why: str) -> int:
    window = reader.integer("sliding_window", required=False, null_ok=True)
    if window is None and reader.has("sliding_window_size"):  # mlc-style Gemma 2 exports
        window = reader.integer("sliding_window_size")
    if not window:
        raise ConfigError(f"{reader.label('sliding_window')} is missing or null, but {why}")
    return window


def _chunk(reader: FieldReader, why: str) -> int:
    chunk = reader.integer("attention_chunk_size", required=False, null_ok=True)
    if not chunk:
        raise ConfigError(f"{reader.label('attention_chunk_size')} is missing or null, but {why}")
    return chunk


def _from_layer_types(reader: FieldReader, layers: int, types: list[str]) -> list[tuple[str, int]]:
    if len(types) != layers:
        raise ConfigError(
            f"{reader.label('layer_types')} lists {len(types)} layers but num_hidden_layers is {layers}"
        )
    unknown = sorted({t for t in types if t not in _TYPE_NAMES})
    if unknown:
        raise ConfigError(
            f"{reader.label('layer_types')} has a layer kind this calculator does not model: {unknown[0]!r} "
            f"(known: {', '.join(sorted(_TYPE_NAMES))})"
        )
    kinds = [_TYPE_NAMES[t] for t in types]
    window = _window(reader, "layer_types lists sliding layers") if SLIDING in kinds else 0
    chunk = _chunk(reader, "layer_types lists chunked layers") if CHUNKED in kinds else 0
    counts = ", ".join(f"{kinds.count(k)} {k}" for k in (FULL, SLIDING, CHUNKED) if k in kinds)
    sizes = ", ".join(
        f"{k} {size} tokens" for k, size in ((SLIDING, window), (CHUNKED, chunk)) if k in kinds
    )
    reader.traps.append(
        f"{reader.label('layer_types')} gives each layer's attention: {counts}"
        + (f" ({sizes}); windowed and chunked layers cache at most that many tokens." if sizes else ".")
    )
    return [(k, window if k == SLIDING else chunk if k == CHUNKED else 0) for k in kinds]


def _gemma2(reader: FieldReader, layers: int) -> list[tuple[str, int]]:
    window = _window(reader, "Gemma 2 alternates windowed and full layers")
    reader.traps.append(
        f"Gemma 2 alternates: layers 0, 2, 4, ... use a {window}-token sliding window and layers "
        f"1, 3, 5, ... attend fully (transformers' rule; the config gives only the window)."
    )
    return [(SLIDING, window) if (i + 1) % 2 else (FULL, 0) for i in range(layers)]


def _gemma3(reader: FieldReader, layers: int) -> list[tuple[str, int]]:
    window = _window(reader, "Gemma 3 has sliding-window layers")
    pattern = reader.integer("sliding_window_pattern")
    if pattern < 1:
        raise ConfigError(f"{reader.label('sliding_window_pattern')} must be at least 1, got {pattern}")
    kinds = [(SLIDING, window) if (i + 1) % pattern else (FULL, 0) for i in range(layers)]
    local = sum(1 for k, _ in kinds if k == SLIDING)
    reader.traps.append(
        f"Gemma 3 interleaves {pattern - 1} local layers ({window}-token sliding window) per global "
        f"one: layer i is global when i + 1 is a multiple of sliding_window_pattern {pattern} "
        f"({local} local, {layers - local} global layers)."
    )
    return kinds


def _llama4(reader: FieldReader, layers: int) -> list[tuple[str, int]]:
    chunk = reader.integer("attention_chunk_size", required=False, null_ok=True)
    flags = reader.int_list("no_rope_layers")
    if flags:
        if len(flags) < layers:
            raise ConfigError(
                f"{reader.label('no_rope_layers')} lists {len(flags)} layers but num_hidden_layers is {layers}"
            )
        source = "no_rope_layers (1 = RoPE, chunked; 0 = NoPE, global)"
    else:
        interval = reader.integer("no_rope_layer_interval")
        if interval < 1:
            raise ConfigError(f"{reader.label('no_rope_layer_interval')} must be at least 1, got {interval}")
        flags = [int((i + 1) % interval != 0) for i in range(layers)]
        said = "is empty" if reader.int_list("no_rope_layers") == [] else "is not given"
        source = (
            f"no_rope_layers {said}, so transformers derives it from no_rope_layer_interval "
            f"{interval}: every {interval}th layer is a global NoPE layer"
        )
    if not chunk:
        reader.traps.append(f"Llama 4 without attention_chunk_size: every layer attends globally ({source}).")
        return [(FULL, 0)] * layers
    kinds = [(CHUNKED, chunk) if flags[i] else (FULL, 0) for i in range(layers)]
    chunked = sum(1 for k, _ in kinds if k == CHUNKED)
    reader.traps.append(
        f"Llama 4 uses chunked local attention ({chunk}-token chunks) on {chunked} of {layers} layers "
        f"and global attention on the other {layers - chunked}: {source}."
    )
    return kinds


def _qwen(reader: FieldReader, layers: int) -> list[tuple[str, int]]:
    on = reader.boolean("use_sliding_window", default=False)
    window = reader.integer("sliding_window", required=False, null_ok=True)
    if not on:
        if window:
            reader.traps.append(
                f"{reader.label('sliding_window')} is {window} but use_sliding_window is false: the "
                f"window is switched off and every layer attends fully."
            )
        return [(FULL, 0)] * layers
    if not window:
        raise ConfigError(f"{reader.label('use_sliding_window')} is true but sliding_window is missing or null")
    first = reader.integer("max_window_layers", default=0)
    kinds = [(SLIDING, window) if i >= first else (FULL, 0) for i in range(layers)]
    reader.traps.append(
        f"use_sliding_window is true: layers {first} to {layers - 1} use the {window}-token window and "
        f"the first {min(first, layers)} attend fully (transformers' Qwen rule: windowed from index "
        f"max_window_layers up)."
    )
    return kinds


def _uniform_window(reader: FieldReader, layers: int) -> list[tuple[str, int]]:
    window = reader.integer("sliding_window", required=False, null_ok=True)
    if not window:
        return [(FULL, 0)] * layers
    reader.traps.append(
        f"{reader.label('sliding_window')} {window} applies to every layer: each caches at most {window} "
        f"tokens of keys and values."
    )
    return [(SLIDING, window)] * layers


def layer_kinds(reader: FieldReader, layers: int) -> tuple[tuple[str, int], ...]:
    """One (kind, size) per layer, following the model family's rule (see the module docstring)."""
    types = reader.str_list("layer_types")
    model_type = reader.model_type
    if model_type == "deepseek_v4":
        ratios = reader.int_list("compress_ratios") or []
        kinds = [("compressed", r if r > 1 else 0) for r in ratios[:layers]]
    elif model_type in WINDOW_GEOMETRY_TYPES:
        kinds = hybrid_window_kinds(reader, layers)
    elif types is not None and _family_attention(reader, layers, types):
        kinds = [(FULL, 0)] * layers
    elif types is not None:
        kinds = _from_layer_types(reader, layers, types)
    elif model_type == "gemma2":
        kinds = _gemma2(reader, layers)
    elif model_type == "gemma3_text":
        kinds = _gemma3(reader, layers)
    elif model_type == "llama4_text":
        kinds = _llama4(reader, layers)
    elif reader.has("use_sliding_window") or model_type.startswith("qwen"):
        kinds = _qwen(reader, layers)
    else:
        kinds = _uniform_window(reader, layers)
    return tuple(kinds)


def _kv_shared(reader: FieldReader, layers: int) -> int:
    """The first layer that reads an earlier layer's cache (Gemma's ``num_kv_shared_layers``:
    vLLM's ``kv_sharing_target_layer_name``, the last unshared layer of the same kind), or
    ``layers`` when none does."""
    shared = reader.integer("num_kv_shared_layers", required=False, null_ok=True) or 0
    if not shared:
        return layers
    if shared >= layers:
        raise ConfigError(f"{reader.label('num_kv_shared_layers')} {shared} leaves no layer with a cache of its own "
                          f"({layers} layers)")
    reader.traps.append(
        f"{reader.label('num_kv_shared_layers')} {shared}: the last {shared} layers read the cache of the last "
        f"earlier layer of their kind and cache nothing themselves.")
    return layers - shared


def layer_specs(reader: FieldReader, plan: Any, kinds, *, state: Any = None,
                state_layers: int = 0) -> tuple[LayerSpec, ...]:
    """One spec per layer from the attention plan (:class:`.attention.AttentionPlan`) and the
    ``(kind, size)`` of each layer."""
    layers = len(kinds)
    if plan.compressed is not None:
        c = plan.compressed
        return compressed_stack(c.ratios, layers, head_dim=plan.head_dim, rope_dim=plan.rope_dim,
                                sliding_window=c.sliding_window, indexer_dim=c.indexer_dim)
    specs = list(ls.from_kinds(kinds, mla=plan.kind == "mla", kv_heads=plan.kv_heads, head_dim=plan.head_dim,
                               latent_dim=plan.latent_dim, rope_dim=plan.rope_dim,
                               indexer_dim=plan.indexer_head_dim, state=state, state_layers=state_layers))
    g, w = plan.global_geometry, plan.window_geometry
    owned = plan.indexer_layers
    first_shared = _kv_shared(reader, layers)
    for i, spec in enumerate(specs):
        if i >= first_shared and spec.caches_kv:
            specs[i] = ls.NoCache(why="reads an earlier layer's cache")
        elif g is not None and type(spec) is ls.FullAttention:
            specs[i] = ls.FullAttention(kv_heads=g.kv_heads, head_dim=g.head_dim, head_dim_v=g.head_dim_v,
                                        k_eq_v=g.k_eq_v)
        elif w is not None and type(spec) is ls.SlidingWindow:
            specs[i] = ls.SlidingWindow(kv_heads=w.kv_heads, head_dim=w.head_dim, head_dim_v=w.head_dim_v,
                                        size=spec.size)
        elif plan.sparse is not None and type(spec) is ls.FullAttention and plan.sparse.layers[i]:
            specs[i] = sparse_layer(spec, plan.sparse)
        elif owned is not None and isinstance(spec, ls.LatentAttention) and not owned[i]:
            specs[i] = ls.LatentAttention(latent_dim=spec.latent_dim, rope_dim=spec.rope_dim)
    return tuple(specs)
