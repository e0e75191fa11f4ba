"""unit-economics: the brief's defaults and experiments, an independent numpy bill, monotonicity, finiteness."""

from __future__ import annotations

import itertools
import json
import math
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_calculators
from llm_inference import interconnects
from llm_inference import unit_economics as ue
from llm_inference.hardware import GPUS
from course_calculators.spec import Choice, Number

GiB = 2**30

SPEC = ue.SPEC
TIERS = ("flagship", "mid", "small")
BILLS = ("monthly_cost_flagship", "monthly_cost_mid", "monthly_cost_small", "monthly_cost_small_selfhosted")


def run(**overrides):
    return SPEC.run(overrides)


def preset(pid):
    return SPEC.run(SPEC.preset(pid).values)


# -- the catalogue and the price table ----------------------------------------------------------

def test_registered_with_the_contract_names():
    assert course_calculators.get("unit-economics") is SPEC
    params = {p.name for p in SPEC.params}
    assert {"dau", "remix_rate", "pgc_rate", "cache_hit", "input_tokens", "output_tokens"} <= params
    for tier in TIERS:
        assert {f"price_{tier}_in", f"price_{tier}_cached", f"price_{tier}_out"} <= params
    outputs = {o.name for o in SPEC.outputs}
    assert {"daily_generations", "monthly_cost_flagship", "monthly_cost_mid", "monthly_cost_small",
            "monthly_cost_small_selfhosted"} <= outputs
    assert {o.unit for o in SPEC.outputs if o.name.startswith("monthly_cost")} == {"usd"}
    assert {"defaults", "cache-0", "cache-95", "remix-10"} <= {p.id for p in SPEC.presets}


def test_brief_defaults():
    d = SPEC.defaults()
    assert d["dau"] == 100_000
    assert d["remix_rate"] == pytest.approx(1 / 100)
    assert d["pgc_rate"] == pytest.approx(1 / 1000)
    assert d["cache_hit"] == pytest.approx(0.7)


def test_cache_hit_is_a_fraction_from_the_url():
    param = SPEC.param_map["cache_hit"]
    assert (param.min, param.max, param.step, param.integer) == (0, 1, 0.01, False)
    values, notes = SPEC.convert({"cache_hit": "0.95"})  # ?unit-economics.cache_hit=0.95
    assert values["cache_hit"] == 0.95 and notes == []
    _, notes = SPEC.convert({"cache_hit": "95"})
    assert notes  # 95 is above the maximum: clamped to 1, and said so


def test_prices_are_dated_described_and_differ_by_vendor():
    assert ue.PRICES_DATE == "2026-11"
    assert "USD per 1M tokens" in ue.PRICES_SOURCE and "illustrative" in ue.PRICES_SOURCE.lower()
    assert set(ue.PRICES) == set(TIERS)
    discounts = [t.cached_input / t.input for t in ue.PRICES.values()]
    assert discounts == pytest.approx([0.10, 0.25, 0.50])  # 10% at one vendor, 25-50% at others
    for t in ue.PRICES.values():
        assert 0 < t.cached_input < t.input < t.output
    flagship, mid, small = (ue.PRICES[t] for t in TIERS)
    assert flagship.output > mid.output > small.output
    d = SPEC.defaults()
    for t in ue.PRICES.values():
        assert (d[f"price_{t.id}_in"], d[f"price_{t.id}_cached"], d[f"price_{t.id}_out"]) == (
            t.input, t.cached_input, t.output)


def test_self_hosting_uses_the_physics_not_another_calculator():
    source = pathlib.Path(ue.__file__).read_text()
    assert "physics.decode_step" in source and "physics.pool" in source
    assert "decode_roofline" not in source and ".compute(" not in source
    assert "bandwidth" not in source  # no roofline of its own


# -- the brief's experiments --------------------------------------------------------------------

def test_defaults_preset():
    v = preset("defaults").values
    assert v["daily_generations"] == pytest.approx(11_000)  # 100,000 × (1/100 + 1/1000) × 10
    assert v["monthly_cost_flagship"] > v["monthly_cost_mid"] > v["monthly_cost_small"] > 0
    assert v["monthly_cost_flagship"] / v["monthly_cost_small"] == pytest.approx(13, rel=0.05)  # notice: 13×
    assert v["monthly_cost_small_selfhosted"] > v["monthly_cost_mid"]  # notice: more than the mid tier
    assert v["selfhosted_gpus"] == 1 and v["selfhosted_load"] == pytest.approx(0.05, abs=0.01)  # busy 5%
    assert v["cheapest"] == "Small API"
    assert any("idle" in n for n in preset("defaults").notes)


def test_cache_presets_move_the_bill():
    d, c0, c95 = (preset(p).values for p in ("defaults", "cache-0", "cache-95"))
    for bill in BILLS[:3]:
        assert c0[bill] > d[bill] > c95[bill]
    assert c0["monthly_cost_flagship"] / d["monthly_cost_flagship"] == pytest.approx(1.6, abs=0.05)  # "about 60%"
    drop = 1 - c95["monthly_cost_flagship"] / d["monthly_cost_flagship"]
    assert 0.2 < drop < 0.25  # "almost a quarter"
    assert c95["monthly_cost_flagship"] < c0["monthly_cost_flagship"] / 2  # "more than half"
    assert c0["monthly_cached_tokens"] == 0
    assert c95["monthly_cached_tokens"] == pytest.approx(0.95 * c95["monthly_input_tokens"])


def test_remix_10_flagship_runs_away_and_self_hosting_is_an_order_of_magnitude_cheaper():
    d, r = preset("defaults").values, preset("remix-10").values
    assert r["daily_generations"] == pytest.approx(101_000)
    assert r["monthly_cost_flagship"] / d["monthly_cost_flagship"] == pytest.approx(101 / 11)  # "9×"
    assert r["monthly_cost_flagship"] == pytest.approx(36_000, rel=0.02)  # "$36k a month"
    ratio = r["monthly_cost_flagship"] / r["monthly_cost_small_selfhosted"]
    assert r["flagship_vs_selfhosted"] == pytest.approx(ratio)
    assert 10 <= ratio <= 30  # about an order of magnitude ("20× less")
    assert round(ratio) == 19
    assert r["monthly_cost_small_selfhosted"] == d["monthly_cost_small_selfhosted"]  # "the same single GPU"
    assert r["monthly_cost_small_selfhosted"] < r["monthly_cost_small"]  # "beats the small API"
    assert r["cheapest"] == "Self-hosted small"
    assert r["selfhosted_load"] > 0.3  # "now busy"


@pytest.mark.parametrize("p", SPEC.presets, ids=lambda p: p.id)
def test_every_preset_runs_and_has_a_notice(p):
    assert p.notice and p.notice.endswith(".")
    SPEC.check_overrides(p.values)
    r = SPEC.run(p.values)
    json.dumps(r.to_dict(), allow_nan=False)
    (chart,) = r.charts
    assert chart["kind"] == "bar"
    assert chart["labels"] == ["Flagship API", "Mid API", "Small API", "Self-hosted small"]
    assert "USD" in chart["y_label"] or "$" in chart["y_label"]
    np.testing.assert_allclose(chart["series"][0]["values"], [r.values[b] for b in BILLS], atol=0.01)
    assert "illustrative" in chart["summary"]


# -- an independent computation in numpy --------------------------------------------------------

def numpy_bills(p):
    """The brief's formula for the three API tiers, vectorised over tiers."""
    gens = p["dau"] * (p["remix_rate"] + p["pgc_rate"]) * p["generations_per_creation"]
    base = np.array([p[f"price_{t}_in"] for t in TIERS]) / 1e6
    cached = np.minimum(np.array([p[f"price_{t}_cached"] for t in TIERS]) / 1e6, base)
    out = np.array([p[f"price_{t}_out"] for t in TIERS]) / 1e6
    tokens_in = np.array([p["input_tokens"] * (1 - p["cache_hit"]), p["input_tokens"] * p["cache_hit"]])
    per_gen = tokens_in[0] * base + tokens_in[1] * cached + p["output_tokens"] * out
    return gens, 30 * gens * per_gen


def numpy_legal_sizes(heads, kv_heads, width, vocab, up_to=64):
    tp = np.arange(1, up_to + 1)
    padded = -(-vocab // 64) * 64
    ok = (heads % tp == 0) & (width % tp == 0) & (padded % tp == 0) & ((kv_heads % tp == 0) | (tp % kv_heads == 0))
    return tp[ok].tolist()


def numpy_self_hosted(p, gens):
    """GPU-hours from first principles for a dense full-attention model: vLLM's budget per GPU
    (visible × 0.92 − weights ÷ n − activation peak − 0.5 GiB), 16-token blocks, the roofline with
    2 all-reduces per layer, then whole GPUs for the month."""
    s = p  # the resolved inputs hold the model's shape
    gpu = GPUS[p["gpu"]]
    bpw = {"bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}[p["weight_dtype"]]
    params = s["params_b"] * 1e9
    weights = params * bpw
    kv_elem = {"bf16": 2, "fp16": 2, "fp8": 1}[p["kv_dtype"]]
    tokens, seqs = (8192, 1024) if gpu.visible >= 70 * GiB and "A100" not in gpu.name else (2048, 256)
    if gpu.visible >= 160 * GiB:
        tokens = 16384

    def kv_heads(n):
        return max(1, s["kv_heads"] // n)

    def blocks(n):
        forward = tokens * 2 * (3 * s["intermediate_size"] / n + 3 * s["hidden_size"])
        sampler = min(tokens, seqs) * s["vocab_size"] * 39 + tokens * s["hidden_size"] * 2
        # non-torch 0.15 GiB (+ 0.12 GiB of NCCL under TP) and the CUDA-graph estimate, 0.35 GiB ÷ TP
        runtime = (0.15 + (0.12 if n > 1 else 0) + 0.35 / n) * GiB
        available = math.ceil(gpu.visible * 0.92) - weights / n - max(forward, sampler) - runtime
        page = 16 * kv_heads(n) * 2 * s["head_dim"] * kv_elem
        return max(0, int(available // page // s["layers"])) if available > 0 else 0

    def sequences(n, ctx):
        return math.floor(blocks(n) / -(-ctx // 16) + 1e-9)

    context = math.ceil(p["input_tokens"] + p["output_tokens"] / 2)
    longest = math.ceil(1_000_000 + 100_000 / 2)
    legal = numpy_legal_sizes(s["heads"], s["kv_heads"], s["intermediate_size"], s["vocab_size"])
    upper = max(8, next((n for n in legal if sequences(n, longest) >= 1), legal[-1]))
    peak_one = gpu.fp8_flops if p["weight_dtype"] == "fp8" else gpu.bf16_flops
    link = interconnects.LINKS[gpu.id]
    latency = {None: 6.0 if link.link_bandwidth else 42.56}.get(link.allreduce_small_us, link.allreduce_small_us)
    link_bw = (link.link_bandwidth or link.pcie_bandwidth) / 2
    plans = []
    for n in [m for m in legal if m <= upper]:
        if sequences(n, context) < 1:
            continue
        batch = min(p["small_batch"], sequences(n, context))
        moved = weights / n + batch * context * s["layers"] * 2 * kv_heads(n) * s["head_dim"] * kv_elem
        step = max(moved / gpu.bandwidth, 2 * params * batch / (n * peak_one))
        if n > 1:
            lat, bw = (47.0, 50e9) if n > 8 else (latency, link_bw)  # beyond 8 GPUs: InfiniBand between nodes
            step += 2 * s["layers"] * (lat * 1e-6 + 2 * (n - 1) / n * batch * s["hidden_size"] * 2 / bw)
        decode_tps = batch / step
        prefill_tps = peak_one * n / (2 * params)
        seconds = gens * p["output_tokens"] / decode_tps + gens * p["input_tokens"] * (1 - p["cache_hit"]) / prefill_tps
        needed = n * seconds / (86400 * p["utilization"])
        plans.append((n * max(1, math.ceil(needed / n)), n, decode_tps))
    gpus, _, decode_tps = min(plans, key=lambda plan: plan[:2])  # the cheapest
    price = max(p["gpu_hour_usd"], 0.01) if p["gpu_hour_usd"] > 0 else gpu.usd_per_hour
    return gpus, gpus * 720 * price, decode_tps


CASES = [
    {},
    {"cache_hit": 0},
    {"cache_hit": 0.95},
    {"remix_rate": 0.1},
    {"dau": 10_000_000, "small_batch": 256},
    {"dau": 5_000_000, "gpu": "a100-40g", "weight_dtype": "int4", "utilization": 0.3},
    {"model": "llama-3.1-70b", "gpu": "rtx-4090", "input_tokens": 32_000, "output_tokens": 2_000},
    {"model": "llama-3.1-70b", "gpu": "h100-sxm", "dau": 3_000_000, "small_batch": 256},
    {"price_mid_cached": 5.0},  # above the input price: capped
    {"weight_dtype": "fp8", "gpu": "h200", "dau": 30_000_000, "remix_rate": 0.3},
    {"gpu_hour_usd": 1.25, "kv_dtype": "fp8"},
]


@pytest.mark.parametrize("overrides", CASES)
def test_matches_independent_numpy_computation(overrides):
    SPEC.check_overrides(overrides)
    result = SPEC.run(overrides)
    p, v = result.inputs, result.values
    gens, bills = numpy_bills(p)
    assert v["daily_generations"] == pytest.approx(gens)
    np.testing.assert_allclose([v["monthly_cost_flagship"], v["monthly_cost_mid"], v["monthly_cost_small"]],
                               bills, rtol=1e-9)
    gpus, cost, tps = numpy_self_hosted(p, gens)
    assert v["selfhosted_gpus"] == gpus
    assert v["monthly_cost_small_selfhosted"] == pytest.approx(cost)
    assert v["selfhosted_tokens_per_s"] == pytest.approx(tps, rel=1e-9)
    assert v["cost_per_1k_flagship"] == pytest.approx(1000 * bills[0] / (30 * gens))


def test_defaults_by_hand():
    # Flagship: 1,200 uncached × $3 + 2,800 cached × $0.30 + 500 out × $15, per million.
    per_gen = (1200 * 3 + 2800 * 0.3 + 500 * 15) / 1e6
    v = run().values
    assert v["cost_per_1k_flagship"] == pytest.approx(1000 * per_gen)  # $11.94
    assert v["monthly_cost_flagship"] == pytest.approx(30 * 11_000 * per_gen)  # $3,940
    assert v["monthly_cost_small_selfhosted"] == pytest.approx(720 * 2.69)  # one H100 all month, listed price
    assert GPUS["h100-sxm"].usd_per_hour == 2.69
    # 32 sequences of 4,250 tokens on one H100: 16.06 GB of weights + 32 × 4,250 × 128 KiB per step
    step = (8.030261248e9 * 2 + 32 * 4250 * 131072) / 3.35e12
    assert v["selfhosted_tokens_per_s"] == pytest.approx(32 / step)


def test_the_model_is_the_scenarios():
    assert SPEC.param_map["model"].scenario == "model" and SPEC.defaults()["model"] == "llama-3.1-8b"
    bigger = run(model="llama-3.1-70b").values
    assert bigger["selfhosted_gpus"] >= 2 and bigger["monthly_cost_small_selfhosted"] > run().values[
        "monthly_cost_small_selfhosted"]


def test_cached_price_above_input_is_capped_with_a_note():
    r = run(price_flagship_cached=10)
    assert r.values["monthly_cost_flagship"] == pytest.approx(run(price_flagship_cached=3).values[
        "monthly_cost_flagship"])
    assert any("cached price is above" in n for n in r.notes)


def test_batch_capped_by_memory_note():
    r = run(input_tokens=100_000, small_batch=64)
    assert any("batch is capped" in n for n in r.notes)


# -- monotonicity -------------------------------------------------------------------------------

numbers = {p.name: p for p in SPEC.params if isinstance(p, Number)}


def _value(name):
    p = numbers[name]
    if p.integer:
        return st.integers(int(p.min), int(p.max))
    return st.floats(p.min, p.max, allow_nan=False, allow_infinity=False)


def values(p):
    """The calculator's outputs for raw inputs (resolved like a reader's)."""
    return SPEC.run(p).values


inputs = st.fixed_dictionaries({
    **{name: _value(name) for name in numbers},
    "weight_dtype": st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
    "gpu": st.sampled_from(sorted(GPUS)),
    "model": st.sampled_from(["llama-3.1-8b", "qwen3-0.6b", "custom", "mixtral-8x7b"]),
})


@settings(max_examples=200, deadline=None)
@given(inputs, st.floats(0, 1))
def test_higher_cache_hit_lower_bill(p, other):
    lo, hi = sorted((p["cache_hit"], other))
    a = values({**p, "cache_hit": lo})
    b = values({**p, "cache_hit": hi})
    for bill in BILLS:
        assert b[bill] <= a[bill] * (1 + 1e-12)
    for tier in TIERS:
        saving = (hi - lo) * p["input_tokens"] * (p[f"price_{tier}_in"] - min(p[f"price_{tier}_cached"],
                                                                            p[f"price_{tier}_in"]))
        per_gen = a[f"cost_per_1k_{tier}"] / 1000
        if saving / 1e6 > 1e-9 * per_gen and a["daily_generations"] > 0:  # strictly, above float noise
            assert b[f"monthly_cost_{tier}"] < a[f"monthly_cost_{tier}"]


@settings(max_examples=200, deadline=None)
@given(inputs, st.sampled_from(["dau", "remix_rate", "pgc_rate", "generations_per_creation", "input_tokens",
                                "output_tokens"]), st.floats(1.0, 100.0))
def test_more_volume_higher_bill(p, name, factor):
    param = numbers[name]
    bigger = min(param.max, p[name] * factor + (1 if param.integer else 0))
    bigger = int(bigger) if param.integer else bigger
    a = values(p)
    b = values({**p, name: bigger})
    for bill in BILLS:
        assert b[bill] >= a[bill] * (1 - 1e-12)


@settings(max_examples=100, deadline=None)
@given(inputs, st.floats(1.0, 10.0))
def test_cheaper_gpus_cheaper_self_hosting(p, factor):
    a = values(p)
    b = values({**p, "utilization": min(1, p["utilization"] * factor)})
    assert b["monthly_cost_small_selfhosted"] <= a["monthly_cost_small_selfhosted"]
    cheaper = p["gpu_hour_usd"] / factor
    if p["gpu_hour_usd"] > 0 and cheaper == 0:  # underflow: 0 would mean "the listed price"
        return
    c = values({**p, "gpu_hour_usd": cheaper})
    assert c["monthly_cost_small_selfhosted"] <= a["monthly_cost_small_selfhosted"] * (1 + 1e-12)
# -- no NaN, no inf -----------------------------------------------------------------------------

def test_every_number_at_its_min_and_max_alone():
    for param in SPEC.params:
        values = param.values if isinstance(param, Choice) else (param.min, param.max)
        for value in values:
            r = SPEC.run({param.name: value})
            json.dumps(r.to_dict(), allow_nan=False)


def test_grid_of_extremes_is_finite():
    keys = ("dau", "remix_rate", "pgc_rate", "generations_per_creation", "cache_hit", "input_tokens",
            "output_tokens", "params_b", "small_batch", "utilization")
    for corner in itertools.product(*((numbers[k].min, numbers[k].max) for k in keys)):
        raw = dict(zip(keys, corner))
        for prices in (0, 1000):
            for gpu in ("rtx-4090", "b200"):
                full = {**raw, "model": "custom", "gpu": gpu, **{f"price_{t}_{k}": prices for t in TIERS
                                                   for k in ("in", "cached", "out")}}
                r = SPEC.run(full)  # raises on any non-finite output or chart value
                assert r.values["monthly_cost_small_selfhosted"] > 0
                json.dumps(r.to_dict(), allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(inputs)
def test_random_inputs_are_finite(p):
    r = SPEC.run(p)
    json.dumps(r.to_dict(), allow_nan=False)
    assert all(r.values[b] >= 0 for b in BILLS)


def test_subnormal_volume_is_finite():
    r = run(remix_rate=0, pgc_rate=1.1125369292536007e-308)  # found by hypothesis
    assert math.isfinite(r.values["cost_per_1k_selfhosted"])


def test_zero_volume():
    v = run(remix_rate=0, pgc_rate=0).values
    assert v["daily_generations"] == 0
    assert v["monthly_cost_flagship"] == 0
    assert v["cost_per_1k_selfhosted"] == pytest.approx(1000 * 720 * 2.69)  # the rent over one generation
    assert v["monthly_cost_small_selfhosted"] == pytest.approx(720 * 2.69)  # the GPU is rented anyway
    assert v["flagship_vs_selfhosted"] == 0
