"""One class per layer kind, each owning what one layer of that kind caches.

This follows vLLM's ``vllm/v1/kv_cache_interface.py``, where every attention layer reports a
``KVCacheSpec`` (``FullAttentionSpec``, ``SlidingWindowSpec``, ``ChunkedLocalAttentionSpec``,
``MLAAttentionSpec``, ``SlidingWindowMLASpec``, ``MambaSpec``) and the pool is planned from those
specs alone. Here each kind owns its geometry (KV heads, head size, latent, window) and answers:

* ``bytes_per_token(kv_dtype, tensor_parallel)``: what one token adds to this layer's cache on
  one GPU, windows ignored (the chapter's per-token figure);
* ``bytes_per_sequence(context, kv_dtype, tensor_parallel)``: one sequence's cache in this layer,
  windows and compression applied;
* ``state_bytes(...)``: what the layer holds per sequence whatever its length (a recurrent state,
  DeepSeek-V4's compressor state);
* ``read_bytes_per_sequence(...)``: what one decode step reads of it (all, unless the kind reads
  only selected blocks);
* ``page_bytes(block_size, ...)`` and ``blocks_per_request(...)``: vLLM's ``page_size_bytes`` and
  ``max_memory_usage_bytes`` ÷ page.

``legacy`` gives the old ``(kind, size)`` pair of ``ModelShape.layer_kinds``. Byte layouts of the
KV dtypes are engines.vllm_kv_dtypes'; recurrent states are engines.vllm_hybrid's. DeepSeek-V4's
compressed attention (:class:`CompressedSparseAttention`) is in :mod:`.compressed_attention`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..engines import vllm, vllm_hybrid, vllm_kv_dtypes

#: The ``(kind, size)`` names of ``ModelShape.layer_kinds``.
FULL, SLIDING, CHUNKED, LINEAR, NONE = "full", "sliding", "chunked", "linear", "none"


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class LayerSpec:
    """A layer that caches nothing per token (the base of every kind)."""

    kind: ClassVar[str] = NONE
    #: vLLM's name for the kind's spec class, for messages.
    vllm_spec: ClassVar[str] = ""

    @property
    def caches_kv(self) -> bool:
        """Whether the layer keeps a cache that grows with the context."""
        return False

    @property
    def window(self) -> int:
        """The tokens a windowed layer keeps (0: all of them)."""
        return 0

    @property
    def legacy(self) -> tuple[str, int]:
        return (self.kind, self.window)

    @property
    def geometry(self) -> tuple:
        """What sets the per-token bytes, for telling geometries apart (() for none)."""
        return ()

    def elements_per_token(self) -> int:
        """Numbers one token adds to the cache (K and V heads, or a latent); 0 without a cache."""
        return 0

    def kv_dtype_problem(self, kv_dtype: str) -> str:
        """Why vLLM refuses ``--kv-cache-dtype kv_dtype`` for this kind ("" when it accepts it)."""
        return ""

    def bytes_per_token(self, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        return 0.0

    def cached_tokens(self, context: float) -> float:
        """Tokens of a ``context``-token sequence this layer holds."""
        return min(context, self.window) if self.window else context

    def bytes_per_sequence(self, context: float, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        return self.bytes_per_token(kv_dtype, tensor_parallel) * self.cached_tokens(context)

    def read_bytes_per_sequence(self, context: float, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        """The cache bytes one decode step reads for one sequence: all it holds, unless the kind
        reads only part of it (MiniMax-M3's block-sparse layers)."""
        return self.bytes_per_sequence(context, kv_dtype, tensor_parallel)

    def state_bytes(self, tensor_parallel: int = 1, *, version: str = "0.33.0", model_dtype_bytes: float = 2,
                    num_spec: int = 0) -> int:
        return 0

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "bf16",
                   tensor_parallel: int = 1) -> int:
        return 0

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        return 0


@dataclass(frozen=True)
class NoCache(LayerSpec):
    """A layer without a KV cache or state: Nemotron-H's MLP and MoE blocks, or a layer that reads
    an earlier layer's cache (Gemma's ``num_kv_shared_layers``; vLLM's ``kv_sharing_target_layer_name``
    gives it no spec of its own)."""

    why: str = ""


@dataclass(frozen=True)
class FullAttention(LayerSpec):
    """Keys and values of every token (vLLM's ``FullAttentionSpec``).

    ``kv_heads`` × ``head_dim`` for K and ``head_dim_v`` (default: the same) for V. ``k_eq_v``:
    the layer computes one projection for both (Gemma 4's global layers: no ``v_proj``), but vLLM
    still caches K and V apart (gemma4.py loads K's weights into both slots), so the bytes keep the
    factor 2; only the weights lose V.
    """

    kv_heads: int = 1
    head_dim: int = 128
    head_dim_v: int = 0
    k_eq_v: bool = False

    kind: ClassVar[str] = FULL
    vllm_spec: ClassVar[str] = "FullAttentionSpec"

    @property
    def caches_kv(self) -> bool:
        return True

    @property
    def v_dim(self) -> int:
        return self.head_dim_v or self.head_dim

    @property
    def geometry(self) -> tuple:
        return ("gqa", self.kv_heads, self.head_dim, self.v_dim)

    def heads_per_rank(self, tensor_parallel: int = 1) -> int:
        """KV heads one TP rank holds: its share, or one replicated head when TP exceeds them."""
        return max(1, _cdiv(self.kv_heads, max(1, tensor_parallel)))

    def elements_per_token(self) -> int:
        return self.kv_heads * (self.head_dim + self.v_dim)

    def bytes_per_token(self, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        heads = self.heads_per_rank(tensor_parallel)
        return heads * (vllm_kv_dtypes.vector_bytes(self.head_dim, kv_dtype)
                        + vllm_kv_dtypes.vector_bytes(self.v_dim, kv_dtype))

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "bf16",
                   tensor_parallel: int = 1) -> int:
        return int(block_size * self.bytes_per_token(kv_dtype, tensor_parallel))

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        # FullAttentionSpec.max_memory_usage_bytes: each DCP rank keeps cdiv(len, dcp) tokens
        return _cdiv(vllm_hybrid.dcp_request_tokens(max_model_len, dcp), block_size)


@dataclass(frozen=True)
class SlidingWindow(FullAttention):
    """Keys and values of the last ``size`` tokens (``SlidingWindowSpec``): a request holds the
    window plus the tokens scheduled in one step, and one block more."""

    size: int = 4096

    kind: ClassVar[str] = SLIDING
    vllm_spec: ClassVar[str] = "SlidingWindowSpec"

    @property
    def window(self) -> int:
        return self.size

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        return vllm.sliding_window_tokens(self.size, batched_tokens, block_size, max_model_len) // block_size


@dataclass(frozen=True)
class ChunkedLocal(FullAttention):
    """Keys and values of the current ``size``-token chunk (Llama 4, ``ChunkedLocalAttentionSpec``)."""

    size: int = 8192

    kind: ClassVar[str] = CHUNKED
    vllm_spec: ClassVar[str] = "ChunkedLocalAttentionSpec"

    @property
    def window(self) -> int:
        return self.size

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        return vllm.chunked_local_tokens(self.size, batched_tokens, block_size, max_model_len) // block_size


@dataclass(frozen=True)
class LatentAttention(LayerSpec):
    """Multi-head latent attention (DeepSeek-V2/V3, Kimi K2, GLM-5): one ``latent_dim`` latent plus
    one ``rope_dim`` RoPE key per token, shared by K and V and held whole by every TP rank
    (``MLAAttentionSpec``, one KV "head", no factor 2).

    ``indexer_dim``: DeepSeek sparse attention's indexer key, cached beside the latent in fp8 with
    an fp32 scale per 128 values whatever the KV dtype (``DeepseekV32IndexerCache``); 0 on a layer
    without an indexer (GLM-5.2's "shared" layers reuse an earlier layer's selection). FlashMLA's
    sparse kernels take 64-token blocks.
    """

    latent_dim: int = 512
    rope_dim: int = 64
    indexer_dim: int = 0

    kind: ClassVar[str] = FULL
    vllm_spec: ClassVar[str] = "MLAAttentionSpec"

    @property
    def caches_kv(self) -> bool:
        return True

    @property
    def geometry(self) -> tuple:
        return ("mla", self.latent_dim, self.rope_dim, self.indexer_dim)

    @property
    def min_block_size(self) -> int:
        return vllm_hybrid.DEEPSEEK_V32_BLOCK_SIZE if self.indexer_dim else 0

    def elements_per_token(self) -> int:
        return self.latent_dim + self.rope_dim

    def indexer_bytes_per_token(self) -> int:
        return vllm_hybrid.indexer_bytes_per_token(self.indexer_dim)

    def bytes_per_token(self, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        return (vllm_kv_dtypes.mla_token_bytes(self.latent_dim, self.rope_dim, kv_dtype)
                + self.indexer_bytes_per_token())

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "bf16",
                   tensor_parallel: int = 1) -> int:
        return int(block_size * self.bytes_per_token(kv_dtype, tensor_parallel))

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        return _cdiv(vllm_hybrid.dcp_request_tokens(max_model_len, dcp), block_size)


@dataclass(frozen=True)
class RecurrentLayer(LayerSpec):
    """A layer that keeps one fixed state per sequence and no KV cache (vLLM's ``MambaSpec``):
    ``state`` is a :class:`.shape.RecurrentState` (its shapes and dtypes, engines.vllm_hybrid)."""

    state: Any = None

    kind: ClassVar[str] = LINEAR
    vllm_spec: ClassVar[str] = "MambaSpec"

    @property
    def mixer(self) -> vllm_hybrid.Mixer:
        s = self.state
        return vllm_hybrid.Mixer(s.mixer, heads=s.heads, head_dim=s.head_dim, state_dim=s.state_dim,
                                 conv_channels=s.conv_channels, groups=s.groups, conv_kernel=s.conv_kernel)

    def state_bytes(self, tensor_parallel: int = 1, *, version: str = "0.33.0", model_dtype_bytes: float = 2,
                    num_spec: int = 0) -> int:
        return vllm_hybrid.state_bytes(self.mixer, tensor_parallel, model_dtype_bytes=model_dtype_bytes,
                                       ssm_dtype=self.state.ssm_dtype, version=version, num_spec=num_spec)

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "bf16",
                   tensor_parallel: int = 1) -> int:
        """One sequence's state on one TP rank, unpadded (``MambaSpec.page_size_bytes`` before vLLM
        pads it to the attention page: engines.vllm_hybrid.hybrid_block_size)."""
        return self.state_bytes(tensor_parallel)

    def state_pages_per_request(self, cache_mode: str, *, max_model_len: int, block_size: int, num_spec: int = 0,
                                checkpoint_blocks: int = 0, version: str = "0.33.0") -> int:
        """Pages one request holds in this layer's state group (``MambaSpec.max_memory_usage_bytes``)."""
        return vllm_hybrid.state_blocks_per_request(cache_mode, max_model_len=max_model_len, block_size=block_size,
                                                    num_spec=num_spec, checkpoint_blocks=checkpoint_blocks,
                                                    version=version)


@dataclass(frozen=True)
class LinearAttention(RecurrentLayer):
    """Linear attention: Gated DeltaNet (Qwen3-Next, Qwen3.5), KDA (Kimi-Linear), lightning (MiniMax)."""


@dataclass(frozen=True)
class StateSpace(RecurrentLayer):
    """A state-space mixer: Mamba-2 (Nemotron-H, Granite 4.0-H, Falcon-H1) or Mamba-1 (Jamba)."""


#: The mixers read as state-space models; the others are linear attention.
SSM_MIXERS = (vllm_hybrid.MAMBA2, vllm_hybrid.MAMBA1)


def recurrent(state: Any) -> RecurrentLayer:
    """The spec of a layer keeping ``state`` (a :class:`.shape.RecurrentState`)."""
    return StateSpace(state) if state.mixer in SSM_MIXERS else LinearAttention(state)


@dataclass(frozen=True)
class ParallelMixers(LayerSpec):
    """Attention and a recurrent mixer side by side in one layer (Falcon-H1): the attention's
    cache plus the mixer's state."""

    attention: LayerSpec = None  # type: ignore[assignment]
    mixer: RecurrentLayer = None  # type: ignore[assignment]

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.attention.kind

    @property
    def caches_kv(self) -> bool:
        return self.attention.caches_kv

    @property
    def window(self) -> int:
        return self.attention.window

    @property
    def geometry(self) -> tuple:
        return self.attention.geometry

    def elements_per_token(self) -> int:
        return self.attention.elements_per_token()

    def bytes_per_token(self, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        return self.attention.bytes_per_token(kv_dtype, tensor_parallel)

    def bytes_per_sequence(self, context: float, kv_dtype: str = "bf16", tensor_parallel: int = 1) -> float:
        return self.attention.bytes_per_sequence(context, kv_dtype, tensor_parallel)

    def state_bytes(self, tensor_parallel: int = 1, **kw) -> int:
        return self.mixer.state_bytes(tensor_parallel, **kw)

    def page_bytes(self, block_size: int = vllm.DEFAULT_BLOCK_SIZE, kv_dtype: str = "bf16",
                   tensor_parallel: int = 1) -> int:
        return self.attention.page_bytes(block_size, kv_dtype, tensor_parallel)

    def blocks_per_request(self, max_model_len: int, block_size: int = vllm.DEFAULT_BLOCK_SIZE,
                           batched_tokens: int = 8192, dcp: int = 1) -> int:
        return self.attention.blocks_per_request(max_model_len, block_size, batched_tokens, dcp)


def attention_spec(kind: str, size: int, *, mla: bool, kv_heads: int, head_dim: int, latent_dim: int = 0,
                   rope_dim: int = 0, indexer_dim: int = 0) -> LayerSpec:
    """The spec of one attention layer given as ``(kind, size)`` and the model's one geometry."""
    if mla:
        if kind != FULL:
            raise ValueError(f"a {kind} MLA layer is not modelled")
        return LatentAttention(latent_dim=latent_dim, rope_dim=rope_dim, indexer_dim=indexer_dim)
    if kind == SLIDING:
        return SlidingWindow(kv_heads=kv_heads, head_dim=head_dim, size=size)
    if kind == CHUNKED:
        return ChunkedLocal(kv_heads=kv_heads, head_dim=head_dim, size=size)
    if kind == FULL:
        return FullAttention(kv_heads=kv_heads, head_dim=head_dim)
    raise ValueError(f"{kind!r} is not an attention kind")


def from_kinds(kinds, *, mla: bool, kv_heads: int, head_dim: int, latent_dim: int = 0, rope_dim: int = 0,
               indexer_dim: int = 0, state: Any = None, state_layers: int = 0) -> tuple[LayerSpec, ...]:
    """Specs for the ``(kind, size)`` list of a model with one attention geometry: ``linear``
    layers keep ``state``; when more layers keep a state than are linear (Falcon-H1), the
    attention layers run the mixer beside their attention."""
    linear = sum(1 for k, _ in kinds if k == LINEAR)
    parallel = state_layers > linear and state is not None
    specs: list[LayerSpec] = []
    for kind, size in kinds:
        if kind == LINEAR:
            specs.append(recurrent(state))
        elif kind == NONE:
            specs.append(NoCache())
        else:
            spec = attention_spec(kind, size, mla=mla, kv_heads=kv_heads, head_dim=head_dim, latent_dim=latent_dim,
                                  rope_dim=rope_dim, indexer_dim=indexer_dim)
            specs.append(ParallelMixers(attention=spec, mixer=recurrent(state)) if parallel else spec)
    return tuple(specs)


def kv_specs(specs) -> tuple[LayerSpec, ...]:
    """The specs that cache keys and values (or a latent) per token."""
    return tuple(s for s in specs if s.caches_kv)


def uniform_geometry(specs) -> bool:
    """Whether every KV layer has the same per-token geometry (what a one-geometry model assumes)."""
    return len({s.geometry for s in kv_specs(specs)}) <= 1
