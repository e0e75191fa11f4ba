"""speculative-decoding: the closed forms against numpy, exact limits, monotonicity, the exact output law
of the accept/resample rule, the Monte Carlo against the target, finiteness, determinism, speed."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_calculators
from llm_inference import speculative_decoding as sd

SPEC = sd.SPEC
P = np.array(sd.TARGET)


def run(**raw):
    return SPEC.run(SPEC.check_overrides(raw))


def values(**raw):
    return run(**raw).values


def test_registered_with_the_contract_names():
    assert course_calculators.get("speculative-decoding") is SPEC
    for name in ("acceptance", "draft_tokens", "draft_cost"):
        assert name in SPEC.param_map
    assert not SPEC.param_map["acceptance"].integer and SPEC.param_map["acceptance"].step == 0.01
    for name in ("tokens_per_pass", "speedup", "tv_distance", "max_abs_deviation"):
        assert name in SPEC.output_map
    assert {p.id for p in SPEC.presets} >= {"code", "chat", "bad-draft", "expensive-draft"}


# -- closed forms --------------------------------------------------------------------------------


@pytest.mark.parametrize("k", range(1, 17))
def test_exact_at_alpha_0_and_1(k):
    assert sd.tokens_per_pass(0.0, k) == 1
    assert sd.tokens_per_pass(1.0, k) == k + 1
    assert values(acceptance=0, draft_tokens=k)["tokens_per_pass"] == 1
    assert values(acceptance=1, draft_tokens=k)["tokens_per_pass"] == k + 1
    assert values(acceptance=1, draft_tokens=k, draft_cost=0)["speedup"] == k + 1


def test_tokens_per_pass_on_a_grid_against_numpy():
    for alpha in np.linspace(0, 1, 101):
        for k in range(1, 17):
            series = np.sum(alpha ** np.arange(k + 1))
            assert sd.tokens_per_pass(float(alpha), k) == pytest.approx(series, rel=1e-12)
            if alpha < 1:
                closed = (1 - alpha ** (k + 1)) / (1 - alpha)
                assert sd.tokens_per_pass(float(alpha), k) == pytest.approx(closed, rel=1e-9)


def test_speedup_on_a_grid_against_numpy():
    alphas = np.linspace(0, 1, 21)
    ks = np.arange(1, 17)
    costs = np.linspace(0, 1, 11)
    a, k, c = np.meshgrid(alphas, ks, costs, indexing="ij")
    expected = np.where(a < 1, (1 - a ** (k + 1)) / np.where(a < 1, 1 - a, 1), k + 1) / (k * c + 1)
    for idx in np.ndindex(a.shape):
        got = sd.speedup(float(a[idx]), int(k[idx]), float(c[idx]))
        assert got == pytest.approx(expected[idx], rel=1e-9)


def test_reference_values():
    v = values()  # α 0.8, k 4, c 0.05
    assert v["tokens_per_pass"] == pytest.approx(3.3616)
    assert v["speedup"] == pytest.approx(3.3616 / 1.2)
    code = values(**SPEC.preset("code").values)
    assert code["tokens_per_pass"] == pytest.approx(4.0951) and code["speedup"] == pytest.approx(4.0951 / 1.2)
    assert values(**{**SPEC.preset("code").values, "draft_tokens": 8})["speedup"] == pytest.approx(4.38, abs=0.01)
    chat = values(**SPEC.preset("chat").values)
    assert chat["tokens_per_pass"] == pytest.approx(2.7731) and 2.3 <= chat["speedup"] <= 2.32
    bad = values(**SPEC.preset("bad-draft").values)
    assert bad["tokens_per_pass"] == pytest.approx(1.4251) and 1.18 <= bad["speedup"] <= 1.2
    expensive = values(**SPEC.preset("expensive-draft").values)
    assert expensive["speedup"] == pytest.approx(3.3616 / 3) and expensive["best_k"] == 2


@settings(max_examples=200, deadline=None)
@given(a1=st.floats(0, 1), a2=st.floats(0, 1), k=st.integers(1, 16), c=st.floats(0, 1))
def test_speedup_rises_with_acceptance(a1, a2, k, c):
    lo, hi = sorted((a1, a2))
    assert sd.speedup(lo, k, c) <= sd.speedup(hi, k, c)
    if hi - lo > 1e-12:  # d(tokens per pass)/dα ≥ 1: strictly rising
        assert sd.speedup(lo, k, c) < sd.speedup(hi, k, c)


@settings(max_examples=200, deadline=None)
@given(alpha=st.floats(1e-3, 1), k=st.integers(1, 15))
def test_tokens_per_pass_rises_with_k(alpha, k):
    assert sd.tokens_per_pass(alpha, k + 1) >= sd.tokens_per_pass(alpha, k)
    if alpha ** (k + 1) > 1e-12:  # strictly, wherever the added α^(k+1) survives rounding
        assert sd.tokens_per_pass(alpha, k + 1) > sd.tokens_per_pass(alpha, k)
    assert sd.tokens_per_pass(alpha, k) <= k + 1


def test_tokens_per_pass_flat_in_k_at_alpha_0():
    assert {sd.tokens_per_pass(0.0, k) for k in range(1, 17)} == {1}


# -- the draft distribution and the exact law of the rule -------------------------------------------


@pytest.mark.parametrize("alpha", [0, 0.01, 0.3, 0.5, 0.77, 0.78, 0.79, 0.8, 0.95, 1])
def test_draft_has_exactly_the_requested_acceptance(alpha):
    q = np.array(sd.draft_for(alpha))
    assert np.all(q >= 0) and q.sum() == pytest.approx(1, abs=1e-12)
    assert np.minimum(P, q).sum() == pytest.approx(alpha, abs=1e-9)
    assert 0.5 * np.abs(P - q).sum() == pytest.approx(1 - alpha, abs=1e-9)


@pytest.mark.parametrize("alpha", np.linspace(0, 1, 21).tolist())
def test_accept_resample_output_law_is_exactly_the_target(alpha):
    """P(out = x) = q(x)·min(1, p(x)/q(x)) + P(reject)·residual(x) = p(x), computed with numpy."""
    q = np.array(sd.draft_for(alpha))
    ratio = np.divide(P, q, out=np.zeros_like(P), where=q > 0)
    accepted = q * np.minimum(1, ratio)
    rejected = 1 - accepted.sum()
    res = np.maximum(0, P - q)
    res_numpy = res / res.sum() if res.sum() > 1e-12 else P
    np.testing.assert_allclose(sd.residual(sd.TARGET, q), res_numpy, atol=1e-12)
    np.testing.assert_allclose(accepted + rejected * res_numpy, P, atol=1e-9)


CHI2_999 = {4: 18.467, 5: 20.515}  # 99.9% quantiles of the chi-square distribution


@pytest.mark.parametrize("alpha", [0, 0.3, 0.5, 0.8, 0.9, 1])
@pytest.mark.parametrize("k", [1, 4, 16])
def test_monte_carlo_matches_the_target(alpha, k):
    computed = sd.compute(SPEC.check_overrides({"acceptance": alpha, "draft_tokens": k, "samples": 5000, "seed": 11}))
    result = computed.values
    empirical = np.array(computed.details["empirical"])
    n = computed.details["emitted"]
    counts = empirical * n
    assert counts[P == 0].sum() == 0  # the target never says "moon", and neither does the output
    support = P > 0
    chi2 = (((counts[support] - n * P[support]) ** 2) / (n * P[support])).sum()
    assert chi2 < CHI2_999[int(support.sum()) - 1]
    assert result["tv_distance"] == pytest.approx(0.5 * np.abs(empirical - P).sum(), abs=1e-12)
    assert result["tv_distance"] < 0.03
    assert result["max_abs_deviation"] == pytest.approx(np.abs(empirical - P).max(), abs=1e-12)
    # while trusting the draft would be off by 1 − α
    assert result["draft_tv"] == pytest.approx(1 - alpha, abs=1e-9)


@pytest.mark.parametrize("alpha", [0, 0.3, 0.8, 1])
def test_monte_carlo_acceptance_and_tokens_per_pass(alpha):
    v = values(acceptance=alpha, draft_tokens=4, samples=10000, seed=5)
    assert v["empirical_acceptance"] == pytest.approx(alpha, abs=0.03)
    assert v["tokens_per_pass_mc"] == pytest.approx(v["tokens_per_pass"], rel=0.05)


def test_chart_series():
    line, bars = run().charts
    assert line["kind"] == "line" and line["labels"] == [str(k) for k in range(1, 17)] and line["marker"] == 3
    assert line["series"][0]["values"][3] == pytest.approx(3.3616 / 1.2, abs=1e-4)
    assert bars["kind"] == "bar" and bars["labels"] == list(sd.VOCAB)
    names = [s["name"] for s in bars["series"]]
    assert names == ["target p", "draft q", "empirical (spec. decoding)"]
    assert bars["frame"] == 0 and bars["series"] == bars["frames"][0]["series"]  # the run's first pass, shown first
    target, _, empirical = (np.array(s["values"]) for s in bars["frames"][-1]["series"])  # the whole run
    assert np.abs(target - empirical).max() < 3  # percentage points
    assert "total variation" in bars["summary"] and "total variation" in bars["frames"][-1]["summary"]


# -- finiteness, determinism, speed ----------------------------------------------------------------


def _extremes():
    cases = [{}]
    for param in SPEC.params:
        for value in (param.min, param.max):
            cases.append({param.name: value})
    for alpha in (0, 1):
        for k in (1, 16):
            for c in (0, 1):
                cases.append({"acceptance": alpha, "draft_tokens": k, "draft_cost": c, "samples": 100})
    cases.append({"acceptance": 1 - 1e-9, "draft_tokens": 16})
    cases.append({"acceptance": 1e-9, "draft_tokens": 16, "draft_cost": 1})
    return cases


@pytest.mark.parametrize("raw", _extremes(), ids=lambda raw: json.dumps(raw))
def test_every_output_finite_at_extremes(raw):
    result = run(**raw)
    for name, value in result.values.items():
        assert math.isfinite(value), name
    assert 1 <= result.values["tokens_per_pass"] <= 17
    assert result.values["speedup"] > 0
    json.dumps(result.charts, allow_nan=False)


def test_deterministic_for_a_seed():
    a, b = run(seed=3), run(seed=3)
    assert a.values == b.values and a.charts == b.charts
    assert run(seed=4).values["tv_distance"] != a.values["tv_distance"]

