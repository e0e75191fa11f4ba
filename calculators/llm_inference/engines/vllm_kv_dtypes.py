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
* ``fp8_ds_mla`` (0.12.0 on; DeepSeek-V3.2's default for "auto" in 0.11–0.17, what fp8 becomes
  on a sparse-MLA model where FlashMLA's sparse kernels serve it, and what SM 12.x stores for auto, fp8 and
  fp8_e4m3 from 0.24: :func:`stored_kv_dtype`; fp8_e5m2, and fp8_e4m3 on Hopper before 0.30, vLLM refuses
  there: :func:`sparse_mla_refusal`): per token and
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
           "NVFP4_DS_MLA_BYTES", "SPARSE_MLA_FP8_SINCE", "SPARSE_MLA_BACKENDS", "sparse_mla_priorities",
           "sparse_mla_backend", "sparse_mla_refusal", "stored_kv_dtype"]

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
#: 0.25 on: FLASH_ATTN_MLA_SPARSE heads the sparse list on SM 9.x (auto, float16, bfloat16 only).
SPARSE_MLA_FA_SINCE = (0, 25)
#: 0.30 on: FLASHINFER_MLA_SPARSE_SM90 closes the SM 9.x list for a 576-wide MLA head (in the 0.30.0 wheel,
#: not in 0.29.0; its gate, FlashInfer >= 0.6.18, holds with the pinned flashinfer-python 0.6.18.post1).
SPARSE_MLA_SM90_SINCE = (0, 30)

#: What each sparse-MLA backend takes as ``--kv-cache-dtype`` (``supported_kv_cache_dtypes``; the calculator's
#: "bf16" is vLLM's "auto"/"bfloat16" on a bf16 model) and on which compute-capability majors
#: (``supports_compute_capability``); read in the 0.18.0, 0.23.0, 0.24.0, 0.30.0 and 0.33.0 wheels.
#: FLASHMLA_SPARSE: "auto", "bfloat16", "fp8_ds_mla", "fp8" ("alias for fp8_ds_mla"; nvfp4_ds_mla from 0.30),
#: majors 9 and 10. FLASHINFER_MLA_SPARSE: "auto", "float16", "bfloat16", "fp8", "fp8_e4m3", major 10.
#: FLASHINFER_MLA_SPARSE_SM120: "auto", "fp8", "fp8_e4m3", "fp8_ds_mla", major 12 (a "bfloat16" cache is
#: "auto" by then: ``DeepseekV32ForCausalLM.verify_and_update_config``; it also wants index_topk 2048, which
#: DeepSeek-V3.2 and GLM-5 have). FLASHINFER_MLA_SPARSE_SM90: "auto", "bfloat16", "fp8", "fp8_e4m3", major 9.
#: FLASH_ATTN_MLA_SPARSE: "auto", "float16", "bfloat16", major 9.
SPARSE_MLA_BACKENDS: dict[str, tuple[frozenset[str], tuple[int, ...]]] = {
    "FLASHMLA_SPARSE": (frozenset({"bf16", "fp8", "fp8_ds_mla", "nvfp4_ds_mla"}), (9, 10)),
    "FLASHINFER_MLA_SPARSE": (frozenset({"bf16", "fp16", "fp8", "fp8_e4m3"}), (10,)),
    "FLASHINFER_MLA_SPARSE_SM120": (frozenset({"bf16", "fp8", "fp8_e4m3", "fp8_ds_mla"}), (12,)),
    "FLASHINFER_MLA_SPARSE_SM90": (frozenset({"bf16", "fp8", "fp8_e4m3"}), (9,)),
    "FLASH_ATTN_MLA_SPARSE": (frozenset({"bf16", "fp16"}), (9,)),
}


def sparse_mla_priorities(kv_dtype: str, version="0.33.0", cc: tuple[int, int] = (9, 0),
                          heads_per_gpu: int = 0) -> tuple[str, ...]:
    """The sparse-MLA backends ``_get_backend_priorities`` (vllm/platforms/cuda.py) lists for this GPU, in
    order (the dense MLA backends before them fail "sparse not supported"):

    * SM100: up to 0.18, FLASHINFER_MLA_SPARSE first when a GPU holds at most 16 query heads, FLASHMLA_SPARSE
      first otherwise; from 0.19 a quantized cache puts FlashInfer first ("Prefer FlashInfer for fp8 kv
      cache", vllm#35807); 0.33's FA4 sparse backend, first for bf16 at low head counts, takes no fp8.
    * SM12x: FLASHINFER_MLA_SPARSE_SM120 from 0.24 (after TRITON_MLA, dense); nothing sparse before.
    * Any other: FLASH_ATTN_MLA_SPARSE (0.25 on), FLASHMLA_SPARSE, then FLASHINFER_MLA_SPARSE_SM90 (0.30 on,
      last for DeepSeek's 576-wide head, first only for a 512-wide one).
    """
    v = parse_version(version)
    if cc[0] == 10:
        flashinfer_first = (v >= SPARSE_MLA_FLASHINFER_FP8_SINCE and kv_dtype not in ("bf16", "fp16")) or (
            bool(heads_per_gpu) and heads_per_gpu <= 16)
        return (("FLASHINFER_MLA_SPARSE", "FLASHMLA_SPARSE") if flashinfer_first
                else ("FLASHMLA_SPARSE", "FLASHINFER_MLA_SPARSE"))
    if cc[0] == 12:
        return ("FLASHINFER_MLA_SPARSE_SM120",) if v >= SPARSE_MLA_SM120_SINCE else ()
    return ((("FLASH_ATTN_MLA_SPARSE",) if v >= SPARSE_MLA_FA_SINCE else ()) + ("FLASHMLA_SPARSE",)
            + (("FLASHINFER_MLA_SPARSE_SM90",) if v >= SPARSE_MLA_SM90_SINCE else ()))


def sparse_mla_backend(kv_dtype: str, version="0.33.0", cc: tuple[int, int] | None = (9, 0),
                       heads_per_gpu: int = 0) -> str:
    """The sparse-MLA backend vLLM picks from 0.18 (``CudaPlatform.get_valid_backends``: the first in
    :func:`sparse_mla_priorities` whose ``validate_configuration`` finds no reason against this dtype and
    compute capability), "" where none serves it or the GPU is not an NVIDIA one (then vLLM raises "No valid
    attention backend found for cuda with ...": :func:`sparse_mla_refusal`).

    So fp8 on an H100 or H200 runs FLASHMLA_SPARSE, fp8_e4m3 there FLASHINFER_MLA_SPARSE_SM90 from 0.30 and
    nothing before; fp8_e5m2 no sparse backend at all; on a B200 fp8 and fp8_e4m3 FLASHINFER_MLA_SPARSE
    (fp8 FLASHMLA_SPARSE in 0.18 above 16 heads a GPU).
    """
    if cc is None:
        return ""
    for name in sparse_mla_priorities(kv_dtype, version, cc, heads_per_gpu):
        dtypes, majors = SPARSE_MLA_BACKENDS[name]
        if kv_dtype in dtypes and cc[0] in majors:
            return name
    return ""


def sparse_mla_refusal(kv_dtype: str, version="0.33.0", cc: tuple[int, int] | None = (9, 0)) -> str:
    """Why vLLM refuses a sparse-MLA model (DeepSeek-V3.2, GLM-5) with this cache on this GPU; "" when a
    backend serves it. From 0.18 the cache dtype reaches backend selection unchanged, so one no sparse
    backend lists (fp8_e5m2 anywhere, fp8_e4m3 on SM 9.x before 0.30) finds none; and SM 12.x has no
    sparse backend before 0.24, nor any GPU but 9.x and 10.x: FLASHMLA_SPARSE runs on majors 9 and 10
    only, in 0.17.0 as in 0.18.0–0.23.0, and 0.17.0 lists no other sparse backend off SM100 (its config's
    fp8 rewrite changes the dtype, not the GPU); 0.11–0.16 were not read and are taken to refuse alike,
    FLASHMLA_SPARSE being their one sparse backend there. vLLM's words
    (``get_attn_backend_cls``, vllm/platforms/cuda.py, 0.18.0–0.33.0): "No valid attention backend found
    for cuda with ...", each backend's reasons ("kv_cache_dtype not supported", "compute capability not
    supported")."""
    if cc is None:
        return ""
    v = parse_version(version)
    if v < SPARSE_MLA_FP8_SINCE:
        return ""
    if v < SPARSE_MLA_BY_BACKEND_SINCE:
        if cc[0] in (9, 10):
            return ""
    elif sparse_mla_backend(kv_dtype, version, cc):
        return ""
    tried = (sparse_mla_priorities(kv_dtype, version, cc) if v >= SPARSE_MLA_BY_BACKEND_SINCE
             else () if cc[0] == 12 else ("FLASHMLA_SPARSE",))
    if not tried:
        why = (f"no sparse-MLA backend runs on compute capability {cc[0]}.{cc[1]} in vLLM {version} "
               f"(FLASHINFER_MLA_SPARSE_SM120 arrives in 0.24; FLASHMLA_SPARSE runs on 9.x and 10.x only)")
    else:
        reasons = []
        for name in tried:
            dtypes, majors = SPARSE_MLA_BACKENDS[name]
            bad = ([] if kv_dtype in dtypes else ["kv_cache_dtype not supported"]) + (
                [] if cc[0] in majors else ["compute capability not supported"])
            reasons.append(f"{name}: [{', '.join(bad)}]")
        why = "; ".join(reasons)
    return (f"vLLM {version} refuses --kv-cache-dtype {kv_dtype} for this sparse-MLA model on compute capability "
            f"{cc[0]}.{cc[1]}: \"No valid attention backend found for cuda\" ({why}).")


def stored_kv_dtype(kv_dtype: str, *, sparse_mla: bool, version="0.33.0", cc: tuple[int, int] | None = (9, 0),
                    heads_per_gpu: int = 0) -> str:
    """The layout vLLM stores for ``--kv-cache-dtype kv_dtype`` on a model with DeepSeek sparse attention
    (an indexer): ``fp8_ds_mla`` (656 bytes a token and layer) where the choice is rewritten,
    ``kv_dtype`` itself (576 fp8 bytes) where it is not. Read in the wheels of every release from 0.17.0
    to 0.33.0 (``pip download vllm==X --no-deps``):

    * 0.11–0.17: ``DeepseekV32ForCausalLM.verify_and_update_config`` rewrites every "fp8*" on every GPU
      ("Using custom fp8 kv-cache format for DeepSeekV3.2"; vllm/model_executor/models/config.py, 0.17.0,
      and at 1936cf38, https://github.com/vllm-project/vllm/blob/1936cf3841edb9781b06c50fc4daf4bac9d3b23e/vllm/model_executor/models/config.py;
      0.11.0 rewrites "auto" too: :func:`.vllm_hybrid.deepseek_v32_auto_kv_dtype`).
    * From 0.18 the config keeps fp8 and ``MLAAttention.__init__`` rewrites it by backend
      (``_canonicalize_sparse_mla_kv_cache_dtype``, model_executor/layers/attention/mla_attention.py,
      0.24.0–0.33.0; inline in 0.18.0–0.23.0): FLASHMLA_SPARSE turns any quantized dtype into fp8_ds_mla,
      FLASHINFER_MLA_SPARSE_SM120 "auto", "fp8" and "fp8_e4m3" (so on SM 12.x from 0.24 a bf16 cache, which
      the model's config makes "auto", is stored as fp8_ds_mla too: ``get_kv_cache_shape`` gives 656 bytes);
      FLASHINFER_MLA_SPARSE and FLASHINFER_MLA_SPARSE_SM90 keep plain fp8 ("Using standard fp8 KV cache
      format. To use DeepSeek's fp8_ds_mla KV cache format, please set `--attention-backend FLASHMLA_SPARSE`").
      Which backend runs: :func:`sparse_mla_backend`; where none does, :func:`sparse_mla_refusal` (this
      function then returns ``kv_dtype`` unchanged, for a figure nobody shows). So an H100 or H200 stores
      fp8_ds_mla, a B200 plain fp8 from 0.19.
    * The page follows the string: ``state_content_bytes={"fp8_ds_mla": 656, "nvfp4_ds_mla": 352}.get(...)``
      in ``MLAAttention.get_kv_cache_spec`` (0.33.0). The indexer's key cache is fp8 with fp32 scales
      whatever the dtype (``DeepseekV32IndexerCache``, 132 bytes): it does not change.
    """
    v = parse_version(version)
    if not sparse_mla or kv_dtype in ("fp8_ds_mla", "nvfp4_ds_mla") or v < SPARSE_MLA_FP8_SINCE:
        return kv_dtype
    if v < SPARSE_MLA_BY_BACKEND_SINCE:
        return "fp8_ds_mla" if kv_dtype.startswith("fp8") else kv_dtype
    backend = sparse_mla_backend(kv_dtype, version, cc, heads_per_gpu)
    if backend == "FLASHMLA_SPARSE" and kv_dtype.startswith("fp8"):
        return "fp8_ds_mla"
    if backend == "FLASHINFER_MLA_SPARSE_SM120" and kv_dtype in ("bf16", "fp8", "fp8_e4m3"):
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
    if sparse_mla:
        refused = sparse_mla_refusal(kv_dtype, version, cc)
        if refused:
            return refused
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
