"""KV cache: how much GPU memory the keys and values of every cached token take, and what fits.

Per token, grouped-query attention (GQA) stores a key and a value vector per KV head per layer:

    kv_bytes_per_token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element

Multi-head attention is GQA with kv_heads = query heads; multi-query attention has kv_heads = 1.
Multi-head latent attention (MLA, DeepSeek-V2/V3) caches one compressed latent per layer plus a
small decoupled RoPE key, shared by K and V, so there is no factor 2:

    kv_bytes_per_token = layers × (latent_dim + rope_dim) × bytes per element

Layers with sliding-window attention (Mistral-7B v0.1, every other layer of Gemma 2) keep at most
``sliding_window`` tokens. The verdict compares weights + KV cache with the *usable* memory of the
chosen GPUs: capacity minus a reserve for activations, CUDA graphs and the runtime (vLLM's default
``gpu_memory_utilization=0.9`` leaves 10%).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from course_calculators.spec import Calculator, Chart, Choice, Number, Output, Preset
from course_calculators.units import GiB, format_bytes, format_count

from .hardware import DTYPE_CHOICES, GPU_CHOICES, GPUS, bytes_per_element

CONTEXT_MAX = 1048576

PARAMS = (
    Choice("attention", "Attention", "gqa", (("gqa", "GQA / MHA / MQA"), ("mla", "MLA (latent)")),
           help="MHA is GQA with KV heads = query heads; MQA is GQA with one KV head."),
    Number("layers", "Layers", 32, 1, 256, unit="layers"),
    Number("kv_heads", "KV heads", 8, 1, 256, unit="heads",
           help="Key/value heads, not query heads: GQA shares each KV head among several query heads."),
    Number("head_dim", "Head dimension", 128, 1, 1024),
    Number("latent_dim", "MLA latent rank", 512, 0, 8192, help="MLA only: the compressed KV latent per layer.", advanced=True),
    Number("rope_dim", "MLA RoPE key dim", 64, 0, 1024, help="MLA only: the decoupled positional key per layer.", advanced=True),
    Choice("kv_dtype", "KV cache precision", "bf16", DTYPE_CHOICES),
    Number("context", "Context length", 8192, 1, CONTEXT_MAX, unit="tokens", scale="log"),
    Number("concurrency", "Concurrent sequences", 1, 1, 4096, scale="log"),
    Number("sliding_window", "Sliding window", 0, 0, 1048576, unit="tokens",
           help="0 for full attention; otherwise windowed layers keep at most this many tokens.", advanced=True),
    Number("window_layers", "Windowed layers", 0, 0, 256, unit="layers",
           help="How many of the layers use the sliding window (all for Mistral-7B v0.1, half for Gemma 2).",
           advanced=True),
    Number("params_b", "Parameters", 8, 0.1, 2000, step=0.1, unit="B", integer=False,
           help="Total parameters in billions (for MoE, all experts: all of them sit in memory)."),
    Choice("weight_dtype", "Weight precision", "bf16", DTYPE_CHOICES),
    Choice("gpu", "GPU", "h100-sxm", GPU_CHOICES),
    Number("gpus", "GPUs", 1, 1, 64),
    Number("reserve_pct", "Memory reserve", 10, 0, 90, unit="%",
           help="Share of GPU memory kept for activations, CUDA graphs and the runtime (vLLM default: 10%)."),
)

OUTPUTS = (
    Output("kv_bytes_per_token", "KV cache per token", "bytes", primary=True),
    Output("kv_bytes_per_sequence", "KV cache per sequence", "bytes"),
    Output("kv_bytes_total", "KV cache, all sequences", "bytes", primary=True),
    Output("weight_bytes", "Weights", "bytes"),
    Output("total_bytes", "Weights + KV cache", "bytes", primary=True),
    Output("usable_bytes", "Usable GPU memory", "bytes"),
    Output("fits", "Verdict", "bool", words=("does not fit", "fits"), primary=True),
    Output("max_sequences", "Sequences that fit at this context", "count"),
    Output("max_context", "Longest context that fits at this concurrency", "count",
           help="Tokens per sequence; 0 when not even the weights fit."),
)

_LLAMA3_8B = {
    "attention": "gqa", "layers": 32, "kv_heads": 8, "head_dim": 128, "kv_dtype": "bf16",
    "context": 8192, "concurrency": 1, "params_b": 8, "weight_dtype": "bf16",
    "sliding_window": 0, "window_layers": 0, "gpu": "h100-sxm", "gpus": 1,
}

PRESETS = (
    Preset("llama3-8b", "Llama 3 8B", _LLAMA3_8B,
           "2 × 32 layers × 8 KV heads × 128 × 2 bytes = 128 KiB per token: 1 GiB per 8K sequence."),
    Preset("llama3-8b-128k", "8B at 128K", {**_LLAMA3_8B, "context": 131072},
           "One 128K-token sequence holds 16 GiB of keys and values — more than the 14.9 GiB of weights."),
    Preset("llama3-70b", "Llama 3 70B", {**_LLAMA3_8B, "layers": 80, "params_b": 70.6, "gpus": 2},
           "320 KiB per token; 141 GB of bf16 weights need two 80 GB GPUs before any cache."),
    Preset("gpt3-mha", "GPT-3 (MHA)",
           {**_LLAMA3_8B, "layers": 96, "kv_heads": 96, "params_b": 175, "gpus": 8},
           "96 unshared KV heads on 96 layers: 4.5 MiB per token, 36× Llama 3 8B. Grouped-query "
           "attention exists to shrink exactly this."),
    Preset("deepseek-v3-mla", "DeepSeek-V3 (MLA)",
           {**_LLAMA3_8B, "attention": "mla", "layers": 61, "latent_dim": 512, "rope_dim": 64,
            "params_b": 671, "weight_dtype": "fp8", "gpu": "h200", "gpus": 8, "context": 131072},
           "(512 + 64) × 61 layers × 2 bytes = 68.6 KiB per token, no factor 2: a 128K sequence "
           "costs 8.58 GiB, where 128 full KV heads would cost about 70× more."),
    Preset("deepseek-v3-as-gqa", "DeepSeek-V3 misread as GQA",
           {**_LLAMA3_8B, "layers": 61, "kv_heads": 128, "head_dim": 160, "params_b": 671,
            "weight_dtype": "fp8", "gpu": "h200", "gpus": 8, "context": 131072},
           "The mistake many calculators make: 128 KV heads (K 192-dim, V 128-dim: 160 on average) "
           "in the GQA formula give 4.77 MiB per token, 71× what MLA really caches."),
    Preset("mistral-7b-swa", "Mistral 7B, sliding window",
           {**_LLAMA3_8B, "params_b": 7.24, "sliding_window": 4096, "window_layers": 32, "context": 32768},
           "Every layer keeps at most 4,096 tokens: past that, the cache stops growing (512 MiB per sequence)."),
)


def kv_bytes_per_token(p: Mapping[str, Any]) -> float:
    """Bytes of keys and values one token adds to the cache, over all layers."""
    element = bytes_per_element(p["kv_dtype"])
    if p["attention"] == "mla":
        return p["layers"] * (p["latent_dim"] + p["rope_dim"]) * element
    return 2 * p["layers"] * p["kv_heads"] * p["head_dim"] * element


def _split_layers(p: Mapping[str, Any]) -> tuple[float, float, int]:
    """Per-token bytes of full-attention layers and of windowed layers, and the window (0: none)."""
    per_token = kv_bytes_per_token(p)
    window = p["sliding_window"]
    windowed = min(p["window_layers"], p["layers"]) if window else 0
    share = windowed / p["layers"]
    return per_token * (1 - share), per_token * share, window


def kv_bytes_per_sequence(p: Mapping[str, Any], context: float) -> float:
    """Cache of one sequence of ``context`` tokens; windowed layers stop at the window."""
    full, windowed, window = _split_layers(p)
    return full * context + windowed * (min(context, window) if window else context)


def longest_context(p: Mapping[str, Any], budget: float) -> int:
    """The most tokens one sequence can hold within ``budget`` bytes of cache (inverse of the above)."""
    full, windowed, window = _split_layers(p)
    if budget <= 0:
        return 0
    if not window or windowed == 0:
        return int(budget // (full + windowed))
    at_window = (full + windowed) * window
    if budget < at_window:
        return int(budget // (full + windowed))
    if full == 0:  # every layer windowed: the cache stops growing, any context fits
        return CONTEXT_MAX
    return int(window + (budget - at_window) // full)


def weight_bytes(p: Mapping[str, Any]) -> float:
    return p["params_b"] * 1e9 * bytes_per_element(p["weight_dtype"])


def usable_bytes(p: Mapping[str, Any]) -> float:
    return GPUS[p["gpu"]].memory_bytes * p["gpus"] * (1 - p["reserve_pct"] / 100)


def compute(p: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    per_token = kv_bytes_per_token(p)
    per_sequence = kv_bytes_per_sequence(p, p["context"])
    kv_total = per_sequence * p["concurrency"]
    weights = weight_bytes(p)
    usable = usable_bytes(p)
    total = weights + kv_total
    free = usable - weights
    max_sequences = int(free // per_sequence) if free > 0 and per_sequence > 0 else 0
    if per_token == 0:
        notes.append("The cache per token is 0 bytes: check the head or latent dimensions.")
        max_context = CONTEXT_MAX if free > 0 else 0
    else:
        max_context = min(longest_context(p, free / p["concurrency"]), CONTEXT_MAX)
    gpu = GPUS[p["gpu"]]
    if weights > usable:
        notes.append(
            f"The weights alone ({format_bytes(weights)}) exceed the usable memory of "
            f"{p['gpus']} × {gpu.name} ({format_bytes(usable)}): add GPUs or quantize."
        )
    elif total > usable:
        notes.append(
            f"Weights + KV cache need {format_bytes(total)}, {format_bytes(total - usable)} more than "
            f"the {format_bytes(usable)} usable; at this context {format_count(max_sequences)} "
            f"sequence(s) fit."
        )
    if p["attention"] == "gqa" and p["window_layers"] > p["layers"] and p["sliding_window"]:
        notes.append(f"Only {p['layers']} layers exist: all of them use the window.")
    return {
        "kv_bytes_per_token": per_token,
        "kv_bytes_per_sequence": per_sequence,
        "kv_bytes_total": kv_total,
        "weight_bytes": weights,
        "total_bytes": total,
        "usable_bytes": usable,
        "fits": total <= usable,
        "max_sequences": max_sequences,
        "max_context": max_context,
    }, notes


def _context_label(tokens: int) -> str:
    if tokens >= 1048576:
        return f"{tokens // 1048576}M"
    if tokens >= 1024:
        return f"{tokens // 1024}K"
    return str(tokens)


def chart(p: Mapping[str, Any], v: Mapping[str, Any]) -> Chart:
    """Weights + KV cache against context (powers of two), with the usable-memory line."""
    contexts = [2**i for i in range(9, 21)]  # 512 … 1M tokens
    totals = [(v["weight_bytes"] + kv_bytes_per_sequence(p, c) * p["concurrency"]) / GiB for c in contexts]
    kv = [kv_bytes_per_sequence(p, c) * p["concurrency"] / GiB for c in contexts]
    usable = v["usable_bytes"] / GiB
    marker = min(range(len(contexts)), key=lambda i: abs(math.log2(contexts[i]) - math.log2(p["context"])))
    gpu = GPUS[p["gpu"]]
    fits_up_to = v["max_context"]
    summary = (
        f"At {format_count(p['context'])} tokens × {format_count(p['concurrency'])} sequence(s), weights plus "
        f"KV cache take {format_bytes(v['total_bytes'])} against {format_bytes(v['usable_bytes'])} usable on "
        f"{p['gpus']} × {gpu.name}; "
        + (f"the longest context that fits is {format_count(fits_up_to)} tokens." if fits_up_to
           else "the weights alone do not fit.")
    )
    return Chart(
        kind="line",
        title="Memory against context length",
        x_label="Context length (tokens, log scale)",
        y_label="GiB",
        labels=[_context_label(c) for c in contexts],
        series=[
            {"name": "Weights + KV cache", "values": [round(t, 3) for t in totals]},
            {"name": "KV cache", "values": [round(k, 3) for k in kv]},
            {"name": f"Usable memory ({p['gpus']} × {gpu.id})", "values": [round(usable, 3)] * len(contexts),
             "kind": "rule"},
        ],
        marker=marker,
        summary=summary,
    )

SPEC = Calculator(
    id="kv-cache",
    title="KV cache and memory fit",
    summary="Bytes of keys and values per token, per sequence and in total, against the GPUs' usable memory.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
)
