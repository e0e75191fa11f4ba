"""The framework installs where authors are: the oldest supported Python with the lowest version
of every dependency its ranges allow, and (tests/packaging/test_init.py, and the e2e tests of the
installed wheel) the newest Python with the newest allowed versions; each from the local package
index, each building a small site. An older Python is refused by pip, naming this package.

The matrix builds skip the Pyodide snapshot (``snapshot: false``): it is made by Node.js from the
same files whatever the Python or mkdocs-material, and the newest environment's builds make it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import installed
from installed import ROOT, find_python, run

pytestmark = pytest.mark.packaging

#: The lowest version of each run-time dependency that pyproject.toml's ranges allow.
LOWEST = ("mkdocs==1.6.0", "mkdocs-material==9.5.0", "pymdown-extensions==10.2", "Jinja2==3.1.0", "Pygments==2.16.0")


def test_lowest_is_each_lower_bound_of_pyproject():
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    bounds = {d.split(">=")[0].lower(): d.split(">=")[1].split(",")[0] for d in deps}
    pinned = {p.split("==")[0].lower(): p.split("==")[1] for p in LOWEST}
    assert set(pinned) == set(bounds)
    for name, version in pinned.items():  # 1.6 and 1.6.0 are one version
        assert version.removesuffix(".0") == bounds[name].removesuffix(".0"), name


def build_init_site(env: installed.Environment, where, snapshot: bool) -> subprocess.CompletedProcess:
    run([env.python, "-m", "course_calculators", "init", where], env=env.env())
    (where / "node_modules").symlink_to(ROOT / "node_modules")  # package.json's pins are this repository's
    if not snapshot:
        yml = where / "mkdocs.yml"
        # the plugin's options only (the first packages: line; the Markdown extension's follows)
        yml.write_text(yml.read_text().replace("      packages:", "      snapshot: false\n      packages:", 1))
    return run([env.bin / "mkdocs", "build", "-d", where / "out"], cwd=where, env=env.env())


def test_the_oldest_python_with_the_lowest_dependencies_builds_a_site(tmp_path):
    python = find_python(installed.OLDEST_PYTHON)
    if python is None:
        pytest.skip(f"no Python {installed.OLDEST_PYTHON} here (pyenv install {installed.OLDEST_PYTHON})")
    env = installed.environment(str(python), f"course-calculators=={installed.version('course-calculators')}", *LOWEST)
    assert env.python_version == installed.OLDEST_PYTHON
    assert env.installed_from_the_index("course-calculators")
    for pin in LOWEST:
        name, want = pin.split("==")
        assert env.version_of(name) == want, pin
    site = tmp_path / "oldest"
    build_init_site(env, site, snapshot=False)
    page = (site / "out" / "first-calculator" / "index.html").read_text()
    assert 'data-calc="first-calculator"' in page and 'data-value="42">42<' in page
    tests = run([env.python, "-m", "unittest", "-q"], cwd=site, env=env.env())
    assert "Ran 2 tests" in tests.stderr


def test_an_older_python_is_refused_by_pip_naming_the_package(tmp_path):
    python = find_python("3.10")
    if python is None:
        pytest.skip("no Python 3.10 here to be refused")
    venv = tmp_path / "py310"
    run([python, "-m", "venv", "--without-pip", venv])
    wheel = installed.dists()["course-calculators"]["wheel"]
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                           "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True)
    assert proc.returncode != 0
    assert "course-calculators" in proc.stderr and "requires a different Python" in proc.stderr, proc.stderr
