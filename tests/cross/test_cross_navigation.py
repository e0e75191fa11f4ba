"""Instant navigation (mkdocs-material swaps the page without a reload) in each engine: Python's
worker stays, the next page's widget turns ready, and the sidebar takes real pointer clicks
afterwards — on the whole width of its links (WebKit once hit only their text: theme/assets/chapter.css)."""

from __future__ import annotations

import secrets

import pytest

from widget_contract import wait_ready

pytestmark = pytest.mark.cross

SIDEBAR = "nav.md-nav--primary a.md-nav__link"


def mark_window(session) -> str:
    """A value in the window that only a full reload would lose."""
    token = secrets.token_hex(4)
    session.evaluate("(t) => { window.__notReloaded = t; }", token)
    return token


def follow(session, selector: str, path: str, token: str, at: float | None = None) -> None:
    session.click(selector, at=at)
    session.wait_for("(p) => location.pathname.endsWith(p)", path, timeout=30, what=f"at {path}")
    assert session.evaluate("() => window.__notReloaded") == token, \
        f"{session.engine}: the click on {selector} reloaded the page: no instant navigation"


def test_instant_navigation_keeps_the_worker(session, site):
    session.goto(site.url + "inference/kv-cache/")
    wait_ready(session, "kv-cache")
    boot = session.evaluate("() => window.calculatorsRuntime.bootMode")
    token = mark_window(session)
    follow(session, f'{SIDEBAR}[href$="paged-attention/"]', "/inference/paged-attention/", token)
    wait_ready(session, "paged-attention")
    # The footer's "next" link, the other way mkdocs-material navigates instantly.
    follow(session, "a.md-footer__link--next", "/inference/quantization/", token)
    wait_ready(session, "decode-roofline")
    # One boot for the window: the same worker served the three pages.
    assert session.evaluate("() => window.calculatorsRuntime.ready") is True
    assert session.evaluate("() => window.calculatorsRuntime.bootMode") == boot
    assert session.console_errors() == []


HITS = """(sel) => { const a = document.querySelector(sel), r = a.getBoundingClientRect();
  return [0.1, 0.3, 0.5, 0.7, 0.9].map((f) => { const x = r.left + f * r.width, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return [Math.round(f * 100), hit === a || a.contains(hit) ? "link" : hit ? hit.tagName.toLowerCase() + "." + hit.className : "nothing"]; }); }"""


def test_the_sidebar_takes_pointer_clicks_after_instant_navigation(session, site):
    """kv-cache → paged-attention by the sidebar, then the Sampling link, clicked far right of its
    text: a real pointer click (the engine's hit testing), not ``element.click()``."""
    session.goto(site.url + "inference/kv-cache/")
    wait_ready(session, "kv-cache")
    token = mark_window(session)
    follow(session, f'{SIDEBAR}[href$="paged-attention/"]', "/inference/paged-attention/", token)
    wait_ready(session, "paged-attention")
    sampling = f'{SIDEBAR}[href$="sampling/"]'
    # What the engine's hit testing finds along the link, for the message if the click fails.
    hits = session.evaluate(HITS, sampling)
    # 85 % of the way along, well past the word "Sampling", where WebKit used to find nothing; with
    # no scroll first (a scroll used to hide the bug).
    x, y = session.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return [r.left + 0.85 * r.width, r.top + r.height / 2]; }""", sampling)
    session.mouse_click(x, y)
    try:
        session.wait_for("() => location.pathname.endsWith('/inference/sampling/')", timeout=20)
    except TimeoutError:
        raise AssertionError(f"{session.engine}: a pointer click at 85 % of the Sampling link did nothing; "
                             f"elementFromPoint along it (% of its width, element): {hits}") from None
    assert session.evaluate("() => window.__notReloaded") == token, f"{session.engine}: the click reloaded the page"
    assert [f for f, hit in hits if hit != "link"] == [], f"{session.engine}: parts of the link miss: {hits}"
    wait_ready(session, "sampling")
    assert session.console_errors() == []
