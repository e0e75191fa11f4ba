"""The runtime across pages: instant navigation keeps Python; no page leaves the origin; palette."""

from __future__ import annotations

import pytest

from e2e_helpers import wait_ready

pytestmark = pytest.mark.e2e

PAGES = ["", "inference/two-phases/", "inference/kv-cache/", "inference/paged-attention/",
         "inference/quantization/", "inference/speculative-decoding/", "inference/sampling/",
         "inference/unit-economics/", "inference/summary/"]


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
    page.wait_for_url("**/paged-attention/")
    page.click('nav.md-nav--primary a[href$="kv-cache/"]')
    page.wait_for_url("**/kv-cache/")
    # Ready again without a new boot: the same window (no reload) and the same single worker.
    wait_ready(page, "kv-cache", timeout=5_000)
    assert page.evaluate("window.__marker") == 42
    assert len(page.workers) == max(worker_count, 1)
    assert page.evaluate("window.calculatorsRuntime.ready") is True


def test_widgets_follow_the_palette_toggle(page, base_url):
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    bg_light = page.eval_on_selector(".calc", "e => getComputedStyle(e).backgroundColor")
    page.click("label.md-header__button[for^='__palette']:visible")
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    bg_dark = page.eval_on_selector(".calc", "e => getComputedStyle(e).backgroundColor")
    assert bg_light != bg_dark
