"""What speculative decoding does to a decode step's ceiling: tokens per step, the step's cost, the speed-up.

A drafter proposes ``k`` tokens a step; the target scores them, and the token it samples itself, in
one pass. With an acceptance rate α per drafted token, independent from token to token (Leviathan,
Kalman and Matias 2023, https://arxiv.org/abs/2211.17192; Chen et al. 2023), a step yields

    tokens per step = 1 + α + … + α^k = (1 − α^(k+1)) / (1 − α)      (k + 1 at α = 1)

and costs, on the ceilings of :mod:`.speed` (bytes at the bandwidth, FLOPs at the peak):

    step = target verifying k + 1 tokens per sequence + k draft steps

(vLLM's proposer runs ``num_speculative_tokens`` draft forwards a step: engines.vllm_speculation).
The verifying pass streams the weights once for the batch's B·(k+1) tokens (for a mixture of experts,
the experts those tokens touch), reads each sequence's KV cache once, and does k + 1 times the
FLOPs: at small batches it costs about one plain step, which is the whole point. A draft step is the
draft model's own decode step (its weights and KV at the same batch), for MTP one of the target's
layers at that batch plus its LM head (its own or the model's, read either way) and ``eh_proj``
streamed, for an EAGLE head its weights and its layer's KV streamed, and for n-gram nothing on the
GPU (the lookup runs on the CPU). The speed-up is

    speed-up = tokens per step × plain step ÷ (verifying pass + k × draft step)

which, with the draft's cost written c (a draft step ÷ a plain step) and verifying at a plain
step's cost, is Leviathan et al.'s (1 − α^(k+1)) / ((1 − α)(k·c + 1)): :func:`speedup`, the
speculative-decoding calculator's formula. Left out: the drafter's first pass over the verified
tokens, rejection sampling and the engine's per-step floor (a draft step is often floor-bound in
practice, so this is a ceiling).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hardware import GPU
from .kv import MODEL_DTYPE_BYTES
from .model import Model
from .placement import Placement
from .speculation import EAGLE, NGRAM, Drafter
from .speed import decode_step


def tokens_per_pass(alpha: float, k: int) -> float:
    """Expected tokens per target pass: Σ_{i=0..k} α^i = (1 − α^(k+1)) / (1 − α), k + 1 at α = 1
    (the sum form: exact at α = 1, never a division by zero)."""
    return sum(alpha**i for i in range(int(k) + 1))


def speedup(alpha: float, k: int, cost: float) -> float:
    """Wall-clock speed-up over plain decoding when a draft step costs ``cost`` plain steps and
    verifying costs one: tokens per pass ÷ (k·c + 1)."""
    return tokens_per_pass(alpha, k) / (k * cost + 1)


@dataclass(frozen=True)
class SpeculativeStep:
    """One speculative step's ceiling against a plain step's, at one batch and context."""

    k: int
    acceptance: float
    plain_s: float  # a plain decode step (one token per sequence)
    verify_s: float  # the target's pass over k + 1 tokens per sequence
    draft_s: float  # one draft step

    @property
    def tokens_per_step(self) -> float:
        return tokens_per_pass(self.acceptance, self.k)

    @property
    def step_s(self) -> float:
        return self.verify_s + self.k * self.draft_s

    @property
    def draft_cost(self) -> float:
        """c: a draft step ÷ a plain step."""
        return self.draft_s / self.plain_s if self.plain_s else 0.0

    @property
    def speedup(self) -> float:
        return self.tokens_per_step * self.plain_s / self.step_s if self.step_s else 0.0

    @property
    def tokens_per_s(self) -> float:
        """One stream's tokens per second at this ceiling."""
        return self.tokens_per_step / self.step_s if self.step_s else 0.0


def verify_s(model: Model, placement: Placement, gpu: GPU, weights, kv_dtype: str, batch: int, context: float,
             k: int) -> float:
    """The target's ceiling for one pass over ``k + 1`` tokens of each of ``batch`` sequences: the
    weights (experts) that B·(k+1) tokens touch, the KV cache of B sequences, (k + 1)× the FLOPs."""
    many = decode_step(model, placement, gpu, weights, kv_dtype, batch * (k + 1), context)
    one = decode_step(model, placement, gpu, weights, kv_dtype, batch, context)
    memory = (many.weight_bytes_per_gpu + one.kv_bytes_per_gpu) / gpu.bandwidth
    return many.stages * max(memory, many.compute_s)


def draft_s(drafter: Drafter, model: Model, placement: Placement, gpu: GPU, weights, kv_dtype: str,
            batch: int, context: float) -> float:
    """One draft step's ceiling: the draft model's decode step, or one target layer's share of a plain
    step plus the MTP layer's LM head and eh_proj streamed; an EAGLE head's weights and its layers'
    KV for the batch streamed; nothing for n-gram."""
    if drafter.method == NGRAM:
        return 0.0
    if drafter.method == EAGLE:
        return (drafter.weight_bytes + batch * context * drafter.token_bytes) / gpu.bandwidth
    if drafter.model is not None:
        return decode_step(drafter.model, drafter.placement, gpu, drafter.weights, kv_dtype, batch,
                           context).roofline_s
    plain = decode_step(model, placement, gpu, weights, kv_dtype, batch, context).roofline_s
    extra = drafter.head_bytes + 2 * model.hidden_size ** 2 * MODEL_DTYPE_BYTES
    return plain / max(1, model.layers) + extra / gpu.bandwidth


def speculative_step(drafter: Drafter, k: int, acceptance: float, model: Model, placement: Placement, gpu: GPU,
                     weights, kv_dtype: str, batch: int, context: float) -> SpeculativeStep | None:
    """The speculative step of ``drafter`` (a computed one: None when it refused or speculation is off)."""
    if k <= 0 or drafter.refusal or not drafter.method:
        return None
    plain = decode_step(model, placement, gpu, weights, kv_dtype, batch, context).roofline_s
    return SpeculativeStep(k=k, acceptance=acceptance, plain_s=plain,
                           verify_s=verify_s(model, placement, gpu, weights, kv_dtype, batch, context, k),
                           draft_s=draft_s(drafter, model, placement, gpu, weights, kv_dtype, batch, context))


__all__ = ["SpeculativeStep", "draft_s", "speculative_step", "speedup", "tokens_per_pass", "verify_s"]
