"""llm_inference/units.py: the chapter's own units, registered with the framework's registry."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_calculators import units
from course_calculators.spec import Output
from llm_inference import units as chapter_units
from llm_inference.units import format_bandwidth, format_flops, format_tokens_per_s


@pytest.mark.parametrize(
    "x, text",
    [(9.89e14, "989 TFLOP/s"), (1.979e15, "1.98 PFLOP/s"), (312e12, "312 TFLOP/s"), (2.25e15, "2.25 PFLOP/s"),
     (5e9, "5 GFLOP/s"), (1e6, "1 MFLOP/s"), (500, "500 FLOP/s"),
     (999.9e12, "1 PFLOP/s"), (999.6e9, "1 TFLOP/s"), (999.4e12, "999 TFLOP/s")],  # fixed: '1,000 TFLOP/s'
)
def test_format_flops(x, text):
    assert format_flops(x) == text


@pytest.mark.parametrize(
    "x, text", [(3.35e12, "3.35 TB/s"), (0.864e12, "864 GB/s"), (2.039e12, "2.04 TB/s"), (8e12, "8 TB/s"),
                (999.9e9, "1 TB/s"), (5e5, "500,000 B/s")]
)
def test_format_bandwidth(x, text):
    assert format_bandwidth(x) == text


def test_format_tokens_per_s():
    assert format_tokens_per_s(24.1) == "24.1 tokens/s"


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-9, max_value=1e17, allow_nan=False))
def test_no_prefixed_unit_shows_1000_of_itself(x):
    # (P is format_flops' largest prefix, T format_bandwidth's: those may show 1,000)
    for text, smaller in ((format_flops(x), "MGT"), (format_bandwidth(x), "MG")):
        number, unit = text.split(" ")
        assert not (number == "1,000" and unit[0] in smaller), text


def test_the_chapters_units_are_registered_by_the_chapter():
    for name, unit in (("tokens_per_s", chapter_units.TOKENS_PER_S), ("flops", chapter_units.FLOPS),
                       ("bandwidth", chapter_units.BANDWIDTH)):
        assert units.get(name) is unit
        assert units._OWNERS[name] == "llm_inference.units"
        assert name not in units.registered(builtin_only=True)
    assert Output("x", "Throughput", "tokens_per_s").text(41.27) == "41.3 tokens/s"
