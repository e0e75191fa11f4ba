"""KV cache: how much GPU memory the keys and values of every cached token take, and what fits —
per GPU, the way vLLM places and budgets it.

Per token, grouped-query attention (GQA) stores a key and a value vector per KV head per layer:

    kv_bytes_per_token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element

Multi-head attention is GQA with kv_heads = query heads; multi-query attention has kv_heads = 1.
Multi-head latent attention (MLA, DeepSeek-V2/V3) caches one compressed latent per layer plus a
small decoupled RoPE key, shared by K and V, so there is no factor 2:

    kv_bytes_per_token = layers × (latent_dim + rope_dim) × bytes per element

Windowed layers (Mistral-7B v0.1, Gemma 2 and 3, gpt-oss, Llama 4's chunks) keep at most the
window. Those are the textbook sizes (``kv_bytes_per_*``). The verdict is vLLM's
(:mod:`llm_inference.physics`): the weights, the heads and the layers split over the GPUs (an MLA
latent copied onto each), and per GPU

    Available KV cache memory = memory the driver shows × gpu_memory_utilization
                                − weights − activation peak − non-torch and CUDA-graph memory

cut into 16-token blocks; "maximum concurrency for N tokens" is blocks ÷ blocks per request.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from course_calculators.spec import Calculator, Chart, Computed, Number, Output, Preset
from course_calculators.units import GiB, format_bytes, format_count, format_ratio

from . import physics, scenario
from .hardware import GPUS
from .physics import fleet, kv, weights

CONTEXT_MAX = 1048576

_SHAPE = scenario.model_params("llama-3.1-8b")
_DTYPES = scenario.dtype_params()
_DEPLOY = scenario.deployment_params()
_ENGINE = scenario.engine_params()


def _pick(params, *names):
    table = {p.name: p for p in params}
    return tuple(table[n] for n in names)


PARAMS = (
    *_SHAPE[:2],  # model, config
    *_pick(_SHAPE, "attention", "layers", "kv_heads", "head_dim", "latent_dim", "rope_dim"),
    _pick(_DTYPES, "kv_dtype")[0],
    Number("context", "Context length", 8192, 1, CONTEXT_MAX, unit="tokens", scale="log",
           help="Tokens per sequence: vLLM's max_model_len."),
    Number("concurrency", "Concurrent sequences", 1, 1, 4096, scale="log"),
    *_pick(_SHAPE, "sliding_window", "window_layers", "window_kind", "params_b", "active_params_b", "experts",
           "experts_per_token", "heads", "hidden_size", "intermediate_size", "vocab_size"),
    _pick(_DTYPES, "weight_dtype")[0],
    *_DEPLOY,
    *_ENGINE,
)

OUTPUTS = (
    Output("kv_bytes_per_token", "KV cache per token", "bytes", primary=True),
    Output("kv_bytes_per_sequence", "KV cache per sequence", "bytes"),
    Output("kv_bytes_total", "KV cache, all sequences", "bytes", primary=True),
    Output("weight_bytes", "Weights", "bytes"),
    Output("total_bytes", "Weights + KV cache", "bytes", primary=True),
    Output("fits", "Verdict (vLLM)", "bool", words=("does not fit", "fits"), primary=True,
           help="vLLM starts with this layout and holds the sequences at this context at once."),
    Output("max_sequences", "Sequences that fit at this context", "count",
           help="Whole sequences of this length the GPUs hold at once (vLLM's concurrency, rounded down)."),
    Output("max_context", "Longest context that fits at this concurrency", "count",
           help="Tokens per sequence; 0 when not even one block fits."),
    *scenario.pool_outputs(),
    Output("weight_bytes_per_gpu", "Weights per GPU", "bytes"),
    Output("kv_bytes_per_token_per_gpu", "KV cache per token, per GPU", "bytes",
           help="A GPU's layers and KV heads (the whole MLA latent under tensor parallelism)."),
    Output("kv_replicas", "Copies of each KV head", "count",
           help="GPUs that hold the same KV head: TP ÷ KV heads when TP exceeds them; every GPU for MLA."),
    Output("legal_gpus", "GPU counts vLLM accepts", "text"),
    Output("gpus_needed", "Fewest GPUs that fit", "count", help="A legal size; 0 when none up to 64 fits."),
    Output("cheapest_gpus", "Cheapest listed GPUs that fit", "text",
           help="Each listed GPU at its fewest count that fits, the lowest hourly rent kept: by memory alone "
                "(a cheap card may decode far slower; see decode-roofline)."),
    Output("cheapest_usd_per_hour", "Their price per hour", "usd", precision=2,
           help="On-demand rent (llm_inference/hardware.py, dated); 0 when none fits."),
    Output("model_name", "Model", "text"),
    Output("model_source", "Shape read from", "text"),
)

_LLAMA3_8B = {"model": "llama-3.1-8b", "context": 8192, "concurrency": 1, "kv_dtype": "bf16",
              "weight_dtype": "bf16", "gpu": "h100-sxm", "gpus": 1}
_DEEPSEEK = {**_LLAMA3_8B, "model": "deepseek-v3", "weight_dtype": "fp8", "gpu": "h200", "gpus": 8,
             "context": 131072}

PRESETS = (
    Preset("llama3-8b", "Llama 3 8B", _LLAMA3_8B,
           "2 × 32 layers × 8 KV heads × 128 × 2 bytes = 128 KiB per token: 1 GiB per 8K sequence, and vLLM "
           "on one H100 has room for 52 of them."),
    Preset("llama3-8b-128k", "8B at 128K", {**_LLAMA3_8B, "context": 131072},
           "One 128K-token sequence holds 16 GiB of keys and values — more than the 15 GiB of weights."),
    Preset("llama3-70b", "Llama 3 70B", {**_LLAMA3_8B, "model": "llama-3.1-70b", "gpus": 2},
           "320 KiB per token; 141 GB of bf16 weights need two 80 GB GPUs before any cache."),
    Preset("llama3-70b-tp16", "70B on 16 GPUs", {**_LLAMA3_8B, "model": "llama-3.1-70b", "gpus": 16,
                                                  "context": 131072},
           "Tensor parallel over 16 GPUs, but only 8 KV heads: each is stored on two GPUs, so every GPU "
           "still caches 40 KiB per token."),
    Preset("gpt3-mha", "GPT-3 (MHA)", {**_LLAMA3_8B, "model": "gpt3-175b", "gpus": 8},
           "96 unshared KV heads on 96 layers: 4.5 MiB per token, 36× Llama 3 8B. Grouped-query "
           "attention exists to shrink exactly this."),
    Preset("deepseek-v3-mla", "DeepSeek-V3 (MLA)", _DEEPSEEK,
           "(512 + 64) × 61 layers × 2 bytes = 68.6 KiB per token, no factor 2: 8.58 GiB per 128K sequence. "
           "But under tensor parallelism every H200 holds the whole latent: 5 sequences fit, not 45."),
    Preset("deepseek-v3-dp8", "DeepSeek-V3, DP attention", {**_DEEPSEEK, "attention_parallel": "dp"},
           "Data-parallel attention with expert parallelism: each GPU keeps its own sequences' latents, "
           "so the 8 pools add up — more sequences, though each GPU also holds all the attention weights."),
    Preset("deepseek-v3-as-gqa", "DeepSeek-V3 misread as GQA",
           {**_DEEPSEEK, "model": "custom", **dict(scenario.catalogue_values("deepseek-v3")),
            "attention": "gqa", "kv_heads": 128, "head_dim": 160},
           "The mistake many calculators make: 128 KV heads (K 192-dim, V 128-dim: 160 on average) "
           "in the GQA formula give 4.77 MiB per token, 71× what MLA really caches."),
    Preset("mistral-7b-swa", "Mistral 7B, sliding window", {**_LLAMA3_8B, "model": "mistral-7b-v0.1",
                                                            "context": 32768},
           "Every layer keeps at most 4,096 tokens: past that, the cache stops growing (512 MiB per sequence)."),
)


def compute(p: Mapping[str, Any]) -> Computed:
    notes: list[str] = []
    model = scenario.model_from_inputs(p)
    gpu = GPUS[p["gpu"]]
    layout = scenario.layout_from_inputs(p)
    engine = scenario.engine_from_inputs(p)
    context, concurrency = p["context"], p["concurrency"]

    per_token = kv.bytes_per_token(model, p["kv_dtype"])
    per_sequence = kv.bytes_per_sequence(model, p["kv_dtype"], context)
    kv_total = per_sequence * concurrency
    held = weights.weight_bytes(model, p["weight_dtype"])

    placement = physics.place(model, layout, p["weight_dtype"])
    pool = physics.pool(model, gpu, placement, engine, p["kv_dtype"])
    concurrency_max = pool.concurrency(context)
    sequences = pool.sequences(context)
    fits = pool.holds(context, concurrency)
    longest = pool.longest_context(concurrency, CONTEXT_MAX)
    needed = fleet.fewest_gpus(model, gpu, layout, engine, p["weight_dtype"], p["kv_dtype"], context, concurrency)
    offer = fleet.cheapest(model, layout, engine, p["weight_dtype"], p["kv_dtype"], context, concurrency)
    legal = ", ".join(str(n) for n in fleet.candidate_sizes(model, layout))
    name, source = scenario.model_name(p)

    cards = f"{p['gpus']} × {gpu.name}"
    if not placement.legal:
        notes.append(placement.problem)
    elif pool.available_bytes <= 0:
        notes.append(
            f"vLLM would not start: on each GPU the weights ({format_bytes(placement.weight_bytes_per_gpu)}), "
            f"the activation peak ({format_bytes(pool.activation_bytes)}) and the runtime "
            f"({format_bytes(pool.overhead_bytes)}) exceed the {format_bytes(pool.requested_bytes)} it may use"
            + (f"; {needed} GPUs would fit." if needed else "; no count of these GPUs up to 64 fits."))
    elif not fits:
        notes.append(
            f"vLLM starts, but its {format_bytes(pool.available_bytes)} of KV cache per GPU holds "
            f"{format_ratio(round(concurrency_max, 2))} sequences of {format_count(context)} tokens, not "
            f"{format_count(concurrency)}" + (f"; {needed} GPUs would." if needed else "."))
    if placement.legal and model.is_mla and placement.tensor_parallel > 1:
        notes.append(f"MLA under tensor parallelism: each of the {placement.tensor_parallel} GPUs holds the whole "
                     f"latent cache ({format_bytes(pool.bytes_per_token)} per token). Data-parallel attention "
                     f"(More parameters) gives each GPU its own pool instead.")
    elif placement.legal and placement.kv_replicas > 1:
        notes.append(f"Tensor parallel over {placement.tensor_parallel} GPUs with {model.kv_heads} KV heads: each "
                     f"head is stored on {placement.kv_replicas} GPUs.")
    if layout.attention == physics.DP and not model.is_moe and p["gpus"] > 1:
        notes.append(f"Data-parallel attention on a dense model: {p['gpus']} independent replicas, each holding "
                     f"all the weights.")
    if p["kv_dtype"] == "fp8_ds_mla" and not model.is_mla:
        notes.append("fp8_ds_mla is an MLA layout: a GQA cache in it is plain fp8.")
    if p["kv_dtype"] in ("int8", "int4"):
        notes.append(f"vLLM has no {p['kv_dtype']} KV cache; this is LMDeploy's layout (a scale and a zero "
                     f"point per head and token).")
    if per_token == 0:
        notes.append("The cache per token is 0 bytes: check the head or latent dimensions.")

    values = {
        "kv_bytes_per_token": per_token,
        "kv_bytes_per_sequence": per_sequence,
        "kv_bytes_total": kv_total,
        "weight_bytes": held,
        "total_bytes": held + kv_total,
        "fits": fits,
        "max_sequences": sequences,
        "max_context": longest,
        **scenario.pool_values(pool, context, p["gpus"]),
        "weight_bytes_per_gpu": placement.weight_bytes_per_gpu,
        "kv_bytes_per_token_per_gpu": pool.bytes_per_token,
        "kv_replicas": placement.kv_replicas,
        "legal_gpus": legal or "none",
        "gpus_needed": needed,
        "cheapest_gpus": offer.describe() if offer else "none of the listed GPUs (up to 64)",
        "cheapest_usd_per_hour": offer.usd_per_hour if offer else 0.0,
        "model_name": name,
        "model_source": source,
    }
    return Computed(values, notes, {"pool": pool, "cards": cards})


def _context_label(tokens: int) -> str:
    if tokens >= 1048576:
        return f"{tokens // 1048576}M"
    if tokens >= 1024:
        return f"{tokens // 1024}K"
    return str(tokens)


def chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> Chart:
    """One GPU's memory against context (powers of two): what vLLM may use, and what the weights,
    the activation peak, the runtime and the sequences' KV blocks take."""
    pool = details["pool"]
    contexts = [2**i for i in range(9, 21)]  # 512 … 1M tokens
    fixed = pool.weight_bytes + pool.activation_bytes + pool.overhead_bytes
    per_pool = math.ceil(p["concurrency"] / pool.placement.data_parallel)
    block_bytes = pool.page_bytes * pool.layers_per_group

    def kv_at(c: int) -> float:
        return per_pool * pool.request_blocks(c) * block_bytes

    used = [(fixed + kv_at(c)) / GiB for c in contexts]
    marker = min(range(len(contexts)), key=lambda i: abs(math.log2(contexts[i]) - math.log2(p["context"])))
    gpu = GPUS[p["gpu"]]
    summary = (
        f"On each of {details['cards']}, vLLM may use {format_bytes(pool.requested_bytes)} (usable: "
        f"{p['gpu_memory_utilization']:g} of the {format_bytes(pool.visible_bytes)} the driver shows). Weights take "
        f"{format_bytes(pool.weight_bytes)}, the activation peak {format_bytes(pool.activation_bytes)}, the runtime "
        f"{format_bytes(pool.overhead_bytes)}; the KV cache gets {format_bytes(max(0.0, pool.available_bytes))}. "
        + (f"At {format_count(p['concurrency'])} sequence(s) the longest context that fits is "
           f"{format_count(v['max_context'])} tokens." if v["max_context"] else
           "Not one sequence fits: vLLM would refuse to start.")
    )
    return Chart(
        kind="line",
        title="One GPU's memory against context length",
        x_label="Context length (tokens, log scale)",
        y_label="GiB per GPU",
        labels=[_context_label(c) for c in contexts],
        series=[
            {"name": "Weights + activations + runtime + KV cache", "values": [round(u, 3) for u in used]},
            {"name": "KV cache of the sequences", "values": [round(kv_at(c) / GiB, 3) for c in contexts]},
            {"name": f"vLLM may use ({p['gpu_memory_utilization']:g} × {gpu.id})",
             "values": [round(pool.requested_bytes / GiB, 3)] * len(contexts), "kind": "rule"},
        ],
        marker=marker,
        summary=summary,
    )


SPEC = Calculator(
    id="kv-cache",
    title="KV cache and memory fit",
    summary="Bytes of keys and values per token, per sequence and in total, and what fits: per GPU, as vLLM "
            "places the weights and the cache and budgets its memory.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    resolve=scenario.make_resolve(lambda p: p["context"]),
)
