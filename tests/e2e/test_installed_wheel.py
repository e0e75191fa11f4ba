"""The plugin as an author installs it: the project's wheel, non-editable, in a fresh virtual
environment, building another site (a copy of ``tests/example_site/``) with the npm packages
pinned as the "Write a calculator" page says, then that site in Chromium.

Everything the build needs must be inside the wheel (templates, the snapshot and esbuild scripts,
the browser runtime's sources), the site's own ``npm install`` brings esbuild beside Pyodide and
Chart.js, and the site gets only its own calculators: none of this chapter's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile

import pytest

from conftest import PageWatch
from e2e_helpers import output, settle, wait_ready
from serving import ROOT, StaticServer

pytestmark = pytest.mark.e2e

EXAMPLE = ROOT / "tests" / "example_site"
AUTHORS = ROOT / "docs" / "authors.md"


def npm_install_line() -> str:
    """The npm command the authors' page gives, pinned versions and all."""
    m = re.search(r"^(npm install [^\n#]*?)\s*(?:#.*)?$", AUTHORS.read_text(), re.M)
    assert m, "docs/authors.md gives no `npm install` line"
    return m.group(1)


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def installed_site(tmp_path_factory):
    work = tmp_path_factory.mktemp("installed")
    # The wheel, as `pip install .` would build it (not editable).
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(ROOT)])
    wheel = next((work / "dist").glob("course_calculators-*.whl"))
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    run([str(python), "-m", "pip", "install", "-q", str(wheel)])
    # The author's site, outside this repository, with its own pinned npm packages.
    site = work / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("__pycache__"))
    text = (site / "mkdocs.yml").read_text().replace("../../node_modules", "node_modules")
    (site / "mkdocs.yml").write_text(text)
    run(npm_install_line().split() + ["--prefer-offline", "--no-audit", "--no-fund"], cwd=site)
    out = work / "out"
    server = StaticServer(out)
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    build = run([str(env_dir / "bin" / "mkdocs"), "build", "--strict", "-d", str(out)], cwd=site,
                env={**clean, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": server.url,
                     "PATH": f"{env_dir / 'bin'}:{clean['PATH']}"})
    server.start()
    yield {"wheel": wheel, "python": python, "out": out, "url": server.url, "build": build}
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


def test_the_sites_esbuild_bundles_the_installed_runtime_as_this_repository_does(installed_site):
    """The author's own esbuild (the npm line of the authors' page) bundles the wheel's browser
    sources into the very bytes this repository's build serves."""
    from course_calculators.plugin import esbuild

    ours = esbuild.bundle(ROOT / "node_modules").files
    for name in ("runtime.js", "worker.js", "embed.js", "runtime.js.map"):
        assert (installed_site["out"] / "assets" / "calc" / name).read_bytes() == ours[name], name


def test_the_installed_plugin_is_not_this_repository(installed_site):
    where = run([str(installed_site["python"]), "-c", "import course_calculators; print(course_calculators.__file__)"],
                cwd=installed_site["out"].parent).stdout.strip()
    assert "site-packages" in where and not where.startswith(str(ROOT / "course_calculators"))


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
    sys.path.insert(0, str(EXAMPLE))
    try:
        from loan_calcs import loan
    finally:
        sys.path.remove(str(EXAMPLE))
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, installed_site["url"])
    try:
        page.goto(installed_site["url"] + "loans/")
        wait_ready(page, "loan")
        assert page.evaluate("() => window.calculatorsRuntime.bootMode") == "snapshot", page.evaluate("() => window.calculatorsRuntime.bootWhy")
        page.fill('#calc-loan input[type=number][name="rate"]', "5")
        settle(page, "loan")
        want = loan.SPEC.run({**loan.SPEC.preset("mortgage").values, "rate": "5"})
        assert output(page, "loan", "payment") == (want.raw["payment"], want.text["payment"])
    finally:
        context.close()
    assert watch.errors == [] and watch.external == []
