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
#: :mod:`.startup_log_table_parallel`). A fourth search (branch ev-lora, 2026-12-06) tried other routes: exact
#: strings of the LoRA lines ("punica_selector.py:19]/:20] Using PunicaWrapperGPU", "Using default LoRA kernel
#: configs", "Loaded new LoRA adapter: name", "'enable_lora': True, 'max_lora_rank'", "'max_lora_rank': 32/64",
#: "'max_loras': 4"), committed log files by path (vllm.log, vllm_server.log, logs/vllm*.log, vllm_serve.log),
#: repositories named for LoRA serving fetched whole with their history (Glen-Chen-Blue/multi-lora again,
#: advay-modal/vllm-lora, Hi-dle-hancom/vLLM-LoRA-Server-Prompt-Engineering, svtdanny/bench_multilora,
#: surkovv/multi-lora, WIN0624/vLLM-Multi-LoRA-Support-Layer, reinthal/inoculation-prompting,
#: reinthal/about-emergent-misalignment, vllm-project/production-stack, vllm-project/aibrix: no committed
#: startup log with LoRA on and the memory lines; unslothai/notebooks, whose GRPO notebooks keep vLLM's start with
#: LoRA on and the GPU in Unsloth's banner, but on 0.10.2, 0.11.2 or a development build: rows below), the issue index (LoRA bug reports, LLaMA-Factory) and the
#: stored pages. What it found in the code index without a recoverable repository (not listed below): the
#: RunPod support ticket again (its log lines are quoted there: mistralai/Mistral-7B-Instruct-v0.2, vLLM 0.14.0,
#: max_loras 1, rank 16, max_model_len 4,096, utilization 0.95, on an RTX PRO 6000 Blackwell by the page's
#: account: 13.58 GiB, 75.99 GiB, 622,464 tokens, 151.97x; no repository holding it could be found by its
#: names, and the model is not in the catalogue); the Modal research log with Qwen2.5-32B-Instruct and a rank-32
#: LoRA (2x L40S, TP 2 by its table, while the quoted command says TP 1; the log stops before the memory lines);
#: an Unsloth GRPO run on an MI300X VF (unsloth/Qwen2.5-7B-Instruct, vLLM 0.19.1+rocm721, LoRA on, 14.43 GiB
#: loaded) that fails in its first LoRA kernel call before any KV line; and Unsloth runs with bitsandbytes 4-bit
#: checkpoints (not modelled) whose GPU is named only by compute capability and memory.
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
         "named in the file (deployment/README.md names an L4 on a GCP G2 VM for the LoRA server, whose start is "
         "logged nowhere in the history)"),
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
         "(accuracy.rebuild now adds them, as load_model measures them). Re-read with all 22 commits of the "
         "repository (2026-12-06): no committed file holds the banner's '[Engine] Initializing vLLM' or an "
         "LLM/EngineArgs call, compute_node_server.py passes only adapter_slots and max_batch_size, and no "
         "README, script or log names the GPU or the rank"),
    Seen(_VLLM + "pull/32711", "PR description: Qwen/Qwen3-Coder-30B-A3B-Instruct, TP 1, --enable-lora --max-loras 1 "
         "--max-lora-rank 32, max_num_seqs 16, compile_sizes [1, 2, 4, 8, 16], no prefix caching",
         "the description quotes the command and `vllm bench serve` results only: no memory line, and the GPU is not "
         "named (an AWS /opt/dlami path)"),
    # -- read on branch ev-lora (2026-12-06) -----------------------------------------------------------------
    Seen("https://github.com/dawn-boy/elloraa/blob/c1d19762153562310aaef8d889ddfbfe64218b61/vllm_server.log",
         "the whole file: DeepSeek-R1-Distill-Qwen-32B-FP8 (a local copy), V1 engine v0.11.0, dtype half, "
         "max_model_len 24,576: 32.1993 GiB, 6.04 GiB, 24,736 tokens, 1.01x",
         "read as a LoRA candidate for its repository's name, but the start runs without LoRA (no 'enable_lora' "
         "among the non-default args), and the GPU is not named in the file (a Lightning AI studio path)"),
    Seen("https://github.com/Lyon-YU33/lora-vllm-deploy/blob/9e3318a57b3d8e37b1dac0988da230744ed5fbbb/"
         "docs/05_%E5%AE%9E%E8%B7%B5%E6%8C%87%E5%8D%97_%E4%BB%8E%E5%8E%9F%E7%90%86%E5%88%B0%E9%AA%8C%E8%AF%81.md",
         "section 7.3: 'Available KV cache memory: 18.3 GB' for a merged, GPTQ-quantized Qwen2.5-7B LoRA "
         "fine-tune on an RTX 4090",
         "an illustration of what the start should print (V0 lines, 'Loading model weights took 4.2 GB', "
         "'# CUDA blocks: 14640'), not a captured log, and the adapter is merged: vLLM runs without LoRA"),
    Seen("https://github.com/vllm-project/production-stack/blob/4f7b1a2ff1d3cadc8013b1c4acea6c85ab6580b9/"
         "vllm_server.log", "the whole file: meta-llama/Llama-3.2-1B-Instruct, V1 engine v0.9.0.1, enforce_eager",
         "LoRA is off (only the filesystem LoRA resolver plugin is listed), the release is before 0.12, and the "
         "GPU is not named"),
    Seen(_VLLM + "issues/47724", "issue description: a runtime add_lora() serving another user's adapter, "
         "vLLM 0.22.1", "the part read is the environment report (collect_env): no memory line"),
    Seen(_VLLM + "issues/16676", "issue description: meta-llama/Llama-3.2-3B-Instruct with LoRA enabled, "
         "an April 2025 server ('args: Namespace(...)')",
         "a 0.8-era release, before LoRA is modelled (0.12), and no memory line in the part read"),
    Seen(_VLLM + "issues/19693", "issue description: models/Llama-3.1-8B with --quantization bitsandbytes "
         "--enable-lora on an RTX 5090, vLLM 0.9.1",
         "before 0.12 and a bitsandbytes checkpoint made at load time, which the calculator does not model"),
    Seen(_VLLM + "pull/21068", "PR description, test plan: llama-3-1-8b with --enable-lora --max-lora-rank 32, "
         "max_num_seqs 4 and an EAGLE-3 drafter",
         "the part read quotes the command and request outputs, no memory line; the GPU is not named and the "
         "build (July 2025) is before 0.12"),
    Seen("https://github.com/hiyouga/LlamaFactory/issues/7658", "issue description: a LoRA adapter served by "
         "vLLM under LLaMA-Factory, two 24 GB GPUs",
         "the V0 engine ('model_runner.py:1146 Model loading took 9.2795 GB', 'worker.py:267'), not modelled"),
    Seen("https://github.com/kserve/kserve/pull/4339", "PR description: meta-llama/Llama-3.2-1B-Instruct with "
         "static LoRA modules under the Hugging Face server", "the V0 engine (v0.7.3), not modelled"),
    Seen("https://github.com/unslothai/notebooks/blob/533626c9ed1f240260af398d803d1c2460bfdf62/nb/"
         "Openenv_wordle_grpo.ipynb", "the output of the cell that starts vLLM: unsloth/Qwen3-4B (bf16) on an NVIDIA "
         "B200 (Unsloth's banner: 'NVIDIA B200. Num GPUs = 1. Max memory: 178.353 GB'), V1 engine "
         "v0.16.1rc1.dev206+g097eb544e, 'enable_lora': True, 'max_lora_rank': 64 (max_loras 1 by default), "
         "max_model_len 4,096, utilization 0.49759166392324533, 8,192 batched tokens, 256 sequences, prefix "
         "caching on: 7.8 GiB, 80.21 GiB, 584,096 tokens, 142.60x",
         "the closest candidate found: a V1 start with LoRA on and its GPU named, but a development build between "
         "0.16.0 and 0.17.0, not a release whose rules the calculator follows (whether 0.17.0's sampler change is "
         "in it was not read), run in-process under Unsloth's patches of vLLM (its own graph capture); and "
         "Qwen3-4B is not in the catalogue (no stored copy of its config.json was found: aiconfigurator keeps "
         "Qwen3 0.6B, 1.7B, 8B and 32B)"),
    Seen("https://github.com/unslothai/notebooks/blob/bdda2efc7ad5ae129ea63cd2065d23c391406283/original_template/"
         "Llama_FP8_GRPO.ipynb", "the vLLM start in the notebook's output (the nb/ copies for Kaggle, the Hugging "
         "Face course and AMD repeat it): unsloth/Llama-3.2-1B-Instruct-FP8-Block on an NVIDIA L4, vLLM 0.11.2, "
         "'enable_lora': True, 'max_lora_rank': 32, max_model_len 2,048, utilization 0.8662, 2,048 batched "
         "tokens, 288 sequences: 1.4721 GiB, 17.20 GiB, 563,744 tokens, 275.27x",
         "0.11.2 is before LoRA is modelled (0.12.0: up to 0.11 the embeddings carry lora_extra_vocab_size), the "
         "block-FP8 re-quantization is not a format the catalogue's llama-3.2-1b ships in, and vLLM runs "
         "in-process under Unsloth's patches"),
    Seen("https://github.com/unslothai/notebooks/blob/bdda2efc7ad5ae129ea63cd2065d23c391406283/original_template/"
         "Qwen3_8B_FP8_GRPO.ipynb", "the vLLM start in the notebook's output: unsloth/Qwen3-8B-FP8 on an NVIDIA L4, "
         "vLLM 0.10.2, 'enable_lora': True, 'max_lora_rank': 32, max_model_len 2,048, utilization 0.8662, 224 "
         "sequences: 8.9638 GiB, 8.98 GiB, 65,376 tokens, 31.92x",
         "0.10.2 is before LoRA is modelled (0.12.0), and vLLM runs in-process under Unsloth's patches"),
)
