"""The plugin as an author installs it: the framework's wheel from a local package index (made by
``python -m build``, tests/installed.py), in a fresh virtual environment of the newest supported
Python with the newest allowed dependencies, building other sites with it, then those sites in
Chromium:

- a copy of ``tests/example_site/`` with the npm packages pinned as the "Write a calculator" page
  says: its own package beside ``mkdocs.yml``;
- the second book, ``examples/everyday-physics`` (a thrown ball, a kettle, a pendulum), its package
  installed from the index like the framework: only its pages and ``mkdocs.yml`` are copied, so
  nothing of this repository's tree is imported. Every calculator computes in the browser what
  CPython computes, in units the framework defines for any subject.

Everything the build needs must be inside the wheel (templates, the snapshot script, the browser
runtime bundled when the wheel was built), the site's own ``npm install`` brings only what the
reader's browser loads (Pyodide and Chart.js: no esbuild), and the site gets only its own
calculators: none of this chapter's.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest

import installed
from conftest import PageWatch
from e2e_helpers import output, set_field, settle, snapshot_start, wait_ready
from serving import ROOT, StaticServer

pytestmark = pytest.mark.e2e

EXAMPLE = ROOT / "tests" / "example_site"
PHYSICS = ROOT / "examples" / "everyday-physics"
AUTHORS = ROOT / "docs" / "authors.md"


def npm_install_line() -> str:
    """The npm command the authors' page gives, pinned versions and all."""
    m = re.search(r"^(npm install [^\n#]*?)\s*(?:#.*)?$", AUTHORS.read_text(), re.M)
    assert m, "docs/authors.md gives no `npm install` line"
    return m.group(1)


def build(env: installed.Environment, site, out, server: StaticServer):
    return installed.run([env.bin / "mkdocs", "build", "--strict", "-d", out], cwd=site,
                         env=env.env(SITE_URL=server.url))


@pytest.fixture(scope="module")
def env():
    return installed.newest()


@pytest.fixture(scope="module")
def installed_site(env, tmp_path_factory):
    work = tmp_path_factory.mktemp("installed")
    # The author's site, outside this repository, with its own pinned npm packages.
    site = work / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("__pycache__"))
    text = (site / "mkdocs.yml").read_text().replace("../../node_modules", "node_modules")
    (site / "mkdocs.yml").write_text(text)
    installed.run(npm_install_line().split() + ["--prefer-offline", "--no-audit", "--no-fund"], cwd=site)
    out = work / "out"
    server = StaticServer(out)
    result = build(env, site, out, server)
    server.start()
    yield {"wheel": installed.dists()["course-calculators"]["wheel"], "python": env.python, "out": out,
           "url": server.url, "build": result, "node_modules": site / "node_modules"}
    server.stop()


@pytest.fixture(scope="module")
def physics_site(env, installed_site, tmp_path_factory):
    work = tmp_path_factory.mktemp("physics")
    site = work / "everyday-physics"
    site.mkdir()
    shutil.copytree(PHYSICS / "docs", site / "docs")
    text = (PHYSICS / "mkdocs.yml").read_text().replace("../../node_modules", str(installed_site["node_modules"]))
    (site / "mkdocs.yml").write_text(text)
    out = work / "out"
    server = StaticServer(out)
    build(env, site, out, server)
    server.start()
    yield {"url": server.url, "out": out}
    server.stop()


def test_the_wheel_holds_what_the_build_needs(installed_site):
    names = set(zipfile.ZipFile(installed_site["wheel"]).namelist())
    for needed in ("course_calculators/plugin/snapshot.mjs", "course_calculators/plugin/esbuild.mjs",
                   "course_calculators/browser/runtime.js", "course_calculators/browser/package.json",
                   "course_calculators/plugin/templates/sw.js",
                   "course_calculators/plugin/templates/widget.html", "course_calculators/plugin/templates/embed.html",
                   "course_calculators/browser/calc.css"):
        assert needed in names, needed
    assert any(n.startswith("course_calculators/browser/") and n.endswith(".js") for n in names)


def test_the_wheels_bundled_runtime_is_what_this_repositorys_esbuild_makes(installed_site):
    """The site has no esbuild (the npm line of the authors' page): it serves the runtime the wheel
    carries, the very bytes this repository's build bundles."""
    from course_calculators.plugin import esbuild

    assert not (installed_site["node_modules"] / "esbuild").exists()
    ours = esbuild.bundle(ROOT / "node_modules").files
    for name in ("runtime.js", "worker.js", "embed.js", "runtime.js.map"):
        assert (installed_site["out"] / "assets" / "calc" / name).read_bytes() == ours[name], name


def test_the_installed_plugin_is_not_this_repository(env, installed_site):
    where = installed.run([env.python, "-c", "import course_calculators; print(course_calculators.__file__)"],
                          cwd=installed_site["out"].parent).stdout.strip()
    assert "site-packages" in where and not where.startswith(str(ROOT / "course_calculators"))
    assert env.installed_from_the_index("course-calculators")


def test_the_site_holds_only_its_own_calculators(installed_site):
    out = installed_site["out"]
    assert sorted(p.name for p in (out / "embed").iterdir() if p.is_dir()) == ["loan"]
    assert (out / "assets" / "pyodide").glob("snapshot-*.bin.gz"), "the snapshot was made from the installed wheel"
    wheel = next((out / "assets" / "pyodide").glob("*/course_calculators-*.whl"))
    tops = {n.split("/")[0] for n in zipfile.ZipFile(wheel).namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"course_calculators", "loan_calcs"}
    lock = json.loads((out / "assets" / "pyodide" / "pyodide-lock.json").read_text())
    assert list(lock["packages"]) == ["course-calculators"]


def test_the_installed_sites_calculator_runs_in_chromium(browser, installed_site):
    import sys

    sys.path.insert(0, str(EXAMPLE))
    try:
        from loan_calcs import loan
    finally:
        sys.path.remove(str(EXAMPLE))
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, installed_site["url"])
    try:
        mode, why = snapshot_start(page, installed_site["url"] + "loans/", "loan")
        assert mode == "snapshot", why
        page.fill('#calc-loan input[type=number][name="rate"]', "5")
        settle(page, "loan")
        want = loan.SPEC.run({**loan.SPEC.preset("mortgage").values, "rate": "5"})
        assert output(page, "loan", "payment") == (want.raw["payment"], want.text["payment"])
    finally:
        context.close()
    assert watch.errors == [] and watch.external == []


# -- the second book ------------------------------------------------------------------------------


def test_the_second_book_ships_its_installed_package_only(physics_site, env):
    assert env.installed_from_the_index("everyday-physics-course")
    out = physics_site["out"]
    assert sorted(p.name for p in (out / "embed").iterdir() if p.is_dir()) == ["kettle", "pendulum", "projectile"]
    wheel = next((out / "assets" / "pyodide").glob("*/course_calculators-*.whl"))
    tops = {n.split("/")[0] for n in zipfile.ZipFile(wheel).namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"course_calculators", "everyday_physics"}


#: Each page of the second book, its calculator, the inputs its fence starts from, and a reader's edit.
PHYSICS_PAGES = [
    ("projectile/", "projectile", {}, {"speed": "30", "angle": "35"}),
    ("kettle/", "kettle", {}, {"litres": "1.5", "price": "0.25"}),
    ("pendulum/", "pendulum", {"preset": "seconds-pendulum"}, {"length": "2", "amplitude": "60"}),
]


def test_every_calculator_of_the_second_book_computes_in_chromium(browser, physics_site):
    from everyday_physics import kettle, pendulum, projectile

    specs = {"projectile": projectile.SPEC, "kettle": kettle.SPEC, "pendulum": pendulum.SPEC}
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, physics_site["url"])
    try:
        for path, calc, fence, edit in PHYSICS_PAGES:
            spec = specs[calc]
            page.goto(physics_site["url"] + path)
            wait_ready(page, calc)
            assert page.locator(f'.calc-figure[data-figure="{calc}"]').count() >= 2, "inline figures in the prose"
            for name, value in edit.items():
                set_field(page, calc, name, value)
            settle(page, calc)
            start = dict(spec.preset(fence["preset"]).values) if "preset" in fence else {}
            want = spec.run({**start, **edit})
            for out in spec.outputs:
                assert output(page, calc, out.name) == (want.raw[out.name], want.text[out.name]), (calc, out.name)
            if calc == "projectile":
                assert page.locator('.calc[data-calc="projectile"] canvas, .calc[data-calc="projectile"] svg').count() >= 1
                # a preset, then the world shared with the pendulum: the Moon
                page.click('.calc[data-calc="projectile"] button[data-preset="moon-golf"]')
                settle(page, calc)
                want = spec.run(dict(spec.preset("moon-golf").values))
                assert output(page, calc, "range") == (want.raw["range"], want.text["range"])
                assert want.text["range"].endswith(" km")  # the SI prefix chosen by magnitude
    finally:
        context.close()
    assert watch.external == [], watch.external
    assert watch.errors == [], watch.errors
