"""Public vLLM startup logs of dense or MoE deployments at tensor parallelism 8 without expert parallelism, quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s); the Accuracy page and tests/unit/llm_inference/test_accuracy.py
rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

LOGS: tuple[Log, ...] = ()

_VLLM = "https://github.com/vllm-project/vllm/"

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
