"""Number formats: bytes per weight, and what one cached vector takes in each KV-cache layout.

Weights are counted at the format's width alone (int4 = ½ byte): the group scales of GPTQ/AWQ
checkpoints (about 3% more at group size 128) and the layers quantized checkpoints keep in bf16
are left out, so quantized weights are a slight underestimate.

The KV cache is counted with its scales, as the engines that offer each format store it:

* ``bf16``/``fp16``: 2 bytes per element, no scale.
* ``fp8``: 1 byte per element; vLLM keeps one scale per layer for K and one for V (per-tensor
  quantization, ``k_scale``/``v_scale`` = [1]; docs.vllm.ai, "Quantized KV Cache"): a few bytes
  per layer in all, nothing per token. The same for MLA's latent (``--kv-cache-dtype fp8``).
* ``fp8_ds_mla``: vLLM's layout for DeepSeek's sparse MLA (FlashMLA "FP8 with scale"): per token
  and layer 512 fp8 NoPE values, 4 fp32 scales (one per 128 values) and the 64 RoPE values in
  bf16: 656 bytes (engines.vllm.FP8_DS_MLA_LAYOUT). On a GQA cache it is plain fp8.
* ``int8``/``int4``: LMDeploy's online KV quantization (``quant_policy`` 8 or 4, since v0.4.0) is
  asymmetric per head and per token: each cached K or V vector of a head carries a scale and a
  zero point (InternLM/lmdeploy docs/en/quantization/kv_quant.md); they are taken as two fp16
  numbers, 4 bytes per vector. vLLM offers neither format.
"""

from __future__ import annotations

from ..engines.vllm import FP8_DS_MLA_LAYOUT
from ..hardware import DTYPES

#: Bytes of the per-vector quantization parameters (scale and zero point, fp16 each) of the
#: integer KV layouts; 0 for the float formats.
KV_VECTOR_PARAMS_BYTES = {"bf16": 0, "fp16": 0, "fp8": 0, "fp8_ds_mla": 0, "int8": 4, "int4": 4}
#: The KV-cache formats, with the words the calculators use.
KV_DTYPES = ("bf16", "fp16", "fp8", "fp8_ds_mla", "int8", "int4")
KV_DTYPE_CHOICES = (
    ("bf16", "bf16 (2 bytes)"),
    ("fp16", "fp16 (2 bytes)"),
    ("fp8", "fp8 (1 byte, per-tensor scale)"),
    ("fp8_ds_mla", "fp8_ds_mla (MLA: 656 B per layer)"),
    ("int8", "int8 (1 byte + scale per vector)"),
    ("int4", "int4 (½ byte + scale per vector)"),
)
#: The formats the weights come in (bytes per parameter).
WEIGHT_DTYPES = DTYPES
#: Formats that run on the fp8 tensor cores; int8 and int4 here are weight-only (GPTQ, AWQ):
#: dequantized and multiplied in bf16.
FP8_COMPUTE = ("fp8",)


def weight_bytes_per_param(dtype: str) -> float:
    return WEIGHT_DTYPES[dtype]


def _element_bytes(kv_dtype: str) -> float:
    return DTYPES["fp8" if kv_dtype == "fp8_ds_mla" else kv_dtype]


def kv_vector_bytes(elements: int, kv_dtype: str) -> float:
    """Bytes of one cached vector of ``elements`` numbers (one head's K, or its V) in this layout."""
    return elements * _element_bytes(kv_dtype) + KV_VECTOR_PARAMS_BYTES[kv_dtype]


def mla_latent_bytes(latent_dim: int, rope_dim: int, kv_dtype: str) -> float:
    """Bytes of one token's MLA latent plus RoPE key in one layer.

    ``fp8_ds_mla`` keeps the RoPE part in bf16 and one fp32 scale per 128 latent values (656 bytes
    for DeepSeek's 512 + 64); the other formats store the 576 values as one vector.
    """
    if kv_dtype == "fp8_ds_mla":
        groups = -(-latent_dim // 128)
        scale_bytes = FP8_DS_MLA_LAYOUT["scales_fp32"] // 4  # bytes of one fp32 scale
        return latent_dim * 1 + groups * scale_bytes + rope_dim * DTYPES["bf16"]
    return kv_vector_bytes(latent_dim + rope_dim, kv_dtype)
