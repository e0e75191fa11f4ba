"""How many bytes the KV cache holds: per token and layer, per token, per sequence.

Per layer and token, grouped-query attention stores one key and one value vector per KV head;
multi-head latent attention (MLA) one latent plus a RoPE key, shared by K and V (no factor 2):

    GQA:  2 × kv_heads × (head_dim values + the layout's scales)
    MLA:  latent_dim + rope_dim values (+ scales)            — :mod:`.precision`

Windowed layers (sliding window, chunked local attention) keep at most ``window`` tokens of a
sequence; the others keep all of them. These are the textbook sizes of the chapter; how an engine
reserves and places them is :mod:`.placement` and :mod:`.budget`.
"""

from __future__ import annotations

from .model import Model
from .precision import kv_vector_bytes, mla_latent_bytes


def layer_bytes_per_token(model: Model, kv_dtype: str, kv_heads: int | None = None) -> float:
    """Bytes one token adds to one layer's cache; ``kv_heads`` overrides the model's (one TP rank's
    share). An MLA latent is one vector whatever the head counts."""
    if model.is_mla:
        return mla_latent_bytes(model.latent_dim, model.rope_dim, kv_dtype)
    heads = model.kv_heads if kv_heads is None else kv_heads
    return 2 * heads * kv_vector_bytes(model.head_dim, kv_dtype)


def bytes_per_token(model: Model, kv_dtype: str) -> float:
    """Bytes one token adds to the whole model's cache, all layers (the chapter's formula)."""
    return model.layers * layer_bytes_per_token(model, kv_dtype)


def bytes_per_sequence(model: Model, kv_dtype: str, context: float) -> float:
    """Cache of one sequence of ``context`` tokens; windowed layers stop at the window."""
    per_layer = layer_bytes_per_token(model, kv_dtype)
    windowed = min(context, model.window) if model.window else context
    return per_layer * (model.full_layers * context + model.windowed_layers * windowed)


def longest_context(model: Model, kv_dtype: str, budget: float, cap: int) -> int:
    """The most tokens one sequence can hold within ``budget`` bytes (the inverse of the above),
    at most ``cap``."""
    if budget <= 0:
        return 0
    per_layer = layer_bytes_per_token(model, kv_dtype)
    if per_layer <= 0:
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
