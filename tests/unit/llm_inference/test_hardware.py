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
