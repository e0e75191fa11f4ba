"""Public vLLM startup logs of deployments with expert parallelism (beside TP or DP attention), quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s); the Accuracy page and tests/unit/llm_inference/test_accuracy.py
rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

_VLLM = "https://github.com/vllm-project/vllm/"

# -- tim-roethig/ai-platform: L40S machines (vast.ai), the vLLM 0.10.2 wheel, notes of September 2025 ------------
_TR = ("https://github.com/tim-roethig/ai-platform/blob/7c54612e18653a2d2ccc125072c093010d89691b/"
       "platform/benchmarks/")
_TR_PIP = ("A pip install: the log prints 'FlashInfer is not available. Falling back to the PyTorch-native "
           "implementation of top-p & top-k sampling' (the wheel does not require FlashInfer before 0.11.2). ")
_TR_NCCL = ("0.10.2 sets up NCCL after the first memory snapshot, so TP's communication buffers are in the budget "
            "(vllm_releases NON_TORCH_TP_BYTES, 0.12 GiB measured on two A100s); ")

# -- yecohn/moe-bench (read, not kept: SEEN) ----------------------------------------------------------------
_YB = ("https://github.com/yecohn/moe-bench/blob/a0d7d3f968d3350af18473e2286dcb2031da91a1/"
       "results/qwen3-a3b-4gpu-parallelism/raw/vllm/")

LOGS: tuple[Log, ...] = (
    Log("qwen3-235b-fp8-8xl40s-tp8-ep-v0102", _TR + "qwen3_235b_on_8xl40s.md",
        "'## vllm logs': lines 147–148 (the version and 'non-default args'), 390, 462, 467–468 and 489 (rank 0's "
        "lines; the ranks print 10.64–10.68 GiB and 237,344–238,256 tokens, 7.24–7.27x); line 154: "
        "max_num_batched_tokens=2048; nvidia-smi on the page: 8x 'NVIDIA L40S' with 46,068 MiB. The heading's "
        "command says --tensor-parallel-size 4, the log's own arguments 8",
        "0.10.2 (printed: 'vLLM API server version 0.10.2')", "0.10.2",
        "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (the layers of Qwen/Qwen3-235B-A22B-FP8: 94 layers, 4 KV heads of "
        "128, 128 experts with 8 active, fp8 in 128 x 128 blocks; the release differs in its context and RoPE "
        "base, and max_model_len is set)",
        "qwen3-235b-a22b-fp8", "8x NVIDIA L40S, PCIe ('Custom allreduce is disabled because it's not supported "
        "on more than two PCIe-only GPUs'; 'Free memory on device (43.93/44.42 GiB)')", "l40s",
        ("(APIServer pid=1624) INFO 09-24 20:45:41 [api_server.py:1896] vLLM API server version 0.10.2",
         "(APIServer pid=1624) INFO 09-24 20:45:41 [utils.py:328] non-default args: {'model_tag': "
         "'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 'model': 'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', "
         "'max_model_len': 32768, 'tensor_parallel_size': 8, 'enable_expert_parallel': True, 'swap_space': 0.0}",
         "(Worker_TP0_EP0 pid=2078) INFO 09-24 20:50:59 [gpu_model_runner.py:2392] Model loading took 27.7183 GiB "
         "and 287.369035 seconds",
         "(Worker_TP0_EP0 pid=2078) INFO 09-24 20:53:40 [gpu_worker.py:298] Available KV cache memory: 10.68 GiB",
         "(EngineCore_DP0 pid=1944) INFO 09-24 20:53:41 [kv_cache_utils.py:864] GPU KV cache size: 238,208 tokens",
         "(EngineCore_DP0 pid=1944) INFO 09-24 20:53:41 [kv_cache_utils.py:868] Maximum concurrency for 32,768 "
         "tokens per request: 7.27x",
         "(Worker_TP0_EP0 pid=2078) INFO 09-24 20:54:36 [gpu_worker.py:391] Free memory on device (43.93/44.42 "
         "GiB) on startup. Desired GPU memory utilization is (0.9, 39.98 GiB). Actual usage is 27.72 GiB for "
         "weight, 1.4 GiB for peak activation, 0.18 GiB for non-torch memory, and 3.45 GiB for CUDAGraph memory. "
         "Replace gpu_memory_utilization config with `--kv-cache-memory=7606321868` to fit into requested memory, "
         "or `--kv-cache-memory=11851036160` to fully utilize gpu memory. Current kv cache memory in use is "
         "11465081548 bytes."),
        FITS, tensor_parallel=8, max_model_len=32768, weights="fp8", loading_gib=27.7183, available_gib=10.68,
        kv_tokens=238208, concurrency=7.27, expert_parallel=True, kinds=("quantized", "pre-0.20"),
        notes=_TR_PIP + _TR_NCCL + "the log's own parts: 39.98 - 27.72 - 1.4 - 0.18 = 10.68 GiB (0.21 GiB of "
              "non-torch memory on six of the eight ranks, 10.64–10.65 GiB). The engine prints one 'GPU KV cache "
              "size' pair a rank, in rank order (0.10.2 core.py _initialize_kv_caches), so the first is rank 0's. "
              "The 3.45 GiB of CUDA graphs is not subtracted before 0.21."),
    Log("qwen3-30b-a3b-fp8-2xl40s-tp2-ep-v0102", _TR + "ollama_vs_vllm.md",
        "'### vLLM': lines 157–159 (vllm --version: 0.10.2), 162–167 (the command) and 171–173; the page's "
        "'GPUs: 2x NVIDIA RTX L40S 48GB' and nvidia-smi under the log (2x 'NVIDIA L40S', 46,068 MiB)",
        "0.10.2 (printed by 'vllm --version' on the same machine)", "0.10.2",
        "Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 (the layers of Qwen/Qwen3-30B-A3B-FP8: 48 layers, 4 KV heads of "
        "128, 128 experts with 8 active, fp8 in 128 x 128 blocks; the release differs in its context and RoPE "
        "base, and max_model_len is set)",
        "qwen3-30b-a3b-fp8", "2x NVIDIA L40S (the page: 'GPUs: 2x NVIDIA RTX L40S 48GB'; nvidia-smi)", "l40s",
        ("(Worker_TP1_EP1 pid=2295) INFO 09-24 19:58:12 [gpu_worker.py:298] Available KV cache memory: 25.91 GiB",
         "(EngineCore_DP0 pid=2225) INFO 09-24 19:58:12 [kv_cache_utils.py:864] GPU KV cache size: 566,016 tokens",
         "(EngineCore_DP0 pid=2225) INFO 09-24 19:58:12 [kv_cache_utils.py:868] Maximum concurrency for 32,768 "
         "tokens per request: 17.27x"),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=32768, weights="fp8", available_gib=25.91,
        kv_tokens=566016, concurrency=17.27, expert_parallel=True, kinds=("quantized", "pre-0.20"),
        notes="The command (lines 162–167): 'vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 --tensor-parallel-size "
              "2 --enable-expert-parallel --gpu-memory-utilization 0.95 --swap-space 0 --max-model-len 32K', every "
              "other setting at vLLM's default; 32K is 32,768 (the concurrency line). The same author and machine "
              "type as the TP 8 row, whose log shows the pip install without FlashInfer; this page quotes only the "
              "three lines. " + _TR_NCCL
              + "that figure holds custom all-reduce's 18 MiB (custom_all_reduce_bytes(2)), which two PCIe GPUs also "
              "set up when peer-to-peer works. The install is inferred, not printed: the same prompt ('(workspace) "
              "(main) root@C.2618…:/workspace'), day and release as the TP 8 log, which prints that FlashInfer is "
              "not available; with FlashInfer's sampler (install 'docker') the rebuilt pool would be 4.2 % larger."),
)

#: Logs read for this table and left out, each with why. The search (issue #37, item 4) went through the
#: public issue index (vLLM's issues and pull requests, the recipes repository, LMCache, model vendors'
#: repositories), the code index (log files and notes committed to public repositories) and the stored web
#: pages, for startup logs of deployments with ``--enable-lora``, ``--enable-expert-parallel`` (with TP or
#: DP attention) or ``--tensor-parallel-size 8`` that print the four figures. The first three searches kept
#: none. A set of notes with Qwen3-235B-A22B-Instruct-2507 FP8 and AWQ and Qwen3-VL-235B-A22B at TP 8 with
#: expert parallelism on 8x L40S (vLLM 0.10.2, the four figures per rank) was found in the code index, but
#: its repository and path could not then be recovered (the fourth search did: the rows of LOGS). A second
#: search (branch logs, 2026-12-06) read repositories whose names point at LoRA serving, EP or TP 8
#: deployments (their committed logs, fetched whole) and the issue index again: no startup log with LoRA,
#: expert parallelism or TP 8 that names its GPU and settings was found; a GLM-5.1-FP8 TP 8 log on H200
#: (a bisect report of a 0.20.1 development build: 89.39 GiB, 34.86 GiB, 373,696 tokens, 1.84x at 202,752)
#: is in the code index with no recoverable repository either, so it is not listed.
#: A third search (2026-12-06, exact strings of the non-default args line — "'tensor_parallel_size': 8",
#: "'enable_expert_parallel': True", "'enable_lora': True, 'max_lora_rank'", "'data_parallel_size': 8",
#: worker tags "Worker_TP7_EP7" / "Worker_DP7_EP7", "Using PunicaWrapperGPU", "Using default LoRA kernel
#: configs" — the issue index again, the stored pages, and the whole histories of vllm-project/recipes and
#: llm-d/llm-d-benchmark) kept none either. What it found in the code index without a recoverable repository
#: (so without an address, and not listed below): a second note of the same L40S author (QuantTrio's
#: Qwen3-VL-235B-A22B-Instruct FP8 and AWQ at TP 8 with expert parallelism, a 0.10.2 nightly, 32K: 9.71–9.73 GiB,
#: 216,656–217,104 tokens; 22.78–22.80 GiB, 508,144–508,624 tokens); a RunPod support ticket quoting, as a
#: summary and not as log lines, mistralai/Mistral-7B-Instruct-v0.2 with LoRA (max_loras 1, rank 16) on an
#: L40S under 0.14.0 (13.58 GiB, 28.13 GiB, 230,416 tokens; Mistral-7B-Instruct-v0.2 is not in the
#: catalogue, whose mistral-7b-v0.1 differs in context, RoPE base and sliding window); a research log with
#: Qwen2.5-32B-Instruct and a rank-32 LoRA on Modal under 0.13.0 whose quoted log stops before the memory
#: lines; a DeepSeek-V3.2 TP 8 log under 0.13.0 behind a P2P NCCL KV connector (prefill/decode
#: disaggregation, not modelled) with no GPU named; and a DP 8 + EP Qwen3-30B-A3B-FP8 start on the DeepEP
#: all-to-all (not modelled) with enforce_eager.
#: A fourth search (branch ev-ep, 2026-12-06) recovered the L40S notes' repository: the code index's search
#: by meaning names tim-roethig/ai-platform (platform/benchmarks/, moved there from platform/docs/ on
#: 2025-10-05), whose two pages with a command are the rows of LOGS and whose other two are in SEEN. Read
#: there too and left without a row: a Chinese validation note (code index, no recoverable repository) of
#: DeepSeek-V2-Lite at TP 4 with and without EP on A100s under a 0.28.1rc1 development build that quotes no
#: memory line.
SEEN: tuple[Seen, ...] = (
    # -- tim-roethig/ai-platform: the same 8x L40S machines as the rows ------------------------------------
    Seen(_TR + "qwen3-235b_fp8_vs_awq.md", "'## fp8' / '### kv cache': Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 "
         "at TP 8 + EP (Worker_TP7_EP7), 0.10.2's kv_cache_utils.py:864, 11.51–11.55 GiB, 256,800–257,664 tokens, "
         "7.84–7.86x at 32,768", "the page quotes no command, and its pool is 0.9 GiB larger than the same "
         "model's on the same machines at utilization 0.9 (qwen3_235b_on_8xl40s.md, the row): a setting differs "
         "and the page does not say which. (The same day's qwen3vl-235b_fp8_vs_awq.md installs flashinfer-python "
         "beside vLLM; with FlashInfer's sampler in the profile run and the row's settings the calculator gives "
         "11.65 GiB, +0.9 %, but that install is not stated for this run, so it is not assumed.)"),
    Seen(_TR + "qwen3-235b_fp8_vs_awq.md", "'## awq': QuantTrio/Qwen3-235B-A22B-Instruct-2507-AWQ (the lm_eval "
         "line) at TP 8 + EP, 24.58–24.62 GiB, 548,352–549,232 tokens, 16.73–16.76x at 32,768",
         "no command on the page, and the AWQ release is not in the catalogue"),
    Seen(_TR + "qwen3vl-235b_fp8_vs_awq.md", "'## serve': QuantTrio/Qwen3-VL-235B-A22B-Instruct-FP8 (and -AWQ) at "
         "TP 8 + EP, utilization 0.9, max_model_len 32K, video limit 0; 9.71–9.73 GiB, 216,656–217,104 tokens "
         "(AWQ 22.78–22.80 GiB, 508,144–508,624 tokens)", "a nightly wheel of late September 2025 "
         "(kv_cache_utils.py:1087, no version printed) whose rules no release of vllm_releases fixes, and "
         "Qwen3-VL-235B-A22B (and QuantTrio's quantizations of it) is not in the catalogue"),
    # -- yecohn/moe-bench: Qwen3-30B-A3B on 4x A100-PCIE-40GB, a parallelism sweep ------------------------------
    Seen(_YB + "vllm_tp4dp1_ep/server.log", "the whole server log: Qwen/Qwen3-30B-A3B at TP 4 + EP (EP weight filter, "
         "allgather_reducescatter), utilization 0.85, max_num_seqs 128, 8,192 batched tokens, prefix caching off; "
         "14.25 GiB, 17.18 GiB, 750,608 tokens, 18.33x at 40,960; 'Estimated CUDA graph memory: 1.17 GiB total'",
         "vLLM 0.20.2rc1.dev50+g48954de23.d20260519, a build of main with uncommitted changes (the .d suffix) "
         "rather than a release; and the CUDA-graph estimate it prints (1.17 GiB a GPU, the same as the TP 4 run "
         "without EP beside it, which prints the same pool) is a measurement where the rule takes 0.9 GiB / 4 "
         "(vllm_releases.CUDA_GRAPH_BYTES_V1): the calculator's pool comes to 18.10 GiB (+5.4 %), 17.15 GiB "
         "(-0.2 %) with the printed estimate, so it would be a `needs` row (engine: the CUDA-graph estimate)"),
    Seen(_YB + "vllm_tp2dp2_ep/server.log", "Qwen/Qwen3-30B-A3B at DP 2 x TP 2 + EP, the same build and settings: "
         "14.96 GiB, 15.04 GiB, 328,560 tokens, 8.02x", "DP x TP for a mixture of experts is not a layout the "
         "calculator has (accuracy.layout_problem), and the build is not a release"),
    Seen(_YB + "vllm_tp1dp4_ep/server.log", "Qwen/Qwen3-30B-A3B at DP 4 + EP (data-parallel attention), utilization "
         "0.9", "the start fails: 'Free memory on device cuda:3 (16.11/39.49 GiB) on startup is less than desired "
         "GPU memory utilization' (another process held the GPU)"),
    # -- expert parallelism beside TP, elsewhere ---------------------------------------------------------------
    Seen("https://github.com/hawkoli1987/mech-util/blob/73333af1bbc396090ea5ff1bb45ec5d23ee738a3/experiment_plan.md",
         "'Results Summary': zai-org/GLM-4.6 at TP 8 + EP on 8x H200, enforce_eager, kv fp8, utilization 0.95, "
         "max_model_len 32,768 ('vLLM reported 61.44x concurrency'), the vllm-openai v0.12.0 image",
         "only the concurrency is quoted, as a figure in a table rather than a log line, and GLM-4.6 is not in "
         "the catalogue (glm-4.5-air and the GLM-5 family are)"),
    Seen(_VLLM + "issues/15604", "issue title and description: deepseek-ai/DeepSeek-V2-Lite at TP 8 with EP",
         "the start fails ('Failed to run deepseek v2 lite model with tp = 8 when enabling expert parallel'), no "
         "memory line in the part read"),
    Seen("https://github.com/QwenLM/Qwen3-VL/issues/1684", "issue description: Qwen3-VL-235B-A22B-Instruct-FP8 at "
         "TP 8 + EP on 8x A100, 0.11.0, max_model_len 100,000, async scheduling",
         "the start fails (OOM), and Qwen3-VL-235B-A22B is not in the catalogue"),
    Seen("https://github.com/QwenLM/Qwen3-VL/issues/1520", "turn 3 by Menoly-xin: Qwen3-VL-30B-A3B-Thinking at TP 4 + "
         "EP (32/128 experts a rank, FlashInfer CUTLASS MoE)", "a report of garbled output whose excerpt has no "
         "memory line and no GPU, and Qwen3-VL-30B-A3B is not in the catalogue"),
    Seen("https://github.com/QwenLM/Qwen3-VL/issues/1493", "comment by Pig255 (2025-09-25): Qwen3-VL-235B-A22B-"
         "Instruct at TP 8 + EP on 8x H20 (96G), the Transformers backend", "the start fails (OOM), the model "
         "runs on the Transformers backend, and Qwen3-VL-235B-A22B is not in the catalogue"),
    Seen("https://github.com/LMCache/LMCache/issues/1435", "comment by forestlee95 (2025-08-26): Qwen3-Coder-480B-A35B-"
         "Instruct-FP8 at DP 8 + EP on 8x H200, the lmcache/vllm-openai nightly (0.10.1.1), utilization 0.75",
         "the start fails behind the LMCache connector (not modelled), and the FP8 release is not in the "
         "catalogue"),
    Seen(_VLLM + "issues/22004", "issue description (read in an index's summary): tclf90/Qwen3-30B-A3B-Thinking-"
         "2507-AWQ at TP 2 + EP, max_model_len 65,536, docker", "the start fails ('AWQ fails on MoE models'), "
         "and the AWQ release is not in the catalogue"),
    Seen(_VLLM + "pull/28849", "comment by JartX (2025-11-19): Qwen3-VL-30B-A3B AWQ W4A16 at TP 2 + EP with EPLB "
         "(8 redundant experts), utilization 0.9, max_model_len 40,960",
         "benchmark output only, no memory line; a local AWQ quantization of a model not in the catalogue"),
    # -- expert parallelism, data-parallel attention --------------------------------------------------------
    Seen(_VLLM + "issues/27194", "issue description: Qwen3-Coder-480B-A35B-Instruct-FP8, TP 8 + EP on 8x B200, "
         "the vllm-openai:v0.10.2 image, utilization 0.95, max_model_len 131,072",
         "the page quotes the arguments and the crash under load, no memory line; the FP8 release is not in "
         "the catalogue (qwen3-coder-480b-a35b is the bf16 one)"),
    Seen(_VLLM + "issues/29360", "issue description: Qwen3-Coder-480B FP8, TP 8 + EP on 8x H20, 0.11.1, "
         "utilization 0.98, max_num_seqs 30, enforce_eager",
         "the start fails in DeepGEMM's warm-up (OOM), which no verdict of the table describes; the model path "
         "is local ('/models') and the FP8 release is not in the catalogue"),
    Seen(_VLLM + "issues/29670", "issue description: deepseek-ai/DeepSeek-V2-Lite, DP 2 + EP with --enable-dbo "
         "and the deepep_low_latency all-to-all backend, 0.11.2, 8x H20",
         "the start fails ('ebo failed'), and DeepEP's all-to-all buffers are not modelled"),
    Seen(_VLLM + "issues/32190", "issue description: deepseek-ai/DeepSeek-R1, DP 16 (two nodes of 8x H200) + EP, "
         "deepep_low_latency, the v0.13.0 image",
         "the part of the page read has the command but no memory line, and DeepEP's all-to-all buffers are "
         "not modelled"),
    Seen(_VLLM + "issues/19101", "issue description: DeepSeek-R1 with DEP16 on H100s, hangs after the KV cache is "
         "allocated", "the excerpt read is the environment report: no memory line"),
    Seen(_VLLM + "pull/28037", "PR description: EP ranks of a DP 2 × TP 2 run (EP 4, 64 experts) and a "
         "Qwen2.5-1.5B-Instruct test run", "the MoE run names neither its model nor its GPU and no memory line "
         "of it is in the part read; DP × TP for a mixture of experts is not a layout the calculator has"),
    Seen(_VLLM + "issues/51454", "issue description: DeepSeek-V4-Flash-0731, DP 8 + EP on 8x B200, 0.25.0",
         "the pool rule (physics/multi_page_pool.py, 0.20–0.27) applies, but the budget is 6–7 % high (166.4x "
         "against 156.9x on DP 8, 21.85x against 20.43x on TP 8): the run sets moe_backend deep_gemm_mega_moe, "
         "whose symmetric-memory buffer (sized by max_num_batched_tokens in a DeepGEMM function vLLM ships "
         "compiled) the calculator does not size"),
    Seen(_VLLM + "issues/44376", "comment by simonwalo: DeepSeek-V4-Flash, TP 2 + EP on 2x GH200",
         "the start check fails as the pool rule says (startup_log_table's SEEN row of the same comment), but "
         "the 5.44 GiB the run had is 9.2 GiB under the calculator's budget, a gap the source read does not "
         "explain (docs/accuracy.md, unified memory)"),
    Seen("https://github.com/vllm-project/recipes/issues/381", "issue description: DeepSeek-V4-Pro, DP 8 + EP on "
         "8x H200, max_model_len 800,000", "the vllm/vllm-openai:deepseekv4-cu130 image of 2026-04-24, a pre-release "
         "build rather than a release whose rules the calculator follows, and the start fails"),
    Seen("https://github.com/LMCache/LMCache/pull/2521", "review thread: DeepSeek-V3.2 at TP 2 × DP 4 with EP on "
         "H200 with LMCache", "a crash in DeepGEMM's warm-up, no memory line; DP × TP for a mixture of experts "
         "and the LMCache connector are not modelled"),
    Seen(_VLLM + "pull/37505", "PR description: '[EP Rank 0/2] ... Local/global number of experts: 128/256'",
         "an out-of-tree NPU platform (vllm-ascend) test, not a GPU; no memory line"),
    Seen("https://github.com/MiniMax-AI/MiniMax-M2.5/issues/30", "issue description: MiniMax-M2.5 over Ray on "
         "several nodes, 13.2 GiB loaded a rank",
         "'Overriding num_gpu_blocks=0 with num_gpu_blocks_override=256': the pool is set by hand, and the GPU "
         "and layout are not named in the part read"),
    Seen(_VLLM + "issues/23378", "issue description: deepseek-ai/DeepSeek-R1, DP 8 + EP, utilization 0.75, "
         "max_num_seqs 1,024, full CUDA graph with custom capture sizes",
         "the page quotes the command and the hang under load, no memory line; the GPU is not named"),
    Seen(_VLLM + "issues/43811", "issue description: Qwen/Qwen3.5-35B-A3B, DP 8 + EP over two nodes of 4x GB200 "
         "without NVLink", "the excerpt read has the commands and the environment, no memory line"),
    Seen(_VLLM + "issues/17327", "comment by GamePP (2025-04-30): Qwen3-235B-A22B-FP8 on 8 × RTX 4090 48GB, "
         "--enable-expert-parallel --tensor-parallel-size 8, utilization 0.9, the vllm-openai:latest image of "
         "April 2025", "a docker command offered as advice: no log line, and the image's release is not stated"),
    Seen("https://github.com/vllm-project/recipes/issues/762", "issue description: DeepSeek-V4-Flash-0731 on 8x B200, "
         "DP 8 + EP against TP 8 + EP, 0.25.0, max concurrency 156.9x against 20.43x at 1M tokens",
         "the same runs as vllm#51454, with the same 6–7 % gap (the deep_gemm_mega_moe buffer)"),
    Seen("https://github.com/yhfgyyf/vllm-deepseek-v4-sm89/issues/108", "comment by zhangjiekui (2026-09-15): "
         "DeepSeek-V4.1-Flash at TP 8 + EP on 8x RTX 4090 48G, kv fp8, max_model_len 1,001,024, an engram CPU "
         "offload config, a fork for SM89",
         "a fork of vLLM whose SM89 attention and the engram CPU offload are not vLLM's, and DeepSeek-V4.1 is "
         "not in the catalogue"),
)
