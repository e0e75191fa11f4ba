"""Unit economics of an LLM product: dollars per million tokens, and the monthly bill, on three
API tiers and on a self-hosted replica.

Volume. Each day a share of the daily active users creates something: ``remix_rate`` of them remix a
piece of content and ``pgc_rate`` publish professionally generated content (PGC). Each creation
takes ``generations_per_creation`` model calls (drafts, retries, edits, agent steps):

    daily generations = DAU × (remix rate + PGC rate) × generations per creation

With the defaults (100,000 DAU, 1/100, 1/1000, 10 calls) that is 11,000 generations a day.

API tiers. Every generation reads ``input_tokens`` (system prompt, context, the user's content) and
writes ``output_tokens``; a share ``cache_hit`` of the input is a prompt-cache hit billed at the
cached price. A tier's dollars per million input, cached input and output tokens are its list
prices (a cached price above the input price is taken at the input price), and

    monthly cost = 30 × daily generations × (uncached input × input price
                                             + cached input × cached price + output × output price)

Self-hosting. The same ``model`` as the other calculators (Llama 3.1 8B by default), costed with
:mod:`llm_inference.physics` on the scenario's ``gpu``: one *replica* is ``gpus`` GPUs in tensor
parallel (the same parameter as the other calculators'); it holds the weights and, by vLLM's
budget, a number of sequences of the average context (the prompt plus half the answer), and
decodes ``batch`` of them at once (fewer if fewer fit). When ``gpus`` is not a size vLLM accepts
for the model, or leaves no room for one sequence, the replica is the next size that works, and a
note says so. Two prices per token come out of the roofline, in GPU-seconds:

* an uncached input token is prefill: 2 × active parameters FLOPs at the GPUs' dense peak, so
  ``2 × active ÷ peak`` GPU-seconds whatever the replica's size;
* an output token is one sequence's share of a decode step: ``gpus × step ÷ batch``, where the
  step is the ceiling of :func:`~llm_inference.physics.decode_step` at this batch and context. The
  step reads every cached token's keys and values, the prompt's included: the cost of a long
  context is charged here, to the output;
* a cached input token costs no GPU time: the engine's prefix cache reuses its keys and values
  without recomputing them (their memory and their reads are in the output's step). Its price
  is $0 per million.

The fleet. The roofline work a day needs, divided by ``utilization`` (the share of the ceiling the
fleet delivers: its default is the median share that published decode runs on one node reached,
:func:`llm_inference.physics.measured.median_decode_share`), is the GPU time to rent; whole
replicas, at least one, run all month (30 × 24 hours) at ``gpu_hour_usd`` (by default the GPU
table's dated on-demand price). The rent is split over the tokens in proportion to the GPU-seconds
each kind needs, so the self-hosted prices per million are

    price per roofline GPU-second = monthly rent ÷ (30 × roofline GPU-seconds a day)
    $ per 1M input  = that × 2 × active ÷ peak × 10⁶
    $ per 1M output = that × gpus × step ÷ batch × 10⁶

and input × its price + output × its price gives back the monthly rent. An idle fleet makes every
token dear: the price per GPU-second is the hourly rent ÷ 3,600 ÷ (utilization × load), where the
load is the share of the rented time the traffic needs. Below one generation a month the prices
are those of a fully loaded replica instead (and a note says so): the rent over nothing has none.

Prices are illustrative and dated (see :data:`PRICES`): edit them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Mapping

from course_calculators.spec import Calculator, Chart, Number, Output, Preset
from course_calculators.units import format_count, format_fraction, format_usd

from . import answers, engine_choice, physics, scenario, scenario_params
from .hardware import GPUS, PRICES_DATE as GPU_PRICES_DATE
from .physics import measured
from .physics.deployment import Deployment
from .physics.placement import Layout
from .physics.speed import peak_flops
from .units import format_tokens_per_s

DAYS_PER_MONTH = 30
HOURS_PER_MONTH = DAYS_PER_MONTH * 24
SECONDS_PER_DAY = 86400
#: The longest prompt and answer the calculator takes.
INPUT_TOKENS_MAX = 1_000_000
OUTPUT_TOKENS_MAX = 100_000
PER_MILLION = 1e6


@dataclass(frozen=True)
class TierPrice:
    """List prices of one API tier, US dollars per million tokens."""

    id: str
    name: str
    input: float
    cached_input: float
    output: float


#: When the prices below were set, and what they are.
PRICES_DATE = "2026-11"
PRICES_SOURCE = (
    "Illustrative list prices of a frontier (flagship), a mid and a small API tier, USD per 1M tokens, "
    "as of 2026-11: typical of public price lists, not any one vendor's. Cached-input discounts differ "
    "by vendor (about 10% of the base price at one, 25-50% at others; some also charge a premium to "
    "write the cache), so each tier here uses a different one."
)
PRICES: dict[str, TierPrice] = {
    t.id: t
    for t in (
        TierPrice("flagship", "Flagship", 3.00, 0.30, 15.00),  # cached at 10% of base
        TierPrice("mid", "Mid", 0.80, 0.20, 4.00),  # cached at 25% of base
        TierPrice("small", "Small", 0.20, 0.10, 0.80),  # cached at 50% of base
    )
}
SELF_HOSTED = "selfhosted"
#: Every option, in the order the outputs and the chart list them.
OPTIONS = (*PRICES, SELF_HOSTED)
OPTION_LABELS = {"flagship": "Flagship API", "mid": "Mid API", "small": "Small API", SELF_HOSTED: "Self-hosted"}
#: The three kinds of token priced per million.
KINDS = (("input", "input"), ("cached", "cached input"), ("output", "output"))

#: The fleet utilization's default: the median share of their own ceiling that the published decode
#: runs on one node reached (llm_inference/measurements.py, judged by physics.measured), to two
#: places. A fleet that also idles off-peak delivers less: lower it for the traffic's peaks.
MEASURED_DECODE_SHARE = measured.median_decode_share(1)
UTILIZATION_DEFAULT = round(MEASURED_DECODE_SHARE, 2)
_DECODE_RUNS = measured.decode_band(1).runs
#: The same for the published times to first token: prefill reaches less of its ceiling.
MEASURED_PREFILL_SHARE = measured.median_prefill_share(1)

_SHAPE = {p.name: p for p in scenario_params.model_params("llama-3.1-8b")}
_DTYPES = {p.name: p for p in scenario_params.dtype_params()}
_DEPLOY = {p.name: p for p in scenario_params.deployment_params()}


def _price_params(tier: TierPrice) -> tuple[Number, Number, Number]:
    what = f"{tier.name} tier"
    return (
        Number(f"price_{tier.id}_in", f"{what}: input", tier.input, 0, 1000, step=0.01, unit="$/1M",
               integer=False, help=f"USD per million uncached input tokens (illustrative, {PRICES_DATE})."),
        Number(f"price_{tier.id}_cached", f"{what}: cached input", tier.cached_input, 0, 1000, step=0.01,
               unit="$/1M", integer=False,
               help="USD per million input tokens read from the prompt cache; at most the input price."),
        Number(f"price_{tier.id}_out", f"{what}: output", tier.output, 0, 1000, step=0.01, unit="$/1M",
               integer=False, help=f"USD per million output tokens (illustrative, {PRICES_DATE})."),
    )


PARAMS = (
    Number("dau", "Daily active users", 100_000, 1, 1_000_000_000, scale="log"),
    Number("remix_rate", "Remix rate", 0.01, 0, 1, step=0.001, integer=False,
           help="Share of daily users who remix a piece of content each day (0.01 = 1 in 100)."),
    Number("pgc_rate", "PGC rate", 0.001, 0, 1, step=0.0001, integer=False,
           help="Share of daily users who publish professionally generated content each day (0.001 = 1 in 1,000)."),
    Number("generations_per_creation", "Model calls per creation", 10, 1, 1000, scale="log",
           help="Generations one remix or PGC piece takes: drafts, retries, edits, agent steps."),
    Number("cache_hit", "Prompt-cache hit rate", 0.7, 0, 1, step=0.01, integer=False,
           help="Share of input tokens served from the prompt cache (0.7 = 70%): a stable prefix "
                "(system prompt, tools, shared context) first, variable content last."),
    Number("input_tokens", "Input tokens per generation", 4000, 1, INPUT_TOKENS_MAX, unit="tokens", scale="log"),
    Number("output_tokens", "Output tokens per generation", 500, 1, OUTPUT_TOKENS_MAX, unit="tokens", scale="log"),
    *(param for tier in PRICES.values() for param in _price_params(tier)),
    replace(_SHAPE["model"], label="Self-hosted model",
            help="The model you would run yourself (the other calculators' model); its shape fills the fields "
                 "under More parameters."),
    # A pasted config.json (the other calculators' `config`, carried by the reader's scenario) fills the
    # same shape fields as the model; folded with them under More parameters.
    replace(_SHAPE["config"], advanced=True),
    replace(_SHAPE["params_b"], label="Self-hosted model size", advanced=True),
    replace(_DTYPES["weight_dtype"], label="Self-hosted weight precision"),
    replace(_DTYPES["kv_dtype"], label="Self-hosted KV cache precision", advanced=True),
    replace(_DEPLOY["gpu"], label="Self-hosted GPU"),
    replace(_DEPLOY["gpus"], label="GPUs per replica (tensor parallel)",
            help="One replica's GPUs, as in the other calculators: the model's weights are split over them. "
                 "Only sizes vLLM accepts for the model; a size that does not fit is raised to one that does."),
    Number("batch", "Batch per replica", 32, 1, 1024, scale="log", scenario="concurrency",
           help="Sequences one replica decodes at once (capped by the memory left for the KV cache)."),
    Number("gpu_hour_usd", "GPU price per hour", 0, 0, 100, step=0.01, unit="$/h", integer=False,
           help=f"Rental price of one GPU-hour; 0 takes the GPU table's on-demand price ({GPU_PRICES_DATE}: "
                f"an H100 SXM at $2.69)."),
    Number("utilization", "Fleet utilization (share of the ceiling)", UTILIZATION_DEFAULT, 0.05, 1, step=0.01,
           integer=False,
           help=f"Share of the roofline's throughput the fleet delivers on average. Default "
                f"{UTILIZATION_DEFAULT:g}: the median share of their ceiling that {_DECODE_RUNS} published decode "
                f"runs on one node reached (measurements.py). Lower it for idle hours and traffic peaks."),
    *(replace(_SHAPE[n], advanced=True) for n in scenario.MODEL_FILLS if n != "params_b"),
    *engine_choice.params(),
)


def _per_million(option: str, kind: str, word: str, primary: bool = False, help: str = "") -> Output:
    return Output(f"usd_per_m_{kind}_{option}", f"{OPTION_LABELS[option]}: {word}, per 1M tokens", "usd",
                  primary=primary, help=help)


OUTPUTS = (
    _per_million(SELF_HOSTED, "input", "input", True,
                 "Prefill at the measured share of the dense peak: the replica's rent per GPU-second × "
                 "2 × active parameters ÷ peak FLOP/s, × 10⁶."),
    _per_million(SELF_HOSTED, "cached", "cached input", False,
                 "A prefix-cache hit is not recomputed: no GPU time. Its keys and values are read by every "
                 "decode step, which the output price carries."),
    _per_million(SELF_HOSTED, "output", "output", True,
                 "The rent per GPU-second × the replica's GPUs × decode step ÷ batch, × 10⁶: idle GPUs "
                 "included."),
    *(Output(f"usd_per_m_blended_{o}", f"{OPTION_LABELS[o]}: blended, per 1M tokens", "usd", primary=True,
             help="Per million tokens of this traffic: one generation's cost ÷ its input and output tokens, "
                  "× 10⁶. The options side by side.")
      for o in OPTIONS),
    Output("cheapest", "Cheapest option", "text"),
    Output("daily_generations", "Generations per day", "count"),
    Output("selfhosted_replica", "Self-hosted replica", "text",
           help="The model, its precision and the GPUs one replica runs on, and its batch."),
    *(_per_million(tier, kind, word) for tier in PRICES for kind, word in KINDS),
    Output("monthly_cost_flagship", "Flagship API, per month", "usd", precision=0),
    Output("monthly_cost_mid", "Mid API, per month", "usd", precision=0),
    Output("monthly_cost_small", "Small API, per month", "usd", precision=0),
    Output("monthly_cost_selfhosted", "Self-hosted, per month", "usd", precision=0,
           help="Whole replicas rented all month: at least one, however low the traffic."),
    Output("flagship_vs_selfhosted", "Flagship API ÷ self-hosted, per month", "ratio"),
    Output("monthly_input_tokens", "Input tokens per month", "count"),
    Output("monthly_cached_tokens", "Cached input tokens per month", "count"),
    Output("monthly_output_tokens", "Output tokens per month", "count"),
    Output("selfhosted_replica_gpus", "GPUs per replica", "count"),
    Output("selfhosted_replicas", "Replicas rented", "count"),
    Output("selfhosted_gpus", "GPUs rented", "count"),
    Output("selfhosted_load", "Load on the rented GPUs", "fraction",
           help="GPU time the traffic needs (at the fleet utilization) ÷ GPU time rented; low when one replica "
                "is more than enough."),
    Output("selfhosted_tokens_per_s", "Decode throughput per replica (ceiling)", "tokens_per_s"),
    Output("selfhosted_input_share", "Share of the GPU time spent on prefill", "fraction",
           help="Uncached input's GPU-seconds ÷ all GPU-seconds: how the rent is split between input and output."),
)
OUTPUTS = answers.grouped(OUTPUTS, answers.unit_economics_groups([o.name for o in OUTPUTS]))

_DEFAULTS = {"dau": 100_000, "remix_rate": 0.01, "pgc_rate": 0.001, "cache_hit": 0.7}

PRESETS = (
    Preset("defaults", "Defaults", _DEFAULTS,
           "11,000 generations a day. Per million tokens of this traffic the flagship costs $2.65 and the small "
           "API $0.20; one rented H100, busy 5% of the time, costs $1.30, more than the mid tier: at this volume "
           "self-hosting does not pay."),
    Preset("cache-0", "No cache hits", {**_DEFAULTS, "cache_hit": 0},
           "With no prompt-cache hits every input token is billed at the full price: the flagship bill "
           "rises by about 60%, because input is eight tokens in nine."),
    Preset("cache-95", "95% cache hits", {**_DEFAULTS, "cache_hit": 0.95},
           "A stable prefix that hits the cache 95% of the time cuts the flagship bill by almost a quarter "
           "from the defaults and by more than half from no caching: design the input structure first."),
    Preset("remix-10", "Remix rate 1/10", {**_DEFAULTS, "remix_rate": 0.1},
           "When everyone creates, volume grows 9× and so does every API bill: the flagship runs to $36k a month, "
           "while the same single self-hosted GPU, now busy, costs 19× less: $0.14 per million tokens of this "
           "traffic, below the small API's $0.20."),
)


# -- the model ---------------------------------------------------------------------------------

def daily_generations(p: Mapping[str, Any]) -> float:
    return p["dau"] * (p["remix_rate"] + p["pgc_rate"]) * p["generations_per_creation"]


def tier_prices(p: Mapping[str, Any], tier: str) -> tuple[float, float, float]:
    """(input, cached input, output) in USD per token; a cached price above the input price is capped."""
    base = p[f"price_{tier}_in"]
    cached = min(p[f"price_{tier}_cached"], base)
    return base / PER_MILLION, cached / PER_MILLION, p[f"price_{tier}_out"] / PER_MILLION


def token_mix(p: Mapping[str, Any]) -> tuple[float, float, float]:
    """(uncached input, cached input, output) tokens of one generation."""
    hit = p["cache_hit"]
    return p["input_tokens"] * (1 - hit), p["input_tokens"] * hit, p["output_tokens"]


def cost_per_generation(prices: tuple[float, float, float], mix: tuple[float, float, float]) -> float:
    return sum(price * tokens for price, tokens in zip(prices, mix))


def average_context(input_tokens: int, output_tokens: int) -> int:
    """The average context of a generation: the prompt plus half the answer."""
    return max(1, math.ceil(input_tokens + output_tokens / 2))


#: The lowest GPU-hour price taken (a cent): a price of zero would make the rent, and the
#: flagship-to-self-hosted ratio, meaningless.
GPU_HOUR_MIN_USD = 0.01


def gpu_hour_price(p: Mapping[str, Any]) -> float:
    """USD per GPU-hour: the reader's (at least a cent), or, for 0, the GPU table's dated price."""
    if p["gpu_hour_usd"] <= 0:
        return GPUS[p["gpu"]].usd_per_hour
    return max(p["gpu_hour_usd"], GPU_HOUR_MIN_USD)


@dataclass(frozen=True)
class Replica:
    """One replica: its size, its batch, and the GPU-seconds per token at the roofline."""

    gpus: int
    batch: int
    fits: bool  # False: not one sequence fits on any size; costed at batch 1 on the largest
    decode_tps: float  # output tokens/s of the replica at the ceiling
    input_gpu_s: float  # GPU-seconds per uncached input token
    output_gpu_s: float  # GPU-seconds per output token


def deployment(p: Mapping[str, Any]) -> tuple[Deployment, list[str]]:
    """The self-hosted replica's deployment as the reader set it (``gpus`` tensor parallel, vLLM's
    defaults), and the weights' notes: built once, resized by :func:`replica_size`."""
    return engine_choice.deployment_from_inputs(p, physics.Engine(), Layout(p["gpus"]))


def replica_size(p: Mapping[str, Any], d: Deployment, context: int) -> tuple[Deployment, int]:
    """(the replica, sequences of ``context`` that fit): the reader's ``gpus`` if vLLM takes that size
    for the model and it holds one sequence, else the next legal size that does; (the largest legal
    size, 0) when none does. More GPUs never hold fewer sequences."""
    sizes = d.legal_sizes()
    for n in [s for s in sizes if s >= p["gpus"]] or sizes[-1:]:
        sized = d.resized(gpus=n)
        fitting = sized.pool.sequences(context)  # vLLM's budget (physics.pool), built once per size
        if fitting >= 1:
            return sized, fitting
    return d.resized(gpus=sizes[-1]) if sizes else d, 0


def replica(p: Mapping[str, Any], d: Deployment) -> Replica:
    gpu, model, w = d.gpu, d.model, d.weights
    context = average_context(p["input_tokens"], p["output_tokens"])
    sized, fitting = replica_size(p, d, context)
    n = sized.layout.gpus
    batch = min(p["batch"], fitting) if fitting else 1
    step = physics.decode_step(model, sized.placement, gpu, w, p["kv_dtype"], batch, context)
    return Replica(
        gpus=n, batch=batch, fits=fitting >= 1, decode_tps=batch / step.roofline_s,
        input_gpu_s=2 * model.active / peak_flops(gpu, w),
        output_gpu_s=n * step.roofline_s / batch,
    )


def self_hosted(p: Mapping[str, Any], d: Deployment, generations: float) -> dict[str, Any]:
    """The fleet for ``generations`` a day: replicas, rent, load, and the price of each token kind."""
    r = replica(p, d)
    uncached, _, output = token_mix(p)
    work = generations * (uncached * r.input_gpu_s + output * r.output_gpu_s)  # roofline GPU-seconds a day
    needed = work / p["utilization"]  # GPU-seconds a day at the fleet's share of the ceiling
    replicas = max(1, math.ceil(needed / (SECONDS_PER_DAY * r.gpus)))
    gpus = replicas * r.gpus
    monthly = gpus * HOURS_PER_MONTH * gpu_hour_price(p)
    load = needed / (gpus * SECONDS_PER_DAY)
    # USD per roofline GPU-second: the month's rent over the month's roofline work; with less than
    # one generation a month, a fully loaded fleet's (the rent per GPU-second at the utilization).
    traffic = DAYS_PER_MONTH * generations >= 1 and work > 0
    per_gpu_s = monthly / (DAYS_PER_MONTH * work) if traffic else gpu_hour_price(p) / 3600 / p["utilization"]
    prices = (per_gpu_s * r.input_gpu_s, 0.0, per_gpu_s * r.output_gpu_s)
    return {
        "replica": r, "replicas": replicas, "traffic": traffic, "gpus": gpus, "monthly": monthly, "load": load, "prices": prices,
        "input_share": generations * uncached * r.input_gpu_s / work if traffic else 0.0,
    }


def compute(p: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    gens = daily_generations(p)
    monthly_gens = DAYS_PER_MONTH * gens
    mix = token_mix(p)
    prices = {tier: tier_prices(p, tier) for tier in PRICES}
    # A cache dtype vLLM refuses for the model's layers (DeepSeek-V4 caches in fp8 only): the replica
    # is worked out in fp8 so the API tiers still compare, and nothing self-hosted is shown (unread).
    dtype_problem = scenario.cache_dtype_problem(p)
    sized_p = {**p, "kv_dtype": "fp8"} if dtype_problem else p
    d, weight_notes = deployment(sized_p)
    hosted = self_hosted(sized_p, d, gens)
    prices[SELF_HOSTED] = hosted["prices"]
    r: Replica = hosted["replica"]
    per_gen = {o: cost_per_generation(prices[o], mix) for o in OPTIONS}
    monthly = {tier: monthly_gens * per_gen[tier] for tier in PRICES}
    monthly[SELF_HOSTED] = hosted["monthly"]
    tokens = p["input_tokens"] + p["output_tokens"]
    blended = {o: per_gen[o] / tokens * PER_MILLION for o in OPTIONS}
    w = d.weights
    refused = scenario.refused_note(w)
    priced = gpu_hour_price(p) > 0
    unread = scenario.refused(p)  # a pasted config.json that cannot be read: resolve's note says why
    if unread:  # nothing self-hosted is costed from the shape the fields held before it
        weight_notes = []
        why = "the KV cache precision is one vLLM refuses for this model" if dtype_problem else (
            "the pasted config.json could not be read")
        notes.append(f"Self-hosted: not costed, {why}; the API tiers do not depend on the model.")
    elif refused:  # nothing self-hosted is costed from a substituted format
        notes.append("Self-hosted: " + refused)
    elif not priced:
        notes.append(f"Self-hosted: no hourly price is listed for the {GPUS[p['gpu']].name}; enter one "
                     f"(GPU-hour price) to cost self-hosting. It is left out of the comparison.")
    costed = priced and not refused and not unread
    cheapest = min((o for o in OPTIONS if costed or o != SELF_HOSTED), key=lambda o: monthly[o])

    name, _ = scenario.model_name(p)
    gpu = GPUS[p["gpu"]]
    cards = f"{r.gpus} × {gpu.name}"
    for tier in PRICES:
        if p[f"price_{tier}_cached"] > p[f"price_{tier}_in"]:
            notes.append(f"{PRICES[tier].name} tier: the cached price is above the input price; "
                         f"using the input price for cache hits.")
    context = average_context(p["input_tokens"], p["output_tokens"])
    if not unread:  # the self-hosted replica's notes, of a shape that was read
        if not r.fits:
            notes.append(f"Self-hosted: not one sequence of {format_count(context)} tokens fits on up to {cards} by "
                         f"vLLM's budget; costed as if it did, at batch 1: the self-hosted figures are not a "
                         f"configuration that runs.")
        elif r.gpus != p["gpus"]:
            legal = d.placement.legal
            why = ("is not a size vLLM accepts for this model" if not legal
                   else f"leaves no room for one sequence of {format_count(context)} tokens")
            notes.append(f"Self-hosted: {p['gpus']} × {gpu.name} per replica {why}; costed at {r.gpus} GPUs per "
                         f"replica, the next size that works.")
        if r.fits and r.batch < p["batch"]:
            notes.append(f"Self-hosted: only {format_count(r.batch)} sequences of this length fit beside the weights "
                         f"on {cards}; the batch is capped.")
        if hosted["traffic"] and hosted["load"] < 0.25:
            notes.append(f"The rented GPUs would be {format_fraction(hosted['load'])} busy: at this volume you pay "
                         f"for idle hardware, and each self-hosted token carries that idle time. An API bills only "
                         f"what you use.")
        if not hosted["traffic"]:
            notes.append("Fewer than one generation a month: the self-hosted prices per million are those of a fully "
                         "loaded replica; the rent is paid anyway.")

    values = {
        **{f"usd_per_m_{kind}_{o}": prices[o][i] * PER_MILLION
           for o in OPTIONS for i, (kind, _) in enumerate(KINDS)},
        **{f"usd_per_m_blended_{o}": blended[o] for o in OPTIONS},
        "cheapest": OPTION_LABELS[cheapest],
        "daily_generations": gens,
        "selfhosted_replica": f"{name}, {w.plan.scheme.label}, on {cards}, batch {format_count(r.batch)}",
        **{f"monthly_cost_{o}": monthly[o] for o in OPTIONS},
        "flagship_vs_selfhosted": monthly["flagship"] / monthly[SELF_HOSTED] if costed else 0.0,
        "monthly_input_tokens": monthly_gens * p["input_tokens"],
        "monthly_cached_tokens": monthly_gens * mix[1],
        "monthly_output_tokens": monthly_gens * p["output_tokens"],
        "selfhosted_replica_gpus": r.gpus,
        "selfhosted_replicas": hosted["replicas"],
        "selfhosted_gpus": hosted["gpus"],
        "selfhosted_load": hosted["load"],
        "selfhosted_tokens_per_s": r.decode_tps,
        "selfhosted_input_share": hosted["input_share"],
    }
    if not costed:  # not computed: no price, or a format the calculator does not model
        values.update({name: None for name in values if "selfhosted" in name})
    notes.extend(weight_notes)
    return values, notes


def chart(p: Mapping[str, Any], v: Mapping[str, Any]) -> Chart:
    """Dollars per million tokens of each kind, for each option that is costed, as grouped bars."""
    shown = [o for o in OPTIONS if v[f"usd_per_m_input_{o}"] is not None]
    series = [{"name": f"{word.capitalize()} ($/1M)", "kind": "bar",
               "values": [round(v[f"usd_per_m_{kind}_{o}"], 4) for o in shown]} for kind, word in KINDS]
    hosted = (f". Self-hosted is {v['selfhosted_replica']}: {format_count(v['selfhosted_gpus'])} GPU(s), "
              f"{format_fraction(v['selfhosted_load'])} busy, {format_tokens_per_s(v['selfhosted_tokens_per_s'])} "
              f"per replica at the ceiling" if SELF_HOSTED in shown else ". Self-hosting is not costed (see the notes)")
    summary = (
        "Dollars per million input, cached input and output tokens: "
        + "; ".join(f"{OPTION_LABELS[o]} {format_usd(v[f'usd_per_m_input_{o}'])}, "
                    f"{format_usd(v[f'usd_per_m_cached_{o}'])}, {format_usd(v[f'usd_per_m_output_{o}'])}"
                    for o in shown)
        + hosted + f". At {format_count(v['daily_generations'])} generations a day the monthly "
          f"bill is " + ", ".join(f"{OPTION_LABELS[o]} {format_usd(v[f'monthly_cost_{o}'])}" for o in shown)
        + f". API prices are illustrative ({PRICES_DATE}); edit them."
    )
    return Chart(
        kind="bar",
        title="Dollars per million tokens",
        x_label="Option",
        y_label="USD per 1M tokens",
        labels=[OPTION_LABELS[o] for o in shown],
        series=series,
        summary=summary,
    )


SPEC = Calculator(
    id="unit-economics",
    title="Unit economics: dollars per million tokens",
    summary="Dollars per million input, cached input and output tokens on three API tiers and on a self-hosted "
            "replica of the chapter's model and GPUs, and the monthly bill of a product's traffic. API prices are "
            f"illustrative ({PRICES_DATE}) and editable.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    resolve=scenario.make_resolve(lambda p: average_context(p["input_tokens"], p["output_tokens"])),
    answer=answers.unit_economics,
    answers=answers.UNIT_ECONOMICS,
)
