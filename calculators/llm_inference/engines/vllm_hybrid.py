"""vLLM's hybrid KV-cache allocator: fixed per-sequence state beside the attention cache.

Linear-attention and state-space layers (Qwen3-Next's Gated DeltaNet, Kimi-Linear's KDA,
MiniMax's lightning attention, the Mamba-2 layers of Nemotron-H, Granite 4.0-H and Falcon-H1,
Jamba's Mamba-1) keep no keys and values: each sequence holds one fixed-size state per layer — a
short convolution window and a recurrent (SSM) state. vLLM gives each such layer a ``MambaSpec``
and serves it from the same block pool as the attention layers. Everything here was read from the
released sdists on PyPI (``/work/src/vllm-<version>``):

* **State shapes** — ``MambaStateShapeCalculator`` (vllm/model_executor/layers/mamba/mamba_utils.py):
  Mamba-2 ``conv (I + 2·G'·N) / TP × (K − 1 + spec)``, ``ssm (H / TP, P, N)`` with the groups
  widened to ``G' = G + extra_groups_for_head_shards(G, TP)``; Mamba-1 ``conv I / TP × (K − 1)``,
  ``ssm (I / TP, N)``; Gated DeltaNet ``conv (2·Kh·Kd + Vh·Vd) / TP × (K − 1 + spec)``,
  ``ssm (Vh / TP, Vd, Kd)``; KDA ``conv (H·D + 2·Hk·Dk) / TP × (K − 1 + spec)``,
  ``ssm (H / TP, D, D)``; lightning ``(H / TP, D, D)`` and no conv.
* **State dtypes** — ``MambaStateDtypeCalculator``: conv and SSM state in the model dtype unless
  ``mamba_ssm_cache_dtype`` says otherwise; KDA's recurrent state in fp32; Nemotron-H's SSM state
  from its config, else float16 (0.13–0.19) or float32 (0.20 on) (``NemotronHForCausalLMConfig``,
  vllm/model_executor/models/config.py); Qwen3.5's ``mamba_ssm_dtype`` (0.17.0 on, the first release with Qwen3.5; same file).
* **Page sizes made equal** — ``HybridAttentionMambaModelConfig.verify_and_update_config``
  (models/config.py, 0.10.2–0.19.1) and ``Platform._align_hybrid_block_size``
  (vllm/platforms/interface.py, 0.20.0 on): the attention block grows to the smallest multiple of
  an alignment whose page holds one state ("Setting attention block size to N tokens to ensure
  that attention page size is >= mamba page size"), and the state page is padded up to it
  ("Padding mamba page size by x% ..."). :func:`hybrid_block_size`.
* **Blocks per request** — ``MambaSpec.max_memory_usage_bytes`` (v1/kv_cache_interface.py): one
  page per state layer group ("none"), two in "align" mode (and, in 0.33, one prefill
  checkpoint), a page per block of context in "all" mode, plus a page per speculative token
  (0.16 on). :func:`state_blocks_per_request`.
* **Which mode** — hybrid models get prefix caching by default from 0.26.0
  (``ModelConfig.is_prefix_caching_supported``: "Generative hybrid models support prefix
  caching"; 0.25.0 still returns False); with it on, ``MambaModelConfig`` picks "all" for models
  with ``SupportsMambaPrefixCaching`` (Mamba-1/2 models) up to 0.27 and "align" for everyone from
  0.28.0. :func:`mamba_cache_mode`.
* **The logged token count** — ≤ 0.20: ``num_blocks // len(groups) × min(block_size)``, the state
  groups' block being ``max_model_len`` when they hold one page (``_report_kv_cache_config``,
  kv_cache_utils.py 0.11.0 l.1075 / 0.19.1 l.1304); from 0.21 ``int(concurrency × max_model_len)``.
  :func:`logged_tokens`.

Also here: DeepSeek-V3.2's indexer key cache (:func:`indexer_bytes_per_token`) and decode context
parallelism (:func:`dcp_request_tokens`). Every function takes plain numbers and a ``version``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from .vllm import parse_version

__all__ = [
    "GATED_DELTANET", "KDA", "LIGHTNING", "MAMBA2", "MAMBA1", "MIXERS", "MIXER_NAMES", "SSM_DTYPES",
    "NEMOTRON_H", "Mixer", "extra_groups_for_head_shards", "state_shapes", "state_bytes",
    "state_served", "mamba_cache_mode", "hybrid_prefix_caching_default", "alignment", "hybrid_block_size",
    "state_blocks_per_request", "logged_tokens", "compute_capability", "INDEXER_QUANT_BLOCK",
    "indexer_bytes_per_token", "DEEPSEEK_V32_BLOCK_SIZE", "deepseek_v32_auto_kv_dtype",
    "dcp_request_tokens", "DCP_SINCE", "FLASHINFER_GDN_CHECKPOINT_ALIGNMENT",
]

#: The recurrent layer kinds vLLM serves with a ``MambaSpec``.
GATED_DELTANET, KDA, LIGHTNING, MAMBA2, MAMBA1 = "gated_deltanet", "kda", "lightning", "mamba2", "mamba1"
MIXERS = (GATED_DELTANET, KDA, LIGHTNING, MAMBA2, MAMBA1)
MIXER_NAMES = {
    GATED_DELTANET: "Gated DeltaNet (Qwen3-Next, Qwen3.5)",
    KDA: "Kimi Delta Attention (Kimi-Linear)",
    LIGHTNING: "lightning attention (MiniMax-Text-01, MiniMax-M1)",
    MAMBA2: "Mamba-2 (Nemotron-H, Granite 4.0-H, Falcon-H1)",
    MAMBA1: "Mamba-1 (Jamba)",
}
#: The SSM-state dtypes a config (or ``--mamba-ssm-cache-dtype``) can set; "auto" is the model's
#: dtype, and ``NEMOTRON_H`` is NemotronHForCausalLMConfig's release-dependent default.
NEMOTRON_H = "nemotron_h"
SSM_DTYPES = {"auto": None, "float32": 4, "float16": 2, "bfloat16": 2, NEMOTRON_H: None}

#: MiniMaxText01ForCausalLM / MiniMaxM1ForCausalLM (lightning attention) are listed in
#: ``_PREVIOUSLY_SUPPORTED_MODELS`` with "0.23.0" (vllm/model_executor/models/registry.py, 0.33.0);
#: the model file is absent from the 0.24.0 sdist.
LIGHTNING_LAST = (0, 23)
#: Kimi-Linear (KDA) is in the 0.12.0 sdist (``kimi_linear.py``), not in 0.11.0.
KDA_SINCE = (0, 12)
#: Hybrid models get prefix caching by default from 0.26.0 (``is_prefix_caching_supported``).
HYBRID_PREFIX_CACHING_SINCE = (0, 26)
#: With prefix caching on, Mamba-1/2 models (``SupportsMambaPrefixCaching``) run in "all" mode in
#: 0.19–0.27 ("all" if model_config.supports_mamba_prefix_caching else "align"); 0.28.0 sets
#: "align" for every model. In 0.12.0–0.18 the same models kept a state per block when prefix
#: caching was switched on.
ALL_MODE_UNTIL = (0, 28)
#: Nemotron-H's SSM state: the config's ``mamba_ssm_cache_dtype``, else float16 from 0.13.0 to
#: 0.19.x and float32 from 0.20.0 (``NemotronHForCausalLMConfig`` in models/config.py); 0.12.0 has
#: no such rule (the model dtype).
NEMOTRON_H_FP16_SINCE, NEMOTRON_H_FP32_SINCE = (0, 13), (0, 20)
#: The hybrid alignment moved into ``Platform._align_hybrid_block_size`` in 0.20.0, keyed on the
#: attention backend's smallest kernel block; 0.27.0 raised MLA hybrids to a multiple of 128.
BACKEND_ALIGNMENT_SINCE, MLA_128_SINCE = (0, 20), (0, 27)
#: 0.33.0's GDN layers with FlashInfer's prefill kernel (Hopper, Blackwell with head_k_dim 128)
#: export a prefill checkpoint: the block aligns to 64 tokens and a request holds one more state
#: page (``FLASHINFER_GDN_CHECKPOINT_ALIGNMENT = 64``, v1/attention/backends/gdn_attn.py;
#: ``num_prefill_checkpoint_blocks=1`` in qwen_gdn_linear_attn.py and mamba_mixer2.py). 0.29.0 to
#: 0.32.0 have the field (``MambaSpec.num_prefill_checkpoint_blocks``, default 0; absent in 0.28.0)
#: but no layer sets it.
FLASHINFER_GDN_CHECKPOINT_ALIGNMENT = 64
CHECKPOINT_SINCE = (0, 33)
#: ``MambaSpec.num_speculative_blocks`` counts in a request's pages from 0.16.0 (0.14.0's
#: ``max_memory_usage_bytes`` is ``cdiv(max_model_len, block_size)`` pages; 0.15 was not read), and in
#: "all" mode from 0.19.1 (0.18.0 leaves it out).
SPEC_PAGES_SINCE, SPEC_ALL_MODE_SINCE = (0, 16), (0, 19)
#: ``--decode-context-parallel-size`` is in ParallelConfig from 0.10.2 (the first sdist read).
DCP_SINCE = (0, 10)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Mixer:
    """One recurrent layer's state dimensions, as vLLM's ``MambaStateShapeCalculator`` reads them.

    heads, head_dim, state_dim: the SSM state is ``heads × head_dim × state_dim`` numbers (Mamba-2:
        H, P, N; Gated DeltaNet: Vh, Vd, Kd; KDA and lightning: H, D, D; Mamba-1: I, 1, N).
    conv_channels: the short convolution's channels that split over tensor parallelism (Mamba-2:
        the inner size I, its groups' B and C counted apart; GDN: 2·Kh·Kd + Vh·Vd; KDA:
        H·D + 2·Hk·Dk; Mamba-1: I; lightning: 0).
    groups: Mamba-2's ``n_groups`` (each adds 2·N conv channels, replicated when TP exceeds them).
    conv_kernel: the convolution's width K (the state keeps K − 1 columns); 0 for lightning.
    """

    kind: str
    heads: int
    head_dim: int
    state_dim: int
    conv_channels: int = 0
    groups: int = 0
    conv_kernel: int = 0

    def __post_init__(self) -> None:
        if self.kind not in MIXERS:
            raise ValueError(f"unknown mixer {self.kind!r}; known: {', '.join(MIXERS)}")


def extra_groups_for_head_shards(groups: int, tp: int) -> int:
    """``MambaStateShapeCalculator.extra_groups_for_head_shards``: 0 when TP divides the groups,
    else ``tp − groups`` (each rank then keeps one whole group)."""
    if groups <= 0 or groups % tp == 0:
        return 0
    return tp - groups


def _split(n: int, tp: int, what: str) -> int:
    if n % tp:
        raise ValueError(f"{what} {n} do not split over TP {tp}")
    return n // tp


def state_shapes(mixer: Mixer, tp: int = 1, num_spec: int = 0) -> tuple[tuple[str, int], ...]:
    """(role, numbers) of each state tensor one sequence holds in one layer on one TP rank: a
    "conv" tensor (absent for lightning) and an "ssm" one. Raises ValueError where vLLM's
    ``divide`` would."""
    m = mixer
    if m.kind == LIGHTNING:
        return (("ssm", _split(m.heads, tp, "heads") * m.head_dim * m.state_dim),)
    width = m.conv_kernel - 1 + (0 if m.kind == MAMBA1 else num_spec)
    channels = m.conv_channels
    if m.kind == MAMBA2:
        channels += 2 * (m.groups + extra_groups_for_head_shards(m.groups, tp)) * m.state_dim
    conv = _split(channels, tp, "conv channels") * width
    ssm = _split(m.heads, tp, "state heads") * m.head_dim * m.state_dim
    return (("conv", conv), ("ssm", ssm))


def _ssm_dtype_bytes(mixer: Mixer, ssm_dtype: str, model_bytes: float, version) -> float:
    v = parse_version(version)
    if ssm_dtype not in SSM_DTYPES:
        raise ValueError(f"unknown SSM state dtype {ssm_dtype!r}; known: {', '.join(SSM_DTYPES)}")
    if mixer.kind == KDA:  # kda_state_dtype: "auto" is float32 (0.12.0 on)
        return 4 if ssm_dtype in ("auto", NEMOTRON_H) else SSM_DTYPES[ssm_dtype]
    if ssm_dtype == NEMOTRON_H:
        if v >= NEMOTRON_H_FP32_SINCE:
            return 4
        return 2 if v >= NEMOTRON_H_FP16_SINCE else model_bytes
    return model_bytes if ssm_dtype == "auto" else SSM_DTYPES[ssm_dtype]


def state_bytes(mixer: Mixer, tp: int = 1, *, model_dtype_bytes: float = 2, ssm_dtype: str = "auto",
                version="0.33.0", num_spec: int = 0) -> int:
    """Bytes of one sequence's state in one layer on one TP rank: ``MambaSpec.page_size_bytes``
    before padding. The conv state is in the model dtype (``mamba_cache_dtype`` "auto")."""
    total = 0.0
    for role, numbers in state_shapes(mixer, tp, num_spec):
        width = model_dtype_bytes if role == "conv" else _ssm_dtype_bytes(mixer, ssm_dtype, model_dtype_bytes,
                                                                             version)
        total += numbers * width
    return int(total)


def state_served(mixer_kind: str, version="0.33.0") -> str:
    """"" when ``version`` serves this mixer, else why not."""
    v = parse_version(version)
    if mixer_kind == LIGHTNING and v[:2] > LIGHTNING_LAST:
        return ("vLLM serves MiniMax's lightning attention (MiniMaxText01ForCausalLM) up to 0.23.0; "
                "later releases list it under _PREVIOUSLY_SUPPORTED_MODELS")
    if mixer_kind == KDA and v < KDA_SINCE:
        return "Kimi-Linear (KDA) is served from vLLM 0.12.0 on"
    return ""


def hybrid_prefix_caching_default(version="0.33.0") -> bool:
    """Whether ``vllm serve`` enables prefix caching for a hybrid model when not told."""
    return parse_version(version) >= HYBRID_PREFIX_CACHING_SINCE


def mamba_cache_mode(mixer_kind: str, prefix_caching: bool, version="0.33.0") -> str:
    """``cache_config.mamba_cache_mode`` after ``MambaModelConfig.verify_and_update_config``:
    "none" without prefix caching; with it, "all" for Mamba-1/2 models before 0.28 (from 0.12,
    when the flag was honoured for them at all) and "align" otherwise. Before 0.12 vLLM switched
    prefix caching off for every hybrid model."""
    v = parse_version(version)
    if not prefix_caching or v < (0, 12):
        return "none"
    if mixer_kind in (MAMBA2, MAMBA1) and v < ALL_MODE_UNTIL:
        return "all"
    if v < (0, 19):  # 0.12–0.18: models without Mamba prefix caching had it disabled
        return "none"
    return "align"


def compute_capability(gpu_name: str) -> tuple[int, int] | None:
    """The CUDA compute capability of a GPU named like the calculators' (None for AMD or unknown):
    the attention backend vLLM picks, and so its kernel block sizes, depend on it."""
    name = gpu_name.upper()
    table = (
        (("B200", "B300", "GB200", "GB300", "B100"), (10, 0)),
        (("GB10", "SPARK"), (12, 1)),
        (("RTX 50", "RTX PRO 6000 BLACKWELL", "RTX PRO 6000", "5090", "5080"), (12, 0)),
        (("H100", "H200", "H20", "GH200", "H800"), (9, 0)),
        (("L40", "L4", "RTX 4090", "RTX 6000 ADA", "4090", "ADA"), (8, 9)),
        # before the A10's row: "A10" is a prefix of "A100"
        (("A100", "A800", "A30"), (8, 0)),
        (("A10G", "A10 ", "A10", "RTX 3090", "A40", "A6000", "3090"), (8, 6)),
        (("T4",), (7, 5)),
        (("V100",), (7, 0)),
    )
    if "MI3" in name or "AMD" in name or "INSTINCT" in name:
        return None
    for needles, cc in table:
        if any(n in name for n in needles):
            return cc
    return None


def alignment(*, version="0.33.0", mla: bool = False, head_size: int = 128, block_size: int = 16,
              cc: tuple[int, int] | None = (9, 0), cache_mode: str = "none",
              checkpoint_alignment: int | None = None) -> int:
    """The token multiple the attention block of a hybrid model is rounded to.

    * ≤ 0.11: 16 ("some attention backends (e.g. FA) only support setting block size to multiple
      of 16").
    * 0.12–0.19: MLA 64 (128 under CUTLASS_MLA, the SM100 default); otherwise 16, or 32 on SM100
      with head size 256 under FlashInfer up to 0.17 (flashinfer#1993).
    * 0.20 on: ``max(the backend's smallest kernel block, block_size)``: 16 for FLASH_ATTN,
      FLASHINFER and TRITON_ATTN; FlashMLA 64 (Hopper), CUTLASS_MLA 128 (SM100); from 0.27 at
      least 128 for MLA; in 0.33's align mode also a multiple of the state's prefill-checkpoint
      alignment.
    """
    v = parse_version(version)
    if v < (0, 12):
        return 16
    blackwell = cc is not None and cc[0] == 10
    if v < BACKEND_ALIGNMENT_SINCE:
        if mla:
            return 128 if blackwell else 64
        if v < (0, 18) and blackwell and head_size == 256:
            return 32
        return 16
    if mla:
        kernel = 128 if blackwell else 64
        align = max(kernel, block_size)
        if v >= MLA_128_SINCE:
            align = max(align, 128)
    else:
        align = max(16, block_size)
    if cache_mode == "align" and checkpoint_alignment and v >= CHECKPOINT_SINCE:
        align = math.lcm(align, checkpoint_alignment)
    return align


def hybrid_block_size(attn_page_per_token: int, state_page: int, *, version="0.33.0",
                      mla: bool = False, head_size: int = 128, block_size: int = 16,
                      cc: tuple[int, int] | None = (9, 0), cache_mode: str = "none",
                      mamba_chunk_size: int = 0, checkpoint_alignment: int | None = None) -> tuple[int, int]:
    """(attention block size in tokens, the padded state page in bytes) for a hybrid model.

    ``attn_block = align × cdiv(state_page, align × attn_page_per_token)``, never below the
    configured ``block_size``; in "all" mode (0.12–0.27) the block is a multiple of
    ``lcm(mamba_chunk_size, align)`` instead. The state page is padded to ``block × page per
    token`` (the attention page), so every layer's page is the same size.
    """
    if attn_page_per_token <= 0:
        raise ValueError("the attention page per token must be positive")
    if state_page <= 0:
        return block_size, 0
    align = alignment(version=version, mla=mla, head_size=head_size, block_size=block_size, cc=cc,
                      cache_mode=cache_mode, checkpoint_alignment=checkpoint_alignment)
    if cache_mode == "all" and mamba_chunk_size:
        chunk = math.lcm(mamba_chunk_size, align)
        attn_block = chunk * _cdiv(_cdiv(state_page, attn_page_per_token), chunk)
    else:
        attn_block = align * _cdiv(state_page, align * attn_page_per_token)
    block = max(block_size, attn_block)
    return block, block * attn_page_per_token


def state_blocks_per_request(cache_mode: str, *, max_model_len: int = 0, block_size: int = 16,
                             num_spec: int = 0, checkpoint_blocks: int = 0, version="0.33.0") -> int:
    """Pages one request holds in one state group (``MambaSpec.max_memory_usage_bytes`` ÷ page):
    "none" one page; "align" two (the running state and the last full block's); "all" one per
    block of context. Speculative tokens add a page each in "none" and "align" from 0.16 and in
    "all" from 0.19 (0.12–0.14: ``cdiv(max_model_len, block_size)`` pages whatever the mode, the
    state's block being the whole ``max_model_len`` without prefix caching); 0.29 on adds the
    prefill-checkpoint pages in "align" mode. Before 0.12 always one page."""
    v = parse_version(version)
    if v < (0, 12):
        return 1
    if cache_mode not in ("none", "align", "all"):
        raise ValueError(f"unknown mamba_cache_mode {cache_mode!r}")
    spec = num_spec if v >= SPEC_PAGES_SINCE else 0
    if cache_mode == "none":
        return 1 + spec
    if cache_mode == "align":
        return 2 + spec + (checkpoint_blocks if v >= (0, 29) else 0)
    return _cdiv(max_model_len, block_size) + (num_spec if v >= SPEC_ALL_MODE_SINCE else 0)


def logged_tokens(num_blocks: int, num_groups: int, block_sizes: Sequence[int], concurrency: float,
                  max_model_len: int, *, version="0.33.0", dcp: int = 1) -> int:
    """The "GPU KV cache size: N tokens" line: ``num_blocks // groups × min(block sizes)`` (× the
    DCP size) up to 0.20, ``int(concurrency × max_model_len)`` from 0.21."""
    if parse_version(version) >= (0, 21):
        return int(concurrency * max_model_len)
    return num_blocks // max(1, num_groups) * min(block_sizes) * max(1, dcp)


# -- DeepSeek-V3.2's indexer ----------------------------------------------------------------------

#: ``DeepseekV32Indexer``: keys quantized to fp8 in blocks of 128 values, each block with one fp32
#: scale: ``head_dim=self.head_dim + self.head_dim // self.quant_block_size * 4`` bytes of uint8
#: per token and layer (vllm/models/deepseek_v32/attention.py, 0.33.0;
#: vllm/model_executor/models/deepseek_v2.py ``Indexer``, 0.11.0). ``DeepseekV32IndexerCache``
#: registers it as an ``MLAAttentionSpec`` (one vector, no factor 2) beside the layer's latent; both
#: are full attention, so vLLM puts all of them in one ``UniformTypeKVCacheSpecs`` group.
INDEXER_QUANT_BLOCK = 128
#: FlashMLA's sparse kernels take 64-token blocks ("Forcing kv cache block size to 64",
#: vllm/platforms/cuda.py 0.11.0; ``get_supported_kernel_block_sizes`` → MultipleOf(64), 0.33.0).
DEEPSEEK_V32_BLOCK_SIZE = 64


def indexer_bytes_per_token(index_head_dim: int) -> int:
    """Bytes the indexer caches per token and layer: fp8 keys plus one fp32 scale per 128."""
    if index_head_dim <= 0:
        return 0
    return index_head_dim + index_head_dim // INDEXER_QUANT_BLOCK * 4


def deepseek_v32_auto_kv_dtype(version="0.33.0") -> str:
    """What ``--kv-cache-dtype auto`` stores for DeepSeek-V3.2: "fp8_ds_mla" from 0.11.0 to 0.17.x
    ("Using custom fp8 kv-cache format for DeepSeekV3.2", models/config.py), the model dtype from
    0.18.0 (only "bfloat16" is rewritten to "auto" there)."""
    v = parse_version(version)
    return "fp8_ds_mla" if (0, 11) <= v < (0, 18) else "auto"


# -- decode context parallelism -------------------------------------------------------------------

def dcp_request_tokens(max_model_len: int, dcp: int) -> int:
    """Tokens of one max-length request that one DCP rank stores: ``cdiv(max_model_len, dcp)``
    (``FullAttentionSpec.max_memory_usage_bytes``, 0.10.2–0.33.0). DCP reuses the TP ranks
    (``tp % dcp == 0``, ``ParallelConfig``): each of the ``dcp`` ranks that hold the same KV heads
    (for MLA, every rank: the latent is replicated) stores every dcp-th token, so the cache per
    rank is divided by ``dcp`` and the group holds ``dcp`` times the tokens. State (Mamba) layers
    are replicated across DCP ranks, never sharded (``MambaSpec.max_num_blocks_per_req``)."""
    if dcp < 1:
        raise ValueError("the decode context parallel size must be at least 1")
    return _cdiv(max_model_len, dcp)
