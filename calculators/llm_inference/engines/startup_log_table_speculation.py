"""Public vLLM startup logs of deployments with a speculative drafter: a draft model, EAGLE / EAGLE-3 heads, MTP layers or n-gram, quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s, the feature's own being ``speculation``, ``draft_model_id``, ``num_speculative_tokens``); the Accuracy page and
tests/unit/llm_inference/test_accuracy.py rebuild each through the kv-cache calculator.

The search for this table (issue #37, item 4) read the vLLM issue tracker and public repositories for
startup logs with ``--speculative-config``; most name no GPU, run a model or a head the catalogue does
not hold, or run on hardware the calculator does not list (:data:`SEEN`, each with why). Sixteen are kept:

* two n-gram runs of one repository, on two releases: n-gram takes no weights and no KV (the pool is the
  plain one), and "Model loading took" counts the target alone when there is no drafter model;
* a draft model and an EAGLE-3 head beside the same Qwen3-8B target on one A40 (vLLM 0.15.1): "Model
  loading took" counts target and drafter together, and the drafter's KV layers (Qwen3-0.6B's 28, the
  head's one) join the target's pool. Both pools come out -0.5 %, the plain run beside them -0.6 %,
  with the profile run's verification pass counted (the rejection sampler's dummy batch,
  engines.vllm_speculation point 13: 50 bytes a logit against the sort path's 39); +1.4 % without it;
* an EAGLE-3 head beside Llama 3.1 8B on an L4 (vLLM 0.19.1, Aaryaman3/Speculative-Decoding-Eval): at
  2,048 batched tokens and 256 requests the same pass (30 bytes a logit against the Triton kernel's
  13.3) is 0.51 GiB of a 2.99 GiB pool, rebuilt as 3.00 GiB with it and 3.51 GiB without;
* two boots of one compose on a DGX Spark (99sono/DockerBuildFiles): NVIDIA's NVFP4 Qwen3.6-35B-A3B with its
  MTP layer (2 tokens) on a vLLM 0.22 nightly. "Model loading took" rebuilds to -0.6 % (the bf16 MTP layer
  counted with the target), the pools to +5.3 % and +7.6 %: the two boots of the same command differ by
  1.63 GiB, the host's share of the unified memory (vLLM reads MemAvailable there), so the rows wait on that
  measured quantity (``needs``).

The search of branch ev-spec added NVIDIA's NVFP4 Qwen3.6-27B (catalogue qwen3.6-27b-nvfp4, from its
config.json in ai-dynamo/aiconfigurator) and its MTP boot on the same Spark (vLLM 0.23 nightly), kept with the
host's share as ``needs`` as the two boots above: its own CUDA-graph estimate is negative (-0.81 GiB), free memory
that rose while vLLM measured. RedHat's compressed-tensors NVFP4 and Qwen's block-FP8 Qwen3.6 releases still wait on
a stored copy of their quantization_config.

The search of branch ev-dsv4mtp modelled DeepSeek-V4's MTP layer (one more 128-token window in its pool,
physics.multi_page_pool.v4_mtp_layer) and kept the 99sono boot of DeepSeek-V4-Flash with MTP 2 on two Sparks at TP 2
(vLLM 0.21.1rc1.dev339) with the host's share as ``needs``: 'Model loading took' rebuilds to -1.2 %, the printed pool
per byte to +1.2 % on tokens and concurrency, the rank the scheduler's minimum takes being the other Spark's.

The search of branch logmtp read the issue trackers (vLLM, club-3090, spark-vllm-docker) and a repository of
DGX Spark and RTX 5090 logs: most MTP logs in public are of Qwen3.6-27B, Qwen3.6 FP8, AutoRound or community
NVFP4 checkpoints the catalogue does not hold (SEEN).

The search of branch ev-eagle read repositories that commit whole vLLM server logs beside their benchmarks:

* three boots of Qwen3-8B with a homework's own EAGLE-3 heads on an H100 SXM (vLLM 0.20.0,
  dishantghai/ai-perf-hw3-spec-decode-quant), the heads' config.json committed beside the logs (models/data/
  eagle_heads.py): a full-vocabulary head whose LM head and embedding vLLM shares with the target (0.50 GiB), and a
  32,000-token one that keeps its own (0.74 GiB); every figure within 0.25 %;
* four boots of Llama 3.1 8B with yuhuili/EAGLE3-LLaMA3.1-Instruct-8B on Colab A100s, 80 GB and 40 GB, fp16 and fp8
  KV, compiled and eager (vLLM 0.24.0, manojarulmurugan/SpecDecoding-Study-vLLM-SGLang), each GPU named by the run
  records the harness wrote beside the logs; the pools within 1.1 %.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

# -- dhayanesh/spec-decoding-bench: one A40, vLLM 0.15.1 from pip, the offline LLM class ----------------------
_DH = "https://github.com/dhayanesh/spec-decoding-bench/blob/b4fb0f0ad80fadb6b928b9f5bb4370c6b6973407/compare/"
_DH_VERSION = "0.15.1 (printed: 'Initializing a V1 LLM engine (v0.15.1)')"
_DH_MODEL = "Qwen/Qwen3-8B (bf16, from the Hub: compare/README.md, 'Target model: Qwen/Qwen3-8B')"
_DH_GPU = ("NVIDIA A40 (the README of the same commit: 'Hardware used: `NVIDIA A40` (single GPU)', stated for the "
           "repository's runs; the plain run beside these, compare/base_run.log, 22.34 GiB at 0.88, is an A40's "
           "44.42 GiB to -0.6 %)")
_DH_NOTES = ("vllm.LLM (offline): max_num_batched_tokens is the LLM class's 8,192 ('Chunked prefill is enabled with "
             "max_num_batched_tokens=8192', line 6), max_num_seqs its default. The speculative runs' pools come out "
             "-0.5 % (the plain run's -0.6 %) with the profile run's verification pass, +1.4 % without it.")

# -- yuanjuju/vllm-lab: one "RTX 4090 48GB" (a modified board: 49,140 MiB, driver total 47.37 GiB) -------
_VL = "https://github.com/yuanjuju/vllm-lab/blob/"
_VL_MODEL = "Qwen3-8B (a local copy of Qwen/Qwen3-8B, BF16: the page's '本地 Qwen3-8B（BF16）')"
_VL_GPU = "RTX 4090 48GB ('云端单卡 RTX 4090（49140 MiB）'; the 0.18.0 pages: '单卡 RTX 4090 48GB')"
_VL_NOTES = ("n-gram drafts from the request's own tokens on the CPU: no drafter weights, no drafter KV. The page "
             "itself compares the pool with the run without --speculative-config: '143,536 tokens vs baseline "
             "143,728 (−192 tokens, about 0.13 %)' at 0.29.0, the same 19.76 GiB at 0.18.0. Eager (no CUDA "
             "graphs), prefix caching off.")

# -- 99sono/DockerBuildFiles: one DGX Spark (GB10, 128 GB unified), the vLLM nightly image, NVIDIA's NVFP4 Qwen3.6 --
_SO = ("https://github.com/99sono/DockerBuildFiles/blob/e45f79546e69576810708c3696d53f1ef0e5252c/"
       "inference-containers/vllm/")
_SO_DIR = _SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_07_2026_06_01/"
_SO_VERSION = ("0.22.1rc1.dev26+g4721bb3aa (printed: 'Initializing a V1 LLM engine (v0.22.1rc1.dev26+g4721bb3aa)', "
               "vllm/vllm-openai:nightly): a build of main after 0.22 branched, with 0.22's rules")
_SO_GPU = ("NVIDIA DGX Spark (GB10): the directory qwen-3.6-35b-dgx-spark, the compose's 'NVIDIA DGX Spark specific "
           "env vars' (CUTE_DSL_ARCH sm_121a), the shell prompt 'sono99@spark-8ddc' and the log's own "
           "'device_name=NVIDIA_GB10'")
_SO_MODEL = ("nvidia/Qwen3.6-35B-A3B-NVFP4 (ModelOpt NVFP4: 'quantization': 'modelopt', "
             "'quantization=modelopt_mixed')")
_SO_NEEDS = (
    "gpu: a quantity measured on the hardware, the host's own share of the unified memory. On GB10 vLLM 0.22 reads "
    "the free memory from the host's MemAvailable (engines/vllm_measured.py free_memory_reading), so whatever the "
    "host allocates while vLLM loads and profiles comes off the pool; the calculator's figure is a host that does "
    "nothing else. The same compose booted twice on the same Spark the same evening printed 74.76 GiB and 73.13 GiB"
    " (qwen36-35b-nvfp4-gb10-mtp2-v0221dev and -rust): 1.63 GiB of the pool is the host's from one boot to the "
    "next, which no rule from the settings gives. The rebuilt pool is 78.70 GiB (+5.3 % and +7.6 %): of the 3.94 "
    "GiB the better boot misses, 1.63 GiB is thus shown to move with the host, and the other 2.3 GiB is not "
    "explained (the log prints neither non-torch memory nor the activation peak); 'Model loading took' (21.93 GiB: "
    "the NVFP4 target and its bf16 MTP layer, 1.57 GiB, embeddings and LM head shared) rebuilds to -0.6 % in both. "
    "The printed CUDA-graph estimate (0.19 / 0.18 GiB, PIECEWISE sizes up to 24) is below the rule's 0.9 GiB, so "
    "with it the gap is 0.7 GiB wider, not narrower",)
_SO_NOTES = ("MTP on a hybrid Gated DeltaNet MoE (Qwen3_5MoeMTP, 'Loading drafter model...', 'Detected MTP model. "
             "Sharing target model embedding weights' and 'lm_head weights'): the drafter's one full-attention layer "
             "caches in the target's pool (engines.vllm_speculation). No --limit-mm-per-prompt and no "
             "--language-model-only: the vision tower is loaded and one 4096 × 4096 image profiled "
             "(engines.vllm_encoder). moe_backend marlin for the target's experts, triton for the drafter's.")

# -- 99sono/DockerBuildFiles: the same DGX Spark, NVIDIA's NVFP4 Qwen3.6-27B on a vLLM 0.23 nightly ---------------
_SO27 = ("https://github.com/99sono/DockerBuildFiles/blob/d2ad7f4549e02624f5aeaefb20ff4dd55b67f31c/"
         "inference-containers/vllm/qwen-3.6-27b-dgx-spark/nvidia-nvfp4/metadata/metadata01_2026_07_02/")
_SO27_NEEDS = (
    "gpu: a quantity measured on the hardware, the host's own share of the unified memory. On GB10 vLLM reads "
    "the free memory from the host's MemAvailable (engines/vllm_measured.py free_memory_reading), so whatever the "
    "host allocates or frees while vLLM loads and profiles moves the pool. This boot shows it in its own lines: "
    "'Estimated CUDA graph memory: -0.81 GiB total', a negative estimate, i.e. free memory rose while the graphs "
    "were profiled, which vLLM then adds to the pool; the plain boot of the same compose 31 minutes earlier "
    "(01_vllm_log_no_mtp.md, graphs up to 16) measured +0.61 GiB. Between the two boots the MTP layer adds 0.79 "
    "GiB to 'Model loading took' (19.78 to 20.57 GiB) and yet the pool grows by 0.76 GiB (47.84 to 48.6 GiB): "
    "1.55 GiB moved from one boot to the next that no setting gives. The rebuilt pool is 54.09 GiB (+11.3 %; the "
    "plain boot's 54.88 GiB against 47.84, +14.7 %): the log prints neither the non-torch memory nor the "
    "activation peak, so the rest of the gap is not placed; 'Model loading took' rebuilds to -0.8 % (20.42 GiB: "
    "the FP8/NVFP4 target and its bf16 MTP layer, embeddings and LM head shared), and the block size (1,600 "
    "tokens, 'Add 3 padding layers') is the rebuilt one",)

# -- 99sono/DockerBuildFiles: two DGX Sparks at TP 2, DeepSeek-V4-Flash with its MTP layer on a vLLM 0.21 nightly --
_SO_V4 = (_SO + "deepseek-v4-flash-dgx-spark-cluster/head/metadata/metadata01_2026_06_21/"
          "03_2026-06-21_10-38-35_deepseek-v4-flash-head_log_dump.md")
_SO_V4_NEEDS = (
    "gpu: a quantity measured on the hardware, the host's own share of the unified memory of each Spark. On GB10 "
    "vLLM reads the free memory from the host's MemAvailable (engines/vllm_measured.py free_memory_reading), and "
    "this host also runs the Ray-less multi-node rendezvous and holds a 148.66 GiB checkpoint on a 128 GB machine "
    "('Available RAM: 37.98 GiB' while loading): what the host keeps or caches while vLLM profiles comes off the "
    "pool, and no setting gives it. The rebuilt pool is 20.58 GiB (+10.4 %), so 'GPU KV cache size' and 'Maximum "
    "concurrency' come out +11.7 %. What the row checks is the rest: 'Model loading took' rebuilds to 74.95 GiB "
    "(-1.2 %: the target's shard and the MTP layer's 1.69 GiB, embedding and LM head shared), and the pool's "
    "layout per byte: the printed 18.65 GiB gives 19,039 blocks of 1,051,776 bytes (22 layer tuples) and 3,756 "
    "blocks a 200,000-token request (the MTP layer's window the 44th, the window groups 22 + 22), i.e. 5.07x and "
    "1,013,791 tokens against 5.01x and 1,001,650 (+1.2 % each). That gap is the host's share again: the "
    "scheduler takes the smallest block count of the two ranks ('Change the num_blocks of each rank to the "
    "smallest among all ranks', get_kv_cache_configs, vllm/v1/core/kv_cache_utils.py l.2035-2043 in 0.21.0), "
    "while 'Available KV cache memory' is the head's rank alone; the second Spark's log (worker/metadata) prints "
    "no figure, and 3,756 blocks a request put its pool at 18,811 blocks (18.43 GiB), 0.22 GiB under the head's",)
_SO_V4_NOTES = ("DeepSeek-V4's MTP layer (DeepSeekV4MTPModel, 'Loading drafter model...', 'MTP draft model loaded: 39 "
                "params', the target's embedding, LM head and topk_indices_buffer shared): one DeepseekV4DecoderLayer "
                "at layer 43 with compress_ratio 1, so one more 128-token window cache in the pool "
                "(physics.multi_page_pool.v4_mtp_layer) and no compressor or indexer; 39 parameters is what a count "
                "by hand of that module gives: the layer's 29 (attention without compressor and indexer, MoE, "
                "norms, hyper-connection mixers) and "
                "e_proj, h_proj (weight and scale each), enorm, hnorm, hc_head_fn/base/scale and shared_head.norm. "
                "Run twice per step (num_speculative_tokens 2 over num_nextn_predict_layers 1). '[mtp.py:474] MTP "
                "draft model loaded' is 0.22.0's vllm/models/deepseek_v4/nvidia/mtp.py l.474 (0.21.0 has "
                "deepseek_v4_mtp.py l.465): the build has 0.22's file layout, and 0.21 and 0.22 size this pool "
                "alike (the rebuild is the same under either). Printed CUDA-graph estimate 0.55 GiB (PIECEWISE up to "
                "24, FULL up to 9).")

# -- dishantghai/ai-perf-hw3-spec-decode-quant: one H100 80GB SXM (Nebius), vLLM 0.20.0, Qwen3-8B with its own EAGLE-3 --
_HW = "https://github.com/dishantghai/ai-perf-hw3-spec-decode-quant/blob/d1c3b59586c732c2c3504d8b4fd793fcbf20e0d3/"
_HW_VERSION = "0.20.0 (printed: 'version 0.20.0', 'Initializing a V1 LLM engine (v0.20.0)')"
_HW_MODEL = ("Qwen/Qwen3-8B (bf16, a local copy at /data/hw3/Qwen3-8B: README.md 'for `Qwen/Qwen3-8B` on a single H100 "
             "80GB GPU', 'Checkpoint size: 15.26 GiB')")
_HW_GPU = ("NVIDIA H100 80GB SXM (MASTERCLASS_GUIDE.ipynb of the same commit: '| Hardware | 1× NVIDIA H100 80GB SXM "
           "(Nebius AI Cloud) |'; runlog.md: one server at a time, 'GPU before: 0 MiB')")
_HW_NOTES = ("vllm serve's defaults at 0.20.0 (utilization 0.92, as the log's own 'The current "
             "--gpu-memory-utilization=0.9200' says; 'Chunked prefill is enabled with max_num_batched_tokens=8192'; "
             "max_model_len 40,960 from the config), prefix caching off. The plain run beside these "
             "(logs/c1_server.log: 15.27 GiB, 54.63 GiB, 397,808 tokens, 9.71x) rebuilds to -0.1 / -0.1 / -0.1 / "
             "-0.1 %. The head is the homework's own, trained with speculators; its config.json is committed beside "
             "the logs (models/data/eagle_heads.py). The printed CUDA-graph estimate is not subtracted at 0.20 "
             "('CUDA graph memory profiling is enabled (default since v0.21.0)' says what 0.21 would take).")

# -- manojarulmurugan/SpecDecoding-Study-vLLM-SGLang: Colab A100s (80 GB, then 40 GB), vLLM 0.24.0, Llama 3.1 8B ------
_MA = "https://github.com/manojarulmurugan/SpecDecoding-Study-vLLM-SGLang/blob/"
_MA_P2 = _MA + "0513112d143b180e6f511cacc356917d9d006610/phase2_results/"
_MA_P3 = _MA + "76252b30f9a56917108d897fb6c1e53d4c674012/phase3_results/"
_MA_P3B = _MA + "2216e3daeefd1540820267fb4515582deef0caeb/phase3b_results/"
_MA_VERSION = ("0.24.0 (printed: 'version 0.24.0', 'Initializing a V1 LLM engine (v0.24.0)'; HANDOVER.md 'Pinned engine: "
               "vllm==0.24.0')")
_MA_MODEL = "meta-llama/Llama-3.1-8B-Instruct ('dtype': 'float16': the same 2 bytes a weight as bf16)"
_MA_NOTES = ("The harness's vllm serve (dtype float16, seed 1234, utilization 0.85, max_model_len 8,192, prefix caching "
             "off) with yuhuili/EAGLE3-LLaMA3.1-Instruct-8B, 5 tokens: the catalogue's eagle3-llama-3.1-8b, its own "
             "32,000-row LM head kept (0.79 GiB: 'Model loading took' 15.8 GiB against the plain runs' 15.0). vLLM "
             "0.24 runs Model Runner V2 here ('[model_runner.py:302] Model loading took') and prints no CUDA-graph "
             "estimate. The plain runs of the same sessions rebuild to -0.3 / -0.4 % (80 GB: 15.0 GiB, 51.24 GiB, "
             "419,728 tokens) and -0.3 / -1.6 % (40 GB: 15.0 GiB, 17.44 GiB, 142,896 tokens).")

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
    Log("qwen3-8b-a40-draft-qwen3-0.6b-v0151", _DH + "draft_run_spec4.log",
        "lines 1 (non-default args), 9 ('Initializing a V1 LLM engine (v0.15.1)'), 32 and 43-45; compare/README.md "
        "and compare/draft_inference.py give the settings, the repository README of the same commit the hardware",
        _DH_VERSION, "0.15.1", _DH_MODEL, "qwen3-8b", _DH_GPU, "a40",
        ("INFO 02-22 02:29:50 [utils.py:261] non-default args: {'max_model_len': 4096, 'gpu_memory_utilization': 0.88, "
         "'speculative_config': {'model': 'Qwen/Qwen3-0.6B', 'num_speculative_tokens': 4, "
         "'draft_tensor_parallel_size': 1, 'max_model_len': 4096, 'method': 'draft_model'}, 'model': 'Qwen/Qwen3-8B'}",
         "(EngineCore_DP0 pid=10843) INFO 02-22 02:29:59 [gpu_model_runner.py:4130] Model loading took 16.38 GiB "
         "memory and 4.157476 seconds",
         "(EngineCore_DP0 pid=10843) INFO 02-22 02:30:24 [gpu_worker.py:356] Available KV cache memory: 20.8 GiB",
         "(EngineCore_DP0 pid=10843) INFO 02-22 02:30:24 [kv_cache_utils.py:1307] GPU KV cache size: 85,184 tokens",
         "(EngineCore_DP0 pid=10843) INFO 02-22 02:30:24 [kv_cache_utils.py:1312] Maximum concurrency for 4,096 tokens "
         "per request: 20.80x"),
        FITS, utilization=0.88, max_model_len=4096, max_num_batched_tokens=8192,
        loading_gib=16.38, available_gib=20.8, kv_tokens=85184, concurrency=20.80,
        speculation="draft_model", draft_model_id="qwen3-0.6b", num_speculative_tokens=4,
        kinds=("new-gpu", "pre-0.20"),
        notes="A whole draft model: 'Model loading took' counts both loads (16.38 GiB against the 15.27 GiB of the "
              "same script without a drafter, compare/base_run.log), and Qwen3-0.6B's 28 KV layers cache in the "
              "target's pool, so the pool holds 85,184 tokens where the plain run's 22.34 GiB held 162,704. "
              + _DH_NOTES),
    Log("qwen3-8b-a40-eagle3-v0151", _DH + "eagle3_run_spec4.log",
        "lines 1 (non-default args), 8 ('Initializing a V1 LLM engine (v0.15.1)'), 31 and 42-44; compare/README.md "
        "and compare/eagle3_inference.py give the settings, the repository README of the same commit the hardware",
        _DH_VERSION, "0.15.1", _DH_MODEL, "qwen3-8b", _DH_GPU, "a40",
        ("INFO 02-22 02:31:07 [utils.py:261] non-default args: {'max_model_len': 4096, 'gpu_memory_utilization': 0.88, "
         "'speculative_config': {'model': 'Tengyunw/qwen3_8b_eagle3', 'num_speculative_tokens': 4, "
         "'draft_tensor_parallel_size': 1, 'max_model_len': 4096, 'method': 'eagle3'}, 'model': 'Qwen/Qwen3-8B'}",
         "(EngineCore_DP0 pid=11155) INFO 02-22 02:31:17 [gpu_model_runner.py:4130] Model loading took 16.01 GiB "
         "memory and 5.005123 seconds",
         "(EngineCore_DP0 pid=11155) INFO 02-22 02:31:32 [gpu_worker.py:356] Available KV cache memory: 21.16 GiB",
         "(EngineCore_DP0 pid=11155) INFO 02-22 02:31:32 [kv_cache_utils.py:1307] GPU KV cache size: 149,936 tokens",
         "(EngineCore_DP0 pid=11155) INFO 02-22 02:31:32 [kv_cache_utils.py:1312] Maximum concurrency for 4,096 tokens "
         "per request: 36.61x"),
        FITS, utilization=0.88, max_model_len=4096, max_num_batched_tokens=8192,
        loading_gib=16.01, available_gib=21.16, kv_tokens=149936, concurrency=36.61,
        speculation="eagle", draft_model_id="eagle3-qwen3-8b", num_speculative_tokens=4,
        kinds=("new-gpu", "pre-0.20"),
        notes="Tengyunw/qwen3_8b_eagle3, rebuilt as SpecForge's qwen3-8b-eagle3 shape (models/data/eagle_heads.py): "
              "the head adds 0.74 GiB to 'Model loading took' (fc, one decoder layer, a 32,000-row LM head) and its "
              "one KV layer joins the target's 36, so the pool holds 149,936 tokens. " + _DH_NOTES),
    Log("llama-3.1-8b-l4-eagle3-v0191",
        "https://github.com/Aaryaman3/Speculative-Decoding-Eval/blob/6baf256ace321c83556d9d77944f596add8b1eb9/"
        "logs/eagle3.log",
        "lines 7 (non-default args), 15 ('Initializing a V1 LLM engine (v0.19.1)'), 48 (the lm_head kept), 49, 64, "
        "65, 67 and 68; Documentation/ARCHITECTURE.md (commit bae05d5e) names the hardware of the L4 run",
        "0.19.1 (printed: 'version 0.19.1', 'Initializing a V1 LLM engine (v0.19.1)')", "0.19.1",
        "unsloth/Meta-Llama-3.1-8B-Instruct (Llama 3.1 8B Instruct, bf16)", "llama-3.1-8b",
        "NVIDIA L4 (Documentation/ARCHITECTURE.md: 'GCP L4 Instance Profile (Himanshu's Run)', 'g2-standard-4', "
        "'1x NVIDIA L4 Tensor Core GPU'; the log's cache directory is /home/hj2713, Himanshu Jhawar's, and the "
        "repository's A100 run is an 80 GB card whose pool would be tens of GiB, not 2.99)", "l4",
        ("(APIServer pid=8262) INFO 04-27 21:01:17 [utils.py:233] non-default args: {'model_tag': "
         "'unsloth/Meta-Llama-3.1-8B-Instruct', 'host': '0.0.0.0', 'port': 8001, 'model': "
         "'unsloth/Meta-Llama-3.1-8B-Instruct', 'dtype': 'bfloat16', 'max_model_len': 2048, 'served_model_name': "
         "['eagle3'], 'speculative_config': {'method': 'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', "
         "'num_speculative_tokens': 5}}",
         "(EngineCore pid=8288) INFO 04-27 21:03:06 [eagle.py:1426] Detected EAGLE model with distinct lm_head "
         "weights. Keeping separate lm_head weights from the target model.",
         "(EngineCore pid=8288) INFO 04-27 21:03:07 [gpu_model_runner.py:4820] Model loading took 15.78 GiB memory "
         "and 96.520449 seconds",
         "(EngineCore pid=8288) INFO 04-27 21:03:19 [gpu_model_runner.py:5955] Estimated CUDA graph memory: 1.21 GiB "
         "total",
         "(EngineCore pid=8288) INFO 04-27 21:03:19 [gpu_worker.py:436] Available KV cache memory: 2.99 GiB",
         "(EngineCore pid=8288) INFO 04-27 21:03:19 [kv_cache_utils.py:1319] GPU KV cache size: 23,776 tokens",
         "(EngineCore pid=8288) INFO 04-27 21:03:19 [kv_cache_utils.py:1324] Maximum concurrency for 2,048 tokens "
         "per request: 11.61x"),
        FITS, max_model_len=2048, loading_gib=15.78, available_gib=2.99, kv_tokens=23776, concurrency=11.61,
        speculation="eagle", draft_model_id="eagle3-llama-3.1-8b", num_speculative_tokens=5,
        kinds=("new-gpu", "pre-0.20"),
        notes="vllm serve's defaults on a 24 GB card: 2,048 batched tokens, 256 sequences, utilization 0.9; the CUDA "
              "graph estimate is printed, not subtracted (0.19: 'In v0.19, CUDA graph memory profiling will be "
              "enabled by default'). The head adds 0.79 GiB to 'Model loading took' (its own 32,000-row LM head "
              "kept, as line 48 says). The pool is the profile run's verification pass at work: without it the "
              "calculator gives 3.51 GiB (27,840 tokens), with it (30 bytes a logit against the Triton sampler's "
              "13.3, 256 requests × 128,256) 3.00 GiB. The plain run beside it (Code/logs/baseline.logs of commit "
              "bae05d5e: 14.99 GiB, 4.28 GiB, 35,040 tokens, 17.11x) rebuilds to -0.2 / +0.4 / +0.5 / +0.5 %."),
    Log("qwen36-35b-nvfp4-gb10-mtp2-v0221dev", _SO_DIR + "02_vllm_log_normal_frontend.md",
        "lines 116 (version), 120 (non-default args), 144 (the engine's config, SpeculativeConfig(method='mtp', "
        "num_spec_tokens=2)), 174, 194-196, 219 ('device_name=NVIDIA_GB10'), 224, 225, 228 and 229",
        _SO_VERSION, "0.22.0", _SO_MODEL, "qwen3.6-35b-a3b-nvfp4", _SO_GPU, "gb10",
        ("(APIServer pid=1) INFO 06-01 21:51:24 [utils.py:278] non-default args: {'model_tag': "
         "'nvidia/Qwen3.6-35B-A3B-NVFP4', 'enable_auto_tool_choice': True, 'tool_call_parser': 'qwen3_coder', "
         "'host': '0.0.0.0', 'api_key': ['dummy-key'], 'model': 'nvidia/Qwen3.6-35B-A3B-NVFP4', "
         "'trust_remote_code': True, 'max_model_len': 262144, 'quantization': 'modelopt', 'served_model_name': "
         "['qwen3.6-35b'], 'safetensors_load_strategy': 'prefetch', 'attention_backend': 'flashinfer', "
         "'reasoning_parser': 'qwen3', 'gpu_memory_utilization': 0.85, 'kv_cache_dtype': 'fp8', "
         "'enable_prefix_caching': True, 'max_num_batched_tokens': 8192, 'max_num_seqs': 5, "
         "'enable_chunked_prefill': True, 'async_scheduling': True, 'moe_backend': 'marlin', 'speculative_config': "
         "{'method': 'mtp', 'num_speculative_tokens': 2, 'moe_backend': 'triton'}}",
         "(EngineCore pid=282) INFO 06-01 21:54:27 [gpu_model_runner.py:5060] Loading drafter model...",
         "(EngineCore pid=282) INFO 06-01 21:54:47 [gpu_model_runner.py:5131] Model loading took 21.93 GiB memory "
         "and 157.947632 seconds",
         "(EngineCore pid=282) INFO 06-01 21:56:12 [gpu_model_runner.py:6369] Estimated CUDA graph memory: 0.19 GiB "
         "total",
         "(EngineCore pid=282) INFO 06-01 21:56:13 [gpu_worker.py:469] Available KV cache memory: 74.76 GiB",
         "(EngineCore pid=282) INFO 06-01 21:56:13 [kv_cache_utils.py:1733] GPU KV cache size: 6,455,296 tokens",
         "(EngineCore pid=282) INFO 06-01 21:56:13 [kv_cache_utils.py:1734] Maximum concurrency for 262,144 tokens "
         "per request: 24.62x"),
        FITS, utilization=0.85, max_model_len=262144, max_num_batched_tokens=8192, max_num_seqs=5, weights="nvfp4",
        kv_dtype="fp8", loading_gib=21.93, available_gib=74.76, kv_tokens=6455296, concurrency=24.62,
        install="docker", prefix_caching=True, speculation="mtp", num_speculative_tokens=2, needs=_SO_NEEDS,
        kinds=("quantized", "hybrid", "new-gpu"), notes=_SO_NOTES, extra={"cuda_graph_estimate_gib": 0.19}),
    Log("qwen36-35b-nvfp4-gb10-mtp2-v0221dev-rust", _SO_DIR + "01_vllm_log_rust_frontend_crash.md",
        "lines 114 (version), 118 (non-default args: the same, with 'api_server_count': 1), 150, 181, 201-203, 226, "
        "231, 232, 235 and 236 (the server died later, on the Rust frontend; the engine had started)",
        _SO_VERSION, "0.22.0", _SO_MODEL, "qwen3.6-35b-a3b-nvfp4", _SO_GPU, "gb10",
        ("qwen36-35b-nvfp4-nightly  | (EngineCore pid=310) INFO 06-01 21:40:51 [gpu_model_runner.py:5131] Model "
         "loading took 21.93 GiB memory and 281.243837 seconds",
         "qwen36-35b-nvfp4-nightly  | (EngineCore pid=310) INFO 06-01 21:42:17 [gpu_model_runner.py:6369] Estimated "
         "CUDA graph memory: 0.18 GiB total",
         "qwen36-35b-nvfp4-nightly  | (EngineCore pid=310) INFO 06-01 21:42:18 [gpu_worker.py:469] Available KV "
         "cache memory: 73.13 GiB",
         "qwen36-35b-nvfp4-nightly  | (EngineCore pid=310) INFO 06-01 21:42:18 [kv_cache_utils.py:1733] GPU KV "
         "cache size: 6,312,658 tokens",
         "qwen36-35b-nvfp4-nightly  | (EngineCore pid=310) INFO 06-01 21:42:18 [kv_cache_utils.py:1734] Maximum "
         "concurrency for 262,144 tokens per request: 24.08x"),
        FITS, utilization=0.85, max_model_len=262144, max_num_batched_tokens=8192, max_num_seqs=5, weights="nvfp4",
        kv_dtype="fp8", loading_gib=21.93, available_gib=73.13, kv_tokens=6312658, concurrency=24.08,
        install="docker", prefix_caching=True, speculation="mtp", num_speculative_tokens=2, needs=_SO_NEEDS,
        kinds=("quantized", "hybrid", "new-gpu"), notes=_SO_NOTES, extra={"cuda_graph_estimate_gib": 0.18}),
    Log("qwen36-27b-nvfp4-gb10-mtp2-v0231dev", _SO27 + "02_vllm_log_mtp.md",
        "the 'Docker logs' block: the non-default args line, 'Initializing a V1 LLM engine' (SpeculativeConfig(method="
        "'mtp', num_spec_tokens=2)), 'Loading drafter model...', the two 'Detected MTP model' lines, 'Model loading "
        "took', 'Setting attention block size to 1600 tokens', 'Estimated CUDA graph memory', 'Available KV cache "
        "memory', 'GPU KV cache size' and 'Maximum concurrency'; 03_vllm_log_mtp_dump.md of the same commit is the "
        "same boot unabridged",
        "0.23.1rc1.dev531+ga65f93fb2 (printed: 'version 0.23.1rc1.dev531+ga65f93fb2', 'Initializing a V1 LLM engine "
        "(v0.23.1rc1.dev531+ga65f93fb2)', vllm/vllm-openai:nightly): a build of main after 0.23 branched, with 0.23's "
        "rules", "0.23.0",
        "nvidia/Qwen3.6-27B-NVFP4 (ModelOpt mixed: 'quantization': 'modelopt', 'quantization=modelopt_mixed', FP8 "
        "attention and NVFP4 MLP)", "qwen3.6-27b-nvfp4",
        "NVIDIA DGX Spark (GB10): the directory qwen-3.6-27b-dgx-spark, the compose's 'platform: linux/arm64', and the "
        "plain boot's page beside it (01_vllm_log_no_mtp.md): 'Hardware: DGX Spark (Blackwell GB10, 128GB UMA)'",
        "gb10",
        ("(APIServer pid=1) INFO 07-02 21:58:11 [api_utils.py:273] non-default args: {'model_tag': "
         "'nvidia/Qwen3.6-27B-NVFP4', 'enable_auto_tool_choice': True, 'tool_call_parser': 'qwen3_coder', 'host': "
         "'0.0.0.0', 'api_key': ['__REDACTED__'], 'model': 'nvidia/Qwen3.6-27B-NVFP4', 'trust_remote_code': True, "
         "'max_model_len': 262144, 'quantization': 'modelopt', 'served_model_name': ['qwen3.6-27b'], "
         "'safetensors_load_strategy': 'prefetch', 'reasoning_parser': 'qwen3', 'gpu_memory_utilization': 0.7, "
         "'kv_cache_dtype': 'fp8', 'enable_prefix_caching': True, 'max_num_batched_tokens': 65536, 'max_num_seqs': 8, "
         "'enable_chunked_prefill': True, 'async_scheduling': True, 'speculative_config': {'method': 'mtp', "
         "'num_speculative_tokens': 2}}",
         "(EngineCore pid=182) INFO 07-02 22:01:01 [gpu_model_runner.py:5184] Loading drafter model...",
         "(EngineCore pid=182) INFO 07-02 22:01:13 [gpu_model_runner.py:5255] Model loading took 20.57 GiB memory and "
         "139.645153 seconds",
         "(EngineCore pid=182) INFO 07-02 22:01:13 [interface.py:773] Setting attention block size to 1600 tokens.",
         "(EngineCore pid=182) INFO 07-02 22:04:54 [gpu_model_runner.py:6588] Estimated CUDA graph memory: -0.81 GiB "
         "total",
         "(EngineCore pid=182) INFO 07-02 22:04:55 [gpu_worker.py:515] Available KV cache memory: 48.6 GiB",
         "(EngineCore pid=182) INFO 07-02 22:04:55 [kv_cache_utils.py:2146] GPU KV cache size: 1,394,129 tokens",
         "(EngineCore pid=182) INFO 07-02 22:04:55 [kv_cache_utils.py:2147] Maximum concurrency for 262,144 tokens "
         "per request: 5.32x"),
        FITS, utilization=0.7, max_model_len=262144, max_num_batched_tokens=65536, max_num_seqs=8, weights="nvfp4",
        kv_dtype="fp8", loading_gib=20.57, available_gib=48.6, kv_tokens=1394129, concurrency=5.32,
        install="docker", prefix_caching=True, speculation="mtp", num_speculative_tokens=2, needs=_SO27_NEEDS,
        kinds=("quantized", "hybrid", "new-gpu"),
        notes="MTP on the hybrid Gated DeltaNet dense Qwen3.6-27B (Qwen3_5MTP): the drafter's one full-attention "
              "layer caches in the target's pool, 17 full-attention layers against 48 Gated DeltaNet ones, hence "
              "the 1,600-token block (1,568 without MTP) and the three padding layers. No --limit-mm-per-prompt: the "
              "vision tower is loaded and four 4096 × 4096 images are profiled at 65,536 batched tokens "
              "(engines.vllm_encoder). The CUDA-graph estimate is printed as measured (-0.81 GiB).",
        extra={"cuda_graph_estimate_gib": -0.81}),
    Log("dsv4-flash-gb10x2-tp2-mtp2-v0211dev", _SO_V4,
        "lines 103 (version), 107 (non-default args), 114 ('Resolved architecture: DeepSeekV4MTPModel'), 123 (the "
        "engine's config: SpeculativeConfig(method='mtp', num_spec_tokens=2), tensor_parallel_size=2, "
        "quantization=deepseek_v4_fp8, kv_cache_dtype=fp8), 195, 243, 245-249, 263, 264, 266 and 267 of the head "
        "node's log (Worker_TP0 on the first Spark; the worker's log is the other rank)",
        "0.21.1rc1.dev339+g1967a5627bc3 (printed: 'version 0.21.1rc1.dev339+g1967a5627bc3', 'Initializing a V1 LLM "
        "engine (v0.21.1rc1.dev339+g1967a5627bc3)'): a build of main after 0.21 branched, with 0.21's rules (0.21 "
        "and 0.22 lay DeepSeek-V4's pool alike)", "0.21.0",
        "deepseek-ai/DeepSeek-V4-Flash (as shipped: fp8 attention and shared experts, MXFP4 routed experts; "
        "'DeepSeek V4 expert_dtype resolved to 'fp4'')", "deepseek-v4-flash",
        "two NVIDIA DGX Sparks (GB10, 128 GB unified each) at TP 2 over the network: the directory "
        "deepseek-v4-flash-dgx-spark-cluster, 'nnodes': 2, 'world_size=2, local_world_size=1', 'Device capability "
        "12.1'", "gb10",
        ("(APIServer pid=1) INFO 06-21 07:16:52 [utils.py:278] non-default args: {'model_tag': "
         "'deepseek-ai/DeepSeek-V4-Flash', 'enable_auto_tool_choice': True, 'tool_call_parser': 'deepseek_v4', "
         "'host': '0.0.0.0', 'api_key': ['dummy-key'], 'model': 'deepseek-ai/DeepSeek-V4-Flash', 'tokenizer_mode': "
         "'deepseek_v4', 'trust_remote_code': True, 'max_model_len': 200000, 'served_model_name': "
         "['deepseek-v4-flash'], 'reasoning_parser': 'deepseek_v4', 'distributed_executor_backend': 'mp', "
         "'master_addr': '10.0.1.1', 'nnodes': 2, 'tensor_parallel_size': 2, 'block_size': 256, "
         "'gpu_memory_utilization': 0.8, 'kv_cache_dtype': 'fp8', 'enable_prefix_caching': True, "
         "'max_num_batched_tokens': 8192, 'max_num_seqs': 4, 'enable_flashinfer_autotune': True, "
         "'speculative_config': {'method': 'mtp', 'num_speculative_tokens': 2}}",
         "(Worker_TP0 pid=57) INFO 06-21 07:19:46 [gpu_model_runner.py:5061] Loading drafter model...",
         "(Worker_TP0 pid=57) INFO 06-21 07:20:07 [mtp.py:474] MTP draft model loaded: 39 params",
         "(Worker_TP0 pid=57) INFO 06-21 07:20:07 [llm_base_proposer.py:1414] Shared target model lm_head with MTP "
         "shared_head.head.",
         "(Worker_TP0 pid=57) INFO 06-21 07:20:09 [gpu_model_runner.py:5132] Model loading took 75.86 GiB memory "
         "and 184.202604 seconds",
         "(Worker_TP0 pid=57) INFO 06-21 07:20:29 [gpu_model_runner.py:6376] Estimated CUDA graph memory: 0.55 GiB "
         "total",
         "(Worker_TP0 pid=57) INFO 06-21 07:20:29 [gpu_worker.py:466] Available KV cache memory: 18.65 GiB",
         "(EngineCore pid=34) INFO 06-21 07:20:29 [kv_cache_utils.py:1733] GPU KV cache size: 1,001,650 tokens",
         "(EngineCore pid=34) INFO 06-21 07:20:29 [kv_cache_utils.py:1734] Maximum concurrency for 200,000 tokens "
         "per request: 5.01x"),
        FITS, utilization=0.8, max_model_len=200000, max_num_batched_tokens=8192, max_num_seqs=4, weights="fp8",
        kv_dtype="fp8",
        loading_gib=75.86, available_gib=18.65, kv_tokens=1001650, concurrency=5.01, install="docker",
        prefix_caching=True, speculation="mtp", num_speculative_tokens=2, tensor_parallel=2, needs=_SO_V4_NEEDS,
        kinds=("quantized", "new-gpu"), notes=_SO_V4_NOTES, extra={"cuda_graph_estimate_gib": 0.55}),

    Log("qwen3-8b-h100-eagle3-hw3-k1-v0200", _HW + "logs/c2_n1_server.log",
        "lines 3 (version), 7 (non-default args), 9 ('Using max model len 40960'), 44-45 (the embedding and the LM "
        "head shared), 47, 62, 63, 65 and 66",
        _HW_VERSION, "0.20.0", _HW_MODEL, "qwen3-8b", _HW_GPU, "h100-sxm",
        ("(APIServer pid=93940) INFO 06-30 22:57:50 [utils.py:233] non-default args: {'model_tag': "
         "'/data/hw3/Qwen3-8B', 'model': '/data/hw3/Qwen3-8B', 'enable_prefix_caching': False, "
         "'speculative_config': {'method': 'eagle3', 'model': '/data/hw3/output/checkpoints/checkpoint_best', "
         "'num_speculative_tokens': 1}}",
         "(EngineCore pid=94225) INFO 06-30 22:58:19 [llm_base_proposer.py:1432] Detected EAGLE model with "
         "embed_tokens identical to the target model. Sharing target model embedding weights with the draft model.",
         "(EngineCore pid=94225) INFO 06-30 22:58:20 [llm_base_proposer.py:1489] Detected EAGLE model with lm_head"
         " identical to the target model. Sharing target model lm_head weights with the draft model.",
         "(EngineCore pid=94225) INFO 06-30 22:58:20 [gpu_model_runner.py:4879] Model loading took 15.78 GiB "
         "memory and 15.925205 seconds",
         "(EngineCore pid=94225) INFO 06-30 22:58:56 [gpu_model_runner.py:6042] Estimated CUDA graph memory: 0.58 "
         "GiB total",
         "(EngineCore pid=94225) INFO 06-30 22:58:56 [gpu_worker.py:440] Available KV cache memory: 51.72 GiB",
         "(EngineCore pid=94225) INFO 06-30 22:58:56 [kv_cache_utils.py:1711] GPU KV cache size: 366,400 tokens",
         "(EngineCore pid=94225) INFO 06-30 22:58:56 [kv_cache_utils.py:1716] Maximum concurrency for 40,960 "
         "tokens per request: 8.95x"),
        FITS, max_model_len=40960, loading_gib=15.78, available_gib=51.72, kv_tokens=366400, concurrency=8.95,
        prefix_caching=False, speculation="eagle", draft_model_id="eagle3-qwen3-8b-hw3-full-vocab",
        num_speculative_tokens=1,
        notes=("An EAGLE-3 head with the full 151,936-token draft vocabulary, trained with the verifier's LM head "
               "frozen: vLLM shares both the embedding and the LM head with the target (lines 44-45), so the head adds "
               "0.50 GiB (fc, one decoder layer, draft_id_to_target_id) and its one KV layer joins the target's 36. "
               + _HW_NOTES)),
    Log("qwen3-8b-h100-eagle3-hw3-k4-v0200", _HW + "logs/c2_n4_server.log",
        "lines 3 (version), 7 (non-default args), 9 ('Using max model len 40960'), 42-43 (the embedding and the LM "
        "head shared), 45, 59, 60, 62 and 63",
        _HW_VERSION, "0.20.0", _HW_MODEL, "qwen3-8b", _HW_GPU, "h100-sxm",
        ("(APIServer pid=104559) INFO 06-30 23:15:47 [utils.py:233] non-default args: {'model_tag': "
         "'/data/hw3/Qwen3-8B', 'model': '/data/hw3/Qwen3-8B', 'enable_prefix_caching': False, "
         "'speculative_config': {'method': 'eagle3', 'model': '/data/hw3/output/checkpoints/checkpoint_best', "
         "'num_speculative_tokens': 4}}",
         "(EngineCore pid=104671) INFO 06-30 23:16:00 [llm_base_proposer.py:1432] Detected EAGLE model with "
         "embed_tokens identical to the target model. Sharing target model embedding weights with the draft model.",
         "(EngineCore pid=104671) INFO 06-30 23:16:02 [llm_base_proposer.py:1489] Detected EAGLE model with "
         "lm_head identical to the target model. Sharing target model lm_head weights with the draft model.",
         "(EngineCore pid=104671) INFO 06-30 23:16:02 [gpu_model_runner.py:4879] Model loading took 15.78 GiB "
         "memory and 6.690056 seconds",
         "(EngineCore pid=104671) INFO 06-30 23:16:07 [gpu_model_runner.py:6042] Estimated CUDA graph memory: 0.56"
         " GiB total",
         "(EngineCore pid=104671) INFO 06-30 23:16:07 [gpu_worker.py:440] Available KV cache memory: 51.73 GiB",
         "(EngineCore pid=104671) INFO 06-30 23:16:07 [kv_cache_utils.py:1711] GPU KV cache size: 366,512 tokens",
         "(EngineCore pid=104671) INFO 06-30 23:16:07 [kv_cache_utils.py:1716] Maximum concurrency for 40,960 "
         "tokens per request: 8.95x"),
        FITS, max_model_len=40960, loading_gib=15.78, available_gib=51.73, kv_tokens=366512, concurrency=8.95,
        prefix_caching=False, speculation="eagle", draft_model_id="eagle3-qwen3-8b-hw3-full-vocab",
        num_speculative_tokens=4,
        notes=("The same head and server as qwen3-8b-h100-eagle3-hw3-k1-v0200 with 4 speculative tokens: the pool "
               "moves by 0.01 GiB and the tokens by 112, and the calculator gives the same figures for both. "
               + _HW_NOTES)),
    Log("qwen3-8b-h100-eagle3-hw3-32k-v0200", _HW + "logs/h9_c2_compressed_server.log",
        "lines 3 (version), 7 (non-default args), 9 ('Using max model len 40960'), 42-43 (the embedding shared, the "
        "LM head kept), 45, 59, 60, 62 and 63",
        _HW_VERSION, "0.20.0", _HW_MODEL, "qwen3-8b", _HW_GPU, "h100-sxm",
        ("(APIServer pid=287915) INFO 07-01 02:31:38 [utils.py:233] non-default args: {'model_tag': "
         "'/data/hw3/Qwen3-8B', 'model': '/data/hw3/Qwen3-8B', 'enable_prefix_caching': False, "
         "'speculative_config': {'method': 'eagle3', 'model': "
         "'/data/hw3/output/checkpoints_compressed_vocab/checkpoint_best', 'num_speculative_tokens': 2}}",
         "(EngineCore pid=288158) INFO 07-01 02:31:51 [llm_base_proposer.py:1432] Detected EAGLE model with "
         "embed_tokens identical to the target model. Sharing target model embedding weights with the draft model.",
         "(EngineCore pid=288158) INFO 07-01 02:31:52 [llm_base_proposer.py:1494] Detected EAGLE model with "
         "distinct lm_head weights. Keeping separate lm_head weights from the target model.",
         "(EngineCore pid=288158) INFO 07-01 02:31:52 [gpu_model_runner.py:4879] Model loading took 16.02 GiB "
         "memory and 6.066272 seconds",
         "(EngineCore pid=288158) INFO 07-01 02:31:58 [gpu_model_runner.py:6042] Estimated CUDA graph memory: 0.56"
         " GiB total",
         "(EngineCore pid=288158) INFO 07-01 02:31:58 [gpu_worker.py:440] Available KV cache memory: 51.48 GiB",
         "(EngineCore pid=288158) INFO 07-01 02:31:58 [kv_cache_utils.py:1711] GPU KV cache size: 364,768 tokens",
         "(EngineCore pid=288158) INFO 07-01 02:31:58 [kv_cache_utils.py:1716] Maximum concurrency for 40,960 "
         "tokens per request: 8.91x"),
        FITS, max_model_len=40960, loading_gib=16.02, available_gib=51.48, kv_tokens=364768, concurrency=8.91,
        prefix_caching=False, speculation="eagle", draft_model_id="eagle3-qwen3-8b-hw3-32k-vocab",
        num_speculative_tokens=2,
        notes=("The head retrained with a 32,000-token draft vocabulary (checkpoints_compressed_vocab): its own LM "
               "head is kept (line 43, 'distinct lm_head weights'), 0.24 GiB more than the full-vocabulary head's "
               "shared one. " + _HW_NOTES)),
    Log("llama-3.1-8b-a100-80g-eagle3-v0240", _MA_P2 + "server_logs/server_20260708_225807.log",
        "lines 4 (version), 7 (non-default args), 16 ('max_num_scheduled_tokens is set to 2048'), 41, 56, 57 and "
        "58; the run records of the same commit started on this server "
        "(phase2_results/runs/core_factorial_llama-3-1-8b-instruct_fp16-fp16-eagle3_gsm8k_c1_r0.json, "
        "2026-07-08T23:01:42) give the GPU and the engine",
        _MA_VERSION, "0.24.0", _MA_MODEL, "llama-3.1-8b",
        "NVIDIA A100-SXM4-80GB (the run record's env.gpu_name, engine_version '0.24.0'; HANDOVER.md: "
        "'Factorial/cube sessions MUST use 80GB (matches Phase-2/3 records')", "a100-80g",
        ("(APIServer pid=31747) INFO 07-08 22:58:17 [api_utils.py:273] non-default args: {'model_tag': "
         "'meta-llama/Llama-3.1-8B-Instruct', 'host': '127.0.0.1', 'model': 'meta-llama/Llama-3.1-8B-Instruct', "
         "'dtype': 'float16', 'seed': 1234, 'max_model_len': 8192, 'gpu_memory_utilization': 0.85, "
         "'enable_prefix_caching': False, 'speculative_config': {'draft_tensor_parallel_size': 1, 'method': "
         "'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 5}}",
         "(EngineCore pid=31925) INFO 07-08 22:58:58 [model_runner.py:302] Model loading took 15.8 GiB and "
         "15.249416 seconds",
         "(EngineCore pid=31925) INFO 07-08 22:59:36 [gpu_worker.py:508] Available KV cache memory: 50.27 GiB",
         "(EngineCore pid=31925) INFO 07-08 22:59:36 [kv_cache_utils.py:2146] GPU KV cache size: 399,360 tokens",
         "(EngineCore pid=31925) INFO 07-08 22:59:36 [kv_cache_utils.py:2147] Maximum concurrency for 8,192 tokens"
         " per request: 48.75x"),
        FITS, utilization=0.85, max_model_len=8192, loading_gib=15.8, available_gib=50.27,
        kv_tokens=399360, concurrency=48.75, prefix_caching=False, speculation="eagle",
        draft_model_id="eagle3-llama-3.1-8b", num_speculative_tokens=5,
        notes="The Phase-2 EAGLE-3 cell (fp16 weights, fp16 KV). " + _MA_NOTES),
    Log("llama-3.1-8b-a100-80g-eagle3-fp8kv-v0240", _MA_P3 + "server_logs/server_20260709_204744.log",
        "lines 4 (version), 7 (non-default args), 17, 41, 56, 57 and 58; the run records of the same commit "
        "started on this server "
        "(phase3_results/runs/core_factorial_llama-3-1-8b-instruct_fp16-fp8-eagle3_gsm8k_c1_r0.json, "
        "2026-07-09T20:53:36) give the GPU",
        _MA_VERSION, "0.24.0", _MA_MODEL, "llama-3.1-8b",
        "NVIDIA A100-SXM4-80GB (the run record's env.gpu_name, engine_version '0.24.0')", "a100-80g",
        ("(APIServer pid=23895) INFO 07-09 20:47:55 [api_utils.py:273] non-default args: {'model_tag': "
         "'meta-llama/Llama-3.1-8B-Instruct', 'host': '127.0.0.1', 'model': 'meta-llama/Llama-3.1-8B-Instruct', "
         "'dtype': 'float16', 'seed': 1234, 'max_model_len': 8192, 'gpu_memory_utilization': 0.85, "
         "'kv_cache_dtype': 'fp8', 'enable_prefix_caching': False, 'speculative_config': "
         "{'draft_tensor_parallel_size': 1, 'method': 'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', "
         "'num_speculative_tokens': 5}}",
         "(EngineCore pid=24034) INFO 07-09 20:49:15 [model_runner.py:302] Model loading took 15.8 GiB and "
         "56.261868 seconds",
         "(EngineCore pid=24034) INFO 07-09 20:49:53 [gpu_worker.py:508] Available KV cache memory: 50.27 GiB",
         "(EngineCore pid=24034) INFO 07-09 20:49:53 [kv_cache_utils.py:2146] GPU KV cache size: 798,720 tokens",
         "(EngineCore pid=24034) INFO 07-09 20:49:53 [kv_cache_utils.py:2147] Maximum concurrency for 8,192 tokens"
         " per request: 97.50x"),
        FITS, utilization=0.85, max_model_len=8192, kv_dtype="fp8", loading_gib=15.8, available_gib=50.27,
        kv_tokens=798720, concurrency=97.5, prefix_caching=False, speculation="eagle",
        draft_model_id="eagle3-llama-3.1-8b", num_speculative_tokens=5,
        notes="The Phase-3 cell with --kv-cache-dtype fp8 (e4m3, stored in one byte on the A100): the same pool as "
              "the fp16-KV cell, twice the tokens, head layer included. " + _MA_NOTES),
    Log("llama-3.1-8b-a100-40g-eagle3-v0240", _MA_P3B + "server_logs/server_20260714_234400.log",
        "lines 4 (version), 7 (non-default args), 16, 40, 55, 56 and 57 (the engine later crashed on a "
        "~7.4k-token prompt, HANDOVER.md 'the 8 long-context KS-probe cells (EAGLE-3) crashed the engine'; it had"
        " started)",
        _MA_VERSION, "0.24.0", _MA_MODEL, "llama-3.1-8b",
        "NVIDIA A100-SXM4-40GB (HANDOVER.md: 'k_stress uses 40GB deliberately'; colab/phase3b_kstress_40gb.ipynb "
        "launches this server ('log: results/server_logs/server_20260714_234400.log'); the session's run records "
        "just before it, e.g. phase3b_results/runs/k_stress_meta-llama-3-1-8b-instruct-awq-int4_w4a16-fp8-none_ra"
        "g_shared_prefix_c8_r1.json, 2026-07-14T23:43:59, give env.gpu_name 'NVIDIA A100-SXM4-40GB')", "a100-40g",
        ("(APIServer pid=32133) INFO 07-14 23:44:10 [api_utils.py:273] non-default args: {'model_tag': "
         "'meta-llama/Llama-3.1-8B-Instruct', 'host': '127.0.0.1', 'model': 'meta-llama/Llama-3.1-8B-Instruct', "
         "'dtype': 'float16', 'seed': 1234, 'max_model_len': 8192, 'gpu_memory_utilization': 0.85, "
         "'enable_prefix_caching': False, 'speculative_config': {'draft_tensor_parallel_size': 1, 'method': "
         "'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 5}}",
         "(EngineCore pid=32323) INFO 07-14 23:44:54 [model_runner.py:302] Model loading took 15.8 GiB and "
         "15.017796 seconds",
         "(EngineCore pid=32323) INFO 07-14 23:45:31 [gpu_worker.py:508] Available KV cache memory: 16.48 GiB",
         "(EngineCore pid=32323) INFO 07-14 23:45:31 [kv_cache_utils.py:2146] GPU KV cache size: 130,912 tokens",
         "(EngineCore pid=32323) INFO 07-14 23:45:31 [kv_cache_utils.py:2147] Maximum concurrency for 8,192 tokens"
         " per request: 15.98x"),
        FITS, utilization=0.85, max_model_len=8192, loading_gib=15.8, available_gib=16.48,
        kv_tokens=130912, concurrency=15.98, prefix_caching=False, speculation="eagle",
        draft_model_id="eagle3-llama-3.1-8b", num_speculative_tokens=5,
        notes="The Phase-3b K-stress probe on the 40 GB card (fp16 KV). " + _MA_NOTES),
    Log("llama-3.1-8b-a100-40g-eagle3-eager-fp8kv-v0240", _MA_P3B + "server_logs/server_20260715_015734.log",
        "lines 4 (version), 7 (non-default args), 15 ('Chunked prefill is enabled with "
        "max_num_batched_tokens=8192'), 44, 46, 47 and 48; the run records of the same commit started on this "
        "server "
        "(phase3b_results/runs/k_stress_llama-3-1-8b-instruct_fp16-fp8-eagle3_rag_shared_prefix_c1_r0.json, "
        "2026-07-15T02:02:31, engine args extra ['--max-num-batched-tokens', '8192', '--enforce-eager']) give the"
        " GPU",
        _MA_VERSION, "0.24.0", _MA_MODEL, "llama-3.1-8b",
        "NVIDIA A100-SXM4-40GB (the run record's env.gpu_name, engine_version '0.24.0')", "a100-40g",
        ("(APIServer pid=68707) INFO 07-15 01:57:44 [api_utils.py:273] non-default args: {'model_tag': "
         "'meta-llama/Llama-3.1-8B-Instruct', 'host': '127.0.0.1', 'model': 'meta-llama/Llama-3.1-8B-Instruct', "
         "'dtype': 'float16', 'seed': 1234, 'max_model_len': 8192, 'enforce_eager': True, "
         "'gpu_memory_utilization': 0.85, 'kv_cache_dtype': 'fp8', 'enable_prefix_caching': False, "
         "'max_num_batched_tokens': 8192, 'speculative_config': {'draft_tensor_parallel_size': 1, 'method': "
         "'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 5}}",
         "(EngineCore pid=68827) INFO 07-15 01:58:16 [model_runner.py:302] Model loading took 15.8 GiB and "
         "13.013870 seconds",
         "(EngineCore pid=68827) INFO 07-15 01:58:19 [gpu_worker.py:508] Available KV cache memory: 16.5 GiB",
         "(EngineCore pid=68827) INFO 07-15 01:58:19 [kv_cache_utils.py:2146] GPU KV cache size: 262,096 tokens",
         "(EngineCore pid=68827) INFO 07-15 01:58:19 [kv_cache_utils.py:2147] Maximum concurrency for 8,192 tokens"
         " per request: 31.99x"),
        FITS, utilization=0.85, max_model_len=8192, kv_dtype="fp8", enforce_eager=True, max_num_batched_tokens=8192,
        loading_gib=15.8, available_gib=16.5,
        kv_tokens=262096, concurrency=31.99, prefix_caching=False, speculation="eagle",
        draft_model_id="eagle3-llama-3.1-8b", num_speculative_tokens=5,
        notes="The Phase-3b probe as rerun ('rung 2 (--enforce-eager ...) is adopted'): eager, 8,192 batched tokens, "
              "fp8 KV. " + _MA_NOTES),
)

_41789 = "https://github.com/vllm-project/vllm/issues/41789"

#: Logs read for this table and left out, each with why.
SEEN: tuple[Seen, ...] = (
    # -- the search of 2026-12-06 (branch ev-eagle): manojarulmurugan/SpecDecoding-Study-vLLM-SGLang, vLLM 0.24.0 ----
    Seen(_MA_P3 + "server_logs/server_20260709_231406.log", "the startup lines: the same command as "
         "llama-3.1-8b-a100-80g-eagle3-fp8kv-v0240 on an A100-SXM4-80GB (run records from 2026-07-09T23:17:39): 15.8 "
         "GiB, 51.17 GiB, 813,024 tokens, 99.25x",
         "a repeat of the kept fp8-KV cell whose pool is 0.90 GiB larger than that cell's 50.27 GiB (its profiling "
         "'took 0.00 s', a warm compile cache); rebuilt -0.3 / -1.8 / -1.8 / -1.8 %. Read as the spread between two "
         "boots of one command on two Colab A100s, not as a second check"),
    Seen(_MA_P3 + "server_logs/server_20260709_233433.log", "the startup lines (and 20260710_050412.log, and "
         "20260710_044146.log with fp8 KV)",
         "the same commands, GPU and figures as llama-3.1-8b-a100-80g-eagle3-v0240 and -fp8kv-v0240 (50.27 GiB, "
         "399,360 / 798,720 tokens): repeats"),
    Seen(_MA_P3B + "server_logs/server_20260715_004237.log", "the startup lines (and 20260715_004509.log with fp8 KV; "
         "phase3c_diagnostics_results/server_logs/server_20260716_235052.log, "
         "phase3c_retest_results_full/server_logs/server_20260717_235455.log): the 40 GB card, EAGLE-3, "
         "--max-num-batched-tokens 8192 with CUDA graphs: 15.8 GiB, 16.01 GiB, 127,184 tokens, 15.53x",
         "rebuilt +2.0 % (16.33 GiB): compiled at 8,192 batched tokens the pool is 0.47 GiB below both the default "
         "(2,048 scheduled tokens, 16.48 GiB) and the eager run at 8,192 (16.5 GiB), and the log prints no "
         "CUDA-graph estimate or activation peak to place it; at the tolerance's edge, so left out rather than "
         "kept on a rounding"),
    Seen(_MA_P3B + "server_logs/server_20260714_234637.log", "the startup lines: the 40 GB card, EAGLE-3 with fp8 KV "
         "at the defaults: 15.8 GiB, 16.48 GiB, 261,824 tokens, 31.96x",
         "the fp8-KV twin of llama-3.1-8b-a100-40g-eagle3-v0240 (the same pool, twice the tokens): a repeat (rebuilt "
         "-0.3 / -0.6 / -0.6 / -0.6 %)"),
    Seen(_MA_P3B + "server_logs/server_20260715_014443.log", "the startup lines (and "
         "phase3c_diagnostics_results/server_logs/server_20260716_232345.log): eager, 8,192 batched tokens, fp16 KV: "
         "15.8 GiB, 16.5 GiB, 131,040 tokens, 16.00x",
         "the fp16-KV twin of llama-3.1-8b-a100-40g-eagle3-eager-fp8kv-v0240 (the same pool, half the tokens): a "
         "repeat (rebuilt -0.3 / -1.0 / -1.0 / -1.1 %)"),
    Seen(_MA_P3 + "server_logs/server_20260709_202716.log", "the startup lines (and the other "
         "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4 runs with and without the EAGLE-3 head, phase2/3/3b: "
         "e.g. 6.18 GiB, 59.89 GiB, 475,744 tokens)",
         "hugging-quants' AWQ checkpoint is not the catalogue's Llama 3.1 8B W4A16 (Red Hat's)"),
    Seen(_MA + "5d509eaa61ec38b53335b5e2187f9f67364c4e18/block0_results/server_logs/server_20260707_081401.log",
         "the startup lines (and server_20260707_092056.log): Meta-Llama-3-8B-Instruct (and TechxGenus's GPTQ of it) "
         "with yuhuili/EAGLE-LLaMA3-Instruct-8B, 15.43 GiB, 46.77 GiB, 371,536 tokens",
         "Llama 3 8B (not 3.1) is not in the catalogue, nor the GPTQ checkpoint; no EAGLE-1 head is in "
         "models/data/eagle_heads.py"),
    Seen(_MA + "d96e4fb6ecef886add914a3e12204a10603ec6e2/pr49343_validation_bundle/partA_fix.log",
         "the startup lines (and partB_control.log): 'Free memory on device (39.08/39.49 GiB)', 15.8 GiB, 15.79 GiB",
         "a build of vLLM pull request 49343 (PREREQ_RESULTS.md: 'PR head f5a7f2eda, VLLM_USE_PRECOMPILED=1'), not a "
         "release"),
    # -- the search of 2026-12-06 (branch ev-eagle): chiatzenw-cur/lossy-spec-decode-repetition, vLLM 0.26.0 ------
    Seen("https://github.com/chiatzenw-cur/lossy-spec-decode-repetition/blob/"
         "e3d23f7eee75190becb8ce524bda9e6578652861/logs/fresh/judge_server.log",
         "the startup lines (and the ~1,400 case logs beside it): openai/gpt-oss-20b on an H100 PCIe with "
         "nebius/EAGLE3-gpt-oss-20b (6 tokens) or amazon/GPT-OSS-20B-P-EAGLE (7, parallel drafting), 65,536, "
         "utilization 0.85: 13.03 GiB, 50.37 GiB, 1,757,410 tokens, 26.82x",
         "an EAGLE head beside gpt-oss's sliding-window layers is refused by the calculator (vLLM groups the head's "
         "full-attention layer apart: physics.eagle_head.kv_refusal), and neither head's config.json is in "
         "models/data/eagle_heads.py"),
    # -- the search of 2026-12-06 (branch ev-eagle): dishantghai/ai-perf-hw3-spec-decode-quant, H100 SXM, 0.20.0 ----
    Seen(_HW + "logs/c1_server.log", "the startup lines: Qwen3-8B bf16 without a drafter: 15.27 GiB, 54.63 GiB, "
         "397,808 tokens, 9.71x",
         "no drafter, so not a row of this table; read as the kept EAGLE-3 rows' pair (rebuilt -0.1 % on each "
         "figure)"),
    Seen(_HW + "logs/c2_n2_server.log", "the startup lines (and c2_n3_server.log, final_c2n2_server.log, "
         "h1_c2n2_retest_server.log): the full-vocabulary head with 2 and 3 tokens: 15.78 GiB, 51.73 / 51.72 GiB, "
         "366,480 / 366,432 tokens, 8.95x",
         "the same server and head as qwen3-8b-h100-eagle3-hw3-k1-v0200 and -k4 (k between them), within 0.01 GiB "
         "of them: repeats, not further checks"),
    Seen(_HW + "logs/c4_n2_server.log", "the startup lines (and c3, c4_n1/n3/n4, c4fp8trained_n2, close_gap_*, "
         "fp8_hs, h1_c3, h1_c4n2_retest, h5_c4n2_kvfp8, h6_c4n2_nochunk, h9_c4_compressed, h9_c4n3_compressed "
         "server logs): /data/hw3/Qwen3-8B-FP8-Dynamic with and without the heads, e.g. 9.32 GiB, 58.19 GiB, "
         "412,272 tokens, 10.07x",
         "the target is the homework's own FP8-dynamic quantization of Qwen3-8B (scripts/quantize_qwen3.py, "
         "llm-compressor), a checkpoint the catalogue does not hold (qwen3-8b is bf16 only)"),
    # -- the search of 2026-12-06 (branch ev-spec) ----------------------------------------------------------
    Seen(_SO27 + "01_vllm_log_no_mtp.md",
         "the vLLM container log: the same compose without --speculative-config, vLLM 0.23.1rc1.dev531 on the "
         "Spark: 19.78 GiB, 'Estimated CUDA graph memory: 0.61 GiB', 47.84 GiB, 1,505,068 tokens, 5.74x",
         "no drafter, so not a row of this table (the plain table's, and on unified memory it would need the host's "
         "share as qwen36-27b-nvfp4-gb10-mtp2-v0231dev does: rebuilt 19.62 GiB, -0.8 %, and 54.88 GiB, +14.7 %); "
         "read as that row's pair"),
    Seen(_SO27 + "03_vllm_log_mtp_dump.md", "the docker logs",
         "the same boot as qwen36-27b-nvfp4-gb10-mtp2-v0231dev (the same pids and times) unabridged: a repeat"),
    Seen("https://github.com/99sono/DockerBuildFiles/blob/a2c430d90b87eb8e2751aaf009476cd190a5c142/inference-containers/"
         "vllm/qwen-3.6-27b-dgx-spark/nvidia-nvfp4/metadata/metadata02_2026_07_04/02_vllm_log_newconfig.md",
         "the docker logs (and 2026-07-04_15-52-45_qwen36-27b-nvfp4-nightly_log_dump.txt beside it): vLLM "
         "0.23.1rc1.dev771, nvidia/Qwen3.6-27B-NVFP4 with MTP 3, 4 sequences, four images a prompt",
         "both files stop at the API server's start-up, before the engine loads: none of the four figures is printed"),
    Seen("https://github.com/AltriaSetsuna/speculative-decoding-empirical/blob/811aad18ad35a3ec80a51cdeae0f885a69cc9d1b/"
         "vllm/canitedit/results/L31-8B-I/eagle3/metrics.txt",
         "the Prometheus dump's vllm:cache_config_info (and the autoregressive, ngram, suffix and mlp runs beside it, "
         "for Llama 3.1 8B and 70B, Qwen3-32B and Qwen3-30B-A3B-2507): num_gpu_blocks 26,193 with an EAGLE-3 head, "
         "28,343 with n-gram, 28,214 without, utilization 0.9, block size 16",
         "a metrics scrape, not a startup log: no 'Available KV cache memory' or loading line, and neither the vLLM "
         "release (the scripts pin 0.9.2 for the MLP speculator only) nor the GPU nor max_model_len is recorded"),
    Seen("https://github.com/vllm-project/vllm/issues/46249", "turn 7 (rmhubbert): Qwen3.6-27B with MTP at TP 4, "
         "utilization 0.95: 'GPU KV cache size: 359,291 tokens', 'Maximum concurrency for 262,144 tokens per request: "
         "1.37x', 'Add 3 padding layers'",
         "the part read names neither the checkpoint (bf16 or FP8) nor the GPU, and has no 'Available KV cache "
         "memory' or 'Model loading took'; Qwen3.6-27B is in the catalogue only as NVIDIA's NVFP4 release"),
    Seen("https://github.com/cloudrift-ai/emmy/pull/130", "the description: 1 × H200 entries for Qwen3.6-27B-FP8 and "
         "Qwen3.6-35B-A3B-FP8 and 2 × H200 for the bf16 35B-A3B, with qwen3_next_mtp",
         "recipes only: the repository commits no startup log of them"),
    Seen("https://github.com/noonghunna/club-3090/issues/747", "the bench report: 2 × RTX 3090, a ThinkingCap FP8 "
         "fine-tune with MTP 5 ('Loading drafter model...')",
         "a community fine-tune's FP8 checkpoint that is not in the catalogue"),
    Seen("https://github.com/noonghunna/club-3090/issues/584", "the bench report: 4 × RTX 3090, qwen-27b-multi-fast "
         "with MTP ('Setting attention block size to 1600 tokens')",
         "the club's Qwen3.6-27B AutoRound int4 checkpoint again (not in the catalogue, AutoRound not sized)"),
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
    # -- the search of 2026-12-06 (branch logs) ------------------------------------------------------------
    Seen("https://github.com/dcstang/eagle3-spec-dec/blob/097df086ddb44f061d86b48ecbac48ddc9407b54/logs/"
         "run_all_20260701_134859.log",
         "step 05b (bench_spec_dec): vLLM 0.24.0, Qwen/Qwen3-8B bf16, non-default args {'enable_prefix_caching': "
         "False, 'speculative_config': {'model': 'output/checkpoints/4', 'num_speculative_tokens': 2, 'method': "
         "'eagle3'}, 'optimization_level': '3', 'performance_mode': 'throughput'}; 'Model loading took 15.78 GiB', "
         "'Available KV cache memory: 54.23 GiB', 'GPU KV cache size: 384,176 tokens', 'Maximum concurrency for "
         "40,960 tokens per request: 9.38x' (step 05a, the same server without the head: 15.27 GiB, 55.44 GiB, "
         "403,664 tokens, 9.86x)",
         "the EAGLE-3 head is the repository's own, trained with speculators (scripts/03_train_eagle3.sh, "
         "'--speculator-type eagle3 --draft-arch qwen3') into output/checkpoints/4, which is not committed: its "
         "config.json is published nowhere, so no eagle_heads entry can cite it; and the GPU is not named (the log "
         "shows FlashAttention 3, so a Hopper part, and 192 GiB of host RAM). What the log does show: the head's "
         "checkpoint is 2.82 GiB ('Checkpoint size: 2.82 GiB' = one Qwen3-8B-shaped decoder layer, fc, embed_tokens "
         "and a full 151,936-row LM head in bf16) while loading it adds 0.51 GiB (fc and the decoder layer alone), so "
         "vLLM 0.24 shares both the embedding and the LM head with the target: from 0.12 the proposer takes the "
         "target's LM head when the head's equals it (llm_base_proposer.py _maybe_share_lm_head, torch.equal), as "
         "a speculators head trained with the verifier's LM head frozen does. physics.eagle_head follows that rule "
         "(Head.lm_head_is_target: 538,119,168 bytes, 0.50 GiB, for this shape at 0.24.0). A candidate once the "
         "head's config is published"),
    Seen("https://github.com/vllm-project/vllm/issues/28919", "the description (vLLM 0.11.0)",
         "Qwen3-32B with AngelSlim/Qwen3-32B_eagle3 (5 speculative tokens, max_model_len 4096): that head is not "
         "the SpecForge one the catalogue holds (eagle3-qwen3-32b), its KV geometry differs from Qwen3-32B's (the "
         "cause of 'Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified "
         "type' in vllm-project/vllm-ascend#2215), and the GPU and the memory lines are not in the part read; "
         "the engine then crashes on the first request"),
    Seen("https://github.com/vllm-project/vllm/pull/24392", "turn 4 (wwl2755): Qwen/Qwen3-14B with an EAGLE-3 head",
         "a test of the fix on a development build: the head is in no catalogue, and the part read has the loading "
         "lines but neither the GPU nor the settings"),
    Seen("https://github.com/vllm-project/speculators/pull/166", "the description: an EAGLE-3 test run of Llama "
         "3.1 8B ('Model loading took 15.8114 GiB', 'Available KV cache mem...')",
         "a CI test run: its max_model_len, utilization and GPU are not on the page, and the head is a speculators "
         "test checkpoint, not a published one the catalogue holds"),
    Seen("https://github.com/vllm-project/vllm/issues/16883", "the description: n-gram on vLLM 0.8.3 / 0.8.4",
         "the V0 engine ('worker.py:267 ... the rest of the memory reserved for KV Cache', 'spec_decode_worker.py'), "
         "which is not modelled"),
    Seen("https://github.com/vllm-project/vllm/issues/22624", "the description: a 1.7B target with a Qwen3-0.6B "
         "draft on an A800 80 GB", "the A800 is not listed and Qwen3-1.7B is not in the catalogue; the part read is "
         "the engine-args dump, no memory line"),
    Seen("https://github.com/noonghunna/club-3090/issues/295", "the bench report: 2 × RTX 3090, "
         "qwen3.6-27b-autoround-int4 at TP 2, MTP with 3 tokens, kv fp8_e5m2, 262,144: 620,944 tokens, 2.37x",
         "Qwen3.6-27B is not in the catalogue (qwen3.5-27b is), the AutoRound int4 checkpoint (quantization "
         "'auto_round') is not a weight format the calculator sizes, and MTP for a hybrid Gated DeltaNet target is "
         "what another branch adds"),
    Seen("https://github.com/noonghunna/club-3090/issues/642", "the bench report: 2 × RTX 3090 (PCIe, no P2P), "
         "qwen3.6-27b-autoround-int4 at TP 2: 11.05 GiB, 623,873 tokens, 2.38x at 262,144",
         "the same model and checkpoint as club-3090#295 (not in the catalogue, AutoRound int4 not sized); the part "
         "read cuts the non-default args before any speculative_config, so the drafter is not even shown"),
    Seen("https://github.com/noonghunna/club-3090/issues/487", "the bug report: 2 × RTX 3090, "
         "qwen3.6-27b-autoround-int4 at TP 2 with MTP: 10.85 GiB, 612,157 tokens, 2.34x at 262,144",
         "the same model, checkpoint and drafter as club-3090#295"),
    Seen("https://github.com/dhayanesh/spec-decoding-bench/blob/73b8e51ed199b2fc0dd6fa86cf616156089400fc/results/"
         "eagle3_sequential.log",
         "lines 7, 54, 70, 73, 74 (and results/eagle3_parallel.log, sweep_eagle3_t2/t4/t6.log): openai/gpt-oss-20b "
         "with RedHatAI/gpt-oss-20b-speculator.eagle3, vLLM 0.21.0, max_model_len 4096, utilization 0.9: 14.34 GiB, "
         "68.41 GiB, 1,376,719 tokens, 336.11x",
         "the GPU is not named anywhere in the repository's main branch (the log's 'SM 12.x requires CUDA >= 12.9' and "
         "~95 GiB point to an RTX PRO 6000 Blackwell, an inference), and the head's config (speculators format) is "
         "not in models/data/eagle_heads.py; the DFlash and suffix-decoding runs beside them are methods the "
         "calculator does not model"),
    Seen("https://github.com/vllm-project/recipes/pull/810", "the description's table: Qwen3.8-27B on 2 × RTX "
         "5090 at TP 2 with MTP, FP8 and NVFP4 (377,456 / 445,875 tokens)",
         "Qwen3.8-27B is not in the catalogue, and the page gives the token counts and weights per GPU as a "
         "table, not the settings of each run"),
    # -- the search of 2026-12-06 (branch logmtp): 99sono/DockerBuildFiles and the issue trackers -------------
    Seen(_SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_01_2026_05_03/06_vllm_log_dump.md",
         "the vllm log: vLLM 0.20.0 on the DGX Spark, RedHatAI/Qwen3.6-35B-A3B-NVFP4 (compressed-tensors), "
         "qwen3_next_mtp with 2 tokens, kv fp8_e4m3, 262,144, 65,536 batched tokens, 8 sequences, utilization 0.85: "
         "23.43 GiB, 66.37 GiB, 1,581,104 tokens, 21.86x",
         "RedHat's compressed-tensors NVFP4 checkpoint is not the catalogue's (qwen3.6-35b-a3b-nvfp4 is NVIDIA's "
         "ModelOpt release): it loads 23.43 GiB where NVIDIA's loads 21.93 GiB with the same MTP layer on the same "
         "Spark (qwen36-35b-nvfp4-gb10-mtp2-v0221dev), so RedHat keeps more of the model in bf16; rebuilt on "
         "NVIDIA's entry the figures are -7.0 / +10.1 / +10.1 / +10.1 %. A candidate once RedHat's "
         "quantization_config is in the catalogue"),
    Seen(_SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_02_2026_05_08/01_vllm_log_dump.txt",
         "the vllm log: vLLM 0.20.1, the same compose as the 0.20.0 log beside it: 23.43 GiB, 66.55 GiB, "
         "5,745,965 tokens, 21.92x",
         "RedHatAI/Qwen3.6-35B-A3B-NVFP4 again (not the catalogue's checkpoint); metadata_03_2026_05_09 is the same "
         "boot's figures again (66.55 GiB, 5,745,965 tokens)"),
    Seen(_SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_04_2026_05_14/01_vllm_log_dump.md",
         "the vllm log: vLLM 0.20.2, the same compose: 23.43 GiB, 66.58 GiB, 5,747,892 tokens, 21.93x",
         "RedHatAI/Qwen3.6-35B-A3B-NVFP4 again (not the catalogue's checkpoint)"),
    Seen(_SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_05_2026_05_21/02_vllm_log_qwen3-6-prismaquant-35b.md",
         "the vllm log (and 04_vllm_log_qwen3-6-prismaquant-35b.md, the same figures): vLLM 0.20.2 on the Spark, "
         "rdtand/Qwen3.6-35B-A3B-PrismaQuant-4.75bit-vllm with MTP 3: 21.42 GiB, 64.69 GiB, 5,463,232 tokens, 20.84x",
         "a community mixed-precision compressed-tensors quantization (4.75 bits on average) that is not in the "
         "catalogue"),
    Seen(_SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_06_2026_05_30/02_vllm_log.md",
         "the vllm log: vLLM 0.22.0, the PrismaQuant checkpoint with MTP 3 at 200,000: 21.42 GiB, 71.15 GiB, "
         "3,131,683 tokens, 15.66x",
         "the PrismaQuant checkpoint is not in the catalogue"),
    Seen(_SO + "qwen-3.6-35b-dgx-spark/metadata/metadata_06_2026_05_30/01_vllm_log.md",
         "the vllm log: vLLM 0.22.0, the PrismaQuant checkpoint with z-lab/Qwen3.6-35B-A3B-DFlash (6 tokens)",
         "DFlash is a speculative method the calculator does not model, and the target is not in the catalogue"),
    Seen(_SO + "qwen-3.6-27b-dgx-spark/metadata/01_on_2026_05_17_at_01_23_AM.md",
         "the log (and 02_on_2026_05_16_at_01_51_am.md): vLLM 0.20.2 on the Spark, "
         "sakamakismile/Qwen3.6-27B-Text-NVFP4-MTP, MTP 3 (and 1), language model only: 18.41 GiB, 46.34 GiB, "
         "1,307,791 tokens, 4.99x (46.55 GiB, 1,357,156 tokens, 5.18x)",
         "Qwen3.6-27B is not in the catalogue (qwen3.5-27b is), and this is a community text-only NVFP4 requant"),
    Seen(_SO + "qwen-3.6-27b-rtx5090/metadata/2026-05-01/06_vllm_log.md",
         "the log (and 01_vllm_crash_log.md, 04_vllm_crash_log.md: 6.56 GiB, 49,600 tokens): vLLM 0.20.0 on an "
         "RTX 5090, sakamakismile/Qwen3.6-27B-Text-NVFP4-MTP with MTP 1, eager: 18.41 GiB, 4.8 GiB, 36,432 tokens, "
         "1.82x",
         "the same community checkpoint, not in the catalogue"),
    # -- the search of branch ev-dsv4mtp: DeepSeek-V4 with MTP ------------------------------------------------------
    Seen("https://github.com/99sono/DockerBuildFiles/blob/81e43e6ddcb83830b1e1867ecdb825d67b8cec1c/"
         "inference-containers/vllm/deepseek-v4-flash-dgx-spark-cluster/variant01-tony2wild-original/head/metadata/"
         "metadata01_2026_06_21/03_2026-06-21_10-38-35_deepseek-v4-flash-head_log_dump.md",
         "the same head-node log, moved into variant01-tony2wild-original",
         "a copy of dsv4-flash-gb10x2-tp2-mtp2-v0211dev's log, kept once"),
    Seen("https://github.com/99sono/DockerBuildFiles/blob/c767100cb96f4452e2764380c935cdfa554e9ae6/"
         "inference-containers/vllm/deepseek-v4-flash-dgx-spark-cluster/variant03-dspark-nvfp4-0731/head/metadata/"
         "2026-08-30_01-31-34_deepseek-v4-flash-0731-head_log_dump.txt",
         "the head node's log as 02_analysis_of_dump.md beside it describes it: DeepSeek-V4-Flash-0731 at TP 2 over "
         "two Sparks, NVFP4 KV cache, DSpark (k=5)",
         "DSpark and the nvfp4_ds_mla KV dtype are a development build's, and DeepSeek-V4-Flash-0731 is not in the "
         "catalogue"),
    Seen("https://github.com/vllm-project/vllm/pull/41834", "turn 109 (BokuNoGF): DeepSeek-V4-Flash at TP 2 with MTP 2, "
         "kv fp8, on the PR's SM12x build (vllm 0.1.dev16960+ga937d4b28)",
         "a pull request's branch build, not a release; the part read has the command and the runtime versions, no "
         "startup figure"),
    Seen("https://github.com/vllm-project/vllm/issues/51799", "issue description: DeepSeek-V4-Flash preview vs -0731 "
         "+ DSpark on B300 at 1,048,576 (27.08x vs 7.73x)",
         "a table of concurrencies, no startup log; DSpark is not modelled and -0731 is not in the catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/50720", "comment of 2026-08-02 (jasl): DeepSeek-V4-Flash-0731 + "
         "DSpark (nst=5) on 2x GB10 at TP 2, FlashInfer 0.6.16",
         "a kernel-dispatch discussion without startup figures; DSpark and -0731 are not modelled"),
    Seen("https://github.com/vllm-project/recipes/pull/493", "the description and review thread: DeepSeek-V4-Flash on "
         "one DGX Station GPU with MTP 3 and the FP4 indexer cache",
         "a launch command, no startup log"),
    Seen("https://github.com/MiaAI-Lab/DeepSeek-v4-Flash-DSpark-2x-DGX-Spark/wiki", "the repository page: "
         "DeepSeek-V4-Flash-DSpark at TP 2 over two Sparks, 1,000,000, kv nvfp4_ds_mla, 'reported KV pool: 3,225,280 "
         "tokens'",
         "DSpark with a patched vLLM overlay and the experimental nvfp4_ds_mla KV dtype: not a release, not modelled"),
    Seen("https://github.com/99sono/DockerBuildFiles/blob/889858ca1269bae140690fd2ca7269641c778e48/"
         "inference-containers/vllm/deepseek-v4-flash-dgx-spark-cluster/variant02-dspark-nvfp4/metadata/"
         "metadata01_2026_07_05/01_vllm_log.md",
         "the head node's log: deepseek-ai/DeepSeek-V4-Flash-DSpark, method 'dspark', kv nvfp4_ds_mla",
         "a development build's drafter method (DSpark) and KV dtype that no vLLM release has"),
    Seen(_SO + "gemma-4-26b-5090/metadata/metadata_03_eagle3_speculative/11_vllm_performance_with_speculative.md",
         "the log (and vllm_log_bad_performance.md, the same boot): vLLM 0.19.2rc1 on an RTX 5090, "
         "RedHatAI/gemma-4-26B-A4B-it-NVFP4 with RedHatAI/gemma-4-26B-A4B-it-speculator.eagle3 (3 tokens), kv "
         "fp8_e4m3, 98,304: 16.12 GiB, 7.77 GiB, 65,696 tokens, 3.54x",
         "RedHat's compressed-tensors NVFP4 checkpoint is not the catalogue's (gemma-4-26b-a4b-nvfp4 is NVIDIA's), "
         "and the speculators head's config.json is not in models/data/eagle_heads.py"),
    Seen("https://github.com/eugr/spark-vllm-docker/pull/200", "turn 13 (sto1): the startup lines of the "
         "Qwen3.6-35B-A3B-FP8 recipe on a DGX Spark with MTP: 52.66 GiB, 1,253,392 tokens at 65,536",
         "Qwen/Qwen3.6-35B-A3B-FP8 (block-wise FP8) is not in the catalogue, which holds the bf16 and NVIDIA NVFP4 "
         "releases; the part read has no 'Model loading took'"),
    Seen("https://github.com/eugr/spark-vllm-docker/issues/237", "the comment of 2026-05-11 (ft4710403)",
         "Qwen3.6-35B-A3B-FP8 at TP 2 over two Sparks with qwen3_next_mtp 5: a command and a speed table, no "
         "startup figures; the FP8 checkpoint is not in the catalogue"),
    Seen("https://github.com/vllm-project/vllm/issues/46462", "the description (vLLM 0.20.2, one A800 80 GB)",
         "DFlash beside Qwen3.6-35B-A3B-FP8: a method the calculator does not model, a checkpoint it does not hold "
         "and a GPU it does not list; the part read has the commands, not the startup figures"),
    Seen("https://github.com/noonghunna/club-3090/issues/105", "the bench report: 2 × RTX 3090 (P2P), vLLM 0.20.1, "
         "Minachist/Qwen3.6-27B-Mixed-AutoRound with MTP 6, fp16 KV, 222k tokens",
         "Qwen3.6-27B is not in the catalogue and an AutoRound mixed quantization is not a format it sizes"),
    Seen("https://github.com/noonghunna/club-3090/pull/44", "turn 4 (Whamp): 4 × RTX 3090 at TP 4, "
         "qwen3.6-27b-autoround-int4, MTP 3, kv fp8_e5m2, 262,144",
         "the same model and AutoRound int4 checkpoint as club-3090#295: not in the catalogue"),
    Seen("https://github.com/vllm-project/vllm/pull/24505", "the description: Llama-3.1-8B-Instruct quantized "
         "on the fly (--quantization fp8, fp16) with yuhuili/EAGLE3-LLaMA3.1-Instruct-8B, kv fp8",
         "the part read has the command and the request log, not the startup figures, and no GPU"),
    Seen("https://github.com/vllm-project/vllm/issues/16258", "the comment of 2025-04-08 (dtransposed): vLLM 0.8.3 "
         "with VLLM_USE_V1=1, 399,104 tokens, 24.36x at 16,384 for the plain run",
         "the part read shows the plain run's figures only, and neither the model nor the GPU"),
    Seen("https://github.com/vllm-project/vllm/issues/19254", "the description (vLLM 0.9.0.1, Qwen3-32B-FP8 with "
         "n-gram)",
         "the part read has the running engine's metrics lines (KV usage, acceptance), no startup figure and no "
         "GPU"),
)
