"""Several widgets of one calculator on a page, each with its own URL keys (a fence's
``instance:`` line), and the iframe snippet for hosts that strip scripts, on a host page whose
policy forbids every script (``script-src 'none'``), in Chromium.

The example site (``tests/example_site/``) has two ``loan`` widgets on its Loans page, the second
``instance: short``; the chapter's embeds are checked against their snippets' heights too.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from serving import StaticServer

pytestmark = pytest.mark.e2e

#: The embed page's own height: the bottom of its content (the document is at least as tall as
#: its viewport, so its scrollHeight would say nothing inside a taller iframe).
CONTENT_HEIGHT = """() => Math.ceil(document.querySelector('[data-calc-embed-content]').getBoundingClientRect().bottom
    + window.scrollY + parseFloat(getComputedStyle(document.querySelector('[data-calc-embed-content]')).marginBottom))"""
#: Whether the embed page scrolls inside its iframe.
SCROLLS = "() => document.documentElement.scrollHeight > document.documentElement.clientHeight"
HOST_POLICY = "default-src 'self'; script-src 'none'; frame-src *; style-src 'unsafe-inline'"


@pytest.fixture(scope="module")
def example(example_site):
    return example_site


def wait_widget(page, dom_id: str) -> None:
    page.wait_for_function("(id) => document.getElementById(id)?.dataset.state === 'ready'", arg=dom_id,
                           timeout=120_000)


def test_each_instance_has_its_own_url_keys_and_the_default_keeps_todays(browser, example):
    _, url = example
    page = browser.new_page()
    try:
        page.goto(url + "loans/?loan.years=20&loan~short.years=10")
        assert page.locator("#calc-loan--short[data-instance=short]").count() == 1
        wait_widget(page, "calc-loan")
        wait_widget(page, "calc-loan--short")
        assert page.input_value('#calc-loan input[type=number][name="years"]') == "20"
        assert page.input_value('#calc-loan--short input[type=number][name="years"]') == "10"
        # Each widget writes its own keys; the other's stay as they were.
        page.fill('#calc-loan--short input[type=number][name="rate"]', "4")
        page.dispatch_event('#calc-loan--short input[type=number][name="rate"]', "input")
        page.wait_for_function("() => new URLSearchParams(location.search).get('loan~short.rate') === '4'",
                               timeout=30_000)
        query = parse_qs(urlparse(page.url).query)
        assert query["loan.years"] == ["20"] and query["loan~short.years"] == ["10"] and "loan.rate" not in query
    finally:
        page.close()


def iframe_snippet(page, dom_id: str) -> str:
    page.locator(f"#{dom_id} details.calc__embed summary").click()
    return page.locator(f"#{dom_id} [data-embed-iframe]").text_content()


def test_the_iframe_snippet_works_on_a_host_that_forbids_scripts(browser, example, tmp_path):
    _, url = example
    page = browser.new_page()
    try:
        page.goto(url + "loans/")
        wait_widget(page, "calc-loan--short")
        snippet = iframe_snippet(page, "calc-loan--short")
    finally:
        page.close()
    # A plain iframe: no script, the fence's inputs as the embed page's plain keys, a build-time height.
    assert "<script" not in snippet and snippet.startswith("<iframe ") and snippet.endswith("></iframe>")
    src = re.search(r'src="([^"]+)"', snippet)[1]
    assert src.startswith(url + "embed/loan/") and parse_qs(urlparse(src).query)["years"] == ["15"]
    height = int(re.search(r'height="(\d+)"', snippet)[1])

    host_dir = tmp_path / "host"
    host_dir.mkdir()
    (host_dir / "index.html").write_text(
        f'<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="{HOST_POLICY}">'
        '<title>A course platform</title></head><body style="margin:0"><main style="max-width:720px">'
        f'<script>document.title = "scripts ran"</script>{snippet}</main></body></html>')
    host = StaticServer(host_dir).start()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(host.url)
        assert page.title() == "A course platform"  # the host's own script was refused
        frame = page.frame_locator("iframe")
        frame.locator('.calc[data-calc="loan"][data-state="ready"]').wait_for(timeout=120_000)
        assert frame.locator('input[type=number][name="years"]').input_value() == "15"
        inner = page.frames[1].evaluate(CONTENT_HEIGHT)
        assert not page.frames[1].evaluate(SCROLLS), "the embed page scrolls inside its iframe"
        box = page.locator("iframe").bounding_box()
        assert box["height"] == height and box["width"] == 720
        print(f"\niframe: content {inner} px in a {height} px iframe")
        assert inner <= height, f"the embed page ({inner} px) does not fit its snippet's {height} px"
        assert height <= 1.6 * inner, f"the snippet's {height} px leaves a large blank under {inner} px"
    finally:
        page.close()
        host.stop()


def test_every_embed_of_the_chapter_fits_its_snippet(browser, base_url, site_dir):
    """The build's height for every calculator of this book: its embed page at 720 px fits in it."""
    heights = {}
    for html in Path(site_dir).rglob("index.html"):
        for h, calc in re.findall(r'data-embed-iframe data-height="(\d+)"[^>]*>&lt;iframe src="https://this-site/embed/([a-z0-9-]+)/"',
                                  html.read_text(encoding="utf-8")):
            heights.setdefault(calc, int(h))
    assert heights
    page = browser.new_page(viewport={"width": 720, "height": 300})
    try:
        for calc, height in sorted(heights.items()):
            page.goto(f"{base_url}embed/{calc}/")
            page.wait_for_function("() => document.querySelector('.calc')?.dataset.state === 'ready'", timeout=120_000)
            inner = page.evaluate(CONTENT_HEIGHT)
            print(f"{calc}: content {inner} px, snippet {height} px")
            assert inner <= height <= 1.6 * inner, (calc, inner, height)
    finally:
        page.close()
