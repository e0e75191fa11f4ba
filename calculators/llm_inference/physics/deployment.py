"""One deployment: the reader's model on their GPUs under their engine, built once per run.

The inputs become one object, in one direction: the model (its shape, as the physics counts it) →
its weights at the chosen release and format, on the chosen kind of GPU → the engine's rules, with
the model runner chosen once for this model (vLLM 0.22–0.28 pick V1 or V2 by architecture, MoE,
quantization and hybrid layers, ``Rules.model_runner``) → the placement of the weights and the KV
heads → vLLM's pool. Every figure a calculator shows is read from it: the pool's budget and the
"Engine rules" text follow the same runner, and the weights in the verdict are the weights the
searches place.

The searches (the fewest GPUs of this kind, the cheapest listed GPU) *resize* the deployment — another
count, another kind of GPU — keeping its model, release, weight format and runner: the weights are
placed on the other GPU at the deployment's release (:meth:`Deployment.resized`), never re-derived.
Each (GPU, count) a run tries is placed and sized once (:func:`deployment_pool` is cached); the
searches themselves are :mod:`.fleet`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..hardware import GPU
from .budget import Engine, Pool, pool
from .memo import pure_cache
from .model import Model
from .placement import Layout, Placement, candidate_sizes, place
from .sglang_pool import SGLangSettings, sglang_pool
from .weights import Weights, as_plan, on_gpu


@pure_cache()
def deployment_pool(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str) -> Pool:
    """vLLM's pool for ``layout`` on ``gpu`` (``weights``: Weights, a WeightPlan or a dtype name;
    placed on this GPU, whose kernels may pad them, at the Weights' own release). Cached by value: a
    run's own deployment and every size its searches try are placed and sized once each, and a
    reader's next run that changes only the context asks for the same ones."""
    placed = on_gpu(model, weights, gpu)
    return pool(model, gpu, place(model, layout, placed), engine, kv_dtype,
                experts=getattr(placed, "experts_format", ""), weights=placed)


@dataclass(frozen=True, eq=False)
class Deployment:
    """The model, its weights on ``gpu`` (at the engine's release), the layout over ``layout.gpus``
    GPUs, the engine with its model runner chosen, and the KV cache's dtype."""

    model: Model
    gpu: GPU
    layout: Layout
    engine: Engine
    weights: Weights
    kv_dtype: str
    #: SGLang's flags when the engine is SGLang (None: vLLM, whose pool is :func:`deployment_pool`'s).
    sglang: SGLangSettings | None = None

    @property
    def version(self) -> str:
        """The vLLM release whose rules every figure follows (the weights' and the engine's)."""
        return self.engine.version

    @property
    def runner(self) -> str:
        """The model runner ("v1" or "v2") chosen for this model: the budget's and the text's."""
        return self.engine.model_runner

    @property
    def pool(self) -> Pool:
        """vLLM's budget and blocks on the most loaded GPU (built once for this GPU and count); under
        SGLang, SGLang's token pool in the same shape (:mod:`.sglang_pool`)."""
        if self.sglang is not None:
            placed = on_gpu(self.model, self.weights, self.gpu)
            return sglang_pool(self.model, self.gpu, place(self.model, self.layout, placed), self.sglang,
                               self.kv_dtype, self.engine.speculation, placed, self.engine.lora)
        return deployment_pool(self.model, self.gpu, self.layout, self.engine, self.weights, self.kv_dtype)

    @property
    def placement(self) -> Placement:
        return self.pool.placement

    def resized(self, gpus: int | None = None, gpu: GPU | None = None) -> "Deployment":
        """The same deployment on ``gpus`` GPUs (the same layout scheme) and/or another kind of GPU:
        the weights placed on it at this deployment's release, the engine (and its runner) kept."""
        gpu = gpu or self.gpu
        weights = on_gpu(self.model, self.weights, gpu)  # at self.weights.version
        layout = self.layout if gpus is None else replace(self.layout, gpus=gpus)
        return Deployment(self.model, gpu, layout, self.engine, weights, self.kv_dtype, self.sglang)

    def legal_sizes(self) -> list[int]:
        """GPU counts vLLM accepts for this model, layout scheme and checkpoint
        (:func:`.placement.candidate_sizes`)."""
        return candidate_sizes(self.model, self.layout, self.weights)


def deploy(model: Model, gpu: GPU, layout: Layout, engine: Engine, weights, kv_dtype: str) -> Deployment:
    """The deployment of ``model`` on ``layout.gpus`` × ``gpu``: ``weights`` (Weights, a WeightPlan or
    a dtype name) placed on ``gpu`` at ``engine``'s release unless already placed so, and the model
    runner chosen once, for this model."""
    if isinstance(weights, Weights) and weights.version == engine.version:
        weights = on_gpu(model, weights, gpu)
    else:  # a plan, a dtype name, or weights laid out for another release: the engine's release rules
        weights = as_plan(model, weights).on(gpu, engine.version)
    if not engine.model_runner:
        engine = replace(engine, model_runner=engine.runner(model.is_moe, gpu.vendor))
    return Deployment(model, gpu, layout, engine, weights, kv_dtype)
