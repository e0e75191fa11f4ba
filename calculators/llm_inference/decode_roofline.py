"""Decode roofline: how fast a GPU (or a group of them) can generate tokens, and how fast real
engines do.

Each decode step produces one token for every sequence in the batch, and to do so streams every
weight the step touches from GPU memory once, plus the keys and values each sequence has cached:

    bytes per step = weights touched × bytes per weight + batch × KV bytes per sequence
    FLOPs per step = 2 × active parameters × batch
    step time      = max(bytes ÷ bandwidth, FLOPs ÷ peak compute)      (per GPU: its share)
    tokens/s       = 1 ÷ step time (one stream);  throughput = batch ÷ step time (all streams)

The step is *memory-bound* while its arithmetic intensity (FLOPs ÷ bytes) stays below the GPU's
ridge point (peak FLOP/s ÷ bandwidth: 989e12 ÷ 3.35e12 ≈ 295 FLOP/byte on an H100 SXM in bf16).
In bf16 with a short context the intensity is about the batch size, so a 70B model needs a batch
of roughly 300 before compute becomes the limit; KV reads add bytes without adding weight FLOPs,
so a longer context pushes that ridge batch higher (or out of reach).

The ceiling (``tokens_per_s``) is what no engine passes. What the physics (:mod:`llm_inference.physics`)
adds beside it:

* a mixture of experts holds every expert but streams only those the batch touches:
  E × (1 − (1 − k/E)^B) per layer, plus the shared part;
* tensor parallelism splits the weights and the KV heads (an MLA latent is read whole by every
  GPU) and all-reduces twice per layer: the link's latency per all-reduce (6 µs on NVLink 4,
  47 µs across nodes) goes into ``estimate_tokens_per_s``, with a per-step floor you set;
* the memory verdict is vLLM's, per GPU (see kv-cache), and ``gpus_needed`` a size vLLM accepts;
* published measurements of real engines are drawn beside the ceiling, each with its share of it,
  and every ceiling output says it is one: beside the tokens/s of one stream and the time to
  first token sits the *measured band*, the ceiling times the lowest and highest share of their
  own ceiling that published runs of the same scope (one node, or across nodes) reached
  (:mod:`llm_inference.physics.measured`); the batch where compute takes over reads "never" when
  the KV reads keep every batch memory-bound.

Simplifications, each a ceiling rather than a forecast: attention FLOPs (a few percent at
ordinary contexts) are left out; peak compute is the dense figure (H100 SXM bf16: 989 TFLOP/s,
not the 2:4-sparse 1,979); fp8 weights use the fp8 tensor rate, int8 and int4 are weight-only
(dequantized and multiplied in bf16). Prefill of one prompt: 2 × active parameters × prompt
tokens FLOPs at the dense peak, bounded below by streaming the weights the prompt touches once.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Mapping

from course_calculators.spec import Calculator, Chart, Computed, Number, Output, Preset
from course_calculators.units import format_bytes, format_count, format_seconds, sig

from . import answers, engine_choice, lora_notes, physics, scenario, scenario_params, speculation_outputs
from .hardware import GPUS
from .physics import fleet, kv, measured
from .physics.speed import peak_flops
from .weight_breakdown import breakdown_text
from .units import format_flops, format_tokens_per_s

BATCH_MAX = 4096
CONTEXT_MAX = 1048576
#: Batch sizes of the roofline chart: powers of two, 1 … 1024.
CHART_BATCHES = tuple(2**i for i in range(11))

_SHAPE = {p.name: p for p in scenario_params.model_params("llama-3.1-70b")}
_DTYPES = {p.name: p for p in scenario_params.dtype_params()}
_DEPLOY = {p.name: p for p in scenario_params.deployment_params()}
_ENGINE = {p.name: p for p in scenario_params.engine_params()}

PARAMS = (
    _SHAPE["model"],
    _SHAPE["config"],
    replace(_SHAPE["params_b"], label="Parameters (total)"),
    replace(_SHAPE["active_params_b"], advanced=False,
            help="Parameters each token uses, in billions (DeepSeek-V3: 37 of 671). 0 means a dense model: all "
                 "parameters are active. Values above the total are capped at the total; other values below "
                 "0.1 are raised to 0.1."),
    replace(_DTYPES["weight_dtype"], help="As shipped: the checkpoint's own formats (gpt-oss's MXFP4 experts stream "
                                          "at 4.25 bits, its attention at 16). W8A8 formats run on the fp8/int8 tensor "
                                          "cores; int8, int4, AWQ and MXFP4 are weight-only: "
                                          "fewer bytes, but the multiplications run in bf16."),
    _DTYPES["kv_dtype"],
    _DEPLOY["gpu"],
    replace(_DEPLOY["gpus"], label="GPUs (tensor parallel)"),
    Number("batch", "Batch (concurrent streams)", 1, 1, BATCH_MAX, scale="log", scenario="concurrency",
           help="Sequences decoded together: one weight read serves all of them."),
    Number("context", "Context per sequence", 1024, 1, CONTEXT_MAX, unit="tokens", scale="log", scenario="context",
           help="Tokens already cached per sequence; every step reads all their keys and values."),
    Number("prompt_tokens", "Prompt length", 1024, 1, CONTEXT_MAX, unit="tokens", scale="log",
           help="For the time to first token: the prefill of one prompt of this length."),
    Number("step_floor_ms", "Engine step floor", 0, 0, 100, step=0.1, unit="ms", integer=False,
           help="The shortest step the engine takes whatever the model (scheduling, kernel launches, "
                "sampling): the estimate never goes below it. 0 leaves it out."),
    *(replace(_SHAPE[n], advanced=True) for n in scenario.MODEL_FILLS
      if n not in ("params_b", "active_params_b")),
    _DEPLOY["pipeline_stages"],
    _DEPLOY["attention_parallel"],
    _DEPLOY["expert_parallel"],
    _DEPLOY["redundant_experts"],
    *_ENGINE.values(),
    *speculation_outputs.SPEED_PARAMS,
)

OUTPUTS = (
    Output("tokens_per_s", "Tokens/s, one stream (ceiling)", "tokens_per_s", primary=True,
           help="1 ÷ step time at the roofline: the generation speed one user sees, at best."),
    Output("tokens_per_s_measured", "Tokens/s, one stream (measured band)", "text", primary=True,
           help="This ceiling times the lowest and the highest share of their own ceiling that published "
                "decode runs reached (on one node, or across nodes, as here): where engines land. The runs "
                "are listed under the details."),
    Output("throughput", "Tokens/s, all streams (ceiling)", "tokens_per_s", primary=True,
           help="Batch ÷ step time: what the GPUs produce in total, at best."),
    Output("estimate_tokens_per_s", "Tokens/s, one stream (ceiling with all-reduces and step floor)",
           "tokens_per_s",
           help="The ceiling once tensor-parallel communication and the engine's per-step floor are added: still "
                "above what engines measure (see the measured band and the second chart)."),
    Output("bound", "Decode step is", "text", primary=True,
           help="'memory' while the step's arithmetic intensity is below the ridge point, else 'compute'."),
    Output("ttft_s", "Time to first token (ceiling)", "seconds", primary=True,
           help="The soonest the first token can come: prefill of one prompt, 2 × active parameters × prompt "
                "tokens FLOPs at the dense peak of the GPUs, or the time to stream the weights once if that is "
                "longer (short prompts). No queueing, no server."),
    Output("ttft_measured", "Time to first token (measured band)", "text", primary=True,
           help="This ceiling divided by the highest and the lowest share of their own prefill ceiling that "
                "published times to first token reached, one request at a time (on one node, or across "
                "nodes, as here). The runs are listed under the details."),
    Output("fits", "Memory verdict (vLLM)", "bool", words=("does not fit", "fits"), primary=True,
           help="vLLM starts with this layout and holds batch sequences of this context at once."),
    Output("step_time_s", "Time per decode step (ceiling)", "seconds"),
    Output("estimate_step_s", "Time per decode step (ceiling with all-reduces and step floor)", "seconds"),
    Output("estimate_throughput", "Tokens/s, all streams (ceiling with all-reduces and step floor)",
           "tokens_per_s"),
    Output("allreduce_s", "Tensor-parallel all-reduces per step", "seconds",
           help="2 per layer, each the link's latency plus its bytes over the link."),
    Output("weight_bytes", "Weights in memory (all parameters)", "bytes",
           help="Every tensor in its format, scales included, as vLLM holds it (one GPU's worth)."),
    Output("weight_format", "Weights stored as", "text"),
    Output("weight_breakdown", "Weights by tensor group", "text"),
    Output("streamed_weight_bytes", "Weights streamed per step", "bytes",
           help="All of a dense model; for MoE the shared part plus the experts this batch touches."),
    Output("experts_touched", "Experts touched per MoE layer", "count",
           help="E × (1 − (1 − k/E)^batch), routing taken as uniform; 0 for a dense model."),
    Output("kv_bytes_per_token", "KV cache per token", "bytes"),
    Output("kv_bytes", "KV cache read per step (batch × context)", "bytes",
           help="With a hybrid model's recurrent states, each read and written back once per step. MiniMax-M3's "
                "sparse layers read all their index keys but K and V of their top-k blocks only."),
    Output("bytes_per_step", "Bytes moved per step", "bytes"),
    Output("bytes_per_gpu", "Bytes moved per step, per GPU", "bytes",
           help="Its share of the weights and its KV heads (the whole latent for MLA)."),
    Output("arithmetic_intensity", "Arithmetic intensity (FLOP/byte)", "count",
           help="FLOPs of a decode step ÷ bytes it moves, on one GPU."),
    Output("ridge_point", "Ridge point (FLOP/byte)", "count",
           help="Peak FLOP/s ÷ bandwidth: the intensity above which the GPU is compute-bound."),
    Output("ridge_batch", "Batch where compute takes over", "text",
           help="The smallest batch whose step is compute-bound at this context; 'never' when the KV reads "
                "keep every batch memory-bound."),
    Output("compute_ceiling", "Compute ceiling, all streams", "tokens_per_s",
           help="Peak FLOP/s ÷ (2 × active parameters): no batch size gets past it."),
    Output("bandwidth", "Memory bandwidth, all GPUs", "bandwidth"),
    Output("peak_flops", "Dense peak compute, all GPUs", "flops"),
    Output("prefill_bound", "Prefill (ceiling) is", "text"),
    Output("total_bytes", "Weights + KV cache", "bytes"),
    *scenario.pool_outputs(),
    Output("gpus_needed", "GPUs needed to fit", "count",
           help="The fewest GPUs of this kind, in a size vLLM accepts, that hold the batch at this context."),
    Output("max_batch", "Sequences that fit at this context", "count", help="0 when not even one fits."),
    Output("measured", "Measured on this configuration", "text",
           help="A published run of this model on these GPUs, if the chapter has one."),
    Output("measured_share", "Measured share of the ceiling", "fraction",
           help="The published step's speed ÷ this ceiling at its batch and context; 0 when none."),
    Output("measured_band", "Published decode runs, share of their ceiling", "text",
           help="The range behind the tokens/s band, with the runs and engines it comes from."),
    Output("ttft_measured_band", "Published times to first token, share of their ceiling", "text",
           help="The range behind the time-to-first-token band, with the runs and engines it comes from."),
    Output("model_name", "Model", "text"),
    Output("model_source", "Shape read from", "text"),
)
OUTPUTS = answers.grouped((*OUTPUTS, *speculation_outputs.SPEED_OUTPUTS), answers.DECODE_ROOFLINE_GROUPS)

_LLAMA3_70B = {
    "model": "custom", "params_b": 70, "active_params_b": 0, "weight_dtype": "bf16", "kv_dtype": "bf16",
    "gpu": "h100-sxm", "gpus": 1, "batch": 1, "context": 1024, "prompt_tokens": 1024,
}
_DEEPSEEK = {**{k: v for k, v in _LLAMA3_70B.items() if k not in ("params_b", "active_params_b")},
             "model": "deepseek-v3", "weight_dtype": "shipped", "gpu": "h200", "gpus": 8}

PRESETS = (
    Preset("h100-70b-bf16", "H100 + 70B bf16", _LLAMA3_70B,
           "3.35 TB/s ÷ 140 GB (130 GiB) of bf16 weights ≈ 24 tokens/s per stream, at any price — and "
           "those weights do not even fit one 80 GB H100: the ceiling of a thought experiment."),
    Preset("h100-70b-bf16-tp2", "2 × H100 (tensor parallel)", {**_LLAMA3_70B, "gpus": 2},
           "Split over two GPUs the weights fit, and each step reads half of them from each card: "
           "about 48 tokens/s, twice one GPU's ceiling; 160 all-reduces per step bring it to 46."),
    Preset("h100-70b-int4", "70B in int4", {**_LLAMA3_70B, "weight_dtype": "int4"},
           "4-bit weights are 35 GB: they fit one H100 and stream four times faster, about 95 tokens/s."),
    Preset("deepseek-v3-moe", "DeepSeek-V3 (MoE)", {**_DEEPSEEK, "params_b": 671, "active_params_b": 37,
                                                     "model": "custom", "weight_dtype": "fp8-block", **{
                                                         k: v for k, v in scenario.catalogue_values("deepseek-v3")
                                                         if k not in ("params_b", "active_params_b")}},
           "Memory holds all 671 GB of fp8 weights, but one token streams only the 37 GB of active "
           "experts: 18× faster than a dense model of the same size."),
    Preset("deepseek-v3-batch-64", "DeepSeek-V3, batch 64", {**_DEEPSEEK, "batch": 64},
           "64 tokens touch about 222 of each layer's 256 experts: a step streams most of the model, "
           "not 37B parameters, and the measured run sits at half of this ceiling."),
    Preset("nim-70b-fp8-tp2", "Llama 3.3 70B fp8, 2 × H100", {
        **_LLAMA3_70B, "model": "llama-3.3-70b", "params_b": 70.553706496, "weight_dtype": "fp8", "gpus": 2,
        "context": 5250, "prompt_tokens": 5000},
           "NVIDIA NIM measured 18.58 ms between tokens here: 58% of the 10.8 ms ceiling. The all-reduces "
           "explain 1 ms of the gap; kernels at batch 1 the rest."),
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


def _steps(model, placement, gpu, p, w):
    floor = p["step_floor_ms"] / 1e3

    def step_at(batch: int) -> physics.Step:
        return physics.decode_step(model, placement, gpu, w, p["kv_dtype"], batch, p["context"], floor)

    return step_at


def _not_computed(notes: list[str]) -> Computed:
    return Computed({o.name: None for o in OUTPUTS}, notes, {"step_at": None, "seen": [], "cards": ""})


def compute(p: Mapping[str, Any]) -> Computed:
    notes: list[str] = []
    if scenario.refused(p):
        return _not_computed(notes)
    deployment, weight_notes = engine_choice.deployment_from_inputs(p)
    model, gpu, engine, w = deployment.model, deployment.gpu, deployment.engine, deployment.weights
    n = p["gpus"]
    batch = p["batch"]
    refused = scenario.refused_note(w)
    pool = deployment.pool
    placement = pool.placement
    step_at = _steps(model, placement, gpu, p, w)
    step = step_at(batch)
    first = physics.prefill(model, placement, gpu, w, p["prompt_tokens"])
    peak = peak_flops(gpu, w) * n
    bandwidth = gpu.bandwidth * n

    per_token = kv.bytes_per_token(model, p["kv_dtype"])
    state = kv.state_bytes_per_sequence(model, engine.version)
    kv_read = batch * (kv.read_bytes_per_sequence(model, p["kv_dtype"], p["context"]) + 2 * state)
    held = w.total_bytes
    max_batch = pool.sequences(p["context"])
    fits = pool.holds(p["context"], batch)
    needed = 0 if refused else fleet.fewest_gpus(deployment, p["context"], batch)
    name, source = scenario.model_name(p)

    precision = scenario.precision_word(w)
    seen = measured.matching(p["model"], p["gpu"], n, precision) if p["model"] != scenario.CUSTOM else []
    here = min(seen, key=lambda j: abs(math.log(j.point.concurrency / batch)), default=None)
    if here and not refused:
        mine = physics.decode_step(model, placement, gpu, w, p["kv_dtype"], here.point.concurrency,
                                   here.point.input_tokens + here.point.output_tokens / 2)
        share = mine.roofline_s * 1e3 / here.point.step_ms
        seen_text = (f"{here.point.engine} {here.point.engine_version}, batch {here.point.concurrency}: "
                     f"{here.point.step_ms:.2f} ms per token, {share:.0%} of the ceiling")
    else:
        share, seen_text = 0.0, "none published for this model, GPU and count"

    tokens_per_s = 1 / step.roofline_s
    ridge = physics.ridge_batch(step_at)
    decode_band, prefill_band = measured.decode_band(n), measured.prefill_band(n)
    cards = f"{n} × {gpu.name}"
    if refused:
        notes.append(refused)
    elif not placement.legal:
        notes.append(placement.problem)
    elif pool.available_bytes <= 0 or pool.num_blocks == 0:
        notes.append(
            f"Does not fit: on each GPU the weights ({format_bytes(placement.weight_bytes_per_gpu)}) and vLLM's "
            f"activations and runtime leave no room for the KV cache on {cards}. The "
            f"{format_tokens_per_s(tokens_per_s)} is the bandwidth ceiling of a thought experiment"
            + (f"; with {needed} GPUs (tensor parallel) the model fits and the ceiling rises about "
               f"{needed / n:g}×." if needed else ".") + " Or quantize the weights.")
    elif not fits:
        notes.append(
            f"The weights fit, but the KV cache of {format_count(batch)} × {format_count(p['context'])} tokens "
            f"does not: at this context {format_count(max_batch)} sequence(s) fit. Lower the batch or context, "
            f"quantize the KV cache" + (f", or use {needed} GPUs." if needed else "."))
    if model.active < model.total_params:
        text = (f"Mixture of experts: memory holds all {sig(model.total_params / 1e9)}B parameters "
                f"({format_bytes(held)}), but one token streams only the {sig(model.active / 1e9)}B active ones")
        if model.is_moe and batch > 1:
            text += (f"; this batch of {format_count(batch)} touches {sig(step.experts_touched)} of each layer's "
                     f"{model.experts} experts, so a step streams {format_bytes(step.streamed_weight_bytes)}.")
        elif not model.is_moe:
            text += ("; give the experts per layer and per token (More parameters) to see how a batch touches "
                     "more of them.")
        else:
            text += "."
        notes.append(text)
    if p["active_params_b"] > p["params_b"]:
        notes.append("Active parameters cannot exceed the total: capped at the total.")
    elif 0 < p["active_params_b"] < scenario.ACTIVE_MIN_B:
        notes.append(f"Active parameters below {scenario.ACTIVE_MIN_B:g}B are taken as "
                     f"{scenario.ACTIVE_MIN_B:g}B (0 means dense).")
    if w.compute == "bf16" and w.plan.scheme.quantized and not refused:
        notes.append(
            f"{w.plan.scheme.label}: weight-only on the {gpu.name}: fewer bytes to stream, but the "
            f"multiplications run in bf16 ({format_flops(gpu.bf16_flops)} per GPU).")
    elif w.compute in ("fp8", "int8") and gpu.fp8_flops <= gpu.bf16_flops:
        notes.append(f"The {gpu.name} has no fp8 tensor cores: 8-bit weights save bytes, not compute time.")
    notes.extend(lora_notes.notes(pool))
    notes.extend(weight_notes)
    if step.allreduce_s > 0:
        notes.append(
            f"Tensor parallel over {placement.tensor_parallel} GPUs: {2 * placement.layers_per_gpu} all-reduces "
            f"per step take {format_seconds(step.allreduce_s)}, which the ceiling leaves out and the estimate "
            f"adds" + (f" ({step.allreduce_note})." if step.allreduce_note else "."))
    if placement.legal and model.is_mla and placement.tensor_parallel > 1:
        notes.append("MLA under tensor parallelism: every GPU reads the whole latent cache of every sequence.")
    if model.is_hybrid:
        notes.append(f"{model.state_layers} recurrent layers: each step reads and writes back every sequence's "
                     f"{format_bytes(state)} state, whatever its context (counted with the KV reads).")
    if pool.problem:
        notes.append(f"{engine_choice.engine_name(deployment)} refuses this: {pool.problem}.")
    spec_values, spec_notes = speculation_outputs.speed_values(deployment, p, batch, tokens_per_s)
    notes.extend(spec_notes)

    zero = bool(refused)  # nothing that depends on the weights is computed from another format
    values = {
        "tokens_per_s": tokens_per_s,
        "throughput": batch * tokens_per_s,
        "estimate_tokens_per_s": 1 / step.estimate_s,
        "bound": step.bound,
        "ttft_s": first.seconds,
        "ttft_measured": _ttft_band(first.seconds, prefill_band),
        "tokens_per_s_measured": _speed_band(tokens_per_s, decode_band),
        "fits": fits,
        "step_time_s": step.roofline_s,
        "estimate_step_s": step.estimate_s,
        "estimate_throughput": batch / step.estimate_s,
        "allreduce_s": step.allreduce_s * step.stages,
        "weight_bytes": held,
        "weight_format": f"not modelled: {w.refused}" if zero else w.plan.scheme.label,
        "weight_breakdown": breakdown_text(w),
        "streamed_weight_bytes": step.streamed_weight_bytes,
        "experts_touched": step.experts_touched,
        "kv_bytes_per_token": per_token,
        "kv_bytes": kv_read,
        "bytes_per_step": step.streamed_weight_bytes + kv_read,
        "bytes_per_gpu": step.bytes_per_gpu,
        "arithmetic_intensity": step.intensity,
        "ridge_point": peak / bandwidth,
        "ridge_batch": format_count(ridge) if ridge else NEVER,
        "compute_ceiling": peak / (2 * model.active),
        "bandwidth": bandwidth,
        "peak_flops": peak,
        "prefill_bound": first.bound,
        "total_bytes": held + kv_read,
        **scenario.pool_values(pool, p["context"], n),
        "gpus_needed": needed,
        "max_batch": max_batch,
        "measured": seen_text,
        "measured_share": share,
        "measured_band": decode_band.describe() if decode_band else NONE_PUBLISHED,
        "ttft_measured_band": prefill_band.describe() if prefill_band else NONE_PUBLISHED,
        "model_name": name,
        "model_source": source,
        **spec_values,
    }
    if pool.unmodelled:
        notes.append(f"Not modelled: {pool.unmodelled}. vLLM's memory verdict is not computed.")
        values.update({name: None for name in ("fits", "kv_cache_tokens", "max_concurrency", "gpus_needed",
                                                "max_batch", *lora_notes.unknown(pool)) if name in values})
    if zero:  # nothing that depends on the weights is computed from another format
        values.update({name: None for name in values if name not in _WEIGHT_FREE})
    return Computed(values, notes, {"step_at": step_at, "seen": seen, "cards": cards, "ridge": ridge,
                                    "weights": w, "refused": zero})


#: Outputs that do not depend on the weights' bytes (the rest are not computed when the
#: checkpoint's format is not modelled).
_WEIGHT_FREE = ("kv_bytes_per_token", "kv_bytes", "ridge_point", "compute_ceiling", "bandwidth", "peak_flops",
                "usable_bytes", "activation_bytes", "model_name", "model_source", "weight_format",
                "weight_breakdown", "measured", "measured_band", "ttft_measured_band", "experts_touched",
                "allreduce_s")

#: What the ridge batch says when no batch turns the step compute-bound.
NEVER = "never"
NONE_PUBLISHED = "none published"


def _span(low: str, high: str) -> str:
    """'213–715 ms' from '213 ms' and '715 ms'; '850 ms – 1.2 s' across units; one figure if equal."""
    if low == high:
        return low
    (a, unit_a), (b, unit_b) = low.split(" ", 1), high.split(" ", 1)
    return f"{a}–{b} {unit_a}" if unit_a == unit_b else f"{low} – {high}"


def _speed_band(ceiling: float, band: measured.Band | None) -> str:
    """'4.26–18.7 tokens/s': the ceiling times the band's lowest and highest share."""
    if band is None:
        return NONE_PUBLISHED
    return _span(format_tokens_per_s(ceiling * band.low), format_tokens_per_s(ceiling * band.high))


def _ttft_band(ceiling_s: float, band: measured.Band | None) -> str:
    """'213–715 ms': the ceiling over the band's highest and lowest share."""
    if band is None:
        return NONE_PUBLISHED
    return _span(format_seconds(ceiling_s / band.high), format_seconds(ceiling_s / band.low))


def _round(x: float) -> float:
    """Four significant figures: enough for a chart, short in the HTML."""
    return float(f"{x:.4g}")


def _xy(name: str, kind: str, xs, ys, **extra) -> dict[str, Any]:
    """An xy series that also carries ``values``, one per x, for a renderer that draws categories."""
    ys = [_round(y) for y in ys]
    return {"name": name, "kind": kind, "points": [[x, y] for x, y in zip(xs, ys)], "values": ys, **extra}


def roofline_chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> Chart:
    """Aggregate tokens/s against batch size: the ceiling, its memory and compute roofs, and the
    estimate with all-reduces and the step floor (numeric axes; ``labels`` name the same batches).
    Nothing is drawn from a substituted format when the weights' format is not modelled."""
    if details["refused"]:
        return Chart(kind="xy", x_log=True, y_log=True, title="Decode roofline: throughput against batch size",
                     x_label="Batch size (sequences, log scale)", y_label="Tokens/s, all streams (log scale)",
                     labels=["1"], series=[_xy("Roofline ceiling (not computed)", "line", [1], [1])],
                     summary="Not computed: the weights' format is not modelled (see the notes).")
    step_at = details["step_at"]
    seen = details["seen"]
    batches = sorted(set(CHART_BATCHES) | {p["batch"]})
    steps = [step_at(b) for b in batches]
    ceiling = v["compute_ceiling"]
    series = [
        _xy("Roofline ceiling", "line", batches, [b / s.roofline_s for b, s in zip(batches, steps)]),
        _xy("Memory-bandwidth roof", "line", batches, [b / (s.stages * s.memory_s) for b, s in zip(batches, steps)]),
        _xy("Compute ceiling", "line", batches, [ceiling] * len(batches)),
        _xy("With all-reduces and the step floor", "line", batches, [b / s.estimate_s for b, s in zip(batches, steps)]),
    ]
    gpu = GPUS[p["gpu"]]
    ridge = details["ridge"]
    summary = (
        f"On {p['gpus']} × {gpu.name} the ridge point is {sig(v['ridge_point'])} FLOP/byte. The ceiling on "
        f"aggregate throughput grows from {format_tokens_per_s(1 / steps[0].roofline_s)} at batch 1 under a "
        f"compute ceiling of {format_tokens_per_s(ceiling)}; "
        + (f"at a context of {format_count(p['context'])} tokens the step turns compute-bound from batch "
           f"{format_count(ridge)}." if ridge else
           f"at a context of {format_count(p['context'])} tokens the KV reads keep every batch memory-bound.")
        + f" At batch {format_count(p['batch'])}: {format_tokens_per_s(v['throughput'])} in all at the ceiling, "
          f"{format_tokens_per_s(v['estimate_throughput'])} with all-reduces and the step floor, "
          f"{v['bound']}-bound."
    )
    if seen:
        summary += " Measured on this configuration: " + "; ".join(j.label() for j in seen) + "."
    if v["max_batch"] is None:
        summary += " vLLM's memory verdict is not computed for this layout."
    elif v["max_batch"] == 0:
        summary += " The weights alone do not fit in memory."
    elif v["max_batch"] < batches[-1]:
        summary += f" Only {format_count(v['max_batch'])} sequence(s) of this context fit in memory."
    return Chart(
        kind="xy", x_log=True, y_log=True,
        title="Decode roofline: throughput against batch size",
        x_label="Batch size (sequences, log scale)",
        y_label="Tokens/s, all streams (log scale)",
        labels=[str(b) for b in batches], series=series, marker=batches.index(p["batch"]), summary=summary,
    )


def _short(j: measured.Judged) -> str:
    q = j.point
    return f"{q.engine} {q.model.split(' ')[0]} {q.precision}, {q.gpus} × {GPUS[q.gpu].id}, batch {q.concurrency}"


def measured_chart(p: Mapping[str, Any], details: Mapping[str, Any]) -> Chart:
    """Every published run beside this calculator's ceiling for its own model, GPUs and batch:
    measured tokens/s per stream against the ceiling's (numeric axes); ``labels`` name the runs,
    in the order of their ceilings, and the point labels carry each run's source and share."""
    judged = sorted(measured.judged(), key=lambda j: j.ceiling_ms, reverse=True)
    xs = [_round(1e3 / j.ceiling_ms) for j in judged]
    mine = {j.point.id for j in details["seen"]}
    shares = sorted(j.share for j in judged)
    middle = shares[len(shares) // 2]
    summary = (
        f"{len(judged)} published decode runs (vLLM, SGLang, TensorRT-LLM, NVIDIA NIM) reach "
        f"{min(shares):.0%} to {max(shares):.0%} of the ceiling this calculator computes for each, "
        f"{middle:.0%} at the median"
        + (f"; {len(mine)} of them on this configuration" if mine else "")
        + ": " + "; ".join(j.label() for j in judged) + "."
    )
    return Chart(
        kind="xy", x_log=True, y_log=True,
        title="Measured decode speed beside the ceiling",
        x_label="Ceiling: tokens/s per stream (log scale)",
        y_label="Tokens/s per stream (log scale)",
        labels=[_short(j) for j in judged],
        series=[
            _xy("Ceiling (this calculator)", "line", xs, xs),
            _xy("Half the ceiling", "line", xs, [x / 2 for x in xs]),
            _xy("Published runs", "points", xs, [j.measured_tokens_per_s for j in judged],
                point_labels=[("this configuration: " if j.point.id in mine else "") + j.label() for j in judged]),
        ],
        summary=summary,
    )


def chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> list[Chart]:
    if details["step_at"] is None:
        return []
    return [roofline_chart(p, v, details), measured_chart(p, details)]


SPEC = Calculator(
    id="decode-roofline",
    title="Decode roofline: tokens per second",
    summary="Decode speed per stream and in aggregate at the roofline and with communication, whether a step is "
            "memory- or compute-bound, time to first token, vLLM's memory verdict, and measured engines beside it.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    resolve=scenario.make_resolve(lambda p: p["context"]),
    answer=answers.decode_roofline,
    answers=answers.DECODE_ROOFLINE,
)
