"""Numbers before Python in each engine, with Python blocked (the server refuses its .wasm): a
slider stop answers from the build's neighbourhood table with CPython's number, an off-grid input
marks every output as not yet computed, a linked page never shows the link's inputs beside the
fence's outputs. (tests/e2e/test_before_python.py checks the same in Chromium.)"""

from __future__ import annotations

import io
from urllib.parse import unquote, urlsplit

import pytest

import course_calculators
from widget_contract import expected, outputs, root, set_input

pytestmark = pytest.mark.cross

CALC = "kv-cache"
PAGE = "inference/kv-cache/"

PENDING = """(sel) => Array.from(document.querySelector(sel).querySelectorAll("output[data-output]"))
    .filter((o) => o.hasAttribute("data-pending") && o.getAttribute("aria-busy") === "true").map((o) => o.dataset.output)"""


def refuse_wasm(handler):
    """A ``StaticServer.hooks`` entry: every .wasm is a 404 (Python cannot start)."""
    if not unquote(urlsplit(handler.path).path).endswith(".wasm"):
        return None
    handler.send_response(404)
    handler.send_header("Content-Length", "0")
    handler.end_headers()
    return io.BytesIO(b"")


@pytest.fixture
def no_python(site):
    site.hooks.insert(0, refuse_wasm)
    try:
        yield site
    finally:
        site.hooks.remove(refuse_wasm)


def failed(session) -> None:
    session.wait_for("(sel) => document.querySelector(sel).dataset.state === 'error'", root(CALC), timeout=90,
                     what="Python's start failed")


def test_before_python_the_table_answers_or_the_outputs_say_not_yet_computed(session, no_python):
    names = [o.name for o in course_calculators.get(CALC).outputs]
    session.goto(no_python.url + PAGE)
    failed(session)

    set_input(session, CALC, "context", 16384)  # a stop of the context slider
    want = expected(CALC, {"context": 16384})
    session.wait_for("""(sel, want) => Object.entries(want).every(([k, [raw, text]]) => {
        const o = document.querySelector(sel).querySelector(`output[data-output="${k}"]`);
        return o.dataset.value === raw && o.textContent.trim() === text; })""",
                     root(CALC), {k: list(v) for k, v in want.items()}, timeout=10, what="the table's answer")
    assert session.evaluate(PENDING, root(CALC)) == []

    set_input(session, CALC, "context", 5000)  # off the grid
    session.wait_for(f"(sel) => ({PENDING})(sel).length === {len(names)}", root(CALC), timeout=10,
                     what="every output marked")

    session.goto(no_python.url + PAGE + "?kv-cache.context=5000")
    session.wait_for("(sel) => document.querySelector(sel).dataset.bound === '1'", root(CALC), timeout=30,
                     what="the widget bound")
    assert sorted(session.evaluate(PENDING, root(CALC))) == sorted(names)
    assert outputs(session, CALC)  # the fence's numbers are there, but marked


PIN = """(sel) => { const r = document.querySelector(sel); const label = r.querySelector("[data-pin-label]");
    const rows = Array.from(r.querySelectorAll("[data-pinned-for]")).filter((e) => !e.hidden);
    return { label: label.textContent, busy: label.getAttribute("aria-busy") === "true",
             rows: rows.length, marked: rows.filter((e) => e.hasAttribute("data-pending")).length,
             ratios: rows.filter((e) => e.querySelector("[data-ratio]").textContent.trim()).length }; }"""


def test_a_linked_pin_without_python_says_it_cannot_be_computed(session, no_python):
    session.goto(no_python.url + PAGE + "?kv-cache.pin=context%3D131072")
    failed(session)
    session.wait_for(f"(sel) => ({PIN})(sel).label === 'Pinned: cannot be computed without Python'", root(CALC),
                     timeout=10, what="the pin's label")
    state = session.evaluate(PIN, root(CALC))
    assert state["busy"] and state["rows"] == state["marked"] > 0 and state["ratios"] == 0, state
