"""Number formats: bytes per weight, and what one cached vector takes in each KV-cache layout.

The widths here (:data:`WEIGHT_DTYPES`, int4 = ½ byte) size weights only where no checkpoint says
how its tensors are stored (a custom shape's uniform reading, :meth:`WeightPlan.uniform`): they
leave out the group scales of GPTQ/AWQ checkpoints (about 3 % more at group size 128) and the
layers quantized checkpoints keep in bf16. A checkpoint's own formats, scales included, are the
classes of :mod:`.formats`.

The KV cache is counted as vLLM lays it out (engines.vllm_kv_dtypes, read from its source):

* ``bf16``/``fp16``: 2 bytes per element, no scale.
* ``fp8``, ``fp8_e4m3``, ``fp8_e5m2``: 1 byte per element; one scale per layer for K and one for V
  (per-tensor, ``k_scale``/``v_scale``): nothing per token. The same for MLA's latent.
* ``int8_per_token_head``, ``fp8_per_token_head`` (vLLM 0.20 on), ``int4_per_token_head`` (0.25
  on): every head's K and V vector carries its own fp32 scale, 4 bytes per vector; int4 packs two
  values per byte. GQA/MHA only (the Triton backend).
* ``nvfp4`` (0.21 on, FlashInfer): packed fp4 plus one fp8 scale per 16 values: D/2 + D/16 bytes
  per head vector.
* ``fp8_ds_mla`` (DeepSeek-V3.2's sparse MLA): per token and layer 512 fp8 NoPE values, 4 fp32
  scales and 64 bf16 RoPE values = 656 bytes; ``nvfp4_ds_mla`` (0.30 on, SM100) 352 bytes.

Which model, release and GPU accept a layout is :func:`kv_layout_problem`.
"""

from __future__ import annotations

from ..engines import vllm_kv_dtypes
from ..engines.vllm_kv_dtypes import KV_LAYOUTS
from ..hardware import DTYPES

#: The KV-cache formats (vLLM's ``--kv-cache-dtype`` names; "bf16"/"fp16" are "auto" for such a
#: model), with the words the calculators use.
KV_DTYPES = tuple(KV_LAYOUTS)
KV_DTYPE_CHOICES = tuple((k.id, k.label) for k in KV_LAYOUTS.values())
#: Bytes of the per-vector scales of each layout (0: per-tensor or none).
KV_VECTOR_PARAMS_BYTES = {k.id: k.vector_scale_bytes for k in KV_LAYOUTS.values()}
#: The formats the weights come in (bytes per parameter).
WEIGHT_DTYPES = DTYPES
#: Formats that run on the fp8 tensor cores; int8 and int4 here are weight-only (GPTQ, AWQ):
#: dequantized and multiplied in bf16.
FP8_COMPUTE = ("fp8",)


def weight_bytes_per_param(dtype: str) -> float:
    return WEIGHT_DTYPES[dtype]


def uniform_compute(dtype: str) -> str:
    """The matmul format of weights all in ``dtype`` (a width with no checkpoint's formats behind it)."""
    return "fp8" if dtype in FP8_COMPUTE else "bf16"


def kv_vector_bytes(elements: int, kv_dtype: str) -> float:
    """Bytes of one cached vector of ``elements`` numbers (one head's K, or its V) in this layout,
    its per-vector scale included."""
    return vllm_kv_dtypes.vector_bytes(elements, kv_dtype)


def mla_latent_bytes(latent_dim: int, rope_dim: int, kv_dtype: str) -> float:
    """Bytes of one token's MLA latent plus RoPE key in one layer (one vector, no factor 2).

    ``fp8_ds_mla`` keeps the RoPE part in bf16 and one fp32 scale per 128 latent values (656 bytes
    for DeepSeek's 512 + 64), ``nvfp4_ds_mla`` packs the latent in fp4 (352); the other formats
    store the 576 values at their width.
    """
    return vllm_kv_dtypes.mla_token_bytes(latent_dim, rope_dim, kv_dtype)


def kv_layout_problem(kv_dtype: str, *, mla: bool, sparse_mla: bool = False, version: str = "0.33.0",
                      cc: tuple[int, int] | None = (9, 0), head_dim: int = 128, sinks: bool = False) -> str:
    """Why vLLM would refuse this KV layout here ("" when it serves it)."""
    return vllm_kv_dtypes.layout_problem(kv_dtype, mla=mla, sparse_mla=sparse_mla, version=version, cc=cc,
                                         head_dim=head_dim, sinks=sinks)
