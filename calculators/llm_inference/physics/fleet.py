"""The inverse questions: how few GPUs fit, and which listed configuration is cheapest.

A configuration *fits* when vLLM starts (a legal layout, memory left for the cache) and holds
``sequences`` requests of ``context`` tokens at once (:meth:`.budget.Pool.concurrency`). More GPUs
never hold fewer sequences (each GPU's share of the weights shrinks and the pool grows or is
repeated), so the fewest that fit are found by bisection over the legal sizes.

Both searches start from the reader's :class:`.deployment.Deployment` and resize it — another count,
another kind of GPU — keeping its model, release, weight format and model runner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..hardware import GPU, GPUS
from .budget import Engine, Pool
from .deployment import Deployment, deployment_pool
from .memo import pure_cache
from .model import Model
from .placement import Layout, candidate_sizes
from .weights import Weights

__all__ = ["Offer", "candidate_sizes", "cheapest", "deployment_pool", "fewest_gpus", "fits"]


def fits(deployment: Deployment, context: int, sequences: int) -> bool:
    return deployment.pool.holds(context, sequences)


class _SizedPools:
    """The legal sizes of one deployment's layout scheme and their pools, each built when first asked
    for: the bisection of :func:`fewest_gpus` asks for a few, and again when only the context or the
    sequences change."""

    def __init__(self, base: Deployment) -> None:
        self.base = base
        self.sizes = base.legal_sizes()
        self._pools: dict[int, Pool] = {}

    def pool(self, i: int) -> Pool:
        found = self._pools.get(i)
        if found is None:
            found = self._pools[i] = self.base.resized(gpus=self.sizes[i]).pool
        return found


@pure_cache(maxsize=1024)
def _sized_pools(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights: Weights,
                 kv_dtype: str, sglang=None) -> _SizedPools:
    return _SizedPools(Deployment(model, gpu, layout, engine, weights, kv_dtype, sglang))


def fewest_gpus(deployment: Deployment, context: int, sequences: int) -> int:
    """The fewest GPUs of the deployment's kind (a legal size, in its layout's scheme) that fit; 0 if
    none up to MAX_GPUS does."""
    d = deployment
    sized = _sized_pools(d.model, d.gpu, replace(d.layout, gpus=1), d.engine, d.weights, d.kv_dtype, d.sglang)
    sizes = sized.sizes

    def ok(i: int) -> bool:
        return sized.pool(i).holds(context, sequences)

    if d.engine.speculation.on or (d.engine.lora is not None and d.engine.lora.fully_sharded):
        # a drafter may refuse one size and not a larger one (its heads must split like the target's,
        # physics.speculation), and fully sharded LoRA a size that does not divide the rank (physics.lora):
        # no bisection over a fit that is not monotone; the fewest that fit, in order
        return next((sizes[i] for i in range(len(sizes)) if ok(i)), 0)
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


def cheapest(deployment: Deployment, context: int, sequences: int, gpus: dict[str, GPU] = GPUS) -> Offer | None:
    """The listed GPU, at its fewest fitting count, with the lowest hourly price; None if none fits.
    Each GPU gets the deployment resized onto it: its weights placed there at the deployment's
    release, never the newest's."""
    offers = []
    for gpu in gpus.values():
        if gpu.usd_per_hour <= 0:
            continue
        n = fewest_gpus(deployment.resized(gpu=gpu), context, sequences)
        if n:
            offers.append(Offer(gpu, n))
    return min(offers, key=lambda o: (o.usd_per_hour, o.gpus), default=None)
