"""Accelerators and number formats: every figure with its source beside it.

Memory capacities are stored in bytes. HBM and GDDR are sold in binary sizes, so a datasheet's
"80 GB" is 80 GiB of chips. What a serving engine can use is less: ``visible_bytes`` is the total
the driver reports to the process (``cudaMemGetInfo``'s total, which vLLM multiplies by
``gpu_memory_utilization``), each figure read from a real log or error message, quoted in
``visible_source``. Bandwidth is decimal (3.35 TB/s = 3.35e12 bytes/s), as datasheets state it.
Peak compute is the dense bf16/fp16 tensor figure — never the 2:4-sparse one many tables quote
(twice as large).

Of the GPUs added for issue #18 (T4 to MI355X), seven carry a price from a dated listing (L4, L40,
RTX 5090 and RTX PRO 6000 on RunPod; the A10G as AWS's g5.xlarge; one GPU of a GB200 superchip on
Spheron; the MI325X on TensorWave); the T4, RTX 6000 Ada, GH200, B300, GB10, H20, MI355X and A40 carry none
(no dated on-demand listing of one GPU was read), and the cheapest-fleet search skips a GPU without one.

Prices (``usd_per_hour``) are what one GPU rents for by the hour, on demand, at one cloud
provider where it lists the card (:data:`PRICES_DATE`, each with its source): illustrative, dated,
and the first figure in this file to go stale.
"""

from __future__ import annotations

from dataclasses import dataclass

from course_calculators.units import GiB

__all__ = ["GPU", "GPUS", "GPU_CHOICES", "DTYPES", "DTYPE_CHOICES", "bytes_per_element", "PRICES_DATE"]

#: When the hourly prices below were read.
PRICES_DATE = "2026-03 to 2026-06"


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
    #: CUDA's ``integrated`` attribute (cudaDevAttrIntegrated): the GPU has no memory of its own and
    #: allocates the host's, so vLLM reads its free memory from the host (engines.vllm_measured)
    integrated: bool = False

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
_RUNPOD_2026_03_ROW = ("RunPod, row of the 'RunPod Pricing By GPU Model' table tabulated by deploybase.ai on "
                       "2026-03-10 (https://deploybase.ai/articles/runpod-gpu-pricing): its first price column, "
                       "headed 'Spot/hr' there, the column that gives the RTX 3090 $0.22 and the L40S $0.79 "
                       "used above and the figures deploybase's 2026-03-21 table lists as on-demand")

GPUS: dict[str, GPU] = {
    g.id: g
    for g in (
        GPU(
            "h100-sxm", "NVIDIA H100 SXM 80GB", 80 * GiB, 3.35e12, 989e12, 1979e12,
            "NVIDIA H100 Tensor Core GPU datasheet (SXM5): 80 GB HBM3, 3.35 TB/s, "
            "BF16 1,979 TFLOPS and FP8 3,958 TFLOPS *with sparsity* (dense: half).",
            visible_bytes=79.19 * GiB, visible_source=_VLLM_H100,
            usd_per_hour=2.69, price_source=f"H100 SXM 80GB $2.69/h: {_RUNPOD_2026_03}",
            compute_capability=(9, 0), int8_ops=1979e12,
        ),
        GPU(
            "h100-pcie", "NVIDIA H100 PCIe 80GB", 80 * GiB, 2.0e12, 756e12, 1513e12,
            "NVIDIA H100 datasheet (PCIe): 80 GB HBM2e, 2 TB/s, BF16 1,513 TFLOPS with sparsity "
            "(756 dense), FP8 3,026 with sparsity (1,513 dense).",
            visible_bytes=79.19 * GiB,
            visible_source="nvidia-smi shows 81,559 MiB for the H100 PCIe as for the SXM part (public "
                           "file, search-index id 55383072402): the same 79.19 GiB is taken. " + _VLLM_H100,
            usd_per_hour=1.99, price_source=f"H100 PCIe 80GB $1.99/h: {_RUNPOD_2026_03}",
            compute_capability=(9, 0), int8_ops=1513e12,
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
            compute_capability=(9, 0), int8_ops=1979e12,
        ),
        GPU(
            "a100-80g", "NVIDIA A100 SXM 80GB", 80 * GiB, 2.039e12, 312e12, 312e12,
            "NVIDIA A100 Tensor Core GPU datasheet: 80 GB HBM2e SXM, 2,039 GB/s, "
            "BF16 312 TFLOPS dense (624 with sparsity); no FP8 tensor cores.",
            visible_bytes=79.25 * GiB,
            visible_source="vLLM 0.31.0 startup log, A100 80GB: 'Free memory on device (78.84/79.25 GiB)' "
                           "(llm_inference.engines.startup_logs, llama31-8b-a100-v031)",
            usd_per_hour=1.39, price_source=f"A100 SXM 80GB $1.39/h: {_RUNPOD_2026_03}",
            compute_capability=(8, 0), int8_ops=624e12,
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
            compute_capability=(8, 0),
        ),
        GPU(
            "l40s", "NVIDIA L40S 48GB", 48 * GiB, 0.864e12, 362e12, 733e12,
            "NVIDIA L40S datasheet: 48 GB GDDR6, 864 GB/s, BF16 362.05 TFLOPS dense "
            "(733 with sparsity), FP8 733 dense.",
            visible_bytes=44.39 * GiB,
            visible_source="'L40S (44.39 GiB)' as PyTorch reports it (public files, search-index ids "
                           "63191783324 and 58507568269); nvidia-smi shows 46,068 MiB, less ECC's share",
            usd_per_hour=0.79, price_source=f"L40S 48GB $0.79/h: {_RUNPOD_2026_03_B}",
            compute_capability=(8, 9), int8_ops=733e12,
        ),
        GPU(
            "rtx-4090", "NVIDIA GeForce RTX 4090 24GB", 24 * GiB, 1.008e12, 165e12, 330e12,
            "NVIDIA Ada Lovelace architecture whitepaper (RTX 4090): 24 GB GDDR6X, 1,008 GB/s, "
            "BF16 165.2 TFLOPS dense with FP32 accumulate, FP8 330 dense.",
            visible_bytes=23.52 * GiB,
            visible_source="'NVIDIA GeForce RTX 4090, 24564 MiB' with PyTorch's 'GPU 0 has a total capacity "
                           "of 23.52 GiB' in the same file (public file, search-index id 70553351382); the same "
                           "'total capacity of 23.52 GiB' on a '4090 24G' in "
                           "https://github.com/Soul-AILab/SoulX-FlashTalk/issues/5 (comment by swizardlv, 2026-01-09)",
            usd_per_hour=0.34, price_source=f"RTX 4090 24GB $0.34/h: {_RUNPOD_2026_03}",
            compute_capability=(8, 9),
        ),
        GPU(
            "rtx-4090-48g", "NVIDIA GeForce RTX 4090 48GB (modified board)", 48 * GiB, 1.008e12, 165e12, 330e12,
            "The RTX 4090's AD102 chip on a third-party board with 48 GB of GDDR6X (a modification rented out by "
            "Chinese clouds, not an NVIDIA product): the bandwidth and tensor figures are the RTX 4090's, the same "
            "chip on the same 384-bit bus (NVIDIA Ada Lovelace architecture whitepaper: 1,008 GB/s, BF16 165.2 "
            "TFLOPS dense, FP8 330 dense); the memory is what the driver reports.",
            visible_bytes=47.37 * GiB,
            visible_source="vLLM 0.29.0 on 'RTX 4090 48GB': 'Free memory on device (46.99/47.37 GiB) on startup' "
                           "(yuanjuju/vllm-lab, phase3/results/phase5_v029_ngram_20261009.log)",
            compute_capability=(8, 9),
        ),
        GPU(
            "rtx-3090", "NVIDIA GeForce RTX 3090 24GB", 24 * GiB, 0.936e12, 71e12, 71e12,
            "NVIDIA Ampere GA102 GPU architecture whitepaper (RTX 3090): 24 GB GDDR6X, 936 GB/s, FP16/BF16 "
            "tensor 71 TFLOPS dense with FP32 accumulate (142 with sparsity); no FP8 tensor cores.",
            visible_bytes=23.58 * GiB,
            visible_source="vLLM V0 log, RTX 3090: 'Memory profiling results: total_gpu_memory=23.58GiB' "
                           "(llm_inference.engines.startup_logs, llama31-8b-rtx3090-v0-20k)",
            usd_per_hour=0.22, price_source=f"RTX 3090 24GB $0.22/h: {_RUNPOD_2026_03_B}",
            compute_capability=(8, 6),
        ),
        GPU(
            "b200", "NVIDIA B200 180GB", 180 * GiB, 8.0e12, 2250e12, 4500e12,
            "NVIDIA DGX B200 / HGX B200 datasheet, per GPU: 180 GB HBM3e, 8 TB/s, "
            "BF16 2.25 PFLOPS dense (4.5 with sparsity), FP8 4.5 PFLOPS dense.",
            visible_bytes=178.36 * GiB,
            visible_source="vLLM log of PR #21489, B200: 'Free memory on device (177.66/178.36 GiB)' "
                           "(llm_inference.engines.startup_logs, gemma3-4b-b200-suggestion)",
            usd_per_hour=5.98, price_source=f"B200 $5.98/h: {_RUNPOD_2026_03}",
            compute_capability=(10, 0), int8_ops=4500e12, fp4_flops=9000e12,
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
            vendor="amd", int8_ops=2615e12,
        ),
        # -- the GPUs readers rent (issue #18): datasheet figures, dense; the visible totals as the
        # driver or PyTorch reports them, each quoted; no price where none was read.
        GPU(
            "t4", "NVIDIA T4 16GB", 16 * GiB, 0.320e12, 65e12, 65e12,
            "NVIDIA T4 Tensor Core GPU datasheet: 16 GB GDDR6, 320 GB/s, mixed-precision FP16/FP32 "
            "65 TFLOPS, INT8 130 TOPS. Turing has no bf16 and no fp8: vLLM serves bf16 checkpoints in fp16 "
            "on it, so the 'bf16' figure is fp16's.",
            visible_bytes=14.58 * GiB,
            visible_source="'T4 GPU (14.58 GiB total)', PyTorch's 'GPU 0 has a total capacity of 14.58 GiB' "
                           "(public file, search-index id 23189065620); nvidia-smi shows 'Tesla T4, 15360 MiB' "
                           "(search-index id 67234800047)",
            compute_capability=(7, 5), int8_ops=130e12,
        ),
        GPU(
            "l4", "NVIDIA L4 24GB", 24 * GiB, 0.300e12, 121e12, 242e12,
            "NVIDIA L4 Tensor Core GPU datasheet: 24 GB GDDR6, 300 GB/s, BF16 242 TFLOPS and FP8/INT8 485 "
            "with sparsity (dense: half).",
            visible_bytes=22.03 * GiB,
            visible_source="PyTorch on a single L4 (24 GB VRAM): 'GPU 0 has a total capacity of 22.03 GiB' "
                           "(public file, search-index id 53263734645)",
            usd_per_hour=0.44, price_source=f"'L4 24GB $0.44': {_RUNPOD_2026_03_ROW}",
            compute_capability=(8, 9), int8_ops=242e12,
        ),
        GPU(
            "a10g", "NVIDIA A10G / A10 24GB", 24 * GiB, 0.600e12, 125e12, 125e12,
            "NVIDIA A10 Tensor Core GPU datasheet: 24 GB GDDR6, 600 GB/s, BF16 125 TFLOPS dense (250 with "
            "sparsity), INT8 250 TOPS dense; no fp8 tensor cores. AWS's A10G is the same GA102 part "
            "(AWS publishes no separate TFLOPS figure).",
            visible_bytes=22.06 * GiB,
            visible_source="PyTorch: 'CUDA devices: NVIDIA A10G (22.06 GiB)' (public file, search-index id "
                           "59932372583); nvidia-smi shows 'NVIDIA A10G, 23028 MiB' (search-index id 27636968701)",
            usd_per_hour=1.006,
            price_source="AWS g5.xlarge (one A10G, 4 vCPUs: the instance's price, CPU and memory included) "
                         "'$1.006/hr' on-demand in us-east-1, June 2026 (factualminds.com, 2026-06-17, "
                         "https://www.factualminds.com/blog/amazon-ec2-on-demand-pricing-instance-families-2026/)",
            compute_capability=(8, 6), int8_ops=250e12,
        ),
        GPU(
            "l40", "NVIDIA L40 48GB", 48 * GiB, 0.864e12, 181e12, 362e12,
            "NVIDIA L40 datasheet: 48 GB GDDR6 with ECC, 864 GB/s, BF16 362.1 TFLOPS and FP8 724 with "
            "sparsity (dense: half), INT8 362 TOPS dense.",
            visible_bytes=44.39 * GiB,
            visible_source="nvidia-smi: '2x NVIDIA L40 (46068 MiB each)' (public file, search-index id "
                           "3570917502), the L40S's 46,068 MiB, which PyTorch reports as 44.39 GiB (see l40s)",
            usd_per_hour=0.69, price_source=f"'L40 48GB $0.69': {_RUNPOD_2026_03_ROW}",
            compute_capability=(8, 9), int8_ops=362e12,
        ),
        GPU(
            "a40", "NVIDIA A40 48GB", 48 * GiB, 0.696e12, 149.7e12, 149.7e12,
            "NVIDIA A40 datasheet: 48 GB GDDR6 with ECC, 696 GB/s, BF16 149.7 TFLOPS dense (299.4 with "
            "sparsity), INT8 299.3 TOPS dense; Ampere (GA102), no fp8 tensor cores.",
            visible_bytes=44.42 * GiB,
            visible_source="'CUDA on one NVIDIA A40 (44.42 GiB visible)' and 'one A40 (44.43 GiB)', as PyTorch "
                           "reports it (public files, search-index ids 70096149812 and 68925977522); nvidia-smi "
                           "shows 'NVIDIA A40 ... 46068MiB' with ECC on (search-index id 48489624476)",
            compute_capability=(8, 6), int8_ops=299.3e12,
        ),
        GPU(
            "rtx-5090", "NVIDIA GeForce RTX 5090 32GB", 32 * GiB, 1.792e12, 209.5e12, 419e12,
            "NVIDIA RTX Blackwell GPU architecture whitepaper (RTX 5090): 32 GB GDDR7, 1,792 GB/s, FP16/BF16 "
            "tensor 209.5 TFLOPS dense with FP32 accumulate, FP8 419 dense, FP4 1,676 dense (3,352 'AI TOPS' "
            "with sparsity).",
            visible_bytes=31.36 * GiB,
            visible_source="PyTorch: 'NVIDIA GeForce RTX 5090 (31.36 GiB)' (public file, search-index id "
                           "53636420292); nvidia-smi shows 32,607 MiB (search-index id 67571497656)",
            usd_per_hour=0.69, price_source=f"'RTX 5090 32GB $0.69': {_RUNPOD_2026_03_ROW}",
            compute_capability=(12, 0), int8_ops=838e12, fp4_flops=1676e12,
        ),
        GPU(
            "rtx-pro-6000", "NVIDIA RTX PRO 6000 Blackwell 96GB", 96 * GiB, 1.792e12, 500e12, 1000e12,
            "NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet: 96 GB GDDR7 with ECC, 1,792 GB/s, "
            "4,000 AI TOPS (FP4 with sparsity): FP4 2,000, FP8 1,000 and BF16 500 TFLOPS dense.",
            visible_bytes=94.97 * GiB,
            visible_source="'NVIDIA RTX PRO 6000 Blackwell Server Edition (94.97 GB VRAM)' as PyTorch reports "
                           "it (public file, search-index id 71402858660)",
            usd_per_hour=0.89, price_source=f"'RTX PRO 6000 96GB $0.89': {_RUNPOD_2026_03_ROW}",
            compute_capability=(12, 0), int8_ops=1000e12, fp4_flops=2000e12,
        ),
        GPU(
            "rtx-6000-ada", "NVIDIA RTX 6000 Ada 48GB", 48 * GiB, 0.960e12, 364e12, 728e12,
            "NVIDIA RTX 6000 Ada Generation datasheet: 48 GB GDDR6 with ECC, 960 GB/s, FP8 1,457 TFLOPS "
            "with sparsity (728.5 dense), BF16 364 dense with FP32 accumulate.",
            visible_bytes=49140 * 2**20,
            visible_source="nvidia-smi: 'NVIDIA RTX 6000 Ada Generation, 49140 MiB' (public file, search-index "
                           "id 51797990582); CUDA's own total, a little lower, was not read",
            compute_capability=(8, 9), int8_ops=728e12,
        ),
        GPU(
            "gh200", "NVIDIA GH200 96GB (Grace Hopper)", 96 * GiB, 4.0e12, 989e12, 1979e12,
            "NVIDIA GH200 Grace Hopper Superchip datasheet (96 GB HBM3 version): 4 TB/s, the H100's "
            "tensor cores: BF16 989, FP8 1,979 TFLOPS dense.",
            visible_bytes=97871 * 2**20,
            visible_source="nvidia-smi: 'NVIDIA GH200 480GB, 97871 MiB' (public file, search-index id "
                           "63088167599); CUDA's own total, a little lower, was not read",
            compute_capability=(9, 0), int8_ops=1979e12,
        ),
        GPU(
            "gb200", "NVIDIA GB200 (one Blackwell GPU) 186GB", 186 * GiB, 8.0e12, 2500e12, 5000e12,
            "NVIDIA GB200 NVL72 datasheet, per GPU: 186 GB HBM3e, 8 TB/s, FP4 10, FP8 5, BF16 2.5 PFLOPS "
            "dense (twice with sparsity).",
            visible_bytes=185.03 * GiB,
            visible_source="'4x NVIDIA GB200, 185.03 GiB HBM each (189471 MiB)' (public file, search-index id "
                           "60966048525)",
            usd_per_hour=4.54,
            price_source="Spheron on-demand 'GB200 Superchips at $9.08/hr per Superchip' (1 Grace CPU + 2 "
                         "Blackwell GPUs: $4.54 a GPU; sold by the superchip, never one GPU alone), prices 'as of "
                         "17 March 2026' (https://www.spheron.network/blog/nvidia-h200-vs-b200-vs-gb200)",
            compute_capability=(10, 0), int8_ops=5000e12, fp4_flops=10000e12,
        ),
        GPU(
            "b300", "NVIDIA B300 288GB", 288 * GiB, 8.0e12, 2250e12, 4500e12,
            "NVIDIA HGX B300 datasheet, per GPU: 288 GB HBM3e, 8 TB/s, FP4 13.5 PFLOPS dense (Blackwell "
            "Ultra), FP8 4.5, BF16 2.25 dense; INT8 cut back (not given).",
            visible_bytes=275040 * 2**20,
            visible_source="nvidia-smi: 'NVIDIA B300 SXM6 AC, 275040 MiB' (public file, search-index id "
                           "71609078484); CUDA's own total was not read",
            compute_capability=(10, 3), fp4_flops=13500e12,
        ),
        GPU(
            "gb10", "NVIDIA GB10 (DGX Spark) 128GB unified", 128 * GiB, 0.273e12, 125e12, 250e12,
            "NVIDIA DGX Spark datasheet: 128 GB LPDDR5X unified memory, 273 GB/s, 1 PFLOP FP4 with sparsity "
            "(500 TFLOPS dense; FP8 and BF16 taken at half and a quarter of it).",
            visible_bytes=121.69 * GiB,
            visible_source="'2x DGX Spark (GB10, 121.69 GiB each)' "
                           "(https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/204, "
                           "comment 2026-09-21)",
            compute_capability=(12, 1), fp4_flops=500e12,
            # "is_integrated=1 here too; MemorySnapshot.measure() sets free_memory from
            # psutil.virtual_memory().available" (a GB10 pair, MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks#47,
            # comment 2026-08-30); torch.cuda.get_device_properties(0).is_integrated == 1 (huggingface/accelerate#4183)
            integrated=True,
        ),
        GPU(
            "h20", "NVIDIA H20 96GB", 96 * GiB, 4.0e12, 148e12, 296e12,
            "NVIDIA H20 (HGX H20) specifications: 96 GB HBM3, 4.0 TB/s, BF16 148 TFLOPS and FP8/INT8 296 "
            "dense.",
            visible_bytes=95.33 * GiB,
            visible_source="'1x NVIDIA H20, 97871 MiB total, 95.33 GiB reported usable by the runtime' "
                           "(public file, search-index id 69445134030)",
            compute_capability=(9, 0), int8_ops=296e12,
        ),
        GPU(
            "mi325x", "AMD Instinct MI325X 256GB", 256 * GiB, 6.0e12, 1307e12, 2615e12,
            "AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s, BF16 1,307.4 and FP8 2,614.9 TFLOPS dense "
            "(the MI300X's compute).",
            visible_source="not found: no rocm-smi or PyTorch total for the MI325X was read; the datasheet's "
                           "256 GiB is used (the MI300X shows 191.69 of 192, the MI355X 287.98 of 288)",
            usd_per_hour=1.95,
            price_source="'TensorWave MI325X at $1.95' per GPU-hour, research note of 2026-05-18 "
                         "(https://www.cliffcenter.com/research/amd-inference-economics)",
            vendor="amd", int8_ops=2615e12,
        ),
        GPU(
            "mi355x", "AMD Instinct MI355X 288GB", 288 * GiB, 8.0e12, 2517e12, 5033e12,
            "AMD Instinct MI355X datasheet: 288 GB HBM3E, 8 TB/s, BF16 2.5, FP8 5.0, MXFP4 10.1 PFLOPS "
            "dense.",
            visible_bytes=287.98 * GiB,
            visible_source="PyTorch on ROCm: 'HIP out of memory ... GPU 3 has a total capacity of 287.98 GiB' "
                           "(public file, search-index id 69068205465)",
            vendor="amd", int8_ops=5033e12, fp4_flops=10066e12,
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
