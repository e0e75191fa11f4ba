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

Expert-parallel load balancing (``--enable-eplb``, :func:`eplb_memory`) adds R redundant
experts (``--eplb-config '{"num_redundant_experts": R}'``, default 0): every MoE layer then holds
E + R *physical* experts (``determine_expert_counts``: ``global_num_experts = num_experts +
num_redundant_experts``), which vLLM only accepts split evenly, (E + R) / EP on each rank ("EPLB
currently only supports even distribution of experts across ranks"). So each GPU holds
(E + R) / EP whole experts, and R > 0 is refused without EPLB. When the model loads, inside the
memory vLLM measures as the weights', EPLB's state adds (``EplbState.add_model``, vLLM 0.23.0 on):
a receive buffer shaped like one MoE layer's local experts (``expert_buffer``, ``empty_like`` of
each of the first MoE layer's expert weights) and its tables over the L MoE layers, P = E + R
physical experts: int64 physical-to-logical (L × P), logical-to-physical (L × E × 1024, room for
1,023 replicas) and replica counts (L × E); an int32 load pass (L × P) and load window
(``window_size`` 1,000 × L × P); from 0.33.0 an int64 ``last_expert_load`` (L × E). Its weight
communicator (NIXL, which registers these tensors, else Gloo, which stages through the CPU)
allocates no GPU tensor of its own.

What is not modelled, and refused rather than guessed: EPLB before 0.23.0 (0.17.0 builds the main
model's state after the load's measurement; 0.18–0.22 not read), elastic EP's larger capacity, and
round-robin placement (same counts per rank as linear, so nothing to add). The all-to-all of the
default ``--all2all-backend`` (allgather_reducescatter) keeps no buffer: it gathers and scatters
through the ordinary collectives in the forward pass (:mod:`.expert_parallel_sources`; the DeepEP,
NIXL-EP, Mori and FlashInfer backends' buffers are not modelled). A model without routed experts
has no fused-MoE layer, so the flag changes nothing there.

The calculators' input is R itself (``deployment_inputs.redundant_experts_param``, 0 leaving EPLB off):
``Layout.redundant_experts`` reaches :func:`.placement.place`, which counts this module's
:func:`share` in each GPU's weights (``Placement.eplb``).

The sources read, file by file and release by release, are in :mod:`.expert_parallel_sources`.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_calculators.units import format_bytes

from ..engines import vllm_releases

#: The first release whose expert map splits a remainder over the first ranks (PR #21497).
BALANCED_SINCE = "0.10.1"
#: EPLB: the first release read that builds its state inside the load's memory measurement, the one
#: that adds ``last_expert_load``, and EPLBConfig's ``window_size`` and ``MAX_EXPERT_REDUNDANCY``.
EPLB_SINCE = "0.23.0"
EPLB_LAST_LOAD_SINCE = "0.33.0"
EPLB_WINDOW = 1000
EPLB_MAX_REDUNDANCY = 1023
INT64, INT32 = 8, 4


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


def physical_experts(experts: int, redundant_experts: int = 0) -> int:
    """P = E + R: the experts each MoE layer holds over the whole EP group."""
    return experts + redundant_experts


def eplb_table_bytes(moe_layers: int, experts: int, redundant_experts: int = 0,
                     version: str = vllm_releases.NEWEST, window: int = EPLB_WINDOW) -> int:
    """EPLB's maps and load counters on every GPU (``EplbState.add_model``), L = ``moe_layers``."""
    physical = physical_experts(experts, redundant_experts)
    maps = INT64 * moe_layers * (physical + experts * (EPLB_MAX_REDUNDANCY + 1) + experts)
    load = INT32 * moe_layers * physical * (1 + window)
    last = INT64 * moe_layers * experts if vllm_releases.parse_version(version) >= vllm_releases.parse_version(
        EPLB_LAST_LOAD_SINCE) else 0
    return maps + load + last


def eplb_refusal(experts: int, ep: int, redundant_experts: int = 0, eplb: bool = False) -> str:
    """Why vLLM refuses these EPLB settings ("" when it accepts them): config/parallel.py and
    fused_moe/layer.py."""
    if redundant_experts and not eplb:
        return (f"num_redundant_experts is set to {redundant_experts} but EPLB is not enabled (vLLM refuses: "
                f"--enable-eplb or no redundant experts).")
    if not eplb:
        return ""
    if ep <= 1:
        return "EPLB needs expert parallelism over more than one GPU (vLLM refuses it on one)."
    if redundant_experts > EPLB_MAX_REDUNDANCY:
        return f"EPLB allows at most {EPLB_MAX_REDUNDANCY} redundant experts."
    physical = physical_experts(experts, redundant_experts)
    if physical % ep:
        return (f"EPLB currently only supports even distribution of experts across ranks: {physical} experts "
                f"({experts} + {redundant_experts} redundant) do not split over {ep} EP ranks (vLLM refuses).")
    return ""


@dataclass(frozen=True)
class ExpertShare:
    """The routed experts of one MoE layer over an EP group, and the bytes of the busiest GPU."""

    experts: int
    ep: int
    per_rank: tuple[int, ...]
    routed_bytes_per_gpu: float  # the busiest rank's routed experts, all its MoE layers
    problem: str = ""  # why this is not modelled ("" when it is)
    refusal: str = ""  # why vLLM refuses these settings ("" when it starts)
    redundant: int = 0  # EPLB's redundant experts (R): per_rank counts E + R physical experts
    eplb_buffer_bytes: float = 0.0  # EPLB's receive buffer: one MoE layer of this rank's experts
    eplb_table_bytes: int = 0  # EPLB's maps and load counters
    redundant_bytes: float = 0.0  # the busiest GPU's routed bytes beyond what the plain map gives it (placement's)

    @property
    def eplb_bytes(self) -> float:
        """What ``--enable-eplb`` adds on each GPU beyond the experts it holds."""
        return self.eplb_buffer_bytes + self.eplb_table_bytes

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
        if self.problem or self.refusal:
            return self.problem or self.refusal
        if self.redundant:
            return (f"Expert parallel over {self.ep} GPUs with EPLB: {self.experts} routed experts and "
                    f"{self.redundant} redundant copies, {self.largest} whole experts on each GPU, and EPLB's "
                    f"buffer and tables ({format_bytes(self.eplb_bytes)}).")
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


def problem(model, ep: int, redundant_experts: int = 0, eplb: bool = False,
            version: str = vllm_releases.NEWEST) -> str:
    """Why this expert-parallel setting is not modelled ("" when it is)."""
    if redundant_experts < 0:
        return "Redundant experts cannot be negative."
    if eplb and vllm_releases.parse_version(version) < vllm_releases.parse_version(EPLB_SINCE):
        return (f"EPLB's state before vLLM {EPLB_SINCE} is not modelled (0.17.0 builds it after the load's memory "
                f"measurement; 0.18–0.22 were not read).")
    return ""


def _moe_layer_bytes(model, weights) -> tuple[int, float]:
    """(MoE layers, one MoE layer's routed experts whole on one GPU): EPLB's buffer is shaped like the
    first one's local experts."""
    per_layer = [weights.routed_bytes(1, ep=1, layers=range(i, i + 1)) for i in range(model.layers)]
    moe = [b for b in per_layer if b > 0]
    return len(moe), (moe[0] if moe else 0.0)


def share(model, weights, tensor_parallel: int, data_parallel: int = 1, redundant_experts: int = 0,
          layers: range | None = None, eplb: bool = False) -> ExpertShare | None:
    """The experts each GPU holds under EP over TP × DP GPUs (None for a model without routed experts,
    where vLLM builds no fused-MoE layer and the flag is a no-op). ``weights``: a :class:`.weights.Weights`
    (its release picks the expert map). ``eplb``: ``--enable-eplb``, with ``redundant_experts`` R:
    (E + R) / EP physical experts on every rank, and EPLB's buffer and tables."""
    if not model.is_moe:
        return None
    ep = ep_size(tensor_parallel, data_parallel)
    version = getattr(weights, "version", vllm_releases.NEWEST)
    why = problem(model, ep, redundant_experts, eplb, version)
    refused = "" if why else eplb_refusal(model.experts, ep, redundant_experts, eplb)
    if why or refused:
        return ExpertShare(model.experts, ep, experts_per_rank(model.experts, ep, version), 0.0, why, refused,
                           redundant_experts)
    if not eplb:
        return ExpertShare(model.experts, ep, experts_per_rank(model.experts, ep, version),
                           weights.routed_bytes(1, ep=ep, layers=layers))
    local = physical_experts(model.experts, redundant_experts) // ep
    held = weights.routed_bytes(1, ep=1, layers=layers) * local / model.experts
    moe_layers, layer_bytes = _moe_layer_bytes(model, weights)
    return ExpertShare(model.experts, ep, (local,) * ep, held, redundant=redundant_experts,
                       eplb_buffer_bytes=layer_bytes * local / model.experts,
                       eplb_table_bytes=eplb_table_bytes(moe_layers, model.experts, redundant_experts, version))


def reader_notes(model, layout, placement, weights) -> list[str]:
    """What the expert-parallel switch did to this deployment, for a calculator's notes: nothing on a
    model without routed experts (vLLM's flag is a no-op there), nothing to add under DP attention
    (which always spreads the experts), else who holds which experts and their bytes per GPU."""
    eplb = getattr(placement, "eplb", None)
    if layout.attention != "tp" and eplb is not None and placement.legal:
        return [eplb.note()]
    if not getattr(layout, "expert_parallel", False) or layout.attention != "tp":
        return []
    if not model.is_moe:
        return ["Expert parallel changes nothing here: the model has no routed experts, so vLLM builds no "
                "fused-MoE layer to spread (the flag is ignored)."]
    if placement.expert_parallel <= 1 or not placement.legal:
        return []
    s = getattr(placement, "eplb", None) or share(model, weights, placement.tensor_parallel)
    text = s.note()
    if placement.pipeline_stages == 1 and not s.problem:
        sliced = weights.routed_bytes(placement.tensor_parallel)
        text += (f" The routed experts take {format_bytes(s.routed_bytes_per_gpu)} on the fullest GPU, against "
                 f"{format_bytes(sliced)} sliced by tensor parallelism; attention and the KV heads per GPU are "
                 f"unchanged.")
    if s.redundant or s.eplb_bytes:
        text += (f" EPLB adds {format_bytes(s.redundant_bytes)} of redundant experts, a "
                 f"{format_bytes(s.eplb_buffer_bytes)} receive buffer (one MoE layer's {s.largest} local experts) "
                 f"and {format_bytes(s.eplb_table_bytes)} of tables to each GPU, inside the memory vLLM measures "
                 f"as the weights': the KV pool shrinks by as much.")
    return [text]
