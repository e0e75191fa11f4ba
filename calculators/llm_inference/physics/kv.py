"""How many bytes the KV cache holds: per token and layer, per token, per sequence — and the fixed
state a hybrid model's recurrent layers keep per sequence.

Every figure here is a sum over the model's layers, each asked through its spec
(llm_inference.models.layer_specs: full, sliding, chunked, latent, compressed, linear-attention,
state-space); the textbook forms they give are

    GQA:  2 × kv_heads × (head_dim values + the layout's scales)       per layer and token
    MLA:  latent_dim + rope_dim values (+ scales), one vector shared by K and V (no factor 2),
          plus DeepSeek sparse attention's fp8 indexer key where the layer has an indexer

Windowed layers (sliding window, chunked local attention) keep at most ``window`` tokens of a
sequence; full layers all of them; DeepSeek-V4's compressed layers a window plus one entry per
``compress_ratio`` tokens; linear-attention and state-space layers none: they keep one fixed
state per sequence (:func:`state_bytes_per_sequence`), as large at 10 tokens as at a million.
These are the textbook sizes of the chapter; how an engine reserves and places them is
:mod:`.placement`, :mod:`.budget` and :mod:`.cache_layout`.

A :class:`.model.Model` built from plain fields has one attention geometry; :func:`layer_specs`
turns those fields into specs. A model whose layers differ carries its specs (``Model.layer_specs``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache

from ..engines import vllm_kv_dtypes
from ..models import layer_specs as ls
from ..models.shape import RecurrentState
from .model import CHUNKED, Model

#: Activations (and the conv state, which follows them) are in the model's dtype: bf16.
MODEL_DTYPE_BYTES = 2


def _state(model: Model) -> RecurrentState | None:
    m = model.state
    if m is None:
        return None
    return RecurrentState(mixer=m.kind, heads=m.heads, head_dim=m.head_dim, state_dim=m.state_dim,
                          conv_channels=m.conv_channels, groups=m.groups, conv_kernel=m.conv_kernel,
                          ssm_dtype=model.ssm_dtype, chunk_size=model.mamba_chunk)


@lru_cache(maxsize=512)
def _from_fields(model: Model) -> tuple[ls.LayerSpec, ...]:
    if model.is_mla:
        attention: ls.LayerSpec = ls.LatentAttention(latent_dim=model.latent_dim, rope_dim=model.rope_dim,
                                                     indexer_dim=model.indexer_dim)
        windowed = attention
    else:
        attention = ls.FullAttention(kv_heads=model.kv_heads, head_dim=model.head_dim)
        kind = ls.ChunkedLocal if model.window_kind == CHUNKED else ls.SlidingWindow
        windowed = kind(kv_heads=model.kv_heads, head_dim=model.head_dim, size=model.window)
    state = _state(model) if model.is_hybrid else None
    free = model.layers - model.kv_layers
    specs: list[ls.LayerSpec] = [windowed] * model.windowed_layers + [attention] * model.full_layers
    if state is not None and model.state_layers > free:  # Falcon-H1: the mixer beside the attention
        specs = [ls.ParallelMixers(attention=s, mixer=ls.recurrent(state)) for s in specs]
    recurrent = min(free, model.state_layers) if state is not None else 0
    if recurrent:
        specs += [ls.recurrent(state)] * recurrent
    specs += [ls.NoCache()] * (free - recurrent)
    return tuple(specs)


def layer_specs(model: Model) -> tuple[ls.LayerSpec, ...]:
    """One spec per layer: the model's own, or those its fields describe."""
    return model.layer_specs or _from_fields(model)


@lru_cache(maxsize=512)
def _grouped(specs: tuple) -> tuple[tuple[ls.LayerSpec, int], ...]:
    return tuple(Counter(specs).items())


def _groups(model: Model) -> tuple[tuple[ls.LayerSpec, int], ...]:
    return _grouped(layer_specs(model))


def _kv_groups(model: Model):
    return tuple((s, n) for s, n in _groups(model) if s.caches_kv)


def _with_heads(spec: ls.LayerSpec, kv_heads: int) -> ls.LayerSpec:
    if isinstance(spec, ls.ParallelMixers):
        return replace(spec, attention=_with_heads(spec.attention, kv_heads))
    return replace(spec, kv_heads=kv_heads) if isinstance(spec, ls.FullAttention) else spec


def stored_kv_dtype(model: Model, kv_dtype: str, version: str = "0.33.0", cc: tuple[int, int] | None = (9, 0),
                    tensor_parallel: int = 1) -> str:
    """The layout vLLM stores for ``kv_dtype`` on this model, on a GPU of compute capability ``cc`` with the
    model's heads split over ``tensor_parallel``: on a sparse-MLA model (a layer with DeepSeek sparse
    attention's indexer) fp8 becomes ``fp8_ds_mla`` where FlashMLA's sparse kernels serve it
    (:func:`..engines.vllm_kv_dtypes.stored_kv_dtype`); otherwise ``kv_dtype`` itself."""
    sparse = any(isinstance(s, ls.LatentAttention) and s.indexer_dim for s, _ in _kv_groups(model))
    return vllm_kv_dtypes.stored_kv_dtype(kv_dtype, sparse_mla=sparse, version=version, cc=cc,
                                          heads_per_gpu=model.heads // max(1, tensor_parallel))


def layer_bytes_per_token(model: Model, kv_dtype: str, kv_heads: int | None = None,
                          tensor_parallel: int = 1) -> float:
    """Bytes one token adds to one KV layer's cache on one GPU; ``kv_heads`` overrides the model's
    KV heads (one TP rank's share of a one-geometry model), ``tensor_parallel`` splits each
    layer's heads as vLLM does. For a model whose layers differ: the mean over its KV layers (their
    total is :func:`bytes_per_token`)."""
    groups = _kv_groups(model)
    layers = sum(n for _, n in groups)
    if not layers:
        return 0.0
    total = 0.0
    for spec, n in groups:
        if kv_heads is not None:
            spec = _with_heads(spec, kv_heads)
        total += n * spec.bytes_per_token(kv_dtype, tensor_parallel)
    return total / layers


def layer_bytes_on(model: Model, kv_dtype: str, placement) -> float:
    """:func:`layer_bytes_per_token` on one GPU of ``placement`` (a physics.placement.Placement).

    A one-geometry model's GPU caches ``placement.kv_heads_per_gpu`` heads a layer; a model whose
    layers differ (Gemma 4's 16 × 256 sliding and 4 × 512 global layers) splits each layer's own
    heads over the attention's tensor-parallel ranks, as vLLM shards each layer apart."""
    if model.layer_specs:
        return layer_bytes_per_token(model, kv_dtype, tensor_parallel=placement.tensor_parallel)
    return layer_bytes_per_token(model, kv_dtype, placement.kv_heads_per_gpu)


def token_bytes_on(model: Model, kv_dtype: str, placement, kv_layers: int) -> float:
    """KV bytes one token adds on one GPU of ``placement`` that caches ``kv_layers`` of the model's KV
    layers (windows ignored): :func:`layer_bytes_on` times the layers, summed spec by spec for a
    model whose layers differ (no mean rounded off)."""
    if not model.layer_specs:
        return layer_bytes_on(model, kv_dtype, placement) * kv_layers
    total = sum(n for _, n in _kv_groups(model))
    if not total:
        return 0.0
    whole = bytes_per_token(model, kv_dtype, placement.tensor_parallel)
    return whole if kv_layers == total else whole * kv_layers / total


def sequence_bytes_on(model: Model, kv_dtype: str, placement, context: float, kv_layers: int) -> float:
    """KV bytes one sequence of ``context`` tokens holds on one GPU of ``placement`` that caches
    ``kv_layers`` of the model's KV layers, each layer by its spec (a window stops at its window,
    a compressed layer keeps its window and one entry per ratio): the model's sequence bytes in the
    proportion of its KV layers the GPU holds."""
    total = sum(n for _, n in _kv_groups(model))
    if not total:
        return 0.0
    return bytes_per_sequence(model, kv_dtype, context, placement.tensor_parallel) * kv_layers / total


def read_bytes_on(model: Model, kv_dtype: str, placement, context: float, kv_layers: int) -> float:
    """What one decode step reads of one sequence's cache on one GPU of ``placement`` (as
    :func:`sequence_bytes_on` holds it, each layer by its spec's ``read_bytes_per_sequence``)."""
    total = sum(n for _, n in _kv_groups(model))
    if not total:
        return 0.0
    return read_bytes_per_sequence(model, kv_dtype, context, placement.tensor_parallel) * kv_layers / total


def read_bytes_per_sequence(model: Model, kv_dtype: str, context: float, tensor_parallel: int = 1) -> float:
    """What one decode step reads of one sequence's cache: what it holds, but for the layers that
    read selected blocks only (MiniMax-M3's sparse layers)."""
    return sum(n * s.read_bytes_per_sequence(context, kv_dtype, tensor_parallel) for s, n in _kv_groups(model))


def bytes_per_token(model: Model, kv_dtype: str, tensor_parallel: int = 1) -> float:
    """Bytes one token adds to the whole model's cache: every KV layer, windows ignored (the
    chapter's formula); recurrent layers add nothing per token."""
    return sum(n * s.bytes_per_token(kv_dtype, tensor_parallel) for s, n in _kv_groups(model))


def bytes_per_sequence(model: Model, kv_dtype: str, context: float, tensor_parallel: int = 1) -> float:
    """Keys and values of one sequence of ``context`` tokens, each layer by its kind (windowed
    layers stop at the window). (The recurrent state is apart: :func:`state_bytes_per_sequence`.)"""
    return sum(n * s.bytes_per_sequence(context, kv_dtype, tensor_parallel) for s, n in _kv_groups(model))


def state_layer_bytes(model: Model, tensor_parallel: int = 1, version: str = "0.33.0") -> int:
    """One sequence's recurrent state in one layer on one TP rank (vLLM's state page, unpadded)."""
    if not model.is_hybrid:
        return 0
    return ls.recurrent(_state(model)).state_bytes(tensor_parallel, version=version,
                                                   model_dtype_bytes=MODEL_DTYPE_BYTES)


def state_bytes_per_sequence(model: Model, version: str = "0.33.0") -> int:
    """The fixed state one sequence holds over all layers, whatever its length: the recurrent
    layers' short-convolution window and SSM / linear-attention state, DeepSeek-V4's compressor
    state (one GPU, no padding)."""
    return sum(n * s.state_bytes(1, version=version, model_dtype_bytes=MODEL_DTYPE_BYTES)
               for s, n in _groups(model))


def longest_context(model: Model, kv_dtype: str, budget: float, cap: int) -> int:
    """The most tokens one sequence can hold within ``budget`` bytes (the inverse of
    :func:`bytes_per_sequence`), at most ``cap``. The fixed state comes off the budget first.
    Every layer's cache grows with the context (or stops), so the largest context that fits is
    found by bisection."""
    budget -= state_bytes_per_sequence(model)
    if budget <= 0:
        return 0
    if bytes_per_sequence(model, kv_dtype, cap) <= budget:
        return cap
    lo, hi = 0, cap  # bytes(lo) fits, bytes(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if bytes_per_sequence(model, kv_dtype, mid) <= budget:
            lo = mid
        else:
            hi = mid
    return lo
