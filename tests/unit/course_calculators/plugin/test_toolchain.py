"""Node.js too old, or missing: one message naming this package, the version needed and found."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from course_calculators.plugin import toolchain

ROOT = Path(__file__).resolve().parents[4]
PYODIDE = ROOT / "node_modules" / "pyodide"


def fake_node(tmp_path: Path, version: str) -> str:
    path = tmp_path / "node"
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)
    return str(path)


def test_the_version_needed_is_pyodides_own(tmp_path):
    engines = json.loads((PYODIDE / "package.json").read_text())["engines"]["node"]
    assert toolchain.node_needed(PYODIDE) == max(toolchain._version(engines), toolchain.NODE_FLOOR)
    (tmp_path / "package.json").write_text('{"engines": {"node": ">=22.1.0"}}')
    assert toolchain.node_needed(tmp_path) == (22, 1, 0)
    (tmp_path / "package.json").write_text("{}")
    assert toolchain.node_needed(tmp_path) == toolchain.NODE_FLOOR


def test_this_machines_node_passes():
    assert toolchain.check_node(PYODIDE)


def test_an_old_node_is_refused_naming_the_package(tmp_path):
    node = fake_node(tmp_path, "v16.20.2")
    with pytest.raises(toolchain.ToolchainError) as err:
        toolchain.check_node(PYODIDE, node)
    message = str(err.value)
    assert message.startswith("course-calculators needs Node.js >= 18.0.0")
    assert "16.20.2" in message and node in message and "snapshot: false" in message


def test_no_node_at_all(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(toolchain.ToolchainError, match="found no `node` on PATH"):
        toolchain.check_node(PYODIDE)


def test_an_old_python_is_refused_naming_the_package(tmp_path):
    # A source checkout run by an older Python (pip itself refuses to install it there: Requires-Python).
    older = [p for p in (Path(os.popen("pyenv root 2>/dev/null").read().strip() or "/nonexistent") / "versions").glob("3.10*/bin/python3.10")]
    if not older:
        pytest.skip("no Python 3.10 here (pyenv install 3.10)")
    proc = subprocess.run([str(older[0]), "-c", "import course_calculators"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode != 0
    assert "ImportError: course-calculators needs Python 3.11 or newer; this is Python 3.10" in proc.stderr


@pytest.mark.parametrize("doc", ["README.md", "docs/authors.md"])
def test_the_readme_and_the_guide_say_what_is_needed_in_their_first_lines(doc):
    import tomllib

    head = "\n".join((ROOT / doc).read_text().splitlines()[:10])
    python = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"].removeprefix(">=")
    assert f"Python {python} or newer" in head
    assert f"Node.js {toolchain.NODE_FLOOR[0]} or newer" in head
