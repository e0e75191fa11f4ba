"""decode-roofline: the chapter's figures, its presets, an independent numpy roofline (MoE experts,
MLA read whole by every GPU), communication, measured points, monotonicity, finiteness."""

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
from llm_inference import decode_roofline as dr
from llm_inference.hardware import GPU, GPUS
from course_calculators.setting import Setting
from course_calculators.spec import Choice, Number
from course_calculators.units import format_seconds, sig

SPEC = dr.SPEC
H100 = GPUS["h100-sxm"]
KV_70B = 2 * 80 * 8 * 128 * 2  # 327,680 bytes = 320 KiB per token in bf16
GiB = 2**30


def run(**overrides):
    """decode-roofline from the 70B thought experiment (a custom 70B shape) with ``overrides`` set
    after it (a model set here fills the shape the preset gave)."""
    return SPEC.run(overrides, base=Setting(preset="h100-70b-bf16"))


def preset(pid):
    return SPEC.run(SPEC.preset(pid).values)


# -- the catalogue ------------------------------------------------------------------------------

def test_registered_with_the_contract_names():
    assert course_calculators.get("decode-roofline") is SPEC
    params = {p.name for p in SPEC.params}
    assert {"model", "config", "params_b", "active_params_b", "weight_dtype", "gpu", "gpus", "batch", "context",
            "prompt_tokens", "kv_dtype", "layers", "kv_heads", "head_dim", "step_floor_ms"} <= params
    outputs = {o.name for o in SPEC.outputs}
    assert {"tokens_per_s", "throughput", "ttft_s", "ttft_measured", "tokens_per_s_measured", "bound", "fits",
            "step_time_s", "weight_bytes",
            "streamed_weight_bytes", "gpus_needed", "kv_bytes", "ridge_point", "arithmetic_intensity",
            "estimate_tokens_per_s", "allreduce_s", "measured", "measured_share"} <= outputs
    assert {"h100-70b-bf16", "nim-70b-fp8-tp2", "deepseek-v3-batch-64"} <= {p.id for p in SPEC.presets}


def test_model_shape_defaults_are_llama3_70b():
    d = SPEC.defaults()
    assert d["model"] == "llama-3.1-70b"
    assert (d["layers"], d["kv_heads"], d["head_dim"]) == (80, 8, 128)
    assert SPEC.run({}).values["kv_bytes_per_token"] == KV_70B


def test_physics_is_imported_not_copied():
    source = pathlib.Path(dr.__file__).read_text()
    assert "physics.decode_step" in source and "kv.bytes_per_token" in source
    assert "2 * p[\"layers\"]" not in source and "bandwidth /" not in source


# -- the chapter's figures ----------------------------------------------------------------------

def test_h100_70b_bf16_is_about_24_tokens_per_s():
    r = preset("h100-70b-bf16")
    assert r.values["tokens_per_s"] == pytest.approx(3.35e12 / (140e9 + 1024 * KV_70B))
    assert round(r.values["tokens_per_s"]) == 24 and r.text["tokens_per_s"] == "23.9 tokens/s"
    assert r.values["bound"] == "memory"
    assert r.values["weight_bytes"] == 140e9
    assert r.values["estimate_tokens_per_s"] == r.values["tokens_per_s"]  # one GPU: nothing to all-reduce


def test_h100_70b_bf16_does_not_fit_and_says_two_gpus():
    r = preset("h100-70b-bf16")
    assert r.values["fits"] is False and r.text["fits"] == "does not fit"
    assert r.values["gpus_needed"] == 2 and r.values["max_batch"] == 0
    note = " ".join(r.notes)
    assert "Does not fit" in note and "2 GPUs" in note
    assert "not fit" in r.charts[0]["summary"]


def test_tp2_doubles_the_ceiling_fits_and_pays_for_its_all_reduces():
    one, two = preset("h100-70b-bf16"), preset("h100-70b-bf16-tp2")
    # twice, but for the norms, which every GPU holds whole
    assert two.values["tokens_per_s"] / one.values["tokens_per_s"] == pytest.approx(2, rel=1e-4)
    assert two.text["tokens_per_s"] == "47.7 tokens/s"
    assert two.values["fits"] is True
    # 80 layers × 2 all-reduces × (6 µs + 16 KiB over 450 GB/s)
    assert two.values["allreduce_s"] == pytest.approx(160 * (6e-6 + 8192 * 2 / 450e9))
    assert two.values["estimate_tokens_per_s"] == pytest.approx(1 / (1 / two.values["tokens_per_s"] + two.values["allreduce_s"]))
    assert round(two.values["estimate_tokens_per_s"]) == 46
    assert any("all-reduces" in n for n in two.notes)


def test_int4_is_about_four_times_bf16_at_batch_1():
    bf16, int4 = preset("h100-70b-bf16"), preset("h100-70b-int4")
    # a 4-bit release keeps the embedding and LM head in bf16 and adds a 16-bit scale per 128 weights
    assert 3.4 < int4.values["tokens_per_s"] / bf16.values["tokens_per_s"] < 3.9
    p = int4.inputs
    outside = 2 * p["vocab_size"] * p["hidden_size"] + (2 * p["layers"] + 1) * p["hidden_size"]
    want = (70e9 - outside) * (0.5 + 2 / 128) + outside * 2
    assert int4.values["fits"] is True and int4.values["weight_bytes"] == pytest.approx(want, rel=1e-9)
    assert int4.values["peak_flops"] == 989e12  # weight-only: the multiplications stay bf16
    assert any("weight-only" in n for n in int4.notes)


def test_peak_is_dense_989_not_sparse_1979():
    r = run()
    assert r.values["peak_flops"] == 989e12 and r.text["ridge_point"] == "295"
    assert r.values["compute_ceiling"] == pytest.approx(989e12 / (2 * 70e9))
    assert run(weight_dtype="fp8").values["peak_flops"] == 1979e12
    a100 = run(weight_dtype="fp8", gpu="a100-80g")
    assert a100.values["peak_flops"] == 312e12 and any("no fp8" in n for n in a100.notes)


def test_moe_holds_all_but_streams_only_active_at_batch_1():
    r = preset("deepseek-v3-moe")
    v, p = r.values, r.inputs
    outside = 2 * p["vocab_size"] * p["hidden_size"] + (2 * p["layers"] + 1) * p["hidden_size"]
    bpw = 1 + 4 / 128**2  # fp8 with an fp32 scale per 128 × 128 block; embeddings, head and norms in bf16
    # (the routers, 256 × 7,168 a layer, also stay in bf16: 0.1 % of the total, 1 % of a token's bytes)
    assert v["weight_bytes"] == pytest.approx((671e9 - outside) * bpw + outside * 2, rel=1e-3)
    streamed = (37e9 - outside) * bpw + outside * 2
    assert v["streamed_weight_bytes"] == pytest.approx(streamed, rel=2e-2)
    assert v["experts_touched"] == pytest.approx(8)
    assert v["kv_bytes_per_token"] == (512 + 64) * 61 * 2
    # every H200 streams its eighth of the weights and the whole MLA cache
    # (routers and norms are whole on every GPU, not an eighth: 1 %)
    assert v["tokens_per_s"] == pytest.approx(4.8e12 / (v["streamed_weight_bytes"] / 8 + 1024 * 70272), rel=2e-2)
    dense = run(**{**SPEC.preset("deepseek-v3-moe").values, "active_params_b": 0}).values
    kv = 1024 * 70272
    assert v["tokens_per_s"] / dense["tokens_per_s"] == pytest.approx(
        (dense["streamed_weight_bytes"] / 8 + kv) / (v["streamed_weight_bytes"] / 8 + kv), rel=0.02)
    assert v["tokens_per_s"] / dense["tokens_per_s"] > 15  # 671B held, 37B read
    # a 1K-token prompt touches every expert: prefill streams all the weights once
    assert v["ttft_s"] == pytest.approx(v["weight_bytes"] / (8 * 4.8e12), rel=1e-2) and v["prefill_bound"] == "memory"


def test_moe_batch_touches_most_experts():
    v = preset("deepseek-v3-batch-64").values
    assert v["experts_touched"] == pytest.approx(256 * (1 - (1 - 8 / 256) ** 64))
    assert v["streamed_weight_bytes"] > 14 * preset("deepseek-v3-moe").values["streamed_weight_bytes"]
    assert 0.45 < v["measured_share"] < 0.5 and "SGLang 0.5.7" in v["measured"]


def test_active_convention():
    assert run(active_params_b=0).values["streamed_weight_bytes"] == 140e9  # 0: dense
    capped = run(params_b=10, active_params_b=20)
    assert capped.values["streamed_weight_bytes"] == 20e9 and any("capped" in n for n in capped.notes)
    assert any("0.1B" in n for n in run(active_params_b=0.05).notes)
    tiny = run(params_b=1, active_params_b=2.2e-313)  # found by hypothesis
    assert math.isfinite(tiny.values["compute_ceiling"])


def test_batch_presets_memory_then_compute_bound():
    b64, b512 = preset("batch-64"), preset("batch-512")
    one = run(**{**SPEC.preset("batch-64").values, "batch": 1}).values
    assert b64.values["bound"] == "memory" and b512.values["bound"] == "compute"
    assert b64.values["arithmetic_intensity"] < b64.values["ridge_point"] < b512.values["arithmetic_intensity"]
    assert b64.values["throughput"] / one["throughput"] == pytest.approx(61.6, rel=0.01)
    assert b64.values["arithmetic_intensity"] == pytest.approx(62, rel=0.01)
    assert b512.values["throughput"] == pytest.approx(b512.values["compute_ceiling"])
    assert b64.values["ridge_batch"] == b512.values["ridge_batch"] == "359"
    assert run(**{**SPEC.preset("batch-512").values, "context": 2048}).values["bound"] == "memory"


def test_short_context_ridge_batch_is_about_295():
    assert run(context=1, gpus=2).values["ridge_batch"] == "296"
    assert run(context=1, gpus=2, batch=295).values["bound"] == "memory"
    assert run(context=1, gpus=2, batch=296).values["bound"] == "compute"


def test_ridge_batch_never_when_kv_reads_dominate():
    r = run(context=1_048_576, gpus=64)
    assert r.values["ridge_batch"] == "never" and r.text["ridge_batch"] == "never"
    assert r.raw["ridge_batch"] == "never"  # what the browser shows is what Python formats
    assert SPEC.output_map["ridge_batch"].unit == "text" and "never" in SPEC.output_map["ridge_batch"].help
    assert "memory-bound" in r.charts[0]["summary"]
    assert run(context=1_048_576, gpus=64, batch=4096).values["bound"] == "memory"
    assert run(context=1, gpus=2).text["ridge_batch"] == "296"
    assert run(context=1, gpus=2, batch=4096).text["ridge_batch"] == "296"  # a count, formatted
    assert run(context=1, gpus=64, model="llama-3.1-405b").text["ridge_batch"].replace(",", "").isdigit()


# -- ceilings named, measured bands beside them -------------------------------------------------

CEILINGS = ("tokens_per_s", "throughput", "estimate_tokens_per_s", "ttft_s", "step_time_s", "estimate_step_s",
            "estimate_throughput", "compute_ceiling")


def test_every_ceiling_says_so():
    labels = {o.name: o.label for o in SPEC.outputs}
    for name in CEILINGS:
        assert "ceiling" in labels[name].lower(), labels[name]
    assert labels["ttft_s"] == "Time to first token (ceiling)"
    names = [o.name for o in SPEC.outputs]
    # each band sits right after its ceiling, in view
    assert names.index("tokens_per_s_measured") == names.index("tokens_per_s") + 1
    assert names.index("ttft_measured") == names.index("ttft_s") + 1
    assert SPEC.output_map["ttft_measured"].primary and SPEC.output_map["tokens_per_s_measured"].primary


def test_measured_bands_are_the_ceiling_times_the_published_shares():
    from llm_inference.physics import measured

    r = preset("h100-70b-bf16-tp2")
    v = r.values
    # one node: the shares of every published run on at most 8 GPUs, computed here from the points
    decode = [j.share for j in measured.judged() if j.point.gpus <= 8]
    prefill = [j.ceiling_ms / j.point.ttft_ms for j in measured.judged_prefill() if j.point.gpus <= 8]
    low, high = min(decode) * v["tokens_per_s"], max(decode) * v["tokens_per_s"]
    assert v["tokens_per_s_measured"] == f"{sig(low)}–{sig(high)} tokens/s"
    soonest, latest = v["ttft_s"] / max(prefill), v["ttft_s"] / min(prefill)
    assert (format_seconds(soonest), format_seconds(latest)) == ("109 ms", "366 ms")
    assert v["ttft_measured"] == "109–366 ms"
    assert len(prefill) == 13 and len(decode) == 13
    assert v["ttft_measured_band"].startswith("20% to 67% of the ceiling in 13 published runs on one node")
    # across nodes, the runs across nodes
    far = run(model="deepseek-r1", gpus=16, weight_dtype="fp8").values
    assert "–" not in far["tokens_per_s_measured"]  # one run across nodes: one figure
    assert "1 published run across nodes" in far["measured_band"]
    assert far["ttft_measured"] == "171–192 ms" and "3 published runs across nodes" in far["ttft_measured_band"]
    assert run(prompt_tokens=100_000).values["ttft_measured"] == "21.3–71.5 s"
    assert dr._span("850 ms", "1.2 s") == "850 ms – 1.2 s" and dr._span("5 ms", "5 ms") == "5 ms"


def test_the_nim_run_falls_in_its_band():
    v = preset("nim-70b-fp8-tp2").values
    low, high = (float(x) for x in v["tokens_per_s_measured"].split(" tokens/s")[0].split("–"))
    assert low < 1e3 / 18.58 < high


def test_ttft_compute_bound_and_memory_floor():
    v = run().values
    assert v["ttft_s"] == pytest.approx(2 * 70e9 * 1024 / 989e12) and v["prefill_bound"] == "compute"
    short = run(prompt_tokens=1).values
    assert short["ttft_s"] == pytest.approx(140e9 / 3.35e12) and short["prefill_bound"] == "memory"


def test_kv_does_not_fit_note():
    r = run(gpus=2, batch=64, context=8192)
    assert r.values["fits"] is False
    assert any("KV cache" in n and "sequence(s) fit" in n for n in r.notes)
    assert 0 < r.values["max_batch"] < 64


def test_step_floor():
    r = run(model="custom", params_b=1, step_floor_ms=5, vocab_size=32000)
    assert r.values["estimate_step_s"] == 0.005 and r.values["estimate_tokens_per_s"] == pytest.approx(200)
    assert r.values["tokens_per_s"] > 1000


@pytest.mark.parametrize("p", SPEC.presets, ids=lambda p: p.id)
def test_every_preset_runs_and_has_a_notice(p):
    assert p.notice and p.notice.endswith(".")
    SPEC.check_overrides(p.values)
    r = SPEC.run(p.values)
    assert r.values["bound"] in ("memory", "compute")
    assert [c["kind"] for c in r.charts] == ["xy", "xy"]
    json.dumps(r.to_dict(), allow_nan=False)


# -- an independent roofline in numpy -----------------------------------------------------------

def numpy_roofline(total_b, active_b, experts, k, bpw, kv_per_token, mla, context, gpus, bandwidth, peak, batches,
                   outside=0.0):
    """Per GPU: min over the roofs of tokens/s; MoE weights by a batch's expected distinct experts,
    an MLA cache read whole by every GPU; ``outside`` parameters (embedding, LM head, norms) in bf16
    whatever ``bpw`` the projections take."""
    b = np.asarray(batches, dtype=float)
    total, active = total_b * 1e9, (active_b or total_b) * 1e9
    if experts:
        x = (total - active) / (experts - k)
        streamed = np.minimum(total, active - k * x + experts * (1 - (1 - k / experts) ** b) * x)
    else:
        streamed = np.full_like(b, active)
    kv = b * context * kv_per_token / (1 if mla else gpus)
    moved = ((streamed - outside) * bpw + outside * 2) / gpus + kv
    flops = 2 * active * b / gpus
    step = np.maximum(moved / bandwidth, flops / peak)
    return b / step, flops / moved


# bytes per projection weight, scales included (int4: a 16-bit scale per 128; fp8: an fp32 per
# 128 × 128 block); DeepSeek-V3 as shipped is checked tensor by tensor in test_weight_logs.
CROSS = [
    ("h100-70b-bf16", 2, H100.bandwidth, 989e12),
    ("h100-70b-bf16-tp2", 2, H100.bandwidth, 989e12),
    ("h100-70b-int4", 0.5 + 2 / 128, H100.bandwidth, 989e12),
    ("batch-64", 2, H100.bandwidth, 989e12),
]


@pytest.mark.parametrize("pid,bpw,bandwidth,peak", CROSS)
def test_numpy_roofline_matches_the_chart(pid, bpw, bandwidth, peak):
    r = SPEC.run(SPEC.preset(pid).values)
    p, v = r.inputs, r.values
    experts = p["experts"] if p["active_params_b"] else 0
    outside = 2 * p["vocab_size"] * p["hidden_size"] + (2 * p["layers"] + 1) * p["hidden_size"]
    expected, intensity = numpy_roofline(p["params_b"], p["active_params_b"], experts, p["experts_per_token"], bpw,
                                         v["kv_bytes_per_token"], p["attention"] == "mla", p["context"], p["gpus"],
                                         bandwidth, peak, dr.CHART_BATCHES, outside)
    roof = r.charts[0]
    ceiling = next(s for s in roof["series"] if s["name"] == "Roofline ceiling")
    points = dict(map(tuple, ceiling["points"]))
    np.testing.assert_allclose([points[b] for b in dr.CHART_BATCHES], expected, rtol=1e-3)
    t, i = numpy_roofline(p["params_b"], p["active_params_b"], experts, p["experts_per_token"], bpw,
                          v["kv_bytes_per_token"], p["attention"] == "mla", p["context"], p["gpus"], bandwidth, peak,
                          [p["batch"]], outside)
    # (the norms, which every GPU holds whole, are the residue under tensor parallelism)
    assert v["throughput"] == pytest.approx(t[0], rel=1e-4)
    assert v["arithmetic_intensity"] == pytest.approx(i[0], rel=1e-4)
    # the estimate is never above the ceiling, the ceiling never above either roof
    estimate = dict(map(tuple, next(s for s in roof["series"] if s["name"].startswith("With"))["points"]))
    memory = dict(map(tuple, next(s for s in roof["series"] if s["name"].startswith("Memory"))["points"]))
    for b in dr.CHART_BATCHES:
        assert estimate[b] <= points[b] * (1 + 1e-3) and points[b] <= memory[b] * (1 + 1e-3)


def test_chart_marker_and_summary():
    c = run(batch=64).charts[0]
    assert c["labels"][c["marker"]] == "64"
    assert all(s["values"] == [pt[1] for pt in s["points"]] for s in c["series"])  # the same numbers, by category
    assert c["labels"] == [str(pt[0]) for pt in c["series"][0]["points"]]
    assert "ridge point is 295 FLOP/byte" in c["summary"] and "from batch 1,010" in c["summary"]
    assert c["x_log"] and c["y_log"] and "tokens/s" in c["y_label"].lower()


# -- monotonicity -------------------------------------------------------------------------------

numbers = {p.name: p for p in SPEC.params if isinstance(p, Number)}


def _value(name):
    p = numbers[name]
    if p.integer:
        return st.integers(int(p.min), int(p.max))
    return st.floats(p.min, p.max, allow_nan=False, allow_infinity=False)


base_params = st.fixed_dictionaries({
    "model": st.just("custom"),
    "params_b": _value("params_b"),
    "active_params_b": _value("active_params_b"),
    "experts": _value("experts"),
    "experts_per_token": _value("experts_per_token"),
    "weight_dtype": st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
    "kv_dtype": st.sampled_from(["bf16", "fp8", "int4_per_token_head", "nvfp4", "fp8_ds_mla"]),
    "gpu": st.sampled_from(sorted(GPUS)),
    "gpus": _value("gpus"),
    "batch": _value("batch"),
    "context": _value("context"),
    "prompt_tokens": _value("prompt_tokens"),
    "gpu_memory_utilization": _value("gpu_memory_utilization"),
    "attention": st.sampled_from(["gqa", "mla"]),
    "layers": _value("layers"),
    "kv_heads": _value("kv_heads"),
    "head_dim": _value("head_dim"),
})


@settings(max_examples=150, deadline=None)
@given(base_params, st.floats(1e9, 1e13), st.floats(1.0, 10.0))
def test_more_bandwidth_more_tokens(p, bandwidth, factor):
    slow = GPU("h100-sxm", "slow", 80 * GiB, bandwidth, 989e12, 1979e12, "test")
    fast = GPU("h100-sxm", "fast", 80 * GiB, bandwidth * factor, 989e12, 1979e12, "test")
    with mock.patch.dict(GPUS, {"h100-sxm": slow}):
        a = SPEC.run({**p, "gpu": "h100-sxm"}).values
    with mock.patch.dict(GPUS, {"h100-sxm": fast}):
        b = SPEC.run({**p, "gpu": "h100-sxm"}).values
    assert b["tokens_per_s"] >= a["tokens_per_s"] * (1 - 1e-12)
    assert b["throughput"] >= a["throughput"] * (1 - 1e-12)
    assert b["ttft_s"] <= a["ttft_s"] * (1 + 1e-12)


def test_more_bandwidth_same_compute_in_the_gpu_table():
    assert run(gpu="h200").values["tokens_per_s"] > run(gpu="h100-sxm").values["tokens_per_s"]  # same 989


@settings(max_examples=150, deadline=None)
@given(base_params, st.integers(1, 64))
def test_more_gpus_never_slower(p, more):
    p = SPEC.check_overrides(p)
    q = {**p, "gpus": min(64, p["gpus"] + more)}
    a, b = SPEC.run(p).values, SPEC.run(q).values
    assert b["tokens_per_s"] >= a["tokens_per_s"] * (1 - 1e-12)
    assert b["usable_bytes"] >= a["usable_bytes"]


@settings(max_examples=150, deadline=None)
@given(base_params, st.integers(1, 1_048_576))
def test_more_context_more_kv(p, extra):
    p = SPEC.check_overrides(p)
    q = {**p, "context": min(dr.CONTEXT_MAX, p["context"] + extra)}
    a, b = SPEC.run(p).values, SPEC.run(q).values
    assert b["kv_bytes"] >= a["kv_bytes"]
    if p["attention"] == "gqa" and q["context"] > p["context"]:
        assert b["kv_bytes"] > a["kv_bytes"]
    assert b["tokens_per_s"] <= a["tokens_per_s"] * (1 + 1e-12)
    assert b["fits"] <= a["fits"]


@settings(max_examples=150, deadline=None)
@given(base_params, st.integers(1, 4096))
def test_bigger_batch_more_throughput_slower_streams(p, extra):
    p = SPEC.check_overrides(p)
    q = {**p, "batch": min(dr.BATCH_MAX, p["batch"] + extra)}
    a, b = SPEC.run(p).values, SPEC.run(q).values
    assert b["throughput"] >= a["throughput"] * (1 - 1e-12)
    assert b["tokens_per_s"] <= a["tokens_per_s"] * (1 + 1e-12)
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
                r = SPEC.run({"model": "custom", name: value, "gpu": gpu})
                json.dumps(r.to_dict(), allow_nan=False)


KEY = ("params_b", "active_params_b", "gpus", "batch", "context", "prompt_tokens", "gpu_memory_utilization")


#: The KV layout of the same width as each weight dtype (vLLM's 4-bit KV is int4_per_token_head).
KV_OF = {"bf16": "bf16", "fp8": "fp8", "int4": "int4_per_token_head"}


@pytest.mark.parametrize("attention", ["gqa", "mla"])
@pytest.mark.parametrize("dtype", ["bf16", "fp8", "int4"])
def test_grid_of_extremes_is_finite(attention, dtype):
    ranges, _ = _extremes()
    shape = ("layers", "kv_heads", "head_dim", "latent_dim", "rope_dim", "experts", "experts_per_token")
    for corner in itertools.product(*(ranges[k] for k in KEY)):
        for s in (0, 1):
            raw = dict(zip(KEY, corner))
            raw.update({k: ranges[k][s] for k in shape})
            raw.update(model="custom", attention=attention, weight_dtype=dtype, kv_dtype=KV_OF[dtype],
                       gpu="rtx-4090" if s else "b200")
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
    assert r.values["estimate_tokens_per_s"] <= r.values["tokens_per_s"] * (1 + 1e-12)


@pytest.mark.parametrize("raw", [{"batch": "abc"}, {"gpus": "0"}, {"context": "1e999"}, {"gpu": "tpu"},
                                 {"active_params_b": "-5"}, {"gpu_memory_utilization": "100"}])
def test_bad_url_values_clamped_not_broken(raw):
    out = json.loads(course_calculators.run_json("decode-roofline", json.dumps(raw)))
    assert out["notes"]
    text_outputs = {o.name for o in SPEC.outputs if o.unit == "text"}
    assert all(math.isfinite(float(v)) for k, v in out["raw"].items() if k not in text_outputs)
