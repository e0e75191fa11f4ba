"""SGLang's KV-cache memory budget, computed the way SGLang computes it.

Read from SGLang's own source, in the released wheels on PyPI (python/sglang/srt/...), releases
0.4.3.post2, 0.4.4.post1, 0.4.4.post3, 0.4.6.post1, 0.4.7, 0.4.8, 0.4.9.post2, 0.5.3, 0.5.6 and 0.5.23. What a
rule is taken from is named beside it; where it changed between two releases read, the change is
placed between them (a release in between that was not read takes the rule of the nearest read
one below it, and the calculators should say so).

The startup, per GPU (``ModelRunner``, model_executor/model_runner.py):

1. ``init_torch_distributed`` measures the free memory T after the CUDA context, NCCL and the
   custom all-reduce buffers exist (``get_available_gpu_memory``: ``torch.cuda.mem_get_info``'s
   free bytes ÷ 2^30, the *minimum over all ranks* when there is more than one); the log prints
   it as "Load weight begin. avail mem=T GB".
2. The weights load; "Load weight end. ... avail mem=B GB, mem usage=T−B GB".
3. ``profile_max_num_token``: B again (minimum over ranks), then

       rest  = B − T × (1 − mem_fraction_static)                  (GiB; "GB" in the logs is GiB)
       cells = int(rest × 2^30 // cell_size)

   ``mem_fraction_static`` is the share of T that weights *and* the KV pool may take; the rest,
   T × (1 − f), is left for activations, CUDA graphs and the sampler. No profiling run measures
   them: the share is a heuristic of ``server_args.py`` (:func:`default_mem_fraction_static`).
4. ``init_memory_pool``: the count is capped by ``--max-total-tokens``, rounded down to a multiple
   of ``page_size`` (1 by default: a token is a page), and refused when ≤ 0 ("Not enough memory.
   Please try to increase --mem-fraction-static"; 0.5.23 "Loaded weights leave no GPU memory
   for the KV cache" with the smallest fraction that would start, 1 − B/T). The pool allocates
   size + page_size slots (slot 0 is padding) and logs "KV Cache is allocated. #tokens: N, K size:
   X GB, V size: X GB" (MLA: "KV size"); the scheduler repeats N as ``max_total_num_tokens=N``.

The cell (``profile_max_num_token``): K and V of ``max(1, kv_heads // attention_tp)`` heads per
layer (``ModelConfig.get_num_kv_heads``), or MLA's one latent of kv_lora_rank + qk_rope_head_dim,
times the layers that cache (hybrid Gated DeltaNet / Mamba models: only the full-attention ones,
0.5.3 on, whose recurrent state is a separate pool taken off ``rest`` first), times the KV dtype's
bytes (bf16 2, fp8_e4m3/e5m2 1, no per-token scales). Under DP attention every rank holds the
KV heads of an attention-TP group of tp // dp GPUs.

All functions take plain numbers or the book's :class:`~..physics.model.Model`; stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..physics.kv import layer_bytes_per_token, layer_specs
from ..physics.model import Model

__all__ = [
    "GIB", "RELEASES_READ", "NVIDIA_SMI_MIB", "CONTEXT_GIB", "parse_release", "Defaults",
    "default_mem_fraction_static", "multimodal_factor", "attention_tp", "cell_bytes", "model_cell_bytes",
    "profiled_tokens", "max_total_num_tokens", "minimum_mem_fraction_static", "kv_sizes_gib", "Pool",
    "token_pool", "pool_on",
]

GIB = 1 << 30

#: The wheels whose python/sglang/srt was read for these rules.
RELEASES_READ = ("0.4.3.post2", "0.4.4.post1", "0.4.4.post3", "0.4.6.post1", "0.4.7", "0.4.8", "0.4.9.post2", "0.5.3",
                 "0.5.6", "0.5.23")
#: Oldest and newest release whose default ``mem_fraction_static`` is modelled. Releases after 0.5.6
#: were not read for it, and 0.5.23 sizes it in arg_groups/memory_hook.py with CUDA-graph and DeepEP
#: reservations of its own: not modelled.
_DEFAULTS_FROM, _DEFAULTS_TO = (0, 4, 3), (0, 5, 6)
#: The profile formula (step 3) is the same from 0.4.3 to 0.5.23 (0.5.23:
#: mem_cache/kv_cache_configurator.py ``_profile_available_bytes``, which also takes a multimodal
#: reservation off ``rest``; not modelled: 0 for text models).
_PROFILE_TO = (0, 5, 23)

#: ``nvidia-smi --query-gpu=memory.total`` in MiB, the ``gpu_mem`` of ``server_args.py``
#: (``get_nvgpu_memory_capacity``; not PyTorch's smaller total). Sources: H100 80GB HBM3 "81559MiB"
#: and H200 "143771MiB" in public nvidia-smi tables (search-index ids 8134165308, 6737105653);
#: RTX 4090 24564 MiB (hardware.py's rtx-4090 source); A40/L40S 46068 MiB (sglang issue #1522's
#: nvidia-smi, "0MiB / 46068MiB" on an A40).
NVIDIA_SMI_MIB = {"h100-sxm": 81559, "h200": 143771, "rtx-4090": 24564, "l40s": 46068, "a40": 46068}

#: GiB the CUDA context, NCCL and custom all-reduce take before step 1 measures T: a hardware
#: measurement, given here as the band the logs show, for when T is not known. TP 1: vLLM's H100
#: log "Free memory on device (78.66/79.19 GiB)" (the same CUDA context, 0.53 GiB); TP > 1:
#: "Init torch distributed ends. mem usage=1.96 GB" (TP0) to 2.01 GB on 8 × H200 (sglang PR #11716).
CONTEXT_GIB = {1: 0.53, 2: 2.0}


def parse_release(release: str) -> tuple[int, int, int]:
    """(0, 5, 3) from "0.5.3", "0.5.3.post2" or "v0.5.3"; the post number does not change a rule."""
    parts = release.strip().lstrip("v").split(".")[:3]
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(f"not an SGLang release: {release!r}") from None
    return (numbers + (0, 0, 0))[:3]


@dataclass(frozen=True)
class Defaults:
    """What ``ServerArgs.__post_init__`` fills in when the flags are not given."""

    mem_fraction_static: float
    chunked_prefill_size: int
    cuda_graph_max_bs: int
    reserved_mib: float  # what the rule keeps out of the fraction (0: the fixed-table era)
    rule: str  # which form of the rule the release has


def _chunked_prefill_default(gpu_mem_mib: float, version: tuple) -> int:
    """``chunked_prefill_size`` by GPU memory: 0.4.3–0.4.6 2,048 below 25,000 MiB else 8,192 (0.4.7:
    16,384 above 180,000 MiB); 0.4.8–0.4.9 2,048 below 35 GiB, 8,192 below 160 GiB, else 16,384;
    0.5.3–0.5.6 adds 4,096 for 35–60 GiB. Only the 0.5 rule feeds it into the fraction."""
    if version < (0, 4, 8):
        if version >= (0, 4, 7) and gpu_mem_mib > 180_000:
            return 16384
        return 2048 if gpu_mem_mib < 25_000 else 8192
    if gpu_mem_mib < 35 * 1024:
        return 2048
    if version >= (0, 5, 0) and gpu_mem_mib < 60 * 1024:
        return 4096
    return 8192 if gpu_mem_mib < 160 * 1024 else 16384


def _cuda_graph_max_bs_default(gpu_mem_mib: float, tp: int, version: tuple) -> int:
    """``cuda_graph_max_bs`` (0.5.3/0.5.6 ``_handle_gpu_memory_settings``): 8 below 20 GiB; 16 (TP < 4;
    24 in 0.5.6) or 80 below 35 GiB; 32 or 160 below 60 GiB; 256 or 512 below 160 GiB; 512 above.
    Before 0.5 it was 160 where the GPU did not lower it (only the 0.5 rule feeds the fraction). The
    NPU rows of 0.5.6 are not modelled."""
    if version < (0, 5, 0):
        return 160
    small_card = 24 if version >= (0, 5, 6) else 16
    small, large = ((8, 8) if gpu_mem_mib < 20 * 1024 else (small_card, 80) if gpu_mem_mib < 35 * 1024
                    else (32, 160) if gpu_mem_mib < 60 * 1024 else (256, 512) if gpu_mem_mib < 160 * 1024
                    else (512, 512))
    return small if tp < 4 else large


def _table(parallel: int) -> float:
    """The 0.4.3–0.4.7 table: 0.88 for one GPU, 0.87 from 2, 0.85 from 4, 0.81 from 8, 0.79 from 16."""
    for at_least, fraction in ((16, 0.79), (8, 0.81), (4, 0.85), (2, 0.87)):
        if parallel >= at_least:
            return fraction
    return 0.88


def default_mem_fraction_static(gpu_mem_mib: float, release: str, tp: int = 1, pp: int = 1, *,
                                chunked_prefill_size: int | None = None, cuda_graph_max_bs: int | None = None,
                                dp_attention: bool = False, dp: int = 1, speculative: str = "") -> Defaults:
    """SGLang's automatic ``mem_fraction_static`` (before any multimodal factor: :func:`multimodal_factor`).

    * 0.4.3–0.4.6 (server_args.py): a fixed table by TP — 0.88 (TP 1), 0.87 (2+), 0.85 (4+), 0.81
      (8+), 0.79 (16+); 0.4.6 only up to 81,920 MiB, above it (H200, B200, MI300X)
      (gpu_mem − 13,312) ÷ gpu_mem (0.4.4.post1 and .post3 have no such branch).
    * 0.4.7: the table by TP × PP up to 81,920 MiB, else 0.88; above 180,000 MiB 0.79; above 96 GiB
      min(f + 48 GiB × (1 − f) ÷ gpu_mem, (gpu_mem − 18 GiB (20 with a draft)) ÷ gpu_mem); at or
      below 96 GiB × 0.95 with a speculative algorithm.
    * 0.4.8–0.4.10: reserved = (2.8 + tp·pp/10) GiB below 35 GiB, (9.5 + tp·pp/2) GiB below 90 GiB,
      (12 + tp·pp/2) GiB below 160 GiB, else 32 GiB; + 2 GiB with a speculative algorithm, + 4 GiB
      with DP attention; fraction = round((gpu_mem − reserved) ÷ gpu_mem, 3).
    * 0.5.3–0.5.6 (``_handle_gpu_memory_settings``): reserved = 512 MiB + 1.5 MiB × max(chunked
      prefill, 2,048) + 2 MiB × cuda_graph_max_bs + tp·pp/8 GiB (+ 3 (and 1.5 above 300) MiB ×
      cuda_graph_max_bs × dp with DP attention), at least 10 GiB on a GPU over 60 GiB, + 6 GiB for a
      STANDALONE draft or + 2 GiB for EAGLE-type drafts; fraction = round(…, 3). (0.5.6 adds
      piecewise-CUDA-graph tokens ÷ 4 when that opt-in is on: not modelled.) 0.5.0–0.5.2 were not
      read; 0.4.10 → 0.5.3 is where the form changed.
    """
    version = parse_release(release)
    if not _DEFAULTS_FROM <= version <= _DEFAULTS_TO:
        raise ValueError(f"SGLang {release}: the automatic mem_fraction_static is modelled for 0.4.3–0.5.6 only "
                         "(later releases size it in arg_groups/memory_hook.py); give --mem-fraction-static")
    chunked = chunked_prefill_size if chunked_prefill_size is not None else _chunked_prefill_default(gpu_mem_mib,
                                                                                                   version)
    graph_bs = cuda_graph_max_bs if cuda_graph_max_bs is not None else _cuda_graph_max_bs_default(gpu_mem_mib, tp,
                                                                                                 version)
    parallel = tp * pp
    if version < (0, 4, 7):
        if gpu_mem_mib <= 81920 or version < (0, 4, 6):
            return Defaults(_table(tp), chunked, graph_bs, 0.0, "0.4.3–0.4.6: fixed table by TP")
        return Defaults((gpu_mem_mib - 13312) / gpu_mem_mib, chunked, graph_bs, 13312.0,
                        "0.4.6: 13 GiB kept above 80 GiB")
    if version < (0, 4, 8):
        fraction = _table(parallel) if gpu_mem_mib <= 81920 else 0.88
        if gpu_mem_mib > 180_000:
            fraction = 0.79
        elif gpu_mem_mib > 96 * 1024:
            kept = (20 if speculative else 18) * 1024
            fraction = min(fraction + 48 * 1024 * (1 - fraction) / gpu_mem_mib, (gpu_mem_mib - kept) / gpu_mem_mib)
        elif speculative:
            fraction *= 0.95
        return Defaults(fraction, chunked, graph_bs, 0.0, "0.4.7: table by TP·PP, adjusted above 96 GiB")
    if version < (0, 5, 0):
        gib = gpu_mem_mib / 1024
        reserved = ((2.8 + parallel / 10) if gib < 35 else (9.5 + parallel / 2) if gib < 90
                    else (12 + parallel / 2) if gib < 160 else 32.0) * 1024
        reserved += (2048 if speculative else 0) + (4096 if dp_attention else 0)
        return Defaults(round((gpu_mem_mib - reserved) / gpu_mem_mib, 3), chunked, graph_bs, reserved,
                        "0.4.8–0.4.10: reserved memory by GPU class")
    reserved = 512 + max(chunked, 2048) * 1.5 + graph_bs * 2 + parallel / 8 * 1024
    if dp_attention:
        reserved += graph_bs * dp * 3 + (graph_bs * dp * 1.5 if graph_bs > 300 else 0)
    if gpu_mem_mib > 60 * 1024:
        reserved = max(reserved, 10 * 1024)
    if speculative:
        reserved += 6 * 1024 if speculative.upper() == "STANDALONE" else 0 if speculative.upper() == "NGRAM" else 2048
    return Defaults(round((gpu_mem_mib - reserved) / gpu_mem_mib, 3), chunked, graph_bs, reserved,
                    "0.5.3–0.5.6: reserved from chunked prefill and CUDA-graph batch")


def multimodal_factor(release: str, *, given: bool, vit_layers: int = 24, vit_hidden: int = 1024) -> float:
    """What a multimodal model's ``mem_fraction_static`` is multiplied by.

    0.4.3–0.4.4: × 0.95 in ``ModelRunner.__init__`` (model_runner.py), *also* when the fraction was
    given; 0.4.6–0.4.8: × 0.90 there, the same way; 0.4.9: × 0.90 in server_args.py, only for the
    automatic fraction; 0.5.3–0.5.6 (``adjust_mem_fraction_for_vlm``, automatic only): × 0.95 ×
    clamp(1 − 0.1 × (vit_layers·vit_hidden² ÷ (24·1024²) − 1), 0.8, 1.05).
    """
    version = parse_release(release)
    if version < (0, 4, 6):
        return 0.95
    if version < (0, 4, 9):
        return 0.90
    if given:
        return 1.0
    if version < (0, 5, 0):
        return 0.90
    ratio = vit_layers * vit_hidden ** 2 / (24 * 1024 ** 2)
    return 0.95 * max(0.8, min(1.05, 1.0 - 0.1 * (ratio - 1.0)))


def attention_tp(tp: int, dp: int = 1, dp_attention: bool = False) -> int:
    """GPUs that split one attention layer's heads: tp, or tp ÷ dp under ``--enable-dp-attention``."""
    if dp_attention:
        if dp < 1 or tp % dp:
            raise ValueError(f"DP attention needs tp divisible by dp (tp {tp}, dp {dp})")
        return tp // dp
    return tp


def cell_bytes(*, layers: int, kv_dtype_bytes: float, kv_heads: int = 0, head_dim: int = 0,
               attn_tp: int = 1, mla_dim: int = 0) -> int:
    """Bytes one token takes in one rank's pool (``profile_max_num_token``'s ``cell_size``).

    GQA/MHA: max(1, kv_heads // attn_tp) × head_dim × layers × 2 × dtype; MLA (``mla_dim`` =
    kv_lora_rank + qk_rope_head_dim, replicated on every rank): mla_dim × layers × dtype.
    """
    if mla_dim:
        return int(mla_dim * layers * kv_dtype_bytes)
    return int(max(1, kv_heads // attn_tp) * head_dim * layers * 2 * kv_dtype_bytes)


def model_cell_bytes(model: Model, kv_dtype: str = "bf16", attn_tp: int = 1) -> int:
    """:func:`cell_bytes` of a book :class:`Model`, through physics.kv (the layers that cache).

    Refused where SGLang's pool is another shape than one cell a token: windowed layers (its hybrid
    SWA pool, ``swa_full_tokens_ratio``), DeepSeek-V3.2's indexer (NSA pool), MiniMax-M3's index
    keys, per-vector-scale layouts (SGLang's fp8 KV is per-tensor).
    """
    if model.windowed_layers:
        raise ValueError("SGLang keeps windowed layers in a separate SWA pool (swa_full_tokens_ratio): not modelled")
    if model.indexer_dim:
        raise ValueError("SGLang's NSA pool for DeepSeek-V3.2's indexer is not modelled")
    if any(getattr(s, "index_dim", 0) for s in layer_specs(model)):
        # python/sglang/srt/models/minimax_m3.py keeps the index keys in a pool of its own: not read here
        raise ValueError("SGLang's pool for MiniMax-M3's sparse attention (its index keys) is not modelled")
    if kv_dtype not in ("bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2"):
        raise ValueError(f"SGLang KV dtype {kv_dtype!r} is not modelled (auto/bf16/fp16, fp8_e4m3, fp8_e5m2)")
    heads = None if model.is_mla else max(1, model.kv_heads // attn_tp)
    cell = int(model.kv_layers * layer_bytes_per_token(model, kv_dtype, kv_heads=heads))
    if cell <= 0:
        # profile_max_num_token divides by the cell: a 0-byte token (a latent or head of width 0, no
        # layer that caches) has no pool to size, SGLang would divide by zero
        raise ValueError("a token takes 0 bytes of SGLang's KV pool (check the head or latent dimensions and the "
                         "layers that cache): no pool to size")
    return cell


def profiled_tokens(free_after_weights_gib: float, free_at_start_gib: float, mem_fraction_static: float,
                    cell: int, state_gib: float = 0.0) -> int:
    """``profile_max_num_token``: int((B − T(1 − f) − state) × 2^30 // cell); ``state_gib`` is what a
    hybrid model's recurrent-state pool takes off ``rest`` first (0.5.3 on). May be ≤ 0."""
    rest = free_after_weights_gib - free_at_start_gib * (1 - mem_fraction_static) - state_gib
    if cell <= 0:
        raise ValueError(f"a KV cell of {cell} bytes: SGLang's pool is sized in cells, none to size here")
    return int(rest * GIB // cell)


def max_total_num_tokens(profiled: int, page_size: int = 1, max_total_tokens: int | None = None) -> int:
    """``init_memory_pool``: min(profiled, --max-total-tokens), rounded down to a page; ≤ 0: refused."""
    tokens = profiled if max_total_tokens is None else min(profiled, max_total_tokens)
    return tokens // page_size * page_size


def minimum_mem_fraction_static(free_after_weights_gib: float, free_at_start_gib: float) -> float:
    """The smallest fraction that leaves a positive pool: 1 − B/T (what 0.5.23 prints on refusal; 0.5.6 does not)."""
    return 1 - free_after_weights_gib / free_at_start_gib


def kv_sizes_gib(tokens: int, cell: int, page_size: int = 1, mla: bool = False) -> tuple[float, float]:
    """("K size", "V size") the pool logs, in GiB: (tokens + page_size) slots of half the cell each;
    MLA logs one "KV size" (returned first, 0 second)."""
    total = (tokens + page_size) * cell / GIB
    return (total, 0.0) if mla else (total / 2, total / 2)


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
    free_estimated: bool = False  # T came from CONTEXT_GIB, not from the hardware


def token_pool(model: Model, gpu_visible_gib: float, tp: int, release: str, *, weight_gib_per_gpu: float,
               mem_fraction_static: float | None = None, gpu_mem_mib: float | None = None,
               kv_dtype: str = "bf16", page_size: int = 1, pp: int = 1, dp: int = 1, dp_attention: bool = False,
               max_total_tokens: int | None = None, free_at_start_gib: float | None = None,
               multimodal: bool = False, state_gib: float = 0.0) -> Pool:
    """SGLang's pool for ``model`` on one GPU of a TP group: what the lead's calculators can call.

    ``weight_gib_per_gpu`` is one rank's weights (physics.weights); T is ``free_at_start_gib`` when
    the reader has it (the "Load weight begin" line), else the GPU's visible memory less
    :data:`CONTEXT_GIB` (``free_estimated``). Without ``mem_fraction_static`` the release's default is
    taken, which needs ``gpu_mem_mib`` (nvidia-smi's total: :data:`NVIDIA_SMI_MIB`).
    """
    version = parse_release(release)
    if not _DEFAULTS_FROM <= version <= _PROFILE_TO:
        raise ValueError(f"SGLang {release} was not read (rules: 0.4.3 to 0.5.23)")
    given = mem_fraction_static is not None
    if not given:
        if gpu_mem_mib is None:
            raise ValueError("the automatic mem_fraction_static needs nvidia-smi's total (gpu_mem_mib)")
        mem_fraction_static = default_mem_fraction_static(gpu_mem_mib, release, tp, pp, dp_attention=dp_attention,
                                                          dp=dp).mem_fraction_static
    if multimodal:
        mem_fraction_static *= multimodal_factor(release, given=given)
    estimated = free_at_start_gib is None
    if estimated:
        free_at_start_gib = gpu_visible_gib - CONTEXT_GIB[1 if tp * pp == 1 else 2]
    free_after = free_at_start_gib - weight_gib_per_gpu
    cell = model_cell_bytes(model, kv_dtype, attention_tp(tp, dp, dp_attention))
    rest = free_after - free_at_start_gib * (1 - mem_fraction_static) - state_gib
    tokens = max_total_num_tokens(profiled_tokens(free_after, free_at_start_gib, mem_fraction_static, cell,
                                                  state_gib), page_size, max_total_tokens)
    problem = ""
    if tokens <= 0:
        problem = (f"Not enough memory: the weights leave no KV pool under mem_fraction_static "
                   f"{mem_fraction_static:.3f}; the smallest that starts is "
                   f"{minimum_mem_fraction_static(free_after, free_at_start_gib):.4f}")
        tokens = 0
    k, v = kv_sizes_gib(tokens, cell, page_size, model.is_mla) if tokens else (0.0, 0.0)
    return Pool(release, mem_fraction_static, free_at_start_gib, free_after, rest, cell, tokens, k, v, problem,
                estimated)


def pool_on(model: Model, gpu, tp: int, release: str, *, weight_gib_per_gpu: float, **settings) -> Pool:
    """:func:`token_pool` on a book GPU (hardware.GPU): its visible memory, and nvidia-smi's total
    where :data:`NVIDIA_SMI_MIB` has it (needed only when the fraction is SGLang's default)."""
    settings.setdefault("gpu_mem_mib", NVIDIA_SMI_MIB.get(gpu.id))
    return token_pool(model, gpu.visible / GIB, tp, release, weight_gib_per_gpu=weight_gib_per_gpu, **settings)
