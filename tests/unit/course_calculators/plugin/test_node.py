"""Finding Node.js (``plugin/node.py``): a missing or too old one is one line naming the framework.

A fake ``node`` on a PATH of its own stands for each case; no real Node is needed.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from course_calculators.plugin import node


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
