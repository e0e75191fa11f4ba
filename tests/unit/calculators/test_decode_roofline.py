"""decode-roofline: the chapter's figures, its presets, an independent numpy roofline, monotonicity, finiteness."""

from __future__ import annotations

import itertools
import json
import math
import pathlib
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_calculators
from calculators import decode_roofline as dr
from calculators import kv_cache
from calculators.hardware import GPU, GPUS
from course_calculators.spec import Choice, Number

SPEC = dr.SPEC
H100 = GPUS["h100-sxm"]
KV_70B = 2 * 80 * 8 * 128 * 2  # 327,680 bytes = 320 KiB per token in bf16


def run(**overrides):
    return SPEC.run(overrides)


def preset(pid):
    return SPEC.run(SPEC.preset(pid).values)


# -- the catalogue ------------------------------------------------------------------------------

def test_registered_with_the_contract_names():
    assert course_calculators.get("decode-roofline") is SPEC
    params = {p.name for p in SPEC.params}
    assert {"params_b", "active_params_b", "weight_dtype", "gpu", "gpus", "batch", "context",
            "prompt_tokens", "kv_dtype", "reserve_pct", "layers", "kv_heads", "head_dim"} <= params
    outputs = {o.name for o in SPEC.outputs}
    assert {"tokens_per_s", "throughput", "ttft_s", "bound", "fits", "step_time_s", "weight_bytes",
            "kv_bytes", "ridge_point", "arithmetic_intensity"} <= outputs
    assert "h100-70b-bf16" in {p.id for p in SPEC.presets}


def test_model_shape_defaults_are_llama3_70b():
    d = SPEC.defaults()
    assert (d["layers"], d["kv_heads"], d["head_dim"]) == (80, 8, 128)
    assert kv_cache.kv_bytes_per_token(d) == KV_70B


def test_kv_formula_is_imported_not_copied():
    source = pathlib.Path(dr.__file__).read_text()
    assert "kv_cache.kv_bytes_per_token" in source
    assert "2 * p[\"layers\"]" not in source


# -- the chapter's figures ----------------------------------------------------------------------

def test_h100_70b_bf16_is_about_24_tokens_per_s():
    r = preset("h100-70b-bf16")
    assert r.values["tokens_per_s"] == pytest.approx(3.35e12 / 140e9, rel=0.01)  # 23.9
    assert round(r.values["tokens_per_s"]) == 24
    assert r.text["tokens_per_s"] == "23.9 tokens/s"
    assert r.values["bound"] == "memory"
    assert r.values["weight_bytes"] == 140e9


def test_h100_70b_bf16_does_not_fit_and_says_two_gpus():
    r = preset("h100-70b-bf16")
    assert r.values["fits"] is False
    assert r.text["fits"] == "does not fit"
    assert r.values["gpus_needed"] == 2
    assert r.values["max_batch"] == 0
    note = " ".join(r.notes)
    assert "Does not fit" in note and "2 GPUs" in note
    assert "not fit" in r.charts[0]["summary"]


def test_tp2_doubles_the_ceiling_and_fits():
    one, two = preset("h100-70b-bf16"), preset("h100-70b-bf16-tp2")
    assert two.values["tokens_per_s"] == pytest.approx(2 * 3.35e12 / 140e9, rel=0.01)  # 47.9
    assert two.values["tokens_per_s"] / one.values["tokens_per_s"] == pytest.approx(2, rel=1e-9)
    assert two.values["fits"] is True
    assert any("Tensor parallel" in n for n in two.notes)


def test_int4_is_about_four_times_bf16_at_batch_1():
    bf16, int4 = preset("h100-70b-bf16"), preset("h100-70b-int4")
    ratio = int4.values["tokens_per_s"] / bf16.values["tokens_per_s"]
    assert 3.9 < ratio <= 4.0  # KV reads at 1K context keep it just under 4
    assert int4.values["fits"] is True
    assert int4.values["weight_bytes"] == 35e9
    assert int4.values["peak_flops"] == 989e12  # weight-only: the multiplications stay bf16
    assert any("weight-only" in n for n in int4.notes)


def test_peak_is_dense_989_not_sparse_1979():
    r = run()
    assert r.values["peak_flops"] == 989e12
    assert r.values["ridge_point"] == pytest.approx(989e12 / 3.35e12)  # 295 FLOP/byte
    assert r.text["ridge_point"] == "295"
    assert r.values["compute_ceiling"] == pytest.approx(989e12 / (2 * 70e9))
    assert run(weight_dtype="fp8").values["peak_flops"] == 1979e12  # fp8 tensor cores, dense
    a100 = run(weight_dtype="fp8", gpu="a100-80g")
    assert a100.values["peak_flops"] == 312e12 and any("no fp8" in n for n in a100.notes)


def test_moe_holds_all_but_streams_only_active():
    r = preset("deepseek-v3-moe")
    v = r.values
    assert v["weight_bytes"] == 671e9  # fp8: one byte per parameter, all in memory
    assert v["streamed_weight_bytes"] == 37e9  # only the active experts are read per step
    assert v["kv_bytes_per_token"] == (512 + 64) * 61 * 2  # MLA via kv_cache: 70,272 bytes
    assert v["fits"] is True
    bandwidth = 8 * 4.8e12
    assert v["tokens_per_s"] == pytest.approx(bandwidth / (37e9 + 1024 * 70272))
    dense = run(**{**SPEC.preset("deepseek-v3-moe").values, "active_params_b": 0}).values
    assert v["tokens_per_s"] / dense["tokens_per_s"] == pytest.approx(671 / 37, rel=0.01)
    assert any("Mixture of experts" in n for n in r.notes)
    # A 1K-token prompt routes tokens to every expert: prefill streams all 671 GB once (17.5 ms),
    # longer than its 37B-active FLOPs take (4.8 ms).
    assert v["ttft_s"] == pytest.approx(671e9 / bandwidth)
    assert v["prefill_bound"] == "memory"
    assert 2 * 37e9 * 1024 / (8 * 1979e12) < v["ttft_s"]


def test_active_convention():
    assert dr.active_params({"params_b": 70, "active_params_b": 0}) == 70e9  # 0: dense
    assert dr.active_params({"params_b": 70, "active_params_b": 70}) == 70e9
    assert dr.active_params({"params_b": 671, "active_params_b": 37}) == 37e9
    assert dr.active_params({"params_b": 1, "active_params_b": 2.2e-313}) == 0.1e9  # found by hypothesis
    assert any("raised" not in n and "0.1B" in n for n in run(active_params_b=0.05).notes)
    capped = run(params_b=10, active_params_b=20)
    assert capped.values["streamed_weight_bytes"] == 20e9  # 10B in bf16
    assert any("capped" in n for n in capped.notes)


def test_batch_presets_memory_then_compute_bound():
    b64, b512 = preset("batch-64"), preset("batch-512")
    one = run(**{**SPEC.preset("batch-64").values, "batch": 1}).values
    assert b64.values["bound"] == "memory" and b512.values["bound"] == "compute"
    assert b64.values["arithmetic_intensity"] < b64.values["ridge_point"] < b512.values["arithmetic_intensity"]
    assert b64.values["throughput"] / one["throughput"] == pytest.approx(61.6, rel=0.01)  # "about 60×"
    assert b64.values["arithmetic_intensity"] == pytest.approx(62, rel=0.01)
    assert b512.values["throughput"] == pytest.approx(b512.values["compute_ceiling"])
    assert b512.values["tokens_per_s"] < b64.values["tokens_per_s"] < one["tokens_per_s"]
    assert b64.values["ridge_batch"] == b512.values["ridge_batch"] == 359  # "about batch 360"
    assert b64.values["fits"] and b512.values["fits"]
    longer = run(**{**SPEC.preset("batch-512").values, "context": 2048}).values
    assert longer["bound"] == "memory"  # the notice: longer context pulls it back under the roof


def test_short_context_ridge_batch_is_about_295():
    r = run(context=1, gpus=2)
    assert r.values["ridge_batch"] == 296  # bf16 intensity ≈ batch: compute needs batch > 295.2
    assert run(context=1, gpus=2, batch=295).values["bound"] == "memory"
    assert run(context=1, gpus=2, batch=296).values["bound"] == "compute"


def test_ridge_batch_zero_when_kv_reads_dominate():
    r = run(context=1_048_576, gpus=64)
    assert r.values["ridge_batch"] == 0
    assert "memory-bound" in r.charts[0]["summary"]
    assert run(context=1_048_576, gpus=64, batch=4096).values["bound"] == "memory"


@pytest.mark.parametrize("overrides", [{}, {"context": 256, "gpus": 4}, {"weight_dtype": "int4"},
                                       {"weight_dtype": "fp8", "gpu": "h200"}, {"kv_dtype": "fp8"}])
def test_ridge_batch_is_the_first_compute_bound_batch(overrides):
    p = SPEC.check_overrides(overrides)
    b = SPEC.run(p).values["ridge_batch"]
    assert b > 1  # may exceed the batch slider's maximum (fp8 on an H200: 17,409), so no clamping here
    assert dr.compute({**p, "batch": b})[0]["bound"] == "compute"
    assert dr.compute({**p, "batch": b - 1})[0]["bound"] == "memory"


def test_ttft_compute_bound_and_memory_floor():
    v = run().values
    assert v["ttft_s"] == pytest.approx(2 * 70e9 * 1024 / 989e12)  # 145 ms
    assert v["prefill_bound"] == "compute"
    short = run(prompt_tokens=1).values
    assert short["ttft_s"] == pytest.approx(140e9 / 3.35e12)  # one weight read
    assert short["prefill_bound"] == "memory"


def test_kv_does_not_fit_note():
    r = run(gpus=2, batch=64, context=8192)
    assert r.values["fits"] is False
    assert any("KV cache" in n and "sequence(s) fit" in n for n in r.notes)
    assert r.values["max_batch"] == int((2 * 80 * 2**30 * 0.9 - 140e9) // (8192 * KV_70B))


# -- presets ------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", SPEC.presets, ids=lambda p: p.id)
def test_every_preset_runs_and_has_a_notice(p):
    assert p.notice and p.notice.endswith(".")
    SPEC.check_overrides(p.values)  # no clamping, no unknown names
    r = SPEC.run(p.values)
    assert r.values["bound"] in ("memory", "compute")
    assert len(r.charts) == 1
    json.dumps(r.to_dict(), allow_nan=False)


# -- an independent roofline in numpy -----------------------------------------------------------

def numpy_roofline(params_b, active_b, bytes_per_weight, kv_per_token, context, bandwidth, peak, batches):
    """Attainable FLOP/s = min(peak, intensity × bandwidth); tokens/s = attainable ÷ FLOPs per token."""
    batches = np.asarray(batches, dtype=float)
    active = (active_b if active_b > 0 else params_b) * 1e9
    flops = 2 * active * batches
    moved = active * bytes_per_weight + batches * context * kv_per_token
    intensity = flops / moved
    attainable = np.minimum(peak, intensity * bandwidth)
    return attainable / (2 * active), intensity


CROSS = [
    ("h100-70b-bf16", 2, 327680, 3.35e12, 989e12),
    ("h100-70b-bf16-tp2", 2, 327680, 6.7e12, 1978e12),
    ("h100-70b-int4", 0.5, 327680, 3.35e12, 989e12),
    ("deepseek-v3-moe", 1, 70272, 38.4e12, 8 * 1979e12),
    ("batch-64", 2, 327680, 13.4e12, 3956e12),
]


@pytest.mark.parametrize("pid,bpw,kvpt,bandwidth,peak", CROSS)
def test_numpy_roofline_matches_chart_and_functions(pid, bpw, kvpt, bandwidth, peak):
    p = SPEC.check_overrides(SPEC.preset(pid).values)
    batches = list(dr.CHART_BATCHES)
    expected, intensity = numpy_roofline(p["params_b"], p["active_params_b"], bpw, kvpt, p["context"],
                                         bandwidth, peak, batches)
    got = np.array([dr.aggregate_tokens_per_s(p, b) for b in batches])
    np.testing.assert_allclose(got, expected, rtol=1e-9)
    chart = SPEC.run(SPEC.preset(pid).values).charts[0]
    assert chart["labels"] == [str(b) for b in batches] == ["1", "2", "4", "8", "16", "32", "64", "128",
                                                             "256", "512", "1024"]
    series = {s["name"]: s for s in chart["series"]}
    np.testing.assert_allclose(series["Aggregate tokens/s"]["values"], expected, rtol=1e-3)
    assert series["Compute ceiling"]["kind"] == "rule"
    np.testing.assert_allclose(series["Compute ceiling"]["values"], peak / (2 * dr.active_params(p)), rtol=1e-3)
    # The aggregate never passes either roof.
    assert np.all(np.array(series["Aggregate tokens/s"]["values"])
                  <= np.minimum(series["Memory-bandwidth roof"]["values"], series["Compute ceiling"]["values"])
                  * (1 + 1e-3))
    # The ridge batch: the first batch whose intensity passes peak ÷ bandwidth, by brute force.
    sweep = np.arange(1, 20001)
    _, i = numpy_roofline(p["params_b"], p["active_params_b"], bpw, kvpt, p["context"], bandwidth, peak, sweep)
    above = np.nonzero(i > peak / bandwidth)[0]
    assert dr.ridge_batch(p) == (int(sweep[above[0]]) if above.size else 0)
    # And the step's own figures at the preset's batch.
    v = SPEC.run(p).values
    t_np, i_np = numpy_roofline(p["params_b"], p["active_params_b"], bpw, kvpt, p["context"], bandwidth, peak,
                                [p["batch"]])
    assert v["throughput"] == pytest.approx(t_np[0], rel=1e-9)
    assert v["arithmetic_intensity"] == pytest.approx(i_np[0], rel=1e-9)


def test_chart_marker_and_summary():
    c = run(batch=64).charts[0]
    assert c["kind"] == "line" and c["labels"][c["marker"]] == "64"
    assert "ridge point is 295 FLOP/byte" in c["summary"] and "from batch 1,010" in c["summary"]
    assert "tokens/s" in c["y_label"].lower()
    assert run(batch=4096).charts[0]["marker"] == 10
    assert run(batch=3).charts[0]["marker"] in (1, 2)


# -- monotonicity -------------------------------------------------------------------------------

numbers = {p.name: p for p in SPEC.params if isinstance(p, Number)}


def _value(name):
    p = numbers[name]
    if p.integer:
        return st.integers(int(p.min), int(p.max))
    return st.floats(p.min, p.max, allow_nan=False, allow_infinity=False)


base_params = st.fixed_dictionaries({
    "params_b": _value("params_b"),
    "active_params_b": _value("active_params_b"),
    "weight_dtype": st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
    "kv_dtype": st.sampled_from(["bf16", "fp8", "int4"]),
    "gpu": st.sampled_from(sorted(GPUS)),
    "gpus": _value("gpus"),
    "batch": _value("batch"),
    "context": _value("context"),
    "prompt_tokens": _value("prompt_tokens"),
    "reserve_pct": _value("reserve_pct"),
    "attention": st.sampled_from(["gqa", "mla"]),
    "layers": _value("layers"),
    "kv_heads": _value("kv_heads"),
    "head_dim": _value("head_dim"),
})


@settings(max_examples=150, deadline=None)
@given(base_params, st.floats(1e9, 1e13), st.floats(1.0, 10.0))
def test_more_bandwidth_more_tokens(p, bandwidth, factor):
    slow = GPU("test-slow", "slow", 80 * 2**30, bandwidth, 989e12, 1979e12, "test")
    fast = GPU("test-fast", "fast", 80 * 2**30, bandwidth * factor, 989e12, 1979e12, "test")
    with mock.patch.dict(GPUS, {slow.id: slow, fast.id: fast}):
        a, _ = dr.compute({**SPEC.defaults(), **p, "gpu": slow.id})
        b, _ = dr.compute({**SPEC.defaults(), **p, "gpu": fast.id})
    assert b["tokens_per_s"] >= a["tokens_per_s"]
    assert b["throughput"] >= a["throughput"]
    assert b["ttft_s"] <= a["ttft_s"]


def test_more_bandwidth_same_compute_in_the_gpu_table():
    assert run(gpu="h200").values["tokens_per_s"] > run(gpu="h100-sxm").values["tokens_per_s"]  # same 989


@settings(max_examples=150, deadline=None)
@given(base_params, st.integers(1, 64))
def test_more_gpus_never_slower(p, more):
    p = SPEC.check_overrides(p)
    q = {**p, "gpus": min(64, p["gpus"] + more)}
    a, _ = dr.compute(p)
    b, _ = dr.compute(q)
    assert b["tokens_per_s"] >= a["tokens_per_s"] * (1 - 1e-12)
    assert b["usable_bytes"] >= a["usable_bytes"]
    assert b["fits"] >= a["fits"]


@settings(max_examples=150, deadline=None)
@given(base_params, st.integers(1, 1_048_576))
def test_more_context_more_kv(p, extra):
    p = SPEC.check_overrides(p)
    q = {**p, "context": min(kv_cache.CONTEXT_MAX, p["context"] + extra)}
    a, _ = dr.compute(p)
    b, _ = dr.compute(q)
    assert b["kv_bytes"] >= a["kv_bytes"]
    if p["attention"] == "gqa" and q["context"] > p["context"]:
        assert b["kv_bytes"] > a["kv_bytes"]
    assert b["tokens_per_s"] <= a["tokens_per_s"]
    assert b["fits"] <= a["fits"]


@settings(max_examples=150, deadline=None)
@given(base_params, st.integers(1, 4096))
def test_bigger_batch_more_throughput_slower_streams(p, extra):
    p = SPEC.check_overrides(p)
    q = {**p, "batch": min(dr.BATCH_MAX, p["batch"] + extra)}
    a, _ = dr.compute(p)
    b, _ = dr.compute(q)
    assert b["throughput"] >= a["throughput"] * (1 - 1e-12)
    assert b["tokens_per_s"] <= a["tokens_per_s"] * (1 + 1e-12)
    assert b["arithmetic_intensity"] >= a["arithmetic_intensity"] * (1 - 1e-12)
    if a["bound"] == "compute":
        assert b["bound"] == "compute"


@pytest.mark.parametrize("dtype,faster", [("bf16", "fp8"), ("fp8", "int4"), ("int8", "int4")])
def test_fewer_bytes_per_weight_faster(dtype, faster):
    assert run(weight_dtype=faster).values["tokens_per_s"] > run(weight_dtype=dtype).values["tokens_per_s"]


# -- no NaN, no inf -----------------------------------------------------------------------------

def _extremes():
    ranges = {p.name: (p.min, p.max) for p in SPEC.params if isinstance(p, Number)}
    choices = {p.name: p.values for p in SPEC.params if isinstance(p, Choice)}
    return ranges, choices


def test_every_number_at_its_min_and_max_alone():
    ranges, choices = _extremes()
    for name, (lo, hi) in ranges.items():
        for value in (lo, hi):
            for gpu in choices["gpu"]:
                r = SPEC.run({name: value, "gpu": gpu})
                json.dumps(r.to_dict(), allow_nan=False)


KEY = ("params_b", "active_params_b", "gpus", "batch", "context", "prompt_tokens", "reserve_pct")


@pytest.mark.parametrize("attention", ["gqa", "mla"])
@pytest.mark.parametrize("dtype", ["bf16", "fp8", "int4"])
def test_grid_of_extremes_is_finite(attention, dtype):
    ranges, _ = _extremes()
    shape = [("layers", "kv_heads", "head_dim", "latent_dim", "rope_dim")]
    for corner in itertools.product(*(ranges[k] for k in KEY)):
        for s in (0, 1):
            raw = dict(zip(KEY, corner))
            raw.update({k: ranges[k][s] for k in shape[0]})
            raw.update(attention=attention, weight_dtype=dtype, kv_dtype=dtype, gpu="rtx-4090" if s else "b200")
            r = SPEC.run(raw)  # raises on a non-finite output or chart value
            for name in ("tokens_per_s", "throughput", "ttft_s", "step_time_s", "arithmetic_intensity"):
                assert math.isfinite(r.values[name]) and r.values[name] > 0
            json.dumps(r.to_dict(), allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(base_params, st.integers(0, 8192), st.integers(0, 1024))
def test_random_inputs_are_finite(p, latent, rope):
    r = SPEC.run({**p, "latent_dim": latent, "rope_dim": rope})
    json.dumps(r.to_dict(), allow_nan=False)
    assert r.values["tokens_per_s"] <= r.values["throughput"] * (1 + 1e-12)


@pytest.mark.parametrize("raw", [{"batch": "abc"}, {"gpus": "0"}, {"context": "1e999"}, {"gpu": "tpu"},
                                 {"active_params_b": "-5"}, {"reserve_pct": "100"}])
def test_bad_url_values_clamped_not_broken(raw):
    out = json.loads(course_calculators.run_json("decode-roofline", json.dumps(raw)))
    assert out["notes"]
    assert all(math.isfinite(float(v)) for k, v in out["raw"].items() if k not in ("bound", "prefill_bound"))
