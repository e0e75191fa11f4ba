"""Weight bytes: what memory holds, and what one decode step streams.

Memory holds every parameter. A decode step of a dense model reads every weight once, for the
whole batch. A mixture of experts reads its dense part D (attention, embeddings, dense layers,
shared experts) and, in each MoE layer, every routed expert that at least one token of the batch
was sent to. With E experts, k per token and routing taken as uniform, an expert escapes all B
tokens with probability (1 − k/E)^B, so a batch touches

    u(B) = E × (1 − (1 − k/E)^B)    experts per layer

(8 for one DeepSeek-V3 token, about 57 for 8 tokens, nearly all 256 for 64). Real routers are
not uniform: popular experts are picked more often, so fewer distinct ones are touched. The
formula is therefore an upper estimate of the bytes, and the MoE ceiling it gives a slightly
pessimistic one at mid-size batches.
"""

from __future__ import annotations

from .model import Model
from .precision import weight_bytes_per_param


def expected_unique_experts(experts: int, experts_per_token: int, tokens: float) -> float:
    """u(B): routed experts per MoE layer that ``tokens`` tokens touch, routing taken as uniform."""
    if experts <= 0:
        return 0.0
    return experts * (1 - (1 - experts_per_token / experts) ** tokens)


def weight_bytes(model: Model, weight_dtype: str) -> float:
    """Bytes of every parameter: what memory must hold, MoE experts included."""
    return model.total_params * weight_bytes_per_param(weight_dtype)


def streamed_params(model: Model, tokens: float) -> float:
    """Parameters a step over ``tokens`` tokens reads: all of a dense model; for MoE the dense part
    plus u(tokens) expert indices (never more than the whole model)."""
    if not model.is_moe:
        return model.active
    touched = expected_unique_experts(model.experts, model.experts_per_token, tokens)
    return min(model.total_params, model.dense_params + touched * model.expert_index_params)


def streamed_bytes(model: Model, weight_dtype: str, tokens: float) -> float:
    return streamed_params(model, tokens) * weight_bytes_per_param(weight_dtype)
