"""Real vLLM startup logs, quoted exactly, with what they show parsed into numbers.

Each :class:`StartupLog` pairs a model's shapes (from its published config.json), the GPU, the
engine settings and the lines vLLM printed. The tests rebuild the logged "GPU KV cache size",
"Maximum concurrency" and, where the log gives its parts, "Available KV cache memory" with
:mod:`llm_inference.engines.vllm`.

GiB figures in the logs are rounded to 0.01 GiB (``format_gib``), so a rebuilt block count can be
off by a few blocks of a few MiB each; the tests allow 2 %.

``url`` is the public page that shows the lines. Three logs (and the H100 rows of
:data:`ACTIVATION_CALIBRATION`) come from public GitHub files that the search index used for this
work shows without naming their repository; they carry ``url=None`` and the index id of the file in
``where``, and are kept because they print every part of the budget; :data:`WITH_URL` lists the
others.

:data:`ACTIVATION_CALIBRATION` holds the measured activation peaks that fix the constants of
:func:`llm_inference.engines.vllm.activation_peak_estimate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

__all__ = ["StartupLog", "LOGS", "BY_ID", "WITH_URL", "ActivationPoint", "ACTIVATION_CALIBRATION"]


@dataclass(frozen=True)
class StartupLog:
    id: str
    url: str | None
    where: str  # how to find the lines on that page, or the index id when there is no URL
    vllm_version: str  # as printed, or inferred (then says how)
    model: str
    gpu: str  # the GPU as the log or its page names it
    gpus: int
    tensor_parallel: int
    lines: tuple[str, ...]  # quoted exactly
    parsed: Mapping[str, float]  # numbers read from the lines (GiB as printed)
    shape: Mapping[str, float]  # the model's cache shapes (config.json) and engine settings
    notes: str = ""


LOGS: tuple[StartupLog, ...] = (
    StartupLog(
        id="qwen3-14b-lmcache",
        url="https://github.com/LMCache/LMCache/issues/1739",
        where="issue description, 'I used Qwen3-14B for single GPU test'",
        vllm_version="0.10.2 (inferred: gpu_worker.py:298 and kv_cache_utils.py:864/868 are the "
                     "line numbers of the 0.10.2 log quoted in llava-mistral-h100)",
        model="Qwen/Qwen3-14B", gpu="not stated (one GPU)", gpus=1, tensor_parallel=1,
        lines=(
            "(EngineCore_DP0 pid=1133552) INFO 10-03 16:22:17 [gpu_worker.py:298] Available KV cache memory: 6.51 GiB",
            "(EngineCore_DP0 pid=1133552) INFO 10-03 16:22:17 [kv_cache_utils.py:864] GPU KV cache size: 42,656 tokens",
            "(EngineCore_DP0 pid=1133552) INFO 10-03 16:22:17 [kv_cache_utils.py:868] Maximum concurrency for 32,768 tokens per request: 1.30x",
        ),
        parsed={"available_gib": 6.51, "kv_tokens": 42656, "max_model_len": 32768, "concurrency": 1.30},
        shape={"layers": 40, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16},
    ),
    StartupLog(
        id="qwen3-235b-fp8-tp4-h100",
        url="https://github.com/vllm-project/vllm/issues/21348",
        where="issue description (2025-07-22), launched with --tensor-parallel-size 4 on 4 × H100",
        vllm_version="not stated (July 2025: 0.9.2 or 0.10.0)",
        model="Qwen/Qwen3-235B-A22B-FP8", gpu="NVIDIA H100", gpus=4, tensor_parallel=4,
        lines=(
            "Available KV cache memory: 8.11 GiB",
            "GPU KV cache size: 178,880 tokens",
        ),
        parsed={"available_gib": 8.11, "kv_tokens": 178880},
        shape={"layers": 94, "kv_heads": 4, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16},
        notes="FP8 weights but the KV cache in the model dtype (bf16). 4 KV heads over TP 4: one "
              "head per rank, so each rank's pool covers every token at 1/4 of the bytes. The "
              "logged memory is one rank's; the block count is the smallest over the four ranks, "
              "which is why the rebuilt count comes out 1.1 % high.",
    ),
    StartupLog(
        id="llama31-8b-rtx3090-v0-20k",
        url="https://github.com/vllm-project/vllm/issues/10517",
        where="comment by kaspersiminski, 2024-12-02, the '20k - OK' block",
        vllm_version="V0 engine, about 0.6.4 (the one-line 'Memory profiling results' format)",
        model="meta-llama/Llama-3.1-8B-Instruct", gpu="NVIDIA GeForce RTX 3090", gpus=1,
        tensor_parallel=1,
        lines=(
            "Loading model weights took 14.9888 GB",
            "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB "
            "peak_torch_memory=17.06GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB "
            "kv_cache_size=3.81GiB gpu_memory_utilization=0.90",
            "GPU blocks: 1952, # CPU blocks: 2048",
            "Maximum concurrency for 20000 tokens per request: 1.56x",
        ),
        parsed={"total_gib": 23.58, "utilization": 0.90, "weights_gib": 14.9888,
                "peak_torch_gib": 17.06, "non_torch_gib": 0.35, "available_gib": 3.81,
                "num_blocks": 1952, "max_model_len": 20000, "concurrency": 1.56},
        shape={"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16,
               "max_num_batched_tokens": 20000},
        notes="V0 profiles a batch of max_model_len tokens (no chunked prefill below 32K), and its "
              "'peak_torch_memory' includes the weights: activation peak = 17.06 − 14.99 = 2.07 GiB. "
              "'Loading model weights took 14.9888 GB' is GiB (the V0 message divided by 2**30). "
              "V0 concurrency = blocks × 16 ÷ max_model_len.",
    ),
    StartupLog(
        id="llama31-8b-rtx3090-v0-29k",
        url="https://github.com/vllm-project/vllm/issues/10517",
        where="same comment, the '29k - BAD' block",
        vllm_version="V0 engine, about 0.6.4",
        model="meta-llama/Llama-3.1-8B-Instruct", gpu="NVIDIA GeForce RTX 3090", gpus=1,
        tensor_parallel=1,
        lines=(
            "Loading model weights took 14.9888 GB",
            "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB "
            "peak_torch_memory=17.98GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB "
            "kv_cache_size=2.89GiB gpu_memory_utilization=0.90",
            "# GPU blocks: 1478, # CPU blocks: 2048",
            "Maximum concurrency for 29000 tokens per request: 0.82x",
            "The model's max seq len (29000) is larger than the maximum number of tokens that can be "
            "stored in KV cache (23648).",
        ),
        parsed={"total_gib": 23.58, "utilization": 0.90, "weights_gib": 14.9888,
                "peak_torch_gib": 17.98, "non_torch_gib": 0.35, "available_gib": 2.89,
                "num_blocks": 1478, "max_model_len": 29000, "concurrency": 0.82, "kv_tokens": 23648},
        shape={"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16,
               "max_num_batched_tokens": 29000},
        notes="A longer max_model_len profiles a larger batch: the activation peak grows from 2.07 "
              "to 2.99 GiB and the cache shrinks below one sequence.",
    ),
    StartupLog(
        id="llama3-8b-h100-v0-profile",
        url="https://github.com/vllm-project/vllm/pull/10511",
        where="comment by youkaichao, 2024-12-14, 'Some sanity checks', first block",
        vllm_version="V0 engine at PR #10511 (merged for 0.6.5)",
        model="meta-llama/Meta-Llama-3-8B", gpu="NVIDIA H100 80GB", gpus=1, tensor_parallel=1,
        lines=(
            "INFO 12-13 19:54:18 worker.py:243] total_gpu_memory     79.22GiB",
            "INFO 12-13 19:54:18 worker.py:243] gpu_memory_utilization       0.90",
            "INFO 12-13 19:54:18 worker.py:243] the current vLLM instance can use    71.29GiB",
            "INFO 12-13 19:54:18 worker.py:243] model weights take   14.96GiB",
            "INFO 12-13 19:54:18 worker.py:243] non_torch_memory     1.79GiB",
            "INFO 12-13 19:54:18 worker.py:243] PyTorch activation peak memory       1.26GiB",
            "INFO 12-13 19:54:18 worker.py:243] available_kv_cache_memory    53.29GiB",
        ),
        parsed={"total_gib": 79.22, "utilization": 0.90, "requested_gib": 71.29, "weights_gib": 14.96,
                "non_torch_gib": 1.79, "activation_gib": 1.26, "available_gib": 53.29},
        shape={"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16,
               "max_num_batched_tokens": 8192},
        notes="Budget only (no token line in the quote).",
    ),
    StartupLog(
        id="llama31-70b-w8a8-v1-blocks",
        url="https://github.com/vllm-project/vllm/pull/12569",
        where="PR description, 2025-01-30 ('[V1][Log] Add max request concurrency log to V1')",
        vllm_version="V1 engine at PR #12569 (0.7.1)",
        model="neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8", gpu="not stated (one GPU)",
        gpus=1, tensor_parallel=1,
        lines=(
            "INFO 01-30 03:18:12 gpu_model_runner.py:848] Loading model weights took 67.7229 GB",
            "INFO 01-30 03:19:14 kv_cache_utils.py:395] # GPU blocks: 1381",
            "INFO 01-30 03:19:14 kv_cache_utils.py:398] Maximum concurrency for 2048 tokens per request: 10.79x",
        ),
        parsed={"num_blocks": 1381, "max_model_len": 2048, "concurrency": 10.79},
        shape={"layers": 80, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16},
        notes="Launched with --max-model-len 2048 --gpu-memory-utilization 0.98. Concurrency = "
              "blocks ÷ ceil(2048 / 16).",
    ),
    StartupLog(
        id="gemma3-4b-b200-suggestion",
        url="https://github.com/vllm-project/vllm/pull/21489",
        where="PR description, 2025-07-24 ('Allow users to specify kv cache memory size'), "
              "log of `vllm bench latency --model google/gemma-3-4b-it`",
        vllm_version="main at PR #21489 (first released in 0.10.1)",
        model="google/gemma-3-4b-it", gpu="NVIDIA B200 (178.36 GiB visible)", gpus=1, tensor_parallel=1,
        lines=(
            "Free memory on device (177.66/178.36 GiB) on startup. Desired GPU memory utilization is "
            "(0.9, 160.53 GiB). Actual usage is 8.58 GiB for weight, 9.96 GiB for peak activation, "
            "0.07 GiB for non-torch memory, and 0.65 GiB for CUDAGraph memory. Replace "
            "gpu_memory_utilization config with `--kv-cache-memory=151519866880` to fit into "
            "requested memory",
        ),
        parsed={"total_gib": 178.36, "utilization": 0.9, "requested_gib": 160.53, "weights_gib": 8.58,
                "activation_gib": 9.96, "non_torch_gib": 0.07, "cuda_graph_gib": 0.65,
                "suggested_kv_bytes": 151519866880},
        shape={"hidden": 2560, "intermediate": 10240, "vocab": 262208,
               "max_num_batched_tokens": 16384, "max_num_seqs": 1024},
        notes="The suggestion is requested − weights − activation − non-torch − CUDA graphs − a "
              "150 MiB buffer (gpu_worker.py, 0.11.0: 'redundancy_buffer_memory = 150 * (1 << 20)'). "
              "The 9.96 GiB activation peak is the sampler's: 1,024 requests × 262,208 logits.",
    ),
    StartupLog(
        id="dsv4-flash-tp8-vs-dp8-b200",
        url="https://github.com/vllm-project/recipes/issues/762",
        where="issue description, 2026-08-07 ('Recommend DP8 as default strategy for B200 on "
              "DeepSeek-V4-Flash'); the startup logs themselves are in vllm-project/vllm#51454",
        vllm_version="0.25.0",
        model="deepseek-ai/DeepSeek-V4-Flash-0731", gpu="NVIDIA B200", gpus=8, tensor_parallel=8,
        lines=(
            "switching to `--data-parallel-size 8` delivers **7.7x more total KV capacity** (156.9x vs "
            "20.43x max concurrency at 1M context per startup log)",
        ),
        parsed={"concurrency_tp8": 20.43, "concurrency_dp8": 156.9},
        shape={"mla": 1, "tensor_parallel": 8, "data_parallel": 8, "max_model_len": 1048576},
        notes="MLA keeps one latent per token and layer, which TP cannot split: under TP 8 each GPU "
              "holds the whole cache (8 copies); under DP 8 with expert parallelism each GPU has its "
              "own pool. The ratio is 7.68, not 8, because each DP rank also holds its own copy of "
              "the non-expert weights, so it has a little less free memory than a TP rank.",
    ),
    StartupLog(
        id="llava-mistral-h100",
        url=None,
        where="public GitHub file (search-index id 34680831065, a README quoting "
              "`python3 vlm_inference_with_vllm.py`); repository not named by the index",
        vllm_version="0.10.2 (printed: 'Initializing a V1 LLM engine (v0.10.2)')",
        model="llava-hf/llava-v1.6-mistral-7b-hf", gpu="NVIDIA H100 80GB", gpus=1, tensor_parallel=1,
        lines=(
            "(EngineCore_DP0 pid=3021) INFO 09-23 18:12:33 [gpu_worker.py:298] Available KV cache memory: 55.15 GiB",
            "(EngineCore_DP0 pid=3021) INFO 09-23 18:12:34 [kv_cache_utils.py:864] GPU KV cache size: 451,744 tokens",
            "(EngineCore_DP0 pid=3021) INFO 09-23 18:12:34 [kv_cache_utils.py:868] Maximum concurrency for 4,096 tokens per request: 110.29x",
            "(EngineCore_DP0 pid=3021) INFO 09-23 18:12:39 [gpu_worker.py:391] Free memory on device "
            "(78.66/79.19 GiB) on startup. Desired GPU memory utilization is (0.9, 71.27 GiB). Actual "
            "usage is 14.08 GiB for weight, 1.97 GiB for peak activation, 0.07 GiB for non-torch "
            "memory, and 0.67 GiB for CUDAGraph memory.",
        ),
        parsed={"total_gib": 79.19, "utilization": 0.9, "requested_gib": 71.27, "weights_gib": 14.08,
                "activation_gib": 1.97, "non_torch_gib": 0.07, "cuda_graph_gib": 0.67,
                "available_gib": 55.15, "kv_tokens": 451744, "max_model_len": 4096,
                "concurrency": 110.29},
        shape={"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16,
               "hidden": 4096, "intermediate": 14336, "vocab": 32064,
               "max_num_batched_tokens": 16384, "max_num_seqs": 1024},
        notes="Offline LLM class: 'Chunked prefill is enabled with max_num_batched_tokens=16384'. "
              "In 0.10.2 the CUDA graphs (0.67 GiB) are captured after the budget and are not "
              "subtracted from it. Multimodal: the profiling run also encodes 5 images.",
    ),
    StartupLog(
        id="llama31-8b-a100-v031",
        url=None,
        where="public GitHub file (search-index id 70682754770, study notes '### Session 2'); "
              "repository not named by the index",
        vllm_version="0.31.0 (image vllm/vllm-openai:v0.31.0-ubuntu2404)",
        model="meta-llama/Llama-3.1-8B-Instruct", gpu="NVIDIA A100 80GB", gpus=1, tensor_parallel=1,
        lines=(
            "(EngineCore pid=326) INFO 10-06 17:00:11 [model_runner.py:407] Model loading took 15.0 GiB memory and 5.420225 seconds",
            "(EngineCore pid=326) INFO 10-06 17:00:33 [kv_cache_utils.py:2464] GPU KV cache size: 460,496 tokens, Maximum concurrency for 131,072 tokens per request: 3.51x",
            "(EngineCore pid=326) INFO 10-06 17:00:41 [gpu_worker.py:955] Free memory on device "
            "(78.84/79.25 GiB) on startup. Desired GPU memory utilization is (0.92, 72.91 GiB). Actual "
            "usage is 15.26 GiB for consumed memory (weights + non-torch), 1.44 GiB for peak "
            "activation, and 0.23 GiB for CUDAGraph memory.",
            "(EngineCore pid=326) INFO 10-06 17:00:33 [gpu_worker.py:692] Available KV cache memory: 56.21 GiB",
        ),
        parsed={"total_gib": 79.25, "utilization": 0.92, "requested_gib": 72.91, "consumed_gib": 15.26,
                "activation_gib": 1.44, "cuda_graph_gib": 0.23, "available_gib": 56.21,
                "kv_tokens": 460496, "max_model_len": 131072, "concurrency": 3.51},
        shape={"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16,
               "hidden": 4096, "intermediate": 14336, "vocab": 128256,
               "max_num_batched_tokens": 2048, "max_num_seqs": 256},
        notes="Default utilization 0.92 (0.20.0 on). On an A100 the defaults are 2,048 batched "
              "tokens and 256 sequences. From 0.27 the logged 'peak activation' includes the "
              "CUDA-graph estimate (gpu_worker.py, 0.31.0: peak_activation_memory = "
              "transient_peak_headroom + cudagraph_memory_estimate_applied), so the budget is "
              "72.91 − 15.26 − 1.44; the transient peak itself is about 1.44 − 0.23 = 1.21 GiB.",
    ),
    StartupLog(
        id="qwen25-1.5b-dgx-spark",
        url=None,
        where="public GitHub file (search-index id 61373890520, an llm-d KV-routing demo README "
              "on a DGX Spark); repository not named by the index",
        vllm_version="not printed (kv_cache_utils.py:1708 matches 0.21.x)",
        model="Qwen/Qwen2.5-1.5B-Instruct", gpu="NVIDIA GB10 (DGX Spark, unified memory)", gpus=1,
        tensor_parallel=1,
        lines=(
            "(EngineCore pid=258) INFO gpu_model_runner.py:4879 Model loading took 2.89 GiB memory and 60.297843 seconds",
            "(EngineCore pid=258) INFO gpu_worker.py:440 Available KV cache memory: 0.56 GiB",
            "(EngineCore pid=258) INFO kv_cache_utils.py:1708 GPU KV cache size: 20,992 tokens",
            "`GPU KV cache size: 20,992 tokens`, max concurrency 5.12x @ 4096 tokens/request",
        ),
        parsed={"weights_gib": 2.89, "available_gib": 0.56, "kv_tokens": 20992, "max_model_len": 4096,
                "concurrency": 5.12},
        shape={"layers": 28, "kv_heads": 2, "head_dim": 128, "kv_dtype_bytes": 2, "block_size": 16},
        notes="--gpu-memory-utilization 0.04 --max-model-len 4096 --enforce-eager. The last line is "
              "the file's own summary of the run (its test plan, TC-GPU-04), not an engine line.",
    ),
)

BY_ID: dict[str, StartupLog] = {log.id: log for log in LOGS}
WITH_URL: tuple[StartupLog, ...] = tuple(log for log in LOGS if log.url)


@dataclass(frozen=True)
class ActivationPoint:
    """One measured activation peak with the shapes that determine it."""

    id: str
    source: str  # URL, or the StartupLog id it comes from
    vllm_version: str
    model: str
    hidden: int
    intermediate: int  # per-token MLP width (top_k × expert width for a mixture of experts)
    vocab: int
    tensor_parallel: int
    max_num_batched_tokens: int
    max_num_seqs: int
    sampler: str  # which sampler path the profile run takes (see vllm.SAMPLER_BYTES_PER_LOGIT)
    measured_gib: float
    notes: str = ""
    extra: Mapping[str, float] = field(default_factory=dict)


_H100_TABLE = ("llm-d/llm-d-benchmark, config_explorer/empirical-vllm-memory-results.md ('vLLM Empirical "
               "Test Results Analysis', H100 79.18 GiB, vllm/vllm-openai:latest, --block-size=128; "
               "https://github.com/llm-d/llm-d-benchmark/blob/4f4d44943c39b76b28e30dfa1fb0dfaf1ee894b5/"
               "config_explorer/empirical-vllm-memory-results.md; search-index id 28022205292)")
_H100_TABLE_VERSION = "0.12–0.19 (inferred: the '... GiB for weight' wording and default native sampler)"

ACTIVATION_CALIBRATION: tuple[ActivationPoint, ...] = (
    ActivationPoint("llama31-8b-rtx3090-20k", "llama31-8b-rtx3090-v0-20k", "V0 ~0.6.4",
                    "Llama-3.1-8B", 4096, 14336, 128256, 1, 20000, 256, "native", 17.06 - 14.9888,
                    "forward-dominated"),
    ActivationPoint("llama31-8b-rtx3090-29k", "llama31-8b-rtx3090-v0-29k", "V0 ~0.6.4",
                    "Llama-3.1-8B", 4096, 14336, 128256, 1, 29000, 256, "native", 17.98 - 14.9888,
                    "forward-dominated"),
    ActivationPoint("llama31-8b-h100", _H100_TABLE, _H100_TABLE_VERSION, "Llama-3.1-8B-Instruct",
                    4096, 14336, 128256, 1, 8192, 1024, "native", 4.76, "sampler-dominated"),
    ActivationPoint("qwen3-0.6b-h100", _H100_TABLE, _H100_TABLE_VERSION, "Qwen3-0.6B",
                    1024, 3072, 151936, 1, 8192, 1024, "native", 5.56,
                    "sampler-dominated: a 0.6B model needs 5.6 GiB because of its 152k vocabulary"),
    ActivationPoint("qwen3-32b-h100", _H100_TABLE, _H100_TABLE_VERSION, "Qwen3-32B",
                    5120, 25600, 151936, 1, 8192, 1024, "native", 5.64, "sampler-dominated"),
    ActivationPoint("gpt-oss-20b-h100", _H100_TABLE, _H100_TABLE_VERSION, "gpt-oss-20b",
                    2880, 4 * 2880, 201088, 1, 8192, 1024, "native", 7.38,
                    "sampler-dominated (MoE: 4 active experts of width 2880)"),
    ActivationPoint("llama33-70b-fp8-tp2-h100", _H100_TABLE, _H100_TABLE_VERSION,
                    "Llama-3.3-70B-Instruct-FP8-dynamic", 8192, 28672, 128256, 2, 8192, 1024,
                    "native", 4.84, "per rank; the logits are gathered to the full vocabulary"),
    ActivationPoint("gemma3-4b-b200", "https://github.com/vllm-project/vllm/pull/21489",
                    "main, 2025-07 (0.10.1)", "gemma-3-4b-it", 2560, 10240, 262208, 1, 16384, 1024,
                    "native", 9.96, "sampler-dominated; multimodal model"),
    ActivationPoint("llava-mistral-h100", "llava-mistral-h100", "0.10.2 (FlashInfer absent)",
                    "llava-v1.6-mistral-7b-hf", 4096, 14336, 32064, 1, 16384, 1024, "native", 1.97,
                    "forward-dominated; the profiling run also encodes 5 images (0.125 GiB of "
                    "encoder cache for 16,384 tokens × 4,096 × 2 bytes), which the estimate omits"),
    ActivationPoint("llama31-8b-a100-v031", "llama31-8b-a100-v031", "0.31.0",
                    "Llama-3.1-8B-Instruct", 4096, 14336, 128256, 1, 2048, 256, "native", 1.44 - 0.23,
                    "the logged 1.44 GiB includes the CUDA-graph estimate; 0.23 GiB (the measured "
                    "graph memory) is taken as that estimate"),
)
