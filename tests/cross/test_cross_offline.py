"""Offline in each engine: once the reader has saved the offline copy (the service worker has
installed), the network goes away, and a reload still brings the page and its calculator,
computing; so does a page never opened online.

"Away" is the real thing: the site's server is stopped. Firefox also switches its own offline
mode (WebDriver BiDi's network emulation); WebKit's driver has none, so for it the stopped server
is the whole of it.
"""

from __future__ import annotations

import base64
import hashlib

import pytest

from widget_contract import expected, initial_inputs, set_input, wait_outputs, wait_ready

pytestmark = pytest.mark.cross

#: The integrity hash of an empty body, as browsers print it.
EMPTY_SHA384 = base64.b64encode(hashlib.sha384(b"").digest()).decode()


def test_after_a_first_visit_the_chapter_works_offline(session, site, serve_dir):
    server = serve_dir(site.directory)  # its own server: this test stops it
    session.goto(server.url + "inference/kv-cache/")
    wait_ready(session, "kv-cache")
    # Firefox and WebKit tell the page nothing of the connection (no navigator.connection), so
    # the offline copy waits for the reader to ask, with the footer's control; it is saved once
    # the service worker has precached the site.
    session.click("[data-calc-offline] button")
    session.wait_for("() => document.querySelector('[data-calc-offline]').dataset.state === 'saved'",
                     timeout=120, what="the offline copy saved")
    session.wait_for("() => navigator.serviceWorker.controller !== null", timeout=60,
                     what="the page controlled by the service worker")

    server.stop()
    emulated = session.set_offline(True)
    try:
        session.reload()
        wait_ready(session, "kv-cache")
        start = initial_inputs(session, "kv-cache")
        set_input(session, "kv-cache", "context", 131072)
        wait_outputs(session, "kv-cache", expected("kv-cache", {**start, "context": 131072}))
        # A page never opened online, with its own calculator and inputs from its URL.
        session.goto(server.url + "inference/unit-economics/?unit-economics.cache_hit=0.95")
        wait_ready(session, "unit-economics")
        start = initial_inputs(session, "unit-economics")
        wait_outputs(session, "unit-economics", expected("unit-economics", {**start, "cache_hit": 0.95}))
        if emulated:
            assert session.evaluate("() => navigator.onLine") is False
    finally:
        if emulated:
            session.set_offline(False)
    # The failed requests are the network's; an exception would be the site's.
    assert [e for e in session.console_errors() if "uncaught" in e.lower() and not cut_off(e)] == []


def cut_off(error: str) -> bool:
    """Whether Firefox reports a load that a reload or a navigation cut off: as an uncaught
    NS_BINDING_ABORTED, or, for a script with an integrity hash (Chart.js, which loads when a chart
    comes into view, in the background), as a mismatch whose computed hash is that of nothing.
    A wrong file would compute another hash: that is the site's, and still fails."""
    return "NS_BINDING_ABORTED" in error or (
        "integrity attribute" in error and f"computed hash is “{EMPTY_SHA384}”" in error)
