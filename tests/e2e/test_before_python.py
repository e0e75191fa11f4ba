"""Numbers before Python, with Python blocked (its .wasm never arrives): the build's neighbourhood
table answers a slider stop with Python's own build-time number; any other input marks the
outputs as not yet computed (``data-pending``, ``aria-busy``); a linked page never shows the
link's inputs beside the fence's outputs. tests/cross/test_cross_before_python.py checks the same
in Firefox and WebKit."""

from __future__ import annotations

import pytest

import course_calculators
from e2e_helpers import output, set_field

pytestmark = pytest.mark.e2e

KV = "inference/kv-cache/"
CALC = "kv-cache"
ROOT = f'.calc[data-calc="{CALC}"]'


def block_python(page) -> None:
    page.context.route("**/*.wasm*", lambda route: route.abort())


def python_failed(page) -> None:
    """Python's start has failed for good (the wasm never came): what shows now is the build's."""
    page.wait_for_selector(f'{ROOT}[data-state="error"]', timeout=60_000)


def expected(**inputs) -> dict[str, tuple[str, str]]:
    result = course_calculators.get(CALC).run({k: str(v) for k, v in inputs.items()})
    return {name: (result.raw[name], result.text[name]) for name in result.raw}


def pending(page) -> list[str]:
    """The outputs marked as not yet computed (each with aria-busy)."""
    return page.eval_on_selector_all(
        f"{ROOT} output[data-output]",
        "els => els.filter(e => e.hasAttribute('data-pending') && e.getAttribute('aria-busy') === 'true')"
        ".map(e => e.dataset.output)")


def move_slider(page, name: str, position: int) -> None:
    page.eval_on_selector(f'{ROOT} input[type=range][data-for="{name}"]',
                          "(e, v) => { e.value = String(v); e.dispatchEvent(new Event('input', { bubbles: true })); }",
                          position)


def test_a_slider_stop_answers_from_the_table_with_pythons_build_time_number(page, base_url):
    block_python(page)
    page.goto(base_url + KV)
    python_failed(page)
    context = course_calculators.get(CALC).param_map["context"]
    at = context.stop_of(context.default)
    move_slider(page, "context", at + 1)  # 16384 tokens: one stop up
    want = expected(context=context.stops[at + 1])
    page.wait_for_function("(sel) => document.querySelector(sel).value === '16384'", arg=f'{ROOT} input[name="context"]')
    for name in ("kv_bytes_total", "total_bytes", "fits", "kv_bytes_per_token"):
        assert output(page, CALC, name) == want[name], name
    assert pending(page) == []
    assert want["kv_bytes_total"] != expected()["kv_bytes_total"]  # a new number, not the fence's


def test_a_choice_answers_from_the_table_too(page, base_url):
    block_python(page)
    page.goto(base_url + KV)
    python_failed(page)
    set_field(page, CALC, "gpu", "h200")
    want = expected(gpu="h200")
    assert output(page, CALC, "total_bytes") == want["total_bytes"]
    assert output(page, CALC, "fits") == want["fits"]
    assert pending(page) == []


def test_an_off_grid_input_marks_every_output_not_yet_computed(page, base_url):
    block_python(page)
    page.goto(base_url + KV)
    python_failed(page)
    set_field(page, CALC, "context", "5000")
    names = page.eval_on_selector_all(f"{ROOT} output[data-output]", "els => els.map(e => e.dataset.output)")
    page.wait_for_function("(sel) => document.querySelector(sel).hasAttribute('data-pending')", arg=f"{ROOT} output")
    assert pending(page) == names
    # visibly: dimmed, and saying so
    mark = page.eval_on_selector(f"{ROOT} output[data-pending]", "e => getComputedStyle(e, '::after').content")
    assert "not yet computed" in mark
    # Back on a stop the table holds: answered again, the marks gone.
    set_field(page, CALC, "context", "8192")
    page.wait_for_function("(sel) => !document.querySelector(sel).hasAttribute('data-pending')", arg=f"{ROOT} output")
    assert output(page, CALC, "kv_bytes_total") == expected()["kv_bytes_total"]


def test_a_linked_page_never_shows_the_links_inputs_beside_the_fences_outputs(page, base_url):
    block_python(page)
    page.goto(base_url + KV + "?kv-cache.context=5000")
    page.wait_for_selector(f"{ROOT}[data-bound]")
    assert page.input_value(f'{ROOT} input[name="context"]') == "5000"
    names = page.eval_on_selector_all(f"{ROOT} output[data-output]", "els => els.map(e => e.dataset.output)")
    assert pending(page) == names
    python_failed(page)
    assert pending(page) == names  # and when Python never comes, they stay marked

    # A link to a state the table holds shows that state's numbers.
    page.goto(base_url + KV + "?kv-cache.context=32768")
    page.wait_for_selector(f"{ROOT}[data-bound]")
    assert output(page, CALC, "kv_bytes_total") == expected(context=32768)["kv_bytes_total"]
    assert pending(page) == []
