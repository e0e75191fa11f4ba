"""Published decode measurements set against the physics' own ceiling for their configuration.

Each point of :data:`llm_inference.measurements.DECODE_POINTS` is rebuilt as a physics
:class:`~.model.Model` (a catalogue model where the chapter has it, else the shapes of the
model's published config, listed below) on its GPUs, and run through the same
:func:`~.speed.decode_step` the calculators use, at its batch and at its mean context (the
input plus half the output). ``share`` is the ceiling's step time over the measured one: how
much of the roofline the engine reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..hardware import GPUS
from ..measurements import DECODE_POINTS, DecodePoint
from ..models import catalogue_shape
from .model import Model
from .placement import Layout, place
from .speed import Step, decode_step

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


def model_of(point: DecodePoint) -> Model:
    from ..scenario import model_from_shape  # the one translation from a catalogue shape

    if point.model in CATALOGUE_MODELS:
        return model_from_shape(catalogue_shape(CATALOGUE_MODELS[point.model]))
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

