"""How long a decode step takes: the roofline ceiling, and the costs practice adds on top.

One decode step produces a token for every sequence of the batch. On the most loaded GPU it must

* stream its share of the weights the step touches (:mod:`.weights`: all of a dense model, the
  dense part plus the experts the batch touches for a mixture of experts),
* read the KV cache of its sequences (its heads, or the whole MLA latent, over its layers),
* do 2 FLOPs per active parameter per token (attention FLOPs, a few percent, are left out).

The roofline ceiling is the slower of moving those bytes at the GPU's bandwidth and doing those
FLOPs at its dense peak:

    stage time = max(bytes per GPU ÷ bandwidth, FLOPs per GPU ÷ peak)

With pipeline stages a token passes every stage in turn, so one stream gets a token every
``stages × stage time``, while ``stages`` micro-batches of ``batch ÷ stages`` sequences are in
flight at once (at least one sequence each: with fewer sequences than stages, stages idle). Under
data-parallel attention each GPU decodes ``batch ÷ GPUs`` sequences on average. Under expert
parallelism the routed bytes a GPU streams are the touched share of the whole experts it holds
(the placement's), not of 1/TP of every expert.

Practice adds what the roofline leaves out. Tensor parallelism all-reduces the activations twice
per layer (after attention and after the MLP); at decode the messages are small, so each costs
about the link's latency (interconnects.allreduce_latency_us: 6 µs on NVLink 4, 47 µs across
nodes) plus its bytes over the link. And every engine has a per-step floor (scheduling, kernel
launches, sampling) that no model is fast enough to go under: ``floor_s``, a visible parameter.

    estimate = max(stages × (stage time + all-reduce time), floor)

The measured points of :mod:`.measured` show how far real engines sit below even that.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import interconnects
from ..hardware import GPU
from .kv import layer_bytes_on, read_bytes_on, state_layer_bytes
from .model import Model
from .placement import DP, Placement, kv_layers_per_gpu, state_layers_per_gpu
from .weights import as_weights, expected_unique_experts, streamed_bytes, streamed_share

#: All-reduces per layer and decode step under tensor parallelism: after attention, after the MLP.
ALLREDUCES_PER_LAYER = 2
#: Activations travel between GPUs in bf16.
ACTIVATION_BYTES = 2
#: The largest batch the ridge search tries (beyond it, "never compute-bound").
RIDGE_SEARCH_MAX = 2**40


def compute_format(weights) -> str:
    """The format the big matrices multiply in: "fp8" or "int8" (W8A8), "fp4" (NVFP4 W4A4 on
    Blackwell), else "bf16" (bf16 weights, and weight-only formats dequantized in the kernel)."""
    if isinstance(weights, str):
        return "fp8" if weights == "fp8" else "bf16"
    return weights.compute


def peak_flops(gpu: GPU, weights) -> float:
    """Dense peak FLOP/s of one GPU for these weights: the fp8 tensor rate for W8A8 (fp8, and int8,
    which runs at the same rate on the GPUs listed), the fp4 rate for NVFP4 on Blackwell where the
    GPU lists one (else its fp8 rate), bf16 for the rest."""
    compute = compute_format(weights)
    if compute in ("fp8", "int8"):
        return gpu.fp8_flops
    if compute == "fp4":
        return getattr(gpu, "fp4_flops", 0) or gpu.fp8_flops
    return gpu.bf16_flops


@dataclass(frozen=True)
class Step:
    """One decode step on the most loaded GPU."""

    batch: int
    micro_batch: float  # sequences one stage (or one DP rank) processes per step, on average
    stages: int
    streamed_weight_bytes: float  # the weights the step reads, all GPUs together
    experts_touched: float  # routed experts per MoE layer the batch touches (0 for dense)
    weight_bytes_per_gpu: float
    kv_bytes_per_gpu: float
    flops_per_gpu: float
    memory_s: float  # one stage's bytes at the bandwidth
    compute_s: float  # one stage's FLOPs at the peak
    allreduce_s: float  # one stage's all-reduces (or all-to-alls)
    floor_s: float
    allreduce_note: str = ""

    @property
    def bytes_per_gpu(self) -> float:
        return self.weight_bytes_per_gpu + self.kv_bytes_per_gpu

    @property
    def stage_s(self) -> float:
        return max(self.memory_s, self.compute_s)

    @property
    def roofline_s(self) -> float:
        """Ceiling: time between two tokens of one stream."""
        return self.stages * self.stage_s

    @property
    def estimate_s(self) -> float:
        """The ceiling with the all-reduces and the engine's step floor."""
        return max(self.stages * (self.stage_s + self.allreduce_s), self.floor_s)

    @property
    def bound(self) -> str:
        return "compute" if self.compute_s > self.memory_s else "memory"

    @property
    def intensity(self) -> float:
        """FLOPs per byte moved, on one GPU."""
        return self.flops_per_gpu / self.bytes_per_gpu if self.bytes_per_gpu else 0.0


#: A recurrent layer reads its state and writes it back every decode step.
STATE_PASSES = 2


def kv_read_per_sequence(model: Model, placement: Placement, kv_dtype: str, context: float) -> float:
    """Cache bytes one GPU moves for one of its sequences at ``context`` tokens: the KV it reads,
    and a hybrid model's recurrent states, read and written back once per step (whatever the context)."""
    full, windowed = kv_layers_per_gpu(model, placement)
    if model.layer_specs:  # layers that differ: each read by its own spec
        kv = read_bytes_on(model, kv_dtype, placement, context, full + windowed)
    else:
        per_layer = layer_bytes_on(model, kv_dtype, placement)
        capped = min(context, model.window) if model.window else context
        kv = per_layer * (full * context + windowed * capped)
    if model.is_hybrid:
        tp = 1 if placement.layout.attention == DP else placement.tensor_parallel
        try:
            kv += STATE_PASSES * state_layers_per_gpu(model, placement) * state_layer_bytes(model, tp)
        except ValueError:  # the state does not split over this TP (the placement notes it)
            kv += STATE_PASSES * state_layers_per_gpu(model, placement) * state_layer_bytes(model, 1) / tp
    return kv


def collective_time(gpu: GPU, group: int, layers: int, message_bytes: float) -> tuple[float, str]:
    """Seconds of ``ALLREDUCES_PER_LAYER × layers`` small collectives over ``group`` GPUs, each
    the link's latency plus a ring's 2(n − 1)/n × message over its bandwidth; and the note on
    where the latency came from."""
    if group <= 1:
        return 0.0, ""
    latency_us, note = interconnects.allreduce_latency_us(gpu.id, group)
    transfer = 2 * (group - 1) / group * message_bytes / interconnects.allreduce_bandwidth(gpu.id, group)
    return ALLREDUCES_PER_LAYER * layers * (latency_us * 1e-6 + transfer), note


def decode_step(model: Model, placement: Placement, gpu: GPU, weights, kv_dtype: str,
                batch: int, context: float, floor_s: float = 0.0) -> Step:
    """The decode step of ``batch`` sequences at ``context`` tokens each (``weights``: a
    :class:`.weights.Weights` on this GPU, or a dtype name)."""
    w = as_weights(model, weights, gpu)
    peak = peak_flops(gpu, w)
    touched = expected_unique_experts(model.experts, model.experts_per_token, batch) if model.is_moe else 0.0
    kv_per_sequence = kv_read_per_sequence(model, placement, kv_dtype, context)
    if placement.layout.attention == DP:
        n = placement.data_parallel
        micro = max(1.0, batch / n)
        # Each GPU: the dense part for its own sequences, and its 1/n of the experts the batch touches.
        routed = w.routed_bytes(1, ep=n)
        weights_gpu = (placement.weight_bytes_per_gpu - placement.eplb_bytes - routed
                       + streamed_share(model, batch) * routed)
        flops = 2 * model.active * micro
        message = micro * model.hidden_size * ACTIVATION_BYTES * max(1, model.experts_per_token)
        comm, note = collective_time(gpu, n if model.is_moe else 1, model.layers, message)
        stages = 1
    else:
        tp, stages = placement.tensor_parallel, placement.pipeline_stages
        micro = max(1.0, batch / stages)
        share = placement.layers_per_gpu / model.layers
        # the routed experts as the placement holds them: 1/tp of each, or whole ones under expert parallelism
        routed = w.routed_bytes(tp, ep=placement.expert_parallel) * share
        weights_gpu = (placement.weight_bytes_per_gpu - placement.eplb_bytes - routed
                       + streamed_share(model, micro) * routed)
        flops = 2 * model.active * share / tp * micro
        message = micro * model.hidden_size * ACTIVATION_BYTES
        comm, note = collective_time(gpu, tp, placement.layers_per_gpu, message)
    kv = micro * kv_per_sequence
    return Step(
        batch=batch, micro_batch=micro, stages=stages, streamed_weight_bytes=streamed_bytes(model, w, batch),
        experts_touched=touched, weight_bytes_per_gpu=weights_gpu, kv_bytes_per_gpu=kv, flops_per_gpu=flops,
        memory_s=(weights_gpu + kv) / gpu.bandwidth, compute_s=flops / peak, allreduce_s=comm, floor_s=floor_s,
        allreduce_note=note,
    )


def ridge_batch(step_at) -> int:
    """The smallest batch whose step is compute-bound (``step_at(batch)`` gives the Step), or 0 if
    none up to RIDGE_SEARCH_MAX is. Compute-bound stays compute-bound as the batch grows: the
    FLOPs grow with it, the bytes per token only shrink."""
    if step_at(RIDGE_SEARCH_MAX).bound != "compute":
        return 0
    if step_at(1).bound == "compute":
        return 1
    low, high = 1, RIDGE_SEARCH_MAX  # memory-bound at low, compute-bound at high
    while high - low > 1:
        mid = (low + high) // 2
        if step_at(mid).bound == "compute":
            high = mid
        else:
            low = mid
    return high


@dataclass(frozen=True)
class Prefill:
    compute_s: float
    memory_s: float

    @property
    def seconds(self) -> float:
        return max(self.compute_s, self.memory_s)

    @property
    def bound(self) -> str:
        return "compute" if self.compute_s >= self.memory_s else "memory"


def prefill(model: Model, placement: Placement, gpu: GPU, weights, prompt_tokens: int) -> Prefill:
    """Time to first token of one prompt: its FLOPs at the dense peak of the GPUs it runs on, or
    the weights it touches streamed once, whichever is longer (pipeline stages run in turn, so
    they do not shorten it)."""
    w = as_weights(model, weights, gpu)
    peak = peak_flops(gpu, w)
    if placement.layout.attention == DP:
        n = placement.data_parallel
        routed_active = model.active - model.dense_params
        compute = 2 * prompt_tokens * (model.dense_params + routed_active / n) / peak
        routed = w.routed_bytes(1, ep=n)
        memory = (placement.weight_bytes_per_gpu - placement.eplb_bytes - routed
                  + streamed_share(model, prompt_tokens) * routed) / gpu.bandwidth
    else:
        tp = placement.tensor_parallel
        compute = 2 * model.active * prompt_tokens / (peak * tp)
        memory = streamed_bytes(model, w, prompt_tokens) / (gpu.bandwidth * tp)
    return Prefill(compute, memory)
