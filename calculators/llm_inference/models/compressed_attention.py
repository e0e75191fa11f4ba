"""DeepSeek-V4's compressed sparse attention, as vLLM caches it.

Every DeepSeek-V4 layer attends to a sliding window of its last ``sliding_window`` tokens; most
also attend to a compressed copy of the whole context, one entry per ``compress_ratio`` tokens
(``compress_ratios`` in the config, one per layer and then the MTP layers: 0 for a window-only
layer, 4 — "C4", with a lightning indexer choosing the top-k entries — or 128, "C128"). What vLLM
caches per layer (read from vLLM's source, commits named in the comments below):

* the window: ``DeepseekV4SWACache``, every layer, 584 bytes a token (448 fp8 NoPE values, 64 bf16
  RoPE values, 7 UE8M0 scales and a pad byte: ``head_bytes`` in
  vllm/model_executor/layers/deepseek_v4_attention.py at 0a291a2e);
* the compressed entries: ``MLAAttentionSpec(compress_ratio=r, model_version="deepseek_v4")``,
  584 bytes per entry, ``block_size // r`` entries a block (kv_cache_interface.py,
  ``storage_block_size``), pages padded to a multiple of 576 bytes;
* on C4 layers the indexer's keys: one per entry, fp8 with an fp32 scale per 128 values (132 bytes
  for ``index_head_dim`` 128) or, with ``use_fp4_indexer_cache``, MXFP4 (64 + 4 = 68 bytes);
* each compressor's state (``CompressorStateCache``, vllm/model_executor/layers/deepseek_compressor.py
  at 0de10a27): fp32, ``2 × coff × head_dim`` wide (kv and score halves; ``coff`` 2 for the
  overlapping C4 windows, 1 for C128) over a window of ``coff × r`` tokens — a fixed amount per
  sequence, kept by the attention's compressor and, on C4 layers, by the indexer's own.

vLLM's DeepSeek-V4 attention runs FlashMLA's sparse kernels only on the fp8 layout: ``auto``
fails ("DeepseekV4 only supports fp8 kv-cache format for now, got auto"), any fp8 name becomes
``fp8_ds_mla``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..engines import vllm
from .layer_specs import LayerSpec

#: The compression ratios vLLM's compressor accepts (``assert compress_ratio in [4, 128]``).
RATIOS = (4, 128)
#: The fp8_ds_mla pages are padded to a multiple of this (``alignment=576``, FlashMLA).
PAGE_ALIGNMENT = 576
#: The indexer's fp8 keys carry one fp32 scale per this many values; MXFP4 one UE8M0 byte per 32.
INDEXER_FP8_BLOCK, MXFP4_BLOCK = 128, 32
#: The compressor state is fp32.
STATE_BYTES = 4


def token_bytes(head_dim: int, rope_dim: int) -> int:
    """One cached token (or compressed entry) in the fp8_ds_mla layout: fp8 NoPE values, bf16 RoPE
    values, one UE8M0 scale per 64 NoPE values and one pad byte (584 for 512 and 64)."""
    nope = head_dim - rope_dim
    return nope + 2 * rope_dim + nope // 64 + 1


def indexer_key_bytes(index_head_dim: int, fp4: bool = False) -> int:
    """One indexer key: fp8 with an fp32 scale per 128 values, or MXFP4 (two values a byte, one
    scale byte per 32)."""
    if index_head_dim <= 0:
        return 0
    if fp4:
        return index_head_dim // 2 + index_head_dim // MXFP4_BLOCK
    return index_head_dim + index_head_dim // INDEXER_FP8_BLOCK * 4


def fp8_layout_problem(kv_dtype: str) -> str:
    """"" when vLLM's DeepSeek-V4 attention accepts ``--kv-cache-dtype kv_dtype``, else why not."""
    if kv_dtype.startswith("fp8"):
        return ""
    return (f"vLLM's DeepSeek-V4 attention caches only in its fp8 layout (fp8_ds_mla): --kv-cache-dtype "
            f"{kv_dtype} fails (\"DeepseekV4 only supports fp8 kv-cache format for now\"); pass fp8")


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


@dataclass(frozen=True)
class CompressedSparseAttention(LayerSpec):
    """One DeepSeek-V4 layer: a ``window``-token sliding window, and unless ``compress_ratio`` is
    0 or 1 one compressed entry per ``compress_ratio`` tokens, with an indexer key per entry when
    ``indexer_dim`` is set (C4 layers)."""

    compress_ratio: int = 4
    head_dim: int = 512
    rope_dim: int = 64
    sliding_window: int = 128
    indexer_dim: int = 0
    fp4_indexer: bool = False

    kind: ClassVar[str] = "compressed"
    vllm_spec: ClassVar[str] = "MLAAttentionSpec(compress_ratio) + SlidingWindowMLASpec"

    def __post_init__(self) -> None:
        if self.compressed and self.compress_ratio not in RATIOS:
            raise ValueError(f"compress ratio {self.compress_ratio}: vLLM's compressor takes {RATIOS} (or 0, "
                             f"a window-only layer)")

    @property
    def compressed(self) -> bool:
        return self.compress_ratio > 1

    @property
    def caches_kv(self) -> bool:
        return True

    @property
    def legacy(self) -> tuple[str, int]:
        return (self.kind, self.compress_ratio if self.compressed else 0)

    @property
    def geometry(self) -> tuple:
        return ("csa", self.compress_ratio, self.head_dim, self.rope_dim, self.sliding_window, self.indexer_dim,
                self.fp4_indexer)

    @property
    def window_token_bytes(self) -> int:
        return token_bytes(self.head_dim, self.rope_dim)

    @property
    def entry_bytes(self) -> int:
        """One compressed entry with its indexer key (0 on a window-only layer)."""
        if not self.compressed:
            return 0
        return self.window_token_bytes + indexer_key_bytes(self.indexer_dim, self.fp4_indexer)

    def kv_dtype_problem(self, kv_dtype: str) -> str:
        return fp8_layout_problem(kv_dtype)

    def _check(self, kv_dtype: str) -> None:
        problem = self.kv_dtype_problem(kv_dtype)
        if problem:
            raise ValueError(problem)

    def bytes_per_token(self, kv_dtype: str = "fp8", tensor_parallel: int = 1) -> float:
        """Windows ignored, like the other kinds: the window's token plus its share of an entry.
        The latent is one vector that every TP rank holds whole."""
        self._check(kv_dtype)
        share = self.entry_bytes / self.compress_ratio if self.compressed else 0.0
        return self.window_token_bytes + share

    def bytes_per_sequence(self, context: float, kv_dtype: str = "fp8", tensor_parallel: int = 1) -> float:
        """The window's tokens plus one entry per whole ``compress_ratio`` tokens (the rest wait in
        the compressor's state)."""
        self._check(kv_dtype)
        entries = int(context // self.compress_ratio) if self.compressed else 0
        return self.window_token_bytes * min(context, self.sliding_window) + self.entry_bytes * entries

    def state_bytes(self, tensor_parallel: int = 1, *, version: str = "0.33.0", model_dtype_bytes: float = 2,
                    num_spec: int = 0) -> int:
        """The compressors' fp32 state: ``coff × r`` tokens of ``2 × coff × head_dim`` values, for
        the attention's compressor and, with an indexer, the indexer's (its head_dim)."""
        if not self.compressed:
            return 0
        coff = 2 if self.compress_ratio == 4 else 1
        window = coff * self.compress_ratio
        dims = self.head_dim + (self.indexer_dim or 0)
        return window * 2 * coff * dims * STATE_BYTES

    def pages(self, block_size: int = 256) -> dict[str, int]:
        """Each cache's page in bytes, padded to 576 as vLLM's specs pad them: the window's
        (64-token blocks, ``DeepseekV4SWACache``), the compressed entries' and the indexer's
        (``block_size // r`` entries a block). How vLLM groups them into one pool, with the
        compressors' state pages, is physics.multi_page_pool's."""
        pages = {"window": _round_up(64 * self.window_token_bytes, PAGE_ALIGNMENT)}
        if self.compressed:
            entries = block_size // self.compress_ratio
            pages["compressed"] = _round_up(entries * self.window_token_bytes, PAGE_ALIGNMENT)
            if self.indexer_dim:
                pages["indexer"] = _round_up(entries * indexer_key_bytes(self.indexer_dim, self.fp4_indexer),
                                             PAGE_ALIGNMENT)
        return pages

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "fp8",
                   tensor_parallel: int = 1) -> int:
        raise NotImplementedError("one page of a DeepSeek-V4 layer is not modelled: it keeps several "
                                  "(pages(); physics.multi_page_pool groups them)")

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        raise NotImplementedError("a DeepSeek-V4 layer's blocks are not modelled alone: its caches fall in "
                                  "several groups (physics.multi_page_pool)")


def compressed_stack(ratios, layers: int, *, head_dim: int, rope_dim: int, sliding_window: int,
                     indexer_dim: int, fp4_indexer: bool = False) -> tuple[CompressedSparseAttention, ...]:
    """The specs of the ``layers`` main layers from ``compress_ratios`` (whose extra entries are the
    MTP layers'); the indexer sits on the C4 layers."""
    return tuple(CompressedSparseAttention(
        compress_ratio=r, head_dim=head_dim, rope_dim=rope_dim, sliding_window=sliding_window,
        indexer_dim=indexer_dim if r == 4 else 0, fp4_indexer=fp4_indexer) for r in ratios[:layers])
