"""unit-economics: the brief's defaults and experiments, $/1M tokens and bills checked against an
independent computation, monotonicity, finiteness."""

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
from llm_inference import unit_economics as ue
from llm_inference.measurements import DECODE_POINTS
from llm_inference.hardware import GPUS
from course_calculators.spec import Choice, Number

GiB = 2**30

SPEC = ue.SPEC
TIERS = ("flagship", "mid", "small")
OPTIONS = (*TIERS, "selfhosted")
BILLS = tuple(f"monthly_cost_{o}" for o in OPTIONS)
PER_M = tuple(f"usd_per_m_{kind}_{o}" for o in OPTIONS for kind in ("input", "cached", "output"))


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
    assert {"daily_generations", *BILLS, *PER_M} <= outputs
    assert {o.unit for o in SPEC.outputs if o.name.startswith(("monthly_cost", "usd_per_m"))} == {"usd"}
    assert {"gpus", "gpu", "model", "weight_dtype", "kv_dtype"} <= params
    assert SPEC.param_map["gpus"].scenario == "gpus" and SPEC.param_map["gpu"].scenario == "gpu"


def test_the_per_million_figures_lead():
    first = [o.name for o in SPEC.outputs[:3]]
    assert first == ["usd_per_m_input_selfhosted", "usd_per_m_cached_selfhosted", "usd_per_m_output_selfhosted"]
    primary = [o.name for o in SPEC.outputs if o.primary]
    assert all(f"usd_per_m_blended_{o}" in primary for o in OPTIONS)


def test_labels_fit_any_model():
    for item in (*SPEC.outputs, *SPEC.params):
        assert "small model" not in item.label.lower() and "8b" not in item.label.lower(), item.label
    r = run(model="qwen3-32b", gpus=2)
    assert r.text["selfhosted_replica"].startswith("Qwen3 32B, bf16, on 2 × NVIDIA H100 SXM 80GB")


def test_utilization_default_is_the_measured_median_share():
    from llm_inference.physics import measured

    one_node = sorted(j.share for j in measured.judged() if j.point.gpus <= 8)
    assert len(one_node) == sum(1 for p in DECODE_POINTS if p.gpus <= 8) >= 10
    middle = len(one_node) // 2
    median = one_node[middle] if len(one_node) % 2 else (one_node[middle - 1] + one_node[middle]) / 2
    assert ue.MEASURED_DECODE_SHARE == pytest.approx(median)
    assert SPEC.defaults()["utilization"] == ue.UTILIZATION_DEFAULT == round(median, 2) == 0.47
    assert "0.47" in SPEC.param_map["utilization"].help and "median" in SPEC.param_map["utilization"].help
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
    assert v["monthly_cost_flagship"] / v["monthly_cost_small"] == pytest.approx(13, rel=0.05)
    assert v["monthly_cost_selfhosted"] > v["monthly_cost_mid"]  # notice: more than the mid tier
    assert v["selfhosted_gpus"] == 1 and v["selfhosted_load"] == pytest.approx(0.05, abs=0.01)  # busy 5%
    assert v["cheapest"] == "Small API"
    text = preset("defaults").text  # the notice's figures
    assert (text["usd_per_m_blended_flagship"], text["usd_per_m_blended_small"],
            text["usd_per_m_blended_selfhosted"]) == ("$2.65", "$0.20", "$1.30")
    assert v["usd_per_m_blended_mid"] < v["usd_per_m_blended_selfhosted"]
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
    ratio = r["monthly_cost_flagship"] / r["monthly_cost_selfhosted"]
    assert r["flagship_vs_selfhosted"] == pytest.approx(ratio)
    assert 10 <= ratio <= 30  # about an order of magnitude
    assert round(ratio) == 19  # "19× less"
    assert r["monthly_cost_selfhosted"] == d["monthly_cost_selfhosted"]  # "the same single GPU"
    assert r["monthly_cost_selfhosted"] < r["monthly_cost_small"]  # "below the small API"
    assert preset("remix-10").text["usd_per_m_blended_selfhosted"] == "$0.14"
    assert r["cheapest"] == "Self-hosted"
    assert r["selfhosted_load"] > 0.3  # "now busy"


@pytest.mark.parametrize("p", SPEC.presets, ids=lambda p: p.id)
def test_every_preset_runs_and_has_a_notice(p):
    assert p.notice and p.notice.endswith(".")
    SPEC.check_overrides(p.values)
    r = SPEC.run(p.values)
    json.dumps(r.to_dict(), allow_nan=False)
    (chart,) = r.charts
    assert chart["kind"] == "bar"
    assert chart["labels"] == ["Flagship API", "Mid API", "Small API", "Self-hosted"]
    assert "USD per 1M" in chart["y_label"]
    for series, kind in zip(chart["series"], ("input", "cached", "output")):
        np.testing.assert_allclose(series["values"], [r.values[f"usd_per_m_{kind}_{o}"] for o in OPTIONS],
                                   atol=1e-4)
    assert "illustrative" in chart["summary"] and r.text["selfhosted_replica"] in chart["summary"]


# -- an independent computation ----------------------------------------------------------------
#
# Written apart from the module, from the resolved inputs and the data tables only: the API tiers
# vectorised with numpy, the self-hosted replica from first principles (vLLM's budget, the roofline
# of a dense full-attention model, whole replicas for the month), then the rent split by GPU-seconds.

def numpy_tiers(p):
    """Daily generations, the three tiers' monthly bills, and their (input, cached, output) $/1M."""
    gens = p["dau"] * (p["remix_rate"] + p["pgc_rate"]) * p["generations_per_creation"]
    per_m = np.array([[p[f"price_{t}_in"], min(p[f"price_{t}_cached"], p[f"price_{t}_in"]), p[f"price_{t}_out"]]
                      for t in TIERS])
    mix = np.array([p["input_tokens"] * (1 - p["cache_hit"]), p["input_tokens"] * p["cache_hit"],
                    p["output_tokens"]])
    per_gen = per_m @ mix / 1e6
    return gens, 30 * gens * per_gen, per_m


def numpy_legal_sizes(heads, kv_heads, width, vocab, up_to=64):
    tp = np.arange(1, up_to + 1)
    padded = -(-vocab // 64) * 64
    ok = (heads % tp == 0) & (width % tp == 0) & (padded % tp == 0) & ((kv_heads % tp == 0) | (tp % kv_heads == 0))
    return tp[ok].tolist()


def numpy_self_hosted(p, gens):
    """(GPUs per replica, replicas, monthly rent, decode tokens/s, (input, cached, output) $/1M) for
    a dense full-attention model: vLLM's budget per GPU (visible × 0.92 − weights ÷ n − activation
    peak − 0.5 GiB) in 16-token blocks; the reader's GPUs per replica, or the next legal size that
    holds a sequence; the decode ceiling max(bytes ÷ bandwidth, FLOPs ÷ peak); prefill at the dense
    peak; the roofline work ÷ utilization in whole replicas; the rent split by GPU-seconds."""
    s = p  # the resolved inputs hold the model's shape
    gpu = GPUS[p["gpu"]]
    # the projections at the format's width with its scales (fp8: an fp32 per output row of inputs
    # ~hidden wide; int8/int4: a 16-bit scale per 128), the embedding, LM head and norms in bf16
    hidden = s["hidden_size"]
    bpw = {"shipped": 2, "bf16": 2, "fp16": 2, "fp8": 1 + 4 / hidden, "int8": 1 + 2 / 128,
           "int4": 0.5 + 2 / 128}[p["weight_dtype"]]
    params = s["params_b"] * 1e9
    outside = 2 * s["vocab_size"] * hidden + (2 * s["layers"] + 1) * hidden
    weights = (params - outside) * bpw + outside * 2
    kv_elem = {"bf16": 2, "fp16": 2, "fp8": 1}[p["kv_dtype"]]
    tokens, seqs = (8192, 1024) if gpu.visible >= 70 * GiB and "A100" not in gpu.name else (2048, 256)
    if gpu.visible >= 160 * GiB:
        tokens = 16384

    def kv_heads(n):
        return max(1, s["kv_heads"] // n)

    def blocks(n):
        forward = tokens * 2 * (3 * s["intermediate_size"] / n + 3 * s["hidden_size"])
        sampler = min(tokens, seqs) * s["vocab_size"] * 39 + tokens * s["hidden_size"] * 2
        # non-torch 0.15 GiB (NCCL is set up before the memory snapshot from 0.11.0) and the CUDA-graph
        # estimate, 0.35 GiB ÷ TP
        runtime = (0.15 + 0.35 / n) * GiB
        available = math.ceil(gpu.visible * 0.92) - weights / n - max(forward, sampler) - runtime
        page = 16 * kv_heads(n) * 2 * s["head_dim"] * kv_elem
        return max(0, int(available // page // s["layers"])) if available > 0 else 0

    def sequences(n, ctx):
        return math.floor(blocks(n) / -(-ctx // 16) + 1e-9)

    context = math.ceil(p["input_tokens"] + p["output_tokens"] / 2)
    legal = numpy_legal_sizes(s["heads"], s["kv_heads"], s["intermediate_size"], s["vocab_size"])
    n = next(m for m in legal if m >= p["gpus"] and sequences(m, context) >= 1)
    batch = min(p["batch"], sequences(n, context))
    peak = gpu.fp8_flops if p["weight_dtype"] == "fp8" else gpu.bf16_flops
    moved = weights / n + batch * context * s["layers"] * 2 * kv_heads(n) * s["head_dim"] * kv_elem
    step = max(moved / gpu.bandwidth, 2 * params * batch / (n * peak))
    input_gpu_s, output_gpu_s = 2 * params / peak, n * step / batch
    work = gens * (p["input_tokens"] * (1 - p["cache_hit"]) * input_gpu_s + p["output_tokens"] * output_gpu_s)
    replicas = max(1, math.ceil(work / p["utilization"] / (86400 * n)))
    hourly = max(p["gpu_hour_usd"], 0.01) if p["gpu_hour_usd"] > 0 else gpu.usd_per_hour
    rent = replicas * n * 720 * hourly
    per_gpu_s = rent / (30 * work)
    return n, replicas, rent, batch / step, (per_gpu_s * input_gpu_s * 1e6, 0.0, per_gpu_s * output_gpu_s * 1e6)


#: Two or three settings of each kind: the defaults, the cache, the volume, the model and its GPUs.
CASES = [
    {},
    {"cache_hit": 0},
    {"remix_rate": 0.1},
    {"dau": 10_000_000, "batch": 256},
    {"dau": 5_000_000, "gpu": "a100-40g", "weight_dtype": "int4", "utilization": 0.3},
    {"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 4, "dau": 3_000_000, "batch": 256},
    {"model": "llama-3.1-70b", "gpus": 3, "input_tokens": 32_000, "output_tokens": 2_000},  # 3: raised to 4
    {"model": "llama-3.1-70b", "gpu": "rtx-4090", "input_tokens": 32_000, "output_tokens": 2_000},
    {"price_mid_cached": 5.0},  # above the input price: capped
    {"weight_dtype": "fp8", "gpu": "h200", "dau": 30_000_000, "remix_rate": 0.3, "gpus": 2},
    {"gpu_hour_usd": 1.25, "kv_dtype": "fp8"},
]


@pytest.mark.parametrize("overrides", CASES)
def test_matches_an_independent_computation(overrides):
    SPEC.check_overrides(overrides)
    result = SPEC.run(overrides)
    p, v = result.inputs, result.values
    gens, bills, per_m = numpy_tiers(p)
    assert v["daily_generations"] == pytest.approx(gens)
    np.testing.assert_allclose([v[f"monthly_cost_{t}"] for t in TIERS], bills, rtol=1e-9)
    np.testing.assert_allclose([[v[f"usd_per_m_{kind}_{t}"] for kind in ("input", "cached", "output")]
                                for t in TIERS], per_m, rtol=1e-12)
    n, replicas, rent, tps, hosted = numpy_self_hosted(p, gens)
    assert (v["selfhosted_replica_gpus"], v["selfhosted_replicas"], v["selfhosted_gpus"]) == (n, replicas, n * replicas)
    assert v["monthly_cost_selfhosted"] == pytest.approx(rent, rel=1e-12)
    # (the reference approximates the weights' scales, and the norms every GPU holds whole: 1 %)
    assert v["selfhosted_tokens_per_s"] == pytest.approx(tps, rel=1e-2)
    np.testing.assert_allclose([v[f"usd_per_m_{kind}_selfhosted"] for kind in ("input", "cached", "output")],
                               hosted, rtol=1e-2)
    tokens = p["input_tokens"] + p["output_tokens"]
    mix = np.array([p["input_tokens"] * (1 - p["cache_hit"]), p["input_tokens"] * p["cache_hit"],
                    p["output_tokens"]])
    for option, prices in zip(OPTIONS, [*per_m, hosted]):
        assert v[f"usd_per_m_blended_{option}"] == pytest.approx(float(np.dot(prices, mix)) / tokens, rel=1e-2)


@pytest.mark.parametrize("overrides", CASES)
def test_per_million_prices_give_back_the_monthly_bill(overrides):
    v = SPEC.run(overrides).values
    month = np.array([v["monthly_input_tokens"] - v["monthly_cached_tokens"], v["monthly_cached_tokens"],
                      v["monthly_output_tokens"]])
    for option in OPTIONS:
        prices = np.array([v[f"usd_per_m_{kind}_{option}"] for kind in ("input", "cached", "output")]) / 1e6
        assert float(prices @ month) == pytest.approx(v[f"monthly_cost_{option}"], rel=1e-9)


def test_defaults_by_hand():
    # Flagship: 1,200 uncached × $3 + 2,800 cached × $0.30 + 500 out × $15, per million.
    per_gen = (1200 * 3 + 2800 * 0.3 + 500 * 15) / 1e6
    v = run().values
    assert v["monthly_cost_flagship"] == pytest.approx(30 * 11_000 * per_gen)  # $3,940
    assert v["usd_per_m_blended_flagship"] == pytest.approx(per_gen / 4500 * 1e6)  # $2.65
    assert v["monthly_cost_selfhosted"] == pytest.approx(720 * 2.69)  # one H100 all month, listed price
    assert GPUS["h100-sxm"].usd_per_hour == 2.69
    # 32 sequences of 4,250 tokens on one H100: 16.06 GB of weights + 32 × 4,250 × 128 KiB per step.
    step = (8.030261248e9 * 2 + 32 * 4250 * 131072) / 3.35e12
    assert v["selfhosted_tokens_per_s"] == pytest.approx(32 / step)
    # A day: 11,000 × (1,200 uncached × 2 × 8.03e9 ÷ 989e12 + 500 × step ÷ 32) GPU-seconds of roofline
    # work; the month's $1,936.80 over 30 days of it is the price of a roofline GPU-second.
    input_s, output_s = 2 * 8.030261248e9 / 989e12, step / 32
    work = 11_000 * (1200 * input_s + 500 * output_s)
    per_s = 720 * 2.69 / (30 * work)
    assert v["usd_per_m_input_selfhosted"] == pytest.approx(per_s * input_s * 1e6)
    assert v["usd_per_m_output_selfhosted"] == pytest.approx(per_s * output_s * 1e6)
    assert v["usd_per_m_cached_selfhosted"] == 0
    assert v["selfhosted_load"] == pytest.approx(work / 0.47 / 86400)


def test_the_gpu_count_is_the_scenarios():
    one, two = run(model="llama-3.1-70b", gpus=2).values, run(model="llama-3.1-70b", gpus=8).values
    assert (one["selfhosted_replica_gpus"], two["selfhosted_replica_gpus"]) == (2, 8)
    assert run(gpus=2).values["selfhosted_replica_gpus"] == 2  # the reader's size, though 1 would fit
    r = run(model="llama-3.1-70b")  # 1 GPU does not hold 70B in bf16: raised, and said
    assert r.values["selfhosted_replica_gpus"] == 2 and any("next size that works" in n for n in r.notes)
    r = run(gpus=3)  # not a size vLLM accepts for Llama 3.1 8B
    assert r.values["selfhosted_replica_gpus"] == 4 and any("not a size vLLM accepts" in n for n in r.notes)


def test_the_model_is_the_scenarios():
    assert SPEC.param_map["model"].scenario == "model" and SPEC.defaults()["model"] == "llama-3.1-8b"
    bigger = run(model="llama-3.1-70b").values
    assert bigger["selfhosted_gpus"] >= 2 and bigger["monthly_cost_selfhosted"] > run().values[
        "monthly_cost_selfhosted"]


@pytest.mark.parametrize("model_id", ["llama-3.1-70b", "qwen3-32b"])
def test_a_pasted_config_costs_as_its_catalogue_model(model_id):
    """The scenario's pasted config.json (kv-cache's and decode-roofline's ``config``) carries to this
    page: pasted, it is read as the catalogue model of that config, and every self-hosted figure is
    that model's."""
    from llm_inference.models import CATALOGUE
    assert SPEC.param_map["config"].scenario == "config"
    text = json.dumps(CATALOGUE[model_id].config)
    pasted, chosen = run(config=text, gpus=2), run(model=model_id, gpus=2)
    assert pasted.inputs["model"] == model_id
    hosted = [name for name in chosen.values if "selfhosted" in name]
    assert len(hosted) > 10 and chosen.values["usd_per_m_output_selfhosted"] > 0
    assert {n: pasted.values[n] for n in hosted} == {n: chosen.values[n] for n in hosted}
    assert any("read as" in note for note in pasted.notes)


def test_an_unreadable_config_costs_no_self_hosting():
    r = run(config='{"architectures": ["NotAModel"]}')
    assert all(value is None for name, value in r.values.items() if "selfhosted" in name)
    assert r.values["monthly_cost_flagship"] == run().values["monthly_cost_flagship"] > 0  # the APIs still are
    assert r.values["cheapest"] != "Self-hosted"
    assert any("config.json" in note and "Nothing is computed" in note for note in r.notes)
    assert any(note.startswith("Self-hosted: not costed") for note in r.notes)


def test_cached_price_above_input_is_capped_with_a_note():
    r = run(price_flagship_cached=10)
    assert r.values["monthly_cost_flagship"] == pytest.approx(run(price_flagship_cached=3).values[
        "monthly_cost_flagship"])
    assert r.values["usd_per_m_cached_flagship"] == 3
    assert any("cached price is above" in n for n in r.notes)


def test_batch_capped_by_memory_note():
    r = run(input_tokens=100_000, batch=64)
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
        if a[bill] is None or b[bill] is None:  # self-hosting not costed (an unpriced GPU): nothing to compare
            assert bill == "monthly_cost_selfhosted" and a[bill] is b[bill] is None
            continue
        assert b[bill] <= a[bill] * (1 + 1e-12)
    for tier in TIERS:
        saving = (hi - lo) * p["input_tokens"] * (p[f"price_{tier}_in"] - min(p[f"price_{tier}_cached"],
                                                                            p[f"price_{tier}_in"]))
        per_gen = a[f"usd_per_m_blended_{tier}"] * (p["input_tokens"] + p["output_tokens"]) / 1e6
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
        if a[bill] is None or b[bill] is None:  # self-hosting not costed (an unpriced GPU): nothing to compare
            assert bill == "monthly_cost_selfhosted" and a[bill] is b[bill] is None
            continue
        assert b[bill] >= a[bill] * (1 - 1e-12)


@settings(max_examples=100, deadline=None)
@given(inputs, st.floats(1.0, 10.0))
def test_cheaper_gpus_cheaper_self_hosting(p, factor):
    a = values(p)
    b = values({**p, "utilization": min(1, p["utilization"] * factor)})
    if a["monthly_cost_selfhosted"] is None:  # not costed (an unpriced GPU, a refused format): nothing to compare
        assert b["monthly_cost_selfhosted"] is None
        return
    assert b["monthly_cost_selfhosted"] <= a["monthly_cost_selfhosted"]
    cheaper = p["gpu_hour_usd"] / factor
    if p["gpu_hour_usd"] > 0 and cheaper == 0:  # underflow: 0 would mean "the listed price"
        return
    c = values({**p, "gpu_hour_usd": cheaper})
    assert c["monthly_cost_selfhosted"] <= a["monthly_cost_selfhosted"] * (1 + 1e-12)
# -- no NaN, no inf -----------------------------------------------------------------------------

def test_every_number_at_its_min_and_max_alone():
    for param in SPEC.params:
        if not isinstance(param, (Choice, Number)):
            continue  # free text (a pasted config.json): the tests above paste them
        values = param.values if isinstance(param, Choice) else (param.min, param.max)
        for value in values:
            r = SPEC.run({param.name: value})
            json.dumps(r.to_dict(), allow_nan=False)


def test_grid_of_extremes_is_finite():
    keys = ("dau", "remix_rate", "pgc_rate", "generations_per_creation", "cache_hit", "input_tokens",
            "output_tokens", "params_b", "batch", "utilization")
    for corner in itertools.product(*((numbers[k].min, numbers[k].max) for k in keys)):
        raw = dict(zip(keys, corner))
        for prices in (0, 1000):
            for gpu in ("rtx-4090", "b200"):
                full = {**raw, "model": "custom", "gpu": gpu, **{f"price_{t}_{k}": prices for t in TIERS
                                                   for k in ("in", "cached", "out")}}
                r = SPEC.run(full)  # raises on any non-finite output or chart value
                assert r.values["monthly_cost_selfhosted"] > 0
                json.dumps(r.to_dict(), allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(inputs)
def test_random_inputs_are_finite(p):
    r = SPEC.run(p)
    json.dumps(r.to_dict(), allow_nan=False)
    for name, value in r.values.items():
        if value is None:  # not computed: only self-hosting, and only with a note saying why
            assert "selfhosted" in name, name
            assert any(n.startswith("Self-hosted: ") for n in r.notes), (name, r.notes)
        elif isinstance(value, float):
            assert math.isfinite(value), (name, value)
    assert all(r.values[b] >= 0 for b in BILLS if r.values[b] is not None)
    assert all(r.values[b] is not None for b in BILLS if "selfhosted" not in b)  # the APIs always are


def test_subnormal_volume_is_finite():
    r = run(remix_rate=0, pgc_rate=1.1125369292536007e-308)  # found by hypothesis
    assert all(math.isfinite(r.values[name]) for name in PER_M)


def test_zero_volume():
    r = run(remix_rate=0, pgc_rate=0)
    v = r.values
    assert v["daily_generations"] == 0
    assert v["monthly_cost_flagship"] == 0
    assert v["monthly_cost_selfhosted"] == pytest.approx(720 * 2.69)  # the GPU is rented anyway
    assert v["flagship_vs_selfhosted"] == 0
    # a fully loaded replica's prices, and the note says so
    full = run(dau=10**9, remix_rate=1, pgc_rate=0, generations_per_creation=1000).values
    assert v["usd_per_m_output_selfhosted"] <= full["usd_per_m_output_selfhosted"] * (1 + 1e-9)
    assert any("Fewer than one generation a month" in n for n in r.notes)
