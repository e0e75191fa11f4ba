"""The one interface every engine's page is driven through, so that a test is written once.

A :class:`Session` is one page in a fresh browser profile (empty cache, storage and service
workers). Scripts run in the page as *function expressions* with JSON arguments,
``session.evaluate("(sel) => document.querySelector(sel).id", ".calc")``: each engine evaluates them
through its automation protocol, which the pages' Content-Security-Policy does not govern.
Waiting is done here, by polling from Python, so that no engine has to evaluate a string in the
page while it polls (the policy has no ``'unsafe-eval'``).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod


class Session(ABC):
    engine: str = ""

    # -- what each engine provides ---------------------------------------------------------------

    @abstractmethod
    def goto(self, url: str, wait: str = "load") -> None:
        """Navigate and wait for the ``load`` event (``"domcontentloaded"`` for less)."""

    @abstractmethod
    def reload(self) -> None: ...

    @abstractmethod
    def evaluate(self, js: str, *args, frame: str | None = None):
        """Call the function expression ``js`` with ``args`` in the page (or in its iframe whose
        URL contains ``frame``); its JSON result, a returned promise awaited."""

    @abstractmethod
    def mouse_click(self, x: float, y: float) -> None:
        """A real pointer click at viewport coordinates: the engine's own input path and hit
        testing, unlike ``element.click()``."""

    @abstractmethod
    def set_offline(self, offline: bool) -> bool:
        """Switch the engine's own offline emulation; False where its driver has none."""

    @abstractmethod
    def console_errors(self) -> list[str]:
        """Console errors and uncaught exceptions of the page so far (its frames included where
        the engine reports them)."""

    @abstractmethod
    def close(self) -> None: ...

    # -- built on those --------------------------------------------------------------------------

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def url(self) -> str:
        return self.evaluate("() => location.href")

    def wait_for(self, js: str, *args, timeout: float = 60, frame: str | None = None,
                 interval: float = 0.1, what: str | None = None):
        """Poll ``js`` until it returns something truthy; that value. A page that is navigating
        may fail an evaluation: that counts as not yet."""
        deadline = time.monotonic() + timeout
        last_error = None
        while True:
            try:
                value = self.evaluate(js, *args, frame=frame)
                if value:
                    return value
            except Exception as exc:  # noqa: BLE001 — a document being replaced, a frame not there yet
                last_error = exc
            if time.monotonic() > deadline:
                detail = f" (last error: {last_error})" if last_error else ""
                raise TimeoutError(f"{self.engine}: not true within {timeout:.0f} s: {what or js}{detail}")
            time.sleep(interval)

    def click(self, selector: str, at: float | None = None) -> None:
        """Scroll ``selector`` into view and click it with the pointer: at its centre, or ``at``
        CSS pixels from its left edge, on its vertical middle."""
        x, y = self.evaluate(
            """(sel, at) => { const e = document.querySelector(sel);
                if (!e) throw new Error("no element " + sel);
                e.scrollIntoView({block: "nearest", inline: "nearest"});
                const r = e.getBoundingClientRect();
                return [r.left + (at === null ? r.width / 2 : at), r.top + r.height / 2]; }""",
            selector, at)
        self.mouse_click(x, y)
