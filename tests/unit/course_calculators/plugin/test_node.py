"""Finding Node.js (``plugin/node.py``): a missing or too old one is one line naming the framework;
so is too old a Python, and the README and the guide say both floors in their first lines.

A fake ``node`` on a PATH of its own stands for each case; no real Node is needed.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from course_calculators.plugin import node

ROOT = Path(__file__).resolve().parents[4]


def fake_node(tmp_path: Path, says: str) -> Path:
    path = tmp_path / "node"
    path.write_text(f"#!/bin/sh\necho '{says}'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture(autouse=True)
def _fresh():
    node._version.cache_clear()
    yield
    node._version.cache_clear()


def test_a_new_enough_node_is_found(tmp_path, monkeypatch):
    path = fake_node(tmp_path, "v20.11.1")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert node.find_node() == str(path)


@pytest.mark.parametrize("says, words", [(None, "none found on PATH"), ("v16.20.2", "is v16.20"),
                                         ("hello", "does not say its version")])
def test_a_missing_or_old_node_is_one_line_naming_the_framework(tmp_path, monkeypatch, says, words):
    if says is not None:
        fake_node(tmp_path, says)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(node.NodeError) as exc:
        node.find_node()
    message = str(exc.value)
    assert "\n" not in message and message.startswith("course-calculators needs Node.js 18.0 or newer")
    assert words in message and "nodejs.org" in message


def test_an_old_python_is_refused_naming_the_package(tmp_path):
    # A source checkout run by an older Python (pip itself refuses to install it there: Requires-Python).
    older = [p for p in (Path(os.popen("pyenv root 2>/dev/null").read().strip() or "/nonexistent") / "versions").glob("3.10*/bin/python3.10")]
    if not older:
        pytest.skip("no Python 3.10 here (pyenv install 3.10)")
    proc = subprocess.run([str(older[0]), "-c", "import course_calculators"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode != 0
    assert "ImportError: course-calculators needs Python 3.11 or newer; this is Python 3.10" in proc.stderr


@pytest.mark.parametrize("doc", ["README.md", "course_calculators/README.md", "docs/authors.md"])
def test_the_readme_and_the_guide_say_what_is_needed_in_their_first_lines(doc):
    import tomllib

    head = "\n".join((ROOT / doc).read_text().splitlines()[:10])
    python = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"].removeprefix(">=")
    assert f"Python {python} or newer" in head
    assert f"Node.js {node.MIN_VERSION[0]} or newer" in head
