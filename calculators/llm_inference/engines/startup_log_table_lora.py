"""Public vLLM startup logs of deployments with LoRA adapters (``max_loras``, ``max_lora_rank``), quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s); the Accuracy page and tests/unit/llm_inference/test_accuracy.py
rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

LOGS: tuple[Log, ...] = ()

_VLLM = "https://github.com/vllm-project/vllm/"

#: Logs read for this table and left out, each with why (the searches of issue #37 are described in
#: :mod:`.startup_log_table_parallel`).
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
)
