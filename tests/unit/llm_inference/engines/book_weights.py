"""The book's weights a GPU holds for a catalogue model (physics.weights), the input SGLang's tests give its pool."""

from __future__ import annotations

from llm_inference.hardware import GPUS
from llm_inference.models import catalogue_shape
from llm_inference.physics.weights import WeightPlan

GIB = 1 << 30


def book_weights_gib(model_id: str, tp: int, gpu_id: str) -> float:
    shape = catalogue_shape(model_id)
    return WeightPlan(shape.tensors, shape.quantization).on(GPUS[gpu_id]).rank_bytes(tp) / GIB
