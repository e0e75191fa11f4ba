"""Public SGLang startup logs, quoted exactly, with what they print parsed into numbers.

Each :class:`SGLangLog` pairs the model's cache shape (from its published config, or, where the
page does not name the model, what the printed sizes and the page imply: ``notes`` says so), the
GPU, the launch settings and the lines SGLang printed. tests/unit/llm_inference/engines/
test_sglang.py rebuilds from them, with :mod:`llm_inference.engines.sglang`:

* ``"tokens"``: ``max_total_num_tokens`` from the free memory the log prints before and after the
  weights (T and B) and ``mem_fraction_static``;
* ``"budget"``: the token count from the KV budget the log prints ("The available memory for KV
  cache is …"), which tests the cell and the page rounding alone;
* ``"weights"``: the token count from T and the book's own weight bytes for the model, where the
  log prints T but not B;
* ``"refusal"``: a start SGLang refused for lack of KV memory;
* every log with a "KV Cache is allocated" line: the K and V sizes from the token count;
* ``"swa-split"``: a hybrid SWA pool's two counts, the SWA pool's as ``--swa-full-tokens-ratio`` of the
  full pool's, and the SWA pool's K and V sizes from its count.

``needs`` names what only the hardware (or a line the page does not show) could give; such a
log's error is reported, never tuned away. GiB throughout: SGLang divides by 2^30 and prints "GB".
``release`` is as printed, or inferred (then says how); ``rules`` is the release read whose rules
apply (engines.sglang.RELEASES_READ).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

__all__ = ["SGLangLog", "LOGS", "BY_ID", "DefaultFraction", "DEFAULT_FRACTIONS"]


@dataclass(frozen=True)
class SGLangLog:
    id: str
    url: str
    where: str  # how to find the lines on that page
    release: str  # as printed, or inferred (and how)
    rules: str  # the release read whose rules apply
    model: str
    gpu: str
    gpus: int
    tp: int
    lines: tuple[str, ...]  # quoted exactly
    parsed: Mapping[str, float]  # numbers read from the lines (GiB as printed)
    shape: Mapping[str, float]  # cache shape: layers (that cache), kv_heads, head_dim, kv_dtype_bytes, page_size
    check: str  # "tokens", "budget", "weights", "refusal", "kv-size" or "swa-split"
    mem_fraction_static: float | None = None  # as launched or printed; None: not on the page
    fraction_source: str = ""
    dp: int = 1
    dp_attention: bool = False
    catalogue_id: str = ""  # the book's catalogue entry whose weights the "weights" check uses
    needs: str = ""  # what only the hardware, or a line not on the page, gives
    notes: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)


LOGS: tuple[SGLangLog, ...] = (
    SGLangLog(
        id="qwen3-14b-48gb-v046",
        url="https://github.com/xorbitsai/inference/issues/3481",
        where="issue description (2025-05-19), 使用SGLang单卡无法加载qwen3 14b",
        release="0.4.6.x (inferred: 2025-05-19 falls between 0.4.6.post4 and 0.4.6.post5; 'mem usage' on the "
                "'Load weight end' line and a CUDA-graph list ending at 160 are 0.4.6's)",
        rules="0.4.6.post1",
        model="Qwen/Qwen3-14B", gpu="one GPU with 47.24 GiB free after CUDA init (not named; a 48 GB card)",
        gpus=1, tp=1,
        lines=(
            "[2025-05-19 01:06:14] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=19.67 GB, "
            "mem usage=27.57 GB.",
            "[2025-05-19 01:06:14] KV Cache is allocated. #tokens: 91749, K size: 7.00 GB, V size: 7.00 GB",
            "[2025-05-19 01:06:14] Memory pool end. avail mem=5.27 GB",
            "[2025-05-19 01:06:15] Capture cuda graph begin. This can take up to several minutes. avail mem=4.64 GB",
        ),
        parsed={"free_after_gib": 19.67, "weights_gib": 27.57, "tokens": 91749, "k_gib": 7.00, "v_gib": 7.00},
        shape={"layers": 40, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 1},
        check="tokens", mem_fraction_static=0.88,
        fraction_source="not printed in the excerpt: 0.88 is the 0.4.3–0.4.7 default for one GPU of up to "
                        "81,920 MiB; the other values of that table (0.87, 0.85) miss the count by 7 % and 21 %",
        catalogue_id="qwen3-14b",
        notes="T = B + mem usage = 47.24 GiB. The book's Qwen3-14B weights are 27.51 GiB; the log's 27.57 "
              "includes 0.06 GiB the loader keeps.",
    ),
    SGLangLog(
        id="qwen2-14b-tp2-capped",
        url="https://github.com/sgl-project/sglang/issues/4257",
        where="issue description (2025-03-10), '[Bug] Server stuck with tp > 1', the log after 'TP1'/'TP0' start",
        release="not stated (2025-03-10: 0.4.3.post4 or a 0.4.4 build)",
        rules="0.4.3.post2",
        model="a Qwen2-architecture 14B (Qwen2ForCausalLM, 14.00 GB a rank at TP 2: the Qwen2.5-14B shape)",
        gpu="two GPUs with 38.71 GiB free after init (not named; 40 GB cards)", gpus=2, tp=2,
        lines=(
            "[2025-03-10 16:21:21 TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=24.71 GB, "
            "mem usage=14.00 GB.",
            "[2025-03-10 16:21:21 TP0] KV Cache is allocated. #tokens: 10240, K size: 0.47 GB, V size: 0.47 GB",
            "[2025-03-10 16:21:21 TP0] Memory pool end. avail mem=22.59 GB",
        ),
        parsed={"free_after_gib": 24.71, "weights_gib": 14.00, "tokens": 10240, "k_gib": 0.47, "v_gib": 0.47},
        shape={"layers": 48, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 1},
        check="kv-size",
        needs="the launch command: 10,240 is a --max-total-tokens cap (the profiled count at any default "
              "fraction is over 190,000), and the page does not show the flags",
        notes="Checks the K/V sizes of a TP-2 pool (4 KV heads a rank) and that the cap, not the memory, set the count.",
    ),
    SGLangLog(
        id="dsv4-pro-fp8-h200-tp8-refused",
        url="https://github.com/SemiAnalysisAI/InferenceX/issues/2128",
        where="issue description (2026-07-09), 'Actual behavior / logs'",
        release="the lmsysorg/sglang:deepseek-v4-hopper image (2026-07; a build between 0.5.1x releases)",
        rules="0.5.23",
        model="deepseek-ai/DeepSeek-V4-Pro (FP8)", gpu="NVIDIA H200 (8×)", gpus=8, tp=8,
        lines=(
            "Load weight end. quant=fp8, fmt=e4m3, avail mem=12.25 GB, mem usage=125.65 GB.",
            "ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88.",
        ),
        parsed={"free_after_gib": 12.25, "weights_gib": 125.65, "minimum_fraction": 0.9113},
        shape={},
        check="refusal", mem_fraction_static=0.88, fraction_source="--mem-fraction-static 0.88 (launch script)",
        notes="The issue quotes the fraction the refusal names as the smallest that starts: 0.9113 (1 − B/T from "
              "the unrounded figures of the rank with the least memory).",
    ),
    SGLangLog(
        id="gemma3-27b-awq-4090-refused",
        url="https://github.com/sgl-project/sglang/issues/4895",
        where="issue description (2025-03-29), '[Bug] Not enough memory'",
        release="a lmsysorg/sglang:dev build of 2025-03-29 (0.4.4.post3's code: Gemma3ForConditionalGeneration is in "
                "its multimodal list, 0.4.4.post1's has no Gemma 3)",
        rules="0.4.4.post3",
        model="google/gemma-3-27b-it, AWQ int4", gpu="NVIDIA GeForce RTX 4090", gpus=1, tp=1,
        lines=(
            "python3 -m sglang.launch_server --model-path  /llm/model/google/gemma-3-27b-it-int4-awq/ --host 0.0.0.0 "
            "--port 30000 --trust-remote-code --context-length 4096",
            "mem_fraction_static=0.88, max_running_requests=None, max_total_tokens=None, chunked_prefill_size=2048, "
            "max_prefill_tokens=16384, schedule_policy='fcfs', schedule_conservativeness=1.0, cpu_offload_gb=0, "
            "page_size=1, tp_size=1",
            "[2025-03-29 18:18:34 TP0] Load weight end. type=Gemma3ForConditionalGeneration, dtype=torch.bfloat16, "
            "avail mem=3.64 GB, mem usage=18.82 GB.",
        ),
        parsed={"free_after_gib": 3.64, "weights_gib": 18.82, "multimodal": 1},
        shape={},
        check="refusal", mem_fraction_static=0.88,
        fraction_source="server_args prints 0.88 (the default for one GPU); ModelRunner then multiplies it by "
                        "0.95 for a multimodal model (0.4.3–0.4.4)",
        notes="With 0.88 the pool would be 0.94 GiB; the multimodal factor (0.836) takes it to −0.04 GiB, and "
              "the start is refused — the issue's title.",
    ),
    SGLangLog(
        id="llama70b-h200-tp8-v053",
        url="https://github.com/sgl-project/sglang/pull/11716",
        where="pull request description (2025-10-16), the shell log after 'Init torch distributed ends'",
        release="a development branch of 2025-10-16 (between 0.5.3 and 0.5.4)",
        rules="0.5.3",
        model="a Llama-3.x-70B (inferred: 30 safetensors shards, as Llama-3.1/3.3-70B-Instruct ship, and the K size: "
              "80 layers × 1 KV head of 128 a rank)",
        gpu="NVIDIA H200 (8×: 137.3 GiB free after init)", gpus=8, tp=8,
        lines=(
            "[2025-10-16 09:06:09 TP0] Init torch distributed ends. mem usage=1.96 GB",
            "[2025-10-16 09:06:09 TP7] Init torch distributed ends. mem usage=1.77 GB",
            "[2025-10-16 09:06:10 TP0] Load weight begin. avail mem=137.34 GB",
            "[2025-10-16 09:06:10 TP1] Load weight begin. avail mem=137.29 GB",
            "[2025-10-16 09:06:10 TP7] Load weight begin. avail mem=137.52 GB",
            "[2025-10-16 09:06:22 TP1] KV Cache is allocated. #tokens: 2795207, K size: 53.31 GB, V size: 53.31 GB",
            "[2025-10-16 09:06:22 TP1] Memory pool end. avail mem=11.87 GB",
        ),
        parsed={"free_at_start_gib": 137.29, "tokens": 2795207, "k_gib": 53.31, "v_gib": 53.31, "gpu_mem_mib": 143771},
        shape={"layers": 80, "kv_heads": 8, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 1},
        check="weights", catalogue_id="llama-3.1-70b",
        fraction_source="not printed: the 0.5.3 default for an H200 (143,771 MiB) at TP 8 — chunked prefill 8,192 "
                        "and a CUDA-graph batch of 512 (the log's capture list ends at 512) — 0.897",
        notes="T is the smallest 'Load weight begin' of the eight ranks (SGLang takes the minimum); B is not "
              "printed in the excerpt, so the weights are the book's Llama-3.1-70B bf16 count a rank.",
    ),
    SGLangLog(
        id="qwen3-235b-fp8-h100-tp4",
        url="https://github.com/vllm-project/vllm/issues/21348",
        where="issue description (2025-07-22), 'For SGLang is saw this'",
        release="not stated (July 2025: 0.4.9.x)",
        rules="0.4.9.post2",
        model="Qwen/Qwen3-235B-A22B-FP8", gpu="NVIDIA H100 (4×)", gpus=4, tp=4,
        lines=(
            "python3 -m sglang.launch_server --model /path/to/Qwen3-235B-A22B-FP8 --tp 4 --trust-remote-code "
            "--host 0.0.0.0 --port 8000 --mem-fraction-static 0.93",
            "KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB",
        ),
        parsed={"tokens": 367404, "k_gib": 8.23, "v_gib": 8.23},
        shape={"layers": 94, "kv_heads": 4, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 1},
        check="weights", mem_fraction_static=0.93, fraction_source="--mem-fraction-static 0.93",
        catalogue_id="qwen3-235b-a22b-fp8",
        needs="the free memory after CUDA init (T): not printed; the check takes the H100's 79.19 GiB less the "
              "2.0 GiB the H200 TP-8 log shows for NCCL and the custom all-reduce (engines.sglang.CONTEXT_GIB)",
        notes="The same user's vLLM start on the same GPUs held 178,880 tokens: SGLang's budget keeps only "
              "T × (1 − 0.93) = 5.4 GiB out of the pool and measures no activation peak.",
    ),
    SGLangLog(
        id="qwen3-omni-30b-tp4",
        url="https://github.com/sgl-project/sglang/pull/15909",
        where="pull request conversation (2025-12-28, ilgorm), the startup log of Qwen3-Omni-30B-A3B-Instruct",
        release="a development branch of 2025-12-28 (after 0.5.6)",
        rules="0.5.6",
        model="Qwen/Qwen3-Omni-30B-A3B-Instruct (thinker: 48 layers, 4 KV heads of 128)",
        gpu="not named (4 GPUs)", gpus=4, tp=4,
        lines=(
            "[2025-12-28 10:40:09 TP2] KV Cache is allocated. #tokens: 2090351, K size: 23.92 GB, V size: 23.92 GB",
            "[2025-12-28 10:40:09 TP2] Memory pool end. avail mem=12.45 GB",
        ),
        parsed={"tokens": 2090351, "k_gib": 23.92, "v_gib": 23.92},
        shape={"layers": 48, "kv_heads": 4, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 1},
        check="kv-size",
        needs="the free-memory lines (T, B) and the GPU: not in the quoted part of the page",
        notes="4 KV heads over TP 4: one head a rank.",
    ),
    SGLangLog(
        id="dsv3-dp-attention-pd-decode",
        url="https://github.com/sgl-project/sglang/issues/6017",
        where="issue 'Instruction for Running DeepSeek with Large-scale PD and EP', comment by zhangying029 "
              "(log of 2025-05-09 15:00)",
        release="not stated (2025-05-09: a 0.4.6.postN build; DP attention ranks print 'DPi TPi')",
        rules="0.4.6.post1",
        model="DeepSeek-V3 (DeepseekV3ForCausalLM: 61 layers, MLA latent 512 + rope 64)",
        gpu="not named (T = B + mem usage = 137.55 GiB on rank 0: a 141 GB H200 or H20); ranks DP0–DP7 shown",
        gpus=8, tp=8, dp=8, dp_attention=True,
        lines=(
            "[2025-05-09 15:00:16 DP0 TP0] Load weight end. type=DeepseekV3ForCausalLM, dtype=torch.bfloat16, "
            "avail mem=31.96 GB, mem usage=105.59 GB.",
            "[2025-05-09 15:00:16 DP1 TP1] KV Cache is allocated. #tokens: 161488, KV size: 10.57 GB",
            "[2025-05-09 15:00:16 DP1 TP1] Memory pool end. avail mem=21.23 GB",
        ),
        parsed={"free_after_gib": 31.96, "weights_gib": 105.59, "tokens": 161488, "kv_gib": 10.57},
        shape={"layers": 61, "kv_heads": 1, "head_dim": 576, "kv_dtype_bytes": 2, "page_size": 1, "mla_dim": 576},
        check="kv-size",
        needs="the launch command: the page shows neither --mem-fraction-static nor the other flags of this run "
              "(DeepEP, redundant experts), and B is the minimum over ranks (DP2 and DP3 print 31.87 GB)",
        notes="DP attention with rank labels DPi TPi: dp rank = tp rank // attention TP, so attention TP is 1 and "
              "every rank holds the whole MLA latent: (161,488 + 1) × 576 × 61 × 2 bytes = 10.57 GiB, the printed "
              "KV size. The count implies mem_fraction_static 0.845 (B − T(1 − f) = 10.57 GiB with B 31.87–31.96, "
              "T = B + 105.59), not an automatic value of 0.4.6 (0.907 above 81,920 MiB): a launch flag.",
    ),
    SGLangLog(
        id="qwen3-vl-moe-npu-dp2",
        url="https://github.com/sgl-project/sglang/pull/17157",
        where="pull request description (2026-01-15), the log with --enable-dp-attention",
        release="a development branch of 2026-01-15 (after 0.5.6)",
        rules="0.5.6",
        model="a Qwen3-VL-30B-A3B (Qwen3VLMoeForConditionalGeneration: 48 layers, 4 KV heads of 128)",
        gpu="Ascend NPU (the log captures 'npu graph'), 2 devices", gpus=2, tp=2, dp=2, dp_attention=True,
        lines=(
            "[2026-01-15 13:56:49 DP0 TP0] Load weight end. type=Qwen3VLMoeForConditionalGeneration, "
            "dtype=torch.bfloat16, avail mem=29.86 GB, mem usage=30.67 GB.",
            "[2026-01-15 13:56:49 DP0 TP0] Using KV cache dtype: torch.bfloat16",
            "[2026-01-15 13:56:49 DP0 TP0] The available memory for KV cache is 17.67 GB.",
            "[2026-01-15 13:56:49 DP0 TP0] KV Cache is allocated. #tokens: 192896, K size: 8.84 GB, V size: 8.84 GB",
            "[2026-01-15 13:56:49 DP0 TP0] Memory pool end. avail mem=11.85 GB",
        ),
        parsed={"free_after_gib": 29.86, "weights_gib": 30.67, "available_kv_gib": 17.67, "tokens": 192896,
                "k_gib": 8.84, "v_gib": 8.84},
        shape={"layers": 48, "kv_heads": 4, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 128},
        check="budget",
        fraction_source="not printed in the excerpt; the budget line gives B − T(1 − f) directly",
        notes="DP attention with dp = tp = 2: each rank is its own attention group (attention TP 1) and holds all "
              "4 KV heads. The Ascend backend pages by 128 tokens (server_args.py sets page_size 128 for it).",
    ),
    SGLangLog(
        id="qwen3.5-moe-kt-2x4090",
        url="https://github.com/kvcache-ai/ktransformers/issues/1870",
        where="issue description (2026-02-27), 'qwen3.5 4090 functional_call'",
        release="SGLang with kt-kernel (ktransformers' CPU experts), February 2026",
        rules="0.5.6",
        model="a Qwen3.5 MoE (Qwen3_5MoeForConditionalGeneration; experts on the CPU: 3.76 GB of weights a GPU)",
        gpu="NVIDIA GeForce RTX 4090 (2×)", gpus=2, tp=2,
        lines=(
            "[2026-02-27 17:10:27 TP0] Load weight end. elapsed=653.47 s, type=Qwen3_5MoeForConditionalGeneration, "
            "dtype=torch.bfloat16, avail mem=19.08 GB, mem usage=3.76 GB.",
            "[2026-02-27 17:10:28 TP0] Mamba Cache is allocated. max_mamba_cache_size: 82, conv_state size: 0.13GB, "
            "ssm_state size: 7.29GB ",
            "[2026-02-27 17:10:28 TP0] KV Cache is allocated. #tokens: 580364, K size: 4.15 GB, V size: 4.15 GB",
            "[2026-02-27 17:10:29 TP0] max_total_num_tokens=580364, chunked_prefill_size=2048, max_prefill_tokens=16384, "
            "max_running_requests=1, context_len=8192, available_gpu_mem=3.63 GB",
        ),
        parsed={"free_after_gib": 19.08, "weights_gib": 3.76, "state_gib": 7.42, "tokens": 580364, "k_gib": 4.15,
                "v_gib": 4.15},
        shape={"layers": 15, "kv_heads": 2, "head_dim": 256, "kv_dtype_bytes": 2, "page_size": 1},
        check="kv-size",
        needs="the model's config (the page names only the architecture: the shape is what the K size implies, "
              "15 full-attention layers of 2 KV heads of 256) and the launch's --mem-fraction-static",
        notes="A hybrid: only the full-attention layers are in the cell; the Gated DeltaNet state (7.42 GiB) is "
              "a pool of its own, taken off the budget first.",
    ),
    SGLangLog(
        id="qwen3-30b-a3b-kt-3090",
        url="https://github.com/kvcache-ai/ktransformers/issues/1971",
        where="issue description (2026-05-02), '[Bug] Qwen3-30B-A3B + LLAMAFILE backend outputs garbage'",
        release="an SGLang main build of May 2026 with kt-kernel (ktransformers' CPU experts)",
        rules="0.5.23",
        model="Qwen/Qwen3-30B-A3B (experts on the CPU: 2.91 GB of weights on the GPU)",
        gpu="NVIDIA GeForce RTX 3090 (the MoE kernel config the log looks for names it)", gpus=1, tp=1,
        lines=(
            "[2026-05-02 23:01:20] Load weight end. type=Qwen3MoeForCausalLM, dtype=torch.bfloat16, avail mem=17.29 GB, "
            "mem usage=2.91 GB.",
            "[2026-05-02 23:01:20] Using KV cache dtype: torch.bfloat16",
            "[2026-05-02 23:01:20] KV Cache is allocated. #tokens: 122420, K size: 5.60 GB, V size: 5.60 GB",
            "[2026-05-02 23:01:20] Memory pool end. avail mem=5.97 GB",
        ),
        parsed={"free_after_gib": 17.29, "weights_gib": 2.91, "tokens": 122420, "k_gib": 5.60, "v_gib": 5.60},
        shape={"layers": 48, "kv_heads": 4, "head_dim": 128, "kv_dtype_bytes": 2, "page_size": 1},
        check="kv-size", catalogue_id="qwen3-30b-a3b",
        needs="the launch's --mem-fraction-static (not on the page; kt-kernel launches set their own): with T and "
              "B printed, the count fixes it at about 0.70, which is no default of any release",
    ),
    SGLangLog(
        id="qwen-27b-nvfp4-2x5090-fp8kv",
        url="https://github.com/noonghunna/club-3090/issues/1261",
        where="issue conversation (2026-09-12, paulp83), '[bench] 2x 5090 sglang - NVFP4 test'",
        release="not stated (September 2026)",
        rules="0.5.23",
        model="the repository's Qwen 27B hybrid in NVFP4 (64 layers, full attention every 4th: 16 layers of 4 KV "
              "heads of 256, as the repository's pages give it)",
        gpu="NVIDIA GeForce RTX 5090 (2×)", gpus=2, tp=2,
        lines=(
            "[2026-09-12 00:22:48 TP0] KV Cache is allocated. dtype: torch.float8_e4m3fn, #tokens: 454112, "
            "K size: 3.46 GB, V size: 3.46 GB",
            "[2026-09-12 00:22:48 TP0] Memory pool end. avail mem=8.40 GB",
        ),
        parsed={"tokens": 454112, "k_gib": 3.46, "v_gib": 3.46},
        shape={"layers": 16, "kv_heads": 4, "head_dim": 256, "kv_dtype_bytes": 1, "page_size": 1},
        check="kv-size",
        needs="the free-memory lines and --mem-fraction-static: not in the quoted part of the page",
        notes="fp8_e4m3 KV: one byte a value and no per-token scale. A second pool of the same token count "
              "(K size 1.08 GB) is the speculative draft's and is not checked.",
    ),
    # A hybrid SWA pool: the model (MiMo-V2-Flash: per-layer geometry, K and V heads of different widths)
    # is not one the calculators size, so only the split and the SWA pool's sizes are checked.
    SGLangLog(
        id="mimo-v2-flash-tp4-swa-split",
        url="https://github.com/sgl-project/sglang/pull/18039",
        where="pull request description (2026-01-31), 'Fix swa kv cache memory allocation', the 'main branch:' log",
        release="the main branch of 2026-01-31 (between 0.5.6 and 0.5.23)",
        rules="0.5.23",
        model="XiaomiMiMo/MiMo-V2-Flash (39 sliding-window layers of 8 KV heads, K 192 and V 128 wide; 9 full layers)",
        gpu="four GPUs (not named)", gpus=4, tp=4,
        lines=(
            "python3 -m sglang.launch_server --model-path XiaomiMiMo/MiMo-V2-Flash --tp-size 4 --trust-remote-code "
            "--mem-fraction-static 0.7 --model-loader-extra-config '{\"enable_multithread_load\": \"true\","
            "\"num_threads\": 64}' --page-size 64",
            "[2026-01-31 13:50:39 TP0] Use sliding window memory pool. full_layer_tokens=375360, "
            "swa_layer_tokens=300288",
            "[2026-01-31 13:50:39 TP1] KV Cache is allocated. #tokens: 300288, K size: 8.38 GB, V size: 5.59 GB",
        ),
        parsed={"full_tokens": 375360, "swa_tokens": 300288, "swa_k_gib": 8.38, "swa_v_gib": 5.59},
        shape={"swa_layers": 39, "swa_kv_heads": 8, "k_head_dim": 192, "v_head_dim": 128, "kv_dtype_bytes": 2,
               "page_size": 64, "swa_full_tokens_ratio": 0.8},
        check="swa-split", mem_fraction_static=0.7, fraction_source="--mem-fraction-static 0.7 (launch command)",
        notes="The SWA shape is the published config's (swa_num_key_value_heads 8, head_dim 192, v_head_dim 128, "
              "39 of 48 layers sliding), 2 KV heads a rank at TP 4. No --swa-full-tokens-ratio: 0.8. The pull "
              "request's subject is the full pool's count (its cell counted the SWA layers twice, so T and B would "
              "not rebuild it); the split checked here, SWA = 0.8 × full rounded to a page, is 0.5.23's "
              "(pool_configurator.py _solve_pool_sizes) and, unrounded, 0.5.6's.",
    ),
)

BY_ID = {log.id: log for log in LOGS}
if len(BY_ID) != len(LOGS):
    raise RuntimeError("duplicate SGLang log id")


@dataclass(frozen=True)
class DefaultFraction:
    """A ``mem_fraction_static`` that SGLang printed in ``server_args`` for a launch that did not set it."""

    url: str
    release: str
    gpu_mem_mib: int
    tp: int
    printed: float
    line: str  # quoted exactly
    notes: str = ""


DEFAULT_FRACTIONS: tuple[DefaultFraction, ...] = (
    DefaultFraction(
        url="https://github.com/sgl-project/sglang/pull/4848",
        release="0.4.4.post3", gpu_mem_mib=0, tp=1, printed=0.88,
        line="mem_fraction_static=0.88, max_running_requests=None, max_total_tokens=None, chunked_prefill_size=8192",
        notes="yangky11's comment (2025-04-03; release not printed, a 0.4.4 build): 'python3 -m "
              "sglang.launch_server --model-path "
              "meta-llama/Llama-3.1-8B-Instruct', no flags. GPU not named; the 0.4.3–0.4.7 table gives 0.88 to "
              "any one GPU up to 81,920 MiB, and chunked_prefill_size 8192 says it has 25,000 MiB or more.",
    ),
    DefaultFraction(
        url="https://github.com/sgl-project/sglang/issues/4895",
        release="0.4.4.post3", gpu_mem_mib=24564, tp=1, printed=0.88,
        line="mem_fraction_static=0.88, max_running_requests=None, max_total_tokens=None, chunked_prefill_size=2048",
        notes="RTX 4090, no --mem-fraction-static; chunked_prefill_size 2048 is the below-25,000-MiB default.",
    ),
    DefaultFraction(
        url="https://github.com/sgl-project/sglang/pull/13023",
        release="0.5.3", gpu_mem_mib=46068, tp=1, printed=0.851,  # rules read: the run was a November 2025 build
        line="quantize_and_serve=False, mem_fraction_static=0.851, max_running_requests=None",
        notes="keyboardAnt's description (2025-11-11): 'python -m sglang.bench_offline_throughput --model-path "
              "meta-llama/Meta-Llama-3.1-8B-Instruct --num-prompts 200 …', no memory flags; the same server_args "
              "print 'cuda_graph_max_bs=32, cuda_graph_bs=[1, 2, 4, 8, 12, 16, 24, 32]', the 35–60 GiB class's "
              "batch at TP 1. The GPU is the description's nvidia-smi: 'NVIDIA L40S … 1MiB /  46068MiB'; 0.851 is the "
              "0.5.3 rule for it (512 + 1.5 × 4,096 + 2 × 32 + 128 MiB kept).",
    ),
    DefaultFraction(
        url="https://github.com/LMCache/LMCache/issues/2400",
        release="0.5.6", gpu_mem_mib=81559, tp=1, printed=0.835,  # rules read: the launch was a later build
        line="mem_fraction_static=0.835, max_running_requests=None, max_queued_requests=None, max_total_tokens=None, "
             "chunked_prefill_size=8192",
        notes="sammshen's comment (2026-01-14): 'python -m sglang.launch_server --model-path Qwen/Qwen3-14B --host "
              "0.0.0.0 --port 30000 --enable-lmcache', no memory flags; release not printed (January 2026, after "
              "0.5.6). The GPU is not named: 0.835 is what the 0.5.3–0.5.6 rule gives an H100 80GB "
              "(81,559 MiB: 512 + 1.5 × 8,192 + 2 × 256 + 128 MiB kept), and no other GPU of NVIDIA_SMI_MIB.",
    ),
)
