"""A site's own calculator packages in real builds: a broken package fails ``mkdocs build --strict``
naming the file, and ``mkdocs serve`` re-imports an edited module. The example site of
``tests/example_site/`` is the fixture."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.unit.course_calculators.plugin.test_packages import GOOD

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "tests" / "example_site"


# -- real builds -----------------------------------------------------------------------------------


def build_example_copy(tmp_path: Path, edit: dict[str, str]) -> subprocess.CompletedProcess:
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("__pycache__"))
    text = (site / "mkdocs.yml").read_text().replace("../../node_modules", str(ROOT / "node_modules"))
    (site / "mkdocs.yml").write_text(text)
    for file, source in edit.items():
        (site / file).write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=site, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


@pytest.mark.parametrize(
    "edit, words",
    [
        ({"loan_calcs/loan.py": "def compute(:\n"}, ["loan_calcs/loan.py:1: syntax error"]),
        ({"loan_calcs/loan.py": "import numpy\n"}, ["loan_calcs/loan.py:1", "'numpy'"]),
        ({"loan_calcs/extra.py": GOOD.format(id="loan")}, ["loan_calcs/loan.py: calculator id 'loan' is already defined in loan_calcs/extra.py"]),
    ],
    ids=["syntax", "third-party", "duplicate"],
)
def test_a_broken_package_fails_the_strict_build_naming_the_file(tmp_path, edit, words):
    proc = build_example_copy(tmp_path, edit)
    assert proc.returncode != 0
    for word in words:
        assert word in proc.stderr, proc.stderr


# -- mkdocs serve ----------------------------------------------------------------------------------


def example_copy(tmp_path: Path) -> Path:
    """A copy of the example site that serve can build without a snapshot."""
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("__pycache__"))
    text = (site / "mkdocs.yml").read_text().replace("../../node_modules", str(ROOT / "node_modules"))
    (site / "mkdocs.yml").write_text(text.replace("      packages:", "      snapshot: false\n      packages:"))
    return site


class Served:
    """A running `mkdocs serve`: :meth:`page` polls its loans page; ``stderr`` once it stopped."""

    def __init__(self, server: subprocess.Popen, port: int) -> None:
        self.server, self.port, self.stderr = server, port, ""

    def page(self, *needles: str) -> str:
        """The served page once it holds every needle (bounded; "" if it never does)."""
        import time
        import urllib.request

        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/loans/", timeout=5) as response:
                    page = response.read().decode()
                    if all(n in page for n in needles):
                        return page
            except OSError:
                pass
            if self.server.poll() is not None:
                return ""
            time.sleep(0.25)
        return ""


@contextlib.contextmanager
def mkdocs_serve(site: Path) -> Iterator[Served]:
    """A real `mkdocs serve` of ``site`` on a free port, stopped on leaving."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    served = Served(subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    ), port)
    try:
        yield served
    finally:
        served.server.terminate()
        _, served.stderr = served.server.communicate(timeout=30)


def test_mkdocs_serve_reloads_an_edited_package_module(tmp_path):
    """A real `mkdocs serve` of a copy of the example site: saving the module changes the page."""
    site = example_copy(tmp_path)
    with mkdocs_serve(site) as served:
        assert served.page(">Monthly payment<")
        module = site / "loan_calcs" / "loan.py"
        module.write_text(module.read_text().replace('"Monthly payment"', '"Payment each month"'))
        assert served.page(">Payment each month<"), "the edited module was not re-imported"
    assert "Error" not in served.stderr, served.stderr


def test_mkdocs_serve_keeps_the_others_beside_a_broken_module_and_refuses_a_raising_stop(tmp_path):
    """A real `mkdocs serve`: a module that does not parse leaves the site's other calculator
    working (a banner names the file), and a stop far from the defaults that raises, which serve's
    first rings never compute, is found by the check serve runs after the rebuild, as `build` does."""
    site = example_copy(tmp_path)
    (site / "loan_calcs" / "broken.py").write_text("def compute(:\n")
    module = site / "loan_calcs" / "loan.py"
    module.write_text(module.read_text().replace(
        'def compute(inputs: Mapping[str, Any]) -> dict[str, float]:\n',
        'def compute(inputs: Mapping[str, Any]) -> dict[str, float]:\n'
        '    if inputs["years"] >= 38:\n        raise ValueError("no loan that long")\n'))
    with mkdocs_serve(site) as served:
        page = served.page("loan_calcs/broken.py:1", "no loan that long")
        assert page, "the broken module or the raising stop was not shown"
        assert ">Monthly payment<" in page and "unknown calculator id" not in page
    assert "years=" in served.stderr and "no loan that long" in served.stderr, served.stderr
