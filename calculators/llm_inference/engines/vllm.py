"""vLLM's KV-cache memory accounting, computed the way vLLM computes it.

Everything here was read from vLLM's own source, in the released wheels on PyPI (the commit of
each release is the one its ``vllm/_version.py`` records):

    0.8.5, 0.9.2, 0.10.1.1 (1da94e673), 0.11.0 (f71952c1c), 0.12.0 (4fd9d6a85),
    0.19.1 (b1388b1fb), 0.20.0 (b8160878f), 0.21.0 (ad7125a43), 0.27.0 (4bdc8a788),
    0.28.0 (2cf0a6915), 0.31.0 (db9527a46), 0.33.0 (4ba787ec9)

(the wheels' commits; vllm_releases.RELEASES lists those of the source archives, which differ for
0.21.0 and 0.26.0: see engines/NOTES.md)

The startup sequence, in the v1 engine (``vllm/v1/worker/gpu_worker.py``):

1. *Requested memory* = total device memory the driver reports (``cudaMemGetInfo``'s total, e.g.
   79.19 GiB on an H100 80GB) × ``gpu_memory_utilization``. Per GPU, per vLLM instance.
2. A profiling forward pass at ``max_num_batched_tokens`` tokens (spread over
   min(tokens, ``max_num_seqs``) dummy requests), then a dummy sampler pass over those requests.
3. *Available KV cache memory* = requested − weights − activation peak of that pass − non-torch
   memory (CUDA context, NCCL buffers, cuBLAS workspaces) − the CUDA-graph estimate (0.20.0 on).
4. That memory is cut into blocks of ``block_size`` tokens (16 by default) over all layers, and the
   engine logs "GPU KV cache size: N tokens" and "Maximum concurrency for L tokens per request".

Under tensor parallelism every rank runs steps 1–3 on its own GPU; the engine then keeps the
*smallest* block count of all ranks (``get_kv_cache_configs``: "Change the num_blocks of each rank
to the smallest among all ranks"), so one busy GPU shrinks the cache of all.

All functions take plain numbers (bytes, tokens, head counts) and no model catalogue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from . import vllm_releases
from .vllm_releases import parse_version
# The vocabulary is padded to a multiple of 64 (vllm_weights), then split evenly over the TP ranks.
from .vllm_weights import VOCAB_PADDING, padded_vocab

__all__ = [
    "GIB", "MIB", "DEFAULT_BLOCK_SIZE", "CUDA_GRAPH_ESTIMATE_SINCE", "TOKENS_FROM_CONCURRENCY_SINCE",
    "FP8_DS_MLA_BYTES_PER_TOKEN", "FP8_DS_MLA_LAYOUT", "MLA_HEAD_SIZE_DEEPSEEK",
    "SAMPLER_BYTES_PER_LOGIT", "FORWARD_ACTIVATION_FACTORS", "VOCAB_PADDING",
    "parse_version", "default_gpu_memory_utilization", "default_scheduler_limits",
    "requested_memory", "kv_cache_budget", "activation_peak_estimate", "moe_workspace_bytes",
    "page_size_bytes", "sliding_window_tokens", "chunked_local_tokens", "blocks_per_request",
    "LayerGroup", "kv_cache_groups", "blocks_and_tokens", "max_concurrency",
    "gpu_kv_cache_size_tokens", "kv_heads_per_rank", "kv_replication_factor", "legal_tp_sizes",
    "pipeline_stage_layers",
]

GIB = 1 << 30
MIB = 1 << 20

#: ``CacheConfig.DEFAULT_BLOCK_SIZE = 16`` (vllm/config/cache.py, 0.33.0); the same 16 since the
#: v1 engine began. Attention backends may raise it (FlashMLA uses 64; DeepSeek-V4 logs
#: "Setting kv cache block size to 256"), and ``--block-size`` overrides it.
DEFAULT_BLOCK_SIZE = 16

#: First release that subtracts a CUDA-graph memory estimate by default (vllm_releases has every rule)
#: (``VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS`` defaults to "1" in vllm/envs.py of 0.20.0, "0" in
#: 0.19.1) — and the same release raised ``gpu_memory_utilization`` from 0.9 to 0.92 to make up for
#: it: PR #38284 "[Startup][UX] Enable CUDAGraph memory profiling by default" (opened 2026-03-26,
#: "slated for default enablement in v0.21"), first shipped in the 0.20.0 wheel. vLLM's own log
#: line says "(default since v0.21.0)", one release later than the code.
CUDA_GRAPH_ESTIMATE_SINCE = (0, 20)

#: From 0.21.0 "GPU KV cache size" is ``int(max_concurrency × max_model_len)``
#: (``_report_kv_cache_config``, vllm/v1/core/kv_cache_utils.py of 0.21.0, line 1708); up to
#: 0.20.0 it was ``num_blocks // len(kv_cache_groups) × block_size`` (0.11.0, line 1080). The two
#: agree for one full-attention group and differ a lot for hybrid models: vLLM issue #43308 saw
#: Gemma 4 go from ~55k to ~525k "tokens" between 0.20.0 and 0.21.0 with the same ~50 GB.
TOKENS_FROM_CONCURRENCY_SINCE = (0, 21)

#: ``fp8_ds_mla`` (DeepSeek-V3.2 sparse MLA, FlashMLA "FP8 with scale" format): per token and
#: layer 512 fp8 NoPE values + 4 fp32 scales (one per 128 values) + 64 bf16 RoPE values.
#: vllm/v1/attention/backends/mla/flashmla_sparse.py (0.33.0) documents the layout;
#: ``MLAAttentionSpec.page_size_bytes`` returns ``block_size * 656`` (kv_cache_interface.py, 0.11.0).
FP8_DS_MLA_LAYOUT = {"nope_fp8": 512 * 1, "scales_fp32": 4 * 4, "rope_bf16": 64 * 2}
FP8_DS_MLA_BYTES_PER_TOKEN = sum(FP8_DS_MLA_LAYOUT.values())  # 656

#: MLA caches one latent of kv_lora_rank + qk_rope_head_dim = 512 + 64 for DeepSeek-V2/V3/R1 as a
#: single "KV head": the MLA backends' ``get_kv_cache_shape`` is (num_blocks, block_size, head_size)
#: and ``get_supported_head_sizes`` returns [576] (vllm/v1/attention/backends/mla/common.py, 0.11.0).
MLA_HEAD_SIZE_DEEPSEEK = 512 + 64


#: Bytes the dummy sampler pass holds per logit (requests × vocabulary) at its peak, fitted to real
#: logs (see startup_logs.ACTIVATION_CALIBRATION). The profile run samples with top-k = vocab−1 and
#: top-p = 0.9 (``_dummy_sampler_run``), so the PyTorch path sorts the whole vocabulary: bf16 logits,
#: an fp32 copy, sorted values, int64 indices, masks, softmax and scatter buffers.
#:
#: * "native": the PyTorch sort path — the default where FlashInfer is absent (0.10–0.11), the
#:   default for everyone in 0.12–0.20 (FlashInfer sampling became opt-in), and run again as a
#:   warm-up after the FlashInfer pass from 0.21 on ("Also warm forward_native",
#:   gpu_model_runner.py). Fit: 38.4–39.6 on five H100 logs and one B200 log.
#:   Up to 0.16 only; from 0.17 a batch of 8 rows or more takes the Triton kernel below.
#:   The source (0.11.0, f71952c1c) gives 38 bytes a logit alive at once during the sort, at any batch
#:   of 128 rows or more: the bf16 logits the caller still holds (2; ``_dummy_sampler_run``,
#:   v1/worker/gpu_model_runner.py l.3192), their fp32 copy (4; v1/sample/sampler.py l.86), the sorted
#:   values (4) and int64 indices (8) of ``logits.sort`` (v1/sample/ops/topk_topp_sampler.py l.183), and
#:   inside PyTorch's sort (aten/src/ATen/native/cuda/SortStable.cu, ``segmented_sort_pairs``, taken
#:   from 128 segments) an int64 index row per logit (8) and CUB's alternate key and value buffers (4 + 8).
#:   Later steps hold less (the masks, softmax and scatter of l.190–203: 28; softmax and sampling: 18).
#:   Nothing in it shrinks or stays fixed as the batch changes; the byte over 38 stands for what rides
#:   along at 1,024 requests: the last-token hidden states and their random copy (2 × requests ×
#:   hidden × dtype) and PyTorch's cuBLAS workspace (32 MiB on an H100, 8 MiB elsewhere), which with
#:   38 give the H100 logs to within 0.01 GiB (Qwen3-30B-A3B, 0.10.2: 5.576 GiB for the printed 5.58).
#: * "triton": ``apply_top_k_top_p_triton`` (0.17.0 on, from 8 rows): top-k and top-p in place on the
#:   fp32 logits, one buffer row per Triton program, no sort. Fit: 12.8 and 13.7 bytes a logit on the
#:   RTX 3090 logs of the evidence table (Llama 3.1 8B and Qwen2.5 7B, 256 requests, 0.17.1:
#:   engines.startup_log_table); their mean, 13.3, kept.
#: * "flashinfer": FlashInfer's sort-free sampling kernel (0.10–0.11 with FlashInfer installed, as
#:   in the vllm-openai images). First estimated from its buffers (bf16 logits, fp32 copy, probs);
#:   the A100 logs of the evidence table (Qwen2-7B, vLLM 0.10.1.1 with FlashInfer, 256 requests)
#:   are rebuilt within 2 % with it.
#: * "v2": Model Runner V2's sampler (vllm/v1/worker/gpu/sample, the default runner for more and
#:   more models from 0.22, for all from 0.29): no sort in the dummy run, but fp32 logits, Gumbel
#:   noise, probabilities and log-probabilities held at once — 39.0 bytes a logit on the A100 log of
#:   0.31.0 (startup_logs.ACTIVATION_CALIBRATION "llama31-8b-a100-v031": 1.21 GiB at 256 × 128,256),
#:   and the RTX 5090 page of 0.28.0 (1.46 GiB at 256 × 151,936, startup_log_table) agrees.
SAMPLER_BYTES_PER_LOGIT = {"native": 39.0, "triton": 13.3, "flashinfer": 10.0, "v2": 39.0}

#: The forward pass keeps, per batched token, about 3 × intermediate (the fused gate_up output of
#: width 2·I and the SiLU·mul output of width I) plus 3 × hidden (residual, normed input, attention
#: output) elements alive at the MLP's peak. Fitted to two V0 logs of Llama-3.1-8B on an RTX 3090
#: (vllm issue #10517: 2.07 GiB at 20,000 tokens, 2.99 GiB at 29,000), which the formula gives as
#: 2.06 and 2.99 GiB.
FORWARD_ACTIVATION_FACTORS = {"intermediate": 3.0, "hidden": 3.0}


def _rules(version: str | Sequence[int]) -> vllm_releases.Rules:
    """The release's rules; a V0-era version (before 0.8.5, which these helpers also serve for the
    old logs of startup_logs) takes 0.8.5's: V0 printed blocks × block size, used 0.9, and had
    neither a hybrid allocator nor a CUDA-graph estimate — the same forms."""
    if parse_version(version) < (0, 8, 5):
        version = "0.8.5"
    return vllm_releases.rules(version)


def default_gpu_memory_utilization(version: str | Sequence[int] = vllm_releases.NEWEST) -> float:
    """``CacheConfig.gpu_memory_utilization``: 0.9 up to 0.19.x, 0.92 from 0.20.0 (PR #38284)."""
    return _rules(version).gpu_memory_utilization


def default_scheduler_limits(device_memory_bytes: float, device_name: str = "",
                             usage_context: str = "api_server",
                             version: str | Sequence[int] = vllm_releases.NEWEST,
                             compute_capability: tuple = ()) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) that vLLM picks when neither is given.

    ``EngineArgs._set_default_max_num_seqs_and_batched_tokens`` (vllm/engine/arg_utils.py) keys
    them on the usage context — "llm" for the offline ``LLM`` class and ``vllm bench``,
    "api_server" for ``vllm serve`` — and on the device's total memory:

    * ≥ 160 GiB (B200, B300, MI300X; from 0.28.0): 16,384 tokens in both contexts, 1,024 sequences;
    * ≥ 70 GiB and not an A100 (H100, H200; the A100 exclusion is PR #17885, from 0.9.0) and, from
      0.33.0, not a GB10: 16,384 (llm) / 8,192 (api_server) tokens, 1,024 sequences;
    * otherwise (A100, L40S, RTX 4090, ...): 8,192 (llm) / 2,048 (api_server) tokens, 256 sequences.

    The rules by release are :mod:`.vllm_releases`'.
    """
    return _rules(version).scheduler_limits(device_memory_bytes, device_name, compute_capability,
                                                         usage_context)


def requested_memory(total_bytes: float, utilization: float) -> int:
    """Memory this instance may use on one GPU: ``ceil(total × utilization)``
    (``request_memory``, vllm/v1/worker/utils.py, 0.33.0; a plain product in 0.11.0)."""
    if not 0 < utilization <= 1:
        raise ValueError(f"gpu_memory_utilization must be in (0, 1], not {utilization}")
    return math.ceil(total_bytes * utilization)


def kv_cache_budget(visible_bytes: float, utilization: float, weight_bytes: float,
                    activation_peak_bytes: float, non_torch_bytes: float,
                    cuda_graph_bytes: float = 0) -> float:
    """"Available KV cache memory" on one GPU, in bytes (negative: vLLM refuses to start).

    available = total × utilization − weights − activation peak − non-torch − CUDA-graph estimate

    ``determine_available_memory`` (gpu_worker.py) with ``memory_profiling`` (vllm/utils): 0.11.0
    subtracts ``non_torch_increase + torch_peak_increase + weights_memory``; 0.27.0 on measures
    weights and non-torch together as ``total_consumed`` (free memory before − after) and logs them
    as "consumed memory (weights + non-torch)"; 0.20.0 on also subtracts the CUDA-graph estimate
    (0 where ``VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0`` or before 0.20). From 0.27 the logged
    "peak activation" already includes that estimate — pass 0 for ``cuda_graph_bytes`` then.
    """
    return (requested_memory(visible_bytes, utilization) - weight_bytes - activation_peak_bytes
            - non_torch_bytes - cuda_graph_bytes)


def activation_peak_estimate(hidden_size: int, intermediate_size: int, vocab_size: int,
                             max_num_batched_tokens: int, max_num_seqs: int, *,
                             tensor_parallel: int = 1, dtype_bytes: float = 2,
                             sampler: str = "native", verification_bytes_per_logit: float = 0.0) -> float:
    """Estimated activation peak of vLLM's profiling run on one rank, in bytes.

    The forward pass and the sampler pass peak at different moments, so the peak is the larger of

    * forward: tokens × dtype × (3 × intermediate ÷ TP + 3 × hidden) — see
      FORWARD_ACTIVATION_FACTORS; for a mixture of experts pass top_k × expert intermediate (plus
      any shared expert) as ``intermediate_size``;
    * sampler: requests × vocabulary × SAMPLER_BYTES_PER_LOGIT[sampler] + the hidden states kept
      from the forward pass (tokens × hidden × dtype). The logits are gathered to the full
      vocabulary on every TP rank, so TP does not shrink this term.

    requests = min(max_num_batched_tokens, max_num_seqs), as ``_dummy_run`` splits the tokens.

    With ``--speculative-config``, the same ``_dummy_sampler_run`` then runs the rejection sampler on a
    dummy verification batch (``if self.speculative_config: ... self.rejection_sampler(...)``,
    v1/worker/gpu_model_runner.py, 0.8.5 to 0.24.0): ``verification_bytes_per_logit`` is what that
    pass holds a logit at its peak (engines.vllm_speculation.verification_bytes_per_logit; 0 without a
    drafter), and the sampler term takes the larger of the two passes, the kept hidden states under both.
    Multimodal encoders are not modelled here; the fused-MoE workspace, which vLLM keeps from 0.14 and
    which sits under both peaks, is :func:`moe_workspace_bytes` (added by physics.budget.pool).
    """
    if sampler not in SAMPLER_BYTES_PER_LOGIT:
        raise ValueError(f"sampler must be one of {sorted(SAMPLER_BYTES_PER_LOGIT)}, not {sampler!r}")
    tokens = max_num_batched_tokens
    per_token = (FORWARD_ACTIVATION_FACTORS["intermediate"] * intermediate_size / tensor_parallel
                 + FORWARD_ACTIVATION_FACTORS["hidden"] * hidden_size)
    forward = tokens * dtype_bytes * per_token
    requests = min(tokens, max_num_seqs)
    per_logit = max(SAMPLER_BYTES_PER_LOGIT[sampler], verification_bytes_per_logit)
    sampler_peak = requests * vocab_size * per_logit
    kept_hidden = tokens * hidden_size * dtype_bytes
    return max(forward, kept_hidden + sampler_peak)


def moe_workspace_bytes(backend: str, tokens: int, hidden_size: int, intermediate_per_rank: int, top_k: int,
                        dtype_bytes: float = 2, chunk_tokens: int = 0) -> float:
    """Bytes of the fused-MoE workspace vLLM keeps on one rank after its profile run (0 for "").

    From 0.14 the modular kernel takes its buffers from the worker's WorkspaceManager
    (vllm/v1/worker/workspace.py), which grows one buffer to the largest request and keeps it; the
    profile run's request is the largest, ``tokens`` = max_num_batched_tokens (up to 0.17 at most
    ``chunk_tokens``, VLLM_FUSED_MOE_CHUNK_SIZE). ``_allocate_buffers`` (fused_moe/modular_kernel.py,
    0.27.1 l.1113) asks for max(workspace13, output) + workspace2 of the backend's
    ``workspace_shapes``, in the activation dtype (``workspace_dtype``), with N = 2 I (gate and up
    fused), the activation's output I, K = H:

    * "triton" (TritonExperts, experts/triton_moe.py l.197): (M, top_k, max(I, H)) and
      (M, top_k, max(2I, H)); "marlin" (MarlinExperts, experts/marlin_moe.py l.735: (M top_k, max(I, H))
      and (M top_k max(2I, H))) and "vllm-cutlass" (CutlassExpertsFp8, experts/cutlass_moe.py l.429) the same;
    * "vllm-cutlass-fp4" (CutlassExpertsFp4, l.747): (M top_k, max(2I, H)) and (M top_k, I);
    * "oai-triton" (OAITritonExperts, experts/gpt_oss_triton_kernels_moe.py l.974): workspace13 empty,
      so the output (M, H), and (M top_k, I);
    * "flashinfer-cutlass" (FlashInferExperts, experts/flashinfer_cutlass_moe.py l.210): (M, H) and
      nothing — NVFP4's packed (M, H/2) with its output (M, H) alike;
    * "": FlashInfer's TRT-LLM kernels are monolithic (no _allocate_buffers; FlashInfer keeps its own)
      and formats outside the modular kernel allocate per call.

    Up to 0.26 vLLM counts it in the profile run's torch peak, from 0.27 in ``total_consumed``
    (mem_utils.py l.321: "total_consumed already covers persistent torch allocations"); either way it
    comes off the KV budget, and it is held through the sampler pass."""
    if not backend:
        return 0.0
    m = min(tokens, chunk_tokens) if chunk_tokens else tokens
    h, i, k = hidden_size, intermediate_per_rank, top_k
    if backend in ("triton", "marlin", "vllm-cutlass"):
        elements = m * k * (max(i, h) + max(2 * i, h))
    elif backend == "vllm-cutlass-fp4":
        elements = m * k * (max(2 * i, h) + i)
    elif backend == "oai-triton":
        elements = m * h + m * k * i
    elif backend == "flashinfer-cutlass":
        elements = m * h
    else:
        raise ValueError(f"unknown MoE experts backend {backend!r}")
    return elements * dtype_bytes


def page_size_bytes(kind: str, *, block_size: int = DEFAULT_BLOCK_SIZE, num_kv_heads: int = 1,
                    head_size: int = 128, dtype_bytes: float = 2, head_size_v: int | None = None,
                    cache_dtype: str = "auto") -> int:
    """Bytes of one block of one layer (``page_size_bytes`` of the layer's KVCacheSpec).

    * "full", "sliding", "chunked" (``AttentionSpec``): block × KV heads on this rank ×
      (head_size + head_size_v) × dtype — K and V, hence the factor 2 when they have one size.
      A windowed layer's page is the same; only how many pages a request may hold differs.
    * "mla" (``MLAAttentionSpec``): block × 1 × head_size × dtype — one latent per token, no
      factor 2 (head_size 576 for DeepSeek); with ``cache_dtype="fp8_ds_mla"`` block × 656.
    """
    if kind == "mla":
        if cache_dtype == "fp8_ds_mla":
            return block_size * FP8_DS_MLA_BYTES_PER_TOKEN
        return int(block_size * 1 * head_size * dtype_bytes)
    if kind not in ("full", "sliding", "chunked"):
        raise ValueError(f"unknown layer kind {kind!r}: use full, sliding, chunked or mla")
    v = head_size if head_size_v is None else head_size_v
    return int(block_size * num_kv_heads * (head_size + v) * dtype_bytes)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def sliding_window_tokens(window: int, max_num_batched_tokens: int,
                          block_size: int = DEFAULT_BLOCK_SIZE,
                          max_model_len: int | None = None) -> int:
    """Token slots one request may hold in a sliding-window layer (whole blocks, in tokens).

    ``SlidingWindowSpec.max_memory_usage_bytes`` (kv_cache_interface.py, 0.11.0 and 0.33.0): the
    window minus one computed token plus the newly scheduled tokens, never more than max_model_len,
    rounded up to blocks, plus one block because the window need not start on a block boundary.
    """
    num_tokens = window - 1 + max_num_batched_tokens
    if max_model_len is not None:
        num_tokens = min(num_tokens, max_model_len)
    return (_cdiv(num_tokens, block_size) + 1) * block_size


def max_concurrent_batches(version="0.33.0", pipeline_stages: int = 1, v2_runner: bool = False,
                           async_scheduling: bool = True) -> int:
    """Batches in flight at once (``VllmConfig.max_concurrent_batches``, vllm/config/vllm.py 0.26.0 l.512–522):
    pipeline parallelism keeps one per stage; async scheduling adds one so the CPU schedules the next
    step while the GPU runs this one — Model Runner V2 ``pp_size + 1``, the V1 runner 2 without
    pipeline parallelism and ``pp_size`` with it ("V1 Model Runner does not fully support async
    scheduling with PP"). Before 0.26 the windows reserved one batch: 1."""
    if not _rules(version).windows_hold_in_flight:
        return 1
    if async_scheduling:
        if v2_runner:
            return pipeline_stages + 1
        if pipeline_stages <= 1:
            return 2
    return pipeline_stages


def in_flight_tokens(max_num_batched_tokens: int, version="0.33.0", pipeline_stages: int = 1,
                     v2_runner: bool = False, async_scheduling: bool = True) -> int:
    """Tokens scheduled but not yet freed (``VllmConfig.max_in_flight_tokens``, 0.26 on):
    :func:`max_concurrent_batches` × max_num_batched_tokens. A sliding-window or chunked-local layer
    frees its out-of-window blocks only once a step's tokens are processed, so from 0.26 it reserves
    for every batch in flight ("Recycling-aware KV cache specs (sliding-window, chunked-local)
    reserve for this", vllm/config/vllm.py, 0.26.0 wheel l.525–533; ``SlidingWindowSpec`` and
    ``ChunkedLocalAttentionSpec.max_admission_blocks_per_request``, v1/kv_cache_interface.py 0.26.0);
    up to 0.25 they took max_num_batched_tokens (kv_cache_interface.py, 0.25.0 wheel l.485–575, and at
    bc8282e6, https://github.com/vllm-project/vllm/blob/bc8282e61df21719b12b391c3a976b1c900dfbb4/vllm/v1/kv_cache_interface.py)."""
    return max_concurrent_batches(version, pipeline_stages, v2_runner, async_scheduling) * max_num_batched_tokens


def chunked_local_tokens(chunk: int, max_num_batched_tokens: int,
                         block_size: int = DEFAULT_BLOCK_SIZE,
                         max_model_len: int | None = None) -> int:
    """Token slots of a chunked-local-attention layer (Llama 4): the chunk plus the newly scheduled
    tokens, capped at max_model_len, in whole blocks (``ChunkedLocalAttentionSpec``, no extra block)."""
    num_tokens = chunk + max_num_batched_tokens
    if max_model_len is not None:
        num_tokens = min(num_tokens, max_model_len)
    return _cdiv(num_tokens, block_size) * block_size


@dataclass(frozen=True)
class LayerGroup:
    """Layers that share one attention kind and window: ``count`` of them, of ``kind`` full,
    sliding, chunked or mla, with ``window`` the sliding window or chunk size (0 for full/mla).
    ``block_size``: this group's tokens a block when vLLM grew it to make the pages equal
    (``unify_kv_cache_spec_page_size``); 0 is the pool's ``--block-size``."""

    kind: str
    count: int
    window: int = 0
    block_size: int = 0


def blocks_per_request(groups: Iterable[LayerGroup], max_model_len: int,
                       max_num_batched_tokens: int, block_size: int = DEFAULT_BLOCK_SIZE) -> int:
    """Blocks one request of max_model_len tokens takes from the shared pool, summed over the KV
    cache groups (``get_max_concurrency_for_kv_cache_config``); pass the groups as
    :func:`kv_cache_groups` lays them out, one LayerGroup per cache group with count 1."""
    total = 0
    for g in groups:
        size = g.block_size or block_size
        if g.kind == "sliding":
            tokens = sliding_window_tokens(g.window, max_num_batched_tokens, size, max_model_len)
        elif g.kind == "chunked":
            tokens = chunked_local_tokens(g.window, max_num_batched_tokens, size, max_model_len)
        else:
            tokens = _cdiv(max_model_len, size) * size
        total += g.count * tokens // size
    return total


def kv_cache_groups(layer_types: Sequence[LayerGroup], version: str | Sequence[int] = "0.11.0"
                    ) -> tuple[int, list[LayerGroup], int]:
    """How vLLM groups a hybrid model's layers: (layers per group, one LayerGroup per cache group,
    padding layers added).

    ``_get_kv_cache_groups_uniform_page_size`` (kv_cache_utils.py, 0.11.0; kv_cache_planning.py,
    0.33.0): layers of one kind form a type; the group size is the smallest type's layer count
    (from 0.18.0: the largest, when it is under 1.5 × the smallest — "gpt-oss-20b + eagle, with 12
    sw + 13 full", kv_cache_utils.py l.1043 of 0.18.0); each type is split into ceil(count / group size) groups, the last one padded
    ("Add %d padding layers, may waste at most %.2f%% KV cache memory"). Every group then holds
    the same number of layers, so one block id addresses the same bytes in every group.
    A model with one layer type is one group of all its layers.
    """
    types = [g for g in layer_types if g.count > 0]
    if not types:
        return 0, [], 0
    if len(types) == 1:
        return types[0].count, [LayerGroup(types[0].kind, 1, types[0].window, types[0].block_size)], 0
    smallest = min(g.count for g in types)
    largest = max(g.count for g in types)
    group_size = smallest
    if _rules(version).group_size_largest_under_1_5 and largest < smallest * 1.5:
        group_size = largest
    groups: list[LayerGroup] = []
    padding = 0
    for g in types:
        n = _cdiv(g.count, group_size)
        padding += n * group_size - g.count
        groups.extend(LayerGroup(g.kind, 1, g.window, g.block_size) for _ in range(n))
    return group_size, groups, padding


def blocks_and_tokens(available_bytes: float, page_bytes: int, layers_per_group: int,
                      num_groups: int = 1, block_size: int = DEFAULT_BLOCK_SIZE) -> tuple[int, int]:
    """(num_blocks, tokens) of the pool, up to vLLM 0.20.

    ``get_num_blocks`` (kv_cache_utils.py, 0.11.0 line 813): ``available // page_size //
    num_layers`` — one block spans one page in every layer of a group — and "GPU KV cache size"
    = ``num_blocks // len(kv_cache_groups) × block_size`` (line 1080). For a single full-attention
    group the tokens are just num_blocks × block_size. From 0.21 see :func:`gpu_kv_cache_size_tokens`.
    """
    if page_bytes <= 0 or layers_per_group <= 0:
        raise ValueError("page_bytes and layers_per_group must be positive")
    num_blocks = max(int(available_bytes // page_bytes // layers_per_group), 0)
    return num_blocks, num_blocks // num_groups * block_size


def max_concurrency(num_blocks: int, request_blocks: int) -> float:
    """"Maximum concurrency for max_model_len tokens per request": num_blocks ÷ blocks one
    max-length request takes (:func:`blocks_per_request`), the formula of 0.11.0 and 0.33.0."""
    return num_blocks / request_blocks


def gpu_kv_cache_size_tokens(num_blocks: int, num_groups: int, request_blocks: int,
                             max_model_len: int, block_size: int = DEFAULT_BLOCK_SIZE,
                             version: str | Sequence[int] = vllm_releases.NEWEST) -> int:
    """The "GPU KV cache size: N tokens" number, by release (vllm_releases.CHANGES): up to 0.9.0
    ``num_blocks × block_size``; 0.9.1–0.20 ``num_blocks // num_groups × block_size``; from 0.21
    ``int(max_concurrency × max_model_len)``."""
    line = _rules(version).tokens_line
    if line == "concurrency":
        return int(max_concurrency(num_blocks, request_blocks) * max_model_len)
    if line == "blocks":
        return num_blocks * block_size
    return num_blocks // num_groups * block_size


def kv_heads_per_rank(kv_heads: int, tensor_parallel: int, mla: bool = False) -> int:
    """KV heads each TP rank stores: ``max(1, kv_heads // tp)``; MLA always 1
    (``ModelConfig.get_num_kv_heads``, vllm/config/model.py: "When using MLA during decode it
    becomes MQA"). Raises ValueError for a TP size vLLM's ``QKVParallelLinear`` rejects."""
    if tensor_parallel < 1:
        raise ValueError("tensor_parallel must be ≥ 1")
    if mla:
        return 1
    if tensor_parallel >= kv_heads:
        if tensor_parallel % kv_heads:
            raise ValueError(f"TP {tensor_parallel} is not a multiple of {kv_heads} KV heads")
        return 1
    if kv_heads % tensor_parallel:
        raise ValueError(f"{kv_heads} KV heads do not split evenly over TP {tensor_parallel}")
    return kv_heads // tensor_parallel


def kv_replication_factor(kv_heads: int, tensor_parallel: int, mla: bool = False) -> int:
    """How many ranks hold a copy of each KV head (``num_kv_head_replicas`` of QKVParallelLinear):
    tp ÷ kv_heads when TP exceeds the KV heads, else 1. An MLA latent is replicated on every rank
    (tp copies): data-parallel attention (``--data-parallel-size N --enable-expert-parallel``)
    is the layout that gives each GPU its own pool instead."""
    if mla:
        return tensor_parallel
    kv_heads_per_rank(kv_heads, tensor_parallel)  # validates the pair
    return tensor_parallel // kv_heads if tensor_parallel >= kv_heads else 1


def legal_tp_sizes(num_heads: int, num_kv_heads: int, *, intermediate_size: int | None = None,
                   vocab_size: int | None = None, mla: bool = False, max_tp: int = 64) -> list[int]:
    """Tensor-parallel sizes vLLM accepts for a model's shapes, up to ``max_tp``.

    * attention heads divisible by TP (``ModelConfig.verify_with_parallel_config``);
    * KV heads divisible by TP, or TP divisible by the KV heads (``QKVParallelLinear``; not
      checked for MLA, whose single latent is replicated);
    * MLP intermediate size divisible by TP (``ColumnParallelLinear``/``RowParallelLinear`` call
      ``divide``), when given;
    * the vocabulary padded to a multiple of 64 divisible by TP (``VocabParallelEmbedding``), when
      given. Quantized checkpoints add group-size rules not modelled here.
    """
    legal = []
    for tp in range(1, max_tp + 1):
        if num_heads % tp:
            continue
        if not mla and not (num_kv_heads % tp == 0 or tp % num_kv_heads == 0):
            continue
        if intermediate_size is not None and intermediate_size % tp:
            continue
        if vocab_size is not None and padded_vocab(vocab_size) % tp:
            continue
        legal.append(tp)
    return legal


def pipeline_stage_layers(num_layers: int, pipeline_parallel: int) -> list[int]:
    """Layers on each pipeline stage (``get_pp_indices``, vllm/distributed/utils.py, 0.33.0):
    an even split, the remainder going one each to the stages before the last (the first and last
    stages also hold the embedding and the LM head). Each stage sizes its own KV cache for its
    layers only, and the smallest stage's block count is kept for all."""
    if not 1 <= pipeline_parallel <= num_layers:
        raise ValueError("need 1 ≤ pipeline_parallel ≤ num_layers")
    per = num_layers // pipeline_parallel
    stages = [per] * pipeline_parallel
    for i in range(2, num_layers % pipeline_parallel + 2):
        stages[-i] += 1
    return stages
