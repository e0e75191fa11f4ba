"""The built site under a sub-path, as GitHub Pages serves a project site (``https://user.github.io/repo/``).

The chapter is built with ``SITE_URL=http://127.0.0.1:<port>/repo/`` into ``<tmp>/root/repo/`` and
``<tmp>/root`` is served: any URL the site or its worker builds from the origin's root, instead of
relative to the page, lands outside ``/repo/`` and fails with a 404 here.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

import course_calculators
from conftest import PageWatch
from e2e_helpers import output, settle, wait_ready
from serving import StaticServer, build_site

pytestmark = pytest.mark.e2e

SUBPATH = "/repo/"


@pytest.fixture(scope="module")
def subpath_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("subpath") / "root"
    server = StaticServer(root)
    url = server.url.rstrip("/") + SUBPATH
    build_site(root / SUBPATH.strip("/"), url, check=True)
    server.start()
    yield url
    server.stop()


def test_the_chapter_works_under_a_subpath(browser, subpath_url):
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, subpath_url)
    responses: list[tuple[int, str]] = []
    page.on("response", lambda r: responses.append((r.status, r.url)))
    try:
        page.goto(subpath_url + "inference/kv-cache/")
        wait_ready(page, "kv-cache")

        # A preset recomputes in Python, in the browser, and matches CPython.
        spec = course_calculators.get("kv-cache")
        preset = spec.preset("llama3-8b-128k")
        page.click(f'.calc[data-calc="kv-cache"] button[data-preset="{preset.id}"]')
        settle(page, "kv-cache")
        expected = spec.run(dict(preset.values))
        for name in ("kv_bytes_total", "total_bytes"):
            assert output(page, "kv-cache", name) == (expected.raw[name], expected.text[name]), name

        # Instant navigation stays under /repo/ and keeps the same window and worker.
        page.evaluate("window.__marker = 1")
        page.click('nav.md-nav--primary a[href$="speculative-decoding/"]')
        # (navigation.tracking may add a #fragment as the page scrolls: compare the path alone)
        page.wait_for_function("p => location.pathname === p", arg=f"{SUBPATH}inference/speculative-decoding/")
        wait_ready(page, "speculative-decoding")
        assert page.evaluate("window.__marker") == 1, "the click reloaded the page: instant navigation is off"
        spec = course_calculators.get("speculative-decoding")
        preset = spec.presets[0]
        page.click(f'.calc[data-calc="{spec.id}"] button[data-preset="{preset.id}"]')
        settle(page, spec.id)
        expected = spec.run(dict(preset.values))
        assert output(page, spec.id, "speedup") == (expected.raw["speedup"], expected.text["speedup"])
    finally:
        context.close()

    paths = [urlparse(url).path for _, url in responses]
    assert not [(s, u) for s, u in responses if s >= 400], "failed requests under the sub-path"
    assert all(p.startswith(SUBPATH) for p in paths), [p for p in paths if not p.startswith(SUBPATH)]
    def loaded(folder: str, name: str) -> bool:
        return any(p.startswith(SUBPATH + folder) and p.endswith("/" + name) for p in paths)

    for name in ("runtime.js", "worker.js"):
        assert loaded("assets/calc/", name), f"{name} was not loaded"
    for name in ("pyodide.mjs", "pyodide-lock.json", "pyodide.asm.wasm"):
        assert loaded("assets/pyodide/", name), f"{name} was not loaded"
    # Python came either from the memory snapshot or from the wheel, both under the sub-path.
    assert any(p.endswith((".bin.gz", ".whl")) for p in paths), paths
    assert watch.external == [], watch.external
    assert watch.errors == [], watch.errors
