"""KV pools whose layers keep pages of several sizes, as vLLM groups them: GLM-5.2 and DeepSeek-V4.

Two models of 2026 put pages of different sizes in one pool, and vLLM does not grow blocks to
unify them (physics.cache_layout.unified_pages, Gemma 4's rule) but lays them side by side:

* **GLM-5.2** (DeepSeek sparse attention with the indexer kept on some layers): every layer caches
  its latent (``MLAAttentionSpec``) and 21 of 78 also an indexer key (``DeepseekV32IndexerCache``,
  another ``MLAAttentionSpec``), all in 64-token blocks. The specs differ, but all are full attention
  with one block size, so ``get_kv_cache_groups`` (vllm/v1/core/kv_cache_utils.py) makes one
  ``UniformTypeKVCacheSpecs`` group of them: a block id holds a page in every layer, one block is
  the sum of those pages, ``num_blocks = available // sum`` and a request takes ``cdiv(len, 64)``.
  From 0.24.0 ``DeepseekV2MLAAttention`` (vllm/model_executor/models/deepseek_v2.py) builds the
  indexer only where ``index_topk_freq`` and ``index_skip_topk_offset`` keep the top-k; 0.20–0.23
  build one on every layer (0.21–0.23 skip only the selection), for which GLM-5.2's checkpoint has
  no weights on 57 of them.

* **DeepSeek-V4** (physics.compressed_attention's layers): five kinds of cache —
  C4 and C128 compressed entries and the C4 indexer keys (``MLAAttentionSpec`` with
  ``compress_ratio``, 256-token blocks), the 128-token window of every layer
  (``DeepseekV4SWACache``: ``SlidingWindowMLASpec``, 64-token blocks) and the compressors' fp32
  states (``CompressorStateCache``: ``SlidingWindowMLASpec`` with 4-token blocks and an 8-token
  window for C4, 8 and 128 for C128). ``group_and_unify_kv_cache_specs`` makes one group of the
  compressed and indexer caches and one per (block size, window) of the others;
  ``_get_kv_cache_groups_uniform_groups`` counts "layer tuples" (the layers of the commonest page
  size in a group), picks a tuple count with ``_approximate_gcd`` (the count, from the compressed
  group's up, that pads the groups least), up to 0.26 pads each window or state page up to the
  nearest compressed-group page, and splits each window or state group round-robin into groups of at most
  that many tuples. The pool is packed (``_get_kv_cache_config_packed``): a block id owns, for each
  page size, as many pages as the group with most of them, so ``num_blocks = available // that
  slab`` (from 0.23; 0.20–0.22's ``_get_kv_cache_config_deepseek_v4`` gave each of the compressed
  group's page sizes as many pages as the commonest: 12,096 bytes more a V4-Flash block).
  "Maximum concurrency" is ``get_max_concurrency_for_kv_cache_config``: the blocks ÷
  ``cdiv(Σ_groups pages × group page, first group's page)`` (0.27: ÷ Σ_groups pages); vLLM refuses to start below
  ``_max_memory_usage_bytes_from_groups`` (tuples × Σ_groups pages × the compressed group's
  distinct page sizes summed). Windows and states hold ``window − 1 + in-flight tokens`` (+1 block)
  like any sliding window, in-flight being ``max_num_batched_tokens`` up to 0.25 and twice that
  from 0.26 (``VllmConfig.max_in_flight_tokens``: async scheduling's two batches, on by default).
  The MTP layer (``--speculative-config '{"method": "mtp"}'``) is one more layer past the backbone whose
  attention takes compress ratio 1: one more window cache (:func:`v4_mtp_layer`), grouped with the others.

Read in the 0.20.0–0.27.0 wheels, where the grouping is the same (0.26 only returns early when
every page agrees). 0.27.0 keeps each window and state page as it is (no padding), lays each group
densely in one slab that the groups overlap (``_get_packed_kv_cache_layout``: a block is the largest
group's page) and counts a request as every group's pages summed. 0.28.0 adds retained tokens to the
windows and moves the page sizes into the specs' state layout; 0.29.0 replaced the grouping
(``_get_packed_kv_cache_groups``): those releases are named as not modelled, not guessed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engines.vllm_releases import parse_version
from ..models import compressed_attention as csa

#: The releases whose DeepSeek-V4 grouping is read here (the first to serve the model, the last read).
V4_FIRST, V4_LAST = (0, 20), (0, 27)
#: GLM-5.2's shared layers build no indexer from 0.24.0; the uniform-type group is read up to 0.27.0.
GLM52_FIRST, GLM52_LAST = (0, 24), (0, 27)
#: FlashMLA's DeepSeek-V4 kernel takes 256-token blocks ("Setting kv cache block size to 256":
#: ``DeepseekSparseSWABackend.get_preferred_block_size``; ``FlashMLASparseDSV4`` supports [256]).
V4_BLOCK_SIZE = 256
#: ``DeepseekV4SWACache.block_size``: a 64-token window block matches a C4 page (256 // 4 entries).
V4_WINDOW_BLOCK = 64
#: ``CompressorStateCache.block_size`` per compression ratio (its page must match a KV page).
V4_STATE_BLOCK = {4: 4, 128: 8}
#: The indexer's keys are allocated as fp8 with an fp32 scale per 128 values (``k_cache_head_dim``);
#: up to 0.26 also with the MXFP4 indexer cache (which used the first half of that memory), from
#: 0.27 that cache allocates its own 64 + 4 bytes a key.
INDEXER_FP8_BLOCK = 128
MXFP4_OWN_PAGE_SINCE = (0, 27)


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


@dataclass(frozen=True)
class Cache:
    """One vLLM KV-cache spec of one layer: its page, its block and, for the windowed specs, the
    window (0: the spec keeps every token, compressed or not)."""

    name: str
    page: int
    block_size: int
    window: int = 0

    def pages_per_request(self, max_model_len: int, in_flight: int) -> int:
        """``max_memory_usage_bytes ÷ page``: ``cdiv(len, block)`` (``FullAttentionSpec``), or the
        window and the tokens in flight, plus one block (``SlidingWindowSpec``)."""
        if not self.window:
            return -(-max_model_len // self.block_size)
        return -(-min(self.window - 1 + in_flight, max_model_len) // self.block_size) + 1


def v4_caches(spec: csa.CompressedSparseAttention, version: str = "0.26.0") -> tuple[Cache, ...]:
    """What one DeepSeek-V4 layer registers, in the fp8_ds_mla layout, each page padded to 576 bytes
    (``_apply_alignment_padding``); vllm/models/deepseek_v4/{attention,compressor}.py and
    vllm/v1/attention/backends/mla/sparse_swa.py, 0.22.0–0.27.0 (model_executor/layers/ in 0.20–0.21)."""
    align, token = csa.PAGE_ALIGNMENT, spec.window_token_bytes
    caches = [Cache("window", _round_up(V4_WINDOW_BLOCK * token, align), V4_WINDOW_BLOCK, spec.sliding_window)]
    if not spec.compressed:
        return tuple(caches)
    r = spec.compress_ratio
    coff = 2 if r == 4 else 1  # overlapping C4 windows
    state_block = V4_STATE_BLOCK[r]

    def state(head_dim: int) -> int:  # kv and score halves, fp32
        return _round_up(state_block * 2 * coff * head_dim * csa.STATE_BYTES, align)

    caches.append(Cache(f"C{r} entries", _round_up(V4_BLOCK_SIZE // r * token, align), V4_BLOCK_SIZE))
    caches.append(Cache(f"C{r} state", state(spec.head_dim), state_block, coff * r))
    if spec.indexer_dim:
        key = (csa.indexer_key_bytes(spec.indexer_dim, fp4=True)
               if spec.fp4_indexer and parse_version(version)[:2] >= MXFP4_OWN_PAGE_SINCE
               else spec.indexer_dim + spec.indexer_dim // INDEXER_FP8_BLOCK * 4)
        caches.append(Cache(f"C{r} indexer keys", _round_up(V4_BLOCK_SIZE // r * key, align), V4_BLOCK_SIZE))
        caches.append(Cache(f"C{r} indexer state", state(spec.indexer_dim), state_block, coff * r))
    return tuple(caches)


def approximate_gcd(values: list[int], lower_bound: int) -> int:
    """vLLM's ``_approximate_gcd``: the d in [lower_bound, max] whose round-ups pad least (ties: larger d)."""
    best, best_pad = lower_bound, None
    for d in range(max(1, lower_bound), max(values) + 1):
        pad = sum((d - x % d) % d for x in values)
        if best_pad is None or pad <= best_pad:
            best, best_pad = d, pad
    return best


@dataclass(frozen=True)
class Group:
    """One KV-cache group: its layers' pages (padded), block size and window."""

    pages: tuple[int, ...]
    block_size: int
    window: int = 0

    @property
    def page(self) -> int:
        """``UniformTypeKVCacheSpecs.page_size_bytes``: every layer's page summed."""
        return sum(self.pages)

    @property
    def tuples(self) -> int:
        """``get_num_layer_tuples``: the layers of the commonest page size."""
        return Counter(self.pages).most_common(1)[0][1]

    def pages_per_request(self, max_model_len: int, in_flight: int) -> int:
        return Cache("", 0, self.block_size, self.window).pages_per_request(max_model_len, in_flight)


@dataclass(frozen=True)
class MultiPagePool:
    """One GPU's pool of several page sizes: its groups (the first the full-attention one), the bytes
    one block id takes, and the release's rules."""

    groups: tuple[Group, ...]
    block_bytes: int
    layer_tuples: int = 0
    version: str = "0.25.0"

    @property
    def packed(self) -> bool:
        """DeepSeek-V4's layer-tuple layout (several groups), not one uniform-type group."""
        return len(self.groups) > 1

    def in_flight(self, batched_tokens: int) -> int:
        return batched_tokens * (2 if parse_version(self.version) >= (0, 26) else 1)

    def group_pages(self, max_model_len: int, batched_tokens: int) -> tuple[int, ...]:
        """Pages one request of ``max_model_len`` tokens takes in each group."""
        flight = self.in_flight(batched_tokens)
        return tuple(g.pages_per_request(max_model_len, flight) for g in self.groups)

    def request_blocks(self, max_model_len: int, batched_tokens: int) -> int:
        """The blocks "Maximum concurrency" divides by (``get_max_concurrency_for_kv_cache_config``):
        ``cdiv(Σ pages × group page, first group's page)`` up to 0.26, every group's pages summed from 0.27."""
        pages = self.group_pages(max_model_len, batched_tokens)
        if parse_version(self.version)[:2] >= (0, 27):
            return sum(pages)
        total = sum(p * g.page for p, g in zip(pages, self.groups))
        return -(-total // self.groups[0].page)

    def start_bytes(self, max_model_len: int, batched_tokens: int) -> int:
        """What vLLM asks free for one request before it starts ("To serve at least one request ...
        KV cache is needed"): ``_max_memory_usage_bytes_from_groups``."""
        pages = self.group_pages(max_model_len, batched_tokens)
        if not self.packed:
            return pages[0] * self.groups[0].page
        tuple_bytes = sum(set(self.groups[0].pages))
        return self.layer_tuples * sum(pages) * tuple_bytes

    def longest_start(self, available: float, batched_tokens: int, cap: int) -> int:
        """vLLM's "estimated maximum model length" for ``available`` bytes (its binary search)."""
        low, high, best = 1, cap, 0
        while low <= high:
            mid = (low + high) // 2
            if self.start_bytes(mid, batched_tokens) <= available:
                best, low = mid, mid + 1
            else:
                high = mid - 1
        return best


def v4_pool(specs, version: str) -> tuple[MultiPagePool | None, str]:
    """(pool, problem) of DeepSeek-V4's layers ``specs`` on one GPU (TP replicates every cache)."""
    caches = [c for s in specs for c in v4_caches(s, version)]
    padded = parse_version(version)[:2] <= (0, 26)  # 0.27 keeps each window and state page as it is
    full = [c for c in caches if c.block_size == V4_BLOCK_SIZE and not c.window]
    if not full:  # group_and_unify_kv_cache_specs asserts a compressed group
        return None, "vLLM asserts that a DeepSeek-V4 model has compressed layers (group_and_unify_kv_cache_specs)"
    windowed: dict[tuple[int, int], list[Cache]] = {}
    for c in caches:
        if c.window:
            windowed.setdefault((c.block_size, c.window), []).append(c)
    first = Group(tuple(c.page for c in full), V4_BLOCK_SIZE)
    tuples = approximate_gcd([first.tuples] + [Group(tuple(c.page for c in cs), 1).tuples
                                               for cs in windowed.values()], first.tuples)
    mla_pages = sorted(set(first.pages))
    groups = [first]
    for (block, window), cs in windowed.items():
        if max(c.page for c in cs) > mla_pages[-1]:
            return None, ("a DeepSeek-V4 window or state page is larger than every compressed page, which vLLM "
                          "asserts against (_get_kv_cache_groups_uniform_groups)")
        by_size: dict[int, int] = Counter(min(p for p in mla_pages if p >= c.page) if padded else c.page
                                          for c in cs)
        if len(set(by_size.values())) > 1:
            return None, ("vLLM asserts that each padded page size of a DeepSeek-V4 window or state group has as "
                          "many layers (_get_kv_cache_groups_uniform_groups)")
        layers = next(iter(by_size.values()))
        parts = -(-layers // tuples)
        for i in range(parts):  # layer_tuples[i::parts]
            n = len(range(i, layers, parts))
            groups.append(Group(tuple(p for p in by_size for _ in range(n)), block, window))
    slab: dict[int, int] = {}
    for g in groups:  # the most pages of a size any group has
        for page, n in Counter(g.pages).items():
            slab[page] = max(slab.get(page, 0), n)
    if not padded:  # _get_packed_kv_cache_layout: each group dense in one slab, the groups overlapping
        block_bytes = max(g.page for g in groups)
    elif parse_version(version)[:2] >= (0, 23):  # _bucket_layers_by_page_size
        block_bytes = sum(page * n for page, n in slab.items())
    else:  # 0.20-0.22: every compressed-group page size as often as the commonest
        block_bytes = max(slab.values()) * sum(mla_pages)
    return MultiPagePool(tuple(groups), block_bytes, max(g.tuples for g in groups), version), ""


def v4_mtp_layer(spec: csa.CompressedSparseAttention) -> csa.CompressedSparseAttention:
    """The cache of DeepSeek-V4's MTP layer (one per ``num_nextn_predict_layers``), as one of the target's
    layers ``spec`` would keep it without compression: a window only. ``DeepseekV4MultiTokenPredictorLayer``'s
    ``mtp_block`` is a ``DeepseekV4DecoderLayer`` at ``model.layers.{num_hidden_layers + i}``, whose
    attention takes ``compress_ratio = 1`` past ``num_hidden_layers`` ("MTP layer is not included in the
    compress ratio list": deepseek_v4.py l.956-961 in 0.21.0, l.900-903 in 0.20.0; deepseek_v4/attention.py
    l.176-181 in 0.23.0, l.208-213 in 0.27.0). With a ratio of 1 it builds no compressor (``if
    self.compress_ratio > 1``: deepseek_v4_attention.py l.276 in 0.21.0, attention.py l.338 in 0.27.0) and
    no indexer (``compress_ratio == 4`` only), and its ``DeepseekV4MLAAttention.get_kv_cache_spec`` returns
    None ("SWA part. Allocated separately as DeepseekV4SWACache": l.730-734 in 0.21.0, l.655-659 in 0.27.0):
    it registers only its ``DeepseekV4SWACache`` (l.237), the same ``SlidingWindowMLASpec`` (64-token
    blocks, ``sliding_window``) as every target layer's window. So it is one more window cache, grouped
    with theirs; vLLM's own ``_annotate_eagle_groups_deepseek_v4`` (v1/core/kv_cache_utils.py l.1589 in
    0.21.0, l.1757 in 0.27.0) flags "whichever group contains" "DeepseekV4's MTP attention layer", which is
    "always the last layer" of the pool's spec dict (a flag for prefix caching, not for the sizes)."""
    return csa.CompressedSparseAttention(compress_ratio=0, head_dim=spec.head_dim, rope_dim=spec.rope_dim,
                                         sliding_window=spec.sliding_window)


def v4_unmodelled(version: str, block_size: int, *, tensor_parallel_only: bool, speculative: bool,
                  dcp: int) -> str:
    """Why DeepSeek-V4's pool is not computed for this release and layout ("" when it is). ``speculative``:
    a drafter other than the model's own MTP layers (whose windows :func:`v4_mtp_layer` adds to the pool)."""
    v = parse_version(version)[:2]
    if v < V4_FIRST:
        return f"vLLM {version} does not serve DeepSeek-V4 (its model file arrives in 0.20.0)"
    if v > V4_LAST:
        return (f"vLLM {version} groups DeepSeek-V4's caches otherwise than 0.20–0.27 (0.28.0 adds retained tokens "
                "to the windows and moves the page sizes into the specs' state layout; 0.29.0 replaced the grouping, "
                "_get_packed_kv_cache_groups); that layout is not read here — pick 0.27.0 or earlier")
    if block_size not in (16, V4_BLOCK_SIZE):
        return (f"DeepSeek-V4's FlashMLA kernel takes 256-token blocks; --block-size {block_size} is not modelled")
    if not tensor_parallel_only:
        return "DeepSeek-V4 with pipeline stages (which layers each stage caches) is not modelled"
    if speculative:
        return ("DeepSeek-V4 with a drafter other than its own MTP layer (n-gram, EAGLE, a draft model) is not "
                "modelled")
    if dcp > 1:
        return "DeepSeek-V4 with decode context parallelism is not modelled"
    return ""


def glm52_pool(specs, kv_dtype: str, version: str) -> tuple[MultiPagePool | None, str]:
    """(pool, unmodelled) of MLA layers of which only some cache an indexer key (GLM-5.2): one
    uniform-type group whose block is every layer's latent page plus each indexer page."""
    v = parse_version(version)[:2]
    if v < GLM52_FIRST:
        return None, (f"vLLM {version} builds an indexer, and caches its keys, on every layer (up to 0.23 "
                      "index_topk_freq only skips the top-k selection), while the checkpoint has indexer weights on "
                      "some layers only; not modelled")
    if v > GLM52_LAST:
        return None, (f"vLLM {version}'s sparse-MLA cache specs and grouping (reworked from 0.28.0: the MLA page "
                      "in 0.28.0, index-sharing roles in 0.30.0) are not read here for layers with an indexer on "
                      "some of them — pick 0.24–0.27")
    # a layer's latent page and, where it owns an indexer, its key page: their sum is what the layer adds
    block = max(s.min_block_size for s in specs)
    group = Group(tuple(s.page_bytes(block, kv_dtype) for s in specs), block)
    return MultiPagePool((group,), group.page, 0, version), ""


def tokens_line(pool: MultiPagePool, num_blocks: int, concurrency: float, max_model_len: int) -> int:
    """"GPU KV cache size": ``int(concurrency × len)`` from 0.21, ``blocks // groups × the smallest
    block`` before (``_report_kv_cache_config``, 0.20.0)."""
    if parse_version(pool.version) >= (0, 21):
        return int(concurrency * max_model_len)
    return num_blocks // len(pool.groups) * min(g.block_size for g in pool.groups)


__all__ = ["Cache", "Group", "MultiPagePool", "v4_caches", "v4_mtp_layer", "v4_pool", "v4_unmodelled", "glm52_pool",
           "approximate_gcd", "tokens_line"]
