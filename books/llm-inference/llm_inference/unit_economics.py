"""Unit economics of an LLM product: the monthly bill of three model tiers, and of self-hosting.

Volume. Each day a share of the daily active users creates something: ``remix_rate`` of them remix a
piece of content and ``pgc_rate`` publish professionally generated content (PGC). Each creation
takes ``generations_per_creation`` model calls (drafts, retries, edits, agent steps):

    daily generations = DAU × (remix rate + PGC rate) × generations per creation

With the defaults (100,000 DAU, 1/100, 1/1000, 10 calls) that is 11,000 generations a day.

API bill. Every generation reads ``input_tokens`` (system prompt, context, the user's content) and
writes ``output_tokens``; a share ``cache_hit`` of the input is a prompt-cache hit billed at the
cached price. Prices are US dollars per million tokens:

    monthly cost = 30 × daily generations × (uncached input × base price
                                             + cached input × cached price + output × output price)

Self-hosted small model. A model of the catalogue (Llama 3.1 8B by default; the same ``model``
as the other calculators') run on rented GPUs, costed with :mod:`llm_inference.physics`: one
replica is a group of GPUs in a size vLLM accepts that holds the weights and at least one
sequence of the average context (the prompt plus half the answer) by vLLM's budget; it decodes
``small_batch`` sequences at once (fewer if fewer fit) at the decode ceiling with the tensor-
parallel all-reduces, and prefills uncached input at its dense peak (cached prefixes are reused
by the engine's prefix cache). The GPU-seconds a day needs, divided by ``utilization`` (how busy a
fleet sized for peak traffic is on average, and how close an engine gets to the roofline), give
the GPUs to rent; whole replicas, at least one, run all month (30 × 24 hours) at
``gpu_hour_usd``, by default the GPU table's dated on-demand price.

Prices are illustrative and dated (see :data:`PRICES`): edit them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from dataclasses import replace

from course_calculators.spec import Calculator, Chart, Number, Output, Preset
from course_calculators.units import format_count, format_fraction, format_ratio, format_usd

from . import physics, scenario
from .hardware import GPUS, PRICES_DATE as GPU_PRICES_DATE
from .physics import fleet
from .physics.placement import Layout
from .physics.speed import peak_flops
from .units import format_tokens_per_s

DAYS_PER_MONTH = 30
HOURS_PER_MONTH = DAYS_PER_MONTH * 24
#: The longest prompt and answer the calculator takes (they bound the self-hosted replica sizes).
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

_SHAPE = {p.name: p for p in scenario.model_params("llama-3.1-8b")}
_DTYPES = {p.name: p for p in scenario.dtype_params()}
_DEPLOY = {p.name: p for p in scenario.deployment_params()}


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
            help="The small model you would run yourself; its shape fills the fields under More parameters."),
    replace(_SHAPE["params_b"], label="Self-hosted model size", advanced=True),
    replace(_DTYPES["weight_dtype"], label="Self-hosted weight precision"),
    replace(_DTYPES["kv_dtype"], label="Self-hosted KV cache precision", advanced=True),
    replace(_DEPLOY["gpu"], label="Self-hosted GPU"),
    Number("small_batch", "Self-hosted batch", 32, 1, 1024, scale="log",
           help="Sequences one replica decodes at once (capped by the memory left for the KV cache)."),
    Number("gpu_hour_usd", "GPU price per hour", 0, 0, 100, step=0.01, unit="$/h", integer=False,
           help=f"Rental price of one GPU-hour; 0 takes the GPU table's on-demand price ({GPU_PRICES_DATE}: "
                f"an H100 SXM at $2.69)."),
    Number("utilization", "Fleet utilization", 0.5, 0.05, 1, step=0.01, integer=False,
           help="Share of the roofline throughput the fleet delivers on average: traffic peaks, "
                "idle hours and engine efficiency (0.5 = half)."),
    *(replace(_SHAPE[n], advanced=True) for n in scenario.MODEL_FILLS if n != "params_b"),
)

_TIER_LABELS = {"flagship": "Flagship API", "mid": "Mid API", "small": "Small API",
                "selfhosted": "Self-hosted small"}

OUTPUTS = (
    Output("daily_generations", "Generations per day", "count", primary=True),
    Output("monthly_cost_flagship", "Flagship API, per month", "usd", primary=True, precision=0),
    Output("monthly_cost_mid", "Mid API, per month", "usd", primary=True, precision=0),
    Output("monthly_cost_small", "Small API, per month", "usd", primary=True, precision=0),
    Output("monthly_cost_small_selfhosted", "Small model self-hosted, per month", "usd", primary=True, precision=0,
           help="Whole GPUs rented all month: at least one replica, however low the traffic."),
    Output("cheapest", "Cheapest option", "text"),
    Output("flagship_vs_selfhosted", "Flagship API ÷ self-hosted", "ratio"),
    Output("cost_per_1k_flagship", "Flagship API, per 1,000 generations", "usd", precision=2),
    Output("cost_per_1k_mid", "Mid API, per 1,000 generations", "usd", precision=2),
    Output("cost_per_1k_small", "Small API, per 1,000 generations", "usd", precision=2),
    Output("cost_per_1k_selfhosted", "Self-hosted, per 1,000 generations", "usd", precision=2,
           help="The monthly GPU rent spread over the month's generations (at least one)."),
    Output("monthly_input_tokens", "Input tokens per month", "count"),
    Output("monthly_cached_tokens", "Cached input tokens per month", "count"),
    Output("monthly_output_tokens", "Output tokens per month", "count"),
    Output("selfhosted_gpus", "GPUs rented (self-hosted)", "count"),
    Output("selfhosted_load", "Load on the rented GPUs", "fraction",
           help="GPU time the traffic needs ÷ GPU time rented; low when one replica is more than enough."),
    Output("selfhosted_tokens_per_s", "Decode throughput per replica", "tokens_per_s"),
)

_DEFAULTS = {"dau": 100_000, "remix_rate": 0.01, "pgc_rate": 0.001, "cache_hit": 0.7}

PRESETS = (
    Preset("defaults", "Defaults", _DEFAULTS,
           "11,000 generations a day: the flagship costs 13× the small API, and one rented GPU, busy 5% "
           "of the time, costs more than the mid tier: at this volume self-hosting does not pay."),
    Preset("cache-0", "No cache hits", {**_DEFAULTS, "cache_hit": 0},
           "With no prompt-cache hits every input token is billed at the full price: the flagship bill "
           "rises by about 60%, because input is eight tokens in nine."),
    Preset("cache-95", "95% cache hits", {**_DEFAULTS, "cache_hit": 0.95},
           "A stable prefix that hits the cache 95% of the time cuts the flagship bill by almost a quarter "
           "from the defaults and by more than half from no caching: design the input structure first."),
    Preset("remix-10", "Remix rate 1/10", {**_DEFAULTS, "remix_rate": 0.1},
           "When everyone creates, volume grows 9× and so does every API bill: the flagship runs to $36k a "
           "month, while the same single self-hosted GPU, now busy, costs 19× less — and beats the small API."),
)


# -- the model ---------------------------------------------------------------------------------

def daily_generations(p: Mapping[str, Any]) -> float:
    return p["dau"] * (p["remix_rate"] + p["pgc_rate"]) * p["generations_per_creation"]


def tier_prices(p: Mapping[str, Any], tier: str) -> tuple[float, float, float]:
    """(input, cached input, output) in USD per token; a cached price above the input price is capped."""
    base = p[f"price_{tier}_in"]
    cached = min(p[f"price_{tier}_cached"], base)
    return base / PER_MILLION, cached / PER_MILLION, p[f"price_{tier}_out"] / PER_MILLION


def cost_per_generation(p: Mapping[str, Any], tier: str) -> float:
    base, cached, out = tier_prices(p, tier)
    hit = p["cache_hit"]
    return (p["input_tokens"] * (1 - hit) * base + p["input_tokens"] * hit * cached
            + p["output_tokens"] * out)


#: Replicas are sized up to at least one server's worth of GPUs.
NODE_GPUS = 8


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


def self_hosted(p: Mapping[str, Any], generations: float) -> dict[str, Any]:
    """GPUs to rent for ``generations`` a day, their monthly cost, and how busy they are.

    Every replica size vLLM accepts is costed, from the fewest GPUs that hold the weights plus one
    sequence of this length (by vLLM's budget), up to what the longest sequence the inputs allow
    would need (at least one 8-GPU server); the cheapest is kept. A bigger replica holds a bigger
    batch and can need fewer GPUs in all. The upper end does not depend on the token counts, so
    longer prompts or more traffic can only remove options, never make the bill fall. When no
    size holds even one sequence, the largest is costed at batch 1 (and the note says so).
    """
    model = scenario.model_from_inputs(p)
    gpu = GPUS[p["gpu"]]
    engine = physics.Engine()
    context = average_context(p["input_tokens"], p["output_tokens"])
    longest = average_context(INPUT_TOKENS_MAX, OUTPUT_TOKENS_MAX)
    sizes = fleet.candidate_sizes(model, Layout(1))
    upper = fleet.fewest_gpus(model, gpu, Layout(1), engine, p["weight_dtype"], p["kv_dtype"], longest, 1)
    upper = max(NODE_GPUS, upper or sizes[-1])
    sizes = [n for n in sizes if n <= upper] or sizes[:1]
    plans = []
    for n in sizes:
        placement = physics.place(model, Layout(n), p["weight_dtype"])
        fitting = physics.pool(model, gpu, placement, engine, p["kv_dtype"]).sequences(context)
        if fitting >= 1:
            plans.append(_plan(p, model, placement, generations, n, min(p["small_batch"], fitting), context))
    fits = bool(plans)
    if not plans:
        placement = physics.place(model, Layout(sizes[-1]), p["weight_dtype"])
        plans.append(_plan(p, model, placement, generations, sizes[-1], 1, context))
    best = min(plans, key=lambda plan: (plan["gpus"], plan["replica"]))
    return {**best, "fits": fits}


def _plan(p: Mapping[str, Any], model: physics.Model, placement: physics.Placement, generations: float,
          replica: int, batch: int, context: int) -> dict[str, Any]:
    """Replicas of ``replica`` GPUs each, decoding ``batch`` sequences, as many as ``generations`` a day need."""
    gpu = GPUS[p["gpu"]]
    step = physics.decode_step(model, placement, gpu, p["weight_dtype"], p["kv_dtype"], batch, context)
    decode_tps = batch / step.estimate_s
    prefill_tps = peak_flops(gpu, p["weight_dtype"]) * replica / (2 * model.active)
    uncached = generations * p["input_tokens"] * (1 - p["cache_hit"])
    seconds = generations * p["output_tokens"] / decode_tps + uncached / prefill_tps  # replica-seconds/day
    gpu_seconds = replica * seconds
    needed = gpu_seconds / (86400 * p["utilization"])
    replicas = max(1, math.ceil(needed / replica))
    gpus = replicas * replica
    return {
        "replica": replica,
        "batch": batch,
        "gpus": gpus,
        "load": needed / gpus,
        "decode_tps": decode_tps,
        "monthly": gpus * HOURS_PER_MONTH * gpu_hour_price(p),
    }


def compute(p: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    notes: list[str] = []
    gens = daily_generations(p)
    monthly_gens = DAYS_PER_MONTH * gens
    per_gen = {tier: cost_per_generation(p, tier) for tier in PRICES}
    monthly = {tier: monthly_gens * cost for tier, cost in per_gen.items()}
    hosted = self_hosted(p, gens)
    monthly["selfhosted"] = hosted["monthly"]
    # The rent spread over the month's generations (over one, if there are fewer: it is paid anyway).
    per_gen["selfhosted"] = hosted["monthly"] / max(monthly_gens, 1)
    cheapest = min(monthly, key=lambda t: monthly[t])

    for tier in PRICES:
        if p[f"price_{tier}_cached"] > p[f"price_{tier}_in"]:
            notes.append(f"{PRICES[tier].name} tier: the cached price is above the input price; "
                         f"using the input price for cache hits.")
    if not hosted["fits"]:
        notes.append(f"Self-hosted: not one sequence of this length fits on up to {hosted['replica']} × "
                     f"{GPUS[p['gpu']].name} by vLLM's budget; costed as if it did, at batch 1.")
    elif hosted["batch"] < p["small_batch"]:
        notes.append(f"Self-hosted: only {format_count(hosted['batch'])} sequences of this length fit beside "
                     f"the weights on {hosted['replica']} × {GPUS[p['gpu']].name}; the batch is capped.")
    if hosted["replica"] > 1:
        notes.append(f"Self-hosted: the model needs {hosted['replica']} GPUs per replica to fit.")
    if gens > 0 and hosted["load"] < 0.25:
        notes.append(f"The rented GPUs would be {format_fraction(hosted['load'])} busy: at this volume you pay "
                     f"for idle hardware, and an API bills only what you use.")

    return {
        "daily_generations": gens,
        "monthly_cost_flagship": monthly["flagship"],
        "monthly_cost_mid": monthly["mid"],
        "monthly_cost_small": monthly["small"],
        "monthly_cost_small_selfhosted": monthly["selfhosted"],
        "cheapest": _TIER_LABELS[cheapest],
        "flagship_vs_selfhosted": monthly["flagship"] / monthly["selfhosted"],
        "cost_per_1k_flagship": 1000 * per_gen["flagship"],
        "cost_per_1k_mid": 1000 * per_gen["mid"],
        "cost_per_1k_small": 1000 * per_gen["small"],
        "cost_per_1k_selfhosted": 1000 * per_gen["selfhosted"],
        "monthly_input_tokens": monthly_gens * p["input_tokens"],
        "monthly_cached_tokens": monthly_gens * p["input_tokens"] * p["cache_hit"],
        "monthly_output_tokens": monthly_gens * p["output_tokens"],
        "selfhosted_gpus": hosted["gpus"],
        "selfhosted_load": hosted["load"],
        "selfhosted_tokens_per_s": hosted["decode_tps"],
    }, notes


def chart(p: Mapping[str, Any], v: Mapping[str, Any]) -> Chart:
    """The monthly bill of each tier, as bars."""
    tiers = ("flagship", "mid", "small", "selfhosted")
    keys = ("monthly_cost_flagship", "monthly_cost_mid", "monthly_cost_small", "monthly_cost_small_selfhosted")
    values = [v[k] for k in keys]
    summary = (
        f"At {format_count(v['daily_generations'])} generations a day the monthly bill is "
        + ", ".join(f"{_TIER_LABELS[t]} {format_usd(x)}" for t, x in zip(tiers, values))
        + f" ({format_count(v['selfhosted_gpus'])} GPU(s), {format_fraction(v['selfhosted_load'])} busy, "
          f"{format_tokens_per_s(v['selfhosted_tokens_per_s'])} per replica). The flagship costs "
          f"{format_ratio(v['flagship_vs_selfhosted'])} the self-hosted small model. "
          f"Prices are illustrative ({PRICES_DATE}); edit them."
    )
    return Chart(
        kind="bar",
        title="Monthly bill by tier",
        x_label="Model tier",
        y_label="USD per month",
        labels=[_TIER_LABELS[t] for t in tiers],
        series=[{"name": "Monthly bill (USD)", "values": [round(x, 2) for x in values], "kind": "bar"}],
        summary=summary,
    )


SPEC = Calculator(
    id="unit-economics",
    title="Unit economics: the monthly bill",
    summary="Daily generations from users and creation rates, priced on three API tiers with prompt caching, "
            f"and a small model self-hosted on rented GPUs. Prices are illustrative ({PRICES_DATE}) and editable.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    resolve=scenario.make_resolve(lambda p: average_context(p["input_tokens"], p["output_tokens"])),
)
