"""The KV-cache layouts vLLM offers (``--kv-cache-dtype``), byte for byte as its source lays them out.

Read from the sdists on PyPI (``vllm/config/cache.py::CacheDType`` of each release, the backends'
``supported_kv_cache_dtypes`` and ``customize_spec``):

* ``bf16``/``fp16`` ("auto" for a bf16/fp16 model): 2 bytes per number.
* ``fp8``, ``fp8_e4m3``, ``fp8_e5m2``: 1 byte per number; the scales are per tensor (``k_scale``,
  ``v_scale`` per layer, ``KVQuantMode.FP8_PER_TENSOR``): nothing per token. ``fp8`` is e4m3 on
  CUDA.
* ``int8_per_token_head``, ``fp8_per_token_head`` (0.20.0 on), ``int4_per_token_head`` (0.25.0
  on): every head's K and V vector of every token carries its own fp32 scale: ``(hs_k + hs_v) ×
  dtype + 2 × 4`` bytes per head and token (``TritonAttentionBackend.customize_spec``,
  v1/attention/backends/triton_attn.py 0.33.0: "Per-token-head modes pack inline fp32 scales
  after each head's data"; in 0.20.0 the same bytes sit in separate scale tensors,
  ``AttentionSpec.page_size_bytes`` adds ``2 × block × heads × 4``); int4 packs two values per
  byte. Only TRITON_ATTN lists them, for GQA/MHA layers.
* ``nvfp4`` (selectable 0.20.0, served from 0.21.0): K and V as packed fp4 plus one fp8 scale per
  16 values: ``head_size // 2 + head_size // 16`` bytes each (``nvfp4_kv_cache_full_dim``,
  vllm/utils/torch_utils.py; ``FlashInferBackend.customize_spec``). FlashInfer only; SM100 only up
  to 0.31, and from 0.32 also SM 8.x/9.x/12.x through FlashInfer's FA2 path (``_nvfp4_kv_on_fa2``,
  v1/attention/backends/flashinfer.py 0.32.0) ("nvfp4" there, not
  "nvfp4_4over6"; not at head size 64, not with attention sinks).
* ``fp8_ds_mla`` (0.12.0 on; DeepSeek-V3.2's default for "auto" in 0.11–0.17, and what fp8 becomes
  on a sparse-MLA model where FlashMLA's sparse kernels serve it: :func:`stored_kv_dtype`): per token and
  layer 512 fp8 NoPE values, 4 fp32 scales (one per 128) and 64 bf16 RoPE values = 656 bytes
  (vllm/v1/attention/backends/mla/flashmla_sparse.py; ``state_content_bytes={"fp8_ds_mla": 656,
  "nvfp4_ds_mla": 352}`` in model_executor/layers/attention/mla_attention.py, 0.33.0). The sparse
  MLA backends take it; FLASHMLA_SPARSE serves any quantized dtype through it.
* ``nvfp4_ds_mla`` (0.30.0 on; absent in 0.29.0): 256 bytes of packed e2m1 NoPE, 64 fp8 RoPE,
  32 fp8 scales = 352 bytes per token and layer; SM100 only.

``turboquant_*``, ``octave_*``, ``ultraquant_4bit`` (newer, backend-specific packings) and
``fp8_inc`` (Intel Gaudi) are offered too; they are not modelled here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .vllm import parse_version

__all__ = ["KVLayout", "KV_LAYOUTS", "vector_bytes", "mla_token_bytes", "layout_problem", "FP8_DS_MLA_BYTES",
           "NVFP4_DS_MLA_BYTES", "SPARSE_MLA_FP8_SINCE", "sparse_mla_backend", "stored_kv_dtype"]

FP8_DS_MLA_BYTES = 512 * 1 + 4 * 4 + 64 * 2  # 656
#: FlashInfer's head sizes (``FlashInferBackend.get_supported_head_sizes``, 0.32.0/0.33.0).
NVFP4_HEAD_SIZES = (64, 128, 256, 512)
#: NVFP4 KV on SM 8.x/9.x/12.x through FlashInfer's FA2 kernels: in the 0.32.0 sdist, not in 0.31.0.
NVFP4_FA2_SINCE = (0, 32)
NVFP4_DS_MLA_BYTES = 512 // 2 + 64 * 1 + 512 // 16  # 352


@dataclass(frozen=True)
class KVLayout:
    """One ``--kv-cache-dtype``: its bytes per number, the per-vector scale bytes, where it runs.

    ``gqa`` / ``mla``: whether some attention backend accepts it for GQA/MHA layers and for MLA
    latents; ``sparse_mla_only``: only DeepSeek-V3.2's sparse MLA backends; ``since``: the first
    release whose ``CacheDType`` lists it (and that serves it).
    """

    id: str
    label: str
    element_bytes: float
    vector_scale_bytes: float = 0.0
    gqa: bool = True
    mla: bool = True
    sparse_mla_only: bool = False
    since: tuple[int, ...] = (0, 8)
    backends: str = ""
    fp4: bool = False


KV_LAYOUTS: dict[str, KVLayout] = {
    k.id: k for k in (
        KVLayout("bf16", "bf16 (2 bytes)", 2, backends="every backend"),
        KVLayout("fp16", "fp16 (2 bytes)", 2, backends="every backend"),
        KVLayout("fp8", "fp8 (1 byte, e4m3, per-tensor scale)", 1,
                 backends="FLASH_ATTN (FA3, Hopper), FLASHINFER, TRITON_ATTN; MLA: FLASHMLA, CUTLASS_MLA, "
                          "TRITON_MLA, FLASHINFER_MLA; sparse MLA stores it as fp8_ds_mla"),
        KVLayout("fp8_e4m3", "fp8_e4m3 (1 byte, per-tensor scale)", 1,
                 backends="as fp8 (fp8 means e4m3 on CUDA)"),
        KVLayout("fp8_e5m2", "fp8_e5m2 (1 byte, per-tensor scale)", 1, mla=True,
                 backends="FLASHINFER, TRITON_ATTN, ROCm backends; not FLASH_ATTN"),
        KVLayout("int8_per_token_head", "int8_per_token_head (1 byte + fp32 scale per head vector)", 1, 4,
                 mla=False, since=(0, 20), backends="TRITON_ATTN only"),
        KVLayout("fp8_per_token_head", "fp8_per_token_head (1 byte + fp32 scale per head vector)", 1, 4,
                 mla=False, since=(0, 20), backends="TRITON_ATTN only"),
        KVLayout("int4_per_token_head", "int4_per_token_head (½ byte + fp32 scale per head vector)", 0.5, 4,
                 mla=False, since=(0, 25), backends="TRITON_ATTN only"),
        KVLayout("nvfp4", "nvfp4 (½ byte + fp8 scale per 16)", 0.5 + 1 / 16, mla=False, since=(0, 21),
                 backends="FLASHINFER: SM100 (0.21 on); SM 8.x/9.x/12.x too from 0.32", fp4=True),
        KVLayout("fp8_ds_mla", "fp8_ds_mla (sparse MLA: 656 B per layer)", 1, gqa=False, sparse_mla_only=True,
                 since=(0, 12), backends="FLASHMLA_SPARSE, FLASHINFER_MLA_SPARSE"),
        KVLayout("nvfp4_ds_mla", "nvfp4_ds_mla (sparse MLA: 352 B per layer, SM100)", 0.5, gqa=False,
                 sparse_mla_only=True, since=(0, 30), backends="FLASHMLA_SPARSE on SM100 only", fp4=True),
    )
}


def vector_bytes(elements: int, kv_dtype: str) -> float:
    """Bytes of one cached K or V vector of ``elements`` numbers (one head) in this layout."""
    layout = KV_LAYOUTS[kv_dtype]
    if kv_dtype == "nvfp4":  # packed e2m1 pairs and an e4m3 scale per 16 (vLLM takes head sizes of 16k)
        return -(-elements // 2) + -(-elements // 16)
    return elements * layout.element_bytes + layout.vector_scale_bytes


def mla_token_bytes(latent_dim: int, rope_dim: int, kv_dtype: str) -> float:
    """Bytes of one token's MLA latent plus RoPE key in one layer (one vector, no factor 2).

    The DeepSeek layouts are fixed records for the 512 + 64 geometry (scaled here by the latent's
    own 128-value tiles and 16-value NVFP4 blocks): ``fp8_ds_mla`` 512 fp8 + 4 fp32 scales +
    64 bf16 RoPE = 656; ``nvfp4_ds_mla`` 256 + 64 fp8 RoPE + 32 scales = 352."""
    if kv_dtype == "fp8_ds_mla":
        return latent_dim + -(-latent_dim // 128) * 4 + rope_dim * 2
    if kv_dtype == "nvfp4_ds_mla":
        return latent_dim // 2 + rope_dim + latent_dim // 16
    return (latent_dim + rope_dim) * KV_LAYOUTS[kv_dtype].element_bytes


#: DeepSeek sparse attention's first release (``DeepseekV32ForCausalLM``), with the fp8 rewrite below.
SPARSE_MLA_FP8_SINCE = (0, 11)
#: From 0.18 the model's config no longer rewrites fp8; the attention layer does, for the backends below.
SPARSE_MLA_BY_BACKEND_SINCE = (0, 18)
#: 0.19 on: on SM100 an fp8 cache puts FlashInfer's sparse backend first whatever the head count.
SPARSE_MLA_FLASHINFER_FP8_SINCE = (0, 19)
#: 0.24 on: SM12x has a sparse-MLA backend of its own (FLASHINFER_MLA_SPARSE_SM120).
SPARSE_MLA_SM120_SINCE = (0, 24)


def sparse_mla_backend(kv_dtype: str, version="0.33.0", cc: tuple[int, int] | None = (9, 0),
                       heads_per_gpu: int = 0) -> str:
    """The sparse-MLA attention backend vLLM picks for an fp8 cache from 0.18 (``_get_backend_priorities``,
    vllm/platforms/cuda.py), "" where none serves it or the GPU is not an NVIDIA one.

    * SM100 (B200, B300, GB200): 0.18 puts FLASHINFER_MLA_SPARSE first when a GPU holds at most 16
      query heads, FLASHMLA_SPARSE first otherwise; from 0.19 an fp8 cache puts FlashInfer first
      ("Prefer FlashInfer for fp8 kv cache", vllm#35807), which the 0.33 FA4 sparse backend ahead of it
      leaves to FlashInfer (it takes auto and bfloat16 only).
    * SM12x (RTX 50, RTX PRO 6000, GB10): FLASHINFER_MLA_SPARSE_SM120 from 0.24; none before
      (FLASHMLA_SPARSE runs on compute capability 9 and 10 only).
    * Every other NVIDIA GPU: the list ends in FLASHMLA_SPARSE, the one sparse backend that takes fp8
      there (0.25's FLASH_ATTN_MLA_SPARSE first takes auto, float16 and bfloat16 only; 0.30's
      FLASHINFER_MLA_SPARSE_SM90 comes after it); it runs on 9.x (and 10.x) only.
    """
    if cc is None:
        return ""
    v = parse_version(version)
    if cc[0] == 10:
        if v >= SPARSE_MLA_FLASHINFER_FP8_SINCE or (heads_per_gpu and heads_per_gpu <= 16):
            return "FLASHINFER_MLA_SPARSE"
        return "FLASHMLA_SPARSE"
    if cc[0] == 12:
        return "FLASHINFER_MLA_SPARSE_SM120" if v >= SPARSE_MLA_SM120_SINCE else ""
    return "FLASHMLA_SPARSE" if cc[0] == 9 else ""


def stored_kv_dtype(kv_dtype: str, *, sparse_mla: bool, version="0.33.0", cc: tuple[int, int] | None = (9, 0),
                    heads_per_gpu: int = 0) -> str:
    """The layout vLLM stores for ``--kv-cache-dtype kv_dtype`` on a model with DeepSeek sparse attention
    (an indexer): ``fp8_ds_mla`` (656 bytes a token and layer) where the fp8 choice is rewritten,
    ``kv_dtype`` itself (576 fp8 bytes) where it is not. Read in the wheels of every release from 0.17.0
    to 0.33.0 (``pip download vllm==X --no-deps``):

    * 0.11–0.17: ``DeepseekV32ForCausalLM.verify_and_update_config`` rewrites every "fp8*" on every GPU
      ("Using custom fp8 kv-cache format for DeepSeekV3.2"; vllm/model_executor/models/config.py, 0.17.0,
      and at 1936cf38, https://github.com/vllm-project/vllm/blob/1936cf3841edb9781b06c50fc4daf4bac9d3b23e/vllm/model_executor/models/config.py;
      0.11.0 rewrites "auto" too: :func:`.vllm_hybrid.deepseek_v32_auto_kv_dtype`).
    * From 0.18 the config keeps fp8 and ``MLAAttention.__init__`` rewrites it by backend
      (``_canonicalize_sparse_mla_kv_cache_dtype``, model_executor/layers/attention/mla_attention.py,
      0.24.0–0.33.0; inline in 0.18.0–0.23.0): FLASHMLA_SPARSE turns any quantized dtype into fp8_ds_mla,
      FLASHINFER_MLA_SPARSE_SM120 "auto", "fp8" and "fp8_e4m3"; FLASHINFER_MLA_SPARSE keeps plain fp8
      ("Using standard fp8 KV cache format. To use DeepSeek's fp8_ds_mla KV cache format, please set
      `--attention-backend FLASHMLA_SPARSE`"). Which backend runs: :func:`sparse_mla_backend`. So an
      H100 or H200 stores fp8_ds_mla, a B200 plain fp8 from 0.19.
    * The page follows the string: ``state_content_bytes={"fp8_ds_mla": 656, "nvfp4_ds_mla": 352}.get(...)``
      in ``MLAAttention.get_kv_cache_spec`` (0.33.0). The indexer's key cache is fp8 with fp32 scales
      whatever the dtype (``DeepseekV32IndexerCache``, 132 bytes): it does not change.
    """
    v = parse_version(version)
    if not sparse_mla or not kv_dtype.startswith("fp8") or kv_dtype == "fp8_ds_mla" or v < SPARSE_MLA_FP8_SINCE:
        return kv_dtype
    if v < SPARSE_MLA_BY_BACKEND_SINCE:
        return "fp8_ds_mla"
    backend = sparse_mla_backend(kv_dtype, version, cc, heads_per_gpu)
    if backend == "FLASHMLA_SPARSE":
        return "fp8_ds_mla"
    if backend == "FLASHINFER_MLA_SPARSE_SM120" and kv_dtype in ("fp8", "fp8_e4m3"):
        return "fp8_ds_mla"
    return kv_dtype


def layout_problem(kv_dtype: str, *, mla: bool, sparse_mla: bool = False, version="0.33.0",
                   cc: tuple[int, int] | None = (9, 0), head_dim: int = 128, sinks: bool = False) -> str:
    """Why vLLM would refuse this KV layout for this model, release and GPU; "" when it serves it."""
    layout = KV_LAYOUTS[kv_dtype]
    v = parse_version(version)
    if v < layout.since:
        first = ".".join(str(n) for n in layout.since)
        return f"--kv-cache-dtype {kv_dtype} arrives in vLLM {first}; vLLM {version} does not offer it"
    if mla and not layout.mla:
        return (f"no MLA attention backend accepts --kv-cache-dtype {kv_dtype} ({layout.backends}, for "
                f"GQA/MHA layers)")
    if layout.sparse_mla_only and not sparse_mla:
        return (f"--kv-cache-dtype {kv_dtype} is DeepSeek-V3.2's sparse-MLA layout ({layout.backends}); "
                f"this model's attention backends do not accept it")
    if not mla and not layout.gqa:
        return f"--kv-cache-dtype {kv_dtype} is an MLA layout; no GQA/MHA backend accepts it"
    blackwell = cc is not None and cc[0] == 10
    if kv_dtype == "nvfp4_ds_mla" and not blackwell:
        return "nvfp4_ds_mla runs on SM100 GPUs only (FlashMLA sparse: 'nvfp4_ds_mla ... major != 10')"
    if kv_dtype == "nvfp4":
        if head_dim not in NVFP4_HEAD_SIZES:
            return (f"nvfp4 KV cache runs on FlashInfer, whose kernels take head sizes "
                    f"{', '.join(map(str, NVFP4_HEAD_SIZES))}, not {head_dim}")
        if cc is None:
            return "nvfp4 KV cache needs FlashInfer on an NVIDIA GPU"
        if not blackwell:
            if v < NVFP4_FA2_SINCE:
                return (f"nvfp4 KV cache runs on SM100 GPUs only up to vLLM 0.31 (FlashInfer's "
                        f"trtllm kernels); vLLM {version} refuses it on compute capability {cc[0]}.{cc[1]}")
            if cc[0] not in (8, 9, 12):
                return f"nvfp4 KV cache needs compute capability 8.x, 9.x, 10.x or 12.x, not {cc[0]}.{cc[1]}"
            if head_dim == 64:
                return "FlashInfer's FA2 prefill misreads an NVFP4 KV cache at head size 64"
            if sinks:
                return "the sink prefill wrapper cannot read an NVFP4 KV cache (attention sinks)"
    return ""
