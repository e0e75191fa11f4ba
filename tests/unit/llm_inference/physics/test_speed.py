"""The decode step: the MoE expert formula against a simulation, tensor-parallel communication,
pipeline stages, the floor, and the ridge."""

from __future__ import annotations

import numpy as np
import pytest

from llm_inference import interconnects, scenario
from llm_inference.hardware import GPUS
from llm_inference.physics import Layout, decode_step, place, ridge_batch, weights

DEEPSEEK = scenario.model_from_inputs(dict(scenario.catalogue_values("deepseek-v3")))
LLAMA_70B = scenario.model_from_inputs(dict(scenario.catalogue_values("llama-3.1-70b")))
H100, H200 = GPUS["h100-sxm"], GPUS["h200"]


@pytest.mark.parametrize("experts, k, batch", [(256, 8, 1), (256, 8, 8), (256, 8, 64), (8, 2, 4), (128, 8, 32)])
def test_expected_unique_experts_matches_a_simulation(experts, k, batch):
    rng = np.random.default_rng(0)
    trials = 4000
    picks = np.argsort(rng.random((trials, batch, experts)), axis=2)[:, :, :k]  # k distinct experts per token
    touched = np.array([len(np.unique(t)) for t in picks])
    formula = weights.expected_unique_experts(experts, k, batch)
    assert formula == pytest.approx(experts * (1 - (1 - k / experts) ** batch))
    assert touched.mean() == pytest.approx(formula, rel=0.02)


def test_moe_streams_the_experts_the_batch_touches():
    one = decode_step(DEEPSEEK, place(DEEPSEEK, Layout(8), "fp8"), H200, "fp8", "bf16", 1, 1024)
    assert one.experts_touched == pytest.approx(8)
    assert one.streamed_weight_bytes == pytest.approx(DEEPSEEK.active)  # fp8: one byte per parameter
    many = decode_step(DEEPSEEK, place(DEEPSEEK, Layout(8), "fp8"), H200, "fp8", "bf16", 64, 1024)
    x, d = DEEPSEEK.expert_index_params, DEEPSEEK.dense_params
    assert many.experts_touched == pytest.approx(256 * (1 - (1 - 8 / 256) ** 64))
    assert many.streamed_weight_bytes == pytest.approx(d + many.experts_touched * x)
    assert many.streamed_weight_bytes > 10 * one.streamed_weight_bytes


def test_dense_and_expert_parts_add_up():
    assert DEEPSEEK.dense_params + 8 * DEEPSEEK.expert_index_params == pytest.approx(DEEPSEEK.active)
    assert DEEPSEEK.dense_params + 256 * DEEPSEEK.expert_index_params == pytest.approx(DEEPSEEK.total_params)


def test_tensor_parallel_all_reduces():
    step = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(2), "bf16"), H100, "bf16", "bf16", 1, 1024)
    message = 1 * LLAMA_70B.hidden_size * 2
    per = interconnects.LINKS["h100-sxm"].allreduce_small_us * 1e-6 + message / interconnects.allreduce_bandwidth(
        "h100-sxm", 2)
    assert step.allreduce_s == pytest.approx(2 * 80 * per)
    assert step.estimate_s == pytest.approx(step.roofline_s + step.allreduce_s)
    one = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(1), "bf16"), H100, "bf16", "bf16", 1, 1024)
    assert one.allreduce_s == 0 and one.estimate_s == one.roofline_s


def test_sixteen_gpus_span_two_nodes():
    step = decode_step(DEEPSEEK, place(DEEPSEEK, Layout(16), "fp8"), H100, "fp8", "bf16", 1, 1152)
    assert step.allreduce_s > 2 * 61 * interconnects.CROSS_NODE_ALLREDUCE_US * 1e-6 * 0.99
    assert step.estimate_s > 5 * step.roofline_s  # the network, not the HBM, sets the pace


def test_the_floor_is_a_floor():
    base = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(1), "int4"), H100, "int4", "bf16", 1, 1024)
    floored = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(1), "int4"), H100, "int4", "bf16", 1, 1024, floor_s=0.05)
    assert floored.estimate_s == 0.05 and floored.roofline_s == base.roofline_s


def test_pipeline_stages_do_not_speed_up_one_stream():
    tp = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(2), "bf16"), H100, "bf16", "bf16", 1, 1)
    pp = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(2, pipeline_stages=2), "bf16"), H100, "bf16", "bf16", 1, 1)
    one = decode_step(LLAMA_70B, place(LLAMA_70B, Layout(1), "bf16"), H100, "bf16", "bf16", 1, 1)
    assert pp.roofline_s == pytest.approx(one.roofline_s, rel=1e-3)  # a token still crosses every weight
    assert tp.roofline_s == pytest.approx(one.roofline_s / 2, rel=1e-3)


def test_mla_is_read_whole_by_every_gpu():
    step = decode_step(DEEPSEEK, place(DEEPSEEK, Layout(8), "fp8"), H200, "fp8", "bf16", 4, 4096)
    assert step.kv_bytes_per_gpu == 4 * 4096 * 70272


def test_ridge_batch_is_the_first_compute_bound_batch():
    placement = place(LLAMA_70B, Layout(4), "bf16")

    def at(b):
        return decode_step(LLAMA_70B, placement, H100, "bf16", "bf16", b, 256)

    r = ridge_batch(at)
    assert at(r).bound == "compute" and at(r - 1).bound == "memory"
    assert ridge_batch(lambda b: decode_step(LLAMA_70B, placement, H100, "bf16", "bf16", b, 1 << 20)) == 0
