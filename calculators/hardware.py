"""Accelerators and number formats: every figure with its source beside it.

Memory capacities are stored in bytes. HBM and GDDR are sold in binary sizes, so a datasheet's
"80 GB" is 80 GiB of chips (nvidia-smi shows about 81,559 MiB on an H100 80GB, a little less
after the driver's reservation); the serving reserve of each calculator covers that difference.
Bandwidth is decimal (3.35 TB/s = 3.35e12 bytes/s), as datasheets state it. Peak compute is the
dense bf16/fp16 tensor figure — never the 2:4-sparse one many tables quote (twice as large).
"""

from __future__ import annotations

from dataclasses import dataclass

from course_calculators.units import GiB

__all__ = ["GPU", "GPUS", "GPU_CHOICES", "DTYPES", "DTYPE_CHOICES", "bytes_per_element"]


@dataclass(frozen=True)
class GPU:
    id: str
    name: str
    memory_bytes: int
    bandwidth: float  # bytes per second
    bf16_flops: float  # dense, FLOP/s
    fp8_flops: float  # dense, FLOP/s; equal to bf16 where the card has no fp8 tensor path
    source: str


GPUS: dict[str, GPU] = {
    g.id: g
    for g in (
        GPU(
            "h100-sxm", "NVIDIA H100 SXM 80GB", 80 * GiB, 3.35e12, 989e12, 1979e12,
            "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 80 GB HBM3, 3.35 TB/s, "
            "BF16 1,979 TFLOPS and FP8 3,958 TFLOPS *with sparsity* (dense: half).",
        ),
        GPU(
            "h100-pcie", "NVIDIA H100 PCIe 80GB", 80 * GiB, 2.0e12, 756e12, 1513e12,
            "NVIDIA H100 datasheet (PCIe): 80 GB HBM2e, 2 TB/s, BF16 1,513 TFLOPS with sparsity "
            "(756 dense), FP8 3,026 with sparsity (1,513 dense).",
        ),
        GPU(
            "h200", "NVIDIA H200 SXM 141GB", 141 * GiB, 4.8e12, 989e12, 1979e12,
            "NVIDIA H200 Tensor Core GPU datasheet (SXM): 141 GB HBM3e, 4.8 TB/s, "
            "BF16 1,979 TFLOPS with sparsity (989 dense).",
        ),
        GPU(
            "a100-80g", "NVIDIA A100 SXM 80GB", 80 * GiB, 2.039e12, 312e12, 312e12,
            "NVIDIA A100 Tensor Core GPU datasheet: 80 GB HBM2e SXM, 2,039 GB/s, "
            "BF16 312 TFLOPS dense (624 with sparsity); no FP8 tensor cores.",
        ),
        GPU(
            "a100-40g", "NVIDIA A100 40GB", 40 * GiB, 1.555e12, 312e12, 312e12,
            "NVIDIA A100 Tensor Core GPU datasheet: 40 GB HBM2, 1,555 GB/s, BF16 312 TFLOPS dense.",
        ),
        GPU(
            "l40s", "NVIDIA L40S 48GB", 48 * GiB, 0.864e12, 362e12, 733e12,
            "NVIDIA L40S datasheet: 48 GB GDDR6, 864 GB/s, BF16 362.05 TFLOPS dense "
            "(733 with sparsity), FP8 733 dense.",
        ),
        GPU(
            "rtx-4090", "NVIDIA GeForce RTX 4090 24GB", 24 * GiB, 1.008e12, 165e12, 330e12,
            "NVIDIA Ada Lovelace architecture whitepaper (RTX 4090): 24 GB GDDR6X, 1,008 GB/s, "
            "BF16 165.2 TFLOPS dense with FP32 accumulate, FP8 330 dense.",
        ),
        GPU(
            "b200", "NVIDIA B200 180GB", 180 * GiB, 8.0e12, 2250e12, 4500e12,
            "NVIDIA DGX B200 / HGX B200 datasheet, per GPU: 180 GB HBM3e, 8 TB/s, "
            "BF16 2.25 PFLOPS dense (4.5 with sparsity), FP8 4.5 PFLOPS dense.",
        ),
        GPU(
            "mi300x", "AMD Instinct MI300X 192GB", 192 * GiB, 5.3e12, 1307e12, 2615e12,
            "AMD Instinct MI300X datasheet: 192 GB HBM3, 5.3 TB/s, BF16 1,307.4 TFLOPS dense, "
            "FP8 2,614.9 TFLOPS dense.",
        ),
    )
}

GPU_CHOICES = tuple((g.id, g.name) for g in GPUS.values())

#: Bytes per element of each number format the chapter uses (weights and KV cache alike).
DTYPES: dict[str, float] = {"bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
DTYPE_CHOICES = (
    ("bf16", "bf16 (2 bytes)"),
    ("fp16", "fp16 (2 bytes)"),
    ("fp8", "fp8 (1 byte)"),
    ("int8", "int8 (1 byte)"),
    ("int4", "int4 (½ byte)"),
)


def bytes_per_element(dtype: str) -> float:
    return DTYPES[dtype]
