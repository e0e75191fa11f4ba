"""llm_inference/hardware.py: the brief's GPU table, dense figures, each with its source."""

from __future__ import annotations

import pytest

from llm_inference import hardware, kv_cache
from llm_inference.hardware import DTYPES, GPU_CHOICES, GPUS, bytes_per_element
from course_calculators.units import GiB
from llm_inference.units import format_bandwidth, format_flops

# id, memory (the datasheet's "GB", stored as GiB of chips), bandwidth (bytes/s), dense bf16 (FLOP/s)
BRIEF_GPUS = [
    ("h100-sxm", 80, 3.35e12, 989e12),
    ("h100-pcie", 80, 2.0e12, 756e12),
    ("h200", 141, 4.8e12, 989e12),
    ("a100-80g", 80, 2.039e12, 312e12),
    ("a100-40g", 40, 1.555e12, 312e12),
    ("l40s", 48, 0.864e12, 362e12),
    ("rtx-4090", 24, 1.008e12, 165e12),  # fp32 accumulate
    ("b200", 180, 8e12, 2250e12),
    ("mi300x", 192, 5.3e12, 1307e12),  # "about 1,307"
]


# the GPUs readers rent (issue #18): id, memory, bandwidth, dense bf16, visible GiB as quoted
RENTED_GPUS = [
    ("t4", 16, 0.320e12, 65e12, 14.58), ("l4", 24, 0.300e12, 121e12, 22.03), ("a10g", 24, 0.600e12, 125e12, 22.06),
    ("l40", 48, 0.864e12, 181e12, 44.39), ("rtx-5090", 32, 1.792e12, 209.5e12, 31.36),
    ("rtx-pro-6000", 96, 1.792e12, 500e12, 94.97), ("rtx-6000-ada", 48, 0.960e12, 364e12, 49140 / 1024),
    ("gh200", 96, 4.0e12, 989e12, 97871 / 1024), ("gb200", 186, 8.0e12, 2500e12, 185.03),
    ("b300", 288, 8.0e12, 2250e12, 275040 / 1024), ("gb10", 128, 0.273e12, 125e12, 121.69),
    ("h20", 96, 4.0e12, 148e12, 95.33), ("mi325x", 256, 6.0e12, 1307e12, 256), ("mi355x", 288, 8.0e12, 2517e12, 287.98),
]


#: The new GPUs with a dated on-demand listing read (hardware.py quotes each); the others carry none.
RENTED_PRICES = {"l4": 0.44, "l40": 0.69, "rtx-5090": 0.69, "rtx-pro-6000": 0.89, "a10g": 1.006,
                 "gb200": 4.54, "mi325x": 1.95}


@pytest.mark.parametrize("gpu_id, memory, bandwidth, bf16, visible", RENTED_GPUS, ids=[g[0] for g in RENTED_GPUS])
def test_rented_gpu_table(gpu_id, memory, bandwidth, bf16, visible):
    gpu = GPUS[gpu_id]
    assert gpu.memory_bytes == memory * GiB
    assert gpu.bandwidth == pytest.approx(bandwidth) and gpu.bf16_flops == pytest.approx(bf16)
    assert gpu.visible == pytest.approx(visible * GiB)
    assert gpu.visible <= gpu.memory_bytes
    assert len(gpu.source) > 40 and len(gpu.visible_source) > 20
    assert ("not found" in gpu.visible_source) == (gpu.visible_bytes == 0)
    assert gpu.vendor == ("amd" if gpu_id.startswith("mi") else "nvidia")
    assert gpu.vendor == "amd" or len(gpu.compute_capability) == 2
    assert gpu.fp4_flops == 0 or gpu.fp4_flops >= gpu.fp8_flops
    assert (gpu.usd_per_hour > 0) == (gpu_id in RENTED_PRICES) == bool(gpu.price_source)
    if gpu_id in RENTED_PRICES:  # a dated listing read: its figure, its date and its address
        assert gpu.usd_per_hour == RENTED_PRICES[gpu_id]
        assert "2026" in gpu.price_source and "https://" in gpu.price_source


def test_vllm_defaults_follow_each_gpu():
    from llm_inference.physics.budget import Engine, scheduler_limits

    assert scheduler_limits(Engine(), GPUS["gb10"]) == (2048, 256)  # 0.33.0 keeps GB10 small
    assert scheduler_limits(Engine(version="0.32.0"), GPUS["gb10"]) == (8192, 1024)
    assert scheduler_limits(Engine(), GPUS["b300"]) == (16384, 1024)
    assert scheduler_limits(Engine(), GPUS["l4"]) == (2048, 256)
    assert scheduler_limits(Engine(), GPUS["gh200"]) == (8192, 1024)
    assert scheduler_limits(Engine(version="0.27.0"), GPUS["mi355x"]) == (8192, 1024)


@pytest.mark.parametrize("gpu_id, memory, bandwidth, bf16", BRIEF_GPUS, ids=[g[0] for g in BRIEF_GPUS])
def test_brief_gpu_table(gpu_id, memory, bandwidth, bf16):
    gpu = GPUS[gpu_id]
    assert gpu.id == gpu_id
    assert gpu.memory_bytes == memory * GiB
    assert gpu.bandwidth == pytest.approx(bandwidth, rel=1e-9)
    assert gpu.bf16_flops == pytest.approx(bf16, rel=1e-3)
    assert gpu.source.strip()
    assert gpu.name.strip()


@pytest.mark.parametrize("gpu_id", sorted(GPUS))
def test_every_gpu_has_a_source_and_sane_figures(gpu_id):
    gpu = GPUS[gpu_id]
    assert len(gpu.source.strip()) > 20
    assert gpu.memory_bytes > 0 and gpu.bandwidth > 0
    assert gpu.fp8_flops >= gpu.bf16_flops > 0


def test_dense_not_sparse():
    h100 = GPUS["h100-sxm"]
    assert h100.bf16_flops == 989e12
    assert h100.bf16_flops != 1979e12  # the 2:4-sparse figure many tables quote
    assert format_flops(h100.bf16_flops) == "989 TFLOP/s"
    assert format_bandwidth(h100.bandwidth) == "3.35 TB/s"


def test_gpu_choices_are_the_table():
    assert [gpu_id for gpu_id, _ in GPU_CHOICES] == list(GPUS)
    assert {g[0] for g in BRIEF_GPUS} <= set(GPUS)
    assert kv_cache.SPEC.param_map["gpu"].values == list(GPUS)


def test_dtypes():
    assert DTYPES == {"bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
    assert [d for d, _ in hardware.DTYPE_CHOICES] == list(DTYPES)
    assert bytes_per_element("int4") == 0.5
    with pytest.raises(KeyError):
        bytes_per_element("fp64")
