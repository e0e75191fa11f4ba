"""The runtime across pages: instant navigation keeps Python; no page leaves the origin; palette."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from e2e_helpers import set_field, wait_ready

pytestmark = pytest.mark.e2e

PAGES = ["", "inference/two-phases/", "inference/kv-cache/", "inference/paged-attention/",
         "inference/quantization/", "inference/speculative-decoding/", "inference/sampling/",
         "inference/unit-economics/", "inference/summary/"]


def on_path(tail: str):
    """A wait_for_url predicate on the path alone: Material's navigation.tracking may add a
    heading's anchor to the address at any moment, and the widgets may add their keys."""
    return lambda url: urlsplit(url).path.endswith(tail)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_stays_on_its_origin_without_console_errors(page, base_url, path):
    page.goto(base_url + path)
    page.wait_for_load_state("networkidle")
    if page.locator(".calc").count():
        wait_ready(page)
    assert page.watch.external == [], page.watch.external
    assert page.watch.errors == [], page.watch.errors


def test_instant_navigation_keeps_the_worker(page, base_url):
    page.goto(base_url + "inference/two-phases/")
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    page.evaluate("window.__marker = 42")  # survives only if the page is not reloaded
    worker_count = len(page.context.pages[0].workers) if page.context.pages else 0
    page.click('nav.md-nav--primary a[href$="paged-attention/"]')
    page.wait_for_url(on_path("/paged-attention/"))
    page.click('nav.md-nav--primary a[href$="kv-cache/"]')
    page.wait_for_url(on_path("/kv-cache/"))
    # Ready again without a new boot: the same window (no reload) and the same single worker.
    wait_ready(page, "kv-cache", timeout=5_000)
    assert page.evaluate("window.__marker") == 42
    assert len(page.workers) == max(worker_count, 1)
    assert page.evaluate("window.calculatorsRuntime.ready") is True


def test_a_widget_never_writes_its_keys_onto_the_next_page(page, base_url):
    """A widget set away from its fence writes its keys to the address, throttled; a write still
    due after instant navigation must not land on the next page."""
    page.clock.install()  # the page's timers, on a clock the test moves (it runs as usual meanwhile)
    page.goto(base_url + "inference/quantization/")
    wait_ready(page, "decode-roofline")
    set_field(page, "decode-roofline", "batch", "8")
    set_field(page, "decode-roofline", "batch", "16")  # the second write waits for the throttle
    page.wait_for_function("() => location.search.includes('decode-roofline.batch=')")
    page.click('nav.md-nav--primary a[href$="speculative-decoding/"]')
    page.wait_for_url(on_path("/speculative-decoding/"))
    wait_ready(page, "speculative-decoding")
    page.clock.run_for(1000)  # the address bar's throttled write still due has fired
    assert "decode-roofline" not in urlsplit(page.url).query


def test_widgets_follow_the_palette_toggle(page, base_url):
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    bg_light = page.eval_on_selector(".calc", "e => getComputedStyle(e).backgroundColor")
    page.click("label.md-header__button[for^='__palette']:visible")
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    bg_dark = page.eval_on_selector(".calc", "e => getComputedStyle(e).backgroundColor")
    assert bg_light != bg_dark


#: Records, from the first byte of the page, each change of value of <html>'s class and of
#: <body>'s palette flag (a DOM write of the same value is no change to the browser's styles).
_WATCH_BUNDLE_CHANGES = """
window.__bundleChanges = [];
new MutationObserver((records) => {
  for (const r of records) {
    const now = r.target.getAttribute(r.attributeName);
    if (now !== r.oldValue) window.__bundleChanges.push(`${r.target.nodeName} ${r.attributeName} ${r.oldValue} -> ${now}`);
  }
}).observe(document, { attributes: true, attributeOldValue: true, subtree: true,
                       attributeFilter: ["class", "data-md-color-switching"] });
"""


def test_the_page_starts_with_the_classes_materials_bundle_sets_so_it_restyles_the_page_less(page, base_url):
    """Each change to <html>'s class or <body>'s palette flag restyles the whole page; set while
    the page is parsed, Material's bundle changes neither, but for the flag it removes once the
    palette is set. A Material release that sets other classes fails here."""
    page.add_init_script(_WATCH_BUNDLE_CHANGES)
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    changes = [c for c in page.evaluate("window.__bundleChanges") if c.startswith(("HTML", "BODY"))]
    assert changes == ["HTML class no-js -> js js-focus-visible",  # the inline script, in <head>
                       "BODY data-md-color-switching  -> null"]  # the palette, once its colours are set
    # The toggle still works: flagged while the colours change, unflagged after.
    page.click("label.md-header__button[for^='__palette']:visible")
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")


def test_an_exception_in_one_calculation_stays_in_that_widget(page, base_url):
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    # Ask the worker for a calculator that does not exist: Python raises, this widget shows it.
    page.evaluate("""() => { const w = [...window.calculatorsRuntime.widgets.values()][0];
                              w.calc = 'no-such-calc'; w.request(); }""")
    page.wait_for_selector('.calc[data-state="error"]')
    assert "unknown calculator id" in page.text_content(".calc [data-message]")
    # The worker keeps serving: the same widget recovers on its next run.
    page.evaluate("""() => { const w = [...window.calculatorsRuntime.widgets.values()][0];
                              w.calc = 'kv-cache'; w.request(); }""")
    wait_ready(page, "kv-cache")
    # The failure is logged once, with Python's words (a traceback for whoever debugs it); no other error.
    assert len(page.watch.errors) == 1 and "unknown calculator id 'no-such-calc'" in page.watch.errors[0]


def test_when_python_cannot_load_the_static_numbers_stay(page, base_url):
    page.context.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(base_url + "inference/kv-cache/")
    page.wait_for_selector('.calc[data-state="error"]', timeout=30_000)
    assert "Interactive mode is unavailable" in page.text_content(".calc [data-message]")
    value = page.eval_on_selector('.calc output[data-output="kv_bytes_per_token"]', "e => e.textContent")
    assert value == "128 KiB"
    assert not [e for e in page.watch.errors if "Uncaught" in e]


def test_search_works_with_its_worker_started_late(page, base_url):
    """Material's search worker waits (search-deferred.js) until the reader first focuses the
    search box: it then answers well before its 30 s fallback."""
    page.goto(base_url + "inference/kv-cache/")
    config = page.text_content("#__config")
    assert "search-deferred.js?worker=" in config
    page.click("input.md-search__input")  # the header's search box (desktop width)
    page.keyboard.type("PagedAttention")
    page.wait_for_selector(".md-search-result__item", timeout=15_000)
    assert page.locator(".md-search-result__item").count() > 0
    assert page.watch.errors == []


def test_show_the_python_loads_the_module_source_on_demand(page, base_url):
    """The highlighted source is a file of its own, fetched when the reader opens it."""
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    assert page.locator('.calc[data-calc="kv-cache"] .calc__code .highlight').count() == 0
    page.click('.calc[data-calc="kv-cache"] details.calc__source > summary')
    page.wait_for_selector('.calc[data-calc="kv-cache"] .calc__code .highlight')
    code = page.text_content('.calc[data-calc="kv-cache"] .calc__code')
    assert "def compute" in code and "SPEC = Calculator(" in code
    assert page.watch.errors == []
