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
from calculators import decode_roofline, kv_cache
from calculators import unit_economics as ue
from calculators.hardware import GPUS
from course_calculators.spec import Choice, Number

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


def test_self_hosting_reuses_the_roofline():
    source = pathlib.Path(ue.__file__).read_text()
    assert "decode_roofline.aggregate_tokens_per_s" in source and "decode_roofline.compute" in source
    assert "bandwidth" not in source.replace("decode_roofline", "")  # no roofline of its own


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
    assert round(ratio) == 20
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


def numpy_self_hosted(p, gens):
    """GPU-hours from first principles: roofline of an 8B-shaped model, then whole GPUs for the month."""
    gpu = GPUS[p["small_gpu"]]
    bpw = {"bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}[p["small_weight_dtype"]]
    kv_per_token = 2 * 32 * 8 * 128 * 2
    context = math.ceil(p["input_tokens"] + p["output_tokens"] / 2)
    weights = p["small_params_b"] * 1e9 * bpw
    usable_per_gpu = gpu.memory_bytes * 0.9
    smallest = max(1, math.ceil((weights + context * kv_per_token) / usable_per_gpu))
    longest = math.ceil(1_000_000 + 100_000 / 2)  # the longest context the inputs allow
    largest = max(8, math.ceil((weights + longest * kv_per_token) / usable_per_gpu))
    plans = []  # (gpus, replica, decode_tps) for each replica size that fits, the cheapest wins
    for replica in range(smallest, max(smallest, largest) + 1):
        free = usable_per_gpu * replica - weights
        batch = max(1, min(p["small_batch"], int(free // (context * kv_per_token))))
        peak = (gpu.fp8_flops if p["small_weight_dtype"] == "fp8" else gpu.bf16_flops) * replica
        bandwidth = gpu.bandwidth * replica
        flops = 2 * p["small_params_b"] * 1e9
        intensity = flops * batch / (weights + batch * context * kv_per_token)
        decode_tps = np.minimum(peak, intensity * bandwidth) / flops
        prefill_tps = peak / flops
        seconds = (gens * p["output_tokens"] / decode_tps
                   + gens * p["input_tokens"] * (1 - p["cache_hit"]) / prefill_tps)
        needed = replica * seconds / (86400 * p["utilization"])
        plans.append((replica * max(1, math.ceil(needed / replica)), replica, decode_tps))
    gpus, _, decode_tps = min(plans, key=lambda plan: plan[:2])  # the cheapest
    return gpus, gpus * 720 * p["gpu_hour_usd"], decode_tps


CASES = [
    {},
    {"cache_hit": 0},
    {"cache_hit": 0.95},
    {"remix_rate": 0.1},
    {"dau": 10_000_000, "small_batch": 256},
    {"dau": 5_000_000, "small_gpu": "a100-40g", "small_weight_dtype": "int4", "utilization": 0.3},
    {"small_params_b": 70, "small_gpu": "rtx-4090", "input_tokens": 32_000, "output_tokens": 2_000},
    {"price_mid_cached": 5.0},  # above the input price: capped
    {"small_weight_dtype": "fp8", "small_gpu": "h200", "dau": 30_000_000, "remix_rate": 0.3},
]


@pytest.mark.parametrize("overrides", CASES)
def test_matches_independent_numpy_computation(overrides):
    p = SPEC.check_overrides(overrides)
    v = SPEC.run(p).values
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
    assert v["monthly_cost_small_selfhosted"] == pytest.approx(720 * 2.5)  # one H100 all month
    replica = {**decode_roofline.SPEC.defaults(), **ue.SMALL_MODEL_SHAPE, "params_b": 8, "batch": 32,
               "context": 4250}
    assert v["selfhosted_tokens_per_s"] == pytest.approx(decode_roofline.aggregate_tokens_per_s(replica, 32))
    assert kv_cache.kv_bytes_per_token(replica) == 131072  # Llama 3.1 8B: 128 KiB


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


inputs = st.fixed_dictionaries({
    **{name: _value(name) for name in numbers},
    "small_weight_dtype": st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
    "small_gpu": st.sampled_from(sorted(GPUS)),
})


@settings(max_examples=200, deadline=None)
@given(inputs, st.floats(0, 1))
def test_higher_cache_hit_lower_bill(p, other):
    lo, hi = sorted((p["cache_hit"], other))
    a, _ = ue.compute({**p, "cache_hit": lo})
    b, _ = ue.compute({**p, "cache_hit": hi})
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
    a, _ = ue.compute(p)
    b, _ = ue.compute({**p, name: bigger})
    for bill in BILLS:
        assert b[bill] >= a[bill] * (1 - 1e-12)


@settings(max_examples=100, deadline=None)
@given(inputs, st.floats(1.0, 10.0))
def test_cheaper_gpus_cheaper_self_hosting(p, factor):
    a, _ = ue.compute(p)
    b, _ = ue.compute({**p, "utilization": min(1, p["utilization"] * factor)})
    assert b["monthly_cost_small_selfhosted"] <= a["monthly_cost_small_selfhosted"]
    c, _ = ue.compute({**p, "gpu_hour_usd": p["gpu_hour_usd"] / factor})
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
            "output_tokens", "small_params_b", "small_batch", "utilization")
    for corner in itertools.product(*((numbers[k].min, numbers[k].max) for k in keys)):
        raw = dict(zip(keys, corner))
        for prices in (0, 1000):
            for gpu in ("rtx-4090", "b200"):
                full = {**raw, "small_gpu": gpu, **{f"price_{t}_{k}": prices for t in TIERS
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
    assert v["cost_per_1k_selfhosted"] == pytest.approx(1000 * 1800)  # the rent over one generation
    assert v["monthly_cost_small_selfhosted"] == pytest.approx(1800)  # the GPU is rented anyway
    assert v["flagship_vs_selfhosted"] == 0
