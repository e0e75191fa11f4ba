"""How vLLM lays out one GPU's KV-cache pool: page size, block size, cache groups, blocks per request.

For a pure transformer a block is ``block_size`` tokens (16) in every layer. A hybrid model's
recurrent layers keep one fixed state per sequence, and vLLM serves those states from the same
pool (engines.vllm_hybrid): it grows the attention block until one attention page holds a state
("Setting attention block size to N tokens ..."), pads the state page to that size, groups the
state layers beside the attention layers, and a request then takes its attention blocks plus one
page (two in "align" mode, one per block in "all" mode) per state group. DeepSeek-V3.2 adds an
indexer key to every layer's page and runs 64-token blocks. Decode context parallelism stores each
MLA request's tokens round-robin over ``dcp`` ranks.

Everything is per GPU — the most loaded one of the placement — and per vLLM release. What each
layer caches is its spec's (llm_inference.models.layer_specs, through :func:`.kv.layer_specs`): a
latent or not, an indexer or not, a window. A model whose KV layers differ in page size (Gemma 4's
two geometries) has its smaller pages' blocks grown until every page is the largest one
(:func:`unified_pages`); GLM-5.2's latent pages with and without an indexer key, and DeepSeek-V4's
five kinds of page, sit side by side in a block instead (physics.multi_page_pool).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines import vllm, vllm_hybrid
from ..engines import vllm_releases
from ..engines.vllm import LayerGroup, parse_version
from ..engines.vllm_hybrid import GATED_DELTANET, MAMBA2
from ..engines.vllm_kv_dtypes import stored_kv_dtype
from ..models import layer_specs as ls
from .kv import MODEL_DTYPE_BYTES, layer_bytes_on, layer_specs
from . import multi_page_pool as mpp
from .memo import pure_cache
from .model import Model
from .placement import Placement, kv_layers_per_gpu, state_layers_per_gpu
from .precision import kv_layout_problem

#: The state groups' kind in the cache-group list.
STATE = "mamba"


@dataclass(frozen=True)
class CacheLayout:
    """One GPU's pool layout.

    page_bytes: one block in one layer — every group's page, the states padded up to it; for a
        ``UniformTypeKVCacheSpecs`` group (:func:`uniform_type`) one block over all its layers,
        with ``layers_per_group`` 1, as vLLM's spec of that group has it.
    attn_page_per_token: one token in one KV layer on this GPU (heads, latent and indexer).
    state_page_bytes: one sequence's state in one recurrent layer on this GPU, before padding.
    cache_mode: vLLM's ``mamba_cache_mode`` ("none", "align", "all"); "" without recurrent layers.
    checkpoint_blocks: extra state pages per request for prefill checkpoints (0.33's align mode).
    problem: why vLLM would refuse this model / KV layout / parallel layout on this GPU and release.
    unmodelled: what the calculator does not model here (nothing is then computed from it).
    """

    block_size: int
    page_bytes: int
    attn_page_per_token: int
    layers_per_group: int
    groups: tuple[LayerGroup, ...]
    state_page_bytes: int = 0
    cache_mode: str = ""
    checkpoint_blocks: int = 0
    dcp: int = 1
    num_spec: int = 0
    version: str = "0.33.0"
    problem: str = ""
    unmodelled: str = ""
    #: GLM-5.2's and DeepSeek-V4's pools (physics.multi_page_pool); then ``page_bytes`` is one block
    #: id's bytes over every layer, ``layers_per_group`` 1.
    multi_page: mpp.MultiPagePool | None = None
    #: Batches in flight (vllm.max_concurrent_batches): a windowed layer holds window − 1 + this many
    #: batches' tokens a request (0.26 on; 1 before).
    concurrent_batches: int = 1

    @property
    def hybrid(self) -> bool:
        return self.state_page_bytes > 0

    @property
    def state_padding(self) -> float:
        """Share of each state page that is padding (vLLM's "Padding mamba page size by x%")."""
        if not self.hybrid:
            return 0.0
        return (self.page_bytes - self.state_page_bytes) / self.state_page_bytes

    def request_blocks(self, max_model_len: int, batched_tokens: int) -> int:
        """Blocks one request of ``max_model_len`` tokens takes from the pool, over every group."""
        if self.multi_page is not None:
            return self.multi_page.request_blocks(max_model_len, batched_tokens)
        total = 0
        for g in self.groups:
            if g.kind == STATE:
                total += g.count * vllm_hybrid.state_blocks_per_request(
                    self.cache_mode, max_model_len=max_model_len, block_size=self.block_size,
                    num_spec=self.num_spec, checkpoint_blocks=self.checkpoint_blocks, version=self.version)
            elif g.kind == "full" and self.dcp > 1:
                tokens = vllm_hybrid.dcp_request_tokens(max_model_len, self.dcp)
                total += g.count * -(-tokens // self.block_size)
            else:
                total += vllm.blocks_per_request([g], max_model_len, batched_tokens * self.concurrent_batches,
                                                 self.block_size)
        return total

    def logged_tokens(self, num_blocks: int, concurrency: float, max_model_len: int) -> int:
        """"GPU KV cache size: N tokens" as this release prints it."""
        if self.multi_page is not None:
            return mpp.tokens_line(self.multi_page, num_blocks, concurrency, max_model_len)
        sizes = [self.block_size]
        if self.hybrid:  # the state groups' block: the whole sequence when they hold one page
            sizes.append(max_model_len if self.cache_mode == "none" else self.block_size)
        return vllm_hybrid.logged_tokens(num_blocks, len(self.groups), sizes, concurrency, max_model_len,
                                         version=self.version, dcp=self.dcp)


def _checkpoint(mixer: ls.RecurrentLayer | None, cache_mode: str, cc: tuple[int, int] | None,
                version: str) -> tuple[int | None, int]:
    """(prefill-checkpoint alignment, extra pages per request) of 0.33's align mode: Mamba-2 layers
    export a checkpoint at any token (alignment 1); Gated DeltaNet does with FlashInfer's prefill
    kernel (Hopper, Blackwell; head_k_dim 128), on a 64-token grid."""
    if cache_mode != "align" or parse_version(version) < vllm_hybrid.CHECKPOINT_SINCE or mixer is None:
        return None, 0
    if mixer.state.mixer == MAMBA2:
        return 1, 1
    if (mixer.state.mixer == GATED_DELTANET and cc is not None and cc[0] in (9, 10, 12)
            and mixer.state.state_dim == 128):
        return vllm_hybrid.FLASHINFER_GDN_CHECKPOINT_ALIGNMENT, 1
    return None, 0


def _attention(spec: ls.LayerSpec) -> ls.LayerSpec:
    return spec.attention if isinstance(spec, ls.ParallelMixers) else spec


def _mixer(model: Model) -> ls.RecurrentLayer | None:
    """The recurrent mixer of the model's state layers (one kind a model), None without one."""
    for spec in layer_specs(model):
        spec = spec.mixer if isinstance(spec, ls.ParallelMixers) else spec
        if isinstance(spec, ls.RecurrentLayer):
            return spec
    return None


def _kv_kinds(model: Model) -> tuple[ls.LayerSpec, ...]:
    """The distinct attention specs of the model's KV layers."""
    return tuple(dict.fromkeys(_attention(s) for s in layer_specs(model) if s.caches_kv))


def _indexer_on_some(kinds: tuple[ls.LayerSpec, ...]) -> bool:
    """MLA layers alike but for an indexer key on some of them (GLM-5.2's ``indexer_types``)."""
    return (len(kinds) == 2 and all(isinstance(s, ls.LatentAttention) for s in kinds)
            and len({(s.latent_dim, s.rope_dim) for s in kinds}) == 1 and len({bool(s.indexer_dim) for s in kinds}) == 2)


def indexer_layer(model: Model) -> ls.LatentAttention | None:
    """The MLA spec with an indexer key of a model whose layers keep one on some of them only (GLM-5.2),
    None for any other model. An MTP layer caches as that one: vLLM's ``DeepseekV2MLAAttention``
    always builds the indexer of a layer whose index is past ``num_hidden_layers`` ("MTP/nextn layers
    ... always build a full indexer", vllm/model_executor/models/deepseek_v2.py, 0.24.0 to 0.33.0)."""
    kinds = _kv_kinds(model)
    if not _indexer_on_some(kinds):
        return None
    return next(s for s in kinds if s.indexer_dim)


def uniform_type(kinds: tuple[ls.LayerSpec, ...]) -> bool:
    """Whether vLLM pools these KV kinds as one ``UniformTypeKVCacheSpecs`` group although their
    pages differ: every kind a ``FullAttentionSpec`` (or its subclass ``MLAAttentionSpec``, the
    index keys of MiniMax-M3's sparse layers) of one block size, none windowed
    (``UniformTypeKVCacheSpecs.is_uniform_type``, vllm/v1/kv_cache_interface.py @ 001cabc1). Its page
    is the sum of every layer's page and a request takes ``cdiv(len, block)`` blocks of it. Latent
    kinds that differ (GLM-5.2's layers with and without an indexer) are left out: mainline vLLM's
    layers for them were not read."""
    return (len({s.geometry for s in kinds}) > 1
            and all(isinstance(s, ls.FullAttention) and not s.window for s in kinds))


def uniform_block_bytes(model: Model, layers: int, block_size: int, kv_dtype: str, tensor_parallel: int) -> int:
    """One block of a ``UniformTypeKVCacheSpecs`` group on a GPU holding ``layers`` of the model's KV
    layers: their pages summed, the heaviest layers first (the most loaded GPU; MiniMax-M3's dense
    layers come first, so a later pipeline stage holds sparse layers only)."""
    pages = sorted((_attention(s).page_bytes(block_size, kv_dtype, tensor_parallel)
                    for s in layer_specs(model) if s.caches_kv), reverse=True)
    return sum(pages[:layers])


def _unmodelled_kinds(kinds: tuple[ls.LayerSpec, ...]) -> str:
    if uniform_type(kinds):
        return ""
    if len({s.geometry for s in kinds}) > 1 and (
            len(kinds) > 2 or len({s.window for s in kinds}) < len(kinds)
            or not all(isinstance(s, ls.FullAttention) for s in kinds)):
        return ("the KV layers differ in geometry (" + "; ".join(sorted({str(s.geometry) for s in kinds}))
                + ") beyond one windowed and one full kind; how vLLM groups them is not modelled")
    return ""


def unified_pages(kinds: tuple[ls.LayerSpec, ...], block_size: int, kv_dtype: str,
                  tensor_parallel: int) -> tuple[int, dict[int, int], str]:
    """(page, {window: that kind's block size}, problem) when the KV kinds' pages differ in size:
    ``unify_kv_cache_spec_page_size`` (vllm/v1/core/kv_cache_utils.py) keeps the largest page and
    grows each smaller kind's block by largest ÷ its page, so one block id is the same bytes in every
    group; a page that does not divide the largest is vLLM's NotImplementedError ("Cannot unify by
    adjusting block_size"). Gemma 4 31B at TP 1: 16 × 256 sliding pages of 262,144 bytes, 4 × 512
    global pages of 131,072, so the global layers run 32-token blocks. Empty when the pages agree."""
    pages = {s.window or 0: s.page_bytes(block_size, kv_dtype, tensor_parallel) for s in kinds}
    if len(set(pages.values())) <= 1:
        return 0, {}, ""
    largest = max(pages.values())
    if any(largest % page for page in pages.values()):
        return largest, {}, ("vLLM cannot make these KV layers' pages equal (" + ", ".join(
            f"{page:,} bytes" for page in sorted(set(pages.values()))) + " a block: the smaller does not divide "
            "the larger), and refuses to start (unify_kv_cache_spec_page_size)")
    return largest, {window: block_size * largest // page for window, page in pages.items()}, ""


@pure_cache()
def layout(model: Model, placement: Placement, kv_dtype: str, *, gpu_name: str = "", block_size: int = 16,
           version: str = "0.33.0", prefix_caching: bool | None = None, dcp: int = 1,
           sinks: bool = False, num_spec: int = 0, draft_attention_layers: int = 0,
           draft_window_layers: int = 0, v2_runner: bool = False, async_scheduling: bool = True) -> CacheLayout:
    """The pool layout of the most loaded GPU of ``placement`` (see the module docstring).

    ``prefix_caching`` None: the release's default (on for hybrid models from 0.26.0).
    ``num_spec``: speculative tokens per step (MTP, EAGLE): each widens a recurrent layer's
    convolution state by one column and, from 0.16, adds a state page per request.
    ``draft_attention_layers``: full-attention layers of a speculative drafter that caches in the
    same pool (an MTP module's own attention layer): they join the target's attention layers in the
    KV groups. vLLM groups layers by spec (vllm/v1/core/kv_cache_utils.py at bbf906a8, the grouping
    before its "Add %d padding layers" warning, whose comment names "speculative decoding drafters
    that add extra layers to one attention type": gpt-oss-20b + EAGLE as 12 sliding + 13 full), and
    a log shows it: Nemotron 3 Super with MTP on a GB10 prints "Add 5 padding layers, may waste at
    most 12.50%" — groups of 9, its 8 attention layers and the drafter's one, beside 40 Mamba layers
    padded to 45 (engines/hybrid_logs.py). ``draft_window_layers``: a drafter's sliding-window layers
    (MiMo-V2-Flash's MTP layer), which join the target's sliding-window type alike. Counted on every
    GPU (with pipeline parallelism the drafter is on the last stage only: not modelled apart).
    ``v2_runner``: whether Model Runner V2 serves the model, which with the pipeline stages fixes the
    batches a windowed layer reserves for from 0.26 (:func:`..engines.vllm.max_concurrent_batches`);
    ``async_scheduling``: whether vLLM schedules asynchronously (its default, :func:`async_scheduling_default`).
    """
    cc = vllm_hybrid.compute_capability(gpu_name)
    tp = placement.tensor_parallel
    kinds = _kv_kinds(model)
    if any(s.kind == "compressed" for s in kinds) or _indexer_on_some(kinds):
        return _multi_page_layout(model, placement, kinds, kv_dtype, cc=cc, block_size=block_size, version=version,
                                  dcp=dcp, sinks=sinks,
                                  speculative=bool(num_spec or draft_attention_layers or draft_window_layers),
                                  draft_layers=draft_attention_layers, draft_window_layers=draft_window_layers)
    mla = any(isinstance(s, ls.LatentAttention) for s in kinds)
    indexer = any(isinstance(s, ls.LatentAttention) and s.indexer_dim for s in kinds)
    windows = [s for s in kinds if s.window]
    problem = kv_layout_problem(kv_dtype, mla=mla, sparse_mla=indexer, version=version,
                                cc=cc, head_dim=model.head_dim, sinks=sinks)
    # sparse MLA stores fp8_ds_mla (656 bytes a token and layer) where FlashMLA or SM120's FlashInfer serves it
    kv_dtype = stored_kv_dtype(kv_dtype, sparse_mla=indexer, version=version, cc=cc,
                               heads_per_gpu=model.heads // max(1, tp))
    unmodelled = _unmodelled_kinds(kinds)
    if dcp > 1:
        if not mla:
            unmodelled = ("decode context parallelism is modelled here for MLA models (whose latent every TP rank "
                          "holds whole); a GQA model's DCP is not")
        elif tp % dcp:
            problem = problem or f"--decode-context-parallel-size {dcp} must divide the tensor-parallel size {tp}"
        elif windows:
            problem = problem or "vLLM's DCP does not support sliding-window layers"
    per_token = int(layer_bytes_on(model, kv_dtype, placement)) if not unmodelled else 0
    # FlashMLA sparse (an indexer): "Forcing kv cache block size to 64"
    block_size = max([block_size] + [getattr(s, "min_block_size", 0) for s in kinds])
    unified, grown, why = unified_pages(kinds, block_size, kv_dtype, tp) if not unmodelled else (0, {}, "")
    problem = problem or why
    full, windowed = kv_layers_per_gpu(model, placement)
    uniform = uniform_type(kinds) and not unmodelled
    if uniform and (draft_attention_layers or draft_window_layers):
        unmodelled = "a drafter's attention layers beside KV layers whose pages differ in size: not modelled"
    if draft_window_layers and not windowed:
        unmodelled = unmodelled or "a drafter's sliding-window layers beside a target without any: not modelled"
    full += max(0, draft_attention_layers)
    windowed += max(0, draft_window_layers)
    if windowed and full and not vllm_releases.rules(version).hybrid_allocator:
        # up to 0.9.0 a model with both kinds had its windowed layers turned into full attention
        # (unify_hybrid_kv_cache_specs): one group, every layer caching max_model_len
        full, windowed = full + windowed, 0
        if unified:
            unmodelled = unmodelled or ("the KV layers' pages differ in size and this release has no hybrid "
                                        "allocator to group them apart: not modelled")
    window = windows[0] if windows else None
    types = [LayerGroup(window.kind, windowed, window.window, grown.get(window.window, 0))] \
        if windowed and window else []
    if full:
        types.append(LayerGroup("full", full, 0, grown.get(0, 0)))
    state_page, mode, ckpt_blocks = 0, "", 0
    page = unified or block_size * per_token
    if uniform and not unmodelled:
        # one group whose page spans every layer: vLLM's num_blocks = available // that page
        page, types = uniform_block_bytes(model, full, block_size, kv_dtype, tp), [LayerGroup("full", 1)]
    mixer = _mixer(model)
    if mixer is not None:
        why = vllm_hybrid.state_served(mixer.state.mixer, version)
        problem = problem or why
        if prefix_caching is None:
            prefix_caching = vllm_hybrid.hybrid_prefix_caching_default(version)
        mode = vllm_hybrid.mamba_cache_mode(mixer.state.mixer, prefix_caching, version)
        try:
            state_page = mixer.state_bytes(tp, model_dtype_bytes=MODEL_DTYPE_BYTES, version=version,
                                           num_spec=num_spec)
        except ValueError as exc:
            problem = problem or f"vLLM's recurrent layers cannot split over TP {tp}: {exc}"
            state_page = 1
        if not full and not windowed:
            unmodelled = unmodelled or "a model without attention layers (every layer recurrent) is not modelled"
        if unified:
            unmodelled = unmodelled or ("recurrent layers beside attention layers whose pages differ in size: "
                                        "not modelled")
        align, ckpt_blocks = _checkpoint(mixer, mode, cc, version)
        if per_token > 0:
            block_size, page = vllm_hybrid.hybrid_block_size(
                per_token, state_page, version=version, mla=mla, head_size=model.head_dim,
                block_size=block_size, cc=cc, cache_mode=mode, mamba_chunk_size=mixer.state.chunk_size,
                checkpoint_alignment=align)
        types.append(LayerGroup(STATE, state_layers_per_gpu(model, placement)))
    size, groups, _padding = vllm.kv_cache_groups(types, version)
    return CacheLayout(block_size=block_size, page_bytes=max(1, page), attn_page_per_token=per_token,
                       layers_per_group=size, groups=tuple(groups), state_page_bytes=state_page, cache_mode=mode,
                       checkpoint_blocks=ckpt_blocks, dcp=dcp, num_spec=num_spec, version=version, problem=problem,
                       unmodelled=unmodelled,
                       concurrent_batches=vllm.max_concurrent_batches(version, placement.pipeline_stages, v2_runner,
                                                                      async_scheduling))


#: ``--speculative-config`` methods with which vLLM turns async scheduling off by default: every method
#: that is neither EAGLE/MTP/DFlash (``EagleModelTypes``), ``ngram_gpu`` nor ``dspark``
#: (``VllmConfig`` "Async scheduling not supported with %s-based speculative decoding", vllm/config/vllm.py
#: 0.26.0 l.1071-1082), of the calculator's methods the draft model and the CPU n-gram proposer.
SYNC_SPECULATION = ("draft_model", "ngram")


def async_scheduling_default(speculation_method: str = "") -> bool:
    """vLLM's default (``async_scheduling=None`` resolved in ``VllmConfig.__post_init__``, 0.26.0 l.1059-1107):
    on unless a pooling model, a speculative method of :data:`SYNC_SPECULATION`, an executor without
    async support (Ray's; mp and uniproc have it) or ROCm DeepEP high-throughput DBO. The calculator
    serves generative models on mp/uniproc, so only the speculative method turns it off here."""
    return speculation_method not in SYNC_SPECULATION


def _multi_page_layout(model: Model, placement: Placement, kinds: tuple[ls.LayerSpec, ...], kv_dtype: str, *,
                       cc, block_size: int, version: str, dcp: int, sinks: bool, speculative: bool,
                       draft_layers: int = 0, draft_window_layers: int = 0) -> CacheLayout:
    """DeepSeek-V4's and GLM-5.2's pools (physics.multi_page_pool): every KV cache is replicated
    over TP (one latent, one window, indexer and compressor states with ``disable_tp``), so a GPU
    of one pipeline stage holds all of them. ``draft_layers``: GLM-5.2's MTP layers, each a latent and
    an indexer key page more in the one uniform-type group (:func:`indexer_layer`); ``draft_window_layers``:
    DeepSeek-V4's MTP layers, each one more window cache (:func:`..physics.multi_page_pool.v4_mtp_layer`)."""
    specs = tuple(_attention(s) for s in layer_specs(model) if s.caches_kv)
    staged = placement.pipeline_stages > 1
    if any(s.kind == "compressed" for s in kinds):
        block = mpp.V4_BLOCK_SIZE
        problem = next((p for p in (s.kv_dtype_problem(kv_dtype) for s in kinds) if p), "")
        mtp_only = draft_window_layers > 0 and not draft_layers  # the model's own MTP layers, window-only
        unmodelled = mpp.v4_unmodelled(version, block_size, tensor_parallel_only=not staged,
                                       speculative=speculative and not mtp_only, dcp=dcp)
        pool = None
        if mtp_only:  # vLLM's spec dict ends with the MTP layers' (model.layers.{num_hidden_layers + i})
            specs += (mpp.v4_mtp_layer(specs[-1]),) * draft_window_layers
        if not (problem or unmodelled):
            pool, problem = mpp.v4_pool(specs, version)
        per_token = 0
    else:
        block = max(s.min_block_size for s in kinds)
        problem = kv_layout_problem(kv_dtype, mla=True, sparse_mla=True, version=version, cc=cc,
                                    head_dim=model.head_dim, sinks=sinks)
        unmodelled = ("sparse-MLA layers with an indexer on some of them, over pipeline stages (which layers own "
                      "one on each stage), are not modelled" if staged else
                      "decode context parallelism over sparse-MLA layers with an indexer on some of them is not "
                      "modelled" if dcp > 1 else "")
        pool = None
        if draft_layers > 0:
            specs += (indexer_layer(model),) * draft_layers
        if not unmodelled:
            stored = stored_kv_dtype(kv_dtype, sparse_mla=True, version=version, cc=cc,
                                     heads_per_gpu=model.heads // max(1, placement.tensor_parallel))
            pool, unmodelled = mpp.glm52_pool(specs, stored, version)
        per_token = pool.block_bytes // block if pool else 0
    if pool is None:
        return CacheLayout(block_size=block, page_bytes=1, attn_page_per_token=0, layers_per_group=1,
                           groups=(LayerGroup("full", len(specs)),), dcp=dcp, version=version, problem=problem,
                           unmodelled=unmodelled)
    groups = tuple(LayerGroup("full" if not g.window else "window", len(g.pages), g.window) for g in pool.groups)
    return CacheLayout(block_size=block, page_bytes=pool.block_bytes, attn_page_per_token=per_token,
                       layers_per_group=1, groups=groups, dcp=dcp, version=version, problem=problem,
                       multi_page=pool)


def from_available(cache: CacheLayout, available_bytes: float, max_model_len: int,
                   batched_tokens: int = 8192) -> tuple[int, float, int]:
    """(num_blocks, "Maximum concurrency", "GPU KV cache size" tokens) that vLLM logs for a pool
    of ``available_bytes`` ("Available KV cache memory") laid out as ``cache``: the blocks are
    ``available // page // layers per group`` (``get_num_blocks``), the concurrency the blocks ÷
    those one ``max_model_len`` request takes over every group."""
    blocks = max(0, int(available_bytes // cache.page_bytes // max(1, cache.layers_per_group)))
    per_request = cache.request_blocks(max_model_len, batched_tokens)
    concurrency = blocks / per_request if per_request else 0.0
    return blocks, concurrency, cache.logged_tokens(blocks, concurrency, max_model_len)
