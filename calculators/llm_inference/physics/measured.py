"""Published measurements set against the physics' own ceiling for their configuration.

Each point of :data:`llm_inference.measurements.DECODE_POINTS` is rebuilt as a physics
:class:`~.model.Model` (a catalogue model where the chapter has it, else the shapes of the
model's published config, listed below) on its GPUs, and run through the same
:func:`~.speed.decode_step` the calculators use, at its batch and at its mean context (the
input plus half the output). ``share`` is the ceiling's step time over the measured one: how
much of the roofline the engine reached.

Each point of :data:`~llm_inference.measurements.PREFILL_POINTS` (a time to first token at
concurrency 1) is run through the same :func:`~.speed.prefill` at its input length; its
``share`` is the prefill ceiling over the measured time.

A :class:`Band` is the range of those shares over the runs of one *scope*: on one node (up to
``GPUS_PER_NODE`` GPUs, NVLink or PCIe between them) or across nodes (every layer's all-reduces
over the network). Applied to a calculator's ceiling it gives the range the published engines
would have reached on that configuration: the measured band drawn beside each ceiling.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from functools import cache

from ..hardware import GPUS
from ..interconnects import GPUS_PER_NODE
from ..measurements import DECODE_POINTS, PREFILL_POINTS, DecodePoint, PrefillPoint
from ..models import catalogue_shape
from .model import Model
from .placement import Layout, place
from .speed import Prefill, Step, decode_step, prefill

#: Points whose model the catalogue holds (the same shapes).
CATALOGUE_MODELS = {
    "Llama-3.3-70B-Instruct": "llama-3.3-70b",
    "DeepSeek-R1-0528": "deepseek-r1",
    "Llama-3.1-405B-Instruct": "llama-3.1-405b",
}
#: The others, from their published config.json (meta-llama/Llama-2-7b-hf, Llama-2-70b-hf;
#: nvidia/Llama-3_3-Nemotron-Super-49B-v1, whose pruned blocks vary: its KV is taken as the
#: 80 full layers of Llama-3.3-70B, as measurements.py does, and its 49.87B parameters as dense).
OTHER_MODELS = {
    "LLaMA 7B (Llama-2-7B)": Model(layers=32, kv_heads=32, head_dim=128, heads=32, hidden_size=4096,
                                   intermediate_size=11008, vocab_size=32000, total_params=6.74e9),
    "LLaMA 70B (Llama-2-70B)": Model(layers=80, kv_heads=8, head_dim=128, heads=64, hidden_size=8192,
                                     intermediate_size=28672, vocab_size=32000, total_params=68.98e9),
    "Llama-3.3-Nemotron-Super-49B": Model(layers=80, kv_heads=8, head_dim=128, heads=64, hidden_size=8192,
                                          intermediate_size=28672, vocab_size=128256, total_params=49.87e9),
}


def model_of(point: DecodePoint | PrefillPoint) -> Model:
    """The point's model: a catalogue model as the calculators see it (its MLP width read from its
    config.json, as every other field), else one of :data:`OTHER_MODELS`."""
    from ..scenario import catalogue_model  # the one translation from a catalogue shape

    if point.model in CATALOGUE_MODELS:
        return catalogue_model(CATALOGUE_MODELS[point.model])
    return OTHER_MODELS[point.model]


def _dtype(text: str) -> str:
    for word in ("fp8", "fp16", "bf16"):
        if text.startswith(word):
            return word
    return "bf16"  # "not stated (bf16 assumed)"


@dataclass(frozen=True)
class Judged:
    point: DecodePoint
    model_id: str | None  # the catalogue id, where the chapter has the model
    step: Step

    @property
    def ceiling_ms(self) -> float:
        return self.step.roofline_s * 1e3

    @property
    def estimate_ms(self) -> float:
        """The ceiling plus the tensor-parallel all-reduces (no step floor)."""
        return self.step.estimate_s * 1e3

    @property
    def share(self) -> float:
        """Measured speed as a share of the ceiling (1 = at the roofline)."""
        return self.ceiling_ms / self.point.step_ms

    @property
    def measured_tokens_per_s(self) -> float:
        """One stream's measured speed."""
        return 1e3 / self.point.step_ms

    def label(self) -> str:
        p = self.point
        return (f"{p.engine} {p.engine_version}: {p.model} {p.precision}, {p.gpus} × {GPUS[p.gpu].name} "
                f"({p.parallelism}), batch {p.concurrency}: {p.step_ms:.1f} ms measured, "
                f"{self.ceiling_ms:.1f} ms ceiling ({self.share:.0%}) — {p.source_url}")


def judge(point: DecodePoint) -> Judged:
    model = model_of(point)
    context = point.input_tokens + point.output_tokens / 2
    placement = place(model, Layout(point.gpus), _dtype(point.precision))
    step = decode_step(model, placement, GPUS[point.gpu], _dtype(point.precision), _dtype(point.kv_precision),
                       point.concurrency, context)
    return Judged(point, CATALOGUE_MODELS.get(point.model), step)


@cache
def judged() -> tuple[Judged, ...]:
    """Every published point, judged (computed once)."""
    return tuple(judge(p) for p in DECODE_POINTS)


def matching(model_id: str, gpu_id: str, gpus: int, weight_dtype: str) -> list[Judged]:
    """The points measured on a catalogue model of this shape (Llama 3.1 70B is Llama 3.3 70B's),
    on this GPU, GPU count and weight precision."""
    try:
        signature = catalogue_shape(model_id).signature()
    except KeyError:
        return []
    return [j for j in judged() if j.model_id and catalogue_shape(j.model_id).signature() == signature
            and j.point.gpu == gpu_id and j.point.gpus == gpus and _dtype(j.point.precision) == weight_dtype]



@dataclass(frozen=True)
class JudgedPrefill:
    point: PrefillPoint
    model_id: str | None
    prefill: Prefill

    @property
    def ceiling_ms(self) -> float:
        return self.prefill.seconds * 1e3

    @property
    def share(self) -> float:
        """The prefill ceiling as a share of the measured time to first token (1 = at the ceiling)."""
        return self.ceiling_ms / self.point.ttft_ms

    def label(self) -> str:
        p = self.point
        return (f"{p.engine} {p.engine_version}: {p.model} {p.precision}, {p.gpus} × {GPUS[p.gpu].name} "
                f"({p.parallelism}), {p.input_tokens:,} input tokens: {p.ttft_ms:g} ms measured, "
                f"{self.ceiling_ms:.1f} ms ceiling ({self.share:.0%}) — {p.source_url}")


def judge_prefill(point: PrefillPoint) -> JudgedPrefill:
    model = model_of(point)
    dtype = _dtype(point.precision)
    placement = place(model, Layout(point.gpus), dtype)
    return JudgedPrefill(point, CATALOGUE_MODELS.get(point.model),
                         prefill(model, placement, GPUS[point.gpu], dtype, point.input_tokens))


@cache
def judged_prefill() -> tuple[JudgedPrefill, ...]:
    """Every published time to first token, judged (computed once)."""
    return tuple(judge_prefill(p) for p in PREFILL_POINTS)


def across_nodes(gpus: int) -> bool:
    return gpus > GPUS_PER_NODE


@dataclass(frozen=True)
class Band:
    """The lowest and highest share of the ceiling that the published runs of one scope reached."""

    low: float
    high: float
    runs: int
    engines: tuple[str, ...]
    across: bool  # the scope: across nodes, or on one node

    def describe(self) -> str:
        """'20% to 67% of the ceiling in 13 published runs on one node (NVIDIA NIM, TensorRT-LLM, vLLM)'."""
        where = "across nodes" if self.across else "on one node"
        runs = f"{self.runs} published run{'s' if self.runs != 1 else ''}"
        low, high = f"{self.low:.0%}", f"{self.high:.0%}"
        shares = low if low == high else f"{low} to {high}"
        return f"{shares} of the ceiling in {runs} {where} ({', '.join(self.engines)})"


def _band(shares_engines: list[tuple[float, str]], across: bool) -> Band | None:
    if not shares_engines:
        return None
    shares = [s for s, _ in shares_engines]
    engines = tuple(sorted({e for _, e in shares_engines}))
    return Band(min(shares), max(shares), len(shares), engines, across)


def decode_band(gpus: int) -> Band | None:
    """The shares of the decode ceiling reached by the published runs in the scope of ``gpus``."""
    across = across_nodes(gpus)
    return _band([(j.share, j.point.engine) for j in judged() if across_nodes(j.point.gpus) == across], across)


def prefill_band(gpus: int) -> Band | None:
    """The shares of the prefill ceiling reached by the published times to first token in the
    scope of ``gpus``."""
    across = across_nodes(gpus)
    return _band([(j.share, j.point.engine) for j in judged_prefill()
                  if across_nodes(j.point.gpus) == across], across)


def median_decode_share(gpus: int = 1) -> float:
    """The median share of the decode ceiling that published runs in the scope of ``gpus`` reached."""
    across = across_nodes(gpus)
    return statistics.median(j.share for j in judged() if across_nodes(j.point.gpus) == across)


def median_prefill_share(gpus: int = 1) -> float:
    across = across_nodes(gpus)
    return statistics.median(j.share for j in judged_prefill() if across_nodes(j.point.gpus) == across)
