"""Numbers before Python, with Python blocked (its .wasm never arrives): the build's neighbourhood
table answers a slider stop with Python's own build-time number; any other input marks the
outputs as not yet computed (``data-pending``, ``aria-busy``); a linked page never shows the
link's inputs beside the fence's outputs. tests/cross/test_cross_before_python.py checks the same
in Firefox and WebKit."""

from __future__ import annotations

import pytest

import course_calculators
from e2e_helpers import output, set_field, settle

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

    # A link to a state the table holds shows that state's numbers once the table is there (its
    # outputs marked as not yet computed until then, never the fence's).
    page.goto(base_url + KV + "?kv-cache.context=32768")
    page.wait_for_selector(f"{ROOT}[data-bound]")
    page.wait_for_function("(sel) => !document.querySelector(sel).hasAttribute('data-pending')", arg=f"{ROOT} output")
    assert output(page, CALC, "kv_bytes_total") == expected(context=32768)["kv_bytes_total"]
    assert pending(page) == []


# -- the charts and the pin before Python -------------------------------------------------------

def table_of(page, root: str, site: str) -> dict:
    """The widget's table, as the page fetches it (its address is relative to the site's root)."""
    return page.eval_on_selector(
        f"{root} [data-neighbourhood]",
        "(e, site) => fetch(new URL(e.getAttribute('data-neighbourhood'), site)).then(r => r.json())", site)


def charts_pending(page, root: str) -> list[bool]:
    return page.eval_on_selector_all(
        f"{root} figure[data-chart]",
        "fs => fs.map(f => f.hasAttribute('data-pending') && f.getAttribute('aria-busy') === 'true')")


def summaries(page, root: str) -> list[str]:
    return page.eval_on_selector_all(f"{root} figure[data-chart] [data-chart-summary]", "ps => ps.map(p => p.textContent)")


def test_a_stop_redraws_the_charts_from_a_table_that_carries_them(page, base_url):
    """Sampling's table carries its charts (7.8 KB gzip with them, of the 30 KB limit; kv-cache's,
    near 28 KB, may or may not: the build measures)."""
    calc, root = "sampling", '.calc[data-calc="sampling"]'
    block_python(page)
    page.goto(base_url + "inference/sampling/")
    page.wait_for_selector(f'{root}[data-state="error"]', timeout=60_000)
    table = table_of(page, root, base_url)
    assert table["charts"] is True
    name, value = next(e["set"] for e in table["entries"] if "charts" in e and e["set"][0] in table["numbers"])
    set_field(page, calc, name, value)
    want = [c["summary"] for c in course_calculators.get(calc).run([(name, value)]).charts]
    page.wait_for_function("([sel, want]) => Array.from(document.querySelectorAll(sel)).map(p => p.textContent)"
                           ".join('|') === want.join('|')", arg=[f"{root} figure[data-chart] [data-chart-summary]", want])
    assert want != [c["summary"] for c in course_calculators.get(calc).run({}).charts]
    assert not any(charts_pending(page, root))
    page.wait_for_selector(f"{root} figure[data-chart][data-drawn]", state="attached")  # the live picture, not the build's


def test_a_chart_the_table_does_not_carry_is_marked_not_yet_computed(page, base_url):
    root = '.calc[data-calc="decode-roofline"]'
    block_python(page)
    page.goto(base_url + "inference/two-phases/")
    page.wait_for_selector(f'{root}[data-state="error"]', timeout=60_000)
    assert table_of(page, root, base_url)["charts"] is False  # too big with them: measured at build time
    built = summaries(page, root)
    page.eval_on_selector(f'{root} input[type=range][data-for="batch"]',
                          "e => { e.value = String(Number(e.value) + 1); e.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function("(sel) => document.querySelector(sel).hasAttribute('data-pending')",
                           arg=f"{root} figure[data-chart]")
    assert all(charts_pending(page, root))
    assert summaries(page, root) == built  # the old picture stays, marked: never shown as current
    mark = page.eval_on_selector(f"{root} figure[data-chart] figcaption", "e => getComputedStyle(e, '::after').content")
    assert "not yet computed" in mark
    outs = page.eval_on_selector_all(f"{root} output[data-output]", "els => els.filter(e => e.hasAttribute('data-pending')).length")
    assert outs == 0  # the outputs are the table's answer


def pin_state(page, root: str) -> dict:
    return page.eval_on_selector(root, """(r) => ({
        label: r.querySelector('[data-pin-label]').textContent,
        labelBusy: r.querySelector('[data-pin-label]').getAttribute('aria-busy') === 'true',
        rows: Array.from(r.querySelectorAll('[data-pinned-for]')).filter(e => !e.hidden).length,
        busyRows: Array.from(r.querySelectorAll('[data-pinned-for]'))
            .filter(e => !e.hidden && e.hasAttribute('data-pending') && e.getAttribute('aria-busy') === 'true').length,
        ratios: Array.from(r.querySelectorAll('[data-ratio]')).filter(e => e.textContent.trim()).length })""")


def test_a_linked_pin_is_marked_not_yet_computed_and_says_when_python_cannot_start(page, base_url):
    block_python(page)
    page.goto(base_url + KV + "?kv-cache.pin=context%3D131072")
    page.wait_for_selector(f"{ROOT}[data-bound]")
    state = pin_state(page, ROOT)
    if page.get_attribute(ROOT, "data-state") != "error":  # not failed yet: waiting
        assert state["label"] == "Pinned: not yet computed (waiting for Python)", state
    assert "computing" not in state["label"]
    assert state["labelBusy"] and state["rows"] == state["busyRows"] > 0 and state["ratios"] == 0
    python_failed(page)
    state = pin_state(page, ROOT)
    assert state["label"] == "Pinned: cannot be computed without Python", state
    assert state["labelBusy"] and state["rows"] == state["busyRows"] > 0 and state["ratios"] == 0
    # Pinning again, and a slider stop the table answers: still no ratio, never "computing…".
    page.click(f"{ROOT} [data-action=pin]")  # unpins
    assert pin_state(page, ROOT)["rows"] == 0
    page.click(f"{ROOT} [data-action=pin]")
    context = course_calculators.get(CALC).param_map["context"]
    move_slider(page, "context", context.stop_of(context.default) + 1)
    state = pin_state(page, ROOT)
    assert state["label"] == "Pinned: cannot be computed without Python", state
    assert state["rows"] == state["busyRows"] > 0 and state["ratios"] == 0


def test_inputs_pinned_off_the_table_before_python_are_the_readers_once_python_comes(page, base_url):
    """An off-grid state pinned before Python is the reader's state, not the fence's: marked not
    yet computed until Python starts, then computed, with Python's canonical pin in the address."""
    held = []

    def hold(route):
        held.append(route)  # the wasm waits until the test lets it go

    page.context.route("**/*.wasm*", hold)
    page.goto(base_url + KV)
    page.wait_for_selector(f"{ROOT}[data-bound]")
    set_field(page, CALC, "context", "5000")
    page.wait_for_function("(sel) => document.querySelector(sel).hasAttribute('data-pending')", arg=f"{ROOT} output")
    page.click(f"{ROOT} [data-action=pin]")
    state = pin_state(page, ROOT)
    assert state["label"] == "Pinned: not yet computed (waiting for Python)", state
    assert state["labelBusy"] and state["ratios"] == 0
    assert held, "the worker asked for the wasm"
    page.context.unroute("**/*.wasm*", hold)  # Playwright lets the held requests go on, and the next ones
    settle(page, CALC)
    page.wait_for_function("(sel) => !document.querySelector(sel).hasAttribute('aria-busy')", arg=f"{ROOT} [data-pin-label]")
    assert "kv-cache.pin=context%3D5000" in page.url
    pinned = page.eval_on_selector(f'{ROOT} [data-pinned-for="kv_bytes_total"] [data-pinned]', "e => e.dataset.value")
    assert pinned == expected(context=5000)["kv_bytes_total"][0]
    assert pin_state(page, ROOT)["label"] == "Pinned. The live setting is the same."
