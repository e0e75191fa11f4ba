"""Accelerators and number formats: every figure with its source beside it.

Memory capacities are stored in bytes. HBM and GDDR are sold in binary sizes, so a datasheet's
"80 GB" is 80 GiB of chips. What a serving engine can use is less: ``visible_bytes`` is the total
the driver reports to the process (``cudaMemGetInfo``'s total, which vLLM multiplies by
``gpu_memory_utilization``), each figure read from a real log or error message, quoted in
``visible_source``. Bandwidth is decimal (3.35 TB/s = 3.35e12 bytes/s), as datasheets state it.
Peak compute is the dense bf16/fp16 tensor figure — never the 2:4-sparse one many tables quote
(twice as large).

Prices (``usd_per_hour``) are what one GPU rents for by the hour, on demand, at one cloud
provider where it lists the card (:data:`PRICES_DATE`, each with its source): illustrative, dated,
and the first figure in this file to go stale.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_calculators.units import GiB

__all__ = ["GPU", "GPUS", "GPU_CHOICES", "DTYPES", "DTYPE_CHOICES", "bytes_per_element", "PRICES_DATE"]

#: When the hourly prices below were read.
PRICES_DATE = "2026-03 to 2026-05"


@dataclass(frozen=True)
class GPU:
    id: str
    name: str
    memory_bytes: int
    bandwidth: float  # bytes per second
    bf16_flops: float  # dense, FLOP/s
    fp8_flops: float  # dense, FLOP/s; equal to bf16 where the card has no fp8 tensor path
    source: str
    visible_bytes: float = 0  # what the driver reports to a process; 0: unknown (memory_bytes is used)
    visible_source: str = ""
    usd_per_hour: float = 0  # on-demand rent of one GPU; 0: not listed
    price_source: str = ""
    vendor: str = "nvidia"  # "nvidia" (CUDA) or "amd" (ROCm): vLLM's CUDA-graph estimate differs
    compute_capability: tuple = ()  # (major, minor): vLLM keys the GB10's defaults on (12, 1)
    int8_ops: float = 0  # dense int8 tensor ops/s; 0: not given
    fp4_flops: float = 0  # dense fp4 (NVFP4 / MXFP4) tensor FLOP/s; 0: no fp4 tensor path

    @property
    def visible(self) -> float:
        """Total memory a serving engine sees on this GPU (the base of gpu_memory_utilization)."""
        return self.visible_bytes or self.memory_bytes


# Where the visible totals and prices come from (each quoted where it is used below).
_VLLM_H100 = ("vLLM 0.10.2 startup log, H100 80GB: 'Free memory on device (78.66/79.19 GiB) on startup' "
              "(llm_inference.engines.startup_logs, llava-mistral-h100)")
_RUNPOD_2026_03 = ("RunPod on-demand, as tabulated by deploybase.ai on 2026-03-21 ('Single-GPU Cloud Rental "
                   "Prices (RunPod On-Demand)', https://deploybase.ai/articles/best-gpu-for-llm-training)")
_RUNPOD_2026_03_B = ("RunPod, as tabulated by deploybase.ai on 2026-03-10 (https://deploybase.ai/articles/"
                     "runpod-gpu-pricing), the same column as the 2026-03-21 table's on-demand prices")

GPUS: dict[str, GPU] = {
    g.id: g
    for g in (
        GPU(
            "h100-sxm", "NVIDIA H100 SXM 80GB", 80 * GiB, 3.35e12, 989e12, 1979e12,
            "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 80 GB HBM3, 3.35 TB/s, "
            "BF16 1,979 TFLOPS and FP8 3,958 TFLOPS *with sparsity* (dense: half).",
            visible_bytes=79.19 * GiB, visible_source=_VLLM_H100,
            usd_per_hour=2.69, price_source=f"H100 SXM 80GB $2.69/h: {_RUNPOD_2026_03}",
        ),
        GPU(
            "h100-pcie", "NVIDIA H100 PCIe 80GB", 80 * GiB, 2.0e12, 756e12, 1513e12,
            "NVIDIA H100 datasheet (PCIe): 80 GB HBM2e, 2 TB/s, BF16 1,513 TFLOPS with sparsity "
            "(756 dense), FP8 3,026 with sparsity (1,513 dense).",
            visible_bytes=79.19 * GiB,
            visible_source="nvidia-smi shows 81,559 MiB for the H100 PCIe as for the SXM part (public "
                           "file, search-index id 55383072402): the same 79.19 GiB is taken. " + _VLLM_H100,
            usd_per_hour=1.99, price_source=f"H100 PCIe 80GB $1.99/h: {_RUNPOD_2026_03}",
        ),
        GPU(
            "h200", "NVIDIA H200 SXM 141GB", 141 * GiB, 4.8e12, 989e12, 1979e12,
            "NVIDIA H200 Tensor Core GPU datasheet (SXM): 141 GB HBM3e, 4.8 TB/s, "
            "BF16 1,979 TFLOPS with sparsity (989 dense).",
            visible_bytes=139.81 * GiB,
            visible_source="TensorRT-LLM log on an H200: 'device total memory 139.81 GiB'; PyTorch: "
                           "'GPU 2 has a total capacity of 139.81 GiB' (public files, search-index ids "
                           "14031891033 and 65915068708); nvidia-smi shows 143,771 MiB",
            usd_per_hour=3.59, price_source=f"H200 141GB $3.59/h: {_RUNPOD_2026_03}",
        ),
        GPU(
            "a100-80g", "NVIDIA A100 SXM 80GB", 80 * GiB, 2.039e12, 312e12, 312e12,
            "NVIDIA A100 Tensor Core GPU datasheet: 80 GB HBM2e SXM, 2,039 GB/s, "
            "BF16 312 TFLOPS dense (624 with sparsity); no FP8 tensor cores.",
            visible_bytes=79.25 * GiB,
            visible_source="vLLM 0.31.0 startup log, A100 80GB: 'Free memory on device (78.84/79.25 GiB)' "
                           "(llm_inference.engines.startup_logs, llama31-8b-a100-v031)",
            usd_per_hour=1.39, price_source=f"A100 SXM 80GB $1.39/h: {_RUNPOD_2026_03}",
        ),
        GPU(
            "a100-40g", "NVIDIA A100 40GB", 40 * GiB, 1.555e12, 312e12, 312e12,
            "NVIDIA A100 Tensor Core GPU datasheet: 40 GB HBM2, 1,555 GB/s, BF16 312 TFLOPS dense.",
            visible_bytes=39.39 * GiB,
            visible_source="PyTorch: 'GPU 0 has a total capacity of 39.39 GiB' (public file, search-index "
                           "id 66850652250; the file does not name the card beyond its 40 GB)",
            usd_per_hour=1.48,
            price_source="A100 40GB $1.48/h: Lambda on-demand, verified 2026-05-07 by techbytes.app "
                         "(https://techbytes.app/posts/serverless-gpu-pricing-matrix-modal-replicate-lambda-2026/); "
                         "RunPod's table does not list the 40 GB card",
        ),
        GPU(
            "l40s", "NVIDIA L40S 48GB", 48 * GiB, 0.864e12, 362e12, 733e12,
            "NVIDIA L40S datasheet: 48 GB GDDR6, 864 GB/s, BF16 362.05 TFLOPS dense "
            "(733 with sparsity), FP8 733 dense.",
            visible_bytes=44.39 * GiB,
            visible_source="'L40S (44.39 GiB)' as PyTorch reports it (public files, search-index ids "
                           "63191783324 and 58507568269); nvidia-smi shows 46,068 MiB, less ECC's share",
            usd_per_hour=0.79, price_source=f"L40S 48GB $0.79/h: {_RUNPOD_2026_03_B}",
        ),
        GPU(
            "rtx-4090", "NVIDIA GeForce RTX 4090 24GB", 24 * GiB, 1.008e12, 165e12, 330e12,
            "NVIDIA Ada Lovelace architecture whitepaper (RTX 4090): 24 GB GDDR6X, 1,008 GB/s, "
            "BF16 165.2 TFLOPS dense with FP32 accumulate, FP8 330 dense.",
            visible_bytes=23.52 * GiB,
            visible_source="'NVIDIA GeForce RTX 4090, 24564 MiB' with PyTorch's 'GPU 0 has a total capacity "
                           "of 23.52 GiB' in the same file (public file, search-index id 70553351382)",
            usd_per_hour=0.34, price_source=f"RTX 4090 24GB $0.34/h: {_RUNPOD_2026_03}",
        ),
        GPU(
            "rtx-3090", "NVIDIA GeForce RTX 3090 24GB", 24 * GiB, 0.936e12, 71e12, 71e12,
            "NVIDIA Ampere GA102 GPU architecture whitepaper (RTX 3090): 24 GB GDDR6X, 936 GB/s, FP16/BF16 "
            "tensor 71 TFLOPS dense with FP32 accumulate (142 with sparsity); no FP8 tensor cores.",
            visible_bytes=23.58 * GiB,
            visible_source="vLLM V0 log, RTX 3090: 'Memory profiling results: total_gpu_memory=23.58GiB' "
                           "(llm_inference.engines.startup_logs, llama31-8b-rtx3090-v0-20k)",
            usd_per_hour=0.22, price_source=f"RTX 3090 24GB $0.22/h: {_RUNPOD_2026_03_B}",
        ),
        GPU(
            "b200", "NVIDIA B200 180GB", 180 * GiB, 8.0e12, 2250e12, 4500e12,
            "NVIDIA DGX B200 / HGX B200 datasheet, per GPU: 180 GB HBM3e, 8 TB/s, "
            "BF16 2.25 PFLOPS dense (4.5 with sparsity), FP8 4.5 PFLOPS dense.",
            visible_bytes=178.36 * GiB,
            visible_source="vLLM log of PR #21489, B200: 'Free memory on device (177.66/178.36 GiB)' "
                           "(llm_inference.engines.startup_logs, gemma3-4b-b200-suggestion)",
            usd_per_hour=5.98, price_source=f"B200 $5.98/h: {_RUNPOD_2026_03}",
        ),
        GPU(
            "mi300x", "AMD Instinct MI300X 192GB", 192 * GiB, 5.3e12, 1307e12, 2615e12,
            "AMD Instinct MI300X datasheet: 192 GB HBM3, 5.3 TB/s, BF16 1,307.4 TFLOPS dense, "
            "FP8 2,614.9 TFLOPS dense.",
            visible_bytes=191.69 * GiB,
            visible_source="PyTorch on ROCm: 'HIP out of memory ... GPU 0 has a total capacity of 191.69 GiB' "
                           "(public files, search-index id 59370625713 and others)",
            usd_per_hour=3.49,
            price_source="MI300X $3.49/h on RunPod, as quoted by deploybase.ai "
                         "(https://deploybase.ai/articles/mi300x-vs-h100, undated; TensorWave listed $1.50 "
                         "on 2026-05-18, https://www.cliffcenter.com/research/amd-inference-economics)",
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
