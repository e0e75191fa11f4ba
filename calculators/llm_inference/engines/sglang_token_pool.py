"""One rank's KV pool as SGLang sizes it: the budget of :mod:`.sglang` (the fraction, the profile, the
cell), the sliding-window split of :mod:`.sglang_swa`, the speculative headroom of
:mod:`.sglang_speculation` and the LoRA buffers of :mod:`.sglang_lora`, put together as
``ModelRunner`` does at start-up."""

from __future__ import annotations

from dataclasses import dataclass

from ..physics.model import Model
from . import sglang  # the module object: physics imports these while sglang is loading
from .sglang_speculation import SpeculativeParams, speculative_headroom
from .sglang_swa import SWA_FULL_TOKENS_RATIO, SWASplit, hybrid_swa, swa_split

__all__ = ["Pool", "token_pool", "pool_on"]

@dataclass(frozen=True)
class Pool:
    """One rank's KV pool as SGLang sizes it (GiB as SGLang prints them: 2^30 bytes)."""

    release: str
    mem_fraction_static: float
    free_at_start_gib: float  # T
    free_after_weights_gib: float  # B
    rest_gib: float  # B − T(1 − f): the KV pool's bytes
    cell_bytes: int
    max_total_num_tokens: int  # 0 when refused
    k_size_gib: float
    v_size_gib: float
    problem: str = ""  # why SGLang refuses to start ("" when it starts)
    free_estimated: bool = False  # T came from sglang.CONTEXT_GIB, not from the hardware
    #: the hybrid SWA pool (None: one pool, every layer caching every token); sglang.max_total_num_tokens is
    #: then its full_tokens, and k/v_size_gib the full layers' pool
    swa: SWASplit | None = None
    swa_k_size_gib: float = 0.0
    swa_v_size_gib: float = 0.0
    page_size: int = 1  # the page the pool was rounded to (64 for DeepSeek NSA, whatever was asked)
    lora_gib: float = 0.0  # --enable-lora's buffers, allocated before the profile (B is measured after them)
    #: what ServerArgs fills in on this GPU (the chunked prefill a DP rank takes, the automatic fraction);
    #: None when nvidia-smi's total is not known
    defaults: sglang.Defaults | None = None


def token_pool(model: Model, gpu_visible_gib: float, tp: int, release: str, *, weight_gib_per_gpu: float,
               mem_fraction_static: float | None = None, gpu_mem_mib: float | None = None,
               kv_dtype: str = "bf16", page_size: int = 1, pp: int = 1, dp: int = 1, dp_attention: bool = False,
               max_total_tokens: int | None = None, free_at_start_gib: float | None = None,
               multimodal: bool = False, state_gib: float = 0.0, model_type: str = "",
               swa_full_tokens_ratio: float = SWA_FULL_TOKENS_RATIO,
               speculative: SpeculativeParams | None = None, lora_gib: float = 0.0) -> Pool:
    """SGLang's pool for ``model`` on one GPU of a TP group: what the lead's calculators can call.

    ``weight_gib_per_gpu`` is one rank's weights (physics.weights); T is ``free_at_start_gib`` when
    the reader has it (the "Load weight begin" line), else the GPU's visible memory less
    :data:`sglang.CONTEXT_GIB` (``free_estimated``). Without ``mem_fraction_static`` the release's default is
    taken, which needs ``gpu_mem_mib`` (nvidia-smi's total: :data:`sglang.NVIDIA_SMI_MIB`). ``model_type``
    (the config's) decides whether windowed layers get SGLang's SWA pool (:func:`hybrid_swa`).
    ``speculative``: the automatic fraction keeps the draft's share (:func:`sglang.default_mem_fraction_static`),
    and the count grows by :func:`speculative_headroom` before the cap and the page rounding. The draft's
    weights and its own pool are loaded after the profile, out of the T × (1 − f) reserve. ``lora_gib``:
    :func:`lora_buffer_bytes`, allocated after the weights and before the profile, so B is that much lower.
    """
    version = sglang.parse_release(release)
    if not sglang._DEFAULTS_FROM <= version <= sglang._PROFILE_TO:
        raise ValueError(f"SGLang {release} was not read (rules: 0.4.3 to 0.5.23)")
    given = mem_fraction_static is not None
    if not given and gpu_mem_mib is None:
        raise ValueError("the automatic mem_fraction_static needs nvidia-smi's total (gpu_mem_mib)")
    defaults = None if gpu_mem_mib is None else sglang.default_mem_fraction_static(
        gpu_mem_mib, release, tp, pp, dp_attention=dp_attention, dp=dp,
        speculative=speculative.algorithm if speculative else "", mla=model.is_mla,
        max_total_tokens=max_total_tokens)
    if not given:
        mem_fraction_static = defaults.mem_fraction_static
    if model.indexer_dim and model_type not in sglang._NSA_MODEL_TYPES:
        # configs/model_config.py is_deepseek_nsa: DeepseekV3/V32ForCausalLM with index_topk (0.5.6)
        raise ValueError(f"SGLang's NSA pool is DeepSeek-V3.2's (is_deepseek_nsa); the sparse indexer of "
                         f"{model_type or 'a custom shape'} is not modelled")
    if speculative is not None and model.indexer_dim:
        raise ValueError("SGLang's NEXTN draft beside DeepSeek-V3.2's NSA pool is not modelled (its draft pool's "
                         "indexer was not read)")
    if multimodal:
        mem_fraction_static *= sglang.multimodal_factor(release, given=given)
    if model.indexer_dim:
        page_size = sglang.NSA_PAGE_SIZE  # server_args.py sets it for DeepSeek NSA; NSATokenToKVPool asserts it
    estimated = free_at_start_gib is None
    if estimated:
        free_at_start_gib = gpu_visible_gib - sglang.CONTEXT_GIB[1 if tp * pp == 1 else 2]
    free_after = free_at_start_gib - weight_gib_per_gpu - lora_gib
    cell = sglang.model_cell_bytes(model, kv_dtype, sglang.attention_tp(tp, dp, dp_attention), release)
    swa_pool = hybrid_swa(model, release, model_type)
    rest = free_after - free_at_start_gib * (1 - mem_fraction_static) - state_gib
    profiled = sglang.profiled_tokens(free_after, free_at_start_gib, mem_fraction_static, cell, state_gib)
    if speculative is not None:
        profiled += speculative_headroom(speculative)  # before the "Not enough memory" check, as SGLang does
    split = None
    problem = ""
    if swa_pool:
        layer = cell / model.kv_layers
        split = swa_split(profiled, full_layers=model.full_layers, swa_layers=model.windowed_layers,
                          layer_bytes=layer, release=release, rest_bytes=rest * sglang.GIB, ratio=swa_full_tokens_ratio,
                          page_size=page_size, max_total_tokens=max_total_tokens)
        tokens = split.full_tokens
        if tokens > 0 and version >= (0, 5, 23) and model.window + page_size >= split.swa_tokens:
            problem = (f"SWA pool ({split.swa_tokens} tokens) cannot hold even one request: the prefill admission "
                       f"floor is sliding_window_size ({model.window}) + page_size ({page_size}); increase "
                       f"--swa-full-tokens-ratio or the total KV budget")
    else:
        tokens = sglang.max_total_num_tokens(profiled, page_size, max_total_tokens)
    if tokens <= 0:
        problem = (f"Not enough memory: the weights leave no KV pool under mem_fraction_static "
                   f"{mem_fraction_static:.3f}; the smallest that starts is "
                   f"{sglang.minimum_mem_fraction_static(free_after, free_at_start_gib):.4f}")
        tokens, split = 0, None
    swa_k = swa_v = 0.0
    if not tokens:
        k, v = 0.0, 0.0
    elif split is not None:
        # SWAKVPool builds two pools of (size + page) slots; 0.4.10–0.5.6 pass page_size = 1 to both
        slot_page = page_size if version >= (0, 5, 23) else 1
        layer = cell / model.kv_layers
        k = v = (split.full_tokens + slot_page) * layer * split.full_layers / 2 / sglang.GIB
        swa_k = swa_v = (split.swa_tokens + slot_page) * layer * split.swa_layers / 2 / sglang.GIB
    elif model.indexer_dim:
        k, v = sglang.nsa_kv_size_gib(tokens, model.kv_layers, model.latent_dim + model.rope_dim,
                               1 if kv_dtype.startswith("fp8") else 2, model.indexer_dim, model.rope_dim), 0.0
    else:
        k, v = sglang.kv_sizes_gib(tokens, cell, page_size, model.is_mla)
    return Pool(release, mem_fraction_static, free_at_start_gib, free_after, rest, cell, tokens, k, v, problem,
                estimated, split, swa_k, swa_v, page_size, lora_gib, defaults)


def pool_on(model: Model, gpu, tp: int, release: str, *, weight_gib_per_gpu: float, **settings) -> Pool:
    """:func:`token_pool` on a book GPU (hardware.GPU): its visible memory, and nvidia-smi's total
    where :data:`sglang.NVIDIA_SMI_MIB` has it (needed only when the fraction is SGLang's default)."""
    settings.setdefault("gpu_mem_mib", sglang.NVIDIA_SMI_MIB.get(gpu.id))
    return token_pool(model, gpu.visible / sglang.GIB, tp, release, weight_gib_per_gpu=weight_gib_per_gpu, **settings)
