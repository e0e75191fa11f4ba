"""``python -m course_calculators new``: a calculator that builds, passes its own test and is in the nav."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course_calculators.plugin import scaffold

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "tests" / "example_site"


@pytest.fixture
def site(tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    text = (copy / "mkdocs.yml").read_text().replace("../../node_modules", str(ROOT / "node_modules"))
    (copy / "mkdocs.yml").write_text(text.replace("      packages:", "      snapshot: false\n      packages:"))
    return copy


def test_the_scaffold_builds_passes_its_test_and_is_in_the_nav(site):
    proc = subprocess.run([sys.executable, "-m", "course_calculators", "new", "loan-ratio", "--package", "loan_calcs",
                           "--title", "Loan-to-value ratio"], cwd=site, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (site / "loan_calcs" / "loan_ratio.py").exists() and (site / "docs" / "loan-ratio.md").exists()
    assert '- "Loan-to-value ratio": loan-ratio.md' in (site / "mkdocs.yml").read_text()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site / "out")],
                           cwd=site, capture_output=True, text=True, env=env)
    assert build.returncode == 0, build.stderr
    assert (site / "out" / "embed" / "loan-ratio" / "index.html").exists()
    assert 'data-calc="loan-ratio"' in (site / "out" / "loan-ratio" / "index.html").read_text()
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=site,
                           capture_output=True, text=True, env=env)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout or "4 passed" in tests.stdout


def test_a_package_that_lists_its_modules_gets_the_new_one(tmp_path):
    pkg = tmp_path / "mine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Mine."""\n\nMODULES = (\n    "first",\n)\n')
    made = scaffold.create(tmp_path, "second-calc", "mine", "Second")
    assert made.registered and not made.in_nav
    assert (pkg / "__init__.py").read_text() == '"""Mine."""\n\nMODULES = (\n    "first",\n    "second_calc",\n)\n'


def test_nothing_is_overwritten(tmp_path):
    scaffold.create(tmp_path, "once", "mine", "Once")
    before = (tmp_path / "mine" / "once.py").read_text()
    with pytest.raises(scaffold.ScaffoldError, match="already there"):
        scaffold.create(tmp_path, "once", "mine", "Once")
    assert (tmp_path / "mine" / "once.py").read_text() == before


@pytest.mark.parametrize("calc_id, package", [("Not_Kebab", "mine"), ("ok-id", "not a name")])
def test_bad_names_are_refused(tmp_path, calc_id, package):
    with pytest.raises(scaffold.ScaffoldError):
        scaffold.create(tmp_path, calc_id, package, "T")


def test_a_page_with_a_calculator_missing_from_nav_fails_the_strict_build(site):
    (site / "docs" / "hidden.md").write_text("# Hidden\n\n```calculator loan\n```\n")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site / "out")], cwd=site,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode != 0
    assert "hidden.md holds a calculator but is not in the nav" in proc.stderr
