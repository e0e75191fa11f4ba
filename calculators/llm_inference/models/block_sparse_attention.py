"""MiniMax-M3's block-sparse attention, as vLLM caches and loads it.

MiniMax-M3 (``model_type`` ``minimax_m3``) runs grouped-query attention on every layer; the layers
``sparse_attention_config.sparse_attention_freq`` marks 1 also run a lightning indexer that scores
the context in ``sparse_block_size``-token blocks and lets the attention read only the
``sparse_topk_blocks`` best (plus ``sparse_init_block`` first and ``sparse_local_block`` last
blocks). Read from upstream vLLM (vllm-project/vllm, the commits named):

* vllm/models/minimax_m3/nvidia/model.py @ 90215894: ``MiniMaxM3DecoderLayer`` builds a
  ``MiniMaxM3SparseAttention`` on the layers ``_sparse_attention_layer_ids`` lists (every non-zero
  ``sparse_attention_freq`` entry; ``use_sparse_attention`` is not read) and a plain
  ``MiniMaxM3Attention`` (a generic ``Attention``) on the others. Both cache K and V of
  ``num_key_value_heads`` × ``head_dim`` (the sparse layer's ``get_kv_cache_spec`` is a
  ``FullAttentionSpec`` of that geometry at ``--kv-cache-dtype``).
* vllm/models/minimax_m3/common/indexer.py @ 545393a3: the sparse layer's indexer owns a key-only
  side cache, ``MiniMaxM3IndexerCache``: ``MLAAttentionSpec(num_kv_heads=1,
  head_size=sparse_index_dim)``, one index-key vector per token and layer, held whole by every
  TP rank, in the ``indexer_kv_dtype`` of ``--attention-config`` (default "bf16",
  vllm/config/attention.py; "fp8" stores e4m3), not in the KV cache's dtype.
* vllm/models/minimax_m3/common/sparse_attention.py @ fa109e0e and indexer.py: both backends'
  ``get_supported_kernel_block_sizes`` is [128] ("Page size == sparse block size") and their
  head size 128; the main backend caches bf16 or fp8 (``supported_kv_cache_dtypes``).
* vllm/v1/kv_cache_interface.py @ 001cabc1: FullAttentionSpec and MLAAttentionSpec (a subclass)
  of one block size are one ``UniformTypeKVCacheSpecs`` group: one block id spans every layer's
  page, K/V and index keys alike, and a request takes ``cdiv(len, block)`` blocks
  (physics/cache_layout.py).

The weights: vLLM fuses ``[q | k | v | index_q | index_k]`` into one GEMM
(``MinimaxM3QKVParallelLinearWithIndexer``): ``index_q`` has ``sparse_num_index_heads`` heads,
which must equal the KV heads and shard like them; ``index_k`` is one head, replicated on every
rank. Each has a per-head Gemma RMSNorm (``index_q_norm``, ``index_k_norm``). M3 disables the
index value and output projections (``sparse_disable_index_value`` 1 on every sparse layer), so
``index_v_proj``/``index_o_proj`` are never created. The router (``GateLinear``,
``params_dtype=torch.float32``) and its ``e_score_correction_bias`` are fp32.

SGLang's python/sglang/srt/models/minimax_m3.py (sgl-project/sglang) was a cross-check only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..engines import vllm
from .errors import ConfigError
from .layer_specs import FULL, FullAttention
from .params import (KV_HEADS, NORMS_BIASES, REPLICATED, ROUTER, Params, Tensor, join, linear, norm)

#: Model types whose sparse layers are read here.
BLOCK_SPARSE_TYPES = ("minimax_m3",)

#: Both backends' only kernel block size (``get_supported_kernel_block_sizes`` → [128]) and the
#: indexer's only head size (``get_supported_head_sizes`` → [128]).
KERNEL_BLOCK_SIZE = 128
INDEX_HEAD_SIZES = (128,)
#: ``indexer_kv_dtype`` defaults to "bf16" (vllm/config/attention.py): 2 bytes per index value,
#: whatever ``--kv-cache-dtype`` says.
INDEX_KEY_BYTES = 2
#: ``MiniMaxM3SparseBackend.supported_kv_cache_dtypes`` (bf16 or fp8; "auto" is the model's bf16).
SPARSE_KV_DTYPES = ("bf16", "fp8", "fp8_e4m3", "fp8_e5m2")
#: The keys of ``sparse_attention_config`` and what each does; any other key is refused.
SPARSE_KEYS = {
    "use_sparse_attention": "read: must be true (vLLM builds the sparse layers from sparse_attention_freq alone)",
    "sparse_attention_freq": "read: the sparse layers",
    "sparse_block_size": "read: must be 128, the backends' page and kernel block",
    "sparse_index_dim": "read: the index key's width",
    "sparse_num_index_heads": "read: the index query heads (must equal num_key_value_heads)",
    "sparse_disable_index_value": "read: must be 1 on every sparse layer (no index_v/o_proj)",
    "sparse_topk_blocks": "read: the blocks a decode step reads (the cache keeps them all)",
    "sparse_init_block": "blocks forced into the top-k at the start: which blocks, not how many",
    "sparse_local_block": "blocks forced into the top-k at the end: which blocks, not how many",
    "sparse_score_type": "how block scores are pooled: compute, not memory",
}


@dataclass(frozen=True)
class BlockSparseAttention(FullAttention):
    """One MiniMax-M3 sparse layer: K and V of every token (``FullAttentionSpec``) plus one
    ``index_dim`` index key per token in bf16, held whole by every TP rank
    (``MiniMaxM3IndexerCache``'s ``MLAAttentionSpec``). The attention reads only the indexer's
    ``topk_blocks`` blocks, but vLLM keeps every block: the cache grows like full attention's."""

    index_dim: int = 128
    topk_blocks: int = 16

    kind: ClassVar[str] = FULL
    vllm_spec: ClassVar[str] = "FullAttentionSpec + MLAAttentionSpec (index keys)"

    @property
    def geometry(self) -> tuple:
        return ("msa", self.kv_heads, self.head_dim, self.index_dim)

    @property
    def min_block_size(self) -> int:
        return KERNEL_BLOCK_SIZE

    def index_bytes_per_token(self) -> int:
        """The index key's bytes (like DeepSeek-V3.2's indexer key, outside ``elements_per_token``:
        its dtype is the indexer's, not the KV cache's)."""
        return self.index_dim * INDEX_KEY_BYTES

    def kv_dtype_problem(self, kv_dtype: str) -> str:
        if kv_dtype in SPARSE_KV_DTYPES:
            return ""
        return (f"vLLM's MiniMax-M3 sparse attention caches K and V in bf16 or fp8 only "
                f"(MiniMaxM3SparseBackend.supported_kv_cache_dtypes): --kv-cache-dtype {kv_dtype} is refused")

    def bytes_per_token(self, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        return super().bytes_per_token(kv_dtype, tensor_parallel) + self.index_bytes_per_token()

    def read_bytes_per_sequence(self, context: float, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        """One decode step: the indexer scores every block, reading all the index keys; each KV head
        then reads its ``topk_blocks`` blocks (the init and local blocks are forced into those
        slots, not added: ``_topk_index_kernel`` and ``_decode_index_score_kernel``,
        vllm/models/minimax_m3/common/ops/index_topk.py @ 7c6cd929)."""
        tokens = min(context, self.topk_blocks * KERNEL_BLOCK_SIZE)
        kv = FullAttention.bytes_per_token(self, kv_dtype, tensor_parallel)
        return kv * tokens + self.index_bytes_per_token() * context

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "bf16",
                   tensor_parallel: int = 1) -> int:
        """The layer's K/V page plus its index-key page: one block id addresses both."""
        return int(block_size * self.bytes_per_token(kv_dtype, tensor_parallel))


@dataclass(frozen=True)
class SparsePlan:
    """What ``sparse_attention_config`` says: which layers are sparse, the index key's width, and
    the index projections' weights of one sparse layer."""

    layers: tuple[bool, ...]
    index_dim: int
    index_heads: int
    topk_blocks: int
    block_size: int
    params: Any


def index_projections(hidden: int, index_heads: int, index_dim: int) -> Params:
    """index_q_proj (sharded like the KV heads), index_k_proj (one head on every rank) and their
    per-head norms; quantized with the checkpoint, as the fused qkv_proj they load into."""
    return join(linear(hidden, index_heads * index_dim, module="self_attn.index_q_proj", split=KV_HEADS,
                       head_dim=index_dim),
                linear(hidden, index_dim, module="self_attn.index_k_proj", split=REPLICATED),
                norm(index_dim, "self_attn.index_q_norm"), norm(index_dim, "self_attn.index_k_norm"))


def fp32_router(hidden: int, experts: int, module: str) -> Params:
    """``GateLinear(params_dtype=torch.float32)`` and the fp32 ``e_score_correction_bias``."""
    return Params([Tensor(ROUTER, module, (experts, hidden), REPLICATED, quantizable=False, dtype="float32"),
                   Tensor(NORMS_BIASES, module.rsplit(".", 1)[0] + ".e_score_correction_bias", (experts,),
                          param="bias", dtype="float32")])


def _flags(reader, where: str, values: Any, layers: int) -> tuple[bool, ...]:
    if not isinstance(values, list) or any(v not in (0, 1) or isinstance(v, bool) for v in values):
        raise ConfigError(f"{where} must list 0 or 1 for each layer")
    if len(values) != layers:
        raise ConfigError(f"{where} lists {len(values)} layers but num_hidden_layers is {layers}")
    return tuple(v == 1 for v in values)


def _integer(sparse: dict, key: str, where: str) -> int:
    value = sparse.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{where}{key} must be a positive integer, got {value!r}")
    return value


def read_sparse_attention(reader, hidden: int, kv_heads: int, head_dim: int, layers: int) -> SparsePlan:
    """``sparse_attention_config`` read whole: every key used, known not to change memory, or refused."""
    where = reader.label("sparse_attention_config") + "."
    sparse = reader.raw("sparse_attention_config", aliases=False)
    if not isinstance(sparse, Mapping):
        raise ConfigError(f"missing field {where[:-1]}: MiniMax-M3 marks its sparse-attention layers there")
    unknown = sorted(set(sparse) - set(SPARSE_KEYS))
    if unknown:
        raise ConfigError(f"the config has a field this calculator does not model: {where}{unknown[0]} (inside "
                          f"MiniMax-M3's block-sparse attention). It may change the cache or the weights, so no "
                          f"figure is computed from a shape that ignored it")
    if sparse.get("use_sparse_attention", True) is not True:
        raise ConfigError(f"{where}use_sparse_attention is {sparse.get('use_sparse_attention')!r}, but vLLM's "
                          f"minimax_m3 model builds the sparse layers from sparse_attention_freq whatever it says; "
                          f"which a reader meant is not known here")
    flags = _flags(reader, where + "sparse_attention_freq", sparse.get("sparse_attention_freq"), layers)
    index_dim = _integer(sparse, "sparse_index_dim", where)
    index_heads = _integer(sparse, "sparse_num_index_heads", where)
    block = _integer(sparse, "sparse_block_size", where)
    topk = _integer(sparse, "sparse_topk_blocks", where)
    if index_heads != kv_heads:
        raise ConfigError(f"{where}sparse_num_index_heads {index_heads} differs from num_key_value_heads {kv_heads}: "
                          f"vLLM's fused projection requires them equal (MinimaxM3QKVParallelLinearWithIndexer)")
    if block != KERNEL_BLOCK_SIZE or index_dim not in INDEX_HEAD_SIZES or head_dim not in INDEX_HEAD_SIZES:
        raise ConfigError(f"{where}sparse_block_size {block}, sparse_index_dim {index_dim} with head_dim {head_dim}: "
                          f"vLLM's MiniMax-M3 backends take 128-token blocks and 128-wide heads only")
    disabled = sparse.get("sparse_disable_index_value")
    if disabled is not None and any(s and not d for s, d in
                                    zip(flags, _flags(reader, where + "sparse_disable_index_value", disabled, layers))):
        raise ConfigError(f"{where}sparse_disable_index_value leaves an index value/output projection on a sparse "
                          f"layer: vLLM's minimax_m3 model never builds one")
    reader.traps.append(
        f"MiniMax-M3's block-sparse attention ({where[:-1]}): all {layers} layers cache K and V ({kv_heads} KV heads "
        f"x {head_dim}); the {sum(flags)} sparse layers also cache a {index_dim}-wide index key per token in bf16 "
        f"(vLLM's indexer_kv_dtype default, whatever the KV dtype), held whole by every GPU, and read only the top "
        f"{topk} of the {block}-token blocks it scores. vLLM keeps every block, so the cache grows with the whole "
        f"context; it runs {KERNEL_BLOCK_SIZE}-token blocks.")
    return SparsePlan(layers=flags, index_dim=index_dim, index_heads=index_heads, topk_blocks=topk, block_size=block,
                      params=index_projections(hidden, index_heads, index_dim))


def sparse_layer(spec: FullAttention, plan: SparsePlan) -> BlockSparseAttention:
    """A full-attention layer's spec with the sparse layer's index keys beside it."""
    return BlockSparseAttention(kv_heads=spec.kv_heads, head_dim=spec.head_dim, head_dim_v=spec.head_dim_v,
                                index_dim=plan.index_dim, topk_blocks=plan.topk_blocks)
