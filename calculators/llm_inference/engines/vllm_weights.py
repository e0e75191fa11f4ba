"""What vLLM does to stored weights on a given GPU: kernel layouts, padding, copies.

"Model loading took X GiB" is what torch holds once every layer's
``process_weights_after_loading`` has run (``DeviceMemoryProfiler``, vllm/utils/mem_utils.py:
``torch.cuda.max_memory_allocated`` after ``reset_peak_memory_stats``; 0.33.0). For most formats
that is the checkpoint as stored. The exceptions this module follows, each from vLLM 0.33.0:

* **MXFP4 routed experts** (gpt-oss): the MoE backend depends on the GPU
  (``select_mxfp4_moe_backend``, fused_moe/oracle/mxfp4.py, priority
  ``_get_priority_backends_for_gpt_oss``) and pads the expert matrices for its kernel
  (``mxfp4_round_up_hidden_size_and_intermediate_size``):

  - Blackwell data-centre GPUs (SM100: B200, GB200, B300): FlashInfer TRT-LLM, intermediate
    rounded up to 128 and hidden to 256 per rank (gpt-oss: 2,880 → 2,944 and 3,072, +9 %); up to
    0.26 the intermediate went to 256 (0.26.0's ``round_up(intermediate_size, 256)``, 128 from
    0.27.0).
  - Hopper (SM90): OpenAI's Triton kernels from 0.12.0, the first wheel that ships them
    (vllm/third_party/triton_kernels; ``vllm_releases.Rules.mxfp4_triton_on_hopper``). Before, Marlin:
    0.10.1 pins torch 2.7.1 (``_should_use_marlin``: "not is_torch_equal_or_newer('2.8.0')",
    requirements/cuda.txt), and 0.10.2–0.11.2 pick Triton only when the ``triton_kernels`` package
    is installed beside vLLM (``get_mxfp4_backend``, quantization/mxfp4.py of 0.11.0: "not
    has_triton_kernels() ... Using Marlin backend"), which the wheel does not require — the
    gpt-oss-120b H100 log of 0.11.0 in engines.startup_log_table (vllm issue #27508) has Marlin's
    weights. Triton rounds the intermediate up to 64; then
    ``_swizzle_mxfp4`` (quantization/utils/mxfp4_utils.py) pads the scale groups to a multiple of
    4 and triton_kernels' Hopper layouts pad again (``HopperMXValueLayout``: 64 bytes along the
    reduced axis, 256 along the other; ``HopperMXScaleLayout``: 256 rows with 8 warps;
    triton-lang/triton python/triton_kernels/.../layout_details/hopper_value.py and
    hopper_scale.py); the expert biases become fp32.
  - Ampere, Ada, consumer Blackwell (SM80–SM89, SM120): Marlin, intermediate to 128, hidden to
    256 (the same sizes as TRT-LLM).
  - AMD CDNA3/4 (MI300X, MI325X, MI355X): Triton on ROCm, both rounded up to 256.

  DeepSeek-V4's MXFP4 experts (``expert_dtype`` "fp4") go through the same ``Mxfp4MoEMethod``
  (``DeepseekV4FP8Config.get_quant_method``, vllm/model_executor/models/deepseek_v4.py) in the
  default FusedMoE, rounded up as gpt-oss's are: Flash's widths (hidden 4,096, intermediate
  2,048) are multiples of every rounding above up to TP 16, Pro's (7,168 × 3,072) are padded
  where 3,072 / TP is not (TP 16 on Blackwell: 192 → 256). The opt-in DeepGEMM MegaMoE backend
  (``--kernel-config moe_backend=deep_gemm_mega_moe``, SM100 with expert parallelism) loads them
  as stored (``DeepseekV4MegaMoEExperts``: ``w13`` of E × 2I × H/2 bytes and an e8m0 scale per 32)
  and is not modelled apart.

* **NVFP4 on Blackwell** (``swizzle_blockscale``, quantization/utils/nvfp4_utils.py): the
  block scales are swizzled for CUTLASS / FlashInfer, rows padded to 128 and scale columns to 4.

* **MLA with a quantized kv_b_proj** (``MLAAttention.process_weights_after_loading``,
  layers/attention/mla_attention.py): ``split_kv_b_proj`` dequantizes kv_b_proj and keeps
  ``W_UK_T`` and ``W_UV`` in the activation dtype beside it: a bf16 copy of each rank's share of
  kv_b_proj (DeepSeek-V3 at fp8: 2 GiB over 61 layers, ÷ TP). With a bf16 kv_b_proj they are
  views of its weight and cost nothing.

* **Integer weights with zero points on Hopper** (AWQ): the mixed-precision kernel is Machete
  (first in ``_POSSIBLE_KERNELS``, kernels/linear/__init__.py; "Machete requires compute
  capability of 90"), whose ``transform_w_zp`` (kernels/linear/mixed_precision/machete.py)
  replaces the packed 4-bit zero points by ``-zp × scale`` in the activation dtype: 2 bytes per
  group and column instead of half a byte.

* **Symmetric GPTQ**: Marlin drops the stored ``qzeros`` (``marlin_make_empty_g_idx``,
  quantization/auto_gptq.py) and, without act-order, ``g_idx``.

Vocabulary rows are padded to a multiple of 64 (``DEFAULT_VOCAB_PADDING_SIZE``,
layers/vocab_parallel_embedding.py) before they split over the ranks.
"""

from __future__ import annotations

import math

from . import vllm_releases

#: vLLM release these rules are read from.
VERSION = "0.33.0"
#: ``DEFAULT_VOCAB_PADDING_SIZE = 64`` (vllm/model_executor/layers/vocab_parallel_embedding.py).
VOCAB_PADDING = 64

#: Compute capability (or ROCm arch) of the GPUs by id, for the kernels vLLM picks.
ARCH_BY_ID = {
    "h100-sxm": "sm90", "h100-pcie": "sm90", "h200": "sm90", "h20": "sm90", "gh200": "sm90",
    "b200": "sm100", "gb200": "sm100", "b300": "sm100",
    "a100-80g": "sm80", "a100-40g": "sm80", "a10": "sm86", "a10g": "sm86", "rtx-3090": "sm86",
    "l40s": "sm89", "l40": "sm89", "l4": "sm89", "rtx-4090": "sm89", "rtx-6000-ada": "sm89",
    "rtx-5090": "sm120", "rtx-pro-6000": "sm120", "gb10": "sm121", "t4": "sm75",
    "mi300x": "gfx942", "mi325x": "gfx942", "mi355x": "gfx950",
}
#: The same by a word of the GPU's name, for GPUs added without an id above.
_ARCH_BY_NAME = (
    ("GB200", "sm100"), ("B300", "sm100"), ("B200", "sm100"), ("GH200", "sm90"), ("H200", "sm90"),
    ("H100", "sm90"), ("H20", "sm90"), ("GB10", "sm121"), ("RTX PRO 6000", "sm120"), ("5090", "sm120"),
    ("RTX 6000 Ada", "sm89"), ("L40", "sm89"), ("L4", "sm89"), ("4090", "sm89"), ("A100", "sm80"),
    ("A10", "sm86"), ("3090", "sm86"), ("T4", "sm75"), ("MI355", "gfx950"), ("MI325", "gfx942"),
    ("MI300", "gfx942"),
)
ARCH_NAMES = {"sm75": "Turing", "sm80": "Ampere", "sm86": "Ampere", "sm89": "Ada", "sm90": "Hopper",
              "sm100": "Blackwell (SM100)", "sm120": "Blackwell (SM120)", "sm121": "Blackwell (GB10)",
              "gfx942": "CDNA3", "gfx950": "CDNA4"}


def gpu_arch(gpu_id: str, gpu_name: str = "") -> str:
    """The GPU's architecture as vLLM's kernel selection sees it; "" when unknown."""
    if gpu_id in ARCH_BY_ID:
        return ARCH_BY_ID[gpu_id]
    for word, arch in _ARCH_BY_NAME:
        if word in gpu_name:
            return arch
    return ""


def round_up(x: int, multiple: int) -> int:
    return -(-x // multiple) * multiple


def padded_vocab(vocab: int) -> int:
    return round_up(vocab, VOCAB_PADDING)


# -- MXFP4 experts ------------------------------------------------------------------------------

def version_tuple(version: str) -> tuple[int, ...]:
    """(0, 10, 1) from "0.10.1" (the leading digits of each part: "0.11.2rc1" is (0, 11, 2))."""
    parts = []
    for part in version.split(".")[:3]:
        digits = ""
        for c in part:
            if not c.isdigit():
                break
            digits += c
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _triton_kernels_shipped(version: str) -> bool:
    """Whether ``version``'s wheel brings OpenAI's Triton kernels, so that Hopper runs MXFP4 on them
    (the release rule lives in vllm_releases, beside the other rules that change by release)."""
    if version_tuple(version) < (0, 8, 5):  # older than any modelled release: long before the kernels
        return False
    return vllm_releases.rules(version).mxfp4_triton_on_hopper


def mxfp4_backend(arch: str, version: str = VERSION) -> str:
    """The gpt-oss MXFP4 MoE backend vLLM ``version`` picks with default settings on ``arch``."""
    if arch == "sm100":
        return "flashinfer-trtllm" if version_tuple(version) >= (0, 27) else "flashinfer-trtllm-256"
    if arch == "sm90":
        return "triton" if _triton_kernels_shipped(version) else "marlin"
    if arch in ("sm80", "sm86", "sm89", "sm120", "sm121"):
        return "marlin"
    if arch in ("gfx942", "gfx950"):
        return "triton-rocm"
    return ""


BACKEND_NAMES = {"flashinfer-trtllm": "FlashInfer TRT-LLM", "flashinfer-trtllm-256": "FlashInfer TRT-LLM",
                 "triton": "OpenAI Triton kernels (Hopper layout)",
                 "marlin": "Marlin", "triton-rocm": "Triton (ROCm)"}


def mxfp4_padded(backend: str, hidden: int, intermediate: int) -> tuple[int, int]:
    """(hidden, intermediate per rank) after vLLM's round-up for ``backend``."""
    if backend in ("flashinfer-trtllm", "marlin"):
        return round_up(hidden, 256), round_up(intermediate, 128)
    if backend in ("triton-rocm", "flashinfer-trtllm-256"):
        return round_up(hidden, 256), round_up(intermediate, 256)
    if backend == "triton":
        return hidden, round_up(intermediate, 64)
    return hidden, intermediate


def mxfp4_expert_bytes(backend: str, rows: int, cols: int) -> tuple[float, float]:
    """(values, scales) bytes of one expert matrix of ``rows × cols`` (out × in, already padded by
    :func:`mxfp4_padded`; gate and up fused into one of 2 × intermediate rows) as ``backend``
    holds it."""
    values, scales = rows * cols / 2, rows * math.ceil(cols / 32)
    if backend == "triton":
        # Hopper: values (cols/2 bytes along the reduced axis) to 64 and rows to 256; scale groups
        # to a multiple of 4, rows to 256.
        values = round_up(cols // 2, 64) * round_up(rows, 256)
        scales = round_up(rows, 256) * round_up(math.ceil(cols / 32), 4)
    return values, scales


def mxfp4_bias_bytes(backend: str) -> float:
    """Bytes per expert bias number: fp32 on the Triton backends, bf16 otherwise."""
    return 4.0 if backend in ("triton", "triton-rocm") else 2.0


def machete_zero_points(arch: str) -> bool:
    """Whether integer zero points are held as 16-bit group zeros (Machete, Hopper)."""
    return arch == "sm90"


# -- NVFP4 --------------------------------------------------------------------------------------

def nvfp4_swizzles(arch: str) -> bool:
    """Whether vLLM swizzles (and pads) NVFP4 block scales on ``arch`` (the CUTLASS / FlashInfer
    FP4 kernels of Blackwell; elsewhere NVFP4 runs weight-only through Marlin)."""
    return arch in ("sm100", "sm120", "sm121")


def nvfp4_scale_bytes(rows: int, cols: int) -> float:
    return round_up(rows, 128) * round_up(math.ceil(cols / 16), 4)


def nvfp4_activations(arch: str) -> str:
    """NVFP4's matmul operands: fp4 activations on Blackwell, bf16 (Marlin, weight-only) elsewhere."""
    return "fp4" if nvfp4_swizzles(arch) else ""
