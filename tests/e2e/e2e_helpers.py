"""Helpers for end-to-end tests: they speak only the public widget contract (DOM and URL)."""

from __future__ import annotations


def wait_ready(page, calc: str | None = None, timeout: float = 60_000) -> None:
    selector = f'.calc[data-calc="{calc}"]' if calc else ".calc"
    page.wait_for_function(
        """(sel) => { const els = document.querySelectorAll(sel);
            return els.length > 0 && Array.from(els).every(e => e.dataset.state === 'ready'); }""",
        arg=selector, timeout=timeout,
    )


def output(page, calc: str, name: str) -> tuple[str, str]:
    """(data-value, visible text) of one output."""
    return tuple(page.eval_on_selector(
        f'.calc[data-calc="{calc}"] output[data-output="{name}"]', "e => [e.dataset.value, e.textContent.trim()]"
    ))


def set_field(page, calc: str, name: str, value: str) -> None:
    """Fill a number field (or choose an option) and fire the event a reader's edit fires."""
    sel = f'.calc[data-calc="{calc}"] [name="{name}"]:not([type=range])'
    tag = page.eval_on_selector(sel, "e => e.tagName")
    if tag == "SELECT":
        page.select_option(sel, value)
    else:
        page.fill(sel, value)


def settle(page, calc: str) -> None:
    """Wait until the widget has no run in flight and shows Python's answer for its inputs."""
    page.wait_for_function(
        """(sel) => { const e = document.querySelector(sel);
            const w = window.calculatorsRuntime && window.calculatorsRuntime.widgets.get(e.id);
            return e.dataset.state === 'ready' && w && !w.inflight && !w.dirty; }""",
        arg=f'.calc[data-calc="{calc}"]', timeout=30_000,
    )
