"""sampling: every transform against an independent numpy reference, the greedy loop and the penalty that
breaks it, the sampler's frequencies, monotonicity in temperature, finiteness, determinism, speed."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import course_calculators
from llm_inference import sampling as sm

SPEC = sm.SPEC
VOCAB = list(sm.VOCAB)


def run(**raw):
    return SPEC.run(SPEC.check_overrides(raw))


def values(**raw):
    return run(**raw).values


# -- an independent numpy reference ---------------------------------------------------------------


def numpy_distribution(previous, history, temperature, top_k, top_p, penalty):
    logits = np.array([sm.BIGRAMS.get(previous, {}).get(w, sm.BASE_LOGIT) for w in VOCAB], dtype=float)
    seen = np.zeros(len(VOCAB), dtype=bool)
    seen[[VOCAB.index(w) for w in history]] = True
    logits = np.where(seen, np.where(logits > 0, logits / penalty, logits * penalty), logits)
    if temperature == 0:
        probs = np.zeros(len(VOCAB))
        probs[np.argmax(logits)] = 1.0  # argmax: first index on ties
        return probs
    z = logits / temperature
    probs = np.exp(z - z.max())
    probs /= probs.sum()
    order = np.lexsort((np.arange(len(VOCAB)), -probs))  # by probability, ties by vocabulary order
    if 0 < top_k < len(VOCAB):
        probs[order[top_k:]] = 0.0
        probs /= probs.sum()
    if top_p < 1:
        sorted_probs = probs[order]
        before = np.cumsum(sorted_probs) - sorted_probs  # mass of the likelier words
        keep = before < top_p
        keep[0] = True
        keep &= sorted_probs > 0
        drop = order[~keep]
        probs[drop] = 0.0
    return probs / probs.sum()


GRID = list(itertools.product(
    [0, 0.05, 0.3, 0.7, 1.0, 1.5, 2.0],  # temperature
    [0, 1, 3, 5, 12],  # top_k
    [0.0, 0.3, 0.5, 0.9, 0.95, 1.0],  # top_p
    [1.0, 1.3, 2.0],  # repetition penalty
))


@pytest.mark.parametrize("previous", ["think", "I", ".", "try"])
def test_distribution_matches_numpy_reference(previous):
    history = ["I", "think", "that"]
    seen = [VOCAB.index(w) for w in history]
    for temperature, top_k, top_p, penalty in GRID:
        got = np.array(sm.next_distribution(previous, seen, temperature, top_k, top_p, penalty))
        want = numpy_distribution(previous, history, temperature, top_k, top_p, penalty)
        np.testing.assert_allclose(got, want, atol=1e-12, err_msg=str((temperature, top_k, top_p, penalty)))


def test_outputs_match_numpy_reference():
    for temperature, top_k, top_p, penalty in GRID:
        v = values(temperature=temperature, top_k=top_k, top_p=top_p, repetition_penalty=penalty, length=1)
        want = numpy_distribution("think", ["I", "think"], temperature, top_k, top_p, penalty)
        assert v["top_prob"] == pytest.approx(want.max(), abs=1e-12)
        assert v["candidates"] == int((want > 0).sum())
        assert v["top_token"] == VOCAB[int(np.argmax(want))]
        entropy = -(want[want > 0] * np.log2(want[want > 0])).sum()
        assert v["entropy"] == pytest.approx(max(0.0, entropy), abs=1e-3)


def test_softmax_reference_values():
    # T = 1, no filters: exp(logit) / Σ exp over the "think" row
    logits = np.array(sm.logits_after("think"))
    expected = np.exp(logits) / np.exp(logits).sum()
    np.testing.assert_allclose(sm.softmax(list(logits)), expected, atol=1e-15)
    assert values()["top_prob"] == pytest.approx(expected.max())
    assert values()["candidates"] == len(VOCAB)


def test_penalty_is_ctrl_style():
    out = sm.apply_penalty([2.0, -1.0, 0.0, 3.0], [0, 1, 2], 2.0)
    assert out == [1.0, -2.0, 0.0, 3.0]
    assert sm.apply_penalty([2.0], [0, 0, 0], 2.0) == [1.0]  # once per word, not per occurrence


def test_top_k_keeps_exactly_k():
    for k in range(1, len(VOCAB) + 1):
        assert values(temperature=1, top_k=k)["candidates"] == k


def test_top_p_edge_values():
    assert values(temperature=1, top_p=0)["candidates"] == 1  # the likeliest word always stays
    assert values(temperature=1, top_p=1)["candidates"] == len(VOCAB)
    assert values(temperature=1, top_p=0.95)["candidates"] == 7


def test_temperature_sharpens_and_flattens():
    temps = [0.05 * i for i in range(1, 41)]
    tops = [values(temperature=t)["top_prob"] for t in temps]
    entropies = [values(temperature=t)["entropy"] for t in temps]
    assert all(a >= b for a, b in zip(tops, tops[1:]))
    assert all(a <= b + 1e-3 for a, b in zip(entropies, entropies[1:]))
    assert values(temperature=0)["top_prob"] == 1.0 and values(temperature=0)["entropy"] == 0
    assert values(temperature=0.05)["top_prob"] > 0.999


# -- loops -----------------------------------------------------------------------------------------


def test_loop_detector():
    assert sm.loops("I think I think I think".split())
    assert sm.loops("a a a".split())
    assert not sm.loops("I think I think".split())
    assert not sm.loops("that it is a good idea . we should try".split())
    assert sm.loops("x a b c d e f a b c d e f a b c d e f".split())


def test_greedy_loops():
    v = values(**SPEC.preset("greedy").values)
    assert v["continuation"] == " ".join(["I", "think"] * 8)
    assert v["loops"] is True
    assert v["top_prob"] == 1.0 and v["candidates"] == 1 and v["distinct_words"] == 2


@pytest.mark.parametrize("penalty", [1.3, 1.5, 2.0])
def test_penalty_breaks_the_loop(penalty):
    v = values(temperature=0, repetition_penalty=penalty, length=16)
    assert v["loops"] is False
    assert v["continuation"].startswith("that it is a good idea")
    assert v["distinct_words"] >= 8


def test_penalty_preset_as_noticed():
    v = values(**SPEC.preset("penalty").values)
    assert v["continuation"].startswith("that it is a good idea . we should try")
    assert v["loops"] is False
    # once every word has been used the penalty is uniform again and the old loop returns
    assert values(**{**SPEC.preset("penalty").values, "length": 40})["loops"] is True


def test_other_preset_notices():
    creative = values(**SPEC.preset("creative").values)
    assert creative["candidates"] == 7
    focused = values(**SPEC.preset("focused").values)
    assert focused["candidates"] == 3 and round(focused["top_prob"], 2) == 0.61


# -- the sampler -----------------------------------------------------------------------------------


def test_first_word_frequencies_match_the_distribution():
    n = 3000
    counts = np.zeros(len(VOCAB))
    for seed in range(n):
        first = sm.generate({"temperature": 1.0, "top_k": 0, "top_p": 0.9, "repetition_penalty": 1.0,
                             "length": 1, "seed": seed})[0]
        counts[VOCAB.index(first)] += 1
    probs = numpy_distribution("think", ["I", "think"], 1.0, 0, 0.9, 1.0)
    assert counts[probs == 0].sum() == 0
    support = probs > 0
    chi2 = (((counts[support] - n * probs[support]) ** 2) / (n * probs[support])).sum()
    assert support.sum() == 5  # I, that, it, we, "." reach 90%
    assert chi2 < 18.467  # 99.9% quantile of chi-square with 4 degrees of freedom


def test_chart():
    chart = run().charts[0]
    assert chart["kind"] == "bar" and chart["labels"] == VOCAB
    assert chart["series"][0]["name"] == "probability"
    assert sum(chart["series"][0]["values"]) == pytest.approx(100, abs=0.05)
    assert "I think" in chart["summary"]


def test_contract_names():
    assert course_calculators.get("sampling") is SPEC
    for name in ("temperature", "top_k", "top_p", "repetition_penalty"):
        assert name in SPEC.param_map
    for name in ("top_prob", "candidates", "entropy", "continuation", "loops"):
        assert name in SPEC.output_map
    assert {p.id for p in SPEC.presets} >= {"greedy", "creative", "focused", "penalty"}


# -- finiteness, determinism, speed ----------------------------------------------------------------


def _extremes():
    cases = []
    for combo in itertools.product(*[(p.min, p.max) for p in SPEC.params if p.name != "seed"]):
        cases.append(dict(zip([p.name for p in SPEC.params if p.name != "seed"], combo)))
    return cases


def test_every_output_finite_at_extremes():
    for raw in _extremes():
        result = run(**raw)
        for name, value in result.values.items():
            if SPEC.output_map[name].unit not in ("bool", "text"):
                assert math.isfinite(value), (raw, name)
        assert len(result.values["continuation"].split()) == raw["length"]
        json.dumps(result.charts, allow_nan=False)


def test_deterministic_for_a_seed():
    a, b = run(seed=9), run(seed=9)
    assert a.values == b.values and a.charts == b.charts
    assert len({values(seed=s)["continuation"] for s in range(10)}) > 5

