"""A vision tower among the weights (llm_inference.physics.weights): held on every GPU of every
pipeline stage, split like the text model's layers, in the checkpoint's format, and never streamed by a
text decode step."""

from __future__ import annotations

import math

import pytest

from llm_inference.hardware import GPUS
from llm_inference.models import catalogue_shape
from llm_inference.models.params import COLUMN, ROW, VISION
from llm_inference.physics.model import Model
from llm_inference.physics.weights import WeightPlan, streamed_bytes

SHAPE = catalogue_shape("qwen3.6-35b-a3b-nvfp4")
TOWER = SHAPE.vision.tensors


def _plans():
    text = WeightPlan(SHAPE.tensors, SHAPE.quantization).on(GPUS["rtx-5090"], "0.24.0")
    both = WeightPlan(SHAPE.tensors + TOWER, SHAPE.quantization).on(GPUS["rtx-5090"], "0.24.0")
    return text, both


def test_modelopt_mixed_precision_keeps_the_tower_in_bf16():
    # nvidia/Qwen3.6-35B-A3B-NVFP4's quantized_layers lists no model.visual layer: vLLM leaves them
    # unquantized (modelopt.py: "Layer not in quantized_layers — leave unquantized")
    text, both = _plans()
    assert both.vision_bytes() == sum(t.params for t in TOWER) * 2
    assert text.vision_bytes() == 0
    assert both.total_bytes - text.total_bytes == pytest.approx(0.8318 * 2**30, rel=1e-4)
    assert dict((g.group, g.formats) for g in both.groups())[VISION] == ("bf16",)


def test_tensor_parallel_splits_the_towers_linear_layers():
    _, both = _plans()
    expected = 0.0
    for t in TOWER:
        n = t.params
        if t.split in (COLUMN, ROW) and t.param == "weight" or (t.split == COLUMN and t.param == "bias"):
            n /= 2
        expected += n * 2
    assert both.vision_bytes(2) == pytest.approx(expected)
    assert both.vision_bytes(2) < both.vision_bytes(1) / 2 + 8e6  # norms, embeddings and row biases whole


def test_every_pipeline_stage_holds_the_tower():
    text, both = _plans()
    first = range(0, 20)
    last = range(20, 40)
    for layers, f, l in ((first, True, False), (last, False, True), (range(10, 20), False, False)):
        assert (both.rank_bytes(1, layers=layers, first=f, last=l) - text.rank_bytes(1, layers=layers, first=f, last=l)
                == pytest.approx(both.vision_bytes()))


def test_a_decode_step_does_not_stream_the_tower():
    text, both = _plans()
    model = Model(layers=40, total_params=SHAPE.total_params, active_params=SHAPE.active_params, experts=256,
                  experts_per_token=8)
    assert streamed_bytes(model, both, 1) == pytest.approx(streamed_bytes(model, text, 1))
    assert math.isclose(both.total_bytes - both.vision_bytes(), text.total_bytes)
