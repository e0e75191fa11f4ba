"""The inverse questions: how few GPUs fit, and which listed configuration is cheapest.

A configuration *fits* when vLLM starts (a legal layout, memory left for the cache) and holds
``sequences`` requests of ``context`` tokens at once (:meth:`.budget.Pool.concurrency`). More GPUs
never hold fewer sequences (each GPU's share of the weights shrinks and the pool grows or is
repeated), so the fewest that fit are found by bisection over the legal sizes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..hardware import GPU, GPUS
from .budget import Engine, Pool, pool
from .memo import pure_cache
from .model import Model
from .placement import DP, MAX_GPUS, Layout, legal_tp_sizes, place
from .weights import as_plan, on_gpu


@pure_cache()
def deployment_pool(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str) -> Pool:
    """vLLM's pool for ``layout`` on ``gpu`` (``weights``: Weights, a WeightPlan or a dtype name;
    placed on this GPU, whose kernels may pad them, at the Weights' own release). Cached: the run's
    own deployment and every size a search tries are placed and sized once each."""
    placed = on_gpu(model, weights, gpu)
    return pool(model, gpu, place(model, layout, placed), engine, kv_dtype,
                experts=getattr(placed, "experts_format", ""))


def fits(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str,
         context: int, sequences: int) -> bool:
    return deployment_pool(model, gpu, layout, engine, weights, kv_dtype).holds(context, sequences)


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


class _SizedPools:
    """The legal sizes of one layout scheme and their pools, each built when first asked for: the
    bisection of :func:`fewest_gpus` asks for a few, and again when only the context or the
    sequences change."""

    def __init__(self, model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str) -> None:
        self.args = (model, gpu, layout, engine, weights, kv_dtype)
        self.sizes = candidate_sizes(model, layout, weights)
        self._pools: dict[int, Pool] = {}

    def pool(self, i: int) -> Pool:
        found = self._pools.get(i)
        if found is None:
            model, gpu, layout, engine, weights, kv_dtype = self.args
            found = self._pools[i] = deployment_pool(model, gpu, replace(layout, gpus=self.sizes[i]), engine, weights,
                                                     kv_dtype)
        return found


@pure_cache(maxsize=1024)
def _sized_pools(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str) -> _SizedPools:
    return _SizedPools(model, gpu, layout, engine, weights, kv_dtype)


def fewest_gpus(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str,
                context: int, sequences: int) -> int:
    """The fewest GPUs of this kind (a legal size, in ``layout``'s scheme) that fit; 0 if none up
    to MAX_GPUS does."""
    sized = _sized_pools(model, gpu, replace(layout, gpus=1), engine, weights, kv_dtype)
    sizes = sized.sizes

    def ok(i: int) -> bool:
        return sized.pool(i).holds(context, sequences)

    if not sizes or not ok(len(sizes) - 1):
        return 0
    low, high = -1, len(sizes) - 1  # ok(high); not known at low
    while high - low > 1:
        mid = (low + high) // 2
        if ok(mid):
            high = mid
        else:
            low = mid
    return sizes[high]


@dataclass(frozen=True)
class Offer:
    gpu: GPU
    gpus: int

    @property
    def usd_per_hour(self) -> float:
        return self.gpu.usd_per_hour * self.gpus

    def describe(self) -> str:
        return f"{self.gpus} × {self.gpu.name}"


def cheapest(model: Model, layout: Layout, engine: Engine, weights, kv_dtype: str, context: int,
             sequences: int, gpus: dict[str, GPU] = GPUS) -> Offer | None:
    """The listed GPU, at its fewest fitting count, with the lowest hourly price; None if none fits.
    ``weights`` placed on one GPU (a Weights) is placed on each other at its own release, never the
    newest's."""
    offers = []
    for gpu in gpus.values():
        if gpu.usd_per_hour <= 0:
            continue
        n = fewest_gpus(model, gpu, layout, engine, on_gpu(model, weights, gpu), kv_dtype, context, sequences)
        if n:
            offers.append(Offer(gpu, n))
    return min(offers, key=lambda o: (o.usd_per_hour, o.gpus), default=None)
