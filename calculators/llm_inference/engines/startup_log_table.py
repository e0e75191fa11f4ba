"""The evidence table: public vLLM startup logs that the kv-cache calculator can rebuild, each quoted
as published, with what the calculator needs to rebuild it and what it still lacks.

Each :class:`Log` gives the page (``url``) and where on it the lines are, the vLLM release (as
printed, or inferred and said how), the model as published and the catalogue id it maps to, the
GPU and its ``hardware`` id, the layout, the engine settings the log shows, the formats, and the
four figures vLLM prints — "Model loading took", "Available KV cache memory", "GPU KV cache size",
"Maximum concurrency" — or the error of a start that failed, quoted exactly in ``lines``. A figure
the page does not show is ``None``; nothing is filled in from elsewhere.

Every log here names its model, its GPU, its layout and its settings (the command line, the
"non-default args" line, the page's own words) — the only logs kept are those a calculator can be
held to. ``needs`` names what the calculator lacks today: a catalogue entry or weight format that
the other branches of issue #18 add ("r18-weights: …", "r18-attention: …"). The tests
(tests/unit/llm_inference/test_accuracy.py) rebuild every log and mark the ones with needs as
expected to fail for that reason, so a merge that supplies the piece shows up as a pass.

:data:`SEEN` lists the logs read for this table and left out, each with why (the model, the GPU or
a setting is not on its page, the engine is V0, the hardware is not modelled …), so nobody reads
them again for nothing.

These are not the logs of :mod:`.startup_logs` (none is repeated here). The Accuracy page is made
from this table at build time (the book's ``accuracy`` fence).
"""

from __future__ import annotations

from . import (
    startup_log_table_lora,
    startup_log_table_parallel,
    startup_log_table_speculation,
    startup_log_table_tensor_parallel,
)
from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen

__all__ = ["Log", "Seen", "LOGS", "SEEN", "BY_ID", "FITS", "TOO_LITTLE_KV", "NO_BLOCKS"]

#: Why the two RTX 5090 runs of Qwen3.6-35B-A3B NVFP4 still miss: what the vision tower adds is modelled, the
#: CUDA-graph estimate at max_num_seqs 1 is not.
_QWEN36_5090_NEEDS = (
    "engine: the CUDA-graph estimate of a run capturing two batch sizes. The vision tower is modelled "
    "(engines.vllm_encoder): its 0.83 GiB of bf16 weights, and the profile run's encoder pass on one 4096 × 4096 "
    "image (16,384 tokens, 65,536 patches), which peaks at 1.88 GiB against the text pass's 0.28 GiB estimate. "
    "The pool comes out {pool} GiB ({err} %; tokens {tokens} %, concurrency {conc} %). vLLM 0.24.0 printed "
    "'Estimated CUDA graph memory: 0.41 GiB total' for this compose (max_num_seqs 1: capture sizes [1, 2]) where "
    "the V1 rule takes 0.9 GiB (vllm_releases.CUDA_GRAPH_BYTES_V1, from runs capturing up to 512). The printed "
    "figure is a measurement, not a count: profile_cudagraph_memory (vllm/v1/worker/gpu_model_runner.py) "
    "captures the two largest sizes of each mode (here PIECEWISE [2, 1], FULL [1]) and adds, per mode, the "
    "first capture's drop in free memory plus (n - 1) x the second's, so with one or two sizes it is almost all "
    "first capture: the warm-up and pool of the largest size, which on Gated DeltaNet hybrids grows with "
    "max_num_batched_tokens (vllm#50780; vllm#52872 on an RTX 5090: a 0.89 GiB pool at 8,192 batched tokens, "
    "0.52 GiB at 4,096 and below). No rule from the capture sizes reproduces the printed estimates of the "
    "public logs read (0.08 to 2.44 GiB, the same model and sizes apart by more than 1 GiB), so none is "
    "applied. With the printed 0.41 GiB the pool would be {graphs} GiB ({graphs_err} %), and the other {rest} "
    "GiB (weights or non-torch memory: the log prints neither) is not explained"
)

_R18W = "r18-weights"
_R18A = "r18-attention"

# -- dennislee22/vLLM-benchmarking: A100s on Cloudera AI, vLLM 0.10.1.1 with FlashInfer installed ----------
_DL = "https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/log/"
_DL_VERSION = "0.10.1.1 (printed: 'vLLM API server version 0.10.1.1')"
_DL_MODEL = "Qwen2-7B-Instruct (a clone of Qwen/Qwen2-7B-Instruct: README, 'Procedure' step 3)"
_DL_FI = ("FlashInfer installed beside the wheel (README step 2: 'pip install vllm ... flashinfer-python'); "
          "the log prints 'Using FlashInfer for top-p & top-k sampling.'")
# -- TheBuccaneer/vllm-offload-profiles: one RTX 3090, vLLM 0.17.1 -----------------------------------------
_TB = ("https://github.com/TheBuccaneer/vllm-offload-profiles/blob/547be9005dd6483d21e15e32416ffab96d1a2e63/"
       "data/provenance/gpu_memory_configuration/")
_TB_VERSION = "0.17.1 (environment/README.md: 'vLLM: 0.17.1'; the GPU: 'NVIDIA GeForce RTX 3090')"
# -- graz-dev/vllm-benchmark: one A10G on EKS, the vllm/vllm-openai:v0.22.0 image --------------------------
_GZ = ("https://github.com/graz-dev/vllm-benchmark/blob/468bffcb9bc2f69fcb70122db0eaaceef3623ce6/"
       "studies/0-explorative/README.md")
# -- llm-d/llm-d-benchmark: one or two H100s, 'Analysis of vLLM log files' -------------------------------
_LD = ("https://github.com/llm-d/llm-d-benchmark/blob/4f4d44943c39b76b28e30dfa1fb0dfaf1ee894b5/"
       "config_explorer/empirical-vllm-memory-results.md")
_LD_VERSION = ("0.14.x (inferred: the vllm/vllm-openai:latest image of late January 2026, per the page's "
               "'How to Replicate'; its gpt-oss-120b figure, 64.38 GiB, is the v0.14.1 figure of vllm#33155)")
# -- djangodevreng/dgx-spark-benchmarks: one DGX Spark (GB10), a 0.20 development build ---------------------
_DJ = ("https://github.com/djangodevreng/dgx-spark-benchmarks/blob/5636536703fb6fe6a4992f68162b93fa03e7f15e/"
       "results/")
_DJ_VERSION = ("0.19.2rc1.dev134+gfe9c3d6c5 (printed): a build of main after 0.19 branched, with 0.20's "
               "rules — it subtracts the CUDA-graph estimate ('default since v0.21.0' in its own log)")

_PLAIN: tuple[Log, ...] = (
    Log("qwen2-7b-a100-025-v0101", _DL + "vllm-7B-1gpuA10080GB-0.25GRAM.log",
        "lines 31 and 42–44 (lines 3–4: 'non-default args', max_model_len 16384 and utilization 0.25)",
        _DL_VERSION, "0.10.1", _DL_MODEL, "qwen2-7b", "NVIDIA A100 80GB (the file name; README)", "a100-80g",
        ("(EngineCore_0 pid=1812) INFO 09-04 01:03:03 [gpu_model_runner.py:2007] Model loading took 14.2488 GiB and "
         "4.422213 seconds",
         "(EngineCore_0 pid=1812) INFO 09-04 01:04:29 [gpu_worker.py:276] Available KV cache memory: 5.01 GiB",
         "(EngineCore_0 pid=1812) INFO 09-04 01:04:29 [kv_cache_utils.py:849] GPU KV cache size: 93,872 tokens",
         "(EngineCore_0 pid=1812) INFO 09-04 01:04:29 [kv_cache_utils.py:853] Maximum concurrency for 16,384 tokens per "
         "request: 5.73x"),
        FITS, utilization=0.25, max_model_len=16384, loading_gib=14.2488, available_gib=5.01, kv_tokens=93872,
        concurrency=5.73, install="docker", kinds=("pre-0.20",), notes=_DL_FI),
    Log("qwen2-7b-a100-050-v0101", _DL + "vllm-7B-1gpuA10080GB-0.5GRAM.log",
        "lines 31 and 42–44 (lines 3–4: max_model_len 16384, utilization 0.5)",
        _DL_VERSION, "0.10.1", _DL_MODEL, "qwen2-7b", "NVIDIA A100 80GB", "a100-80g",
        ("(EngineCore_0 pid=2881) INFO 09-04 01:29:05 [gpu_model_runner.py:2007] Model loading took 14.2488 GiB and "
         "2.993822 seconds",
         "(EngineCore_0 pid=2881) INFO 09-04 01:29:25 [gpu_worker.py:276] Available KV cache memory: 24.83 GiB",
         "(EngineCore_0 pid=2881) INFO 09-04 01:29:26 [kv_cache_utils.py:849] GPU KV cache size: 464,848 tokens",
         "(EngineCore_0 pid=2881) INFO 09-04 01:29:26 [kv_cache_utils.py:853] Maximum concurrency for 16,384 tokens per "
         "request: 28.37x"),
        FITS, utilization=0.5, max_model_len=16384, loading_gib=14.2488, available_gib=24.83, kv_tokens=464848,
        concurrency=28.37, install="docker", kinds=("pre-0.20",), notes=_DL_FI),
    Log("qwen2-7b-2xa100-40-tp2-native-v0101", _DL + "vllm-7B-2gpuA10040GB-0.5GRAM-diff-nodes.log",
        "lines 90–91, 104–105 and 115 (line 60: 'FlashInfer is not available'; run-vllm.py: the command, TP 2, "
        "utilization 0.5, max_model_len 16384, Ray over two nodes)",
        _DL_VERSION, "0.10.1", _DL_MODEL, "qwen2-7b", "2x NVIDIA A100 40GB on two nodes (the file name)", "a100-40g",
        ("(EngineCore_0 pid=1257) (RayWorkerWrapper pid=1384) INFO 09-03 04:41:48 [gpu_model_runner.py:2007] Model "
         "loading took 7.1217 GiB ",
         "(EngineCore_0 pid=1257) INFO 09-03 04:42:46 [kv_cache_utils.py:849] GPU KV cache size: 412,944 tokens",
         "(EngineCore_0 pid=1257) INFO 09-03 04:42:46 [kv_cache_utils.py:853] Maximum concurrency for 16,384 tokens per "
         "request: 25.20x",
         "(EngineCore_0 pid=1257) (RayWorkerWrapper pid=1384) INFO 09-03 04:42:46 [gpu_worker.py:276] Available KV "
         "cache memory: 11.03 GiB"),
        FITS, tensor_parallel=2, utilization=0.5, max_model_len=16384, loading_gib=7.1217, available_gib=11.03,
        kv_tokens=412944, concurrency=25.20, kinds=("pre-0.20",),
        notes="The one run where the Ray worker had no FlashInfer ('Falling back to the PyTorch-native "
              "implementation of top-p & top-k sampling'): the sort path's larger sampler peak."),
    Log("qwen2-7b-2xa100-80-tp2-025-v0101", _DL + "vllm-7B-2gpuA10080GB-0.25GRAM-same-node.log",
        "lines 3, 45, 61 and 63–64",
        _DL_VERSION, "0.10.1", _DL_MODEL, "qwen2-7b", "2x NVIDIA A100 80GB, one node", "a100-80g",
        ("(APIServer pid=1217) INFO 09-03 00:35:55 [utils.py:326] non-default args: {'model_tag': "
         "'Qwen2-7B-Instruct', 'port': 8081, 'model': 'Qwen2-7B-Instruct', 'max_model_len': 16384, "
         "'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.25}",
         "(VllmWorker TP0 pid=1430) INFO 09-03 00:39:33 [gpu_model_runner.py:2007] Model loading took 7.1217 GiB and "
         "168.264821 seconds",
         "(VllmWorker TP0 pid=1430) INFO 09-03 00:40:53 [gpu_worker.py:276] Available KV cache memory: 12.02 GiB",
         "(EngineCore_0 pid=1358) INFO 09-03 00:40:55 [kv_cache_utils.py:849] GPU KV cache size: 450,192 tokens",
         "(EngineCore_0 pid=1358) INFO 09-03 00:40:55 [kv_cache_utils.py:853] Maximum concurrency for 16,384 tokens per "
         "request: 27.48x"),
        FITS, tensor_parallel=2, utilization=0.25, max_model_len=16384, loading_gib=7.1217, available_gib=12.02,
        kv_tokens=450192, concurrency=27.48, install="docker", kinds=("pre-0.20",), notes=_DL_FI),
    Log("qwen2-7b-2xa100-80-tp2-050-v0101", _DL + "vllm-7B-2gpuA10080GB-0.5GRAM-same-node.log",
        "lines 65, 87 and 88–89 (line 3: max_model_len 16384, TP 2, utilization 0.5)",
        _DL_VERSION, "0.10.1", _DL_MODEL, "qwen2-7b", "2x NVIDIA A100 80GB, one node", "a100-80g",
        ("(VllmWorker TP0 pid=3974) INFO 09-03 02:12:04 [gpu_model_runner.py:2007] Model loading took 7.1217 GiB and "
         "2.887189 seconds",
         "(VllmWorker TP0 pid=3974) INFO 09-03 02:12:25 [gpu_worker.py:276] Available KV cache memory: 31.83 GiB",
         "(EngineCore_0 pid=3902) INFO 09-03 02:12:26 [kv_cache_utils.py:849] GPU KV cache size: 1,192,160 tokens",
         "(EngineCore_0 pid=3902) INFO 09-03 02:12:26 [kv_cache_utils.py:853] Maximum concurrency for 16,384 tokens per "
         "request: 72.76x"),
        FITS, tensor_parallel=2, utilization=0.5, max_model_len=16384, loading_gib=7.1217, available_gib=31.83,
        kv_tokens=1192160, concurrency=72.76, install="docker", kinds=("pre-0.20",), notes=_DL_FI),
    Log("gpt-oss-120b-4xa100-tp4-v0101", _DL + "vllm-120B-4gpuA10080GB-0.8GRAM-diff-nodes.log",
        "lines 3, 89, 104 and 108–109",
        _DL_VERSION, "0.10.1", "gpt-oss-120b (a clone of openai/gpt-oss-120b; README Test 9)", "gpt-oss-120b",
        "4x NVIDIA A100 80GB on Ray (the file name)", "a100-80g",
        ("(APIServer pid=1009) INFO 09-10 23:26:12 [utils.py:326] non-default args: {'model_tag': 'gpt-oss-120b', "
         "'port': 8081, 'model': 'gpt-oss-120b', 'max_model_len': 16384, 'tensor_parallel_size': 4, "
         "'gpu_memory_utilization': 0.8}",
         "(EngineCore_0 pid=1159) (RayWorkerWrapper pid=345, ip=10.42.11.243) INFO 09-10 23:47:50 "
         "[gpu_model_runner.py:2007] Model loading took 17.2217 GiB and 1219.491504 seconds",
         "(EngineCore_0 pid=1159) (RayWorkerWrapper pid=345, ip=10.42.9.225) INFO 09-10 23:48:38 [gpu_worker.py:276] "
         "Available KV cache memory: 45.32 GiB",
         "(EngineCore_0 pid=1159) INFO 09-10 23:48:39 [kv_cache_utils.py:1013] GPU KV cache size: 2,640,144 tokens",
         "(EngineCore_0 pid=1159) INFO 09-10 23:48:39 [kv_cache_utils.py:1017] Maximum concurrency for 16,384 tokens per "
         "request: 284.25x"),
        FITS, tensor_parallel=4, utilization=0.8, max_model_len=16384, weights="mxfp4", loading_gib=17.2217,
        available_gib=45.32, kv_tokens=2640144, concurrency=284.25, install="docker",
        kinds=("quantized", "pre-0.20"), notes=_DL_FI),
    Log("llama31-8b-3090-090-v0171", _TB + "baseline_llama_gmem090_offload0.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192)",
        _TB_VERSION, "0.17.1", "meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=120146) INFO 04-15 14:02:24 [gpu_model_runner.py:4364] Model loading took 14.99 GiB memory and 3.489510 seconds',
         '(EngineCore_DP0 pid=120146) INFO 04-15 14:02:29 [gpu_worker.py:424] Available KV cache memory: 5.68 GiB',
         '(EngineCore_DP0 pid=120146) INFO 04-15 14:02:29 [kv_cache_utils.py:1314] GPU KV cache size: 46,544 tokens',),
        FITS, max_model_len=8192, loading_gib=14.99, available_gib=5.68, kv_tokens=46544,
        kinds=("pre-0.20",)),
    Log("llama31-8b-3090-086-v0171", _TB + "fixd_llama_gmem086_offload0.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192, the utilization)",
        _TB_VERSION, "0.17.1", "meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=46183) INFO 07-26 10:37:07 [gpu_model_runner.py:4364] Model loading took 14.99 GiB memory and 3.412169 seconds',
         '(EngineCore_DP0 pid=46183) INFO 07-26 10:37:12 [gpu_worker.py:424] Available KV cache memory: 4.73 GiB',
         '(EngineCore_DP0 pid=46183) INFO 07-26 10:37:12 [kv_cache_utils.py:1314] GPU KV cache size: 38,736 tokens',),
        FITS, utilization=0.86, max_model_len=8192, loading_gib=14.99, available_gib=4.73, kv_tokens=38736,
        kinds=("pre-0.20",)),
    Log("llama31-8b-3090-075-v0171", _TB + "kv_vram_llama_gmem075_offload0.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192, the utilization)",
        _TB_VERSION, "0.17.1", "meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=109137) INFO 07-26 14:40:57 [gpu_model_runner.py:4364] Model loading took 14.99 GiB memory and 3.238264 seconds',
         '(EngineCore_DP0 pid=109137) INFO 07-26 14:41:02 [gpu_worker.py:424] Available KV cache memory: 2.13 GiB',
         '(EngineCore_DP0 pid=109137) INFO 07-26 14:41:02 [kv_cache_utils.py:1314] GPU KV cache size: 17,424 tokens',),
        FITS, utilization=0.75, max_model_len=8192, loading_gib=14.99, available_gib=2.13, kv_tokens=17424,
        kinds=("pre-0.20",)),
    Log("llama31-8b-3090-070-v0171-fails", _TB + "kv_vram_llama_gmem070_offload0_failed.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192, the utilization)",
        _TB_VERSION, "0.17.1", "meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=113764) INFO 07-26 14:53:49 [gpu_model_runner.py:4364] Model loading took 14.99 GiB memory and 3.330072 seconds',
         '(EngineCore_DP0 pid=113764) INFO 07-26 14:53:54 [gpu_worker.py:424] Available KV cache memory: 0.95 GiB',
         "(EngineCore_DP0 pid=113764) ERROR 07-26 14:53:54 [core.py:1100] ValueError: To serve at least one request with the models's max seq len (8192), (1.0 GiB KV cache is needed, which is larger than the available KV cache memory (0.95 GiB). Based on the available memory, the estimated maximum model length is 7760. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine. See [documentation URL omitted] for more details.",),
        TOO_LITTLE_KV, utilization=0.7, max_model_len=8192, loading_gib=14.99, available_gib=0.95, error='1.0 GiB KV cache is needed, which is larger than the available KV cache memory (0.95 GiB)',
        kinds=("failed", "pre-0.20")),
    Log("qwen25-7b-3090-090-v0171", _TB + "baseline_qwen_gmem090_offload0.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192)",
        _TB_VERSION, "0.17.1", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=13161) INFO 06-01 10:20:07 [gpu_model_runner.py:4364] Model loading took 14.25 GiB memory and 2.676422 seconds',
         '(EngineCore_DP0 pid=13161) INFO 06-01 10:20:11 [gpu_worker.py:424] Available KV cache memory: 6.32 GiB',
         '(EngineCore_DP0 pid=13161) INFO 06-01 10:20:11 [kv_cache_utils.py:1314] GPU KV cache size: 118,304 tokens',),
        FITS, max_model_len=8192, loading_gib=14.25, available_gib=6.32, kv_tokens=118304,
        kinds=("pre-0.20",)),
    Log("qwen25-7b-3090-086-v0171", _TB + "fixd_qwen_gmem086_offload0.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192, the utilization)",
        _TB_VERSION, "0.17.1", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=84225) INFO 07-26 12:54:50 [gpu_model_runner.py:4364] Model loading took 14.25 GiB memory and 17.282437 seconds',
         '(EngineCore_DP0 pid=84225) INFO 07-26 12:54:54 [gpu_worker.py:424] Available KV cache memory: 5.35 GiB',
         '(EngineCore_DP0 pid=84225) INFO 07-26 12:54:54 [kv_cache_utils.py:1314] GPU KV cache size: 100,256 tokens',),
        FITS, utilization=0.86, max_model_len=8192, loading_gib=14.25, available_gib=5.35, kv_tokens=100256,
        kinds=("pre-0.20",)),
    Log("qwen25-7b-3090-065-v0171", _TB + "kv_vram_qwen_gmem065_offload0.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192, the utilization)",
        _TB_VERSION, "0.17.1", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=7219) INFO 07-27 16:20:04 [gpu_model_runner.py:4364] Model loading took 14.25 GiB memory and 3.121751 seconds',
         '(EngineCore_DP0 pid=7219) INFO 07-27 16:20:08 [gpu_worker.py:424] Available KV cache memory: 0.49 GiB',
         '(EngineCore_DP0 pid=7219) INFO 07-27 16:20:08 [kv_cache_utils.py:1314] GPU KV cache size: 9,088 tokens',),
        FITS, utilization=0.65, max_model_len=8192, loading_gib=14.25, available_gib=0.49, kv_tokens=9088,
        kinds=("pre-0.20",)),
    Log("qwen25-7b-3090-060-v0171-fails", _TB + "kv_vram_qwen_gmem060_offload0_failed.log", "lines 8, 9, 10 (line 7: 'non-default args': the model and max_model_len 8192, the utilization)",
        _TB_VERSION, "0.17.1", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", "NVIDIA GeForce RTX 3090", "rtx-3090",
        ('(EngineCore_DP0 pid=7954) INFO 07-27 16:21:36 [gpu_model_runner.py:4364] Model loading took 14.25 GiB memory and 3.062840 seconds',
         '(EngineCore_DP0 pid=7954) INFO 07-27 16:21:40 [gpu_worker.py:424] Available KV cache memory: -0.7 GiB',
         '(EngineCore_DP0 pid=7954) ERROR 07-27 16:21:40 [core.py:1100] ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine. See [documentation URL omitted] for more details.',),
        NO_BLOCKS, utilization=0.6, max_model_len=8192, loading_gib=14.25, available_gib=-0.7, error='No available memory for the cache blocks',
        kinds=("failed", "pre-0.20")),
    Log("qwen25-7b-a10g-2048-v0220", _GZ,
        "section 'vLLM.max_model_len — history of this decision', the manual verification runs (2026-07-10); the "
        "baseline settings in 'Parameters tuned' (utilization 0.92, max_num_seqs 128, max_num_batched_tokens 2048, "
        "block 16, FLASH_ATTN, kv auto) and 'Stack & versions' (vllm/vllm-openai:v0.22.0, one A10G)",
        "0.22.0 (the image: vllm/vllm-openai:v0.22.0)", "0.22.0", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b",
        "NVIDIA A10G (AWS g5)", "a10g",
        ("`max_num_batched_tokens=2048`) with only `max_model_len` changed (`2048` vs. `32768`)",
         "produced **identical** `Available KV cache memory` (4.76 GiB) and `GPU KV cache size`",
         "(89,088 tokens) in both runs — only the *reported* \"maximum concurrency for N tokens",
         "per request\" ratio differed (43.50x vs. 2.72x), which is just `89,088 / max_model_len`,"),
        FITS, utilization=0.92, max_model_len=2048, max_num_batched_tokens=2048, max_num_seqs=128,
        available_gib=4.76, kv_tokens=89088, concurrency=43.50, install="docker", kinds=("new-gpu",),
        notes="The author's account of two boot logs, the figures as vLLM printed them. The same page gives "
              "the weights as 14.29 GiB ('model weights measured at 14.29 GiB (bfloat16)').",
        extra={"max_cudagraph_capture_size": 256}),
    Log("qwen25-7b-a10g-32768-v0220", _GZ, "the same two runs: the 32,768-token one",
        "0.22.0 (the image)", "0.22.0", "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", "NVIDIA A10G (AWS g5)", "a10g",
        ("produced **identical** `Available KV cache memory` (4.76 GiB) and `GPU KV cache size`",
         "(89,088 tokens) in both runs — only the *reported* \"maximum concurrency for N tokens",
         "per request\" ratio differed (43.50x vs. 2.72x), which is just `89,088 / max_model_len`,"),
        FITS, utilization=0.92, max_model_len=32768, max_num_batched_tokens=2048, max_num_seqs=128,
        available_gib=4.76, kv_tokens=89088, concurrency=2.72, install="docker", kinds=("new-gpu",),
        extra={"max_cudagraph_capture_size": 256}),
    Log("gpt-oss-120b-h100-v0101-fails", "https://github.com/vllm-project/vllm/issues/23278",
        "issue description (2025-08-20), the engine's lines; the command: `vllm serve openai/gpt-oss-120b` "
        "(defaults)",
        "0.10.1 (inferred: 'gpu_worker.py:276' and 'gpu_model_runner.py:2007' are the lines of 0.10.1, as in the "
        "0.10.1.1 logs of dennislee22/vLLM-benchmarking)", "0.10.1", "openai/gpt-oss-120b", "gpt-oss-120b",
        "NVIDIA H100 80GB", "h100-sxm",
        ("(EngineCore_0 pid=5839) INFO 08-20 18:04:10 [gpu_model_runner.py:2007] Model loading took 65.9651 GiB and "
         "12.799889 seconds",
         "(EngineCore_0 pid=5839) INFO 08-20 18:04:22 [gpu_worker.py:276] Available KV cache memory: -2.14 GiB",
         "(EngineCore_0 pid=5839) ERROR 08-20 18:04:22 [core.py:700] EngineCore failed to start."),
        NO_BLOCKS, max_model_len=131072, weights="mxfp4", loading_gib=65.9651, available_gib=-2.14,
        error="EngineCore failed to start (Available KV cache memory: -2.14 GiB)",
        kinds=("quantized", "failed", "pre-0.20"),
        notes="vllm serve on an H100 takes 8,192 batched tokens and 1,024 sequences: a 7.7 GiB sampler peak "
              "at gpt-oss's 201,088-token vocabulary with the PyTorch sort path (pip wheel, no FlashInfer)."),
    Log("gpt-oss-120b-h100-v0110-fails", "https://github.com/vllm-project/vllm/issues/27508",
        "comment by matheusfvesco, 2025-10-31: the command `vllm serve openai/gpt-oss-120b "
        "--gpu-memory-utilization 0.95 --max-num-batched-tokens 1024` and the traceback",
        "0.11.0 (inferred: 'gpu_worker.py:298', kv_cache_utils.py l.1243/716 and the 'models's' spelling are "
        "0.11.0's)", "0.11.0", "openai/gpt-oss-120b", "gpt-oss-120b", "NVIDIA H100", "h100-sxm",
        ("(EngineCore_DP0 pid=6880) INFO 10-31 15:07:49 [gpu_worker.py:298] Available KV cache memory: 1.71 GiB",
         "ValueError: To serve at least one request with the models's max seq len (131072), (4.54 GiB KV cache "
         "is needed, which is larger than the available KV cache memory (1.71 GiB)."),
        TOO_LITTLE_KV, utilization=0.95, max_model_len=131072, max_num_batched_tokens=1024, weights="mxfp4",
        available_gib=1.71,
        error="4.54 GiB KV cache is needed, which is larger than the available KV cache memory (1.71 GiB)",
        kinds=("quantized", "failed", "pre-0.20")),
    Log("gpt-oss-20b-a100-v0190", "https://myoceane.fr/index.php/ai-vllm-a100-gemma-4/",
        "section 'GPT-OSS-20B', the command and the system messages ('version 0.19.0', non-default args)",
        "0.19.0 (printed: 'version 0.19.0')", "0.19.0", "openai/gpt-oss-20b", "gpt-oss-20b", "NVIDIA A100",
        "a100-80g",
        ("Model loading took 13.72 GiB memory and 62.336108 seconds",
         "Available KV cache memory: 36.56 GiB"),
        FITS, utilization=0.65, max_model_len=131072, weights="mxfp4", loading_gib=13.72, available_gib=36.56,
        kinds=("quantized", "pre-0.20"),
        notes="The page does not say 40 or 80 GB; 13.72 + 36.56 GiB at 0.65 only fits the 80 GB card. The "
              "page's excerpt quotes two of the four lines."),
    Log("gpt-oss-20b-3090-gptoss-image", "https://github.com/vllm-project/vllm/issues/22331",
        "comment by GilbertKrantz (2025-08-11), quoting a run of `vllm/vllm-openai:gptoss --model openai/gpt-oss-20b` "
        "on a single RTX 3090 (24GB) with VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1 and no other flag: the "
        "engine's 'Model loading took' line",
        "the vllm/vllm-openai:gptoss launch image (2025-08-05), a build before 0.10.1 (inferred: the tag, and "
        "'gpu_model_runner.py:1962' where 0.10.1 prints from line 2007)", "0.10.1", "openai/gpt-oss-20b",
        "gpt-oss-20b", "NVIDIA GeForce RTX 3090 (24GB)", "rtx-3090",
        ("(EngineCore_0 pid=114) INFO 08-10 12:14:42 [gpu_model_runner.py:1962] Model loading took 12.8848 GiB and "
         "3.081864 seconds",),
        FITS, weights="mxfp4", loading_gib=12.8848, install="docker",
        needs=("engine: the launch image's Marlin MXFP4 layout. vLLM 0.10.1 on (and the calculator) rounds "
               "gpt-oss's experts up for Marlin (mxfp4_round_up_hidden_size_and_intermediate_size: hidden 2880 to "
               "3072, intermediate 2880 to 2944), which gives 13.67 GiB, +6.1 % on the 12.88 GiB this image loaded; "
               "without the round-up the experts take 0.85 GiB less and the weights come to 12.82 GiB (-0.5 %), so "
               "this build did not pad them yet. It is not a release the calculator's rules cover",),
        kinds=("quantized", "pre-0.20"),
        notes="The quoted run is offered as one that works on an RTX 3090 (the thread is about FlashAttention 3's "
              "sinks assertion); the excerpt read ends at torch.compile, before the KV lines, so only the weights "
              "are checked, and the verdict is the comment's."),
    Log("llama33-70b-fp8-h100-tp1-v014-fails", _LD,
        "section '4. Llama-3.3-70B-Instruct-FP8-dynamic (TP=1)': the model configuration, the empirical results "
        "and the error",
        _LD_VERSION, "0.14.1", "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "llama-3.3-70b-fp8-dynamic",
        "NVIDIA H100 (79.18 GiB)", "h100-sxm",
        ("- **Model loading took:** 67.72 GiB memory and 45.09 seconds",
         "- **Available KV cache memory:** -1.44 GiB (NEGATIVE - INSUFFICIENT)",
         "Error: `ValueError: No available memory for the cache blocks. Try increasing gpu_memory_utilization when "
         "initializing the engine.`"),
        NO_BLOCKS, utilization=0.9, max_model_len=16000, weights="fp8", loading_gib=67.72, available_gib=-1.44,
        error="No available memory for the cache blocks",
        kinds=("quantized", "failed", "pre-0.20")),
    Log("qwen3-32b-h100-32k-v014-fails", _LD,
        "the summary table, row 'Qwen3-32B | FAILED | … | 32000' (and the 16,000-token run beside it: the same "
        "weights and activation, 4.45 GiB of KV cache)",
        _LD_VERSION, "0.14.1", "Qwen/Qwen3-32B", "qwen3-32b", "NVIDIA H100 (79.18 GiB)", "h100-sxm",
        ("| Qwen3-32B                | FAILED  | 61.03              | 5.64                  | 0.14                   "
         "| N/A                    | N/A                      | 1       | 32000         |",),
        TOO_LITTLE_KV, utilization=0.9, max_model_len=32000, loading_gib=61.03,
        error="the start failed at 32,000 tokens (the page: 'No KV cache room')",
        kinds=("failed", "pre-0.20"),
        notes="The 16,000-token run of the same model is an activation point of startup_logs "
              "(ACTIVATION_CALIBRATION 'qwen3-32b-h100'); this failed start is not. 4.45 GiB cannot hold one "
              "32,000-token request (64 layers × 8 KV heads × 128 × 2 × 2 B = 256 KiB a token: 7.8 GiB)."),
    Log("qwen3-8b-h100-lmcache-faq", "https://github.com/LMCache/LMCache/pull/1769",
        "the FAQ table the PR adds ('KV Cache Sizes for Popular Models', docs/source faq.rst), row Qwen/Qwen3-8B: "
        "'Spare GPU RAM for KV cache' and 'Number of full-length prompts', at the model's default context "
        "(40,960 tokens) and vLLM's default utilization; the other rows say 'on H100'",
        "not printed (the PR, 2025-10-10: 0.10.2 or 0.11.0, whose rules agree here; a pip install, no FlashInfer)",
        "0.11.0", "Qwen/Qwen3-8B", "qwen3-8b", "NVIDIA H100 (the table's 'on H100')", "h100-sxm",
        ("   * - Qwen/Qwen3-8B",
         "     - 0.1373 GB",
         "     - 50.32 GB (or 366,400 tokens)",
         "     - 40,960 tokens",
         "     - 8.95x"),
        FITS, max_model_len=40960, available_gib=50.32, kv_tokens=366400, concurrency=8.95, kinds=("pre-0.20",),
        notes="'GB' is vLLM's GiB (50.32 GiB ÷ 144 KiB a token = 366,400). 50.32 GiB at one H100 leaves 5.6 GiB "
              "for the activation peak: vllm serve's 1,024 sequences × 151,936 logits through PyTorch's sort. "
              "The TP 2 and TP 4 rows of the same table are in SEEN."),
    Log("qwen36-35b-a3b-gb10-v020dev", _DJ + "qwen-3.6/qwen-3.6-35b-a3b/bf16/_bootlog.txt",
        "lines 8 (non-default args: utilization 0.95, max_model_len 131072, prefix caching off, language model "
        "only), 33, 34, 44, 45, 47 and 48",
        _DJ_VERSION, "0.20.0", "Qwen/Qwen3.6-35B-A3B", "qwen3.6-35b-a3b", "NVIDIA DGX Spark (GB10)", "gb10",
        ("(EngineCore pid=153) INFO 05-05 08:50:44 [gpu_model_runner.py:4854] Model loading took 64.69 GiB memory "
         "and 5640.521566 seconds",
         "(EngineCore pid=153) INFO 05-05 08:50:44 [interface.py:606] Setting attention block size to 1056 tokens "
         "to ensure that attention page size is >= mamba page size.",
         "(EngineCore pid=153) INFO 05-05 08:52:25 [gpu_model_runner.py:6003] Estimated CUDA graph memory: 0.93 GiB "
         "total",
         "(EngineCore pid=153) INFO 05-05 08:52:25 [gpu_worker.py:440] Available KV cache memory: 47.55 GiB",
         "(EngineCore pid=153) INFO 05-05 08:52:25 [kv_cache_utils.py:1337] GPU KV cache size: 623,040 tokens",
         "(EngineCore pid=153) INFO 05-05 08:52:25 [kv_cache_utils.py:1342] Maximum concurrency for 131,072 tokens "
         "per request: 18.44x"),
        FITS, utilization=0.95, max_model_len=131072, loading_gib=64.69, available_gib=47.55, kv_tokens=623040,
        concurrency=18.44, install="docker", language_model_only=True, prefix_caching=False,
        kinds=("hybrid", "new-gpu"),
        extra={"cuda_graph_estimate_gib": 0.93}),
    Log("nemotron3-nano-4b-gb10-v020dev", _DJ + "nemotron-3/nemotron-3-nano-4b/bf16/_bootlog.txt",
        "lines 8 (non-default args: max_model_len 49152, utilization 0.95, kv fp8_e4m3, prefix caching off), 14, "
        "28, 29, 41, 42, 45 and 46",
        _DJ_VERSION, "0.20.0", "nvidia/NVIDIA-Nemotron-3-Nano-4B-BF16", "nemotron-3-nano-4b",
        "NVIDIA DGX Spark (GB10)", "gb10",
        ("(EngineCore pid=125) INFO 05-05 12:41:18 [gpu_model_runner.py:4854] Model loading took 7.43 GiB memory "
         "and 634.902425 seconds",
         "(EngineCore pid=125) INFO 05-05 12:41:18 [interface.py:606] Setting attention block size to 1952 tokens "
         "to ensure that attention page size is >= mamba page size.",
         "(EngineCore pid=125) INFO 05-05 12:41:33 [gpu_model_runner.py:6003] Estimated CUDA graph memory: 2.44 GiB "
         "total",
         "(EngineCore pid=125) INFO 05-05 12:41:33 [gpu_worker.py:440] Available KV cache memory: 103.39 GiB",
         "(EngineCore pid=125) INFO 05-05 12:41:33 [kv_cache_utils.py:1337] GPU KV cache size: 1,934,432 tokens",
         "(EngineCore pid=125) INFO 05-05 12:41:33 [kv_cache_utils.py:1342] Maximum concurrency for 49,152 tokens "
         "per request: 216.94x"),
        FITS, utilization=0.95, max_model_len=49152, kv_dtype="fp8_e4m3", loading_gib=7.43, available_gib=103.39,
        kv_tokens=1934432, concurrency=216.94, install="docker",
        needs=("engine: the CUDA-graph estimate of a Mamba-2 hybrid on the V1 runner — the log prints 2.44 GiB, "
               "the rule (vllm_releases.CUDA_GRAPH_BYTES_V1) takes 0.9 GiB, as for the attention-only models; "
               "vLLM measures it by capturing (profile_cudagraph_memory: per mode the first capture's drop in "
               "free memory plus (n - 1) x the second's), which is not derived here: the same build on the same "
               "GB10 printed 0.93 GiB for Qwen3.6-35B-A3B (qwen36-35b-a3b-gb10-v020dev) at the same default "
               "capture sizes (up to 512), so the capture sizes do not give the figure. The "
               "catalogue entry (its shape from the NeuronX port's quote of the config) gives the weights to "
               "-0.4 % (7.40 GiB for 7.43) and the pool +2.0 % (105.44 GiB), tokens +2.02 %, concurrency "
               "+2.0 %; with the printed 2.44 GiB the pool would be 103.90 GiB (+0.5 %)",),
        kinds=("hybrid", "new-gpu"),
        notes="A Mamba-2 hybrid printing all four lines ('Updating mamba_ssm_cache_dtype to float32 for NemotronH "
              "model', line 14). Its CUDA-graph estimate, 2.44 GiB for a 4B model, is the largest of the table.",
        extra={"enable_prefix_caching": False, "cuda_graph_estimate_gib": 2.44}),
    Log("nemotron3-super-nvfp4-gb10-v020dev", _DJ + "nemotron-3/nemotron-3-super-120b-a12b/nvfp4/_bootlog.txt",
        "lines 8 (non-default args: max_model_len 131072, utilization 0.95, kv fp8, prefix caching off, "
        "max_num_seqs 20, MTP with 3 speculative tokens), 23 ('quantization=modelopt_mixed'), 53, 54, 73, 74, 77 "
        "and 78",
        _DJ_VERSION, "0.20.0", "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4", "nemotron-3-super-120b-a12b-nvfp4",
        "NVIDIA DGX Spark (GB10)", "gb10",
        ("(EngineCore pid=185) INFO 05-04 23:55:10 [gpu_model_runner.py:4854] Model loading took 75.03 GiB memory "
         "and 7505.432981 seconds",
         "(EngineCore pid=185) INFO 05-04 23:55:10 [interface.py:606] Setting attention block size to 8432 tokens "
         "to ensure that attention page size is >= mamba page size.",
         "(EngineCore pid=185) INFO 05-04 23:55:56 [gpu_model_runner.py:6003] Estimated CUDA graph memory: 0.69 GiB "
         "total",
         "(EngineCore pid=185) INFO 05-04 23:55:57 [gpu_worker.py:440] Available KV cache memory: 36.25 GiB",
         "(EngineCore pid=185) INFO 05-04 23:55:57 [kv_cache_utils.py:1337] GPU KV cache size: 1,399,712 tokens",
         "(EngineCore pid=185) INFO 05-04 23:55:57 [kv_cache_utils.py:1342] Maximum concurrency for 131,072 tokens "
         "per request: 27.81x"),
        FITS, utilization=0.95, max_model_len=131072, max_num_seqs=20, weights="nvfp4", kv_dtype="fp8",
        loading_gib=75.03, available_gib=36.25, kv_tokens=1399712, concurrency=27.81, install="docker",
        needs=("catalogue: NVIDIA's NVFP4 release of Nemotron 3 Super, which vLLM loads as modelopt_mixed "
               "(ModelOpt MIXED_PRECISION, layer by layer): the stored copy of its hf_quant_config.json "
               "(ai-dynamo/aiconfigurator) holds only quant_algo NVFP4, not the per-layer list, so the catalogue "
               "has the bf16 release alone (models/data/nvidia.py)",
               "engine: the MTP drafter ('*E', one attention and one latent-MoE block; 'Loading drafter model...', "
               "embeddings and LM head shared) is loaded beside the model and its weights are not counted. Fed the "
               "printed 36.25 GiB, the layout of the bf16 entry with the drafter's attention layer in the groups "
               "gives 1,399,712 tokens and 27.81x exactly (engines/hybrid_logs.py)"),
        kinds=("quantized", "hybrid", "new-gpu"),
        notes="A Mamba-2 latent-MoE hybrid with MTP speculative decoding, all four lines printed.",
        extra={"enable_prefix_caching": False, "cuda_graph_estimate_gib": 0.69, "num_speculative_tokens": 3}),
    Log("qwen36-35b-nvfp4-rtxpro6000-v0251", "https://github.com/vllm-project/vllm/issues/49476",
        "comment by jahnclawdmonet (2026-08-26): the flags (kv fp8, max_model_len 180224, max_num_batched_tokens "
        "8192, max_num_seqs 8, utilization 0.92) and the results table, row 'marlin'",
        "0.25.1 (stated: 'v0.25.1')", "0.25.1", "nvidia/Qwen3.6-35B-A3B-NVFP4", "qwen3.6-35b-a3b-nvfp4",
        "NVIDIA RTX PRO 6000 Blackwell", "rtx-pro-6000",
        ("| marlin | 64.36 GiB | 6,518,438 tok | 36.17x | yes |",),
        FITS, utilization=0.92, max_model_len=180224, max_num_batched_tokens=8192, max_num_seqs=8, weights="nvfp4",
        kv_dtype="fp8", available_gib=64.36, kv_tokens=6518438, concurrency=36.17,
        notes="No --limit-mm-per-prompt: vLLM loads the vision tower (0.45B parameters, 0.83 GiB in bf16) and "
              "profiles one 4096 × 4096 image (16,384 tokens) before the text pass (engines.vllm_encoder).",
        kinds=("quantized", "hybrid", "new-gpu")),
    Log("qwen36-35b-nvfp4-5090-652", "https://github.com/noonghunna/club-3090/issues/652",
        "issue description, the engine's lines and 'non-default args'", "0.24.0 (printed: 'Initializing a V1 LLM "
        "engine (v0.24.0)')", "0.24.0", "qwen3.6-35b-a3b-nvfp4 (modelopt)", "qwen3.6-35b-a3b-nvfp4",
        "NVIDIA GeForce RTX 5090", "rtx-5090",
        ("(EngineCore pid=107) INFO 07-09 02:58:10 [gpu_model_runner.py:6588] Estimated CUDA graph memory: 0.41 GiB "
         "total",
         "(EngineCore pid=107) INFO 07-09 02:58:11 [gpu_worker.py:508] Available KV cache memory: 6.01 GiB",
         "(EngineCore pid=107) INFO 07-09 02:58:11 [kv_cache_utils.py:2146] GPU KV cache size: 569,878 tokens",
         "(EngineCore pid=107) INFO 07-09 02:58:11 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 "
         "tokens per request: 4.35x"),
        FITS, max_model_len=131072, max_num_batched_tokens=8192, max_num_seqs=1, weights="nvfp4", kv_dtype="fp8",
        available_gib=6.01, kv_tokens=569878, concurrency=4.35, install="docker",
        limit_mm_per_prompt={"image": 2, "audio": 0}, prefix_caching=True,
        needs=(_QWEN36_5090_NEEDS.format(pool="5.69", err="-5.3", tokens="-5.3", conc="-5.4", graphs="6.18",
                                         graphs_err="+2.8", rest="0.17"),),
        kinds=("quantized", "hybrid", "new-gpu"),
        extra={"cuda_graph_estimate_gib": 0.41},
        notes="limit_mm_per_prompt image 2 (video left at 999): the tower is loaded and one 4096 × 4096 image "
              "(16,384 tokens) is profiled, as without the flag; prefix caching on puts the Gated DeltaNet states "
              "in 'align' mode (engines.hybrid_logs)."),
    Log("qwen36-35b-nvfp4-5090-612", "https://github.com/noonghunna/club-3090/issues/612",
        "issue description, the engine's lines and 'non-default args'", "0.24.0 (printed)", "0.24.0",
        "qwen3.6-35b-a3b-nvfp4 (modelopt)", "qwen3.6-35b-a3b-nvfp4", "NVIDIA GeForce RTX 5090", "rtx-5090",
        ("(EngineCore pid=107) INFO 07-06 22:52:09 [gpu_worker.py:508] Available KV cache memory: 5.98 GiB",
         "(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2146] GPU KV cache size: 567,978 tokens",
         "(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 "
         "tokens per request: 4.33x"),
        FITS, max_model_len=131072, max_num_batched_tokens=8192, max_num_seqs=1, weights="nvfp4", kv_dtype="fp8",
        available_gib=5.98, kv_tokens=567978, concurrency=4.33, install="docker",
        limit_mm_per_prompt={"image": 2, "audio": 0}, prefix_caching=True,
        needs=(_QWEN36_5090_NEEDS.format(pool="5.69", err="-4.8", tokens="-5.0", conc="-4.9", graphs="6.18",
                                         graphs_err="+3.4", rest="0.20")
               + " (the 0.41 GiB is #652's, the same compose two days later)",),
        kinds=("quantized", "hybrid", "new-gpu")),
    Log("llama3-70b-awq-2xl40s-v0160",
        "https://github.com/kagaho/VLLM_Serve_llama3-70b-awq_on_L40S_with_Tensor_Parallelism_2/blob/"
        "3e970694c3f6dc44e83284d52c36ce2476dee571/README.md",
        "the 'podman logs' block and the podman command above it (the GPUs: nvidia-smi.md and "
        "vllm_collect-env.md of the same commit, 'GPU 0: NVIDIA L40S', flashinfer-python 0.6.3)",
        "0.16.0 (printed: 'version 0.16.0')", "0.16.0", "TechxGenus/Meta-Llama-3-70B-Instruct-AWQ",
        "llama-3-70b-awq", "NVIDIA L40S", "l40s",
        ("(APIServer pid=46) INFO 02-27 20:31:36 [utils.py:223] non-default args: {'model_tag': "
         "'/mnt/shockwave/soundwave/models/llama3-70b-awq', 'api_server_count': 1, 'port': 8002, 'model': "
         "'/mnt/shockwave/soundwave/models/llama3-70b-awq', 'tensor_parallel_size': 2}",
         "(APIServer pid=46) INFO 02-27 20:31:43 [model.py:1549] Using max model len 8192",
         "(APIServer pid=46) INFO 02-27 20:31:44 [awq_marlin.py:162] The model is convertible to awq_marlin during "
         "runtime. Using awq_marlin kernel.",
         "(Worker_TP0 pid=512) INFO 02-27 20:32:31 [gpu_model_runner.py:4221] Model loading took 18.55 GiB memory "
         "and 31.238919 seconds",
         "(Worker_TP0 pid=512) INFO 02-27 20:33:05 [gpu_worker.py:373] Available KV cache memory: 20.16 GiB",
         "(EngineCore_DP0 pid=314) INFO 02-27 20:33:05 [kv_cache_utils.py:1307] GPU KV cache size: 132,128 tokens",
         "(EngineCore_DP0 pid=314) INFO 02-27 20:33:05 [kv_cache_utils.py:1312] Maximum concurrency for 8,192 "
         "tokens per request: 16.13x"),
        FITS, tensor_parallel=2, max_model_len=8192, weights="awq", loading_gib=18.55, available_gib=20.16,
        kv_tokens=132128, concurrency=16.13, install="docker", kinds=("quantized", "pre-0.20"),
        notes="The vllm/vllm-openai:latest image of February 2026, every setting but the TP size at its default; "
              "the model directory is the TechxGenus release (the repository's name and README)."),
    Log("qwen3-235b-fp8-4xrtxpro6000-v0271",
        "https://github.com/kubesimplify/website/blob/08b151ee1aa38188fb118b99104567117a2ca6d4/content/blog/"
        "running-a-big-llm-across-multiple-gpus-with-vllm.md",
        "'Step 4: The command, and every flag in it': the docker command and the log under it (the page: "
        "'Worker_TP1, Worker_TP2 and Worker_TP3 print the same line, same numbers, different pid')",
        "0.27.1 (stated: 'vLLM 0.27.1 running in the official container')", "0.27.1",
        "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (the layers of Qwen/Qwen3-235B-A22B-FP8: the page quotes its "
        "config, 94 layers, 4 KV heads of 128, 128 experts with 8 active, fp8 in 128 x 128 blocks)",
        "qwen3-235b-a22b-fp8", "NVIDIA RTX PRO 6000 Blackwell Server Edition (4 of 8, PCIe, no NVLink)",
        "rtx-pro-6000",
        ("(Worker_TP0 pid=770) INFO 08-21 18:18:05 [gpu_model_runner.py:5405] Model loading took 55.19 GiB memory "
         "and 48.502592 seconds",
         "(EngineCore pid=558) INFO 08-21 18:21:55 [kv_cache_utils.py:2235] GPU KV cache size: 621,392 tokens",
         "(EngineCore pid=558) INFO 08-21 18:21:55 [kv_cache_utils.py:2236] Maximum concurrency for 32,768 tokens "
         "per request: 18.96x",
         "(Worker_TP1 pid=771) INFO 08-21 18:22:06 [gpu_worker.py:789] Free memory on device (94.05/95.01 GiB) on "
         "startup. Desired GPU memory utilization is (0.9, 85.51 GiB). Actual usage is 56.89 GiB for consumed "
         "memory (weights + non-torch), 0.76 GiB for peak activation, and 0.32 GiB for CUDAGraph memory. Replace "
         "gpu_memory_utilization config with `--kv-cache-memory=29407858586` (27.39 GiB) to fit into requested "
         "memory, or `--kv-cache-memory=38581581312` (35.93 GiB) to fully utilize gpu memory. Current kv cache "
         "memory in use is 27.85 GiB."),
        FITS, tensor_parallel=4, utilization=0.90, max_model_len=32768, max_num_seqs=32, weights="fp8",
        loading_gib=55.19, available_gib=27.85, kv_tokens=621392, concurrency=18.96, install="docker",
        needs=("engine: 0.49 GiB of consumed memory that the source does not size. The log's consumed memory is "
               "56.89 GiB, 1.70 GiB over the 55.19 GiB of weights, and its activation peak 0.76 GiB (0.32 of it the "
               "CUDA-graph estimate, so 0.44 transient). The rules now take the fused-MoE workspace "
               "(vllm_releases.Rules.moe_experts_backend, vllm.moe_workspace_bytes): block fp8 on SM120 runs on "
               "the Triton experts (FlashInfer CUTLASS takes block fp8 on SM90 only, TRT-LLM the SM100 family, "
               "DeepGEMM is off), whose buffers the WorkspaceManager keeps from the profile run, 8,192 x 8 x "
               "(4,096 + 4,096) x 2 B = 1.0 GiB, counted from 0.27 in total_consumed; with it the text pass "
               "comes to 1.33 GiB and the pool to 28.65 GiB (+2.9 %; +6.5 % without). Read for the rest "
               "(vLLM 0.27.1): the CUDA-graph profiling runs after the memory_profiling block "
               "(gpu_worker.py l.517), so none of it is in consumed memory; the init snapshot is taken after "
               "NCCL's set-up (l.395, PR #25359) and custom all-reduce is off on four PCIe GPUs, so no "
               "all-reduce buffer either; attention is FlashAttention on SM120 (platforms/cuda.py "
               "_get_backend_priorities: FLASH_ATTN first off SM100), not FlashInfer with its 394 MiB "
               "workspace; moe_align_block_size's tensors are per call and under 1 MiB. What the source does "
               "size: the model runner is built after that snapshot (l.406-423), so from 0.27 total_consumed "
               "takes in its persistent buffers, chiefly inputs_embeds, max_num_batched_tokens x hidden x "
               "bf16 = 64 MiB here (gpu_model_runner.py l.798; up to 0.26 neither the weights nor the "
               "profile's peak increase held them), not landed: the 0.31.0 A100 log that NON_TORCH_BYTES "
               "is partly fitted to holds them too (16 MiB at 2,048 tokens), so a term of their own would "
               "count them twice. That leaves about 0.49 GiB: "
               "total_consumed is the drop in free memory (mem_get_info), so it also holds the caching "
               "allocator's reserved-but-free segments after the weights' post-processing and the CUDA "
               "modules (Triton, Inductor, cuBLAS) loaded after the snapshot, neither of which the source "
               "sizes. The weights come to -0.1 % (55.12 GiB) and the pool +2.9 % (28.65 GiB for 27.85; the "
               "log's own parts give 85.51 - 56.89 - 0.76 = 27.86), tokens +2.9 %, concurrency +2.9 %",),
        kinds=("quantized", "new-gpu"),
        notes="0.27 prints no 'Available KV cache memory' line: the pool is the 'Current kv cache memory in use' "
              "of the gpu_worker line. VLLM_USE_DEEP_GEMM=0 (the fp8 block GEMMs on Triton or CUTLASS)."),
    Log("qwen25-05b-t4-dp2-v0110", "https://github.com/ray-project/kuberay/issues/4366",
        "the issue description, 'Complete log of running `vllm serve` manually': the engine of DP rank 1 (node "
        "10.233.69.249; DP rank 0 prints the same loading and available lines). The issue: '2 GPU worker nodes, "
        "each containing 1 Nvidia Tesla T4'; the RayService manifest above the log is another run",
        "0.11.0 (printed: 'vLLM API server version 0.11.0', 'Initializing a V1 LLM engine (v0.11.0)')", "0.11.0",
        "Qwen/Qwen2.5-0.5B-Instruct", "qwen2.5-0.5b", "NVIDIA Tesla T4 (one per node)", "t4",
        ("(APIServer pid=5332) INFO 01-12 06:14:25 [utils.py:233] non-default args: {'model_tag': "
         "'Qwen/Qwen2.5-0.5B-Instruct', 'model': 'Qwen/Qwen2.5-0.5B-Instruct', 'data_parallel_size': 2, "
         "'data_parallel_size_local': 1, 'data_parallel_backend': 'ray'}",
         "(APIServer pid=5332) WARNING 01-12 06:14:26 [model.py:1682] Your device 'Tesla T4' (with compute "
         "capability 7.5) doesn't support torch.bfloat16. Falling back to torch.float16 for compatibility.",
         "(APIServer pid=5332) (DPEngineCoreActor pid=5439, ip=10.233.69.249) INFO 01-12 06:15:28 "
         "[gpu_model_runner.py:2653] Model loading took 0.9271 GiB and 6.191529 seconds",
         "(APIServer pid=5332) (DPEngineCoreActor pid=5439, ip=10.233.69.249) INFO 01-12 06:15:59 "
         "[gpu_worker.py:298] Available KV cache memory: 10.74 GiB",
         "(APIServer pid=5332) (DPEngineCoreActor pid=5439, ip=10.233.69.249) INFO 01-12 06:16:00 "
         "[kv_cache_utils.py:1087] GPU KV cache size: 938,544 tokens",
         "(APIServer pid=5332) (DPEngineCoreActor pid=5439, ip=10.233.69.249) INFO 01-12 06:16:00 "
         "[kv_cache_utils.py:1091] Maximum concurrency for 32,768 tokens per request: 28.64x"),
        FITS, data_parallel=2, max_model_len=32768, max_num_batched_tokens=2048, loading_gib=0.9271,
        available_gib=10.74, kv_tokens=938544, concurrency=28.64,
        kinds=("new-gpu", "pre-0.20"),
        notes="The checkpoint ships bf16; vLLM runs it in fp16 on compute capability 7.5 (the warning quoted), "
              "with FlexAttention ('FA2 is only supported on devices with compute capability >= 8') and the "
              "PyTorch-native sampler ('FlashInfer is not available'). Utilization at its default."),
    Log("llama31-8b-l4-32000-v0110",
        "https://github.com/abinavChandar/demo_env_l4/blob/097d5ab2cbe19e49c91325bbca531f50d76b419e/vllm.log",
        "the server's own log: the 'non-default args' line (19:22:10: max_model_len 32000, utilization 0.92, "
        "max_num_seqs 128), the scheduler line (19:22:31: max_num_batched_tokens 2048, vllm serve's default "
        "below 70 GiB), the sampler warning (19:22:48) and the engine's lines of 19:25:01 to 19:25:51",
        "0.11.0 (printed: 'vLLM API server version 0.11.0', 'Initializing a V1 LLM engine (v0.11.0)')", "0.11.0",
        "meta-llama/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b",
        "NVIDIA L4 (the repository's name, 'demo_env_l4'; the log agrees: bf16 with FlashAttention, so compute "
        "capability 8.0 or more, and Inductor's 'Not enough SMs' warning, which a card of fewer than 68 SMs "
        "prints: the L4 has 58, the A10G 80)", "l4",
        ("(APIServer pid=4394) INFO 10-14 19:22:10 [utils.py:233] non-default args: {'model': "
         "'meta-llama/Meta-Llama-3.1-8B-Instruct', 'trust_remote_code': True, 'max_model_len': 32000, "
         "'gpu_memory_utilization': 0.92, 'max_num_seqs': 128}",
         "(APIServer pid=4394) INFO 10-14 19:22:31 [scheduler.py:205] Chunked prefill is enabled with "
         "max_num_batched_tokens=2048.",
         "(EngineCore_DP0 pid=4671) WARNING 10-14 19:22:48 [topk_topp_sampler.py:66] FlashInfer is not available. "
         "Falling back to the PyTorch-native implementation of top-p & top-k sampling. For the best performance, "
         "please install FlashInfer.",
         "(EngineCore_DP0 pid=4671) INFO 10-14 19:25:01 [gpu_model_runner.py:2653] Model loading took 14.9889 GiB "
         "and 132.108878 seconds",
         "(EngineCore_DP0 pid=4671) [rank0]:W1014 19:25:11.084000 4671 torch/_inductor/utils.py:1436] [0/0] Not "
         "enough SMs to use max_autotune_gemm mode",
         "(EngineCore_DP0 pid=4671) INFO 10-14 19:25:50 [gpu_worker.py:298] Available KV cache memory: 4.75 GiB",
         "(EngineCore_DP0 pid=4671) INFO 10-14 19:25:51 [kv_cache_utils.py:1087] GPU KV cache size: 38,944 tokens",
         "(EngineCore_DP0 pid=4671) INFO 10-14 19:25:51 [kv_cache_utils.py:1091] Maximum concurrency for 32,000 "
         "tokens per request: 1.22x"),
        FITS, utilization=0.92, max_model_len=32000, max_num_batched_tokens=2048, max_num_seqs=128,
        loading_gib=14.9889, available_gib=4.75, kv_tokens=38944, concurrency=1.22,
        needs=("engine: 0.08-0.23 GiB outside the sampler. The log leaves 0.92 x 22.03 - 14.99 - 4.75 = 0.52 GiB "
               "(2,434 blocks of 2 MiB: 4.754-4.756 GiB) for the activation peak and the non-torch memory together; "
               "the rules take 0.76 GiB (the native sampler's 39 bytes a logit x 128 x 128,256 = 0.60 GiB, 0.02 GiB "
               "of hidden states kept, 0.15 GiB non-torch), so the weights come to -0.2 % (14.96 GiB) and the pool "
               "4.2 % low (4.55 GiB for 4.75), tokens -4.4 % (37,248), concurrency -4.6 % (1.16). vLLM 0.11.0's "
               "source gives the sort path's peak as 38 bytes a logit at any batch of 128 rows or more, with "
               "nothing that shrinks at 128 (engines/NOTES.md, the sampler paragraph): 0.581 GiB here, plus 0.018 "
               "GiB of kept hidden states and PyTorch's 8 MiB cuBLAS workspace, 0.607 GiB, which alone exceeds what "
               "the log leaves for activation and non-torch memory together. So the non-torch increase vLLM "
               "measured was about -0.08 GiB (+0.07 on the 0.10.2 H100 log, which prints it; +0.07 on this table's "
               "T4 log at 0.11.0, by the same sum), or the card reports 0.2 GiB more than 22.03 GiB. Either is a "
               "property of this host (the engine process imports TensorFlow, as on a notebook image, and "
               "cudaMemGetInfo counts other processes' memory), not a sampler rule; no rule is changed for it",),
        kinds=("new-gpu", "pre-0.20"),
        notes="A pip install (FlashInfer absent: the PyTorch-native top-k/top-p sort in the profile run). The "
              "L4's 22.03 GiB is hardware.GPUS['l4']'s visible total; the log prints 'Graph capturing finished "
              "in 7 secs, took 0.38 GiB' after the pool is sized (0.11.0 does not subtract it)."),
    Log("qwen3-30b-a3b-2507-h100-v0102",
        "https://github.com/kolyangg/mlops-assignment/blob/410b9585d5464a90c0fd357d85b1b5ca372a17eb/logs/vllm.log",
        "the server's own log: the 'non-default args' line (14:13:11: max_model_len 6144, utilization at its "
        "default), the scheduler line (14:13:19: 8,192 batched tokens, vllm serve's default at 70 GiB and more), "
        "the MoE config warning that names the card (14:13:55) and the engine's lines of 14:13:41 to 14:14:04",
        "0.10.2 (printed: 'vLLM API server version 0.10.2', 'Initializing a V1 LLM engine (v0.10.2)')", "0.10.2",
        "Qwen/Qwen3-30B-A3B-Instruct-2507 (the layers of Qwen/Qwen3-30B-A3B: 48 layers, 4 KV heads of 128, 128 "
        "experts with 8 active; the release differs in its context and RoPE base, and max_model_len is set)",
        "qwen3-30b-a3b", "NVIDIA H100 80GB HBM3 (the MoE config file name; 'Free memory on device (78.57/79.18 GiB)')",
        "h100-sxm",
        ("(APIServer pid=1288829) INFO 06-16 14:13:11 [utils.py:328] non-default args: {'host': '0.0.0.0', "
         "'model': 'Qwen/Qwen3-30B-A3B-Instruct-2507', 'dtype': 'bfloat16', 'max_model_len': 6144, "
         "'enable_prefix_caching': True}",
         "(APIServer pid=1288829) INFO 06-16 14:13:19 [scheduler.py:222] Chunked prefill is enabled with "
         "max_num_batched_tokens=8192.",
         "(EngineCore_DP0 pid=1289229) INFO 06-16 14:13:41 [gpu_model_runner.py:2392] Model loading took 56.9342 GiB "
         "and 13.398206 seconds",
         "(EngineCore_DP0 pid=1289229) WARNING 06-16 14:13:55 [fused_moe.py:727] Using default MoE config. "
         "Performance might be sub-optimal! Config file not found at ['/home/niko/hw3/mlops-assignment/.venv/lib/"
         "python3.12/site-packages/vllm/model_executor/layers/fused_moe/configs/E=128,N=768,"
         "device_name=NVIDIA_H100_80GB_HBM3.json']",
         "(EngineCore_DP0 pid=1289229) INFO 06-16 14:13:56 [gpu_worker.py:298] Available KV cache memory: 8.68 GiB",
         "(EngineCore_DP0 pid=1289229) INFO 06-16 14:13:57 [kv_cache_utils.py:864] GPU KV cache size: 94,784 tokens",
         "(EngineCore_DP0 pid=1289229) INFO 06-16 14:13:57 [kv_cache_utils.py:868] Maximum concurrency for 6,144 "
         "tokens per request: 15.43x",
         "(EngineCore_DP0 pid=1289229) INFO 06-16 14:14:04 [gpu_worker.py:391] Free memory on device (78.57/79.18 "
         "GiB) on startup. Desired GPU memory utilization is (0.9, 71.26 GiB). Actual usage is 56.93 GiB for "
         "weight, 5.58 GiB for peak activation, 0.07 GiB for non-torch memory, and 0.69 GiB for CUDAGraph memory. "
         "Replace gpu_memory_utilization config with `--kv-cache-memory=8417154969` to fit into requested memory, "
         "or `--kv-cache-memory=16270032384` to fully utilize gpu memory. Current kv cache memory in use is "
         "9318930329 bytes."),
        FITS, max_model_len=6144, max_num_batched_tokens=8192, loading_gib=56.9342, available_gib=8.68,
        kv_tokens=94784, concurrency=15.43, kinds=("pre-0.20",),
        notes="A pip install (FlashInfer absent). The gpu_worker line gives the parts: 71.26 - 56.93 - 5.58 - "
              "0.07 = 8.68 GiB; 5.58 GiB of activation at 1,024 requests x 151,936 logits is the native "
              "sampler's 38 bytes a logit. Read for the new-GPU search of branch s29-gpu; an H100, not a new "
              "card, kept because it names every setting."),
)

#: Logs read for this table and left out: what each lacks.
_SEEN_PLAIN: tuple[Seen, ...] = (
    Seen("https://github.com/Drolsey/syslab-server/blob/main/docs/models.md",
         "sections 'Down to 14B' and '16384 to 32768' (Qwen/Qwen3-14B-AWQ at 0.70 on an RTX 5090, vLLM 0.28.0: "
         "9.27 GiB, 60,768 tokens, 3.71x and 1.85x; the version read: search-index id 69451098589)",
         "the card is shared with the box's other services (embeddings, speech: the page's 'Section 13'), and "
         "from 0.27 vLLM counts whatever leaves the free pool during its profile as 'consumed memory' — 11.22 "
         "GiB beside a 9.29 GiB checkpoint. With a Qwen3-14B-AWQ entry the calculator gives 9.29 GiB of "
         "weights and the 1.46 GiB activation peak the page prints, and 11.08 GiB of cache (+19.5 %): the "
         "1.8 GiB is another tenant's"),
    Seen("https://github.com/LMCache/LMCache/pull/1769",
         "the FAQ table: Qwen/Qwen3-32B (tp=2 on H100) 33.66 GB, 275,760 tokens; Llama-3.1-70B (tp=4 on H100) "
         "32.06 GB, 420,208 tokens",
         "under tensor parallelism on H100s these pools are 0.8–1.2 GiB below what the one-GPU rules and the "
         "A100 logs' 0.12 GiB of NCCL memory give (llm-d's H100 table shows 0.41 GiB more non-torch memory at "
         "TP 2 than at TP 1): the H100's all-reduce buffers are not pinned down by these logs"),
    Seen(_LD, "the summary table, row 'gpt-oss-120b' (64.38 GiB weights, 7.38 activation, 0.13 non-torch, 3.33 KV)",
         "its parts do not add up: 0.9 × 79.18 − 64.38 − 7.38 − 0.13 = −0.63 GiB, not 3.33 (the activation looks "
         "copied from gpt-oss-20b's row); the other H100 rows of the page are activation points of startup_logs"),
    Seen(_TB + "fixd_llama_gmem090_offload0_failed.log",
         "lines 8–11: 5.61 GiB, 45,968 tokens, then a CUDA OOM warming up the sampler",
         "the start failed after the KV cache was sized (sampler warm-up OOM), which no verdict of the table "
         "describes; it repeats the 0.90 run of April (5.68 GiB) within 0.07 GiB"),
    Seen(_TB + "kv_vram_qwen_gmem065_offload0_failed.log",
         "lines 8–10: 0.41 GiB available, 0.44 GiB needed at 8,192 tokens",
         "the same settings as kv_vram_qwen_gmem065_offload0.log, which started with 0.49 GiB: run-to-run noise "
         "of 0.08 GiB decides the verdict, which no calculator can reproduce"),
    Seen(_TB + "fixd_llama_gmem086_offload12.log", "the cpu_offload_gb runs (offload12)",
         "--cpu-offload-gb moves 12 GiB of weights to the host: not modelled"),
    Seen("https://github.com/Drolsey/syslab-server/blob/main/docs/models.md",
         "sections 'What the card is actually doing' and 'Raised to 0.85' (Qwen/Qwen3-32B-AWQ at 0.70 and 0.85)",
         "the page's own breakdown moves with the budget (weights and non-torch 18.62 → 20.04 GiB, activation "
         "0.33 → 1.46 GiB for the same model and max_model_len) — the same shared card — and its failed boot "
         "raced a previous container"),
    Seen(_LD, "Summary Table rows 'gpt-oss-120b' (TP 1, 16000) and 'Qwen3-32B' (TP 2, 16000), and their sections",
         "each prints 'Available KV cache memory' alone (3.33 and 34.49 GiB), with no token or concurrency line"),
    Seen(_LD, "section 'mistralai/Mistral-Small-3.2-24B-Instruct-2506' (0.11.0, util 0.95, block 128: 44.76 GiB, "
         "28.20 GiB, 184,832 tokens, 11.55x)",
         "a vision-language checkpoint: its Pixtral vision tower (about 0.86 GiB of the 44.76) is not counted by "
         "the catalogue (models.derive leaves vision_config out), so the pool would come out 3 % high; the model "
         "is in no branch's catalogue"),
    Seen("https://github.com/vllm-project/vllm/pull/57047", "comment by ShengleiFu (turn 2), the server log",
         "the page names neither the AWQ checkpoint (2.48 GiB, 147,456 bytes of KV a token: a Qwen3-4B shape) nor "
         "the 47.37 GiB SM89 card (an RTX 6000 Ada, or an L40/L40S with ECC off)"),
    Seen("https://github.com/vllm-project/vllm/pull/49050", "PR description: Qwen/Qwen3-4B on an NVIDIA L4, 0.25.1",
         "the figures ('both values readable from the engine startup log') are not in the part of the page read"),
    Seen("https://github.com/vllm-project/vllm/issues/21348", "issue description: Qwen3-235B-A22B-FP8 on 4x H100",
         "already in startup_logs (qwen3-235b-fp8-tp4-h100)"),
    Seen("https://github.com/vllm-project/recipes/pull/12",
         "PR description: Qwen3-Coder-480B-A35B-Instruct-FP8, -dp=8 with expert parallelism on H20s",
         "48.66 → 55.65 GiB between utilization 0.90 and 0.95 is 6.99 GiB per 0.05: a 140 GiB card, not the "
         "96 GB H20 listed; the DP/EP all-to-all buffers are not modelled"),
    Seen("https://github.com/eugr/spark-vllm-docker/issues/396", "issue description: MiniMax-M2.7 AWQ on 2x DGX Spark",
         "the checkpoint is named only as recipes/minimax-m2.7-awq.yaml, which the stored copies of the "
         "repository do not hold"),
    Seen("https://github.com/vllm-project/vllm/issues/26646", "issue description: Qwen3-Next-80B-A3B int4, TP 2",
         "the GPU is not named, so the memory cannot be rebuilt (engines.hybrid_logs of r18-attention checks its "
         "block layout from the two lines instead)"),
    Seen("https://github.com/vllm-project/vllm/issues/40691", "issue description: Qwen3.5-27B on an H20, 0.19.0",
         "lines only, and the pool they imply (71 GiB) is more than a 96 GB H20 leaves beside the weights: the "
         "141 GB H20 variant, whose memory is not listed (r18-attention's hybrid_logs checks the layout)"),
    Seen("https://github.com/vllm-project/vllm/issues/17462", "issue description: Qwen3-32B on 2x L20, 0.8.4/0.8.5",
         "the L20 is not listed, the release is one of two, and the log's 16,384-token concurrency contradicts "
         "the command shown (no --max-model-len)"),
    Seen("https://github.com/vllm-project/vllm/issues/17469", "Qwen3-30B-A3B on 4x A10, 0.8.5",
         "the utilization and max_model_len of the run that printed the lines are not given"),
    Seen("https://github.com/vllm-project/vllm/issues/28228",
         "issue description: cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit on 2x RTX 3090",
         "the reporter's '2.30GiB for KV cache' is the only figure (no token or concurrency line), the release "
         "is not printed, and Kimi-Linear (KDA + MLA) is in no branch's catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/25350", "issue description, fp8 KV at 100,000 and 221,000 tokens",
         "neither the model nor the GPU is named"),
    Seen("https://github.com/vllm-project/vllm/issues/17327", "comment by cpwan (turn 23), a Qwen3 on several GPUs",
         "neither the Qwen3 size, the GPU nor the TP size is in the lines"),
    Seen("https://github.com/vllm-project/vllm/issues/43308", "Gemma 4 31B AWQ on an A100, 0.20.0 vs 0.21.0",
         "rounded figures ('~55k tokens') and no max_model_len"),
    Seen("https://github.com/mitchross/talos-argocd-proxmox/pull/1995", "Qwen3.8-27B-FP8 on 2x RTX 3090",
         "Qwen3.8 is in no branch's catalogue"),
    Seen("https://github.com/syv-ai/qwen38-27b-rtx3090/issues/7", "Qwen3.8-27B on 2x RTX 3090 with a DFlash drafter",
         "the weight format and the drafter's memory are not given"),
    Seen("https://github.com/vllm-project/vllm/issues/53961", "DeepSeek-V4-Pro on 8x MI300X",
         "the excerpt ends before the figures"),
    Seen("https://github.com/vllm-project/recipes/pull/273", "MiniMax-M2 on 2x MI300X, 0.17.1 ROCm",
         "one line ('KV cache: 497,600 tokens') without max_model_len or utilization"),
    Seen("https://github.com/noonghunna/club-3090/issues/127", "the repository's Qwen bench model on 4 of 6 RTX 3090s",
         "the model is not named in the excerpt (its CUDA-graph line, 0.17 GiB at TP 4, is kept as evidence of "
         "the estimate's size)"),
    Seen("https://github.com/Sandermage/genesis-vllm-patches/issues/24", "a Mamba hybrid with MTP on 8x RTX 3090",
         "the model is not named"),
    Seen("https://github.com/vllm-project/vllm/issues/49011", "a Qwen3.5 hybrid with an NVFP4 KV cache on an RTX 5090",
         "a prototype branch (NVFP4 KV), and the weights are not named"),
    Seen("https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/204", "GLM-5.3-Flash EXL3 on 2x GB10",
         "EXL3 is not a format mainline vLLM loads"),
    Seen("https://github.com/intel/llm-scaler/issues/647", "Qwen3.6/3.8 on Intel Arc Pro B70",
         "Intel's XPU build and GPU are not modelled"),
    Seen("https://github.com/SergiioB/intel-arc-pro-b70-inference-cookbook/issues/4", "Intel Arc Pro B70",
         "the XPU is not modelled and the model is not named"),
    Seen("https://github.com/vllm-project/tpu-inference/pull/223", "TPU v5e-8", "TPUs are not modelled"),
    Seen("https://github.com/vllm-project/vllm/issues/13061", "DeepSeek-R1-Distill-Qwen-14B on 2x RTX 4090",
         "the V0 engine (0.7.x) is not modelled"),
    Seen("https://github.com/vllm-project/vllm/issues/14011", "a 32B-class model on 4 GPUs, V0",
         "the V0 engine; neither model nor GPU named"),
    Seen("https://github.com/hiyouga/LlamaFactory/issues/7234", "a vision-language model on 4x RTX 4090, 0.7.3",
         "the V0 engine; the model is not named"),
    Seen("https://github.com/vllm-project/vllm/pull/14447", "a GPTQ/AWQ MoE on RTX 3090s, V0 worker",
         "the V0 engine; the model is not named"),
    Seen("https://blog.huikang.dev/2025/12/28/vllm-logs.html", "gpt-oss-120b on a Kaggle notebook GPU, 0.11.2",
         "the GPU is not named in the part of the page read"),
    Seen("https://github.com/EuroEval/EuroEval/issues/1120", "comment by Mikeriess (turn 19): gpt-oss-120b under TP",
         "the excerpt ends at the Marlin FP4 warning, before the memory lines, and names neither the GPU nor the "
         "release"),
    Seen("https://github.com/gpustack/gpustack/issues/4660", "issue description: 'Model loading took 8.8011 GiB'",
         "neither the model (an fp8 128 × 128-block checkpoint with N=6144, K=4096 GEMMs: a Qwen3-8B shape) nor the "
         "GPU (the config path is cut at 'NVIDIA_GeForce_') is named, and no KV line is quoted"),
    Seen("https://github.com/vllm-project/vllm/issues/51041", "DeepSeek-V4-Flash on H20 TP 2 and 8x V100",
         "the H20 figures are the title's, rounded ('150K tokens in 7.7 GiB' at 121,344, vLLM 0.26.0): the pool "
         "rule reproduces them from that memory (150,982; tests/.../test_multi_page_pool.py), but no logged line "
         "gives the budget; the V100 comment runs a fork (1Cat's SM70 build)"),
    Seen("https://github.com/vllm-project/vllm/issues/44376", "comment by simonwalo: DeepSeek-V4-Flash on 2x GH200, 0.22",
         "vLLM's start check fails: its 6.66 GiB at 30,000 tokens and 'estimated maximum model length 13528' are "
         "the pool rule's exactly (test_multi_page_pool.py), but the run never starts, and the 5.44 GiB it had "
         "is 9.4 GiB under the budget the calculator gives (expert parallelism on a GH200: not checked)"),
    Seen("https://github.com/vllm-project/vllm/issues/33155", "gpt-oss-120b on one H100, 0.14.1",
         "the run fails with a CUDA OOM after the KV lines, which the excerpt does not show"),
    # -- read for the s25-logs search (issue #18's mix: more quantized logs and new GPUs) ---------------------
    Seen("https://github.com/dennislee22/vLLM-benchmarking/blob/b474d1e053c35c9aef8c02aae4efbc0d8675f033/README.md",
         "Tests 6–8 (Qwen2.5-32B on one and on two A100 80GB, Qwen2-72B on two: 'Available KV cache memory' 9.70, "
         "8.22 and 6.77 GiB in the headings) and the failed start under 'Performance Criteria' (-0.53 GiB, 09-06)",
         "the figures are in the headings only: neither the utilization nor max_model_len of these runs is given, "
         "and no log of them is in the repository (log/ holds the 7B and 120B logs, run-vllm.py the 7B command "
         "alone, at every commit); the failed start names no model; Qwen2-72B is in no catalogue"),
    Seen(_GZ, "section 'Not added as a parameterConstraint': experiment 2 (2026-07-10), utilization 0.6125, "
              "'Available KV cache memory: -1.54 GiB' on the A10G",
         "the sampled experiment's max_num_batched_tokens, max_num_seqs and max_model_len are not given (the study "
         "samples them; no per-experiment record is committed), so the activation peak the failure turns on "
         "cannot be set"),
    Seen(_DJ + "nemotron-3/nemotron-3-nano-30b-a3b/nvfp4/_server-crash.log",
         "lines 8, 26 and 78: NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 on the GB10, 0.26.0, 18.21 GiB loaded",
         "the start dies in the CUDA-graph profile ('no kernel image is available for execution on the device') "
         "before any KV line, which no verdict of the table describes; the NVFP4 release is not in the catalogue "
         "(nemotron-3-nano-30b-a3b is the bf16 one)"),
    Seen(_DJ + "qwen-3.6/qwen-3.6-35b-a3b/fp8/_server-crash.log",
         "lines 8, 21 and 86: Qwen/Qwen3.6-35B-A3B-FP8 on the GB10, 0.26.0, 33.85 GiB loaded",
         "the start dies in the profile run ('cutlass_gemm_caller ... Error Internal') before any KV line, which no "
         "verdict of the table describes; the FP8 release is not in the catalogue"),
    Seen(_DJ + "gpt-oss/gpt-oss-20b/mxfp4/meta.json",
         "openai/gpt-oss-20b on the GB10: the image v0.26.0, max_model_len 131072, utilization 0.90, kv fp8, "
         "8,192 batched tokens",
         "the settings are recorded but no boot log of the run is committed (_runner.log holds the benchmark's "
         "progress lines): none of the four figures is printed"),
    Seen("https://github.com/vllm-project/recipes/blob/8959cf64189c71d36e11c6a30335f923f261b1f7/moonshotai/"
         "Kimi-K2-Think.md",
         "section 'DCP Gain Analysis': moonshotai/Kimi-K2-Thinking at TP 8 (46.80 GiB, 715,072 tokens) and TP 8 + "
         "DCP 8",
         "the GPU of the measured run is not named (the page says '8x H200/H20'), max_model_len and the release are "
         "not given, Kimi-K2-Thinking's INT4 release is not in the catalogue (kimi-k2 is the FP8 Instruct) and "
         "decode context parallelism is not modelled"),
    Seen("https://github.com/vllm-project/recipes/blob/8959cf64189c71d36e11c6a30335f923f261b1f7/models/Qwen/"
         "Qwen3.8-27B.yaml",
         "the RTX 5090 verification (1x and 2x, FP8 and two NVFP4 builds: 377,456, 445,875 and 920,517 tokens)",
         "Qwen3.8 is in no branch's catalogue (as the talos-argocd-proxmox PR)"),
    Seen("https://github.com/noonghunna/club-3090/issues/1087", "comment by guybrush01 (turn 1): 2x RTX 5090, "
         "qwen3.8-27b-fp8, the 'Free memory on device (30.27/31.4 GiB)' breakdown",
         "Qwen3.8 is in no branch's catalogue; the same holds for club-3090#1086 (2x RTX 5090, qwen3.8-27b-fp8, "
         "11.15 GiB, 214,135 tokens)"),
    Seen("https://github.com/noonghunna/club-3090/issues/1086", "issue description: 2x RTX 5090 "
         "vllm-qwen38-27b-dual-ultramax, 11.15 GiB, 214,135 tokens, 3.27x at 65,536",
         "Qwen3.8-27B-FP8 is in no branch's catalogue"),
    Seen("https://devforth.io/insights/self-hosted-gpt-real-response-time-token-throughput-and-cost-on-l4-l40s-"
         "and-h100-for-gpt-oss-20b",
         "the L4 run of gpt-oss-20b ('--gpu-memory-utilization 0.9', fp8 KV: 'Maximum concurrency for 131,072 "
         "tokens per request: 2.78x'), known only as another public file quotes it (search-index id 71623055017)",
         "the stored copy of the page holds its opening only, so the line, the vLLM release and the run's batch "
         "limits could not be read on the page itself; a row would rest on a second-hand quote"),
    Seen("https://ai-navigate-news.com/ja/articles/3ec30937-24f8-4cc5-9e8c-e90eb48d807b",
         "a digest of a dev.to article: openai/gpt-oss-20b at 128,000 tokens on one L4 (GKE g2-standard-4)",
         "the stored copy holds the article's opening only: no vLLM figure, utilization or release is in it"),
    Seen("https://github.com/vllm-project/aibrix/issues/2770",
         "issue description: two vLLM 0.19.0 engines (DeepSeek-R1-Distill-Qwen-1.5B) on one H20 (95.33 GiB)",
         "the figures are kvcached's KV limits (76 GiB, then 17.67 GiB) for two engines sharing the card, not "
         "vLLM's startup lines, and the model is in no catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/40002", "issue description: Gemma-4 26B AWQ on two GPUs, "
         "0.18.2rc1.dev73", "Gemma 4 is in no branch's catalogue"),
    Seen("https://github.com/QwenLM/Qwen3-VL/issues/1224", "issue description: Qwen/Qwen2.5-VL-7B-Instruct-AWQ "
         "on a 16 GB card", "the V0 engine ('model_runner.py:1110'), and the vision-language checkpoint is in no "
         "catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/17327", "comment by bedovyy: nytopop/Qwen3-30B-A3B.w4a16 on "
         "an RTX 3090, 15.6841 GiB, 5.34 GiB of KV cache",
         "the run is the V0 engine (VLLM_USE_V1=0, 'worker.py:287'), which is not modelled"),
    Seen("https://github.com/LMCache/LMCache/issues/1435", "comment by forestlee95: Qwen3-Coder-480B-A35B-Instruct-"
         "FP8 on 8x H200, 0.10.1.1",
         "data parallelism 8 with expert parallelism and the LMCache connector: the DP/EP buffers and the "
         "connector's memory are not modelled"),
    Seen("https://github.com/vllm-project/vllm-gguf-plugin/issues/101", "issue description: "
         "unsloth/Qwen3-8B-GGUF Q4_K_M, 0.18.0, kv fp8, KV offloading 16 GiB",
         "GGUF weights (through a plugin) and KV offloading are not modelled"),
    Seen("https://github.com/guqiong96/Lvllm/issues/35", "issue description: 11.55 GiB, 12.57 GiB, 53,136 tokens "
         "on an A40",
         "a fork (Lvllm) that keeps MoE experts on the CPU (LVLLM_MOE_* settings), and the A40 is not listed"),
    Seen("https://github.com/kubesimplify/website/blob/08b151ee1aa38188fb118b99104567117a2ca6d4/content/blog/"
         "running-a-big-llm-across-multiple-gpus-with-vllm.md",
         "'Step 6 / The memory side', the rows TP=4 plus EP and PP=4",
         "table values, not log lines, and the expert-parallel and pipeline buffers of these runs are not "
         "modelled (the TP=4 run of the same page is in LOGS)"),
    Seen("https://github.com/er0080/vllm-benchmarking/blob/main/packages/protocol/tests/fixtures/"
         "vllm_serve_no_kv_cache_memory_v0.25.1.log", "the whole fixture",
         "facebook/opt-125m on the CPU backend (device_config=cpu, aarch64): not a GPU"),
    Seen("https://github.com/cmontemuino/amd-mi300x-ml-benchmarks/tree/main/datasets/sample-results/logs",
         "the Llama-3.1-8B logs", "the V0 engine (v0.9.2.dev364, 'worker.py:294', 'model_runner.py:1203')"),
    # -- read for the s29-gpu search (a sixth GPU outside the old list) -------------------------------------
    Seen("https://github.com/ray-project/ray/blob/00a8fb36edef457b822efdd18a6e3e418af015b4/doc/source/serve/"
         "tutorials/deployment-serve-llm/small-size-llm/README.md",
         "section 'Improve concurrency': 'Maximum concurrency for 8192 tokens per request: 3.53x' (Llama 3.1 8B)",
         "'executor_base.py:118' and the unseparated '8192' are the V0 engine's line, and the page says 'an A10G or "
         "L4 GPU' without saying which card printed it"),
    Seen("https://github.com/faradawn/bench3/blob/446e08ca8bba29ccab26de8ec8a8986643b0a975/logs/vllm_server.log",
         "the engine's lines of 11-28 15:27-15:28: meta-llama/Meta-Llama-3-8B-Instruct, vLLM 0.11.2, "
         "max_model_len 1024, 14.9596 GiB, 105.97 GiB, 868,080 tokens",
         "the card is an H200 (README: '2x H200 GPUs'; 0.9 x 139.81 GiB fits the parts), not a new GPU, and Llama 3 "
         "8B (an 8,192-token checkpoint) is in no catalogue: llama-3.1-8b would be a stand-in"),
    Seen("https://github.com/amdgoose/arno_vllm_chat/blob/2fd73e52450d581dae44abcb257b46b72e8116d4/vllm_server.log",
         "the engine's lines: Qwen/Qwen2.5-7B-Instruct in fp16 on ROCm, vLLM 0.17.0, max_model_len 4096, 14.37 GiB, "
         "41.81 GiB, 782,800 tokens",
         "the AMD card is not named in the log or the repository (about 64 GB from the parts: an MI210 class "
         "card), and no such card is listed"),
    Seen("https://github.com/vllm-project/production-stack/blob/4f7b1a2ff1d3cadc8013b1c4acea6c85ab6580b9/"
         "vllm_server.log", "the whole log: Llama-3.2-1B-Instruct, vLLM 0.9.0.1, enforce_eager, 1,028,832 tokens",
         "the GPU is not named (the pool implies a 40 GB card) and no 'Available KV cache memory' line is printed"),
    Seen("https://github.com/ozgurgulerx/inference-journal/blob/33e1e0e43692503c0bf1400a3b6810cfee06380c/days/"
         "day-002-GPU-node-bring-up/LOG_tier03.md",
         "section 'KV Cache Tokens vs VRAM': Qwen2.5-1.5B-Instruct, 188,512 tokens, 5.75x at 32,768, utilization 0.6",
         "the '16GB GPU' rented on RunPod is not named, the release is not given, the pool line is not quoted, and "
         "Qwen2.5-1.5B is in no catalogue"),
)

#: Every log: the plain deployments, then those with a drafter, then LoRA / expert / tensor parallelism 8.
_FEATURES = (startup_log_table_speculation, startup_log_table_lora, startup_log_table_parallel,
             startup_log_table_tensor_parallel)
LOGS: tuple[Log, ...] = _PLAIN + tuple(log for table in _FEATURES for log in table.LOGS)
SEEN: tuple[Seen, ...] = _SEEN_PLAIN + tuple(seen for table in _FEATURES for seen in table.SEEN)

BY_ID: dict[str, Log] = {log.id: log for log in LOGS}
if len(BY_ID) != len(LOGS):
    raise RuntimeError("duplicate log id in startup_log_table")
