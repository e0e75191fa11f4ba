"""Monotonic where the physics says so (more context, more KV; more bandwidth, more tokens/s; a
higher cache hit, a lower bill; ...): the property tests of ``test_properties.py`` (its strategies
and settings) over the calculators other than kv-cache, and the bounds that hold everywhere.
kv-cache's cases, the longest to run, are ``test_properties_monotonic_kv_cache.py``: a file of their
own, so that ``make test``'s two workers, which take each file whole, share the work.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import course_calculators
from llm_inference.hardware import GPUS
from course_calculators.spec import Number

from .test_properties import MONOTONIC, PROPERTY, inputs_strategy, value_strategy

# -- monotonic where the physics says so --------------------------------------------------------


def _pair(param: Number) -> st.SearchStrategy[tuple[Any, Any]]:
    """Two values of one parameter, smaller first."""
    return st.tuples(value_strategy(param), value_strategy(param)).map(sorted).map(tuple)


def monotonic(calc_id: str, param: str, output: str, *, decreasing: bool = False, fixed: dict | None = None,
              where=None, rel: float = 1e-9, values: st.SearchStrategy | None = None):
    """A property: raising ``param`` (everything else drawn from the whole space) never lowers
    ``output`` (never raises it, when ``decreasing``). ``where(inputs, result)`` limits it to a regime;
    ``values`` draws the parameter from part of its range (where a value is not a quantity)."""
    calc = course_calculators.get(calc_id)
    pair = _pair(calc.param_map[param]) if values is None else st.tuples(values, values).map(sorted).map(tuple)

    @MONOTONIC
    @given(inputs_strategy(calc), pair)
    def prop(base, pair):
        base = {**base, **(fixed or {})}
        low, high = (calc.run({**base, param: v}) for v in pair)
        a, b = low.values[output], high.values[output]
        assume(a is not None and b is not None)  # not computed: nothing to compare
        if where is not None:
            assume(where(low) and where(high))
        if decreasing:
            a, b = b, a
        assert a <= b * (1 + rel) + 1e-12, (param, pair, output, low.values[output], high.values[output])

    prop()


CUSTOM = {"model": "custom", "config": ""}


def LEGAL(result) -> bool:
    """The run's GPU count is one vLLM accepts (the monotonic physics holds over those)."""
    legal = result.values["legal_gpus"]
    # e.g. a DCP size TP does not divide; SGLang's refusals too (DP attention over more than one GPU is not modelled)
    refused = any(n.startswith(("vLLM refuses this:", "SGLang refuses this:")) for n in result.notes)
    return legal is not None and not refused and str(result.inputs["gpus"]) in legal.split(", ")


#: Utilizations given: 0 is not the smallest utilization but "the release's default" (0.92 in the
#: newest), so the ordering properties draw from (0, 1] instead of filtering 0 out (the spec's
#: edges, min 0 and default 0, would be drawn two times in three and filtered away).
EXPLICIT_UTILIZATIONS = st.one_of(st.sampled_from([0.5, 0.9, 0.92, 1.0]), st.floats(0.01, 1.0))


#: GPU counts as readers pick them: most models shard only over powers of two (the heads divide by
#: them), so drawing any count from the range would leave LEGAL too few runs to compare.
POWER_OF_TWO_GPUS = st.sampled_from([1, 2, 4, 8, 16, 32, 64])


def LEGAL_DECODE(result) -> bool:
    kv = course_calculators.get("kv-cache")
    shared = {k: v for k, v in result.inputs.items() if k in kv.param_map}
    return LEGAL(kv.run({**shared, "model": "custom"}))


MONOTONIC_CASES = [
    # kv-cache: more context, more sequences, more layers → more cache; more GPUs → more memory.
    ("kv-cache", "context", "kv_bytes_total", {}),
    ("kv-cache", "context", "kv_bytes_per_sequence", {}),
    ("kv-cache", "context", "max_sequences", {"decreasing": True}),
    ("kv-cache", "concurrency", "kv_bytes_total", {}),
    ("kv-cache", "concurrency", "max_context", {"decreasing": True}),
    ("kv-cache", "layers", "kv_bytes_per_token", {"fixed": CUSTOM}),
    ("kv-cache", "kv_heads", "kv_bytes_per_token", {"fixed": {**CUSTOM, "attention": "gqa"}}),
    ("kv-cache", "latent_dim", "kv_bytes_per_token", {"fixed": {**CUSTOM, "attention": "mla"}}),
    ("kv-cache", "gpus", "usable_bytes", {}),
    # more GPUs never hold fewer sequences, at any size vLLM accepts (decode context parallelism left
    # at 1: a DCP size drawn from its whole range is refused, or not modelled, for most models)
    ("kv-cache", "gpus", "max_sequences", {"where": LEGAL, "values": POWER_OF_TWO_GPUS, "fixed": {"dcp": 1}}),
    ("kv-cache", "gpus", "max_concurrency", {"where": LEGAL, "values": POWER_OF_TWO_GPUS, "fixed": {"dcp": 1}}),
    ("kv-cache", "gpus", "max_context", {"where": LEGAL, "values": POWER_OF_TWO_GPUS, "fixed": {"dcp": 1}}),
    ("kv-cache", "params_b", "weight_bytes", {"fixed": CUSTOM}),
    ("kv-cache", "params_b", "max_sequences", {"fixed": CUSTOM, "decreasing": True}),
    ("kv-cache", "gpu_memory_utilization", "usable_bytes", {"values": EXPLICIT_UTILIZATIONS}),
    ("kv-cache", "gpu_memory_utilization", "max_sequences", {"values": EXPLICIT_UTILIZATIONS}),
    ("kv-cache", "overhead_gib", "kv_cache_memory", {"decreasing": True}),
    # decode-roofline: more GPUs (tensor parallel) → more bandwidth and FLOPs → faster; more
    # batch → more throughput, slower streams; longer context → more bytes per step → slower.
    ("decode-roofline", "gpus", "tokens_per_s", {}),
    ("decode-roofline", "gpus", "throughput", {}),
    ("decode-roofline", "gpus", "ttft_s", {"decreasing": True}),
    # (decode context parallelism left at 1: most DCP sizes are refused for most TP sizes)
    ("decode-roofline", "gpus", "max_batch", {"where": LEGAL_DECODE, "fixed": {"dcp": 1}}),
    ("decode-roofline", "step_floor_ms", "estimate_tokens_per_s", {"decreasing": True}),
    ("decode-roofline", "batch", "streamed_weight_bytes", {}),  # a bigger batch touches more experts
    ("decode-roofline", "batch", "throughput", {}),
    ("decode-roofline", "batch", "tokens_per_s", {"decreasing": True}),
    ("decode-roofline", "context", "tokens_per_s", {"decreasing": True}),
    ("decode-roofline", "params_b", "weight_bytes", {}),
    ("decode-roofline", "prompt_tokens", "ttft_s", {}),
    # unit-economics: a higher cache hit → a lower bill; more users → a higher bill.
    ("unit-economics", "cache_hit", "monthly_cost_flagship", {"decreasing": True}),
    ("unit-economics", "cache_hit", "monthly_cost_mid", {"decreasing": True}),
    ("unit-economics", "cache_hit", "monthly_cost_small", {"decreasing": True}),
    ("unit-economics", "dau", "daily_generations", {}),
    ("unit-economics", "dau", "monthly_cost_flagship", {}),
    ("unit-economics", "remix_rate", "daily_generations", {}),
    ("unit-economics", "output_tokens", "monthly_cost_mid", {}),
    ("unit-economics", "price_flagship_out", "monthly_cost_flagship", {}),
    # speculative decoding: more acceptance, more drafted tokens → more tokens per target pass;
    # a costlier draft → less speedup.
    # (The analytic outputs do not depend on the Monte Carlo sample count: the fewest keep it quick.)
    ("speculative-decoding", "acceptance", "tokens_per_pass", {"fixed": {"samples": 100}}),
    ("speculative-decoding", "acceptance", "speedup", {"fixed": {"samples": 100}}),
    ("speculative-decoding", "draft_tokens", "tokens_per_pass", {"fixed": {"samples": 100}}),
    ("speculative-decoding", "draft_cost", "speedup", {"decreasing": True, "fixed": {"samples": 100}}),
    # sampling: a lower temperature → a likelier top word; a smaller top-p → fewer candidates.
    ("sampling", "temperature", "top_prob", {"decreasing": True}),
    ("sampling", "top_p", "candidates", {}),
]


def case_ids(cases) -> list[str]:
    return [f"{c}:{p}->{o}" for c, p, o, _ in cases]


#: kv-cache's cases run in test_properties_monotonic_kv_cache.py; these, the others.
OTHER_CASES = [case for case in MONOTONIC_CASES if case[0] != "kv-cache"]


@pytest.mark.parametrize("calc_id, param, output, kw", OTHER_CASES, ids=case_ids(OTHER_CASES))
def test_monotonic(calc_id, param, output, kw):
    monotonic(calc_id, param, output, **kw)


def test_more_bandwidth_more_tokens_per_s_when_memory_bound():
    """Same model and load on two GPUs: in the memory-bound regime the one with more HBM bandwidth
    streams more tokens per second (the weights and the cache do not depend on the card)."""
    calc = course_calculators.get("decode-roofline")

    @MONOTONIC
    @given(inputs_strategy(calc), st.sampled_from(sorted(GPUS)), st.sampled_from(sorted(GPUS)))
    def prop(base, gpu_a, gpu_b):
        if GPUS[gpu_a].bandwidth > GPUS[gpu_b].bandwidth:
            gpu_a, gpu_b = gpu_b, gpu_a
        slow, fast = calc.run({**base, "gpu": gpu_a}), calc.run({**base, "gpu": gpu_b})
        assume(slow.values["bound"] == fast.values["bound"] == "memory")
        assert fast.values["tokens_per_s"] >= slow.values["tokens_per_s"] * (1 - 1e-12)

    prop()


def test_smaller_cache_dtype_smaller_cache():
    calc = course_calculators.get("kv-cache")
    order = ["bf16", "fp8", "int4_per_token_head"]  # 2, 1 and 0.5 bytes per element (+ a scale per vector)

    @MONOTONIC
    @given(inputs_strategy(calc))
    def prop(base):
        # int4 per token-head adds an fp32 scale to each head's vector: below 8 values a head it saves
        # less than the scale costs (a shape no model has)
        assume(base.get("head_dim", 128) >= 8)
        sizes = [calc.run({**base, "kv_dtype": d}).values["kv_bytes_total"] for d in order]
        assume(None not in sizes)
        assert sizes == sorted(sizes, reverse=True)

    prop()


def test_bounds_that_hold_everywhere():
    """Tokens per pass lies in [1, k + 1]; with top-k on, at most k candidates; a fitting model fits."""
    spec = course_calculators.get("speculative-decoding")
    sampling = course_calculators.get("sampling")
    kv = course_calculators.get("kv-cache")

    @PROPERTY
    @given(inputs_strategy(spec), inputs_strategy(sampling), inputs_strategy(kv))
    def prop(s, t, k):
        r = spec.run(s).values
        assert 1 - 1e-12 <= r["tokens_per_pass"] <= s["draft_tokens"] + 1 + 1e-12
        v = sampling.run(t).values
        if t["top_k"]:
            assert v["candidates"] <= t["top_k"]
        assert 0 < v["top_prob"] <= 1
        result = kv.run(k)
        r = result.values
        if r["fits"] is None:  # not computed: a refused config or a layout not modelled
            return
        # vLLM's verdict: the pool holds the sequences at this context (whole sequences, rounded down)
        assert r["fits"] <= (r["max_concurrency"] >= result.inputs["concurrency"] - 1e-9)
        assert r["fits"] == (r["max_sequences"] >= result.inputs["concurrency"])
        assert r["fits"] <= (r["max_context"] >= result.inputs["context"])
        assert r["total_bytes"] == pytest.approx(
            r["weight_bytes"] + r["kv_bytes_total"] + r["state_bytes_per_sequence"] * result.inputs["concurrency"])

    prop()
