"""vLLM's budget with a vision tower (llm_inference.physics.budget): the profile run's peak is the
encoder pass on the largest image, or the text pass with the encoder's outputs held, whichever is
larger; text only (every multimodal limit 0) leaves the text model's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from llm_inference import scenario
from llm_inference.engines import vllm_encoder
from llm_inference.hardware import GPUS
from llm_inference.physics import Engine, Layout, place, pool

GIB = 1 << 30
INPUTS = {**dict(scenario.catalogue_values("qwen3.6-35b-a3b-nvfp4")), "model": "qwen3.6-35b-a3b-nvfp4", "config": ""}
MODEL = scenario.model_from_inputs(INPUTS)
GPU = GPUS["rtx-5090"]
ENGINE = Engine(max_num_batched_tokens=8192, max_num_seqs=1, version="0.24.0", max_model_len=131072,
                architecture="Qwen3_5MoeForConditionalGeneration", quantized=True, hybrid=True)


def _pool(engine, model=MODEL):
    return pool(model, GPU, place(model, Layout(1), "bf16"), engine, "fp8")


def test_the_catalogue_model_carries_its_tower():
    assert MODEL.vision == scenario.catalogue_shape("qwen3.6-35b-a3b-nvfp4").vision.encoder
    assert scenario.model_from_inputs({**INPUTS, "model": scenario.CUSTOM}).vision is None


def test_the_encoder_pass_sets_the_peak_of_a_small_batch():
    p = _pool(ENGINE)
    assert p.encoder.budget == vllm_encoder.EncoderBudget("image", 16384, 1, 16384)
    assert p.activation_bytes == p.encoder.peak_bytes == pytest.approx(1.8838 * GIB, rel=1e-4)
    assert p.text_activation_bytes < p.activation_bytes


def test_a_large_batch_peaks_in_the_text_pass_with_the_encoders_outputs_held():
    p = _pool(replace(ENGINE, max_num_seqs=1024))
    assert p.activation_bytes == pytest.approx(p.text_activation_bytes + p.encoder.kept_bytes)
    assert p.activation_bytes > p.encoder.peak_bytes


def test_text_only_is_the_text_models_peak():
    p = _pool(replace(ENGINE, image_limit=0, video_limit=0))
    assert p.encoder is None and p.activation_bytes == p.text_activation_bytes
    assert not replace(ENGINE, image_limit=0, video_limit=0).serves_vision
    # a limit of 2 images (the RTX 5090 runs) profiles the same image as the default
    assert _pool(replace(ENGINE, image_limit=2)).activation_bytes == _pool(ENGINE).activation_bytes


def test_the_encoder_pass_comes_off_the_pool():
    served, text = _pool(ENGINE), _pool(replace(ENGINE, image_limit=0, video_limit=0))
    assert text.available_bytes - served.available_bytes == pytest.approx(
        served.activation_bytes - text.activation_bytes)
