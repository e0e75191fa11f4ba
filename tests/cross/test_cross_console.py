"""The suite's "no console error" checks can fail: each engine's watch sees an error and an
uncaught exception (WebKit's through the probe, which runs before the page's own scripts)."""

from __future__ import annotations

import pytest

from widget_contract import until

pytestmark = pytest.mark.cross


def test_the_console_watch_sees_errors(session, site):
    session.goto(site.url + "inference/kv-cache/")
    if session.engine == "webkit":
        first = session.evaluate("() => document.head.querySelector('script').src")
        assert first.endswith("/__console_probe__.js"), f"the probe is not the page's first script: {first}"
    session.evaluate("""() => { console.error("seen: an error");
                                setTimeout(() => { throw new Error("seen: uncaught"); }, 0); }""")

    def both_reported():
        seen = session.console_errors()
        return seen if len(seen) >= 2 else None

    errors = until(both_reported, what=f"{session.engine}: the two errors reported")
    assert any("seen: an error" in e for e in errors), errors
    assert any("seen: uncaught" in e for e in errors), errors
