"""Where the weights and the KV cache sit: per GPU, under the parallel layouts vLLM accepts.

Tensor parallelism (TP, over ``gpus ÷ pipeline_stages`` GPUs) splits every weight matrix, so each
GPU holds 1/TP of the weights, and splits the KV heads: each rank caches ``max(1, kv_heads ÷ TP)``
heads (``ModelConfig.get_num_kv_heads``, vllm/config/model.py). When TP exceeds the KV heads
each head is *replicated* on TP ÷ kv_heads ranks (``QKVParallelLinear``'s
``num_kv_head_replicas``): 8 KV heads on TP 16 are stored twice. MLA's latent is one "head"
that TP cannot split: every rank holds the whole latent cache (TP copies).

Pipeline parallelism (PP) splits the layers into stages (``get_pp_indices``,
vllm/distributed/utils.py): each stage holds and caches its own layers only, the first and last
also the embedding and the LM head.

Data-parallel attention (``--data-parallel-size N --enable-expert-parallel``) gives every GPU
its own attention weights and its own KV pool for its own sequences, and spreads the routed
experts over the N GPUs: the layout that stops MLA's latent being copied N times.

Expert parallelism (``--enable-expert-parallel``) under tensor-parallel attention: the routed
experts are not sliced over a stage's TP GPUs but dealt out whole, the fullest GPU holding
:func:`.expert_parallel.largest_share` of them (:mod:`.expert_parallel`); attention, dense layers
and shared experts stay sliced, so the KV heads per GPU do not change, only the weights beside them.
With ``--enable-eplb`` (``Layout.redundant_experts`` R > 0) each GPU holds (E + R) / EP whole experts
and EPLB's buffer and tables besides (:func:`.expert_parallel.share`), counted with the weights.

Only the TP sizes vLLM accepts are legal (engines.vllm.legal_tp_sizes): attention heads, KV heads
(one divides the other), MLP width and padded vocabulary must split evenly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engines import vllm, vllm_hybrid
from .expert_parallel import ExpertShare, share
from .memo import pure_cache
from .model import Model
from .weights import as_plan, as_weights

#: The attention layouts: tensor parallel over each stage's GPUs, or data parallel with experts
#: spread over all GPUs.
TP, DP = "tp", "dp"
#: The largest group the calculators consider (eight 8-GPU servers).
MAX_GPUS = 64


@dataclass(frozen=True)
class Layout:
    """How ``gpus`` GPUs serve one model: ``attention`` TP (with ``pipeline_stages`` stages of
    ``gpus ÷ stages`` GPUs each) or DP (every GPU its own attention; ``pipeline_stages`` ignored)."""

    gpus: int
    pipeline_stages: int = 1
    attention: str = TP
    #: ``--enable-expert-parallel`` under TP attention: whole routed experts per GPU (DP attention
    #: implies it; a model without routed experts ignores it, as vLLM does).
    expert_parallel: bool = False
    #: ``--enable-eplb`` with ``num_redundant_experts`` R (0: EPLB off): (E + R) / EP whole experts per GPU,
    #: and EPLB's receive buffer and tables (:func:`.expert_parallel.share`).
    redundant_experts: int = 0


@dataclass(frozen=True)
class Placement:
    """One GPU's share, for the most loaded GPU (the one whose pool the engine keeps for all)."""

    layout: Layout
    tensor_parallel: int
    pipeline_stages: int
    data_parallel: int
    legal: bool
    problem: str  # why vLLM refuses the layout; "" when legal
    stage_layers: tuple[int, ...]
    weight_bytes_per_gpu: float
    kv_heads_per_gpu: int  # KV heads each GPU caches per layer (1 for MLA: the whole latent)
    kv_replicas: int  # GPUs that hold a copy of each cached head (or of the latent)
    #: The expert-parallel group the routed experts are dealt over (1: sliced by TP, or no experts).
    expert_parallel: int = 1
    #: EPLB's share of the experts on each GPU (None: EPLB off): its physical experts, buffer and tables,
    #: counted in ``weight_bytes_per_gpu``.
    eplb: ExpertShare | None = None

    @property
    def eplb_bytes(self) -> float:
        """What EPLB adds to each GPU's weights (0 when off): its redundant experts, buffer and tables.
        None of it is read at a step beyond what the plain map's experts are (a token reads one replica of
        each expert it is routed to), so a step's streamed bytes leave it out."""
        if self.eplb is None or self.eplb.routed_bytes_per_gpu == 0:
            return 0.0
        return self.eplb.redundant_bytes + self.eplb.eplb_bytes

    @property
    def layers_per_gpu(self) -> int:
        return max(self.stage_layers)

    @property
    def sequence_share(self) -> float:
        """Share of all sequences whose cache one GPU holds: all of them under TP, 1/N under DP."""
        return 1 / self.data_parallel


def legal_tp_sizes(model: Model, max_tp: int = MAX_GPUS) -> list[int]:
    """Tensor-parallel sizes vLLM accepts for this model, up to ``max_tp``; a hybrid model's
    recurrent layers must split too (their heads and convolution channels, ``divide`` in vLLM's
    ``MambaStateShapeCalculator``). Worked out once per model: every placement asks."""
    return list(_legal_tp_sizes(model, max_tp))


@pure_cache(maxsize=256)
def _legal_tp_sizes(model: Model, max_tp: int) -> tuple[int, ...]:
    sizes = vllm.legal_tp_sizes(max(1, model.heads), max(1, model.kv_heads),
                                intermediate_size=model.intermediate_size or None,
                                vocab_size=model.vocab_size or None, mla=model.is_mla, max_tp=max_tp)
    if not model.is_hybrid:
        return tuple(sizes)
    return tuple(tp for tp in sizes if _state_splits(model, tp))


def _state_splits(model: Model, tp: int) -> bool:
    try:
        vllm_hybrid.state_shapes(model.state, tp)
    except ValueError:
        return False
    return True


def _stage_ranges(stages: list[int]) -> list[range]:
    ranges, start = [], 0
    for n in stages:
        ranges.append(range(start, start + n))
        start += n
    return ranges


def place(model: Model, layout: Layout, weights) -> Placement:
    """Per-GPU weights and KV heads of ``model`` on ``layout``; ``legal`` says whether vLLM starts.

    ``weights`` is a :class:`.weights.Weights` (the checkpoint's tensors in their formats, on the
    GPU), or a dtype name for every parameter at that width. Each GPU's bytes are its shard of
    every tensor (:meth:`.weights.Weights.rank_bytes`); the most loaded stage is kept."""
    gpus = max(1, layout.gpus)
    w = as_weights(model, weights)
    if layout.attention == DP:
        # every GPU: all of the attention and dense parts, 1/N of the routed experts (EP over N)
        held = w.rank_bytes(tp=1, ep=gpus)
        ep = gpus if model.is_moe else 1
        eplb, held, problem = _with_eplb(model, layout, w, 1, gpus, 1, held)
        return Placement(layout, 1, 1, gpus, not problem, problem, (model.layers,), held,
                         model.kv_heads if not model.is_mla else 1, 1, ep, eplb)
    problem = ""
    stages = max(1, layout.pipeline_stages)
    if stages > model.layers:
        problem = f"{stages} pipeline stages for {model.layers} layers: vLLM needs at least one layer per stage."
        stages = model.layers
    if gpus % stages:
        problem = problem or (f"{gpus} GPUs do not split into {stages} pipeline stages of equal size.")
    tp = max(1, gpus // stages)
    legal = legal_tp_sizes(model)
    if not problem and tp not in legal:
        shown = ", ".join(str(t) for t in legal)
        problem = (f"vLLM refuses tensor parallelism over {tp} GPUs for this model: its {model.heads} attention "
                   f"heads, {model.kv_heads} KV heads, MLP width {model.intermediate_size} and vocabulary "
                   + ("and its recurrent layers' heads and convolution channels " if model.is_hybrid else "")
                   + f"must split evenly. Legal sizes: {shown or 'none'}.")
    # EP = the stage's TP group (pipeline stages are another axis: FusedMoEParallelConfig.make)
    ep = tp if layout.expert_parallel and model.is_moe else 1
    if not problem:
        problem = w.tp_problem(tp, experts_split=ep == 1)
    layers = vllm.pipeline_stage_layers(model.layers, stages)
    if model.is_mla:
        heads, replicas = 1, tp
    else:
        heads = max(1, -(-model.kv_heads // tp))
        replicas = tp // model.kv_heads if tp >= model.kv_heads else 1
    if len(layers) == 1:
        held = w.rank_bytes(tp, ep)
    else:
        ranges = _stage_ranges(layers)
        held = max(w.rank_bytes(tp, ep, layers=r, first=i == 0, last=i == len(ranges) - 1)
                   for i, r in enumerate(ranges))
    eplb, held, eplb_problem = _with_eplb(model, layout, w, tp, 1, stages, held)
    problem = problem or eplb_problem
    return Placement(layout, tp, stages, 1, not problem, problem, tuple(layers), held, heads, replicas, ep, eplb)


def _with_eplb(model: Model, layout: Layout, w, tp: int, dp: int, stages: int,
               held: float) -> tuple[ExpertShare | None, float, str]:
    """(EPLB's share, the GPU's bytes with it, why vLLM refuses or the calculator does not model it) for
    ``layout.redundant_experts`` R > 0 (``--enable-eplb``); (None, ``held``, "") when it is 0.

    EPLB replaces the expert map's share of the routed experts by (E + R) / EP whole ones and adds its
    buffer and tables inside the load's measured memory (:func:`.expert_parallel.share`). vLLM refuses it
    without expert parallelism ("enable_expert_parallel must be True to use EPLB.", ``ParallelConfig``,
    vllm/config/parallel.py 0.33.0) and the splits :func:`.expert_parallel.eplb_refusal` names. Not
    modelled: a model without routed experts (no fused-MoE layer for EPLB to balance) and pipeline
    stages (each stage's EPLB state counts its own MoE layers)."""
    redundant = layout.redundant_experts
    if not redundant:
        return None, held, ""
    if not model.is_moe:
        return None, held, ("Not modelled: EPLB (redundant experts) on a model without routed experts, which has "
                            "no fused-MoE layer to balance.")
    if layout.attention != DP and not layout.expert_parallel:
        return None, held, ("vLLM refuses this: \"enable_expert_parallel must be True to use EPLB.\" Redundant "
                            "experts need --enable-eplb, which needs expert parallelism (More parameters).")
    if stages > 1:
        return None, held, "Not modelled: EPLB over pipeline stages (each stage's EPLB state has its own layers)."
    s = share(model, w, tp, dp, redundant_experts=redundant, eplb=True)
    if s.problem:
        return s, held, s.problem
    if s.refusal:
        return s, held, f"vLLM refuses this: {s.refusal}"
    plain = w.routed_bytes(tp, ep=s.ep)
    s = replace(s, redundant_bytes=s.routed_bytes_per_gpu - plain)
    return s, held + s.redundant_bytes + s.eplb_bytes, ""


def kv_layers_per_gpu(model: Model, placement: Placement) -> tuple[int, int]:
    """(full-attention layers, windowed layers) one GPU caches: its stage's layers, in the model's
    proportion of the kinds (a hybrid model's recurrent and MLP-only layers cache no KV)."""
    layers = placement.layers_per_gpu
    kv = round(model.kv_layers * layers / model.layers)
    windowed = round(model.windowed_layers * layers / model.layers)
    return kv - windowed, windowed


def state_layers_per_gpu(model: Model, placement: Placement) -> int:
    """Recurrent (linear-attention, state-space) layers on one GPU's stage, in the model's proportion."""
    return round(model.state_layers * placement.layers_per_gpu / model.layers) if model.is_hybrid else 0


def candidate_sizes(model: Model, layout: Layout, weights=None) -> list[int]:
    """GPU counts vLLM accepts for this layout, up to MAX_GPUS: any count for data-parallel
    attention, the legal TP sizes times the pipeline stages otherwise; with ``weights``, only the
    TP sizes its checkpoint can be sharded over (a quantization group must not straddle two ranks:
    :meth:`.weights.Weights.tp_problem`)."""
    if layout.attention == DP:
        return list(range(1, MAX_GPUS + 1))
    stages = max(1, min(layout.pipeline_stages, model.layers))
    plan = as_plan(model, weights) if weights is not None else None
    return list(_candidate_sizes(model, stages, plan))


@pure_cache(maxsize=256)
def _candidate_sizes(model: Model, stages: int, plan) -> tuple[int, ...]:
    tps = legal_tp_sizes(model)
    if plan is not None:
        tps = [tp for tp in tps if not plan.on(None).tp_problem(tp)]
    return tuple(tp * stages for tp in tps if tp * stages <= MAX_GPUS)
