"""``python -m course_calculators init|new``: what they write, what they refuse. (That an ``init``
site builds and serves as it is: tests/packaging/test_init.py.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from course_calculators import cli

ROOT = Path(__file__).resolve().parents[3]


def run_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "course_calculators", *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_init_writes_a_whole_site(tmp_path):
    proc = run_cli("init", "physics-course", "--title", "Physics, by example", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "physics-course"
    for name in ("mkdocs.yml", "README.md", "package.json", ".gitignore", "docs/index.md", "docs/first-calculator.md",
                 "physics_course_calcs/__init__.py", "physics_course_calcs/first_calculator.py",
                 "tests/__init__.py", "tests/test_first_calculator.py"):
        assert (site / name).is_file(), name
    yml = (site / "mkdocs.yml").read_text()
    assert "packages: [physics_course_calcs]" in yml and '- "First calculator": first-calculator.md' in yml
    assert 'site_name: "Physics, by example"' in yml
    assert json.loads((site / "package.json").read_text())["dependencies"] == cli.FRONTEND
    readme = (site / "README.md").read_text()
    assert "mkdocs serve" in readme and "mkdocs build" in readme and "python -m unittest" in readme
    assert '"first_calculator",' in (site / "physics_course_calcs/__init__.py").read_text()
    # its test needs only the standard library
    tests = subprocess.run([sys.executable, "-I", "-m", "unittest", "-q"], cwd=site, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert tests.returncode == 0 and "Ran 2 tests" in tests.stderr, tests.stderr


def test_init_in_the_current_folder_names_the_package_after_it(tmp_path):
    folder = tmp_path / "2025 Finance!"
    folder.mkdir()
    assert run_cli("init", cwd=folder).returncode == 0
    assert (folder / "site_2025_finance_calcs" / "first_calculator.py").exists()


def test_init_overwrites_nothing(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: mine\n")
    proc = run_cli("init", cwd=tmp_path)
    assert proc.returncode == 2 and "already holds mkdocs.yml: nothing written" in proc.stderr
    assert (tmp_path / "mkdocs.yml").read_text() == "site_name: mine\n" and not (tmp_path / "docs").exists()


def test_new_refuses_clearly_without_a_site(tmp_path):
    proc = run_cli("new", "loan-ratio", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("course-calculators: no mkdocs.yml in ")
    assert "python -m course_calculators init" in proc.stderr
    assert not list(tmp_path.iterdir())


def test_new_adds_to_the_package_the_site_lists(tmp_path):
    assert run_cli("init", "site", cwd=tmp_path).returncode == 0
    site = tmp_path / "site"
    proc = run_cli("new", "loan-ratio", "--title", "Loan-to-value ratio", cwd=site)
    assert proc.returncode == 0, proc.stderr
    assert (site / "site_calcs" / "loan_ratio.py").exists() and (site / "tests" / "test_loan_ratio.py").exists()
    assert '- "Loan-to-value ratio": loan-ratio.md' in (site / "mkdocs.yml").read_text()
    assert re.search(r'"first_calculator",\n    "loan_ratio",', (site / "site_calcs/__init__.py").read_text())
    again = run_cli("new", "loan-ratio", cwd=site)
    assert again.returncode == 2 and "already there, nothing written" in again.stderr


def test_new_asks_which_package_when_the_site_lists_several(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("plugins:\n  - calculators:\n      packages:\n        - a_calcs\n        - b_calcs\n")
    assert cli.site_packages(tmp_path / "mkdocs.yml") == ["a_calcs", "b_calcs"]
    proc = run_cli("new", "x", cwd=tmp_path)
    assert proc.returncode == 2 and "lists 2 calculator packages (a_calcs, b_calcs): say which with --package" in proc.stderr


def test_a_package_that_lists_its_modules_gets_the_new_one(tmp_path):
    pkg = tmp_path / "mine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Mine."""\n\nMODULES = (\n    "first",\n)\n')
    made = cli.create(tmp_path, "second-calc", "mine", "Second")
    assert made.registered and not made.in_nav
    assert (pkg / "__init__.py").read_text() == '"""Mine."""\n\nMODULES = (\n    "first",\n    "second_calc",\n)\n'


@pytest.mark.parametrize("calc_id, package", [("Not_Kebab", "mine"), ("ok-id", "not a name")])
def test_bad_names_are_refused(tmp_path, calc_id, package):
    with pytest.raises(cli.ScaffoldError):
        cli.create(tmp_path, calc_id, package, "T")


def test_the_front_end_pins_are_this_repositorys():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]
    assert {k: pinned[k] for k in cli.FRONTEND} == cli.FRONTEND
    guide = (ROOT / "docs" / "authors.md").read_text()
    assert "npm install --save-exact " + " ".join(f"{k}@{v}" for k, v in cli.FRONTEND.items()) in guide


def test_init_turns_the_snapshot_cache_on_and_ignores_it(tmp_path):
    # Without cache_dir every build boots Pyodide in Node again (10-20 s); with it, about a second.
    cli.init(tmp_path / "course")
    yml = (tmp_path / "course" / "mkdocs.yml").read_text()
    assert f"      cache_dir: {cli.CACHE_DIR}\n" in yml
    assert cli.CACHE_DIR.split("/")[0] + "/" in (tmp_path / "course" / ".gitignore").read_text().split()


def test_init_links_the_authors_guide_and_gives_an_install_line_that_works(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "pip_install_line", lambda: "pip install '/src/course-calculators'")
    cli.init(tmp_path / "course")
    readme = (tmp_path / "course" / "README.md").read_text()
    index = (tmp_path / "course" / "docs" / "index.md").read_text()
    assert cli.GUIDE_URL in readme and cli.GUIDE_URL in index
    assert "pip install '/src/course-calculators'\n" in readme
    assert "esbuild" not in (tmp_path / "course" / "package.json").read_text()  # the wheel carries the runtime


@pytest.mark.parametrize("direct_url, line", [
    ({"url": "file:///home/me/course-calculators", "dir_info": {"editable": True}},
     "pip install '/home/me/course-calculators'"),
    ({"url": "file:///tmp/dist/course_calculators-0.3.0-py3-none-any.whl", "archive_info": {}},
     "pip install '/tmp/dist/course_calculators-0.3.0-py3-none-any.whl'"),
    ({"url": "https://example.org/cc.whl", "archive_info": {}}, "pip install 'course-calculators @ https://example.org/cc.whl'"),
    (None, f'pip install "course-calculators>={cli.__version__}"'),  # from a package index
])
def test_the_install_line_is_the_one_this_framework_came_from(monkeypatch, direct_url, line):
    import importlib.metadata

    class Dist:
        def read_text(self, name):
            assert name == "direct_url.json"
            return json.dumps(direct_url) if direct_url else None

    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: Dist())
    assert cli.pip_install_line().startswith(line)
