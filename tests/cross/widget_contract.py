"""The widget contract (docs/widget-contract.md) through a :class:`browsers.session.Session`: what
the cross-engine tests read and do, and nothing else of the page's internals."""

from __future__ import annotations

import time

import course_calculators


def root(calc: str) -> str:
    return f'.calc[data-calc="{calc}"]'


def wait_ready(session, calc: str | None = None, timeout: float = 90, frame: str | None = None) -> None:
    """Every widget (of ``calc``) in ``ready``; fails at once on ``error``."""
    state = session.wait_for(
        """(sel) => { const els = Array.from(document.querySelectorAll(sel));
            if (els.some((e) => e.dataset.state === "error"))
              return "error: " + els.map((e) => e.querySelector("[data-message]")?.textContent.trim()).join(" | ");
            return els.length > 0 && els.every((e) => e.dataset.state === "ready") && "ready"; }""",
        root(calc) if calc else ".calc", timeout=timeout, frame=frame, what=f"{calc or 'every widget'} ready")
    assert state == "ready", f"{session.engine}: {state}"


def initial_inputs(session, calc: str) -> dict:
    return session.evaluate("(sel) => JSON.parse(document.querySelector(sel).dataset.initial)", root(calc))


def outputs(session, calc: str, frame: str | None = None) -> dict[str, tuple[str, str]]:
    """``{name: (data-value, visible text)}`` of the first widget of ``calc``."""
    return {k: tuple(v) for k, v in session.evaluate(
        """(sel) => Object.fromEntries(Array.from(document.querySelector(sel).querySelectorAll("output[data-output]"))
                   .map((o) => [o.dataset.output, [o.dataset.value, o.textContent.trim()]]))""",
        root(calc), frame=frame).items()}


def set_input(session, calc: str, name: str, value) -> None:
    """Set a number field or a select and fire the event a reader's edit fires."""
    session.evaluate(
        """(sel, name, value) => { const el = document.querySelector(sel).querySelector(
                `input[type=number][name="${name}"], select[name="${name}"]`);
            if (!el) throw new Error("no field " + name);
            el.value = String(value);
            el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input", {bubbles: true})); }""",
        root(calc), name, value)


def expected(calc: str, inputs: dict) -> dict[str, tuple[str, str]]:
    """What CPython computes for ``inputs``: ``{name: (raw, text)}``."""
    result = course_calculators.get(calc).run(inputs)
    return {name: (result.raw[name], result.text[name]) for name in result.raw}


def wait_outputs(session, calc: str, want: dict[str, tuple[str, str]], timeout: float = 60,
                 frame: str | None = None) -> None:
    """Until the widget shows exactly CPython's values (raw and text) and is ready."""
    try:
        session.wait_for(
            """(sel, want) => { const e = document.querySelector(sel);
                return e.dataset.state === "ready" && Object.entries(want).every(([k, [raw, text]]) => {
                  const o = e.querySelector(`output[data-output="${k}"]`);
                  return o && o.dataset.value === raw && o.textContent.trim() === text; }); }""",
            root(calc), {k: list(v) for k, v in want.items()}, timeout=timeout, frame=frame,
            what=f"{calc} shows CPython's outputs")
    except TimeoutError:
        shown = outputs(session, calc, frame=frame)
        diff = {k: (shown.get(k), v) for k, v in want.items() if shown.get(k) != v}
        raise AssertionError(f"{session.engine}: {calc} differs from CPython (shown, expected): {diff}") from None


def until(check, timeout: float = 30, what: str = "the condition"):
    """Call ``check()`` until it returns something truthy (for conditions that span documents)."""
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.1)
    return value
