"""Parameter counts from shapes: matrices, biases and norms, summed per layer.

Each count is the product of a weight's dimensions, the way a checkpoint stores it. The one
modelling choice is what a token *reads*: all of every layer except the routed experts it was not
sent to (the embedding row lookup included, by convention of this module; publishers differ, see
the catalogue's ``active_excludes_embedding``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LayerPlan:
    """One layer's parameters by part. ``expert`` is one routed expert; ``experts`` how many."""

    attention: int
    norms: int
    dense_mlp: int = 0
    router: int = 0
    shared: int = 0
    expert: int = 0
    experts: int = 0

    @property
    def total(self) -> int:
        return self.attention + self.norms + self.dense_mlp + self.router + self.shared + self.expert * self.experts

    def active(self, experts_per_token: int) -> int:
        routed = self.expert * min(experts_per_token, self.experts)
        return self.attention + self.norms + self.dense_mlp + self.router + self.shared + routed


def linear(inputs: int, outputs: int, bias: bool = False) -> int:
    return inputs * outputs + (outputs if bias else 0)


def gqa_attention(hidden: int, heads: int, kv_heads: int, head_dim: int, *, qkv_bias: bool,
                  o_bias: bool, qk_norm: bool = False, sinks: bool = False) -> int:
    """q, k, v and o projections (+ per-head q/k RMSNorm weights, + gpt-oss's per-head sinks)."""
    q, kv = heads * head_dim, kv_heads * head_dim
    count = linear(hidden, q, qkv_bias) + 2 * linear(hidden, kv, qkv_bias) + linear(q, hidden, o_bias)
    if qk_norm:
        count += 2 * head_dim
    if sinks:
        count += heads
    return count


def mla_attention(hidden: int, heads: int, *, q_lora_rank: int | None, kv_lora_rank: int,
                  nope_dim: int, rope_dim: int, v_head_dim: int, bias: bool) -> int:
    """DeepSeek's multi-head latent attention, as its checkpoints store it.

    Queries: q_proj (hidden -> heads x (nope + rope)), or, with q_lora_rank, q_a_proj to the rank,
    its RMSNorm, and q_b_proj up to the heads. Keys and values: kv_a_proj_with_mqa to the latent
    plus the shared RoPE key, its RMSNorm over the latent, kv_b_proj up to heads x (nope + v).
    """
    q_width = heads * (nope_dim + rope_dim)
    if q_lora_rank:
        queries = linear(hidden, q_lora_rank, bias) + q_lora_rank + linear(q_lora_rank, q_width)
    else:
        queries = linear(hidden, q_width)
    keys_values = (linear(hidden, kv_lora_rank + rope_dim, bias) + kv_lora_rank
                   + linear(kv_lora_rank, heads * (nope_dim + v_head_dim)))
    return queries + keys_values + linear(heads * v_head_dim, hidden, bias)


def gated_mlp(hidden: int, intermediate: int, bias: bool = False) -> int:
    """gate and up projections to ``intermediate``, down back (SwiGLU / GeGLU)."""
    return 2 * linear(hidden, intermediate, bias) + linear(intermediate, hidden, bias)


def plain_mlp(hidden: int, intermediate: int) -> int:
    """GPT-2's fc and proj, with biases."""
    return linear(hidden, intermediate, True) + linear(intermediate, hidden, True)


@dataclass(frozen=True)
class Counts:
    total: int
    active: int
    embedding: int
    expert: int
    experts_per_token: int
    moe_layers: int

    @property
    def dense(self) -> int:
        return self.active - self.expert * self.experts_per_token * self.moe_layers


def count(plans: list[LayerPlan], *, embedding: int, lm_head: int, final_norm: int,
          experts_per_token: int) -> Counts:
    """Totals over the layers plus the embedding table, the LM head (0 when tied) and the last norm."""
    outside = embedding + lm_head + final_norm
    moe = [p for p in plans if p.experts]
    return Counts(
        total=outside + sum(p.total for p in plans),
        active=outside + sum(p.active(experts_per_token) for p in plans),
        embedding=embedding,
        expert=moe[0].expert if moe else 0,
        experts_per_token=min(experts_per_token, moe[0].experts) if moe else 0,
        moe_layers=len(moe),
    )
