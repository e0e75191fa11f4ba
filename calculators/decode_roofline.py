"""Decode roofline: how fast one GPU (or a tensor-parallel group) can generate tokens.

Each decode step produces one token for every sequence in the batch, and to do so streams every
*active* weight from GPU memory once, plus the keys and values each sequence has cached:

    bytes per step = active parameters × bytes per weight + batch × context × KV bytes per token
    FLOPs per step = 2 × active parameters × batch
    step time      = max(bytes ÷ bandwidth, FLOPs ÷ peak compute)
    tokens/s       = 1 ÷ step time (one stream);  throughput = batch ÷ step time (all streams)

The step is *memory-bound* while its arithmetic intensity (FLOPs ÷ bytes) stays below the GPU's
ridge point (peak FLOP/s ÷ bandwidth: 989e12 ÷ 3.35e12 ≈ 295 FLOP/byte on an H100 SXM in bf16).
In bf16 with a short context the intensity is about the batch size, so a 70B model needs a batch
of roughly 300 before compute becomes the limit; KV reads add bytes without adding weight FLOPs,
so a longer context pushes that ridge batch higher (or out of reach).

Simplifications, each a ceiling rather than a forecast:

* Attention FLOPs (about 4 × layers × query heads × head dim per cached token) are left out: they
  are a few percent of the weight FLOPs at ordinary contexts and have an intensity far below any
  ridge point, so they never change the verdict much.
* Peak compute is the *dense* figure (H100 SXM bf16: 989 TFLOP/s, not the 2:4-sparse 1,979). fp8
  weights use the fp8 tensor rate; int8 and int4 are weight-only quantization (GPTQ, AWQ): the
  weights are dequantized and multiplied in bf16, so fewer bytes but the bf16 peak.
* Tensor parallelism over ``gpus`` GPUs multiplies bandwidth, peak compute and memory by the GPU
  count; the all-reduce traffic between GPUs is ignored.
* MoE: memory holds all ``params_b`` parameters, but a step streams only the ``active_params_b``
  ones. At batch > 1 different tokens pick different experts, so a real step touches more.
* Prefill (time to first token) of one prompt: 2 × active parameters × prompt tokens FLOPs at the
  dense peak, bounded below by the time to stream the weights the prompt touches once.

The KV bytes per token come from :func:`calculators.kv_cache.kv_bytes_per_token` (GQA or MLA).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Mapping

from course_calculators.spec import Calculator, Chart, Choice, Number, Output, Preset
from course_calculators.units import format_bytes, format_count, format_flops, format_seconds, format_tokens_per_s, sig

from . import kv_cache
from .hardware import DTYPE_CHOICES, GPU, GPU_CHOICES, GPUS, bytes_per_element

BATCH_MAX = 4096
#: Batch sizes of the roofline chart: powers of two, 1 … 1024.
CHART_BATCHES = tuple(2**i for i in range(11))
#: Weight formats that run on the fp8 tensor cores; every other format computes in bf16/fp16.
FP8_COMPUTE = ("fp8",)

_KV = {p.name: p for p in kv_cache.PARAMS}

PARAMS = (
    Number("params_b", "Parameters (total)", 70, 0.1, 2000, step=0.1, unit="B", integer=False,
           help="All parameters in billions; for a mixture of experts, every expert: all of them sit in memory."),
    Number("active_params_b", "Active parameters (MoE)", 0, 0, 2000, step=0.1, unit="B", integer=False,
           help="Parameters each token uses, in billions (DeepSeek-V3: 37 of 671). 0 means a dense model: "
                "all parameters are active. Values above the total are capped at the total; other values "
                "below 0.1 are raised to 0.1."),
    Choice("weight_dtype", "Weight precision", "bf16", DTYPE_CHOICES,
           help="fp8 runs on the fp8 tensor cores; int8 and int4 are weight-only: fewer bytes, "
                "but the multiplications run in bf16."),
    _KV["kv_dtype"],
    Choice("gpu", "GPU", "h100-sxm", GPU_CHOICES),
    Number("gpus", "GPUs (tensor parallel)", 1, 1, 64,
           help="Bandwidth, peak compute and memory scale with the GPU count; communication is ignored."),
    Number("batch", "Batch (concurrent streams)", 1, 1, BATCH_MAX, scale="log",
           help="Sequences decoded together: one weight read serves all of them."),
    Number("context", "Context per sequence", 1024, 1, kv_cache.CONTEXT_MAX, unit="tokens", scale="log",
           help="Tokens already cached per sequence; every step reads all their keys and values."),
    Number("prompt_tokens", "Prompt length", 1024, 1, kv_cache.CONTEXT_MAX, unit="tokens", scale="log",
           help="For the time to first token: the prefill of one prompt of this length."),
    Number("reserve_pct", "Memory reserve", 10, 0, 90, unit="%",
           help="Share of GPU memory kept for activations, CUDA graphs and the runtime (vLLM default: 10%)."),
    replace(_KV["attention"], advanced=True),
    replace(_KV["layers"], default=80, advanced=True),
    replace(_KV["kv_heads"], default=8, advanced=True),
    replace(_KV["head_dim"], default=128, advanced=True),
    replace(_KV["latent_dim"], advanced=True),
    replace(_KV["rope_dim"], advanced=True),
)

OUTPUTS = (
    Output("tokens_per_s", "Tokens/s, one stream", "tokens_per_s", primary=True,
           help="1 ÷ step time: the generation speed one user sees."),
    Output("throughput", "Tokens/s, all streams", "tokens_per_s", primary=True,
           help="Batch ÷ step time: what the GPUs produce in total."),
    Output("bound", "Decode step is", "text", primary=True,
           help="'memory' while the step's arithmetic intensity is below the ridge point, else 'compute'."),
    Output("ttft_s", "Time to first token", "seconds", primary=True,
           help="Prefill of one prompt: 2 × active parameters × prompt tokens FLOPs at the dense peak of all "
                "GPUs, or the time to stream the weights once if that is longer (short prompts)."),
    Output("fits", "Memory verdict", "bool", words=("does not fit", "fits"), primary=True,
           help="Weights + KV cache of batch × context against the usable memory of all GPUs."),
    Output("step_time_s", "Time per decode step", "seconds"),
    Output("weight_bytes", "Weights in memory (all parameters)", "bytes"),
    Output("streamed_weight_bytes", "Weights streamed per step (active parameters)", "bytes"),
    Output("kv_bytes_per_token", "KV cache per token", "bytes"),
    Output("kv_bytes", "KV cache read per step (batch × context)", "bytes"),
    Output("bytes_per_step", "Bytes moved per step", "bytes"),
    Output("arithmetic_intensity", "Arithmetic intensity (FLOP/byte)", "count",
           help="FLOPs of a decode step ÷ bytes it moves."),
    Output("ridge_point", "Ridge point (FLOP/byte)", "count",
           help="Peak FLOP/s ÷ bandwidth: the intensity above which the GPU is compute-bound."),
    Output("ridge_batch", "Batch where compute takes over", "count",
           help="The smallest batch whose step is compute-bound at this context; 0 when KV reads keep every "
                "batch memory-bound."),
    Output("compute_ceiling", "Compute ceiling, all streams", "tokens_per_s",
           help="Peak FLOP/s ÷ (2 × active parameters): no batch size gets past it."),
    Output("bandwidth", "Memory bandwidth, all GPUs", "bandwidth"),
    Output("peak_flops", "Dense peak compute, all GPUs", "flops"),
    Output("prefill_bound", "Prefill is", "text"),
    Output("total_bytes", "Weights + KV cache", "bytes"),
    Output("usable_bytes", "Usable GPU memory", "bytes"),
    Output("gpus_needed", "GPUs needed to fit", "count"),
    Output("max_batch", "Sequences that fit at this context", "count",
           help="0 when not even the weights fit."),
)

_LLAMA3_70B = {
    "params_b": 70, "active_params_b": 0, "weight_dtype": "bf16", "kv_dtype": "bf16",
    "gpu": "h100-sxm", "gpus": 1, "batch": 1, "context": 1024, "prompt_tokens": 1024, "reserve_pct": 10,
    "attention": "gqa", "layers": 80, "kv_heads": 8, "head_dim": 128,
}

PRESETS = (
    Preset("h100-70b-bf16", "H100 + 70B bf16", _LLAMA3_70B,
           "3.35 TB/s ÷ 140 GB (130 GiB) of bf16 weights ≈ 24 tokens/s per stream, at any price — and "
           "those weights do not even fit one 80 GB H100: the ceiling of a thought experiment."),
    Preset("h100-70b-bf16-tp2", "2 × H100 (tensor parallel)", {**_LLAMA3_70B, "gpus": 2},
           "Split over two GPUs the weights fit, and each step reads half of them from each card: "
           "about 48 tokens/s, twice one GPU's ceiling."),
    Preset("h100-70b-int4", "70B in int4", {**_LLAMA3_70B, "weight_dtype": "int4"},
           "4-bit weights are 35 GB: they fit one H100 and stream four times faster, about 95 tokens/s."),
    Preset("deepseek-v3-moe", "DeepSeek-V3 (MoE)",
           {**_LLAMA3_70B, "params_b": 671, "active_params_b": 37, "weight_dtype": "fp8", "gpu": "h200",
            "gpus": 8, "attention": "mla", "layers": 61, "latent_dim": 512, "rope_dim": 64},
           "Memory holds all 671 GB of fp8 weights, but each step streams only the 37 GB of active "
           "experts: 18× faster than a dense model of the same size."),
    Preset("batch-64", "70B, batch 64",
           {**_LLAMA3_70B, "gpus": 4, "batch": 64, "context": 256},
           "64 streams share each weight read: aggregate throughput rises about 60×, each stream barely "
           "slows, and the step is still memory-bound (intensity ≈ 62 FLOP/byte, ridge 295)."),
    Preset("batch-512", "70B, batch 512",
           {**_LLAMA3_70B, "gpus": 4, "batch": 512, "context": 256},
           "Past the ridge (about batch 360 here) the step turns compute-bound: throughput reaches the "
           "compute ceiling and each stream slows. Raise the context and the KV reads pull it back under "
           "the memory roof."),
)


# -- the model ---------------------------------------------------------------------------------

#: The fewest active parameters (billions) a model can have: the smallest total the spec allows.
ACTIVE_MIN_B = 0.1


def active_params(p: Mapping[str, Any]) -> float:
    """Parameters one token uses (a count): ``active_params_b``, 0 meaning all, kept within [0.1B, total]."""
    total = p["params_b"]
    active = p["active_params_b"]
    if active <= 0:
        return total * 1e9
    return min(max(active, ACTIVE_MIN_B), total) * 1e9


def peak_flops_per_gpu(gpu: GPU, weight_dtype: str) -> float:
    """Dense peak FLOP/s: fp8 tensor rate for fp8 weights, bf16 for the rest (int8/int4 are weight-only)."""
    return gpu.fp8_flops if weight_dtype in FP8_COMPUTE else gpu.bf16_flops


def bandwidth_total(p: Mapping[str, Any]) -> float:
    return GPUS[p["gpu"]].bandwidth * p["gpus"]


def peak_flops_total(p: Mapping[str, Any]) -> float:
    return peak_flops_per_gpu(GPUS[p["gpu"]], p["weight_dtype"]) * p["gpus"]


def streamed_weight_bytes(p: Mapping[str, Any]) -> float:
    """Bytes of the active weights: what one decode step reads, once for the whole batch."""
    return active_params(p) * bytes_per_element(p["weight_dtype"])


def step_bytes(p: Mapping[str, Any], batch: float) -> float:
    """Bytes a decode step moves: active weights once, plus every cached token of every sequence."""
    return streamed_weight_bytes(p) + batch * p["context"] * kv_cache.kv_bytes_per_token(p)


def step_flops(p: Mapping[str, Any], batch: float) -> float:
    """2 FLOPs (a multiply and an add) per active parameter per token; attention FLOPs left out."""
    return 2 * active_params(p) * batch


def step_time(p: Mapping[str, Any], batch: float) -> float:
    """The roofline: a step takes as long as the slower of moving its bytes and doing its FLOPs."""
    return max(step_bytes(p, batch) / bandwidth_total(p), step_flops(p, batch) / peak_flops_total(p))


def aggregate_tokens_per_s(p: Mapping[str, Any], batch: float) -> float:
    """Tokens per second over all ``batch`` streams."""
    return batch / step_time(p, batch)


def prefill_tokens_per_s(p: Mapping[str, Any]) -> float:
    """Prompt tokens per second at the dense peak (prefill is compute-bound for any real prompt)."""
    return peak_flops_total(p) / (2 * active_params(p))


def ridge_batch(p: Mapping[str, Any]) -> int:
    """The smallest batch whose decode step is compute-bound, or 0 if none is.

    Compute-bound when 2·A·b / peak > (S + b·K) / bandwidth, i.e. b · (2·A − R·K) > R·S with
    R = peak ÷ bandwidth, A the active parameters, S their bytes and K the KV bytes per sequence.
    """
    ridge = peak_flops_total(p) / bandwidth_total(p)
    per_sequence = p["context"] * kv_cache.kv_bytes_per_token(p)
    margin = 2 * active_params(p) - ridge * per_sequence
    if margin <= 0:
        return 0
    b = ridge * streamed_weight_bytes(p) / margin
    if b > 1e12:  # practically never
        return 0
    first = max(1, math.ceil(b))
    while step_flops(p, first) / peak_flops_total(p) <= step_bytes(p, first) / bandwidth_total(p):
        first += 1  # floating-point ties: step past the exact ridge
    return first


def compute(p: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    gpu = GPUS[p["gpu"]]
    n = p["gpus"]
    batch = p["batch"]
    bandwidth = bandwidth_total(p)
    peak = peak_flops_total(p)
    active = active_params(p)

    # Decode step.
    streamed = streamed_weight_bytes(p)
    per_token = kv_cache.kv_bytes_per_token(p)
    kv = batch * p["context"] * per_token
    moved = streamed + kv
    flops = step_flops(p, batch)
    t_memory = moved / bandwidth
    t_compute = flops / peak
    step = max(t_memory, t_compute)
    bound = "compute" if t_compute > t_memory else "memory"

    # Prefill of one prompt: compute at the dense peak, or the weights it touches streamed once.
    prompt = p["prompt_tokens"]
    touched = min(p["params_b"] * 1e9, active * prompt) * bytes_per_element(p["weight_dtype"])
    t_prefill_compute = 2 * active * prompt / peak
    t_prefill_memory = touched / bandwidth
    ttft = max(t_prefill_compute, t_prefill_memory)

    # Memory.
    weights = kv_cache.weight_bytes(p)
    usable = kv_cache.usable_bytes(p)
    total = weights + kv
    fits = total <= usable
    per_gpu_usable = gpu.memory_bytes * (1 - p["reserve_pct"] / 100)
    gpus_needed = math.ceil(total / per_gpu_usable) if per_gpu_usable > 0 else 0
    free = usable - weights
    per_sequence = p["context"] * per_token
    if free <= 0:
        max_batch = 0
    elif per_sequence <= 0:
        max_batch = BATCH_MAX
    else:
        max_batch = int(free // per_sequence)

    tokens_per_s = 1 / step
    cards = f"{n} × {gpu.name}"
    if weights > usable:
        notes.append(
            f"Does not fit: the weights alone ({format_bytes(weights)}) exceed the usable memory of {cards} "
            f"({format_bytes(usable)}). The {format_tokens_per_s(tokens_per_s)} is the bandwidth ceiling of a "
            f"thought experiment; with {gpus_needed} GPUs (tensor parallel) the model fits and the ceiling "
            f"rises about {gpus_needed / n:g}×. Or quantize the weights."
        )
    elif not fits:
        notes.append(
            f"The weights fit, but the KV cache of {format_count(batch)} × {format_count(p['context'])} tokens "
            f"({format_bytes(kv)}) does not: at this context {format_count(max_batch)} sequence(s) fit. "
            f"Lower the batch or context, quantize the KV cache, or use {gpus_needed} GPUs."
        )
    if active < p["params_b"] * 1e9:
        text = (
            f"Mixture of experts: memory holds all {sig(p['params_b'])}B parameters ({format_bytes(weights)}), "
            f"but each step streams only the {sig(active / 1e9)}B active ones ({format_bytes(streamed)})."
        )
        if batch > 1:
            text += (" At batch > 1 different tokens pick different experts, so a real step streams more: "
                     "these speeds are an upper bound.")
        notes.append(text)
    if p["active_params_b"] > p["params_b"]:
        notes.append("Active parameters cannot exceed the total: capped at the total.")
    elif 0 < p["active_params_b"] < ACTIVE_MIN_B:
        notes.append(f"Active parameters below {ACTIVE_MIN_B:g}B are taken as {ACTIVE_MIN_B:g}B (0 means dense).")
    if p["weight_dtype"] in ("int8", "int4"):
        notes.append(
            f"{p['weight_dtype']} is weight-only quantization: fewer bytes to stream, but the multiplications "
            f"run in bf16 ({format_flops(gpu.bf16_flops)} per GPU)."
        )
    elif p["weight_dtype"] in FP8_COMPUTE and gpu.fp8_flops <= gpu.bf16_flops:
        notes.append(f"The {gpu.name} has no fp8 tensor cores: fp8 weights save bytes, not compute time.")
    if n > 1:
        notes.append(
            f"Tensor parallel over {n} GPUs: bandwidth, compute and memory are counted {n}×; the all-reduce "
            f"between GPUs is ignored, so real speeds are lower."
        )

    return {
        "tokens_per_s": tokens_per_s,
        "throughput": batch / step,
        "bound": bound,
        "ttft_s": ttft,
        "fits": fits,
        "step_time_s": step,
        "weight_bytes": weights,
        "streamed_weight_bytes": streamed,
        "kv_bytes_per_token": per_token,
        "kv_bytes": kv,
        "bytes_per_step": moved,
        "arithmetic_intensity": flops / moved,
        "ridge_point": peak / bandwidth,
        "ridge_batch": ridge_batch(p),
        "compute_ceiling": peak / (2 * active),
        "bandwidth": bandwidth,
        "peak_flops": peak,
        "prefill_bound": "compute" if t_prefill_compute >= t_prefill_memory else "memory",
        "total_bytes": total,
        "usable_bytes": usable,
        "gpus_needed": gpus_needed,
        "max_batch": max_batch,
    }, notes


def _round(x: float) -> float:
    """Four significant figures: enough for a chart, short in the HTML."""
    return float(f"{x:.4g}")


def chart(p: Mapping[str, Any], v: Mapping[str, Any]) -> Chart:
    """The roofline: aggregate tokens/s against batch size, under the bandwidth roof and compute ceiling."""
    batches = CHART_BATCHES
    aggregate = [aggregate_tokens_per_s(p, b) for b in batches]
    roof = [b * bandwidth_total(p) / step_bytes(p, b) for b in batches]
    ceiling = v["compute_ceiling"]
    marker = min(range(len(batches)), key=lambda i: abs(math.log2(batches[i]) - math.log2(p["batch"])))
    ridge = v["ridge_batch"]
    gpu = GPUS[p["gpu"]]
    summary = (
        f"On {p['gpus']} × {gpu.name} the ridge point is {sig(v['ridge_point'])} FLOP/byte. Aggregate "
        f"throughput grows from {format_tokens_per_s(aggregate[0])} at batch 1 to "
        f"{format_tokens_per_s(aggregate[-1])} at batch 1,024, under a compute ceiling of "
        f"{format_tokens_per_s(ceiling)}; "
        + (f"at a context of {format_count(p['context'])} tokens the step turns compute-bound from batch "
           f"{format_count(ridge)}." if ridge else
           f"at a context of {format_count(p['context'])} tokens the KV reads keep every batch memory-bound.")
        + f" At batch {format_count(p['batch'])}: {format_tokens_per_s(v['throughput'])} in all, "
          f"{v['bound']}-bound, one step every {format_seconds(v['step_time_s'])}."
    )
    if v["max_batch"] == 0:
        summary += " The weights alone do not fit in memory."
    elif v["max_batch"] < batches[-1]:
        summary += f" Only {format_count(v['max_batch'])} sequence(s) of this context fit in memory."
    return Chart(
        kind="line",
        title="Decode roofline: throughput against batch size",
        x_label="Batch size (sequences, log scale)",
        y_label="Tokens/s, all streams (log scale)",
        labels=[str(b) for b in batches],
        series=[
            {"name": "Aggregate tokens/s", "values": [_round(a) for a in aggregate]},
            {"name": "Memory-bandwidth roof", "values": [_round(r) for r in roof]},
            {"name": "Compute ceiling", "values": [_round(ceiling)] * len(batches), "kind": "rule"},
        ],
        marker=marker,
        summary=summary,
        y_log=True,
    )


SPEC = Calculator(
    id="decode-roofline",
    title="Decode roofline: tokens per second",
    summary="Decode speed per stream and in aggregate, whether a step is memory- or compute-bound, "
            "time to first token and the memory verdict.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
)
