"""The embed from another origin in each engine: a host page on a second server (another port,
so another origin) loads the site's embed.js, as each widget's snippet says; the element becomes
an iframe sized to its content, whose widget turns ready with CPython's numbers."""

from __future__ import annotations

import pytest

from widget_contract import expected, until, wait_outputs, wait_ready

pytestmark = pytest.mark.cross

HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another site</title><link rel="icon" href="data:,"></head>
<body>
<h1>A page on another site</h1>
<div data-calculator-embed="kv-cache"></div>
<script src="{site}assets/calc/embed.js" async></script>
</body></html>
"""
FRAME = "/embed/kv-cache/"


def test_the_embed_works_from_another_origin(session, site, serve_dir, tmp_path):
    (tmp_path / "index.html").write_text(HOST_PAGE.format(site=site.url))
    host = serve_dir(tmp_path)
    assert host.url != site.url
    session.goto(host.url)
    session.wait_for("(p) => { const f = document.querySelector('[data-calculator-embed] iframe');"
                     " return f && f.src.includes(p); }", FRAME, what="the embed's iframe")
    wait_ready(session, "kv-cache", frame=FRAME)
    wait_outputs(session, "kv-cache", expected("kv-cache", {}), frame=FRAME)
    session.wait_for("() => document.querySelector('[data-calculator-embed]').dataset.calculatorEmbedState === 'ready'",
                     what="the host told that the embed is ready")
    # Sized by the embed's resize messages: the iframe is as tall as its document (within a pixel
    # of rounding), not the 480-px placeholder.
    def sized():
        frame = session.evaluate(
            "() => document.querySelector('[data-calculator-embed] iframe').getBoundingClientRect().height")
        content = session.evaluate("() => document.documentElement.scrollHeight", frame=FRAME)
        return (frame, content) if frame != 480 and abs(frame - content) <= 1 else None
    until(sized, what=f"{session.engine}: the iframe sized to its content")
    assert session.console_errors() == []
    if session.engine == "webkit":  # WebKit's probe keeps one record per document
        assert session.console_errors(frame=FRAME) == []
