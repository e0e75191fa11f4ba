"""Embeds: kv-cache in an iframe on a page served from another origin, through the embed script.

The host page is served by a second server (another port on 127.0.0.1: another origin); it loads
``assets/calc/embed.js`` from the site, as the snippet each widget offers says to.
"""

from __future__ import annotations

import json
from urllib.parse import urlparse

import pytest

import course_calculators
from serving import serve
from e2e_helpers import output, set_field, wait_ready

pytestmark = pytest.mark.e2e

KV_TOTAL_128K = 16 * 2**30  # llama3-8b defaults at 131072 tokens: 128 KiB per token
KV_TOTAL_4K = 4096 * 128 * 2**10

HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="icon" href="data:,"></head>
<body>
<h1>A page on another site</h1>
<div id="host-embed" data-calculator-embed="kv-cache" data-params="context=131072" data-theme="dark"></div>
<iframe id="foreign" src="foreign.html" title="foreign"></iframe>
<iframe id="plain" src="SITE/embed/sampling/" title="Sampling" style="width:100%;height:300px;border:0"></iframe>
<script>
  window.hostEvents = [];
  ["ready", "values", "resize"].forEach((type) => document.addEventListener("calculator:" + type, (e) => {
    window.hostEvents.push({type, target: e.target.id, detail: e.detail});
  }));
  window.marks = [];
  window.addEventListener("message", (e) => { if (e.data === "mark") window.marks.push(e.source === window ? "self" : "foreign"); });
</script>
<script src="SITE/assets/calc/embed.js" async></script>
</body></html>
"""

# A frame on the host page that is not the embed: whatever it posts, to the host or to the
# embed, must be ignored. It acts only when the host asks it to.
FOREIGN_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>f</title><link rel="icon" href="data:,"></head><body>
<script>
  window.addEventListener("message", (e) => {
    if (e.data !== "go") return;
    parent.postMessage({source: "calculators", type: "resize", height: 7}, "*");
    parent.postMessage({source: "calculators", type: "ready", id: "kv-cache", version: "x"}, "*");
    const embed = parent.document.querySelector("#host-embed iframe").contentWindow;
    embed.postMessage({source: "calculators", type: "set", inputs: {context: 1024}}, "*");
    parent.postMessage("mark", "*");
  });
</script></body></html>"""


@pytest.fixture
def host(tmp_path, base_url):
    (tmp_path / "index.html").write_text(HOST_PAGE.replace("SITE/", base_url))
    (tmp_path / "foreign.html").write_text(FOREIGN_PAGE)
    server, url = serve(tmp_path)
    yield url
    server.shutdown()


def watch(context, page, origins):
    """Requests outside the two origins, and console errors of the page and its frames."""
    seen = {"external": [], "errors": []}
    allowed = {urlparse(o).netloc for o in origins}
    context.on("request", lambda r: seen["external"].append(r.url)
               if urlparse(r.url).scheme in ("http", "https") and urlparse(r.url).netloc not in allowed else None)
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    return seen


def events(page, kind):
    return page.evaluate("(k) => window.hostEvents.filter((e) => e.type === k)", kind)


def wait_values(page, context_value):
    page.wait_for_function(
        "(c) => window.hostEvents.some((e) => e.type === 'values' && e.detail.inputs.context === c)",
        arg=context_value, timeout=30_000,
    )


def wait_sized(page, frame):
    """Wait until the iframe's height equals its content's (±2 px); return that height."""
    def content_height():
        return frame.evaluate("document.querySelector('[data-calc-embed-content]').getBoundingClientRect().height")

    for _ in range(50):  # the content settles within a few resize messages
        target = content_height()
        page.wait_for_function(
            "(h) => Math.abs(document.querySelector('#host-embed iframe').getBoundingClientRect().height - h) <= 2",
            arg=target, timeout=10_000,
        )
        if abs(content_height() - target) <= 2:
            return target
    raise AssertionError("the iframe never matched its content's height")


def test_kv_cache_embedded_on_another_origin(context, base_url, host):
    assert urlparse(host).netloc != urlparse(base_url).netloc
    page = context.new_page()
    seen = watch(context, page, [base_url, host])
    page.goto(host)
    page.wait_for_selector("#host-embed iframe")
    iframe = page.locator("#host-embed iframe")
    assert iframe.get_attribute("loading") == "lazy"
    assert iframe.get_attribute("title")
    src = iframe.get_attribute("src")
    assert src.startswith(base_url + "embed/kv-cache/?") and "context=131072" in src and "theme=dark" in src

    # Ready, with the URL's parameter applied, computed by Python inside the frame.
    page.wait_for_function("window.hostEvents.some((e) => e.type === 'ready')", timeout=60_000)
    frame = page.frame_locator("#host-embed iframe")
    inner = next(f for f in page.frames if f.url.startswith(base_url + "embed/kv-cache/"))
    wait_ready(inner, "kv-cache")
    assert output(inner, "kv-cache", "kv_bytes_total") == (str(KV_TOTAL_128K), "16 GiB")
    assert inner.input_value('.calc input[type=number][name="context"]') == "131072"
    ready = events(page, "ready")
    assert ready[0]["detail"]["id"] == "kv-cache" and ready[0]["target"] == "host-embed"
    wait_values(page, 131072)
    values = [e for e in events(page, "values") if e["detail"]["inputs"]["context"] == 131072][-1]["detail"]
    assert values["outputs"]["kv_bytes_total"] == str(KV_TOTAL_128K)  # as data-value
    assert values["text"]["kv_bytes_total"] == "16 GiB"

    # Dark theme from the host's data-theme, light as the browser's default scheme.
    assert inner.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    bg = inner.evaluate("getComputedStyle(document.body).backgroundColor")
    assert sum(int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]) < 3 * 90, bg

    # Sized to the content, and resized when the content grows.
    before = wait_sized(page, inner)
    frame.locator("details.calc__more > summary").click()
    page.wait_for_function(
        "(h) => document.querySelector('#host-embed iframe').getBoundingClientRect().height > h + 20",
        arg=before, timeout=10_000,
    )
    assert wait_sized(page, inner) > before + 20

    # An embed page framed without the script (the plain iframe) posts too, from the site's
    # origin: the script ignores it, as it is not one of its frames.
    plain = next(f for f in page.frames if f.url.startswith(base_url + "embed/sampling/"))
    # Chromium renders no frame of an off-screen iframe, and Python starts after the page's first
    # rendered frame: an embed starts when it is on screen.
    page.locator("#plain").scroll_into_view_if_needed()
    wait_ready(plain, "sampling")
    assert page.evaluate("document.getElementById('plain').getBoundingClientRect().height") == 300
    assert wait_sized(page, inner) > before + 20
    assert {e["detail"].get("id") for e in events(page, "ready") + events(page, "values")} == {"kv-cache"}
    # Without ?theme the embed follows prefers-color-scheme, live; with theme=dark it stays dark.
    scheme = "document.body.getAttribute('data-md-color-scheme')"
    assert plain.evaluate(scheme) == "default"
    page.locator("#plain").scroll_into_view_if_needed()  # Chromium holds an off-screen frame's media events
    page.emulate_media(color_scheme="dark")
    plain.wait_for_function(f"() => {scheme} === 'slate'", polling=100)
    page.emulate_media(color_scheme="light")
    plain.wait_for_function(f"() => {scheme} === 'default'", polling=100)
    assert inner.evaluate(scheme) == "slate"

    # Messages from a foreign frame, or from the host window itself, are ignored by both sides.
    page.evaluate("""() => {
        window.postMessage({source: "calculators", type: "resize", height: 3}, "*");
        window.postMessage("mark", "*");
        document.getElementById("foreign").contentWindow.postMessage("go", "*");
    }""")
    page.wait_for_function("window.marks.includes('self') && window.marks.includes('foreign')")
    assert page.evaluate("document.querySelector('#host-embed iframe').getBoundingClientRect().height") > 100
    assert len(events(page, "ready")) == 1
    # Wrong-shaped "set" messages from the host are ignored too; a valid one is applied.
    page.evaluate("""() => {
        const w = document.querySelector('#host-embed iframe').contentWindow;
        const site = new URL(document.querySelector('#host-embed iframe').src).origin;
        w.postMessage({type: "set", inputs: {context: 2048}}, site);                         // no source
        w.postMessage({source: "calculators", type: "set", inputs: {nope: 1}}, site);        // unknown name
        w.postMessage({source: "calculators", type: "set", inputs: {context: {v: 1}}}, site); // not a value
        w.postMessage({source: "calculators", type: "set", inputs: [2048]}, site);            // not an object
        document.getElementById('host-embed').calculatorEmbed.set({context: 4096});
    }""")
    wait_values(page, 4096)
    seen_contexts = {e["detail"]["inputs"]["context"] for e in events(page, "values")}
    assert seen_contexts == {131072, 4096}, seen_contexts
    assert output(inner, "kv-cache", "kv_bytes_total")[0] == str(KV_TOTAL_4K)
    # The iframe's own "Open in the chapter" link carries the inputs, with the chapter's keys.
    href = inner.get_attribute("a[data-chapter-link]", "href")
    assert "inference/kv-cache/" in href and "kv-cache.context=4096" in href

    assert seen["external"] == [], seen["external"]
    assert seen["errors"] == [], seen["errors"]
    page.close()


def test_every_calculator_has_an_embed_page_that_reaches_ready(page, base_url):
    for calc_id in course_calculators.CALCULATORS:
        page.goto(f"{base_url}embed/{calc_id}/?theme=light")
        wait_ready(page, calc_id)
        assert page.locator(f'.calc[data-calc="{calc_id}"][data-embed]').count() == 1
        assert page.locator(".md-header, .md-sidebar, .md-search").count() == 0  # minimal chrome
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "default"
    assert page.watch.external == [], page.watch.external
    assert page.watch.errors == [], page.watch.errors


def test_each_widget_offers_its_embed_snippet(page, base_url):
    page.goto(base_url + "inference/kv-cache/?kv-cache.context=131072")
    wait_ready(page, "kv-cache")
    root = '.calc[data-calc="kv-cache"]'
    page.click(f"{root} details.calc__embed > summary")
    snippet = page.text_content(f"{root} [data-embed-snippet]")
    assert snippet == (
        '<div data-calculator-embed="kv-cache" data-params="context=131072"></div>\n'
        f'<script src="{base_url}assets/calc/embed.js" async></script>'
    )
    set_field(page, "kv-cache", "concurrency", "4")
    page.wait_for_function(
        "(sel) => document.querySelector(sel).textContent.includes('concurrency=4')",
        arg=f"{root} [data-embed-snippet]", timeout=30_000,
    )
    assert json.loads(page.get_attribute(root, "data-defaults"))["context"] != 131072


def test_the_host_hears_when_the_embed_cannot_compute(context, base_url, tmp_path):
    """Python cannot start inside the embed: the host gets calculator:error; the numbers stay."""
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body>'
        '<div id="e" data-calculator-embed="kv-cache"></div><script>window.errors = [];'
        'document.addEventListener("calculator:error", (e) => window.errors.push(e.detail));</script>'
        f'<script src="{base_url}assets/calc/embed.js" async></script></body></html>')
    context.route("**/snapshot-*.bin.gz", lambda route: route.abort())
    context.route("**/course_calculators-*.whl", lambda route: route.abort())
    server, url = serve(tmp_path)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => window.errors.length > 0", timeout=60_000)
        detail = page.evaluate("window.errors[0]")
        assert detail["id"] == "kv-cache" and "Interactive mode is unavailable" in detail["message"]
        assert page.get_attribute("#e", "data-calculator-embed-state") == "error"
        frame = page.frame_locator("#e iframe")
        assert frame.locator('output[data-output="kv_bytes_per_token"]').text_content().strip() == "128 KiB"
    finally:
        server.shutdown()
