"""SGLang's KV-cache memory budget, computed the way SGLang computes it.

Read from SGLang's own source, in the released wheels on PyPI (python/sglang/srt/...), releases
0.4.3.post2, 0.4.4.post1, 0.4.4.post3, 0.4.6.post1, 0.4.7, 0.4.8, 0.4.9.post2, 0.4.10, 0.5.3, 0.5.6 and 0.5.23. What a
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
bytes (bf16 2, fp8_e4m3/e5m2 1, no per-token scales).

DP attention (``--tp T --dp D --enable-dp-attention``; 0.5.23 reads it as ``--attn-dp-size D``,
arg_groups/parallel_hook.py ``handle_deprecated_dp_attention``): layers/dp_attention.py (0.5.6,
https://github.com/sgl-project/sglang/blob/v0.5.6/python/sglang/srt/layers/dp_attention.py)
``compute_dp_attention_world_info`` makes D attention groups of ``attn_tp_size = T // D`` GPUs, and
``profile_max_num_token`` asks ``get_num_kv_heads(get_attention_tp_size())``: every rank caches
max(1, kv_heads // (T // D)) heads (MLA: the whole latent, as under plain TP), for the requests of its
own DP rank. Each rank profiles and sizes its own pool by the same formula (T and B are still minima over
all ranks), so the count printed is one DP rank's; D ranks hold D such pools. server_args changes two
things automatically: the reserve of the automatic fraction grows by 3 MiB (4.5 above a graph batch of
300) × cuda_graph_max_bs × D (0.4.8–0.4.10: a flat 4 GiB), and, after the fraction is set, each rank's
chunked prefill becomes chunked_prefill_size // D (:attr:`Defaults.chunked_prefill_per_rank`).

DeepSeek-V3.2 (NSA): the cell adds the indexer's FP8 keys and their scales per layer
(:func:`nsa_indexer_bytes`). Beside this module: the sliding-window pool (:mod:`.sglang_swa`), the
speculative flags and headroom (:mod:`.sglang_speculation`), the LoRA buffers (:mod:`.sglang_lora`), and
one rank's pool put together from them all (:mod:`.sglang_token_pool`).

All functions take plain numbers or the book's :class:`~..physics.model.Model`; stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..physics.kv import layer_bytes_per_token, layer_specs
from ..physics.model import Model

__all__ = [
    "GIB", "RELEASES_READ", "NVIDIA_SMI_MIB", "CONTEXT_GIB", "parse_release", "Defaults",
    "default_mem_fraction_static", "multimodal_factor", "attention_tp", "cell_bytes", "model_cell_bytes",
    "profiled_tokens", "max_total_num_tokens", "minimum_mem_fraction_static", "kv_sizes_gib", "nsa_indexer_bytes",
    "NSA_PAGE_SIZE", "NSA_QUANT_BLOCK", "nsa_kv_size_gib", "prefill_graph_sizes",
]

GIB = 1 << 30

#: The wheels whose python/sglang/srt was read for these rules.
RELEASES_READ = ("0.4.3.post2", "0.4.4.post1", "0.4.4.post3", "0.4.6.post1", "0.4.7", "0.4.8", "0.4.9.post2", "0.4.10",
                 "0.5.3", "0.5.6", "0.5.23")
#: Oldest and newest release whose default ``mem_fraction_static`` is modelled (0.5.7–0.5.22 were not
#: read: they take 0.5.6's rule, the nearest read below them).
_DEFAULTS_FROM, _DEFAULTS_TO = (0, 4, 3), (0, 5, 23)
#: 0.5.23 moved the rule to arg_groups/memory_hook.py ``handle_gpu_memory_settings``.
_MEMORY_HOOK = (0, 5, 23)
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
    chunked_prefill_size: int  # the size the fraction was computed from
    cuda_graph_max_bs: int
    reserved_mib: float  # what the rule keeps out of the fraction (0: the fixed-table era)
    rule: str  # which form of the rule the release has
    #: what each DP rank prefills in one chunk: chunked_prefill_size // dp under DP attention from 0.5.3
    #: (0.5.6 server_args.py ``_handle_data_parallelism``, 0.5.23 arg_groups/parallel_hook.py
    #: ``handle_data_parallelism``), divided *after* the fraction was computed from the whole size
    chunked_prefill_per_rank: int = 0


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


def _memory_hook_defaults(gpu_mem_mib: float, tp: int) -> tuple[int, int]:
    """0.5.23's (chunked_prefill_size, decode CUDA-graph max_bs) by GPU memory (arg_groups/memory_hook.py
    ``handle_gpu_memory_settings``): below 20 GiB (2,048, 8); below 35 GiB (4,096, 48 or 160 from TP 4);
    below 60 GiB (4,096, 32 or 160); below 160 GiB (8,192, 256 or 512); else (16,384, 512)."""
    if gpu_mem_mib < 20 * 1024:
        return 2048, 8
    if gpu_mem_mib < 35 * 1024:
        return 4096, 48 if tp < 4 else 160
    if gpu_mem_mib < 60 * 1024:
        return 4096, 32 if tp < 4 else 160
    if gpu_mem_mib < 160 * 1024:
        return 8192, 256 if tp < 4 else 512
    return 16384, 512


def prefill_graph_sizes(max_bs: int) -> tuple[int, ...]:
    """The token counts 0.5.23 captures prefill CUDA graphs for (arg_groups/cuda_graph_hook.py
    ``generate_prefill_cuda_graph_batch_sizes``): 4–32 by 4, 48–256 by 16, 288–512 by 32, 576–1,024 by 64,
    1,280–4,096 by 256, then by 512, up to ``max_bs``."""
    sizes = (list(range(4, 33, 4)) + list(range(48, 257, 16)) + list(range(288, 513, 32))
             + list(range(576, 1025, 64)) + list(range(1280, 4097, 256)) + list(range(4608, max_bs + 1, 512)))
    return tuple(n for n in sizes if n <= max_bs)


def _graph_reserve_0523(graph_bs: int, chunked: int, *, mla: bool, prefill_graph: bool, dp_attention: bool,
                        dp: int, max_total_tokens: int | None) -> float:
    """MiB ``reserve_for_graph_mb`` keeps (0.5.23, no disaggregation): 2 × decode max_bs; under DP attention
    3 (and 1.5 more above 300) × max_bs × attn_dp_size; with the prefill graph (breakable, the CUDA default)
    8 MiB a captured size up to the chunked prefill (capped by --max-total-tokens), or 1.5 GiB for MLA."""
    reserved = graph_bs * 2.0
    if dp_attention:
        reserved += graph_bs * dp * 3 + (graph_bs * dp * 1.5 if graph_bs > 300 else 0)
    if prefill_graph:
        if mla:
            reserved += 1.5 * 1024
        else:
            prefill_max = chunked if max_total_tokens is None else min(chunked, max_total_tokens)
            reserved += len(prefill_graph_sizes(prefill_max)) * 8
    return reserved


def default_mem_fraction_static(gpu_mem_mib: float, release: str, tp: int = 1, pp: int = 1, *,
                                chunked_prefill_size: int | None = None, cuda_graph_max_bs: int | None = None,
                                dp_attention: bool = False, dp: int = 1, speculative: str = "",
                                mla: bool = False, prefill_graph: bool | None = None, deepep: bool = False,
                                max_running_requests: int | None = None,
                                max_total_tokens: int | None = None) -> Defaults:
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
    * 0.5.23 (arg_groups/memory_hook.py ``handle_gpu_memory_settings`` in the PyPI wheel sglang-0.5.23,
      https://github.com/sgl-project/sglang/blob/v0.5.23/python/sglang/srt/arg_groups/memory_hook.py; run
      after the deprecated ``--enable-dp-attention --dp-size D`` became ``--attn-dp-size D``): the same
      base, 512 MiB + 1.5 MiB × max(chunked prefill, 2,048) + tp·pp/8 GiB, plus ``reserve_for_graph_mb``
      (:func:`_graph_reserve_0523`:
      the decode graphs and DP attention's padding as in 0.5.6, and now the prefill CUDA graph that 0.5.23
      captures by default on CUDA — breakable, off under pipeline parallelism — 8 MiB a captured size, 1.5 GiB
      with an MLA backend), the 10 GiB floor above 60 GiB, then + 2 GiB for DeepEP's all-to-all buffers
      (``reserve_for_deepep_a2a_mb``, ``--moe-a2a-backend deepep``) on top of the floor. No draft term: the
      speculative reserve of 0.5.6 is gone. The defaults change below 35 GiB (:func:`_memory_hook_defaults`:
      4,096 chunked prefill and graphs to 48/160, where 0.5.6 has 2,048 and 24/80); ``--max-running-requests``
      below the graph batch lowers it. Not modelled: ``SGLANG_ENABLE_POST_CAPTURE_KV_SIZING`` (off by default,
      environ.py), PD disaggregation's decode and prefill roles, XPU's 2 GiB and AMD aiter's × 0.85.

    Under DP attention every DP rank then prefills ``chunked_prefill_size // dp`` (``chunked_prefill_per_rank``,
    0.5.3 on), the fraction having been computed from the undivided size.
    """
    version = parse_release(release)
    if not _DEFAULTS_FROM <= version <= _DEFAULTS_TO:
        raise ValueError(f"SGLang {release}: the automatic mem_fraction_static is modelled for 0.4.3–0.5.23 only; "
                         "give --mem-fraction-static")
    if dp_attention and (dp < 1 or tp % dp):
        raise ValueError(f"DP attention needs tp divisible by dp (tp {tp}, dp {dp}): server_args.py asserts it")
    parallel = tp * pp
    if version >= _MEMORY_HOOK:
        auto_chunked, auto_bs = _memory_hook_defaults(gpu_mem_mib, tp)
        chunked = chunked_prefill_size if chunked_prefill_size is not None else auto_chunked
        graph_bs = cuda_graph_max_bs if cuda_graph_max_bs is not None else auto_bs
        if cuda_graph_max_bs is None and max_running_requests is not None:
            graph_bs = min(graph_bs, max_running_requests)
        if prefill_graph is None:
            prefill_graph = pp == 1  # apply_cuda_graph_compatibility turns the breakable prefill graph off under PP
        reserved = 512 + max(chunked, 2048) * 1.5 + parallel / 8 * 1024
        reserved += _graph_reserve_0523(graph_bs, chunked, mla=mla, prefill_graph=prefill_graph,
                                        dp_attention=dp_attention, dp=dp, max_total_tokens=max_total_tokens)
        if gpu_mem_mib > 60 * 1024:
            reserved = max(reserved, 10 * 1024)
        reserved += 2048 if deepep else 0
        return Defaults(round((gpu_mem_mib - reserved) / gpu_mem_mib, 3), chunked, graph_bs, reserved,
                        "0.5.23: memory_hook.py, reserved from chunked prefill and the decode and prefill graphs",
                        chunked // dp if dp_attention else chunked)
    chunked = chunked_prefill_size if chunked_prefill_size is not None else _chunked_prefill_default(gpu_mem_mib,
                                                                                                   version)
    graph_bs = cuda_graph_max_bs if cuda_graph_max_bs is not None else _cuda_graph_max_bs_default(gpu_mem_mib, tp,
                                                                                                 version)
    per_rank = chunked // dp if dp_attention and version >= (0, 5, 0) else chunked
    if version < (0, 4, 7):
        if gpu_mem_mib <= 81920 or version < (0, 4, 6):
            return Defaults(_table(tp), chunked, graph_bs, 0.0, "0.4.3–0.4.6: fixed table by TP", per_rank)
        return Defaults((gpu_mem_mib - 13312) / gpu_mem_mib, chunked, graph_bs, 13312.0,
                        "0.4.6: 13 GiB kept above 80 GiB", per_rank)
    if version < (0, 4, 8):
        fraction = _table(parallel) if gpu_mem_mib <= 81920 else 0.88
        if gpu_mem_mib > 180_000:
            fraction = 0.79
        elif gpu_mem_mib > 96 * 1024:
            kept = (20 if speculative else 18) * 1024
            fraction = min(fraction + 48 * 1024 * (1 - fraction) / gpu_mem_mib, (gpu_mem_mib - kept) / gpu_mem_mib)
        elif speculative:
            fraction *= 0.95
        return Defaults(fraction, chunked, graph_bs, 0.0, "0.4.7: table by TP·PP, adjusted above 96 GiB", per_rank)
    if version < (0, 5, 0):
        gib = gpu_mem_mib / 1024
        reserved = ((2.8 + parallel / 10) if gib < 35 else (9.5 + parallel / 2) if gib < 90
                    else (12 + parallel / 2) if gib < 160 else 32.0) * 1024
        reserved += (2048 if speculative else 0) + (4096 if dp_attention else 0)
        return Defaults(round((gpu_mem_mib - reserved) / gpu_mem_mib, 3), chunked, graph_bs, reserved,
                        "0.4.8–0.4.10: reserved memory by GPU class", per_rank)
    reserved = 512 + max(chunked, 2048) * 1.5 + graph_bs * 2 + parallel / 8 * 1024
    if dp_attention:
        reserved += graph_bs * dp * 3 + (graph_bs * dp * 1.5 if graph_bs > 300 else 0)
    if gpu_mem_mib > 60 * 1024:
        reserved = max(reserved, 10 * 1024)
    if speculative:
        reserved += 6 * 1024 if speculative.upper() == "STANDALONE" else 0 if speculative.upper() == "NGRAM" else 2048
    return Defaults(round((gpu_mem_mib - reserved) / gpu_mem_mib, 3), chunked, graph_bs, reserved,
                    "0.5.3–0.5.6: reserved from chunked prefill and CUDA-graph batch", per_rank)


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


#: SGLang's NSA pool (mem_cache/memory_pool.py ``NSATokenToKVPool``, 0.5.6): the indexer's keys are FP8 in
#: blocks of 128 with one fp32 scale (4 bytes) a block, stored as uint8; the pool asserts ``page_size == 64``
#: and server_args.py sets it for DeepSeek NSA.
NSA_QUANT_BLOCK, NSA_PAGE_SIZE = 128, 64


#: The config model_types SGLang's ``is_deepseek_nsa`` accepts (DeepseekV3ForCausalLM, DeepseekV32ForCausalLM).
_NSA_MODEL_TYPES = ("deepseek_v32", "deepseek_v3")


def nsa_indexer_bytes(index_head_dim: int) -> int:
    """Bytes of one token's indexer key in one layer: index_head_dim + index_head_dim // 128 × 4 (uint8),
    what 0.5.6's ``profile_max_num_token`` adds to the MLA cell for DeepSeek-V3.2 (``is_deepseek_nsa``)."""
    return index_head_dim + index_head_dim // NSA_QUANT_BLOCK * 4


def _uniform_layers(model: Model) -> bool:
    """Every KV layer takes the same bytes a token (windows aside): SGLang's one ``cell_size`` a layer."""
    specs = {s for s in layer_specs(model) if s.caches_kv}
    return len({s.bytes_per_token("bf16", 1) for s in specs}) <= 1


def model_cell_bytes(model: Model, kv_dtype: str = "bf16", attn_tp: int = 1, release: str = "0.5.6") -> int:
    """:func:`cell_bytes` of a book :class:`Model`, through physics.kv (the layers that cache).

    Windowed layers count as full ones: ``profile_max_num_token`` sizes every layer for every token, and
    :func:`.sglang_swa.swa_split` shares the result out where the SWA pool applies. DeepSeek-V3.2
    (``indexer_dim``): the MLA latent plus :func:`nsa_indexer_bytes` a layer (0.5.6 on; 0.5.3's profile
    leaves the indexer out, and releases before have no NSA; :func:`.sglang_token_pool.token_pool` refuses
    other indexers, GLM-5's DSA not being ``is_deepseek_nsa`` in 0.5.6). Refused: layers of different shapes (Gemma 4, MiMo-V2, DeepSeek-V4:
    SGLang's per-layer-kind geometry is not read here), MiniMax-M3's index keys, per-vector-scale layouts
    (SGLang's fp8 KV is per-tensor).
    """
    if any(getattr(s, "index_dim", 0) for s in layer_specs(model)):
        # python/sglang/srt/models/minimax_m3.py keeps the index keys in a pool of its own: not read here
        raise ValueError("SGLang's pool for MiniMax-M3's sparse attention (its index keys) is not modelled")
    if model.layer_specs and not _uniform_layers(model):
        raise ValueError("SGLang sizes layers of different shapes (Gemma 4, MiMo-V2, DeepSeek-V4) with a geometry "
                         "of their own: not modelled")
    if kv_dtype not in ("bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2"):
        raise ValueError(f"SGLang KV dtype {kv_dtype!r} is not modelled (auto/bf16/fp16, fp8_e4m3, fp8_e5m2)")
    if model.indexer_dim:
        if parse_release(release) < (0, 5, 6) or parse_release(release) >= (0, 5, 23):
            raise ValueError(f"SGLang {release}'s NSA pool for DeepSeek-V3.2's indexer is not modelled (read: 0.5.6)")
        dtype_bytes = 1 if kv_dtype.startswith("fp8") else 2
        return int(model.kv_layers * ((model.latent_dim + model.rope_dim) * dtype_bytes
                                      + nsa_indexer_bytes(model.indexer_dim)))
    heads = None if model.is_mla else max(1, model.kv_heads // attn_tp)
    plain = model if not model.windowed_layers else replace(model, window=0, window_layers=0)
    cell = int(model.kv_layers * layer_bytes_per_token(plain, kv_dtype, kv_heads=heads))
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


def nsa_kv_size_gib(tokens: int, layers: int, latent_rope: int, kv_dtype_bytes: int, index_head_dim: int,
                    rope_dim: int = 64) -> float:
    """The "KV size" an NSA pool logs (0.5.6 ``NSATokenToKVPool.get_kv_size_bytes``): the latent buffers,
    (tokens + 64) slots of kv_lora_rank + rope (bf16), or, FP8, kv_lora_rank + kv_lora_rank ÷ 128 × 4 + rope × 2
    bytes; plus the indexer's (tokens + 65) // 64 pages of 64 × :func:`nsa_indexer_bytes`, every layer."""
    if kv_dtype_bytes == 1:
        rank = latent_rope - rope_dim
        latent = rank + rank // NSA_QUANT_BLOCK * 4 + rope_dim * 2
    else:
        latent = latent_rope * kv_dtype_bytes
    slots = tokens + NSA_PAGE_SIZE
    indexer = (tokens + NSA_PAGE_SIZE + 1) // NSA_PAGE_SIZE * NSA_PAGE_SIZE * nsa_indexer_bytes(index_head_dim)
    return layers * (slots * latent + indexer) / GIB


