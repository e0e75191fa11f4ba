"""The tools a test layer needs beyond Python, found one way for every layer.

``tests/unit`` needs none of them. The other layers call :func:`need` for each tool they use: a
missing one fails the test with one message, naming the tool and what to install — the same
message in every layer, never a bare ``FileNotFoundError`` from deep in a build. (A browser
engine is the exception that may be left out on purpose: ``ENGINES`` skips it, saying so; see
``scripts/find_browsers.py``.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What to install for each tool, as the message says it.
INSTALL = {
    "node": "Node.js 20 or later (Debian: apt-get install -y nodejs npm), then `make setup`",
    "node_modules": "the pinned front-end packages: `make setup` (it runs `npm ci`)",
    "make": "GNU make (Debian: apt-get install -y make)",
}


def missing(tool: str) -> str | None:
    """Why ``tool`` cannot be used here, or None when it can."""
    if tool == "node_modules":
        return None if (ROOT / "node_modules" / "pyodide").is_dir() else "node_modules/ is not installed"
    return None if shutil.which(tool) else f"{tool} is not on PATH"


def need(tool: str) -> str:
    """The path of ``tool`` (``node_modules``: the folder); fails the test when it is missing."""
    why = missing(tool)
    if why:
        pytest.fail(f"{why}: install {INSTALL[tool]}", pytrace=False)
    return str(ROOT / "node_modules") if tool == "node_modules" else shutil.which(tool)


def need_build_tools() -> None:
    """What a site build needs besides Python: Node.js (the snapshot, the math) and node_modules."""
    need("node")
    need("node_modules")
