"""Each calculator's answer in one sentence, in the reader's terms, and how its other outputs are
grouped under short headings.

Every sentence is computed from the run's inputs and outputs (``answer(inputs, values, text)``,
see ``Calculator.answer``): the numbers in it are the outputs' own text, so the sentence and the
outputs beside it cannot disagree. Where an output the sentence needs was not computed (None: a
pasted config that cannot be read, a weight format not modelled) the sentence says what could not
be computed and gives no number.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from course_calculators.spec import Output
from course_calculators.units import format_count

from .hardware import GPUS

#: The answer outputs of each calculator: shown with the sentence, in view while a control is used.
KV_CACHE = ("fits", "max_sequences", "max_concurrency", "max_context")
DECODE_ROOFLINE = ("tokens_per_s_measured", "tokens_per_s", "ttft_s", "fits")
UNIT_ECONOMICS = ("usd_per_m_input_selfhosted", "usd_per_m_output_selfhosted", "usd_per_m_blended_selfhosted",
                  "cheapest")
PAGED_ATTENTION = ("utilization_paged", "utilization_contiguous", "throughput_gain")
SPECULATIVE_DECODING = ("speedup", "tokens_per_pass", "tv_distance")
SAMPLING = ("top_prob", "candidates", "loops")

#: Headings of the output groups (Output.group).
MEMORY_PER_GPU = "Memory per GPU"
WHAT_FITS = "What fits"
KV_SIZES = "KV cache"
WEIGHTS = "Weights"
SPEED = "Speed"
FIRST_TOKEN = "Time to first token"
ROOFLINE = "Roofline"
MEASURED = "Measured"
COST = "Cost"
MODEL = "Model and engine"
PER_MILLION = "Per million tokens"
PER_MONTH = "Per month"
REPLICA = "Self-hosted replica"
MEMORY_USE = "Memory use"
THROUGHPUT = "Throughput"
SIMULATION = "The simulation"
CORRECTNESS = "Correctness"
NEXT_WORD = "The next word"
CONTINUATION = "The continuation"

#: The parts of the memory-per-GPU bar (kv-cache), bottom of the memory to the top.
MEMORY_BAR = ("weight_bytes_per_gpu", "lora_bytes_per_gpu", "activation_bytes", "runtime_bytes", "kv_cache_memory",
              "free_bytes_per_gpu")
MEMORY_BAR_NAMES = ("weights", "LoRA slots", "activations", "runtime", "KV pool", "free")
#: Parts whose legend entry is hidden while they are 0 (LoRA off, the default).
MEMORY_BAR_OPTIONAL = ("lora_bytes_per_gpu",)


def grouped(outputs: Sequence[Output], groups: Mapping[str, str]) -> tuple[Output, ...]:
    """``outputs`` with each named one under its group's heading (the others left as they are)."""
    unknown = set(groups) - {o.name for o in outputs}
    if unknown:
        raise ValueError(f"groups name outputs that do not exist: {sorted(unknown)}")
    return tuple(replace(o, group=groups[o.name]) if o.name in groups else o for o in outputs)


def groups_of(**table: Sequence[str]) -> dict[str, str]:
    """{output: heading} from headings given as keyword names of this module's constants' values."""
    return {name: heading for heading, names in table.items() for name in names}


# -- shared phrases ------------------------------------------------------------------------------

def _missing(values: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    return [n for n in names if values[n] is None]


def _not_computed(what: str, labels: Sequence[str]) -> str:
    return f"{what}: {', '.join(labels)} could not be computed — the note below says why."


def _gpu_name(gpu_id: str) -> str:
    """"H100 SXM 80GB": the GPU's name without its vendor's."""
    name = GPUS[gpu_id].name if gpu_id in GPUS else gpu_id
    for vendor in ("NVIDIA ", "AMD "):
        if name.startswith(vendor):
            return name[len(vendor):]
    return name


def _precision(p: Mapping[str, Any], text: Mapping[str, str]) -> str:
    """The weights' format, short: the format chosen, or the checkpoint's when it says it briefly."""
    if p["weight_dtype"] != "shipped":
        return p["weight_dtype"]
    shipped = text["weight_format"]
    return shipped if len(shipped) <= 12 else "its shipped format"


def _model(values: Mapping[str, Any]) -> str:
    return values["model_name"] or "This model"


def _deployment(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    return f"{_model(values)} in {_precision(p, text)} on {p['gpus']} × {_gpu_name(p['gpu'])}"


# -- the sentences -------------------------------------------------------------------------------

def kv_cache(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    missing = _missing(values, ("max_sequences", "max_concurrency", "weight_format"))
    if missing:
        return _not_computed(f"On {p['gpus']} × {_gpu_name(p['gpu'])}",
                             ["how many requests fit", "vLLM's maximum concurrency"])
    where = _deployment(p, values, text)
    context = format_count(p["context"])
    needed = values["gpus_needed"]
    more = f"; {needed} GPUs would" if needed and needed != p["gpus"] else ""
    if not values["kv_cache_memory"]:
        return f"{where} does not fit: vLLM would not start, no memory is left for the KV cache{more}."
    sentence = (f"{where} holds {text['max_sequences']} requests of {context} tokens at once — vLLM would log "
                f"{text['max_concurrency']}")
    if not values["fits"]:
        sentence += f"; not the {format_count(p['concurrency'])} asked{more}"
    return sentence + "."


def decode_roofline(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    missing = _missing(values, ("tokens_per_s", "ttft_s"))
    if missing:
        return _not_computed(f"On {p['gpus']} × {_gpu_name(p['gpu'])}", ["tokens per second", "time to first token"])
    ceiling = text["tokens_per_s"]
    band = values["tokens_per_s_measured"]
    if band and band[0].isdigit():
        # "≈ 4.23–18.6 tokens/s per stream measured, 23.7 at the ceiling": the unit once
        number = ceiling.split(" ")[0] if ceiling.endswith(" tokens/s") and band.endswith(" tokens/s") else ceiling
        speed = f"≈ {band} per stream measured, {number} at the ceiling"
    else:
        speed = f"At most {ceiling} per stream (the ceiling; no published run to set beside it)"
    sentence = f"{speed}; first token in {text['ttft_s']} at best"
    if values["fits"] is False:
        needed = values["gpus_needed"]
        sentence += f" — but {_model(values)} does not fit on {p['gpus']} × {_gpu_name(p['gpu'])}" + (
            f" ({needed} GPUs would)" if needed else "")
    return sentence + "."


def unit_economics(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    missing = _missing(values, ("usd_per_m_input_selfhosted", "usd_per_m_output_selfhosted"))
    if missing:
        cheapest = f"; the cheapest option priced: {values['cheapest']}" if values["cheapest"] else ""
        return (f"Self-hosting on {p['gpus']} × {_gpu_name(p['gpu'])}: the cost per million tokens could not be "
                f"computed — the note below says why{cheapest}.")
    return (f"{text['usd_per_m_input_selfhosted']} per 1M input, {text['usd_per_m_output_selfhosted']} per 1M output "
            f"tokens self-hosted on {p['gpus']} × {_gpu_name(p['gpu'])} per replica "
            f"({text['usd_per_m_blended_selfhosted']} blended); cheapest here: {text['cheapest']}.")


def paged_attention(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    if _missing(values, PAGED_ATTENTION):
        return _not_computed("Paged against contiguous KV memory", ["the memory use", "the throughput"])
    return (f"Paged blocks fill {text['utilization_paged']} of the KV memory with tokens, max-length reservations "
            f"{text['utilization_contiguous']}: {text['throughput_gain']} the throughput of static batching.")


def speculative_decoding(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    if _missing(values, SPECULATIVE_DECODING):
        return _not_computed("Speculative decoding", ["the speedup", "the output distribution"])
    return (f"Drafting {format_count(p['draft_tokens'])} tokens at α = {p['acceptance']:g}: {text['tokens_per_pass']} "
            f"tokens per target pass, {text['speedup']} faster than plain decoding, and the output stays the "
            f"target's (distance {text['tv_distance']}).")


def sampling(p: Mapping[str, Any], values: Mapping[str, Any], text: Mapping[str, str]) -> str:
    if _missing(values, ("top_prob", "candidates", "top_token")):
        return _not_computed("Sampling", ["the next word's distribution"])
    loops = "and the continuation loops" if values["loops"] else "and the continuation does not loop"
    return (f"“{values['top_token']}” comes next with probability {text['top_prob']}; "
            f"{text['candidates']} words can be chosen, {loops}.")


# -- the groups ----------------------------------------------------------------------------------

KV_CACHE_GROUPS = groups_of(**{
    MEMORY_PER_GPU: ("weight_bytes_per_gpu", "lora_bytes_per_gpu", "activation_bytes", "runtime_bytes",
                     "kv_cache_memory", "free_bytes_per_gpu", "usable_bytes", "drafter_bytes_per_gpu"),
    WHAT_FITS: ("kv_cache_tokens", "total_bytes", "gpus_needed", "legal_gpus", "kv_replicas"),
    KV_SIZES: ("kv_bytes_per_token", "kv_bytes_per_sequence", "kv_bytes_total", "state_bytes_per_sequence",
               "kv_bytes_per_token_per_gpu", "block_size", "drafter_kv_bytes_per_token"),
    WEIGHTS: ("weight_bytes", "weight_format", "weight_breakdown"),
    COST: ("cheapest_gpus", "cheapest_usd_per_hour"),
    MODEL: ("model_name", "model_source", "engine_release", "startup_lines"),
})
DECODE_ROOFLINE_GROUPS = groups_of(**{
    SPEED: ("throughput", "estimate_tokens_per_s", "step_time_s", "estimate_step_s", "estimate_throughput",
            "allreduce_s", "spec_tokens_per_step", "spec_speedup", "spec_tokens_per_s"),
    FIRST_TOKEN: ("ttft_measured", "prefill_bound"),
    ROOFLINE: ("bound", "streamed_weight_bytes", "experts_touched", "kv_bytes_per_token", "kv_bytes",
               "bytes_per_step", "bytes_per_gpu", "arithmetic_intensity", "ridge_point", "ridge_batch",
               "compute_ceiling", "bandwidth", "peak_flops"),
    WHAT_FITS: ("total_bytes", "usable_bytes", "activation_bytes", "kv_cache_memory", "kv_cache_tokens",
                "max_concurrency", "gpus_needed", "max_batch"),
    MEASURED: ("measured", "measured_share", "measured_band", "ttft_measured_band"),
    WEIGHTS: ("weight_bytes", "weight_format", "weight_breakdown"),
    MODEL: ("model_name", "model_source"),
})


def unit_economics_groups(names: Sequence[str]) -> dict[str, str]:
    """Unit economics' outputs by their names: per million tokens, per month, the replica."""
    table = {}
    for name in names:
        if name.startswith("usd_per_m_") or name == "cheapest":
            table[name] = PER_MILLION
        elif name.startswith("monthly_") or name in ("daily_generations", "flagship_vs_selfhosted"):
            table[name] = PER_MONTH
        elif name.startswith("selfhosted_"):
            table[name] = REPLICA
    return table


PAGED_ATTENTION_GROUPS = groups_of(**{
    MEMORY_USE: ("utilization_pow2", "utilization_oracle", "blocks_total", "mean_length"),
    THROUGHPUT: ("batch_contiguous", "batch_paged", "gain_paging", "gain_batching", "tokens_per_step_static",
                 "tokens_per_step_continuous", "tokens_per_step_paged"),
    SIMULATION: ("steps_paged", "preemptions"),
})
SPECULATIVE_DECODING_GROUPS = groups_of(**{
    SPEED: ("best_k", "best_speedup"),
    CORRECTNESS: ("max_abs_deviation", "draft_tv"),
    SIMULATION: ("empirical_acceptance", "tokens_per_pass_mc", "passes"),
})
SAMPLING_GROUPS = groups_of(**{
    NEXT_WORD: ("entropy", "top_token"),
    CONTINUATION: ("continuation", "distinct_words"),
})
