"""The second book on each build tool (``tests/build_tools.py``): MkDocs 1.6.1 and ProperDocs with
the plugin, Zensical with the Markdown extension and ``python -m course_calculators finish``. Each
build is served and read in Chromium: every widget boots (from the snapshot), computes a reader's
edit as CPython does, its figures follow, and no request leaves the site."""

from __future__ import annotations

import re

import pytest

import build_tools
from conftest import PageWatch
from e2e_helpers import output, set_field, settle, snapshot_start
from serving import ROOT, StaticServer

pytestmark = pytest.mark.e2e

PHYSICS = ROOT / "examples" / "everyday-physics"
PAGES = [("projectile/", "projectile", {"speed": "30", "angle": "35"}),
         ("kettle/", "kettle", {"litres": "1.5", "price": "0.25"}),
         ("pendulum/", "pendulum", {"length": "2", "amplitude": "60"})]


@pytest.fixture(scope="module", params=build_tools.TOOLS)
def built(request, tmp_path_factory):
    work = tmp_path_factory.mktemp(request.param)
    site = build_tools.copy_book(PHYSICS, work / "book", ["everyday_physics"])
    out = work / "out"
    server = StaticServer(out)
    build_tools.build(request.param, site, out, SITE_URL=server.url)
    server.start()
    yield request.param, out, server.url
    server.stop()


def test_every_tool_writes_the_same_runtime(built):
    tool, out, _ = built
    kettle = (out / "kettle" / "index.html").read_text()
    assert 'name="calculators-runtime"' in kettle and "Content-Security-Policy" in kettle, tool
    assert kettle.count('class="calc-figure"') >= 3 and "{calc " not in re.sub(r"<code>.*?</code>", "", kettle, flags=re.S)
    assert sorted(p.name for p in (out / "embed").iterdir() if p.is_dir()) == ["kettle", "pendulum", "projectile"]
    assert list((out / "assets" / "pyodide").glob("snapshot-*")), tool
    assert (out / "sw.js").is_file()


def test_every_calculator_computes_in_chromium(browser, built):
    from everyday_physics import kettle, pendulum, projectile

    specs = {"projectile": projectile.SPEC, "kettle": kettle.SPEC, "pendulum": pendulum.SPEC}
    tool, _, url = built
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, url)
    try:
        for path, calc_id, edit in PAGES:
            mode, why = snapshot_start(page, url + path, calc_id)
            assert mode == "snapshot", f"{tool}: {why}"
            initial = page.eval_on_selector(f'.calc[data-calc="{calc_id}"]', "e => JSON.parse(e.dataset.initial)")
            for name, value in edit.items():
                set_field(page, calc_id, name, value)
            settle(page, calc_id)
            want = specs[calc_id].run({**initial, **edit})
            for name in list(want.raw)[:3]:
                assert output(page, calc_id, name) == (want.raw[name], want.text[name]), f"{tool} {calc_id}.{name}"
    finally:
        context.close()
    assert watch.errors == [] and watch.external == [], tool
