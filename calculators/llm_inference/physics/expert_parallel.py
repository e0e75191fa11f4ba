"""Expert parallelism: which routed experts each GPU holds under vLLM's ``--enable-expert-parallel``.

Without it, vLLM's fused-MoE layer shards *every* routed expert over the tensor-parallel group, as
it shards an MLP: each GPU holds 1/TP of each expert's matrices. With it, the MoE layers give up
tensor parallelism and spread *whole* experts instead, while attention stays tensor-parallel
(``FusedMoEParallelConfig.make``: with EP on, the MoE layer's ``tp_size`` is 1 and its
``ep_size`` = TP × DP (× prefill-context parallel, 1 here); pipeline parallelism is another axis,
so a stage's experts spread over that stage's TP GPUs).

How many experts land on each rank is ``determine_expert_map`` (linear placement, vLLM's
default): from 0.10.1 (PR #21497) the E experts split as evenly as they can, the first
``E mod EP`` ranks taking one more (30 experts on 8 ranks: 4,4,4,4,4,4,3,3); before it every rank
but the last took ``E // EP`` and the last all the rest (3,3,3,3,3,3,3,9). vLLM sizes one pool
of KV blocks for all TP ranks from the smallest memory left, so the rank that holds the most
experts is the one that matters: this module reports it, and the others beside it.

What is not modelled, and refused rather than guessed: redundant experts (EPLB's
``num_redundant_experts``, default 0, only accepted with ``--enable-eplb``, which needs E + R to
split evenly) and round-robin placement (same counts per rank as linear, so nothing to add).
A model without routed experts has no fused-MoE layer, so the flag changes nothing there.

The sources read, file by file and release by release, are in :mod:`.expert_parallel_sources`.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_calculators.units import format_bytes

from ..engines import vllm_releases

#: The first release whose expert map splits a remainder over the first ranks (PR #21497).
BALANCED_SINCE = "0.10.1"


def balanced(version: str) -> bool:
    """Whether ``version``'s expert map gives the remainder to the first ranks (else to the last)."""
    return vllm_releases.parse_version(version) >= vllm_releases.parse_version(BALANCED_SINCE)


def ep_size(tensor_parallel: int, data_parallel: int = 1) -> int:
    """The expert-parallel group: every TP rank of every DP rank (``flatten_tp_across_dp_and_pcp``)."""
    return max(1, tensor_parallel) * max(1, data_parallel)


def local_experts(experts: int, ep: int, rank: int, version: str = vllm_releases.NEWEST) -> int:
    """``local_num_experts`` of EP rank ``rank``: what ``determine_expert_map`` gives it."""
    if ep <= 1:
        return experts
    base, remainder = divmod(experts, ep)
    if balanced(version):
        return base + 1 if rank < remainder else base
    # the old map: base experts on every rank but the last, which takes what is left
    return base if rank < ep - 1 else experts - base * (ep - 1)


def experts_per_rank(experts: int, ep: int, version: str = vllm_releases.NEWEST) -> tuple[int, ...]:
    """Every EP rank's count, rank 0 first (they add up to ``experts``)."""
    return tuple(local_experts(experts, ep, r, version) for r in range(max(1, ep)))


def largest_share(experts: int, ep: int, version: str = vllm_releases.NEWEST) -> int:
    """The most experts any one rank holds: ceil(E ÷ EP) from 0.10.1, E − (EP − 1)·floor(E ÷ EP) before."""
    return max(experts_per_rank(experts, ep, version))


@dataclass(frozen=True)
class ExpertShare:
    """The routed experts of one MoE layer over an EP group, and the bytes of the busiest GPU."""

    experts: int
    ep: int
    per_rank: tuple[int, ...]
    routed_bytes_per_gpu: float  # the busiest rank's routed experts, all its MoE layers
    problem: str = ""  # why this is not modelled ("" when it is)

    @property
    def largest(self) -> int:
        return max(self.per_rank)

    @property
    def smallest(self) -> int:
        return min(self.per_rank)

    @property
    def even(self) -> bool:
        return self.largest == self.smallest

    def note(self) -> str:
        """One sentence for a reader: who holds what."""
        if self.problem:
            return self.problem
        if self.even:
            return (f"Expert parallel over {self.ep} GPUs: each holds {self.largest} of the {self.experts} routed "
                    f"experts of every MoE layer in full, instead of 1/{self.ep} of each.")
        heavy = sum(1 for n in self.per_rank if n == self.largest)
        empty = sum(1 for n in self.per_rank if n == 0)
        text = (f"Expert parallel over {self.ep} GPUs: {self.experts} routed experts do not split evenly; "
                f"{heavy} GPU{'s' if heavy > 1 else ''} hold {self.largest}, the others {self.smallest}"
                f" (vLLM's expert map). The pool of KV blocks is sized by the fullest GPU.")
        if empty:
            text += f" {empty} GPUs hold no expert at all and only run attention."
        return text


def problem(model, ep: int, redundant_experts: int = 0) -> str:
    """Why this expert-parallel setting is not modelled ("" when it is)."""
    if redundant_experts < 0:
        return "Redundant experts cannot be negative."
    if redundant_experts:
        return (f"{redundant_experts} redundant experts (EPLB's --eplb-config num_redundant_experts, default 0) "
                "are not modelled: vLLM accepts them only with --enable-eplb, which moves experts at run time.")
    return ""


def share(model, weights, tensor_parallel: int, data_parallel: int = 1, redundant_experts: int = 0,
          layers: range | None = None) -> ExpertShare | None:
    """The experts each GPU holds under EP over TP × DP GPUs (None for a model without routed experts,
    where vLLM builds no fused-MoE layer and the flag is a no-op). ``weights``: a :class:`.weights.Weights`
    (its release picks the expert map)."""
    if not model.is_moe:
        return None
    ep = ep_size(tensor_parallel, data_parallel)
    version = getattr(weights, "version", vllm_releases.NEWEST)
    why = problem(model, ep, redundant_experts)
    per_rank = experts_per_rank(model.experts, ep, version)
    held = 0.0 if why else weights.routed_bytes(1, ep=ep, layers=layers)
    return ExpertShare(model.experts, ep, per_rank, held, why)


def reader_notes(model, layout, placement, weights) -> list[str]:
    """What the expert-parallel switch did to this deployment, for a calculator's notes: nothing on a
    model without routed experts (vLLM's flag is a no-op there), nothing to add under DP attention
    (which always spreads the experts), else who holds which experts and their bytes per GPU."""
    if not getattr(layout, "expert_parallel", False) or layout.attention != "tp":
        return []
    if not model.is_moe:
        return ["Expert parallel changes nothing here: the model has no routed experts, so vLLM builds no "
                "fused-MoE layer to spread (the flag is ignored)."]
    if placement.expert_parallel <= 1 or not placement.legal:
        return []
    s = share(model, weights, placement.tensor_parallel)
    text = s.note()
    if placement.pipeline_stages == 1 and not s.problem:
        sliced = weights.routed_bytes(placement.tensor_parallel)
        text += (f" The routed experts take {format_bytes(s.routed_bytes_per_gpu)} on the fullest GPU, against "
                 f"{format_bytes(sliced)} sliced by tensor parallelism; attention and the KV heads per GPU are "
                 f"unchanged.")
    return [text]
