"""How many bytes the KV cache holds: per token and layer, per token, per sequence — and the fixed
state a hybrid model's recurrent layers keep per sequence.

Per layer and token, grouped-query attention stores one key and one value vector per KV head;
multi-head latent attention (MLA) one latent plus a RoPE key, shared by K and V (no factor 2):

    GQA:  2 × kv_heads × (head_dim values + the layout's scales)
    MLA:  latent_dim + rope_dim values (+ scales)            — :mod:`.precision`

DeepSeek-V3.2 caches beside each layer's latent an indexer key (fp8, a scale per 128 values:
engines.vllm_hybrid.indexer_bytes_per_token) whatever the KV dtype. Windowed layers (sliding
window, chunked local attention) keep at most ``window`` tokens of a sequence; full layers all of
them; linear-attention and state-space layers none: they keep one fixed state per sequence
(:func:`state_bytes_per_sequence`), as large at 10 tokens as at a million. These are the textbook
sizes of the chapter; how an engine reserves and places them is :mod:`.placement`, :mod:`.budget`
and :mod:`.cache_layout`.
"""

from __future__ import annotations

from ..engines import vllm_hybrid
from .model import Model
from .precision import kv_vector_bytes, mla_latent_bytes

#: Activations (and the conv state, which follows them) are in the model's dtype: bf16.
MODEL_DTYPE_BYTES = 2


def layer_bytes_per_token(model: Model, kv_dtype: str, kv_heads: int | None = None) -> float:
    """Bytes one token adds to one KV layer's cache; ``kv_heads`` overrides the model's (one TP
    rank's share). An MLA latent is one vector whatever the head counts; DeepSeek-V3.2's indexer
    key is added to it."""
    if model.is_mla:
        return (mla_latent_bytes(model.latent_dim, model.rope_dim, kv_dtype)
                + vllm_hybrid.indexer_bytes_per_token(model.indexer_dim))
    heads = model.kv_heads if kv_heads is None else kv_heads
    return 2 * heads * kv_vector_bytes(model.head_dim, kv_dtype)


def bytes_per_token(model: Model, kv_dtype: str) -> float:
    """Bytes one token adds to the whole model's cache: every KV layer (the chapter's formula);
    recurrent layers add nothing per token."""
    return model.kv_layers * layer_bytes_per_token(model, kv_dtype)


def bytes_per_sequence(model: Model, kv_dtype: str, context: float) -> float:
    """Keys and values of one sequence of ``context`` tokens; windowed layers stop at the window.
    (The recurrent state is apart: :func:`state_bytes_per_sequence`.)"""
    per_layer = layer_bytes_per_token(model, kv_dtype)
    windowed = min(context, model.window) if model.window else context
    return per_layer * (model.full_layers * context + model.windowed_layers * windowed)


def state_layer_bytes(model: Model, tensor_parallel: int = 1, version: str = "0.33.0") -> int:
    """One sequence's recurrent state in one layer on one TP rank (vLLM's state page, unpadded)."""
    if not model.is_hybrid:
        return 0
    return vllm_hybrid.state_bytes(model.state, tensor_parallel, model_dtype_bytes=MODEL_DTYPE_BYTES,
                                   ssm_dtype=model.ssm_dtype, version=version)


def state_bytes_per_sequence(model: Model, version: str = "0.33.0") -> int:
    """The fixed state one sequence holds over all recurrent layers, whatever its length: the
    short-convolution window and the SSM / linear-attention state (one GPU, no padding)."""
    return model.state_layers * state_layer_bytes(model, 1, version)


def longest_context(model: Model, kv_dtype: str, budget: float, cap: int) -> int:
    """The most tokens one sequence can hold within ``budget`` bytes (the inverse of the above),
    at most ``cap``. The recurrent state is fixed: it comes off the budget first."""
    budget -= state_bytes_per_sequence(model)
    if budget <= 0:
        return 0
    per_layer = layer_bytes_per_token(model, kv_dtype)
    if per_layer <= 0 or model.kv_layers == 0:
        return cap
    full, windowed = model.full_layers * per_layer, model.windowed_layers * per_layer
    if not windowed:
        return min(cap, int(budget // full))
    at_window = (full + windowed) * model.window
    if budget < at_window:
        return min(cap, int(budget // (full + windowed)))
    if full == 0:  # every layer windowed: the cache stops growing, any context fits
        return cap
    return min(cap, int(model.window + (budget - at_window) // full))
