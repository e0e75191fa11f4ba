"""The measured decode points and the link table: complete, sourced, and below their ceilings."""

from __future__ import annotations

import pytest

from llm_inference import interconnects, measurements
from llm_inference.hardware import GPUS
from llm_inference.measurements import DECODE_POINTS, PREFILL_POINTS


def test_enough_points_of_every_kind():
    assert len(DECODE_POINTS) >= 10
    assert len({p.id for p in DECODE_POINTS}) == len(DECODE_POINTS)
    assert any(p.routed_experts for p in DECODE_POINTS) and any(not p.routed_experts for p in DECODE_POINTS)
    assert any(p.gpus == 1 for p in DECODE_POINTS) and any(p.gpus >= 8 for p in DECODE_POINTS)
    assert "vLLM" in {p.engine for p in DECODE_POINTS}


@pytest.mark.parametrize("point", DECODE_POINTS + PREFILL_POINTS, ids=lambda p: p.id)
def test_every_point_is_sourced(point):
    assert point.source_url.startswith("https://")
    assert point.engine and point.engine_version and point.model and point.quote
    assert point.gpu in GPUS
    assert point.gpus >= 1 and point.parallelism


@pytest.mark.parametrize("point", DECODE_POINTS, ids=lambda p: p.id)
def test_measured_decode_sits_below_the_bandwidth_roofline(point):
    assert point.concurrency >= 1 and point.input_tokens > 0 and point.output_tokens > 0
    assert point.step_ms > 0 and point.weight_bytes_per_token > 0 and point.kv_bytes_per_token > 0
    fraction = measurements.roofline_fraction(point)
    assert 0 < fraction < 1, fraction


def test_published_figure_and_step_time_agree():
    for p in DECODE_POINTS:
        if p.metric in ("itl_ms", "tpot_ms"):
            assert p.step_ms == p.value
        elif p.metric == "out_tok_s_per_gpu":
            assert p.step_ms == pytest.approx(p.concurrency / (p.value * p.gpus) * 1e3)
        else:
            assert p.metric == "out_tok_s"
            # static batch: batch ÷ throughput, or the latency benchmark's time ÷ output tokens
            assert p.step_ms == pytest.approx(p.concurrency / p.value * 1e3, rel=0.05)


def test_a_batch_touches_more_experts_than_one_token():
    assert measurements.expected_unique_experts(256, 8, 1) == pytest.approx(8)
    assert measurements.expected_unique_experts(256, 8, 8) == pytest.approx(57.4, abs=0.1)
    assert measurements.expected_unique_experts(256, 8, 10_000) == pytest.approx(256)
    point = next(p for p in DECODE_POINTS if p.routed_experts and p.concurrency == 64)
    assert measurements.step_weight_bytes(point) > 10 * point.weight_bytes_per_token


def test_prefill_is_no_faster_than_its_compute_floor():
    for p in PREFILL_POINTS:
        gpu = GPUS[p.gpu]
        peak = gpu.fp8_flops if p.precision == "fp8" else gpu.bf16_flops
        floor_ms = 2 * p.params * p.input_tokens / (p.gpus * peak) * 1e3
        assert p.ttft_ms > floor_ms


def test_enough_times_to_first_token():
    assert len(PREFILL_POINTS) >= 10 and len({p.id for p in PREFILL_POINTS}) == len(PREFILL_POINTS)
    assert {"vLLM", "SGLang", "TensorRT-LLM", "NVIDIA NIM"} <= {p.engine for p in PREFILL_POINTS}
    assert any(p.gpus == 1 for p in PREFILL_POINTS) and any(p.gpus > 8 for p in PREFILL_POINTS)
    for p in PREFILL_POINTS:
        assert p.concurrency == 1  # no queueing: comparable with the ceiling of one prompt
        assert p.input_tokens > 0 and p.ttft_ms > 0
        assert f"{p.ttft_ms:g}" in p.quote and str(p.input_tokens) in (p.quote + p.notes).replace(",", "")


def test_every_time_to_first_token_sits_below_its_ceiling():
    from llm_inference.physics import measured

    judged = measured.judged_prefill()
    assert len(judged) == len(PREFILL_POINTS)
    for j in judged:
        assert 0 < j.share < 1, j.label()
        assert j.ceiling_ms <= j.point.ttft_ms


def test_every_gpu_has_its_link():
    assert set(interconnects.LINKS) == set(GPUS)
    for link in interconnects.LINKS.values():
        assert link.sources and link.latency_note
        assert link.pcie_bandwidth > 0
        assert link.link_bandwidth >= 0 and link.per_direction == link.link_bandwidth / 2
    assert interconnects.LINKS["h100-sxm"].link_bandwidth == 900e9
    assert interconnects.LINKS["b200"].link_bandwidth == 2 * interconnects.LINKS["h100-sxm"].link_bandwidth
    assert interconnects.LINKS["l40s"].link_bandwidth == 0 == interconnects.LINKS["rtx-4090"].link_bandwidth


def test_allreduce_overhead_of_a_decode_step():
    # 61 layers × 2 all-reduces × 6 µs
    assert interconnects.tp_allreduce_overhead_ms(61, 6.0) == pytest.approx(0.732)
