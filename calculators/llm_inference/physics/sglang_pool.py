"""A deployment's pool when the engine is SGLang: SGLang's token pool (engines.sglang_token_pool) in the shape of
:class:`.budget.Pool`, so that every figure a calculator reads (the memory bar, the tokens, the
concurrency, the searches of :mod:`.fleet`) is SGLang's and no calculator needs a branch of its own.

SGLang's budget per GPU (``ModelRunner.profile_max_num_token``, engines/sglang.py):

    T = free memory after the CUDA context, NCCL and custom all-reduce (minimum over ranks)
    B = T − weights
    KV pool = B − T × (1 − mem_fraction_static)

so the bar's parts are: runtime = visible − T, weights = T − B, activations (SGLang's fixed reserve
for activations, CUDA graphs and the sampler, nothing profiled) = T × (1 − f), KV pool = the rest;
SGLang takes the whole free memory, so nothing is left "outside its share". The pool is cut into
pages of ``page_size`` tokens (1 by default: a token is a page, the radix cache shares prefixes
token by token); a request of N tokens takes ceil(N ÷ page) pages. SGLang prints no concurrency:
the figure here is max_total_num_tokens ÷ the request's tokens, as the scheduler admits them.

Sliding-window models: where the release gives windowed layers a pool of their own (engines.sglang_swa
``hybrid_swa``: Gemma 2/3 in 0.4.10, gpt-oss in 0.5.23; none by default in 0.5.3–0.5.6, which serve every
windowed model with one pool of all layers, the window a mask only) the tokens are the full layers'
pool (``full_max_total_num_tokens``, what the scheduler prints), the SWA pool holding
``--swa-full-tokens-ratio`` (0.8) of it; a request takes its whole length in the full pool, so the
concurrency is that pool's. DeepSeek-V3.2: the NSA cell (MLA latent + the indexer's FP8 keys), page 64.
Speculative decoding: the reader's method as SGLang's algorithm (MTP → NEXTN, an EAGLE-3 head → EAGLE3,
a draft model → STANDALONE, n-gram → NGRAM) with ``--speculative-num-steps`` k and topk 1; the tokens
gain SGLang's headroom, and the draft's weights (``drafter``, physics.speculation's sizes) and its own
pool of as many tokens are taken from the activation reserve, refused when they do not fit in it.
The book's data-parallel attention layout is SGLang's ``--tp N --dp N --enable-dp-attention`` (0.5.23:
``--attn-dp-size N``): attention TP 1, each GPU a pool of its own for its own requests (all KV heads, or the
MLA latent), SGLang's weights per rank (:func:`dp_attention_weight_bytes`) and the DP term of the automatic
fraction; a draft beside it is refused. LoRA (the reader's slots as ``--max-loras-per-batch`` and
``--max-lora-rank``, dense models, 0.5.6–0.5.22): SGLang's A/B buffers are allocated before the profile and
come out of the pool. Models whose pool SGLang shapes otherwise (recurrent-state hybrids, per-layer
geometries, SWA pools not read) are refused with the reason (``problem``), never vLLM's number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..engines import sglang
from ..engines import sglang_lora
from ..engines import sglang_speculation
from ..engines import sglang_swa
from ..engines import sglang_token_pool
from ..engines.vllm import LayerGroup
from ..hardware import GPU
from .budget import Pool
from ..models.params import ATTENTION, EMBEDDING
from .memo import pure_cache
from .model import Model
from .placement import Placement
from .lora import LoraMemory, LoraSlots
from .speculation import DRAFT_MODEL, EAGLE_METHODS, MTP, NGRAM, NONE, Drafter, Speculation, drafter

__all__ = ["SGLangSettings", "SGLangPool", "sglang_pool", "startup_lines", "dp_attention_weight_bytes"]

#: The default release: the newest whose speculative flags, NSA pool and LoRA buffers were all read
#: (engines.sglang; 0.5.23's automatic fraction is modelled too, a choice of the form).
NEWEST = "0.5.6"


@dataclass(frozen=True)
class SGLangSettings:
    """The reader's SGLang flags: 0 means SGLang's default (the fraction: the release's rule)."""

    release: str = NEWEST
    mem_fraction_static: float = 0.0
    page_size: int = 1
    max_total_tokens: int = 0
    #: T, the "Load weight begin. avail mem=… GB" of the reader's own log; 0: the GPU's visible memory less
    #: the CUDA context's band (engines.sglang.CONTEXT_GIB), an estimate.
    free_at_start_gib: float = 0.0
    #: --swa-full-tokens-ratio; 0: SGLang's default (engines.sglang_swa.SWA_FULL_TOKENS_RATIO, 0.8)
    swa_full_tokens_ratio: float = 0.0
    #: the config's model_type (the book's derived shape), which SGLang's SWA decision keys on; "" custom
    model_type: str = ""


@dataclass(frozen=True)
class SGLangPool(Pool):
    """One GPU's SGLang pool, read through :class:`.budget.Pool`'s interface: ``num_blocks`` are
    pages of ``block_size`` (= page_size) tokens, ``page_bytes`` one page of one layer."""

    sglang: sglang_token_pool.Pool | None = None
    settings: SGLangSettings = SGLangSettings()
    refusal: str = ""  # why the model or layout is not modelled / SGLang refuses ("" when it starts)
    #: speculative decoding: SGLang's numbers and the draft's own KV pool on this GPU (bytes); the draft's
    #: weights are ``drafter`` (budget.Pool's: weights beside the target's; no layer in the target's cell)
    speculative: sglang_speculation.SpeculativeParams | None = None
    draft_pool_bytes: float = 0.0

    @property
    def problem(self) -> str:
        return self.refusal

    @property
    def starts(self) -> bool:
        return (self.placement.legal and not self.refusal and self.num_blocks > 0
                and not (self.lora and self.lora.problem))

    def request_blocks(self, max_model_len: int) -> int:
        return max(1, math.ceil(max_model_len / self.block_size))

    def kv_cache_tokens(self, max_model_len: int) -> int:
        """``max_total_num_tokens`` (one rank's pool; the same figure whatever the context)."""
        return self.sglang.max_total_num_tokens if self.starts and self.sglang else 0


def dp_attention_weight_bytes(weights, tp: int, dp: int) -> float:
    """One rank's weights under ``--tp tp --dp dp --enable-dp-attention`` (no --ep-size, no --moe-dense-tp-size,
    no --enable-dp-lm-head: SGLang's defaults). The attention projections are split over the attention-TP group
    of tp // dp GPUs (layers/dp_attention.py ``get_attention_tp_size``); the embedding is whole on every rank
    (``VocabParallelEmbedding(enable_tp=not is_dp_attention_enabled())`` in models/deepseek_v2.py, llama4.py,
    0.5.x); the LM head (``enable_dp_lm_head`` off), the dense MLPs (``moe_dense_tp_size`` None: the whole TP
    group, layers/dp_attention.py ``compute_dp_attention_local_info``) and every expert are sliced over all tp
    GPUs. This is not the book's DP placement, which holds the dense layers and the LM head whole and deals
    the routed experts out whole (vLLM's --enable-expert-parallel)."""
    by_tp = {g.group: g.bytes for g in weights.groups(tp)}
    attention = {g.group: g.bytes for g in weights.groups(tp // dp)}.get(ATTENTION, 0.0)
    embedding = {g.group: g.bytes for g in weights.groups(1)}.get(EMBEDDING, 0.0)
    return (sum(b for group, b in by_tp.items() if group not in (ATTENTION, EMBEDDING)) + attention + embedding)


def _refused(placement: Placement, gpu: GPU, settings: SGLangSettings, why: str) -> SGLangPool:
    return SGLangPool(placement=placement, visible_bytes=gpu.visible, requested_bytes=gpu.visible,
                      weight_bytes=placement.weight_bytes_per_gpu, activation_bytes=0.0, overhead_bytes=0.0,
                      available_bytes=0.0, bytes_per_token=0.0, page_bytes=0, layers_per_group=0, groups=(),
                      num_blocks=0, batched_tokens=0, block_size=max(1, settings.page_size),
                      version=settings.release, settings=settings, refusal=why)


#: The book's speculative methods (vLLM's names, physics.speculation) as SGLang's ``--speculative-algorithm``.
_ALGORITHM = {MTP: "NEXTN", "eagle": "EAGLE", "eagle3": "EAGLE3", DRAFT_MODEL: "STANDALONE", NGRAM: "NGRAM"}


def _speculative(spec: Speculation, settings: SGLangSettings) -> sglang_speculation.SpeculativeParams:
    """SGLang's flags for the reader's speculation: the algorithm, ``--speculative-num-steps`` = k, topk 1
    (so k + 1 draft tokens, as server_args makes them), ``--max-running-requests`` SGLang's 48."""
    if spec.method not in _ALGORITHM:
        raise ValueError(f"speculative method {spec.method!r} under SGLang is not modelled")
    algorithm = _ALGORITHM[spec.method]
    if spec.method in EAGLE_METHODS and spec.head is not None:
        algorithm = "EAGLE3" if spec.head.kind == "eagle3" else "EAGLE"
    return sglang_speculation.speculative_params(algorithm, settings.release, settings.model_type,
                                     num_steps=spec.k, eagle_topk=1, num_draft_tokens=spec.k + 1)


@pure_cache()
def sglang_pool(model: Model, gpu: GPU, placement: Placement, settings: SGLangSettings, kv_dtype: str,
                speculation: Speculation = Speculation(), weights=None, lora: LoraSlots | None = None) -> SGLangPool:
    """SGLang's pool on the most loaded GPU of ``placement`` (its weights per GPU as the book places them);
    ``speculation`` and the target's ``weights`` (for an MTP layer's size) when a draft is loaded. ``lora``:
    the reader's slots as ``--enable-lora --max-loras-per-batch <max_loras> --max-lora-rank <max_rank>``, every
    target module; SGLang's buffers (engines.sglang_lora.lora_buffer_bytes) come out of the pool. The cache
    stores the dtype asked for (no fp8_ds_mla record: SGLang's NSA fp8 latent is plain fp8, nsa_kv_size_gib)."""
    dtype = "bf16" if kv_dtype == "auto" else kv_dtype
    return replace(_pool(model, gpu, placement, settings, dtype, speculation, weights, lora), stored_kv_dtype=dtype)


def _pool(model: Model, gpu: GPU, placement: Placement, settings: SGLangSettings, dtype: str,
          speculation: Speculation, weights, lora: LoraSlots | None) -> SGLangPool:
    if not placement.legal:
        return _refused(placement, gpu, settings, placement.problem)
    if model.is_hybrid:
        return _refused(placement, gpu, settings, "SGLang's recurrent-state pool for linear-attention and "
                        "state-space layers is not modelled here")
    if placement.pipeline_stages > 1:
        return _refused(placement, gpu, settings, "SGLang's pool under pipeline parallelism is not modelled here")
    dp = placement.data_parallel
    if dp == 1 and placement.expert_parallel > 1:
        return _refused(placement, gpu, settings, "SGLang's expert parallelism (--ep-size) is not modelled here: "
                        "vLLM's --enable-expert-parallel is")
    if dp > 1 and speculation.on:
        return _refused(placement, gpu, settings, "SGLang's draft under DP attention is not modelled here (its "
                        "automatic fraction and draft pool were read for tensor parallelism)")
    if model.vision is not None:
        return _refused(placement, gpu, settings, "SGLang scales a multimodal model's mem_fraction_static by its "
                        "vision tower's size (adjust_mem_fraction_for_vlm): not modelled here")
    if not settings.mem_fraction_static and gpu.id not in sglang.NVIDIA_SMI_MIB:
        return _refused(placement, gpu, settings, f"SGLang's automatic mem_fraction_static is keyed on nvidia-smi's "
                        f"total memory, not known here for the {gpu.name}: give --mem-fraction-static")
    if settings.free_at_start_gib * sglang.GIB > gpu.visible:
        # T is measured on this GPU after the CUDA context: more than the GPU shows is another GPU's line.
        return _refused(placement, gpu, settings, f"the free memory at start given ({settings.free_at_start_gib:.2f} "
                        f"GiB) is more than the {gpu.name}'s {gpu.visible / sglang.GIB:.2f} GiB: read it from the "
                        f"\"Load weight begin\" line of a run on this GPU")
    # the book's DP layout is SGLang's --tp N --dp N --enable-dp-attention: attention TP 1 on each of N ranks
    tp = placement.tensor_parallel if dp == 1 else dp
    weight_bytes = placement.weight_bytes_per_gpu if dp == 1 or weights is None else dp_attention_weight_bytes(
        weights, tp, dp)
    spec = draft = None
    if speculation.on:
        try:
            spec = _speculative(speculation, settings)
        except ValueError as error:
            return _refused(placement, gpu, settings, str(error))
        # the draft's weights and KV bytes a token are the model's (physics.speculation); SGLang shares the
        # target's embedding and LM head with NEXTN/EAGLE drafts (speculative/eagle_worker.py set_embed_and_head)
        draft = drafter(speculation, model, gpu, placement, dtype, weights)
        if draft.refusal:
            return _refused(placement, gpu, settings, draft.refusal)
    lora_bytes = 0
    if lora is not None:
        why = _lora_problem(model, placement, lora)
        if why:
            return replace(_refused(placement, gpu, settings, why), lora=LoraMemory(problem=why))
        try:
            lora_bytes = sglang_lora.lora_buffer_bytes(
                layers=model.layers, hidden=model.hidden_size, heads=model.heads, kv_heads=model.kv_heads,
                head_dim=model.head_dim, intermediate=model.intermediate_size, max_loras_per_batch=lora.max_loras,
                max_lora_rank=lora.max_rank, tp=tp, release=settings.release)
        except ValueError as error:
            return replace(_refused(placement, gpu, settings, str(error)), lora=LoraMemory(problem=str(error)))
    try:
        result = sglang_token_pool.pool_on(model, gpu, tp, settings.release,
                                weight_gib_per_gpu=weight_bytes / sglang.GIB, dp=dp, dp_attention=dp > 1,
                                mem_fraction_static=settings.mem_fraction_static or None,
                                kv_dtype=dtype, page_size=settings.page_size,
                                max_total_tokens=settings.max_total_tokens or None,
                                free_at_start_gib=settings.free_at_start_gib or None,
                                model_type=settings.model_type,
                                swa_full_tokens_ratio=settings.swa_full_tokens_ratio or sglang_swa.SWA_FULL_TOKENS_RATIO,
                                speculative=spec, lora_gib=lora_bytes / sglang.GIB)
    except ValueError as error:
        return _refused(placement, gpu, settings, str(error))
    t, b = result.free_at_start_gib * sglang.GIB, result.free_after_weights_gib * sglang.GIB
    reserve = t * (1 - result.mem_fraction_static)
    draft_w = draft_kv = 0.0
    refusal = result.problem
    if draft is not None and draft.weight_bytes + draft.token_bytes and result.max_total_num_tokens:
        # the draft worker loads after the target's pool: its weights, then a pool of the target's count
        # (draft_runner_cache_size) + page slots of its own layers, all out of the reserve
        draft_w = draft.weight_bytes
        draft_kv = (result.max_total_num_tokens + result.page_size) * draft.token_bytes
        if not refusal and draft_w + draft_kv > reserve:
            refusal = (f"the draft's weights ({draft_w / sglang.GIB:.2f} GiB) and its KV pool "
                       f"({draft_kv / sglang.GIB:.2f} GiB) are loaded after the target's pool, out of the "
                       f"{reserve / sglang.GIB:.2f} GiB SGLang keeps (1 − mem_fraction_static): out of memory")
    layers = model.kv_layers
    page_size = result.page_size
    page = result.cell_bytes * page_size // max(1, layers)
    groups: tuple[LayerGroup, ...] = (LayerGroup("mla" if model.is_mla else "full", 1),)
    per_token = float(result.cell_bytes)
    if result.swa is not None:
        split = result.swa
        # what one full-pool token costs with its share of the SWA pool: full + ratio × SWA layers
        per_token = result.cell_bytes / layers * (split.full_layers + split.ratio * split.swa_layers)
        groups = (LayerGroup("full", 1), LayerGroup("sliding", 1, model.window))
    return SGLangPool(
        placement=placement, visible_bytes=gpu.visible, requested_bytes=gpu.visible, weight_bytes=t - b - lora_bytes,
        activation_bytes=reserve - draft_w - draft_kv, overhead_bytes=gpu.visible - t,
        available_bytes=result.rest_gib * sglang.GIB + draft_kv,
        bytes_per_token=per_token, page_bytes=page, layers_per_group=layers, groups=groups,
        num_blocks=result.max_total_num_tokens // page_size, batched_tokens=0,
        block_size=page_size, version=settings.release, sglang=result, settings=settings,
        refusal=refusal, speculative=spec, draft_pool_bytes=draft_kv,
        drafter=Drafter(weight_bytes=draft_w, token_bytes=draft.token_bytes, label=draft.label) if draft_w else NONE,
        lora=LoraMemory(slot_bytes=lora_bytes) if lora is not None else None)


def _lora_problem(model: Model, placement: Placement, lora: LoraSlots) -> str:
    """Why SGLang's LoRA buffers are not sized here for this model ("" when they are): dense GQA/MHA models
    of one layer kind only, tensor parallelism only (0.5.6's LoRAMemoryPool shapes, lora/utils.py
    ``get_hidden_dim``'s llama-type default)."""
    if model.is_moe or model.is_mla or model.layer_specs or model.vision is not None:
        return ("SGLang's LoRA buffers for MoE, MLA, multimodal or mixed-layer models are not modelled here (read: "
                "0.5.6's dense q/k/v/o/gate/up/down shapes)")
    if placement.data_parallel > 1:
        return "SGLang's LoRA buffers under DP attention are not modelled here"
    if lora.fully_sharded:
        return "--fully-sharded-loras is vLLM's flag: SGLang shards its LoRA buffers one way only"
    if not (model.hidden_size and model.heads and model.intermediate_size):
        return "SGLang's LoRA buffers need the model's hidden, head and MLP widths: not known for this shape"
    return ""


def startup_lines(pool: SGLangPool) -> str:
    """The lines SGLang prints for this pool (one rank), as :mod:`..engines.sglang_logs` quotes them."""
    s = pool.sglang
    if s is None:
        return f"not computed: {pool.refusal}"
    lines = [f"Load weight begin. avail mem={s.free_at_start_gib:.2f} GB",
             f"Load weight end. avail mem={s.free_after_weights_gib:.2f} GB, "
             f"mem usage={s.free_at_start_gib - s.free_after_weights_gib:.2f} GB."]
    if s.problem:
        lines.append("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."
                     if not s.max_total_num_tokens else f"ValueError: {s.problem}")
    elif s.swa is not None:
        lines += [f"Use Sliding window memory pool. full_layer_tokens={s.swa.full_tokens}, "
                  f"swa_layer_tokens={s.swa.swa_tokens}",
                  f"KV Cache is allocated. #tokens: {s.swa.swa_tokens}, K size: {s.swa_k_size_gib:.2f} GB, "
                  f"V size: {s.swa_v_size_gib:.2f} GB",
                  f"KV Cache is allocated. #tokens: {s.swa.full_tokens}, K size: {s.k_size_gib:.2f} GB, "
                  f"V size: {s.v_size_gib:.2f} GB",
                  f"max_total_num_tokens={s.max_total_num_tokens} (the full layers' pool)"]
    else:
        sizes = (f"KV size: {s.k_size_gib:.2f} GB" if pool.groups[0].kind == "mla"
                 else f"K size: {s.k_size_gib:.2f} GB, V size: {s.v_size_gib:.2f} GB")
        lines += [f"KV Cache is allocated. #tokens: {s.max_total_num_tokens}, {sizes}",
                  f"max_total_num_tokens={s.max_total_num_tokens}, available_gpu_mem= what CUDA-graph capture "
                  f"leaves of the {s.free_at_start_gib * (1 - s.mem_fraction_static):.2f} GB reserve (measured)"]
    if s.free_estimated:
        lines.append(f"(avail mem at start estimated: visible memory less the CUDA context; mem_fraction_static "
                     f"{s.mem_fraction_static:.3f})")
    return " · ".join(lines)
