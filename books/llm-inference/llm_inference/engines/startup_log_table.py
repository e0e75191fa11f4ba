"""The evidence table: public vLLM startup logs, each quoted as published, with what the kv-cache
calculator needs to rebuild it and what it still lacks.

Each :class:`Log` gives the page (``url``) and where on it the lines are, the vLLM release (as
printed, or inferred and said how), the model as published and the catalogue id it maps to, the
GPU and its ``hardware`` id, the layout, the engine settings the log shows, the formats, and the
four figures vLLM prints — "Model loading took", "Available KV cache memory", "GPU KV cache size",
"Maximum concurrency" — or the error of a start that failed, quoted exactly in ``lines``.
A figure the page does not show is ``None``; nothing is filled in from elsewhere.

``needs`` names what the calculator lacks to rebuild a log: a model or a weight format that the
other branches of issue #18 add ("r18-weights: …", "r18-attention: …"), a GPU or a setting the
published excerpt does not give ("excerpt: …"). A log with no needs is rebuilt by the tests
(tests/unit/llm_inference/engines/test_startup_log_table.py) on all its figures; the others are
tested too, and marked as expected to fail for the reason named, so that a merge that supplies
the missing piece shows up as a pass.

These are not the logs of :mod:`.startup_logs` (none is repeated here). The Accuracy page is made
from this table at build time (the book's ``accuracy`` fence).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Log", "LOGS", "BY_ID", "FITS", "TOO_LITTLE_KV", "NO_BLOCKS"]

#: The verdicts: vLLM started; it refused because not one request of max_model_len fits the KV
#: memory ("To serve at least one request with the model's max seq len ..."); or no memory was
#: left for a single block.
FITS, TOO_LITTLE_KV, NO_BLOCKS = "fits", "too little KV for max_model_len", "fails to start"


@dataclass(frozen=True)
class Log:
    id: str
    url: str
    where: str
    vllm_version: str  # as printed or inferred (then how)
    release: str  # the release whose rules the calculator applies (vllm_releases)
    model: str  # as published
    model_id: str | None  # the catalogue id, or None when the catalogue lacks it
    gpu: str  # as the page names it
    gpu_id: str | None  # the hardware.GPUS id, or None
    lines: tuple[str, ...]  # quoted exactly
    verdict: str
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    data_parallel: int = 1
    utilization: float | None = None  # None: the release's default
    max_model_len: int | None = None
    max_num_batched_tokens: int | None = None
    max_num_seqs: int | None = None
    weights: str = "bf16"  # the checkpoint's format as shipped
    kv_dtype: str = "auto"
    loading_gib: float | None = None
    available_gib: float | None = None
    kv_tokens: int | None = None
    concurrency: float | None = None
    error: str = ""
    install: str = "pip"
    enforce_eager: bool = False
    needs: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()  # "quantized", "hybrid", "failed", "new-gpu", "pre-0.20"
    notes: str = ""
    extra: dict = field(default_factory=dict)


_R18W = "r18-weights"
_R18A = "r18-attention"

LOGS: tuple[Log, ...] = (
    Log("minimax-m27-awq-2xgb10-fails", "https://github.com/eugr/spark-vllm-docker/issues/396",
        "issue description, 2026-09-14", "0.29.1rc1.dev17+gd2d649e67 (printed)", "0.29.1",
        "MiniMax-M2.7 AWQ (recipes/minimax-m2.7-awq.yaml)", None, "2x DGX Spark (GB10)", "gb10",
        ("Available KV cache memory: 22.5 GiB",
         "ValueError: To serve at least one request with the model's max seq len (196608),",
         "23.25 GiB KV cache is needed, which is larger than the available KV cache memory (22.5 GiB)."),
        TOO_LITTLE_KV, tensor_parallel=2, utilization=0.8, max_model_len=196608, weights="awq-int4",
        available_gib=22.5, error="23.25 GiB KV cache is needed, which is larger than the available KV cache "
                                  "memory (22.5 GiB)",
        needs=(f"{_R18A}: MiniMax-M2 (M2.7's shape) in the catalogue", f"{_R18W}: AWQ int4 weights"),
        kinds=("quantized", "failed", "new-gpu")),
    Log("minimax-m27-awq-2xgb10-085", "https://github.com/eugr/spark-vllm-docker/issues/396",
        "same description: '--gpu-memory-utilization 0.85 fixes it'", "0.29.1rc1.dev17+gd2d649e67 (printed)",
        "0.29.1", "MiniMax-M2.7 AWQ", None, "2x DGX Spark (GB10)", "gb10",
        ("--gpu-memory-utilization 0.85 fixes it: 28.74 GiB KV → 240,816 tokens, 1.22× concurrency at 196,608.",),
        FITS, tensor_parallel=2, utilization=0.85, max_model_len=196608, weights="awq-int4",
        available_gib=28.74, kv_tokens=240816, concurrency=1.22,
        needs=(f"{_R18A}: MiniMax-M2 in the catalogue", f"{_R18W}: AWQ int4 weights"),
        kinds=("quantized", "new-gpu"), notes="The author's summary of the engine's lines, not the lines."),
    Log("gpt-oss-120b-h100-fails", "https://github.com/vllm-project/vllm/issues/27508",
        "comment by matheusfvesco (turn 2), the traceback", "not printed (late 2025: kv_cache_utils.py "
        "l.1243 get_kv_cache_configs, l.716 check_enough_kv_cache_memory, the 'models's' spelling)", "0.11.0",
        "openai/gpt-oss-120b", "gpt-oss-120b", "NVIDIA H100", "h100-sxm",
        ("ValueError: To serve at least one request with the models's max seq len (131072), (4.54 GiB KV cache "
         "is needed, which is larger than the available KV cache memory (1.71 GiB).",),
        TOO_LITTLE_KV, max_model_len=131072, weights="mxfp4", available_gib=1.71,
        error="4.54 GiB KV cache is needed, which is larger than the available KV cache memory (1.71 GiB)",
        needs=(f"{_R18W}: gpt-oss's MXFP4 experts with bf16 attention",),
        kinds=("quantized", "failed", "pre-0.20")),
    Log("gpt-oss-20b-a100-v019", "https://myoceane.fr/index.php/ai-vllm-a100-gemma-4/",
        "section 'GPT-OSS-20B', the system messages", "0.19.0 (printed: 'version 0.19.0')", "0.19.0",
        "openai/gpt-oss-20b", "gpt-oss-20b", "NVIDIA A100", "a100-80g",
        ("Model loading took 13.72 GiB memory and 62.336108 seconds",
         "Available KV cache memory: 36.56 GiB"),
        FITS, utilization=0.65, max_model_len=131072, weights="mxfp4", loading_gib=13.72, available_gib=36.56,
        needs=(f"{_R18W}: gpt-oss's MXFP4 experts with bf16 attention",),
        kinds=("quantized", "pre-0.20"),
        notes="The page does not say 40 or 80 GB; 13.72 + 36.56 GiB at 0.65 only fits the 80 GB card."),
    Log("gpt-oss-120b-kaggle-v0112", "https://blog.huikang.dev/2025/12/28/vllm-logs.html",
        "the annotated startup log", "0.11.2 (printed: 'vLLM API server version 0.11.2')", "0.11.2",
        "openai/gpt-oss-120b", "gpt-oss-120b", "one GPU of a Kaggle notebook (not named in the excerpt)", None,
        ("INFO 11-28 11:45:51 [scheduler.py:216] Chunked prefill is enabled with max_num_batched_tokens=2048.",
         "(APIServer pid=90) INFO 11-28 11:45:51 [utils.py:253] non-default args: {'host': '0.0.0.0', 'model': "
         "'/kaggle/input/gpt-oss-120b/transformers/default/1', 'max_model_len': 98304, 'served_model_name': "
         "['vllm-model'], 'gpu_memory_utilization': 0.96, 'max_num_seqs': 6}"),
        FITS, utilization=0.96, max_model_len=98304, max_num_batched_tokens=2048, max_num_seqs=6, weights="mxfp4",
        needs=(f"{_R18W}: MXFP4 weights", "excerpt: the GPU and the four figures are further down the page"),
        kinds=("quantized", "pre-0.20")),
    Log("qwen3-next-kv-fp8", "https://github.com/vllm-project/vllm/issues/26646",
        "issue description (2025-10-11), the engine's lines", "not printed (2025-10-11, kv_cache_utils.py "
        "l.1199/1204: 0.11.x)", "0.11.0", "Qwen3-Next (the issue's launch command)", None, "not named", None,
        ("(EngineCore_DP0 pid=1007431) INFO 10-11 16:19:14 [kv_cache_utils.py:1199] GPU KV cache size: 90,048 tokens",
         "(EngineCore_DP0 pid=1007431) INFO 10-11 16:19:14 [kv_cache_utils.py:1204] Maximum concurrency for "
         "215,040 tokens per request: 1.66x"),
        FITS, max_model_len=215040, kv_tokens=90048, concurrency=1.66,
        needs=(f"{_R18A}: Qwen3-Next's Gated DeltaNet state and the hybrid allocator",
               "excerpt: the GPU and the weight format"),
        kinds=("hybrid", "pre-0.20")),
    Log("qwen3-v085-8k", "https://github.com/vllm-project/vllm/issues/17327",
        "comment by cpwan (turn 23), docker compose service 'qwen3'", "0.8.5 (inferred: 'kv_cache_utils.py:634' "
        "and ':637' are the lines of 'GPU KV cache size' and 'Maximum concurrency' in 0.8.5)", "0.8.5",
        "Qwen3 (size not shown in the excerpt)", None, "not named (two or more workers)", None,
        ("qwen3-1  | INFO 04-29 01:09:49 [kv_cache_utils.py:634] GPU KV cache size: 198,784 tokens",
         "qwen3-1  | INFO 04-29 01:09:49 [kv_cache_utils.py:637] Maximum concurrency for 8,192 tokens per "
         "request: 24.27x"),
        FITS, max_model_len=8192, kv_tokens=198784, concurrency=24.27,
        needs=("excerpt: the Qwen3 size, the GPU and the TP size are not in the quoted lines",),
        kinds=("pre-0.20",), notes="198,784 ÷ 16 = 12,424 blocks; 12,424 ÷ 512 blocks per 8K request = 24.27."),
    Log("kv-fp8-100k-v0102", "https://github.com/vllm-project/vllm/issues/25350",
        "issue description (2025-09-21), 'with kv-cache-dtype fp8 and --max-model-len 100000'",
        "0.10.2 (inferred: 'kv_cache_utils.py:868' is the concurrency line of 0.10.2)", "0.10.2",
        "not named in the excerpt ('Model loading took 29.09' in the next comment)", None, "not named", None,
        ("Available KV cache memory: 10.55 GiB", "GPU KV cache size: 230,528 tokens",
         "[kv_cache_utils.py:868] Maximum concurrency for 100,000 tokens per request: 2.31x"),
        FITS, max_model_len=100000, kv_dtype="fp8", available_gib=10.55, kv_tokens=230528, concurrency=2.31,
        needs=("excerpt: the model and the GPU",), kinds=("pre-0.20",),
        notes="10.55 GiB ÷ 230,528 tokens = 49,140 bytes per token in fp8: 48 layers × 4 KV heads × 128 × 2."),
    Log("kv-fp8-221k-v0102-fails", "https://github.com/vllm-project/vllm/issues/25350",
        "same description, 'with kv-cache-dtype fp8 and --max-model-len 221000'", "0.10.2 (as above)", "0.10.2",
        "as above", None, "not named", None,
        ("ValueError: To serve at least one request with the models's max seq len (221000), (10.12 GiB KV cache "
         "is needed, which is larger than the available KV cache memory (5.59 GiB). Based on the available "
         "memory, the estimated maximum model length is 122080.",),
        TOO_LITTLE_KV, max_model_len=221000, kv_dtype="fp8", available_gib=5.59,
        error="10.12 GiB KV cache is needed, which is larger than the available KV cache memory (5.59 GiB)",
        needs=("excerpt: the model and the GPU",), kinds=("failed", "pre-0.20"),
        notes="The longer max_model_len cut the available memory from 10.55 to 5.59 GiB: vLLM 0.10.2 "
              "profiled a larger batch (the sampler and forward peak grow with max_model_len when "
              "chunked prefill leaves max_num_batched_tokens at max_model_len)."),
    Log("qwen36-35b-nvfp4-5090-652", "https://github.com/noonghunna/club-3090/issues/652",
        "issue description, the engine's lines", "0.24.0 (printed: 'Initializing a V1 LLM engine (v0.24.0)')",
        "0.24.0", "qwen3.6-35b-a3b-nvfp4 (modelopt)", None, "NVIDIA GeForce RTX 5090", "rtx-5090",
        ("(EngineCore pid=107) INFO 07-09 02:58:11 [gpu_worker.py:508] Available KV cache memory: 6.01 GiB",
         "(EngineCore pid=107) INFO 07-09 02:58:11 [kv_cache_utils.py:2146] GPU KV cache size: 569,878 tokens",
         "(EngineCore pid=107) INFO 07-09 02:58:11 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 "
         "tokens per request: 4.35x"),
        FITS, max_model_len=131072, max_num_batched_tokens=8192, max_num_seqs=1, weights="nvfp4", kv_dtype="fp8",
        available_gib=6.01, kv_tokens=569878, concurrency=4.35,
        needs=(f"{_R18A}: a Qwen3.6 hybrid (Gated DeltaNet) model", f"{_R18W}: NVFP4 (modelopt) weights"),
        kinds=("quantized", "hybrid", "new-gpu")),
    Log("qwen36-35b-nvfp4-5090-612", "https://github.com/noonghunna/club-3090/issues/612",
        "issue description, the engine's lines", "0.24.0 (printed)", "0.24.0",
        "qwen3.6-35b-a3b-nvfp4 (modelopt)", None, "NVIDIA GeForce RTX 5090", "rtx-5090",
        ("(EngineCore pid=107) INFO 07-06 22:52:09 [gpu_worker.py:508] Available KV cache memory: 5.98 GiB",
         "(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2146] GPU KV cache size: 567,978 tokens",
         "(EngineCore pid=107) INFO 07-06 22:52:09 [kv_cache_utils.py:2147] Maximum concurrency for 131,072 "
         "tokens per request: 4.33x"),
        FITS, max_model_len=131072, max_num_batched_tokens=8192, max_num_seqs=1, weights="nvfp4", kv_dtype="fp8",
        available_gib=5.98, kv_tokens=567978, concurrency=4.33,
        needs=(f"{_R18A}: a Qwen3.6 hybrid model", f"{_R18W}: NVFP4 (modelopt) weights"),
        kinds=("quantized", "hybrid", "new-gpu")),
    Log("awq-sm89-48gb-57047", "https://github.com/vllm-project/vllm/pull/57047",
        "comment by ShengleiFu (turn 2), the server log", "not printed (2026-09: gpu_worker.py:876's "
        "'consumed memory' wording, 0.27 on)", "0.30.0", "an AWQ checkpoint (not named in the excerpt)", None,
        "an SM89 GPU with 47.37 GiB (RTX 6000 Ada or L40 with ECC off)", None,
        ("(EngineCore pid=23853) INFO 09-16 13:51:44 [kv_cache_utils.py:2324] GPU KV cache size: 268,560 tokens, "
         "Maximum concurrency for 2,048 tokens per request: 131.13x",
         "(EngineCore pid=23853) INFO 09-16 13:51:51 [gpu_worker.py:876] Free memory on device (46.99/47.37 GiB) "
         "on startup. Desired GPU memory utilization is (0.85, 40.27 GiB). Actual usage is 2.81 GiB for consumed "
         "memory (weights + non-torch), 0.57 GiB for peak activation, and 0.22 GiB for CUDAGraph memory."),
        FITS, utilization=0.85, max_model_len=2048, weights="awq-int4", kv_tokens=268560, concurrency=131.13,
        available_gib=40.27 - 2.81 - 0.57,
        needs=(f"{_R18W}: AWQ int4 weights", "excerpt: the model and which 48 GB SM89 card"),
        kinds=("quantized",),
        notes="Available KV memory not printed in the excerpt: 40.27 − 2.81 − 0.57 = 36.89 GiB from the "
              "budget line (the log's 'kv cache memory in use' is 36.88 GiB)."),
    Log("kimi-linear-awq-2x3090", "https://github.com/vllm-project/vllm/issues/28228",
        "issue description, launch command and 'only be 2.30GiB for KV cache'", "not printed (2025-11, V1)",
        "0.11.0", "cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit", None, "2x RTX 3090", "rtx-3090",
        ("Why would there only be 2.30GiB for KV cache while GPU NVRAM has 19GiB per card used with the rest "
         "free ? Is it per card since it's ` --tensor_parallel 2` ?",),
        FITS, tensor_parallel=2, utilization=0.95, max_model_len=120000, max_num_batched_tokens=64000,
        max_num_seqs=8, weights="awq-int4", available_gib=2.30,
        needs=(f"{_R18A}: Kimi-Linear (KDA linear attention + MLA)", f"{_R18W}: AWQ int4 weights"),
        kinds=("quantized", "hybrid", "pre-0.20")),
    Log("gemma4-31b-awq-a100-v020", "https://github.com/vllm-project/vllm/issues/43308",
        "issue description (2026-05-21), the comparison table", "0.20.0 (stated)", "0.20.0",
        "cyankiwi/gemma-4-31B-it-AWQ-4bit", None, "A100 80GB", "a100-80g",
        ("| **v0.20.0** | ~55k tokens | High |",
         "Total available KV cache memory remained constant (~50 GB), indicating the efficiency gain is per token."),
        FITS, utilization=0.9, weights="awq-int4", kv_tokens=55000,
        needs=(f"{_R18A}: Gemma 4 (sliding + shared-KV layers)", f"{_R18W}: AWQ int4 weights",
               "excerpt: max_model_len; the figures are rounded ('~55k')"),
        kinds=("quantized", "hybrid")),
    Log("gemma4-31b-awq-a100-v021", "https://github.com/vllm-project/vllm/issues/43308",
        "same table", "0.21.0 (stated)", "0.21.0", "cyankiwi/gemma-4-31B-it-AWQ-4bit", None, "A100 80GB",
        "a100-80g", ("| **v0.21.0** | ~525k tokens | Low (~9.5x reduction) |",),
        FITS, utilization=0.9, weights="awq-int4", kv_tokens=525000,
        needs=(f"{_R18A}: Gemma 4", f"{_R18W}: AWQ int4 weights", "excerpt: max_model_len; rounded figures"),
        kinds=("quantized", "hybrid"),
        notes="The same ~50 GB reported as ten times the tokens: 0.21.0's 'GPU KV cache size' is concurrency "
              "× max_model_len, which counts a windowed layer's blocks once per window, not per token."),
    Log("qwen38-27b-fp8-2x3090", "https://github.com/mitchross/talos-argocd-proxmox/pull/1995",
        "PR description (2026-08-16), 'The live boot log'", "not printed (2026-08)", "0.30.0",
        "Qwen3.8-27B-FP8", None, "2x RTX 3090", "rtx-3090",
        ("GPU KV cache size: 302,921 tokens", "Maximum concurrency for 131,072 tokens per request: 2.31x"),
        FITS, tensor_parallel=2, utilization=0.92, max_model_len=131072, max_num_batched_tokens=8192,
        max_num_seqs=2, weights="fp8", kv_dtype="fp8", kv_tokens=302921, concurrency=2.31,
        needs=(f"{_R18A}: Qwen3.8 (Gated DeltaNet, full attention every 4th layer)", f"{_R18W}: fp8 weights "
               "(Marlin weight-only on Ampere)"),
        kinds=("quantized", "hybrid")),
    Log("qwen38-27b-2x3090-dflash", "https://github.com/syv-ai/qwen38-27b-rtx3090/issues/7",
        "issue description (2026-08-19)", "not printed (kv_cache_utils.py:2284)", "0.30.0",
        "Qwen3.8-27B (the repository's single-user script)", None, "2x RTX 3090 (NVLink)", "rtx-3090",
        ("(EngineCore pid=114589) INFO 08-19 20:19:53 [kv_cache_utils.py:2284] GPU KV cache size: 344,579 tokens",
         "(EngineCore pid=114589) INFO 08-19 20:19:53 [kv_cache_utils.py:2285] Maximum concurrency for 163,840 "
         "tokens per request: 2.10x"),
        FITS, tensor_parallel=2, utilization=0.975, max_model_len=163840, max_num_seqs=16, kv_tokens=344579,
        concurrency=2.10,
        needs=(f"{_R18A}: Qwen3.8 hybrid", "excerpt: the weight format and the DFlash drafter's memory"),
        kinds=("hybrid",)),
    Log("qwen36-intel-b70", "https://github.com/intel/llm-scaler/issues/647",
        "issue description, the KV lines", "not printed (Intel llm-scaler vLLM)", "0.30.0",
        "Qwen3.6-27B / 3.8-27B (the issue's test matrix)", None, "Intel Arc Pro B70", None,
        ("Available KV cache memory: 10.68 GiB per GPU", "GPU KV cache size: 218,154 tokens",
         "Maximum concurrency for 200,000 tokens per request: 1.09x"),
        FITS, max_model_len=200000, available_gib=10.68, kv_tokens=218154, concurrency=1.09,
        needs=("gpu: Intel Arc (XPU) is not modelled", f"{_R18A}: Qwen3.6/3.8 hybrid"),
        kinds=("hybrid", "new-gpu")),
    Log("dsv4-pro-mi300x-tp8-fails", "https://github.com/vllm-project/vllm/issues/53961",
        "issue description (2026-08-26), Repro", "not printed (after PR #51726: 0.28 on)", "0.28.0",
        "deepseek-ai/DeepSeek-V4-Pro", None, "8x MI300X (191.98 GiB)", "mi300x",
        ("ValueError: To serve at least one request with the model's max seq len (1048576),",
         "23.32 GiB KV cache is needed, which is larger t"),
        TOO_LITTLE_KV, tensor_parallel=8, max_model_len=1048576, weights="fp8", kv_dtype="fp8",
        error="23.32 GiB KV cache is needed (the excerpt ends there)",
        needs=(f"{_R18A}: DeepSeek-V4's compressed attention", f"{_R18W}: fp8 block-scaled weights"),
        kinds=("quantized", "failed"),
        notes="The issue shows the 0.28 rule: 'device_memory >= 160 * GiB_bytes' takes the MI300X to 16,384 "
              "batched tokens for vllm serve, doubling the profile run's peak."),
    Log("minimax-m2-2xmi300x-v0171", "https://github.com/vllm-project/recipes/pull/273",
        "PR description (2026-03-11), Testing", "0.17.1 ROCm wheel (stated)", "0.17.1",
        "MiniMaxAI/MiniMax-M2", None, "2x AMD Instinct MI300X", "mi300x",
        ("- KV cache: 497,600 tokens (2x MI300X)",),
        FITS, tensor_parallel=2, weights="fp8", kv_tokens=497600,
        needs=(f"{_R18A}: MiniMax-M2 in the catalogue", f"{_R18W}: MiniMax-M2's fp8 weights",
               "excerpt: max_model_len and utilization"),
        kinds=("quantized", "pre-0.20")),
    Log("club3090-6x3090-tp4", "https://github.com/noonghunna/club-3090/issues/127",
        "issue description, the worker lines", "not printed (0.21 on: 'default since v0.21.0')", "0.21.0",
        "the repository's Qwen bench model (not named in the excerpt)", None, "RTX 3090 (TP 4 of 6)", "rtx-3090",
        ("(Worker_TP1 pid=148) INFO 05-14 00:04:16 [gpu_model_runner.py:6143] Estimated CUDA graph memory: "
         "0.17 GiB total",
         "(Worker_TP0 pid=147) INFO 05-14 00:04:17 [gpu_worker.py:460] Available KV cache memory: 15.72 GiB"),
        FITS, tensor_parallel=4, utilization=0.92, available_gib=15.72,
        needs=("excerpt: the model",), kinds=(),
        notes="'--gpu-memory-utilization=0.9200 is equivalent to --gpu-memory-utilization=0.9129 without CUDA "
              "graph memory profiling': 0.0071 × 23.58 GiB = 0.17 GiB."),
    Log("hybrid-mtp-8x3090-blocks", "https://github.com/Sandermage/genesis-vllm-patches/issues/24",
        "issue description, the TP0 worker", "not printed (2026-05)", "0.21.0",
        "a Mamba-hybrid model with an MTP head (not named in the excerpt)", None, "8x RTX 3090", "rtx-3090",
        ("(Worker_TP0 pid=92375) INFO 05-08 16:18:24 [gpu_model_runner.py:4960] Model loading took 15.26 GiB "
         "memory and 23.107530 seconds",
         "(Worker_TP0 pid=92375) INFO 05-08 16:18:24 [interface.py:645] Setting attention block size to 544 "
         "tokens to ensure that attention page size is >= mamba page size."),
        FITS, tensor_parallel=8, loading_gib=15.26,
        needs=(f"{_R18A}: the hybrid allocator's block size (544 tokens here)", "excerpt: the model"),
        kinds=("hybrid",), notes="Shows the hybrid rule that raises the attention block size to the Mamba page."),
    Log("qwen35-nvfp4-kv-5090", "https://github.com/vllm-project/vllm/issues/49011",
        "comment by heungwing (turn 13)", "a prototype branch (2026-07)", "0.25.0",
        "a Qwen3.5 hybrid (model_type qwen3_5_text) with an NVFP4 KV cache", None, "NVIDIA GeForce RTX 5090",
        "rtx-5090",
        ("(EngineCore pid=7476) WARNING 07-25 13:42:38 [kv_cache_utils.py:1208] Add 3 padding layers, may waste "
         "at most 6.25% KV cache memory",
         "(EngineCore pid=7476) INFO 07-25 13:42:38 [kv_cache_utils.py:2146] GPU KV cache size: 1,823,372 tokens",
         "(EngineCore pid=7476) INFO 07-25 13:42:38 [kv_cache_utils.py:2147] Maximum concurrency for 1,048,576 "
         "tokens per request: 1.74x"),
        FITS, max_model_len=1048576, kv_dtype="nvfp4", kv_tokens=1823372, concurrency=1.74,
        needs=(f"{_R18A}: NVFP4 KV layout and the Qwen3.5 hybrid", "excerpt: the weights"),
        kinds=("quantized", "hybrid", "new-gpu")),
    Log("glm53-flash-2xgb10-fails", "https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/204",
        "comment by hecisaza (2026-09-21), arm A", "not printed (the repository's image)", "0.30.0",
        "GLM-5.3-Flash EXL3", None, "2x DGX Spark (GB10, 121.69 GiB each)", "gb10",
        ("| A | `instanttensor` | 0.85 | **12.38 / 12.48 / 12.51 GiB** (a repeat: 13.08) — needs 13.46 | ❌ 3/3, "
         "your `ValueError`; est. max len 699k–799k | 66–69 s cold, 8.3 s warm |",),
        TOO_LITTLE_KV, tensor_parallel=2, utilization=0.85, max_model_len=850000, max_num_seqs=4, weights="exl3",
        kv_dtype="fp8", available_gib=12.48, error="needs 13.46 GiB of KV cache",
        needs=(f"{_R18W}: EXL3 weights are not a format vLLM's mainline loads", f"{_R18A}: GLM-5.3's attention"),
        kinds=("quantized", "failed", "new-gpu")),
    Log("r1-distill-qwen14b-2x4090-fails", "https://github.com/vllm-project/vllm/issues/13061",
        "issue description (2025-02-11)", "V0 engine (0.7.x; 'model_runner.py:1115')", "0.8.5",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", None, "2x RTX 4090", "rtx-4090",
        ("ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be "
         "stored in KV cache (81536). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
         "initializing the engine.",
         "(VllmWorkerProcess pid=1786) INFO 02-11 07:40:45 model_runner.py:1115] Loading model weights took "
         "13.9476 GB"),
        TOO_LITTLE_KV, tensor_parallel=2, utilization=0.98, max_model_len=131072, loading_gib=13.9476,
        kv_tokens=81536, error="max seq len (131072) is larger than the maximum number of tokens that can be "
                               "stored in KV cache (81536)",
        needs=("engine: the V0 engine (before 0.8.5) is not modelled", "catalogue: Qwen2.5-14B's shape"),
        kinds=("failed", "pre-0.20"),
        notes="The issue gives the V0 budget: non_torch 0.25 GiB, activation 0.19 GiB, 8.69 GiB for the cache."),
    Log("qwen-moe-wna16-3090-v0", "https://github.com/vllm-project/vllm/pull/14447",
        "comment by davidsyoung (turn 42, 2025-04-12)", "V0 worker ('worker.py:267', April 2025)", "0.8.5",
        "a GPTQ/AWQ MoE checkpoint (the PR's wna16 Marlin kernel)", None, "RTX 3090 (several)", "rtx-3090",
        ("(VllmWorkerProcess pid=507) INFO 04-12 08:21:19 [worker.py:267] the current vLLM instance can use "
         "total_gpu_memory (23.58GiB) x gpu_memory_utilization (0.99) = 23.35GiB",
         "(VllmWorkerProcess pid=521) INFO 04-12 08:21:19 [worker.py:267] model weights take 21.21GiB; "
         "non_torch_memory takes 0.20GiB; PyTorch activation peak memory takes 0.37GiB; the rest of the memory "
         "reserved for KV Cache is 1.57GiB."),
        FITS, utilization=0.99, weights="gptq-int4", loading_gib=21.21, available_gib=1.57,
        needs=("engine: the V0 engine is not modelled", f"{_R18W}: GPTQ int4 MoE weights", "excerpt: the model"),
        kinds=("quantized", "pre-0.20")),
    Log("intel-b70-100k-fails", "https://github.com/SergiioB/intel-arc-pro-b70-inference-cookbook/issues/4",
        "issue description, the traceback", "not printed (kv_cache_utils.py l.2193/758)", "0.30.0",
        "not named in the excerpt", None, "Intel Arc Pro B70", None,
        ("(EngineCore pid=316) ValueError: To serve at least one request with the model's max seq len (100000), "
         "(4.26 GiB KV cach",
         "e is needed, which is larger than the available KV cache memory (4.25 GiB). Based on the avai"),
        TOO_LITTLE_KV, max_model_len=100000, available_gib=4.25,
        error="4.26 GiB KV cache is needed, which is larger than the available KV cache memory (4.25 GiB)",
        needs=("gpu: Intel Arc (XPU) is not modelled", "excerpt: the model"), kinds=("failed", "new-gpu")),
    Log("v0-4gpu-44gib-14011", "https://github.com/vllm-project/vllm/issues/14011",
        "comment by DefTruth (2025-03-03)", "V0 engine (0.7.x: '[model_runner.py:1117]', '[worker.py:223]')",
        "0.8.5", "not named in the excerpt (a 32B-class bf16 model over 4 GPUs)", None,
        "4 GPUs of 44.52 GiB (L40S-class)", None,
        ("INFO 03-03 20:36:02 [model_runner.py:1117] Model loading took 15.4137 GB and 9.033798 seconds",
         "(VllmWorkerProcess pid=1005427) WARNING 03-03 20:36:03 [worker.py:223] Rank 2, Before profile_run, "
         "free_memory_pre_profile: 28.49114990234375GiB, total_gpu_memory: 44.52056884765625GiB"),
        FITS, tensor_parallel=4, loading_gib=15.4137,
        needs=("engine: the V0 engine is not modelled", "excerpt: the model and the GPU"), kinds=("pre-0.20",)),
    Log("v0-4x4090-128k-fails", "https://github.com/hiyouga/LlamaFactory/issues/7234",
        "issue description (2025-03-10), title and System Info", "0.7.3 (stated: 'vLLM version: 0.7.3')", "0.8.5",
        "not named in the excerpt (a vision-language model)", None, "4x RTX 4090 (23.64 GB)", "rtx-4090",
        ("The model's max seq len (128000) is larger than the maximum number of tokens that can be stored in KV "
         "cache (78336). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initiali",),
        TOO_LITTLE_KV, max_model_len=128000, kv_tokens=78336,
        error="max seq len (128000) is larger than the maximum number of tokens that can be stored in KV cache "
              "(78336)",
        needs=("engine: the V0 engine is not modelled", "excerpt: the model and the TP size"),
        kinds=("failed", "pre-0.20")),
    Log("tpu-v5e-131k-fails", "https://github.com/vllm-project/tpu-inference/pull/223",
        "PR description (2025-07-17)", "vLLM main, 2025-07 (tpu_commons)", "0.9.2",
        "the example's default model (not named in the excerpt)", None, "TPU v5e-8", None,
        ("ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache "
         "is needed, which is larger than the available KV cache memory (0.71 GiB). Based on the available "
         "memory, the estimated maximum model length is 5632. Try increasing `gpu_memory_utilization` or "
         "decreasing `max_model_len` when initializing the engine.",),
        TOO_LITTLE_KV, max_model_len=131072, available_gib=0.71,
        error="16.00 GiB KV cache is needed, which is larger than the available KV cache memory (0.71 GiB)",
        needs=("gpu: TPUs are not modelled", "excerpt: the model"), kinds=("failed", "pre-0.20"),
        notes="16.00 GiB for 131,072 tokens is 128 KiB per token: a Llama-3-8B-shaped cache."),
)

BY_ID: dict[str, Log] = {log.id: log for log in LOGS}
if len(BY_ID) != len(LOGS):
    raise RuntimeError("duplicate log id in startup_log_table")
