"""The parameter types' own rules beyond conversion (``test_spec.py`` has those): a value's canonical
text, and a log slider's stops and positions — defined here only; the HTML and each result carry
them, so the page maps positions without a scale of its own."""

from __future__ import annotations

import math
import re
import html

import pytest

import course_calculators
from course_calculators.plugin import render
from course_calculators.spec import Choice, Number, Text

CONTEXT = Number("context", "Context", 8192, 1, 131072, scale="log")
RATE = Number("rate", "Rate", 1.0, 0.1, 10, integer=False, scale="log")


def test_a_values_canonical_text_reads_back_to_the_same_value():
    assert CONTEXT.encode(131072) == "131072"
    assert RATE.encode(0.92) == "0.92" and RATE.encode(2.0) == "2"
    for number in (CONTEXT, RATE):
        for v in (number.min, number.default, number.max, 0.123456789 if not number.integer else 77):
            assert number.convert(number.encode(number.convert(v)[0]))[0] == number.convert(v)[0]
    assert Choice("c", "C", "a", (("a", "A"), ("b", "B"))).encode("b") == "b"
    assert Text("t", "T").encode("x y") == "x y"


def test_an_integer_log_sliders_stops_are_the_powers_of_two():
    assert CONTEXT.stops == tuple(2**e for e in range(18))
    assert Number("n", "N", 3, 3, 100, scale="log").stops == (3, 4, 8, 16, 32, 64)


def test_a_fractional_log_slider_steps_twenty_times_per_doubling():
    stops = RATE.stops
    assert stops[0] == 0.1 and stops[-1] <= 10
    assert all(b > a for a, b in zip(stops, stops[1:]))
    assert len(stops) == math.floor(math.log2(100) * 20 + 1e-9) + 1


def test_a_linear_slider_has_no_stops():
    assert Number("x", "X", 1, 0, 10).stops == ()


@pytest.mark.parametrize("value, position", [(1024, 10), (1400, 10), (1500, 11), (10**9, 17), (0.01, 0), (1, 0)])
def test_a_value_sits_at_its_nearest_stop_on_a_log_scale(value, position):
    assert CONTEXT.stop_of(value) == position


def test_each_result_carries_its_log_sliders_positions_as_the_html_does():
    kv = course_calculators.get("kv-cache")
    result = kv.run({"context": 100000, "concurrency": 3})
    log = {p.name for p in kv.params if isinstance(p, Number) and p.scale == "log"}
    assert set(result.slider) == log
    assert result.slider["context"] == kv.param_map["context"].stop_of(100000) == 17  # 2^17 = 131072
    html_text = render.widget(kv, {"context": 100000, "concurrency": 3}, dom_id="calc-kv-cache")
    m = re.search(r'data-for="context" data-stops="([^"]+)" min="0" max="(\d+)" step="1" value="(\d+)"', html_text)
    assert m and int(m[3]) == result.slider["context"]
    assert [int(s) for s in html.unescape(m[1]).strip("[]").split(",")] == list(kv.param_map["context"].stops)
