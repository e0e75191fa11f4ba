"""Public vLLM startup logs of deployments with LoRA adapters, expert parallelism or tensor parallelism 8, quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s, the feature's own being ``max_loras``, ``max_lora_rank``, ``expert_parallel``, ``tensor_parallel``); the Accuracy page and
tests/unit/llm_inference/test_accuracy.py rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

LOGS: tuple[Log, ...] = ()

_VLLM = "https://github.com/vllm-project/vllm/"

#: Logs read for this table and left out, each with why. The search (issue #37, item 4) went through the
#: public issue index (vLLM's issues and pull requests, the recipes repository, LMCache, model vendors'
#: repositories), the code index (log files and notes committed to public repositories) and the stored web
#: pages, for startup logs of deployments with ``--enable-lora``, ``--enable-expert-parallel`` (with TP or
#: DP attention) or ``--tensor-parallel-size 8`` that print the four figures. None read so far names its
#: model, GPU, layout and settings and prints the figures on a page that can be cited. A set of notes with
#: Qwen3-235B-A22B-Instruct-2507 FP8 and AWQ and Qwen3-VL-235B-A22B at TP 8 with expert parallelism on
#: 8x L40S (vLLM 0.10.2, the four figures per rank) was found in the code index, but its repository and
#: path could not be recovered from the index, so it has no address to cite and is not listed. A second
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
SEEN: tuple[Seen, ...] = (
    # -- LoRA ---------------------------------------------------------------------------------------------
    Seen(_VLLM + "issues/27620", "issue description: granite-4.0-micro with --enable-lora, vLLM 0.11.0",
         "the engine fails right after 'Using PunicaWrapperGPU.' (the LoRA wrapping bug that vllm#27733 fixes), "
         "before any KV line; GraniteMoeHybridForCausalLM is in no catalogue"),
    Seen(_VLLM + "pull/27733", "PR description, 'start up log': granite-4-micro, --enable-lora --enforce-eager, "
         "0.11.0rc2.dev330: 28.54 GiB, 373,920 tokens, 2.85x at 131,072",
         "a development build of the fix, the GPU is not named, and granite-4.0-micro (a Mamba-attention "
         "hybrid, GraniteMoeHybridForCausalLM) is in no catalogue"),
    Seen(_VLLM + "pull/25914", "review thread: 'Free memory ... 1.62 GiB' then '2.38 GiB for CUDAGraph memory' "
         "with LoRA CUDA-graph specialization",
         "only the CUDA-graph share is quoted: neither the model, the GPU nor any of the four figures"),
    Seen(_VLLM + "issues/15039", "comment by cjackal (turn 3): Llama-3.3-70B-Instruct with LoRA under tensor "
         "parallelism",
         "the V0 engine ('worker.py:267', 'executor_base.py:111 # cuda blocks'), which is not modelled"),
    Seen(_VLLM + "issues/23301", "issue description: DeepSeek-R1-Distill-Qwen-32B-AWQ, TP 4, --enable-lora "
         "--max_loras=2, vLLM 0.9.1 image",
         "the description quotes the commands and shows the results as screenshots, no memory line; LoRA is "
         "modelled from 0.12 on"),
    Seen(_VLLM + "issues/29049", "issue description: vLLM 0.11.1, OOM when loading LoRA adapters",
         "the excerpt read is the environment report (collect_env): no model, GPU or memory line"),
    Seen(_VLLM + "issues/29955", "issue description: LoRA with prompt_logprobs on the V1 engine",
         "the excerpt read is the environment report: no memory line"),
    Seen(_VLLM + "issues/42008", "issue description: Nemotron 3 Nano with --enable-lora --lora-modules, 0.22.1",
         "a correctness report: no GPU, settings or memory line"),
    Seen("https://github.com/BachNg311/Multi-LoRA-LLM-Serving/blob/37c729142849ee47754393f0963c6aa819cd6f27/"
         "benchmarks/results/bench_prefix_caching.txt", "the two vLLM 0.15.0 startups of the prefix-caching "
         "benchmark (thuanan/Llama-3.2-1B-Instruct-Chat-sft, utilization 0.5, max_model_len 8192)",
         "a multi-LoRA repository, but these startups run with 'enable_lora': None (LoRA off), and the GPU is not "
         "named in the file"),
    Seen("https://github.com/gpustack/gpustack/issues/5438", "issue description: Qwen/Qwen3-0.6B with "
         "'enable_lora': True and a rank-64 adapter, max_model_len 8192 (non-default args quoted)",
         "the start fails on 'LoRA rank 64 is greater than max_lora_rank 16', and neither the GPU nor a memory line "
         "is in the part read"),
    Seen("https://github.com/Glen-Chen-Blue/multi-lora/blob/c973e6e68bf9d0bf3fc5aad9754360a60c481c82/cn1.log",
         "the whole file (and cn2.log beside it, the same figures): unsloth/Meta-Llama-3.1-8B under a V1 engine "
         "v0.13.0 with LoRA ('Using PunicaWrapperGPU', 'cudagraph_specialize_lora'), max_model_len 4,096, utilization "
         "0.9, 2,048 batched tokens, the wrapper's banner 'slots=4, max_batch=16': 16.3955 GiB, 3.17 GiB, 25,984 "
         "tokens, 6.34x",
         "neither the GPU nor max_lora_rank is stated anywhere in the repository (the vLLM wrapper that wrote the log "
         "was never committed; its fine-tuning script trains rank 16, and the repository's own engine at that commit "
         "is not vLLM). The figures are consistent with 4 slots of rank 64 on a 24 GB A10G or L4 (all four within "
         "1.3 %; rank 16 leaves the loading figure 1.1 GiB short, +31 % on the pool), but that is a fit, not a "
         "setting the page states; it showed that the rebuilt 'Model loading took' lacked the LoRA slots "
         "(accuracy.rebuild now adds them, as load_model measures them)"),
    Seen(_VLLM + "pull/32711", "PR description: Qwen/Qwen3-Coder-30B-A3B-Instruct, TP 1, --enable-lora --max-loras 1 "
         "--max-lora-rank 32, max_num_seqs 16, compile_sizes [1, 2, 4, 8, 16], no prefix caching",
         "the description quotes the command and `vllm bench serve` results only: no memory line, and the GPU is not "
         "named (an AWS /opt/dlami path)"),
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
         "communicator buffers are the candidates); no cited rule was found to close it"),
    Seen(_VLLM + "issues/32467", "issue description: GLM-4.6-FP8 at TP 8 on H20, 0.13.0, max_model_len 114,688, "
         "max_num_seqs 32",
         "the error is an illegal memory access under load; no memory line in the part read, and GLM-4.6 is not in "
         "the catalogue"),
    Seen(_VLLM + "issues/16414", "issue description: meta-llama/Llama-4-Scout-17B-16E-Instruct at TP 8 on H200, 0.8.3, "
         "max_model_len 3,600,000", "the part read quotes the engine's config line and an IndexError during "
         "inference, no memory line"),
)
