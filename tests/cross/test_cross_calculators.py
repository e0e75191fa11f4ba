"""Every calculator, on its chapter page, in each engine: ready, then Python's answer (CPython's,
to the byte) after an input and after a preset, with no console error."""

from __future__ import annotations

import pytest

import course_calculators
from widget_contract import expected, initial_inputs, outputs, root, set_input, wait_outputs, wait_ready

pytestmark = pytest.mark.cross

# calculator: (its chapter page, an input and a value that changes the outputs, a preset)
CALCULATORS = {
    "kv-cache": ("inference/kv-cache/", ("context", 131072), "gpt3-mha"),
    "decode-roofline": ("inference/two-phases/", ("batch", 8), "batch-64"),
    "paged-attention": ("inference/paged-attention/", ("block_size", 64), "long-tail"),
    "speculative-decoding": ("inference/speculative-decoding/", ("draft_tokens", 6), "bad-draft"),
    "sampling": ("inference/sampling/", ("temperature", 0.5), "creative"),
    "unit-economics": ("inference/unit-economics/", ("cache_hit", 0.95), "remix-10"),
}


def test_the_suite_covers_every_calculator_of_the_chapter():
    assert set(CALCULATORS) == set(course_calculators.CALCULATORS)


@pytest.mark.parametrize("calc", list(CALCULATORS))
def test_ready_then_recomputes_after_an_input_and_a_preset(session, site, calc):
    page, (name, value), preset = CALCULATORS[calc]
    session.goto(site.url + page)
    wait_ready(session, calc)
    start = initial_inputs(session, calc)
    wait_outputs(session, calc, expected(calc, start))  # the numbers Python computed in the browser

    before = outputs(session, calc)
    set_input(session, calc, name, value)
    want = expected(calc, {**start, name: value})
    assert want != before, f"{name}={value} should change {calc}'s outputs"
    wait_outputs(session, calc, want)

    session.click(f'{root(calc)} button[data-preset="{preset}"]')  # a real pointer click
    wait_outputs(session, calc, expected(calc, dict(course_calculators.get(calc).preset(preset).values)))
    assert session.console_errors() == []
