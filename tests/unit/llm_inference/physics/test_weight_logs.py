"""Public "Model loading took X GiB" lines rebuilt from the checkpoints' tensors and formats.

Each log of llm_inference.engines.weight_logs is the catalogue entry of the checkpoint it loaded,
on its GPU, at its tensor-parallel size, under its vLLM release: the weights one GPU holds must
come out within 2 % of the logged figure, and through the calculators (model picked by name,
weight precision left "as shipped") too.
"""

from __future__ import annotations

import pytest

from course_calculators.units import GiB
from llm_inference import kv_cache
from llm_inference.engines.weight_logs import BY_ID, WEIGHT_LOGS
from llm_inference.hardware import GPUS
from llm_inference.models import CATALOGUE, catalogue_shape
from llm_inference.models.quantization import format_scheme
from llm_inference.physics.weights import WeightPlan

TOLERANCE = 0.02


def held_gib(log) -> float:
    shape = catalogue_shape(log.model)
    scheme = (shape.quantization if log.weight_format == "shipped"
              else format_scheme(log.weight_format, "float16"))
    weights = WeightPlan(shape.tensors, scheme).on(GPUS[log.gpu], log.engine_version or "0.33.0")
    return weights.rank_bytes(log.tensor_parallel) / GiB


CHECKED = [log for log in WEIGHT_LOGS if log.within_2_percent]


@pytest.mark.parametrize("log", CHECKED, ids=[log.id for log in CHECKED])
def test_model_loading_line_reproduced_within_2_percent(log):
    assert log.model in CATALOGUE and log.gpu in GPUS
    assert str(log.loaded_gib).rstrip("0").rstrip(".") in log.line.replace(",", "")
    got = held_gib(log)
    assert abs(got / log.loaded_gib - 1) <= TOLERANCE, f"{got:.3f} GiB vs {log.loaded_gib} logged"


@pytest.mark.parametrize("log_id", ["gpt-oss-120b-h100-triton", "deepseek-r1-0528-tp8-h200-v0112",
                                    "llama33-70b-fp8-dynamic-tp1-h100", "llama31-70b-w8a8-tp1-v071"])
def test_the_calculator_shows_it_with_the_model_picked_by_name(log_id):
    """The reader's path: pick the model, leave the precision as shipped: the per-GPU weights are
    the log's (kv-cache runs vLLM 0.33.0's rules)."""
    log = BY_ID[log_id]
    v = kv_cache.SPEC.run({"model": log.model, "gpu": log.gpu, "gpus": log.tensor_parallel}).values
    assert abs(v["weight_bytes_per_gpu"] / GiB / log.loaded_gib - 1) <= TOLERANCE
    if log.tensor_parallel == 1:
        # the breakdown's total is the weights output, and is what one GPU holds
        assert v["weight_bytes"] == pytest.approx(v["weight_bytes_per_gpu"])


def test_the_issue_s_errors_are_gone():
    """Before the tensor groups: gpt-oss at one width was 15-29 % light, a Llama 70B 8-bit
    checkpoint about 3 % light, DeepSeek-V3 by name 1.22 TiB of bf16."""
    errors = {log.id: held_gib(log) / log.loaded_gib - 1 for log in CHECKED}
    assert all(abs(e) <= TOLERANCE for e in errors.values())
    # the open case stays within 3 %, and is reported as such
    for log in WEIGHT_LOGS:
        if not log.within_2_percent:
            assert abs(held_gib(log) / log.loaded_gib - 1) < 0.03
    deepseek = kv_cache.SPEC.run({"model": "deepseek-v3", "gpu": "h200", "gpus": 8}).values
    assert deepseek["weight_bytes"] / GiB < 640  # fp8 as shipped, not 1.22 TiB


def test_at_least_one_log_per_required_checkpoint_kind():
    kinds = {catalogue_shape(log.model).quantization.method for log in WEIGHT_LOGS}
    assert {"mxfp4", "fp8", "compressed-tensors", "awq", "none"} <= kinds
    assert {"gpt-oss-120b", "gpt-oss-20b", "deepseek-r1"} <= {log.model for log in WEIGHT_LOGS}
    assert sum(1 for log in WEIGHT_LOGS if log.url) >= 4
