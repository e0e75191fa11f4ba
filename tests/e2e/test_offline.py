"""Offline reading: after one visit the site, calculators included, works with the network cut."""

from __future__ import annotations

import shutil

import pytest

from course_calculators.plugin import offline
from serving import serve
from e2e_helpers import connection, output, set_field, settle, wait_ready

pytestmark = pytest.mark.e2e

CACHES = """async () => (await caches.keys()).filter((k) => k.startsWith('calculators-site-'))"""
SW_READY = """async () => { const r = await navigator.serviceWorker.ready; return r.active.scriptURL; }"""


#: A fast, unmetered connection: the page makes its offline copy by itself once Python is ready.
FAST = connection(saveData=False, effectiveType="4g")


def visit_and_install(page, url: str) -> None:
    page.add_init_script(FAST)
    page.goto(url)
    wait_ready(page, "kv-cache")
    page.evaluate(SW_READY)  # active only once every page and asset is precached
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)


def test_after_a_first_visit_the_chapter_computes_offline(page, base_url):
    visit_and_install(page, base_url + "inference/kv-cache/")
    page.context.set_offline(True)
    try:
        page.reload()
        wait_ready(page, "kv-cache")
        set_field(page, "kv-cache", "context", "131072")
        settle(page, "kv-cache")
        assert output(page, "kv-cache", "kv_bytes_total")[1] == "16 GiB"
        # Another page, never opened online, with its own calculator.
        page.goto(base_url + "inference/unit-economics/?unit-economics.cache_hit=0.95")
        wait_ready(page, "unit-economics")
        assert float(page.input_value('.calc[data-calc="unit-economics"] input[type=number][name="cache_hit"]')) == 0.95
    finally:
        page.context.set_offline(False)
    assert not [e for e in page.watch.errors if "Uncaught" in e]


def test_a_new_deployment_replaces_the_old_cache_whole(browser, tmp_path, site_dir):
    """Version 2 of the site installs over version 1: one cache remains, and offline pages are v2."""
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    server, url = serve(copy)
    context = browser.new_context()
    try:
        page = context.new_page()
        visit_and_install(page, url + "inference/kv-cache/")
        first = page.evaluate(CACHES)
        assert len(first) == 1
        # Deploy version 2: a page changes, so does the service worker's version.
        index = copy / "inference" / "kv-cache" / "index.html"
        index.write_text(index.read_text().replace("</h1>", " (v2)</h1>", 1))
        offline.write_service_worker(copy)
        page.reload()
        page.wait_for_function(
            "async (old) => { const keys = (await caches.keys()).filter((k) => k.startsWith('calculators-site-'));"
            " return keys.length === 1 && keys[0] !== old; }",
            arg=first[0], timeout=60_000, polling=250,
        )
        context.set_offline(True)
        page.reload()
        assert "(v2)" in page.text_content("h1")
        wait_ready(page, "kv-cache")
    finally:
        context.close()
        server.shutdown()
