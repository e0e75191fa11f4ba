"""Public vLLM startup logs of deployments with a speculative drafter: a draft model, EAGLE / EAGLE-3 heads, MTP layers or n-gram, quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s, the feature's own being ``speculation``, ``draft_model_id``, ``num_speculative_tokens``); the Accuracy page and
tests/unit/llm_inference/test_accuracy.py rebuild each through the kv-cache calculator.

The search for this table (issue #37, item 4) read the vLLM issue tracker and public repositories for
startup logs with ``--speculative-config``; most name no GPU, run a model or a head the catalogue does
not hold, or run on hardware the calculator does not list (:data:`SEEN`, each with why). The two kept
are n-gram runs of one repository, on two releases: they check that n-gram takes no weights and no KV
(the pool is the plain one) and that "Model loading took" counts the target alone when there is no
drafter model.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

# -- yuanjuju/vllm-lab: one "RTX 4090 48GB" (a modified board: 49,140 MiB, driver total 47.37 GiB) -------
_VL = "https://github.com/yuanjuju/vllm-lab/blob/"
_VL_MODEL = "Qwen3-8B (a local copy of Qwen/Qwen3-8B, BF16: the page's '本地 Qwen3-8B（BF16）')"
_VL_GPU = "RTX 4090 48GB ('云端单卡 RTX 4090（49140 MiB）'; the 0.18.0 pages: '单卡 RTX 4090 48GB')"
_VL_NOTES = ("n-gram drafts from the request's own tokens on the CPU: no drafter weights, no drafter KV. The page "
             "itself compares the pool with the run without --speculative-config: '143,536 tokens vs baseline "
             "143,728 (−192 tokens, about 0.13 %)' at 0.29.0, the same 19.76 GiB at 0.18.0. Eager (no CUDA "
             "graphs), prefix caching off.")

LOGS: tuple[Log, ...] = (
    Log("qwen3-8b-4090-48g-ngram-v0290",
        _VL + "d3cdc89a3904b04f575abbd873746af6a71f2e88/phase3/results/phase5_v029_ngram_20261009.log",
        "the 'non-default args' line, the 'Model loading took', 'Available KV cache memory', 'GPU KV cache size' "
        "and 'Free memory on device' lines; the page phase5/results/spec_ngram_v029_20261009.md names the GPU and "
        "the settings",
        "0.29.0 (printed: 'version 0.29.0', 'Initializing a V1 LLM engine (v0.29.0)')", "0.29.0",
        _VL_MODEL, "qwen3-8b", _VL_GPU, "rtx-4090-48g",
        ("(APIServer pid=3293) INFO 10-09 14:06:49 [api_utils.py:286] non-default args: {'model_tag': "
         "'/root/fsas/vllm-lab/models/Qwen3-8B', 'host': '127.0.0.1', 'model': '/root/fsas/vllm-lab/models/Qwen3-8B', "
         "'dtype': 'bfloat16', 'max_model_len': 4096, 'enforce_eager': True, 'served_model_name': ['Qwen/Qwen3-8B'], "
         "'gpu_memory_utilization': 0.75, 'enable_prefix_caching': False, 'max_num_batched_tokens': 4096, "
         "'max_num_seqs': 8, 'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 4, "
         "'prompt_lookup_min': 1, 'prompt_lookup_max': 4}}",
         "(EngineCore pid=3328) INFO 10-09 14:07:10 [gpu_model_runner.py:5471] Model loading took 15.27 GiB memory "
         "and 2.634166 seconds",
         "(EngineCore pid=3328) INFO 10-09 14:07:17 [gpu_worker.py:625] Available KV cache memory: 19.71 GiB",
         "(EngineCore pid=3328) INFO 10-09 14:07:17 [kv_cache_utils.py:2032] GPU KV cache size: 143,536 tokens, "
         "Maximum concurrency for 4,096 tokens per request: 35.04x",
         "(EngineCore pid=3328) INFO 10-09 14:07:17 [gpu_worker.py:860] Free memory on device (46.99/47.37 GiB) on "
         "startup."),
        FITS, utilization=0.75, max_model_len=4096, max_num_batched_tokens=4096, max_num_seqs=8,
        loading_gib=15.27, available_gib=19.71, kv_tokens=143536, concurrency=35.04, enforce_eager=True,
        prefix_caching=False, speculation="ngram", num_speculative_tokens=4, kinds=("new-gpu",),
        notes=_VL_NOTES),
    Log("qwen3-8b-4090-48g-ngram-v0180",
        _VL + "b71c05fae143b011899c3049419af61636f7d56d/phase3/results/spec_ngram_ngram_r570_v018_20261009.log",
        "the 'non-default args' line and the four figure lines after 'Loading drafter model...'; the pages "
        "phase5/results/spec_ngram_*_r570_v018_20261009.md name the GPU ('RTX 4090 48GB', driver 570.124.06) "
        "and the settings",
        "0.18.0 (printed: 'version 0.18.0', 'Initializing a V1 LLM engine (v0.18.0)')", "0.18.0",
        _VL_MODEL, "qwen3-8b", _VL_GPU, "rtx-4090-48g",
        ("(APIServer pid=1418) INFO 10-09 10:18:38 [utils.py:233] non-default args: {'model_tag': "
         "'/root/fsas/vllm-lab/models/Qwen3-8B', 'host': '127.0.0.1', 'model': '/root/fsas/vllm-lab/models/Qwen3-8B', "
         "'dtype': 'bfloat16', 'max_model_len': 4096, 'enforce_eager': True, 'served_model_name': ['Qwen/Qwen3-8B'], "
         "'gpu_memory_utilization': 0.75, 'enable_prefix_caching': False, 'max_num_batched_tokens': 4096, "
         "'max_num_seqs': 8, 'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 4, "
         "'prompt_lookup_min': 1, 'prompt_lookup_max': 4}}",
         "(EngineCore pid=1442) INFO 10-09 10:19:00 [gpu_model_runner.py:4566] Model loading took 15.27 GiB memory "
         "and 3.494333 seconds",
         "(EngineCore pid=1442) INFO 10-09 10:19:04 [gpu_worker.py:456] Available KV cache memory: 19.76 GiB",
         "(EngineCore pid=1442) INFO 10-09 10:19:04 [kv_cache_utils.py:1316] GPU KV cache size: 143,872 tokens",
         "(EngineCore pid=1442) INFO 10-09 10:19:04 [kv_cache_utils.py:1321] Maximum concurrency for 4,096 tokens "
         "per request: 35.12x"),
        FITS, utilization=0.75, max_model_len=4096, max_num_batched_tokens=4096, max_num_seqs=8,
        loading_gib=15.27, available_gib=19.76, kv_tokens=143872, concurrency=35.12, enforce_eager=True,
        prefix_caching=False, speculation="ngram", num_speculative_tokens=4, kinds=("new-gpu", "pre-0.20"),
        notes=_VL_NOTES),
)

_41789 = "https://github.com/vllm-project/vllm/issues/41789"

#: Logs read for this table and left out, each with why.
SEEN: tuple[Seen, ...] = (
    Seen(_VL + "c543f8eab06c60a1ab8b0c2346927b9a2feb64e7/phase3/results/phase5_v029_a3_ngram_20261010.log",
         "the startup lines",
         "the same command, release and GPU as qwen3-8b-4090-48g-ngram-v0290, with the same four figures (15.27 GiB, "
         "19.71 GiB, 143,536 tokens, 35.04x): a repeat, not a second check"),
    Seen(_VL + "1269657156c5c40c48f6086da0ab8ef5f6a262ad/phase3/results/spec_ngram_mixed_ngram_r570_v018_20261009.log",
         "the startup lines",
         "the same 0.18.0 n-gram command as qwen3-8b-4090-48g-ngram-v0180, with the same four figures (15.27 GiB, "
         "19.76 GiB, 143,872 tokens, 35.12x): a repeat"),
    Seen(_VL + "5ebc6de3685d722232a7bb8ed8691350fc1d7efc/phase3/results/spec_ngram_open_loop_ngram_r570_v018_20261009.log",
         "the startup lines",
         "the same 0.18.0 n-gram command again (the page: 'KV 池同为 19.76 GiB / 143,872 tokens'): a repeat"),
    Seen(_41789, "the comment of 2026-05-06 (vllm 0.20.2rc1.dev49, L40S)",
         "RedHatAI/gemma-4-26B-A4B-it-FP8-Dynamic with the google/gemma-4-26B-A4B-it-assistant drafter (11.67 GiB, "
         "193,624 tokens at 32,768): the catalogue holds the bf16 and NVFP4 checkpoints of that model, not the "
         "FP8-dynamic one, and Gemma 4's assistant drafter (Gemma4MTPModel, whose layers share the target's KV "
         "cache) is not modelled; 'Model loading took' is not in the excerpt read"),
    Seen("https://github.com/vllm-project/vllm/issues/49878", "the description (vLLM 0.25.1 and 0.26)",
         "gemma-4-31B-it-FP8-dynamic with the gemma-4-31B-it-assistant drafter, but the pool is set by "
         "'kv_cache_memory_bytes': 52613349376, so the budget is not the one vLLM computes; the FP8-dynamic "
         "checkpoint is not in the catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/50159", "the description (vLLM 0.26.0, 2 × RTX 3090)",
         "cyankiwi/gemma-4-31B-it-AWQ-4bit with an EAGLE head and the int8_per_token_head KV dtype, the pool "
         "given as a table (10.54 / 11.43 GiB) rather than log lines; the AWQ checkpoint, the head and that KV "
         "dtype are not in the catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/49011", "turn 13 (vLLM 0.25.1, an RTX 5090 under WSL)",
         "unsloth/Qwen3.6-27B-NVFP4 with MTP and --kv-cache-dtype nvfp4 on a prototype branch: the NVFP4 KV "
         "cache is not a vLLM release's, and MTP for the hybrid Qwen3.6 is not modelled"),
    Seen("https://github.com/intel/llm-scaler/issues/386", "the description",
         "an Intel GPU (XPU) build of vLLM with MTP: the device and its memory profiler are not vLLM's CUDA path"),
    Seen("https://github.com/vllm-project/vllm/pull/57261", "the description's end-to-end table",
         "canada-quant/GLM-5.3-Flash-W4A16-MTP at TP 4 with MTP: a development branch's pool (before/after a "
         "change), no GPU named, and GLM-5.3-Flash is not in the catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/51494", "the description's table",
         "nvidia/MiniMax-M3-NVFP4 on 8 × B200 with an EAGLE-3 head: only the 'GPU KV cache size' line is quoted, "
         "and MiniMax-M3 is refused by the calculator (no upstream model file for its sparse attention)"),
)
