"""paged-attention: utilization against a numpy recount of the waste, the scheduler against a plain
per-token reference simulation, monotonicity, finiteness at the extremes, determinism, speed."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_calculators
from llm_inference import paged_attention as pa
from llm_inference.physics import batching

SPEC = pa.SPEC


def run(**raw):
    return SPEC.run(SPEC.check_overrides(raw))


def values(**raw):
    return run(**raw).values


# -- the contract ---------------------------------------------------------------------------------


def test_registered_with_the_contract_names():
    assert course_calculators.get("paged-attention") is SPEC
    assert "block_size" in SPEC.param_map
    for name in ("utilization_contiguous", "utilization_paged", "throughput_gain", "batch_contiguous", "batch_paged"):
        assert name in SPEC.output_map
    assert {p.id for p in SPEC.presets} >= {"block-16", "block-1", "block-128", "long-tail"}
    assert all(p.notice for p in SPEC.presets)


def test_run_json_round_trips():
    out = json.loads(course_calculators.run_json("paged-attention", json.dumps({"block_size": "32"})))
    assert out["inputs"]["block_size"] == 32
    assert float(out["raw"]["utilization_paged"]) > 0.9
    kinds = [c["kind"] for c in out["charts"]]
    assert kinds == ["grid", "bar"]


# -- utilization: a numpy recount of held and reserved slots ---------------------------------------


def numpy_utilizations(requests, block, max_len):
    held = reserved_max = reserved_paged = reserved_oracle = reserved_pow2 = 0
    for p, o in requests:
        lengths = p + np.arange(1, o + 1, dtype=np.int64)  # tokens held at each decode step
        held += lengths.sum()
        reserved_max += o * max_len
        reserved_paged += (np.ceil(lengths / block) * block).sum()
        reserved_oracle += o * (p + o)
        reserved_pow2 += o * min(max_len, int(2 ** np.ceil(np.log2(p + o))))
    return {
        "contiguous": held / reserved_max,
        "paged": held / reserved_paged,
        "oracle": held / reserved_oracle,
        "pow2": held / reserved_pow2,
    }


@pytest.mark.parametrize("block", [1, 2, 7, 16, 32, 100, 128, 256])
@pytest.mark.parametrize("seed", [1, 2])
def test_utilization_matches_numpy_recount(block, seed):
    inputs = SPEC.check_overrides({"block_size": block, "seed": seed})
    pool = inputs["kv_budget"] // block
    cap = min(inputs["max_len"], pool * block)
    requests = batching.sample_requests(inputs["requests"], inputs["mean_prompt"], inputs["mean_output"],
                                  inputs["length_spread"], cap, seed)
    ref = numpy_utilizations(requests, block, inputs["max_len"])
    v = SPEC.run(inputs).values
    assert v["utilization_contiguous"] == pytest.approx(ref["contiguous"], rel=1e-12)
    assert v["utilization_paged"] == pytest.approx(ref["paged"], rel=1e-12)
    assert v["utilization_oracle"] == pytest.approx(ref["oracle"], rel=1e-12)
    assert v["utilization_pow2"] == pytest.approx(ref["pow2"], rel=1e-12)


def test_defaults_in_the_expected_ranges():
    v = values()
    assert 0.20 <= v["utilization_contiguous"] <= 0.40  # the vLLM paper: 20.4%–38.2% in earlier systems
    assert v["utilization_paged"] > 0.95  # waste only in each last 16-token block
    assert v["batch_contiguous"] == 65536 // 2048
    assert v["batch_paged"] > 2.5 * v["batch_contiguous"]
    assert 1.0 < v["gain_paging"] < 4.5
    assert v["throughput_gain"] == pytest.approx(v["gain_batching"] * v["gain_paging"], rel=1e-12)
    assert v["utilization_contiguous"] < v["utilization_pow2"] < v["utilization_oracle"] < v["utilization_paged"]


@pytest.mark.parametrize("seed", range(1, 6))
def test_ranges_hold_for_other_seeds(seed):
    v = values(seed=seed)
    assert 0.20 <= v["utilization_contiguous"] <= 0.40
    assert v["utilization_paged"] > 0.95
    assert v["throughput_gain"] > 2


def test_preset_notices_match_the_numbers():
    base = values(**SPEC.preset("block-16").values)
    assert 0.30 <= base["utilization_contiguous"] <= 0.37
    assert 0.985 <= base["utilization_paged"] <= 0.995  # "about 1%" waste
    assert 100 <= base["batch_paged"] <= 112 and base["batch_contiguous"] == 32
    one = values(**SPEC.preset("block-1").values)
    assert one["utilization_paged"] == 1.0 and one["blocks_total"] == 65536
    assert 1.0 <= one["batch_paged"] / base["batch_paged"] <= 1.03
    big = values(**SPEC.preset("block-128").values)
    assert 0.90 <= big["utilization_paged"] <= 0.93
    assert 92 <= big["batch_paged"] <= 100
    tail = values(**SPEC.preset("long-tail").values)
    assert 4.5 <= tail["gain_batching"] <= 5
    assert 20 <= tail["throughput_gain"] <= 24


def test_utilization_falls_with_block_size():
    utils = [values(block_size=b)["utilization_paged"] for b in (1, 2, 4, 8, 16, 32, 64, 128, 256)]
    assert utils[0] == 1.0
    assert all(a >= b for a, b in zip(utils, utils[1:]))


@settings(max_examples=40, deadline=None)
@given(
    block_exp=st.integers(0, 8),
    max_exp=st.integers(8, 15),
    mean_prompt=st.integers(1, 8192),
    mean_output=st.integers(1, 8192),
    spread=st.floats(0, 2),
    seed=st.integers(0, 9999),
)
def test_paged_never_below_contiguous_when_max_len_is_whole_blocks(block_exp, max_exp, mean_prompt, mean_output,
                                                                   spread, seed):
    # max_len a multiple of the block size: ceil(L / B)·B ≤ max_len for every L ≤ max_len, step by step.
    block, max_len = 2**block_exp, 2**max_exp
    v = values(block_size=block, max_len=max_len, mean_prompt=mean_prompt, mean_output=mean_output,
               length_spread=round(spread, 2), seed=seed, requests=20)
    assert v["utilization_paged"] >= v["utilization_contiguous"] - 1e-12
    assert v["utilization_oracle"] >= v["utilization_contiguous"] - 1e-12


def test_grid_chart_shape_and_summary():
    grid, bars = run().charts
    assert grid["kind"] == "grid" and len(grid["series"]) == pa.GRID_ROWS
    assert all(len(s["values"]) == pa.GRID_COLS for s in grid["series"])
    assert "physical blocks" in grid["summary"] and "free" in grid["summary"]
    assert bars["kind"] == "bar" and len(bars["labels"]) == len(bars["series"][0]["values"]) == 4


# -- every output finite at the extremes, determinism, speed ----------------------------------------


def _extremes():
    grid = {}
    for param in SPEC.params:
        grid[param.name] = sorted({param.min, param.default, param.max})
    names = list(grid)
    # every parameter at its min and max with the others at default, plus a few corner combinations
    cases = [{}]
    for name in names:
        for value in grid[name]:
            cases.append({name: value})
    for block, max_len, budget in itertools.product((1, 256), (256, 32768), (32768, 1048576)):
        cases.append({"block_size": block, "max_len": max_len, "kv_budget": budget, "requests": 50})
    cases.append({"mean_prompt": 8192, "mean_output": 8192, "length_spread": 2, "max_len": 256})
    cases.append({"mean_prompt": 1, "mean_output": 1, "length_spread": 0, "requests": 10})
    cases.append({"block_size": 100, "max_len": 32768, "kv_budget": 32768, "mean_prompt": 8192,
                  "mean_output": 8192, "requests": 30})
    return cases


@pytest.mark.parametrize("raw", _extremes(), ids=lambda raw: json.dumps(raw))
def test_every_output_finite_at_extremes(raw):
    result = run(**raw)
    for name, value in result.values.items():
        if SPEC.output_map[name].unit not in ("bool", "text"):
            assert math.isfinite(value), name
    assert 0 < result.values["utilization_paged"] <= 1
    assert 0 < result.values["utilization_contiguous"] <= 1
    assert result.values["throughput_gain"] > 0
    json.dumps([c for c in result.charts], allow_nan=False)


def test_deterministic_for_a_seed():
    a, b = run(seed=42), run(seed=42)
    assert a.values == b.values and a.charts == b.charts
    assert run(seed=43).values != a.values

