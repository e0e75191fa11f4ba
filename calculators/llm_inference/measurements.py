"""Published measurements: what real engines reach, to set beside the ceilings.

Two kinds: decode steps (:data:`DECODE_POINTS`, beside the bandwidth ceiling of a step) and times
to first token (:data:`PREFILL_POINTS`, beside the prefill ceiling; see :class:`PrefillPoint`).

Each :class:`DecodePoint` is one row of a public benchmark, quoted with its URL: engine and
version, model, precision, GPUs, parallelism, concurrency, input and output lengths, and the
figure as published. ``step_ms`` is the measured time of one decode step for one stream:

* inter-token latency (ITL) or time per output token (TPOT) as published;
* for static-batch throughput tables (batch B, T output tokens/s in all) it is B ÷ T, which
  spreads the prefill over the output and so slightly overstates the step.

To compute each point's roofline it also carries the bytes a decode step must stream, from the
model's config: the weights one token reads (all of them for a dense model; for a mixture of
experts the shared part plus ``top_k`` of ``routed_experts`` per layer), and the KV bytes per
token. :func:`roofline_step_ms` turns them into the bandwidth ceiling:

    bytes per GPU per step = weights touched by the batch ÷ GPUs + KV read per GPU
    roofline step          = bytes per GPU ÷ the GPU's memory bandwidth (llm_inference.hardware)

A batch of B tokens in a mixture of experts touches more experts than one token does: with E
routed experts and top-k routing, each expert is hit with probability 1 − (1 − k/E)^B
(:func:`expected_unique_experts`). MLA's single latent cannot be split by tensor parallelism, so
every GPU reads the whole latent cache (``kv_replicated``); GQA heads are split over the GPUs.
Context per stream is the input plus half the output (the average over the generation).
"""

from __future__ import annotations

from dataclasses import dataclass

from .hardware import GPUS

__all__ = ["DecodePoint", "DECODE_POINTS", "PrefillPoint", "PREFILL_POINTS", "expected_unique_experts",
           "step_weight_bytes", "roofline_step_ms", "roofline_fraction"]

# Model figures used below, each from the model's published config.json / model card:
# Llama-2-7B: 6.74e9 params, 32 layers × 32 KV heads × 128 → 2·32·32·128 = 262,144 elements/token.
# Llama-2-70B: 68.98e9 params, 80 layers × 8 KV heads × 128 → 163,840 elements/token.
# Llama-3.x-70B: 70.55e9 params, same cache shape as Llama-2-70B.
# Llama-3.1-405B: 405.85e9 params, 126 layers × 8 KV heads × 128 → 258,048 elements/token.
# DeepSeek-R1 (V3 architecture): 671e9 params, 37e9 active; 61 layers, 58 of them MoE with 256
#   routed experts (top 8) + 1 shared; one expert = 3 × 7168 × 2048 = 44.04e6 params, so one
#   routed expert index over all 58 layers is 2.554e9 params; MLA cache 61 × (512 + 64) = 35,136
#   elements/token (70,272 bytes in bf16).
# Llama-3.3-Nemotron-Super-49B-v1: 49.87e9 params (dense, pruned from Llama-3.3-70B).
_DSR1_ROUTED_EXPERT_BYTES_FP8 = 58 * 3 * 7168 * 2048  # one expert index, all MoE layers, 1 byte/param
_DSR1_NON_ROUTED_BYTES_FP8 = 37e9 - 8 * _DSR1_ROUTED_EXPERT_BYTES_FP8  # attention, shared, dense, head
_DSR1_MLA_BYTES_BF16 = 61 * (512 + 64) * 2

_NIM = "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance"
_TRTLLM = ("https://github.com/NVIDIA/TensorRT-LLM/blob/138f96d45f90b9667426f7c47297d8c06bafac73/"
           "docs/source/performance.md")
_TT = "https://github.com/tenstorrent/tt-inference-server/issues/356"
_IX = "https://github.com/SemiAnalysisAI/InferenceX/issues/870"
_VULTR = "https://docs.vultr.com/inference-cookbook/cuda/optimization/concurrency-tuning"
_ORACLE = "https://blogs.oracle.com/cloud-infrastructure/serving-llama-31-405b-model-with-amd-mi300x-gpus"


@dataclass(frozen=True)
class DecodePoint:
    id: str
    engine: str
    engine_version: str
    model: str
    precision: str  # weights
    kv_precision: str
    gpu: str  # an id of llm_inference.hardware.GPUS
    gpus: int
    parallelism: str
    concurrency: int  # concurrent streams (batch size for static benchmarks)
    input_tokens: int
    output_tokens: int
    metric: str  # what the source reports: "itl_ms", "tpot_ms", "out_tok_s", "out_tok_s_per_gpu"
    value: float  # as published
    step_ms: float  # one decode step for one stream (see the module docstring)
    source_url: str
    quote: str  # the row as published
    weight_bytes_per_token: float  # weights one token reads (dense: all)
    kv_bytes_per_token: float  # whole model, at the KV precision
    kv_replicated: bool = False  # True for MLA under TP: every GPU reads the whole cache
    routed_experts: int = 0  # MoE: routed experts per layer (0 for dense)
    top_k: int = 0
    routed_expert_bytes: float = 0  # one routed expert index over all MoE layers
    notes: str = ""


# The formula lives with the rest of the physics; the byte-level roofline below is kept as an
# independent check of llm_inference.physics.measured, which rebuilds each point from its model.
from .physics.weights import expected_unique_experts  # noqa: E402


def step_weight_bytes(p: DecodePoint) -> float:
    """Weight bytes one decode step of the whole batch streams (all GPUs together)."""
    if not p.routed_experts:
        return p.weight_bytes_per_token
    shared = p.weight_bytes_per_token - p.top_k * p.routed_expert_bytes
    return shared + expected_unique_experts(p.routed_experts, p.top_k, p.concurrency) * p.routed_expert_bytes


def roofline_step_ms(p: DecodePoint) -> float:
    """Bandwidth ceiling on one decode step: bytes each GPU must stream ÷ its bandwidth."""
    context = p.input_tokens + p.output_tokens / 2
    kv = p.concurrency * context * p.kv_bytes_per_token
    per_gpu = step_weight_bytes(p) / p.gpus + (kv if p.kv_replicated else kv / p.gpus)
    return per_gpu / GPUS[p.gpu].bandwidth * 1e3


def roofline_fraction(p: DecodePoint) -> float:
    """Measured speed as a share of the bandwidth ceiling (1.0 = at the roofline)."""
    return roofline_step_ms(p) / p.step_ms


DECODE_POINTS: tuple[DecodePoint, ...] = (
    DecodePoint(
        "nim-llama33-70b-fp8-tp2-c1-5000-500", "NVIDIA NIM", "1.8.0", "Llama-3.3-70B-Instruct", "fp8",
        "not stated (bf16 assumed)", "h100-sxm", 2, "TP2", 1, 5000, 500, "itl_ms", 18.58, 18.58, _NIM,
        "Llama-3.3-70b-instruct, Version 1.8.0, 2 x H100 80G, fp8 TP2, 5000 Input Tokens / 500 Output "
        "Tokens: Concurrency 1 | TTFT 406.77 ms | ITL 18.58 ms | Throughput 51.67 tokens/s",
        70.55e9, 163840 * 2,
        notes="NIM does not say which backend the profile ran (TensorRT-LLM or vLLM).",
    ),
    DecodePoint(
        "nim-llama33-70b-fp8-tp2-c1-500-2000", "NVIDIA NIM", "1.8.0", "Llama-3.3-70B-Instruct", "fp8",
        "not stated (bf16 assumed)", "h100-sxm", 2, "TP2", 1, 500, 2000, "itl_ms", 18.91, 18.91, _NIM,
        "500 Input Tokens / 2000 Output Tokens: Concurrency 1 | TTFT 47.77 ms | ITL 18.91 ms | "
        "Throughput 52.85 tokens/s", 70.55e9, 163840 * 2,
    ),
    DecodePoint(
        "nim-llama33-70b-fp8-tp2-c25-5000-500", "NVIDIA NIM", "1.8.0", "Llama-3.3-70B-Instruct", "fp8",
        "not stated (bf16 assumed)", "h100-sxm", 2, "TP2", 25, 5000, 500, "itl_ms", 38.75, 38.75, _NIM,
        "5000 Input Tokens / 500 Output Tokens: Concurrency 25 | TTFT 688.69 ms | ITL 38.75 ms | "
        "Throughput 623.4 tokens/s", 70.55e9, 163840 * 2,
        notes="Under load new 5,000-token prefills share steps with the decodes (chunked prefill), "
              "which stretches every stream's inter-token latency.",
    ),
    DecodePoint(
        "trtllm-llama2-7b-fp8-h100-b48", "TensorRT-LLM", "0.6.1 (docs at 138f96d)", "LLaMA 7B (Llama-2-7B)",
        "fp8", "fp8", "h100-sxm", 1, "TP1", 48, 2048, 2048, "out_tok_s_per_gpu", 2740, 48 / 2740 * 1e3,
        _TRTLLM, "H100 GPUs (FP8): LLaMA 7B | Batch Size 48 | TP 1 | Input 2048 | Output 2048 | "
        "Throughput 2,740 out tok/s/GPU", 6.74e9, 262144 * 1,
        notes="Static batch (gptSessionBenchmark): step = batch ÷ throughput, prefill included.",
    ),
    DecodePoint(
        "trtllm-llama2-70b-fp8-h100-tp2-b64", "TensorRT-LLM", "0.6.1 (docs at 138f96d)",
        "LLaMA 70B (Llama-2-70B)", "fp8", "fp8", "h100-sxm", 2, "TP2", 64, 2048, 2048, "out_tok_s_per_gpu",
        547, 64 / (547 * 2) * 1e3, _TRTLLM, "H100 GPUs (FP8): LLaMA 70B | Batch Size 64 | TP 2 | "
        "Input 2048 | Output 2048 | Throughput 547 out tok/s/GPU", 68.98e9, 163840 * 1,
        notes="Per-GPU throughput × 2 GPUs; static batch, prefill included.",
    ),
    DecodePoint(
        "trtllm-llama2-7b-fp16-a100-b60", "TensorRT-LLM", "0.6.1 (docs at 138f96d)", "LLaMA 7B (Llama-2-7B)",
        "fp16", "fp16", "a100-80g", 1, "TP1", 60, 128, 2048, "out_tok_s", 1928, 60 / 1928 * 1e3, _TRTLLM,
        "A100 GPUs (FP16): LLaMA 7B | Batch Size 60 | TP 1 | Input 128 | Output 2048 | Throughput "
        "1,928 out tok/s", 6.74e9 * 2, 262144 * 2,
        notes="The table says A100 without the memory size; the 80 GB SXM part is assumed.",
    ),
    DecodePoint(
        "trtllm-llama2-7b-fp8-l40s-b64", "TensorRT-LLM", "0.5", "LLaMA 7B (Llama-2-7B)", "fp8", "fp8",
        "l40s", 1, "TP1", 64, 128, 2048, "out_tok_s", 1622, 64 / 1622 * 1e3, _TRTLLM,
        "L40S GPUs (FP8), data from TensorRT-LLM v0.5: LLaMA 7B | Batch Size 64 | TP 1 | Input 128 | "
        "Output 2048 | Throughput 1,622 out tok/s", 6.74e9, 262144 * 1,
    ),
    DecodePoint(
        "sglang-dsr1-fp8-16xh100-c1", "SGLang", "not stated (July 2025)", "DeepSeek-R1-0528", "fp8",
        "bf16 (SGLang default for DeepSeek MLA)", "h100-sxm", 16, "TP16 over 2 nodes (InfiniBand)", 1,
        128, 1024, "tpot_ms", 23.2, 23.2, _TT,
        "Performance Benchmark Sweeps for DeepSeek-R1-0528 on 16 H100 (SGLANG + INFINIBAND): ISL 128 | "
        "OSL 1024 | Concurrency 1 | TTFT 184.1 ms | TPOT 23.2 ms | Tput User 43.15 TPS",
        37e9, _DSR1_MLA_BYTES_BF16, kv_replicated=True, routed_experts=256, top_k=8,
        routed_expert_bytes=_DSR1_ROUTED_EXPERT_BYTES_FP8,
        notes="Comment of 2025-07-09. Each of 61 layers needs its all-reduces across two nodes.",
    ),
    DecodePoint(
        "sglang-dsr1-fp8-8xh200-tp8-c4-1k8k", "SGLang", "0.5.7", "DeepSeek-R1-0528", "fp8",
        "bf16 (SGLang default for DeepSeek MLA)", "h200", 8, "TP8, EP1", 4, 1024, 8192, "tpot_ms", 10.93,
        10.93, _IX, "DeepSeek-R1-0528 | SGLang v0.5.7 | FP8 | TP=8, EP=1 | Concurrency=4 — 1k/8k: "
        "Mean TPOT (ms) 10.93", 37e9, _DSR1_MLA_BYTES_BF16, kv_replicated=True, routed_experts=256,
        top_k=8, routed_expert_bytes=_DSR1_ROUTED_EXPERT_BYTES_FP8, notes="Comment of 2026-03-05.",
    ),
    DecodePoint(
        "sglang-dsr1-fp8-8xh200-tp8-c8-1k1k", "SGLang", "0.5.7", "DeepSeek-R1-0528", "fp8",
        "bf16 (SGLang default for DeepSeek MLA)", "h200", 8, "TP8, EP1", 8, 1024, 1024, "tpot_ms", 12.8,
        12.8, _IX, "Concurrency Sweep: DeepSeek R1 FP8 H200 SGLang (1k/1k), SGLang v0.5.7, TP=8, EP=1: "
        "conc=8 Mean TPOT (ms) 12.8", 37e9, _DSR1_MLA_BYTES_BF16, kv_replicated=True, routed_experts=256,
        top_k=8, routed_expert_bytes=_DSR1_ROUTED_EXPERT_BYTES_FP8,
    ),
    DecodePoint(
        "sglang-dsr1-fp8-8xh200-tp8-c64-1k1k", "SGLang", "0.5.7", "DeepSeek-R1-0528", "fp8",
        "bf16 (SGLang default for DeepSeek MLA)", "h200", 8, "TP8, EP1", 64, 1024, 1024, "tpot_ms", 34.6,
        34.6, _IX, "same sweep: conc=64 Mean TPOT (ms) 34.6", 37e9, _DSR1_MLA_BYTES_BF16,
        kv_replicated=True, routed_experts=256, top_k=8, routed_expert_bytes=_DSR1_ROUTED_EXPERT_BYTES_FP8,
    ),
    DecodePoint(
        "vllm-nemotron-super-49b-fp8-b200-c1", "vLLM", "0.16.0", "Llama-3.3-Nemotron-Super-49B", "fp8",
        "not stated (bf16 assumed)", "b200", 1, "TP1", 1, 2048, 512, "tpot_ms", 13.40, 13.40, _VULTR,
        "Nemotron Super 49B (FP8, TP=1, 1 GPU): Concurrent 1 | Output 73 tok/s | TTFT 170 ms | "
        "TPOT 13.40 ms", 49.87e9, 80 * 8 * 128 * 2 * 2,
        notes="Vultr's methodology page gives vLLM 0.16.0 for this model, input 2,048 / output 512. "
              "The KV term uses all 80 layers of Llama-3.3-70B; the pruned model has fewer attention "
              "layers, so the ceiling is slightly pessimistic.",
    ),
    DecodePoint(
        "vllm-llama31-405b-fp8-8xmi300x-b1", "vLLM", "not stated (2024, ROCm build)",
        "Llama-3.1-405B-Instruct", "fp8", "fp8", "mi300x", 8, "TP8", 1, 128, 128, "out_tok_s", 36,
        3.530 / 128 * 1e3, _ORACLE, "Latency measurements (benchmark_latency.py, input 128, output 128): "
        "Batch Size 1 | Output throughput 36 TPS | Average latency 3.530 s", 405.85e9, 258048 * 1,
        notes="step = end-to-end latency ÷ 128 output tokens (includes the 128-token prefill).",
    ),
    DecodePoint(
        "vllm-llama31-405b-fp8-8xmi300x-b64", "vLLM", "not stated (2024, ROCm build)",
        "Llama-3.1-405B-Instruct", "fp8", "fp8", "mi300x", 8, "TP8", 64, 128, 128, "out_tok_s", 1184,
        6.919 / 128 * 1e3, _ORACLE, "Batch Size 64 | Output throughput 1184 TPS | Average latency 6.919 s",
        405.85e9, 258048 * 1,
    ),
)


@dataclass(frozen=True)
class PrefillPoint:
    """A published time to first token (TTFT), for the prefill side of the roofline.

    ``ttft_ms`` is the figure as published. What it includes depends on the benchmark: the
    TensorRT-LLM table times the engine alone (``gptSessionBenchmark`` with one output token);
    the serving benchmarks (NVIDIA NIM's genai-perf, ``vllm bench serve``, SGLang's
    ``bench_serving``) time a request from the client, so HTTP, tokenization and scheduling are in
    it too. Every point here ran one request at a time (``concurrency`` 1): no queueing.
    ``params`` are the parameters one token uses (all of a dense model), for the compute floor
    ``2 × params × input tokens ÷ (GPUs × peak)`` that a test checks independently.
    """

    id: str
    engine: str
    engine_version: str
    model: str  # the same names as DecodePoint.model (physics.measured rebuilds the model from it)
    precision: str  # weights
    gpu: str  # an id of llm_inference.hardware.GPUS
    gpus: int
    parallelism: str
    concurrency: int
    input_tokens: int
    ttft_ms: float
    source_url: str
    quote: str  # the row as published
    params: float
    notes: str = ""


_TRTLLM_TTFT = ("Low Latency (data from TensorRT-LLM v0.5), batch size 1, 1st Token Latency (ms): ")
_LLAMA2_7B = "LLaMA 7B (Llama-2-7B)"
_LLAMA2_70B = "LLaMA 70B (Llama-2-70B)"
_DSR1 = "DeepSeek-R1-0528"


def _trtllm(gpu: str, table: str, model: str, precision: str, gpus: int, input_tokens: int, ms: float,
            params: float) -> PrefillPoint:
    size = "7b" if params < 10e9 else "70b"
    return PrefillPoint(
        f"trtllm-llama2-{size}-{precision}-{gpu}-tp{gpus}-{input_tokens}", "TensorRT-LLM", "0.5", model, precision,
        gpu, gpus, f"TP{gpus}", 1, input_tokens, ms, _TRTLLM,
        f"{_TRTLLM_TTFT}{table}: {model.split(' (')[0]} | Batch Size 1 | TP {gpus} | Input {input_tokens} | "
        f"{ms:g}", params,
        notes="gptSessionBenchmark with one output token: the engine's prefill alone, no server.")


PREFILL_POINTS: tuple[PrefillPoint, ...] = (
    _trtllm("h100-sxm", "H100 GPUs (FP8)", _LLAMA2_7B, "fp8", 1, 128, 7, 6.74e9),
    _trtllm("h100-sxm", "H100 GPUs (FP8)", _LLAMA2_7B, "fp8", 1, 2048, 36, 6.74e9),
    _trtllm("h100-sxm", "H100 GPUs (FP8)", _LLAMA2_70B, "fp8", 4, 128, 26, 68.98e9),
    _trtllm("h100-sxm", "H100 GPUs (FP8)", _LLAMA2_70B, "fp8", 4, 2048, 109, 68.98e9),
    _trtllm("l40s", "L40S GPUs (FP8)", _LLAMA2_7B, "fp8", 1, 128, 14, 6.74e9),
    _trtllm("l40s", "L40S GPUs (FP8)", _LLAMA2_7B, "fp8", 1, 2048, 73, 6.74e9),
    # The A100 table does not give the memory size; the 80 GB SXM part is assumed, as for decode.
    _trtllm("a100-80g", "A100 GPUs (FP16)", _LLAMA2_7B, "fp16", 1, 128, 16, 6.74e9),
    _trtllm("a100-80g", "A100 GPUs (FP16)", _LLAMA2_7B, "fp16", 1, 2048, 133, 6.74e9),
    _trtllm("a100-80g", "A100 GPUs (FP16)", _LLAMA2_70B, "fp16", 4, 128, 47, 68.98e9),
    _trtllm("a100-80g", "A100 GPUs (FP16)", _LLAMA2_70B, "fp16", 4, 2048, 377, 68.98e9),
    PrefillPoint(
        "nim-llama33-70b-fp8-tp2-c1-5000", "NVIDIA NIM", "1.8.0", "Llama-3.3-70B-Instruct", "fp8", "h100-sxm", 2,
        "TP2", 1, 5000, 406.77, _NIM,
        "Llama-3.3-70b-instruct, Version 1.8.0, 2 x H100 80G, fp8 TP2, 5000 Input Tokens / 500 Output Tokens: "
        "Concurrency 1 | TTFT 406.77 ms", 70.55e9,
        notes="genai-perf against the NIM server; NIM does not say which backend ran (TensorRT-LLM or vLLM)."),
    PrefillPoint(
        "nim-llama33-70b-fp8-tp2-c1-500", "NVIDIA NIM", "1.8.0", "Llama-3.3-70B-Instruct", "fp8", "h100-sxm", 2,
        "TP2", 1, 500, 47.77, _NIM,
        "500 Input Tokens / 2000 Output Tokens: Concurrency 1 | TTFT 47.77 ms", 70.55e9),
    PrefillPoint(
        "vllm-nemotron-super-49b-fp8-b200-c1-2048", "vLLM", "0.16.0", "Llama-3.3-Nemotron-Super-49B", "fp8", "b200",
        1, "TP1", 1, 2048, 170, _VULTR,
        "Nemotron Super 49B (FP8, TP=1, 1 GPU): Concurrent 1 | Output 73 tok/s | TTFT 170 ms | TPOT 13.40 ms",
        49.87e9, notes="vllm bench serve, input 2,048 / output 512 (Vultr's methodology page)."),
    PrefillPoint(
        "sglang-dsr1-fp8-16xh100-c1-128", "SGLang", "not stated (July 2025)", _DSR1, "fp8", "h100-sxm", 16,
        "TP16 over 2 nodes (InfiniBand)", 1, 128, 184.1, _TT,
        "DeepSeek-R1-0528 on 16 H100 (SGLANG + INFINIBAND): ISL 128 | OSL 1024 | Concurrency 1 | TTFT 184.1 ms",
        37e9, notes="Comment of 2025-07-09; each layer's all-reduces cross two nodes."),
    PrefillPoint(
        "sglang-dsr1-fp8-16xh100-c1-2048", "SGLang", "not stated (July 2025)", _DSR1, "fp8", "h100-sxm", 16,
        "TP16 over 2 nodes (InfiniBand)", 1, 2048, 190.5, _TT,
        "same sweep: ISL 2048 | OSL 128 | Concurrency 1 | TTFT 190.5 ms", 37e9),
    PrefillPoint(
        "sglang-dsr1-fp8-16xh100-c1-8192", "SGLang", "not stated (July 2025)", _DSR1, "fp8", "h100-sxm", 16,
        "TP16 over 2 nodes (InfiniBand)", 1, 8192, 263.9, _TT,
        "same sweep: ISL 8192 | OSL 128 | Concurrency 1 | TTFT 263.9 ms", 37e9),
)
