"""Public vLLM startup logs under tensor parallelism, quoted as published: TP 2 and 4 on NVSwitch H100s, the test of
the TP group's NCCL communicator that 0.11.0-0.24.x count (engines.vllm_measured.tp_communicator_bytes), and TP 8
without expert parallelism.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s); the Accuracy page and tests/unit/llm_inference/test_accuracy.py
rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

_VLLM = "https://github.com/vllm-project/vllm/"

# -- llm-d-incubation/llm-d-planner's memory sweep: H100 80GB HBM3 (SXM) under the vllm/vllm-openai:v0.19.0 image ----
_LLMD = ("https://github.com/llm-d-incubation/llm-d-planner/blob/d3121e059da8/accuracy/results/v0.19.0/logs/")
_LLMD_VERSION = "0.19.0 (printed: 'version 0.19.0', 'Initializing a V1 LLM engine (v0.19.0)')"
_LLMD_GPU = ("NVIDIA H100 80GB HBM3, the SXM part (accuracy/k8s/vllm-job-reference.yaml of the same commit: node label "
             "'nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3', image 'vllm/vllm-openai:v0.19.0', "
             "'--gpu-memory-utilization=0.95', '--no-enable-prefix-caching'; the file names say h100-80gb)")
_DERIVES = ("One of the four runs (two models at TP 2 and 4, with their TP 1 runs beside them) the TP group's "
            "communicator is measured from (engines.vllm_measured.TP_COMMUNICATOR_MEASURED: the non-torch increase "
            "over the same model's at TP 1, 1.82-1.89 GiB): not a test of that figure, a check of the rest of the "
            "budget under TP.")
_TESTS = ("A run of the same sweep that the communicator's figure was not taken from: its test. 0.19.0 makes the TP "
          "group's torch NCCL communicator inside the profile run (vllm_releases.Rules.lazy_tp_communicator); "
          "without its 1.85 GiB the pool comes out 2.1-2.3 GiB (3-6 %) high.")

LOGS: tuple[Log, ...] = (
    Log("llmd-llama31-8b-h100-tp2-v0190", _LLMD + "meta-llama-llama-3-1-8b---h100-80gb--tp2pp1dp1--8192.log",
        "lines 25, 187, 739, 743, 744 and 738 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 01:35:30 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, "
         "'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}",
         '(Worker_TP0 pid=444) INFO 04-22 01:36:06 [v1/worker/gpu_model_runner.py:4820] Model loading took 7.51 '
         'GiB memory and 10.562171 seconds',
         '(Worker_TP0 pid=444) INFO 04-22 01:36:26 [v1/worker/gpu_worker.py:436] Available KV cache memory: 63.76 '
         'GiB',
         '(EngineCore pid=245) INFO 04-22 01:36:26 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 1,044,688 '
         'tokens',
         '(EngineCore pid=245) INFO 04-22 01:36:26 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 127.53x',
         '(Worker_TP0 pid=444) DEBUG 04-22 01:36:26 [v1/worker/gpu_worker.py:435] Memory profiling takes 19.38 '
         'seconds. Total non KV cache memory: 11.47GiB; torch peak memory increase: 1.89GiB; non-torch forward '
         'increase memory: 2.07GiB; weights memory: 7.51GiB.'),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=8192, loading_gib=7.51, available_gib=63.76,
        kv_tokens=1044688, concurrency=127.53, prefix_caching=False, install="docker", kinds=("pre-0.20",),
        notes=_DERIVES),
    Log("llmd-llama31-8b-h100-tp4-v0190", _LLMD + "meta-llama-llama-3-1-8b---h100-80gb--tp4pp1dp1--8192.log",
        "lines 25, 271, 1418, 1441, 1442 and 1417 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 01:36:59 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 8192, "
         "'tensor_parallel_size': 4, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}",
         '(Worker_TP0 pid=443) INFO 04-22 01:37:39 [v1/worker/gpu_model_runner.py:4820] Model loading took 3.77 '
         'GiB memory and 10.527112 seconds',
         '(Worker_TP0 pid=443) INFO 04-22 01:38:03 [v1/worker/gpu_worker.py:436] Available KV cache memory: 67.44 '
         'GiB',
         '(EngineCore pid=244) INFO 04-22 01:38:04 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 2,209,792 '
         'tokens',
         '(EngineCore pid=244) INFO 04-22 01:38:04 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 269.75x',
         '(Worker_TP0 pid=443) DEBUG 04-22 01:38:03 [v1/worker/gpu_worker.py:435] Memory profiling takes 23.99 '
         'seconds. Total non KV cache memory: 7.79GiB; torch peak memory increase: 1.89GiB; non-torch forward '
         'increase memory: 2.13GiB; weights memory: 3.77GiB.'),
        FITS, tensor_parallel=4, utilization=0.95, max_model_len=8192, loading_gib=3.77, available_gib=67.44,
        kv_tokens=2209792, concurrency=269.75, prefix_caching=False, install="docker", kinds=("pre-0.20",),
        notes=_DERIVES),
    Log("llmd-qwen25-7b-h100-tp2-v0190", _LLMD + "qwen-qwen2-5-7b-instruct--h100-80gb--tp2pp1dp1--8192.log",
        "lines 25, 190, 733, 744, 745 and 732 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 01:38:34 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'Qwen/Qwen2.5-7B-Instruct', 'model': 'Qwen/Qwen2.5-7B-Instruct', 'max_model_len': 8192, "
         "'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}",
         '(Worker_TP0 pid=441) INFO 04-22 01:39:12 [v1/worker/gpu_model_runner.py:4820] Model loading took 7.12 '
         'GiB memory and 11.509178 seconds',
         '(Worker_TP0 pid=441) INFO 04-22 01:39:31 [v1/worker/gpu_worker.py:436] Available KV cache memory: 63.84 '
         'GiB',
         '(EngineCore pid=242) INFO 04-22 01:39:31 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 2,390,592 '
         'tokens',
         '(EngineCore pid=242) INFO 04-22 01:39:31 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 291.82x',
         '(Worker_TP0 pid=441) DEBUG 04-22 01:39:31 [v1/worker/gpu_worker.py:435] Memory profiling takes 18.94 '
         'seconds. Total non KV cache memory: 11.39GiB; torch peak memory increase: 2.21GiB; non-torch forward '
         'increase memory: 2.06GiB; weights memory: 7.12GiB.'),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=8192, loading_gib=7.12, available_gib=63.84,
        kv_tokens=2390592, concurrency=291.82, prefix_caching=False, install="docker", kinds=("pre-0.20",),
        notes=_DERIVES),
    Log("llmd-qwen25-7b-h100-tp4-v0190", _LLMD + "qwen-qwen2-5-7b-instruct--h100-80gb--tp4pp1dp1--8192.log",
        "lines 25, 278, 1422, 1440, 1441 and 1421 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 01:40:00 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'Qwen/Qwen2.5-7B-Instruct', 'model': 'Qwen/Qwen2.5-7B-Instruct', 'max_model_len': 8192, "
         "'tensor_parallel_size': 4, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}",
         '(Worker_TP0 pid=444) INFO 04-22 01:40:29 [v1/worker/gpu_model_runner.py:4820] Model loading took 3.55 '
         'GiB memory and 3.119120 seconds',
         '(Worker_TP0 pid=444) INFO 04-22 01:40:54 [v1/worker/gpu_worker.py:436] Available KV cache memory: 67.34 '
         'GiB',
         '(EngineCore pid=245) INFO 04-22 01:40:54 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 5,043,280 '
         'tokens',
         '(EngineCore pid=245) INFO 04-22 01:40:54 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 615.63x',
         '(Worker_TP0 pid=444) DEBUG 04-22 01:40:54 [v1/worker/gpu_worker.py:435] Memory profiling takes 24.14 '
         'seconds. Total non KV cache memory: 7.89GiB; torch peak memory increase: 2.21GiB; non-torch forward '
         'increase memory: 2.13GiB; weights memory: 3.55GiB.'),
        FITS, tensor_parallel=4, utilization=0.95, max_model_len=8192, loading_gib=3.55, available_gib=67.34,
        kv_tokens=5043280, concurrency=615.63, prefix_caching=False, install="docker", kinds=("pre-0.20",),
        notes=_DERIVES),
    Log("llmd-mixtral-8x7b-h100-tp2-v0190", _LLMD + "mistralai-mixtral-8x7b-i--h100-80gb--tp2pp1dp1--8192.log",
        "lines 25, 227, 782, 793, 794 and 781 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 00:55:54 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'mistralai/Mixtral-8x7B-Instruct-v0.1', 'model': 'mistralai/Mixtral-8x7B-Instruct-v0.1', "
         "'max_model_len': 8192, 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.95, "
         "'enable_prefix_caching': False}",
         '(Worker_TP0 pid=443) INFO 04-22 00:57:25 [v1/worker/gpu_model_runner.py:4820] Model loading took 43.51 '
         'GiB memory and 65.717865 seconds',
         '(Worker_TP0 pid=443) INFO 04-22 00:57:45 [v1/worker/gpu_worker.py:436] Available KV cache memory: 28.44 '
         'GiB',
         '(EngineCore pid=244) INFO 04-22 00:57:45 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 465,936 '
         'tokens',
         '(EngineCore pid=244) INFO 04-22 00:57:45 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 56.88x',
         '(Worker_TP0 pid=443) DEBUG 04-22 00:57:45 [v1/worker/gpu_worker.py:435] Memory profiling takes 20.58 '
         'seconds. Total non KV cache memory: 46.79GiB; torch peak memory increase: 1.21GiB; non-torch forward '
         'increase memory: 2.07GiB; weights memory: 43.51GiB.'),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=8192, loading_gib=43.51, available_gib=28.44,
        kv_tokens=465936, concurrency=56.88, prefix_caching=False, install="docker", kinds=("pre-0.20",),
        notes=_TESTS),
    Log("llmd-gpt-oss-20b-h100-tp2-v0190", _LLMD + "openai-gpt-oss-20b--h100-80gb--tp2pp1dp1--8192.log",
        "lines 25, 204, 766, 777, 778 and 765 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "openai/gpt-oss-20b", "gpt-oss-20b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 19:59:08 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'openai/gpt-oss-20b', 'model': 'openai/gpt-oss-20b', 'max_model_len': 8192, 'tensor_parallel_size': 2, "
         "'enable_prefix_caching': False}",
         '(Worker_TP0 pid=444) INFO 04-22 19:59:46 [v1/worker/gpu_model_runner.py:4820] Model loading took 7.01 '
         'GiB memory and 12.429379 seconds',
         '(Worker_TP0 pid=444) INFO 04-22 19:59:51 [v1/worker/gpu_worker.py:436] Available KV cache memory: 59.32 '
         'GiB',
         '(EngineCore pid=245) INFO 04-22 19:59:51 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 2,591,776 '
         'tokens',
         '(EngineCore pid=245) INFO 04-22 19:59:51 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 316.07x',
         '(Worker_TP0 pid=444) DEBUG 04-22 19:59:51 [v1/worker/gpu_worker.py:435] Memory profiling takes 5.39 '
         'seconds. Total non KV cache memory: 11.95GiB; torch peak memory increase: 2.87GiB; non-torch forward '
         'increase memory: 2.07GiB; weights memory: 7.01GiB.'),
        FITS, tensor_parallel=2, max_model_len=8192, loading_gib=7.01, available_gib=59.32,
        kv_tokens=2591776, concurrency=316.07, prefix_caching=False, install="docker", weights="mxfp4", kinds=("quantized", "pre-0.20"),
        notes=_TESTS),
    Log("llmd-llama33-70b-fp8dyn-h100-tp2-v0190", _LLMD + "fp8dyn-llama-3-3-70b--h100-80gb--tp2pp1dp1--8192.log",
        "lines 25, 854, 1460, 1464, 1465 and 1459 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic", "llama-3.3-70b-fp8-dynamic", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 00:16:12 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic', 'model': 'RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic', "
         "'max_model_len': 8192, 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.95, "
         "'enable_prefix_caching': False}",
         '(Worker_TP0 pid=444) INFO 04-22 00:17:32 [v1/worker/gpu_model_runner.py:4820] Model loading took 33.88 '
         'GiB memory and 54.254199 seconds',
         '(Worker_TP0 pid=444) INFO 04-22 00:18:23 [v1/worker/gpu_worker.py:436] Available KV cache memory: 37.28 '
         'GiB',
         '(EngineCore pid=245) INFO 04-22 00:18:23 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 244,304 '
         'tokens',
         '(EngineCore pid=245) INFO 04-22 00:18:23 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 29.82x',
         '(Worker_TP0 pid=444) DEBUG 04-22 00:18:23 [v1/worker/gpu_worker.py:435] Memory profiling takes 50.74 '
         'seconds. Total non KV cache memory: 37.95GiB; torch peak memory increase: 1.96GiB; non-torch forward '
         'increase memory: 2.1GiB; weights memory: 33.88GiB.'),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=8192, loading_gib=33.88, available_gib=37.28,
        kv_tokens=244304, concurrency=29.82, prefix_caching=False, install="docker", weights="fp8", kinds=("quantized", "pre-0.20"),
        notes=_TESTS),
    Log("llmd-llama33-70b-fp8dyn-h100-tp4-v0190", _LLMD + "fp8dyn-llama-3-3-70b--h100-80gb--tp4pp1dp1--8192.log",
        "lines 25, 1583, 2759, 2770, 2771 and 2758 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic", "llama-3.3-70b-fp8-dynamic", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 00:18:52 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic', 'model': 'RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic', "
         "'max_model_len': 8192, 'tensor_parallel_size': 4, 'gpu_memory_utilization': 0.95, "
         "'enable_prefix_caching': False}",
         '(Worker_TP0 pid=442) INFO 04-22 00:19:35 [v1/worker/gpu_model_runner.py:4820] Model loading took 16.96 '
         'GiB memory and 14.442714 seconds',
         '(Worker_TP0 pid=442) INFO 04-22 00:20:29 [v1/worker/gpu_worker.py:436] Available KV cache memory: 54.09 '
         'GiB',
         '(EngineCore pid=243) INFO 04-22 00:20:29 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 708,992 '
         'tokens',
         '(EngineCore pid=243) INFO 04-22 00:20:29 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 86.55x',
         '(Worker_TP0 pid=442) DEBUG 04-22 00:20:29 [v1/worker/gpu_worker.py:435] Memory profiling takes 52.17 '
         'seconds. Total non KV cache memory: 21.14GiB; torch peak memory increase: 1.97GiB; non-torch forward '
         'increase memory: 2.21GiB; weights memory: 16.96GiB.'),
        FITS, tensor_parallel=4, utilization=0.95, max_model_len=8192, loading_gib=16.96, available_gib=54.09,
        kv_tokens=708992, concurrency=86.55, prefix_caching=False, install="docker", weights="fp8", kinds=("quantized", "pre-0.20"),
        notes=_TESTS),
    Log("llmd-qwen25-72b-h100-tp2-v0190", _LLMD + "qwen-qwen2-5-72b-instruc--h100-80gb--tp2pp1dp1--8192.log",
        "lines 25, 261, 855, 859, 860 and 854 (the DEBUG memory-profiling line)", _LLMD_VERSION, "0.19.0",
        "Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b", _LLMD_GPU, "h100-sxm",
        ("(APIServer pid=1) INFO 04-22 01:01:19 [entrypoints/utils.py:233] non-default args: {'model_tag': "
         "'Qwen/Qwen2.5-72B-Instruct', 'model': 'Qwen/Qwen2.5-72B-Instruct', 'max_model_len': 8192, "
         "'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}",
         '(Worker_TP0 pid=444) INFO 04-22 01:03:25 [v1/worker/gpu_model_runner.py:4820] Model loading took 67.8 '
         'GiB memory and 101.493961 seconds',
         '(Worker_TP0 pid=444) INFO 04-22 01:04:01 [v1/worker/gpu_worker.py:436] Available KV cache memory: 3.04 '
         'GiB',
         '(EngineCore pid=245) INFO 04-22 01:04:01 [v1/core/kv_cache_utils.py:1319] GPU KV cache size: 19,920 '
         'tokens',
         '(EngineCore pid=245) INFO 04-22 01:04:01 [v1/core/kv_cache_utils.py:1324] Maximum concurrency for 8,192 '
         'tokens per request: 2.43x',
         '(Worker_TP0 pid=444) DEBUG 04-22 01:04:01 [v1/worker/gpu_worker.py:435] Memory profiling takes 35.86 '
         'seconds. Total non KV cache memory: 72.19GiB; torch peak memory increase: 2.29GiB; non-torch forward '
         'increase memory: 2.09GiB; weights memory: 67.8GiB.'),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=8192, loading_gib=67.8, available_gib=3.04,
        kv_tokens=19920, concurrency=2.43, prefix_caching=False, install="docker", kinds=("pre-0.20",),
        needs=("engine: 0.24 GiB of activation peak the rules do not take. The log prints its parts (the DEBUG "
               "line): weights 67.8 GiB, torch peak 2.29 GiB, non-torch 2.09 GiB. The rebuild takes 67.71 GiB of "
               "weights (-0.1 %), 2.05 GiB of activation peak and 2.00 GiB of non-torch memory (the communicator "
               "included: -0.09 GiB), so the 3.04 GiB pool comes out 3.46 GiB (+0.42 GiB, over the 0.25 GiB a pool "
               "under 3 GiB is allowed), tokens and concurrency +13.9 %. The same sweep's Llama-3.1-8B runs print "
               "1.89 GiB of torch peak for the rules' 1.69, so the activation estimate of this release runs about "
               "0.2 GiB low on these runs; its source was not located, and no constant is fitted to it",),
        notes=_TESTS),

)

#: Logs read for this table and left out, each with why (the searches of issue #37 are described in
#: :mod:`.startup_log_table_parallel`). A fourth search (branch ev-tp8, 2026-12-06) went through the issue index
#: by model (Llama-3.1/3.3-70B, Llama-3.1-405B-FP8, Llama-4-Maverick, Qwen3-235B, DeepSeek-R1, Kimi-K2, GLM-4.5,
#: MiniMax-M2, gpt-oss-120b) and GPU (8x H100/H200/A100/MI300X), the stored pages, the code index by the exact
#: strings of a TP 8 start ("(Worker_TP7 pid=", "(VllmWorker TP7 pid=", "tensor_parallel_size=8,
#: pipeline_parallel_size=1", "'tensor_parallel_size': 8}", "'max_model_len': N, 'tensor_parallel_size': 8",
#: "Maximum concurrency for 163,840 / 131,072 tokens per request"), and the whole histories of repositories that
#: commit vLLM logs or sweeps (llm-d-incubation/llm-d-planner, vllm-project/recipes, vllm-project/
#: vllm-project.github.io, SemiAnalysisAI/InferenceX, ai-dynamo/aiconfigurator, llm-d/llm-d, inference-sim's
#: data-collection repositories, Herdora/chipbenchmark, heheda12345/Jenga-SOSP25-AE, dstackai/dstack,
#: kubernetes-sigs/inference-perf). It kept none. Found in the code index without a recoverable repository (so
#: not listed): a README of Llama-4-Scout-17B-16E-Instruct at TP 8 on 8x H200 under the v0.12.0 image with a 2M
#: max_model_len (its throughput, no memory line in the part read), and an exported chat log of the same model
#: at TP 8 on 8x H100. What the search suggests: a TP 8 start that prints all four figures is rare in public
#: text, and most TP 8 threads are crashes before or after the pool is sized.
SEEN: tuple[Seen, ...] = (
    # -- llm-d-planner's 0.19.0 sweep on H100 SXM: the TP runs not kept -----------------------------------------------
    Seen(_LLMD + "meta-llama-llama-4-scout--h100-80gb--tp4pp1dp1--8192.log", "the four figures and the DEBUG line: "
         "Llama-4-Scout-17B-16E-Instruct at TP 4, 53.12 GiB, 16.75 GiB, 365,968 tokens, 44.68x",
         "'Model loading took' rebuilds to 50.19 GiB (-5.5 %), so the pool to +20.9 %: 2.9 GiB of weights a GPU the "
         "catalogue's shape does not hold (the vision tower and its projector are the candidates), not located"),
    Seen(_LLMD + "moonshotai-kimi-dev-72b--h100-80gb--tp2pp1dp1--8192.log", "the TP 2 and TP 4 runs of "
         "moonshotai/Kimi-Dev-72B (non-torch 2.09 and 2.21 GiB)", "Kimi-Dev-72B is not in the catalogue"),
    Seen(_LLMD + "moonshotai-kimi-vl-a3b-i--h100-80gb--tp2pp1dp1--8192.log", "the TP 2 run of "
         "moonshotai/Kimi-VL-A3B-Instruct (non-torch 2.07 GiB)", "Kimi-VL-A3B is not in the catalogue"),
    Seen(_LLMD + "redhatai-llama-3-3-70b-i--h100-80gb--tp2pp1dp1--8192.log", "the TP 2 run of "
         "RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8 (non-torch 2.11 GiB)",
         "the w8a8 (int8) release is not in the catalogue"),
    Seen(_LLMD + "w8a8-mistral-small-24b--h100-80gb--tp2pp1dp1--8192.log", "the TP 2 run of "
         "RedHatAI/Mistral-Small-3.1-24B-Instruct-2503-quantized.w8a8 (non-torch 2.07 GiB)",
         "the w8a8 release and Mistral-Small-3.1 are not in the catalogue"),
    Seen(_LLMD + "meta-llama-llama-3-1-8b---h100-80gb--tp1pp2dp1--8192.log", "the PP 2 and PP 4 runs of "
         "Llama-3.1-8B-Instruct (non-torch 0.07 GiB: no TP group)", "pipeline parallelism, not TP: kept out of this "
         "table, cited by vllm_measured as the runs without a TP communicator"),
    # -- tensor parallelism 8 -------------------------------------------------------------------------------
    Seen(_VLLM + "issues/30919", "issue description: openai/gpt-oss-120b at TP 8 on B200, kv fp8, max_model_len "
         "2,058, utilization 0.9, max_num_seqs 1,024, 8,192 batched tokens: 'Available KV cache memory: 140.97 "
         "GiB'", "a development build (the regression of vllm#30842) whose start fails after the pool is sized "
         "(NotImplementedError: attention sinks on FlashInfer), which no verdict of the table describes; the "
         "token and concurrency lines are cut from the part read; VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8=1 picks "
         "a MoE backend the calculator does not size"),
    Seen(_VLLM + "issues/28830", "issue description: DeepSeek-V3.2-Exp at TP 8, utilization 0.8, max_model_len "
         "131,072", "the GPU is not named in the part read and no memory line is quoted"),
    Seen(_VLLM + "issues/39985", "issue description: Qwen3.5-122B-A10B at TP 8 × PP 2 over two nodes of 8x RTX "
         "4090D, enforce_eager, max_model_len 16,384", "the RTX 4090D is not listed, no memory line is quoted, "
         "and the hang is under load"),
    Seen("https://github.com/ovg-project/kvcached/issues/210", "issue description: Llama-3.1/3.3-70B-Instruct at "
         "TP 8 on 8x A100 40GB, 0.11.0, with kvcached and sleep mode",
         "kvcached (ENABLE_KVCACHED, KVCACHED_AUTOPATCH) manages the KV memory instead of vLLM's budget"),
    Seen(_VLLM + "issues/6746", "issue description: Meta-Llama-3.1-405B-Instruct-FP8 on 8x H100",
         "the V0 engine ('model_runner.py:692 Loading model weights took'), which is not modelled"),
    Seen("https://github.com/vllm-project/recipes/blob/8959cf64189c71d36e11c6a30335f923f261b1f7/moonshotai/"
         "Kimi-K2-Think.md", "section 'High Throughput Scenarios', the TP8 and TP8+DCP8 startup lines (also vllm-project/"
         "recipes#115): moonshotai/Kimi-K2-Thinking at TP 8 on 8x H200 ('benchmark ... on 8*H200'), the default "
         "max_model_len (262,144), a build of 2025-11-06 (gpu_worker.py:349, between 0.11.0 and 0.11.1): 'Available "
         "KV cache memory: 46.80 GiB', 'GPU KV cache size: 715,072 tokens' (5,721,088 with DCP 8)",
         "Kimi-K2-Thinking is not in the catalogue. Rebuilt from kimi-k2.5's text model (the same DeepseekV3 text "
         "config, int4 group-32 routed experts and ignore list as K2-Thinking's config.json, the vision tower left out) "
         "with the 0.11.0–0.12.0 rules, pip or image alike: 70.95 GiB weights, 6.20 GiB activations, 0.15 GiB "
         "non-torch, a pool of 48.53 GiB (+3.7 %) and 741,456 tokens (+3.7 %; the bytes a token, 70,272, match the "
         "log's ratio exactly). The page prints neither 'Model loading took' nor a profile line, so the 1.73 GiB is "
         "not located (the compressed-tensors WNA16 Marlin MoE's buffers at 8,192 batched tokens and TP 8's "
         "communicator buffers are the candidates); no cited rule was found to close it. Read for the communicator "
         "(vLLM 0.11.0 wheel): the init snapshot follows the distributed set-up (v1/worker/gpu_worker.py l.169-182), "
         "but that set-up makes only vLLM's own communicators (pynccl, custom all-reduce, symmetric memory); the TP "
         "group's torch.distributed device group is made by new_group (distributed/parallel_state.py l.220) under an "
         "init_process_group without device_id (l.1062), so PyTorch creates its NCCL communicator at the group's "
         "first collective, and the first one is the logits all-gather of the profile run's sampler pass "
         "(model_executor/layers/logits_processor.py l.77 -> base_device_communicator.py l.143 "
         "all_gather_into_tensor(group=self.device_group); v1/worker/gpu_model_runner.py l.3397), inside "
         "memory_profiling, so NCCL's buffers for that communicator land in non_torch_increase "
         "(utils/__init__.py l.2854). That is a located candidate, but its size is NCCL's (channels, peers, NVLink "
         "SHARP on the NVSwitch, and from NCCL 2.22 runtime connection, which sets an algorithm's buffers up only when "
         "a collective first uses it), which only the hardware gives, and it is not a constant at TP 8: the B200 TP 8 "
         "log of vllm#30919 above (gpt-oss-120b, a 0.13 development build) rebuilds to 141.54 GiB for its 140.97 "
         "(+0.4 %, 0.57 GiB), against 1.73 GiB here and vllm_measured.NCCL_MEASURED's 2.25 GiB of NVLS buffers for "
         "one communicator on 8x H200 under NCCL's eager set-up (0.6.3). The path is unchanged in 0.19.0 (gpu_worker.py "
         "l.263-282, parallel_state.py l.1422, logits_processor.py l.83, base_device_communicator.py l.196), and "
         "llm-d-incubation/llm-d-planner's H100 80GB logs under 0.19.0 (commit d3121e059da8, accuracy/results/v0.19.0/"
         "logs/, DEBUG 'Memory profiling takes ... non-torch forward increase memory') measure it: "
         "meta-llama/Llama-3.1-8B-Instruct prints 0.25 GiB at TP 1, 2.07 at TP 2 and 2.13 at TP 4, 0.07 at PP 2 and "
         "PP 4 (no TP group), and every TP 2/4 run of the sweep 2.06-2.21 GiB, while the calculator keeps 0.15 GiB "
         "(its TP 2 and TP 4 pools of that model come out +3.4 % and +3.3 %, 2.15 and 2.21 GiB over; TP 1 +0.6 %). So "
         "TP's non-torch increase from 0.11.0 on NVLink H100s is about 1.8-1.9 GiB a GPU, the size of the gap here; "
         "it is NCCL's, so it would be a 'gpu:' need, and the model is still not in the catalogue"),
    Seen(_VLLM + "issues/32467", "issue description: GLM-4.6-FP8 at TP 8 on H20, 0.13.0, max_model_len 114,688, "
         "max_num_seqs 32",
         "the error is an illegal memory access under load; no memory line in the part read, and GLM-4.6 is not in "
         "the catalogue"),
    Seen(_VLLM + "issues/53961", "issue description: deepseek-ai/DeepSeek-V4-Pro at TP 8 on MI300X (AITER, "
         "--load-format dummy, kv fp8, the default 1M context), a release with the 160 GiB scheduler tier (0.28+)",
         "the part read quotes the ValueError only up to '23.32 GiB KV cache is needed', not the available memory, "
         "and names no exact release; the AITER fused-MoE path on ROCm is not sized by the calculator"),
    Seen(_VLLM + "issues/21750", "issue description: moonshotai/Kimi-K2-Instruct at TP 8, the vllm-openai:v0.10.0 "
         "image, max_model_len 8,192",
         "the start fails before the model loads (missing extra dependencies, per the maintainer's reply): no "
         "memory line, and no GPU named"),
    Seen(_VLLM + "issues/31903", "issue description: DeepSeek-V3.2 with -tp=8 -pp=4 over Ray: 'GPU KV cache size: "
         "1,214,464 tokens', 'Maximum concurrency for 163,840 tokens per request: 7.41x'",
         "pipeline parallelism 4 across nodes rather than TP 8 alone, no GPU named and no 'Available KV cache "
         "memory' line in the part read, and the start fails in initialize_from_config"),
    Seen("https://github.com/MoonshotAI/Kimi-K2/issues/122", "issue description: kimi-k2.5 on 8x H20 with -tp 8 "
         "and --mm-encoder-tp-mode data", "the error is shown only as a screenshot: no log line as text"),
    Seen("https://github.com/aarora79/agentic-coding-harness-benchmarks/blob/4526ee38f7bcd75b6d7e390027af731276b19188/"
         ".claude/skills/vllm-setup/p5en-h200-cuda-fixes.md", "sections 'Fix 3' and 'Verified serve configs': "
         "zai-org/GLM-5.2-FP8 at TP 8 on 8x H200 (p5en.48xlarge), max_model_len 300,000, utilization 0.95 "
         "('GPU KV cache ~413,000 tokens, max concurrency 1.38x'), and moonshotai/Kimi-K2.7-Code at TP 8, 131,072, "
         "0.90 ('~740,000 tokens', '~5.6x')",
         "rounded summaries, not the log's lines (its logs/vllm-serve.log is not among the repository's files), with no "
         "'Available KV cache memory' and no vLLM release named beside them (self-hosted/vllm/models/glm-5.2.md, "
         "the same repository, gives the command and no line either)"),
    Seen("https://github.com/llm-d-incubation/llm-d-planner/blob/cb666596283a96db2b66e72c79f773add871020f/accuracy/"
         "results/v0.19.0/runs/openai-gpt-oss-120b--h100-80gb--tp8pp1dp1--8192.json", "the capacity planner's "
         "accuracy sweep under vLLM 0.19.0 on H100 80GB: the TP 8 runs of openai/gpt-oss-120b and "
         "Qwen/Qwen2.5-72B-Instruct (…/qwen-qwen2-5-72b-instruc--h100-80gb--tp8pp1dp1--8192.json)",
         "both files are {\"skipped\":true}: the TP 8 runs were not made; the sweep's TP 1/2/4 logs (commit "
         "d3121e0, removed again in 2489dbb) are outside this table"),
    Seen(_VLLM + "issues/16414", "issue description: meta-llama/Llama-4-Scout-17B-16E-Instruct at TP 8 on H200, 0.8.3, "
         "max_model_len 3,600,000", "the part read quotes the engine's config line and an IndexError during "
         "inference, no memory line"),
)
