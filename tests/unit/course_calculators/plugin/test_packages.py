"""A site's own calculator packages: the registry API, the browser wheel, the build-time checks.

Covers ``course_calculators.register_package``, ``course_calculators/plugin/packages.py`` (the
plugin's ``packages`` option) and the extra packages in ``course_calculators/plugin/wheel.py``; the example site of
``tests/example_site/`` doubles as the fixture, and the "Write a calculator" page must show its
module as it is.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
import uuid
import zipfile
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

import course_calculators
from course_calculators import RegistryError
from course_calculators.plugin import packages, wheel

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "tests" / "example_site"

GOOD = '''\
from course_calculators.spec import Calculator, Number, Output


def compute(inputs):
    return {{"double": inputs["x"] * 2}}


SPEC = Calculator(id="{id}", title="Double", params=(Number("x", "X", 2, 0, 10),),
                  outputs=(Output("double", "Twice x", "count"),), compute=compute)
'''


def make_package(folder: Path, files: dict[str, str]) -> str:
    """A package with a fresh name (nothing cached in sys.modules) under ``folder``; its name."""
    name = f"calcs_{uuid.uuid4().hex[:8]}"
    pkg = folder / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Test calculators."""\n')
    for file, text in files.items():
        (pkg / file).write_text(text)
    return name


@pytest.fixture
def registry(monkeypatch, tmp_path):
    """A private copy of the registry, and ``tmp_path`` on sys.path; restored afterwards."""
    monkeypatch.setattr(course_calculators, "CALCULATORS", dict(course_calculators.CALCULATORS))
    monkeypatch.setattr(course_calculators, "PACKAGES", [])
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("calcs_")]:
        del sys.modules[name]


# -- the registry ----------------------------------------------------------------------------------


def test_register_package_adds_its_calculators_once(registry):
    name = make_package(registry, {"double.py": GOOD.format(id="double"), "_helpers.py": "X = 1\n"})
    assert course_calculators.register_package(name) == ["double"]
    assert course_calculators.register_package(name) == ["double"]  # again: a no-op
    assert course_calculators.PACKAGES == [name]
    assert course_calculators.get("double").module == f"{name}.double"
    assert json.loads(course_calculators.run_json("double", '{"x": "3"}'))["raw"]["double"] == "6"
    assert course_calculators.get("kv-cache")  # the site's other calculators stay


def test_a_package_may_list_its_modules(registry):
    name = make_package(registry, {"a.py": GOOD.format(id="calc-a"), "b.py": GOOD.format(id="calc-b")})
    (registry / name / "__init__.py").write_text('MODULES = ("b",)\n')
    assert course_calculators.register_package(name) == ["calc-b"]


@pytest.mark.parametrize(
    "files, words",
    [
        ({"bad.py": "def compute(:\n"}, ["bad.py:1", "syntax error"]),
        ({"bad.py": "import no_such_module_anywhere\n"}, ["bad.py: import failed", "no_such_module_anywhere"]),
        ({"bad.py": "1 / 0\n"}, ["bad.py: import failed", "ZeroDivisionError"]),
        ({"bad.py": "SPEC = None\n"}, ["bad.py defines no SPEC = Calculator(...)"]),
        ({"bad.py": GOOD.format(id="Not_Kebab")}, ["bad.py: invalid calculator spec", "kebab-case"]),
        ({"bad.py": GOOD.format(id="kv-cache")}, ["bad.py: calculator id 'kv-cache' is already defined in llm_inference/kv_cache.py"]),
        ({"a.py": GOOD.format(id="twin"), "bad.py": GOOD.format(id="twin")}, ["bad.py: calculator id 'twin' is already defined in", "/a.py"]),
        ({"_only_helpers.py": "X = 1\n"}, ["holds no calculator module"]),
    ],
    ids=["syntax", "import", "raises", "no-spec", "invalid-spec", "duplicate-builtin", "duplicate-inside", "empty"],
)
def test_a_broken_module_is_refused_naming_its_file(registry, files, words):
    name = make_package(registry, files)
    with pytest.raises(RegistryError) as info:
        course_calculators.register_package(name)
    for word in words:
        assert word in str(info.value), str(info.value)
    if "bad.py" in files:
        assert f"{name}/bad.py" in str(info.value)
    assert name not in course_calculators.PACKAGES and "twin" not in course_calculators.CALCULATORS  # all or nothing


@pytest.mark.parametrize("name, words", [("no_such_calcs", "not found on sys.path"), ("a/b", "not a path"),
                                         ("course_calculators", "not a path"), ("textwrap", "is a module")])
def test_a_bad_package_name_is_refused(registry, name, words):
    with pytest.raises(RegistryError, match=re.escape(words)):
        course_calculators.register_package(name)


# -- the build-time checks -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, words",
    [
        ("import numpy as np\n", ["bad.py:1", "'numpy'", "not in the standard library"]),
        ("import math\nfrom yaml import safe_load\n", ["bad.py:2", "'yaml'"]),
        ("from course_calculators.plugin import render\n", ["bad.py:1", "course_calculators.plugin"]),
        ("from course_calculators import plugin\n", ["bad.py:1", "course_calculators.plugin"]),
        ("import importlib\nimportlib.import_module('numpy')\n", ["bad.py:2", "'numpy'", "dynamically"]),
        ("__import__(name)\n", ["bad.py:1", "computed name"]),
        ("x = (\n", ["bad.py:1", "syntax error"]),
    ],
)
def test_check_sources_refuses_what_pyodide_could_not_run(tmp_path, source, words):
    pkg = tmp_path / "mine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import good\n")
    (pkg / "good.py").write_text("import json, math\nfrom course_calculators.spec import Calculator\nfrom mine import good\n")
    (pkg / "bad.py").write_text(source)
    with pytest.raises(PluginError) as info:
        packages.check_sources("mine", pkg)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert "good.py" not in str(info.value)


def test_load_resolves_names_beside_mkdocs_yml(registry):
    site = registry / "site"
    site.mkdir()
    name = make_package(site, {"double.py": GOOD.format(id="double")})
    assert packages.load([name], site) == [site / name]
    assert str(site) in sys.path and "double" in course_calculators.CALCULATORS
    with pytest.raises(PluginError, match="no package 'nowhere_calcs'"):
        packages.load(["nowhere_calcs"], site)


# -- the browser wheel -----------------------------------------------------------------------------


def test_the_wheel_ships_the_extra_packages_and_names_them(tmp_path):
    whl = wheel.build_wheel(tmp_path / "w", packages=[EXAMPLE / "loan_calcs"])
    with zipfile.ZipFile(whl) as z:
        names = set(z.namelist())
        assert {"loan_calcs/__init__.py", "loan_calcs/loan.py", "course_calculators/__init__.py"} <= names
        assert json.loads(z.read("course_calculators/_packages.json")) == ["loan_calcs"]
        top = next(n for n in names if n.endswith("top_level.txt"))
        assert z.read(top).decode().split() == ["course_calculators", "loan_calcs"]
        assert not [n for n in names if "/build/" in n or "/browser/" in n or "__pycache__" in n]
        assert not [n for n in names if n.startswith("calculators/")]  # only the listed packages
    # Without extra packages there is no _packages.json, and the source tree never holds one.
    with zipfile.ZipFile(wheel.build_wheel(tmp_path / "plain")) as z:
        assert "course_calculators/_packages.json" not in z.namelist()
    assert not (wheel.PACKAGE_DIR / course_calculators.PACKAGES_FILE).exists()


def test_the_digest_covers_the_extra_packages(tmp_path):
    pkg = tmp_path / "loan_calcs"
    shutil.copytree(EXAMPLE / "loan_calcs", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    plain, with_pkg = wheel.sources_digest(), wheel.sources_digest(packages=[pkg])
    assert plain != with_pkg
    (pkg / "loan.py").write_text((pkg / "loan.py").read_text() + "\n# edited\n")
    assert wheel.sources_digest(packages=[pkg]) != with_pkg


def test_the_unpacked_wheel_registers_its_packages_at_import(tmp_path):
    """What Pyodide does: import the framework from the wheel alone (isolated, not the source tree)."""
    whl = wheel.build_wheel(tmp_path / "w", packages=[EXAMPLE / "loan_calcs"])
    site_packages = tmp_path / "site-packages"
    zipfile.ZipFile(whl).extractall(site_packages)
    probe = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(site_packages)!r})
        import course_calculators
        assert course_calculators.__file__.startswith({str(site_packages)!r}), course_calculators.__file__
        out = json.loads(course_calculators.run_json("loan", '{{"principal": "100000", "rate": "5", "years": "30"}}'))
        print(json.dumps([course_calculators.PACKAGES, out["text"]["payment"]]))
    """)
    proc = subprocess.run([sys.executable, "-I", "-c", probe], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [["loan_calcs"], "$537"]


# -- the "Write a calculator" page -----------------------------------------------------------------


def test_the_authors_page_shows_the_example_module_verbatim():
    page = (ROOT / "docs" / "authors.md").read_text()
    blocks = re.findall(r"^```python title=\"loan_calcs/loan.py\"\n(.*?)^```$", page, re.S | re.M)
    assert len(blocks) == 1, "docs/authors.md shows loan_calcs/loan.py in one ```python title=... block"
    assert blocks[0] == (EXAMPLE / "loan_calcs" / "loan.py").read_text()


# -- under `mkdocs serve`: one broken module leaves the others working -------------------------------


@pytest.mark.parametrize("broken, words", [
    ("def compute(:\n", ["broken.py:1", "syntax"]),  # found by the source check: never imported
    ("import numpy\n", ["broken.py:1", "numpy"]),  # an import from outside the standard library
    ("raise RuntimeError('half written')\n", ["broken.py", "RuntimeError: half written"]),  # fails on import
    ("X = 1\n", ["broken.py", "defines no SPEC"]),
])
def test_serve_registers_the_working_modules_beside_a_broken_one(registry, broken, words):
    name = make_package(registry, {"double.py": GOOD.format(id="double-ok"), "broken.py": broken,
                                   "triple.py": GOOD.format(id="triple-ok")})
    reported = []
    folders = packages.load_live([name], registry, reported.append)
    assert folders == [registry / name]  # shipped: the browser leaves the broken module out too
    assert {"double-ok", "triple-ok"} <= set(course_calculators.CALCULATORS)
    assert course_calculators.PACKAGES == [name]
    assert len(reported) == 1
    for word in words:
        assert word in str(reported[0])
    course_calculators.unregister_all()
    with pytest.raises(PluginError):  # a build still stops at it
        packages.load([name], registry)


def test_serve_reports_a_broken_init_and_serves_the_other_packages(registry):
    bad = make_package(registry, {"double.py": GOOD.format(id="in-bad")})
    (registry / bad / "__init__.py").write_text("def (:\n")
    good = make_package(registry, {"double.py": GOOD.format(id="in-good")})
    reported = []
    assert packages.load_live([bad, good], registry, reported.append) == [registry / good]
    assert "in-good" in course_calculators.CALCULATORS and "in-bad" not in course_calculators.CALCULATORS
    assert len(reported) == 1 and "__init__.py:1" in str(reported[0])


def test_the_browser_registers_the_others_and_says_which_module_it_left_out(registry, capsys):
    name = make_package(registry, {"double.py": GOOD.format(id="shipped-ok"), "broken.py": "X = 1\n"})
    assert course_calculators.register_package(name, on_error=course_calculators._left_out) == ["shipped-ok"]
    err = capsys.readouterr().err
    assert "left out" in err and "broken.py" in err
    course_calculators.unregister_all()
    with pytest.raises(RegistryError, match="defines no SPEC"):  # without on_error: all or nothing
        course_calculators.register_package(name)
